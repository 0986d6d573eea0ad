/* test-rules.c - the rules of the TwixT family as data: cases in tests/rules/, one file per topic.
 *
 * Each case is a short script run against libtwixt's game (game.h), written
 * from RULES.md and the headers, not from the implementation. A position is
 * built by playing real moves, so links form by the real rules, and then
 * checked against an ASCII board, the exact link lists, the result, and so
 * on. One Check test per case, named in the failure message as
 * "file:line: case NAME: ...". The files are found through TX_SOURCE_DIR
 * (set by tests/meson.build) as $TX_SOURCE_DIR/tests/rules/NAME.txt.
 *
 * The format, one command per line ("#" starts a comment line):
 *
 *   case NAME              starts a case: a new game of pp on 12 x 12
 *   size N                 (before any other command) the board is N x N
 *   board WxH              (before any other command) W columns, H rows
 *   rules pp|classic       (before any other command) the rule set
 *   play M [EDIT...]...    plays each move for the player to move, with the
 *                          link edits written after it; each must be legal
 *                          (tx_game_check, tx_game_check_edits with edits)
 *                          and accepted (tx_game_play, tx_game_play_edits)
 *   legal M...             each move is legal now (checked, not played)
 *   illegal M [EDIT...] WHY ["TEXT"]
 *                          M with those edits is refused by check and play
 *                          with WHY; the game is left byte for byte
 *                          unchanged; TEXT, when given, is
 *                          tx_illegal_describe's exact text. WHY is one of
 *                          out-of-range corner occupied opponent-border swap
 *                          game-over, or for edits: edits (under pp, or
 *                          with SWAP) edit-no-hole edit-not-knight
 *                          edit-no-link edit-not-own edit-exists
 *                          edit-crosses edit-not-new edit-added
 *   refused LINE "TEXT"    the answer LINE (the words up to the quote) is
 *                          not a move: tx_answer_parse refuses it with
 *                          exactly TEXT (quotes inside TEXT are kept)
 *   links X|O L...|none    tx_game_links of that player, exactly, in order;
 *                          a link is written OLDER-NEWER, e.g. E5-F7
 *   pegs X|O H...|none     tx_game_pegs of that player, exactly, in order
 *   board                  the next H+1 lines are the board: a header of
 *                          column names, then rows 1..H, each "ROW CELLS"
 *                          with X (player 0, FIRST, rows 1/H), O (player 1,
 *                          the first and last columns), . (vacant) and #
 *                          (corner); blanks between cells do not matter
 *   result ongoing | win X | win O | draw
 *   tomove X|O             the player to move
 *   nlegal K               tx_game_legal_moves returns K moves
 *   chain H...             tx_game_winning_chain, exactly, read either way
 *                          (for a game with one shortest chain)
 *   input                  the next lines, up to a line "end", are exactly
 *                          tx_input_write's text for the player to move
 *   position X|O           the next lines, up to "end", are a turn input for
 *                          X or O: tx_input_parse and tx_game_from_input
 *                          (under the case's rules) accept it and the case
 *                          goes on from that position
 *   reject X|O             ... likewise, but the position is impossible: one
 *                          of them returns -EINVAL
 *
 * A move M is a hole name (D6, AA10: one or two letters, A..Z then AA, AB,
 * ..., CV for column 100), SWAP, or #K for the raw hole index K (to reach
 * indexes off the board, e.g. #-1). A link edit is -A:B (remove), +A:B
 * (add) or ~A:B (decline an automatic link of the new peg), A and B hole
 * names that may be off the board (AA1 on 12 x 12); it belongs to the move
 * before it. A named move and its edits are also read as the answer line
 * "M EDIT..." by tx_answer_parse, which must find the same move and, under
 * classic, the same edits (under pp the edits are the line's message); the
 * edits given to the game are the ones read here, so under pp they are
 * refused as "edits".
 *
 * After the last command every case also checks invariants that need no
 * data: tx_game_linked agrees with the link lists for every knight pair, no
 * two links cross where the rules forbid it (any two under classic, two of
 * different colours under pp; tested geometrically here), a won game's
 * chain is a real chain of the winner between its border lines, the legal
 * list agrees with tx_game_check, and an ongoing game survives
 * tx_input_write -> tx_input_parse -> tx_game_from_input unchanged (same
 * pegs, links, legal moves and input text).
 */
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "answer.h"
#include "game.h"
#include "geometry.h"
#include "input.h"
#include "alloc.h"
#include "rules.h"

#define LINE_MAX_LEN 4096 /* bytes of one data line */
#define TEXT_MAX 8192

/* One case: where it is, and its lines (pointers into the file's text). */
struct rules_case {
    const char *file; /* base name, for messages */
    int first_line;   /* line number of "case" */
    char name[64];
    int nlines;
    char **lines; /* the case's lines, "case" line first */
};

static struct rules_case *cases;
static int ncases;
#define FILES_MAX 256
static char *file_names[FILES_MAX], *file_texts[FILES_MAX]; /* the cases point into these */
static int nfiles;

/* The case being run: its game, and where it is for messages. */
struct runner {
    const struct rules_case *c;
    int line; /* line number of the command being run */
    struct tx_geometry *geo;
    struct tx_game *game;
    enum tx_rules rules;
};

/* Reports a failure naming the file, line and case, and ends the test. */
static void case_fail(const struct runner *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void case_fail(const struct runner *r, const char *fmt, ...)
{
    char msg[6000];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    ck_abort_msg("%s:%d: case %s: %s", r->c->file, r->line, r->c->name, msg);
}

/* Hole names are parsed and written here, not with hole.h, so that the
 * cases do not depend on the code they test. A name is one or two capital
 * letters (A = column 0, ..., Z = 25, AA = 26, AB = 27, ..., CV = 99: the
 * letters are a number in base 26 with digits A = 1 .. Z = 26) and a row
 * from 1, of at most three digits, without leading zeros. Sets *x and *y
 * (from 0) and returns true, or returns false when s is not such a name. */
static bool parse_coords(const char *s, size_t len, int *x, int *y)
{
    size_t letters = 0;
    int column = 0, row = 0;

    while (letters < len && letters < 3 && s[letters] >= 'A' && s[letters] <= 'Z') {
        column = column * 26 + (s[letters] - 'A' + 1);
        letters++;
    }
    if (letters < 1 || letters > 2 || len - letters < 1 || len - letters > 3 || s[letters] == '0')
        return false;
    for (size_t i = letters; i < len; i++) {
        if (s[i] < '0' || s[i] > '9')
            return false;
        row = row * 10 + (s[i] - '0');
    }
    *x = column - 1;
    *y = row - 1;
    return true;
}

static int parse_hole(const struct runner *r, const char *s)
{
    int width = r->geo->width, height = r->geo->height;
    int x, y;

    if (!parse_coords(s, strlen(s), &x, &y))
        case_fail(r, "data: \"%s\" is not a hole name", s);
    if (x >= width || y >= height)
        case_fail(r, "data: %s is not on a %d x %d board (use #index)", s, width, height);
    return y * width + x;
}

/* Column x's name: "A".."Z", then "AA", "AB", ... */
static void column_name(int x, char *buf)
{
    if (x < 26) {
        buf[0] = (char)('A' + x);
        buf[1] = '\0';
    } else {
        buf[0] = (char)('A' + x / 26 - 1);
        buf[1] = (char)('A' + x % 26);
        buf[2] = '\0';
    }
}

static void hole_name(const struct tx_geometry *geo, int hole, char *buf, size_t cap)
{
    char column[3];

    if (hole < 0 || hole >= geo->holes) {
        snprintf(buf, cap, "#%d", hole);
        return;
    }
    column_name(hole % geo->width, column);
    snprintf(buf, cap, "%s%d", column, hole / geo->width + 1);
}

/* An edit as the tables write it: -A:B, +A:B or ~A:B. */
static bool parse_edit(const char *s, struct tx_edit *ret)
{
    const char *colon = strchr(s, ':');
    int ax, ay, bx, by;

    if ((s[0] != '-' && s[0] != '+' && s[0] != '~') || !colon ||
        !parse_coords(s + 1, (size_t)(colon - s - 1), &ax, &ay) ||
        !parse_coords(colon + 1, strlen(colon + 1), &bx, &by))
        return false;
    *ret = (struct tx_edit){s[0], (int16_t)ax, (int16_t)ay, (int16_t)bx, (int16_t)by};
    return true;
}

static bool is_edit_token(const char *s)
{
    struct tx_edit e;
    return parse_edit(s, &e);
}

static int parse_move(const struct runner *r, const char *s)
{
    if (strcmp(s, "SWAP") == 0)
        return TX_MOVE_SWAP;
    if (s[0] == '#') {
        char *end;
        long v = strtol(s + 1, &end, 10);
        if (*end || end == s + 1)
            case_fail(r, "data: bad raw index \"%s\"", s);
        return (int)v;
    }
    return parse_hole(r, s);
}

static int parse_player(const struct runner *r, const char *s)
{
    if (s && strcmp(s, "X") == 0)
        return 0;
    if (s && strcmp(s, "O") == 0)
        return 1;
    case_fail(r, "data: expected X or O, got \"%s\"", s ? s : "");
    return -1;
}

static const char *illegal_name(enum tx_illegal why)
{
    switch (why) {
    case TX_LEGAL:
        return "legal";
    case TX_ILLEGAL_OUT_OF_RANGE:
        return "out-of-range";
    case TX_ILLEGAL_CORNER:
        return "corner";
    case TX_ILLEGAL_OCCUPIED:
        return "occupied";
    case TX_ILLEGAL_OPPONENT_BORDER:
        return "opponent-border";
    case TX_ILLEGAL_SWAP:
        return "swap";
    case TX_ILLEGAL_GAME_OVER:
        return "game-over";
    case TX_ILLEGAL_EDITS:
        return "edits";
    case TX_ILLEGAL_EDITS_TOO_MANY:
        return "edits-too-many";
    case TX_ILLEGAL_EDIT_NO_HOLE:
        return "edit-no-hole";
    case TX_ILLEGAL_EDIT_NOT_KNIGHT:
        return "edit-not-knight";
    case TX_ILLEGAL_EDIT_NO_LINK:
        return "edit-no-link";
    case TX_ILLEGAL_EDIT_NOT_OWN:
        return "edit-not-own";
    case TX_ILLEGAL_EDIT_EXISTS:
        return "edit-exists";
    case TX_ILLEGAL_EDIT_CROSSES:
        return "edit-crosses";
    case TX_ILLEGAL_EDIT_NOT_NEW:
        return "edit-not-new";
    case TX_ILLEGAL_EDIT_ADDED:
        return "edit-added";
    default:
        break;
    }
    return "unknown";
}

static int split(char *line, char **tok, int max)
{
    int n = 0;
    char *save = NULL;

    for (char *t = strtok_r(line, " \t", &save); t && n < max; t = strtok_r(NULL, " \t", &save))
        tok[n++] = t;
    return n;
}

/* Writes the board in the data format: header, then rows 1..N. */
static void render_board(const struct tx_game *g, char *buf, size_t cap)
{
    const struct tx_geometry *geo = g->geo;
    size_t len = 0;

    len += (size_t)snprintf(buf + len, cap - len, "  ");
    for (int x = 0; x < geo->width; x++) {
        char column[3];
        column_name(x, column);
        len += (size_t)snprintf(buf + len, cap - len, " %s", column);
    }
    len += (size_t)snprintf(buf + len, cap - len, "\n");
    for (int y = 0; y < geo->height; y++) {
        len += (size_t)snprintf(buf + len, cap - len, "%2d", y + 1);
        for (int x = 0; x < geo->width; x++) {
            int h = y * geo->width + x;
            bool corner = (x == 0 || x == geo->width - 1) && (y == 0 || y == geo->height - 1);
            int cell = tx_game_cell(g, h);
            char c = corner ? '#' : cell == TX_PEG0 ? 'X' : cell == TX_PEG1 ? 'O' : '.';
            len += (size_t)snprintf(buf + len, cap - len, " %c", c);
        }
        len += (size_t)snprintf(buf + len, cap - len, "\n");
    }
}

/* Normalises a board text for comparison: runs of blanks become one space,
 * no blank at line starts or ends. */
static void normalise(const char *in, char *out, size_t cap)
{
    size_t n = 0;
    bool blank = false, line_start = true;

    for (; *in && n + 2 < cap; in++) {
        if (*in == ' ' || *in == '\t') {
            blank = true;
            continue;
        }
        if (*in == '\n') {
            out[n++] = '\n';
            blank = false;
            line_start = true;
            continue;
        }
        if (blank && !line_start)
            out[n++] = ' ';
        blank = false;
        line_start = false;
        out[n++] = *in;
    }
    out[n] = '\0';
}

static void format_links(const struct tx_geometry *geo, const int16_t *l, int n, char *buf,
                         size_t cap)
{
    size_t len = 0;

    buf[0] = '\0';
    if (n == 0)
        snprintf(buf, cap, "none");
    for (int i = 0; i < n && len + 16 < cap; i++) {
        char a[16], b[16];
        hole_name(geo, l[2 * i], a, sizeof a);
        hole_name(geo, l[2 * i + 1], b, sizeof b);
        len += (size_t)snprintf(buf + len, cap - len, "%s%s-%s", i ? " " : "", a, b);
    }
}

static void format_holes(const struct tx_geometry *geo, const int16_t *h, int n, char *buf,
                         size_t cap)
{
    size_t len = 0;

    buf[0] = '\0';
    if (n == 0)
        snprintf(buf, cap, "none");
    for (int i = 0; i < n && len + 8 < cap; i++) {
        char a[16];
        hole_name(geo, h[i], a, sizeof a);
        len += (size_t)snprintf(buf + len, cap - len, "%s%s", i ? " " : "", a);
    }
}

/* A move and its edits as the case gives them, read here (parse_move,
 * parse_edit) and as an answer line by tx_answer_parse, which must agree:
 * the same move, and under classic the same edits, under pp no edits and
 * the edits' text as the message. tok[0] is the move, tok[1..n) its edits. */
struct move_edits {
    int move;
    int nedits;
    struct tx_edit edits[TX_EDITS_READ];
};

static void read_move(struct runner *r, char **tok, int n, struct move_edits *me)
{
    static struct tx_answer ans;
    char line[LINE_MAX_LEN];
    size_t len = 0, message_start;

    me->move = parse_move(r, tok[0]);
    me->nedits = n - 1;
    if (me->nedits > TX_EDITS_READ)
        case_fail(r, "data: more than %d edits", TX_EDITS_READ);
    for (int i = 1; i < n; i++)
        if (!parse_edit(tok[i], &me->edits[i - 1]))
            case_fail(r, "data: \"%s\" is not an edit", tok[i]);
    if (tok[0][0] == '#')
        return; /* a raw index is no answer a bot can write */
    len += (size_t)snprintf(line + len, sizeof line - len, "%s", tok[0]);
    message_start = len + 1;
    for (int i = 1; i < n; i++)
        len += (size_t)snprintf(line + len, sizeof line - len, " %s", tok[i]);
    if (len >= sizeof line)
        case_fail(r, "data: answer line too long");
    if (tx_answer_parse(r->geo, r->rules, line, len, &ans) != 0)
        case_fail(r, "tx_answer_parse refuses \"%s\": %s", line, ans.reason);
    if (ans.move != me->move)
        case_fail(r, "tx_answer_parse reads the move of \"%s\" as %d, expected %d", line, ans.move,
                  me->move);
    if (!tx_ruleset(r->rules)->link_edits) {
        char want[TX_MESSAGE_MAX];
        snprintf(want, sizeof want, "%.20s", n > 1 ? line + message_start : "");
        if (ans.nedits != 0 || strcmp(ans.message, want) != 0)
            case_fail(r, "under pp tx_answer_parse reads \"%s\" as %d edits and message \"%s\"",
                      line, ans.nedits, ans.message);
        return;
    }
    if (ans.nedits != me->nedits || ans.message[0] != '\0')
        case_fail(r, "tx_answer_parse reads %d edits and message \"%s\" from \"%s\", expected %d",
                  ans.nedits, ans.message, line, me->nedits);
    for (int i = 0; i < me->nedits; i++) {
        const struct tx_edit *a = &ans.edits[i], *b = &me->edits[i];
        if (a->kind != b->kind || a->ax != b->ax || a->ay != b->ay || a->bx != b->bx ||
            a->by != b->by)
            case_fail(r, "tx_answer_parse reads edit %s as %c(%d,%d):(%d,%d)", tok[i + 1], a->kind,
                      a->ax, a->ay, a->bx, a->by);
    }
}

static void do_play(struct runner *r, char **tok, int n)
{
    static struct move_edits me;
    const char *name = tok[0];
    int16_t legal[TX_MOVES_MAX];
    int nlegal = tx_game_legal_moves(r->game, legal);
    bool listed = false;
    int before = r->game->nmoves;
    enum tx_illegal why;
    struct tx_edit_fault fault;

    read_move(r, tok, n, &me);
    for (int i = 0; i < nlegal; i++)
        listed |= legal[i] == me.move;
    why = me.nedits ? tx_game_check_edits(r->game, me.move, me.edits, me.nedits, &fault)
                    : tx_game_check(r->game, me.move);
    if (why != TX_LEGAL) {
        char desc[96];
        tx_illegal_describe(r->game, me.move, why, me.edits, &fault, desc, sizeof desc);
        case_fail(r, "play %s: tx_game_check%s says %s (\"%s\")", name, me.nedits ? "_edits" : "",
                  illegal_name(why), desc);
    }
    if (!listed)
        case_fail(r, "play %s: legal by tx_game_check but not in tx_game_legal_moves", name);
    why = me.nedits ? tx_game_play_edits(r->game, me.move, me.edits, me.nedits, &fault)
                    : tx_game_play(r->game, me.move);
    if (why != TX_LEGAL)
        case_fail(r, "play %s: tx_game_play%s says %s", name, me.nedits ? "_edits" : "",
                  illegal_name(why));
    if (r->game->nmoves != before + 1)
        case_fail(r, "play %s: nmoves %d -> %d", name, before, r->game->nmoves);
}

/* "play M [EDIT...] M [EDIT...] ...": each move with the edits after it. */
static void do_plays(struct runner *r, char **tok, int n)
{
    for (int k = 1; k < n;) {
        int end = k + 1;
        while (end < n && is_edit_token(tok[end]))
            end++;
        do_play(r, tok + k, end - k);
        k = end;
    }
}

static enum tx_illegal parse_why(const struct runner *r, const char *s)
{
    static const enum tx_illegal all[] = {
        TX_ILLEGAL_OUT_OF_RANGE,    TX_ILLEGAL_CORNER,       TX_ILLEGAL_OCCUPIED,
        TX_ILLEGAL_OPPONENT_BORDER, TX_ILLEGAL_SWAP,         TX_ILLEGAL_GAME_OVER,
        TX_ILLEGAL_EDITS,           TX_ILLEGAL_EDIT_NO_HOLE, TX_ILLEGAL_EDIT_NOT_KNIGHT,
        TX_ILLEGAL_EDIT_NO_LINK,    TX_ILLEGAL_EDIT_NOT_OWN, TX_ILLEGAL_EDIT_EXISTS,
        TX_ILLEGAL_EDIT_CROSSES,    TX_ILLEGAL_EDIT_NOT_NEW, TX_ILLEGAL_EDIT_ADDED,
        TX_ILLEGAL_EDITS_TOO_MANY,
    };

    for (size_t i = 0; s && i < sizeof all / sizeof all[0]; i++)
        if (strcmp(s, illegal_name(all[i])) == 0)
            return all[i];
    case_fail(r, "data: unknown reason \"%s\"", s ? s : "");
    return TX_LEGAL;
}

/* Cuts the quoted text off the end of line: returns it (without the outer
 * quotes) or NULL when the line has no quote. */
static char *cut_quoted(const struct runner *r, char *line)
{
    char *quote = strchr(line, '"'), *end;

    if (!quote)
        return NULL;
    end = strrchr(quote + 1, '"');
    if (!end)
        case_fail(r, "data: unterminated quote");
    *end = '\0';
    *quote = '\0';
    return quote + 1;
}

/* "illegal M [EDIT...] WHY ["TEXT"]": the quoted text is cut off the line first. */
static void do_illegal(struct runner *r, char *line)
{
    static struct move_edits me;
    char *text = cut_quoted(r, line);
    char *tok[TX_EDITS_READ + 4];
    int n;
    struct tx_game *before = tx_game_dup(r->game);
    enum tx_illegal want, got;
    struct tx_edit_fault fault, fault2;
    char desc[96];

    n = split(line, tok, (int)(sizeof tok / sizeof tok[0]));
    if (n < 3)
        case_fail(r, "data: expected \"illegal MOVE [EDIT...] REASON [\\\"TEXT\\\"]\"");
    read_move(r, tok + 1, n - 2, &me);
    want = parse_why(r, tok[n - 1]);
    if (me.nedits == 0) {
        got = tx_game_check(r->game, me.move);
        if (got != want)
            case_fail(r, "illegal %s: tx_game_check says %s, expected %s", tok[1],
                      illegal_name(got), illegal_name(want));
    }
    got = tx_game_check_edits(r->game, me.move, me.edits, me.nedits, &fault);
    if (got != want)
        case_fail(r, "illegal %s: tx_game_check_edits says %s, expected %s", tok[1],
                  illegal_name(got), illegal_name(want));
    got = me.nedits ? tx_game_play_edits(r->game, me.move, me.edits, me.nedits, &fault2)
                    : tx_game_play(r->game, me.move);
    if (got != want)
        case_fail(r, "illegal %s: tx_game_play%s says %s, expected %s", tok[1],
                  me.nedits ? "_edits" : "", illegal_name(got), illegal_name(want));
    if (memcmp(before, r->game, before->bytes) != 0)
        case_fail(r, "illegal %s: tx_game_play refused the move but changed the game", tok[1]);
    free(before);
    if (me.nedits && (fault.edit != fault2.edit || fault.crossed != fault2.crossed))
        case_fail(r, "illegal %s: check and play name other edits at fault (%d/%d, %d/%d)", tok[1],
                  fault.edit, fault2.edit, fault.crossed, fault2.crossed);
    /* Edits need the fault; the other reasons are worded without it. */
    memset(desc, 0, sizeof desc);
    if (me.nedits)
        tx_illegal_describe(r->game, me.move, want, me.edits, &fault, desc, sizeof desc);
    else
        tx_illegal_describe(r->game, me.move, want, NULL, NULL, desc, sizeof desc);
    if (desc[0] == '\0' || strlen(desc) >= (me.nedits ? sizeof desc - 1 : 64))
        case_fail(r, "illegal %s: tx_illegal_describe wrote \"%s\" (empty or too long)", tok[1],
                  desc);
    if (text && strcmp(text, desc) != 0)
        case_fail(r, "illegal %s: tx_illegal_describe wrote \"%s\", expected \"%s\"", tok[1], desc,
                  text);
}

/* "refused LINE "TEXT"": tx_answer_parse refuses LINE with the words TEXT. */
static void do_refused(struct runner *r, char *line)
{
    static struct tx_answer ans;
    char *text = cut_quoted(r, line);
    char *answer = line + strlen("refused ");
    size_t len = strlen(answer);

    while (len > 0 && answer[len - 1] == ' ')
        len--;
    if (!text || len == 0)
        case_fail(r, "data: expected \"refused LINE \\\"TEXT\\\"\"");
    if (tx_answer_parse(r->geo, r->rules, answer, len, &ans) == 0)
        case_fail(r, "refused: tx_answer_parse accepts \"%.*s\"", (int)len, answer);
    if (strcmp(ans.reason, text) != 0)
        case_fail(r, "refused: tx_answer_parse says \"%s\", expected \"%s\"", ans.reason, text);
}

static void do_links(struct runner *r, char **tok, int n)
{
    static int16_t got[2 * TX_LINKS_MAX];
    char want_text[2048] = "", got_text[2048];
    size_t len = 0;
    int player, count;

    if (n < 3)
        case_fail(r, "data: expected \"links X|O LINK...|none\"");
    player = parse_player(r, tok[1]);
    for (int i = 2; i < n; i++) {
        if (strcmp(tok[i], "none") != 0) {
            char *dash = strchr(tok[i], '-');
            if (!dash)
                case_fail(r, "data: link \"%s\" is not OLDER-NEWER", tok[i]);
        }
        len += (size_t)snprintf(want_text + len, sizeof want_text - len, "%s%s", i > 2 ? " " : "",
                                tok[i]);
        if (len >= sizeof want_text)
            case_fail(r, "data: too many links on one line");
    }
    count = tx_game_links(r->game, player, got);
    format_links(r->geo, got, count, got_text, sizeof got_text);
    if (strcmp(want_text, got_text) != 0)
        case_fail(r, "links %s:\n  expected %s\n  got      %s", tok[1], want_text, got_text);
}

static void do_pegs(struct runner *r, char **tok, int n)
{
    int16_t got[TX_HOLES_MAX];
    char want_text[2048] = "", got_text[2048];
    size_t len = 0;
    int player, count;

    if (n < 3)
        case_fail(r, "data: expected \"pegs X|O HOLE...|none\"");
    player = parse_player(r, tok[1]);
    for (int i = 2; i < n; i++)
        len += (size_t)snprintf(want_text + len, sizeof want_text - len, "%s%s", i > 2 ? " " : "",
                                tok[i]);
    count = tx_game_pegs(r->game, player, got);
    format_holes(r->geo, got, count, got_text, sizeof got_text);
    if (strcmp(want_text, got_text) != 0)
        case_fail(r, "pegs %s:\n  expected %s\n  got      %s", tok[1], want_text, got_text);
}

static void do_result(struct runner *r, char **tok, int n)
{
    const struct tx_game *g = r->game;
    char got[32];

    if (g->status == TX_ONGOING)
        snprintf(got, sizeof got, "ongoing");
    else if (g->status == TX_DRAWN)
        snprintf(got, sizeof got, "draw");
    else if (g->status == TX_WON && (g->winner == 0 || g->winner == 1))
        snprintf(got, sizeof got, "win %c", g->winner == 0 ? 'X' : 'O');
    else
        snprintf(got, sizeof got, "status %d winner %d", g->status, g->winner);
    if (n == 2 && strcmp(tok[1], "ongoing") == 0 && strcmp(got, "ongoing") == 0)
        return;
    if (n == 2 && strcmp(tok[1], "draw") == 0 && strcmp(got, "draw") == 0)
        return;
    if (n == 3 && strcmp(tok[1], "win") == 0 && strlen(got) == 5 && strcmp(got + 4, tok[2]) == 0)
        return;
    case_fail(r, "result: expected %s%s%s, got %s", n > 1 ? tok[1] : "?", n > 2 ? " " : "",
              n > 2 ? tok[2] : "", got);
}

static void do_chain(struct runner *r, char **tok, int n)
{
    int16_t got[TX_HOLES_MAX];
    char want_text[2048] = "", got_text[2048], rev_text[2048];
    size_t len = 0;
    int count = tx_game_winning_chain(r->game, got);

    for (int i = 1; i < n; i++)
        len += (size_t)snprintf(want_text + len, sizeof want_text - len, "%s%s", i > 1 ? " " : "",
                                tok[i]);
    format_holes(r->geo, got, count, got_text, sizeof got_text);
    if (strcmp(want_text, got_text) == 0)
        return;
    /* The header does not say which border the chain starts from. */
    for (int i = 0; i < count / 2; i++) {
        int16_t t = got[i];
        got[i] = got[count - 1 - i];
        got[count - 1 - i] = t;
    }
    format_holes(r->geo, got, count, rev_text, sizeof rev_text);
    if (strcmp(want_text, rev_text) != 0)
        case_fail(r, "chain:\n  expected %s (either way)\n  got      %s", want_text, got_text);
}

/* "board": the N+1 lines after it. Returns the index of its last line. */
static int do_board(struct runner *r, int at)
{
    static char want[TEXT_MAX], got[TEXT_MAX], a[TEXT_MAX], b[TEXT_MAX];
    size_t len = 0;
    int last = at + r->geo->height + 1;

    if (last >= r->c->nlines)
        case_fail(r, "data: board needs %d lines after \"board\"", r->geo->height + 1);
    for (int i = at + 1; i <= last; i++)
        len += (size_t)snprintf(want + len, sizeof want - len, "%s\n", r->c->lines[i]);
    render_board(r->game, got, sizeof got);
    normalise(want, a, sizeof a);
    normalise(got, b, sizeof b);
    if (strcmp(a, b) != 0)
        case_fail(r, "board differs\nexpected:\n%sgot:\n%s", a, b);
    return last;
}

/* "input": the lines up to "end". Returns the index of the "end" line. */
static int do_input(struct runner *r, int at)
{
    static char want[TX_INPUT_MAX], got[TX_INPUT_MAX];
    size_t len = 0;
    int i, n;

    for (i = at + 1; i < r->c->nlines && strcmp(r->c->lines[i], "end") != 0; i++)
        len += (size_t)snprintf(want + len, sizeof want - len, "%s\n", r->c->lines[i]);
    if (i >= r->c->nlines)
        case_fail(r, "data: input without a line \"end\"");
    n = tx_input_write(r->game, r->game->to_move, false, got, sizeof got);
    if (n < 0)
        case_fail(r, "input: tx_input_write returned %d", n);
    if ((size_t)n != strlen(got) || strcmp(want, got) != 0)
        case_fail(r, "input differs\nexpected:\n%sgot (%d bytes):\n%s", want, n, got);
    return i;
}

/* "position X|O" and "reject X|O": the lines up to "end" are a turn input
 * for that player. position: tx_input_parse and tx_game_from_input accept
 * it, and the rebuilt game replaces the case's game. reject: one of them
 * refuses it. Returns the index of the "end" line. */
static int do_from_input(struct runner *r, int at, const char *who, bool accept)
{
    static char text[TX_INPUT_MAX];
    static struct tx_input in;
    struct tx_game *g = tx_game_new(r->geo, TX_RULES_PP);
    char err[128] = "";
    size_t len = 0;
    int i, rc, me = parse_player(r, who);

    for (i = at + 1; i < r->c->nlines && strcmp(r->c->lines[i], "end") != 0; i++)
        len += (size_t)snprintf(text + len, sizeof text - len, "%s\n", r->c->lines[i]);
    if (i >= r->c->nlines)
        case_fail(r, "data: input without a line \"end\"");
    rc = tx_input_parse(r->geo, text, len, &in, err, sizeof err);
    if (rc == 0)
        rc = tx_game_from_input(g, r->geo, (enum tx_rules)r->game->rules, &in, me);
    else if (accept)
        case_fail(r, "position: tx_input_parse refused it: %s", err);
    if (accept && rc != 0)
        case_fail(r, "position: tx_game_from_input returned %d", rc);
    if (!accept && rc == 0)
        case_fail(r, "reject: tx_input_parse and tx_game_from_input both accepted this position");
    if (!accept && rc != -EINVAL)
        case_fail(r, "reject: refused with %d, expected -EINVAL (%d)", rc, -EINVAL);
    if (accept)
        tx_game_copy(r->game, g);
    free(g);
    return i;
}

/* Invariants every case ends with (see the top of the file). */
static void check_links_agree(struct runner *r, const struct tx_game *g, const char *what)
{
    static int16_t l[2][2 * TX_LINKS_MAX];
    const struct tx_geometry *geo = g->geo;
    /* listed[a * 8 + k]: the link from a along knight step k is listed */
    uint8_t *listed = tx_xcalloc((size_t)geo->holes * 8, 1);
    static const int step[8][2] = {{1, 2},   {2, 1},   {2, -1}, {1, -2},
                                   {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
    int n[2];

    for (int p = 0; p < 2; p++) {
        n[p] = tx_game_links(g, p, l[p]);
        for (int i = 0; i < n[p]; i++) {
            int a = l[p][2 * i], b = l[p][2 * i + 1];
            char an[16], bn[16];
            hole_name(geo, a, an, sizeof an);
            hole_name(geo, b, bn, sizeof bn);
            if (a < 0 || b < 0 || a >= geo->holes || b >= geo->holes)
                case_fail(r, "%s: link %s-%s of %c is off the board", what, an, bn, "XO"[p]);
            if (tx_game_cell(g, a) != p + 1 || tx_game_cell(g, b) != p + 1)
                case_fail(r, "%s: link %s-%s of %c joins pegs that are not %c's", what, an, bn,
                          "XO"[p], "XO"[p]);
            for (int k = 0; k < 8; k++) {
                int dx = step[k][0], dy = step[k][1];
                if (a % geo->width + dx == b % geo->width && a / geo->width + dy == b / geo->width)
                    listed[a * 8 + k] = 1;
                if (b % geo->width + dx == a % geo->width && b / geo->width + dy == a / geo->width)
                    listed[b * 8 + k] = 1;
            }
        }
    }
    for (int a = 0; a < geo->holes; a++) {
        int ax = a % geo->width, ay = a / geo->width;
        for (int k = 0; k < 8; k++) {
            int bx = ax + step[k][0], by = ay + step[k][1];
            int b = by * geo->width + bx;
            bool want, got, bit;
            int id;
            char an[16], bn[16];
            if (bx < 0 || by < 0 || bx >= geo->width || by >= geo->height)
                continue;
            want = listed[a * 8 + k];
            got = tx_game_linked(g, a, b);
            hole_name(geo, a, an, sizeof an);
            hole_name(geo, b, bn, sizeof bn);
            if (want != got)
                case_fail(r, "%s: tx_game_linked(%s, %s) is %d but the link lists say %d", what, an,
                          bn, got, want);
            id = tx_geometry_link(geo, a, b);
            bit = id >= 0 && tx_game_has_link(g, id);
            if (bit != want)
                case_fail(r, "%s: tx_game_has_link(link %s-%s = %d) is %d, the link lists say %d",
                          what, an, bn, id, bit, want);
        }
    }
    free(listed);
}

static void check_chain(struct runner *r)
{
    const struct tx_game *g = r->game;
    const struct tx_geometry *geo = g->geo;
    int16_t chain[TX_HOLES_MAX];
    int n = tx_game_winning_chain(g, chain);

    if (g->status != TX_WON) {
        if (n != 0)
            case_fail(r, "tx_game_winning_chain returned %d for a game that is not won", n);
        return;
    }
    if (n < 2)
        case_fail(r, "won, but tx_game_winning_chain returned %d", n);
    for (int i = 0; i < n; i++)
        if (chain[i] < 0 || chain[i] >= geo->holes || tx_game_cell(g, chain[i]) != g->winner + 1)
            case_fail(r, "winning chain element %d is not a peg of the winner", i);
    for (int i = 0; i + 1 < n; i++)
        if (!tx_game_linked(g, chain[i], chain[i + 1]))
            case_fail(r, "winning chain elements %d and %d are not linked", i, i + 1);
    {
        int first = g->winner == 0 ? chain[0] / geo->width : chain[0] % geo->width;
        int last = g->winner == 0 ? chain[n - 1] / geo->width : chain[n - 1] % geo->width;
        int end = (g->winner == 0 ? geo->height : geo->width) - 1;
        if (!((first == 0 && last == end) || (first == end && last == 0)))
            case_fail(r, "winning chain does not join the winner's border lines");
    }
}

static void check_legal_list(struct runner *r)
{
    const struct tx_game *g = r->game;
    int16_t list[TX_MOVES_MAX];
    int n = tx_game_legal_moves(g, list);
    int want = tx_game_check(g, TX_MOVE_SWAP) == TX_LEGAL;

    for (int h = 0; h < g->geo->holes; h++)
        want += tx_game_check(g, h) == TX_LEGAL;
    if (n != want)
        case_fail(r, "tx_game_legal_moves gives %d moves, tx_game_check accepts %d", n, want);
    for (int i = 0; i < n; i++)
        if (tx_game_check(g, list[i]) != TX_LEGAL)
            case_fail(r, "tx_game_legal_moves lists %d, which tx_game_check refuses", list[i]);
    if (g->status != TX_ONGOING && n != 0)
        case_fail(r, "the game is over but tx_game_legal_moves gives %d moves", n);
}

/* write -> parse -> from_input must give back the same position. */
static void check_input_round_trip(struct runner *r)
{
    static char text[TX_INPUT_MAX], text2[TX_INPUT_MAX];
    static struct tx_input in;
    static int16_t a[2 * TX_LINKS_MAX], b[2 * TX_LINKS_MAX];
    const struct tx_game *g = r->game;
    struct tx_game *copy = tx_game_new(g->geo, TX_RULES_PP);
    char err[128] = "";
    int len, rc, me = g->to_move;

    if (g->status != TX_ONGOING) {
        free(copy);
        return;
    }
    len = tx_input_write(g, me, false, text, sizeof text);
    if (len < 0)
        case_fail(r, "round trip: tx_input_write returned %d", len);
    rc = tx_input_parse(g->geo, text, (size_t)len, &in, err, sizeof err);
    if (rc != 0)
        case_fail(r, "round trip: tx_input_parse refused the writer's text (%s):\n%s", err, text);
    rc = tx_game_from_input(copy, g->geo, (enum tx_rules)g->rules, &in, me);
    if (rc != 0)
        case_fail(r, "round trip: tx_game_from_input returned %d for:\n%s", rc, text);
    for (int p = 0; p < 2; p++) {
        int na = tx_game_pegs(g, p, a), nb = tx_game_pegs(copy, p, b);
        if (na != nb || memcmp(a, b, sizeof a[0] * (size_t)na) != 0)
            case_fail(r, "round trip: pegs of %c differ", "XO"[p]);
        na = tx_game_links(g, p, a);
        nb = tx_game_links(copy, p, b);
        if (na != nb || memcmp(a, b, sizeof a[0] * 2 * (size_t)na) != 0)
            case_fail(r, "round trip: links of %c differ (%d vs %d)", "XO"[p], na, nb);
    }
    if (copy->to_move != g->to_move || copy->status != g->status || copy->swapped != g->swapped ||
        copy->nmoves != g->nmoves)
        case_fail(r, "round trip: to_move/status/swapped/nmoves %d/%d/%d/%d, expected %d/%d/%d/%d",
                  copy->to_move, copy->status, copy->swapped, copy->nmoves, g->to_move, g->status,
                  g->swapped, g->nmoves);
    {
        int na = tx_game_legal_moves(g, a), nb = tx_game_legal_moves(copy, b);
        if (na != nb || memcmp(a, b, sizeof a[0] * (size_t)na) != 0)
            case_fail(r, "round trip: legal moves differ (%d vs %d)", na, nb);
    }
    check_links_agree(r, copy, "round trip");
    len = tx_input_write(copy, me, false, text2, sizeof text2);
    if (len < 0 || strcmp(text, text2) != 0)
        case_fail(r, "round trip: rebuilt game writes another input:\n%s\nversus\n%s", text, text2);
    free(copy);
}

/* No two links cross where the rules forbid it: any two under classic, two
 * of different colours under pp. Tested with the geometry of the segments,
 * not with geometry.h's crossing lists. */
static long side(int ax, int ay, int bx, int by, int cx, int cy)
{
    long v = (long)(bx - ax) * (cy - ay) - (long)(by - ay) * (cx - ax);
    return (v > 0) - (v < 0);
}

static void check_no_crossing(struct runner *r)
{
    static int16_t l[2][2 * TX_LINKS_MAX];
    const struct tx_geometry *geo = r->geo;
    int n[2], w = geo->width;
    bool own_block = r->rules == TX_RULES_CLASSIC;

    for (int p = 0; p < 2; p++)
        n[p] = tx_game_links(r->game, p, l[p]);
    for (int p = 0; p < 2; p++)
        for (int i = 0; i < n[p]; i++)
            for (int q = p; q < 2; q++)
                for (int j = q == p ? i + 1 : 0; j < n[q]; j++) {
                    int a = l[p][2 * i], b = l[p][2 * i + 1], c = l[q][2 * j], d = l[q][2 * j + 1];
                    int ax = a % w, ay = a / w, bx = b % w, by = b / w;
                    int cx = c % w, cy = c / w, dx = d % w, dy = d / w;
                    char an[16], bn[16], cn[16], dn[16];
                    if (a == c || a == d || b == c || b == d || (p == q && !own_block))
                        continue;
                    if (side(ax, ay, bx, by, cx, cy) * side(ax, ay, bx, by, dx, dy) >= 0 ||
                        side(cx, cy, dx, dy, ax, ay) * side(cx, cy, dx, dy, bx, by) >= 0)
                        continue;
                    hole_name(geo, a, an, sizeof an);
                    hole_name(geo, b, bn, sizeof bn);
                    hole_name(geo, c, cn, sizeof cn);
                    hole_name(geo, d, dn, sizeof dn);
                    case_fail(r, "invariant: %c's link %s-%s crosses %c's link %s-%s", "XO"[p], an,
                              bn, "XO"[q], cn, dn);
                }
}

/* The commands that choose the game ("size", "board WxH", "rules") come
 * first, after comments if any. Returns the index of the first other line. */
static int first_command(struct runner *r, int *width, int *height)
{
    bool sized = false, ruled = false;
    int i = 1;

    for (; i < r->c->nlines; i++) {
        const char *l = r->c->lines[i];
        int w, h, used = 0;

        r->line = r->c->first_line + i;
        if (l[0] == '\0' || l[0] == '#')
            continue;
        if (strncmp(l, "size ", 5) == 0 && sscanf(l + 5, "%d%n", &w, &used) == 1 && !l[5 + used]) {
            if (sized)
                case_fail(r, "data: the board is given twice");
            *width = *height = w;
            sized = true;
        } else if (strncmp(l, "board ", 6) == 0 && sscanf(l + 6, "%dx%d%n", &w, &h, &used) == 2 &&
                   !l[6 + used]) {
            if (sized)
                case_fail(r, "data: the board is given twice");
            *width = w;
            *height = h;
            sized = true;
        } else if (strncmp(l, "rules ", 6) == 0) {
            int rules = tx_rules_from_name(l + 6);
            if (ruled || rules < 0)
                case_fail(r, "data: bad or second \"%s\"", l);
            if (strcmp(tx_ruleset((enum tx_rules)rules)->name, l + 6) != 0)
                case_fail(r, "tx_ruleset(tx_rules_from_name(\"%s\")) is another rule set", l + 6);
            r->rules = (enum tx_rules)rules;
            ruled = true;
        } else {
            break;
        }
    }
    r->line = r->c->first_line;
    return i;
}

START_TEST(rules_case)
{
    const struct rules_case *c = &cases[_i];
    struct runner r = {.c = c, .line = c->first_line, .rules = TX_RULES_PP};
    int width = TX_SIZE_DEFAULT, height = TX_SIZE_DEFAULT;
    int i = first_command(&r, &width, &height);
    char *tok[TX_HOLES_MAX + 2];
    static char line[LINE_MAX_LEN];

    if (tx_geometry_new(width, height, &r.geo) != 0)
        case_fail(&r, "tx_geometry_new(%d, %d) failed", width, height);
    /* tx_game_init need not clear the whole struct; zeroing it first lets
     * do_illegal compare every byte without reading uninitialised ones. */
    r.game = tx_xcalloc(1, tx_game_size(r.geo));
    tx_game_init(r.game, r.geo, r.rules);
    if (r.game->rules != (int8_t)r.rules ||
        r.game->own_links_block != tx_ruleset(r.rules)->own_links_block)
        case_fail(&r, "tx_game_init did not take the rule set %s", tx_ruleset(r.rules)->name);
    for (; i < c->nlines; i++) {
        int n;

        r.line = c->first_line + i;
        if (strlen(c->lines[i]) >= sizeof line)
            case_fail(&r, "data: line longer than %zu bytes", sizeof line - 1);
        snprintf(line, sizeof line, "%s", c->lines[i]);
        if (line[0] == '\0' || line[0] == '#')
            continue;
        if (strncmp(line, "illegal ", 8) == 0) {
            do_illegal(&r, line);
            continue;
        }
        if (strncmp(line, "refused ", 8) == 0) {
            do_refused(&r, line);
            continue;
        }
        n = split(line, tok, (int)(sizeof tok / sizeof tok[0]));
        if (n == 0)
            continue;
        if (strcmp(tok[0], "play") == 0) {
            do_plays(&r, tok, n);
        } else if (strcmp(tok[0], "legal") == 0) {
            for (int k = 1; k < n; k++) {
                enum tx_illegal why = tx_game_check(r.game, parse_move(&r, tok[k]));
                if (why != TX_LEGAL)
                    case_fail(&r, "legal %s: tx_game_check says %s", tok[k], illegal_name(why));
            }
        } else if (strcmp(tok[0], "links") == 0) {
            do_links(&r, tok, n);
        } else if (strcmp(tok[0], "pegs") == 0) {
            do_pegs(&r, tok, n);
        } else if (strcmp(tok[0], "result") == 0) {
            do_result(&r, tok, n);
        } else if (strcmp(tok[0], "tomove") == 0 && n == 2) {
            if (r.game->to_move != parse_player(&r, tok[1]))
                case_fail(&r, "tomove: expected %s, got %d", tok[1], r.game->to_move);
        } else if (strcmp(tok[0], "nlegal") == 0 && n == 2) {
            int16_t list[TX_MOVES_MAX];
            int got = tx_game_legal_moves(r.game, list);
            if (got != atoi(tok[1]))
                case_fail(&r, "nlegal: expected %s, got %d", tok[1], got);
        } else if (strcmp(tok[0], "chain") == 0) {
            do_chain(&r, tok, n);
        } else if (strcmp(tok[0], "board") == 0 && n == 1) {
            i = do_board(&r, i);
        } else if (strcmp(tok[0], "input") == 0 && n == 1) {
            i = do_input(&r, i);
        } else if ((strcmp(tok[0], "position") == 0 || strcmp(tok[0], "reject") == 0) && n == 2) {
            i = do_from_input(&r, i, tok[1], tok[0][0] == 'p');
        } else {
            case_fail(&r, "data: unknown command \"%s\"", c->lines[i]);
        }
    }
    r.line = c->first_line;
    check_links_agree(&r, r.game, "invariant");
    check_no_crossing(&r);
    check_chain(&r);
    check_legal_list(&r);
    check_input_round_trip(&r);
    free(r.game);
    tx_geometry_free(r.geo);
}
END_TEST

/* Loading: every *.txt of the directory, in name order, split into cases. */

static int name_order(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "re");
    char *buf;
    long len;

    if (!f)
        return NULL;
    if (fseek(f, 0, SEEK_END) != 0 || (len = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
        fclose(f);
        return NULL;
    }
    buf = malloc((size_t)len + 1);
    if (!buf || fread(buf, 1, (size_t)len, f) != (size_t)len) {
        free(buf);
        fclose(f);
        return NULL;
    }
    buf[len] = '\0';
    fclose(f);
    return buf;
}

/* Splits text into lines in place (dropping "\r" and trailing blanks) and
 * appends one rules_case per "case" line. Lines before the first case must
 * be comments or blank. Returns 0 or -EINVAL. */
static int add_cases(const char *file, char *text)
{
    int lineno = 0;
    char *p = text;
    struct rules_case *cur = NULL;

    while (*p) {
        char *line = p, *end = strchr(p, '\n');
        size_t len;

        if (end) {
            *end = '\0';
            p = end + 1;
        } else {
            p += strlen(p);
        }
        lineno++;
        len = strlen(line);
        while (len > 0 && (line[len - 1] == '\r' || line[len - 1] == ' ' || line[len - 1] == '\t'))
            line[--len] = '\0';
        if (strncmp(line, "case ", 5) == 0) {
            cases = realloc(cases, sizeof cases[0] * (size_t)(ncases + 1));
            if (!cases)
                abort();
            cur = &cases[ncases++];
            memset(cur, 0, sizeof *cur);
            cur->file = file;
            cur->first_line = lineno;
            snprintf(cur->name, sizeof cur->name, "%s", line + 5);
        } else if (!cur) {
            if (line[0] != '\0' && line[0] != '#') {
                fprintf(stderr, "%s:%d: expected \"case NAME\" before \"%s\"\n", file, lineno,
                        line);
                return -EINVAL;
            }
            continue;
        }
        /* Every line of a case is kept, blank ones too, so that line
         * numbers stay right. */
        cur->lines = realloc(cur->lines, sizeof cur->lines[0] * (size_t)(cur->nlines + 1));
        if (!cur->lines)
            abort();
        cur->lines[cur->nlines++] = line;
    }
    return 0;
}

static int load_cases(void)
{
    const char *src = getenv("TX_SOURCE_DIR");
    char dir[4096];
    DIR *d;
    struct dirent *e;

    snprintf(dir, sizeof dir, "%s/tests/rules", src ? src : ".");
    d = opendir(dir);
    if (!d) {
        fprintf(stderr, "test-rules: cannot open %s (%s); set TX_SOURCE_DIR to the source tree\n",
                dir, strerror(errno));
        return -ENOENT;
    }
    while ((e = readdir(d)) != NULL && nfiles < FILES_MAX) {
        size_t len = strlen(e->d_name);
        if (len > 4 && strcmp(e->d_name + len - 4, ".txt") == 0)
            file_names[nfiles++] = strdup(e->d_name);
    }
    closedir(d);
    qsort(file_names, (size_t)nfiles, sizeof file_names[0], name_order);
    for (int i = 0; i < nfiles; i++) {
        char path[8192];

        snprintf(path, sizeof path, "%s/%s", dir, file_names[i]);
        file_texts[i] = read_file(path);
        if (!file_texts[i]) {
            fprintf(stderr, "test-rules: cannot read %s\n", path);
            return -EIO;
        }
        if (add_cases(file_names[i], file_texts[i]) != 0)
            return -EINVAL;
    }
    return 0;
}

static void free_cases(void)
{
    for (int i = 0; i < ncases; i++)
        free(cases[i].lines);
    free(cases);
    for (int i = 0; i < nfiles; i++) {
        free(file_names[i]);
        free(file_texts[i]);
    }
}

int main(void)
{
    Suite *s;
    TCase *tc;
    SRunner *sr;
    int failed;

    if (load_cases() != 0 || ncases < 1) {
        fprintf(stderr, "test-rules: no cases loaded\n");
        free_cases();
        return 2;
    }
    fprintf(stderr, "test-rules: %d cases\n", ncases);
    s = suite_create("rules");
    tc = tcase_create("cases");
    tcase_add_loop_test(tc, rules_case, 0, ncases);
    tcase_set_timeout(tc, 30);
    suite_add_tcase(s, tc);
    sr = srunner_create(s);
    srunner_run_all(sr, CK_ENV);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    free_cases();
    return failed == 0 ? 0 : 1;
}
