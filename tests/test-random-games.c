/* test-random-games.c - libtwixt's game against plain references, over
 * thousands of seeded random games.
 *
 * The first reference below (pp on square boards) is written from
 * RULES.md alone and is deliberately naive: a new peg's links are found by
 * trying every older peg of its colour and testing the segment against
 * every link of the opponent with integer orientation tests; wins by a
 * breadth-first search over the mover's links; draws and the legal list by
 * scanning every hole; the link order by walking the mover's pegs in
 * placement order. After every move the game (game.h) must agree with it
 * on the new peg's links (tx_game_linked, tx_game_has_link, and the link
 * id of geometry.h), the result, the legal moves and the reason given for
 * illegal probes; on the peg and link lists in order every 4th move (16th
 * on large boards) and at the end; and on a won game's chain. Copies made
 * by assignment must be independent games, and positions rebuilt from the
 * turn input text (input.h), in half of the games, must equal the game
 * they came from. The per-size tables of geometry.h (zones, neighbours,
 * link ids, crossing lists) and the hole names (hole.h) are checked the
 * same way for every size, and damaged turn inputs must be refused or
 * rebuild stably.
 *
 * The second reference ("the TwixT family", further down) plays any board
 * from 5 x 5 to 100 x 100, square or not, under pp and classic, with the
 * classic link edits, written differently again: links as a plain list of
 * segments, crossings decided geometrically, wins by a flood fill, edits
 * tried in RULES.md's order and undone when one is refused. Random games
 * with random edits (removals, additions, declines, valid and invalid)
 * must agree with it on every move's legality, reason, edit at fault and
 * detail, the links around every change, the result, and regularly on the
 * full lists, the legal moves and the turn input text it writes itself;
 * once per game the input round trip too. Each game is then written as the
 * referee writes a record (one in 3 ending on an invalid answer), which
 * tx_verify_record (referee/verify.h) must accept, before and after a trip
 * through JSON, and refuse once an addition in it is turned into a removal.
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

#include "alloc.h"
#include "answer.h"
#include "game.h"
#include "test-game.h"
#include "geometry.h"
#include "hole.h"
#include "input.h"
#include "record.h"
#include "rules.h"
#include "splitmix.h"
#include "verify.h"

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

/* ==== the TwixT family: W x H boards, pp and classic, link edits ==== */

/* A second reference, for any board and both rule sets with the classic
 * link edits, written from RULES.md and on purpose unlike game.c: links
 * are a plain list of segments (no link ids, bit tables or crossing
 * tables), two links cross when their segments do (orientation tests on
 * the coordinates), a win is a flood fill over the mover's segments from
 * its first border line, the list order comes from sorting, and a move
 * with edits is tried step by step in RULES.md's order and undone when an
 * edit is refused. Each segment is also filed under the lower-left corner
 * of its bounding box, only to spare scanning the whole list: two
 * segments that cross share a point, so their boxes overlap, and a knight
 * segment's box spans 2 by 1 or 1 by 2, so the corner of a segment that
 * crosses a given one is at most 2 columns and 2 rows before the given
 * one's box (in x and in y). */

struct fseg {
    int16_t a, b; /* the older peg, the newer */
    int8_t owner; /* 0 or 1 */
    bool alive;   /* false once removed */
    int32_t next; /* the next segment filed under the same corner, or -1 */
};

struct fam {
    int width, height, holes;
    enum tx_rules rules;
    int8_t *cell;     /* [holes] -1 vacant, else the player */
    int32_t *when;    /* [holes] the move that placed the peg there */
    int16_t *pegs[2]; /* [holes] each player's pegs in placement order */
    int npegs[2];
    struct fseg *seg; /* every segment made, removed ones included */
    int nseg, segcap;
    int32_t *corner; /* [holes] the last segment filed under that corner, or -1 */
    int nmoves, to_move, status, winner;
    bool swapped;
};

/* What the reference says of a move: legal, or why not, which edit, and
 * for a crossing every link the edit crosses (RULES.md names "the first
 * crossed link found", an order it does not define). */
struct fverdict {
    enum tx_illegal why;
    unsigned also; /* hole reasons that apply as well (RULES.md gives no precedence) */
    int edit;      /* the edit at fault, or -1 */
    int ncrossed;
    int16_t crossed[TX_CROSSINGS][2]; /* older peg, newer peg */
};

struct fwhere {
    int width, height, game, move;
    enum tx_rules rules;
    uint64_t seed;
};

static void ffail(const struct fwhere *w, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void ffail(const struct fwhere *w, const char *fmt, ...)
{
    char msg[2048];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    ck_abort_msg("%s %dx%d, game %d (seed 0x%016llx), after move %d: %s",
                 tx_ruleset(w->rules)->name, w->width, w->height, w->game,
                 (unsigned long long)w->seed, w->move, msg);
}

static void fam_init(struct fam *f, int width, int height, enum tx_rules rules)
{
    size_t holes = (size_t)width * (size_t)height;

    f->width = width;
    f->height = height;
    f->holes = (int)holes;
    f->rules = rules;
    f->cell = tx_xrealloc(f->cell, holes);
    f->when = tx_xrealloc(f->when, holes * sizeof *f->when);
    f->corner = tx_xrealloc(f->corner, holes * sizeof *f->corner);
    for (int p = 0; p < 2; p++) {
        f->pegs[p] = tx_xrealloc(f->pegs[p], holes * sizeof *f->pegs[p]);
        f->npegs[p] = 0;
    }
    memset(f->cell, -1, holes);
    for (size_t h = 0; h < holes; h++)
        f->corner[h] = f->when[h] = -1;
    f->nseg = 0;
    f->nmoves = f->to_move = 0;
    f->status = TX_ONGOING;
    f->winner = -1;
    f->swapped = false;
}

static bool fam_on_board(const struct fam *f, int x, int y)
{
    return x >= 0 && y >= 0 && x < f->width && y < f->height;
}

static bool fam_is_corner(const struct fam *f, int x, int y)
{
    return (x == 0 || x == f->width - 1) && (y == 0 || y == f->height - 1);
}

/* A hole that exists: on the board and not a corner. */
static bool fam_exists(const struct fam *f, int x, int y)
{
    return fam_on_board(f, x, y) && !fam_is_corner(f, x, y);
}

/* Player 0 never uses the first and last columns, player 1 never the first
 * and last rows. */
static bool fam_may_play(const struct fam *f, int player, int h)
{
    int x = h % f->width, y = h / f->width;
    bool border = player == 0 ? x == 0 || x == f->width - 1 : y == 0 || y == f->height - 1;
    return f->cell[h] < 0 && !fam_is_corner(f, x, y) && !border;
}

static bool knight_apart(int ax, int ay, int bx, int by)
{
    int dx = abs(ax - bx), dy = abs(ay - by);
    return (dx == 1 && dy == 2) || (dx == 2 && dy == 1);
}

/* Segments (a, b) and (c, d), holes of f, cross in a point that is no
 * shared end (RULES.md "A move"). */
static bool fam_cross(const struct fam *f, int a, int b, int c, int d)
{
    int w = f->width;
    int ax = a % w, ay = a / w, bx = b % w, by = b / w;
    int cx = c % w, cy = c / w, dx = d % w, dy = d / w;

    if (a == c || a == d || b == c || b == d)
        return false;
    return orientation(ax, ay, bx, by, cx, cy) * orientation(ax, ay, bx, by, dx, dy) < 0 &&
           orientation(cx, cy, dx, dy, ax, ay) * orientation(cx, cy, dx, dy, bx, by) < 0;
}

/* The hole the lower-left corner of segment (a, b)'s box is. */
static int fam_corner_of(const struct fam *f, int a, int b)
{
    int w = f->width;
    int x = a % w < b % w ? a % w : b % w, y = a / w < b / w ? a / w : b / w;
    return y * w + x;
}

static int fam_add(struct fam *f, int older, int newer, int owner)
{
    int c = fam_corner_of(f, older, newer);

    if (f->nseg == f->segcap) {
        f->segcap = f->segcap ? 2 * f->segcap : 1024;
        f->seg = tx_xrealloc(f->seg, (size_t)f->segcap * sizeof *f->seg);
    }
    f->seg[f->nseg] =
        (struct fseg){(int16_t)older, (int16_t)newer, (int8_t)owner, true, f->corner[c]};
    f->corner[c] = f->nseg;
    return f->nseg++;
}

/* Drops the segments made after the first `keep` (the last made first). */
static void fam_drop_after(struct fam *f, int keep)
{
    while (f->nseg > keep) {
        const struct fseg *s = &f->seg[--f->nseg];
        f->corner[fam_corner_of(f, s->a, s->b)] = s->next;
    }
}

/* The segment joining a and b (either colour, either way round) that is
 * on the board, or -1. */
static int fam_find(const struct fam *f, int a, int b)
{
    for (int i = f->corner[fam_corner_of(f, a, b)]; i >= 0; i = f->seg[i].next) {
        const struct fseg *s = &f->seg[i];
        if (s->alive && ((s->a == a && s->b == b) || (s->a == b && s->b == a)))
            return i;
    }
    return -1;
}

/* The segments on the board that stop a link (a, b) of player `mover`:
 * under classic every one it crosses, under pp those of the opponent.
 * Writes up to TX_CROSSINGS of them into out (may be NULL), returns how
 * many there are. */
static int fam_blockers(const struct fam *f, int a, int b, int mover, int *out)
{
    int w = f->width;
    int x0 = a % w < b % w ? a % w : b % w, x1 = a % w < b % w ? b % w : a % w;
    int y0 = a / w < b / w ? a / w : b / w, y1 = a / w < b / w ? b / w : a / w;
    int n = 0;

    for (int y = y0 - 2; y <= y1; y++)
        for (int x = x0 - 2; x <= x1; x++) {
            if (!fam_on_board(f, x, y))
                continue;
            for (int i = f->corner[y * w + x]; i >= 0; i = f->seg[i].next) {
                const struct fseg *s = &f->seg[i];
                if (!s->alive || (f->rules == TX_RULES_PP && s->owner == mover) ||
                    !fam_cross(f, a, b, s->a, s->b))
                    continue;
                if (out && n < TX_CROSSINGS)
                    out[n] = i;
                n++;
            }
        }
    return n;
}

/* The pegs linked to the peg in h, by the segments filed around it. */
static int fam_neighbours(const struct fam *f, int h, int16_t *out)
{
    int w = f->width, x = h % w, y = h / w, n = 0;

    for (int cy = y - 2; cy <= y; cy++)
        for (int cx = x - 2; cx <= x; cx++) {
            if (!fam_on_board(f, cx, cy))
                continue;
            for (int i = f->corner[cy * w + cx]; i >= 0; i = f->seg[i].next) {
                const struct fseg *s = &f->seg[i];
                if (s->alive && (s->a == h || s->b == h))
                    out[n++] = s->a == h ? s->b : s->a;
            }
        }
    return n;
}

/* Length in pegs of a shortest chain of player's links from its first
 * border line to its last (a flood fill, breadth first), 0 when none. */
static int fam_chain_length(const struct fam *f, int player, int32_t *dist, int16_t *queue)
{
    int head = 0, tail = 0;
    int last = player == 0 ? f->height - 1 : f->width - 1;

    for (int i = 0; i < f->npegs[player]; i++)
        dist[f->pegs[player][i]] = 0;
    for (int i = 0; i < f->npegs[player]; i++) {
        int h = f->pegs[player][i];
        if ((player == 0 ? h / f->width : h % f->width) == 0) {
            dist[h] = 1;
            queue[tail++] = (int16_t)h;
        }
    }
    while (head < tail) {
        int h = queue[head++];
        int16_t nb[8];
        int n = fam_neighbours(f, h, nb);
        if ((player == 0 ? h / f->width : h % f->width) == last)
            return dist[h];
        for (int k = 0; k < n; k++)
            if (dist[nb[k]] == 0) {
                dist[nb[k]] = dist[h] + 1;
                queue[tail++] = nb[k];
            }
    }
    return 0;
}

static int32_t *fam_dist;
static int16_t *fam_queue;

static int fam_chain(const struct fam *f, int player)
{
    fam_dist = tx_xrealloc(fam_dist, (size_t)f->holes * sizeof *fam_dist);
    fam_queue = tx_xrealloc(fam_queue, (size_t)f->holes * sizeof *fam_queue);
    return fam_chain_length(f, player, fam_dist, fam_queue);
}

/* Player's links in RULES.md's order: by the placement of the newer peg,
 * then of the older; out[2k] older, out[2k+1] newer. */
static const struct fam *sorting;
static int by_placement(const void *pa, const void *pb)
{
    const int16_t *a = pa, *b = pb;
    if (sorting->when[a[1]] != sorting->when[b[1]])
        return sorting->when[a[1]] < sorting->when[b[1]] ? -1 : 1;
    return sorting->when[a[0]] < sorting->when[b[0]] ? -1
                                                     : sorting->when[a[0]] > sorting->when[b[0]];
}

static int fam_links(const struct fam *f, int player, int16_t *out)
{
    int n = 0;

    for (int i = 0; i < f->nseg; i++)
        if (f->seg[i].alive && f->seg[i].owner == player) {
            out[2 * n] = f->seg[i].a;
            out[2 * n + 1] = f->seg[i].b;
            n++;
        }
    sorting = f;
    qsort(out, (size_t)n, 2 * sizeof *out, by_placement);
    return n;
}

/* Names written here, not with hole.h: letters in base 26 with digits A = 1
 * .. Z = 26 (AA is column 27), then the row from 1. */
static char *xy_name(int x, int y, char *buf)
{
    if (x < 26)
        sprintf(buf, "%c%d", 'A' + x, y + 1);
    else
        sprintf(buf, "%c%c%d", 'A' + x / 26 - 1, 'A' + x % 26, y + 1);
    return buf;
}

static char *fam_name(const struct fam *f, int h, char *buf)
{
    return xy_name(h % f->width, h / f->width, buf);
}

static char *edit_text(const struct tx_edit *e, char *buf)
{
    char a[16], b[16];
    sprintf(buf, "%c%s:%s", e->kind, xy_name(e->ax, e->ay, a), xy_name(e->bx, e->by, b));
    return buf;
}

/* "MOVE EDIT...", for messages. */
static char *answer_text(const char *move, const struct tx_edit *edits, int n, char *buf,
                         size_t cap)
{
    size_t len = (size_t)snprintf(buf, cap, "%s", move);
    for (int i = 0; i < n && len + 16 < cap; i++) {
        char e[32];
        len += (size_t)snprintf(buf + len, cap - len, " %s", edit_text(&edits[i], e));
    }
    return buf;
}

/* The holes an edit names, or why it names no link: off the board, a
 * corner, not a knight's move. */
static enum tx_illegal fam_edit_holes(const struct fam *f, const struct tx_edit *e, int *a, int *b)
{
    if (!fam_exists(f, e->ax, e->ay) || !fam_exists(f, e->bx, e->by))
        return TX_ILLEGAL_EDIT_NO_HOLE;
    if (!knight_apart(e->ax, e->ay, e->bx, e->by))
        return TX_ILLEGAL_EDIT_NOT_KNIGHT;
    *a = e->ay * f->width + e->ax;
    *b = e->by * f->width + e->bx;
    return TX_LEGAL;
}

/* Plays move with its edits for the player to move when legal, in
 * RULES.md's order; else leaves f as it was and says why in *v. With
 * commit false, f is left as it was either way (tx_game_check_edits). */
static void fam_play(struct fam *f, int move, const struct tx_edit *edits, int n, bool commit,
                     struct fverdict *v)
{
    int p = f->to_move, keep = f->nseg, nkilled = 0, ndeclined = 0;
    int killed[TX_EDITS_MAX], declined[TX_EDITS_MAX];
    int w = f->width;

    memset(v, 0, sizeof *v);
    v->edit = -1;
    if (f->status != TX_ONGOING) {
        v->why = TX_ILLEGAL_GAME_OVER;
        return;
    }
    if (move == TX_MOVE_SWAP) {
        if (f->nmoves != 1 || f->width != f->height)
            v->why = TX_ILLEGAL_SWAP;
        else if (n > 0)
            v->why = TX_ILLEGAL_EDITS;
        if (v->why != TX_LEGAL || !commit)
            return;
        int h = f->pegs[0][0], mirror = (h % w) * w + h / w;
        f->cell[h] = -1;
        f->npegs[0] = 0;
        f->cell[mirror] = 1;
        f->when[mirror] = 1;
        f->pegs[1][f->npegs[1]++] = (int16_t)mirror;
        f->swapped = true;
        f->nmoves++;
        f->to_move = 0;
        return; /* one peg each at most: no link, no end */
    }
    if (move < 0 || move >= f->holes) {
        v->why = TX_ILLEGAL_OUT_OF_RANGE;
        return;
    }
    if (fam_is_corner(f, move % w, move / w)) {
        v->why = TX_ILLEGAL_CORNER;
        return;
    }
    if (f->cell[move] >= 0)
        v->also |= 1u << TX_ILLEGAL_OCCUPIED;
    if (p == 0 ? move % w == 0 || move % w == w - 1 : move / w == 0 || move / w == f->height - 1)
        v->also |= 1u << TX_ILLEGAL_OPPONENT_BORDER;
    if (v->also) {
        v->why = v->also & (1u << TX_ILLEGAL_OCCUPIED) ? TX_ILLEGAL_OCCUPIED
                                                       : TX_ILLEGAL_OPPONENT_BORDER;
        return;
    }
    if (n > 0 && f->rules != TX_RULES_CLASSIC) {
        v->why = TX_ILLEGAL_EDITS;
        return;
    }

    /* The removals, whatever their place in the line. */
    for (int i = 0; i < n && !v->why; i++) {
        int a, b, s;
        if (edits[i].kind != '-')
            continue;
        v->edit = i;
        v->why = fam_edit_holes(f, &edits[i], &a, &b);
        if (v->why)
            break;
        s = fam_find(f, a, b);
        if (s < 0)
            v->why = TX_ILLEGAL_EDIT_NO_LINK;
        else if (f->seg[s].owner != p)
            v->why = TX_ILLEGAL_EDIT_NOT_OWN;
        else {
            f->seg[s].alive = false;
            killed[nkilled++] = s;
        }
    }
    /* The peg, then the additions and declines in line order. */
    f->cell[move] = (int8_t)p;
    f->when[move] = f->nmoves;
    for (int i = 0; i < n && !v->why; i++) {
        const struct tx_edit *e = &edits[i];
        int a, b, blockers[TX_CROSSINGS];
        if (e->kind == '-')
            continue;
        v->edit = i;
        v->why = fam_edit_holes(f, e, &a, &b);
        if (v->why)
            break;
        if (e->kind == '+') {
            if (f->cell[a] != p || f->cell[b] != p)
                v->why = TX_ILLEGAL_EDIT_NOT_OWN;
            else if (fam_find(f, a, b) >= 0)
                v->why = TX_ILLEGAL_EDIT_EXISTS;
            else if ((v->ncrossed = fam_blockers(f, a, b, p, blockers)) > 0) {
                v->why = TX_ILLEGAL_EDIT_CROSSES;
                for (int k = 0; k < v->ncrossed && k < TX_CROSSINGS; k++) {
                    v->crossed[k][0] = f->seg[blockers[k]].a;
                    v->crossed[k][1] = f->seg[blockers[k]].b;
                }
            } else if (f->when[a] < f->when[b])
                fam_add(f, a, b, p);
            else
                fam_add(f, b, a, p);
            continue;
        }
        /* A decline: of a link from the new peg to one of the mover's
         * pegs, which no addition of the line makes. */
        if (a != move && b != move) {
            v->why = TX_ILLEGAL_EDIT_NOT_NEW;
            break;
        }
        if (f->cell[a == move ? b : a] != p) {
            v->why = TX_ILLEGAL_EDIT_NOT_OWN;
            break;
        }
        for (int j = 0; j < n; j++) {
            int c, d;
            if (edits[j].kind == '+' && fam_edit_holes(f, &edits[j], &c, &d) == TX_LEGAL &&
                ((c == a && d == b) || (c == b && d == a)))
                v->why = TX_ILLEGAL_EDIT_ADDED;
        }
        declined[ndeclined++] = a == move ? b : a;
    }
    if (v->why || !commit) {
        fam_drop_after(f, keep);
        for (int i = 0; i < nkilled; i++)
            f->seg[killed[i]].alive = true;
        f->cell[move] = -1;
        f->when[move] = -1;
        if (!v->why)
            v->edit = -1;
        return;
    }
    v->edit = -1;

    /* The automatic links to each own peg a knight's move away. */
    for (int dy = -2; dy <= 2; dy++)
        for (int dx = -2; dx <= 2; dx++) {
            int x = move % w + dx, y = move / w + dy, q;
            bool skip = false;
            if (!knight_apart(0, 0, dx, dy) || !fam_on_board(f, x, y))
                continue;
            q = y * w + x;
            for (int i = 0; i < ndeclined; i++)
                skip |= declined[i] == q;
            if (skip || f->cell[q] != p || fam_find(f, q, move) >= 0 ||
                fam_blockers(f, q, move, p, NULL) > 0)
                continue;
            fam_add(f, q, move, p);
        }
    f->pegs[p][f->npegs[p]++] = (int16_t)move;
    f->nmoves++;
    f->to_move = 1 - p;
    if (fam_chain(f, p) > 0) {
        f->status = TX_WON;
        f->winner = p;
    } else {
        bool any = false;
        for (int h = 0; h < f->holes && !any; h++)
            any = fam_may_play(f, 1 - p, h);
        if (!any)
            f->status = TX_DRAWN;
    }
}

/* Whether text is the detail RULES.md words for verdict v of move with
 * edits: the reason, the edit at fault as written, and for a crossing one
 * of the links crossed, its older peg first. */
static bool fam_detail_ok(const struct fam *f, int move, const struct tx_edit *edits,
                          const struct fverdict *v, const char *text, char *want, size_t cap)
{
    char name[16] = "?", edit[32] = "?";

    if (move >= 0 && move < f->holes)
        fam_name(f, move, name);
    if (v->edit >= 0)
        edit_text(&edits[v->edit], edit);
    switch (v->why) {
    case TX_ILLEGAL_OUT_OF_RANGE:
        snprintf(want, cap, "out of range");
        break;
    case TX_ILLEGAL_CORNER:
        snprintf(want, cap, "corner %s", name);
        break;
    case TX_ILLEGAL_OCCUPIED:
        snprintf(want, cap, "occupied hole %s", name);
        break;
    case TX_ILLEGAL_OPPONENT_BORDER:
        snprintf(want, cap, "hole %s in the opponent's border", name);
        break;
    case TX_ILLEGAL_SWAP:
        if (f->nmoves == 1 && f->width != f->height)
            snprintf(want, cap, "SWAP not allowed on a %d x %d board (no mirror)", f->width,
                     f->height);
        else
            snprintf(want, cap, "SWAP not allowed at move %d", f->nmoves + 1);
        break;
    case TX_ILLEGAL_GAME_OVER:
        snprintf(want, cap, "game over");
        break;
    case TX_ILLEGAL_EDITS:
        snprintf(want, cap, "%s",
                 move == TX_MOVE_SWAP ? "link edits with SWAP"
                                      : "link edits under rules without them");
        break;
    case TX_ILLEGAL_EDIT_NO_HOLE:
        snprintf(want, cap, "%s names a hole that is not on the %d x %d board", edit, f->width,
                 f->height);
        break;
    case TX_ILLEGAL_EDIT_NOT_KNIGHT:
        snprintf(want, cap, "%s does not join holes a knight's move apart", edit);
        break;
    case TX_ILLEGAL_EDIT_NO_LINK:
        snprintf(want, cap, "%s names no link on the board", edit);
        break;
    case TX_ILLEGAL_EDIT_NOT_OWN:
        snprintf(want, cap, "%s %s", edit,
                 edit[0] == '-' ? "is not the mover's link"
                                : "does not join two of the mover's pegs");
        break;
    case TX_ILLEGAL_EDIT_EXISTS:
        snprintf(want, cap, "%s is already on the board", edit);
        break;
    case TX_ILLEGAL_EDIT_CROSSES:
        for (int k = 0; k < v->ncrossed && k < TX_CROSSINGS; k++) {
            char a[16], b[16];
            snprintf(want, cap, "%s crosses the link %s:%s", edit, fam_name(f, v->crossed[k][0], a),
                     fam_name(f, v->crossed[k][1], b));
            if (strcmp(text, want) == 0)
                return true;
        }
        break;
    case TX_ILLEGAL_EDIT_NOT_NEW:
        snprintf(want, cap, "%s does not end at the new peg %s", edit, name);
        break;
    case TX_ILLEGAL_EDIT_ADDED:
        snprintf(want, cap, "%s declines a link the move adds", edit);
        break;
    default:
        snprintf(want, cap, "legal");
        break;
    }
    return strcmp(text, want) == 0;
}

/* ---- comparing the game with the family reference ---- */

static void fam_compare_status(const struct fwhere *w, const struct tx_game *g, const struct fam *f)
{
    if (g->status != f->status || g->winner != f->winner || g->to_move != f->to_move ||
        g->nmoves != f->nmoves || (g->swapped != 0) != f->swapped)
        ffail(w,
              "status/winner/to_move/nmoves/swapped are %d/%d/%d/%d/%d, reference %d/%d/%d/%d/%d",
              g->status, g->winner, g->to_move, g->nmoves, g->swapped, f->status, f->winner,
              f->to_move, f->nmoves, f->swapped);
}

/* The links between h and its knight neighbours, both colours. */
static void fam_compare_around(const struct fwhere *w, const struct tx_game *g, const struct fam *f,
                               int x, int y)
{
    if (!fam_on_board(f, x, y))
        return;
    for (int k = 0; k < 8; k++) {
        int nx = x + step[k][0], ny = y + step[k][1], h = y * f->width + x, n;
        bool want;
        char a[16], b[16];
        if (!fam_on_board(f, nx, ny))
            continue;
        n = ny * f->width + nx;
        want = fam_find(f, h, n) >= 0;
        if (tx_game_linked(g, h, n) != want)
            ffail(w, "tx_game_linked(%s, %s) is %d, reference %d", fam_name(f, h, a),
                  fam_name(f, n, b), !want, want);
    }
}

static void fam_compare_lists(const struct fwhere *w, const struct tx_game *g, const struct fam *f)
{
    static int16_t got[2 * TX_LINKS_MAX], want[2 * TX_LINKS_MAX];

    for (int p = 0; p < 2; p++) {
        int n = tx_game_pegs(g, p, got), m;
        if (n != f->npegs[p] || memcmp(got, f->pegs[p], sizeof got[0] * (size_t)n) != 0)
            ffail(w, "tx_game_pegs(%d) gives %d pegs, reference %d, or another order", p, n,
                  f->npegs[p]);
        n = tx_game_links(g, p, got);
        m = fam_links(f, p, want);
        if (n != m)
            ffail(w, "tx_game_links(%d) gives %d links, reference %d", p, n, m);
        for (int i = 0; i < 2 * n; i++)
            if (got[i] != want[i]) {
                char a[16], b[16], c[16], d[16];
                ffail(w, "tx_game_links(%d): link %d is %s-%s, reference %s-%s", p, i / 2,
                      fam_name(f, got[i & ~1], a), fam_name(f, got[i | 1], b),
                      fam_name(f, want[i & ~1], c), fam_name(f, want[i | 1], d));
            }
    }
}

static void fam_compare_legal(const struct fwhere *w, const struct tx_game *g, const struct fam *f)
{
    static int16_t got[TX_MOVES_MAX];
    static uint8_t listed[TX_HOLES_MAX];
    int n = tx_game_legal_moves(g, got), first = 0, nwant = 0;
    bool ongoing = f->status == TX_ONGOING;

    if (ongoing && f->nmoves == 1 && f->width == f->height) {
        if (n < 1 || got[0] != TX_MOVE_SWAP)
            ffail(w, "tx_game_legal_moves does not start with SWAP at move 2");
        first = 1;
    }
    memset(listed, 0, (size_t)f->holes);
    for (int i = first; i < n; i++) {
        if (got[i] < 0 || got[i] >= f->holes || listed[got[i]])
            ffail(w, "tx_game_legal_moves lists %d, off the board or twice", got[i]);
        listed[got[i]] = 1;
    }
    for (int h = 0; h < f->holes; h++) {
        bool want = ongoing && fam_may_play(f, f->to_move, h);
        char a[16];
        nwant += want;
        if (listed[h] != want)
            ffail(w, "tx_game_legal_moves %s %s, the reference %s", listed[h] ? "lists" : "omits",
                  fam_name(f, h, a), want ? "allows it" : "does not");
    }
    if (n - first != nwant)
        ffail(w, "tx_game_legal_moves gives %d moves, reference %d", n, nwant + first);
}

/* The turn input of the player to move, written here from the reference
 * (RULES.md "Input"), must be tx_input_write's byte for byte. */
static size_t fam_input(const struct fam *f, char *buf, size_t cap)
{
    static int16_t l[2 * TX_LINKS_MAX];
    int me = f->to_move;
    size_t len = 0;
    char a[16], b[16];

    if (f->nmoves == 0)
        len += (size_t)snprintf(buf + len, cap - len, "FIRST\n");
    else if (f->swapped && f->nmoves == 2)
        len += (size_t)snprintf(buf + len, cap - len, "SWAP\n");
    else
        len += (size_t)snprintf(buf + len, cap - len, "%s\n",
                                fam_name(f, f->pegs[1 - me][f->npegs[1 - me] - 1], a));
    for (int side = 0; side < 2; side++) {
        int p = side == 0 ? me : 1 - me, n;
        len += (size_t)snprintf(buf + len, cap - len, "%d\n", f->npegs[p]);
        for (int i = 0; i < f->npegs[p]; i++)
            len += (size_t)snprintf(buf + len, cap - len, "%s\n", fam_name(f, f->pegs[p][i], a));
        n = fam_links(f, p, l);
        len += (size_t)snprintf(buf + len, cap - len, "%d\n", n);
        for (int i = 0; i < n; i++)
            len += (size_t)snprintf(buf + len, cap - len, "%s %s\n", fam_name(f, l[2 * i], a),
                                    fam_name(f, l[2 * i + 1], b));
    }
    return len;
}

static void fam_compare_input(const struct fwhere *w, const struct tx_game *g, const struct fam *f)
{
    static char want[TX_INPUT_MAX], got[TX_INPUT_MAX];
    size_t n = fam_input(f, want, sizeof want);
    int len = tx_input_write(g, g->to_move, false, got, sizeof got);

    if (len < 0 || (size_t)len != n || memcmp(want, got, n) != 0) {
        size_t at = 0;
        while (at < n && (int)at < len && want[at] == got[at])
            at++;
        ffail(w,
              "tx_input_write differs from the reference at byte %zu:\n%.200s\nreference:\n%.200s",
              at, got + (at > 40 ? at - 40 : 0), want + (at > 40 ? at - 40 : 0));
    }
}

/* write -> parse -> from_input under the game's rules: the same position. */
static void fam_round_trip(const struct fwhere *w, const struct tx_game *g, const struct fam *f)
{
    static char text[TX_INPUT_MAX];
    static struct tx_input in;
    static struct tx_game *rebuilt;
    char err[128] = "";
    int len = tx_input_write(g, g->to_move, false, text, sizeof text);

    if (len < 0)
        ffail(w, "tx_input_write returned %d", len);
    if (tx_input_parse(g->geo, text, (size_t)len, &in, err, sizeof err) != 0)
        ffail(w, "tx_input_parse refused the writer's text: %s", err);
    rebuilt = tx_xrealloc(rebuilt, tx_game_size(g->geo));
    if (tx_game_from_input(rebuilt, g->geo, f->rules, &in, g->to_move) != 0)
        ffail(w, "tx_game_from_input refused the writer's text");
    fam_compare_status(w, rebuilt, f);
    fam_compare_lists(w, rebuilt, f);
    fam_compare_legal(w, rebuilt, f);
    fam_compare_input(w, rebuilt, f);
}

/* A won game's chain (tx_game_winning_chain): the winner's pegs, linked one
 * to the next, from one border line to the other, as short as any. */
static void fam_compare_chain(const struct fwhere *w, const struct tx_game *g, const struct fam *f)
{
    static int16_t chain[TX_HOLES_MAX];
    int n = tx_game_winning_chain(g, chain), p = f->winner;

    if (f->status != TX_WON) {
        if (n != 0)
            ffail(w, "tx_game_winning_chain gives %d pegs in a game that is not won", n);
        return;
    }
    if (n != fam_chain(f, p))
        ffail(w, "winning chain of %d pegs, the shortest has %d", n, fam_chain(f, p));
    for (int i = 0; i < n; i++)
        if (chain[i] < 0 || chain[i] >= f->holes || f->cell[chain[i]] != p)
            ffail(w, "winning chain: element %d is not a peg of the winner", i);
    for (int i = 0; i + 1 < n; i++)
        if (fam_find(f, chain[i], chain[i + 1]) < 0)
            ffail(w, "winning chain: elements %d and %d are not linked", i, i + 1);
    {
        int a = p == 0 ? chain[0] / f->width : chain[0] % f->width;
        int b = p == 0 ? chain[n - 1] / f->width : chain[n - 1] % f->width;
        int last = (p == 0 ? f->height : f->width) - 1;
        if (!((a == 0 && b == last) || (a == last && b == 0)))
            ffail(w, "winning chain does not join the winner's border lines");
    }
}

/* ---- random games of the family, with random edits ---- */

/* A peg of the player to move, or the hole it is about to play. */
static int fam_random_own(const struct fam *f, struct tx_splitmix *rng, int move)
{
    int p = f->to_move;
    if (f->npegs[p] == 0 || random_below(rng, 3) == 0)
        return move;
    return f->pegs[p][random_below(rng, f->npegs[p])];
}

static struct tx_edit make_edit(char kind, int ax, int ay, int bx, int by, struct tx_splitmix *rng)
{
    if (random_below(rng, 2)) { /* endpoints may come in either order */
        int t = ax;
        ax = bx;
        bx = t;
        t = ay;
        ay = by;
        by = t;
    }
    return (struct tx_edit){kind, (int16_t)ax, (int16_t)ay, (int16_t)bx, (int16_t)by};
}

/* Up to 3 random link edits for the player to move, who plays `move`:
 * mostly removals of its links, additions between its pegs (which may
 * cross a link) and declines of the new peg's links, and now and then one
 * of each kind of fault RULES.md lists. Writes them into out, returns how
 * many. */
static int fam_random_edits(const struct fam *f, struct tx_splitmix *rng, int move,
                            struct tx_edit *out)
{
    int p = f->to_move, w = f->width, n = 0, want = 1 + random_below(rng, 3);
    int mx = move % w, my = move / w;

    for (int tries = 0; n < want && tries < 24; tries++) {
        int kind = random_below(rng, 20), a, b, k = random_below(rng, 8), nn;
        int16_t nb[8];
        bool ok = false;
        switch (kind) {
        case 0:
        case 1:
        case 2:
        case 3:
        case 4: /* remove one of the mover's links */
        case 5: /* ... or of the opponent's */
            if (f->npegs[kind == 5 ? 1 - p : p] == 0)
                break;
            a = f->pegs[kind == 5 ? 1 - p : p][random_below(rng, f->npegs[kind == 5 ? 1 - p : p])];
            nn = fam_neighbours(f, a, nb);
            if (nn == 0)
                break;
            b = nb[random_below(rng, nn)];
            out[n] = make_edit('-', a % w, a / w, b % w, b / w, rng);
            ok = true;
            break;
        case 6:
        case 7:
        case 8:
        case 9:
        case 10: /* add between two of its pegs */
            for (int t = 0; t < 8 && !ok; t++) {
                int x, y;
                a = fam_random_own(f, rng, move);
                x = a % w + step[(k + t) % 8][0];
                y = a / w + step[(k + t) % 8][1];
                b = y * w + x;
                if (!fam_on_board(f, x, y) || !(f->cell[b] == p || b == move) ||
                    (a != move && b != move && fam_find(f, a, b) >= 0))
                    continue;
                out[n] = make_edit('+', a % w, a / w, x, y, rng);
                ok = true;
            }
            break;
        case 11:
        case 12:
        case 13: /* decline a link of the new peg */
            for (int t = 0; t < 8 && !ok; t++) {
                int x = mx + step[(k + t) % 8][0], y = my + step[(k + t) % 8][1];
                if (!fam_on_board(f, x, y) || f->cell[y * w + x] != p)
                    continue;
                out[n] = make_edit('~', mx, my, x, y, rng);
                ok = true;
            }
            break;
        case 14: /* a knight's move from a peg of the mover to anything */
            a = fam_random_own(f, rng, move);
            out[n] = make_edit("-+~"[random_below(rng, 3)], a % w, a / w, abs(a % w + step[k][0]),
                               abs(a / w + step[k][1]), rng);
            ok = true;
            break;
        case 15: /* any two holes near the board, or a corner */
            if (random_below(rng, 3) == 0) {
                int cx = random_below(rng, 2) * (w - 1),
                    cy = random_below(rng, 2) * (f->height - 1);
                out[n] = make_edit("-+~"[random_below(rng, 3)], cx, cy, abs(cx + step[k][0]),
                                   abs(cy + step[k][1]), rng);
            } else {
                out[n] = make_edit("-+~"[random_below(rng, 3)], random_below(rng, w + 3),
                                   random_below(rng, f->height + 3), random_below(rng, w + 3),
                                   random_below(rng, f->height + 3), rng);
            }
            ok = true;
            break;
        case 16: /* names far off any board: columns up to ZZ, rows up to 999 */
            out[n] = make_edit("-+~"[random_below(rng, 3)], random_below(rng, 702),
                               random_below(rng, 999), mx, my, rng);
            ok = true;
            break;
        case 17: /* a decline that does not end at the new peg, or an addition it declines */
            a = fam_random_own(f, rng, move);
            nn = fam_neighbours(f, a, nb);
            if (nn > 0) {
                b = nb[random_below(rng, nn)];
                out[n] = make_edit('~', a % w, a / w, b % w, b / w, rng);
                ok = true;
            } else if (n > 0 && out[n - 1].kind == '~') {
                out[n] = out[n - 1];
                out[n].kind = '+';
                ok = true;
            }
            break;
        default: /* the same edit again: removed, added or declined twice */
            if (n > 0) {
                out[n] = make_edit(out[n - 1].kind, out[n - 1].ax, out[n - 1].ay, out[n - 1].bx,
                                   out[n - 1].by, rng);
                ok = true;
            }
            break;
        }
        n += ok;
    }
    return n;
}

/* A random hole the player to move may use (tries at random first: a full
 * scan per move would dominate on 100 x 100). */
static int fam_random_hole(const struct fam *f, struct tx_splitmix *rng)
{
    int n = 0, pick;

    for (int t = 0; t < 64; t++) {
        int h = random_below(rng, f->holes);
        if (fam_may_play(f, f->to_move, h))
            return h;
    }
    for (int h = 0; h < f->holes; h++)
        n += fam_may_play(f, f->to_move, h);
    pick = random_below(rng, n);
    for (int h = 0; h < f->holes; h++)
        if (fam_may_play(f, f->to_move, h) && pick-- == 0)
            return h;
    return -1;
}

/* A random move that may well be illegal, with random edits under
 * classic: tx_game_check_edits must refuse it as the reference does, with
 * the same edit at fault and the same detail. */
static void fam_probe(const struct fwhere *w, const struct tx_game *g, const struct fam *f,
                      struct tx_splitmix *rng)
{
    static struct tx_edit edits[TX_EDITS_MAX];
    int move = random_below(rng, 8) == 0 ? TX_MOVE_SWAP : random_below(rng, f->holes + 8) - 4;
    int n = 0;
    struct fverdict v;
    struct tx_edit_fault fault;
    enum tx_illegal why;
    char text[128], want[128];

    if (f->rules == TX_RULES_CLASSIC && random_below(rng, 2))
        n = fam_random_edits(f, rng, move >= 0 && move < f->holes ? move : 0, edits);
    fam_play((struct fam *)f, move, edits, n, false, &v); /* and left as it was */
    why = tx_game_check_edits(g, move, edits, n, &fault);
    if (v.also ? !(v.also >> why & 1) : why != v.why)
        ffail(w, "probe %d (%s): tx_game_check_edits says reason %d, the reference %d", move,
              answer_text("", edits, n, text, sizeof text), why, v.why);
    if (why == TX_LEGAL)
        return;
    v.why = why; /* one of the reasons that apply */
    if (fault.edit != v.edit)
        ffail(w, "probe %d: the edit at fault is %d, the reference says %d", move, fault.edit,
              v.edit);
    tx_illegal_describe(g, move, why, edits, &fault, text, sizeof text);
    if (!fam_detail_ok(f, move, edits, &v, text, want, sizeof want))
        ffail(w, "probe %d: the detail is \"%s\", the reference says \"%s\"", move, text, want);
}

/* The game's record as the referee writes one (match-record.c): entries
 * with the move as written and its edits, the result with its detail, each
 * player's links at the end (from the reference here). */
static void rec_begin(struct tx_record *r, int width, int height, enum tx_rules rules,
                      uint64_t seed)
{
    memset(r, 0, sizeof *r);
    r->format = tx_strdup(TX_RECORD_FORMAT);
    r->game = 1;
    r->seed = seed & TX_RECORD_SEED_MAX;
    r->width = width;
    r->height = height;
    r->rules = rules;
    r->limits.first_turn_ms = 1000;
    r->limits.turn_ms = 300;
    r->referee = tx_strdup("twixt-arena test");
    r->started = tx_strdup("2026-11-24T18:00:00Z");
    r->players[0].name = tx_strdup("alpha");
    r->players[0].command = tx_strdup("bots/alpha {rules} {width} {height}");
    r->players[1].name = tx_strdup("beta");
    r->players[1].command = tx_strdup("bots/beta");
    r->moves = tx_xcalloc((size_t)tx_record_moves_max(width, height) + 1, sizeof *r->moves);
}

static void rec_entry(struct tx_record *r, int player, const char *move,
                      const struct tx_edit *edits, int n, int64_t us)
{
    struct tx_record_move *m = &r->moves[r->nmoves++];

    m->player = player;
    m->move = tx_strdup(move);
    m->us = us;
    m->nedits = n;
    m->edits = n ? tx_xcalloc((size_t)n, sizeof *m->edits) : NULL;
    for (int i = 0; i < n; i++)
        edit_text(&edits[i], m->edits[i]);
}

static void rec_end(struct tx_record *r, const struct tx_game *g, const struct fam *f, int winner,
                    enum tx_reason reason, const char *detail)
{
    static int16_t l[2 * TX_LINKS_MAX];
    char buf[128];

    r->result.winner = winner;
    r->result.reason = reason;
    if (reason == TX_REASON_CONNECTION) {
        static int16_t chain[TX_HOLES_MAX];
        int n = tx_game_winning_chain(g, chain);
        char a[16], b[16];
        snprintf(buf, sizeof buf, "%s-%s", fam_name(f, chain[0], a), fam_name(f, chain[n - 1], b));
        detail = buf;
    } else if (reason == TX_REASON_DRAW) {
        snprintf(buf, sizeof buf, "no legal hole for player %d", f->to_move + 1);
        detail = buf;
    }
    r->result.detail = tx_strdup(detail);
    for (int p = 0; p < 2; p++) {
        int n = fam_links(f, p, l);
        r->players[p].nlinks = n;
        r->players[p].links = tx_xcalloc((size_t)n + 1, sizeof *r->players[p].links);
        for (int i = 0; i < n; i++) {
            char a[16], b[16];
            snprintf(r->players[p].links[i], sizeof r->players[p].links[i], "%s %s",
                     fam_name(f, l[2 * i], a), fam_name(f, l[2 * i + 1], b));
        }
    }
}

static struct tx_verify_geometries verify_cache;

/* The record verifies (tx_verify_record), and so does what the loader
 * reads back from its JSON, as `replay` reads a file; the same record with
 * one addition turned into a removal does not. Returns whether there was
 * an addition to turn. */
static bool rec_check(const struct fwhere *w, struct tx_record *r)
{
    static struct tx_record back;
    const struct tx_geometry *geo = tx_verify_geometry(&verify_cache, r->width, r->height);
    struct tx_verify_report rep;
    char *json = NULL, err[256] = "";

    if (tx_verify_record(geo, r, &rep) != 0)
        ffail(w, "the record does not verify: move %d: %s", rep.move, rep.what);
    ck_assert_int_eq(tx_record_to_json(r, &json), 0);
    if (tx_record_from_json(json, strlen(json), &back, err, sizeof err) != 0)
        ffail(w, "the record's JSON does not load: %s", err);
    free(json);
    if (back.width != r->width || back.height != r->height || back.rules != r->rules ||
        back.nmoves != r->nmoves)
        ffail(w, "the loaded record has another board, rules or length");
    if (tx_verify_record(geo, &back, &rep) != 0)
        ffail(w, "the loaded record does not verify: move %d: %s", rep.move, rep.what);
    for (int i = 0; i < back.nmoves; i++) {
        struct tx_record_move *m = &back.moves[i];
        bool played = i < back.nmoves - 1 || back.result.reason != TX_REASON_INVALID;
        for (int e = 0; played && e < m->nedits; e++) {
            if (m->edits[e][0] != '+')
                continue;
            /* The link was not there before the move: removing it is refused. */
            m->edits[e][0] = '-';
            if (tx_verify_record(geo, &back, &rep) == 0)
                ffail(w, "the record verifies with move %d's edit %s turned into a removal", i + 1,
                      m->edits[e]);
            tx_record_free(&back);
            return true; /* one tampering per game is enough */
        }
    }
    tx_record_free(&back);
    return false;
}

struct fam_counts {
    long games, moves, won, drawn, invalid, edits, refused, tampered;
};

/* One random game on width x height under rules, against the family
 * reference move by move, written as a record and verified. */
static void fam_game(const struct tx_geometry *geo, enum tx_rules rules, int index, uint64_t seed,
                     struct fam_counts *counts)
{
    static struct fam f;
    static struct tx_game *g, *before;
    static struct tx_record r;
    static struct tx_answer ans;
    struct tx_splitmix rng = {seed};
    struct fwhere w = {geo->width, geo->height, index, 0, rules, seed};
    int holes = geo->holes, every = holes <= 200 ? 1 : holes <= 1000 ? 16 : 256;
    int round_trip_at = random_below(&rng, holes / 2 + 1);
    /* One game in 3 ends on the first invalid answer after some move, as a
     * referee ends it, the others are played to the end. */
    int invalid_at = index % 3 == 1 ? random_below(&rng, holes / 2 + 1) : -1;
    bool ended_invalid = false;
    static struct tx_edit edits[TX_EDITS_MAX];

    fam_init(&f, geo->width, geo->height, rules);
    g = tx_xrealloc(g, tx_game_size(geo));
    before = tx_xrealloc(before, tx_game_size(geo));
    tx_game_init(g, geo, rules);
    rec_begin(&r, geo->width, geo->height, rules, seed);
    while (f.status == TX_ONGOING && !ended_invalid) {
        bool square = geo->width == geo->height;
        int move = f.nmoves == 1 && square && random_below(&rng, 3) == 0
                       ? TX_MOVE_SWAP
                       : fam_random_hole(&f, &rng);
        int n = 0;
        char name[16];

        if (move == TX_MOVE_SWAP)
            n = random_below(&rng, 4) == 0 ? fam_random_edits(&f, &rng, 0, edits) : 0;
        else if (rules == TX_RULES_CLASSIC ? random_below(&rng, 5) < 2
                                           : random_below(&rng, 50) == 0)
            n = fam_random_edits(&f, &rng, move, edits);
        if (move == TX_MOVE_SWAP)
            snprintf(name, sizeof name, "SWAP");
        else
            fam_name(&f, move, name);
        for (;;) {
            struct fverdict v;
            struct tx_edit_fault fault, fault2;
            enum tx_illegal why;
            char text[128], want[128];

            fam_play(&f, move, edits, n, false, &v);
            why = tx_game_check_edits(g, move, edits, n, &fault);
            if (v.also ? !(v.also >> why & 1) : why != v.why)
                ffail(&w, "\"%s\": tx_game_check_edits says reason %d, the reference %d",
                      answer_text(name, edits, n, text, sizeof text), why, v.why);
            if (why == TX_LEGAL)
                break;
            counts->refused++;
            if (fault.edit != v.edit)
                ffail(&w, "%s: the edit at fault is %d, the reference says %d", name, fault.edit,
                      v.edit);
            tx_illegal_describe(g, move, why, edits, &fault, text, sizeof text);
            if (!fam_detail_ok(&f, move, edits, &v, text, want, sizeof want))
                ffail(&w, "%s: the detail is \"%s\", the reference says \"%s\"", name, text, want);
            tx_game_copy(before, g);
            if (tx_game_play_edits(g, move, edits, n, &fault2) != why ||
                fault2.edit != fault.edit || fault2.crossed != fault.crossed)
                ffail(&w, "%s: tx_game_play_edits and tx_game_check_edits disagree", name);
            if (memcmp(before, g, g->bytes) != 0)
                ffail(&w, "%s: tx_game_play_edits refused the move but changed the game", name);
            if (invalid_at >= 0 && f.nmoves >= invalid_at && rules == TX_RULES_CLASSIC) {
                /* The referee ends the game on an invalid answer. */
                rec_entry(&r, f.to_move, name, edits, n, 1000 + random_below(&rng, 200000));
                rec_end(&r, g, &f, 1 - f.to_move, TX_REASON_INVALID, text);
                ended_invalid = true;
                break;
            }
            /* Try again without the edit at fault. */
            if (v.edit < 0) {
                n = 0;
            } else {
                memmove(&edits[v.edit], &edits[v.edit + 1],
                        sizeof edits[0] * (size_t)(n - v.edit - 1));
                n--;
            }
        }
        if (ended_invalid)
            break;
        /* The answer line a bot would print reads back as this move. */
        if (rules == TX_RULES_CLASSIC) {
            char line[TX_ANSWER_LINE_MAX + 1];
            size_t len = (size_t)snprintf(line, sizeof line, "%s", name);
            for (int i = 0; i < n; i++) {
                char e[32];
                len +=
                    (size_t)snprintf(line + len, sizeof line - len, " %s", edit_text(&edits[i], e));
            }
            bool same = tx_answer_parse(geo, rules, line, len, &ans) == 0 && ans.move == move &&
                        ans.nedits == n && ans.message[0] == '\0';
            for (int i = 0; same && i < n; i++)
                same = ans.edits[i].kind == edits[i].kind && ans.edits[i].ax == edits[i].ax &&
                       ans.edits[i].ay == edits[i].ay && ans.edits[i].bx == edits[i].bx &&
                       ans.edits[i].by == edits[i].by;
            if (!same)
                ffail(&w, "tx_answer_parse does not read \"%s\" back", line);
        }
        rec_entry(&r, f.to_move, name, edits, n, 1000 + random_below(&rng, 200000));
        fam_play(&f, move, edits, n, true, &(struct fverdict){0});
        if (tx_game_play_edits(g, move, edits, n, NULL) != TX_LEGAL)
            ffail(&w, "tx_game_play_edits refuses %s, which tx_game_check_edits allowed", name);
        w.move = f.nmoves;
        counts->edits += n;
        fam_compare_status(&w, g, &f);
        if (move != TX_MOVE_SWAP)
            fam_compare_around(&w, g, &f, move % geo->width, move / geo->width);
        for (int i = 0; i < n; i++) {
            fam_compare_around(&w, g, &f, edits[i].ax, edits[i].ay);
            fam_compare_around(&w, g, &f, edits[i].bx, edits[i].by);
        }
        if (f.nmoves % every == 0 || f.status != TX_ONGOING) {
            fam_compare_lists(&w, g, &f);
            fam_compare_legal(&w, g, &f);
            if (f.status == TX_ONGOING)
                fam_compare_input(&w, g, &f);
        }
        if (f.nmoves == round_trip_at && f.status == TX_ONGOING)
            fam_round_trip(&w, g, &f);
        if (random_below(&rng, 8) == 0)
            fam_probe(&w, g, &f, &rng);
    }
    fam_compare_chain(&w, g, &f);
    if (!ended_invalid)
        rec_end(&r, g, &f, f.status == TX_WON ? f.winner : -1,
                f.status == TX_WON ? TX_REASON_CONNECTION : TX_REASON_DRAW, NULL);
    counts->tampered += rec_check(&w, &r);
    tx_record_free(&r);
    counts->games++;
    counts->moves += f.nmoves;
    counts->won += f.status == TX_WON;
    counts->drawn += f.status == TX_DRAWN;
    counts->invalid += ended_invalid;
}

/* Boards and rule sets: square and not, from 5 x 5 to 100 x 100, classic
 * mostly (its edits are what the first reference does not know), pp on
 * boards that are not square. */
static const struct {
    int width, height;
    enum tx_rules rules;
    int games;
} family_plan[] = {
    {5, 5, TX_RULES_CLASSIC, 600},   {5, 9, TX_RULES_CLASSIC, 300},
    {9, 5, TX_RULES_CLASSIC, 300},   {6, 7, TX_RULES_CLASSIC, 300},
    {12, 12, TX_RULES_CLASSIC, 200}, {13, 8, TX_RULES_CLASSIC, 150},
    {8, 13, TX_RULES_CLASSIC, 150},  {27, 5, TX_RULES_CLASSIC, 60},
    {5, 27, TX_RULES_CLASSIC, 60},   {24, 24, TX_RULES_CLASSIC, 30},
    {30, 24, TX_RULES_CLASSIC, 20},  {24, 30, TX_RULES_CLASSIC, 20},
    {100, 7, TX_RULES_CLASSIC, 4},   {7, 100, TX_RULES_CLASSIC, 4},
    {100, 100, TX_RULES_CLASSIC, 2}, {9, 5, TX_RULES_PP, 200},
    {5, 9, TX_RULES_PP, 200},        {30, 24, TX_RULES_PP, 10},
    {100, 100, TX_RULES_PP, 1},
};

START_TEST(family_games_match_reference)
{
    int width = family_plan[_i].width, height = family_plan[_i].height;
    enum tx_rules rules = family_plan[_i].rules;
    int games = scaled(family_plan[_i].games);
    struct fam_counts counts = {0};
    struct timespec t0, t1;

    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
    ck_assert_int_eq((tx_geometry_free(geo_storage), tx_geometry_new(width, height, &geo_storage)),
                     0);
    for (int i = 0; i < games; i++) {
        uint64_t seed = base_seed() ^ 0xFA317ULL ^ ((uint64_t)width << 48) ^
                        ((uint64_t)height << 40) ^ ((uint64_t)rules << 36) ^ (uint64_t)i;
        fam_game(geo_storage, rules, i, seed, &counts);
    }
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
    fprintf(stderr,
            "%s %3dx%-3d: %ld games (%ld won, %ld drawn, %ld ended on an invalid answer), %ld "
            "moves, %ld edits played, %ld refused; %ld tampered records refused; %.2f s of CPU\n",
            tx_ruleset(rules)->name, width, height, counts.games, counts.won, counts.drawn,
            counts.invalid, counts.moves, counts.edits, counts.refused, counts.tampered,
            (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9);
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
    tcase_add_loop_test(tc, family_games_match_reference, 0,
                        (int)(sizeof family_plan / sizeof family_plan[0]));
    tcase_set_timeout(tc, 280);
    suite_add_tcase(s, tc);
    sr = srunner_create(s);
    srunner_run_all(sr, CK_ENV);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? 0 : 1;
}
