/* bot.c - one bot process over libuv: the lifecycle of bot.h.
 *
 * The shape follows libuv's own process tests: every handle lives in the
 * struct, is initialised before the spawn and closed exactly once, the
 * keeper's pidfd handle only once it has exited and been reaped (waitpid
 * of that pid only: libuv's rule, never waitpid(-1)), and the owner hears
 * closed_cb when the last close callback has run. The keeper comes from
 * the launcher's fork server during a run (tx_bot_serve), else from
 * posix_spawn's vfork rather than libuv's fork: about twice a game, and a
 * fork copies the referee's page tables and leaves its memory
 * copy-on-write, so that the referee then faults on every page it writes. Reading never stops while
 * the bot lives, so a bot never blocks on a full pipe; what is kept is bounded by the constants of
 * bot.h, whatever the bot writes.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "alloc.h"
#include "bot.h"
#include "command.h"
#include "paths.h"
#include "proc.h"

/* One buffer for every read of every stream: read callbacks run one at a
 * time on the loop thread and copy what they keep before returning. */
static char read_buffer[65536];

/* Found once a process: every game asks (a dozen readlinks each time),
 * and where this program and its launcher are does not change. */
int tx_bot_find_launcher(char *buf, size_t cap)
{
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    static struct tx_paths found;
    static bool known;
    pthread_mutex_lock(&lock);
    int r = 0;
    if (!known) {
        r = tx_paths_find(&found);
        known = r == 0;
    }
    snprintf(buf, cap, "%s", found.launcher);
    pthread_mutex_unlock(&lock);
    return r;
}

/* One handle (or the TMPDIR's removal) fewer; the owner hears of the last. */
static void closed_one(struct tx_bot *bot)
{
    if (--bot->open_handles == 0 && bot->closed_cb)
        bot->closed_cb(bot);
}

static void on_close(uv_handle_t *handle)
{
    closed_one(handle->data);
}

static void on_process_closed(uv_handle_t *handle)
{
    struct tx_bot *bot = handle->data;
    close(bot->pidfd);
    bot->pidfd = -1;
    closed_one(bot);
}

/* ---- the bots' TMPDIRs (without the sandbox) ---- */

/* A keeper leaves its bot's TMPDIR to the referee (removing even an empty
 * directory takes about a millisecond on ext4, and the game would wait for
 * it), and so does a keeper that was killed. One thread of ours removes
 * what is in them, in order, off the loop and off every game's end. A
 * directory left empty and as mkdtemp made it is a spare: the next bot's
 * keeper is lent it (--tmpdir) instead of making one (a mkdir on the bot's
 * way to its first turn, and an rmdir later, for every bot of a run).
 * The program does not exit before it has removed them all, spares
 * included (an atexit handler waits). */
struct removal {
    struct removal *next;
    char path[64];
};

#define SPARES_MAX 64

static pthread_mutex_t removals_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t removals_cond = PTHREAD_COND_INITIALIZER;
static struct removal *removals, **removals_tail = &removals;
static bool remover_running, remover_busy;
static pid_t remover_pid; /* the process the thread belongs to (not a fork of it) */
static char spares[SPARES_MAX][64];
static int nspares;

/* Under the lock: keeps path as a spare if there is room. */
static bool keep_spare(const char *path)
{
    if (nspares == SPARES_MAX)
        return false;
    snprintf(spares[nspares++], sizeof spares[0], "%s", path);
    return true;
}

/* The TMPDIRs of referees that died without removing them (killed with
 * SIGKILL: their spares, and their games' when their keepers died too):
 * /tmp/twixt-bot-PID-* of this user whose referee PID is gone and which
 * nothing has changed for an hour. One whose PID lives (that referee, or
 * another process now) is left alone; the hour is for a referee in
 * another PID namespace sharing this /tmp, whose PID looks gone from
 * here (no game is that long, and a spare is changed by each bot that
 * writes to it). */
void tx_bot_remove_stale_tmpdirs(void)
{
    DIR *d = opendir("/tmp");
    if (!d)
        return;
    time_t hour_ago = time(NULL) - 3600;
    for (struct dirent *e; (e = readdir(d));) {
        int pid;
        char rest, path[300];
        struct stat st;
        if (sscanf(e->d_name, "twixt-bot-%d-%c", &pid, &rest) != 2 || pid <= 1 || pid == getpid() ||
            kill(pid, 0) == 0 || errno != ESRCH ||
            (size_t)snprintf(path, sizeof path, "/tmp/%s", e->d_name) >= sizeof path ||
            lstat(path, &st) < 0 || !S_ISDIR(st.st_mode) || st.st_uid != geteuid() ||
            st.st_mtime > hour_ago)
            continue;
        tx_proc_remove_tree(path);
    }
    closedir(d);
}

static void *remover(void *unused)
{
    (void)unused;
    tx_bot_remove_stale_tmpdirs(); /* once a run, off the loop */
    pthread_mutex_lock(&removals_lock);
    for (;;) {
        while (!removals)
            pthread_cond_wait(&removals_cond, &removals_lock);
        struct removal *r = removals;
        removals = r->next;
        if (!removals)
            removals_tail = &removals;
        remover_busy = true;
        pthread_mutex_unlock(&removals_lock);
        bool spare = tx_proc_tmpdir_reusable(r->path);
        pthread_mutex_lock(&removals_lock);
        spare = spare && keep_spare(r->path);
        pthread_mutex_unlock(&removals_lock);
        if (!spare)
            tx_proc_remove_tree(r->path);
        free(r);
        pthread_mutex_lock(&removals_lock);
        remover_busy = false;
        pthread_cond_broadcast(&removals_cond);
    }
    return NULL;
}

/* A fork (Check's, say) must not find the lock held by the remover. */
static void lock_removals(void)
{
    pthread_mutex_lock(&removals_lock);
}

static void unlock_removals(void)
{
    pthread_mutex_unlock(&removals_lock);
}

/* Under the lock, in the remover's own process. */
static void wait_remover(void)
{
    while (removals || remover_busy)
        pthread_cond_wait(&removals_cond, &removals_lock);
}

void tx_bot_wait_remover(void)
{
    if (getpid() != remover_pid)
        return;
    pthread_mutex_lock(&removals_lock);
    wait_remover();
    pthread_mutex_unlock(&removals_lock);
}

void tx_bot_wait_tmpdirs(void)
{
    if (getpid() != remover_pid)
        return;
    pthread_mutex_lock(&removals_lock);
    wait_remover();
    while (nspares > 0)
        rmdir(spares[--nspares]);
    pthread_mutex_unlock(&removals_lock);
}

/* A spare TMPDIR for a bot about to start, into buf ("" if none): this
 * process's own, never its parent's when it is a fork. */
static void lend_spare(char *buf, size_t cap)
{
    buf[0] = '\0';
    pthread_mutex_lock(&removals_lock);
    if (remover_pid == getpid() && nspares > 0)
        snprintf(buf, cap, "%s", spares[--nspares]);
    pthread_mutex_unlock(&removals_lock);
}

/* path to the remover thread (or removed here, when it cannot be
 * started). */
static void hand_over(const char *path)
{
    struct removal *r = tx_xcalloc(1, sizeof *r);
    snprintf(r->path, sizeof r->path, "%s", path);
    pthread_mutex_lock(&removals_lock);
    if (!remover_running || remover_pid != getpid()) { /* the first, or in a fork */
        if (!remover_running)
            pthread_atfork(lock_removals, unlock_removals, unlock_removals);
        pthread_t t;
        pthread_attr_t attr;
        pthread_attr_init(&attr);
        pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
        remover_running = pthread_create(&t, &attr, remover, NULL) == 0;
        pthread_attr_destroy(&attr);
        if (remover_running && remover_pid == 0)
            atexit(tx_bot_wait_tmpdirs); /* every TMPDIR handed over is gone first */
        remover_pid = getpid();
        removals = NULL; /* a fork's copy of its parent's queue is not its own */
        removals_tail = &removals;
        remover_busy = false;
        nspares = 0; /* nor its spares */
    }
    if (remover_running) {
        *removals_tail = r;
        removals_tail = &r->next;
        pthread_cond_signal(&removals_cond);
        r = NULL;
    }
    pthread_mutex_unlock(&removals_lock);
    if (r) {
        tx_proc_remove_tree(r->path);
        free(r);
    }
}

/* Once the keeper is reaped: the TMPDIR it was lent or said it made, and
 * did not say it removed, goes to the remover. */
static void remove_left_tmpdir(struct tx_bot *bot)
{
    if (!bot->exited || !bot->tmpdir[0] || bot->tmpdir_work_queued)
        return;
    bot->tmpdir_work_queued = true;
    hand_over(bot->tmpdir);
    bot->tmpdir[0] = '\0';
}

static void close_handle(struct tx_bot *bot, uv_handle_t *handle, bool *open)
{
    if (!*open)
        return;
    *open = false;
    uv_close(handle, on_close);
    (void)bot;
}

static void close_outputs(struct tx_bot *bot)
{
    /* What the launcher said last (its TMPDIR removed or not) is known. */
    tx_bot_read_status(bot);
    remove_left_tmpdir(bot);
    /* schedstat_fd is only meaningful once started (a zeroed bot has 0). */
    if (bot->started && bot->schedstat_fd >= 0) {
        close(bot->schedstat_fd);
        bot->schedstat_fd = -1;
    }
    if (bot->started && bot->idle_fd >= 0) {
        close(bot->idle_fd);
        bot->idle_fd = -1;
    }
    close_handle(bot, (uv_handle_t *)&bot->out, &bot->out_open);
    close_handle(bot, (uv_handle_t *)&bot->err, &bot->err_open);
    close_handle(bot, (uv_handle_t *)&bot->status, &bot->status_open);
    close_handle(bot, (uv_handle_t *)&bot->timer, &bot->timer_open);
    /* Only ever after the exit was seen (the keeper is reaped). */
    if (bot->process_open) {
        bot->process_open = false;
        uv_close((uv_handle_t *)&bot->process, on_process_closed);
    }
}

/* Kills whatever is left of the bot's process group. pid > 1 always: kill(0)
 * would hit the referee's own group and kill(-1) every process we may signal. */
static void kill_group(struct tx_bot *bot, int sig)
{
    /* A keeper from the fork server makes its group itself: until it
     * has, the keeper alone (it has not started the bot yet). */
    if (bot->pid > 1 && uv_kill(-bot->pid, sig) == UV_ESRCH && !bot->exited && bot->pidfd >= 0)
        syscall(SYS_pidfd_send_signal, bot->pidfd, sig, NULL, 0);
}

static bool outputs_done(const struct tx_bot *bot)
{
    return bot->out_eof && bot->err_eof && bot->status_eof;
}

static void on_pipe_grace(uv_timer_t *timer)
{
    /* Someone (a grandchild that left the group) still holds the pipes:
     * they are ours to close, the game does not wait for it. */
    close_outputs(timer->data);
}

/* After the exit, during a stop: close now, or give the pipes a moment to
 * deliver what the bot wrote just before it died. */
static void finish_when_drained(struct tx_bot *bot)
{
    if (!bot->stopping || !bot->exited)
        return;
    if (outputs_done(bot)) {
        close_outputs(bot);
    } else if (bot->timer_open) {
        uv_timer_stop(&bot->timer);
        uv_timer_start(&bot->timer, on_pipe_grace, TX_BOT_PIPE_GRACE_MS, 0);
    }
}

/* The keeper has not finished its own sweep in all this time: it is stuck
 * (or stopped), and the group's SIGKILL is all that is left. */
static void on_keeper_grace(uv_timer_t *timer)
{
    kill_group(timer->data, SIGKILL);
}

static void on_process_exit(struct tx_bot *bot, int64_t exit_status, int term_signal)
{
    bot->exited = true;
    /* Dying of our own SIGTERM/SIGKILL is our doing; anything else (an exit
     * status, a segfault) is the bot's, even if it raced with our signal. */
    bot->exited_by_itself =
        bot->ended_alone || !bot->killed || (term_signal != SIGTERM && term_signal != SIGKILL);
    bot->exit_status = exit_status;
    bot->term_signal = term_signal;
    /* The leader is gone: whatever it left in its group goes too, now. */
    kill_group(bot, SIGKILL);
    if (bot->stopping)
        finish_when_drained(bot);
    else if (bot->event_cb)
        bot->event_cb(bot, TX_BOT_EXITED);
}

/* The keeper's pidfd is readable: it has exited; reaped here. */
static void on_pidfd(uv_poll_t *poll, int status, int events)
{
    struct tx_bot *bot = poll->data;
    int st;
    pid_t r;
    (void)status, (void)events;
    while ((r = waitpid(bot->pid, &st, WNOHANG)) < 0 && errno == EINTR)
        ;
    if (r == 0)
        return; /* not yet */
    uv_poll_stop(poll);
    if (r < 0)
        st = 0; /* reaped by someone else (SIGCHLD ignored): status unknown */
    on_process_exit(bot, WIFEXITED(st) ? WEXITSTATUS(st) : 0, WIFSIGNALED(st) ? WTERMSIG(st) : 0);
}

static void on_alloc(uv_handle_t *handle, size_t suggested, uv_buf_t *buf)
{
    (void)handle;
    (void)suggested;
    *buf = uv_buf_init(read_buffer, sizeof read_buffer);
}

static void push_line(struct tx_bot *bot, const char *text, size_t len, bool too_long, uint64_t at)
{
    bot->lines_received++;
    if (bot->queue_count == TX_BOT_LINES_QUEUED) {
        bot->lines_dropped++;
        return;
    }
    struct tx_bot_line *line =
        &bot->queue[(bot->queue_head + bot->queue_count) % TX_BOT_LINES_QUEUED];
    line->text = tx_xmalloc(len);
    memcpy(line->text, text, len);
    line->len = (uint32_t)len;
    line->too_long = too_long;
    line->at = at;
    bot->queue_count++;
}

/* Cuts stdout bytes into lines. Never holds more than TX_ANSWER_LINE_MAX
 * bytes of one line: the moment a line passes that, it is queued as too
 * long and the rest of it is skipped as it arrives. Returns lines queued. */
static int feed(struct tx_bot *bot, const char *p, size_t n, uint64_t now)
{
    int queued = 0;
    while (n > 0) {
        const char *nl = memchr(p, '\n', n);
        size_t chunk = nl ? (size_t)(nl - p) : n;
        size_t used = nl ? chunk + 1 : n;
        if (bot->discarding) {
            if (nl)
                bot->discarding = false;
        } else if (bot->partial_len + chunk > TX_ANSWER_LINE_MAX) {
            /* Keep its first bytes (the move token shown in the record). */
            size_t take = TX_ANSWER_LINE_MAX - bot->partial_len;
            memcpy(bot->partial + bot->partial_len, p, take);
            push_line(bot, bot->partial, TX_ANSWER_LINE_MAX, true, now);
            queued++;
            bot->partial_len = 0;
            bot->discarding = !nl;
        } else {
            memcpy(bot->partial + bot->partial_len, p, chunk);
            bot->partial_len += chunk;
            if (nl) {
                push_line(bot, bot->partial, bot->partial_len, false, now);
                queued++;
                bot->partial_len = 0;
            }
        }
        p += used;
        n -= used;
    }
    return queued;
}

static void on_out_read(uv_stream_t *stream, ssize_t nread, const uv_buf_t *buf)
{
    struct tx_bot *bot = stream->data;
    if (nread > 0) {
        /* Once stopping, stdout is only drained: the game is over. */
        if (!bot->stopping && feed(bot, buf->base, (size_t)nread, uv_hrtime()) > 0 && bot->event_cb)
            bot->event_cb(bot, TX_BOT_LINE);
        return;
    }
    if (nread == 0) /* EAGAIN */
        return;
    uv_read_stop(stream);
    bot->out_eof = true;
    if (bot->stopping)
        finish_when_drained(bot);
    else if (bot->event_cb)
        bot->event_cb(bot, TX_BOT_EOF);
}

static void keep_stderr(struct tx_bot *bot, const char *p, size_t n)
{
    bot->stderr_bytes += (int64_t)n;
    if (bot->stderr_len < TX_BOT_STDERR_KEPT) {
        if (!bot->stderr_kept)
            bot->stderr_kept = tx_xmalloc(TX_BOT_STDERR_KEPT);
        size_t room = TX_BOT_STDERR_KEPT - bot->stderr_len;
        size_t keep = n < room ? n : room;
        memcpy(bot->stderr_kept + bot->stderr_len, p, keep);
        bot->stderr_len += keep;
    }
}

static void on_err_read(uv_stream_t *stream, ssize_t nread, const uv_buf_t *buf)
{
    struct tx_bot *bot = stream->data;
    if (nread > 0) {
        keep_stderr(bot, buf->base, (size_t)nread);
        return;
    }
    if (nread == 0)
        return;
    uv_read_stop(stream);
    bot->err_eof = true;
    finish_when_drained(bot);
}

/* The TMPDIR a launcher names: its own kind of directory, nothing else. */
static bool launcher_tmpdir(const char *path)
{
    const char *prefix = "/tmp/twixt-bot-";
    return !strncmp(path, prefix, strlen(prefix)) && !strchr(path + strlen(prefix), '/');
}

/* "idle FILE ON OFF": the cgroup file of the bot's priority, opened once
 * and written by tx_bot_set_on_move; a bot not on move goes idle now. */
static void idle_line(struct tx_bot *bot, const char *args)
{
    char file[512], on[8], off[8];
    if (bot->idle_fd >= 0 || sscanf(args, "%511s %7s %7s", file, on, off) != 3)
        return;
    bot->idle_fd = open(file, O_WRONLY | O_CLOEXEC);
    snprintf(bot->idle_on, sizeof bot->idle_on, "%s", on);
    snprintf(bot->idle_off, sizeof bot->idle_off, "%s", off);
    if (!bot->on_move)
        tx_bot_set_on_move(bot, false);
}

/* One line of the launcher (see launcher.c): "tmp PATH", "tmp-removed",
 * "pid N", "error TEXT", "fault", "idle FILE ON OFF", "self", "oom",
 * "left PID COMM", "left-total N". */
static void status_line(struct tx_bot *bot, char *line)
{
    if (!strncmp(line, "tmp ", 4)) {
        if (launcher_tmpdir(line + 4) && strlen(line + 4) < sizeof bot->tmpdir) {
            if (bot->tmpdir[0] && strcmp(bot->tmpdir, line + 4))
                hand_over(bot->tmpdir); /* the spare it was lent, not taken */
            snprintf(bot->tmpdir, sizeof bot->tmpdir, "%s", line + 4);
        }
    } else if (!strcmp(line, "tmp-removed")) {
        bot->tmpdir[0] = '\0';
    } else if (!strncmp(line, "pid ", 4)) {
        int pid = atoi(line + 4);
        if (pid > 1 && !bot->bot_pid) {
            bot->bot_pid = pid;
            bot->schedstat_fd = tx_proc_sched_open(pid);
        }
    } else if (!strncmp(line, "error ", 6)) {
        if (!bot->start_error[0])
            snprintf(bot->start_error, sizeof bot->start_error, "%s", line + 6);
    } else if (!strcmp(line, "self")) {
        /* Its launcher knows: it ended before anyone stopped it, even if
         * the referee, seeing its stdout close, had already sent SIGTERM. */
        bot->ended_alone = true;
        bot->exited_by_itself |= bot->exited;
    } else if (!strcmp(line, "oom")) {
        bot->oom = true;
    } else if (!strcmp(line, "fault")) {
        bot->fault = true;
    } else if (!strncmp(line, "idle ", 5)) {
        idle_line(bot, line + 5);
    } else if (!strncmp(line, "left ", 5)) {
        int i = bot->left_total < TX_BOT_LEFT_MAX ? bot->left_total : -1;
        char *name = strchr(line + 5, ' ');
        if (i >= 0 && name) {
            bot->left_pids[i] = atoi(line + 5);
            snprintf(bot->left_names[i], sizeof bot->left_names[i], "%s", name + 1);
            bot->left_total++;
        }
    } else if (!strncmp(line, "left-total ", 11)) {
        bot->left_total = atoi(line + 11);
    }
}

static void feed_status(struct tx_bot *bot, const char *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (p[i] != '\n') {
            if (bot->status_len < sizeof bot->status_line - 1)
                bot->status_line[bot->status_len++] = p[i];
            continue;
        }
        bot->status_line[bot->status_len] = '\0';
        status_line(bot, bot->status_line);
        bot->status_len = 0;
    }
}

static void on_status_read(uv_stream_t *stream, ssize_t nread, const uv_buf_t *buf)
{
    struct tx_bot *bot = stream->data;
    if (nread > 0) {
        feed_status(bot, buf->base, (size_t)nread);
        return;
    }
    if (nread == 0)
        return;
    uv_read_stop(stream);
    bot->status_eof = true;
    finish_when_drained(bot);
}

void tx_bot_read_status(struct tx_bot *bot)
{
    uv_os_fd_t fd;
    if (!bot->started || bot->status_eof || !bot->status_open ||
        uv_fileno((uv_handle_t *)&bot->status, &fd) < 0)
        return;
    char buf[1024];
    ssize_t n;
    while ((n = read(fd, buf, sizeof buf)) > 0)
        feed_status(bot, buf, (size_t)n);
}

static int init_pipe(struct tx_bot *bot, uv_pipe_t *pipe, bool *open)
{
    int r = uv_pipe_init(bot->loop, pipe, 0);
    if (r < 0)
        return r;
    pipe->data = bot;
    *open = true;
    bot->open_handles++;
    return 0;
}

/* ---- the launcher's fork server ---- */

/* One launcher started with --server stays for the whole run and forks
 * every keeper (launcher.c): a bot's start then costs the referee one
 * message and no exec of the launcher. The keeper it forks is our child
 * all the same (CLONE_PARENT), so everything below (its pidfd, waitpid,
 * its group) is as with posix_spawn, which remains the way when the
 * server cannot be had. */
static struct {
    pthread_mutex_t lock;
    pid_t owner; /* the process it serves: a fork of ours starts its own */
    pid_t pid;
    pid_t idle[8]; /* the keepers it forked ahead of requests to come (proc.h) */
    int nidle;
    int fd;
    int failures; /* in a row: after three, no more servers */
    bool enabled; /* tx_bot_serve */
    char launcher[4096];
} server = {PTHREAD_MUTEX_INITIALIZER, 0, 0, {0}, 0, -1, 0, false, ""};

static void reap(pid_t pid)
{
    while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
        ;
}

/* Forgets pid as an idle keeper (a request took it, or it is reaped). */
static void forget_idle(pid_t pid)
{
    for (int i = 0; i < server.nidle; i++)
        if (server.idle[i] == pid)
            server.idle[i--] = server.idle[--server.nidle];
}

/* The server's next message (proc.h) into msg, news of idle keepers dealt
 * with; recv's result. */
static ssize_t server_message(int32_t msg[2], int flags)
{
    ssize_t n;
    while ((n = recv(server.fd, msg, 2 * sizeof *msg, flags)) < 0 && errno == EINTR)
        ;
    if (n != 2 * sizeof *msg || msg[1] <= 0)
        return n;
    if (msg[0] == TX_PROC_SERVER_IDLE && server.nidle < 8)
        server.idle[server.nidle++] = msg[1];
    else if (msg[0] == TX_PROC_SERVER_IDLE) /* cannot happen: it keeps two */
        kill(msg[1], SIGKILL);
    if (msg[0] == TX_PROC_SERVER_DROPPED) {
        forget_idle(msg[1]);
        reap(msg[1]);
    }
    return n;
}

/* Ends the server: told so (its socket shut), it answers what it had and
 * exits, within a second or it is killed; a failed one is killed at once.
 * The keeper it had forked ahead then leaves (its socket closes with the
 * server) and is reaped, as is the server. */
static void server_end(bool failed)
{
    if (server.fd >= 0 && server.pid > 0 && server.owner == getpid()) {
        int32_t msg[2];
        struct pollfd told = {.fd = server.fd, .events = POLLIN};
        if (failed || shutdown(server.fd, SHUT_WR) < 0)
            kill(server.pid, SIGKILL);
        while (poll(&told, 1, 1000) == 1 && server_message(msg, MSG_DONTWAIT) > 0)
            ;
        kill(server.pid, SIGKILL); /* gone by now, unless it hangs */
        reap(server.pid);
        while (server_message(msg, MSG_DONTWAIT) > 0) /* its last news */
            ;
        for (int i = 0; i < server.nidle; i++)
            reap(server.idle[i]);
    }
    if (server.fd >= 0)
        close(server.fd);
    server.fd = -1;
    server.pid = 0;
    server.nidle = 0;
    server.failures += failed;
}

void tx_bot_serve(bool on)
{
    pthread_mutex_lock(&server.lock);
    if (!on && server.fd >= 0 && server.owner == getpid())
        server_end(false);
    server.enabled = on;
    server.failures = 0;
    pthread_mutex_unlock(&server.lock);
}

int tx_bot_server_pid(void)
{
    pthread_mutex_lock(&server.lock);
    int pid = server.owner == getpid() ? server.pid : 0;
    pthread_mutex_unlock(&server.lock);
    return pid;
}

/* A launcher started with posix_spawn (the fork server, or a keeper
 * without it): in a session and process group of its own, every signal
 * unblocked and at its default, whatever the referee's are. */
static void session_attr(posix_spawnattr_t *attr)
{
    sigset_t none, all;
    sigemptyset(&none);
    sigfillset(&all);
    posix_spawnattr_init(attr);
    posix_spawnattr_setflags(attr,
                             POSIX_SPAWN_SETSID | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    posix_spawnattr_setsigmask(attr, &none);
    posix_spawnattr_setsigdefault(attr, &all);
}

static bool server_start(const char *launcher)
{
    char *env[] = {NULL}; /* each keeper gets its bot's from its request */
    int sv[2];
    if (strlen(launcher) >= sizeof server.launcher ||
        socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0)
        return false;
    char parent[16];
    snprintf(parent, sizeof parent, "%d", (int)getpid());
    char serve[] = "--server", parent_option[] = "--parent";
    char *args[] = {(char *)launcher, serve, parent_option, parent, NULL};
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attr;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDWR, 0);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_RDWR, 0);
    posix_spawn_file_actions_adddup2(&actions, sv[1], 3);
    session_attr(&attr); /* away from the terminal's ^C, like the keepers */
    pid_t pid;
    int r = posix_spawn(&pid, launcher, &actions, &attr, args, env);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
    close(sv[1]);
    if (r != 0) {
        close(sv[0]);
        return false;
    }
    server.pid = pid;
    server.fd = sv[0];
    server.owner = getpid();
    snprintf(server.launcher, sizeof server.launcher, "%s", launcher);
    return true;
}

/* How long the referee waits for the server's answer to a request. It
 * takes 0.03 ms (a keeper forked ahead) to a fork's few ms; a server that
 * has not answered in this long is stopped or lost (SIGSTOP, a machine
 * thrashing), and the referee's loop must not wait on it for ever. */
#define SERVER_ANSWER_MS 5000

/* The server's answer to the request just sent, news of idle keepers dealt
 * with on the way: recv's result (sizeof answer), or -ETIMEDOUT after
 * SERVER_ANSWER_MS. */
static ssize_t server_answer(int32_t answer[2])
{
    uint64_t deadline = uv_hrtime() + (uint64_t)SERVER_ANSWER_MS * 1000000;
    for (;;) {
        uint64_t now = uv_hrtime();
        struct pollfd p = {.fd = server.fd, .events = POLLIN};
        int r = now < deadline ? poll(&p, 1, (int)((deadline - now) / 1000000)) : 0;
        if (r == 0)
            return -ETIMEDOUT;
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return -1;
        ssize_t n = server_message(answer, MSG_DONTWAIT);
        if (n < 0 && errno == EAGAIN)
            continue;
        if (n != 2 * sizeof *answer || answer[0] == TX_PROC_SERVER_ANSWER)
            return n;
    }
}

/* Asks the server for a keeper running args with env, child[0..3] as its
 * 0 to 3, in dir (NULL: ours). Returns its pid, a negative errno (dir
 * cannot be entered), 0 when the server could not do it (posix_spawn
 * then), or -EPIPE when the server ended after it had the request, or
 * -ETIMEDOUT when it did not answer it (it is killed then): it may have
 * started the keeper, whose pid is lost with it, so starting another
 * would give the bot's pipes two bots (the machine's fault: the game is
 * played again). */
static pid_t server_spawn(const char *launcher, unsigned flags, char **args, char **env,
                          const int *child, const char *dir)
{
    static char buf[TX_PROC_LAUNCH_MAX];
    int fds[5] = {child[0], child[1], child[2], child[3], -1}, nfds = 4;
    if (dir) {
        fds[nfds] = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
        if (fds[nfds] < 0)
            return -errno;
        nfds++;
    }
    pid_t pid = 0;
    pthread_mutex_lock(&server.lock);
    if (!server.enabled) {
        pthread_mutex_unlock(&server.lock);
        if (nfds == 5)
            close(fds[4]);
        return 0;
    }
    if (server.owner != getpid() && server.fd >= 0) { /* a fork's copy of its parent's */
        close(server.fd);
        server.fd = -1;
        server.pid = 0;
        server.nidle = 0;
    }
    if (server.fd >= 0 && strcmp(server.launcher, launcher) != 0)
        server_end(false);
    int len = tx_proc_launch_pack(buf, sizeof buf, flags, args, env);
    if (len > 0 && server.fd < 0 && server.failures < 3 && !server_start(launcher))
        server.failures = 3; /* the launcher cannot even be spawned this way */
    if (len > 0 && server.fd >= 0) {
        int32_t answer[2] = {-1, 0};
        ssize_t n = tx_proc_send_fds(server.fd, buf, (size_t)len, fds, nfds);
        bool sent = n == len;
        if (sent)
            n = server_answer(answer);
        bool answered = n == sizeof answer && answer[0] == TX_PROC_SERVER_ANSWER;
        if (answered && answer[1] > 0)
            forget_idle(answer[1]); /* one of them is this bot's keeper now */
        if (answered && answer[1] > 0) {
            pid = answer[1];
            server.failures = 0;
        } else {
            if (sent && !answered)
                pid = n == -ETIMEDOUT ? -ETIMEDOUT : -EPIPE; /* it had the request */
            server_end(!answered); /* gone or refusing: a new one next time */
        }
    }
    pthread_mutex_unlock(&server.lock);
    if (nfds == 5)
        close(fds[4]);
    return pid;
}

/* The launcher, with the parent ends of four socketpairs as bot->in, out,
 * err and status (the child's as its 0 to 3), in its own session, every
 * signal at its default and none blocked, in options->dir; then its
 * pidfd watched on the loop. Returns 0 or a negative errno (nothing
 * started, the pipes' handles left to be closed). */
static int spawn(struct tx_bot *bot, const struct tx_bot_options *options, unsigned flags,
                 char **args, char **env)
{
    uv_pipe_t *ours[4] = {&bot->in, &bot->out, &bot->err, &bot->status};
    int child[4] = {-1, -1, -1, -1}, r = 0;
    for (int i = 0; i < 4 && r == 0; i++) {
        int sv[2];
        if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0) {
            r = -errno;
            break;
        }
        /* Above 3, so that no dup2 of the child's overwrites another. */
        child[i] = sv[1] > 3 ? sv[1] : fcntl(sv[1], F_DUPFD_CLOEXEC, 4);
        if (child[i] != sv[1])
            close(sv[1]);
        if (child[i] < 0 || (r = uv_pipe_open(ours[i], sv[0])) < 0) {
            r = r < 0 ? r : -errno;
            close(sv[0]);
        }
    }
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attr;
    posix_spawn_file_actions_init(&actions);
    for (int i = 0; i < 4; i++)
        posix_spawn_file_actions_adddup2(&actions, child[i], i);
    if (options->dir)
        posix_spawn_file_actions_addchdir_np(&actions, options->dir);
    session_attr(&attr); /* killable as a group */
    pid_t pid = 0;
    if (r == 0)
        pid = server_spawn(options->launcher, flags, args, env, child, options->dir);
    if (pid < 0)
        r = pid;
    else if (r == 0 && pid == 0)
        r = -posix_spawn(&pid, options->launcher, &actions, &attr, args, env);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
    for (int i = 0; i < 4; i++)
        if (child[i] >= 0)
            close(child[i]);
    if (r < 0)
        return r;
    bot->pid = pid;
    bot->pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
    if (bot->pidfd < 0 || uv_poll_init(bot->loop, &bot->process, bot->pidfd) < 0) {
        /* Cannot happen since Linux 5.3: the launcher needs pidfds too. */
        kill(-pid, SIGKILL);
        while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
            ;
        if (bot->pidfd >= 0)
            close(bot->pidfd);
        return -ENOSYS;
    }
    bot->process.data = bot;
    bot->process_open = true;
    bot->open_handles++;
    uv_poll_start(&bot->process, UV_READABLE, on_pidfd);
    return 0;
}

int tx_bot_start(struct tx_bot *bot, uv_loop_t *loop, const struct tx_bot_options *options)
{
    int r;
    bot->loop = loop;
    bot->start_error[0] = '\0';
    bot->schedstat_fd = -1;
    bot->idle_fd = -1;
    bot->pidfd = -1;
    /* Ignored, it would reap the keepers before we could read how they
     * ended (libuv's own spawn sets a handler). */
    struct sigaction chld;
    if (sigaction(SIGCHLD, NULL, &chld) == 0 && chld.sa_handler == SIG_IGN)
        signal(SIGCHLD, SIG_DFL);
    bot->on_move = true; /* at the normal priority until told otherwise */
    bot->tmpdir[0] = '\0';
    bot->tmpdir_work_queued = false;

    if ((r = init_pipe(bot, &bot->in, &bot->in_open)) < 0 ||
        (r = init_pipe(bot, &bot->out, &bot->out_open)) < 0 ||
        (r = init_pipe(bot, &bot->err, &bot->err_open)) < 0 ||
        (r = init_pipe(bot, &bot->status, &bot->status_open)) < 0)
        goto error;
    if ((r = uv_timer_init(loop, &bot->timer)) < 0)
        goto error;
    bot->timer.data = bot;
    bot->timer_open = true;
    bot->open_handles++;

    const struct tx_sandbox *sb = options->sandbox ? options->sandbox : tx_sandbox_current();
    char memory[16], cpu[16], nice[16], parent[16], grace[16];
    snprintf(memory, sizeof memory, "%d", options->memory_mb);
    snprintf(cpu, sizeof cpu, "%d", options->cpu_s);
    snprintf(nice, sizeof nice, "%d", options->nice);
    snprintf(parent, sizeof parent, "%d", (int)getpid());
    snprintf(grace, sizeof grace, "%d", TX_BOT_TERM_GRACE_MS);
    const char *head[] = {options->launcher,
                          "--memory-mb",
                          memory,
                          "--cpu-s",
                          cpu,
                          "--nice",
                          nice,
                          "--parent",
                          parent,
                          "--status-fd",
                          "3",
                          "--term-grace-ms",
                          grace};
    enum { NHEAD = sizeof head / sizeof head[0] };
    struct tx_sandbox_bot who = {
        .argv = options->argv,
        .dir = options->dir,
        .opponent_argv = options->opponent_argv,
        .opponent_dir = options->opponent_dir,
        .cpus = options->cpus,
        .writable = options->writable,
        .pinned = options->pinned,
        .cores = &options->cores,
    };
    char **isolation = tx_sandbox_launcher_args(sb, &who);
    int argc = 0, niso = 0, ncores = options->pinned ? CPU_COUNT(&options->cores) : 0;
    while (options->argv[argc])
        argc++;
    while (isolation[niso])
        niso++;
    char **args = tx_xmalloc(sizeof *args * (size_t)(NHEAD + 2 * ncores + niso + argc + 4));
    char(*cores)[16] = tx_xcalloc((size_t)ncores + 1, sizeof *cores);
    int n = 0;
    for (int i = 0; i < NHEAD; i++)
        args[n++] = (char *)head[i];
    for (int c = 0, k = 0; k < ncores && c < CPU_SETSIZE; c++)
        if (CPU_ISSET(c, &options->cores)) {
            snprintf(cores[k], sizeof cores[k], "%d", c);
            args[n++] = (char *)"--core";
            args[n++] = cores[k++];
        }
    for (int i = 0; i < niso; i++)
        args[n++] = isolation[i];
    if (!sb->active)
        lend_spare(bot->tmpdir, sizeof bot->tmpdir); /* its keeper says "tmp" of it */
    if (bot->tmpdir[0]) {
        args[n++] = (char *)"--tmpdir";
        args[n++] = bot->tmpdir;
    }
    args[n++] = (char *)"--";
    for (int i = 0; i <= argc; i++)
        args[n++] = options->argv[i];
    bot->sandboxed = sb->active;
    bot->memory_mb = options->memory_mb;

    char **env = tx_sandbox_bot_env(sb, options->env); /* none of the referee's */
    r = spawn(bot, options, sb->active && !sb->network ? TX_PROC_LAUNCH_NETNS : 0, args, env);
    free(args);
    free(cores);
    free(env);
    tx_command_free(isolation);
    if (r < 0) {
        bot->fault = r == -EPIPE || r == -ETIMEDOUT; /* see server_spawn */
        if (bot->tmpdir[0] && !bot->fault) /* no keeper took it (one may have, on a fault) */
            hand_over(bot->tmpdir);
        bot->tmpdir[0] = '\0';
        if (r == -ETIMEDOUT)
            snprintf(bot->start_error, sizeof bot->start_error,
                     "the launcher's fork server did not answer in %d s (killed)",
                     SERVER_ANSWER_MS / 1000);
        else if (bot->fault)
            snprintf(bot->start_error, sizeof bot->start_error,
                     "the launcher's fork server ended while it started the bot");
        else if (options->dir && r == UV_ENOENT)
            snprintf(bot->start_error, sizeof bot->start_error,
                     "cannot start in the directory '%s': %s", options->dir, uv_strerror(r));
        else
            snprintf(bot->start_error, sizeof bot->start_error,
                     "cannot start the launcher '%s': %s", options->launcher, uv_strerror(r));
        bot->status_eof = bot->out_eof = bot->err_eof = true;
        return r;
    }
    bot->started = true;
    /* /proc/BOT_PID/schedstat is opened once the launcher says BOT_PID, and
     * kept open: one pread per sample (tx_bot_sched). */

    if ((r = uv_read_start((uv_stream_t *)&bot->out, on_alloc, on_out_read)) < 0 ||
        (r = uv_read_start((uv_stream_t *)&bot->err, on_alloc, on_err_read)) < 0 ||
        (r = uv_read_start((uv_stream_t *)&bot->status, on_alloc, on_status_read)) < 0) {
        snprintf(bot->start_error, sizeof bot->start_error, "cannot read from the bot: %s",
                 uv_strerror(r));
        return r;
    }
    return 0;

error:
    snprintf(bot->start_error, sizeof bot->start_error, "cannot set up the bot's pipes: %s",
             uv_strerror(r));
    bot->status_eof = bot->out_eof = bot->err_eof = true;
    return r;
}

static void on_write(uv_write_t *req, int status)
{
    struct tx_bot *bot = req->data;
    bot->writing = false;
    if (bot->stopping || status == UV_ECANCELED)
        return;
    if (status < 0) {
        bot->write_error = status;
        if (bot->event_cb)
            bot->event_cb(bot, TX_BOT_WRITE_FAILED);
        return;
    }
    bot->written_at = uv_hrtime();
    if (bot->event_cb)
        bot->event_cb(bot, TX_BOT_WRITTEN);
}

int tx_bot_write(struct tx_bot *bot, const char *text, size_t len)
{
    if (!bot->started || bot->stopping || !bot->in_open)
        return bot->write_error = UV_EPIPE;
    if (bot->writing)
        return UV_EBUSY;
    /* A turn's input almost always fits the socket buffer: try first, so
     * the clock starts without a trip around the loop. */
    uv_buf_t b = uv_buf_init((char *)text, (unsigned)len);
    int n = uv_try_write((uv_stream_t *)&bot->in, &b, 1);
    if (n == (int)len) {
        bot->written_at = uv_hrtime();
        return 1;
    }
    if (n < 0 && n != UV_EAGAIN)
        return bot->write_error = n;
    if (n < 0)
        n = 0;
    b = uv_buf_init((char *)text + n, (unsigned)(len - (size_t)n));
    bot->write_req.data = bot;
    int r = uv_write(&bot->write_req, (uv_stream_t *)&bot->in, &b, 1, on_write);
    if (r < 0)
        return bot->write_error = r;
    bot->writing = true;
    return 0;
}

const struct tx_bot_line *tx_bot_peek_line(const struct tx_bot *bot)
{
    return bot->queue_count ? &bot->queue[bot->queue_head] : NULL;
}

void tx_bot_pop_line(struct tx_bot *bot)
{
    if (!bot->queue_count)
        return;
    free(bot->queue[bot->queue_head].text);
    bot->queue[bot->queue_head].text = NULL;
    bot->queue_head = (bot->queue_head + 1) % TX_BOT_LINES_QUEUED;
    bot->queue_count--;
}

void tx_bot_poll(struct tx_bot *bot)
{
    uv_os_fd_t fd;
    if (!bot->started || bot->out_eof || !bot->out_open ||
        uv_fileno((uv_handle_t *)&bot->out, &fd) < 0)
        return;
    /* The descriptor is non-blocking (libuv made it so); libuv's own read
     * later finds it empty, which it treats as EAGAIN. */
    for (int i = 0; i < 32; i++) {
        ssize_t n = read(fd, read_buffer, sizeof read_buffer);
        if (n <= 0)
            break; /* EAGAIN, or EOF/error that libuv reports itself */
        feed(bot, read_buffer, (size_t)n, uv_hrtime());
    }
}

void tx_bot_drain_stderr(struct tx_bot *bot)
{
    uv_os_fd_t fd;
    if (!bot->started || bot->err_eof || !bot->err_open ||
        uv_fileno((uv_handle_t *)&bot->err, &fd) < 0)
        return;
    for (int i = 0; i < 32; i++) {
        ssize_t n = read(fd, read_buffer, sizeof read_buffer);
        if (n <= 0)
            break;
        keep_stderr(bot, read_buffer, (size_t)n);
    }
}

bool tx_bot_sched(const struct tx_bot *bot, uint64_t *cpu_ns, uint64_t *wait_ns)
{
    if (!bot->started)
        return false;
    if (!bot->bot_pid && !bot->exited) {
        *cpu_ns = *wait_ns = 0; /* not forked yet: it has not run */
        return true;
    }
    return tx_proc_sched(bot->schedstat_fd, cpu_ns, wait_ns);
}

void tx_bot_set_on_move(struct tx_bot *bot, bool on_move)
{
    bot->on_move = on_move;
    if (bot->started && bot->idle_fd >= 0) {
        const char *v = on_move ? bot->idle_off : bot->idle_on;
        if (pwrite(bot->idle_fd, v, strlen(v), 0) < 0) {
            close(bot->idle_fd); /* its cgroup is gone: the bot is ending */
            bot->idle_fd = -1;
        }
    }
}

void tx_bot_close_input(struct tx_bot *bot)
{
    tx_bot_set_on_move(bot, true); /* it may have to exit: not at idle priority */
    close_handle(bot, (uv_handle_t *)&bot->in, &bot->in_open);
}

void tx_bot_stop(struct tx_bot *bot)
{
    if (bot->stopping)
        return;
    bot->stopping = true;
    /* Dying takes CPU too: at idle priority on a busy machine, the bot
     * (and the sandbox's init reaping it) could wait past every grace. */
    tx_bot_set_on_move(bot, true);
    /* EOF on stdin: a well-behaved bot exits by itself on it. */
    close_handle(bot, (uv_handle_t *)&bot->in, &bot->in_open);
    if (!bot->started) {
        close_outputs(bot);
        return;
    }
    if (!bot->exited) {
        /* The keeper gets it too, and kills what is left after its grace. */
        bot->killed = true;
        kill_group(bot, SIGTERM);
        uv_timer_stop(&bot->timer);
        uv_timer_start(&bot->timer, on_keeper_grace, TX_BOT_TERM_GRACE_MS + TX_BOT_KEEPER_GRACE_MS,
                       0);
        return;
    }
    finish_when_drained(bot);
}

void tx_bot_release(struct tx_bot *bot)
{
    while (bot->queue_count)
        tx_bot_pop_line(bot);
    free(bot->stderr_kept);
    bot->stderr_kept = NULL;
    bot->stderr_len = 0;
}

void tx_bot_describe_exit(const struct tx_bot *bot, char *buf, size_t cap)
{
    if (bot->term_signal) {
        const char *name = strsignal(bot->term_signal);
        char limit[64] = "";
        if (bot->oom)
            snprintf(limit, sizeof limit, " at its memory limit of %d MiB", bot->memory_mb);
        snprintf(buf, cap, "killed by signal %d (%s)%s", bot->term_signal, name ? name : "unknown",
                 limit);
    } else {
        snprintf(buf, cap, "exit status %lld", (long long)bot->exit_status);
    }
}

/* True when a line of what the bot kept of its stderr holds needle
 * (lower case) and, if also is not NULL, also. */
static bool stderr_says(const struct tx_bot *bot, const char *needle, const char *also)
{
    size_t n = strlen(needle);
    const char *p = bot->stderr_kept, *end = p ? p + bot->stderr_len : NULL;
    for (const char *line = p; line && line < end;) {
        const char *nl = memchr(line, '\n', (size_t)(end - line));
        const char *stop = nl ? nl : end;
        bool found = false;
        for (const char *q = line; !found && q + n <= stop; q++) {
            size_t i = 0;
            while (i < n && tolower((unsigned char)q[i]) == needle[i])
                i++;
            found = i == n;
        }
        if (found && also) {
            size_t m = strlen(also);
            found = false;
            for (const char *q = line; !found && q + m <= stop; q++)
                found = !memcmp(q, also, m);
        }
        if (found)
            return true;
        line = nl ? nl + 1 : end;
    }
    return false;
}

/* A sandboxed bot that died of its file system: what every language says
 * of EROFS, or of ENOENT for a path under the sandbox's private /tmp. */
static bool failed_on_files(const struct tx_bot *bot)
{
    return bot->sandboxed &&
           (stderr_says(bot, "read-only file system", NULL) || stderr_says(bot, "erofs", NULL) ||
            stderr_says(bot, "no such file or directory", "/tmp/") ||
            stderr_says(bot, "enoent", "/tmp/"));
}

void tx_bot_describe_crash(const struct tx_bot *bot, char *buf, size_t cap)
{
    char how[128];
    if (bot->start_error[0]) {
        snprintf(buf, cap, "%s", bot->start_error);
    } else if (bot->exited && bot->exited_by_itself) {
        tx_bot_describe_exit(bot, how, sizeof how);
        snprintf(buf, cap, "%s%s%s", how, bot->term_signal ? "" : " before answering",
                 failed_on_files(bot) ? "; in the sandbox files are read-only and /tmp is "
                                        "private: log to stderr, or give the bot a directory "
                                        "with --bot-writable DIR"
                                      : "");
    } else if (bot->write_error) {
        snprintf(buf, cap, "stopped reading its input (%s)", uv_strerror(bot->write_error));
    } else {
        snprintf(buf, cap, "closed its output");
    }
}
