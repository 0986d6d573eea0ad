/* cg-formats.c - a game's record as CodinGame's referee log and as
 * psyleague's and cgarena's results (see cg-formats.h).
 *
 * What each consumer expects was read from its source: the SDK's
 * GameRunner (frames, readError's null, Gson leaving null fields out),
 * psyleague's README play_game script (split on single spaces, [TDATA],
 * [PDATA], [PDATA+]) and cgarena's assets/play_game.py (its
 * \[(T|P)DATA\](?:\[(\d+)\])?\s+(\w+)\s*=\s*(.+) pattern) and worker.rs
 * (ranks and errors as u8, turn as u16, value as a string). The matching
 * below follows Python's str.strip, str.split(' ') and re on ASCII text;
 * bytes of other characters count as word characters, not as spaces.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "alloc.h"
#include "cg-formats.h"

#define CGARENA_TURN_MAX 65535 /* cgarena reads a turn as u16 */

int tx_cg_score(const struct tx_record *r, int p)
{
    if (r->result.winner < 0)
        return 0;
    if (r->result.winner == p)
        return 1;
    bool own_fault = r->result.reason == TX_REASON_INVALID ||
                     r->result.reason == TX_REASON_TIMEOUT || r->result.reason == TX_REASON_CRASH;
    return own_fault ? -1 : 0;
}

void tx_cg_ranks(const struct tx_record *r, int ranks[2], int errors[2])
{
    int s[2] = {tx_cg_score(r, 0), tx_cg_score(r, 1)};
    for (int p = 0; p < 2; p++) {
        ranks[p] = s[p] < s[1 - p];
        errors[p] = s[p] < 0;
    }
}

/* ---- the SDK's log ---- */

static cJSON *string_or_null(const char *s)
{
    return tx_xcheck(s ? cJSON_CreateString(s) : cJSON_CreateNull());
}

static void push(cJSON *list, cJSON *item)
{
    cJSON_AddItemToArray(list, item);
}

/* What the bot printed on its turn, as the SDK keeps it (a line ending in
 * a newline); NULL when it printed nothing (a timeout, a crash). */
static char *output_line(const struct tx_record_move *m)
{
    if (!m->move)
        return NULL;
    size_t n = strlen(m->move) + (m->message ? strlen(m->message) + 1 : 0) + 2;
    char *line = tx_xmalloc(n);
    snprintf(line, n, "%s%s%s\n", m->move, m->message ? " " : "", m->message ? m->message : "");
    return line;
}

/* "player 1 (alpha)" */
static void who(const struct tx_record *r, int p, char *buf, size_t cap)
{
    snprintf(buf, cap, "player %d (%s)", p + 1, r->players[p].name ? r->players[p].name : "?");
}

static char *frame_summary(const struct tx_record *r, const struct tx_record_move *m,
                           const char *opening)
{
    char name[128], text[512];
    who(r, m->player, name, sizeof name);
    if (!m->move)
        snprintf(text, sizeof text, "%s%s: no answer", opening, name);
    else if (!strcmp(m->move, "SWAP"))
        snprintf(text, sizeof text, "%s%s swaps", opening, name);
    else
        snprintf(text, sizeof text, "%s%s plays %s", opening, name, m->move);
    return tx_strdup(text);
}

static char *final_summary(const struct tx_record *r)
{
    char winner[128], loser[128], text[1400];
    const char *detail = r->result.detail ? r->result.detail : "";
    const char *reason = tx_reason_name(r->result.reason);
    int w = r->result.winner;
    if (r->result.reason == TX_REASON_INTERRUPTED)
        snprintf(text, sizeof text, "interrupted: the game did not end");
    else if (w < 0)
        snprintf(text, sizeof text, "draw: %s", *detail ? detail : "no legal hole");
    else {
        who(r, w, winner, sizeof winner);
        who(r, 1 - w, loser, sizeof loser);
        snprintf(text, sizeof text, "%s wins by %s%s%s", winner,
                 r->result.reason == TX_REASON_CONNECTION ? "connection"
                 : reason                                 ? reason
                                                          : "?",
                 *detail ? ": " : "", detail);
        if (r->result.reason != TX_REASON_CONNECTION)
            snprintf(text + strlen(text), sizeof text - strlen(text), " (%s lost)", loser);
    }
    return tx_strdup(text);
}

cJSON *tx_cg_log(const struct tx_record *r, int64_t seed, const char *referee_stderr)
{
    cJSON *log = tx_xcheck(cJSON_CreateObject());
    cJSON *errors = tx_xcheck(cJSON_AddObjectToObject(log, "errors"));
    cJSON *outputs = tx_xcheck(cJSON_AddObjectToObject(log, "outputs"));
    cJSON *summaries = tx_xcheck(cJSON_AddArrayToObject(log, "summaries"));
    cJSON *views = tx_xcheck(cJSON_AddArrayToObject(log, "views"));
    cJSON *err[3], *out[3]; /* the referee's, then each player's */
    const char *keys[3] = {"referee", "0", "1"};
    for (int i = 0; i < 3; i++) {
        err[i] = tx_xcheck(cJSON_AddArrayToObject(errors, keys[i]));
        out[i] = tx_xcheck(cJSON_AddArrayToObject(outputs, keys[i]));
    }
    /* Before the first frame the SDK reads each player's output slot as
     * null and its stderr once (ours is in the first turn's window). */
    for (int p = 0; p < 2; p++) {
        push(out[1 + p], tx_xcheck(cJSON_CreateNull()));
        push(err[1 + p], tx_xcheck(cJSON_CreateNull()));
    }

    /* The forced opening, the referee's moves, is said in the first frame. */
    char opening[1024] = "";
    size_t n = 0;
    for (int i = 0; i < r->nmoves && n + 40 < sizeof opening; i++)
        if (r->moves[i].forced)
            n += (size_t)snprintf(opening + n, sizeof opening - n, "%s%s", n ? " " : "",
                                  r->moves[i].move ? r->moves[i].move : "?");
    if (n)
        snprintf(opening + n, sizeof opening - n, " forced\n");

    bool first = true;
    for (int i = 0; i < r->nmoves; i++) {
        const struct tx_record_move *m = &r->moves[i];
        if (m->forced)
            continue;
        char *line = output_line(m), *summary = frame_summary(r, m, first ? opening : "");
        for (int p = 0; p < 2; p++) {
            push(out[1 + p], string_or_null(p == m->player ? line : NULL));
            push(err[1 + p], string_or_null(p == m->player ? m->stderr_text : NULL));
        }
        push(out[0], tx_xcheck(cJSON_CreateString("")));
        push(err[0], tx_xcheck(cJSON_CreateString(first && referee_stderr ? referee_stderr : "")));
        push(summaries, tx_xcheck(cJSON_CreateString(summary)));
        push(views, tx_xcheck(cJSON_CreateNull()));
        free(line);
        free(summary);
        first = false;
    }
    /* The last frame: the end, no player asked. */
    char *summary = final_summary(r);
    push(out[0], tx_xcheck(cJSON_CreateString("")));
    push(err[0], tx_xcheck(cJSON_CreateString(first && referee_stderr ? referee_stderr : "")));
    push(summaries, tx_xcheck(cJSON_CreateString(summary)));
    push(views, tx_xcheck(cJSON_CreateNull()));
    free(summary);

    if (r->result.reason != TX_REASON_INTERRUPTED) {
        cJSON *scores = tx_xcheck(cJSON_AddObjectToObject(log, "scores"));
        for (int p = 0; p < 2; p++)
            tx_xcheck(cJSON_AddNumberToObject(scores, keys[1 + p], tx_cg_score(r, p)));
    }
    char parameters[64];
    snprintf(parameters, sizeof parameters, "seed=%" PRId64, seed);
    cJSON *uinput = tx_xcheck(cJSON_AddArrayToObject(log, "uinput"));
    push(uinput, tx_xcheck(cJSON_CreateString(parameters)));
    tx_xcheck(cJSON_AddArrayToObject(log, "tooltips"));
    cJSON *ids = tx_xcheck(cJSON_AddObjectToObject(log, "ids"));
    cJSON *agents = tx_xcheck(cJSON_AddArrayToObject(log, "agents"));
    for (int p = 0; p < 2; p++) {
        tx_xcheck(cJSON_AddNumberToObject(ids, keys[1 + p], p));
        cJSON *a = tx_xcheck(cJSON_CreateObject());
        tx_xcheck(cJSON_AddNumberToObject(a, "index", p));
        tx_xcheck(cJSON_AddStringToObject(a, "name", r->players[p].name ? r->players[p].name : ""));
        tx_xcheck(cJSON_AddNumberToObject(a, "agentId", p));
        push(agents, a);
    }
    if (r->result.reason == TX_REASON_INTERRUPTED)
        tx_xcheck(cJSON_AddStringToObject(log, "failCause",
                                          "the referee was interrupted before the game ended"));
    return log;
}

/* ---- reading the bots' stderr as the stock scripts do ---- */

/* Python's str.isspace on ASCII. */
static bool py_space(unsigned char c)
{
    return c == ' ' || (c >= '\t' && c <= '\r') || (c >= 0x1c && c <= 0x1f);
}

/* re's \w: ASCII letters, digits, '_', and any byte of another character
 * (Python's \w matches letters and digits of every script). */
static bool py_word(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c >= 0x80;
}

/* Calls fn on each line of each of player p's turns' stderr, in order,
 * stripped as str.strip() does (s is NUL-terminated, writable). */
static void each_line(const struct tx_record *r, int p, void (*fn)(char *line, int p, void *data),
                      void *data)
{
    for (int i = 0; i < r->nmoves; i++) {
        const struct tx_record_move *m = &r->moves[i];
        if (m->player != p || m->forced || !m->stderr_text || !*m->stderr_text)
            continue;
        char *copy = tx_strdup(m->stderr_text);
        for (char *line = copy, *next; line; line = next) {
            next = strchr(line, '\n');
            if (next)
                *next++ = '\0';
            size_t len = strlen(line);
            while (len > 0 && py_space((unsigned char)line[len - 1]))
                line[--len] = '\0';
            while (py_space((unsigned char)*line))
                line++;
            fn(line, p, data);
        }
        free(copy);
    }
}

/* float() on a decimal number: [+-]digits[.digits][e[+-]digits] (no hex,
 * no inf or nan: JSON holds neither). False when it is not one. */
static bool parse_float(const char *s, double *ret)
{
    const char *c = s;
    int digits = 0;
    if (*c == '+' || *c == '-')
        c++;
    for (; *c >= '0' && *c <= '9'; c++)
        digits++;
    if (*c == '.')
        for (c++; *c >= '0' && *c <= '9'; c++)
            digits++;
    if (!digits)
        return false;
    if (*c == 'e' || *c == 'E') {
        c++;
        if (*c == '+' || *c == '-')
            c++;
        if (*c < '0' || *c > '9')
            return false;
        while (*c >= '0' && *c <= '9')
            c++;
    }
    if (*c)
        return false;
    double v = strtod(s, NULL);
    if (!isfinite(v))
        return false;
    *ret = v;
    return true;
}

/* A float as Python's json.dumps writes it: the shortest text that reads
 * back, with ".0" when it would look like an integer. */
static cJSON *python_float(double v)
{
    char text[40];
    for (int precision = 1; precision <= 17; precision++) {
        snprintf(text, sizeof text, "%.*g", precision, v);
        if (strtod(text, NULL) == v)
            break;
    }
    if (!strpbrk(text, ".e"))
        strcat(text, ".0");
    return tx_xcheck(cJSON_CreateRaw(text));
}

/* Sets key to value in o, in place when it is there (a Python dict keeps
 * a key where it was first set). */
static void set_key(cJSON *o, const char *key, cJSON *value)
{
    if (cJSON_GetObjectItemCaseSensitive(o, key))
        cJSON_ReplaceItemInObjectCaseSensitive(o, key, value);
    else
        cJSON_AddItemToObject(o, key, value);
}

struct psyleague {
    cJSON *test_data;
    cJSON *player_data[2];
};

/* psyleague's README script: vs = line.split(' '); at least 4 words;
 * [TDATA] key = value, [PDATA] key = value, [PDATA+] key = value (summed
 * as floats); vs[3] is the value, vs[2] is not looked at. */
static void psyleague_line(char *line, int p, void *data)
{
    struct psyleague *ps = data;
    char *vs[4];
    int n = 0;
    for (char *word = line; word && n < 4;) {
        vs[n++] = word;
        word = strchr(word, ' ');
        if (word)
            *word++ = '\0';
    }
    if (n < 4)
        return;
    /* vs[3] ends at the next space: split makes more words after it */
    char *end = strchr(vs[3], ' ');
    if (end)
        *end = '\0';
    if (!strcmp(vs[0], "[TDATA]")) {
        set_key(ps->test_data, vs[1], tx_xcheck(cJSON_CreateString(vs[3])));
    } else if (!strcmp(vs[0], "[PDATA]")) {
        set_key(ps->player_data[p], vs[1], tx_xcheck(cJSON_CreateString(vs[3])));
    } else if (!strcmp(vs[0], "[PDATA+]")) {
        double add, sum = 0.0;
        if (!parse_float(vs[3], &add))
            return; /* the stock script's float() would stop the league */
        cJSON *old = cJSON_GetObjectItemCaseSensitive(ps->player_data[p], vs[1]);
        if (old && cJSON_IsRaw(old))
            sum = strtod(old->valuestring, NULL);
        else if (old && cJSON_IsString(old) && !parse_float(old->valuestring, &sum))
            sum = 0.0;
        set_key(ps->player_data[p], vs[1], python_float(sum + add));
    }
}

static cJSON *ranks_and_errors(const struct tx_record *r)
{
    int ranks[2], errors[2];
    tx_cg_ranks(r, ranks, errors);
    cJSON *o = tx_xcheck(cJSON_CreateObject());
    cJSON_AddItemToObject(o, "ranks", tx_xcheck(cJSON_CreateIntArray(ranks, 2)));
    cJSON_AddItemToObject(o, "errors", tx_xcheck(cJSON_CreateIntArray(errors, 2)));
    return o;
}

cJSON *tx_cg_psyleague(const struct tx_record *r, int64_t seed)
{
    cJSON *o = ranks_and_errors(r);
    struct psyleague ps;
    char text[32];
    snprintf(text, sizeof text, "%" PRId64, seed); /* exact, even past 2^53 */
    ps.test_data = tx_xcheck(cJSON_AddObjectToObject(o, "test_data"));
    cJSON_AddItemToObject(ps.test_data, "seed", tx_xcheck(cJSON_CreateRaw(text)));
    cJSON *players = tx_xcheck(cJSON_AddArrayToObject(o, "player_data"));
    for (int p = 0; p < 2; p++) {
        ps.player_data[p] = tx_xcheck(cJSON_CreateObject());
        push(players, ps.player_data[p]);
    }
    for (int p = 0; p < 2; p++)
        each_line(r, p, psyleague_line, &ps);
    return o;
}

/* cgarena's play_game.py: the pattern, matched at the line's start. */
static void cgarena_line(char *line, int p, void *data)
{
    cJSON *attributes = data;
    const char *c = line;
    if (c[0] != '[' || !c[1] || !strchr("TtPp", c[1]) || strncasecmp(c + 2, "DATA]", 5))
        return;
    bool player = c[1] == 'P' || c[1] == 'p';
    c += 7;
    long long turn = -1;
    if (*c == '[' && c[1] >= '0' && c[1] <= '9') {
        const char *d = c + 1;
        long long t = 0;
        for (; *d >= '0' && *d <= '9'; d++)
            t = t > CGARENA_TURN_MAX ? t : t * 10 + (*d - '0');
        if (*d == ']') {
            turn = t;
            c = d + 1;
        }
    }
    if (!py_space((unsigned char)*c))
        return;
    while (py_space((unsigned char)*c))
        c++;
    const char *key = c;
    while (py_word((unsigned char)*c))
        c++;
    size_t key_len = (size_t)(c - key);
    while (py_space((unsigned char)*c))
        c++;
    if (!key_len || *c != '=')
        return;
    c++;
    while (py_space((unsigned char)*c))
        c++;
    if (!*c)
        return;
    cJSON *a = tx_xcheck(cJSON_CreateObject());
    char *name = tx_strndup(key, key_len);
    tx_xcheck(cJSON_AddStringToObject(a, "name", name));
    free(name);
    if (player)
        tx_xcheck(cJSON_AddNumberToObject(a, "player", p));
    else
        tx_xcheck(cJSON_AddNullToObject(a, "player"));
    if (turn >= 0 && turn <= CGARENA_TURN_MAX)
        tx_xcheck(cJSON_AddNumberToObject(a, "turn", (double)turn));
    else
        tx_xcheck(cJSON_AddNullToObject(a, "turn"));
    tx_xcheck(cJSON_AddStringToObject(a, "value", c));
    push(attributes, a);
}

cJSON *tx_cg_cgarena(const struct tx_record *r)
{
    cJSON *o = ranks_and_errors(r);
    cJSON *attributes = tx_xcheck(cJSON_AddArrayToObject(o, "attributes"));
    for (int p = 0; p < 2; p++)
        each_line(r, p, cgarena_line, attributes);
    return o;
}
