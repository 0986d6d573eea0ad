/* twixt-random.c - the sparring partner: any legal move, uniformly.
 *
 * It checks that a bot (or the referee) copes with arbitrary legal play.
 * --seed N makes its games reproducible (the referee's {seed} feeds it),
 * --swap-prob P is how often it answers SWAP when allowed, --first HOLE
 * the hole it opens with as player 1 (validate opens the game on the
 * diagonal and off it this way, as a CodinGame opponent could).
 *
 * Under pie it takes the pie with --swap-prob; under cut it cuts at random
 * and chooses a side at random; in Double TwixT it calls privilege with
 * --privilege-prob of its moves (default 0.1) while botio says its team
 * still has it, so that games of teams show privilege.
 *
 * Under classic rules, --edit-prob P of its moves (default 0.3) also carry
 * random link edits (RULES.md "Link edits"); such a move is a hole a
 * knight's move from one of its pegs when there is one, so that it has
 * links to edit. The edits: removals of its links,
 * additions between its pegs, declines of the new peg's automatic links,
 * and a removal with an addition across the removed link in the same
 * move. Each edit is kept only when the move stays legal with it
 * (tx_game_check_edits), so every answer is legal, and an ordinary game
 * sends the referee, and the other bot's input, links that come and go.
 */
#include <errno.h>
#include <stdbool.h>
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
    double edit_prob;       /* --edit-prob: share of classic moves with edits */
    double privilege_prob;  /* --privilege-prob: chance of privilege each turn it may */
    const char *first_name; /* --first HOLE, or NULL */
    int first;              /* its hole, -1 for none */
};

#define EDITS_TRIED 8 /* edits proposed for one move, of which */
#define EDITS_KEPT 3  /* at most this many are kept */

/* The edit of the link between holes a and b. */
static struct tx_edit edit_of(const struct tx_geometry *geo, char kind, int a, int b)
{
    return (struct tx_edit){kind, (int16_t)tx_geometry_x(geo, a), (int16_t)tx_geometry_y(geo, a),
                            (int16_t)tx_geometry_x(geo, b), (int16_t)tx_geometry_y(geo, b)};
}

/* True when hole holds a peg of colour, or is the new peg's hole. */
static bool own_or_new(const struct tx_game *g, int colour, int move, int hole)
{
    return hole >= 0 && (hole == move || tx_game_cell(g, hole) == colour);
}

/* Appends edits to e (one or two), then keeps them only when the move stays
 * legal with every edit so far. */
static void try_edits(const struct tx_game *g, int move, struct tx_botio_edits *e,
                      const struct tx_edit *add, int n)
{
    if (e->n + n > TX_BOTIO_EDITS_MAX)
        return;
    memcpy(&e->list[e->n], add, sizeof(*add) * (size_t)n);
    if (tx_game_check_edits(g, move, e->list, e->n + n, NULL) == TX_LEGAL)
        e->n += n;
}

/* Random link edits for move (a hole) under classic rules: up to
 * EDITS_KEPT of EDITS_TRIED proposals, each of one of four kinds drawn
 * uniformly: remove one of its links; add a link from a peg of its (or the
 * new one) to a knight's neighbour of its; decline one of the new peg's
 * links; remove a link and add one that crosses it. */
static void random_edits(struct random_bot *bot, const struct tx_game *g, int move,
                         struct tx_botio_edits *e)
{
    const struct tx_geometry *geo = g->geo;
    int colour = g->to_move + 1;
    int16_t pegs[TX_HOLES_MAX];
    int npegs = tx_game_pegs(g, g->to_move, pegs);
    int16_t *links = tx_xmalloc(sizeof(int16_t) * 2 * 4 * (size_t)geo->holes);
    int nlinks = tx_game_links(g, g->to_move, links);

    for (int t = 0; t < EDITS_TRIED && e->n < EDITS_KEPT; t++) {
        struct tx_edit edits[2];
        int kind = (int)tx_rng_below(&bot->rng, 4);
        if (kind == 0 || kind == 3) { /* a removal, alone or with an addition across it */
            if (nlinks == 0)
                continue;
            int i = (int)tx_rng_below(&bot->rng, (uint32_t)nlinks);
            int a = links[2 * i], b = links[2 * i + 1];
            edits[0] = edit_of(geo, '-', a, b);
            if (kind == 0) {
                try_edits(g, move, e, edits, 1);
                continue;
            }
            int c =
                geo->crossing[tx_geometry_link(geo, a, b)][tx_rng_below(&bot->rng, TX_CROSSINGS)];
            if (c == TX_NO_LINK)
                continue;
            int ca = geo->link_end[c][0], cb = geo->link_end[c][1];
            if (!own_or_new(g, colour, move, ca) || !own_or_new(g, colour, move, cb))
                continue;
            edits[1] = edit_of(geo, '+', ca, cb);
            try_edits(g, move, e, edits, 2);
        } else if (kind == 1) { /* an addition from one of its pegs or the new one */
            int from = move;
            if (npegs > 0 && tx_rng_below(&bot->rng, 2))
                from = pegs[tx_rng_below(&bot->rng, (uint32_t)npegs)];
            int to = geo->neighbour[from][tx_rng_below(&bot->rng, 8)];
            if (!own_or_new(g, colour, move, to))
                continue;
            edits[0] = edit_of(geo, '+', from, to);
            try_edits(g, move, e, edits, 1);
        } else { /* a decline of one of the new peg's links */
            int to = geo->neighbour[move][tx_rng_below(&bot->rng, 8)];
            if (to < 0 || tx_game_cell(g, to) != colour)
                continue;
            edits[0] = edit_of(geo, '~', move, to);
            try_edits(g, move, e, edits, 1);
        }
    }
    free(links);
}

/* Moves to the front of holes (n of them) those a knight's move from a peg
 * of the player to move; returns how many. */
static int holes_near_pegs(const struct tx_game *g, int16_t *holes, int n)
{
    const struct tx_geometry *geo = g->geo;
    int near = 0;
    for (int i = 0; i < n; i++) {
        bool next_to = false;
        for (int k = 0; k < 8 && !next_to; k++) {
            int nb = geo->neighbour[holes[i]][k];
            next_to = nb >= 0 && tx_game_cell(g, nb) == g->to_move + 1;
        }
        if (next_to) {
            int16_t h = holes[i];
            holes[i] = holes[near];
            holes[near++] = h;
        }
    }
    return near;
}

/* A random cut (RULES.md "Openings"): two red holes and a black one, all
 * different, the red ones linked when they are a knight's move apart and
 * a coin says so. */
static int random_cut(struct random_bot *bot, const struct tx_botio_turn *turn, char *message)
{
    const struct tx_geometry *geo = turn->game->geo;
    int *cut = turn->cut;
    for (int i = 0; i < 3; i++) {
        bool taken;
        do {
            cut[i] = (int)tx_rng_below(&bot->rng, (uint32_t)geo->holes);
            taken = (i > 0 && cut[i] == cut[0]) || (i > 1 && cut[i] == cut[1]);
        } while (taken || !tx_geometry_playable(geo, i < 2 ? 0 : 1, cut[i]));
    }
    if (tx_geometry_link(geo, cut[0], cut[1]) >= 0 && tx_rng_below(&bot->rng, 2))
        turn->edits->list[turn->edits->n++] = edit_of(geo, '+', cut[0], cut[1]);
    snprintf(message, TX_BOTIO_MESSAGE_MAX, "random cut");
    fprintf(stderr, "random: a cut%s\n", turn->edits->n ? ", linked" : "");
    return TX_MOVE_CUT;
}

static int think(const struct tx_botio_turn *turn, void *data, char *message)
{
    struct random_bot *bot = data;
    int16_t moves[TX_MOVES_MAX];
    int n = tx_game_legal_moves(turn->game, moves);
    int holes = n, first = 0;

    if (turn->game->phase == TX_PHASE_CUT)
        return random_cut(bot, turn, message);
    if (turn->game->phase == TX_PHASE_CHOOSE) {
        bool red = tx_rng_below(&bot->rng, 2);
        snprintf(message, TX_BOTIO_MESSAGE_MAX, "random choice");
        fprintf(stderr, "random: choose %s\n", red ? "red" : "black");
        return red ? TX_MOVE_CHOOSE_RED : TX_MOVE_CHOOSE_BLACK;
    }
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
    bool with_edits = tx_ruleset((enum tx_rules)turn->game->rules)->link_edits &&
                      tx_rng_unit(&bot->rng) < bot->edit_prob;
    /* A move with edits is one of the holes a knight's move from its pegs,
     * when there are some: there it has links to decline or add. */
    int near = with_edits ? holes_near_pegs(turn->game, moves + first, holes) : 0;
    if (near > 0)
        holes = near;
    int move = moves[first + (int)tx_rng_below(&bot->rng, (uint32_t)holes)];
    if (with_edits)
        random_edits(bot, turn->game, move, turn->edits);
    /* Privilege goes with a hole once the opening is decided: not with
     * the game's first move under swap or pie. */
    struct tx_move m = {.move = move, .privilege = true};
    *turn->privilege = turn->privilege_left && tx_rng_unit(&bot->rng) < bot->privilege_prob &&
                       tx_game_check_answer(turn->game, &m, NULL) == TX_LEGAL;
    snprintf(message, TX_BOTIO_MESSAGE_MAX, "1 of %d", holes);
    fprintf(stderr, "random: one of %d holes%s", holes, *turn->privilege ? ", privilege" : "");
    for (int i = 0; i < turn->edits->n; i++) {
        char edit[TX_EDIT_NAME_MAX];
        fprintf(stderr, " %s", tx_edit_name(&turn->edits->list[i], edit));
    }
    fputc('\n', stderr);
    return move;
}

static void usage(void)
{
    printf(
        "usage: twixt-random [--rules R] [--board WxH | --size N] [--opening O] [--teams T]\n"
        "                    [--seed N] [--swap-prob P] [--edit-prob P] [--privilege-prob P]\n"
        "                    [--first HOLE]\n"
        "A TwixT bot that plays a uniformly random legal move; under classic rules\n"
        "some of its moves also carry random legal link edits (removals, additions,\n"
        "declines). Under pie it takes the pie as it swaps (--swap-prob); under cut\n"
        "it cuts at random (two red holes, a black one, linked half the time when a\n"
        "knight's move apart) and chooses a side at random; in Double TwixT it\n"
        "calls privilege at random (--privilege-prob) while its team has it.\n" TX_BOTIO_COMMON_HELP
        "  --swap-prob P  probability of SWAP (or the pie) when allowed, 0..1 (default 0.5)\n"
        "  --edit-prob P  under classic, share of its moves with link edits, 0..1\n"
        "                 (default 0.3; each such move tries up to 3 legal edits)\n"
        "  --privilege-prob P  in Double TwixT, chance of privilege with each move while\n"
        "                 its team has it, 0..1 (default 0.1)\n"
        "  --first HOLE   as player 1, open with HOLE (e.g. F6)\n"
        "  --help         this text\n");
}

static int option(const char *prog, int argc, char **argv, int *i, void *data)
{
    struct random_bot *bot = data;
    if (tx_botio_is_option(argv[*i], "--swap-prob"))
        return tx_botio_double_option(prog, argc, argv, i, 0, 1, &bot->swap_prob);
    if (tx_botio_is_option(argv[*i], "--edit-prob"))
        return tx_botio_double_option(prog, argc, argv, i, 0, 1, &bot->edit_prob);
    if (tx_botio_is_option(argv[*i], "--privilege-prob"))
        return tx_botio_double_option(prog, argc, argv, i, 0, 1, &bot->privilege_prob);
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
    struct random_bot bot = {
        .swap_prob = 0.5, .edit_prob = 0.3, .privilege_prob = 0.1, .first = -1};
    return tx_botio_main(&twixt_random, &bot, argc, argv);
}
