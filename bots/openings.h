/* openings.h - the bundled bots' decisions of the openings and of Double
 * TwixT (RULES.md "Openings", "Double TwixT"), shared by twixt-greedy,
 * twixt-mcts and, for the cut, twixt-blocker.
 *
 * - The first move: under swap and pie just outside the swap zone
 *   (tx_eval_opening: the swap rule below would not take it); under none,
 *   where nobody swaps, the hole nearest the centre.
 * - The swap (move 2): under swap a central peg is taken
 *   (tx_eval_should_swap). Under pie the same on a square board; on a board
 *   that is not square, where the sides' distances differ, by the
 *   evaluation: it takes red (the first peg and the rows) when red's
 *   distance with the peg is shorter than black's, by two pegs or more for
 *   a peg near an edge.
 * - The cut (player 1's first answer under cut): two red pegs (a knight's
 *   move apart and linked, or apart) and a black one, drawn at random, the
 *   most balanced of many kept: the evaluation with black to move nearest
 *   black being half a move behind (TX_OPENINGS_TEMPO), since black has the
 *   move.
 * - The choice (player 2's first answer under cut): black's best move by
 *   the evaluation (greedy's ranking); CHOOSE 2 (black, and move at once)
 *   when black is ahead after it by more than the half move red then has,
 *   else CHOOSE 1.
 * - Privilege (Double TwixT, once per team): called with a hole after
 *   which either side is one peg from connecting (distance 1 or less): the
 *   partner moves at once, to win, or to block a threat the other team
 *   would otherwise play at once.
 */
#ifndef TX_BOTS_OPENINGS_H
#define TX_BOTS_OPENINGS_H

#include <stdbool.h>

#include "botio.h"
#include "rng.h"

/* Half a move in the evaluation's units (tx_eval_position counts 64 a peg
 * of distance): what having the move is worth. */
#define TX_OPENINGS_TEMPO 32

/* tx_openings_decide's answer when the opening asks nothing: play on. */
#define TX_OPENINGS_PLAY (-100)

/* The opening's decision for this turn, by the rules above, with a message:
 * the first move, the swap (or not: then TX_OPENINGS_PLAY), the cut (its
 * holes in turn->cut, its link in turn->edits) or the choice. Returns
 * TX_OPENINGS_PLAY when the turn is an ordinary move. */
int tx_openings_decide(const struct tx_botio_turn *turn, struct tx_rng *rng, char *message);

/* Under pie: true when player 2 should answer red's first peg (g's only
 * move, black to move) with SWAP. */
bool tx_openings_pie_swap(const struct tx_game *g);

/* The cut on g's empty board: writes the red holes and the black one
 * into cut and, when it links them, "+R1:R2" into edits. */
void tx_openings_cut(const struct tx_game *g, struct tx_rng *rng, int cut[3],
                     struct tx_botio_edits *edits);

/* After the cut (g in TX_PHASE_CHOOSE): TX_MOVE_CHOOSE_RED or
 * TX_MOVE_CHOOSE_BLACK. */
int tx_openings_choose(const struct tx_game *g, struct tx_rng *rng);

/* True when a hole played by colour me in g may carry privilege (Double
 * TwixT, the opening decided; whether the team still has it is botio's to
 * say) and leaves either side at distance 1 or less without winning at
 * once: privilege is worth it. */
bool tx_openings_privilege_worth(const struct tx_game *g, int me, int hole);

#endif
