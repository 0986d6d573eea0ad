/* text.c - turning bot bytes into valid, bounded UTF-8.
 *
 * Decoding is strict (RFC 3629): no overlong forms, no surrogates, nothing
 * above U+10FFFF, no truncated sequence. Each byte that is not part of a
 * valid sequence becomes one U+FFFD, as does NUL (C strings and some JSON
 * readers stop at it). Output is cut on whole code points only.
 */
#include "text.h"

#include <assert.h>
#include <string.h>

static const char replacement[] = "\xEF\xBF\xBD"; /* U+FFFD */

/* Length of the valid UTF-8 sequence starting at s (n > 0 bytes available),
 * or 0 when the byte at s does not start one. NUL counts as invalid. */
static size_t valid_sequence(const unsigned char *s, size_t n)
{
    unsigned c = s[0];
    size_t len;

    if (c == 0)
        return 0;
    if (c < 0x80)
        return 1;
    if (c >= 0xC2 && c <= 0xDF)
        len = 2;
    else if (c >= 0xE0 && c <= 0xEF)
        len = 3;
    else if (c >= 0xF0 && c <= 0xF4)
        len = 4;
    else
        return 0; /* a continuation byte, C0/C1 (overlong) or F5..FF */
    if (n < len)
        return 0;
    for (size_t i = 1; i < len; i++)
        if ((s[i] & 0xC0) != 0x80)
            return 0;
    /* The second byte bounds that rule out overlong forms, surrogates and
     * code points above U+10FFFF. */
    if ((c == 0xE0 && s[1] < 0xA0) || (c == 0xED && s[1] > 0x9F) || (c == 0xF0 && s[1] < 0x90) ||
        (c == 0xF4 && s[1] > 0x8F))
        return 0;
    return len;
}

bool tx_text_sanitize(char *dst, size_t cap, const char *src, size_t len, size_t max_chars)
{
    const unsigned char *s = (const unsigned char *)src;
    size_t in = 0, out = 0, chars = 0;

    if (cap == 0)
        return len > 0;
    while (in < len) {
        size_t n = valid_sequence(s + in, len - in);
        const char *piece = n ? src + in : replacement;
        size_t piece_len = n ? n : sizeof(replacement) - 1;
        if (chars == max_chars || out + piece_len + 1 > cap)
            break;
        memcpy(dst + out, piece, piece_len);
        out += piece_len;
        chars++;
        in += n ? n : 1;
    }
    dst[out] = '\0';
    return in < len;
}

size_t tx_text_chars(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        if (((unsigned char)*s & 0xC0) != 0x80)
            n++;
    return n;
}
