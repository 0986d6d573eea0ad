/* render-text.c - draws recorded positions for a terminal.
 *
 * The diagram is built in a grid of (2W-1) x (2H-1) cells first (holes at
 * even coordinates, link midpoints and border lines in between) and printed
 * afterwards, so drawing order never matters: a cell holds one character and
 * who owns it. Hole columns print one character wide. On boards of up to 26
 * columns (one-letter names) the columns between them print three wide,
 * which keeps a 12 x 12 board about as wide as it is tall in a terminal
 * font; wider boards are drawn compact, one character between holes, so
 * that 100 columns take about 210 characters, with the two-letter column
 * names written downwards on two lines and the last move pointed at from
 * the margins (no room for brackets).
 */
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "answer.h"
#include "hole.h"
#include "render-text.h"
#include "verify.h"

#define STDERR_LINES_SHOWN 5
#define STDERR_LINE_BYTES 160
/* The widest board drawn with three-character gaps: the one-letter columns. */
#define WIDE_COLUMNS_MAX 26

enum ink { INK_NONE, INK_P0, INK_P1, INK_LAST };

struct cell {
    char ch;
    unsigned char ink; /* enum ink */
};

struct grid {
    int cols, rows; /* 2 * width - 1, 2 * height - 1 */
    int label;      /* characters of a row number: 3 from row 100, else 2 */
    bool compact;   /* one character between holes, not three */
    struct cell *c; /* [row * cols + column] */
};

static struct cell *at(const struct grid *gr, int row, int col)
{
    return &gr->c[row * gr->cols + col];
}

static const char *const ink_on[] = {"", "\033[31m", "\033[34m", "\033[1;7m"};
static const char *const peg_on[] = {"", "\033[1;31m", "\033[1;34m", "\033[1;7m"};
#define INK_OFF "\033[0m"

static const char peg_char[2] = {'X', 'O'};

void tx_render_text_safe(FILE *out, const char *s, size_t max_bytes)
{
    size_t i;

    /* Past max_bytes, only finish the UTF-8 sequence under way. */
    for (i = 0; s[i] && (i < max_bytes || ((unsigned char)s[i] & 0xC0) == 0x80); i++) {
        unsigned char c = (unsigned char)s[i];
        /* C1 controls are U+0080..U+009F, encoded 0xC2 0x80..0x9F. */
        if (c == 0xC2 && (unsigned char)s[i + 1] >= 0x80 && (unsigned char)s[i + 1] <= 0x9F) {
            fputc('?', out);
            i++;
        } else if (c < 0x20 || c == 0x7F) {
            fputc('?', out);
        } else {
            fputc(c, out);
        }
    }
    if (s[i])
        fputs("...", out);
}

static void put(struct grid *gr, int row, int col, char ch, int ink)
{
    struct cell *c = at(gr, row, col);

    /* Two same-colour links through one midpoint cross there (PP rule). */
    if ((c->ch == '/' && ch == '\\') || (c->ch == '\\' && ch == '/'))
        ch = '*';
    c->ch = ch;
    c->ink = (unsigned char)ink;
}

static void draw_borders(struct grid *gr)
{
    /* The in-between row and column next to the far borders. */
    int last_row = gr->rows - 2, last_col = gr->cols - 2;

    /* Player 1's lines run between rows 1|2 and the last two, player 2's
     * between columns A|B and the last two. Corners belong to neither. */
    for (int i = 1; i <= last_col; i++) {
        char h = i == 1 || i == last_col ? '+' : '-';
        put(gr, 1, i, h, h == '+' ? INK_NONE : INK_P0);
        put(gr, last_row, i, h, h == '+' ? INK_NONE : INK_P0);
    }
    for (int i = 1; i <= last_row; i++) {
        char v = i == 1 || i == last_row ? '+' : '|';
        put(gr, i, 1, v, v == '+' ? INK_NONE : INK_P1);
        put(gr, i, last_col, v, v == '+' ? INK_NONE : INK_P1);
    }
}

static void draw_links(struct grid *gr, const struct tx_game *g, int16_t *links)
{
    const struct tx_geometry *geo = g->geo;

    for (int p = 0; p < 2; p++) {
        int n = tx_game_links(g, p, links);
        for (int k = 0; k < n; k++) {
            int a = links[2 * k], b = links[2 * k + 1];
            int ax = tx_geometry_x(geo, a), ay = tx_geometry_y(geo, a);
            int bx = tx_geometry_x(geo, b), by = tx_geometry_y(geo, b);
            /* The midpoint in doubled coordinates is simply the sum. */
            char slope = (bx - ax) * (by - ay) > 0 ? '\\' : '/';
            put(gr, ay + by, ax + bx, slope, p == 0 ? INK_P0 : INK_P1);
        }
    }
}

static void start_ink(FILE *out, bool colour, const char *on)
{
    if (colour && *on)
        fputs(on, out);
}

static void end_ink(FILE *out, bool colour, const char *on)
{
    if (colour && *on)
        fputs(INK_OFF, out);
}

/* Writes line without its trailing spaces, then a newline. */
static void put_trimmed(FILE *out, const char *line, size_t len)
{
    while (len > 0 && line[len - 1] == ' ')
        len--;
    fwrite(line, 1, len, out);
    fputc('\n', out);
}

static void print_letters(FILE *out, const struct grid *gr)
{
    int width = (gr->cols + 1) / 2;
    fprintf(out, "%*s", gr->label + 2, "");
    for (int x = 0; x < width; x++) {
        char name[3];
        tx_hole_column_name(x, name);
        /* Each column is 4 characters wide: a two-letter name takes one of
         * the gap's. */
        fprintf(out, "%s%s", name, x + 1 == width ? "\n" : name[1] ? "  " : "   ");
    }
}

/* The compact layout's column names, downwards: the first letters of the
 * two-letter names on one line, the last letters under them. */
static void print_letters_down(FILE *out, const struct grid *gr)
{
    int width = (gr->cols + 1) / 2;
    char *line = tx_xmalloc((size_t)gr->cols + 1);

    for (int part = 0; part < 2; part++) {
        memset(line, ' ', (size_t)gr->cols);
        for (int x = 0; x < width; x++) {
            char name[3];
            tx_hole_column_name(x, name);
            line[2 * x] = part == 0 ? (name[1] ? name[0] : ' ') : name[1] ? name[1] : name[0];
        }
        fprintf(out, "%*s", gr->label + 2, "");
        put_trimmed(out, line, (size_t)gr->cols);
    }
    free(line);
}

/* In the compact layout, a line with `mark` under or over the last move's
 * column (last_x), when there is one. */
static void print_column_mark(FILE *out, const struct grid *gr, int last_x, char mark)
{
    if (last_x >= 0)
        fprintf(out, "%*s%c\n", gr->label + 2 + 2 * last_x, "", mark);
}

/* One character of a three-wide gap, coloured when it is part of a line. */
static void put_gap_char(FILE *out, char ch, bool colour, const char *on)
{
    bool ink = ch == '-' || ch == '|';
    start_ink(out, colour, ink ? on : "");
    fputc(ch, out);
    end_ink(out, colour, ink ? on : "");
}

static void print_row(FILE *out, const struct grid *gr, int row, int last_x, int last_y,
                      bool colour)
{
    bool last_row = row % 2 == 0 && row / 2 == last_y;
    /* What marks the last move in the margins: in the wide layout the
     * brackets round a peg in the first or last column, in the compact
     * one arrows on both sides of its row. */
    char before = ' ', after = ' ';

    if (last_row && gr->compact) {
        before = '>';
        after = '<';
    } else if (last_row) {
        before = last_x == 0 ? '[' : ' ';
        after = last_x == gr->cols / 2 ? ']' : ' ';
    }
    if (row % 2 == 0)
        fprintf(out, "%*d %c", gr->label, row / 2 + 1, before);
    else
        fprintf(out, "%*s", gr->label + 2, "");
    for (int col = 0; col < gr->cols; col++) {
        const struct cell *c = at(gr, row, col);
        const char *on = col % 2 == 0 && row % 2 == 0 ? peg_on[c->ink] : ink_on[c->ink];
        if (col % 2 == 1 && !gr->compact) {
            /* A three-wide gap: brackets mark the last move's peg; a border
             * line continues through it, at a corner ("+") only inwards. */
            bool open = last_row && (col + 1) / 2 == last_x,
                 close = last_row && (col - 1) / 2 == last_x;
            bool line = c->ch == '-';
            char left = close ? ']' : line || (c->ch == '+' && col != 1) ? '-' : ' ';
            char right = open ? '[' : line || (c->ch == '+' && col == 1) ? '-' : ' ';
            put_gap_char(out, left, colour, on);
            start_ink(out, colour, on);
            fputc(c->ch, out);
            end_ink(out, colour, on);
            put_gap_char(out, right, colour, on);
            continue;
        }
        if (last_row && col / 2 == last_x && col % 2 == 0 && colour)
            on = c->ink == INK_P0 ? "\033[1;7;31m" : "\033[1;7;34m";
        start_ink(out, colour, on);
        fputc(c->ch, out);
        end_ink(out, colour, on);
    }
    if (row % 2 == 0)
        fprintf(out, "%c %d", after, row / 2 + 1);
}

static void print_grid(FILE *out, const struct grid *gr, int last_x, int last_y, bool colour)
{
    char *line = NULL;
    size_t len = 0;

    if (gr->compact) {
        print_letters_down(out, gr);
        print_column_mark(out, gr, last_x, 'v');
    } else {
        print_letters(out, gr);
    }
    for (int row = 0; row < gr->rows; row++) {
        FILE *mem = tx_xcheck(open_memstream(&line, &len));
        print_row(mem, gr, row, last_x, last_y, colour);
        fclose(mem);
        put_trimmed(out, line, len);
        free(line);
    }
    if (gr->compact) {
        print_column_mark(out, gr, last_x, '^');
        print_letters_down(out, gr);
    } else {
        print_letters(out, gr);
    }
}

void tx_render_text_board(FILE *out, const struct tx_game *g, int last, bool colour)
{
    const struct tx_geometry *geo = g->geo;
    struct grid *gr = tx_xcalloc(1, sizeof *gr);
    int16_t *links = tx_xmalloc(sizeof *links * 2 * (size_t)geo->link_ids);

    gr->cols = 2 * geo->width - 1;
    gr->rows = 2 * geo->height - 1;
    gr->label = geo->height >= 100 ? 3 : 2;
    gr->compact = geo->width > WIDE_COLUMNS_MAX;
    gr->c = tx_xcalloc((size_t)gr->rows * (size_t)gr->cols, sizeof *gr->c);
    for (int i = 0; i < gr->rows * gr->cols; i++)
        gr->c[i].ch = ' ';
    draw_borders(gr);
    for (int h = 0; h < geo->holes; h++) {
        int x = tx_geometry_x(geo, h), y = tx_geometry_y(geo, h);
        struct cell *c = at(gr, 2 * y, 2 * x);
        int cell = tx_game_cell(g, h);
        if (geo->zone[h] & TX_ZONE_CORNER)
            continue;
        c->ch = cell == TX_EMPTY ? '.' : peg_char[cell - 1];
        c->ink = cell == TX_PEG0 ? INK_P0 : cell == TX_PEG1 ? INK_P1 : INK_NONE;
    }
    draw_links(gr, g, links);
    print_grid(out, gr, last >= 0 ? tx_geometry_x(geo, last) : -1,
               last >= 0 ? tx_geometry_y(geo, last) : -1, colour);
    free(links);
    free(gr->c);
    free(gr);
}

/* "X links (3): C1-D3 D3-C5 C5-E6" (what: "links", "links added", ...),
 * wrapped before column 70. */
static void print_link_list(FILE *out, const struct tx_geometry *geo, int p, const char *what,
                            const int16_t *links, int n, bool colour)
{
    const char *on = peg_on[p == 0 ? INK_P0 : INK_P1];
    int col;

    start_ink(out, colour, on);
    fprintf(out, "%c", peg_char[p]);
    end_ink(out, colour, on);
    col = fprintf(out, " %s (%d):", what, n) + 1;
    for (int k = 0; k < n; k++) {
        char a[TX_HOLE_NAME_MAX], b[TX_HOLE_NAME_MAX];
        if (col > 68)
            col = fprintf(out, "\n           ") - 1;
        col += fprintf(out, " %s-%s", tx_hole_name(geo, links[2 * k], a),
                       tx_hole_name(geo, links[2 * k + 1], b));
    }
    fputc('\n', out);
}

static void print_links(FILE *out, const struct tx_game *g, int16_t *links, bool colour)
{
    for (int p = 0; p < 2; p++)
        print_link_list(out, g->geo, p, "links", links, tx_game_links(g, p, links), colour);
}

int tx_render_links_not_in(const struct tx_game *in, int16_t *from, int n)
{
    int kept = 0;

    for (int k = 0; k < n; k++) {
        int id = tx_geometry_link(in->geo, from[2 * k], from[2 * k + 1]);
        if (id >= 0 && tx_game_has_link(in, id))
            continue;
        from[2 * kept] = from[2 * k];
        from[2 * kept + 1] = from[2 * k + 1];
        kept++;
    }
    return kept;
}

/* Under rules with link edits, links come and go: the links a move removed
 * and those it made (its own additions and automatic links), each player's
 * that changed. Under pp a move only adds its peg's links, which the lists
 * show, and nothing is printed. */
static void print_link_changes(FILE *out, const struct tx_game *before, const struct tx_game *after,
                               int16_t *links, bool colour)
{
    if (!tx_ruleset(after->rules)->link_edits)
        return;
    for (int p = 0; p < 2; p++) {
        int n = tx_render_links_not_in(after, links, tx_game_links(before, p, links));
        if (n > 0)
            print_link_list(out, after->geo, p, "links removed", links, n, colour);
        n = tx_render_links_not_in(before, links, tx_game_links(after, p, links));
        if (n > 0)
            print_link_list(out, after->geo, p, "links added", links, n, colour);
    }
}

static void print_player(FILE *out, const struct tx_record *r, int p, bool colour)
{
    const char *on = peg_on[p == 0 ? INK_P0 : INK_P1];

    fprintf(out, "player %d ", p + 1);
    tx_render_text_safe(out, r->players[p].name, 64);
    fputs(" (", out);
    start_ink(out, colour, on);
    fputc(peg_char[p], out);
    end_ink(out, colour, on);
    fputc(')', out);
}

/* "game 3", and the rule set when it is not pp's: "game 3 (classic rules)". */
static void print_game(FILE *out, const struct tx_record *r)
{
    fprintf(out, "game %lld", (long long)r->game);
    if (r->rules != TX_RULES_PP)
        fprintf(out, " (%s rules)", tx_ruleset(r->rules)->name);
}

static void print_stderr(FILE *out, const char *text)
{
    int lines = 0;

    while (text && *text && lines < STDERR_LINES_SHOWN) {
        const char *nl = strchr(text, '\n');
        size_t len = nl ? (size_t)(nl - text) : strlen(text);
        char *line = tx_strndup(text, len);
        fputs(lines == 0 ? "  stderr: " : "          ", out);
        tx_render_text_safe(out, line, STDERR_LINE_BYTES);
        fputc('\n', out);
        free(line);
        lines++;
        text = nl ? nl + 1 : text + len;
    }
    if (text && *text)
        fputs("          ... (more in the record)\n", out);
}

static void print_header(FILE *out, const struct tx_game *before, const struct tx_game *after,
                         const struct tx_record *r, int upto, bool colour)
{
    const struct tx_record_move *m = &r->moves[upto - 1];
    bool played = after->nmoves > before->nmoves;

    print_game(out, r);
    fprintf(out, ", move %d of %d: ", upto, r->nmoves);
    print_player(out, r, m->player, colour);
    if (!m->move) {
        fprintf(out, " gave no answer in %.1f ms\n", m->us / 1000.0);
        return;
    }
    fputs(played ? " " : " answered \"", out);
    tx_render_text_safe(out, m->move, 48);
    /* The link edits as the bot wrote them, after the hole. */
    for (int i = 0; i < m->nedits; i++) {
        fputc(' ', out);
        tx_render_text_safe(out, m->edits[i], TX_RECORD_EDIT_MAX);
    }
    if (!played)
        fputs("\", not played", out);
    if (played && tx_game_last_move(after) == TX_MOVE_SWAP) {
        char a[TX_HOLE_NAME_MAX];
        int16_t peg;
        tx_game_pegs(after, 1, &peg);
        fprintf(out, " (the peg becomes %s)", tx_hole_name(after->geo, peg, a));
    }
    if (m->forced)
        fputs("  forced opening", out);
    else
        fprintf(out, "  %.1f ms", m->us / 1000.0);
    if (m->message) {
        fputs("  \"", out);
        tx_render_text_safe(out, m->message, TX_MESSAGE_MAX);
        fputs(m->message_cut ? "...\" (cut)" : "\"", out);
    }
    fputc('\n', out);
}

static void print_result(FILE *out, const struct tx_record *r, bool colour)
{
    const char *reason = tx_reason_name(r->result.reason);

    fputs("result: ", out);
    if (r->result.winner == 0 || r->result.winner == 1) {
        print_player(out, r, r->result.winner, colour);
        fprintf(out, " wins by %s", reason ? reason : "?");
    } else {
        fputs(reason ? reason : "?", out);
    }
    if (r->result.detail && *r->result.detail) {
        fputs(" (", out);
        tx_render_text_safe(out, r->result.detail, 200);
        fputc(')', out);
    }
    fputc('\n', out);
}

/* Entry upto of r, given the positions before and after it (the same
 * position when it was not played, or upto is 0). links has room for every
 * link of the board. */
static void render_move(FILE *out, const struct tx_record *r, int upto,
                        const struct tx_game *before, const struct tx_game *after, int16_t *links,
                        bool colour)
{
    bool played = upto > 0 && after->nmoves > before->nmoves;
    int last = -1;

    if (upto == 0) {
        print_game(out, r);
        fputs(", before the first move: ", out);
        print_player(out, r, 0, colour);
        fputs(" against ", out);
        print_player(out, r, 1, colour);
        fputc('\n', out);
    } else {
        print_header(out, before, after, r, upto, colour);
    }
    if (played) {
        int16_t peg;
        last = tx_game_last_move(after);
        if (last == TX_MOVE_SWAP)
            last = tx_game_pegs(after, 1, &peg) == 1 ? peg : -1;
    }
    tx_render_text_board(out, after, last, colour);
    if (played)
        print_link_changes(out, before, after, links, colour);
    print_links(out, after, links, colour);
    if (upto > 0)
        print_stderr(out, r->moves[upto - 1].stderr_text);
    if (upto == r->nmoves)
        print_result(out, r, colour);
}

void tx_render_text_move(FILE *out, const struct tx_geometry *geo, const struct tx_record *r,
                         int upto, bool colour)
{
    struct tx_game *before = tx_game_new(geo, r->rules), *after = tx_game_new(geo, r->rules);
    int16_t *links = tx_xmalloc(sizeof *links * 2 * (size_t)geo->link_ids);

    if (upto < 0)
        upto = 0;
    if (upto > r->nmoves)
        upto = r->nmoves;
    tx_verify_position(geo, r, upto > 0 ? upto - 1 : 0, before);
    tx_verify_position(geo, r, upto, after);
    render_move(out, r, upto, before, after, links, colour);
    free(links);
    free(before);
    free(after);
}

void tx_render_text_game(FILE *out, const struct tx_geometry *geo, const struct tx_record *r,
                         bool colour)
{
    struct tx_game *before = tx_game_new(geo, r->rules), *after = tx_game_new(geo, r->rules);
    int16_t *links = tx_xmalloc(sizeof *links * 2 * (size_t)geo->link_ids);
    bool broken = false;

    /* One replay for the whole game, as tx_verify_position would make each
     * position: after an entry that could not be played (only the last may
     * be one), the position stays where it was. */
    if (r->nmoves == 0)
        render_move(out, r, 0, before, after, links, colour);
    for (int i = 1; i <= r->nmoves; i++) {
        tx_game_copy(before, after);
        if (!broken && !tx_verify_step(r, i - 1, after))
            broken = i != r->nmoves;
        render_move(out, r, i, before, after, links, colour);
        if (i < r->nmoves)
            fputc('\n', out);
    }
    free(links);
    free(before);
    free(after);
}
