/* cmd_index.c: `kifu index build|add|compact|info|check|players`: a collection's games and
 * positions in one SQLite file (kifu_index_*), built from record files and directories,
 * grown by adding more, compacted, summed up and verified. The explorer over it is `kifu explore` (cmd_explore.c). */
#define _DEFAULT_SOURCE /* usleep */
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "batch.h"
#include "cli.h"
#include "inputs.h"
#include "progress.h"
#include "record_cursor.h"
#include "tag_pool.h"

void cmd_index_usage(FILE *f)
{
    fprintf(
        f,
        "usage: kifu index build DIR|FILE... -o games.kdb\n"
        "       kifu index add games.kdb DIR|FILE...\n"
        "       kifu index compact games.kdb\n"
        "       kifu index info games.kdb\n"
        "       kifu index check games.kdb\n"
        "       kifu index players games.kdb [--like TEXT] [--tag NAME]... [--json]\n"
        "       kifu index build|add DIR|FILE... --clickhouse URL[,URL...] [CH options]\n"
        "       kifu index info|compact --clickhouse URL[,URL...] [CH options]\n"
        "       kifu index schema --clickhouse [--cluster NAME] [--database NAME]\n"
        "Index a collection of records (any format kifu reads; directories are\n"
        "searched recursively) into one SQLite file: the games with their header\n"
        "fields and every position of their main lines, for `kifu explore` and\n"
        "`kifu search --index`. Its tables, for sqlite3 queries: index.md in the\n"
        "documents (share/doc/kifu; docs/ in the source tree).\n"
        "\n"
        "  build   make a new index (an existing file is replaced when done)\n"
        "  add     add files to an index in one transaction: a file indexed before\n"
        "          with the same content is skipped, a changed one replaced; a run\n"
        "          stopped midway leaves the index as it was\n"
        "  compact merge the runs of positions that adds leave (each add writes its\n"
        "          own, so that it costs what it adds) into one, as a build of the\n"
        "          same games writes them; one transaction. On ClickHouse: the\n"
        "          latest games' rows folded, one a position and move (run no add\n"
        "          meanwhile)\n"
        "  info    games, positions, hot positions, files, duplicates skipped, size\n"
        "  check   verify the whole file: SQLite's integrity check, every block of\n"
        "          positions and every game's moves against their checksums, each\n"
        "          decoded and counted; each damaged part named on stderr, the count\n"
        "          checked on stdout (every read checks the checksums too: a damaged\n"
        "          part fails a query with \"damaged\", exit 3, never a wrong answer)\n"
        "  players each player (by key: the name without spaces, rank, rating or\n"
        "          affiliation, widths and case folded) with its spellings, games,\n"
        "          results, rating range, first and last dates, and the 戦法 and 囲い\n"
        "          of its side most played, as sente and as gote\n"
        "  schema  print the ClickHouse tables' DDL, to review and run\n"
        "\n"
        "options:\n"
        "  -o, --output FILE  the index to build\n"
        "  -v, --verbose      a summary line: games, positions, files by outcome\n"
        "  -j, --jobs N       build, add: files read at once, on N threads (default 0:\n"
        "                     one per processor); the index, messages and exit status\n"
        "                     are the same for every N (ClickHouse: one thread)\n"
        "  --input-encoding ENC  the records' encoding (default: detected per file)\n"
        "  --lenient          a game with a move that cannot be played but that one\n"
        "                     legal move of its piece to its square explains (a relay's\n"
        "                     miscopied square) is indexed with that move, with a\n"
        "                     warning; a doubled time field is dropped\n"
        "  --no-tags          do not tag the games (by default each game's 戦法, 囲い\n"
        "                     and 備考 are recognised as it is read and stored, for\n"
        "                     explore --tag, search --index --tag and players)\n"
        "  --tag-file FILE    tag with FILE's definitions too (see kifu tags)\n"
        "  --tag NAME         players: only the games tagged NAME on the player's side\n"
        "                     (sente:NAME, gote:NAME as that side; repeated: all)\n"
        "  --wait SECONDS     wait this long for another process writing the index\n"
        "                     (default 30; 0: give up at once, \"index busy\")\n"
        "  --clickhouse URL   the index on ClickHouse instead of a file (http:// or\n"
        "                     https://; a cluster's shards as URLs in remote_servers\n"
        "                     order, with --cluster)\n" CLI_CH_HELP "\n"
        "A record that does not read, or has an illegal move, is reported and\n"
        "skipped, never half-indexed; a file that cannot be read is named and\n"
        "counted, and the others are indexed. One process writes an index at a\n"
        "time; a build keeps the old index locked until the new one replaces it.\n"
        "A progress bar shows on a terminal.\n"
        "Exit status: 0 done, 1 some records were skipped, 2 usage, 3 a file or the\n"
        "index could not be read or written, or the index is damaged (check: damage\n"
        "found), 4 out of memory.\n"
        "\n"
        "examples:\n"
        "  kifu index build games/ -o games.kdb\n"
        "  kifu index add games.kdb new/\n"
        "  kifu index compact games.kdb\n"
        "  kifu index info games.kdb\n"
        "  kifu index check games.kdb\n"
        "  kifu index players games.kdb --like 鎌田\n"
        "  kifu index players games.kdb --tag 四間飛車\n"
        "  kifu index add games/ --clickhouse http://127.0.0.1:8123\n");
}

/* --input-encoding and --lenient, for every file indexed. */
static int input_encoding = KIFU_ENC_AUTO, lenient;
/* KIFU_INDEX_KEEP_DUPLICATES with --keep-duplicates, for every open that adds. */
static unsigned add_flags;
/* --no-tags, or --tag-file FILE's tagger (freed when the command ends, after the index
 * it tags for is closed). */
static int no_tags;
static const char *tag_file;
static kifu_tagger *file_tagger;
/* -j: threads reading files (0: one per processor). */
static int jobs;
/* index players: --like TEXT, --json and --tag NAME (each, argv's). */
static const char *players_like;
static int players_json;
static const char **players_tags;
static size_t players_ntags;

/* A skipped record: the bar is cleared first so the message stands on its own line. */
static void warn_skipped(void *ctx, const char *message)
{
    cli_progress_clear(ctx);
    cli_err("kifu: warning: %s\n", message);
}

/* Did a file found in a directory fail as no record (skipped.c)? */
static int not_record(const cli_input *in, const kifu_error *e)
{
    if (!in->found)
        return 0;
    size_t len;
    kifu_error fe = {0};
    char *data = kifu_file_read(in->path, &len, &fe);
    int no = data && cli_not_record(in, KIFU_FMT_AUTO, e, data, len);
    kifu_free(data);
    return no;
}

/* A build writes a temp file: its errors name the index being built (the temp name
 * means nothing to the user and is gone). */
static const char *temp_name, *temp_for;

static void print_error(kifu_error *e)
{
    if (temp_name && strcmp(e->source, temp_name) == 0)
        snprintf(e->source, sizeof e->source, "%s", temp_for);
    cli_print_error(e);
}

/* The files of the arguments. An exit code (EXIT_IO when some could not be looked at:
 * they are named and counted, and the others indexed). */
static int gather(cli_inputs *in, char **args, int nargs)
{
    int status = EXIT_OK;
    for (int i = 0; i < nargs && status != EXIT_INTERNAL; i++) {
        int rc = cli_inputs_add(in, args[i]);
        status = rc > status ? rc : status;
    }
    return status;
}

/* What a run wrote, said once it is in place (a build's rename, an add's commit): never
 * "written" for what is not there. */
typedef struct report {
    int verbose;
    kifu_index_stats s;
    size_t walk_failed; /* entries of the directories that could not be looked at */
    size_t skipped;     /* files found that are no records (skipped.c), not failed */
    double t0;          /* when the writing began */
} report;

/* Said with -v, and when files were left out (the exit code alone would not tell that
 * the index was written all the same). */
static void say_written(const char *kdb, const report *r)
{
    const kifu_index_stats *s = &r->s;
    size_t failed = s->files_failed - r->skipped + r->walk_failed;
    if (r->verbose || failed)
        cli_err("kifu: %s: %zu games, %zu positions from %zu files (%zu new, %zu "
                "replaced, %zu unchanged, %zu failed; %zu records skipped, %zu "
                "repaired, %zu duplicates); written in %.1f s\n",
                kdb, s->games, s->positions,
                s->files_added + s->files_replaced + s->files_unchanged + failed,
                s->files_added, s->files_replaced, s->files_unchanged, failed,
                s->records_failed, s->records_repaired, s->duplicates, cli_now() - r->t0);
}

/* The inputs of one add: each file read on a worker (kifu_index_file_prepare, with a
 * tagger of the pool) and added on this thread in input order (batch.h), so that the
 * index, the messages and the exit code are the same for any -j. With one thread the
 * files are added as they are read (kifu_index_add_file). */
typedef struct add_run {
    kifu_index *ix;
    cli_inputs *in;
    kifu_index_file **prepared;
    cli_tag_pool *pool; /* NULL: no tags */
    cli_progress *bar;
    cli_skipped skipped;
    int status, index_failed;
} add_run;

static void add_work(void *ctx, size_t i)
{
    add_run *a = ctx;
    if (!a->prepared || strcmp(a->in->v[i].path, "-") == 0)
        return;
    kifu_tagger *t = a->pool ? cli_tag_pool_get(a->pool) : NULL;
    /* No tagger (out of memory): not prepared, added on the calling thread. */
    if (t || !a->pool)
        a->prepared[i] = kifu_index_file_prepare(a->ix, a->in->v[i].path, t);
    if (t)
        cli_tag_pool_put(a->pool, t);
}

/* A file that did not add: named, counted in the exit code, and the run ended when the
 * index itself failed. */
static void add_failed(add_run *a, size_t i, kifu_error *e, size_t failed0)
{
    cli_progress_clear(a->bar);
    print_error(e);
    /* A file that could not be read is EXIT_IO, one that does not read as records
     * EXIT_INPUT: counted as failed, the others go on. Out of memory, or a batch that
     * could not be written (no file counted), ends the run. */
    int rc = e->code == KIFU_ERR_NOMEM ? EXIT_INTERNAL
             : e->code == KIFU_ERR_IO  ? EXIT_IO
                                       : EXIT_INPUT;
    /* An I/O error on a file that reads is the index's own (a server down, a disk
     * full): every file after would fail the same way, each after its retries. */
    if (e->code == KIFU_ERR_NOMEM ||
        kifu_index_stats_get(a->ix)->files_failed == failed0 ||
        (e->code == KIFU_ERR_IO && access(a->in->v[i].path, R_OK) == 0)) {
        a->index_failed = 1;
        rc = rc > EXIT_IO ? rc : EXIT_IO;
    }
    a->status = rc > a->status ? rc : a->status;
}

static void add_commit(void *ctx, size_t i)
{
    add_run *a = ctx;
    kifu_index_file *f = a->prepared ? a->prepared[i] : NULL;
    const char *path = a->in->v[i].path;
    if (a->prepared)
        a->prepared[i] = NULL;
    if (a->index_failed || a->status == EXIT_INTERNAL) {
        kifu_index_file_free(f);
        return;
    }
    kifu_error e = {0};
    if (strcmp(path, "-") == 0) {
        cli_err("kifu: an index holds files: stdin cannot be indexed\n");
        a->status = a->status > EXIT_USAGE ? a->status : EXIT_USAGE;
        cli_progress_update(a->bar, i + 1, path);
        return;
    }
    size_t failed0 = kifu_index_stats_get(a->ix)->files_failed;
    /* Not prepared (out of memory on the worker): read here, where the error names the
     * file, as with one thread. */
    int added = f ? kifu_index_file_add(a->ix, f, warn_skipped, a->bar, &e)
                  : kifu_index_add_file(a->ix, path, warn_skipped, a->bar, &e);
    if (added < 0 && not_record(&a->in->v[i], &e))
        cli_skipped_add(&a->skipped, path);
    else if (added < 0)
        add_failed(a, i, &e, failed0);
    if (!a->index_failed)
        cli_progress_update(a->bar, i + 1, path);
}

/* Index every input, then write it all in one transaction. An exit code; *index_failed
 * when the index itself could not be written (a file that does not read only costs
 * itself: it is named, counted, and the exit code says so). The counts go in *r.
 * ClickHouse adds on one thread (threads: 1). */
static int add_inputs(kifu_index *ix, cli_inputs *in, int status, report *r,
                      int *index_failed, int threads)
{
    cli_progress bar;
    cli_progress_start(&bar, in->n, in->n >= 8 && isatty(STDERR_FILENO));
    kifu_index_set_read(ix, input_encoding,
                        lenient ? KIFU_READ_LENIENT | KIFU_READ_REPAIR : 0u);
    if (no_tags || file_tagger)
        kifu_index_set_tagger(ix, file_tagger);
    kifu_error e = {0};
    add_run a = {.ix = ix, .in = in, .bar = &bar, .status = status};
    int n = threads ? threads : jobs ? jobs : cli_batch_default_jobs();
    kifu_index_set_jobs(ix, n);
    if (n > 1 && in->n > 1) {
        int ps = EXIT_OK;
        a.prepared = calloc(in->n, sizeof *a.prepared);
        if (!no_tags && !(a.pool = cli_tag_pool_new(tag_file, &ps)))
            a.status = ps > a.status ? ps : a.status;
        if (!a.prepared)
            a.status = EXIT_INTERNAL;
    }
    if (a.status != EXIT_INTERNAL)
        cli_batch_run(in->n, a.prepared ? n : 1, add_work, add_commit, &a);
    free(a.prepared);
    cli_tag_pool_free(a.pool);
    status = a.status;
    *index_failed = a.index_failed;
    cli_progress_end(&bar);
    r->skipped = a.skipped.n; /* the library counts them failed */
    cli_skipped_report(&a.skipped, 0);
    if (*index_failed)
        return status;
    r->t0 = cli_now();
    r->walk_failed = in->failed;
    if (kifu_index_flush(ix, &e)) {
        print_error(&e);
        *index_failed = 1;
        return cli_index_exit_code(e.code);
    }
    r->s = *kifu_index_stats_get(ix);
    if (r->s.records_failed && status == EXIT_OK)
        status = EXIT_INPUT;
    return status;
}

static int close_index(kifu_index *ix, int status, int *index_failed)
{
    kifu_error e = {0};
    if (kifu_index_close(ix, &e)) {
        print_error(&e);
        *index_failed = 1;
        int rc = cli_index_exit_code(e.code);
        return rc > status ? rc : status;
    }
    return status;
}

/* Another process is writing the index: said once, then tried again every 0.1 s until
 * `wait` seconds have passed. 1: try again; 0: give up (the caller prints the error). */
static int wait_turn(const char *kdb, double wait, double *since, const char *what)
{
    if (*since == 0) {
        *since = cli_now();
        if (wait > 0)
            cli_err("kifu: %s: another process is %s this index; waiting up to %g s "
                    "(--wait)\n",
                    kdb, what, wait);
    }
    if (cli_now() - *since >= wait)
        return 0;
    usleep(100000);
    return 1;
}

/* Open an index to write, waiting for the writer before. NULL with a message and
 * *status the exit code. */
static kifu_index *open_writer(const char *kdb, double wait, int *status)
{
    kifu_error e = {0};
    kifu_index *ix;
    double since = 0;
    while (!(ix = kifu_index_open(kdb, KIFU_INDEX_NOWAIT | add_flags, &e)) &&
           e.code == KIFU_ERR_BUSY && wait_turn(kdb, wait, &since, "writing"))
        kifu_error_clear(&e);
    if (!ix) {
        cli_print_error(&e);
        *status = cli_index_exit_code(e.code);
        return NULL;
    }
    /* What builds killed before (kill -9) left beside the index (or the file a link to
     * it names) goes on this write too, not only on the next build. */
    char real[PATH_MAX];
    cli_clean_beside(realpath(kdb, real) ? real : kdb);
    return ix;
}

/* The index being built and SQLite's files beside it, removed when the run is
 * interrupted (a signal's default then ends the process), and the empty file made to
 * hold the lock of a new index ([4], when it was made). Paths are made before the
 * handler can run: it only unlinks. */
static char building[5][PATH_MAX + 16];
static volatile sig_atomic_t made_target;

static void remove_building(void)
{
    for (int i = 0; i < 4; i++)
        unlink(building[i]);
}

static void on_signal(int sig)
{
    remove_building();
    if (made_target)
        unlink(building[4]);
    signal(sig, SIG_DFL);
    raise(sig);
}

static void catch_signals(void (*fn)(int))
{
    signal(SIGINT, fn);
    signal(SIGTERM, fn);
    signal(SIGHUP, fn);
}

/* Signals are held while the new index is renamed into place, and from then on to the
 * end of the process: a build that ends by a signal has left the old index, one that
 * exits has put the new one (a signal that came just after the rename was lost, not
 * the index). */
static void hold_signals(sigset_t *old)
{
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGHUP);
    sigprocmask(SIG_BLOCK, &set, old);
}

/* SQLite names its files beside the index by appending to its name: "-journal" is the
 * longest. */
#define SQLITE_SUFFIX 8

static int build(char **args, int nargs, const char *out, int verbose, double wait)
{
    cli_inputs in = {0};
    int status = gather(&in, args, nargs);
    if (status == EXIT_INTERNAL) {
        cli_inputs_free(&in);
        return status;
    }
    cli_inputs_guard(&in);
    if (cli_is_input(out)) {
        cli_err("kifu: %s: not written: it is one of the inputs\n", out);
        cli_inputs_free(&in);
        return EXIT_USAGE;
    }
    const char *slash = strrchr(out, '/');
    if (strlen(slash ? slash + 1 : out) + SQLITE_SUFFIX > NAME_MAX) {
        cli_err("kifu: %s: the name is too long for an index: SQLite adds \"-journal\" "
                "to it (at most %d bytes)\n",
                out, NAME_MAX - SQLITE_SUFFIX);
        cli_inputs_free(&in);
        return EXIT_USAGE;
    }
    /* The old index is locked for the whole build, so that an add meanwhile waits
     * instead of writing what the new file would then replace. */
    catch_signals(on_signal);
    kifu_error e = {0};
    kifu_index_lock *lk;
    double since = 0;
    while (!(lk = kifu_index_lock_take(out, KIFU_INDEX_NOWAIT, &e)) &&
           e.code == KIFU_ERR_BUSY && wait_turn(out, wait, &since, "writing"))
        kifu_error_clear(&e);
    if (!lk) {
        cli_print_error(&e);
        cli_inputs_free(&in);
        return cli_exit_code(e.code);
    }
    const char *target = kifu_index_lock_path(lk);
    struct stat st;
    if (stat(target, &st) == 0 && st.st_size == 0) {
        snprintf(building[4], sizeof building[4], "%s", target);
        made_target =
            1; /* only ours is empty: another's is locked or has been replaced */
    }
    /* Built beside the target, renamed over it at the end: an index being built is
     * never seen, and a failed build leaves the old one. */
    char *tmp = building[0], suffix[40];
    snprintf(suffix, sizeof suffix, CLI_BUILD_MARK "%ld", (long)getpid());
    static const char *const side[3] = {"-wal", "-shm", "-journal"};
    if (cli_temp_name(tmp, PATH_MAX, target, suffix, SQLITE_SUFFIX)) {
        cli_err("kifu: %s: path too long\n", out);
        made_target = 0;
        kifu_index_lock_release(lk);
        cli_inputs_free(&in);
        return EXIT_USAGE;
    }
    for (int i = 0; i < 3; i++)
        snprintf(building[i + 1], sizeof building[i + 1], "%.*s%s", PATH_MAX - 1, tmp,
                 side[i]);
    cli_clean_beside(tmp); /* builds killed before (kill -9) */
    remove_building();
    int failed = 0;
    report rep = {.verbose = verbose};
    temp_name = tmp, temp_for = out;
    kifu_index *ix =
        kifu_index_open(tmp, KIFU_INDEX_CREATE | KIFU_INDEX_BULK | add_flags, &e);
    if (!ix) {
        print_error(&e);
        status = cli_index_exit_code(e.code);
        failed = 1;
    } else {
        status = add_inputs(ix, &in, status, &rep, &failed, 0);
        /* Files named, none of them read (a misspelt directory): an empty index would
         * replace the old one for nothing. */
        const kifu_index_stats *s = kifu_index_stats_get(ix);
        if (!failed && s->files_added + s->files_replaced + s->files_unchanged == 0 &&
            s->files_failed + in.failed > 0) {
            cli_err("kifu: %s: not written: no file could be read\n", out);
            failed = 1;
        }
        status = close_index(ix, status, &failed);
    }
    cli_inputs_free(&in);
    if (!failed) {
        /* Readers of the old index hold it up (SQLite's log must be folded in). */
        since = 0;
        int rc;
        for (;;) {
            sigset_t old;
            hold_signals(&old);
            if (!(rc = kifu_index_lock_replace(lk, tmp, &e)))
                break;
            sigprocmask(SIG_SETMASK, &old, NULL); /* not replaced: a signal ends it */
            if (e.code != KIFU_ERR_BUSY || !wait_turn(out, wait, &since, "reading"))
                break;
            kifu_error_clear(&e);
        }
        if (rc) {
            snprintf(e.source, sizeof e.source, "%s", out);
            cli_print_error(&e);
            rc = cli_exit_code(e.code);
            status = rc > status ? rc : status;
            failed = 1;
        }
    }
    if (failed)
        remove_building();
    else
        say_written(out, &rep);
    made_target = 0;
    kifu_index_lock_release(lk); /* removes the empty file it made, unless replaced */
    return status;
}

/* Where a ClickHouse index is (--clickhouse and its options). */
typedef struct ch_target {
    const char *url;
    kifu_clickhouse_options o;
} ch_target;

static kifu_index *open_ch(const ch_target *ch, unsigned flags)
{
    kifu_error e = {0};
    kifu_index *ix = kifu_index_open_clickhouse(ch->url, flags, &ch->o, &e);
    if (!ix)
        cli_print_error(&e);
    return ix;
}

static int add_ch(const ch_target *ch, char **args, int nargs, int verbose)
{
    cli_inputs in = {0};
    int status = gather(&in, args, nargs), failed;
    kifu_index *ix =
        status == EXIT_INTERNAL ? NULL : open_ch(ch, KIFU_INDEX_CREATE | add_flags);
    report rep = {.verbose = verbose};
    if (ix) {
        failed = 0;
        status = close_index(ix, add_inputs(ix, &in, status, &rep, &failed, 1), &failed);
        if (!failed)
            say_written(ch->url, &rep);
    }
    cli_inputs_free(&in);
    return ix ? status : status > EXIT_IO ? status : EXIT_IO;
}

static int schema(const ch_target *ch)
{
    kifu_error e = {0};
    char *ddl = kifu_clickhouse_schema(&ch->o, &e);
    if (!ddl) {
        cli_err("kifu: index schema: %s\n", e.message);
        return cli_exit_code(e.code);
    }
    fputs(ddl, stdout);
    kifu_free(ddl);
    return EXIT_OK;
}

static int add(const char *kdb, char **args, int nargs, int verbose, double wait)
{
    cli_inputs in = {0};
    int status = gather(&in, args, nargs), failed;
    cli_inputs_guard(&in);
    if (status != EXIT_INTERNAL && cli_is_input(kdb)) {
        cli_err("kifu: %s: the index is one of the files to add\n", kdb);
        status = EXIT_USAGE;
    } else if (status != EXIT_INTERNAL) {
        int rc;
        kifu_index *ix = open_writer(kdb, wait, &rc);
        if (!ix)
            status = rc > status ? rc : status;
        else {
            report rep = {.verbose = verbose};
            failed = 0;
            status =
                close_index(ix, add_inputs(ix, &in, status, &rep, &failed, 0), &failed);
            if (!failed)
                say_written(kdb, &rep);
        }
    }
    cli_inputs_free(&in);
    return status;
}

/* On ClickHouse: the latest games' rows folded, one a position and move (the engine cannot
 * fold them while merging); an add must not run meanwhile. */
static int compact(const char *kdb, const ch_target *ch, double wait)
{
    kifu_error e = {0};
    int status = EXIT_OK, failed;
    kifu_index *ix = ch->url ? open_ch(ch, 0) : open_writer(kdb, wait, &status);
    if (!ix)
        return ch->url ? EXIT_IO : status;
    if (kifu_index_compact(ix, &e)) {
        cli_print_error(&e);
        status = cli_index_exit_code(e.code);
    }
    return close_index(ix, status, &failed);
}

/* info, or with players set the players (like, json). */
static int info(const char *kdb, const ch_target *ch, int players, const char *like,
                int json)
{
    kifu_error e = {0};
    kifu_index *ix = ch->url ? open_ch(ch, KIFU_INDEX_READONLY)
                             : kifu_index_open(kdb, KIFU_INDEX_READONLY, &e);
    if (!ix) {
        if (ch->url)
            return EXIT_IO;
        cli_print_error(&e);
        return cli_index_exit_code(e.code);
    }
    kifu_index_info in;
    int status = EXIT_OK;
    if (players) {
        status = cli_index_players(ix, like, players_tags, players_ntags, json);
    } else if (kifu_index_info_get(ix, &in, &e)) {
        cli_print_error(&e);
        status = cli_index_exit_code(e.code);
    } else {
        printf("games      %lld\n"
               "positions  %lld\n"
               "hot        %lld (positions whose explorer rows are counted ahead)\n"
               "files      %lld\n",
               in.games, in.positions, in.hot_positions, in.sources);
        if (in.duplicates >= 0)
            printf("duplicates %lld (games skipped as indexed already)\n", in.duplicates);
        printf("bytes      %lld (%.1f a position)\n", in.bytes,
               in.positions ? (double)in.bytes / (double)in.positions : 0.0);
    }
    int failed;
    return close_index(ix, status, &failed);
}

/* index check: each damaged part said (the first CHECK_SAID of them: the rest counted). */
#define CHECK_SAID 100

static void say_damage(void *ctx, const kifu_error *damage)
{
    long long *n = ctx;
    if (++*n <= CHECK_SAID)
        cli_print_error(damage);
}

static int check(const char *kdb)
{
    kifu_error e = {0};
    kifu_index *ix = kifu_index_open(kdb, KIFU_INDEX_READONLY, &e);
    if (!ix) {
        cli_print_error(&e);
        return cli_index_exit_code(e.code);
    }
    long long said = 0;
    kifu_index_check_counts n;
    int rc = kifu_index_check(ix, say_damage, &said, &n, &e), status = EXIT_OK;
    if (rc < 0) {
        cli_print_error(&e);
        status = cli_index_exit_code(e.code);
    } else {
        if (said > CHECK_SAID)
            cli_err("kifu: %s: %lld more damaged parts not shown\n", kdb,
                    said - CHECK_SAID);
        printf("%s: checked %lld blocks of positions and %lld games: ", kdb, n.blocks,
               n.games);
        if (rc)
            printf("%lld damaged (rebuild with kifu index build)\n", n.damaged);
        else
            printf("no damage\n");
        status = rc ? EXIT_IO : EXIT_OK;
    }
    int failed;
    return close_index(ix, status, &failed);
}

/* A subcommand on an index file (build, add, compact, info, players; info and players
 * also on ClickHouse), its arguments checked. An exit code. */
static int file_command(const char *sub, char **args, int nargs, const char *out,
                        int verbose, double wait, ch_target *ch)
{
    int status = EXIT_OK, players = !strcmp(sub, "players");
    if (!strcmp(sub, "build")) {
        if (!out || !nargs) {
            cli_err("kifu: index build: %s\n",
                    !out ? "say where with -o games.kdb" : "no file to index");
            status = EXIT_USAGE;
        } else {
            status = build(args, nargs, out, verbose, wait);
        }
    } else if (!strcmp(sub, "add")) {
        if (nargs < 2 || out) {
            cli_err("kifu: index add: give the index, then the files to add\n");
            status = EXIT_USAGE;
        } else {
            status = add(args[0], args + 1, nargs - 1, verbose, wait);
        }
    } else if (!strcmp(sub, "compact")) {
        if (nargs != !ch->url || out) {
            cli_err("kifu: index compact: give one index%s\n",
                    ch->url ? " (--clickhouse names it: no file)" : "");
            status = EXIT_USAGE;
        } else {
            status = compact(ch->url ? NULL : args[0], ch, wait);
        }
    } else if (!strcmp(sub, "check")) {
        if (ch->url) {
            cli_err("kifu: index check: is for index files; ClickHouse checks its own "
                    "tables (CHECK TABLE)\n");
            status = EXIT_USAGE;
        } else if (nargs != 1 || out) {
            cli_err("kifu: index check: give one index\n");
            status = EXIT_USAGE;
        } else {
            status = check(args[0]);
        }
    } else if ((!strcmp(sub, "info") || players) && ch->url) {
        status = info(NULL, ch, players, players_like, players_json);
    } else if (!strcmp(sub, "info") || players) {
        if (nargs != 1 || out) {
            cli_err("kifu: index %s: give one index\n", sub);
            status = EXIT_USAGE;
        } else {
            status = info(args[0], ch, players, players_like, players_json);
        }
    } else {
        cli_err("kifu: index: unknown subcommand '%s' (build, add, compact, info, "
                "check, players, schema)\n",
                sub);
        status = EXIT_USAGE;
    }
    return status;
}

/* index players' --like TEXT, --json or --tag NAME at argv[*i] (*i moved past a value):
 * 1, and EXIT_USAGE in *status when the value is missing; 0: another option. */
static int players_option(int argc, char **argv, int *i, int *status)
{
    const char *a = argv[*i];
    if (!strcmp(a, "--json")) {
        players_json = 1;
        return 1;
    }
    int like = !strcmp(a, "--like");
    if (!like && strcmp(a, "--tag"))
        return 0;
    if (*i + 1 >= argc) {
        cli_err("kifu: %s needs a value\n", a);
        *status = EXIT_USAGE;
    } else if (like) {
        players_like = argv[++*i];
    } else if (players_tags ||
               (players_tags = calloc((size_t)argc, sizeof *players_tags))) {
        players_tags[players_ntags++] = argv[++*i];
    } else {
        *status = EXIT_INTERNAL;
    }
    return 1;
}

/* -j N, -jN or --jobs[=]N (argv[*i]; *i moved past a separate value): the threads of
 * build and add (0: one per processor). An exit code. */
int cmd_index(int argc, char **argv)
{
    if (argc < 2) {
        cli_err(
            "kifu: index: say build, add, compact, info, check, players or schema; see "
            "'kifu index --help'\n");
        return EXIT_USAGE;
    }
    const char *sub = argv[1], *out = NULL, *wait_arg = NULL;
    int verbose = 0, nargs = 0, jobs_given = 0, jobs_opt;
    char **args = calloc((size_t)argc, sizeof *args);
    if (!args)
        return EXIT_INTERNAL;
    int status = EXIT_OK, only_files = 0, is_schema = !strcmp(sub, "schema");
    ch_target ch = {0};
    ch.o.timeout_ms = CLI_CH_TIMEOUT_MS;
    for (int i = 2; i < argc && status == EXIT_OK; i++) {
        const char *a = argv[i];
        const char **value = !strcmp(a, "-o") || !strcmp(a, "--output") ? &out
                             : !strcmp(a, "--wait")                     ? &wait_arg
                             : !strcmp(a, "--tag-file")                 ? &tag_file
                                                                        : NULL;
        /* schema: --clickhouse takes no URL (the DDL is ClickHouse's anyway) */
        int chopt = only_files || (is_schema && !strcmp(a, "--clickhouse"))
                        ? 0
                        : cli_ch_option(argc, argv, &i, &ch.url, &ch.o);
        if (chopt) {
            status = chopt < 0 ? EXIT_USAGE : status;
        } else if (only_files || a[0] != '-' || !a[1]) {
            args[nargs++] = argv[i];
        } else if (value) {
            if (i + 1 >= argc) {
                cli_err("kifu: %s needs a value\n", a);
                status = EXIT_USAGE;
            } else {
                *value = argv[++i];
            }
        } else if (!strcmp(a, "--clickhouse")) {
            ; /* schema: the DDL is ClickHouse's anyway */
        } else if (!strcmp(a, "--input-encoding")) {
            if (i + 1 >= argc) {
                cli_err("kifu: %s needs a value\n", a);
                status = EXIT_USAGE;
            } else if (cli_parse_encoding(argv[++i], &input_encoding)) {
                status = EXIT_USAGE;
            }
        } else if (!strcmp(a, "--lenient")) {
            lenient = 1;
        } else if ((jobs_opt = cli_jobs_option(argc, argv, &i, &jobs)) != 0) {
            status = jobs_opt < 0 ? EXIT_USAGE : status;
            jobs_given = 1;
        } else if (!strcmp(a, "-v") || !strcmp(a, "--verbose")) {
            verbose = 1;
        } else if (!strcmp(a, "--no-tags")) {
            no_tags = 1;
        } else if (!strcmp(a, "--keep-duplicates")) {
            add_flags |= KIFU_INDEX_KEEP_DUPLICATES;
        } else if (players_option(argc, argv, &i, &status)) {
            ; /* --like, --json, --tag */
        } else if (!strcmp(a, "--")) {
            only_files = 1;
        } else {
            free(args);
            return cli_unknown_option("index", a);
        }
    }
    double wait = 30;
    if (status == EXIT_OK && wait_arg) {
        char *end;
        wait = strtod(wait_arg, &end);
        if (end == wait_arg || *end || !(wait >= 0 && wait <= 86400)) {
            cli_err("kifu: --wait takes seconds (0 to 86400), not '%s'\n", wait_arg);
            status = EXIT_USAGE;
        }
    }
    int players = !strcmp(sub, "players");
    int adds = !strcmp(sub, "build") || !strcmp(sub, "add");
    if (status == EXIT_OK && (no_tags || tag_file || jobs_given) && !adds) {
        cli_err("kifu: index %s: -j, --no-tags and --tag-file are for build and add\n",
                sub);
        status = EXIT_USAGE;
    } else if (status == EXIT_OK && no_tags && tag_file) {
        cli_err("kifu: --no-tags or --tag-file, not both\n");
        status = EXIT_USAGE;
    } else if (status == EXIT_OK && tag_file &&
               !(file_tagger = cli_tagger_new(tag_file, &status))) {
        ; /* said */
    } else if (status == EXIT_OK && (players_like || players_json || players_ntags) &&
               !players) {
        cli_err("kifu: index %s: --like, --json and --tag are for index players\n", sub);
        status = EXIT_USAGE;
    } else if (status == EXIT_OK && ch.url && strcmp(sub, "info") && !players &&
               strcmp(sub, "check") && strcmp(sub, "compact") && nargs < 1) {
        cli_err("kifu: index %s: no file to index\n", sub);
        status = EXIT_USAGE;
    } else if (status == EXIT_OK && ch.url &&
               (out || !strcmp(sub, "info") || players ? nargs : 0)) {
        cli_err("kifu: index %s: --clickhouse names the index: no file%s\n", sub,
                out ? " and no -o" : "");
        status = EXIT_USAGE;
    } else if (status == EXIT_OK && ch.url &&
               (!strcmp(sub, "build") || !strcmp(sub, "add"))) {
        status = add_ch(&ch, args, nargs, verbose);
    } else if (status == EXIT_OK && is_schema) {
        if (nargs || out) {
            cli_err("kifu: index schema takes options only\n");
            status = EXIT_USAGE;
        } else {
            status = schema(&ch);
        }
    } else if (status == EXIT_OK) {
        status = file_command(sub, args, nargs, out, verbose, wait, &ch);
    }
    if (status == EXIT_USAGE)
        cli_err("kifu: see 'kifu index --help'\n");
    free(args), free(players_tags);
    kifu_tags_free(file_tagger);
    return status;
}
