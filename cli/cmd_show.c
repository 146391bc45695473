/* cmd_show.c: `kifu show`: the board of a record at a ply, with hands, the last move and
 * the moves around it. */
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "diagram/diagram.h"
#include "kifu_private.h"
#include "record/player.h"
#include "record_cursor.h"

static void usage(FILE *f)
{
    fprintf(
        f,
        "usage: kifu show FILE [--ply N] [--path P] [--flip] [--format text|bod|sfen]\n"
        "\n"
        "Print the position of a record (any format, '-' for stdin) at a ply: the board\n"
        "with both hands, the side to move, the last move and the moves around it.\n"
        "\n"
        "  --ply N       ply N of the main line (0 = the start; default: the last ply)\n"
        "  --path P      a position in the fork tree: 'PLY[,C1,C2...]' goes to ply PLY\n"
        "                taking fork Ck at the k-th branching point on the way (0 = "
        "main\n"
        "                line); '/I/J/K...' lists child indices from the start\n"
        "  --flip        draw the board from gote's side\n"
        "  --format F    text (Unicode frame; colour on a terminal), bod (the KIF board\n"
        "                text), sfen (one SFEN line). Default: text on a terminal, else "
        "bod\n"
        "\n"
        "Colour is used only when standard output is a terminal and NO_COLOR is "
        "unset.\n");
}

int cmd_show(int argc, char **argv)
{
    if (cli_wants_help(argc, argv)) {
        usage(stdout);
        return EXIT_OK;
    }
    cli_cursor_args a;
    int rc = cli_cursor_args_parse("show", argc, argv, 1, usage, &a);
    if (rc != EXIT_OK)
        return rc;
    const char *format = a.format;
    if (!format)
        format = isatty(STDOUT_FILENO) ? "text" : "bod";
    if (strcmp(format, "text") && strcmp(format, "bod") && strcmp(format, "sfen")) {
        fprintf(stderr, "kifu: show: --format is text, bod or sfen, not '%s'\n", format);
        return EXIT_USAGE;
    }
    if (a.path && a.ply >= 0) {
        fprintf(stderr, "kifu: show: give --ply or --path, not both\n");
        return EXIT_USAGE;
    }
    kifu_record *rec;
    kifu_player *pl = cli_open_player(a.file, &rec, &rc);
    if (!pl)
        return rc;
    char msg[640];
    if (cli_cursor_place(pl, &a, msg, sizeof msg)) {
        fprintf(stderr, "kifu: show: %s\n", msg);
        rc = EXIT_USAGE;
    } else if (!a.path && a.ply < 0) {
        kifu_player_go(pl, kifu__player_line_end(pl));
    }
    if (rc == EXIT_OK) {
        kifu__strbuf sb;
        kifu__sb_init(&sb);
        if (strcmp(format, "sfen") == 0) {
            /* The number of the next move: an ending node has a ply but plays no move. */
            const kifu_position *pos = kifu_player_position(pl);
            char *s = kifu_position_sfen(pos, kifu_position_history_length(pos) + 1);
            if (s)
                kifu__sb_printf(&sb, "%s\n", s);
            kifu_free(s);
        } else {
            kifu__diagram d;
            kifu__diagram_from_player(pl, a.flip, &d);
            if (strcmp(format, "bod") == 0) {
                kifu__diagram_bod(&d, &sb);
            } else {
                kifu__diagram_term(&d, cli_colour_ok(), &sb);
                kifu__sb_puts(&sb, "\n");
                kifu__diagram_moves(pl, 3, 3, "  ", &sb);
                kifu_node *n = kifu_player_node(pl);
                char safe[1024];
                for (size_t i = 0; i < kifu_node_comment_count(n); i++)
                    kifu__sb_printf(
                        &sb, "  * %s\n",
                        cli_safe_text(kifu_node_comment(n, i), safe, sizeof safe));
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
