/* standings.h - per-bot results aggregated from game records.
 *
 * `twixt-arena standings FILE...` reads JSON Lines files into one
 * tx_standings; `tournament` feeds the same struct record by record (from
 * its runner's record_cb) and prints it at the end. Bots are identified by
 * their name and their program's sha256, so results merge across files,
 * shards and resumed runs; two programs under one name (another sha256 in
 * the records) are shown apart, "name@1a2b3c4d", with a warning, unless
 * merge_builds. Interrupted games are not results and are only counted
 * apart; a game (its pairing and k, or in older records its run and index)
 * seen twice is counted once, and a second record of a game that differs
 * from the first (records.h, tx_records_seen) is not counted.
 *
 * Reading files (standings-read.c) checks every record before counting it:
 * by the rules (verify.h), against its own identity (pairing.h: players,
 * colours, commands, seed, opening) and in its file's hash chain (chain.h).
 * A record that fails is reported with FILE:LINE and not counted.
 *
 * Games of different conditions are never mixed: a condition is a rule
 * set, a board and an opening (swap, pie, cut, none), and handicap games
 * (a record's "handicap" naming one of its bots or teams) are a condition
 * apart from even games. The games of the first condition added are
 * counted in s, those of each other one in its own standings, chained from
 * s by next (every setting copied), so that `standings` on files of
 * several shows one table for each (tx_standings_print_all). Games of two
 * bots and of Double TwixT (four bots in two teams) of one condition are
 * counted together: the teams have their own table and crosstable, and
 * each bot's rating is fitted from both (below).
 *
 * A team is its name and its two bots in the order they play: the same
 * name with other bots is another team, labelled "name=a,b" in the tables
 * when that happens (as two programs under one bot name are "name@sha").
 * A team's games count for it and for each of its bots (the team's result
 * is each bot's); a fault (timeout, invalid move, crash) loses for the
 * team and is counted against the bot that made it, the one whose entry
 * ends the record.
 *
 * A handicap standings (handicap set) has no ratings: its rows say what
 * each handicapped bot (or team: the one named, or holding the bot named)
 * scored against each opponent, on its board (width x height with the
 * longer side first: each game is oriented for its handicapped side).
 *
 * A subset can be looked at: games started since a date, games between
 * some bots only. One bot (the newest: the last to appear; or one chosen)
 * is shown against each opponent and against the pool as a whole, with the
 * Elo difference of those games and its interval (tx_standings_print_versus).
 *
 * Ratings are a Bradley-Terry maximum likelihood fit over all games (see
 * stats.h, tx_stats_fit), anchored at a mean of 0, with 95% intervals: the
 * bots' from their games of two and their team games together, a team
 * playing with the mean of its two bots' ratings; the teams' from the team
 * games alone, each team as one player.
 */
#ifndef TX_STANDINGS_H
#define TX_STANDINGS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "record.h"
#include "records.h"

/* A bot's later turns by time, in bins a quarter of an octave wide: bin 0
 * under TX_STANDINGS_BIN0_MS, bin i from BIN0 * 2^((i-1)/4) to BIN0 *
 * 2^(i/4), the last one up (the dashboard's median and tail, within 10%). */
#define TX_STANDINGS_TIME_BINS 64
#define TX_STANDINGS_BIN0_MS 0.1

struct tx_standings_bot {
    char *name;    /* display name, owned */
    char *sha256;  /* its program's, from its first record; NULL when unknown */
    char *label;   /* what tables show: name, or name@sha256 prefix when the name is shared */
    int64_t games; /* counted games (not interrupted) */
    int64_t wins, draws, losses;
    int64_t timeouts;     /* losses by timeout */
    int64_t invalids;     /* losses by an invalid move */
    int64_t crashes;      /* losses by a crash (exit, closed stdout, never started) */
    int64_t timed_moves;  /* answers with a measured time after the bot's first turn */
    int64_t total_us;     /* their summed time */
    int64_t max_us;       /* the slowest of them */
    int64_t first_max_us; /* the slowest first turn (start-up included: its own limit) */
    int64_t time_bins[TX_STANDINGS_TIME_BINS]; /* the later turns' times (timed_moves) */
    int64_t team_games;                        /* of games, those played in a team (Double TwixT) */
};

/* A team of Double TwixT: a name and two bots, in the order they play. */
struct tx_standings_team {
    char *name;  /* the records' name, owned */
    int bot[2];  /* its bots (indexes into bots): bot[0] moves first for its side */
    char *label; /* what tables show: name, or "name=a,b" (the bots' labels) when other
                    teams share the name */
    int64_t games, wins, draws, losses;
    int64_t timeouts, invalids, crashes; /* losses by one of its bots' faults */
};

/* A row of a handicap standings: what the handicapped side scored against
 * one opponent, in the games where it had the longer distance. */
struct tx_standings_handicap {
    bool teams;                 /* the sides are teams (indexes into teams), else bots */
    int handicapped, opponent;  /* indexes into bots, or into teams */
    int64_t games, wins, draws; /* the handicapped side's (losses: the rest) */
    int64_t faults;             /* its losses by a fault (timeout, invalid move, crash) */
};

/* One counted game, in the order counted: what the dashboard draws the
 * ratings over time from, and where to find the game for its viewer. */
struct tx_standings_game {
    int bot[4];         /* the bots in seat order: player 1's, player 2's, then with teams
                           player 3's and 4's (-1 without) */
    int team[2];        /* with teams, the first team's (seats 1 and 3) and the second's; else -1 */
    int8_t half_points; /* player 1's, or the first team's: 2 a win, 1 a draw, 0 a loss */
    int64_t started;    /* its start (seconds since 1970, UTC), -1 when unknown */
    int file;           /* in the files of the chain's first standings (tx_standings_read),
                           -1 when not read from one */
    int64_t line;       /* its line there */
    int64_t start, end; /* its bytes there, [start, end) */
};

/* One crosstable cell: what the row bot scored against the column bot. */
struct tx_standings_cell {
    int64_t games;
    int64_t half_points; /* 2 per win, 1 per draw: exact, no floating point */
    int64_t wins, draws; /* of the row bot (losses: the rest) */
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
    int64_t rejected;    /* records that failed a check (tx_standings_read): not counted */
    int64_t filtered;    /* games outside since / only (not counted) */
    /* Double TwixT: the teams in order of first appearance, their
     * crosstable (private layout: use tx_standings_team_cell), and how
     * many of the games counted were theirs. */
    int nteams;
    struct tx_standings_team *teams;
    struct tx_standings_cell *team_cells;
    int64_t team_games;
    /* A handicap standings' rows, in order of first appearance. */
    int nhandicap;
    struct tx_standings_handicap *handicap;
    struct tx_standings_game *log; /* every counted game, in the order counted */
    int64_t nlog;
    char **files; /* the files tx_standings_read read, in order ("-": "(stdin)"); in the
                     chain's first standings only */
    int nfiles;
    int first_turn_ms, turn_ms; /* the limits of the games counted: the first game's, -1
                                   for one that differs, 0 before the first */
    /* What to count and how (set before adding). */
    const char *since; /* "2026-11-21" or a full UTC time: games started then or later */
    const char **only; /* names: games between two of them only; NULL for all */
    int nonly;
    bool merge_builds; /* one name is one bot whatever its sha256 */
    bool unchecked;    /* tx_standings_read counts records without proving them: for
                          tests of the counting on synthetic games only */
    bool show_variant; /* print the rule set and board even when they are pp on 12 x 12 */
    /* The condition of the games counted here: the first game's rule set,
     * board and opening (variant.teams is not part of it), and whether
     * they are handicap games (then width >= height). Games of another are
     * added to next (a new standings with the same settings, freed with
     * s), never mixed with these. */
    struct tx_variant variant;
    bool handicapped; /* handicap games: handicap rows, no ratings */
    bool has_variant; /* variant is set (a game was added) */
    struct tx_standings *next;
    /* private */
    int cap, team_cap, handicap_cap;
    int64_t logcap;
    struct tx_records_seen seen; /* the (run, game) pairs seen, for duplicates */
};

/* The crosstable cell of bot i (row) against bot j (column), 0 <= i, j < nbots:
 * their games of two bots. */
const struct tx_standings_cell *tx_standings_cell(const struct tx_standings *s, int i, int j);

/* The team crosstable's cell of team i (row) against team j, 0 <= i, j < nteams. */
const struct tx_standings_cell *tx_standings_team_cell(const struct tx_standings *s, int i, int j);

enum tx_standings_added {
    TX_STANDINGS_COUNTED = 0, /* a result, added */
    TX_STANDINGS_INTERRUPTED, /* not a result, only counted in ->interrupted */
    TX_STANDINGS_DUPLICATE,   /* the same run's game index again, the same game: skipped */
    TX_STANDINGS_CONFLICT,    /* the same run's game index again, another game: not counted */
    TX_STANDINGS_FILTERED,    /* outside since / only: not counted */
};

/* A standings with no bots and no games. */
void tx_standings_init(struct tx_standings *s);

/* Frees everything (the standings of other rule sets and boards chained
 * from it included); accepts a zeroed or freed struct. */
void tx_standings_free(struct tx_standings *s);

/* The index of the bot named name, added with no games if new (so that a
 * tournament lists every bot, even before its first game). */
int tx_standings_bot(struct tx_standings *s, const char *name);

/* Warns on warn, once per name, about names shared by programs with
 * different sha256 (shown apart as name@1a2b3c4d). */
void tx_standings_warn_builds(const struct tx_standings *s, FILE *warn);

/* The standings of the chain from s that counts games of r's condition:
 * s, another of the chain, or a new one at its end. */
struct tx_standings *tx_standings_of(struct tx_standings *s, const struct tx_record *r);

/* Adds one game, to s or, when its condition is not s's, to the standings
 * of its own in the chain (tx_standings_of). The record is not kept (copy
 * nothing, free it after). */
enum tx_standings_added tx_standings_add(struct tx_standings *s, const struct tx_record *r);

/* The same, for a record read at file:line: for a
 * duplicate or a conflict, *earlier says where the game was first seen. */
enum tx_standings_added tx_standings_add_at(struct tx_standings *s, const struct tx_record *r,
                                            const char *file, int64_t line,
                                            struct tx_records_earlier *earlier);

/* Reads every record of a JSON Lines file (path "-" is stdin) with the
 * records reader (records.h: blank lines skipped, a torn last line skipped
 * with a warning). Each record is checked (proof.h); one that fails is
 * reported on warn as "FILE:LINE: game N: not counted: WHY" and counted in
 * s->rejected only. Each duplicate game gets a warning on warn (which may
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

/* The time below which a fraction q (0 to 1) of bot i's later turns
 * took, in ms, from its time bins (the bin's geometric middle); 0 with no
 * timed turn. */
double tx_standings_time_quantile(const struct tx_standings *s, int i, double q);

/* The ranking the tables show: order[k] is the bot ranked k + 1, elo[i]
 * and margin[i] bot i's rating and the half-width of its 95% interval
 * (arrays of nbots). Returns 0 or -ENOMEM. */
int tx_standings_rank(const struct tx_standings *s, int *order, double *elo, double *margin);

/* The same for the teams (arrays of nteams): each team rated as one
 * player from the team crosstable. Returns 0 or -ENOMEM. */
int tx_standings_rank_teams(const struct tx_standings *s, int *order, double *elo, double *margin);

/* The bots' joint fit (the ratings tx_standings_rank ranks by) from
 * counts laid out as s's: pair_points[i * nbots + j] and pair_games the
 * row bot's points against the column bot and their games of two bots,
 * team_points[i * nteams + j] and team_games the same for s's teams. Only
 * bots with a game in these counts are fitted when played_only (the others
 * get NAN): the dashboard's ratings over time. Returns 0 or -ENOMEM. */
int tx_standings_fit(const struct tx_standings *s, const double *pair_points,
                     const double *pair_games, const double *team_points, const double *team_games,
                     bool played_only, double *elo, double *margin);

/* The handicapped side's and the opponent's labels of handicap row k. */
const char *tx_standings_handicap_name(const struct tx_standings *s, int k, bool opponent);

/* A copy of s's results (bots, teams, crosstables, handicap rows, games,
 * files, counters; not the games seen), and of every standings chained
 * from it, to print or draw elsewhere (a league's thread pool) while s
 * goes on counting. Free it with tx_standings_free. */
void tx_standings_copy(struct tx_standings *to, const struct tx_standings *s);

/* Score of bot i as a fraction (wins + draws / 2) / games; 0.5 with no games. */
double tx_standings_score(const struct tx_standings *s, int i);

/* The bot with the best score fraction (ties: more games, then first
 * seen), or -1 when no game is counted. */
int tx_standings_leader(const struct tx_standings *s);

/* The aligned table (ranked by rating) and the crosstable, as text, of s
 * alone (not of the standings chained from it); with teams, the teams'
 * table and crosstable first, and the bots' crosstable only when games of
 * two were counted; a handicap standings prints its rows instead. Its
 * first line names the condition ("classic rules, 30 x 24 board, pie
 * opening: 3 bots, 6 games") unless it is pp on 12 x 12 with the swap,
 * even, and not show_variant. Returns 0 or -ENOMEM. */
int tx_standings_print(const struct tx_standings *s, FILE *out);

/* The same data as one JSON object and a newline ("rules", "width",
 * "height", "opening" and "handicap" say which games it counts); focus as
 * for tx_standings_print_versus ("versus" in the JSON), or NULL for none.
 * Returns 0 or -ENOMEM. */
int tx_standings_print_json(const struct tx_standings *s, const char *const *focus, int nfocus,
                            FILE *out);

/* Every standings of the chain from s, one after the other, as text
 * (tx_standings_print, a blank line between them, each headed by its
 * condition when there are several) or as JSON Lines (one object each),
 * each followed by tx_standings_print_versus ("versus" in JSON) for every
 * bot named in focus that played games of two there, and with newest for
 * its newest bot when it has more than two. Returns 0 or -ENOMEM. */
int tx_standings_print_all(const struct tx_standings *s, const char *const *focus, int nfocus,
                           bool newest, bool json, FILE *out);

/* The bot whose first game of two bots came last (the newest of a pool), or -1. */
int tx_standings_newest(const struct tx_standings *s);

/* The bot labelled or named name (a name shared by several programs: the
 * last of them), or -1. */
int tx_standings_find(const struct tx_standings *s, const char *name);

/* Bot i against each opponent and against the pool as a whole, in games of two bots: games,
 * wins, draws, losses, score and the Elo difference of those games with
 * its 95% interval (cutechess-cli's, as play prints it), then its joint
 * rating. Returns 0 or -ENOMEM. */
int tx_standings_print_versus(const struct tx_standings *s, int i, FILE *out);

#endif
