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

#include <cjson/cJSON.h>

#include "commands.h"
#include "render-dashboard.h"
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
