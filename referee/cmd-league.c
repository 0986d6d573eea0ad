/* cmd-league.c - `twixt-arena league [BOT...] --bots FILE -o FILE
 * [options]`: a pool that plays until it is stopped.
 *
 * The league's games come from league.c (matchmaking, the bots file
 * watched, the standings files); the runner plays and records them, and
 * resumes the league from its -o file like a tournament. Stopped by Ctrl-C
 * (or SIGTERM), it writes the standings files once more, prints the
 * standings and exits 130 (143) with the command that resumes it.
 */
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "league.h"
#include "options.h"
#include "output.h"
#include "runner.h"
#include "setup.h"

const struct tx_options_command tx_cmd_league_line = {
    .name = "league",
    .id = TX_CMD_LEAGUE,
    .operands = "[BOT...]",
    .operand = TX_OPERAND_BOT,
    .min_operands = 2,
    .max_operands = TX_SCHEDULE_BOTS_MAX,
    .summary = "a pool that plays until stopped, bots joining and leaving",
    .about = "Plays colour-exchanged game pairs until it is stopped (Ctrl-C), choosing each\n"
             "pairing by matchmaking: the pairing with the fewest games, ties going to the\n"
             "most uncertain result. --bots FILE is watched while the league runs: a bot\n"
             "added to it gets games (first, until it has as many as the others), a bot\n"
             "removed plays no more. Every --standings-every games the standings go to\n"
             "--standings-out PREFIX: PREFIX.txt, PREFIX.json and the dashboard PREFIX.html\n"
             "(its pairings' games in PREFIX-games/). -o FILE is required: the same command\n"
             "resumes the league, and new bots play only their own games.\n",
};

/* "run.jsonl" -> "run.standings" (".jsonl" dropped when there). */
static void default_standings(const char *output, char *buf, size_t cap)
{
    size_t n = strlen(output);
    if (n > 6 && !strcmp(output + n - 6, ".jsonl"))
        n -= 6;
    snprintf(buf, cap, "%.*s.standings", (int)n, output);
}

int tx_cmd_league(const char *program, int argc, char **argv)
{
    struct tx_options o;
    struct tx_setup *run = NULL;
    struct tx_league league = {0};
    char err[1024], standings_out[PATH_MAX];
    int status = tx_options_cli(&o, &tx_cmd_league_line, program, argc, argv);

    if (status != TX_OPTIONS_CONTINUE)
        goto out;
    if (!o.output) {
        status = tx_options_usage_error(&tx_cmd_league_line, program,
                                        "-o FILE is required: a league runs until stopped, and "
                                        "resumes from its records");
        goto out;
    }
    status = TX_EXIT_USAGE;
    if (tx_setup_new(&o, TX_POOL_ROUND_ROBIN, 0, program, argc, argv, &run, err, sizeof err) < 0 ||
        (o.bots_file && tx_league_check_file(o.bots_file, &run->file, err, sizeof err) < 0)) {
        fprintf(stderr, "twixt-arena league: %s\n", err);
        goto out;
    }
    if (o.standings_out)
        snprintf(standings_out, sizeof standings_out, "%s", o.standings_out);
    else
        default_standings(o.output, standings_out, sizeof standings_out);
    league.pool = &run->pool;
    league.bots_path = o.bots_file;
    league.fixed = o.bots;
    league.nfixed = o.nbots;
    league.standings_out = standings_out;
    league.records = o.output;
    league.every = o.standings_every;
    tx_league_init(&league);

    struct tx_runner_config config = {
        .games = &league.source,
        .match = &run->match,
        .concurrency = tx_runner_concurrency(o.concurrency, "twixt-arena league"),
        .output = o.output,
        .skip_invalid = o.skip_invalid,
        .resume_command = run->resume_command,
        .progress = true,
        .record_cb = tx_league_record,
        .data = &league,
    };
    struct tx_runner_summary summary;
    if (tx_runner_run(&config, &summary, err, sizeof err) < 0) {
        fprintf(stderr, "twixt-arena league: %s\n", err);
        tx_runner_print_interrupted(&config, &summary);
        goto out;
    }
    tx_league_write_standings(&league);
    tx_standings_warn_builds(&league.standings, stderr);
    tx_standings_print_all(&league.standings, NULL, 0, true, o.json, stdout);
    fflush(stdout);
    tx_runner_print_interrupted(&config, &summary);
    status = summary.signal ? 128 + summary.signal : TX_EXIT_OK;
    if (tx_output_finish(stdout, "standard output", "twixt-arena league") < 0 && !summary.signal)
        status = TX_EXIT_USAGE;
out:
    tx_league_free(&league);
    tx_setup_free(run);
    tx_options_free(&o);
    return status;
}
