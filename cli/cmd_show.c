/* cmd_show.c: not written yet. */
#include "cli.h"

int cmd_show(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "kifu: 'show' is not implemented yet\n");
    return EXIT_INTERNAL;
}
