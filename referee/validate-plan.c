/* validate-plan.c - the battery's games: scenarios and their openings.
 *
 * Openings are the forced moves of the scenarios, made with libtwixt from a
 * seeded generator so that a seed always gives the same battery and no
 * opening ends the game. The plan lays out every game of every round as a
 * slot: the tx_game_spec the match plays and everything it points to.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "command.h"
#include "game.h"
#include "schedule.h"
#include "validate-private.h"

#define SCENARIO_TRIES 64 /* seeds tried for an opening before the scenario is dropped */

/* ---- openings ---- */

static uint64_t next_random(uint64_t *state)
{
    *state += UINT64_C(0x9e3779b97f4a7c15);
    return tx_schedule_mix(*state);
}

static int random_below(uint64_t *state, int n)
{
    return (int)(next_random(state) % (uint64_t)n);
}

/* Player 1's first peg, on the diagonal (x == y) or off it. */
static int first_peg(const struct tx_geometry *geo, uint64_t *rng, bool diagonal, int16_t *out)
{
    int16_t holes[TX_HOLES_MAX];
    int n = 0;
    for (int h = 0; h < geo->holes; h++)
        if (tx_geometry_playable(geo, 0, h) &&
            (tx_geometry_x(geo, h) == tx_geometry_y(geo, h)) == diagonal)
            holes[n++] = (int16_t)h;
    if (n == 0)
        return -1;
    out[0] = holes[random_below(rng, n)];
    return 1;
}

/* Random legal moves (never a swap, never one that ends the game) until the
 * bot is on move with at most TX_VALIDATE_LATE_HOLES legal holes. */
static int late_opening(const struct tx_geometry *geo, uint64_t *rng, int player, int16_t *out)
{
    struct tx_game g, next;
    int16_t moves[TX_MOVES_MAX];
    tx_game_init(&g, geo);
    for (;;) {
        if (g.to_move == player && g.vacant_ok[player] <= TX_VALIDATE_LATE_HOLES)
            return g.nmoves;
        int n = tx_game_legal_moves(&g, moves), played = 0;
        for (int tries = 0; tries < n && !played; tries++) {
            int m = moves[random_below(rng, n)];
            next = g;
            if (m != TX_MOVE_SWAP && tx_game_play(&next, m) == TX_LEGAL &&
                next.status == TX_ONGOING) {
                out[g.nmoves] = (int16_t)m;
                g = next;
                played = 1;
            }
        }
        if (!played)
            return -1; /* every move tried ends the game: another seed */
    }
}

/* The opponent's pegs in a bow tie (x0,y0) (x0+1,y0+2) (x0+1,y0) (x0,y0+2):
 * its 2nd and 4th pegs make two links that cross each other. The bot's
 * forced pegs go at random, at least 3 holes away from the bow tie. */
static int crossing_opening(const struct tx_geometry *geo, uint64_t *rng, int player, int16_t *out)
{
    int x0 = geo->size / 2 - 1, y0 = geo->size / 2 - 2, opp = 1 - player;
    int tie[4] = {tx_geometry_hole(geo, x0, y0), tx_geometry_hole(geo, x0 + 1, y0 + 2),
                  tx_geometry_hole(geo, x0 + 1, y0), tx_geometry_hole(geo, x0, y0 + 2)};
    int16_t far[TX_HOLES_MAX];
    int nfar = 0, n = 0;
    for (int h = 0; h < geo->holes; h++) {
        int dx = tx_geometry_x(geo, h) - x0, dy = tx_geometry_y(geo, h) - y0;
        if (tx_geometry_playable(geo, player, h) && (dx < -3 || dx > 4 || dy < -3 || dy > 5))
            far[nfar++] = (int16_t)h;
    }
    for (int i = 0; i < 4; i++)
        if (tie[i] < 0 || !tx_geometry_playable(geo, opp, tie[i]))
            return -1; /* a board too small */
    if (nfar < 8)
        return -1;
    struct tx_game g;
    tx_game_init(&g, geo);
    for (int k = 0; k < 4; k++) {
        for (int side = 0; side < 2; side++) {
            if (g.to_move == opp) {
                out[n++] = (int16_t)tie[k];
            } else if (k < 3 || player == 0) {
                int h;
                do
                    h = far[random_below(rng, nfar)];
                while (g.cell[h] != TX_EMPTY);
                out[n++] = (int16_t)h;
            } else {
                continue; /* the bot, player 2, is on move after the 4th tie peg */
            }
            if (tx_game_play(&g, out[n - 1]) != TX_LEGAL || g.status != TX_ONGOING)
                return -1;
        }
    }
    if (g.to_move != player || !tx_game_linked(&g, tie[0], tie[1]) ||
        !tx_game_linked(&g, tie[2], tie[3]))
        return -1;
    return n;
}

/* ---- the plan ---- */

static void plan(struct tx_validate_battery *v, enum tx_validate_scenario scenario, int player,
                 const char *opponent)
{
    const struct tx_validate_config *c = v->c;
    struct tx_validate_slot *s = &v->slots[v->nslots];
    int64_t index = v->nslots + 1;
    uint64_t seed = tx_schedule_mix(c->seed * 1000003u + (uint64_t)index) & TX_SCHEDULE_SEED_MASK;
    int n = 0;
    for (int t = 0; t < SCENARIO_TRIES; t++) {
        uint64_t rng = seed + (uint64_t)t;
        if (scenario == TX_SCENARIO_DIAGONAL || scenario == TX_SCENARIO_OFF_DIAGONAL)
            n = first_peg(c->geo, &rng, scenario == TX_SCENARIO_DIAGONAL, s->opening);
        else if (scenario == TX_SCENARIO_LATE)
            n = late_opening(c->geo, &rng, player, s->opening);
        else if (scenario == TX_SCENARIO_CROSSING)
            n = crossing_opening(c->geo, &rng, player, s->opening);
        if (n >= 0)
            break;
    }
    if (n < 0) {
        v->rep->skipped |= 1u << scenario; /* this board has no such opening */
        return;
    }
    s->scenario = scenario;
    s->player = player;
    s->nforced = n;
    s->opponent_command = scenario == TX_SCENARIO_SWAP ? NULL : tx_strdup(opponent);
    if (scenario == TX_SCENARIO_SWAP) {
        size_t len = strlen(opponent) + 32;
        s->opponent_command = malloc(len);
        if (!s->opponent_command)
            abort();
        snprintf(s->opponent_command, len, "%s --swap-prob 1", opponent);
    }
    tx_command_derive_name(opponent, s->opponent_name);
    s->bots[player] = (struct tx_bot_spec){.name = c->name, .command = c->command};
    s->bots[1 - player] =
        (struct tx_bot_spec){.name = s->opponent_name, .command = s->opponent_command};
    s->spec = (struct tx_game_spec){
        .index = index,
        .seed = seed,
        .bots = {&s->bots[0], &s->bots[1]},
        .nopening = n,
        .opening = s->opening,
    };
    v->nslots++;
}
void tx_validate_plan_battery(struct tx_validate_battery *v)
{
    const struct tx_validate_config *c = v->c;
    const char *plain[TX_VALIDATE_OPPONENTS_MAX + 2];
    int nplain = 0;
    if (c->nopponents > 0) {
        for (int i = 0; i < c->nopponents; i++)
            plain[nplain++] = c->opponents[i];
    } else {
        if (c->random_command)
            plain[nplain++] = c->random_command;
        if (c->strong_command)
            plain[nplain++] = c->strong_command;
    }
    const char *sparring = c->random_command ? c->random_command : nplain ? plain[0] : NULL;
    int per_round = 2 * nplain + 7;
    v->slots = calloc((size_t)per_round * (size_t)c->rounds, sizeof *v->slots);
    if (!v->slots)
        abort();
    for (int round = 0; round < c->rounds; round++) {
        for (int i = 0; i < nplain; i++)
            for (int p = 0; p < 2; p++)
                plan(v, TX_SCENARIO_OPPONENT, p, plain[i]);
        if (!sparring)
            continue;
        if (c->random_command)
            plan(v, TX_SCENARIO_SWAP, 0, c->random_command);
        plan(v, TX_SCENARIO_DIAGONAL, 1, sparring);
        plan(v, TX_SCENARIO_OFF_DIAGONAL, 1, sparring);
        for (int p = 0; p < 2; p++)
            plan(v, TX_SCENARIO_LATE, p, sparring);
        for (int p = 0; p < 2; p++)
            plan(v, TX_SCENARIO_CROSSING, p, sparring);
    }
    v->rep->swap_skipped = !c->random_command;
}
