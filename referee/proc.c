/* proc.c - /proc lookups: a process's descendants and state, scheduling
 * statistics.
 *
 * All of this is Linux-specific on purpose: the referee runs bots on Linux
 * (prctl, RLIMIT_DATA, socketpairs), and /proc is the only place that says
 * who a process's children are and how long it waited for a CPU.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "alloc.h"
#include "proc.h"

/* A list of processes and, for each, the one it was found under. */
struct family {
    int *pids, *parents; /* parents may be NULL: not kept */
    int n, cap;
};

/* Appends the children of every thread of pid (/proc/PID/task/TID/children)
 * to f, growing it. */
static void add_children(int pid, struct family *f)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/task", pid);
    DIR *tasks = opendir(path);
    if (!tasks)
        return;
    struct dirent *t;
    while ((t = readdir(tasks))) {
        if (t->d_name[0] < '0' || t->d_name[0] > '9')
            continue;
        char file[320];
        snprintf(file, sizeof file, "/proc/%d/task/%s/children", pid, t->d_name);
        FILE *children = fopen(file, "re");
        if (!children)
            continue;
        int child;
        while (fscanf(children, "%d", &child) == 1) {
            if (child <= 1)
                continue;
            if (f->n == f->cap) {
                f->cap *= 2;
                f->pids = tx_xrealloc(f->pids, sizeof *f->pids * (size_t)f->cap);
                if (f->parents)
                    f->parents = tx_xrealloc(f->parents, sizeof *f->parents * (size_t)f->cap);
            }
            if (f->parents)
                f->parents[f->n] = pid;
            f->pids[f->n++] = child;
        }
        fclose(children);
    }
    closedir(tasks);
}

/* pid, then its descendants, parents before children. */
static void list_family(int pid, struct family *f, bool parents)
{
    f->cap = 64;
    f->n = 1;
    f->pids = tx_xmalloc(sizeof *f->pids * (size_t)f->cap);
    f->parents = parents ? tx_xmalloc(sizeof *f->parents * (size_t)f->cap) : NULL;
    f->pids[0] = pid;
    if (parents)
        f->parents[0] = 0;
    for (int i = 0; i < f->n; i++)
        add_children(f->pids[i], f);
}

int tx_proc_descendants(int pid, int **ret)
{
    struct family f;
    list_family(pid, &f, false);
    *ret = f.pids;
    return f.n;
}

/* "PID (COMM) S PPID ...": the state letter, the parent and (when comm is
 * not NULL) the command name of pid. 0, or -1 when it does not exist. */
static int read_stat(int pid, char *state, int *ppid, char *comm, size_t commcap);

/* Signals a batch of verified pidfds, and closes them. */
static void kill_batch(int *fds, int *n)
{
    for (int i = 0; i < *n; i++) {
        syscall(SYS_pidfd_send_signal, fds[i], SIGKILL, NULL, 0);
        close(fds[i]);
    }
    *n = 0;
}

int tx_proc_kill_descendants(int pid)
{
    struct family f;
    list_family(pid, &f, true);
    /* First a pidfd for each process, kept only if its parent is still
     * the one it was listed under (or pid, which adopts orphans): from
     * then on the pidfd is that process, whatever happens to its pid.
     * Then the signals, so that no kill of this batch changes a parent
     * the batch still checks. Batches bound the descriptors held. */
    enum { BATCH = 256 };
    int fds[BATCH], nfds = 0;
    for (int i = 1; i < f.n; i++) {
        int fd = (int)syscall(SYS_pidfd_open, f.pids[i], 0), ppid = 0;
        char state;
        if (fd < 0) {
            if (errno == ENOSYS) /* a kernel before 5.3: the pid alone */
                kill(f.pids[i], SIGKILL);
            continue;
        }
        if (read_stat(f.pids[i], &state, &ppid, NULL, 0) < 0 ||
            (ppid != f.parents[i] && ppid != pid)) {
            close(fd); /* not the process listed: the next listing tells */
            continue;
        }
        fds[nfds++] = fd;
        if (nfds == BATCH)
            kill_batch(fds, &nfds);
    }
    kill_batch(fds, &nfds);
    free(f.pids);
    free(f.parents);
    return f.n - 1;
}

int tx_proc_stat(int pid, char *state, char *comm, size_t commcap)
{
    int ppid;
    return read_stat(pid, state, &ppid, comm, commcap);
}

static int read_stat(int pid, char *state, int *ppid, char *comm, size_t commcap)
{
    char path[64], buf[512];
    snprintf(path, sizeof path, "/proc/%d/stat", pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0)
        return -1;
    buf[n] = '\0';
    /* "PID (COMM) S ...": COMM may itself hold ')' or spaces. */
    char *lp = strchr(buf, '('), *rp = strrchr(buf, ')');
    if (!lp || !rp || rp < lp || rp[1] != ' ' || !rp[2] || sscanf(rp + 2, "%*c %d", ppid) != 1)
        return -1;
    *state = rp[2];
    if (comm && commcap > 0) {
        size_t len = (size_t)(rp - lp - 1);
        if (len >= commcap)
            len = commcap - 1;
        memcpy(comm, lp + 1, len);
        comm[len] = '\0';
        for (char *p = comm; *p; p++)
            if ((unsigned char)*p < 0x20 || (unsigned char)*p >= 0x7f)
                *p = '?';
    }
    return 0;
}

int tx_proc_sched_open(int pid)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/schedstat", pid);
    return open(path, O_RDONLY | O_CLOEXEC);
}

bool tx_proc_sched(int fd, uint64_t *cpu_ns, uint64_t *wait_ns)
{
    char buf[96];
    if (fd < 0)
        return false;
    /* A /proc file is generated afresh on each read from offset 0. */
    ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
    if (n <= 0)
        return false;
    buf[n] = '\0';
    char *end;
    unsigned long long cpu = strtoull(buf, &end, 10); /* once per turn: no sscanf */
    if (end == buf)
        return false;
    char *end2;
    unsigned long long wait = strtoull(end, &end2, 10);
    if (end2 == end)
        return false;
    *cpu_ns = cpu;
    *wait_ns = wait;
    return true;
}

static int remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    (void)st;
    (void)ftw;
    if (type == FTW_DP)
        rmdir(path);
    else
        unlink(path);
    return 0;
}

void tx_proc_remove_tree(const char *dir)
{
    nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS | FTW_MOUNT);
}

bool tx_proc_tmpdir_reusable(const char *dir)
{
    struct stat st;
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    DIR *d =
        fd >= 0 && fstat(fd, &st) == 0 && st.st_uid == geteuid() && (st.st_mode & 07777) == 0700
            ? fdopendir(fd)
            : NULL;
    if (!d) {
        if (fd >= 0)
            close(fd);
        return false;
    }
    bool empty = true;
    for (struct dirent *e; empty && (e = readdir(d));)
        empty = !strcmp(e->d_name, ".") || !strcmp(e->d_name, "..");
    closedir(d);
    return empty;
}

/* ---- the launcher's requests (launcher.c's --server) ---- */

/* The payload: three 32-bit words (the flags, argc, the environment's
 * count), then every string with its NUL, argv first. */
int tx_proc_launch_pack(char *buf, size_t cap, unsigned flags, char *const *argv, char *const *envp)
{
    uint32_t counts[3] = {flags, 0, 0};
    size_t len = sizeof counts;
    char *const *lists[2] = {argv, envp};
    for (int k = 0; k < 2; k++)
        for (char *const *s = lists[k]; *s; s++, counts[k + 1]++) {
            size_t n = strlen(*s) + 1;
            if (n > cap || len > cap - n)
                return -1;
            memcpy(buf + len, *s, n);
            len += n;
        }
    if (cap < sizeof counts)
        return -1;
    memcpy(buf, counts, sizeof counts);
    return (int)len;
}

ssize_t tx_proc_send_fds(int sock, const void *buf, size_t len, const int *fds, int nfds)
{
    union {
        struct cmsghdr h;
        char space[CMSG_SPACE(6 * sizeof(int))];
    } control;
    memset(&control, 0, sizeof control);
    struct iovec iov = {(void *)buf, len};
    struct msghdr msg = {.msg_iov = &iov,
                         .msg_iovlen = 1,
                         .msg_control = control.space,
                         .msg_controllen = CMSG_SPACE(sizeof(int) * (size_t)nfds)};
    struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
    if (!c || nfds < 0 || nfds > 6) {
        errno = EINVAL;
        return -1;
    }
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(sizeof(int) * (size_t)nfds);
    memcpy(CMSG_DATA(c), fds, sizeof(int) * (size_t)nfds);
    ssize_t n;
    while ((n = sendmsg(sock, &msg, MSG_NOSIGNAL)) < 0 && errno == EINTR)
        ;
    return n;
}

int tx_proc_launch_unpack(char *buf, size_t len, unsigned *flags, char ***argv, char ***envp)
{
    uint32_t counts[3];
    if (len < sizeof counts || buf[len - 1] != '\0')
        return -1;
    memcpy(counts, buf, sizeof counts);
    if (counts[1] < 1 || counts[1] > len || counts[2] > len)
        return -1;
    char **lists[2] = {tx_xcalloc(counts[1] + 1, sizeof(char *)),
                       tx_xcalloc(counts[2] + 1, sizeof(char *))};
    char *p = buf + sizeof counts, *end = buf + len;
    for (int k = 0; k < 2; k++)
        for (uint32_t i = 0; i < counts[k + 1]; i++) {
            if (p >= end) {
                free(lists[0]);
                free(lists[1]);
                return -1;
            }
            lists[k][i] = p;
            p += strlen(p) + 1;
        }
    *flags = counts[0];
    *argv = lists[0];
    *envp = lists[1];
    return 0;
}
