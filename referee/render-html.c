/* render-html.c - writes the self-contained HTML viewer with games in it.
 *
 * The viewer's markup, style and script live in referee/viewer.html, a real
 * file that meson turns into the C string tx_viewer_html (embed-file.py).
 * The file has one placeholder, VIEWER_SLOT, where the game elements go;
 * the viewer's own script comes after it and reads them.
 */
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "alloc.h"
#include "hole.h"
#include "render-html.h"

#define VIEWER_SLOT "<!--TX_GAMES-->"

void tx_render_html_json(FILE *out, const char *text)
{
    for (const char *s = text; *s; s++) {
        switch (*s) {
        case '<':
            fputs("\\u003c", out);
            break;
        case '>':
            fputs("\\u003e", out);
            break;
        case '&':
            fputs("\\u0026", out);
            break;
        default:
            fputc(*s, out);
        }
    }
}

static const char *slot(void)
{
    const char *at = strstr(tx_viewer_html, VIEWER_SLOT);

    /* The build embeds viewer.html; a missing slot is a programming error. */
    if (!at)
        abort();
    return at;
}

void tx_render_html_begin(FILE *out)
{
    fwrite(tx_viewer_html, 1, (size_t)(slot() - tx_viewer_html), out);
}

void tx_render_html_end(FILE *out)
{
    fputs(slot() + strlen(VIEWER_SLOT), out);
}

static cJSON *hole_string(const struct tx_geometry *geo, int hole)
{
    char name[TX_HOLE_NAME_MAX];

    return cJSON_CreateString(tx_hole_name(geo, hole, name));
}

/* One frame per entry: {"peg":"E3","removed":"C5","links":[["D6","E8"]]},
 * or {} when the entry was not played. */
static cJSON *frames(const struct tx_geometry *geo, const struct tx_record *r, int16_t *links,
                     cJSON **ret_chain)
{
    struct tx_game *g = tx_game_new(geo, r->rules);
    cJSON *list = tx_xcheck(cJSON_CreateArray()), *chain = tx_xcheck(cJSON_CreateArray());
    bool broken = false;

    for (int i = 0; i < r->nmoves; i++) {
        cJSON *frame = tx_xcheck(cJSON_CreateObject()), *made;
        int p = g->to_move, before, after;
        int16_t old_peg = -1, peg;

        cJSON_AddItemToArray(list, frame);
        if (p == 1 && g->nmoves == 1)
            tx_game_pegs(g, 0, &old_peg);
        before = tx_game_links(g, p, links);
        /* After an entry that could not be played, later ones mean nothing. */
        if (broken || !tx_verify_step(r, i, g)) {
            broken = true;
            continue;
        }
        if (tx_game_last_move(g) == TX_MOVE_SWAP) {
            tx_game_pegs(g, 1, &peg);
            cJSON_AddItemToObject(frame, "removed", hole_string(geo, old_peg));
        } else {
            peg = (int16_t)tx_game_last_move(g);
        }
        cJSON_AddItemToObject(frame, "peg", hole_string(geo, peg));
        made = cJSON_AddArrayToObject(frame, "links");
        after = tx_game_links(g, p, links);
        for (int k = before; k < after; k++) {
            cJSON *pair = cJSON_CreateArray();
            cJSON_AddItemToArray(pair, hole_string(geo, links[2 * k]));
            cJSON_AddItemToArray(pair, hole_string(geo, links[2 * k + 1]));
            cJSON_AddItemToArray(made, pair);
        }
    }
    if (g->status == TX_WON) {
        int16_t holes[TX_HOLES_MAX];
        int n = tx_game_winning_chain(g, holes);
        for (int i = 0; i < n; i++)
            cJSON_AddItemToArray(chain, hole_string(geo, holes[i]));
    }
    free(g);
    *ret_chain = chain;
    return list;
}

void tx_render_html_game(FILE *out, const struct tx_geometry *geo, const struct tx_record *r,
                         const struct tx_verify_report *report, const char *source)
{
    int16_t *links = tx_xmalloc(sizeof *links * 2 * TX_LINKS_MAX);
    cJSON *meta = tx_xcheck(cJSON_CreateObject()), *chain = NULL;
    char *record_json = NULL;

    cJSON_AddStringToObject(meta, "source", source ? source : "");
    if (report) {
        cJSON *verdict = cJSON_AddObjectToObject(meta, "verdict");
        cJSON_AddBoolToObject(verdict, "ok", report->ok);
        cJSON_AddNumberToObject(verdict, "move", report->move);
        cJSON_AddStringToObject(verdict, "what", report->what);
    }
    cJSON_AddItemToObject(meta, "frames", frames(geo, r, links, &chain));
    cJSON_AddItemToObject(meta, "chain", chain);
    char *meta_json = tx_xcheck(cJSON_PrintUnformatted(meta));
    if (tx_record_to_json(r, &record_json) < 0)
        tx_out_of_memory();
    fputs("<script type=\"application/json\" class=\"tx-game\">{\"record\":", out);
    tx_render_html_json(out, record_json);
    fputs(",\"meta\":", out);
    tx_render_html_json(out, meta_json);
    fputs("}</script>\n", out);
    free(record_json);
    cJSON_free(meta_json);
    cJSON_Delete(meta);
    free(links);
}
