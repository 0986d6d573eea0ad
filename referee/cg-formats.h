/* cg-formats.h - a finished game in the formats of the CodinGame toolchain:
 * what `twixt-arena referee` prints and writes for brutaltester, psyleague
 * and cgarena (cmd-referee.c).
 *
 * Everything is made from the game's record (record.h), which holds each
 * turn's answer and the bot's stderr of that turn, so the log and the
 * native outputs say the same as the record a replay shows:
 *
 *   - scores: what a CodinGame referee prints, one per player: 1 a win,
 *     0 a loss or a draw, -1 a loss by the player's own fault (an invalid
 *     answer, a timeout, a crash), which brutaltester reports as an error
 *     and the stock play_game scripts count in "errors";
 *   - the game log of `-l FILE`: the CodinGame SDK's GameResultDto as its
 *     runner writes it with Gson (errors, outputs, summaries, views,
 *     scores, uinput, tooltips, ids, agents; failCause only when the game
 *     did not end), one frame per answer and a last frame for the end, each
 *     bot's stderr of a turn in that frame's errors entry, null where the
 *     bot wrote nothing (as the SDK's readError), so the [PDATA] and
 *     [TDATA] lines bots print reach the stock scripts as from CodinGame's
 *     referee;
 *   - psyleague's game JSON (ranks, errors, test_data with the seed and the
 *     [TDATA] values, player_data from [PDATA] and [PDATA+]) and cgarena's
 *     match JSON (ranks, errors, attributes with string values), read from
 *     the bots' stderr exactly as each tool's stock play_game script reads
 *     the log, without its ways to fail (a [PDATA+] value that is not a
 *     number is left out; a turn cgarena cannot hold, over 65535, is null).
 *
 * Pure: no I/O. Trees are cJSON's; out of memory aborts (alloc.h).
 */
#ifndef TX_CG_FORMATS_H
#define TX_CG_FORMATS_H

#include <stdint.h>

#include <cjson/cJSON.h>

#include "record.h"

/* A record of a game that ended (not interrupted): player p's score as a
 * CodinGame referee gives it. */
int tx_cg_score(const struct tx_record *r, int p);

/* The ranks of trueskill, psyleague and cgarena from the scores: a
 * player's rank is the number of players that scored more (0 the best,
 * equal ranks a draw); and the errors: 1 for a player that lost by its own
 * fault. */
void tx_cg_ranks(const struct tx_record *r, int ranks[2], int errors[2]);

/* The game log (GameResultDto). seed is the game's seed as given (its
 * "seed=N" line is the game's parameters, uinput); referee_stderr what
 * the referee itself wrote to stderr before the game (a warning), shown in
 * the first frame's errors.referee, or NULL. An interrupted game has no
 * scores and says why in failCause. */
cJSON *tx_cg_log(const struct tx_record *r, int64_t seed, const char *referee_stderr);

/* psyleague's game JSON: ranks, errors, test_data {"seed": N, [TDATA]
 * values}, player_data [{[PDATA] values, [PDATA+] sums}]. */
cJSON *tx_cg_psyleague(const struct tx_record *r, int64_t seed);

/* cgarena's match JSON: ranks, errors, attributes [{name, player (null for
 * [TDATA]), turn ([PDATA][T]'s T, else null), value (a string)}]. */
cJSON *tx_cg_cgarena(const struct tx_record *r);

#endif
