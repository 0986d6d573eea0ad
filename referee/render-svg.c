/* render-svg.c - draws one recorded position as a standalone SVG document.
 *
 * Layout: a caption on top, as many lines as it wraps to, then the board
 * (moved down by the caption's height): one square of `cell` pixels per
 * hole and a MARGIN all round for the coordinates. Row 1 is at the top, as
 * in the text diagram and the HTML viewer. Links are drawn before pegs so
 * the pegs cover their ends; the winning chain is drawn first as a wide
 * gold underlay, so it shows through without hiding whose links they are;
 * the links the move removed (classic rules) are drawn dashed and faint.
 * Numbers are integers so the output is byte-for-byte stable (golden tests).
 *
 * Big boards: cells are 32 pixels up to 62 holes a side, then shrink so the
 * board stays about 2000 pixels wide (20-pixel cells on 100 x 100), with
 * pegs, lines and the coordinates' font in proportion; on a board with a
 * side over 26 the empty holes are one repeated pattern rather than a
 * circle each, which keeps a 100 x 100 picture to tens of kilobytes.
 */
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "answer.h"
#include "hole.h"
#include "render-svg.h"
#include "render-text.h"
#include "verify.h"

#define CELL 32           /* pixels from hole to hole, up to CELL_FULL_SIDE */
#define CELL_FULL_SIDE 62 /* the longest side drawn with full-size cells */
#define CELL_MIN 20       /* and the smallest cell (100 holes a side) */
#define BOARD_PIXELS 2000 /* a side of cells shrunk to fit a big board */
#define PATTERN_SIDE 26   /* beyond, empty holes are a pattern */
#define MARGIN 32
#define CAPTION_FONT 12
#define CAPTION_PAD 6    /* left and right of the caption's lines */
#define CAPTION_FIRST 15 /* the first line's baseline */
#define CAPTION_LINE 16  /* from one baseline to the next */
#define CAPTION_BELOW 9  /* from the last baseline to the board */
#define CAPTION_NAME_BYTES 64
#define CAPTION_DETAIL_BYTES 200

static const char *const colour[2] = {"#d62828", "#1d4ed8"};
#define GOLD "#f4b400"
#define BACKGROUND "#f7f3e8"

void tx_render_svg_escape(FILE *out, const char *s)
{
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        switch (c) {
        case '&':
            fputs("&amp;", out);
            break;
        case '<':
            fputs("&lt;", out);
            break;
        case '>':
            fputs("&gt;", out);
            break;
        case '"':
            fputs("&quot;", out);
            break;
        case '\'':
            fputs("&apos;", out);
            break;
        default:
            fputc(c < 0x20 || c == 0x7F ? '?' : c, out);
        }
    }
}

/* Sizes in pixels for one board: what a 32-pixel cell has, in proportion
 * to the cell (rounded), so a 12 x 12 picture is what it always was. */
struct layout {
    int cell;              /* from one hole to the next */
    int peg, hole, ring;   /* radii: a peg, an empty hole, the last move's ring */
    int link, chain, edge; /* stroke widths: links, the winning chain, border lines */
    int font;              /* the coordinates */
};

/* k pixels of a 32-pixel cell in a cell of `cell` pixels, rounded. */
static int scaled(int k, int cell)
{
    return (k * cell + CELL / 2) / CELL;
}

static struct layout layout_for(const struct tx_geometry *geo)
{
    int side = geo->width > geo->height ? geo->width : geo->height, cell = CELL;

    if (side > CELL_FULL_SIDE)
        cell = BOARD_PIXELS / side > CELL_MIN ? BOARD_PIXELS / side : CELL_MIN;
    return (struct layout){
        .cell = cell,
        .peg = scaled(9, cell),
        .hole = scaled(3, cell),
        .ring = scaled(13, cell),
        .link = scaled(4, cell),
        .chain = scaled(12, cell),
        .edge = scaled(3, cell),
        /* Two-letter column names fit their cell: 11 px in a 20-pixel one. */
        .font = cell * 11 / 20 < 13 ? cell * 11 / 20 : 13,
    };
}

static int px(const struct layout *l, int i)
{
    return MARGIN + i * l->cell + l->cell / 2;
}

static int py(const struct layout *l, int i)
{
    return MARGIN + i * l->cell + l->cell / 2;
}

static void draw_borders(FILE *out, const struct layout *l, const struct tx_geometry *geo)
{
    /* The lines run between the border rows/columns and the rest of the
     * board, from the first inner hole's edge to the last one's. */
    int lo = MARGIN + l->cell, hi = MARGIN + (geo->width - 1) * l->cell;
    int top = MARGIN + l->cell, bottom = MARGIN + (geo->height - 1) * l->cell;

    fprintf(out, "<g stroke-width=\"%d\" stroke-linecap=\"round\">\n", l->edge);
    fprintf(out, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\"/>\n", lo, top, hi,
            top, colour[0]);
    fprintf(out, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\"/>\n", lo, bottom, hi,
            bottom, colour[0]);
    fprintf(out, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\"/>\n", lo, top, lo,
            bottom, colour[1]);
    fprintf(out, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\"/>\n", hi, top, hi,
            bottom, colour[1]);
    fprintf(out, "</g>\n");
}

static void draw_coordinates(FILE *out, const struct layout *l, const struct tx_geometry *geo)
{
    int left = MARGIN / 2, right = MARGIN + geo->width * l->cell + MARGIN / 2;
    int top = MARGIN / 2 + 5, bottom = MARGIN + geo->height * l->cell + MARGIN / 2 + 5;
    int down = (l->font * 5 + 6) / 13; /* from a row's centre to its number's baseline */

    fprintf(out,
            "<g font-family=\"sans-serif\" font-size=\"%d\" fill=\"#555\" "
            "text-anchor=\"middle\">\n",
            l->font);
    for (int i = 0; i < geo->width || i < geo->height; i++) {
        char name[3];
        if (i < geo->width)
            fprintf(out, "<text x=\"%d\" y=\"%d\">%s</text><text x=\"%d\" y=\"%d\">%s</text>\n",
                    px(l, i), top, tx_hole_column_name(i, name), px(l, i), bottom, name);
        if (i < geo->height)
            fprintf(out, "<text x=\"%d\" y=\"%d\">%d</text><text x=\"%d\" y=\"%d\">%d</text>\n",
                    left, py(l, i) + down, i + 1, right, py(l, i) + down, i + 1);
    }
    fprintf(out, "</g>\n");
}

static void line_between(FILE *out, const struct layout *l, const struct tx_geometry *geo, int a,
                         int b, const char *attrs)
{
    fprintf(out, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" %s/>\n",
            px(l, tx_geometry_x(geo, a)), py(l, tx_geometry_y(geo, a)),
            px(l, tx_geometry_x(geo, b)), py(l, tx_geometry_y(geo, b)), attrs);
}

static void draw_chain(FILE *out, const struct layout *l, const struct tx_game *g, bool *in_chain)
{
    int16_t *chain = tx_xmalloc(sizeof *chain * (size_t)g->geo->holes);
    int n = g->status == TX_WON ? tx_game_winning_chain(g, chain) : 0;
    char attrs[96];

    snprintf(attrs, sizeof attrs,
             "stroke=\"" GOLD "\" stroke-width=\"%d\" stroke-linecap=\"round\"", l->chain);
    if (n > 0)
        fprintf(out, "<g id=\"winning-chain\">\n");
    for (int i = 0; i < n; i++) {
        in_chain[chain[i]] = true;
        if (i + 1 < n)
            line_between(out, l, g->geo, chain[i], chain[i + 1], attrs);
    }
    if (n > 0)
        fprintf(out, "</g>\n");
    free(chain);
}

/* The links of g, and under them, dashed, those that `before` (the
 * position before the move shown, or NULL) had and g has not. */
static void draw_links(FILE *out, const struct layout *l, const struct tx_game *g,
                       const struct tx_game *before)
{
    int16_t *links = tx_xmalloc(sizeof *links * 2 * (size_t)g->geo->link_ids);

    for (int p = 0; p < 2 && before; p++) {
        int n = tx_render_links_not_in(g, links, tx_game_links(before, p, links));
        if (n == 0)
            continue;
        fprintf(out,
                "<g class=\"removed-links\" stroke=\"%s\" stroke-width=\"%d\" "
                "stroke-dasharray=\"%d %d\" stroke-opacity=\"0.6\">\n",
                colour[p], (l->link + 1) / 2, l->link, l->link);
        for (int k = 0; k < n; k++)
            line_between(out, l, g->geo, links[2 * k], links[2 * k + 1], "");
        fprintf(out, "</g>\n");
    }
    for (int p = 0; p < 2; p++) {
        int n = tx_game_links(g, p, links);
        fprintf(out, "<g stroke=\"%s\" stroke-width=\"%d\" stroke-linecap=\"round\">\n", colour[p],
                l->link);
        for (int k = 0; k < n; k++)
            line_between(out, l, g->geo, links[2 * k], links[2 * k + 1], "");
        fprintf(out, "</g>\n");
    }
    free(links);
}

/* The empty holes of a big board: a dot repeated every cell over the
 * board, the corners painted over. */
static void draw_hole_pattern(FILE *out, const struct layout *l, const struct tx_geometry *geo)
{
    int w = geo->width * l->cell, h = geo->height * l->cell, c = l->cell;

    fprintf(out,
            "<defs><pattern id=\"holes\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
            "patternUnits=\"userSpaceOnUse\"><circle cx=\"%d\" cy=\"%d\" r=\"%d\" "
            "fill=\"#999\"/></pattern></defs>\n",
            MARGIN, MARGIN, c, c, c / 2, c / 2, l->hole);
    fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"url(#holes)\"/>\n",
            MARGIN, MARGIN, w, h);
    for (int corner = 0; corner < 4; corner++)
        fprintf(out,
                "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"" BACKGROUND "\"/>\n",
                MARGIN + (corner & 1 ? w - c : 0), MARGIN + (corner & 2 ? h - c : 0), c, c);
}

static void draw_holes_and_pegs(FILE *out, const struct layout *l, const struct tx_game *g,
                                const bool *in_chain, const int *marks, int nmarks)
{
    const struct tx_geometry *geo = g->geo;
    bool pattern = geo->width > PATTERN_SIDE || geo->height > PATTERN_SIDE;
    char empty[48]; /* the end of every empty hole's circle, formatted once */

    snprintf(empty, sizeof empty, "\" r=\"%d\" fill=\"#999\"/>\n", l->hole);
    if (pattern)
        draw_hole_pattern(out, l, geo);
    for (int h = 0; h < geo->holes; h++) {
        int x = px(l, tx_geometry_x(geo, h)), y = py(l, tx_geometry_y(geo, h));
        if (geo->zone[h] & TX_ZONE_CORNER)
            continue;
        if (tx_game_cell(g, h) == TX_EMPTY) {
            if (!pattern)
                fprintf(out, "<circle cx=\"%d\" cy=\"%d%s", x, y, empty);
            continue;
        }
        char chain[48] = "";
        if (in_chain[h])
            snprintf(chain, sizeof chain, " stroke=\"" GOLD "\" stroke-width=\"%d\"", l->edge);
        fprintf(out, "<circle cx=\"%d\" cy=\"%d\" r=\"%d\" fill=\"%s\"%s/>\n", x, y, l->peg,
                colour[tx_game_cell(g, h) - 1], chain);
        for (int i = 0; i < nmarks; i++)
            if (h == marks[i])
                fprintf(out,
                        "<circle cx=\"%d\" cy=\"%d\" r=\"%d\" fill=\"none\" stroke=\"#111\" "
                        "stroke-width=\"2\"/>\n",
                        x, y, l->ring);
    }
}

/* The caption's text is wrapped to the picture's width by each
 * character's advance in hundredths of the font size: DejaVu Sans's
 * (Debian's sans-serif, and wider than Arial or Liberation Sans, which
 * browsers pick for it) rounded up, so a line never leaves the picture
 * whichever of them draws it. Any character outside ASCII counts as a
 * full em (CJK are that wide). */
static const unsigned char ascii_advance[95] = {
    /*   ! " # $ % & ' ( ) * + , - . / */
    32, 41, 46, 84, 64, 96, 78, 28, 40, 40, 50, 84, 32, 37, 32, 34,
    /* 0-9 : ; < = > ? @ */
    64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 34, 34, 84, 84, 84, 54, 100,
    /* A-Z */
    69, 69, 70, 78, 64, 58, 78, 76, 30, 30, 66, 56, 87, 75, 79, 61, 79, 70, 64, 62, 74, 69, 99, 69,
    62, 69,
    /* [ \ ] ^ _ ` */
    40, 34, 40, 84, 50, 50,
    /* a-z */
    62, 64, 55, 64, 62, 36, 64, 64, 28, 28, 58, 28, 98, 64, 62, 64, 64, 42, 53, 40, 64, 60, 82, 60,
    60, 53,
    /* { | } ~ */
    64, 34, 64, 84};

static int advance(unsigned char c)
{
    return c >= 32 && c < 127 ? ascii_advance[c - 32] : 100;
}

/* Bytes of the UTF-8 sequence that starts at s (1 for anything broken). */
static int char_bytes(const char *s)
{
    int n = 1;

    if ((unsigned char)s[0] >= 0xC0)
        while (n < 4 && ((unsigned char)s[n] & 0xC0) == 0x80)
            n++;
    return n;
}

/* Where the first line of text ends when lines hold `width` hundredths of
 * the font size: at the last space that fits, or inside a word longer
 * than a line (at least one character, so wrapping always advances). */
static const char *line_end(const char *text, int width)
{
    const char *s = text, *space = NULL;
    int used = 0;

    while (*s) {
        int w = advance((unsigned char)*s);
        if (used + w > width && s > text)
            return space ? space : s;
        if (*s == ' ' && s > text)
            space = s;
        used += w;
        s += char_bytes(s);
    }
    return s;
}

static const char *next_line(const char *end)
{
    while (*end == ' ')
        end++;
    return end;
}

/* The width of the widest word: lines narrower would break words. */
static int widest_word(const char *text)
{
    int widest = 0, word = 0;

    for (const char *s = text; *s; s += char_bytes(s)) {
        word = *s == ' ' ? 0 : word + advance((unsigned char)*s);
        if (word > widest)
            widest = word;
    }
    return widest;
}

static int count_lines(const char *text, int width)
{
    int n = 0;

    for (; *text; n++)
        text = next_line(line_end(text, width));
    return n;
}

/* Writes text as centred lines no wider than `width` hundredths of the
 * font size, as few as fit and as even as they can be (the narrowest
 * width that needs no more lines and breaks no more words), so no word is
 * left alone on a line. Returns the number of lines. */
static int write_wrapped(FILE *out, const char *text, int width, int x, int *y)
{
    int lines = count_lines(text, width), hi = width;
    int lo = widest_word(text) < width ? widest_word(text) : width;

    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (count_lines(text, mid) <= lines)
            hi = mid;
        else
            lo = mid + 1;
    }
    while (*text) {
        const char *end = line_end(text, hi);
        char *line = tx_strndup(text, (size_t)(end - text));
        fprintf(out, "<text x=\"%d\" y=\"%d\">", x, *y);
        tx_render_svg_escape(out, line);
        fputs("</text>\n", out);
        free(line);
        *y += CAPTION_LINE;
        text = next_line(end);
    }
    return lines;
}

/* "player 2 beta", the name cut and defused as the text render does. */
static void put_player(FILE *out, const struct tx_record *r, int p)
{
    tx_render_player(out, r, p);
}

/* Who plays: "player 1 alpha (red) vs player 2 beta (blue)", in the
 * colours they play in g (none while a cut's sides are undecided), or the
 * teams with their players. */
static void put_sides(FILE *out, const struct tx_record *r, const struct tx_game *g)
{
    for (int side = 0; side < 2; side++) {
        int c = tx_render_colour_of(g, side);
        if (side == 1)
            fputs(" vs ", out);
        if (r->nplayers == 4) {
            tx_render_team_members(out, r, g, side, tx_render_colours, false);
            continue;
        }
        put_player(out, r, side);
        if (c >= 0)
            fprintf(out, " (%s)", tx_render_colours[c]);
    }
}

/* The caption: who plays, then where we are and, at the end, the result,
 * worded as the text render and the HTML viewer word it ("player 2 beta
 * wins by timeout (no answer in 300 ms ...)"). g is the position shown,
 * before the one before its last entry. Returns the caption's height. */
static int draw_caption(FILE *out, const struct tx_record *r, const struct tx_game *before,
                        const struct tx_game *g, int upto, int width)
{
    const char *reason = tx_reason_name(r->result.reason);
    int room = (width - 2 * CAPTION_PAD) * 100 / CAPTION_FONT, y = CAPTION_FIRST, lines = 0;
    char *text = NULL;
    size_t len = 0;
    FILE *mem;

    fprintf(out,
            "<g id=\"caption\" font-family=\"sans-serif\" font-size=\"%d\" "
            "text-anchor=\"middle\">\n",
            CAPTION_FONT);
    for (int part = 0; part < 2; part++) {
        mem = tx_xcheck(open_memstream(&text, &len));
        if (part == 0) {
            tx_render_game_name(mem, r, g);
            fputs(": ", mem);
            put_sides(mem, r, g);
        } else {
            fprintf(mem, "move %d of %d", upto, r->nmoves);
            if (upto == r->nmoves) {
                fputs(": ", mem);
                if ((r->result.winner == 0 || r->result.winner == 1) && r->nplayers == 4) {
                    tx_render_team(mem, r, r->result.winner);
                    fputs(" wins by ", mem);
                } else if (r->result.winner == 0 || r->result.winner == 1) {
                    put_player(mem, r, r->result.winner);
                    fputs(" wins by ", mem);
                }
                fputs(reason ? reason : "?", mem);
                if (r->result.detail && *r->result.detail) {
                    fputs(" (", mem);
                    tx_render_text_safe(mem, r->result.detail, CAPTION_DETAIL_BYTES);
                    fputc(')', mem);
                }
            } else if (upto > 0) {
                const struct tx_record_move *m = &r->moves[upto - 1];
                enum tx_render_entry kind = tx_render_entry_kind(before, g);
                fputs(": ", mem);
                put_player(mem, r, m->player);
                if (!m->move) {
                    fputs(" gave no answer", mem);
                } else if (kind == TX_RENDER_UNPLAYED) {
                    fputs(" answered \"", mem);
                    tx_render_answer(mem, m);
                    fputs("\", not played", mem);
                } else if (kind == TX_RENDER_MIRROR || kind == TX_RENDER_PIE) {
                    fputs(" swapped", mem);
                } else {
                    fputs(" played ", mem);
                    tx_render_answer(mem, m);
                }
                /* What a pie swap, a cut, a choice or a privilege did. */
                if (m->move && tx_render_entry_has_note(before, g)) {
                    fputs(" (", mem);
                    tx_render_entry_note(mem, r, before, g, tx_render_colours, false);
                    fputc(')', mem);
                }
            }
        }
        fclose(mem);
        lines += write_wrapped(out, text, room, width / 2, &y);
        free(text);
    }
    fputs("</g>\n", out);
    return CAPTION_FIRST + (lines - 1) * CAPTION_LINE + CAPTION_BELOW;
}

void tx_render_svg(FILE *out, const struct tx_geometry *geo, const struct tx_record *r, int upto)
{
    struct tx_game *g = tx_game_new(geo, r->rules), *before = tx_game_new(geo, r->rules);
    bool *in_chain = tx_xcalloc((size_t)geo->holes, sizeof *in_chain);
    struct layout l = layout_for(geo);
    int width = 2 * MARGIN + geo->width * l.cell, height = 2 * MARGIN + geo->height * l.cell,
        caption_height;
    int marks[3], nmarks;
    char *caption = NULL;
    size_t caption_len = 0;
    FILE *mem;

    if (upto < 0 || upto > r->nmoves)
        upto = r->nmoves;
    /* The position before the entry shown, and after it: one replay and a
     * step. */
    if (tx_verify_position(geo, r, upto > 0 ? upto - 1 : 0, g) >= 0 && upto > 0) {
        tx_game_copy(before, g);
        tx_verify_step(r, upto - 1, g);
    } else {
        tx_game_copy(before, g);
    }
    /* The last entry played is ringed, also under an answer that was not. */
    nmarks = tx_render_last_pegs(g, marks);
    /* The caption first: its height (how many lines it wraps to) sets the
     * picture's. */
    mem = tx_xcheck(open_memstream(&caption, &caption_len));
    caption_height = draw_caption(mem, r, before, g, upto, width);
    fclose(mem);
    fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    fprintf(out,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d "
            "%d\">\n",
            width, caption_height + height, width, caption_height + height);
    fprintf(out, "<rect width=\"%d\" height=\"%d\" fill=\"" BACKGROUND "\"/>\n", width,
            caption_height + height);
    fwrite(caption, 1, caption_len, out);
    fprintf(out, "<g transform=\"translate(0,%d)\">\n", caption_height);
    draw_coordinates(out, &l, geo);
    draw_borders(out, &l, geo);
    draw_chain(out, &l, g, in_chain);
    /* Links disappear only under rules with link edits. */
    draw_links(out, &l, g, tx_ruleset(r->rules)->link_edits && upto > 0 ? before : NULL);
    draw_holes_and_pegs(out, &l, g, in_chain, marks, nmarks);
    fprintf(out, "</g>\n</svg>\n");
    free(caption);
    free(in_chain);
    free(before);
    free(g);
}
