/* mcts-lookahead.c - a shallow alpha-beta search over greedy's evaluation.
 *
 * See mcts-lookahead.h for why. Negamax with alpha-beta and iterative
 * deepening: depth 1 scores every root candidate as twixt-greedy does
 * (the evaluation after the move), each deeper iteration searches the root
 * moves in the order of the previous one's values, so the best so far comes
 * first and most of the others are refuted by one reply. An iteration cut
 * short by the deadline still counts for the root moves it finished (the
 * first of them being the previous iteration's best, its choice is at least
 * as informed). An inner node's moves are its candidates with those on the
 * opponent's shortest paths (blocks) first, then those on the mover's own.
 * The root's candidates start most promising first
 * (tx_eval_candidates_ranked), so that where the values tie, as they do in
 * the openings of big boards, the move is a central one next to a peg, not
 * the first in hole order (a peg on the top rows, which mcts used to play
 * there; README, the fifth round).
 */
#include "mcts-lookahead.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "alloc.h"
#include "greedy-eval.h"

#define DEPTH_MAX 8
#define ROOT_WIDTH_MIN 40

struct lookahead {
    struct tx_fastboard *board[DEPTH_MAX + 1]; /* the position at each ply */
    int64_t deadline_ns;
    int64_t longest_ns; /* the longest evaluation or node's candidates so far */
    bool out_of_time;
    long evaluations, max_evaluations; /* 0: no limit but the deadline */
    bool two_distance;
    bool link_blocks;
    int width; /* an inner node's moves (candidates) */
};

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* True when one more evaluation would not fit before the deadline (with
 * room for a node's candidates too: longest_ns is the longest of either),
 * or the evaluations allowed are done. Measured on 100 x 100 with room
 * for two evaluations only, one answer of 815 ran 2.5 ms over its budget
 * by the bot's clock at 93% of a CPU: the candidates cost more there. */
static bool time_up(struct lookahead *la)
{
    if (!la->out_of_time && (now_ns() + 2 * la->longest_ns >= la->deadline_ns ||
                             (la->max_evaluations && la->evaluations >= la->max_evaluations)))
        la->out_of_time = true;
    return la->out_of_time;
}

/* tx_eval_position from the side of the player to move (with the two
 * distance, tx_eval_position_fragile), a won game the sooner the better. */
static int evaluate(struct lookahead *la, const struct tx_fastboard *b, int ply)
{
    int64_t t = now_ns();
    int v = la->two_distance ? tx_eval_position_fragile(b, b->to_move)
                             : tx_eval_position(b, b->to_move);
    int64_t spent = now_ns() - t;
    if (spent > la->longest_ns)
        la->longest_ns = spent;
    la->evaluations++;
    if (v >= TX_EVAL_WIN)
        return v - ply;
    if (v <= -TX_EVAL_WIN)
        return v + ply;
    return v;
}

/* An inner node's moves: its candidates, blocks of the opponent's shortest
 * paths first, then advances on the mover's own, then the others (a stable
 * order, so the candidates' hole order breaks ties).
 * The link blocks enhancement (--no-link-blocks): the mover's blocks by a
 * link (tx_eval_link_blocks, from the candidates' searches) are moves too,
 * among the blocks, when the candidates (the holes nearest the shortest
 * paths) leave them out. Without them the lookahead cannot see such a block
 * coming: on pp 48 x 48 a peg of greedy's whose link crossed the last steps
 * of mcts's connection took it from 4 pegs to 17, and the lookahead had
 * chosen the move before it as the best (README, the fourth round). */
static int inner_moves(const struct lookahead *la, const struct tx_fastboard *b, int16_t *moves)
{
    uint8_t mine[TX_HOLES_MAX] = {0}, his[TX_HOLES_MAX] = {0}, block[TX_HOLES_MAX] = {0};
    int16_t all[TX_HOLES_MAX];
    int n = tx_eval_candidates_paths(b, la->width, all, mine, his, la->link_blocks ? block : NULL),
        count = 0;
    if (la->link_blocks) {
        for (int i = 0; i < n; i++)
            block[all[i]] |= 2; /* already a move */
        for (int h = 0; h < b->geo->holes; h++)
            if (block[h] & 1) {
                his[h] = 1;
                if (block[h] == 1)
                    all[n++] = (int16_t)h;
            }
    }
    for (int rank = 3; rank >= 0; rank--)
        for (int i = 0; i < n; i++)
            if (his[all[i]] * 2 + mine[all[i]] == rank)
                moves[count++] = all[i];
    return count;
}

/* Negamax value of the position at ply for the player to move, searching
 * depth more plies, within (alpha, beta). Meaningless once out of time. */
static int negamax(struct lookahead *la, int ply, int depth, int alpha, int beta)
{
    const struct tx_fastboard *b = la->board[ply];
    if (depth == 0 || b->winner >= 0)
        return evaluate(la, b, ply);
    int16_t moves[TX_HOLES_MAX];
    int64_t t = now_ns();
    int n = inner_moves(la, b, moves);
    if (now_ns() - t > la->longest_ns)
        la->longest_ns = now_ns() - t; /* on 100 x 100 more than an evaluation */
    if (n == 0)
        return 0; /* no hole left: a draw */
    int best = -TX_EVAL_WIN - DEPTH_MAX - 1;
    for (int i = 0; i < n && !time_up(la); i++) {
        tx_fastboard_copy(la->board[ply + 1], b);
        tx_fastboard_play(la->board[ply + 1], moves[i]);
        int v = -negamax(la, ply + 1, depth - 1, -beta, -alpha);
        if (v > best)
            best = v;
        if (v > alpha)
            alpha = v;
        if (alpha >= beta)
            break;
    }
    return best;
}

int tx_lookahead_root_width(const struct tx_geometry *geo)
{
    int width = TX_EVAL_SEARCH_HOLES / (4 * geo->holes); /* as many as greedy ranks */
    return width < ROOT_WIDTH_MIN ? ROOT_WIDTH_MIN : width;
}

double tx_lookahead_win_rate(int value)
{
    if (value >= TX_EVAL_WIN - DEPTH_MAX)
        return 1;
    if (value <= -TX_EVAL_WIN + DEPTH_MAX)
        return 0;
    return 1 / (1 + exp(-0.8 * value / 64.0)); /* 64: a peg of distance */
}

int tx_lookahead_move(const struct tx_fastboard *b, int64_t deadline_ns, long max_evaluations,
                      int max_depth, int width, const struct tx_lookahead_features *features,
                      struct tx_lookahead_stats *stats)
{
    struct lookahead la = {.deadline_ns = deadline_ns,
                           .max_evaluations = max_evaluations,
                           .two_distance = features->two_distance,
                           .link_blocks = features->link_blocks,
                           .width = width > 0 ? width : TX_LOOKAHEAD_WIDTH};
    int16_t moves[TX_HOLES_MAX];
    int *value = tx_xmalloc(sizeof(int) * TX_HOLES_MAX);
    int n =
        tx_eval_candidates_ranked(b, width > 0 ? width : tx_lookahead_root_width(b->geo), moves);
    memset(stats, 0, sizeof(*stats));
    stats->moves = n;
    if (n == 0) {
        free(value);
        return -1;
    }
    for (int d = 0; d <= DEPTH_MAX; d++)
        la.board[d] = tx_xmalloc(b->bytes);
    tx_fastboard_copy(la.board[0], b);
    int chosen = moves[0];
    if (max_depth <= 0 || max_depth > DEPTH_MAX)
        max_depth = DEPTH_MAX;
    for (int depth = 1; depth <= max_depth && !time_up(&la); depth++) {
        int alpha = -TX_EVAL_WIN - DEPTH_MAX - 1, done = 0;
        for (; done < n && !time_up(&la); done++) {
            tx_fastboard_copy(la.board[1], b);
            tx_fastboard_play(la.board[1], moves[done]);
            /* depth 1 scores every move (greedy's ranking, the order of
             * the next depth); deeper, only what beats the best so far */
            int lower = depth == 1 ? -TX_EVAL_WIN - DEPTH_MAX - 1 : alpha;
            int v = -negamax(&la, 1, depth - 1, -TX_EVAL_WIN - DEPTH_MAX - 1, -lower);
            if (la.out_of_time)
                break;
            value[done] = v;
            if (v > alpha)
                alpha = v;
        }
        if (done == 0)
            break;
        /* The finished moves by value, best first (insertion sort, stable:
         * a move refuted at this depth keeps its place among the refuted). */
        for (int i = 1; i < done; i++) {
            int v = value[i], j = i;
            int16_t mv = moves[i];
            for (; j > 0 && value[j - 1] < v; j--) {
                value[j] = value[j - 1];
                moves[j] = moves[j - 1];
            }
            value[j] = v;
            moves[j] = mv;
        }
        chosen = moves[0];
        stats->depth = depth;
        stats->searched = done;
        stats->value = value[0];
        if (done < n || value[0] >= TX_EVAL_WIN - DEPTH_MAX || value[0] <= -TX_EVAL_WIN + DEPTH_MAX)
            break; /* out of time, or the result is known */
    }
    stats->evaluations = la.evaluations;
    for (int d = 0; d <= DEPTH_MAX; d++)
        free(la.board[d]);
    free(value);
    return chosen;
}
