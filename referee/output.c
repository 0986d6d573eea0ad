/* output.c - checked outputs (see output.h).
 *
 * stdio keeps a stream's error as a flag, not a cause, and fclose() of a
 * stream whose earlier write failed returns 0 when its last flush works (a
 * large fwrite goes straight to write() and sets only the flag). So the
 * flag is read before closing, and the cause is taken from errno at once
 * or, for a pipe, from the pipe itself.
 */
#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "output.h"

/* A pipe or socket whose reader is gone shows POLLERR on its write end. */
static bool reader_gone(FILE *out)
{
    struct stat st;
    int fd = fileno(out);
    struct pollfd p = {.fd = fd, .events = POLLOUT};
    return fd >= 0 && fstat(fd, &st) == 0 && (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode)) &&
           poll(&p, 1, 0) == 1 && (p.revents & POLLERR);
}

int tx_output_check(FILE *out)
{
    int e = errno;
    if (!ferror(out))
        return 0;
    if (reader_gone(out))
        return -EPIPE;
    return -(e ? e : EIO);
}

_Noreturn void tx_output_broken_pipe(void)
{
    signal(SIGPIPE, SIG_DFL);
    raise(SIGPIPE);
    _exit(128 + SIGPIPE); /* SIGPIPE blocked: the same status */
}

void tx_output_fail(int error, const char *name, const char *who)
{
    if (error == -EPIPE)
        tx_output_broken_pipe();
    fprintf(stderr, "%s: cannot write %s: %s\n", who, name, strerror(-error));
}

int tx_output_finish(FILE *out, const char *name, const char *who)
{
    /* errno at entry is likely the cause of a failure the caller has not
     * checked yet: keep it for when the flush itself works. */
    int before = errno;
    errno = 0;
    int rc = 0;
    if (fflush(out) != 0)
        rc = -(errno ? errno : EIO);
    else if (ferror(out))
        rc = -(before ? before : EIO);
    if (rc < 0 && reader_gone(out))
        rc = -EPIPE;
    if (out != stdout && out != stderr && fclose(out) != 0 && rc == 0)
        rc = -(errno ? errno : EIO);
    if (rc < 0)
        tx_output_fail(rc, name, who);
    return rc;
}

int tx_output_write_all(int fd, const void *buf, size_t len, size_t *done)
{
    size_t got = 0;
    int rc = 0;
    while (got < len) {
        ssize_t n = write(fd, (const char *)buf + got, len - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            rc = n < 0 ? -errno : -ENOSPC;
            break;
        }
        got += (size_t)n;
    }
    if (done)
        *done = got;
    return rc;
}
