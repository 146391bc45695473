/* cmd_perft.c: not written yet. */
#include "cli.h"

int cmd_perft(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "kifu: 'perft' is not implemented yet\n");
    return EXIT_INTERNAL;
}
