/* refeed.c - one bot fed a recorded player's inputs: the contract of refeed.h.
 *
 * The shape is a match with one bot and no game: write the turn input,
 * start the clock when the write completes, take one queued line, judge it
 * against the recorded position, go on. Verdicts come from uv_hrtime()
 * stamps, never from which callback ran first (libuv runs timers before
 * I/O), exactly as in match.c, so a timeout seen in a tournament shows up
 * here too.
 *
 * With probe_exit set, the bot's stdin is closed after its last answer and
 * refeed-probe.c watches its exit; refeed-print.c prints the result.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "answer.h"
#include "bot.h"
#include "command.h"
#include "game.h"
#include "input.h"
#include "refeed-private.h"
#include "text.h"
#include "verify.h"

#define REFEED_NICE 5 /* the bot runs this much below us, as in a match (match.c) */

struct refeed {
    const struct tx_refeed_config *c;
    struct tx_refeed_result *res;
    uv_loop_t loop;
    struct tx_bot bot;
    uv_timer_t timer;
    int open;           /* handles (timer, bot) not closed yet */
    int *entries;       /* 0-based indexes in record->moves of the fed turns */
    int nentries, next; /* next: the entry being fed */
    bool feeding;       /* a turn is in progress */
    bool clock_running;
    bool over; /* feeding is over (all fed, or a crash / timeout) */
    bool first_done;
    int soft_used; /* soft mode: late answers forgiven so far */
    uint64_t spawned, turn_start;
    int limit_ms;
    int64_t lines_taken;
    struct tx_game position; /* before the entry being fed */
    char input[TX_INPUT_MAX];
};

static void feed_next(struct refeed *rf);
static void take_answer(struct refeed *rf);

/* ---- the end ---- */

static void on_closed(uv_handle_t *handle)
{
    struct refeed *rf = handle->data;
    rf->open--;
}

static void on_bot_closed(struct tx_bot *bot)
{
    struct refeed *rf = bot->data;
    rf->open--;
}

static void finish(struct refeed *rf)
{
    if (rf->over)
        return;
    rf->over = true;
    rf->feeding = false;
    uv_timer_stop(&rf->timer);
    struct tx_bot *bot = &rf->bot;
    if (rf->c->probe_exit && bot->started && !bot->exited && !bot->stopping)
        tx_refeed_probe_exit(bot, rf->res);
    tx_bot_stop(bot);
    uv_close((uv_handle_t *)&rf->timer, on_closed);
}

static struct tx_refeed_turn *add_turn(struct refeed *rf, int64_t us)
{
    struct tx_refeed_turn *t = &rf->res->turns[rf->res->nturns++];
    const struct tx_record_move *mv = &rf->c->record->moves[rf->entries[rf->next]];
    memset(t, 0, sizeof *t);
    t->move = rf->entries[rf->next] + 1;
    t->limit_ms = rf->limit_ms;
    snprintf(t->recorded, sizeof t->recorded, "%s", mv->move ? mv->move : "");
    t->us = us;
    return t;
}

static int64_t elapsed_us(const struct refeed *rf, uint64_t at)
{
    return at > rf->turn_start ? (int64_t)((at - rf->turn_start) / 1000) : 0;
}

/* The bot on turn is gone: its detail is written once it is reaped
 * (tx_bot_describe_crash), when how it ended is known. */
static void crash(struct refeed *rf)
{
    struct tx_refeed_turn *t = add_turn(rf, -1);
    t->verdict = TX_REFEED_CRASH;
    finish(rf);
}

static int kill_after_ms(const struct refeed *rf)
{
    return rf->limit_ms + rf->c->margin_ms + (rf->c->soft_timeouts ? TX_REFEED_SOFT_OVER_MS : 0) +
           TX_REFEED_KILL_GRACE_MS;
}

static void on_deadline(uv_timer_t *timer);

static void arm(struct refeed *rf, uint64_t ms)
{
    uv_update_time(&rf->loop); /* a stale cached clock fires the timer early */
    uv_timer_start(&rf->timer, on_deadline, ms, 0);
}

static void start_clock(struct refeed *rf)
{
    rf->clock_running = true;
    rf->turn_start = rf->bot.written_at;
    arm(rf, (uint64_t)kill_after_ms(rf));
    take_answer(rf); /* a line printed ahead of this input answers it */
    if (rf->feeding && rf->clock_running && (rf->bot.exited || rf->bot.out_eof) &&
        !tx_bot_peek_line(&rf->bot))
        crash(rf);
}

static void on_deadline(uv_timer_t *timer)
{
    struct refeed *rf = timer->data;
    if (!rf->feeding)
        return;
    if (!rf->clock_running) {
        struct tx_refeed_turn *t = add_turn(rf, -1);
        t->verdict = TX_REFEED_TIMEOUT;
        snprintf(t->detail, sizeof t->detail, "did not read its input in %d ms", kill_after_ms(rf));
        finish(rf);
        return;
    }
    tx_bot_poll(&rf->bot); /* timers run before I/O: an answer may be waiting */
    if (tx_bot_peek_line(&rf->bot)) {
        take_answer(rf);
        return;
    }
    uint64_t now = uv_hrtime(), kill_ns = (uint64_t)kill_after_ms(rf) * 1000000u;
    if (now - rf->turn_start < kill_ns) {
        arm(rf, (kill_ns - (now - rf->turn_start) + 999999) / 1000000);
        return;
    }
    struct tx_refeed_turn *t = add_turn(rf, elapsed_us(rf, now));
    t->verdict = TX_REFEED_TIMEOUT;
    snprintf(t->detail, sizeof t->detail, "no answer in %d ms, killed at %" PRId64 " ms",
             rf->limit_ms, t->us / 1000);
    finish(rf);
}

/* ---- a turn ---- */

static void judge(struct refeed *rf, struct tx_refeed_turn *t, const struct tx_answer *a,
                  int parsed, bool too_long)
{
    snprintf(t->answer, sizeof t->answer, "%s", a->token);
    snprintf(t->message, sizeof t->message, "%s", a->message);
    int64_t allowed_us = (int64_t)(rf->limit_ms + rf->c->margin_ms) * 1000;
    bool small = t->us - allowed_us <= TX_REFEED_SOFT_OVER_MS * 1000;
    if (t->us > allowed_us && rf->c->soft_timeouts && small &&
        rf->soft_used < TX_REFEED_SOFT_FORGIVEN) {
        rf->soft_used++;
        snprintf(t->detail, sizeof t->detail,
                 "%.1f ms over the limit, forgiven (soft mode, %d of %d)",
                 (double)(t->us - allowed_us) / 1000.0, rf->soft_used, TX_REFEED_SOFT_FORGIVEN);
    } else if (t->us > allowed_us) {
        t->verdict = TX_REFEED_TIMEOUT;
        snprintf(t->detail, sizeof t->detail, "answered in %.1f ms, limit %d ms",
                 (double)t->us / 1000.0, rf->limit_ms);
        return;
    }
    if (too_long) {
        t->verdict = TX_REFEED_ILLEGAL;
        snprintf(t->detail, sizeof t->detail, "line longer than %d bytes", TX_ANSWER_LINE_MAX);
        return;
    }
    if (parsed < 0) {
        t->verdict = TX_REFEED_ILLEGAL;
        snprintf(t->detail, sizeof t->detail, "%s", a->reason);
        return;
    }
    enum tx_illegal why = tx_game_check(&rf->position, a->move);
    if (why != TX_LEGAL) {
        t->verdict = TX_REFEED_ILLEGAL;
        tx_illegal_describe(&rf->position, a->move, why, t->detail, sizeof t->detail);
        return;
    }
    t->verdict = strcmp(t->answer, t->recorded) ? TX_REFEED_DIFFERENT : TX_REFEED_SAME;
}

static void take_answer(struct refeed *rf)
{
    if (!rf->feeding || !rf->clock_running)
        return;
    const struct tx_bot_line *line = tx_bot_peek_line(&rf->bot);
    if (!line)
        return;
    struct tx_answer a;
    int parsed = tx_answer_parse(rf->c->geo, line->text, line->len, &a);
    bool too_long = line->too_long;
    int64_t us = elapsed_us(rf, line->at);
    if (rf->res->startup_us < 0)
        rf->res->startup_us =
            line->at > rf->spawned ? (int64_t)((line->at - rf->spawned) / 1000) : 0;
    tx_bot_pop_line(&rf->bot);
    rf->lines_taken++;
    uv_timer_stop(&rf->timer);
    struct tx_refeed_turn *t = add_turn(rf, us);
    judge(rf, t, &a, parsed, too_long);
    rf->feeding = false;
    rf->clock_running = false;
    rf->first_done = true;
    if (t->verdict == TX_REFEED_TIMEOUT) {
        finish(rf);
        return;
    }
    rf->next++;
    feed_next(rf);
}

static void feed_next(struct refeed *rf)
{
    if (rf->over)
        return;
    if (rf->next >= rf->nentries) {
        finish(rf);
        return;
    }
    const struct tx_refeed_config *c = rf->c;
    int i = rf->entries[rf->next];
    rf->feeding = true;
    rf->clock_running = false;
    rf->limit_ms = rf->first_done ? c->turn_ms : c->first_turn_ms;
    if (!rf->bot.started) {
        crash(rf);
        return;
    }
    /* Checked up front by tx_refeed_run: these cannot fail here. */
    tx_verify_position(c->geo, c->record, i, &rf->position);
    int len =
        tx_input_write(&rf->position, c->player, !rf->first_done, rf->input, sizeof rf->input);
    int r = len < 0 ? UV_EINVAL : tx_bot_write(&rf->bot, rf->input, (size_t)len);
    if (r == 1) {
        start_clock(rf);
    } else if (r == 0) {
        arm(rf, (uint64_t)kill_after_ms(rf)); /* not reading its input: bound the wait */
    } else {
        tx_bot_poll(&rf->bot); /* an answer printed ahead still counts */
        if (tx_bot_peek_line(&rf->bot)) {
            rf->turn_start = uv_hrtime();
            rf->clock_running = true;
            take_answer(rf);
            return;
        }
        crash(rf);
    }
}

static void on_bot_event(struct tx_bot *bot, enum tx_bot_event event)
{
    struct refeed *rf = bot->data;
    if (!rf->feeding)
        return; /* lines stay queued for the next turn; deaths are seen then */
    switch (event) {
    case TX_BOT_LINE:
        take_answer(rf);
        break;
    case TX_BOT_WRITTEN:
        start_clock(rf);
        break;
    case TX_BOT_EOF:
    case TX_BOT_EXITED:
    case TX_BOT_WRITE_FAILED:
        tx_bot_poll(bot);
        if (rf->clock_running && tx_bot_peek_line(bot)) {
            take_answer(rf);
            return;
        }
        if (event == TX_BOT_EXITED && !bot->out_eof && !rf->clock_running)
            return; /* its input is still being written: the write fails next */
        crash(rf);
        break;
    }
}

/* ---- the run ---- */

/* The entries to feed: the player's own answers among moves 1..upto. */
static int collect_entries(struct refeed *rf, char *err, size_t errcap)
{
    const struct tx_refeed_config *c = rf->c;
    const struct tx_record *r = c->record;
    int upto = c->upto > 0 && c->upto < r->nmoves ? c->upto : r->nmoves;
    rf->entries = calloc((size_t)r->nmoves + 1, sizeof *rf->entries);
    if (!rf->entries)
        abort();
    for (int i = 0; i < upto; i++) {
        if (r->moves[i].player != c->player || r->moves[i].forced)
            continue;
        if (tx_verify_turn_input(c->geo, r, i, rf->input, sizeof rf->input) < 0) {
            snprintf(err, errcap, "game %lld does not replay up to move %d (check it with replay)",
                     (long long)r->game, i + 1);
            return -EINVAL;
        }
        rf->entries[rf->nentries++] = i;
    }
    if (rf->nentries == 0) {
        snprintf(err, errcap, "player %d has no turn in moves 1 to %d of game %lld", c->player + 1,
                 upto, (long long)r->game);
        return -EINVAL;
    }
    return 0;
}

int tx_refeed_run(const struct tx_refeed_config *c, struct tx_refeed_result *ret, char *err,
                  size_t errcap)
{
    memset(ret, 0, sizeof *ret);
    ret->startup_us = -1;
    if (c->player < 0 || c->player > 1 || c->geo->size != c->record->size) {
        snprintf(err, errcap, "re-feed: bad player or board size");
        return -EINVAL;
    }
    struct refeed *rf = calloc(1, sizeof *rf);
    if (!rf)
        abort();
    rf->c = c;
    rf->res = ret;
    char launcher[PATH_MAX], split_error[96];
    char **argv = NULL;
    char *command = tx_command_expand(c->command, c->record->seed, c->geo->size);
    int argc, rc = collect_entries(rf, err, errcap);
    if (rc < 0)
        goto out;
    if (tx_command_split(command, &argv, &argc, split_error, sizeof split_error) < 0) {
        snprintf(err, errcap, "bad bot command line: %s", split_error);
        rc = -EINVAL;
        goto out;
    }
    if (tx_bot_find_launcher(launcher, sizeof launcher) < 0) {
        snprintf(err, errcap, "%s", launcher);
        rc = -ENOENT;
        goto out;
    }
    ret->turns = calloc((size_t)rf->nentries, sizeof *ret->turns);
    if (!ret->turns || uv_loop_init(&rf->loop) < 0)
        abort();
    uv_timer_init(&rf->loop, &rf->timer);
    rf->timer.data = rf;
    rf->bot.data = rf;
    rf->bot.event_cb = on_bot_event;
    rf->bot.closed_cb = on_bot_closed;
    struct tx_bot_options o = {
        .argv = argv,
        .launcher = launcher,
        .memory_mb = c->bot_memory_mb,
        .cpu_s = 0,
        .nice = REFEED_NICE,
    };
    rf->open = 2;
    rf->spawned = uv_hrtime();
    if (tx_bot_start(&rf->bot, &rf->loop, &o) < 0)
        snprintf(ret->start_error, sizeof ret->start_error, "%s", rf->bot.start_error);
    feed_next(rf);
    while (rf->open > 0)
        uv_run(&rf->loop, UV_RUN_ONCE);
    /* The launcher reports a failed exec of the bot only once it is gone. */
    if (!ret->start_error[0] && rf->bot.start_error[0])
        snprintf(ret->start_error, sizeof ret->start_error, "%s", rf->bot.start_error);
    if (ret->exited)
        tx_bot_describe_exit(&rf->bot, ret->exit_detail, sizeof ret->exit_detail);
    if (ret->nturns > 0 && ret->turns[ret->nturns - 1].verdict == TX_REFEED_CRASH)
        tx_bot_describe_crash(&rf->bot, ret->turns[ret->nturns - 1].detail,
                              sizeof ret->turns[0].detail);
    ret->stderr_bytes = rf->bot.stderr_bytes;
    if (rf->bot.stderr_len > 0) {
        size_t len = rf->bot.stderr_len,
               from = len > TX_REFEED_STDERR_SHOWN ? len - TX_REFEED_STDERR_SHOWN : 0;
        size_t cap = 3 * (len - from) + 1; /* every byte may become U+FFFD */
        if (!(ret->stderr_tail = malloc(cap)))
            abort();
        tx_text_sanitize(ret->stderr_tail, cap, rf->bot.stderr_kept + from, len - from, SIZE_MAX);
    }
    ret->extra_lines =
        rf->bot.lines_received > rf->lines_taken ? rf->bot.lines_received - rf->lines_taken : 0;
    tx_bot_release(&rf->bot);
    uv_loop_close(&rf->loop);
out:
    tx_command_free(argv);
    free(command);
    free(rf->entries);
    free(rf);
    return rc;
}

void tx_refeed_result_free(struct tx_refeed_result *result)
{
    free(result->turns);
    free(result->stderr_tail);
    result->turns = NULL;
    result->stderr_tail = NULL;
    result->nturns = 0;
}
