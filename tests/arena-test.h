/* arena-test.h - what the Check suites that run programs share: where the
 * built programs are, a scratch directory, starting a program with its
 * output in files and waiting for it (twixt-arena and the test bots'
 * commands in particular), reading a file whole or as records.
 *
 * Every function asserts (ck_assert) what it needs, so a suite's case
 * fails at the line that could not go on: a directory that cannot be
 * made, a program that cannot be started, a file that cannot be read.
 * Programs are found through TX_BUILD_DIR, which tests/meson.build sets.
 */
#ifndef TX_ARENA_TEST_H
#define TX_ARENA_TEST_H

#include <stddef.h>
#include <sys/types.h>

#include "record.h"

/* TX_BUILD_DIR/rel ("referee/twixt-arena", "tests/tiny-bot") into buf. */
void tx_test_build_path(char *buf, size_t cap, const char *rel);

/* A new directory /tmp/NAME-XXXXXX into dir; tx_test_remove_tree removes
 * it with everything in it. */
void tx_test_make_tmpdir(char *dir, size_t cap, const char *name);
void tx_test_remove_tree(const char *dir);

/* Starts argv[0] (a path) with argv (NULL-terminated) and this process's
 * environment: stdin from /dev/null, stdout and stderr into the files out
 * and err (created or truncated; NULL: /dev/null; the same path: one file
 * holding both, in the order they were written). Returns its pid. */
pid_t tx_test_spawn(char *const *argv, const char *out, const char *err);

/* Waits for pid; returns its wait status. */
int tx_test_wait(pid_t pid);

/* Waits for pid, which must exit (not die of a signal); returns its exit
 * status. */
int tx_test_exit_status(pid_t pid);

/* The whole file, NUL-terminated (malloc'ed: free it). */
char *tx_test_read_file(const char *path);

/* A suite's scratch directory: tx_test_scratch_begin("tx-family") in the
 * fixture's setup makes /tmp/tx-family-XXXXXX, tx_test_scratch_end() in
 * its teardown removes it with everything in it. */
void tx_test_scratch_begin(const char *name);
void tx_test_scratch_end(void);
const char *tx_test_scratch_dir(void);

/* The scratch directory's file name, as a path (static storage, one of 64
 * at a time: enough for the paths one case holds at once). */
const char *tx_test_file(const char *name);

/* Runs argv (argv[0] a path; NULL-terminated) to its end, its stdout and
 * stderr in the scratch files out.txt and err.txt; returns its exit
 * status. tx_test_arena runs the built twixt-arena with the arguments
 * (NULL-terminated, at most 60). */
int tx_test_run(const char *const *argv);
int tx_test_arena(const char *first, ...);

/* Asserts that the scratch file name holds needle; the message shows the
 * file. */
void tx_test_assert_in(const char *name, const char *needle);

/* A bot "NAME=COMMAND" with the test bots' commands put in for the words
 * TINY (tests/tiny-bot), FAULT (tests/fault-bot) and CG (tests/cg-bot.py,
 * through python3) at the start of COMMAND: "a=FAULT good" ->
 * "a=/.../fault-bot good" (static storage, one of eight at a time). */
const char *tx_test_bot(const char *spec);

/* Every record of file, in the file's order (malloc'ed: free with
 * tx_test_free_records); *n is how many. Each line must be a record. */
struct tx_record *tx_test_read_records(const char *file, int *n);
void tx_test_free_records(struct tx_record *records, int n);

/* Waits until pid catches signum (its handler is installed: /proc's
 * SigCgt), or has exited. A signal sent before that would kill a program
 * still starting, as it would any program, instead of testing how it
 * stops. Fails after 60 s. */
void tx_test_wait_catching(pid_t pid, int signum);

/* Sleeps ms milliseconds, signals or not. For pacing a program (a signal
 * at a random moment), never to wait for a result. */
void tx_test_sleep_ms(long ms);

#endif
