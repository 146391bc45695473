/* cmd_show.c: `kifu show`: the board of a record at a ply, with hands, the last move and
 * the moves around it. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "msf_file.h"
#include "record_cursor.h"
#include "record_view.h"
#include "term.h"

void cmd_show_usage(FILE *f)
{
    fprintf(
        f,
        "usage: kifu show FILE[#GAME] [--game N] [--input-encoding ENC] [--ply N]\n"
        "                 [--path P] [--flip] [--lenient] [--format text|bod|sfen|svg]\n"
        "\n"
        "Print the position of a record (any format, '-' for stdin) at a ply: the board\n"
        "with both hands, the side to move, the last move and the moves around it.\n"
        "An .msf file (a Xelto record) shows its 7x7 state as text or svg: piece names,\n"
        "sorn's after a 'v', turned pieces with '*', both hands and evol; --path also\n"
        "takes its JSON paths (seslax[3].mit[0].seslax[1]).\n"
        "\n"
        "  --game N      game N of a file of several (FILE#N too, as search and\n"
        "                explore print it; default: the first)\n"
        "  --input-encoding ENC  the file's encoding (default: detected)\n"
        "  --ply N       ply N of the main line (0 = the start; default: the last ply)\n"
        "  --path P      a position in the fork tree: 'PLY[,C1,C2...]' goes to ply PLY\n"
        "                taking fork Ck at the k-th branching point on the way (0 = "
        "main\n"
        "                line); '/I/J/K...' lists child indices from the start\n"
        "  --flip        draw the board from gote's side\n"
        "  --lenient     a record with an illegal move is shown up to the last move\n"
        "                that could be played (the error is printed, the exit code\n"
        "                says it)\n"
        "  --format F    text (Unicode frame; colour on a terminal), bod (the KIF board\n"
        "                text), sfen (one SFEN line), svg (a self-contained SVG "
        "diagram).\n"
        "                Default: text on a terminal, else bod\n"
        "SVG only:\n"
        "  --size PX     width in pixels (default 398; the height follows)\n"
        "  --caption T   a line under the board, e.g. '図は▲７六歩まで' or '第1図'\n"
        "  --intl        the international piece set (P L N S G B R K, +P ...)\n"
        "  --two-char    成香 成桂 成銀 in two characters instead of 杏 圭 全\n"
        "  --tsume       tsume style: 持駒 label, the defender's hand left out\n"
        "  --no-last     no highlight of the last move\n"
        "\n"
        "Colour is used only when standard output is a terminal and NO_COLOR is unset.\n"
        "\n"
        "examples:\n"
        "  kifu show game.kif --ply 30\n"
        "  kifu show game.kif --format svg --caption '第1図' > diagram.svg\n"
        "  kifu show game.msf --path seslax[14] --flip\n");
}

static int show_record(const cli_cursor_args *a, const void *data, size_t dlen, int fmt,
                       const kifu_error *err);

int cmd_show(int argc, char **argv)
{
    cli_cursor_args a;
    int rc = cli_cursor_args_parse(
        "show", argc, argv, CLI_CURSOR_FORMAT | CLI_CURSOR_LENIENT, cmd_show_usage, &a);
    if (rc != EXIT_OK)
        return rc;
    /* FILE#N is game N of FILE */
    char *path;
    if (cli_cursor_file(a.file, &a.game, &path, &rc))
        return rc;
    a.file = path;
    /* the format is decided once, here: a Xelto record has a view of its own */
    size_t dlen = 0;
    int fmt;
    kifu_error err = {0};
    char *data = cli_input_read(a.file, a.encoding, &dlen, &fmt, &err);
    if (cli_other_game(fmt))
        rc = cli_msf_show(&a, a.format, data, dlen, &err);
    else
        rc = show_record(&a, data, dlen, fmt, &err);
    kifu_free(data);
    free(path);
    return rc;
}

/* A shogi record's bytes, of format fmt (NULL: the file did not read, err says why). */
static int show_record(const cli_cursor_args *ap, const void *data, size_t dlen, int fmt,
                       const kifu_error *err)
{
    cli_cursor_args a = *ap;
    int rc = EXIT_OK;
    const char *format = a.format;
    if (!format)
        format = isatty(STDOUT_FILENO) ? "text" : "bod";
    if (strcmp(format, "text") && strcmp(format, "bod") && strcmp(format, "sfen") &&
        strcmp(format, "svg")) {
        cli_err("kifu: show: --format is text, bod, sfen or svg, not '%s'\n", format);
        return EXIT_USAGE;
    }
    if (a.path && a.ply >= 0) {
        cli_err("kifu: show: give --ply or --path, not both\n");
        return EXIT_USAGE;
    }
    kifu_record *rec;
    int broken = EXIT_OK;
    if (!data) {
        cli_print_error(err);
        return cli_exit_code(err->code);
    }
    kifu_player *pl = cli_open_player_from(a.file, data, dlen, fmt, a.encoding, a.game,
                                           a.lenient ? &broken : NULL, &rec, &rc);
    if (!pl)
        return rc;
    char msg[640];
    if (cli_cursor_place(pl, &a, msg, sizeof msg)) {
        cli_err("kifu: show: %s\n", msg);
        rc = EXIT_USAGE;
    } else if (!a.path && a.ply < 0) {
        kifu_player_go(pl, kifu_player_line_end(pl));
    }
    if (rc == EXIT_OK) {
        char *text = NULL;
        size_t len = 0;
        FILE *out = open_memstream(&text, &len);
        if (!out) {
            cli_err("kifu: out of memory\n");
            rc = EXIT_INTERNAL;
        } else if (strcmp(format, "sfen") == 0) {
            /* The number of the next move: an ending node has a ply but plays no move;
             * counted from the record's own (a SFEN's `... w b 6`). */
            const kifu_position *pos = kifu_player_position(pl);
            char *s = kifu_position_sfen(pos, kifu_record_start_number(rec) +
                                                  kifu_position_history_length(pos));
            if (s)
                fprintf(out, "%s\n", s);
            kifu_free(s);
        } else {
            kifu_diagram_options o = {strcmp(format, "bod") == 0   ? KIFU_DIAGRAM_BOD
                                      : strcmp(format, "svg") == 0 ? KIFU_DIAGRAM_SVG
                                                                   : KIFU_DIAGRAM_TERM,
                                      a.diagram | (a.flip ? KIFU_DIAGRAM_FLIP : 0u) |
                                          (cli_colour_ok() ? KIFU_DIAGRAM_COLOUR : 0u),
                                      a.size,
                                      a.caption,
                                      {NULL, NULL}};
            if (o.format == KIFU_DIAGRAM_SVG) {
                /* Side labels: the players' names when the record has them. */
                o.names[0] = kifu_record_header_get(rec, "先手");
                o.names[1] = kifu_record_header_get(rec, "後手");
                if (!o.names[0])
                    o.names[0] = kifu_record_header_get(rec, "下手");
                if (!o.names[1])
                    o.names[1] = kifu_record_header_get(rec, "上手");
            }
            char *board = kifu_player_diagram(pl, &o, NULL);
            fputs(board ? board : "", out);
            kifu_free(board);
            if (o.format == KIFU_DIAGRAM_TERM) {
                /* The players, event, date and result, the moves around, and the
                 * bookmarks and comments whole, wrapped to a terminal's width. */
                int rows, cols;
                term_size(&rows, &cols);
                int width = isatty(STDOUT_FILENO) ? cols - 2 : 1 << 20;
                cli_lines about = {0}, notes = {0};
                cli_record_about(&about, rec, width);
                cli_node_notes(&notes, kifu_player_node(pl), width);
                for (size_t i = 0; i < about.n; i++)
                    fprintf(out, "%s  %s\n", i ? "" : "\n", about.v[i]);
                char *moves = kifu_player_moves_text(pl, 3, 3, "  ");
                fprintf(out, "\n%s", moves ? moves : "");
                kifu_free(moves);
                for (size_t i = 0; i < notes.n; i++)
                    fprintf(out, "  %s\n", notes.v[i]);
                cli_lines_free(&about);
                cli_lines_free(&notes);
            }
        }
        if (out && (fclose(out) != 0 || !text)) {
            cli_err("kifu: out of memory\n");
            rc = EXIT_INTERNAL;
        } else if (out && cli_write_file(NULL, text, len)) {
            rc = EXIT_IO;
        }
        free(text);
    }
    kifu_player_free(pl);
    kifu_record_free(rec);
    /* Shown up to the last playable move, but the record is still broken: say so. */
    return rc == EXIT_OK ? broken : rc;
}
