/* mcts.h - the search of twixt-mcts: Monte Carlo tree search with RAVE.
 *
 * Each iteration walks down the tree from the root choosing, at every node,
 * the child with the best blend of its own win rate and its AMAF (RAVE) win
 * rate, plus a small exploration term; expands a leaf once it has been
 * visited a few times, giving its children priors from the shortest
 * connections of both players (greedy-eval.h: a hole on the mover's own
 * advances it, one on the opponent's blocks him) and from making a link;
 * then finishes the game with a playout
 * (playout.h) and updates the path and the AMAF statistics of its siblings.
 * The root's children also get priors from the greedy evaluation's ranking
 * (every hole on boards up to 16 x 16; on larger ones the candidates, one
 * at a time, within half the time left).
 *
 * The tree is kept between turns: when the new position is the old root
 * after our move and one opponent move, the search continues from that
 * grandchild. Nodes come from one pool; when it is more than half used at the
 * start of a turn, the tree is dropped and rebuilt. The positions are
 * compared by their pegs and links (same_position in mcts.c).
 *
 * The swap and the first move are not searched (twixt-mcts decides them with
 * the rules of openings.h, or declines the swap: tx_mcts_declines_swap).
 *
 * The enhancements over the first version (README "Bundled bots" has the
 * measurements), each with a switch to measure its worth:
 * - second_line (--no-second-line): the search board counts a peg on a
 *   second line as joined to its border (fastboard.h; under classic rules
 *   while no link crosses its step to the border hole), so a chain joining
 *   the two second lines is a win: playouts stop two moves early, the tree
 *   sees sealed games as won, and a sealed game is finished at once
 *   (finish_sealed) instead of searched;
 * - save_bridge (--no-save-bridge): playouts answer an intrusion into a
 *   two-way link between two pegs, and the tree's priors favour that answer
 *   (playout.h, the largest gain);
 * - save_edge (--no-save-edge): the same answer for a peg's last way to its
 *   border line (playout.h).
 * On boards larger than 16 x 16 (README "twixt-mcts on classic and big
 * boards" has the measurements):
 * - candidates (--no-candidates): a node's children are only the holes
 *   nearest both players' shortest paths and the pegs (tx_eval_candidates),
 *   not every hole (child_moves in mcts.c);
 * - cutoff (--no-cutoff): playouts stop after a few dozen moves and are
 *   scored by both players' shortest-connection distances (playout_value);
 * - fallback (--no-fallback): when the root's children got fewer than a
 *   few visits each, the greedy ranking's best move is played
 *   (thin_fallback).
 * There too the search stops when its longest iteration so far would no
 * longer fit before the deadline (an expansion costs eight searches of the
 * board).
 * On boards larger than TX_LOOKAHEAD_SIZE_MIN (26 x 26, mcts-lookahead.h):
 * - lookahead (--no-lookahead): the move is not searched by the tree but by
 *   a shallow alpha-beta search over greedy's evaluation
 *   (mcts-lookahead.h), which beats greedy where playouts are too few;
 * - third_ply (--no-third-ply): that search goes on to a third ply over the
 *   root's best moves in the time its two plies leave (mcts.c).
 * On boards over 16 x 16 up to 26 x 26, where the tree plays:
 * - defend (--no-defend): the turns where greedy's evaluation says the
 *   opponent leads (by more than its extra pegs are worth) are the
 *   lookahead's, not the tree's (defends in mcts.c).
 * And one that is not the search's:
 * - decline_swap (--no-decline-swap): on a square board over 16 x 16,
 *   twixt-mcts never swaps (nor takes the pie): it keeps the move
 *   (tx_mcts_declines_swap).
 */
#ifndef TX_BOTS_MCTS_H
#define TX_BOTS_MCTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fastboard.h"
#include "playout.h"

struct tx_mcts;

/* The enhancements that can be switched off, to measure each one's worth
 * (twixt-mcts --no-FEATURE). All are on by default. */
struct tx_mcts_features {
    bool second_line;  /* second-line pegs count as joined to the border (fastboard.h) */
    bool save_bridge;  /* playouts answer intrusions, and the tree favours the answer (playout.h) */
    bool save_edge;    /* the answers also keep a peg's last way to its border (playout.h) */
    bool candidates;   /* big boards: children only near the shortest paths (mcts.c) */
    bool cutoff;       /* big boards: playouts cut short and scored by distance (mcts.c) */
    bool fallback;     /* big boards: a thin search plays the greedy ranking's best (mcts.c) */
    bool lookahead;    /* boards over 26 x 26: alpha-beta of greedy's evaluation (lookahead) */
    bool two_distance; /* the lookahead counts how fragile a connection is (mcts-lookahead.c) */
    bool link_blocks;  /* the lookahead's replies include blocks by a link (mcts-lookahead.c) */
    bool one_sided;    /* once a player is cut off, a deeper, narrower lookahead (mcts.c) */
    bool third_ply;    /* the lookahead goes on to a third ply in the time left (mcts.c) */
    bool defend;       /* boards over 16 x 16: the lookahead plays the turns the opponent leads */
    bool edge_peg;     /* boards over 16 x 16: a lone peg near an edge is left out (mcts.c) */
    bool decline_swap; /* big square boards: keep the move rather than swap (twixt-mcts.c) */
};

void tx_mcts_features_default(struct tx_mcts_features *f);

/* What one search did, for the stderr summary and the benchmark. */
struct tx_mcts_stats {
    long playouts;       /* iterations of this search */
    long reused;         /* visits of the root kept from the previous turn */
    long nodes;          /* nodes in the pool after the search */
    double win_rate;     /* of the chosen move, for the player to move */
    int best_visits;     /* visits of the chosen move */
    bool fallback;       /* the move is the evaluation's, the search being thin (fallback) */
    int lookahead_depth; /* > 0: the move is the lookahead's, searched this deep; playouts
                            then counts its evaluations (mcts-lookahead.h) */
    int lookahead_searched, lookahead_moves; /* root moves searched that deep, of how many */
    bool left_out; /* the mover's lone edge peg was left out of the search (edge_peg) */
};

/* A search object with room for max_nodes nodes (0: the default, about
 * 3 million, 84 MiB, touched only as used). Returns NULL when out of memory. */
struct tx_mcts *tx_mcts_new(const struct tx_geometry *geo, uint64_t seed, size_t max_nodes);

/* Switches enhancements on or off (before the first search). */
void tx_mcts_set_features(struct tx_mcts *m, const struct tx_mcts_features *f);
void tx_mcts_free(struct tx_mcts *m);

/* Searches b, whose player to move is the searcher, until the monotonic
 * clock (tx_botio_now_ns) reaches deadline_ns, or max_playouts iterations
 * (0 for no limit; the lookahead's evaluations where it plays). last[p] is
 * player p's last peg or -1. Returns the hole to play, or -1 when the
 * player to move has none. */
int tx_mcts_search(struct tx_mcts *m, const struct tx_fastboard *b, const int last[2],
                   int64_t deadline_ns, long max_playouts, struct tx_mcts_stats *stats);

/* True when twixt-mcts, by its features and board, declines the swap and
 * the pie rather than decide them by the rules of openings.h: on a square
 * board over 16 x 16 with decline_swap. Against greedy on 24 x 24 and
 * 26 x 26 it lost three times as often after swapping a central peg as
 * when it kept the move against it (README, the ninth round). */
bool tx_mcts_declines_swap(const struct tx_mcts *m);

/* Playouts per second from the empty board of geo, measured for about
 * seconds of one core's time (the --bench figure). */
double tx_mcts_bench_playouts(const struct tx_geometry *geo, double seconds);

#endif
