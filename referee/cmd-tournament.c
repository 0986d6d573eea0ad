/* cmd-tournament.c - `twixt-arena tournament BOT... [--bots FILE]
 * [--gauntlet N] [options]`: a round robin (or a gauntlet), both colours,
 * standings at the end.
 *
 * The work is done by the pool (which games the run owes: pool.h) and the
 * runner (games in parallel, records, resume, Ctrl-C); this file wires
 * them to the options and feeds every game of the run, resumed or new, to
 * the standings so that the table printed at the end is the whole run's.
 * A gauntlet's bots are then each shown against the pool.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "commands.h"
#include "options.h"
#include "output.h"
#include "setup.h"
#include "runner.h"
#include "standings.h"

const struct tx_options_command tx_cmd_tournament_line = {
    .name = "tournament",
    .id = TX_CMD_TOURNAMENT,
    .operands = "BOT BOT...",
    .operand = TX_OPERAND_BOT,
    .min_operands = 2,
    .max_operands = TX_SCHEDULE_BOTS_MAX,
    .summary = "a round robin (or a gauntlet) with standings",
    .about = "Round robin: every pair of bots plays --games-per-pair games, colours exchanged\n"
             "in consecutive games, in parallel; standings with Elo and 95% intervals at the\n"
             "end. --gauntlet N: the first N bots play every other bot, the others do not\n"
             "play each other. --bots FILE adds the bots of a JSON file after the BOTs.\n"
             "With -o FILE, the same command again resumes the run, and a command with more\n"
             "bots or more games per pair plays only the games the file lacks; --shard K/M\n"
             "splits it between machines (standings merges the files).\n"
             "\n"
             "A BOT is a command line (\"python3 bot.py\"), split as a shell splits words,\n"
             "optionally NAME=COMMAND; {seed}, {rules}, {width}, {height} and {size} (a\n"
             "square board's side) in it become the game's seed, rule set and board.\n",
};

static void on_record(struct tx_runner *runner, const struct tx_record *record, bool resumed,
                      void *data)
{
    (void)runner;
    (void)resumed;
    tx_standings_add(data, record);
}

int tx_cmd_tournament(const char *program, int argc, char **argv)
{
    struct tx_options o;
    struct tx_setup *run = NULL;
    struct tx_standings standings;
    char err[1024];

    tx_standings_init(&standings);
    int status = tx_options_cli(&o, &tx_cmd_tournament_line, program, argc, argv);
    if (status != TX_OPTIONS_CONTINUE)
        goto out;
    status = TX_EXIT_USAGE;
    int64_t per_pair = o.games ? o.games : TX_OPTIONS_GAMES_DEFAULT;
    if (tx_setup_new(&o, TX_POOL_ROUND_ROBIN, per_pair, program, argc, argv, &run, err,
                     sizeof err) < 0) {
        fprintf(stderr, "twixt-arena tournament: %s\n", err);
        goto out;
    }
    int concurrency = tx_runner_concurrency(o.concurrency, "twixt-arena tournament");
    for (int i = 0; i < run->nbots; i++)
        tx_standings_bot(&standings, run->bots[i].name);

    struct tx_runner_games pool_games;
    tx_pool_games(&run->pool, &pool_games);
    struct tx_runner_config config = {
        .games = &pool_games,
        .match = &run->match,
        .concurrency = concurrency,
        .output = o.output,
        .skip_invalid = o.skip_invalid,
        .resume_command = run->resume_command,
        .progress = true, /* on stderr: a live line on a terminal, else status lines */
        .record_cb = on_record,
        .data = &standings,
    };
    struct tx_runner_summary summary;
    if (tx_runner_run(&config, &summary, err, sizeof err) < 0) {
        fprintf(stderr, "twixt-arena tournament: %s\n", err);
        tx_runner_print_interrupted(&config, &summary);
        goto out;
    }
    /* A gauntlet's bots, each against the pool. */
    const char *focus[TX_POOL_BOTS_MAX];
    for (int i = 0; i < o.gauntlet; i++)
        focus[i] = standings.bots[tx_standings_find(&standings, run->bots[i].name)].label;
    tx_standings_warn_builds(&standings, stderr);
    /* every condition's standings: handicap games are apart from even ones */
    tx_standings_print_all(&standings, focus, o.gauntlet, false, o.json, stdout);
    fflush(stdout);
    /* An interrupted run is not a success: exit as shells expect after a
     * signal (130 for Ctrl-C), once the records and the message are out. */
    tx_runner_print_interrupted(&config, &summary);
    status = summary.signal ? 128 + summary.signal : TX_EXIT_OK;
    /* Standings or results that never reached stdout are not a success. */
    if (tx_output_finish(stdout, "standard output", "twixt-arena tournament") < 0 &&
        !summary.signal)
        status = TX_EXIT_USAGE;
out:
    tx_standings_free(&standings);
    tx_setup_free(run);
    tx_options_free(&o);
    return status;
}
