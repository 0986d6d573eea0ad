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
#include "setup.h"
#include "runner.h"
#include "standings.h"

#define ACCEPT                                                                                     \
    (TX_OPTIONS_LIMITS | TX_OPTIONS_OUTPUT | TX_OPTIONS_RUN | TX_OPTIONS_PAIRS | TX_OPTIONS_JSON | \
     TX_OPTIONS_SANDBOX)

static void usage(FILE *out)
{
    fprintf(out,
            "usage: twixt-arena tournament BOT BOT... [OPTIONS]\n\n"
            "Round robin: every pair of bots plays --games-per-pair games, colours exchanged\n"
            "in consecutive games, in parallel; standings with Elo and 95%% intervals at the end.\n"
            "With -o FILE, running the same command again resumes the run.\n\n");
    tx_options_usage(out, ACCEPT);
}

static void on_record(struct tx_runner *runner, const struct tx_record *record, bool resumed,
                      void *data)
{
    (void)runner;
    (void)resumed;
    tx_standings_add(data, record);
}

int tx_cmd_tournament(int argc, char **argv)
{
    struct tx_options o;
    struct tx_setup *run = NULL;
    struct tx_standings standings;
    char err[1024];
    int status = TX_EXIT_USAGE;

    tx_standings_init(&standings);
    if (tx_options_parse(&o, ACCEPT, 2, TX_SCHEDULE_BOTS_MAX, argc, argv, err, sizeof err) < 0) {
        fprintf(stderr, "twixt-arena tournament: %s\n", err);
        goto out;
    }
    if (o.help) {
        usage(stdout);
        status = TX_EXIT_OK;
        goto out;
    }
    int64_t per_pair = o.games ? o.games : 2;
    int64_t pairs = (int64_t)o.nbots * (o.nbots - 1) / 2;
    /* argv[-1] is the program as the user typed it (main passes argv + 1),
     * so the resume command can be pasted as is. */
    if (tx_setup_new(&o, per_pair * pairs, argc + 1, argv - 1, &run, err, sizeof err) < 0) {
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
        .resume_command = run->resume_command,
        .progress = isatty(STDOUT_FILENO) && !o.json,
        .record_cb = on_record,
        .data = &standings,
    };
    struct tx_runner_summary summary;
    if (tx_runner_run(&config, &summary, err, sizeof err) < 0) {
        fprintf(stderr, "twixt-arena tournament: %s\n", err);
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
out:
    tx_standings_free(&standings);
    tx_setup_free(run);
    tx_options_free(&o);
    return status;
}
