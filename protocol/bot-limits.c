/* bot-limits.c - the defaults and the timing rule of bot-limits.h.
 *
 * All arithmetic is in int64_t: limits loaded from a hand-edited record may
 * be as large as INT32_MAX, and a sum of two of them must not overflow.
 */
#include "bot-limits.h"

#include <limits.h>

void tx_limits_default(struct tx_limits *l)
{
    *l = (struct tx_limits){
        .first_turn_ms = TX_LIMITS_FIRST_TURN_MS,
        .turn_ms = TX_LIMITS_TURN_MS,
        .margin_ms = TX_LIMITS_MARGIN_MS,
        .soft = false,
        .memory_mb = TX_LIMITS_MEMORY_MB,
        .cpu_s = 0,
    };
}

int tx_limits_turn_ms(const struct tx_limits *l, bool first_turn)
{
    return first_turn ? l->first_turn_ms : l->turn_ms;
}

int64_t tx_limits_allowed_us(const struct tx_limits *l, int limit_ms)
{
    return ((int64_t)limit_ms + l->margin_ms) * 1000;
}

int64_t tx_limits_kill_after_ms(const struct tx_limits *l, int limit_ms)
{
    return (int64_t)limit_ms + l->margin_ms + (l->soft ? TX_LIMITS_SOFT_OVER_MS : 0) +
           TX_LIMITS_KILL_GRACE_MS;
}

enum tx_lateness tx_limits_judge(const struct tx_limits *l, int limit_ms, int64_t us,
                                 int *soft_used)
{
    int64_t allowed = tx_limits_allowed_us(l, limit_ms);
    if (us <= allowed)
        return TX_ON_TIME;
    if (!l->soft || us - allowed > TX_LIMITS_SOFT_OVER_MS * 1000)
        return TX_LATE;
    if (*soft_used >= TX_LIMITS_SOFT_FORGIVEN)
        return TX_LATE_SOFT_SPENT;
    ++*soft_used;
    return TX_LATE_FORGIVEN;
}

bool tx_limits_is_timeout(enum tx_lateness lateness)
{
    return lateness == TX_LATE || lateness == TX_LATE_SOFT_SPENT;
}

int tx_limits_cpu_s(const struct tx_limits *l, int turns)
{
    if (l->cpu_s > 0)
        return l->cpu_s;
    int64_t ms =
        (int64_t)l->first_turn_ms + (int64_t)turns * tx_limits_kill_after_ms(l, l->turn_ms);
    int64_t s = 2 * ms / 1000 + 10;
    return s > INT_MAX ? INT_MAX : (int)s;
}
