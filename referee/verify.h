/* verify.h - replaying a game record through libtwixt to check it.
 *
 * A record claims a sequence of moves and a result. Verification plays the
 * moves again with the same rules that made them (tx_game_play) and checks
 * that everything the record states follows from them: whose turn each move
 * was, forced opening moves, the swap, that only the last entry may be an
 * illegal or missing answer, the result and its detail (the winning chain's
 * ends, the exact tx_answer_parse / tx_illegal_describe wording, with or
 * without the first-turn hint of verdict.h after a forced opening), the
 * links of each player at the end, message lengths and the time limits
 * (tx_limits_judge of bot-limits.h: the rule the referee decided with).
 *
 * The same replay gives the position after any move (tx_verify_position),
 * which the renderers draw and which `validate` and re-feeding a bot use to
 * rebuild the inputs a player received (tx_input_write on that position).
 * No I/O here: callers print the report.
 */
#ifndef TX_VERIFY_H
#define TX_VERIFY_H

#include <stdbool.h>
#include <stddef.h>

#include "game.h"
#include "geometry.h"
#include "record.h"

/* What verification found. */
struct tx_verify_report {
    bool ok;         /* everything follows from the moves */
    int move;        /* 1-based move number where it differs, 0 for the whole record */
    char what[400];  /* what differs, e.g. "record says winner player 2, replay says player 1" */
    int legal_moves; /* entries of moves[] that were legal and played (the replayed prefix) */
};

/* Geometries by board, built on first use. Zero-initialise it, free it
 * with tx_verify_geometries_free. */
struct tx_verify_geometries {
    struct tx_geometry **list;
    int n;
};

/* The geometry of a width x height board, or NULL when a side is out of
 * range. Aborts on out-of-memory. */
const struct tx_geometry *tx_verify_geometry(struct tx_verify_geometries *cache, int width,
                                             int height);
void tx_verify_geometries_free(struct tx_verify_geometries *cache);

/* Replays r on geo (r's board) under r's rules and fills report. Returns 0 when
 * the record is consistent, -EINVAL when it is not (report says why). */
int tx_verify_record(const struct tx_geometry *geo, const struct tx_record *r,
                     struct tx_verify_report *report);

/* The position after the first `upto` entries of r->moves (0: the empty
 * board; values past the end are clamped), in g, which has room for a game
 * on geo (tx_game_size). Entries that were not played
 * (an illegal or missing last answer) leave the position unchanged. Returns
 * the number of entries actually played, or -EINVAL when an entry before
 * `upto` cannot be played although later ones exist (a corrupt record). */
int tx_verify_position(const struct tx_geometry *geo, const struct tx_record *r, int upto,
                       struct tx_game *g);

/* Plays entry i (0-based) of r into g, which holds the position before it,
 * the way the referee did: returns 1 when it was played, 0 when it was not
 * (an illegal or missing answer, or the late answer of a timeout). */
int tx_verify_step(const struct tx_record *r, int i, struct tx_game *g);

/* The turn input (RULES.md "Input", tx_input_write) that the player of
 * entry i (0-based) received before answering it, its first turn after a
 * forced opening included (RULES.md "Forced openings"): what re-feeding a
 * bot sends. Returns its length, or -EINVAL when entry i is forced or the
 * record cannot be replayed up to it, or -ENOSPC (cap >= TX_INPUT_MAX
 * always suffices). */
int tx_verify_turn_input(const struct tx_geometry *geo, const struct tx_record *r, int i, char *buf,
                         size_t cap);

/* The 1-based number of the entry in which player `player`'s turn time limit
 * is first_turn_ms (its first non-forced entry), or 0 when it has none. */
int tx_verify_first_turn(const struct tx_record *r, int player);

/* Parses a move string of a record ("F6", "SWAP") into a hole index or
 * TX_MOVE_SWAP; -1 when it is neither (a rejected token or NULL). */
int tx_verify_parse_move(const struct tx_geometry *geo, const char *move);

#endif
