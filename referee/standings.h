/* standings.h - per-bot results aggregated from game records.
 *
 * `twixt-arena standings FILE...` reads JSON Lines files into one
 * tx_standings; `tournament` feeds the same struct record by record (from
 * its runner's record_cb) and prints it at the end. Bots are identified by
 * their display name (players[i].name), so results merge across files,
 * shards and resumed runs. Interrupted games are not results and are only
 * counted apart; a game of the same run (same "run" fingerprint and game
 * index) seen twice is counted once.
 *
 * Ratings are a Bradley-Terry maximum likelihood fit over all games (see
 * stats.h, tx_stats_ratings), anchored at a mean of 0, with 95% intervals.
 */
#ifndef TX_STANDINGS_H
#define TX_STANDINGS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "record.h"

#define TX_STANDINGS_LINE_MAX (64 * 1024 * 1024) /* longest record line read */

struct tx_standings_bot {
    char *name;    /* display name, owned */
    int64_t games; /* counted games (not interrupted) */
    int64_t wins, draws, losses;
    int64_t timeouts;     /* losses by timeout */
    int64_t invalids;     /* losses by an invalid move */
    int64_t crashes;      /* losses by a crash (exit, closed stdout, never started) */
    int64_t timed_moves;  /* answers with a measured time after the bot's first turn */
    int64_t total_us;     /* their summed time */
    int64_t max_us;       /* the slowest of them */
    int64_t first_max_us; /* the slowest first turn (start-up included: its own limit) */
};

/* One crosstable cell: what the row bot scored against the column bot. */
struct tx_standings_cell {
    int64_t games;
    int64_t half_points; /* 2 per win, 1 per draw: exact, no floating point */
};

struct tx_standings {
    int nbots;
    struct tx_standings_bot *bots; /* in order of first appearance */
    struct tx_standings_cell
        *cells;          /* private layout (capacity-wide rows): use tx_standings_cell */
    int64_t counted;     /* games counted */
    int64_t interrupted; /* interrupted games seen (not counted) */
    int64_t duplicates;  /* repeated games skipped */
    /* private: the (run, game) pairs seen, for duplicates */
    int cap;
    char **runs;
    int nruns;
    uint64_t *seen;
    size_t nseen, seen_cap;
};

/* The crosstable cell of bot i (row) against bot j (column), 0 <= i, j < nbots. */
const struct tx_standings_cell *tx_standings_cell(const struct tx_standings *s, int i, int j);

enum tx_standings_added {
    TX_STANDINGS_COUNTED = 0, /* a result, added */
    TX_STANDINGS_INTERRUPTED, /* not a result, only counted in ->interrupted */
    TX_STANDINGS_DUPLICATE,   /* the same run's game index again, skipped */
};

/* A standings with no bots and no games. */
void tx_standings_init(struct tx_standings *s);

/* Frees everything; accepts a zeroed or freed struct. */
void tx_standings_free(struct tx_standings *s);

/* The index of the bot named name, added with no games if new (so that a
 * tournament lists every bot, even before its first game). */
int tx_standings_bot(struct tx_standings *s, const char *name);

/* Adds one game. The record is not kept (copy nothing, free it after). */
enum tx_standings_added tx_standings_add(struct tx_standings *s, const struct tx_record *r);

/* Reads every record of a JSON Lines file (path "-" is stdin). Blank lines
 * are skipped. A last line without its newline that does not parse is a
 * torn write (kill -9): it is skipped with a warning "FILE:LINE: ..." on
 * warn (which may be NULL), and so is each duplicate game. Returns 0, or
 * -EINVAL with "FILE:LINE: what is wrong" in err for a corrupt line
 * elsewhere, or another negative errno with "FILE: reason" when the file
 * cannot be read. */
int tx_standings_read(struct tx_standings *s, const char *path, FILE *warn, char *err,
                      size_t errcap);

/* Score of bot i as a fraction (wins + draws / 2) / games; 0.5 with no games. */
double tx_standings_score(const struct tx_standings *s, int i);

/* The bot with the best score fraction (ties: more games, then first
 * seen), or -1 when no game is counted. */
int tx_standings_leader(const struct tx_standings *s);

/* The aligned table (ranked by rating) and the crosstable, as text.
 * Returns 0 or -ENOMEM. */
int tx_standings_print(const struct tx_standings *s, FILE *out);

/* The same data as one JSON object and a newline. Returns 0 or -ENOMEM. */
int tx_standings_print_json(const struct tx_standings *s, FILE *out);

#endif
