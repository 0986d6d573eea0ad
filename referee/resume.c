/* resume.c - reading back the records of a run's file (see resume.h).
 *
 * The file was written one whole line per write(), and a failed write is
 * undone (records.c), so the only damage a run itself can leave is a last
 * line cut short by a kill: that line is cut off with a warning. Any other
 * line that is not a record of this very run is an error with its
 * FILE:LINE, because guessing would mix two runs' games in one result; the
 * user may ask for bad lines to be set aside instead (--skip-invalid).
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

#include "command.h"
#include "hole.h"
#include "resume.h"

#define QUOTED_MAX 60 /* bytes of a command quoted in a difference */

/* Appends the forced opening moves of the record, or of the spec, as text. */
static void opening_text(const struct tx_geometry *geo, const struct tx_record *rec,
                         const struct tx_game_spec *spec, char *buf, size_t cap)
{
    size_t n = 0;
    buf[0] = '\0';
    int count = 0;
    if (rec)
        while (count < rec->nmoves && rec->moves[count].forced)
            count++;
    else
        count = spec->nopening;
    for (int i = 0; i < count && n + 8 < cap; i++) {
        char name[TX_HOLE_NAME_MAX];
        const char *hole = rec ? rec->moves[i].move : tx_hole_name(geo, spec->opening[i], name);
        n += (size_t)snprintf(buf + n, cap - n, "%s%s", i ? " " : "", hole ? hole : "?");
    }
    if (count == 0)
        snprintf(buf, cap, "none");
}

/* Says which option differs between the record and this command, with
 * both values, as far as the record shows it. */
static void describe_difference(const struct tx_resume *c, const struct tx_record *rec, char *buf,
                                size_t cap)
{
    const struct tx_match_config *m = c->match;
    struct tx_schedule s = *c->schedule;
    struct tx_game_spec spec;
    int16_t opening[TX_SCHEDULE_OPENING_MAX];

    if (rec->size != s.geo->size) {
        snprintf(buf, cap, "--size: %d in the file, %d in this command", rec->size, s.geo->size);
        return;
    }
    if (rec->limits.first_turn_ms != m->first_turn_ms) {
        snprintf(buf, cap, "--first-turn-ms: %d in the file, %d in this command",
                 rec->limits.first_turn_ms, m->first_turn_ms);
        return;
    }
    if (rec->limits.turn_ms != m->turn_ms) {
        snprintf(buf, cap, "--turn-ms: %d in the file, %d in this command", rec->limits.turn_ms,
                 m->turn_ms);
        return;
    }
    if (rec->limits.margin_ms != m->margin_ms) {
        snprintf(buf, cap, "--time-margin-ms: %d in the file, %d in this command",
                 rec->limits.margin_ms, m->margin_ms);
        return;
    }
    if (rec->limits.soft != m->soft_timeouts) {
        snprintf(buf, cap, "--soft-timeouts: %s in the file, %s in this command",
                 rec->limits.soft ? "on" : "off", m->soft_timeouts ? "on" : "off");
        return;
    }
    /* The record's game as this command schedules it (a file may hold
     * games beyond this command's --games). */
    if (rec->game > s.games)
        s.games = rec->game;
    if (tx_schedule_game(&s, rec->game, &spec, opening) < 0) {
        snprintf(buf, cap, "game %lld does not exist in this command", (long long)rec->game);
        return;
    }
    if (strcmp(rec->players[0].name, spec.bots[0]->name) ||
        strcmp(rec->players[1].name, spec.bots[1]->name)) {
        snprintf(buf, cap,
                 "the bots of game %lld: %s and %s in the file, %s and %s in this command",
                 (long long)rec->game, rec->players[0].name, rec->players[1].name,
                 spec.bots[0]->name, spec.bots[1]->name);
        return;
    }
    if (spec.seed != rec->seed) {
        snprintf(buf, cap,
                 "--seed: game %lld has the seed %llu in the file, %llu with this command's "
                 "--seed %llu",
                 (long long)rec->game, (unsigned long long)rec->seed, (unsigned long long)spec.seed,
                 (unsigned long long)s.seed);
        return;
    }
    for (int p = 0; p < 2; p++) {
        char *expanded = tx_command_expand(spec.bots[p]->command, spec.seed, s.geo->size);
        bool same = !strcmp(expanded, rec->players[p].command ? rec->players[p].command : "");
        if (!same)
            snprintf(buf, cap, "the command of %s: \"%.*s\" in the file, \"%.*s\" in this command",
                     spec.bots[p]->name, QUOTED_MAX,
                     rec->players[p].command ? rec->players[p].command : "", QUOTED_MAX, expanded);
        free(expanded);
        if (!same)
            return;
    }
    char file_opening[256], our_opening[256];
    opening_text(s.geo, rec, NULL, file_opening, sizeof file_opening);
    opening_text(s.geo, NULL, &spec, our_opening, sizeof our_opening);
    if (strcmp(file_opening, our_opening)) {
        snprintf(buf, cap,
                 "--openings or --openings-file: game %lld opens with %.100s in the file, %.100s "
                 "with this command",
                 (long long)rec->game, file_opening, our_opening);
        return;
    }
    snprintf(buf, cap,
             "--bot-memory-mb or --openings-file, which records do not show: this command has "
             "--bot-memory-mb %d%s",
             m->bot_memory_mb, s.nlines ? " and an openings file" : " and no openings file");
}

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
        if (!rec.run || strcmp(rec.run, c->run)) {
            char diff[400];
            if (rec.run)
                describe_difference(c, &rec, diff, sizeof diff);
            snprintf(
                err, errcap,
                "%s:%lld: this file holds games of another run (%s); resume with the same bots and "
                "options, or write to another -o FILE",
                rd->name, (long long)rd->line,
                rec.run ? diff : "a record without a run fingerprint");
            rc = -EINVAL;
        } else if (rec.game < 1) {
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
            if ((rc = keep_until(c, a, rd->end, err, errcap)) == 0 && sighting == TX_RECORDS_NEW &&
                (rc = record_cb(&rec, data)) < 0)
                snprintf(err, errcap, "%s:%lld: %s", rd->name, (long long)rd->line, strerror(-rc));
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
