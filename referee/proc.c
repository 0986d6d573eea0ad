/* proc.c - /proc lookups for bot.c: escaped descendants, scheduling
 * statistics.
 *
 * All of this is Linux-specific on purpose: the referee runs bots on Linux
 * (prctl, RLIMIT_DATA, socketpairs), and /proc is the only place that says
 * who a process's children are and how long it waited for a CPU.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "proc.h"

/* Appends the children of every thread of pid (/proc/PID/task/TID/children)
 * to pids, up to max. */
static int add_children(int pid, int *pids, int n, int max)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/task", pid);
    DIR *tasks = opendir(path);
    if (!tasks)
        return n;
    struct dirent *t;
    while (n < max && (t = readdir(tasks))) {
        if (t->d_name[0] < '0' || t->d_name[0] > '9')
            continue;
        char file[320];
        snprintf(file, sizeof file, "/proc/%d/task/%s/children", pid, t->d_name);
        FILE *f = fopen(file, "re");
        if (!f)
            continue;
        int child;
        while (n < max && fscanf(f, "%d", &child) == 1)
            if (child > 1)
                pids[n++] = child;
        fclose(f);
    }
    closedir(tasks);
    return n;
}

int tx_proc_family(int leader, int *pids, int max)
{
    int n = 1;
    pids[0] = leader;
    for (int i = 0; i < n && n < max; i++)
        n = add_children(pids[i], pids, n, max);
    return n;
}

int tx_proc_kill_escaped(int leader)
{
    if (leader <= 1)
        return 0;
    int pids[TX_PROC_DESCENDANTS_MAX];
    int n = tx_proc_family(leader, pids, TX_PROC_DESCENDANTS_MAX), killed = 0;
    for (int i = 1; i < n; i++)
        if (getpgid(pids[i]) != leader && kill(pids[i], SIGKILL) == 0)
            killed++;
    return killed;
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
