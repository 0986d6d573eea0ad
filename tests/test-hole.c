/* test-hole.c - hole names both ways, strictly per RULES.md.
 *
 * Every hole of several boards (square and not, up to 100 x 100, where
 * columns go on from Z to AA, AB, ... CV) round-trips through its name; a
 * table of malformed names (case, leading zeros, spaces, stray bytes, three
 * letters) and a table of well-formed names off the board check that the
 * two failures stay apart, because the referee words them differently.
 * The coordinates a name gives on any board (what classic link edits
 * name), the span of a name inside a longer token and the column names are
 * checked by example.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "hole.h"

static struct tx_geometry *geo;

static void board(int width, int height)
{
    ck_assert_int_eq((tx_geometry_free(geo), tx_geometry_new(width, height, &geo)), 0);
}

/* Square boards for parse(), built once: main builds every size the tests
 * use before the tests are forked, so that each test does not build the
 * 2 MiB tables of 100 x 100 again (hundreds of times, under ASan). */
static struct tx_geometry *squares[TX_SIDE_MAX + 1];

static const struct tx_geometry *square(int size)
{
    if (!squares[size] && tx_geometry_new(size, size, &squares[size]) != 0)
        abort();
    return squares[size];
}

static enum tx_hole_parse_result parse(int size, const char *s, size_t len, int *hole)
{
    return tx_hole_parse(square(size), s, len, hole);
}

static const struct {
    int width, height;
} boards[] = {{5, 5},   {8, 8},   {12, 12}, {24, 24}, {26, 26},  {27, 27},
              {30, 24}, {53, 20}, {100, 5}, {5, 100}, {100, 100}};

START_TEST(name_round_trip_every_size)
{
    board(boards[_i].width, boards[_i].height);
    for (int h = 0; h < geo->holes; h++) {
        char name[TX_HOLE_NAME_MAX];
        int back = -1;
        tx_hole_name(geo, h, name);
        ck_assert_uint_le(strlen(name), TX_HOLE_NAME_MAX - 1);
        ck_assert_int_eq(tx_hole_parse(geo, name, strlen(name), &back), TX_HOLE_OK);
        ck_assert_int_eq(back, h);
        /* The table's copy, as the input writer reads it: same bytes, its
         * stored length right, and the name made from the coordinates. */
        size_t len;
        const char *ref = tx_hole_name_ref(geo, h, &len);
        ck_assert_uint_eq(len, strlen(name));
        ck_assert_str_eq(ref, name);
        char made[TX_HOLE_NAME_MAX];
        ck_assert_uint_eq(tx_hole_format(tx_geometry_x(geo, h), tx_geometry_y(geo, h), made), len);
        ck_assert_str_eq(made, name);
    }
}
END_TEST

START_TEST(name_examples)
{
    char name[TX_HOLE_NAME_MAX];
    ck_assert_int_eq((tx_geometry_free(geo), tx_geometry_new(12, 12, &geo)), 0);
    int d6 = tx_geometry_hole(geo, 3, 5);
    ck_assert_str_eq(tx_hole_name(geo, d6, name), "D6");
    ck_assert_str_eq(tx_hole_name(geo, 0, name), "A1");
    ck_assert_str_eq(tx_hole_name(geo, 11, name), "L1");
    ck_assert_str_eq(tx_hole_name(geo, 143, name), "L12");
    ck_assert_str_eq(tx_hole_name(geo, tx_geometry_hole(geo, 0, 9), name), "A10");
    ck_assert_int_eq((tx_geometry_free(geo), tx_geometry_new(26, 26, &geo)), 0);
    ck_assert_str_eq(tx_hole_name(geo, 26 * 26 - 1, name), "Z26");
    /* Past Z: AA is column 27, AZ 52, BA 53, CV 100 (RULES.md). */
    board(100, 100);
    ck_assert_str_eq(tx_hole_name(geo, tx_geometry_hole(geo, 25, 8), name), "Z9");
    ck_assert_str_eq(tx_hole_name(geo, tx_geometry_hole(geo, 26, 9), name), "AA10");
    ck_assert_str_eq(tx_hole_name(geo, tx_geometry_hole(geo, 51, 0), name), "AZ1");
    ck_assert_str_eq(tx_hole_name(geo, tx_geometry_hole(geo, 52, 0), name), "BA1");
    ck_assert_str_eq(tx_hole_name(geo, tx_geometry_hole(geo, 99, 99), name), "CV100");
    ck_assert_uint_eq(strlen(name), TX_HOLE_NAME_MAX - 1);
    board(30, 24);
    ck_assert_str_eq(tx_hole_name(geo, geo->holes - 1, name), "AD24");
}
END_TEST

START_TEST(parse_examples)
{
    int h = -1;
    ck_assert_int_eq(parse(12, "D6", 2, &h), TX_HOLE_OK);
    ck_assert_int_eq(h, 5 * 12 + 3);
    ck_assert_int_eq(parse(12, "L12", 3, &h), TX_HOLE_OK);
    ck_assert_int_eq(h, 143);
    ck_assert_int_eq(parse(5, "E5", 2, &h), TX_HOLE_OK);
    ck_assert_int_eq(h, 24);
    ck_assert_int_eq(parse(26, "Z26", 3, &h), TX_HOLE_OK);
    ck_assert_int_eq(h, 26 * 26 - 1);
    ck_assert_int_eq(parse(100, "CV100", 5, &h), TX_HOLE_OK);
    ck_assert_int_eq(h, 100 * 100 - 1);
    ck_assert_int_eq(parse(100, "AA10", 4, &h), TX_HOLE_OK);
    ck_assert_int_eq(h, 9 * 100 + 26);
    board(30, 24);
    ck_assert_int_eq(tx_hole_parse(geo, "AD24", 4, &h), TX_HOLE_OK);
    ck_assert_int_eq(h, 23 * 30 + 29);
    ck_assert_int_eq(tx_hole_parse(geo, "X30", 3, &h), TX_HOLE_OUT_OF_RANGE);
    ck_assert_int_eq(tx_hole_parse(geo, "AE1", 3, &h), TX_HOLE_OUT_OF_RANGE);
}
END_TEST

START_TEST(parse_corners_are_holes)
{
    int h = -1;
    ck_assert_int_eq(parse(12, "A1", 2, &h), TX_HOLE_OK);
    ck_assert_int_eq(h, 0);
    ck_assert_int_eq(parse(12, "L12", 3, &h), TX_HOLE_OK);
    ck_assert_int_eq(h, 143);
}
END_TEST

START_TEST(parse_reads_exactly_len_bytes)
{
    int h = -1;
    ck_assert_int_eq(parse(12, "D6x", 2, &h), TX_HOLE_OK);
    ck_assert_int_eq(h, 63);
    ck_assert_int_eq(parse(12, "D12", 2, &h), TX_HOLE_OK);
    ck_assert_int_eq(h, 3);
    ck_assert_int_eq(parse(12, "D6", 1, &h), TX_HOLE_MALFORMED);
    ck_assert_int_eq(parse(12, "D6", 0, &h), TX_HOLE_MALFORMED);
}
END_TEST

static const struct {
    const char *s;
    size_t len;
} malformed[] = {
    {"", 0},
    {"D", 1},
    {"6", 1},
    {"66", 2},
    {"d6", 2},
    {"D06", 3},
    {"D0", 2},
    {"D00", 3},
    {"D 6", 3},
    {" D6", 3},
    {"D6 ", 3},
    {"D6\n", 3},
    {"D6\r", 3},
    {"D6x", 3},
    {"DDD6", 4},
    {"AAA1", 4},
    {"aa10", 4},
    {"Aa10", 4},
    {"aA10", 4},
    {"AA0", 3},
    {"AA01", 4},
    {"A0", 2},
    {"AA", 2},
    {"D-6", 3},
    {"D+6", 3},
    {"@6", 2},
    {"[6", 2},
    {"D1.5", 4},
    {"D\0"
     "6",
     3},
    {"D6\0", 3},
    {"SWAP", 4},
    {"\xc3\x84"
     "6",
     3},
    {"D\xd9\xa6", 3},
    {"D1e1", 4},
    {"a1", 2},
    {"D\t6", 3},
};

START_TEST(parse_malformed)
{
    int h = 12345;
    for (int size = TX_SIZE_MIN; size <= TX_SIZE_MAX; size += 7) {
        ck_assert_msg(parse(size, malformed[_i].s, malformed[_i].len, &h) == TX_HOLE_MALFORMED,
                      "case %d on size %d", _i, size);
        ck_assert_int_eq(h, 12345); /* untouched on failure */
    }
}
END_TEST

static const struct {
    int size;
    const char *s;
} off_board[] = {
    {12, "M5"},     {12, "Z1"},     {12, "A13"},
    {12, "L13"},    {12, "A100"},   {12, "A99999999999999999999999"},
    {5, "F1"},      {5, "A6"},      {5, "E10"},
    {25, "Z1"},     {26, "A27"},    {26, "Z27"},
    {12, "DD6"},    {26, "AA1"},    {99, "CV1"},
    {100, "CW1"},   {100, "ZZ1"},   {100, "A101"},
    {100, "CV101"}, {100, "A1000"},
};

START_TEST(parse_out_of_range)
{
    int h = 12345;
    ck_assert_msg(parse(off_board[_i].size, off_board[_i].s, strlen(off_board[_i].s), &h) ==
                      TX_HOLE_OUT_OF_RANGE,
                  "%s on size %d", off_board[_i].s, off_board[_i].size);
    ck_assert_int_eq(h, 12345);
}
END_TEST

/* The coordinates of a name on any board (what link edits name), the span
 * of a name at the start of a longer token, and the column names. */
START_TEST(coords_span_and_columns)
{
    static const struct {
        const char *s;
        int x, y; /* -1: not a name */
    } coords[] = {
        {"A1", 0, 0},        {"D6", 3, 5},     {"Z9", 25, 8},     {"AA10", 26, 9},
        {"AZ1", 51, 0},      {"BA1", 52, 0},   {"CV100", 99, 99}, {"CW1", 100, 0},
        {"ZZ999", 701, 998}, {"A999", 0, 998}, {"A1000", -1, -1}, {"A0", -1, -1},
        {"A01", -1, -1},     {"AAA1", -1, -1}, {"aa10", -1, -1},  {"AA", -1, -1},
        {"", -1, -1},        {"1", -1, -1},    {"A1 ", -1, -1},   {"A-1", -1, -1},
    };
    static const struct {
        const char *s;
        size_t span;
    } spans[] = {
        {"A6:B4", 2}, {"AA10:B3", 4}, {"CV100x", 5}, {"D6", 2},  {"a1", 0},
        {"A", 0},     {"AAA1", 0},    {"A0", 0},     {":A1", 0}, {"A1000", 5},
    };
    static const char *const columns[] = {"A", "B", "Z", "AA", "AB", "AZ", "BA", "CV", "ZZ"};
    static const int column_x[] = {0, 1, 25, 26, 27, 51, 52, 99, 701};

    for (size_t i = 0; i < sizeof coords / sizeof coords[0]; i++) {
        int x = -1, y = -1;
        bool ok = tx_hole_coords(coords[i].s, strlen(coords[i].s), &x, &y);
        ck_assert_msg(ok == (coords[i].x >= 0), "tx_hole_coords(\"%s\") is %d", coords[i].s, ok);
        if (ok)
            ck_assert_msg(x == coords[i].x && y == coords[i].y, "%s is (%d, %d)", coords[i].s, x,
                          y);
    }
    for (size_t i = 0; i < sizeof spans / sizeof spans[0]; i++)
        ck_assert_msg(tx_hole_span(spans[i].s, strlen(spans[i].s)) == spans[i].span,
                      "tx_hole_span(\"%s\")", spans[i].s);
    for (size_t i = 0; i < sizeof columns / sizeof columns[0]; i++) {
        char name[3];
        ck_assert_str_eq(tx_hole_column_name(column_x[i], name), columns[i]);
    }
}
END_TEST

static Suite *hole_suite(void)
{
    Suite *s = suite_create("hole");
    TCase *tc = tcase_create("hole");
    tcase_add_loop_test(tc, name_round_trip_every_size, 0, (int)(sizeof boards / sizeof boards[0]));
    tcase_add_test(tc, name_examples);
    tcase_add_test(tc, parse_examples);
    tcase_add_test(tc, parse_corners_are_holes);
    tcase_add_test(tc, parse_reads_exactly_len_bytes);
    tcase_add_loop_test(tc, parse_malformed, 0, (int)(sizeof(malformed) / sizeof(malformed[0])));
    tcase_add_loop_test(tc, parse_out_of_range, 0, (int)(sizeof(off_board) / sizeof(off_board[0])));
    tcase_add_test(tc, coords_span_and_columns);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    for (int size = TX_SIZE_MIN; size <= TX_SIZE_MAX; size += 7)
        square(size);
    for (size_t i = 0; i < sizeof off_board / sizeof off_board[0]; i++)
        square(off_board[i].size);
    SRunner *sr = srunner_create(hole_suite());
    srunner_run_all(sr, CK_ENV);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    for (int size = 0; size <= TX_SIDE_MAX; size++)
        tx_geometry_free(squares[size]);
    return failed == 0 ? 0 : 1;
}
