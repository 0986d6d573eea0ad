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
#include "answer.h"
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

static cJSON *link_pair(const struct tx_geometry *geo, int link)
{
    cJSON *pair = tx_xcheck(cJSON_CreateArray());

    cJSON_AddItemToArray(pair, hole_string(geo, geo->link_end[link][0]));
    cJSON_AddItemToArray(pair, hole_string(geo, geo->link_end[link][1]));
    return pair;
}

/* The links that entry i changed, into frame's "added" and "removed": only
 * the links at the peg it placed and those its edits name can change (the
 * automatic links, the additions, the removals; a swap's peg has none), so
 * only they are compared before and after. */
static void link_changes(cJSON *frame, const struct tx_record_move *m, int peg,
                         const struct tx_game *before, const struct tx_game *after)
{
    const struct tx_geometry *geo = after->geo;
    int candidates[8 + TX_EDITS_READ], n = 0;
    cJSON *added = NULL, *removed = NULL;

    for (int i = 0; i < m->nedits; i++) {
        struct tx_edit e;
        int a, b, link;
        if (!tx_edit_parse(m->edits[i], strlen(m->edits[i]), &e))
            continue;
        a = tx_geometry_hole(geo, e.ax, e.ay);
        b = tx_geometry_hole(geo, e.bx, e.by);
        link = a >= 0 && b >= 0 ? tx_geometry_link(geo, a, b) : -1;
        if (link >= 0)
            candidates[n++] = link;
    }
    for (int k = 0; k < 8; k++)
        if (geo->link_of[peg][k] != TX_NO_LINK)
            candidates[n++] = geo->link_of[peg][k];
    for (int i = 0; i < n; i++) {
        bool was = tx_game_has_link(before, candidates[i]),
             is = tx_game_has_link(after, candidates[i]);
        bool seen = false;
        for (int j = 0; j < i && !seen; j++)
            seen = candidates[j] == candidates[i];
        if (seen || was == is)
            continue;
        if (is && !added)
            added = cJSON_AddArrayToObject(frame, "added");
        if (was && !removed)
            removed = cJSON_AddArrayToObject(frame, "removed");
        cJSON_AddItemToArray(is ? added : removed, link_pair(geo, candidates[i]));
    }
}

/* One frame per entry: {"peg":"E3","swapped":"C5"} for a swap (the peg
 * it took away), {"peg":"F6","added":[["D5","F6"]],"removed":[["A6","B4"]]}
 * for a move that made and removed links (each list only when not empty),
 * {} when the entry was not played. */
static cJSON *frames(const struct tx_geometry *geo, const struct tx_record *r, cJSON **ret_chain)
{
    struct tx_game *g = tx_game_new(geo, r->rules), *before = tx_game_new(geo, r->rules);
    cJSON *list = tx_xcheck(cJSON_CreateArray()), *chain = tx_xcheck(cJSON_CreateArray());
    bool broken = false;

    for (int i = 0; i < r->nmoves; i++) {
        cJSON *frame = tx_xcheck(cJSON_CreateObject());
        int16_t old_peg = -1, peg;

        cJSON_AddItemToArray(list, frame);
        if (g->to_move == 1 && g->nmoves == 1)
            tx_game_pegs(g, 0, &old_peg);
        tx_game_copy(before, g);
        /* After an entry that could not be played, later ones mean nothing. */
        if (broken || !tx_verify_step(r, i, g)) {
            broken = true;
            continue;
        }
        if (tx_game_last_move(g) == TX_MOVE_SWAP) {
            tx_game_pegs(g, 1, &peg);
            cJSON_AddItemToObject(frame, "swapped", hole_string(geo, old_peg));
        } else {
            peg = (int16_t)tx_game_last_move(g);
        }
        cJSON_AddItemToObject(frame, "peg", hole_string(geo, peg));
        link_changes(frame, &r->moves[i], peg, before, g);
    }
    if (g->status == TX_WON) {
        int16_t *holes = tx_xmalloc(sizeof *holes * (size_t)geo->holes);
        int n = tx_game_winning_chain(g, holes);
        for (int i = 0; i < n; i++)
            cJSON_AddItemToArray(chain, hole_string(geo, holes[i]));
        free(holes);
    }
    free(before);
    free(g);
    *ret_chain = chain;
    return list;
}

void tx_render_html_game(FILE *out, const struct tx_geometry *geo, const struct tx_record *r,
                         const struct tx_verify_report *report, const char *source)
{
    cJSON *meta = tx_xcheck(cJSON_CreateObject()), *chain = NULL;
    char *record_json = NULL;

    cJSON_AddStringToObject(meta, "source", source ? source : "");
    if (report) {
        cJSON *verdict = cJSON_AddObjectToObject(meta, "verdict");
        cJSON_AddBoolToObject(verdict, "ok", report->ok);
        cJSON_AddNumberToObject(verdict, "move", report->move);
        cJSON_AddStringToObject(verdict, "what", report->what);
    }
    cJSON_AddItemToObject(meta, "frames", frames(geo, r, &chain));
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
}
