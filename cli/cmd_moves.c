/* cmd_moves.c: not written yet. */
#include "cli.h"

int cmd_moves(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "kifu: 'moves' is not implemented yet\n");
    return EXIT_INTERNAL;
}
