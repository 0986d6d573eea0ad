/* main.c - placeholder, being written. */
#include <stdio.h>

int main(void)
{
    puts("twixt-arena " TX_VERSION);
    return 0;
}
