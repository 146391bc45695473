/* search_files.c: `kifu search` over files: each file searched on a worker thread (batch.h)
 * into its own buffers, which are printed in the files' order, so that the output and
 * the messages are the same for any -j. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "batch.h"
#include "cli.h"
#include "inputs.h"
#include "progress.h"
#include "search_files.h"

/* One file's result, kept until its turn: its output and messages, hits and exit code. */
typedef struct file_result {
    char *out, *err;
    size_t outlen, errlen;
    long hits;
    int rc;
    int not_record; /* a file found in a directory that is no record (skipped.c) */
    int searched;   /* 0: left out, a file before it had a hit and -q asks no more */
} file_result;

typedef struct run {
    const cli_search_files_opts *o;
    const cli_inputs *in;
    file_result *res;
    _Atomic size_t first_hit; /* -q: the first file with a hit (SIZE_MAX: none yet) */
    /* The searches made for the threads, freed at the end. */
    pthread_mutex_t lock;
    kifu_search **made;
    size_t nmade, capmade;
    /* The calling thread's, in input order. */
    cli_progress bar;
    cli_skipped skipped;
    long total;
    int status, stopped;
} run;

/* One file's search, on one thread. */
typedef struct file_search {
    const cli_search_files_opts *o;
    FILE *out;
    const char *file;
    size_t game, games;
    const kifu_record *rec;
    long hits;
} file_search;

/* This thread's search: made the first time a thread searches a file. NULL out of memory. */
static kifu_search *thread_search(run *r)
{
    static _Thread_local kifu_search *mine;
    static _Thread_local const run *of;
    if (of == r && mine)
        return mine;
    kifu_search *s = r->o->compile(r->o->compile_ctx);
    if (!s)
        return NULL;
    pthread_mutex_lock(&r->lock);
    int room = r->nmade < r->capmade;
    if (!room) {
        size_t cap = r->capmade ? 2 * r->capmade : 8;
        kifu_search **m = realloc(r->made, cap * sizeof *m);
        if (m)
            r->made = m, r->capmade = cap, room = 1;
    }
    if (room)
        r->made[r->nmade++] = s;
    pthread_mutex_unlock(&r->lock);
    if (!room) {
        kifu_search_free(s);
        return NULL;
    }
    mine = s, of = r;
    return s;
}

static void hit_json(file_search *f, const kifu_search_hit *h, const char *path,
                     const kifu_node *next)
{
    char text[64], usi[8] = "";
    kifu_move m_v;
    const kifu_move *m = next && kifu_node_get_move(next, &m_v) ? &m_v : NULL;
    if (m)
        kifu_move_usi(m, usi);
    cli_hit_json(f->out, f->file, f->game, h->ply, path, &h->board,
                 next ? kifu_node_text(next, text, sizeof text) : NULL, usi);
    fprintf(f->out, ",\"header\":{");
    for (size_t i = 0; i < kifu_record_header_count(f->rec); i++) {
        const char *k, *v;
        kifu_record_header_at(f->rec, i, &k, &v);
        fprintf(f->out, "%s", i ? "," : "");
        cli_json_fstring(f->out, k);
        putc(':', f->out);
        cli_json_fstring(f->out, v);
    }
    fprintf(f->out, "}}\n");
}

static int on_hit(void *ctx, const kifu_search_hit *h)
{
    file_search *f = ctx;
    f->hits++;
    if (f->o->quiet) /* the exit status says it: no more is needed */
        return 1;
    if (f->o->count || f->o->list)
        return 0;
    char path[256], text[64];
    kifu_node_path(h->node, path, sizeof path);
    const kifu_node *next = kifu_node_next(h->node);
    if (f->o->json) {
        hit_json(f, h, path, next);
        return 0;
    }
    cli_put_fname(f->out, f->file);
    if (f->games > 1)
        fprintf(f->out, "#%zu", f->game);
    fprintf(f->out, ":%s: %s\n", path,
            next ? kifu_node_text(next, text, sizeof text) : "(end)");
    return 0;
}

/* A hit of kifu_search_read: which game of the file, then as any hit. */
static int on_read_hit(void *ctx, const kifu_record *rec, size_t game, size_t games,
                       const kifu_search_hit *h)
{
    file_search *f = ctx;
    f->game = game + 1;
    f->games = games;
    f->rec = rec;
    return on_hit(f, h);
}

/* --count's and -l's line for a file searched. */
static void file_summary(const file_search *f, const cli_inputs *in)
{
    if (f->o->quiet)
        return;
    if (f->o->count) {
        if (in->n > 1 || in->dirs) {
            cli_put_fname(f->out, f->file);
            putc(':', f->out);
        }
        fprintf(f->out, "%ld\n", f->hits);
    } else if (f->o->list && f->hits) {
        cli_put_fname(f->out, f->file);
        putc('\n', f->out);
    }
}

/* Search every game of one file, as it is read (one replay of the moves does both), with
 * s, printing on f->out and messages through cli_err. 0, or an exit code (the file was
 * reported); *not_record when it is a file of a directory that is no record. */
static int search_file(file_search *f, kifu_search *s, const cli_input *in,
                       int *not_record)
{
    const char *name = strcmp(in->path, "-") == 0 ? "<stdin>" : in->path;
    size_t len;
    kifu_error e = {0};
    char *data = kifu_file_read(in->path, &len, &e);
    kifu_read_options ro = {.format = f->o->from,
                            .encoding = f->o->enc,
                            .source = name,
                            .warn = cli_print_warning,
                            .warn_ctx = (void *)name};
    f->file = name;
    f->hits = 0;
    int rc = EXIT_OK;
    if (!data || kifu_search_read(s, data, len, &ro, on_read_hit, f, NULL, &e) < 0) {
        if (cli_not_record(in, f->o->from, &e, data, len)) {
            *not_record = 1;
        } else {
            if (!(f->o->silent && e.code == KIFU_ERR_IO)) {
                if (!e.source[0])
                    snprintf(e.source, sizeof e.source, "%s", name);
                cli_print_error(&e);
            }
            rc = EXIT_IO;
        }
    }
    kifu_free(data);
    return rc;
}

/* Worker: file i searched into res[i]'s buffers. */
static void work(void *ctx, size_t i)
{
    run *r = ctx;
    file_result *res = &r->res[i];
    if (r->o->quiet && i > atomic_load(&r->first_hit))
        return; /* a file before it has a hit: nothing more is asked */
    res->searched = 1;
    kifu_search *s = thread_search(r);
    FILE *out = open_memstream(&res->out, &res->outlen);
    FILE *err = open_memstream(&res->err, &res->errlen);
    if (!s || !out || !err) {
        if (out)
            fclose(out);
        if (err)
            fclose(err);
        res->rc = EXIT_INTERNAL;
        return;
    }
    cli_err_capture(err);
    file_search f = {.o = r->o, .out = out};
    res->rc = search_file(&f, s, &r->in->v[i], &res->not_record);
    if (res->rc == EXIT_OK && !res->not_record)
        file_summary(&f, r->in);
    cli_err_capture(NULL);
    res->hits = f.hits;
    fclose(out);
    fclose(err);
    /* -q: the files after this one need not be searched (the first in input order
     * counts, whichever thread finds its hit first). */
    size_t seen = atomic_load(&r->first_hit);
    while (f.hits && i < seen && !atomic_compare_exchange_weak(&r->first_hit, &seen, i))
        ;
}

/* In input order: file i's output and messages printed, and counted. */
static void commit(void *ctx, size_t i)
{
    run *r = ctx;
    file_result *res = &r->res[i];
    if (!r->stopped && res->searched) {
        if (res->outlen || res->errlen)
            cli_progress_clear(&r->bar);
        fwrite(res->err, 1, res->errlen, stderr);
        fwrite(res->out, 1, res->outlen, stdout);
        if (res->not_record)
            cli_skipped_add(&r->skipped, strcmp(r->in->v[i].path, "-") == 0
                                             ? "<stdin>"
                                             : r->in->v[i].path);
        r->status = res->rc > r->status ? res->rc : r->status;
        r->total += res->hits;
        /* -q: the first hit says it all; out of memory ends the run */
        r->stopped = (r->o->quiet && r->total) || r->status == EXIT_INTERNAL;
    }
    free(res->out), free(res->err);
    memset(res, 0, sizeof *res);
    cli_progress_update(&r->bar, i + 1, r->in->v[i].path);
}

int cli_search_files(const cli_search_files_opts *o, char **files, int nfiles,
                     long *total)
{
    run r = {.o = o, .first_hit = SIZE_MAX};
    cli_inputs in = {0};
    for (int i = 0; i < nfiles && r.status != EXIT_INTERNAL; i++) {
        int rc = cli_inputs_add(&in, files[i]);
        r.status = rc > r.status ? rc : r.status;
    }
    r.in = &in;
    r.res = calloc(in.n ? in.n : 1, sizeof *r.res);
    if (!r.res || pthread_mutex_init(&r.lock, NULL)) {
        free(r.res);
        cli_inputs_free(&in);
        cli_err("kifu: out of memory\n");
        return EXIT_INTERNAL;
    }
    cli_progress_start(&r.bar, in.n, in.n >= 8 && isatty(STDERR_FILENO) && !o->quiet);
    if (r.status != EXIT_INTERNAL)
        cli_batch_run(in.n, o->jobs ? o->jobs : cli_batch_default_jobs(), work, commit,
                      &r);
    cli_progress_end(&r.bar);
    cli_skipped_report(&r.skipped, o->quiet || o->silent);
    if (r.status == EXIT_INTERNAL)
        cli_err("kifu: out of memory\n");
    for (size_t k = 0; k < r.nmade; k++)
        kifu_search_free(r.made[k]);
    free(r.made);
    pthread_mutex_destroy(&r.lock);
    free(r.res);
    cli_inputs_free(&in);
    *total = r.total;
    return r.status;
}
