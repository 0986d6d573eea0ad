/* setup.h - what play and tournament build from their options before
 * running a schedule: the board, the schedule (with the openings file read
 * and checked), the match limits and the command that resumes the run.
 */
#ifndef TX_SETUP_H
#define TX_SETUP_H

#include <stdint.h>

#include "geometry.h"
#include "match.h"
#include "options.h"
#include "schedule.h"

/* Heap-allocated: the geometry is big. */
struct tx_setup {
    struct tx_geometry geo;
    struct tx_schedule schedule;  /* points to the options' bots: keep them alive */
    struct tx_opening *lines;     /* from --openings-file, or NULL */
    struct tx_match_config match; /* limits from the options */
    char resume_command[8192];    /* argv as a shell command, to print after an interrupt */
};

/* Builds *ret from parsed options; games is the number of games of the
 * whole run. program (as typed) and the subcommand's argv (argv[0] its
 * name) make the resume command. It also makes the options' sandbox the
 * process's current one (tx_sandbox_configure: a warning on stderr when
 * --sandbox auto cannot isolate bots). Returns 0, or -EINVAL/-errno with a
 * message in err (a missing or bad openings file, named FILE:LINE; a bad
 * --bot-env; -ENOTSUP: --sandbox on where bots cannot be isolated). Free
 * with tx_setup_free. */
int tx_setup_new(const struct tx_options *o, int64_t games, const char *program, int argc,
                 char **argv, struct tx_setup **ret, char *err, size_t errcap);

/* Frees what tx_setup_new built; accepts NULL. */
void tx_setup_free(struct tx_setup *setup);

#endif
