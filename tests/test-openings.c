/* test-openings.c - the opening rules (swap, pie, cut, none) and Double
 * TwixT's seats and privilege, as RULES.md "Openings" and "Double TwixT"
 * state them.
 *
 * Each case is a script of answer lines, parsed as the referee parses them
 * (tx_answer_parse_variant) and played with tx_game_apply, in a game of a
 * variant; a step expects the answer to be played or refused with an exact
 * detail, and may check the seat to move, its colour, the board's pegs and
 * the exact turn input the seat to move receives (tx_input_write). Every
 * input is also read back by tx_game_from_input_variant, which must accept
 * it and give the same pegs, links and colour to move.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "answer.h"
#include "game.h"
#include "hole.h"
#include "input.h"
#include "test-game.h"

#define STEPS_MAX 24

struct step {
    const char *answer;  /* the line the seat to move prints */
    const char *refused; /* NULL: played; else the exact detail of the refusal */
    int seat;            /* -1: not checked; else the seat to move after the step */
    int colour;          /* -1: not checked; else the colour that seat plays */
    const char *input;   /* NULL: not checked; else the input of the seat to move after it */
};

struct opening_case {
    const char *name;
    enum tx_opening_rule opening;
    bool teams;
    int width, height;
    struct step steps[STEPS_MAX];
};

#define END                                                                                        \
    {                                                                                              \
        NULL, NULL, -1, -1, NULL                                                                   \
    }

static const struct opening_case cases[] = {
    /* The default: the mirror swap, unchanged. */
    {"swap mirrors the peg",
     TX_OPENING_SWAP,
     false,
     12,
     12,
     {{"C5", NULL, 1, 1, "C5\n0\n0\n1\nC5\n0\n"},
      {"SWAP", NULL, 0, 0, "SWAP\n0\n0\n1\nE3\n0\n"},
      END}},
    /* Pie: the peg stays, the sides exchange; the old player 1 moves next
     * with the other colour, and its input says SWAP. */
    {"pie keeps the peg and exchanges the sides",
     TX_OPENING_PIE,
     false,
     12,
     12,
     {{"C5", NULL, 1, 1, "C5\n0\n0\n1\nC5\n0\n"},
      {"SWAP", NULL, 0, 1, "SWAP\n0\n0\n1\nC5\n0\n"},
      {"E7", NULL, 1, 0, "E7\n1\nC5\n0\n1\nE7\n0\n"},
      {"SWAP", "SWAP not allowed at move 4", -1, -1, NULL},
      {"D7", NULL, 0, 1, NULL},
      END}},
    {"pie on a board that is not square",
     TX_OPENING_PIE,
     false,
     10,
     7,
     {{"D4", NULL, 1, 1, NULL}, {"SWAP", NULL, 0, 1, "SWAP\n0\n0\n1\nD4\n0\n"}, END}},
    {"pie declined plays on as usual",
     TX_OPENING_PIE,
     false,
     12,
     12,
     {{"C5", NULL, 1, 1, NULL}, {"E7", NULL, 0, 0, "E7\n1\nC5\n0\n1\nE7\n0\n"}, END}},
    /* None: no swap ever. */
    {"none refuses SWAP",
     TX_OPENING_NONE,
     false,
     12,
     12,
     {{"C5", NULL, 1, 1, NULL},
      {"SWAP", "SWAP not allowed: no swap in this game (opening none)", -1, -1, NULL},
      {"E7", NULL, 0, 0, NULL},
      END}},
    {"the mirror swap has no image on a board that is not square",
     TX_OPENING_SWAP,
     false,
     10,
     7,
     {{"D4", NULL, 1, 1, NULL},
      {"SWAP", "SWAP not allowed on a 10 x 7 board (no mirror)", -1, -1, NULL},
      END}},
    /* Cut: three pegs, then a choice; black moves after it. */
    {"cut, the chooser takes black and moves",
     TX_OPENING_CUT,
     false,
     12,
     12,
     {{"CUT D4 F5 E8", NULL, 1, 1, "CUT\n1\nE8\n0\n2\nD4\nF5\n0\n"},
      {"CHOOSE 2", NULL, 1, 1, "CHOOSE 2\n1\nE8\n0\n2\nD4\nF5\n0\n"},
      {"G8", NULL, 0, 0, "G8\n2\nD4\nF5\n0\n2\nE8\nG8\n0\n"},
      END}},
    {"cut linked, the chooser takes red and the cutter moves black",
     TX_OPENING_CUT,
     false,
     12,
     12,
     {{"CUT D4 E6 H8 +D4:E6", NULL, 1, 1, "CUT\n1\nH8\n0\n2\nD4\nE6\n1\nD4 E6\n"},
      {"CHOOSE 1", NULL, 0, 1, "CHOOSE 1\n1\nH8\n0\n2\nD4\nE6\n1\nD4 E6\n"},
      {"J9", NULL, 1, 0, NULL},
      END}},
    {"cut refusals",
     TX_OPENING_CUT,
     false,
     12,
     12,
     {{"F6", "CUT R1 R2 B1 expected: the cut opening's first answer", -1, -1, NULL},
      {"SWAP", "CUT R1 R2 B1 expected: the cut opening's first answer", -1, -1, NULL},
      {"CHOOSE 1", "CUT R1 R2 B1 expected: the cut opening's first answer", -1, -1, NULL},
      {"CUT D4 D4 E8", "CUT: D4 twice", -1, -1, NULL},
      {"CUT A4 F5 E8", "CUT: A4 is not a hole red may use", -1, -1, NULL},
      {"CUT D4 F5 E1", "CUT: E1 is not a hole black may use", -1, -1, NULL},
      {"CUT D4 F5 A1", "CUT: A1 is not a hole black may use", -1, -1, NULL},
      {"CUT D4 F5 M5", "CUT: a hole off the board", -1, -1, NULL},
      {"CUT D4 F6 E8 +D4:F6", "CUT: +D4:F6 does not link the two red pegs", -1, -1, NULL},
      {"CUT D4 E6 H8 +D4:F5", "CUT: +D4:F5 does not link the two red pegs", -1, -1, NULL},
      {"CUT D4 E6 H8 -D4:E6", "CUT: -D4:E6 does not link the two red pegs", -1, -1, NULL},
      {"CUT D4 F5", "not a move: \"CUT D4 F5\"", -1, -1, NULL},
      {"CUT D4 F5 e8", "not a move: \"CUT D4 F5 e8\"", -1, -1, NULL},
      {"CUT D4 F5 E8", NULL, 1, 1, NULL},
      {"G8", "CHOOSE 1 or CHOOSE 2 expected after the cut", -1, -1, NULL},
      {"CHOOSE 3", "not a move: \"CHOOSE 3\"", -1, -1, NULL},
      {"CUT D5 F6 E9", "CHOOSE 1 or CHOOSE 2 expected after the cut", -1, -1, NULL},
      {"CHOOSE 2", NULL, 1, 1, NULL},
      {"CHOOSE 1", "CHOOSE not allowed at move 5", -1, -1, NULL},
      END}},
    /* Double TwixT: red 0 and 2, black 1 and 3, in turn. */
    {"teams take turns",
     TX_OPENING_SWAP,
     true,
     12,
     12,
     {{"C5", NULL, 1, 1, NULL},
      {"F6", NULL, 2, 0, "FIRST\n1\nC5\n0\n1\nF6\n0\n"},
      {"E7", NULL, 3, 1, "E7\n1\nF6\n0\n2\nC5\nE7\n0\n"},
      {"H8", NULL, 0, 0, NULL},
      END}},
    {"privilege skips the opponent due next",
     TX_OPENING_SWAP,
     true,
     12,
     12,
     {{"C5 !privilege",
       "privilege not allowed at move 1: it goes with a hole, once the opening is decided", -1, -1,
       NULL},
      {"C5", NULL, 1, 1, NULL},
      {"F6", NULL, 2, 0, NULL},
      {"E7 !privilege", NULL, 0, 0, "F6\n2\nC5\nE7\n0\n1\nF6\n0\n"},
      /* Seat 3, due after seat 2, lost its turn: seat 1 moves next. */
      {"H8", NULL, 1, 1, "H8\n1\nF6\n0\n3\nC5\nE7\nH8\n0\n"},
      {"J9", NULL, 2, 0, NULL},
      {"D8 !privilege", "privilege called twice by one team", -1, -1, NULL},
      {"D8", NULL, 3, 1, "D8\n2\nF6\nJ9\n0\n4\nC5\nE7\nH8\nD8\n0\n"},
      {"G10 !privilege", NULL, 1, 1, NULL},
      {"H10 !privilege", "privilege called twice by one team", -1, -1, NULL},
      END}},
    /* Two inputs only Double TwixT gives, each read back (see the case
     * function) by tx_game_from_input_variant alone. The swap is over when
     * the swapper's partner-to-be, seat 2, first reads SWAP: no swap is
     * still to come in the rebuilt game. */
    {"teams: after the mirror swap, seat 2 reads SWAP",
     TX_OPENING_SWAP,
     true,
     12,
     12,
     {{"C5", NULL, 1, 1, NULL},
      {"SWAP", NULL, 2, 0, "SWAP\n0\n0\n1\nE3\n0\n"},
      {"SWAP", "SWAP not allowed at move 3", -1, -1, NULL},
      {"F6", NULL, 3, 1, NULL},
      {"G8", NULL, 0, 0, NULL},
      END}},
    {"teams: privilege at once after the mirror swap, seat 0 reads SWAP",
     TX_OPENING_SWAP,
     true,
     12,
     12,
     {{"C5", NULL, 1, 1, NULL},
      {"SWAP", NULL, 2, 0, NULL},
      {"F6 !privilege", NULL, 0, 0, "SWAP\n1\nF6\n0\n1\nE3\n0\n"},
      {"G8", NULL, 1, 1, NULL},
      END}},
    /* Under the pie, seat 2 (black after the exchange) calls privilege with
     * its first peg: seat 3 loses its turn and seat 0 reads SWAP with a
     * black peg of its own. */
    {"teams: privilege at once after the pie, seat 0 reads SWAP",
     TX_OPENING_PIE,
     true,
     12,
     12,
     {{"C5", NULL, 1, 1, NULL},
      {"SWAP", NULL, 2, 1, "SWAP\n0\n0\n1\nC5\n0\n"},
      {"E7 !privilege", NULL, 0, 1, "SWAP\n1\nE7\n0\n1\nC5\n0\n"},
      {"G8", NULL, 1, 0, NULL},
      {"H10", NULL, 2, 1, NULL},
      END}},
    {"privilege is Double TwixT's",
     TX_OPENING_SWAP,
     false,
     12,
     12,
     {{"C5", NULL, 1, 1, NULL}, {"F6 !privilege", NULL, 0, 0, "F6\n1\nC5\n0\n1\nF6\n0\n"}, END}},
};

static struct tx_game *game, *rebuilt;
static struct tx_geometry *geo;

/* The pegs of a colour as names, for messages. */
static void pegs_text(const struct tx_game *g, int colour, char *buf, size_t cap)
{
    int16_t pegs[TX_HOLES_MAX];
    int n = tx_game_pegs(g, colour, pegs);
    size_t len = 0;
    buf[0] = '\0';
    for (int i = 0; i < n && len + 8 < cap; i++) {
        char name[TX_HOLE_NAME_MAX];
        len += (size_t)snprintf(buf + len, cap - len, "%s%s", i ? " " : "",
                                tx_hole_name(g->geo, pegs[i], name));
    }
}

START_TEST(openings_case)
{
    const struct opening_case *c = &cases[_i];
    struct tx_variant v = {.rules = TX_RULES_PP,
                           .width = c->width,
                           .height = c->height,
                           .opening = c->opening,
                           .teams = c->teams};
    static struct tx_answer answer;
    static struct tx_input in;
    static char text[TX_INPUT_MAX];

    tx_geometry_free(geo);
    ck_assert_int_eq(tx_geometry_new(c->width, c->height, &geo), 0);
    test_game(&game, geo);
    tx_game_start(game, geo, &v);
    bool first[TX_SEATS_MAX] = {true, true, true, true};
    for (int k = 0; c->steps[k].answer; k++) {
        const struct step *st = &c->steps[k];
        struct tx_move m;
        struct tx_edit_fault fault;
        char detail[160] = "";
        int seat = game->seat;
        enum tx_illegal why = TX_LEGAL;
        if (tx_answer_parse_variant(geo, &v, st->answer, strlen(st->answer), &answer) < 0) {
            snprintf(detail, sizeof detail, "%s", answer.reason);
            why = TX_ILLEGAL_GAME_OVER; /* not played */
        } else {
            tx_answer_move(&answer, &m);
            why = tx_game_apply(game, &m, &fault);
            if (why != TX_LEGAL)
                tx_answer_describe(game, &m, why, &fault, detail, sizeof detail);
        }
        if (st->refused) {
            ck_assert_msg(why != TX_LEGAL, "%s: step %d \"%s\" was played, expected \"%s\"",
                          c->name, k + 1, st->answer, st->refused);
            ck_assert_msg(!strcmp(detail, st->refused),
                          "%s: step %d \"%s\": detail \"%s\", expected \"%s\"", c->name, k + 1,
                          st->answer, detail, st->refused);
            continue;
        }
        ck_assert_msg(why == TX_LEGAL, "%s: step %d \"%s\" refused: %s", c->name, k + 1, st->answer,
                      detail);
        first[seat] = false;
        if (st->seat >= 0)
            ck_assert_msg(game->seat == st->seat, "%s: step %d: seat %d to move, expected %d",
                          c->name, k + 1, game->seat, st->seat);
        if (st->colour >= 0)
            ck_assert_msg(tx_game_seat_colour(game, game->seat) == st->colour,
                          "%s: step %d: the seat to move plays colour %d, expected %d", c->name,
                          k + 1, tx_game_seat_colour(game, game->seat), st->colour);
        if (game->status != TX_ONGOING)
            continue;
        int len = tx_input_write(game, game->seat, first[game->seat], text, sizeof text);
        ck_assert_int_ge(len, 0);
        if (st->input)
            ck_assert_msg(!strcmp(text, st->input), "%s: step %d: input\n%s\nexpected\n%s", c->name,
                          k + 1, text, st->input);
        /* A bot reads its input back into the same position. */
        char err[128] = "";
        ck_assert_msg(tx_input_parse(geo, text, (size_t)len, &in, err, sizeof err) == 0,
                      "%s: step %d: %s", c->name, k + 1, err);
        int me = tx_game_seat_colour(game, game->seat);
        test_game(&rebuilt, geo);
        ck_assert_msg(tx_game_from_input_variant(rebuilt, geo, &v, &in, me) == 0,
                      "%s: step %d: the input does not rebuild:\n%s", c->name, k + 1, text);
        for (int colour = 0; colour < 2; colour++) {
            char want[512], got[512];
            pegs_text(game, colour, want, sizeof want);
            pegs_text(rebuilt, colour, got, sizeof got);
            ck_assert_msg(!strcmp(want, got), "%s: step %d: rebuilt pegs %s, expected %s", c->name,
                          k + 1, got, want);
        }
        ck_assert_int_eq(rebuilt->to_move, game->to_move);
        ck_assert_int_eq(rebuilt->phase, game->phase);
        for (int link = 0; link < geo->link_ids; link++)
            ck_assert_int_eq(tx_game_has_link(rebuilt, link), tx_game_has_link(game, link));
        int16_t a[TX_MOVES_MAX], b[TX_MOVES_MAX];
        int na = tx_game_legal_moves(game, a), nb = tx_game_legal_moves(rebuilt, b);
        ck_assert_msg(na == nb && !memcmp(a, b, sizeof a[0] * (size_t)na),
                      "%s: step %d: the rebuilt game's legal moves differ", c->name, k + 1);
    }
}
END_TEST

/* A whole cut game with Double TwixT: the chooser's team takes red, the
 * cutter's partner plays black next. */
START_TEST(openings_cut_with_teams)
{
    struct tx_variant v = {
        .rules = TX_RULES_PP, .width = 12, .height = 12, .opening = TX_OPENING_CUT, .teams = true};
    static struct tx_answer answer;
    struct tx_move m;
    tx_geometry_free(geo);
    ck_assert_int_eq(tx_geometry_new(12, 12, &geo), 0);
    test_game(&game, geo);
    tx_game_start(game, geo, &v);
    static const char *const lines[] = {"CUT D4 F5 E8", "CHOOSE 1", "G8", "H10"};
    static const int seat_after[] = {1, 2, 3, 0};
    for (int i = 0; i < 4; i++) {
        ck_assert_int_eq(tx_answer_parse_variant(geo, &v, lines[i], strlen(lines[i]), &answer), 0);
        tx_answer_move(&answer, &m);
        ck_assert_int_eq(tx_game_apply(game, &m, NULL), TX_LEGAL);
        ck_assert_msg(game->seat == seat_after[i], "after %s: seat %d, expected %d", lines[i],
                      game->seat, seat_after[i]);
    }
    /* Seats 1 and 3 (the chooser's team) are red now. */
    ck_assert_int_eq(tx_game_seat_colour(game, 1), 0);
    ck_assert_int_eq(tx_game_seat_colour(game, 2), 1);
}
END_TEST

/* The first input of a game, FIRST on an empty board, reads back under
 * every opening (the cutter's too), and CUT is not FIRST: a bot that is
 * told CUT is the chooser, player 2 (FIRST and CUT were once the same
 * number in a parsed input). */
START_TEST(openings_first_input_reads_back)
{
    static struct tx_input in;
    static char text[TX_INPUT_MAX];
    tx_geometry_free(geo);
    ck_assert_int_eq(tx_geometry_new(12, 12, &geo), 0);
    for (int opening = 0; opening < TX_OPENING_COUNT; opening++)
        for (int teams = 0; teams < 2; teams++) {
            struct tx_variant v = {.rules = TX_RULES_PP,
                                   .width = 12,
                                   .height = 12,
                                   .opening = (enum tx_opening_rule)opening,
                                   .teams = teams};
            test_game(&game, geo);
            tx_game_start(game, geo, &v);
            int len = tx_input_write(game, 0, true, text, sizeof text);
            ck_assert_str_eq(text, "FIRST\n0\n0\n0\n0\n");
            ck_assert_int_eq(tx_input_parse(geo, text, (size_t)len, &in, NULL, 0), 0);
            ck_assert_int_eq(tx_input_first_player(&in), 0);
            test_game(&rebuilt, geo);
            ck_assert_msg(tx_game_from_input_variant(rebuilt, geo, &v, &in, 0) == 0,
                          "opening %s, teams %d: FIRST does not rebuild",
                          tx_opening_rule_name(v.opening), teams);
            ck_assert_int_eq(rebuilt->phase, game->phase);
        }
    static const char cut[] = "CUT\n1\nE8\n0\n2\nD4\nF5\n0\n";
    ck_assert_int_eq(tx_input_parse(geo, cut, sizeof cut - 1, &in, NULL, 0), 0);
    ck_assert_int_eq(in.last, TX_MOVE_CUT);
    ck_assert_int_eq(tx_input_first_player(&in), 1);
}
END_TEST

/* A game of two bots under the mirror swap or no swap keeps no per-move
 * table (game.h, for speed and size): what tx_game_info and tx_game_pegs
 * say of its moves is what a game that keeps one (the pie, its SWAP never
 * taken) says of the same moves. */
START_TEST(openings_two_bots_need_no_table)
{
    struct tx_variant v = {.rules = TX_RULES_PP, .width = 12, .height = 12};
    static struct tx_game *kept;
    uint64_t seed = 7;
    tx_geometry_free(geo);
    ck_assert_int_eq(tx_geometry_new(12, 12, &geo), 0);
    for (int round = 0; round < 20; round++) {
        v.opening = round % 2 ? TX_OPENING_NONE : TX_OPENING_SWAP;
        tx_game_start(test_game(&game, geo), geo, &v);
        v.opening = TX_OPENING_PIE;
        tx_game_start(test_game(&kept, geo), geo, &v);
        ck_assert_uint_lt(game->bytes, kept->bytes);
        ck_assert_uint_eq(kept->bytes, tx_game_size(geo));
        while (game->status == TX_ONGOING) {
            int16_t moves[TX_MOVES_MAX];
            int n = tx_game_legal_moves(game, moves), skip = moves[0] == TX_MOVE_SWAP;
            seed = seed * 6364136223846793005u + 1442695040888963407u;
            int move = moves[skip + (int)((seed >> 33) % (uint64_t)(n - skip))];
            ck_assert_int_eq(tx_game_play(game, move), TX_LEGAL);
            ck_assert_int_eq(tx_game_play(kept, move), TX_LEGAL);
            int i = game->nmoves - 1;
            ck_assert_int_eq(tx_game_info(game, i), tx_game_info(kept, i));
            ck_assert_int_eq(game->seat, kept->seat);
        }
        for (int colour = 0; colour < 2; colour++) {
            int16_t a[TX_HOLES_MAX], b[TX_HOLES_MAX];
            int na = tx_game_pegs(game, colour, a), nb = tx_game_pegs(kept, colour, b);
            ck_assert(na == nb && !memcmp(a, b, sizeof a[0] * (size_t)na));
        }
    }
}
END_TEST

static Suite *openings_suite(void)
{
    Suite *s = suite_create("openings");
    TCase *tc = tcase_create("openings");
    tcase_add_loop_test(tc, openings_case, 0, (int)(sizeof cases / sizeof cases[0]));
    tcase_add_test(tc, openings_cut_with_teams);
    tcase_add_test(tc, openings_first_input_reads_back);
    tcase_add_test(tc, openings_two_bots_need_no_table);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(openings_suite());
    srunner_run_all(sr, CK_ENV);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? 0 : 1;
}
