/* proc.h - a bot's process seen from outside libuv: through /proc.
 *
 * libuv knows a child by its pid and its exit status. What the referee also
 * needs is Linux's view of it: a family tree (the launcher sweeps the
 * bot's descendants with it), a process's state, and the bot's scheduling
 * statistics (to tell a slow bot from a busy machine). Small synchronous
 * reads of /proc, no libuv; used by bot.c, refeed-probe.c and the
 * launcher. And what a bot leaves behind outside its process: its TMPDIR,
 * removed by its keeper, or by the referee when the keeper was killed.
 * And the message that asks the launcher's fork server for a keeper.
 */
#ifndef TX_PROC_H
#define TX_PROC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Every descendant of pid, found by walking /proc/PID/task/TID/children:
 * pid itself in (*ret)[0], then the others, parents before children, as
 * many as there are (no cap: the launcher sweeps a fork bomb with it).
 * *ret is malloc'ed (free it); returns how many, at least 1. Only while
 * the ancestry is intact: an orphan belongs to its subreaper, which is
 * why the launcher is one. */
int tx_proc_descendants(int pid, int **ret);

/* SIGKILLs every descendant of pid (not pid itself) and returns how many
 * it found (0: none left). Through pidfds: a process is signalled only if,
 * once its pidfd is open, its parent is still the one it was listed under
 * (or pid, which adopts orphans), so a pid freed and taken by an unrelated
 * process since the listing (pid_max may be 32768) is never signalled. A
 * process forked meanwhile is found by the next call. */
int tx_proc_kill_descendants(int pid);

/* State letter ('R', 'S', 'Z', ...) and command name (/proc/PID/comm, non
 * printable bytes as '?') of pid. Returns 0, or -1 when it does not exist. */
int tx_proc_stat(int pid, char *state, char *comm, size_t commcap);

/* Opens /proc/PID/schedstat for tx_proc_sched (close it with close()).
 * Returns the descriptor or -1. */
int tx_proc_sched_open(int pid);

/* Reads the process's main thread's nanoseconds on a CPU and nanoseconds
 * runnable but waiting for one, so far. One pread. Returns false when the
 * file cannot be read (the process is gone). */
bool tx_proc_sched(int fd, uint64_t *cpu_ns, uint64_t *wait_ns);

/* Removes dir and everything in it, as far as it can: without following
 * links or crossing into other file systems (a bot may have put either
 * there). Synchronous: the referee calls it off its loop. */
void tx_proc_remove_tree(const char *dir);

/* Whether dir can be a bot's TMPDIR again: a directory (not a link to
 * one) of this user's, for this user alone (mode 0700, as mkdtemp makes
 * it: no other user can have put anything in it), that holds nothing. */
bool tx_proc_tmpdir_reusable(const char *dir);

/* A request to the launcher's fork server (launcher.c, --server): flags
 * and a keeper's argv and environment packed into one message (sent with
 * its descriptors beside it), at most TX_PROC_LAUNCH_MAX bytes. pack
 * returns the length, or -1 when it does not fit cap; unpack points two
 * malloc'ed, NULL-terminated arrays (free both) into buf, or returns -1
 * for a malformed message. TX_PROC_LAUNCH_NETNS: the keeper will make a
 * sandbox with a network namespace of its own (--sandbox without
 * --network), which the server may lend it from its pool. */
#define TX_PROC_LAUNCH_MAX 65536
#define TX_PROC_LAUNCH_NETNS 1u
int tx_proc_launch_pack(char *buf, size_t cap, unsigned flags, char *const *argv,
                        char *const *envp);
int tx_proc_launch_unpack(char *buf, size_t len, unsigned *flags, char ***argv, char ***envp);

/* Sends len bytes of buf as one message on the socket sock with nfds (at
 * most 6) descriptors beside it, retrying on EINTR, without SIGPIPE;
 * sendmsg's result. */
ssize_t tx_proc_send_fds(int sock, const void *buf, size_t len, const int *fds, int nfds);

/* The fork server's messages back, two int32_t each: {ANSWER, the keeper's
 * pid or a negative errno} for every request, {IDLE, pid} when it has
 * forked a keeper ahead of the requests to come (the referee's child,
 * which the referee reaps should no request ever take it) and {DROPPED,
 * pid} when it has killed one that could not take its request (the
 * referee reaps it). */
enum { TX_PROC_SERVER_ANSWER, TX_PROC_SERVER_IDLE, TX_PROC_SERVER_DROPPED };

#endif
