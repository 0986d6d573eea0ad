/* text.h - making bot-controlled bytes safe to store and show.
 *
 * Bots print anything: invalid UTF-8, NUL bytes, escape sequences. Records
 * are JSON (which must be valid UTF-8) and are shown in terminals and HTML,
 * so every byte that came from a bot passes through here first.
 */
#ifndef TX_TEXT_H
#define TX_TEXT_H

#include <stdbool.h>
#include <stddef.h>

/* Copies src (len bytes) into dst (cap bytes, NUL-terminated), replacing
 * every byte that is not part of valid UTF-8, and every NUL, with U+FFFD,
 * and keeping at most max_chars code points (SIZE_MAX for no limit); never
 * cuts inside a sequence and never overflows dst. Returns true when
 * anything of src was left out (cut by max_chars or by cap). */
bool tx_text_sanitize(char *dst, size_t cap, const char *src, size_t len, size_t max_chars);

/* Number of UTF-8 code points in the valid UTF-8 string s. */
size_t tx_text_chars(const char *s);

#endif
