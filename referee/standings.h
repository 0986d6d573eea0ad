/* standings.h - per-bot results aggregated from game records.
 *
 * `twixt-arena standings FILE...` reads JSON Lines files into one
 * tx_standings; `tournament` feeds the same struct record by record (from
 * its runner's record_cb) and prints it at the end. Bots are identified by
 * their display name (players[i].name), so results merge across files,
 * shards and resumed runs. Interrupted games are not results and are only
 * counted apart; a game of the same run (same "run" fingerprint and game
 * index) seen twice is counted once, and a second record of a game that
 * differs from the first (records.h, tx_records_seen) is not counted.
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
#include "records.h"

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
    int64_t conflicts;   /* second records of a game that differ from the first: not counted */
    int64_t skipped;     /* lines left out by --skip-invalid (tx_standings_read) */
    /* private */
    int cap;
    struct tx_records_seen seen; /* the (run, game) pairs seen, for duplicates */
};

/* The crosstable cell of bot i (row) against bot j (column), 0 <= i, j < nbots. */
const struct tx_standings_cell *tx_standings_cell(const struct tx_standings *s, int i, int j);

enum tx_standings_added {
    TX_STANDINGS_COUNTED = 0, /* a result, added */
    TX_STANDINGS_INTERRUPTED, /* not a result, only counted in ->interrupted */
    TX_STANDINGS_DUPLICATE,   /* the same run's game index again, the same game: skipped */
    TX_STANDINGS_CONFLICT,    /* the same run's game index again, another game: not counted */
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

/* The same, for a record read at file:line: for a
 * duplicate or a conflict, *earlier says where the game was first seen. */
enum tx_standings_added tx_standings_add_at(struct tx_standings *s, const struct tx_record *r,
                                            const char *file, int64_t line,
                                            struct tx_records_earlier *earlier);

/* Reads every record of a JSON Lines file (path "-" is stdin) with the
 * records reader (records.h: blank lines skipped, a torn last line skipped
 * with a warning). Each duplicate game gets a warning on warn (which may
 * be NULL). Returns 0, or a negative errno with the message in err: -EINVAL
 * with "FILE:LINE: ..." for a line that is not a record or a second,
 * different record of a game, or for a file that is not JSON Lines at all;
 * another code with "FILE: reason" when the file cannot be read. With
 * skip_invalid, lines that are not records and conflicting records are
 * warnings ("...; skipped", counted in s->skipped) instead, and only a
 * file that is not JSON Lines at all or cannot be read is an error. *ret_records
 * (may be NULL) receives the number of records the file held. */
int tx_standings_read(struct tx_standings *s, const char *path, bool skip_invalid, FILE *warn,
                      int64_t *ret_records, char *err, size_t errcap);

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
