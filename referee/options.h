/* options.h - the command-line options shared by play, tournament and
 * validate.
 *
 * One parser for every subcommand, so an option means the same thing and
 * is refused with the same words everywhere. A subcommand says which groups
 * of options it accepts (enum tx_options_accept) and how many BOT arguments;
 * anything else is an error naming the option and what was expected, for
 * the caller to print before exiting with status 2. `--opt value` and
 * `--opt=value` are both accepted; BOT arguments may come anywhere.
 */
#ifndef TX_OPTIONS_H
#define TX_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "match.h"
#include "sandbox.h"
#include "schedule.h"

#define TX_OPTIONS_DEFAULT_SEED 1 /* fixed, so that re-running a command resumes it */
#define TX_OPTIONS_CONCURRENCY_MAX 256
#define TX_OPTIONS_GAMES_MAX INT64_C(1000000000)

/* Groups of options a subcommand accepts. */
enum tx_options_accept {
    TX_OPTIONS_LIMITS = 1 << 0, /* --first-turn-ms --turn-ms --time-margin-ms --soft-timeouts
                                   --bot-memory-mb --size --seed */
    TX_OPTIONS_OUTPUT = 1 << 1, /* -o FILE */
    TX_OPTIONS_RUN = 1 << 2,    /* --concurrency --openings --openings-file --shard */
    TX_OPTIONS_GAMES = 1 << 3,  /* --games N */
    TX_OPTIONS_PAIRS = 1 << 4,  /* --games-per-pair N (even) */
    TX_OPTIONS_SPRT = 1 << 5,   /* --sprt elo0=..,elo1=..,alpha=..,beta=.. */
    TX_OPTIONS_JSON = 1 << 6,   /* --json */
    /* --sandbox --bot-network --pin-cores --bot-env */
    TX_OPTIONS_SANDBOX = 1 << 7,
};

struct tx_sprt_options {
    bool enabled;
    double elo0, elo1;  /* H0: Elo difference elo0, H1: elo1 (defaults 0 and 10) */
    double alpha, beta; /* error rates (defaults 0.05 and 0.05) */
    bool logistic;      /* elo0/elo1 are logistic Elo (model=logistic), else normalised */
};

struct tx_options {
    int nbots; /* BOT arguments given */
    struct tx_bot_spec
        bots[TX_SCHEDULE_BOTS_MAX]; /* name and command, heap strings (tx_options_free) */
    int size;                       /* --size, default TX_SIZE_DEFAULT */
    uint64_t seed;                  /* --seed, default TX_OPTIONS_DEFAULT_SEED */
    bool seed_given;
    int first_turn_ms, turn_ms, margin_ms; /* limits, defaults of tx_match_config_init */
    bool soft_timeouts;
    int bot_memory_mb;
    const char *output;          /* -o FILE (points into argv), NULL if none */
    int64_t games;               /* --games or --games-per-pair, 0 if not given */
    int concurrency;             /* --concurrency, 0 if not given */
    int openings;                /* --openings K, 0 for none */
    const char *openings_file;   /* --openings-file (points into argv) */
    int shard, shards;           /* --shard K/M, 1/1 when not given */
    struct tx_sprt_options sprt; /* --sprt */
    bool json;                   /* --json */
    bool help;                   /* --help or -h was given: print usage, exit 0 */
    /* --sandbox, --bot-network, --pin-cores, --bot-env (output: the caller's) */
    struct tx_sandbox_request sandbox;
};

/* Parses argv[1..argc-1] (argv[0] is the subcommand's name). accept is a
 * set of enum tx_options_accept; between min_bots and max_bots BOT
 * arguments must be given (not checked when --help is). Returns 0, or
 * -EINVAL with a message naming the option or argument in err (for the
 * caller to print, then exit 2). Call tx_options_free in both cases. */
int tx_options_parse(struct tx_options *o, unsigned accept, int min_bots, int max_bots, int argc,
                     char **argv, char *err, size_t errcap);

/* Copies the limits into a match config (tx_match_config_init first). */
void tx_options_apply(const struct tx_options *o, struct tx_match_config *config);

/* Prints the help of the accepted option groups, one option per line. */
void tx_options_usage(FILE *out, unsigned accept);

/* Frees the bots' strings. */
void tx_options_free(struct tx_options *o);

/* Writes argv as a command a POSIX shell runs unchanged (words quoted with
 * '...' when needed) into buf; used to print the command that resumes a
 * run. Returns false when it did not fit. */
bool tx_options_shell_command(int argc, char **argv, char *buf, size_t cap);

#endif
