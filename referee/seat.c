/* seat.c - one bot's turns: the contract of seat.h.
 *
 * A turn is three callbacks at most on the fast path: tx_seat_play writes
 * the input (it almost always fits the pipe at once, so the clock starts
 * there), the bot's line arrives (take_answer judges it and hands the turn
 * over), or the deadline fires first. Each path ends in end_turn, which
 * calls turn_cb last: after it the seat may already be in its next turn,
 * or stopped, so nothing touches the turn afterwards.
 */
#include "seat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"

/* ---- the end of a turn ---- */

static void end_turn(struct tx_seat *s, enum tx_verdict verdict)
{
    struct tx_seat_turn *t = &s->turn;
    uv_timer_stop(&s->timer);
    s->on_turn = false;
    s->clock_running = false;
    s->position = NULL;
    tx_bot_set_on_move(&s->bot, false);
    t->verdict = verdict;
    if (verdict == TX_VERDICT_CRASH)
        s->crash_turn = s->turns; /* worded once the bot is gone */
    else if (verdict != TX_VERDICT_MOVE && s->turns == 1)
        tx_verdict_add_first_turn(t->detail, sizeof t->detail, s->forced);
    s->turn_cb(s, t);
}

static int64_t elapsed_us(const struct tx_seat *s, uint64_t at)
{
    return at > s->turn_start ? (int64_t)((at - s->turn_start) / 1000) : 0;
}

/* The bot is gone, or broke the pipe, before answering. */
static void crash(struct tx_seat *s)
{
    s->turn.us = s->clock_running ? elapsed_us(s, uv_hrtime()) : 0;
    end_turn(s, TX_VERDICT_CRASH);
}

/* Lines that came so far belong to the current window (seat.h): all but
 * the window's first are extra. Counted in int64_t, as bot.lines_received:
 * a bot may print billions of lines in a game. */
static void account_lines(struct tx_seat *s)
{
    int64_t n = s->bot.lines_received - s->accounted;
    if (n <= 0)
        return;
    s->extra_lines += s->window_lines > 0 ? n : n - 1;
    s->window_lines += n;
    s->accounted = s->bot.lines_received;
}

/* For a timeout's detail: where the turn's time went, so a user can tell a
 * slow bot from a sleeping one and from a machine too busy to run it. */
static void time_spent(const struct tx_seat *s, int64_t us, struct tx_verdict_time *t)
{
    uint64_t cpu, wait;
    t->us = us;
    t->known = s->sched && tx_bot_sched(&s->bot, &cpu, &wait);
    t->cpu_ns = t->known ? cpu - s->cpu_ns : 0;
    t->wait_ns = t->known ? wait - s->wait_ns : 0;
}

/* ---- the clock ---- */

static void on_deadline(uv_timer_t *timer);

static void arm(struct tx_seat *s, uint64_t ms)
{
    /* uv_now() is cached per loop iteration: refresh it, or the timer fires early. */
    uv_update_time(s->loop);
    uv_timer_start(&s->timer, on_deadline, ms, 0);
}

static int64_t kill_after_ms(const struct tx_seat *s)
{
    return tx_limits_kill_after_ms(s->limits, s->turn.limit_ms);
}

/* Whether the answer is legal in position, as tx_game_apply would judge
 * it; the detail of a refusal in buf. A plain hole or SWAP (every answer
 * of a CodinGame game) is checked in place; the rest (edits, a cut, a
 * choice, privilege) on a copy of the game. */
static bool legal(const struct tx_game *position, const struct tx_answer *a, char *buf, size_t cap)
{
    struct tx_move move;
    struct tx_edit_fault fault = {-1, -1, -1};
    enum tx_illegal why;
    tx_answer_move(a, &move);
    if (move.nedits == 0 && !move.privilege && move.move >= TX_MOVE_SWAP)
        why = tx_game_check(position, move.move);
    else
        why = tx_game_check_answer(position, &move, &fault);
    if (why == TX_LEGAL)
        return true;
    tx_answer_describe(position, &move, why, &fault, buf, cap);
    return false;
}

/* Takes the oldest queued line as the answer, if the clock runs and there
 * is one, and judges it: late, too long, not a move, illegal, or a move. */
static void take_answer(struct tx_seat *s)
{
    if (!s->on_turn || !s->clock_running)
        return;
    const struct tx_bot_line *line = tx_bot_peek_line(&s->bot);
    if (!line)
        return;
    struct tx_seat_turn *t = &s->turn;
    const struct tx_game *g = s->position;
    /* The game's own variant: its rule set, opening (CUT, CHOOSE) and
     * teams (!privilege) say how a line reads. */
    struct tx_variant v = {.rules = (enum tx_rules)g->rules,
                           .width = g->geo->width,
                           .height = g->geo->height,
                           .opening = (enum tx_opening_rule)g->opening,
                           .teams = g->seats == 4};
    int parsed = tx_answer_parse_variant(g->geo, &v, line->text, line->len, &t->answer);
    if (line->too_long)
        parsed = tx_answer_refuse_too_long(&t->answer);
    t->us = elapsed_us(s, line->at);
    t->at = line->at;
    t->answered = true;
    tx_bot_pop_line(&s->bot);

    enum tx_lateness lateness = tx_limits_judge(s->limits, t->limit_ms, t->us, &s->soft_used);
    if (tx_limits_is_timeout(lateness)) {
        struct tx_verdict_time time;
        time_spent(s, t->us, &time);
        tx_verdict_late(t->detail, sizeof t->detail, s->limits, t->limit_ms, lateness, &time);
        end_turn(s, TX_VERDICT_LATE);
        return;
    }
    if (lateness == TX_LATE_FORGIVEN) {
        t->forgiven = true;
        tx_verdict_forgiven(t->detail, sizeof t->detail, s->limits, t->limit_ms, t->us,
                            s->soft_used);
    }
    if (parsed < 0) {
        snprintf(t->detail, sizeof t->detail, "%s", t->answer.reason);
        end_turn(s, t->answer.error == TX_ANSWER_TOO_LONG ? TX_VERDICT_TOO_LONG
                                                          : TX_VERDICT_NOT_A_MOVE);
        return;
    }
    if (!legal(g, &t->answer, t->detail, sizeof t->detail)) {
        end_turn(s, TX_VERDICT_ILLEGAL);
        return;
    }
    end_turn(s, TX_VERDICT_MOVE);
}

/* The input is written: the turn's time runs from written_at. */
static void start_clock(struct tx_seat *s)
{
    s->clock_running = true;
    s->turn_start = s->bot.written_at;
    s->sched = tx_bot_sched(&s->bot, &s->cpu_ns, &s->wait_ns);
    arm(s, (uint64_t)kill_after_ms(s));
    int turn = s->turns;
    take_answer(s); /* a line printed ahead of this input is this turn's answer */
    if (s->on_turn && s->turns == turn && (s->bot.exited || s->bot.out_eof))
        crash(s); /* dead since its last turn, and nothing left to read */
}

static void on_deadline(uv_timer_t *timer)
{
    struct tx_seat *s = timer->data;
    if (!s->on_turn)
        return;
    struct tx_seat_turn *t = &s->turn;
    if (!s->clock_running) {
        t->us = elapsed_us(s, uv_hrtime()); /* since the write began */
        tx_verdict_unread(t->detail, sizeof t->detail, kill_after_ms(s));
        end_turn(s, TX_VERDICT_UNREAD);
        return;
    }
    /* Timers run before I/O: an answer may be waiting unread. */
    tx_bot_poll(&s->bot);
    account_lines(s);
    if (tx_bot_peek_line(&s->bot)) {
        take_answer(s);
        return;
    }
    uint64_t now = uv_hrtime(), kill_ns = (uint64_t)kill_after_ms(s) * 1000000u;
    if (now - s->turn_start < kill_ns) { /* a millisecond timer may fire a little early */
        arm(s, (kill_ns - (now - s->turn_start) + 999999) / 1000000);
        return;
    }
    t->us = elapsed_us(s, now);
    struct tx_verdict_time time;
    time_spent(s, t->us, &time);
    tx_verdict_silent(t->detail, sizeof t->detail, t->limit_ms, &time);
    end_turn(s, TX_VERDICT_SILENT);
}

/* ---- a turn ---- */

void tx_seat_play(struct tx_seat *s, const struct tx_game *position)
{
    struct tx_seat_turn *t = &s->turn;
    bool first = s->turns == 0;
    account_lines(s); /* what came so far belongs to the previous window */
    if (first) {
        t->err_from = 0; /* the first window holds what came before the first input */
    } else {
        s->window_lines = 0;
        tx_bot_drain_stderr(&s->bot); /* written before now, maybe not read yet */
        t->err_from = (uint32_t)s->bot.stderr_len;
    }
    s->turns++;
    t->limit_ms = tx_limits_turn_ms(s->limits, first);
    t->us = 0;
    t->at = 0;
    t->answered = false;
    t->forgiven = false;
    t->detail[0] = '\0';
    s->position = position;
    s->on_turn = true;
    s->clock_running = false;
    if (!s->bot.started) {
        crash(s);
        return;
    }
    tx_bot_set_on_move(&s->bot, true);
    if (!s->input) {
        s->input_cap = tx_input_max(position->geo) + 1;
        s->input = tx_xmalloc(s->input_cap);
    }
    int len = tx_input_write(position, position->seat, first, s->input, s->input_cap);
    if (len < 0)
        abort(); /* cannot happen: tx_input_max holds any input of its board */
    int r = tx_bot_write(&s->bot, s->input, (size_t)len);
    if (r == 1) {
        start_clock(s);
        return;
    }
    if (r == 0) { /* the input did not fit the pipe: the bot is not reading; bound the wait */
        s->turn_start = uv_hrtime();
        arm(s, (uint64_t)kill_after_ms(s));
        return;
    }
    /* The write failed, but its answer may have been printed ahead. */
    tx_bot_poll(&s->bot);
    account_lines(s);
    if (tx_bot_peek_line(&s->bot)) {
        s->turn_start = uv_hrtime();
        s->clock_running = true;
        take_answer(s);
        return;
    }
    crash(s);
}

static void on_bot_event(struct tx_bot *bot, enum tx_bot_event event)
{
    struct tx_seat *s = bot->data;
    if (s->stopped)
        return;
    account_lines(s);
    if (!s->on_turn)
        return; /* lines stay queued for its next turn; deaths are seen then */
    switch (event) {
    case TX_BOT_LINE:
        take_answer(s);
        break;
    case TX_BOT_WRITTEN:
        start_clock(s);
        break;
    case TX_BOT_EOF:
    case TX_BOT_EXITED:
    case TX_BOT_WRITE_FAILED:
        /* Whatever it printed before dying still counts. */
        tx_bot_poll(bot);
        account_lines(s);
        if (s->clock_running && tx_bot_peek_line(bot)) {
            take_answer(s);
            return;
        }
        if (event == TX_BOT_EXITED && !bot->out_eof && !s->clock_running)
            return; /* its input is still being written: the write fails next */
        crash(s);
        break;
    }
}

/* ---- life ---- */

static void closed_one(struct tx_seat *s)
{
    if (--s->open == 0 && s->closed_cb)
        s->closed_cb(s);
}

static void on_timer_closed(uv_handle_t *handle)
{
    closed_one(handle->data);
}

static void on_bot_closed(struct tx_bot *bot)
{
    closed_one(bot->data);
}

void tx_seat_init(struct tx_seat *s, uv_loop_t *loop)
{
    s->loop = loop;
    uv_timer_init(loop, &s->timer); /* cannot fail on Unix */
    s->timer.data = s;
    s->open = 2;
    s->bot.data = s;
    s->bot.event_cb = on_bot_event;
    s->bot.closed_cb = on_bot_closed;
}

int tx_seat_start(struct tx_seat *s, char *const *argv, const char *launcher,
                  const struct tx_geometry *geo)
{
    /* A bot plays at most half the holes, plus a swap and a spare turn. */
    struct tx_bot_options o = {
        .argv = argv,
        .launcher = launcher,
        .memory_mb = s->limits->memory_mb,
        .cpu_s = tx_limits_cpu_s(s->limits, geo->holes / 2 + 2),
        .nice = TX_BOT_NICE,
        .dir = s->dir,
        .env = s->env,
        .opponent_argv = s->opponent_argv,
        .opponent_dir = s->opponent_dir,
        .cpus = s->cpus,
        .writable = s->writable,
        .pinned = s->pinned,
        .cores = s->cores,
    };
    int r = tx_bot_start(&s->bot, s->loop, &o);
    tx_bot_set_on_move(&s->bot, false); /* until its first turn */
    return r;
}

void tx_seat_stop(struct tx_seat *s)
{
    if (s->stopped)
        return;
    account_lines(s);
    s->stopped = true;
    s->on_turn = false;
    uv_timer_stop(&s->timer);
    uv_close((uv_handle_t *)&s->timer, on_timer_closed);
    bool has_handles = s->bot.open_handles > 0;
    tx_bot_stop(&s->bot);
    if (!has_handles)
        s->open--; /* never set up: nothing of the bot to close (the timer closes later) */
}

void tx_seat_release(struct tx_seat *s)
{
    tx_bot_release(&s->bot);
    free(s->input);
    s->input = NULL;
}

void tx_seat_describe_crash(const struct tx_seat *s, char *buf, size_t cap)
{
    tx_bot_describe_crash(&s->bot, buf, cap);
    /* Not for a bot that never ran: the opening has nothing to do with it. */
    if (s->crash_turn == 1 && s->bot.started && !s->bot.start_error[0])
        tx_verdict_add_first_turn(buf, cap, s->forced);
}
