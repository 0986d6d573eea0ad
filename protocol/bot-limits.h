/* bot-limits.h - a game's time and resource limits, and the one timing rule.
 *
 * Every part of the arena that decides or checks whether an answer was in
 * time (the referee's seat, so the match and re-feeding, and the record
 * verifier) takes its numbers and its rule from here, so they cannot drift
 * apart; the options, the match config, the record and the run's
 * fingerprint all hold a struct tx_limits. The defaults are CodinGame's
 * (RULES.md "Time") and are written nowhere else. Pure: no I/O, no clock;
 * the callers measure, this file only judges. Every sum is computed in
 * int64_t: limits read from a hand-edited record may be as large as
 * INT32_MAX each.
 */
#ifndef TX_BOT_LIMITS_H
#define TX_BOT_LIMITS_H

#include <stdbool.h>
#include <stdint.h>

/* Plain decimal numbers: the option table writes them into --help. */
#define TX_LIMITS_FIRST_TURN_MS 1000    /* each bot's own first turn */
#define TX_LIMITS_TURN_MS 300           /* every later turn */
#define TX_LIMITS_MARGIN_MS 0           /* lateness forgiven before a timeout */
#define TX_LIMITS_MEMORY_MB 768         /* CodinGame's memory limit */
#define TX_LIMITS_MEMORY_MB_MIN 16      /* a memory limit (0, none, aside): the smallest... */
#define TX_LIMITS_MEMORY_MB_MAX 1048576 /* ...and the largest (1 TiB) accepted anywhere */
#define TX_LIMITS_MS_MAX 3600000        /* the largest limit or margin accepted anywhere */
#define TX_LIMITS_KILL_GRACE_MS 50      /* a silent bot is killed this long after it is late */
#define TX_LIMITS_SOFT_OVER_MS 50       /* soft mode: lateness that may be forgiven... */
#define TX_LIMITS_SOFT_FORGIVEN 2       /* ...this many times per bot per game */

struct tx_limits {
    int first_turn_ms; /* 1..TX_LIMITS_MS_MAX */
    int turn_ms;       /* 1..TX_LIMITS_MS_MAX */
    int margin_ms;     /* 0..TX_LIMITS_MS_MAX */
    bool soft;         /* CodinGame soft mode (RULES.md "Time") */
    int memory_mb;     /* each bot's memory, 0 for no limit (not in records) */
    int cpu_s;         /* each bot's CPU seconds for a whole game, 0: derived (not in records) */
};

/* How an answer stands against its turn's limit, and why. */
enum tx_lateness {
    TX_ON_TIME = 0,     /* within limit + margin */
    TX_LATE_FORGIVEN,   /* soft mode: a small overrun, forgiven */
    TX_LATE_SOFT_SPENT, /* a timeout: a small overrun, but soft mode forgave its share already */
    TX_LATE,            /* a timeout: over by more than soft mode forgives, or not soft */
};

/* The defaults above. */
void tx_limits_default(struct tx_limits *l);

/* The limit of a turn: first_turn_ms for the bot's own first turn. */
int tx_limits_turn_ms(const struct tx_limits *l, bool first_turn);

/* limit_ms + margin, in microseconds: an answer taking longer is late. */
int64_t tx_limits_allowed_us(const struct tx_limits *l, int limit_ms);

/* When a bot still silent is killed, in ms after its turn began: limit,
 * margin, the soft overrun when soft, and the kill grace. */
int64_t tx_limits_kill_after_ms(const struct tx_limits *l, int limit_ms);

/* Judges an answer that took us microseconds on a turn of limit_ms.
 * *soft_used counts the overruns already forgiven to this bot in this game
 * and is incremented when one more is. */
enum tx_lateness tx_limits_judge(const struct tx_limits *l, int limit_ms, int64_t us,
                                 int *soft_used);

/* True for the two verdicts of tx_limits_judge that lose the game. */
bool tx_limits_is_timeout(enum tx_lateness lateness);

/* CPU seconds a bot may use in a game of `turns` turns of its own when
 * cpu_s is 0: every turn's full allowance twice over (two cores), plus
 * room for a slow start. */
int tx_limits_cpu_s(const struct tx_limits *l, int turns);

#endif
