/* bench-referee.c - what the referee costs a bot: added latency, games per
 * second, and the referee's own CPU per turn. A benchmark, not a test: it
 * prints figures.
 *
 *   bench-referee [--games N] [--concurrency C] [--sandbox auto|on|off]
 *                 [--late-games N]
 *
 * The same executable is also the bot it measures (`bench-referee --bot
 * SEED`, as libuv's tests run themselves as children; the board and rules
 * from TWIXT_WIDTH, TWIXT_HEIGHT and TWIXT_RULES, as every bot gets them):
 * it answers at once with a random legal move, and its message is the
 * nanoseconds it spent between the read that brought its input and the
 * write of its answer. So
 * for every turn, (time the referee measured) - (time the bot measured) is
 * what the referee and the pipes added: the figure issue 3 sets targets on
 * (p50 < 50 us, p99 < 300 us with one game at a time). Next to it, the
 * floor: a plain blocking ping-pong with a child over a socketpair.
 *
 * The referee's CPU per turn is split the honest way: with one game at a
 * time, each game's loop-thread CPU against its number of turns gives a
 * line whose slope is the cost of one turn and whose intercept is the fixed
 * cost of a game (spawning, reaping, the record). Hashing the bots'
 * executables runs on libuv's thread pool and is reported apart.
 *
 * Games run with --sandbox as given (default off). Then the cost of
 * starting a bot: from tx_bot_start to the first answer of the instant bot,
 * without and with the sandbox (the difference is what isolation costs,
 * charged to a first turn).
 *
 * Last, the largest game: classic rules on 100 x 100 from a forced opening
 * of LATE_OPENING random moves, so that every turn's input is tens of KB,
 * played to the end by the instant bots: the added latency per turn and the
 * referee's CPU per turn there (writing the input included), and the
 * memory a running game costs the referee (its peak RSS with LATE_AT_ONCE
 * such games at once, over the same without them).
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include "game.h"
#include "hole.h"
#include "input.h"
#include "bot.h"
#include "match.h"
#include "record.h"
#include "sandbox.h"
#include "splitmix.h"

/* ---- the bot ---- */

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* True when buf holds one whole turn input: the header line, then four
 * sections, each a count line followed by that many lines. */
static bool input_complete(const char *buf, size_t len)
{
    size_t pos = 0;
    int section = -1; /* -1: the header */
    long left = 0;    /* lines left in the current section */
    while (pos < len) {
        const char *nl = memchr(buf + pos, '\n', len - pos);
        if (!nl)
            return false;
        if (section == -1) {
            section = 0;
        } else if (left > 0) {
            left--;
        } else {
            left = strtol(buf + pos, NULL, 10);
            section++;
        }
        pos = (size_t)(nl - buf) + 1;
        if (section == 4 && left == 0)
            return true;
    }
    return false;
}

/* A number from the environment, or def. */
static int env_int(const char *name, int def)
{
    const char *v = getenv(name);
    return v ? atoi(v) : def;
}

static int run_bot(uint64_t seed)
{
    static struct tx_geometry *geo;
    static struct tx_input in;
    static char buf[TX_INPUT_MAX + 1];
    static int16_t moves[TX_MOVES_MAX];
    struct tx_splitmix rng = {seed};
    int me = -1;
    const char *rules_name = getenv("TWIXT_RULES");
    int rules = rules_name ? tx_rules_from_name(rules_name) : TX_RULES_PP;
    if (rules < 0 ||
        tx_geometry_new(env_int("TWIXT_WIDTH", 12), env_int("TWIXT_HEIGHT", 12), &geo) < 0)
        return 2;
    struct tx_game *game = tx_game_new(geo, (enum tx_rules)rules);
    for (;;) {
        size_t len = 0;
        uint64_t t0 = 0;
        while (!input_complete(buf, len)) {
            ssize_t n = read(STDIN_FILENO, buf + len, sizeof buf - 1 - len);
            if (n <= 0)
                return 0; /* the game is over */
            if (!t0)
                t0 = now_ns();
            len += (size_t)n;
        }
        if (tx_input_parse(geo, buf, len, &in, NULL, 0) < 0)
            return 3;
        if (me < 0)
            me = tx_input_first_player(&in);
        if (tx_game_from_input(game, geo, (enum tx_rules)rules, &in, me) < 0)
            return 4;
        int n = tx_game_legal_moves(game, moves);
        if (n <= 0)
            return 5;
        int move = moves[tx_splitmix_below(&rng, (uint32_t)n)];
        char name[TX_HOLE_NAME_MAX], line[64];
        const char *token = move == TX_MOVE_SWAP ? "SWAP" : tx_hole_name(geo, move, name);
        int w = snprintf(line, sizeof line, "%s %" PRIu64 "\n", token, now_ns() - t0);
        if (write(STDOUT_FILENO, line, (size_t)w) != w)
            return 0;
    }
}

/* ---- the referee side ---- */

struct bench;
struct slot { /* one game in flight */
    struct tx_game_spec spec;
    struct bench *bench;
    double cpu0; /* loop thread CPU when it started */
};

struct bench {
    uv_loop_t loop;
    int nopening;           /* forced moves every game starts from */
    const int16_t *opening; /* their holes */
    struct tx_match_config config;
    struct tx_bot_spec bots[2];
    struct slot slots[64];
    int64_t started, finished, games;
    int concurrency;
    int64_t turns;
    double *added_us; /* referee time minus bot time, per answered turn */
    size_t nadded, capadded;
    int64_t errors; /* games that did not end by connection or draw */
    /* Per game, with one game at a time: (turns, loop CPU seconds), for the fit. */
    double sx, sy, sxx, sxy;
    int64_t nfit;
};

static double thread_cpu(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void start_game(struct bench *b, struct slot *slot);

static void done_cb(struct tx_match *match, struct tx_record *r, void *data)
{
    struct slot *slot = data;
    struct bench *b = slot->bench;
    double cpu = thread_cpu() - slot->cpu0;
    (void)match;
    if (r->result.reason != TX_REASON_CONNECTION && r->result.reason != TX_REASON_DRAW) {
        if (b->errors++ < 3)
            fprintf(stderr, "bench-referee: game %" PRId64 " ended by %s: %s\n", r->game,
                    tx_reason_name(r->result.reason), r->result.detail);
    }
    bool seen[2] = {false, false};
    int64_t turns0 = b->turns;
    for (int i = 0; i < r->nmoves; i++) {
        const struct tx_record_move *m = &r->moves[i];
        if (m->forced || !m->move)
            continue;
        b->turns++;
        /* A first turn also waits for the bot to start (its input is
         * written as soon as it is spawned): that is the bot's, not ours. */
        bool first = !seen[m->player];
        seen[m->player] = true;
        if (!m->message || first)
            continue;
        double bot_us = strtod(m->message, NULL) / 1000.0;
        if (b->nadded == b->capadded) {
            b->capadded = b->capadded ? 2 * b->capadded : 4096;
            b->added_us = realloc(b->added_us, b->capadded * sizeof *b->added_us);
            if (!b->added_us)
                abort();
        }
        b->added_us[b->nadded++] = (double)m->us - bot_us;
    }
    if (b->concurrency == 1) {
        double x = (double)(b->turns - turns0);
        b->sx += x;
        b->sy += cpu;
        b->sxx += x * x;
        b->sxy += x * cpu;
        b->nfit++;
    }
    tx_record_free(r);
    free(r);
    b->finished++;
    if (b->started < b->games)
        start_game(b, slot);
}

static void start_game(struct bench *b, struct slot *slot)
{
    struct tx_game_spec *spec = &slot->spec;
    slot->bench = b;
    slot->cpu0 = thread_cpu();
    memset(spec, 0, sizeof *spec);
    spec->index = ++b->started;
    spec->seed = (uint64_t)spec->index * 7919u;
    /* Colours alternate, as in a match. */
    spec->bots[0] = &b->bots[spec->index % 2];
    spec->bots[1] = &b->bots[1 - spec->index % 2];
    spec->nopening = b->nopening;
    spec->opening = b->opening;
    struct tx_match *m;
    int r = tx_match_start(&b->loop, &b->config, spec, done_cb, slot, &m);
    if (r < 0) {
        fprintf(stderr, "bench-referee: cannot start a game: %s\n", strerror(-r));
        exit(1);
    }
}

static double cpu_seconds(int who)
{
    struct rusage ru;
    getrusage(who, &ru);
    return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
           (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

static int compare_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

struct result {
    double seconds, loop_cpu, pool_cpu;
    int64_t games, turns;
};

/* Plays games of geo's board under rules, concurrency at a time, each from
 * the forced opening b->opening (b->nopening moves). */
static struct result run(struct bench *b, const char *self, const struct tx_geometry *geo,
                         enum tx_rules rules, int64_t games, int concurrency)
{
    tx_match_config_init(&b->config, geo, rules);
    static char command[PATH_MAX + 64];
    snprintf(command, sizeof command, "'%s' --bot {seed}", self);
    b->bots[0] = (struct tx_bot_spec){.name = "instant-a", .command = command};
    b->bots[1] = (struct tx_bot_spec){.name = "instant-b", .command = command};
    b->started = b->finished = b->turns = 0;
    b->games = games;
    b->nadded = 0;
    b->concurrency = concurrency;
    b->sx = b->sy = b->sxx = b->sxy = 0;
    b->nfit = 0;
    uv_loop_init(&b->loop);

    double self0 = cpu_seconds(RUSAGE_SELF), thread0 = cpu_seconds(RUSAGE_THREAD);
    uint64_t t0 = uv_hrtime();
    for (int i = 0; i < concurrency && b->started < games; i++)
        start_game(b, &b->slots[i]);
    uv_run(&b->loop, UV_RUN_DEFAULT);
    struct result res;
    res.seconds = (double)(uv_hrtime() - t0) / 1e9;
    res.loop_cpu = cpu_seconds(RUSAGE_THREAD) - thread0;
    res.pool_cpu = cpu_seconds(RUSAGE_SELF) - self0 - res.loop_cpu;
    res.games = b->finished;
    res.turns = b->turns;
    if (uv_loop_close(&b->loop) != 0)
        fprintf(stderr, "bench-referee: handles left on the loop\n");
    return res;
}

static double percentile(const double *sorted, size_t n, double p)
{
    if (n == 0)
        return 0;
    size_t i = (size_t)(p * (double)(n - 1) + 0.5);
    return sorted[i];
}

static void print_latency(const char *label, double *added, size_t n)
{
    qsort(added, n, sizeof *added, compare_double);
    size_t over = 0;
    while (over < n && added[n - 1 - over] > 300.0)
        over++;
    printf("    %s p50 %.1f us   p90 %.1f us   p99 %.1f us   max %.1f us   over 300 us: %.2f%%\n",
           label, percentile(added, n, 0.50), percentile(added, n, 0.90),
           percentile(added, n, 0.99), n ? added[n - 1] : 0.0,
           n ? 100.0 * (double)over / (double)n : 0.0);
}

/* ---- (4) starting a bot ---- */

struct start {
    bool line, closed;
};

static void start_event(struct tx_bot *bot, enum tx_bot_event event)
{
    struct start *st = bot->data;
    if (event == TX_BOT_LINE)
        st->line = true;
}

static void start_closed(struct tx_bot *bot)
{
    ((struct start *)bot->data)->closed = true;
}

/* tx_bot_start to its first answer, rounds times under sb; prints p50/p90/max. */
static void startup(const char *label, const char *self, const struct tx_sandbox *sb, int rounds)
{
    char launcher[PATH_MAX];
    if (tx_bot_find_launcher(launcher, sizeof launcher) < 0)
        return;
    double *ms = malloc(sizeof *ms * (size_t)rounds);
    if (!ms)
        abort();
    char *argv[] = {(char *)self, (char *)"--bot", (char *)"1", NULL};
    int done = 0;
    for (; done < rounds; done++) {
        uv_loop_t loop;
        uv_loop_init(&loop);
        struct tx_bot bot;
        struct start st = {false, false};
        memset(&bot, 0, sizeof bot);
        bot.data = &st;
        bot.event_cb = start_event;
        bot.closed_cb = start_closed;
        struct tx_bot_options o = {
            .argv = argv, .launcher = launcher, .memory_mb = 768, .nice = 5, .sandbox = sb};
        uint64_t t0 = uv_hrtime();
        if (tx_bot_start(&bot, &loop, &o) == 0 &&
            tx_bot_write(&bot, "FIRST\n0\n0\n0\n0\n", 14) >= 0)
            while (!st.line && !bot.exited)
                uv_run(&loop, UV_RUN_ONCE);
        ms[done] = (double)(uv_hrtime() - t0) / 1e6;
        tx_bot_stop(&bot);
        while (!st.closed)
            uv_run(&loop, UV_RUN_ONCE);
        tx_bot_release(&bot);
        uv_loop_close(&loop);
        if (!st.line)
            break;
    }
    qsort(ms, (size_t)done, sizeof *ms, compare_double);
    printf("    %s p50 %.2f ms   p90 %.2f ms   max %.2f ms   (%d starts)\n", label,
           percentile(ms, (size_t)done, 0.5), percentile(ms, (size_t)done, 0.9),
           done ? ms[done - 1] : 0.0, done);
    free(ms);
}

/* The floor: a blocking ping-pong over a socketpair with a child at the
 * bots' nice, no libuv, no referee. What (1) adds beyond this is ours. */
static void baseline(size_t rounds)
{
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
        return;
    pid_t child = fork();
    if (child == 0) {
        close(sv[0]);
        if (nice(5) == -1 && errno)
            _exit(1);
        char c[64];
        ssize_t n;
        while ((n = read(sv[1], c, sizeof c)) > 0)
            if (write(sv[1], c, (size_t)n) != n)
                break;
        _exit(0);
    }
    close(sv[1]);
    double *rt = malloc(rounds * sizeof *rt);
    if (!rt)
        abort();
    size_t done = 0;
    for (; done < rounds; done++) {
        char c[8] = "F6 123\n";
        uint64_t t0 = now_ns();
        if (write(sv[0], c, 7) != 7 || read(sv[0], c, sizeof c) <= 0)
            break;
        rt[done] = (double)(now_ns() - t0) / 1000.0;
    }
    close(sv[0]);
    waitpid(child, NULL, 0);
    print_latency("raw round trip:   ", rt, done);
    free(rt);
}

/* ---- (5) the largest game ---- */

#define LATE_OPENING 6000 /* forced moves: about 3000 pegs and 4000 links a side */
#define LATE_AT_ONCE 4    /* games at once for the memory figure */

/* A forced opening of n random legal moves under rules (never a swap, never
 * one that ends the game), into out. */
static int late_opening(const struct tx_geometry *geo, enum tx_rules rules, int n, int16_t *out)
{
    struct tx_game *g = tx_game_new(geo, rules), *next = tx_game_new(geo, rules);
    struct tx_splitmix rng = {20261124};
    int done = 0;
    for (int tries = 0; done < n && tries < 100 * n; tries++) {
        int h = (int)tx_splitmix_below(&rng, (uint32_t)geo->holes);
        tx_game_copy(next, g);
        if (tx_game_play(next, h) == TX_LEGAL && next->status == TX_ONGOING) {
            tx_game_copy(g, next);
            out[done++] = (int16_t)h;
        }
    }
    tx_game_free(g);
    tx_game_free(next);
    return done;
}

/* Peak resident memory of this process so far, in KiB (VmHWM). */
static long peak_kib(void)
{
    FILE *f = fopen("/proc/self/status", "re");
    char line[256];
    long kib = -1;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "VmHWM: %ld kB", &kib) == 1)
            break;
    if (f)
        fclose(f);
    return kib;
}

static void late_game(struct bench *b, const char *self, int64_t games)
{
    struct tx_geometry *geo;
    static int16_t opening[TX_HOLES_MAX];
    if (tx_geometry_new(100, 100, &geo) < 0)
        abort();
    b->nopening = late_opening(geo, TX_RULES_CLASSIC, LATE_OPENING, opening);
    b->opening = opening;
    struct tx_game *g = tx_game_new(geo, TX_RULES_CLASSIC);
    for (int i = 0; i < b->nopening; i++)
        tx_game_play(g, opening[i]);
    static char input[TX_INPUT_MAX];
    int len = tx_input_write(g, g->to_move, false, input, sizeof input);
    printf("\n(5) classic 100x100 from a forced opening of %d random moves, then played to the "
           "end;\n    the first input after it is %d bytes\n",
           b->nopening, len);
    tx_game_free(g);

    struct result one = run(b, self, geo, TX_RULES_CLASSIC, games, 1);
    print_latency("1 game at a time: ", b->added_us, b->nadded);
    printf("    %" PRId64 " turns in %" PRId64
           " games; referee CPU (loop thread) %.1f us per turn, "
           "writing each input included\n",
           one.turns, one.games, one.loop_cpu * 1e6 / (double)one.turns);

    /* Memory: the peak with LATE_AT_ONCE games at once, over the peak so
     * far (which one game at a time already set, so the figure is what
     * each further game adds: its game state, records, buffers). */
    long before = peak_kib();
    run(b, self, geo, TX_RULES_CLASSIC, LATE_AT_ONCE, LATE_AT_ONCE);
    long after = peak_kib();
    printf("    memory: peak RSS %.1f MiB with 1 game at a time, %.1f MiB with %d at once: "
           "%.2f MiB per running game\n",
           (double)before / 1024, (double)after / 1024, LATE_AT_ONCE,
           (double)(after - before) / 1024 / (LATE_AT_ONCE - 1));
    b->nopening = 0;
    b->opening = NULL;
    tx_geometry_free(geo);
}

int main(int argc, char **argv)
{
    if (argc == 3 && !strcmp(argv[1], "--bot"))
        return run_bot(strtoull(argv[2], NULL, 10));

    int64_t games = 200, late_games = 4;
    int concurrency = 2;
    struct tx_sandbox_request sandbox = {.mode = TX_SANDBOX_OFF};
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--games") && i + 1 < argc)
            games = atoll(argv[++i]);
        else if (!strcmp(argv[i], "--concurrency") && i + 1 < argc)
            concurrency = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--late-games") && i + 1 < argc)
            late_games = atoll(argv[++i]);
        else if (!strcmp(argv[i], "--sandbox") && i + 1 < argc &&
                 tx_sandbox_mode_parse(argv[i + 1], &sandbox.mode) == 0)
            i++;
        else {
            fprintf(stderr,
                    "usage: bench-referee [--games N] [--concurrency C] [--sandbox auto|on|off] "
                    "[--late-games N]\n");
            return 2;
        }
    }
    char err[512], how[512];
    if (tx_sandbox_configure(&sandbox, "bench-referee", err, sizeof err) < 0) {
        fprintf(stderr, "bench-referee: %s\n", err);
        return 2;
    }
    if (games < 1 || concurrency < 1 || concurrency > 64) {
        fprintf(stderr, "bench-referee: --games >= 1, --concurrency 1..64\n");
        return 2;
    }
    signal(SIGPIPE, SIG_IGN);
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0)
        return 1;
    self[n] = '\0';

    static struct bench b;
    printf("bench-referee: instant random bots, %" PRId64 " games per run, %ld cores\n", games,
           sysconf(_SC_NPROCESSORS_ONLN));
    tx_sandbox_describe(tx_sandbox_current(), how, sizeof how);
    printf("sandbox: %s\n", how);

    /* (1) and (2): one game at a time on the CodinGame board. */
    struct tx_geometry *geo12;
    if (tx_geometry_new(12, 12, &geo12) < 0)
        return 1;
    struct result one = run(&b, self, geo12, TX_RULES_PP, games, 1);
    struct bench fit = b; /* keep the per-game sums of this run */
    printf("\n(1) added latency per turn (referee time - bot time), 12x12, first turns excluded\n");
    print_latency("1 game at a time: ", b.added_us, b.nadded);
    baseline(b.nadded);
    struct result many = run(&b, self, geo12, TX_RULES_PP, games, concurrency);
    char label[64];
    snprintf(label, sizeof label, "%d games at once:", concurrency);
    print_latency(label, b.added_us, b.nadded);

    printf("\n(2) games per second, 12x12 (%.1f turns per game)\n",
           (double)one.turns / (double)one.games);
    printf("    1 game at a time: %.1f games/s   %d at a time: %.1f games/s\n",
           (double)one.games / one.seconds, concurrency, (double)many.games / many.seconds);

    /* (3) CPU: all-in per turn, then per turn and per game apart: a least
     * squares line through (turns, CPU) of each game of the first run. */
    printf("\n(3) referee CPU (loop thread), 12x12, 1 game at a time\n");
    printf("    all-in: %.1f us per turn (%.0f us per game of %.1f turns)\n",
           one.loop_cpu * 1e6 / (double)one.turns, one.loop_cpu * 1e6 / (double)one.games,
           (double)one.turns / (double)one.games);
    double nf = (double)fit.nfit;
    double slope = (nf * fit.sxy - fit.sx * fit.sy) / (nf * fit.sxx - fit.sx * fit.sx);
    double intercept = (fit.sy - slope * fit.sx) / nf;
    printf("    per turn: %.1f us   per game (spawn, reap, record): %.0f us   (fit over %" PRId64
           " games)\n",
           slope * 1e6, intercept * 1e6, fit.nfit);
    printf("    the process's other threads (libuv's pool, the TMPDIR remover): %.0f us per game\n",
           one.pool_cpu * 1e6 / (double)one.games);

    printf("\n(4) starting a bot: tx_bot_start to its first answer (spawn, launcher, exec, one "
           "turn)\n");
    struct tx_sandbox off, on;
    struct tx_sandbox_request want_off = {.mode = TX_SANDBOX_OFF},
                              want_on = {.mode = TX_SANDBOX_ON};
    tx_sandbox_init(&off, &want_off, err, sizeof err);
    startup("no sandbox:", self, &off, 100);
    if (tx_sandbox_init(&on, &want_on, err, sizeof err) == 0)
        startup("sandbox:   ", self, &on, 100);
    else
        printf("    sandbox: %s\n", err);
    tx_sandbox_free(&off);
    tx_sandbox_free(&on);
    if (late_games > 0)
        late_game(&b, self, late_games);
    tx_geometry_free(geo12);
    if (b.errors)
        printf("\n%" PRId64 " games did not end by connection or draw (see stderr)\n", b.errors);
    free(b.added_us);
    return b.errors ? 1 : 0;
}
