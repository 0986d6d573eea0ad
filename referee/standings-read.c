/* standings-read.c - standings from JSON Lines files of game records.
 *
 * Reading files is where the user's mistakes and crashes show up, so each
 * problem names FILE:LINE. A torn last line is what a kill -9 leaves behind
 * and is skipped with a warning; any other bad line means the file is not
 * what we think it is, and reading stops with an error. Each record read is
 * handed to tx_standings_add (standings.c), which does the counting.
 */
#include "standings.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DUPLICATE_WARNINGS_MAX 10 /* per file; then one line with the count */

static bool blank(const char *line, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (line[i] != ' ' && line[i] != '\t' && line[i] != '\r' && line[i] != '\n')
            return false;
    return true;
}

int tx_standings_read(struct tx_standings *s, const char *path, FILE *warn, char *err,
                      size_t errcap)
{
    bool is_stdin = strcmp(path, "-") == 0;
    const char *shown = is_stdin ? "(stdin)" : path;
    FILE *f = is_stdin ? stdin : fopen(path, "rb");
    if (!f) {
        int e = errno;
        snprintf(err, errcap, "%s: %s", shown, strerror(e));
        return -e;
    }
    char *line = NULL, why[512];
    size_t linecap = 0;
    int64_t lineno = 0, duplicates = 0;
    int r = 0;
    ssize_t n;
    errno = 0;
    while ((n = getline(&line, &linecap, f)) >= 0) {
        lineno++;
        size_t len = (size_t)n;
        bool complete = len > 0 && line[len - 1] == '\n';
        if (len > TX_STANDINGS_LINE_MAX) {
            snprintf(err, errcap, "%s:%" PRId64 ": line longer than %d bytes: not a game record",
                     shown, lineno, TX_STANDINGS_LINE_MAX);
            r = -EINVAL;
            break;
        }
        if (blank(line, len))
            continue;
        struct tx_record rec;
        int rr = tx_record_from_json(line, len, &rec, why, sizeof(why));
        if (rr < 0) {
            tx_record_free(&rec);
            if (!complete) {
                /* no newline: the last line, cut short by a killed writer */
                if (warn)
                    fprintf(warn, "%s:%" PRId64 ": warning: torn last line skipped (%s)\n", shown,
                            lineno, why);
                break;
            }
            snprintf(err, errcap, "%s:%" PRId64 ": %s", shown, lineno, why);
            r = -EINVAL;
            break;
        }
        if (tx_standings_add(s, &rec) == TX_STANDINGS_DUPLICATE &&
            ++duplicates <= DUPLICATE_WARNINGS_MAX && warn)
            fprintf(warn,
                    "%s:%" PRId64 ": warning: game %" PRId64
                    " of run %s already counted, skipped\n",
                    shown, lineno, rec.game, rec.run);
        tx_record_free(&rec);
    }
    if (r == 0 && ferror(f)) {
        r = errno ? -errno : -EIO;
        snprintf(err, errcap, "%s: %s", shown, strerror(-r));
    }
    if (warn && duplicates > DUPLICATE_WARNINGS_MAX)
        fprintf(warn, "%s: warning: %" PRId64 " more duplicate games skipped\n", shown,
                duplicates - DUPLICATE_WARNINGS_MAX);
    free(line);
    if (!is_stdin)
        fclose(f);
    return r;
}
