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
    policy->save_bridge = true;
    policy->save_edge = true;
    policy->max_moves = 0;
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

/* The link from hole a to its knight neighbour c, or -1. */
static int link_between(const struct tx_geometry *geo, int a, int c)
{
    for (int k = 0; k < 8; k++)
        if (geo->neighbour[a][k] == c)
            return geo->link_of[a][k];
    return -1;
}

/* A hole other than `except` a knight step from player's pegs a and c that
 * player may fill and link to both, or -1. */
static int other_bridge_hole(const struct tx_fastboard *b, int player, int a, int c, int except)
{
    const struct tx_geometry *geo = b->geo;
    for (int k = 0; k < 8; k++) {
        int x = geo->neighbour[a][k];
        if (x < 0 || x == except || !tx_fastboard_can_play(b, player, x) ||
            tx_fastboard_link_blocked(b, player, geo->link_of[a][k]))
            continue;
        int link = link_between(geo, x, c);
        if (link >= 0 && !tx_fastboard_link_blocked(b, player, link))
            return x;
    }
    return -1;
}

/* The last way left from player's peg a, on the third or fourth line from
 * a border line of player and not yet joined to it, to a hole that would be
 * joined to it for good (tx_fastboard_sealed_side: the border line, or the
 * second line with b->second_line), or -1 when more than one is left (or
 * none). A fourth-line peg has two such ways, a knight step to each side
 * on the second line: Twixt's edge template, a bridge with the border. */
static int save_edge(const struct tx_fastboard *b, int player, int a)
{
    const struct tx_geometry *geo = b->geo;
    int last = (player == 0 ? geo->height : geo->width) - 1; /* across the board, for player */
    int across = player == 0 ? tx_geometry_y(geo, a) : tx_geometry_x(geo, a);
    int side = across <= 3 ? 0 : across >= last - 3 ? 1 : -1;
    int depth = side == 0 ? across : last - across;
    if (side < 0 || depth < 2 || tx_fastboard_joined_to(b, player, a, side))
        return -1;
    int way = -1, ways = 0;
    for (int k = 0; k < 8; k++) {
        int x = geo->neighbour[a][k];
        if (x < 0 || tx_fastboard_sealed_side(b, player, x) != side ||
            tx_fastboard_link_blocked(b, player, geo->link_of[a][k]))
            continue;
        if (tx_fastboard_cell(b, x) == player + 1)
            return -1; /* linked already (another way of being joined) */
        if (!tx_fastboard_can_play(b, player, x))
            continue;
        ways++;
        way = x;
    }
    return ways == 1 ? way : -1;
}

/* The answer when the opponent's peg `in` broke one of two ways of joining
 * two of player's pegs a and c that are not yet in one chain (Twixt's form
 * of a Hex bridge: two holes each a knight step from both): the other way,
 * if it is still open. `in` breaks a way by taking its hole or by a link
 * crossing one of its two links. With edges, also the last way left from
 * a peg `in` touched to its border line (save_edge). */
int tx_playout_save_bridge(const struct tx_fastboard *b, int player, int in, bool edges)
{
    const struct tx_geometry *geo = b->geo;
    uint8_t mine = (uint8_t)(player + 1);
    int pegs[8], n = 0;
    for (int k = 0; k < 8; k++) {
        int a = geo->neighbour[in][k];
        if (a >= 0 && tx_fastboard_cell(b, a) == mine)
            pegs[n++] = a;
    }
    for (int i = 0; i < n; i++) {
        for (int j = i + 1; j < n; j++)
            if (!tx_fastboard_connected(b, pegs[i], pegs[j])) {
                int x = other_bridge_hole(b, player, pegs[i], pegs[j], in);
                if (x >= 0)
                    return x;
            }
        int x = edges ? save_edge(b, player, pegs[i]) : -1;
        if (x >= 0)
            return x;
    }
    for (int k = 0; k < 8; k++) {
        int link = geo->link_of[in][k];
        if (link == TX_NO_LINK || !tx_fastboard_has_link(b, !player, link))
            continue;
        for (int i = 0; i < TX_CROSSINGS; i++) {
            int cut = geo->crossing[link][i];
            if (cut == TX_NO_LINK)
                break;
            for (int e = 0; e < 2; e++) { /* a: the peg, x: the hole the cut link led to */
                int a = geo->link_end[cut][e], x = geo->link_end[cut][!e];
                if (tx_fastboard_cell(b, a) != mine || tx_fastboard_cell(b, x) != TX_EMPTY)
                    continue;
                for (int m = 0; m < 8; m++) {
                    int c = geo->neighbour[x][m];
                    if (c < 0 || c == a || tx_fastboard_cell(b, c) != mine ||
                        tx_fastboard_connected(b, a, c))
                        continue;
                    int y = other_bridge_hole(b, player, a, c, x);
                    if (y >= 0)
                        return y;
                }
                int y = edges ? save_edge(b, player, a) : -1;
                if (y >= 0)
                    return y;
            }
        }
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
    for (int played = 0; b->winner < 0; played++) {
        if (played == policy->max_moves && played > 0)
            return TX_PLAYOUT_CUT;
        int p = b->to_move, move = -1;
        if (policy->save_bridge && last[!p] >= 0)
            move = tx_playout_save_bridge(b, p, last[!p], policy->save_edge);
        double r = move >= 0 ? 1 : tx_rng_unit(rng); /* an answer to an intrusion comes first */
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
