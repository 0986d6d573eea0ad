/* sha256.h - SHA-256 of a bot's executable, for game records.
 *
 * A record says exactly which build of a bot played, so results can be
 * tied to a binary later. The program is found through PATH the way execvp
 * finds it (tx_command_find_program), then hashed (FIPS 180-4). Blocking file I/O: the match runs
 * it on libuv's thread pool, never on the loop while a bot's clock runs.
 */
#ifndef TX_SHA256_H
#define TX_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define TX_SHA256_HEX 65 /* 64 hex digits and a NUL */

struct tx_sha256 {
    uint32_t state[8];
    uint64_t bytes;    /* message length so far */
    uint8_t block[64]; /* pending partial block */
    size_t used;       /* bytes in block */
};

void tx_sha256_init(struct tx_sha256 *s);
void tx_sha256_update(struct tx_sha256 *s, const void *data, size_t len);
/* Finishes the hash and writes it as lower-case hex into hex. */
void tx_sha256_final(struct tx_sha256 *s, char hex[TX_SHA256_HEX]);

/* Hashes the file program resolves to. Returns 0 with hex set, or a
 * negative errno. Thread-safe; remembers the last 32 files hashed by
 * device, inode, size and modification time, so an unchanged executable
 * is read once per run. */
int tx_sha256_program(const char *program, char hex[TX_SHA256_HEX]);

#endif
