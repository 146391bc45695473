/* index_lock.c: one writer at a time on an index file, and putting a newly built index in
 * the place of another without SQLite replaying the old one's log into it.
 *
 * Writers (kifu_index_open without KIFU_INDEX_READONLY, and a build through
 * kifu_index_lock_take) hold an flock(2) on the index file itself, so that nothing is
 * left beside it. flock and SQLite's fcntl locks are separate on Linux, so readers are
 * not held up. The lock is taken on the file the path names, then the path is looked at
 * again: a build may have renamed a new file over it meanwhile, and the lock of a file
 * no longer at that path guards nothing, so it is taken again on the new one.
 *
 * The descriptor holding the lock stays open until SQLite's own connection is closed:
 * closing any descriptor of a file drops every fcntl lock the process has on it, SQLite's
 * included.
 *
 * Replacing: SQLite finds its write-ahead log and shared memory by name (PATH-wal,
 * PATH-shm) and replays a log into whatever file is at PATH, so the old index is first
 * turned to a rollback journal (which folds its log in and removes both files; SQLite
 * refuses while another process has it open), then held under an exclusive SQLite lock
 * while the new file is renamed over it. */
#define _DEFAULT_SOURCE /* flock, realpath */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "index/index_private.h"
#include "kifu_private.h"

/* How long a writer waits for another one without KIFU_INDEX_NOWAIT, and how long the
 * replacement waits for the old index's readers. */
#define WAIT_MS 30000
#define POLL_MS 50

struct kifu_index_lock {
    int fd;
    int nowait;  /* KIFU_INDEX_NOWAIT: the replacement does not wait for readers either */
    int created; /* the path did not exist: an empty file made to hold the lock */
    char *path;  /* the file locked (a link's target) */
};

static int busy(const char *path, kifu_error *err)
{
    kifu__error(err, KIFU_ERR_BUSY, 0, 0, 0, NULL, NULL,
                "index busy: another process is writing it");
    kifu__error_source(err, path);
    return -1;
}

static int io_error(const char *path, const char *what, int e, kifu_error *err)
{
    kifu__error(err, KIFU_ERR_IO, 0, 0, 0, NULL, NULL, "%s: %s", what, strerror(e));
    kifu__error_source(err, path);
    return -1;
}

static void pause_ms(long ms)
{
    struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&t, NULL);
}

int kifu__index_lock_fd(const char *path, unsigned flags, int *created, kifu_error *err)
{
    long waited = 0, limit = flags & KIFU_INDEX_NOWAIT ? 0 : WAIT_MS;
    *created = 0;
    for (;;) {
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0 && errno == ENOENT && (flags & KIFU_INDEX_CREATE)) {
            fd = open(path, O_RDONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
            if (fd >= 0)
                *created = 1;
            else if (errno == EEXIST)
                continue; /* made by another meanwhile: lock that one */
        }
        if (fd < 0)
            return io_error(path, errno == ENOENT ? "no index file" : "cannot open",
                            errno, err);
        while (flock(fd, LOCK_EX | LOCK_NB) != 0) {
            if ((errno != EWOULDBLOCK && errno != EINTR) || waited >= limit) {
                int e = errno;
                close(fd);
                return e == EWOULDBLOCK ? busy(path, err)
                                        : io_error(path, "cannot lock", e, err);
            }
            pause_ms(POLL_MS);
            waited += POLL_MS;
        }
        struct stat held, now;
        if (fstat(fd, &held) == 0 && stat(path, &now) == 0 && held.st_dev == now.st_dev &&
            held.st_ino == now.st_ino)
            return fd;
        close(fd); /* replaced (or removed) while we waited: lock what is there now */
        *created = 0;
    }
}

/* ---- The public hold, for a build ----------------------------------------------------- */

kifu_index_lock *kifu_index_lock_take(const char *path, unsigned flags, kifu_error *err)
{
    kifu_index_lock *lk = kifu__calloc(1, sizeof *lk);
    if (!lk) {
        kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
        return NULL;
    }
    /* A link is kept and its target replaced, as every output of kifu is. */
    char real[PATH_MAX];
    struct stat st;
    const char *at = lstat(path, &st) == 0 && S_ISLNK(st.st_mode) && realpath(path, real)
                         ? real
                         : path;
    if (stat(at, &st) == 0 && !S_ISREG(st.st_mode)) {
        kifu__error(err, KIFU_ERR_ARG, 0, 0, 0, NULL, NULL,
                    "not a regular file: an index is not written there");
        kifu__error_source(err, path);
        kifu__free(lk);
        return NULL;
    }
    lk->nowait = (flags & KIFU_INDEX_NOWAIT) != 0;
    if (!(lk->path = kifu__strdup(at))) {
        kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
        kifu__free(lk);
        return NULL;
    }
    lk->fd = kifu__index_lock_fd(lk->path, flags | KIFU_INDEX_CREATE, &lk->created, err);
    if (lk->fd < 0) {
        kifu__error_source(err, path);
        kifu__free(lk->path);
        kifu__free(lk);
        return NULL;
    }
    return lk;
}

const char *kifu_index_lock_path(const kifu_index_lock *lk)
{
    return lk->path;
}

/* Is the file an SQLite database (or empty)? A file of another kind is not replaced:
 * `-o` naming a record by mistake would lose it. */
static int sqlite_or_empty(int fd)
{
    char head[16];
    ssize_t n = pread(fd, head, sizeof head, 0);
    return n == 0 || (n == 16 && memcmp(head, "SQLite format 3", 16) == 0);
}

static int exists(const char *path, const char *suffix)
{
    char p[PATH_MAX + 16];
    struct stat st;
    snprintf(p, sizeof p, "%s%s", path, suffix);
    return lstat(p, &st) == 0;
}

static void remove_side(const char *path, const char *suffix)
{
    char p[PATH_MAX + 16];
    snprintf(p, sizeof p, "%s%s", path, suffix);
    unlink(p);
}

int kifu_index_lock_replace(kifu_index_lock *lk, const char *built, kifu_error *err)
{
    struct stat st;
    if (fstat(lk->fd, &st) != 0)
        return io_error(lk->path, "cannot look at the index", errno, err);
    if (!sqlite_or_empty(lk->fd)) {
        kifu__error(err, KIFU_ERR_ARG, 0, 0, 0, NULL, NULL,
                    "not an index: not replaced (remove it first to write one there)");
        kifu__error_source(err, lk->path);
        return -1;
    }
    int side = exists(lk->path, "-wal") || exists(lk->path, "-shm") ||
               exists(lk->path, "-journal");
    sqlite3 *db = NULL;
    if (st.st_size == 0) {
        /* Nothing of SQLite's is in an empty file, so whatever is beside it is left over
         * from a file removed before (a log replayed into the new one would damage it). */
        if (side) {
            remove_side(lk->path, "-wal");
            remove_side(lk->path, "-shm");
            remove_side(lk->path, "-journal");
        }
    } else {
        if (sqlite3_open_v2(lk->path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX,
                            NULL) != SQLITE_OK) {
            kifu__index_sqlite_error(db, lk->path, "cannot open the index to replace it",
                                     err);
            sqlite3_close(db);
            return -1;
        }
        sqlite3_busy_timeout(db, lk->nowait ? 0 : WAIT_MS);
        /* Reading the schema rolls back a hot journal, then the mode change folds the
         * log in and removes it and the shared memory; the exclusive lock keeps every
         * other process off the old file (they wait, then read it) until it is renamed
         * over. */
        sqlite3_stmt *st_mode = NULL;
        int ok = sqlite3_exec(db, "SELECT count(*) FROM sqlite_master", NULL, NULL,
                              NULL) == SQLITE_OK &&
                 sqlite3_prepare_v2(db, "PRAGMA journal_mode=DELETE", -1, &st_mode,
                                    NULL) == SQLITE_OK &&
                 sqlite3_step(st_mode) == SQLITE_ROW &&
                 strcmp((const char *)sqlite3_column_text(st_mode, 0), "delete") == 0;
        sqlite3_finalize(st_mode);
        ok = ok && sqlite3_exec(db, "BEGIN EXCLUSIVE", NULL, NULL, NULL) == SQLITE_OK;
        if (!ok) {
            int code = sqlite3_errcode(db);
            if (code == SQLITE_BUSY || code == SQLITE_LOCKED || code == SQLITE_OK) {
                kifu__error(err, KIFU_ERR_BUSY, 0, 0, 0, NULL, NULL,
                            "index busy: another process has it open; not replaced");
                kifu__error_source(err, lk->path);
            } else if (!side) {
                /* A damaged file with nothing beside it: nothing would be replayed. */
                sqlite3_close(db);
                db = NULL;
                ok = 1;
            } else {
                kifu__index_sqlite_error(
                    db, lk->path, "cannot take the index's lock; not replaced", err);
            }
            if (!ok) {
                sqlite3_close(db);
                return -1;
            }
        }
    }
    if (rename(built, lk->path) != 0) {
        int e = errno;
        sqlite3_close(db); /* its transaction rolled back, nothing written */
        return io_error(lk->path, "cannot replace it with the new index", e, err);
    }
    sqlite3_close(db);
    lk->created = 0; /* the file at the path is the new index now */
    return 0;
}

void kifu_index_lock_release(kifu_index_lock *lk)
{
    if (!lk)
        return;
    /* The empty file made to hold the lock goes, unless it turned into something. */
    struct stat held, now;
    if (lk->created && fstat(lk->fd, &held) == 0 && held.st_size == 0 &&
        stat(lk->path, &now) == 0 && now.st_ino == held.st_ino &&
        now.st_dev == held.st_dev)
        unlink(lk->path);
    close(lk->fd);
    kifu__free(lk->path);
    kifu__free(lk);
}
