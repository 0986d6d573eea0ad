/* verdict.c - the words of verdict.h.
 *
 * Times are printed in ms with one decimal, limits in whole ms, as the
 * record's readers (replay, validate, play's result lines) show them. Only
 * a turn that ended badly is worded: a legal move costs nothing here.
 */
#include "verdict.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "record.h"

int tx_verdict_reason(enum tx_verdict verdict)
{
    switch (verdict) {
    case TX_VERDICT_MOVE:
        return -1;
    case TX_VERDICT_LATE:
    case TX_VERDICT_SILENT:
    case TX_VERDICT_UNREAD:
        return TX_REASON_TIMEOUT;
    case TX_VERDICT_TOO_LONG:
    case TX_VERDICT_NOT_A_MOVE:
    case TX_VERDICT_ILLEGAL:
        return TX_REASON_INVALID;
    case TX_VERDICT_CRASH:
        return TX_REASON_CRASH;
    }
    return -1;
}

static void add(char *buf, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void add(char *buf, size_t cap, const char *fmt, ...)
{
    size_t len = strnlen(buf, cap);
    if (len + 1 >= cap)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + len, cap - len, fmt, ap);
    va_end(ap);
}

/* "; asleep or blocked X ms, on a CPU Y ms, waiting for a CPU Z ms": the
 * three add up to the turn's time (the two samples are a few microseconds
 * off its ends, so the first never goes below 0). */
static void add_time(char *buf, size_t cap, const struct tx_verdict_time *t)
{
    if (!t || !t->known)
        return;
    double cpu = (double)t->cpu_ns / 1e6, wait = (double)t->wait_ns / 1e6;
    double asleep = (double)t->us / 1000.0 - cpu - wait;
    add(buf, cap, "; asleep or blocked %.1f ms, on a CPU %.1f ms, waiting for a CPU %.1f ms",
        asleep > 0 ? asleep : 0.0, cpu, wait);
}

void tx_verdict_late(char *buf, size_t cap, const struct tx_limits *l, int limit_ms,
                     enum tx_lateness lateness, const struct tx_verdict_time *time)
{
    buf[0] = '\0';
    add(buf, cap, "answered in %.1f ms, limit %d ms", time ? (double)time->us / 1000.0 : 0.0,
        limit_ms);
    if (l->margin_ms)
        add(buf, cap, " + %d ms margin", l->margin_ms);
    if (lateness == TX_LATE_SOFT_SPENT)
        add(buf, cap, ", a small overrun, but soft mode forgives only %d a game",
            TX_LIMITS_SOFT_FORGIVEN);
    add_time(buf, cap, time);
}

void tx_verdict_silent(char *buf, size_t cap, int limit_ms, const struct tx_verdict_time *time)
{
    buf[0] = '\0';
    add(buf, cap, "no answer in %d ms, killed at %lld ms", limit_ms,
        time ? (long long)(time->us / 1000) : 0LL);
    add_time(buf, cap, time);
}

void tx_verdict_unread(char *buf, size_t cap, int64_t kill_ms)
{
    snprintf(buf, cap, "did not read its input in %lld ms", (long long)kill_ms);
}

void tx_verdict_forgiven(char *buf, size_t cap, const struct tx_limits *l, int limit_ms, int64_t us,
                         int soft_used)
{
    snprintf(buf, cap, "%.1f ms over the limit, forgiven by soft mode, %d of %d",
             (double)(us - tx_limits_allowed_us(l, limit_ms)) / 1000.0, soft_used,
             TX_LIMITS_SOFT_FORGIVEN);
}

void tx_verdict_add_first_turn(char *buf, size_t cap, int forced)
{
    if (forced > 0)
        add(buf, cap, "; its first turn, after a forced opening of %d move%s", forced,
            forced == 1 ? "" : "s");
}
