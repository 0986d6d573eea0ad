/* bots-file.c - reading a pool's bots from a JSON file (see bots-file.h).
 *
 * cJSON parses the text and says where a syntax error is, but it keeps no
 * positions for what it parsed; so a small scanner walks the text once more
 * and notes the line where each bot's object and each of its fields
 * starts (a team's bots included: objects of its "bots" array): every later
 * mistake (a missing command, a bad memory_mb) is then reported at its
 * line, as a user looking at the file wants it.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "alloc.h"
#include "bot-limits.h"
#include "bots-file.h"
#include "command.h"
#include "sandbox.h"

#define SCAN_DEPTH_MAX 8 /* deeper keys are never fields of ours */

/* Where a key of an object starts: in top-level element `element` (a bot
 * or a team), in its team's bot `member` (-1: the element's own), at
 * `depth` (2: a field of the element, 3: a variable of its env; a team's
 * bot's are two deeper). */
struct key_pos {
    int element, member, depth, line;
    const char *key; /* raw bytes between the quotes */
    size_t len;
};

/* Where a team's bot (an object in its "bots" array) starts. */
struct member_pos {
    int element, member, line;
};

struct scan {
    int *element_line; /* line where each top-level element starts */
    int nelements;
    struct key_pos *keys;
    int nkeys;
    struct member_pos *members;
    int nmembers;
};

static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Walks JSON text that cJSON accepted, noting element and key lines. */
static void scan_positions(const char *text, size_t len, struct scan *s)
{
    char type[SCAN_DEPTH_MAX + 1] = {0};
    bool expect_key[SCAN_DEPTH_MAX + 1] = {false};
    int depth = 0, line = 1, member = -1;
    bool in_string = false, escaped = false, element_pending = false;
    const char *key_start = NULL;
    int key_line = 0;

    memset(s, 0, sizeof *s);
    for (size_t i = 0; i < len; i++) {
        char c = text[i];
        if (c == '\n')
            line++;
        if (in_string) {
            if (escaped)
                escaped = false;
            else if (c == '\\')
                escaped = true;
            else if (c == '"') {
                in_string = false;
                if (key_start) {
                    s->keys = tx_xrealloc(s->keys, (size_t)(s->nkeys + 1) * sizeof *s->keys);
                    s->keys[s->nkeys++] = (struct key_pos){
                        .element = s->nelements - 1,
                        .member = depth >= 4 ? member : -1,
                        .depth = depth,
                        .line = key_line,
                        .key = key_start,
                        .len = (size_t)(text + i - key_start),
                    };
                    key_start = NULL;
                }
            }
            continue;
        }
        if (is_space(c))
            continue;
        if (depth == 1 && element_pending && c != ',' && c != ']') {
            element_pending = false;
            s->element_line =
                tx_xrealloc(s->element_line, (size_t)(s->nelements + 1) * sizeof(int));
            s->element_line[s->nelements++] = line;
            member = -1;
        }
        bool tracked = depth >= 1 && depth <= SCAN_DEPTH_MAX;
        switch (c) {
        case '"':
            in_string = true;
            if (tracked && type[depth] == '{' && expect_key[depth] && depth >= 2) {
                key_start = text + i + 1;
                key_line = line;
            }
            if (tracked && type[depth] == '{')
                expect_key[depth] = false;
            break;
        case '{':
        case '[':
            depth++;
            if (depth <= SCAN_DEPTH_MAX) {
                type[depth] = c;
                expect_key[depth] = c == '{';
            }
            if (depth == 3 && c == '[')
                member = -1; /* a team's "bots" (or any array of an element) */
            if (depth == 4 && c == '{' && type[3] == '[') {
                s->members =
                    tx_xrealloc(s->members, (size_t)(s->nmembers + 1) * sizeof *s->members);
                s->members[s->nmembers++] = (struct member_pos){s->nelements - 1, ++member, line};
            }
            if (depth == 1)
                element_pending = true;
            break;
        case '}':
        case ']':
            depth--;
            break;
        case ',':
            if (tracked && type[depth] == '{')
                expect_key[depth] = true;
            if (depth == 1)
                element_pending = true;
            break;
        default:
            break;
        }
    }
}

static void scan_free(struct scan *s)
{
    free(s->element_line);
    free(s->keys);
    free(s->members);
}

/* The line where element e's object starts, or its team's bot member's
 * (member >= 0). */
static int bot_line(const struct scan *s, int e, int member)
{
    for (int i = 0; member >= 0 && i < s->nmembers; i++)
        if (s->members[i].element == e && s->members[i].member == member)
            return s->members[i].line;
    return e < s->nelements ? s->element_line[e] : 1;
}

/* The line of key in element e (its team's bot member, or -1) at depth,
 * or the object's own line. */
static int key_line(const struct scan *s, int e, int member, int depth, const char *key)
{
    size_t n = strlen(key);
    for (int i = 0; i < s->nkeys; i++)
        if (s->keys[i].element == e && s->keys[i].member == member && s->keys[i].depth == depth &&
            s->keys[i].len == n && !memcmp(s->keys[i].key, key, n))
            return s->keys[i].line;
    return bot_line(s, e, member);
}

/* The line holding byte offset. */
static int line_at(const char *text, size_t offset)
{
    int line = 1;
    for (size_t i = 0; i < offset; i++)
        line += text[i] == '\n';
    return line;
}

static bool valid_name(const char *name)
{
    size_t n = strlen(name);
    if (n == 0 || n >= TX_COMMAND_NAME_MAX)
        return false;
    for (const char *p = name; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
              strchr("_.+-", *p)))
            return false;
    return true;
}

static bool valid_env_name(const char *name)
{
    if (!((*name >= 'a' && *name <= 'z') || (*name >= 'A' && *name <= 'Z') || *name == '_'))
        return false;
    for (const char *p = name; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
              *p == '_'))
            return false;
    return true;
}

/* dir joined to the directory of path, unless dir is absolute. */
static char *resolve_dir(const char *path, const char *dir)
{
    const char *slash = strrchr(path, '/');
    if (dir[0] == '/' || !slash)
        return tx_strdup(dir);
    size_t base = (size_t)(slash - path) + 1;
    size_t n = base + strlen(dir) + 1;
    char *full = tx_xmalloc(n);
    memcpy(full, path, base);
    strcpy(full + base, dir);
    return full;
}

static void bot_free(struct tx_bots_file_bot *b)
{
    free(b->name);
    free(b->command);
    free(b->dir);
    for (char **e = b->env; e && *e; e++)
        free(*e);
    free(b->env);
    for (char **w = b->writable; w && *w; w++)
        free(*w);
    free(b->writable);
}

void tx_bots_file_free(struct tx_bots_file *f)
{
    if (!f)
        return;
    for (int i = 0; i < f->nbots; i++)
        bot_free(&f->bots[i]);
    free(f->bots);
    for (int i = 0; i < f->nteams; i++)
        free(f->teams[i].name);
    free(f->teams);
    memset(f, 0, sizeof *f);
}

/* What a parse needs to report a mistake, and where it is: a bot of the
 * array, or (team set) bot `member` of a team's "bots". */
struct ctx {
    const char *path;
    const struct scan *scan;
    char *err;
    size_t errcap;
    const char *team; /* the team's name while its bots are read, else NULL */
    int member;       /* the team's bot being read (0 or 1), -1 for none */
    bool in_team;     /* element e is a team entry (named "team N" before its name is known) */
};

/* "PATH:LINE: bot 'NAME': " (or "bot N" before its name is known; "team
 * 'T': bot 'NAME': " for a team's bot) + why. depth is the field's in a
 * bot of the array (2, its env's variables 3). */
static int fail(const struct ctx *c, int e, const char *field, int depth, const char *name,
                const char *why)
{
    int d = c->member >= 0 ? depth + 2 : depth;
    int line = field ? key_line(c->scan, e, c->member, d, field) : bot_line(c->scan, e, c->member);
    char who[2 * TX_COMMAND_NAME_MAX + 32], team[TX_COMMAND_NAME_MAX + 16] = "";
    if (c->team)
        snprintf(team, sizeof team, "team '%s': ", c->team);
    if (name)
        snprintf(who, sizeof who, "%sbot '%s'", team, name);
    else if (c->member >= 0)
        snprintf(who, sizeof who, "%sbot %d", team, c->member + 1);
    else
        snprintf(who, sizeof who, "%s %d", c->in_team ? "team" : "bot", e + 1);
    snprintf(c->err, c->errcap, "%s:%d: %s: %s", c->path, line, who, why);
    return -EINVAL;
}

static const char *const FIELDS[] = {"name",      "command", "dir",      "env",
                                     "memory_mb", "cpus",    "writable", "handicap"};
#define NFIELDS (sizeof FIELDS / sizeof FIELDS[0])

/* Fields a user may look for that are the run's, not a bot's: both
 * players of a game play one game, and a records file holds one rule set
 * and one board (like one set of time limits). */
static const char *const RUN_FIELDS[][2] = {
    {"rules", "--rules"}, {"board", "--board"},  {"size", "--size"},
    {"width", "--board"}, {"height", "--board"}, {"opening", "--opening"},
};

static int parse_env(const struct ctx *c, int e, const cJSON *env, struct tx_bots_file_bot *b)
{
    char why[256];
    if (!cJSON_IsObject(env))
        return fail(c, e, "env", 2, b->name,
                    "env: expected an object of variables, e.g. {\"OMP_NUM_THREADS\": \"1\"}");
    int n = cJSON_GetArraySize(env);
    if (n > TX_BOTS_FILE_ENV_MAX) {
        snprintf(why, sizeof why, "env: more than %d variables", TX_BOTS_FILE_ENV_MAX);
        return fail(c, e, "env", 2, b->name, why);
    }
    b->env = tx_xmalloc((size_t)(n + 1) * sizeof *b->env);
    b->env[0] = NULL;
    int k = 0;
    for (const cJSON *v = env->child; v; v = v->next) {
        const char *key = v->string;
        if (!valid_env_name(key)) {
            snprintf(why, sizeof why,
                     "env: '%.64s' is not a variable name (letters, digits and _, not starting "
                     "with a digit)",
                     key);
            return fail(c, e, key, 3, b->name, why);
        }
        for (int j = 0; j < k; j++)
            if (!strncmp(b->env[j], key, strlen(key)) && b->env[j][strlen(key)] == '=') {
                snprintf(why, sizeof why, "env: %.64s given twice", key);
                return fail(c, e, key, 3, b->name, why);
            }
        if (!cJSON_IsString(v)) {
            snprintf(why, sizeof why, "env: %.64s: expected a string value", key);
            return fail(c, e, key, 3, b->name, why);
        }
        size_t len = strlen(key) + strlen(v->valuestring) + 2;
        b->env[k] = tx_xmalloc(len);
        snprintf(b->env[k], len, "%s=%s", key, v->valuestring);
        b->env[++k] = NULL;
    }
    return 0;
}

static bool parse_memory(const cJSON *memory, int *ret, char *why, size_t cap);

/* One bot's object: element e of the array, or a bot of a team's (c). */
static int parse_bot(const struct ctx *c, int e, const cJSON *o, struct tx_bots_file_bot *b)
{
    char why[512];
    if (!cJSON_IsObject(o))
        return fail(c, e, NULL, 0, NULL, "expected an object {\"name\": ..., \"command\": ...}");
    /* Unknown and repeated fields first: a typo ("comand") is named as
     * such, not reported as a missing command. */
    for (const cJSON *f = o->child; f; f = f->next) {
        bool known = false;
        for (size_t i = 0; i < NFIELDS; i++)
            known |= !strcmp(f->string, FIELDS[i]);
        for (size_t i = 0; !known && i < sizeof RUN_FIELDS / sizeof RUN_FIELDS[0]; i++)
            if (!strcmp(f->string, RUN_FIELDS[i][0])) {
                snprintf(why, sizeof why,
                         "%s: the rule set and the board are the run's, not a bot's (give %s to "
                         "the command; {rules}, {width} and {height} tell the bot)",
                         f->string, RUN_FIELDS[i][1]);
                return fail(c, e, f->string, 2, NULL, why);
            }
        if (!known) {
            snprintf(why, sizeof why,
                     "unknown field '%.64s' (expected name, command, dir, env, memory_mb, cpus, "
                     "writable, handicap)",
                     f->string);
            return fail(c, e, f->string, 2, NULL, why);
        }
        for (const cJSON *g = o->child; g != f; g = g->next)
            if (!strcmp(g->string, f->string)) {
                snprintf(why, sizeof why, "%s given twice", f->string);
                return fail(c, e, f->string, 2, NULL, why);
            }
    }

    const cJSON *name = cJSON_GetObjectItemCaseSensitive(o, "name");
    if (!name)
        return fail(c, e, NULL, 0, NULL, "name: missing (the bot's name in records and standings)");
    if (!cJSON_IsString(name))
        return fail(c, e, "name", 2, NULL, "name: expected a string");
    if (!valid_name(name->valuestring)) {
        snprintf(why, sizeof why,
                 "name: expected letters, digits and _.+- (at most %d characters), got '%.64s'",
                 TX_COMMAND_NAME_MAX - 1, name->valuestring);
        return fail(c, e, "name", 2, NULL, why);
    }
    b->name = tx_strdup(name->valuestring);

    const cJSON *command = cJSON_GetObjectItemCaseSensitive(o, "command");
    if (!command)
        return fail(c, e, NULL, 0, b->name, "command: missing (the command line that starts it)");
    char **words;
    int nwords;
    char reason[128];
    if (!cJSON_IsString(command))
        return fail(c, e, "command", 2, b->name, "command: expected a string");
    if (tx_command_split(command->valuestring, &words, &nwords, reason, sizeof reason) < 0) {
        snprintf(why, sizeof why, "command: %s", reason);
        return fail(c, e, "command", 2, b->name, why);
    }
    tx_command_free(words);
    b->command = tx_strdup(command->valuestring);

    const cJSON *dir = cJSON_GetObjectItemCaseSensitive(o, "dir");
    if (dir) {
        if (!cJSON_IsString(dir) || !dir->valuestring[0])
            return fail(c, e, "dir", 2, b->name,
                        "dir: expected a directory (relative to this file's directory)");
        b->dir = resolve_dir(c->path, dir->valuestring);
    }

    const cJSON *env = cJSON_GetObjectItemCaseSensitive(o, "env");
    if (env && parse_env(c, e, env, b) < 0)
        return -EINVAL;

    const cJSON *memory = cJSON_GetObjectItemCaseSensitive(o, "memory_mb");
    if (memory && c->team)
        return fail(c, e, "memory_mb", 2, b->name,
                    "memory_mb: a team's bots share one memory limit: give memory_mb on the team");
    if (memory && !parse_memory(memory, &b->memory_mb, why, sizeof why))
        return fail(c, e, "memory_mb", 2, b->name, why);

    const cJSON *cpus = cJSON_GetObjectItemCaseSensitive(o, "cpus");
    if (cpus) {
        double v = cJSON_IsNumber(cpus) ? cpus->valuedouble : -1;
        if (v != 0 && !(v >= TX_SANDBOX_CPUS_MIN && v <= TX_SANDBOX_CPUS_MAX)) {
            snprintf(why, sizeof why,
                     "cpus: expected a number of CPUs, %g to %d, or 0 for no quota",
                     TX_SANDBOX_CPUS_MIN, TX_SANDBOX_CPUS_MAX);
            return fail(c, e, "cpus", 2, b->name, why);
        }
        b->cpus = v == 0 ? TX_BOTS_FILE_CPUS_NONE : v;
    }

    const cJSON *writable = cJSON_GetObjectItemCaseSensitive(o, "writable");
    if (writable) {
        int n = cJSON_IsArray(writable) ? cJSON_GetArraySize(writable) : -1;
        bool ok = n >= 0 && n <= TX_SANDBOX_WRITABLE_MAX;
        for (const cJSON *w = ok ? writable->child : NULL; w; w = w->next)
            ok &= cJSON_IsString(w) && w->valuestring[0];
        if (!ok) {
            snprintf(why, sizeof why,
                     "writable: expected at most %d directories (relative to this file's "
                     "directory), e.g. [\"logs\"]",
                     TX_SANDBOX_WRITABLE_MAX);
            return fail(c, e, "writable", 2, b->name, why);
        }
        b->writable = tx_xcalloc((size_t)n + 1, sizeof *b->writable);
        int k = 0;
        for (const cJSON *w = writable->child; w; w = w->next)
            b->writable[k++] = resolve_dir(c->path, w->valuestring);
    }

    const cJSON *handicap = cJSON_GetObjectItemCaseSensitive(o, "handicap");
    if (handicap && c->team)
        return fail(c, e, "handicap", 2, b->name,
                    "handicap: a team's bots play one side: give handicap on the team");
    if (handicap && !cJSON_IsBool(handicap))
        return fail(c, e, "handicap", 2, b->name,
                    "handicap: expected true (this bot has the longer distance in every game) or "
                    "false");
    b->handicap = cJSON_IsTrue(handicap);
    return 0;
}

/* memory_mb of a bot or a team: MB in range, or 0 for none, into *ret;
 * false with why. */
static bool parse_memory(const cJSON *memory, int *ret, char *why, size_t cap)
{
    double v = cJSON_IsNumber(memory) ? memory->valuedouble : -1;
    if (v != floor(v) || (v != 0 && (v < TX_LIMITS_MEMORY_MB_MIN || v > TX_LIMITS_MEMORY_MB_MAX))) {
        snprintf(why, cap, "memory_mb: expected megabytes, %d to %d, or 0 for no limit",
                 TX_LIMITS_MEMORY_MB_MIN, TX_LIMITS_MEMORY_MB_MAX);
        return false;
    }
    *ret = v == 0 ? TX_BOTS_FILE_MEMORY_NONE : (int)v;
    return true;
}

static const char *const TEAM_FIELDS[] = {"team", "bots", "memory_mb", "handicap"};
#define NTEAM_FIELDS (sizeof TEAM_FIELDS / sizeof TEAM_FIELDS[0])

/* A name among the first n bots of f, or -1. */
static int bot_named(const struct tx_bots_file *f, int n, const char *name)
{
    for (int j = 0; j < n; j++)
        if (!strcmp(f->bots[j].name, name))
            return j;
    return -1;
}

/* Element e, which is a team ({"team": ...}): its two bots are added to
 * f->bots, then the team to f->teams. c is the file's context. */
static int parse_team(const struct ctx *file, int e, const cJSON *o, struct tx_bots_file *f)
{
    char why[512];
    struct ctx c = *file;
    c.in_team = true;
    for (const cJSON *x = o->child; x; x = x->next) {
        bool known = false;
        for (size_t i = 0; i < NTEAM_FIELDS; i++)
            known |= !strcmp(x->string, TEAM_FIELDS[i]);
        if (!known) {
            snprintf(why, sizeof why,
                     "unknown field '%.64s' in a team (expected team, bots, memory_mb, handicap)",
                     x->string);
            return fail(&c, e, x->string, 2, NULL, why);
        }
        for (const cJSON *g = o->child; g != x; g = g->next)
            if (!strcmp(g->string, x->string)) {
                snprintf(why, sizeof why, "%s given twice", x->string);
                return fail(&c, e, x->string, 2, NULL, why);
            }
    }
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(o, "team");
    if (!cJSON_IsString(name) || !valid_name(name->valuestring)) {
        snprintf(why, sizeof why,
                 "team: expected the team's name: letters, digits and _.+- (at most %d "
                 "characters)",
                 TX_COMMAND_NAME_MAX - 1);
        return fail(&c, e, "team", 2, NULL, why);
    }
    for (int i = 0; i < f->nteams; i++)
        if (!strcmp(f->teams[i].name, name->valuestring)) {
            snprintf(why, sizeof why, "team: '%.64s' already used by the team at line %d",
                     name->valuestring, f->teams[i].line);
            return fail(&c, e, "team", 2, NULL, why);
        }
    c.team = name->valuestring;
    const cJSON *bots = cJSON_GetObjectItemCaseSensitive(o, "bots");
    if (!cJSON_IsArray(bots) || cJSON_GetArraySize(bots) != 2) {
        snprintf(why, sizeof why,
                 "bots: expected the team's two bots, [{\"name\": ..., \"command\": ...}, {...}]");
        if (cJSON_IsArray(bots))
            snprintf(why + strlen(why), sizeof why - strlen(why), ", got %d",
                     cJSON_GetArraySize(bots));
        snprintf(c.err, c.errcap, "%s:%d: team '%s': %s", c.path,
                 key_line(c.scan, e, -1, 2, bots ? "bots" : "team"), c.team, why);
        return -EINVAL;
    }
    int memory = 0;
    const cJSON *mem = cJSON_GetObjectItemCaseSensitive(o, "memory_mb");
    if (mem && !parse_memory(mem, &memory, why, sizeof why)) {
        snprintf(c.err, c.errcap, "%s:%d: team '%s': %s", c.path,
                 key_line(c.scan, e, -1, 2, "memory_mb"), c.team, why);
        return -EINVAL;
    }
    const cJSON *handicap = cJSON_GetObjectItemCaseSensitive(o, "handicap");
    if (handicap && !cJSON_IsBool(handicap)) {
        snprintf(c.err, c.errcap,
                 "%s:%d: team '%s': handicap: expected true (this team has the longer distance in "
                 "every game) or false",
                 c.path, key_line(c.scan, e, -1, 2, "handicap"), c.team);
        return -EINVAL;
    }
    int first = f->nbots, k = 0;
    for (const cJSON *b = bots->child; b; b = b->next, k++) {
        struct tx_bots_file_bot *bot = &f->bots[f->nbots];
        memset(bot, 0, sizeof *bot);
        c.member = k;
        bot->line = bot_line(c.scan, e, k);
        int rc = parse_bot(&c, e, b, bot);
        if (rc == 0 && bot_named(f, f->nbots, bot->name) >= 0) {
            snprintf(why, sizeof why, "name: already used by the bot at line %d",
                     f->bots[bot_named(f, f->nbots, bot->name)].line);
            rc = fail(&c, e, "name", 2, bot->name, why);
        }
        if (rc < 0) {
            bot_free(bot);
            return rc;
        }
        bot->memory_mb = memory;
        f->nbots++;
    }
    f->teams[f->nteams++] = (struct tx_bots_file_team){.name = tx_strdup(name->valuestring),
                                                       .first = first,
                                                       .line = bot_line(c.scan, e, -1),
                                                       .handicap = cJSON_IsTrue(handicap)};
    return 0;
}

/* One entry at most has the handicap (RULES.md "Handicap matches"). */
static int one_handicap(const char *path, struct tx_bots_file *f, char *err, size_t errcap)
{
    int line = 0;
    const char *name = NULL;
    for (int i = 0; i < f->nbots + f->nteams; i++) {
        bool team = i >= f->nbots;
        const char *who = team ? f->teams[i - f->nbots].name : f->bots[i].name;
        int at = team ? f->teams[i - f->nbots].line : f->bots[i].line;
        if (!(team ? f->teams[i - f->nbots].handicap : f->bots[i].handicap))
            continue;
        if (name) {
            snprintf(err, errcap,
                     "%s:%d: %s '%s': handicap: already given to '%s' at line %d (one has the "
                     "longer distance)",
                     path, at, team ? "team" : "bot", who, name, line);
            return -EINVAL;
        }
        name = who, line = at;
    }
    f->handicap = name;
    return 0;
}

int tx_bots_file_parse(const char *path, const char *text, size_t len, struct tx_bots_file *ret,
                       char *err, size_t errcap)
{
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithLengthOpts(text, len, &end, false);
    if (!root) {
        size_t at = end && end >= text && end <= text + len ? (size_t)(end - text) : 0;
        snprintf(err, errcap, "%s:%d: not valid JSON (a bots file is an array of objects)", path,
                 line_at(text, at));
        return -EINVAL;
    }
    for (const char *p = end; p && p < text + len; p++)
        if (!is_space(*p)) {
            snprintf(err, errcap, "%s:%d: text after the array of bots", path,
                     line_at(text, (size_t)(p - text)));
            cJSON_Delete(root);
            return -EINVAL;
        }
    struct scan scan;
    scan_positions(text, len, &scan);
    struct ctx c = {.path = path, .scan = &scan, .err = err, .errcap = errcap, .member = -1};
    struct tx_bots_file f = {0};
    int rc = 0;

    if (!cJSON_IsArray(root)) {
        const char *p = text;
        while (p < text + len && is_space(*p))
            p++;
        snprintf(err, errcap,
                 "%s:%d: expected an array of bots: [{\"name\": ..., \"command\": ...}, ...]", path,
                 line_at(text, (size_t)(p - text)));
        rc = -EINVAL;
        goto out;
    }
    int n = cJSON_GetArraySize(root);
    /* room for every element as a team of two bots */
    f.bots = tx_xmalloc((size_t)(n > 0 ? 2 * n : 1) * sizeof *f.bots);
    f.teams = tx_xmalloc((size_t)(n > 0 ? n : 1) * sizeof *f.teams);
    int e = 0, plain = -1; /* plain: the first bot that is no team's, for the mixed file error */
    for (const cJSON *o = root->child; o; o = o->next, e++) {
        if (cJSON_IsObject(o) && cJSON_GetObjectItemCaseSensitive(o, "team")) {
            if (plain >= 0) {
                snprintf(err, errcap,
                         "%s:%d: a team, after the bot at line %d: a file holds bots or teams, "
                         "not both (a pool plays two bots a game or teams)",
                         path, bot_line(&scan, e, -1), f.bots[plain].line);
                rc = -EINVAL;
                goto out;
            }
            if ((rc = parse_team(&c, e, o, &f)) < 0)
                goto out;
            continue;
        }
        if (f.nteams > 0) {
            snprintf(err, errcap,
                     "%s:%d: a bot, after the team at line %d: a file holds bots or teams, not "
                     "both (a pool plays two bots a game or teams)",
                     path, bot_line(&scan, e, -1), f.teams[0].line);
            rc = -EINVAL;
            goto out;
        }
        struct tx_bots_file_bot *b = &f.bots[f.nbots];
        memset(b, 0, sizeof *b);
        b->line = bot_line(&scan, e, -1);
        rc = parse_bot(&c, e, o, b);
        if (rc == 0 && bot_named(&f, f.nbots, b->name) >= 0) {
            char why[96];
            snprintf(why, sizeof why, "name: already used by the bot at line %d",
                     f.bots[bot_named(&f, f.nbots, b->name)].line);
            rc = fail(&c, e, "name", 2, b->name, why);
        }
        if (rc < 0) {
            bot_free(b);
            goto out;
        }
        plain = plain < 0 ? f.nbots : plain;
        f.nbots++;
    }
    rc = one_handicap(path, &f, err, errcap);
out:
    scan_free(&scan);
    cJSON_Delete(root);
    if (rc < 0) {
        tx_bots_file_free(&f);
        return rc;
    }
    *ret = f;
    return 0;
}

int tx_bots_file_load(const char *path, struct tx_bots_file *ret, char *err, size_t errcap)
{
    FILE *in = fopen(path, "re");
    if (!in) {
        int e = errno;
        snprintf(err, errcap, "%s: cannot read the bots file: %s", path, strerror(e));
        return -e;
    }
    char *text = tx_xmalloc(TX_BOTS_FILE_MAX + 1);
    size_t len = fread(text, 1, TX_BOTS_FILE_MAX + 1, in);
    int rc = 0;
    if (ferror(in)) {
        rc = -EIO;
        snprintf(err, errcap, "%s: cannot read the bots file: %s", path, strerror(EIO));
    } else if (len > TX_BOTS_FILE_MAX) {
        rc = -EFBIG;
        snprintf(err, errcap, "%s: larger than %d bytes: not a bots file", path, TX_BOTS_FILE_MAX);
    }
    fclose(in);
    if (rc == 0)
        rc = tx_bots_file_parse(path, text, len, ret, err, errcap);
    free(text);
    return rc;
}
