/* league.h - a league that runs until it is stopped: the runner's source of
 * games for `twixt-arena league`.
 *
 * A league is a pool of bots (the command line's and a bots file's) that
 * plays game pairs forever. Each next game is chosen by matchmaking
 * (pool.h, tx_pool_match: first the other game of the round just started;
 * else the pairing with the fewest games, ties going to the most uncertain
 * result, then to the earlier pairing). The bots file is watched while the
 * league runs (uv_fs_poll, checked in libuv's thread pool): a bot added to
 * it gets games from the next game on (its pairings have none, so they come
 * first), a bot removed from it plays no new game (its games stay in the
 * records file). A file that does not parse, or that gives an existing
 * name another command, is reported and the league goes on with the bots
 * it has. Every N games the standings are written to PREFIX.txt,
 * PREFIX.json and the dashboard PREFIX.html (render-dashboard.h), each
 * replaced whole (a temporary file renamed over it), with the viewer pages
 * of the pairings that played since the last write in PREFIX-games/, all
 * from the thread pool. Stopping (Ctrl-C, kill) and resuming are the runner's,
 * as for a tournament.
 */
#ifndef TX_LEAGUE_H
#define TX_LEAGUE_H

#include <stdbool.h>
#include <stdint.h>
#include <uv.h>

#include "bots-file.h"
#include "pool.h"
#include "runner.h"
#include "standings.h"

#define TX_LEAGUE_WATCH_MS 500 /* how often the bots file is looked at */

struct tx_league_files; /* bots files loaded so far: their strings live until the end */
struct tx_league_pages; /* each pairing's games in the records file, for its viewer page */

struct tx_league {
    /* Set by the caller before tx_league_init. */
    struct tx_pool *pool;  /* the first pool (setup.h); the league rebuilds it on changes */
    const char *bots_path; /* the bots file to watch, or NULL */
    const struct tx_bot_spec *fixed; /* the command line's bots, always in the league */
    int nfixed;
    const char *standings_out; /* standings_out.txt, .json and .html; NULL for none */
    const char *records;       /* the -o file: the dashboard's viewer pages read it */
    int every;                 /* games between two writes of the standings */

    /* Kept by the league. */
    struct tx_runner_games source; /* give this to the runner (config.games) */
    struct tx_standings standings; /* every game of the league's bots seen so far */
    int64_t done;                  /* games done: resumed and played */
    int64_t since_written;         /* games since the standings files were written */
    struct tx_league_files *files;
    struct tx_league_pages *pages;
    uv_fs_poll_t watch;
    bool watching, reloading, detached;
    int writing; /* standings writes in flight */
    uv_loop_t *loop;
    struct tx_runner *runner;
};

/* A league plays bots, in even games: a bots file (path, as loaded) with
 * team entries or a "handicap" is refused. Returns 0, or -EINVAL with
 * "PATH:LINE: ..." in err. */
int tx_league_check_file(const char *path, const struct tx_bots_file *f, char *err, size_t errcap);

/* Prepares the source of games around a pool built by tx_setup_new (the
 * league takes its pairings over; the pool's bots must outlive the
 * league). Returns 0. */
int tx_league_init(struct tx_league *l);

/* The runner's record callback (data: the league): counts the game in the
 * standings and writes the standings files every `every` new games. */
void tx_league_record(struct tx_runner *runner, const struct tx_record *record, bool resumed,
                      void *data);

/* Writes the standings files now (blocking: at the end of the run).
 * Returns 0, or a negative errno after a message on stderr. */
int tx_league_write_standings(struct tx_league *l);

/* Frees the league (not the first pool, which stays the setup's). */
void tx_league_free(struct tx_league *l);

#endif
