/* test-alloc.c - the allocation helper (protocol/alloc.h): what it returns,
 * and that running out of memory aborts.
 *
 * The abort cases ask for more memory than any machine has (SIZE_MAX
 * bytes), which malloc refuses at once. They need Check's fork mode (the
 * abort kills the test's process), so they are left out under CK_FORK=no
 * (the valgrind setup); under AddressSanitizer, whose own allocator would
 * report such a size as an error instead of returning NULL,
 * __asan_default_options lets it return NULL as malloc does.
 */
#include <check.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"

#if defined(__SANITIZE_ADDRESS__)
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
    return "allocator_may_return_null=1";
}
#endif

START_TEST(alloc_strdup_copies_and_keeps_null)
{
    const char *s = "twixt";
    char *copy = tx_strdup(s);
    ck_assert_ptr_ne(copy, s);
    ck_assert_str_eq(copy, "twixt");
    free(copy);
    ck_assert_ptr_null(tx_strdup(NULL));
}
END_TEST

START_TEST(alloc_strndup_cuts_at_n_or_the_end)
{
    static const struct {
        const char *s;
        size_t n;
        const char *expected;
    } cases[] = {
        {"F6 going left", 2, "F6"},
        {"F6", 10, "F6"},
        {"F6", 0, ""},
        {"", 5, ""},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *copy = tx_strndup(cases[i].s, cases[i].n);
        ck_assert_str_eq(copy, cases[i].expected);
        free(copy);
    }
}
END_TEST

START_TEST(alloc_zero_bytes_is_not_null)
{
    /* NULL means out of memory and nothing else: an empty list is a pointer. */
    void *a = tx_xmalloc(0), *b = tx_xcalloc(0, 8), *c = tx_xcalloc(8, 0),
         *d = tx_xrealloc(NULL, 0);
    ck_assert_ptr_nonnull(a);
    ck_assert_ptr_nonnull(b);
    ck_assert_ptr_nonnull(c);
    ck_assert_ptr_nonnull(d);
    free(a), free(b), free(c), free(d);
}
END_TEST

START_TEST(alloc_calloc_zeroes_and_realloc_keeps)
{
    unsigned char *p = tx_xcalloc(100, 1);
    for (int i = 0; i < 100; i++)
        ck_assert_int_eq(p[i], 0);
    memset(p, 7, 100);
    p = tx_xrealloc(p, 1 << 20);
    for (int i = 0; i < 100; i++)
        ck_assert_int_eq(p[i], 7);
    free(p);
}
END_TEST

START_TEST(alloc_xcheck_passes_a_pointer_through)
{
    int x;
    ck_assert_ptr_eq(tx_xcheck(&x), &x);
}
END_TEST

/* Each of these must die by SIGABRT (tcase_add_test_raise_signal). */
START_TEST(alloc_malloc_out_of_memory_aborts)
{
    tx_xmalloc(SIZE_MAX);
}
END_TEST

START_TEST(alloc_calloc_overflow_aborts)
{
    tx_xcalloc(SIZE_MAX / 2, 4); /* the product does not fit a size_t */
}
END_TEST

START_TEST(alloc_realloc_out_of_memory_aborts)
{
    void *p = tx_xmalloc(16);
    tx_xrealloc(p, SIZE_MAX);
}
END_TEST

START_TEST(alloc_xcheck_null_aborts)
{
    tx_xcheck(NULL);
}
END_TEST

static Suite *alloc_suite(void)
{
    Suite *s = suite_create("alloc");
    TCase *tc = tcase_create("alloc");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, alloc_strdup_copies_and_keeps_null);
    tcase_add_test(tc, alloc_strndup_cuts_at_n_or_the_end);
    tcase_add_test(tc, alloc_zero_bytes_is_not_null);
    tcase_add_test(tc, alloc_calloc_zeroes_and_realloc_keeps);
    tcase_add_test(tc, alloc_xcheck_passes_a_pointer_through);
    const char *ck_fork = getenv("CK_FORK");
    if (!ck_fork || strcmp(ck_fork, "no")) {
        tcase_add_test_raise_signal(tc, alloc_malloc_out_of_memory_aborts, SIGABRT);
        tcase_add_test_raise_signal(tc, alloc_calloc_overflow_aborts, SIGABRT);
        tcase_add_test_raise_signal(tc, alloc_realloc_out_of_memory_aborts, SIGABRT);
        tcase_add_test_raise_signal(tc, alloc_xcheck_null_aborts, SIGABRT);
    }
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(alloc_suite());
    srunner_run_all(sr, CK_ENV);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
