/* inputs.c: gathering the record files of a command's arguments (see inputs.h). */
#define _DEFAULT_SOURCE /* d_type and DT_REG */
#include "inputs.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

/* Directories deeper than this are not entered (a guard against symlink loops). */
#define MAX_DEPTH 32

static char *join(const char *a, const char *sep, const char *b)
{
    size_t na = strlen(a), ns = strlen(sep), nb = strlen(b);
    char *s = malloc(na + ns + nb + 1);
    if (s) {
        memcpy(s, a, na);
        memcpy(s + na, sep, ns);
        memcpy(s + na + ns, b, nb + 1);
    }
    return s;
}

static int push(cli_inputs *in, const char *path, const char *rel)
{
    if (in->n == in->cap) {
        size_t cap = in->cap ? in->cap * 2 : 16;
        cli_input *v = realloc(in->v, cap * sizeof *v);
        if (!v)
            return -1;
        in->v = v;
        in->cap = cap;
    }
    cli_input *e = &in->v[in->n];
    e->path = strdup(path);
    e->rel = strdup(rel);
    if (!e->path || !e->rel) {
        free(e->path);
        free(e->rel);
        return -1;
    }
    in->n++;
    return 0;
}

void cli_inputs_free(cli_inputs *in)
{
    for (size_t i = 0; i < in->n; i++) {
        free(in->v[i].path);
        free(in->v[i].rel);
    }
    free(in->v);
}

/* By name, after the type byte in front of it. */
static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a + 1, *(char *const *)b + 1);
}

/* Adds the record files under dir, in name order so runs are reproducible. Hidden entries
 * are skipped. rel is dir's path relative to the directory argument ("" at the top). */
/* Is a file of this name a record the command reads? */
static int taken(const cli_inputs *in, const char *name)
{
    int f = kifu_format_from_path(name);
    const kifu_format_info *info = kifu_format_info_of(f);
    return f != KIFU_FMT_AUTO && info &&
           (in->other_games || info->game == KIFU_GAME_SHOGI);
}

static int add_dir(cli_inputs *in, const char *dir, const char *rel, int depth)
{
    DIR *d = opendir(dir);
    if (!d) {
        cli_err("kifu: %s: cannot open directory: %s\n", dir, strerror(errno));
        return EXIT_IO;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    int rc = EXIT_OK;
    struct dirent *de;
    while ((de = readdir(d))) {
        if (de->d_name[0] == '.')
            continue;
        /* A regular file of an unknown extension is left here, without a stat. The
         * name keeps its type in front of it (one byte: 'f' a regular file, '?' ask
         * stat), so the files of a large directory are taken without a stat each. */
        int regular = de->d_type == DT_REG;
        if (regular && !taken(in, de->d_name))
            continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 64;
            char **nn = realloc(names, cap * sizeof *nn);
            if (!nn) {
                rc = EXIT_INTERNAL;
                break;
            }
            names = nn;
        }
        size_t len = strlen(de->d_name);
        if (!(names[n] = malloc(len + 2))) {
            rc = EXIT_INTERNAL;
            break;
        }
        names[n][0] = regular ? 'f' : '?';
        memcpy(names[n] + 1, de->d_name, len + 1);
        n++;
    }
    closedir(d);
    if (n)
        qsort(names, n, sizeof *names, by_name);
    for (size_t i = 0; i < n; i++) {
        if (rc == EXIT_INTERNAL)
            break;
        const char *name = names[i] + 1;
        char *path = join(dir, dir[strlen(dir) - 1] == '/' ? "" : "/", name);
        char *sub = *rel ? join(rel, "/", name) : strdup(name);
        struct stat st;
        if (!path || !sub) {
            rc = EXIT_INTERNAL;
        } else if (names[i][0] == 'f') {
            if (push(in, path, sub))
                rc = EXIT_INTERNAL;
        } else if (stat(path, &st) != 0) {
            cli_err("kifu: %s: %s\n", path, strerror(errno));
            rc = rc > EXIT_IO ? rc : EXIT_IO;
        } else if (S_ISDIR(st.st_mode)) {
            if (depth < MAX_DEPTH) {
                int r = add_dir(in, path, sub, depth + 1);
                rc = r > rc ? r : rc;
            }
        } else if (S_ISREG(st.st_mode) && taken(in, name)) {
            if (push(in, path, sub))
                rc = EXIT_INTERNAL;
        }
        free(path);
        free(sub);
    }
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
    if (rc == EXIT_INTERNAL)
        cli_err("kifu: out of memory\n");
    return rc;
}

int cli_inputs_add(cli_inputs *in, const char *arg)
{
    struct stat st;
    if (strcmp(arg, "-") != 0 && stat(arg, &st) == 0 && S_ISDIR(st.st_mode)) {
        in->dirs = 1;
        size_t first = in->n;
        int rc = add_dir(in, arg, "", 0);
        for (size_t i = first; i < in->n; i++)
            in->v[i].found = 1;
        return rc;
    }
    /* A named file is taken whatever its extension; a missing one fails when read. */
    const char *slash = strrchr(arg, '/');
    if (push(in, arg, strcmp(arg, "-") == 0 ? "stdin" : slash ? slash + 1 : arg)) {
        cli_err("kifu: out of memory\n");
        return EXIT_INTERNAL;
    }
    in->v[in->n - 1].found = 0;
    return EXIT_OK;
}
