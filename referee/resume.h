/* resume.h - reading back what a run already wrote to its -o file.
 *
 * Running the same command on the same file resumes it: the runner asks
 * this module for every record of the file. Each record must carry this
 * run's fingerprint ("run"): a file of another configuration is refused
 * with FILE:LINE and what differs (the board size, the limits, the bots of
 * that game index, the seed, or else the commands, memory or openings). A
 * last line torn by a kill (no newline) is cut off the file, with a warning
 * on stderr, so that appending starts on a fresh line.
 */
#ifndef TX_RESUME_H
#define TX_RESUME_H

#include <stddef.h>

#include "match.h"
#include "record.h"
#include "schedule.h"

struct tx_resume {
    const char *path;                    /* the file, for messages */
    int fd;                              /* open O_RDWR: the torn line is cut through it */
    const char *run;                     /* this run's fingerprint (tx_schedule_fingerprint) */
    const struct tx_schedule *schedule;  /* to say what differs */
    const struct tx_match_config *match; /* likewise */
};

/* Called for each record of this run, in file order, interrupted ones
 * included. Returns 0, or a negative errno to stop reading. */
typedef int (*tx_resume_record_cb)(const struct tx_record *record, void *data);

/* Reads the whole file from its start. Returns 0, or a negative errno with
 * a message in err: -EINVAL for a line that is not a record of this run
 * (named FILE:LINE), another code when the file cannot be read or cut. */
int tx_resume_read(const struct tx_resume *resume, tx_resume_record_cb record_cb, void *data,
                   char *err, size_t errcap);

#endif
