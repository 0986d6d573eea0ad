/* bots-file.h - a pool's bots in one JSON file (--bots FILE).
 *
 * Like cutechess-cli's engines.json: a top-level array of objects, one per
 * bot (protocol/bots-file.schema.json is the schema):
 *
 *   [{"name": "v7", "command": "./bot --seed {seed}", "dir": "v7",
 *     "env": {"OMP_NUM_THREADS": "1"}, "memory_mb": 1024, "cpus": 2,
 *     "writable": ["v7/logs"]},
 *    {"name": "greedy", "command": "twixt-greedy"}]
 *
 * name (letters, digits and "_.+-", as NAME= on the command line) and
 * command (split like a BOT argument, {seed} and {size} replaced per game)
 * are required. dir is the bot's working directory, relative to the file's
 * own directory; env adds variables to its clean environment (over
 * --bot-env's: sandbox.h); memory_mb replaces --bot-memory-mb for this bot
 * (0: no limit), cpus --bot-cpus (0: no quota); writable lists directories
 * (relative to the file's directory) it may write to in the sandbox, with
 * --bot-writable's; "handicap": true gives this bot the longer distance in
 * every game (as --handicap NAME: RULES.md "Handicap matches"; one entry
 * at most). Nothing else is per bot: time limits belong to the game (both
 * players have the same clock, as on CodinGame, and a record holds one set
 * of limits per game).
 *
 * A team of Double TwixT (a tournament of teams) is an entry of its own:
 *
 *   {"team": "alpha", "memory_mb": 1024,
 *    "bots": [{"name": "a1", "command": "./a"}, {"name": "a2", "command": "./b"}]}
 *
 * team is its name (a bot's name's shape), bots exactly two bot objects as
 * above, the first moving first for the team's side, and memory_mb (on the
 * team, not on its bots: both share it, as a pairing key holds one limit
 * per side) replaces --bot-memory-mb for both. A file holds bots or teams,
 * not both: a pool is one or the other. Bot names are unique in the file,
 * team names among teams.
 *
 * Parsing is pure (text in, bots out), so every mistake is tested as a
 * table; each is reported as "FILE:LINE: bot 'NAME': FIELD: what was
 * expected" ("FILE:LINE: team 'T': bot 'NAME': ..." in a team), LINE being
 * where the field (or the bot's object) starts.
 * tx_bots_file_load reads the file first; the league calls it between games
 * to pick up bots added or removed while it runs.
 */
#ifndef TX_BOTS_FILE_H
#define TX_BOTS_FILE_H

#include <stdbool.h>
#include <stddef.h>

#define TX_BOTS_FILE_MAX (1 << 20)    /* bytes: a bots file is a short list */
#define TX_BOTS_FILE_ENV_MAX 64       /* variables per bot */
#define TX_BOTS_FILE_MEMORY_NONE (-1) /* memory_mb 0 in the file: no limit */
#define TX_BOTS_FILE_CPUS_NONE (-1.0) /* cpus 0 in the file: no quota (TX_SANDBOX_CPUS_NONE) */

struct tx_bots_file_bot {
    char *name;
    char *command;
    char *dir;       /* working directory: absolute, or the file's directory joined with
                        the given one; NULL when not given (the referee's) */
    char **env;      /* "NAME=VALUE" strings, NULL-terminated; NULL when not given */
    int memory_mb;   /* 0: not given (the run's limit); TX_BOTS_FILE_MEMORY_NONE: none; else MB */
    double cpus;     /* 0: not given (the run's quota); TX_BOTS_FILE_CPUS_NONE: none; else CPUs */
    char **writable; /* directories, resolved like dir, NULL-terminated; NULL when not given */
    bool handicap;   /* "handicap": true: the longer distance in every game (--handicap NAME) */
    int line;        /* the line where its object starts */
};

/* A team entry: its bots are two of the file's (bots[first], bots[first + 1]). */
struct tx_bots_file_team {
    char *name;
    int first;     /* its first bot's index in bots; the second follows it */
    int line;      /* the line where its object starts */
    bool handicap; /* "handicap": true on the team */
};

struct tx_bots_file {
    struct tx_bots_file_bot *bots; /* in file order, the teams' bots included */
    int nbots;
    struct tx_bots_file_team *teams; /* in file order; none in a file of bots */
    int nteams;
    const char *handicap; /* the name of the bot or team with "handicap": true (at most one),
                             pointing into bots or teams; NULL for none */
};

/* Parses text (len bytes, the content of the file named path: used in
 * messages and to resolve relative dirs). Returns 0 with *ret filled (free
 * it with tx_bots_file_free), or -EINVAL with "PATH:LINE: ..." in err. An
 * empty array is a valid file with no bots. */
int tx_bots_file_parse(const char *path, const char *text, size_t len, struct tx_bots_file *ret,
                       char *err, size_t errcap);

/* Reads path (at most TX_BOTS_FILE_MAX bytes) and parses it. Returns 0, or
 * a negative errno with "PATH: why" or "PATH:LINE: ..." in err. */
int tx_bots_file_load(const char *path, struct tx_bots_file *ret, char *err, size_t errcap);

/* Frees what parse or load returned; accepts a zeroed struct. */
void tx_bots_file_free(struct tx_bots_file *f);

#endif
