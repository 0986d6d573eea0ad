/* twixt-blocker.c - an opponent that makes games long: it blocks.
 *
 * It never tries to connect. Each turn it plays the hole after which the
 * opponent's shortest connection (greedy-eval.h) is longest, ties broken
 * by fewer holes on the opponent's shortest paths, and it never joins its
 * own border lines while another move exists. Against most bots the game
 * then goes on until the board is nearly full, so the other bot meets the
 * late positions of a real game, with a handful of legal holes left
 * (validate's "blocked" games). It never swaps.
 *
 * --cross first builds a bow tie: four of its pegs in a 2 x 3 box whose two
 * links cross each other (the PP rule), so the other bot reads crossing
 * links in its input (validate's "crossing" games). Whether the bow tie is
 * there is read from the position every turn, as everything else.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "botio.h"
#include "fastboard.h"
#include "greedy-eval.h"
#include "hole.h"

struct blocker {
    struct tx_rng rng;
    bool cross; /* --cross */
};

/* The bow tie with its corner at (x, y): a = (x, y) and b = (x+1, y+2) make
 * one link, c = (x+1, y) and d = (x, y+2) the other; they cross. */
static void bow_tie(const struct tx_geometry *geo, int x, int y, int tie[4])
{
    tie[0] = tx_geometry_hole(geo, x, y);
    tie[1] = tx_geometry_hole(geo, x + 1, y + 2);
    tie[2] = tx_geometry_hole(geo, x + 1, y);
    tie[3] = tx_geometry_hole(geo, x, y + 2);
}

/* The next peg of the bow tie that is nearest to being built (then nearest
 * the centre), -1 when one is built or none can be. */
static int bow_tie_move(const struct tx_fastboard *b, int me)
{
    const struct tx_geometry *geo = b->geo;
    int best = -1, best_pegs = -1, best_far = 0;
    for (int x = 0; x + 1 < geo->width; x++) {
        for (int y = 0; y + 2 < geo->height; y++) {
            int tie[4], pegs = 0, vacant = -1;
            bool possible = true;
            bow_tie(geo, x, y, tie);
            for (int i = 0; i < 4 && possible; i++) {
                if (tie[i] < 0)
                    possible = false;
                else if (tx_fastboard_cell(b, tie[i]) == me + 1)
                    pegs++;
                else if (tx_fastboard_can_play(b, me, tie[i]))
                    vacant = vacant < 0 ? tie[i] : vacant;
                else
                    possible = false;
            }
            if (!possible)
                continue;
            int ab = tx_geometry_link(geo, tie[0], tie[1]),
                cd = tx_geometry_link(geo, tie[2], tie[3]);
            if (pegs == 4 && tx_fastboard_has_link(b, me, ab) && tx_fastboard_has_link(b, me, cd))
                return -1; /* built */
            if (tx_fastboard_link_blocked(b, me, ab) || tx_fastboard_link_blocked(b, me, cd))
                continue;
            int far = abs(2 * x + 1 - (geo->width - 1)) + abs(2 * y + 2 - (geo->height - 1));
            if (vacant >= 0 && (pegs > best_pegs || (pegs == best_pegs && far < best_far))) {
                best = vacant;
                best_pegs = pegs;
                best_far = far;
            }
        }
    }
    return best;
}

static int think(const struct tx_botio_turn *turn, void *data, char *message)
{
    struct blocker *bot = data;
    const struct tx_game *g = turn->game;
    const struct tx_geometry *geo = g->geo;
    int me = turn->me, him = !me;
    char name[TX_HOLE_NAME_MAX];
    struct tx_fastboard *b = tx_xmalloc(tx_fastboard_size(geo));
    struct tx_fastboard *next = tx_xmalloc(tx_fastboard_size(geo));

    tx_fastboard_from_game(b, g);
    if (bot->cross) {
        int move = bow_tie_move(b, me);
        if (move >= 0) {
            snprintf(message, TX_BOTIO_MESSAGE_MAX, "bow tie");
            fprintf(stderr, "blocker: bow tie peg %s\n", tx_hole_name(geo, move, name));
            free(b);
            free(next);
            return move;
        }
    }
    /* Best: not winning, then his distance longest, then fewest holes on
     * his shortest paths; ties in random order. */
    int best = -1, best_wins = 1, best_dist = -1, best_flex = 0, ties = 0;
    for (int h = 0; h < geo->holes; h++) {
        if (!tx_fastboard_can_play(b, me, h))
            continue;
        tx_fastboard_copy(next, b);
        tx_fastboard_play(next, h);
        int wins = next->winner == me, flex;
        int dist = wins ? 0 : tx_eval_distance(next, him, &flex);
        if (wins)
            flex = 0;
        bool better =
            best < 0 || wins < best_wins ||
            (wins == best_wins && (dist > best_dist || (dist == best_dist && flex < best_flex)));
        bool same = !better && wins == best_wins && dist == best_dist && flex == best_flex;
        if (better) {
            best = h;
            best_wins = wins;
            best_dist = dist;
            best_flex = flex;
            ties = 1;
        } else if (same && tx_rng_below(&bot->rng, (uint32_t)++ties) == 0) {
            best = h; /* reservoir sampling: each tie equally likely */
        }
    }
    free(b);
    free(next);
    if (best < 0)
        return -1; /* cannot happen: the referee ends a game without legal holes */
    if (best_dist >= TX_EVAL_FAR)
        snprintf(message, TX_BOTIO_MESSAGE_MAX, "blocked");
    else
        snprintf(message, TX_BOTIO_MESSAGE_MAX, "his dist %d", best_dist);
    fprintf(stderr, "blocker: %s, his distance %d, %d holes on his paths\n",
            tx_hole_name(geo, best, name), best_dist, best_flex);
    return best;
}

static void usage(void)
{
    printf("usage: twixt-blocker [--size N] [--seed N] [--cross]\n"
           "A Twixt-PP bot that never tries to connect: it blocks its opponent's\n"
           "shortest connection, so games last until the board is nearly full.\n"
           "  --size N  board size, %d..%d (default %d)\n"
           "  --seed N  random seed for ties (default: from the clock)\n"
           "  --cross   first build four pegs whose two links cross each other\n"
           "  --help    this text\n",
           TX_SIZE_MIN, TX_SIZE_MAX, TX_SIZE_DEFAULT);
}

static int option(const char *prog, int argc, char **argv, int *i, void *data)
{
    struct blocker *bot = data;
    (void)prog, (void)argc;
    if (strcmp(argv[*i], "--cross"))
        return 0;
    bot->cross = true;
    return 1;
}

static int ready(const struct tx_geometry *geo, const struct tx_botio_options *opt, void *data)
{
    struct blocker *bot = data;
    (void)geo;
    tx_rng_seed(&bot->rng, opt->seed);
    return TX_BOTIO_PLAY;
}

int main(int argc, char **argv)
{
    static const struct tx_botio_bot twixt_blocker = {
        .prog = "twixt-blocker", .usage = usage, .option = option, .ready = ready, .think = think};
    struct blocker bot = {.cross = false};
    return tx_botio_main(&twixt_blocker, &bot, argc, argv);
}
