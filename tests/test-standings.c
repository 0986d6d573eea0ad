/* test-standings.c - standings from JSON Lines fixtures (tests/data/).
 *
 * standings-a.jsonl and standings-b.jsonl are one run ("r1") split in two
 * files plus two other games; make-standings-fixtures.py lists every game,
 * and the expected figures below are counted by hand from that list. Their
 * games are synthetic (three moves and a "connection"): they test the
 * counting, read with the checks off (s.unchecked); with the checks on,
 * as the command reads, they are refused (standings_checks_every_record).
 * referee-play.jsonl is the output of a real `twixt-arena play` (4 games,
 * greedy against random).
 */
#include <check.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "commands.h"
#include "render-dashboard.h"
#include "standings-games.h"
#include "standings.h"

static const char *data(const char *name)
{
    static char path[4096];
    const char *dir = getenv("TX_SOURCE_DIR");
    snprintf(path, sizeof(path), "%s/tests/data/%s", dir ? dir : "..", name);
    return path;
}

/* Reads the named fixtures; warnings are collected into *ret_warnings. */
static void read_all(struct tx_standings *s, const char *const *names, int n, char **ret_warnings)
{
    size_t size = 0;
    char *warnings = NULL;
    FILE *warn = open_memstream(&warnings, &size);
    tx_standings_init(s);
    s->unchecked = true; /* synthetic games: see the top of this file */
    for (int i = 0; i < n; i++) {
        char err[1024];
        int r = tx_standings_read(s, data(names[i]), false, warn, NULL, err, sizeof(err));
        ck_assert_msg(r == 0, "%s: %s", names[i], err);
    }
    fclose(warn);
    if (ret_warnings)
        *ret_warnings = warnings;
    else
        free(warnings);
}

static const struct tx_standings_bot *bot(const struct tx_standings *s, const char *name)
{
    for (int i = 0; i < s->nbots; i++)
        if (strcmp(s->bots[i].name, name) == 0)
            return &s->bots[i];
    ck_abort_msg("no bot %s", name);
    return NULL;
}

static const struct tx_standings_cell *cell(const struct tx_standings *s, const char *a,
                                            const char *b)
{
    int i = (int)(bot(s, a) - s->bots), j = (int)(bot(s, b) - s->bots);
    return tx_standings_cell(s, i, j);
}

/* Games counted: r1 1-5, 7, 8; r2 1; one without a run. Game 6 is
 * interrupted, game 7 appears in both files, game 9 is torn. */
START_TEST(standings_merge_two_files)
{
    static const char *const names[] = {"standings-a.jsonl", "standings-b.jsonl"};
    struct tx_standings s;
    char *warnings = NULL;
    read_all(&s, names, 2, &warnings);
    ck_assert_int_eq(s.counted, 9);
    ck_assert_int_eq(s.interrupted, 1);
    ck_assert_int_eq(s.duplicates, 1);
    ck_assert_int_eq(s.nbots, 3);

    const struct tx_standings_bot *a = bot(&s, "A"), *b = bot(&s, "B"), *c = bot(&s, "C");
    /* A: won r1/1, r1/4, r1/7; drew r1/2 and the run-less game; lost r1/3
     * (timeout), r1/8, r2/1 */
    ck_assert_int_eq(a->games, 8);
    ck_assert_int_eq(a->wins, 3);
    ck_assert_int_eq(a->draws, 2);
    ck_assert_int_eq(a->losses, 3);
    ck_assert_int_eq(a->timeouts, 1);
    ck_assert_int_eq(a->invalids + a->crashes, 0);
    ck_assert_int_eq(b->games, 6);
    ck_assert_int_eq(b->wins, 2);
    ck_assert_int_eq(b->draws, 2);
    ck_assert_int_eq(b->losses, 2);
    ck_assert_int_eq(c->games, 4);
    ck_assert_int_eq(c->wins, 2);
    ck_assert_int_eq(c->losses, 2);
    ck_assert_int_eq(c->invalids, 1);
    ck_assert_int_eq(c->crashes, 1);

    /* A's answers: first turns 4000 (its forced F6 excluded), 3000, 1000,
     * 2000, 2000, 8000, 1000, 1000 us; one later turn, 301000 (the timeout).
     * B answered first turns only (at most 6000). C: first turns 5000, 7000,
     * 1200, 3000, then 500 once; its 99999999 us in the interrupted game is
     * not counted. First turns are kept apart (their own limit, start-up). */
    ck_assert_int_eq(a->timed_moves, 1);
    ck_assert_int_eq(a->total_us, 301000);
    ck_assert_int_eq(a->max_us, 301000);
    ck_assert_int_eq(a->first_max_us, 8000);
    ck_assert_int_eq(b->timed_moves, 0);
    ck_assert_int_eq(b->total_us, 0);
    ck_assert_int_eq(b->first_max_us, 6000);
    ck_assert_int_eq(c->timed_moves, 1);
    ck_assert_int_eq(c->total_us, 500);
    ck_assert_int_eq(c->max_us, 500);
    ck_assert_int_eq(c->first_max_us, 7000);

    ck_assert_int_eq(cell(&s, "A", "B")->games, 5);
    ck_assert_int_eq(cell(&s, "A", "B")->half_points, 6); /* 1 + 1/2 + 1 + 0 + 1/2 */
    ck_assert_int_eq(cell(&s, "B", "A")->half_points, 4);
    ck_assert_int_eq(cell(&s, "A", "C")->half_points, 2);
    ck_assert_int_eq(cell(&s, "C", "A")->half_points, 4);
    ck_assert_int_eq(cell(&s, "B", "C")->games, 1);
    ck_assert_int_eq(cell(&s, "C", "B")->half_points, 0);
    ck_assert_int_eq(cell(&s, "A", "A")->games, 0);

    ck_assert_ptr_nonnull(
        strstr(warnings, "standings-b.jsonl:1: game 7 already counted (the same game as "));
    ck_assert_ptr_nonnull(strstr(warnings, "standings-a.jsonl:7), skipped"));
    ck_assert_ptr_nonnull(strstr(
        warnings, "standings-b.jsonl:6: the last line is a record cut short (its write never "
                  "finished: the run writing it was killed, or its disk was full); skipped"));
    free(warnings);
    tx_standings_free(&s);
}
END_TEST

START_TEST(standings_same_file_twice_counts_once)
{
    static const char *const names[] = {"standings-a.jsonl", "standings-a.jsonl"};
    struct tx_standings s;
    read_all(&s, names, 2, NULL);
    ck_assert_int_eq(s.counted, 6);
    ck_assert_int_eq(s.duplicates, 6);
    ck_assert_int_eq(s.interrupted, 2); /* interrupted games are never results, not duplicates */
    tx_standings_free(&s);
}
END_TEST

START_TEST(standings_corrupt_line_names_file_and_line)
{
    struct tx_standings s;
    char err[1024];
    tx_standings_init(&s);
    ck_assert_int_eq(
        tx_standings_read(&s, data("standings-corrupt.jsonl"), false, NULL, NULL, err, sizeof(err)),
        -EINVAL);
    char want[4200];
    snprintf(want, sizeof(want),
             "%s:2: not a game record: game: expected an integer, got \"2\" (--skip-invalid leaves "
             "such lines out)",
             data("standings-corrupt.jsonl"));
    ck_assert_str_eq(err, want);
    ck_assert_int_eq(
        tx_standings_read(&s, data("no-such-file.jsonl"), false, NULL, NULL, err, sizeof(err)),
        -ENOENT);
    ck_assert_ptr_nonnull(
        strstr(err, "no-such-file.jsonl: cannot read: No such file or directory"));
    tx_standings_free(&s);
}
END_TEST

START_TEST(standings_leader_and_score)
{
    static const char *const names[] = {"standings-a.jsonl"};
    struct tx_standings s;
    tx_standings_init(&s);
    ck_assert_int_eq(tx_standings_leader(&s), -1);
    tx_standings_free(&s);
    read_all(&s, names, 1, NULL);
    /* file a alone: A 3.5/5, B 1.5/4, C 1/3 */
    int leader = tx_standings_leader(&s);
    ck_assert_int_ge(leader, 0);
    ck_assert_str_eq(s.bots[leader].name, "A");
    ck_assert_double_eq_tol(tx_standings_score(&s, leader), 0.7, 1e-12);
    tx_standings_free(&s);
}
END_TEST

static char *print_to_string(const struct tx_standings *s, bool json)
{
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    ck_assert_int_eq(json ? tx_standings_print_json(s, NULL, 0, out) : tx_standings_print(s, out),
                     0);
    fclose(out);
    return text;
}

START_TEST(standings_print_table_and_crosstable)
{
    static const char *const names[] = {"standings-a.jsonl"};
    struct tx_standings s;
    read_all(&s, names, 1, NULL);
    tx_standings_bot(&s, "D\xc3\xa9j\xc3\xa0, no games yet"); /* "Déjà": 2-byte characters */
    char *text = print_to_string(&s, false);
    ck_assert_ptr_nonnull(strstr(text, "4 bots, 6 games, 1 interrupted (not counted)\n"));
    /* ranked by rating: A, then B, C, and D (0 Elo, no games: between) */
    const char *a = strstr(text, "   1  A "), *b = strstr(text, "  B "), *c = strstr(text, "  C ");
    ck_assert_ptr_nonnull(a);
    ck_assert(a < b && b < c);
    ck_assert_ptr_nonnull(strstr(text, "  70.0%"));
    /* A's row of the crosstable: - against itself, 2.5/3 against B, 1/2 against C */
    ck_assert_ptr_nonnull(strstr(text, "Crosstable"));
    const char *row = strstr(strstr(text, "Crosstable"), "   1  A ");
    ck_assert_ptr_nonnull(row);
    ck_assert_ptr_nonnull(strstr(row, "2.5/3"));
    /* every row of the table is as wide as its header (in characters:
     * the header has a "±"): names are padded */
    const char *line = strstr(text, "rank  bot");
    size_t header = 0;
    for (int n = 0; n < 5; n++) {
        size_t chars = 0;
        for (; *line != '\n'; line++)
            chars += ((unsigned char)*line & 0xc0) != 0x80;
        line++;
        if (n == 0)
            header = chars;
        ck_assert_uint_eq(chars, header);
    }
    ck_assert_int_eq(*line, '\n'); /* then the blank line before the crosstable */
    free(text);
    tx_standings_free(&s);
}
END_TEST

START_TEST(standings_print_json_object)
{
    static const char *const names[] = {"standings-a.jsonl", "standings-b.jsonl"};
    struct tx_standings s;
    read_all(&s, names, 2, NULL);
    char *text = print_to_string(&s, true);
    ck_assert(strchr(text, '\n') == text + strlen(text) - 1); /* one line */
    cJSON *root = cJSON_Parse(text);
    ck_assert_ptr_nonnull(root);
    ck_assert_int_eq(cJSON_GetObjectItem(root, "games")->valueint, 9);
    ck_assert_int_eq(cJSON_GetObjectItem(root, "duplicates")->valueint, 1);
    const cJSON *bots = cJSON_GetObjectItem(root, "bots");
    ck_assert_int_eq(cJSON_GetArraySize(bots), 3);
    const cJSON *first = cJSON_GetArrayItem(bots, 0);
    ck_assert_int_eq(cJSON_GetObjectItem(first, "rank")->valueint, 1);
    int total = 0;
    const cJSON *b;
    cJSON_ArrayForEach(b, bots)
    {
        total += cJSON_GetObjectItem(b, "games")->valueint;
        if (strcmp(cJSON_GetObjectItem(b, "name")->valuestring, "A") == 0) {
            ck_assert_double_eq_tol(cJSON_GetObjectItem(b, "avg_ms")->valuedouble, 301, 1e-9);
            ck_assert_double_eq_tol(cJSON_GetObjectItem(b, "max_ms")->valuedouble, 301, 1e-9);
            ck_assert_double_eq_tol(cJSON_GetObjectItem(b, "first_turn_max_ms")->valuedouble, 8,
                                    1e-9);
            ck_assert_int_eq(cJSON_GetObjectItem(b, "timeouts")->valueint, 1);
        }
        /* every bot scored 50%: the Bradley-Terry ratings are all 0 */
        ck_assert_double_eq_tol(cJSON_GetObjectItem(b, "elo")->valuedouble, 0, 1e-9);
    }
    ck_assert_int_eq(total, 18);
    const cJSON *ab =
        cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetObjectItem(root, "crosstable"), "A"), "B");
    ck_assert_int_eq(cJSON_GetObjectItem(ab, "games")->valueint, 5);
    ck_assert_double_eq(cJSON_GetObjectItem(ab, "points")->valuedouble, 3);
    cJSON_Delete(root);
    free(text);
    tx_standings_free(&s);
}
END_TEST

START_TEST(standings_reads_referee_records)
{
    static const char *const names[] = {"referee-play.jsonl"};
    struct tx_standings s;
    read_all(&s, names, 1, NULL);
    ck_assert_int_eq(s.counted, 4);
    int leader = tx_standings_leader(&s);
    ck_assert_str_eq(s.bots[leader].name, "twixt-greedy");
    ck_assert_int_eq(s.bots[leader].wins, 4);
    ck_assert_int_gt(s.bots[leader].timed_moves, 0);
    tx_standings_free(&s);
}
END_TEST

/* The command reads with every check on: the real referee file proves all
 * its games; each synthetic game that breaks the rules is named with its
 * FILE:LINE and left out. */
START_TEST(standings_checks_every_record)
{
    struct tx_standings s;
    char err[1024], *warnings = NULL;
    size_t size = 0;
    FILE *warn = open_memstream(&warnings, &size);
    tx_standings_init(&s);
    ck_assert_int_eq(
        tx_standings_read(&s, data("referee-play.jsonl"), false, warn, NULL, err, sizeof(err)), 0);
    ck_assert_int_eq(s.counted, 4);
    ck_assert_int_eq(s.rejected, 0);
    ck_assert_int_eq(
        tx_standings_read(&s, data("standings-a.jsonl"), false, warn, NULL, err, sizeof(err)), 0);
    fclose(warn);
    /* games 3 (a timeout) and 5 (a crash) are legal; 1, 2, 4 and 7 are not,
     * and neither is game 6 (interrupted, so never counted anyway) */
    ck_assert_int_eq(s.rejected, 5);
    ck_assert_int_eq(s.counted, 6);
    ck_assert_msg(strstr(warnings,
                         "standings-a.jsonl:1: game 1: not counted: move 3: the result is "
                         "a connection, but nobody has connected"),
                  "%s", warnings);
    ck_assert_ptr_nonnull(strstr(warnings, "standings-a.jsonl:4: game 4: not counted:"));
    free(warnings);
    tx_standings_free(&s);
}
END_TEST

/* A synthetic record: a at player 1, b at player 2, with sha256s, a start time. */
static void add_full(struct tx_standings *s, const char *a, const char *sha_a, const char *b,
                     const char *sha_b, int winner, const char *started)
{
    struct tx_record r;
    memset(&r, 0, sizeof(r));
    r.players[0].name = (char *)a;
    r.players[0].sha256 = (char *)sha_a;
    r.players[1].name = (char *)b;
    r.players[1].sha256 = (char *)sha_b;
    r.started = (char *)started;
    r.result.winner = winner;
    r.result.reason = winner < 0 ? TX_REASON_DRAW : TX_REASON_CONNECTION;
    tx_standings_add(s, &r);
}

/* Issue 13 item 12: two programs under one name are shown apart, with a
 * warning, unless --merge-builds. */
START_TEST(standings_shared_name_shown_apart)
{
    static const char *v1 = "1111111111111111111111111111111111111111111111111111111111111111";
    static const char *v2 = "2222222222222222222222222222222222222222222222222222222222222222";
    static const char *other = "3333333333333333333333333333333333333333333333333333333333333333";
    for (int merge = 0; merge < 2; merge++) {
        struct tx_standings s;
        tx_standings_init(&s);
        s.merge_builds = merge;
        tx_standings_bot(&s, "bot"); /* listed before its first game, as a tournament does */
        add_full(&s, "bot", v1, "ref", other, 0, "2026-11-20T10:00:00Z");
        add_full(&s, "ref", other, "bot", v2, 0, "2026-11-21T10:00:00Z");
        add_full(&s, "bot", NULL, "ref", other, 0, "2026-11-21T11:00:00Z"); /* unknown: the first */
        char *text = NULL;
        size_t size = 0;
        FILE *out = open_memstream(&text, &size);
        tx_standings_warn_builds(&s, out);
        tx_standings_print(&s, out);
        fclose(out);
        if (merge) {
            ck_assert_int_eq(s.nbots, 2);
            ck_assert_int_eq(bot(&s, "bot")->games, 3);
            ck_assert_ptr_null(strstr(text, "warning"));
        } else {
            ck_assert_int_eq(s.nbots, 3);
            ck_assert_str_eq(s.bots[0].label, "bot@11111111");
            ck_assert_int_eq(s.bots[0].games, 2);
            ck_assert_str_eq(s.bots[2].label, "bot@22222222");
            ck_assert_str_eq(s.bots[1].label, "ref");
            ck_assert_msg(strstr(text, "warning: two or more programs are named 'bot' (their "
                                       "sha256 differ): bot@11111111 bot@22222222; shown apart "
                                       "(--merge-builds counts them as one bot)"),
                          "%s", text);
            ck_assert_ptr_nonnull(strstr(text, "bot@22222222"));
        }
        free(text);
        tx_standings_free(&s);
    }
}
END_TEST

/* --since and --bots look at a subset; the newest bot is shown against
 * each opponent and the pool, with Elo differences from those games. */
START_TEST(standings_subsets_and_versus)
{
    struct tx_standings s;
    tx_standings_init(&s);
    s.since = "2026-11-21";
    const char *only[] = {"a", "b", "new"};
    s.only = only;
    s.nonly = 3;
    add_full(&s, "a", NULL, "b", NULL, 0, "2026-11-20T23:59:59Z"); /* too early */
    add_full(&s, "a", NULL, "c", NULL, 0, "2026-11-21T00:00:00Z"); /* c is not looked at */
    for (int i = 0; i < 4; i++)
        add_full(&s, "a", NULL, "b", NULL, i % 2 ? 1 : -1, "2026-11-21T00:00:00Z");
    for (int i = 0; i < 10; i++)
        add_full(&s, i % 2 ? "new" : "a", NULL, i % 2 ? "a" : "new", NULL,
                 i < 8 ? (i % 2 ? 0 : 1) : -1, "2026-11-22T00:00:00Z"); /* new wins 8, draws 2 */
    for (int i = 0; i < 4; i++)
        add_full(&s, "new", NULL, "b", NULL, 0, "2026-11-22T00:00:00Z");
    ck_assert_int_eq(s.filtered, 2);
    ck_assert_int_eq(s.counted, 18);
    int newest = tx_standings_newest(&s);
    ck_assert_str_eq(s.bots[newest].name, "new");
    ck_assert_int_eq(tx_standings_find(&s, "b"), 1);
    ck_assert_int_eq(tx_standings_find(&s, "zzz"), -1);

    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    ck_assert_int_eq(tx_standings_print_versus(&s, newest, out), 0);
    fclose(out);
    ck_assert_msg(strstr(text, "new against each opponent"), "%s", text);
    ck_assert_msg(strstr(text, "     10      8      2      0   90.0%  +382, at least"), "%s", text);
    ck_assert_msg(strstr(text, "      4      4      0      0  100.0%  +inf (every game won), at "
                               "least"),
                  "%s", text);
    ck_assert_msg(strstr(text, "all opponents     14"), "%s", text);
    ck_assert_msg(strstr(text, "its rating in the joint fit: +"), "%s", text);
    free(text);

    const char *focus = "new";
    text = NULL;
    out = open_memstream(&text, &size);
    ck_assert_int_eq(tx_standings_print_json(&s, &focus, 1, out), 0);
    fclose(out);
    cJSON *root = cJSON_Parse(text);
    ck_assert_ptr_nonnull(root);
    cJSON *versus = cJSON_GetArrayItem(cJSON_GetObjectItem(root, "versus"), 0);
    ck_assert_str_eq(cJSON_GetObjectItem(versus, "bot")->valuestring, "new");
    cJSON *all = cJSON_GetObjectItem(versus, "all");
    ck_assert_int_eq(cJSON_GetObjectItem(all, "games")->valueint, 14);
    ck_assert_int_eq(cJSON_GetObjectItem(root, "filtered")->valueint, 2);
    cJSON_Delete(root);
    free(text);
    s.only = NULL; /* not the standings' to free */
    tx_standings_free(&s);
}
END_TEST

/* A record between two named bots, for synthetic runs. */
static enum tx_standings_added add_game(struct tx_standings *s, const char *run, int64_t game,
                                        const char *a, const char *b, int winner)
{
    struct tx_record r;
    memset(&r, 0, sizeof(r));
    r.run = (char *)run;
    r.game = game;
    r.players[0].name = (char *)a;
    r.players[1].name = (char *)b;
    r.result.winner = winner;
    r.result.reason = winner < 0 ? TX_REASON_DRAW : TX_REASON_CONNECTION;
    return tx_standings_add(s, &r);
}

/* Games of different rule sets or boards are never counted together:
 * each has its own standings, chained from the first in the order they
 * first appear, and says which games it counts when printed. */
START_TEST(standings_rule_sets_and_boards_apart)
{
    static const struct {
        enum tx_rules rules;
        int width, height, winner;
    } games[] = {
        {TX_RULES_PP, 12, 12, 0},      {TX_RULES_CLASSIC, 30, 24, 1}, {TX_RULES_PP, 12, 12, 0},
        {TX_RULES_PP, 13, 13, -1},     {TX_RULES_CLASSIC, 24, 30, 0}, {TX_RULES_CLASSIC, 30, 24, 1},
        {TX_RULES_CLASSIC, 12, 12, 0},
    };
    struct tx_standings s;
    tx_standings_init(&s);
    for (size_t i = 0; i < sizeof games / sizeof games[0]; i++) {
        struct tx_record r;
        memset(&r, 0, sizeof r);
        r.players[0].name = (char *)"A";
        r.players[1].name = (char *)"B";
        r.rules = games[i].rules;
        r.width = games[i].width;
        r.height = games[i].height;
        r.result.winner = games[i].winner;
        r.result.reason = games[i].winner < 0 ? TX_REASON_DRAW : TX_REASON_CONNECTION;
        ck_assert_int_eq(tx_standings_add(&s, &r), TX_STANDINGS_COUNTED);
    }
    static const struct {
        const char *first_line;
        int64_t a_wins;
    } want[] = {
        {"2 bots, 2 games\n", 2},
        {"classic rules, 30 x 24 board: 2 bots, 2 games\n", 0},
        {"pp rules, 13 x 13 board: 2 bots, 1 game\n", 0},
        {"classic rules, 24 x 30 board: 2 bots, 1 game\n", 1},
        {"classic rules, 12 x 12 board: 2 bots, 1 game\n", 1},
    };
    int n = 0;
    for (const struct tx_standings *t = &s; t; t = t->next, n++) {
        ck_assert_int_lt(n, 5);
        ck_assert_int_eq(t->bots[tx_standings_find(t, "A")].wins, want[n].a_wins);
        char *text = print_to_string(t, false);
        ck_assert_msg(!strncmp(text, want[n].first_line, strlen(want[n].first_line)), "%s", text);
        free(text);
        text = print_to_string(t, true);
        cJSON *root = cJSON_Parse(text);
        ck_assert_str_eq(cJSON_GetObjectItem(root, "rules")->valuestring,
                         tx_ruleset(t->variant.rules)->name);
        ck_assert_int_eq(cJSON_GetObjectItem(root, "width")->valueint, t->variant.width);
        ck_assert_int_eq(cJSON_GetObjectItem(root, "height")->valueint, t->variant.height);
        cJSON_Delete(root);
        free(text);
    }
    ck_assert_int_eq(n, 5);
    /* Several of them: every one says which it is, pp on 12 x 12 too. */
    s.show_variant = true;
    char *text = print_to_string(&s, false);
    ck_assert_msg(!strncmp(text, "pp rules, 12 x 12 board: 2 bots, 2 games\n", 40), "%s", text);
    free(text);
    tx_standings_free(&s);
}
END_TEST

/* Past the initial capacity the crosstable is re-laid out and the seen
 * set rehashed: nothing may be lost on the way. */
START_TEST(standings_grow_many_bots_and_games)
{
    struct tx_standings s;
    tx_standings_init(&s);
    char names[40][8];
    int64_t game = 0;
    for (int i = 0; i < 40; i++)
        snprintf(names[i], sizeof(names[i]), "bot%02d", i);
    for (int round = 0; round < 3; round++)
        for (int i = 0; i < 40; i++)
            for (int j = i + 1; j < 40; j++)
                add_game(&s, "big", ++game, names[i], names[j], 0); /* lower index always wins */
    ck_assert_int_eq(s.nbots, 40);
    ck_assert_int_eq(s.counted, 3 * 780);
    ck_assert_int_eq(cell(&s, "bot00", "bot39")->half_points, 6);
    ck_assert_int_eq(cell(&s, "bot39", "bot00")->games, 3);
    ck_assert_int_eq(bot(&s, "bot00")->wins, 117);
    /* The same games again are duplicates; other games under the same
     * indexes are conflicts: neither is counted, nor adds a bot. */
    game = 0;
    for (int round = 0; round < 3; round++)
        for (int i = 0; i < 40; i++)
            for (int j = i + 1; j < 40; j++)
                add_game(&s, "big", ++game, names[i], names[j], 0);
    ck_assert_int_eq(s.duplicates, game);
    for (int64_t g = 1; g <= game; g++)
        ck_assert_int_eq(add_game(&s, "big", g, "x", "y", 0), TX_STANDINGS_CONFLICT);
    ck_assert_int_eq(s.conflicts, game);
    ck_assert_int_eq(s.counted, 3 * 780);
    ck_assert_int_eq(s.nbots, 40); /* duplicates add no bot */
    add_game(&s, "other", 1, "bot00", "bot01", -1);
    ck_assert_int_eq(bot(&s, "bot00")->draws, 1);
    ck_assert_int_eq(tx_standings_leader(&s), 0);
    char *text = print_to_string(&s, false);
    ck_assert_ptr_nonnull(strstr(text, "   1  bot00"));
    ck_assert_ptr_nonnull(strstr(text, "  40  bot39"));
    free(text);
    tx_standings_free(&s);
    tx_standings_free(&s); /* a freed standings may be freed again */
}
END_TEST

START_TEST(standings_command_exit_codes)
{
    char a[4096], corrupt[4096];
    snprintf(a, sizeof(a), "%s", data("standings-a.jsonl"));
    snprintf(corrupt, sizeof(corrupt), "%s", data("standings-corrupt.jsonl"));
    char name[] = "standings", json[] = "--json", frob[] = "--frobnicate";
    char nowhere[] = "/nonexistent/records.jsonl";
    char real[4096];
    snprintf(real, sizeof(real), "%s", data("referee-play.jsonl"));
    char *ok[] = {name, real, json, NULL};
    char *unproved[] = {name, a, json, NULL};
    char *bad[] = {name, a, corrupt, NULL};
    char *none[] = {name, NULL};
    char *option[] = {name, frob, a, NULL};
    char *missing[] = {name, nowhere, NULL};
    ck_assert_int_eq(tx_cmd_standings("twixt-arena", 3, ok), TX_EXIT_OK);
    /* synthetic games fail the checks: standings of the rest, exit 1 */
    ck_assert_int_eq(tx_cmd_standings("twixt-arena", 3, unproved), TX_EXIT_FAILED);
    ck_assert_int_eq(tx_cmd_standings("twixt-arena", 3, bad), TX_EXIT_USAGE);
    ck_assert_int_eq(tx_cmd_standings("twixt-arena", 1, none), TX_EXIT_USAGE);
    ck_assert_int_eq(tx_cmd_standings("twixt-arena", 3, option), TX_EXIT_USAGE);
    ck_assert_int_eq(tx_cmd_standings("twixt-arena", 2, missing), TX_EXIT_USAGE);
}
END_TEST

/* "-" reads standard input, and warnings then name "(stdin)". */
START_TEST(standings_reads_stdin)
{
    ck_assert_ptr_nonnull(freopen(data("standings-b.jsonl"), "rb", stdin));
    struct tx_standings s;
    char err[1024], *warnings = NULL;
    size_t size = 0;
    FILE *warn = open_memstream(&warnings, &size);
    tx_standings_init(&s);
    s.unchecked = true; /* synthetic games */
    ck_assert_int_eq(tx_standings_read(&s, "-", false, warn, NULL, err, sizeof(err)), 0);
    fclose(warn);
    ck_assert_int_eq(s.counted, 4);
    ck_assert_ptr_nonnull(strstr(warnings, "(stdin):6: the last line is a record cut short"));
    free(warnings);
    tx_standings_free(&s);
}
END_TEST

/* What the dashboard draws from: every counted game, where it is in its
 * file, the limits, the time bins; and a copy that stands alone. */
START_TEST(standings_keep_games_for_the_dashboard)
{
    struct tx_standings s, copy;
    char err[1024];
    tx_standings_init(&s);
    ck_assert_int_eq(
        tx_standings_read(&s, data("referee-play.jsonl"), false, NULL, NULL, err, sizeof err), 0);
    ck_assert_int_eq(s.nlog, s.counted);
    ck_assert_int_eq(s.nfiles, 1);
    ck_assert_int_eq(s.first_turn_ms, 1000);
    ck_assert_int_eq(s.turn_ms, 300);
    FILE *f = fopen(data("referee-play.jsonl"), "rb");
    ck_assert_ptr_nonnull(f);
    int64_t wins0 = 0;
    for (int64_t g = 0; g < s.nlog; g++) {
        const struct tx_standings_game *x = &s.log[g];
        char head[32] = "";
        ck_assert_int_eq(x->file, 0);
        ck_assert_int_eq(x->line, g + 1);
        ck_assert(x->start < x->end && x->started > 1700000000);
        fseek(f, (long)x->start, SEEK_SET);
        ck_assert(fread(head, 1, 11, f) == 11);
        ck_assert_str_eq(head, "{\"format\":\"");
        wins0 += x->half_points == 2 && x->bot[0] == 0;
        wins0 += x->half_points == 0 && x->bot[1] == 0;
    }
    fclose(f);
    ck_assert_int_eq(wins0, s.bots[0].wins);
    for (int i = 0; i < s.nbots; i++) {
        double p50 = tx_standings_time_quantile(&s, i, 0.5),
               p99 = tx_standings_time_quantile(&s, i, 0.99);
        ck_assert(p50 > 0 && p50 <= p99);
        /* a bin's middle is within 10% of the times in it */
        ck_assert(p99 <= 1.1 * (double)s.bots[i].max_us / 1000.0);
    }
    tx_standings_copy(&copy, &s);
    tx_standings_free(&s);
    ck_assert_int_eq(copy.nlog, copy.counted);
    ck_assert_str_eq(copy.files[0], data("referee-play.jsonl"));
    ck_assert_str_eq(copy.bots[0].name, "twixt-random"); /* the first seen */
    tx_standings_free(&copy);
}
END_TEST

/* The dashboard's data: the bots in rank order, each pairing's page, the
 * ratings after each block of games; and the pages' names. */
START_TEST(standings_dashboard_data)
{
    static const char *const names[] = {"standings-a.jsonl", "standings-b.jsonl"};
    struct tx_standings s;
    read_all(&s, names, 2, NULL);
    char *page = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&page, &len);
    ck_assert_int_eq(tx_render_dashboard(out, &s, "a</script>", "standings-games"), 0);
    fclose(out);
    const char *from = strstr(page, "id=\"tx-data\">");
    ck_assert_ptr_nonnull(from);
    from += strlen("id=\"tx-data\">");
    const char *to = strstr(from, "</script>");
    ck_assert_ptr_nonnull(to);
    cJSON *data = cJSON_ParseWithLength(from, (size_t)(to - from));
    ck_assert_ptr_nonnull(data);
    ck_assert_str_eq(cJSON_GetObjectItem(data, "title")->valuestring, "a</script>");
    cJSON *bots = cJSON_GetObjectItem(data, "bots");
    ck_assert_int_eq(cJSON_GetArraySize(bots), 3);
    ck_assert_int_eq(cJSON_GetObjectItem(cJSON_GetArrayItem(bots, 0), "rank")->valueint, 1);
    cJSON *pages = cJSON_GetObjectItem(data, "pages"), *cross = cJSON_GetObjectItem(data, "cross");
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            cJSON *c = cJSON_GetArrayItem(cJSON_GetArrayItem(cross, i), j);
            cJSON *p = cJSON_GetArrayItem(cJSON_GetArrayItem(pages, i), j);
            ck_assert_int_eq(cJSON_IsNull(c), cJSON_IsNull(p));
            ck_assert(cJSON_IsNull(p) || !strncmp(p->valuestring, "standings-games/", 16));
        }
    cJSON *history = cJSON_GetObjectItem(data, "history");
    cJSON *points = cJSON_GetObjectItem(history, "points");
    ck_assert_int_eq(cJSON_GetArraySize(points), (int)s.nlog); /* blocks of 1 game */
    cJSON *last = cJSON_GetArrayItem(points, cJSON_GetArraySize(points) - 1);
    ck_assert_int_eq(cJSON_GetObjectItem(last, "games")->valueint, (int)s.counted);
    /* the last block's fit is the table's */
    ck_assert(fabs(cJSON_GetArrayItem(cJSON_GetObjectItem(last, "elo"), 0)->valuedouble -
                   cJSON_GetObjectItem(cJSON_GetArrayItem(bots, 0), "elo")->valuedouble) < 0.02);
    cJSON_Delete(data);
    free(page);
    tx_standings_free(&s);

    static const struct {
        const char *a, *b, *want;
    } table[] = {
        {"v2", "v10", "v10--v2.html"},
        {"v10", "v2", "v10--v2.html"},
        {"a@1a2b3c4d", "b", "a_1a2b3c4d--b-"}, /* changed: a hash follows */
        {"..", "x/y", "_--x_y-"},
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        char name[256];
        tx_dashboard_page_name(table[i].a, table[i].b, name, sizeof name);
        ck_assert_msg(!strncmp(name, table[i].want, strlen(table[i].want)), "%s", name);
        ck_assert(strstr(name, ".html"));
    }
    char a[256], b[256];
    tx_dashboard_page_name("x y", "z", a, sizeof a);
    tx_dashboard_page_name("x_y", "z", b, sizeof b);
    ck_assert_str_ne(a, b); /* alike once sanitized, two pages */
    char dir[64];
    tx_dashboard_pages_dir("out/standings.html", dir, sizeof dir);
    ck_assert_str_eq(dir, "out/standings-games");
}
END_TEST

/* ---- Double TwixT, handicap games and openings (issue 23) ----
 *
 * The records below are real games (standings-games.h): the loader, the
 * verifier and the standings' checks accept them. */

/* want is in text; else text goes to stderr (a Check message is short). */
#define ck_assert_has(text, want)                                                                  \
    do {                                                                                           \
        if (!strstr((text), (want))) {                                                             \
            fprintf(stderr, "%s\n", (text));                                                       \
            ck_abort_msg("missing: %s", (want));                                                   \
        }                                                                                          \
    } while (0)

/* A game of two bots (c, d NULL) or of teams red = a, c and black = b, d. */
static struct tx_test_game game_of(const char *red, const char *black, const char *a, const char *b,
                                   const char *c, const char *d, int winner)
{
    return (struct tx_test_game){
        .game = 1,
        .players = {a, b, c, d},
        .teams = {red, black},
        .winner = winner,
        .reason = TX_REASON_CONNECTION,
    };
}

/* Adds n copies of the game (records without a run are never duplicates). */
static void add_games(struct tx_standings *s, struct tx_test_game spec, int n)
{
    struct tx_record r;
    tx_test_game_record(&spec, &r);
    for (int i = 0; i < n; i++)
        ck_assert_int_eq(tx_standings_add(s, &r), TX_STANDINGS_COUNTED);
    tx_record_free(&r);
}

/* wins of n games for side 0 of the game (its colours as given). */
static void add_score(struct tx_standings *s, struct tx_test_game spec, int wins, int n)
{
    spec.winner = 0;
    add_games(s, spec, wins);
    spec.winner = 1;
    add_games(s, spec, n - wins);
}

static int team(const struct tx_standings *s, const char *label)
{
    for (int i = 0; i < s->nteams; i++)
        if (!strcmp(s->teams[i].label, label))
            return i;
    ck_abort_msg("no team %s", label);
    return -1;
}

/* The bots' and the teams' ratings of s. */
struct rated {
    int order[8], torder[8];
    double elo[8], margin[8], telo[8], tmargin[8];
};

static void rate(const struct tx_standings *s, struct rated *k)
{
    ck_assert_int_le(s->nbots, 8);
    ck_assert_int_le(s->nteams, 8);
    ck_assert_int_eq(tx_standings_rank(s, k->order, k->elo, k->margin), 0);
    ck_assert_int_eq(tx_standings_rank_teams(s, k->torder, k->telo, k->tmargin), 0);
}

static double elo_of(const struct tx_standings *s, const struct rated *k, const char *name)
{
    return k->elo[bot(s, name) - s->bots];
}

/* Team games count for the team and for each of its bots, games of two in
 * the bots' crosstable only; both kinds of one condition are one table. */
START_TEST(standings_team_games_counted)
{
    struct tx_standings s;
    tx_standings_init(&s);
    add_score(&s, game_of("red", "black", "a", "b", "c", "d", 0), 3, 5); /* red 3, black 2 */
    add_score(&s, game_of(NULL, NULL, "a", "c", NULL, NULL, 0), 2, 2);   /* a beats c twice */
    ck_assert_int_eq(s.counted, 7);
    ck_assert_int_eq(s.team_games, 5);
    ck_assert_ptr_null(s.next); /* one condition */
    ck_assert_int_eq(s.nteams, 2);
    const struct tx_standings_team *red = &s.teams[team(&s, "red")],
                                   *black = &s.teams[team(&s, "black")];
    ck_assert_int_eq(red->games, 5);
    ck_assert_int_eq(red->wins, 3);
    ck_assert_int_eq(red->losses, 2);
    ck_assert_str_eq(s.bots[red->bot[0]].name, "a"); /* in the order they play */
    ck_assert_str_eq(s.bots[red->bot[1]].name, "c");
    ck_assert_int_eq(black->wins, 2);
    ck_assert_int_eq(tx_standings_team_cell(&s, team(&s, "red"), team(&s, "black"))->half_points,
                     6);
    static const struct {
        const char *name;
        int64_t games, team_games, wins, losses;
    } want[] = {{"a", 7, 5, 5, 2}, {"c", 7, 5, 3, 4}, {"b", 5, 5, 2, 3}, {"d", 5, 5, 2, 3}};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        const struct tx_standings_bot *b = bot(&s, want[i].name);
        ck_assert_msg(b->games == want[i].games && b->team_games == want[i].team_games &&
                          b->wins == want[i].wins && b->losses == want[i].losses,
                      "%s: %lld games, %lld of teams, %lld wins, %lld losses", want[i].name,
                      (long long)b->games, (long long)b->team_games, (long long)b->wins,
                      (long long)b->losses);
    }
    /* the bots' crosstable holds the games of two only */
    ck_assert_int_eq(cell(&s, "a", "c")->games, 2);
    ck_assert_int_eq(cell(&s, "a", "b")->games, 0);
    /* the log: team games name their four bots and their teams */
    ck_assert_int_eq(s.nlog, 7);
    ck_assert_int_eq(s.log[0].team[0], team(&s, "red"));
    ck_assert_int_eq(s.log[0].bot[2], (int)(bot(&s, "c") - s.bots));
    ck_assert_int_eq(s.log[6].team[0], -1);
    ck_assert_int_eq(s.log[6].bot[2], -1);
    /* the newest bot to show against each opponent has games of two */
    ck_assert_str_eq(s.bots[tx_standings_newest(&s)].name, "c");
    tx_standings_free(&s);
}
END_TEST

/* A team is its name and its two bots in their order: the same name with
 * other bots is another team, and both are labelled as --teams writes them. */
START_TEST(standings_team_is_name_and_bots)
{
    struct tx_standings s;
    tx_standings_init(&s);
    add_games(&s, game_of("red", "black", "a", "b", "c", "d", 0), 1);
    ck_assert_str_eq(s.teams[0].label, "red");
    add_games(&s, game_of("black", "red", "a", "e", "c", "f", 1), 1);
    add_games(&s, game_of("red", "black", "a", "b", "c", "d", 0), 1);
    ck_assert_int_eq(s.nteams, 4);
    ck_assert_str_eq(s.teams[0].label, "red=a,c");
    ck_assert_str_eq(s.teams[1].label, "black=b,d");
    ck_assert_str_eq(s.teams[2].label, "black=a,c");
    ck_assert_str_eq(s.teams[3].label, "red=e,f");
    ck_assert_int_eq(s.teams[0].wins, 2);
    /* the same bots in the other order: another team too */
    add_games(&s, game_of("red", "black", "c", "b", "a", "d", 0), 1);
    ck_assert_int_eq(s.nteams, 5);
    ck_assert_str_eq(s.teams[4].label, "red=c,a");
    ck_assert_int_eq(s.teams[team(&s, "black=b,d")].games, 3);
    tx_standings_free(&s);
}
END_TEST

/* The bots' fit against cases worked out by hand. */
START_TEST(standings_team_fit_by_hand)
{
    struct tx_standings s;
    struct rated k;

    /* A team of two copies of a bot plays like the bot: 60 of 100 for a's
     * team against c's is stats' two-bot case, +-35.036 +- 34.654. */
    tx_standings_init(&s);
    add_score(&s, game_of("aa", "cc", "a", "c", "a", "c", 0), 60, 100);
    rate(&s, &k);
    ck_assert_double_eq_tol(elo_of(&s, &k, "a"), 35.03642450144783, 1e-6);
    ck_assert_double_eq_tol(elo_of(&s, &k, "c"), -35.03642450144783, 1e-6);
    ck_assert_double_eq_tol(k.margin[0], 34.65372156320004, 1e-6);
    ck_assert_double_eq_tol(k.telo[team(&s, "aa")], 35.03642450144783, 1e-6);
    ck_assert_int_eq(bot(&s, "a")->games, 100);
    tx_standings_free(&s);

    /* Symmetric teams: everyone equal, at 0. */
    tx_standings_init(&s);
    add_score(&s, game_of("ab", "cd", "a", "c", "b", "d", 0), 5, 10);
    rate(&s, &k);
    for (int i = 0; i < 4; i++) {
        ck_assert_double_eq_tol(k.elo[i], 0, 1e-9);
        ck_assert_double_eq_tol(k.margin[i], k.margin[0], 1e-9);
    }
    tx_standings_free(&s);

    /* Partners who always play together are equal, and their intervals
     * say that nothing tells them apart (the prior's width); games of two
     * between them do. */
    tx_standings_init(&s);
    add_score(&s, game_of("ab", "cd", "a", "c", "b", "d", 0), 15, 20);
    rate(&s, &k);
    ck_assert_double_eq_tol(elo_of(&s, &k, "a"), elo_of(&s, &k, "b"), 1e-9);
    ck_assert_double_eq_tol(elo_of(&s, &k, "c"), elo_of(&s, &k, "d"), 1e-9);
    ck_assert(elo_of(&s, &k, "a") > 50);
    double alone = k.margin[bot(&s, "a") - s.bots];
    ck_assert_msg(alone > 400, "%f", alone);
    add_score(&s, game_of(NULL, NULL, "a", "b", NULL, NULL, 0), 8, 10);
    rate(&s, &k);
    ck_assert(elo_of(&s, &k, "a") > elo_of(&s, &k, "b") + 100);
    ck_assert(k.margin[bot(&s, "a") - s.bots] < alone / 2);
    tx_standings_free(&s);

    /* a wins 3 of 4 with every partner: first; the others alike. */
    tx_standings_init(&s);
    add_score(&s, game_of("ab", "cd", "a", "c", "b", "d", 0), 30, 40);
    add_score(&s, game_of("ac", "bd", "a", "b", "c", "d", 0), 30, 40);
    add_score(&s, game_of("ad", "bc", "a", "b", "d", "c", 0), 30, 40);
    rate(&s, &k);
    ck_assert_str_eq(s.bots[k.order[0]].name, "a");
    ck_assert_double_eq_tol(elo_of(&s, &k, "b"), elo_of(&s, &k, "c"), 1e-6);
    ck_assert_double_eq_tol(elo_of(&s, &k, "c"), elo_of(&s, &k, "d"), 1e-6);
    ck_assert_double_eq_tol(elo_of(&s, &k, "a"), -3 * elo_of(&s, &k, "b"), 1e-6); /* mean 0 */
    /* against b+c, b+d, c+d in turn, a and its partner score 75%: a rates
     * two of its partners' intervals above them */
    ck_assert(elo_of(&s, &k, "a") - elo_of(&s, &k, "b") > 150);
    tx_standings_free(&s);
}
END_TEST

/* Four times the games, the same scores: intervals about half as wide,
 * the bots' (every partnership played once) and the teams' (three teams
 * in a round robin). */
START_TEST(standings_team_error_bars_shrink)
{
    double margin[2][4], tmargin[2][3];
    for (int times = 0; times < 2; times++) {
        struct tx_standings s, t;
        struct rated k;
        int n = times ? 4 : 1;
        tx_standings_init(&s);
        add_score(&s, game_of("ab", "cd", "a", "c", "b", "d", 0), 6 * n, 10 * n);
        add_score(&s, game_of("ac", "bd", "a", "b", "c", "d", 0), 7 * n, 10 * n);
        add_score(&s, game_of("ad", "bc", "a", "b", "d", "c", 0), 4 * n, 10 * n);
        rate(&s, &k);
        for (int i = 0; i < 4; i++)
            margin[times][i] = k.margin[i];
        tx_standings_free(&s);
        tx_standings_init(&t);
        add_score(&t, game_of("ab", "cd", "a", "c", "b", "d", 0), 6 * n, 10 * n);
        add_score(&t, game_of("ab", "ef", "a", "e", "b", "f", 0), 7 * n, 10 * n);
        add_score(&t, game_of("cd", "ef", "c", "e", "d", "f", 0), 4 * n, 10 * n);
        rate(&t, &k);
        for (int i = 0; i < 3; i++)
            tmargin[times][i] = k.tmargin[i];
        tx_standings_free(&t);
    }
    for (int i = 0; i < 4; i++)
        ck_assert_msg(margin[1][i] < 0.65 * margin[0][i] && margin[1][i] > 0.4 * margin[0][i],
                      "bot %d: %f then %f", i, margin[0][i], margin[1][i]);
    for (int i = 0; i < 3; i++)
        ck_assert_msg(tmargin[1][i] < 0.65 * tmargin[0][i] && tmargin[1][i] > 0.4 * tmargin[0][i],
                      "team %d: %f then %f", i, tmargin[0][i], tmargin[1][i]);
}
END_TEST

/* Writes the games to a temporary file; returns its path (free it, and unlink). */
static char *write_games(const struct tx_test_game *games, size_t n)
{
    char *path = strdup("/tmp/test-standings-XXXXXX");
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    FILE *f = fdopen(fd, "w");
    for (size_t i = 0; i < n; i++)
        tx_test_game_write(&games[i], f);
    fclose(f);
    return path;
}

/* Reads path with every check on; warnings into *ret_warnings. */
static void read_checked(struct tx_standings *s, const char *path, char **ret_warnings)
{
    char err[1024], *warnings = NULL;
    size_t size = 0;
    FILE *warn = open_memstream(&warnings, &size);
    tx_standings_init(s);
    ck_assert_int_eq(tx_standings_read(s, path, false, warn, NULL, err, sizeof err), 0);
    fclose(warn);
    ck_assert_msg(s->rejected == 0, "%s", warnings);
    *ret_warnings = warnings;
}

/* A fault loses for the team and is counted against the bot that made it
 * (the one whose entry ends the record), not its partner. */
START_TEST(standings_team_faults_attributed)
{
    static const struct {
        int fault_seat, winner;
        enum tx_reason reason;
        const char *faulty; /* its bot */
    } table[] = {
        {2, 1, TX_REASON_TIMEOUT, "c"}, /* red's second bot */
        {1, 0, TX_REASON_CRASH, "b"},   /* black's first */
        {3, 0, TX_REASON_TIMEOUT, "d"}, /* black's second */
        {0, 1, TX_REASON_CRASH, "a"},   /* red's first */
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        struct tx_test_game g = game_of("red", "black", "a", "b", "c", "d", table[i].winner);
        g.reason = table[i].reason;
        g.fault_seat = table[i].fault_seat;
        char *path = write_games(&g, 1), *warnings;
        struct tx_standings s;
        read_checked(&s, path, &warnings);
        ck_assert_int_eq(s.counted, 1);
        for (int b = 0; b < s.nbots; b++) {
            int64_t faults = s.bots[b].timeouts + s.bots[b].crashes + s.bots[b].invalids;
            bool faulty = !strcmp(s.bots[b].name, table[i].faulty);
            ck_assert_msg(faults == faulty, "case %zu: %s has %lld faults", i, s.bots[b].name,
                          (long long)faults);
            ck_assert_int_eq(s.bots[b].timeouts, faulty && table[i].reason == TX_REASON_TIMEOUT);
        }
        const struct tx_standings_team *loser =
            &s.teams[team(&s, table[i].winner ? "red" : "black")];
        ck_assert_int_eq(loser->losses, 1);
        ck_assert_int_eq(loser->timeouts + loser->crashes, 1);
        ck_assert_int_eq(s.teams[team(&s, table[i].winner ? "black" : "red")].timeouts, 0);
        /* the faulty bot's partner lost too, by no fault of its own */
        free(warnings);
        tx_standings_free(&s);
        unlink(path);
        free(path);
    }
}
END_TEST

/* Handicap games are apart from even ones (their own standings, with rows
 * instead of ratings), whichever way each game's board was oriented; a
 * handicap that names none of the game's bots is an even game. Openings
 * are conditions too. One file holds them all. */
START_TEST(standings_handicap_and_openings_apart)
{
    struct tx_test_game games[] = {
        game_of(NULL, NULL, "strong", "weak", NULL, NULL, 0),
        game_of(NULL, NULL, "weak", "strong", NULL, NULL, 1),
        game_of("red", "black", "strong", "weak", "a", "b", 1),
        game_of(NULL, NULL, "strong", "weak", NULL, NULL, 1),   /* handicap, 12 x 14 */
        game_of(NULL, NULL, "weak", "strong", NULL, NULL, 0),   /* handicap, 14 x 12 */
        game_of(NULL, NULL, "weak", "strong", NULL, NULL, 1),   /* handicap, 14 x 12 */
        game_of("red", "black", "a", "b", "strong", "weak", 1), /* handicap: red */
        game_of(NULL, NULL, "strong", "weak", NULL, NULL, 0),   /* the pie */
        game_of(NULL, NULL, "weak", "a", NULL, NULL, 0), /* "strong" not in it: even, 14 x 12 */
    };
    for (int i = 3; i < 7; i++) {
        games[i].handicap = i == 6 ? "red" : "strong";
        games[i].width = 14;
        games[i].height = 12;
    }
    games[7].opening = TX_OPENING_PIE;
    games[8].handicap = "strong";
    games[8].width = 14;
    games[8].height = 12;
    for (size_t i = 0; i < sizeof games / sizeof games[0]; i++)
        games[i].game = (int64_t)i + 1;
    char *path = write_games(games, sizeof games / sizeof games[0]), *warnings;
    struct tx_standings s;
    read_checked(&s, path, &warnings);
    ck_assert_int_eq(s.counted, 3);
    ck_assert(!s.handicapped);
    ck_assert_int_eq(bot(&s, "strong")->games, 3);
    ck_assert_int_eq(bot(&s, "strong")->wins, 2);
    ck_assert_int_eq(bot(&s, "strong")->team_games, 1);

    const struct tx_standings *h = s.next;
    ck_assert(h && h->handicapped);
    ck_assert_int_eq(h->variant.width, 14); /* the longer side first */
    ck_assert_int_eq(h->variant.height, 12);
    ck_assert_int_eq(h->counted, 4);
    ck_assert_int_eq(h->nhandicap, 2);
    ck_assert_str_eq(tx_standings_handicap_name(h, 0, false), "strong");
    ck_assert_str_eq(tx_standings_handicap_name(h, 0, true), "weak");
    ck_assert_int_eq(h->handicap[0].games, 3);
    ck_assert_int_eq(h->handicap[0].wins, 1); /* game 5: weak (player 1) won */
    ck_assert(h->handicap[1].teams);
    ck_assert_str_eq(tx_standings_handicap_name(h, 1, false), "red");
    ck_assert_int_eq(h->handicap[1].wins, 0);

    const struct tx_standings *pie = h->next;
    ck_assert(pie && !pie->handicapped && pie->variant.opening == TX_OPENING_PIE);
    ck_assert_int_eq(pie->counted, 1);
    const struct tx_standings *other = pie->next;
    ck_assert(other && !other->handicapped && other->variant.width == 14);
    ck_assert_int_eq(other->counted, 1);
    ck_assert_ptr_null(other->next);

    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    ck_assert_int_eq(tx_standings_print_all(&s, NULL, 0, true, false, out), 0);
    fclose(out);
    ck_assert_has(text, "pp rules, 12 x 12 board: 4 bots, 2 teams, 3 games (1 of teams)\n");
    ck_assert_has(text, "\npp rules, 14 x 12 board, handicap games: 4 bots, 2 teams, 4 games (1 "
                        "of teams)\n\nhandicapped  opponent  games   score");
    ck_assert_has(text, "\nstrong       weak          3   33.3%      1      0      2       0  ");
    ck_assert_has(text, "\npp rules, 12 x 12 board, pie opening: 2 bots, 1 game\n");
    ck_assert_has(text, "\npp rules, 14 x 12 board: 2 bots, 1 game\n");
    free(text);

    text = NULL;
    out = open_memstream(&text, &size);
    ck_assert_int_eq(tx_standings_print_all(&s, NULL, 0, true, true, out), 0);
    fclose(out);
    int lines = 0;
    for (char *line = text, *nl; (nl = strchr(line, '\n')); line = nl + 1, lines++) {
        cJSON *o = cJSON_ParseWithLength(line, (size_t)(nl - line));
        ck_assert_ptr_nonnull(o);
        bool handicap = cJSON_IsTrue(cJSON_GetObjectItem(o, "handicap"));
        ck_assert_int_eq(handicap, lines == 1);
        ck_assert_str_eq(cJSON_GetObjectItem(o, "opening")->valuestring,
                         lines == 2 ? "pie" : "swap");
        if (handicap) {
            cJSON *row = cJSON_GetArrayItem(cJSON_GetObjectItem(o, "handicap_games"), 1);
            ck_assert_str_eq(cJSON_GetObjectItem(row, "handicapped")->valuestring, "red");
            ck_assert_str_eq(cJSON_GetObjectItem(row, "opponent")->valuestring, "black");
            ck_assert(cJSON_IsTrue(cJSON_GetObjectItem(row, "teams")));
            ck_assert_int_eq(cJSON_GetObjectItem(row, "losses")->valueint, 1);
            ck_assert_ptr_null(cJSON_GetObjectItem(o, "bots"));
        } else {
            ck_assert_ptr_nonnull(cJSON_GetObjectItem(o, "bots"));
        }
        cJSON_Delete(o);
    }
    ck_assert_int_eq(lines, 4);
    free(text);
    free(warnings);
    tx_standings_free(&s);
    unlink(path);
    free(path);
}
END_TEST

/* Each game counted is logged where it was counted, with its own line:
 * the dashboard's pages read it back from there. (A game of another
 * condition used to overwrite the place of the first condition's last game.) */
START_TEST(standings_log_of_each_condition)
{
    struct tx_test_game games[4] = {
        game_of(NULL, NULL, "a", "b", NULL, NULL, 0),
        game_of(NULL, NULL, "a", "b", NULL, NULL, 1),
        game_of(NULL, NULL, "b", "a", NULL, NULL, 0),
        game_of("x", "y", "a", "b", "c", "d", 0),
    };
    for (int i = 0; i < 4; i++)
        games[i].game = i + 1;
    games[1].width = games[1].height = 14;
    char *path = write_games(games, 4), *warnings;
    struct tx_standings s;
    read_checked(&s, path, &warnings);
    ck_assert_int_eq(s.nlog, 3);
    ck_assert_int_eq(s.log[0].line, 1);
    ck_assert_int_eq(s.log[1].line, 3);
    ck_assert_int_eq(s.log[2].line, 4);
    ck_assert(s.log[0].end <= s.log[1].start);
    ck_assert_ptr_nonnull(s.next);
    ck_assert_int_eq(s.next->nlog, 1);
    ck_assert_int_eq(s.next->log[0].line, 2);
    ck_assert_int_eq(s.next->log[0].file, 0);
    free(warnings);
    tx_standings_free(&s);
    unlink(path);
    free(path);
}
END_TEST

/* --bots with teams: a team is in when its name is, or both its bots are. */
START_TEST(standings_team_subsets)
{
    static const struct {
        const char *only[4];
        int n;
        bool in;
    } table[] = {
        {{"a", "b", "c", "d"}, 4, true}, {{"red", "black"}, 2, true}, {{"red", "b", "d"}, 3, true},
        {{"a", "b"}, 2, false},          {{"red", "b"}, 2, false},
    };
    struct tx_record r;
    struct tx_test_game g = game_of("red", "black", "a", "b", "c", "d", 0);
    tx_test_game_record(&g, &r);
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        struct tx_standings s;
        tx_standings_init(&s);
        s.only = (const char **)table[i].only;
        s.nonly = table[i].n;
        ck_assert_int_eq(tx_standings_add(&s, &r),
                         table[i].in ? TX_STANDINGS_COUNTED : TX_STANDINGS_FILTERED);
        s.only = NULL;
        tx_standings_free(&s);
    }
    tx_record_free(&r);
}
END_TEST

/* The text and JSON of a standings with teams: the teams' table and
 * crosstable, the bots' team games; no bots' crosstable without games of two. */
START_TEST(standings_print_teams)
{
    struct tx_standings s;
    tx_standings_init(&s);
    add_score(&s, game_of("red", "black", "a", "b", "c", "d", 0), 3, 4);
    char *text = print_to_string(&s, false);
    ck_assert_has(text, "4 bots, 2 teams, 4 games\n\nrank  team   bots  games   score");
    ck_assert_has(text, "\n   1  red    a, c      4   75.0%      3      0      1  ");
    ck_assert_has(text, "Team crosstable: points/games of the row team against the column "
                        "team\nrank  team     1    2\n   1  red      -  3/4\n");
    ck_assert_has(text, "rank  bot  games   team   score");
    ck_assert_has(text, "\n   1  a        4      4   75.0%");
    ck_assert_ptr_null(strstr(text, "\nCrosstable"));
    free(text);
    add_games(&s, game_of(NULL, NULL, "a", "b", NULL, NULL, 0), 1);
    text = print_to_string(&s, false);
    ck_assert_has(text, "4 bots, 2 teams, 5 games (4 of teams)\n");
    ck_assert_has(text, "\nCrosstable: points/games of the row bot against the column bot, "
                        "games of two bots\n");
    free(text);

    text = print_to_string(&s, true);
    cJSON *root = cJSON_Parse(text);
    ck_assert_ptr_nonnull(root);
    ck_assert_int_eq(cJSON_GetObjectItem(root, "team_games")->valueint, 4);
    cJSON *red = cJSON_GetArrayItem(cJSON_GetObjectItem(root, "teams"), 0);
    ck_assert_str_eq(cJSON_GetObjectItem(red, "name")->valuestring, "red");
    ck_assert_str_eq(cJSON_GetArrayItem(cJSON_GetObjectItem(red, "bots"), 1)->valuestring, "c");
    ck_assert_int_eq(cJSON_GetObjectItem(red, "wins")->valueint, 3);
    cJSON *cross = cJSON_GetObjectItem(cJSON_GetObjectItem(root, "team_crosstable"), "red");
    ck_assert_int_eq(cJSON_GetObjectItem(cJSON_GetObjectItem(cross, "black"), "games")->valueint,
                     4);
    cJSON *a = cJSON_GetArrayItem(cJSON_GetObjectItem(root, "bots"), 0);
    ck_assert_str_eq(cJSON_GetObjectItem(a, "name")->valuestring, "a");
    ck_assert_int_eq(cJSON_GetObjectItem(a, "games")->valueint, 5);
    ck_assert_int_eq(cJSON_GetObjectItem(a, "team_games")->valueint, 4);
    cJSON_Delete(root);
    free(text);
    tx_standings_free(&s);
}
END_TEST

/* The dashboard's data with teams and handicap games, and the teams' pages. */
START_TEST(standings_dashboard_teams_and_handicap)
{
    struct tx_test_game games[6];
    for (int i = 0; i < 6; i++) {
        games[i] = game_of("red", "black", "a", "b", "c", "d", i % 3 == 0);
        games[i].game = i + 1;
    }
    games[5] = game_of(NULL, NULL, "a", "b", NULL, NULL, 0);
    games[5].game = 6;
    games[5].handicap = "a";
    games[5].width = 14;
    char *path = write_games(games, 6), *warnings;
    struct tx_standings s;
    read_checked(&s, path, &warnings);
    ck_assert(tx_dashboard_shown(&s) == &s);
    char *page = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&page, &len);
    ck_assert_int_eq(tx_render_dashboard(out, &s, "teams", "standings-games"), 0);
    fclose(out);
    const char *from = strstr(page, "id=\"tx-data\">") + strlen("id=\"tx-data\">");
    cJSON *data = cJSON_ParseWithLength(from, (size_t)(strstr(from, "</script>") - from));
    ck_assert_ptr_nonnull(data);
    ck_assert_int_eq(cJSON_GetObjectItem(data, "team_games")->valueint, 5);
    cJSON *teams = cJSON_GetObjectItem(data, "teams");
    ck_assert_int_eq(cJSON_GetArraySize(teams), 2);
    ck_assert_str_eq(cJSON_GetObjectItem(cJSON_GetArrayItem(teams, 0), "name")->valuestring, "red");
    cJSON *link =
        cJSON_GetArrayItem(cJSON_GetArrayItem(cJSON_GetObjectItem(data, "team_pages"), 0), 1);
    ck_assert_str_eq(link->valuestring, "standings-games/teams/black--red.html"); /* names sorted */
    cJSON *cross =
        cJSON_GetArrayItem(cJSON_GetArrayItem(cJSON_GetObjectItem(data, "team_cross"), 0), 1);
    ck_assert_int_eq(cJSON_GetObjectItem(cross, "points")->valueint, 3);
    cJSON *row = cJSON_GetArrayItem(cJSON_GetObjectItem(data, "handicap"), 0);
    ck_assert_str_eq(cJSON_GetObjectItem(row, "condition")->valuestring, "pp rules, 14 x 12 board");
    ck_assert_str_eq(cJSON_GetObjectItem(row, "handicapped")->valuestring, "a");
    ck_assert_int_eq(cJSON_GetObjectItem(row, "wins")->valueint, 1);
    /* the ratings over time: the joint fit, team games included */
    cJSON *points = cJSON_GetObjectItem(cJSON_GetObjectItem(data, "history"), "points");
    ck_assert_int_eq(cJSON_GetArraySize(points), 5);
    cJSON *last = cJSON_GetArrayItem(points, 4);
    ck_assert(
        fabs(cJSON_GetArrayItem(cJSON_GetObjectItem(last, "elo"), 0)->valuedouble -
             cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(data, "bots"), 0), "elo")
                 ->valuedouble) < 0.02);
    cJSON_Delete(data);
    free(page);

    char dir[64] = "/tmp/test-standings-pages-XXXXXX", err[512], file[200];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    ck_assert_int_eq(tx_dashboard_write_pages(&s, dir, err, sizeof err), 0);
    snprintf(file, sizeof file, "%s/teams/black--red.html", dir);
    FILE *f = fopen(file, "r");
    ck_assert_msg(f != NULL, "%s", file);
    fclose(f);
    ck_assert_int_eq(unlink(file), 0);
    snprintf(file, sizeof file, "%s/teams", dir);
    ck_assert_int_eq(rmdir(file), 0);
    ck_assert_int_eq(rmdir(dir), 0); /* nothing else: the handicap game is not on the page */
    free(warnings);
    tx_standings_free(&s);
    unlink(path);
    free(path);
}
END_TEST

static Suite *standings_suite(void)
{
    Suite *s = suite_create("standings");
    TCase *tc = tcase_create("standings");
    tcase_add_test(tc, standings_merge_two_files);
    tcase_add_test(tc, standings_same_file_twice_counts_once);
    tcase_add_test(tc, standings_corrupt_line_names_file_and_line);
    tcase_add_test(tc, standings_leader_and_score);
    tcase_add_test(tc, standings_print_table_and_crosstable);
    tcase_add_test(tc, standings_print_json_object);
    tcase_add_test(tc, standings_reads_referee_records);
    tcase_add_test(tc, standings_checks_every_record);
    tcase_add_test(tc, standings_shared_name_shown_apart);
    tcase_add_test(tc, standings_subsets_and_versus);
    tcase_add_test(tc, standings_grow_many_bots_and_games);
    tcase_add_test(tc, standings_rule_sets_and_boards_apart);
    tcase_add_test(tc, standings_command_exit_codes);
    tcase_add_test(tc, standings_reads_stdin);
    tcase_add_test(tc, standings_keep_games_for_the_dashboard);
    tcase_add_test(tc, standings_dashboard_data);
    tcase_add_test(tc, standings_team_games_counted);
    tcase_add_test(tc, standings_team_is_name_and_bots);
    tcase_add_test(tc, standings_team_fit_by_hand);
    tcase_add_test(tc, standings_team_error_bars_shrink);
    tcase_add_test(tc, standings_team_faults_attributed);
    tcase_add_test(tc, standings_handicap_and_openings_apart);
    tcase_add_test(tc, standings_log_of_each_condition);
    tcase_add_test(tc, standings_team_subsets);
    tcase_add_test(tc, standings_print_teams);
    tcase_add_test(tc, standings_dashboard_teams_and_handicap);
    tcase_set_timeout(tc, 30);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(standings_suite());
    srunner_run_all(sr, CK_ENV);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
