/* test-family.c - every command end to end on the TwixT family's other
 * games: classic rules on a 30 x 24 board, pp and classic on 100 x 100.
 *
 * Through the real program, as a user runs it: play with -o, replay's
 * verification of its records, replay --bot re-feeding each player
 * (every answer the same, link edits included), a tournament from a bots
 * file interrupted with Ctrl-C and resumed, its shards, a league stopped
 * and resumed, validate's battery under the rule set and board, records
 * of different rule sets or boards refused by a run and kept apart by
 * standings. The bots are the test bots (tiny-bot making random link
 * edits, fault-bot's zigzag plan, which wins a 100 x 100 game in about 50
 * moves) and tests/cg-bot.py, a bot written the CodinGame way; limits are
 * generous, since the verdicts, not the times, are under test.
 */
#include <check.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "arena-test.h"
#include "record.h"

#define ARGS_MAX 40
#define GAMES_MAX 64

static char arena[1024], tiny_bot[1024], fault_bot[1024];
static char cg_bot[1024]; /* "python3 .../tests/cg-bot.py" */

/* The games under test. Each names the bots of a match (BOT1 first) and
 * of a pool (tournament, league; "" ends it): commands learn the board
 * from {placeholders}, from the environment, or both. On 100 x 100 every
 * game is fault-bot's zigzag against a bot that does not block it (tiny-bot
 * with its default seed, cg-bot.py as player 1), about 100 moves: a game
 * of two random bots lasts thousands. */
static const struct variant {
    const char *rules, *board;
    int width, height;
    int games;           /* of the match */
    const char *bots[2]; /* the match's: NAME=COMMAND, with TINY, FAULT and CG for the test bots */
    const char *pool[3];
} variants[] = {
    {"classic",
     "30x24",
     30,
     24,
     2,
     {"edits=TINY --seed {seed} --edits 0.4", "cg=CG {width} {height}"},
     {"edits=TINY --seed {seed} --edits 0.4", "cg=CG {width} {height}",
      "plain=TINY --seed {seed} --board {width}x{height} --rules {rules}"}},
    {"pp",
     "100x100",
     100,
     100,
     1,
     {"cg=CG", "good=FAULT good"},
     {"good=FAULT good", "tiny=TINY", ""}},
    {"classic",
     "100x100",
     100,
     100,
     2,
     {"good=FAULT good", "edits=TINY --edits 0.5"},
     {"good=FAULT good", "edits=TINY --edits 0.5", ""}},
};
#define NVARIANTS ((int)(sizeof variants / sizeof variants[0]))

static void setup(void)
{
    tx_test_build_path(arena, sizeof arena, "referee/twixt-arena");
    tx_test_build_path(tiny_bot, sizeof tiny_bot, "tests/tiny-bot");
    tx_test_build_path(fault_bot, sizeof fault_bot, "tests/fault-bot");
    snprintf(cg_bot, sizeof cg_bot, "python3 %s/tests/cg-bot.py", getenv("TX_SOURCE_DIR"));
    tx_test_scratch_begin("tx-family");
}

static void teardown(void)
{
    tx_test_scratch_end();
}

/* The match's bot named name. */
static const char *match_bot(const struct variant *v, const char *name)
{
    size_t len = strlen(name);
    for (int i = 0; i < 2; i++)
        if (!strncmp(v->bots[i], name, len) && v->bots[i][len] == '=')
            return v->bots[i];
    ck_abort_msg("no bot named %s", name);
    return NULL;
}

static char *out_text(void)
{
    return tx_test_read_file(tx_test_file("out.txt"));
}

/* What the tests look at in a record. */
struct game {
    int64_t game, k;
    char key[32];
    int width, height;
    enum tx_rules rules;
    int reason, nmoves, edits[2]; /* edits: each player's link edits in the game */
    char name[2][64];
};

/* The records of file; returns how many. */
static int read_games(const char *file, struct game *games)
{
    int n;
    struct tx_record *records = tx_test_read_records(file, &n);
    ck_assert_int_le(n, GAMES_MAX);
    for (int i = 0; i < n; i++) {
        const struct tx_record *r = &records[i];
        struct game *g = &games[i];
        memset(g, 0, sizeof *g);
        g->game = r->game;
        g->k = r->pairing.k;
        snprintf(g->key, sizeof g->key, "%s", r->pairing.key ? r->pairing.key : "");
        g->width = r->width;
        g->height = r->height;
        g->rules = r->rules;
        g->reason = r->result.reason;
        g->nmoves = r->nmoves;
        for (int m = 0; m < r->nmoves; m++)
            g->edits[r->moves[m].player] += r->moves[m].nedits;
        for (int p = 0; p < 2; p++)
            snprintf(g->name[p], sizeof g->name[p], "%s", r->players[p].name);
    }
    tx_test_free_records(records, n);
    return n;
}

/* Every record of file is a finished game of variant v, and replay
 * verifies them all. Returns how many there are: a shard may hold none,
 * since shards split pairings, and replay refuses a file without games. */
static int check_file(const struct variant *v, const char *file, struct game *games)
{
    int n = read_games(file, games);
    for (int i = 0; i < n; i++) {
        ck_assert_int_eq(games[i].width, v->width);
        ck_assert_int_eq(games[i].height, v->height);
        ck_assert_str_eq(tx_ruleset(games[i].rules)->name, v->rules);
        ck_assert_int_ne(games[i].reason, TX_REASON_INTERRUPTED);
    }
    if (n == 0)
        return 0;
    ck_assert_int_eq(tx_test_arena("replay", file, NULL), 0);
    char want[64];
    snprintf(want, sizeof want, ": %d record%s, %d ok, 0 failed", n, n == 1 ? "" : "s", n);
    tx_test_assert_in("out.txt", want);
    return n;
}

/* The limits of every run: generous, so that a loaded machine does not
 * turn a test of rules into a test of speed; no memory limit, so that the
 * bundled bots start when they are built with sanitizers (an ASan program
 * cannot start under RLIMIT_DATA). */
#define LIMITS "--first-turn-ms", "10000", "--turn-ms", "5000", "--bot-memory-mb", "0"

/* ---- play, replay, replay --bot ---- */

START_TEST(family_play_replay_refeed)
{
    const struct variant *v = &variants[_i];
    const char *file = tx_test_file("play.jsonl");
    static struct game games[GAMES_MAX];
    char ngames[8];
    snprintf(ngames, sizeof ngames, "%d", v->games);
    ck_assert_int_eq(tx_test_arena("play", tx_test_bot(v->bots[0]), tx_test_bot(v->bots[1]),
                                   "--rules", v->rules, "--board", v->board, "--games", ngames,
                                   "-o", file, LIMITS, NULL),
                     0);
    ck_assert_int_eq(check_file(v, file, games), v->games);
    int first = games[0].game == 1 ? 0 : 1; /* game 1's record */
    if (v->width == 30)
        ck_assert_int_gt(games[first].edits[0] + games[first].edits[1], 0);

    /* Each player re-fed its inputs gives every answer again, its link
     * edits included, and the table says so. */
    for (int p = 0; p < 2; p++) {
        char spec[2200];
        const char *b = tx_test_bot(match_bot(v, games[first].name[p]));
        snprintf(spec, sizeof spec, "%d=%s", p + 1, strchr(b, '=') + 1);
        ck_assert_int_eq(tx_test_arena("replay", file, "--game", "1", "--bot", spec, NULL), 0);
        tx_test_assert_in("out.txt", " different, 0 illegal, 0 timeout, 0 crash");
        char *out = out_text();
        ck_assert_msg(strstr(out, " 0 different,"), "%s", out);
        free(out);
    }
    /* {size} has no meaning on a board that is not square. */
    if (v->width != v->height) {
        ck_assert_int_eq(
            tx_test_arena("replay", file, "--game", "1", "--bot", "1=true {size}", NULL), 2);
        tx_test_assert_in("err.txt",
                          "--bot: {size} in the command, but the board of game 1 is 30x24: use "
                          "{width} and {height}");
    }
}
END_TEST

/* ---- tournament: a bots file, Ctrl-C and resume, shards ---- */

/* Waits until file holds at least n lines (a finished game each), at most
 * about 60 s. */
static void wait_lines(const char *file, int n)
{
    for (int i = 0; i < 6000; i++) {
        FILE *f = fopen(file, "r");
        int lines = 0;
        for (int c; f && (c = fgetc(f)) != EOF;)
            lines += c == '\n';
        if (f)
            fclose(f);
        if (lines >= n)
            return;
        tx_test_sleep_ms(10);
    }
    ck_abort_msg("%s never held %d lines", file, n);
}

/* The bots file of v's bots. */
static const char *bots_file(const struct variant *v)
{
    const char *file = tx_test_file("bots.json");
    FILE *f = fopen(file, "w");
    ck_assert_ptr_nonnull(f);
    cJSON *list = cJSON_CreateArray();
    for (int i = 0; i < 3 && v->pool[i][0]; i++) {
        const char *b = tx_test_bot(v->pool[i]), *eq = strchr(b, '=');
        char name[64];
        snprintf(name, sizeof name, "%.*s", (int)(eq - b), b);
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", name);
        cJSON_AddStringToObject(o, "command", eq + 1);
        cJSON_AddItemToArray(list, o);
    }
    char *text = cJSON_Print(list);
    fputs(text, f);
    fclose(f);
    free(text);
    cJSON_Delete(list);
    return file;
}

START_TEST(family_tournament_resume_shards)
{
    const struct variant *v = &variants[_i];
    const char *file = tx_test_file("run.jsonl"), *bots = bots_file(v);
    static struct game games[GAMES_MAX], shard[2][GAMES_MAX];
    int nbots = v->pool[2][0] ? 3 : 2, want = nbots * (nbots - 1); /* 2 games a pair */
    const char *argv[ARGS_MAX] = {arena,
                                  "tournament",
                                  "--bots",
                                  bots,
                                  "--rules",
                                  v->rules,
                                  "--board",
                                  v->board,
                                  "--games-per-pair",
                                  "2",
                                  "--concurrency",
                                  "1",
                                  LIMITS,
                                  "-o",
                                  file,
                                  NULL};
    /* Ctrl-C once a game is recorded: the game in flight is recorded
     * as interrupted, and the same command plays what is missing. */
    pid_t pid =
        tx_test_spawn((char *const *)argv, tx_test_file("out.txt"), tx_test_file("err.txt"));
    wait_lines(file, 1);
    kill(pid, SIGINT);
    ck_assert_int_eq(tx_test_exit_status(pid), 130);
    tx_test_assert_in("err.txt", "Resume with:");
    ck_assert_int_eq(tx_test_exit_status(tx_test_spawn((char *const *)argv, tx_test_file("out.txt"),
                                                       tx_test_file("err.txt"))),
                     0);
    char heading[64];
    snprintf(heading, sizeof heading, "%s rules, %d x %d board: %d bots, %d games", v->rules,
             v->width, v->height, nbots, want);
    tx_test_assert_in("out.txt", heading);
    int n = read_games(file, games), finished = 0;
    for (int i = 0; i < n; i++)
        finished += games[i].reason != TX_REASON_INTERRUPTED;
    ck_assert_int_eq(finished, want);
    ck_assert_int_eq(tx_test_arena("replay", file, NULL), 0);
    /* Each game once: its pairing and k are not recorded twice as a result. */
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            ck_assert(games[i].reason == TX_REASON_INTERRUPTED ||
                      games[j].reason == TX_REASON_INTERRUPTED ||
                      strcmp(games[i].key, games[j].key) || games[i].k != games[j].k);

    /* Two shards hold the run's games between them, each once. */
    int nshard[2];
    for (int s = 0; s < 2; s++) {
        char which[8], name[32];
        snprintf(which, sizeof which, "%d/2", s + 1);
        snprintf(name, sizeof name, "shard%d.jsonl", s + 1);
        ck_assert_int_eq(tx_test_arena("tournament", "--bots", bots, "--rules", v->rules, "--board",
                                       v->board, "--games-per-pair", "2", LIMITS, "--shard", which,
                                       "-o", tx_test_file(name), NULL),
                         0);
        nshard[s] = check_file(v, tx_test_file(name), shard[s]);
    }
    ck_assert_int_eq(nshard[0] + nshard[1], want);
    for (int s = 0; s < 2; s++)
        for (int i = 0; i < nshard[s]; i++) {
            int found = 0;
            for (int j = 0; j < n; j++)
                found += games[j].reason != TX_REASON_INTERRUPTED &&
                         !strcmp(games[j].key, shard[s][i].key) && games[j].k == shard[s][i].k;
            ck_assert_int_eq(found, 1);
        }
    ck_assert_int_eq(tx_test_arena("standings", tx_test_file("shard1.jsonl"),
                                   tx_test_file("shard2.jsonl"), NULL),
                     0);
    tx_test_assert_in("out.txt", heading);
}
END_TEST

/* ---- league ---- */

START_TEST(family_league_stop_and_resume)
{
    const struct variant *v = &variants[_i];
    const char *file = tx_test_file("league.jsonl"), *bots = bots_file(v);
    static struct game games[GAMES_MAX];
    const char *argv[] = {arena,    "league",  "--bots", bots,   "--rules",
                          v->rules, "--board", v->board, LIMITS, "--standings-every",
                          "1",      "-o",      file,     NULL};
    for (int round = 1, lines = 0; round <= 2; round++) {
        /* Ctrl-C once two more games are recorded (not before the league
         * runs: it would die of the signal, as any program starting). */
        pid_t pid =
            tx_test_spawn((char *const *)argv, tx_test_file("out.txt"), tx_test_file("err.txt"));
        wait_lines(file, lines + 2);
        kill(pid, SIGINT);
        ck_assert_int_eq(tx_test_exit_status(pid), 130);
        lines = read_games(file, games); /* the games in flight too, as interrupted */
    }
    int n = read_games(file, games), finished = 0;
    for (int i = 0; i < n; i++)
        finished += games[i].reason != TX_REASON_INTERRUPTED;
    ck_assert_int_ge(finished, 3);
    ck_assert_int_eq(tx_test_arena("replay", file, NULL), 0);
    char heading[64];
    snprintf(heading, sizeof heading, "%s rules, %d x %d board: ", v->rules, v->width, v->height);
    tx_test_assert_in("league.standings.txt", heading);
    /* The standings' JSON says which games it counts. */
    char *json = tx_test_read_file(tx_test_file("league.standings.json"));
    cJSON *root = cJSON_Parse(json);
    ck_assert_ptr_nonnull(root);
    ck_assert_str_eq(cJSON_GetObjectItem(root, "rules")->valuestring, v->rules);
    ck_assert_int_eq(cJSON_GetObjectItem(root, "width")->valueint, v->width);
    ck_assert_int_eq(cJSON_GetObjectItem(root, "height")->valueint, v->height);
    cJSON_Delete(root);
    free(json);
}
END_TEST

/* ---- records of different rule sets or boards never mix ---- */

START_TEST(family_records_never_mix)
{
    const char *file = tx_test_file("mixed.jsonl"), *classic = tx_test_file("classic.jsonl");
    char a[1100], b[1100];
    static struct game games[GAMES_MAX], other[GAMES_MAX];
    snprintf(a, sizeof a, "a=%s --seed {seed}", tiny_bot);
    snprintf(b, sizeof b, "b=%s --seed {seed}", tiny_bot);
    ck_assert_int_eq(tx_test_arena("play", a, b, "--games", "2", "-o", file, NULL), 0);
    ck_assert_int_eq(tx_test_arena("play", a, b, "--games", "2", "--rules", "classic", "--board",
                                   "30x24", "-o", classic, NULL),
                     0);
    /* The same bots and terms on another game are other pairings. */
    ck_assert_int_eq(read_games(file, games), 2);
    ck_assert_int_eq(read_games(classic, other), 2);
    ck_assert_str_ne(games[0].key, other[0].key);
    /* A run of another rule set or board on a file is refused, naming what differs. */
    static const struct {
        const char *option[4];
        const char *words;
    } others[] = {
        {{"--rules", "classic", "--size", "12"},
         "(--rules: pp in the file, classic in this command)"},
        {{"--board", "12x13", NULL, NULL}, "(--board: 12x12 in the file, 12x13 in this command)"},
        {{"--size", "13", NULL, NULL}, "(--size: 12 in the file, 13 in this command)"},
    };
    for (size_t i = 0; i < sizeof others / sizeof others[0]; i++) {
        ck_assert_int_eq(tx_test_arena("play", a, b, "--games", "4", "-o", file,
                                       others[i].option[0], others[i].option[1],
                                       others[i].option[2], others[i].option[3], NULL),
                         2);
        tx_test_assert_in("err.txt", others[i].words);
    }
    ck_assert_int_eq(tx_test_arena("tournament", a, b, "--games-per-pair", "4", "-o", classic,
                                   "--rules", "classic", "--board", "24x30", NULL),
                     2);
    tx_test_assert_in("err.txt", "(--board: 30x24 in the file, 24x30 in this command)");
    ck_assert_int_eq(read_games(file, games), 2); /* nothing was played */

    /* standings keeps them apart: a table for each, the newest bot of each. */
    ck_assert_int_eq(tx_test_arena("standings", file, classic, NULL), 0);
    char *out = out_text();
    char *pp = strstr(out, "pp rules, 12 x 12 board: 2 bots, 2 games"),
         *cl = strstr(out, "classic rules, 30 x 24 board: 2 bots, 2 games");
    ck_assert_msg(pp && cl && pp < cl, "%s", out);
    free(out);
    ck_assert_int_eq(tx_test_arena("standings", "--json", classic, file, NULL), 0);
    out = out_text();
    char *second = strchr(out, '\n');
    ck_assert_ptr_nonnull(second);
    *second++ = '\0';
    cJSON *first = cJSON_Parse(out), *next = cJSON_Parse(second);
    ck_assert_ptr_nonnull(first);
    ck_assert_ptr_nonnull(next);
    ck_assert_str_eq(cJSON_GetObjectItem(first, "rules")->valuestring, "classic");
    ck_assert_int_eq(cJSON_GetObjectItem(first, "width")->valueint, 30);
    ck_assert_int_eq(cJSON_GetObjectItem(first, "games")->valueint, 2);
    ck_assert_str_eq(cJSON_GetObjectItem(next, "rules")->valuestring, "pp");
    ck_assert_int_eq(cJSON_GetObjectItem(next, "height")->valueint, 12);
    cJSON_Delete(first);
    cJSON_Delete(next);
    free(out);
    /* One rule set and board alone prints as it always did. */
    ck_assert_int_eq(tx_test_arena("standings", file, NULL), 0);
    out = out_text();
    ck_assert_msg(!strncmp(out, "2 bots, 2 games", 15), "%s", out);
    free(out);
}
END_TEST

/* ---- validate ---- */

/* The report of the last run, parsed (free it with cJSON_Delete). */
static cJSON *report(void)
{
    char *out = out_text();
    cJSON *root = cJSON_Parse(out);
    ck_assert_msg(root != NULL, "not JSON: %s", out);
    free(out);
    return root;
}

/* cg-bot.py passes validate under classic rules on 30 x 24: no swap game
 * (no mirror), crossing games in which twixt-blocker flips its links (no
 * link crosses another), no forced-crossing game, the games against an
 * opponent editing its links, and every game arena only. With --opponent a
 * test bot that makes link edits plays the plain games, so the bot sees
 * links disappear and come back in its input. */
START_TEST(family_validate_classic)
{
    char edits[1100];
    const char *file = tx_test_file("validate.jsonl");
    static struct game games[GAMES_MAX];
    snprintf(edits, sizeof edits, "%s --seed {seed} --edits 0.5", tiny_bot);
    ck_assert_int_eq(tx_test_arena("validate", cg_bot, "--rules", "classic", "--board", "30x24",
                                   "--opponent", edits, "--forced-openings", "--json", "-o", file,
                                   LIMITS, NULL),
                     0);
    cJSON *root = report();
    ck_assert(cJSON_IsTrue(cJSON_GetObjectItem(root, "passed")));
    ck_assert_str_eq(cJSON_GetObjectItem(root, "rules")->valuestring, "classic");
    ck_assert_int_eq(cJSON_GetObjectItem(root, "width")->valueint, 30);
    int scenarios[16] = {0};
    cJSON *g;
    cJSON_ArrayForEach(g, cJSON_GetObjectItem(root, "games"))
    {
        const char *s = cJSON_GetObjectItem(g, "scenario")->valuestring;
        ck_assert(cJSON_IsFalse(cJSON_GetObjectItem(g, "codingame")));
        scenarios[!strcmp(s, "edits")      ? 1
                  : !strcmp(s, "swap")     ? 2
                  : !strcmp(s, "crossing") ? 3
                                           : 0]++;
    }
    ck_assert_int_eq(scenarios[1], 2);
    ck_assert_int_eq(scenarios[2], 0);
    ck_assert_int_eq(scenarios[3], 2); /* twixt-blocker --cross flips its links instead */
    cJSON *skipped = cJSON_GetObjectItem(root, "skipped"), *s;
    char why[2][128] = {"", ""};
    cJSON_ArrayForEach(s, skipped)
    {
        const char *name = cJSON_GetObjectItem(s, "scenario")->valuestring;
        if (!strcmp(name, "swap") || !strcmp(name, "forced-crossing"))
            snprintf(why[!strcmp(name, "forced-crossing")], sizeof why[0], "%s",
                     cJSON_GetObjectItem(s, "why")->valuestring);
    }
    ck_assert_str_eq(why[0], "no swap on a board that is not square");
    ck_assert_str_eq(why[1], "no link crosses another under classic rules");
    cJSON_Delete(root);
    /* The opponents edited their links, and every game verifies. */
    int n = read_games(file, games), opponent_edits = 0;
    for (int i = 0; i < n; i++)
        opponent_edits += games[i].edits[strcmp(games[i].name[0], "cg-bot") ? 0 : 1];
    ck_assert_int_gt(opponent_edits, 0);
    ck_assert_int_eq(tx_test_arena("replay", file, NULL), 0);
}
END_TEST

/* On 100 x 100, a bot that answers an occupied hole at its second turn
 * fails every game of the battery at once: every scenario is played on
 * that board, and the finding is counted in each. */
START_TEST(family_validate_big_board)
{
    char failing[1100];
    snprintf(failing, sizeof failing, "%s occupied 2", fault_bot);
    /* Short limits: an opponent slow on this board (twixt-blocker) loses
     * its game on time, which is no finding of the bot's. */
    ck_assert_int_eq(tx_test_arena("validate", failing, "--board", "100x100", "--json",
                                   "--first-turn-ms", "3000", "--turn-ms", "1000",
                                   "--bot-memory-mb", "0", NULL),
                     1);
    cJSON *root = report(), *g;
    ck_assert_int_eq(cJSON_GetObjectItem(root, "size")->valueint, 100);
    int ngames = cJSON_GetArraySize(cJSON_GetObjectItem(root, "games")), lost = 0;
    ck_assert_int_eq(ngames, 11);
    cJSON_ArrayForEach(g, cJSON_GetObjectItem(root, "games"))
    {
        ck_assert(cJSON_IsFalse(cJSON_GetObjectItem(g, "codingame")));
        lost += !strcmp(cJSON_GetObjectItem(g, "reason")->valuestring, "invalid");
    }
    ck_assert_int_ge(lost, 7); /* every game against random and mcts */
    cJSON *f = cJSON_GetArrayItem(cJSON_GetObjectItem(root, "findings"), 0);
    ck_assert_str_eq(cJSON_GetObjectItem(f, "check")->valuestring, "illegal");
    ck_assert_int_eq(cJSON_GetObjectItem(f, "count")->valueint, lost);
    ck_assert(cJSON_IsTrue(cJSON_GetObjectItem(f, "arena_only")));
    cJSON_Delete(root);
}
END_TEST

static Suite *family_suite(void)
{
    Suite *s = suite_create("family");
    TCase *tc = tcase_create("commands");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 300);
    tcase_add_loop_test(tc, family_play_replay_refeed, 0, NVARIANTS);
    tcase_add_loop_test(tc, family_tournament_resume_shards, 0, NVARIANTS);
    tcase_add_loop_test(tc, family_league_stop_and_resume, 0, NVARIANTS);
    tcase_add_test(tc, family_records_never_mix);
    tcase_add_test(tc, family_validate_classic);
    tcase_add_test(tc, family_validate_big_board);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(family_suite());
    srunner_run_all(sr, CK_ENV);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
