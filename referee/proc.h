/* proc.h - a bot's process seen from outside libuv: through /proc.
 *
 * libuv knows a child by its pid and its exit status. What the referee also
 * needs is Linux's view of it: the bot's family tree (to find descendants
 * that left its process group), and its scheduling statistics (to tell a
 * slow bot from a busy machine). Small
 * synchronous reads of /proc, no libuv; used by bot.c and refeed.c.
 */
#ifndef TX_PROC_H
#define TX_PROC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TX_PROC_DESCENDANTS_MAX 256 /* processes of one bot looked at when stopping it */

/* The family of leader: leader itself in pids[0], then every descendant
 * found by walking /proc/PID/task/TID/children, parents before children, up
 * to max (>= 1) in all. Only while their ancestry is intact: once a process
 * exits, its children belong to its subreaper. Returns how many. */
int tx_proc_family(int leader, int *pids, int max);

/* SIGKILLs every descendant of leader (a live process group leader) that is
 * no longer in its process group: children that called setsid(). Found by
 * walking /proc/PID/task/TID/children, so only while their ancestry is
 * intact; the launcher makes each bot a child subreaper, so a double-forked
 * daemon whose parent exited is adopted by the bot, not by init, and is
 * found too (unless the bot itself has exited). Returns how many were
 * signalled. */
int tx_proc_kill_escaped(int leader);

/* Opens /proc/PID/schedstat for tx_proc_sched (close it with close()).
 * Returns the descriptor or -1. */
int tx_proc_sched_open(int pid);

/* Reads the process's main thread's nanoseconds on a CPU and nanoseconds
 * runnable but waiting for one, so far. One pread. Returns false when the
 * file cannot be read (the process is gone). */
bool tx_proc_sched(int fd, uint64_t *cpu_ns, uint64_t *wait_ns);

#endif
