/* command.h - bot command lines: NAME=COMMAND, placeholders, word splitting.
 *
 * A bot is given as one string ("python3 bot.py --depth 3", or
 * "deep=python3 bot.py --depth 3"). The referee never runs a shell: the
 * string is split into words the way sh splits them (blanks separate words;
 * '...' keeps everything literally; "..." keeps everything but \" \\ \$ \`
 * and \newline; a backslash outside quotes escapes the next character), with
 * no variable, glob, tilde or command expansion. {seed} and {size} are
 * replaced per game before splitting (they expand to digits, so quoting is
 * not affected). Pure functions, no I/O: the CLI checks bots with them up
 * front, the match uses them for each game.
 */
#ifndef TX_COMMAND_H
#define TX_COMMAND_H

#include <stddef.h>
#include <stdint.h>

#define TX_COMMAND_WORDS_MAX 256 /* words in one command line */
#define TX_COMMAND_NAME_MAX 64   /* bytes of a display name, NUL included */

/* Splits line into words. On success returns 0 and sets *ret_argv to a
 * malloc'ed NULL-terminated array (free it with tx_command_free) and
 * *ret_argc (>= 1). Returns -EINVAL with a reason in err ("unbalanced single
 * quote", "empty command", "trailing backslash", "more than 256 words") and
 * leaves the outputs untouched. err may be NULL. */
int tx_command_split(const char *line, char ***ret_argv, int *ret_argc, char *err, size_t errcap);

/* Frees what tx_command_split returned; accepts NULL. */
void tx_command_free(char **argv);

/* Splits a BOT argument into its display name and its command. "NAME=COMMAND"
 * when the text before the first '=' is a non-empty name of letters, digits
 * and "_.+-" (so "./bot --x=1" and "python3 b.py" are plain commands);
 * otherwise the whole argument is the command and the name is derived
 * (tx_command_derive_name). Writes the name into name (TX_COMMAND_NAME_MAX
 * bytes) and points *ret_command into arg. Returns 0, or -EINVAL with a
 * reason in err when the name or the command is empty or the command does
 * not split. Telling apart two bots with the same name is the caller's job. */
int tx_command_parse_bot(const char *arg, char *name, const char **ret_command, char *err,
                         size_t errcap);

/* A display name for a command: the basename of its program without its
 * extension ("build/bots/twixt-greedy" -> "twixt-greedy"); when the program
 * is an interpreter (python3, node, java, sh, ...) the first argument that
 * is not an option is used instead ("python3 bots/mybot.py" -> "mybot").
 * Writes at most TX_COMMAND_NAME_MAX bytes into name; "bot" when the command
 * does not split. */
void tx_command_derive_name(const char *command, char *name);

/* Returns a malloc'ed copy of command with every "{seed}" replaced by seed
 * and every "{size}" by size, in decimal. Aborts on out of memory. */
char *tx_command_expand(const char *command, uint64_t seed, int size);

#endif
