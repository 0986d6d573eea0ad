/* twixt-blocker.c - an opponent that makes games long: it blocks.
 *
 * It never tries to connect. Each turn it plays the hole after which the
 * opponent's shortest connection (greedy-eval.h) is longest, ties broken
 * by fewer holes on the opponent's shortest paths, and it never joins its
 * own border lines while another move exists. Against most bots the game
 * then goes on until the board is nearly full, so the other bot meets the
 * late positions of a real game, with a handful of legal holes left
 * (validate's "blocked" games). It never swaps, nor takes the pie (its
 * first move is a block like any other); under cut it cuts and chooses by
 * the shared rules (openings.h), and in Double TwixT it calls privilege
 * when after its move either side is one peg from connecting.
 *
 * --cross first builds a bow tie: four of its pegs in a 2 x 3 box whose two
 * links cross each other (the PP rule), so the other bot reads crossing
 * links in its input (validate's "crossing" games). Whether the bow tie is
 * there is read from the position every turn, as everything else.
 *
 * Under classic rules no two links may cross, so the box holds one of its
 * two links at a time: --cross builds the four pegs, and from then on each
 * of its moves also flips the box's link (-A:B +C:D, then -C:D +A:B), so
 * the other bot reads links that disappear and appear in its input (the
 * classic rules' link edits), every turn, at the same place. A flip that
 * is not legal (an opponent's link crosses the other link) or that would
 * join its border lines is left out. Its own links block it under classic;
 * the evaluation knows (greedy-eval.h).
 *
 * On boards larger than 24 x 24 it weighs only the holes nearest the
 * opponent's shortest paths (tx_eval_candidates), 62 on 100 x 100, so a
 * move stays well under 100 ms.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "botio.h"
#include "fastboard.h"
#include "greedy-eval.h"
#include "hole.h"
#include "openings.h"

struct blocker {
    struct tx_rng rng;
    bool cross; /* --cross */
};

/* The bow tie with its corner at (x, y): a = (x, y) and b = (x+1, y+2) make
 * one link, c = (x+1, y) and d = (x, y+2) the other; they cross. */
static void bow_tie(const struct tx_geometry *geo, int x, int y, int tie[4])
{
    tie[0] = tx_geometry_hole(geo, x, y);
    tie[1] = tx_geometry_hole(geo, x + 1, y + 2);
    tie[2] = tx_geometry_hole(geo, x + 1, y);
    tie[3] = tx_geometry_hole(geo, x, y + 2);
}

/* True when a link present crosses link and stops player from making it,
 * not counting the link `except` (the other link of a bow tie, which under
 * classic rules blocks it). */
static bool blocked_but(const struct tx_fastboard *b, int player, int link, int except)
{
    const uint16_t *c = b->geo->crossing[link];
    for (int i = 0; i < TX_CROSSINGS && c[i] != TX_NO_LINK; i++)
        if (c[i] != except && (tx_fastboard_has_link(b, !player, c[i]) ||
                               (b->own_links_block && tx_fastboard_has_link(b, player, c[i]))))
            return true;
    return false;
}

/* The next peg of the bow tie that is nearest to being built (then nearest
 * the centre), -1 when one is built (its four holes in built) or none can
 * be. A bow tie is built under pp when it has its two links, under classic
 * when it has its four pegs and no link but its own two crosses them (so
 * its link can flip). */
static int bow_tie_move(const struct tx_fastboard *b, int me, int built[4])
{
    const struct tx_geometry *geo = b->geo;
    int best = -1, best_pegs = -1, best_far = 0;
    for (int x = 0; x + 1 < geo->width; x++) {
        for (int y = 0; y + 2 < geo->height; y++) {
            int tie[4], pegs = 0, vacant = -1;
            bool possible = true;
            bow_tie(geo, x, y, tie);
            for (int i = 0; i < 4 && possible; i++) {
                if (tie[i] < 0)
                    possible = false;
                else if (tx_fastboard_cell(b, tie[i]) == me + 1)
                    pegs++;
                else if (tx_fastboard_can_play(b, me, tie[i]))
                    vacant = vacant < 0 ? tie[i] : vacant;
                else
                    possible = false;
            }
            if (!possible)
                continue;
            int ab = tx_geometry_link(geo, tie[0], tie[1]),
                cd = tx_geometry_link(geo, tie[2], tie[3]);
            bool blocked = blocked_but(b, me, ab, cd) || blocked_but(b, me, cd, ab);
            if (pegs == 4 && (b->own_links_block ? !blocked
                                                 : tx_fastboard_has_link(b, me, ab) &&
                                                       tx_fastboard_has_link(b, me, cd))) {
                memcpy(built, tie, sizeof(tie));
                return -1;
            }
            if (blocked)
                continue;
            int far = abs(2 * x + 1 - (geo->width - 1)) + abs(2 * y + 2 - (geo->height - 1));
            if (vacant >= 0 && (pegs > best_pegs || (pegs == best_pegs && far < best_far))) {
                best = vacant;
                best_pegs = pegs;
                best_far = far;
            }
        }
    }
    return best;
}

/* An edit of the link between holes a and b. */
static struct tx_edit edit_of(const struct tx_geometry *geo, char kind, int a, int b)
{
    return (struct tx_edit){kind, (int16_t)tx_geometry_x(geo, a), (int16_t)tx_geometry_y(geo, a),
                            (int16_t)tx_geometry_x(geo, b), (int16_t)tx_geometry_y(geo, b)};
}

/* Under classic rules, the edits that flip the built bow tie's link
 * (remove the one there, add the other) along with move, when that is
 * legal and does not win the game. */
static void flip_bow_tie(const struct tx_botio_turn *turn, int move, const int tie[4])
{
    const struct tx_game *g = turn->game;
    const struct tx_geometry *geo = g->geo;
    struct tx_botio_edits *e = turn->edits;
    int ab = tx_geometry_link(geo, tie[0], tie[1]), cd = tx_geometry_link(geo, tie[2], tie[3]);
    e->n = 0;
    if (tx_game_has_link(g, ab)) {
        e->list[e->n++] = edit_of(geo, '-', tie[0], tie[1]);
        e->list[e->n++] = edit_of(geo, '+', tie[2], tie[3]);
    } else {
        if (tx_game_has_link(g, cd))
            e->list[e->n++] = edit_of(geo, '-', tie[2], tie[3]);
        e->list[e->n++] = edit_of(geo, '+', tie[0], tie[1]);
    }
    struct tx_game *after = tx_game_dup(g);
    if (tx_game_play_edits(after, move, e->list, e->n, NULL) != TX_LEGAL ||
        (after->status == TX_WON && after->winner == turn->me))
        e->n = 0;
    tx_game_free(after);
}

static int think(const struct tx_botio_turn *turn, void *data, char *message)
{
    struct blocker *bot = data;
    const struct tx_game *g = turn->game;
    const struct tx_geometry *geo = g->geo;
    int me = turn->me, him = !me;
    char name[TX_HOLE_NAME_MAX];
    if (g->phase != TX_PHASE_PLAY) /* the cut and the choice, by the shared rules */
        return tx_openings_decide(turn, &bot->rng, message);
    struct tx_fastboard *b = tx_xmalloc(tx_fastboard_size(geo));
    struct tx_fastboard *next = tx_xmalloc(tx_fastboard_size(geo));

    tx_fastboard_from_game(b, g);
    int built[4] = {-1, -1, -1, -1};
    if (bot->cross) {
        int move = bow_tie_move(b, me, built);
        if (move >= 0) {
            snprintf(message, TX_BOTIO_MESSAGE_MAX, "bow tie");
            fprintf(stderr, "blocker: bow tie peg %s\n", tx_hole_name(geo, move, name));
            free(b);
            free(next);
            return move;
        }
    }
    /* Best: not winning, then his distance longest, then fewest holes on
     * his shortest paths; ties in random order. */
    int best = -1, best_wins = 1, best_dist = -1, best_flex = 0, ties = 0;
    int16_t *holes = tx_xmalloc(sizeof(int16_t) * (size_t)geo->holes);
    /* Two searches a hole: every hole up to 24 x 24, 62 on 100 x 100. */
    int n = tx_eval_candidates(b, false, TX_EVAL_SEARCH_HOLES / (2 * geo->holes), holes);
    for (int i = 0; i < n; i++) {
        int h = holes[i];
        tx_fastboard_copy(next, b);
        tx_fastboard_play(next, h);
        int wins = next->winner == me, flex;
        int dist = wins ? 0 : tx_eval_distance(next, him, &flex);
        if (wins)
            flex = 0;
        bool better =
            best < 0 || wins < best_wins ||
            (wins == best_wins && (dist > best_dist || (dist == best_dist && flex < best_flex)));
        bool same = !better && wins == best_wins && dist == best_dist && flex == best_flex;
        if (better) {
            best = h;
            best_wins = wins;
            best_dist = dist;
            best_flex = flex;
            ties = 1;
        } else if (same && tx_rng_below(&bot->rng, (uint32_t)++ties) == 0) {
            best = h; /* reservoir sampling: each tie equally likely */
        }
    }
    free(b);
    free(next);
    free(holes);
    if (best < 0)
        return -1; /* cannot happen: the referee ends a game without legal holes */
    if (built[0] >= 0 && tx_ruleset((enum tx_rules)g->rules)->link_edits)
        flip_bow_tie(turn, best, built);
    *turn->privilege = turn->privilege_left && tx_openings_privilege_worth(g, me, best);
    if (turn->edits->n > 0)
        snprintf(message, TX_BOTIO_MESSAGE_MAX, "flip");
    else if (best_dist >= TX_EVAL_FAR)
        snprintf(message, TX_BOTIO_MESSAGE_MAX, "blocked");
    else
        snprintf(message, TX_BOTIO_MESSAGE_MAX, "his dist %d", best_dist);
    fprintf(stderr, "blocker: %s, his distance %d, %d holes on his paths%s%s\n",
            tx_hole_name(geo, best, name), best_dist, best_flex,
            turn->edits->n > 0 ? ", bow tie flipped" : "", *turn->privilege ? ", privilege" : "");
    return best;
}

static void usage(void)
{
    printf("usage: twixt-blocker [--rules R] [--board WxH | --size N] [--opening O] [--teams T]\n"
           "                     [--seed N] [--cross]\n"
           "A TwixT bot that never tries to connect: it blocks its opponent's\n"
           "shortest connection, so games last until the board is nearly full.\n"
           "It never swaps nor takes the pie; under cut it cuts and chooses as\n"
           "twixt-greedy; in Double TwixT it calls privilege when after its move\n"
           "either side is one peg from connecting.\n"
           "On boards larger than 24 x 24 it weighs only the holes nearest the\n"
           "opponent's shortest paths (62 on 100 x 100).\n" TX_BOTIO_COMMON_HELP
           "  --cross     first build four pegs whose two links cross each other (pp);\n"
           "              under classic, where links never cross, build the four pegs\n"
           "              and then flip their link every move (-A:B +C:D, -C:D +A:B)\n"
           "  --help      this text\n");
}

static int option(const char *prog, int argc, char **argv, int *i, void *data)
{
    struct blocker *bot = data;
    (void)prog, (void)argc;
    if (strcmp(argv[*i], "--cross"))
        return 0;
    bot->cross = true;
    return 1;
}

static int ready(const struct tx_geometry *geo, const struct tx_botio_options *opt, void *data)
{
    struct blocker *bot = data;
    (void)geo;
    tx_rng_seed(&bot->rng, opt->seed);
    return TX_BOTIO_PLAY;
}

int main(int argc, char **argv)
{
    static const struct tx_botio_bot twixt_blocker = {
        .prog = "twixt-blocker", .usage = usage, .option = option, .ready = ready, .think = think};
    struct blocker bot = {.cross = false};
    return tx_botio_main(&twixt_blocker, &bot, argc, argv);
}
