/* geometry.h - what is fixed for a board size: holes, borders, knight links
 * and which links cross which.
 *
 * Everything here depends only on the board size, so it is computed once
 * (tx_geometry_init) and shared read-only by every game of that size: a game
 * keeps a pointer to its geometry, which must outlive it. Pure data, no I/O,
 * no globals: the caller owns the struct (it is large, about 80 KiB, so put
 * it in static storage or on the heap, not on a small stack).
 *
 * Coordinates: x is the column (letter A.. = 0..), y the row (number 1.. = 0..).
 * A hole index is y * size + x; corners have an index but are never playable.
 * A link joins two holes a knight's move apart. Its id is
 * hole * 4 + d, where hole is the endpoint with the smaller x and d indexes
 * the four knight steps with dx > 0: (1,2) (2,1) (2,-1) (1,-2).
 */
#ifndef TX_GEOMETRY_H
#define TX_GEOMETRY_H

#include <stdbool.h>
#include <stdint.h>

#define TX_SIZE_MIN 5
#define TX_SIZE_MAX 26
#define TX_SIZE_DEFAULT 12
#define TX_HOLES_MAX (TX_SIZE_MAX * TX_SIZE_MAX)
#define TX_LINKS_MAX (TX_HOLES_MAX * 4)
#define TX_CROSSINGS 9 /* every knight link is crossed by exactly 9 others */

/* Bits of tx_geometry.zone[hole]. Player 0 (FIRST) owns rows 1 and N,
 * player 1 owns columns A and the last letter. */
enum tx_zone {
    TX_ZONE_ROW_FIRST = 1 << 0,  /* row 1: player 0's first border line */
    TX_ZONE_ROW_LAST = 1 << 1,   /* row N: player 0's second border line */
    TX_ZONE_COL_FIRST = 1 << 2,  /* column A: player 1's first border line */
    TX_ZONE_COL_LAST = 1 << 3,   /* last column: player 1's second border line */
    TX_ZONE_CORNER = 1 << 4,     /* one of the four missing corners */
    TX_ZONE_PLAYER0_OK = 1 << 5, /* player 0 may place a peg here */
    TX_ZONE_PLAYER1_OK = 1 << 6, /* player 1 may place a peg here */
};

struct tx_geometry {
    int size;                           /* N, TX_SIZE_MIN..TX_SIZE_MAX */
    int holes;                          /* N * N, corners included */
    uint8_t zone[TX_HOLES_MAX];         /* enum tx_zone bits per hole */
    int16_t neighbour[TX_HOLES_MAX][8]; /* knight neighbours, -1 if off board or a corner */
    int16_t link_of[TX_HOLES_MAX][8];   /* link id to neighbour[h][k], -1 likewise */
    int16_t link_end[TX_LINKS_MAX]
                    [2]; /* a link's holes (smaller x first), -1 if it does not exist */
    int16_t crossing[TX_LINKS_MAX][TX_CROSSINGS]; /* links that cross it, -1 padded at borders */
};

/* Fills geo for an N x N board. Returns 0, or -EINVAL if N is out of range. */
int tx_geometry_init(struct tx_geometry *geo, int size);

/* The hole at (x, y), or -1 when outside the board. Corners are returned. */
int tx_geometry_hole(const struct tx_geometry *geo, int x, int y);
static inline int tx_geometry_x(const struct tx_geometry *geo, int hole)
{
    return hole % geo->size;
}
static inline int tx_geometry_y(const struct tx_geometry *geo, int hole)
{
    return hole / geo->size;
}

/* The swap mirror: (x, y) -> (y, x). */
int tx_geometry_mirror(const struct tx_geometry *geo, int hole);

/* True when player (0 or 1) may ever place a peg in hole (not a corner, not
 * in the opponent's border lines). */
bool tx_geometry_playable(const struct tx_geometry *geo, int player, int hole);

/* The link id joining holes a and b, or -1 when they are not a knight's move
 * apart (or either is off the board). */
int tx_geometry_link(const struct tx_geometry *geo, int a, int b);

#endif
