/* pairing.c - a game's identity: pairing keys, per-game seeds and openings,
 * and checking a record against its own identity (see pairing.h).
 *
 * Every value is recomputed from its inputs, never kept: the same function
 * gives the runner the game to play and gives standings the game a record
 * must be, so the two cannot disagree. Randomness is splitmix64 keyed by
 * the key and k (seeds) or the run's seed and the round (openings), never
 * a generator advanced game after game.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "command.h"
#include "game.h"
#include "hole.h"
#include "pairing.h"
#include "splitmix.h"

/* Domain separators so that the per-game seed and the opening generator
 * of the same number never share a stream. */
#define SEED_GAME UINT64_C(0x67616d6573656564)    /* "gameseed" */
#define SEED_OPENING UINT64_C(0x6f70656e696e6773) /* "openings" */
#define FNV_OFFSET UINT64_C(0xcbf29ce484222325)

/* FNV-1a over a canonical byte stream: each field is fed with a terminator,
 * so ("ab","c") and ("a","bc") differ. The result goes through the mixer so
 * that near-equal inputs look unrelated. */
static void hash_bytes(uint64_t *h, const void *data, size_t len)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < len; i++) {
        *h ^= p[i];
        *h *= UINT64_C(0x100000001b3);
    }
}

static void hash_string(uint64_t *h, const char *s)
{
    hash_bytes(h, s ? s : "", s ? strlen(s) + 1 : 1);
}

static void hash_int(uint64_t *h, int64_t v)
{
    char buf[24];
    int n = snprintf(buf, sizeof buf, "%" PRId64 ";", v);
    hash_bytes(h, buf, (size_t)n);
}

void tx_pairing_terms_hash(struct tx_pairing_terms *t)
{
    t->lines_hash[0] = '\0';
    if (!t->lines || t->nlines <= 0)
        return;
    uint64_t h = FNV_OFFSET;
    hash_int(&h, t->nlines);
    for (int i = 0; i < t->nlines; i++) {
        hash_int(&h, t->lines[i].nmoves);
        for (int k = 0; k < t->lines[i].nmoves; k++)
            hash_int(&h, t->lines[i].moves[k]);
    }
    snprintf(t->lines_hash, sizeof t->lines_hash, "%016" PRIx64, tx_splitmix_mix(h));
}

static void hash_bot(uint64_t *h, const struct tx_pairing_bot *b)
{
    hash_string(h, b->name);
    hash_string(h, b->command);
    hash_int(h, b->memory_mb);
}

void tx_pairing_key(const struct tx_pairing_terms *t, const struct tx_pairing_bot *first,
                    const struct tx_pairing_bot *second, char key[TX_PAIRING_KEY_SIZE])
{
    uint64_t h = FNV_OFFSET;
    hash_string(&h, "twixt-arena pairing v1"); /* bump when what a key means changes */
    hash_bot(&h, first);
    hash_bot(&h, second);
    hash_int(&h, t->variant.width);
    hash_int(&h, t->first_turn_ms);
    hash_int(&h, t->turn_ms);
    hash_int(&h, t->margin_ms);
    hash_int(&h, t->soft);
    hash_int(&h, (int64_t)t->seed);
    hash_int(&h, t->openings);
    hash_string(&h, t->lines_hash);
    /* Rules and boards came later: a pp game on a square board keeps the
     * key it always had, so its records resume. */
    if (t->variant.rules != TX_RULES_PP || t->variant.width != t->variant.height) {
        hash_string(&h, tx_ruleset(t->variant.rules)->name);
        hash_int(&h, t->variant.height);
    }
    snprintf(key, TX_PAIRING_KEY_SIZE, "p1:%016" PRIx64, tx_splitmix_mix(h));
}

bool tx_pairing_key_bits(const char *key, uint64_t *ret)
{
    uint64_t v = 0;
    if (!key || strncmp(key, "p1:", 3) || strlen(key) != 19)
        return false;
    for (const char *p = key + 3; *p; p++) {
        int d = *p >= '0' && *p <= '9' ? *p - '0' : *p >= 'a' && *p <= 'f' ? *p - 'a' + 10 : -1;
        if (d < 0)
            return false;
        v = v << 4 | (uint64_t)d;
    }
    *ret = v;
    return true;
}

/* The k-th number of a splitmix64 generator seeded with the key's bits. */
uint64_t tx_pairing_seed(uint64_t bits, int64_t k)
{
    return tx_splitmix_mix(tx_splitmix_mix(bits ^ SEED_GAME) + (uint64_t)k * TX_SPLITMIX_GAMMA) &
           TX_PAIRING_SEED_MASK;
}

int64_t tx_pairing_round(int64_t k)
{
    return (k + 1) / 2;
}

/* True when playing hole would end the game: an opening must leave a game
 * for the bots to play. g is left unchanged. */
static bool ends_game(const struct tx_game *g, int hole, struct tx_game *after)
{
    tx_game_copy(after, g);
    return tx_game_play(after, hole) != TX_LEGAL || after->status != TX_ONGOING;
}

int tx_pairing_opening(const struct tx_geometry *geo, const struct tx_pairing_terms *t, int64_t j,
                       int16_t *out)
{
    if (t->lines && t->nlines > 0) {
        const struct tx_opening *line = &t->lines[(j - 1) % t->nlines];
        memcpy(out, line->moves, (size_t)line->nmoves * sizeof *out);
        return line->nmoves;
    }
    struct tx_game *g = tx_game_new(geo, t->variant.rules), *after = tx_game_new(geo, 0);
    int16_t *legal = tx_xmalloc(sizeof(int16_t[TX_MOVES_MAX]));
    struct tx_splitmix rng = {tx_splitmix_mix(t->seed ^ SEED_OPENING) ^
                              tx_splitmix_mix((uint64_t)(j - 1))};
    int n = 0;

    while (n < t->openings && n < TX_PAIRING_OPENING_MAX) {
        int nlegal = tx_game_legal_moves(g, legal);
        int keep = 0;
        for (int i = 0; i < nlegal; i++)
            if (legal[i] != TX_MOVE_SWAP)
                legal[keep++] = legal[i];
        /* Draw, and draw again without the move if it would end the game:
         * such moves are rare, so testing only the drawn one is cheap. */
        int hole = -1;
        while (keep > 0 && hole < 0) {
            int k = (int)tx_splitmix_below(&rng, (uint32_t)keep);
            if (ends_game(g, legal[k], after))
                legal[k] = legal[--keep];
            else
                hole = legal[k];
        }
        if (hole < 0)
            break;
        tx_game_play(g, hole);
        out[n++] = (int16_t)hole;
    }
    tx_game_free(g);
    tx_game_free(after);
    free(legal);
    return n;
}

/* The forced moves that open r, as holes; -1 for a move that is not one. */
static int forced_moves(const struct tx_geometry *geo, const struct tx_record *r, int16_t *out)
{
    int n = 0;
    while (n < r->nmoves && r->moves[n].forced) {
        if (n == TX_PAIRING_OPENING_MAX)
            return n + 1;
        int hole;
        const char *m = r->moves[n].move;
        if (!m || tx_hole_parse(geo, m, strlen(m), &hole) != TX_HOLE_OK)
            hole = -1;
        out[n++] = (int16_t)hole;
    }
    return n;
}

int tx_pairing_check(const struct tx_geometry *geo, const struct tx_record *r, char *why,
                     size_t cap)
{
    const struct tx_record_pairing *p = &r->pairing;
    if (!p->key)
        return 1;
    uint64_t bits;
    if (!tx_pairing_key_bits(p->key, &bits) || p->k < 1) {
        snprintf(why, cap, "pairing: not a pairing key and game number");
        return -EINVAL;
    }

    /* The key, from the record's own inputs. */
    struct tx_pairing_terms t = {
        .variant = {r->rules, r->width, r->height},
        .first_turn_ms = r->limits.first_turn_ms,
        .turn_ms = r->limits.turn_ms,
        .margin_ms = r->limits.margin_ms,
        .soft = r->limits.soft,
        .seed = p->run_seed,
        .openings = p->openings,
    };
    if (p->openings_file)
        snprintf(t.lines_hash, sizeof t.lines_hash, "%s", p->openings_file);
    struct tx_pairing_bot bots[2];
    for (int i = 0; i < 2; i++)
        bots[i] =
            (struct tx_pairing_bot){p->bots[i].name, p->bots[i].command, p->bots[i].memory_mb};
    char key[TX_PAIRING_KEY_SIZE];
    tx_pairing_key(&t, &bots[0], &bots[1], key);
    if (strcmp(key, p->key)) {
        snprintf(why, cap,
                 "its pairing key %s is not the one of its bots, board, limits, seed and "
                 "openings (%s): the record was edited",
                 p->key, key);
        return -EINVAL;
    }

    /* Colours: the pairing's first bot is player 1 in odd games. */
    int first = p->k % 2 ? 0 : 1;
    for (int side = 0; side < 2; side++) {
        const char *want = p->bots[side ? 1 - first : first].name;
        if (strcmp(r->players[side].name ? r->players[side].name : "", want)) {
            snprintf(why, cap,
                     "player %d is %.80s, but game %" PRId64
                     " of the pairing %.80s-%.80s has %.80s as player %d (players swapped?)",
                     side + 1, r->players[side].name ? r->players[side].name : "(none)", p->k,
                     p->bots[0].name, p->bots[1].name, want, side + 1);
            return -EINVAL;
        }
    }

    uint64_t seed = tx_pairing_seed(bits, p->k);
    if (r->seed != seed) {
        snprintf(why, cap,
                 "seed %" PRIu64 " is not the seed of game %" PRId64 " of its pairing (%" PRIu64
                 "): the record was moved to another game",
                 r->seed, p->k, seed);
        return -EINVAL;
    }

    for (int side = 0; side < 2; side++) {
        const char *command = p->bots[side ? 1 - first : first].command;
        char *expanded = tx_command_expand(command, seed, &t.variant);
        bool same = r->players[side].command && !strcmp(expanded, r->players[side].command);
        free(expanded);
        if (!same) {
            snprintf(why, cap, "player %d's command is not its bot's (%.200s) for this game",
                     side + 1, command);
            return -EINVAL;
        }
    }

    int16_t want[TX_PAIRING_OPENING_MAX], got[TX_PAIRING_OPENING_MAX + 1];
    int nwant = p->openings_file ? -1 : tx_pairing_opening(geo, &t, tx_pairing_round(p->k), want);
    int ngot = forced_moves(geo, r, got);
    if (p->openings_file) {
        if (ngot > TX_PAIRING_OPENING_MAX) {
            snprintf(why, cap, "more than %d forced moves", TX_PAIRING_OPENING_MAX);
            return -EINVAL;
        }
        return 0;
    }
    if (ngot != nwant || memcmp(got, want, (size_t)nwant * sizeof *want)) {
        char text[TX_PAIRING_OPENING_MAX * 4 + 1] = "", name[TX_HOLE_NAME_MAX];
        for (int i = 0; i < nwant; i++)
            snprintf(text + strlen(text), sizeof text - strlen(text), "%s%s", i ? " " : "",
                     tx_hole_name(geo, want[i], name));
        snprintf(why, cap, "its forced opening is not round %" PRId64 "'s (%s)",
                 tx_pairing_round(p->k), nwant ? text : "no forced move");
        return -EINVAL;
    }
    return 0;
}
