/* schedule.c - game index -> game spec, pure and lazy (see schedule.h).
 *
 * Nothing here keeps per-game state: every spec is recomputed from the
 * index, so a run of a billion games costs no more memory than a run of
 * ten, and a resumed or sharded run plays exactly the games the whole run
 * would have played. Randomness comes from splitmix64 keyed by the run's
 * seed and the index (or the game pair, for openings), never from a
 * generator advanced game after game.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hole.h"
#include "schedule.h"

/* Domain separators so that the per-game seed and the opening generator
 * of the same number never share a stream. */
#define SEED_GAME UINT64_C(0x67616d6573656564)    /* "gameseed" */
#define SEED_OPENING UINT64_C(0x6f70656e696e6773) /* "openings" */
#define GOLDEN_GAMMA UINT64_C(0x9e3779b97f4a7c15)

uint64_t tx_schedule_mix(uint64_t x)
{
    x = (x ^ (x >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    x = (x ^ (x >> 27)) * UINT64_C(0x94d049bb133111eb);
    return x ^ (x >> 31);
}

/* One splitmix64 step: the state advances by the golden gamma. */
static uint64_t next_random(uint64_t *state)
{
    *state += GOLDEN_GAMMA;
    return tx_schedule_mix(*state);
}

/* A uniform integer in [0, n) (n > 0), by rejection so no value is favoured. */
static uint32_t random_below(uint64_t *state, uint32_t n)
{
    uint64_t limit = UINT64_MAX - UINT64_MAX % n;
    uint64_t r;
    do
        r = next_random(state);
    while (r >= limit);
    return (uint32_t)(r % n);
}

int tx_schedule_pairs(const struct tx_schedule *s)
{
    return s->nbots * (s->nbots - 1) / 2;
}

/* The k-th bot pair in the order (0,1) (0,2) .. (0,n-1) (1,2) ..; a loop is
 * fine: n is at most TX_SCHEDULE_BOTS_MAX. */
static void bot_pair(int nbots, int k, int *ret_a, int *ret_b)
{
    for (int a = 0; a < nbots - 1; a++) {
        if (k < nbots - 1 - a) {
            *ret_a = a;
            *ret_b = a + 1 + k;
            return;
        }
        k -= nbots - 1 - a;
    }
    *ret_a = 0; /* unreachable with k < pairs */
    *ret_b = 1;
}

/* True when playing hole would end the game: an opening must leave a game
 * for the bots to play. g is left unchanged. */
static bool ends_game(const struct tx_game *g, int hole)
{
    struct tx_game after = *g;
    return tx_game_play(&after, hole) != TX_LEGAL || after.status != TX_ONGOING;
}

/* K random legal moves for game pair `pair`, never a swap, never one that
 * ends the game (on a tiny board the opening may stop short). */
static int random_opening(const struct tx_schedule *s, int64_t pair, int16_t *out)
{
    struct tx_game g;
    int16_t legal[TX_MOVES_MAX];
    uint64_t state = tx_schedule_mix(s->seed ^ SEED_OPENING) ^ tx_schedule_mix((uint64_t)pair);
    int n = 0;

    tx_game_init(&g, s->geo);
    while (n < s->openings && n < TX_SCHEDULE_OPENING_MAX) {
        int nlegal = tx_game_legal_moves(&g, legal);
        int keep = 0;
        for (int i = 0; i < nlegal; i++)
            if (legal[i] != TX_MOVE_SWAP)
                legal[keep++] = legal[i];
        /* Draw, and draw again without the move if it would end the game:
         * such moves are rare, so testing only the drawn one is cheap. */
        int hole = -1;
        while (keep > 0 && hole < 0) {
            int k = (int)random_below(&state, (uint32_t)keep);
            if (ends_game(&g, legal[k]))
                legal[k] = legal[--keep];
            else
                hole = legal[k];
        }
        if (hole < 0)
            break;
        tx_game_play(&g, hole);
        out[n++] = (int16_t)hole;
    }
    return n;
}

int tx_schedule_game(const struct tx_schedule *s, int64_t index, struct tx_game_spec *spec,
                     int16_t *opening_buf)
{
    if (index < 1 || index > s->games || s->nbots < 2)
        return -EINVAL;

    int64_t pair = (index - 1) / 2;
    int npairs = tx_schedule_pairs(s);
    int a, b;
    bot_pair(s->nbots, (int)(pair % npairs), &a, &b);
    bool second_of_pair = (index - 1) % 2 == 1;

    memset(spec, 0, sizeof *spec);
    spec->index = index;
    spec->seed =
        tx_schedule_mix(tx_schedule_mix(s->seed ^ SEED_GAME) + (uint64_t)index * GOLDEN_GAMMA) &
        TX_SCHEDULE_SEED_MASK;
    spec->bots[0] = &s->bots[second_of_pair ? b : a];
    spec->bots[1] = &s->bots[second_of_pair ? a : b];
    spec->opening = opening_buf;
    if (s->nlines > 0) {
        const struct tx_opening *line = &s->lines[pair % s->nlines];
        memcpy(opening_buf, line->moves, (size_t)line->nmoves * sizeof *opening_buf);
        spec->nopening = line->nmoves;
    } else if (s->openings > 0) {
        spec->nopening = random_opening(s, pair, opening_buf);
    }
    return 0;
}

bool tx_schedule_in_shard(const struct tx_schedule *s, int64_t index)
{
    return s->shards <= 1 || index % s->shards == s->shard % s->shards;
}

int64_t tx_schedule_shard_games(const struct tx_schedule *s)
{
    if (s->shards <= 1)
        return s->games;
    int64_t first = s->shard % s->shards; /* smallest index >= 1 in the shard */
    if (first == 0)
        first = s->shards;
    return first > s->games ? 0 : (s->games - first) / s->shards + 1;
}

/* Parses one line of an openings file into *out; on error writes the reason. */
static int parse_opening_line(const struct tx_geometry *geo, const char *p, const char *end,
                              struct tx_opening *out, char *why, size_t whycap)
{
    struct tx_game g;
    char name[TX_HOLE_NAME_MAX];

    tx_game_init(&g, geo);
    out->nmoves = 0;
    while (p < end) {
        if (*p == ' ' || *p == '\t') {
            p++;
            continue;
        }
        const char *word = p;
        while (p < end && *p != ' ' && *p != '\t')
            p++;
        size_t len = (size_t)(p - word);
        int hole;
        if (len == 4 && !memcmp(word, "SWAP", 4)) {
            snprintf(why, whycap, "move %d: SWAP is not allowed in an opening", out->nmoves + 1);
            return -EINVAL;
        }
        enum tx_hole_parse_result r = tx_hole_parse(geo, word, len, &hole);
        if (r != TX_HOLE_OK) {
            snprintf(why, whycap, "move %d: expected a hole name like F6, got \"%.*s\"",
                     out->nmoves + 1, (int)(len > 16 ? 16 : len), word);
            return -EINVAL;
        }
        if (out->nmoves == TX_SCHEDULE_OPENING_MAX) {
            snprintf(why, whycap, "more than %d moves", TX_SCHEDULE_OPENING_MAX);
            return -EINVAL;
        }
        enum tx_illegal illegal = tx_game_play(&g, hole);
        if (illegal != TX_LEGAL) {
            char reason[96];
            tx_illegal_describe(&g, hole, illegal, reason, sizeof reason);
            snprintf(why, whycap, "move %d (%s): %s", out->nmoves + 1,
                     tx_hole_name(geo, hole, name), reason);
            return -EINVAL;
        }
        out->moves[out->nmoves++] = (int16_t)hole;
        if (g.status != TX_ONGOING) {
            snprintf(why, whycap,
                     "move %d (%s) ends the game; an opening must leave a game to play",
                     out->nmoves, tx_hole_name(geo, hole, name));
            return -EINVAL;
        }
    }
    return 0;
}

int tx_schedule_parse_openings(const struct tx_geometry *geo, const char *name, const char *text,
                               size_t len, struct tx_opening **ret_lines, int *ret_n, char *err,
                               size_t errcap)
{
    struct tx_opening *lines = NULL;
    int n = 0, cap = 0, lineno = 0;
    const char *p = text, *end = text + len;

    while (p < end) {
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        const char *line_end = eol ? eol : end;
        lineno++;
        if (line_end > p && line_end[-1] == '\r')
            line_end--;
        const char *q = p;
        while (q < line_end && (*q == ' ' || *q == '\t'))
            q++;
        if (q < line_end && *q != '#') {
            if (n == TX_SCHEDULE_OPENING_LINES_MAX) {
                snprintf(err, errcap, "%s:%d: more than %d openings", name, lineno,
                         TX_SCHEDULE_OPENING_LINES_MAX);
                goto error;
            }
            if (n == cap) {
                cap = cap ? cap * 2 : 16;
                struct tx_opening *grown = realloc(lines, (size_t)cap * sizeof *lines);
                if (!grown) {
                    free(lines);
                    return -ENOMEM;
                }
                lines = grown;
            }
            char why[160];
            if (parse_opening_line(geo, q, line_end, &lines[n], why, sizeof why) < 0) {
                snprintf(err, errcap, "%s:%d: %s", name, lineno, why);
                goto error;
            }
            n++;
        }
        p = eol ? eol + 1 : end;
    }
    if (n == 0) {
        snprintf(err, errcap,
                 "%s: no opening in the file (one per line, holes separated by spaces)", name);
        goto error;
    }
    *ret_lines = lines;
    *ret_n = n;
    return 0;

error:
    free(lines);
    return -EINVAL;
}

/* FNV-1a over a canonical byte stream: each field is fed with its length
 * or a terminator, so ("ab","c") and ("a","bc") differ. The result goes
 * through the splitmix64 mixer so that near-equal inputs look unrelated. */
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
    int n = snprintf(buf, sizeof buf, "%lld;", (long long)v);
    hash_bytes(h, buf, (size_t)n);
}

void tx_schedule_fingerprint(const struct tx_schedule *s, const struct tx_match_config *config,
                             char *buf, size_t cap)
{
    uint64_t h = UINT64_C(0xcbf29ce484222325);

    hash_string(&h, "twixt-arena schedule v1"); /* bump when the index -> game mapping changes */
    hash_int(&h, s->nbots);
    for (int i = 0; i < s->nbots; i++) {
        hash_string(&h, s->bots[i].name);
        hash_string(&h, s->bots[i].command);
    }
    hash_int(&h, (int64_t)s->seed);
    hash_int(&h, s->geo->size);
    /* The limits in this order since v1: runs recorded before struct tx_limits resume. */
    hash_int(&h, config->limits.first_turn_ms);
    hash_int(&h, config->limits.turn_ms);
    hash_int(&h, config->limits.margin_ms);
    hash_int(&h, config->limits.soft);
    hash_int(&h, config->limits.memory_mb);
    hash_int(&h, config->limits.cpu_s);
    hash_int(&h, s->openings);
    hash_int(&h, s->nlines);
    for (int i = 0; i < s->nlines; i++) {
        hash_int(&h, s->lines[i].nmoves);
        for (int k = 0; k < s->lines[i].nmoves; k++)
            hash_int(&h, s->lines[i].moves[k]);
    }
    snprintf(buf, cap, "v1:%016llx", (unsigned long long)tx_schedule_mix(h));
}
