/* test-pool.c - pairings and the games a pool owes: round robins,
 * gauntlets, colours, runs that grow (a bot added, more games per pair),
 * changed commands refused, older records counted, shards that still
 * partition after growing, and the league's matchmaking rule on a seeded
 * run against a reference written here.
 */
#include <check.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "command.h"
#include "pool.h"
#include "splitmix.h"

static struct tx_geometry *geo;
static const struct tx_bot_spec bots[5] = {
    {.name = "new", .command = "./new --seed {seed}"},
    {.name = "d", .command = "./d"},
    {.name = "b", .command = "./b"},
    {.name = "c", .command = "./c", .memory_mb = 1024},
    {.name = "a", .command = "./a"},
};

static void make_pool(struct tx_pool *p, const struct tx_bot_spec *list, int n,
                      enum tx_pool_kind kind, int gauntlet, int64_t games_per_pair)
{
    /* One board for every pool of the test: a pool keeps pointing to it. */
    if (!geo)
        ck_assert_int_eq(tx_geometry_new(12, 12, &geo), 0);
    memset(p, 0, sizeof *p);
    p->geo = geo;
    p->bots = list;
    p->nbots = n;
    p->terms =
        (struct tx_pairing_terms){.variant = {.rules = TX_RULES_PP, .width = 12, .height = 12},
                                  .first_turn_ms = 1000,
                                  .turn_ms = 300,
                                  .seed = 1,
                                  .openings = 2};
    p->memory_mb = 768;
    p->kind = kind;
    p->gauntlet = gauntlet;
    p->games_per_pair = games_per_pair;
    p->shard = p->shards = 1;
    ck_assert_int_eq(tx_pool_init(p), 0);
}

/* The record of game g with a winner (0, 1, -1: a draw), as a referee
 * writes it (the fields the pool reads). */
static void fake_record(const struct tx_pool *p, struct tx_pool_game g, int winner,
                        struct tx_record *r)
{
    struct tx_pool_slot slot;
    tx_pool_spec(p, g, 1, &slot);
    memset(r, 0, sizeof *r);
    r->seed = slot.spec.seed;
    r->width = r->height = 12;
    r->limits.first_turn_ms = 1000;
    r->limits.turn_ms = 300;
    for (int side = 0; side < 2; side++) {
        r->players[side].name = tx_strdup(slot.spec.bots[side]->name);
        r->players[side].command = tx_command_expand(
            slot.spec.bots[side]->command, r->seed,
            &(struct tx_variant){.rules = TX_RULES_PP, .width = 12, .height = 12});
    }
    r->pairing = slot.identity;
    r->pairing.key = tx_strdup(slot.identity.key);
    r->pairing.openings_file = NULL;
    for (int i = 0; i < 2; i++) {
        r->pairing.bots[i].name = tx_strdup(slot.identity.bots[i].name);
        r->pairing.bots[i].command = tx_strdup(slot.identity.bots[i].command);
    }
    r->result.winner = winner;
    r->result.reason = winner < 0 ? TX_REASON_DRAW : TX_REASON_CONNECTION;
}

/* Plays the whole pool in order: every game handed out ends with player 1
 * winning. Returns how many games were played. */
static int play_all(struct tx_pool *p)
{
    struct tx_pool_game g;
    int n = 0;
    while (tx_pool_next(p, &g)) {
        struct tx_record r;
        fake_record(p, g, 0, &r);
        tx_pool_ended(p, r.pairing.key, g.k, &r);
        tx_record_free(&r);
        n++;
    }
    return n;
}

START_TEST(pool_pairings_of_each_kind)
{
    ck_assert_int_eq(tx_pool_count_pairings(TX_POOL_ROUND_ROBIN, 4, 0), 6);
    ck_assert_int_eq(tx_pool_count_pairings(TX_POOL_GAUNTLET, 4, 1), 3);
    ck_assert_int_eq(tx_pool_count_pairings(TX_POOL_GAUNTLET, 5, 2), 7);
    ck_assert_int_eq(tx_pool_count_pairings(TX_POOL_PLAY, 2, 0), 1);

    struct tx_pool p;
    make_pool(&p, bots, 2, TX_POOL_PLAY, 0, 4);
    /* play keeps BOT1 first although its name sorts last */
    ck_assert_int_eq(p.pairings[0].a, 0);
    struct tx_pool_game g;
    struct tx_pool_slot slot;
    for (int64_t k = 1; k <= 4; k++) {
        ck_assert(tx_pool_next(&p, &g));
        ck_assert_int_eq(g.k, k);
        tx_pool_spec(&p, g, k, &slot);
        ck_assert_str_eq(slot.spec.bots[0]->name, k % 2 ? "new" : "d");
        ck_assert_int_eq(slot.spec.index, k);
    }
    ck_assert(!tx_pool_next(&p, &g));
    tx_pool_free(&p);

    struct tx_pool bad = {.bots = bots, .nbots = 4, .kind = TX_POOL_GAUNTLET, .gauntlet = 4};
    ck_assert_int_eq(tx_pool_init(&bad), -EINVAL);
    bad.nbots = 1;
    bad.kind = TX_POOL_ROUND_ROBIN;
    ck_assert_int_eq(tx_pool_init(&bad), -EINVAL);
}
END_TEST

/* The test: a gauntlet of one bot against three plays exactly
 * these games, in this order and these colours (the pairing's first bot is
 * the one whose name sorts first: "b" < "c" < "d" < "new"). */
START_TEST(pool_gauntlet_one_against_three)
{
    struct tx_pool p;
    make_pool(&p, bots, 4, TX_POOL_GAUNTLET, 1, 4);
    static const char *const expected[][2] = {
        {"d", "new"}, {"new", "d"}, {"b", "new"}, {"new", "b"}, {"c", "new"}, {"new", "c"},
        {"d", "new"}, {"new", "d"}, {"b", "new"}, {"new", "b"}, {"c", "new"}, {"new", "c"},
    };
    struct tx_pool_game g;
    struct tx_pool_slot slot;
    for (size_t i = 0; i < sizeof expected / sizeof expected[0]; i++) {
        ck_assert_msg(tx_pool_next(&p, &g), "game %zu missing", i + 1);
        ck_assert_int_eq(g.k, (int64_t)(i / 6 * 2 + 1 + i % 2));
        tx_pool_spec(&p, g, (int64_t)i + 1, &slot);
        ck_assert_str_eq(slot.spec.bots[0]->name, expected[i][0]);
        ck_assert_str_eq(slot.spec.bots[1]->name, expected[i][1]);
        /* both games of a round start from the same opening */
        struct tx_pool_slot other;
        tx_pool_spec(&p, (struct tx_pool_game){g.pairing, g.k % 2 ? g.k + 1 : g.k - 1}, 1, &other);
        ck_assert_int_eq(slot.spec.nopening, 2);
        ck_assert(!memcmp(slot.opening, other.opening, sizeof slot.opening[0] * 2));
    }
    ck_assert(!tx_pool_next(&p, &g));
    ck_assert_int_eq(tx_pool_total(&p), 12);
    tx_pool_free(&p);
}
END_TEST

/* Growing: a 3-bot round robin played out; with a 4th bot only its
 * pairings are owed, the old games keep their keys, and raising games per
 * pair owes only the missing games. */
START_TEST(pool_grows_without_replaying)
{
    struct tx_pool three, four, more;
    make_pool(&three, bots + 1, 3, TX_POOL_ROUND_ROBIN, 0, 4);
    ck_assert_int_eq(play_all(&three), 12);
    ck_assert_int_eq(tx_pool_done(&three), 12);

    make_pool(&four, bots, 4, TX_POOL_ROUND_ROBIN, 0, 4);
    /* The records of the first run, read back by the second. */
    for (int i = 0; i < three.npairings; i++)
        for (int64_t k = 1; k <= 4; k++) {
            struct tx_record r;
            fake_record(&three, (struct tx_pool_game){i, k}, 1, &r);
            char why[512] = "";
            ck_assert_msg(tx_pool_check_record(&four, &r, why, sizeof why) == 0, "%s", why);
            ck_assert(tx_pool_add_record(&four, &r));
            ck_assert(!tx_pool_add_record(&four, &r)); /* a duplicate */
            tx_record_free(&r);
        }
    ck_assert_int_eq(tx_pool_done(&four), 12);
    ck_assert_int_eq(tx_pool_total(&four), 24);
    struct tx_pool_game g;
    struct tx_pool_slot slot;
    int played = 0;
    while (tx_pool_next(&four, &g)) {
        tx_pool_spec(&four, g, 1, &slot);
        ck_assert_msg(!strcmp(slot.spec.bots[0]->name, "new") ||
                          !strcmp(slot.spec.bots[1]->name, "new"),
                      "an old pairing was played again");
        played++;
    }
    ck_assert_int_eq(played, 12);

    /* More games per pair: only k = 5, 6 of each old pairing. */
    make_pool(&more, bots + 1, 3, TX_POOL_ROUND_ROBIN, 0, 6);
    for (int i = 0; i < three.npairings; i++)
        for (int64_t k = 1; k <= 4; k++) {
            struct tx_record r;
            fake_record(&three, (struct tx_pool_game){i, k}, 0, &r);
            ck_assert(tx_pool_add_record(&more, &r));
            tx_record_free(&r);
        }
    played = 0;
    while (tx_pool_next(&more, &g)) {
        ck_assert_int_ge(g.k, 5);
        played++;
    }
    ck_assert_int_eq(played, 6);
    tx_pool_free(&three);
    tx_pool_free(&four);
    tx_pool_free(&more);
}
END_TEST

START_TEST(pool_refuses_changed_commands_and_terms)
{
    struct tx_pool p, q;
    make_pool(&p, bots + 1, 3, TX_POOL_ROUND_ROBIN, 0, 2);
    struct tx_record r;
    fake_record(&p, (struct tx_pool_game){0, 1}, 0, &r);

    /* "b" now runs another program under the same name. */
    struct tx_bot_spec changed[3] = {bots[1], bots[2], bots[3]};
    changed[1].command = "./b --fast";
    make_pool(&q, changed, 3, TX_POOL_ROUND_ROBIN, 0, 2);
    char why[512] = "";
    int i = 0;
    while (i < p.npairings && strcmp(p.bots[p.pairings[i].a].name, "b") &&
           strcmp(p.bots[p.pairings[i].b].name, "b"))
        i++;
    tx_record_free(&r);
    fake_record(&p, (struct tx_pool_game){i, 1}, 0, &r);
    ck_assert_int_eq(tx_pool_check_record(&q, &r, why, sizeof why), -EEXIST);
    ck_assert_msg(strstr(why, "bot 'b': its command is now './b --fast', the file's games were "
                              "played with './b'"),
                  "%s", why);
    ck_assert(!tx_pool_add_record(&q, &r)); /* not one of its pairings */
    tx_pool_free(&q);

    /* Another memory limit for "c" is another bot too. */
    changed[1] = bots[2];
    changed[2].memory_mb = 0; /* the run's 768 instead of its own 1024 */
    make_pool(&q, changed, 3, TX_POOL_ROUND_ROBIN, 0, 2);
    for (i = 0;
         strcmp(p.bots[p.pairings[i].a].name, "c") && strcmp(p.bots[p.pairings[i].b].name, "c");)
        i++;
    tx_record_free(&r);
    fake_record(&p, (struct tx_pool_game){i, 1}, 0, &r);
    ck_assert_int_eq(tx_pool_check_record(&q, &r, why, sizeof why), -EEXIST);
    ck_assert_msg(strstr(why, "bot 'c': its memory limit is now 768 MB"), "%s", why);
    tx_pool_free(&q);

    /* The terms: each option named with both values. */
    q = p;
    q.terms.turn_ms = 250;
    ck_assert_int_eq(tx_pool_check_record(&q, &r, why, sizeof why), -EINVAL);
    ck_assert_str_eq(why, "--turn-ms: 300 in the file, 250 in this command");
    q.terms = p.terms;
    q.terms.seed = 2;
    ck_assert_int_eq(tx_pool_check_record(&q, &r, why, sizeof why), -EINVAL);
    ck_assert_str_eq(why, "--seed: 1 in the file, 2 in this command");
    q.terms = p.terms;
    q.terms.openings = 0;
    ck_assert_int_eq(tx_pool_check_record(&q, &r, why, sizeof why), -EINVAL);
    ck_assert_str_eq(why, "--openings: 2 in the file, 0 in this command");

    /* A bot that left the pool: its games are fine, and not owed. */
    make_pool(&q, bots, 2, TX_POOL_ROUND_ROBIN, 0, 2);
    ck_assert_int_eq(tx_pool_check_record(&q, &r, why, sizeof why), 0);
    ck_assert(!tx_pool_add_record(&q, &r));
    tx_pool_free(&q);
    tx_record_free(&r);
    tx_pool_free(&p);
}
END_TEST

/* Records of an older twixt-arena have no pairing: they count for the
 * pairing of their players, in their colours, as long as the commands are
 * the pool's. */
START_TEST(pool_counts_older_records)
{
    struct tx_pool p;
    make_pool(&p, bots + 1, 2, TX_POOL_ROUND_ROBIN, 0, 4); /* "d" and "b": "b" first */
    struct tx_record r;
    fake_record(&p, (struct tx_pool_game){0, 1}, 0, &r);
    free(r.pairing.key);
    r.pairing.key = NULL;
    ck_assert(tx_pool_add_record(&p, &r)); /* b is player 1: an odd k */
    ck_assert(tx_pool_add_record(&p, &r)); /* the next odd k */
    ck_assert_int_eq(tx_pool_done(&p), 2);
    struct tx_pool_game g;
    ck_assert(tx_pool_next(&p, &g));
    ck_assert_int_eq(g.k, 2);
    ck_assert(tx_pool_next(&p, &g));
    ck_assert_int_eq(g.k, 4);
    ck_assert(!tx_pool_next(&p, &g));
    /* Another command: not this pool's game. */
    free(r.players[0].command);
    r.players[0].command = tx_strdup("./b --old");
    ck_assert(!tx_pool_add_record(&p, &r));
    char why[512];
    ck_assert_int_eq(tx_pool_check_record(&p, &r, why, sizeof why), -EEXIST);
    ck_assert_msg(strstr(why, "bot 'b': its command is now './b'"), "%s", why);
    tx_record_free(&r);
    tx_pool_free(&p);
}
END_TEST

/* Shards partition the games, and a game stays in its shard when the pool
 * grows (so a grown sharded run replays nothing). */
START_TEST(pool_shards_partition_and_stay)
{
    for (int m = 1; m <= 4; m++) {
        int64_t owners[64][9] = {{0}};
        int64_t sum = 0;
        for (int k = 1; k <= m; k++) {
            struct tx_pool p;
            make_pool(&p, bots, 4, TX_POOL_ROUND_ROBIN, 0, 8);
            p.shard = k;
            p.shards = m;
            struct tx_pool_game g;
            int64_t n = 0;
            while (tx_pool_next(&p, &g)) {
                owners[g.pairing][g.k]++;
                n++;
            }
            ck_assert_int_eq(tx_pool_total(&p), n);
            sum += n;
            /* the same games in a pool with a fifth bot */
            struct tx_pool big;
            make_pool(&big, bots, 5, TX_POOL_ROUND_ROBIN, 0, 8);
            big.shard = k;
            big.shards = m;
            for (int i = 0; i < p.npairings; i++)
                for (int64_t kk = 1; kk <= 8; kk++)
                    ck_assert_int_eq(
                        tx_pool_in_shard(&p, i, kk),
                        tx_pool_in_shard(&big, tx_pool_find(&big, p.pairings[i].key), kk));
            tx_pool_free(&big);
            tx_pool_free(&p);
        }
        ck_assert_int_eq(sum, 6 * 8);
        for (int i = 0; i < 6; i++)
            for (int k = 1; k <= 8; k++)
                ck_assert_int_eq(owners[i][k], 1);
    }
}
END_TEST

/* Both games of a colour-exchanged pair (k = 2j-1, 2j) go to one shard,
 * so each shard file holds whole pairs for the pentanomial statistics and
 * an SPRT over merged shards; an odd number of games (play --games 7)
 * still counts right. (Before, k and k+1 went to consecutive shards.) */
START_TEST(pool_shards_deal_whole_pairs)
{
    for (int m = 2; m <= 5; m++)
        for (int64_t games = 7; games <= 8; games++) {
            int64_t sum = 0;
            for (int shard = 1; shard <= m; shard++) {
                struct tx_pool p;
                /* odd: play's one pairing (tournaments take even numbers) */
                bool odd = games % 2;
                make_pool(&p, bots, odd ? 2 : 4, odd ? TX_POOL_PLAY : TX_POOL_ROUND_ROBIN, 0,
                          games);
                p.shard = shard;
                p.shards = m;
                for (int i = 0; i < p.npairings; i++)
                    for (int64_t k = 1; k <= games; k += 2)
                        ck_assert_int_eq(tx_pool_in_shard(&p, i, k),
                                         tx_pool_in_shard(&p, i, k + 1));
                struct tx_pool_game g;
                int64_t n = 0;
                while (tx_pool_next(&p, &g))
                    n++;
                ck_assert_int_eq(tx_pool_total(&p), n);
                sum += n;
                tx_pool_free(&p);
            }
            ck_assert_int_eq(sum, (games % 2 ? 1 : 6) * games);
        }
}
END_TEST

/* --shard auto from each scheduler's environment, as a table: the
 * variables a task sees, and the shard (or the start of the refusal). */
static const char *table_env(const char *name, void *data)
{
    for (const char *const *v = data; *v; v += 2)
        if (!strcmp(v[0], name))
            return v[1];
    return NULL;
}

START_TEST(pool_shard_auto_reads_job_arrays)
{
    static const struct {
        const char *env[12];
        int shard, shards; /* 0: refused */
        const char *why;
    } cases[] = {
        {{"SLURM_ARRAY_TASK_ID", "3", "SLURM_ARRAY_TASK_COUNT", "8", "SLURM_ARRAY_TASK_MIN", "1",
          "SLURM_ARRAY_TASK_MAX", "8", "SLURM_ARRAY_TASK_STEP", "1"},
         3,
         8,
         NULL},
        /* --array=0-30:10: tasks 0, 10, 20, 30 */
        {{"SLURM_ARRAY_TASK_ID", "20", "SLURM_ARRAY_TASK_COUNT", "4", "SLURM_ARRAY_TASK_MIN", "0",
          "SLURM_ARRAY_TASK_MAX", "30", "SLURM_ARRAY_TASK_STEP", "10"},
         3,
         4,
         NULL},
        /* no STEP (older Slurm): contiguous */
        {{"SLURM_ARRAY_TASK_ID", "5", "SLURM_ARRAY_TASK_COUNT", "5", "SLURM_ARRAY_TASK_MIN", "5",
          "SLURM_ARRAY_TASK_MAX", "9"},
         1,
         5,
         NULL},
        /* --array=1,2,5 */
        {{"SLURM_ARRAY_TASK_ID", "5", "SLURM_ARRAY_TASK_COUNT", "3", "SLURM_ARRAY_TASK_MIN", "1",
          "SLURM_ARRAY_TASK_MAX", "5", "SLURM_ARRAY_TASK_STEP", "1"},
         0,
         0,
         "the Slurm job array's task ids are not evenly spaced"},
        {{"SLURM_ARRAY_TASK_ID", "5"}, 0, 0, "Slurm sets SLURM_ARRAY_TASK_ID but not"},
        {{"SGE_TASK_ID", "7", "SGE_TASK_FIRST", "1", "SGE_TASK_LAST", "9", "SGE_TASK_STEPSIZE",
          "2"},
         4,
         5,
         NULL},
        {{"SGE_TASK_ID", "undefined", "SGE_TASK_FIRST", "undefined"},
         0,
         0,
         "auto: no job array in the environment"},
        {{"AWS_BATCH_JOB_ARRAY_INDEX", "0", "AWS_BATCH_JOB_ARRAY_SIZE", "10"}, 1, 10, NULL},
        {{"AWS_BATCH_JOB_ARRAY_INDEX", "9", "AWS_BATCH_JOB_ARRAY_SIZE", "10"}, 10, 10, NULL},
        {{"AWS_BATCH_JOB_ARRAY_INDEX", "10", "AWS_BATCH_JOB_ARRAY_SIZE", "10"},
         0,
         0,
         "the AWS Batch array job's task ids"},
        {{"SLURM_JOB_ID", "12"}, 0, 0, "auto: no job array in the environment"},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        int shard = 0, shards = 0;
        char why[512] = "";
        int rc =
            tx_pool_shard_auto(table_env, (void *)cases[c].env, &shard, &shards, why, sizeof why);
        if (cases[c].shard) {
            ck_assert_msg(rc == 0 && shard == cases[c].shard && shards == cases[c].shards,
                          "case %zu: %d %d/%d %s", c, rc, shard, shards, why);
        } else {
            ck_assert_msg(rc < 0 && strstr(why, cases[c].why) == why, "case %zu: %d %s", c, rc,
                          why);
        }
    }
}
END_TEST

/* ---- the league ---- */

/* The rule as README states it, computed here with floating point: the
 * pairing with the fewest games (done and running), then the score with
 * one extra win and loss closest to 50%, then the first. */
static int reference_choice(const struct tx_pool *p)
{
    int best = -1;
    double best_u = 0;
    int64_t best_n = 0;
    for (int i = 0; i < p->npairings; i++) {
        const struct tx_pool_pairing *q = &p->pairings[i];
        int64_t n = q->ndone + q->running;
        double u = fabs((q->half_points / 2.0 + 1) / (q->ndone + 2.0) - 0.5);
        if (best < 0 || n < best_n || (n == best_n && u < best_u - 1e-12)) {
            best = i;
            best_n = n;
            best_u = u;
        }
    }
    return best;
}

static struct tx_splitmix results = {12345};

START_TEST(pool_league_follows_its_rule)
{
    struct tx_pool p;
    make_pool(&p, bots + 1, 4, TX_POOL_ROUND_ROBIN, 0, 0);
    ck_assert_int_eq(tx_pool_total(&p), -1);
    /* A seeded run with two games at a time: results drawn at random,
     * "a" (bots + 4) strongest. Each choice that starts a round must be
     * the reference's; the other game of the round follows it. */
    struct tx_pool_game running[2];
    int nrunning = 0, rounds = 0;
    for (int step = 0; step < 400; step++) {
        while (nrunning < 2) {
            bool pending = p.pending >= 0;
            int want = pending ? p.pending : reference_choice(&p);
            int64_t want_k = p.pending_k;
            struct tx_pool_game g;
            ck_assert(tx_pool_match(&p, &g));
            ck_assert_int_eq(g.pairing, want);
            if (pending)
                ck_assert_int_eq(g.k, want_k);
            else
                rounds++;
            running[nrunning++] = g;
        }
        /* the older game ends */
        struct tx_pool_game g = running[0];
        running[0] = running[1];
        nrunning--;
        struct tx_record r;
        int winner = (int)tx_splitmix_below(&results, 3) - 1;
        fake_record(&p, g, winner, &r);
        tx_pool_ended(&p, r.pairing.key, g.k, &r);
        tx_record_free(&r);
    }
    ck_assert_int_ge(rounds, 150);
    /* Every pairing has about as many games: the first rule dominates. */
    for (int i = 0; i < p.npairings; i++)
        ck_assert_int_le(llabs(p.pairings[i].ndone - p.pairings[0].ndone), 2);

    /* A bot joins: its pairings have no games, so they come first until
     * they catch up. */
    struct tx_pool grown;
    make_pool(&grown, bots, 5, TX_POOL_ROUND_ROBIN, 0, 0);
    ck_assert_int_eq(tx_pool_carry(&grown, &p), 0);
    struct tx_pool_game g;
    if (grown.pending >= 0) /* the round under way is finished first */
        ck_assert(tx_pool_match(&grown, &g));
    for (int i = 0; i < 8; i++) {
        ck_assert(tx_pool_match(&grown, &g));
        const struct tx_pool_pairing *q = &grown.pairings[g.pairing];
        ck_assert_msg(!strcmp(grown.bots[q->a].name, "new") ||
                          !strcmp(grown.bots[q->b].name, "new"),
                      "choice %d is not the new bot's", i);
    }
    /* An interrupted game is played again, with the same k. */
    ck_assert(tx_pool_match(&grown, &g));
    char key[TX_PAIRING_KEY_SIZE];
    memcpy(key, grown.pairings[g.pairing].key, sizeof key);
    tx_pool_ended(&grown, key, g.k, NULL);
    grown.pending = -1;
    int64_t again = g.k;
    int pairing = g.pairing;
    while (tx_pool_match(&grown, &g) && g.pairing != pairing)
        ;
    ck_assert_int_eq(g.k, again);
    tx_pool_free(&grown);
    tx_pool_free(&p);
}
END_TEST

static Suite *pool_suite(void)
{
    Suite *s = suite_create("pool");
    TCase *tc = tcase_create("pool");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, pool_pairings_of_each_kind);
    tcase_add_test(tc, pool_gauntlet_one_against_three);
    tcase_add_test(tc, pool_grows_without_replaying);
    tcase_add_test(tc, pool_refuses_changed_commands_and_terms);
    tcase_add_test(tc, pool_counts_older_records);
    tcase_add_test(tc, pool_shards_partition_and_stay);
    tcase_add_test(tc, pool_shards_deal_whole_pairs);
    tcase_add_test(tc, pool_shard_auto_reads_job_arrays);
    tcase_add_test(tc, pool_league_follows_its_rule);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(pool_suite());
    srunner_run_all(sr, CK_ENV);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
