/* test-pairing.c - a game's identity: keys that change with each input and
 * nothing else, seeds and openings that do not depend on the run around
 * the game, and a table of forged records, each caught by tx_pairing_check.
 */
#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "command.h"
#include "game.h"
#include "hole.h"
#include "pairing.h"
#include "test-game.h"
#include "pool.h"

static struct tx_geometry *geo;

static struct tx_pairing_terms base_terms(void)
{
    return (struct tx_pairing_terms){.variant = {.rules = TX_RULES_PP, .width = 12, .height = 12},
                                     .first_turn_ms = 1000,
                                     .turn_ms = 300,
                                     .margin_ms = 0,
                                     .seed = 7,
                                     .openings = 3};
}

static void key_of(const struct tx_pairing_terms *t, struct tx_pairing_bot a,
                   struct tx_pairing_bot b, char *key)
{
    tx_pairing_key(t, &a, &b, key);
}

START_TEST(pairing_key_tracks_each_input)
{
    struct tx_pairing_bot a = {"a", "./a --seed {seed}", 768}, b = {"b", "./b", 768};
    struct tx_pairing_terms t = base_terms();
    char base[TX_PAIRING_KEY_SIZE], other[TX_PAIRING_KEY_SIZE];
    key_of(&t, a, b, base);
    ck_assert_int_eq(strlen(base), 19);
    ck_assert(!strncmp(base, "p1:", 3));
    key_of(&t, a, b, other);
    ck_assert_str_eq(base, other);

    key_of(&t, b, a, other); /* the order is part of the pairing */
    ck_assert_str_ne(base, other);
    struct tx_pairing_bot changed[] = {
        {"a2", a.command, 768}, {"a", "./a", 768}, {"a", a.command, 512}, {"a", a.command, 0}};
    for (size_t i = 0; i < sizeof changed / sizeof changed[0]; i++) {
        key_of(&t, changed[i], b, other);
        ck_assert_msg(strcmp(base, other), "bot change %zu kept the key", i);
    }
    struct tx_pairing_terms terms[8];
    for (int i = 0; i < 8; i++)
        terms[i] = base_terms();
    terms[0].variant.width = terms[0].variant.height = 10;
    terms[1].first_turn_ms = 900;
    terms[2].turn_ms = 250;
    terms[3].margin_ms = 5;
    terms[4].soft = true;
    terms[5].seed = 8;
    terms[6].openings = 0;
    snprintf(terms[7].lines_hash, sizeof terms[7].lines_hash, "0123456789abcdef");
    for (int i = 0; i < 8; i++) {
        key_of(&terms[i], a, b, other);
        ck_assert_msg(strcmp(base, other), "terms change %d kept the key", i);
    }
    uint64_t bits;
    ck_assert(tx_pairing_key_bits(base, &bits));
    ck_assert(!tx_pairing_key_bits("p1:0123", &bits));
    ck_assert(!tx_pairing_key_bits("p2:0123456789abcdef", &bits));
    ck_assert(!tx_pairing_key_bits("p1:0123456789ABCDEF", &bits));
}
END_TEST

START_TEST(pairing_seeds_and_openings)
{
    (tx_geometry_free(geo), tx_geometry_new(12, 12, &geo));
    struct tx_pairing_terms t = base_terms();
    /* Seeds: distinct per k and per key, and exact in JSON. */
    for (int64_t k = 1; k <= 200; k++) {
        uint64_t s = tx_pairing_seed(42, k);
        ck_assert_uint_le(s, TX_PAIRING_SEED_MASK);
        ck_assert_uint_ne(s, tx_pairing_seed(42, k + 1));
        ck_assert_uint_ne(s, tx_pairing_seed(43, k));
    }
    ck_assert_int_eq(tx_pairing_round(1), 1);
    ck_assert_int_eq(tx_pairing_round(2), 1);
    ck_assert_int_eq(tx_pairing_round(3), 2);

    /* Openings: K legal moves per round, the same whenever asked, varied
     * between rounds. */
    int16_t x[TX_PAIRING_OPENING_MAX], y[TX_PAIRING_OPENING_MAX];
    ck_assert_int_eq(tx_pairing_opening(geo, &t, 1, x), 3);
    ck_assert_int_eq(tx_pairing_opening(geo, &t, 1, y), 3);
    ck_assert(!memcmp(x, y, sizeof x[0] * 3));
    int differ = 0;
    for (int64_t j = 2; j < 20; j++) {
        ck_assert_int_eq(tx_pairing_opening(geo, &t, j, y), 3);
        differ += memcmp(x, y, sizeof x[0] * 3) != 0;
    }
    ck_assert_int_ge(differ, 17);
    t.openings = 0;
    ck_assert_int_eq(tx_pairing_opening(geo, &t, 1, x), 0);

    /* From a file: round j takes line (j - 1) mod n. */
    struct tx_opening lines[2] = {{.nmoves = 1, .moves = {10}}, {.nmoves = 2, .moves = {20, 30}}};
    t.lines = lines;
    t.nlines = 2;
    ck_assert_int_eq(tx_pairing_opening(geo, &t, 1, x), 1);
    ck_assert_int_eq(x[0], 10);
    ck_assert_int_eq(tx_pairing_opening(geo, &t, 2, x), 2);
    ck_assert_int_eq(x[1], 30);
    ck_assert_int_eq(tx_pairing_opening(geo, &t, 3, x), 1);
    tx_pairing_terms_hash(&t);
    ck_assert_int_eq(strlen(t.lines_hash), 16);
    char first[TX_PAIRING_HASH_SIZE];
    memcpy(first, t.lines_hash, sizeof first);
    lines[1].moves[1] = 31;
    tx_pairing_terms_hash(&t);
    ck_assert_str_ne(first, t.lines_hash);
}
END_TEST

START_TEST(pairing_openings_legal_and_varied)
{
    /* 200 rounds of 10 forced moves: legal, never a swap, never ending the
     * game, and varied. */
    (tx_geometry_free(geo), tx_geometry_new(12, 12, &geo));
    struct tx_pairing_terms t = base_terms();
    t.openings = 10;
    int distinct_first = 0;
    bool seen[TX_HOLES_MAX] = {false};
    for (int64_t j = 1; j <= 200; j++) {
        int16_t opening[TX_PAIRING_OPENING_MAX];
        ck_assert_int_eq(tx_pairing_opening(geo, &t, j, opening), 10);
        static struct tx_game *g;
        test_game(&g, geo);
        for (int k = 0; k < 10; k++) {
            ck_assert_int_ne(opening[k], TX_MOVE_SWAP);
            ck_assert_int_eq(tx_game_play(g, opening[k]), TX_LEGAL);
            ck_assert_int_eq(g->status, TX_ONGOING);
        }
        distinct_first += !seen[opening[0]];
        seen[opening[0]] = true;
    }
    ck_assert_int_gt(distinct_first, 50); /* 200 openings over ~120 first holes */
}
END_TEST

START_TEST(pairing_openings_never_end_a_tiny_game)
{
    /* On 5 x 5 a long random opening would often win or draw: it stops short
     * instead, and what it plays is legal and leaves the game going. */
    (tx_geometry_free(geo), tx_geometry_new(5, 5, &geo));
    struct tx_pairing_terms t = base_terms();
    t.variant.width = t.variant.height = 5;
    t.openings = 40;
    for (int64_t j = 1; j <= 200; j++) {
        int16_t opening[TX_PAIRING_OPENING_MAX];
        int n = tx_pairing_opening(geo, &t, j, opening);
        ck_assert_int_le(n, 40);
        static struct tx_game *g;
        test_game(&g, geo);
        for (int k = 0; k < n; k++)
            ck_assert_int_eq(tx_game_play(g, opening[k]), TX_LEGAL);
        ck_assert_int_eq(g->status, TX_ONGOING);
    }
}
END_TEST

/* ---- checking records against their identity ---- */

static const struct tx_bot_spec bots[2] = {
    {.name = "alpha", .command = "./alpha --seed {seed} --size {size}"},
    {.name = "beta", .command = "./beta"},
};

/* The record a referee writes for game k of the pool's only pairing (no
 * real game: its forced opening, then one answer and a win). */
static void genuine(struct tx_pool *pool, int64_t k, struct tx_record *r)
{
    struct tx_pool_slot slot;
    tx_pool_spec(pool, (struct tx_pool_game){0, k}, 5, &slot);
    memset(r, 0, sizeof *r);
    r->format = tx_strdup(TX_RECORD_FORMAT);
    r->game = 5;
    r->seed = slot.spec.seed;
    r->width = r->height = 12;
    r->limits.first_turn_ms = 1000;
    r->limits.turn_ms = 300;
    for (int p = 0; p < 2; p++) {
        r->players[p].name = tx_strdup(slot.spec.bots[p]->name);
        r->players[p].command = tx_command_expand(
            slot.spec.bots[p]->command, r->seed,
            &(struct tx_variant){.rules = TX_RULES_PP, .width = 12, .height = 12});
    }
    r->pairing = slot.identity;
    r->pairing.key = tx_strdup(slot.identity.key);
    r->pairing.openings_file = tx_strdup(slot.identity.openings_file);
    for (int i = 0; i < 2; i++) {
        r->pairing.bots[i].name = tx_strdup(slot.identity.bots[i].name);
        r->pairing.bots[i].command = tx_strdup(slot.identity.bots[i].command);
    }
    r->nmoves = slot.spec.nopening;
    r->moves = calloc((size_t)r->nmoves + 1, sizeof *r->moves);
    for (int i = 0; i < slot.spec.nopening; i++) {
        char name[TX_HOLE_NAME_MAX];
        r->moves[i].player = i % 2;
        r->moves[i].forced = true;
        r->moves[i].us = -1;
        r->moves[i].move = tx_strdup(tx_hole_name(geo, slot.spec.opening[i], name));
    }
}

static void make_pool(struct tx_pool *pool, int openings)
{
    (tx_geometry_free(geo), tx_geometry_new(12, 12, &geo));
    memset(pool, 0, sizeof *pool);
    pool->geo = geo;
    pool->bots = bots;
    pool->nbots = 2;
    pool->terms = base_terms();
    pool->terms.openings = openings;
    pool->memory_mb = 768;
    pool->kind = TX_POOL_PLAY;
    pool->games_per_pair = 10;
    pool->shard = pool->shards = 1;
    ck_assert_int_eq(tx_pool_init(pool), 0);
}

/* Forgeries of game 3 (or of game 4 for the colour case) and the words
 * tx_pairing_check must find in its reason. */
enum forgery {
    NOTHING,
    SWAP_PLAYERS,
    MOVED_TO_ANOTHER_K,
    SEED_CHANGED,
    COMMAND_CHANGED,
    KEY_BOT_RENAMED,
    RUN_SEED_CHANGED,
    OPENING_CHANGED,
    OPENING_DROPPED,
    LIMITS_CHANGED,
};

static const struct {
    enum forgery forgery;
    const char *found;
} forgeries[] = {
    {NOTHING, NULL},
    {SWAP_PLAYERS, "(players swapped?)"},
    {MOVED_TO_ANOTHER_K, "moved to another game"},
    {SEED_CHANGED, "moved to another game"},
    {COMMAND_CHANGED, "player 1's command is not its bot's"},
    {KEY_BOT_RENAMED, "the record was edited"},
    {RUN_SEED_CHANGED, "the record was edited"},
    {OPENING_CHANGED, "forced opening is not round 2's"},
    {OPENING_DROPPED, "forced opening is not round 2's"},
    {LIMITS_CHANGED, "the record was edited"},
};

static void swap_strings(char **x, char **y)
{
    char *t = *x;
    *x = *y;
    *y = t;
}

START_TEST(pairing_check_finds_forgeries)
{
    struct tx_pool pool;
    struct tx_record r;
    make_pool(&pool, 4);
    genuine(&pool, 3, &r);
    switch (forgeries[_i].forgery) {
    case NOTHING:
        break;
    case SWAP_PLAYERS: /* the loser's name on the winner's side */
        swap_strings(&r.players[0].name, &r.players[1].name);
        swap_strings(&r.players[0].command, &r.players[1].command);
        break;
    case MOVED_TO_ANOTHER_K:
        r.pairing.k = 5;
        break;
    case SEED_CHANGED:
        r.seed ^= 1;
        break;
    case COMMAND_CHANGED:
        free(r.players[0].command);
        r.players[0].command = tx_strdup("./alpha --seed 1 --size 12");
        break;
    case KEY_BOT_RENAMED:
        free(r.pairing.bots[1].name);
        r.pairing.bots[1].name = tx_strdup("gamma");
        free(r.players[1].name);
        r.players[1].name = tx_strdup("gamma");
        break;
    case RUN_SEED_CHANGED:
        r.pairing.run_seed = 8;
        break;
    case OPENING_CHANGED: {
        const char *other = strcmp(r.moves[1].move, "F6") ? "F6" : "G7";
        free(r.moves[1].move);
        r.moves[1].move = tx_strdup(other);
    } break;
    case OPENING_DROPPED:
        r.moves[3].forced = false;
        break;
    case LIMITS_CHANGED:
        r.limits.turn_ms = 3000;
        break;
    }
    char why[512] = "";
    int rc = tx_pairing_check(geo, &r, why, sizeof why);
    if (!forgeries[_i].found)
        ck_assert_msg(rc == 0, "a genuine record failed: %s", why);
    else
        ck_assert_msg(rc == -EINVAL && strstr(why, forgeries[_i].found),
                      "forgery %d: rc %d, \"%s\"", _i, rc, why);
    tx_record_free(&r);
    tx_pool_free(&pool);
}
END_TEST

START_TEST(pairing_check_even_games_and_old_records)
{
    struct tx_pool pool;
    struct tx_record r;
    make_pool(&pool, 0);
    genuine(&pool, 4, &r); /* beta is player 1 in even games */
    ck_assert_str_eq(r.players[0].name, "beta");
    char why[512] = "";
    ck_assert_msg(tx_pairing_check(geo, &r, why, sizeof why) == 0, "%s", why);
    /* Without openings no forced move is allowed. */
    r.moves = realloc(r.moves, sizeof *r.moves);
    memset(r.moves, 0, sizeof *r.moves);
    r.moves[0].forced = true;
    r.moves[0].move = tx_strdup("F6");
    r.nmoves = 1;
    ck_assert_int_eq(tx_pairing_check(geo, &r, why, sizeof why), -EINVAL);
    ck_assert_msg(strstr(why, "(no forced move)"), "%s", why);
    /* A record without an identity: nothing to check. */
    free(r.pairing.key);
    r.pairing.key = NULL;
    ck_assert_int_eq(tx_pairing_check(geo, &r, why, sizeof why), 1);
    tx_record_free(&r);
    tx_pool_free(&pool);
}
END_TEST

static Suite *pairing_suite(void)
{
    Suite *s = suite_create("pairing");
    TCase *tc = tcase_create("pairing");
    tcase_add_test(tc, pairing_key_tracks_each_input);
    tcase_add_test(tc, pairing_seeds_and_openings);
    tcase_add_test(tc, pairing_openings_legal_and_varied);
    tcase_add_test(tc, pairing_openings_never_end_a_tiny_game);
    tcase_add_loop_test(tc, pairing_check_finds_forgeries, 0,
                        (int)(sizeof forgeries / sizeof forgeries[0]));
    tcase_add_test(tc, pairing_check_even_games_and_old_records);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(pairing_suite());
    srunner_run_all(sr, CK_ENV);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
