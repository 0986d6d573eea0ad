/* chain.h - records that prove their place in their file: a hash chain.
 *
 * Each record line the referee writes ends with
 *
 *   ,"chain":{"prev":"<32 hex>","hash":"<32 hex>"}}
 *
 * where hash is the first 128 bits of SHA-256(prev, then the line's bytes
 * before ',"chain"'), and prev is the hash of the record written before it
 * in the same file (32 zeros for the first record of a file, or after a
 * record without a chain). The writer computes it in one place, in the
 * order the lines reach the file (games end in any order and their
 * records are written from several threads: the chain follows the file,
 * not the games). A reader walks the file and finds:
 *
 *   - an edited line: its hash does not match its own bytes;
 *   - a deleted, inserted or moved line: a record whose prev is not the
 *     hash of the record before it;
 *   - a record added without a chain after chained ones, or one that
 *     starts a new chain in the middle of a file.
 *
 * What it cannot find: the last records of a file cut off (a file is
 * allowed to end anywhere: a run may be killed at any moment), and a file
 * rewritten whole by someone who recomputes every hash (the hash has no
 * secret key: it proves that the file is as the referee wrote it against
 * edits by hand or by a careless program, not against a forger who reads
 * this source). Files joined with cat break the chain where they meet:
 * give standings the files instead. Pure: no I/O.
 */
#ifndef TX_CHAIN_H
#define TX_CHAIN_H

#include <stdbool.h>
#include <stddef.h>

#define TX_CHAIN_HEX 33 /* 32 hex digits and a NUL */

/* The prev of a chain's first record. */
extern const char tx_chain_start[TX_CHAIN_HEX];

/* Seals a record's JSON text (one object, len bytes, no newline): returns a
 * malloc'ed copy (NUL-terminated, no newline) with the chain field added
 * before its closing brace, and writes its hash into hash. prev is the hash
 * of the record written before it in the file, or tx_chain_start. Aborts on
 * out of memory; returns NULL when json does not end with '}'. */
char *tx_chain_seal(const char *json, size_t len, const char *prev, char hash[TX_CHAIN_HEX]);

enum tx_chain_link {
    TX_CHAIN_NONE = 0, /* the line has no chain field where the referee writes it */
    TX_CHAIN_OK,       /* prev and hash read, and the hash matches the line */
    TX_CHAIN_EDITED,   /* prev and hash read, but the line's bytes do not give that hash */
};

/* Reads the chain at the end of a line (len bytes, no newline; a CR before
 * it is allowed). For OK and EDITED, prev and hash receive the values
 * written in the line. */
enum tx_chain_link tx_chain_read(const char *line, size_t len, char prev[TX_CHAIN_HEX],
                                 char hash[TX_CHAIN_HEX]);

/* Following a file's chain from its first line. Zero it to start. */
struct tx_chain_walk {
    char last[TX_CHAIN_HEX]; /* hash of the previous line's record, when it had one */
    bool last_chained;       /* the previous record line had a chain */
    bool chained;            /* some earlier line had a chain */
    bool unknown;            /* the previous line was not a record, and had no chain */
};

/* Feeds the next line of the file that is not blank (any such line, a
 * record or not: an edited line that no longer loads still carries its
 * chain). Returns 0 when the line is where the chain says, or -EINVAL with
 * what is wrong in why ("the record was changed after it was written",
 * ...). Either way the walk moves on to the line. */
int tx_chain_walk_next(struct tx_chain_walk *w, const char *line, size_t len, char *why,
                       size_t cap);

/* Feeds a line that is not a record (already reported as such): when it
 * still carries a chain, the walk follows it; when not, the next record's
 * link cannot be checked and is taken as it is (the bad line is what the
 * reader reports). */
void tx_chain_walk_other(struct tx_chain_walk *w, const char *line, size_t len);

/* The hash a writer continues from after the line (len bytes): the line's
 * hash when it has a chain, tx_chain_start otherwise. */
void tx_chain_continue(const char *line, size_t len, char prev[TX_CHAIN_HEX]);

#endif
