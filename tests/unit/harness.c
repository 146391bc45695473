/* harness.c: runs tests, counts, prints the closing line. */
#include "harness.h"

#include <stdlib.h>
#include <sys/stat.h>

int t_failed_checks, t_passed, t_failed, t_skipped, t_skip_current;

void t_run(const char *name, void (*fn)(void))
{
    t_failed_checks = 0;
    t_skip_current = 0;
    fn();
    if (t_failed_checks) {
        t_failed++;
        printf("FAILED %s (%d checks)\n", name, t_failed_checks);
    } else if (t_skip_current) {
        t_skipped++;
        printf("skipped %s\n", name);
    } else {
        t_passed++;
    }
    fflush(stdout);
}

int t_finish(void)
{
    printf("%d passed, %d failed, %d skipped\n", t_passed, t_failed, t_skipped);
    if (t_failed)
        return 1;
    return t_passed == 0 && t_skipped > 0 ? 77 : 0;
}

char *t_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    if (buf) {
        buf[n] = 0;
        if (len)
            *len = (size_t)n;
    }
    return buf;
}

const char *t_shared(const char *rel, char *buf, size_t cap)
{
    struct stat st;
    if (stat(KIFU_SHARED_DIR, &st) != 0 || !S_ISDIR(st.st_mode))
        return NULL;
    snprintf(buf, cap, "%s/%s", KIFU_SHARED_DIR, rel);
    return buf;
}
