/* cmd-play.c - placeholder for `twixt-arena play`, being written. */
#include <stdio.h>

#include "commands.h"

int tx_cmd_play(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "twixt-arena: play is not built yet\n");
    return TX_EXIT_USAGE;
}
