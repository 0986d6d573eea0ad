/* pool.c - pairings, their games and the next one to play (see pool.h).
 *
 * The state that grows with a run is two bitmaps of k per pairing (done,
 * running): a million games cost a few hundred kilobytes. The order of
 * play is computed, never stored: position p of the schedule is round
 * p / (2 n) + 1 of pairing (p / 2) mod n, first or second game of the
 * round by p's parity, so a run resumed or grown walks the same positions
 * and skips what is done. The pool's games in that order are the runner's
 * source of games for play and tournament (tx_pool_games, at the end).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "command.h"
#include "pool.h"
#include "runner.h"

int tx_pool_count_pairings(enum tx_pool_kind kind, int nbots, int gauntlet)
{
    if (kind == TX_POOL_PLAY)
        return nbots == 2 ? 1 : 0;
    int n = 0;
    for (int i = 0; i < nbots; i++)
        for (int j = i + 1; j < nbots; j++)
            n += kind == TX_POOL_ROUND_ROBIN || i < gauntlet;
    return n;
}

int tx_pool_memory(const struct tx_pool *p, const struct tx_bot_spec *bot)
{
    return bot->memory_mb == 0 ? p->memory_mb : bot->memory_mb < 0 ? 0 : bot->memory_mb;
}

static struct tx_pairing_bot pairing_bot(const struct tx_pool *p, int i)
{
    return (struct tx_pairing_bot){p->bots[i].name, p->bots[i].command,
                                   tx_pool_memory(p, &p->bots[i])};
}

/* by_bits sorted by key bits: an insertion sort (a pool has at most
 * 2016 pairings, and qsort would need the pool in a global). */
static void sort_by_bits(struct tx_pool *p)
{
    for (int i = 1; i < p->npairings; i++) {
        int x = p->by_bits[i], j = i;
        for (; j > 0 && p->pairings[p->by_bits[j - 1]].bits > p->pairings[x].bits; j--)
            p->by_bits[j] = p->by_bits[j - 1];
        p->by_bits[j] = x;
    }
}

int tx_pool_init(struct tx_pool *p)
{
    int n = p->nbots;
    if (n < 2 || n > TX_POOL_BOTS_MAX || (p->kind == TX_POOL_PLAY && n != 2) ||
        (p->kind == TX_POOL_GAUNTLET && (p->gauntlet < 1 || p->gauntlet >= n)))
        return -EINVAL;
    p->npairings = tx_pool_count_pairings(p->kind, n, p->gauntlet);
    p->pairings = tx_xcalloc((size_t)p->npairings, sizeof *p->pairings);
    p->by_bits = tx_xcalloc((size_t)p->npairings, sizeof *p->by_bits);
    p->of_bots = tx_xcalloc((size_t)n * (size_t)n, sizeof *p->of_bots);
    for (int i = 0; i < n * n; i++)
        p->of_bots[i] = -1;
    p->cursor = 0;
    p->pending = -1;
    p->owed_done = 0;

    int k = 0;
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            if (p->kind == TX_POOL_GAUNTLET && i >= p->gauntlet)
                continue;
            struct tx_pool_pairing *q = &p->pairings[k];
            /* play keeps BOT1 first; elsewhere the name decides, so that
             * the order of the bots on the command line does not matter */
            bool swap = p->kind != TX_POOL_PLAY && strcmp(p->bots[j].name, p->bots[i].name) < 0;
            q->a = swap ? j : i;
            q->b = swap ? i : j;
            struct tx_pairing_bot a = pairing_bot(p, q->a), b = pairing_bot(p, q->b);
            tx_pairing_key(&p->terms, &a, &b, q->key);
            tx_pairing_key_bits(q->key, &q->bits);
            q->next_k = q->old_next[0] = 1;
            q->old_next[1] = 2;
            p->of_bots[i * n + j] = p->of_bots[j * n + i] = k;
            p->by_bits[k] = k;
            k++;
        }
    sort_by_bits(p);
    return 0;
}

void tx_pool_free(struct tx_pool *p)
{
    if (!p)
        return;
    for (int i = 0; i < p->npairings; i++) {
        free(p->pairings[i].done);
        free(p->pairings[i].taken);
    }
    free(p->pairings);
    free(p->by_bits);
    free(p->of_bots);
    p->pairings = NULL;
    p->by_bits = p->of_bots = NULL;
    p->npairings = 0;
}

int tx_pool_find(const struct tx_pool *p, const char *key)
{
    uint64_t bits;
    if (!tx_pairing_key_bits(key, &bits))
        return -1;
    int lo = 0, hi = p->npairings;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (p->pairings[p->by_bits[mid]].bits < bits)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (; lo < p->npairings && p->pairings[p->by_bits[lo]].bits == bits; lo++)
        if (!strcmp(p->pairings[p->by_bits[lo]].key, key))
            return p->by_bits[lo];
    return -1;
}

/* Round j = (k + 1) / 2 of a pairing goes to shard 1 + (bits + j - 1) mod M:
 * both games of a colour-exchanged pair land in one shard, so each shard's
 * file holds whole pairs (what the pentanomial statistics and an SPRT over
 * merged shards count), and the pairing's rounds go to the shards in turn. */
bool tx_pool_in_shard(const struct tx_pool *p, int i, int64_t k)
{
    if (p->shards <= 1)
        return true;
    uint64_t m = (uint64_t)p->shards, round0 = (uint64_t)(tx_pairing_round(k) - 1);
    return (p->pairings[i].bits % m + round0 % m) % m == (uint64_t)(p->shard - 1);
}

/* ---- --shard auto: the task of a scheduler's job array ---- */

/* name's value as a whole number from lo to INT_MAX, into *ret; false
 * when unset or anything else ("undefined": Grid Engine outside arrays). */
static bool env_int(tx_pool_env_fn lookup, void *data, const char *name, int64_t lo, int64_t *ret)
{
    const char *v = lookup(name, data);
    char *end;
    if (!v || *v < '0' || *v > '9')
        return false;
    errno = 0;
    long long n = strtoll(v, &end, 10);
    if (errno || *end || n < lo || n > INT32_MAX)
        return false;
    *ret = n;
    return true;
}

/* An array of tasks first, first + step, ... last (count of them): id's
 * shard. */
static int shard_of_task(const char *who, int64_t id, int64_t first, int64_t last, int64_t step,
                         int64_t count, int *shard, int *shards, char *why, size_t cap)
{
    if (step < 1 || last < first || (last - first) % step || (last - first) / step + 1 != count ||
        id < first || id > last || (id - first) % step) {
        snprintf(why, cap,
                 "%s's task ids are not evenly spaced (%" PRId64 " tasks from %" PRId64
                 " to %" PRId64 ", this one %" PRId64 "): give --shard K/M",
                 who, count, first, last, id);
        return -EINVAL;
    }
    if (count > TX_POOL_SHARDS_MAX) {
        snprintf(why, cap, "%s's array has %" PRId64 " tasks, more than %d shards", who, count,
                 TX_POOL_SHARDS_MAX);
        return -EINVAL;
    }
    *shard = (int)((id - first) / step + 1);
    *shards = (int)count;
    return 0;
}

int tx_pool_shard_auto(tx_pool_env_fn lookup, void *data, int *shard, int *shards, char *why,
                       size_t cap)
{
    int64_t id, first, last, step = 1, count;
    /* Slurm (sbatch --array): the task's id, and the array's bounds and
     * count; STEP is absent from older releases. */
    if (env_int(lookup, data, "SLURM_ARRAY_TASK_ID", 0, &id)) {
        if (!env_int(lookup, data, "SLURM_ARRAY_TASK_COUNT", 1, &count) ||
            !env_int(lookup, data, "SLURM_ARRAY_TASK_MIN", 0, &first) ||
            !env_int(lookup, data, "SLURM_ARRAY_TASK_MAX", 0, &last)) {
            snprintf(why, cap,
                     "Slurm sets SLURM_ARRAY_TASK_ID but not SLURM_ARRAY_TASK_COUNT, _MIN and "
                     "_MAX: give --shard K/M");
            return -EINVAL;
        }
        if (!env_int(lookup, data, "SLURM_ARRAY_TASK_STEP", 1, &step))
            step = 1;
        return shard_of_task("the Slurm job array", id, first, last, step, count, shard, shards,
                             why, cap);
    }
    /* Grid Engine (qsub -t first-last:step): "undefined" outside arrays. */
    if (env_int(lookup, data, "SGE_TASK_ID", 0, &id)) {
        if (!env_int(lookup, data, "SGE_TASK_FIRST", 0, &first) ||
            !env_int(lookup, data, "SGE_TASK_LAST", 0, &last) ||
            !env_int(lookup, data, "SGE_TASK_STEPSIZE", 1, &step)) {
            snprintf(why, cap,
                     "Grid Engine sets SGE_TASK_ID but not SGE_TASK_FIRST, _LAST and _STEPSIZE: "
                     "give --shard K/M");
            return -EINVAL;
        }
        return shard_of_task("the Grid Engine array job", id, first, last, step,
                             last >= first ? (last - first) / step + 1 : 0, shard, shards, why,
                             cap);
    }
    /* AWS Batch array jobs: an index from 0 and the array's size. */
    if (env_int(lookup, data, "AWS_BATCH_JOB_ARRAY_INDEX", 0, &id)) {
        if (!env_int(lookup, data, "AWS_BATCH_JOB_ARRAY_SIZE", 1, &count)) {
            snprintf(why, cap,
                     "AWS Batch sets AWS_BATCH_JOB_ARRAY_INDEX but not AWS_BATCH_JOB_ARRAY_SIZE: "
                     "give --shard K/M");
            return -EINVAL;
        }
        return shard_of_task("the AWS Batch array job", id, 0, count - 1, 1, count, shard, shards,
                             why, cap);
    }
    snprintf(why, cap,
             "auto: no job array in the environment (Slurm's SLURM_ARRAY_TASK_ID, Grid Engine's "
             "SGE_TASK_ID, AWS Batch's AWS_BATCH_JOB_ARRAY_INDEX): give --shard K/M");
    return -ENOENT;
}

/* ---- the bitmaps ---- */

static bool bit(const uint8_t *map, int64_t cap, int64_t k)
{
    return k < cap && (map[k / 8] >> (k % 8) & 1);
}

static void grow(struct tx_pool_pairing *q, int64_t k)
{
    if (k < q->cap)
        return;
    int64_t cap = q->cap ? q->cap : 64;
    while (cap <= k)
        cap *= 2;
    q->done = tx_xrealloc(q->done, (size_t)(cap / 8));
    q->taken = tx_xrealloc(q->taken, (size_t)(cap / 8));
    memset(q->done + q->cap / 8, 0, (size_t)((cap - q->cap) / 8));
    memset(q->taken + q->cap / 8, 0, (size_t)((cap - q->cap) / 8));
    q->cap = cap;
}

static void set_bit(uint8_t *map, int64_t k, bool on)
{
    if (on)
        map[k / 8] |= (uint8_t)(1 << (k % 8));
    else
        map[k / 8] &= (uint8_t) ~(1 << (k % 8));
}

static bool is_free(const struct tx_pool_pairing *q, int64_t k)
{
    return !bit(q->done, q->cap, k) && !bit(q->taken, q->cap, k);
}

/* Game k of pairing i is done; winner_side is the record's winner (0, 1 or
 * -1 for a draw). False when it already was. */
static bool mark_done(struct tx_pool *p, int i, int64_t k, int winner_side)
{
    struct tx_pool_pairing *q = &p->pairings[i];
    grow(q, k);
    if (bit(q->done, q->cap, k))
        return false;
    set_bit(q->done, k, true);
    q->ndone++;
    int a_side = k % 2 ? 0 : 1; /* the pairing's first bot is player 1 in odd games */
    q->half_points += winner_side < 0 ? 1 : winner_side == a_side ? 2 : 0;
    if ((p->games_per_pair == 0 || k <= p->games_per_pair) && tx_pool_in_shard(p, i, k))
        p->owed_done++;
    return true;
}

/* ---- what the file holds ---- */

int64_t tx_pool_total(const struct tx_pool *p)
{
    if (p->games_per_pair == 0)
        return -1;
    int64_t total = 0, g = p->games_per_pair;
    for (int i = 0; i < p->npairings; i++) {
        if (p->shards <= 1) {
            total += g;
            continue;
        }
        int64_t m = p->shards, rounds = (g + 1) / 2;
        /* rounds j - 1 = r0 (mod m): r0, r0 + m, ... below rounds, two games
         * each but the last round of an odd g (play --games 7) */
        int64_t r0 = ((int64_t)(p->shard - 1) - (int64_t)(p->pairings[i].bits % (uint64_t)m)) % m;
        r0 = (r0 + m) % m;
        int64_t mine = rounds > r0 ? (rounds - r0 - 1) / m + 1 : 0;
        bool short_last = g % 2 && mine > 0 && (rounds - 1 - r0) % m == 0;
        total += 2 * mine - short_last;
    }
    return total;
}

int64_t tx_pool_done(const struct tx_pool *p)
{
    return p->owed_done;
}

static int bot_named(const struct tx_pool *p, const char *name)
{
    for (int i = 0; name && i < p->nbots; i++)
        if (!strcmp(p->bots[i].name, name))
            return i;
    return -1;
}

/* True when command, with its placeholders replaced, is what a record
 * says its player ran. */
static bool same_command(const char *command, const struct tx_record *r, int side)
{
    struct tx_variant v = {.rules = r->rules, .width = r->width, .height = r->height};
    const char *recorded = r->players[side].command;
    char *expanded = tx_command_expand(command, r->seed, &v);
    bool same = recorded && !strcmp(expanded, recorded);
    free(expanded);
    return same;
}

/* Both players are bots of the pool with the commands they played with:
 * the pairing of an older record, or -1. (Records without a pairing are
 * older than openings, handicaps and teams: of two bots, swap, even.) */
static int old_pairing(const struct tx_pool *p, const struct tx_record *r)
{
    int x = bot_named(p, r->players[0].name), y = bot_named(p, r->players[1].name);
    const struct tx_variant *v = &p->terms.variant;
    if (p->teams || r->nplayers == 4 || r->handicap || r->opening != v->opening)
        return -1;
    if (x < 0 || y < 0 || x == y || r->width != v->width || r->height != v->height ||
        r->rules != v->rules || !same_command(p->bots[x].command, r, 0) ||
        !same_command(p->bots[y].command, r, 1))
        return -1;
    return p->of_bots[x * p->nbots + y];
}

bool tx_pool_add_record(struct tx_pool *p, const struct tx_record *r)
{
    if (r->result.reason == TX_REASON_INTERRUPTED)
        return false;
    if (r->pairing.key) {
        int i = tx_pool_find(p, r->pairing.key);
        return i >= 0 && mark_done(p, i, r->pairing.k, r->result.winner);
    }
    int i = old_pairing(p, r);
    if (i < 0)
        return false;
    struct tx_pool_pairing *q = &p->pairings[i];
    int parity = !strcmp(p->bots[q->a].name, r->players[0].name) ? 0 : 1; /* odd k: 0 */
    int64_t k = q->old_next[parity];
    while (!is_free(q, k))
        k += 2;
    q->old_next[parity] = k + 2;
    return mark_done(p, i, k, r->result.winner);
}

/* A record of the handicapped bot played without the handicap, one with
 * another handicap, or one with a handicap in a run without: "--handicap:
 * ... in the file, ... in this command" into why. */
static bool handicap_differs(const struct tx_pool *p, const struct tx_record *r, char *why,
                             size_t cap)
{
    const char *here = p->terms.handicap, *file = r->handicap;
    if (file && here && !strcmp(file, here))
        return false;
    if (!file) {
        /* Only a game of the handicapped bot (team) should have had one. */
        bool involved = false;
        for (int side = 0; here && side < 2; side++) {
            const char *name = r->pairing.key     ? r->pairing.bots[side].name
                               : r->nplayers == 4 ? r->teams[side]
                                                  : r->players[side].name;
            involved |= name && !strcmp(name, here);
        }
        if (!involved)
            return false;
    }
    snprintf(why, cap, "--handicap: %.80s in the file, %.80s in this command", file ? file : "none",
             here ? here : "none");
    return true;
}

int tx_pool_check_record(const struct tx_pool *p, const struct tx_record *r, char *why, size_t cap)
{
    const struct tx_pairing_terms *t = &p->terms;
    const char *option = NULL;
    int64_t file = 0, here = 0;
    if (r->rules != t->variant.rules) {
        snprintf(why, cap, "--rules: %s in the file, %s in this command",
                 tx_ruleset(r->rules)->name, tx_ruleset(t->variant.rules)->name);
        return -EINVAL;
    }
    if ((r->nplayers == 4) != t->variant.teams) {
        snprintf(why, cap, "--teams: %s in the file, %s in this command",
                 r->nplayers == 4 ? "teams" : "two bots a game",
                 t->variant.teams ? "teams" : "none");
        return -EINVAL;
    }
    if (r->opening != t->variant.opening) {
        snprintf(why, cap, "--opening: %s in the file, %s in this command",
                 tx_opening_rule_name(r->opening), tx_opening_rule_name(t->variant.opening));
        return -EINVAL;
    }
    /* A handicap game's board is turned for its bot: its sides in either
     * order; the file's other games were played as --board gave it. */
    bool turned = r->handicap && r->width == t->variant.height && r->height == t->variant.width;
    if (handicap_differs(p, r, why, cap))
        return -EINVAL;
    if (!turned && (r->width != t->variant.width || r->height != t->variant.height)) {
        if (r->width == r->height && t->variant.width == t->variant.height)
            snprintf(why, cap, "--size: %d in the file, %d in this command", r->width,
                     t->variant.width);
        else
            snprintf(why, cap, "--board: %dx%d in the file, %dx%d in this command", r->width,
                     r->height, t->variant.width, t->variant.height);
        return -EINVAL;
    }
    if (r->limits.first_turn_ms != t->first_turn_ms)
        option = "--first-turn-ms", file = r->limits.first_turn_ms, here = t->first_turn_ms;
    else if (r->limits.turn_ms != t->turn_ms)
        option = "--turn-ms", file = r->limits.turn_ms, here = t->turn_ms;
    else if (r->limits.margin_ms != t->margin_ms)
        option = "--time-margin-ms", file = r->limits.margin_ms, here = t->margin_ms;
    else if (r->pairing.key && r->pairing.openings != t->openings)
        option = "--openings", file = r->pairing.openings, here = t->openings;
    if (option) {
        snprintf(why, cap, "%s: %" PRId64 " in the file, %" PRId64 " in this command", option, file,
                 here);
        return -EINVAL;
    }
    if (r->limits.soft != t->soft) {
        snprintf(why, cap, "--soft-timeouts: %s in the file, %s in this command",
                 r->limits.soft ? "on" : "off", t->soft ? "on" : "off");
        return -EINVAL;
    }
    if (r->pairing.key && r->pairing.run_seed != t->seed) {
        snprintf(why, cap, "--seed: %" PRIu64 " in the file, %" PRIu64 " in this command",
                 r->pairing.run_seed, t->seed);
        return -EINVAL;
    }
    if (r->pairing.key &&
        strcmp(r->pairing.openings_file ? r->pairing.openings_file : "", t->lines_hash)) {
        snprintf(why, cap, "--openings-file: the file's games were played with %s",
                 r->pairing.openings_file ? "other openings" : "no openings file");
        return -EINVAL;
    }
    /* The bots: one name, one program, for the life of the file; a team,
     * one name, the same two bots. */
    const char *kind = p->teams ? "team" : "bot";
    for (int side = 0; side < 2; side++) {
        const char *name = r->pairing.key ? r->pairing.bots[side].name : r->players[side].name;
        int b = bot_named(p, name);
        if (b < 0)
            continue;
        const struct tx_bot_spec *bot = &p->bots[b];
        bool changed;
        char played[512];
        if (r->pairing.key) {
            changed = strcmp(r->pairing.bots[side].command, bot->command) != 0;
            snprintf(played, sizeof played, "%s", r->pairing.bots[side].command);
        } else {
            changed = !same_command(bot->command, r, side);
            snprintf(played, sizeof played, "%s", r->players[side].command);
        }
        if (changed) {
            snprintf(why, cap,
                     "%s '%s': its %s now '%.300s', the file's games were played with "
                     "'%.300s': give a new version another name (e.g. %s-2), or write to another "
                     "-o FILE",
                     kind, bot->name, p->teams ? "bots are" : "command is", bot->command, played,
                     bot->name);
            return -EEXIST;
        }
        int memory = tx_pool_memory(p, bot);
        if (r->pairing.key && r->pairing.bots[side].memory_mb != memory) {
            snprintf(why, cap,
                     "%s '%s': its memory limit is now %d MB, the file's games were played with "
                     "%d MB (0: none)",
                     kind, bot->name, memory, r->pairing.bots[side].memory_mb);
            return -EEXIST;
        }
    }
    return 0;
}

/* ---- the next game ---- */

int tx_pool_resumed(struct tx_pool *p, const struct tx_record *r, char *why, size_t cap)
{
    char reason[512];
    int rc = tx_pool_check_record(p, r, reason, sizeof reason);
    if (rc == -EINVAL)
        snprintf(why, cap,
                 "this file holds games played under other terms (%s); resume with the same "
                 "options, or write to another -o FILE",
                 reason);
    else if (rc < 0)
        snprintf(why, cap, "%s", reason);
    if (rc < 0)
        return -EINVAL;
    return tx_pool_add_record(p, r) ? 1 : 0;
}

static void take(struct tx_pool *p, int i, int64_t k)
{
    struct tx_pool_pairing *q = &p->pairings[i];
    grow(q, k);
    set_bit(q->taken, k, true);
    q->running++;
}

bool tx_pool_next(struct tx_pool *p, struct tx_pool_game *g)
{
    int64_t n = p->npairings, end = p->games_per_pair * n;
    while (p->cursor < end) {
        int64_t pos = p->cursor++;
        int i = (int)(pos / 2 % n);
        int64_t k = 2 * (pos / (2 * n)) + 1 + pos % 2;
        if (tx_pool_in_shard(p, i, k) && is_free(&p->pairings[i], k)) {
            take(p, i, k);
            *g = (struct tx_pool_game){i, k};
            return true;
        }
    }
    return false;
}

/* Pairing i is a better next choice than j (see tx_pool_match). */
static bool better(const struct tx_pool *p, int i, int j)
{
    const struct tx_pool_pairing *x = &p->pairings[i], *y = &p->pairings[j];
    int64_t nx = x->ndone + x->running, ny = y->ndone + y->running;
    if (nx != ny)
        return nx < ny;
    /* |(h/2 + 1) / (n + 2) - 1/2| = |h - n| / (2 (n + 2)): compared exactly */
    int64_t dx = x->half_points - x->ndone, dy = y->half_points - y->ndone;
    dx = dx < 0 ? -dx : dx;
    dy = dy < 0 ? -dy : dy;
    int64_t lhs = dx * (y->ndone + 2), rhs = dy * (x->ndone + 2);
    if (lhs != rhs)
        return lhs < rhs;
    return i < j;
}

bool tx_pool_match(struct tx_pool *p, struct tx_pool_game *g)
{
    if (p->pending >= 0 && p->pending < p->npairings &&
        is_free(&p->pairings[p->pending], p->pending_k)) {
        take(p, p->pending, p->pending_k);
        *g = (struct tx_pool_game){p->pending, p->pending_k};
        p->pending = -1;
        return true;
    }
    p->pending = -1;
    int best = -1;
    for (int i = 0; i < p->npairings; i++)
        if (best < 0 || better(p, i, best))
            best = i;
    if (best < 0)
        return false;
    struct tx_pool_pairing *q = &p->pairings[best];
    int64_t k = q->next_k;
    while (!is_free(q, k))
        k++;
    q->next_k = k;
    take(p, best, k);
    int64_t partner = k % 2 ? k + 1 : k - 1;
    if (is_free(q, partner)) {
        p->pending = best;
        p->pending_k = partner;
    }
    *g = (struct tx_pool_game){best, k};
    return true;
}

/* The board of a game in which `first` plays first (red, the rows):
 * with a handicap turned so that the handicapped bot has the longer
 * distance (as red its rows, the height; as black its columns). */
static bool handicapped(const struct tx_pool *p, const struct tx_pool_pairing *q)
{
    struct tx_pairing_bot a = pairing_bot(p, q->a), b = pairing_bot(p, q->b);
    return p->geo_turned && tx_pairing_handicapped(&p->terms, &a, &b);
}

static const struct tx_geometry *board_of(const struct tx_pool *p, const struct tx_pool_pairing *q,
                                          int first)
{
    if (!handicapped(p, q))
        return p->geo;
    bool red = !strcmp(p->bots[first].name, p->terms.handicap);
    bool rows_long = p->geo->height > p->geo->width;
    return red == rows_long ? p->geo : p->geo_turned;
}

void tx_pool_spec(const struct tx_pool *p, struct tx_pool_game g, int64_t index,
                  struct tx_pool_slot *slot)
{
    const struct tx_pool_pairing *q = &p->pairings[g.pairing];
    int first = g.k % 2 ? q->a : q->b, second = g.k % 2 ? q->b : q->a;
    memset(slot, 0, sizeof *slot);
    snprintf(slot->key, sizeof slot->key, "%s", q->key);
    snprintf(slot->lines_hash, sizeof slot->lines_hash, "%s", p->terms.lines_hash);

    struct tx_record_pairing *id = &slot->identity;
    id->key = slot->key;
    id->k = g.k;
    for (int side = 0; side < 2; side++) {
        const struct tx_bot_spec *bot = &p->bots[side ? q->b : q->a];
        id->bots[side].name = (char *)bot->name;
        id->bots[side].command = (char *)bot->command;
        id->bots[side].memory_mb = tx_pool_memory(p, bot);
    }
    id->run_seed = p->terms.seed;
    id->openings = p->terms.openings;
    id->openings_file = slot->lines_hash[0] ? slot->lines_hash : NULL;

    struct tx_game_spec *spec = &slot->spec;
    spec->index = index;
    spec->seed = tx_pairing_seed(q->bits, g.k);
    if (p->teams) {
        /* Red's first, black's first, red's second, black's second. */
        for (int seat = 0; seat < 4; seat++)
            spec->bots[seat] = p->teams[seat & 1 ? second : first].bots[seat / 2];
        spec->teams[0] = p->teams[first].name;
        spec->teams[1] = p->teams[second].name;
    } else {
        spec->bots[0] = &p->bots[first];
        spec->bots[1] = &p->bots[second];
    }
    spec->geo = board_of(p, q, first);
    spec->handicap = handicapped(p, q) ? p->terms.handicap : NULL;
    spec->opening = slot->opening;
    spec->nopening = tx_pairing_opening(spec->geo, &p->terms, tx_pairing_round(g.k), slot->opening);
    spec->identity = id;
}

void tx_pool_ended(struct tx_pool *p, const char *key, int64_t k, const struct tx_record *r)
{
    int i = tx_pool_find(p, key);
    if (i < 0)
        return;
    struct tx_pool_pairing *q = &p->pairings[i];
    if (bit(q->taken, q->cap, k)) {
        set_bit(q->taken, k, false);
        q->running--;
    }
    if (r && r->result.reason != TX_REASON_INTERRUPTED)
        mark_done(p, i, k, r->result.winner);
    else if (k < q->next_k)
        q->next_k = k; /* free again: the league plays it next time */
}

int tx_pool_carry(struct tx_pool *to, const struct tx_pool *from)
{
    for (int i = 0; i < to->npairings; i++) {
        int j = tx_pool_find(from, to->pairings[i].key);
        if (j < 0)
            continue;
        struct tx_pool_pairing *q = &to->pairings[i];
        const struct tx_pool_pairing *o = &from->pairings[j];
        int a = q->a, b = q->b;
        free(q->done);
        free(q->taken);
        *q = *o;
        q->a = a;
        q->b = b;
        q->done = tx_xcalloc((size_t)(o->cap / 8), 1);
        q->taken = tx_xcalloc((size_t)(o->cap / 8), 1);
        memcpy(q->done, o->done, (size_t)(o->cap / 8));
        memcpy(q->taken, o->taken, (size_t)(o->cap / 8));
        if (from->pending == j)
            to->pending = i, to->pending_k = from->pending_k;
    }
    /* owed_done is about this pool's pairings: count it again */
    to->owed_done = 0;
    for (int i = 0; i < to->npairings; i++) {
        const struct tx_pool_pairing *q = &to->pairings[i];
        for (int64_t k = 1; k < q->cap; k++)
            to->owed_done += bit(q->done, q->cap, k) &&
                             (to->games_per_pair == 0 || k <= to->games_per_pair) &&
                             tx_pool_in_shard(to, i, k);
    }
    return 0;
}

/* ---- the runner's source of games: the pool in order ---- */

static int games_resumed(void *data, const struct tx_record *r, char *why, size_t cap)
{
    return tx_pool_resumed(data, r, why, cap);
}

static int games_next(void *data, int64_t index, struct tx_pool_slot *slot)
{
    struct tx_pool *p = data;
    struct tx_pool_game g;
    if (!tx_pool_next(p, &g))
        return 0;
    tx_pool_spec(p, g, index, slot);
    return 1;
}

static void games_ended(void *data, const struct tx_pool_slot *slot, const struct tx_record *r)
{
    tx_pool_ended(data, slot->key, slot->identity.k, r);
}

static void games_progress(void *data, int64_t *done, int64_t *total)
{
    *done = tx_pool_done(data);
    *total = tx_pool_total(data);
}

void tx_pool_games(struct tx_pool *p, struct tx_runner_games *games)
{
    *games = (struct tx_runner_games){
        .resumed = games_resumed,
        .next = games_next,
        .ended = games_ended,
        .progress = games_progress,
        .data = p,
    };
}
