/* test-runner.c - tournaments end to end: the runner in this process, and
 * the twixt-arena executable as a child for signals and shards.
 *
 * Bots are tests/tiny-bot (seeded random legal moves, misbehaving in some
 * games on request). Assertions are about verdicts and records, never
 * about how long something took: limits are generous where a loaded
 * machine could make a bot late, short only where a bot must time out.
 * Executables are found through TX_BUILD_DIR (set by tests/meson.build).
 */
#include <check.h>
#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "alloc.h"
#include "arena-test.h"
#include "commands.h"
#include "options.h"
#include "setup.h"
#include "runner.h"
#include "schedule.h"
#include "standings.h"

#define MAX_GAMES 64

static char tiny_bot[1024], arena[1024], tmpdir[256];

static void setup(void)
{
    tx_test_build_path(tiny_bot, sizeof tiny_bot, "tests/tiny-bot");
    tx_test_build_path(arena, sizeof arena, "referee/twixt-arena");
    ck_assert_msg(access(tiny_bot, X_OK) == 0, "%s is missing: build it first", tiny_bot);
    tx_test_make_tmpdir(tmpdir, sizeof tmpdir, "tx-runner");
}

static void teardown(void)
{
    tx_test_remove_tree(tmpdir);
}

/* ---- reading result files ---- */

/* The records of a file, normalised for comparison: times, start stamps
 * and tiny-bot's time messages removed. texts[g] is game g's JSON, or
 * NULL; counts[g] how many times game g was recorded (interrupted aside).
 * The same by the games' identity (pairing.h: "KEY k"): ids[i] was
 * recorded id_counts[i] times, id_texts[i] its JSON with "game" set to 0
 * (game numbers are the file's own). */
struct results {
    char *texts[MAX_GAMES + 1];
    int counts[MAX_GAMES + 1];
    char *ids[MAX_GAMES], *id_texts[MAX_GAMES];
    int id_counts[MAX_GAMES];
    int nids;
    int interrupted;
    int lines;
};

static void results_free(struct results *res)
{
    for (int i = 0; i <= MAX_GAMES; i++)
        free(res->texts[i]);
    for (int i = 0; i < res->nids; i++) {
        free(res->ids[i]);
        free(res->id_texts[i]);
    }
    memset(res, 0, sizeof *res);
}

/* The index of the game id in res, or -1. */
static int find_id(const struct results *res, const char *id)
{
    for (int i = 0; i < res->nids; i++)
        if (!strcmp(res->ids[i], id))
            return i;
    return -1;
}

static void read_results(const char *path, struct results *res)
{
    FILE *f = fopen(path, "r");
    ck_assert_msg(f != NULL, "cannot open %s", path);
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    memset(res, 0, sizeof *res);
    while ((len = getline(&line, &cap, f)) > 0) {
        struct tx_record r;
        char err[256];
        res->lines++;
        ck_assert_msg(line[len - 1] == '\n', "%s:%d: line without its newline", path, res->lines);
        ck_assert_msg(tx_record_from_json(line, (size_t)len - 1, &r, err, sizeof err) == 0,
                      "%s:%d: %s", path, res->lines, err);
        ck_assert_int_ge(r.game, 1);
        ck_assert_int_le(r.game, MAX_GAMES);
        if (r.result.reason == TX_REASON_INTERRUPTED) {
            res->interrupted++;
        } else {
            free(r.started);
            r.started = tx_strdup("2000-01-01T00:00:00Z"); /* the same in both runs */
            for (int m = 0; m < r.nmoves; m++) {
                r.moves[m].us = 0;
                free(r.moves[m].message);
                r.moves[m].message = NULL;
            }
            char *text;
            ck_assert_int_eq(tx_record_to_json(&r, &text), 0);
            free(res->texts[r.game]);
            res->texts[r.game] = text;
            res->counts[r.game]++;
            char id[64];
            if (!r.pairing.key) { /* a list of games (validate's): no pairing */
                tx_record_free(&r);
                continue;
            }
            snprintf(id, sizeof id, "%s %lld", r.pairing.key, (long long)r.pairing.k);
            int i = find_id(res, id);
            if (i < 0) {
                ck_assert_int_lt(res->nids, MAX_GAMES);
                i = res->nids++;
                res->ids[i] = strdup(id);
                r.game = 1;
                ck_assert_int_eq(tx_record_to_json(&r, &res->id_texts[i]), 0);
            }
            res->id_counts[i]++;
        }
        tx_record_free(&r);
    }
    free(line);
    fclose(f);
}

/* ---- running tournaments in this process ---- */

struct run_spec {
    const char *commands[4]; /* NAME=COMMAND, {bot} replaced by tiny-bot's path */
    int nbots;
    int64_t games;
    int openings;
    int concurrency;
    int turn_ms;
    int shard, shards;
    const char *output;
    FILE *progress_out;     /* progress shown there when set */
    int status_interval_ms; /* its interval when not a terminal */
};

static int run_in_process(const struct run_spec *rs, struct tx_runner_summary *summary, char *err,
                          size_t errcap)
{
    char *argv[16];
    char bufs[4][2048];
    int argc = 0;
    argv[argc++] = (char *)"tournament";
    for (int i = 0; i < rs->nbots; i++) {
        const char *c = rs->commands[i];
        const char *at = strstr(c, "{bot}");
        snprintf(bufs[i], sizeof bufs[i], "%.*s%s%s", (int)(at - c), c, tiny_bot, at + 5);
        argv[argc++] = bufs[i];
    }
    argv[argc] = NULL;

    struct tx_options o;
    struct tx_setup *run;
    ck_assert_int_eq(tx_options_parse(&o, &tx_cmd_tournament_line, argc, argv, err, errcap), 0);
    o.openings = rs->openings;
    o.limits.turn_ms = rs->turn_ms ? rs->turn_ms : 2000;
    o.limits.first_turn_ms = o.limits.turn_ms * 2;
    o.shard = rs->shard ? rs->shard : 1;
    o.shards = rs->shards ? rs->shards : 1;
    /* rs->games in all: two bots are a match (BOT1 first), more a round robin */
    enum tx_pool_kind kind = rs->nbots == 2 ? TX_POOL_PLAY : TX_POOL_ROUND_ROBIN;
    int64_t pairs = (int64_t)rs->nbots * (rs->nbots - 1) / 2;
    ck_assert_int_eq(
        tx_setup_new(&o, kind, rs->games / pairs, "twixt-arena", argc, argv, &run, err, errcap), 0);
    struct tx_runner_games pool_games;
    tx_pool_games(&run->pool, &pool_games);
    struct tx_runner_config config = {
        .games = &pool_games,
        .match = &run->match,
        .concurrency = rs->concurrency,
        .output = rs->output,
        .progress = rs->progress_out != NULL,
        .progress_out = rs->progress_out,
        .status_interval_ms = rs->status_interval_ms,
    };
    int rc = tx_runner_run(&config, summary, err, errcap);
    tx_setup_free(run);
    tx_options_free(&o);
    return rc;
}

/* Two records of game g, as read_results rewrote them, are the same; if
 * not, where they part (whole records are too long for Check's message). */
static void assert_same_record(int g, const char *x, const char *y)
{
    size_t i = 0;
    while (x[i] && x[i] == y[i])
        i++;
    size_t from = i > 80 ? i - 80 : 0;
    ck_assert_msg(x[i] == y[i], "game %d: the records part at byte %zu: ...%.200s\nand ...%.200s",
                  g, i, x + from, y + from);
}

static const char *good_a = "a={bot} --seed {seed} --size {size}";
static const char *good_b = "b={bot} --seed {seed} --size {size}";
static const char *good_c = "c={bot} --seed {seed} --size {size}";

START_TEST(runner_concurrency_does_not_change_records)
{
    char one[512], two[512], err[512];
    struct tx_runner_summary sum;
    snprintf(one, sizeof one, "%s/c1.jsonl", tmpdir);
    snprintf(two, sizeof two, "%s/c2.jsonl", tmpdir);
    struct run_spec rs = {{good_a, good_b, good_c}, 3, 12, 3, 1, 0, 0, 0, one, NULL, 0};
    ck_assert_msg(run_in_process(&rs, &sum, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(sum.played, 12);
    rs.concurrency = 2;
    rs.output = two;
    ck_assert_msg(run_in_process(&rs, &sum, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(sum.played, 12);

    struct results x, y;
    read_results(one, &x);
    read_results(two, &y);
    for (int g = 1; g <= 12; g++) {
        ck_assert_int_eq(x.counts[g], 1);
        ck_assert_int_eq(y.counts[g], 1);
        assert_same_record(g, x.texts[g], y.texts[g]);
    }

    /* Both games of a pair start from the same 3 forced moves, recorded as
     * forced (played by the referee), and other pairs from others. */
    char forced[13][3][8] = {{{0}}};
    for (int g = 1; g <= 12; g++) {
        struct tx_record r;
        char why[256];
        ck_assert_int_eq(tx_record_from_json(x.texts[g], strlen(x.texts[g]), &r, why, sizeof why),
                         0);
        ck_assert_int_gt(r.nmoves, 3);
        for (int m = 0; m < 3; m++) {
            ck_assert(r.moves[m].forced);
            ck_assert_str_ne(r.moves[m].move, "SWAP");
            snprintf(forced[g][m], sizeof forced[g][m], "%s", r.moves[m].move);
        }
        ck_assert(!r.moves[3].forced);
        tx_record_free(&r);
    }
    /* A round (one game pair of each pairing: games 1-6, then 7-12) starts
     * every pairing from the same opening (pairing.h), the next round from
     * another. */
    for (int g = 1; g <= 12; g++)
        ck_assert_mem_eq(forced[g], forced[(g - 1) / 6 * 6 + 1], sizeof forced[g]);
    ck_assert(memcmp(forced[1], forced[7], sizeof forced[1]));
    results_free(&x);
    results_free(&y);
}
END_TEST

/* A misbehaving bot's name says what it does, in every game, by its fourth
 * turn: the reason its games end by. (tiny-bot's --crash P, --hang P and
 * --garbage P choose the games from {seed}, and the seeds follow from the
 * commands, which hold the build's path: with P below 1 a build directory
 * could draw no hanging game at all, and this case failed in one.) */
static enum tx_reason misbehaviour(const char *name)
{
    return !strcmp(name, "crash")     ? TX_REASON_CRASH
           : !strcmp(name, "hang")    ? TX_REASON_TIMEOUT
           : !strcmp(name, "garbage") ? TX_REASON_INVALID
                                      : TX_REASON_CONNECTION;
}

START_TEST(runner_misbehaving_bot_loses_those_games)
{
    char out[512], err[512];
    struct tx_runner_summary sum;
    snprintf(out, sizeof out, "%s/bad.jsonl", tmpdir);
    struct run_spec rs = {
        .commands = {good_a, "crash={bot} --seed {seed} --size {size} --crash 1",
                     "hang={bot} --seed {seed} --size {size} --hang 1",
                     "garbage={bot} --seed {seed} --size {size} --garbage 1"},
        .nbots = 4,
        .games = 12,
        .concurrency = 2,
        .turn_ms = 300,
        .output = out,
    };
    ck_assert_msg(run_in_process(&rs, &sum, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(sum.played, 12);
    ck_assert_int_eq(sum.interrupted, 0);

    /* Every game with a misbehaving bot ended by one's misbehaviour, the
     * loser's own; the good bot never lost. */
    int by_reason[6] = {0};
    FILE *f = fopen(out, "r");
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    int n = 0;
    while ((len = getline(&line, &cap, f)) > 0) {
        struct tx_record r;
        ck_assert_int_eq(tx_record_from_json(line, (size_t)len - 1, &r, err, sizeof err), 0);
        n++;
        ck_assert_int_ge(r.result.winner, 0);
        const char *loser = r.players[1 - r.result.winner].name;
        ck_assert_str_ne(loser, "a");
        ck_assert_int_eq(r.result.reason, misbehaviour(loser));
        by_reason[r.result.reason]++;
        tx_record_free(&r);
    }
    free(line);
    fclose(f);
    ck_assert_int_eq(n, 12);
    /* a beat each of them twice, and two bad bots' games end by one's */
    ck_assert_int_eq(by_reason[TX_REASON_CONNECTION], 0);
    ck_assert_int_ge(by_reason[TX_REASON_CRASH], 2);
    ck_assert_int_ge(by_reason[TX_REASON_TIMEOUT], 2);
    ck_assert_int_ge(by_reason[TX_REASON_INVALID], 2);

    /* The standings count them as each one's losses. */
    struct tx_standings st;
    tx_standings_init(&st);
    ck_assert_int_eq(tx_standings_read(&st, out, false, NULL, NULL, err, sizeof err), 0);
    int c = tx_standings_bot(&st, "crash"), h = tx_standings_bot(&st, "hang"),
        g = tx_standings_bot(&st, "garbage"), a = tx_standings_bot(&st, "a");
    ck_assert_int_eq(st.bots[c].crashes, by_reason[TX_REASON_CRASH]);
    ck_assert_int_eq(st.bots[h].timeouts, by_reason[TX_REASON_TIMEOUT]);
    ck_assert_int_eq(st.bots[g].invalids, by_reason[TX_REASON_INVALID]);
    ck_assert_int_eq(st.bots[c].timeouts + st.bots[c].invalids + st.bots[h].crashes +
                         st.bots[h].invalids + st.bots[g].crashes + st.bots[g].timeouts,
                     0);
    ck_assert_int_eq(st.bots[a].crashes + st.bots[a].timeouts + st.bots[a].invalids, 0);
    tx_standings_free(&st);
}
END_TEST

static int compare_names(const void *x, const void *y)
{
    const cJSON *a = *(cJSON *const *)x, *b = *(cJSON *const *)y;
    const char *na = a->string ? a->string : cJSON_GetStringValue(cJSON_GetObjectItem(a, "name"));
    const char *nb = b->string ? b->string : cJSON_GetStringValue(cJSON_GetObjectItem(b, "name"));
    return strcmp(na ? na : "", nb ? nb : "");
}

/* Reorders the children of an object by key, or of an array of bots by
 * "name", recursively: two standings with equal bots tied in another order
 * then print the same. */
static void sort_children(cJSON *node)
{
    cJSON *items[64];
    int n = 0;
    while (node->child && n < 64)
        items[n++] = cJSON_DetachItemViaPointer(node, node->child);
    qsort(items, (size_t)n, sizeof *items, compare_names);
    for (int i = 0; i < n; i++) {
        if (cJSON_IsObject(items[i]) && items[i]->string)
            sort_children(items[i]);
        if (cJSON_IsArray(node))
            cJSON_AddItemToArray(node, items[i]);
        else
            cJSON_AddItemToObject(node, items[i]->string, items[i]);
    }
}

/* Standings as printed by --json, without the per-bot times and ranks,
 * in a canonical order. */
static char *standings_json(const struct tx_standings *st)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    ck_assert_int_eq(tx_standings_print_json(st, NULL, 0, f), 0);
    fclose(f);
    cJSON *root = cJSON_Parse(text);
    ck_assert_ptr_nonnull(root);
    free(text);
    cJSON *bot;
    cJSON_ArrayForEach(bot, cJSON_GetObjectItem(root, "bots"))
    {
        cJSON_DeleteItemFromObject(bot, "avg_ms");
        cJSON_DeleteItemFromObject(bot, "max_ms");
        cJSON_DeleteItemFromObject(bot, "first_turn_max_ms");
        cJSON_DeleteItemFromObject(bot, "rank");
    }
    sort_children(cJSON_GetObjectItem(root, "bots"));
    sort_children(cJSON_GetObjectItem(root, "crosstable"));
    text = cJSON_PrintUnformatted(root);
    cJSON_Delete(root);
    return text;
}

START_TEST(runner_shards_merge_to_the_whole_run)
{
    char whole[512], s1[512], s2[512], err[512];
    struct tx_runner_summary sum;
    snprintf(whole, sizeof whole, "%s/whole.jsonl", tmpdir);
    snprintf(s1, sizeof s1, "%s/s1.jsonl", tmpdir);
    snprintf(s2, sizeof s2, "%s/s2.jsonl", tmpdir);
    struct run_spec rs = {{good_a, good_b, good_c}, 3, 12, 2, 2, 0, 0, 0, whole, NULL, 0};
    ck_assert_msg(run_in_process(&rs, &sum, err, sizeof err) == 0, "%s", err);
    rs.shards = 2;
    rs.shard = 1;
    rs.output = s1;
    ck_assert_msg(run_in_process(&rs, &sum, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(sum.played, 6);
    rs.shard = 2;
    rs.output = s2;
    ck_assert_msg(run_in_process(&rs, &sum, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(sum.played, 6);

    /* The same games (each shard numbers its own)... */
    struct results w, x, y;
    read_results(whole, &w);
    read_results(s1, &x);
    read_results(s2, &y);
    ck_assert_int_eq(w.nids, 12);
    ck_assert_int_eq(x.nids + y.nids, 12);
    for (int i = 0; i < w.nids; i++) {
        int in_x = find_id(&x, w.ids[i]), in_y = find_id(&y, w.ids[i]);
        ck_assert_msg((in_x >= 0) != (in_y >= 0), "%s in both shards or none", w.ids[i]);
        assert_same_record(i + 1, w.id_texts[i], in_x >= 0 ? x.id_texts[in_x] : y.id_texts[in_y]);
    }
    results_free(&w);
    results_free(&x);
    results_free(&y);

    /* ...so the same standings. */
    struct tx_standings a, b;
    tx_standings_init(&a);
    tx_standings_init(&b);
    ck_assert_int_eq(tx_standings_read(&a, whole, false, NULL, NULL, err, sizeof err), 0);
    ck_assert_int_eq(tx_standings_read(&b, s2, false, NULL, NULL, err, sizeof err), 0);
    ck_assert_int_eq(tx_standings_read(&b, s1, false, NULL, NULL, err, sizeof err), 0);
    ck_assert_int_eq(a.counted, 12);
    ck_assert_int_eq(b.counted, 12);
    for (int i = 0; i < a.nbots; i++) {
        int j = tx_standings_bot(&b, a.bots[i].name);
        ck_assert_int_eq(a.bots[i].wins, b.bots[j].wins);
        ck_assert_int_eq(a.bots[i].draws, b.bots[j].draws);
        ck_assert_int_eq(a.bots[i].losses, b.bots[j].losses);
    }
    /* The whole table and crosstable as the user sees them (--json),
     * times per move aside: no two runs share those. */
    char *ja = standings_json(&a), *jb = standings_json(&b);
    ck_assert_str_eq(ja, jb);
    free(ja);
    free(jb);
    tx_standings_free(&a);
    tx_standings_free(&b);
}
END_TEST

START_TEST(runner_torn_last_line_is_cut_and_replayed)
{
    char out[512], err[512];
    struct tx_runner_summary sum;
    snprintf(out, sizeof out, "%s/torn.jsonl", tmpdir);
    struct run_spec rs = {{good_a, good_b}, 2, 4, 0, 1, 0, 0, 0, out, NULL, 0};
    ck_assert_msg(run_in_process(&rs, &sum, err, sizeof err) == 0, "%s", err);

    /* Keep games 1 and 2, and half of game 3's line: what a kill -9 in the
     * middle of a write would leave. */
    FILE *f = fopen(out, "r");
    char *lines[4] = {NULL};
    size_t cap[4] = {0};
    for (int i = 0; i < 4; i++)
        ck_assert_int_gt(getline(&lines[i], &cap[i], f), 0);
    fclose(f);
    f = fopen(out, "w");
    fputs(lines[0], f);
    fputs(lines[1], f);
    fwrite(lines[2], 1, strlen(lines[2]) / 2, f);
    fclose(f);
    for (int i = 0; i < 4; i++)
        free(lines[i]);

    rs.games = 6; /* and extend the match by two games */
    ck_assert_msg(run_in_process(&rs, &sum, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(sum.resumed, 2);
    ck_assert_int_eq(sum.played, 4);
    struct results res;
    read_results(out, &res);
    ck_assert_int_eq(res.lines, 6);
    for (int g = 1; g <= 6; g++)
        ck_assert_int_eq(res.counts[g], 1);
    results_free(&res);
}
END_TEST

START_TEST(runner_refuses_another_configuration)
{
    char out[512], err[512];
    struct tx_runner_summary sum;
    snprintf(out, sizeof out, "%s/conf.jsonl", tmpdir);
    struct run_spec rs = {{good_a, good_b}, 2, 2, 0, 1, 0, 0, 0, out, NULL, 0};
    ck_assert_msg(run_in_process(&rs, &sum, err, sizeof err) == 0, "%s", err);
    rs.turn_ms = 1500;
    ck_assert_int_eq(run_in_process(&rs, &sum, err, sizeof err), -EINVAL);
    ck_assert_msg(strstr(err, "conf.jsonl:1: this file holds games played under other terms "
                              "(--first-turn-ms: 4000 in the file, 3000 in this command)") != NULL,
                  "%s", err);
    rs.turn_ms = 0;
    rs.commands[1] = "b={bot} --seed {seed}"; /* another program under b's name */
    ck_assert_int_eq(run_in_process(&rs, &sum, err, sizeof err), -EINVAL);
    ck_assert_msg(strstr(err, "conf.jsonl:1: bot 'b': its command is now ") != NULL, "%s", err);

    /* A line in the middle that is not a record. */
    FILE *f = fopen(out, "a");
    fputs("{\"format\": 1}\n", f);
    fclose(f);
    rs.commands[1] = good_b;
    ck_assert_int_eq(run_in_process(&rs, &sum, err, sizeof err), -EINVAL);
    ck_assert_msg(strstr(err, "conf.jsonl:3: not a game record") != NULL, "%s", err);
}
END_TEST

/* ---- the executable: interrupts and kills at random moments ---- */

/* Starts twixt-arena with stdout and stderr to files in tmpdir. */
static pid_t spawn_arena(const char *output, int extra_argc, char **extra)
{
    char bots[3][2048];
    const char *names[3] = {"a", "b", "c"};
    char *argv[32];
    int argc = 0;
    argv[argc++] = arena;
    argv[argc++] = (char *)"tournament";
    for (int i = 0; i < 3; i++) {
        snprintf(bots[i], sizeof bots[i], "%s=%s --seed {seed} --think-ms 3", names[i], tiny_bot);
        argv[argc++] = bots[i];
    }
    argv[argc++] = (char *)"--games-per-pair";
    argv[argc++] = (char *)"4";
    argv[argc++] = (char *)"--concurrency";
    argv[argc++] = (char *)"2";
    argv[argc++] = (char *)"--turn-ms";
    argv[argc++] = (char *)"2000";
    argv[argc++] = (char *)"-o";
    argv[argc++] = (char *)output;
    for (int i = 0; i < extra_argc; i++)
        argv[argc++] = extra[i];
    argv[argc] = NULL;

    char log[600];
    snprintf(log, sizeof log, "%s/arena.log", tmpdir);
    return tx_test_spawn(argv, NULL, log);
}

/* The last program's stderr (arena.log) says needle. */
static bool log_contains(const char *needle)
{
    char path[600];
    snprintf(path, sizeof path, "%s/arena.log", tmpdir);
    char *text = tx_test_read_file(path);
    bool found = strstr(text, needle) != NULL;
    free(text);
    return found;
}

/* Interrupts or kills the run `rounds` times at random moments, then lets
 * it finish; the file must then hold each of the 12 games exactly once. */
static void interrupt_and_resume(int signum, unsigned seed)
{
    char out[512];
    snprintf(out, sizeof out, "%s/resume.jsonl", tmpdir);
    srand(seed);
    int stopped = 0;
    for (int round = 0; round < 3; round++) {
        pid_t pid = spawn_arena(out, 0, NULL);
        if (signum == SIGINT)
            tx_test_wait_catching(pid, SIGINT); /* a Ctrl-C, not a kill at start */
        tx_test_sleep_ms(50 + rand() % 550);
        kill(pid, signum);
        int status = tx_test_wait(pid);
        /* 12 games of bots thinking 3 ms a move take well over a second:
         * at least the first round is cut short. */
        stopped += !(WIFEXITED(status) && WEXITSTATUS(status) == 0);
        if (signum == SIGINT && WIFEXITED(status) && WEXITSTATUS(status) == 130)
            ck_assert_msg(log_contains("Resume with:"), "no resume command printed");
        else if (signum == SIGINT)
            ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "seed %u: status %d", seed,
                          status);
    }
    ck_assert_msg(stopped > 0, "seed %u: the run was never interrupted", seed);
    pid_t pid = spawn_arena(out, 0, NULL);
    int status = tx_test_wait(pid);
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "seed %u: final run status %d",
                  seed, status);

    /* Each of the 12 games once, under numbers used once each (a game
     * killed in flight left its number unused: numbers may have gaps). */
    struct results res;
    read_results(out, &res);
    ck_assert_msg(res.nids == 12, "seed %u: %d games recorded", seed, res.nids);
    for (int i = 0; i < res.nids; i++)
        ck_assert_msg(res.id_counts[i] == 1, "seed %u: game %s recorded %d times", seed, res.ids[i],
                      res.id_counts[i]);
    for (int g = 1; g <= MAX_GAMES; g++)
        ck_assert_msg(res.counts[g] <= 1, "seed %u: number %d used twice", seed, g);
    results_free(&res);
}

START_TEST(runner_resume_after_sigint)
{
    unsigned seed = (unsigned)time(NULL);
    interrupt_and_resume(SIGINT, seed);
}
END_TEST

START_TEST(runner_resume_after_sigkill)
{
    unsigned seed = (unsigned)time(NULL) ^ 0x5a5a;
    interrupt_and_resume(SIGKILL, seed);
}
END_TEST

START_TEST(runner_executable_refuses_another_seed)
{
    char out[512];
    snprintf(out, sizeof out, "%s/seed.jsonl", tmpdir);
    char *seed1[] = {(char *)"--seed", (char *)"1", (char *)"--games-per-pair", (char *)"2"};
    ck_assert_int_eq(WEXITSTATUS(tx_test_wait(spawn_arena(out, 4, seed1))), 0);
    char *seed2[] = {(char *)"--seed", (char *)"2", (char *)"--games-per-pair", (char *)"2"};
    int status = tx_test_wait(spawn_arena(out, 4, seed2));
    ck_assert(WIFEXITED(status));
    ck_assert_int_eq(WEXITSTATUS(status), 2);
    ck_assert(log_contains("seed.jsonl:1: this file holds games played under other terms (--seed: "
                           "1 in the file, 2 in this command)"));
}
END_TEST

/* Runs twixt-arena with argv (argv[0] is ignored) to completion, stdout
 * into out_path; returns the exit status. */
static int run_arena(char **argv, const char *out_path)
{
    char log[600];
    snprintf(log, sizeof log, "%s/arena.log", tmpdir);
    argv[0] = arena;
    return tx_test_exit_status(tx_test_spawn(argv, out_path, log));
}

/* The file's text, kept until the next call: the cases read one output
 * at a time. */
static const char *read_text(const char *path)
{
    static char *text;
    free(text);
    text = tx_test_read_file(path);
    return text;
}

START_TEST(runner_play_prints_each_game)
{
    char a[2048], b[2048], out[512], records[512];
    snprintf(a, sizeof a, "first=%s --seed {seed}", tiny_bot);
    snprintf(b, sizeof b, "second=%s --seed {seed} --crash 1", tiny_bot);
    snprintf(out, sizeof out, "%s/play.txt", tmpdir);
    snprintf(records, sizeof records, "%s/play.jsonl", tmpdir);
    char *argv[] = {NULL,        (char *)"play", a,       b,   (char *)"--games",
                    (char *)"3", (char *)"-o",   records, NULL};
    ck_assert_int_eq(run_arena(argv, out), 0);
    const char *text = read_text(out);
    /* second crashes in every game: first wins, as player 1 then 2 then 1 */
    ck_assert_msg(strstr(text, "game 1: first (player 1) beats second by crash: ") != NULL, "%s",
                  text);
    ck_assert_msg(strstr(text, "game 2: first (player 2) beats second by crash: ") != NULL, "%s",
                  text);
    ck_assert_msg(strstr(text, "game 3: first (player 1) beats second by crash: ") != NULL, "%s",
                  text);
    ck_assert_msg(
        strstr(text, "first vs second: 3 games, 3 wins, 0 draws, 0 losses, score 100.0%") != NULL,
        "%s", text);
    /* the crashed bot's last stderr lines under its game */
    ck_assert_msg(strstr(text, "  second's stderr, last lines:\n  | tiny-bot: crashing on "
                               "purpose\n  |   at turn ") != NULL,
                  "%s", text);
    /* a clean sweep has no finite Elo: a one-sided bound instead of no error bar */
    ck_assert_msg(strstr(text, "Elo difference +inf (every game won), at least -154 (95%)") != NULL,
                  "%s", text);
}
END_TEST

/* tiny-bot through PATH: commands without the build directory in them.
 * A game's seed comes from its pairing key, which hashes the commands, so
 * a path in them made the SPRT's games (and with alpha = 0.2, its verdict)
 * depend on where the tree was built. */
static void tiny_bot_in_path(char *a, char *b, size_t cap)
{
    char path[4096];
    const char *old = getenv("PATH");
    snprintf(path, sizeof path, "%.*s:%s", (int)(strrchr(tiny_bot, '/') - tiny_bot), tiny_bot,
             old ? old : "/usr/bin:/bin");
    ck_assert_int_eq(setenv("PATH", path, 1), 0);
    snprintf(a, cap, "a=tiny-bot --seed {seed}");
    snprintf(b, cap, "b=tiny-bot --seed {seed}");
}

/* "sprt: H0 accepted after N pairs" -> N, or -1. */
static long decided_after(const char *text)
{
    const char *at = strstr(text, "accepted after ");
    return at ? strtol(at + strlen("accepted after "), NULL, 10) : -1;
}

static int count_of(const char *text, const char *what)
{
    int n = 0;
    for (const char *at = text; (at = strstr(at, what)); at++)
        n++;
    return n;
}

/* At concurrency 1 no game starts after the pair that decided the test
 * (issue: game 149 was played after H1 at 74 pairs), and the decision is
 * reported once. The exit status says H0. */
START_TEST(runner_play_sprt_stops_at_the_deciding_pair)
{
    char a[2048], b[2048], out[512], records[512];
    tiny_bot_in_path(a, b, sizeof a);
    snprintf(out, sizeof out, "%s/sprt1.txt", tmpdir);
    snprintf(records, sizeof records, "%s/sprt1.jsonl", tmpdir);
    char *argv[] = {NULL,
                    (char *)"play",
                    a,
                    b,
                    (char *)"--sprt",
                    (char *)"elo0=0,elo1=300,alpha=0.2,beta=0.2",
                    (char *)"--games",
                    (char *)"400",
                    (char *)"--concurrency",
                    (char *)"1",
                    (char *)"-o",
                    records,
                    NULL};
    ck_assert_int_eq(run_arena(argv, out), 1);
    const char *text = read_text(out);
    long pairs = decided_after(text);
    ck_assert_msg(pairs > 0, "%s", text);
    ck_assert_int_eq(count_of(text, "accepted"), 1);
    struct results res;
    read_results(records, &res);
    ck_assert_int_eq(res.lines, 2 * pairs);
    results_free(&res);
}
END_TEST

/* --json: one object on stdout (the games' lines go to stderr), with the
 * SPRT's state; a test that reaches --games undecided exits 3. */
START_TEST(runner_play_json_and_undecided_status)
{
    char a[2048], b[2048], out[512];
    snprintf(a, sizeof a, "a=%s --seed {seed}", tiny_bot);
    snprintf(b, sizeof b, "b=%s --seed {seed}", tiny_bot);
    snprintf(out, sizeof out, "%s/json.txt", tmpdir);
    char *argv[] = {NULL,
                    (char *)"play",
                    a,
                    b,
                    (char *)"--sprt",
                    (char *)"elo0=0,elo1=5",
                    (char *)"--games",
                    (char *)"2",
                    (char *)"--json",
                    NULL};
    ck_assert_int_eq(run_arena(argv, out), 3);
    const char *text = read_text(out);
    ck_assert_msg(text[0] == '{' && strchr(text, '\n') == text + strlen(text) - 1, "%s", text);
    ck_assert_msg(strstr(text, "\"games\":2,") != NULL, "%s", text);
    ck_assert_msg(strstr(text, "\"decision\":null") != NULL, "%s", text);
    ck_assert_msg(strstr(text, "\"pentanomial\":[") != NULL, "%s", text);
    ck_assert_msg(strstr(text, "game 1:") == NULL, "%s", text);
}
END_TEST

START_TEST(runner_play_sprt_stops_at_a_bound)
{
    char a[2048], b[2048], out[512], records[512];
    tiny_bot_in_path(a, b, sizeof a);
    snprintf(out, sizeof out, "%s/sprt.txt", tmpdir);
    snprintf(records, sizeof records, "%s/sprt.jsonl", tmpdir);
    /* Two equal bots and a huge elo1 with loose error rates: H0 within a
     * few pairs, long before the 400-game cap. */
    char *argv[] = {NULL,
                    (char *)"play",
                    a,
                    b,
                    (char *)"--sprt",
                    (char *)"elo0=0,elo1=300,alpha=0.2,beta=0.2",
                    (char *)"--games",
                    (char *)"400",
                    (char *)"--concurrency",
                    (char *)"2",
                    (char *)"-o",
                    records,
                    NULL};
    ck_assert_int_eq(run_arena(argv, out), 1); /* H0 */
    const char *text = read_text(out);
    ck_assert_msg(strstr(text, "sprt: LLR ") != NULL, "%s", text);
    ck_assert_msg(strstr(text, "[-1.39, 1.39]") != NULL, "%s", text);
    ck_assert_msg(strstr(text, ": H0 accepted") != NULL, "%s", text);
    struct results res;
    read_results(records, &res);
    ck_assert_int_lt(res.lines, 400);
    results_free(&res);

    /* Running it again resumes: the decision is already in the file. */
    ck_assert_int_eq(run_arena(argv, out), 1);
    read_results(records, &res);
    ck_assert_int_lt(res.lines, 400);
    results_free(&res);
    ck_assert_msg(strstr(read_text(out), ": H0 accepted") != NULL, "%s", read_text(out));
}
END_TEST

START_TEST(runner_no_progress_line_when_not_a_terminal)
{
    char a[2048], b[2048], out[512];
    snprintf(a, sizeof a, "a=%s --seed {seed}", tiny_bot);
    snprintf(b, sizeof b, "b=%s --seed {seed}", tiny_bot);
    snprintf(out, sizeof out, "%s/standings.txt", tmpdir);
    char *argv[] = {NULL, (char *)"tournament", a, b, (char *)"--games-per-pair", (char *)"4",
                    NULL};
    ck_assert_int_eq(run_arena(argv, out), 0);
    const char *text = read_text(out);
    ck_assert_msg(strstr(text, "rank") != NULL && strstr(text, "Crosstable") != NULL, "%s", text);
    ck_assert_msg(strchr(text, '\r') == NULL && strstr(text, "games/s") == NULL, "%s", text);
}
END_TEST

/* Progress that is not on a terminal (a log file, CI, nohup) comes as
 * whole status lines every interval, never as a redrawn line. */
START_TEST(runner_status_lines_when_not_a_terminal)
{
    char err[512];
    FILE *log = tmpfile();
    ck_assert_ptr_nonnull(log);
    struct tx_runner_summary sum;
    struct run_spec rs = {
        {"a={bot} --seed {seed} --think-ms 3", good_b}, 2, 4, 0, 1, 0, 0, 0, NULL, log, 20};
    ck_assert_msg(run_in_process(&rs, &sum, err, sizeof err) == 0, "%s", err);
    rewind(log);
    static char text[1 << 16];
    text[fread(text, 1, sizeof text - 1, log)] = '\0';
    fclose(log);
    ck_assert_msg(strncmp(text, "twixt-arena: ", 13) == 0, "%s", text);
    ck_assert_msg(strstr(text, "/4 games, ") != NULL && strstr(text, " left") != NULL, "%s", text);
    ck_assert_msg(strchr(text, '\r') == NULL && strchr(text, '\033') == NULL, "%s", text);
    ck_assert_msg(text[strlen(text) - 1] == '\n', "%s", text);
}
END_TEST

START_TEST(runner_progress_line_on_a_terminal)
{
    /* stderr on a pseudo-terminal 50 columns wide, read while the run goes
     * on (a full terminal buffer would block the writer). The leader's long
     * name makes the line longer than the terminal. */
    int master = posix_openpt(O_RDWR | O_NOCTTY);
    ck_assert_int_ge(master, 0);
    ck_assert_int_eq(grantpt(master), 0);
    ck_assert_int_eq(unlockpt(master), 0);
    struct winsize ws = {.ws_row = 24, .ws_col = 50};
    ck_assert_int_eq(ioctl(master, TIOCSWINSZ, &ws), 0);
    char a[2048], b[2048], out[512];
    snprintf(a, sizeof a, "a-bot-with-a-very-long-name-indeed=%s --seed {seed} --think-ms 2",
             tiny_bot);
    snprintf(b, sizeof b, "b=%s --seed {seed}", tiny_bot);
    snprintf(out, sizeof out, "%s/live.txt", tmpdir);
    char *argv[] = {arena, (char *)"tournament", a, b, (char *)"--games-per-pair", (char *)"6",
                    NULL};
    pid_t pid = tx_test_spawn(argv, out, ptsname(master));

    static char text[1 << 16];
    size_t len = 0;
    int status = 0;
    bool exited = false;
    while (!exited || len < sizeof text - 1) {
        struct pollfd p = {master, POLLIN, 0};
        if (poll(&p, 1, 100) > 0 && (p.revents & POLLIN)) {
            ssize_t n = read(master, text + len, sizeof text - 1 - len);
            if (n > 0) {
                len += (size_t)n;
                continue;
            }
        }
        if (exited)
            break; /* drained */
        exited = waitpid(pid, &status, WNOHANG) == pid;
    }
    text[len] = '\0';
    close(master);
    ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    ck_assert_msg(strstr(text, "/6 games, ") != NULL, "%s", text);
    ck_assert_msg(strstr(text, "games/s") != NULL, "%s", text);
    /* every redraw fits in 49 columns: none wraps and leaves a line behind */
    int redraws = 0;
    for (const char *at = text; (at = strstr(at, "\r\033[K")); redraws++) {
        at += 4;
        size_t n = strcspn(at, "\r\n");
        ck_assert_msg(n <= 49, "%zu columns: %.*s", n, (int)n, at);
    }
    ck_assert_int_gt(redraws, 0);
    ck_assert_msg(strstr(text, "\n") == NULL, "%s", text); /* nothing else on stderr */
    ck_assert_msg(strstr(read_text(out), "Crosstable") != NULL, "%s", read_text(out));
}
END_TEST

START_TEST(runner_missing_bot_is_a_usage_error)
{
    char a[2048], out[512], records[512];
    snprintf(a, sizeof a, "a=%s", tiny_bot);
    snprintf(out, sizeof out, "%s/missing.txt", tmpdir);
    snprintf(records, sizeof records, "%s/missing.jsonl", tmpdir);
    char *argv[] = {
        NULL, (char *)"tournament", a, (char *)"typo=./no-such-bot --x", (char *)"-o", records,
        NULL};
    ck_assert_int_eq(run_arena(argv, out), 2);
    ck_assert(log_contains("BOT 'typo': cannot run './no-such-bot': no such file"));
    ck_assert_int_eq(access(records, F_OK), -1); /* nothing started, nothing written */
}
END_TEST

/* ---- a source of games other than a schedule (validate's battery) ---- */

struct source_games {
    struct tx_bot_spec bots[2];
    int16_t opening[2]; /* game 2's, kept by the source for the whole run */
    const char *output;
    int64_t started, ended; /* games handed out, games ended with their record */
    int seen;               /* records handed to the callback */
};

static int source_resumed(void *data, const struct tx_record *r, char *why, size_t cap)
{
    (void)data, (void)r, (void)why, (void)cap;
    return 0;
}

/* Games 1, 2, 3: b then a first, game 2 from a forced opening. */
static int source_next(void *data, int64_t index, struct tx_pool_slot *slot)
{
    struct source_games *sg = data;
    if (sg->started == 3)
        return 0;
    int64_t g = ++sg->started;
    memset(slot, 0, sizeof *slot);
    slot->spec = (struct tx_game_spec){.index = index,
                                       .seed = (uint64_t)g,
                                       .bots = {&sg->bots[g % 2], &sg->bots[1 - g % 2]},
                                       .nopening = g == 2 ? 2 : 0,
                                       .opening = sg->opening};
    return 1;
}

static void source_ended(void *data, const struct tx_pool_slot *slot, const struct tx_record *r)
{
    struct source_games *sg = data;
    (void)slot;
    sg->ended += r != NULL;
}

static void source_progress(void *data, int64_t *done, int64_t *total)
{
    const struct source_games *sg = data;
    *done = sg->ended;
    *total = 3;
}

/* Each record reaches the callback once it is in the file. */
static void source_record(struct tx_runner *runner, const struct tx_record *rec, bool resumed,
                          void *data)
{
    struct source_games *sg = data;
    (void)runner;
    ck_assert(!resumed);
    struct results res;
    read_results(sg->output, &res);
    ck_assert_int_eq(res.counts[rec->game], 1);
    results_free(&res);
    sg->seen++;
}

START_TEST(runner_plays_a_source_of_games)
{
    char out[512], err[512], bot[1200];
    snprintf(out, sizeof out, "%s/source.jsonl", tmpdir);
    snprintf(bot, sizeof bot, "%s --seed {seed}", tiny_bot);
    struct source_games sg = {
        .bots = {{.name = "a", .command = bot}, {.name = "b", .command = bot}},
        .opening = {5 * 12 + 5, 3 * 12 + 6}, /* F6 G4 */
        .output = out,
    };
    struct tx_geometry *geo;
    ck_assert_int_eq(tx_geometry_new(12, 12, &geo), 0);
    struct tx_match_config match;
    tx_match_config_init(&match, geo, TX_RULES_PP);
    match.limits.first_turn_ms = 4000;
    match.limits.turn_ms = 2000;
    struct tx_runner_games games = {.resumed = source_resumed,
                                    .next = source_next,
                                    .ended = source_ended,
                                    .progress = source_progress,
                                    .data = &sg,
                                    .run = "validate"};
    struct tx_runner_config config = {.games = &games,
                                      .match = &match,
                                      .concurrency = 2,
                                      .output = out,
                                      .record_cb = source_record,
                                      .data = &sg};
    struct tx_runner_summary sum;
    ck_assert_msg(tx_runner_run(&config, &sum, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(sum.played, 3);
    ck_assert_int_eq(sg.seen, 3);

    struct results res;
    read_results(out, &res);
    ck_assert_int_eq(res.lines, 3);
    for (int g = 1; g <= 3; g++) {
        struct tx_record r;
        char why[256];
        ck_assert_int_eq(res.counts[g], 1);
        ck_assert_int_eq(
            tx_record_from_json(res.texts[g], strlen(res.texts[g]), &r, why, sizeof why), 0);
        ck_assert_str_eq(r.run, "validate");
        ck_assert_str_eq(r.players[0].name, g % 2 ? "b" : "a");
        ck_assert_int_eq(r.moves[0].forced, g == 2);
        if (g == 2)
            ck_assert_str_eq(r.moves[1].move, "G4");
        tx_record_free(&r);
    }
    results_free(&res);
    free(geo);
}
END_TEST

static Suite *runner_suite(void)
{
    Suite *s = suite_create("runner");
    TCase *tc = tcase_create("in-process");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, runner_concurrency_does_not_change_records);
    tcase_add_test(tc, runner_misbehaving_bot_loses_those_games);
    tcase_add_test(tc, runner_shards_merge_to_the_whole_run);
    tcase_add_test(tc, runner_torn_last_line_is_cut_and_replayed);
    tcase_add_test(tc, runner_refuses_another_configuration);
    tcase_add_test(tc, runner_plays_a_source_of_games);
    suite_add_tcase(s, tc);

    tc = tcase_create("executable");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, runner_resume_after_sigint);
    tcase_add_test(tc, runner_resume_after_sigkill);
    tcase_add_test(tc, runner_executable_refuses_another_seed);
    tcase_add_test(tc, runner_play_prints_each_game);
    tcase_add_test(tc, runner_play_sprt_stops_at_a_bound);
    tcase_add_test(tc, runner_play_sprt_stops_at_the_deciding_pair);
    tcase_add_test(tc, runner_play_json_and_undecided_status);
    tcase_add_test(tc, runner_missing_bot_is_a_usage_error);
    tcase_add_test(tc, runner_no_progress_line_when_not_a_terminal);
    tcase_add_test(tc, runner_progress_line_on_a_terminal);
    tcase_add_test(tc, runner_status_lines_when_not_a_terminal);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(runner_suite());
    srunner_run_all(sr, CK_ENV);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
