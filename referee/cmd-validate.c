/* cmd-validate.c - `twixt-arena validate BOT [options]`: is this bot legal
 * and fast enough?
 *
 * Parses the options (options.h's table), finds the bundled opponents next
 * to the program, runs the battery (validate.h) and prints its report
 * (validate-report.h): as text for a person, or with --json as one JSON
 * object for a script. Exit 0 when nothing in the battery would lose a
 * game on CodinGame (warnings allowed), 1 when something would.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "alloc.h"
#include "command.h"
#include "commands.h"
#include "options.h"
#include "paths.h"
#include "record.h"
#include "validate-report.h"

#define STRONG_MS_MAX                                                                              \
    100 /* the strong opponent's thinking time per turn: enough to be strong, quick */

const struct tx_options_command tx_cmd_validate_line = {
    .name = "validate",
    .id = TX_CMD_VALIDATE,
    .operands = "BOT",
    .operand = TX_OPERAND_BOT,
    .min_operands = 1,
    .max_operands = 1,
    .summary = "is this bot legal and fast enough?",
    .about = "Plays BOT through a battery of games CodinGame could give it (player 1 and 2\n"
             "against the random and the strong bundled bots, an opponent that swaps, a first\n"
             "peg on and off the diagonal, a blocker that makes games long, opponent links\n"
             "that cross each other; under --rules classic, also an opponent editing its\n"
             "links), then re-feeds one game to time its start-up and see whether it\n"
             "exits when its stdin closes and leaves no process behind. Prints each problem\n"
             "once, with its count; exit 0 unless one would lose a game on CodinGame\n"
             "(illegal answer, timeout, crash, extra output lines).\n"
             "\n"
             "BOT is a command line (\"python3 bot.py\"), split as a shell splits words,\n"
             "optionally NAME=COMMAND; {seed}, {rules}, {width}, {height} and {size} (a\n"
             "square board's side) in it become the game's seed, rule set and board.\n",
};

/* ---- the command ---- */

int tx_cmd_validate(const char *self, int argc, char **argv)
{
    struct tx_options o;
    struct tx_validate_report rep = {0};
    struct tx_geometry *geo = NULL;
    char err[1024];
    char *random = NULL, *strong = NULL, *blocker = NULL;
    int status = tx_options_cli(&o, &tx_cmd_validate_line, self, argc, argv);

    if (status != TX_OPTIONS_CONTINUE)
        goto out;
    status = TX_EXIT_USAGE;
    struct tx_paths paths;
    tx_paths_find(&paths); /* for the report: which bundled bots were used */
    random = tx_validate_bundled_command("twixt-random", &o.variant, NULL);
    char strong_extra[32];
    int strong_ms = o.limits.turn_ms / 3 < STRONG_MS_MAX ? o.limits.turn_ms / 3 : STRONG_MS_MAX;
    snprintf(strong_extra, sizeof strong_extra, "--ms %d", strong_ms > 1 ? strong_ms : 1);
    strong = tx_validate_bundled_command("twixt-mcts", &o.variant, strong_extra);
    blocker = tx_validate_bundled_command("twixt-blocker", &o.variant, NULL);
    if (!o.opponents.count && !random && !strong) {
        fprintf(stderr,
                "twixt-arena validate: no bundled bots next to the program (../bots/twixt-random); "
                "name opponents with --opponent CMD\n");
        goto out;
    }
    if (tx_geometry_new(o.variant.width, o.variant.height, &geo) < 0) {
        fprintf(stderr, "twixt-arena validate: %s: cannot build a %d x %d board\n",
                o.board_option ? o.board_option : "--board", o.variant.width, o.variant.height);
        goto out;
    }
    struct tx_validate_config c = {
        .geo = geo,
        .rules = o.variant.rules,
        .opening = o.variant.opening,
        .name = o.bots[0].name,
        .command = o.bots[0].command,
        .limits = o.limits,
        .seed = o.seed,
        .rounds = o.games > 0 ? (int)o.games : TX_VALIDATE_ROUNDS_DEFAULT,
        .concurrency = o.concurrency ? o.concurrency : TX_VALIDATE_CONCURRENCY_DEFAULT,
        .progress = isatty(STDERR_FILENO),
        .forced_openings = o.forced_openings,
        .random_command = random,
        .strong_command = strong,
        .blocker_command = blocker,
        .bundled_layout = tx_paths_layout_name(paths.layout),
        .bundled_dir = random || strong || blocker ? paths.bots_dir : NULL,
        .nopponents = o.opponents.count,
        .records = o.output,
        .sandbox = &o.sandbox,
    };
    for (int i = 0; i < o.opponents.count; i++)
        c.opponents[i] = o.opponents.values[i];
    if (tx_validate_run(&c, &rep, err, sizeof err) < 0) {
        fprintf(stderr, "twixt-arena validate: %s\n", err);
        goto out;
    }
    if (rep.interrupted) {
        /* No verdict from part of a battery: exit as shells expect after a signal. */
        fprintf(stderr, "twixt-arena validate: interrupted by %s%s%s\n", strsignal(rep.interrupted),
                rep.records[0] ? "; the games played are in " : "", rep.records);
        status = 128 + rep.interrupted;
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
    tx_geometry_free(geo);
    free(random);
    free(strong);
    free(blocker);
    tx_options_free(&o);
    return status;
}
