/* cmd-standings.c - `twixt-arena standings FILE... [--json]`.
 *
 * Merges the records of every FILE (the shards of a run, several runs, a
 * file still being written) into one table and crosstable. Reading is all
 * in standings-read.c; this file parses the command line and maps problems
 * to exit codes: a file that cannot be read, holds a line that is not a
 * record (unless --skip-invalid) or no record at all, or standings that
 * cannot be written, is exit 2.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "output.h"
#include "standings.h"

static const char usage[] =
    "usage: twixt-arena standings FILE... [--json] [--skip-invalid]\n"
    "  Standings and crosstable from game records (JSON Lines, as written by\n"
    "  play and tournament -o). Several files are merged; \"-\" reads stdin.\n"
    "  --json          print the same data as one JSON object\n"
    "  --skip-invalid  leave out lines that are not records (each one reported)\n";

int tx_cmd_standings(int argc, char **argv)
{
    bool json = false, skip_invalid = false, options_done = false;
    int nfiles = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (options_done || a[0] != '-' || strcmp(a, "-") == 0) {
            nfiles++;
        } else if (strcmp(a, "--") == 0) {
            options_done = true;
        } else if (strcmp(a, "--json") == 0) {
            json = true;
        } else if (strcmp(a, "--skip-invalid") == 0) {
            skip_invalid = true;
        } else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            fputs(usage, stdout);
            return TX_EXIT_OK;
        } else {
            fprintf(stderr, "twixt-arena standings: unknown option %s\n%s", a, usage);
            return TX_EXIT_USAGE;
        }
    }
    if (nfiles == 0) {
        fprintf(stderr, "twixt-arena standings: no FILE given\n%s", usage);
        return TX_EXIT_USAGE;
    }

    struct tx_standings s;
    tx_standings_init(&s);
    options_done = false;
    int64_t records = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!options_done && strcmp(a, "--") == 0) {
            options_done = true;
            continue;
        }
        if (!options_done && a[0] == '-' && strcmp(a, "-") != 0)
            continue;
        char err[2048];
        int64_t in_file;
        if (tx_standings_read(&s, a, skip_invalid, stderr, &in_file, err, sizeof(err)) < 0) {
            fprintf(stderr, "twixt-arena standings: %s\n", err);
            tx_standings_free(&s);
            return TX_EXIT_USAGE;
        }
        const char *shown = strcmp(a, "-") ? a : "(stdin)";
        if (in_file == 0 && nfiles == 1) {
            /* "0 bots, 0 games" would pass for a result in a script. */
            fprintf(stderr, "twixt-arena standings: %s holds no game records\n", shown);
            tx_standings_free(&s);
            return TX_EXIT_USAGE;
        }
        if (in_file == 0)
            fprintf(stderr, "twixt-arena standings: warning: %s holds no game records\n", shown);
        records += in_file;
    }
    if (records == 0) {
        fprintf(stderr, "twixt-arena standings: none of the files holds a game record\n");
        tx_standings_free(&s);
        return TX_EXIT_USAGE;
    }
    if (s.skipped > 0)
        fprintf(stderr,
                "twixt-arena standings: warning: %" PRId64 " line%s left out (--skip-invalid)\n",
                s.skipped, s.skipped == 1 ? "" : "s");
    int r = json ? tx_standings_print_json(&s, stdout) : tx_standings_print(&s, stdout);
    tx_standings_free(&s);
    if (r < 0) {
        fprintf(stderr, "twixt-arena standings: out of memory\n");
        return TX_EXIT_USAGE;
    }
    if (tx_output_finish(stdout, "standard output", "twixt-arena standings") < 0)
        return TX_EXIT_USAGE;
    return TX_EXIT_OK;
}
