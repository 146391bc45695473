/* cmd_html.c: `kifu html`: one self-contained replay page for records (kifu_html_write). */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "inputs.h"
#include "record_cursor.h"

void cmd_html_usage(FILE *f)
{
    fprintf(
        f,
        "usage: kifu html FILE... [-o PAGE] [--css FILE] [--intl] [--two-char] [--flip]\n"
        "                 [--catalogue | --no-catalogue] [--title T] [--game N]\n"
        "                 [--input-encoding ENC]\n"
        "       kifu html --default-css\n"
        "\n"
        "Write one self-contained HTML page (no network, no external file) that replays\n"
        "the records: click the right half of the board to go forward, the left half to\n"
        "go back, the 先手/後手 label to flip; keys ← → Home End PageUp PageDown; "
        "moves,\n"
        "forks, comments, times and the header; the ply in the URL (#ply=42); trace,\n"
        "match, filter, mvlight and bwcolor aids. FILE is any format ('-' for stdin) or "
        "a\n"
        "directory; every game of every file gets a viewer on the page.\n"
        "\n"
        "  -o, --output PAGE  write the page there (default: standard output)\n"
        "  --css FILE         use this stylesheet instead of the built-in one\n"
        "  --default-css      print the built-in stylesheet (a start for --css), exit\n"
        "  --intl             boards in the international piece set (P L N S G B R K,\n"
        "                     +P), moves in western notation (P-7f)\n"
        "  --two-char         成香 成桂 成銀 in two characters instead of 杏 圭 全\n"
        "  --flip             boards drawn from gote's side\n"
        "  --catalogue        a grid of every game's first position, each opening the\n"
        "                     viewer (the default when every game is a single\n"
        "                     position, as in a posjson file of unrelated positions)\n"
        "  --no-catalogue     one viewer per game even then\n"
        "  --title T          the page title (default: the players of the first game)\n"
        "  --game N           only game N of each file (FILE#N: of that file)\n"
        "  --input-encoding ENC  the files' encoding (default: detected)\n"
        "\n"
        "examples:\n"
        "  kifu html game.kif -o game.html\n"
        "  kifu html problems.json --catalogue --intl -o problems.html\n"
        "  kifu html --default-css > my.css; kifu html game.kif --css my.css -o "
        "game.html\n");
}

typedef struct games {
    kifu_record **v;
    size_t n, cap;
} games;

/* Read every game of one input onto g, or game `game` (from 1) when not 0 or when the
 * input is a reference FILE#N. EXIT_OK, or the exit code (message printed). */
static int read_games(const cli_input *in, int enc, int game, games *g,
                      cli_skipped *skipped)
{
    const char *arg = in->path;
    kifu_error e;
    kifu_error_clear(&e);
    size_t len;
    char *path;
    int ref;
    if (cli_game_ref(arg, &path, &ref)) {
        cli_err("kifu: out of memory\n");
        return EXIT_INTERNAL;
    }
    if (ref)
        game = ref;
    char *data = kifu_file_read(path, &len, &e);
    if (!data) {
        cli_print_error(&e);
        free(path);
        return cli_exit_code(e.code);
    }
    const char *src = strcmp(path, "-") == 0 ? "standard input" : path;
    kifu_read_options ro = {.encoding = enc,
                            .source = src,
                            .warn = cli_print_warning,
                            .warn_ctx = (void *)src};
    kifu_record **recs = NULL;
    size_t count = 0;
    int rc = EXIT_OK;
    if (kifu_read_all(data, len, &ro, &recs, &count, &e) &&
        cli_not_record(in, KIFU_FMT_AUTO, &e, data, len)) {
        cli_skipped_add(skipped, src);
    } else if (e.code) {
        if (!e.source[0])
            snprintf(e.source, sizeof e.source, "%s", src);
        cli_print_error(&e);
        rc = cli_exit_code(e.code);
    }
    kifu_free(data);
    if (rc == EXIT_OK && game > 0 && (size_t)game > count) {
        cli_err("kifu: %s: no game %d: the file holds %zu game%s\n", src, game, count,
                count == 1 ? "" : "s");
        rc = EXIT_USAGE;
    }
    free(path);
    for (size_t i = 0; i < count; i++) {
        if (game > 0 && i != (size_t)game - 1) {
            kifu_record_free(recs[i]);
            continue;
        }
        if (g->n == g->cap) {
            size_t cap = g->cap ? g->cap * 2 : 8;
            kifu_record **v = realloc(g->v, cap * sizeof *v);
            if (!v) {
                cli_err("kifu: out of memory\n");
                for (; i < count; i++)
                    kifu_record_free(recs[i]);
                rc = EXIT_INTERNAL;
                break;
            }
            g->v = v, g->cap = cap;
        }
        g->v[g->n++] = recs[i];
    }
    kifu_free(recs);
    return rc;
}

/* Every game is one position (no move): a catalogue of diagrams suits them. */
static int all_single_positions(const games *g)
{
    if (g->n < 2)
        return 0;
    for (size_t i = 0; i < g->n; i++)
        if (kifu_node_child_count(kifu_record_root(g->v[i])) > 0)
            return 0;
    return 1;
}

int cmd_html(int argc, char **argv)
{
    const char *out = NULL, *css_path = NULL;
    kifu_html_options o = {.warn = cli_print_warning, .warn_ctx = "html"};
    int catalogue = -1; /* -1: decided by the games */
    int enc = KIFU_ENC_AUTO, game = 0;
    cli_inputs in = {0};
    int rc = EXIT_OK, only_files = 0;
    for (int i = 1; i < argc && rc == EXIT_OK; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (only_files || strcmp(a, "-") == 0 || a[0] != '-') {
            rc = cli_inputs_add(&in, a);
        } else if (strcmp(a, "--") == 0) {
            only_files = 1;
        } else if (strcmp(a, "--default-css") == 0) {
            cli_inputs_free(&in);
            const char *css = kifu_html_asset("viewer.css");
            return cli_write_file(NULL, css, strlen(css)) ? EXIT_IO : EXIT_OK;
        } else if (strcmp(a, "--intl") == 0) {
            o.flags |= KIFU_HTML_INTL;
        } else if (strcmp(a, "--two-char") == 0) {
            o.flags |= KIFU_HTML_TWO_CHAR;
        } else if (strcmp(a, "--flip") == 0) {
            o.flags |= KIFU_HTML_FLIP;
        } else if (strcmp(a, "--catalogue") == 0) {
            catalogue = 1;
        } else if (strcmp(a, "--no-catalogue") == 0) {
            catalogue = 0;
        } else if (v && (strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0)) {
            out = v, i++;
        } else if (v && strcmp(a, "--css") == 0) {
            css_path = v, i++;
        } else if (v && strcmp(a, "--title") == 0) {
            o.title = v, i++;
        } else if (v && strcmp(a, "--input-encoding") == 0) {
            rc = cli_parse_encoding(v, &enc) ? EXIT_USAGE : rc, i++;
        } else if (v && strcmp(a, "--game") == 0) {
            if (cli_parse_int(v, &game) || game < 1) {
                cli_err("kifu: html: --game needs a number >= 1, not '%s'\n", v);
                rc = EXIT_USAGE;
            }
            i++;
        } else {
            /* A known option without its value, or an unknown one. */
            static const char *const valued[] = {
                "-o", "--output", "--css", "--title", "--game", "--input-encoding"};
            int known = 0;
            for (size_t k = 0; k < sizeof valued / sizeof valued[0]; k++)
                known |= strcmp(a, valued[k]) == 0;
            cli_inputs_free(&in);
            if (!known)
                return cli_unknown_option("html", a);
            cli_err("kifu: html: %s needs a value\n", a);
            return EXIT_USAGE;
        }
    }
    if (rc == EXIT_OK && in.n == 0) {
        cli_err("kifu: html: no record file given\n");
        cmd_html_usage(stderr);
        rc = EXIT_USAGE;
    }
    char *css = NULL;
    if (rc == EXIT_OK && css_path) {
        kifu_error e;
        kifu_error_clear(&e);
        size_t css_len;
        css = kifu_file_read(css_path, &css_len, &e);
        if (!css) {
            cli_print_error(&e);
            rc = cli_exit_code(e.code);
        }
        o.css = css;
    }
    games g = {0};
    cli_skipped skipped = {0};
    for (size_t i = 0; i < in.n && rc == EXIT_OK; i++)
        rc = read_games(&in.v[i], enc, game, &g, &skipped);
    cli_skipped_report(&skipped, 0);
    if (rc == EXIT_OK && g.n == 0) {
        cli_err("kifu: html: the files hold no game\n");
        rc = EXIT_INPUT;
    }
    if (rc == EXIT_OK) {
        if (catalogue == 1 || (catalogue < 0 && all_single_positions(&g)))
            o.flags |= KIFU_HTML_CATALOGUE;
        kifu_error e;
        kifu_error_clear(&e);
        size_t len;
        char *page = kifu_html_write((const kifu_record *const *)g.v, g.n, &o, &len, &e);
        if (!page) {
            cli_print_error(&e);
            rc = cli_exit_code(e.code);
        } else if (cli_write_file(out, page, len)) {
            rc = EXIT_IO;
        }
        kifu_free(page);
    }
    for (size_t i = 0; i < g.n; i++)
        kifu_record_free(g.v[i]);
    free(g.v);
    kifu_free(css);
    cli_inputs_free(&in);
    return rc;
}
