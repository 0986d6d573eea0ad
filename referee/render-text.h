/* render-text.h - a recorded game as terminal text.
 *
 * The board is drawn on a grid of twice the resolution: holes on even rows
 * and columns, and each knight link as one character ("/" or "\", "*" for
 * two same-colour links crossing at their midpoint) at its midpoint, which
 * always falls between two holes. Border lines sit on the remaining
 * in-between cells, where no link midpoint can fall. Player 1 (players[0])
 * is "X" (red), player 2 is "O" (blue); row 1 is at the top. Every link is
 * also listed under the board, so nothing depends on reading slashes.
 * Boards wider than 26 columns are drawn compact (one character between
 * holes) so that 100 columns fit a wide terminal. Under classic rules the
 * header carries the move's link edits, and the links each move removed
 * and made are listed under the board.
 *
 * Colour (ANSI) only when asked, i.e. when the output is a terminal. Bot
 * text (messages, stderr) is printed with control characters replaced, so
 * a bot cannot send escape sequences to the user's terminal.
 */
#ifndef TX_RENDER_TEXT_H
#define TX_RENDER_TEXT_H

#include <stdbool.h>
#include <stdio.h>

#include "game.h"
#include "record.h"

/* The board of g as a diagram; last is the hole to mark as the last move
 * (or -1). */
void tx_render_text_board(FILE *out, const struct tx_game *g, int last, bool colour);

/* Entry `upto` of r (1-based; 0 for the empty board before the first move):
 * a header line (move, player, time, message), the board after it, the
 * links, and that turn's stderr. When upto == r->nmoves, also the result. */
void tx_render_text_move(FILE *out, const struct tx_geometry *geo, const struct tx_record *r,
                         int upto, bool colour);

/* Every entry of r in turn, then the result. */
void tx_render_text_game(FILE *out, const struct tx_geometry *geo, const struct tx_record *r,
                         bool colour);

/* Keeps, in their order, the links of from (n pairs of holes, as
 * tx_game_links writes them) that the game `in` does not hold, and returns
 * how many: with the positions before and after a move, the links it
 * removed or made. */
int tx_render_links_not_in(const struct tx_game *in, int16_t *from, int n);

/* Prints s with every control character (C0, DEL, C1) shown as "?", at most
 * max_bytes bytes of it ("..." when cut). For any bot-controlled text. */
void tx_render_text_safe(FILE *out, const char *s, size_t max_bytes);

#endif
