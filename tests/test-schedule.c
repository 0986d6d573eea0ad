/* test-schedule.c - openings files checked line by line. (Which games a
 * run plays is pool.h's: test-pool.c; a game's seed and opening are
 * pairing.h's: test-pairing.c; the seed mixer is splitmix.h's:
 * test-splitmix.c.)
 */
#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "schedule.h"

static struct tx_geometry *geo;

static int parse(const char *text, char *err, struct tx_opening **lines, int *n)
{
    (tx_geometry_free(geo), tx_geometry_new(12, 12, &geo));
    return tx_schedule_parse_openings(geo, TX_RULES_PP, "open.txt", text, strlen(text), lines, n,
                                      err, 256);
}

START_TEST(schedule_openings_file_parsed)
{
    struct tx_opening *lines;
    int n;
    char err[256] = "";
    ck_assert_int_eq(parse("# two openings\nF6 G8 D5\n\n  B2\r\n", err, &lines, &n), 0);
    ck_assert_int_eq(n, 2);
    ck_assert_int_eq(lines[0].nmoves, 3);
    ck_assert_int_eq(lines[0].moves[0], 5 * 12 + 5);
    ck_assert_int_eq(lines[1].nmoves, 1);
    ck_assert_int_eq(lines[1].moves[0], 1 * 12 + 1);

    free(lines);
}
END_TEST

START_TEST(schedule_openings_file_errors_name_the_line)
{
    static const struct {
        const char *text, *message;
    } cases[] = {
        {"F6\nF6 F6\n", "open.txt:2: move 2 (F6): occupied hole F6"},
        {"F6 SWAP\n", "open.txt:1: move 2: SWAP is not allowed in an opening"},
        {"F6\n\nf6\n", "open.txt:3: move 1: expected a hole name like F6, got \"f6\""},
        {"M5\n", "open.txt:1: move 1: expected a hole name like F6, got \"M5\""},
        {"A1\n", "open.txt:1: move 1 (A1): corner A1"},
        {"# nothing\n\n", "open.txt: no opening in the file"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct tx_opening *lines = NULL;
        int n = 0;
        char err[256] = "";
        ck_assert_int_eq(parse(cases[i].text, err, &lines, &n), -EINVAL);
        ck_assert_msg(!strncmp(err, cases[i].message, strlen(cases[i].message)),
                      "case %zu: got '%s'", i, err);
    }
}
END_TEST

static Suite *schedule_suite(void)
{
    Suite *s = suite_create("schedule");
    TCase *tc = tcase_create("schedule");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, schedule_openings_file_parsed);
    tcase_add_test(tc, schedule_openings_file_errors_name_the_line);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(schedule_suite());
    srunner_run_all(sr, CK_ENV);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
