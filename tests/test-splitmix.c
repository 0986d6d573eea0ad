/* test-splitmix.c - splitmix64 (protocol/splitmix.h): the mixer's known
 * values, reproducible sequences, and tx_splitmix_below: never n, every
 * value equally likely, and a draw past the last whole multiple of n drawn
 * again. Records hold values made here (a game's seed and forced opening
 * are recomputed from its pairing key), so the expected numbers are
 * written out: any change to the generator fails this suite.
 */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>

#include "splitmix.h"

/* The inverse of tx_splitmix_mix, to build a state whose next draw is a
 * chosen number. */
static uint64_t unmix(uint64_t x)
{
    x ^= x >> 31 ^ x >> 62;
    x *= UINT64_C(0x319642b2d24d8ec3); /* the inverse of 0x94d049bb133111eb mod 2^64 */
    x ^= x >> 27 ^ x >> 54;
    x *= UINT64_C(0x96de1b173f119089); /* the inverse of 0xbf58476d1ce4e5b9 */
    x ^= x >> 30 ^ x >> 60;
    return x;
}

START_TEST(splitmix_next_gives_vignas_values)
{
    /* The first outputs of Vigna's splitmix64.c seeded with 0. */
    static const uint64_t expected[] = {
        UINT64_C(0xe220a8397b1dcdaf), UINT64_C(0x6e789e6aa1b965f4), UINT64_C(0x06c45d188009454f),
        UINT64_C(0xf88bb8a8724c81ec), UINT64_C(0x1b39896a51a8749b),
    };
    struct tx_splitmix g = {0};
    for (size_t i = 0; i < sizeof expected / sizeof expected[0]; i++)
        ck_assert_uint_eq(tx_splitmix_next(&g), expected[i]);
    ck_assert_uint_eq(g.state, 5 * TX_SPLITMIX_GAMMA);
    ck_assert_uint_eq(tx_splitmix_mix(TX_SPLITMIX_GAMMA), expected[0]);
    ck_assert_uint_eq(tx_splitmix_mix(0), 0);
}
END_TEST

START_TEST(splitmix_mix_is_a_bijection)
{
    /* unmix undoes it, so no two inputs share an output (hash tables and
     * seeds rely on it). */
    struct tx_splitmix g = {12345};
    for (int i = 0; i < 10000; i++) {
        uint64_t x = tx_splitmix_next(&g);
        ck_assert_uint_eq(unmix(tx_splitmix_mix(x)), x);
        ck_assert_uint_eq(tx_splitmix_mix(unmix(x)), x);
    }
}
END_TEST

START_TEST(splitmix_sequence_is_reproducible)
{
    struct tx_splitmix a = {42}, b = {42}, c = {43};
    int same_as_c = 0;
    for (int i = 0; i < 1000; i++) {
        uint64_t x = tx_splitmix_next(&a);
        ck_assert_uint_eq(tx_splitmix_next(&b), x);
        same_as_c += tx_splitmix_next(&c) == x;
    }
    ck_assert_int_eq(same_as_c, 0);
}
END_TEST

START_TEST(splitmix_below_keeps_its_values)
{
    /* What pairing.c's openings and validate's scenarios draw: pinned. */
    static const struct {
        uint64_t state;
        uint32_t n;
        uint32_t values[6];
    } cases[] = {
        {1, 100, {65, 19, 90, 35, 61, 48}},
        {0x2a, 12, {1, 7, 6, 0, 10, 6}},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct tx_splitmix g = {cases[i].state};
        for (int k = 0; k < 6; k++)
            ck_assert_msg(tx_splitmix_below(&g, cases[i].n) == cases[i].values[k],
                          "case %zu, draw %d", i, k);
    }
}
END_TEST

START_TEST(splitmix_below_never_reaches_n)
{
    static const uint32_t ns[] = {
        1, 2, 3, 7, 10, 1000, UINT32_C(1) << 31, (UINT32_C(1) << 31) + 1, UINT32_MAX};
    struct tx_splitmix g = {7};
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++)
        for (int k = 0; k < 10000; k++) {
            uint32_t v = tx_splitmix_below(&g, ns[i]);
            ck_assert_msg(v < ns[i], "below(%u) gave %u", ns[i], v);
        }
}
END_TEST

START_TEST(splitmix_below_is_uniform)
{
    /* 300,000 draws of below(n) for small n: every value's count is near
     * draws / n, by a chi-square test at p = 0.001 (a deterministic
     * sequence, so the test cannot flake: it passes or fails every time). */
    static const struct {
        uint32_t n;
        double critical; /* chi-square, n - 1 degrees of freedom, p = 0.001 */
    } cases[] = {{2, 10.83}, {3, 13.82}, {5, 18.47}, {6, 20.52}, {7, 22.46}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const int draws = 300000;
        uint32_t n = cases[i].n;
        long count[8] = {0};
        struct tx_splitmix g = {n};
        for (int k = 0; k < draws; k++)
            count[tx_splitmix_below(&g, n)]++;
        double expected = (double)draws / n, chi2 = 0;
        for (uint32_t v = 0; v < n; v++)
            chi2 += (count[v] - expected) * (count[v] - expected) / expected;
        ck_assert_msg(chi2 < cases[i].critical, "below(%u): chi-square %.2f", n, chi2);
    }
}
END_TEST

START_TEST(splitmix_below_draws_again_past_the_last_multiple)
{
    /* For n = 3 * 2^30 the largest multiple of n below 2^64 is 2^64 - 2^30:
     * a draw at or above it would favour the small values, so it is thrown
     * away and the next draw is used. `% n` alone would return
     * UINT64_MAX % n and advance the state once. */
    uint32_t n = UINT32_C(3) << 30;
    uint64_t start = unmix(UINT64_MAX) - TX_SPLITMIX_GAMMA; /* next draw: UINT64_MAX */
    struct tx_splitmix g = {start}, check = {start};
    ck_assert_uint_eq(tx_splitmix_next(&check), UINT64_MAX);
    uint64_t second = tx_splitmix_next(&check);
    ck_assert_uint_lt(second, UINT64_MAX - (UINT64_C(1) << 30));
    ck_assert_uint_eq(tx_splitmix_below(&g, n), second % n);
    ck_assert_uint_eq(g.state, check.state);
}
END_TEST

static Suite *splitmix_suite(void)
{
    Suite *s = suite_create("splitmix");
    TCase *tc = tcase_create("splitmix");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, splitmix_next_gives_vignas_values);
    tcase_add_test(tc, splitmix_mix_is_a_bijection);
    tcase_add_test(tc, splitmix_sequence_is_reproducible);
    tcase_add_test(tc, splitmix_below_keeps_its_values);
    tcase_add_test(tc, splitmix_below_never_reaches_n);
    tcase_add_test(tc, splitmix_below_is_uniform);
    tcase_add_test(tc, splitmix_below_draws_again_past_the_last_multiple);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(splitmix_suite());
    srunner_run_all(sr, CK_ENV);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
