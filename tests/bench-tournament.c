/* bench-tournament.c - how fast tournaments run, and whether the referee
 * charges bots for its own delays when the machine is busy.
 *
 *   bench-tournament [--games N] [--turns T] [--turn-ms MS] [--concurrency C]
 *                    [--sandbox auto|on|off] [--pin-cores]
 *
 * 1. Games per second of a round robin of three instant bots (tests/tiny-bot)
 *    at concurrency 1 and 2, records built but not written.
 * 2. The referee's added latency per turn: every tiny-bot answer carries the
 *    microseconds the bot itself spent ("t=US"); the referee's measured time
 *    minus that is what the referee, the pipes and the scheduler added.
 *    Measured with C games (default: the number of cores) of bots that spin
 *    (burn CPU) for 95% of the turn limit, so every core is busy, until T
 *    turns are played;
 *    reports p50/p99/max and the number of timeouts (the target is none).
 *
 * --sandbox and --pin-cores are play's options (default: auto, not pinned).
 * Run it from the build directory (it finds tests/tiny-bot next to itself).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "options.h"
#include "record.h"
#include "setup.h"
#include "runner.h"

struct collect {
    int64_t *added; /* us: referee time minus bot time, per answered turn */
    int64_t nadded, cap;
    int64_t turns, timeouts, games;
    int64_t false_timeouts; /* timeouts where the bot's own time was within the limit */
    int64_t limit_us;
    int64_t target_turns; /* stop starting games after this many turns */
};

static void on_record(struct tx_runner *runner, const struct tx_record *r, bool resumed, void *data)
{
    struct collect *c = data;
    (void)resumed;
    c->games++;
    if (r->result.reason == TX_REASON_TIMEOUT) {
        /* Whose fault: the losing answer's own time says if the bot was
         * within its limit (the referee or the machine made it late) or
         * not (the bot itself was descheduled or slow). */
        const struct tx_record_move *last = &r->moves[r->nmoves - 1];
        c->timeouts++;
        if (last->message && !strncmp(last->message, "t=", 2) &&
            atoll(last->message + 2) <= c->limit_us)
            c->false_timeouts++;
    }
    for (int i = 0; i < r->nmoves; i++) {
        const struct tx_record_move *m = &r->moves[i];
        if (m->forced || !m->message || strncmp(m->message, "t=", 2) != 0)
            continue;
        if (c->nadded == c->cap) {
            c->cap = c->cap ? c->cap * 2 : 4096;
            c->added = realloc(c->added, (size_t)c->cap * sizeof *c->added);
            if (!c->added)
                abort();
        }
        c->added[c->nadded++] = m->us - atoll(m->message + 2);
        c->turns++;
    }
    if (c->target_turns && c->turns >= c->target_turns)
        tx_runner_stop(runner);
}

static int compare_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

static const char *sandbox_mode = "auto", *pin_cores = NULL; /* --sandbox, --pin-cores */

/* Runs a round robin of three tiny-bots given extra bot options; returns
 * the wall time in seconds. */
static double run(const char *bot, const char *bot_options, int64_t games, int concurrency,
                  int turn_ms, struct collect *c)
{
    char cmds[3][1024];
    char *argv[8] = {(char *)"tournament", cmds[0],           cmds[1], cmds[2], (char *)"--sandbox",
                     (char *)sandbox_mode, (char *)pin_cores, NULL};
    int argc = pin_cores ? 7 : 6;
    for (int i = 0; i < 3; i++)
        snprintf(cmds[i], sizeof cmds[i], "%c=%s --seed {seed} %s", 'a' + i, bot, bot_options);
    struct tx_options o;
    struct tx_setup *setup;
    char err[512];
    if (tx_options_parse(&o, &tx_cmd_tournament_line, argc, argv, err, sizeof err) < 0 ||
        tx_setup_new(&o, TX_POOL_ROUND_ROBIN, (games / 3 + 1) & ~INT64_C(1), "bench-tournament",
                     argc, argv, &setup, err, sizeof err) < 0) {
        fprintf(stderr, "bench-tournament: %s\n", err);
        exit(2);
    }
    setup->match.limits.turn_ms = turn_ms;
    setup->match.limits.first_turn_ms = turn_ms > 1000 ? turn_ms : 1000;
    struct tx_runner_games pool_games;
    tx_pool_games(&setup->pool, &pool_games);
    struct tx_runner_config config = {
        .games = &pool_games,
        .match = &setup->match,
        .concurrency = concurrency,
        .record_cb = on_record,
        .data = c,
    };
    struct tx_runner_summary summary;
    uint64_t t0 = uv_hrtime();
    if (tx_runner_run(&config, &summary, err, sizeof err) < 0) {
        fprintf(stderr, "bench-tournament: %s\n", err);
        exit(2);
    }
    double secs = (double)(uv_hrtime() - t0) / 1e9;
    tx_setup_free(setup);
    tx_options_free(&o);
    return secs;
}

static double arg(int argc, char **argv, const char *name, double fallback)
{
    for (int i = 1; i + 1 < argc; i++)
        if (!strcmp(argv[i], name))
            return atof(argv[i + 1]);
    return fallback;
}

int main(int argc, char **argv)
{
    int64_t games = (int64_t)arg(argc, argv, "--games", 120);
    int64_t turns = (int64_t)arg(argc, argv, "--turns", 10000);
    int turn_ms = (int)arg(argc, argv, "--turn-ms", 100);
    int cores = tx_runner_cores();
    int busy_games = (int)arg(argc, argv, "--concurrency", cores); /* games of busy bots at once */
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--sandbox") && i + 1 < argc)
            sandbox_mode = argv[i + 1];
        if (!strcmp(argv[i], "--pin-cores"))
            pin_cores = "--pin-cores";
    }
    setvbuf(stdout, NULL, _IOLBF, 0); /* each figure as soon as it is known */

    char bot[1100], self[1024];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    self[n > 0 ? n : 0] = '\0';
    char *slash = strrchr(self, '/');
    if (slash)
        *slash = '\0';
    snprintf(bot, sizeof bot, "%s/tiny-bot", self);
    if (access(bot, X_OK) != 0) {
        fprintf(stderr, "bench-tournament: %s not found (build the tests first)\n", bot);
        return 2;
    }

    printf("bench-tournament: %d cores, tiny-bot round robin of 3 bots, --sandbox %s%s\n", cores,
           sandbox_mode, pin_cores ? " --pin-cores" : "");
    for (int c = 1; c <= 2; c++) {
        struct collect col = {0};
        double secs = run(bot, "", games, c, 300, &col);
        printf("instant bots, concurrency %d: %lld games in %.2f s = %.1f games/s (%lld turns, "
               "%.0f turns/s)\n",
               c, (long long)col.games, secs, (double)col.games / secs, (long long)col.turns,
               (double)col.turns / secs);
        free(col.added);
    }

    char spin[64];
    snprintf(spin, sizeof spin, "--spin-ms %.1f", 0.95 * turn_ms);
    struct collect col = {.target_turns = turns, .limit_us = (int64_t)turn_ms * 1000};
    double secs = run(bot, spin, TX_RECORD_GAME_MAX, busy_games, turn_ms, &col);
    qsort(col.added, (size_t)col.nadded, sizeof *col.added, compare_i64);
    if (col.nadded > 0)
        printf("busy bots (spin %.0f%% of %d ms), concurrency %d: %lld turns in %lld games, %.0f "
               "s; referee "
               "added latency p50 %lld us, p99 %lld us, max %lld us; timeouts %lld, of which the "
               "bot's own time "
               "was within the limit (false timeouts) %lld\n",
               95.0, turn_ms, busy_games, (long long)col.turns, (long long)col.games, secs,
               (long long)col.added[col.nadded / 2], (long long)col.added[col.nadded * 99 / 100],
               (long long)col.added[col.nadded - 1], (long long)col.timeouts,
               (long long)col.false_timeouts);
    free(col.added);
    return col.false_timeouts ? 1 : 0;
}
