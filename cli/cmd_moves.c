/* cmd_moves.c: `kifu moves`: the legal moves of a position, in USI and in Japanese. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

void cmd_moves_usage(FILE *f)
{
    fprintf(
        f,
        "usage: kifu moves SFEN|startpos|'position ... moves ...'\n"
        "\n"
        "List the legal moves of a position, one per line, in USI and in KIF notation,\n"
        "sorted by the USI text:\n"
        "  7g7f ☗７六歩(77)\n"
        "The position may be given as several arguments (a SFEN has spaces). A line\n"
        "'position startpos moves 7g7f ...' lists the moves after those moves.\n");
}

typedef struct line {
    char usi[8];
    char text[64];
} line;

static int by_usi(const void *a, const void *b)
{
    return strcmp(((const line *)a)->usi, ((const line *)b)->usi);
}

int cmd_moves(int argc, char **argv)
{
    if (argc < 2) {
        cmd_moves_usage(stderr);
        return EXIT_USAGE;
    }
    size_t len = 1;
    for (int i = 1; i < argc; i++)
        len += strlen(argv[i]) + 1;
    char *text = malloc(len);
    if (!text) {
        cli_err("kifu: out of memory\n");
        return EXIT_INTERNAL;
    }
    text[0] = 0;
    for (int i = 1; i < argc; i++) {
        if (i > 1)
            strcat(text, " ");
        strcat(text, argv[i]);
    }
    kifu_position *p = kifu_position_new();
    kifu_error err = {0};
    int rc = EXIT_OK;
    if (!p) {
        cli_err("kifu: out of memory\n");
        rc = EXIT_INTERNAL;
    } else if (kifu_position_set_sfen(p, text, &err)) {
        snprintf(err.source, sizeof err.source, "argument");
        cli_print_error(&err);
        rc = cli_exit_code(err.code);
    } else {
        kifu_move moves[600];
        size_t n = kifu_position_legal_moves(p, moves, 600);
        if (n > 600)
            n = 600;
        line *lines = malloc((n ? n : 1) * sizeof *lines);
        if (!lines) {
            cli_err("kifu: out of memory\n");
            rc = EXIT_INTERNAL;
        } else {
            for (size_t i = 0; i < n; i++) {
                kifu_move_usi(&moves[i], lines[i].usi);
                kifu_move_text(&moves[i], NULL, KIFU_TEXT_KIF, lines[i].text,
                               sizeof lines[i].text);
            }
            qsort(lines, n, sizeof *lines, by_usi);
            for (size_t i = 0; i < n; i++)
                printf("%s %s\n", lines[i].usi, lines[i].text);
            if (fflush(stdout)) {
                cli_err("kifu: cannot write to standard output\n");
                rc = EXIT_IO;
            }
            free(lines);
        }
    }
    kifu_position_free(p);
    free(text);
    return rc;
}
