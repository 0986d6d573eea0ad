/* resume.h - reading back what a run already wrote to its -o file.
 *
 * Running the same command on the same file resumes it: the runner asks
 * this module for every record of the file, read with the records reader
 * (records.h: one rule for blank, torn and bad lines), and hands each
 * record to the run (runner.h: its source of games), which counts it or
 * refuses the file with a reason: then the resume stops with FILE:LINE and
 * the reason (the option that differs, with the file's value and the
 * command's: "--turn-ms: 250 in the file, 300 in this command"; a bot whose
 * command changed). A torn last line is cut off with a warning, so that appending
 * starts on a fresh line; a last record without its newline gets one
 * before the next record. Two different records of one game are refused.
 *
 * A line that is not a record stops the resume with FILE:LINE, and
 * nothing is deleted, unless skip_invalid is set: then every such line
 * (and a second, different record of a game) is moved into FILE.rejected,
 * each reported on stderr, and FILE is rewritten without them.
 */
#ifndef TX_RESUME_H
#define TX_RESUME_H

#include <stdbool.h>
#include <stddef.h>

#include "match.h"
#include "record.h"
#include "records.h"

struct tx_resume {
    struct tx_records_out *out; /* the run's file, just opened and locked */
    bool skip_invalid;          /* set bad lines aside into FILE.rejected */
};

/* Called for each record, in file order, interrupted ones included, a game
 * recorded twice (the same game) only once. Returns 0, or a negative errno
 * to stop reading, with the reason in why when it is the file's fault
 * (-EINVAL: "--seed: 1 in the file, 2 in this command"). */
typedef int (*tx_resume_record_cb)(const struct tx_record *record, void *data, char *why,
                                   size_t cap);

/* Reads the whole file from its start. Returns 0, or a negative errno with
 * a message in err: -EINVAL for a line that is not a record of this run
 * (named FILE:LINE), another code when the file cannot be read, cut or
 * rewritten. */
int tx_resume_read(const struct tx_resume *resume, tx_resume_record_cb record_cb, void *data,
                   char *err, size_t errcap);

#endif
