/* resume.c - reading back the records of a run's file (see resume.h).
 *
 * The file was written one whole line per write(), and a failed write is
 * undone (records.c), so the only damage a run itself can leave is a last
 * line cut short by a kill: that line is cut off with a warning. Any other
 * line that is not a record, or a record the run refuses (other terms, a
 * bot whose command changed), is an error with its FILE:LINE, because
 * guessing would mix games played under different terms in one result;
 * the user may ask for bad lines to be set aside instead (--skip-invalid).
 *
 * Setting aside is done in the same pass: at the first bad line a new file
 * is started next to FILE with everything before it, every later good line
 * is copied there and every bad one to FILE.rejected; at the end the new
 * file, locked first, takes FILE's name (records.h,
 * tx_records_out_replace). Until then FILE is untouched, so an error or a
 * kill midway loses nothing.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "resume.h"

/* Lines set aside (skip_invalid): the new file and FILE.rejected, both
 * started at the first bad line. */
struct aside {
    char tmp_path[PATH_MAX];
    int tmp;      /* the new file, or -1 */
    int rejected; /* FILE.rejected, or -1 */
    char rejected_path[PATH_MAX];
    int64_t copied; /* bytes of FILE dealt with so far */
    int64_t count;  /* lines set aside */
};

static int start_aside(const struct tx_resume *c, struct aside *a, char *err, size_t errcap)
{
    const char *path = c->out->path;
    struct stat st;
    snprintf(a->tmp_path, sizeof a->tmp_path, "%s.tmp-XXXXXX", path);
    a->tmp = mkostemp(a->tmp_path, O_CLOEXEC);
    if (a->tmp < 0) {
        int e = errno;
        snprintf(err, errcap, "cannot create %s to set bad lines aside: %s", a->tmp_path,
                 strerror(e));
        return -e;
    }
    if (fstat(c->out->fd, &st) == 0)
        fchmod(a->tmp, st.st_mode & 07777);
    snprintf(a->rejected_path, sizeof a->rejected_path, "%s.rejected", path);
    a->rejected =
        open(a->rejected_path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOCTTY, 0644);
    if (a->rejected < 0) {
        int e = errno;
        snprintf(err, errcap, "cannot open %s: %s", a->rejected_path, strerror(e));
        return -e;
    }
    return 0;
}

/* Copies FILE's bytes up to end into the new file (when one was started). */
static int keep_until(const struct tx_resume *c, struct aside *a, int64_t end, char *err,
                      size_t errcap)
{
    if (a->tmp < 0 || end <= a->copied)
        return 0;
    int rc = tx_records_copy(c->out->fd, a->copied, end, a->tmp);
    if (rc < 0)
        snprintf(err, errcap, "cannot write %s: %s", a->tmp_path, strerror(-rc));
    else
        a->copied = end;
    return rc;
}

/* Moves the current line into FILE.rejected. */
static int set_aside(const struct tx_resume *c, struct aside *a, const struct tx_records_reader *rd,
                     const char *why, char *err, size_t errcap)
{
    int rc;
    if (a->tmp < 0) {
        if ((rc = start_aside(c, a, err, errcap)) < 0)
            return rc;
        a->copied = 0;
    }
    if ((rc = keep_until(c, a, rd->start, err, errcap)) < 0)
        return rc;
    rc = tx_records_copy(c->out->fd, rd->start, rd->end, a->rejected);
    if (rc == 0 && !rd->terminated && write(a->rejected, "\n", 1) != 1)
        rc = -errno;
    if (rc < 0) {
        snprintf(err, errcap, "cannot write %s: %s", a->rejected_path, strerror(-rc));
        return rc;
    }
    a->copied = rd->end;
    a->count++;
    fprintf(stderr, "twixt-arena: warning: %s; moved to %s\n", why, a->rejected_path);
    return 0;
}

/* Ends setting aside: the new file takes FILE's place. */
static int finish_aside(const struct tx_resume *c, struct aside *a, char *err, size_t errcap)
{
    int rc = 0;
    if (a->rejected >= 0 && (fsync(a->rejected) < 0 || close(a->rejected) < 0)) {
        rc = -errno;
        snprintf(err, errcap, "cannot write %s: %s", a->rejected_path, strerror(-rc));
    }
    a->rejected = -1;
    if (a->tmp < 0)
        return rc;
    close(a->tmp);
    a->tmp = -1;
    if (rc == 0 && (rc = tx_records_out_replace(c->out, a->tmp_path, err, errcap)) == 0) {
        fprintf(stderr, "twixt-arena: %lld line%s of %s set aside into %s; %s now holds the rest\n",
                (long long)a->count, a->count == 1 ? "" : "s", c->out->path, a->rejected_path,
                c->out->path);
        return 0;
    }
    unlink(a->tmp_path);
    return rc;
}

static void abandon_aside(struct aside *a)
{
    if (a->rejected >= 0)
        close(a->rejected);
    if (a->tmp >= 0) {
        close(a->tmp);
        unlink(a->tmp_path);
    }
}

/* Reads every item; see tx_resume_read. *torn_at is set to a torn last
 * line's offset, or -1. */
static int read_items(const struct tx_resume *c, struct tx_records_reader *rd, struct aside *a,
                      tx_resume_record_cb record_cb, void *data, int64_t *torn_at, char *err,
                      size_t errcap)
{
    struct tx_records_seen seen;
    char why[1024];
    int rc = 0;

    *torn_at = -1;
    tx_records_seen_init(&seen);
    while (rc == 0) {
        struct tx_record rec;
        int item = tx_records_next(rd, &rec, why, sizeof why);
        if (item < 0) {
            snprintf(err, errcap, "%s", why);
            rc = item;
            break;
        }
        if (item == TX_RECORDS_END)
            break;
        if (item == TX_RECORDS_TORN) {
            fprintf(stderr, "twixt-arena: warning: %s; removed, that game will be played again\n",
                    why);
            *torn_at = rd->start;
            break;
        }
        if (item == TX_RECORDS_INVALID && c->skip_invalid) {
            rc = set_aside(c, a, rd, why, err, errcap);
            continue;
        }
        if (item != TX_RECORDS_RECORD) {
            snprintf(err, errcap, "%s%s", why,
                     item == TX_RECORDS_INVALID
                         ? " (nothing was changed; --skip-invalid moves such lines into "
                           "FILE.rejected and goes on)"
                         : "");
            rc = -EINVAL;
            break;
        }
        struct tx_records_earlier earlier;
        enum tx_records_sighting sighting;
        if (rec.game < 1) {
            snprintf(err, errcap, "%s:%lld: game index %lld out of range", rd->name,
                     (long long)rd->line, (long long)rec.game);
            rc = -EINVAL;
        } else if ((sighting = tx_records_seen_add(&seen, &rec, rd->name, rd->line, &earlier)) ==
                   TX_RECORDS_CONFLICT) {
            snprintf(why, sizeof why,
                     "%s:%lld: game %lld is also on line %lld, and the two records differ in %s",
                     rd->name, (long long)rd->line, (long long)rec.game, (long long)earlier.line,
                     earlier.differs);
            if (c->skip_invalid)
                rc = set_aside(c, a, rd, why, err, errcap);
            else {
                snprintf(err, errcap,
                         "%s (two runs wrote this file? replay --line N shows each; --skip-invalid "
                         "keeps the first and moves the other into FILE.rejected)",
                         why);
                rc = -EINVAL;
            }
        } else {
            char reason[600] = "";
            if ((rc = keep_until(c, a, rd->end, err, errcap)) == 0 && sighting == TX_RECORDS_NEW &&
                (rc = record_cb(&rec, data, reason, sizeof reason)) < 0)
                snprintf(err, errcap, "%s:%lld: %s", rd->name, (long long)rd->line,
                         reason[0] ? reason : strerror(-rc));
        }
        tx_record_free(&rec);
    }
    tx_records_seen_free(&seen);
    return rc;
}

/* Whether the file ends without a newline (and is not empty). */
static bool ends_without_newline(int fd)
{
    struct stat st;
    char last;
    return fstat(fd, &st) == 0 && st.st_size > 0 && pread(fd, &last, 1, st.st_size - 1) == 1 &&
           last != '\n';
}

int tx_resume_read(const struct tx_resume *c, tx_resume_record_cb record_cb, void *data, char *err,
                   size_t errcap)
{
    struct tx_records_reader rd;
    struct aside a = {.tmp = -1, .rejected = -1};
    int64_t torn_at;
    struct stat st;

    if (tx_records_open_fd(&rd, c->out->fd, c->out->path) < 0) {
        snprintf(err, errcap, "%s: out of memory", c->out->path);
        return -ENOMEM;
    }
    int rc = read_items(c, &rd, &a, record_cb, data, &torn_at, err, errcap);
    tx_records_close(&rd);
    if (rc == 0 && a.tmp >= 0) {
        /* Everything after the last line dealt with, but a torn line. */
        int64_t end = torn_at >= 0                  ? torn_at
                      : fstat(c->out->fd, &st) == 0 ? (int64_t)st.st_size
                                                    : a.copied;
        if ((rc = keep_until(c, &a, end, err, errcap)) == 0)
            rc = finish_aside(c, &a, err, errcap);
    } else if (rc == 0 && torn_at >= 0 && (rc = tx_records_out_cut(c->out, torn_at)) < 0) {
        snprintf(err, errcap, "%s: cannot cut the incomplete last line: %s", c->out->path,
                 strerror(-rc));
    }
    if (rc < 0)
        abandon_aside(&a);
    /* A last record without its newline: the next one starts a new line. */
    if (rc == 0)
        c->out->newline_first = ends_without_newline(c->out->fd);
    return rc;
}
