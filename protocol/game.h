/* game.h - one game of Twixt-PP: pegs, automatic links, the swap, the end.
 *
 * The state is a flat struct with no pointer into itself, so copying it with
 * memcpy (or assignment) gives an independent game: search bots copy it
 * millions of times. It points to a shared, read-only tx_geometry.
 *
 * Players are 0 (receives FIRST, owns rows 1/N) and 1 (owns columns A/last).
 * A move is a hole index, or TX_MOVE_SWAP. tx_game_play() applies every rule
 * of RULES.md: legality, links (never across an opponent's link, freely
 * across one's own, a crossing point connects nothing), the swap mirror, and
 * after each move the end checks in order: win, then draw when the player to
 * move next has no legal hole. Wins are detected with a union-find over pegs
 * plus four border nodes, so a move costs a few dozen operations, not a walk
 * over the chain.
 */
#ifndef TX_GAME_H
#define TX_GAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "geometry.h"

#define TX_MOVE_SWAP (-2)               /* the move "SWAP" */
#define TX_MOVES_MAX (TX_HOLES_MAX + 1) /* every hole, plus one swap */

enum tx_cell { TX_EMPTY = 0, TX_PEG0 = 1, TX_PEG1 = 2 }; /* peg of player p is p + 1 */

enum tx_status {
    TX_ONGOING = 0,
    TX_WON,   /* winner set: the last mover connected its border lines */
    TX_DRAWN, /* the player to move has no legal hole */
};

/* Why a move is refused. Each has its own wording (tx_illegal_describe). */
enum tx_illegal {
    TX_LEGAL = 0,
    TX_ILLEGAL_OUT_OF_RANGE,    /* not a hole index of this board */
    TX_ILLEGAL_CORNER,          /* one of the four missing corners */
    TX_ILLEGAL_OCCUPIED,        /* a peg (either colour) is there */
    TX_ILLEGAL_OPPONENT_BORDER, /* in the opponent's border lines */
    TX_ILLEGAL_SWAP,            /* SWAP when it is not player 1's first answer at move 2 */
    TX_ILLEGAL_GAME_OVER,       /* the game has ended */
};

struct tx_game {
    const struct tx_geometry *geo; /* shared, read-only, outlives the game */
    int16_t nmoves;                /* moves played so far, a swap included */
    int8_t to_move;                /* player to move: 0 or 1 */
    int8_t status;                 /* enum tx_status */
    int8_t winner;                 /* 0 or 1 when TX_WON, else -1 */
    int8_t swapped;                /* 1 when move 2 was SWAP */
    int16_t vacant_ok[2];          /* vacant holes each player may still use (draw test) */
    uint8_t cell[TX_HOLES_MAX];    /* enum tx_cell */
    int16_t uf[TX_HOLES_MAX + 4];  /* union-find parents: holes, then the 4 border nodes */
    uint64_t link_bits[(TX_LINKS_MAX + 63) / 64]; /* links made (owner = colour of its pegs) */
    int16_t moves[TX_MOVES_MAX];                  /* hole played at each move, or TX_MOVE_SWAP */
};

/* Starts an empty game on geo; player 0 to move. */
void tx_game_init(struct tx_game *g, const struct tx_geometry *geo);

/* TX_LEGAL or why move (a hole index or TX_MOVE_SWAP) is refused for the
 * player to move. */
enum tx_illegal tx_game_check(const struct tx_game *g, int move);

/* Plays move for the player to move. Returns TX_LEGAL and updates the game,
 * or the reason and leaves the game unchanged. */
enum tx_illegal tx_game_play(struct tx_game *g, int move);

/* Writes every legal move of the player to move into out (room for
 * TX_MOVES_MAX), SWAP first when allowed; returns how many. 0 when over. */
int tx_game_legal_moves(const struct tx_game *g, int16_t *out);

/* True when a link of either colour joins a and b. */
bool tx_game_linked(const struct tx_game *g, int a, int b);
static inline bool tx_game_has_link(const struct tx_game *g, int link)
{
    return (g->link_bits[link >> 6] >> (link & 63)) & 1;
}

/* Pegs of player in placement order (after a swap the mirrored peg is player
 * 1's first); writes up to TX_HOLES_MAX holes into out, returns how many. */
int tx_game_pegs(const struct tx_game *g, int player, int16_t *out);

/* Links of player in creation order, oldest first, as RULES.md lists them:
 * out[2k] is the older peg, out[2k+1] the peg whose placement made the link;
 * links made by one placement in the placement order of their older peg.
 * out needs room for 2 * TX_LINKS_MAX; returns the number of links. */
int tx_game_links(const struct tx_game *g, int player, int16_t *out);

/* When the game is won: a shortest chain of linked pegs of the winner from
 * one of its border lines to the other, written into out (room for
 * TX_HOLES_MAX), returns its length; 0 when the game is not won. */
int tx_game_winning_chain(const struct tx_game *g, int16_t *out);

/* The reason as RULES.md words it, naming the hole: "occupied hole D6",
 * "corner A1", "hole A5 in the opponent's border", "SWAP not allowed at move
 * 3". Writes a NUL-terminated string into buf (cap >= 64 is enough). */
void tx_illegal_describe(const struct tx_game *g, int move, enum tx_illegal why, char *buf,
                         size_t cap);

/* Builds the position a bot sees from its turn input (tx_input_parse) when
 * it is player `me` (0 or 1) and on move, with pegs and links exactly as
 * listed. Whether move 2 was a swap follows from the peg counts (player 1
 * to move with as many pegs as player 0, or player 0 to move with one fewer).
 * The interleaving of earlier moves is not in the input: moves[] is filled in
 * a plausible order. hisLastPeg may be FIRST for player 0 with pegs on the
 * board: its first turn after a forced opening. Returns 0, or -EINVAL when the position is
 * impossible (a link between non-neighbours or across the opponent's, pegs where that player may
 * not play, counts that do not fit `me` being on move). */
struct tx_input;
int tx_game_from_input(struct tx_game *g, const struct tx_geometry *geo, const struct tx_input *in,
                       int me);

#endif
