/* cmd-validate.c - `twixt-arena validate BOT [options]`: is this bot legal
 * and fast enough?
 *
 * Parses the options (the common limits of options.h, plus --opponent and
 * --concurrency, which only validate has), finds the bundled opponents next
 * to the program, runs the battery (validate.h) and prints its report: as
 * text for a person, or with --json as one JSON object for a script. Every
 * finding comes with the commands that replay it and re-feed the bot the
 * inputs of that game. Exit 0 only when nothing was found.
 */
#include <cjson/cJSON.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "command.h"
#include "commands.h"
#include "options.h"
#include "record.h"
#include "render-text.h"
#include "validate.h"

#define ACCEPT (TX_OPTIONS_LIMITS | TX_OPTIONS_OUTPUT | TX_OPTIONS_GAMES | TX_OPTIONS_JSON)
#define STRONG_MS_MAX 100 /* the strong opponent's thinking time per turn: enough to be strong, quick */
#define CONCURRENCY_MAX 64
#define INPUT_LINES_SHOWN 40 /* of an input that provoked an illegal answer, in the text report */
#define STDERR_LINES_SHOWN 10 /* of the stderr of a failing turn */

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
    tx_options_usage(out, TX_OPTIONS_LIMITS | TX_OPTIONS_JSON);
}

/* Takes --opponent and --concurrency out of argv (compacting it) so that the
 * common parser sees only its own options. Returns 0 or -EINVAL with err. */
static int take_extra(int *argc, char **argv, struct extra *x, char *err, size_t errcap)
{
    int out = 1;
    for (int i = 1; i < *argc; i++) {
        const char *arg = argv[i], *value = NULL;
        bool opponent = !strncmp(arg, "--opponent", 10), concurrency = !strncmp(arg, "--concurrency", 13);
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
                snprintf(err, errcap, "--concurrency: expected 1 to %d, got '%s'", CONCURRENCY_MAX, value);
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

/* ---- the text report ---- */

/* s as one shell word: as is when it is plain, else in single quotes. */
static void print_word(FILE *out, const char *s)
{
    if (*s && strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-+=./:,@%") == strlen(s)) {
        fputs(s, out);
        return;
    }
    fputc('\'', out);
    for (; *s; s++)
        if (*s == '\'')
            fputs("'\\''", out);
        else
            fputc(*s, out);
    fputc('\'', out);
}

static void print_commands(FILE *out, const char *program, const char *records, const char *command,
                           const struct tx_validate_finding *f, const char *indent)
{
    fprintf(out, "%sreplay:  ", indent);
    print_word(out, program);
    fputs(" replay ", out);
    print_word(out, records);
    fprintf(out, " --game %" PRId64 " --format text", f->game);
    if (f->move > 0)
        fprintf(out, " --move %d", f->move);
    fprintf(out, "\n%sre-feed: ", indent);
    print_word(out, program);
    fputs(" replay ", out);
    print_word(out, records);
    fprintf(out, " --game %" PRId64 " --bot ", f->game);
    char bot[8192];
    snprintf(bot, sizeof bot, "%d=%s", f->player + 1, command);
    print_word(out, bot);
    if (f->move > 0)
        fprintf(out, " --turn %d", f->move);
    fputc('\n', out);
}

static void print_ms(FILE *out, int64_t us)
{
    if (us < 0)
        fprintf(out, "%8s", "-");
    else
        fprintf(out, "%8.1f", (double)us / 1000.0);
}

/* The slowest answer used more than TX_VALIDATE_TIGHT_PERCENT of the limit:
 * a warning, not a finding (a loaded machine may then time it out). */
static bool tight(const struct tx_validate_times *t)
{
    return t->max >= 0 && t->max > (int64_t)t->limit_ms * 10 * TX_VALIDATE_TIGHT_PERCENT;
}

static void print_times(FILE *out, const char *kind, const struct tx_validate_times *t, int margin_ms)
{
    fprintf(out, "  %-12s %6d", kind, t->count);
    print_ms(out, t->p50);
    print_ms(out, t->p95);
    print_ms(out, t->p99);
    print_ms(out, t->max);
    fprintf(out, "%8d", t->limit_ms);
    if (t->max >= 0)
        fprintf(out, "%9.1f", (double)(t->limit_ms + margin_ms) - (double)t->max / 1000.0);
    if (tight(t))
        fprintf(out, "   warning: over %d%% of the limit", TX_VALIDATE_TIGHT_PERCENT);
    fputc('\n', out);
}

static void print_game(FILE *out, const struct tx_validate_game *g)
{
    char what[96];
    if (g->scenario == TX_SCENARIO_OPPONENT || g->scenario == TX_SCENARIO_SWAP)
        snprintf(what, sizeof what, "%s %s", g->scenario == TX_SCENARIO_SWAP ? "swapped by" : "against",
                 g->opponent);
    else
        snprintf(what, sizeof what, "%s, %d forced", tx_validate_scenario_name(g->scenario), g->nforced);
    fprintf(out, "  %5" PRId64 "  %-30s  %d  ", g->index, what, g->player + 1);
    const char *reason = tx_reason_name((enum tx_reason)g->reason);
    if (g->reason == TX_REASON_INTERRUPTED) {
        fputs("not played\n", out);
        return;
    }
    if (g->winner < 0)
        fputs("draw", out);
    else
        fprintf(out, "%s by %s", g->winner == g->player ? "won" : "lost", reason ? reason : "?");
    if (g->detail[0]) {
        fputs(" (", out);
        tx_render_text_safe(out, g->detail, 80);
        fputc(')', out);
    }
    fprintf(out, ", %d moves", g->nmoves);
    /* The bot's own failures are findings; the opponent's only make the game shorter. */
    if (g->winner == g->player && g->reason != TX_REASON_CONNECTION)
        fputs(" [the opponent failed: a loaded machine?]", out);
    fputc('\n', out);
}

/* text indented, at most max lines; bot text is shown safely. */
static void print_lines(FILE *out, const char *text, int max, const char *what)
{
    int lines = 0;
    for (const char *line = text; *line; lines++) {
        size_t n = strcspn(line, "\n");
        if (lines < max) {
            char *copy = strndup(line, n);
            if (!copy)
                abort();
            fputs("       ", out);
            tx_render_text_safe(out, copy, 200);
            fputc('\n', out);
            free(copy);
        }
        line += n + (line[n] == '\n');
    }
    if (lines > max)
        fprintf(out, "       ... %d more lines of the %s (all in the --json report)\n", lines - max, what);
}

static void print_report(FILE *out, const char *program, const struct tx_validate_config *c,
                         const struct tx_validate_report *rep)
{
    const struct tx_refeed_result *p = &rep->probe;
    fputs("validate ", out);
    tx_render_text_safe(out, c->name, 64);
    fputs(": ", out);
    tx_render_text_safe(out, c->command, 400);
    fprintf(out, "\nlimits: first turn %d ms, later turns %d ms, margin %d ms; board %d x %d\n", c->first_turn_ms,
            c->turn_ms, c->margin_ms, c->geo->size, c->geo->size);
    fprintf(out, "records: %s (%d games)\n\n", c->records, rep->ngames);
    fprintf(out, "  %5s  %-30s  %s  %s\n", "game", "scenario", "P", "result for the bot");
    for (int i = 0; i < rep->ngames; i++)
        print_game(out, &rep->games[i]);
    if (rep->swap_skipped)
        fputs("  (no SWAP game: the bundled twixt-random, which swaps on request, was not found)\n", out);
    for (int s = 0; s <= TX_SCENARIO_CROSSING; s++)
        if (rep->skipped & (1u << s))
            fprintf(out, "  (no %s game: no such opening on a %d x %d board)\n",
                    tx_validate_scenario_name((enum tx_validate_scenario)s), c->geo->size, c->geo->size);

    fprintf(out, "\nanswer times (ms)   count     p50     p95     p99     max   limit   margin\n");
    print_times(out, "first turn", &rep->first, c->margin_ms);
    print_times(out, "later turns", &rep->later, c->margin_ms);
    if (p->startup_us >= 0)
        fprintf(out, "start-up: %.1f ms from spawn to the first answer (game %" PRId64 " re-fed)\n",
                (double)p->startup_us / 1000.0, rep->probe_game);
    else
        fputs("start-up: not measured (no answer in the re-fed game)\n", out);
    fprintf(out, "stderr: %" PRId64 " bytes in all, at most %" PRId64 " in one game (%d kept per game)\n",
            rep->stderr_bytes, rep->stderr_max, TX_VALIDATE_STDERR_MAX);
    fprintf(out, "extra output lines: %" PRId64 "; messages over %d characters: %d\n", rep->extra_lines,
            TX_MESSAGE_CHARS, rep->long_messages);
    if (!p->probed)
        fputs("exit when stdin closes: not probed (the bot was gone before the probe)\n", out);
    else if (p->exited)
        fprintf(out, "exit when stdin closes: yes, in %.1f ms (%s)\n", (double)p->exit_us / 1000.0,
                p->exit_detail);
    else
        fprintf(out, "exit when stdin closes: NO, still running after %d ms\n", TX_REFEED_EXIT_WAIT_MS);
    if (p->probed && p->exited)
        fprintf(out, "processes left behind: %s\n", p->nleft ? "YES (see below)" : "none");
    else if (p->probed)
        fprintf(out, "processes left behind: unknown (it did not exit; %d other process%s in its session)\n",
                p->nleft, p->nleft == 1 ? "" : "es");

    if (rep->nfindings == 0) {
        fputs("\nno findings: PASSED\n", out);
        return;
    }
    fprintf(out, "\n%d finding%s: FAILED\n", rep->nfindings, rep->nfindings == 1 ? "" : "s");
    bool shown[TX_CHECK_CHILDREN + 1] = {false};
    for (int i = 0; i < rep->nfindings; i++) {
        const struct tx_validate_finding *f = &rep->findings[i];
        /* The first finding of each kind in full; the others in a line each. */
        bool full = !shown[f->check];
        shown[f->check] = true;
        fprintf(out, "%3d. %s in game %" PRId64, i + 1, tx_validate_check_name(f->check), f->game);
        if (f->move > 0)
            fprintf(out, ", move %d", f->move);
        fprintf(out, " (as player %d): ", f->player + 1);
        tx_render_text_safe(out, f->what, sizeof f->what);
        fputc('\n', out);
        if (!full) {
            fprintf(out, "     (commands as above with --game %" PRId64, f->game);
            if (f->move > 0)
                fprintf(out, ", --move / --turn %d", f->move);
            fprintf(out, ", --bot %d=...)\n", f->player + 1);
            continue;
        }
        if (f->input) {
            fputs("     the input that provoked it:\n", out);
            print_lines(out, f->input, INPUT_LINES_SHOWN, "input");
        }
        if (f->stderr_text) {
            fputs("     its stderr in that turn (end):\n", out);
            print_lines(out, f->stderr_text, STDERR_LINES_SHOWN, "stderr of the turn");
        }
        print_commands(out, program, c->records, c->command, f, "     ");
    }
}

/* ---- the JSON report ---- */

static cJSON *times_json(const struct tx_validate_times *t, int margin_ms)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "count", t->count);
    cJSON_AddNumberToObject(o, "limit_ms", t->limit_ms);
    if (t->count == 0)
        return o;
    cJSON_AddNumberToObject(o, "p50_ms", (double)t->p50 / 1000.0);
    cJSON_AddNumberToObject(o, "p95_ms", (double)t->p95 / 1000.0);
    cJSON_AddNumberToObject(o, "p99_ms", (double)t->p99 / 1000.0);
    cJSON_AddNumberToObject(o, "max_ms", (double)t->max / 1000.0);
    cJSON_AddNumberToObject(o, "margin_ms", (double)(t->limit_ms + margin_ms) - (double)t->max / 1000.0);
    cJSON_AddBoolToObject(o, "tight", tight(t));
    return o;
}

static char *command_text(const char *program, const char *records, const char *command,
                          const struct tx_validate_finding *f, bool refeed)
{
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    if (!m)
        abort();
    print_commands(m, program, records, command, f, "");
    fclose(m);
    /* Two lines "replay:  CMD" and "re-feed: CMD": keep the one asked for. */
    char *second = strchr(text, '\n');
    char *want = refeed && second ? second + 1 : text;
    want += strlen("re-feed: ");
    char *end = strchr(want, '\n');
    if (end)
        *end = '\0';
    char *copy = tx_strdup(want);
    free(text);
    return copy;
}

static void print_json(FILE *out, const char *program, const struct tx_validate_config *c,
                       const struct tx_validate_report *rep)
{
    const struct tx_refeed_result *p = &rep->probe;
    cJSON *root = cJSON_CreateObject();
    cJSON *bot = cJSON_AddObjectToObject(root, "bot");
    cJSON_AddStringToObject(bot, "name", c->name);
    cJSON_AddStringToObject(bot, "command", c->command);
    cJSON_AddBoolToObject(root, "passed", rep->passed);
    cJSON_AddStringToObject(root, "records", c->records);
    cJSON *limits = cJSON_AddObjectToObject(root, "limits");
    cJSON_AddNumberToObject(limits, "first_turn_ms", c->first_turn_ms);
    cJSON_AddNumberToObject(limits, "turn_ms", c->turn_ms);
    cJSON_AddNumberToObject(limits, "margin_ms", c->margin_ms);
    cJSON_AddNumberToObject(root, "size", c->geo->size);
    cJSON *games = cJSON_AddArrayToObject(root, "games");
    for (int i = 0; i < rep->ngames; i++) {
        const struct tx_validate_game *g = &rep->games[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "game", (double)g->index);
        cJSON_AddStringToObject(o, "scenario", tx_validate_scenario_name(g->scenario));
        cJSON_AddNumberToObject(o, "player", g->player + 1);
        cJSON_AddStringToObject(o, "opponent", g->opponent);
        cJSON_AddNumberToObject(o, "forced", g->nforced);
        cJSON_AddStringToObject(o, "result", g->reason == TX_REASON_INTERRUPTED ? "not played"
                                             : g->winner < 0                   ? "draw"
                                             : g->winner == g->player          ? "won"
                                                                               : "lost");
        const char *reason = tx_reason_name((enum tx_reason)g->reason);
        cJSON_AddStringToObject(o, "reason", reason ? reason : "?");
        cJSON_AddStringToObject(o, "detail", g->detail);
        cJSON_AddNumberToObject(o, "moves", g->nmoves);
        cJSON_AddItemToArray(games, o);
    }
    cJSON *skipped = cJSON_AddArrayToObject(root, "skipped");
    for (int s = 0; s <= TX_SCENARIO_CROSSING; s++)
        if ((rep->skipped & (1u << s)) || (s == TX_SCENARIO_SWAP && rep->swap_skipped))
            cJSON_AddItemToArray(skipped,
                                 cJSON_CreateString(tx_validate_scenario_name((enum tx_validate_scenario)s)));
    cJSON *findings = cJSON_AddArrayToObject(root, "findings");
    for (int i = 0; i < rep->nfindings; i++) {
        const struct tx_validate_finding *f = &rep->findings[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "check", tx_validate_check_name(f->check));
        cJSON_AddNumberToObject(o, "game", (double)f->game);
        cJSON_AddNumberToObject(o, "move", f->move);
        cJSON_AddNumberToObject(o, "player", f->player + 1);
        cJSON_AddStringToObject(o, "what", f->what);
        if (f->input)
            cJSON_AddStringToObject(o, "input", f->input);
        if (f->stderr_text)
            cJSON_AddStringToObject(o, "stderr", f->stderr_text);
        char *replay = command_text(program, c->records, c->command, f, false);
        char *refeed = command_text(program, c->records, c->command, f, true);
        cJSON_AddStringToObject(o, "replay", replay);
        cJSON_AddStringToObject(o, "refeed", refeed);
        free(replay);
        free(refeed);
        cJSON_AddItemToArray(findings, o);
    }
    cJSON *times = cJSON_AddObjectToObject(root, "times");
    cJSON_AddItemToObject(times, "first_turn", times_json(&rep->first, c->margin_ms));
    cJSON_AddItemToObject(times, "later_turns", times_json(&rep->later, c->margin_ms));
    if (p->startup_us >= 0)
        cJSON_AddNumberToObject(root, "startup_ms", (double)p->startup_us / 1000.0);
    else
        cJSON_AddNullToObject(root, "startup_ms");
    cJSON *err = cJSON_AddObjectToObject(root, "stderr");
    cJSON_AddNumberToObject(err, "bytes", (double)rep->stderr_bytes);
    cJSON_AddNumberToObject(err, "max_per_game", (double)rep->stderr_max);
    cJSON_AddNumberToObject(err, "kept_per_game", TX_VALIDATE_STDERR_MAX);
    cJSON_AddNumberToObject(root, "extra_lines", (double)rep->extra_lines);
    cJSON_AddNumberToObject(root, "long_messages", rep->long_messages);
    cJSON *exit = cJSON_AddObjectToObject(root, "exit_on_stdin_close");
    cJSON_AddBoolToObject(exit, "probed", p->probed);
    cJSON_AddNumberToObject(exit, "game", (double)rep->probe_game);
    if (p->probed) {
        cJSON_AddBoolToObject(exit, "exited", p->exited);
        if (p->exited) {
            cJSON_AddNumberToObject(exit, "ms", (double)p->exit_us / 1000.0);
            cJSON_AddStringToObject(exit, "status", p->exit_detail);
        }
    }
    cJSON *left = cJSON_AddArrayToObject(root, "processes_left");
    for (int i = 0; p->exited && i < p->nleft && i < TX_REFEED_LEFT_MAX; i++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "pid", p->left_pids[i]);
        cJSON_AddStringToObject(o, "name", p->left_names[i]);
        cJSON_AddItemToArray(left, o);
    }
    char *text = cJSON_PrintUnformatted(root);
    if (!text)
        abort();
    fprintf(out, "%s\n", text);
    cJSON_free(text);
    cJSON_Delete(root);
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
        fprintf(stderr, "twixt-arena validate: %s\n(twixt-arena validate --help for the options)\n", err);
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
                : exists        ? "not executable: chmod +x it, or name its interpreter, e.g. \"python3 FILE\""
                                : "no such executable file, or not in $PATH");
        goto out;
    }
    for (int i = 0; i < x.nopponents; i++)
        if (!runnable(x.opponents[i], o.size, program, sizeof program)) {
            fprintf(stderr, "twixt-arena validate: --opponent: cannot run '%s'\n", program);
            goto out;
        }
    if (o.games > TX_VALIDATE_ROUNDS_MAX) {
        fprintf(stderr, "twixt-arena validate: --games: at most %d rounds\n", TX_VALIDATE_ROUNDS_MAX);
        goto out;
    }
    random = bundled("twixt-random", "");
    char strong_extra[32];
    int strong_ms = o.turn_ms / 3 < STRONG_MS_MAX ? o.turn_ms / 3 : STRONG_MS_MAX;
    snprintf(strong_extra, sizeof strong_extra, " --ms %d", strong_ms > 1 ? strong_ms : 1);
    strong = bundled("twixt-mcts", strong_extra);
    if (!x.nopponents && !random && !strong) {
        fprintf(stderr, "twixt-arena validate: no bundled bots next to the program (../bots/twixt-random); "
                        "name opponents with --opponent CMD\n");
        goto out;
    }
    if (!(geo = malloc(sizeof *geo)) || tx_geometry_init(geo, o.size) < 0) {
        fprintf(stderr, "twixt-arena validate: --size: cannot build a %d x %d board\n", o.size, o.size);
        goto out;
    }
    if (!o.output) {
        int fd;
        snprintf(records, sizeof records, "/tmp/twixt-validate-XXXXXX.jsonl");
        if ((fd = mkstemps(records, 6)) < 0) {
            fprintf(stderr, "twixt-arena validate: cannot create a records file in /tmp: %s\n", strerror(errno));
            goto out;
        }
        close(fd);
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
        print_json(stdout, self, &c, &rep);
    else
        print_report(stdout, self, &c, &rep);
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
