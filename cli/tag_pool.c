/* tag_pool.c: taggers shared between threads (tag_pool.h). */
#include "tag_pool.h"

#include <pthread.h>
#include <stdlib.h>

#include "cli.h"

struct cli_tag_pool {
    pthread_mutex_t mu;
    char *extra; /* the --tag-file text, NULL for none */
    size_t extra_len;
    const char *extra_path;
    kifu_tagger **free;
    size_t n, cap;
};

static kifu_tagger *build(const char *extra, size_t len, const char *path,
                          kifu_error *err)
{
    kifu_tagger *t = kifu_tags_new(err);
    if (t && extra && kifu_tags_add(t, extra, len, path, err)) {
        kifu_tags_free(t);
        return NULL;
    }
    return t;
}

static int load(const char *tag_file, char **text, size_t *len, kifu_tagger **first)
{
    kifu_error err;
    kifu_error_clear(&err);
    *text = NULL;
    if (tag_file && !(*text = kifu_file_read(tag_file, len, &err))) {
        cli_print_error(&err);
        return cli_exit_code(err.code);
    }
    if (!(*first = build(*text, *len, tag_file, &err))) {
        cli_print_error(&err);
        kifu_free(*text);
        *text = NULL;
        return err.code == KIFU_ERR_NOMEM ? EXIT_INTERNAL : EXIT_INPUT;
    }
    return EXIT_OK;
}

kifu_tagger *cli_tagger_new(const char *tag_file, int *status)
{
    char *text;
    size_t len = 0;
    kifu_tagger *t = NULL;
    *status = load(tag_file, &text, &len, &t);
    kifu_free(text);
    return t;
}

cli_tag_pool *cli_tag_pool_new(const char *tag_file, int *status)
{
    cli_tag_pool *p = calloc(1, sizeof *p);
    if (!p) {
        *status = EXIT_INTERNAL;
        return NULL;
    }
    kifu_tagger *first;
    if ((*status = load(tag_file, &p->extra, &p->extra_len, &first)) != EXIT_OK) {
        free(p);
        return NULL;
    }
    p->extra_path = tag_file;
    pthread_mutex_init(&p->mu, NULL);
    cli_tag_pool_put(p, first);
    return p;
}

void cli_tag_pool_free(cli_tag_pool *p)
{
    if (!p)
        return;
    for (size_t i = 0; i < p->n; i++)
        kifu_tags_free(p->free[i]);
    free(p->free);
    kifu_free(p->extra);
    pthread_mutex_destroy(&p->mu);
    free(p);
}

kifu_tagger *cli_tag_pool_get(cli_tag_pool *p)
{
    kifu_tagger *t = NULL;
    pthread_mutex_lock(&p->mu);
    if (p->n)
        t = p->free[--p->n];
    pthread_mutex_unlock(&p->mu);
    /* The definitions built once already: no error but memory is left. */
    return t ? t : build(p->extra, p->extra_len, p->extra_path, NULL);
}

void cli_tag_pool_put(cli_tag_pool *p, kifu_tagger *t)
{
    if (!t)
        return;
    pthread_mutex_lock(&p->mu);
    if (p->n == p->cap) {
        size_t cap = p->cap ? p->cap * 2 : 8;
        kifu_tagger **v = realloc(p->free, cap * sizeof *v);
        if (!v) {
            pthread_mutex_unlock(&p->mu);
            kifu_tags_free(t);
            return;
        }
        p->free = v, p->cap = cap;
    }
    p->free[p->n++] = t;
    pthread_mutex_unlock(&p->mu);
}
