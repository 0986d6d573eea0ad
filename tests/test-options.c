/* test-options.c - the shared command-line options: values and defaults,
 * and for every kind of mistake a message that names the option.
 */
#include <check.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"

#define ALL                                                                                        \
    (TX_OPTIONS_LIMITS | TX_OPTIONS_OUTPUT | TX_OPTIONS_RUN | TX_OPTIONS_PAIRS | TX_OPTIONS_SPRT)

/* Parses a NULL-terminated list of arguments after the subcommand name. */
static int parse(struct tx_options *o, unsigned accept, char *err, ...)
{
    char *argv[32] = {(char *)"tournament"};
    int argc = 1;
    va_list ap;
    va_start(ap, err);
    for (char *a; (a = va_arg(ap, char *)) != NULL;)
        argv[argc++] = a;
    va_end(ap);
    argv[argc] = NULL;
    err[0] = '\0';
    return tx_options_parse(o, accept, 2, 8, argc, argv, err, 512);
}

START_TEST(options_defaults_and_values)
{
    struct tx_options o;
    char err[512];
    ck_assert_int_eq(parse(&o, ALL, err, "./a", "b=python3 b.py --x=1", NULL), 0);
    ck_assert_int_eq(o.nbots, 2);
    ck_assert_str_eq(o.bots[0].name, "a");
    ck_assert_str_eq(o.bots[0].command, "./a");
    ck_assert_str_eq(o.bots[1].name, "b");
    ck_assert_str_eq(o.bots[1].command, "python3 b.py --x=1");
    ck_assert_int_eq(o.size, 12);
    ck_assert_uint_eq(o.seed, TX_OPTIONS_DEFAULT_SEED);
    ck_assert_int_eq(o.limits.first_turn_ms, 1000);
    ck_assert_int_eq(o.limits.turn_ms, 300);
    ck_assert_int_eq(o.shard, 1);
    ck_assert_int_eq(o.shards, 1);
    ck_assert(!o.sprt.enabled);
    tx_options_free(&o);

    ck_assert_int_eq(parse(&o, ALL, err, "--turn-ms=50", "./a", "--first-turn-ms", "200", "-o",
                           "x.jsonl", "./a", "--shard", "2/3", "--games-per-pair", "6", "--seed",
                           "18446744073709551615", "--openings", "4", "--size", "8",
                           "--soft-timeouts", "--sprt", "elo1=5,alpha=0.1,model=logistic", NULL),
                     0);
    ck_assert_int_eq(o.limits.turn_ms, 50);
    ck_assert_int_eq(o.limits.first_turn_ms, 200);
    ck_assert_str_eq(o.output, "x.jsonl");
    ck_assert_int_eq(o.shard, 2);
    ck_assert_int_eq(o.shards, 3);
    ck_assert_int_eq(o.games, 6);
    ck_assert_uint_eq(o.seed, UINT64_MAX);
    ck_assert_int_eq(o.openings, 4);
    ck_assert_int_eq(o.size, 8);
    ck_assert(o.limits.soft);
    ck_assert(o.sprt.enabled);
    ck_assert(o.sprt.elo0 == 0 && o.sprt.elo1 == 5 && o.sprt.alpha == 0.1 && o.sprt.beta == 0.05);
    ck_assert(o.sprt.logistic);
    /* the same command twice gets told apart */
    ck_assert_str_eq(o.bots[0].name, "a");
    ck_assert_str_eq(o.bots[1].name, "a-2");
    tx_options_free(&o);
}
END_TEST

START_TEST(options_errors_name_the_option)
{
    static const struct {
        const char *args[4];
        const char *message;
    } cases[] = {
        {{"--turn-ms", "abc"}, "--turn-ms: expected milliseconds, 1 to 3600000, got 'abc'"},
        {{"--turn-ms=0"}, "--turn-ms: expected milliseconds, 1 to 3600000, got '0'"},
        {{"--games-per-pair", "3"}, "--games-per-pair: expected an even number of games"},
        {{"--shard", "0/2"}, "--shard: expected K/M with 1 <= K <= M, e.g. 1/4, got '0/2'"},
        {{"--shard", "3/2"}, "--shard: expected K/M"},
        {{"--size", "4"}, "--size: expected a board size from 5 to 26, got '4'"},
        {{"--seed", "-1"}, "--seed: expected a whole number"},
        {{"--concurrency", "0"}, "--concurrency: expected a number of games from 1 to 256"},
        {{"--openings", "65"}, "--openings: expected a number of moves from 0 to 64"},
        {{"--sprt", "elo0=5,elo1=1"}, "--sprt: elo1 must be greater than elo0"},
        {{"--sprt", "gamma=1"}, "--sprt: unknown key 'gamma'"},
        {{"--sprt", "model=bayes"}, "--sprt: model must be normalized or logistic, got 'bayes'"},
        {{"--frobnicate"}, "unknown option '--frobnicate' (see --help)"},
        {{"--games", "4"},
         "unknown option '--games' (see --help)"}, /* a play option, not accepted here */
        {{"--soft-timeouts=yes"}, "--soft-timeouts takes no value"},
        {{"--openings", "2", "--openings-file", "f"},
         "--openings and --openings-file: give one or the other"},
        {{"-o"}, "--output: missing value FILE"},
        {{"x='unbalanced"}, "BOT 'x='unbalanced': "},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct tx_options o;
        char err[512];
        const char *const *a = cases[i].args;
        ck_assert_int_eq(parse(&o, ALL, err, "./a", "./b", a[0], a[1], a[2], a[3], NULL), -EINVAL);
        ck_assert_msg(!strncmp(err, cases[i].message, strlen(cases[i].message)),
                      "case %zu: got '%s'", i, err);
        tx_options_free(&o);
    }
}
END_TEST

START_TEST(options_bot_count_checked)
{
    struct tx_options o;
    char err[512];
    ck_assert_int_eq(parse(&o, ALL, err, "./a", NULL), -EINVAL);
    ck_assert_str_eq(err, "expected 2 to 8 BOT arguments, got 1");
    tx_options_free(&o);
    /* --help needs no bot */
    ck_assert_int_eq(parse(&o, ALL, err, "--help", NULL), 0);
    ck_assert(o.help);
    tx_options_free(&o);
}
END_TEST

START_TEST(options_shell_command_quotes)
{
    char *argv[] = {(char *)"twixt-arena", (char *)"play", (char *)"a=./bot --seed {seed}",
                    (char *)"it's",        (char *)"-o",   (char *)"out.jsonl"};
    char buf[256];
    ck_assert(tx_options_shell_command(6, argv, buf, sizeof buf));
    ck_assert_str_eq(buf, "twixt-arena play 'a=./bot --seed {seed}' 'it'\\''s' -o out.jsonl");
    ck_assert(!tx_options_shell_command(6, argv, buf, 20));
}
END_TEST

static Suite *options_suite(void)
{
    Suite *s = suite_create("options");
    TCase *tc = tcase_create("options");
    tcase_add_test(tc, options_defaults_and_values);
    tcase_add_test(tc, options_errors_name_the_option);
    tcase_add_test(tc, options_bot_count_checked);
    tcase_add_test(tc, options_shell_command_quotes);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(options_suite());
    srunner_run_all(sr, CK_ENV);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
