/* make-games.c - games of every kind the viewer draws, as records, for its test.
 *
 * usage: make-games > games.jsonl
 *
 * Writes, as the referee would (every field the referee writes, links in
 * the input's order, the result and its detail), random games:
 * - under the classic rules, in which the players also edit links: a
 *   removal of one of their links in about one move of four, an addition
 *   wherever one is legal in about one of three, now and then a declined
 *   automatic link. Game 21 is on 30 x 24 (a handicap board), game 22 on
 *   100 x 100; they make links appear and disappear all through;
 * - game 23, Double TwixT on 12 x 12: four bots in two teams, each team
 *   calling privilege once (RULES.md "Double TwixT");
 * - game 24, the cut opening on 16 x 12: a linked cut, then player 2
 *   takes red (CHOOSE 1), so player 1 plays blue from move 3;
 * - game 25, the pie opening on 12 x 12: player 2 takes the first peg.
 * Every answer is played with libtwixt (tx_game_apply), each by the seat
 * the game says is to move. The moves are libtwixt's random choice, so
 * the games are not interesting, but tests/viewer checks that the viewer
 * shows exactly the pegs and links libtwixt has at every move (and
 * `replay` that the records are right). Seeded: the same games every time.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "answer.h"
#include "game.h"
#include "hole.h"
#include "record.h"
#include "splitmix.h"

struct game_spec {
    int game, width, height;
    uint64_t seed;
    enum tx_rules rules;
    enum tx_opening_rule opening;
    bool teams;
};

static const struct game_spec specs[] = {
    {21, 30, 24, 2021, TX_RULES_CLASSIC, TX_OPENING_SWAP, false},
    {22, 100, 100, 2022, TX_RULES_CLASSIC, TX_OPENING_SWAP, false},
    {23, 12, 12, 2023, TX_RULES_PP, TX_OPENING_SWAP, true},
    {24, 16, 12, 2024, TX_RULES_PP, TX_OPENING_CUT, false},
    {25, 12, 12, 2025, TX_RULES_PP, TX_OPENING_PIE, false},
};

/* From which move on each team calls privilege in game 23 (once: its
 * first move from there). */
static const int privilege_from[2] = {9, 24};

static const char *const names[4] = {"alice", "bob", "carol", "dave"};

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

    if (!tx_ruleset(g->rules)->link_edits)
        return 0;

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

/* A random linked cut: two red pegs a knight's move apart and a blue one,
 * each on a hole its colour may use, all different. */
static void random_cut(const struct tx_game *g, struct tx_splitmix *rng, struct tx_move *m,
                       struct tx_edit *edit)
{
    const struct tx_geometry *geo = g->geo;

    do {
        m->move = TX_MOVE_CUT;
        m->cut[0] = (int)tx_splitmix_below(rng, (uint32_t)geo->holes);
        m->cut[1] = m->cut[0] >= 0 ? geo->neighbour[m->cut[0]][tx_splitmix_below(rng, 8)] : -1;
        m->cut[2] = (int)tx_splitmix_below(rng, (uint32_t)geo->holes);
        if (m->cut[1] < 0)
            continue;
        *edit = edit_of(geo, '+', m->cut[0], m->cut[1]);
        m->nedits = 1;
        m->edits = edit;
    } while (m->cut[1] < 0 || tx_game_check_answer(g, m, NULL) != TX_LEGAL);
}

/* The record's move of answer m: its hole, SWAP, "CUT R1 R2 B1" or
 * "CHOOSE n", as the referee writes the token. */
static char *move_token(const struct tx_geometry *geo, const struct tx_move *m)
{
    char a[TX_HOLE_NAME_MAX], b[TX_HOLE_NAME_MAX], c[TX_HOLE_NAME_MAX], buf[64];

    if (m->move == TX_MOVE_SWAP)
        return tx_strdup("SWAP");
    if (m->move == TX_MOVE_CHOOSE_RED || m->move == TX_MOVE_CHOOSE_BLACK)
        return tx_strdup(m->move == TX_MOVE_CHOOSE_RED ? "CHOOSE 1" : "CHOOSE 2");
    if (m->move == TX_MOVE_CUT) {
        snprintf(buf, sizeof buf, "CUT %s %s %s", tx_hole_name(geo, m->cut[0], a),
                 tx_hole_name(geo, m->cut[1], b), tx_hole_name(geo, m->cut[2], c));
        return tx_strdup(buf);
    }
    return tx_strdup(tx_hole_name(geo, m->move, a));
}

static void play(const struct game_spec *spec, struct tx_record *r)
{
    struct tx_variant v = {.rules = spec->rules,
                           .width = spec->width,
                           .height = spec->height,
                           .opening = spec->opening,
                           .teams = spec->teams};
    struct tx_geometry *geo;
    struct tx_game *g;
    struct tx_splitmix rng = {spec->seed};
    int16_t *holes, *buf;
    char detail[64];

    if (tx_geometry_new(spec->width, spec->height, &geo) < 0)
        abort();
    g = tx_game_new(geo, spec->rules);
    tx_game_start(g, geo, &v);
    holes = tx_xmalloc(sizeof *holes * TX_MOVES_MAX);
    buf = tx_xmalloc(sizeof *buf * 2 * (size_t)geo->link_ids);
    memset(r, 0, sizeof *r);
    r->format = tx_strdup(TX_RECORD_FORMAT);
    r->game = spec->game;
    r->seed = spec->seed;
    r->width = spec->width;
    r->height = spec->height;
    r->rules = spec->rules;
    r->opening = spec->opening;
    r->nplayers = spec->teams ? 4 : 2;
    r->limits = (struct tx_limits){.first_turn_ms = 1000, .turn_ms = 300};
    r->referee = tx_strdup("twixt-arena test");
    r->started = tx_strdup("2026-11-24T18:00:00Z");
    if (spec->teams) {
        r->teams[0] = tx_strdup("foxes");
        r->teams[1] = tx_strdup("owls");
    }
    for (int p = 0; p < r->nplayers; p++) {
        char command[64];
        const char *name = spec->rules == TX_RULES_CLASSIC ? (p ? "remover" : "editor") : names[p];
        snprintf(command, sizeof command, "bots/%s --seed %d", name, p + 1);
        r->players[p].name = tx_strdup(name);
        r->players[p].command = tx_strdup(command);
    }
    r->moves = tx_xcalloc((size_t)tx_record_moves_max(geo->width, geo->height), sizeof *r->moves);
    while (g->status == TX_ONGOING) {
        struct tx_record_move *m = &r->moves[r->nmoves++];
        struct tx_edit edits[4];
        struct tx_move move = {.edits = edits};
        int nedits = 0;

        if (g->phase == TX_PHASE_CUT) {
            random_cut(g, &rng, &move, edits);
            nedits = 1;
        } else if (g->phase == TX_PHASE_CHOOSE) {
            move.move = TX_MOVE_CHOOSE_RED;
        } else {
            int n = tx_game_legal_moves(g, holes), first = holes[0] == TX_MOVE_SWAP;
            /* The pie game swaps; the others never do. */
            if (first && spec->opening == TX_OPENING_PIE) {
                move.move = TX_MOVE_SWAP;
            } else {
                move.move = holes[first + (int)tx_splitmix_below(&rng, (uint32_t)(n - first))];
                nedits = random_edits(g, move.move, &rng, buf, edits);
            }
            move.nedits = nedits;
            move.privilege = spec->teams && !(g->privileged & 1 << (g->seat & 1)) &&
                             r->nmoves >= privilege_from[g->seat & 1];
        }
        m->player = g->seat;
        m->move = move_token(geo, &move);
        m->privilege = move.privilege;
        m->us = 100 + (int64_t)tx_splitmix_below(&rng, 20000);
        m->nedits = nedits;
        m->edits = nedits ? tx_xcalloc((size_t)nedits, sizeof *m->edits) : NULL;
        for (int i = 0; i < nedits; i++)
            tx_edit_name(&edits[i], m->edits[i]);
        if (nedits > 0 && r->nmoves % 5 == 0)
            m->message = tx_strdup("edits");
        if (move.privilege)
            m->message = tx_strdup("privilege!");
        enum tx_illegal why = tx_game_apply(g, &move, NULL);
        if (why != TX_LEGAL) {
            char reason[256];
            tx_answer_describe(g, &move, why, NULL, reason, sizeof reason);
            fprintf(stderr, "make-games: game %d, move %d (%s): %s\n", spec->game, r->nmoves,
                    m->move, reason);
            abort();
        }
    }
    if (g->status == TX_WON) {
        int k = tx_game_winning_chain(g, holes);
        char a[TX_HOLE_NAME_MAX], b[TX_HOLE_NAME_MAX];
        snprintf(detail, sizeof detail, "%s-%s", tx_hole_name(geo, holes[0], a),
                 tx_hole_name(geo, holes[k - 1], b));
        /* The player, or the team, that plays the winning colour. */
        r->result.winner = g->winner ^ g->exchanged;
        r->result.reason = TX_REASON_CONNECTION;
    } else {
        snprintf(detail, sizeof detail, "no legal hole for player %d", g->seat + 1);
        r->result.winner = -1;
        r->result.reason = TX_REASON_DRAW;
    }
    r->result.detail = tx_strdup(detail);
    for (int p = 0; p < r->nplayers; p++) {
        struct tx_record_player *pl = &r->players[p];
        pl->nlinks = tx_game_links(g, tx_game_seat_colour(g, p), buf);
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
