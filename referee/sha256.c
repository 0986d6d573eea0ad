/* sha256.c - FIPS 180-4 SHA-256 of a bot's program.
 *
 * Small and dependency-free on purpose: one hash per bot executable does
 * not justify linking a crypto library. Checked against the FIPS test
 * vectors in tests/test-command.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "alloc.h"
#include "command.h"
#include "sha256.h"

static const uint32_t K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static uint32_t rotr(uint32_t x, int n)
{
    return (x >> n) | (x << (32 - n));
}

static void compress(uint32_t state[8], const uint8_t block[64])
{
    uint32_t w[64];
    for (int i = 0; i < 16; i++)
        w[i] = (uint32_t)block[4 * i] << 24 | (uint32_t)block[4 * i + 1] << 16 |
               (uint32_t)block[4 * i + 2] << 8 | block[4 * i + 3];
    for (int i = 16; i < 64; i++) {
        uint32_t s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
        uint32_t s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
        w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
    uint32_t e = state[4], f = state[5], g = state[6], h = state[7];
    for (int i = 0; i < 64; i++) {
        uint32_t t1 =
            h + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i];
        uint32_t t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
        h = g;
        g = f;
        f = e;
        e = d + t1;
        d = c;
        c = b;
        b = a;
        a = t1 + t2;
    }
    state[0] += a;
    state[1] += b;
    state[2] += c;
    state[3] += d;
    state[4] += e;
    state[5] += f;
    state[6] += g;
    state[7] += h;
}

void tx_sha256_init(struct tx_sha256 *s)
{
    static const uint32_t iv[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                   0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    memcpy(s->state, iv, sizeof iv);
    s->bytes = 0;
    s->used = 0;
}

void tx_sha256_update(struct tx_sha256 *s, const void *data, size_t len)
{
    const uint8_t *p = data;
    s->bytes += len;
    if (s->used) {
        size_t take = 64 - s->used < len ? 64 - s->used : len;
        memcpy(s->block + s->used, p, take);
        s->used += take;
        p += take;
        len -= take;
        if (s->used < 64)
            return;
        compress(s->state, s->block);
        s->used = 0;
    }
    for (; len >= 64; p += 64, len -= 64)
        compress(s->state, p);
    memcpy(s->block, p, len);
    s->used = len;
}

void tx_sha256_final(struct tx_sha256 *s, char hex[TX_SHA256_HEX])
{
    uint64_t bits = s->bytes * 8;
    uint8_t pad[72] = {0x80};
    size_t padlen = (s->used < 56 ? 56 : 120) - s->used;
    uint8_t length[8];
    for (int i = 0; i < 8; i++)
        length[i] = (uint8_t)(bits >> (56 - 8 * i));
    tx_sha256_update(s, pad, padlen);
    tx_sha256_update(s, length, 8);
    for (int i = 0; i < 8; i++)
        snprintf(hex + 8 * i, 9, "%08x", s->state[i]);
}

static int hash_file(int fd, char hex[TX_SHA256_HEX])
{
    struct tx_sha256 s;
    tx_sha256_init(&s);
    uint8_t *buffer = tx_xmalloc(1 << 16);
    int r = 0;
    for (;;) {
        ssize_t n = read(fd, buffer, 1 << 16);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            r = -errno;
            break;
        }
        if (n == 0)
            break;
        tx_sha256_update(&s, buffer, (size_t)n);
    }
    free(buffer);
    if (r == 0)
        tx_sha256_final(&s, hex);
    return r;
}

/* A tournament plays the same executables thousands of times, and hashing
 * python3 costs ~30 ms: remember hashes by file identity. Matches hash on
 * libuv's thread pool, hence the lock. The cache is the only state here.
 * The identity includes the change time: a user can set a file's mtime
 * (touch -d, cp -p, tar, rsync -t) but not its ctime, which every write,
 * and a new file on a reused inode, moves; so a rewritten program always
 * misses, whatever its size and mtime, and the record hashes what ran. */
#define CACHE_SIZE 32
static struct cached {
    dev_t dev;
    ino_t ino;
    off_t size;
    struct timespec mtime, ctime;
    char hex[TX_SHA256_HEX];
} cache[CACHE_SIZE];
static int cache_used, cache_next;
static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;

static bool same_file(const struct cached *c, const struct stat *st)
{
    return c->dev == st->st_dev && c->ino == st->st_ino && c->size == st->st_size &&
           c->mtime.tv_sec == st->st_mtim.tv_sec && c->mtime.tv_nsec == st->st_mtim.tv_nsec &&
           c->ctime.tv_sec == st->st_ctim.tv_sec && c->ctime.tv_nsec == st->st_ctim.tv_nsec;
}

int tx_sha256_program(const char *program, char hex[TX_SHA256_HEX])
{
    char path[4096];
    /* A path is hashed as it is; a name is the file the launcher's execvp runs. */
    int r = strchr(program, '/') ? 0 : tx_command_find_program(program, path, sizeof path, NULL, 0);
    if (r < 0)
        return r;
    int fd = open(strchr(program, '/') ? program : path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -errno;
    struct stat st;
    if (fstat(fd, &st) < 0) {
        r = -errno;
        close(fd);
        return r;
    }
    bool found = false;
    pthread_mutex_lock(&cache_lock);
    for (int i = 0; i < cache_used && !found; i++)
        if (same_file(&cache[i], &st)) {
            memcpy(hex, cache[i].hex, TX_SHA256_HEX);
            found = true;
        }
    pthread_mutex_unlock(&cache_lock);
    if (found) {
        close(fd);
        return 0;
    }
    r = hash_file(fd, hex);
    close(fd);
    if (r < 0)
        return r;
    pthread_mutex_lock(&cache_lock);
    struct cached *c = &cache[cache_next];
    cache_next = (cache_next + 1) % CACHE_SIZE;
    if (cache_used < CACHE_SIZE)
        cache_used++;
    c->dev = st.st_dev;
    c->ino = st.st_ino;
    c->size = st.st_size;
    c->mtime = st.st_mtim;
    c->ctime = st.st_ctim;
    memcpy(c->hex, hex, TX_SHA256_HEX);
    pthread_mutex_unlock(&cache_lock);
    return 0;
}
