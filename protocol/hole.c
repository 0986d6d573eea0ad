/* hole.c - hole names to indexes and back.
 *
 * The grammar is deliberately strict (RULES.md): one or two upper-case
 * letters, then a row number that starts with 1..9 and continues with
 * digits. So "D06", "D0", "d6", "aa10", "AAA1", "D 6" and "D6x" are
 * malformed, while "M5", "A13" or "AA1" on a 12 x 12 board are well-formed
 * names of holes that are not there (out of range). Digits are checked
 * before their value is used, and the value is only accumulated while it
 * can still be on a board, so no length of digits overflows.
 */
#include "hole.h"

#include <assert.h>
#include <stdbool.h>
#include <string.h>

static bool upper(char c)
{
    return c >= 'A' && c <= 'Z';
}

static bool digit(char c)
{
    return c >= '0' && c <= '9';
}

size_t tx_hole_span(const char *s, size_t len)
{
    size_t letters = 0;
    while (letters < len && letters < 3 && upper(s[letters]))
        letters++;
    if (letters == 0 || letters > 2 || letters == len || s[letters] < '1' || s[letters] > '9')
        return 0;
    size_t end = letters + 1;
    while (end < len && digit(s[end]))
        end++;
    return end;
}

enum tx_hole_parse_result tx_hole_parse(const struct tx_geometry *geo, const char *s, size_t len,
                                        int *ret_hole)
{
    if (len == 0 || tx_hole_span(s, len) != len)
        return TX_HOLE_MALFORMED;

    size_t letters = upper(s[1]) ? 2 : 1;
    int x = letters == 2 ? (s[0] - 'A' + 1) * 26 + (s[1] - 'A') : s[0] - 'A';
    int row = 0;
    bool off_board = false;
    for (size_t i = letters; i < len; i++) {
        if (!off_board) {
            row = row * 10 + (s[i] - '0');
            if (row > geo->height)
                off_board = true;
        }
    }

    if (off_board || x >= geo->width)
        return TX_HOLE_OUT_OF_RANGE;
    *ret_hole = (row - 1) * geo->width + x;
    return TX_HOLE_OK;
}

bool tx_hole_coords(const char *s, size_t len, int *ret_x, int *ret_y)
{
    if (len == 0 || tx_hole_span(s, len) != len)
        return false;
    size_t letters = upper(s[1]) ? 2 : 1;
    if (len - letters > 3)
        return false;
    int x = letters == 2 ? (s[0] - 'A' + 1) * 26 + (s[1] - 'A') : s[0] - 'A';
    int row = 0;
    for (size_t i = letters; i < len; i++)
        row = row * 10 + (s[i] - '0');
    *ret_x = x;
    *ret_y = row - 1;
    return true;
}

char *tx_hole_column_name(int x, char *buf)
{
    assert(x >= 0 && x < 26 * 27);
    char *p = buf;
    if (x >= 26)
        *p++ = (char)('A' + x / 26 - 1);
    *p++ = (char)('A' + x % 26);
    *p = '\0';
    return buf;
}

size_t tx_hole_format(int x, int y, char *buf)
{
    int row = y + 1;
    char *p = buf + strlen(tx_hole_column_name(x, buf));
    if (row >= 100)
        *p++ = (char)('0' + row / 100);
    if (row >= 10)
        *p++ = (char)('0' + row / 10 % 10);
    *p++ = (char)('0' + row % 10);
    *p = '\0';
    return (size_t)(p - buf);
}

char *tx_hole_name(const struct tx_geometry *geo, int hole, char *buf)
{
    assert(hole >= 0 && hole < geo->holes);
    memcpy(buf, geo->name[hole], TX_HOLE_NAME_MAX);
    return buf;
}
