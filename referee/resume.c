/* resume.c - reading back the records of a run's file (see resume.h).
 *
 * The file was written one whole line per write(), so the only damage a
 * kill can leave is a last line without its newline: that line is cut off
 * (the next record must start on a line of its own) with a warning. Any
 * other line that is not a record of this very run is an error with its
 * FILE:LINE, because guessing would mix two runs' games in one result.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "resume.h"

/* Says which part of the configuration differs from the record's, as far
 * as the record shows it. */
static void describe_difference(const struct tx_resume *c, const struct tx_record *rec, char *buf,
                                size_t cap)
{
    const struct tx_schedule *s = c->schedule;
    const struct tx_match_config *m = c->match;
    struct tx_game_spec spec;
    int16_t opening[TX_SCHEDULE_OPENING_MAX];

    if (rec->size != s->geo->size)
        snprintf(buf, cap, "board size %d, not %d", rec->size, s->geo->size);
    else if (rec->limits.first_turn_ms != m->limits.first_turn_ms ||
             rec->limits.turn_ms != m->limits.turn_ms ||
             rec->limits.margin_ms != m->limits.margin_ms || rec->limits.soft != m->limits.soft)
        snprintf(buf, cap, "limits %d/%d/%d ms%s (first turn/turn/margin)",
                 rec->limits.first_turn_ms, rec->limits.turn_ms, rec->limits.margin_ms,
                 rec->limits.soft ? " soft" : "");
    else if (tx_schedule_game(s, rec->game, &spec, opening) == 0 &&
             (strcmp(rec->players[0].name, spec.bots[0]->name) ||
              strcmp(rec->players[1].name, spec.bots[1]->name)))
        snprintf(buf, cap, "game %lld between %s and %s, not %s and %s", (long long)rec->game,
                 rec->players[0].name, rec->players[1].name, spec.bots[0]->name,
                 spec.bots[1]->name);
    else if (tx_schedule_game(s, rec->game, &spec, opening) == 0 && spec.seed != rec->seed)
        snprintf(buf, cap, "another --seed");
    else
        snprintf(buf, cap, "other bot commands, memory limit or openings");
}

/* Reads every line of f; see tx_resume_read. */
static int read_lines(const struct tx_resume *c, FILE *f, tx_resume_record_cb record_cb, void *data,
                      char *err, size_t errcap)
{
    char *line = NULL;
    size_t linecap = 0;
    ssize_t len;
    int64_t lineno = 0;
    off_t offset = 0;
    int rc = 0;
    char why[256];

    while (rc == 0 && (len = getline(&line, &linecap, f)) > 0) {
        lineno++;
        if (line[len - 1] != '\n') {
            fprintf(stderr,
                    "twixt-arena: warning: %s:%lld: incomplete last line (the run was killed while "
                    "writing it), ignored and removed\n",
                    c->path, (long long)lineno);
            if (ftruncate(c->fd, offset) < 0) {
                rc = -errno;
                snprintf(err, errcap, "%s: cannot cut the incomplete last line: %s", c->path,
                         strerror(errno));
            }
            break;
        }
        offset += len;
        if (len == 1)
            continue; /* a blank line, as standings allows */
        struct tx_record rec;
        if (tx_record_from_json(line, (size_t)len - 1, &rec, why, sizeof why) < 0) {
            snprintf(err, errcap, "%s:%lld: not a game record: %s", c->path, (long long)lineno,
                     why);
            rc = -EINVAL;
        } else if (!rec.run || strcmp(rec.run, c->run)) {
            char diff[200];
            describe_difference(c, &rec, diff, sizeof diff);
            snprintf(
                err, errcap,
                "%s:%lld: this file holds games of another run (%s); resume with the same bots and "
                "options, or write to another -o FILE",
                c->path, (long long)lineno, rec.run ? diff : "no run fingerprint");
            rc = -EINVAL;
        } else if (rec.game < 1) {
            snprintf(err, errcap, "%s:%lld: game index %lld out of range", c->path,
                     (long long)lineno, (long long)rec.game);
            rc = -EINVAL;
        } else if ((rc = record_cb(&rec, data)) < 0) {
            snprintf(err, errcap, "%s:%lld: %s", c->path, (long long)lineno, strerror(-rc));
        }
        tx_record_free(&rec);
    }
    free(line);
    return rc;
}

int tx_resume_read(const struct tx_resume *c, tx_resume_record_cb record_cb, void *data, char *err,
                   size_t errcap)
{
    /* A second descriptor for stdio reading; bots must not inherit it. */
    int fd = fcntl(c->fd, F_DUPFD_CLOEXEC, 0);
    FILE *f = fd >= 0 ? fdopen(fd, "r") : NULL;
    if (!f) {
        int e = errno;
        if (fd >= 0)
            close(fd);
        snprintf(err, errcap, "%s: cannot read: %s", c->path, strerror(e));
        return -e;
    }
    rewind(f);
    int rc = read_lines(c, f, record_cb, data, err, errcap);
    fclose(f);
    return rc;
}
