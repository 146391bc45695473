/* cmd_trace.c: `kifu trace`: the path of one piece through a line of a record. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "record_cursor.h"

void cmd_trace_usage(FILE *f)
{
    fprintf(
        f,
        "usage: kifu trace FILE[#GAME] (--square XY [--ply N] | --moved N) [--path P]\n"
        "                  [--game N] [--input-encoding ENC] [--json]\n"
        "\n"
        "Follow one piece through a line of a record (any format, '-' for stdin): every\n"
        "square it goes to, at which ply, its promotion, what it takes, and how it ends\n"
        "(taken, or the line runs out).\n"
        "\n"
        "  --square XY   the piece on square XY (file, rank: 77 is ７七) ...\n"
        "  --ply N       ... at ply N (default 0, the start)\n"
        "  --moved N     the piece that moved at ply N (that move is its first step)\n"
        "  --path P      the line through fork path P (default: the main line)\n"
        "  --game N      game N of a file of several (FILE#N too; default: the first)\n"
        "  --input-encoding ENC  the file's encoding (default: detected)\n"
        "  --json        one JSON object: start, steps, end\n"
        "\n"
        "example:\n"
        "  kifu trace game.kif --square 88\n");
}

/* The move of a step, for kifu_move_text. */
static kifu_move step_move(const kifu_trace_step *s, int color)
{
    kifu_move m;
    memset(&m, 0, sizeof m);
    m.color = (uint8_t)color;
    m.from_x = s->from_x, m.from_y = s->from_y;
    m.to_x = s->to_x, m.to_y = s->to_y;
    m.piece = s->piece;
    m.capture = s->capture;
    m.promote = s->promote ? 1 : -1;
    m.same = -1;
    return m;
}

static void print_text(const kifu_trace *t)
{
    int x, y, ply, piece, end_ply;
    kifu_trace_start(t, &x, &y, &ply, &piece);
    int color = piece >> 4;
    kifu_move at = {.color = (uint8_t)color,
                    .from_x = (uint8_t)x,
                    .from_y = (uint8_t)y,
                    .to_x = (uint8_t)x,
                    .to_y = (uint8_t)y,
                    .piece = (uint8_t)(piece & 15),
                    .promote = -1,
                    .same = -1};
    char text[64];
    /* "☗８八角" names the piece where it stands: the text of a board move there, without
     * its source. */
    kifu_move_text(&at, NULL, KIFU_TEXT_MARK, text, sizeof text);
    printf("%s at ply %d\n", text, ply);
    for (size_t i = 0; i < kifu_trace_count(t); i++) {
        const kifu_trace_step *s = kifu_trace_step_at(t, i);
        kifu_move m = step_move(s, color);
        kifu_move_text(&m, NULL, KIFU_TEXT_KIF, text, sizeof text);
        printf("%5d %s", s->ply, text);
        if (s->capture) {
            kifu_move c = {.from_x = 5,
                           .from_y = 5,
                           .to_x = 5,
                           .to_y = 5,
                           .piece = s->capture,
                           .promote = -1,
                           .same = -1};
            char name[64];
            /* The piece name alone: the text of a board move to ５五 (where no piece must
             * promote) less its square. */
            kifu_move_text(&c, NULL, 0, name, sizeof name);
            printf("  takes %s", name + strlen("５五"));
        }
        printf("\n");
    }
    if (kifu_trace_end(t, &end_ply) == KIFU_TRACE_CAPTURED)
        printf("taken at ply %d\n", end_ply);
    else
        printf("line ends at ply %d\n", end_ply);
}

static void print_json(const kifu_trace *t)
{
    int x, y, ply, piece, end_ply;
    kifu_trace_start(t, &x, &y, &ply, &piece);
    printf("{\"start\":{\"x\":%d,\"y\":%d,\"ply\":%d,\"piece\":\"%s\",\"color\":%d},"
           "\"steps\":[",
           x, y, ply, kifu_piece_csa(piece & 15), piece >> 4);
    for (size_t i = 0; i < kifu_trace_count(t); i++) {
        const kifu_trace_step *s = kifu_trace_step_at(t, i);
        char usi[8], from[32] = "null", capture[8] = "null";
        kifu_move m = step_move(s, piece >> 4);
        kifu_move_usi(&m, usi);
        if (s->from_x)
            snprintf(from, sizeof from, "{\"x\":%d,\"y\":%d}", s->from_x, s->from_y);
        if (s->capture)
            snprintf(capture, sizeof capture, "\"%s\"", kifu_piece_csa(s->capture));
        printf("%s{\"ply\":%d,\"from\":%s,\"to\":{\"x\":%d,\"y\":%d},\"usi\":\"%s\","
               "\"promote\":%s,\"capture\":%s}",
               i ? "," : "", s->ply, from, s->to_x, s->to_y, usi,
               s->promote ? "true" : "false", capture);
    }
    int end = kifu_trace_end(t, &end_ply);
    printf("],\"end\":{\"ply\":%d,\"reason\":\"%s\"}}\n", end_ply,
           end == KIFU_TRACE_CAPTURED ? "captured" : "line-end");
}

int cmd_trace(int argc, char **argv)
{
    const char *file = NULL, *path = NULL;
    int square = -1, ply = 0, moved = -1, json = 0, game = 0, enc = KIFU_ENC_AUTO;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        int *num = strcmp(a, "--square") == 0  ? &square
                   : strcmp(a, "--ply") == 0   ? &ply
                   : strcmp(a, "--moved") == 0 ? &moved
                   : strcmp(a, "--game") == 0  ? &game
                                               : NULL;
        if (num) {
            if (!v || cli_parse_int(v, num)) {
                cli_err("kifu: trace: %s needs a number\n", a);
                return EXIT_USAGE;
            }
            i++;
        } else if (strcmp(a, "--path") == 0 && v) {
            path = v, i++;
        } else if (strcmp(a, "--input-encoding") == 0 && v) {
            if (cli_parse_encoding(v, &enc))
                return EXIT_USAGE;
            i++;
        } else if (strcmp(a, "--json") == 0) {
            json = 1;
        } else if ((a[0] != '-' || strcmp(a, "-") == 0) && !file) {
            file = a;
        } else if (a[0] == '-' && strcmp(a, "-") != 0) {
            if (!v && (!strcmp(a, "--path") || !strcmp(a, "--input-encoding"))) {
                cli_err("kifu: trace: %s needs a value\n", a);
                return EXIT_USAGE;
            }
            return cli_unknown_option("trace", a);
        } else {
            cli_err("kifu: trace: one file only ('%s' is extra)\n", a);
            return EXIT_USAGE;
        }
    }
    if (!file || (square < 0) == (moved < 0) ||
        (square >= 0 && (square / 10 < 1 || square / 10 > 9 || square % 10 < 1))) {
        cli_err("kifu: trace: give FILE and either --square XY (11..99) or "
                "--moved N\n");
        cmd_trace_usage(stderr);
        return EXIT_USAGE;
    }
    kifu_record *rec;
    int rc = EXIT_OK;
    kifu_player *pl = cli_open_game(file, enc, game, NULL, &rec, &rc);
    if (!pl)
        return rc;
    kifu_player_free(pl);
    kifu_error err;
    kifu_error_clear(&err);
    kifu_trace *t =
        square >= 0 ? kifu_trace_square(rec, path, ply, square / 10, square % 10, &err)
                    : kifu_trace_moved(rec, path, moved, &err);
    if (!t) {
        cli_print_error(&err);
        rc = err.code == KIFU_ERR_NOMEM ? EXIT_INTERNAL : EXIT_USAGE;
    } else {
        if (json)
            print_json(t);
        else
            print_text(t);
        kifu_trace_free(t);
    }
    kifu_record_free(rec);
    return rc;
}
