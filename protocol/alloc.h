/* alloc.h - memory allocation that does not fail: out of memory aborts.
 *
 * The policy, written here once for libtwixt, the referee and the bots:
 * when malloc, calloc, realloc or strdup fails, the program calls abort().
 * Why, as redis's zmalloc does:
 * - nothing is lost: every record is one whole line, written with one
 *   write() the moment its game ends, so a referee that dies at any moment
 *   leaves a records file that loads and resumes, as after kill -9;
 * - nothing better can be done: a referee that cannot allocate cannot build
 *   a message, a record or a game either; and Linux overcommits memory, so
 *   the kernel's OOM killer comes long before malloc returns NULL, and what
 *   reaches this path is a size gone wrong, a bug best stopped where it is;
 * - a NULL check at each of a hundred call sites is a hundred error paths
 *   that no test runs; abort() stops at the allocation, with a core dump,
 *   instead of a NULL dereference somewhere later.
 * No bot can cause it: a bot's memory is its own process's, limited by the
 * launcher, and everything the referee keeps of what a bot sends is bounded
 * (bot.h, record.h). libtwixt does no I/O, so there is no message: abort()
 * is the whole handling. What allocates through another API that fails
 * only for want of memory (open_memstream, cJSON) passes its result
 * through tx_xcheck.
 *
 * Not through here, on purpose:
 * - the launcher (referee/launcher.c) makes no allocation of its own: it
 *   sets a bot up between fork and exec on fixed arrays, and every failure
 *   there must reach the referee as a status line ("error ...", exit status
 *   127), never as an abort. (Its keeper's /proc sweeps, in proc.c, do
 *   allocate through here: the launcher is built with alloc.c.)
 * - functions that can fail anyway and return an error to their caller
 *   return -ENOMEM like their other errors, and their callers report it as
 *   they report those: the records reader and appender (records.c: a record
 *   that cannot be written stops the run with every finished game saved and
 *   the command that resumes it), tx_record_to_json (cJSON reports its own
 *   failures), the openings file and the files setup reads whole
 *   (schedule.c, setup.c), the rating fits (stats.c, standings.c), starting a
 *   game or a run (match.c, runner.c, resume.c, league.c's standings files)
 *   and the summaries printed as JSON (cmd-play.c).
 * - twixt-mcts's search tree (bots/mcts.c, up to 84 MiB): under a low
 *   --bot-memory-mb it may not fit, and the bot then says so on stderr
 *   before it exits, which an abort would not.
 */
#ifndef TX_ALLOC_H
#define TX_ALLOC_H

#include <stddef.h>

/* malloc, calloc and realloc that abort instead of returning NULL. A size
 * of 0 allocates 1 byte, so that the result is never NULL. */
void *tx_xmalloc(size_t size);
void *tx_xcalloc(size_t n, size_t size);
void *tx_xrealloc(void *p, size_t size);

/* A malloc'ed copy of s; NULL gives NULL. */
char *tx_strdup(const char *s);
/* A malloc'ed copy of s's first n bytes (fewer when s ends before). */
char *tx_strndup(const char *s, size_t n);

/* p, or abort() when it is NULL: for what another API allocated (an
 * open_memstream, a cJSON tree or text). */
void *tx_xcheck(void *p);

/* abort(): for a function that reported ENOMEM to a caller that cannot
 * do better (tx_record_to_json's -ENOMEM where nothing else could fail). */
_Noreturn void tx_out_of_memory(void);

#endif
