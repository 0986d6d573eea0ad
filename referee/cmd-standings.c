/* cmd-standings.c - `twixt-arena standings FILE... [--json] [--skip-invalid]
 * [--since DATE] [--bots A,B] [--bot NAME] [--merge-builds]`.
 *
 * Merges the records of every FILE (the shards of a run, several runs, a
 * file still being written) into one table and crosstable, then shows the
 * newest bot (or --bot NAME) against each opponent. Games of different
 * conditions (rule sets, boards, openings; handicap games apart from even
 * ones) are never merged: each has its own table, crosstable and newest
 * bot, one after the other (with --json, one object per line), in the
 * order the files first show them (tx_standings_print_all). Reading and checking
 * is all in standings-read.c; this file takes the command line (options.h)
 * and maps problems to exit codes: a file that cannot be read, holds a
 * line that is not a record (unless --skip-invalid) or no record at all, or
 * standings that cannot be written, is exit 2; a record that failed its
 * checks (not counted) is exit 1, after the standings of the others.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "commands.h"
#include "output.h"
#include "render-dashboard.h"
#include "standings.h"

const struct tx_options_command tx_cmd_standings_line = {
    .name = "standings",
    .id = TX_CMD_STANDINGS,
    .operands = "FILE...",
    .operand = TX_OPERAND_FILE,
    .min_operands = 1,
    .max_operands = INT_MAX,
    .summary = "standings and crosstable from records",
    .about = "Standings and crosstable from game records (JSON Lines, as written by play and\n"
             "tournament -o). Several files are merged (the shards of a run, resumed runs);\n"
             "\"-\" reads standard input. A game recorded twice counts once; two different\n"
             "records of one game are an error. Each record is checked (the rules, the\n"
             "game its pairing scheduled, its place in the file's hash chain); one that\n"
             "fails is reported with FILE:LINE, not counted, and the exit status is 1.\n",
};

/* Reads every FILE into s. Returns 0, or TX_EXIT_USAGE with the message printed. */
static int read_files(struct tx_standings *s, const struct tx_options *o)
{
    int64_t records = 0;
    for (int i = 0; i < o->noperands; i++) {
        const char *a = o->operands[i];
        char err[2048];
        int64_t in_file;
        if (tx_standings_read(s, a, o->skip_invalid, stderr, &in_file, err, sizeof(err)) < 0) {
            fprintf(stderr, "twixt-arena standings: %s\n", err);
            return TX_EXIT_USAGE;
        }
        const char *shown = strcmp(a, "-") ? a : "(stdin)";
        if (in_file == 0 && o->noperands == 1) {
            /* "0 bots, 0 games" would pass for a result in a script. */
            fprintf(stderr, "twixt-arena standings: %s holds no game records\n", shown);
            return TX_EXIT_USAGE;
        }
        if (in_file == 0)
            fprintf(stderr, "twixt-arena standings: warning: %s holds no game records\n", shown);
        records += in_file;
    }
    if (records == 0) {
        fprintf(stderr, "twixt-arena standings: none of the files holds a game record\n");
        return TX_EXIT_USAGE;
    }
    if (s->skipped > 0)
        fprintf(stderr,
                "twixt-arena standings: warning: %" PRId64 " line%s left out (--skip-invalid)\n",
                s->skipped, s->skipped == 1 ? "" : "s");
    return 0;
}

/* "a,b,c" into names (pointing into copy, which the caller frees). */
static int split_names(const char *list, char **copy, const char ***names)
{
    int n = 1;
    for (const char *p = list; *p; p++)
        n += *p == ',';
    *copy = tx_strdup(list);
    *names = tx_xcalloc((size_t)n, sizeof **names);
    n = 0;
    for (char *save = NULL, *name = strtok_r(*copy, ",", &save); name;
         name = strtok_r(NULL, ",", &save))
        (*names)[n++] = name;
    return n;
}

/* --format html -o FILE: the dashboard, and its pairings' viewer pages in
 * FILE's -games directory (none for games read from standard input).
 * Returns 0, or TX_EXIT_USAGE with the message printed. */
static int write_dashboard(const struct tx_standings *s, const struct tx_options *o)
{
    char dir[4096], err[4400];
    bool pages = true;
    for (int i = 0; i < o->noperands; i++)
        pages &= strcmp(o->operands[i], "-") != 0;
    tx_dashboard_pages_dir(o->output, dir, sizeof dir);
    const char *slash = strrchr(dir, '/'), *link = slash ? slash + 1 : dir;
    char *text = NULL;
    size_t len = 0;
    FILE *page = open_memstream(&text, &len);
    int rc = page ? 0 : -ENOMEM;
    if (rc == 0) {
        const char *title = o->noperands == 1 ? o->operands[0] : "standings";
        rc = tx_render_dashboard(page, s, title, pages ? link : NULL);
        if (fclose(page) != 0 && rc == 0)
            rc = -ENOMEM;
    }
    if (rc == 0 && pages && (rc = tx_dashboard_write_pages(s, dir, err, sizeof err)) < 0) {
        fprintf(stderr, "twixt-arena standings: %s\n", err);
        free(text);
        return TX_EXIT_USAGE;
    }
    if (rc == 0 && (rc = tx_dashboard_replace(o->output, text, len)) < 0)
        fprintf(stderr, "twixt-arena standings: cannot write %s: %s\n", o->output, strerror(-rc));
    else if (rc < 0)
        fprintf(stderr, "twixt-arena standings: out of memory\n");
    free(text);
    return rc < 0 ? TX_EXIT_USAGE : 0;
}

int tx_cmd_standings(const char *program, int argc, char **argv)
{
    struct tx_options o;
    int status = tx_options_cli(&o, &tx_cmd_standings_line, program, argc, argv);
    if (status != TX_OPTIONS_CONTINUE) {
        tx_options_free(&o);
        return status;
    }
    bool html = o.standings_format == TX_STANDINGS_HTML;
    if (html != (o.output != NULL)) {
        status = tx_options_usage_error(&tx_cmd_standings_line, program,
                                        html ? "--format html writes a page: give -o FILE"
                                             : "-o FILE goes with --format html");
        tx_options_free(&o);
        return status;
    }
    if (html && o.json) {
        status = tx_options_usage_error(&tx_cmd_standings_line, program,
                                        "--json and --format html: give one");
        tx_options_free(&o);
        return status;
    }
    struct tx_standings s;
    char *only_copy = NULL;
    tx_standings_init(&s);
    s.since = o.since;
    s.merge_builds = o.merge_builds;
    if (o.only_bots)
        s.nonly = split_names(o.only_bots, &only_copy, &s.only);
    status = read_files(&s, &o);
    bool found = !o.focus;
    for (struct tx_standings *t = &s; status == 0 && t; t = t->next) {
        found = found || tx_standings_find(t, o.focus) >= 0;
        t->show_variant = s.next != NULL; /* several rule sets or boards: say which is which */
    }
    if (status == 0 && !found)
        status = tx_options_usage_error(&tx_cmd_standings_line, program,
                                        "--bot: no bot named '%s' in the games counted", o.focus);
    if (status == 0) {
        int r = 0;
        for (struct tx_standings *t = &s; t; t = t->next)
            tx_standings_warn_builds(t, stderr);
        if (!html)
            r = tx_standings_print_all(&s, &o.focus, o.focus ? 1 : 0, !o.focus, o.json, stdout);
        if (html) {
            /* One page shows one condition's even games (the first read) and
             * every handicap table. */
            const struct tx_standings *shown = tx_dashboard_shown(&s);
            for (const struct tx_standings *t = &s; t; t = t->next) {
                if (t == shown || t->handicapped)
                    continue;
                char opening[64] = "";
                if (t->variant.opening != TX_OPENING_SWAP)
                    snprintf(opening, sizeof opening, ", %s opening",
                             tx_opening_rule_name(t->variant.opening));
                fprintf(stderr,
                        "twixt-arena standings: the dashboard shows the games of the first rule "
                        "set, board and opening read; %" PRId64 " game%s of %s rules on %d x %d%s "
                        "%s not in it (the text standings show them)\n",
                        t->counted, t->counted == 1 ? "" : "s", tx_ruleset(t->variant.rules)->name,
                        t->variant.width, t->variant.height, opening,
                        t->counted == 1 ? "is" : "are");
            }
        }
        if (r < 0) {
            fprintf(stderr, "twixt-arena standings: out of memory\n");
            status = TX_EXIT_USAGE;
        } else if (html) {
            status = write_dashboard(&s, &o);
        } else if (tx_output_finish(stdout, "standard output", "twixt-arena standings") < 0) {
            status = TX_EXIT_USAGE;
        }
    }
    if (status == 0 && s.rejected > 0) {
        fprintf(stderr,
                "twixt-arena standings: %" PRId64 " record%s failed a check and %s not counted "
                "(see above)\n",
                s.rejected, s.rejected == 1 ? "" : "s", s.rejected == 1 ? "was" : "were");
        status = TX_EXIT_FAILED;
    }
    const char **only = s.only;
    tx_standings_free(&s);
    free(only);
    free(only_copy);
    tx_options_free(&o);
    return status;
}
