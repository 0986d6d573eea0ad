/* runner.h - plays a run's games (a pool's, validate's battery, a
 * league's: struct tx_runner_games) in parallel on one libuv loop and
 * writes their records as they end.
 *
 * This is the part of play, tournament and league that must never lose
 * work: each record is written as one line with one write() on an
 * O_APPEND file the moment its game ends (records.h), so a kill -9 loses
 * at most the games in flight and can tear at most the last line. Running
 * the same command on the same file resumes (resume.h): every record
 * already there is shown to the source of games, which counts the games it
 * owes as done (pool.h: a game is its pairing and k, so a run that grew a
 * bot or more games per pair plays only what is missing) and refuses a
 * file of other terms or a bot whose command changed. The file is locked
 * for the run, so a second run on it is refused.
 * SIGINT and SIGTERM interrupt the games in flight (recorded as
 * interrupted, not counted); so does a write error or the file being
 * removed, moved or replaced during the run. A game that ends interrupted
 * because a bot's sandbox could not be set up (match.h: tx_match_fault)
 * is recorded so and played again at once, as a new game of the file;
 * TX_RUNNER_FAULTS_MAX such failures in a row for one bot stop the run
 * with an error naming the bot and the kernel's reason: the machine
 * refuses that bot's sandbox, and retrying would only loop. tx_runner_print_interrupted
 * then prints how many games are saved, where, and the command that
 * resumes.
 *
 * Games are started lazily from their source, at most `concurrency` at a
 * time, all on one loop and one thread: a verdict depends only on the bots
 * (match.h charges each turn to the bot), never on the order games end in.
 * Each game gets the next free number of the file ("game" in its record):
 * a fresh run numbers its games in the order it starts them.
 */
#ifndef TX_RUNNER_H
#define TX_RUNNER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "match.h"
#include "record.h"
#include "pool.h"

struct tx_runner;

#define TX_RUNNER_FAULTS_MAX 2 /* sandbox set-up failures in a row that stop a run */

/* Called once for each game of this run already in the file (resumed =
 * true, in file order: the games its source counts as done, a game
 * recorded twice only the first time) and then for each game as it ends
 * (after its line is written). The callback may print (the progress line
 * is cleared first) and may call tx_runner_stop: no game starts between
 * a game's end and its record_cb, so a stop decided on a record starts
 * nothing more (only games already running finish). The record is the
 * runner's: copy what you keep. */
typedef void (*tx_runner_record_cb)(struct tx_runner *runner, const struct tx_record *record,
                                    bool resumed, void *data);

/* Where a run's games come from: the one interface between the runner and
 * what it plays. A pool gives its games in order (tx_pool_games: play,
 * tournament, with shards), validate its battery (validate-plan.c), the
 * league its matchmaking with bots joining and leaving (league.h). */
struct tx_runner_games {
    /* A record of the output file, before the first game. Returns 1 when it
     * is a game of this run (done), 0 when not, or -EINVAL with why in why
     * when the file cannot be resumed by this run (the runner adds
     * FILE:LINE). */
    int (*resumed)(void *data, const struct tx_record *r, char *why, size_t cap);
    /* The next game to start, written into slot, whose spec gets index as
     * the game's number in the file. Its bots and opening may point into
     * the slot or into memory the source keeps until the run ends. Returns
     * 1, 0 when there is no game left (the run ends once the games running
     * end), or a negative errno (the run stops). */
    int (*next)(void *data, int64_t index, struct tx_pool_slot *slot);
    /* A game handed out by next ended (r NULL: it could not start, or its
     * record could not be written). */
    void (*ended)(void *data, const struct tx_pool_slot *slot, const struct tx_record *r);
    /* Games done and games owed in all (-1: no end), for the progress line
     * and the games left at the end. */
    void (*progress)(void *data, int64_t *done, int64_t *total);
    /* Optional: with the loop before the first game (a source may watch
     * something there: the league, its bots file), and when the run stops
     * (it must close what it opened on the loop then). */
    void (*attach)(void *data, struct tx_runner *runner, uv_loop_t *loop);
    void (*detach)(void *data);
    void *data;
    const char *run; /* the records' "run" field, or NULL (pools: records carry their pairing) */
};

struct tx_runner_config {
    const struct tx_runner_games *games; /* what to play */
    const struct tx_match_config *match; /* limits (its run field is the games') */
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
    int64_t interrupted; /* games cut short by a signal, or by a bot's sandbox that could not
                            be set up (played again) */
    int64_t remaining;   /* games of the shard still to play, -1 for no end (a league) */
    int64_t lost;        /* games that ended but whose record could not be written */
    int signal;          /* SIGINT or SIGTERM when the run was interrupted, else 0 */
    bool stopped;        /* tx_runner_stop was called */
    bool failed;         /* stopped by an error after it started (a write error, the file
                            removed or moved, a game that could not start) */
    char where[4096];    /* where the records are at the end: output, or where they were
                            moved or saved to after the path stopped naming the file; "" if
                            they could not be kept */
};

/* Runs every game of config->games that the output file does not hold
 * yet. Returns 0 (also after an interrupt: see summary->signal), or a
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

/* Asks the source for games again (after it changed: the league's bots). */
void tx_runner_wake(struct tx_runner *runner);

/* The number of cores this process may use (the default concurrency). */
int tx_runner_cores(void);

/* The concurrency to run with: requested, or the cores when 0. More games
 * than cores makes bots pay for each other's time, so that gets a warning
 * on stderr, prefixed with who ("twixt-arena play"). */
int tx_runner_concurrency(int requested, const char *who);

#endif
