/* cmd-standings.c - `twixt-arena standings FILE... [--json]`.
 *
 * Merges the records of every FILE (the shards of a run, several runs, a
 * file still being written) into one table and crosstable. Reading is all
 * in standings.c; this file parses the command line and maps problems to
 * exit codes: a file that cannot be read or holds a corrupt line is exit 2.
 */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "standings.h"

static const char usage[] =
    "usage: twixt-arena standings FILE... [--json]\n"
    "  Standings and crosstable from game records (JSON Lines, as written by\n"
    "  play and tournament -o). Several files are merged; \"-\" reads stdin.\n"
    "  --json   print the same data as one JSON object\n";

int tx_cmd_standings(int argc, char **argv)
{
    bool json = false, options_done = false;
    int nfiles = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (options_done || a[0] != '-' || strcmp(a, "-") == 0) {
            nfiles++;
        } else if (strcmp(a, "--") == 0) {
            options_done = true;
        } else if (strcmp(a, "--json") == 0) {
            json = true;
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
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!options_done && strcmp(a, "--") == 0) {
            options_done = true;
            continue;
        }
        if (!options_done && a[0] == '-' && strcmp(a, "-") != 0)
            continue;
        char err[1024];
        if (tx_standings_read(&s, a, stderr, err, sizeof(err)) < 0) {
            fprintf(stderr, "twixt-arena standings: %s\n", err);
            tx_standings_free(&s);
            return TX_EXIT_USAGE;
        }
    }
    int r = json ? tx_standings_print_json(&s, stdout) : tx_standings_print(&s, stdout);
    tx_standings_free(&s);
    if (r < 0 || fflush(stdout) != 0) {
        fprintf(stderr, "twixt-arena standings: cannot write the standings\n");
        return TX_EXIT_USAGE;
    }
    return TX_EXIT_OK;
}
