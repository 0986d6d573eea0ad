/* bench-replay.c - how fast replay verifies and renders records.
 *
 * Plays seeded random 12 x 12 games with libtwixt, writes each down as a
 * record (JSON, as the referee does), then times the stages of `replay`
 * separately: loading the JSON (record.c), verifying (verify.c), and the
 * text, SVG and HTML renderers into a memory stream. Prints the figures;
 * not a test.
 *
 *     build/tests/bench-replay [GAMES]     (default 2000)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "alloc.h"
#include "hole.h"
#include "record.h"
#include "render-html.h"
#include "render-svg.h"
#include "render-text.h"
#include "verify.h"
#include "test-game.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static uint64_t next_random(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 2685821657736338717ULL;
}

/* A random game to its end, written down as the referee would. */
static char *random_record(const struct tx_geometry *geo, uint64_t seed)
{
    struct tx_record r = {0};
    static struct tx_game *g;
    int16_t legal[TX_MOVES_MAX], *links = malloc(sizeof *links * 2 * TX_LINKS_MAX);
    char a[TX_HOLE_NAME_MAX], b[TX_HOLE_NAME_MAX], detail[16], *json;

    r.format = tx_strdup(TX_RECORD_FORMAT);
    r.game = (int64_t)seed;
    r.seed = seed;
    r.width = geo->width;
    r.height = geo->height;
    r.limits.first_turn_ms = 1000;
    r.limits.turn_ms = 300;
    r.referee = tx_strdup("bench");
    r.started = tx_strdup("2026-11-21T21:00:00Z");
    r.players[0].name = tx_strdup("one");
    r.players[0].command = tx_strdup("one");
    r.players[1].name = tx_strdup("two");
    r.players[1].command = tx_strdup("two");
    r.moves = calloc(TX_MOVES_MAX, sizeof *r.moves);
    test_game(&g, geo);
    while (g->status == TX_ONGOING) {
        int n = tx_game_legal_moves(g, legal), first = legal[0] == TX_MOVE_SWAP;
        int move = legal[first + (int)(next_random(&seed) % (uint64_t)(n - first))];
        struct tx_record_move *m = &r.moves[r.nmoves++];
        m->player = g->to_move;
        m->move = tx_strdup(tx_hole_name(geo, move, a));
        m->us = (int64_t)(next_random(&seed) % 200000);
        m->message = tx_strdup("thinking hard");
        tx_game_play(g, move);
    }
    r.result.winner = g->status == TX_WON ? g->winner : -1;
    r.result.reason = g->status == TX_WON ? TX_REASON_CONNECTION : TX_REASON_DRAW;
    if (g->status == TX_WON) {
        int16_t chain[TX_HOLES_MAX];
        int n = tx_game_winning_chain(g, chain);
        snprintf(detail, sizeof detail, "%s-%s", tx_hole_name(geo, chain[0], a),
                 tx_hole_name(geo, chain[n - 1], b));
    } else {
        snprintf(detail, sizeof detail, "full");
    }
    r.result.detail = tx_strdup(detail);
    for (int p = 0; p < 2; p++) {
        int n = tx_game_links(g, p, links);
        r.players[p].nlinks = n;
        r.players[p].links = calloc((size_t)n + 1, sizeof *r.players[p].links);
        for (int k = 0; k < n; k++)
            snprintf(r.players[p].links[k], 8, "%s %s", tx_hole_name(geo, links[2 * k], a),
                     tx_hole_name(geo, links[2 * k + 1], b));
    }
    if (tx_record_to_json(&r, &json) < 0)
        abort();
    tx_record_free(&r);
    free(links);
    return json;
}

int main(int argc, char **argv)
{
    int games = argc > 1 ? atoi(argv[1]) : 2000;
    struct tx_verify_geometries cache = {0};
    const struct tx_geometry *geo = tx_verify_geometry(&cache, 12, 12);
    char **lines = calloc((size_t)games, sizeof *lines), err[256];
    double t_load = 0, t_verify = 0, t_text = 0, t_svg = 0, t_html = 0, t;
    size_t bytes = 0, out_text = 0, out_svg = 0, out_html = 0;
    long moves = 0;
    int bad = 0;

    if (games < 1 || !lines)
        return 2;
    for (int i = 0; i < games; i++) {
        lines[i] = random_record(geo, (uint64_t)i + 1);
        bytes += strlen(lines[i]);
    }
    for (int i = 0; i < games; i++) {
        struct tx_record r;
        struct tx_verify_report rep;
        char *buf = NULL;
        size_t len = 0;
        FILE *out;

        t = now();
        if (tx_record_from_json(lines[i], strlen(lines[i]), &r, err, sizeof err) < 0)
            abort();
        t_load += now() - t;
        t = now();
        bad += tx_verify_record(geo, &r, &rep) < 0;
        t_verify += now() - t;
        moves += r.nmoves;

        out = open_memstream(&buf, &len);
        t = now();
        tx_render_text_move(out, geo, &r, r.nmoves, false);
        fflush(out);
        t_text += now() - t;
        out_text += len;
        fclose(out);
        free(buf);

        out = open_memstream(&buf, &len);
        t = now();
        tx_render_svg(out, geo, &r, r.nmoves);
        fflush(out);
        t_svg += now() - t;
        out_svg += len;
        fclose(out);
        free(buf);

        out = open_memstream(&buf, &len);
        t = now();
        tx_render_html_game(out, geo, &r, &rep, "bench");
        fflush(out);
        t_html += now() - t;
        out_html += len;
        fclose(out);
        free(buf);

        tx_record_free(&r);
        free(lines[i]);
    }
    printf("%d random 12x12 records, %ld moves, %.1f MB of JSON, %d failed verification\n", games,
           moves, (double)bytes / 1e6, bad);
    printf("load (JSON -> record)  %8.1f us/game  %7.0f games/s\n", t_load / games * 1e6,
           games / t_load);
    printf("verify (replay)        %8.1f us/game  %7.0f games/s  %5.2f us/move\n",
           t_verify / games * 1e6, games / t_verify, t_verify / (double)moves * 1e6);
    printf("text, final position   %8.1f us/game  %7.0f bytes/game\n", t_text / games * 1e6,
           (double)out_text / games);
    printf("svg, final position    %8.1f us/game  %7.0f bytes/game\n", t_svg / games * 1e6,
           (double)out_svg / games);
    printf("html, one game         %8.1f us/game  %7.0f bytes/game\n", t_html / games * 1e6,
           (double)out_html / games);
    free(lines);
    tx_verify_geometries_free(&cache);
    return bad ? 1 : 0;
}
