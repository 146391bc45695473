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

/* Directories deeper than this are not entered (said; links back up the tree are caught
 * by the set of directories searched). */
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
    free(in->seen);
}

/* The directories searched: an open-addressing set of (device, inode), never more than
 * half full. */
struct cli_dir_id {
    dev_t dev;
    ino_t ino;
    int used;
};

static size_t slot(const cli_inputs *in, dev_t dev, ino_t ino)
{
    size_t h = ((size_t)dev * 0x9E3779B97F4A7C15u) ^ ((size_t)ino * 0xC2B2AE3D27D4EB4Fu);
    size_t i = h & (in->capseen - 1);
    while (in->seen[i].used && (in->seen[i].dev != dev || in->seen[i].ino != ino))
        i = (i + 1) & (in->capseen - 1);
    return i;
}

/* Marks the directory st as searched. 1 if it was already, 0 if not, -1 out of memory. */
static int seen_before(cli_inputs *in, const struct stat *st)
{
    if (2 * (in->nseen + 1) > in->capseen) {
        cli_inputs old = *in;
        in->capseen = in->capseen ? in->capseen * 2 : 64;
        if (!(in->seen = calloc(in->capseen, sizeof *in->seen))) {
            *in = old;
            return -1;
        }
        for (size_t i = 0; i < old.capseen; i++)
            if (old.seen[i].used)
                in->seen[slot(in, old.seen[i].dev, old.seen[i].ino)] = old.seen[i];
        free(old.seen);
    }
    size_t i = slot(in, st->st_dev, st->st_ino);
    if (in->seen[i].used)
        return 1;
    in->seen[i] = (struct cli_dir_id){st->st_dev, st->st_ino, 1};
    in->nseen++;
    return 0;
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
        in->failed++;
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
            int e = errno;
            struct stat lst;
            if (e == ENOENT && lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode))
                cli_err("kifu: %s: a link to nothing: skipped\n", path);
            else
                cli_err("kifu: %s: %s\n", path, strerror(e));
            in->failed++;
            rc = rc > EXIT_IO ? rc : EXIT_IO;
        } else if (S_ISDIR(st.st_mode)) {
            int again = seen_before(in, &st);
            if (again < 0) {
                rc = EXIT_INTERNAL;
            } else if (again) {
                cli_err("kifu: %s: a link to a directory searched already: skipped\n",
                        path);
            } else if (depth >= MAX_DEPTH) {
                cli_err("kifu: %s: more than %d directories deep: skipped\n", path,
                        MAX_DEPTH);
            } else {
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
        int again = seen_before(in, &st);
        if (again < 0) {
            cli_err("kifu: out of memory\n");
            return EXIT_INTERNAL;
        }
        if (again) {
            cli_err("kifu: %s: searched already: skipped\n", arg);
            return EXIT_OK;
        }
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
