/* game.c - the rules of Twixt-PP on a flat, copyable game state.
 *
 * A placement sets the peg, links it to every same-coloured knight neighbour
 * whose link would not cross an opponent's link (own links may cross: the
 * PP rule), and unites it in a union-find with those neighbours and with the
 * border node of any border line it sits on. A win is then one comparison of
 * two border roots. Union-find entries of holes are only written when a peg
 * is placed (nothing reads an empty hole's entry), which keeps
 * tx_game_init down to clearing the cells and link bits of this board size.
 *
 * Union-find layout: uf[hole] for pegs, uf[holes + z] for the border nodes
 * z = 0 row 1, 1 row N, 2 column A, 3 last column. A root holds minus its
 * set size (union by size), anything else its parent.
 *
 * Lists (pegs, links) are derived from moves[] and the link bits when asked
 * for, so the struct holds no list that could disagree with the board.
 */
#include "game.h"

#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "hole.h"
#include "input.h"

enum { NODE_ROW_FIRST, NODE_ROW_LAST, NODE_COL_FIRST, NODE_COL_LAST };

static int find(int16_t *uf, int x)
{
    /* Path halving: every visited node skips to its grandparent. */
    while (uf[x] >= 0) {
        int p = uf[x];
        if (uf[p] < 0)
            return p;
        uf[x] = uf[p];
        x = uf[p];
    }
    return x;
}

static void unite(int16_t *uf, int a, int b)
{
    a = find(uf, a);
    b = find(uf, b);
    if (a == b)
        return;
    if (uf[a] > uf[b]) { /* a's set is the smaller: hang it under b */
        int t = a;
        a = b;
        b = t;
    }
    uf[a] = (int16_t)(uf[a] + uf[b]);
    uf[b] = (int16_t)a;
}

static uint8_t ok_bit(int player)
{
    return player == 0 ? TX_ZONE_PLAYER0_OK : TX_ZONE_PLAYER1_OK;
}

static void set_link(struct tx_game *g, int link)
{
    g->link_bits[link >> 6] |= (uint64_t)1 << (link & 63);
}

/* True when the player's two border nodes are in one set. */
static bool connected(struct tx_game *g, int player)
{
    int base = g->geo->holes;
    if (player == 0)
        return find(g->uf, base + NODE_ROW_FIRST) == find(g->uf, base + NODE_ROW_LAST);
    return find(g->uf, base + NODE_COL_FIRST) == find(g->uf, base + NODE_COL_LAST);
}

/* Puts a peg of player in vacant hole h without making links: the cell, the
 * vacancy counts, and its union-find entry joined to its border nodes. */
static void put_peg(struct tx_game *g, int player, int h)
{
    const struct tx_geometry *geo = g->geo;
    uint8_t z = geo->zone[h];
    int base = geo->holes;

    g->cell[h] = (uint8_t)(player + 1);
    g->uf[h] = -1;
    g->vacant_ok[0] = (int16_t)(g->vacant_ok[0] - ((z & TX_ZONE_PLAYER0_OK) != 0));
    g->vacant_ok[1] = (int16_t)(g->vacant_ok[1] - ((z & TX_ZONE_PLAYER1_OK) != 0));
    if (player == 0) {
        if (z & TX_ZONE_ROW_FIRST)
            unite(g->uf, h, base + NODE_ROW_FIRST);
        if (z & TX_ZONE_ROW_LAST)
            unite(g->uf, h, base + NODE_ROW_LAST);
    } else {
        if (z & TX_ZONE_COL_FIRST)
            unite(g->uf, h, base + NODE_COL_FIRST);
        if (z & TX_ZONE_COL_LAST)
            unite(g->uf, h, base + NODE_COL_LAST);
    }
}

/* True when a link of colour other than `colour` crosses link. Links only
 * ever join pegs of one colour, so a link's owner is the colour of its first
 * end. */
static bool crosses_other(const struct tx_game *g, int link, int colour)
{
    const struct tx_geometry *geo = g->geo;
    for (int i = 0; i < TX_CROSSINGS; i++) {
        int c = geo->crossing[link][i];
        if (c < 0)
            break; /* the list is -1 padded at its end */
        if (tx_game_has_link(g, c) && g->cell[geo->link_end[c][0]] != colour)
            return true;
    }
    return false;
}

static void place(struct tx_game *g, int player, int h)
{
    const struct tx_geometry *geo = g->geo;
    int colour = player + 1;

    put_peg(g, player, h);
    for (int k = 0; k < 8; k++) {
        int nb = geo->neighbour[h][k];
        if (nb < 0 || g->cell[nb] != colour)
            continue;
        int link = geo->link_of[h][k];
        if (crosses_other(g, link, colour))
            continue;
        set_link(g, link);
        unite(g->uf, h, nb);
    }
}

/* The swap: player 0's only peg leaves, player 1 gets its mirror. With one
 * peg on the board the union-find is rebuilt by resetting the border nodes;
 * the removed peg's entry is unreachable (it has no links). */
static void swap(struct tx_game *g)
{
    const struct tx_geometry *geo = g->geo;
    int h = g->moves[0];
    uint8_t z = geo->zone[h];

    g->cell[h] = TX_EMPTY;
    g->vacant_ok[0] = (int16_t)(g->vacant_ok[0] + ((z & TX_ZONE_PLAYER0_OK) != 0));
    g->vacant_ok[1] = (int16_t)(g->vacant_ok[1] + ((z & TX_ZONE_PLAYER1_OK) != 0));
    for (int i = 0; i < 4; i++)
        g->uf[geo->holes + i] = -1;
    place(g, 1, tx_geometry_mirror(geo, h));
    g->swapped = 1;
}

void tx_game_init(struct tx_game *g, const struct tx_geometry *geo)
{
    int n = geo->size;

    g->geo = geo;
    g->nmoves = 0;
    g->to_move = 0;
    g->status = TX_ONGOING;
    g->winner = -1;
    g->swapped = 0;
    /* Each player may use N - 2 columns (or rows) of N holes. */
    g->vacant_ok[0] = g->vacant_ok[1] = (int16_t)(n * (n - 2));
    memset(g->cell, 0, (size_t)geo->holes);
    memset(g->link_bits, 0, (size_t)(geo->holes * 4 + 63) / 64 * sizeof(uint64_t));
    for (int i = 0; i < 4; i++)
        g->uf[geo->holes + i] = -1;
}

enum tx_illegal tx_game_check(const struct tx_game *g, int move)
{
    if (g->status != TX_ONGOING)
        return TX_ILLEGAL_GAME_OVER;
    if (move == TX_MOVE_SWAP)
        return g->nmoves == 1 ? TX_LEGAL : TX_ILLEGAL_SWAP;
    if (move < 0 || move >= g->geo->holes)
        return TX_ILLEGAL_OUT_OF_RANGE;
    uint8_t z = g->geo->zone[move];
    if (z & TX_ZONE_CORNER)
        return TX_ILLEGAL_CORNER;
    if (g->cell[move] != TX_EMPTY)
        return TX_ILLEGAL_OCCUPIED;
    if (!(z & ok_bit(g->to_move)))
        return TX_ILLEGAL_OPPONENT_BORDER;
    return TX_LEGAL;
}

enum tx_illegal tx_game_play(struct tx_game *g, int move)
{
    enum tx_illegal why = tx_game_check(g, move);
    if (why != TX_LEGAL)
        return why;

    int player = g->to_move;
    if (move == TX_MOVE_SWAP)
        swap(g);
    else
        place(g, player, move);
    g->moves[g->nmoves++] = (int16_t)move;
    g->to_move = (int8_t)(player ^ 1);

    if (move != TX_MOVE_SWAP && connected(g, player)) {
        g->status = TX_WON;
        g->winner = (int8_t)player;
    } else if (g->vacant_ok[g->to_move] == 0) {
        g->status = TX_DRAWN;
    }
    return TX_LEGAL;
}

int tx_game_legal_moves(const struct tx_game *g, int16_t *out)
{
    if (g->status != TX_ONGOING)
        return 0;
    int n = 0;
    if (g->nmoves == 1)
        out[n++] = TX_MOVE_SWAP;
    uint8_t ok = ok_bit(g->to_move);
    for (int h = 0; h < g->geo->holes; h++)
        if (g->cell[h] == TX_EMPTY && (g->geo->zone[h] & ok))
            out[n++] = (int16_t)h;
    return n;
}

bool tx_game_linked(const struct tx_game *g, int a, int b)
{
    int link = tx_geometry_link(g->geo, a, b);
    return link >= 0 && tx_game_has_link(g, link);
}

/* The peg that move i added (move i is played by player i % 2), or -1 for
 * player 0's first peg once it was swapped away. */
static int peg_of_move(const struct tx_game *g, int i)
{
    if (g->moves[i] == TX_MOVE_SWAP)
        return tx_geometry_mirror(g->geo, g->moves[0]);
    if (i == 0 && g->swapped)
        return -1;
    return g->moves[i];
}

int tx_game_pegs(const struct tx_game *g, int player, int16_t *out)
{
    int n = 0;
    for (int i = player; i < g->nmoves; i += 2) {
        int h = peg_of_move(g, i);
        if (h >= 0)
            out[n++] = (int16_t)h;
    }
    return n;
}

int tx_game_links(const struct tx_game *g, int player, int16_t *out)
{
    const struct tx_geometry *geo = g->geo;
    int16_t pegs[TX_HOLES_MAX];
    int16_t order[TX_HOLES_MAX]; /* placement index, valid for this player's pegs only */
    int npegs = tx_game_pegs(g, player, pegs);
    int colour = player + 1;
    int n = 0;

    for (int i = 0; i < npegs; i++)
        order[pegs[i]] = (int16_t)i;
    for (int i = 0; i < npegs; i++) {
        int h = pegs[i];
        int16_t older[8];
        int nolder = 0;
        for (int k = 0; k < 8; k++) {
            int nb = geo->neighbour[h][k];
            if (nb < 0 || g->cell[nb] != colour || order[nb] >= i ||
                !tx_game_has_link(g, geo->link_of[h][k]))
                continue;
            /* Insertion sort by placement order: at most 8 entries. */
            int j = nolder++;
            while (j > 0 && order[older[j - 1]] > order[nb]) {
                older[j] = older[j - 1];
                j--;
            }
            older[j] = (int16_t)nb;
        }
        for (int j = 0; j < nolder; j++) {
            out[2 * n] = older[j];
            out[2 * n + 1] = (int16_t)h;
            n++;
        }
    }
    return n;
}

int tx_game_winning_chain(const struct tx_game *g, int16_t *out)
{
    if (g->status != TX_WON)
        return 0;
    const struct tx_geometry *geo = g->geo;
    int colour = g->winner + 1;
    uint8_t from = g->winner == 0 ? TX_ZONE_ROW_FIRST : TX_ZONE_COL_FIRST;
    uint8_t to = g->winner == 0 ? TX_ZONE_ROW_LAST : TX_ZONE_COL_LAST;
    int16_t prev[TX_HOLES_MAX];
    int16_t queue[TX_HOLES_MAX];
    uint8_t seen[TX_HOLES_MAX];
    int head = 0, tail = 0;

    memset(seen, 0, (size_t)geo->holes);
    for (int h = 0; h < geo->holes; h++) {
        if (g->cell[h] == colour && (geo->zone[h] & from)) {
            seen[h] = 1;
            prev[h] = -1;
            queue[tail++] = (int16_t)h;
        }
    }
    /* Breadth first from every peg on the first line: the first peg on the
     * second line taken off the queue ends a shortest chain. */
    while (head < tail) {
        int h = queue[head++];
        if (geo->zone[h] & to) {
            int len = 0;
            for (int p = h; p >= 0; p = prev[p])
                len++;
            int i = len;
            for (int p = h; p >= 0; p = prev[p])
                out[--i] = (int16_t)p;
            return len;
        }
        for (int k = 0; k < 8; k++) {
            int nb = geo->neighbour[h][k];
            if (nb < 0 || seen[nb] || !tx_game_has_link(g, geo->link_of[h][k]))
                continue;
            seen[nb] = 1;
            prev[nb] = (int16_t)h;
            queue[tail++] = (int16_t)nb;
        }
    }
    return 0; /* unreachable when the union-find said the game is won */
}

void tx_illegal_describe(const struct tx_game *g, int move, enum tx_illegal why, char *buf,
                         size_t cap)
{
    char name[TX_HOLE_NAME_MAX] = "?";
    if (move >= 0 && move < g->geo->holes)
        tx_hole_name(g->geo, move, name);

    switch (why) {
    case TX_LEGAL:
        snprintf(buf, cap, "legal");
        break;
    case TX_ILLEGAL_OUT_OF_RANGE:
        snprintf(buf, cap, "out of range");
        break;
    case TX_ILLEGAL_CORNER:
        snprintf(buf, cap, "corner %s", name);
        break;
    case TX_ILLEGAL_OCCUPIED:
        snprintf(buf, cap, "occupied hole %s", name);
        break;
    case TX_ILLEGAL_OPPONENT_BORDER:
        snprintf(buf, cap, "hole %s in the opponent's border", name);
        break;
    case TX_ILLEGAL_SWAP:
        snprintf(buf, cap, "SWAP not allowed at move %d", g->nmoves + 1);
        break;
    case TX_ILLEGAL_GAME_OVER:
        snprintf(buf, cap, "game over");
        break;
    default:
        snprintf(buf, cap, "illegal move");
        break;
    }
}

/* Places the listed pegs of both players in a plausible move order and
 * records it in moves[]. Returns 0 or -EINVAL. */
static int put_input_pegs(struct tx_game *g, const int16_t *pegs[2], const int npegs[2],
                          bool swapped)
{
    const struct tx_geometry *geo = g->geo;
    int nmoves = npegs[0] + npegs[1] + (swapped ? 1 : 0);
    int next[2] = {0, 0};

    for (int i = 0; i < nmoves; i++) {
        int player = i % 2;
        if (swapped && i == 0) {
            if (!tx_geometry_playable(geo, 1, pegs[1][0]))
                return -EINVAL;
            g->moves[0] = (int16_t)tx_geometry_mirror(geo, pegs[1][0]);
            continue;
        }
        int h = pegs[player][next[player]++];
        if (!tx_geometry_playable(geo, player, h) || g->cell[h] != TX_EMPTY)
            return -EINVAL;
        put_peg(g, player, h);
        g->moves[i] = (int16_t)(swapped && i == 1 ? TX_MOVE_SWAP : h);
    }
    g->nmoves = (int16_t)nmoves;
    g->to_move = (int8_t)(nmoves % 2);
    g->swapped = swapped;
    return 0;
}

/* Sets the listed links of player; each must join two of its pegs a knight's
 * move apart, older first, and be listed once. */
static int put_input_links(struct tx_game *g, int player, const int16_t *links, int nlinks)
{
    const struct tx_geometry *geo = g->geo;
    int16_t pegs[TX_HOLES_MAX];
    int16_t order[TX_HOLES_MAX];
    int npegs = tx_game_pegs(g, player, pegs);

    for (int i = 0; i < npegs; i++)
        order[pegs[i]] = (int16_t)i;
    for (int i = 0; i < nlinks; i++) {
        int a = links[2 * i], b = links[2 * i + 1];
        int link = tx_geometry_link(geo, a, b);
        if (link < 0 || g->cell[a] != player + 1 || g->cell[b] != player + 1 ||
            order[a] >= order[b] || tx_game_has_link(g, link))
            return -EINVAL;
        set_link(g, link);
        unite(g->uf, a, b);
    }
    return 0;
}

/* Links are made automatically and never removed, and neither are the
 * opponent's links that blocked one: two pegs of one colour a knight's move
 * apart are unlinked only while an opponent's link crosses theirs. */
static bool missing_automatic_link(const struct tx_game *g)
{
    const struct tx_geometry *geo = g->geo;
    for (int h = 0; h < geo->holes; h++) {
        if (g->cell[h] == TX_EMPTY)
            continue;
        for (int k = 0; k < 8; k++) {
            int nb = geo->neighbour[h][k], link = geo->link_of[h][k];
            if (nb > h && g->cell[nb] == g->cell[h] && !tx_game_has_link(g, link) &&
                !crosses_other(g, link, g->cell[h]))
                return true;
        }
    }
    return false;
}

int tx_game_from_input(struct tx_game *g, const struct tx_geometry *geo, const struct tx_input *in,
                       int me)
{
    if (me != 0 && me != 1)
        return -EINVAL;
    /* in lists the reader's pegs first; turn that into player order. */
    const int16_t *pegs[2] = {in->pegs[me], in->pegs[1 - me]};
    const int16_t *links[2] = {in->links[me], in->links[1 - me]};
    int npegs[2] = {in->npegs[me], in->npegs[1 - me]};
    int nlinks[2] = {in->nlinks[me], in->nlinks[1 - me]};
    bool swapped;

    for (int p = 0; p < 2; p++)
        if (npegs[p] < 0 || npegs[p] > geo->holes || nlinks[p] < 0 || nlinks[p] > TX_LINKS_MAX)
            return -EINVAL;
    if (me == 0 && npegs[0] == npegs[1])
        swapped = false;
    else if (me == 0 && npegs[0] + 1 == npegs[1])
        swapped = true;
    else if (me == 1 && npegs[0] == npegs[1] + 1)
        swapped = false;
    else if (me == 1 && npegs[0] == npegs[1] && npegs[1] >= 1)
        swapped = true;
    else
        return -EINVAL;

    tx_game_init(g, geo);
    if (put_input_pegs(g, pegs, npegs, swapped) < 0)
        return -EINVAL;

    /* hisLastPeg must be what the writer would have said: FIRST on an
     * empty board, or on player 1's first turn after a forced opening
     * (RULES.md "Forced openings"), which never comes right after a swap. */
    int opp = 1 - me;
    bool after_swap = g->nmoves > 0 && g->moves[g->nmoves - 1] == TX_MOVE_SWAP;
    if (in->last == TX_INPUT_FIRST) {
        if (g->nmoves > 0 && (me != 0 || after_swap))
            return -EINVAL;
    } else if (g->nmoves == 0) {
        return -EINVAL;
    } else if (after_swap) {
        if (in->last != TX_MOVE_SWAP)
            return -EINVAL;
    } else if (in->last != pegs[opp][npegs[opp] - 1]) {
        return -EINVAL;
    }

    for (int p = 0; p < 2; p++)
        if (put_input_links(g, p, links[p], nlinks[p]) < 0)
            return -EINVAL;
    for (int p = 0; p < 2; p++)
        for (int i = 0; i < nlinks[p]; i++) {
            int link = tx_geometry_link(geo, links[p][2 * i], links[p][2 * i + 1]);
            if (crosses_other(g, link, p + 1))
                return -EINVAL;
        }
    if (missing_automatic_link(g))
        return -EINVAL;

    /* A bot is only ever asked to move in a game that goes on. */
    if (connected(g, 0) || connected(g, 1) || g->vacant_ok[me] == 0)
        return -EINVAL;
    return 0;
}
