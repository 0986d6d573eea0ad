/* cmd-replay.c - placeholder for `twixt-arena replay`, being written. */
#include <stdio.h>

#include "commands.h"

int tx_cmd_replay(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "twixt-arena: replay is not built yet\n");
    return TX_EXIT_USAGE;
}
