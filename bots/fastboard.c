/* fastboard.c - the search board: a peg, its links, the win test.
 *
 * See fastboard.h. Everything here runs inside playouts, so it avoids
 * branches it does not need: a hole's eight knight neighbours and their link
 * ids come from the geometry tables, and the border nodes joined by a peg
 * come from its zone bits.
 */
#include "fastboard.h"

#include <stdlib.h>
#include <string.h>

#include "alloc.h"

static int16_t *uf_of(struct tx_fastboard *b)
{
    return (int16_t *)(void *)((uint8_t *)b->mem + b->off_uf);
}

static uint8_t *cells_of(struct tx_fastboard *b)
{
    return (uint8_t *)b->mem + b->off_cell;
}

static const int16_t *uf_const(const struct tx_fastboard *b)
{
    return (const int16_t *)(const void *)((const uint8_t *)b->mem + b->off_uf);
}

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

size_t tx_fastboard_size(const struct tx_geometry *geo)
{
    size_t words = ((size_t)geo->link_ids + 63) / 64;
    size_t tables = 2 * words * 8 + ((size_t)geo->holes + 4) * 2 + (size_t)geo->holes;
    return (sizeof(struct tx_fastboard) + tables + 7) / 8 * 8;
}

void tx_fastboard_init(struct tx_fastboard *b, const struct tx_geometry *geo, enum tx_rules rules)
{
    b->geo = geo;
    b->to_move = 0;
    b->winner = -1;
    b->own_links_block = tx_ruleset(rules)->own_links_block;
    b->second_line = false;
    b->bytes = (uint32_t)tx_fastboard_size(geo);
    b->words = (uint32_t)(((size_t)geo->link_ids + 63) / 64);
    b->off_uf = b->words * 2 * 8;
    b->off_cell = b->off_uf + ((uint32_t)geo->holes + 4) * 2;
    memset(b->mem, 0, b->off_uf);
    memset(cells_of(b), 0, (size_t)geo->holes);
    int16_t *uf = uf_of(b);
    for (int i = 0; i < geo->holes + 4; i++)
        uf[i] = (int16_t)i;
}

void tx_fastboard_empty_like(struct tx_fastboard *b, const struct tx_fastboard *like)
{
    tx_fastboard_init(b, like->geo, TX_RULES_PP);
    b->own_links_block = like->own_links_block; /* the board's only rule */
}

struct tx_fastboard *tx_fastboard_new(const struct tx_geometry *geo, enum tx_rules rules)
{
    struct tx_fastboard *b = tx_xmalloc(tx_fastboard_size(geo));
    tx_fastboard_init(b, geo, rules);
    return b;
}

/* Under classic rules: true when player's peg in hole (on its second line)
 * is linked to its peg in the border hole n, or n is vacant, usable by
 * player, and no link crosses the step: player's own links block it too,
 * so a step its own link crosses is no way to the border (see
 * tx_fastboard_count_second_lines for why nothing else can close it). */
static bool classic_step_open(const struct tx_fastboard *b, int player, int hole, int n)
{
    int link = tx_geometry_link(b->geo, hole, n);
    if (link < 0)
        return false;
    if (tx_fastboard_cell(b, n) == player + 1)
        return tx_fastboard_has_link(b, player, link);
    return tx_fastboard_can_play(b, player, n) && !tx_fastboard_link_blocked(b, player, link);
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
    /* the far border line's index across the board: rows for player 0 */
    int last = (player == 0 ? geo->height : geo->width) - 1;
    int border = across == 1 ? 0 : across == last - 1 ? last : -1;
    if (border < 0)
        return -1;
    for (int d = -2; d <= 2; d += 4) {
        int n = player == 0 ? tx_geometry_hole(geo, along + d, border)
                            : tx_geometry_hole(geo, border, along + d);
        if (n >= 0 &&
            (tx_fastboard_cell(b, n) == player + 1 || tx_fastboard_can_play(b, player, n)) &&
            (!b->own_links_block || classic_step_open(b, player, hole, n)))
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
        join(uf_of(b), hole, b->geo->holes + 2 * player + side);
}

/* Joins a peg of player in hole to the border nodes of its own lines: the
 * nodes follow the holes, rows 1/last, then columns A/last. */
static void join_borders(struct tx_fastboard *b, int player, int hole)
{
    if (b->second_line)
        join_second_line(b, player, hole);
    unsigned zone = b->geo->zone[hole];
    int16_t *uf = uf_of(b);
    int base = b->geo->holes;
    if (player == 0) {
        if (zone & TX_ZONE_ROW_FIRST)
            join(uf, hole, base + 0);
        if (zone & TX_ZONE_ROW_LAST)
            join(uf, hole, base + 1);
    } else {
        if (zone & TX_ZONE_COL_FIRST)
            join(uf, hole, base + 2);
        if (zone & TX_ZONE_COL_LAST)
            join(uf, hole, base + 3);
    }
}

static bool joined(struct tx_fastboard *b, int player)
{
    int first = b->geo->holes + (player == 0 ? 0 : 2);
    int16_t *uf = uf_of(b);
    return find(uf, first) == find(uf, first + 1);
}

static void set_link(struct tx_fastboard *b, int player, int link)
{
    b->mem[(player ? b->words : 0) + (uint32_t)(link >> 6)] |= 1ULL << (link & 63);
}

void tx_fastboard_count_second_lines(struct tx_fastboard *b)
{
    b->second_line = true;
    for (int h = 0; h < b->geo->holes; h++)
        if (tx_fastboard_cell(b, h) != TX_EMPTY)
            join_second_line(b, tx_fastboard_cell(b, h) - 1, h);
    for (int p = 0; p < 2 && b->winner < 0; p++)
        if (joined(b, p))
            b->winner = p;
}

/* The zones of player's two border lines. */
static unsigned border_zones(int player)
{
    return player == 0 ? TX_ZONE_ROW_FIRST | TX_ZONE_ROW_LAST
                       : TX_ZONE_COL_FIRST | TX_ZONE_COL_LAST;
}

/* The union-find tables made again from the pegs and links, with the
 * second-line rule as the links stand now (classic_second_line_cut). */
static void rebuild_joins(struct tx_fastboard *b)
{
    const struct tx_geometry *geo = b->geo;
    int16_t *uf = uf_of(b);
    for (int i = 0; i < geo->holes + 4; i++)
        uf[i] = (int16_t)i;
    for (int h = 0; h < geo->holes; h++)
        if (tx_fastboard_cell(b, h) != TX_EMPTY)
            join_borders(b, tx_fastboard_cell(b, h) - 1, h);
    for (int p = 0; p < 2; p++) {
        const uint64_t *links = tx_fastboard_links(b, p);
        for (uint32_t w = 0; w < b->words; w++)
            for (uint64_t bits = links[w]; bits; bits &= bits - 1) {
                int l = (int)(w * 64) + __builtin_ctzll(bits);
                join(uf, geo->link_end[l][0], geo->link_end[l][1]);
            }
    }
}

/* The classic second-line rule's one way of being undone: under classic
 * rules a player's own link blocks it too, so its new link may cross the
 * step from one of its second-line pegs to the border hole that joined the
 * peg to its border line (only a link with an end on that border line
 * can: every other link stays on the far side of the second line). True
 * when player's new link crosses a step between one of its pegs and a hole
 * of its border lines; the caller then rebuilds the joins (rebuild_joins),
 * a few microseconds on 12 x 12, needed only when a player builds on its
 * own border line next to its second-line pegs. */
static bool classic_second_line_cut(const struct tx_fastboard *b, int player, int link)
{
    const struct tx_geometry *geo = b->geo;
    unsigned border = border_zones(player);
    for (int i = 0; i < TX_CROSSINGS && geo->crossing[link][i] != TX_NO_LINK; i++) {
        int c = geo->crossing[link][i];
        for (int e = 0; e < 2; e++) {
            int peg = geo->link_end[c][e], hole = geo->link_end[c][!e];
            if (!(geo->zone[hole] & border) || tx_fastboard_cell(b, peg) != player + 1)
                continue;
            /* the step of a second-line peg (not of a third-line one) */
            int across = player == 0 ? tx_geometry_y(geo, peg) - tx_geometry_y(geo, hole)
                                     : tx_geometry_x(geo, peg) - tx_geometry_x(geo, hole);
            if (abs(across) == 1)
                return true;
        }
    }
    return false;
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
    return root_of(uf_const(b), a) == root_of(uf_const(b), c);
}

bool tx_fastboard_joined_to(const struct tx_fastboard *b, int player, int hole, int side)
{
    return tx_fastboard_connected(b, hole, b->geo->holes + 2 * player + side);
}

void tx_fastboard_from_game(struct tx_fastboard *b, const struct tx_game *g)
{
    const struct tx_geometry *geo = g->geo;
    tx_fastboard_init(b, geo, (enum tx_rules)g->rules);
    b->to_move = g->to_move;
    uint8_t *cell = cells_of(b);
    for (int h = 0; h < geo->holes; h++) {
        int c = tx_game_cell(g, h);
        if (c == TX_EMPTY)
            continue;
        cell[h] = (uint8_t)c;
        join_borders(b, c - 1, h);
    }
    for (int l = 0; l < geo->link_ids; l++) {
        if (geo->link_end[l][0] < 0 || !tx_game_has_link(g, l))
            continue;
        int a = geo->link_end[l][0], c = geo->link_end[l][1];
        int owner = cell[a] - 1;
        if (owner < 0)
            continue; /* a link needs pegs at both ends; ignore a broken game */
        set_link(b, owner, l);
        join(uf_of(b), a, c);
    }
    if (g->status == TX_WON)
        b->winner = g->winner;
}

void tx_fastboard_play(struct tx_fastboard *b, int hole)
{
    const struct tx_geometry *geo = b->geo;
    int p = b->to_move;
    uint8_t mine = (uint8_t)(p + 1);
    uint8_t *cell = cells_of(b);

    cell[hole] = mine;
    join_borders(b, p, hole);
    for (int k = 0; k < 8; k++) {
        int n = geo->neighbour[hole][k];
        if (n < 0 || cell[n] != mine)
            continue;
        int link = geo->link_of[hole][k];
        if (tx_fastboard_link_blocked(b, p, link))
            continue;
        set_link(b, p, link);
        join(uf_of(b), hole, n);
    }
    if (b->own_links_block && b->second_line) {
        /* only a new link with an end on the mover's border lines can
         * cross one of its second-line steps */
        unsigned border = border_zones(p);
        bool cut = false;
        for (int k = 0; k < 8 && !cut; k++) {
            int n = geo->neighbour[hole][k], link = geo->link_of[hole][k];
            cut = n >= 0 && ((geo->zone[hole] | geo->zone[n]) & border) &&
                  tx_fastboard_has_link(b, p, link) && classic_second_line_cut(b, p, link);
        }
        if (cut)
            rebuild_joins(b);
    }
    if (b->winner < 0 && joined(b, p))
        b->winner = p;
    b->to_move = !p;
}
