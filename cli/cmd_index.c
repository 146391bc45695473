/* cmd_index.c: `kifu index build|add|compact|info|players`: a collection's games and positions in
 * one SQLite file (kifu_index_*), built from record files and directories, grown by
 * adding more, compacted, and summed up. The explorer over it is `kifu explore` (cmd_explore.c). */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "inputs.h"
#include "progress.h"

void cmd_index_usage(FILE *f)
{
    fprintf(
        f,
        "usage: kifu index build DIR|FILE... -o games.kdb\n"
        "       kifu index add games.kdb DIR|FILE...\n"
        "       kifu index compact games.kdb\n"
        "       kifu index info games.kdb\n"
        "       kifu index players games.kdb [--like TEXT] [--json]\n"
        "       kifu index build|add DIR|FILE... --clickhouse URL[,URL...] [CH options]\n"
        "       kifu index info --clickhouse URL[,URL...] [CH options]\n"
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
        "          same games writes them; one transaction\n"
        "  info    games, positions, hot positions, files, duplicates skipped, size\n"
        "  players each player (by key: the name without spaces, rank, rating or\n"
        "          affiliation, widths and case folded) with its spellings, games,\n"
        "          results, rating range, first and last dates\n"
        "  schema  print the ClickHouse tables' DDL, to review and run\n"
        "\n"
        "options:\n"
        "  -o, --output FILE  the index to build\n"
        "  -v, --verbose      a summary line: games, positions, files by outcome\n"
        "  --keep-duplicates  add a game the index holds already (same moves from\n"
        "                     the same start, same players and date) again; by\n"
        "                     default it is skipped and counted\n"
        "  --like TEXT        players: those whose key contains TEXT's key\n"
        "  --json             players: one JSON object a line\n"
        "  --clickhouse URL   the index on ClickHouse instead of a file (HTTP; a\n"
        "                     cluster's shards as URLs in remote_servers order, with\n"
        "                     --cluster); user and password from KIFU_CLICKHOUSE_USER\n"
        "                     and KIFU_CLICKHOUSE_PASSWORD\n"
        "  --database NAME    ClickHouse database (default kifu)\n"
        "  --table PREFIX     ClickHouse table names PREFIX_positions... (default kifu)\n"
        "  --cluster NAME     the remote_servers cluster of the Distributed tables\n"
        "\n"
        "A record that does not read, or has an illegal move, is reported and\n"
        "skipped, never half-indexed. A progress bar shows on a terminal.\n"
        "Exit status: 0 done, 1 some records were skipped, 2 usage, 3 a file or the\n"
        "index could not be read or written, 4 out of memory.\n"
        "\n"
        "examples:\n"
        "  kifu index build games/ -o games.kdb\n"
        "  kifu index add games.kdb new/\n"
        "  kifu index compact games.kdb\n"
        "  kifu index info games.kdb\n"
        "  kifu index players games.kdb --like 鎌田\n"
        "  kifu index add games/ --clickhouse http://127.0.0.1:8123\n");
}

/* KIFU_INDEX_KEEP_DUPLICATES with --keep-duplicates, for every open that adds. */
static unsigned add_flags;

/* A skipped record: the bar is cleared first so the message stands on its own line. */
static void warn_skipped(void *ctx, const char *message)
{
    cli_progress_clear(ctx);
    cli_err("kifu: warning: %s\n", message);
}

/* Queue every input, then write it all in one transaction. An exit code. */
static int add_inputs(kifu_index *ix, const char *kdb, char **args, int nargs,
                      int verbose)
{
    cli_inputs in = {0};
    int status = EXIT_OK;
    for (int i = 0; i < nargs && status != EXIT_INTERNAL; i++) {
        int rc = cli_inputs_add(&in, args[i]);
        status = rc > status ? rc : status;
    }
    cli_progress bar;
    cli_progress_start(&bar, in.n, in.n >= 8 && isatty(STDERR_FILENO));
    kifu_error e = {0};
    for (size_t i = 0; i < in.n && status != EXIT_INTERNAL; i++) {
        kifu_error_clear(&e);
        if (strcmp(in.v[i].path, "-") == 0) {
            cli_err("kifu: an index holds files: stdin cannot be indexed\n");
            status = status > EXIT_USAGE ? status : EXIT_USAGE;
        } else if (kifu_index_add_file(ix, in.v[i].path, warn_skipped, &bar, &e) < 0) {
            cli_progress_clear(&bar);
            cli_print_error(&e);
            int rc = e.code == KIFU_ERR_NOMEM ? EXIT_INTERNAL : EXIT_INPUT;
            status = rc > status ? rc : status;
        }
        cli_progress_update(&bar, i + 1, in.v[i].path);
    }
    cli_progress_end(&bar);
    cli_inputs_free(&in);
    double t0 = cli_now();
    if (kifu_index_flush(ix, &e)) {
        cli_print_error(&e);
        return cli_exit_code(e.code);
    }
    const kifu_index_stats *s = kifu_index_stats_get(ix);
    if (s->records_failed && status == EXIT_OK)
        status = EXIT_INPUT;
    if (verbose)
        cli_err("kifu: %s: %zu games, %zu positions from %zu files (%zu new, %zu "
                "replaced, %zu unchanged, %zu failed; %zu records skipped, %zu "
                "duplicates); written in %.1f s\n",
                kdb, s->games, s->positions,
                s->files_added + s->files_replaced + s->files_unchanged + s->files_failed,
                s->files_added, s->files_replaced, s->files_unchanged, s->files_failed,
                s->records_failed, s->duplicates, cli_now() - t0);
    return status;
}

static int close_index(kifu_index *ix, int status)
{
    kifu_error e = {0};
    if (kifu_index_close(ix, &e)) {
        cli_print_error(&e);
        int rc = cli_exit_code(e.code);
        return rc > status ? rc : status;
    }
    return status;
}

/* The index being built and SQLite's files beside it, removed when the run is
 * interrupted (a signal's default then ends the process). Paths are made before the
 * handler can run: it only unlinks. */
static char building[4][4200];

static void remove_building(void)
{
    for (int i = 0; i < 4; i++)
        unlink(building[i]);
}

static void on_signal(int sig)
{
    remove_building();
    signal(sig, SIG_DFL);
    raise(sig);
}

static int build(char **args, int nargs, const char *out, int verbose)
{
    /* Built beside the target, renamed over it at the end: an index being built is
     * never seen, and a failed build leaves the old one. */
    char *tmp = building[0];
    snprintf(tmp, sizeof building[0], "%s.kifu-build-%ld", out, (long)getpid());
    static const char *const side[3] = {"-wal", "-shm", "-journal"};
    for (int i = 0; i < 3; i++)
        snprintf(building[i + 1], sizeof building[i + 1], "%.4180s%s", tmp, side[i]);
    remove_building();
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    signal(SIGHUP, on_signal);
    kifu_error e = {0};
    kifu_index *ix =
        kifu_index_open(tmp, KIFU_INDEX_CREATE | KIFU_INDEX_BULK | add_flags, &e);
    if (!ix) {
        snprintf(e.source, sizeof e.source, "%s", out); /* the temp name means nothing */
        cli_print_error(&e);
        return cli_exit_code(e.code);
    }
    int status = close_index(ix, add_inputs(ix, out, args, nargs, verbose));
    if (status > EXIT_INPUT) {
        remove_building();
        return status;
    }
    if (rename(tmp, out)) {
        cli_err("kifu: %s: cannot replace it with the new index\n", out);
        remove_building();
        return EXIT_IO;
    }
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
    kifu_index *ix = open_ch(ch, KIFU_INDEX_CREATE | add_flags);
    return ix ? close_index(ix, add_inputs(ix, ch->url, args, nargs, verbose)) : EXIT_IO;
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

static int add(const char *kdb, char **args, int nargs, int verbose)
{
    kifu_error e = {0};
    kifu_index *ix = kifu_index_open(kdb, add_flags, &e);
    if (!ix) {
        cli_print_error(&e);
        return cli_exit_code(e.code);
    }
    return close_index(ix, add_inputs(ix, kdb, args, nargs, verbose));
}

static int compact(const char *kdb)
{
    kifu_error e = {0};
    kifu_index *ix = kifu_index_open(kdb, 0, &e);
    if (!ix) {
        cli_print_error(&e);
        return cli_exit_code(e.code);
    }
    int status = EXIT_OK;
    if (kifu_index_compact(ix, &e)) {
        cli_print_error(&e);
        status = cli_exit_code(e.code);
    }
    return close_index(ix, status);
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
        return cli_exit_code(e.code);
    }
    kifu_index_info in;
    int status = EXIT_OK;
    if (players) {
        status = cli_index_players(ix, like, json);
    } else if (kifu_index_info_get(ix, &in, &e)) {
        cli_print_error(&e);
        status = cli_exit_code(e.code);
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
    return close_index(ix, status);
}

int cmd_index(int argc, char **argv)
{
    if (argc < 2) {
        cli_err(
            "kifu: index: say build, add, compact, info, players or schema; see 'kifu "
            "index --help'\n");
        return EXIT_USAGE;
    }
    const char *sub = argv[1], *out = NULL, *like = NULL;
    int verbose = 0, nargs = 0, json = 0;
    char **args = calloc((size_t)argc, sizeof *args);
    if (!args)
        return EXIT_INTERNAL;
    int status = EXIT_OK, only_files = 0, is_schema = !strcmp(sub, "schema");
    ch_target ch = {0};
    for (int i = 2; i < argc && status == EXIT_OK; i++) {
        const char *a = argv[i];
        const char **value = !strcmp(a, "-o") || !strcmp(a, "--output") ? &out
                             : !strcmp(a, "--database")                 ? &ch.o.database
                             : !strcmp(a, "--table")                    ? &ch.o.table
                             : !strcmp(a, "--cluster")                  ? &ch.o.cluster
                             : !strcmp(a, "--like")                     ? &like
                             : !strcmp(a, "--clickhouse") && !is_schema ? &ch.url
                                                                        : NULL;
        if (only_files || a[0] != '-' || !a[1]) {
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
        } else if (!strcmp(a, "-v") || !strcmp(a, "--verbose")) {
            verbose = 1;
        } else if (!strcmp(a, "--keep-duplicates")) {
            add_flags |= KIFU_INDEX_KEEP_DUPLICATES;
        } else if (!strcmp(a, "--json")) {
            json = 1;
        } else if (!strcmp(a, "--")) {
            only_files = 1;
        } else {
            cli_err("kifu: unknown option '%s'\n", a);
            status = EXIT_USAGE;
        }
    }
    int players = !strcmp(sub, "players");
    if (status == EXIT_OK && (like || json) && !players) {
        cli_err("kifu: index %s: --like and --json are for index players\n", sub);
        status = EXIT_USAGE;
    } else if (status == EXIT_OK && ch.url && strcmp(sub, "info") && !players &&
               nargs < 1) {
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
        if (!strcmp(sub, "build")) {
            if (!out || !nargs) {
                cli_err("kifu: index build: %s\n",
                        !out ? "say where with -o games.kdb" : "no file to index");
                status = EXIT_USAGE;
            } else {
                status = build(args, nargs, out, verbose);
            }
        } else if (!strcmp(sub, "add")) {
            if (nargs < 2 || out) {
                cli_err("kifu: index add: give the index, then the files to add\n");
                status = EXIT_USAGE;
            } else {
                status = add(args[0], args + 1, nargs - 1, verbose);
            }
        } else if (!strcmp(sub, "compact")) {
            if (nargs != 1 || out) {
                cli_err("kifu: index compact: give one index\n");
                status = EXIT_USAGE;
            } else {
                status = compact(args[0]);
            }
        } else if ((!strcmp(sub, "info") || players) && ch.url) {
            status = info(NULL, &ch, players, like, json);
        } else if (!strcmp(sub, "info") || players) {
            if (nargs != 1 || out) {
                cli_err("kifu: index %s: give one index\n", sub);
                status = EXIT_USAGE;
            } else {
                status = info(args[0], &ch, players, like, json);
            }
        } else {
            cli_err("kifu: index: unknown subcommand '%s' (build, add, compact, info, "
                    "players, schema)\n",
                    sub);
            status = EXIT_USAGE;
        }
    }
    if (status == EXIT_USAGE)
        cli_err("kifu: see 'kifu index --help'\n");
    free(args);
    return status;
}
