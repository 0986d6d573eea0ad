/* make-standings-games.c - Double TwixT and handicap records for the
 * dashboard's test (tests/viewer/test-dashboard.py).
 *
 * usage: make-standings-games > games.jsonl
 *
 * Four bots play in three pairs of teams, every partnership once (ace and
 * bee against cat and dog, and so on), six games a pairing with the
 * colours exchanged; the team with ace wins five of six, so ace ranks
 * first among the bots. One team's name is markup, which the page must
 * show as text. A few games end by a fault (a timeout, a crash) of one
 * bot, which its team loses. Then ace, handicapped on 14 x 12, plays bee
 * six games (the board oriented for ace each time). Every record is valid
 * (standings-games.h).
 */
#include <stdio.h>
#include <stdlib.h>

#include "standings-games.h"

int main(void)
{
    static const struct {
        const char *name[2];
        const char *bots[2][2];
    } pairings[] = {
        {{"aces", "cats"}, {{"ace", "bee"}, {"cat", "dog"}}},
        {{"<b>east</b>", "west"}, {{"ace", "cat"}, {"bee", "dog"}}},
        {{"ad", "bc"}, {{"ace", "dog"}, {"bee", "cat"}}},
    };
    int64_t game = 0;
    for (int p = 0; p < 3; p++)
        for (int k = 0; k < 6; k++) {
            /* colours exchanged from game to game: the ace team is red in even k */
            int red = k % 2, ace = red == 0 ? 0 : 1, winner = k == 5 ? 1 - ace : ace;
            struct tx_test_game spec = {
                .game = ++game,
                .players = {pairings[p].bots[red][0], pairings[p].bots[1 - red][0],
                            pairings[p].bots[red][1], pairings[p].bots[1 - red][1]},
                .teams = {pairings[p].name[red], pairings[p].name[1 - red]},
                .winner = winner,
                .reason = TX_REASON_CONNECTION,
            };
            if (k == 1) { /* the loser's second bot times out */
                spec.reason = TX_REASON_TIMEOUT;
                spec.fault_seat = (1 - winner) + 2;
            }
            if (k == 5 && p == 2) { /* ace crashes: its team loses */
                spec.reason = TX_REASON_CRASH;
                spec.fault_seat = ace;
            }
            tx_test_game_write(&spec, stdout);
        }
    for (int k = 0; k < 6; k++) {
        struct tx_test_game spec = {
            .game = ++game,
            .players = {k % 2 ? "bee" : "ace", k % 2 ? "ace" : "bee"},
            .winner = (k % 2) ^ (k == 4),
            .reason = TX_REASON_CONNECTION,
            .handicap = "ace",
            .width = 14,
            .height = 12,
        };
        tx_test_game_write(&spec, stdout);
    }
    return fflush(stdout) == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
