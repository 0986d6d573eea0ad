/* pairing.h - what a game is, whatever run it belongs to.
 *
 * A game of a pool is identified by its PAIRING and its number k in it:
 *
 *   - the pairing key ("p1:" and 16 hex digits) is a hash of the two bots
 *     in the pairing's order (each one's name, command as given and memory
 *     limit), the board size, the time limits, the run's seed and its
 *     openings (--openings K, or the lines of --openings-file); and, only
 *     when they are not the defaults, so that every older key stays what it
 *     was: the rule set, a board that is not square, the opening rule, the
 *     handicap (of a pairing with the handicapped bot: its name, and the
 *     board as its longer side by its shorter) and teams;
 *   - in Double TwixT the pairing is of two teams: each is a "bot" of the
 *     key whose name is the team's and whose command is its two bots, one
 *     NAME=COMMAND a line (tx_pairing_team_command), with the team's memory
 *     limit; its first-named bot plays first for its side;
 *   - k = 1, 2, 3 ... counts the pairing's games. In odd k the pairing's
 *     first bot (team) is player 1 (red), in even k the second: games 2j-1
 *     and 2j are a colour-exchanged pair (round j); with a handicap each
 *     game's board is turned so that the handicapped bot has the longer
 *     distance in its colour;
 *   - the game's seed ({seed}) comes from (key, k); its forced opening
 *     from (run seed, openings, round j) on the game's board: the same for
 *     both games of a round and for the j-th round of every pairing, so
 *     every bot meets the same openings (a handicap's two boards have
 *     their own).
 *
 * Nothing here depends on which other bots are in the run: adding a bot to
 * a pool adds pairings and leaves every game already played what it was;
 * more games per pair adds k's. The pairing's order: `play` keeps BOT1
 * first (BOT1 is player 1 in odd games); tournaments, gauntlets and leagues
 * put first the bot whose name sorts first (strcmp), so the order of the
 * command line does not matter.
 *
 * A record carries its identity ("pairing" in the record: key, k and the
 * inputs of the key), so standings and replay can recompute, from the
 * record alone, who had to play whom in which colours, with which commands,
 * seed and opening (tx_pairing_check). Pure: no I/O.
 */
#ifndef TX_PAIRING_H
#define TX_PAIRING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "geometry.h"
#include "record.h"

#define TX_PAIRING_KEY_SIZE 20    /* "p1:", 16 hex digits, NUL */
#define TX_PAIRING_HASH_SIZE 17   /* 16 hex digits, NUL */
#define TX_PAIRING_OPENING_MAX 64 /* forced moves in one opening */
#define TX_PAIRING_SEED_MASK                                                                       \
    ((UINT64_C(1) << 53) - 1) /* per-game seeds fit a JSON number exactly */

/* An opening read from a file: nmoves holes. */
struct tx_opening {
    int nmoves;
    int16_t moves[TX_PAIRING_OPENING_MAX];
};

/* The conditions every game of a records file shares. */
struct tx_pairing_terms {
    struct tx_variant variant; /* rules, board (as given), opening, teams */
    const char *handicap;      /* --handicap: the bot (team) with the longer distance, or NULL */
    int first_turn_ms, turn_ms, margin_ms;
    bool soft;
    uint64_t seed;                  /* the run's --seed */
    int openings;                   /* K random forced moves per round, 0 for none */
    const struct tx_opening *lines; /* --openings-file's lines, or NULL */
    int nlines;
    char lines_hash[TX_PAIRING_HASH_SIZE]; /* of the lines, "" without (tx_pairing_terms_hash) */
};

/* One bot of a pairing, as the key sees it. */
struct tx_pairing_bot {
    const char *name;
    const char *command; /* as given: placeholders not replaced */
    int memory_mb;       /* its memory limit, 0 for none */
};

/* Fills t->lines_hash from t->lines (call after setting them). */
void tx_pairing_terms_hash(struct tx_pairing_terms *t);

/* The key of the pairing (first, second) under terms t, into key. With
 * teams, first and second are teams as the key sees them (above). */
void tx_pairing_key(const struct tx_pairing_terms *t, const struct tx_pairing_bot *first,
                    const struct tx_pairing_bot *second, char key[TX_PAIRING_KEY_SIZE]);

/* The 64 bits of a key, for seeds and shards; false when key is not "p1:"
 * and 16 lower-case hex digits. */
bool tx_pairing_key_bits(const char *key, uint64_t *ret);

/* Game k's seed in the pairing whose key bits are bits. */
uint64_t tx_pairing_seed(uint64_t bits, int64_t k);

/* The round of game k: (k + 1) / 2. */
int64_t tx_pairing_round(int64_t k);

/* Round j's forced opening (j >= 1) under t, on geo (t's board), into out
 * (room for TX_PAIRING_OPENING_MAX): K random legal moves drawn from a
 * generator seeded by (t->seed, j), never a swap, never one that ends the
 * game (on a tiny board the opening may stop short); or line (j - 1) mod
 * nlines of the openings file. Returns the number of moves. */
int tx_pairing_opening(const struct tx_geometry *geo, const struct tx_pairing_terms *t, int64_t j,
                       int16_t *out);

/* True when the pairing (first, second) plays under t's handicap: one of
 * them is the handicapped bot (team). */
bool tx_pairing_handicapped(const struct tx_pairing_terms *t, const struct tx_pairing_bot *first,
                            const struct tx_pairing_bot *second);

/* A team as a key reads it: its bots' "NAME=COMMAND", one a line, in the
 * team's order. Malloc'ed. */
char *tx_pairing_team_command(const char *name0, const char *command0, const char *name1,
                              const char *command1);

/* Splits what tx_pairing_team_command wrote into the bots' names (into
 * names, TX_PAIRING_NAME_MAX bytes each) and commands (malloc'ed, free
 * both). Returns false when text has not that shape. */
#define TX_PAIRING_NAME_MAX 64
bool tx_pairing_team_split(const char *text, char names[2][TX_PAIRING_NAME_MAX], char *commands[2]);

/* Checks a record against its own identity: the key recomputed from the
 * record's bots, size, limits, seed, openings, opening rule, handicap and
 * teams; player 1 and player 2 (with teams, the two teams, each bot in its
 * seat) being the pairing's bots in k's colours; each player's command
 * being its bot's with the placeholders replaced; the seed being game k's;
 * the board being turned for the handicapped bot; and the forced moves
 * being round j's opening (with --openings K; an openings file is not in
 * the record, so its moves cannot be checked here, only their number). geo
 * is the record's board. Returns 1 when the record has no identity
 * (written before pairings: nothing to check), 0 when it holds, -EINVAL
 * with what differs in why. */
int tx_pairing_check(const struct tx_geometry *geo, const struct tx_record *r, char *why,
                     size_t cap);

#endif
