/* twixt-greedy.c - a fast one-ply bot: the move with the best evaluation.
 *
 * It scores every legal hole by the shortest-connection distance of both
 * sides after it (greedy-eval.c) and plays the best, in a few milliseconds.
 * On boards larger than 24 x 24 it scores only the candidates nearest both
 * players' shortest paths (tx_eval_candidates), so that a move of a
 * 100 x 100 game costs about as much as one of 24 x 24 (under 100 ms).
 * The openings (first move, swap, pie, cut, choice) and privilege in
 * Double TwixT follow the shared rules of openings.h.
 *
 * Under classic rules the evaluation knows that its own links block it
 * too (the search board follows the game's rules). It makes no removals
 * and declines nothing; it adds a link between two of its pegs when one
 * is missing and can be made (after the opponent removed the link that
 * blocked it), because the evaluation counts such pegs as joined.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "alloc.h"
#include "botio.h"
#include "fastboard.h"
#include "greedy-eval.h"
#include "hole.h"
#include "openings.h"

/* Under classic rules: appends to the move's edits every link between two
 * of its pegs that is missing and may be added, unless it would cross a
 * link the new peg is to make; each only when the move stays legal with
 * it (tx_game_check_edits: a link added first may block a later one). */
static void add_missing_links(const struct tx_botio_turn *turn, int move)
{
    const struct tx_game *g = turn->game;
    const struct tx_geometry *geo = g->geo;
    struct tx_botio_edits *e = turn->edits;
    int mine = turn->me + 1;
    if (!tx_ruleset((enum tx_rules)g->rules)->link_edits || move < 0)
        return;
    for (int h = 0; h < geo->holes && e->n < TX_BOTIO_EDITS_MAX; h++) {
        if (tx_game_cell(g, h) != mine)
            continue;
        for (int k = 0; k < 8 && e->n < TX_BOTIO_EDITS_MAX; k++) {
            int n = geo->neighbour[h][k], link = geo->link_of[h][k];
            if (n < h || tx_game_cell(g, n) != mine || tx_game_has_link(g, link) ||
                tx_game_link_blocked(g, link, mine, NULL))
                continue;
            bool crosses_new = false;
            for (int i = 0; i < TX_CROSSINGS && !crosses_new; i++) {
                int c = geo->crossing[link][i];
                crosses_new =
                    c != TX_NO_LINK && (geo->link_end[c][0] == move || geo->link_end[c][1] == move);
            }
            if (crosses_new)
                continue;
            e->list[e->n] = (struct tx_edit){
                '+', (int16_t)tx_geometry_x(geo, h), (int16_t)tx_geometry_y(geo, h),
                (int16_t)tx_geometry_x(geo, n), (int16_t)tx_geometry_y(geo, n)};
            if (tx_game_check_edits(g, move, e->list, e->n + 1, NULL) == TX_LEGAL)
                e->n++;
        }
    }
}

static int think(const struct tx_botio_turn *turn, void *data, char *message)
{
    struct tx_rng *rng = data;
    const struct tx_game *g = turn->game;
    const struct tx_geometry *geo = g->geo;
    char name[TX_HOLE_NAME_MAX];

    int decided = tx_openings_decide(turn, rng, message);
    if (decided != TX_OPENINGS_PLAY)
        return decided;
    struct tx_fastboard *b = tx_xmalloc(tx_fastboard_size(geo));
    int16_t holes[TX_HOLES_MAX];
    int scores[TX_HOLES_MAX];
    tx_fastboard_from_game(b, g);
    /* Four searches a candidate (tx_eval_position): every hole up to
     * 24 x 24, the best 31 of 100 x 100. */
    int max = TX_EVAL_SEARCH_HOLES / (4 * geo->holes);
    int n = tx_eval_rank_candidates(b, rng, max, holes, scores);
    int mine = tx_eval_distance(b, turn->me, NULL), his = tx_eval_distance(b, !turn->me, NULL);
    free(b);
    if (n == 0)
        return -1;
    add_missing_links(turn, holes[0]);
    *turn->privilege = turn->privilege_left && tx_openings_privilege_worth(g, turn->me, holes[0]);
    snprintf(message, TX_BOTIO_MESSAGE_MAX, "dist %d vs %d", mine, his);
    fprintf(stderr, "greedy: %s score %d of %d moves; distance me %d, him %d; %d links added%s\n",
            tx_hole_name(geo, holes[0], name), scores[0], n, mine, his, turn->edits->n,
            *turn->privilege ? "; privilege" : "");
    return holes[0];
}

static void usage(void)
{
    printf("usage: twixt-greedy [--rules R] [--board WxH | --size N] [--opening O] [--teams T]\n"
           "                    [--seed N]\n"
           "A TwixT bot that plays the move with the best shortest-connection\n"
           "evaluation (one ply), in a few milliseconds on 12 x 12. Under classic\n"
           "rules its own links block it too; it adds a link of its own that the\n"
           "opponent's removal unblocked. On boards larger than 24 x 24 it scores\n"
           "only the holes nearest both players' shortest paths (31 on 100 x 100).\n"
           "Openings: it opens just outside the swap zone (at the centre under none),\n"
           "swaps or takes the pie when the first peg is central (on a board that is\n"
           "not square, when red's distance is shorter), cuts with the most balanced\n"
           "of many random cuts, chooses the side its evaluation prefers. In Double\n"
           "TwixT it calls privilege when after its move either side is one peg from\n"
           "connecting.\n");
    printf(TX_BOTIO_COMMON_HELP "  --help      this text\n");
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
