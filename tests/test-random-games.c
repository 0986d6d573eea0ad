/* test-random-games.c - libtwixt's game against a plain reference, over
 * thousands of seeded random games.
 *
 * The reference below is written from RULES.md alone and is deliberately
 * naive: a new peg's links are found by trying every older peg of its
 * colour and testing the segment against every link of the opponent with
 * integer orientation tests; wins by a breadth-first search over the
 * mover's links; draws and the legal list by scanning every hole; the link
 * order by walking the mover's pegs in placement order. After every move
 * the game (game.h) must agree with it on the new peg's links (tx_game_linked,
 * tx_game_has_link, and the link id of geometry.h), the result, the legal
 * moves and the reason given for illegal probes; on the peg and link lists
 * in order every 4th move (16th on large boards) and at the end; and on a
 * won game's chain. Copies made by assignment must be
 * independent games, and positions rebuilt from the turn input text
 * (input.h), in half of the games, must equal the game they came from.
 * The per-size tables of geometry.h (zones, neighbours, link ids, crossing
 * lists) and the hole names (hole.h) are checked the same way for every
 * size, and damaged turn inputs must be refused or rebuild stably.
 *
 * Every game has its own seed, printed with any failure together with the
 * move number; TX_RANDOM_SEED=N changes the base seed (default fixed, so
 * runs are reproducible) and TX_RANDOM_SCALE=K multiplies the game counts.
 */
#include <check.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "game.h"
#include "test-game.h"
#include "geometry.h"
#include "hole.h"
#include "input.h"
#include "splitmix.h"

#define DEFAULT_SEED 0x7477697874ULL /* "twixt" */

/* The knight steps, in the order geometry.h numbers the four with dx > 0. */
static const int step[8][2] = {{1, 2},   {2, 1},   {2, -1}, {1, -2},
                               {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};

/* ---- random numbers (libtwixt's splitmix64: the same on every machine) ---- */

static int random_below(struct tx_splitmix *rng, int n)
{
    return (int)tx_splitmix_below(rng, (uint32_t)n);
}

/* ---- the reference game ---- */

struct ref {
    int size, holes;
    int8_t cell[TX_HOLES_MAX]; /* -1 vacant, else the player */
    uint8_t adj[TX_HOLES_MAX]; /* bit k: linked to the neighbour at step[k] */
    int npegs[2];
    int16_t pegs[2][TX_HOLES_MAX];
    int nlinks[2];
    int16_t links[2][2 * TX_LINKS_MAX]; /* older, newer */
    int nmoves, to_move, status, winner;
    bool swapped;
};

struct where {
    int size, game, move;
    uint64_t seed;
};

static void failure(const struct where *w, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void failure(const struct where *w, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    ck_abort_msg("size %d, game %d (seed 0x%016llx), after move %d: %s", w->size, w->game,
                 (unsigned long long)w->seed, w->move, msg);
}

static bool on_board(const struct ref *r, int x, int y)
{
    return x >= 0 && y >= 0 && x < r->size && y < r->size;
}

static bool is_corner(const struct ref *r, int x, int y)
{
    return (x == 0 || x == r->size - 1) && (y == 0 || y == r->size - 1);
}

/* Player 0 may not use columns 0 and N-1, player 1 not rows 0 and N-1. */
static bool in_opponent_border(const struct ref *r, int player, int x, int y)
{
    return player == 0 ? (x == 0 || x == r->size - 1) : (y == 0 || y == r->size - 1);
}

static bool may_play(const struct ref *r, int player, int h)
{
    int x = h % r->size, y = h / r->size;
    return r->cell[h] < 0 && !is_corner(r, x, y) && !in_opponent_border(r, player, x, y);
}

static long orientation(int ax, int ay, int bx, int by, int cx, int cy)
{
    long v = (long)(bx - ax) * (cy - ay) - (long)(by - ay) * (cx - ax);
    return (v > 0) - (v < 0);
}

/* Segments pq and uv cross in a point that is no shared endpoint. Knight
 * segments have no lattice point inside, so touching and overlapping
 * cannot happen and the strict test is exact. */
static bool segments_cross(const struct ref *r, int p, int q, int u, int v)
{
    int n = r->size;
    int px = p % n, py = p / n, qx = q % n, qy = q / n;
    int ux = u % n, uy = u / n, vx = v % n, vy = v / n;

    if (p == u || p == v || q == u || q == v)
        return false;
    return orientation(px, py, qx, qy, ux, uy) * orientation(px, py, qx, qy, vx, vy) < 0 &&
           orientation(ux, uy, vx, vy, px, py) * orientation(ux, uy, vx, vy, qx, qy) < 0;
}

static int step_between(const struct ref *r, int a, int b)
{
    int dx = b % r->size - a % r->size, dy = b / r->size - a / r->size;
    for (int k = 0; k < 8; k++)
        if (step[k][0] == dx && step[k][1] == dy)
            return k;
    return -1;
}

static void ref_init(struct ref *r, int size)
{
    memset(r, 0, sizeof *r);
    r->size = size;
    r->holes = size * size;
    memset(r->cell, -1, sizeof r->cell);
    r->winner = -1;
}

/* Length of a shortest chain of player's links from its first border line
 * to its last, in pegs; 0 when there is none. */
static int ref_chain_length(const struct ref *r, int player)
{
    int16_t dist[TX_HOLES_MAX], queue[TX_HOLES_MAX];
    int head = 0, tail = 0;

    for (int h = 0; h < r->holes; h++)
        dist[h] = 0;
    for (int i = 0; i < r->npegs[player]; i++) {
        int h = r->pegs[player][i];
        int line = player == 0 ? h / r->size : h % r->size;
        if (line == 0) {
            dist[h] = 1;
            queue[tail++] = (int16_t)h;
        }
    }
    while (head < tail) {
        int h = queue[head++];
        int line = player == 0 ? h / r->size : h % r->size;
        if (line == r->size - 1)
            return dist[h];
        for (int k = 0; k < 8; k++) {
            int x = h % r->size + step[k][0], y = h / r->size + step[k][1];
            int n = y * r->size + x;
            if ((r->adj[h] >> k & 1) && dist[n] == 0) {
                dist[n] = (int16_t)(dist[h] + 1);
                queue[tail++] = (int16_t)n;
            }
        }
    }
    return 0;
}

static int ref_legal_holes(const struct ref *r, int player, int16_t *out)
{
    int n = 0;
    for (int h = 0; h < r->holes; h++)
        if (may_play(r, player, h))
            out[n++] = (int16_t)h;
    return n;
}

/* Every reason that applies to move, as a bit mask over enum tx_illegal.
 * RULES.md does not say which reason wins when two apply (an opponent's
 * peg in the opponent's border; anything after the end), so either is
 * accepted. 0 means legal. */
static unsigned ref_reasons(const struct ref *r, int move)
{
    unsigned m = 0;
    int x, y;

    if (r->status != TX_ONGOING)
        m |= 1u << TX_ILLEGAL_GAME_OVER;
    if (move == TX_MOVE_SWAP)
        return r->nmoves == 1 ? m : m | 1u << TX_ILLEGAL_SWAP;
    if (move < 0 || move >= r->holes)
        return m | 1u << TX_ILLEGAL_OUT_OF_RANGE;
    x = move % r->size;
    y = move / r->size;
    if (is_corner(r, x, y))
        return m | 1u << TX_ILLEGAL_CORNER;
    if (r->cell[move] >= 0)
        m |= 1u << TX_ILLEGAL_OCCUPIED;
    if (in_opponent_border(r, r->to_move, x, y))
        m |= 1u << TX_ILLEGAL_OPPONENT_BORDER;
    return m;
}

static void ref_play(struct ref *r, int move)
{
    int p = r->to_move;

    if (move == TX_MOVE_SWAP) {
        int h = r->pegs[0][0];
        int mirror = (h % r->size) * r->size + h / r->size;
        r->cell[h] = -1;
        r->npegs[0] = 0;
        r->cell[mirror] = 1;
        r->pegs[1][0] = (int16_t)mirror;
        r->npegs[1] = 1;
        r->swapped = true;
    } else {
        /* Older pegs in placement order: the links come out in RULES.md's
         * order without any sorting. */
        for (int i = 0; i < r->npegs[p]; i++) {
            int q = r->pegs[p][i];
            int k = step_between(r, q, move);
            bool blocked = false;
            if (k < 0)
                continue;
            for (int j = 0; j < r->nlinks[1 - p] && !blocked; j++)
                blocked =
                    segments_cross(r, q, move, r->links[1 - p][2 * j], r->links[1 - p][2 * j + 1]);
            if (blocked)
                continue;
            r->links[p][2 * r->nlinks[p]] = (int16_t)q;
            r->links[p][2 * r->nlinks[p] + 1] = (int16_t)move;
            r->nlinks[p]++;
            r->adj[q] |= (uint8_t)(1 << k);
            r->adj[move] |= (uint8_t)(1 << step_between(r, move, q));
        }
        r->cell[move] = (int8_t)p;
        r->pegs[p][r->npegs[p]++] = (int16_t)move;
    }
    r->nmoves++;
    r->to_move = 1 - p;
    if (move != TX_MOVE_SWAP && ref_chain_length(r, p) > 0) {
        r->status = TX_WON;
        r->winner = p;
    } else {
        bool any = false;
        for (int h = 0; h < r->holes && !any; h++)
            any = may_play(r, 1 - p, h);
        if (!any)
            r->status = TX_DRAWN;
    }
}

/* ---- comparing the game with the reference ---- */

/* The link id geometry.h promises: smaller-x hole * 4 + the step index. */
static int expected_link_id(const struct ref *r, int a, int b)
{
    int k;
    if (a % r->size > b % r->size) {
        int t = a;
        a = b;
        b = t;
    }
    k = step_between(r, a, b);
    return k >= 0 && k < 4 ? a * 4 + k : -1;
}

static void compare_status(const struct where *w, const struct tx_game *g, const struct ref *r)
{
    if (g->status != r->status || g->winner != r->winner || g->to_move != r->to_move ||
        g->nmoves != r->nmoves || (g->swapped != 0) != r->swapped)
        failure(w,
                "status/winner/to_move/nmoves/swapped are %d/%d/%d/%d/%d, reference %d/%d/%d/%d/%d",
                g->status, g->winner, g->to_move, g->nmoves, g->swapped, r->status, r->winner,
                r->to_move, r->nmoves, r->swapped);
}

/* The links of hole h to its 8 knight neighbours. */
static void compare_links_at(const struct where *w, const struct tx_game *g, const struct ref *r,
                             int h)
{
    for (int k = 0; k < 8; k++) {
        int x = h % r->size + step[k][0], y = h / r->size + step[k][1];
        int n, id;
        bool want;
        if (!on_board(r, x, y))
            continue;
        n = y * r->size + x;
        want = r->adj[h] >> k & 1;
        if (tx_game_linked(g, h, n) != want || tx_game_linked(g, n, h) != want)
            failure(w, "tx_game_linked(%d, %d) is %d, reference %d", h, n, tx_game_linked(g, h, n),
                    want);
        if (is_corner(r, x, y) || is_corner(r, h % r->size, h / r->size))
            continue;
        id = tx_geometry_link(g->geo, h, n);
        if (id != expected_link_id(r, h, n) || tx_geometry_link(g->geo, n, h) != id)
            failure(w, "tx_geometry_link(%d, %d) is %d, expected %d", h, n, id,
                    expected_link_id(r, h, n));
        if (tx_game_has_link(g, id) != want)
            failure(w, "tx_game_has_link(%d) (holes %d, %d) is %d, reference %d", id, h, n,
                    tx_game_has_link(g, id), want);
    }
}

static void compare_lists(const struct where *w, const struct tx_game *g, const struct ref *r)
{
    static int16_t got[2 * TX_LINKS_MAX];

    for (int p = 0; p < 2; p++) {
        int n = tx_game_pegs(g, p, got);
        if (n != r->npegs[p] || memcmp(got, r->pegs[p], sizeof got[0] * (size_t)n) != 0)
            failure(w, "tx_game_pegs(%d) gives %d pegs, reference %d, or another order", p, n,
                    r->npegs[p]);
        n = tx_game_links(g, p, got);
        if (n != r->nlinks[p])
            failure(w, "tx_game_links(%d) gives %d links, reference %d", p, n, r->nlinks[p]);
        for (int i = 0; i < 2 * n; i++)
            if (got[i] != r->links[p][i])
                failure(w, "tx_game_links(%d): link %d is %d-%d, reference %d-%d", p, i / 2,
                        got[i & ~1], got[i | 1], r->links[p][i & ~1], r->links[p][i | 1]);
    }
}

static void compare_legal(const struct where *w, const struct tx_game *g, const struct ref *r)
{
    int16_t got[TX_MOVES_MAX];
    uint8_t listed[TX_HOLES_MAX];
    int n = tx_game_legal_moves(g, got);
    int first = 0, nwant = 0;
    bool ongoing = r->status == TX_ONGOING;

    if (ongoing && r->nmoves == 1) {
        if (n < 1 || got[0] != TX_MOVE_SWAP)
            failure(w, "tx_game_legal_moves does not start with SWAP at move 2");
        first = 1;
    }
    /* Compared as sets: the header promises no order for the holes. */
    memset(listed, 0, (size_t)r->holes);
    for (int i = first; i < n; i++) {
        if (got[i] < 0 || got[i] >= r->holes || listed[got[i]])
            failure(w, "tx_game_legal_moves lists %d, off the board or twice", got[i]);
        listed[got[i]] = 1;
    }
    for (int h = 0; h < r->holes; h++) {
        bool want = ongoing && may_play(r, r->to_move, h);
        nwant += want;
        if (listed[h] != want)
            failure(w, "tx_game_legal_moves %s hole %d, the reference %s",
                    listed[h] ? "lists" : "omits", h, want ? "allows it" : "does not");
    }
    if (n - first != nwant)
        failure(w, "tx_game_legal_moves gives %d moves, reference %d", n, nwant + first);
}

static void compare_chain(const struct where *w, const struct tx_game *g, const struct ref *r)
{
    int16_t chain[TX_HOLES_MAX];
    int n = tx_game_winning_chain(g, chain);
    int p = r->winner;

    if (r->status != TX_WON) {
        if (n != 0)
            failure(w, "tx_game_winning_chain gives %d pegs in a game that is not won", n);
        return;
    }
    if (n != ref_chain_length(r, p))
        failure(w, "winning chain of %d pegs, the shortest has %d", n, ref_chain_length(r, p));
    for (int i = 0; i < n; i++)
        if (chain[i] < 0 || chain[i] >= r->holes || r->cell[chain[i]] != p)
            failure(w, "winning chain: element %d is not a peg of the winner", i);
    for (int i = 0; i + 1 < n; i++) {
        int k = step_between(r, chain[i], chain[i + 1]);
        if (k < 0 || !(r->adj[chain[i]] >> k & 1))
            failure(w, "winning chain: elements %d and %d are not linked", i, i + 1);
    }
    {
        int a = p == 0 ? chain[0] / r->size : chain[0] % r->size;
        int b = p == 0 ? chain[n - 1] / r->size : chain[n - 1] % r->size;
        if (a + b != r->size - 1 || (a != 0 && b != 0))
            failure(w, "winning chain does not join the winner's border lines");
    }
}

/* Every knight pair of the board, both colours. */
static void compare_all_links(const struct where *w, const struct tx_game *g, const struct ref *r)
{
    for (int h = 0; h < r->holes; h++)
        compare_links_at(w, g, r, h);
}

/* A random move that may well be illegal: its reason must be one the
 * reference allows, and a refused move must leave the game untouched. */
static void probe(const struct where *w, struct tx_game *g, const struct ref *r,
                  struct tx_splitmix *rng)
{
    static struct tx_game *before;
    int move = random_below(rng, 8) == 0 ? TX_MOVE_SWAP : random_below(rng, r->holes + 8) - 4;
    unsigned allowed = ref_reasons(r, move);
    enum tx_illegal got = tx_game_check(g, move);

    if (allowed == 0 ? got != TX_LEGAL : !(allowed >> got & 1) || got == TX_LEGAL)
        failure(w, "tx_game_check(%d) says %d, reference allows mask 0x%x", move, got, allowed);
    if (got == TX_LEGAL)
        return;
    before = tx_xrealloc(before, g->bytes);
    tx_game_copy(before, g);
    if (tx_game_play(g, move) != got)
        failure(w, "tx_game_play(%d) gives another reason than tx_game_check", move);
    if (memcmp(before, g, g->bytes) != 0)
        failure(w, "tx_game_play(%d) refused the move but changed the game", move);
}

/* write -> parse -> from_input gives the same position back. */
static void compare_input_round_trip(const struct where *w, const struct tx_game *g,
                                     const struct ref *r)
{
    static char text[TX_INPUT_MAX];
    static struct tx_input in;
    static struct tx_game *rebuilt;
    char err[128] = "";
    int len = tx_input_write(g, g->to_move, false, text, sizeof text);

    if (len < 0)
        failure(w, "tx_input_write returned %d", len);
    if (tx_input_parse(g->geo, text, (size_t)len, &in, err, sizeof err) != 0)
        failure(w, "tx_input_parse refused the writer's text: %s", err);
    if (tx_game_from_input(test_game(&rebuilt, g->geo), g->geo, TX_RULES_PP, &in, g->to_move) != 0)
        failure(w, "tx_game_from_input refused the writer's text");
    compare_status(w, rebuilt, r);
    compare_lists(w, rebuilt, r);
    compare_legal(w, rebuilt, r);
    compare_all_links(w, rebuilt, r);
}

static void compare_after_move(const struct where *w, const struct tx_game *g, const struct ref *r,
                               int move, bool full)
{
    compare_status(w, g, r);
    if (move >= 0)
        compare_links_at(w, g, r, move);
    compare_legal(w, g, r);
    if (full || r->status != TX_ONGOING) {
        compare_lists(w, g, r);
        compare_chain(w, g, r);
    }
}

/* Chooses a legal move from the reference: SWAP one time in three when it
 * is allowed, else a uniformly random legal hole. */
static int choose(const struct ref *r, struct tx_splitmix *rng)
{
    int16_t holes[TX_HOLES_MAX];
    int n;

    if (r->nmoves == 1 && random_below(rng, 3) == 0)
        return TX_MOVE_SWAP;
    n = ref_legal_holes(r, r->to_move, holes);
    return holes[random_below(rng, n)];
}

/* Plays both to the end (or `limit` moves), comparing after every move. */
static void play_out(struct where *w, struct tx_game *g, struct ref *r, struct tx_splitmix *rng,
                     int limit)
{
    bool small = r->size <= 12; /* lists compared every 4th move, else every 16th */

    for (int i = 0; i < limit && r->status == TX_ONGOING; i++) {
        int move = choose(r, rng);
        enum tx_illegal why = tx_game_check(g, move);
        if (why != TX_LEGAL)
            failure(w, "tx_game_check refuses move %d (reason %d), which the reference allows",
                    move, why);
        why = tx_game_play(g, move);
        if (why != TX_LEGAL)
            failure(w, "tx_game_play refuses move %d (reason %d), which the reference allows", move,
                    why);
        ref_play(r, move);
        w->move = r->nmoves;
        compare_after_move(w, g, r, move == TX_MOVE_SWAP ? r->pegs[1][0] : move,
                           r->nmoves % (small ? 4 : 16) == 0);
        if (random_below(rng, 4) == 0)
            probe(w, g, r, rng);
    }
}

static uint64_t base_seed(void)
{
    const char *s = getenv("TX_RANDOM_SEED");
    return s ? strtoull(s, NULL, 0) : DEFAULT_SEED;
}

static int scaled(int count)
{
    const char *s = getenv("TX_RANDOM_SCALE");
    double k = s ? atof(s) : 1.0;
    return k > 0 ? (int)(count * k + 0.5) : count;
}

/* Sizes and game counts: 12 x 12 is the real game; 5 ends in draws often,
 * 7 is small and odd, 24 is large (and slow to compare, so fewer). */
static const struct {
    int size, games;
} plan[] = {{12, 10000}, {5, 2000}, {7, 3000}, {24, 200}};

static struct tx_geometry *geo_storage;
static struct tx_game *game;
static struct ref reference, reference_copy;

START_TEST(random_games_match_reference)
{
    int size = plan[_i].size, games = scaled(plan[_i].games);
    uint64_t base = base_seed();
    struct where w = {.size = size};

    long moves = 0, won = 0, drawn = 0, swaps = 0;
    struct timespec t0, t1;

    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
    ck_assert_int_eq((tx_geometry_free(geo_storage), tx_geometry_new(size, size, &geo_storage)), 0);
    for (int i = 0; i < games; i++) {
        uint64_t seed = base ^ ((uint64_t)size << 48) ^ (uint64_t)i;
        struct tx_splitmix rng = {seed};
        w.game = i;
        w.seed = seed;
        w.move = 0;
        test_game(&game, geo_storage);
        ref_init(&reference, size);
        compare_after_move(&w, game, &reference, -1, true);
        if (i % 2 == 0) {
            /* One game in 2 stops somewhere for the turn input round trip. */
            play_out(&w, game, &reference, &rng, random_below(&rng, size * size / 2));
            if (reference.status == TX_ONGOING)
                compare_input_round_trip(&w, game, &reference);
        }
        play_out(&w, game, &reference, &rng, TX_MOVES_MAX);
        /* At the end: every link of the board, both lists, the chain,
         * and moves after the end. */
        w.move = reference.nmoves;
        compare_lists(&w, game, &reference);
        compare_chain(&w, game, &reference);
        compare_all_links(&w, game, &reference);
        for (int k = 0; k < 3; k++)
            probe(&w, game, &reference, &rng);
        moves += reference.nmoves;
        won += reference.status == TX_WON;
        drawn += reference.status == TX_DRAWN;
        swaps += reference.swapped;
    }
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
    /* Figures, so a slow run or a lopsided sample shows in the log. */
    fprintf(stderr,
            "size %2d: %d games (%ld won, %ld drawn, %ld with a swap), %ld moves, %.2f s of CPU\n",
            size, games, won, drawn, swaps, moves,
            (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9);
}
END_TEST

/* Assignment copies a game: play on the copy, the original must not move;
 * then the original plays on and still matches its reference. Also checks
 * the turn input round trip at the point of the copy. */
START_TEST(game_copy_is_independent)
{
    static const int sizes[] = {12, 7, 24};
    int size = sizes[_i];
    int games = scaled(size == 24 ? 40 : 300);
    static struct tx_game *copy, *snapshot;
    struct where w = {.size = size};

    ck_assert_int_eq((tx_geometry_free(geo_storage), tx_geometry_new(size, size, &geo_storage)), 0);
    for (int i = 0; i < games; i++) {
        uint64_t seed = base_seed() ^ 0xC0FFEEULL ^ ((uint64_t)size << 48) ^ (uint64_t)i;
        struct tx_splitmix rng = {seed};
        int split_at = 1 + random_below(&rng, size * 3);
        w.game = i;
        w.seed = seed;
        w.move = 0;
        test_game(&game, geo_storage);
        ref_init(&reference, size);
        play_out(&w, game, &reference, &rng, split_at);
        if (reference.status != TX_ONGOING)
            continue;
        compare_input_round_trip(&w, game, &reference);
        tx_game_copy(test_game(&snapshot, geo_storage), game);
        tx_game_copy(test_game(&copy, geo_storage), game); /* the copy under test */
        reference_copy = reference;
        play_out(&w, copy, &reference_copy, &rng, TX_MOVES_MAX);
        if (memcmp(snapshot, game, game->bytes) != 0)
            failure(&w, "playing on a copy changed the original game");
        w.move = reference.nmoves;
        compare_after_move(&w, game, &reference, -1, true);
        play_out(&w, game, &reference, &rng, TX_MOVES_MAX);
        compare_all_links(&w, game, &reference);
    }
}
END_TEST

/* Turn inputs with random damage (bytes changed, dropped or added, lines
 * dropped or doubled, numbers put in, holes renamed): the parser and
 * tx_game_from_input must never crash (this runs under ASan too), and a
 * position they accept must be stable: written again, parsed again and
 * rebuilt again it gives the same pegs and links, and its legal list agrees
 * with tx_game_check. */
static size_t damage(char *text, size_t len, size_t cap, int size, struct tx_splitmix *rng)
{
    int op = random_below(rng, 9);
    size_t at = len ? (size_t)random_below(rng, (int)len) : 0;
    size_t start = at, end = at;

    while (start > 0 && text[start - 1] != '\n')
        start--;
    while (end < len && text[end] != '\n')
        end++;
    if (end < len)
        end++; /* the line with its "\n" is text[start, end) */
    switch (op) {
    case 0: /* change a byte, to anything */
        if (len)
            text[at] = (char)random_below(rng, 256);
        break;
    case 1: /* drop a byte */
        if (len) {
            memmove(text + at, text + at + 1, len - at - 1);
            len--;
        }
        break;
    case 2: /* double a line */
        if (len + (end - start) <= cap) {
            memmove(text + end + (end - start), text + end, len - end);
            memcpy(text + end, text + start, end - start);
            len += end - start;
        }
        break;
    case 3: /* drop a line */
        memmove(text + start, text + end, len - end);
        len -= end - start;
        break;
    case 4: { /* replace a line by a number */
        char num[16];
        int n =
            snprintf(num, sizeof num, "%d\n",
                     random_below(rng, 3) == 0 ? random_below(rng, 100000) : random_below(rng, 12));
        if (len - (end - start) + (size_t)n <= cap) {
            memmove(text + start + n, text + end, len - end);
            memcpy(text + start, num, (size_t)n);
            len = len - (end - start) + (size_t)n;
        }
        break;
    }
    case 5: /* add a byte */
        if (len < cap) {
            memmove(text + at + 1, text + at, len - at);
            text[at] = "A1 \n0Z\r-"[random_below(rng, 9)];
            len++;
        }
        break;
    default: { /* rename a hole: the text stays well-formed, the position changes */
        char name[8];
        size_t tok = start, tok_end;
        int n;
        if (start == end || text[start] < 'A' || text[start] > 'Z' || text[start + 1] == 'I' ||
            text[start + 1] == 'W')
            break; /* not a peg or link line (FIRST, SWAP) */
        tok_end = tok;
        while (tok_end < end && text[tok_end] != ' ' && text[tok_end] != '\n')
            tok_end++;
        if (tok_end < end && text[tok_end] == ' ' && random_below(rng, 2)) {
            tok = tok_end + 1; /* the second hole of a link line */
            tok_end = tok;
            while (tok_end < end && text[tok_end] != '\n')
                tok_end++;
        }
        n = snprintf(name, sizeof name, "%c%d", 'A' + random_below(rng, size),
                     1 + random_below(rng, size));
        if (len - (tok_end - tok) + (size_t)n <= cap) {
            memmove(text + tok + n, text + tok_end, len - tok_end);
            memcpy(text + tok, name, (size_t)n);
            len = len - (tok_end - tok) + (size_t)n;
        }
        break;
    }
    }
    return len;
}

START_TEST(damaged_inputs_are_refused_or_stable)
{
    static const int sizes[] = {12, 5, 26};
    int size = sizes[_i];
    int rounds = scaled(size == 26 ? 300 : 1500);
    static char text[TX_INPUT_MAX], again[TX_INPUT_MAX];
    static struct tx_input in, in2;
    static struct tx_game *rebuilt, *rebuilt2;
    static int16_t a[2 * TX_LINKS_MAX], b[2 * TX_LINKS_MAX];
    struct where w = {.size = size};
    long accepted = 0;

    ck_assert_int_eq((tx_geometry_free(geo_storage), tx_geometry_new(size, size, &geo_storage)), 0);
    for (int i = 0; i < rounds; i++) {
        uint64_t seed = base_seed() ^ 0xBADULL ^ ((uint64_t)size << 48) ^ (uint64_t)i;
        struct tx_splitmix rng = {seed};
        int len;
        size_t n;
        w.game = i;
        w.seed = seed;
        test_game(&game, geo_storage);
        ref_init(&reference, size);
        play_out(&w, game, &reference, &rng, random_below(&rng, size * size / 2));
        if (reference.status != TX_ONGOING)
            continue;
        len = tx_input_write(game, game->to_move, false, text, sizeof text);
        ck_assert_int_ge(len, 0);
        n = (size_t)len;
        for (int k = 1 + random_below(&rng, 3); k > 0; k--)
            n = damage(text, n, sizeof text, size, &rng);
        if (tx_input_parse(geo_storage, text, n, &in, NULL, 0) != 0)
            continue;
        for (int me = 0; me < 2; me++) {
            if (tx_game_from_input(test_game(&rebuilt, geo_storage), geo_storage, TX_RULES_PP, &in,
                                   me) != 0)
                continue;
            accepted++;
            len = tx_input_write(rebuilt, rebuilt->to_move, false, again, sizeof again);
            if (len < 0 || tx_input_parse(geo_storage, again, (size_t)len, &in2, NULL, 0) != 0 ||
                tx_game_from_input(test_game(&rebuilt2, geo_storage), geo_storage, TX_RULES_PP,
                                   &in2, rebuilt->to_move) != 0)
                failure(&w,
                        "an accepted damaged input does not survive write, parse, rebuild:\n%.*s",
                        (int)n, text);
            for (int p = 0; p < 2; p++) {
                int na = tx_game_pegs(rebuilt, p, a), nb = tx_game_pegs(rebuilt2, p, b);
                if (na != nb || memcmp(a, b, sizeof a[0] * (size_t)na) != 0)
                    failure(&w, "pegs change when an accepted input is rebuilt again");
                na = tx_game_links(rebuilt, p, a);
                nb = tx_game_links(rebuilt2, p, b);
                if (na != nb || memcmp(a, b, sizeof a[0] * 2 * (size_t)na) != 0)
                    failure(&w, "links change when an accepted input is rebuilt again");
            }
            {
                int nl = tx_game_legal_moves(rebuilt, a), count = 0;
                for (int h = 0; h < geo_storage->holes; h++)
                    count += tx_game_check(rebuilt, h) == TX_LEGAL;
                count += tx_game_check(rebuilt, TX_MOVE_SWAP) == TX_LEGAL;
                if (nl != count)
                    failure(&w, "legal list (%d) and tx_game_check (%d) disagree on a rebuilt game",
                            nl, count);
            }
        }
    }
    fprintf(stderr, "size %2d: %d damaged inputs, %ld accepted as positions\n", size, rounds,
            accepted);
}
END_TEST

/* The per-size tables of geometry.h, for every size, against the same
 * plain predicates: zones, neighbours, link ids and ends, and above all the
 * crossing lists that every link decision of the game relies on (found
 * here by testing every link that starts within 4 holes). */
START_TEST(geometry_matches_reference)
{
    int size = TX_SIZE_MIN + _i;
    struct ref r;
    struct where w = {.size = size, .game = -1};
    ref_init(&r, size);
    ck_assert_int_eq((tx_geometry_free(geo_storage), tx_geometry_new(size, size, &geo_storage)), 0);
    const struct tx_geometry *geo = geo_storage;
    ck_assert_int_eq(geo->width, size);
    ck_assert_int_eq(geo->height, size);
    ck_assert_int_eq(geo->holes, size * size);
    ck_assert_int_eq(tx_geometry_hole(geo, -1, 0), -1);
    ck_assert_int_eq(tx_geometry_hole(geo, 0, size), -1);
    ck_assert_int_eq(tx_geometry_hole(geo, size, 0), -1);
    {
        char off[16];
        int h = -1;
        snprintf(off, sizeof off, "A%d", size + 1);
        ck_assert_int_eq(tx_hole_parse(geo, off, strlen(off), &h), TX_HOLE_OUT_OF_RANGE);
        /* The column after the last: a letter, or two from the 27th on. */
        if (size < 26)
            snprintf(off, sizeof off, "%c1", 'A' + size);
        else
            snprintf(off, sizeof off, "%c%c1", 'A' + (size - 26) / 26, 'A' + (size - 26) % 26);
        ck_assert_int_eq(tx_hole_parse(geo, off, strlen(off), &h), TX_HOLE_OUT_OF_RANGE);
        ck_assert_int_eq(tx_hole_parse(geo, "B01", 3, &h), TX_HOLE_MALFORMED);
        ck_assert_int_eq(tx_hole_parse(geo, "b1", 2, &h), TX_HOLE_MALFORMED);
    }
    for (int h = 0; h < r.holes; h++) {
        int x = h % size, y = h / size;
        bool corner = is_corner(&r, x, y);
        unsigned want = (y == 0 ? TX_ZONE_ROW_FIRST : 0) | (y == size - 1 ? TX_ZONE_ROW_LAST : 0) |
                        (x == 0 ? TX_ZONE_COL_FIRST : 0) | (x == size - 1 ? TX_ZONE_COL_LAST : 0) |
                        (corner ? TX_ZONE_CORNER : 0) |
                        (may_play(&r, 0, h) ? TX_ZONE_PLAYER0_OK : 0) |
                        (may_play(&r, 1, h) ? TX_ZONE_PLAYER1_OK : 0);
        if (geo->zone[h] != want)
            failure(&w, "zone of hole %d is 0x%x, expected 0x%x", h, geo->zone[h], want);
        if (tx_geometry_hole(geo, x, y) != h || tx_geometry_mirror(geo, h) != x * size + y)
            failure(&w, "tx_geometry_hole or tx_geometry_mirror wrong at %d", h);
        for (int p = 0; p < 2; p++)
            if (tx_geometry_playable(geo, p, h) != may_play(&r, p, h))
                failure(&w, "tx_geometry_playable(%d, %d) is wrong", p, h);
        {
            /* Names both ways (hole.h): a letter (two from column 27 on:
             * AA, AB, ...), then the row without zeros. */
            char want_name[16], got_name[TX_HOLE_NAME_MAX + 4];
            int back = -1;
            if (x < 26)
                snprintf(want_name, sizeof want_name, "%c%d", 'A' + x, y + 1);
            else
                snprintf(want_name, sizeof want_name, "%c%c%d", 'A' + x / 26 - 1, 'A' + x % 26,
                         y + 1);
            memset(got_name, 0, sizeof got_name);
            if (strcmp(tx_hole_name(geo, h, got_name), want_name) != 0)
                failure(&w, "tx_hole_name(%d) is \"%s\", expected %s", h, got_name, want_name);
            if (tx_hole_parse(geo, want_name, strlen(want_name), &back) != TX_HOLE_OK || back != h)
                failure(&w, "tx_hole_parse(%s) does not give %d", want_name, h);
        }
        if (corner)
            continue;
        /* neighbour[h] holds exactly the existing knight neighbours. */
        for (int k = 0; k < 8; k++) {
            int nx = x + step[k][0], ny = y + step[k][1];
            bool exists = on_board(&r, nx, ny) && !is_corner(&r, nx, ny);
            int n = ny * size + nx, found = -1;
            for (int j = 0; j < 8; j++)
                if (geo->neighbour[h][j] == n && exists)
                    found = j;
            if (exists != (found >= 0))
                failure(&w, "neighbour[%d] %s %d", h, exists ? "lacks" : "has", n);
            if (found >= 0 && geo->link_of[h][found] != expected_link_id(&r, h, n))
                failure(&w, "link_of[%d][%d] is %d, expected %d", h, found, geo->link_of[h][found],
                        expected_link_id(&r, h, n));
        }
        for (int j = 0; j < 8; j++) {
            int n = geo->neighbour[h][j];
            if (n < 0 && geo->link_of[h][j] != TX_NO_LINK)
                failure(&w, "link_of[%d][%d] is %d for no neighbour", h, j, geo->link_of[h][j]);
            if (n >= 0 &&
                (n >= r.holes || step_between(&r, h, n) < 0 || is_corner(&r, n % size, n / size)))
                failure(&w, "neighbour[%d][%d] is %d, no knight neighbour", h, j, n);
        }
    }
    for (int id = 0; id < 4 * r.holes; id++) {
        int a = id / 4, ax = a % size, ay = a / size;
        int bx = ax + step[id % 4][0], by = ay + step[id % 4][1];
        int b = by * size + bx;
        bool exists = !is_corner(&r, ax, ay) && on_board(&r, bx, by) && !is_corner(&r, bx, by);
        int listed = 0, want = 0;
        if (!exists) {
            if (geo->link_end[id][0] != -1 || geo->link_end[id][1] != -1)
                failure(&w, "link_end[%d] is set for a link that does not exist", id);
            continue;
        }
        if (geo->link_end[id][0] != a || geo->link_end[id][1] != b)
            failure(&w, "link_end[%d] is %d-%d, expected %d-%d", id, geo->link_end[id][0],
                    geo->link_end[id][1], a, b);
        for (int i = 0; i < TX_CROSSINGS; i++) {
            int c = geo->crossing[id][i];
            if (c == TX_NO_LINK)
                continue;
            if (i > 0 && geo->crossing[id][i - 1] == TX_NO_LINK)
                failure(&w, "crossing[%d] has padding before an entry (it must be at the end)", id);
            listed++;
            if (c >= 4 * r.holes || geo->link_end[c][0] < 0 ||
                !segments_cross(&r, a, b, geo->link_end[c][0], geo->link_end[c][1]))
                failure(&w, "crossing[%d] lists %d, which does not cross it", id, c);
        }
        for (int cy = ay - 4; cy <= ay + 4; cy++)
            for (int cx = ax - 4; cx <= ax + 4; cx++)
                for (int d = 0; d < 4; d++) {
                    int ex = cx + step[d][0], ey = cy + step[d][1];
                    if (!on_board(&r, cx, cy) || is_corner(&r, cx, cy) || !on_board(&r, ex, ey) ||
                        is_corner(&r, ex, ey))
                        continue;
                    want += segments_cross(&r, a, b, cy * size + cx, ey * size + ex);
                }
        if (listed != want)
            failure(&w, "crossing[%d] lists %d links, %d existing links cross it", id, listed,
                    want);
        /* Crossing links end within one hole of the link's box. */
        if (ax >= 2 && bx <= size - 3 && (ay < by ? ay : by) >= 2 &&
            (ay > by ? ay : by) <= size - 3 && want != TX_CROSSINGS)
            failure(&w, "an inner link is crossed by %d links, not %d", want, TX_CROSSINGS);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("random-games");
    TCase *tc = tcase_create("reference");
    SRunner *sr;
    int failed;

    fprintf(stderr, "test-random-games: base seed 0x%llx (TX_RANDOM_SEED to change)\n",
            (unsigned long long)base_seed());
    tcase_add_loop_test(tc, random_games_match_reference, 0, (int)(sizeof plan / sizeof plan[0]));
    tcase_add_loop_test(tc, game_copy_is_independent, 0, 3);
    tcase_add_loop_test(tc, geometry_matches_reference, 0, TX_SIZE_MAX - TX_SIZE_MIN + 1);
    tcase_add_loop_test(tc, damaged_inputs_are_refused_or_stable, 0, 3);
    tcase_set_timeout(tc, 280);
    suite_add_tcase(s, tc);
    sr = srunner_create(s);
    srunner_run_all(sr, CK_ENV);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? 0 : 1;
}
