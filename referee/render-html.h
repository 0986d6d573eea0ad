/* render-html.h - one self-contained HTML file that replays recorded games.
 *
 * The viewer (referee/viewer.html: markup, style and script in one file, no
 * network) is compiled into the program. Each game is embedded as JSON in
 * its own <script type="application/json" class="tx-game"> element: the
 * record as loaded, its verification verdict, and per entry the peg placed,
 * the peg a swap removed and the links the entry made and removed (under
 * classic rules links also disappear), a cut's three pegs, the sides where
 * a pie swap or a choice decided them, a privilege's seats and what these
 * did in words, all computed here with libtwixt, so the viewer draws and
 * never re-implements the rules. A game of two bots under the mirror swap
 * gets exactly the data it always did (the .html-game files in tests/golden/render).
 * Every
 * "<", ">" and "&" inside the JSON is written as \u003c, \u003e, \u0026, so
 * a bot's "</script>" cannot end the element; the viewer shows bot text with
 * textContent only.
 *
 * Games are streamed: begin, one call per game, end. Nothing is kept.
 */
#ifndef TX_RENDER_HTML_H
#define TX_RENDER_HTML_H

#include <stdio.h>

#include "geometry.h"
#include "record.h"
#include "verify.h"

/* The viewer's source, generated at build time from referee/viewer.html. */
extern const char tx_viewer_html[];

/* Writes the viewer up to the place where games go. */
void tx_render_html_begin(FILE *out);

/* Writes one game. source names where it came from ("games.jsonl:3");
 * report is its verification (NULL: not verified). */
void tx_render_html_game(FILE *out, const struct tx_geometry *geo, const struct tx_record *r,
                         const struct tx_verify_report *report, const char *source);

/* Writes the rest of the viewer. */
void tx_render_html_end(FILE *out);

/* Writes text (NUL-terminated) with "<", ">" and "&" as JSON \u escapes;
 * only valid inside or between JSON tokens. */
void tx_render_html_json(FILE *out, const char *text);

#endif
