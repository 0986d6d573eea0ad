/* pool.h - the games a pool of bots owes, and which one to play next.
 *
 * A run is a pool of bots (or, in Double TwixT, of teams of two bots: the
 * pool's entrants are then the teams, and everything below that says bot
 * says team) under one set of terms (pairing.h: board, limits, seed,
 * openings, opening rule, handicap) and a choice of pairings:
 *
 *   - play: the two bots in the order given (BOT1 is player 1 in odd games);
 *   - a round robin (tournament, league): every two bots;
 *   - a gauntlet (--gauntlet N): each of the first N bots against every
 *     other bot; the others do not play each other.
 *
 * Outside play, a pairing's first bot is the one whose name sorts first.
 * A game is (pairing, k). The pool knows which games are done (the records
 * file, then games as they end) and which are running, and hands out the
 * next one:
 *
 *   - in order (play, tournament): round by round, a round being one
 *     colour pair (k = 2j-1, 2j) of every pairing in turn, so the standings
 *     are balanced at any moment, up to games_per_pair games a pairing.
 *     Games already done are skipped wherever they fall: a run that grows
 *     (a new bot, more games per pair) plays only what is missing;
 *   - by matchmaking (league, no end): tx_pool_match.
 *
 * Shards: game (pairing, k) belongs to shard 1 + (bits + j - 1) mod M,
 * bits being the key's 64 bits and j = (k + 1) / 2 its round: each pairing
 * deals its colour-exchanged pairs to the shards in turn (both games of a
 * pair in one shard), whatever the other pairings are, so M shard files
 * together hold every game exactly once, in whole pairs, and still do
 * after the pool grows.
 *
 * Pure: no I/O. Records are read and written by the runner, to which the
 * pool gives its games in order through the runner's one interface for
 * games (tx_pool_games).
 */
#ifndef TX_POOL_H
#define TX_POOL_H

#include <stdbool.h>
#include <stdint.h>

#include "geometry.h"
#include "match.h"
#include "pairing.h"
#include "record.h"

#define TX_POOL_BOTS_MAX 64 /* bots in one pool */

struct tx_runner_games; /* runner.h */

/* A team of Double TwixT: two bots, the first-named plays first for the
 * team's side (RULES.md "Double TwixT"). */
struct tx_team {
    const char *name;
    const struct tx_bot_spec *bots[2];
};

enum tx_pool_kind {
    TX_POOL_PLAY,        /* two bots, in the order given */
    TX_POOL_ROUND_ROBIN, /* every two bots */
    TX_POOL_GAUNTLET,    /* the first `gauntlet` bots against all others */
};

struct tx_pool_pairing {
    int a, b; /* bot indexes: a is the pairing's first bot (player 1 in odd k) */
    char key[TX_PAIRING_KEY_SIZE];
    uint64_t bits;
    /* What is known of its games. */
    uint8_t *done;       /* bitmap of k: recorded with a result */
    uint8_t *taken;      /* bitmap of k: running now */
    int64_t cap;         /* bits in both maps */
    int64_t ndone;       /* games done */
    int64_t running;     /* games running */
    int64_t half_points; /* a's half points in the games done: 2 a win, 1 a draw */
    int64_t next_k;      /* no free k below it (league) */
    int64_t old_next[2]; /* older records: no free odd (0) / even (1) k below these */
};

struct tx_pool {
    /* Set by the caller before tx_pool_init. */
    const struct tx_geometry *geo;        /* the board as given */
    const struct tx_geometry *geo_turned; /* with a handicap: the same turned (H x W), for the
                                             games its bot plays in the colour geo does not
                                             give the longer distance; else NULL */
    const struct tx_bot_spec *bots;       /* nbots entrants, outlive the pool; names unique.
                                             With teams, one per team: its name, its bots as
                                             the key reads them (tx_pairing_team_command) and
                                             their memory limit */
    int nbots;
    const struct tx_team *teams;   /* Double TwixT (terms.variant.teams): entrant i's two bots,
                                      nbots of them; NULL otherwise */
    struct tx_pairing_terms terms; /* with terms.lines_hash computed (tx_pairing_terms_hash) */
    int memory_mb;                 /* --bot-memory-mb: for bots whose spec says 0; 0 for no limit */
    enum tx_pool_kind kind;
    int gauntlet;           /* TX_POOL_GAUNTLET: how many bots play everyone */
    int64_t games_per_pair; /* in order: games of each pairing; 0 for no end (league) */
    int shard, shards;      /* this process plays shard K of M; 1/1 for all */

    /* Built by tx_pool_init. */
    struct tx_pool_pairing *pairings; /* in schedule order */
    int npairings;
    int *by_bits;      /* pairing indexes sorted by key bits, for tx_pool_find */
    int *of_bots;      /* nbots x nbots: the pairing of two bots, -1 for none */
    int64_t cursor;    /* in order: the next position to look at */
    int64_t owed_done; /* games of this shard done with k <= games_per_pair */
    int pending;       /* league: the pairing whose round's other game comes next, or -1 */
    int64_t pending_k;
};

/* A game to play: its pairing and number, for tx_pool_spec. */
struct tx_pool_game {
    int pairing;
    int64_t k;
};

/* What tx_pool_spec fills for the runner: the spec and what it points to.
 * Lives as long as its game. */
struct tx_pool_slot {
    struct tx_game_spec spec; /* its board is the pool's geo or geo_turned (handicap) */
    int16_t opening[TX_PAIRING_OPENING_MAX];
    struct tx_record_pairing identity; /* a view: names and commands point into the bots */
    char key[TX_PAIRING_KEY_SIZE];     /* identity.key points here */
    char lines_hash[TX_PAIRING_HASH_SIZE];
};

/* The number of pairings of nbots bots for kind (gauntlet: of them). */
int tx_pool_count_pairings(enum tx_pool_kind kind, int nbots, int gauntlet);

/* Builds the pairings and their keys. Returns 0 or -EINVAL (fewer than two
 * bots, a gauntlet of 0 or of every bot, too many bots). */
int tx_pool_init(struct tx_pool *p);

/* Frees what tx_pool_init built; accepts a zeroed pool. */
void tx_pool_free(struct tx_pool *p);

/* The bot's memory limit as the pool applies it: its own, else the pool's;
 * 0 for none. */
int tx_pool_memory(const struct tx_pool *p, const struct tx_bot_spec *bot);

/* The pairing with key, or -1 when the pool has none (a bot that left the
 * pool, other terms). */
int tx_pool_find(const struct tx_pool *p, const char *key);

/* True when game k of pairing i belongs to this process's shard. */
bool tx_pool_in_shard(const struct tx_pool *p, int i, int64_t k);

/* Shards: at most this many (--shard K/M). */
#define TX_POOL_SHARDS_MAX 1000000

/* Looks an environment variable up (getenv, or a test's table). */
typedef const char *(*tx_pool_env_fn)(const char *name, void *data);

/* --shard auto: this task's shard K of M, from the environment a job
 * array's scheduler gives each task: Slurm (SLURM_ARRAY_TASK_ID, _COUNT,
 * _MIN, _MAX, _STEP), Grid Engine (SGE_TASK_ID, _FIRST, _LAST, _STEPSIZE)
 * or AWS Batch (AWS_BATCH_JOB_ARRAY_INDEX, _SIZE). The task ids may start
 * anywhere and step (--array=0-30:10 is shards 1..4 of 4); they must be
 * evenly spaced. PBS, LSF, Kubernetes and GNU parallel give a task its
 * index but not the count: those take --shard "$INDEX/M". Returns 0,
 * -ENOENT when no job array is seen, or -EINVAL (a sparse array, a count
 * missing), with a sentence in why for both. */
int tx_pool_shard_auto(tx_pool_env_fn lookup, void *data, int *shard, int *shards, char *why,
                       size_t cap);

/* Games of this shard the run owes in all (done ones included), or -1 for
 * no end. */
int64_t tx_pool_total(const struct tx_pool *p);

/* Games of this shard done (recorded with a result) and owed by the run. */
int64_t tx_pool_done(const struct tx_pool *p);

/* A record of the run's file: when it is a game of one of the pool's
 * pairings with a result, that game is done. A record of an older
 * twixt-arena (no pairing) counts for the pairing of its two players when
 * both are bots of the pool with the same commands: as the pairing's first
 * free k of its colours (odd when the pairing's first bot is player 1).
 * Returns true when it counted. Interrupted games are never done. */
bool tx_pool_add_record(struct tx_pool *p, const struct tx_record *r);

/* Says what in a record of the run's file contradicts the pool: a bot of
 * the pool whose command or memory limit is not the one the record
 * played it with ("bot 'v3': its command is now './v3 --fast', the file's
 * games were played with './v3'"), or other terms (the option and both
 * values: "--turn-ms: 250 in the file, 300 in this command"). Returns 0
 * when none, -EINVAL with why for other terms, -EEXIST with why for a
 * changed bot. Games of bots no longer in the pool are fine: they stay in
 * the file. */
int tx_pool_check_record(const struct tx_pool *p, const struct tx_record *r, char *why, size_t cap);

/* What a run of the pool does with a record of its file (the pool's games
 * and the league's): refuses other terms or a changed bot (-EINVAL, with
 * the sentence for the user in why), else returns 1 when the record is a
 * game the pool owes, now done (tx_pool_add_record), 0 when not. */
int tx_pool_resumed(struct tx_pool *p, const struct tx_record *r, char *why, size_t cap);

/* The next game in order (play, tournament), marked running; false when
 * every game of the shard is done or running. */
bool tx_pool_next(struct tx_pool *p, struct tx_pool_game *g);

/* The next game by matchmaking (league), marked running; false when the
 * pool has no pairing. The rule (README "Leagues"): first the other game
 * of the round just started; else the pairing with the fewest games (done
 * and running), ties going to the most uncertain result (the first bot's
 * score, counting one extra win and one extra loss, closest to 50%), then
 * to the earlier pairing; in it, the smallest k not done nor running. */
bool tx_pool_match(struct tx_pool *p, struct tx_pool_game *g);

/* Game g as the match plays it, into slot (index: the game's number in the
 * file, "game" in the record). */
void tx_pool_spec(const struct tx_pool *p, struct tx_pool_game g, int64_t index,
                  struct tx_pool_slot *slot);

/* A game handed out by next or match has ended (r NULL: it never
 * started). Found by its key: the pairing may have left the pool since. */
void tx_pool_ended(struct tx_pool *p, const char *key, int64_t k, const struct tx_record *r);

/* The pool's games in order (play, tournament: its shard, tx_pool_next) as
 * the runner's source of games: tx_pool_resumed for the file's records,
 * tx_pool_ended as games end, tx_pool_done and tx_pool_total for progress.
 * The pool must outlive the run. */
void tx_pool_games(struct tx_pool *p, struct tx_runner_games *games);

/* Carries what is known of the games from `from` to `to` (a pool rebuilt
 * with other bots, the league reading its bots file again): pairings with
 * the same key keep their games. to must be initialised. Returns 0. */
int tx_pool_carry(struct tx_pool *to, const struct tx_pool *from);

#endif
