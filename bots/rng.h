/* rng.h - the bots' small, seedable random number generator.
 *
 * Bots need reproducible games (--seed N) and a generator that costs a few
 * nanoseconds per draw, because a playout draws one number per move.
 * xorshift64* seeded through libtwixt's splitmix64 (splitmix.h, the
 * arena's one seeded generator; its first number spreads small seeds):
 * good enough statistics for move choice, and the state is one word the
 * caller owns (no hidden globals). The bots keep a generator of their own
 * for speed: a draw here is one multiply and tx_rng_below needs no
 * division, which a playout's hundreds of draws feel; no record depends
 * on these values.
 */
#ifndef TX_BOTS_RNG_H
#define TX_BOTS_RNG_H

#include <stdint.h>

#include "splitmix.h"

struct tx_rng {
    uint64_t state; /* never 0 */
};

static inline void tx_rng_seed(struct tx_rng *rng, uint64_t seed)
{
    struct tx_splitmix spread = {seed};
    uint64_t z = tx_splitmix_next(&spread);
    rng->state = z ? z : 1;
}

static inline uint64_t tx_rng_next(struct tx_rng *rng)
{
    uint64_t x = rng->state;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    rng->state = x;
    return x * 0x2545f4914f6cdd1dULL;
}

/* Uniform in 0..n-1 (n > 0); the multiply-shift avoids a division. */
static inline uint32_t tx_rng_below(struct tx_rng *rng, uint32_t n)
{
    return (uint32_t)(((tx_rng_next(rng) >> 32) * (uint64_t)n) >> 32);
}

/* Uniform in [0, 1). */
static inline double tx_rng_unit(struct tx_rng *rng)
{
    return (double)(tx_rng_next(rng) >> 11) * (1.0 / 9007199254740992.0);
}

#endif
