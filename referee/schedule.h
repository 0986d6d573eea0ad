/* schedule.h - openings files, and the constants of every run's schedule.
 *
 * Which games a run plays, in which order and colours, with which seeds
 * and openings, is the pool's business (pool.h, pairing.h): a game is
 * identified by its pairing and its number k in it, whatever else the run
 * holds. What is left here is reading an openings file (--openings-file),
 * each line checked by playing it. (Seeds are made with splitmix.h.)
 */
#ifndef TX_SCHEDULE_H
#define TX_SCHEDULE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "game.h"
#include "geometry.h"
#include "pairing.h"
#include "pool.h"

#define TX_SCHEDULE_BOTS_MAX TX_POOL_BOTS_MAX          /* bots in one run */
#define TX_SCHEDULE_OPENING_MAX TX_PAIRING_OPENING_MAX /* forced moves in one opening */
#define TX_SCHEDULE_OPENING_LINES_MAX 100000           /* lines of an openings file */
#define TX_SCHEDULE_SEED_MASK TX_PAIRING_SEED_MASK     /* per-game seeds fit JSON exactly */

/* Reads an openings file: one opening per line, holes separated by spaces
 * ("F6 G8 D5"), blank lines and lines starting with '#' skipped. Every line
 * is checked by playing it under rules (legal, no SWAP, not ending the game, at most
 * TX_SCHEDULE_OPENING_MAX moves). text is the file's content (len bytes),
 * name its path for messages. On success *ret_lines is a malloc'ed array of
 * *ret_n openings. Returns 0, -EINVAL with "FILE:LINE: what was expected"
 * in err, or -ENOMEM. */
int tx_schedule_parse_openings(const struct tx_geometry *geo, enum tx_rules rules, const char *name,
                               const char *text, size_t len, struct tx_opening **ret_lines,
                               int *ret_n, char *err, size_t errcap);

#endif
