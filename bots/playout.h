/* playout.h - the Monte Carlo playout policy of twixt-mcts.
 *
 * A playout finishes a game quickly with moves that are random but not
 * senseless, because uniform random Twixt games say little about a
 * position: the mover often extends its last peg by a knight step (that
 * makes a link unless an opponent link is in the way), often answers next to
 * the opponent's last peg (to take the holes its links need), and otherwise
 * plays any hole. Before all that it answers an intrusion
 * (tx_playout_save_bridge), as MoHex's playouts answer an intrusion into a
 * Hex bridge: when the opponent's last peg took, or cut with a link, one of
 * the two ways of joining two of the mover's pegs, the mover takes the
 * other; and when it took or cut one of the two ways of a peg on the third
 * or fourth line to its border line, the mover takes the last one (an edge
 * template). Playouts that keep what is virtually connected connected say
 * much more about a position: against the first twixt-mcts at 80 ms a
 * move, 45% without the answers, 60% with the bridge answer alone, 70% with
 * both (200 games each, README). The games run on a
 * tx_fastboard until a player joins its borders (with the second-line rule
 * of fastboard.h when the caller set it) or the player to move has no hole
 * left (a draw, as in RULES.md).
 */
#ifndef TX_BOTS_PLAYOUT_H
#define TX_BOTS_PLAYOUT_H

#include <stdbool.h>
#include <stdint.h>

#include "fastboard.h"
#include "rng.h"

/* How often each kind of move is tried (the rest are uniform). */
struct tx_playout_policy {
    double extend;    /* a knight step from the mover's last peg */
    double answer;    /* a hole near the opponent's last peg */
    bool save_bridge; /* answer a peg that takes one of two holes joining two pegs */
    bool save_edge;   /* with save_bridge, also a peg's last way to its border line */
    int max_moves;    /* stop after this many moves (0: play to the end; mcts.h's cutoff) */
};

#define TX_PLAYOUT_CUT (-2) /* tx_playout_run stopped at max_moves with no winner */

/* The policy twixt-mcts uses by default (tuned against twixt-greedy). */
void tx_playout_policy_default(struct tx_playout_policy *policy);

/* The answer of player to an intrusion by the opponent's peg in (see
 * above), or -1 when there is none. */
int tx_playout_save_bridge(const struct tx_fastboard *b, int player, int in, bool edges);

/* Plays b to the end. last[p] is player p's last peg, or -1. amaf[hole] is
 * set to player + 1 for the first player to play each hole that is still 0
 * (the caller zeroes it and may mark the tree's moves first).
 * Returns the winner, 0 or 1, -1 for a draw, or TX_PLAYOUT_CUT when
 * policy->max_moves moves were played and nobody has won yet. */
int tx_playout_run(struct tx_fastboard *b, const struct tx_playout_policy *policy,
                   struct tx_rng *rng, int last[2], uint8_t *amaf);

#endif
