/* cmd_show.c: `kifu show`: the board of a record at a ply, with hands, the last move and
 * the moves around it. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "diagram.h"
#include "kifu_private.h"
#include "player.h"
#include "term.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: kifu show FILE [--ply N] [--path P] [--flip] [--format text|bod|sfen]\n"
            "\n"
            "Print the position of a record (any format, '-' for stdin) at a ply: the board\n"
            "with both hands, the side to move, the last move and the moves around it.\n"
            "\n"
            "  --ply N       ply N of the main line (0 = the start; default: the last ply)\n"
            "  --path P      a position in the fork tree: 'PLY[,C1,C2...]' goes to ply PLY\n"
            "                taking fork Ck at the k-th branching point on the way (0 = main\n"
            "                line); '/I/J/K...' lists child indices from the start\n"
            "  --flip        draw the board from gote's side\n"
            "  --format F    text (Unicode frame; colour on a terminal), bod (the KIF board\n"
            "                text), sfen (one SFEN line). Default: text on a terminal, else bod\n"
            "\n"
            "Colour is used only when standard output is a terminal and NO_COLOR is unset.\n");
}

int cli_colour_ok(void)
{
    const char *nc = getenv("NO_COLOR");
    return isatty(STDOUT_FILENO) && !(nc && *nc);
}

int cli_parse_int(const char *s, int *out)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (!*s || *end || v < 0 || v > 100000000)
        return -1;
    *out = (int)v;
    return 0;
}

kifu_player *cli_open_player(const char *path, kifu_record **rec, int *code)
{
    kifu_error err = {0};
    kifu_read_options ro = {0};
    *rec = kifu_read_file(path, &ro, &err);
    if (!*rec) {
        cli_print_error(&err);
        *code = cli_exit_code(err.code);
        return NULL;
    }
    kifu_player *pl = kifu_player_new(*rec, &err);
    if (!pl) {
        kifu__error_source(&err, path);
        cli_print_error(&err);
        *code = cli_exit_code(err.code);
        kifu_record_free(*rec);
        *rec = NULL;
    }
    return pl;
}

int cmd_show(int argc, char **argv)
{
    if (cli_wants_help(argc, argv)) {
        usage(stdout);
        return EXIT_OK;
    }
    const char *file = NULL, *path = NULL, *format = NULL;
    int ply = -1, flip = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--ply") == 0 && i + 1 < argc) {
            if (cli_parse_int(argv[++i], &ply)) {
                fprintf(stderr, "kifu: show: --ply needs a number >= 0, not '%s'\n", argv[i]);
                return EXIT_USAGE;
            }
        } else if (strcmp(a, "--path") == 0 && i + 1 < argc) {
            path = argv[++i];
        } else if (strcmp(a, "--format") == 0 && i + 1 < argc) {
            format = argv[++i];
        } else if (strcmp(a, "--flip") == 0) {
            flip = 1;
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "kifu: show: unknown option '%s'\n", a);
            usage(stderr);
            return EXIT_USAGE;
        } else if (!file) {
            file = a;
        } else {
            fprintf(stderr, "kifu: show: one file only ('%s' is extra)\n", a);
            return EXIT_USAGE;
        }
    }
    if (!file) {
        usage(stderr);
        return EXIT_USAGE;
    }
    if (!format)
        format = isatty(STDOUT_FILENO) ? "text" : "bod";
    if (strcmp(format, "text") && strcmp(format, "bod") && strcmp(format, "sfen")) {
        fprintf(stderr, "kifu: show: --format is text, bod or sfen, not '%s'\n", format);
        return EXIT_USAGE;
    }
    if (path && ply >= 0) {
        fprintf(stderr, "kifu: show: give --ply or --path, not both\n");
        return EXIT_USAGE;
    }
    kifu_record *rec;
    int rc = EXIT_OK;
    kifu_player *pl = cli_open_player(file, &rec, &rc);
    if (!pl)
        return rc;
    if (path) {
        kifu_error err = {0};
        if (kifu_player_go_path(pl, path, &err)) {
            fprintf(stderr, "kifu: show: --path %s: %s\n", path, err.message);
            rc = EXIT_USAGE;
        }
    } else if (ply >= 0) {
        if (kifu_player_go(pl, ply) != ply) {
            fprintf(stderr, "kifu: show: --ply %d: the record has %d plies\n", ply,
                    kifu__player_line_end(pl));
            rc = EXIT_USAGE;
        }
    } else {
        kifu_player_go(pl, kifu__player_line_end(pl));
    }
    if (rc == EXIT_OK) {
        kifu__strbuf sb;
        kifu__sb_init(&sb);
        if (strcmp(format, "sfen") == 0) {
            char *s = kifu_position_sfen(kifu_player_position(pl), kifu_player_ply(pl) + 1);
            if (s)
                kifu__sb_printf(&sb, "%s\n", s);
            kifu_free(s);
        } else {
            kifu__diagram d;
            kifu__diagram_from_player(pl, flip, &d);
            if (strcmp(format, "bod") == 0) {
                kifu__diagram_bod(&d, &sb);
            } else {
                kifu__diagram_term(&d, cli_colour_ok(), &sb);
                kifu__sb_puts(&sb, "\n");
                kifu__diagram_moves(pl, 3, 3, "  ", &sb);
                kifu_node *n = kifu_player_node(pl);
                for (size_t i = 0; i < kifu_node_comment_count(n); i++)
                    kifu__sb_printf(&sb, "  * %s\n", kifu_node_comment(n, i));
            }
        }
        size_t len;
        char *text = kifu__sb_take(&sb, &len);
        if (!text) {
            fprintf(stderr, "kifu: out of memory\n");
            rc = EXIT_INTERNAL;
        } else if (cli_write_file(NULL, text, len)) {
            rc = EXIT_IO;
        }
        kifu_free(text);
    }
    kifu_player_free(pl);
    kifu_record_free(rec);
    return rc;
}
