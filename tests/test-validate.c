/* test-validate.c - `twixt-arena validate` end to end (referee/validate.h),
 * and bots written the CodinGame way in every forced-opening scenario.
 *
 * Each validate case runs the real program (TX_ARENA) on one bot with
 * --json, parses the report and asserts CodinGame's verdict: every bundled
 * bot, both starters (starter.py under python3, starter.c compiled here with
 * cc) and tests/cg-bot.py (a bot written the plain CodinGame way) pass;
 * each tests/fault-bot mode (TX_FAULT_BOT) that would lose a game on
 * CodinGame fails with the finding that names its fault, and each that
 * would not (stderr flood, cut messages, no exit, a child left behind)
 * passes with its warning. One bug is one finding with its count, whatever
 * the number of games. The battery's scenarios are checked from the games
 * list, and its records from the file the runner wrote.
 *
 * The forced-opening cases play cg-bot.py in play, tournament and
 * validate --forced-openings, as player 1 and player 2, with and without a
 * swap: every move it makes must be legal (RULES.md "Forced openings").
 *
 * Limits are short where a fault makes the battery wait for them, and
 * generous elsewhere (PASS_LIMITS), and the timing warnings (slow-start,
 * slow-answers) are tolerated next to the finding a case looks for: tests
 * run beside other CPU hungry suites, and a bot that waits 200 ms for a core (seen: mcts with
 * --ms 40 timed out at 207.7 ms, "on a CPU 7.2 ms, waiting for one 200.5
 * ms") has done nothing wrong. --bot-memory-mb 0 lets the bundled bots run when they are built
 * with sanitizers (an ASan program cannot start under RLIMIT_DATA).
 */
#include <check.h>
#include <cjson/cJSON.h>
#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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

#define CASE_TIMEOUT_S 240
#define LIMITS "--first-turn-ms 3000 --turn-ms 200 --bot-memory-mb 0"
#define PASS_LIMITS "--first-turn-ms 5000 --turn-ms 1000" /* the last value of an option wins */
/* A bot written the CodinGame way, run as CodinGame runs it: without -u,
 * since every bot's environment says PYTHONUNBUFFERED=1 (main() unsets it
 * here, so that it is not the referee's that reaches the bot). */
#define CG_BOT "python3 " TX_SOURCE_ROOT "/tests/cg-bot.py"
#define BATTERY_GAMES 11 /* one round of the default battery */

static char output[1 << 21];

/* The start of output, for a failure message (Check cannot carry megabytes). */
static const char *shown(void)
{
    static char start[2048];
    size_t n = strnlen(output, sizeof start - 1);
    memcpy(start, output, n);
    start[n] = '\0';
    return start;
}

/* Runs a shell command; returns its exit status and leaves stdout in output. */
static int run(const char *command)
{
    FILE *p = popen(command, "r");
    ck_assert_ptr_nonnull(p);
    size_t n = fread(output, 1, sizeof output - 1, p);
    output[n] = '\0';
    int status = pclose(p);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* Runs validate on bot with extra options, its records in a new file;
 * returns the exit status and leaves stdout in output. */
static int validate(const char *bot, const char *options)
{
    char command[4096], records[] = "/tmp/test-validate-XXXXXX.jsonl";
    int fd = mkstemps(records, 6);
    ck_assert_int_ge(fd, 0);
    close(fd);
    snprintf(command, sizeof command, "%s validate \"%s\" " LIMITS " -o %s %s", TX_ARENA, bot,
             records, options);
    int status = run(command);
    unlink(records);
    return status;
}

static cJSON *parse_report(void)
{
    cJSON *report = cJSON_Parse(output);
    ck_assert_msg(report != NULL, "not JSON: %s", shown());
    return report;
}

static cJSON *validate_json(const char *bot, const char *options, int expect_status)
{
    char all[1024];
    snprintf(all, sizeof all, "%s --json", options);
    int status = validate(bot, all);
    ck_assert_msg(status == expect_status, "%s: status %d, expected %d: %s", bot, status,
                  expect_status, shown());
    return parse_report();
}

static const char *string_of(const cJSON *o, const char *key)
{
    const char *s = cJSON_GetStringValue(cJSON_GetObjectItem(o, key));
    ck_assert_msg(s != NULL, "no string %s", key);
    return s;
}

static int int_of(const cJSON *o, const char *key)
{
    const cJSON *n = cJSON_GetObjectItem(o, key);
    ck_assert_msg(cJSON_IsNumber(n), "no number %s", key);
    return n->valueint;
}

static const cJSON *findings(const cJSON *report)
{
    return cJSON_GetObjectItem(report, "findings");
}

static int count_check(const cJSON *report, const char *check)
{
    int n = 0;
    const cJSON *f;
    cJSON_ArrayForEach(f, findings(report)) n += !strcmp(string_of(f, "check"), check);
    return n;
}

static const cJSON *first_check(const cJSON *report, const char *check)
{
    const cJSON *f;
    cJSON_ArrayForEach(f, findings(report)) if (!strcmp(string_of(f, "check"), check)) return f;
    return NULL;
}

/* True for the warnings a loaded machine can cause in any bot: the tests
 * tolerate them next to the finding they look for. */
static bool timing_warning(const cJSON *f)
{
    return !strncmp(string_of(f, "check"), "slow-", 5);
}

/* Findings other than timing warnings. */
static int count_untimed(const cJSON *report)
{
    int n = 0;
    const cJSON *f;
    cJSON_ArrayForEach(f, findings(report)) n += !timing_warning(f);
    return n;
}

/* Exactly one finding (timing warnings aside), of this check and
 * severity, and the verdict that goes with it. */
static const cJSON *assert_only(const cJSON *report, const char *check, const char *severity)
{
    ck_assert_msg(count_untimed(report) == 1 && count_check(report, check) == 1,
                  "expected one %s finding: %s", check, shown());
    const cJSON *f = first_check(report, check);
    ck_assert_str_eq(string_of(f, "severity"), severity);
    bool failure = !strcmp(severity, "failure");
    ck_assert(cJSON_IsBool(cJSON_GetObjectItem(report, "passed")));
    ck_assert(cJSON_IsTrue(cJSON_GetObjectItem(report, "passed")) == !failure);
    ck_assert_int_eq(int_of(report, "failures"), failure ? 1 : 0);
    /* Its games: as many as it counts, the first is the one it describes. */
    const cJSON *games = cJSON_GetObjectItem(f, "games");
    ck_assert_int_eq(cJSON_GetArraySize(games), int_of(f, "count"));
    ck_assert_int_eq(cJSON_GetArrayItem(games, 0)->valueint, int_of(f, "game"));
    ck_assert_ptr_nonnull(strstr(string_of(f, "replay"), " replay "));
    ck_assert_ptr_nonnull(strstr(string_of(f, "refeed"), "--bot"));
    return f;
}

static void assert_passes(const char *bot)
{
    int status = validate(bot, PASS_LIMITS " --json");
    ck_assert_msg(status == 0, "%s: status %d, expected 0: %s", bot, status, shown());
    cJSON *report = parse_report();
    ck_assert(cJSON_IsTrue(cJSON_GetObjectItem(report, "passed")));
    ck_assert_msg(count_untimed(report) == 0, "%s: findings: %s", bot, shown());
    const cJSON *exit = cJSON_GetObjectItem(report, "exit_on_stdin_close");
    ck_assert(cJSON_IsTrue(cJSON_GetObjectItem(exit, "exited")));
    ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItem(report, "processes_left")), 0);
    cJSON_Delete(report);
}

/* ---- bots that pass ---- */

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

START_TEST(validate_blocker_passes)
{
    assert_passes(TX_BOTS_DIR "/twixt-blocker --seed {seed}");
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

START_TEST(validate_codingame_style_bot_passes)
{
    assert_passes(CG_BOT);
}
END_TEST

/* The report has its fields, the battery its scenarios, all of them
 * situations CodinGame produces; the blocker makes long games that end
 * with few legal holes, and the bot's records are the runner's. */
START_TEST(validate_json_has_the_fields_and_scenarios)
{
    char records[] = "/tmp/test-validate-XXXXXX.jsonl", command[2048];
    int fd = mkstemps(records, 6);
    ck_assert_int_ge(fd, 0);
    close(fd); /* an empty file is accepted */
    snprintf(command, sizeof command, "%s validate '%s' " LIMITS " --json -o %s", TX_ARENA,
             TX_FAULT_BOT " play", records);
    ck_assert_msg(run(command) == 0, "%s", shown());
    cJSON *report = parse_report();
    static const char *const fields[] = {"bot",
                                         "passed",
                                         "failures",
                                         "warnings",
                                         "records",
                                         "limits",
                                         "size",
                                         "games",
                                         "findings",
                                         "times",
                                         "startup_ms",
                                         "stderr",
                                         "extra_lines",
                                         "skipped",
                                         "long_messages",
                                         "processes_left",
                                         "exit_on_stdin_close",
                                         "forced_openings",
                                         "sandbox"};
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
        ck_assert_msg(cJSON_HasObjectItem(report, fields[i]), "no field %s", fields[i]);
    ck_assert_str_eq(string_of(report, "records"), records);
    /* the bundled opponents it used, and from which layout (paths.h) */
    const cJSON *bundled = cJSON_GetObjectItem(report, "bundled");
    ck_assert_str_eq(string_of(bundled, "layout"), "build tree");
    ck_assert_msg(strstr(string_of(bundled, "dir"), "/bots") != NULL, "%s",
                  string_of(bundled, "dir"));
    const cJSON *times = cJSON_GetObjectItem(report, "times");
    static const char *const kinds[] = {"first_turn", "later_turns"};
    static const char *const stats[] = {"count",  "p50_ms",   "p95_ms",    "p99_ms",
                                        "max_ms", "limit_ms", "margin_ms", "tight"};
    for (int k = 0; k < 2; k++)
        for (size_t i = 0; i < sizeof stats / sizeof stats[0]; i++)
            ck_assert_msg(cJSON_HasObjectItem(cJSON_GetObjectItem(times, kinds[k]), stats[i]),
                          "no %s.%s", kinds[k], stats[i]);
    ck_assert(cJSON_IsNumber(cJSON_GetObjectItem(report, "startup_ms")));
    ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItem(report, "skipped")), 0);

    static const char *const names[] = {"against",      "swap",    "diagonal",
                                        "off-diagonal", "blocked", "crossing"};
    int seen[2][6] = {{0}};
    const cJSON *g;
    cJSON_ArrayForEach(g, cJSON_GetObjectItem(report, "games"))
    {
        const char *scenario = string_of(g, "scenario");
        int player = int_of(g, "player") - 1, i = 0;
        while (i < 6 && strcmp(scenario, names[i]))
            i++;
        ck_assert_msg(i < 6, "scenario %s is not one CodinGame produces", scenario);
        seen[player][i]++;
        ck_assert_str_ne(string_of(g, "result"), "not played");
        ck_assert_int_eq(int_of(g, "forced"), 0);
        ck_assert(cJSON_IsTrue(cJSON_GetObjectItem(g, "codingame")));
        /* The blocker plays on until the board is nearly full. */
        if (!strcmp(scenario, "blocked"))
            ck_assert_msg(int_of(g, "moves") >= 60 && int_of(g, "fewest_holes") <= 40,
                          "a short blocked game: %s", cJSON_PrintUnformatted(g));
    }
    ck_assert_int_eq(seen[0][0], 2); /* random and mcts, as player 1 */
    ck_assert_int_eq(seen[1][0], 2);
    ck_assert_int_eq(seen[0][1], 1);
    ck_assert_int_eq(seen[1][2], 1);
    ck_assert_int_eq(seen[1][3], 1);
    ck_assert_int_eq(seen[0][4] + seen[1][4], 2);
    ck_assert_int_eq(seen[0][5] + seen[1][5], 2);
    cJSON_Delete(report);

    /* The games are in the file the runner wrote: one record per game, of
     * this validate run, each of which verifies. */
    FILE *f = fopen(records, "r");
    ck_assert_ptr_nonnull(f);
    char *line = NULL;
    size_t cap = 0;
    int lines = 0;
    while (getline(&line, &cap, f) > 0) {
        cJSON *r = cJSON_Parse(line);
        ck_assert_ptr_nonnull(r);
        ck_assert_str_eq(string_of(r, "run"), "validate");
        cJSON_Delete(r);
        lines++;
    }
    free(line);
    fclose(f);
    ck_assert_int_eq(lines, BATTERY_GAMES);
    snprintf(command, sizeof command, "%s replay %s", TX_ARENA, records);
    ck_assert_msg(run(command) == 0, "%s", shown());
    /* And -o never adds a run to a file that holds one. */
    snprintf(command, sizeof command, "%s validate '%s' -o %s 2>&1", TX_ARENA, TX_FAULT_BOT " play",
             records);
    ck_assert_int_eq(run(command), 2);
    ck_assert_msg(strstr(output, "not empty"), "%s", shown());
    unlink(records);
}
END_TEST

/* ---- failures: a loss on CodinGame ---- */

/* One illegal answer in every game is one finding that counts the games. */
START_TEST(validate_groups_one_bug_into_one_finding)
{
    cJSON *report = validate_json(TX_FAULT_BOT " occupied 2", PASS_LIMITS, 1);
    const cJSON *f = assert_only(report, "illegal", "failure");
    ck_assert_int_eq(int_of(f, "count"), BATTERY_GAMES);
    ck_assert_msg(strstr(string_of(f, "what"), "occupied hole"), "%s", shown());
    ck_assert_int_eq(int_of(f, "game"), 1);
    ck_assert_int_gt(int_of(f, "move"), 0);
    /* The input that provoked it. */
    ck_assert_int_gt(strlen(string_of(f, "input")), 8);
    cJSON_Delete(report);
}
END_TEST

START_TEST(validate_fails_on_a_timeout)
{
    cJSON *report = validate_json(TX_FAULT_BOT " hang 2", "", 1);
    ck_assert_int_eq(int_of(assert_only(report, "timeout", "failure"), "count"), BATTERY_GAMES);
    cJSON_Delete(report);
}
END_TEST

START_TEST(validate_fails_on_a_crash)
{
    cJSON *report = validate_json(TX_FAULT_BOT " crash-exit 2", PASS_LIMITS, 1);
    ck_assert_ptr_nonnull(
        strstr(string_of(assert_only(report, "crash", "failure"), "what"), "exit status 3"));
    cJSON_Delete(report);
}
END_TEST

START_TEST(validate_fails_on_extra_lines)
{
    cJSON *report = validate_json(TX_FAULT_BOT " lines 2 3", PASS_LIMITS, 1);
    ck_assert_int_eq(count_check(report, "extra-lines"), 1);
    ck_assert_str_eq(string_of(first_check(report, "extra-lines"), "severity"), "failure");
    ck_assert(int_of(report, "extra_lines") > 0);
    ck_assert(cJSON_IsFalse(cJSON_GetObjectItem(report, "passed")));
    cJSON_Delete(report);
}
END_TEST

/* ---- warnings: reported, not a loss on CodinGame ---- */

START_TEST(validate_warns_of_200_kib_of_stderr)
{
    cJSON *report = validate_json(TX_FAULT_BOT " flood-stderr 1 204800", PASS_LIMITS, 0);
    assert_only(report, "stderr", "warning");
    ck_assert_int_gt(int_of(cJSON_GetObjectItem(report, "stderr"), "max_per_game"), 204800);
    cJSON_Delete(report);
}
END_TEST

START_TEST(validate_warns_of_a_long_message)
{
    cJSON *report = validate_json(TX_FAULT_BOT " message 2", PASS_LIMITS, 0);
    assert_only(report, "long-message", "warning");
    cJSON_Delete(report);
}
END_TEST

START_TEST(validate_warns_of_a_child_left_behind)
{
    cJSON *report = validate_json(TX_FAULT_BOT " fork 1 1", PASS_LIMITS, 0);
    assert_only(report, "children", "warning");
    ck_assert_int_ge(cJSON_GetArraySize(cJSON_GetObjectItem(report, "processes_left")), 1);
    cJSON_Delete(report);
}
END_TEST

START_TEST(validate_warns_of_a_bot_that_does_not_exit)
{
    /* The shell outlives fault-bot's exit on EOF. */
    cJSON *report = validate_json("sh -c '" TX_FAULT_BOT " play; sleep 30'", PASS_LIMITS, 0);
    assert_only(report, "no-exit", "warning"); /* its sleeping child is its own while it runs */
    ck_assert(cJSON_IsFalse(
        cJSON_GetObjectItem(cJSON_GetObjectItem(report, "exit_on_stdin_close"), "exited")));
    cJSON_Delete(report);
}
END_TEST

START_TEST(validate_warns_of_slow_answers)
{
    /* 850 ms of a 1000 ms limit at its second turn; the margin keeps a
     * busy machine from turning it into a timeout. */
    cJSON *report =
        validate_json(TX_FAULT_BOT " sleep 2 850", "--turn-ms 1000 --time-margin-ms 500", 0);
    const cJSON *f = first_check(report, "slow-answers");
    ck_assert_msg(f != NULL, "%s", shown());
    ck_assert_str_eq(string_of(f, "severity"), "warning");
    ck_assert_int_eq(int_of(report, "failures"), 0);
    cJSON_Delete(report);
}
END_TEST

/* ---- the records file and the text report ---- */

/* Without -o the records go to a temporary file in $TMPDIR, removed when
 * nothing needs replaying, kept and named when a finding does. */
START_TEST(validate_keeps_temporary_records_only_for_findings)
{
    char dir[] = "/tmp/test-validate-tmp-XXXXXX", command[2048];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(command, sizeof command, "TMPDIR=%s %s validate '%s' " LIMITS, dir, TX_ARENA,
             TX_FAULT_BOT " play");
    ck_assert_msg(run(command) == 0, "%s", shown());
    ck_assert_msg(strstr(output, "records: none kept"), "%s", shown());
    DIR *d = opendir(dir);
    int files = 0;
    for (struct dirent *e; (e = readdir(d));)
        files += e->d_name[0] != '.';
    closedir(d);
    ck_assert_int_eq(files, 0);

    snprintf(command, sizeof command, "TMPDIR=%s %s validate '%s' " LIMITS " --json", dir, TX_ARENA,
             TX_FAULT_BOT " occupied 2");
    ck_assert_int_eq(run(command), 1);
    cJSON *report = parse_report();
    const char *records = string_of(report, "records");
    ck_assert_ptr_nonnull(strstr(records, dir));
    struct stat st;
    ck_assert_int_eq(stat(records, &st), 0);
    ck_assert_int_gt(st.st_size, 0);
    ck_assert_ptr_nonnull(strstr(string_of(first_check(report, "illegal"), "replay"), records));
    unlink(records);
    cJSON_Delete(report);
    rmdir(dir);
}
END_TEST

START_TEST(validate_text_report_and_usage_errors)
{
    ck_assert_int_eq(validate(TX_FAULT_BOT " play", ""), 0);
    ck_assert_msg(strstr(output, "PASSED") && strstr(output, "first turn") &&
                      strstr(output, "exit when stdin closes: yes"),
                  "%s", shown());
    ck_assert_int_eq(validate(TX_FAULT_BOT " occupied 2", ""), 1);
    ck_assert_msg(strstr(output, "FAILED: 1 failure") && strstr(output, "11 games") &&
                      strstr(output, "the input that provoked it") && strstr(output, "re-feed: "),
                  "%s", shown());
    ck_assert_int_eq(validate(TX_FAULT_BOT " message 2", PASS_LIMITS), 0);
    ck_assert_msg(strstr(output, "PASSED with ") && strstr(output, "long-message (warning)"), "%s",
                  shown());
    ck_assert_int_eq(validate("/nonexistent/bot", "2>/dev/null"), 2);
    ck_assert_int_eq(validate(TX_FAULT_BOT " play", "--no-such-option 2>/dev/null"), 2);
}
END_TEST

/* Issue 11: validate says whether its bots ran in the sandbox, in the text
 * report's header and in --json, and its records say so game by game. _i:
 * 0 --sandbox on (text), 1 on (JSON), 2 off (text), 3 off (JSON). */
START_TEST(validate_says_whether_the_sandbox_was_active)
{
    bool on = _i < 2, json = _i % 2;
    char records[] = "/tmp/test-validate-XXXXXX.jsonl", command[2048];
    int fd = mkstemps(records, 6);
    ck_assert_int_ge(fd, 0);
    close(fd);
    snprintf(command, sizeof command, "%s validate '%s' " LIMITS " --sandbox %s%s -o %s", TX_ARENA,
             TX_FAULT_BOT " play", on ? "on" : "off", json ? " --json" : "", records);
    ck_assert_msg(run(command) == 0, "%s", shown());
    if (json) {
        cJSON *report = parse_report();
        const cJSON *sandbox = cJSON_GetObjectItem(report, "sandbox");
        ck_assert(cJSON_IsBool(cJSON_GetObjectItem(sandbox, "active")));
        ck_assert(cJSON_IsTrue(cJSON_GetObjectItem(sandbox, "active")) == on);
        ck_assert_str_eq(string_of(sandbox, "mode"), on ? "on" : "off");
        const char *description = string_of(sandbox, "description");
        if (on)
            ck_assert_msg(!strncmp(description, "on (own PID, mount", 18), "%s", description);
        else
            ck_assert_str_eq(description, "off");
        cJSON_Delete(report);
    } else {
        const char *line = strstr(output, "\nsandbox: ");
        ck_assert_msg(line && line < strstr(output, "\nrecords: "), "%s", shown());
        ck_assert_msg(
            !strncmp(line, on ? "\nsandbox: on (own PID" : "\nsandbox: off\n", on ? 21 : 14), "%s",
            shown());
    }
    /* Every game of the battery is recorded as played in the sandbox, or not. */
    FILE *f = fopen(records, "r");
    ck_assert_ptr_nonnull(f);
    char *text = NULL;
    size_t cap = 0;
    int games = 0;
    while (getline(&text, &cap, f) > 0) {
        games++;
        ck_assert_msg((strstr(text, "\"sandbox\":true") != NULL) == on, "game %d", games);
    }
    free(text);
    fclose(f);
    unlink(records);
    ck_assert_int_eq(games, BATTERY_GAMES);
}
END_TEST

/* ---- forced openings: what CodinGame cannot produce ---- */

/* --forced-openings adds the arena-only scenarios, labelled so. */
START_TEST(validate_forced_openings_are_arena_only)
{
    cJSON *report = validate_json(CG_BOT, PASS_LIMITS " --forced-openings", 0);
    ck_assert_int_eq(cJSON_GetArraySize(findings(report)), 0);
    int arena = 0;
    const cJSON *g;
    cJSON_ArrayForEach(g, cJSON_GetObjectItem(report, "games"))
    {
        bool forced = !strncmp(string_of(g, "scenario"), "forced-", 7);
        ck_assert(cJSON_IsTrue(cJSON_GetObjectItem(g, "codingame")) == !forced);
        ck_assert(!forced || int_of(g, "forced") > 0);
        arena += forced;
    }
    ck_assert_int_eq(arena, 4); /* forced-late and forced-crossing, as player 1 and 2 */
    cJSON_Delete(report);
}
END_TEST

/* Every game of a records file: the bot named `name` never lost by an
 * invalid move, a timeout or a crash; returns the games it played. */
static int assert_never_failed(const char *records, const char *name)
{
    FILE *f = fopen(records, "r");
    ck_assert_ptr_nonnull(f);
    char *line = NULL;
    size_t cap = 0;
    int games = 0;
    while (getline(&line, &cap, f) > 0) {
        cJSON *r = cJSON_Parse(line);
        ck_assert_ptr_nonnull(r);
        const cJSON *players = cJSON_GetObjectItem(r, "players"), *result;
        result = cJSON_GetObjectItem(r, "result");
        int me = !strcmp(string_of(cJSON_GetArrayItem(players, 0), "name"), name)   ? 0
                 : !strcmp(string_of(cJSON_GetArrayItem(players, 1), "name"), name) ? 1
                                                                                    : -1;
        if (me >= 0) {
            games++;
            const cJSON *winner = cJSON_GetObjectItem(result, "winner");
            const char *reason = string_of(result, "reason");
            bool lost = cJSON_IsNumber(winner) && winner->valueint == 1 - me;
            ck_assert_msg(!lost || !strcmp(reason, "connection"),
                          "%s lost game %d as player %d: %.1500s", name, int_of(r, "game"), me + 1,
                          line);
        }
        cJSON_Delete(r);
    }
    free(line);
    fclose(f);
    return games;
}

/* cg-bot.py after forced openings of 1 to 4 moves, as player 1 and 2: with
 * one forced move its opponent or itself may swap (twixt-random swaps every
 * time it can), after more no swap is possible. play and tournament. */
START_TEST(forced_openings_keep_codingame_bots_legal)
{
    char dir[] = "/tmp/test-validate-forced-XXXXXX", command[4096], records[256];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    for (int k = 1; k <= 4; k++) {
        snprintf(records, sizeof records, "%s/play%d.jsonl", dir, k);
        snprintf(command, sizeof command,
                 "%s play 'cg=" CG_BOT "' '%s/twixt-random --seed {seed} --swap-prob 1' "
                 "--openings %d --games 4 " PASS_LIMITS " --bot-memory-mb 0 -o %s",
                 TX_ARENA, TX_BOTS_DIR, k, records);
        ck_assert_msg(run(command) == 0, "%s", shown());
        ck_assert_int_eq(assert_never_failed(records, "cg"), 4);
    }
    snprintf(records, sizeof records, "%s/tournament.jsonl", dir);
    snprintf(command, sizeof command,
             "%s tournament 'cg=" CG_BOT "' '%s/twixt-greedy --seed {seed}' "
             "'%s/twixt-random --seed {seed}' --openings 3 --games-per-pair 4 --concurrency "
             "1 " PASS_LIMITS " --bot-memory-mb 0 -o %s",
             TX_ARENA, TX_BOTS_DIR, TX_BOTS_DIR, records);
    ck_assert_msg(run(command) == 0, "%s", shown());
    ck_assert_int_eq(assert_never_failed(records, "cg"), 8);
    snprintf(command, sizeof command, "rm -rf %s", dir);
    ck_assert_int_eq(system(command), 0);
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
    tcase_add_test(pass, validate_blocker_passes);
    tcase_add_test(pass, validate_python_starter_passes);
    tcase_add_test(pass, validate_c_starter_passes);
    tcase_add_test(pass, validate_codingame_style_bot_passes);
    tcase_add_test(pass, validate_json_has_the_fields_and_scenarios);
    suite_add_tcase(s, pass);
    TCase *fail = tcase_create("fail");
    tcase_set_timeout(fail, CASE_TIMEOUT_S);
    tcase_add_test(fail, validate_groups_one_bug_into_one_finding);
    tcase_add_test(fail, validate_fails_on_a_timeout);
    tcase_add_test(fail, validate_fails_on_a_crash);
    tcase_add_test(fail, validate_fails_on_extra_lines);
    suite_add_tcase(s, fail);
    TCase *warn = tcase_create("warn");
    tcase_set_timeout(warn, CASE_TIMEOUT_S);
    tcase_add_test(warn, validate_warns_of_200_kib_of_stderr);
    tcase_add_test(warn, validate_warns_of_a_long_message);
    tcase_add_test(warn, validate_warns_of_a_child_left_behind);
    tcase_add_test(warn, validate_warns_of_a_bot_that_does_not_exit);
    tcase_add_test(warn, validate_warns_of_slow_answers);
    tcase_add_test(warn, validate_keeps_temporary_records_only_for_findings);
    tcase_add_test(warn, validate_text_report_and_usage_errors);
    tcase_add_loop_test(warn, validate_says_whether_the_sandbox_was_active, 0, 4);
    suite_add_tcase(s, warn);
    TCase *forced = tcase_create("forced");
    tcase_set_timeout(forced, CASE_TIMEOUT_S);
    tcase_add_test(forced, validate_forced_openings_are_arena_only);
    tcase_add_test(forced, forced_openings_keep_codingame_bots_legal);
    suite_add_tcase(s, forced);
    return s;
}

int main(void)
{
    unsetenv("PYTHONUNBUFFERED"); /* see CG_BOT */
    SRunner *sr = srunner_create(suite());
    srunner_run_all(sr, CK_ENV);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
