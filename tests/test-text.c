/* test-text.c - UTF-8 sanitising of bot bytes and counting code points.
 *
 * Covers the strict decoder (every class of invalid sequence becomes one
 * U+FFFD per byte), NUL, the code-point limit and the byte capacity, which
 * must both cut on whole code points and report the cut.
 */
#include <check.h>
#include <stdint.h>
#include <string.h>

#include "text.h"

#define FFFD "\xef\xbf\xbd"

static char out[256];

static bool sanitize(const char *s, size_t len, size_t max_chars)
{
    memset(out, 'X', sizeof(out));
    return tx_text_sanitize(out, sizeof(out), s, len, max_chars);
}

START_TEST(sanitize_keeps_valid_utf8)
{
    static const char *valid[] = {
        "",
        "hello",
        "h\xc3\xa9llo",
        "\xe2\x82\xac 5",
        "\xf0\x9f\x98\x80!",
        "\xef\xbf\xbf",
        "\xf4\x8f\xbf\xbf",
        "\xed\x9f\xbf",
        "\x7f\x01 controls stay",
    };
    for (size_t i = 0; i < sizeof(valid) / sizeof(valid[0]); i++) {
        ck_assert(!sanitize(valid[i], strlen(valid[i]), SIZE_MAX));
        ck_assert_str_eq(out, valid[i]);
    }
}
END_TEST

static const struct {
    const char *in;
    size_t len;
    const char *expect;
} invalid[] = {
    {"a\x80"
     "b",
     3, "a" FFFD "b"},                            /* lone continuation byte */
    {"\xc0\xaf", 2, FFFD FFFD},                   /* overlong '/' */
    {"\xc1\xbf", 2, FFFD FFFD},                   /* overlong */
    {"\xe0\x80\xaf", 3, FFFD FFFD FFFD},          /* overlong 3-byte */
    {"\xf0\x80\x80\xaf", 4, FFFD FFFD FFFD FFFD}, /* overlong 4-byte */
    {"\xed\xa0\x80", 3, FFFD FFFD FFFD},          /* surrogate U+D800 */
    {"\xf4\x90\x80\x80", 4, FFFD FFFD FFFD FFFD}, /* above U+10FFFF */
    {"\xf5\x80", 2, FFFD FFFD},
    {"\xff\xfe", 2, FFFD FFFD},
    {"ok\xe2\x82", 4, "ok" FFFD FFFD}, /* truncated at the end */
    {"\xe2\x82"
     "A",
     3, FFFD FFFD "A"},        /* truncated in the middle */
    {"a\0b", 3, "a" FFFD "b"}, /* NUL */
};

START_TEST(sanitize_replaces_invalid_bytes)
{
    ck_assert(!sanitize(invalid[_i].in, invalid[_i].len, SIZE_MAX));
    ck_assert_str_eq(out, invalid[_i].expect);
}
END_TEST

START_TEST(sanitize_cuts_at_max_chars)
{
    const char *s = "h\xc3\xa9llo w\xc3\xb6rld";
    ck_assert(sanitize(s, strlen(s), 5));
    ck_assert_str_eq(out, "h\xc3\xa9llo");
    ck_assert(!sanitize(s, strlen(s), 11)); /* exactly 11 code points fit */
    ck_assert_str_eq(out, s);
    ck_assert(sanitize(s, strlen(s), 0));
    ck_assert_str_eq(out, "");
    /* A replacement character counts as one code point. */
    ck_assert(sanitize("\xff\xff\xff", 3, 2));
    ck_assert_str_eq(out, FFFD FFFD);
}
END_TEST

START_TEST(sanitize_cuts_at_capacity_on_boundaries)
{
    char small[6];
    memset(small, 'X', sizeof(small));
    /* "é" is 2 bytes: two fit in 5 bytes plus the NUL, a third does not. */
    ck_assert(tx_text_sanitize(small, sizeof(small), "\xc3\xa9\xc3\xa9\xc3\xa9", 6, SIZE_MAX));
    ck_assert_str_eq(small, "\xc3\xa9\xc3\xa9");
    /* A 3-byte replacement does not fit after "abc" in 6 bytes. */
    ck_assert(tx_text_sanitize(small, sizeof(small), "abc\xff", 4, SIZE_MAX));
    ck_assert_str_eq(small, "abc");
    ck_assert(!tx_text_sanitize(small, sizeof(small), "abcde", 5, SIZE_MAX));
    ck_assert_str_eq(small, "abcde");
    char one[1] = {'X'};
    ck_assert(tx_text_sanitize(one, 1, "a", 1, SIZE_MAX));
    ck_assert_int_eq(one[0], '\0');
    ck_assert(!tx_text_sanitize(one, 1, "", 0, SIZE_MAX));
}
END_TEST

START_TEST(sanitize_reads_exactly_len_bytes)
{
    ck_assert(!sanitize("abcdef", 3, SIZE_MAX));
    ck_assert_str_eq(out, "abc");
    /* A sequence cut by len is invalid even if the bytes after it complete it. */
    ck_assert(!sanitize("\xc3\xa9", 1, SIZE_MAX));
    ck_assert_str_eq(out, FFFD);
}
END_TEST

START_TEST(chars_counts_code_points)
{
    ck_assert_uint_eq(tx_text_chars(""), 0);
    ck_assert_uint_eq(tx_text_chars("abc"), 3);
    ck_assert_uint_eq(tx_text_chars("h\xc3\xa9llo"), 5);
    ck_assert_uint_eq(tx_text_chars("\xe2\x82\xac\xf0\x9f\x98\x80" FFFD), 3);
}
END_TEST

static Suite *text_suite(void)
{
    Suite *s = suite_create("text");
    TCase *tc = tcase_create("text");
    tcase_add_test(tc, sanitize_keeps_valid_utf8);
    tcase_add_loop_test(tc, sanitize_replaces_invalid_bytes, 0,
                        (int)(sizeof(invalid) / sizeof(invalid[0])));
    tcase_add_test(tc, sanitize_cuts_at_max_chars);
    tcase_add_test(tc, sanitize_cuts_at_capacity_on_boundaries);
    tcase_add_test(tc, sanitize_reads_exactly_len_bytes);
    tcase_add_test(tc, chars_counts_code_points);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(text_suite());
    srunner_run_all(sr, CK_ENV);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? 0 : 1;
}
