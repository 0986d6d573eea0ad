/* test-refeed.c - re-feeding a bot a recorded player's inputs (referee/refeed.h).
 *
 * Each case plays one real game on a libuv loop between two tests/fault-bot
 * processes (TX_FAULT_BOT), one of them misbehaving, then re-feeds the
 * recorded inputs of one player to a new bot and asserts what the table
 * says: a deterministic bot gives every recorded answer again; the same
 * faulty bot reproduces its illegal move, crash or timeout at the same move
 * with the referee's wording; and the exit probe tells a bot that exits on
 * EOF from one that does not or that leaves a child behind. The last case
 * runs the real command line, `replay FILE --game K --bot P=CMD`.
 * Limits are short; the cases assert verdicts, not timings.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <uv.h>

#include "game.h"
#include "geometry.h"
#include "match.h"
#include "record.h"
#include "refeed.h"
#include "verify.h"

#ifndef TX_FAULT_BOT
#error "TX_FAULT_BOT must be the path of tests/fault-bot"
#endif
#ifndef TX_ARENA
#error "TX_ARENA must be the path of twixt-arena"
#endif

#define CASE_TIMEOUT_S 60

static struct tx_geometry *geo;
static enum tx_rules rules; /* the games' rule set */

static void setup(void)
{
    ck_assert_int_eq((tx_geometry_free(geo), tx_geometry_new(12, 12, &geo)), 0);
    rules = TX_RULES_PP;
}

struct game {
    uv_loop_t loop;
    struct tx_match_config config;
    struct tx_bot_spec bots[2];
    struct tx_game_spec spec;
    struct tx_record record;
    bool done;
};

static void done_cb(struct tx_match *match, struct tx_record *record, void *data)
{
    struct game *g = data;
    (void)match;
    g->record = *record; /* take the contents */
    free(record);
    g->done = true;
}

/* Plays fault-bot ARGS1 (player 1) against fault-bot ARGS2 into g->record. */
static void play(struct game *g, const char *args1, const char *args2)
{
    static char commands[2][256];
    memset(g, 0, sizeof *g);
    snprintf(commands[0], sizeof commands[0], "%s %s", TX_FAULT_BOT, args1);
    snprintf(commands[1], sizeof commands[1], "%s %s", TX_FAULT_BOT, args2);
    ck_assert_int_eq(uv_loop_init(&g->loop), 0);
    tx_match_config_init(&g->config, geo, rules);
    g->config.limits.first_turn_ms = 1000;
    g->config.limits.turn_ms = 150;
    g->bots[0] = (struct tx_bot_spec){.name = "one", .command = commands[0]};
    g->bots[1] = (struct tx_bot_spec){.name = "two", .command = commands[1]};
    g->spec = (struct tx_game_spec){.index = 1, .seed = 7, .bots = {&g->bots[0], &g->bots[1]}};
    ck_assert_int_eq(tx_match_start(&g->loop, &g->config, &g->spec, done_cb, g, NULL), 0);
    uv_run(&g->loop, UV_RUN_DEFAULT);
    ck_assert(g->done);
    ck_assert_int_eq(uv_loop_close(&g->loop), 0);
    struct tx_verify_report rep;
    ck_assert_int_eq(tx_verify_record(geo, &g->record, &rep), 0);
}

static void refeed(const struct game *g, int player, const char *args, int upto, bool probe,
                   struct tx_refeed_result *res)
{
    char command[512], err[256];
    snprintf(command, sizeof command, "%s %s", TX_FAULT_BOT, args);
    struct tx_refeed_config c = {
        .geo = geo,
        .record = &g->record,
        .player = player,
        .command = command,
        .upto = upto,
        .limits = g->record.limits, /* memory_mb 0: not recorded, no limit */
        .probe_exit = probe,
    };
    int rc = tx_refeed_run(&c, res, err, sizeof err);
    ck_assert_msg(rc == 0, "tx_refeed_run: %s", err);
}

static int own_turns(const struct tx_record *r, int player)
{
    int n = 0;
    for (int i = 0; i < r->nmoves; i++)
        n += r->moves[i].player == player && !r->moves[i].forced;
    return n;
}

/* Under classic rules an answer is its move and its link edits: the same
 * holes without the recorded edits are different answers (fault-bot
 * "editor" plays the holes "play" plays, with edits at most turns), and
 * the table shows the edits. */
START_TEST(refeed_classic_edits_are_part_of_the_answer)
{
    struct game g;
    struct tx_refeed_result res;
    rules = TX_RULES_CLASSIC;
    ck_assert_int_eq((tx_geometry_free(geo), tx_geometry_new(9, 7, &geo)), 0);
    play(&g, "editor", "play");
    refeed(&g, 0, "editor", 0, false, &res);
    for (int k = 0; k < res.nturns; k++)
        ck_assert_int_eq(res.turns[k].verdict, TX_REFEED_SAME);
    tx_refeed_result_free(&res);
    refeed(&g, 0, "play", 0, false, &res);
    int different = 0;
    for (int k = 0; k < res.nturns; k++) {
        const struct tx_record_move *m = &g.record.moves[res.turns[k].move - 1];
        ck_assert_str_eq(res.turns[k].answer, res.turns[k].recorded); /* the same hole */
        ck_assert_str_eq(res.turns[k].answer_edits, "");
        ck_assert_int_eq(res.turns[k].verdict,
                         m->nedits > 0 ? TX_REFEED_DIFFERENT : TX_REFEED_SAME);
        if (m->nedits > 0) {
            char shown[TX_REFEED_EDITS_SHOWN];
            snprintf(shown, sizeof shown, " %s", m->edits[0]);
            ck_assert_msg(!strncmp(res.turns[k].recorded_edits, shown, strlen(shown)),
                          "\"%s\" does not start with \"%s\"", res.turns[k].recorded_edits, shown);
        }
        different += m->nedits > 0;
    }
    ck_assert_int_gt(different, 0);
    tx_refeed_result_free(&res);
    tx_record_free(&g.record);
}
END_TEST

START_TEST(refeed_deterministic_bot_gives_the_same_answers)
{
    struct game g;
    struct tx_refeed_result res;
    play(&g, "play", "good");
    for (int p = 0; p < 2; p++) {
        refeed(&g, p, p == 0 ? "play" : "good", 0, false, &res);
        ck_assert_int_eq(res.nturns, own_turns(&g.record, p));
        for (int k = 0; k < res.nturns; k++) {
            ck_assert_msg(res.turns[k].verdict == TX_REFEED_SAME,
                          "move %d: %s, recorded %s, new %s", res.turns[k].move,
                          tx_refeed_verdict_name(res.turns[k].verdict), res.turns[k].recorded,
                          res.turns[k].answer);
            ck_assert_int_ge(res.turns[k].us, 0);
        }
        ck_assert_int_ge(res.startup_us, 0);
        ck_assert_int_eq(res.extra_lines, 0);
        tx_refeed_result_free(&res);
    }
    tx_record_free(&g.record);
}
END_TEST

START_TEST(refeed_other_bot_shows_different_answers)
{
    struct game g;
    struct tx_refeed_result res;
    play(&g, "play", "good");
    refeed(&g, 1, "play", 0, false, &res); /* lowest hole instead of the plan */
    int different = 0;
    for (int k = 0; k < res.nturns; k++) {
        ck_assert(res.turns[k].verdict == TX_REFEED_SAME ||
                  res.turns[k].verdict == TX_REFEED_DIFFERENT);
        different += res.turns[k].verdict == TX_REFEED_DIFFERENT;
    }
    ck_assert_int_gt(different, 0);
    tx_refeed_result_free(&res);
    tx_record_free(&g.record);
}
END_TEST

START_TEST(refeed_reproduces_an_illegal_move)
{
    struct game g;
    struct tx_refeed_result res;
    play(&g, "good", "occupied 3");
    ck_assert_int_eq(g.record.result.reason, TX_REASON_INVALID);
    ck_assert_int_eq(g.record.result.winner, 0);
    refeed(&g, 1, "occupied 3", 0, false, &res);
    ck_assert_int_eq(res.nturns, 3);
    const struct tx_refeed_turn *t = &res.turns[2];
    ck_assert_int_eq(t->move, g.record.nmoves);
    ck_assert_int_eq(t->verdict, TX_REFEED_ILLEGAL);
    ck_assert_str_eq(t->detail, g.record.result.detail); /* the referee's words */
    ck_assert_str_eq(t->answer, g.record.moves[g.record.nmoves - 1].move);
    tx_refeed_result_free(&res);
    tx_record_free(&g.record);
}
END_TEST

START_TEST(refeed_reproduces_a_crash)
{
    struct game g;
    struct tx_refeed_result res;
    play(&g, "crash-signal 2", "play");
    ck_assert_int_eq(g.record.result.reason, TX_REASON_CRASH);
    refeed(&g, 0, "crash-signal 2", 0, false, &res);
    ck_assert_int_eq(res.nturns, 2);
    ck_assert_int_eq(res.turns[0].verdict, TX_REFEED_SAME);
    ck_assert_int_eq(res.turns[1].verdict, TX_REFEED_CRASH);
    ck_assert_int_eq(res.turns[1].move, g.record.nmoves);
    ck_assert_msg(strstr(res.turns[1].detail, "signal 11"), "detail: %s", res.turns[1].detail);
    tx_refeed_result_free(&res);
    tx_record_free(&g.record);
}
END_TEST

START_TEST(refeed_reproduces_a_timeout_within_the_limit)
{
    struct game g;
    struct tx_refeed_result res;
    play(&g, "play", "hang 2");
    ck_assert_int_eq(g.record.result.reason, TX_REASON_TIMEOUT);
    refeed(&g, 1, "hang 2", 0, false, &res);
    ck_assert_int_eq(res.nturns, 2);
    ck_assert_int_eq(res.turns[1].verdict, TX_REFEED_TIMEOUT);
    ck_assert_int_eq(res.turns[1].limit_ms, 150);
    /* Killed at limit + grace, not before the limit. */
    ck_assert_int_ge(res.turns[1].us, 150 * 1000);
    tx_refeed_result_free(&res);
    tx_record_free(&g.record);
}
END_TEST

START_TEST(refeed_turn_stops_at_move_t)
{
    struct game g;
    struct tx_refeed_result res;
    play(&g, "play", "good");
    refeed(&g, 0, "play", 5, false, &res); /* player 1 moves 1, 3, 5 */
    ck_assert_int_eq(res.nturns, 3);
    ck_assert_int_eq(res.turns[2].move, 5);
    ck_assert_int_eq(res.turns[0].limit_ms, 1000);
    ck_assert_int_eq(res.turns[1].limit_ms, 150);
    tx_refeed_result_free(&res);
    tx_record_free(&g.record);
}
END_TEST

START_TEST(refeed_probe_sees_a_clean_exit)
{
    struct game g;
    struct tx_refeed_result res;
    play(&g, "play", "good");
    refeed(&g, 0, "play", 5, true, &res);
    ck_assert(res.probed);
    ck_assert(res.exited);
    ck_assert_str_eq(res.exit_detail, "exit status 0");
    ck_assert_int_eq(res.nleft, 0);
    tx_refeed_result_free(&res);
    tx_record_free(&g.record);
}
END_TEST

START_TEST(refeed_probe_sees_a_child_left_behind)
{
    struct game g;
    struct tx_refeed_result res;
    play(&g, "play", "good");
    refeed(&g, 0, "fork 1 1", 5, true, &res); /* forks a sleeper at turn 1, then exits on EOF */
    ck_assert(res.probed);
    ck_assert(res.exited);
    ck_assert_int_eq(res.nleft, 1);
    ck_assert_str_eq(res.left_names[0], "fault-bot");
    tx_refeed_result_free(&res);
    tx_record_free(&g.record);
}
END_TEST

START_TEST(refeed_probe_sees_an_escaped_child_and_kills_it)
{
    struct game g;
    struct tx_refeed_result res;
    char err[256];
    play(&g, "play", "good");
    /* A child in a session of its own (setsid; the shell waits until it is,
     * a loaded machine may be slow to run it), then the shell becomes fault-bot. */
    struct tx_refeed_config c = {
        .geo = geo,
        .record = &g.record,
        .player = 0,
        .command = "sh -c 'setsid sleep 30 & "
                   "while [ \"$(cut -d\" \" -f6 /proc/$!/stat)\" != $! ]; do sleep 0.01; done; "
                   "exec " TX_FAULT_BOT " play'",
        .upto = 3,
        .limits = {.first_turn_ms = 1000, .turn_ms = 150},
        .probe_exit = true,
    };
    ck_assert_int_eq(tx_refeed_run(&c, &res, err, sizeof err), 0);
    ck_assert(res.probed);
    ck_assert(res.exited);
    ck_assert_int_eq(res.nleft, 1);
    ck_assert_msg(!strcmp(res.left_names[0], "sleep") || !strcmp(res.left_names[0], "setsid"),
                  "left: %s", res.left_names[0]);
    int pid = res.left_pids[0];
    tx_refeed_result_free(&res);
    /* Killed: at most a zombie until init reaps it. */
    char path[64], state = 'R';
    snprintf(path, sizeof path, "/proc/%d/stat", pid);
    for (int i = 0; i < 100 && state != 'Z'; i++) {
        FILE *f = fopen(path, "re");
        if (!f)
            break;
        int got = fscanf(f, "%*d (%*[^)]) %c", &state);
        fclose(f);
        if (got != 1 || state == 'Z')
            break;
        usleep(10000);
    }
    FILE *f = fopen(path, "re");
    if (f) {
        ck_assert_int_eq(fscanf(f, "%*d (%*[^)]) %c", &state), 1);
        fclose(f);
        ck_assert_msg(state == 'Z', "the escaped child %d still runs (state %c)", pid, state);
    }
    tx_record_free(&g.record);
}
END_TEST

START_TEST(refeed_probe_sees_a_bot_that_does_not_exit)
{
    struct game g;
    struct tx_refeed_result res;
    char err[256];
    play(&g, "play", "good");
    /* The shell outlives fault-bot's exit on EOF by 30 s. */
    struct tx_refeed_config c = {
        .geo = geo,
        .record = &g.record,
        .player = 0,
        .command = "sh -c '" TX_FAULT_BOT " play; sleep 30'",
        .upto = 3,
        .limits = {.first_turn_ms = 1000, .turn_ms = 150},
        .probe_exit = true,
    };
    ck_assert_int_eq(tx_refeed_run(&c, &res, err, sizeof err), 0);
    ck_assert_int_eq(res.nturns, 2);
    ck_assert(res.probed);
    ck_assert(!res.exited);
    tx_refeed_result_free(&res);
    tx_record_free(&g.record);
}
END_TEST

START_TEST(refeed_refuses_a_player_without_turns)
{
    struct game g;
    struct tx_refeed_result res;
    char err[256];
    play(&g, "play", "good");
    struct tx_refeed_config c = {
        .geo = geo,
        .record = &g.record,
        .player = 1,
        .command = "true",
        .upto = 1,
        .limits = {.first_turn_ms = 1000, .turn_ms = 150},
    };
    ck_assert_int_eq(tx_refeed_run(&c, &res, err, sizeof err), -EINVAL);
    ck_assert_msg(strstr(err, "no turn"), "err: %s", err);
    tx_refeed_result_free(&res);
    tx_record_free(&g.record);
}
END_TEST

/* Runs command, returns its exit status, its stdout in out. */
static int run(const char *command, char *out, size_t cap)
{
    FILE *p = popen(command, "r");
    ck_assert_ptr_nonnull(p);
    size_t n = fread(out, 1, cap - 1, p);
    out[n] = '\0';
    int status = pclose(p);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

START_TEST(refeed_command_line_prints_the_table)
{
    struct game g;
    char path[] = "/tmp/test-refeed-XXXXXX.jsonl", command[1024], *json = NULL;
    static char out[65536];
    play(&g, "good", "occupied 3");
    int fd = mkstemps(path, 6);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(tx_record_to_json(&g.record, &json), 0);
    ck_assert(write(fd, json, strlen(json)) == (ssize_t)strlen(json));
    ck_assert(write(fd, "\n", 1) == 1);
    close(fd);
    free(json);

    snprintf(command, sizeof command, "%s replay %s --game 1 --bot '1=%s good'", TX_ARENA, path,
             TX_FAULT_BOT);
    ck_assert_int_eq(run(command, out, sizeof out), 0); /* every answer the same */
    ck_assert_msg(strstr(out, " 0 different, 0 illegal, 0 timeout, 0 crash"), "%s", out);

    snprintf(command, sizeof command, "%s replay %s --game 1 --bot 'two=%s occupied 3' --turn 6",
             TX_ARENA, path, TX_FAULT_BOT);
    ck_assert_int_eq(run(command, out, sizeof out), 1);
    ck_assert_msg(strstr(out, "illegal: occupied hole"), "%s", out);

    snprintf(command, sizeof command, "%s replay %s --game 1 --bot 'nobody=true' 2>/dev/null",
             TX_ARENA, path);
    ck_assert_int_eq(run(command, out, sizeof out), 2);
    snprintf(command, sizeof command, "%s replay %s --turn 3 2>/dev/null", TX_ARENA, path);
    ck_assert_int_eq(run(command, out, sizeof out), 2);
    unlink(path);
    tx_record_free(&g.record);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("refeed");
    TCase *tc = tcase_create("refeed");
    tcase_add_checked_fixture(tc, setup, NULL);
    tcase_set_timeout(tc, CASE_TIMEOUT_S);
    tcase_add_test(tc, refeed_deterministic_bot_gives_the_same_answers);
    tcase_add_test(tc, refeed_other_bot_shows_different_answers);
    tcase_add_test(tc, refeed_classic_edits_are_part_of_the_answer);
    tcase_add_test(tc, refeed_reproduces_an_illegal_move);
    tcase_add_test(tc, refeed_reproduces_a_crash);
    tcase_add_test(tc, refeed_reproduces_a_timeout_within_the_limit);
    tcase_add_test(tc, refeed_turn_stops_at_move_t);
    tcase_add_test(tc, refeed_probe_sees_a_clean_exit);
    tcase_add_test(tc, refeed_probe_sees_a_child_left_behind);
    tcase_add_test(tc, refeed_probe_sees_an_escaped_child_and_kills_it);
    tcase_add_test(tc, refeed_probe_sees_a_bot_that_does_not_exit);
    tcase_add_test(tc, refeed_refuses_a_player_without_turns);
    tcase_add_test(tc, refeed_command_line_prints_the_table);
    suite_add_tcase(s, tc);
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
