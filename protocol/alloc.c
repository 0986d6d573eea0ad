/* alloc.c - allocation that aborts on out of memory (see alloc.h for why). */
#include "alloc.h"

#include <stdlib.h>
#include <string.h>

_Noreturn void tx_out_of_memory(void)
{
    abort();
}

void *tx_xcheck(void *p)
{
    if (!p)
        tx_out_of_memory();
    return p;
}

void *tx_xmalloc(size_t size)
{
    return tx_xcheck(malloc(size ? size : 1));
}

void *tx_xcalloc(size_t n, size_t size)
{
    return tx_xcheck(n && size ? calloc(n, size) : calloc(1, 1));
}

void *tx_xrealloc(void *p, size_t size)
{
    return tx_xcheck(realloc(p, size ? size : 1));
}

char *tx_strdup(const char *s)
{
    return s ? tx_xcheck(strdup(s)) : NULL;
}

char *tx_strndup(const char *s, size_t n)
{
    return tx_xcheck(strndup(s, n));
}
