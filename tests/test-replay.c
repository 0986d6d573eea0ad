/* test-replay.c - verification of game records (referee/verify.c) and the
 * `twixt-arena replay` command (referee/cmd-replay.c).
 *
 * Records are made here by playing seeded random games with libtwixt and
 * writing down what the referee would (the same fields, details and links),
 * so every ending can be produced on purpose: connection, draw, an invalid
 * answer (illegal hole or not a move), a timeout with and without an answer,
 * a crash, an interruption. Each must verify; each tampered copy must be
 * refused with the expected move number and words. Records written by the
 * real referee (twixt-arena play, found through TX_BUILD_DIR, against the
 * misbehaving tests/fault-bot) must verify too, and stop verifying when
 * their winner is changed.
 * The command is run in a forked child with its output in a file, so its
 * exit status and messages are asserted exactly as a user sees them.
 */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "alloc.h"
#include "arena-test.h"
#include "commands.h"
#include "answer.h"
#include "hole.h"
#include "input.h"
#include "record.h"
#include "verify.h"
#include "test-game.h"

enum ending {
    END_NATURAL,     /* play until a win or a draw */
    END_OCCUPIED,    /* the mover answers an occupied hole */
    END_NOT_A_MOVE,  /* the mover answers "d6" */
    END_TIMEOUT,     /* no answer in time (move null) */
    END_LATE,        /* a legal answer, but too late */
    END_CRASH,       /* the mover exits (move null) */
    END_INTERRUPTED, /* the referee is stopped */
};

struct plan {
    int size;
    uint64_t seed;
    bool swap;   /* player 2 answers SWAP at move 2 */
    int nforced; /* forced opening moves */
    enum ending ending;
    int stop_at; /* for endings other than natural: entries played before */
};

static struct tx_verify_geometries cache;

static uint64_t next_random(uint64_t *s)
{
    /* xorshift64*: plenty for picking moves. */
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 2685821657736338717ULL;
}

static void add_entry(struct tx_record *r, int player, const char *move, int64_t us, bool forced)
{
    struct tx_record_move *m = &r->moves[r->nmoves++];

    memset(m, 0, sizeof *m);
    m->player = player;
    m->move = move ? tx_strdup(move) : NULL;
    m->us = forced ? -1 : us;
    m->forced = forced;
    if (!forced && r->nmoves % 3 == 0)
        m->message = tx_strdup("thinking");
    if (!forced && r->nmoves % 5 == 0)
        m->stderr_text = tx_strdup("depth 3\n");
}

static void set_links(struct tx_record *r, const struct tx_game *g)
{
    int16_t *links = malloc(sizeof *links * 2 * TX_LINKS_MAX);

    for (int p = 0; p < 2; p++) {
        int n = tx_game_links(g, p, links);
        r->players[p].nlinks = n;
        r->players[p].links = calloc((size_t)n + 1, sizeof *r->players[p].links);
        for (int k = 0; k < n; k++) {
            char a[TX_HOLE_NAME_MAX], b[TX_HOLE_NAME_MAX];
            snprintf(r->players[p].links[k], sizeof r->players[p].links[k], "%s %s",
                     tx_hole_name(g->geo, links[2 * k], a),
                     tx_hole_name(g->geo, links[2 * k + 1], b));
        }
    }
    free(links);
}

/* Plays a game as the plan says and writes it down as the referee would. */
static void make_record(const struct plan *plan, struct tx_record *r)
{
    const struct tx_geometry *geo = tx_verify_geometry(&cache, plan->size, plan->size);
    static struct tx_game *g;
    int16_t legal[TX_MOVES_MAX];
    uint64_t rng = plan->seed * 0x9E3779B97F4A7C15ULL + 1;
    char name[TX_HOLE_NAME_MAX], detail[128];

    memset(r, 0, sizeof *r);
    r->format = tx_strdup(TX_RECORD_FORMAT);
    r->game = (int64_t)plan->seed;
    r->seed = plan->seed;
    r->width = r->height = plan->size;
    r->limits.first_turn_ms = 1000;
    r->limits.turn_ms = 300;
    r->referee = tx_strdup("twixt-arena test");
    r->started = tx_strdup("2026-11-21T21:00:00Z");
    r->players[0].name = tx_strdup("alpha");
    r->players[0].command = tx_strdup("bots/alpha --seed 1");
    r->players[1].name = tx_strdup("beta");
    r->players[1].command = tx_strdup("bots/beta");
    r->moves = calloc(TX_MOVES_MAX + 2, sizeof *r->moves);
    ck_assert_ptr_nonnull(geo);
    test_game(&g, geo);

    while (g->status == TX_ONGOING && (plan->ending == END_NATURAL || r->nmoves < plan->stop_at)) {
        int n = tx_game_legal_moves(g, legal), move;
        bool forced = r->nmoves < plan->nforced;
        if (plan->swap && g->nmoves == 1 && !forced) {
            move = TX_MOVE_SWAP;
        } else {
            /* Skip SWAP (listed first when allowed) unless the plan wants it. */
            int first = n > 0 && legal[0] == TX_MOVE_SWAP ? 1 : 0;
            move = legal[first + (int)(next_random(&rng) % (uint64_t)(n - first))];
        }
        add_entry(r, g->to_move, move == TX_MOVE_SWAP ? "SWAP" : tx_hole_name(geo, move, name),
                  (int64_t)(next_random(&rng) % 250000), forced);
        ck_assert_int_eq(tx_game_play(g, move), TX_LEGAL);
    }
    r->result.winner = -1;
    if (g->status == TX_WON) {
        int16_t chain[TX_HOLES_MAX];
        int len = tx_game_winning_chain(g, chain);
        char a[TX_HOLE_NAME_MAX], b[TX_HOLE_NAME_MAX];
        ck_assert_int_eq(plan->ending, END_NATURAL);
        r->result.winner = g->winner;
        r->result.reason = TX_REASON_CONNECTION;
        snprintf(detail, sizeof detail, "%s-%s", tx_hole_name(geo, chain[0], a),
                 tx_hole_name(geo, chain[len - 1], b));
    } else if (g->status == TX_DRAWN) {
        ck_assert_int_eq(plan->ending, END_NATURAL);
        r->result.reason = TX_REASON_DRAW;
        snprintf(detail, sizeof detail, "no legal hole for player %d", g->to_move + 1);
    } else {
        int loser = g->to_move;
        int16_t pegs[TX_HOLES_MAX];
        int npegs = tx_game_pegs(g, 1 - loser, pegs), occupied = npegs > 0 ? pegs[npegs - 1] : -1;
        r->result.winner = 1 - loser;
        switch (plan->ending) {
        case END_OCCUPIED:
            ck_assert_int_ge(occupied, 0);
            add_entry(r, loser, tx_hole_name(geo, occupied, name), 5000, false);
            r->result.reason = TX_REASON_INVALID;
            tx_illegal_describe(g, occupied, tx_game_check(g, occupied), NULL, NULL, detail,
                                sizeof detail);
            break;
        case END_NOT_A_MOVE:
            add_entry(r, loser, "d6", 5000, false);
            r->result.reason = TX_REASON_INVALID;
            snprintf(detail, sizeof detail, "not a move: \"d6\"");
            break;
        case END_TIMEOUT:
            add_entry(r, loser, NULL, 350000, false);
            r->result.reason = TX_REASON_TIMEOUT;
            snprintf(detail, sizeof detail, "no answer in 300 ms, killed at 350 ms");
            break;
        case END_LATE: {
            int n = tx_game_legal_moves(g, legal);
            add_entry(r, loser, tx_hole_name(geo, legal[n - 1], name), 312400, false);
            r->result.reason = TX_REASON_TIMEOUT;
            snprintf(detail, sizeof detail, "answered in 312.4 ms, limit 300 ms");
            break;
        }
        case END_CRASH:
            add_entry(r, loser, NULL, 1200, false);
            r->result.reason = TX_REASON_CRASH;
            snprintf(detail, sizeof detail, "killed by signal 11 (Segmentation fault)");
            break;
        default:
            r->result.winner = -1;
            r->result.reason = TX_REASON_INTERRUPTED;
            snprintf(detail, sizeof detail, "stopped by the user");
        }
    }
    r->result.detail = tx_strdup(detail);
    set_links(r, g);
}

static int verify(const struct tx_record *r, struct tx_verify_report *rep)
{
    return tx_verify_record(tx_verify_geometry(&cache, r->width, r->height), r, rep);
}

/* Makes, serialises, reloads and verifies: the record must survive JSON. */
static void assert_verifies(const struct plan *plan)
{
    struct tx_record r, back;
    struct tx_verify_report rep;
    char *json, err[256];

    make_record(plan, &r);
    ck_assert_int_eq(tx_record_to_json(&r, &json), 0);
    ck_assert_int_eq(tx_record_from_json(json, strlen(json), &back, err, sizeof err), 0);
    if (verify(&back, &rep) < 0)
        ck_abort_msg("seed %llu size %d: move %d: %s", (unsigned long long)plan->seed, plan->size,
                     rep.move, rep.what);
    ck_assert(rep.ok);
    free(json);
    tx_record_free(&r);
    tx_record_free(&back);
}

START_TEST(verify_random_games)
{
    static const int sizes[] = {12, 7, 24, 5};

    for (int s = 0; s < 4; s++)
        for (uint64_t seed = 1; seed <= 60; seed++)
            assert_verifies(&(struct plan){.size = sizes[s],
                                           .seed = seed,
                                           .swap = seed % 4 == 0,
                                           .nforced = seed % 5 == 0 ? 3 : 0});
}
END_TEST

START_TEST(verify_every_ending)
{
    static const enum ending endings[] = {END_OCCUPIED, END_NOT_A_MOVE, END_TIMEOUT,
                                          END_LATE,     END_CRASH,      END_INTERRUPTED};

    for (size_t e = 0; e < sizeof endings / sizeof endings[0]; e++)
        for (uint64_t seed = 1; seed <= 10; seed++)
            assert_verifies(&(struct plan){.size = 12,
                                           .seed = seed,
                                           .ending = endings[e],
                                           .stop_at = 3 + (int)seed * 3,
                                           .swap = seed == 2});
}
END_TEST

START_TEST(verify_crash_before_any_answer)
{
    assert_verifies(&(struct plan){.size = 12, .seed = 3, .ending = END_CRASH, .stop_at = 0});
    assert_verifies(&(struct plan){.size = 12, .seed = 3, .ending = END_INTERRUPTED, .stop_at = 0});
}
END_TEST

/* One tampering: what it changes, and the move and words expected. */
struct tamper {
    const char *name;
    struct plan plan;
    void (*apply)(struct tx_record *r);
    int move;           /* expected report.move; -1: the last entry */
    const char *expect; /* substring of report.what */
};

static void replace(char **s, const char *with)
{
    free(*s);
    *s = with ? tx_strdup(with) : NULL;
}

static void flip_winner(struct tx_record *r)
{
    r->result.winner = 1 - r->result.winner;
}
static void wrong_detail(struct tx_record *r)
{
    replace(&r->result.detail, "B1-B12");
}
static void drop_last(struct tx_record *r)
{
    struct tx_record_move *m = &r->moves[--r->nmoves];
    free(m->move);
    free(m->message);
    free(m->stderr_text);
}
static void wrong_player(struct tx_record *r)
{
    r->moves[4].player = 1 - r->moves[4].player;
}
static void occupied_mid_game(struct tx_record *r)
{
    replace(&r->moves[6].move, r->moves[2].move);
}
static void garbage_mid_game(struct tx_record *r)
{
    replace(&r->moves[6].move, "hello");
}
static void null_mid_game(struct tx_record *r)
{
    replace(&r->moves[6].move, NULL);
}
static void lose_a_link(struct tx_record *r)
{
    r->players[0].nlinks--;
}
static void swap_links(struct tx_record *r)
{
    char tmp[8];
    memcpy(tmp, r->players[1].links[0], 8);
    memcpy(r->players[1].links[0], r->players[1].links[1], 8);
    memcpy(r->players[1].links[1], tmp, 8);
}
static void long_message(struct tx_record *r)
{
    replace(&r->moves[3].message, "this message has 25 chars");
}
static void slow_move(struct tx_record *r)
{
    r->moves[5].us = 300001;
}
static void slow_first_move_ok(struct tx_record *r)
{
    r->moves[1].us = 999000;
}
static void forced_later(struct tx_record *r)
{
    r->moves[4].forced = true;
    r->moves[4].us = -1;
}
static void call_it_a_draw(struct tx_record *r)
{
    r->result.reason = TX_REASON_DRAW;
    r->result.winner = -1;
}
static void call_it_a_win(struct tx_record *r)
{
    r->result.reason = TX_REASON_CONNECTION;
    r->result.winner = 0;
}
static void wrong_invalid_detail(struct tx_record *r)
{
    replace(&r->result.detail, "corner A1");
}
static void legal_called_invalid(struct tx_record *r)
{
    /* Without its unanswered last entry, the game ends on a legal move. */
    drop_last(r);
    r->result.reason = TX_REASON_INVALID;
    r->result.winner = 1 - r->moves[r->nmoves - 1].player;
}
static void quick_timeout(struct tx_record *r)
{
    r->moves[r->nmoves - 1].us = 200000;
}
static void crash_with_answer(struct tx_record *r)
{
    replace(&r->moves[r->nmoves - 1].move, "B5");
}
static void smaller_board(struct tx_record *r)
{
    r->width = r->height = 8;
}
static void interrupted_winner(struct tx_record *r)
{
    r->result.winner = 1;
}

static const struct tamper tampers[] = {
    {"winner flipped", {12, 7, false, 0, END_NATURAL, 0}, flip_winner, -1, "won, the replay says"},
    {"detail changed",
     {12, 7, false, 0, END_NATURAL, 0},
     wrong_detail,
     -1,
     "result.detail is \"B1-B12\", the winning chain runs"},
    {"last move dropped",
     {12, 7, false, 0, END_NATURAL, 0},
     drop_last,
     -1,
     "the result is a connection, but nobody has connected"},
    {"wrong player", {12, 7, false, 0, END_NATURAL, 0}, wrong_player, 5, "but player"},
    {"occupied hole mid-game",
     {12, 7, false, 0, END_NATURAL, 0},
     occupied_mid_game,
     7,
     "occupied hole"},
    {"not a move mid-game",
     {12, 7, false, 0, END_NATURAL, 0},
     garbage_mid_game,
     7,
     "hello: not a move, but the record goes on"},
    {"no answer mid-game",
     {12, 7, false, 0, END_NATURAL, 0},
     null_mid_game,
     7,
     "no answer: not a move, but the record goes on"},
    {"a link lost", {12, 7, false, 0, END_NATURAL, 0}, lose_a_link, -1, "players[0] has"},
    {"links reordered",
     {12, 9, false, 0, END_NATURAL, 0},
     swap_links,
     -1,
     "players[1].links[0] is"},
    {"message too long",
     {12, 7, false, 0, END_NATURAL, 0},
     long_message,
     4,
     "message has 25 characters, the referee keeps at most 20"},
    {"over the limit but went on",
     {12, 7, false, 0, END_NATURAL, 0},
     slow_move,
     6,
     "answered in 300.0 ms, over the 300 ms limit, but the game went on"},
    {"forced after a bot's move",
     {12, 7, false, 0, END_NATURAL, 0},
     forced_later,
     5,
     "forced move after a move played by a bot"},
    {"a win called a draw",
     {12, 7, false, 0, END_NATURAL, 0},
     call_it_a_draw,
     -1,
     "the result is a draw, but the last move won the game"},
    {"an invalid answer called a win",
     {12, 7, false, 0, END_OCCUPIED, 12},
     call_it_a_win,
     -1,
     "is illegal here (occupied hole"},
    {"invalid detail changed",
     {12, 7, false, 0, END_OCCUPIED, 12},
     wrong_invalid_detail,
     -1,
     "result.detail is \"corner A1\", the replay says \"occupied hole"},
    {"a legal move called invalid",
     {12, 7, false, 0, END_TIMEOUT, 12},
     legal_called_invalid,
     -1,
     "is a legal move here, but the result says invalid"},
    {"timeout within the limit",
     {12, 7, false, 0, END_LATE, 12},
     quick_timeout,
     -1,
     "timeout, but the answer came in 200.0 ms, within the 300 ms limit"},
    {"silent timeout within the limit",
     {12, 7, false, 0, END_TIMEOUT, 12},
     quick_timeout,
     -1,
     "timeout, but the turn ended after 200.0 ms, within the 300 ms limit"},
    {"crash with an answer",
     {12, 7, false, 0, END_CRASH, 12},
     crash_with_answer,
     -1,
     "crash, but this entry has an answer (\"B5\")"},
    {"board size changed",
     {12, 7, false, 0, END_NATURAL, 0},
     smaller_board,
     0,
     "size 8, but replayed"},
    {"interrupted with a winner",
     {12, 7, false, 0, END_INTERRUPTED, 10},
     interrupted_winner,
     0,
     "result: reason interrupted has no winner, the record says player 2"},
};

START_TEST(verify_rejects_tampered)
{
    const struct tamper *t = &tampers[_i];
    struct tx_record r;
    struct tx_verify_report rep;

    make_record(&t->plan, &r);
    ck_assert_msg(verify(&r, &rep) == 0, "%s: untampered record fails: %s", t->name, rep.what);
    t->apply(&r);
    /* Keep the geometry of the original size: the record claims another. */
    ck_assert_int_eq(
        tx_verify_record(tx_verify_geometry(&cache, t->plan.size, t->plan.size), &r, &rep),
        -EINVAL);
    ck_assert(!rep.ok);
    ck_assert_msg(strstr(rep.what, t->expect), "%s: got \"%s\", expected \"%s\"", t->name, rep.what,
                  t->expect);
    ck_assert_msg(rep.move == (t->move == -1 ? r.nmoves : t->move), "%s: move %d (%s)", t->name,
                  rep.move, rep.what);
    tx_record_free(&r);
}
END_TEST

START_TEST(verify_accepts_slow_first_turn)
{
    struct tx_record r;
    struct tx_verify_report rep;

    make_record(&(struct plan){.size = 12, .seed = 7}, &r);
    slow_first_move_ok(&r); /* player 2's first answer: 1000 ms allowed */
    ck_assert_msg(verify(&r, &rep) == 0, "%s", rep.what);
    r.moves[3].us = 999000; /* player 2's second: 300 ms */
    ck_assert_int_eq(verify(&r, &rep), -EINVAL);
    ck_assert_int_eq(rep.move, 4);
    tx_record_free(&r);
}
END_TEST

START_TEST(verify_soft_timeouts)
{
    struct tx_record r;
    struct tx_verify_report rep;

    make_record(&(struct plan){.size = 12, .seed = 7}, &r);
    r.limits.soft = true;
    r.moves[4].us = 340000;
    r.moves[6].us = 340000; /* player 1 twice 40 ms over: forgiven */
    ck_assert_msg(verify(&r, &rep) == 0, "%s", rep.what);
    r.moves[8].us = 340000; /* the third time is a timeout */
    ck_assert_int_eq(verify(&r, &rep), -EINVAL);
    ck_assert_int_eq(rep.move, 9);
    tx_record_free(&r);
}
END_TEST

START_TEST(verify_position_steps)
{
    struct tx_record r;
    static struct tx_game *g;
    const struct tx_geometry *geo = tx_verify_geometry(&cache, 12, 12);

    make_record(
        &(struct plan){.size = 12, .seed = 4, .swap = true, .ending = END_OCCUPIED, .stop_at = 9},
        &r);
    ck_assert_int_eq(tx_verify_position(geo, &r, 0, test_game(&g, geo)), 0);
    ck_assert_int_eq(g->nmoves, 0);
    ck_assert_int_eq(tx_verify_position(geo, &r, 2, test_game(&g, geo)), 2);
    ck_assert_int_eq(g->swapped, 1);
    /* The losing entry is not played. */
    ck_assert_int_eq(tx_verify_position(geo, &r, r.nmoves, test_game(&g, geo)), 9);
    ck_assert_int_eq(tx_verify_position(geo, &r, 1000, test_game(&g, geo)), 9);
    ck_assert_int_eq(tx_verify_first_turn(&r, 1), 2);
    tx_record_free(&r);
}
END_TEST

START_TEST(verify_turn_input_after_swap)
{
    static const char *const moves[] = {"C5", "SWAP", "F6", "G8"};
    const struct tx_geometry *geo = tx_verify_geometry(&cache, 12, 12);
    struct tx_record r = {0};
    char buf[TX_INPUT_MAX];

    r.width = r.height = 12;
    r.moves = calloc(4, sizeof *r.moves);
    for (int i = 0; i < 4; i++)
        add_entry(&r, i % 2, moves[i], 1000, false);
    r.result.reason = TX_REASON_INTERRUPTED;
    /* RULES.md: player 2's first input after C5, player 1's after the swap. */
    ck_assert_int_eq(tx_verify_turn_input(geo, &r, 1, buf, sizeof buf), 14);
    ck_assert_str_eq(buf, "C5\n0\n0\n1\nC5\n0\n");
    ck_assert_int_eq(tx_verify_turn_input(geo, &r, 2, buf, sizeof buf), 16);
    ck_assert_str_eq(buf, "SWAP\n0\n0\n1\nE3\n0\n");
    ck_assert_int_gt(tx_verify_turn_input(geo, &r, 3, buf, sizeof buf), 0);
    ck_assert_str_eq(buf, "F6\n1\nE3\n0\n1\nF6\n0\n");
    ck_assert_int_eq(tx_verify_turn_input(geo, &r, 4, buf, sizeof buf), -EINVAL);
    r.moves[1].forced = true;
    ck_assert_int_eq(tx_verify_turn_input(geo, &r, 1, buf, sizeof buf), -EINVAL);
    tx_record_free(&r);
}
END_TEST

/* RULES.md "Forced openings": after forced moves, player 1's first input
 * says FIRST, and the verifier rebuilds what the referee sent. */
START_TEST(verify_turn_input_after_forced_opening)
{
    static const char *const moves[] = {"C5", "D5", "F6", "G8", "H10"};
    const struct tx_geometry *geo = tx_verify_geometry(&cache, 12, 12);
    struct tx_record r = {0};
    char buf[TX_INPUT_MAX];

    r.width = r.height = 12;
    r.moves = calloc(5, sizeof *r.moves);
    for (int i = 0; i < 5; i++)
        add_entry(&r, i % 2, moves[i], 1000, i < 3);
    r.result.reason = TX_REASON_INTERRUPTED;
    ck_assert_int_gt(tx_verify_turn_input(geo, &r, 3, buf, sizeof buf), 0);
    ck_assert_str_eq(buf, "F6\n1\nD5\n0\n2\nC5\nF6\n0\n"); /* player 2: the last hole */
    ck_assert_int_gt(tx_verify_turn_input(geo, &r, 4, buf, sizeof buf), 0);
    ck_assert_str_eq(buf, "FIRST\n2\nC5\nF6\n0\n2\nD5\nG8\n0\n"); /* player 1: FIRST */
    tx_record_free(&r);
}
END_TEST

/* A hand-edited record's limits may be as large as INT32_MAX: the sum with
 * the margin overflowed an int, and a 5 ms answer was "over the
 * -2147483648 ms limit". */
START_TEST(verify_huge_limits_do_not_overflow)
{
    struct tx_record r;
    struct tx_verify_report rep;

    make_record(&(struct plan){.size = 12, .seed = 7}, &r);
    r.limits.first_turn_ms = INT32_MAX;
    r.limits.margin_ms = 1;
    ck_assert_msg(verify(&r, &rep) == 0, "%s", rep.what);
    r.limits.turn_ms = INT32_MAX;
    r.limits.margin_ms = INT32_MAX;
    r.limits.soft = true;
    ck_assert_msg(verify(&r, &rep) == 0, "%s", rep.what);
    tx_record_free(&r);

    make_record(&(struct plan){.size = 12, .seed = 7, .ending = END_TIMEOUT, .stop_at = 6}, &r);
    r.limits.turn_ms = INT32_MAX;
    r.limits.margin_ms = 1;
    ck_assert_int_eq(verify(&r, &rep), -EINVAL);
    ck_assert_str_eq(rep.what, "timeout, but the turn ended after 350.0 ms, within the "
                               "2147483648 ms limit");
    tx_record_free(&r);
}
END_TEST

/* The referee tells a bot that loses at its first turn after a forced
 * opening so (verdict.h); the verifier accepts the detail with that hint,
 * and without it (records from before the hint), and nothing else. */
START_TEST(verify_first_turn_hint_after_forced_opening)
{
    struct tx_record r;
    struct tx_verify_report rep;
    char detail[256];

    make_record(
        &(struct plan){.size = 12, .seed = 3, .nforced = 3, .ending = END_OCCUPIED, .stop_at = 4},
        &r);
    ck_assert_msg(verify(&r, &rep) == 0, "%s", rep.what); /* player 1's first turn, no hint */
    snprintf(detail, sizeof detail, "%s; its first turn, after a forced opening of 3 moves",
             r.result.detail);
    free(r.result.detail);
    r.result.detail = tx_strdup(detail);
    ck_assert_msg(verify(&r, &rep) == 0, "%s", rep.what);
    detail[strlen(detail) - 7] = '2'; /* "of 2 moves" */
    free(r.result.detail);
    r.result.detail = tx_strdup(detail);
    ck_assert_int_eq(verify(&r, &rep), -EINVAL);
    tx_record_free(&r);

    /* Not a first turn: no hint. */
    make_record(
        &(struct plan){.size = 12, .seed = 3, .nforced = 3, .ending = END_OCCUPIED, .stop_at = 6},
        &r);
    snprintf(detail, sizeof detail, "%s; its first turn, after a forced opening of 3 moves",
             r.result.detail);
    free(r.result.detail);
    r.result.detail = tx_strdup(detail);
    ck_assert_int_eq(verify(&r, &rep), -EINVAL);
    tx_record_free(&r);
}
END_TEST

/* A line over 4096 bytes is refused whatever its first bytes are: the
 * recorded token of "B1 mmm..." is a legal move, and the record verifies. */
START_TEST(verify_line_too_long_with_a_legal_token)
{
    struct tx_record r;
    struct tx_verify_report rep;
    const struct tx_geometry *geo = tx_verify_geometry(&cache, 12, 12);
    static struct tx_game *g;

    make_record(&(struct plan){.size = 12, .seed = 5, .ending = END_NOT_A_MOVE, .stop_at = 4}, &r);
    ck_assert_int_eq(tx_verify_position(geo, &r, r.nmoves, test_game(&g, geo)), 4);
    int16_t legal[TX_MOVES_MAX];
    ck_assert_int_gt(tx_game_legal_moves(g, legal), 0);
    char name[TX_HOLE_NAME_MAX];
    free(r.moves[r.nmoves - 1].move);
    r.moves[r.nmoves - 1].move = tx_strdup(tx_hole_name(geo, legal[0], name));
    free(r.result.detail);
    r.result.detail = tx_strdup("line longer than 4096 bytes");
    ck_assert_msg(verify(&r, &rep) == 0, "%s", rep.what);
    free(r.result.detail);
    r.result.detail = tx_strdup("a line longer than 4096 bytes"); /* not the referee's words */
    ck_assert_int_eq(verify(&r, &rep), -EINVAL);
    tx_record_free(&r);
}
END_TEST

/* ---- the command ---- */

static void setup_tmp(void)
{
    tx_test_scratch_begin("test-replay");
}

static void teardown_tmp(void)
{
    tx_test_scratch_end();
}

static void write_file(const char *name, const char *text)
{
    FILE *f = fopen(tx_test_file(name), "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

/* Runs `twixt-arena replay ARGS...` in a child with stdout and stderr in one
 * file; returns the exit status and the output in *ret_out (free it). */
static int run_replay(char **ret_out, const char *arg, ...)
{
    const char *args[16] = {"replay"};
    int argc = 1, status;
    va_list ap;
    pid_t pid;

    va_start(ap, arg);
    for (const char *a = arg; a && argc < 15; a = va_arg(ap, const char *))
        args[argc++] = a;
    va_end(ap);
    fflush(stdout);
    fflush(stderr);
    pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        int fd = open(tx_test_file("out.txt"), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        dup2(fd, 1);
        dup2(fd, 2);
        close(fd);
        int rc = tx_cmd_replay("twixt-arena", argc, (char **)args);
        fflush(stdout);
        fflush(stderr);
        _exit(rc);
    }
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ck_assert(WIFEXITED(status));
    *ret_out = tx_test_read_file(tx_test_file("out.txt"));
    return WEXITSTATUS(status);
}

static char *record_line(const struct plan *plan)
{
    struct tx_record r;
    char *json;

    make_record(plan, &r);
    ck_assert_int_eq(tx_record_to_json(&r, &json), 0);
    tx_record_free(&r);
    return json;
}

/* A file of three good games, lines 1 to 3. */
static void write_games(const char *name)
{
    char *a = record_line(&(struct plan){.size = 12, .seed = 1});
    char *b = record_line(&(struct plan){.size = 12, .seed = 2, .swap = true});
    char *c =
        record_line(&(struct plan){.size = 8, .seed = 3, .ending = END_TIMEOUT, .stop_at = 11});
    char *text = malloc(strlen(a) + strlen(b) + strlen(c) + 8);
    sprintf(text, "%s\n%s\n%s\n", a, b, c);
    write_file(name, text);
    free(a);
    free(b);
    free(c);
    free(text);
}

START_TEST(cmd_verifies_good_file)
{
    char *out;

    write_games("games.jsonl");
    ck_assert_int_eq(run_replay(&out, tx_test_file("games.jsonl"), NULL), 0);
    ck_assert_msg(strstr(out, "games.jsonl:1: game 1: ok, "), "%s", out);
    ck_assert_msg(
        strstr(out, "games.jsonl:3: game 3: ok, beta (player 2) beats alpha by timeout") ||
            strstr(out, "games.jsonl:3: game 3: ok, alpha (player 1) beats beta by timeout"),
        "%s", out);
    ck_assert_msg(strstr(out, "3 records, 3 ok, 0 failed"), "%s", out);
    free(out);
}
END_TEST

/* Malformed lines: each with the words the user must see. */
static const struct {
    const char *line;
    const char *expect;
} malformed[] = {
    {"{\"format\":\"twixt-arena/game/1\",\"game\":4", "bad.jsonl:2: not a game record: "},
    {"this is not json", "bad.jsonl:2: not a game record: "},
    {"[1,2,3]", "bad.jsonl:2: not a game record: "},
    {"{\"format\":\"twixt-arena/game/1\"}", "bad.jsonl:2: not a game record: "},
    {"{\"format\":\"chess/pgn\",\"game\":1}", "format"},
};

START_TEST(cmd_reports_malformed)
{
    char *good = record_line(&(struct plan){.size = 12, .seed = 1});
    char *text = malloc(strlen(good) + 200), *out;

    sprintf(text, "%s\n%s\n", good, malformed[_i].line);
    write_file("bad.jsonl", text);
    ck_assert_int_eq(run_replay(&out, tx_test_file("bad.jsonl"), NULL), 1);
    ck_assert_msg(strstr(out, malformed[_i].expect), "got: %s", out);
    ck_assert_msg(strstr(out, "bad.jsonl:1: game 1: ok"), "%s", out);
    ck_assert_msg(strstr(out, "2 records, 1 ok, 1 failed"), "%s", out);
    free(out);
    free(text);
    free(good);
}
END_TEST

START_TEST(cmd_reports_missing_field_by_name)
{
    char *good = record_line(&(struct plan){.size = 12, .seed = 1}), *out, *at;

    /* Rename "result": the loader names the unknown field; keep the JSON valid. */
    at = strstr(good, "\"result\"");
    ck_assert_ptr_nonnull(at);
    memcpy(at, "\"RESULT\"", 8);
    write_file("missing.jsonl", good);
    ck_assert_int_eq(run_replay(&out, tx_test_file("missing.jsonl"), NULL), 1);
    ck_assert_msg(strstr(out, "missing.jsonl:1: not a game record: RESULT: unknown field"), "%s",
                  out);
    free(out);
    free(good);
}
END_TEST

START_TEST(cmd_reports_tampered_with_move)
{
    struct tx_record r;
    char *json, *out, expect[128];

    make_record(&(struct plan){.size = 12, .seed = 7}, &r);
    occupied_mid_game(&r);
    ck_assert_int_eq(tx_record_to_json(&r, &json), 0);
    write_file("tampered.jsonl", json);
    ck_assert_int_eq(run_replay(&out, tx_test_file("tampered.jsonl"), NULL), 1);
    snprintf(expect, sizeof expect, "tampered.jsonl:1: game 7, move 7: %s: occupied hole %s",
             r.moves[6].move, r.moves[6].move);
    ck_assert_msg(strstr(out, expect), "expected %s, got: %s", expect, out);
    free(out);
    free(json);
    tx_record_free(&r);
}
END_TEST

START_TEST(cmd_usage_errors)
{
    char *out;

    write_games("games.jsonl");
    ck_assert_int_eq(run_replay(&out, NULL), 2);
    ck_assert_msg(strstr(out, "expected 1 FILE argument, got 0"), "%s", out);
    free(out);
    ck_assert_int_eq(run_replay(&out, tx_test_file("nothing-here.jsonl"), NULL), 2);
    ck_assert_msg(strstr(out, "cannot read") && strstr(out, "nothing-here.jsonl"), "%s", out);
    free(out);
    ck_assert_int_eq(run_replay(&out, tx_test_file("games.jsonl"), "--format", "png", NULL), 2);
    ck_assert_msg(strstr(out, "--format: expected text, svg or html, got 'png'"), "%s", out);
    free(out);
    ck_assert_int_eq(run_replay(&out, tx_test_file("games.jsonl"), "--game", "x", NULL), 2);
    ck_assert_msg(strstr(out, "--game: expected a game number"), "%s", out);
    free(out);
    ck_assert_int_eq(
        run_replay(&out, tx_test_file("games.jsonl"), "--game", "9", "--format", "svg", NULL), 2);
    ck_assert_msg(strstr(out, "has no record of game 9"), "%s", out);
    free(out);
    ck_assert_int_eq(run_replay(&out, tx_test_file("games.jsonl"), "--frobnicate", NULL), 2);
    ck_assert_msg(strstr(out, "unknown option '--frobnicate'"), "%s", out);
    free(out);
    write_file("empty.jsonl", "\n\n");
    ck_assert_int_eq(run_replay(&out, tx_test_file("empty.jsonl"), NULL), 2);
    ck_assert_msg(strstr(out, "has no game records"), "%s", out);
    free(out);
}
END_TEST

START_TEST(cmd_renders_each_format)
{
    char *out, *text;

    write_games("games.jsonl");
    ck_assert_int_eq(run_replay(&out, tx_test_file("games.jsonl"), "--game", "2", "--format", "svg",
                                "-o", tx_test_file("g->svg"), NULL),
                     0);
    text = tx_test_read_file(tx_test_file("g->svg"));
    ck_assert_msg(strncmp(text, "<?xml", 5) == 0 && strstr(text, "</svg>"), "%s", text);
    free(text);
    free(out);
    ck_assert_int_eq(run_replay(&out, tx_test_file("games.jsonl"), "--line", "3", "--format",
                                "text", "--move", "4", "--color", "always", NULL),
                     0);
    ck_assert_msg(strstr(out, "game 3, move 4 of ") && strstr(out, "\033["), "%s", out);
    free(out);
    /* Colour only on a terminal: a file gets none. */
    ck_assert_int_eq(
        run_replay(&out, tx_test_file("games.jsonl"), "--line", "3", "--format", "text", NULL), 0);
    ck_assert_msg(!strchr(out, '\033') && strstr(out, "result: "), "%s", out);
    free(out);
    ck_assert_int_eq(run_replay(&out, tx_test_file("games.jsonl"), "--format", "html", "-o",
                                tx_test_file("g->html"), NULL),
                     0);
    text = tx_test_read_file(tx_test_file("g->html"));
    {
        int games = 0;
        for (char *s = text; (s = strstr(s, "class=\"tx-game\">{\"record\":")); s++)
            games++;
        ck_assert_int_eq(games, 3);
    }
    free(text);
    free(out);
}
END_TEST

/* Records written by the real referee: random bots, and fault-bot (tests/)
 * misbehaving in the ways that end a game (illegal hole, not a move, NUL
 * bytes, an endless line, a crash, a hang, a swap) against a random bot. */
static const char *const referee_games[] = {
    "random=bots/twixt-random --seed {seed}",
    "fault=tests/fault-bot occupied",
    "fault=tests/fault-bot lower",
    "fault=tests/fault-bot nul",
    "fault=tests/fault-bot flood-stdout 2",
    "fault=tests/fault-bot crash-signal 3",
    "fault=tests/fault-bot hang 2",
    "fault=tests/fault-bot swapper",
};

START_TEST(cmd_verifies_referee_records)
{
    const char *build = getenv("TX_BUILD_DIR");
    char cmd[2048], *out, *text, *winner;
    const char *bot = referee_games[_i];
    const char *eq = strchr(bot, '=');
    int status;

    ck_assert_msg(build != NULL, "TX_BUILD_DIR is not set (run through meson test)");
    snprintf(
        cmd, sizeof cmd,
        "'%s/referee/twixt-arena' play '%.*s=%s/%s' 'other=%s/bots/twixt-random --seed {seed}' "
        "--games 2 --seed 5 --turn-ms 100 --first-turn-ms 200 -o '%s' > '%s' 2>&1",
        build, (int)(eq - bot), bot, build, eq + 1, build, tx_test_file("referee.jsonl"),
        tx_test_file("play.txt"));
    status = system(cmd);
    text = tx_test_read_file(tx_test_file("play.txt"));
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "%s\n%s", cmd, text);
    free(text);
    ck_assert_int_eq(run_replay(&out, tx_test_file("referee.jsonl"), NULL), 0);
    ck_assert_msg(strstr(out, "2 records, 2 ok, 0 failed"), "%s: %s", bot, out);
    free(out);

    /* The same record with its winner changed no longer verifies: the
     * first decisive one (a game's seed comes from the commands, paths
     * included, so either game may be a draw, and either may be written
     * first). */
    text = tx_test_read_file(tx_test_file("referee.jsonl"));
    const char *key = "\"result\":{\"winner\":";
    for (winner = strstr(text, key); winner && winner[strlen(key)] == 'n';
         winner = strstr(winner + 1, key))
        ;
    ck_assert_msg(winner != NULL, "%s: no game with a winner", bot);
    winner += strlen(key);
    ck_assert_msg(*winner == '0' || *winner == '1', "%.40s", winner);
    *winner = *winner == '0' ? '1' : '0';
    int line = 1;
    for (const char *c = text; c < winner; c++)
        line += *c == '\n';
    char where[64];
    snprintf(where, sizeof where, "tampered.jsonl:%d: game ", line);
    write_file("tampered.jsonl", text);
    free(text);
    ck_assert_int_eq(run_replay(&out, tx_test_file("tampered.jsonl"), NULL), 1);
    ck_assert_msg(strstr(out, where), "%s: %s", bot, out);
    ck_assert_msg(strstr(out, "won, the replay says") || strstr(out, "the record names player"),
                  "%s: %s", bot, out);
    free(out);
}
END_TEST

static Suite *replay_suite(void)
{
    Suite *s = suite_create("replay");
    TCase *tc = tcase_create("verify");

    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, verify_random_games);
    tcase_add_test(tc, verify_every_ending);
    tcase_add_test(tc, verify_crash_before_any_answer);
    tcase_add_loop_test(tc, verify_rejects_tampered, 0, (int)(sizeof tampers / sizeof tampers[0]));
    tcase_add_test(tc, verify_accepts_slow_first_turn);
    tcase_add_test(tc, verify_soft_timeouts);
    tcase_add_test(tc, verify_position_steps);
    tcase_add_test(tc, verify_turn_input_after_swap);
    tcase_add_test(tc, verify_turn_input_after_forced_opening);
    tcase_add_test(tc, verify_huge_limits_do_not_overflow);
    tcase_add_test(tc, verify_first_turn_hint_after_forced_opening);
    tcase_add_test(tc, verify_line_too_long_with_a_legal_token);
    suite_add_tcase(s, tc);

    tc = tcase_create("command");
    tcase_set_timeout(tc, 60);
    tcase_add_checked_fixture(tc, setup_tmp, teardown_tmp);
    tcase_add_test(tc, cmd_verifies_good_file);
    tcase_add_loop_test(tc, cmd_reports_malformed, 0,
                        (int)(sizeof malformed / sizeof malformed[0]));
    tcase_add_test(tc, cmd_reports_missing_field_by_name);
    tcase_add_test(tc, cmd_reports_tampered_with_move);
    tcase_add_test(tc, cmd_usage_errors);
    tcase_add_test(tc, cmd_renders_each_format);
    suite_add_tcase(s, tc);

    tc = tcase_create("referee");
    tcase_set_timeout(tc, 120);
    tcase_add_checked_fixture(tc, setup_tmp, teardown_tmp);
    tcase_add_loop_test(tc, cmd_verifies_referee_records, 0,
                        (int)(sizeof referee_games / sizeof referee_games[0]));
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(replay_suite());
    int failed;

    srunner_run_all(sr, CK_ENV);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    tx_verify_geometries_free(&cache);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
