/* cmd-validate.c - `twixt-arena validate BOT [options]`: is this bot legal
 * and fast enough?
 *
 * Parses the options (the common limits of options.h, plus --opponent and
 * --concurrency, which only validate has), finds the bundled opponents next
 * to the program, runs the battery (validate.h) and prints its report
 * (validate-report.h): as text for a person, or with --json as one JSON
 * object for a script. Exit 0 only when nothing was found.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "command.h"
#include "commands.h"
#include "options.h"
#include "record.h"
#include "validate-report.h"

#define ACCEPT                                                                                     \
    (TX_OPTIONS_LIMITS | TX_OPTIONS_OUTPUT | TX_OPTIONS_GAMES | TX_OPTIONS_JSON |                  \
     TX_OPTIONS_SANDBOX)
#define STRONG_MS_MAX                                                                              \
    100 /* the strong opponent's thinking time per turn: enough to be strong, quick */
#define CONCURRENCY_MAX 64

/* Options validate has and options.c does not. */
struct extra {
    int nopponents;
    const char *opponents[TX_VALIDATE_OPPONENTS_MAX];
    int concurrency; /* 0: not given */
};

static void usage(FILE *out)
{
    fprintf(out,
            "usage: twixt-arena validate BOT [OPTIONS]\n\n"
            "Plays BOT through a battery of games (player 1 and 2 against the random and the\n"
            "strong bundled bots, an opponent that swaps, a first peg on and off the diagonal,\n"
            "late positions with few legal holes, opponent links that cross each other), then\n"
            "re-feeds one game to time its start-up and see whether it exits when its stdin\n"
            "closes and leaves no process behind. Prints the findings; exit 0 only if none.\n\n"
            "  --games N           play the battery N times with other seeds (default 1)\n"
            "  --opponent CMD      play the plain games against CMD instead of the bundled\n"
            "                      bots (repeatable, up to %d)\n"
            "  --concurrency C     games at once (default 1: the fairest timing)\n"
            "  -o FILE             write the battery's records to FILE (overwritten; default\n"
            "                      a new file under /tmp)\n",
            TX_VALIDATE_OPPONENTS_MAX);
    tx_options_usage(out, TX_OPTIONS_LIMITS | TX_OPTIONS_JSON | TX_OPTIONS_SANDBOX);
}

/* Takes --opponent and --concurrency out of argv (compacting it) so that the
 * common parser sees only its own options. Returns 0 or -EINVAL with err. */
static int take_extra(int *argc, char **argv, struct extra *x, char *err, size_t errcap)
{
    int out = 1;
    for (int i = 1; i < *argc; i++) {
        const char *arg = argv[i], *value = NULL;
        bool opponent = !strncmp(arg, "--opponent", 10),
             concurrency = !strncmp(arg, "--concurrency", 13);
        size_t len = opponent ? 10 : concurrency ? 13 : 0;
        if (!strcmp(arg, "--")) {
            while (i < *argc)
                argv[out++] = argv[i++];
            break;
        }
        if (!len || (arg[len] && arg[len] != '=')) {
            argv[out++] = argv[i];
            continue;
        }
        if (arg[len] == '=')
            value = arg + len + 1;
        else if (i + 1 < *argc)
            value = argv[++i];
        if (!value || !*value) {
            snprintf(err, errcap, "%.*s: expected a value", (int)len, arg);
            return -EINVAL;
        }
        if (opponent) {
            if (x->nopponents == TX_VALIDATE_OPPONENTS_MAX) {
                snprintf(err, errcap, "--opponent: at most %d", TX_VALIDATE_OPPONENTS_MAX);
                return -EINVAL;
            }
            x->opponents[x->nopponents++] = value;
        } else {
            char *end;
            long c = strtol(value, &end, 10);
            if (*end || c < 1 || c > CONCURRENCY_MAX) {
                snprintf(err, errcap, "--concurrency: expected 1 to %d, got '%s'", CONCURRENCY_MAX,
                         value);
                return -EINVAL;
            }
            x->concurrency = (int)c;
        }
    }
    *argc = out;
    argv[out] = NULL;
    return 0;
}

/* True when the program of command can be run: a path that is executable,
 * or a name found in $PATH. */
static bool runnable(const char *command, int size, char *program, size_t cap)
{
    char *expanded = tx_command_expand(command, 1, size);
    char **argv = NULL;
    int argc;
    bool ok = false;
    snprintf(program, cap, "%s", command);
    if (tx_command_split(expanded, &argv, &argc, NULL, 0) == 0) {
        snprintf(program, cap, "%s", argv[0]);
        if (strchr(argv[0], '/')) {
            ok = access(argv[0], X_OK) == 0;
        } else {
            const char *path = getenv("PATH");
            char dir[PATH_MAX], full[PATH_MAX + 256];
            while (path && *path && !ok) {
                size_t n = strcspn(path, ":");
                snprintf(dir, sizeof dir, "%.*s", (int)n, path);
                snprintf(full, sizeof full, "%s/%s", n ? dir : ".", argv[0]);
                ok = access(full, X_OK) == 0;
                path += n + (path[n] == ':');
            }
        }
    }
    tx_command_free(argv);
    free(expanded);
    return ok;
}

/* "'path' --seed {seed} --size {size} EXTRA" for a bundled bot, or NULL. */
static char *bundled(const char *name, const char *extra)
{
    char path[PATH_MAX];
    if (tx_validate_find_bundled(name, path, sizeof path) < 0 || strchr(path, '\''))
        return NULL;
    size_t len = strlen(path) + strlen(extra) + 64;
    char *command = malloc(len);
    if (!command)
        abort();
    snprintf(command, len, "'%s' --seed {seed} --size {size}%s", path, extra);
    return command;
}

/* ---- the command ---- */

int tx_cmd_validate(int argc, char **argv)
{
    struct tx_options o;
    struct extra x = {0};
    struct tx_validate_report rep = {0};
    struct tx_geometry *geo = NULL;
    char err[1024], program[PATH_MAX], records[64] = "";
    char *random = NULL, *strong = NULL;
    int status = TX_EXIT_USAGE;
    /* argv[-1] is the program as typed (main passes argv + 1): the replay commands use it. */
    const char *self = argv[-1] ? argv[-1] : "twixt-arena";

    memset(&o, 0, sizeof o);
    if (take_extra(&argc, argv, &x, err, sizeof err) < 0 ||
        tx_options_parse(&o, ACCEPT, 1, 1, argc, argv, err, sizeof err) < 0) {
        fprintf(stderr, "twixt-arena validate: %s\n(twixt-arena validate --help for the options)\n",
                err);
        goto out;
    }
    if (o.help) {
        usage(stdout);
        status = TX_EXIT_OK;
        goto out;
    }
    if (!runnable(o.bots[0].command, o.size, program, sizeof program)) {
        /* As in a shell, a bare name is looked up in $PATH only. */
        bool exists = access(program, F_OK) == 0, path = strchr(program, '/') != NULL;
        fprintf(stderr, "twixt-arena validate: BOT: cannot run '%s' (%s)\n", program,
                exists && !path ? "not in $PATH; for the file here write ./ before it"
                : exists
                    ? "not executable: chmod +x it, or name its interpreter, e.g. \"python3 FILE\""
                    : "no such executable file, or not in $PATH");
        goto out;
    }
    for (int i = 0; i < x.nopponents; i++)
        if (!runnable(x.opponents[i], o.size, program, sizeof program)) {
            fprintf(stderr, "twixt-arena validate: --opponent: cannot run '%s'\n", program);
            goto out;
        }
    if (o.games > TX_VALIDATE_ROUNDS_MAX) {
        fprintf(stderr, "twixt-arena validate: --games: at most %d rounds\n",
                TX_VALIDATE_ROUNDS_MAX);
        goto out;
    }
    random = bundled("twixt-random", "");
    char strong_extra[32];
    int strong_ms = o.turn_ms / 3 < STRONG_MS_MAX ? o.turn_ms / 3 : STRONG_MS_MAX;
    snprintf(strong_extra, sizeof strong_extra, " --ms %d", strong_ms > 1 ? strong_ms : 1);
    strong = bundled("twixt-mcts", strong_extra);
    if (!x.nopponents && !random && !strong) {
        fprintf(stderr,
                "twixt-arena validate: no bundled bots next to the program (../bots/twixt-random); "
                "name opponents with --opponent CMD\n");
        goto out;
    }
    if (!(geo = malloc(sizeof *geo)) || tx_geometry_init(geo, o.size) < 0) {
        fprintf(stderr, "twixt-arena validate: --size: cannot build a %d x %d board\n", o.size,
                o.size);
        goto out;
    }
    if (!o.output) {
        int fd;
        snprintf(records, sizeof records, "/tmp/twixt-validate-XXXXXX.jsonl");
        if ((fd = mkstemps(records, 6)) < 0) {
            fprintf(stderr, "twixt-arena validate: cannot create a records file in /tmp: %s\n",
                    strerror(errno));
            goto out;
        }
        close(fd);
    }
    o.sandbox.output = o.output ? o.output : records;
    if (tx_sandbox_configure(&o.sandbox, "twixt-arena validate", err, sizeof err) < 0) {
        fprintf(stderr, "twixt-arena validate: %s\n", err);
        goto out;
    }
    struct tx_validate_config c = {
        .geo = geo,
        .name = o.bots[0].name,
        .command = o.bots[0].command,
        .first_turn_ms = o.first_turn_ms,
        .turn_ms = o.turn_ms,
        .margin_ms = o.margin_ms,
        .soft_timeouts = o.soft_timeouts,
        .bot_memory_mb = o.bot_memory_mb,
        .seed = o.seed,
        .rounds = o.games > 0 ? (int)o.games : 1,
        .concurrency = x.concurrency ? x.concurrency : 1,
        .progress = isatty(STDERR_FILENO),
        .random_command = random,
        .strong_command = strong,
        .nopponents = x.nopponents,
        .records = o.output ? o.output : records,
    };
    for (int i = 0; i < x.nopponents; i++)
        c.opponents[i] = x.opponents[i];
    if (tx_validate_run(&c, &rep, err, sizeof err) < 0) {
        fprintf(stderr, "twixt-arena validate: %s\n", err);
        goto out;
    }
    if (o.json)
        tx_validate_report_print_json(stdout, self, &c, &rep);
    else
        tx_validate_report_print(stdout, self, &c, &rep);
    fflush(stdout);
    status = rep.passed ? TX_EXIT_OK : TX_EXIT_FAILED;
out:
    tx_validate_report_free(&rep);
    free(geo);
    free(random);
    free(strong);
    tx_options_free(&o);
    return status;
}
