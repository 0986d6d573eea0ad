/* test-record.c - the game record: round trips, malformed input, the schema.
 *
 * Malformed cases start from a valid record, change one field with cJSON and
 * check both that the loader refuses it with a message naming the field and
 * that protocol/game-record.schema.json refuses it too, so the loader and the
 * schema cannot drift apart. The schema is checked by a small validator of
 * the keywords the schema uses (no jsonschema package or network here).
 */
#include <check.h>
#include <errno.h>
#include <math.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

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
    r->size = 12;
    r->limits.first_turn_ms = 1000;
    r->limits.turn_ms = 300;
    r->limits.margin_ms = 5;
    r->limits.soft = true;
    r->referee = tx_strdup("twixt-arena 0.1.0");
    r->started = tx_strdup("2026-11-21T21:00:00Z");
    r->run = tx_strdup("c0ffee");
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
    strcpy(r->players[0].links[1], "Z26 Y24");
    add_move(r, 0, "F6", -1, NULL, false, true, NULL);
    add_move(r, 1, "SWAP", 2048, "tab\there\nnewline", true, false, "debug: line 1\n");
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
    ck_assert_int_eq(b.size, a.size);
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
        "{\"name\":\"b\",\"command\":\"b\",\"sha256\":\"00\",\"future_field\":[1,2]}],"
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

/* ---- one-field mutations ---- */

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

/* The full record with path replaced by the JSON value json, or deleted
 * when json is NULL. */
static char *mutate(const char *path, const char *json)
{
    char *base = full_json(), last[64];
    cJSON *root = cJSON_Parse(base);
    free(base);
    cJSON *parent = walk(root, path, last, sizeof(last));
    if (cJSON_IsArray(parent)) {
        if (json)
            cJSON_ReplaceItemInArray(parent, atoi(last), cJSON_Parse(json));
        else
            cJSON_DeleteItemFromArray(parent, atoi(last));
    } else if (json) {
        cJSON *value = cJSON_Parse(json);
        ck_assert_msg(value != NULL, "bad test value %s", json);
        if (cJSON_GetObjectItemCaseSensitive(parent, last))
            cJSON_ReplaceItemInObjectCaseSensitive(parent, last, value);
        else
            cJSON_AddItemToObject(parent, last, value);
    } else {
        cJSON_DeleteItemFromObjectCaseSensitive(parent, last);
    }
    char *text = cJSON_PrintUnformatted(root);
    cJSON_Delete(root);
    return text;
}

struct bad_case {
    const char *path;
    const char *json; /* NULL: delete the field */
    const char *err;  /* the expected message, or its start */
};

static const struct bad_case bad_cases[] = {
    /* missing fields */
    {"format", NULL, "format: missing, expected a string"},
    {"game", NULL, "game: missing, expected an integer"},
    {"seed", NULL, "seed: missing, expected an integer"},
    {"size", NULL, "size: missing"},
    {"limits", NULL, "limits: missing, expected an object"},
    {"limits.first_turn_ms", NULL, "limits.first_turn_ms: missing"},
    {"limits.turn_ms", NULL, "limits.turn_ms: missing"},
    {"limits.margin_ms", NULL, "limits.margin_ms: missing"},
    {"referee", NULL, "referee: missing"},
    {"started", NULL, "started: missing"},
    {"players", NULL, "players: missing, expected an array"},
    {"players.1", NULL, "players: expected 2 players, got 1"},
    {"players.0.name", NULL, "players[0].name: missing, expected a string"},
    {"players.1.command", NULL, "players[1].command: missing"},
    {"players.0.sha256", NULL, "players[0].sha256: missing, expected a string or null"},
    {"moves", NULL, "moves: missing, expected an array"},
    {"moves.1.player", NULL, "moves[1].player: missing"},
    {"moves.2.move", NULL, "moves[2].move: missing, expected a string or null"},
    {"moves.3.us", NULL, "moves[3].us: missing, expected an integer"},
    {"result", NULL, "result: missing, expected an object"},
    {"result.winner", NULL, "result.winner: missing"},
    {"result.reason", NULL, "result.reason: missing"},
    {"result.detail", NULL, "result.detail: missing"},
    /* wrong types */
    {"format", "7", "format: expected a string, got 7"},
    {"game", "\"1\"", "game: expected an integer, got \"1\""},
    {"moves.3.us", "\"12\"", "moves[3].us: expected an integer, got \"12\""},
    {"moves.3.us", "null", "moves[3].us: expected an integer, got null"},
    {"limits", "[]", "limits: expected an object, got an array"},
    {"limits.soft", "1", "limits.soft: expected true or false, got 1"},
    {"players", "{}", "players: expected an array, got an object"},
    {"players.0", "\"greedy\"", "players[0]: expected an object, got \"greedy\""},
    {"players.1.name", "null", "players[1].name: expected a string, got null"},
    {"players.0.sha256", "false", "players[0].sha256: expected a string or null, got false"},
    {"players.0.stderr_bytes", "\"0\"", "players[0].stderr_bytes: expected an integer"},
    {"players.0.links", "\"D6 E8\"", "players[0].links: expected an array"},
    {"players.0.links.1", "\"D6E8\"", "players[0].links[1]: expected two hole names"},
    {"players.0.links.0", "\"D6 E8 \"", "players[0].links[0]: expected two hole names"},
    {"players.0.links.0", "\"D06 E8\"", "players[0].links[0]: expected two hole names"},
    {"players.0.links.0", "12", "players[0].links[0]: expected two hole names"},
    {"moves", "{}", "moves: expected an array, got an object"},
    {"moves.0", "5", "moves[0]: expected an object, got 5"},
    {"moves.1.move", "42", "moves[1].move: expected a string or null, got 42"},
    {"moves.2.message", "[\"x\"]", "moves[2].message: expected a string or null, got an array"},
    {"moves.1.message_cut", "\"yes\"", "moves[1].message_cut: expected true or false"},
    {"moves.0.forced", "1", "moves[0].forced: expected true or false, got 1"},
    {"moves.3.stderr", "{}", "moves[3].stderr: expected a string or null, got an object"},
    {"result", "\"timeout\"", "result: expected an object, got \"timeout\""},
    {"result.detail", "null", "result.detail: expected a string, got null"},
    /* bad values */
    {"format", "\"twixt-arena/game/2\"",
     "format: expected \"twixt-arena/game/1\", got \"twixt-arena/game/2\""},
    {"result.reason", "\"foo\"", "result.reason: unknown value \"foo\""},
    {"result.reason", "\"Timeout\"", "result.reason: unknown value \"Timeout\""},
    {"result.winner", "2", "result.winner: expected an integer from 0 to 1, got 2"},
    {"result.winner", "\"0\"", "result.winner: expected an integer, got \"0\""},
    {"result.winner", "null", "result.winner: expected 0 or 1 for reason \"timeout\", got null"},
    {"moves.0.player", "2", "moves[0].player: expected an integer from 0 to 1, got 2"},
    {"moves.0.player", "-1", "moves[0].player: expected an integer from 0 to 1, got -1"},
    {"size", "4", "size: expected an integer from 5 to 26, got 4"},
    {"size", "27", "size: expected an integer from 5 to 26, got 27"},
    {"game", "0", "game: expected an integer from 1 to 9007199254740991, got 0"},
    {"game", "1.5", "game: expected an integer from 1 to 9007199254740991, got 1.5"},
    {"moves.2.us", "-2", "moves[2].us: expected an integer from -1 to 9007199254740991, got -2"},
    /* huge numbers: rejected, not rounded or wrapped */
    {"seed", "1e300", "seed: expected an integer from 0 to 9007199254740991, got 1e+300"},
    {"seed", "-1", "seed: expected an integer from 0 to 9007199254740991, got -1"},
    {"limits.turn_ms", "2147483648", "limits.turn_ms: expected an integer from 0 to 2147483647"},
    {"players.1.extra_lines", "1e10",
     "players[1].extra_lines: expected an integer from 0 to 2147483647"},
    {"players.1.stderr_bytes", "-5", "players[1].stderr_bytes: expected an integer from 0"},
};

/* In the full record, result.winner is 0 (timeout): a draw must not have one. */
START_TEST(record_draw_with_winner_is_rejected)
{
    char *text = mutate("result.reason", "\"draw\""), err[256];
    struct tx_record r;
    ck_assert_int_eq(tx_record_from_json(text, strlen(text), &r, err, sizeof(err)), -EINVAL);
    ck_assert_str_eq(err, "result.winner: expected null for reason \"draw\", got 0");
    tx_record_free(&r);
    free(text);
}
END_TEST

START_TEST(record_malformed_field_named)
{
    const struct bad_case *c = &bad_cases[_i];
    char *text = mutate(c->path, c->json), err[256];
    struct tx_record r;
    int ret = tx_record_from_json(text, strlen(text), &r, err, sizeof(err));
    ck_assert_msg(ret == -EINVAL, "accepted %s = %s", c->path, c->json ? c->json : "(deleted)");
    ck_assert_msg(strncmp(err, c->err, strlen(c->err)) == 0, "%s = %s: got \"%s\", expected \"%s\"",
                  c->path, c->json ? c->json : "(deleted)", err, c->err);
    tx_record_free(&r);
    free(text);
}
END_TEST

/* Numbers cJSON cannot print back as written, so the mutation is on the text. */
struct text_case {
    const char *old, *new, *err;
};

static const struct text_case text_cases[] = {
    {"\"game\":17,", "\"game\":1e999,",
     "game: expected an integer from 1 to 9007199254740991, got inf"},
    {"\"seed\":9007199254740991,", "\"seed\":9007199254740993,",
     "seed: expected an integer from 0 to 9007199254740991, got 9007199254740992"},
    {"\"seed\":9007199254740991,", "\"seed\":18446744073709551615,",
     "seed: expected an integer from 0 to 9007199254740991, got 1.8446744073709552e+19"},
    {"\"us\":1234,", "\"us\":1.5e-300,",
     "moves[2].us: expected an integer from -1 to 9007199254740991, got 1.5e-300"},
    {"\"us\":1234,", "\"us\":12.5,",
     "moves[2].us: expected an integer from -1 to 9007199254740991, got 12.5"},
};

static char *replace_text(const char *old, const char *new)
{
    char *text = full_json();
    char *at = strstr(text, old);
    ck_assert_msg(at != NULL, "no %s in the base record", old);
    size_t len = strlen(text), nold = strlen(old), nnew = strlen(new);
    char *out = malloc(len - nold + nnew + 1);
    memcpy(out, text, (size_t)(at - text));
    memcpy(out + (at - text), new, nnew);
    strcpy(out + (at - text) + nnew, at + nold);
    free(text);
    return out;
}

START_TEST(record_huge_numbers_rejected)
{
    const struct text_case *c = &text_cases[_i];
    char *text = replace_text(c->old, c->new), err[256];
    struct tx_record r;
    ck_assert_int_eq(tx_record_from_json(text, strlen(text), &r, err, sizeof(err)), -EINVAL);
    ck_assert_msg(strcmp(err, c->err) == 0, "%s: got \"%s\", expected \"%s\"", c->new, err, c->err);
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
    char *text = mutate("players.0.name", "\"ok\"");
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

/* ---- the schema ---- */

/* Validates instance against schema, for the keywords our schema uses:
 * $ref (local), type, const, enum, required, properties, items, minimum,
 * maximum, minItems, maxItems, pattern, if/then/else. Returns NULL or the
 * first failure. With strict, a property the schema does not declare fails
 * too: the writer must not emit undocumented fields. */
static const char *validate(const cJSON *inst, const cJSON *schema, const cJSON *root, bool strict);

static bool type_is(const cJSON *inst, const char *type)
{
    if (strcmp(type, "integer") == 0)
        return cJSON_IsNumber(inst) && isfinite(inst->valuedouble) &&
               inst->valuedouble == floor(inst->valuedouble);
    return (strcmp(type, "string") == 0 && cJSON_IsString(inst)) ||
           (strcmp(type, "null") == 0 && cJSON_IsNull(inst)) ||
           (strcmp(type, "boolean") == 0 && cJSON_IsBool(inst)) ||
           (strcmp(type, "object") == 0 && cJSON_IsObject(inst)) ||
           (strcmp(type, "array") == 0 && cJSON_IsArray(inst)) ||
           (strcmp(type, "number") == 0 && cJSON_IsNumber(inst));
}

static const char *validate(const cJSON *inst, const cJSON *schema, const cJSON *root, bool strict)
{
    const cJSON *k, *v;
    if ((k = cJSON_GetObjectItemCaseSensitive(schema, "$ref"))) {
        ck_assert(strncmp(k->valuestring, "#/$defs/", 8) == 0);
        const cJSON *defs = cJSON_GetObjectItemCaseSensitive(root, "$defs");
        const cJSON *target = cJSON_GetObjectItemCaseSensitive(defs, k->valuestring + 8);
        ck_assert_msg(target != NULL, "dangling $ref %s", k->valuestring);
        const char *why = validate(inst, target, root, strict);
        if (why)
            return why;
    }
    if ((k = cJSON_GetObjectItemCaseSensitive(schema, "type"))) {
        bool ok = false;
        if (cJSON_IsString(k))
            ok = type_is(inst, k->valuestring);
        else
            cJSON_ArrayForEach(v, k) ok = ok || type_is(inst, v->valuestring);
        if (!ok)
            return "type";
    }
    if ((k = cJSON_GetObjectItemCaseSensitive(schema, "const")) && !cJSON_Compare(inst, k, true))
        return "const";
    if ((k = cJSON_GetObjectItemCaseSensitive(schema, "enum"))) {
        bool ok = false;
        cJSON_ArrayForEach(v, k) ok = ok || cJSON_Compare(inst, v, true);
        if (!ok)
            return "enum";
    }
    if (cJSON_IsNumber(inst)) {
        if ((k = cJSON_GetObjectItemCaseSensitive(schema, "minimum")) &&
            inst->valuedouble < k->valuedouble)
            return "minimum";
        if ((k = cJSON_GetObjectItemCaseSensitive(schema, "maximum")) &&
            inst->valuedouble > k->valuedouble)
            return "maximum";
    }
    if (cJSON_IsString(inst) && (k = cJSON_GetObjectItemCaseSensitive(schema, "pattern"))) {
        regex_t re;
        ck_assert_int_eq(regcomp(&re, k->valuestring, REG_EXTENDED | REG_NOSUB), 0);
        int m = regexec(&re, inst->valuestring, 0, NULL, 0);
        regfree(&re);
        if (m != 0)
            return "pattern";
    }
    if (cJSON_IsArray(inst)) {
        int n = cJSON_GetArraySize(inst);
        if ((k = cJSON_GetObjectItemCaseSensitive(schema, "minItems")) && n < k->valueint)
            return "minItems";
        if ((k = cJSON_GetObjectItemCaseSensitive(schema, "maxItems")) && n > k->valueint)
            return "maxItems";
        if ((k = cJSON_GetObjectItemCaseSensitive(schema, "items")))
            cJSON_ArrayForEach(v, inst)
            {
                const char *why = validate(v, k, root, strict);
                if (why)
                    return why;
            }
    }
    if (cJSON_IsObject(inst)) {
        const cJSON *props = cJSON_GetObjectItemCaseSensitive(schema, "properties");
        cJSON_ArrayForEach(v, cJSON_GetObjectItemCaseSensitive(schema, "required"))
        {
            if (!cJSON_GetObjectItemCaseSensitive(inst, v->valuestring))
                return "required";
        }
        cJSON_ArrayForEach(v, inst)
        {
            const cJSON *sub = cJSON_GetObjectItemCaseSensitive(props, v->string);
            if (!sub && strict && props)
                return v->string; /* the undeclared property's name */
            const char *why = sub ? validate(v, sub, root, strict) : NULL;
            if (why)
                return why;
        }
    }
    if ((k = cJSON_GetObjectItemCaseSensitive(schema, "if"))) {
        const char *branch = validate(inst, k, root, false) ? "else" : "then";
        const cJSON *next = cJSON_GetObjectItemCaseSensitive(schema, branch);
        /* then/else constrain some properties only: never strict */
        const char *why = next ? validate(inst, next, root, false) : NULL;
        if (why)
            return why;
    }
    return NULL;
}

static cJSON *load_schema(void)
{
    const char *dir = getenv("TX_SOURCE_DIR");
    char path[4096];
    snprintf(path, sizeof(path), "%s/protocol/game-record.schema.json", dir ? dir : "..");
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "cannot open %s", path);
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof(buf) - 1, f);
    fclose(f);
    buf[n] = '\0';
    cJSON *schema = cJSON_Parse(buf);
    ck_assert_msg(schema != NULL, "%s is not valid JSON", path);
    return schema;
}

START_TEST(record_schema_accepts_written_records)
{
    cJSON *schema = load_schema();
    ck_assert_str_eq(cJSON_GetObjectItemCaseSensitive(schema, "$schema")->valuestring,
                     "https://json-schema.org/draft/2020-12/schema");
    /* the reason enum is exactly the C enum */
    const cJSON *reasons = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(
            cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(schema, "properties"),
                                             "result"),
            "properties"),
        "reason");
    reasons = cJSON_GetObjectItemCaseSensitive(reasons, "enum");
    ck_assert_int_eq(cJSON_GetArraySize(reasons), TX_REASON_INTERRUPTED + 1);
    for (int i = 0; i <= TX_REASON_INTERRUPTED; i++)
        ck_assert_str_eq(cJSON_GetArrayItem(reasons, i)->valuestring,
                         tx_reason_name((enum tx_reason)i));

    /* the full record and a draw, strictly: every written field is declared */
    char *text = full_json();
    cJSON *inst = cJSON_Parse(text);
    const char *why = validate(inst, schema, schema, true);
    ck_assert_msg(why == NULL, "schema rejects a written record: %s", why);
    cJSON_Delete(inst);
    free(text);
    text = mutate("result", "{\"winner\":null,\"reason\":\"draw\",\"detail\":\"board full\"}");
    inst = cJSON_Parse(text);
    ck_assert_ptr_null(validate(inst, schema, schema, true));
    cJSON_Delete(inst);
    free(text);
    cJSON_Delete(schema);
}
END_TEST

/* Records written by a real `twixt-arena play` (tests/data/referee-play.jsonl):
 * each loads, writes back to the same bytes and passes the schema strictly. */
START_TEST(record_referee_records_match_schema)
{
    cJSON *schema = load_schema();
    const char *dir = getenv("TX_SOURCE_DIR");
    char path[4096];
    snprintf(path, sizeof(path), "%s/tests/data/referee-play.jsonl", dir ? dir : "..");
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
        cJSON *inst = cJSON_Parse(line);
        const char *why = validate(inst, schema, schema, true);
        ck_assert_msg(why == NULL, "line %d: schema says %s", lines, why);
        cJSON_Delete(inst);
        free(again);
        tx_record_free(&r);
    }
    ck_assert_int_eq(lines, 4);
    free(line);
    fclose(f);
    cJSON_Delete(schema);
}
END_TEST

/* Every record the loader refuses for a field, the schema refuses too. */
START_TEST(record_schema_rejects_malformed)
{
    const struct bad_case *c = &bad_cases[_i];
    /* JSON numbers beyond 2^53 look like integers to a validator that uses
     * doubles; the schema's maximum is what catches them, and 9007199254740993
     * rounds to 2^53, which is above it. */
    cJSON *schema = load_schema();
    char *text = mutate(c->path, c->json);
    cJSON *inst = cJSON_Parse(text);
    ck_assert_msg(validate(inst, schema, schema, false) != NULL, "schema accepts %s = %s", c->path,
                  c->json ? c->json : "(deleted)");
    cJSON_Delete(inst);
    free(text);
    cJSON_Delete(schema);
}
END_TEST

static Suite *record_suite(void)
{
    Suite *s = suite_create("record");
    TCase *tc = tcase_create("record");
    int nbad = (int)(sizeof(bad_cases) / sizeof(bad_cases[0]));
    tcase_add_test(tc, record_round_trip);
    tcase_add_test(tc, record_omits_empty_optional_fields);
    tcase_add_test(tc, record_draw_has_null_winner);
    tcase_add_test(tc, record_reason_names);
    tcase_add_test(tc, record_minimal_loads_with_defaults);
    tcase_add_test(tc, record_draw_with_winner_is_rejected);
    tcase_add_loop_test(tc, record_malformed_field_named, 0, nbad);
    tcase_add_loop_test(tc, record_huge_numbers_rejected, 0,
                        (int)(sizeof(text_cases) / sizeof(text_cases[0])));
    tcase_add_test(tc, record_not_an_object);
    tcase_add_test(tc, record_truncated_every_length);
    tcase_add_test(tc, record_garbage_is_not_called_truncated);
    tcase_add_test(tc, record_byte_flips_never_crash);
    tcase_add_test(tc, record_invalid_utf8_and_deep_nesting);
    tcase_add_test(tc, record_schema_accepts_written_records);
    tcase_add_test(tc, record_referee_records_match_schema);
    tcase_add_loop_test(tc, record_schema_rejects_malformed, 0, nbad);
    tcase_set_timeout(tc, 60); /* the byte-flip case under valgrind */
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(record_suite());
    srunner_run_all(sr, CK_ENV);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
