/* cmd-tournament.c - `twixt-arena tournament BOT... [options]`: a round
 * robin, both colours, standings at the end.
 *
 * The work is done by the schedule (which game is at which index) and the
 * runner (games in parallel, records, resume, Ctrl-C); this file wires
 * them to the options and feeds every record, resumed or new, to the
 * standings so that the table printed at the end is the whole run's.
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
    .summary = "a round robin with standings",
    .about = "Round robin: every pair of bots plays --games-per-pair games, colours exchanged\n"
             "in consecutive games, in parallel; standings with Elo and 95% intervals at the\n"
             "end. With -o FILE, the same command again resumes the run; --shard K/M splits\n"
             "it between machines (standings merges the files).\n"
             "\n"
             "A BOT is a command line (\"python3 bot.py\"), split as a shell splits words,\n"
             "optionally NAME=COMMAND; {seed} and {size} in it become the game's seed and\n"
             "the board size.\n",
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
    int64_t per_pair = o.games ? o.games : 2;
    int64_t pairs = (int64_t)o.nbots * (o.nbots - 1) / 2;
    if (tx_setup_new(&o, per_pair * pairs, program, argc, argv, &run, err, sizeof err) < 0) {
        fprintf(stderr, "twixt-arena tournament: %s\n", err);
        goto out;
    }
    int concurrency = tx_runner_concurrency(o.concurrency, "twixt-arena tournament");
    for (int i = 0; i < o.nbots; i++)
        tx_standings_bot(&standings, o.bots[i].name);

    struct tx_runner_config config = {
        .schedule = &run->schedule,
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
    if (o.json)
        tx_standings_print_json(&standings, stdout);
    else
        tx_standings_print(&standings, stdout);
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
