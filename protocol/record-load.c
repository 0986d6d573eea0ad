/* record-load.c - a game record from one line of JSON (cJSON), with errors
 * that name the JSON path of the first problem.
 *
 * Reading is defensive, because records come from files that may be
 * truncated by kill -9, edited by hand or written by another version: every
 * field is checked for presence, type and range, and the first problem is
 * reported with its JSON path ("moves[3].us: expected an integer, got
 * \"12\""). cJSON reads numbers as doubles, so integers are exact only below
 * 2^53; larger values are rejected rather than silently rounded. Writing a
 * record, the reason names and tx_record_free are in record.c.
 */
#include "record.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "geometry.h"

/* Largest integer a double holds exactly together with all smaller ones. */
#define JSON_INT_MAX INT64_C(9007199254740991)

static void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size);
    if (!p)
        abort();
    return p;
}

struct reader {
    char *err;
    size_t errcap;
};

__attribute__((format(printf, 2, 3))) static int fail(struct reader *rd, const char *fmt, ...)
{
    if (rd->errcap > 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(rd->err, rd->errcap, fmt, ap);
        va_end(ap);
    }
    return -EINVAL;
}

/* A short description of a JSON value for error messages: strings quoted,
 * cut to fit buf (dropping the last character rather than splitting it),
 * control bytes shown as '?' so that a message cannot drive a terminal. */
static const char *describe(const cJSON *item, char *buf, size_t cap)
{
    if (!item)
        return "nothing";
    if (cJSON_IsNull(item))
        return "null";
    if (cJSON_IsTrue(item))
        return "true";
    if (cJSON_IsFalse(item))
        return "false";
    if (cJSON_IsArray(item))
        return "an array";
    if (cJSON_IsObject(item))
        return "an object";
    if (cJSON_IsNumber(item)) {
        /* the shortest of 15 or 17 digits that gives the value back */
        snprintf(buf, cap, "%.15g", item->valuedouble);
        if (strtod(buf, NULL) != item->valuedouble)
            snprintf(buf, cap, "%.17g", item->valuedouble);
        return buf;
    }
    if (cJSON_IsString(item)) {
        size_t n = 0, max = cap > 8 ? cap - 8 : 0;
        const unsigned char *s = (const unsigned char *)item->valuestring;
        buf[n++] = '"';
        size_t i = 0;
        for (; s[i] && n < max; i++)
            buf[n++] = s[i] < 0x20 || s[i] == 0x7f ? '?' : (char)s[i];
        while (s[i] && n > 1 && ((unsigned char)buf[n - 1] & 0xc0) == 0x80)
            n--; /* drop a trailing partial UTF-8 sequence, then its lead byte */
        if (s[i] && n > 1 && (unsigned char)buf[n - 1] >= 0xc0)
            n--;
        if (s[i])
            buf[n++] = '.', buf[n++] = '.', buf[n++] = '.';
        buf[n++] = '"';
        buf[n] = '\0';
        return buf;
    }
    return "an unknown value";
}

static bool utf8_valid(const char *str)
{
    const unsigned char *s = (const unsigned char *)str;
    while (*s) {
        unsigned c = *s;
        int more;
        uint32_t cp;
        if (c < 0x80) {
            s++;
            continue;
        } else if (c >= 0xc2 && c <= 0xdf) {
            more = 1, cp = c & 0x1f;
        } else if (c >= 0xe0 && c <= 0xef) {
            more = 2, cp = c & 0x0f;
        } else if (c >= 0xf0 && c <= 0xf4) {
            more = 3, cp = c & 0x07;
        } else {
            return false;
        }
        for (int k = 1; k <= more; k++) {
            if ((s[k] & 0xc0) != 0x80)
                return false;
            cp = cp << 6 | (s[k] & 0x3f);
        }
        /* overlong forms, surrogates and values beyond U+10FFFF */
        if ((more == 2 && cp < 0x800) || (more == 3 && (cp < 0x10000 || cp > 0x10ffff)) ||
            (cp >= 0xd800 && cp <= 0xdfff))
            return false;
        s += more + 1;
    }
    return true;
}

/* Reads obj[key] as an integer in [min, max] into *ret. A missing key is an
 * error unless ret_present is given (then *ret_present says whether it was
 * there). prefix is the object's path with a trailing dot, or "". */
static int get_int(struct reader *rd, const cJSON *obj, const char *prefix, const char *key,
                   int64_t min, int64_t max, int64_t *ret, bool *ret_present)
{
    char buf[64];
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (ret_present)
        *ret_present = item != NULL;
    if (!item) {
        if (ret_present)
            return 0;
        return fail(rd, "%s%s: missing, expected an integer", prefix, key);
    }
    if (!cJSON_IsNumber(item))
        return fail(rd, "%s%s: expected an integer, got %s", prefix, key,
                    describe(item, buf, sizeof(buf)));
    double d = item->valuedouble;
    if (d != floor(d) || d < (double)min || d > (double)max)
        return fail(rd, "%s%s: expected an integer from %" PRId64 " to %" PRId64 ", got %s", prefix,
                    key, min, max, describe(item, buf, sizeof(buf)));
    *ret = (int64_t)d;
    return 0;
}

static int get_small_int(struct reader *rd, const cJSON *obj, const char *prefix, const char *key,
                         int min, int max, int *ret)
{
    int64_t v = 0;
    int r = get_int(rd, obj, prefix, key, min, max, &v, NULL);
    if (r == 0)
        *ret = (int)v;
    return r;
}

enum presence { REQUIRED, NULLABLE, OPTIONAL };

/* Reads obj[key] as a string into a new copy in *ret. NULLABLE: the key must
 * be there but may be null; OPTIONAL: it may be absent or null. */
static int get_string(struct reader *rd, const cJSON *obj, const char *prefix, const char *key,
                      enum presence presence, char **ret)
{
    char buf[64];
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, key);
    const char *what = presence == REQUIRED ? "a string" : "a string or null";
    if (!item && presence != OPTIONAL)
        return fail(rd, "%s%s: missing, expected %s", prefix, key, what);
    if (!item || (cJSON_IsNull(item) && presence != REQUIRED))
        return 0;
    if (!cJSON_IsString(item))
        return fail(rd, "%s%s: expected %s, got %s", prefix, key, what,
                    describe(item, buf, sizeof(buf)));
    if (!utf8_valid(item->valuestring))
        return fail(rd, "%s%s: expected valid UTF-8 text", prefix, key);
    *ret = tx_strdup(item->valuestring);
    return 0;
}

/* An optional boolean, false when absent. */
static int get_bool(struct reader *rd, const cJSON *obj, const char *prefix, const char *key,
                    bool *ret)
{
    char buf[64];
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!item)
        return 0;
    if (!cJSON_IsBool(item))
        return fail(rd, "%s%s: expected true or false, got %s", prefix, key,
                    describe(item, buf, sizeof(buf)));
    *ret = cJSON_IsTrue(item);
    return 0;
}

/* obj[key] as an object or array (want is cJSON_Object or cJSON_Array). */
static int get_container(struct reader *rd, const cJSON *obj, const char *prefix, const char *key,
                         int want, const cJSON **ret)
{
    char buf[64];
    const char *what = want == cJSON_Object ? "an object" : "an array";
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!item)
        return fail(rd, "%s%s: missing, expected %s", prefix, key, what);
    if (want == cJSON_Object ? !cJSON_IsObject(item) : !cJSON_IsArray(item))
        return fail(rd, "%s%s: expected %s, got %s", prefix, key, what,
                    describe(item, buf, sizeof(buf)));
    *ret = item;
    return 0;
}

/* "D6 E8": two hole names (letter, number 1..99 without a leading zero). */
static bool link_valid(const char *s)
{
    for (int half = 0; half < 2; half++) {
        if (*s < 'A' || *s > 'Z')
            return false;
        s++;
        if (*s < '1' || *s > '9')
            return false;
        s++;
        if (*s >= '0' && *s <= '9')
            s++;
        if (half == 0 && *s++ != ' ')
            return false;
    }
    return *s == '\0';
}

static int read_player(struct reader *rd, const cJSON *obj, int index, struct tx_record_player *p)
{
    char prefix[32], buf[64];
    snprintf(prefix, sizeof(prefix), "players[%d].", index);
    if (!cJSON_IsObject(obj))
        return fail(rd, "players[%d]: expected an object, got %s", index,
                    describe(obj, buf, sizeof(buf)));
    int64_t v = 0;
    int r;
    if ((r = get_string(rd, obj, prefix, "name", REQUIRED, &p->name)) < 0 ||
        (r = get_string(rd, obj, prefix, "command", REQUIRED, &p->command)) < 0 ||
        (r = get_string(rd, obj, prefix, "sha256", NULLABLE, &p->sha256)) < 0)
        return r;
    bool present = false;
    if ((r = get_int(rd, obj, prefix, "stderr_bytes", 0, JSON_INT_MAX, &v, &present)) < 0)
        return r;
    p->stderr_bytes = present ? v : 0;
    if ((r = get_int(rd, obj, prefix, "extra_lines", 0, INT32_MAX, &v, &present)) < 0)
        return r;
    p->extra_lines = present ? (int)v : 0;

    const cJSON *links = cJSON_GetObjectItemCaseSensitive(obj, "links");
    if (!links)
        return 0;
    if (!cJSON_IsArray(links))
        return fail(rd, "%slinks: expected an array, got %s", prefix,
                    describe(links, buf, sizeof(buf)));
    int n = cJSON_GetArraySize(links);
    p->links = xcalloc((size_t)n, sizeof(*p->links));
    const cJSON *link;
    cJSON_ArrayForEach(link, links)
    {
        if (!cJSON_IsString(link) || !link_valid(link->valuestring))
            return fail(rd, "%slinks[%d]: expected two hole names like \"D6 E8\", got %s", prefix,
                        p->nlinks, describe(link, buf, sizeof(buf)));
        /* link_valid bounds the length to 7, so it fits char[8] */
        strcpy(p->links[p->nlinks++], link->valuestring);
    }
    return 0;
}

static int read_move(struct reader *rd, const cJSON *obj, int index, struct tx_record_move *m)
{
    char prefix[32], buf[64];
    snprintf(prefix, sizeof(prefix), "moves[%d].", index);
    if (!cJSON_IsObject(obj))
        return fail(rd, "moves[%d]: expected an object, got %s", index,
                    describe(obj, buf, sizeof(buf)));
    int r;
    if ((r = get_small_int(rd, obj, prefix, "player", 0, 1, &m->player)) < 0 ||
        (r = get_string(rd, obj, prefix, "move", NULLABLE, &m->move)) < 0 ||
        (r = get_int(rd, obj, prefix, "us", -1, JSON_INT_MAX, &m->us, NULL)) < 0 ||
        (r = get_string(rd, obj, prefix, "message", OPTIONAL, &m->message)) < 0 ||
        (r = get_bool(rd, obj, prefix, "message_cut", &m->message_cut)) < 0 ||
        (r = get_bool(rd, obj, prefix, "forced", &m->forced)) < 0 ||
        (r = get_string(rd, obj, prefix, "stderr", OPTIONAL, &m->stderr_text)) < 0)
        return r;
    return 0;
}

static int read_result(struct reader *rd, const cJSON *root, struct tx_record *ret)
{
    char buf[64];
    const cJSON *result = NULL;
    int r = get_container(rd, root, "", "result", cJSON_Object, &result);
    if (r < 0)
        return r;
    char *reason = NULL;
    if ((r = get_string(rd, result, "result.", "reason", REQUIRED, &reason)) < 0)
        return r;
    int reason_id = tx_reason_from_name(reason);
    if (reason_id < 0) {
        r = fail(rd,
                 "result.reason: unknown value %s (expected connection, draw, invalid, "
                 "timeout, crash or interrupted)",
                 describe(cJSON_GetObjectItemCaseSensitive(result, "reason"), buf, sizeof(buf)));
        free(reason);
        return r;
    }
    free(reason);
    ret->result.reason = (enum tx_reason)reason_id;

    const cJSON *winner = cJSON_GetObjectItemCaseSensitive(result, "winner");
    bool decisive = reason_id != TX_REASON_DRAW && reason_id != TX_REASON_INTERRUPTED;
    if (!winner)
        return fail(rd, "result.winner: missing, expected 0, 1 or null");
    if (cJSON_IsNull(winner)) {
        if (decisive)
            return fail(rd, "result.winner: expected 0 or 1 for reason \"%s\", got null",
                        tx_reason_name((enum tx_reason)reason_id));
        ret->result.winner = -1;
    } else {
        if ((r = get_small_int(rd, result, "result.", "winner", 0, 1, &ret->result.winner)) < 0)
            return r;
        if (!decisive)
            return fail(rd, "result.winner: expected null for reason \"%s\", got %d",
                        tx_reason_name((enum tx_reason)reason_id), ret->result.winner);
    }
    return get_string(rd, result, "result.", "detail", REQUIRED, &ret->result.detail);
}

static int read_record(struct reader *rd, const cJSON *root, struct tx_record *ret)
{
    char buf[64];
    int64_t v = 0;
    int r;
    if ((r = get_string(rd, root, "", "format", REQUIRED, &ret->format)) < 0)
        return r;
    if (strcmp(ret->format, TX_RECORD_FORMAT) != 0)
        return fail(rd, "format: expected \"%s\", got %s", TX_RECORD_FORMAT,
                    describe(cJSON_GetObjectItemCaseSensitive(root, "format"), buf, sizeof(buf)));
    if ((r = get_int(rd, root, "", "game", 1, JSON_INT_MAX, &ret->game, NULL)) < 0 ||
        (r = get_int(rd, root, "", "seed", 0, JSON_INT_MAX, &v, NULL)) < 0)
        return r;
    ret->seed = (uint64_t)v;
    if ((r = get_small_int(rd, root, "", "size", TX_SIZE_MIN, TX_SIZE_MAX, &ret->size)) < 0)
        return r;

    const cJSON *limits = NULL;
    if ((r = get_container(rd, root, "", "limits", cJSON_Object, &limits)) < 0 ||
        (r = get_small_int(rd, limits, "limits.", "first_turn_ms", 0, INT32_MAX,
                           &ret->limits.first_turn_ms)) < 0 ||
        (r = get_small_int(rd, limits, "limits.", "turn_ms", 0, INT32_MAX, &ret->limits.turn_ms)) <
            0 ||
        (r = get_small_int(rd, limits, "limits.", "margin_ms", 0, INT32_MAX,
                           &ret->limits.margin_ms)) < 0 ||
        (r = get_bool(rd, limits, "limits.", "soft", &ret->limits.soft)) < 0)
        return r;
    if ((r = get_string(rd, root, "", "referee", REQUIRED, &ret->referee)) < 0 ||
        (r = get_string(rd, root, "", "started", REQUIRED, &ret->started)) < 0 ||
        (r = get_string(rd, root, "", "run", OPTIONAL, &ret->run)) < 0 ||
        (r = get_bool(rd, root, "", "sandbox", &ret->sandbox)) < 0)
        return r;

    const cJSON *players = NULL;
    if ((r = get_container(rd, root, "", "players", cJSON_Array, &players)) < 0)
        return r;
    if (cJSON_GetArraySize(players) != 2)
        return fail(rd, "players: expected 2 players, got %d", cJSON_GetArraySize(players));
    for (int i = 0; i < 2; i++)
        if ((r = read_player(rd, cJSON_GetArrayItem(players, i), i, &ret->players[i])) < 0)
            return r;

    const cJSON *moves = NULL;
    if ((r = get_container(rd, root, "", "moves", cJSON_Array, &moves)) < 0)
        return r;
    ret->moves = xcalloc((size_t)cJSON_GetArraySize(moves), sizeof(*ret->moves));
    const cJSON *move;
    cJSON_ArrayForEach(move, moves)
    {
        /* counted first, so that tx_record_free frees a half-read move */
        ret->nmoves++;
        if ((r = read_move(rd, move, ret->nmoves - 1, &ret->moves[ret->nmoves - 1])) < 0)
            return r;
    }
    return read_result(rd, root, ret);
}

int tx_record_from_json(const char *text, size_t len, struct tx_record *ret, char *err,
                        size_t errcap)
{
    struct reader rd = {err, errcap};
    char buf[64];
    memset(ret, 0, sizeof(*ret));
    ret->result.winner = -1;
    ret->result.reason = TX_REASON_INTERRUPTED;
    if (errcap > 0)
        err[0] = '\0';

    const char *end = NULL;
    cJSON *root = cJSON_ParseWithLengthOpts(text, len, &end, false);
    if (!root) {
        /* A record line always starts with '{' and ends with '}'; one that
         * starts like a record but does not end like one was most likely
         * cut short (a writer killed mid-line). */
        size_t first = 0, last = len;
        while (last > 0 && strchr(" \t\r\n", text[last - 1]) && text[last - 1] != '\0')
            last--;
        if (last == 0)
            return fail(&rd, "invalid JSON: empty text");
        while (first < last && strchr(" \t\r\n", text[first]) && text[first] != '\0')
            first++;
        /* cJSON reports running out of text as an error at the last byte */
        size_t at = end && end >= text ? (size_t)(end - text) : 0;
        if (text[first] == '{' && (text[last - 1] != '}' || at + 1 >= last))
            return fail(&rd, "invalid JSON: the text ends early at byte %zu (truncated record?)",
                        last);
        return fail(&rd, "invalid JSON at byte %zu", at + 1);
    }
    int r = 0;
    size_t at = (size_t)(end - text);
    while (at < len &&
           (text[at] == ' ' || text[at] == '\t' || text[at] == '\r' || text[at] == '\n'))
        at++;
    if (at < len && text[at] != '\0')
        r = fail(&rd, "invalid JSON: unexpected text after the record at byte %zu", at + 1);
    else if (!cJSON_IsObject(root))
        r = fail(&rd, "expected a JSON object, got %s", describe(root, buf, sizeof(buf)));
    else
        r = read_record(&rd, root, ret);
    cJSON_Delete(root);
    return r;
}
