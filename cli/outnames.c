/* outnames.c: see outnames.h. */
#include "outnames.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

static size_t hash(const char *s)
{
    size_t h = 1469598103934665603u;
    while (*s)
        h = (h ^ (unsigned char)*s++) * 1099511628211u;
    return h;
}

int cli_written_claim(cli_written *w, const char *path, size_t owner, size_t *first)
{
    if (2 * (w->n + 1) > w->cap) {
        size_t cap = w->cap ? w->cap * 2 : 64;
        struct cli_claim *slot = calloc(cap, sizeof *slot);
        if (!slot)
            return -1;
        for (size_t i = 0; i < w->cap; i++)
            if (w->slot[i].path) {
                size_t j = hash(w->slot[i].path) & (cap - 1);
                while (slot[j].path)
                    j = (j + 1) & (cap - 1);
                slot[j] = w->slot[i];
            }
        free(w->slot);
        w->slot = slot;
        w->cap = cap;
    }
    size_t j = hash(path) & (w->cap - 1);
    for (; w->slot[j].path; j = (j + 1) & (w->cap - 1))
        if (strcmp(w->slot[j].path, path) == 0) {
            *first = w->slot[j].owner;
            return 1;
        }
    if (!(w->slot[j].path = strdup(path)))
        return -1;
    w->slot[j].owner = owner;
    w->n++;
    return 0;
}

void cli_written_free(cli_written *w)
{
    for (size_t i = 0; i < w->cap; i++)
        free(w->slot[i].path);
    free(w->slot);
}

int cli_make_parents(const char *path)
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

char *cli_out_path(const cli_outdest *d, const cli_input *in, int keep_ext, size_t k,
                   size_t count, int *oom)
{
    *oom = 0;
    const char *base = NULL, *ext = NULL;
    char *stem = NULL;
    if (d->out_dir) {
        stem = strdup(in->rel);
        ext = d->ext;
    } else if (d->out) {
        if (count == 1) {
            char *p = strdup(d->out);
            *oom = !p;
            return p;
        }
        stem = strdup(d->out);
        const char *slash = strrchr(d->out, '/');
        const char *dot = strrchr(slash ? slash : d->out, '.');
        ext = dot && dot[1] ? dot + 1 : NULL;
        keep_ext = 0;
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
    if (dot && dot != (slash ? slash + 1 : stem) && !keep_ext)
        *dot = 0;
    base = d->out_dir ? d->out_dir : "";
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

typedef struct named {
    char *dest;
    size_t i;
} named;

static int by_dest(const void *a, const void *b)
{
    const named *x = a, *y = b;
    int c = strcmp(x->dest, y->dest);
    return c ? c : (x->i > y->i) - (x->i < y->i);
}

int cli_out_plan(const cli_outdest *d, const cli_inputs *in, unsigned char *keep_ext,
                 size_t *clash)
{
    if (!d->out_dir || in->n < 2)
        return 0;
    named *v = calloc(in->n, sizeof *v);
    if (!v)
        return -1;
    int rc = 0;
    for (int round = 0; round < 2 && rc == 0; round++) {
        for (size_t i = 0; i < in->n; i++) {
            int oom;
            free(v[i].dest);
            v[i].dest = cli_out_path(d, &in->v[i], keep_ext[i], 1, 1, &oom);
            v[i].i = i;
            if (!v[i].dest)
                rc = -1;
        }
        if (rc)
            break;
        qsort(v, in->n, sizeof *v, by_dest);
        for (size_t a = 0, b; a < in->n; a = b) {
            for (b = a + 1; b < in->n && strcmp(v[a].dest, v[b].dest) == 0; b++)
                ;
            for (size_t k = a; b - a > 1 && k < b; k++) {
                if (round == 0)
                    keep_ext[v[k].i] = 1;
                else
                    clash[v[k].i] = 1 + v[k == a ? a + 1 : a].i;
            }
        }
        /* Back in input order for the second round. */
        for (size_t k = 0; k < in->n; k++)
            while (v[k].i != k) {
                named t = v[v[k].i];
                v[v[k].i] = v[k];
                v[k] = t;
            }
    }
    for (size_t i = 0; i < in->n; i++)
        free(v[i].dest);
    free(v);
    return rc;
}
