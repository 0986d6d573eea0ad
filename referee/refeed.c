/* refeed.c - one bot fed a recorded player's inputs: the contract of refeed.h.
 *
 * The shape is a match with one bot and no game: write the turn input,
 * start the clock when the write completes, take one queued line, judge it
 * against the recorded position, go on. Verdicts come from uv_hrtime()
 * stamps, never from which callback ran first (libuv runs timers before
 * I/O), exactly as in match.c, so a timeout seen in a tournament shows up
 * here too.
 *
 * The exit probe does not run the loop while it waits: libuv reaps children
 * only from the loop, so a bot that exits stays a zombie, its pid and
 * session id cannot be reused, and /proc tells both that it exited and
 * which processes of its session or group it left behind.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "answer.h"
#include "bot.h"
#include "command.h"
#include "game.h"
#include "input.h"
#include "proc.h"
#include "refeed.h"
#include "render-text.h"
#include "text.h"
#include "verify.h"

#define PROBE_POLL_US 2000 /* /proc is looked at this often while waiting for the exit */
#define REFEED_NICE 5       /* the bot runs this much below us, as in a match (match.c) */

struct refeed {
    const struct tx_refeed_config *c;
    struct tx_refeed_result *res;
    uv_loop_t loop;
    struct tx_bot bot;
    uv_timer_t timer;
    int open;             /* handles (timer, bot) not closed yet */
    int *entries;         /* 0-based indexes in record->moves of the fed turns */
    int nentries, next;   /* next: the entry being fed */
    bool feeding;         /* a turn is in progress */
    bool clock_running;
    bool over;            /* feeding is over (all fed, or a crash / timeout) */
    bool first_done;
    int soft_used;        /* soft mode: late answers forgiven so far */
    uint64_t spawned, turn_start;
    int limit_ms;
    int64_t lines_taken;
    struct tx_game position; /* before the entry being fed */
    char input[TX_INPUT_MAX];
};

static void feed_next(struct refeed *rf);
static void take_answer(struct refeed *rf);

const char *tx_refeed_verdict_name(enum tx_refeed_verdict verdict)
{
    switch (verdict) {
    case TX_REFEED_SAME: return "same";
    case TX_REFEED_DIFFERENT: return "different";
    case TX_REFEED_ILLEGAL: return "illegal";
    case TX_REFEED_TIMEOUT: return "timeout";
    case TX_REFEED_CRASH: return "crash";
    }
    return "?";
}

/* ---- /proc: the exit probe ---- */

/* State letter, process group and session of pid, from /proc/PID/stat
 * (the fields after the command name, which may itself hold ')' or spaces).
 * Returns 0, or -1 when the process does not exist. */
static int proc_stat(int pid, char *state, int *pgrp, int *session, char *comm, size_t commcap)
{
    char path[64], buf[512];
    snprintf(path, sizeof path, "/proc/%d/stat", pid);
    FILE *f = fopen(path, "re");
    if (!f)
        return -1;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    char *lp = strchr(buf, '('), *rp = strrchr(buf, ')');
    int ppid;
    if (!lp || !rp || rp < lp || sscanf(rp + 1, " %c %d %d %d", state, &ppid, pgrp, session) != 4)
        return -1;
    if (comm) {
        size_t len = (size_t)(rp - lp - 1);
        if (len >= commcap)
            len = commcap - 1;
        memcpy(comm, lp + 1, len);
        comm[len] = '\0';
        for (char *p = comm; *p; p++)
            if (!isprint((unsigned char)*p))
                *p = '?';
    }
    return 0;
}

static void note_left(struct tx_refeed_result *res, int pid, const char *comm)
{
    if (res->nleft < TX_REFEED_LEFT_MAX) {
        res->left_pids[res->nleft] = pid;
        snprintf(res->left_names[res->nleft], sizeof res->left_names[0], "%s", comm);
    }
    res->nleft++;
}

/* Descendants that left the bot's session (setsid) and are still running:
 * they are left behind too, and tx_bot_stop can no longer find them (their
 * parent is gone), so they are killed here. */
static void find_escaped(struct refeed *rf, const int *pids, int n)
{
    int pid = rf->bot.pid;
    for (int i = 1; i < n; i++) {
        char state, comm[20];
        int pgrp, session;
        if (proc_stat(pids[i], &state, &pgrp, &session, comm, sizeof comm) < 0 || state == 'Z' ||
            pgrp == pid || session == pid)
            continue; /* gone, or a member of the group that find_left counts */
        note_left(rf->res, pids[i], comm);
        kill(pids[i], SIGKILL);
    }
}

/* Processes other than the bot in its session or process group, zombies
 * aside (an orphan's zombie is reaped by init at once). */
static void find_left(struct refeed *rf)
{
    int pid = rf->bot.pid;
    DIR *dir = opendir("/proc");
    if (!dir || pid <= 1) {
        if (dir)
            closedir(dir);
        return;
    }
    struct dirent *e;
    while ((e = readdir(dir))) {
        char *end;
        long other = strtol(e->d_name, &end, 10);
        if (*end || other <= 0 || other == pid)
            continue;
        char state, comm[20];
        int pgrp, session;
        if (proc_stat((int)other, &state, &pgrp, &session, comm, sizeof comm) < 0 || state == 'Z')
            continue;
        if (pgrp == pid || session == pid)
            note_left(rf->res, (int)other, comm);
    }
    closedir(dir);
}

static void sleep_us(long us)
{
    struct timespec t = {.tv_sec = us / 1000000, .tv_nsec = (us % 1000000) * 1000};
    while (nanosleep(&t, &t) < 0 && errno == EINTR)
        ;
}

/* Closes stdin and waits (without running the loop) for the bot to exit. */
static void probe_exit(struct refeed *rf)
{
    struct tx_refeed_result *res = rf->res;
    res->probed = true;
    /* Taken while the bot runs: once it exits, its children are init's. */
    int family[TX_PROC_DESCENDANTS_MAX];
    int n = tx_proc_family(rf->bot.pid, family, TX_PROC_DESCENDANTS_MAX);
    tx_bot_close_input(&rf->bot);
    uint64_t t0 = uv_hrtime(), wait_ns = (uint64_t)TX_REFEED_EXIT_WAIT_MS * 1000000u;
    for (;;) {
        char state;
        int pgrp, session;
        uint64_t now = uv_hrtime();
        if (proc_stat(rf->bot.pid, &state, &pgrp, &session, NULL, 0) < 0 || state == 'Z' || state == 'X') {
            res->exited = true;
            res->exit_us = (int64_t)((now - t0) / 1000);
            break;
        }
        if (now - t0 >= wait_ns)
            break;
        sleep_us(PROBE_POLL_US);
    }
    find_left(rf);
    find_escaped(rf, family, n);
}

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
        probe_exit(rf);
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
    snprintf(t->detail, sizeof t->detail, "no answer in %d ms, killed at %" PRId64 " ms", rf->limit_ms,
             t->us / 1000);
    finish(rf);
}

/* ---- a turn ---- */

static void judge(struct refeed *rf, struct tx_refeed_turn *t, const struct tx_answer *a, int parsed,
                  bool too_long)
{
    snprintf(t->answer, sizeof t->answer, "%s", a->token);
    snprintf(t->message, sizeof t->message, "%s", a->message);
    int64_t allowed_us = (int64_t)(rf->limit_ms + rf->c->margin_ms) * 1000;
    bool small = t->us - allowed_us <= TX_REFEED_SOFT_OVER_MS * 1000;
    if (t->us > allowed_us && rf->c->soft_timeouts && small && rf->soft_used < TX_REFEED_SOFT_FORGIVEN) {
        rf->soft_used++;
        snprintf(t->detail, sizeof t->detail, "%.1f ms over the limit, forgiven (soft mode, %d of %d)",
                 (double)(t->us - allowed_us) / 1000.0, rf->soft_used, TX_REFEED_SOFT_FORGIVEN);
    } else if (t->us > allowed_us) {
        t->verdict = TX_REFEED_TIMEOUT;
        snprintf(t->detail, sizeof t->detail, "answered in %.1f ms, limit %d ms", (double)t->us / 1000.0,
                 rf->limit_ms);
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
        rf->res->startup_us = line->at > rf->spawned ? (int64_t)((line->at - rf->spawned) / 1000) : 0;
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
    int len = tx_input_write(&rf->position, c->player, rf->input, sizeof rf->input);
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
        snprintf(err, errcap, "player %d has no turn in moves 1 to %d of game %lld", c->player + 1, upto,
                 (long long)r->game);
        return -EINVAL;
    }
    return 0;
}

int tx_refeed_run(const struct tx_refeed_config *c, struct tx_refeed_result *ret, char *err, size_t errcap)
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
        tx_bot_describe_crash(&rf->bot, ret->turns[ret->nturns - 1].detail, sizeof ret->turns[0].detail);
    ret->stderr_bytes = rf->bot.stderr_bytes;
    if (rf->bot.stderr_len > 0) {
        size_t len = rf->bot.stderr_len, from = len > TX_REFEED_STDERR_SHOWN ? len - TX_REFEED_STDERR_SHOWN : 0;
        size_t cap = 3 * (len - from) + 1; /* every byte may become U+FFFD */
        if (!(ret->stderr_tail = malloc(cap)))
            abort();
        tx_text_sanitize(ret->stderr_tail, cap, rf->bot.stderr_kept + from, len - from, SIZE_MAX);
    }
    ret->extra_lines = rf->bot.lines_received > rf->lines_taken ? rf->bot.lines_received - rf->lines_taken : 0;
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

static void print_cell(FILE *out, const char *text, int width)
{
    int len = (int)strlen(text);
    tx_render_text_safe(out, text, 24);
    for (int i = len < 24 ? len : 27; i < width; i++)
        fputc(' ', out);
}

void tx_refeed_print(FILE *out, const struct tx_refeed_config *c, const struct tx_refeed_result *res)
{
    int counts[TX_REFEED_CRASH + 1] = {0};
    fprintf(out, "%5s %5s %8s  %-9s %-9s %10s  %s\n", "move", "turn", "limit", "recorded", "new", "time",
            "verdict");
    for (int k = 0; k < res->nturns; k++) {
        const struct tx_refeed_turn *t = &res->turns[k];
        counts[t->verdict]++;
        fprintf(out, "%5d %5d %5d ms  ", t->move, k + 1, t->limit_ms);
        print_cell(out, t->recorded[0] ? t->recorded : "-", 10);
        print_cell(out, t->answer[0] ? t->answer : "-", 10);
        if (t->us >= 0)
            fprintf(out, "%7.1f ms  ", (double)t->us / 1000.0);
        else
            fprintf(out, "%10s  ", "-");
        fputs(tx_refeed_verdict_name(t->verdict), out);
        if (t->detail[0]) {
            fputs(": ", out);
            tx_render_text_safe(out, t->detail, 160);
        }
        if (t->message[0]) {
            fputs("  \"", out);
            tx_render_text_safe(out, t->message, TX_MESSAGE_MAX);
            fputc('"', out);
        }
        fputc('\n', out);
    }
    fprintf(out, "%d turn%s fed to player %d: %d same, %d different, %d illegal, %d timeout, %d crash\n",
            res->nturns, res->nturns == 1 ? "" : "s", c->player + 1, counts[TX_REFEED_SAME],
            counts[TX_REFEED_DIFFERENT], counts[TX_REFEED_ILLEGAL], counts[TX_REFEED_TIMEOUT],
            counts[TX_REFEED_CRASH]);
    if (res->start_error[0]) {
        fputs("the bot did not start: ", out);
        tx_render_text_safe(out, res->start_error, sizeof res->start_error);
        fputc('\n', out);
    }
    if (res->extra_lines > 0)
        fprintf(out, "extra lines: %" PRId64 " printed beyond one per turn\n", res->extra_lines);
    if (res->stderr_bytes > 0)
        fprintf(out, "stderr: %" PRId64 " bytes%s\n", res->stderr_bytes, res->stderr_tail ? ", ending with:" : "");
    for (const char *line = res->stderr_tail; line && *line;) {
        size_t n = strcspn(line, "\n");
        char *copy = strndup(line, n);
        if (!copy)
            abort();
        fputs("  | ", out);
        tx_render_text_safe(out, copy, 400);
        fputc('\n', out);
        free(copy);
        line += n + (line[n] == '\n');
    }
}

int tx_refeed_replay(FILE *out, const struct tx_geometry *geo, const struct tx_record *r, const char *bot_arg,
                     int turn)
{
    const char *eq = strchr(bot_arg, '=');
    int player = -1;
    if (eq && eq - bot_arg == 1 && (bot_arg[0] == '1' || bot_arg[0] == '2'))
        player = bot_arg[0] - '1';
    for (int p = 0; eq && player < 0 && p < 2; p++)
        if (r->players[p].name && strlen(r->players[p].name) == (size_t)(eq - bot_arg) &&
            !strncmp(r->players[p].name, bot_arg, (size_t)(eq - bot_arg)))
            player = p;
    if (player < 0 || !eq[1]) {
        fprintf(stderr, "twixt-arena replay: --bot: expected PLAYER=COMMAND with PLAYER 1, 2 or a player's "
                        "name of game %lld, got '%s'\n", (long long)r->game, bot_arg);
        return 2;
    }
    struct tx_refeed_config c = {
        .geo = geo,
        .record = r,
        .player = player,
        .command = eq + 1,
        .upto = turn,
        .first_turn_ms = r->limits.first_turn_ms,
        .turn_ms = r->limits.turn_ms,
        .margin_ms = r->limits.margin_ms,
        .soft_timeouts = r->limits.soft,
        .bot_memory_mb = TX_REFEED_MEMORY_MB,
    };
    struct tx_refeed_result res;
    char err[512];
    if (tx_refeed_run(&c, &res, err, sizeof err) < 0) {
        fprintf(stderr, "twixt-arena replay: --bot: %s\n", err);
        tx_refeed_result_free(&res);
        return 2;
    }
    fprintf(out, "game %lld: player %d (", (long long)r->game, player + 1);
    tx_render_text_safe(out, r->players[player].name ? r->players[player].name : "?", 64);
    fprintf(out, ") was ");
    tx_render_text_safe(out, r->players[player].command ? r->players[player].command : "?", 200);
    fprintf(out, "\nits inputs up to move %d, re-fed to: ", turn > 0 && turn < r->nmoves ? turn : r->nmoves);
    tx_render_text_safe(out, c.command, 400);
    fprintf(out, "\nlimits: first turn %d ms, later turns %d ms, margin %d ms%s\n\n", c.first_turn_ms, c.turn_ms,
            c.margin_ms, c.soft_timeouts ? ", soft timeouts" : "");
    tx_refeed_print(out, &c, &res);
    bool all_same = res.nturns > 0;
    for (int k = 0; k < res.nturns; k++)
        all_same = all_same && res.turns[k].verdict == TX_REFEED_SAME;
    tx_refeed_result_free(&res);
    return all_same ? 0 : 1;
}
