/* test-bot.c - the process layer (referee/bot.h) with /bin/sh one-liners,
 * and the match mechanics the fault matrix (test-match.c) does not reach:
 * forced openings, bad command lines, interrupts, games side by side.
 *
 * Each case starts one "bot" through the real launcher, drives the loop
 * until what it waits for has happened, stops the bot and checks the
 * aftermath the way libuv's own tests do: the loop closes with no handle
 * left, no descriptor leaked, no process of the bot left. Verdicts, not
 * timings: the only time assertions are lower bounds that a loaded machine
 * cannot break, or generous upper bounds on "did not hang".
 */
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>

#include "bot.h"
#include "match.h"
#include "proc.h"

struct harness {
    uv_loop_t loop;
    uv_timer_t tick; /* keeps uv_run(ONCE) from blocking forever */
    struct tx_bot bot;
    char launcher[PATH_MAX];
    int events[5];
    bool closed;
    int fds_before;
};

/* Descriptors open now, once the remover thread has dealt with the bots'
 * TMPDIRs (it holds one of theirs open meanwhile). */
static int count_fds(void)
{
    tx_bot_wait_remover();
    int n = 0;
    char path[64];
    for (int fd = 0; fd < 1024; fd++) {
        snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
        if (access(path, F_OK) == 0)
            n++;
    }
    return n;
}

static void on_event(struct tx_bot *bot, enum tx_bot_event event)
{
    struct harness *h = bot->data;
    h->events[event]++;
}

static void on_closed(struct tx_bot *bot)
{
    struct harness *h = bot->data;
    h->closed = true;
}

static void on_tick(uv_timer_t *t)
{
    (void)t;
}

/* Starts /bin/sh -c script through the launcher, in sandbox (NULL: the
 * process's current one, no isolation in this suite). */
static void start_in(struct harness *h, const char *script, int memory_mb,
                     const struct tx_sandbox *sandbox)
{
    /* The first loop of a process opens libuv's signal descriptors: warm up
     * before counting. */
    uv_loop_t warm;
    ck_assert_int_eq(uv_loop_init(&warm), 0);
    ck_assert_int_eq(uv_loop_close(&warm), 0);
    memset(h, 0, sizeof *h);
    h->fds_before = count_fds();
    ck_assert_int_eq(uv_loop_init(&h->loop), 0);
    ck_assert_int_eq(uv_timer_init(&h->loop, &h->tick), 0);
    ck_assert_int_eq(uv_timer_start(&h->tick, on_tick, 10, 10), 0);
    ck_assert_int_eq(tx_bot_find_launcher(h->launcher, sizeof h->launcher), 0);
    h->bot.data = h;
    h->bot.event_cb = on_event;
    h->bot.closed_cb = on_closed;
    char *argv[] = {(char *)"/bin/sh", (char *)"-c", (char *)script, NULL};
    struct tx_bot_options o = {
        .argv = argv,
        .launcher = h->launcher,
        .memory_mb = memory_mb,
        .cpu_s = 30,
        .nice = 5,
        .sandbox = sandbox,
    };
    ck_assert_int_eq(tx_bot_start(&h->bot, &h->loop, &o), 0);
    ck_assert_int_gt(h->bot.pid, 1);
    ck_assert(h->bot.sandboxed == (sandbox && sandbox->active));
}

static void start(struct harness *h, const char *script, int memory_mb)
{
    start_in(h, script, memory_mb, NULL);
}

/* The cases about the bot's own stdin and stdout run twice: _i 0 without
 * the sandbox (keeper -> bot), 1 in it (keeper -> init -> bot), where two
 * processes fork the bot while holding its pipes. */
static struct tx_sandbox isolated;

static void isolated_setup(void)
{
    struct tx_sandbox_request req = {.mode = TX_SANDBOX_ON};
    char err[512];
    ck_assert_msg(tx_sandbox_init(&isolated, &req, err, sizeof err) == 0, "%s", err);
}

static void isolated_teardown(void)
{
    tx_sandbox_free(&isolated);
}

static const struct tx_sandbox *sandbox_of(int i)
{
    return i ? &isolated : NULL;
}

/* Runs the loop until *flag becomes true or seconds pass; returns *flag. */
static bool run_until(struct harness *h, const bool *flag, double seconds)
{
    uint64_t end = uv_hrtime() + (uint64_t)(seconds * 1e9);
    while (!*flag && uv_hrtime() < end)
        uv_run(&h->loop, UV_RUN_ONCE);
    return *flag;
}

static bool run_until_count(struct harness *h, const int *count, int want, double seconds)
{
    uint64_t end = uv_hrtime() + (uint64_t)(seconds * 1e9);
    while (*count < want && uv_hrtime() < end)
        uv_run(&h->loop, UV_RUN_ONCE);
    return *count >= want;
}

static bool run_until_lines(struct harness *h, int64_t want, double seconds)
{
    uint64_t end = uv_hrtime() + (uint64_t)(seconds * 1e9);
    while (h->bot.lines_received < want && uv_hrtime() < end)
        uv_run(&h->loop, UV_RUN_ONCE);
    return h->bot.lines_received >= want;
}

static bool gone(int pid)
{
    if (kill(pid, 0) < 0 && errno == ESRCH)
        return true;
    char path[64], buf[512];
    snprintf(path, sizeof path, "/proc/%d/stat", pid);
    FILE *f = fopen(path, "re");
    if (!f)
        return true;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    char *paren = strrchr(buf, ')');
    return paren && (paren[2] == 'Z' || paren[2] == 'X'); /* a zombie its new parent will reap */
}

static bool eventually_gone(int pid)
{
    for (int i = 0; i < 200 && !gone(pid); i++)
        usleep(10000);
    return gone(pid);
}

/* The "served" cases run with the launcher's fork server (tx_bot_serve):
 * every keeper comes from it, and it is ended (and reaped) before the
 * descriptors are counted. */
static bool served;
static bool skip_fd_count; /* a case that leaves a descriptor open on purpose */

static void served_setup(void)
{
    served = true;
    tx_bot_serve(true);
}

static void served_teardown(void)
{
    tx_bot_serve(false);
    served = false;
}

/* Ends the fork server of a served case (it must have been the one that
 * started the bot: no fallback to posix_spawn) and checks it is reaped. */
static void end_server(void)
{
    pid_t server = tx_bot_server_pid();
    ck_assert_int_gt(server, 1);
    tx_bot_serve(false);
    ck_assert_int_eq(kill(server, 0), -1);
    tx_bot_serve(true);
}

/* Stops the bot and checks that nothing is left behind. */
static void stop_and_check(struct harness *h)
{
    int pid = h->bot.pid;
    tx_bot_stop(&h->bot);
    tx_bot_stop(&h->bot); /* safe twice */
    ck_assert_msg(run_until(h, &h->closed, 5.0), "bot handles not closed 5 s after stop");
    ck_assert(h->bot.exited);
    tx_bot_release(&h->bot);
    uv_close((uv_handle_t *)&h->tick, NULL);
    uv_run(&h->loop, UV_RUN_DEFAULT);
    ck_assert_int_eq(uv_loop_close(&h->loop), 0);
    ck_assert_int_eq(kill(pid, 0), -1); /* reaped: no zombie of ours */
    if (served)
        end_server();
    if (!skip_fd_count)
        ck_assert_int_eq(count_fds(), h->fds_before);
}

static const char *line_text(const struct tx_bot_line *line, char *buf, size_t cap)
{
    size_t n = line->len < cap - 1 ? line->len : cap - 1;
    memcpy(buf, line->text, n);
    buf[n] = '\0';
    return buf;
}

/* The next line the bot printed (its TMPDIR, in the case below). */
static void next_line(struct harness *h, char *buf, size_t cap)
{
    uint64_t end = uv_hrtime() + 5000000000u;
    while (!tx_bot_peek_line(&h->bot) && uv_hrtime() < end)
        uv_run(&h->loop, UV_RUN_ONCE);
    ck_assert_msg(tx_bot_peek_line(&h->bot), "no line 5 s after the start");
    line_text(tx_bot_peek_line(&h->bot), buf, cap);
    tx_bot_pop_line(&h->bot);
}

static bool exists(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0;
}

/* Without the sandbox a bot's TMPDIR is a directory of its own: what the
 * bot leaves there is removed after it, and a directory left empty and as
 * it was made is the next bot's (a mkdir and an rmdir fewer a bot), never
 * one with anything in it or one whose mode the bot changed. */
START_TEST(bot_tmpdir_left_empty_is_the_next_bots)
{
    tx_bot_wait_tmpdirs(); /* no spare of an earlier case */
    struct harness h;
    char first[256], second[256], third[256], buf[64];
    start(&h, "echo \"$TMPDIR\"; : > \"$TMPDIR/left\"; echo done; read x", 0);
    next_line(&h, first, sizeof first);
    next_line(&h, buf, sizeof buf);
    ck_assert_str_eq(buf, "done"); /* the file is there */
    stop_and_check(&h);
    tx_bot_wait_remover();
    ck_assert_msg(!exists(first), "%s was not removed", first);

    start(&h, "echo \"$TMPDIR\"; read x", 0);
    next_line(&h, second, sizeof second);
    ck_assert_str_ne(second, first);
    stop_and_check(&h);
    tx_bot_wait_remover();
    ck_assert_msg(exists(second), "%s, left empty, is not kept", second);

    start(&h,
          "echo \"$TMPDIR\"; ls -A \"$TMPDIR\" | wc -l; chmod 755 \"$TMPDIR\" && echo done; read x",
          0);
    next_line(&h, third, sizeof third);
    ck_assert_str_eq(third, second);
    next_line(&h, buf, sizeof buf);
    ck_assert_str_eq(buf, "0");
    next_line(&h, buf, sizeof buf);
    ck_assert_str_eq(buf, "done");
    stop_and_check(&h);
    tx_bot_wait_remover();
    ck_assert_msg(!exists(third), "%s, its mode changed, was kept", third);

    start(&h, "echo \"$TMPDIR\"; read x", 0);
    next_line(&h, third, sizeof third);
    ck_assert_str_ne(third, second);
    stop_and_check(&h);
    tx_bot_wait_tmpdirs();
    ck_assert_msg(!exists(third), "%s is left at the end", third);
}
END_TEST

/* A referee killed with SIGKILL leaves its TMPDIRs: the next run removes
 * those of referees that are gone and left unchanged for an hour, and
 * only those. */
START_TEST(bot_tmpdirs_of_dead_referees_are_removed)
{
    pid_t dead = fork();
    if (dead == 0)
        _exit(0);
    ck_assert_int_eq(waitpid(dead, NULL, 0), dead);
    struct {
        pid_t pid;
        bool old, removed;
        char path[64];
    } dirs[] = {
        {dead, true, true, ""},       /* a dead referee's, an hour old */
        {dead, false, false, ""},     /* a dead referee's, changed a minute ago */
        {getppid(), true, false, ""}, /* a live one's, however old */
    };
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
        snprintf(dirs[i].path, sizeof dirs[i].path, "/tmp/twixt-bot-%d-7e57%zu", (int)dirs[i].pid,
                 i);
        ck_assert_int_eq(mkdir(dirs[i].path, 0700), 0);
        char file[96];
        snprintf(file, sizeof file, "%s/left", dirs[i].path);
        FILE *f = fopen(file, "w");
        ck_assert_ptr_nonnull(f);
        fclose(f);
        time_t then = time(NULL) - (dirs[i].old ? 3700 : 60);
        struct timeval times[2] = {{then, 0}, {then, 0}};
        ck_assert_int_eq(utimes(dirs[i].path, times), 0);
    }
    tx_bot_remove_stale_tmpdirs();
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
        ck_assert_msg(exists(dirs[i].path) != dirs[i].removed, "%s: %s", dirs[i].path,
                      dirs[i].removed ? "left" : "removed");
        if (!dirs[i].removed)
            tx_proc_remove_tree(dirs[i].path);
    }
}
END_TEST

START_TEST(bot_echoes_a_line_after_its_input)
{
    struct harness h;
    start(&h, "read x; echo \"got $x\"; read y", 0);
    const char *input = "hello\n";
    int r = tx_bot_write(&h.bot, input, strlen(input));
    ck_assert_int_ge(r, 0);
    if (r == 0)
        ck_assert(run_until_count(&h, &h.events[TX_BOT_WRITTEN], 1, 5.0));
    ck_assert(run_until_lines(&h, 1, 5.0));
    const struct tx_bot_line *line = tx_bot_peek_line(&h.bot);
    ck_assert_ptr_nonnull(line);
    char buf[64];
    ck_assert_str_eq(line_text(line, buf, sizeof buf), "got hello");
    ck_assert(!line->too_long);
    ck_assert_uint_ge(line->at, h.bot.written_at);
    tx_bot_pop_line(&h.bot);
    ck_assert_ptr_null(tx_bot_peek_line(&h.bot));
    stop_and_check(&h);
    /* It was waiting on its second read: closing stdin ended it by itself,
     * or our SIGTERM did; either way it is reaped. */
}
END_TEST

START_TEST(bot_turn_time_counts_from_the_written_input)
{
    struct harness h;
    start(&h, "read x; sleep 0.2; echo done; read y", 0);
    ck_assert_int_ge(tx_bot_write(&h.bot, "go\n", 3), 0);
    ck_assert(run_until_lines(&h, 1, 5.0));
    const struct tx_bot_line *line = tx_bot_peek_line(&h.bot);
    ck_assert_ptr_nonnull(line);
    ck_assert_uint_ge(line->at - h.bot.written_at, 200u * 1000 * 1000);
    stop_and_check(&h);
}
END_TEST

START_TEST(bot_line_over_the_bound_is_too_long_and_skipped)
{
    struct harness h;
    /* 10000 bytes then a newline, then a normal line. */
    start(&h, "head -c 10000 /dev/zero | tr '\\000' a; echo; echo A1 ok; read x", 0);
    ck_assert(run_until_lines(&h, 2, 5.0));
    const struct tx_bot_line *line = tx_bot_peek_line(&h.bot);
    ck_assert(line->too_long);
    ck_assert_uint_eq(line->len, TX_ANSWER_LINE_MAX);
    ck_assert_int_eq(line->text[0], 'a');
    tx_bot_pop_line(&h.bot);
    line = tx_bot_peek_line(&h.bot);
    char buf[64];
    ck_assert(!line->too_long);
    ck_assert_str_eq(line_text(line, buf, sizeof buf), "A1 ok");
    ck_assert_int_eq(h.bot.lines_received, 2);
    stop_and_check(&h);
}
END_TEST

START_TEST(bot_line_of_exactly_the_bound_is_a_line)
{
    struct harness h;
    start(&h, "head -c 4096 /dev/zero | tr '\\000' b; echo; read x", 0);
    ck_assert(run_until_lines(&h, 1, 5.0));
    const struct tx_bot_line *line = tx_bot_peek_line(&h.bot);
    ck_assert(!line->too_long);
    ck_assert_uint_eq(line->len, TX_ANSWER_LINE_MAX);
    stop_and_check(&h);
}
END_TEST

START_TEST(bot_endless_line_is_reported_without_waiting_for_its_end)
{
    struct harness h;
    start(&h, "exec cat /dev/zero", 0); /* gigabytes, never a newline */
    ck_assert(run_until_lines(&h, 1, 5.0));
    ck_assert(tx_bot_peek_line(&h.bot)->too_long);
    /* Still only one line however much more it writes. */
    uint64_t end = uv_hrtime() + 100 * 1000 * 1000;
    while (uv_hrtime() < end)
        uv_run(&h.loop, UV_RUN_ONCE);
    ck_assert_int_eq(h.bot.lines_received, 1);
    stop_and_check(&h);
}
END_TEST

START_TEST(bot_queue_is_bounded_and_counts_dropped_lines)
{
    struct harness h;
    start(&h, "i=0; while [ $i -lt 20 ]; do echo line$i; i=$((i+1)); done; read x", 0);
    ck_assert(run_until_lines(&h, 20, 5.0));
    ck_assert_int_eq(h.bot.queue_count, TX_BOT_LINES_QUEUED);
    ck_assert_int_eq(h.bot.lines_dropped, 20 - TX_BOT_LINES_QUEUED);
    char buf[64];
    ck_assert_str_eq(line_text(tx_bot_peek_line(&h.bot), buf, sizeof buf), "line0");
    stop_and_check(&h);
}
END_TEST

START_TEST(bot_stderr_is_kept_to_the_bound_and_counted_beyond)
{
    struct harness h;
    start(&h, "head -c 200000 /dev/zero | tr '\\000' e >&2; echo fin; read x", 0);
    ck_assert(run_until_lines(&h, 1, 5.0));
    /* stdout and stderr are separate streams: wait for all of stderr. */
    uint64_t end = uv_hrtime() + 5000000000u;
    while (h.bot.stderr_bytes < 200000 && uv_hrtime() < end)
        uv_run(&h.loop, UV_RUN_ONCE);
    ck_assert_int_eq(h.bot.stderr_bytes, 200000);
    ck_assert_uint_eq(h.bot.stderr_len, TX_BOT_STDERR_KEPT);
    ck_assert_int_eq(h.bot.stderr_kept[TX_BOT_STDERR_KEPT - 1], 'e');
    stop_and_check(&h);
}
END_TEST

START_TEST(bot_exit_status_is_reported)
{
    struct harness h;
    start(&h, "exit 3", 0);
    ck_assert(run_until_count(&h, &h.events[TX_BOT_EXITED], 1, 5.0));
    ck_assert(h.bot.exited_by_itself);
    ck_assert_int_eq(h.bot.exit_status, 3);
    char buf[128];
    tx_bot_describe_exit(&h.bot, buf, sizeof buf);
    ck_assert_str_eq(buf, "exit status 3");
    stop_and_check(&h);
}
END_TEST

START_TEST(bot_death_by_signal_is_reported)
{
    struct harness h;
    start(&h, "kill -SEGV $$", 0);
    ck_assert(run_until_count(&h, &h.events[TX_BOT_EXITED], 1, 5.0));
    ck_assert_int_eq(h.bot.term_signal, SIGSEGV);
    char buf[128];
    tx_bot_describe_exit(&h.bot, buf, sizeof buf);
    ck_assert_str_eq(buf, "killed by signal 11 (Segmentation fault)");
    stop_and_check(&h);
}
END_TEST

static void start_program(struct harness *h, const char *program)
{
    uv_loop_t warm;
    ck_assert_int_eq(uv_loop_init(&warm), 0);
    ck_assert_int_eq(uv_loop_close(&warm), 0);
    memset(h, 0, sizeof *h);
    h->fds_before = count_fds();
    ck_assert_int_eq(uv_loop_init(&h->loop), 0);
    ck_assert_int_eq(uv_timer_init(&h->loop, &h->tick), 0);
    ck_assert_int_eq(uv_timer_start(&h->tick, on_tick, 10, 10), 0);
    ck_assert_int_eq(tx_bot_find_launcher(h->launcher, sizeof h->launcher), 0);
    h->bot.data = h;
    h->bot.event_cb = on_event;
    h->bot.closed_cb = on_closed;
    char *argv[] = {(char *)program, NULL};
    struct tx_bot_options o = {.argv = argv, .launcher = h->launcher};
    ck_assert_int_eq(tx_bot_start(&h->bot, &h->loop, &o), 0);
}

/* A crash's words (what re-feeding and the match write): the hint about
 * the sandbox's read-only files comes for a sandboxed bot that exited
 * after its stderr said so in any language's words, and only then. */
static const struct {
    bool sandboxed;
    const char *stderr_text;
    bool hint;
} file_crashes[] = {
    {true, "OSError: [Errno 30] Read-only file system: './bot.log'\n", true},
    {true, "Error: EROFS: read-only file system, open 'bot.log'\n", true},
    {true, "java.io.FileNotFoundException: bot.log (Read-only file system)\n", true},
    {true, "FileNotFoundError: [Errno 2] No such file or directory: '/tmp/x/debug.log'\n", true},
    {true, "Error: ENOENT: no such file or directory, open '/tmp/x/debug.log'\n", true},
    {true, "fopen: No such file or directory\nopening /tmp/x/debug.log\n", false}, /* 2 lines */
    {true, "FileNotFoundError: [Errno 2] No such file or directory: 'weights.bin'\n", false},
    {true, "Segmentation fault\n", false},
    {false, "OSError: [Errno 30] Read-only file system: './bot.log'\n", false},
};

START_TEST(bot_crash_on_read_only_files_says_where_to_write)
{
    struct tx_bot bot;
    memset(&bot, 0, sizeof bot);
    bot.started = bot.exited = bot.exited_by_itself = true;
    bot.exit_status = 1;
    bot.sandboxed = file_crashes[_i].sandboxed;
    bot.stderr_kept = (char *)file_crashes[_i].stderr_text;
    bot.stderr_len = strlen(file_crashes[_i].stderr_text);
    char buf[256];
    tx_bot_describe_crash(&bot, buf, sizeof buf);
    if (file_crashes[_i].hint)
        ck_assert_str_eq(buf, "exit status 1 before answering; in the sandbox files are read-only "
                              "and /tmp is private: log to stderr, or give the bot a directory "
                              "with --bot-writable DIR");
    else
        ck_assert_str_eq(buf, "exit status 1 before answering");
}
END_TEST

START_TEST(bot_missing_program_says_what_to_fix)
{
    struct harness h;
    start_program(&h, "./no-such-bot");
    ck_assert(run_until_count(&h, &h.events[TX_BOT_EXITED], 1, 5.0));
    ck_assert_int_eq(h.bot.exit_status, 127);
    stop_and_check(&h); /* the status pipe is read to its end before closing */
    ck_assert_str_eq(h.bot.start_error, "cannot run './no-such-bot': No such file or directory");
}
END_TEST

START_TEST(bot_program_not_executable_says_what_to_fix)
{
    char path[] = "/tmp/test-bot-noexec-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    struct harness h;
    start_program(&h, path);
    ck_assert(run_until_count(&h, &h.events[TX_BOT_EXITED], 1, 5.0));
    stop_and_check(&h);
    unlink(path);
    char want[128];
    snprintf(want, sizeof want, "cannot run '%s': Permission denied", path);
    ck_assert_str_eq(h.bot.start_error, want);
}
END_TEST

START_TEST(bot_missing_interpreter_is_named)
{
    char path[] = "/tmp/test-bot-script-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    const char *script = "#!/no/such/python3 -u\nprint('A1')\n";
    ck_assert_int_eq(write(fd, script, strlen(script)), (ssize_t)strlen(script));
    close(fd);
    chmod(path, 0700);
    struct harness h;
    start_program(&h, path);
    ck_assert(run_until_count(&h, &h.events[TX_BOT_EXITED], 1, 5.0));
    stop_and_check(&h);
    unlink(path);
    char want[160];
    snprintf(want, sizeof want,
             "cannot run '%s': its interpreter '/no/such/python3 -u' was not found", path);
    ck_assert_str_eq(h.bot.start_error, want);
}
END_TEST

START_TEST(bot_write_to_closed_input_fails)
{
    struct harness h;
    start_in(&h, "exec 0<&-; echo closed; exec sleep 30", 0, sandbox_of(_i));
    ck_assert(run_until_lines(&h, 1, 5.0));
    /* The peer of its stdin is gone: EPIPE (SIGPIPE is ignored by the
     * test runner below). Nobody else holds it: the launcher let go of
     * the bot's pipes before the bot ran (launcher.c, let_go_of_stdio). */
    int r = tx_bot_write(&h.bot, "x\n", 2);
    if (r == 0) {
        ck_assert(run_until_count(&h, &h.events[TX_BOT_WRITE_FAILED], 1, 5.0));
        r = h.bot.write_error;
    }
    ck_assert_int_eq(r, UV_EPIPE);
    stop_and_check(&h);
}
END_TEST

START_TEST(bot_poll_reads_an_answer_the_loop_has_not_seen)
{
    struct harness h;
    start(&h, "echo early; exec sleep 30", 0);
    usleep(300 * 1000); /* the loop does not run: the line waits in the pipe */
    ck_assert_int_eq(h.bot.lines_received, 0);
    tx_bot_poll(&h.bot);
    ck_assert_int_eq(h.bot.lines_received, 1);
    char buf[64];
    ck_assert_str_eq(line_text(tx_bot_peek_line(&h.bot), buf, sizeof buf), "early");
    stop_and_check(&h);
}
END_TEST

START_TEST(bot_stop_kills_its_children)
{
    struct harness h;
    start(&h, "sleep 30 & echo $!; exec sleep 30", 0);
    ck_assert(run_until_lines(&h, 1, 5.0));
    char buf[64];
    int child = atoi(line_text(tx_bot_peek_line(&h.bot), buf, sizeof buf));
    ck_assert_int_gt(child, 1);
    stop_and_check(&h);
    ck_assert(eventually_gone(child));
}
END_TEST

START_TEST(bot_ignoring_sigterm_is_killed)
{
    struct harness h;
    start(&h, "trap '' TERM; echo ready; while :; do sleep 1; done", 0);
    ck_assert(run_until_lines(&h, 1, 5.0));
    uint64_t t0 = uv_hrtime();
    stop_and_check(&h);
    ck_assert_int_eq(h.bot.term_signal, SIGKILL);
    ck_assert_uint_ge(uv_hrtime() - t0, (uint64_t)TX_BOT_TERM_GRACE_MS * 1000 * 1000);
}
END_TEST

START_TEST(bot_escaped_child_is_killed_and_does_not_hold_up_the_end)
{
    struct harness h;
    /* setsid leaves the group, and keeps our stdout and stderr open. */
    start(&h, "setsid sleep 30 & echo $!; exec sleep 30", 0);
    ck_assert(run_until_lines(&h, 1, 5.0));
    char buf[64];
    int escaped = atoi(line_text(tx_bot_peek_line(&h.bot), buf, sizeof buf));
    ck_assert_int_gt(escaped, 1);
    uint64_t t0 = uv_hrtime();
    stop_and_check(&h);
    ck_assert_uint_lt(uv_hrtime() - t0, 3000000000u); /* not the grandchild's 30 s */
    bool killed = eventually_gone(escaped);           /* found in the bot's family tree */
    kill(escaped, SIGKILL);
    ck_assert_msg(killed, "the child that left the group with setsid() survived");
}
END_TEST

START_TEST(bot_double_forked_daemon_is_killed)
{
    struct harness h;
    /* A subshell starts a setsid() child and exits: the classic daemon. The
     * bot is a subreaper (launcher), so the orphan stays its child. "gone"
     * comes once the subshell has exited (sh waits for it): the daemon is
     * an orphan by then, out of reach of a plain walk of the family tree. */
    start(&h, "( setsid sleep 30 & echo $! ); echo gone; exec sleep 30", 0);
    ck_assert(run_until_lines(&h, 2, 5.0));
    char buf[64];
    int daemon = atoi(line_text(tx_bot_peek_line(&h.bot), buf, sizeof buf));
    ck_assert_int_gt(daemon, 1);
    stop_and_check(&h);
    bool killed = eventually_gone(daemon);
    kill(daemon, SIGKILL);
    ck_assert_msg(killed, "the double-forked daemon survived");
}
END_TEST

/* The keeper's sweep (tx_proc_kill_descendants) on a family made here: a
 * root process with two children, one of which has a child. Everything
 * below the root is killed, and neither the root nor a process outside its
 * family (a sibling of the root) is touched. */
START_TEST(proc_kill_descendants_kills_the_family_below_only)
{
    int fds[2];
    ck_assert_int_eq(pipe(fds), 0);
    pid_t outsider = fork();
    if (outsider == 0) {
        pause();
        _exit(0);
    }
    pid_t root = fork();
    if (root == 0) {
        for (int i = 0; i < 2; i++) {
            pid_t child = fork();
            if (child == 0) {
                if (i == 1) {
                    pid_t grandchild = fork();
                    if (grandchild == 0) {
                        pause();
                        _exit(0);
                    }
                    ck_assert_int_eq(write(fds[1], &grandchild, sizeof grandchild),
                                     (ssize_t)sizeof grandchild);
                }
                pause();
                _exit(0);
            }
            ck_assert_int_eq(write(fds[1], &child, sizeof child), (ssize_t)sizeof child);
        }
        pause();
        _exit(0);
    }
    pid_t family[3];
    for (int i = 0; i < 3; i++)
        ck_assert_int_eq(read(fds[0], &family[i], sizeof family[i]), (ssize_t)sizeof family[i]);
    close(fds[0]);
    close(fds[1]);
    /* Each of the three wrote its pid once it existed. */
    ck_assert_int_eq(tx_proc_kill_descendants(root), 3);
    for (int i = 0; i < 3; i++)
        ck_assert_msg(eventually_gone(family[i]), "descendant %d survived", (int)family[i]);
    ck_assert(!gone(root));
    ck_assert(!gone(outsider));
    kill(root, SIGKILL);
    kill(outsider, SIGKILL);
    ck_assert_int_eq(waitpid(root, NULL, 0), root);
    ck_assert_int_eq(waitpid(outsider, NULL, 0), outsider);
}
END_TEST

START_TEST(bot_gets_its_limits_and_only_three_descriptors)
{
    struct harness h;
    start(&h, "ulimit -d; ulimit -c; nice; ulimit -t; ulimit -f; read x", 64);
    ck_assert(run_until_lines(&h, 5, 5.0));
    /* Its descriptors, looked at from outside while it waits in read (from
     * inside, sh's own pipes and directory reads would show): the bot's
     * own, not its launcher's. */
    ck_assert_int_gt(h.bot.bot_pid, 1);
    ck_assert_int_ne(h.bot.bot_pid, h.bot.pid);
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/fd", h.bot.bot_pid);
    DIR *dir = opendir(path);
    ck_assert_ptr_nonnull(dir);
    int nfds = 0;
    struct dirent *e;
    while ((e = readdir(dir)))
        if (e->d_name[0] != '.') {
            ck_assert_msg(atoi(e->d_name) <= 2, "the bot has descriptor %s open", e->d_name);
            nfds++;
        }
    closedir(dir);
    ck_assert_int_eq(nfds, 3);
    char buf[128];
    ck_assert_str_eq(line_text(tx_bot_peek_line(&h.bot), buf, sizeof buf), "65536");
    tx_bot_pop_line(&h.bot);
    ck_assert_str_eq(line_text(tx_bot_peek_line(&h.bot), buf, sizeof buf), "0");
    tx_bot_pop_line(&h.bot);
    int want = getpriority(PRIO_PROCESS, 0) + 5;
    ck_assert_int_eq(atoi(line_text(tx_bot_peek_line(&h.bot), buf, sizeof buf)),
                     want > 19 ? 19 : want);
    tx_bot_pop_line(&h.bot);
    ck_assert_str_eq(line_text(tx_bot_peek_line(&h.bot), buf, sizeof buf), "30"); /* CPU seconds */
    tx_bot_pop_line(&h.bot);
    /* 64 MiB of file size, in sh's 512-byte blocks */
    ck_assert_str_eq(line_text(tx_bot_peek_line(&h.bot), buf, sizeof buf), "131072");
    stop_and_check(&h);
}
END_TEST

START_TEST(bot_dies_with_the_referee)
{
    int fds[2];
    ck_assert_int_eq(pipe(fds), 0);
    pid_t referee = fork();
    ck_assert_int_ge(referee, 0);
    if (referee == 0) {
        /* A referee that starts a bot, passes its pid up, then is killed. */
        struct harness h;
        start(&h, "echo $$; exec sleep 30", 0);
        if (!run_until_lines(&h, 1, 5.0))
            _exit(1);
        char buf[64];
        line_text(tx_bot_peek_line(&h.bot), buf, sizeof buf);
        ssize_t w = write(fds[1], buf, strlen(buf));
        (void)w;
        for (;;)
            pause();
    }
    close(fds[1]);
    char buf[64] = "";
    ssize_t n = read(fds[0], buf, sizeof buf - 1);
    close(fds[0]);
    ck_assert_int_gt(n, 0);
    int bot = atoi(buf);
    ck_assert_int_gt(bot, 1);
    kill(referee, SIGKILL);
    waitpid(referee, NULL, 0);
    ck_assert_msg(eventually_gone(bot), "bot %d outlived its referee", bot);
}
END_TEST

/* A fork server that dies (a bot without the sandbox can kill it) costs
 * nothing: the start that finds it dead reaps it and starts its bot with
 * posix_spawn, and the next start gets a new server. */
static void talk(struct harness *h)
{
    ck_assert_int_eq(tx_bot_write(&h->bot, "1\n", 2), 1);
    ck_assert(run_until_lines(h, 1, 5.0));
    char buf[64];
    ck_assert_str_eq(line_text(tx_bot_peek_line(&h->bot), buf, sizeof buf), "got 1");
}

/* The children of ours that are launchers waiting for a request (the
 * fork server's keepers forked ahead): not the server, nor not_this. */
static int idle_keepers(pid_t *pids, int cap, pid_t not_this)
{
    int n = 0;
    DIR *d = opendir("/proc");
    ck_assert_ptr_nonnull(d);
    for (struct dirent *e; (e = readdir(d));) {
        int pid = atoi(e->d_name), ppid = 0;
        char path[64], buf[512] = "", comm[64] = "", state = 0;
        if (pid <= 1 || pid == not_this || pid == tx_bot_server_pid())
            continue;
        snprintf(path, sizeof path, "/proc/%d/stat", pid);
        FILE *f = fopen(path, "re");
        if (!f)
            continue;
        size_t len = fread(buf, 1, sizeof buf - 1, f);
        fclose(f);
        buf[len] = '\0';
        char *open = strchr(buf, '('), *close = strrchr(buf, ')');
        if (!open || !close || close - open - 1 >= (long)sizeof comm)
            continue;
        memcpy(comm, open + 1, (size_t)(close - open - 1));
        if (sscanf(close + 2, "%c %d", &state, &ppid) == 2 && ppid == getpid() &&
            !strcmp(comm, "twixt-launch") && state != 'Z' && n < cap)
            pids[n++] = pid;
    }
    closedir(d);
    return n;
}

/* The fork server forks two keepers ahead of the requests; one that a bot
 * (without the sandbox, any process of the user) killed cannot take its
 * request: the bot starts all the same, and every killed one is reaped,
 * the last when the server ends. */
START_TEST(bot_starts_after_its_idle_keepers_were_killed)
{
    tx_bot_serve(true);
    skip_fd_count = true; /* the server's socket stays open from the first start */
    struct harness h;
    start(&h, "read x; echo got $x", 0);
    talk(&h);
    pid_t idle[2];
    int n = 0;
    for (int i = 0; i < 500 && (n = idle_keepers(idle, 2, h.bot.pid)) < 2; i++)
        usleep(10000);
    ck_assert_int_eq(n, 2);
    for (int i = 0; i < 2; i++)
        ck_assert_int_eq(kill(idle[i], SIGKILL), 0);
    stop_and_check(&h);
    start(&h, "read x; echo got $x", 0);
    ck_assert(h.bot.pid != idle[0] && h.bot.pid != idle[1]);
    talk(&h);
    stop_and_check(&h);
    tx_bot_serve(false);
    skip_fd_count = false;
    for (int i = 0; i < 2; i++)
        ck_assert_msg(kill(idle[i], 0) == -1 && errno == ESRCH, "%d is not reaped", idle[i]);
}
END_TEST

START_TEST(bot_starts_after_its_fork_server_was_killed)
{
    tx_bot_serve(true);
    struct harness h;
    start(&h, "read x; echo got $x", 0);
    pid_t killed = tx_bot_server_pid();
    ck_assert_int_gt(killed, 1);
    ck_assert_int_eq(kill(killed, SIGKILL), 0);
    ck_assert(eventually_gone(killed));
    talk(&h);             /* its keeper is ours, not the server's */
    skip_fd_count = true; /* the dead server's socket is still open */
    stop_and_check(&h);
    start(&h, "read x; echo got $x", 0);
    ck_assert_int_eq(kill(killed, 0), -1); /* found dead and reaped */
    ck_assert_int_eq(tx_bot_server_pid(), 0);
    talk(&h);
    stop_and_check(&h); /* counted before the dead server's socket was closed */
    skip_fd_count = false;
    start(&h, "read x; echo got $x", 0);
    ck_assert_int_gt(tx_bot_server_pid(), 1);
    ck_assert_int_ne(tx_bot_server_pid(), killed);
    talk(&h);
    tx_bot_serve(false);
    stop_and_check(&h);
}
END_TEST

/* A fork server that ends after it had a request (killed meanwhile), or
 * does not answer it (stopped), may have started a keeper whose pid is
 * lost with it: the start fails as the machine's fault (the game is played
 * again), and no second keeper is started on the same pipes. The
 * "launcher" here is a script whose server reads one request and then does
 * what the table says, and which, run as a keeper, leaves a file. */
static const struct {
    const char *then; /* the server's Python after the request */
    const char *error;
} lost_servers[] = {
    {"sys.exit(0)", "the launcher's fork server ended while it started the bot"},
    {"time.sleep(60)", "the launcher's fork server did not answer in 5 s (killed)"},
};

START_TEST(bot_start_lost_with_its_fork_server_is_a_fault)
{
    char dir[] = "/tmp/test-bot-XXXXXX", launcher[64], ran[64];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(launcher, sizeof launcher, "%s/launch", dir);
    snprintf(ran, sizeof ran, "%s/ran", dir);
    FILE *f = fopen(launcher, "w");
    ck_assert_ptr_nonnull(f);
    fprintf(f,
            "#!/usr/bin/env python3\n"
            "import socket, sys, time\n"
            "if sys.argv[1:2] == ['--server']:\n"
            "    server = socket.socket(fileno=3)\n"
            "    server.recvmsg(65536, 1024)\n"
            "    %s\n"
            "open('%s', 'w').close()\n"
            "sys.exit(127)\n",
            lost_servers[_i].then, ran);
    fclose(f);
    ck_assert_int_eq(chmod(launcher, 0755), 0);
    tx_bot_serve(true);
    struct harness h;
    memset(&h, 0, sizeof h);
    ck_assert_int_eq(uv_loop_init(&h.loop), 0);
    h.bot.data = &h;
    h.bot.closed_cb = on_closed;
    char *argv[] = {(char *)"/bin/sh", (char *)"-c", (char *)"exit 0", NULL};
    struct tx_bot_options o = {.argv = argv, .launcher = launcher, .cpu_s = 30, .nice = 5};
    ck_assert_int_lt(tx_bot_start(&h.bot, &h.loop, &o), 0);
    ck_assert(h.bot.fault);
    ck_assert_str_eq(h.bot.start_error, lost_servers[_i].error);
    ck_assert_int_eq(tx_bot_server_pid(), 0); /* reaped */
    tx_bot_stop(&h.bot);
    ck_assert(run_until(&h, &h.closed, 5.0));
    tx_bot_release(&h.bot);
    ck_assert_int_eq(uv_loop_close(&h.loop), 0);
    tx_bot_serve(false);
    ck_assert_int_ne(access(ran, F_OK), 0); /* no keeper was started the other way */
    unlink(launcher);
    ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

START_TEST(bot_closing_stdout_is_eof)
{
    struct harness h;
    start_in(&h, "exec 1>&-; exec sleep 30", 0, sandbox_of(_i));
    ck_assert(run_until_count(&h, &h.events[TX_BOT_EOF], 1, 5.0));
    ck_assert(h.bot.out_eof);
    ck_assert(!h.bot.exited);
    stop_and_check(&h);
    ck_assert(!h.bot.exited_by_itself);
}
END_TEST

/* ---- the match's own mechanics (the fault matrix is tests/test-match.c) ---- */

struct games {
    uv_loop_t loop;
    struct tx_geometry *geo;
    struct tx_match_config config;
    struct tx_bot_spec bots[2];
    struct tx_game_spec specs[4];
    struct tx_record records[4];
    int done[4];
    char random[PATH_MAX];
    char command[PATH_MAX + 32];
};

static void games_done(struct tx_match *match, struct tx_record *record, void *data)
{
    struct tx_game_spec *spec = data;
    struct games *g =
        (struct games *)((char *)(spec - (spec->index - 1)) - offsetof(struct games, specs));
    (void)match;
    g->done[spec->index - 1]++;
    g->records[spec->index - 1] = *record; /* the contents are ours */
    free(record);
}

/* Descriptors open now, once libuv's process-wide ones exist (see start()). */
static int warm_count_fds(void)
{
    uv_loop_t warm;
    ck_assert_int_eq(uv_loop_init(&warm), 0);
    ck_assert_int_eq(uv_loop_close(&warm), 0);
    return count_fds();
}

static struct games *games_new(void)
{
    struct games *g = calloc(1, sizeof *g);
    ck_assert_ptr_nonnull(g);
    ck_assert_int_eq(tx_geometry_new(12, 12, &g->geo), 0);
    tx_match_config_init(&g->config, g->geo, TX_RULES_PP);
    g->config.limits.memory_mb = 0; /* in a sanitizer build the bots are too, and ASan needs room */
    snprintf(g->random, sizeof g->random, "%s", TX_RANDOM_BOT); /* from meson */
    snprintf(g->command, sizeof g->command, "%s --seed {seed}", g->random);
    g->bots[0] = (struct tx_bot_spec){.name = "r1", .command = g->command};
    g->bots[1] = (struct tx_bot_spec){.name = "r2", .command = g->command};
    ck_assert_int_eq(uv_loop_init(&g->loop), 0);
    for (int i = 0; i < 4; i++) {
        g->specs[i].index = i + 1;
        g->specs[i].seed = 100 + (uint64_t)i;
        g->specs[i].bots[0] = &g->bots[0];
        g->specs[i].bots[1] = &g->bots[1];
    }
    return g;
}

static void games_free(struct games *g)
{
    ck_assert_int_eq(uv_loop_close(&g->loop), 0);
    for (int i = 0; i < 4; i++)
        tx_record_free(&g->records[i]);
    tx_geometry_free(g->geo);
    free(g);
}

static bool finished_normally(const struct tx_record *r)
{
    return r->result.reason == TX_REASON_CONNECTION || r->result.reason == TX_REASON_DRAW;
}

START_TEST(match_plays_the_forced_opening_first)
{
    int fds = warm_count_fds();
    struct games *g = games_new();
    int16_t opening[3] = {(int16_t)(5 * 12 + 5), (int16_t)(3 * 12 + 6),
                          (int16_t)(8 * 12 + 2)}; /* F6 G4 C9 */
    g->specs[0].nopening = 3;
    g->specs[0].opening = opening;
    struct tx_match *m;
    ck_assert_int_eq(
        tx_match_start(&g->loop, &g->config, &g->specs[0], games_done, &g->specs[0], &m), 0);
    uv_run(&g->loop, UV_RUN_DEFAULT);
    ck_assert_int_eq(g->done[0], 1);
    const struct tx_record *r = &g->records[0];
    ck_assert_msg(finished_normally(r), "%s: %s", tx_reason_name(r->result.reason),
                  r->result.detail);
    ck_assert_int_gt(r->nmoves, 3);
    const char *names[3] = {"F6", "G4", "C9"};
    for (int i = 0; i < 3; i++) {
        ck_assert(r->moves[i].forced);
        ck_assert_int_eq(r->moves[i].us, -1);
        ck_assert_int_eq(r->moves[i].player, i % 2);
        ck_assert_str_eq(r->moves[i].move, names[i]);
        ck_assert_ptr_null(r->moves[i].stderr_text);
    }
    /* Then player 2 (to move after three pegs) answers its first turn. */
    ck_assert(!r->moves[3].forced);
    ck_assert_int_eq(r->moves[3].player, 1);
    ck_assert_int_ge(r->moves[3].us, 0);
    games_free(g);
    ck_assert_int_eq(count_fds(), fds);
}
END_TEST

START_TEST(match_refuses_an_illegal_opening)
{
    struct games *g = games_new();
    int16_t corner[1] = {0}; /* A1 */
    g->specs[0].nopening = 1;
    g->specs[0].opening = corner;
    struct tx_match *m = NULL;
    ck_assert_int_eq(
        tx_match_start(&g->loop, &g->config, &g->specs[0], games_done, &g->specs[0], &m), -EINVAL);
    ck_assert_ptr_null(m);
    uv_run(&g->loop, UV_RUN_DEFAULT);
    ck_assert_int_eq(g->done[0], 0);
    games_free(g);
}
END_TEST

START_TEST(match_bad_command_line_is_a_crash_with_the_reason)
{
    struct games *g = games_new();
    struct tx_bot_spec bad = {.name = "bad", .command = "./bot 'unbalanced"};
    g->specs[0].bots[1] = &bad;
    struct tx_match *m;
    ck_assert_int_eq(
        tx_match_start(&g->loop, &g->config, &g->specs[0], games_done, &g->specs[0], &m), 0);
    uv_run(&g->loop, UV_RUN_DEFAULT);
    const struct tx_record *r = &g->records[0];
    ck_assert_int_eq(r->result.winner, 0);
    ck_assert_int_eq(r->result.reason, TX_REASON_CRASH);
    ck_assert_str_eq(r->result.detail, "bad command line: unbalanced single quote");
    ck_assert_int_eq(r->nmoves, 2); /* player 1's move, then player 2's turn without a move */
    ck_assert_ptr_null(r->moves[1].move);
    ck_assert_ptr_null(r->players[1].sha256);
    ck_assert_ptr_nonnull(r->players[0].sha256);
    ck_assert_uint_eq(strlen(r->players[0].sha256), 64);
    games_free(g);
}
END_TEST

START_TEST(match_timeout_says_where_the_time_went)
{
    struct games *g = games_new();
    /* Reads its five-line first input, then spins: always runnable, so its
     * time on a CPU plus its wait for one covers the whole turn. */
    struct tx_bot_spec spin = {
        .name = "spin",
        .command = "sh -c 'read a; read b; read c; read d; read e; while :; do :; done'"};
    g->specs[0].bots[0] = &spin;
    g->config.limits.first_turn_ms = 100;
    struct tx_match *m;
    ck_assert_int_eq(
        tx_match_start(&g->loop, &g->config, &g->specs[0], games_done, &g->specs[0], &m), 0);
    uv_run(&g->loop, UV_RUN_DEFAULT);
    const struct tx_record *r = &g->records[0];
    ck_assert_int_eq(r->result.winner, 1);
    ck_assert_int_eq(r->result.reason, TX_REASON_TIMEOUT);
    const char *d = r->result.detail;
    ck_assert_msg(strstr(d, "no answer in 100 ms, killed at "), "%s", d);
    const char *spent = strstr(d, "; asleep or blocked ");
    ck_assert_msg(spent != NULL, "%s", d);
    double asleep = 0, cpu = 0, wait = 0;
    ck_assert_int_eq(sscanf(spent,
                            "; asleep or blocked %lf ms, on a CPU %lf ms, waiting for a CPU %lf ms",
                            &asleep, &cpu, &wait),
                     3);
    /* Each figure is rounded to 0.1 ms, so their sum may fall 0.15 ms short
     * (3.6 + 146.2 + 0.2 is 149.99999999999997 in doubles: CI saw it). */
    ck_assert_msg(cpu + wait >= 100.0 - 0.1, "%s", d);                  /* killed at >= 150 ms */
    ck_assert_msg(asleep + cpu + wait >= 150.0 - 0.15 - 1e-9, "%s", d); /* add up to the turn */
    games_free(g);
}
END_TEST

START_TEST(match_record_is_valid_utf8_whatever_the_command)
{
    struct games *g = games_new();
    struct tx_bot_spec odd = {.name = "caf\xe9", .command = "./no-such-\xff-bot"};
    g->specs[0].bots[0] = &odd;
    struct tx_match *m;
    ck_assert_int_eq(
        tx_match_start(&g->loop, &g->config, &g->specs[0], games_done, &g->specs[0], &m), 0);
    uv_run(&g->loop, UV_RUN_DEFAULT);
    const struct tx_record *r = &g->records[0];
    ck_assert_int_eq(r->result.reason, TX_REASON_CRASH);
    ck_assert_str_eq(r->players[0].name, "caf\xef\xbf\xbd");
    ck_assert_str_eq(r->players[0].command, "./no-such-\xef\xbf\xbd-bot");
    ck_assert_str_eq(r->result.detail,
                     "cannot run './no-such-\xef\xbf\xbd-bot': No such file or directory");
    char *json = NULL;
    ck_assert_int_eq(tx_record_to_json(r, &json), 0);
    struct tx_record back;
    char err[256] = "";
    ck_assert_msg(tx_record_from_json(json, strlen(json), &back, err, sizeof err) == 0, "%s", err);
    tx_record_free(&back);
    free(json);
    games_free(g);
}
END_TEST

START_TEST(match_interrupted_at_once_delivers_its_record)
{
    int fds = warm_count_fds();
    struct games *g = games_new();
    struct tx_match *m;
    ck_assert_int_eq(
        tx_match_start(&g->loop, &g->config, &g->specs[0], games_done, &g->specs[0], &m), 0);
    tx_match_interrupt(m); /* before the bots are even spawned */
    tx_match_interrupt(m);
    uv_run(&g->loop, UV_RUN_DEFAULT);
    ck_assert_int_eq(g->done[0], 1);
    const struct tx_record *r = &g->records[0];
    ck_assert_int_eq(r->result.reason, TX_REASON_INTERRUPTED);
    ck_assert_int_eq(r->result.winner, -1);
    ck_assert_int_eq(r->nmoves, 0);
    games_free(g);
    ck_assert_int_eq(count_fds(), fds);
}
END_TEST

START_TEST(match_runs_games_side_by_side_on_one_loop)
{
    int fds = warm_count_fds();
    struct games *g = games_new();
    for (int i = 0; i < 4; i++) {
        struct tx_match *m;
        ck_assert_int_eq(
            tx_match_start(&g->loop, &g->config, &g->specs[i], games_done, &g->specs[i], &m), 0);
    }
    uv_run(&g->loop, UV_RUN_DEFAULT);
    for (int i = 0; i < 4; i++) {
        const struct tx_record *r = &g->records[i];
        ck_assert_int_eq(g->done[i], 1);
        ck_assert_int_eq(r->game, i + 1);
        ck_assert_msg(finished_normally(r), "game %d: %s: %s", i + 1,
                      tx_reason_name(r->result.reason), r->result.detail);
        /* {seed} is the game's seed: the command as run is recorded. */
        char want[PATH_MAX + 64];
        snprintf(want, sizeof want, "%s --seed %d", g->random, 100 + i);
        ck_assert_str_eq(r->players[0].command, want);
        /* Each turn carries what the bot wrote on stderr during it: one line. */
        for (int k = 0; k < r->nmoves; k++) {
            const char *e = r->moves[k].stderr_text;
            ck_assert_ptr_nonnull(e);
            ck_assert_ptr_nonnull(strstr(e, "random: "));
            ck_assert_ptr_null(strstr(strstr(e, "random: ") + 1, "random: "));
        }
        ck_assert_int_eq(r->players[0].extra_lines, 0);
    }
    games_free(g);
    ck_assert_int_eq(count_fds(), fds);
}
END_TEST

static Suite *bot_suite(void)
{
    Suite *s = suite_create("bot");
    TCase *tc = tcase_create("process");
    tcase_set_timeout(tc, 20);
    tcase_add_test(tc, bot_echoes_a_line_after_its_input);
    tcase_add_test(tc, bot_turn_time_counts_from_the_written_input);
    tcase_add_test(tc, bot_line_over_the_bound_is_too_long_and_skipped);
    tcase_add_test(tc, bot_line_of_exactly_the_bound_is_a_line);
    tcase_add_test(tc, bot_endless_line_is_reported_without_waiting_for_its_end);
    tcase_add_test(tc, bot_queue_is_bounded_and_counts_dropped_lines);
    tcase_add_test(tc, bot_stderr_is_kept_to_the_bound_and_counted_beyond);
    tcase_add_test(tc, bot_exit_status_is_reported);
    tcase_add_test(tc, bot_death_by_signal_is_reported);
    tcase_add_loop_test(tc, bot_crash_on_read_only_files_says_where_to_write, 0,
                        sizeof file_crashes / sizeof file_crashes[0]);
    tcase_add_test(tc, bot_missing_program_says_what_to_fix);
    tcase_add_test(tc, bot_program_not_executable_says_what_to_fix);
    tcase_add_test(tc, bot_missing_interpreter_is_named);
    tcase_add_test(tc, bot_poll_reads_an_answer_the_loop_has_not_seen);
    tcase_add_test(tc, bot_stop_kills_its_children);
    tcase_add_test(tc, bot_ignoring_sigterm_is_killed);
    tcase_add_test(tc, bot_escaped_child_is_killed_and_does_not_hold_up_the_end);
    tcase_add_test(tc, bot_double_forked_daemon_is_killed);
    tcase_add_test(tc, proc_kill_descendants_kills_the_family_below_only);
    tcase_add_test(tc, bot_gets_its_limits_and_only_three_descriptors);
    tcase_add_test(tc, bot_dies_with_the_referee);
    tcase_add_test(tc, bot_starts_after_its_fork_server_was_killed);
    tcase_add_test(tc, bot_starts_after_its_idle_keepers_were_killed);
    tcase_add_test(tc, bot_tmpdir_left_empty_is_the_next_bots);
    tcase_add_test(tc, bot_tmpdirs_of_dead_referees_are_removed);
    tcase_add_loop_test(tc, bot_start_lost_with_its_fork_server_is_a_fault, 0,
                        sizeof lost_servers / sizeof lost_servers[0]);
    suite_add_tcase(s, tc);
    TCase *ts = tcase_create("own-stdio");
    tcase_set_timeout(ts, 30);
    tcase_add_unchecked_fixture(ts, isolated_setup, isolated_teardown);
    tcase_add_loop_test(ts, bot_write_to_closed_input_fails, 0, 2);
    tcase_add_loop_test(ts, bot_closing_stdout_is_eof, 0, 2);
    suite_add_tcase(s, ts);
    /* The same lifecycle with the keepers forked by the launcher's fork
     * server (tx_bot_serve), as the runner starts them. */
    TCase *tv = tcase_create("served");
    tcase_set_timeout(tv, 30);
    tcase_add_checked_fixture(tv, served_setup, served_teardown);
    tcase_add_test(tv, bot_echoes_a_line_after_its_input);
    tcase_add_test(tv, bot_exit_status_is_reported);
    tcase_add_test(tv, bot_death_by_signal_is_reported);
    tcase_add_test(tv, bot_missing_program_says_what_to_fix);
    tcase_add_test(tv, bot_missing_interpreter_is_named);
    tcase_add_test(tv, bot_stop_kills_its_children);
    tcase_add_test(tv, bot_ignoring_sigterm_is_killed);
    tcase_add_test(tv, bot_escaped_child_is_killed_and_does_not_hold_up_the_end);
    tcase_add_test(tv, bot_double_forked_daemon_is_killed);
    tcase_add_test(tv, bot_gets_its_limits_and_only_three_descriptors);
    tcase_add_test(tv, bot_dies_with_the_referee);
    tcase_add_test(tv, bot_tmpdir_left_empty_is_the_next_bots);
    suite_add_tcase(s, tv);
    TCase *tm = tcase_create("match");
    tcase_set_timeout(tm, 60);
    tcase_add_test(tm, match_plays_the_forced_opening_first);
    tcase_add_test(tm, match_refuses_an_illegal_opening);
    tcase_add_test(tm, match_bad_command_line_is_a_crash_with_the_reason);
    tcase_add_test(tm, match_timeout_says_where_the_time_went);
    tcase_add_test(tm, match_record_is_valid_utf8_whatever_the_command);
    tcase_add_test(tm, match_interrupted_at_once_delivers_its_record);
    tcase_add_test(tm, match_runs_games_side_by_side_on_one_loop);
    suite_add_tcase(s, tm);
    return s;
}

int main(void)
{
    signal(SIGPIPE, SIG_IGN); /* as the referee does: writes to dead bots fail with EPIPE */
    SRunner *sr = srunner_create(bot_suite());
    srunner_run_all(sr, CK_ENV);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
