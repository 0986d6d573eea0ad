/* launcher.c - twixt-launch: starts one bot, keeps it, and leaves nothing.
 *
 *   twixt-launch --status-fd FD [--parent PID] [--memory-mb N] [--cpu-s N]
 *                [--fsize-mb N] [--nice N] [--term-grace-ms N] [--core K]...
 *                [--tasks N] [--cpus N] [--cgroup DIR]... [--tmpdir DIR]
 *                [--sandbox [--network] [--tmp-mb N] [--hide PATH]...
 *                 [--keep PATH]... [--writable DIR]...] [--probe]
 *                -- PROGRAM [ARG...]
 *   twixt-launch --server --parent PID      (the fork server: see serve())
 *
 * libuv has no hook between fork and exec, and a bot must start with its
 * limits already in place, so the referee spawns this program instead. It
 * stays, as the keeper of the bot: the pid the referee knows (libuv's
 * child, leader of the bot's process group) is the launcher's, and the bot
 * runs below it (a run of many games starts one launcher as a fork server
 * instead, which forks each keeper as the referee's own child: serve()):
 *
 *   without --sandbox   keeper -> bot
 *   with --sandbox      keeper -> init (pid 1 of new namespaces) -> bot (pid 2)
 *
 * Neither the keeper nor the init holds the bot's stdin, stdout or stderr
 * once the bot runs (it waits for them to let go before it execs): a bot
 * that closes one closes the referee's pipe.
 *
 * The keeper is a child subreaper, so whatever the bot starts stays in its
 * family tree, whatever it does (setsid, double forks, pid hopping). When
 * the bot exits, the keeper reports the processes it left ("left" lines),
 * kills every descendant it has, removes the bot's cgroups and temporary
 * directory, and exits the way the bot did (same status, or the same
 * signal), so libuv sees the bot's own ending. SIGTERM (the referee's stop)
 * gives the bot --term-grace-ms before everything is killed; the referee
 * dying (PDEATHSIG) kills everything at once. Only a SIGKILL of the keeper
 * itself could leave processes behind, and in the sandbox the bot cannot
 * reach it (another PID namespace); the referee kills it only as a last
 * resort.
 *
 * The sandbox (clone with new user, PID, mount, network, IPC and UTS
 * namespaces): the bot sees only its own processes, no network (a loopback
 * of its own, unless --network), every file system read-only, a fresh
 * /proc, a minimal /dev, an empty /run, a private size-capped tmpfs on /tmp,
 * and /dev/null in place of each --hide file; each --writable DIR is the
 * one place it may write, at the same path. It runs as the user, with
 * every capability dropped and no_new_privs. Limits: --cgroup DIRs (the
 * referee found them writable) get a child cgroup with the memory limit,
 * --tasks as the process and thread cap, --cpus as a CPU quota (the bot
 * and everything it starts use at most N CPUs) and, in a cpuset hierarchy,
 * the --core list as the only cores it may run on; without them,
 * RLIMIT_DATA as everywhere, RLIMIT_NPROC, which counts the bot's own user
 * namespace only (it does not bound root), and the cores as an affinity
 * (which a bot may change).
 *
 * Status descriptor, one line per message: "tmp PATH" (without --sandbox,
 * the bot's private TMPDIR, /tmp/twixt-bot-REFEREE-XXXXXX, --tmpdir's when
 * the referee lends one it may be (reusable_tmpdir), else a new one: the referee
 * removes it once the keeper has exited, unless the keeper says
 * "tmp-removed": it does so only when the bot could not start or the
 * referee is gone; "tmp-yours" hands it over, its write failing when the
 * referee is gone), "pid N" (the bot's own pid, as the referee sees it, for
 * /proc/N/schedstat), "error TEXT" (why the bot
 * could not start: "cannot run './x': No such file or directory"; exit
 * status 127), "self" (the bot ended by itself, not by the referee's
 * signal or the keeper's sweep), "oom" (the bot hit its cgroup's memory
 * limit), "left PID COMM" (at most LEFT_REPORTED) and "left-total N",
 * "idle FILE ON OFF" (the bot's cgroup file that puts it at idle priority
 * when ON is written to it, back when OFF is: the referee does so while the
 * bot is not on move) and "fault" (the "error" line that follows is a
 * failure of the machine or of the launcher, not of the bot: its sandbox,
 * its cgroups or its limits could not be set up; only an "error" without
 * it, the bot's program not running, is the bot's). It is close-on-exec in
 * the bot, which never inherits it.
 *
 * A test hook: with TWIXT_LAUNCH_FAULT=N:DIR in its environment (a bots
 * file's env gives it to one bot), a sandboxed start creates the first of
 * DIR/fault-1 to DIR/fault-N that does not exist yet and then fails its
 * sandbox's set-up as the kernel could (a fault); once all N exist, it
 * does nothing. So the first N sandboxed starts of that bot fail. The
 * variable never reaches the bot.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <net/if.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/capability.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "bot-limits.h"
#include "proc.h"

#define EXIT_CANNOT_RUN 127
#define DEFAULT_FSIZE_MB 64     /* a bot has no business writing big files */
#define DEFAULT_TMP_MB 64       /* the sandbox's /tmp */
#define LIST_MAX 64             /* --hide, --keep, --cgroup paths */
#define LEFT_REPORTED 16        /* "left" lines at most; "left-total" counts them all */
#define SWEEP_PAUSE_NS 1000000L /* at most, between two rounds of a sweep */
#define RMDIR_PAUSE_NS 100000L  /* between two tries of a cgroup's removal */
#define RMDIR_TRIES 1000
/* The CPU quota's period, the kernel's default: the quota is handed to
 * each core in 5 ms slices, and a slice left on a core a thread moved
 * away from is missed until it comes back, so the longer the period, the
 * less a bot using exactly its quota loses to that. */
#define CPU_PERIOD_US 100000

#ifndef SECBIT_NOROOT
#define SECBIT_NOROOT (1 << 0)
#define SECBIT_NOROOT_LOCKED (1 << 1)
#define SECBIT_NO_SETUID_FIXUP (1 << 2)
#define SECBIT_NO_SETUID_FIXUP_LOCKED (1 << 3)
#define SECBIT_KEEP_CAPS_LOCKED (1 << 5)
#define SECBIT_NO_CAP_AMBIENT_RAISE (1 << 6)
#define SECBIT_NO_CAP_AMBIENT_RAISE_LOCKED (1 << 7)
#endif

struct launch {
    long memory_mb, cpu_s, fsize_mb, nice, parent, term_grace_ms, tmp_mb, tasks;
    double cpus;     /* --cpus: the CPU quota, 0 for none */
    cpu_set_t cores; /* --core: the only cores the bot may use, when pinned */
    bool sandbox, network, probe, pinned, inject_fault;
    const char *hide[LIST_MAX], *keep[LIST_MAX], *cgroup[LIST_MAX], *writable[LIST_MAX];
    int nhide, nkeep, ncgroup, nwritable;
    const char *tmpdir; /* --tmpdir: an empty TMPDIR of an earlier bot to use again */
    char **argv;
};

static int status_fd = -1;
static bool status_lost;                 /* a line could not be written: the referee is gone */
static pid_t keeper;                     /* the launcher's own pid: cleanup happens only there */
static char cgroups[LIST_MAX][PATH_MAX]; /* the bot's cgroups, created by the keeper */
static int ncgroups;
static bool cpuset_pinned;    /* the cores are the bot's cpuset, not just its affinity */
static char tmpdir[64];       /* the bot's TMPDIR without the sandbox, "" if none */
static int pooled_netns = -1; /* a network namespace lent by the fork server (serve()) */
static bool netns_entered;    /* ... and the sandbox is in it: its loopback is up already */

static void cleanup(void);

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
    char msg[600];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(msg, sizeof msg - 1, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if ((size_t)n > sizeof msg - 2)
        n = sizeof msg - 2;
    msg[n++] = '\n';
    if (status_fd >= 0) {
        if (write(status_fd, msg, (size_t)n) < 0)
            status_lost = true;
    } else {
        ssize_t w = write(STDERR_FILENO, msg, (size_t)n);
        (void)w;
    }
}

/* Reports why the bot did not start and exits: the referee turns this line
 * into the crash detail the user reads, or, for a fault (anything but the
 * bot's own program), into an interrupted game that is played again. */
__attribute__((noreturn)) static void report(bool fault, const char *fmt, va_list ap)
{
    char msg[512];
    vsnprintf(msg, sizeof msg, fmt, ap);
    for (char *p = msg; *p; p++)
        if (*p == '\n')
            *p = ' ';
    if (fault)
        say("fault");
    say("error %s", msg);
    if (getpid() == keeper)
        cleanup();
    _exit(EXIT_CANNOT_RUN);
}

/* The bot could not be set up: the machine's or the referee's doing. */
__attribute__((format(printf, 1, 2), noreturn)) static void fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report(true, fmt, ap);
}

/* The bot's own program cannot run: its loss. */
__attribute__((format(printf, 1, 2), noreturn)) static void cannot_run(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report(false, fmt, ap);
}

static double decimal(const char *option, const char *text)
{
    char *end;
    errno = 0;
    double v = strtod(text ? text : "", &end);
    if (!text || errno || *end || end == text || !(v >= 0))
        fail("bad value for %s: '%s'", option, text ? text : "");
    return v;
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

static void add(const char **list, int *n, const char *option, const char *value)
{
    if (!value || *n == LIST_MAX)
        fail("%s: no value, or more than %d", option, LIST_MAX);
    list[(*n)++] = value;
}

static void parse(int argc, char **argv, struct launch *l)
{
    *l = (struct launch){.memory_mb = TX_LIMITS_MEMORY_MB,
                         .fsize_mb = DEFAULT_FSIZE_MB,
                         .nice = 5,
                         .term_grace_ms = 100,
                         .tmp_mb = DEFAULT_TMP_MB};
    int i = 1;
    for (; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--")) {
            i++;
            break;
        }
        if (!strcmp(a, "--sandbox")) {
            l->sandbox = true;
            continue;
        }
        if (!strcmp(a, "--network")) {
            l->network = true;
            continue;
        }
        if (!strcmp(a, "--probe")) {
            l->probe = true;
            continue;
        }
        if (!strcmp(a, "--memory-mb"))
            l->memory_mb = number(a, v);
        else if (!strcmp(a, "--cpu-s"))
            l->cpu_s = number(a, v);
        else if (!strcmp(a, "--fsize-mb"))
            l->fsize_mb = number(a, v);
        else if (!strcmp(a, "--nice"))
            l->nice = number(a, v);
        else if (!strcmp(a, "--parent"))
            l->parent = number(a, v);
        else if (!strcmp(a, "--status-fd"))
            status_fd = (int)number(a, v);
        else if (!strcmp(a, "--term-grace-ms"))
            l->term_grace_ms = number(a, v);
        else if (!strcmp(a, "--tmp-mb"))
            l->tmp_mb = number(a, v);
        else if (!strcmp(a, "--tasks"))
            l->tasks = number(a, v);
        else if (!strcmp(a, "--cpus"))
            l->cpus = decimal(a, v);
        else if (!strcmp(a, "--core")) {
            long core = number(a, v);
            if (core >= CPU_SETSIZE)
                fail("bad value for %s: '%s'", a, v);
            CPU_SET((int)core, &l->cores);
            l->pinned = true;
        } else if (!strcmp(a, "--hide"))
            add(l->hide, &l->nhide, a, v);
        else if (!strcmp(a, "--keep"))
            add(l->keep, &l->nkeep, a, v);
        else if (!strcmp(a, "--cgroup"))
            add(l->cgroup, &l->ncgroup, a, v);
        else if (!strcmp(a, "--writable"))
            add(l->writable, &l->nwritable, a, v);
        else if (!strcmp(a, "--tmpdir") && v)
            l->tmpdir = v;
        else
            fail("unknown launcher option %s", a);
        i++;
    }
    if (i >= argc)
        fail("no bot command given");
    l->argv = argv + i;
}

/* ---- files ---- */

static int write_file(const char *path, const char *text)
{
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return -errno;
    ssize_t n = write(fd, text, strlen(text));
    int err = n < 0 ? errno : 0;
    close(fd);
    return n < 0 ? -err : 0;
}

/* ---- cgroups: a child of each --cgroup DIR, made by the keeper ---- */

static void cleanup(void)
{
    for (int i = 0; i < ncgroups; i++)
        for (int tries = 0; rmdir(cgroups[i]) < 0 && errno == EBUSY && tries < RMDIR_TRIES;
             tries++) {
            struct timespec t = {0, RMDIR_PAUSE_NS};
            nanosleep(&t, NULL);
        }
    ncgroups = 0;
    if (tmpdir[0]) {
        tx_proc_remove_tree(tmpdir);
        say("tmp-removed");
    }
    tmpdir[0] = '\0';
}

/* Whether path, the --tmpdir the referee lends (bot.c's spares), is one
 * of its TMPDIRs, still as mkdtemp made it, and empty. A new one costs a mkdir on the bot's
 * way to its first turn (0.1 to 1 ms on ext4), and its rmdir later; one
 * that is not reusable is the referee's to remove (it said "tmp" of it). */
static bool reusable_tmpdir(const char *path, long owner)
{
    char prefix[64];
    int n = snprintf(prefix, sizeof prefix, "/tmp/twixt-bot-%ld-", owner);
    return path && !strncmp(path, prefix, (size_t)n) && !strchr(path + n, '/') &&
           strlen(path) < sizeof tmpdir && tx_proc_tmpdir_reusable(path);
}

/* Writes value into dir/name; a file the controller does not have (another
 * cgroup version, another hierarchy) is skipped. */
static void set_cgroup(const char *dir, const char *name, const char *value)
{
    char path[PATH_MAX + 32];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    int e = write_file(path, value);
    if (e < 0 && e != -ENOENT)
        fail("cannot set %s: %s", path, strerror(-e));
}

static bool has_file(const char *dir, const char *name)
{
    char path[PATH_MAX + 32];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return access(path, F_OK) == 0;
}

/* The first line of dir/name, "" when it cannot be read. */
static void read_cgroup(const char *dir, const char *name, char *buf, size_t cap)
{
    char path[PATH_MAX + 32];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    ssize_t n = fd >= 0 ? read(fd, buf, cap - 1) : -1;
    if (fd >= 0)
        close(fd);
    buf[n > 0 ? n : 0] = '\0';
    buf[strcspn(buf, "\n")] = '\0';
}

/* The CPU controller's settings in the bot's cgroup dir: the quota (v1
 * cfs_period_us and cfs_quota_us, v2 cpu.max), then the file the referee
 * writes to while the bot is not on move (cpu.idle since Linux 5.15, else
 * the smallest weight). Without a quota, neither. */
static void set_cpu(const struct launch *l, const char *dir)
{
    if (l->cpus <= 0)
        return;
    char value[64];
    long long quota = (long long)(l->cpus * CPU_PERIOD_US + 0.5);
    snprintf(value, sizeof value, "%d", CPU_PERIOD_US);
    set_cgroup(dir, "cpu.cfs_period_us", value);
    snprintf(value, sizeof value, "%lld", quota);
    set_cgroup(dir, "cpu.cfs_quota_us", value);
    snprintf(value, sizeof value, "%lld %d", quota, CPU_PERIOD_US);
    set_cgroup(dir, "cpu.max", value);
    static const char *const idle[][3] = {
        {"cpu.idle", "1", "0"}, {"cpu.weight", "1", "100"}, {"cpu.shares", "2", "1024"}};
    for (size_t k = 0; k < sizeof idle / sizeof idle[0]; k++)
        if (has_file(dir, idle[k][0])) {
            say("idle %s/%s %s %s", dir, idle[k][0], idle[k][1], idle[k][2]);
            return;
        }
}

/* The pinned cores as the only ones of the bot's cpuset (v1 also wants
 * its memory nodes: the parent's). */
static void set_cpuset(const struct launch *l, const char *parent, const char *dir)
{
    char list[4096] = "", mems[256];
    size_t len = 0;
    for (int c = 0; c < CPU_SETSIZE && len + 16 < sizeof list; c++)
        if (CPU_ISSET(c, &l->cores))
            len += (size_t)snprintf(list + len, sizeof list - len, "%s%d", len ? "," : "", c);
    read_cgroup(parent, "cpuset.mems", mems, sizeof mems);
    if (!mems[0])
        read_cgroup(parent, "cpuset.effective_mems", mems, sizeof mems);
    if (!mems[0])
        read_cgroup(parent, "cpuset.mems.effective", mems, sizeof mems);
    if (mems[0])
        set_cgroup(dir, "cpuset.mems", mems);
    set_cgroup(dir, "cpuset.cpus", list);
    cpuset_pinned = true;
}

/* Creates the bot's cgroup under each DIR and sets what that controller
 * limits (memory without swap, tasks, CPU, cores); returns the
 * descriptors (tasks, or cgroup.procs) the bot's first process writes
 * itself into. */
static int make_cgroups(const struct launch *l, int *procs)
{
    unsigned salt = (unsigned)time(NULL) ^ ((unsigned)getpid() << 12);
    for (int i = 0; i < l->ncgroup; i++) {
        char *dir = cgroups[ncgroups];
        int r = -1;
        for (int tries = 0; r < 0 && tries < 16; tries++) {
            snprintf(dir, PATH_MAX, "%s/twixt-bot-%d-%x", l->cgroup[i], (int)getpid(),
                     salt + (unsigned)tries);
            r = mkdir(dir, 0755);
            if (r < 0 && errno != EEXIST)
                fail("cannot create the bot's cgroup %s: %s", dir, strerror(errno));
        }
        if (r < 0)
            fail("cannot create the bot's cgroup under %s", l->cgroup[i]);
        ncgroups++;
        char path[PATH_MAX + 32], value[32];
        snprintf(value, sizeof value, "%lld", (long long)l->memory_mb << 20);
        /* cgroup v1 wants memory before memory+swap; v2 has one file each. */
        static const char *const memory[] = {"memory.limit_in_bytes", "memory.memsw.limit_in_bytes",
                                             "memory.max", "memory.swap.max"};
        for (size_t k = 0; l->memory_mb > 0 && k < sizeof memory / sizeof memory[0]; k++) {
            snprintf(path, sizeof path, "%s/%s", dir, memory[k]);
            int e = write_file(path, !strcmp(memory[k], "memory.swap.max") ? "0" : value);
            if (e < 0 && e != -ENOENT)
                fail("cannot set %s: %s", path, strerror(-e));
        }
        snprintf(path, sizeof path, "%s/pids.max", dir);
        snprintf(value, sizeof value, "%ld", l->tasks);
        int e = l->tasks > 0 ? write_file(path, value) : 0;
        if (e < 0 && e != -ENOENT)
            fail("cannot set %s: %s", path, strerror(-e));
        if (has_file(dir, "cpu.cfs_quota_us") || has_file(dir, "cpu.max"))
            set_cpu(l, dir);
        if (l->pinned && has_file(dir, "cpuset.cpus"))
            set_cpuset(l, l->cgroup[i], dir);
        /* The sandbox's init joins while it is a single thread, so v1's
         * tasks file (the thread) moves the whole process, and without
         * the global lock a cgroup.procs write takes (an RCU grace period:
         * 4 to 12 ms on a VM, on every bot's start); v2 has cgroup.procs
         * only. */
        snprintf(path, sizeof path, "%s/tasks", dir);
        if ((procs[i] = open(path, O_WRONLY | O_CLOEXEC)) < 0 && errno == ENOENT) {
            snprintf(path, sizeof path, "%s/cgroup.procs", dir);
            procs[i] = open(path, O_WRONLY | O_CLOEXEC);
        }
        if (procs[i] < 0)
            fail("cannot open %s: %s", path, strerror(errno));
    }
    return l->ncgroup;
}

/* dir/name of the bot's i-th cgroup into buf; false when it does not fit. */
static bool cgroup_file(char *buf, size_t cap, int i, const char *name)
{
    return (size_t)snprintf(buf, cap, "%s/%s", cgroups[i], name) < cap;
}

/* True when the kernel killed something of the bot for its memory limit. */
static bool hit_memory_limit(void)
{
    static const char *const files[] = {"memory.oom_control", "memory.events"};
    for (int i = 0; i < ncgroups; i++)
        for (size_t k = 0; k < 2; k++) {
            char path[PATH_MAX + 32], buf[1024];
            int fd =
                cgroup_file(path, sizeof path, i, files[k]) ? open(path, O_RDONLY | O_CLOEXEC) : -1;
            if (fd < 0)
                continue;
            ssize_t n = read(fd, buf, sizeof buf - 1);
            close(fd);
            buf[n > 0 ? n : 0] = '\0';
            const char *p = strstr(buf, "oom_kill ");
            if (p && atol(p + 9) > 0)
                return true;
        }
    return false;
}

/* ---- the sandbox's file system (in the bot's own mount namespace) ---- */

static void must(int r, const char *what, const char *path)
{
    if (r < 0)
        fail("cannot set up the sandbox: %s %s: %s", what, path, strerror(errno));
}

static int clone_tree(const char *path, bool recursive)
{
    return (int)syscall(SYS_open_tree, AT_FDCWD, path,
                        OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | (recursive ? AT_RECURSIVE : 0));
}

static int set_attr(int dfd, const char *path, unsigned flags, uint64_t attr)
{
    struct mount_attr a = {.attr_set = attr};
    return (int)syscall(SYS_mount_setattr, dfd, path, flags, &a, sizeof a);
}

static int move_tree(int fd, const char *to)
{
    return (int)syscall(SYS_move_mount, fd, "", AT_FDCWD, to, MOVE_MOUNT_F_EMPTY_PATH);
}

/* mkdir -p of path's parents (in the fresh /tmp). */
static void make_parents(const char *path)
{
    char buf[PATH_MAX];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *p = buf + 1; (p = strchr(p, '/')); p++) {
        *p = '\0';
        mkdir(buf, 0755);
        *p = '/';
    }
}

static void make_mount_point(const char *path, bool dir)
{
    make_parents(path);
    if (dir) {
        if (mkdir(path, 0755) < 0 && errno != EEXIST)
            must(-1, "mkdir", path);
    } else {
        int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
        must(fd, "create", path);
        close(fd);
    }
}

static void setup_filesystem(const struct launch *l)
{
    static const char *const devices[] = {"null", "zero", "full", "random", "urandom"};
    enum { NDEV = sizeof devices / sizeof devices[0] };
    int dev[NDEV], keep[LIST_MAX], writable[LIST_MAX];
    bool keep_dir[LIST_MAX];
    char cwd[PATH_MAX], path[PATH_MAX + 16];

    if (!getcwd(cwd, sizeof cwd))
        snprintf(cwd, sizeof cwd, "/");
    /* Nothing done here propagates back to the referee's view. */
    must(mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL), "make private", "/");
    /* What must stay visible under the fresh /dev and /tmp, taken first. */
    for (int i = 0; i < NDEV; i++) {
        snprintf(path, sizeof path, "/dev/%s", devices[i]);
        must(dev[i] = clone_tree(path, false), "bind", path);
    }
    for (int i = 0; i < l->nkeep; i++) {
        struct stat st;
        keep[i] = -1;
        if (stat(l->keep[i], &st) < 0)
            continue;
        keep_dir[i] = S_ISDIR(st.st_mode);
        must(keep[i] = clone_tree(l->keep[i], keep_dir[i]), "bind", l->keep[i]);
        must(set_attr(keep[i], "", AT_EMPTY_PATH | AT_RECURSIVE,
                      MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID),
             "make read-only", l->keep[i]);
    }
    /* The directories it may write to, as they are (not made read-only). */
    for (int i = 0; i < l->nwritable; i++)
        must(writable[i] = clone_tree(l->writable[i], true), "bind", l->writable[i]);
    /* A /proc of the bot's own PID namespace: its processes only. */
    must(mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL), "mount", "/proc");
    /* Every file system read-only, /proc included. */
    must(set_attr(AT_FDCWD, "/", AT_RECURSIVE, MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID),
         "make read-only", "/");
    /* A minimal /dev: no terminals, no shared memory of others. */
    must(mount("tmpfs", "/dev", "tmpfs", MS_NOSUID | MS_NOEXEC, "mode=0755,size=64k"), "mount",
         "/dev");
    for (int i = 0; i < NDEV; i++) {
        snprintf(path, sizeof path, "/dev/%s", devices[i]);
        make_mount_point(path, false);
        must(move_tree(dev[i], path), "bind", path);
        close(dev[i]);
    }
    static const char *const links[][2] = {{"/proc/self/fd", "/dev/fd"},
                                           {"/proc/self/fd/0", "/dev/stdin"},
                                           {"/proc/self/fd/1", "/dev/stdout"},
                                           {"/proc/self/fd/2", "/dev/stderr"},
                                           {"/tmp", "/dev/shm"}};
    for (size_t i = 0; i < sizeof links / sizeof links[0]; i++)
        must(symlink(links[i][0], links[i][1]), "symlink", links[i][1]);
    must(set_attr(AT_FDCWD, "/dev", AT_RECURSIVE, MOUNT_ATTR_RDONLY), "make read-only", "/dev");
    /* The bot's own /tmp, gone with its mount namespace at the end. */
    char options[64];
    snprintf(options, sizeof options, "mode=1777,size=%ldm", l->tmp_mb > 0 ? l->tmp_mb : 1);
    must(mount("tmpfs", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV, options), "mount", "/tmp");
    for (int i = 0; i < l->nkeep; i++)
        if (keep[i] >= 0) {
            make_mount_point(l->keep[i], keep_dir[i]);
            must(move_tree(keep[i], l->keep[i]), "bind", l->keep[i]);
            close(keep[i]);
        }
    for (int i = 0; i < l->nwritable; i++) {
        make_mount_point(l->writable[i], true);
        must(set_attr(writable[i], "", AT_EMPTY_PATH | AT_RECURSIVE, MOUNT_ATTR_NOSUID), "bind",
             l->writable[i]);
        must(move_tree(writable[i], l->writable[i]), "bind", l->writable[i]);
        close(writable[i]);
    }
    /* Sockets of daemons and of the user's session live in /run: even a
     * read-only mount lets a process connect to them. */
    struct stat st;
    if (stat("/run", &st) == 0 && S_ISDIR(st.st_mode))
        must(mount("tmpfs", "/run", "tmpfs", MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC,
                   "mode=0755,size=4k"),
             "mount", "/run");
    /* The records file and the opponent's files. */
    for (int i = 0; i < l->nhide; i++) {
        if (stat(l->hide[i], &st) < 0 || S_ISDIR(st.st_mode))
            continue;
        must(mount("/dev/null", l->hide[i], NULL, MS_BIND, NULL), "hide", l->hide[i]);
        must(set_attr(AT_FDCWD, l->hide[i], 0, MOUNT_ATTR_RDONLY), "hide", l->hide[i]);
    }
    /* The working directory as this namespace now shows it. */
    if (chdir(cwd) < 0)
        must(chdir("/"), "chdir", "/");
}

/* The loopback of the bot's own network namespace: up, and nothing else. */
static void loopback_up(void)
{
    int s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (s < 0)
        return;
    struct ifreq ifr;
    memset(&ifr, 0, sizeof ifr);
    snprintf(ifr.ifr_name, sizeof ifr.ifr_name, "lo");
    if (ioctl(s, SIOCGIFFLAGS, &ifr) == 0) {
        ifr.ifr_flags |= IFF_UP | IFF_RUNNING;
        ioctl(s, SIOCSIFFLAGS, &ifr);
    }
    close(s);
}

/* No capability now, none on any later exec (not even as uid 0). */
static void drop_capabilities(void)
{
    if (prctl(PR_SET_SECUREBITS,
              SECBIT_NOROOT | SECBIT_NOROOT_LOCKED | SECBIT_NO_SETUID_FIXUP |
                  SECBIT_NO_SETUID_FIXUP_LOCKED | SECBIT_KEEP_CAPS_LOCKED |
                  SECBIT_NO_CAP_AMBIENT_RAISE | SECBIT_NO_CAP_AMBIENT_RAISE_LOCKED,
              0, 0, 0) < 0)
        fail("cannot set up the sandbox: securebits: %s", strerror(errno));
    for (int cap = 0; cap <= 63; cap++)
        if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) < 0 && errno != EINVAL)
            fail("cannot set up the sandbox: dropping capability %d: %s", cap, strerror(errno));
    prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
    struct __user_cap_header_struct head = {.version = _LINUX_CAPABILITY_VERSION_3, .pid = 0};
    struct __user_cap_data_struct data[2];
    memset(data, 0, sizeof data);
    if (syscall(SYS_capset, &head, data) < 0)
        fail("cannot set up the sandbox: capset: %s", strerror(errno));
}

/* ---- the bot itself ---- */

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
    cannot_run("cannot run '%s': its interpreter '%s' was not found", program, interp);
}

static void default_signals(void)
{
    for (int s = 1; s < NSIG; s++)
        if (s != SIGKILL && s != SIGSTOP)
            signal(s, SIG_DFL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
}

/* ---- the bot's stdin, stdout and stderr are its own ---- */

/* The bot's parent (the keeper, or the sandbox's init) forks it while
 * holding the same stdin, stdout and stderr, the referee's pipes. Until
 * the parent lets go of them, a bot that closes its stdin (or stdout) does
 * not close the pipe, and the referee does not see it do so: a write to
 * its input still succeeds, its output's end is not seen. So the parent
 * puts /dev/null in their place and then closes its end of `ready`, and
 * the bot waits for that just before it execs (wait_until_alone), after
 * everything else it sets up: a few system calls of the parent's, done by
 * then. null is /dev/null, opened by the parent before it forked the bot:
 * the sandbox's init shares the bot's mount namespace, and opened later it
 * could find, while the bot builds its /dev, the empty regular file that
 * becomes /dev/null's mount point, and hold it open for writing, so that
 * the bot's /dev could not be made read-only ("cannot set up the sandbox:
 * make read-only /dev: Device or resource busy", about one sandboxed start
 * in 1,000 at two games at once). */
static void let_go_of_stdio(int null, int ready)
{
    for (int fd = 0; fd <= 2; fd++)
        if (null < 0 || dup2(null, fd) < 0)
            close(fd);
    if (null > 2)
        close(null);
    if (ready >= 0)
        close(ready);
}

/* In the bot: until the parent closed the other end of ready (or died). */
static void wait_until_alone(int ready)
{
    char byte;
    while (read(ready, &byte, 1) < 0 && errno == EINTR)
        ;
    close(ready);
}

/* In the bot's process, parent already set: limits, then exec once the
 * bot's stdio is its own (ready: wait_until_alone). */
static __attribute__((noreturn)) void run_bot(const struct launch *l, bool cgroup_memory, int ready)
{
    default_signals();
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0)
        fail("cannot set the parent death signal: %s", strerror(errno));
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
        fail("cannot set no_new_privs: %s", strerror(errno));
    if (l->memory_mb > 0 && !cgroup_memory)
        set_limit(RLIMIT_DATA, (rlim_t)l->memory_mb << 20, "memory");
    if (l->cpu_s > 0)
        set_limit(RLIMIT_CPU, (rlim_t)l->cpu_s, "CPU time");
    if (l->fsize_mb > 0)
        set_limit(RLIMIT_FSIZE, (rlim_t)l->fsize_mb << 20, "file size");
    set_limit(RLIMIT_CORE, 0, "core file");
    /* Counted in the bot's own user namespace; root is never bounded. */
    if (l->sandbox && l->tasks > 0 && ncgroups == 0 && getuid() != 0)
        set_limit(RLIMIT_NPROC, (rlim_t)l->tasks, "process");
    if (l->pinned && !cpuset_pinned && sched_setaffinity(0, sizeof l->cores, &l->cores) < 0)
        fail("cannot pin the bot to its cores: %s", strerror(errno));
    /* Below the referee, so its clock is read on time when bots keep every
     * core busy. nice() may legitimately return -1, hence errno. */
    if (l->nice > 0) {
        errno = 0;
        if (nice((int)(l->nice > 19 ? 19 : l->nice)) == -1 && errno)
            fail("cannot lower the priority: %s", strerror(errno));
    }
    if (l->sandbox)
        drop_capabilities();
    else if (tmpdir[0])
        setenv("TMPDIR", tmpdir, 1);
    if (l->probe)
        _exit(0); /* everything but the bot itself worked */
    wait_until_alone(ready);
    execvp(l->argv[0], l->argv);
    int err = errno;
    explain_missing_interpreter(l->argv[0], err);
    cannot_run("cannot run '%s': %s", l->argv[0], strerror(err));
}

/* pid 2 of the sandbox: says its pid as the referee sees it, builds its
 * view of the file system, becomes the bot (ready: run_bot). */
static __attribute__((noreturn)) void sandboxed_bot(const struct launch *l, bool cgroup_memory,
                                                    int ready)
{
    /* Still the referee's /proc here, so "self" is our pid out there. */
    char self[32];
    ssize_t n = readlink("/proc/self", self, sizeof self - 1);
    if (n > 0) {
        self[n] = '\0';
        say("pid %s", self);
    }
    if (getppid() != 1)
        fail("the sandbox's init has gone");
    if (l->inject_fault)
        fail("cannot set up the sandbox: injected by TWIXT_LAUNCH_FAULT (a test)");
    setup_filesystem(l);
    if (!l->network && !netns_entered)
        loopback_up();
    if (sethostname("twixt-bot", 9) < 0)
        fail("cannot set up the sandbox: hostname: %s", strerror(errno));
    run_bot(l, cgroup_memory, ready);
}

/* ---- pid 1 of the sandbox ---- */

/* Reaps everything in the namespace; tells the keeper how the bot ended
 * (its raw wait status on report), then waits to be killed: its exit would
 * kill every process left in the namespace before the keeper had a look. */
static __attribute__((noreturn)) void sandbox_init(const struct launch *l, int go, int report,
                                                   const int *procs, int nprocs, bool cgroup_memory)
{
    char byte;
    if (read(go, &byte, 1) != 1) /* the keeper has written our user mappings */
        _exit(EXIT_CANNOT_RUN);
    for (int i = 0; i < nprocs; i++) {
        if (write(procs[i], "0", 1) < 0)
            fail("cannot join the bot's cgroup: %s", strerror(errno));
        close(procs[i]);
    }
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    struct pollfd alive = {.fd = go, .events = POLLIN};
    if (poll(&alive, 1, 0) > 0 && (alive.revents & (POLLHUP | POLLERR)))
        _exit(EXIT_CANNOT_RUN); /* the keeper died before the death signal was set */
    prctl(PR_SET_DUMPABLE, 0);  /* nobody in here may ptrace or read us */
    int ready[2];
    if (pipe2(ready, O_CLOEXEC) < 0)
        fail("cannot create pipes: %s", strerror(errno));
    int null = open("/dev/null", O_RDWR | O_CLOEXEC); /* before the bot's /dev */
    pid_t bot = fork();
    if (bot < 0)
        fail("cannot fork the bot: %s", strerror(errno));
    if (bot == 0) {
        close(go);
        close(report);
        close(ready[1]);
        if (null >= 0)
            close(null);
        sandboxed_bot(l, cgroup_memory, ready[0]);
    }
    close(ready[0]);
    close(status_fd);
    let_go_of_stdio(null, ready[1]);
    for (;;) {
        int st;
        pid_t pid = waitpid(-1, &st, 0);
        if (pid == bot) {
            ssize_t w = write(report, &st, sizeof st);
            (void)w;
        } else if (pid < 0 && errno == ECHILD) {
            poll(&alive, 1, -1); /* until the keeper goes */
            _exit(0);
        }
    }
}

/* ---- the keeper ---- */

/* The test hook of TWIXT_LAUNCH_FAULT=N:DIR (see the top of this file):
 * true when this start takes one of the N faults. */
static bool take_injected_fault(void)
{
    const char *hook = getenv("TWIXT_LAUNCH_FAULT");
    char *end;
    long n = hook ? strtol(hook, &end, 10) : 0;
    if (!hook || *end != ':' || n < 1)
        return false;
    for (long k = 1; k <= n; k++) {
        char path[PATH_MAX];
        snprintf(path, sizeof path, "%s/fault-%ld", end + 1, k);
        int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
        if (fd >= 0) {
            close(fd);
            return true;
        }
    }
    return false;
}

static pid_t child;      /* the bot, or the sandbox's init */
static bool child_done;  /* reaped */
static int child_status; /* its wait status */
static bool bot_done;    /* the bot's own ending is known */
static int bot_status;   /* ... and this is it */

static void reap(void)
{
    int st;
    pid_t pid;
    while ((pid = waitpid(-1, &st, WNOHANG)) > 0)
        if (pid == child) {
            child_done = true;
            child_status = st;
        }
}

/* Kills every descendant, whatever it did to hide, until none is left:
 * as subreaper the keeper adopts every orphan, so "no child" is "nothing
 * left". A process forked while a round runs is found by the next, which
 * starts as soon as a child dies (the sandbox's init takes a moment: its
 * namespace goes with it), or after SWEEP_PAUSE_NS. */
static void sweep(void)
{
    sigset_t chld;
    sigemptyset(&chld);
    sigaddset(&chld, SIGCHLD);
    for (;;) {
        tx_proc_kill_descendants(getpid());
        reap();
        pid_t pid = waitpid(-1, NULL, WNOHANG);
        if (pid < 0 && errno == ECHILD)
            return;
        /* SIGCHLD is blocked: one of a death since reap() is pending. */
        struct timespec t = {0, SWEEP_PAUSE_NS};
        if (pid == 0)
            sigtimedwait(&chld, NULL, &t);
    }
}

/* The processes the bot left running (validate's "children" finding). */
static void report_left(void)
{
    int *pids = NULL, total = 0;
    int n = tx_proc_descendants(getpid(), &pids);
    for (int i = 1; i < n; i++) {
        char state, comm[32];
        /* The sandbox's init is ours, not the bot's; zombies are gone. */
        if (pids[i] == child || tx_proc_stat(pids[i], &state, comm, sizeof comm) < 0 ||
            state == 'Z' || state == 'X')
            continue;
        if (total++ < LEFT_REPORTED)
            say("left %d %s", pids[i], comm);
    }
    free(pids);
    if (total > 0)
        say("left-total %d", total);
}

/* Ends the way the bot ended, for libuv: its exit status, or its signal. */
static __attribute__((noreturn)) void mirror(int st)
{
    if (WIFSIGNALED(st)) {
        int sig = WTERMSIG(st);
        prctl(PR_SET_DUMPABLE, 0); /* no core file of ours */
        signal(sig, SIG_DFL);
        sigset_t set;
        sigemptyset(&set);
        sigaddset(&set, sig);
        sigprocmask(SIG_UNBLOCK, &set, NULL);
        raise(sig);
        _exit(128 + sig);
    }
    _exit(WIFEXITED(st) ? WEXITSTATUS(st) : EXIT_CANNOT_RUN);
}

static void write_map(pid_t pid, const char *file, const char *text)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/%s", (int)pid, file);
    int e = write_file(path, text);
    if (e < 0)
        fail("cannot set up the sandbox: %s: %s", path, strerror(-e));
}

static int64_t now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* The keeper: everything above, for one bot. */
static int keep(int argc, char **argv)
{
    struct launch l;
    keeper = getpid();
    parse(argc, argv, &l);

    /* The status channel must not reach the bot, and neither may anything
     * else the referee's process had open by accident. */
    if (status_fd >= 0)
        fcntl(status_fd, F_SETFD, FD_CLOEXEC);
#ifdef SYS_close_range
    syscall(SYS_close_range, (unsigned)(status_fd > 2 ? status_fd + 1 : 3), ~0U, 4U /* CLOEXEC */);
#endif

    /* The keeper takes its signals from a descriptor, between polls. SIGHUP
     * is its parent death signal: the referee is gone. */
    sigset_t mask;
    sigemptyset(&mask);
    static const int handled[] = {SIGCHLD, SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2};
    for (size_t i = 0; i < sizeof handled / sizeof handled[0]; i++)
        sigaddset(&mask, handled[i]);
    sigprocmask(SIG_BLOCK, &mask, NULL);
    /* A referee killed with kill -9 leaves our status channel without a
     * reader: saying something then must not kill us before the cleanup
     * (the bot gets every signal back to its default: run_bot). */
    signal(SIGPIPE, SIG_IGN);
    int sfd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
    if (sfd < 0)
        fail("cannot create a signalfd: %s", strerror(errno));
    if (prctl(PR_SET_PDEATHSIG, SIGHUP) < 0)
        fail("cannot set the parent death signal: %s", strerror(errno));
    pid_t referee = getppid();
    if (l.parent > 0 && referee != (pid_t)l.parent)
        fail("the referee has gone");
    /* Every orphan of the bot's family becomes the keeper's child. */
    if (prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) < 0)
        fail("cannot become a child subreaper: %s", strerror(errno));

    l.inject_fault = l.sandbox && !l.probe && take_injected_fault();
    unsetenv("TWIXT_LAUNCH_FAULT");
    int procs[LIST_MAX];
    int nprocs = l.sandbox ? make_cgroups(&l, procs) : 0;
    bool cgroup_memory = false;
    for (int i = 0; i < ncgroups && l.memory_mb > 0; i++) {
        char path[PATH_MAX + 32];
        cgroup_memory |= cgroup_file(path, sizeof path, i, "memory.max") && access(path, F_OK) == 0;
        cgroup_memory |=
            cgroup_file(path, sizeof path, i, "memory.limit_in_bytes") && access(path, F_OK) == 0;
    }

    int go[2] = {-1, -1}, report[2] = {-1, -1};
    if (l.sandbox) {
        if (pipe2(go, O_CLOEXEC) < 0 || pipe2(report, O_CLOEXEC) < 0)
            fail("cannot create pipes: %s", strerror(errno));
        /* A network namespace of the server's pool (serve()), entered
         * here so that the init is born in it, or a new one. */
        netns_entered = !l.network && pooled_netns >= 0 && setns(pooled_netns, CLONE_NEWNET) == 0;
        if (pooled_netns >= 0)
            close(pooled_netns);
        unsigned long flags = CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNS | CLONE_NEWIPC |
                              CLONE_NEWUTS | CLONE_NEWCGROUP |
                              (l.network || netns_entered ? 0 : CLONE_NEWNET);
        child = (pid_t)syscall(SYS_clone, flags | SIGCHLD, NULL, NULL, NULL, NULL);
        if (child < 0 && (errno == EPERM || errno == ENOSPC || errno == EINVAL))
            fail("cannot create the sandbox's namespaces: user namespaces are not available to "
                 "this user (%s; see the sysctls user.max_user_namespaces and "
                 "kernel.unprivileged_userns_clone)",
                 strerror(errno));
        if (child < 0)
            fail("cannot create the sandbox's namespaces: %s", strerror(errno));
        if (child == 0) {
            close(go[1]);
            close(report[0]);
            close(sfd);
            sandbox_init(&l, go[0], report[1], procs, nprocs, cgroup_memory);
        }
        close(go[0]);
        close(report[1]);
        for (int i = 0; i < nprocs; i++)
            close(procs[i]);
        /* The bot is the user inside, as outside: same uid, same gid. */
        char map[64];
        write_map(child, "setgroups", "deny");
        snprintf(map, sizeof map, "%d %d 1\n", (int)getgid(), (int)getgid());
        write_map(child, "gid_map", map);
        snprintf(map, sizeof map, "%d %d 1\n", (int)getuid(), (int)getuid());
        write_map(child, "uid_map", map);
        /* The init forks the bot once it reads "g": the keeper's copies of
         * the bot's stdio are gone by then, the init's go next. */
        let_go_of_stdio(open("/dev/null", O_RDWR | O_CLOEXEC), -1);
        if (write(go[1], "g", 1) != 1)
            fail("cannot start the sandbox: %s", strerror(errno));
    } else {
        /* A private TMPDIR, removed with the game (its contents) and with
         * the run (the directory). Named after the referee, which removes
         * it if we are killed first. */
        long owner = l.parent > 0 ? l.parent : (long)referee;
        snprintf(tmpdir, sizeof tmpdir, "/tmp/twixt-bot-%ld-XXXXXX", owner);
        if (reusable_tmpdir(l.tmpdir, owner))
            snprintf(tmpdir, sizeof tmpdir, "%s", l.tmpdir);
        else if (!mkdtemp(tmpdir))
            tmpdir[0] = '\0';
        if (tmpdir[0])
            say("tmp %s", tmpdir);
        int ready[2];
        if (pipe2(ready, O_CLOEXEC) < 0)
            fail("cannot create pipes: %s", strerror(errno));
        child = fork();
        if (child < 0)
            fail("cannot fork the bot: %s", strerror(errno));
        if (child == 0) {
            close(sfd);
            close(ready[1]);
            if (getppid() != keeper)
                fail("the launcher has gone");
            run_bot(&l, false, ready[0]);
        }
        close(ready[0]);
        say("pid %d", (int)child);
        let_go_of_stdio(open("/dev/null", O_RDWR | O_CLOEXEC), ready[1]);
    }
    /* From here the bot talks to the referee directly: the keeper holds
     * none of its pipes (let_go_of_stdio). */

    bool stopping = false, swept = false;
    int64_t deadline = 0;
    while (!bot_done) {
        struct pollfd fds[2] = {{.fd = sfd, .events = POLLIN}, {.fd = report[0], .events = POLLIN}};
        int timeout = -1;
        if (stopping) {
            int64_t left = deadline - now_ms();
            timeout = left > 0 ? (int)left : 0;
        }
        int r = poll(fds, report[0] >= 0 ? 2 : 1, timeout);
        if (r < 0 && errno != EINTR)
            fail("poll: %s", strerror(errno));
        if (r > 0 && fds[0].revents) {
            struct signalfd_siginfo si;
            while (read(sfd, &si, sizeof si) == sizeof si) {
                if (si.ssi_signo == SIGHUP && getppid() != referee) {
                    sweep(); /* the referee is gone: so is the game */
                    cleanup();
                    _exit(EXIT_CANNOT_RUN);
                }
                if (si.ssi_signo != SIGCHLD && si.ssi_signo != SIGHUP && !stopping) {
                    stopping = true; /* the bot got the same signal from its group */
                    deadline = now_ms() + l.term_grace_ms;
                }
            }
            reap();
        }
        if (r > 0 && report[0] >= 0 && fds[1].revents) {
            int st;
            ssize_t n = read(report[0], &st, sizeof st);
            if (n == sizeof st) {
                bot_done = true;
                bot_status = st;
            } else {
                close(report[0]); /* the sandbox's init is gone */
                report[0] = -1;
            }
        }
        if (!l.sandbox && child_done) {
            bot_done = true;
            bot_status = child_status;
        }
        if (l.sandbox && child_done && report[0] < 0 && !bot_done) {
            /* The init ended before the bot could be reported: it failed
             * (its "error" line says why) or was killed with everything. */
            bot_done = true;
            bot_status = child_status;
        }
        if (stopping && !bot_done && now_ms() >= deadline) {
            swept = true;
            sweep(); /* the grace is over */
            if (!l.sandbox) {
                bot_done = true;
                bot_status = child_done ? child_status : SIGKILL;
            }
        }
    }
    /* Its end was its own doing unless we killed it, or it died of the
     * referee's SIGTERM: the referee may have seen its stdout close first
     * and stopped it, and must not take an OOM kill for its own. */
    if (!swept && !(stopping && WIFSIGNALED(bot_status) && WTERMSIG(bot_status) == SIGTERM))
        say("self");
    if (!stopping)
        report_left();
    sweep();
    /* The kernel's OOM kill is a SIGKILL: only then is it worth a look. */
    if (WIFSIGNALED(bot_status) && WTERMSIG(bot_status) == SIGKILL && hit_memory_limit())
        say("oom");
    /* The TMPDIR is the referee's to remove, off the game's end (removing
     * even an empty directory takes a millisecond on ext4); unless it is
     * gone already. A referee killed with SIGKILL closes its descriptors
     * before its children learn of its death: a bot that ended on its
     * stdin's EOF may be reaped here while getppid() still names it, but
     * the line below then finds no reader. */
    if (tmpdir[0])
        say("tmp-yours");
    if (getppid() == referee && !status_lost)
        tmpdir[0] = '\0';
    cleanup();
    mirror(bot_status);
}

/* ---- the fork server ---- */

/* In the server's child: the keeper, in the state posix_spawn would have
 * given it (its own session, the request's descriptors as 0 to 3, the
 * request's directory and environment). fds[4], when there, is the
 * directory. Never returns. */
static __attribute__((noreturn)) void become_keeper(const int *fds, int nfds, int netns,
                                                    char **argv, char **envp)
{
    for (int i = 0; i < 4; i++) /* the server's copies are all above 3 */
        if (dup2(fds[i], i) < 0)
            _exit(EXIT_CANNOT_RUN);
    for (int i = 0; i < nfds; i++)
        if (i < 4 || fchdir(fds[i]) == 0)
            close(fds[i]);
        else
            _exit(EXIT_CANNOT_RUN);
    /* Nothing else of the server's (its pool) stays open in the keeper;
     * the lent namespace is close-on-exec, so that it reaches no bot
     * whatever the keeper does with it (the referee's request says it
     * wants one: TX_PROC_LAUNCH_NETNS). */
    if (netns >= 0 && dup3(netns, 4, O_CLOEXEC) == 4)
        pooled_netns = 4;
    syscall(SYS_close_range, pooled_netns == 4 ? 5U : 4U, ~0U, 0U);
    if (setsid() < 0)
        _exit(EXIT_CANNOT_RUN);
    environ = envp;
    int argc = 0;
    while (argv[argc])
        argc++;
    _exit(keep(argc, argv));
}

/* The server's network namespaces: each an empty one (its loopback up),
 * lent to one sandboxed keeper at a time and taken back once that keeper
 * has exited, that is once everything in its sandbox is dead (its sweep;
 * or, killed, the init's parent death signal): two bots never share one,
 * and a bot finds nothing of the one before (its sockets, abstract ones
 * included, went with its processes). Making one takes the kernel half a
 * millisecond of CPU and its teardown as much: a run of many games makes
 * as many as it runs bots at once. They are owned by the server's user
 * namespace, so the bots (in user namespaces of their own) may not change
 * them. Only where the server may make them (CAP_SYS_ADMIN: root); a
 * keeper without one makes its own (CLONE_NEWNET), as every keeper did. */
#define NETNS_MAX 64
static struct {
    int ns;     /* the namespace */
    int keeper; /* a pidfd of the keeper it is lent to, -1 free, -2 lent for good */
} netns[NETNS_MAX];
static int nnetns;
static bool netns_refused;

/* A new empty network namespace with its loopback up (made by a child of
 * ours, which the server then lets go), or -1. */
static int make_netns(void)
{
    int ready[2];
    if (pipe2(ready, O_CLOEXEC) < 0)
        return -1;
    pid_t pid = fork();
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        char ok = unshare(CLONE_NEWNET) == 0 ? '1' : '0';
        if (ok == '1')
            loopback_up();
        if (write(ready[1], &ok, 1) == 1)
            pause(); /* until the server has opened the namespace */
        _exit(0);
    }
    close(ready[1]);
    char ok = '0';
    int ns = -1;
    if (pid > 0 && read(ready[0], &ok, 1) == 1 && ok == '1') {
        char path[64];
        snprintf(path, sizeof path, "/proc/%d/ns/net", (int)pid);
        ns = open(path, O_RDONLY | O_CLOEXEC);
    }
    close(ready[0]);
    if (pid > 0) {
        kill(pid, SIGKILL);
        while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
            ;
    }
    return ns;
}

/* A namespace of the pool no keeper is using (made when none is free), or
 * -1 when there is none to be had. */
static int lend_netns(void)
{
    for (int i = 0; i < nnetns; i++) {
        struct pollfd gone = {.fd = netns[i].keeper, .events = POLLIN};
        if (netns[i].keeper >= 0 && poll(&gone, 1, 0) == 1 && (gone.revents & POLLIN)) {
            close(netns[i].keeper);
            netns[i].keeper = -1;
        }
        if (netns[i].keeper == -1)
            return i;
    }
    if (netns_refused || nnetns == NETNS_MAX)
        return -1;
    int ns = make_netns();
    if (ns < 0) {
        netns_refused = true;
        return -1;
    }
    netns[nnetns].ns = ns;
    netns[nnetns].keeper = -1;
    return nnetns++;
}

/* One of the server's messages to the referee (proc.h). */
static bool tell(int kind, int value)
{
    int32_t msg[2] = {kind, value};
    return send(3, msg, sizeof msg, MSG_NOSIGNAL) == (ssize_t)sizeof msg;
}

/* The keepers forked ahead of the next requests, oldest first, and the
 * server's ends of the sockets they wait on: two, as a game starts its
 * two bots one right after the other. */
#define IDLE_MAX 2
static struct {
    pid_t pid;
    int fd;
} idle[IDLE_MAX];
static int nidle;

/* Receives a request on fd, its descriptors (at most 6) into fds. Returns
 * its length, 0 when the other end is gone, -1 on an error, -2 for a
 * request cut short (its descriptors closed). */
static ssize_t take_request(int fd, char *buf, size_t cap, int *fds, int *nfds)
{
    union {
        struct cmsghdr h;
        char space[CMSG_SPACE(6 * sizeof(int))];
    } control;
    struct iovec iov = {buf, cap};
    struct msghdr msg = {.msg_iov = &iov,
                         .msg_iovlen = 1,
                         .msg_control = control.space,
                         .msg_controllen = sizeof control.space};
    ssize_t n;
    while ((n = recvmsg(fd, &msg, MSG_CMSG_CLOEXEC)) < 0 && errno == EINTR)
        ;
    *nfds = 0;
    for (struct cmsghdr *c = n > 0 ? CMSG_FIRSTHDR(&msg) : NULL; c; c = CMSG_NXTHDR(&msg, c))
        if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS) {
            int k = (int)((c->cmsg_len - CMSG_LEN(0)) / sizeof(int));
            for (int i = 0; i < k; i++) {
                int one;
                memcpy(&one, CMSG_DATA(c) + i * sizeof(int), sizeof one);
                if (*nfds < 6)
                    fds[(*nfds)++] = one;
                else
                    close(one);
            }
        }
    if (n > 0 && (msg.msg_flags & (MSG_TRUNC | MSG_CTRUNC))) {
        for (int i = 0; i < *nfds; i++)
            close(fds[i]);
        *nfds = 0;
        return -2;
    }
    return n < 0 ? -1 : n;
}

/* In the idle keeper: waits for the request the server passes on (a byte
 * saying whether a lent namespace is the last descriptor, then the
 * referee's request as it came), and becomes its keeper. The server gone
 * first (its run is over), it leaves. */
static __attribute__((noreturn)) void wait_for_request(int fd)
{
    static char request[TX_PROC_LAUNCH_MAX + 1];
    int fds[6], nfds;
    ssize_t n = take_request(fd, request, sizeof request, fds, &nfds);
    char **kargv, **kenv;
    unsigned flags;
    if (n < 2 || tx_proc_launch_unpack(request + 1, (size_t)n - 1, &flags, &kargv, &kenv) < 0)
        _exit(0);
    int lent_ns = request[0] && nfds > 4 ? fds[--nfds] : -1;
    close(fd);
    if (nfds < 4)
        _exit(EXIT_CANNOT_RUN);
    become_keeper(fds, nfds, lent_ns, kargv, kenv);
}

/* Forks a keeper for a request to come (a bot's start then waits for no
 * fork of ours: 0.1 to 0.5 ms, most of a start's round trip), the
 * referee's child as every keeper, and tells the referee its pid. */
static bool fork_idle(void)
{
    int sv[2];
    if (nidle == IDLE_MAX || socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0)
        return false;
    pid_t pid = (pid_t)syscall(SYS_clone, CLONE_PARENT, NULL, NULL, NULL, NULL);
    if (pid == 0) {
        /* Its socket as 3, so that what it receives lands above 3, as in
         * the server (become_keeper). */
        if (dup2(sv[1], 3) != 3)
            _exit(EXIT_CANNOT_RUN);
        close(sv[0]);
        close(sv[1]);
        wait_for_request(3);
    }
    close(sv[1]);
    if (pid < 0) {
        close(sv[0]);
        return false;
    }
    idle[nidle].pid = pid;
    idle[nidle++].fd = sv[0];
    return tell(TX_PROC_SERVER_IDLE, (int)pid);
}

/* Passes the request (len bytes of buf, fds) on to the oldest idle
 * keeper, with the lent namespace lent_ns (-1: none); its pid, or 0 when
 * there is none or it cannot take it (a bot without the sandbox can kill
 * it as any process of its user: it is killed for sure then, and the
 * referee told to reap it). */
static pid_t pass_on(const char *buf, size_t len, const int *fds, int nfds, int lent_ns)
{
    if (nidle == 0)
        return 0;
    pid_t pid = idle[0].pid;
    int fd = idle[0].fd;
    memmove(idle, idle + 1, sizeof idle[0] * (size_t)--nidle);
    static char request[TX_PROC_LAUNCH_MAX + 1];
    request[0] = lent_ns >= 0;
    memcpy(request + 1, buf, len);
    int all[6];
    memcpy(all, fds, sizeof *fds * (size_t)nfds);
    if (lent_ns >= 0)
        all[nfds++] = lent_ns;
    ssize_t n = tx_proc_send_fds(fd, request, len + 1, all, nfds);
    close(fd);
    if (n != (ssize_t)(len + 1)) {
        kill(pid, SIGKILL);
        tell(TX_PROC_SERVER_DROPPED, (int)pid);
        return 0;
    }
    return pid;
}

/* --server --parent PID: a launcher that stays for the whole run and forks
 * each keeper, so that starting a bot costs no exec of the launcher (an
 * exec, and its C library's start, which does cpuid instructions that a
 * hypervisor may trap: a third of a millisecond here). Its socket is fd 3
 * (SOCK_SEQPACKET): each message is a request (tx_proc_launch_pack: its
 * flags, the keeper's argv and environment) with the keeper's stdin, stdout, stderr,
 * status descriptor and optionally its directory beside it; the answer is
 * the keeper's pid, or a negative errno. The keeper is cloned with
 * CLONE_PARENT: it is the referee's child, as if the referee had spawned
 * it (the referee waits for it, its parent death signal is the
 * referee's), and the server holds nothing of it. The server ends when the
 * referee closes the socket, or dies (its own parent death signal). */
static int serve(int argc, char **argv)
{
    long parent = argc == 4 && !strcmp(argv[2], "--parent") ? strtol(argv[3], NULL, 10) : 0;
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || parent <= 0 || getppid() != (pid_t)parent)
        return EXIT_CANNOT_RUN;
    static char buf[TX_PROC_LAUNCH_MAX];
    for (;;) {
        int fds[6], nfds;
        ssize_t n = take_request(3, buf, sizeof buf, fds, &nfds);
        if (n == 0 || n == -1)
            return 0; /* the referee is done, or gone */
        char **kargv = NULL, **kenv = NULL;
        unsigned flags = 0;
        int answer = -EINVAL;
        if (n > 0 && nfds >= 4 && nfds <= 5 &&
            tx_proc_launch_unpack(buf, (size_t)n, &flags, &kargv, &kenv) == 0) {
            int lent = flags & TX_PROC_LAUNCH_NETNS ? lend_netns() : -1;
            int ns = lent >= 0 ? netns[lent].ns : -1;
            pid_t pid = pass_on(buf, (size_t)n, fds, nfds, ns);
            if (pid == 0)
                pid = (pid_t)syscall(SYS_clone, CLONE_PARENT, NULL, NULL, NULL, NULL);
            if (pid == 0) {
                close(3);
                become_keeper(fds, nfds, ns, kargv, kenv);
            }
            /* Lent until this keeper is gone (it cannot be reaped before
             * the referee has our answer, so the pid is still its own). */
            if (pid > 0 && lent >= 0 &&
                (netns[lent].keeper = (int)syscall(SYS_pidfd_open, pid, 0)) < 0)
                netns[lent].keeper = -2; /* it cannot be watched: never lent again */
            answer = pid < 0 ? -errno : (int)pid;
        }
        free(kargv);
        free(kenv);
        for (int i = 0; i < nfds; i++)
            close(fds[i]);
        if (!tell(TX_PROC_SERVER_ANSWER, answer))
            return 0;
        /* Off the bots' way: after the answer, and once no request has
         * come for a millisecond (a game asks for its second bot right
         * after its first: a fork now would hold that request up). */
        struct pollfd next = {.fd = 3, .events = POLLIN};
        while (n > 0 && nidle < IDLE_MAX && poll(&next, 1, 1) == 0 && fork_idle())
            ;
    }
}

int main(int argc, char **argv)
{
    if (argc >= 2 && !strcmp(argv[1], "--server"))
        return serve(argc, argv);
    return keep(argc, argv);
}
