/* command.h - bot command lines: NAME=COMMAND, placeholders, word splitting.
 *
 * A bot is given as one string ("python3 bot.py --depth 3", or
 * "deep=python3 bot.py --depth 3"). The referee never runs a shell: the
 * string is split into words the way sh splits them (blanks separate words;
 * '...' keeps everything literally; "..." keeps everything but \" \\ \$ \`
 * and \newline; a backslash outside quotes escapes the next character), with
 * no variable, glob, tilde or command expansion. The placeholders
 * (TX_COMMAND_PLACEHOLDERS) are replaced per game before splitting (they
 * expand to digits and words, so quoting is not affected). Pure functions but the
 * program lookup (tx_command_find_program, tx_command_check), which looks at
 * the file system: the CLI checks every bot with them up front, the match
 * uses them for each game.
 */
#ifndef TX_COMMAND_H
#define TX_COMMAND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rules.h"

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

/* The placeholders a command may hold, as the messages list them. */
#define TX_COMMAND_PLACEHOLDERS "{seed}, {size}, {rules}, {width}, {height}, {opening} and {teams}"

/* Returns a malloc'ed copy of command with every "{seed}" replaced by seed,
 * "{size}" and "{width}" by the board's width, "{height}" by its height, in
 * decimal, "{rules}" by the rule set's name ("pp", "classic"), "{opening}"
 * by the opening rule's ("swap", "pie", "cut", "none") and "{teams}" by 1
 * in a game of Double TwixT, else 0 (RULES.md "Rule sets"). {size} on a
 * board that is not square is refused before (tx_command_has_size). Aborts
 * on out of memory. */
char *tx_command_expand(const char *command, uint64_t seed, const struct tx_variant *v);

/* Refuses a placeholder other than those of TX_COMMAND_PLACEHOLDERS: a
 * "{word}" (a letter, then letters, digits, '_' or '-') that would reach the
 * bot as it is, almost always a typo. Returns 0, or -EINVAL with "unknown
 * placeholder {sed} (the placeholders are ...)" in err. */
int tx_command_check_placeholders(const char *command, char *err, size_t errcap);

/* True when command has {size}: a bot without it plays whatever board it
 * assumes (12 x 12), whatever --size says. */
bool tx_command_has_size(const char *command);

/* True when a bot run by command learns the board: its command names
 * {size}, {width} or {height}, or it is one of the bundled bots (found
 * where tx_paths_bundled_bot finds them), which read TWIXT_WIDTH and
 * TWIXT_HEIGHT. Other bots may read those too, but a CodinGame bot
 * assumes 12 x 12. Looks the program up in the file system: for the CLI. */
bool tx_command_knows_board(const char *command);

/* Finds program as execvp(3) does: a word with a '/' is a path, any other
 * names the first executable regular file of that name in the directories
 * of PATH ("/bin:/usr/bin" when PATH is unset; an empty entry is the
 * current directory). Writes the file found into path (cap bytes). Returns
 * 0, or a negative errno with the reason in err (may be NULL), worded the
 * same everywhere:
 *   -ENOENT "no such file"                        (a path)
 *   -EISDIR "is a directory"                      (a path)
 *   -EACCES "not executable: chmod +x it, or name its interpreter
 *            (e.g. \"python3 PROGRAM\")"         (a path)
 *   -ENOENT "not found in PATH (for a file here, write ./PROGRAM)"
 * This is the one program lookup: the CLI's checks and the executable
 * hashes of records (sha256.h) both use it. */
int tx_command_find_program(const char *program, char *path, size_t cap, char *err, size_t errcap);

/* Checks that a bot's command line can start: it splits, its program
 * (with {seed} and {size} replaced, size being the board's) is found by
 * tx_command_find_program, for a "#!" script its interpreter exists, and
 * for an interpreter run on a script ("python3 bot.py", "node bot.js") the
 * script exists. dir is the bot's working directory (a bots file's "dir"),
 * where its relative paths are found; NULL for the current directory.
 * Returns 0, or a negative errno with "cannot run 'PROGRAM': REASON" ("...
 * in DIR: REASON" with a dir; or "bad command line: REASON") in err. Blocking file-system calls:
 * for the CLI, before anything starts. */
int tx_command_check(const char *command, const struct tx_variant *v, const char *dir, char *err,
                     size_t errcap);

#endif
