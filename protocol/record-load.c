/* record-load.c - a game record from one line of JSON (cJSON), with errors
 * that name the JSON path of the first problem.
 *
 * Reading is defensive, because records come from files that may be
 * truncated by kill -9, edited by hand or written by another version: every
 * field is checked for presence, type and range, and the first problem is
 * reported with its JSON path ("moves[3].us: expected an integer, got
 * \"12\""). The format is closed: an unknown or repeated field is refused,
 * so a misspelt key is an error and not a default. The ranges are those of
 * record.h, chosen so that no later sum or addition on a loaded record can
 * overflow; game-record.schema.json states the same rules. cJSON reads
 * numbers as doubles, so integers are exact only below 2^53; larger values
 * are rejected rather than silently rounded. Holes are checked against the
 * record's board (their legality is verify.c's business). Writing a record,
 * the reason names and tx_record_free are in record.c.
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

#include "alloc.h"
#include "bot-limits.h"
#include "geometry.h"
#include "text.h"

/* Every turn the referee can allow fits below the largest time a record
 * holds: a limit and a margin of TX_LIMITS_MS_MAX, the soft overrun, the
 * kill grace. */
_Static_assert((2 * (int64_t)TX_LIMITS_MS_MAX + TX_LIMITS_SOFT_OVER_MS + TX_LIMITS_KILL_GRACE_MS) *
                       1000 <
                   TX_RECORD_US_MAX,
               "TX_RECORD_US_MAX must hold the longest turn");

/* The fields of each object of the format, in the order the writer writes
 * them. A new field is added here, in its read_* function, in record.c and
 * in game-record.schema.json. */
static const char *const record_fields[] = {
    "format",   "game",   "seed",    "size",    "width",  "height",  "rules",
    "opening",  "limits", "referee", "started", "run",    "pairing", "sandbox",
    "handicap", "teams",  "players", "moves",   "result", "chain",   NULL,
};
static const char *const pairing_fields[] = {
    "key", "k", "bots", "run_seed", "openings", "openings_file", NULL,
};
static const char *const pairing_bot_fields[] = {"name", "command", "memory_mb", NULL};
static const char *const chain_fields[] = {"prev", "hash", NULL};
static const char *const limits_fields[] = {"first_turn_ms", "turn_ms", "margin_ms", "soft", NULL};
static const char *const player_fields[] = {
    "name", "command", "sha256", "stderr_bytes", "extra_lines", "links", NULL,
};
static const char *const move_fields[] = {
    "player",      "move",   "edits",     "us",     "message",
    "message_cut", "forced", "privilege", "stderr", NULL,
};
static const char *const result_fields[] = {"winner", "reason", "detail", NULL};

struct reader {
    char *err;
    size_t errcap;
    int width, height;   /* the board's, once read */
    enum tx_rules rules; /* ditto */
    int opening;         /* enum tx_opening_rule, once read */
    int nplayers;        /* 2, or 4 with teams */
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

/* s quoted for a message: cut to fit buf (dropping the last character
 * rather than splitting it), control bytes shown as '?' so that a message
 * cannot drive a terminal. */
static const char *quote(const char *str, char *buf, size_t cap)
{
    size_t n = 0, max = cap > 8 ? cap - 8 : 0;
    const unsigned char *s = (const unsigned char *)str;
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

/* A short description of a JSON value for error messages. */
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
    if (cJSON_IsString(item))
        return quote(item->valuestring, buf, cap);
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

/* Refuses a member of obj that is not in fields, or one that appears twice
 * (cJSON would read the first, most other readers the last). Each member
 * is compared with the earlier ones only while all are known, so a hostile
 * object of many members costs at most fields^2 comparisons. */
static int check_fields(struct reader *rd, const cJSON *obj, const char *prefix,
                        const char *const *fields)
{
    char buf[64], list[160];
    const cJSON *item;
    cJSON_ArrayForEach(item, obj)
    {
        bool known = false;
        for (int i = 0; fields[i] && !known; i++)
            known = strcmp(item->string, fields[i]) == 0;
        if (!known) {
            size_t n = 0;
            list[0] = '\0';
            for (int i = 0; fields[i]; i++)
                n += (size_t)snprintf(list + n, sizeof(list) - n, "%s%s", i ? ", " : "", fields[i]);
            /* the key shown as quote() shows text, without the quotes */
            const char *key = quote(item->string, buf, 40);
            return fail(rd, "%s%.*s: unknown field (expected %s)", prefix, (int)strlen(key) - 2,
                        key + 1, list);
        }
        for (const cJSON *before = obj->child; before != item; before = before->next)
            if (strcmp(before->string, item->string) == 0)
                return fail(rd, "%s%s: the field appears twice", prefix, item->string);
    }
    return 0;
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

/* Reads obj[key] as a string of min_chars..max_chars characters (code
 * points) into a new copy in *ret. REQUIRED: present and a string;
 * NULLABLE: present, a string or null; OPTIONAL: absent or a string. */
static int get_string(struct reader *rd, const cJSON *obj, const char *prefix, const char *key,
                      enum presence presence, size_t min_chars, size_t max_chars, char **ret)
{
    char buf[64];
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, key);
    const char *what = presence == NULLABLE ? "a string or null" : "a string";
    if (!item && presence != OPTIONAL)
        return fail(rd, "%s%s: missing, expected %s", prefix, key, what);
    if (!item || (cJSON_IsNull(item) && presence == NULLABLE))
        return 0;
    if (!cJSON_IsString(item))
        return fail(rd, "%s%s: expected %s, got %s", prefix, key, what,
                    describe(item, buf, sizeof(buf)));
    if (!utf8_valid(item->valuestring))
        return fail(rd, "%s%s: expected valid UTF-8 text", prefix, key);
    size_t chars = tx_text_chars(item->valuestring);
    if (chars < min_chars)
        return fail(rd, "%s%s: expected a non-empty string", prefix, key);
    if (chars > max_chars)
        return fail(rd, "%s%s: expected at most %zu characters, got %zu", prefix, key, max_chars,
                    chars);
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

/* obj[key] as an object or array (want is cJSON_Object or cJSON_Array).
 * An object's fields are checked against fields. */
static int get_container(struct reader *rd, const cJSON *obj, const char *prefix, const char *key,
                         int want, const char *const *fields, const cJSON **ret)
{
    char buf[64], path[32];
    const char *what = want == cJSON_Object ? "an object" : "an array";
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!item)
        return fail(rd, "%s%s: missing, expected %s", prefix, key, what);
    if (want == cJSON_Object ? !cJSON_IsObject(item) : !cJSON_IsArray(item))
        return fail(rd, "%s%s: expected %s, got %s", prefix, key, what,
                    describe(item, buf, sizeof(buf)));
    snprintf(path, sizeof(path), "%s%s.", prefix, key);
    if (fields && check_fields(rd, item, path, fields) < 0)
        return -EINVAL;
    *ret = item;
    return 0;
}

static bool digits(const char *s, int n)
{
    for (int i = 0; i < n; i++)
        if (s[i] < '0' || s[i] > '9')
            return false;
    return true;
}

static int number(const char *s, int n)
{
    int v = 0;
    for (int i = 0; i < n; i++)
        v = v * 10 + (s[i] - '0');
    return v;
}

/* "2026-11-21T21:00:00Z": a real UTC date and time, as the referee writes
 * it (strftime "%Y-%m-%dT%H:%M:%SZ"; second 60 is a leap second). */
static bool utc_time_valid(const char *s)
{
    static const int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (strlen(s) != 20 || !digits(s, 4) || s[4] != '-' || !digits(s + 5, 2) || s[7] != '-' ||
        !digits(s + 8, 2) || s[10] != 'T' || !digits(s + 11, 2) || s[13] != ':' ||
        !digits(s + 14, 2) || s[16] != ':' || !digits(s + 17, 2) || s[19] != 'Z')
        return false;
    int year = number(s, 4), month = number(s + 5, 2), day = number(s + 8, 2);
    if (month < 1 || month > 12)
        return false;
    bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    int month_days = days[month - 1] + (month == 2 && leap);
    return day >= 1 && day <= month_days && number(s + 11, 2) <= 23 && number(s + 14, 2) <= 59 &&
           number(s + 17, 2) <= 60;
}

/* "v1:89baa79292a262c3": a version, then 16 lower-case hex digits; or
 * "validate", the games of a `twixt-arena validate` battery. */
static bool run_valid(const char *s)
{
    if (strcmp(s, "validate") == 0)
        return true;
    if (*s++ != 'v' || *s < '1' || *s > '9')
        return false;
    while (*s >= '0' && *s <= '9')
        s++;
    if (*s++ != ':')
        return false;
    size_t n = strspn(s, "0123456789abcdef");
    return n == 16 && s[n] == '\0';
}

static bool sha256_valid(const char *s)
{
    return strspn(s, "0123456789abcdef") == 64 && s[64] == '\0';
}

/* The hole named at *s (one or two letters and a row number of at most
 * three digits without a leading zero, hole.h) when it is on rd's board and
 * not a corner (rd NULL: on any board, corners included); *s moves past
 * the name. Returns false for anything else. The loader has its own reader,
 * without a geometry: it only needs the board's sides. */
static bool parse_hole(const char **s, const struct reader *rd, int *ret_x, int *ret_y)
{
    const char *p = *s;
    if (*p < 'A' || *p > 'Z')
        return false;
    int x = *p++ - 'A';
    if (*p >= 'A' && *p <= 'Z')
        x = (x + 1) * 26 + (*p++ - 'A');
    if (*p < '1' || *p > '9')
        return false;
    int y = 0;
    for (int digits_read = 0; *p >= '0' && *p <= '9'; digits_read++) {
        if (digits_read == 3)
            return false;
        y = y * 10 + (*p++ - '0');
    }
    y--;
    if (rd) {
        bool edge_x = x == 0 || x == rd->width - 1, edge_y = y == 0 || y == rd->height - 1;
        if (x >= rd->width || y >= rd->height || (edge_x && edge_y))
            return false;
    }
    *ret_x = x, *ret_y = y;
    *s = p;
    return true;
}

static bool hole_valid(const char *s, const struct reader *rd)
{
    int x, y;
    return parse_hole(&s, rd, &x, &y) && *s == '\0';
}

/* "CUT R1 R2 B1": three holes of the board after CUT (the cut opening's
 * first answer, RULES.md "Openings"). */
static bool cut_valid(const char *s, const struct reader *rd)
{
    int x, y;
    if (!s || strncmp(s, "CUT", 3))
        return false;
    s += 3;
    for (int i = 0; i < 3; i++)
        if (*s++ != ' ' || !parse_hole(&s, rd, &x, &y))
            return false;
    return *s == '\0';
}

static bool knight(int x0, int y0, int x1, int y1)
{
    int dx = abs(x1 - x0), dy = abs(y1 - y0);
    return (dx == 1 && dy == 2) || (dx == 2 && dy == 1);
}

/* "D6 E8": two holes of the board a knight's move apart. */
static bool link_valid(const char *s, const struct reader *rd)
{
    int x0, y0, x1, y1;
    if (!parse_hole(&s, rd, &x0, &y0) || *s++ != ' ' || !parse_hole(&s, rd, &x1, &y1) || *s)
        return false;
    return knight(x0, y0, x1, y1);
}

/* "-A6:B4", "+C4:D6", "~E5:F7": an edit of two hole names (answer.h); one
 * that was played (strict) joins two holes of the board, not corners, a
 * knight's move apart. An answer refused for its edits may name any. */
static bool edit_valid(const char *s, const struct reader *rd, bool strict)
{
    int x0, y0, x1, y1;
    if (*s != '-' && *s != '+' && *s != '~')
        return false;
    s++;
    const struct reader *board = strict ? rd : NULL;
    if (!parse_hole(&s, board, &x0, &y0) || *s++ != ':' || !parse_hole(&s, board, &x1, &y1) || *s)
        return false;
    return !strict || knight(x0, y0, x1, y1);
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
    if ((r = check_fields(rd, obj, prefix, player_fields)) < 0 ||
        (r = get_string(rd, obj, prefix, "name", REQUIRED, 1, TX_RECORD_NAME_CHARS, &p->name)) <
            0 ||
        (r = get_string(rd, obj, prefix, "command", REQUIRED, 1, SIZE_MAX, &p->command)) < 0 ||
        (r = get_string(rd, obj, prefix, "sha256", NULLABLE, 0, SIZE_MAX, &p->sha256)) < 0)
        return r;
    if (p->sha256 && !sha256_valid(p->sha256))
        return fail(rd, "%ssha256: expected 64 lower-case hex digits or null, got %s", prefix,
                    quote(p->sha256, buf, sizeof(buf)));
    bool present = false;
    if ((r = get_int(rd, obj, prefix, "stderr_bytes", 0, TX_RECORD_STDERR_BYTES_MAX, &v,
                     &present)) < 0)
        return r;
    p->stderr_bytes = present ? v : 0;
    if ((r = get_int(rd, obj, prefix, "extra_lines", 0, TX_RECORD_EXTRA_LINES_MAX, &v, &present)) <
        0)
        return r;
    p->extra_lines = present ? v : 0;

    const cJSON *links = cJSON_GetObjectItemCaseSensitive(obj, "links");
    if (!links)
        return 0;
    if (!cJSON_IsArray(links))
        return fail(rd, "%slinks: expected an array, got %s", prefix,
                    describe(links, buf, sizeof(buf)));
    int n = cJSON_GetArraySize(links);
    int max = tx_record_links_max(rd->width, rd->height);
    if (n > max)
        return fail(rd, "%slinks: expected at most %d links on a %d x %d board, got %d", prefix,
                    max, rd->width, rd->height, n);
    p->links = tx_xcalloc((size_t)n, sizeof(*p->links));
    const cJSON *link;
    cJSON_ArrayForEach(link, links)
    {
        if (!cJSON_IsString(link) || !link_valid(link->valuestring, rd))
            return fail(rd,
                        "%slinks[%d]: expected two holes of the %d x %d board a knight's move "
                        "apart, like \"D6 E8\", got %s",
                        prefix, p->nlinks, rd->width, rd->height, describe(link, buf, sizeof(buf)));
        /* link_valid bounds the length to 11, so it fits */
        strcpy(p->links[p->nlinks++], link->valuestring);
    }
    return 0;
}

/* moves[i].edits: absent, or a non-empty array of edits as written, only
 * under rules with link edits. */
static int read_edits(struct reader *rd, const cJSON *obj, const char *prefix,
                      struct tx_record_move *m)
{
    char buf[64];
    const cJSON *edits = cJSON_GetObjectItemCaseSensitive(obj, "edits");
    if (!edits)
        return 0;
    /* A cut's "+R1:R2" is an edit under either rule set. */
    bool cut = rd->opening == TX_OPENING_CUT && m->move && !strncmp(m->move, "CUT ", 4);
    if (!tx_ruleset(rd->rules)->link_edits && !cut)
        return fail(rd, "%sedits: link edits, but the rules are %s", prefix,
                    tx_ruleset(rd->rules)->name);
    int n = cJSON_IsArray(edits) ? cJSON_GetArraySize(edits) : 0;
    /* One more than a move may make: an answer refused for too many edits
     * is recorded as written (the verifier finds the fault again). */
    if (n < 1 || n > TX_EDITS_READ)
        return fail(rd, "%sedits: expected an array of 1 to %d edits, got %s", prefix,
                    TX_EDITS_READ, describe(edits, buf, sizeof(buf)));
    m->edits = tx_xcalloc((size_t)n, sizeof(*m->edits));
    const cJSON *edit;
    cJSON_ArrayForEach(edit, edits)
    {
        if (!cJSON_IsString(edit) || !edit_valid(edit->valuestring, rd, false))
            return fail(rd,
                        "%sedits[%d]: expected an edit like \"-A6:B4\", \"+C4:D6\" or "
                        "\"~E5:F7\", got %s",
                        prefix, m->nedits, describe(edit, buf, sizeof(buf)));
        /* edit_valid bounds the length to 13, so it fits */
        strcpy(m->edits[m->nedits++], edit->valuestring);
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
    if ((r = check_fields(rd, obj, prefix, move_fields)) < 0 ||
        (r = get_small_int(rd, obj, prefix, "player", 0, rd->nplayers - 1, &m->player)) < 0 ||
        (r = get_string(rd, obj, prefix, "move", NULLABLE, 0, TX_RECORD_MOVE_CHARS, &m->move)) <
            0 ||
        (r = get_bool(rd, obj, prefix, "forced", &m->forced)) < 0 ||
        (r = get_bool(rd, obj, prefix, "privilege", &m->privilege)) < 0 ||
        (r = read_edits(rd, obj, prefix, m)) < 0)
        return r;
    /* -1 marks a forced move, and only a forced move. */
    if ((r = get_int(rd, obj, prefix, "us", -1, TX_RECORD_US_MAX, &m->us, NULL)) < 0)
        return r;
    if (m->forced && m->us != -1)
        return fail(rd, "%sus: expected -1 for a forced move, got %" PRId64, prefix, m->us);
    if (!m->forced && m->us == -1)
        return fail(
            rd, "%sus: expected an integer from 0 to %" PRId64 " (-1 is for forced moves), got -1",
            prefix, TX_RECORD_US_MAX);
    if ((r = get_string(rd, obj, prefix, "message", OPTIONAL, 1, TX_MESSAGE_CHARS, &m->message)) <
            0 ||
        (r = get_bool(rd, obj, prefix, "message_cut", &m->message_cut)) < 0 ||
        (r = get_string(rd, obj, prefix, "stderr", OPTIONAL, 1, TX_RECORD_STDERR_CHARS,
                        &m->stderr_text)) < 0)
        return r;
    /* A message is cut at TX_MESSAGE_CHARS characters: a cut one has them all. */
    if (m->message_cut && (!m->message || tx_text_chars(m->message) != TX_MESSAGE_CHARS))
        return fail(rd, "%smessage_cut: true, but the message is not %d characters long", prefix,
                    TX_MESSAGE_CHARS);
    return 0;
}

/* Every entry was played (a hole of the board, or SWAP; a forced one a
 * hole) except the last of a game lost on an answer (invalid, timeout,
 * crash), which may be any token or none. */
static int check_played(struct reader *rd, const struct tx_record *ret)
{
    char buf[64];
    bool last_answer = ret->result.reason == TX_REASON_INVALID ||
                       ret->result.reason == TX_REASON_TIMEOUT ||
                       ret->result.reason == TX_REASON_CRASH;
    for (int i = 0; i < ret->nmoves; i++) {
        const struct tx_record_move *m = &ret->moves[i];
        if (i == ret->nmoves - 1 && last_answer && !m->forced)
            break;
        bool swap = m->move && strcmp(m->move, "SWAP") == 0;
        bool cut = ret->opening == TX_OPENING_CUT && i == 0 && cut_valid(m->move, rd);
        bool choose = ret->opening == TX_OPENING_CUT && i == 1 && m->move &&
                      (!strcmp(m->move, "CHOOSE 1") || !strcmp(m->move, "CHOOSE 2"));
        if (cut || choose) {
            if (m->forced || (choose && m->nedits > 0) || (cut && m->nedits > 1))
                return fail(rd, "moves[%d]: a %s %s", i, cut ? "CUT" : "CHOOSE",
                            m->forced ? "cannot be forced" : "with edits it cannot have");
        } else if (!m->move || !(hole_valid(m->move, rd) || (swap && !m->forced))) {
            return fail(rd, "moves[%d].move: expected a hole of the %d x %d board%s, got %s", i,
                        ret->width, ret->height, m->forced ? " (a forced move)" : " or SWAP",
                        m->move ? quote(m->move, buf, sizeof(buf)) : "null");
        }
        if (m->nedits > 0 && (swap || m->forced))
            return fail(rd, "moves[%d].edits: expected none with %s", i,
                        m->forced ? "a forced move" : "SWAP");
        if (m->privilege && (ret->nplayers != 4 || swap || cut || choose || m->forced))
            return fail(rd, "moves[%d].privilege: only with a hole, in a game of teams", i);
        for (int e = 0; e < m->nedits; e++)
            if (!edit_valid(m->edits[e], rd, true))
                return fail(rd,
                            "moves[%d].edits[%d]: expected two holes a knight's move apart in "
                            "a move that was played, got %s",
                            i, e, quote(m->edits[e], buf, sizeof(buf)));
    }
    return 0;
}

/* "p1:" and 16 lower-case hex digits, or just the digits (hex_only). */
static bool hex_valid(const char *s, size_t digits)
{
    size_t n = 0;
    for (; s[n]; n++)
        if (!((s[n] >= '0' && s[n] <= '9') || (s[n] >= 'a' && s[n] <= 'f')))
            return false;
    return n == digits;
}

/* The game's identity in its pool (referee/pairing.h), when present. */
static int read_pairing(struct reader *rd, const cJSON *root, struct tx_record_pairing *p)
{
    char buf[64];
    const cJSON *obj = cJSON_GetObjectItemCaseSensitive(root, "pairing"), *bots = NULL;
    if (!obj)
        return 0;
    int64_t v = 0;
    int r;
    char *seed = NULL;
    if ((r = get_container(rd, root, "", "pairing", cJSON_Object, pairing_fields, &obj)) < 0 ||
        (r = get_string(rd, obj, "pairing.", "key", REQUIRED, 0, SIZE_MAX, &p->key)) < 0)
        return r;
    if (strncmp(p->key, "p1:", 3) || !hex_valid(p->key + 3, 16))
        return fail(rd, "pairing.key: expected \"p1:\" and 16 hex digits, got %s",
                    describe(cJSON_GetObjectItemCaseSensitive(obj, "key"), buf, sizeof(buf)));
    if ((r = get_int(rd, obj, "pairing.", "k", 1, TX_RECORD_GAME_MAX, &p->k, NULL)) < 0 ||
        (r = get_container(rd, obj, "pairing.", "bots", cJSON_Array, NULL, &bots)) < 0)
        return r;
    if (cJSON_GetArraySize(bots) != 2)
        return fail(rd, "pairing.bots: expected 2 bots, got %d", cJSON_GetArraySize(bots));
    for (int i = 0; i < 2; i++) {
        char prefix[32];
        const cJSON *bot = cJSON_GetArrayItem(bots, i);
        snprintf(prefix, sizeof prefix, "pairing.bots[%d].", i);
        if (!cJSON_IsObject(bot))
            return fail(rd, "pairing.bots[%d]: expected an object, got %s", i,
                        describe(bot, buf, sizeof(buf)));
        if ((r = check_fields(rd, bot, prefix, pairing_bot_fields)) < 0 ||
            (r = get_string(rd, bot, prefix, "name", REQUIRED, 1, TX_RECORD_NAME_CHARS,
                            &p->bots[i].name)) < 0 ||
            (r = get_string(rd, bot, prefix, "command", REQUIRED, 1, SIZE_MAX,
                            &p->bots[i].command)) < 0 ||
            (r = get_small_int(rd, bot, prefix, "memory_mb", 0, TX_LIMITS_MEMORY_MB_MAX,
                               &p->bots[i].memory_mb)) < 0)
            return r;
    }
    if ((r = get_string(rd, obj, "pairing.", "run_seed", REQUIRED, 1, 20, &seed)) < 0)
        return r;
    char *end = NULL;
    errno = 0;
    p->run_seed = strtoull(seed, &end, 10);
    bool seed_ok = seed[0] >= '0' && seed[0] <= '9' && !*end && errno == 0;
    free(seed);
    if (!seed_ok)
        return fail(rd,
                    "pairing.run_seed: expected a whole number from 0 to "
                    "18446744073709551615 in a string, got %s",
                    describe(cJSON_GetObjectItemCaseSensitive(obj, "run_seed"), buf, sizeof(buf)));
    if ((r = get_int(rd, obj, "pairing.", "openings", 0, 64, &v, NULL)) < 0 ||
        (r = get_string(rd, obj, "pairing.", "openings_file", OPTIONAL, 0, SIZE_MAX,
                        &p->openings_file)) < 0)
        return r;
    p->openings = (int)v;
    if (p->openings_file && !hex_valid(p->openings_file, 16))
        return fail(
            rd, "pairing.openings_file: expected 16 hex digits, got %s",
            describe(cJSON_GetObjectItemCaseSensitive(obj, "openings_file"), buf, sizeof(buf)));
    return 0;
}

/* The chain that ends a record's line in a file (referee/chain.h checks
 * it on the raw line): here only its shape. */
static int check_chain(struct reader *rd, const cJSON *root)
{
    const cJSON *chain = NULL;
    if (!cJSON_GetObjectItemCaseSensitive(root, "chain"))
        return 0;
    int r = get_container(rd, root, "", "chain", cJSON_Object, chain_fields, &chain);
    if (r < 0)
        return r;
    const char *const keys[] = {"prev", "hash"};
    for (int i = 0; i < 2; i++) {
        char buf[64];
        const cJSON *item = cJSON_GetObjectItemCaseSensitive(chain, keys[i]);
        if (!cJSON_IsString(item) || !hex_valid(item->valuestring, 32))
            return fail(rd, "chain.%s: expected 32 hex digits, got %s", keys[i],
                        describe(item, buf, sizeof(buf)));
    }
    return 0;
}

static int read_result(struct reader *rd, const cJSON *root, struct tx_record *ret)
{
    char buf[64];
    const cJSON *result = NULL;
    int r = get_container(rd, root, "", "result", cJSON_Object, result_fields, &result);
    if (r < 0)
        return r;
    char *reason = NULL;
    if ((r = get_string(rd, result, "result.", "reason", REQUIRED, 0, SIZE_MAX, &reason)) < 0)
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
    return get_string(rd, result, "result.", "detail", REQUIRED, 1, TX_RECORD_DETAIL_CHARS,
                      &ret->result.detail);
}

/* The board ("size" N, or "width" and "height" when they differ) and the
 * rules ("rules", absent for pp). One way of writing each, as the writer
 * writes it, so that a record has one text. */
static int read_board(struct reader *rd, const cJSON *root, struct tx_record *ret)
{
    char buf[64];
    int r;
    bool square = cJSON_GetObjectItemCaseSensitive(root, "size") != NULL;
    bool sides = cJSON_GetObjectItemCaseSensitive(root, "width") != NULL ||
                 cJSON_GetObjectItemCaseSensitive(root, "height") != NULL;
    if (square && sides)
        return fail(rd, "size: expected either size or width and height, got both");
    if (!sides) {
        if ((r = get_small_int(rd, root, "", "size", TX_SIDE_MIN, TX_SIDE_MAX, &ret->width)) < 0)
            return r;
        ret->height = ret->width;
    } else {
        if ((r = get_small_int(rd, root, "", "width", TX_SIDE_MIN, TX_SIDE_MAX, &ret->width)) < 0 ||
            (r = get_small_int(rd, root, "", "height", TX_SIDE_MIN, TX_SIDE_MAX, &ret->height)) < 0)
            return r;
        if (ret->width == ret->height)
            return fail(rd, "width: expected \"size\" for a square board, got width and height %d",
                        ret->width);
    }
    rd->width = ret->width;
    rd->height = ret->height;

    char *rules = NULL;
    if ((r = get_string(rd, root, "", "rules", OPTIONAL, 1, 16, &rules)) < 0)
        return r;
    int id = rules ? tx_rules_from_name(rules) : TX_RULES_PP;
    if (rules && (id < 0 || id == TX_RULES_PP)) {
        r = fail(rd, "rules: expected \"classic\" (pp games have no rules field), got %s",
                 quote(rules, buf, sizeof(buf)));
        free(rules);
        return r;
    }
    free(rules);
    ret->rules = rd->rules = (enum tx_rules)id;

    char *opening = NULL;
    if ((r = get_string(rd, root, "", "opening", OPTIONAL, 1, 16, &opening)) < 0)
        return r;
    id = opening ? tx_opening_rule_from_name(opening) : TX_OPENING_SWAP;
    if (opening && (id < 0 || id == TX_OPENING_SWAP)) {
        r = fail(rd,
                 "opening: expected \"pie\", \"cut\" or \"none\" (games with the mirror swap "
                 "have no opening field), got %s",
                 quote(opening, buf, sizeof(buf)));
        free(opening);
        return r;
    }
    free(opening);
    ret->opening = (enum tx_opening_rule)id;
    rd->opening = id;
    return 0;
}

/* "teams": absent for two bots, or the two teams' names (Double TwixT:
 * then four players). */
static int read_teams(struct reader *rd, const cJSON *root, struct tx_record *ret)
{
    char buf[64];
    const cJSON *teams = cJSON_GetObjectItemCaseSensitive(root, "teams");
    rd->nplayers = 2;
    if (!teams)
        return 0;
    if (!cJSON_IsArray(teams) || cJSON_GetArraySize(teams) != 2)
        return fail(rd, "teams: expected an array of the two teams' names, got %s",
                    describe(teams, buf, sizeof(buf)));
    for (int t = 0; t < 2; t++) {
        const cJSON *name = cJSON_GetArrayItem(teams, t);
        if (!cJSON_IsString(name) || !name->valuestring[0] ||
            tx_text_chars(name->valuestring) > TX_RECORD_NAME_CHARS)
            return fail(rd, "teams[%d]: expected a name of 1 to %d characters, got %s", t,
                        TX_RECORD_NAME_CHARS, describe(name, buf, sizeof(buf)));
        ret->teams[t] = tx_strdup(name->valuestring);
    }
    rd->nplayers = 4;
    return 0;
}

static int read_record(struct reader *rd, const cJSON *root, struct tx_record *ret)
{
    char buf[64];
    int64_t v = 0;
    int r;
    /* Another format first: its fields are not ours to judge. */
    const cJSON *format = cJSON_GetObjectItemCaseSensitive(root, "format");
    if (cJSON_IsString(format) && strcmp(format->valuestring, TX_RECORD_FORMAT) != 0)
        return fail(rd, "format: expected \"%s\", got %s", TX_RECORD_FORMAT,
                    describe(format, buf, sizeof(buf)));
    if ((r = check_fields(rd, root, "", record_fields)) < 0 ||
        (r = get_string(rd, root, "", "format", REQUIRED, 0, SIZE_MAX, &ret->format)) < 0)
        return r;
    if ((r = get_int(rd, root, "", "game", 1, TX_RECORD_GAME_MAX, &ret->game, NULL)) < 0 ||
        (r = get_int(rd, root, "", "seed", 0, (int64_t)TX_RECORD_SEED_MAX, &v, NULL)) < 0)
        return r;
    ret->seed = (uint64_t)v;
    if ((r = read_board(rd, root, ret)) < 0)
        return r;

    const cJSON *limits = NULL;
    if ((r = get_container(rd, root, "", "limits", cJSON_Object, limits_fields, &limits)) < 0 ||
        (r = get_small_int(rd, limits, "limits.", "first_turn_ms", 1, TX_LIMITS_MS_MAX,
                           &ret->limits.first_turn_ms)) < 0 ||
        (r = get_small_int(rd, limits, "limits.", "turn_ms", 1, TX_LIMITS_MS_MAX,
                           &ret->limits.turn_ms)) < 0 ||
        (r = get_small_int(rd, limits, "limits.", "margin_ms", 0, TX_LIMITS_MS_MAX,
                           &ret->limits.margin_ms)) < 0 ||
        (r = get_bool(rd, limits, "limits.", "soft", &ret->limits.soft)) < 0)
        return r;
    if ((r = get_string(rd, root, "", "referee", REQUIRED, 1, TX_RECORD_REFEREE_CHARS,
                        &ret->referee)) < 0 ||
        (r = get_string(rd, root, "", "started", REQUIRED, 0, SIZE_MAX, &ret->started)) < 0)
        return r;
    if (!utc_time_valid(ret->started))
        return fail(rd, "started: expected a UTC time like \"2026-11-21T21:00:00Z\", got %s",
                    quote(ret->started, buf, sizeof(buf)));
    if ((r = get_string(rd, root, "", "run", OPTIONAL, 0, SIZE_MAX, &ret->run)) < 0)
        return r;
    if (ret->run && !run_valid(ret->run))
        return fail(rd,
                    "run: expected a run fingerprint like \"v1:89baa79292a262c3\" or "
                    "\"validate\", got %s",
                    quote(ret->run, buf, sizeof(buf)));
    if ((r = read_pairing(rd, root, &ret->pairing)) < 0 ||
        (r = get_bool(rd, root, "", "sandbox", &ret->sandbox)) < 0 ||
        (r = check_chain(rd, root)) < 0)
        return r;

    if ((r = get_string(rd, root, "", "handicap", OPTIONAL, 1, TX_RECORD_NAME_CHARS,
                        &ret->handicap)) < 0 ||
        (r = read_teams(rd, root, ret)) < 0)
        return r;
    const cJSON *players = NULL;
    if ((r = get_container(rd, root, "", "players", cJSON_Array, NULL, &players)) < 0)
        return r;
    ret->nplayers = rd->nplayers;
    if (cJSON_GetArraySize(players) != ret->nplayers)
        return fail(rd, "players: expected %d players%s, got %d", ret->nplayers,
                    ret->nplayers == 4 ? " (teams)" : "", cJSON_GetArraySize(players));
    for (int i = 0; i < ret->nplayers; i++)
        if ((r = read_player(rd, cJSON_GetArrayItem(players, i), i, &ret->players[i])) < 0)
            return r;

    const cJSON *moves = NULL;
    if ((r = get_container(rd, root, "", "moves", cJSON_Array, NULL, &moves)) < 0)
        return r;
    int n = cJSON_GetArraySize(moves);
    int max = tx_record_moves_max(ret->width, ret->height);
    if (n > max)
        return fail(rd, "moves: expected at most %d entries on a %d x %d board, got %d", max,
                    ret->width, ret->height, n);
    ret->moves = tx_xcalloc((size_t)n, sizeof(*ret->moves));
    const cJSON *move;
    cJSON_ArrayForEach(move, moves)
    {
        /* counted first, so that tx_record_free frees a half-read move */
        ret->nmoves++;
        if ((r = read_move(rd, move, ret->nmoves - 1, &ret->moves[ret->nmoves - 1])) < 0)
            return r;
    }
    if ((r = read_result(rd, root, ret)) < 0)
        return r;
    return check_played(rd, ret);
}

/* The byte offset of a \u0000 escape in text, or -1: cJSON would decode it
 * into a NUL that ends the C string early, so that the loader and other
 * readers would see two different strings. Every backslash of valid JSON
 * starts an escape inside a string, so skipping the escaped character is
 * enough to tell "\\u0000" (text) from "\u0000". */
static long nul_escape(const char *text, size_t len)
{
    for (size_t i = 0; i + 1 < len; i++) {
        if (text[i] != '\\')
            continue;
        if (text[i + 1] == 'u' && i + 6 <= len && memcmp(text + i + 2, "0000", 4) == 0)
            return (long)i;
        i++;
    }
    return -1;
}

int tx_record_from_json(const char *text, size_t len, struct tx_record *ret, char *err,
                        size_t errcap)
{
    struct reader rd = {err, errcap, TX_SIDE_MIN, TX_SIDE_MIN, TX_RULES_PP, TX_OPENING_SWAP, 2};
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
    long nul = nul_escape(text, at);
    while (at < len &&
           (text[at] == ' ' || text[at] == '\t' || text[at] == '\r' || text[at] == '\n'))
        at++;
    if (at < len && text[at] != '\0')
        r = fail(&rd, "invalid JSON: unexpected text after the record at byte %zu", at + 1);
    else if (!cJSON_IsObject(root))
        r = fail(&rd, "expected a JSON object, got %s", describe(root, buf, sizeof(buf)));
    else if (nul >= 0)
        r = fail(&rd, "a string holds \\u0000 (NUL) at byte %ld", nul + 1);
    else
        r = read_record(&rd, root, ret);
    cJSON_Delete(root);
    return r;
}
