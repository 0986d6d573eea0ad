/* botio.c - the bundled bots' turn loop and option parsing.
 *
 * The input is read line by line because its length is only known from the
 * counts inside it (a bot must answer without waiting for more input). Every
 * line and count is bounded: a malformed input ends the bot with a message
 * instead of overflowing anything.
 */
#include "alloc.h"
#include "botio.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hole.h"

#define LINE_MAX_BYTES 32 /* the longest input line is "CU98 CV100\n" */

int64_t tx_botio_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Appends one line of stdin (with its "\n") to buf. Returns its length, 0 at
 * end of input, -EINVAL for a line too long or without "\n". */
static int read_line(char *buf, size_t *len, size_t cap)
{
    char line[LINE_MAX_BYTES];
    if (!fgets(line, sizeof(line), stdin))
        return 0;
    size_t n = strlen(line);
    if (n == 0 || line[n - 1] != '\n' || *len + n >= cap)
        return -EINVAL;
    memcpy(buf + *len, line, n + 1);
    *len += n;
    return (int)n;
}

/* Reads a count line and then that many lines. */
static int read_list(char *buf, size_t *len, size_t cap, long max)
{
    size_t at = *len;
    if (read_line(buf, len, cap) <= 0)
        return -EINVAL;
    char *end;
    long count = strtol(buf + at, &end, 10);
    if (end == buf + at || *end != '\n' || count < 0 || count > max)
        return -EINVAL;
    for (long i = 0; i < count; i++)
        if (read_line(buf, len, cap) <= 0)
            return -EINVAL;
    return 0;
}

/* Reads one whole turn input into buf. Returns 1, 0 at end of input before
 * the turn started, or -EINVAL. */
static int read_turn(char *buf, size_t cap, size_t *len, int64_t *start_ns)
{
    *len = 0;
    int r = read_line(buf, len, cap);
    if (r <= 0)
        return r;
    *start_ns = tx_botio_now_ns();
    for (int list = 0; list < 4; list++) {
        long max = list % 2 == 0 ? TX_HOLES_MAX : TX_LINKS_MAX;
        if (read_list(buf, len, cap, max) < 0)
            return -EINVAL;
    }
    return 1;
}

/* Which player a bot is, from its first input's first line (RULES.md,
 * "Forced openings"): FIRST, or SWAP (player 2 swapped our first peg), is
 * player 1's first input, a hole player 2's, even after a forced opening.
 * Never from peg counts: CodinGame bots learn their side this way, and the
 * referee keeps it true for them. */
static int side_of(const struct tx_input *in)
{
    return in->last == TX_INPUT_FIRST || in->last == TX_MOVE_SWAP ? 0 : 1;
}

/* Any legal move: the safety net when a strategy returned an illegal one. */
static int first_legal(const struct tx_game *g)
{
    int16_t moves[TX_MOVES_MAX];
    int n = tx_game_legal_moves(g, moves);
    for (int i = 0; i < n; i++)
        if (moves[i] != TX_MOVE_SWAP)
            return moves[i];
    return n > 0 ? moves[0] : -1;
}

/* Keeps printable ASCII only, at most 20 characters. */
static void clean_message(char *message)
{
    size_t j = 0;
    for (size_t i = 0; message[i] && j < TX_BOTIO_MESSAGE_MAX - 1; i++)
        if (message[i] >= ' ' && message[i] <= '~')
            message[j++] = message[i];
    message[j] = '\0';
}

/* Prints the answer: the move, its edits, the message. */
static void answer(const struct tx_geometry *geo, int move, const struct tx_botio_edits *edits,
                   const char *message)
{
    char name[TX_HOLE_NAME_MAX], edit[TX_EDIT_NAME_MAX];
    fputs(move == TX_MOVE_SWAP ? "SWAP" : tx_hole_name(geo, move, name), stdout);
    for (int i = 0; i < edits->n; i++)
        printf(" %s", tx_edit_name(&edits->list[i], edit));
    if (message[0])
        printf(" %s", message);
    putchar('\n');
    fflush(stdout);
}

int tx_botio_run(const struct tx_geometry *geo, enum tx_rules rules, const char *prog,
                 tx_botio_think_fn think, void *data)
{
    size_t cap = tx_input_max(geo) + 1;
    char *text = tx_xmalloc(cap);
    struct tx_input *in = tx_xmalloc(sizeof(*in));
    struct tx_game *g = tx_game_new(geo, rules);
    struct tx_botio_edits *edits = tx_xmalloc(sizeof *edits);
    int me = -1, r = 0;

    for (int turn = 0;; turn++) {
        size_t len;
        int64_t start;
        char err[128], message[TX_BOTIO_MESSAGE_MAX] = "";

        int got = read_turn(text, cap, &len, &start);
        if (got == 0)
            break; /* the referee closed our input: the game is over */
        if (got < 0) {
            fprintf(stderr, "%s: turn %d: input is not in the TwixT input format\n", prog,
                    turn + 1);
            r = -EINVAL;
            break;
        }
        if (tx_input_parse(geo, text, len, in, err, sizeof(err)) < 0) {
            fprintf(stderr, "%s: turn %d: %s\n", prog, turn + 1, err);
            r = -EINVAL;
            break;
        }
        if (me < 0)
            me = side_of(in);
        if (tx_game_from_input(g, geo, rules, in, me) < 0) {
            fprintf(stderr, "%s: turn %d: impossible position for player %d\n", prog, turn + 1,
                    me + 1);
            r = -EINVAL;
            break;
        }
        edits->n = 0;
        struct tx_botio_turn t = {
            .game = g, .input = in, .me = me, .turn = turn, .start_ns = start, .edits = edits};
        int move = think(&t, data, message);
        if (edits->n < 0 || edits->n > TX_BOTIO_EDITS_MAX ||
            tx_game_check_edits(g, move, edits->list, edits->n, NULL) != TX_LEGAL) {
            fprintf(stderr, "%s: BUG: strategy chose illegal move %d (%d edits), playing %s\n",
                    prog, move, edits->n,
                    tx_game_check(g, move) == TX_LEGAL ? "it without edits" : "another");
            edits->n = 0;
        }
        if (tx_game_check(g, move) != TX_LEGAL) {
            move = first_legal(g);
            if (move == -1) {
                r = -EINVAL; /* no legal move: the referee would have ended the game */
                break;
            }
        }
        clean_message(message);
        answer(geo, move, edits, message);
    }
    free(text);
    free(in);
    free(g);
    free(edits);
    return r;
}

/* A side of the board from the environment: its value, or def when unset;
 * -1 after a message when it is not a side. */
static int env_side(const char *prog, const char *name, int def)
{
    const char *v = getenv(name);
    if (!v)
        return def;
    char *end;
    long n = strtol(v, &end, 10);
    if (end == v || *end || n < TX_SIDE_MIN || n > TX_SIDE_MAX) {
        fprintf(stderr, "%s: %s: expected a side from %d to %d, got \"%s\"\n", prog, name,
                TX_SIDE_MIN, TX_SIDE_MAX, v);
        return -1;
    }
    return (int)n;
}

int tx_botio_options_init(const char *prog, struct tx_botio_options *opt)
{
    opt->variant = TX_VARIANT_DEFAULT;
    opt->seed = (uint64_t)tx_botio_now_ns();
    opt->help = 0;
    /* What the arena tells every bot (RULES.md "Rule sets"); options win. */
    const char *rules = getenv("TWIXT_RULES");
    if (rules) {
        int id = tx_rules_from_name(rules);
        if (id < 0) {
            fprintf(stderr, "%s: TWIXT_RULES: expected pp or classic, got \"%s\"\n", prog, rules);
            return -EINVAL;
        }
        opt->variant.rules = (enum tx_rules)id;
    }
    opt->variant.width = env_side(prog, "TWIXT_WIDTH", TX_SIZE_DEFAULT);
    opt->variant.height = env_side(prog, "TWIXT_HEIGHT", TX_SIZE_DEFAULT);
    return opt->variant.width < 0 || opt->variant.height < 0 ? -EINVAL : 0;
}

int tx_botio_is_option(const char *arg, const char *name)
{
    size_t n = strlen(name);
    return strncmp(arg, name, n) == 0 && (arg[n] == '\0' || arg[n] == '=');
}

/* The value of option argv[*i]: after '=' or the next argument. */
static const char *option_value(const char *prog, int argc, char **argv, int *i)
{
    const char *eq = strchr(argv[*i], '=');
    if (eq)
        return eq + 1;
    if (*i + 1 >= argc) {
        fprintf(stderr, "%s: %s: expected a value\n", prog, argv[*i]);
        return NULL;
    }
    return argv[++*i];
}

int tx_botio_int_option(const char *prog, int argc, char **argv, int *i, long long min,
                        long long max, long long *ret)
{
    const char *opt = argv[*i];
    const char *value = option_value(prog, argc, argv, i);
    if (!value)
        return -EINVAL;
    char *end;
    errno = 0;
    long long v = strtoll(value, &end, 10);
    if (end == value || *end || errno || v < min || v > max) {
        fprintf(stderr, "%s: %.*s: expected an integer from %lld to %lld, got \"%s\"\n", prog,
                (int)strcspn(opt, "="), opt, min, max, value);
        return -EINVAL;
    }
    *ret = v;
    return 1;
}

int tx_botio_double_option(const char *prog, int argc, char **argv, int *i, double min, double max,
                           double *ret)
{
    const char *opt = argv[*i];
    const char *value = option_value(prog, argc, argv, i);
    if (!value)
        return -EINVAL;
    char *end;
    double v = strtod(value, &end);
    if (end == value || *end || !(v >= min && v <= max)) {
        fprintf(stderr, "%s: %.*s: expected a number from %g to %g, got \"%s\"\n", prog,
                (int)strcspn(opt, "="), opt, min, max, value);
        return -EINVAL;
    }
    *ret = v;
    return 1;
}

int tx_botio_common_option(const char *prog, int argc, char **argv, int *i,
                           struct tx_botio_options *opt)
{
    long long v;
    const char *arg = argv[*i];
    if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
        opt->help = 1;
        return 1;
    }
    if (tx_botio_is_option(arg, "--size")) {
        if (tx_botio_int_option(prog, argc, argv, i, TX_SIDE_MIN, TX_SIDE_MAX, &v) < 0)
            return -EINVAL;
        opt->variant.width = opt->variant.height = (int)v;
        return 1;
    }
    if (tx_botio_is_option(arg, "--board")) {
        const char *value = option_value(prog, argc, argv, i);
        int w, h, end = 0;
        if (!value)
            return -EINVAL;
        if (sscanf(value, "%dx%d%n", &w, &h, &end) != 2 || value[end] || w < TX_SIDE_MIN ||
            w > TX_SIDE_MAX || h < TX_SIDE_MIN || h > TX_SIDE_MAX) {
            fprintf(stderr, "%s: --board: expected WxH with sides from %d to %d, got \"%s\"\n",
                    prog, TX_SIDE_MIN, TX_SIDE_MAX, value);
            return -EINVAL;
        }
        opt->variant.width = w;
        opt->variant.height = h;
        return 1;
    }
    if (tx_botio_is_option(arg, "--rules")) {
        const char *value = option_value(prog, argc, argv, i);
        int id = value ? tx_rules_from_name(value) : -1;
        if (id < 0) {
            if (value)
                fprintf(stderr, "%s: --rules: expected pp or classic, got \"%s\"\n", prog, value);
            return -EINVAL;
        }
        opt->variant.rules = (enum tx_rules)id;
        return 1;
    }
    if (tx_botio_is_option(arg, "--seed")) {
        /* Seeds from the referee's {seed} are unsigned 64-bit numbers. */
        const char *value = option_value(prog, argc, argv, i);
        if (!value)
            return -EINVAL;
        char *end;
        errno = 0;
        unsigned long long seed = strtoull(value, &end, 10);
        if (!*value || *value == '-' || *end || errno) {
            fprintf(stderr, "%s: --seed: expected a non-negative integer, got \"%s\"\n", prog,
                    value);
            return -EINVAL;
        }
        opt->seed = seed;
        return 1;
    }
    return 0;
}

int tx_botio_main(const struct tx_botio_bot *bot, void *data, int argc, char **argv)
{
    struct tx_botio_options opt;
    if (tx_botio_options_init(bot->prog, &opt) < 0)
        return 2;
    for (int i = 1; i < argc; i++) {
        int r = tx_botio_common_option(bot->prog, argc, argv, &i, &opt);
        if (r == 0 && bot->option)
            r = bot->option(bot->prog, argc, argv, &i, data);
        if (r < 0)
            return 2;
        if (r == 0) {
            fprintf(stderr, "%s: unknown option \"%s\" (see --help)\n", bot->prog, argv[i]);
            return 2;
        }
    }
    if (opt.help) {
        bot->usage();
        return 0;
    }
    struct tx_geometry *geo;
    if (tx_geometry_new(opt.variant.width, opt.variant.height, &geo) < 0)
        return 1;
    int status = bot->ready ? bot->ready(geo, &opt, data) : TX_BOTIO_PLAY;
    if (status == TX_BOTIO_PLAY)
        status = tx_botio_run(geo, opt.variant.rules, bot->prog, bot->think, data) < 0 ? 1 : 0;
    if (bot->done)
        bot->done(data);
    tx_geometry_free(geo);
    return status;
}
