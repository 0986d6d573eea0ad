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

#include "answer.h"
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

void tx_botio_side_init(struct tx_botio_side *s)
{
    *s = (struct tx_botio_side){.colour = -1, .placed = -1, .mirror = -1};
}

/* True when hole is in list (n holes). */
static bool listed(const int16_t *list, int n, int hole)
{
    for (int i = 0; i < n; i++)
        if (list[i] == hole)
            return true;
    return false;
}

/* The colour a bot plays from its first input's first line (RULES.md
 * "Forced openings", "Openings"): FIRST is red's first input, and so is
 * SWAP (the opponent mirrored our first peg), except under the pie, where
 * the swap gave the opponent red; a hole is black's, and CUT and CHOOSE
 * are read by black (the chooser, or the side that moves after the
 * choice). Never from peg counts: CodinGame bots learn their side this
 * way, and the referee keeps it true for them. */
static int first_colour(const struct tx_variant *v, const struct tx_input *in)
{
    if (in->last == TX_INPUT_FIRST)
        return 0;
    if (in->last == TX_MOVE_SWAP)
        return v->opening == TX_OPENING_PIE ? 1 : 0;
    return 1;
}

void tx_botio_side_input(struct tx_botio_side *s, const struct tx_variant *v,
                         const struct tx_input *in)
{
    bool exchanges = v->opening == TX_OPENING_PIE || v->opening == TX_OPENING_CUT;
    if (s->colour < 0)
        s->colour = first_colour(v, in);
    else if (s->colour == 0 && exchanges &&
             ((v->opening == TX_OPENING_PIE && in->last == TX_MOVE_SWAP) ||
              in->last == TX_MOVE_CHOOSE_RED ||
              (s->placed >= 0 && listed(in->pegs[1], in->npegs[1], s->placed))))
        s->colour = 1; /* the opponent took red: by its pie SWAP, or its CHOOSE 1 */

    /* Privilege (RULES.md "Double TwixT"). Colours alternate, but for a
     * privilege, which makes the caller's colour move twice in a row: so
     * before a red move red has placed as many pegs as black, before a
     * black move one more, and each privilege adds one to the caller's
     * side. The cut (red, red, black, then black moves) and the pie keep
     * this; the mirror swap moves a peg to black (conservative for black,
     * for red it only hides the opponent's privilege). */
    int own = in->npegs[0], his = in->npegs[1];
    bool cut = v->opening == TX_OPENING_CUT;
    int x = own - his + s->colour; /* its team's privileges minus the other team's */
    /* After the game's first move, nobody swapped when its peg is still
     * the first of its colour, and the other colour's first is not its
     * mirror (the mirror swap frees the hole, which its partner may fill
     * again). */
    bool swapped = in->npegs[0] == 0 || in->pegs[0][0] != s->placed ||
                   (s->mirror >= 0 && in->npegs[1] > 0 && in->pegs[1][0] == s->mirror);
    bool clean = s->clean && !(s->pending && swapped);
    if (v->teams && !s->privilege_used) {
        if (!s->seen) {
            /* Its first input: x counts every privilege so far. Both
             * teams' read as none (x == 0) but need its first turn
             * skipped, which makes the game longer than a first input
             * without privilege: 3 pegs (the second bot of black), 4 after
             * a cut. Under none, red's privilege at move 1 may skip black's
             * first bot, which then reads 3 pegs after both: only 2 (red's
             * second bot) are sure. */
            int most = cut ? 4 : v->opening == TX_OPENING_NONE ? 2 : 3;
            s->privilege_used = x >= 1 || (x == 0 && own + his > most);
        } else if (!clean) {
            /* A swap, a pie, a cut or a choice since its last input: the
             * opening was decided in between, so no privilege came before
             * and x counts them all; but x == 0 may be both teams' (after
             * a skip of its turn), and the mirror swap moves a peg to
             * black: cannot tell. */
            s->privilege_used = v->opening == TX_OPENING_SWAP || x >= 0;
        } else {
            /* Since its last input: itself, then the others. Its own call
             * and its partner's each add one to its side; the other
             * team's takes one; a skip of its own turn makes the interval
             * longer than two pegs a team. Both teams' calls between two
             * of its turns need that skip. */
            int d = (own - s->own) - (his - s->his) - s->called, sum = own - s->own + his - s->his;
            s->privilege_used = d >= 1 || (d == 0 && sum > 4);
        }
    }
    s->seen = true;
    s->own = own;
    s->his = his;
    s->called = false;
}

void tx_botio_side_answer(struct tx_botio_side *s, const struct tx_game *g, const struct tx_move *m)
{
    bool hole = m->move >= 0;
    if (m->move == TX_MOVE_SWAP && g->opening == TX_OPENING_PIE)
        s->colour = 0; /* it took the first peg's side */
    else if (m->move == TX_MOVE_CHOOSE_RED)
        s->colour = 0;
    else if (m->move == TX_MOVE_CHOOSE_BLACK)
        s->colour = 1;
    if (hole)
        s->placed = m->move;
    else if (m->move == TX_MOVE_CUT)
        s->placed = m->cut[0];
    s->called = hole && m->privilege;
    if (s->called)
        s->privilege_used = true;
    /* After a hole, the next input comes after holes only, unless it was
     * the game's first move and a swap follows (told by the next input). */
    s->clean = hole;
    s->pending = hole && g->nmoves == 0 && g->opening != TX_OPENING_NONE;
    s->mirror = s->pending && g->opening == TX_OPENING_SWAP && tx_geometry_square(g->geo)
                    ? tx_geometry_mirror(g->geo, m->move)
                    : -1;
}

/* Any legal answer: the safety net when a strategy returned an illegal
 * one. A hole; in the cut opening the first holes each colour may use
 * (unlinked), or CHOOSE 2. Returns the move in m, false when there is
 * none. */
static bool any_legal(const struct tx_game *g, struct tx_move *m)
{
    const struct tx_geometry *geo = g->geo;
    *m = (struct tx_move){.move = -1, .cut = {-1, -1, -1}};
    if (g->phase == TX_PHASE_CHOOSE) {
        m->move = TX_MOVE_CHOOSE_BLACK;
        return true;
    }
    if (g->phase == TX_PHASE_CUT) {
        int n = 0;
        for (int h = 0; h < geo->holes && n < 2; h++)
            if (tx_geometry_playable(geo, 0, h))
                m->cut[n++] = h;
        for (int h = 0; h < geo->holes && m->cut[2] < 0; h++)
            if (h != m->cut[0] && h != m->cut[1] && tx_geometry_playable(geo, 1, h))
                m->cut[2] = h;
        m->move = TX_MOVE_CUT;
        return true;
    }
    int16_t moves[TX_MOVES_MAX];
    int n = tx_game_legal_moves(g, moves);
    for (int i = 0; i < n && m->move < 0; i++)
        if (moves[i] != TX_MOVE_SWAP)
            m->move = moves[i];
    if (m->move < 0 && n > 0)
        m->move = moves[0];
    return m->move != -1;
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

/* Prints the answer: the move (a hole, SWAP, CUT and its holes, CHOOSE n),
 * its edits, privilege, the message. */
static void answer(const struct tx_geometry *geo, const struct tx_move *m, const char *message)
{
    char name[TX_HOLE_NAME_MAX], edit[TX_EDIT_NAME_MAX];
    if (m->move == TX_MOVE_SWAP)
        fputs("SWAP", stdout);
    else if (m->move == TX_MOVE_CHOOSE_RED || m->move == TX_MOVE_CHOOSE_BLACK)
        fputs(m->move == TX_MOVE_CHOOSE_RED ? "CHOOSE 1" : "CHOOSE 2", stdout);
    else if (m->move == TX_MOVE_CUT)
        for (int i = 0; i < 3; i++)
            printf(i ? " %s" : "CUT %s", tx_hole_name(geo, m->cut[i], name));
    else
        fputs(tx_hole_name(geo, m->move, name), stdout);
    for (int i = 0; i < m->nedits; i++)
        printf(" %s", tx_edit_name(&m->edits[i], edit));
    if (m->privilege)
        fputs(" " TX_ANSWER_PRIVILEGE, stdout);
    if (message[0])
        printf(" %s", message);
    putchar('\n');
    fflush(stdout);
}

/* Makes m legal in g, loudly: without privilege, then without edits, then
 * any legal answer. Returns false when there is none. */
static bool make_legal(const char *prog, const struct tx_game *g, struct tx_move *m)
{
    char why[160];
    enum tx_illegal bad = tx_game_check_answer(g, m, NULL);
    if (bad == TX_LEGAL)
        return true;
    tx_answer_describe(g, m, bad, NULL, why, sizeof why);
    fprintf(stderr, "%s: BUG: strategy chose an illegal answer (%s), ", prog, why);
    if (m->privilege) {
        m->privilege = false;
        if (tx_game_check_answer(g, m, NULL) == TX_LEGAL) {
            fprintf(stderr, "playing it without privilege\n");
            return true;
        }
    }
    if (m->nedits > 0) {
        m->nedits = 0;
        if (tx_game_check_answer(g, m, NULL) == TX_LEGAL) {
            fprintf(stderr, "playing it without edits\n");
            return true;
        }
    }
    fprintf(stderr, "playing another\n");
    return any_legal(g, m);
}

int tx_botio_run(const struct tx_geometry *geo, const struct tx_variant *v, const char *prog,
                 tx_botio_think_fn think, void *data)
{
    size_t cap = tx_input_max(geo) + 1;
    char *text = tx_xmalloc(cap);
    struct tx_input *in = tx_xmalloc(sizeof(*in));
    struct tx_game *g = tx_game_new(geo, v->rules);
    struct tx_botio_edits *edits = tx_xmalloc(sizeof *edits);
    struct tx_botio_side side;
    int r = 0;

    tx_botio_side_init(&side);
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
        tx_botio_side_input(&side, v, in);
        if (tx_game_from_input_variant(g, geo, v, in, side.colour) < 0) {
            fprintf(stderr, "%s: turn %d: impossible position for %s\n", prog, turn + 1,
                    side.colour ? "black" : "red");
            r = -EINVAL;
            break;
        }
        int cut[3] = {-1, -1, -1};
        bool privilege = false;
        edits->n = 0;
        struct tx_botio_turn t = {.game = g,
                                  .input = in,
                                  .variant = v,
                                  .me = side.colour,
                                  .turn = turn,
                                  .start_ns = start,
                                  .privilege_left = v->teams && !side.privilege_used,
                                  .edits = edits,
                                  .cut = cut,
                                  .privilege = &privilege};
        int move = think(&t, data, message);
        if (privilege && !t.privilege_left) {
            fprintf(stderr, "%s: BUG: strategy called privilege its team has no more\n", prog);
            privilege = false;
        }
        if (edits->n < 0 || edits->n > TX_BOTIO_EDITS_MAX)
            edits->n = 0;
        struct tx_move m = {.move = move,
                            .cut = {cut[0], cut[1], cut[2]},
                            .privilege = privilege,
                            .nedits = edits->n,
                            .edits = edits->list};
        if (!make_legal(prog, g, &m)) {
            r = -EINVAL; /* no legal move: the referee would have ended the game */
            break;
        }
        tx_botio_side_answer(&side, g, &m);
        clean_message(message);
        answer(geo, &m, message);
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

/* The opening named value (of option or variable `what`), or -EINVAL after
 * a message. */
static int set_opening(const char *prog, const char *what, const char *value,
                       struct tx_botio_options *opt)
{
    int id = tx_opening_rule_from_name(value);
    if (id < 0) {
        fprintf(stderr, "%s: %s: expected swap, pie, cut or none, got \"%s\"\n", prog, what, value);
        return -EINVAL;
    }
    opt->variant.opening = (enum tx_opening_rule)id;
    return 0;
}

/* Double TwixT or not: "1" or "0" (the referee's {teams}), or -EINVAL. */
static int set_teams(const char *prog, const char *what, const char *value,
                     struct tx_botio_options *opt)
{
    if (strcmp(value, "0") != 0 && strcmp(value, "1") != 0) {
        fprintf(stderr, "%s: %s: expected 0 or 1, got \"%s\"\n", prog, what, value);
        return -EINVAL;
    }
    opt->variant.teams = value[0] == '1';
    return 0;
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
    const char *opening = getenv("TWIXT_OPENING"), *teams = getenv("TWIXT_TEAMS");
    if (opening && set_opening(prog, "TWIXT_OPENING", opening, opt) < 0)
        return -EINVAL;
    if (teams && set_teams(prog, "TWIXT_TEAMS", teams, opt) < 0)
        return -EINVAL;
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
    if (tx_botio_is_option(arg, "--opening") || tx_botio_is_option(arg, "--teams")) {
        bool opening = tx_botio_is_option(arg, "--opening");
        const char *value = option_value(prog, argc, argv, i);
        if (!value)
            return -EINVAL;
        int r = opening ? set_opening(prog, "--opening", value, opt)
                        : set_teams(prog, "--teams", value, opt);
        return r < 0 ? r : 1;
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
        status = tx_botio_run(geo, &opt.variant, bot->prog, bot->think, data) < 0 ? 1 : 0;
    if (bot->done)
        bot->done(data);
    tx_geometry_free(geo);
    return status;
}
