/* record.c - the game record to one line of JSON (cJSON), and its parts.
 *
 * Writing is straightforward: build a cJSON tree in the order of DESIGN.md and
 * print it unformatted. Integers are written as raw text so that 64-bit
 * values keep every digit (cJSON would print 1e+15). Empty optional fields
 * (message, stderr, message_cut, forced and sandbox when false, run) are
 * left out to keep lines short. What the referee measured is clamped to the bounds of
 * record.h and text is cut at its bound and made valid UTF-8, so that the
 * loader (record-load.c, with its checks) takes back every record written.
 * This file also holds the reason names and tx_record_free.
 */
#include "record.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "text.h"

static const char *const reason_names[] = {
    [TX_REASON_CONNECTION] = "connection", [TX_REASON_DRAW] = "draw",
    [TX_REASON_INVALID] = "invalid",       [TX_REASON_TIMEOUT] = "timeout",
    [TX_REASON_CRASH] = "crash",           [TX_REASON_INTERRUPTED] = "interrupted",
};
#define NREASONS ((int)(sizeof(reason_names) / sizeof(reason_names[0])))

const char *tx_reason_name(enum tx_reason reason)
{
    if ((int)reason < 0 || (int)reason >= NREASONS)
        return NULL;
    return reason_names[reason];
}

int tx_reason_from_name(const char *name)
{
    for (int i = 0; i < NREASONS; i++)
        if (name && strcmp(name, reason_names[i]) == 0)
            return i;
    return -1;
}

/* ---- writing ---- */

/* Each add_* returns false when cJSON could not allocate. */
static bool add_int(cJSON *obj, const char *key, int64_t value)
{
    char buf[32];
    snprintf(buf, sizeof(buf), "%" PRId64, value);
    return cJSON_AddRawToObject(obj, key, buf) != NULL;
}

static bool add_uint(cJSON *obj, const char *key, uint64_t value)
{
    char buf[32];
    snprintf(buf, sizeof(buf), "%" PRIu64, value);
    return cJSON_AddRawToObject(obj, key, buf) != NULL;
}

static int64_t clamp(int64_t value, int64_t min, int64_t max)
{
    return value < min ? min : value > max ? max : value;
}

/* value as valid UTF-8 of at most max_chars characters (SIZE_MAX: no
 * bound); NULL becomes "", so that a required string is never left out. */
static bool add_text(cJSON *obj, const char *key, const char *value, size_t max_chars)
{
    value = value ? value : "";
    size_t len = strlen(value), cap = len * 3 + 1; /* a bad byte becomes U+FFFD, 3 bytes */
    char *text = malloc(cap);
    if (!text)
        return false;
    tx_text_sanitize(text, cap, value, len, max_chars);
    bool ok = cJSON_AddStringToObject(obj, key, text) != NULL;
    free(text);
    return ok;
}

static bool add_string(cJSON *obj, const char *key, const char *value)
{
    return add_text(obj, key, value, SIZE_MAX);
}

static bool add_string_or_null(cJSON *obj, const char *key, const char *value, size_t max_chars)
{
    if (value)
        return add_text(obj, key, value, max_chars);
    return cJSON_AddNullToObject(obj, key) != NULL;
}

static bool add_player(cJSON *players, const struct tx_record_player *p)
{
    cJSON *obj = cJSON_CreateObject();
    if (!obj || !cJSON_AddItemToArray(players, obj))
        return cJSON_Delete(obj), false;
    if (!add_text(obj, "name", p->name, TX_RECORD_NAME_CHARS) ||
        !add_string(obj, "command", p->command) ||
        !add_string_or_null(obj, "sha256", p->sha256, SIZE_MAX) ||
        !add_int(obj, "stderr_bytes", clamp(p->stderr_bytes, 0, TX_RECORD_STDERR_BYTES_MAX)) ||
        !add_int(obj, "extra_lines", clamp(p->extra_lines, 0, TX_RECORD_EXTRA_LINES_MAX)))
        return false;
    cJSON *links = cJSON_AddArrayToObject(obj, "links");
    if (!links)
        return false;
    for (int i = 0; i < p->nlinks; i++) {
        cJSON *s = cJSON_CreateString(p->links[i]);
        if (!s || !cJSON_AddItemToArray(links, s))
            return cJSON_Delete(s), false;
    }
    return true;
}

static bool add_move(cJSON *moves, const struct tx_record_move *m)
{
    cJSON *obj = cJSON_CreateObject();
    if (!obj || !cJSON_AddItemToArray(moves, obj))
        return cJSON_Delete(obj), false;
    /* -1 marks a forced move: the referee's, not timed */
    int64_t us = m->forced ? -1 : clamp(m->us, 0, TX_RECORD_US_MAX);
    if (!add_int(obj, "player", m->player) ||
        !add_string_or_null(obj, "move", m->move, TX_RECORD_MOVE_CHARS))
        return false;
    if (m->nedits > 0) {
        cJSON *edits = cJSON_AddArrayToObject(obj, "edits");
        if (!edits)
            return false;
        for (int i = 0; i < m->nedits; i++) {
            cJSON *e = cJSON_CreateString(m->edits[i]);
            if (!e || !cJSON_AddItemToArray(edits, e))
                return cJSON_Delete(e), false;
        }
    }
    if (!add_int(obj, "us", us))
        return false;
    bool message = m->message && m->message[0];
    if (message && !add_text(obj, "message", m->message, TX_MESSAGE_CHARS))
        return false;
    /* A cut message has all its characters (the loader checks it). */
    bool cut = m->message_cut && message && tx_text_chars(m->message) >= TX_MESSAGE_CHARS;
    if (cut && !cJSON_AddTrueToObject(obj, "message_cut"))
        return false;
    if (m->forced && !cJSON_AddTrueToObject(obj, "forced"))
        return false;
    if (m->privilege && !cJSON_AddTrueToObject(obj, "privilege"))
        return false;
    if (m->stderr_text && m->stderr_text[0] &&
        !add_text(obj, "stderr", m->stderr_text, TX_RECORD_STDERR_CHARS))
        return false;
    return true;
}

static bool add_pairing(cJSON *root, const struct tx_record_pairing *p)
{
    char seed[32];
    cJSON *obj = cJSON_AddObjectToObject(root, "pairing");
    cJSON *bots = obj ? (add_string(obj, "key", p->key) && add_int(obj, "k", p->k)
                             ? cJSON_AddArrayToObject(obj, "bots")
                             : NULL)
                      : NULL;
    if (!bots)
        return false;
    for (int i = 0; i < 2; i++) {
        cJSON *bot = cJSON_CreateObject();
        if (!bot || !cJSON_AddItemToArray(bots, bot))
            return cJSON_Delete(bot), false;
        if (!add_string(bot, "name", p->bots[i].name) ||
            !add_string(bot, "command", p->bots[i].command) ||
            !add_int(bot, "memory_mb", p->bots[i].memory_mb))
            return false;
    }
    /* A string: --seed takes any 64-bit value, and JSON readers hold
     * numbers as doubles, exact only below 2^53. */
    snprintf(seed, sizeof seed, "%" PRIu64, p->run_seed);
    return add_string(obj, "run_seed", seed) && add_int(obj, "openings", p->openings) &&
           (!p->openings_file || add_string(obj, "openings_file", p->openings_file));
}

static bool build(cJSON *root, const struct tx_record *r)
{
    if (!add_string(root, "format", r->format ? r->format : TX_RECORD_FORMAT) ||
        !add_int(root, "game", r->game) || !add_uint(root, "seed", r->seed))
        return false;
    /* A square board is written as it always was, so records of today's
     * games stay byte for byte what they were. */
    if (r->width == r->height
            ? !add_int(root, "size", r->width)
            : !add_int(root, "width", r->width) || !add_int(root, "height", r->height))
        return false;
    if (r->rules != TX_RULES_PP && !add_string(root, "rules", tx_ruleset(r->rules)->name))
        return false;
    if (r->opening != TX_OPENING_SWAP &&
        !add_string(root, "opening", tx_opening_rule_name(r->opening)))
        return false;

    cJSON *limits = cJSON_AddObjectToObject(root, "limits");
    if (!limits || !add_int(limits, "first_turn_ms", r->limits.first_turn_ms) ||
        !add_int(limits, "turn_ms", r->limits.turn_ms) ||
        !add_int(limits, "margin_ms", r->limits.margin_ms) ||
        !cJSON_AddBoolToObject(limits, "soft", r->limits.soft))
        return false;
    if (!add_text(root, "referee", r->referee, TX_RECORD_REFEREE_CHARS) ||
        !add_string(root, "started", r->started))
        return false;
    if (r->run && r->run[0] && !add_string(root, "run", r->run))
        return false;
    if (r->pairing.key && !add_pairing(root, &r->pairing))
        return false;
    if (r->sandbox && !cJSON_AddTrueToObject(root, "sandbox"))
        return false;
    if (r->handicap && !add_text(root, "handicap", r->handicap, TX_RECORD_NAME_CHARS))
        return false;
    if (r->teams[0]) {
        cJSON *teams = cJSON_AddArrayToObject(root, "teams");
        for (int t = 0; t < 2; t++) {
            cJSON *name = teams ? cJSON_CreateString(r->teams[t] ? r->teams[t] : "") : NULL;
            if (!name || !cJSON_AddItemToArray(teams, name))
                return cJSON_Delete(name), false;
        }
    }

    cJSON *players = cJSON_AddArrayToObject(root, "players");
    if (!players)
        return false;
    for (int p = 0; p < (r->nplayers == 4 ? 4 : 2); p++)
        if (!add_player(players, &r->players[p]))
            return false;
    cJSON *moves = cJSON_AddArrayToObject(root, "moves");
    if (!moves)
        return false;
    for (int i = 0; i < r->nmoves; i++)
        if (!add_move(moves, &r->moves[i]))
            return false;

    cJSON *result = cJSON_AddObjectToObject(root, "result");
    if (!result)
        return false;
    bool ok = r->result.winner == 0 || r->result.winner == 1
                  ? add_int(result, "winner", r->result.winner)
                  : cJSON_AddNullToObject(result, "winner") != NULL;
    /* An out-of-range reason is a referee bug; "interrupted" keeps the game
     * out of the standings rather than inventing a result. */
    const char *reason = tx_reason_name(r->result.reason);
    return ok && add_string(result, "reason", reason ? reason : "interrupted") &&
           add_text(result, "detail", r->result.detail, TX_RECORD_DETAIL_CHARS);
}

int tx_record_to_json(const struct tx_record *r, char **ret_text)
{
    cJSON *root = cJSON_CreateObject();
    if (!root || !build(root, r)) {
        cJSON_Delete(root);
        return -ENOMEM;
    }
    char *text = cJSON_PrintUnformatted(root);
    cJSON_Delete(root);
    if (!text)
        return -ENOMEM;
    *ret_text = text;
    return 0;
}

void tx_record_free(struct tx_record *r)
{
    if (!r)
        return;
    free(r->format);
    free(r->referee);
    free(r->started);
    free(r->run);
    free(r->pairing.key);
    free(r->pairing.openings_file);
    free(r->handicap);
    free(r->teams[0]);
    free(r->teams[1]);
    for (int i = 0; i < TX_SEATS_MAX; i++) {
        free(r->players[i].name);
        free(r->players[i].command);
        free(r->players[i].sha256);
        free(r->players[i].links);
    }
    for (int i = 0; i < 2; i++) {
        free(r->pairing.bots[i].name);
        free(r->pairing.bots[i].command);
    }
    for (int i = 0; i < r->nmoves; i++) {
        free(r->moves[i].move);
        free(r->moves[i].message);
        free(r->moves[i].stderr_text);
        free(r->moves[i].edits);
    }
    free(r->moves);
    free(r->result.detail);
    memset(r, 0, sizeof(*r));
}
