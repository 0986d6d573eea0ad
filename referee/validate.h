/* validate.h - `twixt-arena validate`: a bot through a battery of games.
 *
 * The battery plays real games (match.h) between the bot and bundled
 * opponents, with the user's limits, and reads every finding off the
 * records: the bot's illegal answers (with the input that provoked them,
 * rebuilt with tx_verify_turn_input), timeouts, crashes, extra output lines,
 * messages cut at 20 characters, stderr beyond what the referee keeps, and
 * the distribution of its answer times. A re-feed (refeed.h) of one game
 * then probes what games cannot show: the start-up time, whether the bot
 * exits by itself when its stdin closes, and whether it leaves processes
 * behind.
 *
 * Scenarios of one round (--games N plays N rounds with other seeds):
 * player 1 and player 2 against each opponent (the random and the strong
 * bundled bot, or the --opponent commands); player 1 against an opponent
 * that answers SWAP; player 2 after a forced first peg on the diagonal and
 * off it; player 1 and 2 in late positions with few legal holes (a long
 * forced random opening, made with libtwixt so that nobody has won); player
 * 1 and 2 after a forced opening in which the opponent's links cross each
 * other (the PP rule).
 *
 * Every record is written to config->records as it ends, so each finding
 * names the file and game that replays it. The report owns its memory
 * (tx_validate_report_free); printing it is the CLI's business.
 */
#ifndef TX_VALIDATE_H
#define TX_VALIDATE_H

#include <stdbool.h>
#include <stdint.h>

#include "bot-limits.h"
#include "geometry.h"
#include "refeed.h"

#define TX_VALIDATE_OPPONENTS_MAX 8 /* --opponent commands */
#define TX_VALIDATE_ROUNDS_MAX 1000 /* --games N */
#define TX_VALIDATE_LATE_HOLES 12   /* late scenarios: the bot has at most this many legal holes */
#define TX_VALIDATE_PROBE_TURNS 5   /* turns re-fed before the exit probe */
#define TX_VALIDATE_STDERR_MAX                                                                     \
    65536 /* stderr bytes per game beyond which some is lost (TX_BOT_STDERR_KEPT) */
#define TX_VALIDATE_STDERR_SHOWN 2048 /* bytes of a failing turn's stderr kept in its finding */
#define TX_VALIDATE_TIGHT_PERCENT                                                                  \
    80 /* a max answer time over this share of the limit is a warning */

enum tx_validate_scenario {
    TX_SCENARIO_OPPONENT = 0, /* a plain game against one of the opponents */
    TX_SCENARIO_SWAP,         /* player 1, the opponent answers SWAP */
    TX_SCENARIO_DIAGONAL,     /* player 2, the opponent's forced first peg on the diagonal */
    TX_SCENARIO_OFF_DIAGONAL, /* player 2, the forced first peg off the diagonal */
    TX_SCENARIO_LATE,         /* a forced opening leaving the bot few legal holes */
    TX_SCENARIO_CROSSING,     /* a forced opening where the opponent's links cross */
};

/* The kinds of finding; every one fails the validation. */
enum tx_validate_check {
    TX_CHECK_ILLEGAL = 0,  /* lost by an invalid answer */
    TX_CHECK_TIMEOUT,      /* lost on time */
    TX_CHECK_CRASH,        /* exited, closed stdout, or could not start */
    TX_CHECK_EXTRA_LINES,  /* printed more than one line in a turn */
    TX_CHECK_LONG_MESSAGE, /* a message over 20 characters (cut) */
    TX_CHECK_STDERR,       /* more stderr in a game than the referee keeps */
    TX_CHECK_NO_EXIT,      /* still running TX_REFEED_EXIT_WAIT_MS after its stdin closed */
    TX_CHECK_CHILDREN,     /* processes of its session or group outlived it */
};

struct tx_validate_config {
    const struct tx_geometry *geo;
    const char *name, *command; /* the bot */
    struct tx_limits limits;    /* for every bot of every game */
    uint64_t seed;              /* per-game seeds and openings */
    int rounds;                 /* the battery this many times, >= 1 */
    int concurrency;            /* games at once, >= 1 */
    bool progress;              /* "game K of N" on stderr as games end (a terminal) */
    const char
        *random_command; /* the sparring partner (needs --swap-prob for the swap game), or NULL */
    const char *strong_command; /* or NULL */
    int nopponents;             /* --opponent: these replace random and strong in plain games */
    const char *opponents[TX_VALIDATE_OPPONENTS_MAX];
    const char *records; /* JSON Lines file written (truncated first) */
};

/* One game of the battery. */
struct tx_validate_game {
    int64_t index; /* "game" in the record */
    enum tx_validate_scenario scenario;
    int player;        /* the bot's: 0 (player 1) or 1 */
    char opponent[64]; /* the opponent's display name */
    int nforced;       /* forced opening moves */
    int winner;        /* 0, 1 or -1 */
    int reason;        /* enum tx_reason */
    char detail[160];
    int nmoves;
};

struct tx_validate_finding {
    enum tx_validate_check check;
    int64_t game; /* where it happened, 0 for the probe */
    int move;     /* 1-based entry, 0 when not one move */
    int player;   /* the bot's player in that game */
    char what[320];
    char *input;       /* ILLEGAL: the turn input that provoked it (malloc'ed) */
    char *stderr_text; /* ILLEGAL, TIMEOUT, CRASH: the bot's stderr in that last turn, at most
                          TX_VALIDATE_STDERR_SHOWN bytes (malloc'ed), NULL if none */
};

/* Answer times of one kind of turn, in microseconds. */
struct tx_validate_times {
    int count;
    int64_t p50, p95, p99, max; /* nearest-rank percentiles; -1 when count is 0 */
    int limit_ms;
};

struct tx_validate_report {
    bool passed; /* no finding */
    int ngames;
    struct tx_validate_game *games;
    int nfindings;
    struct tx_validate_finding *findings;
    struct tx_validate_times first, later;
    int64_t stderr_bytes; /* the bot's, all games */
    int64_t stderr_max;   /* the most in one game */
    int64_t extra_lines;
    int long_messages;
    bool swap_skipped;  /* no opponent that swaps (no bundled twixt-random) */
    unsigned skipped;   /* 1 << scenario for scenarios with no opening on this board (too small) */
    int64_t probe_game; /* the game re-fed for the probe, 0 if none */
    struct tx_refeed_result probe; /* its result (startup_us, probed, exited, nleft, ...) */
};

/* Plays the battery. Returns 0 with *ret filled (passed or not), or a
 * negative errno with a message in err when it could not run (records file
 * not writable, no launcher). Free *ret with tx_validate_report_free in
 * every case. */
int tx_validate_run(const struct tx_validate_config *config, struct tx_validate_report *ret,
                    char *err, size_t errcap);

void tx_validate_report_free(struct tx_validate_report *report);

/* Where the bundled bot `name` ("twixt-random") is: next to an installed
 * twixt-arena, or in build/bots/ (tx_paths_bundled_bot in paths.h, which
 * also says which layout). Returns 0 with the path in buf, or -ENOENT. */
int tx_validate_find_bundled(const char *name, char *buf, size_t cap);

/* "illegal", "timeout", ... and "against", "swap", ... for reports. */
const char *tx_validate_check_name(enum tx_validate_check check);
const char *tx_validate_scenario_name(enum tx_validate_scenario scenario);

#endif
