/* bench-overhead.c - what a whole run through the referee costs against the
 * plainest possible referee: the same games, played by a raw harness.
 * A benchmark, not a test: it prints figures.
 *
 *   bench-overhead [--games N] [--runs R] [--sandbox MODE]... [--bot CMD]
 *
 * Each run plays N games (default 40) between two instant bots
 * (tests/tiny-bot, seeded by the game: both sides replay identically) with
 * `twixt-arena play A B --games N --concurrency 1 -o FILE --sandbox MODE`,
 * the real program from its start to its exit: the sandbox probe, the
 * launcher as each bot's keeper, the records and their chain. Then the raw
 * harness replays the games of FILE to the same bots: for each game it
 * forks and execs both commands of the record (blocking pipes, no
 * launcher, no timers, no sandbox; at the referee's TX_BOT_NICE, which on a
 * busy machine decides how long a bot waits for a core), writes every
 * turn's input, reads the
 * answer line, checks that it is the recorded move, and at the end closes
 * their stdin and waits for them. What it does is the floor of a referee:
 * starting the bots and talking to them. The ratio of the two wall times
 * (the median over R runs, default 5, of each run's ratio: the two
 * alternate, so that a busy machine weighs on both alike) is the referee's
 * overhead (the ratio of the fastest runs of each is printed too: on a
 * busy machine it is the steadier figure); the CPU time of each (the
 * process and its children, bots included) says where it went.
 *
 * --sandbox may be given several times (default: off, then auto).
 * Run it from the build directory's tests/ (it finds ../referee/twixt-arena
 * and tiny-bot next to itself), or name the bot with --bot.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "alloc.h"
#include "answer.h"
#include "bot.h"
#include "command.h"
#include "game.h"
#include "geometry.h"
#include "input.h"
#include "proc.h"
#include "record.h"
#include "records.h"

#define RUNS_MAX 64
#define MODES_MAX 4

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* User + system CPU seconds of this process's waited-for children so far. */
static double children_cpu(void)
{
    struct rusage ru;
    getrusage(RUSAGE_CHILDREN, &ru);
    return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
           (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

static double self_cpu(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
           (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

struct timing {
    double wall, cpu;
};

/* ---- through the referee ---- */

static struct timing referee_run(const char *arena, const char *bot, int games, const char *mode,
                                 const char *records)
{
    char a[1200], b[1200], n[32];
    snprintf(a, sizeof a, "a=%s --seed {seed}", bot);
    snprintf(b, sizeof b, "b=%s --seed {seed}", bot);
    snprintf(n, sizeof n, "%d", games);
    const char *argv[] = {arena, "play", a,       b,           "--games", n,   "--concurrency",
                          "1",   "-o",   records, "--sandbox", mode,      NULL};
    unlink(records);
    double cpu0 = children_cpu(), t0 = now_s();
    pid_t pid = fork();
    if (pid == 0) {
        int null = open("/dev/null", O_RDWR);
        dup2(null, 0);
        dup2(null, 1);
        execv(arena, (char *const *)argv);
        _exit(127);
    }
    int st;
    waitpid(pid, &st, 0);
    struct timing t = {now_s() - t0, children_cpu() - cpu0};
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        fprintf(stderr, "bench-overhead: twixt-arena play --sandbox %s failed (status %d)\n", mode,
                st);
        exit(2);
    }
    return t;
}

/* ---- the raw harness ---- */

struct raw_bot {
    pid_t pid;
    FILE *in, *out;
};

static void raw_start(struct raw_bot *rb, const char *command)
{
    char **argv, err[256];
    int argc, to[2], from[2];
    if (tx_command_split(command, &argv, &argc, err, sizeof err) < 0 || pipe2(to, O_CLOEXEC) < 0 ||
        pipe2(from, O_CLOEXEC) < 0) {
        fprintf(stderr, "bench-overhead: cannot start '%s'\n", command);
        exit(2);
    }
    rb->pid = fork();
    if (rb->pid == 0) {
        dup2(to[0], 0);
        dup2(from[1], 1);
        if (nice(TX_BOT_NICE) < 0) /* as the referee runs them: on a busy machine, */
            _exit(126);            /* that is what decides how long they wait */
        execvp(argv[0], argv);
        _exit(127);
    }
    close(to[0]);
    close(from[1]);
    rb->in = fdopen(to[1], "w");
    rb->out = fdopen(from[0], "r");
    tx_command_free(argv);
}

static void raw_stop(struct raw_bot *rb)
{
    fclose(rb->in); /* EOF: an instant bot exits */
    fclose(rb->out);
    waitpid(rb->pid, NULL, 0);
}

/* Replays one record to its bots (a game of two, on the record's rules and
 * board); false when a bot answered otherwise. */
static bool raw_game(const struct tx_record *r)
{
    struct raw_bot bots[2];
    static char line[TX_ANSWER_LINE_MAX + 2];
    struct tx_variant v = tx_record_variant(r);
    struct tx_geometry *geo;
    if (r->nplayers != 2 || tx_geometry_new(v.width, v.height, &geo) < 0)
        return false;
    struct tx_game *g = tx_game_new(geo, v.rules);
    tx_game_start(g, geo, &v);
    size_t cap = tx_input_max(geo) + 1;
    char *input = tx_xmalloc(cap);
    bool first[2] = {true, true}, same = true;
    for (int p = 0; p < 2; p++)
        raw_start(&bots[p], r->players[p].command);
    for (int i = 0; i < r->nmoves && same; i++) {
        const struct tx_record_move *m = &r->moves[i];
        struct tx_answer ans;
        struct tx_move move;
        if (!m->move || tx_answer_parse_variant(geo, &v, m->move, strlen(m->move), &ans) < 0)
            break;
        int p = m->player;
        int len = tx_input_write(g, p, first[p], input, cap);
        first[p] = false;
        fwrite(input, 1, (size_t)len, bots[p].in);
        fflush(bots[p].in);
        if (!fgets(line, sizeof line, bots[p].out))
            same = false;
        else
            same = !strncmp(line, m->move, strlen(m->move));
        tx_answer_move(&ans, &move);
        tx_game_apply(g, &move, NULL);
    }
    for (int p = 0; p < 2; p++)
        raw_stop(&bots[p]);
    free(input);
    tx_game_free(g);
    tx_geometry_free(geo);
    return same;
}

static struct timing raw_run(const char *records)
{
    struct tx_records_reader rd;
    struct tx_record rec;
    char err[512];
    if (tx_records_open(&rd, records, err, sizeof err) < 0) {
        fprintf(stderr, "bench-overhead: %s\n", err);
        exit(2);
    }
    double cpu0 = children_cpu() + self_cpu(), t0 = now_s();
    int games = 0, differ = 0, item;
    while ((item = tx_records_next(&rd, &rec, err, sizeof err)) == TX_RECORDS_RECORD) {
        differ += !raw_game(&rec);
        games++;
        tx_record_free(&rec);
    }
    struct timing t = {now_s() - t0, children_cpu() + self_cpu() - cpu0};
    tx_records_close(&rd);
    if (differ)
        fprintf(stderr, "bench-overhead: %d of %d games replayed differently by the raw harness\n",
                differ, games);
    return t;
}

/* ---- figures ---- */

static int compare_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, compare_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int main(int argc, char **argv)
{
    int games = 40, runs = 5, nmodes = 0;
    const char *modes[MODES_MAX], *bot_arg = NULL;
    for (int i = 1; i + 1 < argc; i++) {
        if (!strcmp(argv[i], "--games"))
            games = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--runs"))
            runs = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--sandbox") && nmodes < MODES_MAX)
            modes[nmodes++] = argv[++i];
        else if (!strcmp(argv[i], "--bot"))
            bot_arg = argv[++i];
    }
    if (nmodes == 0) {
        modes[nmodes++] = "off";
        modes[nmodes++] = "auto";
    }
    if (games < 1 || runs < 1 || runs > RUNS_MAX) {
        fprintf(stderr, "bench-overhead: --games at least 1, --runs from 1 to %d\n", RUNS_MAX);
        return 2;
    }
    char self[1024], arena[1100], bot[1100], dir[] = "/tmp/bench-overhead-XXXXXX", records[1100];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    self[n > 0 ? n : 0] = '\0';
    char *slash = strrchr(self, '/');
    if (slash)
        *slash = '\0';
    snprintf(arena, sizeof arena, "%s/../referee/twixt-arena", self);
    snprintf(bot, sizeof bot, "%s", bot_arg ? bot_arg : "");
    if (!bot_arg)
        snprintf(bot, sizeof bot, "%s/tiny-bot", self);
    if (access(arena, X_OK) != 0 || (!bot_arg && access(bot, X_OK) != 0) || !mkdtemp(dir)) {
        fprintf(stderr, "bench-overhead: %s or %s not found (build the tests first)\n", arena, bot);
        return 2;
    }
    snprintf(records, sizeof records, "%s/run.jsonl", dir);
    setvbuf(stdout, NULL, _IOLBF, 0);
    printf("bench-overhead: %d games of instant bots (%s), concurrency 1, median of %d runs\n",
           games, bot, runs);
    for (int m = 0; m < nmodes; m++) {
        double ref_wall[RUNS_MAX], ref_cpu[RUNS_MAX], raw_wall[RUNS_MAX], raw_cpu[RUNS_MAX],
            ratio[RUNS_MAX];
        for (int r = 0; r < runs; r++) {
            struct timing ref = referee_run(arena, bot, games, modes[m], records);
            struct timing raw = raw_run(records);
            ref_wall[r] = ref.wall, ref_cpu[r] = ref.cpu;
            raw_wall[r] = raw.wall, raw_cpu[r] = raw.cpu;
            ratio[r] = ref.wall / raw.wall;
            printf("  --sandbox %s run %d: referee %.3f s (CPU %.3f s), raw %.3f s (CPU %.3f s), "
                   "%.2f x\n",
                   modes[m], r + 1, ref.wall, ref.cpu, raw.wall, raw.cpu, ref.wall / raw.wall);
        }
        double rw = median(ref_wall, runs), rc = median(ref_cpu, runs);
        double xw = median(raw_wall, runs), xc = median(raw_cpu, runs);
        double fastest = ref_wall[0] / raw_wall[0]; /* median() sorted them */
        printf("--sandbox %s: referee %.1f ms a game (CPU %.1f ms), raw %.1f ms a game (CPU %.1f "
               "ms): %.2f x raw (fastest runs: %.2f x)\n",
               modes[m], 1000 * rw / games, 1000 * rc / games, 1000 * xw / games, 1000 * xc / games,
               median(ratio, runs), fastest);
    }
    tx_proc_remove_tree(dir);
    return 0;
}
