/* validate-report.h - the report of `twixt-arena validate`, printed.
 *
 * cmd-validate.c runs the battery (validate.h) and prints its report with
 * one of these: as text for a person, or as one JSON object on one line for
 * a script. Every finding comes with the commands that replay it and
 * re-feed the bot the inputs of that game; program is the twixt-arena
 * program as typed, used in those commands.
 */
#ifndef TX_VALIDATE_REPORT_H
#define TX_VALIDATE_REPORT_H

#include <stdio.h>

#include "validate.h"

void tx_validate_report_print(FILE *out, const char *program, const struct tx_validate_config *c,
                              const struct tx_validate_report *rep);

void tx_validate_report_print_json(FILE *out, const char *program,
                                   const struct tx_validate_config *c,
                                   const struct tx_validate_report *rep);

#endif
