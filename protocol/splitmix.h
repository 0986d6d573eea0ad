/* splitmix.h - splitmix64: the mixer, a seeded generator, an unbiased pick.
 *
 * Every number the arena derives from a seed comes from here: each game's
 * seed and random forced opening (referee/pairing.c), validate's openings
 * and seeds (referee/validate-plan.c), the hash tables' mixing
 * (referee/records.c) and the seeding of the bots' own generator
 * (bots/rng.h). splitmix64 (Steele, Lea, Flood, "Fast splittable
 * pseudorandom number generators", OOPSLA 2014; Vigna's splitmix64.c) is
 * tiny, the same on every machine, and its output function is a bijection
 * of 64 bits, so it also serves as a hash finaliser.
 *
 * The values are part of the records: a game's seed and forced opening are
 * recomputed from its pairing key when a record is checked, so a change to
 * tx_splitmix_mix, tx_splitmix_next or tx_splitmix_below would make every
 * record written so far fail its identity. tests/test-splitmix.c pins them.
 * Pure: the state is the caller's, no globals.
 */
#ifndef TX_SPLITMIX_H
#define TX_SPLITMIX_H

#include <stdint.h>

/* The generator's increment: 2^64 divided by the golden ratio, odd. */
#define TX_SPLITMIX_GAMMA UINT64_C(0x9e3779b97f4a7c15)

/* A generator: its whole state, which any 64-bit value may seed. */
struct tx_splitmix {
    uint64_t state;
};

/* The output function: a bijective mixer of 64 bits, so that inputs that
 * differ in one bit give unrelated outputs. */
uint64_t tx_splitmix_mix(uint64_t x);

/* The next number: the state advances by TX_SPLITMIX_GAMMA and is mixed. */
uint64_t tx_splitmix_next(struct tx_splitmix *g);

/* A number in [0, n) (n > 0), every value equally likely: draws that fall
 * past the largest multiple of n below 2^64 are drawn again, where `% n`
 * alone would favour the small values. */
uint32_t tx_splitmix_below(struct tx_splitmix *g, uint32_t n);

#endif
