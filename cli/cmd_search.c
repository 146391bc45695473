/* cmd_search.c: `kifu search`: find a position, or positions matching a board pattern,
 * in records of every format kifu reads (files, directories, stdin), as grep finds
 * lines: a line per hit, or counts, or the files with hits, or JSON Lines. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "batch.h"
#include "cli.h"
#include "inputs.h"
#include "progress.h"
#include "record_cursor.h"
#include "search_files.h"
#include "search_index.h"

void cmd_search_usage(FILE *f)
{
    fprintf(
        f,
        "usage: kifu search WHAT [options] FILE|DIR|- ...\n"
        "Find a position, or the positions that match a board pattern, in records of\n"
        "any format kifu reads (directories are searched recursively).\n"
        "\n"
        "WHAT, one of:\n"
        "  --sfen SFEN        a position as SFEN (or 'startpos')\n"
        "  --usi LINE         a USI line: 'position startpos moves 7g7f 3c3d'\n"
        "  --bd LETTERS       81 position-list letters (posjson's bd); with --cb, --cw\n"
        "                     for the hands and --turn b|w for the side (else either)\n"
        "  --bod FILE         the board of a BOD diagram (KIF's board picture)\n"
        "  --regex RE         a PCRE2 expression over the 81 board letters\n"
        "  --pattern FILE     a grid pattern: nine rows like a BOD diagram, with * "
        "(any),\n"
        "                     ? (a piece), ^? (a sente piece), v? (a gote piece), ・\n"
        "                     (empty), optional hand lines (先手の持駒：金) and a side\n"
        "                     line (先手番); examples in docs/patterns/\n"
        "\n"
        "options:\n"
        "  --any-side         either side to move (exact positions)\n"
        "  --board-only       the board alone, hands ignored (exact positions)\n"
        "  --both-sides       patterns: also the colour-flipped position (finds gote's\n"
        "                     castle with a pattern of sente's)\n"
        "  --forks            search the forks too (default: the main line only)\n"
        "  --first            the first hit of each game only\n"
        "  -c, --count        the number of hits per file\n"
        "  -l, --files-with-matches  the names of the files with a hit\n"
        "  --json             JSON Lines: file, game, ply, path, sfen, bd, cb, cw, next\n"
        "                     move (text and USI) and the header of each hit\n"
        "  -q, --quiet        no output: the exit status says; stops at the first hit\n"
        "  -s, --no-messages  no message about a file that cannot be read\n"
        "  -j, --jobs N       files searched at once, on N threads (default 0: one per\n"
        "                     processor); the output is the same, in the same order\n"
        "  -f, --from FORMAT  the input format (default: extension, then content)\n"
        "  --input-encoding ENC  the files' encoding (default: detected)\n"
        "  --index FILE       search the main lines of an index (kifu index) instead of\n"
        "                     files: the same output as searching the indexed files\n"
        "  --tag NAME         with --index or --clickhouse: the games tagged NAME\n"
        "                     when indexed (sente:NAME, gote:NAME one side;\n"
        "                     repeated: all of them), as kifu explore --tag\n"
        "  --clickhouse URL   the same from the index on ClickHouse (kifu index build\n"
        "                     --clickhouse): the server, or a cluster's shards in\n"
        "                     remote_servers order (http:// or https://)\n" CLI_CH_HELP
        "\n"
        "A hit line is FILE[#GAME]:PLY[,PATH]: the move played next (GAME in files of\n"
        "several games, PATH for a fork, as --path of show takes it; show, replay,\n"
        "trace and html open FILE#GAME). Files that cannot be read are reported and\n"
        "skipped; a file found in a directory that is no record by its content (a\n"
        "package.json) is skipped, and named once at the end.\n"
        "Exit status, as grep's: 0 something was found (even if a file failed), 1\n"
        "nothing found, 2 nothing found and a file failed, or a usage error; and 3\n"
        "the index could not be read or is damaged, or the output not written, 4 out\n"
        "of memory.\n"
        "\n"
        "examples:\n"
        "  kifu search --usi 'position startpos moves 7g7f 3c3d 2g2f' games/\n"
        "  kifu search --pattern docs/patterns/mino.txt --both-sides --first -l "
        "games/\n");
}

/* What shapes the search of files (parse_option fills it), the search, and what it is
 * made from, to make one more for each thread (compile). */
typedef struct search_run {
    cli_search_files_opts o;
    kifu_search *s;
    const char *what, *value; /* --regex and its expression, --pattern, or a position */
    unsigned flags;
    char *pattern; /* --pattern's text (read once: it may be stdin) */
    size_t plen;
    kifu_board board; /* the position of --sfen, --usi, --bd, --bod */
} search_run;

/* The position of --sfen/--usi/--bd/--bod. 0, or an exit code. */
static int target(const char *kind, const char *value, const char *cb, const char *cw,
                  const char *turn, kifu_board *b)
{
    kifu_error e = {0};
    if (strcmp(kind, "--bd") == 0) {
        if (kifu_board_from_bd(value, cb, cw, b, &e))
            goto bad;
        b->color = turn && strcmp(turn, "w") == 0;
        return EXIT_OK;
    }
    if (strcmp(kind, "--bod") == 0) {
        kifu_read_options ro = {.format = KIFU_FMT_KIFU, .source = value};
        kifu_record *r = kifu_read_file(value, &ro, &e);
        if (!r)
            goto bad;
        kifu_record_initial(r, b);
        kifu_record_free(r);
        return EXIT_OK;
    }
    kifu_position *p = kifu_position_new();
    if (!p || kifu_position_set_sfen(p, value, &e)) {
        kifu_position_free(p);
        snprintf(e.source, sizeof e.source, "%s", kind);
        goto bad;
    }
    kifu_position_board(p, b);
    kifu_position_free(p);
    return EXIT_OK;
bad:
    cli_print_error(&e);
    return e.code == KIFU_ERR_IO ? EXIT_IO : EXIT_USAGE;
}

/* The pattern file's text (`-`: stdin), into new memory. */
static char *pattern_text(const char *path, size_t *len)
{
    kifu_error e = {0};
    char *t = kifu_file_read(path, len, &e);
    if (!t)
        cli_print_error(&e);
    return t;
}

/* What the command line asks. */
typedef struct search_args {
    const char *what, *value;   /* --sfen ... --pattern, and its value */
    const char *cb, *cw, *turn; /* --bd's hands and side */
    unsigned flags;             /* KIFU_SEARCH_* */
    char **files;               /* the operands (new array; the strings are argv's) */
    int nfiles;
    const char *index, *ch_url; /* search an index instead of files */
    kifu_clickhouse_options cho;
    const char *tags[16]; /* --tag, with --index or --clickhouse */
    size_t ntags;
} search_args;

/* The option of argv[*i] (a valued one takes argv[++*i]): into a, or into r for what
 * shapes the output. 0, or EXIT_USAGE (said on stderr). */
static int parse_option(int argc, char **argv, int *i, search_args *a, search_run *r)
{
    static const char *const whats[] = {"--sfen", "--usi",   "--bd",
                                        "--bod",  "--regex", "--pattern"};
    const char *o = argv[*i];
    int takes = 0;
    for (size_t k = 0; k < sizeof whats / sizeof whats[0]; k++)
        takes |= strcmp(o, whats[k]) == 0;
    int valued = takes || !strcmp(o, "--cb") || !strcmp(o, "--cw") ||
                 !strcmp(o, "--turn") || !strcmp(o, "-f") || !strcmp(o, "--from") ||
                 !strcmp(o, "--index") || !strcmp(o, "--input-encoding") ||
                 !strcmp(o, "--tag");
    int ch = cli_ch_option(argc, argv, i, &a->ch_url, &a->cho);
    if (!ch)
        ch = cli_jobs_option(argc, argv, i, &r->o.jobs);
    if (ch)
        return ch < 0 ? EXIT_USAGE : EXIT_OK;
    if (valued && *i + 1 >= argc) {
        cli_err("kifu: %s needs a value\n", o);
        return EXIT_USAGE;
    }
    const char *v = valued ? argv[++*i] : NULL;
    if (takes) {
        if (a->what) {
            cli_err("kifu: %s and %s: search for one thing at a time\n", a->what, o);
            return EXIT_USAGE;
        }
        a->what = o, a->value = v;
    } else if (!strcmp(o, "--index")) {
        a->index = v;
    } else if (!strcmp(o, "--tag")) {
        if (a->ntags == sizeof a->tags / sizeof *a->tags) {
            cli_err("kifu: at most 16 --tag\n");
            return EXIT_USAGE;
        }
        a->tags[a->ntags++] = v;
    } else if (!strcmp(o, "--cb")) {
        a->cb = v;
    } else if (!strcmp(o, "--cw")) {
        a->cw = v;
    } else if (!strcmp(o, "--turn")) {
        a->turn = v;
        if (strcmp(v, "b") && strcmp(v, "w")) {
            cli_err("kifu: --turn takes b or w\n");
            return EXIT_USAGE;
        }
    } else if (!strcmp(o, "--input-encoding")) {
        if (cli_parse_encoding(v, &r->o.enc))
            return EXIT_USAGE;
    } else if (!strcmp(o, "-f") || !strcmp(o, "--from")) {
        r->o.from = kifu_format_from_name(v);
        if (r->o.from == KIFU_FMT_AUTO) {
            cli_err("kifu: unknown format '%s'\n", v);
            return EXIT_USAGE;
        }
    } else if (!strcmp(o, "--any-side")) {
        a->flags |= KIFU_SEARCH_ANY_SIDE;
    } else if (!strcmp(o, "--board-only")) {
        a->flags |= KIFU_SEARCH_BOARD_ONLY;
    } else if (!strcmp(o, "--both-sides")) {
        a->flags |= KIFU_SEARCH_BOTH_SIDES;
    } else if (!strcmp(o, "--forks")) {
        a->flags |= KIFU_SEARCH_FORKS;
    } else if (!strcmp(o, "--first")) {
        a->flags |= KIFU_SEARCH_FIRST;
    } else if (!strcmp(o, "-c") || !strcmp(o, "--count")) {
        r->o.count = 1;
    } else if (!strcmp(o, "-l") || !strcmp(o, "--files-with-matches")) {
        r->o.list = 1;
    } else if (!strcmp(o, "--json")) {
        r->o.json = 1;
    } else if (!strcmp(o, "-q") || !strcmp(o, "--quiet")) {
        r->o.quiet = 1;
    } else if (!strcmp(o, "-s") || !strcmp(o, "--no-messages")) {
        r->o.silent = 1;
    } else {
        /* cmd_search adds the line pointing to --help */
        cli_err("kifu: search: unknown option '%s'\n", o);
        return EXIT_USAGE;
    }
    return EXIT_OK;
}

/* The command line into a and r, options and operands in any order ("--" ends the
 * options), then what goes together checked. 0, EXIT_USAGE (said on stderr) or
 * EXIT_INTERNAL. */
static int parse_args(int argc, char **argv, search_args *a, search_run *r)
{
    a->files = calloc((size_t)argc, sizeof *a->files);
    if (!a->files)
        return EXIT_INTERNAL;
    int only_files = 0, status = EXIT_OK;
    for (int i = 1; i < argc && status == EXIT_OK; i++) {
        const char *o = argv[i];
        if (only_files || o[0] != '-' || !o[1])
            a->files[a->nfiles++] = argv[i];
        else if (!strcmp(o, "--"))
            only_files = 1;
        else
            status = parse_option(argc, argv, &i, a, r);
    }
    if (status != EXIT_OK)
        return status;
    if (a->index && a->ch_url) {
        cli_err("kifu: --index or --clickhouse, not both\n");
        return EXIT_USAGE;
    }
    if ((a->index || a->ch_url) && a->nfiles) {
        cli_err("kifu: %s searches the index: no files with it\n",
                a->index ? "--index" : "--clickhouse");
        return EXIT_USAGE;
    }
    if (a->ntags && !a->index && !a->ch_url) {
        cli_err("kifu: --tag goes with --index or --clickhouse (the tags an index "
                "stored)\n");
        return EXIT_USAGE;
    }
    char unknown[800];
    if (cli_tag_unknown(a->tags, a->ntags, unknown, sizeof unknown)) {
        cli_err("kifu: %s\n", unknown);
        return EXIT_USAGE;
    }
    if (!a->ch_url &&
        (a->cho.database || a->cho.table || a->cho.cluster || a->cho.ca_file ||
         a->cho.user || a->cho.insecure_skip_tls_verify)) {
        cli_err("kifu: --database, --table, --cluster, --ca-file, "
                "--insecure-skip-tls-verify and --clickhouse-credentials go with "
                "--clickhouse\n");
        return EXIT_USAGE;
    }
    if (!a->what || (!a->nfiles && !a->index && !a->ch_url)) {
        cli_err("kifu: %s\n", !a->what ? "say what to search for (--sfen, --usi, --bd, "
                                         "--bod, --regex or --pattern)"
                                       : "no file to search");
        return EXIT_USAGE;
    }
    return EXIT_OK;
}

/* One more search as r->s was made (the command line was checked then). */
static kifu_search *compile(void *ctx)
{
    const search_run *r = ctx;
    if (!strcmp(r->what, "--regex"))
        return kifu_search_regex(r->value, r->flags, NULL);
    if (!strcmp(r->what, "--pattern"))
        return kifu_search_grid(r->pattern, r->plen, r->flags, NULL);
    return kifu_search_position(&r->board, r->flags, NULL);
}

/* The search the arguments ask for, into r->s, and what compile needs. 0, or an exit
 * code (said on stderr). */
static int make_search(search_args *a, search_run *r)
{
    kifu_error e = {0};
    int status = EXIT_OK;
    r->what = a->what, r->value = a->value;
    if (!strcmp(a->what, "--regex")) {
        r->s = kifu_search_regex(a->value, a->flags, &e);
        snprintf(e.source, sizeof e.source, "--regex");
    } else if (!strcmp(a->what, "--pattern")) {
        r->pattern = pattern_text(a->value, &r->plen);
        if (!r->pattern)
            return EXIT_IO;
        r->s = kifu_search_grid(r->pattern, r->plen, a->flags, &e);
        snprintf(e.source, sizeof e.source, "%s", a->value);
    } else {
        /* A bd names no side to move: either, unless --turn says. */
        if (!strcmp(a->what, "--bd") && !a->turn)
            a->flags |= KIFU_SEARCH_ANY_SIDE;
        status = target(a->what, a->value, a->cb, a->cw, a->turn, &r->board);
        if (status == EXIT_OK)
            r->s = kifu_search_position(&r->board, a->flags, &e);
    }
    r->flags = a->flags;
    if (status == EXIT_OK && !r->s) {
        cli_print_error(&e);
        status = EXIT_USAGE;
    }
    return status;
}

int cmd_search(int argc, char **argv)
{
    search_run r = {0};
    search_args a = {.cho = {.timeout_ms = CLI_CH_TIMEOUT_MS}};
    int status = parse_args(argc, argv, &a, &r);
    if (status == EXIT_OK)
        status = make_search(&a, &r);
    if (status != EXIT_OK) {
        if (status == EXIT_USAGE)
            cli_err("kifu: see 'kifu search --help'\n");
        free(a.files);
        kifu_search_free(r.s);
        kifu_free(r.pattern);
        return EXIT_USAGE; /* grep's 2, whatever the error */
    }
    if (a.index || a.ch_url) {
        cli_search_index_opts io = {
            r.o.count, r.o.list, r.o.json, r.o.quiet, (a.flags & KIFU_SEARCH_FORKS) != 0,
            a.ch_url,  &a.cho,   a.tags,   a.ntags};
        status = cli_search_index(a.index, r.s, &io);
        free(a.files);
        kifu_search_free(r.s);
        kifu_free(r.pattern);
        return status;
    }
    long total;
    r.o.compile = compile, r.o.compile_ctx = &r;
    status = cli_search_files(&r.o, a.files, a.nfiles, &total);
    free(a.files);
    kifu_search_free(r.s);
    kifu_free(r.pattern);
    if (fflush(stdout) != 0)
        return EXIT_USAGE;
    /* As grep: 0 when anything was found, even if a file failed; else 1, or 2 when a file
     * failed (EXIT_USAGE is grep's 2). */
    if (total)
        return EXIT_OK;
    return status != EXIT_OK ? EXIT_USAGE : 1;
}
