/* greedy-eval.h - a static evaluation of Twixt positions, and the opening
 * decisions (first move, swap) shared by the bundled bots.
 *
 * The evaluation is the Twixt form of Hex's shortest-connection distance:
 * for each player, the fewest pegs it must still place to join its border
 * lines, walking knight steps through holes it may use, never along a step
 * that a link blocks: an opponent's link, under classic rules one's own too
 * (the fastboard's rules). Ties are broken by flexibility: how many holes
 * lie on some shortest path (more ways to connect are harder to block).
 * twixt-greedy plays the move with the best evaluation; twixt-mcts uses the
 * same ranking as priors for the moves at its root.
 *
 * One evaluation costs a few searches over the whole board, so ranking
 * every hole costs holes x holes: 20,000 hole visits a search on 12 x 12,
 * but 100,000,000 on 100 x 100 (seconds). On boards where every hole would
 * cost more than TX_EVAL_SEARCH_HOLES, the bots rank only candidates
 * (tx_eval_candidates): the holes closest to both players' shortest paths.
 */
#ifndef TX_BOTS_GREEDY_EVAL_H
#define TX_BOTS_GREEDY_EVAL_H

#include <stdbool.h>
#include <stdint.h>

#include "fastboard.h"
#include "rng.h"

#define TX_EVAL_FAR 255    /* distance when a player can no longer connect */
#define TX_EVAL_WIN 100000 /* score of a won position */

/* Fewest pegs player must still place to join its border lines (0 when it
 * has), or TX_EVAL_FAR. When flex is not NULL it receives the number of
 * holes on some shortest path. */
int tx_eval_distance(const struct tx_fastboard *b, int player, int *flex);

/* Marks in on_path (one byte per hole, set to 1) the vacant holes that lie
 * on some shortest connection of player, leaving the other bytes alone.
 * Returns the distance as tx_eval_distance does. */
int tx_eval_paths(const struct tx_fastboard *b, int player, uint8_t *on_path);

/* Hex's two-distance of player over knight steps (greedy-eval.c): like
 * tx_eval_distance, but a hole counts only its second-best way in, so a
 * connection a single block can cut counts for little. TX_EVAL_FAR when
 * player has fewer than two ways. 0 when player has won. */
int tx_eval_two_distance(const struct tx_fastboard *b, int player);

/* Marks in marks (one byte per hole, set to 1, the others left alone) the
 * vacant holes where a peg of player would make a link crossing a knight
 * step of its opponent's shortest connections: blocks that are not on the
 * opponent's path (tx_eval_paths) but cut it all the same. Returns how many
 * it marked. Two searches. */
int tx_eval_link_blocks(const struct tx_fastboard *b, int player, uint8_t *marks);

/* The position from player's side: positive when player is closer to
 * connecting than its opponent; +-TX_EVAL_WIN when the game is won. */
int tx_eval_position(const struct tx_fastboard *b, int player);

/* tx_eval_position plus 64 a peg of how much more fragile the opponent's
 * connection is than player's: a connection's fragility is its
 * two-distance beyond its distance (the pegs it needs more when the
 * opponent may block its best way at every step), at most
 * tx_eval_fragility_cap. The lookahead's evaluation (mcts-lookahead.c). */
int tx_eval_position_fragile(const struct tx_fastboard *b, int player);

/* The most pegs of fragility tx_eval_position_fragile counts for player on
 * geo: a sixth of the board's side along player's way, at most 6. */
int tx_eval_fragility_cap(const struct tx_geometry *geo, int player);

/* Hole visits of the shortest-path searches one move of a bundled bot may
 * make: about 70 ms on 100 x 100 on this project's machine (55 ns a visit
 * there, less on smaller boards). Enough to rank every hole on boards up
 * to 24 x 24, the classic board (on 12 x 12, 7% of it is used). */
#define TX_EVAL_SEARCH_HOLES 1250000

/* Scores every hole the player to move may use by the position after it
 * (from the mover's side), and writes holes and scores best first into out
 * and scores (room for TX_HOLES_MAX each). Returns how many. Ties keep
 * a random order drawn from rng. */
int tx_eval_rank_moves(const struct tx_fastboard *b, struct tx_rng *rng, int16_t *out, int *scores);

/* tx_eval_rank_moves over tx_eval_candidates(b, true, max) only: the same
 * ranking, and the same draws from rng, when the player to move has at
 * most max holes. */
int tx_eval_rank_candidates(const struct tx_fastboard *b, struct tx_rng *rng, int max, int16_t *out,
                            int *scores);

/* Writes into out (room for TX_HOLES_MAX), in hole order, the holes the
 * player to move may use: all of them when there are at most max, else the
 * max most promising: nearest the shortest paths of the opponent (and when
 * `mine`, of the mover too; tx_eval_paths), then a knight's move from a
 * peg, then nearest the centre. Returns how many. Costs four searches when
 * it restricts (two without `mine`), nothing otherwise. */
int tx_eval_candidates(const struct tx_fastboard *b, bool mine, int max, int16_t *out);

/* tx_eval_candidates(b, true, max, out), most promising first when there
 * are more than max (nearest both shortest paths, then next to a peg, then
 * central), in hole order otherwise. */
int tx_eval_candidates_ranked(const struct tx_fastboard *b, int max, int16_t *out);

/* tx_eval_candidates(b, true, max, out), and tx_eval_paths of the player
 * to move into my_path and of its opponent into his_path, from the same
 * four searches when the candidates are restricted (eight otherwise):
 * twixt-mcts's expansion on a big board. With link_blocks (NULL for none)
 * also what tx_eval_link_blocks marks for the player to move, from the
 * same searches: its lookahead's inner nodes. */
int tx_eval_candidates_paths(const struct tx_fastboard *b, int max, int16_t *out, uint8_t *my_path,
                             uint8_t *his_path, uint8_t *link_blocks);

/* True when player 1 should answer player 0's first peg in hole with SWAP:
 * a central peg is worth taking, one near an edge is not. */
bool tx_eval_should_swap(const struct tx_geometry *geo, int hole);

/* A first move for player 0 that tx_eval_should_swap would not take but that
 * is as central as that allows. */
int tx_eval_opening(const struct tx_geometry *geo, struct tx_rng *rng);

/* True when hole is nearer an edge than the ring tx_eval_opening opens on
 * (a quarter of the side less one from every edge): a first peg there is
 * worth less than the bots' own opening. */
bool tx_eval_near_edge(const struct tx_geometry *geo, int hole);

#endif
