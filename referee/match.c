/* match.c - one game between two bot processes: the contract of match.h.
 *
 * A match goes through four phases. HASHING: the bots' executables are
 * hashed on libuv's thread pool (file I/O never runs on the loop, where
 * other games' clocks may be running). PLAYING: both bots are spawned, the
 * forced opening is played, then turns alternate: write the input, start
 * the clock when the write completes, take one line. ENDING: both bots are
 * stopped (bot.c: stdin closed, SIGTERM, SIGKILL, reaped, pipes closed).
 * DONE: when the last handle has closed, the record is built and handed to
 * done_cb, and the match frees itself.
 *
 * This file is the life of a match; its turns are in turn.c and its
 * record in match-record.c (match-private.h holds what they share). A bot
 * that misbehaves only ever produces a result: nothing fails because of a
 * bot.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "command.h"
#include "hole.h"
#include "match-private.h"

/* ---- the end ---- */

static void done(struct tx_match *m)
{
    m->phase = TX_MATCH_DONE;
    struct tx_record *record = tx_match_build_record(m);
    for (int p = 0; p < 2; p++) {
        tx_bot_release(&m->bots[p]);
        tx_command_free(m->argv[p]);
        free(m->commands[p]);
    }
    tx_sandbox_give_core(m->core);
    m->done_cb(m, record, m->data);
    free(m);
}

static void finished_one(struct tx_match *m)
{
    if (--m->open == 0)
        done(m);
}

static void on_timer_closed(uv_handle_t *handle)
{
    finished_one(handle->data);
}

static void on_bot_closed(struct tx_bot *bot)
{
    finished_one(bot->data);
}

/* Ends the game with this result: stops both bots and closes the timer; the
 * record goes out when the last of them has closed. */
void tx_match_finish(struct tx_match *m, int winner, enum tx_reason reason, const char *detail)
{
    if (m->phase >= TX_MATCH_ENDING)
        return;
    m->phase = TX_MATCH_ENDING;
    m->winner = winner;
    m->reason = reason;
    snprintf(m->detail, sizeof m->detail, "%s", detail);
    m->on_move = -1;
    tx_match_account_lines(m, 0);
    tx_match_account_lines(m, 1);
    uv_timer_stop(&m->timer);
    uv_close((uv_handle_t *)&m->timer, on_timer_closed);
    for (int p = 0; p < 2; p++) {
        struct tx_bot *bot = &m->bots[p];
        bool has_handles = bot->open_handles > 0;
        tx_bot_stop(bot);
        if (!has_handles)
            finished_one(m); /* never set up: nothing to close */
    }
}

/* ---- the start ---- */

static void hash_programs(uv_work_t *work)
{
    struct tx_match *m = work->data;
    for (int p = 0; p < 2; p++)
        if (m->argv[p])
            m->have_sha256[p] = tx_sha256_program(m->argv[p][0], m->sha256[p]) == 0;
}

static int derived_cpu_s(const struct tx_match_config *c)
{
    /* The most a bot may think in one game, twice over (two cores), and
     * room for a slow start (a JVM, an interpreter loading its modules). */
    int64_t turns = c->geo->holes / 2 + 2;
    int64_t ms = c->first_turn_ms + turns * (c->turn_ms + c->margin_ms + TX_MATCH_SOFT_OVER_MS +
                                             TX_MATCH_KILL_GRACE_MS);
    int64_t s = 2 * ms / 1000 + 10;
    return s > INT_MAX ? INT_MAX : (int)s;
}

static void spawn_bots(struct tx_match *m)
{
    m->core = tx_sandbox_take_core(); /* -1 unless --pin-cores */
    for (int p = 0; p < 2; p++) {
        if (!m->argv[p])
            continue;
        struct tx_bot_options o = {
            .argv = m->argv[p],
            .launcher = m->launcher,
            .memory_mb = m->config->bot_memory_mb,
            .cpu_s = m->config->bot_cpu_s > 0 ? m->config->bot_cpu_s : derived_cpu_s(m->config),
            .nice = TX_MATCH_NICE,
            .opponent_argv = m->argv[1 - p],
            .pinned = m->core >= 0,
            .core = m->core,
        };
        tx_bot_start(&m->bots[p], m->loop, &o); /* a failure is the bot's crash, at its turn */
    }
}

/* A forced opening move: the referee's, so no time and no stderr. */
static struct tx_match_turn *add_forced_turn(struct tx_match *m, int p)
{
    struct tx_match_turn *t = &m->turns[m->nturns++];
    memset(t, 0, sizeof *t);
    t->player = (int8_t)p;
    t->us = -1;
    t->forced = true;
    return t;
}

static void play_opening(struct tx_match *m)
{
    for (int i = 0; i < m->spec->nopening && m->game.status == TX_ONGOING; i++) {
        struct tx_match_turn *t = add_forced_turn(m, m->game.to_move);
        t->has_token = true;
        tx_hole_name(m->config->geo, m->spec->opening[i], t->token);
        tx_game_play(&m->game, m->spec->opening[i]);
    }
}

static void after_hash(uv_work_t *work, int status)
{
    struct tx_match *m = work->data;
    (void)status; /* UV_ECANCELED when interrupted early: the flag says it */
    m->phase = TX_MATCH_PLAYING;
    if (m->interrupted) {
        tx_match_finish(m, -1, TX_REASON_INTERRUPTED, "the referee was stopped");
    } else {
        spawn_bots(m);
        play_opening(m);
        tx_match_next_turn(m);
    }
    finished_one(m);
}

void tx_match_config_init(struct tx_match_config *config, const struct tx_geometry *geo)
{
    memset(config, 0, sizeof *config);
    config->geo = geo;
    config->first_turn_ms = 1000;
    config->turn_ms = 300;
    config->margin_ms = 0;
    config->soft_timeouts = false;
    config->bot_memory_mb = 768;
    config->bot_cpu_s = 0;
    config->run = NULL;
}

/* The forced opening must be legal and never a swap: a schedule bug, not a
 * game result, so it is refused before anything starts. */
static int check_opening(const struct tx_match_config *config, const struct tx_game_spec *spec)
{
    if (spec->nopening < 0 || (spec->nopening > 0 && !spec->opening))
        return -EINVAL;
    struct tx_game *g = malloc(sizeof *g);
    if (!g)
        return -ENOMEM;
    tx_game_init(g, config->geo);
    int r = 0;
    for (int i = 0; i < spec->nopening && r == 0; i++)
        if (spec->opening[i] == TX_MOVE_SWAP || tx_game_play(g, spec->opening[i]) != TX_LEGAL)
            r = -EINVAL;
    free(g);
    return r;
}

int tx_match_start(uv_loop_t *loop, const struct tx_match_config *config,
                   const struct tx_game_spec *spec, tx_match_done_cb done_cb, void *data,
                   struct tx_match **ret_match)
{
    if (!config->geo || !spec->bots[0] || !spec->bots[1] || !done_cb)
        return -EINVAL;
    /* A write to a dead bot must fail with EPIPE, not kill the program:
     * the referee's main() does this too, but tests and other embedders of
     * the match may not have. */
    struct sigaction old_pipe;
    if (sigaction(SIGPIPE, NULL, &old_pipe) == 0 && old_pipe.sa_handler == SIG_DFL)
        signal(SIGPIPE, SIG_IGN);
    int r = check_opening(config, spec);
    if (r < 0)
        return r;
    struct tx_match *m = calloc(1, sizeof *m);
    if (!m)
        return -ENOMEM;
    if (tx_bot_find_launcher(m->launcher, sizeof m->launcher) < 0) {
        free(m);
        return -ENOENT;
    }
    m->loop = loop;
    m->config = config;
    m->spec = spec;
    m->done_cb = done_cb;
    m->data = data;
    m->phase = TX_MATCH_HASHING;
    m->on_move = -1;
    m->winner = -1;
    m->crashed = -1;
    m->core = -1;
    m->last_turn[0] = m->last_turn[1] = -1;
    tx_game_init(&m->game, config->geo);

    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(m->started, sizeof m->started, "%Y-%m-%dT%H:%M:%SZ", &tm);

    for (int p = 0; p < 2; p++) {
        m->commands[p] = tx_command_expand(spec->bots[p]->command, spec->seed, config->geo->size);
        int argc;
        if (tx_command_split(m->commands[p], &m->argv[p], &argc, m->split_error[p],
                             sizeof m->split_error[p]) < 0)
            m->argv[p] = NULL;
        m->bots[p].data = m;
        m->bots[p].event_cb = tx_match_on_bot_event;
        m->bots[p].closed_cb = on_bot_closed;
    }

    m->work.data = m;
    r = uv_queue_work(loop, &m->work, hash_programs, after_hash);
    if (r < 0) {
        for (int p = 0; p < 2; p++) {
            tx_command_free(m->argv[p]);
            free(m->commands[p]);
        }
        free(m);
        return r;
    }
    uv_timer_init(loop, &m->timer); /* cannot fail on Unix */
    m->timer.data = m;
    m->open = 4; /* the hash work, the timer, two bots */
    if (ret_match)
        *ret_match = m;
    return 0;
}

void tx_match_interrupt(struct tx_match *m)
{
    if (m->phase >= TX_MATCH_ENDING || m->interrupted)
        return;
    m->interrupted = true;
    if (m->phase == TX_MATCH_HASHING) {
        uv_cancel((uv_req_t *)&m->work); /* after_hash sees the flag either way */
        return;
    }
    /* The turn in progress (if any) gets no entry: nobody lost it. */
    tx_match_finish(m, -1, TX_REASON_INTERRUPTED, "the referee was stopped");
}
