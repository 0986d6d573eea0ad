/* proof.h - does a record of a file prove the game it claims?
 *
 * Three checks, each of which a forged or damaged record fails:
 *
 *   - the rules (verify.h): the moves are legal and the result, links,
 *     times and messages follow from them;
 *   - its identity (pairing.h): player 1 and player 2, their commands, the
 *     seed and the forced opening are those of game k of its pairing, as
 *     recomputed from the record's own identity inputs: players swapped or
 *     a record copied under another k fail;
 *   - its place (chain.h): the record's bytes are as written, and it
 *     follows the record before it in the file: an edited line, a line
 *     deleted, inserted or moved fail.
 *
 * standings counts only records that pass all three; replay reports each
 * failure. One struct tx_proof per file, fed every line that is not blank,
 * in order (records and lines that are not). Records written before pairings and chains have no
 * identity or place to check: only the rules apply to them. No I/O.
 */
#ifndef TX_PROOF_H
#define TX_PROOF_H

#include <stddef.h>

#include "chain.h"
#include "record.h"
#include "verify.h"

struct tx_proof {
    struct tx_chain_walk chain;
    struct tx_verify_geometries geos;
};

/* Starts a file. */
void tx_proof_init(struct tx_proof *p);

/* Frees what the checks built. */
void tx_proof_free(struct tx_proof *p);

/* The place of the next record line of the file (len bytes, no newline);
 * lines that are not records go to tx_proof_other, in order, so that each
 * record is judged against the line before it. Returns 0, or -EINVAL with
 * why. */
int tx_proof_place(struct tx_proof *p, const char *line, size_t len, char *why, size_t cap);

/* A line that is not a record: the chain goes through it when it can. */
void tx_proof_other(struct tx_proof *p, const char *line, size_t len);

/* r's identity (pairing.h). Returns 0 (also for a record without one), or
 * -EINVAL with why. */
int tx_proof_identity(struct tx_proof *p, const struct tx_record *r, char *why, size_t cap);

/* All three for the record r read from line: identity, rules, place (the
 * place is always followed, so call it for every record line). Returns 0,
 * or -EINVAL with the first failure in why. */
int tx_proof_record(struct tx_proof *p, const struct tx_record *r, const char *line, size_t len,
                    char *why, size_t cap);

#endif
