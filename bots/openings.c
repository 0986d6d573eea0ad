/* openings.c - the opening decisions and privilege (openings.h).
 *
 * The cut is chosen among random candidates by the static evaluation
 * (four searches each), as many as one move of twixt-greedy may search
 * (TX_EVAL_SEARCH_HOLES), at most CUT_CANDIDATES: a few milliseconds on
 * 12 x 12, about the cost of one greedy move on 100 x 100. The choice
 * ranks black's moves as twixt-greedy does.
 */
#include "openings.h"

#include <stdio.h>
#include <stdlib.h>

#include "alloc.h"
#include "fastboard.h"
#include "greedy-eval.h"
#include "hole.h"

#define CUT_CANDIDATES 256

/* The playable hole of colour nearest the centre (ties at random). */
static int centre_hole(const struct tx_geometry *geo, int colour, struct tx_rng *rng)
{
    int best = -1, best_d = 1 << 30, ties = 0;
    for (int h = 0; h < geo->holes; h++) {
        if (!tx_geometry_playable(geo, colour, h))
            continue;
        int d = abs(2 * tx_geometry_x(geo, h) - (geo->width - 1)) +
                abs(2 * tx_geometry_y(geo, h) - (geo->height - 1));
        if (d < best_d) {
            best = h;
            best_d = d;
            ties = 1;
        } else if (d == best_d && tx_rng_below(rng, (uint32_t)++ties) == 0) {
            best = h;
        }
    }
    return best;
}

bool tx_openings_pie_swap(const struct tx_game *g)
{
    const struct tx_geometry *geo = g->geo;
    int hole = tx_game_move(g, 0);
    bool central = tx_eval_should_swap(geo, hole);
    if (tx_geometry_square(geo))
        return central;
    struct tx_fastboard *b = tx_xmalloc(tx_fastboard_size(geo));
    tx_fastboard_from_game(b, g);
    int red = tx_eval_distance(b, 0, NULL), black = tx_eval_distance(b, 1, NULL);
    free(b);
    return red + (central ? 0 : 1) < black;
}

/* A random hole colour may use that is not in taken (n holes). */
static int random_hole(const struct tx_geometry *geo, int colour, const int *taken, int n,
                       struct tx_rng *rng)
{
    for (;;) {
        int h = (int)tx_rng_below(rng, (uint32_t)geo->holes), free_hole = 1;
        for (int i = 0; i < n; i++)
            free_hole &= h != taken[i];
        if (free_hole && tx_geometry_playable(geo, colour, h))
            return h;
    }
}

/* The edit that links holes a and b. */
static struct tx_edit link_edit(const struct tx_geometry *geo, int a, int b)
{
    return (struct tx_edit){'+', (int16_t)tx_geometry_x(geo, a), (int16_t)tx_geometry_y(geo, a),
                            (int16_t)tx_geometry_x(geo, b), (int16_t)tx_geometry_y(geo, b)};
}

void tx_openings_cut(const struct tx_game *g, struct tx_rng *rng, int cut[3],
                     struct tx_botio_edits *edits)
{
    const struct tx_geometry *geo = g->geo;
    struct tx_game *trial = tx_game_dup(g);
    struct tx_fastboard *b = tx_xmalloc(tx_fastboard_size(geo));
    int tries = TX_EVAL_SEARCH_HOLES / (4 * geo->holes), best_off = 1 << 30;
    if (tries > CUT_CANDIDATES)
        tries = CUT_CANDIDATES;
    if (tries < 1)
        tries = 1;
    for (int t = 0; t < tries; t++) {
        int c[3];
        struct tx_edit link;
        c[0] = random_hole(geo, 0, NULL, 0, rng);
        /* Two candidates in three: the red pegs a knight's move apart, linked. */
        bool linked = tx_rng_below(rng, 3) != 0;
        int near = geo->neighbour[c[0]][tx_rng_below(rng, 8)];
        if (linked && near >= 0 && tx_geometry_playable(geo, 0, near))
            c[1] = near;
        else
            c[1] = random_hole(geo, 0, c, 1, rng), linked = false;
        c[2] = random_hole(geo, 1, c, 2, rng);
        link = link_edit(geo, c[0], c[1]);
        struct tx_move m = {
            .move = TX_MOVE_CUT, .cut = {c[0], c[1], c[2]}, .nedits = linked, .edits = &link};
        tx_game_copy(trial, g);
        if (tx_game_apply(trial, &m, NULL) != TX_LEGAL)
            continue;
        tx_fastboard_from_game(b, trial);
        int off = abs(tx_eval_position(b, 1) + TX_OPENINGS_TEMPO);
        if (off < best_off) {
            best_off = off;
            for (int i = 0; i < 3; i++)
                cut[i] = c[i];
            edits->n = linked;
            edits->list[0] = link;
        }
    }
    free(b);
    tx_game_free(trial);
}

int tx_openings_choose(const struct tx_game *g, struct tx_rng *rng)
{
    const struct tx_geometry *geo = g->geo;
    struct tx_fastboard *b = tx_xmalloc(tx_fastboard_size(geo));
    int16_t *holes = tx_xmalloc(sizeof(int16_t) * TX_HOLES_MAX);
    int *scores = tx_xmalloc(sizeof(int) * TX_HOLES_MAX);
    tx_fastboard_from_game(b, g); /* black to move */
    int n = tx_eval_rank_candidates(b, rng, TX_EVAL_SEARCH_HOLES / (4 * geo->holes), holes, scores);
    bool black = n > 0 && scores[0] > TX_OPENINGS_TEMPO;
    free(b);
    free(holes);
    free(scores);
    return black ? TX_MOVE_CHOOSE_BLACK : TX_MOVE_CHOOSE_RED;
}

bool tx_openings_privilege_worth(const struct tx_game *g, int me, int hole)
{
    /* Not with the game's first move under swap or pie (RULES.md). */
    struct tx_move m = {.move = hole, .privilege = true};
    if (hole < 0 || g->seats != 4 || tx_game_check_answer(g, &m, NULL) != TX_LEGAL)
        return false;
    struct tx_fastboard *b = tx_xmalloc(tx_fastboard_size(g->geo));
    tx_fastboard_from_game(b, g);
    tx_fastboard_play(b, hole);
    bool worth = b->winner < 0 &&
                 (tx_eval_distance(b, me, NULL) <= 1 || tx_eval_distance(b, !me, NULL) <= 1);
    free(b);
    return worth;
}

int tx_openings_decide(const struct tx_botio_turn *turn, struct tx_rng *rng, char *message)
{
    const struct tx_game *g = turn->game;
    const struct tx_geometry *geo = g->geo;
    enum tx_opening_rule opening = turn->variant->opening;
    char name[TX_HOLE_NAME_MAX];

    if (g->phase == TX_PHASE_CUT) {
        tx_openings_cut(g, rng, turn->cut, turn->edits);
        snprintf(message, TX_BOTIO_MESSAGE_MAX, "balanced cut");
        fprintf(stderr, "opening: cut %s", tx_hole_name(geo, turn->cut[0], name));
        fprintf(stderr, " %s", tx_hole_name(geo, turn->cut[1], name));
        fprintf(stderr, " %s%s\n", tx_hole_name(geo, turn->cut[2], name),
                turn->edits->n ? " linked" : "");
        return TX_MOVE_CUT;
    }
    if (g->phase == TX_PHASE_CHOOSE) {
        int choice = tx_openings_choose(g, rng);
        bool red = choice == TX_MOVE_CHOOSE_RED;
        snprintf(message, TX_BOTIO_MESSAGE_MAX, red ? "red is better" : "black is better");
        fprintf(stderr, "opening: choose %s\n", red ? "red" : "black");
        return choice;
    }
    if (g->nmoves == 0) {
        int move =
            opening == TX_OPENING_NONE ? centre_hole(geo, 0, rng) : tx_eval_opening(geo, rng);
        snprintf(message, TX_BOTIO_MESSAGE_MAX, "opening");
        fprintf(stderr, "opening: %s\n", tx_hole_name(geo, move, name));
        return move;
    }
    if (tx_game_check(g, TX_MOVE_SWAP) != TX_LEGAL)
        return TX_OPENINGS_PLAY;
    int first = tx_game_move(g, 0);
    bool swap = opening == TX_OPENING_PIE
                    ? tx_openings_pie_swap(g)
                    : turn->input->last >= 0 && tx_eval_should_swap(geo, first);
    if (!swap)
        return TX_OPENINGS_PLAY;
    snprintf(message, TX_BOTIO_MESSAGE_MAX, "central: swap");
    fprintf(stderr, "opening: swap the %s %s\n", opening == TX_OPENING_PIE ? "pie" : "central",
            tx_hole_name(geo, first, name));
    return TX_MOVE_SWAP;
}
