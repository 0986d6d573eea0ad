/* twixt-random.c - the sparring partner: any legal move, uniformly.
 *
 * It checks that a bot (or the referee) copes with arbitrary legal play.
 * --seed N makes its games reproducible (the referee's {seed} feeds it),
 * --swap-prob P is how often it answers SWAP when allowed, --first HOLE
 * the hole it opens with as player 1 (validate opens the game on the
 * diagonal and off it this way, as a CodinGame opponent could).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "botio.h"
#include "geometry.h"
#include "hole.h"
#include "rng.h"

struct random_bot {
    struct tx_rng rng;
    double swap_prob;
    const char *first_name; /* --first HOLE, or NULL */
    int first;              /* its hole, -1 for none */
};

static int think(const struct tx_botio_turn *turn, void *data, char *message)
{
    struct random_bot *bot = data;
    int16_t moves[TX_MOVES_MAX];
    int n = tx_game_legal_moves(turn->game, moves);
    int holes = n, first = 0;

    if (turn->game->nmoves == 0 && bot->first >= 0) {
        snprintf(message, TX_BOTIO_MESSAGE_MAX, "opening");
        fprintf(stderr, "random: opening %s\n", bot->first_name);
        return bot->first;
    }

    if (n > 0 && moves[0] == TX_MOVE_SWAP) {
        if (tx_rng_unit(&bot->rng) < bot->swap_prob) {
            snprintf(message, TX_BOTIO_MESSAGE_MAX, "random swap");
            fprintf(stderr, "random: swap\n");
            return TX_MOVE_SWAP;
        }
        first = 1;
        holes = n - 1;
    }
    if (holes <= 0)
        return -1; /* cannot happen: the referee ends a game without legal moves */
    int move = moves[first + (int)tx_rng_below(&bot->rng, (uint32_t)holes)];
    snprintf(message, TX_BOTIO_MESSAGE_MAX, "1 of %d", holes);
    fprintf(stderr, "random: one of %d holes\n", holes);
    return move;
}

static void usage(void)
{
    printf("usage: twixt-random [--size N] [--seed N] [--swap-prob P] [--first HOLE]\n"
           "A Twixt-PP bot that plays a uniformly random legal move.\n"
           "  --size N       board size, %d..%d (default %d)\n"
           "  --seed N       random seed (default: from the clock)\n"
           "  --swap-prob P  probability of SWAP when allowed, 0..1 (default 0.5)\n"
           "  --first HOLE   as player 1, open with HOLE (e.g. F6)\n"
           "  --help         this text\n",
           TX_SIZE_MIN, TX_SIZE_MAX, TX_SIZE_DEFAULT);
}

static int option(const char *prog, int argc, char **argv, int *i, void *data)
{
    struct random_bot *bot = data;
    if (tx_botio_is_option(argv[*i], "--swap-prob"))
        return tx_botio_double_option(prog, argc, argv, i, 0, 1, &bot->swap_prob);
    if (!tx_botio_is_option(argv[*i], "--first"))
        return 0;
    const char *eq = strchr(argv[*i], '=');
    if (!eq && *i + 1 == argc) {
        fprintf(stderr, "%s: --first: expected a hole\n", prog);
        return -EINVAL;
    }
    bot->first_name = eq ? eq + 1 : argv[++*i];
    return 1;
}

/* Seeds the generator; --first must name a hole player 1 may use. */
static int ready(const struct tx_geometry *geo, const struct tx_botio_options *opt, void *data)
{
    struct random_bot *bot = data;
    tx_rng_seed(&bot->rng, opt->seed);
    if (bot->first_name &&
        (tx_hole_parse(geo, bot->first_name, strlen(bot->first_name), &bot->first) != TX_HOLE_OK ||
         !tx_geometry_playable(geo, 0, bot->first))) {
        fprintf(stderr, "twixt-random: --first: \"%s\" is not a hole player 1 may use on %d x %d\n",
                bot->first_name, opt->variant.width, opt->variant.height);
        return 2;
    }
    return TX_BOTIO_PLAY;
}

int main(int argc, char **argv)
{
    static const struct tx_botio_bot twixt_random = {
        .prog = "twixt-random", .usage = usage, .option = option, .ready = ready, .think = think};
    struct random_bot bot = {.swap_prob = 0.5, .first = -1};
    return tx_botio_main(&twixt_random, &bot, argc, argv);
}
