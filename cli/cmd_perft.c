/* cmd_perft.c: `kifu perft [--divide] SFEN|startpos DEPTH`: count the leaves of the legal
 * move tree, the standard check of a move generator. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

void cmd_perft_usage(FILE *f)
{
    fprintf(
        f, "usage: kifu perft [--divide] SFEN|startpos DEPTH\n"
           "Count the positions DEPTH plies ahead (legal moves only).\n"
           "  SFEN      a SFEN, 'startpos', or a USI 'position ... moves ...' line "
           "(quote it)\n"
           "  --divide  print 'usi: count' for every legal move first, then the total\n");
}

int cmd_perft(int argc, char **argv)
{
    int divide = 0;
    const char *pos_text = NULL, *depth_text = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--divide") == 0) {
            divide = 1;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            return cli_unknown_option("perft", argv[i]);
        } else if (!pos_text) {
            pos_text = argv[i];
        } else if (!depth_text) {
            depth_text = argv[i];
        } else {
            cli_err("kifu: perft: unexpected argument '%s'\n", argv[i]);
            cmd_perft_usage(stderr);
            return EXIT_USAGE;
        }
    }
    if (!pos_text || !depth_text) {
        cli_err("kifu: perft: a position and a depth are needed\n");
        cmd_perft_usage(stderr);
        return EXIT_USAGE;
    }
    char *end;
    long depth = strtol(depth_text, &end, 10);
    if (*end || end == depth_text || depth < 0 || depth > 20) {
        cli_err("kifu: perft: the depth must be a number from 0 to 20, not '%s'\n",
                depth_text);
        return EXIT_USAGE;
    }
    kifu_position *p = kifu_position_new();
    if (!p) {
        cli_err("kifu: out of memory\n");
        return EXIT_INTERNAL;
    }
    kifu_error err;
    kifu_error_clear(&err);
    if (kifu_position_set_sfen(p, pos_text, &err) < 0) {
        cli_print_error(&err);
        kifu_position_free(p);
        return cli_exit_code(err.code);
    }
    uint64_t total = 0;
    if (divide && depth >= 1) {
        kifu_move moves[600];
        size_t n = kifu_position_legal_moves(p, moves, 600);
        for (size_t i = 0; i < n; i++) {
            char usi[8];
            kifu_move m = moves[i];
            kifu_move_usi(&m, usi);
            if (kifu_position_play(p, &m, NULL) < 0)
                continue;
            uint64_t c = kifu_perft(p, (int)depth - 1);
            kifu_position_undo(p);
            printf("%s: %llu\n", usi, (unsigned long long)c);
            total += c;
        }
    } else {
        total = kifu_perft(p, (int)depth);
    }
    printf("%llu\n", (unsigned long long)total);
    kifu_position_free(p);
    return EXIT_OK;
}
