/* verdict.h - what a bot's turn came to, as data, and the words for it.
 *
 * A seat (seat.h) ends every turn with a verdict: a move for its owner to
 * play, or why the bot loses. The kind is data: the match turns it into a
 * record's reason, re-feeding into a line of its table, and nobody reads
 * it back out of the text. The detail is worded here, once, for the match
 * and re-feeding alike; the verifier rebuilds the first-turn hint with the
 * same function to accept it. No detail holds a parenthesis: replay and the
 * renders print a result's detail inside parentheses. Pure: no I/O, no
 * clock (the seat measures, this file words).
 */
#ifndef TX_VERDICT_H
#define TX_VERDICT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bot-limits.h"

#define TX_VERDICT_DETAIL_MAX 256 /* bytes of any detail worded here, NUL included */

enum tx_verdict {
    TX_VERDICT_MOVE = 0,   /* a legal move, in time: the owner plays it */
    TX_VERDICT_LATE,       /* timeout: an answer after limit + margin (tx_limits_judge) */
    TX_VERDICT_SILENT,     /* timeout: no answer when the bot was killed */
    TX_VERDICT_UNREAD,     /* timeout: its input was still not written when it was killed */
    TX_VERDICT_TOO_LONG,   /* invalid: a line over TX_ANSWER_LINE_MAX bytes */
    TX_VERDICT_NOT_A_MOVE, /* invalid: tx_answer_parse refused the line */
    TX_VERDICT_ILLEGAL,    /* invalid: a move the position does not allow (tx_game_check) */
    TX_VERDICT_CRASH,      /* crash: exited, closed its output, stopped reading, or never ran */
};

/* The record's reason (enum tx_reason of record.h) for a verdict that
 * loses: timeout, invalid or crash; -1 for TX_VERDICT_MOVE. */
int tx_verdict_reason(enum tx_verdict verdict);

/* Where a turn's time went, for timeouts: the bot's main thread on a CPU
 * and runnable but waiting for one (tx_bot_sched, sampled when the clock
 * started and at the verdict); the rest of the turn it was asleep or
 * blocked (reading, sleeping, waiting for its own children). */
struct tx_verdict_time {
    int64_t us;               /* the turn's time */
    bool known;               /* cpu_ns and wait_ns were measured */
    uint64_t cpu_ns, wait_ns; /* during the turn */
};

/* "answered in 352.0 ms, limit 300 ms + 20 ms margin; asleep or blocked
 * 0.1 ms, on a CPU 351.7 ms, waiting for a CPU 0.2 ms": an answer judged
 * late (TX_LATE or TX_LATE_SOFT_SPENT, which says that soft mode forgave
 * its share already). */
void tx_verdict_late(char *buf, size_t cap, const struct tx_limits *l, int limit_ms,
                     enum tx_lateness lateness, const struct tx_verdict_time *time);

/* "no answer in 300 ms, killed at 350 ms; asleep or blocked 349.6 ms, on a
 * CPU 0.1 ms, waiting for a CPU 0.3 ms". */
void tx_verdict_silent(char *buf, size_t cap, int limit_ms, const struct tx_verdict_time *time);

/* "did not read its input in 350 ms": the input did not fit the pipe. */
void tx_verdict_unread(char *buf, size_t cap, int64_t kill_ms);

/* "12.3 ms over the limit, forgiven by soft mode, 1 of 2": not a verdict
 * (the answer counts), shown by re-feeding. soft_used counts this one. */
void tx_verdict_forgiven(char *buf, size_t cap, const struct tx_limits *l, int limit_ms, int64_t us,
                         int soft_used);

/* Appends the hint of RULES.md "Forced openings" to a detail when a bot
 * loses at its first turn of a game with a forced opening of `forced`
 * moves: "; its first turn, after a forced opening of 3 moves". Nothing
 * when forced is 0. */
void tx_verdict_add_first_turn(char *buf, size_t cap, int forced);

#endif
