/* test-bots.c - the bundled bots and starter kits speak the protocol and
 * play legal moves.
 *
 * Each bot is started as a real process (fork/exec, pipes; no shell) and fed
 * turn inputs written by libtwixt (tx_input_write) for scripted positions:
 * the first turn as player 1 and as player 2, after a SWAP, a nearly full
 * board, a board where exactly one legal hole remains, and the same on other
 * board sizes. A position the bot did not see being played is its first
 * turn after a forced opening, so its first line is what RULES.md "Forced
 * openings" says: FIRST for player 1, the opponent's last hole for player 2;
 * a bot must learn its side from that line alone. Its one answer line is parsed (tx_answer_parse)
 * and must be a legal move in that position (tx_game_check) with a message of at most 20
 * characters; on end of input the bot must exit with status 0. Whole games
 * against a random opponent played by the test check every turn (and that
 * twixt-blocker's games are long, and that --cross crosses its links), and
 * twixt-mcts --ms 50 must answer every turn of such a game well within its
 * budget (asserted generously for a loaded machine).
 *
 * The search board the bots use (fastboard.h) is checked against
 * libtwixt's game move by move, and the evaluation (greedy-eval.h) against
 * properties that must hold in any position.
 *
 * Bots are found through TX_BUILD_DIR and TX_SOURCE_DIR (tests/meson.build).
 * The C starter is compiled by the test with plain `cc`.
 */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "answer.h"
#include "fastboard.h"
#include "game.h"
#include "geometry.h"
#include "hole.h"
#include "input.h"
#include "greedy-eval.h"
#include "mcts.h"
#include "playout.h"
#include "test-game.h"

#define ANSWER_TIMEOUT_MS 10000 /* any bot, any turn: far above what they need */
#define MCTS_MS 50              /* the budget given to twixt-mcts in the timing test */
#define MCTS_SLACK_MS 200       /* margin for a loaded machine (sanitizers, parallel tests) */
#define CASE_TIMEOUT_S 240

static char starter_c_exe[256]; /* compiled by the unchecked fixture */

/* ---- running a bot ---- */

struct bot {
    pid_t pid;
    int to_bot;   /* its stdin */
    int from_bot; /* its stdout */
    char buf[TX_ANSWER_LINE_MAX + 2];
    size_t len;
};

static int64_t now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static void bot_start(struct bot *b, char *const argv[])
{
    int in[2], out[2];
    ck_assert_int_eq(pipe2(in, O_CLOEXEC), 0);
    ck_assert_int_eq(pipe2(out, O_CLOEXEC), 0);
    b->len = 0;
    b->pid = fork();
    ck_assert_int_ge(b->pid, 0);
    if (b->pid == 0) {
        dup2(in[0], 0);
        dup2(out[1], 1);
        if (!getenv("TX_TEST_VERBOSE")) {
            int null = open("/dev/null", O_WRONLY);
            dup2(null, 2);
        }
        execvp(argv[0], argv);
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    b->to_bot = in[1];
    b->from_bot = out[0];
}

/* Sends text, then reads one line (without "\n") into line. Returns the
 * answer time in microseconds, from the end of the write to the "\n". */
static int64_t bot_ask(struct bot *b, const char *text, char *line, size_t cap)
{
    size_t len = strlen(text), done = 0;
    while (done < len) {
        ssize_t n = write(b->to_bot, text + done, len - done);
        ck_assert_msg(n > 0, "writing the input failed: %s", strerror(errno));
        done += (size_t)n;
    }
    int64_t start = now_us();
    for (;;) {
        char *nl = memchr(b->buf, '\n', b->len);
        if (nl) {
            size_t n = (size_t)(nl - b->buf);
            ck_assert_uint_lt(n, cap);
            memcpy(line, b->buf, n);
            line[n] = '\0';
            memmove(b->buf, nl + 1, b->len - n - 1);
            b->len -= n + 1;
            return now_us() - start;
        }
        int waited_ms = (int)((now_us() - start) / 1000);
        ck_assert_msg(waited_ms < ANSWER_TIMEOUT_MS, "no answer line in %d ms", ANSWER_TIMEOUT_MS);
        struct pollfd pfd = {.fd = b->from_bot, .events = POLLIN};
        poll(&pfd, 1, ANSWER_TIMEOUT_MS - waited_ms);
        if (!pfd.revents)
            continue;
        ck_assert_msg(b->len < sizeof(b->buf) - 1, "answer line longer than %d bytes",
                      TX_ANSWER_LINE_MAX);
        ssize_t n = read(b->from_bot, b->buf + b->len, sizeof(b->buf) - 1 - b->len);
        ck_assert_msg(n > 0, "the bot closed its output before answering");
        b->len += (size_t)n;
    }
}

/* Closes the bot's input and expects it to exit with status 0. */
static void bot_finish(struct bot *b)
{
    close(b->to_bot);
    int status = 0;
    for (int i = 0; i < 500; i++) { /* up to 5 s */
        pid_t r = waitpid(b->pid, &status, WNOHANG);
        if (r == b->pid)
            break;
        if (i == 499) {
            kill(b->pid, SIGKILL);
            waitpid(b->pid, &status, 0);
            ck_abort_msg("the bot did not exit at end of input");
        }
        usleep(10000);
    }
    close(b->from_bot);
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
                  "the bot ended with status 0x%x at end of input", status);
    ck_assert_msg(b->len == 0, "extra output after the last answer: \"%.*s\"", (int)b->len, b->buf);
}

/* ---- the bots under test ---- */

enum which { RANDOM, GREEDY, MCTS, BLOCKER, CROSSER, STARTER_PY, STARTER_C, NBOTS };
static const char *const bot_names[NBOTS] = {"twixt-random",  "twixt-greedy",  "twixt-mcts",
                                             "twixt-blocker", "twixt-blocker", "starter.py",
                                             "starter.c"}; /* CROSSER: twixt-blocker --cross */

/* argv for bot w on a size x size board; storage in `store`. */
static void bot_argv(enum which w, int size, int mcts_ms, char store[8][256], char *argv[9])
{
    const char *build = getenv("TX_BUILD_DIR"), *source = getenv("TX_SOURCE_DIR");
    ck_assert_msg(build && source, "TX_BUILD_DIR and TX_SOURCE_DIR must be set (meson test)");
    int n = 0;
    switch (w) {
    case RANDOM:
    case GREEDY:
    case MCTS:
    case BLOCKER:
    case CROSSER:
        snprintf(store[n++], 256, "%s/bots/%s", build, bot_names[w]);
        snprintf(store[n++], 256, "--seed");
        snprintf(store[n++], 256, "7");
        if (w == MCTS) {
            snprintf(store[n++], 256, "--ms");
            snprintf(store[n++], 256, "%d", mcts_ms);
        }
        if (w == CROSSER)
            snprintf(store[n++], 256, "--cross");
        break;
    case STARTER_PY:
        snprintf(store[n++], 256, "python3");
        snprintf(store[n++], 256, "%s/bots/starter.py", source);
        break;
    case STARTER_C:
        snprintf(store[n++], 256, "%s", starter_c_exe);
        break;
    default:
        ck_abort();
    }
    snprintf(store[n++], 256, "--size");
    snprintf(store[n++], 256, "%d", size);
    for (int i = 0; i < n; i++)
        argv[i] = store[i];
    argv[n] = NULL;
}

/* Asks a fresh bot w for its move in g and checks it is legal. It is the
 * bot's first input, as after a forced opening (RULES.md "Forced
 * openings": player 1's says FIRST). */
static void check_one_answer(enum which w, const struct tx_game *g, const char *what)
{
    char store[8][256], *argv[9], text[TX_INPUT_MAX], line[TX_ANSWER_LINE_MAX + 1];
    struct tx_answer ans;
    struct bot b;

    ck_assert_int_gt(tx_input_write(g, g->to_move, true, text, sizeof(text)), 0);
    bot_argv(w, g->geo->width, MCTS_MS, store, argv);
    bot_start(&b, argv);
    bot_ask(&b, text, line, sizeof(line));
    ck_assert_msg(tx_answer_parse(g->geo, TX_RULES_PP, line, strlen(line), &ans) == 0,
                  "%s, %s (size %d): \"%s\" is not a move: %s", bot_names[w], what, g->geo->width,
                  line, ans.reason);
    ck_assert_msg(!ans.message_cut, "%s: message longer than 20 characters: \"%s\"", bot_names[w],
                  line);
    enum tx_illegal why = tx_game_check(g, ans.move);
    char reason[96] = "";
    if (why != TX_LEGAL)
        tx_illegal_describe(g, ans.move, why, NULL, NULL, reason, sizeof(reason));
    ck_assert_msg(why == TX_LEGAL, "%s, %s (size %d): illegal answer \"%s\": %s", bot_names[w],
                  what, g->geo->width, line, reason);
    bot_finish(&b);
}

/* ---- scripted positions ---- */

static uint64_t rng_next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* Plays random moves on g (no swap) that do not end the game, until the
 * player to move has at most `left` legal holes. Returns false when the
 * game could not get there without ending (try another seed). */
static bool fill_board(struct tx_game *g, uint64_t seed, int left)
{
    int16_t moves[TX_MOVES_MAX];
    uint64_t s = seed * 0x9e3779b97f4a7c15ULL + 1;
    for (;;) {
        int n = tx_game_legal_moves(g, moves);
        int holes = 0;
        for (int i = 0; i < n; i++)
            if (moves[i] != TX_MOVE_SWAP)
                moves[holes++] = moves[i];
        if (holes <= left)
            return holes > 0;
        int start = (int)(rng_next(&s) % (uint64_t)holes), played = 0;
        static struct tx_game *next;
        for (int i = 0; i < holes && !played; i++) {
            tx_game_copy(test_game(&next, g->geo), g);
            ck_assert_int_eq(tx_game_play(next, moves[(start + i) % holes]), TX_LEGAL);
            if (next->status == TX_ONGOING) {
                tx_game_copy(g, next);
                played = 1;
            }
        }
        if (!played)
            return false;
    }
}

static int hole_at(const struct tx_geometry *geo, const char *name)
{
    int hole = -1;
    ck_assert_int_eq(tx_hole_parse(geo, name, strlen(name), &hole), TX_HOLE_OK);
    return hole;
}

/* Every scripted position of one board size, asked of bot w. */
static void check_positions(enum which w, int size)
{
    struct tx_geometry *geo;
    static struct tx_game *g;
    char centre[8];
    ck_assert_int_eq(tx_geometry_new(size, size, &geo), 0);
    snprintf(centre, sizeof(centre), "%c%d", 'A' + size / 2, size / 2 + 1);

    test_game(&g, geo);
    check_one_answer(w, g, "first turn as player 1");

    tx_game_play(g, hole_at(geo, centre));
    check_one_answer(w, g, "first turn as player 2 after a central peg");

    test_game(&g, geo);
    tx_game_play(g, hole_at(geo, "C2"));
    check_one_answer(w, g, "first turn as player 2 after an edge peg");

    test_game(&g, geo);
    tx_game_play(g, hole_at(geo, centre));
    ck_assert_int_eq(tx_game_play(g, TX_MOVE_SWAP), TX_LEGAL);
    check_one_answer(w, g, "first turn as player 1 after a SWAP");

    bool nearly = false, one = false;
    for (uint64_t seed = 1; seed < 400 && !(nearly && one); seed++) {
        test_game(&g, geo);
        if (!nearly && fill_board(g, seed, 6)) {
            check_one_answer(w, g, "nearly full board");
            nearly = true;
        }
        test_game(&g, geo);
        if (!one && fill_board(g, seed, 1)) {
            check_one_answer(w, g, "one legal hole left");
            one = true;
        }
    }
    ck_assert_msg(nearly && one, "could not build the full-board positions on size %d", size);
    free(geo);
}

/* True when two links of player's cross each other (the PP rule). */
static bool own_links_cross(const struct tx_game *g, int player)
{
    const struct tx_geometry *geo = g->geo;
    for (int l = 0; l < geo->holes * 4; l++) {
        if (!tx_game_has_link(g, l) ||
            tx_game_cell(g, geo->link_end[l][0]) != (player ? TX_PEG1 : TX_PEG0))
            continue;
        for (int i = 0; i < TX_CROSSINGS; i++) {
            int c = geo->crossing[l][i];
            if (c != TX_NO_LINK && tx_game_has_link(g, c) &&
                tx_game_cell(g, geo->link_end[c][0]) == tx_game_cell(g, geo->link_end[l][0]))
                return true;
        }
    }
    return false;
}

/* A whole game of bot w against random moves made by the test; bot_first
 * says who starts. Every answer must be legal. Returns the slowest answer
 * in microseconds; *crossed (when not NULL) says whether two of the bot's
 * own links crossed at the end, *moves how long the game was. */
static int64_t play_game(enum which w, int size, int mcts_ms, bool bot_first, uint64_t seed,
                         bool *crossed, int *nmoves)
{
    char store[8][256], *argv[9], text[TX_INPUT_MAX], line[TX_ANSWER_LINE_MAX + 1];
    struct tx_geometry *geo;
    static struct tx_game *g;
    struct tx_answer ans;
    struct bot b;
    int16_t moves[TX_MOVES_MAX];
    int64_t slowest = 0;
    uint64_t s = seed | 1;

    ck_assert_int_eq(tx_geometry_new(size, size, &geo), 0);
    test_game(&g, geo);
    bot_argv(w, size, mcts_ms, store, argv);
    bot_start(&b, argv);
    int bot_player = bot_first ? 0 : 1;
    while (g->status == TX_ONGOING) {
        if (g->to_move != bot_player) {
            int n = tx_game_legal_moves(g, moves);
            ck_assert_int_gt(n, 0);
            ck_assert_int_eq(tx_game_play(g, moves[rng_next(&s) % (uint64_t)n]), TX_LEGAL);
            continue;
        }
        bool first = g->nmoves <= 1; /* the bot's first turn: move 1 or 2 */
        ck_assert_int_gt(tx_input_write(g, g->to_move, first, text, sizeof(text)), 0);
        int64_t us = bot_ask(&b, text, line, sizeof(line));
        if (us > slowest)
            slowest = us;
        ck_assert_msg(tx_answer_parse(geo, TX_RULES_PP, line, strlen(line), &ans) == 0,
                      "%s at move %d: \"%s\" is not a move: %s", bot_names[w], g->nmoves + 1, line,
                      ans.reason);
        ck_assert_msg(!ans.message_cut, "%s: message over 20 characters", bot_names[w]);
        char reason[96] = "";
        enum tx_illegal why = tx_game_play(g, ans.move);
        if (why != TX_LEGAL)
            tx_illegal_describe(g, ans.move, why, NULL, NULL, reason, sizeof(reason));
        ck_assert_msg(why == TX_LEGAL, "%s at move %d: %s", bot_names[w], g->nmoves + 1, reason);
    }
    bot_finish(&b);
    if (crossed)
        *crossed = own_links_cross(g, bot_player);
    if (nmoves)
        *nmoves = g->nmoves;
    free(geo);
    return slowest;
}

/* A search board on geo in *slot, like test_game (test-game.h). */
static struct tx_fastboard *test_board(struct tx_fastboard **slot, const struct tx_geometry *geo)
{
    *slot = tx_xrealloc(*slot, tx_fastboard_size(geo));
    tx_fastboard_init(*slot, geo, TX_RULES_PP);
    return *slot;
}

/* ---- the bots' own modules ---- */

/* True when b holds the same pegs, links, player to move and winner as g.
 * Plain comparisons: a Check assertion per link would dominate the case. */
static bool same_position(const struct tx_fastboard *b, const struct tx_game *g)
{
    const struct tx_geometry *geo = g->geo;
    if (memcmp(tx_fastboard_cells(b), tx_game_cells(g), (size_t)geo->holes) != 0 ||
        b->to_move != g->to_move || b->winner != (g->status == TX_WON ? g->winner : -1))
        return false;
    for (int l = 0; l < geo->holes * 4; l++) {
        bool l0 = tx_fastboard_has_link(b, 0, l), l1 = tx_fastboard_has_link(b, 1, l);
        if ((l0 || l1) != tx_game_has_link(g, l) || (l0 && l1))
            return false;
        if ((l0 && tx_game_cell(g, geo->link_end[l][0]) != TX_PEG0) ||
            (l1 && tx_game_cell(g, geo->link_end[l][0]) != TX_PEG1))
            return false;
    }
    return true;
}

START_TEST(fastboard_matches_game)
{
    static const int sizes[] = {5, 8, 12, 26};
    struct tx_geometry *geo = NULL;
    int16_t moves[TX_MOVES_MAX];
    for (size_t si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++) {
        ck_assert_int_eq((tx_geometry_free(geo), tx_geometry_new(sizes[si], sizes[si], &geo)), 0);
        for (uint64_t seed = 1; seed <= 40; seed++) {
            uint64_t s = seed * 0x9e3779b97f4a7c15ULL;
            static struct tx_game *g;
            static struct tx_fastboard *b, *rebuilt;
            test_game(&g, geo);
            test_board(&b, geo);
            test_board(&rebuilt, geo);
            for (int step = 0; g->status == TX_ONGOING; step++) {
                int n = tx_game_legal_moves(g, moves);
                int first = n > 1 && moves[0] == TX_MOVE_SWAP; /* the search board has no swap */
                int move = moves[first + (int)(rng_next(&s) % (uint64_t)(n - first))];
                bool ok =
                    tx_fastboard_can_play(b, b->to_move, move) && tx_game_play(g, move) == TX_LEGAL;
                tx_fastboard_play(b, move);
                tx_fastboard_from_game(rebuilt, g);
                if (!ok || !same_position(b, g) || !same_position(rebuilt, g))
                    ck_abort_msg("size %d seed %d move %d: the search board differs from the game",
                                 sizes[si], (int)seed, step + 1);
            }
        }
        /* A swapped game: the search board is rebuilt from the game. */
        static struct tx_game *g;
        static struct tx_fastboard *b;
        test_game(&g, geo);
        test_board(&b, geo);
        ck_assert_int_eq(tx_game_play(g, tx_geometry_hole(geo, 2, 1)), TX_LEGAL);
        ck_assert_int_eq(tx_game_play(g, TX_MOVE_SWAP), TX_LEGAL);
        tx_fastboard_from_game(b, g);
        ck_assert_msg(same_position(b, g), "size %d: the swapped game differs", sizes[si]);
    }
    free(geo);
}
END_TEST

/* Placing one's own peg in a vacant hole shortens one's connection by one
 * exactly when the hole is on a shortest path (tx_eval_paths), and never by
 * more: checked for every hole of positions from random games. */
START_TEST(eval_paths_are_shortest)
{
    struct tx_geometry *geo;
    struct tx_rng rng;
    int16_t moves[TX_MOVES_MAX];
    ck_assert_int_eq(tx_geometry_new(12, 12, &geo), 0);
    tx_rng_seed(&rng, 5);
    static struct tx_fastboard *empty, *b, *after;
    test_board(&empty, geo);
    ck_assert_int_eq(tx_eval_distance(empty, 0, NULL), 7); /* rows 1, 3, 5, 7, 9, 11, 12 */
    ck_assert_int_eq(tx_eval_distance(empty, 1, NULL), 7);
    for (uint64_t seed = 1; seed <= 30; seed++) {
        uint64_t s = seed * 0x2545f4914f6cdd1dULL;
        static struct tx_game *g;
        test_game(&g, geo);
        int plies = 4 + (int)(seed % 20);
        for (int i = 0; i < plies && g->status == TX_ONGOING; i++) {
            int n = tx_game_legal_moves(g, moves);
            int first = n > 1 && moves[0] == TX_MOVE_SWAP;
            tx_game_play(g, moves[first + (int)(rng_next(&s) % (uint64_t)(n - first))]);
        }
        if (g->status != TX_ONGOING)
            continue;
        test_board(&b, geo);
        test_board(&after, geo);
        tx_fastboard_from_game(b, g);
        for (int p = 0; p < 2; p++) {
            uint8_t on_path[TX_HOLES_MAX] = {0};
            int d = tx_eval_paths(b, p, on_path);
            ck_assert_int_eq(d, tx_eval_distance(b, p, NULL));
            if (d >= TX_EVAL_FAR)
                continue;
            for (int h = 0; h < geo->holes; h++) {
                if (!tx_fastboard_can_play(b, p, h)) {
                    if (on_path[h])
                        ck_abort_msg("seed %d: hole %d on a path but not playable", (int)seed, h);
                    continue;
                }
                tx_fastboard_copy(after, b);
                after->to_move = p; /* the distance does not depend on who moves */
                tx_fastboard_play(after, h);
                int expect = on_path[h] ? d - 1 : d;
                int got = tx_eval_distance(after, p, NULL);
                if (got != expect && after->winner != p)
                    ck_abort_msg("seed %d player %d hole %d: distance %d -> %d, on path %d",
                                 (int)seed, p, h, d, got, on_path[h]);
            }
        }
        /* The ranking comes best first. */
        int16_t ranked[TX_HOLES_MAX];
        int scores[TX_HOLES_MAX];
        int n = tx_eval_rank_moves(b, &rng, ranked, scores);
        ck_assert_int_gt(n, 0);
        for (int i = 1; i < n; i++)
            if (scores[i - 1] < scores[i])
                ck_abort_msg("seed %d: the ranking is not sorted at %d", (int)seed, i);
    }
    free(geo);
}
END_TEST

/* The second-line rule (tx_fastboard_count_second_lines) calls a game won
 * only when it is: in random games on every kind of size (5 x 5, where the
 * middle of a second line has only corners on its border line, included),
 * whenever the rule first says player p has won, p's real connection
 * needs at most two more pegs, and p wins for real with its next two moves
 * (the best of the greedy ranking) whatever the opponent answers. */
START_TEST(fastboard_second_line_wins_for_real)
{
    static const int sizes[] = {5, 6, 7, 12, 26};
    struct tx_geometry *geo = NULL;
    int16_t moves[TX_MOVES_MAX], ranked[TX_HOLES_MAX];
    struct tx_rng rng;
    int sealed = 0;
    tx_rng_seed(&rng, 11);
    for (size_t si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++) {
        ck_assert_int_eq((tx_geometry_free(geo), tx_geometry_new(sizes[si], sizes[si], &geo)), 0);
        for (uint64_t seed = 1; seed <= 60; seed++) {
            uint64_t s = seed * 0x9e3779b97f4a7c15ULL;
            static struct tx_fastboard *real, *early;
            test_board(&real, geo);
            tx_fastboard_copy(test_board(&early, geo), real);
            tx_fastboard_count_second_lines(early);
            while (real->winner < 0 && early->winner < 0) {
                int n = 0;
                for (int h = 0; h < geo->holes; h++)
                    if (tx_fastboard_can_play(real, real->to_move, h))
                        moves[n++] = (int16_t)h;
                if (n == 0)
                    break;
                int move = moves[rng_next(&s) % (uint64_t)n];
                tx_fastboard_play(real, move);
                tx_fastboard_play(early, move);
            }
            ck_assert_msg(real->winner < 0 || early->winner == real->winner,
                          "size %d seed %d: a real win the rule missed", sizes[si], (int)seed);
            if (early->winner < 0 || real->winner >= 0)
                continue;
            int p = early->winner;
            sealed++;
            ck_assert_int_le(tx_eval_distance(real, p, NULL), 2);
            for (int turn = 0; turn < 4 && real->winner < 0; turn++) {
                int n = 0;
                if (real->to_move == p) {
                    n = tx_eval_rank_moves(real, &rng, ranked, NULL);
                    ck_assert_int_gt(n, 0);
                    tx_fastboard_play(real, ranked[0]);
                    continue;
                }
                for (int h = 0; h < geo->holes; h++)
                    if (tx_fastboard_can_play(real, real->to_move, h))
                        moves[n++] = (int16_t)h;
                ck_assert_int_gt(n, 0);
                tx_fastboard_play(real, moves[rng_next(&s) % (uint64_t)n]);
            }
            ck_assert_msg(real->winner == p, "size %d seed %d: the sealed game was not won",
                          sizes[si], (int)seed);
        }
    }
    ck_assert_int_gt(sealed, 100); /* the rule did decide games early */
    free(geo);
}
END_TEST

/* Playouts answer an intrusion into a two-way connection: player 1's pegs
 * E5 and E7 can link through C6 or G6; when player 2 takes G6 the answer
 * is C6, and when player 2 instead cuts E5-G6 with a link, the answer is
 * C6 too. And the same for a peg's two ways to its border line. */
START_TEST(playout_saves_bridge)
{
    struct tx_geometry *geo = NULL;
    ck_assert_int_eq((tx_geometry_free(geo), tx_geometry_new(12, 12, &geo)), 0);
    int e5 = tx_geometry_hole(geo, 4, 4), e7 = tx_geometry_hole(geo, 4, 6);
    int c6 = tx_geometry_hole(geo, 2, 5), g6 = tx_geometry_hole(geo, 6, 5);
    static struct tx_fastboard *b, *cut, *t, *edge;
    test_board(&b, geo);
    tx_fastboard_play(b, e5);
    tx_fastboard_play(b, tx_geometry_hole(geo, 10, 10));
    tx_fastboard_play(b, e7);
    tx_fastboard_copy(test_board(&cut, geo), b);
    tx_fastboard_play(b, g6);
    ck_assert_int_eq(tx_playout_save_bridge(b, 0, g6, false), c6);
    /* A player 2 link that crosses E5-G6 and no other link of the bridge. */
    int e5g6 = tx_geometry_link(geo, e5, g6), found = 0;
    int c6e5 = tx_geometry_link(geo, c6, e5), c6e7 = tx_geometry_link(geo, c6, e7);
    int g6e7 = tx_geometry_link(geo, g6, e7);
    for (int i = 0; i < TX_CROSSINGS && !found; i++) {
        int l = geo->crossing[e5g6][i];
        if (l == TX_NO_LINK)
            break;
        int a = geo->link_end[l][0], c = geo->link_end[l][1];
        bool other = false;
        for (int j = 0; j < TX_CROSSINGS; j++) {
            int x = geo->crossing[l][j];
            other |= x != TX_NO_LINK && (x == c6e5 || x == c6e7 || x == g6e7);
        }
        if (other || tx_fastboard_cell(cut, a) != TX_EMPTY ||
            tx_fastboard_cell(cut, c) != TX_EMPTY || a == g6 || c == g6 ||
            !tx_fastboard_can_play(cut, 1, a) || !tx_fastboard_can_play(cut, 1, c))
            continue;
        tx_fastboard_copy(test_board(&t, geo), cut);
        tx_fastboard_play(t, a);
        tx_fastboard_play(t, tx_geometry_hole(geo, 9, 1)); /* player 1 elsewhere */
        tx_fastboard_play(t, c);
        ck_assert(tx_fastboard_link_blocked(t, 0, e5g6));
        ck_assert_int_eq(tx_playout_save_bridge(t, 0, c, false), c6);
        found = 1;
    }
    ck_assert_msg(found, "no link crosses E5-G6 alone");
    /* The edge: player 1's E4 reaches the second line (joined to row 1 for
     * good) through D2 or F2; player 2 takes D2, the answer is F2, but only
     * with edges and the second-line rule. */
    int e4 = tx_geometry_hole(geo, 4, 3), d2 = tx_geometry_hole(geo, 3, 1);
    test_board(&edge, geo);
    tx_fastboard_count_second_lines(edge);
    tx_fastboard_play(edge, e4);
    tx_fastboard_play(edge, d2);
    ck_assert_int_eq(tx_playout_save_bridge(edge, 0, d2, true), tx_geometry_hole(geo, 5, 1));
    ck_assert_int_eq(tx_playout_save_bridge(edge, 0, d2, false), -1);
    edge->second_line = false;
    ck_assert_int_eq(tx_playout_save_bridge(edge, 0, d2, true), -1);
    tx_fastboard_play(b, c6); /* player 1 answers: the bridge is a chain */
    ck_assert(tx_fastboard_connected(b, e5, e7));
    free(geo);
}
END_TEST

/* The search with each enhancement switched off still answers a legal
 * move, and a game sealed by the second-line rule is finished at once: the
 * player to move links its chain to a border line without searching. */
START_TEST(mcts_switches_and_sealed_finish)
{
    struct tx_geometry *geo = NULL;
    ck_assert_int_eq((tx_geometry_free(geo), tx_geometry_new(12, 12, &geo)), 0);
    static const int chain[][2] = {{5, 1}, {6, 3}, {5, 5}, {6, 7}, {5, 9}, {7, 10}};
    static struct tx_fastboard *b, *after;
    test_board(&b, geo);
    for (int i = 0; i < 6; i++) {
        tx_fastboard_play(b, tx_geometry_hole(geo, chain[i][0], chain[i][1]));
        tx_fastboard_play(b, tx_geometry_hole(geo, 1, i + 2)); /* player 2, far away */
    }
    ck_assert_int_eq(b->winner, -1);
    ck_assert_int_eq(b->to_move, 0);
    ck_assert_int_eq(tx_eval_distance(b, 0, NULL), 2); /* one peg on each border line */
    int last[2] = {tx_geometry_hole(geo, 7, 10), tx_geometry_hole(geo, 1, 7)};
    struct tx_mcts_stats st;
    for (int off = 0; off < 4; off++) {
        struct tx_mcts_features f;
        tx_mcts_features_default(&f);
        f.second_line = off != 1;
        f.save_bridge = off != 2;
        f.save_edge = off != 3;
        struct tx_mcts *m = tx_mcts_new(geo, 3, 1 << 16);
        ck_assert_ptr_nonnull(m);
        tx_mcts_set_features(m, &f);
        int move = tx_mcts_search(m, b, last, INT64_MAX, 300, &st);
        ck_assert_msg(move >= 0 && tx_fastboard_can_play(b, 0, move), "switch %d: move %d", off,
                      move);
        if (f.second_line) { /* sealed: finished without a search */
            ck_assert_int_eq(st.playouts, 0);
            tx_fastboard_copy(test_board(&after, geo), b);
            tx_fastboard_play(after, move);
            ck_assert_int_eq(tx_eval_distance(after, 0, NULL), 1);
        } else {
            ck_assert_int_eq(st.playouts, 300);
        }
        tx_mcts_free(m);
    }
    free(geo);
}
END_TEST

START_TEST(opening_and_swap_rules)
{
    struct tx_geometry *geo = NULL;
    struct tx_rng rng;
    tx_rng_seed(&rng, 9);
    for (int size = TX_SIZE_MIN; size <= TX_SIZE_MAX; size++) {
        ck_assert_int_eq((tx_geometry_free(geo), tx_geometry_new(size, size, &geo)), 0);
        int centre = tx_geometry_hole(geo, size / 2, size / 2);
        ck_assert_msg(tx_eval_should_swap(geo, centre), "size %d: the centre is not swapped", size);
        ck_assert(!tx_eval_should_swap(geo, tx_geometry_hole(geo, 1, 0))); /* a border peg */
        for (int i = 0; i < 20; i++) {
            int h = tx_eval_opening(geo, &rng);
            ck_assert_msg(tx_geometry_playable(geo, 0, h), "size %d: opening %d not playable", size,
                          h);
            ck_assert_msg(!tx_eval_should_swap(geo, h), "size %d: opening %d would be swapped",
                          size, h);
        }
    }
    free(geo);
}
END_TEST

/* ---- the cases ---- */

static void compile_starter(void)
{
    char dir[] = "/tmp/test-bots-XXXXXX", src[256];
    if (!mkdtemp(dir))
        return;
    snprintf(starter_c_exe, sizeof(starter_c_exe), "%s/starter", dir);
    snprintf(src, sizeof(src), "%s/bots/starter.c",
             getenv("TX_SOURCE_DIR") ? getenv("TX_SOURCE_DIR") : ".");
    pid_t pid = fork();
    if (pid == 0) {
        execlp("cc", "cc", "-O2", "-o", starter_c_exe, src, (char *)NULL);
        _exit(127);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        starter_c_exe[0] = '\0'; /* the case that uses it reports this */
}

static void remove_starter(void)
{
    if (!starter_c_exe[0])
        return;
    unlink(starter_c_exe);
    char *slash = strrchr(starter_c_exe, '/');
    *slash = '\0';
    rmdir(starter_c_exe);
}

static void check_bot_positions(enum which w)
{
    if (w == STARTER_C)
        ck_assert_msg(starter_c_exe[0], "cc could not compile bots/starter.c");
    check_positions(w, TX_SIZE_DEFAULT);
    check_positions(w, 7);
    check_positions(w, 19);
}

START_TEST(positions_legal_answers)
{
    signal(SIGPIPE, SIG_IGN);
    check_bot_positions((enum which)_i);
}
END_TEST

START_TEST(game_every_turn_legal)
{
    signal(SIGPIPE, SIG_IGN);
    enum which w = (enum which)_i;
    if (w == STARTER_C)
        ck_assert_msg(starter_c_exe[0], "cc could not compile bots/starter.c");
    for (int k = 0; k < 2; k++)
        play_game(w, TX_SIZE_DEFAULT, 20, k == 0, 11 + (uint64_t)k, NULL, NULL);
    play_game(w, 9, 20, true, 5, NULL, NULL);
}
END_TEST

START_TEST(mcts_respects_budget)
{
    signal(SIGPIPE, SIG_IGN);
    for (int k = 0; k < 2; k++) {
        int64_t slowest =
            play_game(MCTS, TX_SIZE_DEFAULT, MCTS_MS, k == 0, 3 + (uint64_t)k, NULL, NULL);
        fprintf(stderr, "twixt-mcts --ms %d: slowest answer %.1f ms\n", MCTS_MS,
                (double)slowest / 1000);
        ck_assert_msg(slowest <= (MCTS_MS + MCTS_SLACK_MS) * 1000,
                      "twixt-mcts --ms %d took %.1f ms for one answer", MCTS_MS,
                      (double)slowest / 1000);
    }
}
END_TEST

/* Runs the bot with args and returns its exit status. */
static int run_status(enum which w, const char *a, const char *b)
{
    char path[512];
    snprintf(path, sizeof(path), "%s/bots/%s", getenv("TX_BUILD_DIR"), bot_names[w]);
    pid_t pid = fork();
    if (pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        dup2(null, 1);
        dup2(null, 2);
        execl(path, path, a, b, (char *)NULL);
        _exit(127);
    }
    int status;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

START_TEST(options_help_and_errors)
{
    for (enum which w = RANDOM; w <= BLOCKER; w++) {
        ck_assert_int_eq(run_status(w, "--help", NULL), 0);
        ck_assert_int_eq(run_status(w, "--size", "4"), 2);
        ck_assert_int_eq(run_status(w, "--size", "101"), 2);
        ck_assert_int_eq(run_status(w, "--seed", "x"), 2);
        ck_assert_int_eq(run_status(w, "--bogus", NULL), 2);
    }
    ck_assert_int_eq(run_status(MCTS, "--ms", "0"), 2);
    ck_assert_int_eq(run_status(RANDOM, "--swap-prob", "2"), 2);
    ck_assert_int_eq(run_status(RANDOM, "--first", "A1"), 2); /* a corner */
    ck_assert_int_eq(run_status(RANDOM, "--first", "A5"), 2); /* player 2's border */
    ck_assert_int_eq(run_status(RANDOM, "--first", "F6"), 0); /* then end of input */
}
END_TEST

/* twixt-random --first HOLE opens there (validate's diagonal games). */
START_TEST(random_opens_where_told)
{
    char path[512], line[TX_ANSWER_LINE_MAX + 1];
    snprintf(path, sizeof(path), "%s/bots/twixt-random", getenv("TX_BUILD_DIR"));
    char *argv[] = {path, (char *)"--first", (char *)"C5", NULL};
    struct bot b;
    bot_start(&b, argv);
    bot_ask(&b, "FIRST\n0\n0\n0\n0\n", line, sizeof(line));
    ck_assert_str_eq(strtok(line, " "), "C5");
    bot_finish(&b);
}
END_TEST

/* twixt-blocker makes games long (validate's blocked games), and with
 * --cross two of its own links cross each other (the crossing games). */
START_TEST(blocker_games_are_long_and_cross)
{
    signal(SIGPIPE, SIG_IGN);
    int total = 0, moves;
    bool crossed;
    for (int k = 0; k < 2; k++) {
        play_game(BLOCKER, TX_SIZE_DEFAULT, 0, k == 0, 21 + (uint64_t)k, NULL, &moves);
        total += moves;
        play_game(CROSSER, TX_SIZE_DEFAULT, 0, k == 0, 31 + (uint64_t)k, &crossed, NULL);
        ck_assert_msg(crossed, "twixt-blocker --cross as player %d: no links of its own cross",
                      k + 1);
    }
    /* A random opponent on 140 holes: the blocker's games last. */
    ck_assert_msg(total >= 2 * 70, "blocked games of %d moves on average", total / 2);
}
END_TEST

static Suite *bots_suite(void)
{
    Suite *s = suite_create("bots");
    TCase *tc = tcase_create("bots");
    tcase_set_timeout(tc, CASE_TIMEOUT_S);
    tcase_add_unchecked_fixture(tc, compile_starter, remove_starter);
    tcase_add_loop_test(tc, positions_legal_answers, RANDOM, NBOTS);
    tcase_add_loop_test(tc, game_every_turn_legal, RANDOM, NBOTS);
    tcase_add_test(tc, mcts_respects_budget);
    tcase_add_test(tc, options_help_and_errors);
    tcase_add_test(tc, random_opens_where_told);
    tcase_add_test(tc, blocker_games_are_long_and_cross);
    suite_add_tcase(s, tc);
    TCase *units = tcase_create("modules");
    tcase_set_timeout(units, 120);
    tcase_add_test(units, fastboard_matches_game);
    tcase_add_test(units, eval_paths_are_shortest);
    tcase_add_test(units, opening_and_swap_rules);
    tcase_add_test(units, fastboard_second_line_wins_for_real);
    tcase_add_test(units, playout_saves_bridge);
    tcase_add_test(units, mcts_switches_and_sealed_finish);
    suite_add_tcase(s, units);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(bots_suite());
    srunner_run_all(sr, CK_ENV);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
