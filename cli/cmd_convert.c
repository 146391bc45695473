/* cmd_convert.c: `kifu convert` (read, normalize, write another format) and
 * `kifu validate` (read and normalize only), over files, directories and stdin. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "batch.h"
#include "cli.h"
#include "inputs.h"
#include "msf_file.h"
#include "outnames.h"
#include "progress.h"
#include "record_cursor.h"
#include "tag_pool.h"

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
    "      --crlf            KIF, KI2, CSA: Windows line ends (CR LF), as Kifu for\n"
    "                        Windows writes them\n"
    "      --encoding ENC    output encoding: utf-8, shift_jis (cp932), euc-jp, utf-16\n"
    "                        (default: cp932 for kif/ki2, utf-8 for the others)\n"
    "      --input-encoding ENC  input encoding (default: detected): utf-8,\n"
    "                        shift_jis (sjis, ms932, cp932, windows-31j), euc-jp,\n"
    "                        utf-16 (-le, -be); any case\n"
    "      --states          an MSF (Xelto) input: write JSON Lines of its states, one\n"
    "                        line per node, instead of canonical MSF\n"
    "      --tags            name the openings and castles of each game (kifu tags)\n"
    "                        in its header: 先手の戦法, 先手の囲い, 先手の備考, "
    "後手の...\n"
    "                        (KIF, KIFU, KI2, JKF); keys the record has are kept\n"
    "      --tags-replace    --tags, removing the record's own keys of those names\n"
    "      --tag-file FILE   --tags with more definitions (docs/tags.md)\n"
    "      --lenient         a move that cannot be played but that one legal move of\n"
    "                        its piece to its square explains (a relay's miscopied\n"
    "                        square) is read as that move, with a warning, and the\n"
    "                        game counts as repaired, not failed; a doubled time\n"
    "                        field is dropped. Any other illegal move: the output is\n"
    "                        still written (the moves from it on as the file gave\n"
    "                        them), the error printed and the exit code says it\n"
    "  -j, --jobs N          files converted at once, on N threads (default 0: one per\n"
    "                        processor); output, messages and exit status are the\n"
    "                        same for every N\n"
    "  -q, --quiet           print errors only\n"
    "  -v, --verbose         print a line per output and the summary\n"
    "  -h, --help            this text\n"
    "\n"
    "With one input and no -o/--out-dir the output goes to standard output. Several\n"
    "inputs or a directory need --out-dir (or -o -). A CSA file holding several games\n"
    "('/' lines) gives NAME-1.EXT, NAME-2.EXT ... (with -o OUT: OUT's name plus -1, -2\n"
    "...). Standard output is always one valid file of the -t format, read back as\n"
    "the same games: csa ('/' lines), sfen/usi (a line a game) and posjson (one\n"
    "array) hold every game of every input; '-o -' with JKF (not --pretty) is JSON\n"
    "Lines, one game a line, in input order, its header naming the file it came\n"
    "from as \"kifu:source\" (and \"kifu:game\": the game's number in a file of\n"
    "several); kif, kifu, ki2, ki2u, sfenlist and pretty JKF hold one game, so a\n"
    "second game there is refused (exit 2): use -o FILE or --out-dir.\n"
    "With --out-dir, inputs that differ only by the extension (a.kif, a.kifu) keep it:\n"
    "a.kif.jkf, a.kifu.jkf. Inputs of the very same name (x.kif from two directories)\n"
    "are not converted; the message names both.\n"
    "Files are written atomically (a temporary file renamed over the target).\n"
    "A summary line (files and games, converted and failed) goes to stderr with -v or\n"
    "several inputs.\n"
    "An MSF file records Xelto, not shogi: it converts only to canonical MSF (the\n"
    "default for it, or -t msf) or, with --states, to JSON Lines (.jsonl).\n"
    "Exit status: 0 all converted, 1 a bad input (or a directory without records),\n"
    "2 usage, 3 a read/write failure, 4 out of memory.\n"
    "\n"
    "examples:\n"
    "  kifu convert game.kif > game.jkf\n"
    "  kifu convert -t csa -o game.csa game.kif\n"
    "  kifu convert -t kifu --out-dir out/ records/\n"
    "  kifu convert -o - records/ > games.jsonl\n"
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
    "      --input-encoding ENC  input encoding (default: detected): utf-8,\n"
    "                        shift_jis (sjis, ms932, cp932, windows-31j), euc-jp,\n"
    "                        utf-16 (-le, -be); any case\n"
    "  -j, --jobs N          files checked at once, on N threads (default 0: one per\n"
    "                        processor); the output is the same for every N\n"
    "      --no-transitions  MSF (Xelto) files: check the document's types and states\n"
    "                        only, not that each state follows from the one before\n"
    "      --lenient         a move that cannot be played but that one legal move of\n"
    "                        its piece to its square explains (a relay's miscopied\n"
    "                        square) is read as that move, with a warning, and the\n"
    "                        game counts as repaired, not failed; a doubled time\n"
    "                        field is dropped. Other illegal moves still fail\n"
    "  -q, --quiet           no summary line\n"
    "  -v, --verbose         an OK line for every valid game, and the summary\n"
    "  -h, --help            this text\n"
    "\n"
    "An MSF file (a Xelto record; msf.md in share/doc/kifu lists the rules) is\n"
    "checked against the Mino Seslax Format: every problem is printed with its\n"
    "JSON path.\n"
    "Exit status: 0 all valid, 1 a record is invalid (or a directory holds no\n"
    "record), 2 usage, 3 a file could not be read (or the output written), 4 out\n"
    "of memory.\n"
    "\n"
    "example:\n"
    "  kifu validate -v records/\n"
    "  kifu validate --no-transitions game.msf\n";

typedef struct opts {
    int validate;
    int from, to, in_enc, out_enc;
    unsigned wflags;
    int lenient, quiet, verbose;
    int jobs;  /* threads (0: one per processor) */
    int jsonl; /* -o - with JKF: one line per game, its source in the header */
    /* Standard output, of a format that holds several games: every game of every input
     * kept, and written at the end in one kifu_write_all, so the output is one file of
     * the format (CSA's '/' lines, one posjson array). */
    int gather;
    /* Standard output, of a format that holds one game (not JSON Lines): a second game
     * is refused. */
    int single;
    int to_given, states; /* -t was given; --states */
    unsigned msf_flags;   /* KIFU_MSF_* for MSF inputs */
    const char *out, *out_dir;
    int tags, tags_replace; /* --tags, --tags-replace */
    const char *tag_file;   /* --tag-file */
    cli_tag_pool *pool;     /* the taggers, with --tags */
    cli_outdest dest; /* where outputs go (out_dir, out unless "-", the extension) */
} opts;

/* What processing one input leaves to be done in input order, on the main thread:
 * messages, outputs to write, notes about older files. */
typedef enum { ACT_ERR, ACT_OUT, ACT_WRITE, ACT_NOTE } act_kind;

typedef struct action {
    act_kind kind;
    size_t off, len; /* ACT_ERR: the span of the item's messages */
    char *bytes;     /* ACT_OUT (malloc), ACT_WRITE (kifu_free; malloc when libc) */
    int libc;
    char *dest;     /* ACT_WRITE (NULL: standard output), ACT_NOTE */
    size_t games;   /* ACT_WRITE: games in the output */
    char what[64];  /* ACT_WRITE: " (game K)" or "" */
    char tally[64]; /* ACT_WRITE: "(N moves)" or "(N games)" for -v */
} action;

typedef struct item {
    const opts *o;
    const char *warn_source; /* file the reader and writer warnings are about */
    action *v;
    size_t n, cap;
    FILE *err; /* the messages, captured (cli_err_capture) */
    char *errbuf;
    size_t errlen, errmark;
    int rc;
    size_t games_ok, games_bad, games_repaired;
    kifu_record **kept; /* gather: this input's good games, in order */
    size_t nkept;
    int skipped; /* no record (cli_not_record) */
    /* A lone input: the run, its actions carried out as they come (drain), so that a
     * file of many games holds one game's output and messages at a time; the worst exit
     * code of those and whether standard output was written. */
    struct run *direct;
    int rc_direct, out_direct;
} item;

static void drain(item *it);

typedef struct run {
    const opts *o;
    const cli_inputs *in;
    const unsigned char *keep_ext; /* per input: keep its extension in the output name */
    const size_t *clash;           /* per input: 0, or 1 + another input of its name */
    item **items;
    cli_progress bar;
    size_t done, failed, games_ok, games_bad, games_repaired;
    int status;        /* the worst exit code so far */
    int stdout_failed; /* said once: every output after it fails too */
    cli_written out;
    /* gather: the games written to standard output so far, and what the format
     * carries from one to the next (kifu_write_nth) */
    size_t streamed, wstate;
    cli_skipped skipped;
} run;

static void worse(int *status, int code)
{
    if (code > *status)
        *status = code;
}

/* ---- the work on one input (any thread) ------------------------------------------- */

/* A new action, after the messages so far (which become an action of their own, so the
 * order of messages and outputs is kept). NULL when out of memory. */
static action *act(item *it, act_kind kind)
{
    if (it->n + 2 > it->cap) {
        size_t cap = it->cap ? it->cap * 2 : 4;
        action *v = realloc(it->v, cap * sizeof *v);
        if (!v)
            return NULL;
        it->v = v;
        it->cap = cap;
    }
    if (it->err && fflush(it->err) == 0 && it->errlen > it->errmark) {
        action *m = &it->v[it->n++];
        memset(m, 0, sizeof *m);
        m->kind = ACT_ERR;
        m->off = it->errmark;
        m->len = it->errlen - it->errmark;
        it->errmark = it->errlen;
    }
    if (kind == ACT_ERR)
        return NULL;
    action *a = &it->v[it->n++];
    memset(a, 0, sizeof *a);
    a->kind = kind;
    return a;
}

static void on_warn(void *ctx, const char *message)
{
    item *it = ctx;
    if (!it->o->quiet)
        cli_err("kifu: %s: warning: %s\n", it->warn_source, message);
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

/* Queues output bytes (kifu_malloc'd, or malloc'd when libc; taken) of game k of count from input `in`, holding
 * `games` games, for the main thread to write; ext (NULL: the -t format's) is the file
 * extension under --out-dir, tally what -v says of it. 0, or an exit code. */
static int queue_bytes(item *it, const cli_input *in, int keep_ext, char *bytes, int libc,
                       size_t len, size_t games, size_t k, size_t count, const char *ext,
                       const char *tally)
{
    cli_outdest d = it->o->dest;
    if (ext)
        d.ext = ext;
    int oom;
    char *dest = cli_out_path(&d, in, keep_ext, k, count, &oom);
    action *a = oom ? NULL : act(it, ACT_WRITE);
    if (!a) {
        free(dest);
        if (libc)
            free(bytes);
        else
            kifu_free(bytes);
        cli_err("kifu: out of memory\n");
        return EXIT_INTERNAL;
    }
    a->bytes = bytes;
    a->libc = libc;
    a->len = len;
    a->dest = dest;
    a->games = games;
    if (count > 1)
        snprintf(a->what, sizeof a->what, " (game %zu)", k);
    snprintf(a->tally, sizeof a->tally, "%s", tally);
    return EXIT_OK;
}

static int queue_write(item *it, const cli_input *in, int keep_ext, char *bytes,
                       size_t len, size_t games, size_t k, size_t count, const char *ext,
                       const char *tally)
{
    return queue_bytes(it, in, keep_ext, bytes, 0, len, games, k, count, ext, tally);
}

/* Writes normalized records to memory: game k of count, or (n > 1) the n games of a
 * format that holds several in one output; the main thread puts them in place. 0, or an
 * exit code. */
static int emit(item *it, const cli_input *in, int keep_ext, kifu_record *const *recs,
                size_t n, size_t k, size_t count)
{
    const opts *o = it->o;
    if (o->jsonl) {
        /* Each line says where it came from, in the header, so it stays plain JKF. */
        char num[24];
        snprintf(num, sizeof num, "%zu", k);
        if (kifu_record_header_set(recs[0], "kifu:source", display(in)) ||
            (count > 1 && kifu_record_header_set(recs[0], "kifu:game", num))) {
            cli_err("kifu: out of memory\n");
            return EXIT_INTERNAL;
        }
    }
    kifu_write_options wo = {o->to, o->out_enc, o->wflags, on_warn, it};
    kifu_error e;
    kifu_error_clear(&e);
    size_t len;
    it->warn_source = display(in);
    char *bytes = kifu_write_all((const kifu_record *const *)recs, n, &wo, &len, &e);
    if (!bytes) {
        snprintf(e.source, sizeof e.source, "%s", display(in));
        cli_print_error(&e);
        return cli_exit_code(e.code);
    }
    char tally[64];
    if (n > 1)
        snprintf(tally, sizeof tally, "(%zu games)", n);
    else
        snprintf(tally, sizeof tally, "(%zu moves)", main_line_moves(recs[0]));
    return queue_write(it, in, keep_ext, bytes, len, n, k, count, NULL, tally);
}

/* A game that failed is not written: an output of it from an earlier run is left as it
 * was, and the user is told (when its turn comes), so that a stale file is not taken for
 * this run's. */
static void keep_note(item *it, const cli_input *in, int keep_ext, size_t k, size_t count)
{
    int oom;
    char *dest = cli_out_path(&it->o->dest, in, keep_ext, k, count, &oom);
    action *a = dest ? act(it, ACT_NOTE) : NULL;
    if (a)
        a->dest = dest;
    else
        free(dest);
}

/* An MSF input (a Xelto record): read and check it with every problem printed, and
 * when converting write canonical MSF or the JSON Lines of its states. 0, or an exit
 * code. */
static int process_msf(item *it, const cli_input *in, int keep_ext, const char *data,
                       size_t len)
{
    const opts *o = it->o;
    const char *src = display(in);
    if (!o->validate && !o->states && o->to_given && o->to != KIFU_FMT_MSF) {
        cli_err("kifu: %s: an MSF file records Xelto, not shogi: it converts to msf "
                "(-t msf) or, with --states, to JSON Lines\n",
                src);
        return EXIT_USAGE;
    }
    int code = EXIT_OK;
    kifu_msf *m = cli_msf_open(src, data, len, o->msf_flags, &code);
    if (!m) {
        it->games_bad++;
        if (!o->validate)
            keep_note(it, in, keep_ext, 1, 1);
        return code;
    }
    it->games_ok++;
    size_t moves, variations;
    cli_msf_counts(m, &moves, &variations);
    char what[64];
    snprintf(what, sizeof what, "(%zu moves, %zu variations)", moves, variations);
    int rc = EXIT_OK;
    if (o->validate) {
        action *a = o->verbose ? act(it, ACT_OUT) : NULL;
        size_t need = strlen(src) + strlen(what) + 8;
        if (a && (a->bytes = malloc(need)))
            a->len = (size_t)snprintf(a->bytes, need, "%s: OK %s\n", src, what);
    } else {
        kifu_error e;
        kifu_error_clear(&e);
        size_t blen = 0;
        char *bytes = o->states ? kifu_msf_write_states(m, &blen, &e)
                                : kifu_msf_write(m, &blen, &e);
        if (!bytes) {
            snprintf(e.source, sizeof e.source, "%s", src);
            cli_print_error(&e);
            rc = cli_exit_code(e.code);
        } else {
            rc = queue_write(it, in, keep_ext, bytes, blen, 1, 1, 1,
                             o->states ? "jsonl" : "msf", what);
        }
    }
    kifu_msf_free(m);
    return rc;
}

/* An out-of-memory error in e (the library's own are made the same way). */
static void oom(kifu_error *e)
{
    if (!e->code) {
        e->code = KIFU_ERR_NOMEM;
        snprintf(e->message, sizeof e->message, "out of memory");
    }
}

/* How an input is read: lenient reading (a NUL byte replaced, a doubled time field
 * dropped) from the first read on, and lenient normalizing after: a move repaired where
 * one legal move explains it, else the rest of its line kept as read. Strict, data is
 * freed after the records: they may read it in place (BORROW); lenient records may keep
 * moves unnormalized, and so a copy of the text. */
static kifu_read_options read_options(item *it, const char *src, unsigned lenient)
{
    unsigned flags = KIFU_READ_NO_NORMALIZE | (lenient ? lenient : KIFU_READ_BORROW);
    kifu_read_options ro = {it->o->from, it->o->in_enc, flags, src, on_warn, it};
    return ro;
}

/* Standard output takes the input's `count` games: a format of one game refuses a
 * second (EXIT_USAGE, said); gathering makes room to keep them. 0, or an exit code. */
static int stdout_room(item *it, const char *src, size_t count)
{
    const opts *o = it->o;
    if (o->single && count > 1) {
        cli_err("kifu: %s: %zu games: %s holds one game a file, so they cannot all go to "
                "standard output; use -o FILE (NAME-1, NAME-2 ...) or --out-dir DIR\n",
                src, count, kifu_format_name(o->to));
        return EXIT_USAGE;
    }
    if (o->gather && !(it->kept = calloc(count, sizeof *it->kept))) {
        cli_err("kifu: out of memory\n");
        return EXIT_INTERNAL;
    }
    return EXIT_OK;
}

/* Normalizes one game (and, with --tags, tags it in the same replay and writes its tags
 * into its header). 1 when it is bad (e says why), else 0; after repairs, e.code is set
 * with 0. */
static int normalize_one(item *it, kifu_record *rec, unsigned lenient, kifu_error *e)
{
    const opts *o = it->o;
    if (!o->pool)
        return kifu_normalize_warn(rec, lenient, on_warn, it, e) != 0;
    kifu_tagger *tg = cli_tag_pool_get(o->pool);
    kifu_tag *tags = NULL;
    size_t ntags = 0;
    int bad =
        !tg || kifu_tags_normalize(tg, rec, lenient, on_warn, it, &tags, &ntags, e) != 0;
    if (!tg)
        oom(e);
    if (!bad && kifu_tags_to_header(rec, tags, ntags, o->tags_replace))
        bad = 1, oom(e);
    kifu_free(tags);
    cli_tag_pool_put(o->pool, tg);
    return bad;
}

/* One input's games, taken one at a time as they are read (kifu_read_each), so that a
 * file of many games costs one game's memory, not the file's. */
typedef struct reading {
    item *it;
    const cli_input *in;
    int keep_ext;
    unsigned lenient;
    size_t count;        /* games in the input (a first read counted them) */
    int together;        /* the games go to one output of a format of several */
    kifu_record *first;  /* the first read's first record (a lone game is read once) */
    size_t ngood, moves; /* games in the one output; moves of its first */
    size_t wstate;       /* what the format carries from game to game (kifu_write_nth) */
    char *buf; /* together, several inputs: the output so far, queued at the end */
    size_t blen, bcap;
    cli_stream *stream; /* together, one input: the file, written as it goes */
    char *dest;         /* ... its name */
    int failed;         /* together: writing the output failed (said) */
    int rc;
} reading;

/* The first read: counts the games, keeping the first. */
static int count_game(void *ctx, kifu_record *r, size_t index)
{
    reading *rd = ctx;
    if (index == 0)
        rd->first = r;
    else
        kifu_record_free(r);
    return 0;
}

/* Appends bytes (kifu_malloc'd; taken) to the one output. 0, or an exit code. */
static int together_put(reading *rd, char *bytes, size_t len)
{
    int rc = EXIT_OK;
    if (rd->stream) {
        if (cli_stream_write(rd->stream, bytes, len))
            rd->failed = 1; /* told when it is closed */
    } else if (rd->blen + len + 1 > rd->bcap) {
        size_t cap = rd->bcap ? rd->bcap : 1 << 12;
        while (cap < rd->blen + len + 1)
            cap *= 2;
        char *b = realloc(rd->buf, cap);
        if (!b) {
            cli_err("kifu: %s: out of memory holding the output\n", display(rd->in));
            rd->failed = 1;
            rc = EXIT_INTERNAL;
        } else {
            rd->buf = b;
            rd->bcap = cap;
        }
    }
    if (!rd->stream && !rd->failed) {
        memcpy(rd->buf + rd->blen, bytes, len);
        rd->blen += len;
    }
    kifu_free(bytes);
    return rc;
}

/* A good game (normalized) of a together input: written into the one output. */
static void together_game(reading *rd, const kifu_record *rec)
{
    item *it = rd->it;
    const opts *o = it->o;
    if (rd->ngood == 0)
        rd->moves = main_line_moves(rec);
    if (!rd->failed) {
        kifu_write_options wo = {o->to, o->out_enc, o->wflags, on_warn, it};
        kifu_error e;
        kifu_error_clear(&e);
        size_t len;
        it->warn_source = display(rd->in);
        char *bytes = kifu_write_nth(rec, rd->ngood, &rd->wstate, &wo, &len, &e);
        if (!bytes) {
            snprintf(e.source, sizeof e.source, "%s", display(rd->in));
            cli_print_error(&e);
            worse(&rd->rc, cli_exit_code(e.code));
            rd->failed = 1;
        } else {
            worse(&rd->rc, together_put(rd, bytes, len));
        }
    }
    rd->ngood++;
}

/* Normalizes game k (taken) of the input and checks or writes it. 0 (go on). */
static int take_game(void *ctx, kifu_record *rec, size_t k)
{
    reading *rd = ctx;
    item *it = rd->it;
    const opts *o = it->o;
    const char *src = display(rd->in);
    size_t count = rd->count;
    kifu_error e;
    kifu_error_clear(&e);
    int bad = normalize_one(it, rec, rd->lenient, &e);
    /* Played whole after repairs (--lenient): counted apart, told by warnings. */
    int repaired = !bad && e.code;
    if (bad) {
        if (count > 1)
            snprintf(e.source, sizeof e.source, "%s (game %zu)", src, k + 1);
        else if (!e.source[0])
            snprintf(e.source, sizeof e.source, "%s", src);
        cli_print_error(&e);
        worse(&rd->rc, cli_exit_code(e.code));
        it->games_bad++;
        if (!o->validate && !o->lenient)
            keep_note(it, rd->in, rd->keep_ext, k + 1, count);
        /* Lenient: written as it is, the moves from the bad one on as read. */
        if (o->validate || !o->lenient) {
            kifu_record_free(rec);
            drain(it);
            return 0;
        }
    } else if (repaired) {
        it->games_repaired++;
    } else {
        it->games_ok++;
    }
    if (o->validate) {
        if (o->verbose) {
            action *a = act(it, ACT_OUT);
            char line[64];
            int n = snprintf(line, sizeof line, " (game %zu)", k + 1);
            size_t need = strlen(src) + (size_t)n + 40;
            if (a && (a->bytes = malloc(need)))
                a->len = (size_t)snprintf(a->bytes, need, "%s%s: OK (%zu moves%s)\n", src,
                                          count > 1 ? line : "", main_line_moves(rec),
                                          repaired ? ", repaired" : "");
        }
    } else if (o->gather) {
        it->kept[it->nkept++] = rec; /* on standard output at drain or commit */
        rec = NULL;
    } else if (rd->together) {
        together_game(rd, rec);
    } else {
        worse(&rd->rc, emit(it, rd->in, rd->keep_ext, &rec, 1, k + 1, count));
    }
    kifu_record_free(rec);
    drain(it);
    return 0;
}

/* A together input of one input: its output is a file written as the games come, not
 * held whole. 0, or an exit code (said). */
static int together_open(reading *rd)
{
    const opts *o = rd->it->o;
    int oom;
    rd->dest = cli_out_path(&o->dest, rd->in, rd->keep_ext, 1, 1, &oom);
    if (!rd->dest) {
        cli_err("kifu: out of memory\n");
        return EXIT_INTERNAL;
    }
    if (o->out_dir && cli_make_parents(rd->dest))
        return EXIT_IO;
    rd->stream = cli_stream_open(rd->dest);
    return rd->stream ? EXIT_OK : EXIT_IO;
}

/* The one output of a together input, once every game is in. 0, or an exit code. */
static int together_end(reading *rd)
{
    item *it = rd->it;
    char tally[64];
    if (rd->ngood > 1)
        snprintf(tally, sizeof tally, "(%zu games)", rd->ngood);
    else
        snprintf(tally, sizeof tally, "(%zu moves)", rd->moves);
    int rc = EXIT_OK;
    if (rd->ngood && !rd->failed) {
        /* What closes the output (posjson's bracket). */
        kifu_write_options wo = {it->o->to, it->o->out_enc, it->o->wflags, NULL, NULL};
        kifu_error e;
        kifu_error_clear(&e);
        size_t len;
        char *bytes = kifu_write_nth(NULL, rd->ngood, &rd->wstate, &wo, &len, &e);
        if (!bytes) {
            cli_print_error(&e);
            worse(&rc, cli_exit_code(e.code));
            rd->failed = 1;
        } else {
            worse(&rc, together_put(rd, bytes, len));
        }
    }
    if (rd->stream) {
        /* Nothing good: the temp file goes, an earlier output is left as it was. */
        int keep = !rd->failed && rd->ngood;
        if (cli_stream_close(rd->stream, keep) || rd->failed)
            rc = EXIT_IO;
        rd->stream = NULL;
        if (!rc && keep && it->o->verbose)
            cli_err("kifu: %s -> %s %s\n", display(rd->in), rd->dest, tally);
    } else if (!rd->failed && rd->ngood) {
        char *bytes = rd->buf;
        rd->buf = NULL;
        return queue_bytes(it, rd->in, rd->keep_ext, bytes, 1, rd->blen, rd->ngood, 1, 1,
                           NULL, tally);
    }
    if (rd->failed || rc) {
        /* The games of an output not written are not converted. */
        size_t n = rd->ngood <= it->games_ok ? rd->ngood : it->games_ok;
        it->games_ok -= n;
        it->games_bad += n;
    }
    return rc ? rc : rd->failed ? EXIT_IO : EXIT_OK;
}

/* Reads, normalizes and (when converting) writes every game of one input, one at a
 * time. Returns 0, or the exit code of what went wrong. */
static int process(item *it, const cli_input *in, int keep_ext)
{
    const opts *o = it->o;
    size_t len;
    kifu_error fe;
    kifu_error_clear(&fe);
    char *data = kifu_file_read(in->path, &len, &fe);
    if (!data) {
        if (strcmp(in->path, "-") == 0)
            snprintf(fe.source, sizeof fe.source, "standard input");
        cli_print_error(&fe);
        return cli_exit_code(fe.code);
    }
    const char *src = display(in);
    unsigned lenient = o->lenient ? KIFU_READ_LENIENT | KIFU_READ_REPAIR : 0;
    kifu_read_options ro = read_options(it, src, lenient);
    /* The format is decided once, here, and the reading is told it: Xelto records have
     * a reader of their own. */
    ro.format = kifu_format_decide(data, len, &ro);
    if (cli_other_game(ro.format)) {
        int rc = process_msf(it, in, keep_ext, data, len);
        kifu_free(data);
        return rc;
    }
    if (o->states) {
        cli_err("kifu: %s: --states is for MSF (Xelto) records; this is a shogi record\n",
                display(in));
        kifu_free(data);
        return EXIT_USAGE;
    }
    it->warn_source = src;
    reading rd = {.it = it, .in = in, .keep_ext = keep_ext, .lenient = lenient};
    kifu_error e;
    kifu_error_clear(&e);
    /* A first read counts the games (the outputs are named by it) and finds a syntax
     * error before anything is written; a file of several is then read again, game by
     * game. The reader's warnings are told by the first read only. */
    if (kifu_read_each(data, len, &ro, count_game, &rd, &rd.count, &e)) {
        kifu_record_free(rd.first);
        it->skipped = cli_not_record(in, o->from, &e, data, len);
        if (!it->skipped)
            cli_print_error(&e);
        kifu_free(data);
        return it->skipped ? EXIT_OK : cli_exit_code(e.code);
    }
    rd.rc = stdout_room(it, src, rd.count);
    /* A format that holds several games gets all of an input's games in one output. */
    const kifu_format_info *to = kifu_format_info_of(o->to);
    rd.together = !o->validate && !o->gather && rd.count > 1 && to &&
                  (to->holds & KIFU_HOLDS_GAMES);
    if (rd.rc == EXIT_OK && rd.together && it->direct) {
        rd.rc = together_open(&rd);
        if (rd.rc)
            it->games_bad += rd.count;
    }
    if (rd.rc != EXIT_OK) {
        kifu_record_free(rd.first);
    } else if (rd.count == 1) {
        take_game(&rd, rd.first, 0);
    } else {
        kifu_record_free(rd.first);
        ro.warn = NULL;
        if (kifu_read_each(data, len, &ro, take_game, &rd, NULL, &e)) {
            cli_print_error(&e); /* the first read went through: out of memory */
            worse(&rd.rc, cli_exit_code(e.code));
            rd.failed = 1;
        }
    }
    if (rd.together && (rd.ngood || rd.stream))
        worse(&rd.rc, together_end(&rd));
    if (rd.stream)
        cli_stream_close(rd.stream, 0);
    free(rd.buf);
    free(rd.dest);
    kifu_free(data);
    return rd.rc;
}

static void free_actions(item *it)
{
    for (size_t i = 0; i < it->n; i++) {
        if (it->v[i].kind == ACT_WRITE && !it->v[i].libc)
            kifu_free(it->v[i].bytes);
        else
            free(it->v[i].bytes);
        free(it->v[i].dest);
    }
    it->n = 0;
}

static void item_free(item *it)
{
    if (!it)
        return;
    free_actions(it);
    for (size_t i = 0; i < it->nkept; i++)
        kifu_record_free(it->kept[i]);
    free(it->kept);
    free(it->v);
    free(it->errbuf);
    free(it);
}

/* The batch's work on input i: everything but touching the outputs. */
static void work(void *ctx, size_t i)
{
    run *r = ctx;
    const cli_input *in = &r->in->v[i];
    item *it = calloc(1, sizeof *it);
    if (!it)
        return; /* commit reports it */
    it->o = r->o;
    if (r->in->n == 1)
        it->direct = r;
    it->err = open_memstream(&it->errbuf, &it->errlen);
    cli_err_capture(it->err);
    if (r->clash[i]) {
        const cli_input *other = &r->in->v[r->clash[i] - 1];
        int oom;
        char *dest = cli_out_path(&r->o->dest, in, 0, 1, 1, &oom);
        cli_err("kifu: %s: not converted: %s would write %s too; rename one of them\n",
                display(in), display(other), dest ? dest : "the same file");
        free(dest);
        it->rc = EXIT_INPUT;
    } else {
        it->rc = process(it, in, r->keep_ext[i]);
    }
    cli_err_capture(NULL);
    act(it, ACT_ERR); /* the last messages */
    if (it->err)
        fclose(it->err);
    it->err = NULL;
    r->items[i] = it;
}

/* ---- in input order (the main thread) ---------------------------------------------- */

/* Standard output goes through stdio's buffer (made large for a pipe or a file in
 * run_command) and is flushed before each message instead of after each file: one
 * write for many small JSON lines, with stdout and stderr still in order on a terminal.
 * 0, or -1 with a message. */
static int put_stdout(run *r, const void *bytes, size_t len)
{
    cli_progress_clear(&r->bar);
    if (r->stdout_failed)
        return -1;
    if (fwrite(bytes, 1, len, stdout) != len || ferror(stdout)) {
        cli_err("kifu: cannot write to standard output: %s\n", strerror(errno));
        r->stdout_failed = 1;
        return -1;
    }
    return 0;
}

static int put_output(run *r, size_t i, const action *a)
{
    const opts *o = r->o;
    const cli_input *in = &r->in->v[i];
    if (a->dest) {
        size_t first;
        int seen = cli_written_claim(&r->out, a->dest, i, &first);
        if (seen < 0) {
            cli_err("kifu: out of memory\n");
            return EXIT_INTERNAL;
        }
        if (seen) {
            cli_progress_clear(&r->bar);
            cli_err("kifu: %s: not written: %s was written from %s\n", display(in),
                    a->dest, display(&r->in->v[first]));
            return EXIT_INPUT;
        }
        if (o->out_dir && cli_make_parents(a->dest))
            return EXIT_IO;
        if (cli_write_file(a->dest, a->bytes, a->len))
            return EXIT_IO;
    } else {
        /* On stdout every output ends a line, so concatenated outputs stay apart. */
        int nl = a->len && a->bytes[a->len - 1] != '\n';
        if (put_stdout(r, a->bytes, a->len) || (nl && put_stdout(r, "\n", 1)))
            return EXIT_IO;
    }
    if (o->verbose) {
        cli_progress_clear(&r->bar);
        cli_err("kifu: %s%s -> %s %s\n", display(in), a->what,
                a->dest ? a->dest : "<stdout>", a->tally);
    }
    return EXIT_OK;
}

/* The gathered output's writer warnings: none under -q ("print errors only"), as for
 * the warnings about each file (on_warn). */
static kifu_warn_fn gather_warn(const opts *o)
{
    return o->quiet ? NULL : cli_print_warning;
}

/* Gather: the item's games on standard output now, each as game r->streamed of one
 * output of the format (kifu_write_nth), so that a stream that fills counts what it
 * took (commit) and no game waits for the others. *out is set when something was
 * written. 0, or an exit code. */
static int stream_games(run *r, item *it, int *out)
{
    const opts *o = r->o;
    kifu_write_options wo = {o->to, o->out_enc, o->wflags, gather_warn(o), "<stdout>"};
    int rc = EXIT_OK;
    for (size_t k = 0; k < it->nkept && rc == EXIT_OK; k++) {
        kifu_error e;
        kifu_error_clear(&e);
        size_t len;
        char *bytes = kifu_write_nth(it->kept[k], r->streamed, &r->wstate, &wo, &len, &e);
        if (!bytes) {
            cli_print_error(&e);
            rc = cli_exit_code(e.code);
            break;
        }
        *out = 1;
        if (put_stdout(r, bytes, len))
            rc = EXIT_IO;
        r->streamed++;
        kifu_free(bytes);
    }
    return rc;
}

/* Gather: what ends the one output on standard output (posjson's bracket; the whole
 * output when there was no game). */
static void end_gathered(run *r)
{
    const opts *o = r->o;
    kifu_write_options wo = {o->to, o->out_enc, o->wflags, gather_warn(o), "<stdout>"};
    kifu_error e;
    kifu_error_clear(&e);
    size_t len;
    char *bytes = kifu_write_nth(NULL, r->streamed, &r->wstate, &wo, &len, &e);
    if (!bytes) {
        cli_print_error(&e);
        worse(&r->status, cli_exit_code(e.code));
    } else if (put_stdout(r, bytes, len)) {
        worse(&r->status, EXIT_IO);
    } else if (o->verbose) {
        cli_err("kifu: -> <stdout> (%zu game%s)\n", r->streamed,
                r->streamed == 1 ? "" : "s");
    }
    kifu_free(bytes);
}

/* Carries out item i's actions so far, in order, and frees them, then puts its gathered
 * games on standard output; what fails makes *rc worse, *out is set when standard output
 * was written. */
static void run_actions(run *r, size_t i, item *it, int *rc, int *out)
{
    for (size_t k = 0; k < it->n; k++) {
        const action *a = &it->v[k];
        struct stat st;
        switch (a->kind) {
        case ACT_ERR:
            cli_progress_clear(&r->bar);
            fflush(stdout);
            fwrite(it->errbuf + a->off, 1, a->len, stderr);
            fflush(stderr);
            break;
        case ACT_OUT:
            *out |= a->bytes != NULL;
            if (a->bytes && put_stdout(r, a->bytes, a->len))
                worse(rc, EXIT_IO);
            break;
        case ACT_NOTE:
            if (stat(a->dest, &st) == 0) {
                cli_progress_clear(&r->bar);
                cli_err(
                    "kifu: %s: not written; the file from an earlier run is left as it "
                    "was\n",
                    a->dest);
            }
            break;
        case ACT_WRITE: {
            *out |= !a->dest;
            int w = put_output(r, i, a);
            if (w) {
                worse(rc, w);
                it->games_ok -= a->games <= it->games_ok ? a->games : it->games_ok;
                it->games_bad += a->games;
            }
            break;
        }
        }
    }
    free_actions(it);
    if (it->nkept)
        worse(rc, stream_games(r, it, out));
    /* Written: a lone input's next games reuse the room. */
    for (size_t k = 0; k < it->nkept; k++)
        kifu_record_free(it->kept[k]);
    it->nkept = 0;
}

/* A lone input's actions carried out as they come (direct): the messages so far, its
 * outputs, its games on standard output. */
static void drain(item *it)
{
    if (!it->direct)
        return;
    act(it, ACT_ERR);
    /* What the actions say goes out with them, not into the buffer being emptied. */
    cli_err_capture(NULL);
    run_actions(it->direct, 0, it, &it->rc_direct, &it->out_direct);
    cli_err_capture(it->err);
    if (it->err) {
        /* The messages are written: their buffer serves the next ones. */
        rewind(it->err);
        fflush(it->err);
        it->errmark = 0;
    }
}

static void commit(void *ctx, size_t i)
{
    run *r = ctx;
    item *it = r->items[i];
    cli_progress_update(&r->bar, i, r->in->v[i].path);
    if (!it) {
        cli_err("kifu: out of memory\n");
        r->failed++;
        worse(&r->status, EXIT_INTERNAL);
        return;
    }
    int rc = it->rc, out = it->out_direct;
    worse(&rc, it->rc_direct);
    run_actions(r, i, it, &rc, &out);
    /* A file's outputs on standard output count as written once they have left the
     * buffer: to a full disk, the buffer's flush is what fails. */
    if (out && rc != EXIT_IO && fflush(stdout) != 0 && !r->stdout_failed) {
        cli_err("kifu: cannot write to standard output: %s\n", strerror(errno));
        r->stdout_failed = 1;
    }
    if (out && r->stdout_failed) {
        worse(&rc, EXIT_IO);
        it->games_bad += it->games_ok;
        it->games_ok = 0;
    }
    if (it->skipped) {
        cli_skipped_add(&r->skipped, r->in->v[i].path);
        item_free(it);
        r->items[i] = NULL;
        return;
    }
    r->games_ok += it->games_ok;
    r->games_bad += it->games_bad;
    r->games_repaired += it->games_repaired;
    if (rc) {
        r->failed++;
        worse(&r->status, rc);
    } else {
        r->done++;
    }
    item_free(it);
    r->items[i] = NULL;
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

/* Where outputs on standard output go: one kifu_write_all of every game (gather) for
 * a format that holds several, JSON Lines for JKF (jsonl), else one game only
 * (single). */
static void set_stdout_mode(opts *o)
{
    const kifu_format_info *to = kifu_format_info_of(o->to);
    int on_stdout = !o->validate && !o->out_dir && (!o->out || strcmp(o->out, "-") == 0);
    int several = to && (to->holds & KIFU_HOLDS_GAMES);
    o->gather = on_stdout && several;
    o->single = on_stdout && !several && !o->jsonl && o->to != KIFU_FMT_MSF;
}

/* The option of argv[*i] (a valued one may take argv[++*i]) into o; -t's name into
 * *to_name, for settle_output. 0, or EXIT_USAGE (said on stderr). */
static int parse_option(int argc, char **argv, int *i, opts *o, const char **to_name)
{
    int validate = o->validate;
    const char *cmd = validate ? "validate" : "convert";
    const char *a = argv[*i], *v;
    int missing = 0, status = EXIT_OK;
    if ((v = valued(argc, argv, i, "-f", "--from", &missing))) {
        status = parse_format(v, &o->from) ? EXIT_USAGE : status;
    } else if (!validate && (v = valued(argc, argv, i, "-t", "--to", &missing))) {
        *to_name = v;
    } else if (!validate && (v = valued(argc, argv, i, "-o", "--output", &missing))) {
        o->out = v;
    } else if (!validate && (v = valued(argc, argv, i, NULL, "--out-dir", &missing))) {
        o->out_dir = v;
    } else if (!validate && (v = valued(argc, argv, i, NULL, "--encoding", &missing))) {
        status = cli_parse_encoding(v, &o->out_enc) ? EXIT_USAGE : status;
    } else if ((v = valued(argc, argv, i, NULL, "--input-encoding", &missing))) {
        status = cli_parse_encoding(v, &o->in_enc) ? EXIT_USAGE : status;
    } else if ((v = valued(argc, argv, i, "-j", "--jobs", &missing))) {
        if (cli_parse_int(v, &o->jobs) || o->jobs < 0 || o->jobs > 1024) {
            cli_err("kifu: %s: -j takes a number of threads (0: one per "
                    "processor), not '%s'\n",
                    cmd, v);
            status = EXIT_USAGE;
        }
    } else if (!validate && (v = valued(argc, argv, i, NULL, "--tag-file", &missing))) {
        o->tags = 1, o->tag_file = v;
    } else if (missing) {
        status = EXIT_USAGE;
    } else if (!validate && strcmp(a, "--pretty") == 0) {
        o->wflags |= KIFU_WRITE_PRETTY;
    } else if (!validate && strcmp(a, "--csa-v3") == 0) {
        o->wflags |= KIFU_WRITE_CSA_V3;
    } else if (!validate && strcmp(a, "--crlf") == 0) {
        o->wflags |= KIFU_WRITE_CRLF;
    } else if (!validate && strcmp(a, "--states") == 0) {
        o->states = 1;
    } else if (validate && strcmp(a, "--no-transitions") == 0) {
        o->msf_flags |= KIFU_MSF_NO_TRANSITIONS;
    } else if (!validate && strcmp(a, "--tags") == 0) {
        o->tags = 1;
    } else if (!validate && strcmp(a, "--tags-replace") == 0) {
        o->tags = o->tags_replace = 1;
    } else if (strcmp(a, "--lenient") == 0) {
        o->lenient = 1;
    } else if (strcmp(a, "-q") == 0 || strcmp(a, "--quiet") == 0) {
        o->quiet = 1, o->verbose = 0;
    } else if (strcmp(a, "-v") == 0 || strcmp(a, "--verbose") == 0) {
        o->verbose = 1, o->quiet = 0;
    } else {
        /* run_command adds the line pointing to --help */
        cli_err("kifu: %s: unknown option '%s'\n", cmd, a);
        status = EXIT_USAGE;
    }
    return missing ? EXIT_USAGE : status;
}

/* convert's output format: -t's, else -o's extension's, else JKF; and -o or --out-dir.
 * 0, or EXIT_USAGE (said on stderr). */
static int settle_output(opts *o, const char *to_name)
{
    int status = EXIT_OK;
    o->to_given = to_name != NULL;
    if (to_name) {
        if (parse_format(to_name, &o->to)) {
            status = EXIT_USAGE;
        } else if (o->to == KIFU_FMT_AUTO) {
            cli_err("kifu: -t needs a format, not 'auto'\n");
            status = EXIT_USAGE;
        }
    } else {
        /* -o game.csa says what it wants; otherwise JKF. */
        o->to = o->out ? kifu_format_from_path(o->out) : KIFU_FMT_AUTO;
        if (o->to == KIFU_FMT_AUTO)
            o->to = KIFU_FMT_JKF;
    }
    /* said too when -t was wrong: both are to be fixed */
    if (o->out && o->out_dir) {
        cli_err("kifu: -o and --out-dir exclude each other\n");
        status = EXIT_USAGE;
    }
    if ((o->wflags & KIFU_WRITE_CRLF) && o->to != KIFU_FMT_KIF &&
        o->to != KIFU_FMT_KIFU && o->to != KIFU_FMT_KI2 && o->to != KIFU_FMT_KI2U &&
        o->to != KIFU_FMT_CSA) {
        cli_err("kifu: --crlf is for KIF, KI2 and CSA output, not %s\n",
                kifu_format_name(o->to));
        status = EXIT_USAGE;
    }
    return status;
}

/* The command line into o and files (the operands, options and operands in any order,
 * "--" ends the options). 0, or an exit code (said on stderr, but not the pointer to
 * --help). */
static int parse_args(int argc, char **argv, opts *o, char **files, int *nfiles)
{
    const char *cmd = o->validate ? "validate" : "convert";
    const char *to_name = NULL;
    int status = EXIT_OK, only_files = 0;
    for (int i = 1; i < argc && status == EXIT_OK; i++) {
        const char *a = argv[i];
        if (only_files || a[0] != '-' || !a[1])
            files[(*nfiles)++] = argv[i];
        else if (strcmp(a, "--") == 0)
            only_files = 1;
        else
            status = parse_option(argc, argv, &i, o, &to_name);
    }
    if (status == EXIT_OK && !o->validate)
        status = settle_output(o, to_name);
    if (status == EXIT_OK && *nfiles == 0) {
        cli_err("kifu: %s: no input (name files, directories, or - for stdin)\n", cmd);
        status = EXIT_USAGE;
    }
    return status;
}

/* The files and directories named, into in (MSF files too: they are read and checked).
 * The worst exit code of one (0 when all are there). */
static int gather_inputs(const char *cmd, char **files, int nfiles, cli_inputs *in)
{
    int status = EXIT_OK;
    in->other_games = 1;
    for (int i = 0; i < nfiles; i++) {
        size_t before = in->n;
        struct stat st;
        int dir =
            strcmp(files[i], "-") != 0 && stat(files[i], &st) == 0 && S_ISDIR(st.st_mode);
        int rc = cli_inputs_add(in, files[i]);
        worse(&status, rc);
        /* A directory without a record is most likely the wrong directory. */
        if (rc == EXIT_OK && dir && in->n == before) {
            cli_err("kifu: %s: %s: no record files found (extensions: ", cmd, files[i]);
            char exts[256];
            cli_format_list(exts, sizeof exts, 1);
            cli_err("%s)\n", exts);
            worse(&status, EXIT_INPUT);
        }
    }
    return status;
}

/* The last line of a run over several files (or -v): files and games apart, as a CSA
 * file may hold many games. */
static void summary(const run *r, double secs)
{
    const char *done = r->o->validate ? "valid" : "converted";
    size_t files = r->done + r->failed;
    size_t games = r->games_ok + r->games_bad + r->games_repaired;
    /* Games repaired by --lenient are counted apart, when there are any. */
    char repaired[64] = "";
    if (r->games_repaired)
        snprintf(repaired, sizeof repaired, ", %zu repaired (--lenient)",
                 r->games_repaired);
    cli_err("kifu: %zu file%s: %zu %s, %zu failed; %zu game%s: %zu %s%s, %zu failed "
            "(%.2f s)\n",
            files, files == 1 ? "" : "s", r->done, done, r->failed, games,
            games == 1 ? "" : "s", r->games_ok, done, repaired, r->games_bad, secs);
}

/* Every input through the batch (work on the threads, commit in input order), the
 * worst exit code; `status` is the worst so far. */
static int run_batch(const opts *o, const cli_inputs *in, int status)
{
    run r = {0};
    r.o = o;
    r.in = in;
    r.status = status;
    unsigned char *keep_ext = calloc(in->n + 1, 1);
    size_t *clash = calloc(in->n + 1, sizeof *clash);
    r.items = calloc(in->n + 1, sizeof *r.items);
    if (!keep_ext || !clash || !r.items || cli_out_plan(&o->dest, in, keep_ext, clash)) {
        cli_err("kifu: out of memory\n");
        free(keep_ext);
        free(clash);
        free(r.items);
        return EXIT_INTERNAL;
    }
    r.keep_ext = keep_ext;
    r.clash = clash;
    double t0 = cli_now();
    cli_progress_start(&r.bar, in->n, !o->quiet && in->n >= PROGRESS_MIN && isatty(2));
    int jobs = o->jobs ? o->jobs : cli_batch_default_jobs();
    /* A large buffer when stdout is a pipe or a file (a terminal stays line-buffered). */
    static char obuf[1 << 18];
    if (!isatty(STDOUT_FILENO))
        setvbuf(stdout, obuf, _IOFBF, sizeof obuf);
    cli_batch_run(in->n, jobs, work, commit, &r);
    if (o->gather)
        end_gathered(&r);
    if (!r.stdout_failed && (fflush(stdout) != 0 || ferror(stdout))) {
        cli_err("kifu: cannot write to standard output: %s\n", strerror(errno));
        worse(&r.status, EXIT_IO);
    }
    cli_progress_end(&r.bar);
    if (!o->quiet && (o->verbose || in->n > 1))
        summary(&r, cli_now() - t0);
    cli_skipped_report(&r.skipped, o->quiet);
    free(keep_ext);
    free(clash);
    free(r.items);
    cli_written_free(&r.out);
    return r.status;
}

static int run_command(int argc, char **argv, int validate)
{
    const char *cmd = validate ? "validate" : "convert";
    opts o = {0};
    o.validate = validate;
    o.to = KIFU_FMT_AUTO;
    char **files = malloc((size_t)argc * sizeof *files);
    int nfiles = 0;
    if (!files) {
        cli_err("kifu: out of memory\n");
        return EXIT_INTERNAL;
    }
    int status = parse_args(argc, argv, &o, files, &nfiles);
    if (status != EXIT_OK) {
        free(files);
        return status == EXIT_USAGE ? usage_error(cmd) : status;
    }
    if (o.tags && !(o.pool = cli_tag_pool_new(o.tag_file, &status))) {
        free(files);
        return status;
    }
    cli_inputs in = {0};
    status = gather_inputs(cmd, files, nfiles, &in);
    free(files);
    cli_inputs_guard(&in);
    cli_input_guard(o.tag_file);
    if (!validate && (in.n > 1 || in.dirs) && !o.out_dir &&
        !(o.out && strcmp(o.out, "-") == 0)) {
        cli_err("kifu: convert: %s: use --out-dir DIR (or -o - to concatenate on "
                "standard output)\n",
                in.dirs ? "a directory was named" : "several inputs");
        cli_inputs_free(&in);
        cli_tag_pool_free(o.pool);
        return usage_error(cmd);
    }
    /* -o - of JKF is JSON Lines: one game a line, and the line says its source. */
    o.dest = (cli_outdest){o.out_dir, o.out && strcmp(o.out, "-") != 0 ? o.out : NULL,
                           kifu_format_name(o.to)};
    o.jsonl = !validate && o.out && strcmp(o.out, "-") == 0 && o.to == KIFU_FMT_JKF &&
              !(o.wflags & KIFU_WRITE_PRETTY);
    set_stdout_mode(&o);
    if (o.single && (in.n > 1 || in.dirs)) {
        cli_err("kifu: convert: %s holds one game a file: several inputs cannot go to "
                "one output; use --out-dir DIR, or a format of several games (csa, "
                "sfen, posjson; jkf with -o - is JSON Lines)\n",
                kifu_format_name(o.to));
        cli_inputs_free(&in);
        return usage_error(cmd);
    }
    status = run_batch(&o, &in, status);
    cli_inputs_free(&in);
    cli_tag_pool_free(o.pool);
    return status;
}

int cmd_convert(int argc, char **argv)
{
    return run_command(argc, argv, 0);
}

int cmd_validate(int argc, char **argv)
{
    return run_command(argc, argv, 1);
}
