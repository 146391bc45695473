/* cmd_replay.c: not written yet. */
#include "cli.h"

int cmd_replay(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "kifu: 'replay' is not implemented yet\n");
    return EXIT_INTERNAL;
}
