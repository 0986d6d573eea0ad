/* fastboard.c - the search board: a peg, its links, the win test.
 *
 * See fastboard.h. Everything here runs inside playouts, so it avoids
 * branches it does not need: a hole's eight knight neighbours and their link
 * ids come from the geometry tables, and the border nodes joined by a peg
 * come from its zone bits.
 */
#include "fastboard.h"

#include <string.h>

/* Border node of each zone bit: holes first, then rows 1/N, columns A/last. */
#define BORDER_NODE(bit) (TX_HOLES_MAX + (bit))

static int find(int16_t *uf, int x)
{
    while (uf[x] != x) {
        uf[x] = uf[uf[x]]; /* path halving keeps the trees flat */
        x = uf[x];
    }
    return x;
}

static void join(int16_t *uf, int a, int b)
{
    a = find(uf, a);
    b = find(uf, b);
    if (a != b)
        uf[a] = (int16_t)b;
}

void tx_fastboard_init(struct tx_fastboard *b, const struct tx_geometry *geo)
{
    b->geo = geo;
    b->to_move = 0;
    b->winner = -1;
    memset(b->cell, 0, sizeof(b->cell));
    memset(b->links, 0, sizeof(b->links));
    for (int i = 0; i < TX_HOLES_MAX + 4; i++)
        b->uf[i] = (int16_t)i;
}

/* Joins a peg of player in hole to the border nodes of its own lines. */
static void join_borders(struct tx_fastboard *b, int player, int hole)
{
    unsigned zone = b->geo->zone[hole];
    if (player == 0) {
        if (zone & TX_ZONE_ROW_FIRST)
            join(b->uf, hole, BORDER_NODE(0));
        if (zone & TX_ZONE_ROW_LAST)
            join(b->uf, hole, BORDER_NODE(1));
    } else {
        if (zone & TX_ZONE_COL_FIRST)
            join(b->uf, hole, BORDER_NODE(2));
        if (zone & TX_ZONE_COL_LAST)
            join(b->uf, hole, BORDER_NODE(3));
    }
}

static bool joined(struct tx_fastboard *b, int player)
{
    int first = BORDER_NODE(player == 0 ? 0 : 2);
    return find(b->uf, first) == find(b->uf, first + 1);
}

void tx_fastboard_from_game(struct tx_fastboard *b, const struct tx_game *g)
{
    const struct tx_geometry *geo = g->geo;
    tx_fastboard_init(b, geo);
    b->to_move = g->to_move;
    for (int h = 0; h < geo->holes; h++) {
        if (g->cell[h] == TX_EMPTY)
            continue;
        b->cell[h] = g->cell[h];
        join_borders(b, g->cell[h] - 1, h);
    }
    for (int l = 0; l < geo->holes * 4; l++) {
        if (geo->link_end[l][0] < 0 || !tx_game_has_link(g, l))
            continue;
        int a = geo->link_end[l][0], c = geo->link_end[l][1];
        int owner = g->cell[a] - 1;
        if (owner < 0)
            continue; /* a link needs pegs at both ends; ignore a broken game */
        b->links[owner][l >> 6] |= 1ULL << (l & 63);
        join(b->uf, a, c);
    }
    if (g->status == TX_WON)
        b->winner = g->winner;
}

void tx_fastboard_play(struct tx_fastboard *b, int hole)
{
    const struct tx_geometry *geo = b->geo;
    int p = b->to_move;
    uint8_t mine = (uint8_t)(p + 1);

    b->cell[hole] = mine;
    join_borders(b, p, hole);
    for (int k = 0; k < 8; k++) {
        int n = geo->neighbour[hole][k];
        if (n < 0 || b->cell[n] != mine)
            continue;
        int link = geo->link_of[hole][k];
        if (tx_fastboard_link_blocked(b, p, link))
            continue;
        b->links[p][link >> 6] |= 1ULL << (link & 63);
        join(b->uf, hole, n);
    }
    if (b->winner < 0 && joined(b, p))
        b->winner = p;
    b->to_move = !p;
}
