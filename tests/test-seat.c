/* test-seat.c - a seat's accounting of extra lines (seat.h, RULES.md
 * "Extra lines"), without a process.
 *
 * The seat counts what its bot's stdout delivered (bot.lines_received)
 * into windows: a turn's window runs from its input to the next input, and
 * every line of a window beyond the first is extra. Here the bot never
 * starts, so each turn ends at once (a crash, as for a bot that could not
 * be started), and the lines are delivered by hand: lines_received grows
 * and the bot's line event runs, as bot.c does when a line arrives. That
 * lets a table count billions of lines in microseconds, past what an int
 * holds (a flooding bot prints that many in a long game).
 */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>

#include "bot-limits.h"
#include "game.h"
#include "geometry.h"
#include "seat.h"
#include "test-game.h"

#define WINDOWS_MAX 4
#define BATCHES_MAX 3

#define TWO_31 (INT64_C(1) << 31)

/* Lines printed before the first input, then for each turn's window the
 * batches of lines that arrive in it (the bot's line event after each),
 * and the extra lines that makes. */
static const struct {
    const char *name;
    int64_t before;
    int64_t windows[WINDOWS_MAX][BATCHES_MAX];
    int nwindows;
    int64_t extra;
} cases[] = {
    {"one line a window", 0, {{1}, {1}, {1}}, 3, 0},
    {"silent windows", 0, {{0}, {1}, {0}}, 3, 0},
    {"two lines at once", 0, {{2}, {1}}, 2, 1},
    {"a line, then two more", 0, {{1, 2}, {1}}, 2, 2},
    {"batches in every window", 0, {{3, 1}, {0, 2}, {1, 1, 1}}, 3, 6},
    {"printed ahead of the first input", 2, {{1}, {1}}, 2, 2},
    {"past 2^31 in one window", 0, {{TWO_31, 3}}, 1, TWO_31 + 2},
    {"past 2^32 over windows", 0, {{TWO_31}, {TWO_31}, {2}}, 3, 2 * TWO_31 - 1},
};

static void on_turn(struct tx_seat *seat, const struct tx_seat_turn *turn)
{
    int *turns = seat->data;
    ck_assert_int_eq(turn->verdict, TX_VERDICT_CRASH); /* the bot never started */
    (*turns)++;
}

static void on_closed(struct tx_seat *seat)
{
    (void)seat;
}

/* Lines arrive: the bot's line event, as bot.c runs it. */
static void deliver(struct tx_seat *seat, int64_t lines)
{
    if (lines == 0)
        return;
    seat->bot.lines_received += lines;
    seat->bot.event_cb(&seat->bot, TX_BOT_LINE);
}

START_TEST(seat_counts_extra_lines)
{
    static struct tx_geometry *geo;
    static struct tx_game *position;
    uv_loop_t loop;
    struct tx_limits limits;
    struct tx_seat *seat = calloc(1, sizeof *seat);
    int turns = 0;

    ck_assert_ptr_nonnull(seat);
    ck_assert_int_eq((tx_geometry_free(geo), tx_geometry_new(12, 12, &geo)), 0);
    test_game(&position, geo);
    tx_limits_default(&limits);
    ck_assert_int_eq(uv_loop_init(&loop), 0);
    seat->data = &turns;
    seat->turn_cb = on_turn;
    seat->closed_cb = on_closed;
    seat->limits = &limits;
    tx_seat_init(seat, &loop);

    deliver(seat, cases[_i].before);
    for (int w = 0; w < cases[_i].nwindows; w++) {
        tx_seat_play(seat, position);
        for (int b = 0; b < BATCHES_MAX; b++)
            deliver(seat, cases[_i].windows[w][b]);
    }
    tx_seat_stop(seat);
    ck_assert_int_eq(uv_run(&loop, UV_RUN_DEFAULT), 0);
    ck_assert_int_eq(turns, cases[_i].nwindows);
    ck_assert_msg(seat->extra_lines == cases[_i].extra, "%s: %lld extra lines, expected %lld",
                  cases[_i].name, (long long)seat->extra_lines, (long long)cases[_i].extra);
    tx_seat_release(seat);
    ck_assert_int_eq(uv_loop_close(&loop), 0);
    free(seat);
}
END_TEST

static Suite *seat_suite(void)
{
    Suite *s = suite_create("seat");
    TCase *tc = tcase_create("extra-lines");
    tcase_set_timeout(tc, 30);
    tcase_add_loop_test(tc, seat_counts_extra_lines, 0, (int)(sizeof cases / sizeof cases[0]));
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(seat_suite());
    srunner_run_all(sr, CK_ENV);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
