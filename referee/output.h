/* output.h - every output checked: what the program writes (a render, the
 * standings, a tournament's table on stdout) is checked for write errors
 * before it exits, so that a full disk or a closed pipe is never reported
 * as success.
 *
 * A write error is a message naming the output and the cause and a
 * non-zero exit (2). A closed pipe (`twixt-arena replay ... | head -1`) is
 * not an error to talk about: the program ends quietly the way Unix
 * filters do, killed by SIGPIPE (status 141 in a shell). main() ignores
 * SIGPIPE so that a write to a dead bot fails with EPIPE instead of killing
 * the referee; tx_output_broken_pipe puts the default back and raises it.
 */
#ifndef TX_OUTPUT_H
#define TX_OUTPUT_H

#include <stddef.h>
#include <stdio.h>

/* 0 when everything written to out so far got through, else the negative
 * errno of what went wrong (-EPIPE when out is a pipe whose reader is
 * gone). Does not flush. */
int tx_output_check(FILE *out);

/* Ends the process quietly by SIGPIPE, as a filter whose reader left. */
_Noreturn void tx_output_broken_pipe(void);

/* Reports a failed output: returns quietly by SIGPIPE for -EPIPE, else
 * prints "WHO: cannot write NAME: cause" on stderr. */
void tx_output_fail(int error, const char *name, const char *who);

/* Finishes out: flushes it, checks it, and closes it unless it is stdout
 * or stderr. Returns 0, or the negative errno after tx_output_fail. */
int tx_output_finish(FILE *out, const char *name, const char *who);

/* Writes the len bytes of buf to fd, through short writes and EINTR.
 * Returns 0, or the negative errno of the write that failed (-ENOSPC for
 * one that wrote nothing); *done, when not NULL, is how many bytes got
 * through (a caller undoing a torn record needs it). */
int tx_output_write_all(int fd, const void *buf, size_t len, size_t *done);

#endif
