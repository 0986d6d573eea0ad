/* validate.c - the battery of `twixt-arena validate`: the contract of validate.h.
 *
 * Games: every game of the battery (planned by validate-plan.c) is a
 * tx_match on one loop, at most config->concurrency at once; each record is
 * written to the records file and read for findings (validate-findings.c)
 * the moment it ends, then dropped (a battery of any length runs in
 * constant memory, answer times aside). Probe: one game is re-fed
 * (refeed.h) to time the start-up and watch what the bot does when its
 * stdin closes.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "paths.h"
#include "validate-private.h"

const char *tx_validate_check_name(enum tx_validate_check check)
{
    static const char *const names[] = {"illegal",      "timeout", "crash",   "extra-lines",
                                        "long-message", "stderr",  "no-exit", "children"};
    return (unsigned)check < sizeof names / sizeof names[0] ? names[check] : "?";
}

const char *tx_validate_scenario_name(enum tx_validate_scenario scenario)
{
    static const char *const names[] = {"against",      "swap", "diagonal",
                                        "off-diagonal", "late", "crossing"};
    return (unsigned)scenario < sizeof names / sizeof names[0] ? names[scenario] : "?";
}

int tx_validate_find_bundled(const char *name, char *buf, size_t cap)
{
    return tx_paths_bundled_bot(name, buf, cap, NULL);
}

/* ---- running the games ---- */

static void start_next(struct tx_validate_battery *v);

/* What game_done needs: the battery and the game's slot. */
struct done_ctx {
    struct tx_validate_battery *v;
    struct tx_validate_slot *s;
};

static void game_done(struct tx_match *match, struct tx_record *record, void *data)
{
    struct done_ctx *d = data;
    struct tx_validate_battery *v = d->v;
    char *json = NULL;
    (void)match;
    if (tx_record_to_json(record, &json) == 0) {
        if (fputs(json, v->records) == EOF || fputc('\n', v->records) == EOF ||
            fflush(v->records) != 0)
            v->write_errno = errno ? errno : EIO;
        free(json);
    }
    tx_validate_analyse(v, d->s, record);
    if (v->c->progress)
        fprintf(stderr, "\rvalidate: %d of %d games played", ++v->finished, v->nslots);
    tx_record_free(record);
    free(record);
    free(d);
    v->running--;
    start_next(v);
}

static void start_next(struct tx_validate_battery *v)
{
    while (v->running < v->c->concurrency && v->started < v->nslots) {
        struct tx_validate_slot *s = &v->slots[v->started++];
        struct done_ctx *d = malloc(sizeof *d);
        if (!d)
            abort();
        *d = (struct done_ctx){v, s};
        int r = tx_match_start(&v->loop, &v->match, &s->spec, game_done, d, NULL);
        if (r < 0) {
            /* No launcher (openings are legal by construction): nothing can be validated. */
            free(d);
            v->start_error = r;
            v->started = v->nslots;
            break;
        }
        v->running++;
    }
}
/* Re-feeds the bot its first TX_VALIDATE_PROBE_TURNS turns of the first game
 * it played as player 1 (read back from the records file), then closes its
 * stdin: start-up time, exit, processes left. */
static void probe(struct tx_validate_battery *v, char *err, size_t errcap)
{
    const struct tx_validate_config *c = v->c;
    int64_t game = 0;
    for (int i = 0; i < v->nslots && !game; i++)
        if (v->slots[i].player == 0 && v->slots[i].nforced == 0)
            game = v->slots[i].spec.index;
    FILE *in = game ? fopen(c->records, "re") : NULL;
    if (!in)
        return;
    char *line = NULL;
    size_t cap = 0;
    struct tx_record r = {0};
    bool found = false;
    while (!found && getline(&line, &cap, in) > 0) {
        tx_record_free(&r);
        found = tx_record_from_json(line, strlen(line), &r, err, errcap) == 0 && r.game == game;
    }
    fclose(in);
    free(line);
    int upto = 0, turns = 0;
    for (int i = 0; found && i < r.nmoves && turns < TX_VALIDATE_PROBE_TURNS; i++)
        if (r.moves[i].player == 0 && !r.moves[i].forced && r.moves[i].move) {
            turns++;
            upto = i + 1;
        }
    if (upto > 0) {
        struct tx_refeed_config rc = {
            .geo = c->geo,
            .record = &r,
            .player = 0,
            .command = c->command,
            .upto = upto,
            .limits = c->limits,
            .probe_exit = true,
        };
        if (tx_refeed_run(&rc, &v->rep->probe, err, errcap) == 0)
            v->rep->probe_game = game;
    }
    tx_record_free(&r);
}

int tx_validate_run(const struct tx_validate_config *c, struct tx_validate_report *ret, char *err,
                    size_t errcap)
{
    memset(ret, 0, sizeof *ret);
    ret->probe.startup_us = -1;
    struct tx_validate_battery *v = calloc(1, sizeof *v);
    if (!v)
        abort();
    v->c = c;
    v->rep = ret;
    int rc = 0;
    v->records = fopen(c->records, "we");
    if (!v->records) {
        rc = -errno;
        snprintf(err, errcap, "cannot write the records file %s: %s", c->records, strerror(errno));
        goto out;
    }
    tx_match_config_init(&v->match, c->geo);
    v->match.limits = c->limits;
    v->match.run = "validate";
    tx_validate_plan_battery(v);
    ret->ngames = v->nslots;
    ret->games = calloc((size_t)v->nslots + 1, sizeof *ret->games);
    if (!ret->games || uv_loop_init(&v->loop) < 0)
        abort();
    for (int i = 0; i < v->nslots; i++) {
        const struct tx_validate_slot *s = &v->slots[i];
        struct tx_validate_game *g = &ret->games[i];
        g->index = s->spec.index;
        g->scenario = s->scenario;
        g->player = s->player;
        g->nforced = s->nforced;
        g->winner = -1;
        g->reason = TX_REASON_INTERRUPTED;
        snprintf(g->opponent, sizeof g->opponent, "%s", s->opponent_name);
    }
    start_next(v);
    uv_run(&v->loop, UV_RUN_DEFAULT);
    uv_loop_close(&v->loop);
    if (c->progress)
        fputs("\r\033[K", stderr);
    if (fclose(v->records) != 0 && !v->write_errno)
        v->write_errno = errno;
    v->records = NULL;
    if (v->start_error) {
        rc = v->start_error;
        snprintf(err, errcap, "cannot start a game: %s%s", strerror(-rc),
                 rc == -ENOENT ? " (twixt-launch not found next to the program)" : "");
        goto out;
    }
    if (v->write_errno) {
        rc = -v->write_errno;
        snprintf(err, errcap, "writing the records file %s: %s", c->records,
                 strerror(v->write_errno));
        goto out;
    }
    tx_validate_summarise(&v->first, c->limits.first_turn_ms, &ret->first);
    tx_validate_summarise(&v->later, c->limits.turn_ms, &ret->later);
    /* Games end in any order when several run at once: report in game order. */
    tx_validate_sort_findings(ret);
    probe(v, err, errcap);
    tx_validate_probe_findings(v);
    ret->passed = ret->nfindings == 0;
out:
    if (v->records)
        fclose(v->records);
    for (int i = 0; i < v->nslots; i++)
        free(v->slots[i].opponent_command);
    free(v->slots);
    free(v->first.us);
    free(v->later.us);
    free(v);
    return rc;
}

void tx_validate_report_free(struct tx_validate_report *rep)
{
    for (int i = 0; i < rep->nfindings; i++) {
        free(rep->findings[i].input);
        free(rep->findings[i].stderr_text);
    }
    free(rep->findings);
    free(rep->games);
    tx_refeed_result_free(&rep->probe);
    memset(rep, 0, sizeof *rep);
}
