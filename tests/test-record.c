/* test-record.c - the game record: round trips, malformed input, bounds.
 *
 * Tampered records are a table shared with the schema's test
 * (tests/data/tampered-records.json): each case changes one thing in a
 * valid record, and here the loader must refuse it with a message naming
 * the field; tests/test-schema.py checks that protocol/game-record.schema.json
 * refuses the same records with a real JSON Schema validator, so the loader
 * and the schema cannot drift apart. The schema's bounds are compared with
 * record.h's constants here.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "alloc.h"
#include "bot-limits.h"
#include "geometry.h"
#include "record.h"

/* ---- a referee-like record ---- */

static char *dup_or_null(const char *s)
{
    return s ? tx_strdup(s) : NULL;
}

static void add_move(struct tx_record *r, int player, const char *move, long us,
                     const char *message, bool cut, bool forced, const char *err_text)
{
    r->moves = realloc(r->moves, (size_t)(r->nmoves + 1) * sizeof(*r->moves));
    ck_assert_ptr_nonnull(r->moves);
    struct tx_record_move *m = &r->moves[r->nmoves++];
    memset(m, 0, sizeof *m);
    m->player = player;
    m->move = dup_or_null(move);
    m->us = us;
    m->message = dup_or_null(message);
    m->message_cut = cut;
    m->forced = forced;
    m->stderr_text = dup_or_null(err_text);
}

/* Every field set, every optional one used somewhere. */
static void make_full(struct tx_record *r)
{
    memset(r, 0, sizeof(*r));
    r->format = tx_strdup(TX_RECORD_FORMAT);
    r->game = 17;
    r->seed = UINT64_C(9007199254740991); /* the largest seed that survives a double */
    r->width = r->height = 12;
    r->limits.first_turn_ms = 1000;
    r->limits.turn_ms = 300;
    r->limits.margin_ms = 5;
    r->limits.soft = true;
    r->referee = tx_strdup("twixt-arena 0.1.0");
    r->started = tx_strdup("2026-11-21T21:00:00Z");
    r->run = tx_strdup("v1:00000000c0ffee00");
    const char *names[2] = {"greedy", "r\xc3\xa9mi \"quoted\""};
    for (int i = 0; i < 2; i++) {
        struct tx_record_player *p = &r->players[i];
        p->name = tx_strdup(names[i]);
        p->command = tx_strdup(i ? "python3 bot.py --depth 3" : "build/bots/twixt-greedy");
        p->sha256 =
            i ? NULL
              : tx_strdup("9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08");
        p->stderr_bytes = i ? 123456789012 : 0;
        p->extra_lines = i * 3;
    }
    r->players[0].nlinks = 2;
    r->players[0].links = calloc(2, sizeof(*r->players[0].links));
    strcpy(r->players[0].links[0], "D6 E8");
    strcpy(r->players[0].links[1], "H10 G12");
    add_move(r, 0, "F6", -1, NULL, false, true, NULL);
    add_move(r, 1, "SWAP", 2048, "tab\there\nnewline 123", true, false, "debug: line 1\n");
    add_move(r, 0, "H10", 1234, "hello", false, false, NULL);
    add_move(r, 1, NULL, 300000, NULL, false, false, "slow");
    r->result.winner = 0;
    r->result.reason = TX_REASON_TIMEOUT;
    r->result.detail = tx_strdup("no answer within 300 ms");
}

static char *full_json(void)
{
    struct tx_record r;
    char *text = NULL;
    make_full(&r);
    ck_assert_int_eq(tx_record_to_json(&r, &text), 0);
    tx_record_free(&r);
    return text;
}

static void assert_str_eq_or_null(const char *a, const char *b)
{
    if (!a || !b)
        ck_assert_ptr_eq(a, b);
    else
        ck_assert_str_eq(a, b);
}

START_TEST(record_round_trip)
{
    struct tx_record a, b;
    char *text = NULL, *again = NULL, err[256];
    make_full(&a);
    ck_assert_int_eq(tx_record_to_json(&a, &text), 0);
    ck_assert_ptr_null(strchr(text, '\n'));
    ck_assert_int_eq(tx_record_from_json(text, strlen(text), &b, err, sizeof(err)), 0);
    ck_assert_str_eq(err, "");

    ck_assert_str_eq(b.format, a.format);
    ck_assert_int_eq(b.game, a.game);
    ck_assert_uint_eq(b.seed, a.seed);
    ck_assert_int_eq(b.width, a.width);
    ck_assert_int_eq(b.height, a.height);
    ck_assert_int_eq(b.rules, a.rules);
    ck_assert_int_eq(b.limits.first_turn_ms, 1000);
    ck_assert_int_eq(b.limits.turn_ms, 300);
    ck_assert_int_eq(b.limits.margin_ms, 5);
    ck_assert(b.limits.soft);
    ck_assert_str_eq(b.referee, a.referee);
    ck_assert_str_eq(b.started, a.started);
    ck_assert_str_eq(b.run, a.run);
    for (int i = 0; i < 2; i++) {
        ck_assert_str_eq(b.players[i].name, a.players[i].name);
        ck_assert_str_eq(b.players[i].command, a.players[i].command);
        assert_str_eq_or_null(b.players[i].sha256, a.players[i].sha256);
        ck_assert_int_eq(b.players[i].stderr_bytes, a.players[i].stderr_bytes);
        ck_assert_int_eq(b.players[i].extra_lines, a.players[i].extra_lines);
        ck_assert_int_eq(b.players[i].nlinks, a.players[i].nlinks);
        for (int k = 0; k < a.players[i].nlinks; k++)
            ck_assert_str_eq(b.players[i].links[k], a.players[i].links[k]);
    }
    ck_assert_int_eq(b.nmoves, a.nmoves);
    for (int i = 0; i < a.nmoves; i++) {
        ck_assert_int_eq(b.moves[i].player, a.moves[i].player);
        assert_str_eq_or_null(b.moves[i].move, a.moves[i].move);
        ck_assert_int_eq(b.moves[i].us, a.moves[i].us);
        assert_str_eq_or_null(b.moves[i].message, a.moves[i].message);
        ck_assert_int_eq(b.moves[i].message_cut, a.moves[i].message_cut);
        ck_assert_int_eq(b.moves[i].forced, a.moves[i].forced);
        assert_str_eq_or_null(b.moves[i].stderr_text, a.moves[i].stderr_text);
    }
    ck_assert_int_eq(b.result.winner, 0);
    ck_assert_int_eq(b.result.reason, TX_REASON_TIMEOUT);
    ck_assert_str_eq(b.result.detail, a.result.detail);

    /* writing what was read gives the same bytes */
    ck_assert_int_eq(tx_record_to_json(&b, &again), 0);
    ck_assert_str_eq(again, text);
    free(text);
    free(again);
    tx_record_free(&a);
    tx_record_free(&b);
    ck_assert_ptr_null(b.moves); /* freed records are zeroed */
    tx_record_free(&b);          /* and may be freed again */
}
END_TEST

START_TEST(record_omits_empty_optional_fields)
{
    struct tx_record r;
    char *text = NULL, err[256];
    make_full(&r);
    free(r.run);
    r.run = NULL;
    ck_assert_int_eq(tx_record_to_json(&r, &text), 0);
    ck_assert_ptr_null(strstr(text, "\"run\""));
    /* move 3 (H10) has no stderr, no flags; move 4 (null) no message */
    const char *m3 =
        strstr(text, "{\"player\":0,\"move\":\"H10\",\"us\":1234,\"message\":\"hello\"}");
    ck_assert_ptr_nonnull(m3);
    ck_assert_ptr_nonnull(
        strstr(text, "{\"player\":1,\"move\":null,\"us\":300000,\"stderr\":\"slow\"}"));
    ck_assert_ptr_nonnull(strstr(text, "\"seed\":9007199254740991,"));
    tx_record_free(&r);
    ck_assert_int_eq(tx_record_from_json(text, strlen(text), &r, err, sizeof(err)), 0);
    ck_assert_ptr_null(r.run);
    ck_assert_ptr_null(r.moves[2].stderr_text);
    ck_assert(!r.moves[2].forced && !r.moves[2].message_cut);
    free(text);
    tx_record_free(&r);
}
END_TEST

START_TEST(record_draw_has_null_winner)
{
    struct tx_record r;
    char *text = NULL, err[256];
    make_full(&r);
    r.moves[3].move = tx_strdup("B5"); /* a draw ends on a played move */
    r.result.winner = -1;
    r.result.reason = TX_REASON_DRAW;
    ck_assert_int_eq(tx_record_to_json(&r, &text), 0);
    ck_assert_ptr_nonnull(strstr(text, "\"result\":{\"winner\":null,\"reason\":\"draw\""));
    tx_record_free(&r);
    ck_assert_int_eq(tx_record_from_json(text, strlen(text), &r, err, sizeof(err)), 0);
    ck_assert_int_eq(r.result.winner, -1);
    ck_assert_int_eq(r.result.reason, TX_REASON_DRAW);
    free(text);
    tx_record_free(&r);
}
END_TEST

START_TEST(record_reason_names)
{
    for (int i = TX_REASON_CONNECTION; i <= TX_REASON_INTERRUPTED; i++)
        ck_assert_int_eq(tx_reason_from_name(tx_reason_name((enum tx_reason)i)), i);
    ck_assert_str_eq(tx_reason_name(TX_REASON_CRASH), "crash");
    ck_assert_ptr_null(tx_reason_name((enum tx_reason)99));
    ck_assert_int_eq(tx_reason_from_name("Connection"), -1);
    ck_assert_int_eq(tx_reason_from_name(NULL), -1);
    ck_assert_ptr_null(tx_strdup(NULL));
}
END_TEST

/* The minimal record DESIGN.md shows, plus the required size, referee and
 * started: optional fields absent load with their defaults. */
START_TEST(record_minimal_loads_with_defaults)
{
    const char *text =
        "{\"format\":\"twixt-arena/game/1\",\"game\":1,\"seed\":42,\"size\":12,"
        "\"limits\":{\"first_turn_ms\":1000,\"turn_ms\":300,\"margin_ms\":0},"
        "\"referee\":\"x\",\"started\":\"2026-11-21T21:00:00Z\","
        "\"players\":[{\"name\":\"a\",\"command\":\"a\",\"sha256\":null},"
        "{\"name\":\"b\",\"command\":\"b\",\"sha256\":null}],"
        "\"moves\":[],\"result\":{\"winner\":1,\"reason\":\"crash\",\"detail\":\"exit 1\"}}\n";
    struct tx_record r;
    char err[256];
    ck_assert_int_eq(tx_record_from_json(text, strlen(text), &r, err, sizeof(err)), 0);
    ck_assert(!r.limits.soft);
    ck_assert_ptr_null(r.run);
    ck_assert_int_eq(r.players[0].nlinks, 0);
    ck_assert_int_eq(r.players[1].stderr_bytes, 0);
    ck_assert_int_eq(r.nmoves, 0);
    ck_assert_int_eq(r.result.winner, 1);
    tx_record_free(&r);
}
END_TEST

/* ---- tampered records (tests/data/tampered-records.json) ---- */

static cJSON *tampered; /* the file, read once by main() */

static char *read_whole(const char *path)
{
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "cannot open %s", path);
    ck_assert_int_eq(fseek(f, 0, SEEK_END), 0);
    long n = ftell(f);
    ck_assert_int_ge(n, 0);
    rewind(f);
    char *buf = malloc((size_t)n + 1);
    ck_assert_ptr_nonnull(buf);
    ck_assert_uint_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

static char *source_path(const char *rel)
{
    const char *dir = getenv("TX_SOURCE_DIR");
    char *path = malloc(4096);
    ck_assert_ptr_nonnull(path);
    snprintf(path, 4096, "%s/%s", dir ? dir : "..", rel);
    return path;
}

static cJSON *load_json(const char *rel)
{
    char *path = source_path(rel);
    char *text = read_whole(path);
    cJSON *json = cJSON_Parse(text);
    ck_assert_msg(json != NULL, "%s is not valid JSON", path);
    free(text);
    free(path);
    return json;
}

/* Finds the parent of path ("moves.1.us") in root and the last token. */
static cJSON *walk(cJSON *root, const char *path, char *last, size_t cap)
{
    char buf[128];
    snprintf(buf, sizeof(buf), "%s", path);
    cJSON *node = root;
    char *save = NULL, *tok = strtok_r(buf, ".", &save), *next;
    while ((next = strtok_r(NULL, ".", &save))) {
        node = cJSON_IsArray(node) ? cJSON_GetArrayItem(node, atoi(tok))
                                   : cJSON_GetObjectItemCaseSensitive(node, tok);
        ck_assert_msg(node != NULL, "no %s in the base record", path);
        tok = next;
    }
    snprintf(last, cap, "%s", tok);
    return node;
}

/* Sets parent[last] to value (adding it to an object if absent), or
 * deletes it when value is NULL. */
static void put(cJSON *parent, const char *last, cJSON *value)
{
    if (cJSON_IsArray(parent)) {
        if (value)
            cJSON_ReplaceItemInArray(parent, atoi(last), value);
        else
            cJSON_DeleteItemFromArray(parent, atoi(last));
    } else if (!value) {
        cJSON_DeleteItemFromObjectCaseSensitive(parent, last);
    } else if (cJSON_GetObjectItemCaseSensitive(parent, last)) {
        cJSON_ReplaceItemInObjectCaseSensitive(parent, last, value);
    } else {
        cJSON_AddItemToObject(parent, last, value);
    }
}

/* repeat [x, n]: an array of n copies of x; chars [s, n]: s n times. */
static cJSON *repeat(const cJSON *spec, bool chars)
{
    const cJSON *x = cJSON_GetArrayItem(spec, 0);
    int n = cJSON_GetArrayItem(spec, 1)->valueint;
    if (chars) {
        size_t len = strlen(x->valuestring);
        char *s = malloc(len * (size_t)n + 1);
        for (int i = 0; i < n; i++)
            memcpy(s + len * (size_t)i, x->valuestring, len);
        s[len * (size_t)n] = '\0';
        cJSON *out = cJSON_CreateString(s);
        free(s);
        return out;
    }
    cJSON *out = cJSON_CreateArray();
    for (int i = 0; i < n; i++)
        cJSON_AddItemToArray(out, cJSON_Duplicate(x, true));
    return out;
}

/* text with the first old replaced by new (old must be there). */
static char *replace_in(char *text, const char *old, const char *new)
{
    char *at = strstr(text, old);
    ck_assert_msg(at != NULL, "no %s in the record", old);
    size_t len = strlen(text), nold = strlen(old), nnew = strlen(new);
    char *out = malloc(len - nold + nnew + 1);
    memcpy(out, text, (size_t)(at - text));
    memcpy(out + (at - text), new, nnew);
    strcpy(out + (at - text) + nnew, at + nold);
    free(text);
    return out;
}

#define RAW_MARK "@raw@"

/* The compact text of the base record with case c applied (as the file's
 * description says). */
static char *tampered_text(const cJSON *c)
{
    cJSON *root = cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(tampered, "base"), true);
    const cJSON *path = cJSON_GetObjectItemCaseSensitive(c, "path");
    const cJSON *raw = cJSON_GetObjectItemCaseSensitive(c, "raw");
    if (path) {
        char last[64];
        cJSON *parent = walk(root, path->valuestring, last, sizeof(last));
        const cJSON *value = cJSON_GetObjectItemCaseSensitive(c, "value");
        const cJSON *rep = cJSON_GetObjectItemCaseSensitive(c, "repeat");
        const cJSON *chars = cJSON_GetObjectItemCaseSensitive(c, "chars");
        cJSON *item = value   ? cJSON_Duplicate(value, true)
                      : rep   ? repeat(rep, false)
                      : chars ? repeat(chars, true)
                      : raw   ? cJSON_CreateString(RAW_MARK)
                              : NULL;
        ck_assert(item || cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(c, "delete")));
        put(parent, last, item);
    }
    char *text = cJSON_PrintUnformatted(root);
    cJSON_Delete(root);
    if (raw)
        text = replace_in(text, "\"" RAW_MARK "\"", raw->valuestring);
    const cJSON *old = cJSON_GetObjectItemCaseSensitive(c, "old");
    if (old)
        text = replace_in(text, old->valuestring,
                          cJSON_GetObjectItemCaseSensitive(c, "new")->valuestring);
    return text;
}

static int ntampered(void)
{
    return cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(tampered, "cases"));
}

/* The base loads, and writes back to the same record. */
START_TEST(record_tampered_base_loads)
{
    char *text = cJSON_PrintUnformatted(cJSON_GetObjectItemCaseSensitive(tampered, "base"));
    struct tx_record r;
    char err[256], *again = NULL;
    ck_assert_msg(tx_record_from_json(text, strlen(text), &r, err, sizeof(err)) == 0, "%s", err);
    ck_assert_int_eq(tx_record_to_json(&r, &again), 0);
    ck_assert_str_eq(again, text);
    free(again);
    free(text);
    tx_record_free(&r);
}
END_TEST

START_TEST(record_tampered_refused)
{
    const cJSON *c = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(tampered, "cases"), _i);
    const char *want = cJSON_GetObjectItemCaseSensitive(c, "loader")->valuestring;
    const cJSON *what = cJSON_GetObjectItemCaseSensitive(c, "what");
    const cJSON *path = cJSON_GetObjectItemCaseSensitive(c, "path");
    const char *name = what ? what->valuestring : path ? path->valuestring : "?";
    char *text = tampered_text(c), err[512];
    struct tx_record r;
    int ret = tx_record_from_json(text, strlen(text), &r, err, sizeof(err));
    ck_assert_msg(ret == -EINVAL, "case %d (%s): accepted", _i, name);
    ck_assert_msg(strncmp(err, want, strlen(want)) == 0,
                  "case %d (%s): got \"%s\", expected \"%s\"", _i, name, err, want);
    tx_record_free(&r);
    free(text);
}
END_TEST

static void assert_fails(const char *text, size_t len, const char *want)
{
    struct tx_record r;
    char err[256];
    ck_assert_int_eq(tx_record_from_json(text, len, &r, err, sizeof(err)), -EINVAL);
    ck_assert_msg(strstr(err, want) != NULL, "got \"%s\", expected \"%s\"", err, want);
    tx_record_free(&r);
}

START_TEST(record_not_an_object)
{
    assert_fails("[]", 2, "expected a JSON object, got an array");
    assert_fails("42", 2, "expected a JSON object, got 42");
    assert_fails("\"x\"", 3, "expected a JSON object, got \"x\"");
    assert_fails("null", 4, "expected a JSON object, got null");
    assert_fails("", 0, "invalid JSON: empty text");
    assert_fails("   \n", 4, "invalid JSON: empty text");
    assert_fails("{\"format\" \"x\"}", 14, "invalid JSON at byte");
    assert_fails("{} {}", 5, "unexpected text after the record at byte 4");
}
END_TEST

START_TEST(record_truncated_every_length)
{
    char *text = full_json();
    size_t len = strlen(text);
    for (size_t n = 0; n < len; n++) {
        struct tx_record r;
        char err[256];
        /* an unterminated copy, so that reading past n is caught by ASan */
        char *cut = malloc(n ? n : 1);
        memcpy(cut, text, n);
        ck_assert_int_eq(tx_record_from_json(cut, n, &r, err, sizeof(err)), -EINVAL);
        ck_assert(err[0] != '\0');
        tx_record_free(&r);
        free(cut);
    }
    assert_fails(text, len - 1, "ends early");
    assert_fails(text, len / 2, "(truncated record?)");
    free(text);
}
END_TEST

/* Text that does not even start like a record is not called truncated:
 * "not json" was reported as "the text ends early at byte 8 (truncated
 * record?)", sending the user to look for a killed writer. */
START_TEST(record_garbage_is_not_called_truncated)
{
    assert_fails("not json", 8, "invalid JSON at byte 1");
    assert_fails("[1, 2", 5, "invalid JSON at byte");
}
END_TEST

/* No crash or leak whatever one byte becomes; what loads must write again. */
START_TEST(record_byte_flips_never_crash)
{
    static const char replacements[] = {'"', '{', '}', '[', ']',  ',',        ':',       '\\',
                                        '0', '9', 'x', ' ', '\0', (char)0xff, (char)0xc3};
    char *text = full_json();
    size_t len = strlen(text);
    int loaded = 0;
    for (size_t i = 0; i < len; i++) {
        for (size_t k = 0; k < sizeof(replacements); k++) {
            char *copy = malloc(len);
            memcpy(copy, text, len);
            copy[i] = replacements[k];
            struct tx_record r;
            char err[256];
            if (tx_record_from_json(copy, len, &r, err, sizeof(err)) == 0) {
                char *out = NULL;
                ck_assert_int_eq(tx_record_to_json(&r, &out), 0);
                free(out);
                loaded++;
            } else {
                ck_assert(err[0] != '\0');
            }
            tx_record_free(&r);
            free(copy);
        }
    }
    ck_assert_int_gt(loaded, 0); /* some flips (inside strings) are harmless */
    free(text);
}
END_TEST

START_TEST(record_invalid_utf8_and_deep_nesting)
{
    char *text = replace_in(full_json(), "\"greedy\"", "\"ok\"");
    char *at = strstr(text, "\"ok\"");
    at[1] = (char)0xc3; /* a lead byte followed by 'k' */
    assert_fails(text, strlen(text), "players[0].name: expected valid UTF-8 text");
    free(text);

    size_t depth = 100000;
    char *deep = malloc(2 * depth);
    memset(deep, '[', depth);
    memset(deep + depth, ']', depth);
    assert_fails(deep, 2 * depth, "invalid JSON");
    free(deep);
}
END_TEST

/* A hostile object of many fields costs no more than a small one: the
 * first unknown or repeated field ends the reading. */
START_TEST(record_many_fields_refused_early)
{
    size_t n = 200000;
    char *text = malloc(n * 12 + 64);
    size_t len = (size_t)sprintf(text, "{\"format\":\"twixt-arena/game/1\"");
    for (size_t i = 0; i < n; i++)
        len += (size_t)sprintf(text + len, ",\"game\":%zu", i % 10);
    strcpy(text + len, "}");
    assert_fails(text, strlen(text), "game: the field appears twice");
    free(text);
}
END_TEST

/* ---- the writer keeps within the bounds it is read back with ---- */

/* Measurements beyond the bounds are written as the bound; -1 is written
 * for forced moves only. */
START_TEST(record_writer_clamps_measurements)
{
    struct tx_record r, back;
    char *text = NULL, err[256];
    make_full(&r);
    r.moves[0].us = 5;                            /* forced: not timed */
    r.moves[2].us = INT64_MAX;                    /* the referee stopped for days */
    r.moves[3].us = -7;                           /* cannot happen; never negative */
    r.players[1].stderr_bytes = INT64_C(1) << 60; /* a flood */
    r.players[1].extra_lines = -1;
    ck_assert_int_eq(tx_record_to_json(&r, &text), 0);
    ck_assert_msg(tx_record_from_json(text, strlen(text), &back, err, sizeof(err)) == 0, "%s", err);
    ck_assert_int_eq(back.moves[0].us, -1);
    ck_assert_int_eq(back.moves[2].us, TX_RECORD_US_MAX);
    ck_assert_int_eq(back.moves[3].us, 0);
    ck_assert_int_eq(back.players[1].stderr_bytes, TX_RECORD_STDERR_BYTES_MAX);
    ck_assert_int_eq(back.players[1].extra_lines, 0);
    r.players[1].extra_lines = INT32_MAX;
    free(text);
    tx_record_free(&back);
    ck_assert_int_eq(tx_record_to_json(&r, &text), 0);
    ck_assert_msg(tx_record_from_json(text, strlen(text), &back, err, sizeof(err)) == 0, "%s", err);
    ck_assert_int_eq(back.players[1].extra_lines, TX_RECORD_EXTRA_LINES_MAX);
    free(text);
    tx_record_free(&back);
    r.players[1].extra_lines = (INT64_C(1) << 32) + 1; /* a flood an int could not count */
    ck_assert_int_eq(tx_record_to_json(&r, &text), 0);
    ck_assert_msg(tx_record_from_json(text, strlen(text), &back, err, sizeof(err)) == 0, "%s", err);
    ck_assert_int_eq(back.players[1].extra_lines, TX_RECORD_EXTRA_LINES_MAX);
    free(text);
    tx_record_free(&back);
    tx_record_free(&r);
}
END_TEST

static char *repeated(const char *s, int n)
{
    size_t len = strlen(s);
    char *out = malloc(len * (size_t)n + 1);
    for (int i = 0; i < n; i++)
        memcpy(out + len * (size_t)i, s, len);
    out[len * (size_t)n] = '\0';
    return out;
}

/* Text is cut at its bound on a character boundary and made valid UTF-8;
 * an empty message is left out, and so is a cut mark on a message too short
 * to have been cut. */
START_TEST(record_writer_cuts_text)
{
    struct tx_record r, back;
    char *text = NULL, err[256];
    make_full(&r);
    free(r.players[0].name);
    r.players[0].name = repeated("\xc3\xa9", TX_RECORD_NAME_CHARS + 5); /* é */
    free(r.players[1].command);
    r.players[1].command = tx_strdup("bot\xff --x");
    free(r.referee);
    r.referee = repeated("r", 100);
    free(r.result.detail);
    r.result.detail = repeated("d", 5000);
    free(r.moves[2].message);
    r.moves[2].message = repeated("m", 30);
    free(r.moves[3].stderr_text);
    r.moves[3].stderr_text = repeated("e", TX_RECORD_STDERR_CHARS + 1);
    free(r.moves[3].move);
    r.moves[3].move = repeated("x", 100);
    free(r.moves[1].message);
    r.moves[1].message = tx_strdup(""); /* said to be cut, yet empty */
    free(r.moves[0].message);
    r.moves[0].message = tx_strdup("short");
    r.moves[0].message_cut = true; /* said to be cut, yet short */
    ck_assert_int_eq(tx_record_to_json(&r, &text), 0);
    ck_assert_ptr_null(strstr(text, "\"message\":\"\""));
    ck_assert_ptr_null(strstr(text, "\"message_cut\""));
    ck_assert_msg(tx_record_from_json(text, strlen(text), &back, err, sizeof(err)) == 0, "%s", err);
    char *name = repeated("\xc3\xa9", TX_RECORD_NAME_CHARS);
    ck_assert_str_eq(back.players[0].name, name);
    ck_assert_str_eq(back.players[1].command, "bot\xef\xbf\xbd --x");
    ck_assert_uint_eq(strlen(back.referee), TX_RECORD_REFEREE_CHARS);
    ck_assert_uint_eq(strlen(back.result.detail), TX_RECORD_DETAIL_CHARS);
    ck_assert_uint_eq(strlen(back.moves[2].message), TX_MESSAGE_CHARS);
    ck_assert_uint_eq(strlen(back.moves[3].stderr_text), TX_RECORD_STDERR_CHARS);
    ck_assert_uint_eq(strlen(back.moves[3].move), TX_RECORD_MOVE_CHARS);
    ck_assert_ptr_null(back.moves[1].message);
    ck_assert(!back.moves[1].message_cut && !back.moves[0].message_cut);
    free(name);
    free(text);
    tx_record_free(&back);
    tx_record_free(&r);
}
END_TEST

/* Holes at the edges of the largest and smallest boards load: rows with two
 * digits, the last letter, every hole next to a corner. */
START_TEST(record_holes_at_board_edges)
{
    static const struct {
        int size;
        const char *link, *move;
        bool ok;
    } cases[] = {
        {26, "Z25 X26", "Z25", true}, {26, "A2 C1", "Y26", true},  {26, "Z26 X25", "Z26", false},
        {5, "E4 C5", "E2", true},     {5, "E5 C4", "B5", false},   {5, "F2 D3", "F2", false},
        {12, "L11 J12", "L2", true},  {12, "A1 C2", "A12", false}, {12, "B13 A11", "B13", false},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct tx_record r, back;
        char *text = NULL, err[256];
        make_full(&r);
        r.width = r.height = cases[i].size;
        strcpy(r.players[0].links[0], "B2 C4"); /* on every board */
        strcpy(r.players[0].links[1], cases[i].link);
        free(r.moves[0].move);
        r.moves[0].move = tx_strdup("C3");
        free(r.moves[2].move);
        r.moves[2].move = tx_strdup(cases[i].move);
        ck_assert_int_eq(tx_record_to_json(&r, &text), 0);
        int ret = tx_record_from_json(text, strlen(text), &back, err, sizeof(err));
        ck_assert_msg((ret == 0) == cases[i].ok, "size %d, link %s, move %s: %s", cases[i].size,
                      cases[i].link, cases[i].move, ret ? err : "loaded");
        free(text);
        tx_record_free(&back);
        tx_record_free(&r);
    }
}
END_TEST

/* ---- the schema states the loader's bounds ---- */

static const cJSON *at(const cJSON *node, const char *path)
{
    char buf[256];
    snprintf(buf, sizeof(buf), "%s", path);
    char *save = NULL;
    for (char *tok = strtok_r(buf, "/", &save); tok; tok = strtok_r(NULL, "/", &save)) {
        node = cJSON_GetObjectItemCaseSensitive(node, tok);
        ck_assert_msg(node != NULL, "no %s in the schema", path);
    }
    return node;
}

static void assert_number(const cJSON *schema, const char *path, double want)
{
    const cJSON *n = at(schema, path);
    ck_assert_msg(cJSON_IsNumber(n) && n->valuedouble == want,
                  "schema %s is %g, record.h says %.17g", path, n->valuedouble, want);
}

START_TEST(record_schema_matches_constants)
{
    cJSON *schema = load_json("protocol/game-record.schema.json");
    ck_assert_str_eq(at(schema, "$schema")->valuestring,
                     "https://json-schema.org/draft/2020-12/schema");
    ck_assert_str_eq(at(schema, "properties/format/const")->valuestring, TX_RECORD_FORMAT);
    /* the reason enum is exactly the C enum */
    const cJSON *reasons = at(schema, "properties/result/properties/reason/enum");
    ck_assert_int_eq(cJSON_GetArraySize(reasons), TX_REASON_INTERRUPTED + 1);
    for (int i = 0; i <= TX_REASON_INTERRUPTED; i++)
        ck_assert_str_eq(cJSON_GetArrayItem(reasons, i)->valuestring,
                         tx_reason_name((enum tx_reason)i));

    assert_number(schema, "properties/game/maximum", (double)TX_RECORD_GAME_MAX);
    assert_number(schema, "properties/pairing/properties/k/maximum", (double)TX_RECORD_GAME_MAX);
    assert_number(schema, "properties/pairing/properties/bots/items/properties/memory_mb/maximum",
                  TX_LIMITS_MEMORY_MB_MAX);
    assert_number(schema, "properties/seed/maximum", (double)TX_RECORD_SEED_MAX);
    assert_number(schema, "properties/size/minimum", TX_SIZE_MIN);
    assert_number(schema, "properties/size/maximum", TX_SIZE_MAX);
    assert_number(schema, "$defs/limit_ms/minimum", 1);
    assert_number(schema, "$defs/limit_ms/maximum", TX_LIMITS_MS_MAX);
    assert_number(schema, "properties/limits/properties/margin_ms/maximum", TX_LIMITS_MS_MAX);
    assert_number(schema, "properties/referee/maxLength", TX_RECORD_REFEREE_CHARS);
    assert_number(schema, "properties/moves/maxItems",
                  tx_record_moves_max(TX_SIDE_MAX, TX_SIDE_MAX));
    assert_number(schema, "properties/result/properties/detail/maxLength", TX_RECORD_DETAIL_CHARS);
    assert_number(schema, "$defs/player/properties/name/maxLength", TX_RECORD_NAME_CHARS);
    assert_number(schema, "$defs/player/properties/stderr_bytes/maximum",
                  (double)TX_RECORD_STDERR_BYTES_MAX);
    assert_number(schema, "$defs/player/properties/extra_lines/maximum", TX_RECORD_EXTRA_LINES_MAX);
    assert_number(schema, "$defs/player/properties/links/maxItems",
                  tx_record_links_max(TX_SIDE_MAX, TX_SIDE_MAX));
    assert_number(schema, "$defs/move/properties/us/maximum", (double)TX_RECORD_US_MAX);
    assert_number(schema, "$defs/move/properties/move/maxLength", TX_RECORD_MOVE_CHARS);
    assert_number(schema, "$defs/move/properties/message/maxLength", TX_MESSAGE_CHARS);
    assert_number(schema, "$defs/move/properties/stderr/maxLength", TX_RECORD_STDERR_CHARS);
    assert_number(schema, "$defs/move/properties/edits/maxItems", TX_EDITS_READ);
    cJSON_Delete(schema);
}
END_TEST

/* Records written by a real `twixt-arena play` (tests/data/referee-play.jsonl):
 * each loads and writes back to the same bytes (the schema test validates
 * them). */
START_TEST(record_referee_records_round_trip)
{
    char *path = source_path("tests/data/referee-play.jsonl");
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "cannot open %s", path);
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    int lines = 0;
    while ((n = getline(&line, &cap, f)) > 0) {
        struct tx_record r;
        char err[256], *again = NULL;
        lines++;
        ck_assert_msg(tx_record_from_json(line, (size_t)n, &r, err, sizeof(err)) == 0,
                      "line %d: %s", lines, err);
        ck_assert_int_eq(tx_record_to_json(&r, &again), 0);
        ck_assert_int_eq(strncmp(again, line, (size_t)n - 1), 0);
        free(again);
        tx_record_free(&r);
    }
    ck_assert_int_eq(lines, 4);
    free(line);
    free(path);
    fclose(f);
}
END_TEST

static Suite *record_suite(void)
{
    Suite *s = suite_create("record");
    TCase *tc = tcase_create("record");
    tcase_add_test(tc, record_round_trip);
    tcase_add_test(tc, record_omits_empty_optional_fields);
    tcase_add_test(tc, record_draw_has_null_winner);
    tcase_add_test(tc, record_reason_names);
    tcase_add_test(tc, record_minimal_loads_with_defaults);
    tcase_add_test(tc, record_tampered_base_loads);
    tcase_add_loop_test(tc, record_tampered_refused, 0, ntampered());
    tcase_add_test(tc, record_not_an_object);
    tcase_add_test(tc, record_truncated_every_length);
    tcase_add_test(tc, record_garbage_is_not_called_truncated);
    tcase_add_test(tc, record_byte_flips_never_crash);
    tcase_add_test(tc, record_invalid_utf8_and_deep_nesting);
    tcase_add_test(tc, record_many_fields_refused_early);
    tcase_add_test(tc, record_writer_clamps_measurements);
    tcase_add_test(tc, record_writer_cuts_text);
    tcase_add_test(tc, record_holes_at_board_edges);
    tcase_add_test(tc, record_schema_matches_constants);
    tcase_add_test(tc, record_referee_records_round_trip);
    tcase_set_timeout(tc, 60); /* the byte-flip case under valgrind */
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    /* read outside any test: no ck_assert here */
    const char *dir = getenv("TX_SOURCE_DIR");
    char path[4096];
    snprintf(path, sizeof(path), "%s/tests/data/tampered-records.json", dir ? dir : "..");
    FILE *f = fopen(path, "rb");
    static char text[1 << 20];
    size_t n = f ? fread(text, 1, sizeof(text) - 1, f) : 0;
    if (f)
        fclose(f);
    text[n] = '\0';
    tampered = cJSON_Parse(text);
    if (!tampered) {
        fprintf(stderr, "test-record: cannot read %s (set TX_SOURCE_DIR)\n", path);
        return EXIT_FAILURE;
    }
    SRunner *sr = srunner_create(record_suite());
    srunner_run_all(sr, CK_ENV);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    cJSON_Delete(tampered);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
