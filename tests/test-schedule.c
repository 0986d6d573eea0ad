/* test-schedule.c - the schedule: pure, balanced, colour-exchanged, with
 * legal forced openings, shards that partition the run, openings files
 * checked line by line, and a fingerprint that changes with what matters.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "schedule.h"

static struct tx_geometry geo;
static const struct tx_bot_spec bots[4] = {
    {.name = "a", .command = "bot-a"},
    {.name = "b", .command = "bot-b"},
    {.name = "c", .command = "bot-c"},
    {.name = "d", .command = "bot-d"},
};

static struct tx_schedule make_schedule(int nbots, int64_t games, int openings)
{
    tx_geometry_init(&geo, 12);
    return (struct tx_schedule){.geo = &geo,
                                .bots = bots,
                                .nbots = nbots,
                                .seed = 42,
                                .games = games,
                                .openings = openings,
                                .shard = 1,
                                .shards = 1};
}

static bool same_spec(const struct tx_game_spec *x, const struct tx_game_spec *y)
{
    return x->index == y->index && x->seed == y->seed && x->bots[0] == y->bots[0] &&
           x->bots[1] == y->bots[1] && x->nopening == y->nopening &&
           !memcmp(x->opening, y->opening, (size_t)x->nopening * sizeof *x->opening);
}

START_TEST(schedule_pure_alone_or_in_sequence)
{
    struct tx_schedule s = make_schedule(4, 600, 6);
    static struct tx_game_spec seq[601];
    static int16_t openings[601][TX_SCHEDULE_OPENING_MAX];
    for (int64_t i = 1; i <= 600; i++)
        ck_assert_int_eq(tx_schedule_game(&s, i, &seq[i], openings[i]), 0);
    /* Backwards, and from a second schedule with more games: the same. */
    struct tx_schedule longer = make_schedule(4, 6000, 6);
    for (int64_t i = 600; i >= 1; i -= 7) {
        struct tx_game_spec one;
        int16_t buf[TX_SCHEDULE_OPENING_MAX];
        ck_assert_int_eq(tx_schedule_game(&longer, i, &one, buf), 0);
        ck_assert_msg(same_spec(&one, &seq[i]), "game %lld differs", (long long)i);
    }
    struct tx_game_spec spec;
    int16_t buf[TX_SCHEDULE_OPENING_MAX];
    ck_assert_int_eq(tx_schedule_game(&s, 0, &spec, buf), -EINVAL);
    ck_assert_int_eq(tx_schedule_game(&s, 601, &spec, buf), -EINVAL);
}
END_TEST

START_TEST(schedule_colours_exchanged_with_same_opening)
{
    struct tx_schedule s = make_schedule(3, 60, 4);
    for (int64_t i = 1; i <= 60; i += 2) {
        struct tx_game_spec x, y;
        int16_t bx[TX_SCHEDULE_OPENING_MAX], by[TX_SCHEDULE_OPENING_MAX];
        tx_schedule_game(&s, i, &x, bx);
        tx_schedule_game(&s, i + 1, &y, by);
        ck_assert_ptr_eq(x.bots[0], y.bots[1]);
        ck_assert_ptr_eq(x.bots[1], y.bots[0]);
        ck_assert_ptr_ne(x.bots[0], x.bots[1]);
        ck_assert_int_eq(x.nopening, 4);
        ck_assert_int_eq(y.nopening, 4);
        ck_assert_mem_eq(bx, by, 4 * sizeof *bx);
        ck_assert_uint_ne(x.seed, y.seed);
    }
}
END_TEST

START_TEST(schedule_round_robin_balanced)
{
    /* 4 bots, 6 pairs, 4 games per pair: every pair 4 times, 2 with each
     * colour, and after every 12 games (one round) each pair once more. */
    struct tx_schedule s = make_schedule(4, 24, 0);
    int first[4][4] = {{0}};
    for (int64_t i = 1; i <= 24; i++) {
        struct tx_game_spec spec;
        int16_t buf[TX_SCHEDULE_OPENING_MAX];
        tx_schedule_game(&s, i, &spec, buf);
        first[spec.bots[0] - bots][spec.bots[1] - bots]++;
        ck_assert_int_eq(spec.nopening, 0);
        if (i == 12)
            for (int a = 0; a < 4; a++)
                for (int b = 0; b < 4; b++)
                    ck_assert_int_eq(first[a][b], a == b ? 0 : 1);
    }
    for (int a = 0; a < 4; a++)
        for (int b = 0; b < 4; b++)
            ck_assert_int_eq(first[a][b], a == b ? 0 : 2);
    ck_assert_int_eq(tx_schedule_pairs(&s), 6);
}
END_TEST

START_TEST(schedule_play_bot1_first_in_odd_games)
{
    struct tx_schedule s = make_schedule(2, 7, 0);
    for (int64_t i = 1; i <= 7; i++) {
        struct tx_game_spec spec;
        int16_t buf[TX_SCHEDULE_OPENING_MAX];
        tx_schedule_game(&s, i, &spec, buf);
        ck_assert_ptr_eq(spec.bots[0], &bots[i % 2 == 1 ? 0 : 1]);
    }
}
END_TEST

START_TEST(schedule_openings_legal_and_varied)
{
    struct tx_schedule s = make_schedule(2, 400, 10);
    int distinct_first = 0;
    bool seen[TX_HOLES_MAX] = {false};
    for (int64_t i = 1; i <= 400; i += 2) {
        struct tx_game_spec spec;
        int16_t buf[TX_SCHEDULE_OPENING_MAX];
        tx_schedule_game(&s, i, &spec, buf);
        ck_assert_int_eq(spec.nopening, 10);
        struct tx_game g;
        tx_game_init(&g, &geo);
        for (int k = 0; k < spec.nopening; k++) {
            ck_assert_int_ne(spec.opening[k], TX_MOVE_SWAP);
            ck_assert_int_eq(tx_game_play(&g, spec.opening[k]), TX_LEGAL);
            ck_assert_int_eq(g.status, TX_ONGOING);
        }
        if (!seen[spec.opening[0]])
            distinct_first++;
        seen[spec.opening[0]] = true;
    }
    ck_assert_int_gt(distinct_first, 50); /* 200 openings over ~120 first holes */
}
END_TEST

START_TEST(schedule_openings_never_end_a_tiny_game)
{
    /* On 5 x 5 a long random opening would often win or draw: it stops short
     * instead, and what it plays is legal and leaves the game going. */
    tx_geometry_init(&geo, 5);
    struct tx_schedule s = {.geo = &geo,
                            .bots = bots,
                            .nbots = 2,
                            .seed = 7,
                            .games = 200,
                            .openings = 40,
                            .shard = 1,
                            .shards = 1};
    for (int64_t i = 1; i <= 200; i++) {
        struct tx_game_spec spec;
        int16_t buf[TX_SCHEDULE_OPENING_MAX];
        tx_schedule_game(&s, i, &spec, buf);
        ck_assert_int_le(spec.nopening, 40);
        struct tx_game g;
        tx_game_init(&g, &geo);
        for (int k = 0; k < spec.nopening; k++)
            ck_assert_int_eq(tx_game_play(&g, spec.opening[k]), TX_LEGAL);
        ck_assert_int_eq(g.status, TX_ONGOING);
    }
}
END_TEST

START_TEST(schedule_seeds_distinct_and_json_safe)
{
    struct tx_schedule s = make_schedule(3, 5000, 0);
    static uint64_t seeds[5001];
    for (int64_t i = 1; i <= 5000; i++) {
        struct tx_game_spec spec;
        int16_t buf[TX_SCHEDULE_OPENING_MAX];
        tx_schedule_game(&s, i, &spec, buf);
        ck_assert_uint_le(spec.seed, TX_SCHEDULE_SEED_MASK);
        seeds[i] = spec.seed;
    }
    for (int i = 1; i <= 5000; i++)
        for (int j = i + 1; j <= i + 50 && j <= 5000; j++)
            ck_assert_uint_ne(seeds[i], seeds[j]);
    /* another run seed gives other game seeds */
    struct tx_schedule t = s;
    t.seed = 43;
    struct tx_game_spec spec;
    int16_t buf[TX_SCHEDULE_OPENING_MAX];
    tx_schedule_game(&t, 1, &spec, buf);
    ck_assert_uint_ne(spec.seed, seeds[1]);
}
END_TEST

START_TEST(schedule_shards_partition_the_run)
{
    for (int m = 1; m <= 5; m++) {
        for (int64_t games = 1; games <= 23; games++) {
            struct tx_schedule s = make_schedule(3, games, 0);
            int64_t sum = 0;
            for (int k = 1; k <= m; k++) {
                s.shard = k;
                s.shards = m;
                int64_t n = 0;
                for (int64_t i = 1; i <= games; i++) {
                    int owners = 0;
                    for (int kk = 1; kk <= m; kk++) {
                        struct tx_schedule t = s;
                        t.shard = kk;
                        owners += tx_schedule_in_shard(&t, i);
                    }
                    ck_assert_int_eq(owners, 1);
                    n += tx_schedule_in_shard(&s, i);
                }
                ck_assert_int_eq(tx_schedule_shard_games(&s), n);
                sum += n;
            }
            ck_assert_int_eq(sum, games);
        }
    }
}
END_TEST

static int parse(const char *text, char *err, struct tx_opening **lines, int *n)
{
    tx_geometry_init(&geo, 12);
    return tx_schedule_parse_openings(&geo, "open.txt", text, strlen(text), lines, n, err, 256);
}

START_TEST(schedule_openings_file_parsed)
{
    struct tx_opening *lines;
    int n;
    char err[256] = "";
    ck_assert_int_eq(parse("# two openings\nF6 G8 D5\n\n  B2\r\n", err, &lines, &n), 0);
    ck_assert_int_eq(n, 2);
    ck_assert_int_eq(lines[0].nmoves, 3);
    ck_assert_int_eq(lines[0].moves[0], 5 * 12 + 5);
    ck_assert_int_eq(lines[1].nmoves, 1);
    ck_assert_int_eq(lines[1].moves[0], 1 * 12 + 1);

    struct tx_schedule s = make_schedule(2, 10, 0);
    s.lines = lines;
    s.nlines = n;
    struct tx_game_spec spec;
    int16_t buf[TX_SCHEDULE_OPENING_MAX];
    tx_schedule_game(&s, 3, &spec, buf); /* pair 1: the second line */
    ck_assert_int_eq(spec.nopening, 1);
    tx_schedule_game(&s, 6, &spec, buf); /* pair 2: the first line again */
    ck_assert_int_eq(spec.nopening, 3);
    free(lines);
}
END_TEST

START_TEST(schedule_openings_file_errors_name_the_line)
{
    static const struct {
        const char *text, *message;
    } cases[] = {
        {"F6\nF6 F6\n", "open.txt:2: move 2 (F6): occupied hole F6"},
        {"F6 SWAP\n", "open.txt:1: move 2: SWAP is not allowed in an opening"},
        {"F6\n\nf6\n", "open.txt:3: move 1: expected a hole name like F6, got \"f6\""},
        {"M5\n", "open.txt:1: move 1: expected a hole name like F6, got \"M5\""},
        {"A1\n", "open.txt:1: move 1 (A1): corner A1"},
        {"# nothing\n\n", "open.txt: no opening in the file"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct tx_opening *lines = NULL;
        int n = 0;
        char err[256] = "";
        ck_assert_int_eq(parse(cases[i].text, err, &lines, &n), -EINVAL);
        ck_assert_msg(!strncmp(err, cases[i].message, strlen(cases[i].message)),
                      "case %zu: got '%s'", i, err);
    }
}
END_TEST

START_TEST(schedule_fingerprint_tracks_configuration)
{
    struct tx_match_config config;
    struct tx_schedule s = make_schedule(3, 30, 2);
    memset(&config, 0, sizeof config);
    config.geo = &geo;
    config.first_turn_ms = 1000;
    config.turn_ms = 300;
    config.bot_memory_mb = 768;
    char base[32], other[32];
    tx_schedule_fingerprint(&s, &config, base, sizeof base);
    ck_assert_int_eq(strlen(base), 19);
    ck_assert(!strncmp(base, "v1:", 3));

    /* Not part of it: how many games, which shard. */
    struct tx_schedule t = s;
    t.games = 3000;
    t.shard = 2;
    t.shards = 4;
    tx_schedule_fingerprint(&t, &config, other, sizeof other);
    ck_assert_str_eq(base, other);

    /* Part of it: seed, bots, openings, limits. */
    t = s;
    t.seed = 43;
    tx_schedule_fingerprint(&t, &config, other, sizeof other);
    ck_assert_str_ne(base, other);
    t = s;
    t.nbots = 2;
    tx_schedule_fingerprint(&t, &config, other, sizeof other);
    ck_assert_str_ne(base, other);
    t = s;
    t.openings = 3;
    tx_schedule_fingerprint(&t, &config, other, sizeof other);
    ck_assert_str_ne(base, other);
    struct tx_match_config c2 = config;
    c2.turn_ms = 299;
    tx_schedule_fingerprint(&s, &c2, other, sizeof other);
    ck_assert_str_ne(base, other);
}
END_TEST

START_TEST(schedule_mix_is_splitmix64)
{
    /* Reference values of splitmix64 from seed 0: the first outputs of the
     * generator x += 0x9e3779b97f4a7c15; return mix(x) (Vigna's splitmix64.c). */
    ck_assert_uint_eq(tx_schedule_mix(UINT64_C(0x9e3779b97f4a7c15)), UINT64_C(0xe220a8397b1dcdaf));
    ck_assert_uint_eq(tx_schedule_mix(UINT64_C(0x3c6ef372fe94f82a)), UINT64_C(0x6e789e6aa1b965f4));
}
END_TEST

static Suite *schedule_suite(void)
{
    Suite *s = suite_create("schedule");
    TCase *tc = tcase_create("schedule");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, schedule_pure_alone_or_in_sequence);
    tcase_add_test(tc, schedule_colours_exchanged_with_same_opening);
    tcase_add_test(tc, schedule_round_robin_balanced);
    tcase_add_test(tc, schedule_play_bot1_first_in_odd_games);
    tcase_add_test(tc, schedule_openings_legal_and_varied);
    tcase_add_test(tc, schedule_openings_never_end_a_tiny_game);
    tcase_add_test(tc, schedule_seeds_distinct_and_json_safe);
    tcase_add_test(tc, schedule_shards_partition_the_run);
    tcase_add_test(tc, schedule_openings_file_parsed);
    tcase_add_test(tc, schedule_openings_file_errors_name_the_line);
    tcase_add_test(tc, schedule_fingerprint_tracks_configuration);
    tcase_add_test(tc, schedule_mix_is_splitmix64);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(schedule_suite());
    srunner_run_all(sr, CK_ENV);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
