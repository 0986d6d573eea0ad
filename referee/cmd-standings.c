/* cmd-standings.c - placeholder for `twixt-arena standings`, being written. */
#include <stdio.h>

#include "commands.h"

int tx_cmd_standings(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "twixt-arena: standings is not built yet\n");
    return TX_EXIT_USAGE;
}
