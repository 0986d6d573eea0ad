/* test-validate.c - `twixt-arena validate` end to end (referee/validate.h).
 *
 * Each case runs the real program (TX_ARENA) on one bot with --json, parses
 * the report and asserts the verdict: every bundled bot and both starters
 * (starter.py under python3, starter.c compiled here with cc) pass; each
 * misbehaving tests/fault-bot mode (TX_FAULT_BOT) fails with the finding
 * that names its fault, in the game and move where it happened, and the
 * commands that replay it. The battery's own scenarios are checked from the
 * games list: both colours, the swap, the diagonal and off-diagonal first
 * pegs, the late positions and the crossing links.
 *
 * Limits are short where a fault makes the battery wait for them, and
 * generous where a bot must pass (PASS_LIMITS): tests run beside other CPU
 * hungry suites, and a bot that waits 200 ms for a core (seen: mcts with
 * --ms 40 timed out at 207.7 ms, "on a CPU 7.2 ms, waiting for one 200.5
 * ms") has done nothing wrong. --bot-memory-mb 0 lets the bundled bots run when they are built
 * with sanitizers (an ASan program cannot start under RLIMIT_DATA).
 */
#include <check.h>
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef TX_FAULT_BOT
#error "TX_FAULT_BOT must be the path of tests/fault-bot"
#endif
#ifndef TX_ARENA
#error "TX_ARENA must be the path of twixt-arena"
#endif
#ifndef TX_BOTS_DIR
#error "TX_BOTS_DIR must be the build directory of the bundled bots"
#endif
#ifndef TX_SOURCE_ROOT
#error "TX_SOURCE_ROOT must be the source tree"
#endif

#define CASE_TIMEOUT_S 120
#define LIMITS "--first-turn-ms 3000 --turn-ms 200 --bot-memory-mb 0"
#define PASS_LIMITS "--first-turn-ms 5000 --turn-ms 1000" /* the last value of an option wins */

static char output[1 << 20];

/* Runs validate on bot with extra options; returns the exit status and
 * leaves stdout in output. */
static int validate(const char *bot, const char *options)
{
    char command[4096], records[] = "/tmp/test-validate-XXXXXX.jsonl";
    int fd = mkstemps(records, 6);
    ck_assert_int_ge(fd, 0);
    close(fd);
    snprintf(command, sizeof command, "%s validate \"%s\" " LIMITS " -o %s %s", TX_ARENA, bot,
             records, options);
    FILE *p = popen(command, "r");
    ck_assert_ptr_nonnull(p);
    size_t n = fread(output, 1, sizeof output - 1, p);
    output[n] = '\0';
    int status = pclose(p);
    unlink(records);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static cJSON *validate_json(const char *bot, int expect_status)
{
    int status = validate(bot, "--json");
    ck_assert_msg(status == expect_status, "%s: status %d, expected %d: %s", bot, status,
                  expect_status, output);
    cJSON *report = cJSON_Parse(output);
    ck_assert_msg(report != NULL, "not JSON: %s", output);
    return report;
}

static int count_check(const cJSON *report, const char *check)
{
    int n = 0;
    const cJSON *f;
    cJSON_ArrayForEach(f, cJSON_GetObjectItem(report, "findings")) n +=
        !strcmp(cJSON_GetObjectItem(f, "check")->valuestring, check);
    return n;
}

static const cJSON *first_check(const cJSON *report, const char *check)
{
    const cJSON *f;
    cJSON_ArrayForEach(
        f, cJSON_GetObjectItem(
               report, "findings")) if (!strcmp(cJSON_GetObjectItem(f, "check")->valuestring,
                                                check)) return f;
    return NULL;
}

/* Only this check among the findings, at least once. */
static void assert_only(const cJSON *report, const char *check)
{
    int all = cJSON_GetArraySize(cJSON_GetObjectItem(report, "findings"));
    ck_assert_msg(count_check(report, check) > 0, "no %s finding: %s", check, output);
    ck_assert_msg(count_check(report, check) == all, "other findings than %s: %s", check, output);
    ck_assert(cJSON_IsFalse(cJSON_GetObjectItem(report, "passed")));
}

static void assert_passes(const char *bot)
{
    int status = validate(bot, PASS_LIMITS " --json");
    ck_assert_msg(status == 0, "%s: status %d, expected 0: %s", bot, status, output);
    cJSON *report = cJSON_Parse(output);
    ck_assert_msg(report != NULL, "not JSON: %s", output);
    ck_assert(cJSON_IsTrue(cJSON_GetObjectItem(report, "passed")));
    ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItem(report, "findings")), 0);
    const cJSON *exit = cJSON_GetObjectItem(report, "exit_on_stdin_close");
    ck_assert(cJSON_IsTrue(cJSON_GetObjectItem(exit, "exited")));
    ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItem(report, "processes_left")), 0);
    cJSON_Delete(report);
}

START_TEST(validate_random_passes)
{
    assert_passes(TX_BOTS_DIR "/twixt-random --seed {seed}");
}
END_TEST

START_TEST(validate_greedy_passes)
{
    assert_passes(TX_BOTS_DIR "/twixt-greedy --seed {seed}");
}
END_TEST

START_TEST(validate_mcts_passes)
{
    assert_passes(TX_BOTS_DIR "/twixt-mcts --seed {seed} --ms 40");
}
END_TEST

START_TEST(validate_python_starter_passes)
{
    assert_passes("python3 " TX_SOURCE_ROOT "/bots/starter.py");
}
END_TEST

START_TEST(validate_c_starter_passes)
{
    char dir[] = "/tmp/test-validate-cc-XXXXXX", command[1024], exe[256];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(exe, sizeof exe, "%s/starter", dir);
    snprintf(command, sizeof command, "cc -O2 -o %s %s/bots/starter.c", exe, TX_SOURCE_ROOT);
    ck_assert_int_eq(system(command), 0);
    assert_passes(exe);
    unlink(exe);
    rmdir(dir);
}
END_TEST

/* The report has its fields, and the battery its scenarios. */
START_TEST(validate_json_has_the_fields_and_scenarios)
{
    cJSON *report = validate_json(TX_FAULT_BOT " play", 0);
    static const char *const fields[] = {"bot",
                                         "passed",
                                         "records",
                                         "limits",
                                         "games",
                                         "findings",
                                         "times",
                                         "startup_ms",
                                         "stderr",
                                         "extra_lines",
                                         "long_messages",
                                         "exit_on_stdin_close",
                                         "processes_left",
                                         "skipped"};
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
        ck_assert_msg(cJSON_HasObjectItem(report, fields[i]), "no field %s", fields[i]);
    const cJSON *times = cJSON_GetObjectItem(report, "times");
    static const char *const kinds[] = {"first_turn", "later_turns"};
    static const char *const stats[] = {"count",  "p50_ms",   "p95_ms",    "p99_ms",
                                        "max_ms", "limit_ms", "margin_ms", "tight"};
    for (int k = 0; k < 2; k++)
        for (size_t i = 0; i < sizeof stats / sizeof stats[0]; i++)
            ck_assert_msg(cJSON_HasObjectItem(cJSON_GetObjectItem(times, kinds[k]), stats[i]),
                          "no %s.%s", kinds[k], stats[i]);
    ck_assert(cJSON_IsNumber(cJSON_GetObjectItem(report, "startup_ms")));

    int seen[2][6] = {{0}};
    const cJSON *g;
    cJSON_ArrayForEach(g, cJSON_GetObjectItem(report, "games"))
    {
        const char *scenario = cJSON_GetObjectItem(g, "scenario")->valuestring;
        int player = cJSON_GetObjectItem(g, "player")->valueint - 1;
        static const char *const names[] = {"against",      "swap", "diagonal",
                                            "off-diagonal", "late", "crossing"};
        for (int i = 0; i < 6; i++)
            if (!strcmp(scenario, names[i]))
                seen[player][i]++;
        ck_assert_str_ne(cJSON_GetObjectItem(g, "result")->valuestring, "not played");
        if (!strcmp(scenario, "late"))
            ck_assert_int_ge(cJSON_GetObjectItem(g, "forced")->valueint, 100);
    }
    ck_assert_int_eq(seen[0][0], 2); /* random and mcts, as player 1 */
    ck_assert_int_eq(seen[1][0], 2);
    ck_assert_int_eq(seen[0][1], 1);
    ck_assert_int_eq(seen[1][2], 1);
    ck_assert_int_eq(seen[1][3], 1);
    ck_assert_int_eq(seen[0][4] + seen[1][4], 2);
    ck_assert_int_eq(seen[0][5] + seen[1][5], 2);
    cJSON_Delete(report);
}
END_TEST

START_TEST(validate_fails_on_an_illegal_move)
{
    cJSON *report = validate_json(TX_FAULT_BOT " occupied 2", 1);
    assert_only(report, "illegal");
    const cJSON *f = first_check(report, "illegal");
    ck_assert_msg(strstr(cJSON_GetObjectItem(f, "what")->valuestring, "occupied hole"), "%s",
                  output);
    /* The input that provoked it, and the commands that replay it. */
    const char *input = cJSON_GetStringValue(cJSON_GetObjectItem(f, "input"));
    ck_assert_ptr_nonnull(input);
    ck_assert_int_gt(strlen(input), 8);
    ck_assert_ptr_nonnull(strstr(cJSON_GetObjectItem(f, "replay")->valuestring, "replay"));
    ck_assert_ptr_nonnull(strstr(cJSON_GetObjectItem(f, "refeed")->valuestring, "--bot"));
    ck_assert_int_gt(cJSON_GetObjectItem(f, "move")->valueint, 0);
    cJSON_Delete(report);
}
END_TEST

START_TEST(validate_fails_on_a_timeout)
{
    cJSON *report = validate_json(TX_FAULT_BOT " hang 2", 1);
    assert_only(report, "timeout");
    cJSON_Delete(report);
}
END_TEST

START_TEST(validate_fails_on_a_crash)
{
    cJSON *report = validate_json(TX_FAULT_BOT " crash-exit 2", 1);
    assert_only(report, "crash");
    ck_assert_ptr_nonnull(strstr(
        cJSON_GetObjectItem(first_check(report, "crash"), "what")->valuestring, "exit status 3"));
    cJSON_Delete(report);
}
END_TEST

START_TEST(validate_fails_on_extra_lines)
{
    cJSON *report = validate_json(TX_FAULT_BOT " lines 2 3", 1);
    ck_assert_int_gt(count_check(report, "extra-lines"), 0);
    ck_assert(cJSON_GetObjectItem(report, "extra_lines")->valueint > 0);
    cJSON_Delete(report);
}
END_TEST

START_TEST(validate_fails_on_a_long_message)
{
    cJSON *report = validate_json(TX_FAULT_BOT " message 2", 1);
    assert_only(report, "long-message");
    cJSON_Delete(report);
}
END_TEST

START_TEST(validate_fails_on_a_stderr_flood)
{
    cJSON *report = validate_json(TX_FAULT_BOT " flood-stderr 1 70000", 1);
    assert_only(report, "stderr");
    cJSON_Delete(report);
}
END_TEST

START_TEST(validate_fails_on_a_child_left_behind)
{
    cJSON *report = validate_json(TX_FAULT_BOT " fork 1 1", 1);
    assert_only(report, "children");
    ck_assert_int_ge(cJSON_GetArraySize(cJSON_GetObjectItem(report, "processes_left")), 1);
    cJSON_Delete(report);
}
END_TEST

START_TEST(validate_fails_on_a_bot_that_does_not_exit)
{
    /* The shell outlives fault-bot's exit on EOF. */
    cJSON *report = validate_json("sh -c '" TX_FAULT_BOT " play; sleep 30'", 1);
    assert_only(report, "no-exit"); /* its sleeping child is its own while it runs */
    ck_assert_int_eq(count_check(report, "no-exit"), 1);
    ck_assert(cJSON_IsFalse(
        cJSON_GetObjectItem(cJSON_GetObjectItem(report, "exit_on_stdin_close"), "exited")));
    cJSON_Delete(report);
}
END_TEST

START_TEST(validate_text_report_and_usage_errors)
{
    ck_assert_int_eq(validate(TX_FAULT_BOT " play", ""), 0);
    ck_assert_msg(strstr(output, "no findings: PASSED") && strstr(output, "first turn") &&
                      strstr(output, "exit when stdin closes: yes"),
                  "%s", output);
    ck_assert_int_eq(validate(TX_FAULT_BOT " occupied 2", ""), 1);
    ck_assert_msg(strstr(output, "FAILED") && strstr(output, "the input that provoked it") &&
                      strstr(output, "re-feed: "),
                  "%s", output);
    ck_assert_int_eq(validate("/nonexistent/bot", "2>/dev/null"), 2);
    ck_assert_int_eq(validate(TX_FAULT_BOT " play", "--no-such-option 2>/dev/null"), 2);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("validate");
    TCase *pass = tcase_create("pass");
    tcase_set_timeout(pass, CASE_TIMEOUT_S);
    tcase_add_test(pass, validate_random_passes);
    tcase_add_test(pass, validate_greedy_passes);
    tcase_add_test(pass, validate_mcts_passes);
    tcase_add_test(pass, validate_python_starter_passes);
    tcase_add_test(pass, validate_c_starter_passes);
    tcase_add_test(pass, validate_json_has_the_fields_and_scenarios);
    suite_add_tcase(s, pass);
    TCase *fail = tcase_create("fail");
    tcase_set_timeout(fail, CASE_TIMEOUT_S);
    tcase_add_test(fail, validate_fails_on_an_illegal_move);
    tcase_add_test(fail, validate_fails_on_a_timeout);
    tcase_add_test(fail, validate_fails_on_a_crash);
    tcase_add_test(fail, validate_fails_on_extra_lines);
    tcase_add_test(fail, validate_fails_on_a_long_message);
    tcase_add_test(fail, validate_fails_on_a_stderr_flood);
    tcase_add_test(fail, validate_fails_on_a_child_left_behind);
    tcase_add_test(fail, validate_fails_on_a_bot_that_does_not_exit);
    tcase_add_test(fail, validate_text_report_and_usage_errors);
    suite_add_tcase(s, fail);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(suite());
    srunner_run_all(sr, CK_ENV);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
