/* validate-report.c - the report of `twixt-arena validate`, printed: the
 * contract of validate-report.h.
 *
 * The text report is for a person: a line per game, the answer times, the
 * probe, the verdict, then each finding (failures first): what happened,
 * in how many games, its first occurrence in full with the input and
 * stderr that go with it and the commands that replay it and re-feed the
 * bot. The JSON report carries the same, complete, for a script. Bot text
 * is printed with control characters replaced (tx_render_text_safe).
 */
#include <cjson/cJSON.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "command.h"
#include "options.h"
#include "record.h"
#include "render-text.h"
#include "validate-report.h"

#define INPUT_LINES_SHOWN 40  /* of an input that provoked an illegal answer, in the text report */
#define STDERR_LINES_SHOWN 10 /* of the stderr of a failing turn */
#define GAMES_SHOWN 20        /* games of a finding named after its first, in the text report */

/* ---- the text report ---- */

/* s as one shell word: as is when it is plain, else in single quotes
 * (tx_options_shell_command's quoting). */
static void print_word(FILE *out, const char *s)
{
    char *argv[] = {(char *)s};
    size_t cap = 4 * strlen(s) + 8; /* every ' becomes '\'' inside the quotes */
    char *word = tx_xmalloc(cap);
    tx_options_shell_command(1, argv, word, cap);
    fputs(word, out);
    free(word);
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

static void print_times(FILE *out, const char *kind, const struct tx_validate_times *t,
                        int margin_ms)
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

static void print_game(FILE *out, const struct tx_validate_config *c,
                       const struct tx_validate_game *g)
{
    char what[96];
    const char *scenario = tx_validate_scenario_name(g->scenario);
    switch (g->scenario) {
    case TX_SCENARIO_OPPONENT:
        snprintf(what, sizeof what, "against %s", g->opponent);
        break;
    case TX_SCENARIO_SWAP:
        snprintf(what, sizeof what, "swapped by %s", g->opponent);
        break;
    case TX_SCENARIO_DIAGONAL:
    case TX_SCENARIO_OFF_DIAGONAL:
        snprintf(what, sizeof what, "%s first peg", scenario);
        break;
    case TX_SCENARIO_BLOCKED:
        snprintf(what, sizeof what, "blocked by %s", g->opponent);
        break;
    case TX_SCENARIO_CROSSING: /* under classic its links cannot cross: it flips them */
        snprintf(what, sizeof what, "%s links of %s",
                 c->rules == TX_RULES_CLASSIC ? "flipped" : "crossing", g->opponent);
        break;
    case TX_SCENARIO_EDITS:
        snprintf(what, sizeof what, "links edited by %s", g->opponent);
        break;
    default:
        snprintf(what, sizeof what, "%s, %d forced", scenario, g->nforced);
    }
    fprintf(out, "  %5" PRId64 "  %-32s  %d  ", g->index, what, g->player + 1);
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
    fprintf(out, ", %d move%s", g->nmoves, g->nmoves == 1 ? "" : "s");
    if ((g->scenario == TX_SCENARIO_BLOCKED || g->scenario == TX_SCENARIO_FORCED_LATE) &&
        g->fewest_holes >= 0)
        fprintf(out, ", fewest legal holes %d", g->fewest_holes);
    if (!g->codingame)
        fputs(" [arena only]", out);
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
            char *copy = tx_strndup(line, n);
            fputs("       ", out);
            tx_render_text_safe(out, copy, 200);
            fputc('\n', out);
            free(copy);
        }
        line += n + (line[n] == '\n');
    }
    if (lines > max)
        fprintf(out, "       ... %d more lines of the %s (all in the --json report)\n", lines - max,
                what);
}

static const char *severity(enum tx_validate_check check)
{
    return tx_validate_check_fails(check) ? "failure" : "warning";
}

static void print_finding(FILE *out, const char *program, const struct tx_validate_config *c,
                          const struct tx_validate_report *rep, int i)
{
    const struct tx_validate_finding *f = &rep->findings[i];
    fprintf(out, "%3d. %s (%s%s), ", i + 1, tx_validate_check_name(f->check), severity(f->check),
            f->arena_only ? ", arena only" : "");
    if (f->count == 1)
        fprintf(out, "game %" PRId64, f->game);
    else
        fprintf(out, "%d games", f->count);
    fputs(": ", out);
    tx_render_text_safe(out, f->what, sizeof f->what);
    fprintf(out, "\n     %s game %" PRId64, f->count > 1 ? "first in" : "in", f->game);
    if (f->move > 0)
        fprintf(out, ", move %d", f->move);
    fprintf(out, ", as player %d", f->player + 1);
    for (int k = 1; k < f->count && k <= GAMES_SHOWN; k++)
        fprintf(out, "%s%" PRId64, k == 1 ? "; also in games " : ", ", f->games[k]);
    if (f->count > GAMES_SHOWN + 1)
        fprintf(out, " and %d more", f->count - GAMES_SHOWN - 1);
    fputc('\n', out);
    if (f->input) {
        fputs("     the input that provoked it:\n", out);
        print_lines(out, f->input, INPUT_LINES_SHOWN, "input");
    }
    if (f->stderr_text) {
        fputs("     its stderr in that turn (end):\n", out);
        print_lines(out, f->stderr_text, STDERR_LINES_SHOWN, "stderr of the turn");
    }
    print_commands(out, program, rep->records, c->command, f, "     ");
}

void tx_validate_report_print(FILE *out, const char *program, const struct tx_validate_config *c,
                              const struct tx_validate_report *rep)
{
    const struct tx_refeed_result *p = &rep->probe;
    fputs("validate ", out);
    tx_render_text_safe(out, c->name, 64);
    fputs(": ", out);
    tx_render_text_safe(out, c->command, 400);
    bool codingame = tx_validate_codingame(c, TX_SCENARIO_OPPONENT);
    char opening[48] = "";
    if (c->opening != TX_OPENING_SWAP)
        snprintf(opening, sizeof opening, ", opening %s", tx_opening_rule_name(c->opening));
    fprintf(out,
            "\nlimits: first turn %d ms, later turns %d ms, margin %d ms; board %d x %d%s%s%s\n",
            c->limits.first_turn_ms, c->limits.turn_ms, c->limits.margin_ms, c->geo->width,
            c->geo->height, c->rules == TX_RULES_PP ? "" : ", classic rules", opening,
            codingame ? ""
                      : " (CodinGame plays pp on 12 x 12 with its swap only: every game is arena "
                        "only)");
    if (c->bundled_dir)
        fprintf(out, "bundled opponents: %s, %s\n", c->bundled_layout, c->bundled_dir);
    fprintf(out, "sandbox: %s\n", rep->sandbox);
    if (rep->records[0])
        fprintf(out, "records: %s (%d games%s)\n\n", rep->records, rep->ngames,
                rep->records_temporary ? "; kept for the findings below" : "");
    else
        fprintf(out, "records: none kept (%d games; nothing to replay)\n\n", rep->ngames);
    fprintf(out, "  %5s  %-32s  %s  %s\n", "game", "scenario", "P", "result for the bot");
    for (int i = 0; i < rep->ngames; i++)
        print_game(out, c, &rep->games[i]);
    for (int s = 0; s < TX_SCENARIOS; s++)
        if (rep->skipped[s])
            fprintf(out, "  (no %s game: %s)\n",
                    tx_validate_scenario_name((enum tx_validate_scenario)s), rep->skipped[s]);

    fprintf(out, "\nanswer times (ms)   count     p50     p95     p99     max   limit   margin\n");
    print_times(out, "first turn", &rep->first, c->limits.margin_ms);
    print_times(out, "later turns", &rep->later, c->limits.margin_ms);
    if (p->startup_us >= 0)
        fprintf(out, "start-up: %.1f ms from spawn to the first answer (game %" PRId64 " re-fed)\n",
                (double)p->startup_us / 1000.0, rep->probe_game);
    else
        fputs("start-up: not measured (no answer in the re-fed game)\n", out);
    fprintf(out,
            "stderr: %" PRId64 " bytes in all, at most %" PRId64
            " in one game (%d kept per game)\n",
            rep->stderr_bytes, rep->stderr_max, TX_VALIDATE_STDERR_MAX);
    fprintf(out, "extra output lines: %" PRId64 "; messages over %d characters: %d\n",
            rep->extra_lines, TX_MESSAGE_CHARS, rep->long_messages);
    if (!p->probed)
        fputs("exit when stdin closes: not probed (the bot was gone before the probe)\n", out);
    else if (p->exited)
        fprintf(out, "exit when stdin closes: yes, in %.1f ms (%s)\n", (double)p->exit_us / 1000.0,
                p->exit_detail);
    else
        fprintf(out, "exit when stdin closes: NO, still running after %d ms\n",
                TX_REFEED_EXIT_WAIT_MS);
    if (p->probed && p->exited)
        fprintf(out, "processes left behind: %s\n", p->nleft ? "YES (see below)" : "none");
    else if (p->probed)
        fprintf(
            out,
            "processes left behind: unknown (it did not exit; %d other process%s in its session)\n",
            p->nleft, p->nleft == 1 ? "" : "es");

    fputc('\n', out);
    if (!rep->passed)
        fprintf(out, "FAILED: %d failure%s (a loss on CodinGame), %d warning%s\n", rep->nfailures,
                rep->nfailures == 1 ? "" : "s", rep->nwarnings, rep->nwarnings == 1 ? "" : "s");
    else if (rep->nwarnings)
        fprintf(out, "PASSED with %d warning%s (not a loss on CodinGame)\n", rep->nwarnings,
                rep->nwarnings == 1 ? "" : "s");
    else
        fputs("PASSED: no failure, no warning\n", out);
    for (int i = 0; i < rep->nfindings; i++)
        print_finding(out, program, c, rep, i);
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
    cJSON_AddNumberToObject(o, "margin_ms",
                            (double)(t->limit_ms + margin_ms) - (double)t->max / 1000.0);
    cJSON_AddBoolToObject(o, "tight", tight(t));
    return o;
}

static char *command_text(const char *program, const char *records, const char *command,
                          const struct tx_validate_finding *f, bool refeed)
{
    char *text = NULL;
    size_t len = 0;
    FILE *m = tx_xcheck(open_memstream(&text, &len));
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

void tx_validate_report_print_json(FILE *out, const char *program,
                                   const struct tx_validate_config *c,
                                   const struct tx_validate_report *rep)
{
    const struct tx_refeed_result *p = &rep->probe;
    cJSON *root = cJSON_CreateObject();
    cJSON *bot = cJSON_AddObjectToObject(root, "bot");
    cJSON_AddStringToObject(bot, "name", c->name);
    cJSON_AddStringToObject(bot, "command", c->command);
    cJSON_AddBoolToObject(root, "passed", rep->passed);
    cJSON_AddNumberToObject(root, "failures", rep->nfailures);
    cJSON_AddNumberToObject(root, "warnings", rep->nwarnings);
    if (rep->records[0])
        cJSON_AddStringToObject(root, "records", rep->records);
    else
        cJSON_AddNullToObject(root, "records");
    if (c->bundled_dir) {
        cJSON *bundled = cJSON_AddObjectToObject(root, "bundled");
        cJSON_AddStringToObject(bundled, "layout", c->bundled_layout);
        cJSON_AddStringToObject(bundled, "dir", c->bundled_dir);
    } else {
        cJSON_AddNullToObject(root, "bundled");
    }
    cJSON *sandbox = cJSON_AddObjectToObject(root, "sandbox");
    cJSON_AddBoolToObject(sandbox, "active", rep->sandbox_active);
    cJSON_AddStringToObject(sandbox, "mode", tx_sandbox_mode_name(rep->sandbox_mode));
    cJSON_AddStringToObject(sandbox, "description", rep->sandbox);
    cJSON *limits = cJSON_AddObjectToObject(root, "limits");
    cJSON_AddNumberToObject(limits, "first_turn_ms", c->limits.first_turn_ms);
    cJSON_AddNumberToObject(limits, "turn_ms", c->limits.turn_ms);
    cJSON_AddNumberToObject(limits, "margin_ms", c->limits.margin_ms);
    if (c->geo->width == c->geo->height) {
        cJSON_AddNumberToObject(root, "size", c->geo->width);
    } else {
        cJSON_AddNumberToObject(root, "width", c->geo->width);
        cJSON_AddNumberToObject(root, "height", c->geo->height);
    }
    if (c->rules != TX_RULES_PP)
        cJSON_AddStringToObject(root, "rules", tx_ruleset(c->rules)->name);
    if (c->opening != TX_OPENING_SWAP)
        cJSON_AddStringToObject(root, "opening", tx_opening_rule_name(c->opening));
    cJSON_AddBoolToObject(root, "forced_openings", c->forced_openings);
    cJSON *games = cJSON_AddArrayToObject(root, "games");
    for (int i = 0; i < rep->ngames; i++) {
        const struct tx_validate_game *g = &rep->games[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "game", (double)g->index);
        cJSON_AddStringToObject(o, "scenario", tx_validate_scenario_name(g->scenario));
        cJSON_AddNumberToObject(o, "player", g->player + 1);
        cJSON_AddStringToObject(o, "opponent", g->opponent);
        cJSON_AddNumberToObject(o, "forced", g->nforced);
        cJSON_AddBoolToObject(o, "codingame", g->codingame);
        cJSON_AddStringToObject(o, "result",
                                g->reason == TX_REASON_INTERRUPTED ? "not played"
                                : g->winner < 0                    ? "draw"
                                : g->winner == g->player           ? "won"
                                                                   : "lost");
        const char *reason = tx_reason_name((enum tx_reason)g->reason);
        cJSON_AddStringToObject(o, "reason", reason ? reason : "?");
        cJSON_AddStringToObject(o, "detail", g->detail);
        cJSON_AddNumberToObject(o, "moves", g->nmoves);
        if (g->fewest_holes >= 0)
            cJSON_AddNumberToObject(o, "fewest_holes", g->fewest_holes);
        else
            cJSON_AddNullToObject(o, "fewest_holes");
        cJSON_AddItemToArray(games, o);
    }
    cJSON *skipped = cJSON_AddArrayToObject(root, "skipped");
    for (int s = 0; s < TX_SCENARIOS; s++)
        if (rep->skipped[s]) {
            cJSON *o = cJSON_CreateObject();
            cJSON_AddStringToObject(o, "scenario",
                                    tx_validate_scenario_name((enum tx_validate_scenario)s));
            cJSON_AddStringToObject(o, "why", rep->skipped[s]);
            cJSON_AddItemToArray(skipped, o);
        }
    cJSON *findings = cJSON_AddArrayToObject(root, "findings");
    for (int i = 0; i < rep->nfindings; i++) {
        const struct tx_validate_finding *f = &rep->findings[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "check", tx_validate_check_name(f->check));
        cJSON_AddStringToObject(o, "severity", severity(f->check));
        cJSON_AddBoolToObject(o, "arena_only", f->arena_only);
        cJSON_AddNumberToObject(o, "count", f->count);
        cJSON *in_games = cJSON_AddArrayToObject(o, "games");
        for (int k = 0; k < f->count; k++)
            cJSON_AddItemToArray(in_games, cJSON_CreateNumber((double)f->games[k]));
        cJSON_AddNumberToObject(o, "game", (double)f->game);
        cJSON_AddNumberToObject(o, "move", f->move);
        cJSON_AddNumberToObject(o, "player", f->player + 1);
        cJSON_AddStringToObject(o, "what", f->what);
        if (f->input)
            cJSON_AddStringToObject(o, "input", f->input);
        if (f->stderr_text)
            cJSON_AddStringToObject(o, "stderr", f->stderr_text);
        char *replay = command_text(program, rep->records, c->command, f, false);
        char *refeed = command_text(program, rep->records, c->command, f, true);
        cJSON_AddStringToObject(o, "replay", replay);
        cJSON_AddStringToObject(o, "refeed", refeed);
        free(replay);
        free(refeed);
        cJSON_AddItemToArray(findings, o);
    }
    cJSON *times = cJSON_AddObjectToObject(root, "times");
    cJSON_AddItemToObject(times, "first_turn", times_json(&rep->first, c->limits.margin_ms));
    cJSON_AddItemToObject(times, "later_turns", times_json(&rep->later, c->limits.margin_ms));
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
    char *text = tx_xcheck(cJSON_PrintUnformatted(root));
    fprintf(out, "%s\n", text);
    cJSON_free(text);
    cJSON_Delete(root);
}
