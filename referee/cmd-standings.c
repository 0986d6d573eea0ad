/* cmd-standings.c - `twixt-arena standings FILE... [--json]`.
 *
 * Merges the records of every FILE (the shards of a run, several runs, a
 * file still being written) into one table and crosstable. Reading is all
 * in standings-read.c; this file takes the command line (options.h) and
 * maps problems to exit codes: a file that cannot be read or holds a
 * corrupt line is exit 2.
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
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
             "\"-\" reads standard input. A game recorded twice counts once.\n",
};

int tx_cmd_standings(const char *program, int argc, char **argv)
{
    struct tx_options o;
    int status = tx_options_cli(&o, &tx_cmd_standings_line, program, argc, argv);
    if (status != TX_OPTIONS_CONTINUE) {
        tx_options_free(&o);
        return status;
    }
    bool json = o.json;

    struct tx_standings s;
    tx_standings_init(&s);
    for (int i = 0; i < o.noperands; i++) {
        const char *a = o.operands[i];
        char err[1024];
        if (tx_standings_read(&s, a, stderr, err, sizeof(err)) < 0) {
            fprintf(stderr, "twixt-arena standings: %s\n", err);
            tx_standings_free(&s);
            tx_options_free(&o);
            return TX_EXIT_USAGE;
        }
    }
    tx_options_free(&o);
    int r = json ? tx_standings_print_json(&s, stdout) : tx_standings_print(&s, stdout);
    tx_standings_free(&s);
    if (r < 0 || fflush(stdout) != 0) {
        fprintf(stderr, "twixt-arena standings: cannot write the standings\n");
        return TX_EXIT_USAGE;
    }
    return TX_EXIT_OK;
}
