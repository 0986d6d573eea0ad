/* test-answer.c - the bot output line parser, as tables of lines.
 *
 * Each row is one line as a bot might print it (without its "\n") and what
 * the parser must make of it: the move, the message and whether it was cut,
 * the token kept for the record, or the exact reason for refusing it. A
 * second table holds classic answers with link edits (their shapes, where
 * the message starts, either endpoint order, the same lines under pp where
 * all of it is message), and the longest answer a line can hold.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
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

/* Classic answers (RULES.md "Link edits"): after the move, the tokens that
 * have an edit's shape (a sign, a hole name of one or two letters and a row
 * of at most three digits, ':', a hole name) are edits, in the order
 * written, with their holes as written (on this board or not: the game
 * judges them); the first token without that shape starts the message. */
#define MAX_ROW_EDITS 4
static const struct {
    const char *line;
    const char *move; /* NULL when refused */
    int nedits;
    struct tx_edit edits[MAX_ROW_EDITS];
    const char *message;
    bool cut;
    const char *reason;
} edit_rows[] = {
    {"F6 -A6:B4", "F6", 1, {{'-', 0, 5, 1, 3}}, "", false, NULL},
    {"F6 +C4:D6 ~E5:F7 -A6:B4",
     "F6",
     3,
     {{'+', 2, 3, 3, 5}, {'~', 4, 4, 5, 6}, {'-', 0, 5, 1, 3}},
     "",
     false,
     NULL},
    /* Either endpoint order, kept as written. */
    {"F6 +D6:C4", "F6", 1, {{'+', 3, 5, 2, 3}}, "", false, NULL},
    {"F6 ~F7:E5 ~E5:F7", "F6", 2, {{'~', 5, 6, 4, 4}, {'~', 4, 4, 5, 6}}, "", false, NULL},
    /* The first token that is no edit starts the message; edits after it
     * are words of the message. */
    {"F6 -A6:B4 hello", "F6", 1, {{'-', 0, 5, 1, 3}}, "hello", false, NULL},
    {"F6 hello -A6:B4", "F6", 0, {{0}}, "hello -A6:B4", false, NULL},
    {"F6 -A6:B4 x +C4:D6", "F6", 1, {{'-', 0, 5, 1, 3}}, "x +C4:D6", false, NULL},
    {"F6   -A6:B4    +C4:D6   hi  there",
     "F6",
     2,
     {{'-', 0, 5, 1, 3}, {'+', 2, 3, 3, 5}},
     "hi  there",
     false,
     NULL},
    {"F6 -A6:B4\r", "F6", 1, {{'-', 0, 5, 1, 3}}, "", false, NULL},
    {"F6 -A6:B4 ", "F6", 1, {{'-', 0, 5, 1, 3}}, "", false, NULL},
    {"F6 -A6:B4 123456789012345678901",
     "F6",
     1,
     {{'-', 0, 5, 1, 3}},
     "12345678901234567890",
     true,
     NULL},
    /* Holes off this board, or on no board the arena plays, are still
     * edits: the game refuses them naming the edit. */
    {"F6 +AA1:B3", "F6", 1, {{'+', 26, 0, 1, 2}}, "", false, NULL},
    {"F6 +CV100:CU98", "F6", 1, {{'+', 99, 99, 98, 97}}, "", false, NULL},
    {"F6 -ZZ999:A1", "F6", 1, {{'-', 701, 998, 0, 0}}, "", false, NULL},
    {"F6 +A1:A1", "F6", 1, {{'+', 0, 0, 0, 0}}, "", false, NULL},
    /* Not an edit's shape: the message. */
    {"F6 -A6B4", "F6", 0, {{0}}, "-A6B4", false, NULL},
    {"F6 -A6:", "F6", 0, {{0}}, "-A6:", false, NULL},
    {"F6 -:B4", "F6", 0, {{0}}, "-:B4", false, NULL},
    {"F6 A6:B4", "F6", 0, {{0}}, "A6:B4", false, NULL},
    {"F6 *A6:B4", "F6", 0, {{0}}, "*A6:B4", false, NULL},
    {"F6 --A6:B4", "F6", 0, {{0}}, "--A6:B4", false, NULL},
    {"F6 - A6:B4", "F6", 0, {{0}}, "- A6:B4", false, NULL},
    {"F6 -A6 :B4", "F6", 0, {{0}}, "-A6 :B4", false, NULL},
    {"F6 -A6: B4", "F6", 0, {{0}}, "-A6: B4", false, NULL},
    {"F6 -a6:b4", "F6", 0, {{0}}, "-a6:b4", false, NULL},
    {"F6 -A06:B4", "F6", 0, {{0}}, "-A06:B4", false, NULL},
    {"F6 -A0:B2", "F6", 0, {{0}}, "-A0:B2", false, NULL},
    {"F6 -AAA1:B3", "F6", 0, {{0}}, "-AAA1:B3", false, NULL},
    {"F6 -A1000:B3", "F6", 0, {{0}}, "-A1000:B3", false, NULL},
    {"F6 -A6:B4:C2", "F6", 0, {{0}}, "-A6:B4:C2", false, NULL},
    {"F6 -A6:B4x", "F6", 0, {{0}}, "-A6:B4x", false, NULL},
    {"F6 -A6;B4", "F6", 0, {{0}}, "-A6;B4", false, NULL},
    {"F6 -A6:B4\t+C4:D6", "F6", 0, {{0}}, "-A6:B4\t+C4:D6", false, NULL},
    {"F6 -", "F6", 0, {{0}}, "-", false, NULL},
    {"F6 -A6:B4 -", "F6", 1, {{'-', 0, 5, 1, 3}}, "-", false, NULL},
    /* Edits with SWAP are read (the game refuses them). */
    {"SWAP ~F6:E4", "SWAP", 1, {{'~', 5, 5, 4, 3}}, "", false, NULL},
    /* The move is judged as ever, edits or not. */
    {"f6 -A6:B4", NULL, 0, {{0}}, "", false, "not a move: \"f6\""},
    {"M5 -A6:B4", NULL, 0, {{0}}, "", false, "out of range M5"},
    {"-A6:B4", NULL, 0, {{0}}, "", false, "not a move: \"-A6:B4\""},
    {" F6 -A6:B4", NULL, 0, {{0}}, "", false, "not a move: \" F6\""},
};

START_TEST(parse_classic_edits)
{
    static struct tx_geometry *geo;
    struct tx_answer a;
    size_t len = strlen(edit_rows[_i].line);
    int r;

    ck_assert_int_eq((tx_geometry_free(geo), tx_geometry_new(12, 12, &geo)), 0);
    r = tx_answer_parse(geo, TX_RULES_CLASSIC, edit_rows[_i].line, len, &a);
    if (!edit_rows[_i].move) {
        ck_assert_msg(r == -EINVAL, "row %d accepted", _i);
        ck_assert_str_eq(a.reason, edit_rows[_i].reason);
        return;
    }
    ck_assert_msg(r == 0, "row %d refused: %s", _i, a.reason);
    ck_assert_str_eq(a.token, edit_rows[_i].move);
    ck_assert_msg(a.nedits == edit_rows[_i].nedits, "row %d: %d edits, expected %d", _i, a.nedits,
                  edit_rows[_i].nedits);
    for (int i = 0; i < a.nedits; i++) {
        const struct tx_edit *got = &a.edits[i], *want = &edit_rows[_i].edits[i];
        ck_assert_msg(got->kind == want->kind && got->ax == want->ax && got->ay == want->ay &&
                          got->bx == want->bx && got->by == want->by,
                      "row %d edit %d: %c(%d,%d):(%d,%d)", _i, i, got->kind, got->ax, got->ay,
                      got->bx, got->by);
    }
    ck_assert_str_eq(a.message, edit_rows[_i].message);
    ck_assert_int_eq(a.message_cut, edit_rows[_i].cut);

    /* Under pp the same line has no edits: all after the move is message. */
    r = tx_answer_parse(geo, TX_RULES_PP, edit_rows[_i].line, len, &a);
    ck_assert_int_eq(r, 0);
    ck_assert_int_eq(a.nedits, 0);
    {
        const char *rest = strchr(edit_rows[_i].line, ' ');
        char want[TX_MESSAGE_MAX];
        while (rest && *rest == ' ')
            rest++;
        snprintf(want, sizeof want, "%.*s", 20, rest ? rest : "");
        if (strlen(want) > 0 && want[strlen(want) - 1] == '\r')
            want[strlen(want) - 1] = '\0';
        ck_assert_str_eq(a.message, want);
    }
}
END_TEST

/* Each edit's name (tx_edit_name) reads back (tx_edit_parse) to the same
 * edit, for every kind and every hole of the largest board and beyond it;
 * tx_edit_parse reads exactly len bytes. */
START_TEST(edit_name_round_trip)
{
    static const int coords[][2] = {{0, 0},     {1, 2},    {25, 8},     {26, 9},
                                    {51, 0},    {52, 11},  {99, 99},    {100, 100},
                                    {701, 998}, {700, 99}, {9, 999 - 1}};
    size_t n = sizeof coords / sizeof coords[0];

    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++)
            for (int k = 0; k < 3; k++) {
                struct tx_edit e = {"-+~"[k], (int16_t)coords[i][0], (int16_t)coords[i][1],
                                    (int16_t)coords[j][0], (int16_t)coords[j][1]};
                struct tx_edit back;
                char name[TX_EDIT_NAME_MAX];
                tx_edit_name(&e, name);
                ck_assert_uint_lt(strlen(name), TX_EDIT_NAME_MAX);
                ck_assert_msg(tx_edit_parse(name, strlen(name), &back), "%s does not parse", name);
                ck_assert(back.kind == e.kind && back.ax == e.ax && back.ay == e.ay &&
                          back.bx == e.bx && back.by == e.by);
            }
    {
        struct tx_edit e;
        char name[TX_EDIT_NAME_MAX];
        e = (struct tx_edit){'+', 2, 3, 3, 5};
        ck_assert_str_eq(tx_edit_name(&e, name), "+C4:D6");
        e = (struct tx_edit){'~', 26, 9, 27, 11};
        ck_assert_str_eq(tx_edit_name(&e, name), "~AA10:AB12");
        e = (struct tx_edit){'-', 701, 998, 99, 99};
        ck_assert_str_eq(tx_edit_name(&e, name), "-ZZ999:CV100");
        ck_assert(tx_edit_parse("-A6:B4x", 6, &e));
        ck_assert(e.kind == '-' && e.ax == 0 && e.ay == 5 && e.bx == 1 && e.by == 3);
        ck_assert(!tx_edit_parse("-A6:B4", 5, &e));
        ck_assert(!tx_edit_parse("-A6:B4", 0, &e));
        ck_assert(!tx_edit_parse("-A6:B41000", 10, &e));
    }
}
END_TEST

/* Edits are read up to one past the cap (TX_EDITS_READ): the game refuses
 * that answer, naming the edit over (RULES.md "Link edits": at most 64);
 * what follows is message. A line of TX_ANSWER_LINE_MAX bytes could hold
 * (4096 - 2) / 7 = 584 edits of the shortest kind (" -A1:B3"): read as
 * 65 edits and a message; one edit more makes the line too long. */
START_TEST(parse_edits_up_to_one_past_the_cap)
{
    static struct tx_geometry *geo;
    static char line[TX_ANSWER_LINE_MAX + 16];
    static struct tx_answer a;
    size_t len = 0;
    int fit = (TX_ANSWER_LINE_MAX - 2) / 7;

    ck_assert_int_eq((tx_geometry_free(geo), tx_geometry_new(12, 12, &geo)), 0);
    for (int n = TX_EDITS_MAX - 1; n <= TX_EDITS_READ + 1; n++) {
        len = (size_t)snprintf(line, sizeof line, "B2");
        for (int i = 0; i < n; i++)
            len += (size_t)snprintf(line + len, sizeof line - len, " -A1:B%d", 3 + i % 7);
        ck_assert_int_eq(tx_answer_parse(geo, TX_RULES_CLASSIC, line, len, &a), 0);
        ck_assert_int_eq(a.nedits, n < TX_EDITS_READ ? n : TX_EDITS_READ);
        ck_assert_str_eq(a.message, n <= TX_EDITS_READ ? "" : "-A1:B5");
        int last = a.nedits - 1;
        ck_assert(a.edits[last].kind == '-' && a.edits[last].by == 2 + last % 7);
    }
    len = (size_t)snprintf(line, sizeof line, "B2");
    for (int i = 0; i < fit; i++)
        len += (size_t)snprintf(line + len, sizeof line - len, " -A1:B3");
    ck_assert_uint_le(len, TX_ANSWER_LINE_MAX);
    ck_assert_int_eq(tx_answer_parse(geo, TX_RULES_CLASSIC, line, len, &a), 0);
    ck_assert_int_eq(a.nedits, TX_EDITS_READ);
    ck_assert_str_eq(a.message, "-A1:B3 -A1:B3 -A1:B3");
    ck_assert(a.message_cut);
    /* One edit more does not fit. */
    len = (size_t)snprintf(line, sizeof line, "B2");
    for (int i = 0; i < fit + 1; i++)
        len += (size_t)snprintf(line + len, sizeof line - len, " -A1:B3");
    ck_assert_uint_gt(len, TX_ANSWER_LINE_MAX);
    ck_assert_int_eq(tx_answer_parse(geo, TX_RULES_CLASSIC, line, len, &a), -EINVAL);
    ck_assert_str_eq(a.reason, "line longer than 4096 bytes");
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
    tcase_add_loop_test(tc, parse_classic_edits, 0, (int)(sizeof edit_rows / sizeof edit_rows[0]));
    tcase_add_test(tc, edit_name_round_trip);
    tcase_add_test(tc, parse_edits_up_to_one_past_the_cap);
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
