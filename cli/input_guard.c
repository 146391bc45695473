/* input_guard.c: an output never replaces one of the command's inputs. `kifu index build
 * g.kif -o g.kif` replaced the only copy of a game with an index. Files are compared by
 * device and inode, so a link or another spelling of the path is caught too. The inputs'
 * identities are taken once, on the first write over an existing file (a command writing
 * to standard output or to new files pays nothing), then each output is one lookup. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "inputs.h"

typedef struct file_id {
    dev_t dev;
    ino_t ino;
} file_id;

static const cli_inputs *guarded;
/* Inputs that are not records: a style sheet, a tag file, the index a book is made from. */
#define NEXTRA 4
static const char *extra[NEXTRA];
static size_t nextra;
static file_id *ids;
static size_t nids;
static int made, registered;

void cli_inputs_guard(const cli_inputs *in)
{
    guarded = in;
    made = 0;
}

void cli_input_guard(const char *path)
{
    if (path && nextra < NEXTRA)
        extra[nextra++] = path;
    made = 0;
}

static int cmp_id(const void *a, const void *b)
{
    const file_id *x = a, *y = b;
    if (x->dev != y->dev)
        return x->dev < y->dev ? -1 : 1;
    return x->ino < y->ino ? -1 : x->ino > y->ino;
}

static void free_ids(void)
{
    free(ids);
}

static void take(const char *path)
{
    struct stat st;
    if (strcmp(path, "-") != 0 && stat(path, &st) == 0)
        ids[nids++] = (file_id){st.st_dev, st.st_ino};
}

/* 0, or -1 when out of memory. */
static int make_ids(void)
{
    size_t n = (guarded ? guarded->n : 0) + nextra + 1; /* never malloc(0) */
    free(ids);
    if (!registered)
        atexit(free_ids);
    registered = 1;
    made = 1;
    nids = 0;
    if (!(ids = malloc(n * sizeof *ids)))
        return -1;
    for (size_t i = 0; guarded && i < guarded->n; i++)
        take(guarded->v[i].path);
    for (size_t i = 0; i < nextra; i++)
        take(extra[i]);
    qsort(ids, nids, sizeof *ids, cmp_id);
    return 0;
}

int cli_is_input(const char *path)
{
    struct stat st;
    if ((!guarded && !nextra) || !path || strcmp(path, "-") == 0 ||
        stat(path, &st) != 0 || !S_ISREG(st.st_mode))
        return 0;
    if (!made && make_ids())
        return 0;
    file_id k = {st.st_dev, st.st_ino};
    return bsearch(&k, ids, nids, sizeof *ids, cmp_id) != NULL;
}
