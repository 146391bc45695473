/* cmd_convert.c: not written yet. */
#include "cli.h"

int cmd_convert(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "kifu: 'convert' is not implemented yet\n");
    return EXIT_INTERNAL;
}

int cmd_validate(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "kifu: 'validate' is not implemented yet\n");
    return EXIT_INTERNAL;
}
