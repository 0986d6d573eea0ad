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
 * The openings and Double TwixT (RULES.md): a player's mark is the colour
 * it plays at the move shown, so after a pie swap or a cut's choice player
 * 1 may be "O"; none is shown while a cut's sides are undecided. A pie
 * swap, a cut, a choice and a privilege say what they did in words after
 * the move ("the sides exchange, C5 stays: ..."), the three pegs of a cut
 * are all marked as the last move, and with teams each player is named
 * with its team. The SVG caption and the HTML viewer word these as the
 * text does: the wording below is shared, with the colours' words given
 * ("X" and "O" here, "red" and "blue" in the pictures).
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

/* The board of g as a diagram; marks are the nmarks holes to mark as the
 * last move (one, or a cut's three). */
void tx_render_text_board(FILE *out, const struct tx_game *g, const int *marks, int nmarks,
                          bool colour);

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

/* The words for the two colours: the text's marks and the pictures'. */
extern const char *const tx_render_marks[2];   /* "X", "O" */
extern const char *const tx_render_colours[2]; /* "red", "blue" */

/* The colour seat plays in g, or -1 while a cut's sides are undecided. */
int tx_render_colour_of(const struct tx_game *g, int seat);

/* "player 2 beta" (the name defused and cut). */
void tx_render_player(FILE *out, const struct tx_record *r, int seat);

/* "team black" (team 0 is seats 0 and 2, team 1 seats 1 and 3). */
void tx_render_team(FILE *out, const struct tx_record *r, int team);

/* "team black (blue: player 2 bob, player 4 dave)": the colour it plays in
 * g in words[colour] (left out while undecided), in its colour when ink. */
void tx_render_team_members(FILE *out, const struct tx_record *r, const struct tx_game *g, int team,
                            const char *const words[2], bool ink);

/* "game 3", and in parentheses what makes the game other than
 * CodinGame's: "game 3 (classic rules, pie opening, Double TwixT,
 * handicap: strong crosses 24 rows)" (the handicapped bot's distance in
 * g's sides). */
void tx_render_game_name(FILE *out, const struct tx_record *r, const struct tx_game *g);

/* "strong crosses 24 rows": r's handicapped bot and its distance in the
 * colour it plays in g (rows for red, columns for blue); its name alone
 * before the sides are decided or when no player has the name. */
void tx_render_handicap(FILE *out, const struct tx_record *r, const struct tx_game *g);

/* What an entry was, from the positions before and after it. */
enum tx_render_entry {
    TX_RENDER_UNPLAYED = 0, /* not played: an illegal or missing answer */
    TX_RENDER_HOLE,         /* a peg (with privilege, maybe) */
    TX_RENDER_MIRROR,       /* the mirror swap (opening swap) */
    TX_RENDER_PIE,          /* the pie swap: the sides exchange */
    TX_RENDER_CUT,          /* the cut's three pegs */
    TX_RENDER_CHOOSE,       /* the choice after the cut */
};
enum tx_render_entry tx_render_entry_kind(const struct tx_game *before,
                                          const struct tx_game *after);

/* The holes to mark as the last entry played in g, into pegs; returns how
 * many: a hole's peg, the mirrored peg, the pie's first peg (which stays),
 * a cut's three pegs (red, red, blue); none for a choice or before the
 * first move. */
int tx_render_last_pegs(const struct tx_game *g, int pegs[3]);

/* The same for the entry between before and after: none when it was not
 * played. */
int tx_render_entry_pegs(const struct tx_game *before, const struct tx_game *after, int pegs[3]);

/* The seat that lost its turn to the privilege the entry called, or -1. */
int tx_render_skipped_seat(const struct tx_game *before, const struct tx_game *after);

/* True when tx_render_entry_note has something to say. */
bool tx_render_entry_has_note(const struct tx_game *before, const struct tx_game *after);

/* What a pie swap, a cut, a choice or a privilege did, in words, with the
 * colours named by words (in colour when ink): "the sides exchange, C5
 * stays: player 2 beta plays red, player 1 alpha blue", "red D4 E6,
 * linked; blue H8; player 2 beta chooses a side", "player 2 beta plays
 * red, player 1 alpha blue; player 1 alpha moves next", "player 1 alice
 * moves at once, player 4 dave loses its turn". Returns false, writing
 * nothing, for any other entry. */
bool tx_render_entry_note(FILE *out, const struct tx_record *r, const struct tx_game *before,
                          const struct tx_game *after, const char *const words[2], bool ink);

/* Prints s with every control character (C0, DEL, C1) shown as "?", at most
 * max_bytes bytes of it ("..." when cut). For any bot-controlled text. */
void tx_render_text_safe(FILE *out, const char *s, size_t max_bytes);

/* Prints the answer of move m as the bot wrote it, made safe: its hole or
 * decision, its link edits, its privilege token. The text and SVG renders
 * both quote it. */
void tx_render_answer(FILE *out, const struct tx_record_move *m);

#endif
