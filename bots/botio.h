/* botio.h - what every bundled bot does around its strategy: its main()
 * (tx_botio_main), options, the turn loop, the clock.
 *
 * Each turn the loop reads the full turn input (RULES.md "Input") from
 * stdin, parses it with tx_input_parse, knows which side it plays (struct
 * tx_botio_side: from the first line of its first input, FIRST: red, a
 * hole: black, as RULES.md "Forced openings" keeps true, and from the
 * exchanges of the pie and the cut), rebuilds the position with
 * tx_game_from_input_variant (a bot never assumes it saw every move), asks
 * the strategy for a move, and prints exactly one line "MOVE edits
 * !privilege message" (edits only under classic rules or with a CUT, when
 * the strategy writes some; message cut to 20 characters), flushing
 * stdout. Reasoning goes to stderr only. A move the strategy got wrong
 * loses its edits and privilege, or is replaced by a legal one, loudly on
 * stderr, so a bug in a bundled bot costs quality, not the game.
 *
 * The rule set, the board, the opening and Double TwixT come from the
 * options (--rules, --board WxH, --size N, --opening, --teams), else from
 * what the arena sets for every bot (TWIXT_RULES, TWIXT_WIDTH,
 * TWIXT_HEIGHT, TWIXT_OPENING, TWIXT_TEAMS; RULES.md "Rule sets"), else pp
 * on 12 x 12 with the mirror swap, two bots.
 */
#ifndef TX_BOTS_BOTIO_H
#define TX_BOTS_BOTIO_H

#include <stdbool.h>
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
    const struct tx_game *game;       /* the position, `me` to move, under its variant */
    const struct tx_input *input;     /* the parsed turn input */
    const struct tx_variant *variant; /* the rules, board, opening and teams */
    int me;                           /* the colour it plays now: 0 red (rows), 1 black (columns) */
    int turn;                         /* 0 on this bot's first turn, then 1, 2, ... */
    int64_t start_ns;                 /* tx_botio_now_ns() when the input's first line arrived */
    bool privilege_left;          /* Double TwixT: its team has surely not called privilege yet */
    struct tx_botio_edits *edits; /* the strategy may add edits to its move here (a CUT's
                                     +R1:R2 too) */
    int *cut;        /* with TX_MOVE_CUT the strategy writes the two red holes and the black one */
    bool *privilege; /* the strategy sets it to call privilege with its hole (privilege_left) */
};

/* A strategy: returns a legal move of turn->game (a hole, TX_MOVE_SWAP,
 * TX_MOVE_CUT or TX_MOVE_CHOOSE_*) and writes a short message (may be "")
 * into message (TX_BOTIO_MESSAGE_MAX). */
typedef int (*tx_botio_think_fn)(const struct tx_botio_turn *turn, void *data, char *message);

/* What a bot knows of its side across the turns of one game (RULES.md
 * "Openings", "Double TwixT"), from its inputs and its own answers:
 * - its colour: the first line of its first input says it (FIRST: red;
 *   SWAP: red, or black under the pie, whose swap exchanged the sides; a
 *   hole, CUT or CHOOSE: black), and it changes once, at an exchange:
 *   after its own pie SWAP or CHOOSE 1 (red), CHOOSE 2 (black), and when
 *   a red bot reads SWAP under the pie or CHOOSE 1 after its cut, or (in
 *   Double TwixT, where the partner may hear of it first) finds one of its
 *   own pegs in the opponent's list;
 * - whether its team may have called privilege: its own call, or its
 *   partner's, which the input does not name. It is read from the peg
 *   counts: between two of its turns each team places two pegs, a
 *   privilege adds one to the caller's team and takes the skipped bot's
 *   away; a pair of inputs that cannot tell (around a swap, a pie or a
 *   cut) counts as called, so that a bundled bot never calls it twice. */
struct tx_botio_side {
    int colour;          /* 0 red, 1 black; -1 before the first input */
    int placed;          /* a hole of one of its pegs (its last hole, a CUT's red), or -1 */
    bool privilege_used; /* its team called privilege, or may have */
    bool called;         /* its last answer called privilege */
    bool clean;          /* since its last input only holes were played, or so it
                            will know (pending) */
    bool pending;        /* its last answer was the game's first move: clean when the
                            next input still lists it first of its own (nobody swapped) */
    int mirror;          /* with pending under swap: where the mirror swap puts its peg */
    bool seen;           /* it has had an input */
    int own, his;        /* the peg counts of its last input */
};

void tx_botio_side_init(struct tx_botio_side *s);

/* Learns from the parsed turn input in of a game of v: the colour, and
 * privilege_used. */
void tx_botio_side_input(struct tx_botio_side *s, const struct tx_variant *v,
                         const struct tx_input *in);

/* Learns from the answer m it gives in g (the position it was asked in). */
void tx_botio_side_answer(struct tx_botio_side *s, const struct tx_game *g,
                          const struct tx_move *m);

/* Plays turns until stdin ends. Returns 0 at end of input, or -EINVAL when
 * the input cannot be read or is impossible (the reason is on stderr). */
int tx_botio_run(const struct tx_geometry *geo, const struct tx_variant *v, const char *prog,
                 tx_botio_think_fn think, void *data);

/* CLOCK_MONOTONIC in nanoseconds. */
int64_t tx_botio_now_ns(void);

/* Options every bot has. */
struct tx_botio_options {
    struct tx_variant variant; /* --rules, --board WxH or --size N, --opening, --teams; by
                                  default what the arena says in TWIXT_RULES, TWIXT_WIDTH,
                                  TWIXT_HEIGHT, TWIXT_OPENING and TWIXT_TEAMS, else pp on
                                  12 x 12, swap, two bots */
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
    "  --opening O swap, pie, cut or none (default: $TWIXT_OPENING, else swap)\n"                  \
    "  --teams T   1: Double TwixT, four bots in two teams (default: $TWIXT_TEAMS, else 0)\n"      \
    "  --seed N    random seed (default: from the clock)\n"

/* Looks at argv[*i]: when it is --rules, --board, --size, --opening,
 * --teams, --seed or --help
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

/* The whole main() of a bundled bot: reads the options (the common ones
 * and bot->option's, as "--opt value" or "--opt=value"), prints
 * --help, builds the board, calls ready, plays turns until stdin ends
 * (tx_botio_run). Returns the exit status: 0, 1 when the input could not be
 * read or memory ran out, 2 for a bad option (with a message on stderr). */
int tx_botio_main(const struct tx_botio_bot *bot, void *data, int argc, char **argv);

#endif
