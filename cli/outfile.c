/* outfile.c: never leave a half-written output file: write a temp file next to the
 * target, then rename it over. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

int cli_write_file(const char *path, const void *data, size_t len)
{
    if (!path || strcmp(path, "-") == 0) {
        if (fwrite(data, 1, len, stdout) != len || fflush(stdout)) {
            fprintf(stderr, "kifu: cannot write to standard output: %s\n",
                    strerror(errno));
            return -1;
        }
        return 0;
    }
    size_t n = strlen(path);
    char *tmp = malloc(n + 16);
    if (!tmp) {
        fprintf(stderr, "kifu: out of memory\n");
        return -1;
    }
    snprintf(tmp, n + 16, "%s.XXXXXX", path);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        fprintf(stderr, "kifu: %s: cannot create: %s\n", path, strerror(errno));
        free(tmp);
        return -1;
    }
    /* mkstemp makes the file 0600: give it the mode of the file it replaces, or what a
     * plain fopen would have given (0666 less the umask). */
    struct stat st;
    mode_t mode;
    if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
        mode = st.st_mode & 07777;
    } else {
        mode_t mask = umask(0);
        umask(mask);
        mode = 0666 & ~mask;
    }
    fchmod(fd, mode);
    FILE *f = fdopen(fd, "wb");
    int ok = f && fwrite(data, 1, len, f) == len;
    ok = f && fflush(f) == 0 && ok;
    ok = f && fsync(fileno(f)) == 0 && ok;
    int saved = errno;
    if (f)
        ok = fclose(f) == 0 && ok;
    else
        close(fd);
    if (ok && rename(tmp, path) != 0) {
        saved = errno;
        ok = 0;
    }
    if (!ok) {
        fprintf(stderr, "kifu: %s: cannot write: %s\n", path, strerror(saved));
        unlink(tmp);
    }
    free(tmp);
    return ok ? 0 : -1;
}
