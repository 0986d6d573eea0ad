/* geometry.h - what is fixed for a board: holes, borders, knight links and
 * which links cross which.
 *
 * Everything here depends only on the board's width and height, so it is
 * computed once (tx_geometry_new) and shared read-only by every game on that
 * board: a game keeps a pointer to its geometry, which must outlive it. Pure
 * data, no I/O, no globals. Its tables are sized for its own board (about
 * 25 KiB for 12 x 12, 2 MiB for 100 x 100), in one allocation owned by the
 * caller (tx_geometry_free).
 *
 * Coordinates: x is the column (letters A.. = 0..width-1), y the row
 * (numbers 1.. = 0..height-1). A hole index is y * width + x; corners have
 * an index but are never playable. A link joins two holes a knight's move
 * apart. Its id is hole * 4 + d, where hole is the endpoint with the smaller
 * x and d indexes the four knight steps with dx > 0: (1,2) (2,1) (2,-1)
 * (1,-2). Ids fit in 16 bits unsigned (at most 40,000 on 100 x 100), so the
 * link tables stay as small as they were when boards stopped at 26 x 26;
 * TX_NO_LINK marks "none".
 *
 * Player 0 (receives FIRST) joins row 1 to row `height` and never plays in
 * the first or last column; player 1 joins the first column to the last and
 * never plays in row 1 or row `height` (RULES.md "Board and coordinates").
 */
#ifndef TX_GEOMETRY_H
#define TX_GEOMETRY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TX_SIDE_MIN 5      /* smallest width or height */
#define TX_SIDE_MAX 100    /* largest width or height (seed 004's "monster game") */
#define TX_SIZE_DEFAULT 12 /* CodinGame's board, 12 x 12 */
#define TX_SIZE_MIN TX_SIDE_MIN
#define TX_SIZE_MAX TX_SIDE_MAX
#define TX_HOLES_MAX (TX_SIDE_MAX * TX_SIDE_MAX)
#define TX_LINKS_MAX (TX_HOLES_MAX * 4) /* the id space of links on the largest board */
#define TX_NO_LINK UINT16_MAX
#define TX_CROSSINGS 9 /* every knight link is crossed by exactly 9 others */

/* Bits of tx_geometry.zone[hole]. */
enum tx_zone {
    TX_ZONE_ROW_FIRST = 1 << 0,  /* row 1: player 0's first border line */
    TX_ZONE_ROW_LAST = 1 << 1,   /* last row: player 0's second border line */
    TX_ZONE_COL_FIRST = 1 << 2,  /* column A: player 1's first border line */
    TX_ZONE_COL_LAST = 1 << 3,   /* last column: player 1's second border line */
    TX_ZONE_CORNER = 1 << 4,     /* one of the four missing corners */
    TX_ZONE_PLAYER0_OK = 1 << 5, /* player 0 may place a peg here */
    TX_ZONE_PLAYER1_OK = 1 << 6, /* player 1 may place a peg here */
};

struct tx_geometry {
    int width, height;                  /* columns and rows, TX_SIDE_MIN..TX_SIDE_MAX */
    int holes;                          /* width * height, corners included */
    int link_ids;                       /* holes * 4: links have ids below this */
    int playable[2];                    /* holes each player may ever use */
    uint8_t *zone;                      /* [holes]: enum tx_zone bits */
    int16_t (*neighbour)[8];            /* [holes][8]: knight neighbours, -1 off board or corner */
    uint16_t (*link_of)[8];             /* [holes][8]: link id to neighbour[h][k], or TX_NO_LINK */
    int16_t (*link_end)[2];             /* [link_ids][2]: holes (smaller x first), -1 if none */
    uint16_t (*crossing)[TX_CROSSINGS]; /* [link_ids]: links crossing it, TX_NO_LINK padded */
    char (*name)[8]; /* [holes][8]: the hole's name ("D6", "CV100"), NUL-padded, and its length
                        in byte 7: inputs name thousands of holes a turn on big boards */
};

/* Builds the geometry of a width x height board into *ret (free it with
 * tx_geometry_free). Returns 0, or -EINVAL if a side is out of range. */
int tx_geometry_new(int width, int height, struct tx_geometry **ret);

/* Frees geo; NULL is accepted. */
void tx_geometry_free(struct tx_geometry *geo);

/* True when the board is square (the mirror swap needs it). */
static inline bool tx_geometry_square(const struct tx_geometry *geo)
{
    return geo->width == geo->height;
}

/* The hole at (x, y), or -1 when outside the board. Corners are returned. */
int tx_geometry_hole(const struct tx_geometry *geo, int x, int y);
static inline int tx_geometry_x(const struct tx_geometry *geo, int hole)
{
    return hole % geo->width;
}
static inline int tx_geometry_y(const struct tx_geometry *geo, int hole)
{
    return hole / geo->width;
}

/* The swap mirror: (x, y) -> (y, x). Only on a square board. */
int tx_geometry_mirror(const struct tx_geometry *geo, int hole);

/* True when player (0 or 1) may ever place a peg in hole (not a corner, not
 * in the opponent's border lines). */
bool tx_geometry_playable(const struct tx_geometry *geo, int player, int hole);

/* The link id joining holes a and b, or -1 when they are not a knight's move
 * apart (or either is off the board). */
int tx_geometry_link(const struct tx_geometry *geo, int a, int b);

#endif
