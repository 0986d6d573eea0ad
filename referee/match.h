/* match.h - one game between bot processes, driven on a libuv loop.
 *
 * A match starts the game's bots (two, or four in two teams: Double
 * TwixT), each in a seat (seat.h) that feeds it its turn inputs, times and
 * judges its answers; it asks the seat the game says is to move
 * (tx_game.seat), applies the answers to a tx_game, and when the game ends
 * (or is interrupted) kills every process group, reaps them, closes every
 * handle and hands the finished record to done_cb. Many matches can run
 * on one loop at once: that is how the tournament plays games in parallel.
 *
 * Ownership: the caller owns config and spec and keeps them alive until
 * done_cb; the record passed to done_cb is malloc'ed and belongs to the
 * callback, struct and contents (tx_record_free(record) then free(record);
 * or take the contents with `mine = *record` and free(record)). After
 * done_cb returns the match frees itself.
 * Never called from inside a bot's clock: done_cb may do file I/O.
 */
#ifndef TX_MATCH_H
#define TX_MATCH_H

#include <stdbool.h>
#include <stdint.h>
#include <uv.h>

#include "bot-limits.h"
#include "geometry.h"
#include "record.h"

/* Limits and resources for every game of a run. */
struct tx_match_config {
    const struct tx_geometry *geo; /* board (a game's spec may orient it: --handicap) */
    enum tx_rules rules;           /* rule set (rules.h) */
    enum tx_opening_rule opening;  /* opening rule (rules.h), swap by default */
    bool teams;                    /* Double TwixT: four bots (tx_game_spec.bots[4]) */
    struct tx_limits limits;       /* time, soft mode, memory, CPU (bot-limits.h) */
    const char *run;               /* fingerprint copied into records (resume), may be NULL */
};

/* A bot as the user named it: NAME=COMMAND, or COMMAND (name derived), or
 * an entry of a bots file (bots-file.h), which may add the rest. */
struct tx_bot_spec {
    const char *name;      /* display name */
    const char *command;   /* command line; placeholders ({seed}, ...) replaced per game */
    const char *dir;       /* working directory, NULL for the referee's */
    char *const *env;      /* "NAME=VALUE" added to its environment, NULL-terminated, or NULL */
    int memory_mb;         /* its memory limit: 0 the run's, TX_BOT_MEMORY_NONE none, else MB */
    double cpus;           /* its CPU quota: 0 the run's (--bot-cpus), TX_SANDBOX_CPUS_NONE none */
    char *const *writable; /* directories it may write to in the sandbox (absolute), NULL-
                              terminated, or NULL */
};
#define TX_BOT_MEMORY_NONE (-1)

/* What one game is: the pure output of a schedule. */
struct tx_game_spec {
    int64_t index; /* the game's number in its file ("game"), from 1 */
    uint64_t seed; /* per-game seed ({seed} in commands) */
    /* The bots in seat order: [0] plays first (player 1 in RULES.md); with
     * config->teams four, [0] and [2] the first team (red at the start),
     * [1] and [3] the second, each team's first-named bot first. */
    const struct tx_bot_spec *bots[TX_SEATS_MAX];
    const char *teams[2];          /* with teams: the names of the teams of seats 0, 2 and 1, 3 */
    const struct tx_geometry *geo; /* this game's board, NULL for config->geo: a handicap
                                      orients each game's board for its bot (RULES.md) */
    const char *handicap;          /* the bot (or team) with the longer distance, NULL for none */
    int nopening;                  /* forced opening moves played by the referee */
    const int16_t *opening;        /* their holes (never a swap) */
    const struct tx_record_pairing *identity; /* its pairing and k (pool.h), copied into the
                                                 record; NULL for none */
};

struct tx_match;
typedef void (*tx_match_done_cb)(struct tx_match *match, struct tx_record *record, void *data);

/* Starts the game on loop. Returns 0 (done_cb will run exactly once), or a
 * negative errno when nothing was started (done_cb will not run): -EINVAL
 * for an illegal forced opening, -ENOENT when twixt-launch is not found. A
 * bot that cannot be started is not an error: the game ends with a crash
 * verdict. Sets SIGPIPE to SIG_IGN if it was SIG_DFL (a write to a dead bot
 * must fail with EPIPE, not kill the program). */
int tx_match_start(uv_loop_t *loop, const struct tx_match_config *config,
                   const struct tx_game_spec *spec, tx_match_done_cb done_cb, void *data,
                   struct tx_match **ret_match);

/* Ends the game now with reason "interrupted" (Ctrl-C): bots are killed and
 * done_cb runs once they are reaped. Safe to call more than once. */
void tx_match_interrupt(struct tx_match *match);

/* Inside done_cb: the player (0 or 1) whose sandbox could not be set up
 * (bot.h: fault), so that the game ended "interrupted", not lost; -1 for
 * none. The machine failed, not the bot: the runner plays the game again. */
int tx_match_fault(const struct tx_match *match);

/* Defaults for a config: the CodinGame limits (tx_limits_default). */
void tx_match_config_init(struct tx_match_config *config, const struct tx_geometry *geo,
                          enum tx_rules rules);

/* A bot's environment in a game of v: its own variables (a bots file's,
 * own may be NULL), then TWIXT_RULES, TWIXT_WIDTH, TWIXT_HEIGHT,
 * TWIXT_OPENING and TWIXT_TEAMS (RULES.md "Rule sets"), which the arena
 * sets for every bot and a bot's own cannot change. Returns a malloc'ed
 * NULL-terminated array that points into own and store (which must
 * outlive it). */
#define TX_MATCH_ENV_VARS 5
char **tx_match_bot_env(const struct tx_variant *v, char store[TX_MATCH_ENV_VARS][32],
                        char *const *own);

/* The config's rules and board as one value. */
struct tx_variant tx_match_variant(const struct tx_match_config *config);

#endif
