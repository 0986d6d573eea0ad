/* verify.c - replays a game record through libtwixt and checks every claim.
 *
 * The referee made the record by playing the moves with libtwixt, so a
 * faithful record replays to exactly the result, detail and links it states.
 * Anything else (a hand edit, a truncated line, a record from another
 * version of the rules) shows up as the first entry where the replay and the
 * record part ways. Players are named as RULES.md does: "player 1" is
 * players[0], the one that received FIRST.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "answer.h"
#include "bot-limits.h"
#include "hole.h"
#include "input.h"
#include "text.h"
#include "verdict.h"
#include "verify.h"

const struct tx_geometry *tx_verify_geometry(struct tx_verify_geometries *cache, int width,
                                             int height)
{
    for (int i = 0; i < cache->n; i++)
        if (cache->list[i]->width == width && cache->list[i]->height == height)
            return cache->list[i];
    struct tx_geometry *geo;
    if (tx_geometry_new(width, height, &geo) < 0)
        return NULL;
    cache->list = tx_xrealloc(cache->list, (size_t)(cache->n + 1) * sizeof *cache->list);
    cache->list[cache->n++] = geo;
    return geo;
}

void tx_verify_geometries_free(struct tx_verify_geometries *cache)
{
    for (int i = 0; i < cache->n; i++)
        tx_geometry_free(cache->list[i]);
    free(cache->list);
    cache->list = NULL;
    cache->n = 0;
}

/* The link edits of entry m, parsed into out (room for TX_EDITS_READ);
 * returns how many, or -1 when one is not an edit (the loader refuses
 * that). */
static int entry_edits(const struct tx_record_move *m, struct tx_edit *out)
{
    if (m->nedits > TX_EDITS_READ)
        return -1;
    for (int i = 0; i < m->nedits; i++)
        if (!tx_edit_parse(m->edits[i], strlen(m->edits[i]), &out[i]))
            return -1;
    return m->nedits;
}

/* The answer entry m records, as a move to play (RULES.md): its move (a
 * hole, SWAP, or in the cut opening "CUT R1 R2 B1" and "CHOOSE n", read by
 * the answer parser of r's variant), its edits (parsed into edits, room
 * for TX_EDITS_READ) and privilege. Returns 0, or -1 when the entry holds
 * no move (a rejected token, no answer) or edits that are not edits. */
static int entry_move(const struct tx_geometry *geo, const struct tx_record *r,
                      const struct tx_record_move *m, struct tx_edit *edits, struct tx_move *out)
{
    struct tx_variant v = tx_record_variant(r);
    int nedits = entry_edits(m, edits);
    *out = (struct tx_move){.move = tx_verify_parse_move(geo, m->move)};
    if (out->move == -1 && m->move && v.opening == TX_OPENING_CUT) {
        struct tx_answer *a = tx_xmalloc(sizeof *a);
        if (tx_answer_parse_variant(geo, &v, m->move, strlen(m->move), a) == 0 &&
            (a->move == TX_MOVE_CUT || a->move == TX_MOVE_CHOOSE_RED ||
             a->move == TX_MOVE_CHOOSE_BLACK) &&
            !strcmp(a->token, m->move)) {
            out->move = a->move;
            memcpy(out->cut, a->cut, sizeof out->cut);
        }
        free(a);
    }
    out->privilege = m->privilege;
    out->nedits = nedits < 0 ? 0 : nedits;
    out->edits = edits;
    return out->move == -1 || nedits < 0 ? -1 : 0;
}

/* A game of r's variant on geo, in g (room for it). */
static void start(struct tx_game *g, const struct tx_geometry *geo, const struct tx_record *r)
{
    struct tx_variant v = tx_record_variant(r);
    tx_game_start(g, geo, &v);
}

int tx_verify_parse_move(const struct tx_geometry *geo, const char *move)
{
    int hole;

    if (!move)
        return -1;
    if (!strcmp(move, "SWAP"))
        return TX_MOVE_SWAP;
    if (tx_hole_parse(geo, move, strlen(move), &hole) != TX_HOLE_OK)
        return -1;
    return hole;
}

int tx_verify_first_turn(const struct tx_record *r, int player)
{
    for (int i = 0; i < r->nmoves; i++)
        if (r->moves[i].player == player && !r->moves[i].forced)
            return i + 1;
    return 0;
}

/* The entry that lost the game (the last one, when a bot lost by invalid,
 * timeout or crash) is never played, even when its text is a legal move:
 * the late answer of a timeout. */
static bool losing_entry(const struct tx_record *r, int i)
{
    enum tx_reason reason = r->result.reason;

    return i == r->nmoves - 1 && (reason == TX_REASON_TIMEOUT || reason == TX_REASON_CRASH ||
                                  reason == TX_REASON_INVALID);
}

int tx_verify_step(const struct tx_record *r, int i, struct tx_game *g)
{
    struct tx_edit edits[TX_EDITS_READ];
    struct tx_move m;

    if (losing_entry(r, i) || entry_move(g->geo, r, &r->moves[i], edits, &m) < 0)
        return 0;
    return tx_game_apply(g, &m, NULL) == TX_LEGAL;
}

int tx_verify_position(const struct tx_geometry *geo, const struct tx_record *r, int upto,
                       struct tx_game *g)
{
    int played = 0;

    start(g, geo, r);
    if (upto > r->nmoves)
        upto = r->nmoves;
    for (int i = 0; i < upto; i++) {
        if (tx_verify_step(r, i, g)) {
            played++;
            continue;
        }
        /* Only the last entry may be an answer that was not played. */
        if (i != r->nmoves - 1)
            return -EINVAL;
    }
    return played;
}

int tx_verify_turn_input(const struct tx_geometry *geo, const struct tx_record *r, int i, char *buf,
                         size_t cap)
{
    struct tx_game *g = tx_game_new(geo, r->rules);
    int rc;

    rc = i < 0 || i >= r->nmoves || r->moves[i].forced ? -EINVAL : tx_verify_position(geo, r, i, g);
    if (rc >= 0 && (g->status != TX_ONGOING || g->seat != r->moves[i].player))
        rc = -EINVAL;
    if (rc >= 0)
        rc = tx_input_write(g, r->moves[i].player,
                            tx_verify_first_turn(r, r->moves[i].player) == i + 1, buf, cap);
    free(g);
    return rc;
}

static const char *player_name(int player)
{
    static const char *const names[TX_SEATS_MAX] = {"player 1", "player 2", "player 3", "player 4"};
    return player >= 0 && player < TX_SEATS_MAX ? names[player] : "nobody";
}

/* The winner a record names for the game's winning colour: the player
 * that plays it in a game of two, its team with teams; both are the
 * colour, exchanged when the sides were (a seat plays colour
 * (seat & 1) ^ exchanged). */
static int winner_of(const struct tx_game *g)
{
    return g->winner ^ g->exchanged;
}

/* Who the result names the winner when seat lost by its own fault: the
 * other player, or the other team. */
static int winner_after_fault(int seat)
{
    return (seat & 1) ^ 1;
}

static const char *winner_name(const struct tx_record *r, int winner)
{
    if (r->nplayers == 4 && winner >= 0)
        return winner == 0 ? "the first team" : "the second team";
    return player_name(winner);
}

static int fail(struct tx_verify_report *rep, int move, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int fail(struct tx_verify_report *rep, int move, const char *fmt, ...)
{
    va_list ap;

    rep->ok = false;
    rep->move = move;
    va_start(ap, fmt);
    vsnprintf(rep->what, sizeof rep->what, fmt, ap);
    va_end(ap);
    return -EINVAL;
}

/* The header fields that make a replay meaningful at all. */
static int check_header(const struct tx_geometry *geo, const struct tx_record *r,
                        struct tx_verify_report *rep)
{
    const char *reason = tx_reason_name(r->result.reason);
    bool decisive = r->result.reason != TX_REASON_DRAW && r->result.reason != TX_REASON_INTERRUPTED;

    if ((r->width != geo->width || r->height != geo->height) && r->width == r->height)
        return fail(rep, 0, "size %d, but replayed on a %d x %d board", r->width, geo->width,
                    geo->height);
    if (r->width != geo->width || r->height != geo->height)
        return fail(rep, 0, "board %d x %d, but replayed on a %d x %d board", r->width, r->height,
                    geo->width, geo->height);
    if (r->width != r->height) {
        for (int i = 0; i < r->nmoves; i++)
            if (r->moves[i].move && !strcmp(r->moves[i].move, "SWAP") && i + 1 < r->nmoves)
                return fail(rep, i + 1, "SWAP on a %d x %d board, which has no mirror", r->width,
                            r->height);
    }
    if (r->limits.first_turn_ms <= 0 || r->limits.turn_ms <= 0 || r->limits.margin_ms < 0)
        return fail(rep, 0,
                    "limits: first_turn_ms and turn_ms must be positive, margin_ms not negative");
    if (!reason)
        return fail(rep, 0, "result.reason: unknown value %d", (int)r->result.reason);
    if (decisive && r->result.winner != 0 && r->result.winner != 1)
        return fail(rep, 0, "result: reason %s needs a winner (0 or 1), the record has none",
                    reason);
    if (!decisive && r->result.winner != -1)
        return fail(rep, 0, "result: reason %s has no winner, the record says %s", reason,
                    winner_name(r, r->result.winner));
    return 0;
}

/* The turn limit of entry i (0-based): first_turn_ms on its player's first turn. */
static int limit_ms(const struct tx_record *r, int i)
{
    return tx_limits_turn_ms(&r->limits, tx_verify_first_turn(r, r->moves[i].player) == i + 1);
}

/* Checks what a played or answered entry says about itself: message, time.
 * soft_used counts each player's overruns forgiven so far (tx_limits_judge). */
static int check_entry(const struct tx_record *r, int i, int soft_used[TX_SEATS_MAX],
                       struct tx_verify_report *rep)
{
    const struct tx_record_move *m = &r->moves[i];

    if (m->message && tx_text_chars(m->message) > TX_MESSAGE_CHARS)
        return fail(rep, i + 1, "message has %zu characters, the referee keeps at most %d",
                    tx_text_chars(m->message), TX_MESSAGE_CHARS);
    if (m->forced) {
        if (m->us != -1)
            return fail(rep, i + 1, "forced move with us %lld, expected -1", (long long)m->us);
        if (i > 0 && !r->moves[i - 1].forced)
            return fail(rep, i + 1, "forced move after a move played by a bot");
        return 0;
    }
    if (m->us < 0)
        return fail(rep, i + 1, "us %lld: a bot's answer time cannot be negative",
                    (long long)m->us);
    if (i == r->nmoves - 1 && r->result.reason == TX_REASON_TIMEOUT)
        return 0; /* the late one: checked with the result */
    int ms = limit_ms(r, i);
    if (tx_limits_is_timeout(tx_limits_judge(&r->limits, ms, m->us, &soft_used[m->player])))
        return fail(rep, i + 1, "answered in %.1f ms, over the %lld ms limit, but the game went on",
                    m->us / 1000.0, (long long)(tx_limits_allowed_us(&r->limits, ms) / 1000));
    return 0;
}

/* The result's detail without the hint the referee adds when a bot loses
 * at its first turn after a forced opening (RULES.md "Forced openings",
 * tx_verdict_add_first_turn); a record from before the hint has none, and
 * is accepted as it is. */
static void detail_without_hint(const struct tx_record *r, char *buf, size_t cap)
{
    int forced = 0;
    while (forced < r->nmoves && r->moves[forced].forced)
        forced++;
    snprintf(buf, cap, "%s", r->result.detail);
    if (forced == 0 || r->nmoves == 0 ||
        tx_verify_first_turn(r, r->moves[r->nmoves - 1].player) != r->nmoves)
        return;
    char hint[TX_VERDICT_DETAIL_MAX] = "";
    tx_verdict_add_first_turn(hint, sizeof hint, forced);
    size_t len = strlen(buf), hlen = strlen(hint);
    if (len >= hlen && !strcmp(buf + len - hlen, hint))
        buf[len - hlen] = '\0';
}

/* Whether detail is how tx_answer_parse refuses the recorded token. The
 * record keeps the token sanitised (invalid bytes as U+FFFD) and cut at
 * TX_TOKEN_SHOWN bytes, while the referee worded the reason from the raw
 * line, so only a plain token must give the very same words; otherwise the
 * kind of refusal must match (tx_answer_error_of). */
static bool same_parse_failure(const struct tx_geometry *geo, const struct tx_variant *v,
                               const char *token, const char *detail, char *describe, size_t cap)
{
    struct tx_answer a;
    bool plain = true;

    if (!token || tx_answer_parse_variant(geo, v, token, strlen(token), &a) == 0) {
        snprintf(describe, cap, "%s", token ? "a move" : "no answer");
        return false;
    }
    snprintf(describe, cap, "%s", a.reason);
    if (!strcmp(a.reason, detail))
        return true;
    for (const unsigned char *u = (const unsigned char *)token; *u; u++)
        if (*u < 0x20 || *u >= 0x7F)
            plain = false;
    if (plain && strlen(token) <= TX_TOKEN_SHOWN)
        return false;
    return tx_answer_error_of(detail) == a.error;
}

/* The last entry was not played: it must be what the result says. */
static int check_unplayed_last(const struct tx_game *g, const struct tx_record *r,
                               const struct tx_move *answer, enum tx_illegal why,
                               const struct tx_edit_fault *fault, int soft_used[TX_SEATS_MAX],
                               struct tx_verify_report *rep)
{
    int n = r->nmoves, move = answer->move;
    struct tx_variant v = tx_record_variant(r);
    const struct tx_record_move *m = &r->moves[n - 1];
    const char *reason = tx_reason_name(r->result.reason);
    char describe[128], detail[TX_VERDICT_DETAIL_MAX];

    switch (r->result.reason) {
    case TX_REASON_INVALID:
        detail_without_hint(r, detail, sizeof detail);
        if (tx_answer_error_of(detail) == TX_ANSWER_TOO_LONG)
            break; /* only the line's first bytes were read: its token may be anything */
        if (!m->move)
            return fail(rep, n, "the result is invalid, but this entry has no answer (move null)");
        if (move != -1 && why == TX_LEGAL)
            return fail(rep, n, "%s is a legal move here, but the result says invalid", m->move);
        if (move != -1)
            tx_answer_describe(g, answer, why, fault, describe, sizeof describe);
        else if (!same_parse_failure(g->geo, &v, m->move, detail, describe, sizeof describe))
            return fail(rep, n,
                        "result.detail is \"%s\", but the answer \"%s\" is refused as \"%s\"",
                        r->result.detail, m->move ? m->move : "", describe);
        else
            break;
        if (strcmp(describe, detail))
            return fail(rep, n, "result.detail is \"%s\", the replay says \"%s\"", r->result.detail,
                        describe);
        break;
    case TX_REASON_TIMEOUT: {
        /* The one rule the referee judged with; a bot that never answered
         * was killed later still. */
        int ms = limit_ms(r, n - 1);
        enum tx_lateness lateness = tx_limits_judge(&r->limits, ms, m->us, &soft_used[m->player]);
        if (lateness == TX_ON_TIME)
            return fail(rep, n, "timeout, but %s %.1f ms, within the %lld ms limit",
                        m->move ? "the answer came in" : "the turn ended after", m->us / 1000.0,
                        (long long)(tx_limits_allowed_us(&r->limits, ms) / 1000));
        if (lateness == TX_LATE_FORGIVEN)
            return fail(rep, n,
                        "timeout, but %s %.1f ms, an overrun that soft mode forgives (%d of %d)",
                        m->move ? "the answer came in" : "the turn ended after", m->us / 1000.0,
                        soft_used[m->player], TX_LIMITS_SOFT_FORGIVEN);
        break;
    }
    case TX_REASON_CRASH:
        if (m->move)
            return fail(rep, n, "crash, but this entry has an answer (\"%s\"); expected move null",
                        m->move);
        break;
    case TX_REASON_INTERRUPTED:
        if (m->move)
            return fail(rep, n, "\"%s\" was not played: %s", m->move,
                        move == -1 ? "not a move" : "illegal here");
        break;
    default:
        if (!m->move)
            return fail(rep, n, "no answer (move null), but the result is %s", reason);
        if (move == -1)
            return fail(rep, n, "\"%s\" is not a move, but the result is %s", m->move, reason);
        tx_answer_describe(g, answer, why, fault, describe, sizeof describe);
        return fail(rep, n, "%s is illegal here (%s), but the result is %s", m->move, describe,
                    reason);
    }
    /* Timeouts are the mover's; a crash can also be noticed while the other
     * bot thinks, so only the winner has to match. */
    if (r->result.reason != TX_REASON_INTERRUPTED) {
        if (r->result.reason != TX_REASON_CRASH && m->player != g->seat)
            return fail(rep, n, "the losing entry is %s's, but %s was to move",
                        player_name(m->player), player_name(g->seat));
        if (r->result.winner != winner_after_fault(m->player))
            return fail(rep, n, "%s lost by %s here, but the record names %s the winner",
                        player_name(m->player), reason, winner_name(r, r->result.winner));
    }
    return 0;
}

/* The end of the game after every entry was played. */
static int check_end(const struct tx_game *g, const struct tx_record *r,
                     struct tx_verify_report *rep)
{
    const char *reason = tx_reason_name(r->result.reason);
    int n = r->nmoves;
    int16_t chain[TX_HOLES_MAX];
    char a[TX_HOLE_NAME_MAX], b[TX_HOLE_NAME_MAX], detail[16];
    int len;

    switch (r->result.reason) {
    case TX_REASON_CONNECTION:
        if (g->status != TX_WON)
            return fail(rep, n,
                        "the result is a connection, but nobody has connected after the last move");
        if (winner_of(g) != r->result.winner)
            return fail(rep, n, "record says %s won, the replay says %s",
                        winner_name(r, r->result.winner), winner_name(r, winner_of(g)));
        len = tx_game_winning_chain(g, chain);
        if (len <= 0)
            return fail(rep, n, "the replay finds no winning chain");
        snprintf(detail, sizeof detail, "%s-%s", tx_hole_name(g->geo, chain[0], a),
                 tx_hole_name(g->geo, chain[len - 1], b));
        if (strcmp(detail, r->result.detail))
            return fail(rep, n, "result.detail is \"%s\", the winning chain runs %s",
                        r->result.detail, detail);
        return 0;
    case TX_REASON_DRAW:
        if (g->status != TX_DRAWN)
            return fail(rep, n, "the result is a draw, but %s",
                        g->status == TX_WON ? "the last move won the game"
                                            : "the player to move still has legal holes");
        return 0;
    case TX_REASON_INTERRUPTED:
        if (g->status != TX_ONGOING)
            return fail(rep, n, "the result is interrupted, but the game was already %s",
                        g->status == TX_WON ? "won" : "drawn");
        return 0;
    default:
        /* invalid, timeout and crash all need a losing entry. */
        return fail(rep, n,
                    "the result is %s, but every entry is a legal move and none is the losing one",
                    reason);
    }
}

static int check_links(const struct tx_game *g, const struct tx_record *r,
                       struct tx_verify_report *rep)
{
    int16_t *links = tx_xmalloc(sizeof *links * 2 * (size_t)g->geo->link_ids);
    int rc = 0;

    /* Each player lists the links of the colour it plays at the end
     * (partners the same). */
    for (int p = 0; p < (r->nplayers == 4 ? 4 : 2) && rc == 0; p++) {
        const struct tx_record_player *pl = &r->players[p];
        int n = tx_game_links(g, tx_game_seat_colour(g, p), links);
        for (int k = 0; k < n && k < pl->nlinks && rc == 0; k++) {
            char a[TX_HOLE_NAME_MAX], b[TX_HOLE_NAME_MAX], want[TX_RECORD_LINK_MAX];
            snprintf(want, sizeof want, "%s %s", tx_hole_name(g->geo, links[2 * k], a),
                     tx_hole_name(g->geo, links[2 * k + 1], b));
            if (strcmp(want, pl->links[k]))
                rc = fail(rep, r->nmoves, "players[%d].links[%d] is \"%s\", the replay has \"%s\"",
                          p, k, pl->links[k], want);
        }
        if (rc == 0 && n != pl->nlinks)
            rc = fail(rep, r->nmoves, "players[%d] has %d links, the replay has %d", p, pl->nlinks,
                      n);
    }
    free(links);
    return rc;
}

int tx_verify_record(const struct tx_geometry *geo, const struct tx_record *r,
                     struct tx_verify_report *rep)
{
    struct tx_game *g = tx_game_new(geo, r->rules);
    struct tx_edit *edits = tx_xmalloc(sizeof(struct tx_edit[TX_EDITS_READ]));
    int soft_used[TX_SEATS_MAX] = {0, 0, 0, 0};
    int rc;

    start(g, geo, r);
    memset(rep, 0, sizeof *rep);
    rep->ok = true;
    rc = check_header(geo, r, rep);
    for (int i = 0; rc == 0 && i < r->nmoves; i++) {
        const struct tx_record_move *m = &r->moves[i];
        bool last = i == r->nmoves - 1;
        struct tx_move answer;
        bool played = entry_move(geo, r, m, edits, &answer) == 0;
        int nedits = entry_edits(m, edits), move = played ? answer.move : -1;
        struct tx_edit_fault fault = {-1, -1, -1};
        enum tx_illegal why;

        if (g->status != TX_ONGOING) {
            rc = fail(rep, i + 1, "the game was over after move %d (%s), but the record goes on", i,
                      g->status == TX_WON ? "won" : "drawn");
            break;
        }
        if (m->player != g->seat && !(last && !m->move)) {
            rc = fail(rep, i + 1, "entry by %s, but %s was to move", player_name(m->player),
                      player_name(g->seat));
            break;
        }
        if ((rc = check_entry(r, i, soft_used, rep)) < 0)
            break;
        if (nedits < 0) {
            rc = fail(rep, i + 1, "its edits are not edits");
            break;
        }
        why = move == -1 ? TX_ILLEGAL_OUT_OF_RANGE : tx_game_check_answer(g, &answer, &fault);
        if (m->forced && (why != TX_LEGAL || move < 0 || nedits > 0 || m->privilege)) {
            rc = fail(rep, i + 1, "forced move \"%s\" is not a legal hole",
                      m->move ? m->move : "null");
            break;
        }
        if (why == TX_LEGAL && !losing_entry(r, i)) {
            tx_game_apply(g, &answer, NULL);
            rep->legal_moves++;
            continue;
        }
        if (!last) {
            char describe[128] = "not a move";
            if (move != -1)
                tx_answer_describe(g, &answer, why, &fault, describe, sizeof describe);
            rc = fail(rep, i + 1, "%s: %s, but the record goes on", m->move ? m->move : "no answer",
                      describe);
            break;
        }
        /* The game ended on this unplayed entry: no end check but the links. */
        if (!played)
            answer.move = -1;
        if ((rc = check_unplayed_last(g, r, &answer, why, &fault, soft_used, rep)) == 0)
            rc = check_links(g, r, rep);
        free(edits);
        free(g);
        return rc;
    }
    if (rc == 0 && r->nmoves == 0 && r->result.reason != TX_REASON_INTERRUPTED)
        rc = fail(rep, 0, "no moves, but the result is %s", tx_reason_name(r->result.reason));
    else if (rc == 0)
        rc = check_end(g, r, rep);
    if (rc == 0)
        rc = check_links(g, r, rep);
    free(edits);
    free(g);
    return rc;
}
