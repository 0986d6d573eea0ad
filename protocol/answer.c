/* answer.c - the parser for the one line a bot prints per turn.
 *
 * The line is split at the first space: the token before it is the move,
 * what follows the run of spaces is the message. Under rules with link
 * edits, tokens that have an edit's shape are taken off the front of the
 * message first (RULES.md "Link edits"), whether or not they name holes of
 * this board (the game refuses those, naming the edit): a word of a message that happens to
 * look like an edit would be read as one, which is why the shape is narrow
 * (a sign, two hole names, a colon) and a message that starts with such a
 * word is the bot's own ambiguity. The token must be exactly
 * "SWAP" or a hole name; anything else is "not a move" and the reason
 * quotes it with control and invalid bytes escaped and its length bounded,
 * because the reason ends up in records and terminals. Legality in the
 * position is left to tx_game_check.
 */
#include "answer.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "game.h"
#include "hole.h"
#include "text.h"

/* The reasons' words, written and read back (tx_answer_error_of) here only. */
#define TOO_LONG "line longer than %d bytes"
#define EMPTY "empty line"
#define OUT_OF_RANGE "out of range "
#define NOT_A_MOVE "not a move: \""

/* Appends s (len bytes) to dst (which holds a NUL-terminated string, cap
 * bytes in all) as readable text: printable ASCII as is, '"' and '\\'
 * escaped, other ASCII controls and bytes of invalid UTF-8 or C1 controls
 * as \xNN, other valid UTF-8 as is. At most TX_TOKEN_SHOWN bytes are added
 * for s, then "..." when s was longer. */
static void append_escaped(char *dst, size_t cap, const char *s, size_t len)
{
    size_t out = strlen(dst);
    size_t limit = out + TX_TOKEN_SHOWN;
    const unsigned char *u = (const unsigned char *)s;
    size_t i = 0;

    while (i < len) {
        char piece[8];
        size_t n = 1, plen;
        unsigned char c = u[i];
        if (c >= 0x20 && c < 0x7F && c != '"' && c != '\\') {
            piece[0] = (char)c;
            plen = 1;
        } else if (c == '"' || c == '\\') {
            piece[0] = '\\';
            piece[1] = (char)c;
            plen = 2;
        } else if (c >= 0x80 && c != 0xC2) {
            /* Keep a valid multi-byte sequence: sanitize one code point and
             * see whether it came through unchanged. */
            char one[8];
            tx_text_sanitize(one, sizeof(one), s + i, len - i, 1);
            plen = strlen(one);
            if (plen <= len - i && memcmp(one, s + i, plen) == 0) {
                memcpy(piece, one, plen);
                n = plen;
            } else {
                plen = (size_t)snprintf(piece, sizeof(piece), "\\x%02X", c);
            }
        } else if (c == 0xC2 && i + 1 < len && u[i + 1] >= 0xA0 && u[i + 1] <= 0xBF) {
            memcpy(piece, s + i, 2); /* U+00A0..U+00BF; U+0080..U+009F are C1 controls */
            n = plen = 2;
        } else {
            plen = (size_t)snprintf(piece, sizeof(piece), "\\x%02X", c);
        }
        if (out + plen > limit || out + plen + 1 > cap)
            break;
        memcpy(dst + out, piece, plen);
        out += plen;
        i += n;
    }
    dst[out] = '\0';
    if (i < len && out + 4 <= cap) {
        memcpy(dst + out, "...", 4);
    }
}

bool tx_edit_parse(const char *s, size_t len, struct tx_edit *ret)
{
    const char *colon = len > 1 ? memchr(s + 1, ':', len - 1) : NULL;
    int ax, ay, bx, by;
    if (len < 6 || (s[0] != '-' && s[0] != '+' && s[0] != '~') || !colon ||
        !tx_hole_coords(s + 1, (size_t)(colon - s - 1), &ax, &ay) ||
        !tx_hole_coords(colon + 1, len - (size_t)(colon + 1 - s), &bx, &by))
        return false;
    *ret = (struct tx_edit){s[0], (int16_t)ax, (int16_t)ay, (int16_t)bx, (int16_t)by};
    return true;
}

/* The end of the token that starts at `at` (at the next space or the end). */
static size_t token_end_at(const char *line, size_t len, size_t at)
{
    while (at < len && line[at] != ' ')
        at++;
    return at;
}

static size_t skip_spaces(const char *line, size_t len, size_t at)
{
    while (at < len && line[at] == ' ')
        at++;
    return at;
}

/* Takes the edit tokens that follow the move off the front of the message
 * (and, in Double TwixT, the privilege token): *start is where the message
 * starts (after the move's run of spaces), and moves on past each taken
 * token and its spaces. */
static void take_edits(const char *line, size_t len, size_t *start, bool edits, bool privilege,
                       struct tx_answer *out)
{
    size_t at = *start;
    while (at < len) {
        size_t end = token_end_at(line, len, at);
        if (privilege && !out->privilege && end - at == strlen(TX_ANSWER_PRIVILEGE) &&
            !memcmp(line + at, TX_ANSWER_PRIVILEGE, end - at))
            out->privilege = true;
        else if (!edits || out->nedits == TX_EDITS_READ ||
                 !tx_edit_parse(line + at, end - at, &out->edits[out->nedits]))
            break;
        else
            out->nedits++;
        at = skip_spaces(line, len, end);
    }
    *start = at;
}

/* "CUT R1 R2 B1" or "CHOOSE 1|2" (the cut opening): the words after the
 * first one, as many as the answer takes; *end moves past them. Holes off
 * the board are -1 (the game refuses them, naming them). Returns 0, or
 * -EINVAL when a word is missing or is not what it must be. */
static int cut_words(const struct tx_geometry *geo, const char *line, size_t len, size_t *end,
                     struct tx_answer *out)
{
    bool cut = out->move == TX_MOVE_CUT;
    size_t at = *end;
    for (int i = 0; i < (cut ? 3 : 1); i++) {
        size_t from = skip_spaces(line, len, at);
        at = token_end_at(line, len, from);
        *end = at; /* a refused answer is quoted up to here */
        if (from == at)
            return -EINVAL;
        if (!cut) {
            if (at - from != 1 || (line[from] != '1' && line[from] != '2'))
                return -EINVAL;
            out->move = line[from] == '1' ? TX_MOVE_CHOOSE_RED : TX_MOVE_CHOOSE_BLACK;
            continue;
        }
        int hole;
        switch (tx_hole_parse(geo, line + from, at - from, &hole)) {
        case TX_HOLE_OK:
            out->cut[i] = hole;
            break;
        case TX_HOLE_OUT_OF_RANGE:
            out->cut[i] = -1;
            break;
        default:
            return -EINVAL;
        }
    }
    return 0;
}

int tx_answer_parse(const struct tx_geometry *geo, enum tx_rules rules, const char *line,
                    size_t len, struct tx_answer *out)
{
    struct tx_variant v = {.rules = rules, .width = geo->width, .height = geo->height};
    return tx_answer_parse_variant(geo, &v, line, len, out);
}

int tx_answer_parse_variant(const struct tx_geometry *geo, const struct tx_variant *v,
                            const char *line, size_t len, struct tx_answer *out)
{
    out->move = -1;
    out->nedits = 0;
    out->cut[0] = out->cut[1] = out->cut[2] = -1;
    out->privilege = false;
    out->message[0] = '\0';
    out->message_cut = false;
    out->token[0] = '\0';
    out->reason[0] = '\0';
    out->error = TX_ANSWER_OK;

    if (len > TX_ANSWER_LINE_MAX)
        return tx_answer_refuse_too_long(out);
    if (len > 0 && line[len - 1] == '\r')
        len--;
    if (len == 0) {
        out->error = TX_ANSWER_EMPTY;
        snprintf(out->reason, sizeof(out->reason), EMPTY);
        return -EINVAL;
    }

    /* The token ends at the first space after its first non-space byte, so
     * that a leading space is shown with the word it precedes. In the cut
     * opening, CUT and CHOOSE take their words with them into the token. */
    size_t token_end = token_end_at(line, len, skip_spaces(line, len, 0));
    bool words = false;
    if (v->opening == TX_OPENING_CUT && token_end == 3 && !memcmp(line, "CUT", 3))
        out->move = TX_MOVE_CUT;
    else if (v->opening == TX_OPENING_CUT && token_end == 6 && !memcmp(line, "CHOOSE", 6))
        out->move = TX_MOVE_CHOOSE_RED;
    if (out->move != -1)
        words = cut_words(geo, line, len, &token_end, out) == 0;
    size_t message_start = skip_spaces(line, len, token_end);
    take_edits(line, len, &message_start,
               tx_ruleset(v->rules)->link_edits || out->move == TX_MOVE_CUT, v->teams, out);
    out->message_cut = tx_text_sanitize(out->message, sizeof(out->message), line + message_start,
                                        len - message_start, TX_MESSAGE_CHARS);
    if (tx_text_sanitize(out->token, TX_TOKEN_SHOWN + 1, line, token_end, SIZE_MAX))
        strcat(out->token, "...");

    int hole;
    enum tx_hole_parse_result parsed = tx_hole_parse(geo, line, token_end, &hole);
    if (out->move != -1) {
        hole = out->move;
        parsed = words ? TX_HOLE_OK : TX_HOLE_MALFORMED;
    } else if (token_end == 4 && memcmp(line, "SWAP", 4) == 0) {
        hole = TX_MOVE_SWAP;
        parsed = TX_HOLE_OK;
    }
    switch (parsed) {
    case TX_HOLE_OK:
        out->move = hole;
        return 0;
    case TX_HOLE_OUT_OF_RANGE:
        out->error = TX_ANSWER_OUT_OF_RANGE;
        strcpy(out->reason, OUT_OF_RANGE);
        append_escaped(out->reason, sizeof(out->reason), line, token_end);
        return -EINVAL;
    case TX_HOLE_MALFORMED:
    default:
        out->move = -1;
        out->error = TX_ANSWER_NOT_A_MOVE;
        strcpy(out->reason, NOT_A_MOVE);
        append_escaped(out->reason, sizeof(out->reason), line, token_end);
        strcat(out->reason, "\"");
        return -EINVAL;
    }
}

void tx_answer_move(const struct tx_answer *a, struct tx_move *m)
{
    *m = (struct tx_move){.move = a->move,
                          .cut = {a->cut[0], a->cut[1], a->cut[2]},
                          .privilege = a->privilege,
                          .nedits = a->nedits,
                          .edits = a->edits};
}

int tx_answer_refuse_too_long(struct tx_answer *out)
{
    out->move = -1;
    out->error = TX_ANSWER_TOO_LONG;
    snprintf(out->reason, sizeof(out->reason), TOO_LONG, TX_ANSWER_LINE_MAX);
    return -EINVAL;
}

enum tx_answer_error tx_answer_error_of(const char *reason)
{
    char too_long[64];
    snprintf(too_long, sizeof too_long, TOO_LONG, TX_ANSWER_LINE_MAX);
    if (!strcmp(reason, too_long))
        return TX_ANSWER_TOO_LONG;
    if (!strcmp(reason, EMPTY))
        return TX_ANSWER_EMPTY;
    if (!strncmp(reason, OUT_OF_RANGE, strlen(OUT_OF_RANGE)))
        return TX_ANSWER_OUT_OF_RANGE;
    size_t n = strlen(reason);
    if (!strncmp(reason, NOT_A_MOVE, strlen(NOT_A_MOVE)) && n > strlen(NOT_A_MOVE) &&
        reason[n - 1] == '"')
        return TX_ANSWER_NOT_A_MOVE;
    return TX_ANSWER_OK;
}
