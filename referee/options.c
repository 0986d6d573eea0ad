/* options.c - parsing the options shared by play, tournament and validate.
 *
 * A table lists every option with its group, whether it takes a value and
 * the help line, so the parser, the error messages and --help cannot drift
 * apart. Values are checked here, with their range, so that a typo is a
 * clear message before any bot is started, never a surprise mid-run.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "command.h"
#include "geometry.h"
#include "options.h"
#include "record.h"

enum option_id {
    OPT_FIRST_TURN_MS,
    OPT_TURN_MS,
    OPT_MARGIN_MS,
    OPT_SOFT,
    OPT_MEMORY,
    OPT_SIZE,
    OPT_SEED,
    OPT_OUTPUT,
    OPT_CONCURRENCY,
    OPT_OPENINGS,
    OPT_OPENINGS_FILE,
    OPT_SHARD,
    OPT_GAMES,
    OPT_PAIRS,
    OPT_SPRT,
    OPT_JSON,
    OPT_SANDBOX,
    OPT_BOT_NETWORK,
    OPT_PIN_CORES,
    OPT_BOT_ENV,
};

static const struct option {
    enum option_id id;
    const char *name;  /* "--turn-ms" */
    const char *alias; /* "-o", or NULL */
    unsigned group;    /* enum tx_options_accept */
    const char *value; /* what the value is, for help and errors; NULL: a flag */
    const char *help;
} options[] = {
    {OPT_GAMES, "--games", NULL, TX_OPTIONS_GAMES, "N",
     "games to play (default 2; with --sprt the maximum, default 100000)"},
    {OPT_PAIRS, "--games-per-pair", NULL, TX_OPTIONS_PAIRS, "N",
     "games for each pair of bots, even (default 2)"},
    {OPT_SEED, "--seed", NULL, TX_OPTIONS_LIMITS, "S",
     "seed of the run: per-game {seed} and openings (default 1)"},
    {OPT_OUTPUT, "--output", "-o", TX_OPTIONS_OUTPUT, "FILE",
     "append one JSON record per game; resumes a run already in FILE"},
    {OPT_CONCURRENCY, "--concurrency", NULL, TX_OPTIONS_RUN, "C",
     "games played at once (default: the number of cores)"},
    {OPT_OPENINGS, "--openings", NULL, TX_OPTIONS_RUN, "K",
     "both games of a pair start from the same K random forced moves"},
    {OPT_OPENINGS_FILE, "--openings-file", NULL, TX_OPTIONS_RUN, "FILE",
     "forced openings, one per line (\"F6 G8 D5\")"},
    {OPT_SHARD, "--shard", NULL, TX_OPTIONS_RUN, "K/M",
     "play only the games whose index is K modulo M (1 <= K <= M)"},
    {OPT_SPRT, "--sprt", NULL, TX_OPTIONS_SPRT,
     "elo0=0,elo1=10,alpha=0.05,beta=0.05,model=normalized|logistic",
     "play game pairs until the SPRT accepts H0 or H1"},
    {OPT_FIRST_TURN_MS, "--first-turn-ms", NULL, TX_OPTIONS_LIMITS, "MS",
     "limit of each bot's first turn (default 1000)"},
    {OPT_TURN_MS, "--turn-ms", NULL, TX_OPTIONS_LIMITS, "MS",
     "limit of every later turn (default 300)"},
    {OPT_MARGIN_MS, "--time-margin-ms", NULL, TX_OPTIONS_LIMITS, "MS",
     "lateness forgiven before a timeout (default 0)"},
    {OPT_SOFT, "--soft-timeouts", NULL, TX_OPTIONS_LIMITS, NULL,
     "CodinGame mode: up to 50 ms over forgiven twice a game"},
    {OPT_MEMORY, "--bot-memory-mb", NULL, TX_OPTIONS_LIMITS, "MB",
     "memory limit of each bot (default 768, 0 for none)"},
    {OPT_SIZE, "--size", NULL, TX_OPTIONS_LIMITS, "N",
     "board size, 5 to 26 (default 12; {size} in commands)"},
    {OPT_JSON, "--json", NULL, TX_OPTIONS_JSON, NULL, "print the result as one JSON object"},
    {OPT_SANDBOX, "--sandbox", NULL, TX_OPTIONS_SANDBOX, "auto|on|off",
     "isolate each bot (own namespaces, read-only files, limits); auto: where the machine can"},
    {OPT_BOT_NETWORK, "--bot-network", NULL, TX_OPTIONS_SANDBOX, NULL,
     "sandboxed bots keep the network"},
    {OPT_PIN_CORES, "--pin-cores", NULL, TX_OPTIONS_SANDBOX, NULL,
     "pin each running game's bots to a core of their own"},
    {OPT_BOT_ENV, "--bot-env", NULL, TX_OPTIONS_SANDBOX, "NAME=VALUE",
     "add to every bot's environment (repeatable; NAME alone: its value here)"},
};
#define NOPTIONS (sizeof options / sizeof options[0])

/* Parses a whole decimal integer in [min, max]; false on anything else. */
static bool parse_int64(const char *s, int64_t min, int64_t max, int64_t *ret)
{
    char *end;
    if (*s == '\0' || *s == ' ' || *s == '+')
        return false;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno || *end != '\0' || v < min || v > max)
        return false;
    *ret = v;
    return true;
}

static bool parse_int(const char *s, int min, int max, int *ret)
{
    int64_t v;
    if (!parse_int64(s, min, max, &v))
        return false;
    *ret = (int)v;
    return true;
}

static bool parse_u64(const char *s, uint64_t *ret)
{
    char *end;
    if (*s < '0' || *s > '9')
        return false;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end != '\0')
        return false;
    *ret = v;
    return true;
}

static bool parse_double(const char *s, double *ret)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end != '\0')
        return false;
    *ret = v;
    return true;
}

/* "elo0=0,elo1=10,alpha=0.05,beta=0.05": any subset, any order. */
static int parse_sprt(const char *value, struct tx_sprt_options *sprt, char *err, size_t errcap)
{
    char buf[256];
    if (strlen(value) >= sizeof buf) {
        snprintf(err, errcap, "--sprt: value too long");
        return -EINVAL;
    }
    strcpy(buf, value);
    for (char *save = NULL, *item = strtok_r(buf, ",", &save); item;
         item = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(item, '=');
        double v;
        if (eq && !strncmp(item, "model=", 6)) {
            if (!strcmp(eq + 1, "normalized") || !strcmp(eq + 1, "logistic")) {
                sprt->logistic = !strcmp(eq + 1, "logistic");
                continue;
            }
            snprintf(err, errcap, "--sprt: model must be normalized or logistic, got '%s'", eq + 1);
            return -EINVAL;
        }
        if (!eq || !parse_double(eq + 1, &v)) {
            snprintf(err, errcap, "--sprt: expected KEY=NUMBER (elo0, elo1, alpha, beta), got '%s'",
                     item);
            return -EINVAL;
        }
        *eq = '\0';
        if (!strcmp(item, "elo0"))
            sprt->elo0 = v;
        else if (!strcmp(item, "elo1"))
            sprt->elo1 = v;
        else if (!strcmp(item, "alpha"))
            sprt->alpha = v;
        else if (!strcmp(item, "beta"))
            sprt->beta = v;
        else {
            snprintf(err, errcap,
                     "--sprt: unknown key '%s' (expected elo0, elo1, alpha, beta or model)", item);
            return -EINVAL;
        }
    }
    if (!(sprt->alpha > 0 && sprt->alpha < 0.5 && sprt->beta > 0 && sprt->beta < 0.5)) {
        snprintf(err, errcap, "--sprt: alpha and beta must be between 0 and 0.5");
        return -EINVAL;
    }
    if (!(sprt->elo1 > sprt->elo0) || sprt->elo0 < -1000 || sprt->elo1 > 1000) {
        snprintf(err, errcap, "--sprt: elo1 must be greater than elo0 (both within +-1000)");
        return -EINVAL;
    }
    sprt->enabled = true;
    return 0;
}

/* Stores one option's value, checking its range. */
static int set_option(struct tx_options *o, const struct option *opt, const char *v, char *err,
                      size_t errcap)
{
    int64_t n;
    bool ok = true;
    const char *expected = "";

    switch (opt->id) {
    case OPT_FIRST_TURN_MS:
        ok = parse_int(v, 1, 3600000, &o->first_turn_ms);
        expected = "milliseconds, 1 to 3600000";
        break;
    case OPT_TURN_MS:
        ok = parse_int(v, 1, 3600000, &o->turn_ms);
        expected = "milliseconds, 1 to 3600000";
        break;
    case OPT_MARGIN_MS:
        ok = parse_int(v, 0, 3600000, &o->margin_ms);
        expected = "milliseconds, 0 to 3600000";
        break;
    case OPT_SOFT:
        o->soft_timeouts = true;
        break;
    case OPT_MEMORY:
        /* 0: no limit (match.h), e.g. for bots built with sanitizers, which cannot start under
         * RLIMIT_DATA */
        ok = !strcmp(v, "0") ? (o->bot_memory_mb = 0, true)
                             : parse_int(v, 16, 1 << 20, &o->bot_memory_mb);
        expected = "megabytes, 16 to 1048576, or 0 for no limit";
        break;
    case OPT_SIZE:
        ok = parse_int(v, TX_SIZE_MIN, TX_SIZE_MAX, &o->size);
        expected = "a board size from 5 to 26";
        break;
    case OPT_SEED:
        ok = parse_u64(v, &o->seed);
        o->seed_given = true;
        expected = "a whole number from 0 to 18446744073709551615";
        break;
    case OPT_OUTPUT:
        ok = *v != '\0';
        o->output = v;
        expected = "a file name";
        break;
    case OPT_CONCURRENCY:
        ok = parse_int(v, 1, TX_OPTIONS_CONCURRENCY_MAX, &o->concurrency);
        expected = "a number of games from 1 to 256";
        break;
    case OPT_OPENINGS:
        ok = parse_int(v, 0, TX_SCHEDULE_OPENING_MAX, &o->openings);
        expected = "a number of moves from 0 to 64";
        break;
    case OPT_OPENINGS_FILE:
        ok = *v != '\0';
        o->openings_file = v;
        expected = "a file name";
        break;
    case OPT_SHARD: {
        char *slash = strchr(v, '/');
        char k[24];
        ok = slash && (size_t)(slash - v) < sizeof k;
        if (ok) {
            memcpy(k, v, (size_t)(slash - v));
            k[slash - v] = '\0';
            ok = parse_int(k, 1, 1000000, &o->shard) &&
                 parse_int(slash + 1, 1, 1000000, &o->shards) && o->shard <= o->shards;
        }
        expected = "K/M with 1 <= K <= M, e.g. 1/4";
        break;
    }
    case OPT_GAMES:
        ok = parse_int64(v, 1, TX_OPTIONS_GAMES_MAX, &n);
        o->games = n;
        expected = "a number of games from 1 to 1000000000";
        break;
    case OPT_PAIRS:
        ok = parse_int64(v, 2, TX_OPTIONS_GAMES_MAX, &n) && n % 2 == 0;
        o->games = n;
        expected = "an even number of games (colours are exchanged), at least 2";
        break;
    case OPT_SPRT:
        return parse_sprt(v, &o->sprt, err, errcap);
    case OPT_JSON:
        o->json = true;
        break;
    case OPT_SANDBOX:
        ok = tx_sandbox_mode_parse(v, &o->sandbox.mode) == 0;
        expected = "auto, on or off";
        break;
    case OPT_BOT_NETWORK:
        o->sandbox.network = true;
        break;
    case OPT_PIN_CORES:
        o->sandbox.pin_cores = true;
        break;
    case OPT_BOT_ENV: /* NAME=VALUE is checked by tx_sandbox_init */
        ok = o->sandbox.nenv < TX_SANDBOX_ENV_MAX;
        if (ok)
            o->sandbox.env[o->sandbox.nenv++] = v;
        expected = "at most 32 --bot-env options";
        break;
    }
    if (!ok) {
        snprintf(err, errcap, "%s: expected %s, got '%s'", opt->name, expected, v);
        return -EINVAL;
    }
    return 0;
}

static bool name_taken(const struct tx_options *o, const char *name)
{
    for (int i = 0; i < o->nbots; i++)
        if (!strcmp(o->bots[i].name, name))
            return true;
    return false;
}

/* Adds a BOT argument; names must be unique because standings count by
 * name, so a repeated derived name gets "-2", "-3" appended. */
static int add_bot(struct tx_options *o, const char *arg, char *err, size_t errcap)
{
    char name[TX_COMMAND_NAME_MAX];
    const char *command;
    char why[256];

    if (o->nbots == TX_SCHEDULE_BOTS_MAX) {
        snprintf(err, errcap, "at most %d bots", TX_SCHEDULE_BOTS_MAX);
        return -EINVAL;
    }
    if (tx_command_parse_bot(arg, name, &command, why, sizeof why) < 0) {
        snprintf(err, errcap, "BOT '%s': %s", arg, why);
        return -EINVAL;
    }
    char unique[TX_COMMAND_NAME_MAX + 16];
    snprintf(unique, sizeof unique, "%s", name);
    for (int suffix = 2; name_taken(o, unique); suffix++)
        snprintf(unique, sizeof unique, "%s-%d", name, suffix);
    o->bots[o->nbots].name = tx_strdup(unique);
    o->bots[o->nbots].command = tx_strdup(command);
    o->nbots++;
    return 0;
}

static const struct option *find_option(const char *arg, size_t len)
{
    for (size_t i = 0; i < NOPTIONS; i++) {
        const struct option *opt = &options[i];
        if ((strlen(opt->name) == len && !strncmp(arg, opt->name, len)) ||
            (opt->alias && strlen(opt->alias) == len && !strncmp(arg, opt->alias, len)))
            return opt;
    }
    return NULL;
}

int tx_options_parse(struct tx_options *o, unsigned accept, int min_bots, int max_bots, int argc,
                     char **argv, char *err, size_t errcap)
{
    memset(o, 0, sizeof *o);
    o->size = TX_SIZE_DEFAULT;
    o->seed = TX_OPTIONS_DEFAULT_SEED;
    o->first_turn_ms = 1000;
    o->turn_ms = 300;
    o->margin_ms = 0;
    o->bot_memory_mb = 768;
    o->shard = o->shards = 1;
    o->sprt = (struct tx_sprt_options){.elo0 = 0, .elo1 = 10, .alpha = 0.05, .beta = 0.05};

    bool only_bots = false;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (only_bots || arg[0] != '-' || arg[1] == '\0') {
            if (add_bot(o, arg, err, errcap) < 0)
                return -EINVAL;
            continue;
        }
        if (!strcmp(arg, "--")) {
            only_bots = true;
            continue;
        }
        if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
            o->help = true;
            continue;
        }
        const char *eq = strchr(arg, '=');
        size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
        const struct option *opt = find_option(arg, len);
        if (!opt || !(opt->group & accept)) {
            snprintf(err, errcap, "unknown option '%.*s' (see --help)", (int)len, arg);
            return -EINVAL;
        }
        const char *value = NULL;
        if (opt->value) {
            if (eq)
                value = eq + 1;
            else if (i + 1 < argc)
                value = argv[++i];
            else {
                snprintf(err, errcap, "%s: missing value %s", opt->name, opt->value);
                return -EINVAL;
            }
        } else if (eq) {
            snprintf(err, errcap, "%s takes no value", opt->name);
            return -EINVAL;
        }
        if (set_option(o, opt, value, err, errcap) < 0)
            return -EINVAL;
    }
    if (o->help)
        return 0;
    if (o->openings && o->openings_file) {
        snprintf(err, errcap, "--openings and --openings-file: give one or the other");
        return -EINVAL;
    }
    if (o->nbots < min_bots || o->nbots > max_bots) {
        if (min_bots == max_bots)
            snprintf(err, errcap, "expected %d BOT arguments, got %d", min_bots, o->nbots);
        else
            snprintf(err, errcap, "expected %d to %d BOT arguments, got %d", min_bots, max_bots,
                     o->nbots);
        return -EINVAL;
    }
    return 0;
}

void tx_options_apply(const struct tx_options *o, struct tx_match_config *config)
{
    config->first_turn_ms = o->first_turn_ms;
    config->turn_ms = o->turn_ms;
    config->margin_ms = o->margin_ms;
    config->soft_timeouts = o->soft_timeouts;
    config->bot_memory_mb = o->bot_memory_mb;
}

void tx_options_usage(FILE *out, unsigned accept)
{
    for (size_t i = 0; i < NOPTIONS; i++) {
        const struct option *opt = &options[i];
        if (!(opt->group & accept))
            continue;
        char left[64];
        snprintf(left, sizeof left, "%s%s%s%s", opt->alias ? opt->alias : "",
                 opt->alias ? ", " : "", opt->name,
                 opt->value && strlen(opt->value) < 8 ? " " : "");
        if (opt->value && strlen(opt->value) < 8)
            strncat(left, opt->value, sizeof left - strlen(left) - 1);
        fprintf(out, "  %-24s %s\n", left, opt->help);
        if (opt->value && strlen(opt->value) >= 8)
            fprintf(out, "  %-24s   (%s %s)\n", "", opt->name, opt->value);
    }
    fprintf(out, "  %-24s %s\n", "-h, --help", "this help");
}

void tx_options_free(struct tx_options *o)
{
    for (int i = 0; i < o->nbots; i++) {
        free((char *)o->bots[i].name);
        free((char *)o->bots[i].command);
    }
    o->nbots = 0;
}

bool tx_options_shell_command(int argc, char **argv, char *buf, size_t cap)
{
    size_t n = 0;
    for (int i = 0; i < argc; i++) {
        const char *w = argv[i];
        bool plain = *w != '\0';
        for (const char *p = w; *p; p++)
            plain &=
                strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./=:,+@%",
                       *p) != NULL;
        if (i > 0 && n + 1 < cap)
            buf[n++] = ' ';
        if (!plain && n + 1 < cap)
            buf[n++] = '\'';
        for (const char *p = w; *p; p++) {
            /* ' inside '...' is written '\'' */
            const char *piece = *p == '\'' && !plain ? "'\\''" : NULL;
            size_t len = piece ? 4 : 1;
            if (n + len >= cap)
                return false;
            memcpy(buf + n, piece ? piece : p, len);
            n += len;
        }
        if (!plain && n + 1 < cap)
            buf[n++] = '\'';
        if (n + 1 >= cap)
            return false;
    }
    buf[n] = '\0';
    return true;
}
