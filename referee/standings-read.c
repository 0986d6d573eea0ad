/* standings-read.c - standings from JSON Lines files of game records.
 *
 * Lines are read with the records reader (records.h), so a file means
 * here what it means to resume and replay: a torn last line is what a
 * kill -9 leaves behind and is skipped with a warning; any other line that
 * is not a record, or a second record of a game that differs from the
 * first, means the file is not what we think it is, and reading stops
 * with FILE:LINE, unless the user asked to skip such lines. Each record
 * must prove its game (proof.h: the rules, its identity, its place in the
 * file's chain) to be handed to tx_standings_add_at (standings.c), which
 * does the counting; one that does not is reported with FILE:LINE and not
 * counted.
 */
#include "standings.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "proof.h"

int tx_standings_read(struct tx_standings *s, const char *path, bool skip_invalid, FILE *warn,
                      int64_t *ret_records, char *err, size_t errcap)
{
    struct tx_records_reader rd;
    struct tx_proof proof;
    char why[1024];
    int64_t duplicates = 0, records = 0;
    int r = tx_records_open(&rd, path, err, errcap);

    if (ret_records)
        *ret_records = 0;
    if (r < 0)
        return r;
    int file = s->nfiles; /* where the games counted here are, for the dashboard */
    s->files = tx_xrealloc(s->files, (size_t)(s->nfiles + 1) * sizeof *s->files);
    s->files[s->nfiles++] = tx_strdup(rd.name);
    tx_proof_init(&proof);
    for (;;) {
        struct tx_record rec;
        struct tx_records_earlier earlier;
        int item = tx_records_next(&rd, &rec, why, sizeof why);
        if (item == TX_RECORDS_END)
            break;
        if (item == TX_RECORDS_TORN) {
            if (warn)
                fprintf(warn, "warning: %s; skipped\n", why);
            continue;
        }
        char failed[600];
        if (item == TX_RECORDS_INVALID) /* the chain goes through it when it can */
            tx_proof_other(&proof, rd.text, rd.len);
        if (item == TX_RECORDS_INVALID && skip_invalid) {
            s->skipped++;
            if (warn)
                fprintf(warn, "warning: %s; skipped\n", why);
            continue;
        }
        if (item != TX_RECORDS_RECORD) {
            snprintf(err, errcap, "%s%s", why,
                     item == TX_RECORDS_INVALID ? " (--skip-invalid leaves such lines out)" : "");
            r = item < 0 ? item : -EINVAL;
            break;
        }
        records++;
        if (!s->unchecked &&
            tx_proof_record(&proof, &rec, rd.text, rd.len, failed, sizeof failed) < 0) {
            s->rejected++;
            if (warn)
                fprintf(warn, "%s:%" PRId64 ": game %" PRId64 ": not counted: %s\n", rd.name,
                        rd.line, rec.game, failed);
            tx_record_free(&rec);
            continue;
        }
        enum tx_standings_added added = tx_standings_add_at(s, &rec, rd.name, rd.line, &earlier);
        if (added == TX_STANDINGS_COUNTED) {
            /* where the game was counted: s, or another condition's standings */
            struct tx_standings *t = tx_standings_of(s, &rec);
            struct tx_standings_game *g = &t->log[t->nlog - 1];
            g->file = file;
            g->line = rd.line;
            g->start = rd.start;
            g->end = rd.end;
        }
        if (added == TX_STANDINGS_DUPLICATE && ++duplicates <= TX_RECORDS_DUPLICATE_WARNINGS &&
            warn)
            fprintf(warn,
                    "warning: %s:%" PRId64 ": game %" PRId64
                    " already counted (the same game as %s:%" PRId64 "), skipped\n",
                    rd.name, rd.line, rec.game, earlier.file, earlier.line);
        if (added == TX_STANDINGS_CONFLICT) {
            snprintf(why, sizeof why,
                     "%s:%" PRId64 ": game %" PRId64 " is also recorded on %s:%" PRId64
                     ", and the two differ in %s",
                     rd.name, rd.line, rec.game, earlier.file, earlier.line, earlier.differs);
            if (!skip_invalid) {
                snprintf(err, errcap,
                         "%s (two runs on one file? replay --line N shows each; --skip-invalid "
                         "counts the first only)",
                         why);
                r = -EINVAL;
                tx_record_free(&rec);
                break;
            }
            s->skipped++;
            if (warn)
                fprintf(warn, "warning: %s; not counted\n", why);
        }
        tx_record_free(&rec);
    }
    if (warn && duplicates > TX_RECORDS_DUPLICATE_WARNINGS)
        fprintf(warn, "warning: %s: %" PRId64 " more duplicate games skipped\n", rd.name,
                duplicates - TX_RECORDS_DUPLICATE_WARNINGS);
    tx_records_close(&rd);
    tx_proof_free(&proof);
    if (ret_records)
        *ret_records = records;
    return r;
}
