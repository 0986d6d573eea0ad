/* hole.h - hole names ("D6") to indexes and back, strictly per RULES.md.
 *
 * A name is one upper-case column letter followed by a row number without
 * leading zeros: "A1" .. "L12" on the 12 x 12 board. Anything else is not a
 * name. A well-formed name outside an N x N board (M5 or A13 on 12 x 12) is
 * told apart from a malformed one, because the referee reports the two
 * differently ("out of range M5" versus "not a move").
 */
#ifndef TX_HOLE_H
#define TX_HOLE_H

#include <stddef.h>

#include "geometry.h"

#define TX_HOLE_NAME_MAX 4 /* "Z26" plus the NUL */

enum tx_hole_parse_result {
    TX_HOLE_OK = 0,            /* *ret_hole is set (it may be a corner) */
    TX_HOLE_MALFORMED = -1,    /* not a hole name at all */
    TX_HOLE_OUT_OF_RANGE = -2, /* a letter+number name, off this board */
};

/* Parses exactly len bytes of s (no NUL needed). Corners parse as holes:
 * whether one may be played is the game's business. */
enum tx_hole_parse_result tx_hole_parse(const struct tx_geometry *geo, const char *s, size_t len,
                                        int *ret_hole);

/* Writes the name of hole into buf (at least TX_HOLE_NAME_MAX bytes) and
 * returns buf. */
char *tx_hole_name(const struct tx_geometry *geo, int hole, char *buf);

#endif
