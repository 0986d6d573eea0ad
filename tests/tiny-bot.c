/* tiny-bot.c - a cheap, seeded test bot for tournament tests and benchmarks.
 *
 *   tiny-bot [--seed S] [--size N] [--think-ms MS] [--spin-ms MS]
 *            [--crash P] [--hang P] [--garbage P]
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

static double option_value(int argc, char **argv, const char *name, double fallback)
{
    for (int i = 1; i + 1 < argc; i++)
        if (!strcmp(argv[i], name))
            return strtod(argv[i + 1], NULL);
    return fallback;
}

int main(int argc, char **argv)
{
    static char text[TX_INPUT_MAX];
    static struct tx_input in;
    static int16_t legal[TX_MOVES_MAX];
    static struct tx_game *g;
    char name[TX_HOLE_NAME_MAX];

    uint64_t seed = (uint64_t)option_value(argc, argv, "--seed", 1);
    int size = (int)option_value(argc, argv, "--size", TX_SIZE_DEFAULT);
    double think_ms = option_value(argc, argv, "--think-ms", 0);
    double spin_ms = option_value(argc, argv, "--spin-ms", 0);
    double p_crash = option_value(argc, argv, "--crash", 0);
    double p_hang = option_value(argc, argv, "--hang", 0);
    double p_garbage = option_value(argc, argv, "--garbage", 0);

    if ((tx_geometry_free(geo), tx_geometry_new(size, size, &geo)) < 0) {
        fprintf(stderr, "tiny-bot: bad --size %d\n", size);
        return 2;
    }
    g = tx_game_new(geo, TX_RULES_PP);
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
        if (tx_game_from_input(g, geo, TX_RULES_PP, &in, me) < 0) {
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
        printf("%s t=%lld\n", move == TX_MOVE_SWAP ? "SWAP" : tx_hole_name(geo, move, name),
               (long long)spent);
        fflush(stdout);
    }
}
