/* validate.h - `twixt-arena validate`: a bot through a battery of games,
 * judged as CodinGame would judge it.
 *
 * The battery plays real games between the bot and bundled opponents with
 * the user's limits, through the tournament runner (runner.h: the battery
 * is its game source, records are built and written off the loop thread),
 * and reads every finding off the records as the games end.
 *
 * Findings: what would lose a game on CodinGame is a failure (an illegal
 * answer, a timeout, a crash, extra output lines, which CodinGame reads as
 * the next answers); what would not is a warning (stderr beyond what the
 * referee keeps, no exit after stdin closes, processes left behind, a slow
 * start-up, answers close to the limit, messages cut at 20 characters).
 * One problem is one finding, however many games it happened in: the
 * finding counts them and keeps its first occurrence (the input, the stderr
 * of that turn, the game and move that replay it). The bot passes when
 * there is no failure.
 *
 * Scenarios of one round (--games N plays N rounds with other seeds), all
 * of them situations CodinGame produces: player 1 and player 2 against
 * each opponent (the random and the strong bundled bot, or the --opponent
 * commands); player 1 against an opponent that answers SWAP; player 2
 * after a first peg on the diagonal and off it (the opponent opens there);
 * player 1 and 2 against twixt-blocker, which blocks until the board is
 * nearly full (long games, late positions with few legal holes), and
 * against twixt-blocker --cross, whose own links cross each other (the PP
 * rule; under classic rules, where no link crosses another, it removes and
 * adds the same links by turns). Under classic rules player 1 and player 2
 * also play against twixt-random making link edits at every turn (links
 * that disappear and come back in the bot's input); the forced-crossing
 * games cannot be. On a board that is not square there is no swap game.
 * With forced_openings, the scenarios CodinGame cannot produce as
 * well: forced openings that place pegs of the bot's colour (a late
 * position with few legal holes, crossing links), labelled arena-only.
 *
 * A re-feed (refeed.h) of the first moves of one game then probes what
 * games cannot show: the start-up time, whether the bot exits by itself
 * when its stdin closes, and whether it leaves processes behind.
 *
 * The report owns its memory (tx_validate_report_free); printing it is the
 * CLI's business (validate-report.h).
 */
#ifndef TX_VALIDATE_H
#define TX_VALIDATE_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#include "bot-limits.h"
#include "geometry.h"
#include "refeed.h"
#include "sandbox.h"

#define TX_VALIDATE_OPPONENTS_MAX 8 /* --opponent commands */
#define TX_VALIDATE_ROUNDS_MAX 1000 /* --games N */
#define TX_VALIDATE_LATE_HOLES 12   /* forced-late: the bot has at most this many legal holes */
#define TX_VALIDATE_PROBE_TURNS 5   /* turns re-fed before the exit probe */
#define TX_VALIDATE_STDERR_MAX                                                                     \
    65536 /* stderr bytes per game beyond which some is lost (TX_BOT_STDERR_KEPT) */
#define TX_VALIDATE_STDERR_SHOWN 2048 /* bytes of a failing turn's stderr kept in its finding */
#define TX_VALIDATE_TIGHT_PERCENT                                                                  \
    80 /* an answer over this share of its limit is a warning (slow-answers) */
#define TX_VALIDATE_SLOW_START_PERCENT                                                             \
    50 /* a start-up over this share of the first turn's limit is a warning */

/* The defaults of validate's own options, as plain numbers (--help states them). */
#define TX_VALIDATE_ROUNDS_DEFAULT 1      /* --games N: rounds of the battery */
#define TX_VALIDATE_CONCURRENCY_DEFAULT 1 /* --concurrency N: the fairest timing */

enum tx_validate_scenario {
    TX_SCENARIO_OPPONENT = 0, /* a plain game against one of the opponents */
    TX_SCENARIO_SWAP,         /* player 1, the opponent answers SWAP */
    TX_SCENARIO_DIAGONAL,     /* player 2, the opponent opens on the diagonal */
    TX_SCENARIO_OFF_DIAGONAL, /* player 2, the opponent opens off the diagonal */
    TX_SCENARIO_BLOCKED,      /* against twixt-blocker: long games, few legal holes at the end */
    TX_SCENARIO_CROSSING,     /* against twixt-blocker --cross: its links cross each other */
    TX_SCENARIO_EDITS,        /* classic: twixt-random removes, adds and declines its links */
    /* Arena only (forced_openings): CodinGame never forces a move. */
    TX_SCENARIO_FORCED_LATE,     /* a forced opening leaving the bot few legal holes */
    TX_SCENARIO_FORCED_CROSSING, /* a forced opening where the opponent's links cross */
    TX_SCENARIOS
};

/* The kinds of finding: the failures first. */
enum tx_validate_check {
    TX_CHECK_ILLEGAL = 0, /* lost by an invalid answer */
    TX_CHECK_TIMEOUT,     /* lost on time */
    TX_CHECK_CRASH,       /* exited, closed stdout, or could not start */
    TX_CHECK_EXTRA_LINES, /* printed more than one line in a turn */
    /* Warnings: reported, not a loss on CodinGame. */
    TX_CHECK_LONG_MESSAGE, /* a message over 20 characters (cut) */
    TX_CHECK_STDERR,       /* more stderr in a game than the referee keeps */
    TX_CHECK_NO_EXIT,      /* still running TX_REFEED_EXIT_WAIT_MS after its stdin closed */
    TX_CHECK_CHILDREN,     /* processes of its session or group outlived it */
    TX_CHECK_SLOW_START,   /* start-up over TX_VALIDATE_SLOW_START_PERCENT of the first turn */
    TX_CHECK_SLOW_ANSWERS, /* answers over TX_VALIDATE_TIGHT_PERCENT of their limit */
    TX_CHECKS
};

struct tx_validate_config {
    const struct tx_geometry *geo;
    enum tx_rules rules;          /* the rule set its games are played under */
    enum tx_opening_rule opening; /* --opening: every game's (scenarios it rules out skipped) */
    const char *name, *command;   /* the bot */
    struct tx_limits limits;      /* for every bot of every game */
    uint64_t seed;                /* per-game seeds and openings */
    int rounds;                   /* the battery this many times, >= 1 */
    int concurrency;              /* games at once, >= 1 */
    bool progress;                /* "game K of N" on stderr as games end (a terminal) */
    bool forced_openings;         /* also the arena-only scenarios */
    /* Bundled opponents, or NULL when not found: */
    const char
        *random_command; /* twixt-random: sparring, swaps with --swap-prob, opens with --first */
    const char *strong_command;  /* twixt-mcts */
    const char *blocker_command; /* twixt-blocker: blocked and (with --cross) crossing games */
    const char *bundled_layout;  /* where they were found: "installed", "build tree" (paths.h) */
    const char *bundled_dir;     /* their directory; NULL when none was found */
    int nopponents;              /* --opponent: these replace random and strong in plain games */
    const char *opponents[TX_VALIDATE_OPPONENTS_MAX];
    /* The records file: new or empty (a file with records is refused), kept.
     * NULL: a new temporary file, removed at the end unless a finding
     * points into it. */
    const char *records;
    /* How the bots are isolated (--sandbox, --bot-network, --pin-cores,
     * --bot-env): made the process's current sandbox once the records file
     * is known, so that it is hidden from the bots (tx_sandbox_configure,
     * which may warn). NULL: the current sandbox as it is. */
    const struct tx_sandbox_request *sandbox;
};

/* One game of the battery. */
struct tx_validate_game {
    int64_t index; /* "game" in the record */
    enum tx_validate_scenario scenario;
    int player;        /* the bot's: 0 (player 1) or 1 */
    char opponent[64]; /* the opponent's display name */
    int nforced;       /* forced opening moves */
    bool codingame;    /* a situation CodinGame produces (no forced move, 12 x 12) */
    int winner;        /* 0, 1 or -1 */
    int reason;        /* enum tx_reason; interrupted until the game has ended */
    char detail[160];
    int nmoves;
    int fewest_holes; /* the fewest legal holes the bot had at one of its turns, -1 if none */
};

/* One problem, however many games it happened in. */
struct tx_validate_finding {
    enum tx_validate_check check;
    char key[200];   /* the problem without the particulars of one game (internal) */
    int count;       /* games it happened in (1 for the probe's findings) */
    int64_t *games;  /* those games, in increasing order (malloc'ed) */
    bool arena_only; /* it happened only in games CodinGame cannot produce */
    /* Its first occurrence (the lowest game): */
    int64_t game; /* where it happened */
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
    bool passed; /* no failure (warnings are allowed) */
    int nfailures, nwarnings;
    int interrupted;        /* the signal that stopped the battery (SIGINT, SIGTERM), or 0 */
    char records[PATH_MAX]; /* the records file, "" when a temporary one was removed */
    bool records_temporary; /* it was made for this run */
    int ngames;
    struct tx_validate_game *games;
    int nfindings;
    struct tx_validate_finding *findings; /* failures first, then warnings; first game first */
    struct tx_validate_times first, later;
    int64_t stderr_bytes; /* the bot's, all games */
    int64_t stderr_max;   /* the most in one game */
    int64_t extra_lines;
    int long_messages;
    const char *skipped[TX_SCENARIOS]; /* why a scenario was not played, NULL when it was */
    bool sandbox_active;               /* the bots ran in the sandbox (sandbox.h) */
    enum tx_sandbox_mode sandbox_mode; /* as asked (--sandbox) */
    char sandbox[512];                 /* tx_sandbox_describe: "on (own PID, ...)", "off", ... */
    int64_t probe_game;                /* the game re-fed for the probe, 0 if none */
    struct tx_refeed_result probe;     /* its result (startup_us, probed, exited, nleft, ...) */
};

/* Plays the battery. Returns 0 with *ret filled (passed or not, or
 * interrupted: ret->interrupted), or a negative errno with a message in err
 * when it could not run: -EEXIST for a records file that already holds
 * something, another code when it cannot be written or a game cannot be
 * started. Free *ret with tx_validate_report_free in every case. */
int tx_validate_run(const struct tx_validate_config *config, struct tx_validate_report *ret,
                    char *err, size_t errcap);

void tx_validate_report_free(struct tx_validate_report *report);

/* The command of the bundled bot `name` ("twixt-random") as an opponent in
 * games of variant: "'PATH' --seed {seed} --size {size}" on a square
 * board, "--board {width}x{height}" instead on another, then "--rules
 * {rules}" under classic rules, then extra when not NULL ("--ms 100");
 * malloc'ed. PATH is next to an installed twixt-arena, or in build/bots/
 * (tx_paths_bundled_bot in paths.h). NULL when it is not found (or its
 * path holds a quote). */
char *tx_validate_bundled_command(const char *name, const struct tx_variant *variant,
                                  const char *extra);

/* "illegal", "timeout", ... and "against", "swap", ... for reports. */
const char *tx_validate_check_name(enum tx_validate_check check);
const char *tx_validate_scenario_name(enum tx_validate_scenario scenario);

/* True for the checks that fail the validation (a loss on CodinGame). */
bool tx_validate_check_fails(enum tx_validate_check check);

/* True when a game of scenario under config's rule set and board is one
 * CodinGame can produce: a scenario with no forced move for the bot, pp
 * on 12 x 12 (it plays nothing else). Games and findings that are not are labelled arena only. */
bool tx_validate_codingame(const struct tx_validate_config *config,
                           enum tx_validate_scenario scenario);

#endif
