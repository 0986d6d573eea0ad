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

bool tx_pairing_handicapped(const struct tx_pairing_terms *t, const struct tx_pairing_bot *first,
                            const struct tx_pairing_bot *second)
{
    return t->handicap && (!strcmp(first->name, t->handicap) || !strcmp(second->name, t->handicap));
}

void tx_pairing_key(const struct tx_pairing_terms *t, const struct tx_pairing_bot *first,
                    const struct tx_pairing_bot *second, char key[TX_PAIRING_KEY_SIZE])
{
    /* A handicap turns each game's board: the pairing's is the longer side
     * by the shorter, however --board gave it. */
    bool handicapped = tx_pairing_handicapped(t, first, second);
    int width = t->variant.width, height = t->variant.height;
    if (handicapped && width < height)
        width = t->variant.height, height = t->variant.width;
    uint64_t h = FNV_OFFSET;
    hash_string(&h, "twixt-arena pairing v1"); /* bump when what a key means changes */
    hash_bot(&h, first);
    hash_bot(&h, second);
    hash_int(&h, width);
    hash_int(&h, t->first_turn_ms);
    hash_int(&h, t->turn_ms);
    hash_int(&h, t->margin_ms);
    hash_int(&h, t->soft);
    hash_int(&h, (int64_t)t->seed);
    hash_int(&h, t->openings);
    hash_string(&h, t->lines_hash);
    /* Rules and boards came later, then openings, handicaps and teams:
     * each is hashed only when it is not the default, so a pp game on a
     * square board with the mirror swap keeps the key it always had, and
     * its records resume. */
    if (t->variant.rules != TX_RULES_PP || width != height) {
        hash_string(&h, tx_ruleset(t->variant.rules)->name);
        hash_int(&h, height);
    }
    if (t->variant.opening != TX_OPENING_SWAP) {
        hash_string(&h, "opening");
        hash_string(&h, tx_opening_rule_name(t->variant.opening));
    }
    if (handicapped) {
        hash_string(&h, "handicap");
        hash_string(&h, t->handicap);
    }
    if (t->variant.teams)
        hash_string(&h, "teams");
    snprintf(key, TX_PAIRING_KEY_SIZE, "p1:%016" PRIx64, tx_splitmix_mix(h));
}

char *tx_pairing_team_command(const char *name0, const char *command0, const char *name1,
                              const char *command1)
{
    size_t n = strlen(name0) + strlen(command0) + strlen(name1) + strlen(command1) + 4;
    char *text = tx_xmalloc(n);
    snprintf(text, n, "%s=%s\n%s=%s", name0, command0, name1, command1);
    return text;
}

bool tx_pairing_team_split(const char *text, char names[2][TX_PAIRING_NAME_MAX], char *commands[2])
{
    const char *line = text;
    commands[0] = commands[1] = NULL;
    for (int i = 0; i < 2; i++) {
        const char *eq = strchr(line, '='), *end = line + strcspn(line, "\n");
        if (!eq || eq > end || eq == line || (size_t)(eq - line) >= TX_PAIRING_NAME_MAX ||
            (i == 0 && !*end) || (i == 1 && *end)) {
            free(commands[0]);
            commands[0] = NULL;
            return false;
        }
        snprintf(names[i], TX_PAIRING_NAME_MAX, "%.*s", (int)(eq - line), line);
        commands[i] = tx_strndup(eq + 1, (size_t)(end - eq - 1));
        line = end + 1;
    }
    return true;
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

/* Whether a player's recorded command is command (as given) for this
 * game; the record's variant (its own board: a handicap's is turned)
 * replaces the placeholders. */
static bool same_command(const char *command, uint64_t seed, const struct tx_variant *v,
                         const char *recorded)
{
    char *expanded = tx_command_expand(command, seed, v);
    bool same = recorded && !strcmp(expanded, recorded);
    free(expanded);
    return same;
}

/* Player side of r (0 or 1) is the pairing's bot `which`: its name, or
 * with `commands` its command for this game. With teams, side is a team
 * (r->teams) and its two players are the team's bots. */
static int check_side(const struct tx_record *r, int side, const struct tx_record_pairing *p,
                      int which, uint64_t seed, bool commands, char *why, size_t cap)
{
    struct tx_variant v = tx_record_variant(r);
    const char *want = p->bots[which].name;
    if (r->nplayers != 4) {
        if (!commands && strcmp(r->players[side].name ? r->players[side].name : "", want)) {
            snprintf(why, cap,
                     "player %d is %.80s, but game %" PRId64
                     " of the pairing %.80s-%.80s has %.80s as player %d (players swapped?)",
                     side + 1, r->players[side].name ? r->players[side].name : "(none)", p->k,
                     p->bots[0].name, p->bots[1].name, want, side + 1);
            return -EINVAL;
        }
        if (commands && !same_command(p->bots[which].command, seed, &v, r->players[side].command)) {
            snprintf(why, cap, "player %d's command is not its bot's (%.200s) for this game",
                     side + 1, p->bots[which].command);
            return -EINVAL;
        }
        return 0;
    }
    if (!commands && strcmp(r->teams[side] ? r->teams[side] : "", want)) {
        snprintf(why, cap,
                 "team %d is %.80s, but game %" PRId64
                 " of the pairing %.80s-%.80s has %.80s as team %d (teams swapped?)",
                 side + 1, r->teams[side] ? r->teams[side] : "(none)", p->k, p->bots[0].name,
                 p->bots[1].name, want, side + 1);
        return -EINVAL;
    }
    char names[2][TX_PAIRING_NAME_MAX], *command[2];
    if (!tx_pairing_team_split(p->bots[which].command, names, command)) {
        snprintf(why, cap, "pairing: team %.80s: not two NAME=COMMAND lines", want);
        return -EINVAL;
    }
    int rc = 0;
    for (int i = 0; i < 2 && rc == 0; i++) {
        int seat = side + 2 * i; /* the team's first-named bot plays first for its side */
        const struct tx_record_player *pl = &r->players[seat];
        if (!commands && strcmp(pl->name ? pl->name : "", names[i])) {
            snprintf(why, cap, "player %d is %.80s, but team %.80s has %.80s there", seat + 1,
                     pl->name ? pl->name : "(none)", want, names[i]);
            rc = -EINVAL;
        } else if (commands && !same_command(command[i], seed, &v, pl->command)) {
            snprintf(why, cap, "player %d's command is not its bot's (%.200s) for this game",
                     seat + 1, command[i]);
            rc = -EINVAL;
        }
    }
    free(command[0]);
    free(command[1]);
    return rc;
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
        .variant = tx_record_variant(r),
        .handicap = r->handicap,
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
    if (r->handicap && !tx_pairing_handicapped(&t, &bots[0], &bots[1])) {
        snprintf(why, cap, "handicap %.80s: not a bot of the pairing %.80s-%.80s", r->handicap,
                 p->bots[0].name, p->bots[1].name);
        return -EINVAL;
    }
    char key[TX_PAIRING_KEY_SIZE];
    tx_pairing_key(&t, &bots[0], &bots[1], key);
    if (strcmp(key, p->key)) {
        snprintf(why, cap,
                 "its pairing key %s is not the one of its bots, board, limits, seed and "
                 "openings (%s): the record was edited",
                 p->key, key);
        return -EINVAL;
    }

    /* Colours: the pairing's first bot (team) is player 1 in odd games. */
    int first = p->k % 2 ? 0 : 1;
    uint64_t seed = tx_pairing_seed(bits, p->k);
    for (int side = 0; side < 2; side++)
        if (check_side(r, side, p, side ? 1 - first : first, seed, false, why, cap) < 0)
            return -EINVAL;
    if (r->seed != seed) {
        snprintf(why, cap,
                 "seed %" PRIu64 " is not the seed of game %" PRId64 " of its pairing (%" PRIu64
                 "): the record was moved to another game",
                 r->seed, p->k, seed);
        return -EINVAL;
    }
    for (int side = 0; side < 2; side++)
        if (check_side(r, side, p, side ? 1 - first : first, seed, true, why, cap) < 0)
            return -EINVAL;
    /* The handicapped side has the longer distance: player 1 (red) crosses
     * the rows (height), player 2 the columns (width). */
    if (r->handicap) {
        int side = !strcmp(p->bots[first].name, r->handicap) ? 0 : 1;
        int own = side == 0 ? r->height : r->width, other = side == 0 ? r->width : r->height;
        if (own < other) {
            snprintf(why, cap,
                     "the board %d x %d gives %.80s (player %d) the shorter distance, but the "
                     "handicap is %.80s's",
                     r->width, r->height, r->handicap, side + 1, r->handicap);
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
