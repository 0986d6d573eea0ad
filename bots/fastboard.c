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
    b->second_line = false;
    memset(b->cell, 0, sizeof(b->cell));
    memset(b->links, 0, sizeof(b->links));
    for (int i = 0; i < TX_HOLES_MAX + 4; i++)
        b->uf[i] = (int16_t)i;
}

int tx_fastboard_sealed_side(const struct tx_fastboard *b, int player, int hole)
{
    const struct tx_geometry *geo = b->geo;
    unsigned zone = geo->zone[hole];
    if (zone & (player == 0 ? TX_ZONE_ROW_FIRST : TX_ZONE_COL_FIRST))
        return 0;
    if (zone & (player == 0 ? TX_ZONE_ROW_LAST : TX_ZONE_COL_LAST))
        return 1;
    if (!b->second_line)
        return -1;
    int along = player == 0 ? tx_geometry_x(geo, hole) : tx_geometry_y(geo, hole);
    int across = player == 0 ? tx_geometry_y(geo, hole) : tx_geometry_x(geo, hole);
    int last = geo->size - 1; /* the far border line's index across the board */
    int border = across == 1 ? 0 : across == last - 1 ? last : -1;
    if (border < 0)
        return -1;
    for (int d = -2; d <= 2; d += 4) {
        int n = player == 0 ? tx_geometry_hole(geo, along + d, border)
                            : tx_geometry_hole(geo, border, along + d);
        if (n >= 0 && (b->cell[n] == player + 1 || tx_fastboard_can_play(b, player, n)))
            return border != 0;
    }
    return -1;
}

/* With b->second_line: joins a peg of player in hole on a second line to
 * that line's border node (tx_fastboard_sealed_side). */
static void join_second_line(struct tx_fastboard *b, int player, int hole)
{
    int side = tx_fastboard_sealed_side(b, player, hole);
    if (side >= 0)
        join(b->uf, hole, BORDER_NODE(2 * player + side));
}

/* Joins a peg of player in hole to the border nodes of its own lines. */
static void join_borders(struct tx_fastboard *b, int player, int hole)
{
    if (b->second_line)
        join_second_line(b, player, hole);
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

void tx_fastboard_count_second_lines(struct tx_fastboard *b)
{
    b->second_line = true;
    for (int h = 0; h < b->geo->holes; h++)
        if (b->cell[h] != TX_EMPTY)
            join_second_line(b, b->cell[h] - 1, h);
    for (int p = 0; p < 2 && b->winner < 0; p++)
        if (joined(b, p))
            b->winner = p;
}

/* find without path halving, for a board the caller may not change. */
static int root_of(const int16_t *uf, int x)
{
    while (uf[x] != x)
        x = uf[x];
    return x;
}

bool tx_fastboard_connected(const struct tx_fastboard *b, int a, int c)
{
    return root_of(b->uf, a) == root_of(b->uf, c);
}

bool tx_fastboard_joined_to(const struct tx_fastboard *b, int player, int hole, int side)
{
    return tx_fastboard_connected(b, hole, BORDER_NODE(2 * player + side));
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
