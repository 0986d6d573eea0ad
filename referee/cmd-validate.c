/* cmd-validate.c - placeholder for `twixt-arena validate`, being written. */
#include <stdio.h>

#include "commands.h"

int tx_cmd_validate(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "twixt-arena: validate is not built yet\n");
    return TX_EXIT_USAGE;
}
