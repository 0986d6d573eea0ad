/* input.h - the text a bot receives each turn: written by the referee,
 * read back by bots (and by tests, validate and replay).
 *
 * The format is RULES.md "Input": hisLastPeg (FIRST | SWAP | hole), then the
 * reader's pegs and links, then the opponent's, every list in placement or
 * creation order, each line ending in "\n". The writer is the one place that
 * produces this text, so the referee, the tests, the verifier and the
 * re-feeding replay agree byte for byte, first inputs after a forced opening
 * included.
 */
#ifndef TX_INPUT_H
#define TX_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "game.h"

/* Bytes that always hold one input on geo's board: the header and four
 * counts, every hole as a peg line ("CV100\n") and every possible link as a
 * link line ("CU98 CV100\n"); TX_INPUT_MAX for the largest board. */
#define TX_INPUT_BYTES(holes) (32 + (size_t)(holes)*6 + (size_t)(holes)*4 * 12)
#define TX_INPUT_MAX TX_INPUT_BYTES(TX_HOLES_MAX)
static inline size_t tx_input_max(const struct tx_geometry *geo)
{
    return TX_INPUT_BYTES(geo->holes);
}

/* Writes the input for `seat` (the seat to move, g->seat: in a game of two
 * bots that did not exchange sides, the player to move) into buf and
 * NUL-terminates it: the first line names the last move of the other side
 * (the other bot, or the other team), then the lists of the seat's colour
 * and of the other colour. first_turn says that this is the reader's first
 * input of the game: after a forced opening (RULES.md "Forced openings") a
 * red (player 1, rows) reader's first input says FIRST (SWAP after the
 * opponent's swap) whatever was played before; any other, like every later
 * input, names the opponent's last move. In a game without forced moves it
 * changes nothing. After a cut the line is CUT or CHOOSE 1|2 (RULES.md
 * "Openings").
 * Returns the length without the NUL, or -ENOSPC when cap is too small
 * (TX_INPUT_MAX always suffices). */
int tx_input_write(const struct tx_game *g, int seat, bool first_turn, char *buf, size_t cap);

/* A parsed turn input. Holes are indexes of the geometry it was parsed with.
 * About 360 KiB: allocate it, or make it static. */
struct tx_input {
    int last;     /* opponent's last hole, TX_INPUT_FIRST, TX_MOVE_SWAP, TX_MOVE_CUT or
                     TX_MOVE_CHOOSE_* */
    int npegs[2]; /* [0] the reader's ("your"), [1] the opponent's ("his") */
    int16_t pegs[2][TX_HOLES_MAX];
    int nlinks[2];
    int16_t links[2][2 * TX_LINKS_MAX]; /* pairs: older peg, newer peg */
};
#define TX_INPUT_FIRST (-6) /* unlike every TX_MOVE_* (a cut's CUT is -3) */

/* Parses exactly len bytes of text. Returns 0, or -EINVAL with a short
 * reason ("line 3: expected a hole name") written into err (may be NULL). */
int tx_input_parse(const struct tx_geometry *geo, const char *text, size_t len, struct tx_input *in,
                   char *err, size_t errcap);

/* Which player the reader of its first input is, as a CodinGame bot tells
 * it: 0 when the first line says FIRST or SWAP, 1 when it names a hole
 * (RULES.md "Forced openings": this holds after a forced opening too). */
int tx_input_first_player(const struct tx_input *in);

#endif
