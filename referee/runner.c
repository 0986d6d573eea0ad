/* runner.c - many matches on one loop, records written as games end,
 * resume, interrupts and the progress line (see runner.h).
 *
 * The loop holds at most `concurrency` matches, one per slot. When a match
 * ends, the next game is asked of the run's games (runner.h: struct
 * tx_runner_games, the one source of games) at once, and the record
 * is turned into one JSON line and appended with a single write() in
 * libuv's thread pool (the loop thread keeps timing the other games' bots)
 * by the records appender (records.h): with O_APPEND that is one atomic
 * step for a process being killed, so readers see whole lines or, at
 * worst, one torn last line. Only then is the game counted and shown. What
 * is done is the games' to know (a pool's: bitmaps of k per pairing).
 *
 * The file is the run's: locked for the whole run, and checked after each
 * record to still be where the user will look for it. A write error or a
 * file that was removed, moved or replaced stops the run like Ctrl-C (the
 * games in flight are recorded as interrupted where the file still takes
 * them), and the end of the run makes the records reachable again
 * (tx_records_out_rescue) before saying where they are.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "alloc.h"
#include "bot.h"
#include "records.h"
#include "resume.h"
#include "runner.h"

#define PROGRESS_INTERVAL_MS 500 /* the live line's redraw */
#define STATUS_INTERVAL_MS 60000 /* a status line when progress is not on a terminal */
#define TALLY_MAX 64             /* bots followed for the progress line's leader */

struct slot {
    struct tx_runner *runner;
    struct tx_match *match; /* NULL when the slot is free */
    bool replaying;         /* its game ended by a fault: saved, then started again here */
    struct tx_pool_slot game;
};

/* Points of each bot, for the leader shown in the progress line. */
struct tally {
    char *name;
    int64_t games;
    int64_t half_points; /* 2 per win, 1 per draw */
    int faults;          /* its sandbox could not be set up, this many games in a row */
};

struct tx_runner {
    const struct tx_runner_config *config;
    const struct tx_runner_games *games; /* config->games */
    struct tx_match_config match;        /* config->match with run set */
    uv_loop_t loop;
    uv_signal_t sigint, sigterm;
    uv_timer_t progress_timer;
    struct slot *slots;
    int nbusy;                 /* matches running */
    int nsaving;               /* records being written */
    struct tx_records_out out; /* the -o file (out.fd -1 without one) */
    int64_t last_game;         /* the largest game number in the file, or given */
    bool stopping;             /* start no new game */
    bool attached;             /* games->attach ran: detach when stopping */
    bool closed;               /* handles closed */
    int error;                 /* first fatal error, 0 if none */
    char *err;
    size_t errcap;
    struct tally tally[TALLY_MAX];
    int ntally;
    uint64_t start_ns;
    bool live;           /* progress as a live line (a terminal), else status lines */
    bool progress_shown; /* the live line is on screen */
    struct tx_runner_summary *summary;
};

void tx_runner_print_interrupted(const struct tx_runner_config *config,
                                 const struct tx_runner_summary *summary)
{
    const char *resume = config->resume_command ? config->resume_command : "the same command";
    long long saved = (long long)(summary->resumed + summary->played);
    long long left = (long long)summary->remaining;

    if (!summary->signal && !summary->failed)
        return;
    if (!config->output) {
        if (summary->signal)
            fprintf(stderr,
                    "twixt-arena: interrupted by %s; without -o FILE there is nothing to resume\n",
                    strsignal(summary->signal));
        return;
    }
    if (summary->signal && left < 0) { /* a league: no end */
        fprintf(stderr, "twixt-arena: interrupted by %s; %lld games in %s. Resume with:\n  %s\n",
                strsignal(summary->signal), saved, config->output, resume);
        return;
    }
    if (summary->signal) {
        fprintf(
            stderr,
            "twixt-arena: interrupted by %s; %lld game%s in %s, %lld to play. Resume with:\n  %s\n",
            strsignal(summary->signal), saved, saved == 1 ? "" : "s", config->output, left, resume);
        return;
    }
    if (!summary->where[0]) {
        fprintf(stderr,
                "twixt-arena: stopped: the records of this run could not be kept; running the "
                "same command again plays its games again:\n  %s\n",
                resume);
        return;
    }
    if (strcmp(summary->where, config->output)) {
        fprintf(stderr,
                "twixt-arena: stopped; %lld %s saved in %s, %lld to play. To resume, put "
                "that file back as %s, then run:\n  %s\n",
                saved, saved == 1 ? "game is" : "games are", summary->where, left, config->output,
                resume);
        return;
    }
    fprintf(stderr,
            "twixt-arena: stopped; %lld %s saved in %s, %lld to play. Once the cause is "
            "fixed, resume with:\n  %s\n",
            saved, saved == 1 ? "game is" : "games are", config->output, left, resume);
}

int tx_runner_cores(void)
{
    unsigned n = uv_available_parallelism();
    return n > 0 ? (int)n : 1;
}

int tx_runner_concurrency(int requested, const char *who)
{
    int cores = tx_runner_cores();
    if (requested > cores)
        fprintf(stderr,
                "%s: warning: --concurrency %d exceeds the %d cores: bots will be charged for each "
                "other's time\n",
                who, requested, cores);
    return requested > 0 ? requested : cores;
}

void tx_runner_stop(struct tx_runner *runner)
{
    runner->stopping = true;
    runner->summary->stopped = true;
}

/* The tally of the bot named name, or NULL when TALLY_MAX bots are
 * followed already. */
static struct tally *tally_of(struct tx_runner *r, const char *name)
{
    for (int i = 0; i < r->ntally; i++)
        if (!strcmp(r->tally[i].name, name))
            return &r->tally[i];
    if (r->ntally == TALLY_MAX)
        return NULL;
    r->tally[r->ntally].name = tx_strdup(name);
    return &r->tally[r->ntally++];
}

static void count_result(struct tx_runner *r, const struct tx_record *rec)
{
    if (rec->result.reason == TX_REASON_INTERRUPTED)
        return;
    for (int p = 0; p < 2; p++) {
        struct tally *t = tally_of(r, rec->players[p].name ? rec->players[p].name : "");
        if (!t)
            continue;
        t->games++;
        t->half_points += rec->result.winner == p ? 2 : rec->result.winner < 0 ? 1 : 0;
    }
}

/* ---- progress ---- */

/* Where progress goes (stderr, so stdout keeps only results) and how: on a
 * terminal a live line redrawn in place, fitted to the terminal's width;
 * anywhere else (a file, a pipe, CI, nohup) a status line every
 * status_interval_ms, as fastchess prints its rating interval. */
static FILE *progress_out(const struct tx_runner *r)
{
    return r->config->progress_out ? r->config->progress_out : stderr;
}

/* Display columns of the terminal behind out, 80 when unknown. */
static int terminal_width(FILE *out)
{
    struct winsize ws;
    if (ioctl(fileno(out), TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
        return ws.ws_col;
    return 80;
}

static void clear_progress(struct tx_runner *r)
{
    if (r->progress_shown) {
        fputs("\r\033[K", progress_out(r));
        fflush(progress_out(r));
        r->progress_shown = false;
    }
}

/* "12/90 games, 1.23 games/s, 0:01:03 left, leader mcts 75.0%" */
static void format_progress(struct tx_runner *r, char *buf, size_t cap)
{
    const struct tx_runner_summary *sum = r->summary;
    int64_t done = 0, total = -1;
    r->games->progress(r->games->data, &done, &total);
    double elapsed = (double)(uv_hrtime() - r->start_ns) / 1e9;
    double rate = elapsed > 0 ? (double)sum->played / elapsed : 0;
    char left[32] = "?";
    if (rate > 0 && total >= 0) {
        long secs = (long)((double)(total - done) / rate);
        snprintf(left, sizeof left, "%ld:%02ld:%02ld", secs / 3600, secs / 60 % 60, secs % 60);
    }
    int leader = -1;
    for (int i = 0; i < r->ntally; i++)
        if (r->tally[i].games > 0 &&
            (leader < 0 || r->tally[i].half_points * r->tally[leader].games >
                               r->tally[leader].half_points * r->tally[i].games))
            leader = i;
    /* A league has no end: games played, and the rate. */
    int n = total < 0 ? snprintf(buf, cap, "%lld games, %.2f games/s", (long long)done, rate)
                      : snprintf(buf, cap, "%lld/%lld games, %.2f games/s, %s left",
                                 (long long)done, (long long)total, rate, left);
    if (leader >= 0 && n >= 0 && (size_t)n < cap)
        snprintf(buf + n, cap - (size_t)n, ", leader %s %.1f%%", r->tally[leader].name,
                 50.0 * (double)r->tally[leader].half_points / (double)r->tally[leader].games);
}

/* Cuts text to at most cols characters (UTF-8: continuation bytes are not
 * characters, and a sequence is never split). */
static void fit_columns(char *text, int cols)
{
    int chars = 0;
    for (char *p = text; *p; p++)
        if (((unsigned char)*p & 0xC0) != 0x80 && ++chars > cols) {
            *p = '\0';
            return;
        }
}

static void draw_progress(struct tx_runner *r)
{
    char line[512];
    format_progress(r, line, sizeof line);
    FILE *out = progress_out(r);
    if (!r->live) {
        fprintf(out, "twixt-arena: %s\n", line);
        fflush(out);
        return;
    }
    /* One column short of the width: a line that fills the terminal
     * exactly wraps on some terminals, and every redraw would leave a line
     * behind. */
    fit_columns(line, terminal_width(out) - 1);
    fprintf(out, "\r\033[K%s", line);
    fflush(out);
    r->progress_shown = true;
}

static void on_progress_timer(uv_timer_t *timer)
{
    draw_progress(timer->data);
}

/* ---- starting and ending games ---- */

static void close_handles(struct tx_runner *r)
{
    if (r->closed)
        return;
    r->closed = true;
    if (r->attached && r->games->detach)
        r->games->detach(r->games->data);
    uv_close((uv_handle_t *)&r->sigint, NULL);
    uv_close((uv_handle_t *)&r->sigterm, NULL);
    uv_close((uv_handle_t *)&r->progress_timer, NULL);
}

/* Stops the run for an error of the referee's own (not a bot's): context
 * says what failed, the errno's text is appended (NULL: r->err already
 * holds the message). */
static void fail(struct tx_runner *r, int error, const char *context)
{
    if (!r->error) {
        r->error = error;
        if (context)
            snprintf(r->err, r->errcap, "%s: %s", context, uv_strerror(error));
    }
    r->summary->failed = true;
    r->stopping = true;
    for (int i = 0; i < r->config->concurrency; i++)
        if (r->slots[i].match)
            tx_match_interrupt(r->slots[i].match);
}

static void on_game_done(struct tx_match *match, struct tx_record *record, void *data);

static void start_games(struct tx_runner *r)
{
    for (int i = 0; i < r->config->concurrency && !r->stopping; i++) {
        struct slot *slot = &r->slots[i];
        if (slot->match || slot->replaying)
            continue;
        int64_t index = r->last_game + 1;
        int rc = r->games->next(r->games->data, index, &slot->game);
        if (rc == 0) {
            r->stopping = true;
            break;
        }
        if (rc > 0) {
            r->last_game = index;
            rc = tx_match_start(&r->loop, &r->match, &slot->game.spec, on_game_done, slot,
                                &slot->match);
            if (rc < 0)
                r->games->ended(r->games->data, &slot->game, NULL);
        }
        if (rc < 0) {
            slot->match = NULL;
            char what[128];
            /* match.c's only ENOENT: its launcher is not where it looks */
            snprintf(what, sizeof what, "cannot start game %lld%s", (long long)index,
                     rc == -ENOENT ? " (the bot launcher twixt-launch must be next to twixt-arena)"
                                   : "");
            fail(r, rc, what);
            break;
        }
        r->nbusy++;
    }
    if (r->nbusy == 0 && r->nsaving == 0)
        close_handles(r);
}

void tx_runner_wake(struct tx_runner *runner)
{
    if (!runner->closed && !runner->stopping)
        start_games(runner);
}

/* A finished game's record on its way to the file. */
struct saving {
    uv_work_t work; /* first member: the work request is the struct */
    struct tx_runner *runner;
    struct tx_pool_slot game; /* what the game was, for games->ended */
    struct tx_record *record;
    int fault;          /* the player whose sandbox could not be set up, -1 */
    struct slot *again; /* where it is played again (fault), or NULL */
    int rc;
    char err[512];
};

/* In libuv's thread pool: building a record's JSON and writing it take
 * tens of microseconds, which the loop thread must not spend while other
 * games' clocks run. Each line is still one write() on the O_APPEND fd. */
static void save_work(uv_work_t *work)
{
    struct saving *sv = (struct saving *)work;
    struct tx_runner *r = sv->runner;
    sv->rc =
        r->out.fd >= 0 ? tx_records_out_append(&r->out, sv->record, sv->err, sizeof sv->err) : 0;
}

/* Sandbox set-up failures in a row, per bot: TX_RUNNER_FAULTS_MAX of them
 * stop the run (runner.h). */
static void count_faults(struct tx_runner *r, const struct tx_record *rec, int fault)
{
    for (int p = 0; p < 2; p++) {
        struct tally *t = tally_of(r, rec->players[p].name ? rec->players[p].name : "");
        if (!t)
            continue;
        if (p == fault)
            t->faults++;
        else if (rec->result.reason != TX_REASON_INTERRUPTED)
            t->faults = 0;
        if (t->faults >= TX_RUNNER_FAULTS_MAX && !r->error) {
            snprintf(r->err, r->errcap,
                     "%s, %d times in a row: the machine refuses this bot's sandbox (its games "
                     "were not counted; see README \"When a sandbox cannot be built\")",
                     rec->result.detail, t->faults);
            fail(r, -EIO, NULL);
        }
    }
}

/* Plays a game that ended by a fault again, in its slot, as the next game
 * of the file; or, when the run stops, lets its source know it ended. */
static void play_again(struct tx_runner *r, struct slot *slot, const struct tx_record *record)
{
    slot->replaying = false;
    if (r->stopping) {
        r->games->ended(r->games->data, &slot->game, record);
        return;
    }
    int64_t index = ++r->last_game;
    slot->game.spec.index = index;
    int rc =
        tx_match_start(&r->loop, &r->match, &slot->game.spec, on_game_done, slot, &slot->match);
    if (rc < 0) {
        slot->match = NULL;
        r->games->ended(r->games->data, &slot->game, NULL);
        char what[64];
        snprintf(what, sizeof what, "cannot start game %lld", (long long)index);
        fail(r, rc, what);
        return;
    }
    r->nbusy++;
}

static void after_save(uv_work_t *work, int status)
{
    struct saving *sv = (struct saving *)work;
    struct tx_runner *r = sv->runner;
    struct tx_record *record = sv->record;
    /* -ESTALE: written, but the path no longer names the file; the end of
     * the run makes it reachable again (tx_records_out_rescue). */
    bool saved = sv->rc == 0 || sv->rc == -ESTALE;

    (void)status; /* never cancelled */
    r->nsaving--;
    if (sv->rc < 0) {
        if (!r->error)
            snprintf(r->err, r->errcap, "%s", sv->err);
        fail(r, sv->rc, NULL);
    }
    if (saved)
        count_faults(r, record, sv->fault);
    /* A game whose record is lost was not played, as far as the file says. */
    if (sv->again)
        play_again(r, sv->again, saved ? record : NULL);
    else
        r->games->ended(r->games->data, &sv->game, saved ? record : NULL);
    free(sv);
    if (!saved)
        r->summary->lost += record->result.reason != TX_REASON_INTERRUPTED;
    else if (record->result.reason == TX_REASON_INTERRUPTED)
        r->summary->interrupted++;
    else
        r->summary->played++;
    if (saved) {
        count_result(r, record);
        clear_progress(r);
        if (r->config->record_cb)
            r->config->record_cb(r, record, false, r->config->data);
    }
    tx_record_free(record);
    free(record);
    start_games(r);
    if (r->config->progress && r->live && !r->closed)
        draw_progress(r);
}

static void on_game_done(struct tx_match *match, struct tx_record *record, void *data)
{
    struct slot *slot = data;
    struct tx_runner *r = slot->runner;

    slot->match = NULL;
    r->nbusy--;
    struct saving *sv = tx_xcalloc(1, sizeof *sv);
    sv->runner = r;
    sv->record = record;
    sv->game = slot->game; /* the slot may start another game before this one is saved */
    /* A bot whose sandbox could not be set up lost nothing: the game is
     * played again in this slot, once its record is saved (runner.h). */
    sv->fault = tx_match_fault(match);
    if (sv->fault >= 0 && !r->stopping) {
        sv->again = slot;
        slot->replaying = true;
    }
    /* The next game starts in after_save, once record_cb has seen this one:
     * a caller that decides to stop on this record (an SPRT) must not find
     * a game already started behind its back. The write takes tens of
     * microseconds; a game, seconds. With no other game running and no
     * other record on its way, no clock runs: it is written here, without
     * the thread pool's round trip (a few hundred microseconds on a VM). */
    bool alone = r->nbusy == 0 && r->nsaving == 0;
    r->nsaving++;
    if (alone || uv_queue_work(&r->loop, &sv->work, save_work, after_save) < 0) {
        save_work(&sv->work);
        after_save(&sv->work, 0);
    }
}

static void on_signal(uv_signal_t *handle, int signum)
{
    struct tx_runner *r = handle->data;
    if (!r->summary->signal)
        r->summary->signal = signum;
    r->stopping = true;
    for (int i = 0; i < r->config->concurrency; i++)
        if (r->slots[i].match)
            tx_match_interrupt(r->slots[i].match);
    if (r->nbusy == 0 && r->nsaving == 0)
        close_handles(r);
}

/* ---- resume: what the file already holds ---- */

/* One record of the file (see resume.h): the source says whether it is a
 * game of this run, or why the file cannot be resumed by it. */
static int on_resumed(const struct tx_record *rec, void *data, char *why, size_t cap)
{
    struct tx_runner *r = data;
    int counted = r->games->resumed(r->games->data, rec, why, cap);
    if (counted < 0)
        return counted;
    if (rec->game > r->last_game)
        r->last_game = rec->game;
    if (!counted)
        return 0; /* a game of another pairing (a bot that left), or interrupted */
    r->summary->resumed++;
    count_result(r, rec);
    if (r->config->record_cb)
        r->config->record_cb(r, rec, true, r->config->data);
    return 0;
}

static int open_output(struct tx_runner *r)
{
    int rc = tx_records_out_open(&r->out, r->config->output, r->err, r->errcap);
    if (rc < 0)
        return rc;
    struct tx_resume resume = {
        .out = &r->out,
        .skip_invalid = r->config->skip_invalid,
    };
    return tx_resume_read(&resume, on_resumed, r, r->err, r->errcap);
}

/* The end of the file: where the records are, and on disk. */
static int close_output(struct tx_runner *r)
{
    struct tx_runner_summary *sum = r->summary;
    char msg[1024];
    int rc = r->error;

    if (r->out.fd < 0)
        return rc;
    snprintf(sum->where, sizeof sum->where, "%s", r->config->output);
    if (r->out.gone) {
        int rescued =
            tx_records_out_rescue(&r->out, sum->where, sizeof sum->where, msg, sizeof msg);
        snprintf(r->err, r->errcap, "%s", msg);
        if (rescued < 0)
            sum->resumed = sum->played = 0;
    }
    int closed = tx_records_out_close(&r->out, msg, sizeof msg);
    if (closed < 0 && !rc) {
        snprintf(r->err, r->errcap, "%s", msg);
        rc = closed;
        sum->failed = true;
    }
    return rc;
}

int tx_runner_run(const struct tx_runner_config *config, struct tx_runner_summary *summary,
                  char *err, size_t errcap)
{
    struct tx_runner *r = calloc(1, sizeof *r);
    if (!r)
        return -ENOMEM;
    memset(summary, 0, sizeof *summary);
    r->config = config;
    r->summary = summary;
    r->err = err;
    r->errcap = errcap;
    r->out.fd = -1;
    r->match = *config->match;
    r->games = config->games;
    r->match.run = r->games->run;

    int rc = 0;
    if (config->output && (rc = open_output(r)) < 0) {
        /* nothing played: only the file to close, its message kept */
        char ignored[256];
        tx_records_out_close(&r->out, ignored, sizeof ignored);
        goto out;
    }
    int64_t done = 0, total = -1;

    r->slots = calloc((size_t)config->concurrency, sizeof *r->slots);
    if (!r->slots || (rc = uv_loop_init(&r->loop)) < 0) {
        rc = r->slots ? rc : -ENOMEM;
        snprintf(err, errcap, "cannot start the event loop: %s", uv_strerror(rc));
        char ignored[256];
        tx_records_out_close(&r->out, ignored, sizeof ignored);
        goto out;
    }
    for (int i = 0; i < config->concurrency; i++)
        r->slots[i].runner = r;
    uv_signal_init(&r->loop, &r->sigint);
    uv_signal_init(&r->loop, &r->sigterm);
    uv_timer_init(&r->loop, &r->progress_timer);
    r->sigint.data = r->sigterm.data = r->progress_timer.data = r;
    uv_signal_start(&r->sigint, on_signal, SIGINT);
    uv_signal_start(&r->sigterm, on_signal, SIGTERM);
    r->live = isatty(fileno(progress_out(r)));
    uint64_t every = r->live                          ? PROGRESS_INTERVAL_MS
                     : config->status_interval_ms > 0 ? (uint64_t)config->status_interval_ms
                                                      : STATUS_INTERVAL_MS;
    if (config->progress)
        uv_timer_start(&r->progress_timer, on_progress_timer, every, every);

    r->start_ns = uv_hrtime();
    if (r->games->attach) {
        r->games->attach(r->games->data, r, &r->loop);
        r->attached = true;
    }
    tx_bot_serve(true); /* a keeper per bot without an exec of the launcher */
    start_games(r);
    uv_run(&r->loop, UV_RUN_DEFAULT);
    tx_bot_serve(false);
    clear_progress(r);
    uv_loop_close(&r->loop);
    r->games->progress(r->games->data, &done, &total);
    summary->remaining = total < 0 ? -1 : total - done;
    rc = close_output(r);
out:
    for (int i = 0; i < r->ntally; i++)
        free(r->tally[i].name);
    free(r->slots);
    free(r);
    return rc;
}
