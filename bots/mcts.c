/* mcts.c - Monte Carlo tree search with RAVE, shortest-path priors and tree reuse.
 *
 * See mcts.h for the algorithm. The tree is an array of nodes; a node's
 * children are contiguous, created all at once when it is expanded, so a
 * node needs only the index of its first child. Positions are not stored in
 * the tree: each iteration copies the root board (a few KiB) and replays
 * the moves on the way down. Win counts are from the side of the player who
 * made the node's move; a draw counts half.
 */
#include "mcts.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "greedy-eval.h"
#include "mcts-lookahead.h"

#define DEFAULT_NODES ((size_t)3 << 20) /* 28 bytes each: 84 MiB, touched as used */
#define EXPAND_AT                                                                                  \
    8                           /* real visits before a leaf gets children: an expansion           \
                                   costs four shortest-path searches, so not too early */
#define PRIOR_VISITS 10.0f      /* weight of the expansion priors, in visits */
#define ROOT_PRIOR_VISITS 30.0f /* weight of the evaluation priors at the root */
#define RAVE_EQUIV 1000.0f      /* visits at which RAVE and real statistics weigh the same */
#define EXPLORE 0.1f            /* UCT exploration constant */
#define SAVE_PRIOR 0.3f         /* prior bonus of the answer to an intrusion */
#define EVAL_SIZE_MAX 16        /* larger boards: candidates, cut playouts, timed root ranking */
#define CANDIDATES 40           /* children of a node on a big board (candidates) */
#define CUT_MOVES 30            /* playout moves on a big board before the evaluation (cutoff) */
#define THIN_VISITS 8           /* root visits a child below which the search is thin (fallback) */
#define CUT_SLOPE 0.8f          /* logistic slope of the cut playout's value, per peg of distance */
/* Plies of the lookahead (lookahead), and one more in the time left with
 * third_ply (see lookahead below). */
#define LOOKAHEAD_DEPTH 2
#define ONE_SIDED_DEPTH 6  /* the lookahead's plies at most once one player is cut off */
#define ONE_SIDED_WIDTH 12 /* and the moves of each of its nodes then (one_sided) */

struct node {
    int32_t child;                /* index of the first child, -1 while a leaf */
    int16_t nchild;               /* children, valid once expanded */
    int16_t move;                 /* hole played to reach the node; -1 for a fresh root */
    uint32_t n;                   /* real visits */
    float visits, wins;           /* including the prior's virtual visits */
    float rave_visits, rave_wins; /* playouts in which the mover played this hole at any time */
};

struct tx_mcts {
    const struct tx_geometry *geo;
    struct tx_rng rng;
    struct tx_playout_policy policy;
    struct tx_mcts_features features;
    struct node *pool;
    size_t cap, used;
    int32_t root;                    /* -1 when there is no tree */
    struct tx_fastboard *root_board; /* the position at the root */
    struct tx_fastboard *board;      /* an iteration's position (a copy of the root's) */
    struct tx_fastboard *after;      /* reuse_or_reset's */
    struct tx_fastboard *start;      /* tx_mcts_search's position, with the second-line rule */
    struct tx_fastboard *ghost;      /* the position without a lone edge peg (edge_peg) */
    int last_move;                   /* the move chosen at the root last time, or -1 */
    bool big;                        /* a board larger than EVAL_SIZE_MAX on a side */
    bool huge;                       /* larger than TX_LOOKAHEAD_SIZE_MIN on a side */
    int evaluated_best;              /* the root's best move by the greedy ranking, or -1 */
};

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

struct tx_mcts *tx_mcts_new(const struct tx_geometry *geo, uint64_t seed, size_t max_nodes)
{
    struct tx_mcts *m = calloc(1, sizeof(*m));
    if (!m)
        return NULL;
    m->cap = max_nodes ? max_nodes : DEFAULT_NODES;
    m->pool = malloc(m->cap * sizeof(struct node));
    if (!m->pool) {
        free(m);
        return NULL;
    }
    m->geo = geo;
    m->big = geo->width > EVAL_SIZE_MAX || geo->height > EVAL_SIZE_MAX;
    m->huge = geo->width > TX_LOOKAHEAD_SIZE_MIN || geo->height > TX_LOOKAHEAD_SIZE_MIN;
    m->root_board = tx_fastboard_new(geo, TX_RULES_PP);
    m->board = tx_fastboard_new(geo, TX_RULES_PP);
    m->after = tx_fastboard_new(geo, TX_RULES_PP);
    m->start = tx_fastboard_new(geo, TX_RULES_PP);
    m->ghost = tx_fastboard_new(geo, TX_RULES_PP);
    tx_rng_seed(&m->rng, seed);
    tx_playout_policy_default(&m->policy);
    struct tx_mcts_features features;
    tx_mcts_features_default(&features);
    tx_mcts_set_features(m, &features);
    m->root = -1;
    m->last_move = -1;
    return m;
}

void tx_mcts_features_default(struct tx_mcts_features *f)
{
    f->second_line = true;
    f->save_bridge = true;
    f->save_edge = true;
    f->candidates = true;
    f->cutoff = true;
    f->fallback = true;
    f->lookahead = true;
    f->two_distance = true;
    f->link_blocks = true;
    f->one_sided = true;
    f->third_ply = true;
    f->decline_swap = true;
    f->defend = true;
    f->edge_peg = true;
}

void tx_mcts_set_features(struct tx_mcts *m, const struct tx_mcts_features *f)
{
    m->features = *f;
    m->policy.save_bridge = f->save_bridge;
    m->policy.save_edge = f->save_edge;
    m->policy.max_moves = m->big && f->cutoff ? CUT_MOVES : 0;
    m->root = -1; /* a tree grown under other rules is not reused */
}

bool tx_mcts_declines_swap(const struct tx_mcts *m)
{
    return m->features.decline_swap && m->big && m->geo->width == m->geo->height;
}

void tx_mcts_free(struct tx_mcts *m)
{
    if (!m)
        return;
    free(m->pool);
    free(m->root_board);
    free(m->board);
    free(m->after);
    free(m->start);
    free(m->ghost);
    free(m);
}

static int32_t new_node(struct tx_mcts *m, int move, float prior)
{
    struct node *nd = &m->pool[m->used];
    nd->child = -1;
    nd->nchild = 0;
    nd->move = (int16_t)move;
    nd->n = 0;
    nd->visits = PRIOR_VISITS;
    nd->wins = prior * PRIOR_VISITS;
    nd->rave_visits = 0;
    nd->rave_wins = 0;
    return (int32_t)m->used++;
}

/* The prior of hole for the player to move: a win rate guess from the
 * shortest connections of both players (a hole on one's own advances, one
 * on the opponent's blocks) and from making a link. */
static float prior_of(const struct tx_fastboard *b, int hole, const uint8_t *mine,
                      const uint8_t *his, int answer)
{
    const struct tx_geometry *geo = b->geo;
    int p = b->to_move;
    float prior = 0.3f;
    if (mine[hole])
        prior += 0.3f; /* on a shortest connection of the mover: advances */
    if (his[hole])
        prior += 0.25f; /* on one of the opponent's: blocks */
    if (hole == answer)
        prior += SAVE_PRIOR; /* keeps two pegs joinable (tx_playout_save_bridge) */
    for (int k = 0; k < 8; k++) {
        int n = geo->neighbour[hole][k];
        if (n >= 0 && tx_fastboard_cell(b, n) == p + 1 &&
            !tx_fastboard_link_blocked(b, p, geo->link_of[hole][k])) {
            prior += 0.1f; /* makes a link */
            break;
        }
    }
    return prior;
}

/* The candidates enhancement (--no-candidates): on a board larger than
 * EVAL_SIZE_MAX a node's children are only the CANDIDATES holes nearest
 * both players' shortest paths, then next to a peg (tx_eval_candidates, the
 * holes greedy ranks there) instead of every hole: 10,000 children a node
 * on 100 x 100 left the tree one level deep and every selection a scan of
 * them all. On smaller boards every hole the player to move may use.
 * Writes the holes into moves (room for TX_HOLES_MAX) and returns how many,
 * and marks the holes on the shortest paths of the player to move in mine
 * and of the opponent in his (tx_eval_paths; from the candidates' own
 * searches, half of an expansion's cost on a big board). */
static int child_moves(const struct tx_mcts *m, const struct tx_fastboard *b, int16_t *moves,
                       uint8_t *mine, uint8_t *his)
{
    int max = m->big && m->features.candidates ? CANDIDATES : TX_HOLES_MAX;
    return tx_eval_candidates_paths(b, max, moves, mine, his, NULL);
}

/* Gives node children (child_moves), unless the pool is full (the node
 * then stays a leaf). */
static void expand(struct tx_mcts *m, int32_t node, const struct tx_fastboard *b, int his_last)
{
    uint8_t mine[TX_HOLES_MAX] = {0}, his[TX_HOLES_MAX] = {0};
    int16_t moves[TX_HOLES_MAX];
    int count = child_moves(m, b, moves, mine, his);
    if (m->used + (size_t)count > m->cap)
        return;
    int answer = -1;
    if (m->features.save_bridge && his_last >= 0)
        answer = tx_playout_save_bridge(b, b->to_move, his_last, m->features.save_edge);
    bool listed = answer < 0;
    for (int i = 0; i < count && !listed; i++)
        listed = moves[i] == answer;
    if (!listed && m->used + (size_t)count + 1 <= m->cap)
        moves[count++] = (int16_t)answer; /* a candidate however far from the paths */
    int32_t first = (int32_t)m->used;
    for (int i = 0; i < count; i++)
        new_node(m, moves[i], prior_of(b, moves[i], mine, his, answer));
    m->pool[node].child = first;
    m->pool[node].nchild = (int16_t)count;
}

/* The ranking of the root's children on a big board (candidates): each
 * scored as twixt-greedy scores a move, by the evaluation of the position
 * after it (tx_eval_position: four shortest-path searches), the most
 * promising first (by their expansion priors), until half the time left is
 * spent (all 40 on 48 x 48; on 100 x 100, where each costs about 3 ms,
 * about 30 at 180 ms of a CPU).
 * A fixed count timed once ranked as few as 3 on a busy machine, and the
 * fallback then played poor moves. Writes the ranked holes, best first,
 * into ranked and returns how many. */
static int big_root_ranking(struct tx_mcts *m, int64_t deadline_ns, int16_t *ranked)
{
    const struct node *root = &m->pool[m->root];
    int order[TX_HOLES_MAX], score[TX_HOLES_MAX], n = 0, me = m->root_board->to_move;
    float prior[TX_HOLES_MAX];
    for (int i = 0; i < root->nchild; i++) { /* by prior, best first (insertion sort) */
        const struct node *c = &m->pool[root->child + i];
        float p = c->wins / c->visits;
        int j = n++;
        for (; j > 0 && prior[j - 1] < p; j--) {
            prior[j] = prior[j - 1];
            order[j] = order[j - 1];
        }
        prior[j] = p;
        order[j] = i;
    }
    int64_t start = now_ns(), until = start + (deadline_ns - start) / 2;
    int done = 0;
    for (; done < n && now_ns() < until; done++) {
        int move = m->pool[root->child + order[done]].move;
        tx_fastboard_copy(m->board, m->root_board);
        tx_fastboard_play(m->board, move);
        int value = tx_eval_position(m->board, me), j = done;
        for (; j > 0 && score[j - 1] < value; j--) { /* insertion: best first */
            score[j] = score[j - 1];
            ranked[j] = ranked[j - 1];
        }
        score[j] = value;
        ranked[j] = (int16_t)move;
    }
    return done;
}

/* Adds the greedy evaluation's ranking to the root's children as priors:
 * every hole on boards up to EVAL_SIZE_MAX, on larger ones (with the
 * candidates enhancement) as many candidates as the time allows
 * (big_root_ranking); the others get no root prior. */
static void root_priors(struct tx_mcts *m, int64_t deadline_ns)
{
    int16_t ranked[TX_HOLES_MAX], rank_of[TX_HOLES_MAX];
    int n;
    if (!m->big)
        n = tx_eval_rank_moves(m->root_board, &m->rng, ranked, NULL);
    else if (m->features.candidates)
        n = big_root_ranking(m, deadline_ns, ranked);
    else
        return;
    m->evaluated_best = n > 0 ? ranked[0] : -1;
    memset(rank_of, 0xff, sizeof(rank_of[0]) * (size_t)m->geo->holes);
    for (int i = 0; i < n; i++)
        rank_of[ranked[i]] = (int16_t)i;
    struct node *root = &m->pool[m->root];
    for (int i = 0; i < root->nchild; i++) {
        struct node *c = &m->pool[root->child + i];
        int r = rank_of[c->move];
        if (r < 0)
            continue;
        float value = r < 5 ? 0.75f : r < 15 ? 0.62f : r < 40 ? 0.5f : 0.35f;
        c->visits += ROOT_PRIOR_VISITS;
        c->wins += value * ROOT_PRIOR_VISITS;
    }
}

static int32_t select_child(const struct tx_mcts *m, int32_t node)
{
    const struct node *nd = &m->pool[node];
    float logn = logf(nd->visits + 1.0f), best_value = -1e30f;
    int32_t best = nd->child;
    for (int i = 0; i < nd->nchild; i++) {
        const struct node *c = &m->pool[nd->child + i];
        float value = c->wins / c->visits;
        if (c->rave_visits > 0) {
            float beta = c->rave_visits /
                         (c->rave_visits + c->visits + c->rave_visits * c->visits / RAVE_EQUIV);
            value = (1 - beta) * value + beta * (c->rave_wins / c->rave_visits);
        }
        value += EXPLORE * sqrtf(logn / c->visits);
        if (value > best_value) {
            best_value = value;
            best = nd->child + i;
        }
    }
    return best;
}

/* Player 0's share of a result: 1 when it won, 0 when player 1 did, 0.5
 * for a draw, and in between for a cut playout (playout_value). */
static float score(float value0, int player)
{
    return player == 0 ? value0 : 1.0f - value0;
}

/* The cutoff enhancement (--no-cutoff): on a board larger than
 * EVAL_SIZE_MAX a playout stops after CUT_MOVES moves and the position is
 * scored by the shortest-connection distances of both players
 * (greedy-eval.h), a logistic of their difference with half a peg for the
 * player to move. Filling a 100 x 100 board took 10 ms a playout, mostly
 * moves far from the fight; two distance searches take a fraction of that
 * and say more. Returns player 0's share of the result. */
static float playout_value(struct tx_mcts *m, struct tx_fastboard *b, int last[2], uint8_t *amaf)
{
    int winner = tx_playout_run(b, &m->policy, &m->rng, last, amaf);
    if (winner != TX_PLAYOUT_CUT)
        return winner < 0 ? 0.5f : winner == 0 ? 1.0f : 0.0f;
    int d0 = tx_eval_distance(b, 0, NULL), d1 = tx_eval_distance(b, 1, NULL);
    if (d0 >= TX_EVAL_FAR || d1 >= TX_EVAL_FAR)
        return d0 == d1 ? 0.5f : d0 < d1 ? 1.0f : 0.0f;
    float lead = (float)(d1 - d0) + (b->to_move == 0 ? 0.5f : -0.5f);
    return 1.0f / (1.0f + expf(-CUT_SLOPE * lead));
}

/* One iteration: descend, expand, play out, back up. */
static void iterate(struct tx_mcts *m, const int root_last[2])
{
    struct tx_fastboard *b = m->board;
    int32_t path[TX_HOLES_MAX + 1];
    uint8_t amaf[TX_HOLES_MAX];
    int last[2] = {root_last[0], root_last[1]};
    int depth = 0;
    float value0; /* player 0's share of the result */
    int32_t node = m->root;

    tx_fastboard_copy(b, m->root_board);
    memset(amaf, 0, (size_t)m->geo->holes);
    path[depth++] = node;
    for (;;) {
        if (b->winner >= 0) {
            value0 = b->winner == 0 ? 1.0f : 0.0f;
            goto backup;
        }
        if (m->pool[node].child < 0) {
            if (m->pool[node].n < EXPAND_AT)
                break;
            expand(m, node, b, last[!b->to_move]);
            if (m->pool[node].child < 0)
                break; /* the pool is full: play out from here */
        }
        if (m->pool[node].nchild == 0) {
            value0 = 0.5f; /* the player to move has no hole: a draw */
            goto backup;
        }
        node = select_child(m, node);
        int p = b->to_move, move = m->pool[node].move;
        tx_fastboard_play(b, move);
        last[p] = move;
        if (!amaf[move])
            amaf[move] = (uint8_t)(p + 1);
        path[depth++] = node;
    }
    value0 = playout_value(m, b, last, amaf);
backup:
    for (int i = 0; i < depth; i++) {
        struct node *nd = &m->pool[path[i]];
        int to_move = (m->root_board->to_move + i) & 1; /* at this node */
        nd->n++;
        nd->visits += 1;
        nd->wins += score(value0, !to_move);
        float result = score(value0, to_move);
        for (int k = 0; k < (nd->child < 0 ? 0 : nd->nchild); k++) {
            struct node *c = &m->pool[nd->child + k];
            if (amaf[c->move] == to_move + 1) {
                c->rave_visits += 1;
                c->rave_wins += result;
            }
        }
    }
}

/* True when a and c hold the same pegs and links with the same player to
 * move. Their union-find tables may differ (a board rebuilt from the game
 * joins its pegs in another order than one played move by move), so the
 * whole boards are not compared: that kept the tree only on a few turns of
 * a hundred (the "reused" figure of the bot's stderr). */
static bool same_position(const struct tx_fastboard *a, const struct tx_fastboard *c)
{
    return a->to_move == c->to_move && a->winner == c->winner &&
           memcmp(a->mem, c->mem, a->off_uf) == 0 &&
           memcmp(tx_fastboard_cells(a), tx_fastboard_cells(c), (size_t)a->geo->holes) == 0;
}

/* Keeps the subtree of the new position when it is the old root after our
 * move and one opponent move; otherwise drops the tree. */
static void reuse_or_reset(struct tx_mcts *m, const struct tx_fastboard *b)
{
    if (m->root < 0 || m->last_move < 0 || m->used > m->cap / 2)
        goto fresh;
    struct tx_fastboard *after = m->after;
    tx_fastboard_copy(after, m->root_board);
    const struct node *root = &m->pool[m->root];
    int32_t mine = -1, his = -1;
    for (int i = 0; i < root->nchild; i++)
        if (m->pool[root->child + i].move == m->last_move)
            mine = root->child + i;
    if (mine < 0 || m->pool[mine].child < 0)
        goto fresh;
    tx_fastboard_play(after, m->last_move);
    int diff = -1, ndiff = 0;
    for (int h = 0; h < m->geo->holes; h++)
        if (tx_fastboard_cell(b, h) != tx_fastboard_cell(after, h)) {
            diff = h;
            ndiff++;
        }
    if (ndiff != 1 || tx_fastboard_cell(after, diff) != TX_EMPTY)
        goto fresh;
    for (int i = 0; i < m->pool[mine].nchild; i++)
        if (m->pool[m->pool[mine].child + i].move == diff)
            his = m->pool[mine].child + i;
    if (his < 0)
        goto fresh;
    tx_fastboard_play(after, diff);
    if (!same_position(after, b))
        goto fresh;
    m->root = his;
    tx_fastboard_copy(m->root_board, b);
    return;
fresh:
    m->used = 0;
    m->root = new_node(m, -1, 0.5f);
    tx_fastboard_copy(m->root_board, b);
}

/* A sealed game (second-line rule) that the player to move has won: a
 * hole of a border line that links a peg of the winning chain on the next
 * line to that border for real (a search would see every move win and
 * dawdle). early is the board with the rule, real the one without. */
static int finish_sealed(const struct tx_fastboard *early, const struct tx_fastboard *real)
{
    const struct tx_geometry *geo = real->geo;
    int p = real->to_move;
    for (int s = 0; s < geo->holes; s++) {
        if (tx_fastboard_cell(real, s) != p + 1)
            continue;
        int side = tx_fastboard_sealed_side(early, p, s);
        if (side < 0 || tx_fastboard_sealed_side(real, p, s) >= 0 ||
            !tx_fastboard_joined_to(early, p, s, 0) || !tx_fastboard_joined_to(early, p, s, 1) ||
            tx_fastboard_joined_to(real, p, s, side))
            continue;
        for (int k = 0; k < 8; k++) {
            int n = geo->neighbour[s][k];
            if (n >= 0 && tx_fastboard_sealed_side(real, p, n) == side &&
                tx_fastboard_can_play(real, p, n) &&
                !tx_fastboard_link_blocked(real, p, geo->link_of[s][k]))
                return n; /* (under classic an own link may block a step) */
        }
    }
    return -1;
}

/* The fallback enhancement (--no-fallback): on a board larger than
 * EVAL_SIZE_MAX, when the root's children got fewer than THIN_VISITS
 * visits each on average (48 x 48 and larger on a busy machine: 100-200
 * playouts a turn for 40 children), the search says less than the
 * evaluation, and the bot plays the greedy ranking's best move instead of
 * the most visited child. Returns the child to play. */
static const struct node *thin_fallback(const struct tx_mcts *m, const struct node *best)
{
    const struct node *root = &m->pool[m->root];
    if (!m->big || !m->features.fallback || m->evaluated_best < 0 ||
        root->n >= (uint32_t)(THIN_VISITS * root->nchild))
        return best;
    for (int i = 0; i < root->nchild; i++)
        if (m->pool[root->child + i].move == m->evaluated_best)
            return &m->pool[root->child + i];
    return best;
}

/* The lookahead enhancement (--no-lookahead): on a board larger than
 * TX_LOOKAHEAD_SIZE_MIN on a side the move is the lookahead's
 * (mcts-lookahead.h), not the tree's, searched LOOKAHEAD_DEPTH plies deep:
 * the move and the opponent's best answer among its candidates, which on
 * 48 x 48 finished within the 180 ms of four turns in five. Its evaluations
 * count as the search's iterations.
 *
 * The third ply enhancement (--no-third-ply): the iterative deepening goes
 * on to a third ply in the time the two leave (on 32 x 32 they end after
 * 70-100 ms of 180), the root's moves best first, so that the moves it
 * reaches (10 or more in most turns there) are chosen by what the mover can
 * do after the opponent's best answer. In the third round (48 x 48, no
 * two-distance yet) it scored worse, 89% against 95%; with the two-distance
 * and the link blocks it did better (README, the eighth round).
 *
 * The one-sided search enhancement (--no-one-sided): once one player
 * can no longer connect (tx_eval_distance is TX_EVAL_FAR: pegs stay, so it
 * never will), the game is one-sided, the other connecting against a pure
 * blocker, at best a win for it, at worst a draw. There the two plies of
 * the usual search could not see a connection through two blocks, and
 * mcts drew won games on the big classic boards; the search then goes up
 * to ONE_SIDED_DEPTH plies (iterative deepening within the same time) over
 * the ONE_SIDED_WIDTH most promising moves of each node. Measured in README
 * (the fifth round). */
static int lookahead(struct tx_mcts *m, const struct tx_fastboard *b, int64_t deadline_ns,
                     long max_evaluations, struct tx_mcts_stats *stats)
{
    struct tx_lookahead_stats la;
    struct tx_lookahead_features f = {.two_distance = m->features.two_distance,
                                      .link_blocks = m->features.link_blocks};
    bool one_sided = false;
    if (m->features.one_sided) {
        bool mine = tx_eval_distance(b, b->to_move, NULL) >= TX_EVAL_FAR,
             his = tx_eval_distance(b, !b->to_move, NULL) >= TX_EVAL_FAR;
        one_sided = mine != his;
    }
    int move = tx_lookahead_move(b, deadline_ns, max_evaluations,
                                 one_sided               ? ONE_SIDED_DEPTH
                                 : m->features.third_ply ? LOOKAHEAD_DEPTH + 1
                                                         : LOOKAHEAD_DEPTH,
                                 one_sided ? ONE_SIDED_WIDTH : 0, &f, &la);
    m->last_move = -1; /* no tree to keep */
    stats->playouts = la.evaluations;
    stats->win_rate = tx_lookahead_win_rate(la.value);
    stats->lookahead_depth = la.depth > 0 ? la.depth : 1;
    stats->lookahead_searched = la.searched;
    stats->lookahead_moves = la.moves;
    return move;
}

/* Each player's pegs on b, and where its last one by hole order is (-1
 * when none): the fast board keeps no count, and defends and lone_edge_peg
 * need one once a turn on big boards only. */
static void count_pegs(const struct tx_fastboard *b, int pegs[2], int at[2])
{
    pegs[0] = pegs[1] = 0;
    at[0] = at[1] = -1;
    for (int h = 0; h < b->geo->holes; h++) {
        int cell = tx_fastboard_cell(b, h);
        if (cell != TX_EMPTY) {
            pegs[cell - TX_PEG0]++;
            at[cell - TX_PEG0] = h;
        }
    }
}

/* The defend enhancement (--no-defend): on a board over 16 x 16 where the
 * tree plays (up to TX_LOOKAHEAD_SIZE_MIN), a turn where greedy's
 * evaluation says the opponent leads by more than the pegs it has more than
 * the mover are worth (64 a peg) is the lookahead's. Those extra pegs do not
 * count: player 2 is a peg short in each of its turns, and its turn against
 * a lone first peg is not a turn behind. The tree attacks better and the
 * lookahead defends better: against greedy on 24 x 24 and 26 x 26, from a
 * first peg outside the swap zone (no one swaps it), the tree lost 8.0% of
 * 320 games as the peg's owner, greedy to move, mostly to ladders it
 * answers peg by peg beside greedy's chain while greedy reaches its edge
 * one step ahead; with the lookahead in the turns it is behind, 3.8% of
 * 640. Counting the extra peg as a lead too, the lookahead also played
 * player 2's first turns against the peg, where the tree had lost 0.9% and
 * it lost 2.2%; not counting it, 0.3% (README, the tenth round). The
 * evaluation costs a few shortest-path searches, nothing beside a turn's
 * search. */
static bool defends(const struct tx_mcts *m, const struct tx_fastboard *b)
{
    if (!m->features.defend || !m->big || m->huge)
        return false;
    int pegs[2], at[2];
    count_pegs(b, pegs, at);
    int extra = pegs[!b->to_move] - pegs[b->to_move];
    return tx_eval_position(b, b->to_move) < -64 * extra;
}

/* One search of real, by the tree or the lookahead (tx_mcts_search). */
static int search(struct tx_mcts *m, const struct tx_fastboard *real, const int last[2],
                  int64_t deadline_ns, long max_playouts, struct tx_mcts_stats *stats)
{
    int64_t search_start = now_ns();
    memset(stats, 0, sizeof(*stats));
    struct tx_fastboard *start = m->start;
    const struct tx_fastboard *b = start;
    tx_fastboard_copy(start, real);
    if (m->features.second_line) {
        tx_fastboard_count_second_lines(start);
        int finish = start->winner == start->to_move ? finish_sealed(start, real) : -1;
        if (finish >= 0) {
            m->last_move = -1;
            stats->win_rate = 1;
            return finish;
        }
        if (start->winner >= 0)
            tx_fastboard_copy(start, real); /* lost for good: play on with the plain rule */
    }
    if ((m->huge && m->features.lookahead) || defends(m, b))
        return lookahead(m, b, deadline_ns, max_playouts, stats);
    reuse_or_reset(m, b);
    stats->reused = m->pool[m->root].n;
    if (m->pool[m->root].child < 0)
        expand(m, m->root, m->root_board, last[!m->root_board->to_move]);
    struct node *root = &m->pool[m->root];
    if (root->child < 0 || root->nchild == 0) {
        m->last_move = -1;
        return -1;
    }
    m->evaluated_best = -1;
    root_priors(m, deadline_ns);
    /* The clock costs ~25 ns, an iteration tens of microseconds on 12 x 12
     * but milliseconds on a big board (an expansion on 100 x 100 costs eight
     * shortest-path searches): there the search stops when its longest
     * iteration so far would no longer fit, so that it does not overrun its
     * deadline. An iteration the machine preempted counts at most a
     * quarter of the search's time (the bot's clock cannot see preemption
     * anyway); measured with --ms 100 on 100 x 100, a sixteenth of the time
     * left after the root's ranking was less than one expansion, and 50 of
     * 159 answers took up to 18 ms more than the budget by the bot's clock. */
    int64_t longest = 0, t = now_ns(), cap = (deadline_ns - search_start) / 4;
    for (;;) {
        if (t + longest >= deadline_ns)
            break;
        if (max_playouts && stats->playouts >= max_playouts)
            break;
        iterate(m, last);
        stats->playouts++;
        int64_t t1 = now_ns();
        if (m->big && t1 - t > longest)
            longest = t1 - t < cap ? t1 - t : cap;
        t = t1;
    }
    root = &m->pool[m->root];
    const struct node *best = &m->pool[root->child];
    for (int i = 1; i < root->nchild; i++) {
        const struct node *c = &m->pool[root->child + i];
        if (c->n > best->n || (c->n == best->n && c->wins / c->visits > best->wins / best->visits))
            best = c;
    }
    const struct node *searched = best;
    best = thin_fallback(m, best);
    stats->fallback = best != searched;
    stats->nodes = (long)m->used;
    stats->win_rate = best->wins / best->visits;
    stats->best_visits = (int)best->n;
    m->last_move = best->move;
    return best->move;
}

/* The edge peg enhancement (--no-edge-peg): on a board over 16 x 16, when
 * the mover has a single peg, nearer an edge than the bots' own opening
 * (tx_eval_near_edge: a forced first peg no one swapped), and the opponent
 * a single peg too, the move is searched as if the mover's peg were not
 * there. Both searches value a position by its shortest connections, and
 * such a peg is on the mover's: they extended it by a knight step (F3 then
 * G5 on 24 x 24, C26 then E25 on 26 x 26) while greedy took the centre.
 * Against greedy on 24 x 24 and 26 x 26 from first pegs outside the swap
 * zone, owning one with greedy to move, the tenth round's play lost 13 of
 * 248 games from the pegs this rule takes (5.2%), this one 3.5 (1.4%)
 * (README, the eleventh round). True when the rule applies; at[p] is then
 * player p's peg. */
static bool lone_edge_peg(const struct tx_mcts *m, const struct tx_fastboard *b, int at[2])
{
    if (!m->features.edge_peg || !m->big)
        return false;
    int pegs[2];
    count_pegs(b, pegs, at);
    return pegs[0] == 1 && pegs[1] == 1 && tx_eval_near_edge(b->geo, at[b->to_move]);
}

int tx_mcts_search(struct tx_mcts *m, const struct tx_fastboard *real, const int last[2],
                   int64_t deadline_ns, long max_playouts, struct tx_mcts_stats *stats)
{
    int at[2]; /* each player's peg, when the rule applies */
    if (!lone_edge_peg(m, real, at))
        return search(m, real, last, deadline_ns, max_playouts, stats);
    int mover = real->to_move, peg = at[mover], ghost_last[2] = {last[0], last[1]};
    struct tx_fastboard *ghost = m->ghost;
    tx_fastboard_empty_like(ghost, real);
    ghost->to_move = !mover;
    tx_fastboard_play(ghost, at[!mover]); /* and the mover is to move */
    ghost_last[mover] = -1;
    int move = search(m, ghost, ghost_last, deadline_ns, max_playouts, stats);
    m->last_move = -1; /* the tree is the ghost's: not the next turn's */
    stats->left_out = true;
    if (move >= 0 && move != peg)
        return move;
    /* The ghost's move is the peg's own hole (1 turn of 248 in the runs):
     * the real position, in what is left of the time. */
    return search(m, real, last, deadline_ns, max_playouts, stats);
}

double tx_mcts_bench_playouts(const struct tx_geometry *geo, double seconds)
{
    struct tx_fastboard *empty = tx_fastboard_new(geo, TX_RULES_PP);
    struct tx_fastboard *b = tx_fastboard_new(geo, TX_RULES_PP);
    struct tx_playout_policy policy;
    struct tx_mcts_features features;
    struct tx_rng rng;
    uint8_t amaf[TX_HOLES_MAX];
    long count = 0;

    tx_playout_policy_default(&policy);
    tx_mcts_features_default(&features);
    if (features.second_line)
        tx_fastboard_count_second_lines(empty);
    tx_rng_seed(&rng, 1);
    int64_t start = now_ns(), end = start + (int64_t)(seconds * 1e9), t;
    do {
        for (int i = 0; i < 64; i++, count++) {
            int last[2] = {-1, -1};
            tx_fastboard_copy(b, empty);
            memset(amaf, 0, (size_t)geo->holes);
            tx_playout_run(b, &policy, &rng, last, amaf);
        }
        t = now_ns();
    } while (t < end);
    free(empty);
    free(b);
    return (double)count * 1e9 / (double)(t - start);
}
