/* harness.h: a tiny unit-test harness. Each test file defines tests with TEST(name) and
 * lists them in main via RUN(name); the run ends with "N passed, N failed, N skipped"
 * and exits non-zero on any failure (77 when everything was skipped). */
#ifndef KIFU_TEST_HARNESS_H
#define KIFU_TEST_HARNESS_H

#include <stdio.h>
#include <string.h>

extern int t_failed_checks; /* checks failed in the current test */
extern int t_passed, t_failed, t_skipped;
extern int t_skip_current;

#define TEST(name) static void name(void)
#define RUN(name) t_run(#name, name)
void t_run(const char *name, void (*fn)(void));
int t_finish(void);
/* Mark the current test skipped (with a reason) and return from it. */
#define SKIP(...)                                                                        \
    do {                                                                                 \
        printf("  skip: ");                                                              \
        printf(__VA_ARGS__);                                                             \
        printf("\n");                                                                    \
        t_skip_current = 1;                                                              \
        return;                                                                          \
    } while (0)

#define CHECK(cond)                                                                      \
    do {                                                                                 \
        if (!(cond)) {                                                                   \
            t_failed_checks++;                                                           \
            printf("  %s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #cond);            \
        }                                                                                \
    } while (0)

#define CHECK_INT(got, want)                                                             \
    do {                                                                                 \
        long long g_ = (long long)(got), w_ = (long long)(want);                         \
        if (g_ != w_) {                                                                  \
            t_failed_checks++;                                                           \
            printf("  %s:%d: %s\n    got:      %lld\n    expected: %lld\n", __FILE__,    \
                   __LINE__, #got, g_, w_);                                              \
        }                                                                                \
    } while (0)

#define CHECK_STR(got, want)                                                             \
    do {                                                                                 \
        const char *g_ = (got), *w_ = (want);                                            \
        if (!g_ || !w_ || strcmp(g_, w_) != 0) {                                         \
            t_failed_checks++;                                                           \
            printf("  %s:%d: %s\n    got:      \"%s\"\n    expected: \"%s\"\n",          \
                   __FILE__, __LINE__, #got, g_ ? g_ : "(null)", w_ ? w_ : "(null)");    \
        }                                                                                \
    } while (0)

/* Read a whole file into new memory (free()); NULL if missing. */
char *t_read_file(const char *path, size_t *len);
/* Path under ../shared (KIFU_SHARED_DIR) if that directory exists, else NULL. */
const char *t_shared(const char *rel, char *buf, size_t cap);

#endif
