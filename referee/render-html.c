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
#include "render-text.h"
#include "verify.h"

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

/* What the entry between before and after did, in words (the SVG
 * caption's), as frame's "note", when it was a pie swap, a cut, a choice
 * or a privilege. */
static void add_note(cJSON *frame, const struct tx_record *r, const struct tx_game *before,
                     const struct tx_game *after)
{
    char *note = NULL;
    size_t len = 0;
    FILE *mem = tx_xcheck(open_memstream(&note, &len));
    bool any = tx_render_entry_note(mem, r, before, after, tx_render_colours, false);

    fclose(mem);
    if (any)
        cJSON_AddItemToObject(frame, "note", tx_xcheck(cJSON_CreateString(note)));
    free(note);
}

/* The colour each seat plays in g (-1 while a cut's sides are undecided). */
static cJSON *sides(const struct tx_record *r, const struct tx_game *g)
{
    cJSON *list = tx_xcheck(cJSON_CreateArray());

    for (int p = 0; p < r->nplayers; p++)
        cJSON_AddItemToArray(list, tx_xcheck(cJSON_CreateNumber(tx_render_colour_of(g, p))));
    return list;
}

/* One frame per entry:
 * - {} when the entry was not played;
 * - a hole: {"peg":"F6","added":[["D5","F6"]],"removed":[["A6","B4"]]} (each
 *   list only when not empty; under classic rules links also go), with
 *   privilege "privilege":{"next":0,"skipped":3} (the seats that moves at
 *   once and that lost its turn);
 * - the mirror swap: {"peg":"E3","swapped":"C5"} (the peg it took away);
 * - the pie swap: {"pie":"C5"} (the peg that stays and changes hands);
 * - a cut: {"cut":["D4","E6","H8"],"added":[["D4","E6"]]} (red, red, blue);
 * - a choice: {"choose":1}.
 * "sides" is the colour every seat plays from the entry on, where the
 * entry decided them (a pie swap, a cut, a choice: pegs and links are
 * the colour their mover plays after the entry); "note" what a pie swap,
 * a cut, a choice or a privilege did, in the SVG caption's words. */
static cJSON *frames(const struct tx_geometry *geo, const struct tx_record *r, cJSON **ret_chain)
{
    struct tx_game *g = tx_game_new(geo, r->rules), *before = tx_game_new(geo, r->rules);
    cJSON *list = tx_xcheck(cJSON_CreateArray()), *chain = tx_xcheck(cJSON_CreateArray());
    bool broken = false;

    tx_verify_position(geo, r, 0, g);
    for (int i = 0; i < r->nmoves; i++) {
        cJSON *frame = tx_xcheck(cJSON_CreateObject());
        int pegs[3], n, skipped = -1;
        enum tx_render_entry kind;
        int16_t old_peg = -1;

        cJSON_AddItemToArray(list, frame);
        if (g->to_move == 1 && g->nmoves == 1)
            tx_game_pegs(g, 0, &old_peg);
        tx_game_copy(before, g);
        /* After an entry that could not be played, later ones mean nothing. */
        if (broken || !tx_verify_step(r, i, g)) {
            broken = true;
            continue;
        }
        n = tx_render_last_pegs(g, pegs);
        kind = tx_render_entry_kind(before, g);
        switch (kind) {
        case TX_RENDER_MIRROR:
            cJSON_AddItemToObject(frame, "swapped", hole_string(geo, old_peg));
            cJSON_AddItemToObject(frame, "peg", hole_string(geo, pegs[0]));
            break;
        case TX_RENDER_PIE:
            cJSON_AddItemToObject(frame, "pie", hole_string(geo, pegs[0]));
            break;
        case TX_RENDER_CUT: {
            cJSON *cut = cJSON_AddArrayToObject(frame, "cut");
            for (int k = 0; k < n; k++)
                cJSON_AddItemToArray(cut, hole_string(geo, pegs[k]));
            link_changes(frame, &r->moves[i], pegs[0], before, g);
            break;
        }
        case TX_RENDER_CHOOSE:
            cJSON_AddNumberToObject(frame, "choose",
                                    tx_game_last_move(g) == TX_MOVE_CHOOSE_RED ? 1 : 2);
            break;
        default:
            cJSON_AddItemToObject(frame, "peg", hole_string(geo, pegs[0]));
            link_changes(frame, &r->moves[i], pegs[0], before, g);
            skipped = tx_render_skipped_seat(before, g);
            if (skipped >= 0) {
                cJSON *privilege = cJSON_AddObjectToObject(frame, "privilege");
                cJSON_AddNumberToObject(privilege, "next", g->seat);
                cJSON_AddNumberToObject(privilege, "skipped", skipped);
            }
        }
        /* Only a pie swap, a cut, a choice or a privilege says more. */
        if (!tx_render_entry_has_note(before, g))
            continue;
        for (int p = 0; p < r->nplayers; p++)
            if (tx_render_colour_of(g, p) != tx_render_colour_of(before, p)) {
                cJSON_AddItemToObject(frame, "sides", sides(r, g));
                break;
            }
        add_note(frame, r, before, g);
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
    /* What a game of two under the swap does not need: the colour each
     * seat plays at the start (-1 while a cut's sides are undecided), and
     * the handicapped bot's distance at the end ("strong crosses 24
     * rows"). */
    if (r->nplayers == 4 || r->opening == TX_OPENING_CUT || r->handicap) {
        struct tx_game *g = tx_game_new(geo, r->rules);
        tx_verify_position(geo, r, 0, g);
        if (r->nplayers == 4 || r->opening == TX_OPENING_CUT)
            cJSON_AddItemToObject(meta, "sides", sides(r, g));
        if (r->handicap) {
            char *text = NULL;
            size_t len = 0;
            FILE *mem = tx_xcheck(open_memstream(&text, &len));
            tx_verify_position(geo, r, r->nmoves, g);
            tx_render_handicap(mem, r, g);
            fclose(mem);
            cJSON_AddStringToObject(meta, "handicap", text);
            free(text);
        }
        free(g);
    }
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
