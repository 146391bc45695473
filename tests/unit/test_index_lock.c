/* test_index_lock.c: one writer at a time on an index (src/index/index_lock.c), and a
 * built index put in the place of another whose write-ahead log is still there. flock(2)
 * locks belong to an open file, so two handles of this one process contend as two
 * processes would. */
#define _DEFAULT_SOURCE /* mkdtemp */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"
#include "kifu.h"

static char dir[64];

static void path_of(const char *name, char *buf, size_t cap)
{
    snprintf(buf, cap, "%s/%s", dir, name);
}

static int exists(const char *name)
{
    char p[256];
    struct stat st;
    path_of(name, p, sizeof p);
    return stat(p, &st) == 0;
}

/* A record file of one game with `plies` pawn pushes by sente and gote. */
static void write_game(const char *name, int plies)
{
    char p[256];
    path_of(name, p, sizeof p);
    FILE *f = fopen(p, "w");
    fprintf(f, "PI\n+\n");
    for (int i = 0; i < plies; i++)
        fprintf(f, "+%d7%d6FU\n-%d3%d4FU\n", i + 1, i + 1, i + 1, i + 1);
    fprintf(f, "%%TORYO\n");
    fclose(f);
}

static long long games_in(const char *name)
{
    char p[256];
    path_of(name, p, sizeof p);
    kifu_error err = {0};
    kifu_index *ix = kifu_index_open(p, KIFU_INDEX_READONLY, &err);
    if (!ix)
        return -1;
    kifu_index_info in;
    long long n = kifu_index_info_get(ix, &in, &err) ? -1 : in.games;
    kifu_index_close(ix, &err);
    return n;
}

/* An index `name` holding the games of the files named, written by one add. */
static int make_index(const char *name, const char *const *files, int n, unsigned flags)
{
    char p[256], g[256];
    path_of(name, p, sizeof p);
    kifu_error err = {0};
    kifu_index *ix = kifu_index_open(p, KIFU_INDEX_CREATE | flags, &err);
    if (!ix) {
        printf("  open %s: %s\n", p, err.message);
        return -1;
    }
    for (int i = 0; i < n; i++) {
        path_of(files[i], g, sizeof g);
        kifu_index_add_file(ix, g, NULL, NULL, &err);
    }
    return kifu_index_close(ix, &err);
}

static const char *const two[] = {"a.csa", "b.csa"};
static const char *const three[] = {"a.csa", "b.csa", "c.csa"};

TEST(second_writer_is_busy)
{
    char p[256];
    CHECK_INT(make_index("w.kdb", two, 2, 0), 0);
    path_of("w.kdb", p, sizeof p);
    kifu_error err = {0};
    kifu_index *first = kifu_index_open(p, 0, &err);
    CHECK(first != NULL);
    kifu_error_clear(&err);
    CHECK(kifu_index_open(p, KIFU_INDEX_NOWAIT, &err) == NULL);
    CHECK_INT(err.code, KIFU_ERR_BUSY);
    CHECK(strstr(err.message, "index busy") != NULL);
    CHECK_STR(err.source, p);
    /* Readers are not held up by a writer. */
    kifu_index *reader = kifu_index_open(p, KIFU_INDEX_READONLY, &err);
    CHECK(reader != NULL);
    kifu_index_close(reader, &err);
    kifu_index_close(first, &err);
    kifu_error_clear(&err);
    kifu_index *second = kifu_index_open(p, KIFU_INDEX_NOWAIT, &err);
    CHECK(second != NULL);
    kifu_index_close(second, &err);
}

TEST(hold_makes_and_removes_a_new_file)
{
    char p[256];
    path_of("new.kdb", p, sizeof p);
    kifu_error err = {0};
    kifu_index_lock *lk = kifu_index_lock_take(p, KIFU_INDEX_NOWAIT, &err);
    CHECK(lk != NULL);
    CHECK(exists("new.kdb"));
    /* A writer of the same path waits for the hold. */
    CHECK(kifu_index_open(p, KIFU_INDEX_CREATE | KIFU_INDEX_NOWAIT, &err) == NULL);
    CHECK_INT(err.code, KIFU_ERR_BUSY);
    kifu_error_clear(&err);
    CHECK(kifu_index_lock_take(p, KIFU_INDEX_NOWAIT, &err) == NULL);
    CHECK_INT(err.code, KIFU_ERR_BUSY);
    kifu_index_lock_release(lk);
    CHECK(!exists("new.kdb"));
}

TEST(replace_folds_the_old_log_in_first)
{
    char p[256], built[256];
    CHECK_INT(make_index("old.kdb", three, 3, 0), 0);
    path_of("old.kdb", p, sizeof p);
    /* The old index with a log: another connection, not closed, after a write. */
    sqlite3 *db;
    CHECK_INT(sqlite3_open(p, &db), SQLITE_OK);
    CHECK_INT(sqlite3_exec(db, "UPDATE games SET sente='Logged'", NULL, NULL, NULL),
              SQLITE_OK);
    CHECK(exists("old.kdb-wal"));
    path_of("built.kdb", built, sizeof built);
    CHECK_INT(make_index("built.kdb", two, 2, KIFU_INDEX_BULK), 0);
    kifu_error err = {0};
    kifu_index_lock *lk = kifu_index_lock_take(p, KIFU_INDEX_NOWAIT, &err);
    CHECK(lk != NULL);
    /* Open elsewhere: not replaced, and said. */
    CHECK_INT(kifu_index_lock_replace(lk, built, &err), -1);
    CHECK_INT(err.code, KIFU_ERR_BUSY);
    CHECK(exists("built.kdb"));
    sqlite3_close_v2(db);
    kifu_error_clear(&err);
    CHECK_INT(kifu_index_lock_replace(lk, built, &err), 0);
    kifu_index_lock_release(lk);
    CHECK(!exists("old.kdb-wal"));
    CHECK(!exists("built.kdb"));
    CHECK_INT(games_in("old.kdb"), 2);
    CHECK(sqlite3_open(p, &db) == SQLITE_OK);
    sqlite3_stmt *st;
    CHECK(sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &st, NULL) == SQLITE_OK);
    CHECK(sqlite3_step(st) == SQLITE_ROW);
    CHECK_STR((const char *)sqlite3_column_text(st, 0), "ok");
    sqlite3_finalize(st);
    sqlite3_close(db);
}

TEST(replace_refuses_what_is_not_an_index)
{
    char p[256], built[256];
    path_of("notes.txt", p, sizeof p);
    FILE *f = fopen(p, "w");
    fputs("notes\n", f);
    fclose(f);
    CHECK_INT(make_index("b2.kdb", two, 2, KIFU_INDEX_BULK), 0);
    path_of("b2.kdb", built, sizeof built);
    kifu_error err = {0};
    kifu_index_lock *lk = kifu_index_lock_take(p, 0, &err);
    CHECK(lk != NULL);
    CHECK_INT(kifu_index_lock_replace(lk, built, &err), -1);
    CHECK_INT(err.code, KIFU_ERR_ARG);
    kifu_index_lock_release(lk);
    size_t len;
    char *text = t_read_file(p, &len);
    CHECK_STR(text, "notes\n");
    free(text);
}

int main(void)
{
    snprintf(dir, sizeof dir, "/tmp/kifu-lock-XXXXXX");
    if (!mkdtemp(dir))
        return 1;
    write_game("a.csa", 1);
    write_game("b.csa", 2);
    write_game("c.csa", 3);
    RUN(second_writer_is_busy);
    RUN(hold_makes_and_removes_a_new_file);
    RUN(replace_folds_the_old_log_in_first);
    RUN(replace_refuses_what_is_not_an_index);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        printf("  could not remove %s\n", dir);
    return t_finish();
}
