/* cmd_convert.c: `kifu convert` (read, normalize, write another format) and
 * `kifu validate` (read and normalize only), over files, directories and stdin. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "inputs.h"
#include "msf_file.h"
#include "progress.h"

/* A progress bar appears from this many inputs on (and only on a terminal). */
#define PROGRESS_MIN 8

static const char convert_usage[] =
    "usage: kifu convert [options] FILE|DIR|- ...\n"
    "\n"
    "Read shogi records, check every move, and write them in another format.\n"
    "The input format comes from the file extension, else from the content.\n"
    "Directories are searched recursively for files with known extensions\n"
    "(%s).\n"
    "\n"
    "options:\n"
    "  -f, --from FMT        input format (default: by extension, then content)\n"
    "  -t, --to FMT          output format (default: from -o's extension, else jkf)\n"
    "                        FMT: %s\n"
    "  -o, --output OUT      write to OUT ('-': standard output); one input only,\n"
    "                        except '-o -', which concatenates every output\n"
    "      --out-dir DIR     write DIR/NAME.<ext of FMT>, keeping the relative path of\n"
    "                        files found in a directory argument\n"
    "      --pretty          indent JKF output\n"
    "      --csa-v3          write CSA V3.0 (default V2.2)\n"
    "      --encoding ENC    output encoding: utf-8, cp932, euc-jp\n"
    "                        (default: cp932 for kif/ki2, utf-8 for the others)\n"
    "      --input-encoding ENC  input encoding (default: detected)\n"
    "      --states          an MSF (Xelto) input: write JSON Lines of its states, one\n"
    "                        line per node, instead of canonical MSF\n"
    "      --lenient         write the output even when a move is illegal (the moves\n"
    "                        after it stay as the file gave them); the error is\n"
    "                        still printed and the exit code still says it\n"
    "  -q, --quiet           print errors only\n"
    "  -v, --verbose         print a line per output and the summary\n"
    "  -h, --help            this text\n"
    "\n"
    "With one input and no -o/--out-dir the output goes to standard output. Several\n"
    "inputs or a directory need --out-dir (or -o -). A CSA file holding several games\n"
    "('/' lines) gives NAME-1.EXT, NAME-2.EXT ... (with -o OUT: OUT's name plus -1, -2\n"
    "...); on standard output the games follow one another, each ending in a newline.\n"
    "Files are written atomically (a temporary file renamed over the target).\n"
    "A summary line 'converted N, failed N' goes to stderr with -v or several inputs.\n"
    "An MSF file records Xelto, not shogi: it converts only to canonical MSF (the\n"
    "default for it, or -t msf) or, with --states, to JSON Lines (.jsonl).\n"
    "Exit status: 0 all converted, 1 a bad input, 2 usage, 3 a read/write failure.\n"
    "\n"
    "examples:\n"
    "  kifu convert game.kif > game.jkf\n"
    "  kifu convert -t csa -o game.csa game.kif\n"
    "  kifu convert -t kifu --out-dir out/ records/\n"
    "  kifu convert -t msf game.msf > canonical.msf\n"
    "  cat game.csa | kifu convert -f csa -t kif - > game.kif\n";

static const char validate_usage[] =
    "usage: kifu validate [options] FILE|DIR|- ...\n"
    "\n"
    "Read each record and check every move with the rules; print what is wrong.\n"
    "Directories are searched recursively for files with known extensions.\n"
    "\n"
    "options:\n"
    "  -f, --from FMT        input format (default: by extension, then content)\n"
    "                        FMT: %s\n"
    "      --input-encoding ENC  input encoding (default: detected)\n"
    "      --no-transitions  MSF (Xelto) files: check the document's types and states\n"
    "                        only, not that each state follows from the one before\n"
    "  -q, --quiet           no summary line\n"
    "  -v, --verbose         an OK line for every valid file, and the summary\n"
    "  -h, --help            this text\n"
    "\n"
    "An MSF file (a Xelto record, README \"Xelto records\") is checked against the\n"
    "Mino Seslax Format: every problem is printed with its JSON path.\n"
    "Exit status: 0 all valid, 1 a record is invalid, 2 usage, 3 a file could not\n"
    "be read.\n"
    "\n"
    "example:\n"
    "  kifu validate -v records/\n"
    "  kifu validate --no-transitions game.msf\n";

typedef struct opts {
    int validate;
    int from, to, in_enc, out_enc;
    unsigned wflags;
    int lenient, quiet, verbose;
    int to_given, states; /* -t was given; --states */
    unsigned msf_flags;   /* KIFU_MSF_* for MSF inputs */
    const char *out, *out_dir;
} opts;

/* The output paths written so far (open addressing), so that two inputs with the same
 * name (a/x.kif and b/x.kif into one --out-dir) cannot silently overwrite each other. */
typedef struct written {
    char **slot;
    size_t cap, n;
} written;

typedef struct run {
    const opts *o;
    cli_progress bar;
    size_t done, failed, games;
    int status;              /* the worst exit code so far */
    const char *warn_source; /* file the writer warnings are about */
    written out;
} run;

static size_t hash(const char *s)
{
    size_t h = 1469598103934665603u;
    while (*s)
        h = (h ^ (unsigned char)*s++) * 1099511628211u;
    return h;
}

/* Records path as written. 1 if it was already, 0 if new, -1 when out of memory. */
static int claim(written *w, const char *path)
{
    if (2 * (w->n + 1) > w->cap) {
        size_t cap = w->cap ? w->cap * 2 : 64;
        char **slot = calloc(cap, sizeof *slot);
        if (!slot)
            return -1;
        for (size_t i = 0; i < w->cap; i++)
            if (w->slot[i]) {
                size_t j = hash(w->slot[i]) & (cap - 1);
                while (slot[j])
                    j = (j + 1) & (cap - 1);
                slot[j] = w->slot[i];
            }
        free(w->slot);
        w->slot = slot;
        w->cap = cap;
    }
    size_t j = hash(path) & (w->cap - 1);
    for (; w->slot[j]; j = (j + 1) & (w->cap - 1))
        if (strcmp(w->slot[j], path) == 0)
            return 1;
    if (!(w->slot[j] = strdup(path)))
        return -1;
    w->n++;
    return 0;
}

static void written_free(written *w)
{
    for (size_t i = 0; i < w->cap; i++)
        free(w->slot[i]);
    free(w->slot);
}

static void worse(run *r, int code)
{
    if (code > r->status)
        r->status = code;
}

static void report(run *r, const kifu_error *e)
{
    cli_progress_clear(&r->bar);
    cli_print_error(e);
}

static void on_warn(void *ctx, const char *message)
{
    run *r = ctx;
    if (r->o->quiet)
        return;
    cli_progress_clear(&r->bar);
    cli_err("kifu: %s: warning: %s\n", r->warn_source, message);
}

static const char *display(const cli_input *in)
{
    return strcmp(in->path, "-") == 0 ? "<stdin>" : in->path;
}

/* Moves on the main line (what a reader of the summary expects "moves" to mean). */
static size_t main_line_moves(const kifu_record *rec)
{
    size_t n = 0;
    for (const kifu_node *nd = kifu_node_next(kifu_record_root(rec)); nd;
         nd = kifu_node_next(nd))
        n += kifu_node_kind_of(nd) == KIFU_NODE_MOVE;
    return n;
}

/* mkdir -p of the directory part of path. */
static int make_parents(const char *path)
{
    char *p = strdup(path);
    if (!p)
        return -1;
    for (char *s = strchr(p + 1, '/'); s; s = strchr(s + 1, '/')) {
        *s = 0;
        if (mkdir(p, 0777) != 0 && errno != EEXIST) {
            cli_err("kifu: %s: cannot create directory: %s\n", p, strerror(errno));
            free(p);
            return -1;
        }
        *s = '/';
    }
    free(p);
    return 0;
}

/* Where game k (1-based) of `count` from input `in` goes; NULL means standard output.
 * New string. *oom is set when memory ran out. */
static char *destination(const opts *o, const cli_input *in, size_t k, size_t count,
                         const char *out_ext, int *oom)
{
    *oom = 0;
    const char *base = NULL, *ext = NULL;
    char *stem = NULL;
    if (o->out_dir) {
        stem = strdup(in->rel);
        ext = out_ext ? out_ext : kifu_format_name(o->to);
    } else if (o->out && strcmp(o->out, "-") != 0) {
        if (count == 1) {
            char *p = strdup(o->out);
            *oom = !p;
            return p;
        }
        stem = strdup(o->out);
        const char *slash = strrchr(o->out, '/');
        const char *dot = strrchr(slash ? slash : o->out, '.');
        ext = dot && dot[1] ? dot + 1 : NULL;
    } else {
        return NULL;
    }
    if (!stem) {
        *oom = 1;
        return NULL;
    }
    /* Drop the old extension (not a leading dot of a hidden name). */
    char *slash = strrchr(stem, '/');
    char *dot = strrchr(slash ? slash + 1 : stem, '.');
    if (dot && dot != (slash ? slash + 1 : stem))
        *dot = 0;
    base = o->out_dir ? o->out_dir : "";
    size_t need = strlen(base) + strlen(stem) + (ext ? strlen(ext) : 0) + 32;
    char *path = malloc(need);
    if (!path) {
        free(stem);
        *oom = 1;
        return NULL;
    }
    const char *sep = *base && base[strlen(base) - 1] != '/' ? "/" : "";
    char num[24] = "";
    if (count > 1)
        snprintf(num, sizeof num, "-%zu", k);
    snprintf(path, need, "%s%s%s%s%s%s", base, sep, stem, num, ext ? "." : "",
             ext ? ext : "");
    free(stem);
    return path;
}

static int put_output(run *r, const cli_input *in, const char *bytes, size_t len,
                      size_t k, size_t count, const char *ext, const char *what);

/* Writes normalized records: game k of count, or (n > 1) the n games of a format that
 * holds several in one output. 0, or an exit code. */
static int emit(run *r, const cli_input *in, kifu_record *const *recs, size_t n, size_t k,
                size_t count)
{
    const opts *o = r->o;
    kifu_write_options wo = {o->to, o->out_enc, o->wflags, on_warn, r};
    kifu_error e;
    kifu_error_clear(&e);
    size_t len;
    r->warn_source = display(in);
    char *bytes = kifu_write_all((const kifu_record *const *)recs, n, &wo, &len, &e);
    if (!bytes) {
        snprintf(e.source, sizeof e.source, "%s", display(in));
        report(r, &e);
        return cli_exit_code(e.code);
    }
    char what[64];
    if (n > 1)
        snprintf(what, sizeof what, "%zu games", n);
    else
        snprintf(what, sizeof what, "%zu moves", main_line_moves(recs[0]));
    int rc = put_output(r, in, bytes, len, k, count, NULL, what);
    kifu_free(bytes);
    return rc;
}

/* Writes one output of input `in` (game k of count) where the options say, the file's
 * extension `ext` for --out-dir (NULL: the -t format's); `what` is the -v line's
 * summary ("12 moves"). 0, or an exit code. */
static int put_output(run *r, const cli_input *in, const char *bytes, size_t len,
                      size_t k, size_t count, const char *ext, const char *what)
{
    const opts *o = r->o;
    int oom;
    char *dest = destination(o, in, k, count, ext, &oom);
    int rc = EXIT_OK;
    /* The bar stays up while files are written; output to the terminal clears it. */
    if (!dest)
        cli_progress_clear(&r->bar);
    int seen = dest && !oom ? claim(&r->out, dest) : 0;
    if (oom || seen < 0) {
        cli_err("kifu: out of memory\n");
        rc = EXIT_INTERNAL;
    } else if (seen) {
        cli_progress_clear(&r->bar);
        cli_err("kifu: %s: not written: %s was written from another input\n", display(in),
                dest);
        rc = EXIT_USAGE;
    } else if (dest && o->out_dir && make_parents(dest)) {
        rc = EXIT_IO;
    } else if (cli_write_file(dest, bytes, len)) {
        rc = EXIT_IO;
    } else if (!dest && len && bytes[len - 1] != '\n' && cli_write_file(NULL, "\n", 1)) {
        /* On stdout every output ends a line, so concatenated outputs stay apart. */
        rc = EXIT_IO;
    }
    if (rc == EXIT_OK && o->verbose) {
        cli_progress_clear(&r->bar);
        cli_err("kifu: %s", display(in));
        if (count > 1)
            cli_err(" (game %zu)", k);
        cli_err(" -> %s (%s)\n", dest ? dest : "<stdout>", what);
    }
    free(dest);
    return rc;
}

/* A game that failed is not written: an output of it from an earlier run is left as it
 * was, and the user is told, so that a stale file is not taken for this run's. */
static void keep_note(run *r, const cli_input *in, size_t k, size_t count)
{
    int oom;
    char *dest = destination(r->o, in, k, count, NULL, &oom);
    struct stat st;
    if (dest && stat(dest, &st) == 0)
        cli_err("kifu: %s: not written; the file from an earlier run is left as it was\n",
                dest);
    free(dest);
}

/* An MSF input (a Xelto record): read and check it with every problem printed, and
 * when converting write canonical MSF or the JSON Lines of its states. 0, or an exit
 * code. */
static int process_msf(run *r, const cli_input *in, const char *data, size_t len)
{
    const opts *o = r->o;
    const char *src = display(in);
    if (!o->validate && !o->states && o->to_given && o->to != KIFU_FMT_MSF) {
        cli_progress_clear(&r->bar);
        cli_err("kifu: %s: an MSF file records Xelto, not shogi: it converts to msf "
                "(-t msf) or, with --states, to JSON Lines\n",
                src);
        return EXIT_USAGE;
    }
    cli_progress_clear(&r->bar);
    int code = EXIT_OK;
    kifu_msf *m = cli_msf_open(src, data, len, o->msf_flags, &code);
    if (!m) {
        if (!o->validate)
            keep_note(r, in, 1, 1);
        return code;
    }
    r->games++;
    size_t moves, variations;
    cli_msf_counts(m, &moves, &variations);
    char what[64];
    snprintf(what, sizeof what, "%zu moves, %zu variations", moves, variations);
    int rc = EXIT_OK;
    if (o->validate) {
        if (o->verbose)
            printf("%s: OK (%s)\n", src, what);
    } else {
        kifu_error e = {0};
        size_t blen = 0;
        char *bytes = o->states ? kifu_msf_write_states(m, &blen, &e)
                                : kifu_msf_write(m, &blen, &e);
        if (!bytes) {
            snprintf(e.source, sizeof e.source, "%s", src);
            report(r, &e);
            rc = cli_exit_code(e.code);
        } else {
            rc = put_output(r, in, bytes, blen, 1, 1, o->states ? "jsonl" : "msf", what);
        }
        kifu_free(bytes);
    }
    kifu_msf_free(m);
    return rc;
}

/* Reads, normalizes and (when converting) writes every game of one input. Returns 0, or
 * the exit code of what went wrong. */
static int process(run *r, const cli_input *in)
{
    const opts *o = r->o;
    size_t len;
    kifu_error fe;
    kifu_error_clear(&fe);
    char *data = kifu_file_read(in->path, &len, &fe);
    if (!data) {
        if (strcmp(in->path, "-") == 0)
            snprintf(fe.source, sizeof fe.source, "standard input");
        report(r, &fe);
        return cli_exit_code(fe.code);
    }
    if (cli_other_game(o->from, in->path, data, len)) {
        int rc = process_msf(r, in, data, len);
        kifu_free(data);
        return rc;
    }
    if (o->states) {
        cli_progress_clear(&r->bar);
        cli_err("kifu: %s: --states is for MSF (Xelto) records; this is a shogi record\n",
                display(in));
        kifu_free(data);
        return EXIT_USAGE;
    }
    const char *src = display(in);
    /* Lenient reading (a NUL byte replaced) from the first read on; the moves are
     * normalized below, strictly first. */
    unsigned lenient = o->lenient ? KIFU_READ_LENIENT : 0;
    kifu_read_options ro = {o->from, o->in_enc, KIFU_READ_NO_NORMALIZE | lenient,
                            src,     on_warn,   r};
    r->warn_source = src;
    kifu_error e;
    kifu_error_clear(&e);
    kifu_record **recs = NULL;
    size_t count = 0;
    if (kifu_read_all(data, len, &ro, &recs, &count, &e)) {
        report(r, &e);
        kifu_free(data);
        return cli_exit_code(e.code);
    }
    int rc = EXIT_OK;
    /* A format that holds several games gets all of an input's games in one output. */
    const kifu_format_info *to = kifu_format_info_of(o->to);
    int together = !o->validate && count > 1 && to && (to->holds & KIFU_HOLDS_GAMES);
    size_t ngood = 0;
    for (size_t k = 0; k < count; k++) {
        kifu_error_clear(&e);
        int bad = kifu_normalize_warn(recs[k], 0, on_warn, r, &e) != 0;
        if (bad) {
            if (count > 1)
                snprintf(e.source, sizeof e.source, "%s (game %zu)", src, k + 1);
            else if (!e.source[0])
                snprintf(e.source, sizeof e.source, "%s", src);
            report(r, &e);
            int code = cli_exit_code(e.code);
            rc = code > rc ? code : rc;
            if (o->validate)
                continue;
            if (!o->lenient) {
                keep_note(r, in, k + 1, count);
                continue;
            }
            /* Lenient: read again and let the normalizer go on past the bad move, so the
             * other branches are normalized too. If that fails, write what we have. */
            ro.flags = KIFU_READ_LENIENT;
            kifu_record **again = NULL;
            size_t n2 = 0;
            if (kifu_read_all(data, len, &ro, &again, &n2, NULL) == 0) {
                if (n2 == count) {
                    kifu_record *t = recs[k];
                    recs[k] = again[k];
                    again[k] = t;
                }
                for (size_t i = 0; i < n2; i++)
                    kifu_record_free(again[i]);
                kifu_free(again);
            }
            ro.flags = KIFU_READ_NO_NORMALIZE | lenient;
        }
        r->games++;
        if (o->validate) {
            if (o->verbose && !bad) {
                cli_progress_clear(&r->bar);
                printf("%s", src);
                if (count > 1)
                    printf(" (game %zu)", k + 1);
                printf(": OK (%zu moves)\n", main_line_moves(recs[k]));
            }
            continue;
        }
        if (together) {
            /* Kept in input order; the games left out were reported above. */
            kifu_record *t = recs[ngood];
            recs[ngood++] = recs[k];
            recs[k] = t;
            continue;
        }
        int w = emit(r, in, &recs[k], 1, k + 1, count);
        rc = w > rc ? w : rc;
    }
    if (together && ngood) {
        int w = emit(r, in, recs, ngood, 1, 1);
        rc = w > rc ? w : rc;
    }
    for (size_t k = 0; k < count; k++)
        kifu_record_free(recs[k]);
    kifu_free(recs);
    kifu_free(data);
    return rc;
}

static int parse_format(const char *s, int *out)
{
    int f = kifu_format_from_name(s);
    if (f == KIFU_FMT_AUTO && strcmp(s, "auto") != 0) {
        char names[256];
        cli_format_list(names, sizeof names, 0);
        cli_err("kifu: unknown format '%s' (%s)\n", s, names);
        return -1;
    }
    *out = f;
    return 0;
}

static int parse_encoding(const char *s, int *out)
{
    static const struct {
        const char *name;
        int enc;
    } names[] = {
        {"auto", KIFU_ENC_AUTO},       {"utf-8", KIFU_ENC_UTF8},
        {"utf8", KIFU_ENC_UTF8},       {"cp932", KIFU_ENC_CP932},
        {"sjis", KIFU_ENC_CP932},      {"shift_jis", KIFU_ENC_CP932},
        {"shift-jis", KIFU_ENC_CP932}, {"windows-31j", KIFU_ENC_CP932},
        {"euc-jp", KIFU_ENC_EUCJP},    {"eucjp", KIFU_ENC_EUCJP},
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        const char *a = s, *b = names[i].name;
        while (*a && *b && (*a | 0x20) == *b)
            a++, b++;
        if (!*a && !*b) {
            *out = names[i].enc;
            return 0;
        }
    }
    cli_err("kifu: unknown encoding '%s' (utf-8 cp932 euc-jp)\n", s);
    return -1;
}

/* Matches argv[*i] against a short option ("-o", also "-oVALUE") or a long one ("--out",
 * also "--out=VALUE") that takes a value. Returns the value (advancing *i past a separate
 * one), NULL when it does not match; *missing is set when the value is absent. */
static const char *valued(int argc, char **argv, int *i, const char *s, const char *l,
                          int *missing)
{
    const char *a = argv[*i];
    size_t ln = strlen(l);
    if (s && strncmp(a, s, 2) == 0 && a[2])
        return a + 2;
    if (strncmp(a, l, ln) == 0 && a[ln] == '=')
        return a + ln + 1;
    if ((s && strcmp(a, s) == 0) || strcmp(a, l) == 0) {
        if (*i + 1 >= argc) {
            cli_err("kifu: %s needs a value\n", a);
            *missing = 1;
            return NULL;
        }
        return argv[++*i];
    }
    return NULL;
}

/* The formats and extensions in the help texts come from the format table. */
void cmd_convert_usage(FILE *f)
{
    char names[256], exts[256];
    cli_format_list(names, sizeof names, 0);
    cli_format_list(exts, sizeof exts, 1);
    fprintf(f, convert_usage, exts, names);
}

void cmd_validate_usage(FILE *f)
{
    char names[256];
    cli_format_list(names, sizeof names, 0);
    fprintf(f, validate_usage, names);
}

static int usage_error(const char *cmd)
{
    cli_err("kifu: see 'kifu %s --help'\n", cmd);
    return EXIT_USAGE;
}

static int run_command(int argc, char **argv, int validate)
{
    const char *cmd = validate ? "validate" : "convert";
    opts o = {0};
    o.validate = validate;
    o.to = KIFU_FMT_AUTO;
    const char *to_name = NULL;
    char **files = malloc((size_t)argc * sizeof *files);
    int nfiles = 0;
    if (!files) {
        cli_err("kifu: out of memory\n");
        return EXIT_INTERNAL;
    }
    int status = EXIT_OK, only_files = 0;
    for (int i = 1; i < argc && status == EXIT_OK; i++) {
        const char *a = argv[i], *v;
        int missing = 0;
        if (only_files || a[0] != '-' || !a[1]) {
            files[nfiles++] = argv[i];
        } else if (strcmp(a, "--") == 0) {
            only_files = 1;
        } else if ((v = valued(argc, argv, &i, "-f", "--from", &missing))) {
            status = parse_format(v, &o.from) ? EXIT_USAGE : status;
        } else if (!validate && (v = valued(argc, argv, &i, "-t", "--to", &missing))) {
            to_name = v;
        } else if (!validate &&
                   (v = valued(argc, argv, &i, "-o", "--output", &missing))) {
            o.out = v;
        } else if (!validate &&
                   (v = valued(argc, argv, &i, NULL, "--out-dir", &missing))) {
            o.out_dir = v;
        } else if (!validate &&
                   (v = valued(argc, argv, &i, NULL, "--encoding", &missing))) {
            status = parse_encoding(v, &o.out_enc) ? EXIT_USAGE : status;
        } else if ((v = valued(argc, argv, &i, NULL, "--input-encoding", &missing))) {
            status = parse_encoding(v, &o.in_enc) ? EXIT_USAGE : status;
        } else if (missing) {
            status = EXIT_USAGE;
        } else if (!validate && strcmp(a, "--pretty") == 0) {
            o.wflags |= KIFU_WRITE_PRETTY;
        } else if (!validate && strcmp(a, "--csa-v3") == 0) {
            o.wflags |= KIFU_WRITE_CSA_V3;
        } else if (!validate && strcmp(a, "--states") == 0) {
            o.states = 1;
        } else if (validate && strcmp(a, "--no-transitions") == 0) {
            o.msf_flags |= KIFU_MSF_NO_TRANSITIONS;
        } else if (!validate && strcmp(a, "--lenient") == 0) {
            o.lenient = 1;
        } else if (strcmp(a, "-q") == 0 || strcmp(a, "--quiet") == 0) {
            o.quiet = 1, o.verbose = 0;
        } else if (strcmp(a, "-v") == 0 || strcmp(a, "--verbose") == 0) {
            o.verbose = 1, o.quiet = 0;
        } else {
            cli_err("kifu: %s: unknown option '%s'\n", cmd, a);
            status = EXIT_USAGE;
        }
        if (missing)
            status = EXIT_USAGE;
    }
    if (status == EXIT_OK && !validate) {
        o.to_given = to_name != NULL;
        if (to_name) {
            if (parse_format(to_name, &o.to)) {
                status = EXIT_USAGE;
            } else if (o.to == KIFU_FMT_AUTO) {
                cli_err("kifu: -t needs a format, not 'auto'\n");
                status = EXIT_USAGE;
            }
        } else {
            /* -o game.csa says what it wants; otherwise JKF. */
            o.to = o.out ? kifu_format_from_path(o.out) : KIFU_FMT_AUTO;
            if (o.to == KIFU_FMT_AUTO)
                o.to = KIFU_FMT_JKF;
        }
        if (o.out && o.out_dir) {
            cli_err("kifu: -o and --out-dir exclude each other\n");
            status = EXIT_USAGE;
        }
    }
    if (status == EXIT_OK && nfiles == 0) {
        cli_err("kifu: %s: no input (name files, directories, or - for stdin)\n", cmd);
        status = EXIT_USAGE;
    }
    if (status != EXIT_OK) {
        free(files);
        return status == EXIT_USAGE ? usage_error(cmd) : status;
    }

    cli_inputs in = {0};
    in.other_games = 1; /* MSF files are read (and checked) too */
    for (int i = 0; i < nfiles; i++) {
        int rc = cli_inputs_add(&in, files[i]);
        status = rc > status ? rc : status;
    }
    free(files);
    if (!validate && (in.n > 1 || in.dirs) && !o.out_dir &&
        !(o.out && strcmp(o.out, "-") == 0)) {
        cli_err("kifu: convert: %s: use --out-dir DIR (or -o - to concatenate on "
                "standard output)\n",
                in.dirs ? "a directory was named" : "several inputs");
        cli_inputs_free(&in);
        return usage_error(cmd);
    }

    run r = {0};
    r.o = &o;
    r.status = status;
    double t0 = cli_now();
    cli_progress_start(&r.bar, in.n, !o.quiet && in.n >= PROGRESS_MIN && isatty(2));
    for (size_t i = 0; i < in.n; i++) {
        cli_progress_update(&r.bar, i, in.v[i].path);
        int rc = process(&r, &in.v[i]);
        if (rc) {
            r.failed++;
            worse(&r, rc);
        } else {
            r.done++;
        }
    }
    cli_progress_end(&r.bar);
    double secs = cli_now() - t0;
    if (!o.quiet && (o.verbose || in.n > 1)) {
        if (validate)
            cli_err("kifu: validated %zu, failed %zu (%zu games, %.2f s)\n", r.done,
                    r.failed, r.games, secs);
        else
            cli_err("kifu: converted %zu, failed %zu (%zu games, %.2f s)\n", r.done,
                    r.failed, r.games, secs);
    }
    if (in.n == 0 && r.status == EXIT_OK && !o.quiet)
        cli_err("kifu: %s: no record files found\n", cmd);
    cli_inputs_free(&in);
    written_free(&r.out);
    return r.status;
}

int cmd_convert(int argc, char **argv)
{
    return run_command(argc, argv, 0);
}

int cmd_validate(int argc, char **argv)
{
    return run_command(argc, argv, 1);
}
