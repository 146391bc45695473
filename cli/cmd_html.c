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
        "usage: kifu html FILE... [-o PAGE] [--css FILE] [--pieces koma|plain] [--intl]\n"
        "                 [--two-char] [--flip] [--piece-size N]\n"
        "                 [--catalogue | --no-catalogue] [--title T] [--tags] [--game "
        "N]\n"
        "                 [--input-encoding ENC]\n"
        "       kifu html --default-css\n"
        "\n"
        "Write one self-contained HTML page (no network, no external file) that replays\n"
        "the records: click the right half of the board to go forward, the left half to\n"
        "go back, the 先手/後手 label to flip; keys ← → Home End PageUp PageDown; "
        "moves,\n"
        "forks, comments, bookmarks, times, the header and the result; positions in the\n"
        "URL (#ply=42, #ply=12,1 for a fork, #sid=ID for a posjson document's IDs,\n"
        "#bookmark=NAME); trace, match, filter, mvlight and bwcolor aids. FILE is any\n"
        "format ('-' for stdin) or a directory; every game of every file gets a viewer.\n"
        "\n"
        "  -o, --output PAGE  write the page there (default: standard output)\n"
        "  --css FILE         use this stylesheet instead of the built-in one\n"
        "  --default-css      print the built-in stylesheet (a start for --css), exit\n"
        "  --pieces STYLE     koma (the default: wooden pentagons with their names,\n"
        "                     gote's turned, drawn by the page) or plain (the names\n"
        "                     alone on the squares)\n"
        "  --piece-size N     a square of the board N CSS pixels (default 48); the\n"
        "                     whole viewer is laid out from it (so is a --css file\n"
        "                     that uses var(--kifu-piece-size), as the built-in does)\n"
        "  --intl             boards in the international piece set (P L N S G B R K,\n"
        "                     +P), moves in western notation (P-7f)\n"
        "  --two-char         成香 成桂 成銀 in two characters instead of 杏 圭 全\n"
        "  --flip             boards drawn from gote's side\n"
        "  --catalogue        a grid of every game's first position, each opening the\n"
        "                     viewer (the default when every game is a single\n"
        "                     position, as in a posjson file of unrelated positions)\n"
        "  --no-catalogue     one viewer per game even then\n"
        "  --title T          the page title (default: the players of the first game)\n"
        "  --tags             name each game's openings and castles (kifu tags) in the\n"
        "                     header beside the players: 先手の戦法, 先手の囲い ...\n"
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

/* --tags: each game's tags in its header keys (先手の戦法 ...), which the page shows with
 * the rest of the header, beside the players. A key the record has is kept. */
static int add_tags(games *g)
{
    kifu_error e;
    kifu_error_clear(&e);
    kifu_tagger *t = kifu_tags_new(&e);
    if (!t) {
        cli_print_error(&e);
        return EXIT_INTERNAL;
    }
    int rc = EXIT_OK;
    for (size_t i = 0; i < g->n && rc == EXIT_OK; i++) {
        kifu_tag *tags;
        size_t n;
        /* A game with an illegal move (read leniently) is shown without tags. */
        if (kifu_tags_record(t, g->v[i], &tags, &n, NULL))
            continue;
        if (kifu_tags_to_header(g->v[i], tags, n, 0)) {
            cli_err("kifu: out of memory\n");
            rc = EXIT_INTERNAL;
        }
        kifu_free(tags);
    }
    kifu_tags_free(t);
    return rc;
}

/* The command line. */
typedef struct html_args {
    const char *out, *css_path;
    kifu_html_options o;
    int catalogue; /* -1: decided by the games */
    int enc, game; /* --input-encoding, --game (0: every game) */
    int default_css;
    int tags; /* --tags */
    cli_inputs in;
} html_args;

/* Option a with its value v (not NULL) into h: -1 when a is no valued option, else
 * EXIT_OK or EXIT_USAGE (said on stderr). */
static int parse_valued(html_args *h, const char *a, const char *v)
{
    if (strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0) {
        h->out = v;
    } else if (strcmp(a, "--css") == 0) {
        h->css_path = v;
    } else if (strcmp(a, "--title") == 0) {
        h->o.title = v;
    } else if (strcmp(a, "--input-encoding") == 0) {
        return cli_parse_encoding(v, &h->enc) ? EXIT_USAGE : EXIT_OK;
    } else if (strcmp(a, "--game") == 0) {
        if (cli_parse_int(v, &h->game) || h->game < 1) {
            cli_err("kifu: html: --game needs a number >= 1, not '%s'\n", v);
            return EXIT_USAGE;
        }
    } else if (strcmp(a, "--pieces") == 0) {
        if (strcmp(v, "koma") == 0) {
            h->o.flags &= ~(unsigned)KIFU_HTML_PLAIN;
        } else if (strcmp(v, "plain") == 0) {
            h->o.flags |= KIFU_HTML_PLAIN;
        } else {
            cli_err("kifu: html: --pieces: '%s' is no piece style (koma, plain)\n", v);
            return EXIT_USAGE;
        }
    } else if (strcmp(a, "--piece-size") == 0) {
        char *end;
        long n = strtol(v, &end, 10);
        if (*v < '0' || *v > '9' || *end || n < 8 || n > 400) {
            cli_err("kifu: html: --piece-size: '%s' is not a size from 8 to 400 "
                    "(CSS pixels)\n",
                    v);
            return EXIT_USAGE;
        }
        h->o.piece_size = (int)n;
    } else {
        return -1;
    }
    return EXIT_OK;
}

/* A known option without its value, or an unknown one: said on stderr. EXIT_USAGE. */
static int bad_option(const char *a)
{
    static const char *const valued[] = {"-o",       "--output",    "--css",
                                         "--title",  "--game",      "--input-encoding",
                                         "--pieces", "--piece-size"};
    for (size_t k = 0; k < sizeof valued / sizeof valued[0]; k++)
        if (strcmp(a, valued[k]) == 0) {
            cli_err("kifu: html: %s needs a value\n", a);
            return EXIT_USAGE;
        }
    return cli_unknown_option("html", a);
}

/* The command line into h (the inputs gathered); stops at --default-css. An exit code. */
static int parse_args(int argc, char **argv, html_args *h)
{
    int rc = EXIT_OK, only_files = 0;
    for (int i = 1; i < argc && rc == EXIT_OK; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        int vrc;
        if (only_files || strcmp(a, "-") == 0 || a[0] != '-') {
            rc = cli_inputs_add(&h->in, a);
        } else if (strcmp(a, "--") == 0) {
            only_files = 1;
        } else if (strcmp(a, "--default-css") == 0) {
            h->default_css = 1;
            return EXIT_OK;
        } else if (strcmp(a, "--intl") == 0) {
            h->o.flags |= KIFU_HTML_INTL;
        } else if (strcmp(a, "--two-char") == 0) {
            h->o.flags |= KIFU_HTML_TWO_CHAR;
        } else if (strcmp(a, "--flip") == 0) {
            h->o.flags |= KIFU_HTML_FLIP;
        } else if (strcmp(a, "--catalogue") == 0) {
            h->catalogue = 1;
        } else if (strcmp(a, "--no-catalogue") == 0) {
            h->catalogue = 0;
        } else if (strcmp(a, "--tags") == 0) {
            h->tags = 1;
        } else if (v && (vrc = parse_valued(h, a, v)) >= 0) {
            rc = vrc, i++;
        } else {
            return bad_option(a);
        }
    }
    if (rc == EXIT_OK && h->in.n == 0) {
        cli_err("kifu: html: no record file given\n");
        cmd_html_usage(stderr);
        rc = EXIT_USAGE;
    }
    return rc;
}

/* Every input's games onto g. A file that does not read is named (read_games) and left
 * out, counted in *bad, its exit code the worst in *read_rc; a file found that is no
 * record is skipped and named once. EXIT_OK, or EXIT_INTERNAL. */
static int read_inputs(const html_args *h, games *g, size_t *bad, int *read_rc)
{
    cli_skipped skipped = {0};
    *bad = 0;
    *read_rc = EXIT_OK;
    for (size_t i = 0; i < h->in.n && *read_rc != EXIT_INTERNAL; i++) {
        int r = read_games(&h->in.v[i], h->enc, h->game, g, &skipped);
        *bad += r != EXIT_OK;
        *read_rc = r > *read_rc ? r : *read_rc;
    }
    cli_skipped_report(&skipped, 0);
    return *read_rc == EXIT_INTERNAL ? EXIT_INTERNAL : EXIT_OK;
}

/* The page of the games written to h->out; says, once written, how many files were left
 * out (bad, their worst exit code read_rc). An exit code. */
static int write_page(html_args *h, const games *g, size_t bad, int read_rc)
{
    if (g->n == 0) {
        cli_err("kifu: html: %s: not written: the files hold no game\n",
                h->out ? h->out : "standard output");
        return read_rc > EXIT_INPUT ? read_rc : EXIT_INPUT;
    }
    if (h->catalogue == 1 || (h->catalogue < 0 && all_single_positions(g)))
        h->o.flags |= KIFU_HTML_CATALOGUE;
    kifu_error e;
    kifu_error_clear(&e);
    size_t len;
    int rc = EXIT_OK;
    char *page = kifu_html_write((const kifu_record *const *)g->v, g->n, &h->o, &len, &e);
    if (!page) {
        cli_print_error(&e);
        rc = cli_exit_code(e.code);
    } else if (cli_write_file(h->out, page, len)) {
        rc = EXIT_IO;
    } else if (bad) {
        cli_err("kifu: html: %s: written without the %zu file%s named above\n",
                h->out && strcmp(h->out, "-") ? h->out : "standard output", bad,
                bad == 1 ? "" : "s");
        rc = read_rc;
    }
    kifu_free(page);
    return rc;
}

int cmd_html(int argc, char **argv)
{
    html_args h = {.o = {.warn = cli_print_warning, .warn_ctx = "html"},
                   .catalogue = -1,
                   .enc = KIFU_ENC_AUTO};
    int rc = parse_args(argc, argv, &h);
    if (rc == EXIT_OK && h.default_css) {
        cli_inputs_free(&h.in);
        const char *css = kifu_html_asset("viewer.css");
        return cli_write_file(NULL, css, strlen(css)) ? EXIT_IO : EXIT_OK;
    }
    char *css = NULL;
    if (rc == EXIT_OK && h.css_path) {
        kifu_error e;
        kifu_error_clear(&e);
        size_t css_len;
        css = kifu_file_read(h.css_path, &css_len, &e);
        if (!css) {
            cli_print_error(&e);
            rc = cli_exit_code(e.code);
        }
        h.o.css = css;
    }
    cli_inputs_guard(&h.in);
    cli_input_guard(h.css_path);
    games g = {0};
    size_t bad = 0;
    int read_rc = EXIT_OK;
    if (rc == EXIT_OK)
        rc = read_inputs(&h, &g, &bad, &read_rc);
    if (rc == EXIT_OK && h.tags)
        rc = add_tags(&g);
    if (rc == EXIT_OK)
        rc = write_page(&h, &g, bad, read_rc);
    for (size_t i = 0; i < g.n; i++)
        kifu_record_free(g.v[i]);
    free(g.v);
    kifu_free(css);
    cli_inputs_free(&h.in);
    return rc;
}
