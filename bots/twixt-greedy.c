/* twixt-greedy.c - a fast one-ply bot: the move with the best evaluation.
 *
 * It scores every legal hole by the shortest-connection distance of both
 * sides after it (greedy-eval.c) and plays the best, in a few milliseconds.
 * The opening and the swap follow the shared rules: open just outside the
 * swap zone, swap a central first peg.
 */
#include <stdio.h>
#include <stdlib.h>

#include "alloc.h"
#include "botio.h"
#include "fastboard.h"
#include "greedy-eval.h"
#include "hole.h"

static int think(const struct tx_botio_turn *turn, void *data, char *message)
{
    struct tx_rng *rng = data;
    const struct tx_game *g = turn->game;
    const struct tx_geometry *geo = g->geo;
    char name[TX_HOLE_NAME_MAX];

    if (g->nmoves == 0) {
        int move = tx_eval_opening(geo, rng);
        snprintf(message, TX_BOTIO_MESSAGE_MAX, "opening");
        fprintf(stderr, "greedy: opening %s\n", tx_hole_name(geo, move, name));
        return move;
    }
    if (tx_game_check(g, TX_MOVE_SWAP) == TX_LEGAL && turn->input->last >= 0 &&
        tx_eval_should_swap(geo, turn->input->last)) {
        snprintf(message, TX_BOTIO_MESSAGE_MAX, "central: swap");
        fprintf(stderr, "greedy: swap the central %s\n",
                tx_hole_name(geo, turn->input->last, name));
        return TX_MOVE_SWAP;
    }
    struct tx_fastboard *b = tx_xmalloc(tx_fastboard_size(geo));
    int16_t holes[TX_HOLES_MAX];
    int scores[TX_HOLES_MAX];
    tx_fastboard_from_game(b, g);
    int n = tx_eval_rank_moves(b, rng, holes, scores);
    int mine = tx_eval_distance(b, turn->me, NULL), his = tx_eval_distance(b, !turn->me, NULL);
    free(b);
    if (n == 0)
        return -1;
    snprintf(message, TX_BOTIO_MESSAGE_MAX, "dist %d vs %d", mine, his);
    fprintf(stderr, "greedy: %s score %d of %d moves; distance me %d, him %d\n",
            tx_hole_name(geo, holes[0], name), scores[0], n, mine, his);
    return holes[0];
}

static void usage(void)
{
    printf("usage: twixt-greedy [--size N] [--seed N]\n"
           "A Twixt-PP bot that plays the move with the best shortest-connection\n"
           "evaluation (one ply), in a few milliseconds.\n"
           "  --size N  board size, %d..%d (default %d)\n"
           "  --seed N  random seed for ties (default: from the clock)\n"
           "  --help    this text\n",
           TX_SIZE_MIN, TX_SIZE_MAX, TX_SIZE_DEFAULT);
}

static int ready(const struct tx_geometry *geo, const struct tx_botio_options *opt, void *data)
{
    (void)geo;
    tx_rng_seed(data, opt->seed);
    return TX_BOTIO_PLAY;
}

int main(int argc, char **argv)
{
    static const struct tx_botio_bot twixt_greedy = {
        .prog = "twixt-greedy", .usage = usage, .ready = ready, .think = think};
    struct tx_rng rng;
    return tx_botio_main(&twixt_greedy, &rng, argc, argv);
}
