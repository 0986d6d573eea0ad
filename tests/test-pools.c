/* test-pools.c - pools of bots through the real program: a bots file (each
 * bot in its directory with its environment; bad files named FILE:LINE,
 * exit 2), a gauntlet's games and colours, a run that grows (a bot added,
 * more games per pair: only the missing games played, old records
 * untouched), a changed command refused, a league (a bot added mid-run
 * gets games; Ctrl-C and kill -9, then resume: nothing finished lost, no
 * game played twice), and a table of forged records, each found by replay
 * and left out by standings.
 */
#include <check.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "arena-test.h"
#include "record.h"

#define LINES_MAX 4096

static char tiny_bot[1024], arena[1024];

static void setup(void)
{
    tx_test_build_path(tiny_bot, sizeof tiny_bot, "tests/tiny-bot");
    tx_test_build_path(arena, sizeof arena, "referee/twixt-arena");
    tx_test_scratch_begin("tx-pools");
}

static void teardown(void)
{
    tx_test_scratch_end();
}

static void write_text(const char *file, const char *text)
{
    FILE *f = fopen(file, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

/* Starts twixt-arena (argv[0] ignored) with stdout and stderr in files. */
static pid_t start(const char **argv, const char *out, const char *err)
{
    argv[0] = arena;
    return tx_test_spawn((char *const *)argv, out, err);
}

/* Runs twixt-arena to its end, stdout and stderr in out.txt and err.txt;
 * returns its exit status. */
static int run(const char **argv)
{
    argv[0] = arena;
    return tx_test_run(argv);
}

/* ---- records ---- */

struct game {
    char name[2][64]; /* player 1, player 2 */
    char id[64];      /* "KEY k" */
    int64_t k, game;
    int winner;
    bool interrupted;
};

/* The records of a file; returns how many. */
static int read_games(const char *file, struct game *games, int max)
{
    int n;
    struct tx_record *records = tx_test_read_records(file, &n);
    ck_assert_int_le(n, max);
    for (int i = 0; i < n; i++) {
        const struct tx_record *r = &records[i];
        struct game *g = &games[i];
        snprintf(g->name[0], sizeof g->name[0], "%s", r->players[0].name);
        snprintf(g->name[1], sizeof g->name[1], "%s", r->players[1].name);
        ck_assert_ptr_nonnull(r->pairing.key);
        snprintf(g->id, sizeof g->id, "%s %lld", r->pairing.key, (long long)r->pairing.k);
        g->k = r->pairing.k;
        g->game = r->game;
        g->winner = r->result.winner;
        g->interrupted = r->result.reason == TX_REASON_INTERRUPTED;
    }
    tx_test_free_records(records, n);
    return n;
}

/* Each finished game once, and each game number once. */
static void check_once(const struct game *games, int n)
{
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            ck_assert_msg(games[i].game != games[j].game, "game number %lld used twice",
                          (long long)games[i].game);
            ck_assert_msg(games[i].interrupted || games[j].interrupted ||
                              strcmp(games[i].id, games[j].id),
                          "game %s played twice", games[i].id);
        }
}

static int count_with(const struct game *games, int n, const char *name)
{
    int c = 0;
    for (int i = 0; i < n; i++)
        c += !games[i].interrupted &&
             (!strcmp(games[i].name[0], name) || !strcmp(games[i].name[1], name));
    return c;
}

/* ---- the bots file ---- */

/* Each bot of the file is a script that plays only when it runs in its
 * own directory with its own marker variable (else it exits 3: a crash).
 * The script runs the tiny-bot its command names: in the sandbox, a file
 * the opponent's command names and this bot's does not is hidden. */
START_TEST(pools_bots_file_dir_and_env)
{
    char text[8192];
    for (int i = 1; i <= 2; i++) {
        char dir[512], script[1024];
        snprintf(dir, sizeof dir, "%s/v%d", tx_test_scratch_dir(), i);
        ck_assert_int_eq(mkdir(dir, 0755), 0);
        snprintf(script, sizeof script, "%s/bot", dir);
        snprintf(text, sizeof text,
                 "#!/bin/sh\n[ \"$(pwd)\" = '%s' ] || exit 3\n[ \"$TX_MARK\" = 'v%d' ] || exit 4\n"
                 "exec \"$@\"\n",
                 dir, i);
        write_text(script, text);
        ck_assert_int_eq(chmod(script, 0755), 0);
    }
    snprintf(text, sizeof text,
             "[\n"
             "  {\"name\": \"v1\", \"command\": \"./bot '%s' --seed {seed}\",\n"
             "   \"dir\": \"v1\", \"env\": {\"TX_MARK\": \"v1\"}},\n"
             "  {\"name\": \"v2\", \"command\": \"./bot '%s' --seed {seed}\",\n"
             "   \"dir\": \"v2\", \"env\": {\"TX_MARK\": \"v2\"},\n"
             "   \"memory_mb\": 512}\n"
             "]\n",
             tiny_bot, tiny_bot);
    write_text(tx_test_file("bots.json"), text);
    char one[1200];
    snprintf(one, sizeof one, "cli=%s --seed {seed}", tiny_bot);
    const char *argv[] = {NULL,
                          "tournament",
                          one,
                          "--bots",
                          tx_test_file("bots.json"),
                          "-o",
                          tx_test_file("dir.jsonl"),
                          "--concurrency",
                          "2",
                          NULL};
    ck_assert_int_eq(run(argv), 0);
    struct game games[16];
    int n = read_games(tx_test_file("dir.jsonl"), games, 16);
    ck_assert_int_eq(n, 6); /* three bots, two games a pair */
    char *records = tx_test_read_file(tx_test_file("dir.jsonl"));
    ck_assert_msg(!strstr(records, "\"reason\":\"crash\""), "a bot did not start right: %s",
                  records);
    ck_assert_ptr_nonnull(strstr(records, "\"memory_mb\":512"));
    free(records);
}
END_TEST

static const struct {
    const char *file;
    const char *message;
} bad_files[] = {
    {"[\n  {\"name\": \"x\"}\n]\n", "bots.json:2: bot 'x': command: missing"},
    {"[{\"name\": \"x\", \"command\": \"./x\",\n\"dir\": \"nowhere\"}]",
     "bots.json:1: bot 'x': dir: no such directory"},
    {"[{\"name\": \"x\",\n\"command\": \"./no-such-bot\"}]",
     "bots.json:1: bot 'x': cannot run './no-such-bot': no such file"},
    {"[{\"name\": \"cli\", \"command\": \"true\"}]",
     "bots.json:1: bot 'cli': name: already used by BOT 'cli' on the command line"},
    {"[{\"name\": \"x\", \"command\": \"true\", \"memory_mb\": 1}]",
     "bots.json:1: bot 'x': memory_mb: expected megabytes"},
    {"[{\"name\": \"x\", \"command\": \"true\" \"dir\": \"a\"}]", "bots.json:1: not valid JSON"},
};

START_TEST(pools_bots_file_errors)
{
    write_text(tx_test_file("bots.json"), bad_files[_i].file);
    char one[1200];
    snprintf(one, sizeof one, "cli=%s", tiny_bot);
    const char *argv[] = {NULL, "tournament", one, "--bots", tx_test_file("bots.json"), NULL};
    ck_assert_int_eq(run(argv), 2);
    tx_test_assert_in("err.txt", bad_files[_i].message);
    tx_test_assert_in("err.txt", "twixt-arena tournament: /");
}
END_TEST

/* ---- gauntlet ---- */

START_TEST(pools_gauntlet_one_against_three)
{
    char bots[4][1200];
    const char *names[] = {"new", "c", "a", "b"};
    for (int i = 0; i < 4; i++)
        snprintf(bots[i], sizeof bots[i], "%s=%s --seed {seed}", names[i], tiny_bot);
    const char *argv[] = {NULL,
                          "tournament",
                          bots[0],
                          bots[1],
                          bots[2],
                          bots[3],
                          "--gauntlet",
                          "1",
                          "--games-per-pair",
                          "4",
                          "-o",
                          tx_test_file("g.jsonl"),
                          "--concurrency",
                          "2",
                          NULL};
    ck_assert_int_eq(run(argv), 0);
    struct game games[32];
    int n = read_games(tx_test_file("g.jsonl"), games, 32);
    ck_assert_int_eq(n, 12);
    for (const char *const *o = names + 1; o < names + 4; o++) {
        int odd = 0, even = 0;
        for (int i = 0; i < n; i++) {
            const struct game *g = &games[i];
            bool mine = (!strcmp(g->name[0], *o) && !strcmp(g->name[1], "new")) ||
                        (!strcmp(g->name[1], *o) && !strcmp(g->name[0], "new"));
            if (!mine)
                continue;
            /* the pairing's first bot is the one whose name sorts first:
             * the opponent ("a" < "new"); it is player 1 in odd k */
            ck_assert_str_eq(g->name[g->k % 2 ? 0 : 1], *o);
            odd += g->k % 2, even += !(g->k % 2);
        }
        ck_assert_int_eq(odd, 2);
        ck_assert_int_eq(even, 2);
    }
    for (int i = 0; i < n; i++) /* the others never meet */
        ck_assert(!strcmp(games[i].name[0], "new") || !strcmp(games[i].name[1], "new"));
    tx_test_assert_in("out.txt", "new against each opponent");
    tx_test_assert_in("out.txt", "all opponents     12");
}
END_TEST

/* ---- growing ---- */

START_TEST(pools_grow_play_only_what_is_missing)
{
    char bots[4][1200];
    const char *names[] = {"a", "b", "c", "d"};
    for (int i = 0; i < 4; i++)
        snprintf(bots[i], sizeof bots[i], "%s=%s --seed {seed}", names[i], tiny_bot);
    char out[1024];
    snprintf(out, sizeof out, "%s", tx_test_file("grow.jsonl"));
    const char *three[] = {NULL,         "tournament", bots[0], bots[1], bots[2],
                           "--openings", "2",          "-o",    out,     NULL};
    ck_assert_int_eq(run(three), 0);
    char *before = tx_test_read_file(out);
    struct game games[64];
    ck_assert_int_eq(read_games(out, games, 64), 6);

    /* A fourth bot: its three pairings only, the old lines untouched. */
    const char *four[] = {NULL,         "tournament", bots[0], bots[1], bots[2], bots[3],
                          "--openings", "2",          "-o",    out,     NULL};
    ck_assert_int_eq(run(four), 0);
    char *after = tx_test_read_file(out);
    ck_assert_int_eq(strncmp(before, after, strlen(before)), 0);
    int n = read_games(out, games, 64);
    ck_assert_int_eq(n, 12);
    for (int i = 6; i < n; i++)
        ck_assert(!strcmp(games[i].name[0], "d") || !strcmp(games[i].name[1], "d"));
    tx_test_assert_in("out.txt", "4 bots, 12 games");
    free(before);
    free(after);

    /* More games per pair: only k = 3 and 4 of each of the six pairings. */
    before = tx_test_read_file(out);
    const char *more[] = {
        NULL, "tournament",       bots[0], bots[1], bots[2], bots[3], "--openings",
        "2",  "--games-per-pair", "4",     "-o",    out,     NULL};
    ck_assert_int_eq(run(more), 0);
    after = tx_test_read_file(out);
    ck_assert_int_eq(strncmp(before, after, strlen(before)), 0);
    n = read_games(out, games, 64);
    ck_assert_int_eq(n, 24);
    for (int i = 12; i < n; i++)
        ck_assert_int_ge(games[i].k, 3);
    check_once(games, n);
    free(before);
    free(after);

    /* standings counts all, and proves all */
    const char *standings[] = {NULL, "standings", out, NULL};
    ck_assert_int_eq(run(standings), 0);
    tx_test_assert_in("out.txt", "4 bots, 24 games\n");

    /* b under another command: refused, naming it, and nothing played */
    char changed[1200];
    snprintf(changed, sizeof changed, "b=%s --seed {seed} --think-ms 1", tiny_bot);
    before = tx_test_read_file(out);
    const char *refused[] = {
        NULL, "tournament",       bots[0], changed, bots[2], bots[3], "--openings",
        "2",  "--games-per-pair", "4",     "-o",    out,     NULL};
    ck_assert_int_eq(run(refused), 2);
    tx_test_assert_in("err.txt", "grow.jsonl:");
    tx_test_assert_in("err.txt", ": bot 'b': its command is now '");
    after = tx_test_read_file(out);
    ck_assert_str_eq(before, after);
    free(before);
    free(after);

    /* a bot left out: its games stay, and the run owes nothing more */
    const char *fewer[] = {NULL, "tournament",       bots[0], bots[1], "--openings",
                           "2",  "--games-per-pair", "4",     "-o",    out,
                           NULL};
    ck_assert_int_eq(run(fewer), 0);
    ck_assert_int_eq(read_games(out, games, 64), 24);
    tx_test_assert_in("out.txt", "2 bots, 4 games");
}
END_TEST

/* ---- the league ---- */

static void write_league_bots(int nbots)
{
    char text[8192];
    size_t n = (size_t)snprintf(text, sizeof text, "[");
    for (int i = 0; i < nbots; i++)
        n += (size_t)snprintf(text + n, sizeof text - n,
                              "%s{\"name\": \"l%d\", \"command\": \"%s --seed {seed} --think-ms "
                              "1\"}",
                              i ? ",\n" : "", i, tiny_bot);
    snprintf(text + n, sizeof text - n, "]\n");
    /* replaced whole, as an editor saves */
    write_text(tx_test_file("league.json.tmp"), text);
    ck_assert_int_eq(rename(tx_test_file("league.json.tmp"), tx_test_file("league.json")), 0);
}

/* Runs the league for ms milliseconds, then sends signum; returns the
 * exit status (128 + signal for SIGKILL). between is called once half way. */
static int league_for(long ms, int signum, void (*between)(void))
{
    char bots[1024], records[1024], out[1024], err[1024];
    snprintf(bots, sizeof bots, "%s", tx_test_file("league.json"));
    snprintf(records, sizeof records, "%s", tx_test_file("league.jsonl"));
    snprintf(out, sizeof out, "%s", tx_test_file("out.txt"));
    snprintf(err, sizeof err, "%s", tx_test_file("err.txt"));
    const char *argv[] = {
        NULL, "league", "--bots", bots, "-o", records, "--concurrency", "2", "--standings-every",
        "3",  NULL};
    pid_t pid = start(argv, out, err);
    if (signum != SIGKILL)
        tx_test_wait_catching(pid, signum); /* a Ctrl-C, not a kill at start */
    tx_test_sleep_ms(ms / 2);
    if (between)
        between();
    tx_test_sleep_ms(ms - ms / 2);
    kill(pid, signum);
    int status = tx_test_wait(pid);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static void add_third_bot(void)
{
    write_league_bots(3);
}

START_TEST(pools_league_grows_and_resumes)
{
    write_league_bots(2);
    ck_assert_int_eq(league_for(3000, SIGINT, add_third_bot), 130);
    tx_test_assert_in("err.txt", "league.json changed: +l2 (3 bots)");
    tx_test_assert_in("err.txt", "Resume with:");
    static struct game games[LINES_MAX];
    int n = read_games(tx_test_file("league.jsonl"), games, LINES_MAX);
    ck_assert_int_gt(count_with(games, n, "l2"), 0);
    check_once(games, n);
    tx_test_assert_in("league.standings.txt", "3 bots");
    char *json = tx_test_read_file(tx_test_file("league.standings.json"));
    cJSON *root = cJSON_Parse(json);
    ck_assert_msg(root != NULL, "%s", json);
    ck_assert_int_gt(cJSON_GetObjectItem(root, "games")->valueint, 0);
    cJSON_Delete(root);
    free(json);

    /* kill -9 at a random moment, then Ctrl-C: what was finished stays,
     * nothing is played twice */
    srand((unsigned)time(NULL));
    for (int round = 0; round < 2; round++) {
        char *before = tx_test_read_file(tx_test_file("league.jsonl"));
        int finished = 0;
        for (int i = 0; i < n; i++)
            finished += !games[i].interrupted;
        int status = league_for(600 + rand() % 900, round ? SIGINT : SIGKILL, NULL);
        ck_assert_int_eq(status, round ? 130 : 128 + SIGKILL);
        char *after = tx_test_read_file(tx_test_file("league.jsonl"));
        /* kill -9 may leave a torn last line, which the next run cuts */
        ck_assert_int_eq(strncmp(before, after, strlen(before)), 0);
        free(before);
        free(after);
        n = read_games(tx_test_file("league.jsonl"), games, LINES_MAX);
        check_once(games, n);
        int now = 0;
        for (int i = 0; i < n; i++)
            now += !games[i].interrupted;
        ck_assert_int_ge(now, finished);
    }
    /* and the file proves every game */
    const char *replay[] = {NULL, "replay", tx_test_file("league.jsonl"), NULL};
    ck_assert_int_eq(run(replay), 0);
}
END_TEST

/* ---- forged records ---- */

enum forgery {
    SWAP_PLAYERS,
    COPY_UNDER_NEW_IDENTITY,
    DELETE_LINE,
    SWAP_LINES,
    EDIT_TIME,
    FLIP_SANDBOX
};

static const struct {
    enum forgery forgery;
    int line;          /* the line replay and standings must name */
    const char *found; /* in replay's verdict for it */
} forgeries[] = {
    {SWAP_PLAYERS, 3, "(players swapped?)"},
    {COPY_UNDER_NEW_IDENTITY, 13, "the record was moved to another game"},
    {DELETE_LINE, 5, "does not follow the record before it"},
    {SWAP_LINES, 7, "does not follow the record before it"},
    {EDIT_TIME, 4, "changed after it was written"},
    {FLIP_SANDBOX, 5, "changed after it was written"},
};

/* The lines of a file (at most 64). */
static int split_lines(char *text, char **lines)
{
    int n = 0;
    for (char *save = NULL, *l = strtok_r(text, "\n", &save); l && n < 64;
         l = strtok_r(NULL, "\n", &save))
        lines[n++] = l;
    return n;
}

static void write_lines(const char *file, char **lines, int n)
{
    FILE *f = fopen(file, "w");
    for (int i = 0; i < n; i++)
        fprintf(f, "%s\n", lines[i]);
    fclose(f);
}

START_TEST(pools_forged_records_found)
{
    /* A genuine file: 12 games of 4 bots. */
    char bots[4][1200];
    for (int i = 0; i < 4; i++)
        snprintf(bots[i], sizeof bots[i], "%c=%s --seed {seed}", 'a' + i, tiny_bot);
    char real[1024], forged[1024];
    snprintf(real, sizeof real, "%s", tx_test_file("real.jsonl"));
    snprintf(forged, sizeof forged, "%s", tx_test_file("forged.jsonl"));
    const char *argv[] = {NULL,         "tournament", bots[0], bots[1], bots[2], bots[3],
                          "--openings", "2",          "-o",    real,    NULL};
    ck_assert_int_eq(run(argv), 0);
    const char *replay_real[] = {NULL, "replay", real, NULL};
    ck_assert_int_eq(run(replay_real), 0);

    char *text = tx_test_read_file(real), *lines[64];
    int n = split_lines(text, lines);
    ck_assert_int_eq(n, 12);
    char *made = NULL;
    switch (forgeries[_i].forgery) {
    case SWAP_PLAYERS: { /* the loser's name and program on the winner's side */
        cJSON *r = cJSON_Parse(lines[2]);
        cJSON *players = cJSON_GetObjectItem(r, "players");
        cJSON *first = cJSON_DetachItemFromArray(players, 0);
        cJSON_AddItemToArray(players, first);
        made = cJSON_PrintUnformatted(r);
        cJSON_Delete(r);
        lines[2] = made;
        break;
    }
    case COPY_UNDER_NEW_IDENTITY: { /* a real record again, as another game */
        cJSON *r = cJSON_Parse(lines[0]);
        cJSON *pairing = cJSON_GetObjectItem(r, "pairing");
        cJSON_SetNumberValue(cJSON_GetObjectItem(r, "game"), 13);
        cJSON *k = cJSON_GetObjectItem(pairing, "k");
        cJSON_SetNumberValue(k, k->valuedouble + 6); /* the same colours, a later round */
        made = cJSON_PrintUnformatted(r);
        cJSON_Delete(r);
        lines[n++] = made;
        break;
    }
    case DELETE_LINE: /* a lost game removed */
        memmove(&lines[4], &lines[5], (size_t)(n - 5) * sizeof lines[0]);
        n--;
        break;
    case SWAP_LINES: {
        char *t = lines[6];
        lines[6] = lines[7];
        lines[7] = t;
        break;
    }
    case EDIT_TIME: { /* a slow answer made fast: one digit of a later "us" */
        char *us = strstr(lines[3], "\"us\":");
        us = strstr(us + 1, "\"us\":");
        us = strstr(us + 1, "\"us\":") + 5;
        ck_assert(*us >= '1' && *us <= '9');
        *us = *us == '1' ? '2' : '1';
        break;
    }
    case FLIP_SANDBOX: { /* "sandbox": true claimed, or denied */
        const char *flag = ",\"sandbox\":true";
        char *at = strstr(lines[4], flag), *players = strstr(lines[4], ",\"players\":");
        ck_assert_ptr_nonnull(players);
        made = malloc(strlen(lines[4]) + strlen(flag) + 1);
        ck_assert_ptr_nonnull(made);
        if (at) /* played in the sandbox: the flag removed */
            sprintf(made, "%.*s%s", (int)(at - lines[4]), lines[4], at + strlen(flag));
        else
            sprintf(made, "%.*s%s%s", (int)(players - lines[4]), lines[4], flag, players);
        lines[4] = made;
        break;
    }
    }
    write_lines(forged, lines, n);
    free(made);
    free(text);

    /* replay names the line and fails */
    const char *replay[] = {NULL, "replay", forged, NULL};
    ck_assert_int_eq(run(replay), 1);
    char where[64];
    snprintf(where, sizeof where, "forged.jsonl:%d: game ", forgeries[_i].line);
    tx_test_assert_in("out.txt", where);
    tx_test_assert_in("out.txt", forgeries[_i].found);

    /* standings leaves it out, says where, exits 1 */
    const char *standings[] = {NULL, "standings", "--json", forged, NULL};
    ck_assert_int_eq(run(standings), 1);
    snprintf(where, sizeof where, "forged.jsonl:%d: game ", forgeries[_i].line);
    tx_test_assert_in("err.txt", where);
    tx_test_assert_in("err.txt", "not counted");
    char *json = tx_test_read_file(tx_test_file("out.txt"));
    cJSON *root = cJSON_Parse(json);
    ck_assert_ptr_nonnull(root);
    int rejected = cJSON_GetObjectItem(root, "rejected")->valueint;
    int counted = cJSON_GetObjectItem(root, "games")->valueint;
    ck_assert_int_ge(rejected, 1);
    ck_assert_int_eq(counted + rejected, n);
    cJSON_Delete(root);
    free(json);
}
END_TEST

static Suite *pools_suite(void)
{
    Suite *s = suite_create("pools");
    TCase *tc = tcase_create("pools");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, pools_bots_file_dir_and_env);
    tcase_add_loop_test(tc, pools_bots_file_errors, 0,
                        (int)(sizeof bad_files / sizeof bad_files[0]));
    tcase_add_test(tc, pools_gauntlet_one_against_three);
    tcase_add_test(tc, pools_grow_play_only_what_is_missing);
    tcase_add_test(tc, pools_league_grows_and_resumes);
    tcase_add_loop_test(tc, pools_forged_records_found, 0,
                        (int)(sizeof forgeries / sizeof forgeries[0]));
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(pools_suite());
    srunner_run_all(sr, CK_ENV);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
