/* setup.c - from parsed options to what a run needs: the board, the pool
 * of bots or teams, the handicap, the openings, the limits, the command
 * that resumes it.
 *
 * The openings file and the bots file are read and checked here, before
 * any game, so that a bad line is one clear message (FILE:LINE) with exit
 * status 2 instead of a surprise mid-run. (The command line's bots were
 * looked up by the option parsing already: tx_options_cli.) The run's
 * sandbox is configured here too (sandbox.h), once, after every check of
 * the command line.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <limits.h>

#include "command.h"
#include "pairing.h"
#include "sandbox.h"
#include "setup.h"

/* Reads a whole file of at most 64 MiB into a malloc'ed buffer. */
static int read_file(const char *path, char **ret_text, size_t *ret_len)
{
    FILE *f = fopen(path, "re");
    if (!f)
        return -errno;
    size_t cap = 4096, len = 0, n;
    char *text = malloc(cap);
    int rc = 0;
    while (text && (n = fread(text + len, 1, cap - len, f)) > 0) {
        len += n;
        if (len < cap)
            continue;
        char *grown = cap < (64u << 20) ? realloc(text, cap * 2) : NULL;
        if (!grown) {
            rc = -EFBIG;
            break;
        }
        text = grown;
        cap *= 2;
    }
    if (!text)
        rc = -ENOMEM;
    else if (ferror(f))
        rc = -EIO;
    fclose(f);
    if (rc < 0) {
        free(text);
        return rc;
    }
    *ret_text = text;
    *ret_len = len;
    return 0;
}

/* The command as typed, for a shell: program, then the subcommand's words. */
static void resume_command(const char *program, int argc, char **argv, char *buf, size_t cap)
{
    char **words = calloc((size_t)argc + 1, sizeof *words);
    bool ok = words != NULL;
    if (ok) {
        words[0] = (char *)program;
        memcpy(words + 1, argv, (size_t)argc * sizeof *words);
        ok = tx_options_shell_command(argc + 1, words, buf, cap);
    }
    if (!ok)
        snprintf(buf, cap, "(the same command again)");
    free(words);
}

/* A bot of the file can start: its directory and its writable ones exist,
 * and its program is found (from that directory when it is a relative
 * path). */
static int check_file_bot(const char *path, const struct tx_bots_file_bot *b,
                          const struct tx_variant *variant, char *err, size_t errcap)
{
    char why[512];
    struct stat st;
    if (tx_command_check_placeholders(b->command, why, sizeof why) < 0) {
        snprintf(err, errcap, "%s:%d: bot '%s': command: %s", path, b->line, b->name, why);
        return -EINVAL;
    }
    if (b->dir && (stat(b->dir, &st) < 0 || !S_ISDIR(st.st_mode))) {
        snprintf(err, errcap, "%s:%d: bot '%s': dir: no such directory '%s'", path, b->line,
                 b->name, b->dir);
        return -EINVAL;
    }
    for (char **w = b->writable; w && *w; w++)
        if (stat(*w, &st) < 0 || !S_ISDIR(st.st_mode)) {
            snprintf(err, errcap, "%s:%d: bot '%s': writable: no such directory '%s'", path,
                     b->line, b->name, *w);
            return -EINVAL;
        }
    if (variant->width != variant->height && tx_command_has_size(b->command)) {
        snprintf(err, errcap,
                 "%s:%d: bot '%s': command: {size}, but the board is %dx%d: use {width} and "
                 "{height}",
                 path, b->line, b->name, variant->width, variant->height);
        return -EINVAL;
    }
    int rc = tx_command_check(b->command, variant, b->dir, why, sizeof why);
    if (rc < 0)
        snprintf(err, errcap, "%s:%d: bot '%s': %s", path, b->line, b->name, why);
    return rc < 0 ? -EINVAL : 0;
}

int tx_setup_add_file_bots(const char *path, const struct tx_bots_file *file,
                           const struct tx_variant *variant, struct tx_bot_spec *bots, int *n,
                           char *err, size_t errcap)
{
    for (int i = 0; i < file->nbots; i++) {
        const struct tx_bots_file_bot *b = &file->bots[i];
        for (int j = 0; j < *n; j++)
            if (!strcmp(bots[j].name, b->name)) {
                snprintf(err, errcap,
                         "%s:%d: bot '%s': name: already used by BOT '%s' on the command line",
                         path, b->line, b->name, bots[j].name);
                return -EINVAL;
            }
        if (*n == TX_POOL_BOTS_MAX) {
            snprintf(err, errcap, "%s:%d: more than %d bots in all", path, b->line,
                     TX_POOL_BOTS_MAX);
            return -EINVAL;
        }
        int rc = check_file_bot(path, b, variant, err, errcap);
        if (rc < 0)
            return rc;
        bots[(*n)++] = (struct tx_bot_spec){
            .name = b->name,
            .command = b->command,
            .dir = b->dir,
            .env = b->env,
            .memory_mb = b->memory_mb,
            .cpus = b->cpus,
            .writable = b->writable,
        };
    }
    return 0;
}

static int bot_index(const struct tx_setup *run, const char *name)
{
    for (int i = 0; i < run->nbots; i++)
        if (!strcmp(run->bots[i].name, name))
            return i;
    return -1;
}

/* Adds a team of the bots a and b (indexes in run->bots); its entrant is
 * the team as the pairing key reads it, with its bots' one memory limit. */
static int add_team(struct tx_setup *run, const char *name, int a, int b, const char *where,
                    char *err, size_t errcap)
{
    for (int i = 0; i < run->nteams; i++)
        if (!strcmp(run->teams[i].name, name)) {
            snprintf(err, errcap, "%steam %s given twice", where, name);
            return -EINVAL;
        }
    if (run->nteams == TX_SETUP_TEAMS_MAX) {
        snprintf(err, errcap, "%smore than %d teams in all", where, TX_SETUP_TEAMS_MAX);
        return -EINVAL;
    }
    const struct tx_bot_spec *x = &run->bots[a], *y = &run->bots[b];
    if (x->memory_mb != y->memory_mb) {
        snprintf(err, errcap,
                 "%steam %s: its bots %s and %s have different memory limits: a team has one "
                 "(memory_mb on a team of the bots file, or --bot-memory-mb)",
                 where, name, x->name, y->name);
        return -EINVAL;
    }
    run->teams[run->nteams] = (struct tx_team){.name = name, .bots = {x, y}};
    run->entrants[run->nteams++] = (struct tx_bot_spec){
        .name = name,
        .command = tx_pairing_team_command(x->name, x->command, y->name, y->command),
        .memory_mb = x->memory_mb,
    };
    return 0;
}

/* The teams of --teams (their bots by name) and of the bots file (file's
 * bots from run->bots[from]); every bot in exactly one. */
static int build_teams(const struct tx_options *o, struct tx_setup *run, int from, char *err,
                       size_t errcap)
{
    int rc, team_of[TX_POOL_BOTS_MAX];
    for (int i = 0; i < run->nbots; i++)
        team_of[i] = -1;
    for (int t = 0; t < o->nteams; t++) {
        const struct tx_options_team *ot = &o->teams[t];
        int idx[2];
        char where[160];
        snprintf(where, sizeof where, "--teams %s=%s,%s: ", ot->name, ot->bots[0], ot->bots[1]);
        for (int k = 0; k < 2; k++) {
            idx[k] = bot_index(run, ot->bots[k]);
            if (idx[k] < 0) {
                snprintf(err, errcap, "%sno bot is named %s (a BOT given as %s=COMMAND%s)", where,
                         ot->bots[k], ot->bots[k], o->bots_file ? ", or one of the bots file" : "");
                return -EINVAL;
            }
            if (team_of[idx[k]] >= 0) {
                snprintf(err, errcap, "%s%s plays for team %s already: a bot is in one team", where,
                         ot->bots[k], run->teams[team_of[idx[k]]].name);
                return -EINVAL;
            }
            team_of[idx[k]] = run->nteams;
        }
        if ((rc = add_team(run, ot->name, idx[0], idx[1], where, err, errcap)) < 0)
            return rc;
    }
    for (int t = 0; t < run->file.nteams; t++) {
        const struct tx_bots_file_team *ft = &run->file.teams[t];
        char where[PATH_MAX + 32];
        snprintf(where, sizeof where, "%s:%d: ", o->bots_file, ft->line);
        team_of[from + ft->first] = team_of[from + ft->first + 1] = run->nteams;
        if ((rc = add_team(run, ft->name, from + ft->first, from + ft->first + 1, where, err,
                           errcap)) < 0)
            return rc;
    }
    if (run->nteams == 0)
        return 0;
    for (int i = 0; i < run->nbots; i++)
        if (team_of[i] < 0) {
            snprintf(err, errcap,
                     "bot '%s' plays in no team: with teams (Double TwixT) every bot is in one "
                     "(--teams NAME=BOT1,BOT2)",
                     run->bots[i].name);
            return -EINVAL;
        }
    if (run->nteams < 2) {
        snprintf(err, errcap, "1 team in all: Double TwixT needs two teams of two bots");
        return -EINVAL;
    }
    return 0;
}

/* --handicap NAME, or the bots file's "handicap": true: a bot (a team)
 * of the run, on a board that is not square, which is turned for it in
 * each game (RULES.md "Handicap matches"). */
static int set_handicap(const struct tx_options *o, struct tx_setup *run, char *err, size_t errcap)
{
    const char *file = run->file.handicap;
    if (o->handicap && file && strcmp(o->handicap, file)) {
        snprintf(err, errcap, "--handicap %s, but the bots file gives the handicap to %s",
                 o->handicap, file);
        return -EINVAL;
    }
    const char *name = o->handicap ? o->handicap : file;
    if (!name)
        return 0;
    /* The option's own checks (options.c), for the file's handicap too. */
    const struct tx_variant *v = &o->variant;
    const char *why = v->width == v->height ? "needs a board that is not square (e.g. --board "
                                              "24x20): on a square board both sides have the "
                                              "same distance"
                      : v->opening == TX_OPENING_PIE ? "cannot go with --opening pie: the pie's "
                                                       "swap hands a side over with its distance"
                      : v->opening == TX_OPENING_CUT
                          ? "cannot go with --opening cut: the choice "
                            "after the cut takes a side with its distance"
                      : o->openings_file ? "cannot go with --openings-file: each game's board is "
                                           "turned, and the file's holes would not turn with it"
                                         : NULL;
    if (why) {
        snprintf(err, errcap, "%s: the handicap %s", o->handicap ? "--handicap" : o->bots_file,
                 why);
        return -EINVAL;
    }
    bool found = false;
    for (int i = 0; i < (run->nteams ? run->nteams : run->nbots); i++)
        found |= !strcmp(run->nteams ? run->teams[i].name : run->bots[i].name, name);
    if (!found) {
        snprintf(err, errcap, "--handicap %s: no %s of the run is named %s", name,
                 run->nteams ? "team" : "bot", name);
        return -EINVAL;
    }
    if (tx_geometry_new(v->height, v->width, &run->geo_turned) < 0) {
        snprintf(err, errcap, "cannot build a %d x %d board", v->height, v->width);
        return -ENOMEM;
    }
    run->handicap = name;
    return 0;
}

int tx_setup_new(const struct tx_options *o, enum tx_pool_kind kind, int64_t games_per_pair,
                 const char *program, int argc, char **argv, struct tx_setup **ret, char *err,
                 size_t errcap)
{
    struct tx_setup *run = calloc(1, sizeof *run);
    if (!run)
        return -ENOMEM;
    int rc = tx_geometry_new(o->variant.width, o->variant.height, &run->geo);
    if (rc < 0) {
        snprintf(err, errcap, "%s: cannot build a %d x %d board",
                 o->board_option ? o->board_option : "--board", o->variant.width,
                 o->variant.height);
        goto error;
    }
    for (int i = 0; i < o->nbots; i++)
        run->bots[run->nbots++] = o->bots[i];
    if (o->bots_file) {
        if ((rc = tx_bots_file_load(o->bots_file, &run->file, err, errcap)) < 0 ||
            (rc = tx_setup_add_file_bots(o->bots_file, &run->file, &o->variant, run->bots,
                                         &run->nbots, err, errcap)) < 0)
            goto error;
    }
    if ((rc = build_teams(o, run, o->nbots, err, errcap)) < 0 ||
        (rc = set_handicap(o, run, err, errcap)) < 0)
        goto error;
    /* The pool's entrants: the bots, or the teams. */
    const struct tx_bot_spec *entrants = run->nteams ? run->entrants : run->bots;
    int nentrants = run->nteams ? run->nteams : run->nbots;
    if (run->nbots < 2) {
        snprintf(err, errcap, "%d bot%s in all%s: a run needs at least 2", run->nbots,
                 run->nbots == 1 ? "" : "s", o->bots_file ? " (command line and bots file)" : "");
        rc = -EINVAL;
        goto error;
    }
    if (o->gauntlet && o->gauntlet >= nentrants) {
        snprintf(err, errcap, "--gauntlet %d: the gauntlet needs %s to play against (%d %s in all)",
                 o->gauntlet, run->nteams ? "teams" : "bots", nentrants,
                 run->nteams ? "teams" : "bots");
        rc = -EINVAL;
        goto error;
    }

    struct tx_pool *p = &run->pool;
    p->geo = run->geo;
    p->geo_turned = run->geo_turned;
    p->bots = entrants;
    p->nbots = nentrants;
    p->teams = run->nteams ? run->teams : NULL;
    p->kind = kind == TX_POOL_ROUND_ROBIN && o->gauntlet ? TX_POOL_GAUNTLET : kind;
    p->gauntlet = o->gauntlet;
    p->games_per_pair = games_per_pair;
    p->shard = o->shard;
    p->shards = o->shards;
    p->memory_mb = o->limits.memory_mb;
    p->terms = (struct tx_pairing_terms){
        .variant = o->variant,
        .handicap = run->handicap,
        .first_turn_ms = o->limits.first_turn_ms,
        .turn_ms = o->limits.turn_ms,
        .margin_ms = o->limits.margin_ms,
        .soft = o->limits.soft,
        .seed = o->seed,
        .openings = o->openings,
    };
    if (o->openings_file) {
        char *text = NULL;
        size_t len = 0;
        rc = read_file(o->openings_file, &text, &len);
        if (rc < 0) {
            snprintf(err, errcap, "--openings-file: cannot read %s: %s", o->openings_file,
                     strerror(-rc));
            goto error;
        }
        rc = tx_schedule_parse_openings(run->geo, o->variant.rules, o->openings_file, text, len,
                                        &run->lines, &p->terms.nlines, err, errcap);
        free(text);
        if (rc < 0)
            goto error;
        p->terms.lines = run->lines;
    }
    tx_pairing_terms_hash(&p->terms);
    p->terms.variant.teams = run->nteams > 0;
    if ((rc = tx_pool_init(p)) < 0) {
        snprintf(err, errcap, "cannot build the pairings of %d %s", nentrants,
                 run->nteams ? "teams" : "bots");
        goto error;
    }
    /* How bots are isolated, for the whole run (warns once if it cannot). */
    struct tx_sandbox_request sandbox = o->sandbox;
    sandbox.output = o->output;
    sandbox.bots_file = o->bots_file;
    char who[64];
    snprintf(who, sizeof who, "twixt-arena %s", argc > 0 ? argv[0] : "");
    if ((rc = tx_sandbox_configure(&sandbox, who, err, errcap)) < 0)
        goto error;
    tx_match_config_init(&run->match, run->geo, o->variant.rules);
    tx_options_apply(o, &run->match);
    run->match.opening = o->variant.opening;
    run->match.teams = run->nteams > 0;
    resume_command(program, argc, argv, run->resume_command, sizeof run->resume_command);
    *ret = run;
    return 0;

error:
    tx_setup_free(run);
    return rc;
}

void tx_setup_free(struct tx_setup *run)
{
    if (run) {
        for (int i = 0; i < run->nteams; i++)
            free((char *)run->entrants[i].command);
        tx_geometry_free(run->geo_turned);
        tx_pool_free(&run->pool);
        tx_bots_file_free(&run->file);
        free(run->lines);
        tx_geometry_free(run->geo);
        free(run);
    }
}
