/* test-opening-games.c - seed 004's ways to play, end to end: the pie and
 * the cut, the opening none, handicap matches and Double TwixT.
 *
 * Through the real program, as a user runs it (RULES.md "Openings",
 * "Handicap matches", "Double TwixT"): play with -o, then replay's
 * verification of every record and replay --bot re-feeding players,
 * which must answer the same. The bots are fault-bot (its modes swapper,
 * good and play; privilege, bad-cut and bad-choose misbehave in the new
 * openings) and tests/cg-bot.py, a bot written the CodinGame way, as
 * player 1 and player 2 under the pie. Limits are generous, since the
 * verdicts, not the times, are under test. The engine's rule tables are
 * tests/test-openings.c; this suite checks what the referee makes of them:
 * who is asked, what is recorded, which side each bot ends up with.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "arena-test.h"
#include "record.h"

#define GAMES_MAX 16

static char arena[1024], fault_bot[1024], cg_bot[1024];

static void setup(void)
{
    tx_test_build_path(arena, sizeof arena, "referee/twixt-arena");
    tx_test_build_path(fault_bot, sizeof fault_bot, "tests/fault-bot");
    snprintf(cg_bot, sizeof cg_bot, "python3 %s/tests/cg-bot.py", getenv("TX_SOURCE_DIR"));
    tx_test_scratch_begin("tx-opening-games");
}

static void teardown(void)
{
    tx_test_scratch_end();
}

/* The records of file, in game order (records[g - 1] is game g); returns
 * how many. Free each with tx_record_free. */
static int read_records(const char *file, struct tx_record *records)
{
    int n;
    struct tx_record *read = tx_test_read_records(file, &n);
    for (int i = 0; i < n; i++) {
        ck_assert_int_ge(read[i].game, 1);
        ck_assert_int_le(read[i].game, GAMES_MAX);
        records[read[i].game - 1] = read[i];
    }
    free(read); /* the array only: its records are records[]'s now */
    return n;
}

static void free_records(struct tx_record *records, int n)
{
    for (int i = 0; i < n; i++)
        tx_record_free(&records[i]);
}

/* replay verifies every record of file. */
static void assert_replay_ok(const char *file, int n)
{
    ck_assert_int_eq(tx_test_arena("replay", file, NULL), 0);
    char want[64];
    snprintf(want, sizeof want, ": %d record%s, %d ok, 0 failed", n, n == 1 ? "" : "s", n);
    tx_test_assert_in("out.txt", want);
}

/* replay --bot: seat (1-based) of game re-fed to spec's command answers
 * every turn as recorded. */
static void assert_refeed_same(const char *file, int game, int seat, const char *spec)
{
    char g[16], b[2100];
    snprintf(g, sizeof g, "%d", game);
    snprintf(b, sizeof b, "%d=%s", seat, strchr(tx_test_bot(spec), '=') + 1);
    ck_assert_int_eq(tx_test_arena("replay", file, "--game", g, "--bot", b, NULL), 0);
    tx_test_assert_in("out.txt", " 0 different, 0 illegal, 0 timeout, 0 crash");
}

static int seat_named(const struct tx_record *r, const char *name)
{
    for (int i = 0; i < r->nplayers; i++)
        if (!strcmp(r->players[i].name, name))
            return i;
    ck_abort_msg("game %lld has no player %s", (long long)r->game, name);
    return -1;
}

/* See test-family.c: no memory limit, so that sanitized builds start. */
#define LIMITS "--first-turn-ms", "10000", "--turn-ms", "5000", "--bot-memory-mb", "0"

/* ---- the pie ---- */

/* A pie match of cg-bot.py against a bot that always takes the pie, and
 * one against a bot whose first peg is central, which cg-bot.py takes:
 * it plays black after its first peg is taken (player 1) and red after it
 * takes one (player 2), and never loses by an invalid move. */
static const struct pie_case {
    const char *bots[2];
    const char *openings; /* --openings K */
    int swapped[4];       /* games (1-4) where player 2 answered SWAP */
} pie_cases[] = {
    {{"cg=CG {width} {height} {opening} {teams}", "swapper=FAULT swapper"}, "0", {1, 0, 1, 0}},
    {{"cg=CG", "swapper=FAULT swapper"}, "1", {1, 0, 1, 0}}, /* cg's first line: SWAP */
    {{"good=FAULT good", "cg=CG"}, "0", {0, 0, 0, 0}},       /* good's first peg is not central */
    {{"cg=CG", "cg2=CG"}, "0", {1, 1, 1, 1}},                /* cg-bot.py takes a central peg */
};

START_TEST(opening_games_pie)
{
    const struct pie_case *c = &pie_cases[_i];
    const char *file = tx_test_file("pie.jsonl");
    static struct tx_record records[GAMES_MAX];
    ck_assert_int_eq(tx_test_arena("play", tx_test_bot(c->bots[0]), tx_test_bot(c->bots[1]),
                                   "--opening", "pie", "--games", "4", "--openings", c->openings,
                                   "-o", file, LIMITS, NULL),
                     0);
    ck_assert_int_eq(read_records(file, records), 4);
    int forced = atoi(c->openings);
    for (int g = 0; g < 4; g++) {
        const struct tx_record *r = &records[g];
        ck_assert_int_eq(r->opening, TX_OPENING_PIE);
        ck_assert_int_ne(r->result.reason, TX_REASON_INVALID);
        ck_assert_int_ne(r->result.reason, TX_REASON_CRASH);
        ck_assert_int_eq(r->result.reason, TX_REASON_CONNECTION);
        ck_assert_int_gt(r->nmoves, 2);
        bool swap = !strcmp(r->moves[1].move, "SWAP");
        ck_assert_msg(swap == (c->swapped[g] != 0), "game %d: move 2 is %s", g + 1,
                      r->moves[1].move);
        for (int i = 2; i < r->nmoves; i++)
            ck_assert_str_ne(r->moves[i].move, "SWAP");
        ck_assert_int_eq(r->moves[0].forced, forced > 0);
        /* {opening} and {teams} in a command are the game's */
        for (int p = 0; p < 2; p++)
            if (strstr(c->bots[p], "{opening}")) {
                const char *cmd = r->players[seat_named(r, "cg")].command;
                ck_assert_msg(strstr(cmd, "cg-bot.py 12 12 pie 0"), "%s", cmd);
            }
    }
    assert_replay_ok(file, 4);
    /* Each bot re-fed game 1 (where the sides were exchanged, in all but
     * the third case) from its seat answers the same. */
    const struct tx_record *r = &records[0];
    for (int seat = 0; seat < 2; seat++) {
        const char *name = r->players[seat].name;
        const char *spec =
            !strncmp(c->bots[0], name, strlen(name)) && c->bots[0][strlen(name)] == '='
                ? c->bots[0]
                : c->bots[1];
        assert_refeed_same(file, 1, seat + 1, spec);
    }
    free_records(records, 4);
}
END_TEST

/* ---- the cut ---- */

START_TEST(opening_games_cut)
{
    const char *file = tx_test_file("cut.jsonl");
    static struct tx_record records[GAMES_MAX];
    /* p answers CHOOSE 2 after a cut, q CHOOSE 1. */
    ck_assert_int_eq(tx_test_arena("play", tx_test_bot("p=FAULT play"),
                                   tx_test_bot("q=FAULT play --choose=1"), "--opening", "cut",
                                   "--games", "2", "-o", file, LIMITS, NULL),
                     0);
    ck_assert_int_eq(read_records(file, records), 2);
    for (int g = 0; g < 2; g++) {
        const struct tx_record *r = &records[g];
        ck_assert_int_eq(r->opening, TX_OPENING_CUT);
        ck_assert_int_eq(r->result.reason, TX_REASON_CONNECTION);
        ck_assert_int_eq(r->moves[0].player, 0);
        ck_assert_msg(!strncmp(r->moves[0].move, "CUT ", 4), "%s", r->moves[0].move);
        ck_assert_int_eq(r->moves[1].player, 1);
        /* game 1: q chooses as player 2 (CHOOSE 1: red), game 2: p (CHOOSE 2). */
        ck_assert_str_eq(r->moves[1].move, g == 0 ? "CHOOSE 1" : "CHOOSE 2");
        /* Then black moves: player 1 after CHOOSE 1, player 2 after CHOOSE 2. */
        ck_assert_int_eq(r->moves[2].player, g == 0 ? 0 : 1);
        ck_assert_int_eq(r->moves[3].player, g == 0 ? 1 : 0);
    }
    /* fault-bot's cut links its two red pegs when they are a knight's move apart. */
    ck_assert_int_eq(records[0].moves[0].nedits, 1);
    assert_replay_ok(file, 2);
    assert_refeed_same(file, 1, 1, "p=FAULT play");
    assert_refeed_same(file, 1, 2, "q=FAULT play --choose=1");
    assert_refeed_same(file, 2, 1, "q=FAULT play --choose=1");
    free_records(records, 2);

    /* A bad cut, a bad choice: a loss by an invalid move, with its detail, recorded and verified.
     */
    static const struct {
        const char *bots[2], *loser, *detail;
    } faults[] = {
        {{"bad=FAULT bad-cut", "q=FAULT play"}, "bad", "CUT: "},
        {{"p=FAULT play", "bad=FAULT bad-choose"}, "bad", "CHOOSE 1 or CHOOSE 2 expected"},
    };
    for (size_t i = 0; i < sizeof faults / sizeof faults[0]; i++) {
        const char *bad = tx_test_file("bad.jsonl");
        remove(bad);
        ck_assert_int_eq(tx_test_arena("play", tx_test_bot(faults[i].bots[0]),
                                       tx_test_bot(faults[i].bots[1]), "--opening", "cut",
                                       "--games", "1", "-o", bad, LIMITS, NULL),
                         0);
        ck_assert_int_eq(read_records(bad, records), 1);
        ck_assert_int_eq(records[0].result.reason, TX_REASON_INVALID);
        ck_assert_int_eq(records[0].result.winner, 1 - seat_named(&records[0], faults[i].loser));
        ck_assert_msg(strstr(records[0].result.detail, faults[i].detail), "%s",
                      records[0].result.detail);
        assert_replay_ok(bad, 1);
        free_records(records, 1);
    }
}
END_TEST

/* ---- none ---- */

START_TEST(opening_games_none)
{
    const char *file = tx_test_file("none.jsonl");
    static struct tx_record records[GAMES_MAX];
    /* cg-bot.py would take good's central first peg under swap or pie. */
    ck_assert_int_eq(tx_test_arena("play", tx_test_bot("good=FAULT good"), tx_test_bot("cg=CG"),
                                   "--opening", "none", "--games", "2", "--openings", "2", "-o",
                                   file, LIMITS, NULL),
                     0);
    ck_assert_int_eq(read_records(file, records), 2);
    for (int g = 0; g < 2; g++) {
        ck_assert_int_eq(records[g].opening, TX_OPENING_NONE);
        ck_assert_int_eq(records[g].result.reason, TX_REASON_CONNECTION);
        for (int i = 0; i < records[g].nmoves; i++)
            ck_assert_str_ne(records[g].moves[i].move, "SWAP");
    }
    assert_replay_ok(file, 2);
    free_records(records, 2);
    /* A swap is a loss under none. */
    ck_assert_int_eq(tx_test_arena("play", tx_test_bot("good=FAULT good"),
                                   tx_test_bot("swap=FAULT swap"), "--opening", "none", "--games",
                                   "1", LIMITS, NULL),
                     0);
    tx_test_assert_in("out.txt", "SWAP not allowed: no swap in this game (opening none)");
}
END_TEST

/* ---- handicap matches ---- */

/* On 24 x 20 the handicapped bot has 24 to cross in every game: as player
 * 1 (red, joining the rows) the board is 20 x 24, as player 2 (black,
 * joining the columns) 24 x 20. */
static void assert_handicap_side(const struct tx_record *r, const char *strong)
{
    int seat = -1;
    for (int i = 0; i < r->nplayers; i++)
        if (!strcmp(r->players[i].name, strong) ||
            (r->nplayers == 4 && !strcmp(r->teams[i % 2], strong)))
            seat = i;
    if (seat < 0) { /* a game without it: even, on the board as given */
        ck_assert_ptr_null(r->handicap);
        ck_assert_int_eq(r->width, 24);
        ck_assert_int_eq(r->height, 20);
        return;
    }
    ck_assert_str_eq(r->handicap ? r->handicap : "(none)", strong);
    int distance = seat % 2 == 0 ? r->height : r->width;
    ck_assert_msg(distance == 24, "game %lld: %s as player %d on %d x %d", (long long)r->game,
                  strong, seat + 1, r->width, r->height);
}

START_TEST(opening_games_handicap)
{
    const char *file = tx_test_file("handicap.jsonl");
    static struct tx_record records[GAMES_MAX];
    ck_assert_int_eq(tx_test_arena("play", tx_test_bot("strong=FAULT good"), tx_test_bot("weak=CG"),
                                   "--board", "24x20", "--handicap", "strong", "--games", "4", "-o",
                                   file, LIMITS, NULL),
                     0);
    ck_assert_int_eq(read_records(file, records), 4);
    bool seen[2] = {false, false}; /* strong as player 1, as player 2 */
    for (int g = 0; g < 4; g++) {
        assert_handicap_side(&records[g], "strong");
        seen[seat_named(&records[g], "strong")] = true;
        ck_assert_int_eq(records[g].result.reason, TX_REASON_CONNECTION);
    }
    ck_assert(seen[0] && seen[1]);
    assert_replay_ok(file, 4);
    free_records(records, 4);

    /* A tournament from a bots file whose entry says "handicap": true. */
    const char *bots = tx_test_file("bots.json");
    FILE *f = fopen(bots, "w");
    ck_assert_ptr_nonnull(f);
    fprintf(f,
            "[{\"name\": \"strong\", \"command\": \"%s good\", \"handicap\": true},\n"
            " {\"name\": \"weak\", \"command\": \"%s\"},\n"
            " {\"name\": \"plain\", \"command\": \"%s play\"}]\n",
            fault_bot, cg_bot, fault_bot);
    fclose(f);
    const char *tour = tx_test_file("tournament.jsonl");
    ck_assert_int_eq(tx_test_arena("tournament", "--bots", bots, "--board", "24x20",
                                   "--games-per-pair", "2", "-o", tour, LIMITS, NULL),
                     0);
    ck_assert_int_eq(read_records(tour, records), 6);
    for (int g = 0; g < 6; g++) {
        assert_handicap_side(&records[g], "strong");
        ck_assert_int_ne(records[g].result.reason, TX_REASON_INVALID);
    }
    assert_replay_ok(tour, 6);
    free_records(records, 6);
}
END_TEST

/* ---- Double TwixT ---- */

/* Every record of file is a game of teams red (a, c) and black (b, d) or
 * of a tournament's teams: four players, the teams, each privilege called
 * followed by the caller's partner's move. Returns the privileges called. */
static int check_team_games(const struct tx_record *records, int n)
{
    int privileges = 0;
    for (int g = 0; g < n; g++) {
        const struct tx_record *r = &records[g];
        ck_assert_int_eq(r->nplayers, 4);
        ck_assert_ptr_nonnull(r->teams[0]);
        ck_assert_ptr_nonnull(r->teams[1]);
        ck_assert_int_ne(r->result.reason, TX_REASON_INVALID);
        ck_assert_int_ne(r->result.reason, TX_REASON_CRASH);
        bool called[2] = {false, false};
        for (int i = 0; i < r->nmoves; i++) {
            const struct tx_record_move *m = &r->moves[i];
            if (!m->privilege)
                continue;
            privileges++;
            ck_assert_msg(!called[m->player % 2], "game %lld: team %d called privilege twice",
                          (long long)r->game, m->player % 2);
            called[m->player % 2] = true;
            if (i + 1 < r->nmoves) /* the partner moves at once */
                ck_assert_int_eq(r->moves[i + 1].player, (m->player + 2) % 4);
        }
    }
    return privileges;
}

START_TEST(opening_games_teams_play)
{
    const char *file = tx_test_file("teams.jsonl");
    static struct tx_record records[GAMES_MAX];
    /* a calls privilege at its third turn; cg-bot.py plays for black. */
    ck_assert_int_eq(tx_test_arena("play", tx_test_bot("a=FAULT privilege 3"),
                                   tx_test_bot("b=CG {width} {height} {opening} {teams}"),
                                   tx_test_bot("c=FAULT good"), tx_test_bot("d=FAULT play"),
                                   "--teams", "red=a,c", "--teams", "black=b,d", "--games", "2",
                                   "-o", file, LIMITS, NULL),
                     0);
    tx_test_assert_in("out.txt", "team red (a, c)");
    ck_assert_int_eq(read_records(file, records), 2);
    ck_assert_int_eq(check_team_games(records, 2), 2);
    for (int g = 0; g < 2; g++) {
        const struct tx_record *r = &records[g];
        /* Team red plays first in game 1, second in game 2; each team's
         * first-named bot moves first for its side. */
        int red = g == 0 ? 0 : 1;
        ck_assert_str_eq(r->teams[red], "red");
        ck_assert_str_eq(r->players[red].name, "a");
        ck_assert_str_eq(r->players[red + 2].name, "c");
        ck_assert_str_eq(r->players[1 - red].name, "b");
        ck_assert_str_eq(r->players[3 - red].name, "d");
        ck_assert_msg(strstr(r->players[1 - red].command, "cg-bot.py 12 12 swap 1"), "%s",
                      r->players[1 - red].command);
        int called = 0;
        for (int i = 0; i < r->nmoves; i++)
            if (r->moves[i].privilege) {
                ck_assert_int_eq(r->moves[i].player, red);
                called++;
            }
        ck_assert_int_eq(called, 1);
    }
    assert_replay_ok(file, 2);
    /* The bot that called privilege, and cg-bot.py, re-fed their game. */
    assert_refeed_same(file, 1, 1, "a=FAULT privilege 3");
    assert_refeed_same(file, 1, 2, "b=CG {width} {height} {opening} {teams}");
    assert_refeed_same(file, 2, 2, "a=FAULT privilege 3");
    free_records(records, 2);

    /* Privilege called twice by one team: the second call loses the game for it. */
    ck_assert_int_eq(tx_test_arena("play", tx_test_bot("a=FAULT privilege 3 2"),
                                   tx_test_bot("b=FAULT play"), tx_test_bot("c=FAULT play"),
                                   tx_test_bot("d=FAULT play"), "--teams", "red=a,c", "--teams",
                                   "black=b,d", "--games", "1", "-o", tx_test_file("twice.jsonl"),
                                   LIMITS, NULL),
                     0);
    ck_assert_int_eq(read_records(tx_test_file("twice.jsonl"), records), 1);
    ck_assert_int_eq(records[0].result.reason, TX_REASON_INVALID);
    ck_assert_int_eq(records[0].result.winner, 1);
    ck_assert_msg(strstr(records[0].result.detail, "privilege called twice by one team"), "%s",
                  records[0].result.detail);
    assert_replay_ok(tx_test_file("twice.jsonl"), 1);
    free_records(records, 1);

    /* One bot's crash loses the game for its team (d: black's second bot). */
    ck_assert_int_eq(tx_test_arena("play", tx_test_bot("a=FAULT play"), tx_test_bot("b=FAULT play"),
                                   tx_test_bot("c=FAULT play"), tx_test_bot("d=FAULT crash-exit 2"),
                                   "--teams", "red=a,c", "--teams", "black=b,d", "--games", "1",
                                   "-o", tx_test_file("crash.jsonl"), LIMITS, NULL),
                     0);
    ck_assert_int_eq(read_records(tx_test_file("crash.jsonl"), records), 1);
    ck_assert_int_eq(records[0].result.reason, TX_REASON_CRASH);
    ck_assert_int_eq(records[0].result.winner, 0);
    ck_assert_int_eq(records[0].moves[records[0].nmoves - 1].player, 3);
    assert_replay_ok(tx_test_file("crash.jsonl"), 1);
    free_records(records, 1);
}
END_TEST

START_TEST(opening_games_teams_tournament)
{
    const char *bots = tx_test_file("teams.json");
    FILE *f = fopen(bots, "w");
    ck_assert_ptr_nonnull(f);
    fprintf(f,
            "[{\"team\": \"x\", \"bots\": [{\"name\": \"x1\", \"command\": \"%s privilege 2\"},\n"
            "                          {\"name\": \"x2\", \"command\": \"%s good\"}]},\n"
            " {\"team\": \"y\", \"bots\": [{\"name\": \"y1\", \"command\": \"%s\"},\n"
            "                          {\"name\": \"y2\", \"command\": \"%s play\"}]},\n"
            " {\"team\": \"z\", \"bots\": [{\"name\": \"z1\", \"command\": \"%s good\"},\n"
            "                          {\"name\": \"z2\", \"command\": \"%s privilege 4\"}]}]\n",
            fault_bot, fault_bot, cg_bot, fault_bot, fault_bot, fault_bot);
    fclose(f);
    const char *file = tx_test_file("tournament.jsonl");
    static struct tx_record records[GAMES_MAX];
    ck_assert_int_eq(tx_test_arena("tournament", "--bots", bots, "--games-per-pair", "2", "-o",
                                   file, LIMITS, NULL),
                     0);
    ck_assert_int_eq(read_records(file, records), 6);
    int privileges = check_team_games(records, 6);
    ck_assert_int_ge(privileges, 4); /* x and z call it in each of their 4 games */
    int games_of[3] = {0, 0, 0};
    for (int g = 0; g < 6; g++)
        for (int t = 0; t < 2; t++) {
            const char *team = records[g].teams[t];
            ck_assert_msg(strlen(team) == 1 && team[0] >= 'x' && team[0] <= 'z', "%s", team);
            games_of[team[0] - 'x']++;
            /* the team's bots, in their order */
            ck_assert_int_eq(records[g].players[t].name[0], team[0]);
            ck_assert_int_eq(records[g].players[t].name[1], '1');
            ck_assert_int_eq(records[g].players[t + 2].name[0], team[0]);
            ck_assert_int_eq(records[g].players[t + 2].name[1], '2');
        }
    for (int t = 0; t < 3; t++)
        ck_assert_int_eq(games_of[t], 4);
    assert_replay_ok(file, 6);
    /* Resumed, the tournament has nothing left to play. */
    ck_assert_int_eq(tx_test_arena("tournament", "--bots", bots, "--games-per-pair", "2", "-o",
                                   file, LIMITS, NULL),
                     0);
    free_records(records, 6);
    ck_assert_int_eq(read_records(file, records), 6);
    free_records(records, 6);
}
END_TEST

/* ---- validate ---- */

/* validate plays its battery under the opening, and skips the scenarios
 * the opening rules out: under none the swap game, under the cut every
 * game that forces a peg (the cut refuses forced moves). */
START_TEST(opening_games_validate)
{
    static const struct {
        const char *opening, *skipped;
        enum tx_opening_rule rule;
    } cases[] = {
        {"none", "(no swap game: no swap in this opening (--opening none or cut))",
         TX_OPENING_NONE},
        {"cut", "(no forced-late game: the cut opening has no forced moves (--opening cut))",
         TX_OPENING_CUT},
    };
    static struct tx_record records[GAMES_MAX];
    char opponent[1100];
    snprintf(opponent, sizeof opponent, "%s play", fault_bot);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *file = tx_test_file(cases[i].opening);
        char want[64];
        int status = tx_test_arena("validate", strchr(tx_test_bot("me=FAULT play"), '=') + 1,
                                   "--opening", cases[i].opening, "--opponent", opponent,
                                   "--forced-openings", "-o", file, LIMITS, NULL);
        ck_assert_msg(status == 0 || status == 1, "validate exited %d", status);
        snprintf(want, sizeof want, "board 12 x 12, opening %s", cases[i].opening);
        tx_test_assert_in("out.txt", want);
        tx_test_assert_in("out.txt", cases[i].skipped);
        FILE *f = fopen(file, "r");
        int n = 0;
        for (int c; f && (c = fgetc(f)) != EOF;)
            n += c == '\n';
        if (f)
            fclose(f);
        ck_assert_int_gt(n, 0);
        ck_assert_int_le(n, GAMES_MAX);
        /* read_records keys records by game: validate numbers them from 1 */
        ck_assert_int_eq(read_records(file, records), n);
        for (int g = 0; g < n; g++)
            ck_assert_int_eq(records[g].opening, cases[i].rule);
        free_records(records, n);
    }
}
END_TEST

static Suite *opening_games_suite(void)
{
    Suite *s = suite_create("opening-games");
    TCase *tc = tcase_create("commands");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 300);
    tcase_add_loop_test(tc, opening_games_pie, 0, (int)(sizeof pie_cases / sizeof pie_cases[0]));
    tcase_add_test(tc, opening_games_cut);
    tcase_add_test(tc, opening_games_none);
    tcase_add_test(tc, opening_games_handicap);
    tcase_add_test(tc, opening_games_teams_play);
    tcase_add_test(tc, opening_games_teams_tournament);
    tcase_add_test(tc, opening_games_validate);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(opening_games_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
