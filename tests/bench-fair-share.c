/* bench-fair-share.c - how much CPU a thief takes from its opponent, under
 * each setting. A benchmark, not a test: it prints figures.
 *
 *   bench-fair-share [--spin-ms MS] [--runs R] [--thieves N] [-- PLAY OPTIONS...]
 *
 * The honest bot is tests/hostile-bot "share MS" (default 100): each turn
 * it spins MS ms of wall time and says, in its answer's message, the share
 * of a CPU it got meanwhile. Its opponent is either quiet (hostile-bot
 * "play") or the thief (hostile-bot "thief N", default 4: N processes
 * spinning only while their opponent thinks, stopped during the thief's
 * own turns, so that it loses nothing itself). Each game is a real
 * `twixt-arena play` (about 65 turns of the honest bot); the figure is the
 * honest bot's average share in its turns, the median over R runs
 * (default 1).
 *
 * Settings: --sandbox off, the sandbox with --bot-cpus 0 (no quota), the
 * default (a quota of 1 CPU, idle priority off move), and --pin-cores;
 * each with the kernel's session autogroups on and off
 * (/proc/sys/kernel/sched_autogroup_enabled, as root; put back as it was
 * at the end, or left alone where it cannot be written). Options after
 * "--" go to every play (e.g. --sandbox on). Run it from the build
 * directory's tests/ (it finds ../referee/twixt-arena and hostile-bot next
 * to itself), on a machine with nothing else running.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include "record.h"
#include "records.h"

#define AUTOGROUP "/proc/sys/kernel/sched_autogroup_enabled"
#define RUNS_MAX 15
#define EXTRA_MAX 16

static char autogroup_was[8]; /* "" when not changed */

static bool set_autogroup(const char *value)
{
    FILE *f = fopen(AUTOGROUP, "we");
    bool ok = f && fputs(value, f) >= 0;
    if (f && fclose(f) != 0)
        ok = false;
    return ok;
}

static void restore_autogroup(void)
{
    if (autogroup_was[0])
        set_autogroup(autogroup_was);
}

static void on_signal(int sig)
{
    restore_autogroup();
    signal(sig, SIG_DFL);
    raise(sig);
}

static char self[1024], arena[1100], bot[1100], records[1100];
static const char *extra[EXTRA_MAX];
static int nextra;

/* The honest bot's average share, in thousandths, in one game against
 * opponent, with the setting's options (NULL-terminated); -1 on failure. */
static int one_game(const char *opponent, const char *const *options, int spin_ms)
{
    char honest[1200], other[1200];
    snprintf(honest, sizeof honest, "honest=%s share %d", bot, spin_ms);
    snprintf(other, sizeof other, "other=%s %s", bot, opponent);
    const char *argv[64] = {arena, "play",          honest, other, "--games",
                            "1",   "--concurrency", "1",    "-o",  records};
    int n = 10;
    for (int i = 0; options[i] && n < 50; i++)
        argv[n++] = options[i];
    for (int i = 0; i < nextra && n < 62; i++)
        argv[n++] = extra[i];
    argv[n] = NULL;
    unlink(records);
    pid_t pid = fork();
    if (pid == 0) {
        int null = open("/dev/null", O_RDWR);
        dup2(null, 0);
        dup2(null, 1);
        dup2(null, 2);
        execv(arena, (char *const *)argv);
        _exit(127);
    }
    int st;
    waitpid(pid, &st, 0);
    struct tx_records_reader rd;
    struct tx_record rec;
    char err[512];
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0 ||
        tx_records_open(&rd, records, err, sizeof err) < 0)
        return -1;
    long sum = 0, turns = 0;
    while (tx_records_next(&rd, &rec, err, sizeof err) == TX_RECORDS_RECORD) {
        for (int i = 0; i < rec.nmoves; i++)
            if (rec.moves[i].player == 0 && rec.moves[i].message &&
                !strncmp(rec.moves[i].message, "s=", 2)) {
                sum += atol(rec.moves[i].message + 2);
                turns++;
            }
        tx_record_free(&rec);
    }
    tx_records_close(&rd);
    return turns ? (int)(sum / turns) : -1;
}

static int compare_int(const void *a, const void *b)
{
    return *(const int *)a - *(const int *)b;
}

static int median_share(const char *opponent, const char *const *options, int spin_ms, int runs)
{
    int v[RUNS_MAX];
    for (int r = 0; r < runs; r++)
        v[r] = one_game(opponent, options, spin_ms);
    qsort(v, (size_t)runs, sizeof *v, compare_int);
    return v[runs / 2];
}

int main(int argc, char **argv)
{
    int spin_ms = 100, runs = 1, thieves = 4;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--") && i + 1 < argc) {
            for (int j = i + 1; j < argc && nextra < EXTRA_MAX; j++)
                extra[nextra++] = argv[j];
            break;
        }
        if (i + 1 < argc && !strcmp(argv[i], "--spin-ms"))
            spin_ms = atoi(argv[++i]);
        else if (i + 1 < argc && !strcmp(argv[i], "--runs"))
            runs = atoi(argv[++i]);
        else if (i + 1 < argc && !strcmp(argv[i], "--thieves"))
            thieves = atoi(argv[++i]);
    }
    if (spin_ms < 1 || runs < 1 || runs > RUNS_MAX || thieves < 1 || thieves > 64) {
        fprintf(stderr,
                "bench-fair-share: --spin-ms at least 1, --runs 1 to %d, --thieves 1 to "
                "64\n",
                RUNS_MAX);
        return 2;
    }
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    self[n > 0 ? n : 0] = '\0';
    char *slash = strrchr(self, '/');
    if (slash)
        *slash = '\0';
    snprintf(arena, sizeof arena, "%s/../referee/twixt-arena", self);
    snprintf(bot, sizeof bot, "%s/hostile-bot", self);
    char dir[] = "/tmp/bench-fair-share-XXXXXX";
    if (access(arena, X_OK) != 0 || access(bot, X_OK) != 0 || !mkdtemp(dir)) {
        fprintf(stderr, "bench-fair-share: %s or %s not found (build the tests first)\n", arena,
                bot);
        return 2;
    }
    snprintf(records, sizeof records, "%s/run.jsonl", dir);
    char thief[32];
    snprintf(thief, sizeof thief, "thief %d", thieves);

    FILE *f = fopen(AUTOGROUP, "re");
    char now[8] = "";
    if (f && fgets(now, sizeof now, f))
        now[strcspn(now, "\n")] = '\0';
    if (f)
        fclose(f);
    bool can_switch = now[0] && set_autogroup(now);
    if (can_switch) {
        snprintf(autogroup_was, sizeof autogroup_was, "%s", now);
        atexit(restore_autogroup);
        signal(SIGINT, on_signal);
        signal(SIGTERM, on_signal);
    }
    static const char *const off[] = {"--sandbox", "off", NULL};
    static const char *const no_quota[] = {"--bot-cpus", "0", NULL};
    static const char *const quota[] = {NULL};
    static const char *const pinned[] = {"--pin-cores", NULL};
    static const struct {
        const char *name;
        const char *const *options;
    } settings[] = {{"--sandbox off", off},
                    {"sandbox, --bot-cpus 0 (no quota)", no_quota},
                    {"sandbox, default (1 CPU, idle off move)", quota},
                    {"sandbox, default, --pin-cores", pinned}};
    const char *groups[] = {"1", "0"};
    setvbuf(stdout, NULL, _IOLBF, 0);
    printf("bench-fair-share: %ld cores; the honest bot spins %d ms a turn; its share of a CPU "
           "(median of %d run%s)\n",
           sysconf(_SC_NPROCESSORS_ONLN), spin_ms, runs, runs == 1 ? "" : "s");
    for (int g = 0; g < 2; g++) {
        if (can_switch && !set_autogroup(groups[g]))
            continue;
        if (!can_switch && g > 0)
            break;
        for (size_t s = 0; s < sizeof settings / sizeof *settings; s++) {
            int quiet = median_share("play", settings[s].options, spin_ms, runs);
            int robbed = median_share(thief, settings[s].options, spin_ms, runs);
            printf("autogroups %s, %-42s quiet opponent %5.1f%%, %s %5.1f%%\n",
                   can_switch ? groups[g] : now, settings[s].name, quiet / 10.0, thief,
                   robbed / 10.0);
        }
    }
    unlink(records);
    rmdir(dir);
    return 0;
}
