/* schedule.h - which game is played at each index of a run.
 *
 * A run (a `play` match or a round-robin `tournament`) is a sequence of
 * games numbered from 1. The schedule turns a game index into a
 * tx_game_spec: who plays first, the game's seed, the forced opening. It is
 * a pure function of (bots, options, seed, index): nothing is materialised
 * per game, so game i is the same whether computed alone or in sequence,
 * after a resume or on another machine running another shard.
 *
 * Order: games go by colour-exchanged pairs. Pair p (0-based) is
 * (index - 1) / 2; its first game has the lower-numbered bot of the bot pair
 * moving first, the second game the other one. The bot pairs of the round
 * robin are taken in turn, (0,1) (0,2) .. (1,2) .., one game pair each, then
 * again: so after any prefix every bot pair has played about as often, and
 * the mapping index -> game does not depend on how many games the run has
 * (a run can be extended by resuming it with more games per pair).
 * With two bots this is `play`: BOT1 is player 1 in odd games.
 *
 * Openings: with --openings K, both games of a pair start from the same K
 * forced random legal moves (never a swap, never a move that ends the
 * game), drawn from a generator seeded by (seed, pair); --openings-file
 * gives the lines instead, line (pair mod lines) for pair p.
 */
#ifndef TX_SCHEDULE_H
#define TX_SCHEDULE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "game.h"
#include "geometry.h"
#include "match.h"

#define TX_SCHEDULE_BOTS_MAX 64              /* bots in one tournament */
#define TX_SCHEDULE_OPENING_MAX 64           /* forced moves in one opening */
#define TX_SCHEDULE_OPENING_LINES_MAX 100000 /* lines of an openings file */
#define TX_SCHEDULE_SEED_MASK                                                                      \
    ((UINT64_C(1) << 53) - 1) /* per-game seeds fit a JSON number exactly */

/* An opening read from a file: nmoves holes. */
struct tx_opening {
    int nmoves;
    int16_t moves[TX_SCHEDULE_OPENING_MAX];
};

struct tx_schedule {
    const struct tx_geometry *geo;  /* board, outlives the schedule */
    const struct tx_bot_spec *bots; /* nbots bots, outlive the schedule */
    int nbots;                      /* 2..TX_SCHEDULE_BOTS_MAX */
    uint64_t seed;                  /* the run's seed (--seed) */
    int64_t games;                  /* games in the whole run (every shard) */
    int openings;                   /* K random forced moves per game pair, 0 for none */
    const struct tx_opening *lines; /* openings from a file, or NULL */
    int nlines;
    int shard, shards; /* this process plays index % shards == shard % shards; 1/1 for all */
};

/* The splitmix64 output function: a bijective mixer of 64 bits (Steele,
 * Lea, Flood, "Fast splittable pseudorandom number generators", 2014). */
uint64_t tx_schedule_mix(uint64_t x);

/* The number of bot pairs, n (n - 1) / 2. */
int tx_schedule_pairs(const struct tx_schedule *s);

/* The game at index (1 .. s->games). opening_buf receives its forced moves
 * (room for TX_SCHEDULE_OPENING_MAX) and spec->opening points into it.
 * Returns 0, or -EINVAL when index is out of range. */
int tx_schedule_game(const struct tx_schedule *s, int64_t index, struct tx_game_spec *spec,
                     int16_t *opening_buf);

/* True when this process's shard plays the game at index. */
bool tx_schedule_in_shard(const struct tx_schedule *s, int64_t index);

/* How many of the run's games this shard plays. */
int64_t tx_schedule_shard_games(const struct tx_schedule *s);

/* Reads an openings file: one opening per line, holes separated by spaces
 * ("F6 G8 D5"), blank lines and lines starting with '#' skipped. Every line
 * is checked by playing it (legal, no SWAP, not ending the game, at most
 * TX_SCHEDULE_OPENING_MAX moves). text is the file's content (len bytes),
 * name its path for messages. On success *ret_lines is a malloc'ed array of
 * *ret_n openings. Returns 0, -EINVAL with "FILE:LINE: what was expected"
 * in err, or -ENOMEM. */
int tx_schedule_parse_openings(const struct tx_geometry *geo, const char *name, const char *text,
                               size_t len, struct tx_opening **ret_lines, int *ret_n, char *err,
                               size_t errcap);

/* The run's fingerprint: a hash of everything that decides what a game
 * index means and how it is judged (bots, limits, size, seed, openings),
 * but not the number of games, the shard or the concurrency. Written into
 * each record's "run" field as "v1:" and 16 hex digits (buf >= 24 bytes). */
void tx_schedule_fingerprint(const struct tx_schedule *s, const struct tx_match_config *config,
                             char *buf, size_t cap);

#endif
