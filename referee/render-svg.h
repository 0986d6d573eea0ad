/* render-svg.h - a recorded position as an SVG picture.
 *
 * Holes, the border lines in each player's colour (player 1 red, the first
 * and last rows; player 2 blue, the first and last columns), pegs, links,
 * under classic rules the links the move removed (dashed), the last move
 * ringed, the winning chain highlighted when the position is won, and
 * coordinates on all four edges, on any board up to 100 x 100 (cells
 * shrink past 62 holes a side). Every piece of text is XML-escaped, so a
 * bot's name cannot break the document.
 *
 * The openings and Double TwixT: the caption names the opening, the teams
 * with their players and the handicapped bot with the game, gives each
 * player the colour it plays at the move shown (none while a cut's sides
 * are undecided), and says what a pie swap, a cut, a choice or a privilege
 * did, in the text render's words (render-text.h); a cut's three pegs are
 * all ringed, and a pie swap rings the peg that stayed.
 */
#ifndef TX_RENDER_SVG_H
#define TX_RENDER_SVG_H

#include <stdio.h>

#include "game.h"
#include "record.h"

/* Writes a standalone SVG document of the position after the first `upto`
 * entries of r (r->nmoves: the final one) with a caption naming the game,
 * the players ("player 1 NAME (red)", or "team T (red: player 1 NAME,
 * player 3 NAME)"), the move and what it did or, at the end, the result
 * ("player 2 NAME wins by timeout (DETAIL)", "team T wins by ..."),
 * wrapped into as many lines as keep it inside the picture. */
void tx_render_svg(FILE *out, const struct tx_geometry *geo, const struct tx_record *r, int upto);

/* Writes s (valid UTF-8) escaped for XML text and attribute values; control
 * characters, which XML 1.0 forbids, become "?". */
void tx_render_svg_escape(FILE *out, const char *s);

#endif
