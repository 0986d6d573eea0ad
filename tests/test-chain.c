/* test-chain.c - the hash chain through a records file: sealed lines read
 * back, and every kind of tampering found at its line (a table of files
 * made from one good file).
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chain.h"

#define LINES 4

/* LINES sealed records, as a writer appends them. */
static char *good[LINES];

static void seal_file(void)
{
    char prev[TX_CHAIN_HEX], hash[TX_CHAIN_HEX];
    memcpy(prev, tx_chain_start, TX_CHAIN_HEX);
    for (int i = 0; i < LINES; i++) {
        char json[64];
        snprintf(json, sizeof json, "{\"game\":%d,\"us\":%d}", i + 1, 100 * (i + 1));
        good[i] = tx_chain_seal(json, strlen(json), prev, hash);
        ck_assert_ptr_nonnull(good[i]);
        memcpy(prev, hash, TX_CHAIN_HEX);
    }
}

static void free_file(void)
{
    for (int i = 0; i < LINES; i++)
        free(good[i]);
}

START_TEST(chain_seal_and_read)
{
    seal_file();
    char prev[TX_CHAIN_HEX], hash[TX_CHAIN_HEX], next[TX_CHAIN_HEX];
    ck_assert_int_eq(tx_chain_read(good[0], strlen(good[0]), prev, hash), TX_CHAIN_OK);
    ck_assert_str_eq(prev, tx_chain_start);
    ck_assert(!strncmp(good[0], "{\"game\":1,\"us\":100,\"chain\":{\"prev\":\"0000", 40));
    ck_assert_int_eq(tx_chain_read(good[1], strlen(good[1]), prev, next), TX_CHAIN_OK);
    ck_assert_str_eq(prev, hash); /* the second follows the first */

    /* A CR before the newline (the file went through Windows) is fine. */
    char crlf[256];
    snprintf(crlf, sizeof crlf, "%s\r", good[1]);
    ck_assert_int_eq(tx_chain_read(crlf, strlen(crlf), prev, hash), TX_CHAIN_OK);

    /* One byte changed: the hash no longer matches. */
    char *edited = strdup(good[1]);
    edited[15] = '9'; /* "us":200 -> "us":900 */
    ck_assert_int_eq(tx_chain_read(edited, strlen(edited), prev, hash), TX_CHAIN_EDITED);
    free(edited);

    ck_assert_int_eq(tx_chain_read("{\"game\":1}", 10, prev, hash), TX_CHAIN_NONE);
    ck_assert_ptr_null(tx_chain_seal("[1]", 3, tx_chain_start, hash));

    tx_chain_continue(good[3], strlen(good[3]), prev);
    tx_chain_read(good[3], strlen(good[3]), next, hash);
    ck_assert_str_eq(prev, hash);
    tx_chain_continue("{\"game\":1}", 10, prev);
    ck_assert_str_eq(prev, tx_chain_start);
    free_file();
}
END_TEST

/* A file made of good lines (by index), an edited line (-1: line 1 with a
 * time changed), an unchained record (-2), a new chain's first record
 * (-3), a line that is not a record (-4: no chain; -5: line 1 edited so
 * that it no longer loads, its chain intact), fed as the readers feed
 * such lines (tx_chain_walk_other); and the line where the walk must
 * complain (0: nowhere). The bad lines themselves are the reader's to
 * report. */
static const struct {
    const char *what;
    int lines[LINES + 1];
    int n;
    int bad_line;
} files[] = {
    {"as written", {0, 1, 2, 3}, 4, 0},
    {"the last line removed (not detectable)", {0, 1, 2}, 3, 0},
    {"a line removed", {0, 2, 3}, 3, 2},
    {"the first line removed", {1, 2, 3}, 3, 1},
    {"two lines swapped", {0, 2, 1, 3}, 4, 2},
    {"a line copied at the end", {0, 1, 2, 3, 1}, 5, 5},
    {"a line copied after itself", {0, 1, 1, 2}, 4, 3},
    {"a time edited", {0, -1, 2, 3}, 4, 2},
    {"a record without a chain added", {0, 1, -2, 2}, 4, 3},
    {"a record without a chain at the end", {0, 1, 2, 3, -2}, 5, 5},
    {"a new chain started at the end", {0, 1, 2, 3, -3}, 5, 5},
    {"unchained records, then a chain", {-2, -2, -3}, 3, 0},
    {"a line that is not a record instead of one", {0, -4, 2, 3}, 4, 0},
    {"an edited line that no longer loads", {0, -5, 2, 3}, 4, 0},
};

START_TEST(chain_walk_finds_tampering)
{
    seal_file();
    char hash[TX_CHAIN_HEX];
    char *edited = strdup(good[1]);
    char *p = strstr(edited, "200");
    p[0] = '1'; /* a faster move */
    const char *unchained = "{\"game\":9,\"us\":1}";
    char *broken = strdup(good[1]);
    broken[0] = '['; /* not JSON any more, its chain still at its end */
    char *fresh = tx_chain_seal(unchained, strlen(unchained), tx_chain_start, hash);

    struct tx_chain_walk walk;
    memset(&walk, 0, sizeof walk);
    int first_bad = 0;
    char why[256] = "";
    for (int i = 0; i < files[_i].n; i++) {
        int which = files[_i].lines[i];
        const char *line = which >= 0    ? good[which]
                           : which == -1 ? edited
                           : which == -2 ? unchained
                           : which == -3 ? fresh
                           : which == -4 ? "my notes"
                                         : broken;
        char reason[256];
        if (which <= -4) {
            tx_chain_walk_other(&walk, line, strlen(line));
            continue;
        }
        if (tx_chain_walk_next(&walk, line, strlen(line), reason, sizeof reason) < 0 &&
            !first_bad) {
            first_bad = i + 1;
            snprintf(why, sizeof why, "%s", reason);
        }
    }
    ck_assert_msg(first_bad == files[_i].bad_line, "%s: complained at line %d (%s), expected %d",
                  files[_i].what, first_bad, why, files[_i].bad_line);
    free(edited);
    free(broken);
    free(fresh);
    free_file();
}
END_TEST

static Suite *chain_suite(void)
{
    Suite *s = suite_create("chain");
    TCase *tc = tcase_create("chain");
    tcase_add_test(tc, chain_seal_and_read);
    tcase_add_loop_test(tc, chain_walk_finds_tampering, 0, (int)(sizeof files / sizeof files[0]));
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(chain_suite());
    srunner_run_all(sr, CK_ENV);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
