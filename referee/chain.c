/* chain.c - sealing record lines into a hash chain and walking it (see
 * chain.h).
 *
 * The hash covers the line's bytes exactly as written, not a re-encoding of
 * the record: what is checked is the file itself, so no change of the JSON
 * writer (key order, number format) can make old files fail, and any change
 * to a line, one space included, shows. The chain field is written last so
 * that the bytes it covers are simply everything before it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "chain.h"
#include "sha256.h"

#define HEX_DIGITS 32
#define PREFIX ",\"chain\":{\"prev\":\""
#define MIDDLE "\",\"hash\":\""
#define SUFFIX "\"}}"
/* The whole field, from its comma to the record's closing brace. */
#define FIELD_LEN                                                                                  \
    (sizeof PREFIX - 1 + HEX_DIGITS + sizeof MIDDLE - 1 + HEX_DIGITS + sizeof SUFFIX - 1)

const char tx_chain_start[TX_CHAIN_HEX] = "00000000000000000000000000000000";

/* SHA-256(prev, body), cut to 128 bits, as hex. */
static void chain_hash(const char *prev, const char *body, size_t len, char hash[TX_CHAIN_HEX])
{
    struct tx_sha256 s;
    char hex[TX_SHA256_HEX];
    tx_sha256_init(&s);
    tx_sha256_update(&s, prev, HEX_DIGITS);
    tx_sha256_update(&s, body, len);
    tx_sha256_final(&s, hex);
    memcpy(hash, hex, HEX_DIGITS);
    hash[HEX_DIGITS] = '\0';
}

char *tx_chain_seal(const char *json, size_t len, const char *prev, char hash[TX_CHAIN_HEX])
{
    if (len == 0 || json[len - 1] != '}')
        return NULL;
    size_t body = len - 1; /* everything before the closing brace */
    chain_hash(prev, json, body, hash);
    char *line = tx_xmalloc(body + FIELD_LEN + 1);
    memcpy(line, json, body);
    snprintf(line + body, FIELD_LEN + 1, "%s%.32s%s%.32s%s", PREFIX, prev, MIDDLE, hash, SUFFIX);
    return line;
}

static bool hex32(const char *p)
{
    for (int i = 0; i < HEX_DIGITS; i++)
        if (!((p[i] >= '0' && p[i] <= '9') || (p[i] >= 'a' && p[i] <= 'f')))
            return false;
    return true;
}

enum tx_chain_link tx_chain_read(const char *line, size_t len, char prev[TX_CHAIN_HEX],
                                 char hash[TX_CHAIN_HEX])
{
    if (len > 0 && line[len - 1] == '\r')
        len--;
    if (len < FIELD_LEN + 1)
        return TX_CHAIN_NONE;
    const char *f = line + len - FIELD_LEN;
    const char *p = f + sizeof PREFIX - 1, *m = p + HEX_DIGITS, *h = m + sizeof MIDDLE - 1,
               *s = h + HEX_DIGITS;
    if (memcmp(f, PREFIX, sizeof PREFIX - 1) || memcmp(m, MIDDLE, sizeof MIDDLE - 1) ||
        memcmp(s, SUFFIX, sizeof SUFFIX - 1) || !hex32(p) || !hex32(h))
        return TX_CHAIN_NONE;
    memcpy(prev, p, HEX_DIGITS);
    prev[HEX_DIGITS] = '\0';
    memcpy(hash, h, HEX_DIGITS);
    hash[HEX_DIGITS] = '\0';
    char want[TX_CHAIN_HEX];
    chain_hash(prev, line, (size_t)(f - line), want);
    return strcmp(want, hash) ? TX_CHAIN_EDITED : TX_CHAIN_OK;
}

int tx_chain_walk_next(struct tx_chain_walk *w, const char *line, size_t len, char *why, size_t cap)
{
    char prev[TX_CHAIN_HEX], hash[TX_CHAIN_HEX];
    enum tx_chain_link link = tx_chain_read(line, len, prev, hash);
    const char *wrong = NULL;

    if (link == TX_CHAIN_NONE) {
        if (w->chained)
            wrong = "no chain, although the records before it have one: a record added by hand, "
                    "or written by an older twixt-arena";
        w->last_chained = false;
        return wrong ? (snprintf(why, cap, "%s", wrong), -EINVAL) : 0;
    }
    bool start = !strcmp(prev, tx_chain_start), unknown = w->unknown;
    w->unknown = false;
    if (link == TX_CHAIN_EDITED)
        wrong = "the record was changed after it was written (its chain hash does not match its "
                "bytes)";
    else if (unknown)
        ; /* after a line that is not a record: its link cannot be checked */
    else if (start && w->last_chained)
        wrong = "a new chain starts in the middle of the file: a record was inserted, or files "
                "were joined (give standings each file instead)";
    else if (!start && !w->last_chained)
        wrong = "the record that came before it in the file is missing";
    else if (!start && strcmp(prev, w->last))
        wrong = "it does not follow the record before it: records were removed, inserted or "
                "moved";
    memcpy(w->last, hash, TX_CHAIN_HEX);
    w->last_chained = w->chained = true;
    return wrong ? (snprintf(why, cap, "%s", wrong), -EINVAL) : 0;
}

void tx_chain_walk_other(struct tx_chain_walk *w, const char *line, size_t len)
{
    char prev[TX_CHAIN_HEX], hash[TX_CHAIN_HEX], why[256];
    if (tx_chain_read(line, len, prev, hash) != TX_CHAIN_NONE) {
        tx_chain_walk_next(w, line, len, why, sizeof why);
        return;
    }
    w->last_chained = false;
    w->unknown = true;
}

void tx_chain_continue(const char *line, size_t len, char prev[TX_CHAIN_HEX])
{
    char hash[TX_CHAIN_HEX];
    if (tx_chain_read(line, len, prev, hash) == TX_CHAIN_NONE)
        memcpy(prev, tx_chain_start, TX_CHAIN_HEX);
    else
        memcpy(prev, hash, TX_CHAIN_HEX);
}
