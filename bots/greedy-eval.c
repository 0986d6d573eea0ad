/* greedy-eval.c - shortest-connection distance, move ranking, opening rules.
 *
 * The distance is a 0-1 breadth-first search: entering a hole with one's own
 * peg costs 0, a vacant hole one may use costs 1, anything else is a wall.
 * It runs from both border lines, so that every hole gets
 * dist_first + dist_last, which tells how many holes lie on a shortest path.
 * Before each search the links the opponent has already cut off are marked
 * in one bit set (the 9 crossings of each opponent link), and each hole's
 * cost in one byte table, so the search tests a byte and a bit per step.
 * Ranking all moves of a 12 x 12 position costs about 140 x 4 searches, a
 * few milliseconds. twixt-mcts spends most of its time on big boards in
 * these searches (its cut playouts and its expansions), so they are kept
 * lean: a search for the distance alone stops at the far border.
 */
#include "greedy-eval.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"

/* Links player may never make: the crossings of every opponent link (and
 * under classic of its own links too). */
static void mark_blocked(const struct tx_fastboard *b, int player, uint64_t *blocked)
{
    const struct tx_geometry *geo = b->geo;
    int words = (int)b->words;
    memset(blocked, 0, sizeof(uint64_t) * b->words);
    for (int who = 0; who < 2; who++) {
        if (who == player && !b->own_links_block)
            continue;
        const uint64_t *links = tx_fastboard_links(b, who);
        for (int w = 0; w < words; w++) {
            for (uint64_t bits = links[w]; bits; bits &= bits - 1) {
                int link = w * 64 + __builtin_ctzll(bits);
                for (int i = 0; i < TX_CROSSINGS; i++) {
                    int c = geo->crossing[link][i];
                    if (c != TX_NO_LINK)
                        blocked[c >> 6] |= 1ULL << (c & 63);
                }
            }
        }
    }
}

#define WALL 255 /* a cost: a hole player may not enter */

/* Each hole's cost to player: 0 for its own peg, 1 for a vacant hole it
 * may use, else WALL. A search reads one byte a step that way: the
 * searches are most of twixt-mcts's time on big boards (its cut playouts
 * end with two), and looking the cost up from the cells and zones on every
 * step took a fifth of it. */
static void hole_costs(const struct tx_fastboard *b, int player, uint8_t *cost)
{
    const uint8_t *cells = tx_fastboard_cells(b), *zone = b->geo->zone;
    unsigned ok = player == 0 ? TX_ZONE_PLAYER0_OK : TX_ZONE_PLAYER1_OK;
    uint8_t mine = (uint8_t)(player + 1);
    for (int h = 0; h < b->geo->holes; h++)
        cost[h] = cells[h] == mine ? 0 : cells[h] == TX_EMPTY && (zone[h] & ok) ? 1 : WALL;
}

/* Distances from the border line with zone bit `from` to every hole, over
 * the costs of hole_costs. A step is tried on the distance first, the
 * link's bit only when the step would shorten it. With `stop` (zone bits)
 * the search ends when it takes a hole of that zone from the deque: holes
 * come off it nearest first, so that hole's distance is the shortest to
 * the zone (the others stay upper bounds). The distance alone, all a cut
 * playout needs, costs half a search on average that way. */
static void search(const struct tx_fastboard *b, const uint8_t *cost, const uint64_t *blocked,
                   unsigned from, unsigned stop, uint8_t *dist)
{
    const struct tx_geometry *geo = b->geo;
    int16_t deque[2 * TX_HOLES_MAX + 2];
    int head = TX_HOLES_MAX + 1, tail = head; /* 0-cost pushes go to the front */

    memset(dist, TX_EVAL_FAR, (size_t)geo->holes);
    for (int h = 0; h < geo->holes; h++) {
        if (!(geo->zone[h] & from) || cost[h] == WALL)
            continue;
        dist[h] = cost[h];
        if (cost[h] == 0)
            deque[--head] = (int16_t)h;
        else
            deque[tail++] = (int16_t)h;
    }
    while (head < tail) {
        int h = deque[head++];
        if (geo->zone[h] & stop)
            break;
        const int16_t *next = geo->neighbour[h];
        for (int k = 0; k < 8; k++) {
            int n = next[k];
            if (n < 0 || cost[n] == WALL || dist[h] + cost[n] >= dist[n])
                continue;
            int link = geo->link_of[h][k];
            if ((blocked[link >> 6] >> (link & 63)) & 1)
                continue;
            dist[n] = (uint8_t)(dist[h] + cost[n]);
            if (cost[n] == 0)
                deque[--head] = (int16_t)n;
            else
                deque[tail++] = (int16_t)n;
        }
    }
}

/* What every search of player reads, computed once for the searches of
 * one evaluation: the links it may never make (mark_blocked) and each
 * hole's cost (hole_costs). */
struct prepared {
    uint64_t blocked[(TX_LINKS_MAX + 63) / 64];
    uint8_t cost[TX_HOLES_MAX];
};

static void prepare(const struct tx_fastboard *b, int player, struct prepared *p)
{
    mark_blocked(b, player, p->blocked);
    hole_costs(b, player, p->cost);
}

/* The distance of player (TX_EVAL_FAR when it cannot connect), with the
 * distances from its first border line to every hole in first, and when
 * `both` and it can connect, from its last border line in last. */
static int searches(const struct tx_fastboard *b, const struct prepared *p, int player, bool both,
                    uint8_t *first, uint8_t *last)
{
    const struct tx_geometry *geo = b->geo;
    unsigned zone_first = player == 0 ? TX_ZONE_ROW_FIRST : TX_ZONE_COL_FIRST;
    unsigned zone_last = player == 0 ? TX_ZONE_ROW_LAST : TX_ZONE_COL_LAST;

    search(b, p->cost, p->blocked, zone_first, both ? 0 : zone_last, first);
    int best = TX_EVAL_FAR;
    for (int h = 0; h < geo->holes; h++)
        if ((geo->zone[h] & zone_last) && first[h] < best)
            best = first[h];
    if (both && best < TX_EVAL_FAR)
        search(b, p->cost, p->blocked, zone_last, 0, last);
    return best;
}

/* The distance of player, and when on_path is not NULL the holes on its
 * shortest paths (counted in *flex when flex is not NULL). */
static int distance_and_paths(const struct tx_fastboard *b, const struct prepared *p, int player,
                              int *flex, uint8_t *on_path)
{
    const struct tx_geometry *geo = b->geo;
    uint8_t first[TX_HOLES_MAX], last[TX_HOLES_MAX];

    if (flex)
        *flex = 0;
    if (b->winner == player)
        return 0;
    int best = searches(b, p, player, flex || on_path, first, last);
    if ((flex || on_path) && best < TX_EVAL_FAR) {
        for (int h = 0; h < geo->holes; h++) {
            if (first[h] >= TX_EVAL_FAR || last[h] >= TX_EVAL_FAR)
                continue;
            int cost = p->cost[h];
            if (first[h] + last[h] - cost != best)
                continue;
            if (flex)
                (*flex)++;
            if (on_path && cost == 1)
                on_path[h] = 1;
        }
    }
    return best;
}

int tx_eval_distance(const struct tx_fastboard *b, int player, int *flex)
{
    struct prepared p;
    prepare(b, player, &p);
    return distance_and_paths(b, &p, player, flex, NULL);
}

int tx_eval_paths(const struct tx_fastboard *b, int player, uint8_t *on_path)
{
    struct prepared p;
    prepare(b, player, &p);
    return distance_and_paths(b, &p, player, NULL, on_path);
}

/* Hex's two-distance over knight steps: a hole's value is its cost plus
 * the second smallest value of its neighbours (the opponent can always
 * take the best way, never both), a peg linked to one of player's pegs
 * takes that peg's value (they are joined). A 0-1 breadth-first search
 * from the first border line: a hole is pushed when its second neighbour
 * comes off the deque, at that neighbour's value or one more. Returns the
 * second smallest value of the last border line's holes, capped at
 * TX_EVAL_FAR. */
static int two_distance(const struct tx_fastboard *b, const struct prepared *p, int player)
{
    const struct tx_geometry *geo = b->geo;
    if (b->winner == player)
        return 0;
    const uint64_t *blocked = p->blocked;
    const uint8_t *cost = p->cost;
    uint8_t seen[TX_HOLES_MAX], done[TX_HOLES_MAX];
    uint16_t dist[TX_HOLES_MAX];
    int16_t deque[2 * TX_HOLES_MAX * 2 + 2];
    int head = 2 * TX_HOLES_MAX + 1, tail = head;
    unsigned zone_first = player == 0 ? TX_ZONE_ROW_FIRST : TX_ZONE_COL_FIRST;
    unsigned zone_last = player == 0 ? TX_ZONE_ROW_LAST : TX_ZONE_COL_LAST;

    memset(seen, 0, (size_t)geo->holes);
    memset(done, 0, (size_t)geo->holes);
    for (int h = 0; h < geo->holes; h++) {
        dist[h] = UINT16_MAX;
        if (!(geo->zone[h] & zone_first) || cost[h] == WALL)
            continue;
        dist[h] = cost[h];
        if (cost[h] == 0)
            deque[--head] = (int16_t)h;
        else
            deque[tail++] = (int16_t)h;
    }
    int best = UINT16_MAX, second = UINT16_MAX;
    while (head < tail) {
        int h = deque[head++];
        if (done[h])
            continue;
        done[h] = 1;
        int v = dist[h];
        if (geo->zone[h] & zone_last) {
            if (v < best) {
                second = best;
                best = v;
            } else if (v < second) {
                second = v;
            }
            if (second < UINT16_MAX)
                break;
        }
        for (int k = 0; k < 8; k++) {
            int n = geo->neighbour[h][k];
            if (n < 0 || cost[n] == WALL || done[n])
                continue;
            int link = geo->link_of[h][k];
            if ((blocked[link >> 6] >> (link & 63)) & 1)
                continue;
            int d;
            if (cost[h] == 0 && cost[n] == 0 && tx_fastboard_has_link(b, player, link))
                d = v; /* joined pegs */
            else if (++seen[n] == 2)
                d = v + cost[n]; /* its second way in */
            else
                continue;
            if (d >= dist[n])
                continue;
            dist[n] = (uint16_t)d;
            if (d == v)
                deque[--head] = (int16_t)n;
            else
                deque[tail++] = (int16_t)n;
        }
    }
    return second < TX_EVAL_FAR ? second : TX_EVAL_FAR;
}

int tx_eval_two_distance(const struct tx_fastboard *b, int player)
{
    struct prepared p;
    prepare(b, player, &p);
    return two_distance(b, &p, player);
}

/* A block need not stand on the opponent's path: a peg whose link to one
 * of player's pegs crosses a knight step of that path cuts it as well.
 * Given the opponent's distances from its first and last border lines
 * (searches) and its distance best, the steps of its shortest paths are
 * those from h to n with first[h] + last[n] == best (first[h] counts h's
 * cost, last[n] n's); each of the nine links crossing such a step that
 * player may make, with one end player's peg and the other a vacant hole
 * it may use, marks that hole. mine and his are the two players'
 * preparations, which the searches made already. */
static int mark_link_blocks(const struct tx_fastboard *b, int player, const struct prepared *mine,
                            const struct prepared *his, const uint8_t *first, const uint8_t *last,
                            int best, uint8_t *marks)
{
    const struct tx_geometry *geo = b->geo;
    const uint8_t *cells = tx_fastboard_cells(b), *cost = his->cost;
    const uint64_t *his_blocked = his->blocked, *my_blocked = mine->blocked;
    int count = 0;

    if (b->winner >= 0 || best >= TX_EVAL_FAR)
        return 0;
    for (int h = 0; h < geo->holes; h++) {
        if (first[h] > best)
            continue;
        for (int k = 0; k < 8; k++) {
            int n = geo->neighbour[h][k];
            if (n < 0 || cost[n] == WALL || first[h] + last[n] != best)
                continue;
            int step = geo->link_of[h][k];
            if ((his_blocked[step >> 6] >> (step & 63)) & 1)
                continue;
            for (int i = 0; i < TX_CROSSINGS; i++) {
                int c = geo->crossing[step][i];
                if (c == TX_NO_LINK || ((my_blocked[c >> 6] >> (c & 63)) & 1))
                    continue;
                for (int e = 0; e < 2; e++) {
                    int peg = geo->link_end[c][e], hole = geo->link_end[c][!e];
                    if (cells[peg] == player + 1 && !marks[hole] &&
                        tx_fastboard_can_play(b, player, hole)) {
                        marks[hole] = 1;
                        count++;
                    }
                }
            }
        }
    }
    return count;
}

int tx_eval_link_blocks(const struct tx_fastboard *b, int player, uint8_t *marks)
{
    uint8_t first[TX_HOLES_MAX], last[TX_HOLES_MAX];
    if (b->winner >= 0)
        return 0;
    struct prepared mine, his;
    prepare(b, player, &mine);
    prepare(b, !player, &his);
    int best = searches(b, &his, !player, true, first, last);
    return mark_link_blocks(b, player, &mine, &his, first, last, best, marks);
}

/* Pegs of fragility player_cost counts at most: a sixth of the board's
 * side along player's way (its height for player 0), at most 6. The
 * fragility of a connection 16-24 pegs long on 32 x 32 to 48 x 48 went up
 * to 8 pegs in the third round (on 48 x 48 that scored better than 4 or
 * 16), but on pp 32 x 32 and 36 x 36 the lookahead did better without
 * the two-distance at all (a value that a fragile connection sways by half
 * its length plays for fragility, not for the race), and with a sixth of
 * the side as well as without it; at most 6 on the boards from 44 x 44 on
 * did better than 7 and 8 there (README, the sixth and seventh rounds). */
int tx_eval_fragility_cap(const struct tx_geometry *geo, int player)
{
    int cap = (player == 0 ? geo->height : geo->width) / 6;
    return cap < 6 ? cap : 6;
}

/* Lower is better for the player: distance first, flexibility second;
 * with `fragile`, plus 64 a peg of its fragility: how many more pegs its
 * connection needs when the opponent may block its best way at every step
 * (the two-distance beyond the distance, at most tx_eval_fragility_cap; 0
 * when it cannot connect). One preparation serves the three searches. */
static int player_cost(const struct tx_fastboard *b, int player, bool fragile)
{
    struct prepared p;
    int flex;
    prepare(b, player, &p);
    int d = distance_and_paths(b, &p, player, &flex, NULL);
    int cost = d * 64 - (flex > 63 ? 63 : flex);
    if (fragile && d < TX_EVAL_FAR) {
        int more = two_distance(b, &p, player) - d;
        int cap = tx_eval_fragility_cap(b->geo, player);
        cost += 64 * (more < cap ? more : cap);
    }
    return cost;
}

int tx_eval_position(const struct tx_fastboard *b, int player)
{
    if (b->winner >= 0)
        return b->winner == player ? TX_EVAL_WIN : -TX_EVAL_WIN;
    return player_cost(b, !player, false) - player_cost(b, player, false);
}

int tx_eval_position_fragile(const struct tx_fastboard *b, int player)
{
    if (b->winner >= 0)
        return b->winner == player ? TX_EVAL_WIN : -TX_EVAL_WIN;
    return player_cost(b, !player, true) - player_cost(b, player, true);
}

struct scored {
    int score;
    uint32_t tie; /* random, so equal scores come out in a random order */
    int16_t hole;
};

static int by_score_desc(const void *a, const void *b)
{
    const struct scored *x = a, *y = b;
    if (x->score != y->score)
        return x->score < y->score ? 1 : -1;
    return x->tie < y->tie ? -1 : x->tie > y->tie;
}

/* How far each hole is from a shortest connection of player: slack[h] is
 * how many more pegs the best connection through h needs than the
 * shortest one (0: h is on a shortest path), at most SLACK_CAP, which is
 * also the value when no connection passes through h. */
#define SLACK_CAP 8
static int path_slack(const struct tx_fastboard *b, const struct prepared *p, int player,
                      uint8_t *slack, uint8_t *first, uint8_t *last)
{
    const struct tx_geometry *geo = b->geo;

    memset(slack, SLACK_CAP, (size_t)geo->holes);
    int best = searches(b, p, player, true, first, last);
    if (best >= TX_EVAL_FAR)
        return best;
    for (int h = 0; h < geo->holes; h++) {
        if (first[h] >= TX_EVAL_FAR || last[h] >= TX_EVAL_FAR)
            continue;
        int extra = first[h] + last[h] - p->cost[h] - best;
        slack[h] = (uint8_t)(extra < SLACK_CAP ? extra : SLACK_CAP);
    }
    return best;
}

struct keyed {
    int key;
    int16_t hole;
};

static int by_key(const void *a, const void *b)
{
    const struct keyed *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return x->hole - y->hole;
}

static int by_hole(const void *a, const void *b)
{
    return *(const int16_t *)a - *(const int16_t *)b;
}

/* tx_eval_candidates, and with my_path and his_path (not NULL) what
 * tx_eval_paths marks for the mover and its opponent, and with link_blocks
 * what tx_eval_link_blocks marks for the mover, from the same searches when
 * the candidates need them. With `ranked` the candidates come most
 * promising first (tx_eval_candidates_ranked) instead of in hole order. */
static int candidates_and_paths(const struct tx_fastboard *b, bool mine, bool ranked, int max,
                                int16_t *out, uint8_t *my_path, uint8_t *his_path,
                                uint8_t *link_blocks)
{
    const struct tx_geometry *geo = b->geo;
    int me = b->to_move, n = 0;
    for (int h = 0; h < geo->holes; h++)
        if (tx_fastboard_can_play(b, me, h))
            out[n++] = (int16_t)h;
    if (n <= max) {
        if (my_path) {
            tx_eval_paths(b, me, my_path);
            tx_eval_paths(b, !me, his_path);
        }
        if (link_blocks)
            tx_eval_link_blocks(b, me, link_blocks);
        return n;
    }

    uint8_t *my_slack = tx_xmalloc((size_t)geo->holes), *his_slack = tx_xmalloc((size_t)geo->holes);
    uint8_t first[TX_HOLES_MAX], last[TX_HOLES_MAX]; /* path_slack's searches, as it had them */
    struct prepared my_prep, his_prep; /* their preparations, for the link blocks too */
    struct keyed *list = tx_xmalloc(sizeof(*list) * (size_t)n);
    if (mine || link_blocks)
        prepare(b, me, &my_prep);
    if (mine)
        path_slack(b, &my_prep, me, my_slack, first, last);
    else
        memset(my_slack, 0, (size_t)geo->holes);
    prepare(b, !me, &his_prep);
    int his_best = path_slack(b, &his_prep, !me, his_slack, first, last);
    if (link_blocks)
        mark_link_blocks(b, me, &my_prep, &his_prep, first, last, his_best, link_blocks);
    /* A vacant hole with no slack is on a shortest path (tx_eval_paths;
     * a player that has won has none, as path_slack's searches find). */
    for (int h = 0; my_path && h < geo->holes; h++) {
        if (tx_fastboard_cell(b, h) != TX_EMPTY)
            continue;
        if (my_slack[h] == 0 && b->winner != me && tx_fastboard_can_play(b, me, h))
            my_path[h] = 1;
        if (his_slack[h] == 0 && b->winner != !me && tx_fastboard_can_play(b, !me, h))
            his_path[h] = 1;
    }
    for (int i = 0; i < n; i++) {
        int h = out[i], near = 0;
        for (int k = 0; k < 8 && !near; k++)
            near = geo->neighbour[h][k] >= 0 && tx_fastboard_cell(b, geo->neighbour[h][k]);
        int centre = abs(2 * tx_geometry_x(geo, h) - (geo->width - 1)) +
                     abs(2 * tx_geometry_y(geo, h) - (geo->height - 1));
        /* Closest to the shortest paths (a hole that wins at once is on
         * one), then a knight's move from a peg (where links are made and
         * cut), then central. */
        list[i].key = ((my_slack[h] + his_slack[h]) * 2 + !near) * 1024 + centre;
        list[i].hole = (int16_t)h;
    }
    qsort(list, (size_t)n, sizeof(*list), by_key);
    for (int i = 0; i < max; i++)
        out[i] = list[i].hole;
    if (!ranked)
        qsort(out, (size_t)max, sizeof(*out), by_hole); /* hole order, as when all are taken */
    free(my_slack);
    free(his_slack);
    free(list);
    return max;
}

int tx_eval_candidates(const struct tx_fastboard *b, bool mine, int max, int16_t *out)
{
    return candidates_and_paths(b, mine, false, max, out, NULL, NULL, NULL);
}

int tx_eval_candidates_ranked(const struct tx_fastboard *b, int max, int16_t *out)
{
    return candidates_and_paths(b, true, true, max, out, NULL, NULL, NULL);
}

int tx_eval_candidates_paths(const struct tx_fastboard *b, int max, int16_t *out, uint8_t *my_path,
                             uint8_t *his_path, uint8_t *link_blocks)
{
    return candidates_and_paths(b, true, false, max, out, my_path, his_path, link_blocks);
}

int tx_eval_rank_moves(const struct tx_fastboard *b, struct tx_rng *rng, int16_t *out, int *scores)
{
    return tx_eval_rank_candidates(b, rng, INT_MAX, out, scores);
}

int tx_eval_rank_candidates(const struct tx_fastboard *b, struct tx_rng *rng, int max, int16_t *out,
                            int *scores)
{
    struct scored *list = tx_xmalloc(sizeof(struct scored) * (size_t)b->geo->holes);
    struct tx_fastboard *after = tx_xmalloc(b->bytes);
    int me = b->to_move;
    int n = tx_eval_candidates(b, true, max, out);

    for (int i = 0; i < n; i++) {
        tx_fastboard_copy(after, b);
        tx_fastboard_play(after, out[i]);
        list[i].score = tx_eval_position(after, me);
        list[i].tie = (uint32_t)tx_rng_next(rng);
        list[i].hole = out[i];
    }
    qsort(list, (size_t)n, sizeof(list[0]), by_score_desc);
    for (int i = 0; i < n; i++) {
        out[i] = list[i].hole;
        if (scores)
            scores[i] = list[i].score;
    }
    free(list);
    free(after);
    return n;
}

/* Steps from hole to the nearest edge of the board. */
static int edge_distance(const struct tx_geometry *geo, int hole)
{
    int x = tx_geometry_x(geo, hole), y = tx_geometry_y(geo, hole);
    int d = x;
    if (geo->width - 1 - x < d)
        d = geo->width - 1 - x;
    if (y < d)
        d = y;
    if (geo->height - 1 - y < d)
        d = geo->height - 1 - y;
    return d;
}

bool tx_eval_should_swap(const struct tx_geometry *geo, int hole)
{
    int side = geo->width < geo->height ? geo->width : geo->height;
    return edge_distance(geo, hole) >= side / 4;
}

bool tx_eval_near_edge(const struct tx_geometry *geo, int hole)
{
    int side = geo->width < geo->height ? geo->width : geo->height;
    return edge_distance(geo, hole) < side / 4 - 1;
}

int tx_eval_opening(const struct tx_geometry *geo, struct tx_rng *rng)
{
    int16_t *best = tx_xmalloc(sizeof(int16_t) * (size_t)geo->holes);
    int side = geo->width < geo->height ? geo->width : geo->height;
    int n = 0, best_centre = 1 << 20, want = side / 4 - 1;
    if (want < 0)
        want = 0;
    /* The ring just outside the swap zone, and on it the holes nearest the
     * centre (twice the Manhattan distance, to stay in integers). */
    for (int h = 0; h < geo->holes; h++) {
        if (edge_distance(geo, h) != want || !tx_geometry_playable(geo, 0, h) ||
            tx_eval_should_swap(geo, h))
            continue;
        int centre = abs(2 * tx_geometry_x(geo, h) - (geo->width - 1)) +
                     abs(2 * tx_geometry_y(geo, h) - (geo->height - 1));
        if (centre < best_centre) {
            best_centre = centre;
            n = 0;
        }
        if (centre == best_centre)
            best[n++] = (int16_t)h;
    }
    if (n == 0) /* cannot happen on 5..26, but never return a bad hole */
        for (int h = 0; h < geo->holes; h++)
            if (tx_geometry_playable(geo, 0, h))
                best[n++] = (int16_t)h;
    int hole = best[tx_rng_below(rng, (uint32_t)n)];
    free(best);
    return hole;
}
