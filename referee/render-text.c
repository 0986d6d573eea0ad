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
    unsigned char ink;  /* enum ink */
    unsigned char mark; /* a hole the move shown placed (the last move) */
};

struct grid {
    int cols, rows; /* 2 * width - 1, 2 * height - 1 */
    int label;      /* characters of a row number: 3 from row 100, else 2 */
    bool compact;   /* one character between holes, not three */
    struct cell *c; /* [row * cols + column] */
    bool *row_mark; /* [hole row]: a marked hole in it */
    bool any_mark;
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

/* In the compact layout, a line with `mark` under or over the marked
 * holes' columns, when there are any. */
static void print_column_mark(FILE *out, const struct grid *gr, char mark)
{
    char *line;

    if (!gr->any_mark)
        return;
    line = tx_xmalloc((size_t)gr->cols + 1);
    memset(line, ' ', (size_t)gr->cols);
    for (int row = 0; row < gr->rows; row += 2)
        for (int col = 0; col < gr->cols; col += 2)
            if (at(gr, row, col)->mark)
                line[col] = mark;
    fprintf(out, "%*s", gr->label + 2, "");
    put_trimmed(out, line, (size_t)gr->cols);
    free(line);
}

/* True when the hole at (row, col) of the grid is marked; false between
 * holes and off the grid. */
static bool marked(const struct grid *gr, int row, int col)
{
    return row % 2 == 0 && col % 2 == 0 && col >= 0 && col < gr->cols && at(gr, row, col)->mark;
}

/* One character of a three-wide gap, coloured when it is part of a line. */
static void put_gap_char(FILE *out, char ch, bool colour, const char *on)
{
    bool ink = ch == '-' || ch == '|';
    start_ink(out, colour, ink ? on : "");
    fputc(ch, out);
    end_ink(out, colour, ink ? on : "");
}

static void print_row(FILE *out, const struct grid *gr, int row, bool colour)
{
    bool mark_row = row % 2 == 0 && gr->row_mark[row / 2];
    /* What marks the last move in the margins: in the wide layout the
     * brackets round a peg in the first or last column, in the compact
     * one arrows on both sides of its row. */
    char before = ' ', after = ' ';

    if (mark_row && gr->compact) {
        before = '>';
        after = '<';
    } else if (mark_row) {
        before = marked(gr, row, 0) ? '[' : ' ';
        after = marked(gr, row, gr->cols - 1) ? ']' : ' ';
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
            bool open = marked(gr, row, col + 1), close = marked(gr, row, col - 1);
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
        if (marked(gr, row, col) && colour)
            on = c->ink == INK_P0 ? "\033[1;7;31m" : "\033[1;7;34m";
        start_ink(out, colour, on);
        fputc(c->ch, out);
        end_ink(out, colour, on);
    }
    if (row % 2 == 0)
        fprintf(out, "%c %d", after, row / 2 + 1);
}

static void print_grid(FILE *out, const struct grid *gr, bool colour)
{
    char *line = NULL;
    size_t len = 0;

    if (gr->compact) {
        print_letters_down(out, gr);
        print_column_mark(out, gr, 'v');
    } else {
        print_letters(out, gr);
    }
    for (int row = 0; row < gr->rows; row++) {
        FILE *mem = tx_xcheck(open_memstream(&line, &len));
        print_row(mem, gr, row, colour);
        fclose(mem);
        put_trimmed(out, line, len);
        free(line);
    }
    if (gr->compact) {
        print_column_mark(out, gr, '^');
        print_letters_down(out, gr);
    } else {
        print_letters(out, gr);
    }
}

void tx_render_text_board(FILE *out, const struct tx_game *g, const int *marks, int nmarks,
                          bool colour)
{
    const struct tx_geometry *geo = g->geo;
    struct grid *gr = tx_xcalloc(1, sizeof *gr);
    int16_t *links = tx_xmalloc(sizeof *links * 2 * (size_t)geo->link_ids);

    gr->cols = 2 * geo->width - 1;
    gr->rows = 2 * geo->height - 1;
    gr->label = geo->height >= 100 ? 3 : 2;
    gr->compact = geo->width > WIDE_COLUMNS_MAX;
    gr->c = tx_xcalloc((size_t)gr->rows * (size_t)gr->cols, sizeof *gr->c);
    gr->row_mark = tx_xcalloc((size_t)geo->height, sizeof *gr->row_mark);
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
    for (int i = 0; i < nmarks; i++) {
        int x = tx_geometry_x(geo, marks[i]), y = tx_geometry_y(geo, marks[i]);
        at(gr, 2 * y, 2 * x)->mark = 1;
        gr->row_mark[y] = true;
        gr->any_mark = true;
    }
    print_grid(out, gr, colour);
    free(links);
    free(gr->row_mark);
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

const char *const tx_render_marks[2] = {"X", "O"};
const char *const tx_render_colours[2] = {"red", "blue"};

int tx_render_colour_of(const struct tx_game *g, int seat)
{
    return g->phase == TX_PHASE_PLAY ? tx_game_seat_colour(g, seat) : -1;
}

/* words[c], in the colour of c's pegs when ink. */
static void put_word(FILE *out, const char *const words[2], int c, bool ink)
{
    const char *on = peg_on[c == 0 ? INK_P0 : INK_P1];

    start_ink(out, ink, on);
    fputs(words[c], out);
    end_ink(out, ink, on);
}

void tx_render_player(FILE *out, const struct tx_record *r, int seat)
{
    fprintf(out, "player %d ", seat + 1);
    tx_render_text_safe(out, r->players[seat].name ? r->players[seat].name : "?", 64);
}

void tx_render_team(FILE *out, const struct tx_record *r, int team)
{
    fputs("team ", out);
    if (r->teams[team])
        tx_render_text_safe(out, r->teams[team], 64);
    else
        fprintf(out, "%d", team + 1);
}

void tx_render_team_members(FILE *out, const struct tx_record *r, const struct tx_game *g, int team,
                            const char *const words[2], bool ink)
{
    int c = tx_render_colour_of(g, team);

    tx_render_team(out, r, team);
    fputs(" (", out);
    if (c >= 0) {
        put_word(out, words, c, ink);
        fputs(": ", out);
    }
    tx_render_player(out, r, team);
    fputs(", ", out);
    tx_render_player(out, r, team + 2);
    fputc(')', out);
}

/* One side of the game: the player in a game of two, its team with teams. */
static void put_side(FILE *out, const struct tx_record *r, int seat)
{
    if (r->nplayers == 4)
        tx_render_team(out, r, seat & 1);
    else
        tx_render_player(out, r, seat);
}

void tx_render_handicap(FILE *out, const struct tx_record *r, const struct tx_game *g)
{
    int c = -1;

    tx_render_text_safe(out, r->handicap, 64);
    for (int p = 0; p < r->nplayers && c < 0; p++)
        if (r->players[p].name && !strcmp(r->players[p].name, r->handicap))
            c = tx_render_colour_of(g, p);
    if (c == 0)
        fprintf(out, " crosses %d rows", g->geo->height);
    else if (c == 1)
        fprintf(out, " crosses %d columns", g->geo->width);
}

void tx_render_game_name(FILE *out, const struct tx_record *r, const struct tx_game *g)
{
    const char *sep = " (";

    fprintf(out, "game %lld", (long long)r->game);
    if (r->rules != TX_RULES_PP) {
        fprintf(out, "%s%s rules", sep, tx_ruleset(r->rules)->name);
        sep = ", ";
    }
    if (r->opening != TX_OPENING_SWAP) {
        fprintf(out, "%s%s opening", sep, tx_opening_rule_name(r->opening));
        sep = ", ";
    }
    if (r->nplayers == 4) {
        fprintf(out, "%sDouble TwixT", sep);
        sep = ", ";
    }
    if (r->handicap) {
        fprintf(out, "%shandicap: ", sep);
        tx_render_handicap(out, r, g);
        sep = ", ";
    }
    if (sep[0] == ',')
        fputc(')', out);
}

enum tx_render_entry tx_render_entry_kind(const struct tx_game *before, const struct tx_game *after)
{
    int n = after->nmoves - before->nmoves, last = tx_game_last_move(after);

    if (n <= 0)
        return TX_RENDER_UNPLAYED;
    if (n == 3)
        return TX_RENDER_CUT;
    if (last == TX_MOVE_SWAP)
        return after->exchanged ? TX_RENDER_PIE : TX_RENDER_MIRROR;
    if (last == TX_MOVE_CHOOSE_RED || last == TX_MOVE_CHOOSE_BLACK)
        return TX_RENDER_CHOOSE;
    return TX_RENDER_HOLE;
}

int tx_render_last_pegs(const struct tx_game *g, int pegs[3])
{
    int n = g->nmoves, last = tx_game_last_move(g);
    int16_t peg[2];

    if (n == 0 || last == TX_MOVE_CHOOSE_RED || last == TX_MOVE_CHOOSE_BLACK)
        return 0;
    if (tx_game_info(g, n - 1) & TX_INFO_CUT) {
        for (int i = 0; i < 3; i++)
            pegs[i] = tx_game_move(g, n - 3 + i);
        return 3;
    }
    if (last != TX_MOVE_SWAP) {
        pegs[0] = last;
        return 1;
    }
    /* The pie's first peg stays and changes hands; the mirrored peg is
     * player 2's only one. */
    if (tx_game_pegs(g, g->exchanged ? 0 : 1, peg) != 1)
        return 0;
    pegs[0] = peg[0];
    return 1;
}

int tx_render_entry_pegs(const struct tx_game *before, const struct tx_game *after, int pegs[3])
{
    return after->nmoves > before->nmoves ? tx_render_last_pegs(after, pegs) : 0;
}

int tx_render_skipped_seat(const struct tx_game *before, const struct tx_game *after)
{
    if (after->privileged == before->privileged || after->nmoves == before->nmoves)
        return -1;
    /* The opposing team's bot that was due next (game.h: next_of_team). */
    return before->next_of_team[(before->seat & 1) ^ 1];
}

bool tx_render_entry_has_note(const struct tx_game *before, const struct tx_game *after)
{
    enum tx_render_entry kind = tx_render_entry_kind(before, after);

    return kind == TX_RENDER_PIE || kind == TX_RENDER_CUT || kind == TX_RENDER_CHOOSE ||
           (kind == TX_RENDER_HOLE && after->privileged != before->privileged);
}

bool tx_render_entry_note(FILE *out, const struct tx_record *r, const struct tx_game *before,
                          const struct tx_game *after, const char *const words[2], bool ink)
{
    enum tx_render_entry kind = tx_render_entry_kind(before, after);
    char a[TX_HOLE_NAME_MAX], b[TX_HOLE_NAME_MAX];
    int seat = before->seat, pegs[3], skipped;

    switch (kind) {
    case TX_RENDER_PIE:
        tx_render_entry_pegs(before, after, pegs);
        fprintf(out, "the sides exchange, %s stays: ", tx_hole_name(after->geo, pegs[0], a));
        break;
    case TX_RENDER_CUT:
        tx_render_entry_pegs(before, after, pegs);
        put_word(out, words, 0, ink);
        fprintf(out, " %s %s%s; ", tx_hole_name(after->geo, pegs[0], a),
                tx_hole_name(after->geo, pegs[1], b),
                tx_game_linked(after, pegs[0], pegs[1]) ? ", linked" : "");
        put_word(out, words, 1, ink);
        fprintf(out, " %s; ", tx_hole_name(after->geo, pegs[2], a));
        tx_render_player(out, r, after->seat);
        fputs(" chooses a side", out);
        return true;
    case TX_RENDER_CHOOSE:
        break;
    case TX_RENDER_HOLE:
        skipped = tx_render_skipped_seat(before, after);
        if (skipped < 0)
            return false;
        tx_render_player(out, r, after->seat);
        fputs(" moves at once, ", out);
        tx_render_player(out, r, skipped);
        fputs(" loses its turn", out);
        return true;
    default:
        return false;
    }
    /* The sides after a pie swap or a choice, the mover's first. */
    put_side(out, r, seat);
    fputs(" plays ", out);
    put_word(out, words, tx_render_colour_of(after, seat), ink);
    fputs(", ", out);
    put_side(out, r, seat ^ 1);
    fputc(' ', out);
    put_word(out, words, tx_render_colour_of(after, seat ^ 1), ink);
    if (kind == TX_RENDER_CHOOSE) {
        fputs("; ", out);
        tx_render_player(out, r, after->seat);
        fputs(" moves next", out);
    }
    return true;
}

/* "player 2 beta (O)": the mark of the colour the player plays in g (none
 * before the sides are decided), and with teams its team's name: "player
 * 3 carol (X, team red)". */
static void print_player(FILE *out, const struct tx_record *r, const struct tx_game *g, int p,
                         bool colour)
{
    int c = tx_render_colour_of(g, p);

    tx_render_player(out, r, p);
    if (c < 0 && r->nplayers != 4)
        return;
    fputs(" (", out);
    if (c >= 0)
        put_word(out, tx_render_marks, c, colour);
    if (c >= 0 && r->nplayers == 4)
        fputs(", ", out);
    if (r->nplayers == 4)
        tx_render_team(out, r, p & 1);
    fputc(')', out);
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

void tx_render_answer(FILE *out, const struct tx_record_move *m)
{
    tx_render_text_safe(out, m->move, 48);
    for (int i = 0; i < m->nedits; i++) {
        fputc(' ', out);
        tx_render_text_safe(out, m->edits[i], TX_RECORD_EDIT_MAX);
    }
    if (m->privilege)
        fputs(" " TX_ANSWER_PRIVILEGE, out);
}

static void print_header(FILE *out, const struct tx_game *before, const struct tx_game *after,
                         const struct tx_record *r, int upto, bool colour)
{
    const struct tx_record_move *m = &r->moves[upto - 1];
    enum tx_render_entry kind = tx_render_entry_kind(before, after);
    bool played = kind != TX_RENDER_UNPLAYED;

    tx_render_game_name(out, r, after);
    fprintf(out, ", move %d of %d: ", upto, r->nmoves);
    print_player(out, r, after, m->player, colour);
    if (!m->move) {
        fprintf(out, " gave no answer in %.1f ms\n", m->us / 1000.0);
        return;
    }
    fputs(played ? " " : " answered \"", out);
    tx_render_answer(out, m);
    if (!played)
        fputs("\", not played", out);
    if (kind == TX_RENDER_MIRROR) {
        char a[TX_HOLE_NAME_MAX];
        int pegs[3];
        if (tx_render_entry_pegs(before, after, pegs) == 1)
            fprintf(out, " (the peg becomes %s)", tx_hole_name(after->geo, pegs[0], a));
    } else if (tx_render_entry_has_note(before, after)) {
        /* What the entry did besides its move, in parentheses. */
        fputs(" (", out);
        tx_render_entry_note(out, r, before, after, tx_render_marks, colour);
        fputc(')', out);
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

/* The result; g is the final position (the colours the sides play). */
static void print_result(FILE *out, const struct tx_record *r, const struct tx_game *g, bool colour)
{
    const char *reason = tx_reason_name(r->result.reason);
    int winner = r->result.winner;

    fputs("result: ", out);
    if ((winner == 0 || winner == 1) && r->nplayers == 4) {
        /* With teams the winner is a team: seat `winner` is one of it. */
        int c = tx_render_colour_of(g, winner);
        tx_render_team(out, r, winner);
        if (c >= 0) {
            fputs(" (", out);
            put_word(out, tx_render_marks, c, colour);
            fputc(')', out);
        }
        fprintf(out, " wins by %s", reason ? reason : "?");
    } else if (winner == 0 || winner == 1) {
        print_player(out, r, g, winner, colour);
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
    int marks[3], nmarks = played ? tx_render_entry_pegs(before, after, marks) : 0;

    if (upto == 0) {
        tx_render_game_name(out, r, after);
        fputs(", before the first move: ", out);
        if (r->nplayers == 4) {
            tx_render_team_members(out, r, after, 0, tx_render_marks, colour);
            fputs(" against ", out);
            tx_render_team_members(out, r, after, 1, tx_render_marks, colour);
        } else {
            print_player(out, r, after, 0, colour);
            fputs(" against ", out);
            print_player(out, r, after, 1, colour);
        }
        fputc('\n', out);
    } else {
        print_header(out, before, after, r, upto, colour);
    }
    tx_render_text_board(out, after, marks, nmarks, colour);
    if (played)
        print_link_changes(out, before, after, links, colour);
    print_links(out, after, links, colour);
    if (upto > 0)
        print_stderr(out, r->moves[upto - 1].stderr_text);
    if (upto == r->nmoves)
        print_result(out, r, after, colour);
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
     * be one), the position stays where it was. It starts as the record's
     * game (its opening, its seats). */
    tx_verify_position(geo, r, 0, after);
    tx_game_copy(before, after);
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
