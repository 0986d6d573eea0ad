/* turn.c - a match's turns: the input, the clock, the answer, the verdict.
 *
 * Each turn writes the full input to the bot on move, starts the clock when
 * the write has completed, and takes one line. Verdicts are decided from
 * uv_hrtime() stamps taken when a line arrives, never from which callback
 * happened to run first (libuv runs due timers before reading, so the
 * deadline polls stdout before it forfeits). Extra lines and stderr are
 * counted per window: from a turn's input to the same bot's next input.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "hole.h"
#include "match-private.h"

static void take_answer(struct tx_match *m);

static const char *player_name(int p)
{
    return p == 0 ? "player 1" : "player 2";
}

/* Adds an entry for player p's turn. Its stderr is what the bot writes in
 * the turn's window, from its input to its next input (close_window): a bot
 * that logs its move just after printing it (stderr and stdout are separate
 * pipes, so its log often arrives after its answer) has it on that move. */
static struct tx_match_turn *add_turn(struct tx_match *m, int p, int64_t us)
{
    struct tx_match_turn *t = &m->turns[m->nturns];
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

static void lose(struct tx_match *m, int p, enum tx_reason reason, const char *detail)
{
    if (reason == TX_REASON_CRASH)
        m->crashed = p; /* the detail is known only once the bot is reaped */
    tx_match_finish(m, 1 - p, reason, detail);
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
void tx_match_account_lines(struct tx_match *m, int p)
{
    const struct tx_bot *bot = &m->bots[p];
    for (; m->accounted[p] < bot->lines_received; m->accounted[p]++)
        if (m->window_lines[p]++ >= 1)
            m->extra_lines[p]++;
}

static int kill_after_ms(const struct tx_match *m)
{
    return m->limit_ms + m->config->margin_ms +
           (m->config->soft_timeouts ? TX_MATCH_SOFT_OVER_MS : 0) + TX_MATCH_KILL_GRACE_MS;
}

static void on_deadline(uv_timer_t *timer);

static void arm_deadline(struct tx_match *m, uint64_t ms)
{
    /* uv_now() is cached per iteration: refresh it, or the timer fires early. */
    uv_update_time(m->loop);
    uv_timer_start(&m->timer, on_deadline, ms, 0);
}

/* For a timeout's detail: where the turn's time went, so a user can tell a
 * slow bot from a machine too busy to run it. "" when unknown. */
static void time_spent(const struct tx_match *m, char *buf, size_t cap)
{
    uint64_t cpu, wait;
    buf[0] = '\0';
    if (m->turn_sched && tx_bot_sched(&m->bots[m->on_move], &cpu, &wait))
        snprintf(buf, cap, " (on a CPU %.1f ms, waiting for one %.1f ms)",
                 (double)(cpu - m->turn_cpu_ns) / 1e6, (double)(wait - m->turn_wait_ns) / 1e6);
}

static void start_clock(struct tx_match *m)
{
    m->clock_running = true;
    m->turn_start = m->bots[m->on_move].written_at;
    m->turn_sched = tx_bot_sched(&m->bots[m->on_move], &m->turn_cpu_ns, &m->turn_wait_ns);
    arm_deadline(m, (uint64_t)kill_after_ms(m));
    int nturns = m->nturns;
    take_answer(m); /* a line printed ahead of this input is this turn's answer */
    const struct tx_bot *bot = &m->bots[m->on_move >= 0 ? m->on_move : 0];
    if (m->phase == TX_MATCH_PLAYING && m->nturns == nturns && (bot->exited || bot->out_eof))
        crash_on_move(m); /* dead since its last turn, and nothing left to read */
}

static void on_deadline(uv_timer_t *timer)
{
    struct tx_match *m = timer->data;
    if (m->phase != TX_MATCH_PLAYING || m->on_move < 0)
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
    tx_match_account_lines(m, p);
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
    char spent[96];
    time_spent(m, spent, sizeof spent);
    snprintf(detail, sizeof detail, "no answer in %d ms, killed at %" PRId64 " ms%s", m->limit_ms,
             us / 1000, spent);
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
    char margin[48] = "", spent[96];
    if (m->config->margin_ms)
        snprintf(margin, sizeof margin, " + %d ms margin", m->config->margin_ms);
    time_spent(m, spent, sizeof spent);
    snprintf(detail, cap, "answered in %.1f ms, limit %d ms%s%s%s", (double)us / 1000.0,
             m->limit_ms, margin, m->config->soft_timeouts && small ? " (third overrun)" : "",
             spent);
    return true;
}

/* Takes the oldest queued line of the bot on move as its answer, if the
 * clock runs and there is one: decides late / invalid / legal. */
static void take_answer(struct tx_match *m)
{
    if (m->phase != TX_MATCH_PLAYING || m->on_move < 0 || !m->clock_running)
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

    struct tx_match_turn *t = add_turn(m, p, us);
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
    tx_match_next_turn(m);
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
        tx_match_finish(m, m->game.winner, TX_REASON_CONNECTION, detail);
        return true;
    }
    if (m->game.status == TX_DRAWN) {
        snprintf(detail, sizeof detail, "no legal hole for %s", player_name(m->game.to_move));
        tx_match_finish(m, -1, TX_REASON_DRAW, detail);
        return true;
    }
    return false;
}

void tx_match_next_turn(struct tx_match *m)
{
    if (m->phase != TX_MATCH_PLAYING || game_over(m))
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
    tx_match_account_lines(m, p); /* what came so far belongs to its previous window */
    if (m->turns_given[p]++ > 0) {
        m->window_lines[p] = 0;
        close_window(m, p);
    }
    int len = tx_input_write(&m->game, p, !m->first_done[p], m->input, sizeof m->input);
    if (len < 0) { /* cannot happen: TX_INPUT_MAX always fits */
        tx_match_finish(m, -1, TX_REASON_INTERRUPTED, "referee error: turn input too long");
        return;
    }
    int r = tx_bot_write(bot, m->input, (size_t)len);
    if (r < 0) {
        /* Its answer may have been printed ahead: let it count if so. */
        tx_bot_poll(bot);
        tx_match_account_lines(m, p);
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

void tx_match_on_bot_event(struct tx_bot *bot, enum tx_bot_event event)
{
    struct tx_match *m = bot->data;
    int p = (int)(bot - m->bots);
    if (m->phase == TX_MATCH_PLAYING)
        tx_match_account_lines(m, p);
    if (m->phase != TX_MATCH_PLAYING || m->on_move != p)
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
        tx_match_account_lines(m, p);
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
