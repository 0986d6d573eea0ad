/* hole.h - hole names ("D6", "AA10") to indexes and back, strictly per
 * RULES.md.
 *
 * A name is a column of one or two upper-case letters followed by a row
 * number without leading zeros. Columns are A..Z, then AA, AB, ... AZ, BA,
 * ... (bijective base 26: AA is column 27, CV column 100). Anything else is
 * not a name. A well-formed name outside the board (M5 or A13 on 12 x 12,
 * AA1 on 26 columns) is told apart from a malformed one, because the
 * referee reports the two differently ("out of range M5" versus "not a
 * move").
 */
#ifndef TX_HOLE_H
#define TX_HOLE_H

#include <stdbool.h>
#include <stddef.h>

#include "geometry.h"

#define TX_HOLE_NAME_MAX 6 /* "CV100" plus the NUL */

enum tx_hole_parse_result {
    TX_HOLE_OK = 0,            /* *ret_hole is set (it may be a corner) */
    TX_HOLE_MALFORMED = -1,    /* not a hole name at all */
    TX_HOLE_OUT_OF_RANGE = -2, /* a letters+number name, off this board */
};

/* Parses exactly len bytes of s (no NUL needed). Corners parse as holes:
 * whether one may be played is the game's business. */
enum tx_hole_parse_result tx_hole_parse(const struct tx_geometry *geo, const char *s, size_t len,
                                        int *ret_hole);

/* Bytes at the start of s (len bytes) that have the shape of a hole name
 * (one or two upper-case letters, then a digit 1..9 and more digits), 0 when
 * none: lets a caller find where a name ends in a longer token ("A6:B4"). */
size_t tx_hole_span(const char *s, size_t len);

/* The coordinates (x the column, y the row, from 0) a name of exactly len
 * bytes gives, on any board: one or two letters, then a row of at most
 * three digits (no board has more). False when s is not such a name. */
bool tx_hole_coords(const char *s, size_t len, int *ret_x, int *ret_y);

/* Writes the name of hole into buf (at least TX_HOLE_NAME_MAX bytes) and
 * returns buf. */
char *tx_hole_name(const struct tx_geometry *geo, int hole, char *buf);

/* The name of hole in the board's table (NUL-terminated; *len gets its
 * length), without a copy: inputs write thousands a turn on big boards. */
static inline const char *tx_hole_name_ref(const struct tx_geometry *geo, int hole, size_t *len)
{
    *len = (size_t)(unsigned char)geo->name[hole][7];
    return geo->name[hole];
}

/* Writes the name of column x, row y (both from 0) into buf (at least
 * TX_HOLE_NAME_MAX bytes, NUL-terminated) and returns its length: the one
 * place names are made (tx_geometry_new fills its table with it). */
size_t tx_hole_format(int x, int y, char *buf);

/* Writes the name of column x (0-based: "A", ..., "Z", "AA", ...) into buf
 * (at least 3 bytes) and returns buf. */
char *tx_hole_column_name(int x, char *buf);

#endif
