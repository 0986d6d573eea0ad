/* test-answer.c - the bot output line parser, as a table of lines.
 *
 * Each row is one line as a bot might print it (without its "\n") and what
 * the parser must make of it: the move, the message and whether it was cut,
 * the token kept for the record, or the exact reason for refusing it.
 */
#include <check.h>
#include <errno.h>
#include <string.h>

#include "answer.h"
#include "game.h"
#include "hole.h"

#define FFFD "\xef\xbf\xbd"

static const struct {
    const char *line;
    size_t len;       /* 0: strlen(line) */
    const char *move; /* hole name, "SWAP", or NULL when refused */
    const char *message;
    bool cut;
    const char *token;
    const char *reason; /* expected reason when refused */
} rows[] = {
    {"D6", 0, "D6", "", false, "D6", NULL},
    {"L12", 0, "L12", "", false, "L12", NULL},
    {"SWAP", 0, "SWAP", "", false, "SWAP", NULL},
    {"A1", 0, "A1", "", false, "A1", NULL}, /* a corner parses: the game refuses it */
    {"D6 hello", 0, "D6", "hello", false, "D6", NULL},
    {"D6    two  spaces kept ", 0, "D6", "two  spaces kept ", false, "D6", NULL},
    {"D6\r", 0, "D6", "", false, "D6", NULL},
    {"D6 hi\r", 0, "D6", "hi", false, "D6", NULL},
    {"D6 ", 0, "D6", "", false, "D6", NULL},
    {"SWAP because", 0, "SWAP", "because", false, "SWAP", NULL},
    {"D6 12345678901234567890", 0, "D6", "12345678901234567890", false, "D6", NULL},
    {"D6 123456789012345678901", 0, "D6", "12345678901234567890", true, "D6", NULL},
    /* 21 two-byte characters: cut after 20, on a character boundary. */
    {"E5 \xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
     "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9",
     0, "E5",
     "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
     "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9",
     true, "E5", NULL},
    {"D6 \xf0\x9f\x98\x80 ok", 0, "D6", "\xf0\x9f\x98\x80 ok", false, "D6", NULL},
    {"D6 a\xff"
     "b",
     0, "D6", "a" FFFD "b", false, "D6", NULL},
    {"D6 a\0b", 6, "D6", "a" FFFD "b", false, "D6", NULL},
    {"D6 \xe2\x82", 0, "D6", FFFD FFFD, false, "D6", NULL},
    {"D6 hi\r\r", 0, "D6", "hi\r", false, "D6", NULL}, /* only one \r is removed */
    /* Refused lines. */
    {"", 0, NULL, "", false, "", "empty line"},
    {"\r", 0, NULL, "", false, "", "empty line"},
    {"d6", 0, NULL, "", false, "d6", "not a move: \"d6\""},
    {"swap", 0, NULL, "", false, "swap", "not a move: \"swap\""},
    {" D6", 0, NULL, "", false, " D6", "not a move: \" D6\""},
    {"  D6 hi", 0, NULL, "hi", false, "  D6", "not a move: \"  D6\""},
    {"   ", 0, NULL, "", false, "   ", "not a move: \"   \""},
    {"D06", 0, NULL, "", false, "D06", "not a move: \"D06\""},
    {"D6\tnote", 0, NULL, "", false, "D6\tnote", "not a move: \"D6\\x09note\""},
    {"D\0"
     "6",
     3, NULL, "", false, "D" FFFD "6", "not a move: \"D\\x006\""},
    {"D6\r\r", 0, NULL, "", false, "D6\r", "not a move: \"D6\\x0D\""},
    {"\x1b[2J", 0, NULL, "", false, "\x1b[2J", "not a move: \"\\x1B[2J\""},
    {"\"D6\"", 0, NULL, "", false, "\"D6\"", "not a move: \"\\\"D6\\\"\""},
    {"D\xff", 0, NULL, "", false, "D" FFFD, "not a move: \"D\\xFF\""},
    {"\xc3\xa9t\xc3\xa9", 0, NULL, "", false, "\xc3\xa9t\xc3\xa9",
     "not a move: \"\xc3\xa9t\xc3\xa9\""},
    {"\xc2\x9b"
     "1",
     0, NULL, "", false,
     "\xc2\x9b"
     "1",
     "not a move: \"\\xC2\\x9B1\""}, /* C1 control */
    {"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", 0, NULL, "", false,
     "ABCDEFGHIJKLMNOPQRSTUVWXYZ012345...", "not a move: \"ABCDEFGHIJKLMNOPQRSTUVWXYZ012345...\""},
    {"M5", 0, NULL, "", false, "M5", "out of range M5"},
    {"A13 hi", 0, NULL, "hi", false, "A13", "out of range A13"},
    {"Z26", 0, NULL, "", false, "Z26", "out of range Z26"},
};

START_TEST(parse_table)
{
    static struct tx_geometry *geo;
    ck_assert_int_eq((tx_geometry_free(geo), tx_geometry_new(12, 12, &geo)), 0);
    struct tx_answer a;
    size_t len = rows[_i].len ? rows[_i].len : strlen(rows[_i].line);
    int r = tx_answer_parse(geo, TX_RULES_PP, rows[_i].line, len, &a);

    if (rows[_i].move) {
        ck_assert_msg(r == 0, "row %d refused: %s", _i, a.reason);
        int expect;
        if (strcmp(rows[_i].move, "SWAP") == 0)
            expect = TX_MOVE_SWAP;
        else
            ck_assert_int_eq(tx_hole_parse(geo, rows[_i].move, strlen(rows[_i].move), &expect),
                             TX_HOLE_OK);
        ck_assert_int_eq(a.move, expect);
    } else {
        ck_assert_msg(r == -EINVAL, "row %d accepted", _i);
        ck_assert_str_eq(a.reason, rows[_i].reason);
    }
    ck_assert_str_eq(a.message, rows[_i].message);
    ck_assert_int_eq(a.message_cut, rows[_i].cut);
    ck_assert_str_eq(a.token, rows[_i].token);
}
END_TEST

START_TEST(parse_line_length_limit)
{
    static struct tx_geometry *geo;
    static char line[TX_ANSWER_LINE_MAX + 2];
    struct tx_answer a;
    ck_assert_int_eq((tx_geometry_free(geo), tx_geometry_new(12, 12, &geo)), 0);
    memset(line, 'x', sizeof(line));
    memcpy(line, "D6 ", 3);
    /* Exactly the limit is a line; the message is cut. */
    ck_assert_int_eq(tx_answer_parse(geo, TX_RULES_PP, line, TX_ANSWER_LINE_MAX, &a), 0);
    ck_assert(a.message_cut);
    ck_assert_uint_eq(strlen(a.message), TX_MESSAGE_CHARS);
    ck_assert_int_eq(tx_answer_parse(geo, TX_RULES_PP, line, TX_ANSWER_LINE_MAX + 1, &a), -EINVAL);
    ck_assert_str_eq(a.reason, "line longer than 4096 bytes");
    /* The limit counts the line as received, a trailing \r included. */
    line[TX_ANSWER_LINE_MAX] = '\r';
    ck_assert_int_eq(tx_answer_parse(geo, TX_RULES_PP, line, TX_ANSWER_LINE_MAX + 1, &a), -EINVAL);
}
END_TEST

/* Every refusal is a kind as well as words, and the words read back to the
 * kind (the verifier checks recorded details with tx_answer_error_of). */
START_TEST(parse_error_kinds_read_back)
{
    static struct tx_geometry *geo;
    static const struct {
        const char *line;
        enum tx_answer_error error;
    } kinds[] = {
        {"", TX_ANSWER_EMPTY},          {"\r", TX_ANSWER_EMPTY},
        {"M5", TX_ANSWER_OUT_OF_RANGE}, {"d6", TX_ANSWER_NOT_A_MOVE},
        {" D6", TX_ANSWER_NOT_A_MOVE},  {"\"quoted\"", TX_ANSWER_NOT_A_MOVE},
        {"D6 fine", TX_ANSWER_OK},
    };
    struct tx_answer a;
    ck_assert_int_eq((tx_geometry_free(geo), tx_geometry_new(12, 12, &geo)), 0);
    for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
        int r = tx_answer_parse(geo, TX_RULES_PP, kinds[i].line, strlen(kinds[i].line), &a);
        ck_assert_int_eq(r, kinds[i].error == TX_ANSWER_OK ? 0 : -EINVAL);
        ck_assert_int_eq(a.error, kinds[i].error);
        if (r < 0)
            ck_assert_int_eq(tx_answer_error_of(a.reason), kinds[i].error);
    }
    /* The first 4096 bytes of a longer line: its token and message stay. */
    ck_assert_int_eq(tx_answer_parse(geo, TX_RULES_PP, "B1 mmm", 6, &a), 0);
    ck_assert_int_eq(tx_answer_refuse_too_long(&a), -EINVAL);
    ck_assert_int_eq(a.error, TX_ANSWER_TOO_LONG);
    ck_assert_str_eq(a.reason, "line longer than 4096 bytes");
    ck_assert_str_eq(a.token, "B1");
    ck_assert_str_eq(a.message, "mmm");
    ck_assert_int_eq(tx_answer_error_of(a.reason), TX_ANSWER_TOO_LONG);
    /* Other details are no refusal of the parser. */
    ck_assert_int_eq(tx_answer_error_of("occupied hole D6"), TX_ANSWER_OK);
    ck_assert_int_eq(tx_answer_error_of("line longer than 4096 bytes; its first turn"),
                     TX_ANSWER_OK);
    ck_assert_int_eq(tx_answer_error_of("not a move: \"d6"), TX_ANSWER_OK);
}
END_TEST

START_TEST(parse_depends_on_board_size)
{
    static struct tx_geometry *geo;
    struct tx_answer a;
    ck_assert_int_eq((tx_geometry_free(geo), tx_geometry_new(26, 26, &geo)), 0);
    ck_assert_int_eq(tx_answer_parse(geo, TX_RULES_PP, "Z26", 3, &a), 0);
    ck_assert_int_eq(a.move, 26 * 26 - 1);
    ck_assert_int_eq((tx_geometry_free(geo), tx_geometry_new(5, 5, &geo)), 0);
    ck_assert_int_eq(tx_answer_parse(geo, TX_RULES_PP, "F1", 2, &a), -EINVAL);
    ck_assert_str_eq(a.reason, "out of range F1");
}
END_TEST

static Suite *answer_suite(void)
{
    Suite *s = suite_create("answer");
    TCase *tc = tcase_create("answer");
    tcase_add_loop_test(tc, parse_table, 0, (int)(sizeof(rows) / sizeof(rows[0])));
    tcase_add_test(tc, parse_line_length_limit);
    tcase_add_test(tc, parse_error_kinds_read_back);
    tcase_add_test(tc, parse_depends_on_board_size);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(answer_suite());
    srunner_run_all(sr, CK_ENV);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? 0 : 1;
}
