/* render-svg.c - draws one recorded position as a standalone SVG document.
 *
 * Layout: one CELL-pixel square per hole, a MARGIN all round for the
 * coordinates and a caption line on top. Row 1 is at the top, as in the
 * text diagram and the HTML viewer. Links are drawn before pegs so the pegs
 * cover their ends; the winning chain is drawn first as a wide gold
 * underlay, so it shows through without hiding whose links they are.
 * Numbers are integers so the output is byte-for-byte stable (golden tests).
 */
#include <stdlib.h>
#include <string.h>

#include "hole.h"
#include "render-svg.h"
#include "verify.h"

#define CELL 32
#define MARGIN 32
#define CAPTION 40

static const char *const colour[2] = {"#d62828", "#1d4ed8"};
#define GOLD "#f4b400"

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

static int px(int i)
{
    return MARGIN + i * CELL + CELL / 2;
}

static int py(int i)
{
    return CAPTION + MARGIN + i * CELL + CELL / 2;
}

static void draw_borders(FILE *out, int size)
{
    /* The lines run between the border rows/columns and the rest of the
     * board, from the first inner hole's edge to the last one's. */
    int lo = MARGIN + CELL, hi = MARGIN + (size - 1) * CELL;
    int top = CAPTION + MARGIN + CELL, bottom = CAPTION + MARGIN + (size - 1) * CELL;

    fprintf(out, "<g stroke-width=\"3\" stroke-linecap=\"round\">\n");
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

static void draw_coordinates(FILE *out, int size)
{
    int left = MARGIN / 2, right = MARGIN + size * CELL + MARGIN / 2;
    int top = CAPTION + MARGIN / 2 + 5, bottom = CAPTION + MARGIN + size * CELL + MARGIN / 2 + 5;

    fprintf(
        out,
        "<g font-family=\"sans-serif\" font-size=\"13\" fill=\"#555\" text-anchor=\"middle\">\n");
    for (int i = 0; i < size; i++) {
        fprintf(out, "<text x=\"%d\" y=\"%d\">%c</text><text x=\"%d\" y=\"%d\">%c</text>\n", px(i),
                top, 'A' + i, px(i), bottom, 'A' + i);
        fprintf(out, "<text x=\"%d\" y=\"%d\">%d</text><text x=\"%d\" y=\"%d\">%d</text>\n", left,
                py(i) + 5, i + 1, right, py(i) + 5, i + 1);
    }
    fprintf(out, "</g>\n");
}

static void line_between(FILE *out, const struct tx_geometry *geo, int a, int b, const char *attrs)
{
    fprintf(out, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" %s/>\n", px(tx_geometry_x(geo, a)),
            py(tx_geometry_y(geo, a)), px(tx_geometry_x(geo, b)), py(tx_geometry_y(geo, b)), attrs);
}

static void draw_chain(FILE *out, const struct tx_game *g, bool *in_chain)
{
    int16_t chain[TX_HOLES_MAX];
    int n = g->status == TX_WON ? tx_game_winning_chain(g, chain) : 0;

    if (n <= 0)
        return;
    fprintf(out, "<g id=\"winning-chain\">\n");
    for (int i = 0; i < n; i++) {
        in_chain[chain[i]] = true;
        if (i + 1 < n)
            line_between(out, g->geo, chain[i], chain[i + 1],
                         "stroke=\"" GOLD "\" stroke-width=\"12\" stroke-linecap=\"round\"");
    }
    fprintf(out, "</g>\n");
}

static void draw_links(FILE *out, const struct tx_game *g)
{
    int16_t *links = malloc(sizeof *links * 2 * TX_LINKS_MAX);

    if (!links)
        abort();
    for (int p = 0; p < 2; p++) {
        int n = tx_game_links(g, p, links);
        fprintf(out, "<g stroke=\"%s\" stroke-width=\"4\" stroke-linecap=\"round\">\n", colour[p]);
        for (int k = 0; k < n; k++)
            line_between(out, g->geo, links[2 * k], links[2 * k + 1], "");
        fprintf(out, "</g>\n");
    }
    free(links);
}

static void draw_holes_and_pegs(FILE *out, const struct tx_game *g, const bool *in_chain, int last)
{
    const struct tx_geometry *geo = g->geo;

    for (int h = 0; h < geo->holes; h++) {
        int x = px(tx_geometry_x(geo, h)), y = py(tx_geometry_y(geo, h));
        if (geo->zone[h] & TX_ZONE_CORNER)
            continue;
        if (g->cell[h] == TX_EMPTY) {
            fprintf(out, "<circle cx=\"%d\" cy=\"%d\" r=\"3\" fill=\"#999\"/>\n", x, y);
            continue;
        }
        fprintf(out, "<circle cx=\"%d\" cy=\"%d\" r=\"9\" fill=\"%s\"%s/>\n", x, y,
                colour[g->cell[h] - 1],
                in_chain[h] ? " stroke=\"" GOLD "\" stroke-width=\"3\"" : "");
        if (h == last)
            fprintf(out,
                    "<circle cx=\"%d\" cy=\"%d\" r=\"13\" fill=\"none\" stroke=\"#111\" "
                    "stroke-width=\"2\"/>\n",
                    x, y);
    }
}

/* Two caption lines: who plays, then where we are and how it ends. */
static void draw_caption(FILE *out, const struct tx_record *r, int upto, int width)
{
    const char *reason = tx_reason_name(r->result.reason);
#define CAPTION_TEXT                                                                               \
    "<text x=\"%d\" y=\"%d\" font-family=\"sans-serif\" font-size=\"12\" text-anchor=\"middle\">"
    fprintf(out, CAPTION_TEXT, width / 2, 15);
    fprintf(out, "game %lld: ", (long long)r->game);
    tx_render_svg_escape(out, r->players[0].name);
    fputs(" (red) vs ", out);
    tx_render_svg_escape(out, r->players[1].name);
    fputs(" (blue)</text>\n", out);
    fprintf(out, CAPTION_TEXT, width / 2, 31);
    fprintf(out, "move %d of %d", upto, r->nmoves);
    if (upto == r->nmoves) {
        fputs(": ", out);
        if (r->result.winner == 0 || r->result.winner == 1) {
            tx_render_svg_escape(out, r->players[r->result.winner].name);
            fputs(" wins by ", out);
        }
        tx_render_svg_escape(out, reason ? reason : "?");
        if (r->result.detail && *r->result.detail) {
            fputc(' ', out);
            tx_render_svg_escape(out, r->result.detail);
        }
    }
    fputs("</text>\n", out);
}

void tx_render_svg(FILE *out, const struct tx_geometry *geo, const struct tx_record *r, int upto)
{
    struct tx_game *g = malloc(sizeof *g);
    bool *in_chain = calloc(TX_HOLES_MAX, sizeof *in_chain);
    int width = 2 * MARGIN + geo->size * CELL, height = CAPTION + width;
    int last = -1;

    if (!g || !in_chain)
        abort();
    if (upto < 0 || upto > r->nmoves)
        upto = r->nmoves;
    tx_verify_position(geo, r, upto, g);
    if (g->nmoves > 0) {
        int16_t peg;
        last = g->moves[g->nmoves - 1];
        if (last == TX_MOVE_SWAP)
            last = tx_game_pegs(g, 1, &peg) == 1 ? peg : -1;
    }
    fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    fprintf(out,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d "
            "%d\">\n",
            width, height, width, height);
    fprintf(out, "<rect width=\"%d\" height=\"%d\" fill=\"#f7f3e8\"/>\n", width, height);
    draw_caption(out, r, upto, width);
    draw_coordinates(out, geo->size);
    draw_borders(out, geo->size);
    draw_chain(out, g, in_chain);
    draw_links(out, g);
    draw_holes_and_pegs(out, g, in_chain, last);
    fprintf(out, "</svg>\n");
    free(in_chain);
    free(g);
}
