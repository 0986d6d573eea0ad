/* test-verdict.c - the kinds of a turn's verdict and their words (referee/verdict.h).
 *
 * Every detail the seat words for the match and re-feeding is written out
 * here in full: a late answer (with a margin, with soft mode's share used
 * up), no answer, an input never read, a forgiven overrun, the first-turn
 * hint after a forced opening. Where the time went reads "asleep or
 * blocked, on a CPU, waiting for a CPU", and the three add up to the
 * turn's time. No detail holds a parenthesis (replay prints a detail
 * inside them).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record.h"
#include "verdict.h"

static struct tx_limits limits(int margin_ms, bool soft)
{
    struct tx_limits l;
    tx_limits_default(&l);
    l.margin_ms = margin_ms;
    l.soft = soft;
    return l;
}

static void assert_no_parenthesis(const char *detail)
{
    ck_assert_msg(!strchr(detail, '(') && !strchr(detail, ')'), "\"%s\" has a parenthesis", detail);
}

START_TEST(verdict_reasons)
{
    ck_assert_int_eq(tx_verdict_reason(TX_VERDICT_MOVE), -1);
    ck_assert_int_eq(tx_verdict_reason(TX_VERDICT_LATE), TX_REASON_TIMEOUT);
    ck_assert_int_eq(tx_verdict_reason(TX_VERDICT_SILENT), TX_REASON_TIMEOUT);
    ck_assert_int_eq(tx_verdict_reason(TX_VERDICT_UNREAD), TX_REASON_TIMEOUT);
    ck_assert_int_eq(tx_verdict_reason(TX_VERDICT_TOO_LONG), TX_REASON_INVALID);
    ck_assert_int_eq(tx_verdict_reason(TX_VERDICT_NOT_A_MOVE), TX_REASON_INVALID);
    ck_assert_int_eq(tx_verdict_reason(TX_VERDICT_ILLEGAL), TX_REASON_INVALID);
    ck_assert_int_eq(tx_verdict_reason(TX_VERDICT_CRASH), TX_REASON_CRASH);
}
END_TEST

/* A bot that slept: the old words ("on a CPU 0.0 ms, waiting for one
 * 0.0 ms") left out where the 300 ms went. */
START_TEST(verdict_silent_says_where_the_time_went)
{
    char buf[TX_VERDICT_DETAIL_MAX];
    struct tx_verdict_time slept = {
        .us = 350123, .known = true, .cpu_ns = 40000, .wait_ns = 210000};
    tx_verdict_silent(buf, sizeof buf, 300, &slept);
    ck_assert_str_eq(buf, "no answer in 300 ms, killed at 350 ms; asleep or blocked 349.9 ms, on a "
                          "CPU 0.0 ms, waiting for a CPU 0.2 ms");
    assert_no_parenthesis(buf);
    struct tx_verdict_time unknown = {.us = 350123};
    tx_verdict_silent(buf, sizeof buf, 300, &unknown);
    ck_assert_str_eq(buf, "no answer in 300 ms, killed at 350 ms");
}
END_TEST

START_TEST(verdict_late_answers)
{
    char buf[TX_VERDICT_DETAIL_MAX];
    struct tx_limits plain = limits(0, false), margin = limits(20, false), soft = limits(0, true);
    struct tx_verdict_time spun = {
        .us = 352000, .known = true, .cpu_ns = 300500000, .wait_ns = 51000000};
    tx_verdict_late(buf, sizeof buf, &plain, 300, TX_LATE, &spun);
    ck_assert_str_eq(buf, "answered in 352.0 ms, limit 300 ms; asleep or blocked 0.5 ms, on a CPU "
                          "300.5 ms, waiting for a CPU 51.0 ms");
    assert_no_parenthesis(buf);
    tx_verdict_late(buf, sizeof buf, &margin, 300, TX_LATE, &spun);
    ck_assert_str_eq(buf, "answered in 352.0 ms, limit 300 ms + 20 ms margin; asleep or blocked "
                          "0.5 ms, on a CPU 300.5 ms, waiting for a CPU 51.0 ms");
    struct tx_verdict_time small = {.us = 310000};
    tx_verdict_late(buf, sizeof buf, &soft, 300, TX_LATE_SOFT_SPENT, &small);
    ck_assert_str_eq(buf, "answered in 310.0 ms, limit 300 ms, a small overrun, but soft mode "
                          "forgives only 2 a game");
    assert_no_parenthesis(buf);
    /* Samples a few microseconds off the turn's ends never make "asleep"
     * negative. */
    struct tx_verdict_time skewed = {
        .us = 1000, .known = true, .cpu_ns = 900000, .wait_ns = 200000};
    tx_verdict_late(buf, sizeof buf, &plain, 0, TX_LATE, &skewed);
    ck_assert_str_eq(buf, "answered in 1.0 ms, limit 0 ms; asleep or blocked 0.0 ms, on a CPU 0.9 "
                          "ms, waiting for a CPU 0.2 ms");
}
END_TEST

START_TEST(verdict_other_details)
{
    char buf[TX_VERDICT_DETAIL_MAX];
    struct tx_limits soft = limits(0, true);
    tx_verdict_unread(buf, sizeof buf, 350);
    ck_assert_str_eq(buf, "did not read its input in 350 ms");
    tx_verdict_forgiven(buf, sizeof buf, &soft, 300, 312345, 1);
    ck_assert_str_eq(buf, "12.3 ms over the limit, forgiven by soft mode, 1 of 2");
    assert_no_parenthesis(buf);
}
END_TEST

START_TEST(verdict_first_turn_hint)
{
    char buf[TX_VERDICT_DETAIL_MAX] = "occupied hole F6";
    tx_verdict_add_first_turn(buf, sizeof buf, 0);
    ck_assert_str_eq(buf, "occupied hole F6");
    tx_verdict_add_first_turn(buf, sizeof buf, 1);
    ck_assert_str_eq(buf, "occupied hole F6; its first turn, after a forced opening of 1 move");
    snprintf(buf, sizeof buf, "hole L11 in the opponent's border");
    tx_verdict_add_first_turn(buf, sizeof buf, 3);
    ck_assert_str_eq(buf, "hole L11 in the opponent's border; its first turn, after a forced "
                          "opening of 3 moves");
    assert_no_parenthesis(buf);
    /* Bounded by the buffer, NUL-terminated. */
    char small[24] = "occupied hole F6";
    tx_verdict_add_first_turn(small, sizeof small, 3);
    ck_assert_uint_eq(strlen(small), sizeof small - 1);
}
END_TEST

static Suite *verdict_suite(void)
{
    Suite *s = suite_create("verdict");
    TCase *tc = tcase_create("verdict");
    tcase_add_test(tc, verdict_reasons);
    tcase_add_test(tc, verdict_silent_says_where_the_time_went);
    tcase_add_test(tc, verdict_late_answers);
    tcase_add_test(tc, verdict_other_details);
    tcase_add_test(tc, verdict_first_turn_hint);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(verdict_suite());
    srunner_run_all(sr, CK_ENV);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
