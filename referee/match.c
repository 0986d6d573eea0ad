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
 * Verdicts are decided from uv_hrtime() stamps taken when a line arrives,
 * never from which callback happened to run first. A bot that misbehaves
 * only ever produces a result: nothing here fails because of a bot.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "answer.h"
#include "bot.h"
#include "command.h"
#include "game.h"
#include "hole.h"
#include "input.h"
#include "match.h"
#include "sha256.h"
#include "text.h"

#define TX_MATCH_KILL_GRACE_MS 50 /* a silent bot is killed this long after its deadline */
#define TX_MATCH_SOFT_OVER_MS 50  /* soft mode: lateness that may be forgiven... */
#define TX_MATCH_SOFT_FORGIVEN 2  /* ...this many times per game per bot */
#define TX_MATCH_NICE 5           /* bots run this much below the referee */
#define NO_MOVE INT16_MIN         /* a turn that ended without an answer */

enum phase { HASHING, PLAYING, ENDING, DONE };

/* One entry of record.moves, kept flat until the game is over. */
struct turn {
    int8_t player;
    bool forced, message_cut, has_token;
    int64_t us;
    char token[TX_TOKEN_SHOWN + 8];
    char message[TX_MESSAGE_MAX];
    uint32_t err_from, err_to; /* this turn's stderr: bytes of the bot's stderr_kept */
};

struct tx_match {
    uv_loop_t *loop;
    const struct tx_match_config *config;
    const struct tx_game_spec *spec;
    tx_match_done_cb done_cb;
    void *data;

    enum phase phase;
    bool interrupted;
    int open; /* things still to finish before DONE: hash work, timer, bots */
    struct tx_game game;
    struct tx_bot bots[2]; /* bots[p] plays as player p */
    char *commands[2];     /* placeholders expanded */
    char **argv[2];        /* NULL when the command line does not split */
    char split_error[2][96];
    char sha256[2][TX_SHA256_HEX];
    bool have_sha256[2];
    char launcher[PATH_MAX];
    char started[32];
    uv_work_t work;
    uv_timer_t timer; /* the turn's deadline */

    /* The turn in progress. */
    int on_move;         /* player whose turn it is, -1 between turns */
    bool clock_running;  /* its input is written, the clock runs */
    uint64_t turn_start; /* uv_hrtime() when the input was written */
    int limit_ms;
    bool first_done[2];
    int soft_used[2];
    int64_t accounted[2];   /* the bot's lines_received already counted below */
    int window_lines[2];    /* lines since its current turn's input (the first one's: since the start) */
    int extra_lines[2];     /* lines beyond the first of a turn's window */
    int turns_given[2];     /* inputs written */
    uint32_t err_mark[2];   /* stderr_kept bytes already given to a turn */
    int last_turn[2];       /* index in turns of each player's last entry, -1 */

    /* The result. */
    int winner;
    enum tx_reason reason;
    char detail[256];
    int crashed; /* player whose crash detail is written at the end, -1 */

    int nturns;
    struct turn turns[TX_MOVES_MAX + 1];
    char input[TX_INPUT_MAX];
};

static void next_turn(struct tx_match *m);
static void take_answer(struct tx_match *m);
static void account_lines(struct tx_match *m, int p);

/* ---- the end ---- */

static const char *player_name(int p)
{
    return p == 0 ? "player 1" : "player 2";
}

static void crash_detail(struct tx_match *m, int p, char *buf, size_t cap)
{
    struct tx_bot *bot = &m->bots[p];
    char how[128];
    if (m->split_error[p][0]) {
        snprintf(buf, cap, "bad command line: %s", m->split_error[p]);
    } else if (bot->start_error[0]) {
        snprintf(buf, cap, "%s", bot->start_error);
    } else if (bot->exited && bot->exited_by_itself) {
        tx_bot_describe_exit(bot, how, sizeof how);
        snprintf(buf, cap, "%s%s", how, bot->term_signal ? "" : " before answering");
    } else if (bot->write_error) {
        snprintf(buf, cap, "stopped reading its input (%s)", uv_strerror(bot->write_error));
    } else {
        snprintf(buf, cap, "closed its output");
    }
}

static char *dup_or_null(const char *s)
{
    return s && s[0] ? tx_strdup(s) : NULL;
}

static void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size);
    if (!p)
        abort();
    return p;
}

static char *stderr_text(const struct tx_bot *bot, uint32_t from, uint32_t to)
{
    if (to <= from || !bot->stderr_kept)
        return NULL;
    size_t len = to - from;
    size_t cap = len * 3 + 1; /* every byte may become U+FFFD */
    char *text = xcalloc(cap, 1);
    tx_text_sanitize(text, cap, bot->stderr_kept + from, len, SIZE_MAX);
    return text;
}

static struct tx_record *build_record(struct tx_match *m)
{
    const struct tx_match_config *c = m->config;
    const struct tx_geometry *geo = c->geo;
    struct tx_record *r = xcalloc(1, sizeof *r);
    char version[64];
    snprintf(version, sizeof version, "twixt-arena %s", TX_VERSION);

    r->format = tx_strdup(TX_RECORD_FORMAT);
    r->game = m->spec->index;
    r->seed = m->spec->seed;
    r->size = geo->size;
    r->limits.first_turn_ms = c->first_turn_ms;
    r->limits.turn_ms = c->turn_ms;
    r->limits.margin_ms = c->margin_ms;
    r->limits.soft = c->soft_timeouts;
    r->referee = tx_strdup(version);
    r->started = tx_strdup(m->started);
    r->run = dup_or_null(c->run);

    for (int p = 0; p < 2; p++) {
        struct tx_record_player *pl = &r->players[p];
        const struct tx_bot *bot = &m->bots[p];
        pl->name = tx_strdup(m->spec->bots[p]->name ? m->spec->bots[p]->name : "bot");
        pl->command = tx_strdup(m->commands[p]);
        pl->sha256 = m->have_sha256[p] ? tx_strdup(m->sha256[p]) : NULL;
        pl->stderr_bytes = bot->stderr_bytes;
        pl->extra_lines = m->extra_lines[p];
        int16_t *links = xcalloc(2 * TX_LINKS_MAX, sizeof *links);
        pl->nlinks = tx_game_links(&m->game, p, links);
        pl->links = xcalloc((size_t)pl->nlinks, sizeof *pl->links);
        for (int i = 0; i < pl->nlinks; i++) {
            char a[TX_HOLE_NAME_MAX], b[TX_HOLE_NAME_MAX];
            snprintf(pl->links[i], sizeof pl->links[i], "%s %s", tx_hole_name(geo, links[2 * i], a),
                     tx_hole_name(geo, links[2 * i + 1], b));
        }
        free(links);
        /* The last window of each bot runs to the end of the game (what it
         * wrote while losing, or dying, is there too). */
        if (m->last_turn[p] >= 0)
            m->turns[m->last_turn[p]].err_to = (uint32_t)bot->stderr_len;
    }

    r->nmoves = m->nturns;
    r->moves = xcalloc((size_t)m->nturns, sizeof *r->moves);
    for (int i = 0; i < m->nturns; i++) {
        const struct turn *t = &m->turns[i];
        struct tx_record_move *mv = &r->moves[i];
        mv->player = t->player;
        mv->move = t->has_token ? tx_strdup(t->token) : NULL;
        mv->us = t->us;
        mv->forced = t->forced;
        mv->message = dup_or_null(t->message);
        mv->message_cut = t->message_cut;
        mv->stderr_text = stderr_text(&m->bots[t->player], t->err_from, t->err_to);
    }

    if (m->crashed >= 0)
        crash_detail(m, m->crashed, m->detail, sizeof m->detail);
    r->result.winner = m->winner;
    r->result.reason = m->reason;
    r->result.detail = tx_strdup(m->detail);
    return r;
}

static void done(struct tx_match *m)
{
    m->phase = DONE;
    struct tx_record *record = build_record(m);
    for (int p = 0; p < 2; p++) {
        tx_bot_release(&m->bots[p]);
        tx_command_free(m->argv[p]);
        free(m->commands[p]);
    }
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
static void finish(struct tx_match *m, int winner, enum tx_reason reason, const char *detail)
{
    if (m->phase >= ENDING)
        return;
    m->phase = ENDING;
    m->winner = winner;
    m->reason = reason;
    snprintf(m->detail, sizeof m->detail, "%s", detail);
    m->on_move = -1;
    account_lines(m, 0);
    account_lines(m, 1);
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

/* Adds an entry for player p's turn. Its stderr is what the bot writes in
 * the turn's window, from its input to its next input (close_window): a bot
 * that logs its move just after printing it (stderr and stdout are separate
 * pipes, so its log often arrives after its answer) has it on that move. */
static struct turn *add_turn(struct tx_match *m, int p, int64_t us)
{
    struct turn *t = &m->turns[m->nturns];
    memset(t, 0, sizeof *t);
    t->player = (int8_t)p;
    t->us = us;
    t->err_from = t->err_to = m->err_mark[p];
    m->last_turn[p] = m->nturns++;
    return t;
}

/* A new input for p is about to be written: its previous turn's stderr ends here. */
static void close_window(struct tx_match *m, int p)
{
    tx_bot_drain_stderr(&m->bots[p]); /* written before now, maybe not read yet */
    uint32_t now = (uint32_t)m->bots[p].stderr_len;
    if (m->last_turn[p] >= 0)
        m->turns[m->last_turn[p]].err_to = now;
    m->err_mark[p] = now;
}

/* A forced opening move: the referee's, so no time and no stderr. */
static struct turn *add_forced_turn(struct tx_match *m, int p)
{
    struct turn *t = &m->turns[m->nturns++];
    memset(t, 0, sizeof *t);
    t->player = (int8_t)p;
    t->us = -1;
    t->forced = true;
    return t;
}

static void lose(struct tx_match *m, int p, enum tx_reason reason, const char *detail)
{
    if (reason == TX_REASON_CRASH)
        m->crashed = p; /* the detail is known only once the bot is reaped */
    finish(m, 1 - p, reason, detail);
}

static int64_t elapsed_us(const struct tx_match *m, uint64_t at)
{
    return at > m->turn_start ? (int64_t)((at - m->turn_start) / 1000) : 0;
}

/* The bot on move is gone or broke the pipe: an entry without a move. */
static void crash_on_move(struct tx_match *m)
{
    int p = m->on_move;
    add_turn(m, p, m->clock_running ? elapsed_us(m, uv_hrtime()) : 0);
    lose(m, p, TX_REASON_CRASH, "crash");
}

/* Extra lines (RULES.md): a turn's window runs from its input to the next
 * input of the same bot (the first window also holds what came before the
 * first input); every line in a window beyond the first is extra, whether
 * it is later read as an answer or not. Called whenever lines may have come. */
static void account_lines(struct tx_match *m, int p)
{
    const struct tx_bot *bot = &m->bots[p];
    for (; m->accounted[p] < bot->lines_received; m->accounted[p]++)
        if (m->window_lines[p]++ >= 1)
            m->extra_lines[p]++;
}

/* ---- a turn ---- */

static int kill_after_ms(const struct tx_match *m)
{
    return m->limit_ms + m->config->margin_ms + (m->config->soft_timeouts ? TX_MATCH_SOFT_OVER_MS : 0) +
           TX_MATCH_KILL_GRACE_MS;
}

static void on_deadline(uv_timer_t *timer);

static void arm_deadline(struct tx_match *m, uint64_t ms)
{
    /* uv_now() is cached per iteration: refresh it, or the timer fires early. */
    uv_update_time(m->loop);
    uv_timer_start(&m->timer, on_deadline, ms, 0);
}

static void start_clock(struct tx_match *m)
{
    m->clock_running = true;
    m->turn_start = m->bots[m->on_move].written_at;
    arm_deadline(m, (uint64_t)kill_after_ms(m));
    int nturns = m->nturns;
    take_answer(m); /* a line printed ahead of this input is this turn's answer */
    const struct tx_bot *bot = &m->bots[m->on_move >= 0 ? m->on_move : 0];
    if (m->phase == PLAYING && m->nturns == nturns && (bot->exited || bot->out_eof))
        crash_on_move(m); /* dead since its last turn, and nothing left to read */
}

static void on_deadline(uv_timer_t *timer)
{
    struct tx_match *m = timer->data;
    if (m->phase != PLAYING || m->on_move < 0)
        return;
    int p = m->on_move;
    char detail[160];
    if (!m->clock_running) {
        add_turn(m, p, 0);
        snprintf(detail, sizeof detail, "did not read its input in %d ms", kill_after_ms(m));
        lose(m, p, TX_REASON_TIMEOUT, detail);
        return;
    }
    /* Timers run before I/O: an answer may be waiting unread. */
    tx_bot_poll(&m->bots[p]);
    account_lines(m, p);
    if (tx_bot_peek_line(&m->bots[p])) {
        take_answer(m);
        return;
    }
    uint64_t now = uv_hrtime();
    uint64_t kill_ns = (uint64_t)kill_after_ms(m) * 1000000u;
    if (now - m->turn_start < kill_ns) { /* a millisecond timer may fire a little early */
        arm_deadline(m, (kill_ns - (now - m->turn_start) + 999999) / 1000000);
        return;
    }
    int64_t us = elapsed_us(m, now);
    add_turn(m, p, us);
    snprintf(detail, sizeof detail, "no answer in %d ms, killed at %" PRId64 " ms", m->limit_ms,
             us / 1000);
    lose(m, p, TX_REASON_TIMEOUT, detail);
}

/* The answer arrived after limit + margin: forgiven (soft mode) or a timeout. */
static bool late(struct tx_match *m, int p, int64_t us, char *detail, size_t cap)
{
    int64_t allowed_us = (int64_t)(m->limit_ms + m->config->margin_ms) * 1000;
    if (us <= allowed_us)
        return false;
    bool small = us - allowed_us <= TX_MATCH_SOFT_OVER_MS * 1000;
    if (m->config->soft_timeouts && small && m->soft_used[p] < TX_MATCH_SOFT_FORGIVEN) {
        m->soft_used[p]++;
        return false;
    }
    char margin[48] = "";
    if (m->config->margin_ms)
        snprintf(margin, sizeof margin, " + %d ms margin", m->config->margin_ms);
    snprintf(detail, cap, "answered in %.1f ms, limit %d ms%s%s", (double)us / 1000.0, m->limit_ms,
             margin, m->config->soft_timeouts && small ? " (third overrun)" : "");
    return true;
}

/* Takes the oldest queued line of the bot on move as its answer, if the
 * clock runs and there is one: decides late / invalid / legal. */
static void take_answer(struct tx_match *m)
{
    if (m->phase != PLAYING || m->on_move < 0 || !m->clock_running)
        return;
    int p = m->on_move;
    struct tx_bot *bot = &m->bots[p];
    const struct tx_bot_line *line = tx_bot_peek_line(bot);
    if (!line)
        return;

    const struct tx_geometry *geo = m->config->geo;
    int64_t us = elapsed_us(m, line->at);
    struct tx_answer answer;
    int parsed = tx_answer_parse(geo, line->text, line->len, &answer);
    bool too_long = line->too_long;
    tx_bot_pop_line(bot);
    uv_timer_stop(&m->timer);

    struct turn *t = add_turn(m, p, us);
    t->has_token = true;
    snprintf(t->token, sizeof t->token, "%s", answer.token);
    snprintf(t->message, sizeof t->message, "%s", answer.message);
    t->message_cut = answer.message_cut;

    char detail[192];
    if (late(m, p, us, detail, sizeof detail)) {
        lose(m, p, TX_REASON_TIMEOUT, detail);
        return;
    }
    if (too_long) {
        snprintf(detail, sizeof detail, "line longer than %d bytes", TX_ANSWER_LINE_MAX);
        lose(m, p, TX_REASON_INVALID, detail);
        return;
    }
    if (parsed < 0) {
        lose(m, p, TX_REASON_INVALID, answer.reason);
        return;
    }
    enum tx_illegal why = tx_game_check(&m->game, answer.move);
    if (why != TX_LEGAL) {
        tx_illegal_describe(&m->game, answer.move, why, detail, sizeof detail);
        lose(m, p, TX_REASON_INVALID, detail);
        return;
    }
    tx_game_play(&m->game, answer.move);
    m->first_done[p] = true;
    m->on_move = -1;
    m->clock_running = false;
    next_turn(m);
}

static bool game_over(struct tx_match *m)
{
    const struct tx_geometry *geo = m->config->geo;
    char detail[64];
    if (m->game.status == TX_WON) {
        int16_t chain[TX_HOLES_MAX];
        int n = tx_game_winning_chain(&m->game, chain);
        char a[TX_HOLE_NAME_MAX], b[TX_HOLE_NAME_MAX];
        if (n > 0)
            snprintf(detail, sizeof detail, "%s-%s", tx_hole_name(geo, chain[0], a),
                     tx_hole_name(geo, chain[n - 1], b));
        else
            snprintf(detail, sizeof detail, "connected");
        finish(m, m->game.winner, TX_REASON_CONNECTION, detail);
        return true;
    }
    if (m->game.status == TX_DRAWN) {
        snprintf(detail, sizeof detail, "no legal hole for %s", player_name(m->game.to_move));
        finish(m, -1, TX_REASON_DRAW, detail);
        return true;
    }
    return false;
}

static void next_turn(struct tx_match *m)
{
    if (m->phase != PLAYING || game_over(m))
        return;
    int p = m->game.to_move;
    struct tx_bot *bot = &m->bots[p];
    m->on_move = p;
    m->clock_running = false;
    m->limit_ms = m->first_done[p] ? m->config->turn_ms : m->config->first_turn_ms;

    if (!bot->started) {
        add_turn(m, p, 0);
        lose(m, p, TX_REASON_CRASH, "crash");
        return;
    }
    account_lines(m, p); /* what came so far belongs to its previous window */
    if (m->turns_given[p]++ > 0) {
        m->window_lines[p] = 0;
        close_window(m, p);
    }
    int len = tx_input_write(&m->game, p, m->input, sizeof m->input);
    if (len < 0) { /* cannot happen: TX_INPUT_MAX always fits */
        finish(m, -1, TX_REASON_INTERRUPTED, "referee error: turn input too long");
        return;
    }
    int r = tx_bot_write(bot, m->input, (size_t)len);
    if (r < 0) {
        /* Its answer may have been printed ahead: let it count if so. */
        tx_bot_poll(bot);
        account_lines(m, p);
        if (tx_bot_peek_line(bot)) {
            m->turn_start = uv_hrtime();
            m->clock_running = true;
            uv_timer_stop(&m->timer);
            take_answer(m);
            return;
        }
        crash_on_move(m);
        return;
    }
    if (r == 1) {
        start_clock(m);
        return;
    }
    /* The input did not fit the pipe: the bot is not reading. Bound the wait. */
    arm_deadline(m, (uint64_t)kill_after_ms(m));
}

static void on_bot_event(struct tx_bot *bot, enum tx_bot_event event)
{
    struct tx_match *m = bot->data;
    int p = (int)(bot - m->bots);
    if (m->phase == PLAYING)
        account_lines(m, p);
    if (m->phase != PLAYING || m->on_move != p)
        return; /* lines stay queued for its next turn; deaths are seen then */
    switch (event) {
    case TX_BOT_LINE:
        take_answer(m);
        break;
    case TX_BOT_WRITTEN:
        start_clock(m);
        break;
    case TX_BOT_EOF:
    case TX_BOT_EXITED:
    case TX_BOT_WRITE_FAILED:
        /* Whatever it printed before dying still counts. */
        tx_bot_poll(bot);
        account_lines(m, p);
        if (m->clock_running && tx_bot_peek_line(bot)) {
            take_answer(m);
            return;
        }
        if (event == TX_BOT_EXITED && !bot->out_eof && !m->clock_running)
            return; /* its input is still being written: the write fails next */
        crash_on_move(m);
        break;
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
    for (int p = 0; p < 2; p++) {
        if (!m->argv[p])
            continue;
        struct tx_bot_options o = {
            .argv = m->argv[p],
            .launcher = m->launcher,
            .memory_mb = m->config->bot_memory_mb,
            .cpu_s = m->config->bot_cpu_s > 0 ? m->config->bot_cpu_s : derived_cpu_s(m->config),
            .nice = TX_MATCH_NICE,
        };
        tx_bot_start(&m->bots[p], m->loop, &o); /* a failure is the bot's crash, at its turn */
    }
}

static void play_opening(struct tx_match *m)
{
    for (int i = 0; i < m->spec->nopening && m->game.status == TX_ONGOING; i++) {
        struct turn *t = add_forced_turn(m, m->game.to_move);
        t->has_token = true;
        tx_hole_name(m->config->geo, m->spec->opening[i], t->token);
        tx_game_play(&m->game, m->spec->opening[i]);
    }
}

static void after_hash(uv_work_t *work, int status)
{
    struct tx_match *m = work->data;
    (void)status; /* UV_ECANCELED when interrupted early: the flag says it */
    m->phase = PLAYING;
    if (m->interrupted) {
        finish(m, -1, TX_REASON_INTERRUPTED, "the referee was stopped");
    } else {
        spawn_bots(m);
        play_opening(m);
        next_turn(m);
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
    m->phase = HASHING;
    m->on_move = -1;
    m->winner = -1;
    m->crashed = -1;
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
        m->bots[p].event_cb = on_bot_event;
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
    if (m->phase >= ENDING || m->interrupted)
        return;
    m->interrupted = true;
    if (m->phase == HASHING) {
        uv_cancel((uv_req_t *)&m->work); /* after_hash sees the flag either way */
        return;
    }
    /* The turn in progress (if any) gets no entry: nobody lost it. */
    finish(m, -1, TX_REASON_INTERRUPTED, "the referee was stopped");
}
