/* tiny-bot.c - a cheap, seeded test bot for tournament tests and benchmarks.
 *
 *   tiny-bot [--seed S] [--size N | --board WxH] [--rules pp|classic]
 *            [--think-ms MS] [--spin-ms MS] [--crash P] [--hang P] [--garbage P]
 *            [--edits P]
 *
 * It plays a uniformly random legal move (SWAP included) drawn from a
 * generator seeded by --seed, so a game between two tiny-bots given
 * {seed} replays identically. --think-ms sleeps and --spin-ms burns CPU for
 * that long on each turn (measured from the moment its input starts to
 * arrive), to imitate a bot using most of its time. Each answer's message is
 * "t=US": the microseconds the bot itself spent on the turn, so a benchmark
 * can subtract them from the referee's measured time.
 *
 * --crash P, --hang P and --garbage P make it misbehave in a fraction P of
 * games (chosen from the seed, so deterministic): at a turn from 1 to 4 it
 * dies by SIGSEGV, stops answering, or prints a line that is not a move.
 *
 * The board and the rule set come from TWIXT_WIDTH, TWIXT_HEIGHT and
 * TWIXT_RULES, which the referee sets for every bot, unless --size, --board
 * or --rules say otherwise. Under classic rules, --edits P makes it add link
 * edits to a fraction P of its answers (turns chosen from the seed): up to
 * three, each drawn at random among removing one of its links, adding a
 * link between two of its pegs and declining an automatic link of the new
 * peg, and kept only when libtwixt says the answer stays legal; so games
 * against it exercise every edit the referee, the records and replay handle.
 * Without --edits it draws exactly the numbers it always drew, so a seed
 * plays the games the tests were written against.
 */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "game.h"
#include "geometry.h"
#include "rules.h"
#include "hole.h"
#include "input.h"
#include "splitmix.h"

static struct tx_geometry *geo; /* static storage: about 80 KiB */

static struct tx_splitmix rng;

/* Picks with `% n`, slightly biased, kept so that a seed plays the games
 * the tests were written against. */
static uint64_t next_random(void)
{
    return tx_splitmix_next(&rng);
}

static double uniform(void)
{
    return (double)(next_random() >> 11) / (double)(UINT64_C(1) << 53);
}

static int64_t now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* Reads one line (without "\n") into buf; false at end of input. */
static bool read_line(char *buf, size_t cap)
{
    if (!fgets(buf, (int)cap, stdin))
        return false;
    buf[strcspn(buf, "\n")] = '\0';
    return true;
}

/* Reads one whole turn input into text; the first line's arrival time in
 * *ret_start. Returns its length, or -1 at end of input. */
static int read_turn(char *text, size_t cap, int64_t *ret_start)
{
    char line[64];
    size_t n = 0;

    if (!read_line(line, sizeof line))
        return -1;
    *ret_start = now_us();
    n += (size_t)snprintf(text + n, cap - n, "%s\n", line);
    for (int side = 0; side < 2; side++) {
        for (int list = 0; list < 2; list++) {
            if (!read_line(line, sizeof line))
                return -1;
            n += (size_t)snprintf(text + n, cap - n, "%s\n", line);
            int count = atoi(line);
            for (int i = 0; i < count; i++) {
                if (!read_line(line, sizeof line) || n + 16 >= cap)
                    return -1;
                n += (size_t)snprintf(text + n, cap - n, "%s\n", line);
            }
        }
    }
    return (int)n;
}

static const char *option_text(int argc, char **argv, const char *name)
{
    for (int i = 1; i + 1 < argc; i++)
        if (!strcmp(argv[i], name))
            return argv[i + 1];
    return NULL;
}

static double option_value(int argc, char **argv, const char *name, double fallback)
{
    const char *v = option_text(argc, argv, name);
    return v ? strtod(v, NULL) : fallback;
}

/* The game the referee says this is (TWIXT_*), unless the options say
 * otherwise. Returns 0, or -1 with the reason on stderr. */
static int read_variant(int argc, char **argv, struct tx_variant *v)
{
    const char *rules = getenv("TWIXT_RULES"), *w = getenv("TWIXT_WIDTH"),
               *h = getenv("TWIXT_HEIGHT"), *board = option_text(argc, argv, "--board");
    *v = TX_VARIANT_DEFAULT;
    if (w)
        v->width = atoi(w);
    if (h)
        v->height = atoi(h);
    if (option_text(argc, argv, "--size"))
        v->width = v->height = (int)option_value(argc, argv, "--size", 0);
    if (board && sscanf(board, "%dx%d", &v->width, &v->height) != 2) {
        fprintf(stderr, "tiny-bot: bad --board %s\n", board);
        return -1;
    }
    if (option_text(argc, argv, "--rules"))
        rules = option_text(argc, argv, "--rules");
    int r = rules ? tx_rules_from_name(rules) : TX_RULES_PP;
    if (r < 0) {
        fprintf(stderr, "tiny-bot: bad rules %s\n", rules);
        return -1;
    }
    v->rules = (enum tx_rules)r;
    return 0;
}

/* The edit of kind joining holes a and b. */
static struct tx_edit edit_of(char kind, int a, int b)
{
    return (struct tx_edit){kind, (int16_t)tx_geometry_x(geo, a), (int16_t)tx_geometry_y(geo, a),
                            (int16_t)tx_geometry_x(geo, b), (int16_t)tx_geometry_y(geo, b)};
}

/* Up to three random link edits for move (a hole) by player me, each kept
 * only when the answer with it is still legal. Writes them as " -A1:B3"...
 * into text (room for 64 bytes) and returns how many. */
static int random_edits(const struct tx_game *g, int me, int move, char *text)
{
    static int16_t links[2 * 4 * TX_HOLES_MAX], pegs[TX_HOLES_MAX + 1];
    struct tx_edit edits[3];
    int nedits = 0, nlinks = tx_game_links(g, me, links), npegs = tx_game_pegs(g, me, pegs);
    pegs[npegs++] = (int16_t)move;
    for (int tries = 0; tries < 3; tries++) {
        int kind = (int)(next_random() % 3), a = -1, b = -1;
        if (kind == 0 && nlinks > 0) {
            int k = (int)(next_random() % (uint64_t)nlinks);
            a = links[2 * k], b = links[2 * k + 1];
        } else if (kind == 1 || kind == 2) {
            /* A knight neighbour of one of its pegs (of the new one, to
             * decline) that is its peg too. */
            a = kind == 2 ? move : pegs[next_random() % (uint64_t)npegs];
            int q = geo->neighbour[a][next_random() % 8];
            if (q >= 0 && (tx_game_cell(g, q) == me + 1 || q == move) && q != a)
                b = q;
        }
        if (b < 0)
            continue;
        edits[nedits] = edit_of("-+~"[kind], a, b);
        if (tx_game_check_edits(g, move, edits, nedits + 1, NULL) == TX_LEGAL)
            nedits++;
    }
    int n = 0;
    for (int i = 0; i < nedits; i++) {
        char name[TX_EDIT_NAME_MAX];
        n += snprintf(text + n, 64 - (size_t)n, " %s", tx_edit_name(&edits[i], name));
    }
    return nedits;
}

int main(int argc, char **argv)
{
    static char text[TX_INPUT_MAX];
    static struct tx_input in;
    static int16_t legal[TX_MOVES_MAX];
    static struct tx_game *g;
    char name[TX_HOLE_NAME_MAX];

    uint64_t seed = (uint64_t)option_value(argc, argv, "--seed", 1);
    struct tx_variant v;
    double think_ms = option_value(argc, argv, "--think-ms", 0);
    double spin_ms = option_value(argc, argv, "--spin-ms", 0);
    double p_crash = option_value(argc, argv, "--crash", 0);
    double p_hang = option_value(argc, argv, "--hang", 0);
    double p_garbage = option_value(argc, argv, "--garbage", 0);
    double p_edits = option_value(argc, argv, "--edits", 0);

    if (read_variant(argc, argv, &v) < 0)
        return 2;
    if ((tx_geometry_free(geo), tx_geometry_new(v.width, v.height, &geo)) < 0) {
        fprintf(stderr, "tiny-bot: bad board %d x %d\n", v.width, v.height);
        return 2;
    }
    g = tx_game_new(geo, v.rules);
    if (v.rules != TX_RULES_CLASSIC)
        p_edits = 0;
    rng.state = seed;
    /* Decide this game's misbehaviour once, from the seed. */
    double u = uniform();
    int bad_turn = 1 + (int)(next_random() % 4);
    enum { GOOD, CRASH, HANG, GARBAGE } plan = GOOD;
    if (u < p_crash)
        plan = CRASH;
    else if (u < p_crash + p_hang)
        plan = HANG;
    else if (u < p_crash + p_hang + p_garbage)
        plan = GARBAGE;

    int me = -1;
    for (int turn = 1;; turn++) {
        int64_t start;
        int len = read_turn(text, sizeof text, &start);
        if (len < 0)
            return 0;
        char err[128];
        if (tx_input_parse(geo, text, (size_t)len, &in, err, sizeof err) < 0) {
            fprintf(stderr, "tiny-bot: bad input: %s\n", err);
            return 3;
        }
        if (me < 0)
            me = tx_input_first_player(&in);
        if (tx_game_from_input(g, geo, v.rules, &in, me) < 0) {
            fprintf(stderr, "tiny-bot: impossible position\n");
            return 3;
        }
        if (turn == bad_turn && plan == CRASH) {
            /* like an interpreter's traceback: what a user needs to see */
            fprintf(stderr, "tiny-bot: crashing on purpose\n  at turn %d\n", turn);
            fflush(stderr);
            raise(SIGSEGV);
        }
        if (turn == bad_turn && plan == HANG)
            for (;;)
                pause();
        if (turn == bad_turn && plan == GARBAGE) {
            printf("\x01garbage!\n");
            fflush(stdout);
            continue;
        }
        int n = tx_game_legal_moves(g, legal);
        int move = legal[next_random() % (uint64_t)(n > 0 ? n : 1)];
        char edits[64] = "";
        if (p_edits > 0 && move != TX_MOVE_SWAP && uniform() < p_edits)
            random_edits(g, me, move, edits);
        if (think_ms > 0) {
            int64_t wake = start + (int64_t)(think_ms * 1000);
            int64_t left;
            while ((left = wake - now_us()) > 0) {
                struct timespec ts = {left / 1000000, (left % 1000000) * 1000};
                nanosleep(&ts, NULL);
            }
        }
        if (spin_ms > 0)
            while (now_us() < start + (int64_t)(spin_ms * 1000))
                ;
        int64_t spent = now_us() - start;
        printf("%s%s t=%lld\n", move == TX_MOVE_SWAP ? "SWAP" : tx_hole_name(geo, move, name),
               edits, (long long)spent);
        fflush(stdout);
    }
}
