/* cmd_html.c: `kifu html`: one self-contained replay page for records (kifu_html_write). */
#include <errno.h>
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

/* The page is written game by game, not held whole: a first pass over the inputs finds
 * the files that read (and so whether there is a page at all, its title, its game count
 * and whether it is a catalogue) before anything is written; the second reads them again
 * and writes each game as it comes. A file of many games costs one game's memory. */
typedef struct pass {
    const html_args *h;
    const char *src;
    int game;     /* the game wanted (from 1), or 0: every one */
    size_t seen;  /* games of this input so far */
    size_t taken; /* of them, on the page */
    int bad;      /* a game did not normalize (e says why) */
    kifu_error e;
    /* first pass */
    size_t total;       /* games of the page so far */
    int moves;          /* a game of the page has a move */
    int moves_here;     /* ... of this input */
    kifu_record *first; /* the page's first game (its title) */
    int first_here;     /* ... came from this input */
    /* second pass */
    kifu_tagger *tagger; /* --tags */
    kifu_html_page *page;
    cli_stream *out; /* NULL: standard output */
    int failed;      /* writing failed (said) */
    int rc;
} pass;

/* Normalizes game r of the input: 1 when it is on the page, 0 when not (freed), -1 when
 * it does not normalize (freed, p->e says why). */
static int pick(pass *p, kifu_record *r, void (*warn)(void *, const char *))
{
    p->seen++;
    if (p->game > 0 && p->seen != (size_t)p->game) {
        kifu_record_free(r);
        return 0;
    }
    if (kifu_normalize_warn(r, 0, warn, (void *)p->src, &p->e)) {
        kifu_record_free(r);
        p->bad = 1;
        return -1;
    }
    p->taken++;
    return 1;
}

/* First pass: counts the page's games, keeps the first. */
static int scan_game(void *ctx, kifu_record *r, size_t index)
{
    pass *p = ctx;
    (void)index;
    int on = pick(p, r, cli_print_warning);
    if (on <= 0)
        return on < 0;
    p->moves_here |= kifu_node_child_count(kifu_record_root(r)) > 0;
    if (!p->first) {
        p->first = r, p->first_here = 1;
        return 0;
    }
    kifu_record_free(r);
    return 0;
}

/* Writes bytes (kifu_free'd here) of the page. */
static void put_page(pass *p, char *bytes, size_t len)
{
    if (!bytes) {
        cli_print_error(&p->e);
        p->failed = 1, p->rc = cli_exit_code(p->e.code);
    } else if (!p->failed && (p->out ? cli_stream_write(p->out, bytes, len)
                                     : fwrite(bytes, 1, len, stdout) != len)) {
        p->failed = 1, p->rc = EXIT_IO; /* told at the close */
    }
    kifu_free(bytes);
}

/* Second pass: each game of the page, tagged with --tags, written. */
static int write_game(void *ctx, kifu_record *r, size_t index)
{
    pass *p = ctx;
    (void)index;
    int on = pick(p, r, NULL);
    if (on <= 0)
        return on < 0;
    kifu_tag *tags;
    size_t n;
    /* A game with an illegal move (read leniently) is shown without tags. */
    if (p->tagger && kifu_tags_record(p->tagger, r, &tags, &n, NULL) == 0) {
        if (kifu_tags_to_header(r, tags, n, 0))
            cli_err("kifu: %s: out of memory tagging a game\n", p->src);
        kifu_free(tags);
    }
    size_t len;
    kifu_error_clear(&p->e);
    char *bytes = p->failed ? NULL : kifu_html_page_game(p->page, r, &len, &p->e);
    if (!p->failed)
        put_page(p, bytes, len);
    kifu_record_free(r);
    return p->failed;
}

/* One input's bytes (FILE#N: its file, *game set to N) in *data, unless *data already
 * holds them (standard input, read once). EXIT_OK, or an exit code (said). */
static int input_bytes(const cli_input *in, pass *p, char **path, char **data,
                       size_t *len)
{
    int ref;
    if (cli_game_ref(in->path, path, &ref)) {
        cli_err("kifu: out of memory\n");
        return EXIT_INTERNAL;
    }
    if (ref)
        p->game = ref;
    p->src = strcmp(*path, "-") == 0 ? "standard input" : *path;
    if (*data)
        return EXIT_OK;
    kifu_error e;
    kifu_error_clear(&e);
    if (!(*data = kifu_file_read(*path, len, &e))) {
        cli_print_error(&e);
        return cli_exit_code(e.code);
    }
    return EXIT_OK;
}

/* Reads input i's games through fn (scan_game or write_game). EXIT_OK, or the exit code
 * of a file that does not read (said; *skipped when it is no record). */
static int read_input(const html_args *h, size_t i, pass *p,
                      int (*fn)(void *, kifu_record *, size_t), char **keep, size_t *klen,
                      int *skipped)
{
    const cli_input *in = &h->in.v[i];
    char *path = NULL, *data = *keep;
    size_t len = *klen;
    p->game = h->game, p->seen = p->taken = 0, p->bad = 0;
    kifu_error_clear(&p->e);
    int rc = input_bytes(in, p, &path, &data, &len);
    kifu_read_options ro = {.encoding = h->enc,
                            .source = p->src,
                            .warn = fn == scan_game ? cli_print_warning : NULL,
                            .warn_ctx = (void *)p->src};
    if (rc == EXIT_OK && kifu_read_each(data, len, &ro, fn, p, NULL, &p->e) &&
        fn == scan_game && cli_not_record(in, KIFU_FMT_AUTO, &p->e, data, len)) {
        *skipped = 1;
    } else if (rc == EXIT_OK && (p->e.code || p->bad) && !p->failed) {
        if (!p->e.source[0])
            snprintf(p->e.source, sizeof p->e.source, "%s", p->src);
        cli_print_error(&p->e);
        rc = cli_exit_code(p->e.code);
    } else if (rc == EXIT_OK && p->game > 0 && p->seen < (size_t)p->game) {
        cli_err("kifu: %s: no game %d: the file holds %zu game%s\n", p->src, p->game,
                p->seen, p->seen == 1 ? "" : "s");
        rc = EXIT_USAGE;
    }
    /* Standard input cannot be read twice: its bytes wait for the second pass. */
    if (strcmp(in->path, "-") == 0 && fn == scan_game && rc == EXIT_OK && !*skipped)
        *keep = data, *klen = len;
    else if (data == *keep)
        kifu_free(data), *keep = NULL, *klen = 0;
    else
        kifu_free(data);
    free(path);
    return rc;
}

/* First pass over every input: ok[i] set for those on the page. A file that does not
 * read is named and left out, counted in *bad, its exit code the worst in *read_rc; a
 * file that is no record is skipped and named once. */
static void scan_inputs(const html_args *h, pass *p, unsigned char *ok, char **keep,
                        size_t *klen, size_t *bad, int *read_rc)
{
    cli_skipped skipped = {0};
    for (size_t i = 0; i < h->in.n && *read_rc != EXIT_INTERNAL; i++) {
        int skip = 0;
        p->first_here = p->moves_here = 0;
        size_t before = p->total;
        int r = read_input(h, i, p, scan_game, keep, klen, &skip);
        if (skip) /* (p->src named read_input's copy of the path, freed by now) */
            cli_skipped_add(&skipped, h->in.v[i].path);
        ok[i] = r == EXIT_OK && !skip && p->taken;
        if (ok[i]) {
            p->total = before + p->taken;
            p->moves |= p->moves_here;
        } else if (p->first_here) {
            kifu_record_free(p->first); /* a game of a file left out */
            p->first = NULL;
        }
        *bad += r != EXIT_OK;
        *read_rc = r > *read_rc ? r : *read_rc;
    }
    cli_skipped_report(&skipped, 0);
}

/* Second pass: the page of the inputs the first found good, written game by game to
 * h->out; says, once written, how many files were left out (bad, their worst exit code
 * read_rc). An exit code. */
static int write_page(html_args *h, pass *p, const unsigned char *ok, char **keep,
                      size_t klen, size_t bad, int read_rc)
{
    const char *name = h->out && strcmp(h->out, "-") ? h->out : "standard output";
    if (p->total == 0) {
        cli_err("kifu: html: %s: not written: the files hold no game\n", name);
        return read_rc > EXIT_INPUT ? read_rc : EXIT_INPUT;
    }
    if (h->catalogue == 1 || (h->catalogue < 0 && p->total >= 2 && !p->moves))
        h->o.flags |= KIFU_HTML_CATALOGUE;
    kifu_error_clear(&p->e);
    if (h->tags && !(p->tagger = kifu_tags_new(&p->e))) {
        cli_print_error(&p->e);
        return EXIT_INTERNAL;
    }
    if (h->out && strcmp(h->out, "-") != 0 && !(p->out = cli_stream_open(h->out)))
        return EXIT_IO;
    char *head = NULL;
    size_t len = 0;
    p->page = kifu_html_page_new(p->first, p->total, &h->o, &head, &len, &p->e);
    put_page(p, p->page ? head : NULL, len);
    for (size_t i = 0; i < h->in.n && !p->failed; i++) {
        int skip = 0, std = strcmp(h->in.v[i].path, "-") == 0;
        char *none = NULL;
        size_t nlen = 0;
        int r = ok[i] ? read_input(h, i, p, write_game, std ? keep : &none,
                                   std ? &klen : &nlen, &skip)
                      : EXIT_OK;
        if (r != EXIT_OK) /* changed since the first pass: the page would be wrong */
            p->failed = 1, p->rc = r;
    }
    if (!p->failed) {
        char *end = kifu_html_page_end(p->page, &len, &p->e);
        put_page(p, end, len);
    }
    int rc = p->failed ? p->rc : EXIT_OK;
    if (p->out) {
        if (cli_stream_close(p->out, !p->failed) && !p->failed)
            rc = EXIT_IO;
    } else if (fflush(stdout) != 0 || ferror(stdout)) {
        cli_err("kifu: cannot write to standard output: %s\n", strerror(errno));
        rc = EXIT_IO;
    }
    if (rc == EXIT_OK && bad) {
        cli_err("kifu: html: %s: written without the %zu file%s named above\n", name, bad,
                bad == 1 ? "" : "s");
        rc = read_rc;
    }
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
    pass p = {.h = &h};
    size_t bad = 0, klen = 0;
    int read_rc = EXIT_OK;
    char *keep = NULL; /* standard input's bytes, between the passes */
    unsigned char *ok = calloc(h.in.n + 1, 1);
    if (rc == EXIT_OK && !ok) {
        cli_err("kifu: out of memory\n");
        rc = EXIT_INTERNAL;
    }
    if (rc == EXIT_OK)
        scan_inputs(&h, &p, ok, &keep, &klen, &bad, &read_rc);
    if (rc == EXIT_OK)
        rc = read_rc == EXIT_INTERNAL ? read_rc
                                      : write_page(&h, &p, ok, &keep, klen, bad, read_rc);
    kifu_html_page_free(p.page);
    kifu_tags_free(p.tagger);
    kifu_record_free(p.first);
    kifu_free(keep);
    free(ok);
    kifu_free(css);
    cli_inputs_free(&h.in);
    return rc;
}
