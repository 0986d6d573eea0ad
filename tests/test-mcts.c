/* test-mcts.c - twixt-mcts's search pieces on constructed positions: the
 * lookahead of the biggest boards (bots/mcts-lookahead.c) gives the value
 * a plain minimax over the same moves gives, is greedy at depth one, sees
 * a won and a lost race, keeps to its deadline on 100 x 100, and takes
 * over tx_mcts_search above 26 x 26 unless switched off, going on to a
 * third ply when there is time; and the
 * two-distance its value uses is ordered as it should be. The fourth
 * round's blocks by a link (tx_eval_link_blocks) on a position of a real
 * game.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "alloc.h"
#include "fastboard.h"
#include "game.h"
#include "greedy-eval.h"
#include "hole.h"
#include "mcts-lookahead.h"
#include "mcts.h"
#include "rng.h"

static const struct tx_lookahead_features plain = {0},
                                          all = {.two_distance = true, .link_blocks = true};

static struct tx_fastboard *board_of(const struct tx_geometry *geo, enum tx_rules rules)
{
    struct tx_fastboard *b = tx_xmalloc(tx_fastboard_size(geo));
    tx_fastboard_init(b, geo, rules);
    return b;
}

/* Plays count random moves near the centre (a middle game with no race
 * decided). */
static void random_moves(struct tx_fastboard *b, struct tx_rng *rng, int count)
{
    const struct tx_geometry *geo = b->geo;
    for (int played = 0; played < count;) {
        int x = geo->width / 2 - 3 + (int)tx_rng_below(rng, 7);
        int y = geo->height / 2 - 3 + (int)tx_rng_below(rng, 7);
        int h = tx_geometry_hole(geo, x, y);
        if (tx_fastboard_can_play(b, b->to_move, h)) {
            tx_fastboard_play(b, h);
            played++;
        }
    }
}

/* tx_mcts_search of b with the features f, no deadline and at most
 * evaluations iterations (the lookahead's evaluations): the move, which
 * must be legal, and the search's stats in st. */
static int search_with(const struct tx_fastboard *b, const struct tx_mcts_features *f,
                       long evaluations, struct tx_mcts_stats *st)
{
    struct tx_mcts *m = tx_mcts_new(b->geo, 3, 1 << 16);
    tx_mcts_set_features(m, f);
    int last[2] = {-1, -1};
    int move = tx_mcts_search(m, b, last, INT64_MAX, evaluations, st);
    ck_assert(move >= 0 && tx_fastboard_can_play(b, b->to_move, move));
    tx_mcts_free(m);
    return move;
}

/* Plain negamax over the moves the lookahead searches, without pruning:
 * what its alpha-beta must agree with. */
static int reference(const struct tx_fastboard *b, int ply, int depth, bool root)
{
    if (depth == 0 || b->winner >= 0) {
        int v = tx_eval_position(b, b->to_move);
        return v >= TX_EVAL_WIN ? v - ply : v <= -TX_EVAL_WIN ? v + ply : v;
    }
    int16_t moves[TX_HOLES_MAX];
    uint8_t mine[TX_HOLES_MAX], his[TX_HOLES_MAX];
    int n = root ? tx_eval_candidates(b, true, tx_lookahead_root_width(b->geo), moves)
                 : tx_eval_candidates_paths(b, TX_LOOKAHEAD_WIDTH, moves, mine, his, NULL);
    if (n == 0)
        return 0;
    struct tx_fastboard *next = tx_xmalloc(b->bytes);
    int best = -2 * TX_EVAL_WIN;
    for (int i = 0; i < n; i++) {
        tx_fastboard_copy(next, b);
        tx_fastboard_play(next, moves[i]);
        int v = -reference(next, ply + 1, depth - 1, false);
        if (v > best)
            best = v;
    }
    free(next);
    return best;
}

/* Alpha-beta, the root's ordering and the inner nodes' orderings change
 * how much is searched, never the value: depth 2 on several middle games
 * of both rule sets, depth 3 on one. */
START_TEST(lookahead_value_is_minimax)
{
    struct tx_geometry *geo = NULL;
    ck_assert_int_eq(tx_geometry_new(12, 12, &geo), 0);
    struct tx_rng rng;
    tx_rng_seed(&rng, 7);
    for (int game = 0; game < 6; game++) {
        struct tx_fastboard *b = board_of(geo, game % 2 ? TX_RULES_CLASSIC : TX_RULES_PP);
        random_moves(b, &rng, 6 + game);
        int depth = game == 0 ? 3 : 2;
        struct tx_lookahead_stats st;
        int move = tx_lookahead_move(b, INT64_MAX, 0, depth, 0, &plain, &st);
        ck_assert(move >= 0 && tx_fastboard_can_play(b, b->to_move, move));
        ck_assert_int_eq(st.depth, depth);
        ck_assert_int_eq(st.searched, st.moves);
        ck_assert_int_eq(st.value, reference(b, 0, depth, true));
        struct tx_fastboard *after = board_of(geo, game % 2 ? TX_RULES_CLASSIC : TX_RULES_PP);
        tx_fastboard_copy(after, b);
        tx_fastboard_play(after, move);
        ck_assert_int_eq(-reference(after, 1, depth - 1, false), st.value);
        free(after);
        free(b);
    }
    free(geo);
}
END_TEST

/* Depth one is twixt-greedy's ranking: the chosen move's value is the best
 * score of tx_eval_rank_candidates over the same candidates. */
START_TEST(lookahead_depth_one_is_greedy)
{
    struct tx_geometry *geo = NULL;
    ck_assert_int_eq(tx_geometry_new(40, 40, &geo), 0);
    struct tx_rng rng;
    tx_rng_seed(&rng, 11);
    struct tx_fastboard *b = board_of(geo, TX_RULES_PP);
    random_moves(b, &rng, 9);
    struct tx_lookahead_stats st;
    int move = tx_lookahead_move(b, INT64_MAX, 0, 1, 0, &plain, &st);
    int16_t ranked[TX_HOLES_MAX];
    int scores[TX_HOLES_MAX];
    int n = tx_eval_rank_candidates(b, &rng, tx_lookahead_root_width(geo), ranked, scores);
    ck_assert_int_eq(st.moves, n);
    ck_assert_int_eq(st.value, scores[0]);
    struct tx_fastboard *after = board_of(geo, TX_RULES_PP);
    tx_fastboard_copy(after, b);
    tx_fastboard_play(after, move);
    ck_assert_int_eq(tx_eval_position(after, b->to_move), scores[0]);
    free(after);
    free(b);
    free(geo);
}
END_TEST

/* Where the evaluation cannot tell moves apart, as on an open big board
 * (every hole on a shortest path, the flexibility over its cap), the
 * lookahead plays the most promising candidate (tx_eval_candidates_ranked:
 * central, next to a peg) rather than the first in hole order, a peg on the
 * top rows that twixt-mcts used to play in such openings. */
static int by_hole(const void *a, const void *b)
{
    return *(const int16_t *)a - *(const int16_t *)b;
}

START_TEST(lookahead_breaks_ties_by_promise)
{
    struct tx_geometry *geo = NULL;
    ck_assert_int_eq(tx_geometry_new(36, 36, &geo), 0);
    struct tx_fastboard *b = board_of(geo, TX_RULES_PP);
    for (int depth = 1; depth <= 2; depth++) {
        struct tx_lookahead_stats st;
        int move = tx_lookahead_move(b, INT64_MAX, 0, depth, 0, &all, &st);
        int x = tx_geometry_x(geo, move), y = tx_geometry_y(geo, move);
        ck_assert_msg(abs(2 * x - 35) + abs(2 * y - 35) <= 8, "depth %d: %d,%d is not central",
                      depth, x, y);
    }
    int16_t ranked[TX_HOLES_MAX], plain_order[TX_HOLES_MAX];
    int n = tx_eval_candidates_ranked(b, 60, ranked);
    ck_assert_int_eq(tx_eval_candidates(b, true, 60, plain_order), n);
    qsort(ranked, (size_t)n, sizeof(ranked[0]), by_hole); /* the same holes */
    ck_assert(memcmp(ranked, plain_order, sizeof(int16_t) * (size_t)n) == 0);
    free(b);
    free(geo);
}
END_TEST

/* Player 0 (rows) has a chain from its first row to the second-last
 * (x = 2, 1, 2, ... on rows 0, 2, ..., 10 of 12 x 12) whose last peg has
 * one hole of the last row a knight's move away, (3, 11): to move, it
 * plays that hole and wins; player 1 to move cannot stop it (it may not
 * play player 0's row, and no single peg cuts the link), which the
 * lookahead sees as lost however it searches. */
START_TEST(lookahead_sees_won_and_lost_races)
{
    struct tx_geometry *geo = NULL;
    ck_assert_int_eq(tx_geometry_new(12, 12, &geo), 0);
    for (int p1_to_move = 0; p1_to_move < 2; p1_to_move++) {
        struct tx_fastboard *b = board_of(geo, TX_RULES_PP);
        for (int i = 0; i < 6; i++) {
            tx_fastboard_play(b, tx_geometry_hole(geo, i % 2 ? 1 : 2, 2 * i));
            tx_fastboard_play(b, tx_geometry_hole(geo, 11, 1 + 2 * i)); /* player 1, far */
        }
        if (p1_to_move)
            tx_fastboard_play(b, tx_geometry_hole(geo, 8, 5)); /* player 0 elsewhere */
        struct tx_lookahead_stats st;
        int move = tx_lookahead_move(b, INT64_MAX, 0, 2, 0, &all, &st);
        if (!p1_to_move) {
            ck_assert_int_eq(move, tx_geometry_hole(geo, 3, 11));
            ck_assert_int_ge(st.value, TX_EVAL_WIN - 8);
            ck_assert_double_eq(tx_lookahead_win_rate(st.value), 1);
        } else {
            ck_assert(move >= 0 && tx_fastboard_can_play(b, 1, move));
            ck_assert_int_le(st.value, -TX_EVAL_WIN + 8);
            ck_assert_double_eq(tx_lookahead_win_rate(st.value), 0);
        }
        free(b);
    }
    free(geo);
}
END_TEST

/* Hex's two-distance (tx_eval_two_distance) is never below the distance,
 * 0 for a winner, TX_EVAL_FAR for a player cut off, about the distance on
 * the empty board (every hole has many ways in), and more than the
 * distance where the ways are few: the chain of
 * lookahead_sees_won_and_lost_races, one peg from winning through one
 * hole, counts for more than one, and for more along the left edge (whose
 * column player 0 may not use) than the same chain in the middle. The
 * lookahead's value (tx_eval_position_fragile, which shares its searches'
 * preparation) is tx_eval_position plus the two fragilities' difference. */
static int fragility(const struct tx_fastboard *b, int p)
{
    int d = tx_eval_distance(b, p, NULL), more = tx_eval_two_distance(b, p) - d,
        cap = tx_eval_fragility_cap(b->geo, p);
    return d >= TX_EVAL_FAR ? 0 : more < cap ? more : cap;
}

START_TEST(two_distance_order)
{
    struct tx_geometry *geo = NULL;
    ck_assert_int_eq(tx_geometry_new(12, 12, &geo), 0);
    struct tx_rng rng;
    tx_rng_seed(&rng, 13);
    struct tx_fastboard *b = board_of(geo, TX_RULES_PP);
    for (int p = 0; p < 2; p++) {
        int d = tx_eval_distance(b, p, NULL), two = tx_eval_two_distance(b, p);
        ck_assert_int_ge(two, d);
        ck_assert_int_le(two, d + 1);
    }
    for (int game = 0; game < 40; game++) { /* random games of both rule sets */
        tx_fastboard_init(b, geo, game % 2 ? TX_RULES_CLASSIC : TX_RULES_PP);
        while (b->winner < 0) {
            int h = (int)tx_rng_below(&rng, (uint32_t)geo->holes), p = b->to_move;
            if (!tx_fastboard_can_play(b, p, h))
                continue;
            tx_fastboard_play(b, h);
            for (int q = 0; q < 2; q++) {
                int d = tx_eval_distance(b, q, NULL), two = tx_eval_two_distance(b, q);
                ck_assert_int_ge(two, d);
                if (d >= TX_EVAL_FAR)
                    ck_assert_int_eq(two, TX_EVAL_FAR);
                if (b->winner == q)
                    ck_assert_int_eq(two, 0);
                int plain_value = tx_eval_position(b, q);
                ck_assert_int_eq(tx_eval_position_fragile(b, q),
                                 b->winner >= 0
                                     ? plain_value
                                     : plain_value + 64 * (fragility(b, !q) - fragility(b, q)));
            }
            bool full = true; /* a board with no hole left for the mover: stop */
            for (int k = 0; k < geo->holes && full; k++)
                full = !tx_fastboard_can_play(b, b->to_move, k);
            if (full)
                break;
        }
    }
    int two_at[2];
    for (int x = 0; x < 2; x++) { /* the chain along the left edge, then in the middle */
        tx_fastboard_init(b, geo, TX_RULES_PP);
        for (int i = 0; i < 6; i++) {
            tx_fastboard_play(b, tx_geometry_hole(geo, (i % 2 ? 1 : 2) + 4 * x, 2 * i));
            tx_fastboard_play(b, tx_geometry_hole(geo, 11, 1 + 2 * i));
        }
        ck_assert_int_eq(tx_eval_distance(b, 0, NULL), 1);
        two_at[x] = tx_eval_two_distance(b, 0);
        ck_assert_int_gt(two_at[x], 1);
    }
    ck_assert_int_gt(two_at[0], two_at[1]);
    free(b);
    free(geo);
}
END_TEST

/* The fragility counted at most is a sixth of the side along the player's
 * way, at most 6: less than the third round's 8 pegs, which swayed the
 * lookahead's value more than the race did (README, the sixth and seventh
 * rounds), and by each player's own side on a handicap board. */
START_TEST(fragility_cap_follows_the_side)
{
    static const struct {
        int width, height, cap0, cap1;
    } cases[] = {{12, 12, 2, 2}, {32, 32, 5, 5},   {36, 36, 6, 6}, {44, 44, 6, 6},
                 {48, 48, 6, 6}, {100, 100, 6, 6}, {24, 36, 6, 4}, {36, 24, 4, 6}};
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct tx_geometry *geo = NULL;
        ck_assert_int_eq(tx_geometry_new(cases[i].width, cases[i].height, &geo), 0);
        ck_assert_int_eq(tx_eval_fragility_cap(geo, 0), cases[i].cap0);
        ck_assert_int_eq(tx_eval_fragility_cap(geo, 1), cases[i].cap1);
        free(geo);
    }
}
END_TEST

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* On 100 x 100 (an evaluation costs milliseconds there) a 60 ms lookahead
 * returns by its deadline by its own clock, the margin being for a
 * preempted process (sanitizers, parallel tests), and has searched. */
START_TEST(lookahead_keeps_to_its_deadline)
{
    struct tx_geometry *geo = NULL;
    ck_assert_int_eq(tx_geometry_new(100, 100, &geo), 0);
    struct tx_rng rng;
    tx_rng_seed(&rng, 5);
    struct tx_fastboard *b = board_of(geo, TX_RULES_PP);
    random_moves(b, &rng, 8);
    struct tx_lookahead_stats st;
    int64_t start = now_ns(), deadline = start + 60000000;
    int move = tx_lookahead_move(b, deadline, 0, 0, 0, &all, &st);
    int64_t end = now_ns();
    ck_assert(move >= 0 && tx_fastboard_can_play(b, b->to_move, move));
    ck_assert_int_gt(st.evaluations, 0);
    ck_assert_int_ge(st.depth, 1);
    ck_assert_msg(end <= deadline + 200000000, "%.1f ms past the deadline",
                  (double)(end - deadline) / 1e6);
    /* and with an evaluation limit, no more than that */
    tx_lookahead_move(b, INT64_MAX, 10, 0, 0, &all, &st);
    ck_assert_int_eq(st.evaluations, 10);
    free(b);
    free(geo);
}
END_TEST

/* tx_mcts_search hands a board over TX_LOOKAHEAD_SIZE_MIN (26 x 26) to
 * the lookahead (its iterations are the evaluations), not one of that
 * size, nor with --no-lookahead. */
START_TEST(mcts_search_uses_lookahead_on_big_boards)
{
    static const struct {
        int size;
        bool lookahead, used;
    } cases[] = {{TX_LOOKAHEAD_SIZE_MIN + 1, true, true},
                 {48, true, true},
                 {48, false, false},
                 {TX_LOOKAHEAD_SIZE_MIN, true, false}};
    for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
        struct tx_geometry *geo = NULL;
        ck_assert_int_eq(tx_geometry_new(cases[c].size, cases[c].size, &geo), 0);
        struct tx_rng rng;
        tx_rng_seed(&rng, 3);
        struct tx_fastboard *b = board_of(geo, TX_RULES_PP);
        random_moves(b, &rng, 4);
        struct tx_mcts_features f;
        tx_mcts_features_default(&f);
        f.lookahead = cases[c].lookahead;
        struct tx_mcts_stats st;
        search_with(b, &f, 30, &st);
        ck_assert_int_eq(st.playouts, 30);
        ck_assert_msg((st.lookahead_depth > 0) == cases[c].used, "size %d", cases[c].size);
        free(b);
        free(geo);
    }
}
END_TEST

/* The third ply (--no-third-ply): with evaluations to spare after the two
 * plies, tx_mcts_search's lookahead goes on to a third over the root's best
 * moves, under both rules; switched off it stops at two, having searched
 * every root move. The evaluations are counted, not timed. */
START_TEST(mcts_search_third_ply_in_the_time_left)
{
    struct tx_geometry *geo = NULL;
    ck_assert_int_eq(tx_geometry_new(TX_LOOKAHEAD_SIZE_MIN + 1, TX_LOOKAHEAD_SIZE_MIN + 1, &geo),
                     0);
    for (int classic = 0; classic < 2; classic++) {
        struct tx_rng rng;
        tx_rng_seed(&rng, 5);
        struct tx_fastboard *b = board_of(geo, classic ? TX_RULES_CLASSIC : TX_RULES_PP);
        random_moves(b, &rng, 10);
        for (int on = 0; on < 2; on++) {
            struct tx_mcts_features f;
            tx_mcts_features_default(&f);
            f.third_ply = on;
            struct tx_mcts_stats st;
            search_with(b, &f, 6000, &st);
            ck_assert_int_eq(st.lookahead_depth, on ? 3 : 2);
            if (on)
                ck_assert_int_gt(st.lookahead_searched, 0);
            else
                ck_assert_int_eq(st.lookahead_searched, st.lookahead_moves);
        }
        free(b);
    }
    free(geo);
}
END_TEST

/* A position of pp 48 x 48 from a game of the third round's final run
 * (greedy against mcts, greedy cut off; the record's first 90 moves): mcts
 * (player 1, columns) has just played AF12, 4 pegs from connecting, and
 * greedy's answer in the game was AF13, whose links cross the last steps of
 * mcts's connection: 17 pegs then. */
static const char *const cut_by_a_link[] = {
    "AS44", "X2",  "AD14", "AH6",  "AM32", "AB6",  "AJ26", "AD2", "AH22", "AC3",  "AL30", "AI3",
    "AT46", "Y3",  "AI24", "AE3",  "AD10", "AK28", "AC12", "AG2", "AE16", "AF18", "AC17", "AA2",
    "AD5",  "AC2", "AB4",  "AB2",  "Z4",   "W2",   "Y6",   "U3",  "V4",   "S2",   "AJ3",  "AK4",
    "X3",   "Q3",  "T5",   "O4",   "AL3",  "AM3",  "O5",   "M3",  "AC8",  "K4",   "AK5",  "AO4",
    "Q4",   "I5",  "AO5",  "AQ5",  "AR3",  "AS6",  "H3",   "G6",  "AT7",  "AU5",  "AA7",  "E7",
    "S3",   "C8",  "M6",   "B6",   "AD3",  "AA4",  "AF4",  "AV3", "Z5",   "AH5",  "AG6",  "AC5",
    "AI7",  "A4",  "AH3",  "AE6",  "AH9",  "AE2",  "AB5",  "AF8", "AI2",  "U2",   "AI9",  "AJ5",
    "U4",   "Z2",  "AF3",  "AG10", "AG11", "AF12"};

/* The search board after the moves of a pp game on geo (SWAP included). */
static struct tx_fastboard *board_after(const struct tx_geometry *geo, const char *const *moves,
                                        int n)
{
    struct tx_game *g = tx_game_new(geo, TX_RULES_PP);
    for (int i = 0; i < n; i++) {
        int h = TX_MOVE_SWAP;
        if (strcmp(moves[i], "SWAP"))
            ck_assert_int_eq(tx_hole_parse(geo, moves[i], strlen(moves[i]), &h), TX_HOLE_OK);
        ck_assert_int_eq(tx_game_play(g, h), TX_LEGAL);
    }
    struct tx_fastboard *b = board_of(geo, TX_RULES_PP);
    tx_fastboard_from_game(b, g);
    tx_game_free(g);
    return b;
}

static int hole_of(const struct tx_geometry *geo, const char *name)
{
    int h = -1;
    ck_assert_int_eq(tx_hole_parse(geo, name, strlen(name), &h), TX_HOLE_OK);
    return h;
}

/* tx_eval_link_blocks marks greedy's AF13 in cut_by_a_link: not on mcts's
 * shortest paths, not among the 24 candidates of the lookahead's inner
 * node, yet it takes mcts's distance from 4 to 17; the same marks come from
 * the candidates' searches (tx_eval_candidates_paths), and every marked
 * hole is vacant, playable and makes a link. */
START_TEST(link_blocks_see_a_cut_off_the_path)
{
    struct tx_geometry *geo = NULL;
    ck_assert_int_eq(tx_geometry_new(48, 48, &geo), 0);
    int n = (int)(sizeof(cut_by_a_link) / sizeof(cut_by_a_link[0]));
    struct tx_fastboard *b = board_after(geo, cut_by_a_link, n);
    int af13 = hole_of(geo, "AF13");
    ck_assert_int_eq(b->to_move, 0);
    ck_assert_int_eq(tx_eval_distance(b, 1, NULL), 4);
    uint8_t *marks = tx_xcalloc(TX_HOLES_MAX, 1), *again = tx_xcalloc(TX_HOLES_MAX, 1);
    uint8_t *mine = tx_xcalloc(TX_HOLES_MAX, 1), *his = tx_xcalloc(TX_HOLES_MAX, 1);
    int16_t moves[TX_HOLES_MAX];
    int marked = tx_eval_link_blocks(b, 0, marks);
    ck_assert_int_gt(marked, 0);
    ck_assert_int_eq(marks[af13], 1);
    int m = tx_eval_candidates_paths(b, TX_LOOKAHEAD_WIDTH, moves, mine, his, again);
    ck_assert_int_eq(m, TX_LOOKAHEAD_WIDTH);
    for (int i = 0; i < m; i++)
        ck_assert_int_ne(moves[i], af13);
    ck_assert_int_eq(his[af13], 0);
    struct tx_fastboard *after = board_of(geo, TX_RULES_PP);
    for (int h = 0; h < geo->holes; h++) {
        ck_assert_int_eq(again[h], marks[h]);
        if (!marks[h])
            continue;
        ck_assert(tx_fastboard_can_play(b, 0, h));
        tx_fastboard_copy(after, b);
        tx_fastboard_play(after, h);
        int links = 0;
        for (int k = 0; k < 8; k++)
            links +=
                geo->neighbour[h][k] >= 0 && tx_fastboard_has_link(after, 0, geo->link_of[h][k]);
        ck_assert_int_gt(links, 0);
    }
    tx_fastboard_copy(after, b);
    tx_fastboard_play(after, af13);
    ck_assert_int_eq(tx_eval_distance(after, 1, NULL), 17);
    /* no marks for a player whose opponent cannot connect (greedy here) */
    memset(marks, 0, TX_HOLES_MAX);
    ck_assert_int_eq(tx_eval_link_blocks(b, 1, marks), 0);
    free(after);
    free(marks);
    free(again);
    free(mine);
    free(his);
    free(b);
    free(geo);
}
END_TEST

/* Once one player is cut off (it can no longer connect, so the game is at
 * worst a draw for the other), tx_mcts_search's lookahead searches deeper
 * than its two plies over fewer moves, whichever of them is to move,
 * unless --no-one-sided: cut_by_a_link after greedy's AF13, greedy
 * (player 0) cut off, mcts 17 pegs from connecting; then after a peg of
 * mcts far away, greedy to move. */
START_TEST(mcts_search_deeper_once_a_player_is_cut_off)
{
    struct tx_geometry *geo = NULL;
    ck_assert_int_eq(tx_geometry_new(48, 48, &geo), 0);
    int n = (int)(sizeof cut_by_a_link / sizeof cut_by_a_link[0]);
    struct tx_fastboard *b = board_after(geo, cut_by_a_link, n);
    tx_fastboard_play(b, hole_of(geo, "AF13"));
    ck_assert_int_eq(tx_eval_distance(b, 0, NULL), TX_EVAL_FAR);
    ck_assert_int_eq(tx_eval_distance(b, 1, NULL), 17);
    for (int mover = 1; mover >= 0; mover--) {
        if (mover == 0)
            tx_fastboard_play(b, hole_of(geo, "C40"));
        ck_assert_int_eq(b->to_move, mover);
        for (int on = 0; on < 2; on++) {
            struct tx_mcts_features f;
            tx_mcts_features_default(&f);
            f.one_sided = on;
            f.third_ply = false; /* the usual search: two plies */
            struct tx_mcts_stats st;
            search_with(b, &f, 2000, &st);
            if (on)
                ck_assert_int_gt(st.lookahead_depth, 2);
            else
                ck_assert_int_le(st.lookahead_depth, 2);
            ck_assert_int_eq(st.lookahead_moves, on ? 12 : tx_lookahead_root_width(geo));
        }
    }
    free(b);
    free(geo);
}
END_TEST

/* In cut_by_a_link one move before (mcts to play AF12): without link
 * blocks the lookahead's depth 2 chooses AF12, as the game's search did,
 * valuing it as a connection 4 or 5 pegs away; with them greedy's blocks by
 * a link are among the answers and the best move's value is more than 5
 * pegs' worth lower. */
START_TEST(lookahead_sees_the_link_block)
{
    struct tx_geometry *geo = NULL;
    ck_assert_int_eq(tx_geometry_new(48, 48, &geo), 0);
    int n = (int)(sizeof(cut_by_a_link) / sizeof(cut_by_a_link[0]));
    struct tx_fastboard *b = board_after(geo, cut_by_a_link, n - 1);
    struct tx_lookahead_features f = {.two_distance = true, .link_blocks = false};
    struct tx_lookahead_stats without, with;
    int move = tx_lookahead_move(b, INT64_MAX, 0, 2, 0, &f, &without);
    ck_assert_int_eq(move, hole_of(geo, "AF12"));
    f.link_blocks = true;
    tx_lookahead_move(b, INT64_MAX, 0, 2, 0, &f, &with);
    ck_assert_int_eq(with.depth, 2);
    ck_assert_int_lt(with.value, without.value - 5 * 64);
    free(b);
    free(geo);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("mcts");
    TCase *tc = tcase_create("lookahead");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, lookahead_value_is_minimax);
    tcase_add_test(tc, lookahead_depth_one_is_greedy);
    tcase_add_test(tc, lookahead_sees_won_and_lost_races);
    tcase_add_test(tc, lookahead_keeps_to_its_deadline);
    tcase_add_test(tc, two_distance_order);
    tcase_add_test(tc, fragility_cap_follows_the_side);
    tcase_add_test(tc, lookahead_breaks_ties_by_promise);
    tcase_add_test(tc, mcts_search_deeper_once_a_player_is_cut_off);
    tcase_add_test(tc, mcts_search_uses_lookahead_on_big_boards);
    tcase_add_test(tc, mcts_search_third_ply_in_the_time_left);
    tcase_add_test(tc, link_blocks_see_a_cut_off_the_path);
    tcase_add_test(tc, lookahead_sees_the_link_block);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
