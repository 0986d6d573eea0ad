/* bot.h - one bot process on a libuv loop: spawn, pipes, lines, stop.
 *
 * A tx_bot is started through the launcher (twixt-launch: see launcher.c)
 * with posix_spawn (a vfork, not libuv's fork: the referee's memory is
 * neither copied nor left copy-on-write for every start), its end watched
 * through a pidfd on the loop,
 * in its own session and process group and its working directory, with
 * stdin, stdout and stderr piped, the environment of its sandbox settings
 * and its own variables (tx_sandbox_bot_env in sandbox.h) and nothing else
 * inherited. The launcher stays as the bot's keeper: `pid` is the
 * keeper's (the referee's child, the group leader), `bot_pid` the bot's own once
 * the launcher has said it; the keeper kills everything the bot started
 * when the bot ends, and exits the way the bot did. From then on its stdout
 * and stderr are read all the time: stdout is cut into lines
 * (each held to TX_ANSWER_LINE_MAX bytes; a longer one is reported as too
 * long as soon as it passes the bound, and the rest of it is dropped
 * unread), queued in order with the time each completed; stderr is kept up
 * to TX_BOT_STDERR_KEPT bytes and counted beyond. The owner (the match)
 * writes turn inputs, takes lines off the queue, and is told through
 * event_cb when something happens. It knows nothing of Twixt.
 *
 * Stopping (tx_bot_stop) closes stdin and sends SIGTERM to the group: the
 * keeper gives the bot TX_BOT_TERM_GRACE_MS, then kills it and every
 * process it started, wherever they hid. Only if the keeper itself is
 * still there TX_BOT_KEEPER_GRACE_MS later does the group get SIGKILL.
 * The process is reaped, and the pipes are closed once they reach EOF or
 * TX_BOT_PIPE_GRACE_MS after the exit (a process that keeps them open
 * never holds up the end of a game). Without the sandbox, a keeper killed
 * with SIGKILL (by its bot, or by the opponent) cannot remove the bot's
 * private TMPDIR: it told its path, and it is removed here, in libuv's
 * thread pool (it may hold whatever the bot wrote). closed_cb runs once
 * every handle is closed and that is done; only then may the struct be
 * freed. Handles live inside the
 * struct, so it must not move after tx_bot_start.
 *
 * Off move: with a cgroup cpu controller the launcher names the bot's
 * cgroup file that sets its priority ("idle" status line), and
 * tx_bot_set_on_move writes it: a bot not on move runs at idle priority
 * (it gets only CPU that nothing else wants), one on move at the normal
 * one. One pwrite of a byte, about 2 us, twice a turn. A bot being
 * stopped, or whose input is closed, is back at the normal priority:
 * dying takes CPU too.
 */
#ifndef TX_BOT_H
#define TX_BOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <uv.h>

#include "answer.h"
#include "sandbox.h"

/* Lines held ahead of the turns that read them; more are dropped. */
#define TX_BOT_LINES_QUEUED 16
/* Stderr bytes kept per bot per game; the rest is only counted. */
#define TX_BOT_STDERR_KEPT 65536
#define TX_BOT_TERM_GRACE_MS 100    /* SIGTERM to SIGKILL (by the keeper) */
#define TX_BOT_KEEPER_GRACE_MS 1000 /* then, if the keeper itself is still there */
#define TX_BOT_LEFT_MAX 16          /* processes left behind that are named (all are counted) */
#define TX_BOT_PIPE_GRACE_MS 50     /* after the exit, before pipes still open are closed */
#define TX_BOT_ERROR_MAX 256        /* bytes of a start error, NUL included */

/* Bots run this much below the referee (the seat starts them so), so that
 * the referee reads the clock on time when a bot is busy. */
#define TX_BOT_NICE 5

enum tx_bot_event {
    TX_BOT_LINE,         /* a line (or a too-long line) was queued */
    TX_BOT_WRITTEN,      /* the input given to tx_bot_write is fully written (written_at set) */
    TX_BOT_EOF,          /* stdout ended (or failed): no more lines will come */
    TX_BOT_EXITED,       /* the process exited (exit_status, term_signal set) */
    TX_BOT_WRITE_FAILED, /* the input could not be written (write_error set), e.g. UV_EPIPE */
};

struct tx_bot;
typedef void (*tx_bot_event_cb)(struct tx_bot *bot, enum tx_bot_event event);
typedef void (*tx_bot_closed_cb)(struct tx_bot *bot);

/* How to start a bot. */
struct tx_bot_options {
    char *const *argv;                /* the bot's program and arguments, NULL-terminated */
    const char *launcher;             /* path of twixt-launch (tx_bot_find_launcher) */
    int memory_mb;                    /* memory limit (cgroup, or RLIMIT_DATA), 0 for none */
    int cpu_s;                        /* RLIMIT_CPU for the whole game, 0 for none */
    int nice;                         /* priority below the referee, 0..19 */
    const char *dir;                  /* working directory (a bots file's), NULL: the referee's */
    char *const *env;                 /* "NAME=VALUE" added to (or replacing in) the sandbox's
                                         environment (a bots file's), or NULL */
    const struct tx_sandbox *sandbox; /* isolation and environment; NULL: tx_sandbox_current() */
    char *const *opponent_argv;       /* the other bot's words: its files are hidden; may be NULL */
    const char *opponent_dir;         /* its working directory (its words are found there), or
                                         NULL: the referee's */
    double cpus;                      /* its own CPU quota (a bots file's): 0 the run's,
                                         TX_SANDBOX_CPUS_NONE none */
    char *const *writable;            /* its own writable directories (a bots file's), or NULL */
    bool pinned;                      /* run on `cores` only (--pin-cores) */
    cpu_set_t cores;
};

struct tx_bot_line {
    char *text;    /* malloc'ed, len bytes, not NUL-terminated */
    uint32_t len;  /* bytes, "\n" excluded; when too_long, its first TX_ANSWER_LINE_MAX */
    bool too_long; /* longer than TX_ANSWER_LINE_MAX: not a move */
    uint64_t at;   /* uv_hrtime() when its "\n" (or its byte over the bound) was read */
};

struct tx_bot {
    /* Set by the owner before tx_bot_start. */
    void *data;
    tx_bot_event_cb event_cb;
    tx_bot_closed_cb closed_cb;

    /* Read by the owner. */
    int pid;               /* > 0 once spawned */
    bool started;          /* the launcher was spawned */
    bool exited;           /* exit_cb has run */
    bool exited_by_itself; /* it ended on its own, not by the signals of tx_bot_stop */
    int64_t exit_status;
    int term_signal;
    bool out_eof;                       /* stdout ended */
    bool stopping;                      /* tx_bot_stop was called */
    char start_error[TX_BOT_ERROR_MAX]; /* why it did not start (spawn or exec failure), "" if none
                                         */
    int bot_pid;    /* the bot's own process (for /proc), 0 until the launcher says it */
    bool sandboxed; /* started in the sandbox */
    int memory_mb;  /* its memory limit */
    bool oom;       /* the kernel killed it (or a child) at its cgroup's memory limit */
    bool fault;     /* start_error is the machine's (its sandbox could not be set up), not
                       the bot's: the game is interrupted, not lost */
    int left_total; /* processes it left running when it exited by itself (then killed) */
    int left_pids[TX_BOT_LEFT_MAX];       /* the first of them */
    char left_names[TX_BOT_LEFT_MAX][16]; /* and their command names */
    int write_error;                      /* the libuv error of a failed write, 0 if none */
    uint64_t written_at;                  /* uv_hrtime() when the last input was fully written */
    int64_t lines_received; /* complete or too-long lines read from stdout, dropped ones included */
    int64_t lines_dropped;  /* lines lost because the queue was full */
    char *stderr_kept;      /* the first TX_BOT_STDERR_KEPT stderr bytes (malloc'ed lazily,
                               tx_bot_release) */
    size_t stderr_len;      /* bytes in stderr_kept */
    int64_t stderr_bytes;   /* every stderr byte read, kept or not */

    /* Private. */
    uv_loop_t *loop;
    uv_poll_t process; /* the keeper's pidfd, readable once it has exited (process_open) */
    int pidfd;
    uv_pipe_t in, out, err, status;
    uv_timer_t timer;
    uv_write_t write_req;
    int open_handles; /* closed_cb runs when it reaches 0 */
    bool in_open, out_open, err_open, status_open, timer_open, process_open;
    bool err_eof, status_eof, writing, killed;
    bool ended_alone;                        /* the launcher said the bot ended by itself */
    char status_line[TX_BOT_ERROR_MAX + 16]; /* the launcher's line being read */
    size_t status_len;
    struct tx_bot_line queue[TX_BOT_LINES_QUEUED];
    int queue_head, queue_count;
    char partial[TX_ANSWER_LINE_MAX]; /* the line being read */
    size_t partial_len;
    bool discarding;  /* inside a too-long line: drop bytes up to the next "\n" */
    int schedstat_fd; /* /proc/PID/schedstat once started, -1 when not open */
    int idle_fd;      /* its cgroup's priority file once the launcher named it, -1 if none */
    char idle_on[8], idle_off[8]; /* what to write there: idle priority, normal priority */
    bool on_move;                 /* tx_bot_set_on_move's last word */
    char tmpdir[64];         /* the bot's TMPDIR until it is removed or handed to the remover, "" */
    bool tmpdir_work_queued; /* handed to the remover (bot.c) */
};

/* The launcher's path (tx_paths_find in paths.h: installed, build tree or
 * $TX_LAUNCHER). Writes it into buf and returns 0, or -ENOENT with buf
 * naming where it looked. */
int tx_bot_find_launcher(char *buf, size_t cap);

/* Spawns the bot. Returns 0 when it runs (even if the exec of the bot itself
 * fails later: the launcher reports that through start_error and exits 127).
 * When the spawn fails, start_error says why and the negative libuv error is
 * returned. Either way the bot must be stopped with tx_bot_stop, and freed
 * only after closed_cb. */
int tx_bot_start(struct tx_bot *bot, uv_loop_t *loop, const struct tx_bot_options *options);

/* With on, the bots this process starts from now on get their keepers
 * from one launcher that stays (its fork server: no exec of the launcher
 * per bot), started at the first bot; off ends it (its process is
 * reaped) and starts each keeper as its own launcher again. For runs of
 * many games (the runner); a keeper is the referee's child either way. */
void tx_bot_serve(bool on);

/* The fork server's pid, 0 when there is none (for tests). */
int tx_bot_server_pid(void);

/* Writes len bytes of text (which must stay valid until TX_BOT_WRITTEN or
 * TX_BOT_WRITE_FAILED). Returns 1 when everything was written at once
 * (written_at is set, no event follows), 0 when the rest is queued
 * (TX_BOT_WRITTEN follows), or a negative libuv error (no event follows).
 * One write at a time. */
int tx_bot_write(struct tx_bot *bot, const char *text, size_t len);

/* The oldest queued line, or NULL. Stays owned by the bot. */
const struct tx_bot_line *tx_bot_peek_line(const struct tx_bot *bot);
/* Drops the oldest queued line. */
void tx_bot_pop_line(struct tx_bot *bot);

/* Reads whatever stdout holds right now, without waiting (a timer that is
 * due and an answer that arrived are seen in the same loop iteration, and
 * libuv runs timers first). Lines it queues raise no event: look at the
 * queue afterwards. */
void tx_bot_poll(struct tx_bot *bot);

/* Reads whatever stderr holds right now, without waiting, into stderr_kept:
 * before a turn's stderr is closed, so bytes written before the answer but
 * not yet seen by the loop are not counted in the next turn. */
void tx_bot_drain_stderr(struct tx_bot *bot);

/* The bot's main thread so far, from /proc/BOT_PID/schedstat (the bot's
 * own process, not its launcher's): nanoseconds on a CPU and nanoseconds
 * runnable but waiting for one. Two samples tell a slow bot (CPU) from a
 * busy machine (waiting). Until the loop has read the bot's pid from the
 * launcher, the bot has hardly run: 0 and 0 (so a first turn counts from
 * the bot's birth). Returns false when unknown (not started, gone, or
 * already being closed). One pread, about 2 us. */
bool tx_bot_sched(const struct tx_bot *bot, uint64_t *cpu_ns, uint64_t *wait_ns);

/* Whether the bot is on move: when it is not, it runs at idle priority
 * (see the top of this file; nothing without a cgroup cpu controller). A
 * started bot is on move (at the normal priority) until it is told
 * otherwise. */
void tx_bot_set_on_move(struct tx_bot *bot, bool on_move);

/* Closes the bot's stdin (it reads EOF) and leaves it running: `validate`
 * uses it to see whether a bot exits by itself when its input ends. Later
 * writes fail with UV_EPIPE; tx_bot_stop is still needed. When the bot
 * exits, its keeper names what it left running (left_*), kills it, and
 * exits too. */
void tx_bot_close_input(struct tx_bot *bot);

/* Reads what the launcher has said so far (bot_pid, start_error, oom,
 * left_*), without waiting: for a caller that does not run the loop. */
void tx_bot_read_status(struct tx_bot *bot);

/* Ends the bot: see the top of this file. Safe to call more than once and
 * on a bot whose start failed. */
void tx_bot_stop(struct tx_bot *bot);

/* Waits until every TMPDIR a bot left (without the sandbox) is removed:
 * a thread of ours removes what is in them after their keepers have
 * exited, off the games' ends, while a directory of theirs is open, and
 * keeps those left empty as spares for the next bots (bot.c); this
 * removes the spares too. The program's exit waits for it (atexit); so do
 * tests that count descriptors. */
void tx_bot_wait_tmpdirs(void);

/* Removes the TMPDIRs that referees killed with SIGKILL left in /tmp (their
 * PID gone, an hour unchanged): the thread does it when it starts, once a
 * run; tests call it. */
void tx_bot_remove_stale_tmpdirs(void);

/* Waits until the thread has dealt with every TMPDIR handed to it so far,
 * keeping the spares (for tests of them). */
void tx_bot_wait_remover(void);

/* Frees the lines still queued and stderr_kept. Call after closed_cb, once
 * the owner has taken what it needs from stderr_kept. */
void tx_bot_release(struct tx_bot *bot);

/* Human words for how it ended, for crash details: "exit status 1",
 * "killed by signal 11 (Segmentation fault)", "killed by signal 9 (Killed)
 * at its memory limit of 768 MiB". */
void tx_bot_describe_exit(const struct tx_bot *bot, char *buf, size_t cap);

/* Why a bot on move gave no answer, in the words of a crash verdict: it
 * could not be started, exited ("exit status 1 before answering", "killed
 * by signal 11 (Segmentation fault)"), stopped reading its input, or closed
 * its output. A sandboxed bot that exited after its stderr said a file
 * system was read-only (EROFS), or that a path under /tmp does not exist,
 * gets one more clause: the sandbox's files are read-only and its /tmp
 * private, and --bot-writable and stderr are the places to log to. The
 * match and re-feeding both use it, so a re-fed crash reads like the
 * recorded one. */
void tx_bot_describe_crash(const struct tx_bot *bot, char *buf, size_t cap);

#endif
