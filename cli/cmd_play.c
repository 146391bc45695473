/* cmd_play.c: not written yet. */
#include "cli.h"

int cmd_play(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "kifu: 'play' is not implemented yet\n");
    return EXIT_INTERNAL;
}
