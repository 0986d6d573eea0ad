/* mcts-lookahead.h - twixt-mcts's move on the biggest boards: a shallow
 * alpha-beta search over greedy's evaluation.
 *
 * On the biggest boards a turn's tree search gets too few playouts to
 * inform it (a few hundred to a few thousand on 48 x 48, for
 * 40 children a node), and its cut playouts' value, a logistic of the
 * difference of the two shortest-connection distances, counts a single
 * shortest path as nearly a connection: mcts lost races it believed won
 * 95-99% while greedy blocked one path after another (README "twixt-mcts
 * on classic and big boards"). greedy is itself a one-ply search over the
 * evaluation of greedy-eval.h; this searches the same evaluation two plies
 * or more deep (negamax with alpha-beta, iterative deepening within the
 * deadline), so a move whose shortest path one block cuts scores as what is
 * left after the block. The moves of every node are the evaluation's
 * candidates (tx_eval_candidates), the root's ordered by the previous
 * depth's values, an inner node's by whether they lie on the shortest paths.
 * twixt-mcts --no-lookahead plays the tree search there instead.
 */
#ifndef TX_BOTS_MCTS_LOOKAHEAD_H
#define TX_BOTS_MCTS_LOOKAHEAD_H

#include <stdbool.h>
#include <stdint.h>

#include "fastboard.h"

/* Boards with a side larger than this get the lookahead (twixt-mcts): from
 * 27 x 27, since with its third ply it beat the tree on 28 x 28 (98-99%
 * against greedy where the tree scored 92%), tied with it on 26 x 26 and
 * did not beat it on 24 x 24 (README, the eighth round). */
#define TX_LOOKAHEAD_SIZE_MIN 26

/* Moves of an inner node: tx_eval_candidates_paths(b, TX_LOOKAHEAD_WIDTH, ...). */
#define TX_LOOKAHEAD_WIDTH 24

/* Moves of the root: tx_eval_candidates(b, true, this, ...), as many as
 * twixt-greedy ranks on geo (TX_EVAL_SEARCH_HOLES), at least 40. */
int tx_lookahead_root_width(const struct tx_geometry *geo);

struct tx_lookahead_stats {
    long evaluations; /* positions evaluated (tx_eval_position), the search's iterations */
    int depth;        /* the deepest depth whose search chose the move (1 is greedy's) */
    int searched;     /* root moves searched to that depth */
    int moves;        /* root moves (candidates) */
    int value;        /* the chosen move's value, from the mover's side (tx_eval_position) */
};

/* What the lookahead adds to a plain alpha-beta of greedy's evaluation,
 * each measured in README (twixt-mcts --no-FEATURE switches them off). */
struct tx_lookahead_features {
    bool two_distance; /* the value counts how fragile a connection is */
    bool link_blocks;  /* an inner node's moves include blocks by a link */
};

/* The move of the player to move of b by the lookahead, searching until the
 * monotonic clock reaches deadline_ns (leaving room for one more
 * evaluation), max_evaluations positions are evaluated, or depth max_depth
 * is done (0 for either: no limit but the deadline). Every node searches
 * width moves (its most promising candidates), or with width 0 the root
 * tx_lookahead_root_width and an inner node TX_LOOKAHEAD_WIDTH. Returns -1
 * when the player to move has no hole. */
int tx_lookahead_move(const struct tx_fastboard *b, int64_t deadline_ns, long max_evaluations,
                      int max_depth, int width, const struct tx_lookahead_features *features,
                      struct tx_lookahead_stats *stats);

/* A value of tx_eval_position as a win rate guess for the bot's message. */
double tx_lookahead_win_rate(int value);

#endif
