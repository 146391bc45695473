/* replay.c: a main for the fuzz targets without libFuzzer. Runs LLVMFuzzerTestOneInput on
 * every file named, and on every file under every directory named (recursively, in name
 * order), so seeds and saved crash inputs replay under ctest with any compiler.
 * Each input gets a buffer of exactly its size so sanitizers see any overread. A crash
 * ends the process (the ctest fails); otherwise it prints how many inputs ran.
 * Exit 77 (skip) when there was nothing to replay. */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

static long replayed, unreadable;

static void run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "%s: %s\n", path, strerror(errno));
        unreadable++;
        return;
    }
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap)
            break;
        char *nb = realloc(buf, cap *= 2);
        if (!nb)
            free(buf);
        buf = nb;
    }
    fclose(f);
    /* An exact-size copy: bytes past the input are outside the allocation. */
    uint8_t *exact = buf ? malloc(n ? n : 1) : NULL;
    if (!exact) {
        fprintf(stderr, "%s: out of memory\n", path);
        free(buf);
        unreadable++;
        return;
    }
    memcpy(exact, buf, n);
    free(buf);
    LLVMFuzzerTestOneInput(exact, n);
    free(exact);
    replayed++;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void run_path(const char *path, int depth)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        fprintf(stderr, "%s: %s\n", path, strerror(errno));
        return;
    }
    if (!S_ISDIR(st.st_mode)) {
        run_file(path);
        return;
    }
    if (depth > 16)
        return;
    DIR *d = opendir(path);
    if (!d) {
        fprintf(stderr, "%s: %s\n", path, strerror(errno));
        unreadable++;
        return;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        if (de->d_name[0] == '.')
            continue;
        if (n == cap) {
            char **nn = realloc(names, (cap = cap ? cap * 2 : 64) * sizeof *nn);
            if (!nn)
                break;
            names = nn;
        }
        size_t len = strlen(path) + strlen(de->d_name) + 2;
        if (!(names[n] = malloc(len)))
            break;
        snprintf(names[n++], len, "%s/%s", path, de->d_name);
    }
    closedir(d);
    if (n)
        qsort(names, n, sizeof *names, by_name);
    for (size_t i = 0; i < n; i++) {
        run_path(names[i], depth + 1);
        free(names[i]);
    }
    free(names);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s FILE|DIR ...\n", argv[0]);
        return 2;
    }
    if (LLVMFuzzerInitialize)
        LLVMFuzzerInitialize(&argc, &argv);
    for (int i = 1; i < argc; i++)
        run_path(argv[i], 0);
    printf("replayed %ld inputs\n%ld passed, %ld failed, 0 skipped\n", replayed, replayed,
           unreadable);
    if (unreadable)
        return 1;
    return replayed ? 0 : 77;
}
