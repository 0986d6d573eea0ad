/* runner.h - plays the games of a schedule in parallel on one libuv loop
 * and writes their records as they end.
 *
 * This is the part of play and tournament that must never lose work: each
 * record is written as one line with one write() on an O_APPEND file the
 * moment its game ends (records.h), so a kill -9 loses at most the games
 * in flight and can tear at most the last line. Running the same command
 * on the same file resumes (resume.h): records already there (any result
 * but interrupted) are not replayed, a torn last line is cut off with a
 * warning, and a file written by a different configuration (another
 * fingerprint in "run") is refused. The file is locked for the run, so a
 * second run on it is refused.
 * SIGINT and SIGTERM interrupt the games in flight (recorded as
 * interrupted, not counted); so does a write error or the file being
 * removed, moved or replaced during the run. tx_runner_print_interrupted
 * then prints how many games are saved, where, and the command that
 * resumes.
 *
 * Games are started lazily from the schedule, at most `concurrency` at a
 * time, all on one loop and one thread: a verdict depends only on the bots
 * (match.h charges each turn to the bot), never on the order games end in.
 */
#ifndef TX_RUNNER_H
#define TX_RUNNER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "match.h"
#include "record.h"
#include "schedule.h"

struct tx_runner;

/* Called once for each record already in the file (resumed = true, in file
 * order, interrupted ones included, a game index recorded twice only the
 * first time) and then for each game as it ends
 * (after its line is written). The callback may print (the progress line
 * is cleared first) and may call tx_runner_stop: no game starts between
 * a game's end and its record_cb, so a stop decided on a record starts
 * nothing more (only games already running finish). The record is the
 * runner's: copy what you keep. */
typedef void (*tx_runner_record_cb)(struct tx_runner *runner, const struct tx_record *record,
                                    bool resumed, void *data);

struct tx_runner_config {
    const struct tx_schedule *schedule;  /* what to play (bots, games, shard) */
    const struct tx_match_config *match; /* limits; its run field is replaced by the fingerprint */
    int concurrency;                     /* games at once, >= 1 (tx_runner_cores for a default) */
    const char *output;                  /* JSON Lines file to append to and resume from, or NULL */
    bool skip_invalid;                   /* resume: set bad lines aside into OUTPUT.rejected */
    const char *resume_command;          /* printed after an interrupt, may be NULL */
    bool progress;                 /* show progress on progress_out: a live line on a terminal,
                                      else a status line every status_interval_ms */
    FILE *progress_out;            /* NULL: stderr */
    int status_interval_ms;        /* 0: a minute */
    tx_runner_record_cb record_cb; /* may be NULL */
    void *data;                    /* for record_cb */
};

struct tx_runner_summary {
    int64_t resumed;     /* games found done in the file */
    int64_t played;      /* games played and recorded by this run (not interrupted) */
    int64_t interrupted; /* games cut short by a signal */
    int64_t remaining;   /* games of the shard still to play */
    int64_t lost;        /* games that ended but whose record could not be written */
    int signal;          /* SIGINT or SIGTERM when the run was interrupted, else 0 */
    bool stopped;        /* tx_runner_stop was called */
    bool failed;         /* stopped by an error after it started (a write error, the file
                            removed or moved, a game that could not start) */
    char where[4096];    /* where the records are at the end: output, or where they were
                            moved or saved to after the path stopped naming the file; "" if
                            they could not be kept */
};

/* Runs every game of the schedule's shard that the output file does not
 * hold yet. Returns 0 (also after an interrupt: see summary->signal), or a
 * negative errno with a message for the user in err: -EINVAL for a file of
 * another run or with a corrupt line (named FILE:LINE), -EBUSY for a file
 * another run holds, another code when the file cannot be read or written
 * or a game cannot be started. When games were played before the error,
 * summary->failed is set: print err, then tx_runner_print_interrupted. */
int tx_runner_run(const struct tx_runner_config *config, struct tx_runner_summary *summary,
                  char *err, size_t errcap);

/* After an interrupted run (summary->signal set) or one stopped by an
 * error (summary->failed), tells the user on stderr how many games are
 * saved and where, and the command that resumes it; nothing otherwise.
 * Meant as the last thing printed, after the caller's summary or error. */
void tx_runner_print_interrupted(const struct tx_runner_config *config,
                                 const struct tx_runner_summary *summary);

/* Starts no new game; the games in flight finish normally. */
void tx_runner_stop(struct tx_runner *runner);

/* The number of cores this process may use (the default concurrency). */
int tx_runner_cores(void);

/* The concurrency to run with: requested, or the cores when 0. More games
 * than cores makes bots pay for each other's time, so that gets a warning
 * on stderr, prefixed with who ("twixt-arena play"). */
int tx_runner_concurrency(int requested, const char *who);

#endif
