/* launcher.c - twixt-launch: applies a bot's limits, then becomes the bot.
 *
 *   twixt-launch [--memory-mb N] [--cpu-s N] [--fsize-mb N] [--nice N]
 *                [--parent PID] [--status-fd FD] -- PROGRAM [ARG...]
 *
 * libuv has no hook between fork and exec, and setting limits on a running
 * bot (prlimit after spawn) races with its first instructions. So the
 * referee spawns this tiny program instead, which sets the limits on itself
 * and execvp()s the bot: the bot starts with its limits already in place,
 * as the same process (same pid, same process group, same pipes).
 *
 * The bot is also made a child subreaper, so its orphaned descendants stay
 * in its family tree (see proc.h) instead of escaping to init.
 *
 * If the bot cannot be executed, one line saying why ("cannot run './x': No
 * such file or directory") is written to the status descriptor, and the
 * launcher exits 127. That descriptor is close-on-exec, so when the exec
 * succeeds the referee just sees it close, and the bot never inherits it.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>

#define EXIT_CANNOT_RUN 127
#define DEFAULT_MEMORY_MB 768 /* CodinGame's memory limit */
#define DEFAULT_FSIZE_MB 64   /* a bot has no business writing big files */

static int status_fd = -1;

/* Reports why the bot did not start and exits: the referee turns this line
 * into the crash detail the user reads. */
__attribute__((format(printf, 1, 2), noreturn)) static void fail(const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (n < 0)
        n = 0;
    if ((size_t)n >= sizeof msg)
        n = sizeof msg - 1;
    if (status_fd >= 0) {
        ssize_t w = write(status_fd, msg, (size_t)n);
        (void)w;
    } else {
        fprintf(stderr, "twixt-launch: %s\n", msg);
    }
    _exit(EXIT_CANNOT_RUN);
}

static long number(const char *option, const char *text)
{
    char *end;
    errno = 0;
    long v = strtol(text ? text : "", &end, 10);
    if (!text || errno || *end || end == text || v < 0)
        fail("bad value for %s: '%s'", option, text ? text : "");
    return v;
}

static void set_limit(int resource, rlim_t value, const char *what)
{
    struct rlimit rl;
    if (getrlimit(resource, &rl) < 0)
        fail("cannot read the %s limit: %s", what, strerror(errno));
    /* Never raise a hard limit the referee itself runs under. */
    if (rl.rlim_max != RLIM_INFINITY && value > rl.rlim_max)
        value = rl.rlim_max;
    rl.rlim_cur = value;
    if (resource == RLIMIT_CPU && value != RLIM_INFINITY &&
        (rl.rlim_max == RLIM_INFINITY || value + 1 <= rl.rlim_max))
        rl.rlim_max = value + 1; /* SIGXCPU at the soft limit, SIGKILL one second later */
    else if (rl.rlim_max == RLIM_INFINITY || value < rl.rlim_max)
        rl.rlim_max = value;
    if (setrlimit(resource, &rl) < 0)
        fail("cannot set the %s limit: %s", what, strerror(errno));
}

/* ENOENT for a file that exists means its "#!" interpreter is missing:
 * say which, or the user looks for the wrong file. */
static void explain_missing_interpreter(const char *program, int err)
{
    if (err != ENOENT || !strchr(program, '/'))
        return;
    int fd = open(program, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return;
    char head[128];
    ssize_t n = read(fd, head, sizeof head - 1);
    close(fd);
    if (n < 2 || head[0] != '#' || head[1] != '!')
        return;
    head[n] = '\0';
    head[strcspn(head, "\r\n")] = '\0';
    const char *interp = head + 2;
    while (*interp == ' ')
        interp++;
    fail("cannot run '%s': its interpreter '%s' was not found", program, interp);
}

int main(int argc, char **argv)
{
    long memory_mb = DEFAULT_MEMORY_MB, cpu_s = 0, fsize_mb = DEFAULT_FSIZE_MB, nice_inc = 5;
    long parent = 0;
    int i = 1;

    for (; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--")) {
            i++;
            break;
        }
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--memory-mb"))
            memory_mb = number(a, v);
        else if (!strcmp(a, "--cpu-s"))
            cpu_s = number(a, v);
        else if (!strcmp(a, "--fsize-mb"))
            fsize_mb = number(a, v);
        else if (!strcmp(a, "--nice"))
            nice_inc = number(a, v);
        else if (!strcmp(a, "--parent"))
            parent = number(a, v);
        else if (!strcmp(a, "--status-fd"))
            status_fd = (int)number(a, v);
        else
            fail("unknown launcher option %s", a);
        i++;
    }
    if (i >= argc)
        fail("no bot command given");

    /* The status channel must not reach the bot, and neither may anything
     * else the referee's process had open by accident. */
    if (status_fd >= 0)
        fcntl(status_fd, F_SETFD, FD_CLOEXEC);
#ifdef SYS_close_range
    syscall(SYS_close_range, (unsigned)(status_fd > 2 ? status_fd + 1 : 3), ~0U, 4U /* CLOEXEC */);
#endif

    /* Bots get the default dispositions (the referee ignores SIGPIPE). */
    for (int s = 1; s < NSIG; s++)
        if (s != SIGKILL && s != SIGSTOP)
            signal(s, SIG_DFL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);

    /* Die with the referee, even if it is killed with SIGKILL. The parent
     * may already be gone: then we were reparented and must not run. */
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0)
        fail("cannot set the parent death signal: %s", strerror(errno));
    if (parent > 0 && getppid() != (pid_t)parent)
        fail("the referee has gone");
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
        fail("cannot set no_new_privs: %s", strerror(errno));
    /* The bot adopts its orphans (the attribute survives execve): a daemon
     * that double-forks and calls setsid() stays in the bot's family tree,
     * where the referee finds it and kills it at the end of the game.
     * Failing this only weakens that sweep, so it is not fatal. */
    prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);

    if (memory_mb > 0)
        set_limit(RLIMIT_DATA, (rlim_t)memory_mb << 20, "memory");
    if (cpu_s > 0)
        set_limit(RLIMIT_CPU, (rlim_t)cpu_s, "CPU time");
    if (fsize_mb > 0)
        set_limit(RLIMIT_FSIZE, (rlim_t)fsize_mb << 20, "file size");
    set_limit(RLIMIT_CORE, 0, "core file");

    /* Below the referee, so its clock is read on time when bots keep every
     * core busy. nice() may legitimately return -1, hence errno. */
    if (nice_inc > 0) {
        errno = 0;
        if (nice((int)(nice_inc > 19 ? 19 : nice_inc)) == -1 && errno)
            fail("cannot lower the priority: %s", strerror(errno));
    }

    execvp(argv[i], argv + i);
    int err = errno;
    explain_missing_interpreter(argv[i], err);
    fail("cannot run '%s': %s", argv[i], strerror(err));
}
