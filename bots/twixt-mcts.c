/* twixt-mcts.c - the strong bundled bot: Monte Carlo tree search (mcts.c).
 *
 * Time is kept with its own monotonic clock from the moment a turn's input
 * starts to arrive: by default 700 ms of the 1000 ms first turn and 180 ms of
 * the 300 ms later turns. The slack is for a busy machine: measured through
 * the arena with two games at once and other jobs running, answers took up
 * to 95 ms longer than the bot's own clock said (the bot is woken late, or
 * preempted before its answer is written). --ms N sets every turn's budget.
 * The openings (first move, swap, pie, cut, choice) and privilege follow
 * the shared rules of openings.h (the tree holds none of them), but on a
 * square board over 16 x 16 it never swaps nor takes the pie
 * (declines_swap). --bench prints playouts per second on one core, the
 * cost of reading a turn and the lookahead's evaluations per second, and
 * exits. On boards over TX_LOOKAHEAD_SIZE_MIN (26 x 26) the move is a
 * lookahead's of two or three plies instead of the tree's
 * (mcts-lookahead.h), and on those over 16 x 16 in the turns where the
 * opponent leads (defend in mcts.c); there a lone peg of its own near an
 * edge is left out of its next move's search (edge_peg in mcts.c).
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "alloc.h"
#include "botio.h"
#include "greedy-eval.h"
#include "hole.h"
#include "mcts-lookahead.h"
#include "mcts.h"
#include "openings.h"

#define FIRST_TURN_MS 700
#define TURN_MS 180
/* Of the budget, what the search leaves for its last iterations, printing
 * the answer and a preemption near the end: with 3 ms, 9 of 17,769 later
 * turns of the third ply's runs (README, the eighth round; two games at
 * once on two cores, the search getting 95-98% of a CPU) took 180.1-181.1
 * ms of 180 by the bot's clock. */
#define RESERVE_MS 5

struct mcts_bot {
    struct tx_mcts *search;
    struct tx_mcts_features features; /* --no-FEATURE switches */
    struct tx_rng rng;
    int ms;           /* --ms, 0 for the defaults */
    bool bench;       /* --bench */
    double cpu_share; /* CPU time / wall time of the last search, 1 at start */
};

/* "N x N" of a board side's constant, so that the help says what the code does. */
#define SIDE_TEXT(n) #n " x " #n
#define SIDE(n) SIDE_TEXT(n)

/* The --no-FEATURE switches: each turns one enhancement off (mcts.h says
 * what each adds, README what each measured), so that its worth can be
 * measured against the same build. */
static const struct feature_switch {
    const char *name; /* --no-NAME */
    size_t field;     /* offsetof the flag in struct tx_mcts_features */
    const char *help; /* --help's line, continued after "\n" */
} feature_switches[] = {
    {"second-line", offsetof(struct tx_mcts_features, second_line),
     "a chain joining its two second lines is not yet a win"},
    {"save-bridge", offsetof(struct tx_mcts_features, save_bridge),
     "playouts do not answer intrusions into two-way links"},
    {"save-edge", offsetof(struct tx_mcts_features, save_edge),
     "nor the last way of a peg to its border line"},
    {"candidates", offsetof(struct tx_mcts_features, candidates),
     "on boards over 16 x 16, every hole is a child in the tree"},
    {"cutoff", offsetof(struct tx_mcts_features, cutoff),
     "on boards over 16 x 16, playouts fill the board"},
    {"fallback", offsetof(struct tx_mcts_features, fallback),
     "on boards over 16 x 16, a thin search's choice is played as it is"},
    {"lookahead", offsetof(struct tx_mcts_features, lookahead),
     "on boards over " SIDE(TX_LOOKAHEAD_SIZE_MIN) ", the tree plays, not an\nalpha-beta search"},
    {"two-distance", offsetof(struct tx_mcts_features, two_distance),
     "the lookahead's value is greedy's, blind to how fragile a\nconnection is"},
    {"link-blocks", offsetof(struct tx_mcts_features, link_blocks),
     "the lookahead's replies are the candidates only, not the\n"
     "blocks by a link that cross a shortest connection"},
    {"one-sided", offsetof(struct tx_mcts_features, one_sided),
     "once a player is cut off, the lookahead searches as before,\n"
     "not up to six plies of twelve moves"},
    {"third-ply", offsetof(struct tx_mcts_features, third_ply),
     "the lookahead stops at two plies, not going on to a third\n"
     "in the time left"},
    {"defend", offsetof(struct tx_mcts_features, defend),
     "on boards over 16 x 16 up to 26 x 26, the tree plays every\n"
     "turn, not the lookahead those where the opponent leads"},
    {"edge-peg", offsetof(struct tx_mcts_features, edge_peg),
     "on boards over 16 x 16, a lone peg of its own near an edge is\n"
     "searched with, not left out of its next move's search"},
    {"decline-swap", offsetof(struct tx_mcts_features, decline_swap),
     "on square boards over 16 x 16, the swap and the pie are\n"
     "decided as greedy decides them, not declined"},
};

static int64_t cpu_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* The default budget of this turn. On a busy machine the time the bot's own
 * clock cannot see (being woken to read the input, being preempted before
 * the answer is written) grows with the load: measured at up to 145 ms with
 * a run queue of 6 on 2 cores. The last search's share of the CPU tells
 * how busy the machine is; below 70% the budget shrinks in proportion, to
 * half at most. */
static int default_budget_ms(const struct mcts_bot *bot, int turn)
{
    int ms = turn == 0 ? FIRST_TURN_MS : TURN_MS;
    double scale = bot->cpu_share / 0.7;
    if (scale > 1)
        scale = 1;
    if (scale < 0.5)
        scale = 0.5;
    return (int)(ms * scale);
}

/* True on the turn that may swap (or take the pie) when the bot declines
 * it whatever the peg (tx_mcts_declines_swap: on a big square board): it
 * searches a move instead. The board is asked first, so that other boards
 * (PP 12 x 12) pay nothing on their turns. */
static bool declines_swap(const struct mcts_bot *bot, const struct tx_game *g)
{
    return tx_mcts_declines_swap(bot->search) && tx_game_check(g, TX_MOVE_SWAP) == TX_LEGAL;
}

static int think(const struct tx_botio_turn *turn, void *data, char *message)
{
    struct mcts_bot *bot = data;
    const struct tx_game *g = turn->game;
    const struct tx_geometry *geo = g->geo;
    const struct tx_input *in = turn->input;
    char name[TX_HOLE_NAME_MAX];

    if (declines_swap(bot, g)) {
        fprintf(stderr, "opening: no swap on this board, keeping the move\n");
    } else {
        int decided = tx_openings_decide(turn, &bot->rng, message);
        if (decided != TX_OPENINGS_PLAY)
            return decided;
    }
    struct tx_fastboard *b = tx_xmalloc(tx_fastboard_size(geo));
    struct tx_mcts_stats st;
    int last[2] = {-1, -1};
    tx_fastboard_from_game(b, g);
    if (in->npegs[0] > 0)
        last[turn->me] = in->pegs[0][in->npegs[0] - 1];
    if (in->last >= 0)
        last[!turn->me] = in->last;
    int ms = bot->ms ? bot->ms : default_budget_ms(bot, turn->turn);
    int64_t deadline = turn->start_ns + (int64_t)(ms - RESERVE_MS) * 1000000;
    int64_t wall0 = tx_botio_now_ns(), cpu0 = cpu_now_ns();
    int move = tx_mcts_search(bot->search, b, last, deadline, 0, &st);
    free(b);
    int64_t wall = tx_botio_now_ns() - wall0, cpu = cpu_now_ns() - cpu0;
    if (wall > 20000000) /* too short a search says little */
        bot->cpu_share = (double)cpu / (double)wall;
    *turn->privilege = turn->privilege_left && tx_openings_privilege_worth(g, turn->me, move);
    double used_ms = (double)(tx_botio_now_ns() - turn->start_ns) / 1e6;
    if (st.left_out)
        fprintf(stderr, "mcts: its lone peg near an edge left out of this search\n");
    if (st.lookahead_depth > 0) {
        snprintf(message, TX_BOTIO_MESSAGE_MAX, "%.0f%% depth %d", st.win_rate * 100,
                 st.lookahead_depth);
        fprintf(stderr,
                "mcts: %s (lookahead) win %.1f%% depth %d (%d of %d moves); %ld evaluations in "
                "%.1f of %d ms, cpu %.0f%%\n",
                move >= 0 ? tx_hole_name(geo, move, name) : "-", st.win_rate * 100,
                st.lookahead_depth, st.lookahead_searched, st.lookahead_moves, st.playouts, used_ms,
                ms, bot->cpu_share * 100);
        return move;
    }
    snprintf(message, TX_BOTIO_MESSAGE_MAX, "%.0f%% %ldpo", st.win_rate * 100, st.playouts);
    fprintf(stderr,
            "mcts: %s%s win %.1f%% visits %d; %ld playouts (%ld reused) in %.1f of %d ms, %ld "
            "nodes, cpu %.0f%%\n",
            move >= 0 ? tx_hole_name(geo, move, name) : "-", st.fallback ? " (evaluation's)" : "",
            st.win_rate * 100, st.best_visits, st.playouts, st.reused, used_ms, ms, st.nodes,
            bot->cpu_share * 100);
    return move;
}

static void usage(void)
{
    printf("usage: twixt-mcts [--rules R] [--board WxH | --size N] [--opening O] [--teams T]\n"
           "                  [--seed N] [--ms N] [--bench] [--no-FEATURE]\n"
           "A TwixT bot: Monte Carlo tree search with RAVE, pattern and evaluation\n"
           "priors, link-seeking playouts and tree reuse between turns. Under classic\n"
           "rules it plays automatic links only. Openings and privilege as\n"
           "twixt-greedy decides them.\n"
           "  --rules R   pp or classic (default: $TWIXT_RULES, else pp)\n"
           "  --board WxH the board, sides %d..%d (default: $TWIXT_WIDTH x $TWIXT_HEIGHT, else "
           "%dx%d)\n"
           "  --size N    an N x N board\n"
           "  --opening O swap, pie, cut or none (default: $TWIXT_OPENING, else swap)\n"
           "  --teams T   1: Double TwixT, four bots in two teams (default: $TWIXT_TEAMS, else 0)\n"
           "  --seed N    random seed (default: from the clock)\n"
           "  --ms N      thinking time per turn in ms (default %d on the first turn, %d\n"
           "              later, less when the machine is busy)\n"
           "  --bench     print playouts and lookahead evaluations per second on one core\n"
           "              and exit\n",
           TX_SIZE_MIN, TX_SIZE_MAX, TX_SIZE_DEFAULT, TX_SIZE_DEFAULT, FIRST_TURN_MS, TURN_MS);
    for (size_t i = 0; i < sizeof feature_switches / sizeof feature_switches[0]; i++) {
        const char *help = feature_switches[i].help, *end;
        printf("  --no-%-12s %.*s\n", feature_switches[i].name, (int)strcspn(help, "\n"), help);
        for (; (end = strchr(help, '\n')); help = end + 1)
            printf("%20s%.*s\n", "", (int)strcspn(end + 1, "\n"), end + 1);
    }
    printf("  --help      this text\n");
}

/* Microseconds to read a turn: parse the input of a nearly full board,
 * rebuild the game and the search board (what each turn costs before the
 * search starts). */
static double bench_turn_us(const struct tx_geometry *geo)
{
    struct tx_game *g = tx_game_new(geo, TX_RULES_PP), *next = tx_game_new(geo, TX_RULES_PP);
    struct tx_input *in = tx_xmalloc(sizeof(*in));
    char *text = tx_xmalloc(TX_INPUT_MAX);
    struct tx_fastboard *b = tx_fastboard_new(geo, TX_RULES_PP);
    struct tx_rng rng;
    int16_t moves[TX_MOVES_MAX];
    double us = 0;

    tx_rng_seed(&rng, 3);
    while (g->status == TX_ONGOING && g->nmoves < geo->holes * 3 / 4) {
        int n = tx_game_legal_moves(g, moves);
        tx_game_copy(next, g);
        tx_game_play(next, moves[tx_rng_below(&rng, (uint32_t)n)]);
        if (next->status == TX_ONGOING || n == 1)
            tx_game_copy(g, next);
    }
    int len = tx_input_write(g, g->to_move, false, text, TX_INPUT_MAX);
    const int rounds = 2000;
    int64_t start = tx_botio_now_ns();
    for (int i = 0; i < rounds; i++) {
        if (tx_input_parse(geo, text, (size_t)len, in, NULL, 0) < 0 ||
            tx_game_from_input(g, geo, TX_RULES_PP, in, g->to_move) < 0)
            break;
        tx_fastboard_from_game(b, g);
    }
    us = (double)(tx_botio_now_ns() - start) / 1e3 / rounds;
    free(g);
    free(next);
    free(b);
    free(in);
    free(text);
    return us;
}

/* The lookahead's evaluations a second (boards over 26 x 26 play by it),
 * on a middle game: pegs at random on an eighth of the holes, then a
 * search of about a second, its candidates' searches included. */
static double bench_lookahead(const struct tx_geometry *geo)
{
    struct tx_fastboard *b = tx_fastboard_new(geo, TX_RULES_PP);
    struct tx_lookahead_features features = {.two_distance = true, .link_blocks = true};
    struct tx_lookahead_stats stats;
    struct tx_rng rng;
    tx_rng_seed(&rng, 3);
    for (int pegs = 0; pegs < geo->holes / 8 && b->winner < 0;) {
        int h = (int)tx_rng_below(&rng, (uint32_t)geo->holes);
        if (tx_fastboard_can_play(b, b->to_move, h)) {
            tx_fastboard_play(b, h);
            pegs++;
        }
    }
    int64_t start = tx_botio_now_ns();
    tx_lookahead_move(b, start + 1000000000, 0, 0, 0, &features, &stats);
    double seconds = (double)(tx_botio_now_ns() - start) / 1e9;
    free(b);
    return (double)stats.evaluations / seconds;
}

static int bench(const struct tx_geometry *geo)
{
    double rate = tx_mcts_bench_playouts(geo, 1.0);
    printf("twixt-mcts: %.0f playouts per second from the empty %dx%d board (one core)\n", rate,
           geo->width, geo->height);
    printf(
        "twixt-mcts: %.1f us to parse a turn input of a 3/4 full board and rebuild the position\n",
        bench_turn_us(geo));
    printf(
        "twixt-mcts: %.0f lookahead evaluations per second on a middle game of the %dx%d board\n",
        bench_lookahead(geo), geo->width, geo->height);
    return 0;
}

static int option(const char *prog, int argc, char **argv, int *i, void *data)
{
    struct mcts_bot *bot = data;
    long long v;
    if (tx_botio_is_option(argv[*i], "--ms")) {
        if (tx_botio_int_option(prog, argc, argv, i, RESERVE_MS + 1, 600000, &v) < 0)
            return -EINVAL;
        bot->ms = (int)v;
        return 1;
    }
    for (size_t f = 0; f < sizeof feature_switches / sizeof feature_switches[0]; f++)
        if (!strncmp(argv[*i], "--no-", 5) && !strcmp(argv[*i] + 5, feature_switches[f].name)) {
            *(bool *)((char *)&bot->features + feature_switches[f].field) = false;
            return 1;
        }
    if (strcmp(argv[*i], "--bench"))
        return 0;
    bot->bench = true;
    return 1;
}

/* --bench, or the search (its tree kept between turns). */
static int ready(const struct tx_geometry *geo, const struct tx_botio_options *opt, void *data)
{
    struct mcts_bot *bot = data;
    if (bot->bench)
        return bench(geo);
    tx_rng_seed(&bot->rng, opt->seed);
    bot->search = tx_mcts_new(geo, opt->seed ^ 0x5eed, 0);
    if (!bot->search) {
        fprintf(stderr, "twixt-mcts: out of memory\n");
        return 1;
    }
    tx_mcts_set_features(bot->search, &bot->features);
    return TX_BOTIO_PLAY;
}

static void done(void *data)
{
    struct mcts_bot *bot = data;
    tx_mcts_free(bot->search);
}

int main(int argc, char **argv)
{
    static const struct tx_botio_bot twixt_mcts = {.prog = "twixt-mcts",
                                                   .usage = usage,
                                                   .option = option,
                                                   .ready = ready,
                                                   .think = think,
                                                   .done = done};
    struct mcts_bot bot = {.cpu_share = 1};
    tx_mcts_features_default(&bot.features);
    return tx_botio_main(&twixt_mcts, &bot, argc, argv);
}
