/* refeed-probe.c - the exit probe of a re-feed: does the bot exit when its
 * stdin closes, and what does it leave behind?
 *
 * The probe does not run the loop while it waits: libuv reaps children
 * only from the loop, so a bot that exits stays a zombie, its pid and
 * session id cannot be reused, and /proc tells both that it exited and
 * which processes of its session or group it left behind.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "proc.h"
#include "refeed-private.h"

#define PROBE_POLL_US 2000 /* /proc is looked at this often while waiting for the exit */

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
static void find_escaped(int pid, struct tx_refeed_result *res, const int *pids, int n)
{
    for (int i = 1; i < n; i++) {
        char state, comm[20];
        int pgrp, session;
        if (proc_stat(pids[i], &state, &pgrp, &session, comm, sizeof comm) < 0 || state == 'Z' ||
            pgrp == pid || session == pid)
            continue; /* gone, or a member of the group that find_left counts */
        note_left(res, pids[i], comm);
        kill(pids[i], SIGKILL);
    }
}

/* Processes other than the bot in its session or process group, zombies
 * aside (an orphan's zombie is reaped by init at once). */
static void find_left(int pid, struct tx_refeed_result *res)
{
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
            note_left(res, (int)other, comm);
    }
    closedir(dir);
}

static void sleep_us(long us)
{
    struct timespec t = {.tv_sec = us / 1000000, .tv_nsec = (us % 1000000) * 1000};
    while (nanosleep(&t, &t) < 0 && errno == EINTR)
        ;
}

void tx_refeed_probe_exit(struct tx_bot *bot, struct tx_refeed_result *res)
{
    res->probed = true;
    /* Taken while the bot runs: once it exits, its children are init's. */
    int family[TX_PROC_DESCENDANTS_MAX];
    int n = tx_proc_family(bot->pid, family, TX_PROC_DESCENDANTS_MAX);
    tx_bot_close_input(bot);
    uint64_t t0 = uv_hrtime(), wait_ns = (uint64_t)TX_REFEED_EXIT_WAIT_MS * 1000000u;
    for (;;) {
        char state;
        int pgrp, session;
        uint64_t now = uv_hrtime();
        if (proc_stat(bot->pid, &state, &pgrp, &session, NULL, 0) < 0 || state == 'Z' ||
            state == 'X') {
            res->exited = true;
            res->exit_us = (int64_t)((now - t0) / 1000);
            break;
        }
        if (now - t0 >= wait_ns)
            break;
        sleep_us(PROBE_POLL_US);
    }
    find_left(bot->pid, res);
    find_escaped(bot->pid, res, family, n);
}
