/* hole.c - hole names to indexes and back.
 *
 * The grammar is deliberately strict (RULES.md): one upper-case letter, then
 * a row number that starts with 1..9 and continues with digits. So "D06",
 * "D0", "d6", "D 6" and "D6x" are malformed, while "M5", "A13" or "A100" on
 * a 12 x 12 board are well-formed names of holes that are not there
 * (out of range). Digits are checked before their value is used, and the
 * value is only accumulated while it can still be on a board, so no length
 * of digits overflows.
 */
#include "hole.h"

#include <assert.h>

enum tx_hole_parse_result tx_hole_parse(const struct tx_geometry *geo, const char *s, size_t len,
                                        int *ret_hole)
{
    if (len < 2 || s[0] < 'A' || s[0] > 'Z' || s[1] < '1' || s[1] > '9')
        return TX_HOLE_MALFORMED;

    int row = 0;
    bool off_board = false;
    for (size_t i = 1; i < len; i++) {
        if (s[i] < '0' || s[i] > '9')
            return TX_HOLE_MALFORMED;
        if (!off_board) {
            row = row * 10 + (s[i] - '0');
            if (row > geo->size)
                off_board = true;
        }
    }

    int x = s[0] - 'A';
    if (off_board || x >= geo->size)
        return TX_HOLE_OUT_OF_RANGE;
    *ret_hole = (row - 1) * geo->size + x;
    return TX_HOLE_OK;
}

char *tx_hole_name(const struct tx_geometry *geo, int hole, char *buf)
{
    assert(hole >= 0 && hole < geo->holes);
    int x = tx_geometry_x(geo, hole);
    int row = tx_geometry_y(geo, hole) + 1;
    char *p = buf;
    *p++ = (char)('A' + x);
    if (row >= 10)
        *p++ = (char)('0' + row / 10);
    *p++ = (char)('0' + row % 10);
    *p = '\0';
    return buf;
}
