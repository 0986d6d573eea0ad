/* input.c - the turn input text of RULES.md "Input", written and read back.
 *
 * The writer lists pegs and links from the game's own derivations
 * (tx_game_pegs, tx_game_links), so what a bot reads is the board the
 * referee plays on. The parser is strict, for tools that must notice a
 * wrong byte: every line ends in "\n", counts are decimal without sign or
 * leading zeros, names are on the board, a link line is two names and one
 * space, and nothing follows the last line. Its errors name the line.
 */
#include "input.h"

#include <assert.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "hole.h"

/* A bounded appender: once out of room it stays failed. */
struct out {
    char *buf;
    size_t cap, len;
    bool full;
};

static void put(struct out *o, const char *s, size_t n)
{
    if (o->full || o->len + n + 1 > o->cap) {
        o->full = true;
        return;
    }
    memcpy(o->buf + o->len, s, n);
    o->len += n;
}

/* A count and its newline, without printf (a turn writes four). */
static void put_count(struct out *o, int n)
{
    assert(n >= 0);
    char tmp[16];
    char *p = tmp + sizeof tmp;
    *--p = '\n';
    do
        *--p = (char)('0' + n % 10);
    while ((n /= 10) > 0);
    put(o, p, (size_t)(tmp + sizeof tmp - p));
}

static void put_hole(struct out *o, const struct tx_geometry *geo, int hole, char end)
{
    size_t n;
    const char *name = tx_hole_name_ref(geo, hole, &n);
    if (o->full || o->len + n + 2 > o->cap) {
        o->full = true;
        return;
    }
    memcpy(o->buf + o->len, name, n);
    o->buf[o->len + n] = end;
    o->len += n + 1;
}

static void put_player(struct out *o, const struct tx_game *g, int player, int16_t *list)
{
    int n = tx_game_pegs(g, player, list);
    put_count(o, n);
    for (int i = 0; i < n; i++)
        put_hole(o, g->geo, list[i], '\n');
    n = tx_game_links(g, player, list);
    put_count(o, n);
    for (int i = 0; i < n; i++) {
        put_hole(o, g->geo, list[2 * i], ' ');
        put_hole(o, g->geo, list[2 * i + 1], '\n');
    }
}

/* The last move made by a seat of the other team than seat's (the other
 * bot in a game of two), or -1. */
static int opponents_last(const struct tx_game *g, int seat)
{
    for (int i = g->nmoves - 1; i >= 0; i--)
        if ((tx_game_info(g, i) & TX_INFO_SEAT & 1) != (seat & 1))
            return i;
    return -1;
}

int tx_input_write(const struct tx_game *g, int seat, bool first_turn, char *buf, size_t cap)
{
    assert(seat == g->seat);
    struct out o = {buf, cap, 0, false};
    int colour = tx_game_seat_colour(g, seat), last = opponents_last(g, seat);
    /* Right after the choice of a cut, both sides hear of it: the chooser
     * too, when it took black and moves again. */
    int newest = g->nmoves > 0 ? tx_game_move(g, g->nmoves - 1) : 0;
    if (newest == TX_MOVE_CHOOSE_RED || newest == TX_MOVE_CHOOSE_BLACK)
        last = g->nmoves - 1;
    int move = last >= 0 ? tx_game_move(g, last) : 0;

    /* SWAP first: player 1's first turn may follow player 2's swap of a
     * forced first peg, and then says SWAP as on CodinGame. */
    if (last >= 0 && move == TX_MOVE_SWAP)
        put(&o, "SWAP\n", 5);
    else if (last < 0 || (colour == 0 && first_turn))
        put(&o, "FIRST\n", 6);
    else if (tx_game_info(g, last) & TX_INFO_CUT)
        put(&o, "CUT\n", 4);
    else if (move == TX_MOVE_CHOOSE_RED || move == TX_MOVE_CHOOSE_BLACK)
        put(&o, move == TX_MOVE_CHOOSE_RED ? "CHOOSE 1\n" : "CHOOSE 2\n", 9);
    else
        put_hole(&o, g->geo, move, '\n');
    /* A list of pegs or of links (two holes each) of one player. */
    int16_t *list = tx_xmalloc((size_t)g->geo->link_ids * 2 * sizeof *list);
    put_player(&o, g, colour, list);
    put_player(&o, g, 1 - colour, list);
    free(list);

    if (o.full) {
        if (cap > 0)
            buf[0] = '\0';
        return -ENOSPC;
    }
    buf[o.len] = '\0';
    return (int)o.len;
}

/* A line cursor over the text being parsed. */
struct reader {
    const struct tx_geometry *geo;
    const char *p, *end;
    int line;
    char *err;
    size_t errcap;
};

static int fail(struct reader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(struct reader *r, const char *fmt, ...)
{
    if (r->err && r->errcap > 0) {
        int n = snprintf(r->err, r->errcap, "line %d: ", r->line);
        if (n >= 0 && (size_t)n < r->errcap) {
            va_list ap;
            va_start(ap, fmt);
            vsnprintf(r->err + n, r->errcap - (size_t)n, fmt, ap);
            va_end(ap);
        }
    }
    return -EINVAL;
}

/* Takes the next line (without its "\n") into *s, *len. */
static int next_line(struct reader *r, const char **s, size_t *len, const char *what)
{
    r->line++;
    if (r->p == r->end)
        return fail(r, "expected %s, found the end of the input", what);
    const char *nl = memchr(r->p, '\n', (size_t)(r->end - r->p));
    if (!nl)
        return fail(r, "expected %s ending in a newline", what);
    *s = r->p;
    *len = (size_t)(nl - r->p);
    r->p = nl + 1;
    return 0;
}

static int parse_hole(struct reader *r, const char *s, size_t len, int *ret_hole)
{
    switch (tx_hole_parse(r->geo, s, len, ret_hole)) {
    case TX_HOLE_OK:
        return 0;
    case TX_HOLE_OUT_OF_RANGE:
        return fail(r, "hole %.*s is off the %dx%d board", (int)(len > 8 ? 8 : len), s,
                    r->geo->width, r->geo->height);
    case TX_HOLE_MALFORMED:
    default:
        return fail(r, "expected a hole name");
    }
}

static int read_count(struct reader *r, int max, int *ret)
{
    const char *s;
    size_t len;
    if (next_line(r, &s, &len, "a count") < 0)
        return -EINVAL;
    if (len == 0 || len > 5 || (s[0] == '0' && len > 1))
        return fail(r, "expected a count");
    int n = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9')
            return fail(r, "expected a count");
        n = n * 10 + (s[i] - '0');
    }
    if (n > max)
        return fail(r, "count %d is more than the board holds (%d)", n, max);
    *ret = n;
    return 0;
}

static int read_pegs(struct reader *r, int16_t *pegs, int *ret_n)
{
    int n;
    if (read_count(r, r->geo->holes, &n) < 0)
        return -EINVAL;
    for (int i = 0; i < n; i++) {
        const char *s;
        size_t len;
        int hole;
        if (next_line(r, &s, &len, "a hole name") < 0 || parse_hole(r, s, len, &hole) < 0)
            return -EINVAL;
        pegs[i] = (int16_t)hole;
    }
    *ret_n = n;
    return 0;
}

static int read_links(struct reader *r, int16_t *links, int *ret_n)
{
    int n;
    if (read_count(r, r->geo->holes * 4, &n) < 0)
        return -EINVAL;
    for (int i = 0; i < n; i++) {
        const char *s;
        size_t len;
        int a, b;
        if (next_line(r, &s, &len, "a link") < 0)
            return -EINVAL;
        const char *space = memchr(s, ' ', len);
        if (!space)
            return fail(r, "expected two hole names separated by one space");
        size_t alen = (size_t)(space - s);
        if (parse_hole(r, s, alen, &a) < 0 || parse_hole(r, space + 1, len - alen - 1, &b) < 0)
            return -EINVAL;
        links[2 * i] = (int16_t)a;
        links[2 * i + 1] = (int16_t)b;
    }
    *ret_n = n;
    return 0;
}

int tx_input_parse(const struct tx_geometry *geo, const char *text, size_t len, struct tx_input *in,
                   char *err, size_t errcap)
{
    struct reader r = {geo, text, text + len, 0, err, errcap};
    const char *s;
    size_t n;

    if (err && errcap > 0)
        err[0] = '\0';
    if (next_line(&r, &s, &n, "FIRST, SWAP or a hole name") < 0)
        return -EINVAL;
    if (n == 5 && memcmp(s, "FIRST", 5) == 0)
        in->last = TX_INPUT_FIRST;
    else if (n == 4 && memcmp(s, "SWAP", 4) == 0)
        in->last = TX_MOVE_SWAP;
    else if (n == 3 && memcmp(s, "CUT", 3) == 0)
        in->last = TX_MOVE_CUT;
    else if (n == 8 && memcmp(s, "CHOOSE ", 7) == 0 && (s[7] == '1' || s[7] == '2'))
        in->last = s[7] == '1' ? TX_MOVE_CHOOSE_RED : TX_MOVE_CHOOSE_BLACK;
    else if (tx_hole_parse(geo, s, n, &in->last) != TX_HOLE_OK)
        return fail(&r, "expected FIRST, SWAP or a hole name");

    for (int side = 0; side < 2; side++) {
        if (read_pegs(&r, in->pegs[side], &in->npegs[side]) < 0 ||
            read_links(&r, in->links[side], &in->nlinks[side]) < 0)
            return -EINVAL;
    }
    if (r.p != r.end) {
        r.line++;
        return fail(&r, "unexpected text after the input");
    }
    return 0;
}

int tx_input_first_player(const struct tx_input *in)
{
    return in->last == TX_INPUT_FIRST || in->last == TX_MOVE_SWAP ? 0 : 1;
}
