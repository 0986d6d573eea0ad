/* test-limits.c - the limits type and the one timing rule (protocol/bot-limits.h).
 *
 * tx_limits_judge is the rule the seat (so the match and re-feeding) and
 * the record verifier all apply, so a table states it once, with the
 * numbers written out: on time, exactly at the limit, within and past a
 * margin, soft mode forgiving two small overruns and not a third nor a
 * large one, and limits of INT32_MAX that must not overflow. The kill time
 * and the derived CPU seconds are checked the same way: changing a constant
 * of bot-limits.h makes this suite fail.
 */
#include <check.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>

#include "bot-limits.h"

START_TEST(limits_defaults_are_codingame_s)
{
    struct tx_limits l;
    tx_limits_default(&l);
    ck_assert_int_eq(l.first_turn_ms, 1000);
    ck_assert_int_eq(l.turn_ms, 300);
    ck_assert_int_eq(l.margin_ms, 0);
    ck_assert(!l.soft);
    ck_assert_int_eq(l.memory_mb, 768);
    ck_assert_int_eq(l.cpu_s, 0);
    ck_assert_int_eq(tx_limits_turn_ms(&l, true), 1000);
    ck_assert_int_eq(tx_limits_turn_ms(&l, false), 300);
}
END_TEST

/* One answer after another, for one bot in one game: soft_used carries
 * over from row to row within a sequence (seq), and starts at 0 in each. */
static const struct judge_case {
    const char *name;
    int seq;
    int turn_ms, margin_ms;
    bool soft;
    int limit_ms; /* the turn's limit */
    int64_t us;
    enum tx_lateness want;
    int soft_used; /* after the answer */
} judge_cases[] = {
    {"on time", 1, 300, 0, false, 300, 120000, TX_ON_TIME, 0},
    {"exactly at the limit", 2, 300, 0, false, 300, 300000, TX_ON_TIME, 0},
    {"one microsecond over", 3, 300, 0, false, 300, 300001, TX_LATE, 0},
    {"the first turn's limit", 4, 300, 0, false, 1000, 999999, TX_ON_TIME, 0},
    {"within the margin", 5, 300, 20, false, 300, 320000, TX_ON_TIME, 0},
    {"past the margin", 6, 300, 20, false, 300, 320001, TX_LATE, 0},
    {"soft: first small overrun", 7, 300, 0, true, 300, 340000, TX_LATE_FORGIVEN, 1},
    {"soft: second, exactly 50 ms over", 7, 300, 0, true, 300, 350000, TX_LATE_FORGIVEN, 2},
    {"soft: on time in between", 7, 300, 0, true, 300, 200000, TX_ON_TIME, 2},
    {"soft: the third small overrun", 7, 300, 0, true, 300, 301000, TX_LATE_SOFT_SPENT, 2},
    {"soft: an overrun too large", 8, 300, 0, true, 300, 350001, TX_LATE, 0},
    {"soft: after the margin", 9, 300, 20, true, 300, 370000, TX_LATE_FORGIVEN, 1},
    {"soft: too large after the margin", 9, 300, 20, true, 300, 370001, TX_LATE, 1},
    {"INT32_MAX limit, no overflow", 10, INT_MAX, INT_MAX, false, INT_MAX, INT64_C(4294967294000),
     TX_ON_TIME, 0},
    {"INT32_MAX limit and margin, 1 us over", 11, INT_MAX, INT_MAX, false, INT_MAX,
     INT64_C(4294967294001), TX_LATE, 0},
    {"INT32_MAX limit, small answer", 12, INT_MAX, 5, true, INT_MAX, 1000, TX_ON_TIME, 0},
};

START_TEST(limits_judge_table)
{
    int soft_used = 0, seq = 0;
    for (size_t i = 0; i < sizeof judge_cases / sizeof judge_cases[0]; i++) {
        const struct judge_case *c = &judge_cases[i];
        if (c->seq != seq)
            soft_used = 0;
        seq = c->seq;
        struct tx_limits l;
        tx_limits_default(&l);
        l.first_turn_ms = 1000;
        l.turn_ms = c->turn_ms;
        l.margin_ms = c->margin_ms;
        l.soft = c->soft;
        enum tx_lateness got = tx_limits_judge(&l, c->limit_ms, c->us, &soft_used);
        ck_assert_msg(got == c->want && soft_used == c->soft_used,
                      "%s: judged %d with %d forgiven, expected %d with %d", c->name, (int)got,
                      soft_used, (int)c->want, c->soft_used);
        ck_assert_int_eq(tx_limits_is_timeout(got),
                         c->want == TX_LATE || c->want == TX_LATE_SOFT_SPENT);
    }
}
END_TEST

START_TEST(limits_allowed_and_kill_times)
{
    struct tx_limits l;
    tx_limits_default(&l);
    ck_assert_int_eq(tx_limits_allowed_us(&l, 300), 300000);
    ck_assert_int_eq(tx_limits_kill_after_ms(&l, 300), 350); /* + the kill grace */
    l.margin_ms = 20;
    ck_assert_int_eq(tx_limits_allowed_us(&l, 300), 320000);
    ck_assert_int_eq(tx_limits_kill_after_ms(&l, 300), 370);
    l.soft = true; /* a silent bot also gets the overrun soft mode may forgive */
    ck_assert_int_eq(tx_limits_kill_after_ms(&l, 300), 420);
    l.margin_ms = INT_MAX;
    ck_assert_int_eq(tx_limits_allowed_us(&l, INT_MAX), INT64_C(4294967294000));
    ck_assert_int_eq(tx_limits_kill_after_ms(&l, INT_MAX), INT64_C(4294967394));
}
END_TEST

START_TEST(limits_cpu_seconds)
{
    struct tx_limits l;
    tx_limits_default(&l);
    /* 1000 + 72 turns of 350 ms = 26.2 s, twice over, plus 10 s. */
    ck_assert_int_eq(tx_limits_cpu_s(&l, 72), 62);
    l.cpu_s = 7; /* given: taken as is */
    ck_assert_int_eq(tx_limits_cpu_s(&l, 72), 7);
    l.cpu_s = 0;
    l.first_turn_ms = l.turn_ms = l.margin_ms = INT_MAX;
    ck_assert_int_eq(tx_limits_cpu_s(&l, 340), INT_MAX);
}
END_TEST

static Suite *limits_suite(void)
{
    Suite *s = suite_create("limits");
    TCase *tc = tcase_create("limits");
    tcase_add_test(tc, limits_defaults_are_codingame_s);
    tcase_add_test(tc, limits_judge_table);
    tcase_add_test(tc, limits_allowed_and_kill_times);
    tcase_add_test(tc, limits_cpu_seconds);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(limits_suite());
    srunner_run_all(sr, CK_ENV);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
