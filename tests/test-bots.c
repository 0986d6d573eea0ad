/* test-bots.c - the bundled bots and starter kits speak the protocol and
 * play legal moves, under both rule sets and on every kind of board.
 *
 * Each bot is started as a real process (fork/exec, pipes; no shell), with
 * the rule set and board in its environment as the arena gives them
 * (TWIXT_RULES, TWIXT_WIDTH, TWIXT_HEIGHT), and fed turn inputs written by
 * libtwixt (tx_input_write) for scripted positions:
 * the first turn as player 1 and as player 2, after a SWAP, a nearly full
 * board, a board where exactly one legal hole remains, and the same on other
 * boards (5 x 5 to 100 x 100, square or not, pp and classic; classic
 * positions hold links their owner removed). A position the bot did not see being played is its
 * first turn after a forced opening, so its first line is what RULES.md "Forced openings" says:
 * FIRST for player 1, the opponent's last hole for player 2; a bot must learn its side from that
 * line alone. Its one answer line is parsed (tx_answer_parse) and must be a legal move in that
 * position, link edits included (tx_game_check_edits), with a message of at most 20 characters; on
 * end of input the bot must exit with status 0. Whole games against a random opponent played by the
 * test (which under classic sometimes removes one of its links) check every turn, and the CPU time
 * of every answer against the turn's limit (twixt-blocker's games are
 * long, --cross crosses its links, or flips them under classic;
 * twixt-random's classic edits happen), and
 * twixt-mcts --ms 50 must answer every turn of such a game well within its
 * budget (asserted generously for a loaded machine).
 *
 * The openings and Double TwixT (RULES.md "Openings", "Double TwixT"): every
 * bot and starter plays games of every opening, each side of it, and of
 * teams (both partners), against random answers of the test (random cuts,
 * choices, swaps and privilege), fed the inputs the referee writes; every
 * answer must be legal in the game as the referee holds it, privilege
 * counted per team. Tables: the input and the side after an exchange, what
 * a bot knows of its team's privilege, the pie decision, the cut, the
 * choice, when privilege is worth it; and random games where every seat's
 * side and privilege (struct tx_botio_side) are checked at every input.
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
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "answer.h"
#include "botio.h"
#include "fastboard.h"
#include "game.h"
#include "geometry.h"
#include "hole.h"
#include "input.h"
#include "greedy-eval.h"
#include "mcts.h"
#include "openings.h"
#include "playout.h"
#include "rules.h"
#include "test-game.h"

#define ANSWER_TIMEOUT_MS 10000 /* any bot, any turn: far above what they need */
#define MCTS_MS 50              /* the budget given to twixt-mcts in the timing test */
#define MCTS_SLACK_MS 200       /* margin for a loaded machine (sanitizers, parallel tests) */
#define CASE_TIMEOUT_S 240
#define FIRST_TURN_MS 1000 /* RULES.md "Time": a bot's own first turn */
#define TURN_MS 300        /* every later turn */
/* Sanitizers make the bots several times slower: their CPU time is then
 * compared with the limits times this. */
#if defined(__SANITIZE_ADDRESS__)
#define CPU_FACTOR 4
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CPU_FACTOR 4
#endif
#endif
#ifndef CPU_FACTOR
#define CPU_FACTOR 1
#endif

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

/* Starts argv with the rule set, board, opening and teams of v in its
 * environment, as the arena sets them for every bot (none when v is
 * NULL). */
static void bot_start_in(struct bot *b, char *const argv[], const struct tx_variant *v)
{
    int in[2], out[2];
    ck_assert_int_eq(pipe2(in, O_CLOEXEC), 0);
    ck_assert_int_eq(pipe2(out, O_CLOEXEC), 0);
    b->len = 0;
    b->pid = fork();
    ck_assert_int_ge(b->pid, 0);
    if (b->pid == 0) {
        unsetenv("TWIXT_RULES");
        unsetenv("TWIXT_WIDTH");
        unsetenv("TWIXT_HEIGHT");
        unsetenv("TWIXT_OPENING");
        unsetenv("TWIXT_TEAMS");
        if (v) {
            char width[16], height[16];
            snprintf(width, sizeof width, "%d", v->width);
            snprintf(height, sizeof height, "%d", v->height);
            setenv("TWIXT_RULES", tx_ruleset(v->rules)->name, 1);
            setenv("TWIXT_WIDTH", width, 1);
            setenv("TWIXT_HEIGHT", height, 1);
            setenv("TWIXT_OPENING", tx_opening_rule_name(v->opening), 1);
            setenv("TWIXT_TEAMS", v->teams ? "1" : "0", 1);
        }
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

static void bot_start(struct bot *b, char *const argv[])
{
    bot_start_in(b, argv, NULL);
}

/* CPU time the bot has used so far, in microseconds (its thread's
 * schedstat: nanoseconds on a CPU), -1 when the kernel does not say. */
static int64_t bot_cpu_us(const struct bot *b)
{
    char path[64];
    long long ns = -1;
    snprintf(path, sizeof path, "/proc/%d/schedstat", (int)b->pid);
    FILE *f = fopen(path, "r");
    if (f) {
        if (fscanf(f, "%lld", &ns) != 1)
            ns = -1;
        fclose(f);
    }
    return ns < 0 ? -1 : ns / 1000;
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

/* argv for bot w (the board and rule set are in its environment: bot_start_in);
 * storage in `store`. */
static void bot_argv(enum which w, int mcts_ms, char store[8][256], char *argv[9])
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
    for (int i = 0; i < n; i++)
        argv[i] = store[i];
    argv[n] = NULL;
}

/* The variant g is played under. */
static struct tx_variant variant_of(const struct tx_game *g)
{
    return (struct tx_variant){
        .rules = (enum tx_rules)g->rules, .width = g->geo->width, .height = g->geo->height};
}

/* "pp 12 x 12", for messages. */
static const char *variant_name(const struct tx_game *g)
{
    static char name[32];
    snprintf(name, sizeof name, "%s %d x %d", tx_ruleset((enum tx_rules)g->rules)->name,
             g->geo->width, g->geo->height);
    return name;
}

/* Parses line as bot w's answer in g and checks that it is legal, link
 * edits included; returns the parsed answer (static). */
static const struct tx_answer *check_answer(enum which w, const struct tx_game *g, const char *line,
                                            const char *what)
{
    static struct tx_answer ans;
    ck_assert_msg(tx_answer_parse(g->geo, (enum tx_rules)g->rules, line, strlen(line), &ans) == 0,
                  "%s, %s (%s): \"%s\" is not a move: %s", bot_names[w], what, variant_name(g),
                  line, ans.reason);
    ck_assert_msg(!ans.message_cut, "%s: message longer than 20 characters: \"%s\"", bot_names[w],
                  line);
    if (!tx_ruleset((enum tx_rules)g->rules)->link_edits) {
        /* Read as classic, a pp answer must hold no edit: a bot that
         * printed one under pp would be sending a message by mistake. */
        static struct tx_answer as_classic;
        ck_assert_int_eq(tx_answer_parse(g->geo, TX_RULES_CLASSIC, line, strlen(line), &as_classic),
                         0);
        ck_assert_msg(as_classic.nedits == 0, "%s, %s (%s): link edits under pp: \"%s\"",
                      bot_names[w], what, variant_name(g), line);
    }
    struct tx_edit_fault fault;
    enum tx_illegal why = tx_game_check_edits(g, ans.move, ans.edits, ans.nedits, &fault);
    char reason[160] = "";
    if (why != TX_LEGAL)
        tx_illegal_describe(g, ans.move, why, ans.edits, &fault, reason, sizeof(reason));
    ck_assert_msg(why == TX_LEGAL, "%s, %s (%s): illegal answer \"%s\": %s", bot_names[w], what,
                  variant_name(g), line, reason);
    return &ans;
}

/* A turn input of g for the seat to move (the player to move in a game of
 * two that exchanged no sides), in a buffer that lives as long as the test
 * (an input of 100 x 100 is half a megabyte). */
static const char *input_of(const struct tx_game *g, bool first_turn)
{
    static char *text;
    text = tx_xrealloc(text, tx_input_max(g->geo) + 1);
    ck_assert_int_gt(tx_input_write(g, g->seat, first_turn, text, tx_input_max(g->geo) + 1), 0);
    return text;
}

/* Asks a fresh bot w for its move in g and checks it is legal. It is the
 * bot's first input, as after a forced opening (RULES.md "Forced
 * openings": player 1's says FIRST). Returns the answer line (static). */
static const char *check_one_answer(enum which w, const struct tx_game *g, const char *what)
{
    static char line[TX_ANSWER_LINE_MAX + 1];
    char store[8][256], *argv[9];
    struct bot b;
    struct tx_variant v = variant_of(g);

    bot_argv(w, MCTS_MS, store, argv);
    bot_start_in(&b, argv, &v);
    bot_ask(&b, input_of(g, true), line, sizeof(line));
    check_answer(w, g, line, what);
    bot_finish(&b);
    return line;
}

/* ---- scripted positions ---- */

static uint64_t rng_next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* A game on geo under rules in *slot, as test_game (test-game.h) for pp. */
static struct tx_game *test_game_under(struct tx_game **slot, const struct tx_geometry *geo,
                                       enum tx_rules rules)
{
    *slot = tx_xrealloc(*slot, tx_game_size(geo));
    tx_game_init(*slot, geo, rules);
    return *slot;
}

static struct tx_edit edit_of(const struct tx_geometry *geo, char kind, int a, int b)
{
    return (struct tx_edit){kind, (int16_t)tx_geometry_x(geo, a), (int16_t)tx_geometry_y(geo, a),
                            (int16_t)tx_geometry_x(geo, b), (int16_t)tx_geometry_y(geo, b)};
}

/* Plays hole for the player to move; under classic rules, one time in
 * four with the removal of one of the mover's links, so that positions
 * hold links their owner removed and pegs that may be linked again.
 * Returns true when it removed one. */
static bool play_random(struct tx_game *g, int hole, uint64_t *s)
{
    static int16_t *links;
    struct tx_edit edit;
    int n = 0;
    if (tx_ruleset((enum tx_rules)g->rules)->link_edits && rng_next(s) % 4 == 0) {
        links = tx_xrealloc(links, sizeof(int16_t) * 8 * (size_t)g->geo->holes);
        int nlinks = tx_game_links(g, g->to_move, links);
        if (nlinks > 0) {
            int i = (int)(rng_next(s) % (uint64_t)nlinks);
            edit = edit_of(g->geo, '-', links[2 * i], links[2 * i + 1]);
            n = 1;
        }
    }
    ck_assert_int_eq(tx_game_play_edits(g, hole, &edit, n, NULL), TX_LEGAL);
    return n > 0;
}

/* Plays random moves on g (no swap; play_random) that do not end the game,
 * until the player to move has at most `left` legal holes or `moves` moves
 * were played. Returns false when the game could not get there without
 * ending (try another seed). */
static bool fill_board_upto(struct tx_game *g, uint64_t seed, int left, int moves)
{
    static int16_t list[TX_MOVES_MAX];
    uint64_t s = seed * 0x9e3779b97f4a7c15ULL + 1;
    for (int played_moves = 0;; played_moves++) {
        int n = tx_game_legal_moves(g, list);
        int holes = 0;
        for (int i = 0; i < n; i++)
            if (list[i] != TX_MOVE_SWAP)
                list[holes++] = list[i];
        if (holes <= left || played_moves == moves)
            return holes > 0;
        int start = (int)(rng_next(&s) % (uint64_t)holes), played = 0;
        static struct tx_game *next;
        for (int i = 0; i < holes && !played; i++) {
            next = tx_xrealloc(next, g->bytes);
            tx_game_copy(next, g);
            play_random(next, list[(start + i) % holes], &s);
            if (next->status == TX_ONGOING) {
                tx_game_copy(g, next);
                played = 1;
            }
        }
        if (!played)
            return false;
    }
}

static bool fill_board(struct tx_game *g, uint64_t seed, int left)
{
    return fill_board_upto(g, seed, left, -1);
}

static int hole_at(const struct tx_geometry *geo, const char *name)
{
    int hole = -1;
    ck_assert_int_eq(tx_hole_parse(geo, name, strlen(name), &hole), TX_HOLE_OK);
    return hole;
}

/* Every scripted position of one board and rule set, asked of bot w. On a
 * board over 30 x 30 (`big`), the first turns and a position of the middle
 * game only: a full board there takes long to reach and tells nothing new. */
static void check_positions_of(enum which w, struct tx_variant v)
{
    struct tx_geometry *geo;
    static struct tx_game *g;
    bool big = v.width * v.height > 30 * 30;
    ck_assert_int_eq(tx_geometry_new(v.width, v.height, &geo), 0);
    int centre = tx_geometry_hole(geo, v.width / 2, v.height / 2);

    test_game_under(&g, geo, v.rules);
    check_one_answer(w, g, "first turn as player 1");

    tx_game_play(g, centre);
    check_one_answer(w, g, "first turn as player 2 after a central peg");

    test_game_under(&g, geo, v.rules);
    tx_game_play(g, hole_at(geo, "C2"));
    check_one_answer(w, g, "first turn as player 2 after an edge peg");

    if (tx_geometry_square(geo)) {
        test_game_under(&g, geo, v.rules);
        tx_game_play(g, centre);
        ck_assert_int_eq(tx_game_play(g, TX_MOVE_SWAP), TX_LEGAL);
        check_one_answer(w, g, "first turn as player 1 after a SWAP");
    }

    if (big) {
        bool middle = false;
        for (uint64_t seed = 1; seed < 20 && !middle; seed++) {
            test_game_under(&g, geo, v.rules);
            middle = fill_board_upto(g, seed, 0, geo->holes / 4);
            if (middle)
                check_one_answer(w, g, "a quarter of the board played");
        }
        ck_assert_msg(middle, "could not play a quarter of %s", variant_name(g));
        tx_geometry_free(geo);
        return;
    }
    bool nearly = false, one = false;
    for (uint64_t seed = 1; seed < 400 && !(nearly && one); seed++) {
        test_game_under(&g, geo, v.rules);
        if (!nearly && fill_board(g, seed, 6)) {
            check_one_answer(w, g, "nearly full board");
            nearly = true;
        }
        test_game_under(&g, geo, v.rules);
        if (!one && fill_board(g, seed, 1)) {
            check_one_answer(w, g, "one legal hole left");
            one = true;
        }
    }
    ck_assert_msg(nearly && one, "could not build the full-board positions on %s", variant_name(g));
    tx_geometry_free(geo);
}

/* The same on a square pp board. */
static void check_positions(enum which w, int size)
{
    check_positions_of(w, (struct tx_variant){.rules = TX_RULES_PP, .width = size, .height = size});
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

/* What play_variant_game saw of the bot. */
struct game_stats {
    int64_t slowest_us;        /* the slowest answer, by the clock on the wall */
    int64_t slowest_cpu_us[2]; /* its CPU time: [0] its first turn, [1] any later one */
    int edits[3];              /* its removals, additions and declines */
    int moves;                 /* moves of the game (or until the test stopped it) */
    bool crossed;              /* two of its links cross each other at the end */
};

/* A game of bot w against random moves made by the test (play_random:
 * under classic, some with a removal), under v; bot_first says who starts;
 * after max_turns answers of the bot (-1: none) the test ends the game by
 * closing the bot's input. Every answer must be legal and take at most
 * the turn's limit of CPU time (times CPU_FACTOR under sanitizers). */
static void play_variant_game(enum which w, struct tx_variant v, int mcts_ms, bool bot_first,
                              uint64_t seed, int max_turns, struct game_stats *st)
{
    char store[8][256], *argv[9], line[TX_ANSWER_LINE_MAX + 1];
    struct tx_geometry *geo;
    static struct tx_game *g;
    static int16_t moves[TX_MOVES_MAX];
    struct bot b;
    uint64_t s = seed | 1;

    memset(st, 0, sizeof(*st));
    ck_assert_int_eq(tx_geometry_new(v.width, v.height, &geo), 0);
    test_game_under(&g, geo, v.rules);
    bot_argv(w, mcts_ms, store, argv);
    bot_start_in(&b, argv, &v);
    int bot_player = bot_first ? 0 : 1, turns = 0;
    while (g->status == TX_ONGOING && turns != max_turns) {
        if (g->to_move != bot_player) {
            int n = tx_game_legal_moves(g, moves);
            ck_assert_int_gt(n, 0);
            int move = moves[rng_next(&s) % (uint64_t)n];
            if (move == TX_MOVE_SWAP)
                ck_assert_int_eq(tx_game_play(g, move), TX_LEGAL);
            else
                play_random(g, move, &s);
            continue;
        }
        bool first = g->nmoves <= 1; /* the bot's first turn: move 1 or 2 */
        const char *text = input_of(g, first);
        int64_t cpu = bot_cpu_us(&b);
        int64_t us = bot_ask(&b, text, line, sizeof(line));
        if (cpu >= 0)
            cpu = bot_cpu_us(&b) - cpu;
        if (us > st->slowest_us)
            st->slowest_us = us;
        if (cpu > st->slowest_cpu_us[!first])
            st->slowest_cpu_us[!first] = cpu;
        int limit_ms = (first ? FIRST_TURN_MS : TURN_MS) * CPU_FACTOR;
        ck_assert_msg(cpu <= limit_ms * 1000, "%s at move %d (%s): %.1f ms of CPU, limit %d ms",
                      bot_names[w], g->nmoves + 1, variant_name(g), (double)cpu / 1000, limit_ms);
        char what[32];
        snprintf(what, sizeof what, "move %d", g->nmoves + 1);
        const struct tx_answer *ans = check_answer(w, g, line, what);
        for (int i = 0; i < ans->nedits; i++)
            st->edits[ans->edits[i].kind == '-' ? 0 : ans->edits[i].kind == '+' ? 1 : 2]++;
        ck_assert_int_eq(tx_game_play_edits(g, ans->move, ans->edits, ans->nedits, NULL), TX_LEGAL);
        turns++;
    }
    bot_finish(&b);
    st->crossed = own_links_cross(g, bot_player);
    st->moves = g->nmoves;
    tx_geometry_free(geo);
}

/* A whole pp game on a size x size board (play_variant_game). Returns the
 * slowest answer in microseconds; *crossed (when not NULL) says whether
 * two of the bot's own links crossed at the end, *moves how long the game
 * was. */
static int64_t play_game(enum which w, int size, int mcts_ms, bool bot_first, uint64_t seed,
                         bool *crossed, int *nmoves)
{
    struct game_stats st;
    play_variant_game(w, (struct tx_variant){.rules = TX_RULES_PP, .width = size, .height = size},
                      mcts_ms, bot_first, seed, -1, &st);
    if (crossed)
        *crossed = st.crossed;
    if (nmoves)
        *nmoves = st.moves;
    return st.slowest_us;
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
 * only when it is, under both rule sets (_i: enum tx_rules): in random
 * games on every kind of size (5 x 5, where the middle of a second line
 * has only corners on its border line, included), whenever the rule first
 * says player p has won, p's real connection needs at most two more pegs,
 * and p wins for real with its next two moves (the best of the greedy
 * ranking) whatever the opponent answers. Under classic, where a player's
 * own links block it too, its random moves build on its border lines and
 * cut its own second-line pegs from them: after every move the pegs the
 * rule joins to a border line are those a board given the rule only then
 * joins (the incremental joins match the joins from scratch). */
START_TEST(fastboard_second_line_wins_for_real)
{
    static const int sizes[] = {5, 6, 7, 12, 26};
    enum tx_rules rules = (enum tx_rules)_i;
    struct tx_geometry *geo = NULL;
    int16_t moves[TX_MOVES_MAX], ranked[TX_HOLES_MAX];
    struct tx_rng rng;
    int sealed = 0, checked = 0;
    tx_rng_seed(&rng, 11);
    for (size_t si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++) {
        ck_assert_int_eq((tx_geometry_free(geo), tx_geometry_new(sizes[si], sizes[si], &geo)), 0);
        for (uint64_t seed = 1; seed <= 60; seed++) {
            uint64_t s = seed * 0x9e3779b97f4a7c15ULL;
            static struct tx_fastboard *real, *early, *fresh;
            tx_fastboard_init(test_board(&real, geo), geo, rules);
            tx_fastboard_copy(test_board(&early, geo), real);
            test_board(&fresh, geo);
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
                tx_fastboard_copy(fresh, real);
                tx_fastboard_count_second_lines(fresh);
                for (int h = 0; h < geo->holes; h++) {
                    int p = tx_fastboard_cell(real, h) - 1;
                    if (p < 0)
                        continue;
                    for (int side = 0; side < 2; side++)
                        if (tx_fastboard_joined_to(early, p, h, side) !=
                            tx_fastboard_joined_to(fresh, p, h, side))
                            ck_abort_msg("rules %d size %d seed %d: hole %d joined to side %d "
                                         "%d, from scratch %d",
                                         (int)rules, sizes[si], (int)seed, h, side,
                                         tx_fastboard_joined_to(early, p, h, side),
                                         tx_fastboard_joined_to(fresh, p, h, side));
                    checked++;
                }
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
            ck_assert_msg(real->winner == p,
                          "rules %d size %d seed %d: the sealed game was not won", (int)rules,
                          sizes[si], (int)seed);
        }
    }
    ck_assert_int_gt(sealed, 50); /* the rule did decide games early (77 under classic) */
    ck_assert_int_gt(checked, 1000);
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
 * player to move links its chain to a border line without searching. Under
 * both rule sets (_i: enum tx_rules). */
START_TEST(mcts_switches_and_sealed_finish)
{
    struct tx_geometry *geo = NULL;
    ck_assert_int_eq((tx_geometry_free(geo), tx_geometry_new(12, 12, &geo)), 0);
    static const int chain[][2] = {{5, 1}, {6, 3}, {5, 5}, {6, 7}, {5, 9}, {7, 10}};
    static struct tx_fastboard *b, *after;
    tx_fastboard_init(test_board(&b, geo), geo, (enum tx_rules)_i);
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

/* On a board larger than 16 x 16 the tree's children are candidates
 * (mcts.c child_moves): a node gets a few dozen children, not one for every
 * hole, and --no-candidates gives the root every hole again. Playouts there
 * stop after a few dozen moves (the cutoff) and the search keeps to its
 * deadline by its own clock, on 100 x 100 too. */
START_TEST(mcts_big_board_candidates_cutoff_and_deadline)
{
    struct tx_geometry *geo = NULL;
    static struct tx_fastboard *b;
    struct tx_rng rng;
    ck_assert_int_eq(tx_geometry_new(30, 30, &geo), 0);
    test_board(&b, geo);
    tx_rng_seed(&rng, 5);
    for (int i = 0; i < 6; i++) { /* a few pegs in the middle */
        int h =
            tx_geometry_hole(geo, 12 + (int)tx_rng_below(&rng, 6), 12 + (int)tx_rng_below(&rng, 6));
        if (tx_fastboard_can_play(b, b->to_move, h))
            tx_fastboard_play(b, h);
    }
    int last[2] = {-1, -1};
    struct tx_mcts_stats st;
    for (int off = 0; off < 2; off++) {
        struct tx_mcts_features f;
        tx_mcts_features_default(&f);
        f.candidates = off == 0;
        f.lookahead = false; /* the tree's search: the lookahead plays boards over 26 x 26 */
        struct tx_mcts *m = tx_mcts_new(geo, 3, 1 << 18);
        tx_mcts_set_features(m, &f);
        int move = tx_mcts_search(m, b, last, INT64_MAX, 40, &st);
        ck_assert(move >= 0 && tx_fastboard_can_play(b, b->to_move, move));
        ck_assert_int_eq(st.playouts, 40);
        if (off == 0) /* the root and at most 6 expansions of at most 41 children */
            ck_assert_msg(st.nodes <= 1 + 6 * 41, "%ld nodes with candidates", st.nodes);
        else
            ck_assert_msg(st.nodes > 800, "%ld nodes without candidates", st.nodes);
        tx_mcts_free(m);
    }

    /* A playout with max_moves stops there, without a winner. */
    struct tx_playout_policy policy;
    uint8_t amaf[TX_HOLES_MAX] = {0};
    static struct tx_fastboard *p;
    tx_fastboard_copy(test_board(&p, geo), b);
    tx_playout_policy_default(&policy);
    policy.max_moves = 7;
    int before = 0, after = 0;
    for (int h = 0; h < geo->holes; h++)
        before += tx_fastboard_cell(b, h) != TX_EMPTY;
    ck_assert_int_eq(tx_playout_run(p, &policy, &rng, last, amaf), TX_PLAYOUT_CUT);
    for (int h = 0; h < geo->holes; h++)
        after += tx_fastboard_cell(p, h) != TX_EMPTY;
    ck_assert_int_eq(after, before + 7);

    /* 100 x 100: a 60 ms search returns by its deadline (its own clock;
     * the margin is for a preempted process, far below a turn). */
    ck_assert_int_eq((tx_geometry_free(geo), tx_geometry_new(100, 100, &geo)), 0);
    test_board(&b, geo);
    tx_fastboard_play(b, tx_geometry_hole(geo, 50, 50));
    tx_fastboard_play(b, tx_geometry_hole(geo, 52, 51));
    struct tx_mcts *m = tx_mcts_new(geo, 4, 0);
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    int64_t start = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec, deadline = start + 60000000;
    int move = tx_mcts_search(m, b, last, deadline, 0, &st);
    clock_gettime(CLOCK_MONOTONIC, &ts);
    int64_t end = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
    fprintf(stderr, "twixt-mcts on 100 x 100: %ld playouts, %.1f ms of 60\n", st.playouts,
            (double)(end - start) / 1e6);
    ck_assert(move >= 0 && tx_fastboard_can_play(b, b->to_move, move));
    ck_assert_int_gt(st.playouts, 0);
    ck_assert_msg(end <= deadline + (int64_t)MCTS_SLACK_MS * 1000000, "%.1f ms past the deadline",
                  (double)(end - deadline) / 1e6);
    tx_mcts_free(m);
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
        /* Nearer an edge than the openings' ring, from 8 x 8 (a ring of 1) */
        ck_assert_int_eq(tx_eval_near_edge(geo, tx_geometry_hole(geo, 1, 0)), size >= 8);
        ck_assert(!tx_eval_near_edge(geo, centre));
        for (int i = 0; i < 20; i++) {
            int h = tx_eval_opening(geo, &rng);
            ck_assert_msg(tx_geometry_playable(geo, 0, h), "size %d: opening %d not playable", size,
                          h);
            ck_assert_msg(!tx_eval_should_swap(geo, h), "size %d: opening %d would be swapped",
                          size, h);
            ck_assert_msg(!tx_eval_near_edge(geo, h), "size %d: opening %d near an edge", size, h);
        }
    }
    free(geo);
}
END_TEST

/* A search board on geo under rules in *slot. */
static struct tx_fastboard *test_board_under(struct tx_fastboard **slot,
                                             const struct tx_geometry *geo, enum tx_rules rules)
{
    *slot = tx_xrealloc(*slot, tx_fastboard_size(geo));
    tx_fastboard_init(*slot, geo, rules);
    return *slot;
}

/* The search board follows classic games and boards that are not square:
 * rebuilt from the game after every move (removals of the mover's links
 * included: play_random), and played along for moves without edits. */
START_TEST(fastboard_matches_game_under_classic_and_wide)
{
    static const struct tx_variant boards[] = {
        {.rules = TX_RULES_CLASSIC, .width = 12, .height = 12},
        {.rules = TX_RULES_CLASSIC, .width = 7, .height = 9},
        {.rules = TX_RULES_PP, .width = 9, .height = 7},
        {.rules = TX_RULES_CLASSIC, .width = 30, .height = 24}};
    static int16_t moves[TX_MOVES_MAX];
    for (size_t bi = 0; bi < sizeof(boards) / sizeof(boards[0]); bi++) {
        struct tx_variant v = boards[bi];
        struct tx_geometry *geo;
        ck_assert_int_eq(tx_geometry_new(v.width, v.height, &geo), 0);
        int games = v.width * v.height > 200 ? 3 : 30;
        for (uint64_t seed = 1; seed <= (uint64_t)games; seed++) {
            uint64_t s = seed * 0x9e3779b97f4a7c15ULL;
            static struct tx_game *g;
            static struct tx_fastboard *b, *played;
            test_game_under(&g, geo, v.rules);
            test_board_under(&b, geo, v.rules);
            test_board_under(&played, geo, v.rules);
            for (int step = 0; g->status == TX_ONGOING; step++) {
                int n = tx_game_legal_moves(g, moves);
                int first = n > 1 && moves[0] == TX_MOVE_SWAP;
                int move = moves[first + (int)(rng_next(&s) % (uint64_t)(n - first))];
                int before = g->nmoves;
                tx_fastboard_from_game(b, g);
                tx_fastboard_copy(played, b);
                bool edited = play_random(g, move, &s);
                ck_assert_int_eq(g->nmoves, before + 1);
                tx_fastboard_play(played, move);
                tx_fastboard_from_game(b, g);
                if (!same_position(b, g) || (!edited && !same_position(played, g)))
                    ck_abort_msg("%s %dx%d seed %d move %d: the search board differs from the game",
                                 tx_ruleset(v.rules)->name, v.width, v.height, (int)seed, step + 1);
            }
        }
        tx_geometry_free(geo);
    }
}
END_TEST

/* The shortest-connection distance, computed the slow and obvious way
 * from libtwixt's own rule of which links block which
 * (tx_game_link_blocked): relax every knight step until nothing changes.
 * Entering one's peg costs 0, a vacant hole one may use 1. */
static int reference_cost(const struct tx_game *g, int p, int h)
{
    if (tx_game_cell(g, h) == p + 1)
        return 0;
    return tx_game_cell(g, h) == TX_EMPTY && tx_geometry_playable(g->geo, p, h) ? 1 : -1;
}

static int reference_distance(const struct tx_game *g, int p)
{
    const struct tx_geometry *geo = g->geo;
    static int dist[TX_HOLES_MAX];
    unsigned zone_first = p == 0 ? TX_ZONE_ROW_FIRST : TX_ZONE_COL_FIRST;
    unsigned zone_last = p == 0 ? TX_ZONE_ROW_LAST : TX_ZONE_COL_LAST;
    if (g->status == TX_WON && g->winner == p)
        return 0;
    for (int h = 0; h < geo->holes; h++) {
        int c = reference_cost(g, p, h);
        dist[h] = c >= 0 && (geo->zone[h] & zone_first) ? c : INT_MAX;
    }
    for (bool changed = true; changed;) {
        changed = false;
        for (int h = 0; h < geo->holes; h++) {
            if (dist[h] == INT_MAX)
                continue;
            for (int k = 0; k < 8; k++) {
                int n = geo->neighbour[h][k];
                if (n < 0 || tx_game_link_blocked(g, tx_geometry_link(geo, h, n), p + 1, NULL))
                    continue;
                int c = reference_cost(g, p, n);
                if (c >= 0 && dist[h] + c < dist[n]) {
                    dist[n] = dist[h] + c;
                    changed = true;
                }
            }
        }
    }
    int best = INT_MAX;
    for (int h = 0; h < geo->holes; h++)
        if ((geo->zone[h] & zone_last) && dist[h] < best)
            best = dist[h];
    return best >= TX_EVAL_FAR ? TX_EVAL_FAR : best;
}

/* The evaluation's distance is the reference's in positions of random
 * games (with removals under classic): under classic a player's own links
 * block its steps too, under pp only the opponent's. */
START_TEST(eval_distance_matches_reference)
{
    static const struct tx_variant boards[] = {
        {.rules = TX_RULES_CLASSIC, .width = 12, .height = 12},
        {.rules = TX_RULES_PP, .width = 12, .height = 12},
        {.rules = TX_RULES_CLASSIC, .width = 9, .height = 7}};
    static int16_t moves[TX_MOVES_MAX];
    int compared = 0, own_blocks = 0;
    for (size_t bi = 0; bi < sizeof(boards) / sizeof(boards[0]); bi++) {
        struct tx_variant v = boards[bi];
        struct tx_geometry *geo;
        ck_assert_int_eq(tx_geometry_new(v.width, v.height, &geo), 0);
        for (uint64_t seed = 1; seed <= 40; seed++) {
            uint64_t s = seed * 0x2545f4914f6cdd1dULL;
            static struct tx_game *g;
            static struct tx_fastboard *b, *as_pp;
            test_game_under(&g, geo, v.rules);
            while (g->status == TX_ONGOING) {
                int n = tx_game_legal_moves(g, moves);
                int first = n > 1 && moves[0] == TX_MOVE_SWAP;
                play_random(g, moves[first + (int)(rng_next(&s) % (uint64_t)(n - first))], &s);
                test_board_under(&b, geo, v.rules);
                tx_fastboard_from_game(b, g);
                for (int p = 0; p < 2; p++) {
                    int got = tx_eval_distance(b, p, NULL), want = reference_distance(g, p);
                    if (got != want)
                        ck_abort_msg(
                            "%s %dx%d seed %d move %d player %d: distance %d, reference %d",
                            tx_ruleset(v.rules)->name, v.width, v.height, (int)seed, g->nmoves, p,
                            got, want);
                    compared++;
                    if (v.rules == TX_RULES_CLASSIC) {
                        /* The same position read as pp: own links no wall. */
                        test_board_under(&as_pp, geo, TX_RULES_PP);
                        tx_fastboard_from_game(as_pp, g);
                        as_pp->own_links_block = 0;
                        own_blocks += tx_eval_distance(as_pp, p, NULL) < got;
                    }
                }
            }
        }
        tx_geometry_free(geo);
    }
    ck_assert_int_gt(compared, 1000);
    /* Positions where a player's own links made its way longer: the
     * classic rule mattered. */
    ck_assert_int_gt(own_blocks, 20);
}
END_TEST

/* twixt-mcts's expansion takes the candidates and both players' shortest
 * paths from one call (tx_eval_candidates_paths): the same holes as
 * tx_eval_candidates and the same marks as tx_eval_paths, restricted or
 * not, under both rule sets, from the empty board to a third full. */
START_TEST(eval_candidates_paths_match)
{
    static const struct tx_variant boards[] = {
        {.rules = TX_RULES_PP, .width = 12, .height = 12},
        {.rules = TX_RULES_CLASSIC, .width = 24, .height = 24},
        {.rules = TX_RULES_PP, .width = 30, .height = 24}};
    static const int maxes[] = {40, TX_HOLES_MAX};
    for (size_t bi = 0; bi < sizeof(boards) / sizeof(boards[0]); bi++) {
        struct tx_variant v = boards[bi];
        struct tx_geometry *geo;
        ck_assert_int_eq(tx_geometry_new(v.width, v.height, &geo), 0);
        for (uint64_t seed = 0; seed <= 6; seed++) {
            static struct tx_game *g;
            static struct tx_fastboard *b;
            test_game_under(&g, geo, v.rules);
            ck_assert(fill_board_upto(g, seed + 1, 0, (int)(seed * (uint64_t)geo->holes / 18)));
            test_board_under(&b, geo, v.rules);
            tx_fastboard_from_game(b, g);
            for (size_t mi = 0; mi < sizeof(maxes) / sizeof(maxes[0]); mi++) {
                static int16_t c0[TX_HOLES_MAX], c1[TX_HOLES_MAX];
                static uint8_t m0[TX_HOLES_MAX], h0[TX_HOLES_MAX], m1[TX_HOLES_MAX],
                    h1[TX_HOLES_MAX];
                memset(m0, 0, sizeof m0);
                memset(h0, 0, sizeof h0);
                memset(m1, 0, sizeof m1);
                memset(h1, 0, sizeof h1);
                int n0 = tx_eval_candidates(b, true, maxes[mi], c0);
                tx_eval_paths(b, b->to_move, m0);
                tx_eval_paths(b, !b->to_move, h0);
                int n1 = tx_eval_candidates_paths(b, maxes[mi], c1, m1, h1, NULL);
                ck_assert_int_eq(n0, n1);
                ck_assert(memcmp(c0, c1, sizeof(int16_t) * (size_t)n0) == 0);
                ck_assert_msg(memcmp(m0, m1, (size_t)geo->holes) == 0 &&
                                  memcmp(h0, h1, (size_t)geo->holes) == 0,
                              "%dx%d seed %d max %d: the paths differ", v.width, v.height,
                              (int)seed, maxes[mi]);
            }
        }
        tx_geometry_free(geo);
    }
}
END_TEST

/* Up to 24 x 24 the bots rank every hole, exactly as tx_eval_rank_moves
 * does (the same order, scores and draws); above, at most the number the
 * search budget allows, among them a hole that wins at once. */
START_TEST(eval_candidates_bounded_by_the_budget)
{
    static const struct tx_variant boards[] = {
        {.rules = TX_RULES_PP, .width = 12, .height = 12},
        {.rules = TX_RULES_CLASSIC, .width = 12, .height = 12},
        {.rules = TX_RULES_PP, .width = 24, .height = 24},
        {.rules = TX_RULES_CLASSIC, .width = 30, .height = 24}};
    static int16_t ranked[2][TX_HOLES_MAX];
    static int scores[2][TX_HOLES_MAX];
    for (size_t bi = 0; bi < sizeof(boards) / sizeof(boards[0]); bi++) {
        struct tx_variant v = boards[bi];
        struct tx_geometry *geo;
        ck_assert_int_eq(tx_geometry_new(v.width, v.height, &geo), 0);
        int max = TX_EVAL_SEARCH_HOLES / (4 * geo->holes);
        for (uint64_t seed = 1; seed <= 4; seed++) {
            static struct tx_game *g;
            static struct tx_fastboard *b;
            test_game_under(&g, geo, v.rules);
            ck_assert(fill_board_upto(g, seed, 0, (int)(seed * (uint64_t)geo->holes / 10)));
            test_board_under(&b, geo, v.rules);
            tx_fastboard_from_game(b, g);
            int legal = 0;
            for (int h = 0; h < geo->holes; h++)
                legal += tx_fastboard_can_play(b, b->to_move, h);
            struct tx_rng r0, r1;
            tx_rng_seed(&r0, seed);
            tx_rng_seed(&r1, seed);
            int n0 = tx_eval_rank_moves(b, &r0, ranked[0], scores[0]);
            int n1 = tx_eval_rank_candidates(b, &r1, max, ranked[1], scores[1]);
            ck_assert_int_eq(n0, legal);
            if (legal <= max) {
                ck_assert_int_eq(n1, n0);
                ck_assert(memcmp(ranked[0], ranked[1], sizeof(int16_t) * (size_t)n0) == 0);
                ck_assert(memcmp(scores[0], scores[1], sizeof(int) * (size_t)n0) == 0);
                ck_assert_uint_eq(r0.state, r1.state);
            } else {
                ck_assert_msg(v.width * v.height > 24 * 24, "%dx%d restricted", v.width, v.height);
                ck_assert_int_eq(n1, max);
            }
        }
        tx_geometry_free(geo);
    }

    /* 100 x 100: player 1's chain from row 1 to row 100 lacks one peg, in
     * row 21, far from the centre, and player 2's pegs are far away. The
     * candidates are in hole order, distinct, playable, and the best of
     * them wins. */
    struct tx_geometry *geo;
    static struct tx_game *g;
    static struct tx_fastboard *b;
    static int16_t holes[TX_HOLES_MAX];
    ck_assert_int_eq(tx_geometry_new(100, 100, &geo), 0);
    test_game_under(&g, geo, TX_RULES_CLASSIC);
    for (int y = 0, other = 1; y <= 98; y += 2, other++) {
        if (y != 20)
            ck_assert_int_eq(tx_game_play(g, tx_geometry_hole(geo, 50 + (y / 2) % 2, y)), TX_LEGAL);
        else
            ck_assert_int_eq(tx_game_play(g, tx_geometry_hole(geo, 90, 3)), TX_LEGAL);
        ck_assert_int_eq(tx_game_play(g, tx_geometry_hole(geo, 5, other)), TX_LEGAL);
    }
    ck_assert_int_eq(tx_game_play(g, tx_geometry_hole(geo, 53, 99)), TX_LEGAL); /* (51,98)+(2,1) */
    ck_assert_int_eq(tx_game_play(g, tx_geometry_hole(geo, 5, 60)), TX_LEGAL);
    test_board_under(&b, geo, TX_RULES_CLASSIC);
    tx_fastboard_from_game(b, g);
    ck_assert_int_eq(tx_eval_distance(b, 0, NULL), 1);
    int max = TX_EVAL_SEARCH_HOLES / (4 * geo->holes);
    int n = tx_eval_candidates(b, true, max, holes);
    ck_assert_int_eq(n, max);
    for (int i = 0; i < n; i++) {
        ck_assert(tx_fastboard_can_play(b, 0, holes[i]));
        ck_assert(i == 0 || holes[i - 1] < holes[i]);
    }
    struct tx_rng rng;
    tx_rng_seed(&rng, 1);
    ck_assert_int_eq(tx_eval_rank_candidates(b, &rng, max, holes, NULL), max);
    tx_fastboard_play(b, holes[0]);
    ck_assert_int_eq(b->winner, 0);
    tx_geometry_free(geo);
}
END_TEST

/* ---- openings and Double TwixT ---- */

/* The moves of the other seats, as a referee's other bots might answer:
 * swap 1 or 0 answers the swap or the pie at move 2 so (-1: at random);
 * choose is the choice after a cut (0: at random). */
struct script {
    int swap;
    int choose;
};

/* A random legal answer of the seat to move in g (script says the
 * decisions): a random cut, linked half the time when it can be; a random
 * hole, in Double TwixT with privilege one time in six when the game
 * allows it. The cut's link goes in *edit. */
static void random_answer(const struct tx_game *g, uint64_t *s, const struct script *sc,
                          struct tx_move *m, struct tx_edit *edit)
{
    const struct tx_geometry *geo = g->geo;
    static int16_t moves[TX_MOVES_MAX];
    *m = (struct tx_move){.move = -1, .cut = {-1, -1, -1}, .edits = edit};
    if (g->phase == TX_PHASE_CUT) {
        do {
            for (int i = 0; i < 3; i++)
                m->cut[i] = (int)(rng_next(s) % (uint64_t)geo->holes);
            m->move = TX_MOVE_CUT;
            m->nedits = tx_geometry_link(geo, m->cut[0], m->cut[1]) >= 0 && rng_next(s) % 2;
            *edit = edit_of(geo, '+', m->cut[0], m->cut[1]);
        } while (tx_game_check_answer(g, m, NULL) != TX_LEGAL);
        return;
    }
    if (g->phase == TX_PHASE_CHOOSE) {
        m->move = sc->choose        ? sc->choose
                  : rng_next(s) % 2 ? TX_MOVE_CHOOSE_RED
                                    : TX_MOVE_CHOOSE_BLACK;
        return;
    }
    int n = tx_game_legal_moves(g, moves);
    ck_assert_int_gt(n, 0);
    if (moves[0] == TX_MOVE_SWAP) {
        if (sc->swap < 0 ? rng_next(s) % 2 == 1 : sc->swap == 1) {
            m->move = TX_MOVE_SWAP;
            return;
        }
        moves[0] = moves[--n];
        ck_assert_int_gt(n, 0);
    }
    m->move = moves[rng_next(s) % (uint64_t)n];
    if (g->seats == 4 && rng_next(s) % 6 == 0) {
        m->privilege = true;
        m->privilege = tx_game_check_answer(g, m, NULL) == TX_LEGAL;
    }
}

/* "pp 12 x 12 pie teams", for messages. */
static const char *opening_name(const struct tx_variant *v)
{
    static char name[64];
    snprintf(name, sizeof name, "%s %d x %d %s%s", tx_ruleset(v->rules)->name, v->width, v->height,
             tx_opening_rule_name(v->opening), v->teams ? " teams" : "");
    return name;
}

/* Reads line as an answer in g under v; it must be a move and legal there
 * (tx_game_check_answer: privilege included, which the game counts per
 * team). Returns the parsed answer (static) and the move in *m. */
static const struct tx_answer *check_variant_answer(enum which w, const struct tx_game *g,
                                                    const struct tx_variant *v, const char *line,
                                                    struct tx_move *m)
{
    static struct tx_answer ans;
    ck_assert_msg(tx_answer_parse_variant(g->geo, v, line, strlen(line), &ans) == 0,
                  "%s, move %d (%s): \"%s\" is not a move: %s", bot_names[w], g->nmoves + 1,
                  opening_name(v), line, ans.reason);
    ck_assert_msg(!ans.message_cut, "%s: message longer than 20 characters: \"%s\"", bot_names[w],
                  line);
    tx_answer_move(&ans, m);
    struct tx_edit_fault fault;
    enum tx_illegal why = tx_game_check_answer(g, m, &fault);
    char reason[160] = "";
    if (why != TX_LEGAL)
        tx_answer_describe(g, m, why, &fault, reason, sizeof reason);
    ck_assert_msg(why == TX_LEGAL, "%s, move %d (%s): illegal answer \"%s\": %s", bot_names[w],
                  g->nmoves + 1, opening_name(v), line, reason);
    return &ans;
}

/* A game under an opening: the bot under test in the seats of `bots` (bit
 * s: seat s; one process a seat), the test in the others (random_answer,
 * its decisions by script). */
struct opening_case {
    struct tx_variant v;
    unsigned bots;
    struct script script;
};

/* What play_opening_game saw the bots do. */
struct opening_stats {
    int answers, privileges, swaps, cuts, chooses;
    bool won; /* the bots' side won */
};

/* Plays c until it ends or the bots gave max_answers answers; every answer
 * must be legal in the game as the referee holds it, every input is the
 * one the referee writes (tx_input_write, FIRST on a red seat's first). */
static void play_opening_game(enum which w, const struct opening_case *c, uint64_t seed,
                              int max_answers, struct opening_stats *st)
{
    static char store[TX_SEATS_MAX][8][256];
    char *argv[TX_SEATS_MAX][9], line[TX_ANSWER_LINE_MAX + 1];
    struct tx_geometry *geo;
    static struct tx_game *g;
    struct bot b[TX_SEATS_MAX];
    bool first[TX_SEATS_MAX];
    uint64_t s = seed * 0x9e3779b97f4a7c15ULL | 1;
    int seats = c->v.teams ? 4 : 2;

    memset(st, 0, sizeof *st);
    ck_assert_int_eq(tx_geometry_new(c->v.width, c->v.height, &geo), 0);
    g = tx_xrealloc(g, tx_game_size(geo));
    tx_game_start(g, geo, &c->v);
    for (int seat = 0; seat < seats; seat++) {
        first[seat] = true;
        if (c->bots >> seat & 1) {
            bot_argv(w, 20, store[seat], argv[seat]);
            if (w < STARTER_PY) { /* a seed of each game and seat (the last --seed counts) */
                int n = 0;
                while (argv[seat][n])
                    n++;
                snprintf(store[seat][n], 256, "--seed");
                snprintf(store[seat][n + 1], 256, "%d", (int)(seed * 4) + seat);
                argv[seat][n] = store[seat][n];
                argv[seat][n + 1] = store[seat][n + 1];
                argv[seat][n + 2] = NULL;
            }
            bot_start_in(&b[seat], argv[seat], &c->v);
        }
    }
    while (g->status == TX_ONGOING && st->answers < max_answers) {
        int seat = g->seat;
        struct tx_move m;
        struct tx_edit edit;
        bool is_first = first[seat];
        first[seat] = false;
        if (!(c->bots >> seat & 1)) {
            random_answer(g, &s, &c->script, &m, &edit);
            ck_assert_int_eq(tx_game_apply(g, &m, NULL), TX_LEGAL);
            continue;
        }
        bot_ask(&b[seat], input_of(g, is_first), line, sizeof line);
        check_variant_answer(w, g, &c->v, line, &m);
        st->answers++;
        st->privileges += m.privilege;
        st->swaps += m.move == TX_MOVE_SWAP;
        st->cuts += m.move == TX_MOVE_CUT;
        st->chooses += m.move == TX_MOVE_CHOOSE_RED || m.move == TX_MOVE_CHOOSE_BLACK;
        ck_assert_int_eq(tx_game_apply(g, &m, NULL), TX_LEGAL);
        if (g->status == TX_WON)
            st->won = g->winner == tx_game_seat_colour(g, seat);
    }
    for (int seat = 0; seat < seats; seat++)
        if (c->bots >> seat & 1)
            bot_finish(&b[seat]);
    tx_geometry_free(geo);
}

#define PP12(opening_, teams_)                                                                     \
    {                                                                                              \
        .rules = TX_RULES_PP, .width = 12, .height = 12, .opening = opening_, .teams = teams_      \
    }

/* Every opening, each side of it, the decisions of the other side each
 * way, and Double TwixT with the bot in either team (both partners). */
static const struct opening_case opening_cases[] = {
    {PP12(TX_OPENING_PIE, false), 1, {.swap = 1}},  /* its peg taken: it plays black */
    {PP12(TX_OPENING_PIE, false), 1, {.swap = 0}},  /* pie declined */
    {PP12(TX_OPENING_PIE, false), 2, {.swap = -1}}, /* it decides */
    {{.rules = TX_RULES_CLASSIC, .width = 16, .height = 10, .opening = TX_OPENING_PIE}, 2, {-1, 0}},
    {{.rules = TX_RULES_CLASSIC, .width = 10, .height = 16, .opening = TX_OPENING_PIE}, 1, {1, 0}},
    {PP12(TX_OPENING_CUT, false), 1, {.choose = TX_MOVE_CHOOSE_RED}}, /* it cuts, plays black */
    {PP12(TX_OPENING_CUT, false), 1, {.choose = TX_MOVE_CHOOSE_BLACK}},
    {PP12(TX_OPENING_CUT, false), 2, {0, 0}}, /* it chooses */
    {{.rules = TX_RULES_CLASSIC, .width = 30, .height = 24, .opening = TX_OPENING_CUT}, 1, {0, 0}},
    {{.rules = TX_RULES_CLASSIC, .width = 30, .height = 24, .opening = TX_OPENING_CUT}, 2, {0, 0}},
    {PP12(TX_OPENING_NONE, false), 1, {0, 0}},
    {PP12(TX_OPENING_NONE, false), 2, {0, 0}},
    {PP12(TX_OPENING_SWAP, true), 5, {-1, 0}}, /* seats 0 and 2: red, the first move */
    {PP12(TX_OPENING_SWAP, true), 10, {-1, 0}},
    {PP12(TX_OPENING_PIE, true), 5, {.swap = 1}}, /* its team's peg taken */
    {PP12(TX_OPENING_PIE, true), 10, {-1, 0}},    /* its team decides */
    {PP12(TX_OPENING_CUT, true), 5, {.choose = TX_MOVE_CHOOSE_RED}},
    {PP12(TX_OPENING_CUT, true), 10, {0, 0}},
    {PP12(TX_OPENING_NONE, true), 5, {0, 0}},
    {PP12(TX_OPENING_NONE, true), 10, {0, 0}},
    {{.rules = TX_RULES_CLASSIC,
      .width = 12,
      .height = 12,
      .opening = TX_OPENING_PIE,
      .teams = true},
     10,
     {-1, 0}},
};
#define NOPENING_CASES ((int)(sizeof opening_cases / sizeof opening_cases[0]))

/* Every bot and starter answers legally in every case above, 30 answers a
 * game; twixt-random (--privilege-prob 0.1) calls privilege in games of
 * teams, and the decisions are its: the cutter cuts, the chooser chooses,
 * the pie is taken sometimes. */
START_TEST(opening_games_legal)
{
    signal(SIGPIPE, SIG_IGN);
    enum which w = (enum which)_i;
    if (w == STARTER_C)
        ck_assert_msg(starter_c_exe[0], "cc could not compile bots/starter.c");
    struct opening_stats total = {0};
    for (int i = 0; i < NOPENING_CASES; i++) {
        const struct opening_case *c = &opening_cases[i];
        for (uint64_t seed = 1; seed <= 2; seed++) {
            struct opening_stats st;
            play_opening_game(w, c, seed + (uint64_t)i * 7, 30, &st);
            if (c->v.opening == TX_OPENING_CUT)
                ck_assert_int_eq(st.cuts + st.chooses, 1); /* its seat's first answer */
            total.privileges += st.privileges;
            total.swaps += st.swaps;
        }
    }
    fprintf(stderr, "%s: %d privileges, %d swaps in the opening games\n", bot_names[w],
            total.privileges, total.swaps);
    if (w == RANDOM)
        ck_assert_int_gt(total.privileges, 0);
    if (w != BLOCKER && w != CROSSER)
        ck_assert_int_gt(total.swaps, 0); /* the pie taken at least once */
}
END_TEST

/* The opening comes from --opening, else from TWIXT_OPENING: told cut,
 * each bundled bot answers the empty board with a CUT; told none by its
 * option, it plays a hole whatever the environment says. */
START_TEST(opening_from_options_or_environment)
{
    signal(SIGPIPE, SIG_IGN);
    static const char empty[] = "FIRST\n0\n0\n0\n0\n";
    const struct tx_variant cut = PP12(TX_OPENING_CUT, false);
    char line[TX_ANSWER_LINE_MAX + 1];
    for (enum which w = RANDOM; w <= BLOCKER; w++) {
        char path[512];
        snprintf(path, sizeof(path), "%s/bots/%s", getenv("TX_BUILD_DIR"), bot_names[w]);
        char *by_option[] = {path, (char *)"--opening", (char *)"cut", NULL};
        char *by_env[] = {path, NULL};
        char *overridden[] = {path, (char *)"--opening=none", NULL};
        struct {
            char **argv;
            const struct tx_variant *env;
            bool cuts;
        } ways[] = {{by_option, NULL, true}, {by_env, &cut, true}, {overridden, &cut, false}};
        for (size_t i = 0; i < sizeof ways / sizeof ways[0]; i++) {
            struct bot b;
            bot_start_in(&b, ways[i].argv, ways[i].env);
            bot_ask(&b, empty, line, sizeof line);
            ck_assert_msg((strncmp(line, "CUT ", 4) == 0) == ways[i].cuts, "%s, way %d: \"%s\"",
                          bot_names[w], (int)i, line);
            bot_finish(&b);
        }
    }
}
END_TEST

/* The defend enhancement (mcts.c defends): on a board over 16 x 16 up to
 * 26 x 26 the lookahead plays the turns where greedy's evaluation says the
 * opponent leads by more than its extra pegs are worth, the tree the
 * others; not with --no-defend, nor on 12 x 12, nor on a board over
 * 26 x 26 with --no-lookahead (the tree plays every turn there). The
 * positions: player 0 a chain of knight steps down the middle and player 1
 * pegs along its own border column, either to move (CHAIN_BEHIND: player 1;
 * CHAIN_AHEAD: player 0); or player 1 to move against a lone first peg
 * near player 0's border row (LONE_PEG: behind by that peg only). */
enum defend_position { CHAIN_BEHIND, CHAIN_AHEAD, LONE_PEG };
static const struct {
    int size;
    enum defend_position position;
    bool defend, lookahead;
    bool by_lookahead; /* the move is the lookahead's */
} defends[] = {
    {24, CHAIN_BEHIND, true, true, true},   {24, CHAIN_BEHIND, false, true, false},
    {24, CHAIN_AHEAD, true, true, false},   {24, LONE_PEG, true, true, false},
    {26, CHAIN_BEHIND, true, true, true},   {12, CHAIN_BEHIND, true, true, false},
    {30, CHAIN_BEHIND, true, false, false},
};

START_TEST(mcts_defends_by_lookahead)
{
    struct tx_geometry *geo = NULL;
    static struct tx_fastboard *b;
    int size = defends[_i].size, pegs = size / 2 - 2;
    enum defend_position pos = defends[_i].position;
    ck_assert_int_eq(tx_geometry_new(size, size, &geo), 0);
    test_board(&b, geo);
    if (pos == LONE_PEG)
        tx_fastboard_play(b, tx_geometry_hole(geo, size - 3, 4));
    else
        for (int i = 0; i < pegs; i++) {
            tx_fastboard_play(b, tx_geometry_hole(geo, size / 2 - 1 + i % 2, 2 + 2 * i));
            if (i < pegs - 1 || pos == CHAIN_AHEAD)
                tx_fastboard_play(b, tx_geometry_hole(geo, 1, 2 + 2 * i));
        }
    ck_assert_int_eq(b->to_move, pos == CHAIN_AHEAD ? 0 : 1);
    int lead = -tx_eval_position(b, 1); /* player 0's: the lone peg's only, else over a peg */
    ck_assert_int_gt(lead, 0);
    ck_assert_int_eq(lead > 64, pos != LONE_PEG);

    struct tx_mcts_features f;
    tx_mcts_features_default(&f);
    f.defend = defends[_i].defend;
    f.lookahead = defends[_i].lookahead;
    struct tx_mcts *m = tx_mcts_new(geo, 7, 1 << 18);
    tx_mcts_set_features(m, &f);
    int last[2] = {-1, -1};
    struct tx_mcts_stats st;
    int move = tx_mcts_search(m, b, last, INT64_MAX, 40, &st);
    ck_assert(move >= 0 && tx_fastboard_can_play(b, b->to_move, move));
    ck_assert_msg((st.lookahead_depth > 0) == defends[_i].by_lookahead,
                  "%d x %d, position %d, defend %d, lookahead %d: lookahead depth %d", size, size,
                  (int)pos, defends[_i].defend, defends[_i].lookahead, st.lookahead_depth);
    tx_mcts_free(m);
    tx_geometry_free(geo);
}
END_TEST

/* The edge peg enhancement (mcts.c lone_edge_peg): on a board over
 * 16 x 16, with player 0's single peg nearer an edge than the ring the bots
 * open on (tx_eval_near_edge), player 1's single peg in the centre and
 * player 0 to move, tx_mcts_search plays the move it finds on the board
 * without player 0's peg; not with --no-edge-peg, nor with the peg on the
 * ring, nor on 12 x 12. Every search has the same seed and a cap of
 * playouts, so that a position gives the same move each time, and each
 * case's position is one where the two boards' moves differ. */
static const struct {
    int size;
    enum tx_rules rules;
    const char *peg; /* player 0's */
    bool edge_peg;   /* the feature */
    bool ghost;      /* the move is the one found without the peg */
} edge_pegs[] = {
    {24, TX_RULES_PP, "F3", true, true},       {24, TX_RULES_PP, "F3", false, false},
    {26, TX_RULES_CLASSIC, "C26", true, true}, {26, TX_RULES_CLASSIC, "X11", true, true},
    {24, TX_RULES_PP, "G19", true, false},     {12, TX_RULES_PP, "E2", true, false},
};

static int edge_peg_search(const struct tx_fastboard *b, bool edge_peg, bool *left_out)
{
    struct tx_mcts_features f;
    tx_mcts_features_default(&f);
    f.edge_peg = edge_peg;
    struct tx_mcts *m = tx_mcts_new(b->geo, 7, 1 << 18);
    tx_mcts_set_features(m, &f);
    int last[2] = {-1, -1};
    struct tx_mcts_stats st;
    int move = tx_mcts_search(m, b, last, INT64_MAX, 400, &st);
    ck_assert(move >= 0 && tx_fastboard_can_play(b, b->to_move, move));
    tx_mcts_free(m);
    *left_out = st.left_out;
    return move;
}

START_TEST(mcts_leaves_out_a_lone_edge_peg)
{
    struct tx_geometry *geo = NULL;
    static struct tx_fastboard *b, *ghost;
    int size = edge_pegs[_i].size, peg;
    ck_assert_int_eq(tx_geometry_new(size, size, &geo), 0);
    ck_assert_int_eq(tx_hole_parse(geo, edge_pegs[_i].peg, strlen(edge_pegs[_i].peg), &peg),
                     TX_HOLE_OK);
    ck_assert_int_eq(tx_eval_near_edge(geo, peg), strcmp(edge_pegs[_i].peg, "G19") != 0);
    int centre = tx_geometry_hole(geo, size / 2, size / 2);
    test_board_under(&b, geo, edge_pegs[_i].rules);
    tx_fastboard_play(b, peg);
    tx_fastboard_play(b, centre);
    test_board_under(&ghost, geo, edge_pegs[_i].rules);
    ghost->to_move = 1;
    tx_fastboard_play(ghost, centre);
    ck_assert_int_eq(ghost->to_move, 0);

    bool left_out;
    int with_peg = edge_peg_search(b, false, &left_out),
        without = edge_peg_search(ghost, true, &left_out);
    ck_assert_msg(with_peg != without, "%s: the same move %d with and without the peg",
                  edge_pegs[_i].peg, with_peg);
    int move = edge_peg_search(b, edge_pegs[_i].edge_peg, &left_out),
        want = edge_pegs[_i].ghost ? without : with_peg;
    ck_assert_int_eq(move, want);
    ck_assert_int_eq(left_out, edge_pegs[_i].ghost); /* and the bot's stderr says so */
    tx_geometry_free(geo);
}
END_TEST

/* twixt-mcts declines the swap and the pie of a central peg on a square
 * board over 16 x 16 (mcts.h, decline_swap: it answers with a move), and
 * takes the peg with --no-decline-swap there and by default on 12 x 12, as
 * the shared rule of openings.h says. */
static const struct {
    int size;
    enum tx_opening_rule opening;
    bool switched_off; /* --no-decline-swap */
    bool swaps;
} declines[] = {
    {12, TX_OPENING_SWAP, false, true},  {12, TX_OPENING_PIE, false, true},
    {24, TX_OPENING_SWAP, false, false}, {24, TX_OPENING_SWAP, true, true},
    {24, TX_OPENING_PIE, false, false},  {24, TX_OPENING_PIE, true, true},
    {36, TX_OPENING_SWAP, false, false}, {36, TX_OPENING_SWAP, true, true},
};

START_TEST(mcts_declines_swap_on_big_boards)
{
    signal(SIGPIPE, SIG_IGN);
    struct tx_variant v = {.rules = TX_RULES_PP,
                           .width = declines[_i].size,
                           .height = declines[_i].size,
                           .opening = declines[_i].opening};
    struct tx_geometry *geo;
    ck_assert_int_eq(tx_geometry_new(v.width, v.height, &geo), 0);
    struct tx_game *g = tx_xmalloc(tx_game_size(geo));
    tx_game_start(g, geo, &v);
    int centre = tx_geometry_hole(geo, v.width / 2, v.height / 2);
    ck_assert(tx_eval_should_swap(geo, centre));
    ck_assert_int_eq(tx_game_play(g, centre), TX_LEGAL);

    char store[8][256], *argv[10], line[TX_ANSWER_LINE_MAX + 1];
    bot_argv(MCTS, MCTS_MS, store, argv);
    if (declines[_i].switched_off) {
        int n = 0;
        while (argv[n])
            n++;
        argv[n++] = (char *)"--no-decline-swap";
        argv[n] = NULL;
    }
    struct bot b;
    bot_start_in(&b, argv, &v);
    bot_ask(&b, input_of(g, true), line, sizeof line);
    const struct tx_answer *ans = check_answer(MCTS, g, line, "the swap turn");
    ck_assert_msg((ans->move == TX_MOVE_SWAP) == declines[_i].swaps,
                  "%d x %d, %s%s: answered \"%s\"", v.width, v.height,
                  tx_opening_rule_name(v.opening),
                  declines[_i].switched_off ? ", switched off" : "", line);
    bot_finish(&b);
    free(g);
    tx_geometry_free(geo);
}
END_TEST

/* twixt-greedy calls privilege in games of teams it plays to the end: when
 * after its move either side is one peg from connecting. */
START_TEST(greedy_calls_privilege)
{
    signal(SIGPIPE, SIG_IGN);
    int privileges = 0, games = 0;
    for (uint64_t seed = 1; seed <= 4; seed++) {
        static const struct opening_case c[] = {{PP12(TX_OPENING_SWAP, true), 5, {-1, 0}},
                                                {PP12(TX_OPENING_NONE, true), 10, {0, 0}}};
        struct opening_stats st;
        play_opening_game(GREEDY, &c[seed % 2], seed, 1000, &st);
        ck_assert_int_le(st.privileges, 1);
        privileges += st.privileges;
        games++;
    }
    ck_assert_msg(privileges >= 2, "privilege called in %d of %d games", privileges, games);
}
END_TEST

/* Plays answers (as bots write them) from the start of a game of v, each
 * seat reading its input and answering through a side tracker as botio
 * does, then gives the next seat its input. Returns that seat; its tracker
 * in side[seat], its input's first line in first_line. */
static int play_script(const struct tx_variant *v, const char *const *answers,
                       struct tx_botio_side side[TX_SEATS_MAX], char *first_line, size_t cap,
                       struct tx_game **gp)
{
    struct tx_geometry *geo;
    static struct tx_input in;
    bool first[TX_SEATS_MAX] = {true, true, true, true};
    ck_assert_int_eq(tx_geometry_new(v->width, v->height, &geo), 0);
    struct tx_game *g = tx_xmalloc(tx_game_size(geo)), *r = tx_xmalloc(tx_game_size(geo));
    tx_game_start(g, geo, v);
    for (int s = 0; s < TX_SEATS_MAX; s++)
        tx_botio_side_init(&side[s]);
    for (int i = 0;; i++) {
        int seat = g->seat;
        const char *text = input_of(g, first[seat]);
        first[seat] = false;
        ck_assert_int_eq(tx_input_parse(geo, text, strlen(text), &in, NULL, 0), 0);
        tx_botio_side_input(&side[seat], v, &in);
        ck_assert_msg(side[seat].colour == tx_game_seat_colour(g, seat),
                      "seat %d at move %d reads \"%.*s\": colour %d, plays %d", seat, g->nmoves + 1,
                      (int)strcspn(text, "\n"), text, side[seat].colour,
                      tx_game_seat_colour(g, seat));
        ck_assert_int_eq(tx_game_from_input_variant(r, geo, v, &in, side[seat].colour), 0);
        if (!answers[i]) {
            snprintf(first_line, cap, "%.*s", (int)strcspn(text, "\n"), text);
            free(r);
            *gp = g;
            return seat;
        }
        struct tx_answer a;
        struct tx_move m;
        ck_assert_int_eq(tx_answer_parse_variant(geo, v, answers[i], strlen(answers[i]), &a), 0);
        tx_answer_move(&a, &m);
        tx_botio_side_answer(&side[seat], r, &m);
        ck_assert_int_eq(tx_game_apply(g, &m, NULL), TX_LEGAL);
    }
}

/* The input after an exchange (RULES.md "Openings"): who reads what, and
 * the side it plays from then on. Null-terminated answers. */
static const struct {
    struct tx_variant v;
    const char *answers[8];
    const char *line; /* the reader's first line */
    int colour;       /* the side it plays */
} exchanges[] = {
    {PP12(TX_OPENING_PIE, false), {"F6", "SWAP"}, "SWAP", 1}, /* player 1 now black */
    {PP12(TX_OPENING_PIE, false), {"F6", "SWAP", "E8"}, "E8", 0},
    {PP12(TX_OPENING_SWAP, false), {"F6", "SWAP"}, "SWAP", 0}, /* the mirror: still red */
    {PP12(TX_OPENING_CUT, false), {"CUT D4 E6 H8 +D4:E6"}, "CUT", 1},
    {PP12(TX_OPENING_CUT, false), {"CUT D4 E6 H8", "CHOOSE 1"}, "CHOOSE 1", 1},
    {PP12(TX_OPENING_CUT, false), {"CUT D4 E6 H8", "CHOOSE 1", "G7"}, "G7", 0},
    {PP12(TX_OPENING_CUT, false), {"CUT D4 E6 H8", "CHOOSE 2"}, "CHOOSE 2", 1},
    {PP12(TX_OPENING_CUT, false), {"CUT D4 E6 H8", "CHOOSE 2", "G7"}, "G7", 0},
    /* Teams: the partner that moves next hears of the pie; the first bot
     * sees its peg listed as the other team's. */
    {PP12(TX_OPENING_PIE, true), {"F6", "SWAP"}, "SWAP", 1},
    {PP12(TX_OPENING_PIE, true), {"F6", "SWAP", "B5"}, "FIRST", 0},
    {PP12(TX_OPENING_PIE, true), {"F6", "SWAP", "B5", "E9"}, "E9", 1},
    {PP12(TX_OPENING_CUT, true), {"CUT D4 E6 H8", "CHOOSE 1"}, "CHOOSE 1", 1},
    {PP12(TX_OPENING_CUT, true), {"CUT D4 E6 H8", "CHOOSE 1", "B5", "E9"}, "E9", 1},
    {PP12(TX_OPENING_CUT, true), {"CUT D4 E6 H8", "CHOOSE 2"}, "CHOOSE 2", 1},
    {PP12(TX_OPENING_CUT, true), {"CUT D4 E6 H8", "CHOOSE 2", "B5"}, "FIRST", 0},
};

START_TEST(side_after_an_exchange)
{
    struct tx_botio_side side[TX_SEATS_MAX];
    struct tx_game *g;
    char line[32];
    int seat = play_script(&exchanges[_i].v, exchanges[_i].answers, side, line, sizeof line, &g);
    ck_assert_str_eq(line, exchanges[_i].line);
    ck_assert_int_eq(side[seat].colour, exchanges[_i].colour);
    free((void *)g->geo);
    free(g);
}
END_TEST

/* What a bot knows of its team's privilege (the input does not say): the
 * reader after these answers. */
static const struct {
    struct tx_variant v;
    const char *answers[12];
    bool used;
} privileges[] = {
    {PP12(TX_OPENING_NONE, true), {"F6", "G5", "E8", "H5"}, false},
    {PP12(TX_OPENING_NONE, true), {"F6", "G5", "E8 !privilege"}, true}, /* its partner's */
    {PP12(TX_OPENING_NONE, true), {"F6 !privilege"}, true},             /* before its first */
    {PP12(TX_OPENING_NONE, true), {"F6", "G5 !privilege"}, true},
    {PP12(TX_OPENING_NONE, true), {"F6", "G5 !privilege", "H7"}, false}, /* the other team's */
    {PP12(TX_OPENING_NONE, true), {"F6 !privilege", "E8", "G5"}, true},  /* its own */
    /* One team's at move 2 skips the other's second bot, then the other's:
     * that bot's first input looks like none were called, but comes late. */
    {PP12(TX_OPENING_SWAP, true), {"I10", "G7 !privilege", "I5", "G1 !privilege"}, true},
    {PP12(TX_OPENING_SWAP, true), {"I10", "G7 !privilege", "I5", "G1", "C5"}, false},
    /* Both teams between two of its turns: its turn skipped. */
    {PP12(TX_OPENING_NONE, true), {"F6", "G5", "E8", "H5 !privilege", "J5", "E4 !privilege"}, true},
    {PP12(TX_OPENING_NONE, true), {"F6", "G5", "E8", "H5 !privilege", "J5", "E4", "C5"}, false},
    {PP12(TX_OPENING_SWAP, true), {"F6", "G5", "E8 !privilege"}, true},
    {PP12(TX_OPENING_SWAP, true), {"F6", "G5", "E8", "H5"}, false},
    {PP12(TX_OPENING_PIE, true), {"F6", "SWAP", "B5 !privilege"}, true},
    {PP12(TX_OPENING_CUT, true), {"CUT D4 E6 H8", "CHOOSE 2", "B5", "E9 !privilege"}, true},
    /* The cutter's next input follows the cut and the choice: it cannot
     * tell none from both teams', and counts it as called; its partner
     * and the other team can tell. */
    {PP12(TX_OPENING_CUT, true), {"CUT D4 E6 H8", "CHOOSE 2", "B5", "E9", "C7"}, true},
    {PP12(TX_OPENING_CUT, true), {"CUT D4 E6 H8", "CHOOSE 2", "B5", "E9", "C7", "J9"}, false},
    {PP12(TX_OPENING_CUT, true), {"CUT D4 E6 H8", "CHOOSE 2", "B5", "E9", "C7", "J9", "D9"}, false},
};

START_TEST(privilege_known_to_the_team)
{
    struct tx_botio_side side[TX_SEATS_MAX];
    struct tx_game *g;
    char line[32];
    int seat = play_script(&privileges[_i].v, privileges[_i].answers, side, line, sizeof line, &g);
    bool called = (g->privileged >> (seat & 1)) & 1;
    ck_assert_msg(!called || side[seat].privilege_used, "seat %d misses its team's privilege",
                  seat);
    ck_assert_msg(side[seat].privilege_used == privileges[_i].used,
                  "seat %d: privilege used %d, expected %d", seat, side[seat].privilege_used,
                  privileges[_i].used);
    free((void *)g->geo);
    free(g);
}
END_TEST

/* The moves of g ("0:F6 1:SWAP 2:E8! ..."; seat, move, ! for privilege),
 * for messages. */
static const char *moves_text(const struct tx_game *g)
{
    static char text[2048];
    size_t n = 0;
    text[0] = '\0';
    for (int i = 0; i < g->nmoves && n + 32 < sizeof text; i++) {
        int move = tx_game_move(g, i), info = tx_game_info(g, i);
        char name[TX_HOLE_NAME_MAX];
        const char *what = move == TX_MOVE_SWAP           ? "SWAP"
                           : move == TX_MOVE_CHOOSE_RED   ? "CHOOSE1"
                           : move == TX_MOVE_CHOOSE_BLACK ? "CHOOSE2"
                                                          : tx_hole_name(g->geo, move, name);
        bool privileged =
            i + 1 < g->nmoves && g->seats == 4 &&
            ((tx_game_info(g, i + 1) & TX_INFO_SEAT) & 1) == ((info & TX_INFO_SEAT) & 1) &&
            !(info & TX_INFO_CUT) && !(tx_game_info(g, i + 1) & TX_INFO_CUT);
        n += (size_t)snprintf(text + n, sizeof text - n, "%d:%s%s ", info & TX_INFO_SEAT, what,
                              privileged ? "!" : "");
    }
    return text;
}

/* In random games of every opening, with and without teams, every seat
 * knows its side at every input, and a team that called privilege always
 * knows (it never calls twice); most of the time one that did not knows
 * it may. */
START_TEST(sides_and_privilege_in_random_games)
{
    static struct tx_input in;
    static const struct script any = {-1, 0};
    int left = 0, unused = 0;
    for (int opening = 0; opening < TX_OPENING_COUNT; opening++) {
        for (int teams = 0; teams < 2; teams++) {
            struct tx_variant v = PP12((enum tx_opening_rule)opening, teams);
            struct tx_geometry *geo;
            ck_assert_int_eq(tx_geometry_new(v.width, v.height, &geo), 0);
            struct tx_game *g = tx_xmalloc(tx_game_size(geo)), *r = tx_xmalloc(tx_game_size(geo));
            for (uint64_t seed = 1; seed <= (teams ? 200 : 40); seed++) {
                struct tx_botio_side side[TX_SEATS_MAX];
                bool first[TX_SEATS_MAX] = {true, true, true, true};
                uint64_t s = seed * 0x2545f4914f6cdd1dULL | 1;
                tx_game_start(g, geo, &v);
                for (int i = 0; i < TX_SEATS_MAX; i++)
                    tx_botio_side_init(&side[i]);
                while (g->status == TX_ONGOING) {
                    int seat = g->seat;
                    const char *text = input_of(g, first[seat]);
                    first[seat] = false;
                    ck_assert_int_eq(tx_input_parse(geo, text, strlen(text), &in, NULL, 0), 0);
                    tx_botio_side_input(&side[seat], &v, &in);
                    ck_assert_msg(side[seat].colour == tx_game_seat_colour(g, seat),
                                  "%s seed %d: seat %d at move %d: colour %d, plays %d",
                                  opening_name(&v), (int)seed, seat, g->nmoves + 1,
                                  side[seat].colour, tx_game_seat_colour(g, seat));
                    ck_assert_msg(tx_game_from_input_variant(r, geo, &v, &in, side[seat].colour) ==
                                      0,
                                  "%s seed %d: seat %d cannot rebuild move %d: %s",
                                  opening_name(&v), (int)seed, seat, g->nmoves + 1, moves_text(g));
                    /* The rebuilt position asks what the game asks: the
                     * same phase, SWAP legal or not, privilege too early or
                     * not. */
                    ck_assert_int_eq(r->phase, g->phase);
                    ck_assert_msg((tx_game_check(r, TX_MOVE_SWAP) == TX_LEGAL) ==
                                      (tx_game_check(g, TX_MOVE_SWAP) == TX_LEGAL),
                                  "%s seed %d: seat %d at move %d: SWAP legal differs: %s",
                                  opening_name(&v), (int)seed, seat, g->nmoves + 1, moves_text(g));
                    if (teams && g->phase == TX_PHASE_PLAY &&
                        !((g->privileged >> (seat & 1)) & 1)) {
                        int16_t list[TX_MOVES_MAX];
                        int n = tx_game_legal_moves(g, list);
                        struct tx_move hole = {.move = list[n - 1], .privilege = true};
                        ck_assert_msg((tx_game_check_answer(r, &hole, NULL) == TX_LEGAL) ==
                                          (tx_game_check_answer(g, &hole, NULL) == TX_LEGAL),
                                      "%s seed %d: seat %d at move %d: privilege differs: %s",
                                      opening_name(&v), (int)seed, seat, g->nmoves + 1,
                                      moves_text(g));
                    }
                    if ((g->privileged >> (seat & 1)) & 1)
                        ck_assert_msg(side[seat].privilege_used,
                                      "%s seed %d: seat %d at move %d misses its team's "
                                      "privilege: %s",
                                      opening_name(&v), (int)seed, seat, g->nmoves + 1,
                                      moves_text(g));
                    else if (teams) {
                        unused++;
                        left += !side[seat].privilege_used;
                    }
                    struct tx_move m;
                    struct tx_edit edit;
                    random_answer(g, &s, &any, &m, &edit);
                    tx_botio_side_answer(&side[seat], r, &m);
                    ck_assert_int_eq(tx_game_apply(g, &m, NULL), TX_LEGAL);
                }
            }
            free(g);
            free(r);
            tx_geometry_free(geo);
        }
    }
    /* How often a bot whose team had not called knew it might. */
    fprintf(stderr, "privilege left known at %d of %d inputs of teams that had it\n", left, unused);
    ck_assert_int_gt(left * 2, unused);
}
END_TEST

/* The pie (openings.h): on a square board the central peg is taken, one
 * near an edge not; on a board that is not square the shorter side is. */
static const struct {
    int width, height;
    const char *first;
    bool swap;
} pies[] = {
    {12, 12, "F6", true},   {12, 12, "G7", true},  {12, 12, "B3", false},
    {12, 12, "K11", false}, {24, 24, "M12", true}, {16, 10, "H5", true}, /* red crosses 10 */
    {16, 10, "B2", true},   {10, 16, "E8", false},                       /* red crosses 16 */
};

START_TEST(pie_decision)
{
    struct tx_variant v = {.rules = TX_RULES_PP,
                           .width = pies[_i].width,
                           .height = pies[_i].height,
                           .opening = TX_OPENING_PIE};
    struct tx_geometry *geo;
    ck_assert_int_eq(tx_geometry_new(v.width, v.height, &geo), 0);
    struct tx_game *g = tx_xmalloc(tx_game_size(geo));
    tx_game_start(g, geo, &v);
    ck_assert_int_eq(tx_game_play(g, hole_at(geo, pies[_i].first)), TX_LEGAL);
    ck_assert_msg(tx_openings_pie_swap(g) == pies[_i].swap, "%dx%d %s: swap %d", v.width, v.height,
                  pies[_i].first, !pies[_i].swap);
    free(g);
    tx_geometry_free(geo);
}
END_TEST

/* The cut (openings.h) is legal on every board and under both rule sets,
 * and balanced on 12 x 12: black to move is within half a move of the
 * target, half a move behind. */
START_TEST(cut_is_legal_and_balanced)
{
    static const struct tx_variant boards[] = {
        {.rules = TX_RULES_PP, .width = 5, .height = 5, .opening = TX_OPENING_CUT},
        {.rules = TX_RULES_PP, .width = 12, .height = 12, .opening = TX_OPENING_CUT},
        {.rules = TX_RULES_CLASSIC, .width = 12, .height = 12, .opening = TX_OPENING_CUT},
        {.rules = TX_RULES_CLASSIC, .width = 30, .height = 24, .opening = TX_OPENING_CUT},
        {.rules = TX_RULES_PP, .width = 100, .height = 100, .opening = TX_OPENING_CUT},
    };
    struct tx_rng rng;
    tx_rng_seed(&rng, 5);
    for (size_t i = 0; i < sizeof boards / sizeof boards[0]; i++) {
        struct tx_geometry *geo;
        ck_assert_int_eq(tx_geometry_new(boards[i].width, boards[i].height, &geo), 0);
        struct tx_game *g = tx_xmalloc(tx_game_size(geo));
        struct tx_fastboard *b = tx_xmalloc(tx_fastboard_size(geo));
        for (int k = 0; k < 5; k++) {
            struct tx_botio_edits edits = {0};
            int cut[3] = {-1, -1, -1};
            tx_game_start(g, geo, &boards[i]);
            tx_openings_cut(g, &rng, cut, &edits);
            struct tx_move m = {.move = TX_MOVE_CUT,
                                .cut = {cut[0], cut[1], cut[2]},
                                .nedits = edits.n,
                                .edits = edits.list};
            ck_assert_int_eq(tx_game_apply(g, &m, NULL), TX_LEGAL);
            ck_assert_int_eq(g->phase, TX_PHASE_CHOOSE);
            tx_fastboard_from_game(b, g);
            if (boards[i].width == 12)
                ck_assert_int_le(abs(tx_eval_position(b, 1) + TX_OPENINGS_TEMPO),
                                 TX_OPENINGS_TEMPO);
        }
        free(b);
        free(g);
        tx_geometry_free(geo);
    }
}
END_TEST

/* The choice after a cut (openings.h): the side the evaluation prefers. */
static const struct {
    const char *cut;
    int choice;
} chooses[] = {
    {"CUT F5 G7 B11 +F5:G7", TX_MOVE_CHOOSE_RED}, /* red linked at the centre */
    {"CUT F6 G8 B6 +F6:G8", TX_MOVE_CHOOSE_RED},
    {"CUT K11 J12 G6", TX_MOVE_CHOOSE_BLACK}, /* red apart in a corner, black central */
    {"CUT B1 K12 F6", TX_MOVE_CHOOSE_BLACK},  /* red in opposite corners */
};

START_TEST(choose_the_better_side)
{
    struct tx_variant v = PP12(TX_OPENING_CUT, false);
    struct tx_geometry *geo;
    struct tx_rng rng;
    struct tx_answer a;
    struct tx_move m;
    tx_rng_seed(&rng, 3);
    ck_assert_int_eq(tx_geometry_new(12, 12, &geo), 0);
    struct tx_game *g = tx_xmalloc(tx_game_size(geo));
    tx_game_start(g, geo, &v);
    const char *cut = chooses[_i].cut;
    ck_assert_int_eq(tx_answer_parse_variant(geo, &v, cut, strlen(cut), &a), 0);
    tx_answer_move(&a, &m);
    ck_assert_int_eq(tx_game_apply(g, &m, NULL), TX_LEGAL);
    ck_assert_msg(tx_openings_choose(g, &rng) == chooses[_i].choice, "%s: the other side", cut);
    free(g);
    tx_geometry_free(geo);
}
END_TEST

/* Privilege is worth it (openings.h, in Double TwixT) when after the hole either side is one
 * peg from connecting, not in a quiet position. Red's chain F1-G3-F5-G7-F9
 * reaches row 9, black's A4-C5-E4-G5-I4-K5 column K; the others answer far
 * away. */
static const struct {
    const char *answers[14];
    const char *hole;
    bool worth;
} worths[] = {
    {{"F1", "B3", "G3", "B6", "F5", "C9", "G7", "J3", "F9", "J6"}, "G11", true}, /* red: 1 */
    {{"F1", "B3", "G3", "B6", "F5", "C9", "G7", "J3", "F9", "J6"}, "J8", false}, /* red: 2 */
    {{"F6", "B3"}, "G8", false},
    {{NULL}, "F6", false}, /* the first move: privilege is not allowed yet */
    {{"C10", "A4", "E10", "C5", "G10", "E4", "I10", "G5", "C8", "I4", "E8", "K5"}, "G8", true},
};

START_TEST(privilege_worth_it)
{
    struct tx_variant v = PP12(TX_OPENING_SWAP, true);
    struct tx_geometry *geo;
    ck_assert_int_eq(tx_geometry_new(12, 12, &geo), 0);
    struct tx_game *g = tx_xmalloc(tx_game_size(geo));
    tx_game_start(g, geo, &v);
    for (int i = 0; worths[_i].answers[i]; i++)
        ck_assert_int_eq(tx_game_play(g, hole_at(geo, worths[_i].answers[i])), TX_LEGAL);
    ck_assert_msg(tx_openings_privilege_worth(g, g->to_move, hole_at(geo, worths[_i].hole)) ==
                      worths[_i].worth,
                  "%s: worth %d", worths[_i].hole, !worths[_i].worth);
    free(g);
    tx_geometry_free(geo);
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

/* The boards and rule sets of the family the bots are tried on, beside
 * the pp square boards above: the smallest, CodinGame's, the two handicap
 * boards and the largest, under both rule sets. */
static const struct tx_variant family[] = {
    {.rules = TX_RULES_CLASSIC, .width = 5, .height = 5},
    {.rules = TX_RULES_PP, .width = 5, .height = 5},
    {.rules = TX_RULES_CLASSIC, .width = 12, .height = 12},
    {.rules = TX_RULES_CLASSIC, .width = 30, .height = 24},
    {.rules = TX_RULES_PP, .width = 30, .height = 24},
    {.rules = TX_RULES_CLASSIC, .width = 24, .height = 30},
    {.rules = TX_RULES_PP, .width = 24, .height = 30},
    {.rules = TX_RULES_CLASSIC, .width = 100, .height = 100},
    {.rules = TX_RULES_PP, .width = 100, .height = 100},
};
#define NFAMILY ((int)(sizeof(family) / sizeof(family[0])))

START_TEST(positions_on_every_board_legal)
{
    signal(SIGPIPE, SIG_IGN);
    enum which w = (enum which)_i;
    if (w == STARTER_C)
        ck_assert_msg(starter_c_exe[0], "cc could not compile bots/starter.c");
    for (int i = 0; i < NFAMILY; i++)
        check_positions_of(w, family[i]);
}
END_TEST

/* Games on every board of the family, each bot as player 1 on some and
 * player 2 on others: legal and within the turn's CPU limit at every
 * turn. Games stop after 60 answers of the bot (a blocked game on 30 x 24
 * lasts 700 moves), after 3 on 100 x 100. */
START_TEST(game_on_every_board_legal_and_on_time)
{
    signal(SIGPIPE, SIG_IGN);
    enum which w = (enum which)_i;
    if (w == STARTER_C)
        ck_assert_msg(starter_c_exe[0], "cc could not compile bots/starter.c");
    int64_t cpu[2] = {0, 0};
    for (int i = 0; i < NFAMILY; i++) {
        struct game_stats st;
        bool big = family[i].width * family[i].height > 30 * 30;
        play_variant_game(w, family[i], 20, i % 2 == 0, 41 + (uint64_t)i, big ? 3 : 60, &st);
        for (int t = 0; t < 2; t++)
            cpu[t] = st.slowest_cpu_us[t] > cpu[t] ? st.slowest_cpu_us[t] : cpu[t];
    }
    fprintf(stderr, "%s: most CPU for one answer: %.1f ms (first turn), %.1f ms (later)\n",
            bot_names[w], (double)cpu[0] / 1000, (double)cpu[1] / 1000);
}
END_TEST

/* twixt-random's classic games carry link edits of every kind, all legal
 * (play_variant_game checks each answer), and its pp games none. */
START_TEST(random_edits_happen_and_are_legal)
{
    signal(SIGPIPE, SIG_IGN);
    static const struct tx_variant boards[] = {
        {.rules = TX_RULES_CLASSIC, .width = 12, .height = 12},
        {.rules = TX_RULES_CLASSIC, .width = 30, .height = 24},
        {.rules = TX_RULES_CLASSIC, .width = 7, .height = 9}};
    int edits[3] = {0, 0, 0}, moves = 0;
    for (int i = 0; i < 6; i++) {
        struct game_stats st;
        play_variant_game(RANDOM, boards[i % 3], 0, i % 2 == 0, 51 + (uint64_t)i, -1, &st);
        for (int k = 0; k < 3; k++)
            edits[k] += st.edits[k];
        moves += st.moves;
    }
    fprintf(stderr, "twixt-random: %d removals, %d additions, %d declines in %d moves\n", edits[0],
            edits[1], edits[2], moves);
    ck_assert_msg(edits[0] > 0 && edits[1] > 0 && edits[2] > 0,
                  "twixt-random made %d removals, %d additions, %d declines", edits[0], edits[1],
                  edits[2]);
}
END_TEST

START_TEST(mcts_respects_budget)
{
    signal(SIGPIPE, SIG_IGN);
    for (int k = 0; k < 2; k++) {
        struct game_stats st;
        play_variant_game(MCTS,
                          (struct tx_variant){.rules = TX_RULES_PP,
                                              .width = TX_SIZE_DEFAULT,
                                              .height = TX_SIZE_DEFAULT},
                          MCTS_MS, k == 0, 3 + (uint64_t)k, -1, &st);
        /* CPU time, not the wall clock: on a loaded machine (CI runs the
         * suites in parallel) a bot that stops on time can still answer
         * late, which says nothing about its clock; the wall clock only
         * where the CPU time cannot be read. */
        int64_t cpu = st.slowest_cpu_us[0] > st.slowest_cpu_us[1] ? st.slowest_cpu_us[0]
                                                                  : st.slowest_cpu_us[1];
        int64_t slowest = cpu > 0 ? cpu : st.slowest_us;
        fprintf(stderr, "twixt-mcts --ms %d: most %s for one answer %.1f ms\n", MCTS_MS,
                cpu > 0 ? "CPU" : "wall time", (double)slowest / 1000);
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

/* Runs the bot with args a and b and `env` (NAME=VALUE) in its
 * environment, and returns its exit status. */
static int run_status_env(enum which w, const char *env, const char *a, const char *b)
{
    char path[512];
    snprintf(path, sizeof(path), "%s/bots/%s", getenv("TX_BUILD_DIR"), bot_names[w]);
    pid_t pid = fork();
    if (pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        dup2(null, 1);
        dup2(null, 2);
        putenv((char *)env);
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
        ck_assert_int_eq(run_status(w, "--rules", "go"), 2);
        ck_assert_int_eq(run_status(w, "--rules=classic", "--bogus"), 2);
        ck_assert_int_eq(run_status(w, "--board", "4x12"), 2);
        ck_assert_int_eq(run_status(w, "--board", "12x101"), 2);
        ck_assert_int_eq(run_status(w, "--board", "12"), 2);
        ck_assert_int_eq(run_status(w, "--board", "12x12x"), 2);
        ck_assert_int_eq(run_status_env(w, "TWIXT_RULES=go", NULL, NULL), 2);
        ck_assert_int_eq(run_status_env(w, "TWIXT_WIDTH=4", NULL, NULL), 2);
        ck_assert_int_eq(run_status_env(w, "TWIXT_HEIGHT=12x", NULL, NULL), 2);
        /* A bad variable with options that replace it is still an error
         * (the arena never sets one: something is wrong). */
        ck_assert_int_eq(run_status_env(w, "TWIXT_WIDTH=0", "--board", "12x12"), 2);
        /* Good ones, then end of input. */
        ck_assert_int_eq(run_status_env(w, "TWIXT_RULES=classic", "--board", "100x5"), 0);
        ck_assert_int_eq(run_status_env(w, "TWIXT_WIDTH=100", "--rules", "pp"), 0);
        /* The opening and Double TwixT, told either way. */
        ck_assert_int_eq(run_status(w, "--opening", "mirror"), 2);
        ck_assert_int_eq(run_status(w, "--teams", "2"), 2);
        ck_assert_int_eq(run_status(w, "--teams", NULL), 2);
        ck_assert_int_eq(run_status_env(w, "TWIXT_OPENING=pies", NULL, NULL), 2);
        ck_assert_int_eq(run_status_env(w, "TWIXT_TEAMS=yes", NULL, NULL), 2);
        ck_assert_int_eq(run_status(w, "--opening=cut", "--teams=1"), 0);
        ck_assert_int_eq(run_status_env(w, "TWIXT_OPENING=none", "--teams", "0"), 0);
    }
    ck_assert_int_eq(run_status(MCTS, "--ms", "0"), 2);
    ck_assert_int_eq(run_status(RANDOM, "--swap-prob", "2"), 2);
    ck_assert_int_eq(run_status(RANDOM, "--edit-prob", "-0.5"), 2);
    ck_assert_int_eq(run_status(RANDOM, "--edit-prob", "1"), 0);
    ck_assert_int_eq(run_status(RANDOM, "--first", "A1"), 2); /* a corner */
    ck_assert_int_eq(run_status(RANDOM, "--first", "A5"), 2); /* player 2's border */
    ck_assert_int_eq(run_status(RANDOM, "--first", "F6"), 0); /* then end of input */
}
END_TEST

/* The rule set and board come from --rules and --board (or --size), else
 * from TWIXT_RULES, TWIXT_WIDTH and TWIXT_HEIGHT, else pp on 12 x 12: each
 * bundled bot answers a position where player 2 played AB20 (a hole of
 * 30 x 24 and of no smaller board) under classic rules, told each way. */
START_TEST(rules_and_board_from_options_or_environment)
{
    signal(SIGPIPE, SIG_IGN);
    struct tx_geometry *geo;
    static struct tx_game *g;
    char line[TX_ANSWER_LINE_MAX + 1];
    ck_assert_int_eq(tx_geometry_new(30, 24, &geo), 0);
    test_game_under(&g, geo, TX_RULES_CLASSIC);
    ck_assert_int_eq(tx_game_play(g, hole_at(geo, "O12")), TX_LEGAL);
    ck_assert_int_eq(tx_game_play(g, hole_at(geo, "AB20")), TX_LEGAL);
    const char *text = input_of(g, true);
    const struct tx_variant told = {.rules = TX_RULES_CLASSIC, .width = 30, .height = 24},
                            other = {.rules = TX_RULES_PP, .width = 12, .height = 12};
    for (enum which w = RANDOM; w <= BLOCKER; w++) {
        char path[512];
        snprintf(path, sizeof(path), "%s/bots/%s", getenv("TX_BUILD_DIR"), bot_names[w]);
        char *by_options[] = {
            path, (char *)"--rules", (char *)"classic", (char *)"--board", (char *)"30x24", NULL};
        char *by_env[] = {path, NULL};
        struct {
            char **argv;
            const struct tx_variant *env;
        } ways[] = {{by_options, NULL}, {by_env, &told}, {by_options, &other}};
        for (size_t i = 0; i < sizeof(ways) / sizeof(ways[0]); i++) {
            struct bot b;
            bot_start_in(&b, ways[i].argv, ways[i].env);
            bot_ask(&b, text, line, sizeof(line));
            check_answer(w, g, line, i == 0 ? "told by options" : "told by the environment");
            bot_finish(&b);
        }
    }
    tx_geometry_free(geo);
}
END_TEST

/* Under classic rules the starters show how to print an edit: player 1
 * (F10, G10, F12; G10-F12 linked) extends F10 to G12, and removes its own
 * link G10-F12, which crosses F10-G12 (under pp it only plays G12). */
START_TEST(starters_print_an_edit_under_classic)
{
    signal(SIGPIPE, SIG_IGN);
    ck_assert_msg(starter_c_exe[0], "cc could not compile bots/starter.c");
    struct tx_geometry *geo;
    static struct tx_game *g;
    ck_assert_int_eq(tx_geometry_new(12, 12, &geo), 0);
    static const char *const moves[] = {"F10", "B6", "G10", "B9", "F12", "K3"};
    for (int rules = TX_RULES_PP; rules <= TX_RULES_CLASSIC; rules++) {
        test_game_under(&g, geo, (enum tx_rules)rules);
        for (int i = 0; i < 6; i++)
            ck_assert_int_eq(tx_game_play(g, hole_at(geo, moves[i])), TX_LEGAL);
        ck_assert(tx_game_linked(g, hole_at(geo, "G10"), hole_at(geo, "F12")));
        for (enum which w = STARTER_PY; w <= STARTER_C; w++) {
            const char *line = check_one_answer(w, g, "removing a link in the way");
            const char *want = rules == TX_RULES_CLASSIC ? "G12 -G10:F12 starter" : "G12 starter";
            ck_assert_msg(strncmp(line, want, strlen(want)) == 0, "%s under %s: \"%s\"",
                          bot_names[w], tx_ruleset((enum tx_rules)rules)->name, line);
        }
    }
    tx_geometry_free(geo);
}
END_TEST

/* Under classic rules twixt-greedy adds a link of its own that a removal
 * of the opponent's unblocked: E5 and F7 were placed while F5-E7 crossed
 * their link; then player 2 removed F5-E7. Under pp the same pegs are
 * linked from the start (own links never block), and it edits nothing. */
START_TEST(greedy_adds_a_link_the_opponent_unblocked)
{
    signal(SIGPIPE, SIG_IGN);
    struct tx_geometry *geo;
    static struct tx_game *g;
    ck_assert_int_eq(tx_geometry_new(12, 12, &geo), 0);
    test_game_under(&g, geo, TX_RULES_CLASSIC);
    static const char *const moves[] = {"E5", "F5", "J10", "E7", "F7"};
    for (int i = 0; i < 5; i++)
        ck_assert_int_eq(tx_game_play(g, hole_at(geo, moves[i])), TX_LEGAL);
    ck_assert(!tx_game_linked(g, hole_at(geo, "E5"), hole_at(geo, "F7")));
    struct tx_edit removal = edit_of(geo, '-', hole_at(geo, "F5"), hole_at(geo, "E7"));
    ck_assert_int_eq(tx_game_play_edits(g, hole_at(geo, "B10"), &removal, 1, NULL), TX_LEGAL);
    const char *line = check_one_answer(GREEDY, g, "a link unblocked");
    ck_assert_msg(strstr(line, " +E5:F7"), "twixt-greedy did not add E5-F7: \"%s\"", line);
    tx_geometry_free(geo);
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

/* Under classic rules no two links cross: twixt-blocker's games are long
 * still, and with --cross it builds the box and then flips its link
 * (a removal and an addition in one move, again and again). */
START_TEST(blocker_under_classic_is_long_and_flips)
{
    signal(SIGPIPE, SIG_IGN);
    const struct tx_variant v = {.rules = TX_RULES_CLASSIC, .width = 12, .height = 12};
    int total = 0;
    for (int k = 0; k < 2; k++) {
        struct game_stats st;
        play_variant_game(BLOCKER, v, 0, k == 0, 61 + (uint64_t)k, -1, &st);
        total += st.moves;
        ck_assert_int_eq(st.edits[0] + st.edits[1] + st.edits[2], 0);
        play_variant_game(CROSSER, v, 0, k == 0, 71 + (uint64_t)k, -1, &st);
        ck_assert_msg(!st.crossed, "links of twixt-blocker --cross cross under classic");
        ck_assert_msg(st.edits[0] >= 3 && st.edits[1] >= 3 && st.edits[2] == 0,
                      "twixt-blocker --cross as player %d: %d removals, %d additions, %d declines",
                      k + 1, st.edits[0], st.edits[1], st.edits[2]);
    }
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
    TCase *op = tcase_create("openings");
    tcase_set_timeout(op, CASE_TIMEOUT_S);
    tcase_add_unchecked_fixture(op, compile_starter, remove_starter);
    tcase_add_loop_test(op, opening_games_legal, RANDOM, NBOTS);
    tcase_add_test(op, greedy_calls_privilege);
    tcase_add_test(op, opening_from_options_or_environment);
    tcase_add_loop_test(op, mcts_declines_swap_on_big_boards, 0,
                        (int)(sizeof declines / sizeof declines[0]));
    suite_add_tcase(s, op);
    TCase *fam = tcase_create("family");
    tcase_set_timeout(fam, CASE_TIMEOUT_S);
    tcase_add_unchecked_fixture(fam, compile_starter, remove_starter);
    tcase_add_loop_test(fam, positions_on_every_board_legal, RANDOM, NBOTS);
    tcase_add_loop_test(fam, game_on_every_board_legal_and_on_time, RANDOM, NBOTS);
    tcase_add_test(fam, random_edits_happen_and_are_legal);
    tcase_add_test(fam, rules_and_board_from_options_or_environment);
    tcase_add_test(fam, starters_print_an_edit_under_classic);
    tcase_add_test(fam, blocker_under_classic_is_long_and_flips);
    tcase_add_test(fam, greedy_adds_a_link_the_opponent_unblocked);
    suite_add_tcase(s, fam);
    TCase *units = tcase_create("modules");
    tcase_set_timeout(units, 120);
    tcase_add_test(units, fastboard_matches_game);
    tcase_add_test(units, eval_paths_are_shortest);
    tcase_add_test(units, opening_and_swap_rules);
    tcase_add_loop_test(units, fastboard_second_line_wins_for_real, TX_RULES_PP,
                        TX_RULES_CLASSIC + 1);
    tcase_add_test(units, playout_saves_bridge);
    tcase_add_loop_test(units, mcts_switches_and_sealed_finish, TX_RULES_PP, TX_RULES_CLASSIC + 1);
    suite_add_tcase(s, units);
    TCase *fam_units = tcase_create("family modules");
    tcase_set_timeout(fam_units, 120);
    tcase_add_test(fam_units, fastboard_matches_game_under_classic_and_wide);
    tcase_add_test(fam_units, eval_distance_matches_reference);
    tcase_add_test(fam_units, eval_candidates_bounded_by_the_budget);
    tcase_add_test(fam_units, eval_candidates_paths_match);
    tcase_add_test(fam_units, mcts_big_board_candidates_cutoff_and_deadline);
    tcase_add_loop_test(fam_units, mcts_defends_by_lookahead, 0,
                        (int)(sizeof defends / sizeof defends[0]));
    tcase_add_loop_test(fam_units, mcts_leaves_out_a_lone_edge_peg, 0,
                        (int)(sizeof edge_pegs / sizeof edge_pegs[0]));
    suite_add_tcase(s, fam_units);
    TCase *op_units = tcase_create("opening modules");
    tcase_set_timeout(op_units, 120);
    tcase_add_loop_test(op_units, side_after_an_exchange, 0,
                        (int)(sizeof exchanges / sizeof exchanges[0]));
    tcase_add_loop_test(op_units, privilege_known_to_the_team, 0,
                        (int)(sizeof privileges / sizeof privileges[0]));
    tcase_add_test(op_units, sides_and_privilege_in_random_games);
    tcase_add_loop_test(op_units, pie_decision, 0, (int)(sizeof pies / sizeof pies[0]));
    tcase_add_test(op_units, cut_is_legal_and_balanced);
    tcase_add_loop_test(op_units, choose_the_better_side, 0,
                        (int)(sizeof chooses / sizeof chooses[0]));
    tcase_add_loop_test(op_units, privilege_worth_it, 0, (int)(sizeof worths / sizeof worths[0]));
    suite_add_tcase(s, op_units);
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
