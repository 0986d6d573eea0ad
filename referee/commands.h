/* commands.h - the subcommands of twixt-arena, one file each (cmd-*.c).
 *
 * main.c only dispatches: argv[0] of each call is the subcommand's name.
 * Each returns the process exit code: 0 success, 1 a check failed
 * (validate, replay verification), 2 a usage or input error.
 */
#ifndef TX_COMMANDS_H
#define TX_COMMANDS_H

#define TX_EXIT_OK 0
#define TX_EXIT_FAILED 1
#define TX_EXIT_USAGE 2

int tx_cmd_play(int argc, char **argv);
int tx_cmd_tournament(int argc, char **argv);
int tx_cmd_validate(int argc, char **argv);
int tx_cmd_replay(int argc, char **argv);
int tx_cmd_standings(int argc, char **argv);

#endif
