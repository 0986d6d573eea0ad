/* bench-game.c - how fast libtwixt plays: random games on one core.
 *
 * Plays complete games choosing uniformly among the legal moves and prints
 * the cost of a move and the number of complete games per second for board
 * sizes 8, 12 and 24. Two move pickers are measured: rejection sampling
 * (draw a hole, keep it if tx_game_check says legal; the swap at move 2 with
 * its exact share), which is what a fast playout bot does, and picking from
 * tx_game_legal_moves, which also measures that list. Both are uniform.
 * Times are CPU time of the benchmark thread (one core). Then the per-turn
 * text cost on 12 x 12: tx_input_write (the referee, every turn) and
 * tx_input_parse + tx_game_from_input (a bot, every turn).
 *
 * Last, the largest board, 100 x 100, in milliseconds per game: random
 * games to the end under pp, under classic, and under classic with link
 * edits in a third of the moves (up to three, drawn among the mover's
 * possible removals, additions and declines, each kept when
 * tx_game_check_edits says the move stays legal, as tests/tiny-bot
 * --edits does), then the input text of those games.
 *
 * Usage: bench-game [SECONDS_PER_MEASUREMENT [SEED]]   (default 1 s, seed 1)
 * Not a test: it prints figures and always exits 0 unless a rule check
 * inside fails.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "game.h"
#include "input.h"

static uint64_t rng_state;

/* xorshift64*: fast and good enough to pick moves. */
static uint64_t next_random(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * UINT64_C(2685821657736338717);
}

/* A uniform integer in [0, n). */
static int below(int n)
{
    return (int)(((next_random() >> 32) * (uint64_t)n) >> 32);
}

/* CPU time of this thread: the figures stay meaningful on a machine that
 * is busy with other work (wall time would count the time we wait for a
 * core). */
static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int pick_by_rejection(const struct tx_game *g)
{
    /* SWAP is one of vacant_ok[1] + 1 legal moves at move 2. */
    if (g->nmoves == 1 && below(g->vacant_ok[1] + 1) == 0)
        return TX_MOVE_SWAP;
    for (;;) {
        int h = below(g->geo->holes);
        if (tx_game_check(g, h) == TX_LEGAL)
            return h;
    }
}

static int pick_from_list(const struct tx_game *g)
{
    int16_t moves[TX_MOVES_MAX];
    int n = tx_game_legal_moves(g, moves);
    return moves[below(n)];
}

struct result {
    long games, moves, wins[2], draws;
    double seconds;
};

/* The edit of kind joining holes a and b. */
static struct tx_edit edit_of(const struct tx_geometry *geo, char kind, int a, int b)
{
    return (struct tx_edit){kind, (int16_t)tx_geometry_x(geo, a), (int16_t)tx_geometry_y(geo, a),
                            (int16_t)tx_geometry_x(geo, b), (int16_t)tx_geometry_y(geo, b)};
}

static double now_seconds(void);
static double edits_seconds; /* spent in tx_game_play_edits itself, edits drawn apart */

/* Plays move for the player to move, with random link edits in a third of
 * the moves under classic rules (see the top). */
static enum tx_illegal play_move(struct tx_game *g, int move, bool edits)
{
    if (!edits || move == TX_MOVE_SWAP || below(3) != 0)
        return tx_game_play(g, move);
    static int16_t links[2 * 4 * TX_HOLES_MAX], pegs[TX_HOLES_MAX + 1];
    const struct tx_geometry *geo = g->geo;
    int me = g->to_move, n = 0;
    int nlinks = tx_game_links(g, me, links), npegs = tx_game_pegs(g, me, pegs);
    struct tx_edit e[3];
    pegs[npegs++] = (int16_t)move;
    for (int tries = 0; tries < 3; tries++) {
        int kind = below(3), a = -1, b = -1;
        if (kind == 0 && nlinks > 0) {
            int k = below(nlinks);
            a = links[2 * k], b = links[2 * k + 1];
        } else if (kind > 0) {
            a = kind == 2 ? move : pegs[below(npegs)];
            int q = geo->neighbour[a][below(8)];
            if (q >= 0 && q != a && (tx_game_cell(g, q) == me + 1 || q == move))
                b = q;
        }
        if (b < 0)
            continue;
        e[n] = edit_of(geo, "-+~"[kind], a, b);
        n += tx_game_check_edits(g, move, e, n + 1, NULL) == TX_LEGAL;
    }
    double t0 = now_seconds();
    enum tx_illegal why = tx_game_play_edits(g, move, e, n, NULL);
    edits_seconds += now_seconds() - t0;
    return why;
}

static struct result run(const struct tx_geometry *geo, enum tx_rules rules, bool edits,
                         int (*pick)(const struct tx_game *), double seconds, int batch)
{
    struct result r = {0};
    struct tx_game *g = tx_game_new(geo, rules);
    double start = now_seconds(), elapsed = 0;

    /* Check the clock only every batch games so timing costs nothing. */
    while (elapsed < seconds) {
        for (int i = 0; i < batch; i++) {
            tx_game_init(g, geo, rules);
            while (g->status == TX_ONGOING) {
                if (play_move(g, pick(g), edits) != TX_LEGAL) {
                    fprintf(stderr, "bench-game: a legal move was refused\n");
                    exit(1);
                }
            }
            r.moves += g->nmoves;
            r.games++;
            if (g->status == TX_WON)
                r.wins[g->winner]++;
            else
                r.draws++;
        }
        elapsed = now_seconds() - start;
    }
    r.seconds = elapsed;
    tx_game_free(g);
    return r;
}

/* Per-turn cost of the input text on random games: writing it, and reading
 * it back into a game as a bot does. */
#define REPEAT 16

/* Measures at every stride-th move of whole games. */
static void measure_input(const struct tx_geometry *geo, enum tx_rules rules, bool edits,
                          double seconds, int stride)
{
    struct tx_game *g = tx_game_new(geo, rules), *rebuilt = tx_game_new(geo, rules);
    static struct tx_input in;
    static char text[TX_INPUT_MAX];
    double write_s = 0, read_s = 0;
    long turns = 0, bytes = 0, most = 0;

    while (write_s + read_s < seconds) {
        tx_game_init(g, geo, rules);
        while (g->status == TX_ONGOING) {
            if (g->nmoves % stride != 0) {
                play_move(g, pick_by_rejection(g), edits);
                continue;
            }
            /* Repeat each so that reading the clock costs little. */
            int len = 0;
            double t0 = now_seconds();
            for (int i = 0; i < REPEAT; i++)
                len = tx_input_write(g, g->to_move, false, text, sizeof(text));
            double t1 = now_seconds();
            for (int i = 0; i < REPEAT; i++) {
                if (len < 0 || tx_input_parse(geo, text, (size_t)len, &in, NULL, 0) < 0 ||
                    tx_game_from_input(rebuilt, geo, rules, &in, g->to_move) < 0) {
                    fprintf(stderr, "bench-game: the turn input did not round-trip\n");
                    exit(1);
                }
            }
            write_s += t1 - t0;
            read_s += now_seconds() - t1;
            turns += REPEAT;
            bytes += (long)len * REPEAT;
            most = len > most ? len : most;
            play_move(g, pick_by_rejection(g), edits);
        }
    }
    tx_game_free(g);
    tx_game_free(rebuilt);
    printf("turn input, size %d: %.0f bytes on average, write %.0f ns, parse + from_input %.0f ns "
           "(%ld turns)",
           geo->width, (double)bytes / (double)turns, write_s * 1e9 / (double)turns,
           read_s * 1e9 / (double)turns, turns);
    if (stride > 1)
        printf(", every %dth move of whole games, the largest %ld bytes", stride, most);
    printf("\n");
}

/* Random games to the end on 100 x 100 (see the top). */
static void measure_largest(double seconds)
{
    static const struct {
        const char *name;
        enum tx_rules rules;
        bool edits;
    } kinds[] = {{"pp", TX_RULES_PP, false},
                 {"classic", TX_RULES_CLASSIC, false},
                 {"classic, edits", TX_RULES_CLASSIC, true}};
    struct tx_geometry *geo;
    if (tx_geometry_new(100, 100, &geo) < 0)
        exit(1);
    printf("\n100x100, random games to the end (rejection picker)\n%-16s %7s %10s %9s %10s "
           "%15s\n",
           "rules", "games", "moves/game", "ns/move", "ms/game", "wins0/wins1/draw");
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        edits_seconds = 0;
        struct result r = run(geo, kinds[k].rules, kinds[k].edits, pick_by_rejection, seconds, 4);
        printf("%-16s %7ld %10.1f %9.1f %10.2f %5ld/%ld/%ld", kinds[k].name, r.games,
               (double)r.moves / (double)r.games, r.seconds * 1e9 / (double)r.moves,
               r.seconds * 1e3 / (double)r.games, r.wins[0], r.wins[1], r.draws);
        if (kinds[k].edits)
            printf("  (of which playing the moves with edits %.2f ms, the rest drawing them)",
                   edits_seconds * 1e3 / (double)r.games);
        printf("\n");
    }
    measure_input(geo, TX_RULES_CLASSIC, true, seconds, 64);
    tx_geometry_free(geo);
}

int main(int argc, char **argv)
{
    double seconds = argc > 1 ? atof(argv[1]) : 1.0;
    rng_state = argc > 2 ? strtoull(argv[2], NULL, 10) : 1;
    if (seconds <= 0 || rng_state == 0) {
        fprintf(stderr, "usage: bench-game [SECONDS_PER_MEASUREMENT [SEED (not 0)]]\n");
        return 2;
    }
    static const int sizes[] = {8, 12, 24};
    static struct tx_geometry *geo;
    static const struct {
        const char *name;
        int (*pick)(const struct tx_game *);
    } pickers[] = {{"rejection", pick_by_rejection}, {"legal-list", pick_from_list}};

    printf("%-10s %4s %9s %10s %9s %12s %15s\n", "picker", "size", "games", "moves/game", "ns/move",
           "games/s", "wins0/wins1/draw");
    for (size_t p = 0; p < sizeof(pickers) / sizeof(pickers[0]); p++) {
        for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
            double t0 = now_seconds();
            (tx_geometry_free(geo), tx_geometry_new(sizes[s], sizes[s], &geo));
            double init_us = (now_seconds() - t0) * 1e6;
            struct result r = run(geo, TX_RULES_PP, false, pickers[p].pick, seconds, 256);
            printf("%-10s %4d %9ld %10.1f %9.1f %12.0f %5ld/%ld/%ld  (geometry init %.0f us)\n",
                   pickers[p].name, sizes[s], r.games, (double)r.moves / (double)r.games,
                   r.seconds * 1e9 / (double)r.moves, (double)r.games / r.seconds, r.wins[0],
                   r.wins[1], r.draws, init_us);
        }
    }
    (tx_geometry_free(geo), tx_geometry_new(12, 12, &geo));
    measure_input(geo, TX_RULES_PP, false, seconds, 1);
    tx_geometry_free(geo);
    measure_largest(seconds);
    return 0;
}
