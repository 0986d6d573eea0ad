/* playout.c - one Monte Carlo game to the end, with a light policy.
 *
 * The vacant holes live in an array with swap-removal (and each hole's index
 * in it), so picking a uniform hole is O(1). Holes a player may not use (the
 * opponent's border lines) stay in the array; a pick that lands on one is
 * retried a few times, then the array is scanned, which also detects the
 * draw: no hole left for the player to move.
 */
#include "playout.h"

#include <stdbool.h>

/* The 8 holes around a hole (king steps), added to its knight steps for the
 * answers to the opponent's last peg. */
static const int8_t around[8][2] = {{1, 0}, {-1, 0}, {0, 1},  {0, -1},
                                    {1, 1}, {1, -1}, {-1, 1}, {-1, -1}};

void tx_playout_policy_default(struct tx_playout_policy *policy)
{
    policy->extend = 0.5;
    policy->answer = 0.25;
}

struct vacant {
    int16_t hole[TX_HOLES_MAX];
    int16_t index[TX_HOLES_MAX];
    int n;
};

static void vacant_remove(struct vacant *v, int hole)
{
    int i = v->index[hole];
    int last = v->hole[--v->n];
    v->hole[i] = (int16_t)last;
    v->index[last] = (int16_t)i;
}

/* A knight step from `from` that player may use and link to, or -1. */
static int extend_move(const struct tx_fastboard *b, int player, int from, struct tx_rng *rng)
{
    const struct tx_geometry *geo = b->geo;
    int start = (int)tx_rng_below(rng, 8);
    for (int i = 0; i < 8; i++) {
        int k = (start + i) & 7;
        int n = geo->neighbour[from][k];
        if (n >= 0 && tx_fastboard_can_play(b, player, n) &&
            !tx_fastboard_link_blocked(b, player, geo->link_of[from][k]))
            return n;
    }
    return -1;
}

/* A hole near the opponent's peg `near` (a knight or a king step away). */
static int answer_move(const struct tx_fastboard *b, int player, int near, struct tx_rng *rng)
{
    const struct tx_geometry *geo = b->geo;
    int x = tx_geometry_x(geo, near), y = tx_geometry_y(geo, near);
    int start = (int)tx_rng_below(rng, 16);
    for (int i = 0; i < 16; i++) {
        int k = (start + i) & 15, n;
        if (k < 8)
            n = geo->neighbour[near][k];
        else
            n = tx_geometry_hole(geo, x + around[k - 8][0], y + around[k - 8][1]);
        if (n >= 0 && tx_fastboard_can_play(b, player, n))
            return n;
    }
    return -1;
}

/* A uniform vacant hole player may use, or -1 when there is none. */
static int random_move(const struct tx_fastboard *b, int player, const struct vacant *v,
                       struct tx_rng *rng)
{
    if (v->n == 0)
        return -1;
    for (int tries = 0; tries < 4; tries++) {
        int h = v->hole[tx_rng_below(rng, (uint32_t)v->n)];
        if (tx_fastboard_can_play(b, player, h))
            return h;
    }
    int start = (int)tx_rng_below(rng, (uint32_t)v->n);
    for (int i = 0; i < v->n; i++) {
        int h = v->hole[(start + i) % v->n];
        if (tx_fastboard_can_play(b, player, h))
            return h;
    }
    return -1;
}

int tx_playout_run(struct tx_fastboard *b, const struct tx_playout_policy *policy,
                   struct tx_rng *rng, int last[2], uint8_t *amaf)
{
    struct vacant v;
    v.n = 0;
    for (int h = 0; h < b->geo->holes; h++) {
        if (tx_fastboard_cell(b, h) == TX_EMPTY && !(b->geo->zone[h] & TX_ZONE_CORNER)) {
            v.index[h] = (int16_t)v.n;
            v.hole[v.n++] = (int16_t)h;
        }
    }
    while (b->winner < 0) {
        int p = b->to_move, move = -1;
        double r = tx_rng_unit(rng);
        if (r < policy->extend) {
            if (last[p] >= 0)
                move = extend_move(b, p, last[p], rng);
        } else if (r < policy->extend + policy->answer) {
            if (last[!p] >= 0)
                move = answer_move(b, p, last[!p], rng);
        }
        if (move < 0)
            move = random_move(b, p, &v, rng);
        if (move < 0)
            return -1; /* the player to move has no hole: a draw */
        vacant_remove(&v, move);
        tx_fastboard_play(b, move);
        last[p] = move;
        if (!amaf[move])
            amaf[move] = (uint8_t)(p + 1);
    }
    return b->winner;
}
