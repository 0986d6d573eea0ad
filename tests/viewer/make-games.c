/* make-games.c - classic games with link edits, as records, for the viewer's test.
 *
 * usage: make-games > games.jsonl
 *
 * Writes, as the referee would (every field the referee writes, links in
 * the input's order, the result and its detail), random games under the
 * classic rules in which the players also edit links: a removal of one of
 * their links in about one move of four, an addition wherever one is legal
 * in about one of three, now and then a declined automatic link. Game 21
 * is on 30 x 24 (a handicap board), game 22 on 100 x 100. The moves are
 * libtwixt's random choice, so the games are not interesting, but they
 * make links appear and disappear all through, and tests/viewer checks
 * that the viewer shows exactly that (and `replay` that the records are
 * right). Seeded: the same games every time.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "game.h"
#include "hole.h"
#include "record.h"
#include "splitmix.h"

struct game_spec {
    int game, width, height;
    uint64_t seed;
};

static const struct game_spec specs[] = {
    {21, 30, 24, 2021},
    {22, 100, 100, 2022},
};

static struct tx_edit edit_of(const struct tx_geometry *geo, char kind, int a, int b)
{
    return (struct tx_edit){kind, (int16_t)tx_geometry_x(geo, a), (int16_t)tx_geometry_y(geo, a),
                            (int16_t)tx_geometry_x(geo, b), (int16_t)tx_geometry_y(geo, b)};
}

/* Appends edit to edits (n of them) when the move stays legal with it. */
static int try_edit(const struct tx_game *g, int hole, struct tx_edit *edits, int n,
                    struct tx_edit edit)
{
    edits[n] = edit;
    return tx_game_check_edits(g, hole, edits, n + 1, NULL) == TX_LEGAL ? n + 1 : n;
}

/* The link edits of a random move at hole: a removal, an addition, a
 * decline, each now and then, each only when legal. */
static int random_edits(const struct tx_game *g, int hole, struct tx_splitmix *rng, int16_t *buf,
                        struct tx_edit *edits)
{
    const struct tx_geometry *geo = g->geo;
    int me = g->to_move, n = 0, npegs, nlinks;

    nlinks = tx_game_links(g, me, buf);
    if (nlinks > 0 && tx_splitmix_below(rng, 4) == 0) {
        int k = (int)tx_splitmix_below(rng, (uint32_t)nlinks);
        n = try_edit(g, hole, edits, n, edit_of(geo, '-', buf[2 * k], buf[2 * k + 1]));
    }
    npegs = tx_game_pegs(g, me, buf);
    if (npegs > 0 && tx_splitmix_below(rng, 3) == 0) {
        /* A few of the pegs' missing links, the new peg's included. */
        for (int tries = 0; tries < 24 && n < 3; tries++) {
            int a = tries % 4 == 0 ? hole : buf[tx_splitmix_below(rng, (uint32_t)npegs)];
            int b = geo->neighbour[a][tx_splitmix_below(rng, 8)];
            if (b < 0 || b == hole || tx_game_cell(g, b) != me + 1 || tx_game_linked(g, a, b))
                continue;
            int before = n;
            n = try_edit(g, hole, edits, n, edit_of(geo, '+', a, b));
            if (n > before)
                break;
        }
    }
    if (tx_splitmix_below(rng, 6) == 0) {
        for (int k = 0; k < 8; k++) {
            int b = geo->neighbour[hole][k];
            if (b >= 0 && tx_game_cell(g, b) == me + 1) {
                n = try_edit(g, hole, edits, n, edit_of(geo, '~', hole, b));
                break;
            }
        }
    }
    return n;
}

static void play(const struct game_spec *spec, struct tx_record *r)
{
    struct tx_geometry *geo;
    struct tx_game *g;
    struct tx_splitmix rng = {spec->seed};
    int16_t *holes, *buf;
    char detail[64];

    if (tx_geometry_new(spec->width, spec->height, &geo) < 0)
        abort();
    g = tx_game_new(geo, TX_RULES_CLASSIC);
    holes = tx_xmalloc(sizeof *holes * TX_MOVES_MAX);
    buf = tx_xmalloc(sizeof *buf * 2 * (size_t)geo->link_ids);
    memset(r, 0, sizeof *r);
    r->format = tx_strdup(TX_RECORD_FORMAT);
    r->game = spec->game;
    r->seed = spec->seed;
    r->width = spec->width;
    r->height = spec->height;
    r->rules = TX_RULES_CLASSIC;
    r->limits = (struct tx_limits){.first_turn_ms = 1000, .turn_ms = 300};
    r->referee = tx_strdup("twixt-arena test");
    r->started = tx_strdup("2026-11-24T18:00:00Z");
    r->players[0].name = tx_strdup("editor");
    r->players[0].command = tx_strdup("bots/editor --seed 1");
    r->players[1].name = tx_strdup("remover");
    r->players[1].command = tx_strdup("bots/remover --seed 2");
    r->moves = tx_xcalloc((size_t)tx_record_moves_max(geo->width, geo->height), sizeof *r->moves);
    while (g->status == TX_ONGOING) {
        struct tx_record_move *m = &r->moves[r->nmoves++];
        struct tx_edit edits[4];
        int n = tx_game_legal_moves(g, holes), first = holes[0] == TX_MOVE_SWAP;
        int hole = holes[first + (int)tx_splitmix_below(&rng, (uint32_t)(n - first))];
        int nedits = random_edits(g, hole, &rng, buf, edits);
        char name[TX_HOLE_NAME_MAX];

        m->player = g->to_move;
        m->move = tx_strdup(tx_hole_name(geo, hole, name));
        m->us = 100 + (int64_t)tx_splitmix_below(&rng, 20000);
        m->nedits = nedits;
        m->edits = nedits ? tx_xcalloc((size_t)nedits, sizeof *m->edits) : NULL;
        for (int i = 0; i < nedits; i++)
            tx_edit_name(&edits[i], m->edits[i]);
        if (nedits > 0 && r->nmoves % 5 == 0)
            m->message = tx_strdup("edits");
        if (tx_game_play_edits(g, hole, edits, nedits, NULL) != TX_LEGAL)
            abort();
    }
    if (g->status == TX_WON) {
        int k = tx_game_winning_chain(g, holes);
        char a[TX_HOLE_NAME_MAX], b[TX_HOLE_NAME_MAX];
        snprintf(detail, sizeof detail, "%s-%s", tx_hole_name(geo, holes[0], a),
                 tx_hole_name(geo, holes[k - 1], b));
        r->result.winner = g->winner;
        r->result.reason = TX_REASON_CONNECTION;
    } else {
        snprintf(detail, sizeof detail, "no legal hole for player %d", g->to_move + 1);
        r->result.winner = -1;
        r->result.reason = TX_REASON_DRAW;
    }
    r->result.detail = tx_strdup(detail);
    for (int p = 0; p < 2; p++) {
        struct tx_record_player *pl = &r->players[p];
        pl->nlinks = tx_game_links(g, p, buf);
        pl->links = tx_xcalloc((size_t)pl->nlinks + 1, sizeof *pl->links);
        for (int k = 0; k < pl->nlinks; k++) {
            char a[TX_HOLE_NAME_MAX], b[TX_HOLE_NAME_MAX];
            snprintf(pl->links[k], sizeof pl->links[k], "%s %s", tx_hole_name(geo, buf[2 * k], a),
                     tx_hole_name(geo, buf[2 * k + 1], b));
        }
    }
    free(buf);
    free(holes);
    tx_game_free(g);
    tx_geometry_free(geo);
}

int main(void)
{
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        struct tx_record r;
        char *json;
        play(&specs[i], &r);
        if (tx_record_to_json(&r, &json) < 0)
            abort();
        printf("%s\n", json);
        free(json);
        tx_record_free(&r);
    }
    return fflush(stdout) == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
