/* standings-games.c - valid records of games with chosen results (see
 * standings-games.h). Random games on 12 x 12 end within a hundred moves
 * and either side wins about half of them, so a connection for the side
 * asked for takes a few seeds: microseconds each.
 */
#include "standings-games.h"

#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "game.h"
#include "geometry.h"
#include "hole.h"
#include "splitmix.h"

#define SEEDS 1000      /* seeds tried for a result before giving up */
#define FAULT_AFTER 6   /* moves played before a fault */
#define TURN_US 2000    /* every answer's time */
#define LATE_US 1500000 /* a timeout's: over every turn's limit */

/* The side (0 or 1) the handicap names, -1 for none. */
static int handicap_side(const struct tx_test_game *spec, int seats)
{
    for (int side = 0; spec->handicap && side < 2; side++) {
        if (seats == 4 && !strcmp(spec->teams[side], spec->handicap))
            return side;
        for (int seat = side; seat < seats; seat += 2)
            if (!strcmp(spec->players[seat], spec->handicap))
                return side;
    }
    return -1;
}

/* Plays seed's game into r's moves until it ends or, with a fault, until
 * the fault's seat is to move after FAULT_AFTER moves. Returns true when
 * it ended as spec asks. */
static bool play(const struct tx_test_game *spec, const struct tx_geometry *geo,
                 const struct tx_variant *v, uint64_t seed, struct tx_game *g, struct tx_record *r)
{
    struct tx_splitmix rng = {seed};
    int16_t holes[TX_MOVES_MAX];
    bool fault = spec->reason != TX_REASON_CONNECTION;
    tx_game_start(g, geo, v);
    for (int i = 0; i < r->nmoves; i++)
        free(r->moves[i].move);
    r->nmoves = 0;
    while (g->status == TX_ONGOING) {
        if (fault && r->nmoves >= FAULT_AFTER && g->seat == spec->fault_seat)
            return true;
        int n = tx_game_legal_moves(g, holes), first = holes[0] == TX_MOVE_SWAP;
        int hole = holes[first + (int)tx_splitmix_below(&rng, (uint32_t)(n - first))];
        struct tx_record_move *m = &r->moves[r->nmoves++];
        char name[TX_HOLE_NAME_MAX];
        m->player = g->seat;
        m->move = tx_strdup(tx_hole_name(geo, hole, name));
        m->us = TURN_US;
        struct tx_move move = {.move = hole};
        if (tx_game_apply(g, &move, NULL) != TX_LEGAL)
            abort();
    }
    /* a team wins with its colour: seats t and t + 2 play colour t (no exchange here) */
    return !fault && g->status == TX_WON && g->winner == spec->winner;
}

void tx_test_game_record(const struct tx_test_game *spec, struct tx_record *r)
{
    int seats = spec->teams[0] ? 4 : 2, h = handicap_side(spec, seats);
    int w = spec->width ? spec->width : 12, ht = spec->height ? spec->height : 12;
    if (h >= 0) {
        /* player 1's side (red) crosses the rows: height; player 2's the columns */
        int longer = w > ht ? w : ht, shorter = w > ht ? ht : w;
        w = h == 0 ? shorter : longer;
        ht = h == 0 ? longer : shorter;
    }
    struct tx_geometry *geo;
    if (tx_geometry_new(w, ht, &geo) < 0)
        abort();
    struct tx_variant v = {.rules = TX_RULES_PP,
                           .width = w,
                           .height = ht,
                           .opening = spec->opening,
                           .teams = seats == 4};
    struct tx_game *g = tx_xcalloc(1, tx_game_size(geo));

    memset(r, 0, sizeof *r);
    r->format = tx_strdup(TX_RECORD_FORMAT);
    r->game = spec->game;
    r->width = w;
    r->height = ht;
    r->rules = TX_RULES_PP;
    r->opening = spec->opening;
    r->handicap = spec->handicap ? tx_strdup(spec->handicap) : NULL;
    r->nplayers = seats;
    for (int t = 0; seats == 4 && t < 2; t++)
        r->teams[t] = tx_strdup(spec->teams[t]);
    r->limits = (struct tx_limits){.first_turn_ms = 1000, .turn_ms = 300};
    r->referee = tx_strdup("twixt-arena test");
    r->started = tx_strdup("2026-11-24T18:00:00Z");
    r->moves = tx_xcalloc((size_t)tx_record_moves_max(w, ht), sizeof *r->moves);
    uint64_t seed = (uint64_t)spec->game * SEEDS;
    for (;; seed++) {
        if (seed == (uint64_t)(spec->game + 1) * SEEDS)
            abort();
        if (play(spec, geo, &v, seed, g, r))
            break;
    }
    r->seed = seed;
    char detail[64];
    if (spec->reason == TX_REASON_CONNECTION) {
        int16_t chain[TX_HOLES_MAX];
        int k = tx_game_winning_chain(g, chain);
        char a[TX_HOLE_NAME_MAX], b[TX_HOLE_NAME_MAX];
        snprintf(detail, sizeof detail, "%s-%s", tx_hole_name(geo, chain[0], a),
                 tx_hole_name(geo, chain[k - 1], b));
    } else {
        struct tx_record_move *m = &r->moves[r->nmoves++];
        m->player = spec->fault_seat;
        m->us = spec->reason == TX_REASON_TIMEOUT ? LATE_US : TURN_US;
        snprintf(detail, sizeof detail, "%s",
                 spec->reason == TX_REASON_TIMEOUT ? "no answer in 300 ms" : "exit status 1");
    }
    r->result.winner = spec->winner;
    r->result.reason = spec->reason;
    r->result.detail = tx_strdup(detail);
    int16_t *links = tx_xmalloc(sizeof *links * 2 * (size_t)geo->link_ids);
    for (int p = 0; p < seats; p++) {
        struct tx_record_player *pl = &r->players[p];
        char command[128];
        snprintf(command, sizeof command, "bots/%s", spec->players[p]);
        pl->name = tx_strdup(spec->players[p]);
        pl->command = tx_strdup(command);
        pl->nlinks = tx_game_links(g, tx_game_seat_colour(g, p), links);
        pl->links = tx_xcalloc((size_t)pl->nlinks + 1, sizeof *pl->links);
        for (int k = 0; k < pl->nlinks; k++) {
            char a[TX_HOLE_NAME_MAX], b[TX_HOLE_NAME_MAX];
            snprintf(pl->links[k], sizeof pl->links[k], "%s %s", tx_hole_name(geo, links[2 * k], a),
                     tx_hole_name(geo, links[2 * k + 1], b));
        }
    }
    free(links);
    free(g);
    tx_geometry_free(geo);
}

void tx_test_game_write(const struct tx_test_game *spec, FILE *f)
{
    struct tx_record r;
    char *json;
    tx_test_game_record(spec, &r);
    if (tx_record_to_json(&r, &json) < 0)
        abort();
    fprintf(f, "%s\n", json);
    free(json);
    tx_record_free(&r);
}
