/* fastboard.h - a light Twixt board for search: pegs, links, connection.
 *
 * The bots' search plays hundreds of thousands of moves per second, so it
 * needs a board that does only what a playout needs: place a peg, make its
 * links (never across the opponent's, freely across one's own), and tell at
 * once whether the mover joined its border lines (union-find over holes plus
 * four border nodes). It trusts its caller: legality is checked by whoever
 * picks the move (tx_fastboard_can_play), and the swap is handled before a
 * search starts, from the full tx_game. Links are kept as one bit set per
 * player, so "is this link crossed by the opponent" is nine bit tests.
 * The struct is flat: copying it gives an independent board.
 */
#ifndef TX_BOTS_FASTBOARD_H
#define TX_BOTS_FASTBOARD_H

#include <stdbool.h>
#include <stdint.h>

#include "game.h"
#include "geometry.h"

#define TX_FASTBOARD_WORDS ((TX_LINKS_MAX + 63) / 64)

struct tx_fastboard {
    const struct tx_geometry *geo;         /* shared, read-only */
    int to_move;                           /* 0 or 1 */
    int winner;                            /* -1 while nobody has joined its borders */
    bool second_line;                      /* a second-line peg counts as on its border */
    uint8_t cell[TX_HOLES_MAX];            /* enum tx_cell */
    uint64_t links[2][TX_FASTBOARD_WORDS]; /* link bits of each player */
    int16_t uf[TX_HOLES_MAX + 4];          /* union-find parents; border nodes after the holes */
};

/* An empty board, player 0 to move. */
void tx_fastboard_init(struct tx_fastboard *b, const struct tx_geometry *geo);

/* The same position as g (pegs, links, player to move, winner). */
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
 * end on the border line. (Under classic rules, where a player's own
 * links block too, its own link across the step could cut it: the rule
 * must be checked again or left off there.) The search uses it to see
 * sealed games end two moves early; the referee's win still needs the
 * border pegs. */
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

static inline bool tx_fastboard_can_play(const struct tx_fastboard *b, int player, int hole)
{
    return b->cell[hole] == TX_EMPTY &&
           (b->geo->zone[hole] & (player == 0 ? TX_ZONE_PLAYER0_OK : TX_ZONE_PLAYER1_OK));
}

static inline bool tx_fastboard_has_link(const struct tx_fastboard *b, int player, int link)
{
    return (b->links[player][link >> 6] >> (link & 63)) & 1;
}

/* True when a link of player's opponent crosses link, so player can never
 * make it (links are never removed). */
static inline bool tx_fastboard_link_blocked(const struct tx_fastboard *b, int player, int link)
{
    const int16_t *c = b->geo->crossing[link];
    for (int i = 0; i < TX_CROSSINGS; i++)
        if (c[i] >= 0 && tx_fastboard_has_link(b, !player, c[i]))
            return true;
    return false;
}

#endif
