/* validate.c - the battery of `twixt-arena validate`: the contract of validate.h.
 *
 * Games: the battery planned by validate-plan.c is the game source of the
 * tournament runner (runner.h), which plays its games on one loop, at most
 * config->concurrency at once, and builds and appends each record off the
 * loop thread like any tournament's. Its record callback reads the record
 * for findings (validate-findings.c) and keeps the first moves of the game
 * the probe needs, so nothing is read back from the file. Probe: that game
 * is re-fed (refeed.h) to time the start-up and watch what the bot does
 * when its stdin closes.
 *
 * The records file is the user's -o FILE, which must be new or empty (an
 * old run's games would be mixed with this one's, and a finding's "replay
 * --game K" would be ambiguous), or a temporary file that is removed at the
 * end unless a finding points into it.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "alloc.h"
#include "paths.h"
#include "validate-private.h"

const char *tx_validate_check_name(enum tx_validate_check check)
{
    static const char *const names[] = {"illegal",      "timeout",     "crash",   "extra-lines",
                                        "long-message", "stderr",      "no-exit", "children",
                                        "slow-start",   "slow-answers"};
    _Static_assert(sizeof names / sizeof names[0] == TX_CHECKS, "a name for every check");
    return (unsigned)check < TX_CHECKS ? names[check] : "?";
}

const char *tx_validate_scenario_name(enum tx_validate_scenario scenario)
{
    static const char *const names[] = {"against",      "swap",        "diagonal",
                                        "off-diagonal", "blocked",     "crossing",
                                        "edits",        "forced-late", "forced-crossing"};
    _Static_assert(sizeof names / sizeof names[0] == TX_SCENARIOS, "a name for every scenario");
    return (unsigned)scenario < TX_SCENARIOS ? names[scenario] : "?";
}

bool tx_validate_check_fails(enum tx_validate_check check)
{
    return check <= TX_CHECK_EXTRA_LINES;
}

bool tx_validate_codingame(const struct tx_validate_config *c, enum tx_validate_scenario scenario)
{
    return scenario < TX_SCENARIO_FORCED_LATE && c->rules == TX_RULES_PP &&
           c->opening == TX_OPENING_SWAP && c->geo->width == TX_SIZE_DEFAULT &&
           c->geo->height == TX_SIZE_DEFAULT;
}

/* ---- the records file ---- */

/* config->records if it is new or empty, else a new temporary file. */
static int open_records(struct tx_validate_battery *v, char *err, size_t errcap)
{
    struct tx_validate_report *rep = v->rep;
    const char *path = v->c->records;
    struct stat st;
    if (path) {
        if (stat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
            snprintf(err, errcap,
                     "%s: the file is not empty; validate writes its games to a new or empty "
                     "file (remove it, or name another -o FILE)",
                     path);
            return -EEXIST;
        }
        snprintf(rep->records, sizeof rep->records, "%s", path);
        return 0;
    }
    const char *dir = getenv("TMPDIR");
    if (!dir || !*dir)
        dir = "/tmp";
    snprintf(rep->records, sizeof rep->records, "%s/twixt-validate-XXXXXX.jsonl", dir);
    int fd = mkstemps(rep->records, 6);
    if (fd < 0) {
        int e = errno;
        snprintf(err, errcap, "cannot create a records file in %s: %s", dir, strerror(e));
        rep->records[0] = '\0';
        return -e;
    }
    close(fd);
    rep->records_temporary = true;
    return 0;
}

/* ---- the games, through the runner ---- */

/* Keeps the probe game's first TX_VALIDATE_PROBE_TURNS turns of player 1
 * (the bot) that were played: the moves up to the last of them, as a
 * record of a game still running. */
static void keep_probe(struct tx_validate_battery *v, const struct tx_record *r)
{
    struct tx_record *k = &v->probe;
    bool bot_lost = r->result.winner == 1 && r->result.reason != TX_REASON_CONNECTION;
    int played = r->nmoves - (bot_lost ? 1 : 0), upto = 0, turns = 0;
    for (int i = 0; i < played && turns < TX_VALIDATE_PROBE_TURNS; i++)
        if (r->moves[i].player == 0 && !r->moves[i].forced && r->moves[i].move) {
            turns++;
            upto = i + 1;
        }
    if (upto == 0)
        return;
    *k = (struct tx_record){.game = r->game,
                            .seed = r->seed,
                            .width = r->width,
                            .height = r->height,
                            .rules = r->rules,
                            .limits = r->limits};
    k->moves = tx_xcalloc((size_t)upto, sizeof *k->moves);
    for (int i = 0; i < upto; i++)
        k->moves[i] = (struct tx_record_move){.player = r->moves[i].player,
                                              .move = tx_strdup(r->moves[i].move),
                                              .us = r->moves[i].us,
                                              .forced = r->moves[i].forced};
    k->nmoves = upto;
    k->result.winner = -1;
    k->result.reason = TX_REASON_INTERRUPTED;
}

/* The runner's record callback, on the loop thread once the record is in
 * the file: reading a record is microseconds, no file I/O. */
static void on_record(struct tx_runner *runner, const struct tx_record *record, bool resumed,
                      void *data)
{
    struct tx_validate_battery *v = data;
    (void)runner;
    (void)resumed; /* never: the file was empty */
    if (record->game < 1 || record->game > v->nslots ||
        record->result.reason == TX_REASON_INTERRUPTED)
        return; /* a game cut short by Ctrl-C says nothing about the bot */
    tx_validate_analyse(v, &v->slots[record->game - 1], record);
    if (record->game == v->probe_game)
        keep_probe(v, record);
    if (v->c->progress)
        fprintf(stderr, "\rvalidate: %d of %d games played", ++v->finished, v->nslots);
}

/* Re-feeds the bot its kept turns of the probe game, then closes its stdin:
 * start-up time, exit, processes left. */
static void probe(struct tx_validate_battery *v, char *err, size_t errcap)
{
    const struct tx_validate_config *c = v->c;
    if (v->probe.nmoves == 0)
        return;
    struct tx_refeed_config rc = {
        .geo = c->geo,
        .record = &v->probe,
        .player = 0,
        .command = c->command,
        .limits = c->limits,
        .probe_exit = true,
    };
    if (tx_refeed_run(&rc, &v->rep->probe, err, errcap) == 0)
        v->rep->probe_game = v->probe_game;
}

static void init_games(struct tx_validate_battery *v)
{
    struct tx_validate_report *rep = v->rep;
    rep->ngames = v->nslots;
    rep->games = tx_xcalloc((size_t)v->nslots + 1, sizeof *rep->games);
    for (int i = 0; i < v->nslots; i++) {
        const struct tx_validate_slot *s = &v->slots[i];
        struct tx_validate_game *g = &rep->games[i];
        g->index = s->spec.index;
        g->scenario = s->scenario;
        g->player = s->player;
        g->nforced = s->nforced;
        g->codingame = tx_validate_codingame(v->c, s->scenario);
        g->winner = -1;
        g->reason = TX_REASON_INTERRUPTED;
        g->fewest_holes = -1;
        snprintf(g->opponent, sizeof g->opponent, "%s", s->opponent_name);
        /* The probe: the first game the bot opens as player 1. */
        if (!v->probe_game && s->player == 0 && s->nforced == 0)
            v->probe_game = s->spec.index;
    }
}

int tx_validate_run(const struct tx_validate_config *c, struct tx_validate_report *ret, char *err,
                    size_t errcap)
{
    memset(ret, 0, sizeof *ret);
    ret->probe.startup_us = -1;
    struct tx_validate_battery *v = tx_xcalloc(1, sizeof *v);
    v->c = c;
    v->rep = ret;
    int rc = open_records(v, err, errcap);
    if (rc < 0)
        goto out;
    if (c->sandbox) {
        struct tx_sandbox_request sandbox = *c->sandbox;
        sandbox.output = ret->records;
        if ((rc = tx_sandbox_configure(&sandbox, "twixt-arena validate", err, errcap)) < 0)
            goto out;
    }
    const struct tx_sandbox *sb = tx_sandbox_current();
    ret->sandbox_active = sb->active;
    ret->sandbox_mode = sb->mode;
    tx_sandbox_describe(sb, ret->sandbox, sizeof ret->sandbox);
    tx_validate_plan_battery(v);
    init_games(v);

    struct tx_match_config match;
    tx_match_config_init(&match, c->geo, c->rules);
    match.opening = c->opening;
    match.limits = c->limits;
    struct tx_runner_games games;
    tx_validate_plan_games(v, &games);
    struct tx_runner_config runner = {
        .games = &games,
        .match = &match,
        .concurrency = c->concurrency,
        .output = ret->records,
        .record_cb = on_record,
        .data = v,
    };
    struct tx_runner_summary summary;
    rc = tx_runner_run(&runner, &summary, err, errcap);
    if (c->progress && v->finished)
        fputs("\r\033[K", stderr);
    if (rc < 0)
        goto out;
    ret->interrupted = summary.signal;
    if (!summary.signal)
        probe(v, err, errcap);
    tx_validate_probe_findings(v);
    tx_validate_conclude(v);
out:
    /* A temporary file is worth keeping only for a finding to replay. */
    if (ret->records_temporary && (rc < 0 || ret->interrupted || ret->nfindings == 0)) {
        unlink(ret->records);
        ret->records[0] = '\0';
    }
    for (int i = 0; i < v->nslots; i++)
        free(v->slots[i].opponent_command);
    free(v->slots);
    free(v->first.us);
    free(v->later.us);
    tx_record_free(&v->probe);
    free(v);
    return rc;
}

void tx_validate_report_free(struct tx_validate_report *rep)
{
    for (int i = 0; i < rep->nfindings; i++) {
        free(rep->findings[i].games);
        free(rep->findings[i].input);
        free(rep->findings[i].stderr_text);
    }
    free(rep->findings);
    free(rep->games);
    tx_refeed_result_free(&rep->probe);
    memset(rep, 0, sizeof *rep);
}
