/* cmd_play.c: `kifu play`: two people at one terminal, moves typed in any common
 * notation.
 *
 * Line-based: the terminal stays in its normal (cooked) mode, so line editing works and
 * piped input works the same way; end of input ends the game without further questions.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "record_cursor.h"
#include "term.h"

void cmd_play_usage(FILE *f)
{
    fprintf(
        f,
        "usage: kifu play [--sfen S | --readsfen FILE | --from FILE [--ply N | --path "
        "P]]\n"
        "                 [-o OUT] [--flip]\n"
        "       kifu play --replay FILE     (the same as kifu replay FILE)\n"
        "\n"
        "Two players at one terminal. The game starts from the standard position, a\n"
        "SFEN / USI position (--sfen, or --readsfen FILE holding one SFEN line), or a\n"
        "record at a ply (--from; moves played there continue the record, a different\n"
        "move opens a fork). A SFEN's move number goes on (… b - 6: the next move is "
        "6).\n"
        "\n"
        "Moves, one per line:\n"
        "  7g7f  8h2b+  P*5e          USI\n"
        "  ７六歩  76歩  同銀  ２二角成  ５五角打  ７八金右   KIF / KI2\n"
        "  77 76   88 22 +   00 55 kaku   00 55 KA        from, to [piece] [+|=]\n"
        "When a move may promote or not and the text does not say, you are asked\n"
        "(<<成りますか？>>: naru or y, narazu or n); a promotion the rules force is\n"
        "applied. USI without '+' means no promotion.\n"
        "\n"
        "Commands:\n"
        "  undo, revert  take back the last move        moves    list the legal moves\n"
        "  resign        the side to move resigns       declare  入玉宣言 (CSA 27-point "
        "rule)\n"
        "  flip          turn the board                 board    show the board again\n"
        "  save FILE     write the game (the format from the extension)\n"
        "  quit [FILE]   leave; unsaved moves are saved to FILE, to OUT with -o, else\n"
        "                to ./kifu.sfenlist (an existing file is never overwritten: the\n"
        "                next free name, kifu-2.sfenlist ..., is taken and shown);\n"
        "                'quit -' leaves without saving\n"
        "\n"
        "  -o OUT        save the game to OUT when it ends, on quit and at end of input\n"
        "The game ends itself on mate (詰み), repetition (千日手; perpetual check "
        "loses).\n");
}

typedef struct game {
    kifu_record *rec;
    kifu_player *pl;
    const char *out;
    size_t base_nodes; /* nodes that existed before this session */
    int flip;
    int colour;
    int dirty; /* moves since the last save */
    int over;
} game;

/* The move number of ply `ply`: a game continued from a SFEN goes on with its number. */
static int number(const game *g, int ply)
{
    return kifu_record_start_number(g->rec) - 1 + ply;
}

static void show_board(game *g)
{
    kifu_diagram_options o = {KIFU_DIAGRAM_TERM,
                              (g->flip ? KIFU_DIAGRAM_FLIP : 0u) |
                                  (g->colour ? KIFU_DIAGRAM_COLOUR : 0u),
                              0,
                              NULL,
                              {NULL, NULL}};
    char *board = kifu_player_diagram(g->pl, &o, NULL);
    if (board)
        fputs(board, stdout);
    kifu_free(board);
}

static int save(game *g, const char *path)
{
    int format = kifu_format_from_path(path);
    if (format == KIFU_FMT_AUTO) {
        char exts[256];
        cli_format_list(exts, sizeof exts, 1);
        printf("cannot tell the format of '%s': use one of %s\n", path, exts);
        return -1;
    }
    kifu_write_options wo = {.format = format};
    kifu_error err = {0};
    size_t len;
    char *text = kifu_write(g->rec, &wo, &len, &err);
    if (!text) {
        char buf[700];
        printf("cannot save: %s\n", kifu_error_format(&err, buf, sizeof buf));
        return -1;
    }
    fflush(stdout);
    int rc = cli_write_file(path, text, len);
    kifu_free(text);
    if (rc == 0) {
        printf("saved %s\n", path);
        g->dirty = 0;
    }
    return rc;
}

/* One line from stdin without the newline (NUL bytes become '?', an overlong line is cut
 * and its rest dropped). -1 at end of input with nothing read. */
static int read_line(const char *prompt, char *buf, size_t cap)
{
    fputs(prompt, stdout);
    fflush(stdout);
    size_t n = 0;
    int c = EOF;
    while ((c = getchar()) != EOF && c != '\n') {
        if (n + 1 < cap)
            buf[n++] = c ? (char)c : '?';
    }
    buf[n] = 0;
    if (c == EOF && n == 0)
        return -1;
    while (n && (buf[n - 1] == '\r' || buf[n - 1] == ' ' || buf[n - 1] == '\t'))
        buf[--n] = 0;
    return 0;
}

static const char *side_name(int color)
{
    return color == KIFU_BLACK ? "☗先手" : "☖後手";
}

/* End the game with an ending word after the cursor. */
static void finish(game *g, const char *word, const char *message)
{
    kifu_error err = {0};
    if (kifu_player_add_special(g->pl, word, &err)) {
        printf("%s\n", err.message);
        return;
    }
    g->over = 1;
    g->dirty = 1;
    printf("%s\n", message);
    if (g->out)
        save(g, g->out);
}

/* After a move: mate, repetition. */
static void judge(game *g)
{
    const kifu_position *p = kifu_player_position(g->pl);
    int side = kifu_position_side(p);
    char msg[200];
    if (!kifu_position_has_legal_move(p)) {
        snprintf(msg, sizeof msg, "詰み: %s wins", side_name(!side));
        finish(g, "TSUMI", msg);
        return;
    }
    if (kifu_position_can_declare(p))
        printf("%s may declare 入玉宣言 now: type declare\n", side_name(side));
    switch (kifu_position_repetition(p)) {
    case KIFU_REP_DRAW:
        finish(g, "SENNICHITE", "千日手: the same position the fourth time, a draw");
        break;
    case KIFU_REP_BLACK_LOSES:
        finish(g, "+ILLEGAL_ACTION",
               "連続王手の千日手: ☗先手 gave perpetual check and loses");
        break;
    case KIFU_REP_WHITE_LOSES:
        finish(g, "-ILLEGAL_ACTION",
               "連続王手の千日手: ☖後手 gave perpetual check and loses");
        break;
    }
}

static void undo(game *g)
{
    kifu_node *n = kifu_player_node(g->pl);
    if (kifu_player_ply(g->pl) == 0) {
        printf("nothing to undo\n");
        return;
    }
    char text[80];
    kifu_node_text(n, text, sizeof text);
    if (kifu_node_id(n) >= g->base_nodes) {
        kifu_player_delete_branch(g->pl);
        g->dirty = 1;
    } else {
        kifu_player_backward(g->pl);
    }
    g->over = 0;
    printf("undone: %s\n", text);
    /* an ending after a move goes with it: undo once more to take the move back too */
}

static void list_moves(game *g)
{
    kifu_move m[600];
    size_t n = kifu_position_legal_moves(kifu_player_position(g->pl), m, 600);
    if (n > 600)
        n = 600;
    for (size_t i = 0; i < n; i++) {
        char usi[8], text[64];
        kifu_move_usi(&m[i], usi);
        kifu_move_text(&m[i], NULL, KIFU_TEXT_FROM, text, sizeof text);
        printf("%-6s %-16s%s", usi, text, i % 4 == 3 || i + 1 == n ? "\n" : " ");
    }
    printf("%zu legal moves\n", n);
}

/* Ask whether to promote, in the words of the C program's document (seed 004) beside
 * kifu's own. 1 yes, 0 no, -1 end of input. */
static int ask_promote(const kifu_move *m)
{
    char text[64], prompt[160], buf[64];
    kifu_move plain = *m;
    plain.promote = -1;
    kifu_move_text(&plain, NULL, KIFU_TEXT_FROM, text, sizeof text);
    snprintf(prompt, sizeof prompt, "%s <<成りますか？>>(naru, narazu) promote? [y/n] ",
             text);
    for (;;) {
        if (read_line(prompt, buf, sizeof buf))
            return -1;
        if (!strcmp(buf, "y") || !strcmp(buf, "yes") || !strcmp(buf, "成") ||
            !strcmp(buf, "naru") || !strcmp(buf, "+"))
            return 1;
        if (!strcmp(buf, "n") || !strcmp(buf, "no") || !strcmp(buf, "不成") ||
            !strcmp(buf, "narazu") || !strcmp(buf, "="))
            return 0;
        printf("answer naru or y (成), narazu or n (不成)\n");
    }
}

/* 2 when a move was played, 1 when not, 0 at end of input. */
static int try_move(game *g, const char *text)
{
    if (g->over) {
        printf("the game is over: undo, save FILE or quit\n");
        return 1;
    }
    const kifu_position *p = kifu_player_position(g->pl);
    kifu_move last_v;
    const kifu_move *last =
        kifu_node_get_move(kifu_player_node(g->pl), &last_v) ? &last_v : NULL;
    int prev_to = last ? last->to_x * 10 + last->to_y : 0;
    kifu_move m;
    kifu_error err = {0};
    int rc = kifu_position_parse_move(p, text, prev_to, &m, &err);
    if (rc < 0) {
        printf("%s\n", err.message);
        return 1;
    }
    if (rc == KIFU_PARSE_ASK_PROMOTE) {
        int yes = ask_promote(&m);
        if (yes < 0)
            return 0;
        m.promote = (int8_t)yes;
    }
    kifu_error e2 = {0};
    if (kifu_player_add_move(g->pl, &m, &e2)) {
        printf("%s\n", e2.message);
        return 1;
    }
    g->dirty = 1;
    char t[80];
    printf("%d %s\n", number(g, kifu_player_ply(g->pl)),
           kifu_node_text(kifu_player_node(g->pl), t, sizeof t));
    judge(g);
    return 2;
}

/* The name the document's program saves to (seed 004: ./kifu.sfenlist), or, when a file
 * has it, the first of kifu-2.sfenlist, kifu-3.sfenlist ... that none has: a game saved
 * before is never overwritten. */
static void free_name(char *buf, size_t cap)
{
    snprintf(buf, cap, "./kifu.sfenlist");
    for (int i = 2; access(buf, F_OK) == 0 && i < 100000; i++)
        snprintf(buf, cap, "./kifu-%d.sfenlist", i);
}

/* quit [FILE]: 1 to leave, 0 to stay. */
static int quit(game *g, const char *file)
{
    if (file && !strcmp(file, "-"))
        return 1;
    if (file)
        return save(g, file) == 0 ? 1 : 0;
    if (!g->dirty)
        return 1;
    if (g->out)
        return save(g, g->out) == 0 ? 1 : 0;
    char name[64];
    free_name(name, sizeof name);
    if (strcmp(name, "./kifu.sfenlist") != 0)
        printf("./kifu.sfenlist exists: saving to %s instead\n", name);
    return save(g, name) == 0 ? 1 : 0;
}

static int setup(game *g, const char *sfen, const char *readsfen, const char *from,
                 int ply, const char *path)
{
    kifu_error err = {0};
    int rc = EXIT_OK;
    if (from) {
        g->pl = cli_open_player(from, NULL, &g->rec, &rc);
        if (!g->pl)
            return rc;
        if (path && kifu_player_go_path(g->pl, path, &err)) {
            cli_err("kifu: play: --path %s: %s\n", path, err.message);
            return EXIT_USAGE;
        }
        if (!path)
            kifu_player_go(g->pl, ply >= 0 ? ply : kifu_player_line_end(g->pl));
        if (ply >= 0 && kifu_player_ply(g->pl) != ply) {
            cli_err("kifu: play: --ply %d: the record has %d plies\n", ply,
                    kifu_player_line_end(g->pl));
            return EXIT_USAGE;
        }
        /* starting on an ending: play from the move before it */
        while (kifu_node_kind_of(kifu_player_node(g->pl)) == KIFU_NODE_SPECIAL)
            kifu_player_backward(g->pl);
    } else {
        if (sfen) {
            kifu_read_options ro = {.format = KIFU_FMT_SFEN, .source = "--sfen"};
            g->rec = kifu_read(sfen, strlen(sfen), &ro, &err);
        } else if (readsfen) {
            /* The document's `--readsfen FILE`: a game continued from a SFEN line. */
            kifu_read_options ro = {.format = KIFU_FMT_SFEN, .source = readsfen};
            g->rec = kifu_read_file(readsfen, &ro, &err);
        } else {
            g->rec = kifu_record_new();
            if (!g->rec)
                err = (kifu_error){.code = KIFU_ERR_NOMEM, .message = "out of memory"};
            else
                kifu_record_set_preset(g->rec, KIFU_PRESET_HIRATE);
        }
        if (g->rec)
            g->pl = kifu_player_new(g->rec, &err);
        if (!g->pl) {
            cli_print_error(&err);
            return cli_exit_code(err.code);
        }
        kifu_player_go(g->pl, kifu_player_line_end(g->pl));
    }
    g->base_nodes = kifu_record_node_count(g->rec);
    return EXIT_OK;
}

/* End of input at a prompt: the game is saved to -o's OUT, else its unsaved moves are
 * said to be lost. */
static void end_of_input(game *g)
{
    printf("\n");
    if (g->dirty && g->out)
        save(g, g->out);
    else if (g->dirty)
        cli_err("kifu: play: end of input: the unsaved moves are not kept\n");
}

/* One line typed at the prompt: a command, else a move. 1 to leave the game, else 0. */
static int command(game *g, const char *buf)
{
    int side = kifu_position_side(kifu_player_position(g->pl));
    if (!buf[0] || !strcmp(buf, "board")) {
        show_board(g);
    } else if (!strcmp(buf, "help") || !strcmp(buf, "?")) {
        cmd_play_usage(stdout);
    } else if (!strcmp(buf, "undo") || !strcmp(buf, "待った") || !strcmp(buf, "revert")) {
        undo(g);
        show_board(g);
    } else if (!strcmp(buf, "resign") || !strcmp(buf, "投了")) {
        if (g->over) {
            printf("the game is over already\n");
        } else {
            char msg[80];
            snprintf(msg, sizeof msg, "投了: %s wins", side_name(!side));
            finish(g, "TORYO", msg);
        }
    } else if (!strcmp(buf, "declare") || !strcmp(buf, "宣言")) {
        if (g->over) {
            printf("the game is over already\n");
        } else if (kifu_position_can_declare(kifu_player_position(g->pl))) {
            char msg[80];
            snprintf(msg, sizeof msg, "入玉宣言: %s wins", side_name(side));
            finish(g, "KACHI", msg);
        } else {
            printf("the declaration does not hold (CSA 27-point rule: king in the enemy "
                   "camp and not in check, 10 more pieces there, 28 points for sente, 27 "
                   "for gote)\n");
        }
    } else if (!strcmp(buf, "flip")) {
        g->flip = !g->flip;
        show_board(g);
    } else if (!strcmp(buf, "moves")) {
        list_moves(g);
    } else if (!strncmp(buf, "save", 4) && (buf[4] == ' ' || !buf[4])) {
        const char *f = buf + 4;
        while (*f == ' ')
            f++;
        if (!*f)
            printf("save FILE: give a file name\n");
        else
            save(g, f);
    } else if (!strcmp(buf, "quit") || !strcmp(buf, "exit") || !strcmp(buf, "q") ||
               !strncmp(buf, "quit ", 5)) {
        const char *f = buf[0] == 'q' && buf[1] == 'u' ? buf + 4 : buf + strlen(buf);
        while (*f == ' ')
            f++;
        if (quit(g, *f ? f : NULL))
            return 1;
    } else {
        int r = try_move(g, buf);
        if (r == 0) {
            end_of_input(g);
            return 1;
        }
        if (r == 2)
            show_board(g);
    }
    return 0;
}

int cmd_play(int argc, char **argv)
{
    const char *sfen = NULL, *readsfen = NULL, *from = NULL, *path = NULL;
    int ply = -1;
    game g = {0};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--sfen") == 0 && i + 1 < argc) {
            sfen = argv[++i];
        } else if (strcmp(a, "--replay") == 0 && i + 1 < argc) {
            /* The document's `./main --replay FILE`: step through a saved game. */
            if (argc != 3) {
                cli_err("kifu: play: --replay FILE takes no other argument (see kifu "
                        "replay --help for its options)\n");
                return EXIT_USAGE;
            }
            char *args[] = {"replay", argv[i + 1], NULL};
            return cmd_replay(2, args);
        } else if (strcmp(a, "--readsfen") == 0 && i + 1 < argc) {
            readsfen = argv[++i];
        } else if (strcmp(a, "--from") == 0 && i + 1 < argc) {
            from = argv[++i];
        } else if (strcmp(a, "--ply") == 0 && i + 1 < argc) {
            if (cli_parse_int(argv[++i], &ply)) {
                cli_err("kifu: play: --ply needs a number >= 0\n");
                return EXIT_USAGE;
            }
        } else if (strcmp(a, "--path") == 0 && i + 1 < argc) {
            path = argv[++i];
        } else if (strcmp(a, "-o") == 0 && i + 1 < argc) {
            g.out = argv[++i];
        } else if (strcmp(a, "--flip") == 0) {
            g.flip = 1;
        } else if (a[0] == '-' && a[1]) {
            return cli_unknown_option("play", a);
        } else {
            cli_err("kifu: play: unknown argument '%s'\n", a);
            cmd_play_usage(stderr);
            return EXIT_USAGE;
        }
    }
    if (!!sfen + !!readsfen + !!from > 1) {
        cli_err("kifu: play: give one of --sfen, --readsfen and --from\n");
        return EXIT_USAGE;
    }
    if (!from && (ply >= 0 || path)) {
        cli_err("kifu: play: --ply and --path go with --from\n");
        return EXIT_USAGE;
    }
    if (g.out && kifu_format_from_path(g.out) == KIFU_FMT_AUTO) {
        cli_err("kifu: play: -o %s: cannot tell the format from the extension\n", g.out);
        return EXIT_USAGE;
    }
    int rc = setup(&g, sfen, readsfen, from, ply, path);
    if (rc != EXIT_OK) {
        kifu_player_free(g.pl);
        kifu_record_free(g.rec);
        return rc;
    }
    g.colour = cli_colour_ok();
    if (!kifu_position_has_legal_move(kifu_player_position(g.pl))) {
        g.over = 1;
        printf("the side to move has no legal move: the game is over\n");
    }
    show_board(&g);
    for (;;) {
        char prompt[96], buf[512];
        if (g.over)
            snprintf(prompt, sizeof prompt, "game over> ");
        else
            snprintf(prompt, sizeof prompt, "%s %d手目> ",
                     side_name(kifu_position_side(kifu_player_position(g.pl))),
                     number(&g, kifu_player_ply(g.pl) + 1));
        if (read_line(prompt, buf, sizeof buf)) {
            end_of_input(&g);
            break;
        }
        if (command(&g, buf))
            break;
    }
    kifu_player_free(g.pl);
    kifu_record_free(g.rec);
    return EXIT_OK;
}
