/* setup.h - what play, tournament and league build from their options
 * before any game: the board, the pool of bots (the command line's, then
 * the bots file's) or of teams (--teams, a bots file's team entries) with
 * its pairings, the handicap, the openings, the match limits and the
 * command that resumes the run.
 *
 * This is where the bots file is read and every bot of it checked (its
 * directory exists, its program can run there), so that a mistake is one
 * message with FILE:LINE and exit status 2, not a run of crashes. (The
 * command line's bots were looked up by the option parsing already:
 * tx_options_cli.)
 */
#ifndef TX_SETUP_H
#define TX_SETUP_H

#include <stdint.h>

#include "bots-file.h"
#include "geometry.h"
#include "match.h"
#include "options.h"
#include "pool.h"
#include "schedule.h"

#define TX_SETUP_TEAMS_MAX (TX_POOL_BOTS_MAX / 2)

struct tx_setup {
    struct tx_geometry *geo;                   /* the board of --board or --size */
    struct tx_geometry *geo_turned;            /* with a handicap: the same turned, else NULL */
    struct tx_bot_spec bots[TX_POOL_BOTS_MAX]; /* the command line's, then the file's (its
                                                  teams' included) */
    int nbots;
    /* Double TwixT: the teams (--teams, then the file's), the pool's
     * entrants; entrants[i] is teams[i] as the pairing key reads it. */
    struct tx_team teams[TX_SETUP_TEAMS_MAX];
    struct tx_bot_spec entrants[TX_SETUP_TEAMS_MAX];
    int nteams;
    struct tx_bots_file file;     /* --bots: owns the strings of its bots */
    struct tx_pool pool;          /* points to bots */
    struct tx_opening *lines;     /* from --openings-file, or NULL */
    struct tx_match_config match; /* limits from the options */
    char resume_command[8192];    /* argv as a shell command, to print after an interrupt */
    const char *handicap;         /* --handicap or the file's "handicap": true, NULL */
};

/* Builds *ret from parsed options: a pool of kind (TX_POOL_ROUND_ROBIN
 * becomes a gauntlet with --gauntlet) with games_per_pair games a pairing
 * (0: no end, a league), of bots or (with --teams or team entries) of
 * teams, every bot in exactly one team. program (as typed) and the subcommand's argv
 * (argv[0] its name) make the resume command. It also makes the options'
 * sandbox the process's current one (tx_sandbox_configure: a warning on
 * stderr when --sandbox auto cannot isolate bots). Returns 0, or
 * -EINVAL/-errno with a message in err (a bad openings or bots file, named
 * FILE:LINE; a bot whose program cannot run; too few bots; a bad
 * --bot-env; -ENOTSUP: --sandbox on where bots cannot be isolated). Free
 * with tx_setup_free. */
int tx_setup_new(const struct tx_options *o, enum tx_pool_kind kind, int64_t games_per_pair,
                 const char *program, int argc, char **argv, struct tx_setup **ret, char *err,
                 size_t errcap);

/* Adds the bots of a bots file to bots (n of them, at most TX_POOL_BOTS_MAX
 * in all), each one checked: a name not used yet, a directory that exists,
 * a program that can run. The specs point into file, which must outlive
 * them. Returns 0, or -EINVAL with "PATH:LINE: bot 'NAME': ..." in err. */
int tx_setup_add_file_bots(const char *path, const struct tx_bots_file *file,
                           const struct tx_variant *variant, struct tx_bot_spec *bots, int *n,
                           char *err, size_t errcap);

/* Frees what tx_setup_new built; accepts NULL. */
void tx_setup_free(struct tx_setup *setup);

#endif
