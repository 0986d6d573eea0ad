/* game.c - the rules of the TwixT family on a flat, copyable game state.
 *
 * A placement sets the peg, links it to every same-coloured knight neighbour
 * whose link would not be blocked (under pp by an opponent's link, own links
 * may cross; under classic by any link), and unites it in a union-find with
 * those neighbours and with the border node of any border line it sits on. A
 * win is then one comparison of two border roots. Union-find entries of
 * holes are only written when a peg is placed (nothing reads an empty hole's
 * entry), which keeps tx_game_init down to clearing the cells and link bits.
 *
 * Classic link edits (tx_game_play_edits) are checked by making them on the
 * game itself, in the rules' order, and undoing what was made when one is
 * refused, so that a refused move leaves the game as it was. A removal can
 * split a set, which a union-find cannot do: the mover's sets are rebuilt
 * from its links (a walk over the board, only in classic games and only on
 * moves that remove).
 *
 * Layout of mem[]: the link bits, then uf[hole] for pegs and uf[holes + z]
 * for the border nodes z = 0 row 1, 1 last row, 2 column A, 3 last column (a
 * root holds minus its set size, union by size, anything else its parent),
 * then moves[], then cells, then (pie, cut, teams only) each move's info.
 * Offsets are in the header, so a game needs no pointer into itself and
 * copies with one memcpy.
 *
 * A game of two bots under the mirror swap or no swap, CodinGame's, takes
 * the paths it took before openings and teams existed: a move costs the
 * same instructions and the state the same bytes (README "Performance").
 *
 * Lists (pegs, links) are derived from moves and the link bits when asked
 * for, so the struct holds no list that could disagree with the board.
 */
#include "game.h"

#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "hole.h"
#include "input.h"

enum { NODE_ROW_FIRST, NODE_ROW_LAST, NODE_COL_FIRST, NODE_COL_LAST };

/* The few functions every move runs through, inlined whatever the
 * compiler's own judgement: a move costs a few dozen operations, and a
 * call more is a measurable share of them. */
#define HOT static inline __attribute__((always_inline))

static uint64_t *link_bits(struct tx_game *g)
{
    return g->mem;
}

static int16_t *uf_of(struct tx_game *g)
{
    return (int16_t *)(void *)((uint8_t *)g->mem + g->off_uf);
}

static int16_t *moves_of(struct tx_game *g)
{
    return (int16_t *)(void *)((uint8_t *)g->mem + g->off_moves);
}

static uint8_t *cells_of(struct tx_game *g)
{
    return (uint8_t *)g->mem + g->off_cell;
}

static uint8_t *infos_of(struct tx_game *g)
{
    return (uint8_t *)g->mem + g->off_info;
}

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
    link_bits(g)[link >> 6] |= (uint64_t)1 << (link & 63);
}

static void clear_link(struct tx_game *g, int link)
{
    link_bits(g)[link >> 6] &= ~((uint64_t)1 << (link & 63));
}

/* True when the player's two border nodes are in one set. */
static bool connected(struct tx_game *g, int player)
{
    int base = g->geo->holes;
    int16_t *uf = uf_of(g);
    if (player == 0)
        return find(uf, base + NODE_ROW_FIRST) == find(uf, base + NODE_ROW_LAST);
    return find(uf, base + NODE_COL_FIRST) == find(uf, base + NODE_COL_LAST);
}

/* Joins the union-find entry of player's peg in h to its border nodes. */
HOT void join_borders(struct tx_game *g, int player, int h)
{
    uint8_t z = g->geo->zone[h];
    int base = g->geo->holes;
    int16_t *uf = uf_of(g);
    if (player == 0) {
        if (z & TX_ZONE_ROW_FIRST)
            unite(uf, h, base + NODE_ROW_FIRST);
        if (z & TX_ZONE_ROW_LAST)
            unite(uf, h, base + NODE_ROW_LAST);
    } else {
        if (z & TX_ZONE_COL_FIRST)
            unite(uf, h, base + NODE_COL_FIRST);
        if (z & TX_ZONE_COL_LAST)
            unite(uf, h, base + NODE_COL_LAST);
    }
}

/* Puts a peg of player in vacant hole h without making links: the cell, the
 * vacancy counts, and its union-find entry joined to its border nodes. */
HOT void put_peg(struct tx_game *g, int player, int h)
{
    uint8_t z = g->geo->zone[h];

    cells_of(g)[h] = (uint8_t)(player + 1);
    uf_of(g)[h] = -1;
    g->vacant_ok[0] = (int16_t)(g->vacant_ok[0] - ((z & TX_ZONE_PLAYER0_OK) != 0));
    g->vacant_ok[1] = (int16_t)(g->vacant_ok[1] - ((z & TX_ZONE_PLAYER1_OK) != 0));
    join_borders(g, player, h);
}

/* The first link present that stops a link being made by colour (RULES.md:
 * under pp a crossing link of the other colour, under classic any crossing
 * link), or -1. cell is g's cells. Links only ever join pegs of one colour,
 * so a link's owner is the colour of its first end. Inlined: it is most of
 * the cost of a move. */
HOT int blocking(const struct tx_game *g, const uint8_t *cell, int link, int colour)
{
    const struct tx_geometry *geo = g->geo;
    const uint16_t *crossing = geo->crossing[link];
    for (int i = 0; i < TX_CROSSINGS; i++) {
        int c = crossing[i];
        if (c == TX_NO_LINK)
            break; /* the list is padded at its end */
        if (tx_game_has_link(g, c) && (g->own_links_block || cell[geo->link_end[c][0]] != colour))
            return c;
    }
    return -1;
}

bool tx_game_link_blocked(const struct tx_game *g, int link, int colour, int *ret_crossed)
{
    int c = blocking(g, tx_game_cells(g), link, colour);
    if (c >= 0 && ret_crossed)
        *ret_crossed = c;
    return c >= 0;
}

/* Makes the automatic links of player's new peg in h: to each own peg a
 * knight's move away whose link is not blocked. A move with edits may have
 * added some of them already (may_exist) and declined others (link ids in
 * declined[0..ndeclined)); a plain placement has neither, and the compiler
 * drops those tests from it. */
HOT void auto_links(struct tx_game *g, int player, int h, bool may_exist, const int *declined,
                    int ndeclined)
{
    const struct tx_geometry *geo = g->geo;
    const uint8_t *cell = cells_of(g);
    int16_t *uf = uf_of(g);
    int colour = player + 1;

    for (int k = 0; k < 8; k++) {
        int nb = geo->neighbour[h][k];
        if (nb < 0 || cell[nb] != colour)
            continue;
        int link = geo->link_of[h][k];
        if ((may_exist && tx_game_has_link(g, link)) || blocking(g, cell, link, colour) >= 0)
            continue;
        bool skip = false;
        for (int i = 0; i < ndeclined && !skip; i++)
            skip = declined[i] == link;
        if (skip)
            continue;
        set_link(g, link);
        unite(uf, h, nb);
    }
}

static void place(struct tx_game *g, int player, int h)
{
    put_peg(g, player, h);
    auto_links(g, player, h, false, NULL, 0);
}

/* The swap: player 0's only peg leaves, player 1 gets its mirror. With one
 * peg on the board the union-find is rebuilt by resetting the border nodes;
 * the removed peg's entry is unreachable (it has no links). */
static void swap(struct tx_game *g)
{
    const struct tx_geometry *geo = g->geo;
    int h = moves_of(g)[0];
    uint8_t z = geo->zone[h];
    int16_t *uf = uf_of(g);

    cells_of(g)[h] = TX_EMPTY;
    g->vacant_ok[0] = (int16_t)(g->vacant_ok[0] + ((z & TX_ZONE_PLAYER0_OK) != 0));
    g->vacant_ok[1] = (int16_t)(g->vacant_ok[1] + ((z & TX_ZONE_PLAYER1_OK) != 0));
    for (int i = 0; i < 4; i++)
        uf[geo->holes + i] = -1;
    place(g, 1, tx_geometry_mirror(geo, h));
    g->swapped = 1;
}

/* Rebuilds player's union-find sets from its pegs and the links present:
 * after a removal, which may split a set. */
static void rebuild_sets(struct tx_game *g, int player)
{
    const struct tx_geometry *geo = g->geo;
    const uint8_t *cell = cells_of(g);
    int16_t *uf = uf_of(g);
    int colour = player + 1, base = geo->holes;

    for (int h = 0; h < geo->holes; h++)
        if (cell[h] == colour)
            uf[h] = -1;
    for (int i = player == 0 ? NODE_ROW_FIRST : NODE_COL_FIRST, n = i + 2; i < n; i++)
        uf[base + i] = -1;
    for (int h = 0; h < geo->holes; h++) {
        if (cell[h] != colour)
            continue;
        join_borders(g, player, h);
        for (int k = 0; k < 4; k++) {
            int nb = geo->neighbour[h][k];
            if (nb >= 0 && tx_game_has_link(g, geo->link_of[h][k]))
                unite(uf, h, nb);
        }
    }
}

/* Bytes of a game on geo, with the per-move info table or without. */
static size_t game_bytes(const struct tx_geometry *geo, bool infos)
{
    size_t holes = (size_t)geo->holes;
    size_t bits = ((size_t)geo->link_ids + 63) / 64 * sizeof(uint64_t);
    size_t tables = bits + (holes + 4) * sizeof(int16_t) + (holes + 1) * sizeof(int16_t) + holes +
                    (infos ? holes + 1 : 0);
    return (sizeof(struct tx_game) + tables + 7) / 8 * 8;
}

size_t tx_game_size(const struct tx_geometry *geo)
{
    return game_bytes(geo, true);
}

void tx_game_init(struct tx_game *g, const struct tx_geometry *geo, enum tx_rules rules)
{
    size_t holes = (size_t)geo->holes;
    size_t bits = ((size_t)geo->link_ids + 63) / 64 * sizeof(uint64_t);
    const struct tx_ruleset *set = tx_ruleset(rules);

    g->geo = geo;
    g->bytes = (uint32_t)game_bytes(geo, false);
    g->off_uf = (uint32_t)bits;
    g->off_moves = (uint32_t)(bits + (holes + 4) * sizeof(int16_t));
    g->off_cell = (uint32_t)(g->off_moves + (holes + 1) * sizeof(int16_t));
    g->off_info = 0; /* two bots, the mirror swap: no table (game.h) */
    g->nmoves = 0;
    g->to_move = 0;
    g->status = TX_ONGOING;
    g->winner = -1;
    g->swapped = 0;
    g->rules = (int8_t)rules;
    g->own_links_block = set->own_links_block;
    g->opening = TX_OPENING_SWAP;
    g->phase = TX_PHASE_PLAY;
    g->seats = 2;
    g->seat = 0;
    g->exchanged = 0;
    g->privileged = 0;
    g->next_of_team[0] = 0;
    g->next_of_team[1] = 1;
    g->vacant_ok[0] = (int16_t)geo->playable[0];
    g->vacant_ok[1] = (int16_t)geo->playable[1];
    memset(cells_of(g), 0, holes);
    memset(link_bits(g), 0, bits);
    for (int i = 0; i < 4; i++)
        uf_of(g)[geo->holes + i] = -1;
}

void tx_game_start(struct tx_game *g, const struct tx_geometry *geo, const struct tx_variant *v)
{
    tx_game_init(g, geo, v->rules);
    g->opening = (int8_t)v->opening;
    g->phase = v->opening == TX_OPENING_CUT ? TX_PHASE_CUT : TX_PHASE_PLAY;
    g->seats = v->teams ? 4 : 2;
    if (v->teams || v->opening == TX_OPENING_PIE || v->opening == TX_OPENING_CUT) {
        g->off_info = g->off_cell + (uint32_t)geo->holes;
        g->bytes = (uint32_t)game_bytes(geo, true);
    }
}

struct tx_game *tx_game_new(const struct tx_geometry *geo, enum tx_rules rules)
{
    struct tx_game *g = tx_xmalloc(tx_game_size(geo));
    tx_game_init(g, geo, rules);
    return g;
}

void tx_game_free(struct tx_game *g)
{
    free(g);
}

struct tx_game *tx_game_dup(const struct tx_game *src)
{
    /* Room for any variant: the copy may be started again as another. */
    struct tx_game *g = tx_xmalloc(tx_game_size(src->geo));
    tx_game_copy(g, src);
    return g;
}

/* True when SWAP is a legal answer now: player 2's first (move 2), under
 * the mirror swap on a square board or under the pie rule. */
static bool swap_allowed(const struct tx_game *g)
{
    return g->nmoves == 1 && g->phase == TX_PHASE_PLAY &&
           ((g->opening == TX_OPENING_SWAP && tx_geometry_square(g->geo)) ||
            g->opening == TX_OPENING_PIE);
}

/* tx_game_check, inlined into tx_game_play: every move runs through it. */
HOT enum tx_illegal check_move(const struct tx_game *g, int move)
{
    if (g->status_phase != 0) { /* TX_ONGOING and TX_PHASE_PLAY are 0 */
        if (g->status != TX_ONGOING)
            return TX_ILLEGAL_GAME_OVER;
        /* the cut opening's answers are not holes */
        return g->phase == TX_PHASE_CUT ? TX_ILLEGAL_CUT_EXPECTED : TX_ILLEGAL_CHOOSE_EXPECTED;
    }
    if (move == TX_MOVE_SWAP)
        return swap_allowed(g) ? TX_LEGAL : TX_ILLEGAL_SWAP;
    if (move < 0 || move >= g->geo->holes)
        return TX_ILLEGAL_OUT_OF_RANGE;
    uint8_t z = g->geo->zone[move];
    if (z & TX_ZONE_CORNER)
        return TX_ILLEGAL_CORNER;
    if (tx_game_cell(g, move) != TX_EMPTY)
        return TX_ILLEGAL_OCCUPIED;
    if (!(z & ok_bit(g->to_move)))
        return TX_ILLEGAL_OPPONENT_BORDER;
    return TX_LEGAL;
}

enum tx_illegal tx_game_check(const struct tx_game *g, int move)
{
    return check_move(g, move);
}

/* Writes down a move of the seat to move for player (its colour) and
 * passes the turn: to the other colour, or under privilege to the mover's
 * partner. info: TX_INFO_PEGLESS or TX_INFO_CUT, else 0. */
HOT void note_move(struct tx_game *g, int player, int move, int info, bool privilege)
{
    int seat = g->seat, team = seat & 1;
    int16_t n = g->nmoves++;
    moves_of(g)[n] = (int16_t)move;
    if (g->off_info == 0) {
        /* Two bots, the mirror swap or none (no privilege, no pegless
         * move): the other bot moves, and the info goes without saying. */
        g->to_move = (int8_t)(g->to_move ^ 1);
        g->seat = (int8_t)(seat ^ 1);
        return;
    }
    infos_of(g)[n] = (uint8_t)(seat | player << 2 | info); /* TX_INFO_COLOUR is bit 2 */
    if (g->seats == 2 && !privilege) {
        /* Two bots: the other one moves (a team of one is always itself). */
        g->to_move = (int8_t)(g->to_move ^ 1);
        g->seat = (int8_t)(seat ^ 1);
        return;
    }
    /* Each team's members take turns. */
    g->next_of_team[team] = (int8_t)(seat ^ 2);
    if (privilege) { /* the opponent due next loses its turn */
        g->next_of_team[team ^ 1] = (int8_t)(g->next_of_team[team ^ 1] ^ 2);
        g->privileged = (int8_t)(g->privileged | 1 << team);
    } else {
        g->to_move = (int8_t)(g->to_move ^ 1);
    }
    g->seat = g->next_of_team[g->to_move ^ g->exchanged];
}

/* After a move by player: the end checks, in RULES.md's order. */
HOT void end_checks(struct tx_game *g, int player, bool placed)
{
    if (placed && connected(g, player)) {
        g->status = TX_WON;
        g->winner = (int8_t)player;
    } else if (g->vacant_ok[g->to_move] == 0) {
        g->status = TX_DRAWN;
    }
}

/* The pie rule's SWAP: nothing moves on the board, the sides exchange, and
 * the colour that was to move (player 2's) moves again, now played by the
 * other seat. */
static void pie_swap(struct tx_game *g)
{
    g->swapped = 1;
    g->exchanged = 1;
    note_move(g, 1, TX_MOVE_SWAP, TX_INFO_PEGLESS, false);
    g->to_move = 1;
    g->seat = g->next_of_team[1 ^ g->exchanged];
}

/* A legal SWAP by player (1): the pie's exchange or the mirror. Out of
 * tx_game_play's way: it comes once a game. */
static __attribute__((noinline)) void play_swap(struct tx_game *g, int player)
{
    if (g->opening == TX_OPENING_PIE) {
        pie_swap(g);
    } else {
        swap(g);
        note_move(g, player, TX_MOVE_SWAP, 0, false);
    }
    end_checks(g, player, false);
}

enum tx_illegal tx_game_play(struct tx_game *g, int move)
{
    enum tx_illegal why = check_move(g, move);
    if (why != TX_LEGAL)
        return why;

    int player = g->to_move;
    if (move == TX_MOVE_SWAP) {
        play_swap(g, player);
        return TX_LEGAL;
    }
    place(g, player, move);
    note_move(g, player, move, 0, false);
    end_checks(g, player, true);
    return TX_LEGAL;
}

/* The holes of an edit: -1 for a name off the board. */
static int edit_hole(const struct tx_geometry *geo, int x, int y)
{
    return x < geo->width ? tx_geometry_hole(geo, x, y) : -1;
}

/* The link an edit names, or why it names none. */
static enum tx_illegal edit_link(const struct tx_geometry *geo, const struct tx_edit *e, int *a,
                                 int *b, int *link)
{
    *a = edit_hole(geo, e->ax, e->ay);
    *b = edit_hole(geo, e->bx, e->by);
    if (*a < 0 || *b < 0 || (geo->zone[*a] & TX_ZONE_CORNER) || (geo->zone[*b] & TX_ZONE_CORNER))
        return TX_ILLEGAL_EDIT_NO_HOLE;
    *link = tx_geometry_link(geo, *a, *b);
    return *link < 0 ? TX_ILLEGAL_EDIT_NOT_KNIGHT : TX_LEGAL;
}

/* What tx_game_play_edits made before an edit was refused, to undo it. */
struct made {
    int removed[TX_EDITS_MAX], nremoved;
    int added[TX_EDITS_MAX], nadded;
};

static void undo(struct tx_game *g, const struct made *m, int hole)
{
    for (int i = 0; i < m->nadded; i++)
        clear_link(g, m->added[i]);
    for (int i = 0; i < m->nremoved; i++)
        set_link(g, m->removed[i]);
    cells_of(g)[hole] = TX_EMPTY;
}

static int peg_of_move(const struct tx_game *g, int i);

/* The move that placed the peg in hole h, or nmoves when none did. */
static int placed_at(const struct tx_game *g, int h)
{
    for (int i = 0; i < g->nmoves; i++)
        if (peg_of_move(g, i) == h)
            return i;
    return g->nmoves;
}

/* The links present that cross link, the first of them in the order the
 * input lists links (RULES.md: by the newer peg's placement, then the
 * older's), for a refusal's detail. Classic only: every crossing link
 * blocks. */
static int first_listed_crossing(const struct tx_game *g, int link)
{
    const struct tx_geometry *geo = g->geo;
    int best = -1, best_new = 0, best_old = 0;
    for (int i = 0; i < TX_CROSSINGS; i++) {
        int c = geo->crossing[link][i];
        if (c == TX_NO_LINK)
            break;
        if (!tx_game_has_link(g, c))
            continue;
        int a = placed_at(g, geo->link_end[c][0]), b = placed_at(g, geo->link_end[c][1]);
        int newer = a > b ? a : b, older = a > b ? b : a;
        if (best < 0 || newer < best_new || (newer == best_new && older < best_old)) {
            best = c;
            best_new = newer;
            best_old = older;
        }
    }
    return best;
}

/* Checks edit e (not a removal) once the removals are made and the new peg
 * is in its cell; makes an addition. Returns TX_LEGAL or the reason. */
static enum tx_illegal check_edit(struct tx_game *g, int hole, const struct tx_edit *e,
                                  const struct tx_edit *edits, int nedits, struct made *m,
                                  int *ret_crossed, int *ret_link)
{
    const uint8_t *cell = cells_of(g);
    int colour = g->to_move + 1;
    int a, b, link;
    enum tx_illegal why = edit_link(g->geo, e, &a, &b, &link);
    if (why != TX_LEGAL)
        return why;
    if (e->kind == '+') {
        if (cell[a] != colour || cell[b] != colour)
            return TX_ILLEGAL_EDIT_NOT_OWN;
        if (tx_game_has_link(g, link))
            return TX_ILLEGAL_EDIT_EXISTS;
        if (tx_game_link_blocked(g, link, colour, NULL)) {
            *ret_crossed = first_listed_crossing(g, link);
            return TX_ILLEGAL_EDIT_CROSSES;
        }
        set_link(g, link);
        m->added[m->nadded++] = link;
        return TX_LEGAL;
    }
    /* A decline: a link from the new peg to one of the mover's pegs, which
     * the move does not also add. */
    if (a != hole && b != hole)
        return TX_ILLEGAL_EDIT_NOT_NEW;
    if (cell[a == hole ? b : a] != colour)
        return TX_ILLEGAL_EDIT_NOT_OWN;
    for (int i = 0; i < nedits; i++) {
        int ia, ib, other;
        if (edits[i].kind == '+' && edit_link(g->geo, &edits[i], &ia, &ib, &other) == TX_LEGAL &&
            other == link)
            return TX_ILLEGAL_EDIT_ADDED;
    }
    *ret_link = link;
    return TX_LEGAL;
}

/* tx_game_play_edits, with the privilege of Double TwixT (checked by the
 * caller). */
static enum tx_illegal play_hole(struct tx_game *g, int move, const struct tx_edit *edits,
                                 int nedits, struct tx_edit_fault *fault, bool privilege)
{
    struct tx_edit_fault none = {-1, -1, -1};
    if (!fault)
        fault = &none;
    *fault = none;
    if (nedits == 0 && !privilege)
        return tx_game_play(g, move);
    if (nedits == 0) {
        enum tx_illegal why = tx_game_check(g, move);
        if (why != TX_LEGAL)
            return why;
        int player = g->to_move;
        place(g, player, move);
        note_move(g, player, move, 0, true);
        end_checks(g, player, true);
        return TX_LEGAL;
    }

    enum tx_illegal why = tx_game_check(g, move);
    if (why != TX_LEGAL)
        return why;
    if (!tx_ruleset(g->rules)->link_edits || move == TX_MOVE_SWAP)
        return TX_ILLEGAL_EDITS;
    if (nedits > TX_EDITS_MAX) {
        fault->edit = TX_EDITS_MAX;
        return TX_ILLEGAL_EDITS_TOO_MANY;
    }

    int player = g->to_move, colour = player + 1;
    struct made made = {.nremoved = 0, .nadded = 0}, *m = &made;
    int declined[TX_EDITS_MAX] = {0}, ndeclined = 0;

    /* Removals first, whatever their place in the line. */
    for (int i = 0; i < nedits && why == TX_LEGAL; i++) {
        const struct tx_edit *e = &edits[i];
        if (e->kind != '-')
            continue;
        int a, b, link;
        why = edit_link(g->geo, e, &a, &b, &link);
        if (why != TX_LEGAL)
            ;
        else if (!tx_game_has_link(g, link))
            why = TX_ILLEGAL_EDIT_NO_LINK;
        else if (tx_game_cell(g, a) != colour)
            why = TX_ILLEGAL_EDIT_NOT_OWN;
        else {
            clear_link(g, link);
            m->removed[m->nremoved++] = link;
        }
        fault->edit = i;
    }
    /* The peg, in its cell only until every edit is accepted; then the
     * additions in line order and the declines. */
    cells_of(g)[move] = (uint8_t)colour;
    for (int i = 0; i < nedits && why == TX_LEGAL; i++) {
        if (edits[i].kind == '-')
            continue;
        fault->edit = i;
        int link = -1;
        why = check_edit(g, move, &edits[i], edits, nedits, m, &fault->crossed, &link);
        if (why == TX_LEGAL && edits[i].kind == '~')
            declined[ndeclined++] = link;
    }
    if (why != TX_LEGAL) {
        undo(g, m, move);
        return why;
    }
    *fault = none;

    cells_of(g)[move] = TX_EMPTY;
    put_peg(g, player, move);
    int16_t *uf = uf_of(g);
    for (int i = 0; i < m->nadded; i++)
        unite(uf, g->geo->link_end[m->added[i]][0], g->geo->link_end[m->added[i]][1]);
    auto_links(g, player, move, true, declined, ndeclined);
    if (m->nremoved > 0)
        rebuild_sets(g, player);
    note_move(g, player, move, 0, privilege);
    end_checks(g, player, true);
    return TX_LEGAL;
}

enum tx_illegal tx_game_play_edits(struct tx_game *g, int move, const struct tx_edit *edits,
                                   int nedits, struct tx_edit_fault *fault)
{
    return play_hole(g, move, edits, nedits, fault, false);
}

/* One peg of a cut, of colour: an entry of seat 0's answer. */
static void put_cut_peg(struct tx_game *g, int colour, int hole)
{
    put_peg(g, colour, hole);
    moves_of(g)[g->nmoves] = (int16_t)hole;
    infos_of(g)[g->nmoves++] = (uint8_t)(0 | colour << 2 | TX_INFO_CUT);
}

/* The cut opening's first answer (RULES.md "Openings"): two red pegs and a
 * black one, placed without links unless its one edit, "+R1:R2", links the
 * red ones. Then the other seat chooses, and black is to move after it. */
static enum tx_illegal play_cut(struct tx_game *g, const struct tx_move *m,
                                struct tx_edit_fault *fault)
{
    const struct tx_geometry *geo = g->geo;
    for (int i = 0; i < 3; i++) {
        fault->part = i;
        int h = m->cut[i], colour = i < 2 ? 0 : 1;
        if (!tx_geometry_playable(geo, colour, h))
            return TX_ILLEGAL_CUT_HOLE;
        for (int j = 0; j < i; j++)
            if (m->cut[j] == h)
                return TX_ILLEGAL_CUT_SAME;
    }
    fault->part = -1;
    int link = -1;
    if (m->nedits > 1 || (m->nedits == 1 && m->edits[0].kind != '+')) {
        fault->edit = m->nedits > 1 && m->edits[0].kind == '+' ? 1 : 0;
        return TX_ILLEGAL_CUT_LINK;
    }
    if (m->nedits == 1) {
        int a, b;
        fault->edit = 0;
        if (edit_link(geo, &m->edits[0], &a, &b, &link) != TX_LEGAL ||
            !((a == m->cut[0] && b == m->cut[1]) || (a == m->cut[1] && b == m->cut[0])))
            return TX_ILLEGAL_CUT_LINK;
        fault->edit = -1;
    }
    for (int i = 0; i < 3; i++)
        put_cut_peg(g, i < 2 ? 0 : 1, m->cut[i]);
    if (link >= 0) {
        set_link(g, link);
        unite(uf_of(g), m->cut[0], m->cut[1]);
    }
    /* Black moves after the choice, and the chooser, seat 1, answers first. */
    g->next_of_team[0] = (int8_t)(g->seats == 4 ? 2 : 0);
    g->to_move = 1;
    g->phase = TX_PHASE_CHOOSE;
    g->seat = 1;
    end_checks(g, 0, true);
    return TX_LEGAL;
}

/* The choice after a cut: CHOOSE 1 takes red (the sides exchange), CHOOSE 2
 * black; black moves next. */
static void choose(struct tx_game *g, int move)
{
    g->phase = TX_PHASE_PLAY;
    if (move == TX_MOVE_CHOOSE_RED)
        g->exchanged = 1;
    g->to_move = 1;
    note_move(g, tx_game_seat_colour(g, g->seat), move, TX_INFO_PEGLESS, false);
    g->to_move = 1;
    g->seat = g->next_of_team[1 ^ g->exchanged];
}

/* Why privilege may not go with m, or TX_LEGAL. */
static enum tx_illegal check_privilege(const struct tx_game *g, const struct tx_move *m)
{
    if (g->seats != 4)
        return TX_ILLEGAL_PRIVILEGE_PAIRS;
    if (g->privileged & (1 << (g->seat & 1)))
        return TX_ILLEGAL_PRIVILEGE_USED;
    /* The opponent's swap or choice decides the opening: it is not a turn
     * to skip. */
    if (m->move < 0 || g->phase != TX_PHASE_PLAY ||
        (g->nmoves == 0 && (g->opening == TX_OPENING_SWAP || g->opening == TX_OPENING_PIE)))
        return TX_ILLEGAL_PRIVILEGE_EARLY;
    return TX_LEGAL;
}

enum tx_illegal tx_game_apply(struct tx_game *g, const struct tx_move *m,
                              struct tx_edit_fault *fault)
{
    struct tx_edit_fault none = {-1, -1, -1};
    if (!fault)
        fault = &none;
    *fault = none;
    if (g->status != TX_ONGOING)
        return TX_ILLEGAL_GAME_OVER;
    bool cut = m->move == TX_MOVE_CUT,
         chosen = m->move == TX_MOVE_CHOOSE_RED || m->move == TX_MOVE_CHOOSE_BLACK;
    if (g->phase == TX_PHASE_CUT && !cut)
        return TX_ILLEGAL_CUT_EXPECTED;
    if (g->phase == TX_PHASE_CHOOSE && !chosen)
        return TX_ILLEGAL_CHOOSE_EXPECTED;
    if (cut && g->phase != TX_PHASE_CUT)
        return TX_ILLEGAL_CUT;
    if (chosen && g->phase != TX_PHASE_CHOOSE)
        return TX_ILLEGAL_CHOOSE;
    enum tx_illegal why = m->privilege ? check_privilege(g, m) : TX_LEGAL;
    if (why != TX_LEGAL)
        return why;
    if (cut)
        return play_cut(g, m, fault);
    if (chosen) {
        if (m->nedits > 0)
            return TX_ILLEGAL_EDITS;
        choose(g, m->move);
        return TX_LEGAL;
    }
    return play_hole(g, m->move, m->edits, m->nedits, fault, m->privilege);
}

enum tx_illegal tx_game_check_answer(const struct tx_game *g, const struct tx_move *m,
                                     struct tx_edit_fault *fault)
{
    /* Checked by playing it, on a copy. */
    struct tx_game *trial = tx_game_dup(g);
    enum tx_illegal why = tx_game_apply(trial, m, fault);
    tx_game_free(trial);
    return why;
}

enum tx_illegal tx_game_check_edits(const struct tx_game *g, int move, const struct tx_edit *edits,
                                    int nedits, struct tx_edit_fault *fault)
{
    if (fault)
        *fault = (struct tx_edit_fault){-1, -1, -1};
    if (nedits == 0)
        return tx_game_check(g, move);
    /* Edits are checked by making them (tx_game_play_edits), on a copy. */
    struct tx_game *trial = tx_game_dup(g);
    enum tx_illegal why = tx_game_play_edits(trial, move, edits, nedits, fault);
    tx_game_free(trial);
    return why;
}

int tx_game_legal_moves(const struct tx_game *g, int16_t *out)
{
    if (g->status != TX_ONGOING)
        return 0;
    int n = 0;
    if (g->phase != TX_PHASE_PLAY)
        return 0; /* the cut opening's answers are not in the list */
    if (swap_allowed(g))
        out[n++] = TX_MOVE_SWAP;
    const uint8_t *cell = tx_game_cells(g), *zone = g->geo->zone;
    int holes = g->geo->holes, h = 0, shift = g->to_move == 0 ? 5 : 6; /* ok_bit's */
    /* Eight holes a step, as bytes of a word: a hole is legal when its cell
     * is 0 (TX_EMPTY; pegs are 1 and 2) and its zone has the player's ok
     * bit. A test per hole costs twice the instructions, and on a board
     * filling at random its branch is mispredicted every other hole. */
    for (; h + 8 <= holes; h += 8) {
        uint64_t c, z, ones = UINT64_C(0x0101010101010101);
        memcpy(&c, cell + h, 8);
        memcpy(&z, zone + h, 8);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        c = __builtin_bswap64(c), z = __builtin_bswap64(z); /* hole h in the low byte */
#endif
        for (uint64_t m = ~(c | c >> 1) & (z >> shift) & ones; m != 0; m &= m - 1)
            out[n++] = (int16_t)(h + __builtin_ctzll(m) / 8);
    }
    for (; h < holes; h++)
        if (cell[h] == TX_EMPTY && (zone[h] & ok_bit(g->to_move)))
            out[n++] = (int16_t)h;
    return n;
}

bool tx_game_linked(const struct tx_game *g, int a, int b)
{
    int link = tx_geometry_link(g->geo, a, b);
    return link >= 0 && tx_game_has_link(g, link);
}

/* The peg that move i added (for the colour of its info), or -1: a pie
 * SWAP or a CHOOSE, and player 0's first peg once the mirror swap took it
 * away. */
static int peg_of_move(const struct tx_game *g, int i)
{
    int move = tx_game_move(g, i);
    if (tx_game_info(g, i) & TX_INFO_PEGLESS)
        return -1;
    if (move == TX_MOVE_SWAP)
        return tx_geometry_mirror(g->geo, tx_game_move(g, 0));
    if (i == 0 && g->swapped && g->opening == TX_OPENING_SWAP)
        return -1;
    return move;
}

int tx_game_pegs(const struct tx_game *g, int player, int16_t *out)
{
    int n = 0;
    if (g->off_info == 0) {
        /* Two bots taking turns (game.h): player made every other move;
         * peg_of_move's mirror swap, for the whole list at once (a bot
         * rebuilding its input lists the pegs every turn). */
        const int16_t *moves = tx_game_moves(g);
        for (int i = player, nmoves = g->nmoves; i < nmoves; i += 2)
            out[n++] = moves[i];
        if (g->swapped) { /* the mirror swap: player 0's first peg went, player 1's is its image */
            if (player == 0)
                memmove(out, out + 1, sizeof out[0] * (size_t)--n);
            else
                out[0] = (int16_t)tx_geometry_mirror(g->geo, moves[0]);
        }
        return n;
    }
    for (int i = 0; i < g->nmoves; i++) {
        int h = (tx_game_info(g, i) & TX_INFO_COLOUR) == (player ? TX_INFO_COLOUR : 0)
                    ? peg_of_move(g, i)
                    : -1;
        if (h >= 0)
            out[n++] = (int16_t)h;
    }
    return n;
}

int tx_game_links(const struct tx_game *g, int player, int16_t *out)
{
    const struct tx_geometry *geo = g->geo;
    const uint8_t *cell = tx_game_cells(g);
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
            if (nb < 0 || cell[nb] != colour || order[nb] >= i ||
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
    const uint8_t *cell = tx_game_cells(g);
    int colour = g->winner + 1;
    uint8_t from = g->winner == 0 ? TX_ZONE_ROW_FIRST : TX_ZONE_COL_FIRST;
    uint8_t to = g->winner == 0 ? TX_ZONE_ROW_LAST : TX_ZONE_COL_LAST;
    int16_t *prev = tx_xmalloc((size_t)geo->holes * sizeof *prev);
    int16_t *queue = tx_xmalloc((size_t)geo->holes * sizeof *queue);
    uint8_t *seen = tx_xcalloc((size_t)geo->holes, 1);
    int head = 0, tail = 0, len = 0;

    for (int h = 0; h < geo->holes; h++) {
        if (cell[h] == colour && (geo->zone[h] & from)) {
            seen[h] = 1;
            prev[h] = -1;
            queue[tail++] = (int16_t)h;
        }
    }
    /* Breadth first from every peg on the first line: the first peg on the
     * second line taken off the queue ends a shortest chain. */
    while (head < tail && len == 0) {
        int h = queue[head++];
        if (geo->zone[h] & to) {
            for (int p = h; p >= 0; p = prev[p])
                len++;
            int i = len;
            for (int p = h; p >= 0; p = prev[p])
                out[--i] = (int16_t)p;
            break;
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
    free(prev);
    free(queue);
    free(seen);
    return len; /* 0 is unreachable when the union-find said the game is won */
}

char *tx_edit_name(const struct tx_edit *edit, char *buf)
{
    char a[3], b[3];
    snprintf(buf, TX_EDIT_NAME_MAX, "%c%s%d:%s%d", edit->kind, tx_hole_column_name(edit->ax, a),
             edit->ay + 1, tx_hole_column_name(edit->bx, b), edit->by + 1);
    return buf;
}

void tx_illegal_describe(const struct tx_game *g, int move, enum tx_illegal why,
                         const struct tx_edit *edits, const struct tx_edit_fault *fault, char *buf,
                         size_t cap)
{
    struct tx_move m = {.move = move, .edits = edits};
    tx_answer_describe(g, &m, why, fault, buf, cap);
}

void tx_answer_describe(const struct tx_game *g, const struct tx_move *answer, enum tx_illegal why,
                        const struct tx_edit_fault *fault, char *buf, size_t cap)
{
    const struct tx_geometry *geo = g->geo;
    int move = answer->move;
    const struct tx_edit *edits = answer->edits;
    char part[TX_HOLE_NAME_MAX] = "?";
    if (fault && fault->part >= 0 && fault->part < 3 && answer->cut[fault->part] >= 0 &&
        answer->cut[fault->part] < geo->holes)
        tx_hole_name(geo, answer->cut[fault->part], part);
    char name[TX_HOLE_NAME_MAX] = "?";
    if (move >= 0 && move < geo->holes)
        tx_hole_name(geo, move, name);
    char edit[TX_EDIT_NAME_MAX] = "the edit", crossed[2 * TX_HOLE_NAME_MAX + 2] = "?";
    if (edits && fault && fault->edit >= 0)
        tx_edit_name(&edits[fault->edit], edit);
    if (fault && fault->crossed >= 0) {
        /* As the input lists the link: its older peg first. */
        char a[TX_HOLE_NAME_MAX], b[TX_HOLE_NAME_MAX];
        int older = geo->link_end[fault->crossed][0], newer = geo->link_end[fault->crossed][1];
        if (placed_at(g, newer) < placed_at(g, older)) {
            int t = older;
            older = newer;
            newer = t;
        }
        snprintf(crossed, sizeof crossed, "%s:%s", tx_hole_name(geo, older, a),
                 tx_hole_name(geo, newer, b));
    }

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
        if (g->opening == TX_OPENING_NONE)
            snprintf(buf, cap, "SWAP not allowed: no swap in this game (opening none)");
        else if (g->opening == TX_OPENING_CUT)
            snprintf(buf, cap, "SWAP not allowed in the cut opening");
        else if (g->nmoves == 1 && !tx_geometry_square(geo))
            snprintf(buf, cap, "SWAP not allowed on a %d x %d board (no mirror)", geo->width,
                     geo->height);
        else
            snprintf(buf, cap, "SWAP not allowed at move %d", g->nmoves + 1);
        break;
    case TX_ILLEGAL_GAME_OVER:
        snprintf(buf, cap, "game over");
        break;
    case TX_ILLEGAL_EDITS:
        snprintf(buf, cap,
                 move == TX_MOVE_SWAP ? "link edits with SWAP"
                                      : "link edits under rules without them");
        break;
    case TX_ILLEGAL_EDITS_TOO_MANY:
        snprintf(buf, cap, "%s is link edit %d: at most %d in one answer", edit, TX_EDITS_MAX + 1,
                 TX_EDITS_MAX);
        break;
    case TX_ILLEGAL_EDIT_NO_HOLE:
        snprintf(buf, cap, "%s names a hole that is not on the %d x %d board", edit, geo->width,
                 geo->height);
        break;
    case TX_ILLEGAL_EDIT_NOT_KNIGHT:
        snprintf(buf, cap, "%s does not join holes a knight's move apart", edit);
        break;
    case TX_ILLEGAL_EDIT_NO_LINK:
        snprintf(buf, cap, "%s names no link on the board", edit);
        break;
    case TX_ILLEGAL_EDIT_NOT_OWN:
        snprintf(buf, cap,
                 edit[0] == '-' ? "%s is not the mover's link"
                                : "%s does not join two of the mover's pegs",
                 edit);
        break;
    case TX_ILLEGAL_EDIT_EXISTS:
        snprintf(buf, cap, "%s is already on the board", edit);
        break;
    case TX_ILLEGAL_EDIT_CROSSES:
        snprintf(buf, cap, "%s crosses the link %s", edit, crossed);
        break;
    case TX_ILLEGAL_EDIT_NOT_NEW:
        snprintf(buf, cap, "%s does not end at the new peg %s", edit, name);
        break;
    case TX_ILLEGAL_EDIT_ADDED:
        snprintf(buf, cap, "%s declines a link the move adds", edit);
        break;
    case TX_ILLEGAL_CUT_EXPECTED:
        snprintf(buf, cap, "CUT R1 R2 B1 expected: the cut opening's first answer");
        break;
    case TX_ILLEGAL_CHOOSE_EXPECTED:
        snprintf(buf, cap, "CHOOSE 1 or CHOOSE 2 expected after the cut");
        break;
    case TX_ILLEGAL_CUT:
        snprintf(buf, cap, "CUT not allowed at move %d", g->nmoves + 1);
        break;
    case TX_ILLEGAL_CUT_HOLE:
        if (fault && fault->part >= 0 && fault->part < 3 &&
            (answer->cut[fault->part] < 0 || answer->cut[fault->part] >= geo->holes))
            snprintf(buf, cap, "CUT: a hole off the board");
        else
            snprintf(buf, cap, "CUT: %s is not a hole %s may use", part,
                     fault && fault->part == 2 ? "black" : "red");
        break;
    case TX_ILLEGAL_CUT_SAME:
        snprintf(buf, cap, "CUT: %s twice", part);
        break;
    case TX_ILLEGAL_CUT_LINK:
        snprintf(buf, cap, "CUT: %s does not link the two red pegs", edit);
        break;
    case TX_ILLEGAL_CHOOSE:
        snprintf(buf, cap, "CHOOSE not allowed at move %d", g->nmoves + 1);
        break;
    case TX_ILLEGAL_PRIVILEGE_PAIRS:
        snprintf(buf, cap, "privilege in a game of two bots");
        break;
    case TX_ILLEGAL_PRIVILEGE_USED:
        snprintf(buf, cap, "privilege called twice by one team");
        break;
    case TX_ILLEGAL_PRIVILEGE_EARLY:
        snprintf(buf, cap,
                 "privilege not allowed at move %d: it goes with a hole, once the opening "
                 "is decided",
                 g->nmoves + 1);
        break;
    default:
        snprintf(buf, cap, "illegal move");
        break;
    }
}

/* Places the listed pegs of both players in a plausible move order and
 * records it in moves. Returns 0 or -EINVAL. */
static int put_input_pegs(struct tx_game *g, const int16_t *pegs[2], const int npegs[2],
                          bool swapped)
{
    const struct tx_geometry *geo = g->geo;
    int nmoves = npegs[0] + npegs[1] + (swapped ? 1 : 0);
    int next[2] = {0, 0};
    int16_t *moves = moves_of(g);

    if (swapped && !tx_geometry_square(geo))
        return -EINVAL;
    for (int i = 0; i < nmoves; i++) {
        int player = i % 2;
        if (swapped && i == 0) {
            if (!tx_geometry_playable(geo, 1, pegs[1][0]))
                return -EINVAL;
            moves[0] = (int16_t)tx_geometry_mirror(geo, pegs[1][0]);
            continue;
        }
        int h = pegs[player][next[player]++];
        if (!tx_geometry_playable(geo, player, h) || tx_game_cell(g, h) != TX_EMPTY)
            return -EINVAL;
        put_peg(g, player, h);
        moves[i] = (int16_t)(swapped && i == 1 ? TX_MOVE_SWAP : h);
    }
    /* Two seats, each playing its colour: seat i % 2 made move i, which a
     * game of the mirror swap says without a table. */
    assert(g->off_info == 0);
    g->nmoves = (int16_t)nmoves;
    g->to_move = (int8_t)(nmoves % 2);
    g->seat = g->to_move;
    g->swapped = swapped;
    return 0;
}

/* Sets the listed links of player; each must join two of its pegs a knight's
 * move apart, older first, and be listed once. */
static int put_input_links(struct tx_game *g, int player, const int16_t *links, int nlinks)
{
    const struct tx_geometry *geo = g->geo;
    int16_t *pegs = tx_xmalloc(sizeof(int16_t[TX_HOLES_MAX]));
    int16_t *order = tx_xmalloc(sizeof(int16_t[TX_HOLES_MAX]));
    int npegs = tx_game_pegs(g, player, pegs);
    int rc = 0;

    for (int i = 0; i < npegs; i++)
        order[pegs[i]] = (int16_t)i;
    for (int i = 0; i < nlinks && rc == 0; i++) {
        int a = links[2 * i], b = links[2 * i + 1];
        int link = tx_geometry_link(geo, a, b);
        if (link < 0 || tx_game_cell(g, a) != player + 1 || tx_game_cell(g, b) != player + 1 ||
            order[a] >= order[b] || tx_game_has_link(g, link))
            rc = -EINVAL;
        else {
            set_link(g, link);
            unite(uf_of(g), a, b);
        }
    }
    free(pegs);
    free(order);
    return rc;
}

/* Under pp, links are made automatically and never removed, and neither are
 * the opponent's links that blocked one: two pegs of one colour a knight's
 * move apart are unlinked only while an opponent's link crosses theirs. */
static bool missing_automatic_link(const struct tx_game *g)
{
    const struct tx_geometry *geo = g->geo;
    const uint8_t *cell = tx_game_cells(g);
    for (int h = 0; h < geo->holes; h++) {
        if (cell[h] == TX_EMPTY)
            continue;
        for (int k = 0; k < 8; k++) {
            int nb = geo->neighbour[h][k], link = geo->link_of[h][k];
            if (nb > h && cell[nb] == cell[h] && !tx_game_has_link(g, link) &&
                !tx_game_link_blocked(g, link, cell[h], NULL))
                return true;
        }
    }
    return false;
}

/* Appends a reconstructed move: hole for colour, by the seat of its
 * team that is due (info: TX_INFO_CUT or TX_INFO_PEGLESS, else 0). */
static int put_entry(struct tx_game *g, int colour, int hole, int move, int info)
{
    if (hole >= 0) {
        if (!tx_geometry_playable(g->geo, colour, hole) || tx_game_cell(g, hole) != TX_EMPTY)
            return -EINVAL;
        put_peg(g, colour, hole);
    }
    g->seat = g->next_of_team[colour ^ g->exchanged];
    g->to_move = (int8_t)colour;
    note_move(g, colour, move, info, false);
    return 0;
}

/* tx_game_from_input for openings other than the mirror swap and for
 * teams (RULES.md "Openings", "Double TwixT"). The input says the colour
 * of each peg and their order within a colour, not the interleaving, so
 * the moves are rebuilt in a plausible order: the cut's three pegs first
 * (red's first two, black's first), then the colours alternating from the
 * one that moves first, and in Double TwixT a colour with more pegs than
 * alternation allows moving on as after a privilege. Which team called
 * privilege is not in the input: the rebuilt game says none did.
 *
 * Inputs only Double TwixT gives: under the mirror swap, the partner of
 * the bot that moved first reads SWAP on its first input (red's peg went,
 * black's is its mirror: both moves are rebuilt, so that no swap is still
 * to come); under either swap, the bot that moves after the SWAP may call
 * privilege with its peg, and its partner, moving at once, reads SWAP with
 * that peg among its own. */
static int from_input_variant(struct tx_game *g, const struct tx_geometry *geo,
                              const struct tx_variant *v, const struct tx_input *in, int me,
                              const int16_t *pegs[2], const int npegs[2])
{
    int next[2] = {0, 0}, first = 0, extra = v->teams ? 2 : 0;
    bool cut = v->opening == TX_OPENING_CUT && (in->last == TX_MOVE_CUT || npegs[0] + npegs[1] > 0),
         choosing = cut && in->last == TX_MOVE_CUT && npegs[0] == 2 && npegs[1] == 1;
    bool pie = v->opening == TX_OPENING_PIE && in->last == TX_MOVE_SWAP;
    bool mirror = v->opening == TX_OPENING_SWAP && in->last == TX_MOVE_SWAP;

    tx_game_start(g, geo, v);
    if (cut) {
        if (npegs[0] < 2 || npegs[1] < 1)
            return -EINVAL;
        g->phase = TX_PHASE_PLAY;
        for (int i = 0; i < 3; i++) {
            int colour = i < 2 ? 0 : 1, hole = pegs[colour][next[colour]++];
            if (!tx_geometry_playable(geo, colour, hole) || tx_game_cell(g, hole) != TX_EMPTY)
                return -EINVAL;
            put_cut_peg(g, colour, hole);
        }
        g->next_of_team[0] = (int8_t)(g->seats == 4 ? 2 : 0);
        if (choosing) {
            g->phase = TX_PHASE_CHOOSE;
            g->to_move = 1;
            g->seat = 1;
            return me == 1 ? 0 : -EINVAL;
        }
        /* Who chose which side does not change the board: the reader's
         * colour decides the sides' seats. */
        g->exchanged = (int8_t)(in->last == TX_MOVE_CHOOSE_RED);
        g->seat = 1;
        note_move(g, 1, in->last == TX_MOVE_CHOOSE_RED ? TX_MOVE_CHOOSE_RED : TX_MOVE_CHOOSE_BLACK,
                  TX_INFO_PEGLESS, false);
        first = 1;
    } else if (mirror) {
        /* Reached with teams only (two bots take tx_game_from_input's way). */
        if (npegs[0] > 1 || npegs[1] != 1 || me != 0 || !tx_geometry_square(geo) ||
            !tx_geometry_playable(geo, 1, pegs[1][0]))
            return -EINVAL;
        int h = tx_geometry_mirror(geo, pegs[1][0]);
        if (put_entry(g, 0, h, h, 0) < 0)
            return -EINVAL;
        swap(g); /* black, seat 1, to move after put_entry */
        note_move(g, 1, TX_MOVE_SWAP, 0, false);
        next[1] = 1;
    } else if (pie) {
        /* Black's peg, if any, came with a privilege (see above); so may
         * red's after the mirror swap, placed below. */
        if (npegs[0] != 1 || npegs[1] > (v->teams ? 1 : 0) || me != 1 ||
            put_entry(g, 0, pegs[0][0], pegs[0][0], 0) < 0)
            return -EINVAL;
        next[0] = 1;
        g->swapped = 1;
        g->exchanged = 1;
        note_move(g, 1, TX_MOVE_SWAP, TX_INFO_PEGLESS, false);
        g->to_move = 1;
    }
    /* The colours alternate from `first`; the one to move at the end is the
     * reader's. */
    int colour = first;
    while (next[0] < npegs[0] || next[1] < npegs[1]) {
        if (next[colour] == npegs[colour]) {
            colour ^= 1; /* the other colour moved on: privileges (teams) */
            if (extra-- <= 0)
                return -EINVAL;
        }
        if (put_entry(g, colour, pegs[colour][next[colour]], pegs[colour][next[colour]], 0) < 0)
            return -EINVAL;
        next[colour]++;
        colour ^= 1;
    }
    g->to_move = (int8_t)me;
    g->seat = g->next_of_team[me ^ g->exchanged];
    return 0;
}

int tx_game_from_input(struct tx_game *g, const struct tx_geometry *geo, enum tx_rules rules,
                       const struct tx_input *in, int me)
{
    struct tx_variant v = {.rules = rules, .width = geo->width, .height = geo->height};
    return tx_game_from_input_variant(g, geo, &v, in, me);
}

int tx_game_from_input_variant(struct tx_game *g, const struct tx_geometry *geo,
                               const struct tx_variant *v, const struct tx_input *in, int me)
{
    enum tx_rules rules = v->rules;
    if (me != 0 && me != 1)
        return -EINVAL;
    /* in lists the reader's pegs first; turn that into player order. */
    const int16_t *pegs[2] = {in->pegs[me], in->pegs[1 - me]};
    const int16_t *links[2] = {in->links[me], in->links[1 - me]};
    int npegs[2] = {in->npegs[me], in->npegs[1 - me]};
    int nlinks[2] = {in->nlinks[me], in->nlinks[1 - me]};
    bool swapped;

    for (int p = 0; p < 2; p++)
        if (npegs[p] < 0 || npegs[p] > geo->holes || nlinks[p] < 0 || nlinks[p] > geo->link_ids)
            return -EINVAL;
    if (v->opening != TX_OPENING_SWAP || v->teams) {
        if (from_input_variant(g, geo, v, in, me, pegs, npegs) < 0)
            return -EINVAL;
        goto links;
    }
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

    tx_game_init(g, geo, rules);
    if (put_input_pegs(g, pegs, npegs, swapped) < 0)
        return -EINVAL;

    /* hisLastPeg must be what the writer would have said: FIRST on an
     * empty board, or on player 1's first turn after a forced opening
     * (RULES.md "Forced openings"), which never comes right after a swap. */
    int opp = 1 - me;
    bool after_swap = tx_game_last_move(g) == TX_MOVE_SWAP;
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

links:
    for (int p = 0; p < 2; p++)
        if (put_input_links(g, p, links[p], nlinks[p]) < 0)
            return -EINVAL;
    for (int p = 0; p < 2; p++)
        for (int i = 0; i < nlinks[p]; i++) {
            int link = tx_geometry_link(geo, links[p][2 * i], links[p][2 * i + 1]);
            if (tx_game_link_blocked(g, link, p + 1, NULL))
                return -EINVAL;
        }
    /* The cut's red pegs are linked only if it said so: no test then. */
    if (!tx_ruleset(rules)->link_edits && v->opening != TX_OPENING_CUT && missing_automatic_link(g))
        return -EINVAL;

    /* A bot is only ever asked to move in a game that goes on. */
    if (connected(g, 0) || connected(g, 1) || g->vacant_ok[me] == 0)
        return -EINVAL;
    return 0;
}
