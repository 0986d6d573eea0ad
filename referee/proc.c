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
#include <sys/stat.h>
#include <unistd.h>

#include "alloc.h"
#include "proc.h"

/* Appends the children of every thread of pid (/proc/PID/task/TID/children)
 * to *pids, growing it. */
static void add_children(int pid, int **pids, int *n, int *cap)
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
        FILE *f = fopen(file, "re");
        if (!f)
            continue;
        int child;
        while (fscanf(f, "%d", &child) == 1) {
            if (child <= 1)
                continue;
            if (*n == *cap) {
                *pids = tx_xrealloc(*pids, sizeof **pids * (size_t)(*cap *= 2));
            }
            (*pids)[(*n)++] = child;
        }
        fclose(f);
    }
    closedir(tasks);
}

int tx_proc_descendants(int pid, int **ret)
{
    int cap = 64, n = 1;
    int *pids = tx_xmalloc(sizeof *pids * (size_t)cap);
    pids[0] = pid;
    for (int i = 0; i < n; i++)
        add_children(pids[i], &pids, &n, &cap);
    *ret = pids;
    return n;
}

int tx_proc_stat(int pid, char *state, char *comm, size_t commcap)
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
    if (!lp || !rp || rp < lp || rp[1] != ' ' || !rp[2])
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
