/* test-render.c - the text, SVG and HTML renderings of fixed positions.
 *
 * Scripted games are played with libtwixt (the answers as bots write them,
 * parsed by the variant's parser and played with tx_game_apply, each by the
 * seat the game says is to move) and turned into records exactly as the
 * referee writes them (details, links, four players and the teams), then
 * rendered: games of two bots under pp and classic rules on boards up to
 * 100 x 100, and the openings and Double TwixT (a pie game, a cut game, a
 * four-player game with privilege). Each output must match its golden file
 * under tests/golden/render/ byte for byte, the HTML viewer's data for
 * games of two bots included. When a rendering changes on purpose,
 * regenerate the files and review the diff:
 *
 *     TX_UPDATE_GOLDEN=1 meson test -C build render
 *
 * Every SVG must also be well-formed XML: python3's own parser
 * (xml.dom.minidom) reads each one, names full of markup included.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "alloc.h"
#include "answer.h"
#include "hole.h"
#include "record.h"
#include "render-html.h"
#include "render-svg.h"
#include "render-text.h"
#include "verify.h"
#include "test-game.h"

static struct tx_verify_geometries cache;

#define NO_ANSWER "(no answer)"

/* The winner is player 1 on 6 x 6: C1-D3-C5-E6, while player 2 links A2-B4. */
static const char *const game_win[] = {"C1", "A2", "D3", "B4", "C5", "A5", "E6", NULL};
/* On 8 x 8: a swap (D3 becomes C4), player 1's own links crossing at one
 * point (D4-E6 and E4-D6), player 2's G3-H5, then a lower-case answer. */
static const char *const game_swap[] = {"D3", "SWAP", "D4", "A6", "E6", "H5",
                                        "E4", "G3",   "D6", "d6", NULL};

/* On 5 x 5, the narrowest picture: player 2 gives no answer at move 4. */
static const char *const game_timeout[] = {"B1", "A2", "C1", NO_ANSWER, NULL};
/* Classic rules on 9 x 7, a board that is not square (no swap): player 1
 * removes its link D3-E5 at move 5 and adds it back at move 7, player 2
 * declines B4-D5 at move 6 and removes B4-C6 at move 8; player 2's B6-D5
 * is made at move 10, so at move 11 player 1's C5-D7, which would cross
 * it, is not, and E5-D7 wins: E1-D3-E5-D7. */
static const char *const game_classic[] = {"D3",        "B4",        "E5",        "C6",
                                           "F3 -D3:E5", "D5 ~D5:B4", "C5 +E5:D3", "G4 -B4:C6",
                                           "E1",        "B6",        "D7",        NULL};
/* The same up to move 7, then player 2 adds the link it declined, which
 * now crosses C5-D3: an invalid move. */
static const char *const game_classic_crossing[] = {
    "D3", "B4", "E5", "C6", "F3 -D3:E5", "D5 ~D5:B4", "C5 +E5:D3", "F6 +D5:B4", NULL};
#define CLASSIC_9X7 (&(struct tx_variant){.rules = TX_RULES_CLASSIC, .width = 9, .height = 7})

/* On 100 x 100, pegs by every edge: two-letter columns, three-digit rows,
 * player 1's CT98-CU100 in its far border row; then player 2 gives no
 * answer. */
static const char *const game_big[] = {"AA10", "CV50", "AB12",    "CU52", "CU100",
                                       "A99",  "CT98", NO_ANSWER, NULL};

/* The openings and Double TwixT (RULES.md), on 8 x 8. Pie: player 2
 * takes the first peg (D3 stays, player 2 now plays red), then wins with
 * it, C1-D3-E5-D7-F8. */
static const char *const game_pie[] = {"D3", "SWAP", "B4", "E5", "C6", "C1",
                                       "G6", "D7",   "H5", "F8", NULL};
#define PIE_8X8 (&(struct tx_variant){.width = 8, .height = 8, .opening = TX_OPENING_PIE})
/* Cut: player 1 puts red D3 and E5, linked, and blue F6; player 2 takes
 * red, and player 1, now blue, moves next; player 2 wins as above. */
static const char *const game_cut[] = {
    "CUT D3 E5 F6 +D3:E5", "CHOOSE 1", "B4", "C1", "C6", "D7", "G4", "F8", NULL};
#define CUT_8X8 (&(struct tx_variant){.width = 8, .height = 8, .opening = TX_OPENING_CUT})
/* Double TwixT: alice and carol (red) against bob and dave (blue); carol
 * calls privilege at move 3, so alice moves at once and dave loses his
 * turn; then bob, carol, dave, and alice wins. */
static const char *const game_teams[] = {"D3", "B4", "E5 !privilege", "C1", "C6", "D7", "G4",
                                         "F8", NULL};
#define TEAMS_8X8 (&(struct tx_variant){.width = 8, .height = 8, .teams = true})
static const char *const team_names[] = {"alice", "bob", "carol", "dave"};

/* The referee's wording of a timeout, as long as it gets. */
#define TIMEOUT_DETAIL                                                                             \
    "no answer in 300 ms, killed at 350 ms (on a CPU 0.0 ms, waiting for one 0.0 ms)"

/* Plays moves (answers as a bot writes them: link edits under classic
 * rules, CUT and CHOOSE under the cut opening, "!privilege" with teams)
 * with libtwixt in a game of v, each by the seat the game says is to move,
 * and writes the record as the referee would (names: two players, or four
 * with teams "red" and "black"); an answer that is not played ends the
 * game as an invalid move, and NO_ANSWER as a timeout. */
static void scripted_variant(const struct tx_variant *v, const char *const *moves,
                             const char *const *names, struct tx_record *r)
{
    const struct tx_geometry *geo = tx_verify_geometry(&cache, v->width, v->height);
    static struct tx_game *g;
    static struct tx_answer ans;
    int16_t *links = malloc(sizeof *links * 2 * (size_t)geo->link_ids);
    char detail[128] = "";

    memset(r, 0, sizeof *r);
    r->format = tx_strdup(TX_RECORD_FORMAT);
    r->game = 3;
    r->seed = 42;
    r->width = v->width;
    r->height = v->height;
    r->rules = v->rules;
    r->opening = v->opening;
    r->nplayers = v->teams ? 4 : 2;
    if (v->teams) {
        r->teams[0] = tx_strdup("red");
        r->teams[1] = tx_strdup("black");
    }
    r->limits.first_turn_ms = 1000;
    r->limits.turn_ms = 300;
    r->referee = tx_strdup("twixt-arena test");
    r->started = tx_strdup("2026-11-21T21:00:00Z");
    for (int p = 0; p < r->nplayers; p++) {
        char command[16];
        snprintf(command, sizeof command, "bot%d", p);
        r->players[p].name = tx_strdup(names[p]);
        r->players[p].command = tx_strdup(command);
    }
    r->moves = calloc(32, sizeof *r->moves);
    test_game(&g, geo);
    tx_game_start(g, geo, v);
    r->result.winner = -1;
    for (int i = 0; moves[i]; i++) {
        struct tx_record_move *m = &r->moves[r->nmoves++];
        struct tx_edit_fault fault;
        struct tx_move move;
        enum tx_illegal why;
        m->player = g->seat;
        if (!strcmp(moves[i], NO_ANSWER)) {
            m->us = 350000;
            snprintf(detail, sizeof detail, "%s", TIMEOUT_DETAIL);
            r->result.reason = TX_REASON_TIMEOUT;
            r->result.winner = (m->player & 1) ^ 1;
            ck_assert_ptr_null(moves[i + 1]);
            break;
        }
        m->us = 1000 + 1500 * i;
        if (i % 3 == 1)
            m->message = tx_strdup(i == 4 ? "<b>bold</b> & \"q\"" : "hmm");
        if (i == 2)
            m->stderr_text = tx_strdup("eval +0.3\n\033[31mred\033[0m\n");
        if (tx_answer_parse_variant(geo, v, moves[i], strlen(moves[i]), &ans) < 0) {
            /* Not a move: the referee records the token it saw. */
            m->move = tx_strdup(moves[i]);
            snprintf(detail, sizeof detail, "%s", ans.reason);
            r->result.reason = TX_REASON_INVALID;
            r->result.winner = (m->player & 1) ^ 1;
            ck_assert_ptr_null(moves[i + 1]);
            break;
        }
        m->move = tx_strdup(ans.token);
        m->privilege = ans.privilege;
        m->nedits = ans.nedits;
        m->edits = calloc((size_t)ans.nedits + 1, sizeof *m->edits);
        for (int k = 0; k < ans.nedits; k++)
            tx_edit_name(&ans.edits[k], m->edits[k]);
        tx_answer_move(&ans, &move);
        why = tx_game_apply(g, &move, &fault);
        if (why != TX_LEGAL) {
            tx_answer_describe(g, &move, why, &fault, detail, sizeof detail);
            r->result.reason = TX_REASON_INVALID;
            r->result.winner = (m->player & 1) ^ 1;
            ck_assert_ptr_null(moves[i + 1]);
        }
    }
    if (g->status == TX_WON) {
        int16_t *chain = malloc(sizeof *chain * (size_t)geo->holes);
        int n = tx_game_winning_chain(g, chain);
        char a[TX_HOLE_NAME_MAX], b[TX_HOLE_NAME_MAX];
        snprintf(detail, sizeof detail, "%s-%s", tx_hole_name(geo, chain[0], a),
                 tx_hole_name(geo, chain[n - 1], b));
        r->result.reason = TX_REASON_CONNECTION;
        /* The player, or the team, that plays the winning colour. */
        r->result.winner = g->winner ^ g->exchanged;
        free(chain);
    }
    ck_assert_str_ne(detail, "");
    r->result.detail = tx_strdup(detail);
    for (int p = 0; p < r->nplayers; p++) {
        int n = tx_game_links(g, tx_game_seat_colour(g, p), links);
        r->players[p].nlinks = n;
        r->players[p].links = calloc((size_t)n + 1, sizeof *r->players[p].links);
        for (int k = 0; k < n; k++) {
            char a[TX_HOLE_NAME_MAX], b[TX_HOLE_NAME_MAX];
            snprintf(r->players[p].links[k], sizeof r->players[p].links[k], "%s %s",
                     tx_hole_name(geo, links[2 * k], a), tx_hole_name(geo, links[2 * k + 1], b));
        }
    }
    free(links);
    /* A rendering of a record that does not verify would prove nothing. */
    {
        struct tx_verify_report rep;
        ck_assert_msg(tx_verify_record(geo, r, &rep) == 0, "move %d: %s", rep.move, rep.what);
    }
}

/* A game of two bots in v. */
static void scripted_game(const struct tx_variant *v, const char *const *moves, const char *name0,
                          const char *name1, struct tx_record *r)
{
    scripted_variant(v, moves, (const char *const[]){name0, name1}, r);
}

/* A pp game on size x size. */
static void scripted_record(int size, const char *const *moves, const char *name0,
                            const char *name1, struct tx_record *r)
{
    scripted_game(&(struct tx_variant){.rules = TX_RULES_PP, .width = size, .height = size}, moves,
                  name0, name1, r);
}

static char *golden_path(const char *name)
{
    static char path[1024];
    const char *src = getenv("TX_SOURCE_DIR");

    ck_assert_msg(src != NULL, "TX_SOURCE_DIR is not set (run through meson test)");
    snprintf(path, sizeof path, "%s/tests/golden/render/%s", src, name);
    return path;
}

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "r");
    char *text;
    long n;

    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    text = malloc((size_t)n + 1);
    *len = fread(text, 1, (size_t)n, f);
    text[*len] = '\0';
    fclose(f);
    return text;
}

/* Compares got with the golden file name, or rewrites it on request. */
static void assert_golden(const char *name, const char *got, size_t len)
{
    const char *path = golden_path(name);
    size_t want_len = 0;
    char *want;

    if (getenv("TX_UPDATE_GOLDEN")) {
        FILE *f = fopen(path, "w");
        ck_assert_msg(f != NULL, "cannot write %s", path);
        fwrite(got, 1, len, f);
        fclose(f);
        fprintf(stderr, "updated %s\n", path);
        return;
    }
    want = slurp(path, &want_len);
    ck_assert_msg(want != NULL, "missing %s (TX_UPDATE_GOLDEN=1 creates it)", path);
    if (want_len != len || memcmp(want, got, len)) {
        size_t i = 0;
        while (i < len && i < want_len && got[i] == want[i])
            i++;
        ck_abort_msg("%s differs at byte %zu: got \"%.60s\", want \"%.60s\"", name, i, got + i,
                     want + i);
    }
    free(want);
}

/* Renders into memory: mem_open gives the stream, mem_close the text. */
struct mem {
    char *buf;
    size_t len;
    FILE *out;
};

static FILE *mem_open(struct mem *m)
{
    m->buf = NULL;
    m->len = 0;
    m->out = open_memstream(&m->buf, &m->len);
    ck_assert_ptr_nonnull(m->out);
    return m->out;
}

static char *mem_close(struct mem *m)
{
    fclose(m->out);
    return m->buf;
}

static void assert_well_formed_xml(const char *svg)
{
    char path[] = "/tmp/test-render-XXXXXX";
    int fd = mkstemp(path), status;
    FILE *f = fdopen(fd, "w");
    char cmd[256];

    fputs(svg, f);
    fclose(f);
    snprintf(cmd, sizeof cmd,
             "python3 -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' %s",
             path);
    status = system(cmd);
    unlink(path);
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the SVG is not well-formed XML");
}

START_TEST(text_game_every_move)
{
    struct tx_record r;
    struct mem m;
    char *text;

    scripted_record(8, game_swap, "cross", "swapper", &r);
    tx_render_text_game(mem_open(&m), tx_verify_geometry(&cache, 8, 8), &r, false);
    text = mem_close(&m);
    ck_assert_msg(!strchr(text, '\033'), "escape sequences in uncoloured text");
    /* The bot's "\033[31m" in stderr comes out defused. */
    ck_assert_ptr_nonnull(strstr(text, "?[31mred?[0m"));
    assert_golden("swap-8.txt", text, strlen(text));
    free(text);
    tx_record_free(&r);
}
END_TEST

START_TEST(text_win_final_in_colour)
{
    struct tx_record r;
    struct mem m;
    char *text;

    scripted_record(6, game_win, "winner", "loser", &r);
    tx_render_text_move(mem_open(&m), tx_verify_geometry(&cache, 6, 6), &r, r.nmoves, true);
    text = mem_close(&m);
    ck_assert_ptr_nonnull(strstr(text, "\033[1;31mX\033[0m"));
    assert_golden("win-6-colour.txt", text, strlen(text));
    free(text);
    tx_render_text_move(mem_open(&m), tx_verify_geometry(&cache, 6, 6), &r, 0, false);
    text = mem_close(&m);
    assert_golden("empty-6.txt", text, strlen(text));
    free(text);
    tx_record_free(&r);
}
END_TEST

START_TEST(svg_win_final)
{
    struct tx_record r;
    struct mem m;
    char *svg;

    scripted_record(6, game_win, "winner", "loser", &r);
    tx_render_svg(mem_open(&m), tx_verify_geometry(&cache, 6, 6), &r, r.nmoves);
    svg = mem_close(&m);
    ck_assert_ptr_nonnull(strstr(svg, "<g id=\"winning-chain\">"));
    assert_well_formed_xml(svg);
    assert_golden("win-6.svg", svg, strlen(svg));
    free(svg);
    tx_record_free(&r);
}
END_TEST

START_TEST(svg_escapes_names)
{
    struct tx_record r;
    struct mem m;
    char *svg;

    scripted_record(8, game_swap, "Ren & Stimpy <3", "</text><script>alert(1)</script> 'q\" \x01",
                    &r);
    tx_render_svg(mem_open(&m), tx_verify_geometry(&cache, 8, 8), &r, 9);
    svg = mem_close(&m);
    ck_assert_ptr_null(strstr(svg, "<script"));
    ck_assert_ptr_nonnull(strstr(svg, "Ren &amp; Stimpy &lt;3"));
    ck_assert_ptr_null(strstr(svg, "winning-chain"));
    assert_well_formed_xml(svg);
    assert_golden("swap-8-move-9.svg", svg, strlen(svg));
    free(svg);
    tx_record_free(&r);
}
END_TEST

/* A game lost by timeout, at its last move: who gave no answer, and the
 * referee's whole detail in the result. */
START_TEST(text_timeout_final)
{
    struct tx_record r;
    struct mem m;
    char *text;

    scripted_record(5, game_timeout, "winner", "sleeper", &r);
    tx_render_text_move(mem_open(&m), tx_verify_geometry(&cache, 5, 5), &r, r.nmoves, false);
    text = mem_close(&m);
    ck_assert_ptr_nonnull(
        strstr(text, "game 3, move 4 of 4: player 2 sleeper (O) gave no answer in 350.0 ms\n"));
    ck_assert_ptr_nonnull(
        strstr(text, "\nresult: player 1 winner (X) wins by timeout (" TIMEOUT_DETAIL ")\n"));
    assert_golden("timeout-5.txt", text, strlen(text));
    free(text);
    tx_record_free(&r);
}
END_TEST

/* The caption's lines (the <text> elements of <g id="caption">), as
 * written: markup escaped. Returns how many. */
static int caption_lines(const char *svg, char lines[][512], int max)
{
    const char *at = strstr(svg, "<g id=\"caption\""), *end = at ? strstr(at, "</g>") : NULL;
    int n = 0;

    ck_assert_msg(at && end, "no caption group in the SVG");
    while (n < max && (at = strstr(at, "<text")) && at < end) {
        const char *open = strchr(at, '>') + 1, *close = strstr(open, "</text>");
        ck_assert_int_lt(close - open, 512);
        snprintf(lines[n++], 512, "%.*s", (int)(close - open), open);
        at = close;
    }
    return n;
}

/* The caption's lines joined by spaces: the sentence a person reads. */
static void caption_text(const char *svg, char *out, size_t size)
{
    char lines[16][512];
    int n = caption_lines(svg, lines, 16);

    out[0] = '\0';
    for (int i = 0; i < n; i++)
        snprintf(out + strlen(out), size - strlen(out), "%s%s", i ? " " : "", lines[i]);
}

/* A timeout's long detail on the narrowest board: wrapped into lines that
 * fit the picture (at most one character per 6 pixels: narrower than any
 * sans-serif draws this text at 12 px; the browser test measures the real
 * widths), nothing lost, punctuated as the other renders. */
START_TEST(svg_caption_wraps_long_detail)
{
    static const struct {
        int size;
        const char *const *moves;
        const char *result;
    } cases[] = {
        {5, game_timeout, "move 4 of 4: player 1 winner wins by timeout (" TIMEOUT_DETAIL ")"},
        {6, game_win, "move 7 of 7: player 1 winner wins by connection (C1-E6)"},
    };

    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        const struct tx_geometry *geo = tx_verify_geometry(&cache, cases[c].size, cases[c].size);
        int width = 64 + 32 * cases[c].size, n;
        char lines[16][512], want[512], got[1024];
        struct tx_record r;
        struct mem m;
        char *svg;

        scripted_record(cases[c].size, cases[c].moves, "winner", "a-bot-with-a-rather-long-name",
                        &r);
        tx_render_svg(mem_open(&m), geo, &r, r.nmoves);
        svg = mem_close(&m);
        n = caption_lines(svg, lines, 16);
        for (int i = 0; i < n; i++)
            ck_assert_msg((int)strlen(lines[i]) * 6 <= width,
                          "size %d: caption line '%s' wider than %d px", cases[c].size, lines[i],
                          width);
        snprintf(
            want, sizeof want,
            "game 3: player 1 winner (red) vs player 2 a-bot-with-a-rather-long-name (blue) %s",
            cases[c].result);
        caption_text(svg, got, sizeof got);
        ck_assert_str_eq(got, want);
        /* The board sits below however many lines the caption took. */
        snprintf(want, sizeof want, "<g transform=\"translate(0,%d)\">", 15 + 16 * (n - 1) + 9);
        ck_assert_msg(strstr(svg, want), "size %d: %d caption lines, no %s", cases[c].size, n,
                      want);
        assert_well_formed_xml(svg);
        if (cases[c].size == 5)
            assert_golden("timeout-5.svg", svg, strlen(svg));
        free(svg);
        tx_record_free(&r);
    }
}
END_TEST

/* Every result worded alike by the SVG caption and the text render:
 * "player N NAME wins by REASON (DETAIL)", "draw (DETAIL)". */
START_TEST(result_wording_svg_and_text)
{
    static const struct {
        enum tx_reason reason;
        int winner;
        const char *detail, *svg, *text;
    } cases[] = {
        {TX_REASON_CONNECTION, 0, "C1-E6", "player 1 winner wins by connection (C1-E6)",
         "player 1 winner (X) wins by connection (C1-E6)"},
        {TX_REASON_TIMEOUT, 1, "no answer in 300 ms",
         "player 2 loser wins by timeout (no answer in 300 ms)",
         "player 2 loser (O) wins by timeout (no answer in 300 ms)"},
        {TX_REASON_INVALID, 1, "occupied hole D6",
         "player 2 loser wins by invalid (occupied hole D6)",
         "player 2 loser (O) wins by invalid (occupied hole D6)"},
        {TX_REASON_DRAW, -1, "no legal hole", "draw (no legal hole)", "draw (no legal hole)"},
        {TX_REASON_INTERRUPTED, -1, "", "interrupted", "interrupted"},
    };
    const struct tx_geometry *geo = tx_verify_geometry(&cache, 6, 6);

    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        struct tx_record r;
        struct mem m;
        char *out, want[256], got[1024];

        /* The render draws whatever the record claims; it need not verify. */
        scripted_record(6, game_win, "winner", "loser", &r);
        r.result.reason = cases[c].reason;
        r.result.winner = cases[c].winner;
        free(r.result.detail);
        r.result.detail = tx_strdup(cases[c].detail);
        tx_render_svg(mem_open(&m), geo, &r, r.nmoves);
        out = mem_close(&m);
        caption_text(out, got, sizeof got);
        snprintf(want, sizeof want, "move 7 of 7: %s", cases[c].svg);
        ck_assert_msg(strstr(got, want), "SVG caption '%s' lacks '%s'", got, want);
        ck_assert_msg(!strstr(got, "player 0"), "SVG caption '%s'", got);
        free(out);
        tx_render_text_move(mem_open(&m), geo, &r, r.nmoves, false);
        out = mem_close(&m);
        snprintf(want, sizeof want, "\nresult: %s\n", cases[c].text);
        ck_assert_msg(strstr(out, want), "text render lacks '%s'", want + 1);
        ck_assert_msg(!strstr(out, "player 0"), "text render says player 0");
        free(out);
        tx_record_free(&r);
    }
}
END_TEST

/* A classic game on a board that is not square, every move: the header
 * names the rule set and the edits, and under the board the links each
 * move removed and added. */
START_TEST(text_classic_every_move)
{
    const struct tx_geometry *geo = tx_verify_geometry(&cache, 9, 7);
    struct tx_record r;
    struct mem m;
    char *text;

    scripted_game(CLASSIC_9X7, game_classic, "editor", "decliner", &r);
    ck_assert_int_eq(r.result.reason, TX_REASON_CONNECTION);
    ck_assert_str_eq(r.result.detail, "E1-D7");
    tx_render_text_game(mem_open(&m), geo, &r, false);
    text = mem_close(&m);
    ck_assert_ptr_nonnull(strstr(text, "game 3 (classic rules), move 5 of 11: player 1 editor (X) "
                                       "F3 -D3:E5  7.0 ms  \""));
    ck_assert_ptr_nonnull(strstr(text, "\nX links removed (1): D3-E5\nX links added (1): E5-F3\n"));
    ck_assert_ptr_nonnull(strstr(text, "\nX links added (2): D3-E5 D3-C5\n"));
    ck_assert_ptr_nonnull(strstr(text, "\nO links removed (1): B4-C6\n"));
    /* Move 11: E5-D7 is made, C5-D7 is not (it would cross B6-D5). */
    ck_assert_ptr_nonnull(strstr(text, "\nX links added (1): E5-D7\n"));
    assert_golden("classic-9x7.txt", text, strlen(text));
    free(text);
    /* One move alone says the same as in the whole game. */
    tx_render_text_move(mem_open(&m), geo, &r, 5, false);
    text = mem_close(&m);
    ck_assert_ptr_nonnull(strstr(text, "\nX links removed (1): D3-E5\nX links added (1): E5-F3\n"));
    free(text);
    tx_record_free(&r);
}
END_TEST

/* A classic answer whose edit is refused: the header quotes it whole. */
START_TEST(text_classic_refused_edit)
{
    const struct tx_geometry *geo = tx_verify_geometry(&cache, 9, 7);
    struct tx_record r;
    struct mem m;
    char *text;

    scripted_game(CLASSIC_9X7, game_classic_crossing, "editor", "decliner", &r);
    ck_assert_str_eq(r.result.detail, "+D5:B4 crosses the link D3:C5");
    tx_render_text_move(mem_open(&m), geo, &r, r.nmoves, false);
    text = mem_close(&m);
    ck_assert_ptr_nonnull(strstr(text, "game 3 (classic rules), move 8 of 8: player 2 decliner (O) "
                                       "answered \"F6 +D5:B4\", not played  11.5 ms  \"hmm\"\n"));
    ck_assert_ptr_null(strstr(text, "links added"));
    ck_assert_ptr_nonnull(strstr(text, "\nresult: player 1 editor (X) wins by invalid (+D5:B4 "
                                       "crosses the link D3:C5)\n"));
    free(text);
    tx_render_svg(mem_open(&m), geo, &r, 8);
    text = mem_close(&m);
    ck_assert_ptr_null(strstr(text, "removed-links"));
    free(text);
    tx_record_free(&r);
}
END_TEST

/* The SVG of the classic move that removed a link: the link dashed where
 * it was, the caption with the rule set and the edits. */
START_TEST(svg_classic_removal)
{
    const struct tx_geometry *geo = tx_verify_geometry(&cache, 9, 7);
    struct tx_record r;
    struct mem m;
    char *svg, caption[1024];

    scripted_game(CLASSIC_9X7, game_classic, "editor", "decliner", &r);
    tx_render_svg(mem_open(&m), geo, &r, 5);
    svg = mem_close(&m);
    caption_text(svg, caption, sizeof caption);
    ck_assert_str_eq(caption, "game 3 (classic rules): player 1 editor (red) vs player 2 decliner "
                              "(blue) move 5 of 11: player 1 editor played F3 -D3:E5");
    /* D3-E5 (x 3, y 2 to x 4, y 4), dashed. */
    ck_assert_ptr_nonnull(strstr(svg, "<g class=\"removed-links\""));
    ck_assert_ptr_nonnull(strstr(svg, "<line x1=\"144\" y1=\"112\" x2=\"176\" y2=\"176\" />"));
    assert_well_formed_xml(svg);
    assert_golden("classic-9x7-move-5.svg", svg, strlen(svg));
    free(svg);
    /* The next move removed nothing: nothing dashed. */
    tx_render_svg(mem_open(&m), geo, &r, 6);
    svg = mem_close(&m);
    ck_assert_ptr_null(strstr(svg, "removed-links"));
    free(svg);
    tx_record_free(&r);
}
END_TEST

/* 100 x 100: the text diagram in the compact layout (two characters a
 * column, names downwards, arrows at the last move), and the SVG with
 * smaller cells and the empty holes as a pattern. */
START_TEST(big_board_text_and_svg)
{
    const struct tx_geometry *geo = tx_verify_geometry(&cache, 100, 100);
    struct tx_record r;
    struct mem m;
    char *out, *line, *end;
    size_t widest = 0;

    scripted_game(&(struct tx_variant){.rules = TX_RULES_PP, .width = 100, .height = 100}, game_big,
                  "wide", "tall", &r);
    tx_render_text_move(mem_open(&m), geo, &r, 7, false);
    out = mem_close(&m);
    for (line = out; (end = strchr(line, '\n')); line = end + 1)
        if ((size_t)(end - line) > widest)
            widest = (size_t)(end - line);
    ck_assert_uint_le(widest, 212);
    /* Row 98 with its arrows, CT98 and the link CT98-CU100 half way down. */
    ck_assert_ptr_nonnull(strstr(out, "\n 98 >"));
    ck_assert_ptr_nonnull(strstr(out, "X .|.< 98\n"));
    ck_assert_ptr_nonnull(strstr(out, "X links (2): AA10-AB12 CU100-CT98\n"));
    assert_golden("big-100-move-7.txt", out, strlen(out));
    free(out);
    tx_render_svg(mem_open(&m), geo, &r, r.nmoves);
    out = mem_close(&m);
    /* 20-pixel cells: 2000 pixels of board and two margins. */
    ck_assert_ptr_nonnull(strstr(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"2064\""));
    ck_assert_ptr_nonnull(strstr(out, "<pattern id=\"holes\""));
    ck_assert_ptr_nonnull(strstr(out, ">CV</text>"));
    ck_assert_ptr_nonnull(strstr(out, ">100</text>"));
    ck_assert_uint_lt(strlen(out), 40000);
    assert_well_formed_xml(out);
    assert_golden("big-100.svg", out, strlen(out));
    free(out);
    tx_record_free(&r);
}
END_TEST

START_TEST(text_safe_defuses_controls)
{
    struct mem m;
    char *text;

    tx_render_text_safe(mem_open(&m),
                        "a\033[2Jb\x07\xc2\x9b"
                        "31mc\xc3\xa9",
                        100);
    text = mem_close(&m);
    ck_assert_str_eq(text, "a?[2Jb??31mc\xc3\xa9");
    free(text);
    tx_render_text_safe(mem_open(&m), "abcdef", 3);
    text = mem_close(&m);
    ck_assert_str_eq(text, "abc...");
    free(text);
    /* A cut never splits a character: "é" is two bytes. */
    tx_render_text_safe(mem_open(&m), "ab\xc3\xa9z", 3);
    text = mem_close(&m);
    ck_assert_str_eq(text, "ab\xc3\xa9...");
    free(text);
}
END_TEST

/* The data the HTML viewer gets for a game (its tx-game element), for
 * games of two bots under the mirror swap: what it always was. */
START_TEST(html_game_data_two_bots)
{
    static const struct {
        int size;
        const char *const *moves;
        const char *golden;
    } cases[] = {
        {6, game_win, "win-6.html-game"},
        {8, game_swap, "swap-8.html-game"},
    };

    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        const struct tx_geometry *geo = tx_verify_geometry(&cache, cases[c].size, cases[c].size);
        struct tx_verify_report rep;
        struct tx_record r;
        struct mem m;
        char *out;

        scripted_record(cases[c].size, cases[c].moves, "alpha", "beta", &r);
        tx_verify_record(geo, &r, &rep);
        tx_render_html_game(mem_open(&m), geo, &r, &rep, "games.jsonl:3");
        out = mem_close(&m);
        assert_golden(cases[c].golden, out, strlen(out));
        free(out);
        tx_record_free(&r);
    }
}
END_TEST

/* A pie game, every move: the swap says who plays which colour from then
 * on, and each player's mark follows. */
START_TEST(text_pie_every_move)
{
    const struct tx_geometry *geo = tx_verify_geometry(&cache, 8, 8);
    struct tx_record r;
    struct mem m;
    char *text;

    scripted_game(PIE_8X8, game_pie, "alpha", "beta", &r);
    tx_render_text_game(mem_open(&m), geo, &r, false);
    text = mem_close(&m);
    ck_assert_ptr_nonnull(
        strstr(text, "game 3 (pie opening), move 1 of 10: player 1 alpha (X) D3 "));
    ck_assert_ptr_nonnull(strstr(text, "game 3 (pie opening), move 2 of 10: player 2 beta (X) SWAP "
                                       "(the sides exchange, D3 stays: player 2 beta plays X, "
                                       "player 1 alpha O)  2.5 ms  \"hmm\"\n"));
    /* The peg that stayed is marked as the swap's. */
    ck_assert_ptr_nonnull(strstr(text, "[X]"));
    ck_assert_ptr_nonnull(strstr(text, "move 3 of 10: player 1 alpha (O) B4  "));
    ck_assert_ptr_nonnull(strstr(text, "\nresult: player 2 beta (X) wins by connection (C1-F8)\n"));
    assert_golden("pie-8.txt", text, strlen(text));
    free(text);
    tx_record_free(&r);
}
END_TEST

/* The pie swap in the SVG: the caption names the colours each plays. */
START_TEST(svg_pie_swap)
{
    const struct tx_geometry *geo = tx_verify_geometry(&cache, 8, 8);
    struct tx_record r;
    struct mem m;
    char *svg, caption[1024];

    scripted_game(PIE_8X8, game_pie, "alpha", "beta", &r);
    tx_render_svg(mem_open(&m), geo, &r, 2);
    svg = mem_close(&m);
    caption_text(svg, caption, sizeof caption);
    ck_assert_str_eq(caption, "game 3 (pie opening): player 1 alpha (blue) vs player 2 beta (red) "
                              "move 2 of 10: player 2 beta swapped (the sides exchange, D3 "
                              "stays: player 2 beta plays red, player 1 alpha blue)");
    assert_well_formed_xml(svg);
    assert_golden("pie-8-move-2.svg", svg, strlen(svg));
    free(svg);
    tx_render_svg(mem_open(&m), geo, &r, 1);
    svg = mem_close(&m);
    caption_text(svg, caption, sizeof caption);
    ck_assert_str_eq(caption, "game 3 (pie opening): player 1 alpha (red) vs player 2 beta (blue) "
                              "move 1 of 10: player 1 alpha played D3");
    free(svg);
    tx_record_free(&r);
}
END_TEST

/* A cut game, every move: the cut's three pegs and its link at once, no
 * colour for either player until the choice, then the sides chosen. */
START_TEST(text_cut_every_move)
{
    const struct tx_geometry *geo = tx_verify_geometry(&cache, 8, 8);
    struct tx_record r;
    struct mem m;
    char *text;

    scripted_game(CUT_8X8, game_cut, "alpha", "beta", &r);
    tx_render_text_game(mem_open(&m), geo, &r, false);
    text = mem_close(&m);
    ck_assert_ptr_nonnull(strstr(text,
                                 "game 3 (cut opening), move 1 of 8: player 1 alpha CUT D3 E5 "
                                 "F6 +D3:E5 (X D3 E5, linked; O F6; player 2 beta chooses a "
                                 "side)  1.0 ms\n"));
    /* All three pegs marked, and the red link drawn. */
    ck_assert_ptr_nonnull(strstr(text, "[X]"));
    ck_assert_ptr_nonnull(strstr(text, "[O]"));
    ck_assert_ptr_nonnull(strstr(text, "\nX links (1): D3-E5\n"));
    ck_assert_ptr_nonnull(strstr(text, "move 2 of 8: player 2 beta (X) CHOOSE 1 (player 2 beta "
                                       "plays X, player 1 alpha O; player 1 alpha moves next)  "));
    ck_assert_ptr_nonnull(strstr(text, "move 3 of 8: player 1 alpha (O) B4  "));
    ck_assert_ptr_nonnull(strstr(text, "\nresult: player 2 beta (X) wins by connection (C1-F8)\n"));
    assert_golden("cut-8.txt", text, strlen(text));
    free(text);
    tx_record_free(&r);
}
END_TEST

/* The cut in the SVG: three pegs ringed, the link drawn, the caption
 * without colours until the choice. */
START_TEST(svg_cut)
{
    const struct tx_geometry *geo = tx_verify_geometry(&cache, 8, 8);
    struct tx_record r;
    struct mem m;
    char *svg, caption[1024];
    int rings = 0;

    scripted_game(CUT_8X8, game_cut, "alpha", "beta", &r);
    tx_render_svg(mem_open(&m), geo, &r, 1);
    svg = mem_close(&m);
    caption_text(svg, caption, sizeof caption);
    ck_assert_str_eq(caption, "game 3 (cut opening): player 1 alpha vs player 2 beta move 1 of 8: "
                              "player 1 alpha played CUT D3 E5 F6 +D3:E5 (red D3 E5, linked; "
                              "blue F6; player 2 beta chooses a side)");
    for (const char *at = svg; (at = strstr(at, "fill=\"none\" stroke=\"#111\"")); at++)
        rings++;
    ck_assert_int_eq(rings, 3);
    /* D3-E5: (3, 2) to (4, 4). */
    ck_assert_ptr_nonnull(strstr(svg, "<line x1=\"144\" y1=\"112\" x2=\"176\" y2=\"176\" />"));
    assert_well_formed_xml(svg);
    assert_golden("cut-8-move-1.svg", svg, strlen(svg));
    free(svg);
    tx_render_svg(mem_open(&m), geo, &r, 2);
    svg = mem_close(&m);
    caption_text(svg, caption, sizeof caption);
    ck_assert_str_eq(caption, "game 3 (cut opening): player 1 alpha (blue) vs player 2 beta (red) "
                              "move 2 of 8: player 2 beta played CHOOSE 1 (player 2 beta plays "
                              "red, player 1 alpha blue; player 1 alpha moves next)");
    free(svg);
    tx_record_free(&r);
}
END_TEST

/* Double TwixT, every move: partners in one colour, each move by its bot,
 * the privilege and the bot that lost its turn. */
START_TEST(text_teams_every_move)
{
    const struct tx_geometry *geo = tx_verify_geometry(&cache, 8, 8);
    struct tx_record r;
    struct mem m;
    char *text;

    scripted_variant(TEAMS_8X8, game_teams, team_names, &r);
    ck_assert_int_eq(r.result.winner, 0);
    tx_render_text_move(mem_open(&m), geo, &r, 0, false);
    text = mem_close(&m);
    ck_assert_str_eq(strchr(text, '\n') ? (strchr(text, '\n')[0] = '\0', text) : text,
                     "game 3 (Double TwixT), before the first move: team red (X: player 1 alice, "
                     "player 3 carol) against team black (O: player 2 bob, player 4 dave)");
    free(text);
    tx_render_text_game(mem_open(&m), geo, &r, false);
    text = mem_close(&m);
    ck_assert_ptr_nonnull(strstr(text, "game 3 (Double TwixT), move 2 of 8: player 2 bob (O, team "
                                       "black) B4  "));
    ck_assert_ptr_nonnull(strstr(text, "move 3 of 8: player 3 carol (X, team red) E5 !privilege "
                                       "(player 1 alice moves at once, player 4 dave loses its "
                                       "turn)  "));
    ck_assert_ptr_nonnull(strstr(text, "move 4 of 8: player 1 alice (X, team red) C1  "));
    ck_assert_ptr_nonnull(strstr(text, "move 5 of 8: player 2 bob (O, team black) C6  "));
    ck_assert_ptr_nonnull(strstr(text, "move 7 of 8: player 4 dave (O, team black) G4  "));
    ck_assert_ptr_nonnull(strstr(text, "\nresult: team red (X) wins by connection (C1-F8)\n"));
    assert_golden("teams-8.txt", text, strlen(text));
    free(text);
    tx_record_free(&r);
}
END_TEST

/* Double TwixT in the SVG: the teams in the caption, the privilege. */
START_TEST(svg_teams_privilege)
{
    const struct tx_geometry *geo = tx_verify_geometry(&cache, 8, 8);
    struct tx_record r;
    struct mem m;
    char *svg, caption[1024];

    scripted_variant(TEAMS_8X8, game_teams, team_names, &r);
    tx_render_svg(mem_open(&m), geo, &r, 3);
    svg = mem_close(&m);
    caption_text(svg, caption, sizeof caption);
    ck_assert_str_eq(caption,
                     "game 3 (Double TwixT): team red (red: player 1 alice, player 3 carol) "
                     "vs team black (blue: player 2 bob, player 4 dave) move 3 of 8: "
                     "player 3 carol played E5 !privilege (player 1 alice moves at once, "
                     "player 4 dave loses its turn)");
    assert_well_formed_xml(svg);
    assert_golden("teams-8-move-3.svg", svg, strlen(svg));
    free(svg);
    tx_render_svg(mem_open(&m), geo, &r, r.nmoves);
    svg = mem_close(&m);
    caption_text(svg, caption, sizeof caption);
    ck_assert_msg(strstr(caption, "move 8 of 8: team red wins by connection (C1-F8)"), "%s",
                  caption);
    ck_assert_ptr_nonnull(strstr(svg, "<g id=\"winning-chain\">"));
    free(svg);
    /* A team's name is text, escaped like a bot's. */
    free(r.teams[1]);
    r.teams[1] = tx_strdup("</text><script>'\"&");
    tx_render_svg(mem_open(&m), geo, &r, 3);
    svg = mem_close(&m);
    ck_assert_ptr_null(strstr(svg, "<script"));
    caption_text(svg, caption, sizeof caption);
    ck_assert_msg(strstr(caption, "team &lt;/text&gt;&lt;script&gt;&apos;&quot;&amp; (blue"), "%s",
                  caption);
    assert_well_formed_xml(svg);
    free(svg);
    tx_record_free(&r);
}
END_TEST

/* The frames of a game's tx-game element, parsed (the caller deletes the
 * returned root). */
static cJSON *html_frames(const struct tx_record *r, cJSON **ret_frames)
{
    const struct tx_geometry *geo = tx_verify_geometry(&cache, r->width, r->height);
    struct mem m;
    char *out, *json;
    cJSON *root;

    tx_render_html_game(mem_open(&m), geo, r, NULL, "test");
    out = mem_close(&m);
    json = strchr(out, '>') + 1;
    *strstr(json, "</script>") = '\0';
    root = cJSON_Parse(json);
    ck_assert_ptr_nonnull(root);
    free(out);
    *ret_frames = cJSON_GetObjectItem(cJSON_GetObjectItem(root, "meta"), "frames");
    ck_assert_int_eq(cJSON_GetArraySize(*ret_frames), r->nmoves);
    return root;
}

/* Frame i written back as JSON, for comparing. */
static char *frame_text(cJSON *frames, int i)
{
    return cJSON_PrintUnformatted(cJSON_GetArrayItem(frames, i));
}

static void assert_frame(cJSON *frames, int i, const char *want)
{
    char *got = frame_text(frames, i);
    ck_assert_msg(!strcmp(got, want), "frame %d is %s, not %s", i, got, want);
    free(got);
}

/* What the viewer gets for the openings and teams: the pie's peg that
 * stays, the cut's pegs and link, the choice, the sides each time they
 * are decided, the privilege's seats, and the notes in the caption's
 * words. */
START_TEST(html_game_data_openings)
{
    struct tx_record r;
    cJSON *root, *frames;

    scripted_game(PIE_8X8, game_pie, "alpha", "beta", &r);
    root = html_frames(&r, &frames);
    assert_frame(frames, 0, "{\"peg\":\"D3\"}");
    assert_frame(
        frames, 1,
        "{\"pie\":\"D3\",\"sides\":[1,0],\"note\":\"the sides exchange, D3 stays: player 2 "
        "beta plays red, player 1 alpha blue\"}");
    assert_frame(frames, 2, "{\"peg\":\"B4\"}");
    ck_assert_ptr_null(cJSON_GetObjectItem(cJSON_GetObjectItem(root, "meta"), "sides"));
    cJSON_Delete(root);
    tx_record_free(&r);

    scripted_game(CUT_8X8, game_cut, "alpha", "beta", &r);
    root = html_frames(&r, &frames);
    assert_frame(frames, 0,
                 "{\"cut\":[\"D3\",\"E5\",\"F6\"],\"added\":[[\"D3\",\"E5\"]],"
                 "\"note\":\"red D3 E5, linked; blue F6; player 2 beta chooses a side\"}");
    assert_frame(frames, 1,
                 "{\"choose\":1,\"sides\":[1,0],\"note\":\"player 2 beta plays red, "
                 "player 1 alpha blue; player 1 alpha moves next\"}");
    {
        char *start =
            cJSON_PrintUnformatted(cJSON_GetObjectItem(cJSON_GetObjectItem(root, "meta"), "sides"));
        ck_assert_str_eq(start, "[-1,-1]");
        free(start);
    }
    cJSON_Delete(root);
    tx_record_free(&r);

    scripted_variant(TEAMS_8X8, game_teams, team_names, &r);
    root = html_frames(&r, &frames);
    assert_frame(
        frames, 2,
        "{\"peg\":\"E5\",\"added\":[[\"D3\",\"E5\"]],\"privilege\":{\"next\":0,\"skipped\":3},"
        "\"note\":\"player 1 alice moves at once, player 4 dave loses its "
        "turn\"}");
    assert_frame(frames, 3, "{\"peg\":\"C1\",\"added\":[[\"C1\",\"D3\"]]}");
    assert_frame(frames, 6, "{\"peg\":\"G4\"}");
    cJSON_Delete(root);
    tx_record_free(&r);
}
END_TEST

/* The rule set, the opening and the handicap are named with the game;
 * the handicapped bot with the distance it has in the colour it plays. */
START_TEST(game_name_opening_and_handicap)
{
    static const char *const moves[] = {"C2", "D5", "C4", NO_ANSWER, NULL};
    const struct tx_geometry *geo = tx_verify_geometry(&cache, 6, 9);
    struct tx_record r;
    struct mem m;
    char *out, caption[1024];

    scripted_game(&(struct tx_variant){.width = 6, .height = 9, .opening = TX_OPENING_NONE}, moves,
                  "strong", "weak", &r);
    r.handicap = tx_strdup("strong");
    tx_render_text_move(mem_open(&m), geo, &r, 1, false);
    out = mem_close(&m);
    ck_assert_ptr_nonnull(strstr(out,
                                 "game 3 (none opening, handicap: strong crosses 9 rows), move "
                                 "1 of 4: player 1 strong (X) C2  "));
    free(out);
    free(r.handicap);
    r.handicap = tx_strdup("weak");
    r.rules = TX_RULES_CLASSIC;
    tx_render_svg(mem_open(&m), geo, &r, 1);
    out = mem_close(&m);
    caption_text(out, caption, sizeof caption);
    ck_assert_str_eq(caption, "game 3 (classic rules, none opening, handicap: weak crosses 6 "
                              "columns): player 1 strong (red) vs player 2 weak (blue) move 1 of "
                              "4: player 1 strong played C2");
    free(out);
    tx_record_free(&r);
}
END_TEST

/* A cut or a choice that was refused: quoted, nothing marked, and no side
 * for either player, since none was decided. */
START_TEST(text_cut_refused)
{
    static const char *const refused_cut[] = {"CUT D3 D3 F6", NULL};
    static const char *const refused_choice[] = {"CUT D3 E5 F6", "CHOOSE 3", NULL};
    const struct tx_geometry *geo = tx_verify_geometry(&cache, 8, 8);
    struct tx_record r;
    struct mem m;
    char *out;

    scripted_game(CUT_8X8, refused_cut, "alpha", "beta", &r);
    tx_render_text_move(mem_open(&m), geo, &r, 1, false);
    out = mem_close(&m);
    ck_assert_ptr_nonnull(strstr(out, "game 3 (cut opening), move 1 of 1: player 1 alpha answered "
                                      "\"CUT D3 D3 F6\", not played  1.0 ms\n"));
    ck_assert_ptr_null(strchr(out, '['));
    ck_assert_ptr_nonnull(strstr(out, "\nresult: player 2 beta wins by invalid (CUT: D3 twice)\n"));
    free(out);
    tx_record_free(&r);
    scripted_game(CUT_8X8, refused_choice, "alpha", "beta", &r);
    tx_render_text_move(mem_open(&m), geo, &r, 2, false);
    out = mem_close(&m);
    ck_assert_ptr_nonnull(strstr(out, "move 2 of 2: player 2 beta answered \"CHOOSE 3\", not "
                                      "played  2.5 ms  \"hmm\"\n"));
    ck_assert_ptr_nonnull(
        strstr(out, "\nresult: player 1 alpha wins by invalid (not a move: \"CHOOSE 3\")\n"));
    free(out);
    tx_record_free(&r);
}
END_TEST

/* A cut on a board drawn compact (30 columns): its three pegs' rows have
 * arrows, and their columns a mark each above and below. */
START_TEST(text_compact_cut_marks)
{
    static const char *const moves[] = {"CUT D4 E6 AB10", "CHOOSE 2", "C3", NO_ANSWER, NULL};
    const struct tx_geometry *geo = tx_verify_geometry(&cache, 30, 24);
    struct tx_record r;
    struct mem m;
    char *out, want[128];

    scripted_game(&(struct tx_variant){.width = 30, .height = 24, .opening = TX_OPENING_CUT}, moves,
                  "alpha", "beta", &r);
    tx_render_text_move(mem_open(&m), geo, &r, 1, false);
    out = mem_close(&m);
    ck_assert_ptr_nonnull(strstr(out, "\n 4 >.|. . X"));
    ck_assert_ptr_nonnull(strstr(out, "\n 6 >.|. . . X"));
    ck_assert_ptr_nonnull(strstr(out, "\n10 >.|"));
    /* Columns D, E and AB: 2 characters a column after 4 of margin. */
    snprintf(want, sizeof want, "\n%*sv v%*sv\n", 4 + 2 * 3, "", 2 * (27 - 4) - 1, "");
    ck_assert_msg(strstr(out, want), "no column marks '%s' in\n%s", want + 1, out);
    free(out);
    /* After the choice, nothing is marked. */
    tx_render_text_move(mem_open(&m), geo, &r, 2, false);
    out = mem_close(&m);
    ck_assert_ptr_null(strstr(out, " >"));
    free(out);
    tx_record_free(&r);
}
END_TEST

static Suite *render_suite(void)
{
    Suite *s = suite_create("render");
    TCase *tc = tcase_create("golden");

    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, text_game_every_move);
    tcase_add_test(tc, text_win_final_in_colour);
    tcase_add_test(tc, svg_win_final);
    tcase_add_test(tc, svg_escapes_names);
    tcase_add_test(tc, text_timeout_final);
    tcase_add_test(tc, svg_caption_wraps_long_detail);
    tcase_add_test(tc, result_wording_svg_and_text);
    tcase_add_test(tc, text_safe_defuses_controls);
    tcase_add_test(tc, text_classic_every_move);
    tcase_add_test(tc, text_classic_refused_edit);
    tcase_add_test(tc, svg_classic_removal);
    tcase_add_test(tc, big_board_text_and_svg);
    tcase_add_test(tc, html_game_data_two_bots);
    tcase_add_test(tc, text_pie_every_move);
    tcase_add_test(tc, svg_pie_swap);
    tcase_add_test(tc, text_cut_every_move);
    tcase_add_test(tc, svg_cut);
    tcase_add_test(tc, text_teams_every_move);
    tcase_add_test(tc, svg_teams_privilege);
    tcase_add_test(tc, html_game_data_openings);
    tcase_add_test(tc, game_name_opening_and_handicap);
    tcase_add_test(tc, text_cut_refused);
    tcase_add_test(tc, text_compact_cut_marks);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(render_suite());
    int failed;

    srunner_run_all(sr, CK_ENV);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    tx_verify_geometries_free(&cache);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
