/* splitmix.c - splitmix64 (see splitmix.h). The constants are Vigna's
 * splitmix64.c; records depend on every value, so nothing here may change. */
#include "splitmix.h"

uint64_t tx_splitmix_mix(uint64_t x)
{
    x = (x ^ (x >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    x = (x ^ (x >> 27)) * UINT64_C(0x94d049bb133111eb);
    return x ^ (x >> 31);
}

uint64_t tx_splitmix_next(struct tx_splitmix *g)
{
    g->state += TX_SPLITMIX_GAMMA;
    return tx_splitmix_mix(g->state);
}

uint32_t tx_splitmix_below(struct tx_splitmix *g, uint32_t n)
{
    /* limit is a multiple of n (UINT64_MAX minus its remainder), so the
     * values below it fall on each residue equally often. */
    uint64_t limit = UINT64_MAX - UINT64_MAX % n;
    uint64_t r;
    do
        r = tx_splitmix_next(g);
    while (r >= limit);
    return (uint32_t)(r % n);
}
