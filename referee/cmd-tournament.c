/* cmd-tournament.c - placeholder for `twixt-arena tournament`, being written. */
#include <stdio.h>

#include "commands.h"

int tx_cmd_tournament(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "twixt-arena: tournament is not built yet\n");
    return TX_EXIT_USAGE;
}
