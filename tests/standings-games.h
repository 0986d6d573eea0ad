/* standings-games.h - valid records of games whose results the test
 * chooses, for the standings' tests (test-standings.c) and the dashboard's
 * (make-standings-games.c): games of two bots and of Double TwixT, even or
 * with a handicap, under any opening but the cut.
 *
 * Each game is played on libtwixt by seeded random legal moves (never a
 * swap) and written as the referee writes a record, so that the loader,
 * `replay` and the standings' checks all accept it: a connection is
 * searched for over seeds until the side asked for wins; a fault is a
 * timeout (or a crash) of the seat asked for, after a few moves. A handicap
 * game's board is oriented so that the handicapped side has the longer
 * distance, as the referee orients it.
 */
#ifndef TX_STANDINGS_GAMES_H
#define TX_STANDINGS_GAMES_H

#include <stdint.h>
#include <stdio.h>

#include "record.h"

struct tx_test_game {
    int64_t game;           /* its number in its file, from 1 */
    const char *players[4]; /* names in seat order: two, or four with teams */
    const char *teams[2];   /* the teams' names (seats 1 and 3, then 2 and 4), NULL for two bots */
    int winner;             /* the player, or with teams the team, that wins: 0 or 1 */
    enum tx_reason reason;  /* TX_REASON_CONNECTION, _TIMEOUT or _CRASH */
    int fault_seat;         /* with a fault: the seat whose fault it is (a loser's) */
    const char *handicap;   /* the bot (or team) with the longer distance, or NULL */
    int width, height;      /* the board (0: 12 x 12); a handicap orients it */
    enum tx_opening_rule opening; /* swap, pie or none */
};

/* Plays and records the game spec describes into r (free it with
 * tx_record_free). Aborts when no seed gives the result asked for. */
void tx_test_game_record(const struct tx_test_game *spec, struct tx_record *r);

/* The same, written to f as one JSON line. */
void tx_test_game_write(const struct tx_test_game *spec, FILE *f);

#endif
