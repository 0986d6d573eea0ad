/* commands.h - the subcommands of twixt-arena, one file each (cmd-*.c).
 *
 * main.c only dispatches. Each subcommand has its command line
 * (tx_cmd_*_line: operands, summary, the paragraph of its --help; the
 * options are options.c's table) and its run function. program is the
 * program as the user typed it (argv[0] of main), for the commands printed
 * back (the resume command, validate's replay commands, the usage hint);
 * argv[0] is the subcommand's name. Each returns the process exit status:
 * 0 success, 1 a check failed (validate, replay verification), 2 a usage
 * or input error, 128 + N after signal N.
 */
#ifndef TX_COMMANDS_H
#define TX_COMMANDS_H

#include "options.h"

#define TX_EXIT_OK 0
#define TX_EXIT_FAILED 1
#define TX_EXIT_USAGE 2

extern const struct tx_options_command tx_cmd_play_line, tx_cmd_tournament_line,
    tx_cmd_validate_line, tx_cmd_replay_line, tx_cmd_standings_line, tx_cmd_league_line,
    tx_cmd_referee_line;

int tx_cmd_play(const char *program, int argc, char **argv);
int tx_cmd_tournament(const char *program, int argc, char **argv);
int tx_cmd_validate(const char *program, int argc, char **argv);
int tx_cmd_replay(const char *program, int argc, char **argv);
int tx_cmd_standings(const char *program, int argc, char **argv);
int tx_cmd_league(const char *program, int argc, char **argv);
int tx_cmd_referee(const char *program, int argc, char **argv);

#endif
