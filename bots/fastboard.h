/* fastboard.h - a light Twixt board for search: pegs, links, connection.
 *
 * The bots' search plays hundreds of thousands of moves per second, so it
 * needs a board that does only what a playout needs: place a peg, make its
 * automatic links (never across the opponent's links; across one's own
 * under pp, never under classic), and tell at once whether the mover joined
 * its border lines (union-find over holes plus four border nodes). It
 * trusts its caller: legality is checked by whoever picks the move
 * (tx_fastboard_can_play), and the swap is handled before a search starts,
 * from the full tx_game. It makes no link edits (a search that plays with
 * automatic links only is still legal). Links are kept as one bit set per
 * player, so "is this link crossed" is nine bit tests.
 *
 * Like struct tx_game, the board is a header and tables sized for its
 * geometry in one block without pointers into itself: tx_fastboard_copy
 * gives an independent board, and a 12 x 12 board is about 600 bytes. Make
 * one with tx_fastboard_new, or init one in tx_fastboard_size(geo) bytes.
 */
#ifndef TX_BOTS_FASTBOARD_H
#define TX_BOTS_FASTBOARD_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "game.h"
#include "geometry.h"

struct tx_fastboard {
    const struct tx_geometry *geo; /* shared, read-only */
    int to_move;                   /* 0 or 1 */
    int winner;                    /* -1 while nobody has joined its borders */
    int own_links_block;           /* classic rules: a player's own links block it too */
    bool second_line;              /* a second-line peg counts as on its border (pp only) */
    uint32_t bytes;                /* tx_fastboard_size(geo) */
    uint32_t words;                /* 64-bit words of one player's link bits */
    uint32_t off_uf, off_cell;     /* where the tables start in mem[], in bytes */
    /* Link bits of player 0, then of player 1 (words each), union-find
     * parents (int16_t: holes, then the 4 border nodes), cells (uint8_t,
     * enum tx_cell). */
    uint64_t mem[];
};

/* Bytes a board on geo takes. */
size_t tx_fastboard_size(const struct tx_geometry *geo);

/* An empty board under rules in b (room for tx_fastboard_size(geo)
 * bytes), player 0 to move. */
void tx_fastboard_init(struct tx_fastboard *b, const struct tx_geometry *geo, enum tx_rules rules);

/* An empty board in b with like's geometry and rules, player 0 to move. */
void tx_fastboard_empty_like(struct tx_fastboard *b, const struct tx_fastboard *like);

/* A new empty board (tx_fastboard_init); free it with free(). */
struct tx_fastboard *tx_fastboard_new(const struct tx_geometry *geo, enum tx_rules rules);

/* A copy of src in dst (a board of the same geometry). */
static inline void tx_fastboard_copy(struct tx_fastboard *dst, const struct tx_fastboard *src)
{
    memcpy(dst, src, src->bytes);
}

/* The same position as g (pegs, links, rules, player to move, winner), in
 * b, which has room for a board on g's geometry. */
void tx_fastboard_from_game(struct tx_fastboard *b, const struct tx_game *g);

/* Places a peg of the player to move in hole, which must be vacant and
 * playable for it (tx_fastboard_can_play), makes its links, checks the win,
 * and passes the turn. */
void tx_fastboard_play(struct tx_fastboard *b, int hole);

/* From now on a peg on a player's second line (the line next to one of its
 * border lines) that has a usable hole of that border line a knight step
 * away counts as joined to it, and a chain joining the two second lines
 * wins (b->winner is set at once, also for the pegs already placed). Under
 * the PP rules such a peg can never be cut from its border: only its owner
 * may fill that hole, and an opponent link crossing the step would need an
 * end on the border line. Under classic rules the same holds of the
 * opponent, but a player's own links block it too: there the step counts
 * only while no link crosses it (or the peg is linked to its border peg),
 * and when the player's own new link crosses such a step of its own the
 * board works out again which pegs are joined (the search board makes
 * automatic links only, so nothing else can close a step). The search
 * uses it to see sealed games end two moves early; the referee's win still
 * needs the border pegs. */
void tx_fastboard_count_second_lines(struct tx_fastboard *b);

/* True when holes a and c hold pegs of one chain of links (or of pegs
 * joined to one border line). */
bool tx_fastboard_connected(const struct tx_fastboard *b, int a, int c);

/* The border line of player (0: row 1 or column A, 1: the last one) that a
 * peg of player in hole is joined to for good by where it stands: on it,
 * or with b->second_line on the line next to it; -1 when neither. */
int tx_fastboard_sealed_side(const struct tx_fastboard *b, int player, int hole);

/* True when the peg in hole is joined to player's border line side. */
bool tx_fastboard_joined_to(const struct tx_fastboard *b, int player, int hole, int side);

/* The cells (enum tx_cell by hole). */
static inline const uint8_t *tx_fastboard_cells(const struct tx_fastboard *b)
{
    return (const uint8_t *)b->mem + b->off_cell;
}

static inline int tx_fastboard_cell(const struct tx_fastboard *b, int hole)
{
    return tx_fastboard_cells(b)[hole];
}

/* Player's link bits (b->words words). */
static inline const uint64_t *tx_fastboard_links(const struct tx_fastboard *b, int player)
{
    return b->mem + (player ? b->words : 0);
}

static inline bool tx_fastboard_can_play(const struct tx_fastboard *b, int player, int hole)
{
    return tx_fastboard_cell(b, hole) == TX_EMPTY &&
           (b->geo->zone[hole] & (player == 0 ? TX_ZONE_PLAYER0_OK : TX_ZONE_PLAYER1_OK));
}

static inline bool tx_fastboard_has_link(const struct tx_fastboard *b, int player, int link)
{
    return (tx_fastboard_links(b, player)[link >> 6] >> (link & 63)) & 1;
}

/* True when a link present crosses link so that player can never make it:
 * the opponent's, or under classic its own too (links are never removed
 * in a search). */
static inline bool tx_fastboard_link_blocked(const struct tx_fastboard *b, int player, int link)
{
    const uint16_t *c = b->geo->crossing[link];
    const uint64_t *his = tx_fastboard_links(b, !player), *mine = tx_fastboard_links(b, player);
    /* Two loops rather than one test more per crossing: this runs for
     * every link a playout makes. */
    if (!b->own_links_block) {
        for (int i = 0; i < TX_CROSSINGS && c[i] != TX_NO_LINK; i++)
            if ((his[c[i] >> 6] >> (c[i] & 63)) & 1)
                return true;
        return false;
    }
    for (int i = 0; i < TX_CROSSINGS && c[i] != TX_NO_LINK; i++)
        if (((his[c[i] >> 6] | mine[c[i] >> 6]) >> (c[i] & 63)) & 1)
            return true;
    return false;
}

#endif
