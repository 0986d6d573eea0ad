/* test-input.c - the turn input text, written and read back.
 *
 * A scripted 12 x 12 game with a swap, a link blocked by each player's
 * opponent, one player's own links crossing, and a placement that makes two
 * links (listed by their older peg's placement order, which differs from the
 * scan order of the knight steps) is played move by move. Before each move
 * the input of the player to move is compared byte for byte with text
 * written out by hand from RULES.md; then it is parsed back, rebuilt with
 * tx_game_from_input, and must give the same position and the same text.
 * Each seat's first input after forced openings of 0 to 3 moves, with and
 * without a swap, is compared with RULES.md "Forced openings" byte for
 * byte. Malformed texts and impossible positions are refused with the line
 * named. A classic game with removals, additions and declines is checked
 * the same way, its lists in RULES.md's order (by the newer peg, then the
 * older), rebuilt under classic.
 */
#include <check.h>
#include <errno.h>
#include <string.h>

#include "alloc.h"
#include "answer.h"
#include "game.h"
#include "hole.h"
#include "input.h"
#include "test-game.h"

static struct tx_geometry *geo;
static char text[TX_INPUT_MAX];
static char again[TX_INPUT_MAX];
static struct tx_input in;

static int hole(const char *name)
{
    int h = -1;
    ck_assert_int_eq(tx_hole_parse(geo, name, strlen(name), &h), TX_HOLE_OK);
    return h;
}

static int move_of(const char *name)
{
    return strcmp(name, "SWAP") == 0 ? TX_MOVE_SWAP : hole(name);
}

/* The script: moves[i] is played after the input expect[i] was checked. */
static const char *const script[] = {"C5", "SWAP", "D5", "F5", "F4", "F3",
                                     "G6", "E5",   "E7", "G4", "H8"};
static const char *const expect[] = {
    "FIRST\n0\n0\n0\n0\n",
    "C5\n0\n0\n1\nC5\n0\n",
    "SWAP\n0\n0\n1\nE3\n0\n",
    "D5\n1\nE3\n0\n1\nD5\n0\n",
    "F5\n1\nD5\n0\n2\nE3\nF5\n1\nE3 F5\n",
    /* F4 does not link to D5: that link would cross E3-F5. */
    "F4\n2\nE3\nF5\n1\nE3 F5\n2\nD5\nF4\n0\n",
    "F3\n2\nD5\nF4\n0\n3\nE3\nF5\nF3\n1\nE3 F5\n",
    "G6\n3\nE3\nF5\nF3\n1\nE3 F5\n3\nD5\nF4\nG6\n1\nF4 G6\n",
    /* F3-E5 crosses player 2's own E3-F5: both exist. */
    "E5\n3\nD5\nF4\nG6\n1\nF4 G6\n4\nE3\nF5\nF3\nE5\n2\nE3 F5\nF3 E5\n",
    /* E7 links to D5 and G6, listed D5 first (placed first). */
    "E7\n4\nE3\nF5\nF3\nE5\n2\nE3 F5\nF3 E5\n4\nD5\nF4\nG6\nE7\n3\nF4 G6\nD5 E7\nG6 E7\n",
    /* G4 links to E3; G4-E5 would cross F4-G6. */
    "G4\n4\nD5\nF4\nG6\nE7\n3\nF4 G6\nD5 E7\nG6 E7\n5\nE3\nF5\nF3\nE5\nG4\n3\nE3 F5\nF3 E5\nE3 "
    "G4\n",
    "H8\n5\nE3\nF5\nF3\nE5\nG4\n3\nE3 F5\nF3 E5\nE3 G4\n5\nD5\nF4\nG6\nE7\nH8\n4\nF4 G6\nD5 E7\nG6 "
    "E7\nG6 H8\n",
};
#define TURNS ((int)(sizeof(expect) / sizeof(expect[0])))

/* Plays the script up to (not including) move `turn`. */
static void play_to(struct tx_game **slot, int turn)
{
    ck_assert_int_eq((tx_geometry_free(geo), tx_geometry_new(12, 12, &geo)), 0);
    struct tx_game *g = test_game(slot, geo);
    for (int i = 0; i < turn; i++)
        ck_assert_int_eq(tx_game_play(g, move_of(script[i])), TX_LEGAL);
}

START_TEST(write_scripted_game_byte_for_byte)
{
    static struct tx_game *g;
    play_to(&g, _i);
    ck_assert_int_eq(g->to_move, _i % 2);
    int len = tx_input_write(g, g->to_move, false, text, sizeof(text));
    ck_assert_int_eq(len, (int)strlen(expect[_i]));
    ck_assert_str_eq(text, expect[_i]);
}
END_TEST

START_TEST(parse_write_round_trip)
{
    static struct tx_game *g, *rebuilt;
    char err[128];
    play_to(&g, _i);
    int me = g->to_move;
    int len = tx_input_write(g, me, false, text, sizeof(text));
    ck_assert_int_eq(tx_input_parse(geo, text, (size_t)len, &in, err, sizeof(err)), 0);

    /* What the parser read is the game's own lists. */
    int16_t list[2 * TX_LINKS_MAX];
    for (int side = 0; side < 2; side++) {
        int player = side == 0 ? me : 1 - me;
        int n = tx_game_pegs(g, player, list);
        ck_assert_int_eq(in.npegs[side], n);
        ck_assert(memcmp(in.pegs[side], list, (size_t)n * sizeof(list[0])) == 0);
        n = tx_game_links(g, player, list);
        ck_assert_int_eq(in.nlinks[side], n);
        ck_assert(memcmp(in.links[side], list, (size_t)n * 2 * sizeof(list[0])) == 0);
    }

    ck_assert_int_eq(tx_game_from_input(test_game(&rebuilt, geo), geo, TX_RULES_PP, &in, me), 0);
    ck_assert_int_eq(rebuilt->to_move, me);
    ck_assert_int_eq(rebuilt->nmoves, g->nmoves);
    ck_assert_int_eq(rebuilt->swapped, g->swapped);
    ck_assert_int_eq(rebuilt->status, TX_ONGOING);
    ck_assert_int_eq(rebuilt->vacant_ok[0], g->vacant_ok[0]);
    ck_assert_int_eq(rebuilt->vacant_ok[1], g->vacant_ok[1]);
    ck_assert(memcmp(tx_game_cells(rebuilt), tx_game_cells(g), (size_t)geo->holes) == 0);
    for (int link = 0; link < geo->holes * 4; link++)
        ck_assert_int_eq(tx_game_has_link(rebuilt, link), tx_game_has_link(g, link));
    ck_assert_int_eq(tx_input_write(rebuilt, me, false, again, sizeof(again)), len);
    ck_assert_str_eq(again, text);

    /* The rebuilt game plays on like the original. */
    if (_i < TURNS - 1) {
        int next = move_of(script[_i]);
        ck_assert_int_eq(tx_game_play(g, next), TX_LEGAL);
        ck_assert_int_eq(tx_game_play(rebuilt, next), TX_LEGAL);
        ck_assert(memcmp(tx_game_cells(rebuilt), tx_game_cells(g), (size_t)geo->holes) == 0);
        for (int link = 0; link < geo->holes * 4; link++)
            ck_assert_int_eq(tx_game_has_link(rebuilt, link), tx_game_has_link(g, link));
    }
}
END_TEST

START_TEST(first_player_of_first_inputs)
{
    ck_assert_int_eq((tx_geometry_free(geo), tx_geometry_new(12, 12, &geo)), 0);
    static const struct {
        const char *text;
        int player;
    } cases[] = {
        {"FIRST\n0\n0\n0\n0\n", 0},
        {"C5\n0\n0\n1\nC5\n0\n", 1},
        {"SWAP\n0\n0\n1\nE3\n0\n", 0},
        {"FIRST\n1\nC5\n0\n1\nD5\n0\n", 0},         /* after a forced opening of even length */
        {"F5\n1\nD5\n0\n2\nE3\nF5\n1\nE3 F5\n", 1}, /* ... of odd length */
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        ck_assert_int_eq(tx_input_parse(geo, cases[i].text, strlen(cases[i].text), &in, NULL, 0),
                         0);
        ck_assert_int_eq(tx_input_first_player(&in), cases[i].player);
    }
}
END_TEST

/* RULES.md "Forced openings": each seat's first input after a forced
 * opening of 0 to 3 moves, with and without player 2's swap (a swap is
 * move 2, so only after 0 or 1 forced moves). moves[] is the whole game so
 * far, the forced moves first; each player's first turn comes at the first
 * move after them that is its own. */
static const struct {
    const char *name;
    int nforced;
    const char *moves[6];
    const char *first[2]; /* the exact first input of player 1, of player 2 */
} forced_cases[] = {
    {"no opening", 0, {"C5", "D5", NULL}, {"FIRST\n0\n0\n0\n0\n", "C5\n0\n0\n1\nC5\n0\n"}},
    {"no opening, then a swap",
     0,
     {"C5", "SWAP", NULL},
     {"FIRST\n0\n0\n0\n0\n", "C5\n0\n0\n1\nC5\n0\n"}},
    {"one forced move",
     1,
     {"C5", "D5", "F6", NULL},
     {"FIRST\n1\nC5\n0\n1\nD5\n0\n", "C5\n0\n0\n1\nC5\n0\n"}},
    {"one forced move, then a swap",
     1,
     {"C5", "SWAP", "F6", NULL},
     {"SWAP\n0\n0\n1\nE3\n0\n", "C5\n0\n0\n1\nC5\n0\n"}},
    {"two forced moves",
     2,
     {"C5", "D5", "F6", "G8", NULL},
     {"FIRST\n1\nC5\n0\n1\nD5\n0\n", "F6\n1\nD5\n0\n2\nC5\nF6\n0\n"}},
    {"three forced moves",
     3,
     {"C5", "D5", "F6", "G8", "H10", NULL},
     {"FIRST\n2\nC5\nF6\n0\n2\nD5\nG8\n0\n", "F6\n1\nD5\n0\n2\nC5\nF6\n0\n"}},
};

START_TEST(write_first_inputs_after_forced_openings)
{
    static struct tx_game *g, *rebuilt;
    char err[128];
    bool seen[2] = {false, false};
    ck_assert_int_eq((tx_geometry_free(geo), tx_geometry_new(12, 12, &geo)), 0);
    test_game(&g, geo);
    for (int i = 0; forced_cases[_i].moves[i]; i++) {
        int me = g->to_move;
        if (i >= forced_cases[_i].nforced && !seen[me]) {
            seen[me] = true;
            const char *want = forced_cases[_i].first[me];
            int len = tx_input_write(g, me, true, text, sizeof(text));
            ck_assert_msg(len == (int)strlen(want) && !strcmp(text, want),
                          "%s: player %d's first input is\n%s\nexpected\n%s", forced_cases[_i].name,
                          me + 1, text, want);
            /* A bot tells its side from that first line, and rebuilds the
             * position from the rest. */
            ck_assert_msg(tx_input_parse(geo, text, (size_t)len, &in, err, sizeof(err)) == 0, "%s",
                          err);
            ck_assert_int_eq(tx_input_first_player(&in), me);
            ck_assert_int_eq(
                tx_game_from_input(test_game(&rebuilt, geo), geo, TX_RULES_PP, &in, me), 0);
            ck_assert(memcmp(tx_game_cells(rebuilt), tx_game_cells(g), (size_t)geo->holes) == 0);
            ck_assert_int_eq(rebuilt->swapped, g->swapped);
        }
        ck_assert_int_eq(tx_game_play(g, move_of(forced_cases[_i].moves[i])), TX_LEGAL);
    }
    ck_assert(seen[0] && seen[1]);
    /* The flag only ever changes player 1's first line: later inputs, and
     * player 2's, name the opponent's last move. */
    int me = g->to_move, len = tx_input_write(g, me, false, text, sizeof(text));
    ck_assert_int_eq(tx_input_write(g, me, me == 1, again, sizeof(again)), len);
    ck_assert_str_eq(again, text);
}
END_TEST

START_TEST(write_reports_small_buffer)
{
    static struct tx_game *g;
    play_to(&g, TURNS - 1);
    size_t need = strlen(expect[TURNS - 1]);
    ck_assert_int_eq(tx_input_write(g, g->to_move, false, text, need), -ENOSPC);
    ck_assert_int_eq(tx_input_write(g, g->to_move, false, text, need + 1), (int)need);
    ck_assert_int_eq(tx_input_write(g, g->to_move, false, text, 0), -ENOSPC);
}
END_TEST

static const struct {
    const char *text;
    size_t len; /* 0: strlen */
    const char *err;
} malformed[] = {
    {"", 0, "line 1: expected FIRST, SWAP or a hole name, found the end of the input"},
    {"FIRST", 0, "line 1: expected FIRST, SWAP or a hole name ending in a newline"},
    {"first\n0\n0\n0\n0\n", 0, "line 1: expected FIRST, SWAP or a hole name"},
    {"FIRST\r\n0\n0\n0\n0\n", 0, "line 1: expected FIRST, SWAP or a hole name"},
    {"M5\n0\n0\n1\nC5\n0\n", 0, "line 1: expected FIRST, SWAP or a hole name"},
    {"FIRST\n00\n0\n0\n0\n", 0, "line 2: expected a count"},
    {"FIRST\n-1\n0\n0\n0\n", 0, "line 2: expected a count"},
    {"FIRST\n0 \n0\n0\n0\n", 0, "line 2: expected a count"},
    {"FIRST\n\n0\n0\n0\n", 0, "line 2: expected a count"},
    {"FIRST\n145\n", 0, "line 2: count 145 is more than the board holds (144)"},
    {"FIRST\n0\n0\n0\n", 0, "line 5: expected a count, found the end of the input"},
    {"FIRST\n0\n0\n0\n0", 0, "line 5: expected a count ending in a newline"},
    {"FIRST\n0\n0\n0\n0\n\n", 0, "line 6: unexpected text after the input"},
    {"FIRST\n0\n0\n0\n0\nx", 0, "line 6: unexpected text after the input"},
    {"C5\n0\n0\n1\nC05\n0\n", 0, "line 5: expected a hole name"},
    {"C5\n0\n0\n1\nc5\n0\n", 0, "line 5: expected a hole name"},
    {"C5\n0\n0\n1\nM5\n0\n", 0, "line 5: hole M5 is off the 12x12 board"},
    {"C5\n0\n0\n2\nC5\n", 0, "line 6: expected a hole name, found the end of the input"},
    {"F5\n1\nD5\n0\n2\nE3\nF5\n1\nE3  F5\n", 0, "line 9: expected a hole name"},
    {"F5\n1\nD5\n0\n2\nE3\nF5\n1\nE3 F5 \n", 0, "line 9: expected a hole name"},
    {"F5\n1\nD5\n0\n2\nE3\nF5\n1\nE3F5\n", 0,
     "line 9: expected two hole names separated by one space"},
    {"F5\n1\nD5\n0\n2\nE3\nF5\n1\n E3 F5\n", 0, "line 9: expected a hole name"},
    {"F5\n1\nD5\n0\n2\nE3\nF5\n1\nE3 F5\r\n", 0, "line 9: expected a hole name"},
    {"F5\n1\nD5\n0\n2\nE3\nF5\n1\nE3\tF5\n", 0,
     "line 9: expected two hole names separated by one space"},
    {"C5\n0\n0\n1\nC5\0\n0\n", 15, "line 5: expected a hole name"},
};

START_TEST(parse_rejects_malformed)
{
    char err[128] = "unchanged";
    ck_assert_int_eq((tx_geometry_free(geo), tx_geometry_new(12, 12, &geo)), 0);
    size_t len = malformed[_i].len ? malformed[_i].len : strlen(malformed[_i].text);
    ck_assert_int_eq(tx_input_parse(geo, malformed[_i].text, len, &in, err, sizeof(err)), -EINVAL);
    ck_assert_str_eq(err, malformed[_i].err);
    /* A NULL or tiny err buffer is fine. */
    ck_assert_int_eq(tx_input_parse(geo, malformed[_i].text, len, &in, NULL, 0), -EINVAL);
    ck_assert_int_eq(tx_input_parse(geo, malformed[_i].text, len, &in, err, 4), -EINVAL);
    ck_assert_uint_le(strlen(err), 3);
}
END_TEST

/* Well-formed texts of positions that cannot occur, for the player `me`. */
static const struct {
    const char *text;
    int me;
} impossible[] = {
    {"FIRST\n0\n0\n0\n0\n", 1},      /* player 2 never moves first */
    {"FIRST\n0\n0\n1\nC5\n0\n", 1},  /* FIRST for player 2, with a peg on the board */
    {"FIRST\n0\n0\n1\nE3\n0\n", 0},  /* FIRST right after a swap: SWAP expected */
    {"C5\n0\n0\n1\nC5\n0\n", 0},     /* counts say player 2 is on move */
    {"D5\n0\n0\n1\nC5\n0\n", 1},     /* last move is not his last peg */
    {"C5\n0\n0\n1\nA5\n0\n", 1},     /* player 1 in column A */
    {"C5\n0\n0\n1\nA1\n0\n", 1},     /* a corner */
    {"E3\n0\n0\n1\nE3\n0\n", 0},     /* player 2 peg where player 1 needs a swap: SWAP expected */
    {"SWAP\n0\n0\n1\nE1\n0\n", 0},   /* player 2 in row 1 */
    {"C5\n1\nC5\n0\n1\nC5\n0\n", 0}, /* two pegs in one hole */
    {"F5\n1\nD5\n0\n2\nE3\nF5\n1\nE3 G4\n", 0},            /* link to a hole without his peg */
    {"F5\n1\nD5\n0\n2\nE3\nF5\n1\nE3 E5\n", 0},            /* link between non-neighbours */
    {"F5\n1\nD5\n0\n2\nE3\nF5\n1\nF5 E3\n", 0},            /* newer peg listed first */
    {"F5\n1\nD5\n0\n2\nE3\nF5\n2\nE3 F5\nE3 F5\n", 0},     /* one link twice */
    {"F4\n2\nE3\nF5\n1\nE3 F5\n2\nD5\nF4\n1\nD5 F4\n", 1}, /* his link across mine */
};

START_TEST(from_input_rejects_impossible_positions)
{
    static struct tx_game *g;
    char err[128];
    ck_assert_int_eq((tx_geometry_free(geo), tx_geometry_new(12, 12, &geo)), 0);
    const char *t = impossible[_i].text;
    ck_assert_msg(tx_input_parse(geo, t, strlen(t), &in, err, sizeof(err)) == 0, "%s", err);
    ck_assert_int_eq(
        tx_game_from_input(test_game(&g, geo), geo, TX_RULES_PP, &in, impossible[_i].me), -EINVAL);
}
END_TEST

START_TEST(from_input_rejects_finished_games)
{
    static struct tx_game *g;
    char err[128];
    /* Player 1 (rows) has a chain from row 1 to row 5 on the 5 x 5 board:
     * C1-D3-C5; the input is what player 2 would get, were it asked. */
    ck_assert_int_eq((tx_geometry_free(geo), tx_geometry_new(5, 5, &geo)), 0);
    const char *won = "C5\n2\nA2\nA4\n0\n3\nC1\nD3\nC5\n2\nC1 D3\nD3 C5\n";
    ck_assert_msg(tx_input_parse(geo, won, strlen(won), &in, err, sizeof(err)) == 0, "%s", err);
    ck_assert_int_eq(tx_game_from_input(test_game(&g, geo), geo, TX_RULES_PP, &in, 1), -EINVAL);
    /* With the last peg at B5 (no knight's move from D3) the game goes on.
     * (Merely leaving out the D3-C5 link would be an impossible position:
     * links are automatic.) */
    const char *open = "B5\n2\nA2\nA4\n0\n3\nC1\nD3\nB5\n1\nC1 D3\n";
    ck_assert_msg(tx_input_parse(geo, open, strlen(open), &in, err, sizeof(err)) == 0, "%s", err);
    ck_assert_int_eq(tx_game_from_input(test_game(&g, geo), geo, TX_RULES_PP, &in, 1), 0);
}
END_TEST

/* A classic game (RULES.md "Link edits", "Input"): the answers carry
 * removals, additions and declines, and each input lists the links on the
 * board then, by the placement of the newer peg, then of the older one. */
static const char *const classic_script[] = {
    "D5", "A2",        "H5",         "C3",        "F6 ~F6:D5",  "E4",
    "G8", "C8 -C3:E4", "B10 +D5:F6", "E2 +C3:E4", "J10 -F6:H5",
};
static const char *const classic_expect[] = {
    "FIRST\n0\n0\n0\n0\n",
    "D5\n0\n0\n1\nD5\n0\n",
    "A2\n1\nD5\n0\n1\nA2\n0\n",
    "H5\n1\nA2\n0\n2\nD5\nH5\n0\n",
    "C3\n2\nD5\nH5\n0\n2\nA2\nC3\n1\nA2 C3\n",
    /* F6 declined its link to D5: only H5-F6. */
    "F6\n2\nA2\nC3\n1\nA2 C3\n3\nD5\nH5\nF6\n1\nH5 F6\n",
    "E4\n3\nD5\nH5\nF6\n1\nH5 F6\n3\nA2\nC3\nE4\n2\nA2 C3\nC3 E4\n",
    "G8\n3\nA2\nC3\nE4\n2\nA2 C3\nC3 E4\n4\nD5\nH5\nF6\nG8\n2\nH5 F6\nF6 G8\n",
    /* Player 2 removed C3-E4 with C8: hisLastPeg is the hole only. */
    "C8\n4\nD5\nH5\nF6\nG8\n2\nH5 F6\nF6 G8\n4\nA2\nC3\nE4\nC8\n1\nA2 C3\n",
    /* D5-F6, added with B10, is listed first: its newer peg is F6. */
    "B10\n4\nA2\nC3\nE4\nC8\n1\nA2 C3\n5\nD5\nH5\nF6\nG8\nB10\n3\nD5 F6\nH5 F6\nF6 G8\n",
    /* C3-E4 added again and E2's automatic C3-E2: by the newer peg. */
    "E2\n5\nD5\nH5\nF6\nG8\nB10\n3\nD5 F6\nH5 F6\nF6 G8\n5\nA2\nC3\nE4\nC8\nE2\n3\nA2 C3\nC3 "
    "E4\nC3 "
    "E2\n",
    "J10\n5\nA2\nC3\nE4\nC8\nE2\n3\nA2 C3\nC3 E4\nC3 E2\n6\nD5\nH5\nF6\nG8\nB10\nJ10\n2\nD5 F6\nF6 "
    "G8\n",
};
#define CLASSIC_TURNS ((int)(sizeof(classic_expect) / sizeof(classic_expect[0])))

/* Plays one answer line of the script, edits included. */
static void play_answer(struct tx_game *g, const char *line)
{
    struct tx_answer a;
    ck_assert_int_eq(tx_answer_parse(geo, (enum tx_rules)g->rules, line, strlen(line), &a), 0);
    ck_assert_msg(tx_game_play_edits(g, a.move, a.edits, a.nedits, NULL) == TX_LEGAL, "%s refused",
                  line);
}

static void classic_play_to(struct tx_game **slot, int turn)
{
    ck_assert_int_eq((tx_geometry_free(geo), tx_geometry_new(12, 12, &geo)), 0);
    *slot = tx_xrealloc(*slot, tx_game_size(geo));
    tx_game_init(*slot, geo, TX_RULES_CLASSIC);
    for (int i = 0; i < turn; i++)
        play_answer(*slot, classic_script[i]);
}

/* Each input byte for byte; parsed back and rebuilt under classic it is the
 * same position and the same text, which plays on like the original. */
START_TEST(classic_inputs_round_trip)
{
    static struct tx_game *g, *rebuilt;
    char err[128];
    int me, len;

    classic_play_to(&g, _i);
    me = g->to_move;
    len = tx_input_write(g, me, false, text, sizeof(text));
    ck_assert_msg(len == (int)strlen(classic_expect[_i]) && !strcmp(text, classic_expect[_i]),
                  "turn %d: the input is\n%s\nexpected\n%s", _i, text, classic_expect[_i]);
    ck_assert_int_eq(tx_input_parse(geo, text, (size_t)len, &in, err, sizeof(err)), 0);
    rebuilt = tx_xrealloc(rebuilt, tx_game_size(geo));
    ck_assert_int_eq(tx_game_from_input(rebuilt, geo, TX_RULES_CLASSIC, &in, me), 0);
    ck_assert_int_eq(rebuilt->rules, TX_RULES_CLASSIC);
    ck_assert_int_eq(rebuilt->to_move, me);
    ck_assert_int_eq(rebuilt->nmoves, g->nmoves);
    ck_assert(memcmp(tx_game_cells(rebuilt), tx_game_cells(g), (size_t)geo->holes) == 0);
    for (int link = 0; link < geo->link_ids; link++)
        ck_assert_int_eq(tx_game_has_link(rebuilt, link), tx_game_has_link(g, link));
    ck_assert_int_eq(tx_input_write(rebuilt, me, false, again, sizeof(again)), len);
    ck_assert_str_eq(again, text);
    if (_i < CLASSIC_TURNS - 1) {
        play_answer(g, classic_script[_i]);
        play_answer(rebuilt, classic_script[_i]);
        ck_assert(memcmp(tx_game_cells(rebuilt), tx_game_cells(g), (size_t)geo->holes) == 0);
        for (int link = 0; link < geo->link_ids; link++)
            ck_assert_int_eq(tx_game_has_link(rebuilt, link), tx_game_has_link(g, link));
    }
}
END_TEST

/* What each rule set makes of positions the other allows: a knight pair
 * left unlinked (declined, removed) is a classic position and no pp one;
 * own links that cross are a pp position and no classic one. */
START_TEST(classic_and_pp_positions_differ)
{
    static struct tx_game *g;
    const char *declined = classic_expect[5]; /* player 2 to move; D5 and F6 unlinked */
    const char *crossing = "B10\n4\nA2\nA3\nA4\nA5\n0\n5\nE5\nF7\nD5\nF6\nB10\n2\nE5 F7\nD5 F6\n";
    char err[128];

    ck_assert_int_eq((tx_geometry_free(geo), tx_geometry_new(12, 12, &geo)), 0);
    g = tx_xrealloc(g, tx_game_size(geo));
    ck_assert_int_eq(tx_input_parse(geo, declined, strlen(declined), &in, err, sizeof(err)), 0);
    ck_assert_int_eq(tx_game_from_input(g, geo, TX_RULES_CLASSIC, &in, 1), 0);
    ck_assert_int_eq(tx_game_from_input(g, geo, TX_RULES_PP, &in, 1), -EINVAL);
    ck_assert_int_eq(tx_input_parse(geo, crossing, strlen(crossing), &in, err, sizeof(err)), 0);
    ck_assert_int_eq(tx_game_from_input(g, geo, TX_RULES_PP, &in, 1), 0);
    ck_assert_int_eq(tx_game_from_input(g, geo, TX_RULES_CLASSIC, &in, 1), -EINVAL);
}
END_TEST

static Suite *input_suite(void)
{
    Suite *s = suite_create("input");
    TCase *tc = tcase_create("input");
    tcase_add_loop_test(tc, write_scripted_game_byte_for_byte, 0, TURNS);
    tcase_add_loop_test(tc, parse_write_round_trip, 0, TURNS);
    tcase_add_test(tc, first_player_of_first_inputs);
    tcase_add_loop_test(tc, write_first_inputs_after_forced_openings, 0,
                        (int)(sizeof(forced_cases) / sizeof(forced_cases[0])));
    tcase_add_test(tc, write_reports_small_buffer);
    tcase_add_loop_test(tc, parse_rejects_malformed, 0,
                        (int)(sizeof(malformed) / sizeof(malformed[0])));
    tcase_add_loop_test(tc, from_input_rejects_impossible_positions, 0,
                        (int)(sizeof(impossible) / sizeof(impossible[0])));
    tcase_add_test(tc, from_input_rejects_finished_games);
    tcase_add_loop_test(tc, classic_inputs_round_trip, 0, CLASSIC_TURNS);
    tcase_add_test(tc, classic_and_pp_positions_differ);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(input_suite());
    srunner_run_all(sr, CK_ENV);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? 0 : 1;
}
