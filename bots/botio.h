/* botio.h - what every bundled bot does around its strategy: its main()
 * (tx_botio_main), options, the turn loop, the clock.
 *
 * Each turn the loop reads the full turn input (RULES.md "Input") from
 * stdin, parses it with tx_input_parse, learns from the first line of its
 * first input which player it is (FIRST or SWAP: player 1, a hole: player
 * 2, as RULES.md "Forced openings" keeps true) and remembers it, rebuilds
 * the position with
 * tx_game_from_input (a bot never assumes it saw every move), asks the
 * strategy for a move, and prints exactly one line "MOVE edits message"
 * (edits only under classic rules, when the strategy writes some; message
 * cut to 20 characters), flushing stdout. Reasoning goes to stderr only.
 * A move the strategy got wrong loses its edits, or is replaced by a legal
 * one, loudly on stderr, so a bug in a bundled bot costs quality, not the
 * game.
 *
 * The rule set and the board come from the options (--rules, --board WxH,
 * --size N), else from what the arena sets for every bot (TWIXT_RULES,
 * TWIXT_WIDTH, TWIXT_HEIGHT; RULES.md "Rule sets"), else pp on 12 x 12.
 */
#ifndef TX_BOTS_BOTIO_H
#define TX_BOTS_BOTIO_H

#include <stddef.h>
#include <stdint.h>

#include "game.h"
#include "input.h"

#define TX_BOTIO_MESSAGE_MAX 21 /* 20 ASCII characters and the NUL */
#define TX_BOTIO_EDITS_MAX 16   /* link edits a bundled bot writes in one answer */

/* Link edits a strategy adds to its move (classic rules only, RULES.md
 * "Link edits"): empty unless it writes some. */
struct tx_botio_edits {
    int n;
    struct tx_edit list[TX_BOTIO_EDITS_MAX];
};

/* One turn as the strategy sees it. */
struct tx_botio_turn {
    const struct tx_game *game;   /* the position, `me` to move, under its rules */
    const struct tx_input *input; /* the parsed turn input */
    int me;                       /* 0 (received FIRST, rows) or 1 (columns) */
    int turn;                     /* 0 on this bot's first turn, then 1, 2, ... */
    int64_t start_ns;             /* tx_botio_now_ns() when the input's first line arrived */
    struct tx_botio_edits *edits; /* the strategy may add edits to its move here */
};

/* A strategy: returns a legal move of turn->game (hole or TX_MOVE_SWAP) and
 * writes a short message (may be "") into message (TX_BOTIO_MESSAGE_MAX). */
typedef int (*tx_botio_think_fn)(const struct tx_botio_turn *turn, void *data, char *message);

/* Plays turns until stdin ends. Returns 0 at end of input, or -EINVAL when
 * the input cannot be read or is impossible (the reason is on stderr). */
int tx_botio_run(const struct tx_geometry *geo, enum tx_rules rules, const char *prog,
                 tx_botio_think_fn think, void *data);

/* CLOCK_MONOTONIC in nanoseconds. */
int64_t tx_botio_now_ns(void);

/* Options every bot has. */
struct tx_botio_options {
    struct tx_variant variant; /* --rules, --board WxH or --size N; by default what the arena
                                  says in TWIXT_RULES, TWIXT_WIDTH and TWIXT_HEIGHT, else pp
                                  on 12 x 12 */
    uint64_t seed;             /* --seed N, default from the clock */
    int help;                  /* --help was given */
};

/* Sets the defaults (the variant from the environment). Returns 0, or
 * -EINVAL after a message on stderr when TWIXT_* holds a bad value. */
int tx_botio_options_init(const char *prog, struct tx_botio_options *opt);

/* The help lines of the common options, for a bot's --help. */
#define TX_BOTIO_COMMON_HELP                                                                       \
    "  --rules R   pp or classic (default: $TWIXT_RULES, else pp)\n"                               \
    "  --board WxH the board, sides 5..100 (default: $TWIXT_WIDTH x $TWIXT_HEIGHT, else 12x12)\n"  \
    "  --size N    an N x N board\n"                                                               \
    "  --seed N    random seed (default: from the clock)\n"

/* Looks at argv[*i]: when it is --rules, --board, --size, --seed or --help
 * (all but --help take a value, as the next argument or after '='),
 * consumes it and returns 1; returns 0 when the option is not one of
 * these; returns -EINVAL after printing "prog: --size: expected ..." to
 * stderr on a bad value. */
int tx_botio_common_option(const char *prog, int argc, char **argv, int *i,
                           struct tx_botio_options *opt);

/* Reads the value of option argv[*i] (next argument or after '=') as an
 * integer in min..max into *ret. Returns 1, or -EINVAL after a message. */
int tx_botio_int_option(const char *prog, int argc, char **argv, int *i, long long min,
                        long long max, long long *ret);

/* The same for a decimal number. */
int tx_botio_double_option(const char *prog, int argc, char **argv, int *i, double min, double max,
                           double *ret);

/* True when argv[*i] names option `name` ("--size" or "--size=12"). */
int tx_botio_is_option(const char *arg, const char *name);

#define TX_BOTIO_PLAY (-1) /* from a bot's ready: go on and play */

/* A bundled bot, for tx_botio_main: its name, its --help, its own options,
 * its set-up and its strategy. data (tx_botio_main's) is the bot's state,
 * given to every function. */
struct tx_botio_bot {
    const char *prog;    /* "twixt-random": the prefix of its messages */
    void (*usage)(void); /* prints its --help text on stdout */
    /* Optional: argv[*i], which is not one of tx_botio_common_option's.
     * Returns as tx_botio_common_option: 1 when it took it (and its
     * value), 0 when it is not the bot's (an unknown option), -EINVAL
     * after a message on stderr. */
    int (*option)(const char *prog, int argc, char **argv, int *i, void *data);
    /* Optional: once the options are read and the board is built, before
     * the first turn (seed the generator from opt->seed, check an option
     * against the board). Returns TX_BOTIO_PLAY, or the exit status to end
     * with (2 after a message for a bad option, 0 for a job done, 1 when
     * out of memory). */
    int (*ready)(const struct tx_geometry *geo, const struct tx_botio_options *opt, void *data);
    tx_botio_think_fn think;
    void (*done)(void *data); /* optional: frees what ready made, however the bot ends */
};

/* The whole main() of a bundled bot: reads the options (--size, --seed,
 * --help and bot->option's, as "--opt value" or "--opt=value"), prints
 * --help, builds the board, calls ready, plays turns until stdin ends
 * (tx_botio_run). Returns the exit status: 0, 1 when the input could not be
 * read or memory ran out, 2 for a bad option (with a message on stderr). */
int tx_botio_main(const struct tx_botio_bot *bot, void *data, int argc, char **argv);

#endif
