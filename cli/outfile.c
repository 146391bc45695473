/* outfile.c: never leave a half-written output file. A regular file (or a new path) is
 * written to a temp file next to it, then renamed over it; a device, FIFO or socket is
 * written in place (renaming over /dev/null would replace the device with a file); a
 * symbolic link is followed and its target replaced, the link kept.
 *
 * Temp files are named "NAME.kifu-tmp-PID-XXXXXX". SIGINT, SIGTERM and SIGHUP remove
 * the one being written before the process ends with the signal; what a harder kill
 * leaves is removed by the next run that writes into the same directory, once the
 * process that made it is gone. */
#define _XOPEN_SOURCE 700 /* realpath */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "inputs.h"

#define TMP_MARK ".kifu-tmp-"

/* The temp file being written, for the signal handler (only one at a time: the CLI
 * writes its outputs one after another). */
static char live_path[PATH_MAX + 64];
static volatile sig_atomic_t live;

static const int caught[] = {SIGINT, SIGTERM, SIGHUP};
#define NCAUGHT (sizeof caught / sizeof caught[0])
static struct sigaction saved[NCAUGHT];

static void restore_handlers(void)
{
    for (size_t i = 0; i < NCAUGHT; i++)
        sigaction(caught[i], &saved[i], NULL);
}

/* Async-signal-safe only: unlink, sigaction, raise. The signal is raised again under
 * the handler that was there before (the terminal's restorer, or the default that ends
 * the process with the usual status). */
static void on_signal(int sig)
{
    if (live)
        unlink(live_path);
    live = 0;
    restore_handlers();
    raise(sig);
}

static void install_handlers(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigfillset(&sa.sa_mask);
    for (size_t i = 0; i < NCAUGHT; i++) {
        sigaction(caught[i], NULL, &saved[i]);
        /* An ignored signal (nohup) stays ignored: the write goes on. */
        if (saved[i].sa_handler != SIG_IGN)
            sigaction(caught[i], &sa, NULL);
    }
}

static void block_signals(sigset_t *old)
{
    sigset_t set;
    sigemptyset(&set);
    for (size_t i = 0; i < NCAUGHT; i++)
        sigaddset(&set, caught[i]);
    sigprocmask(SIG_BLOCK, &set, old);
}

/* The directories already cleaned of leftovers in this run. */
static char **cleaned;
static size_t ncleaned, capcleaned;

static void free_cleaned(void)
{
    for (size_t i = 0; i < ncleaned; i++)
        free(cleaned[i]);
    free(cleaned);
}

/* Is `name` a temp file of ours whose process is gone? NAME.kifu-tmp-PID-XXXXXX, or an
 * index being built (cmd_index.c) and SQLite's files beside it:
 * NAME.kifu-build-PID[-journal|-wal|-shm]. */
static int stale_temp(const char *name)
{
    const char *m = strstr(name, TMP_MARK);
    int build = !m;
    if (build)
        m = strstr(name, CLI_BUILD_MARK);
    if (!m || m == name)
        return 0;
    const char *p = m + strlen(build ? CLI_BUILD_MARK : TMP_MARK);
    char *end;
    long pid = strtol(p, &end, 10);
    if (end == p || pid <= 0)
        return 0;
    if (!build ? *end != '-' || strlen(end + 1) != 6
               : *end && strcmp(end, "-journal") && strcmp(end, "-wal") &&
                     strcmp(end, "-shm"))
        return 0;
    /* Our own temp files are gone by the time we look (one at a time, cleaned up): a
     * file with our PID is from an earlier process that had it. */
    if (pid == (long)getpid())
        return 1;
    return kill((pid_t)pid, 0) != 0 && errno == ESRCH;
}

void cli_clean_leftovers(const char *dir)
{
    for (size_t i = 0; i < ncleaned; i++)
        if (strcmp(cleaned[i], dir) == 0)
            return;
    if (ncleaned == capcleaned) {
        size_t cap = capcleaned ? capcleaned * 2 : 8;
        char **v = realloc(cleaned, cap * sizeof *v);
        if (!v)
            return;
        if (!cleaned)
            atexit(free_cleaned);
        cleaned = v;
        capcleaned = cap;
    }
    char *copy = strdup(dir);
    if (!copy)
        return;
    cleaned[ncleaned++] = copy;
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (!stale_temp(e->d_name))
            continue;
        char path[PATH_MAX + NAME_MAX + 2];
        if (snprintf(path, sizeof path, "%s/%s", dir, e->d_name) < (int)sizeof path)
            unlink(path);
    }
    closedir(d);
}

int cli_temp_name(char *buf, size_t cap, const char *path, const char *suffix,
                  size_t reserve)
{
    const char *slash = strrchr(path, '/');
    size_t dirlen = slash ? (size_t)(slash + 1 - path) : 0;
    size_t base = strlen(path + dirlen), room = NAME_MAX - reserve - strlen(suffix);
    if (reserve + strlen(suffix) >= NAME_MAX)
        return -1;
    if (base > room) {
        /* A name of up to NAME_MAX bytes has no room for the suffix: its start stands
         * for it, cut before a UTF-8 continuation byte so that it stays text. */
        base = room;
        while (base && ((unsigned char)path[dirlen + base] & 0xC0) == 0x80)
            base--;
    }
    int n = snprintf(buf, cap, "%.*s%.*s%s", (int)dirlen, path, (int)base, path + dirlen,
                     suffix);
    return n < 0 || (size_t)n >= cap ? -1 : 0;
}

static int write_fd(int fd, const void *data, size_t len)
{
    const char *p = data;
    while (len) {
        ssize_t w = write(fd, p, len);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        p += w;
        len -= (size_t)w;
    }
    return 0;
}

/* Devices, FIFOs and sockets, and a link whose target does not exist yet: written in
 * place (nothing to replace atomically). */
static int write_in_place(const char *path, const void *data, size_t len)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd < 0) {
        cli_err("kifu: %s: cannot open: %s\n", path, strerror(errno));
        return -1;
    }
    int ok = write_fd(fd, data, len) == 0;
    int saved_errno = errno;
    ok = close(fd) == 0 && ok;
    if (!ok)
        cli_err("kifu: %s: cannot write: %s\n", path, strerror(saved_errno));
    return ok ? 0 : -1;
}

void cli_clean_beside(const char *path)
{
    const char *slash = strrchr(path, '/');
    char dir[PATH_MAX];
    if (!slash)
        strcpy(dir, ".");
    else if (slash == path)
        strcpy(dir, "/");
    else if ((size_t)(slash - path) < sizeof dir)
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
    else
        dir[0] = 0;
    if (dir[0])
        cli_clean_leftovers(dir);
}

/* Opens the temp file next to path that atomic_close renames over it: its fd, or -1
 * with a message. */
static int atomic_open(const char *path)
{
    cli_clean_beside(path);

    char suffix[48];
    snprintf(suffix, sizeof suffix, TMP_MARK "%ld-XXXXXX", (long)getpid());
    if (cli_temp_name(live_path, sizeof live_path, path, suffix, 0)) {
        cli_err("kifu: %s: path too long\n", path);
        return -1;
    }
    /* Signals wait while the temp file exists but is not yet known to the handler. */
    sigset_t old;
    install_handlers();
    block_signals(&old);
    int fd = mkstemp(live_path);
    live = fd >= 0;
    int saved_errno = errno;
    sigprocmask(SIG_SETMASK, &old, NULL);
    if (fd < 0) {
        restore_handlers();
        cli_err("kifu: %s: cannot create: %s\n", path, strerror(saved_errno));
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
    return fd;
}

/* Syncs and closes atomic_open's fd and, when ok (everything was written; else its
 * errno is saved_errno), renames the temp file over path; else removes it. 0, or -1
 * with a message when ok was 1. */
static int atomic_close(int fd, const char *path, int ok, int saved_errno)
{
    ok = ok && fsync(fd) == 0;
    if (ok)
        saved_errno = errno;
    int closed = close(fd) == 0;
    if (ok && !closed)
        saved_errno = errno;
    int wanted = ok;
    ok = ok && closed;
    sigset_t old;
    block_signals(&old);
    if (ok && rename(live_path, path) != 0) {
        saved_errno = errno;
        ok = 0;
    }
    if (!ok)
        unlink(live_path);
    live = 0;
    sigprocmask(SIG_SETMASK, &old, NULL);
    restore_handlers();
    if (!ok && (wanted || saved_errno))
        cli_err("kifu: %s: cannot write: %s\n", path, strerror(saved_errno));
    return ok ? 0 : -1;
}

static int write_atomic(const char *path, const void *data, size_t len)
{
    int fd = atomic_open(path);
    if (fd < 0)
        return -1;
    int ok = write_fd(fd, data, len) == 0;
    return atomic_close(fd, path, ok, ok ? 0 : errno);
}

int cli_flush_stdout(void)
{
    errno = 0;
    if (fflush(stdout) == 0 && !ferror(stdout))
        return 0;
    if (errno)
        cli_err("kifu: cannot write to standard output: %s\n", strerror(errno));
    else
        cli_err("kifu: cannot write to standard output\n");
    return -1;
}

int cli_write_file(const char *path, const void *data, size_t len)
{
    if (!path || strcmp(path, "-") == 0) {
        if (fwrite(data, 1, len, stdout) != len || fflush(stdout)) {
            cli_err("kifu: cannot write to standard output: %s\n", strerror(errno));
            return -1;
        }
        return 0;
    }
    if (cli_is_input(path)) {
        cli_err("kifu: %s: not written: it is one of the inputs\n", path);
        return -1;
    }
    struct stat st;
    if (lstat(path, &st) != 0)
        return write_atomic(path, data, len); /* a new file */
    if (S_ISLNK(st.st_mode)) {
        /* Replace the file the link names, not the link. A dangling link is written
         * through, which creates its target. */
        char target[PATH_MAX];
        if (!realpath(path, target) || stat(target, &st) != 0)
            return write_in_place(path, data, len);
        return S_ISREG(st.st_mode) ? write_atomic(target, data, len)
                                   : write_in_place(target, data, len);
    }
    if (S_ISDIR(st.st_mode)) {
        cli_err("kifu: %s: is a directory\n", path);
        return -1;
    }
    return S_ISREG(st.st_mode) ? write_atomic(path, data, len)
                               : write_in_place(path, data, len);
}

/* ---- an output written piece by piece (cli_stream_*) ------------------------------- */

struct cli_stream {
    char *path; /* where the temp file goes when it is done; NULL: in place */
    char *name; /* for messages */
    int fd, in_place, failed, saved_errno;
};

cli_stream *cli_stream_open(const char *path)
{
    cli_stream *w = calloc(1, sizeof *w);
    char target[PATH_MAX];
    const char *to = path;
    struct stat st;
    int in_place = 0;
    if (!w) {
        cli_err("kifu: out of memory\n");
        return NULL;
    }
    if (cli_is_input(path)) {
        cli_err("kifu: %s: not written: it is one of the inputs\n", path);
        free(w);
        return NULL;
    }
    if (lstat(path, &st) == 0) {
        if (S_ISLNK(st.st_mode)) {
            /* As cli_write_file: the link's target is replaced, the link kept. */
            if (!realpath(path, target) || stat(target, &st) != 0)
                in_place = 1;
            else
                to = target;
        }
        if (!in_place && S_ISDIR(st.st_mode)) {
            cli_err("kifu: %s: is a directory\n", path);
            free(w);
            return NULL;
        }
        if (!in_place && !S_ISREG(st.st_mode))
            in_place = 1;
    }
    w->path = strdup(to);
    w->name = strdup(path);
    w->in_place = in_place;
    if (!w->path || !w->name) {
        cli_err("kifu: out of memory\n");
        free(w->path), free(w->name), free(w);
        return NULL;
    }
    w->fd = in_place ? open(w->path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666)
                     : atomic_open(w->path);
    if (w->fd < 0) {
        if (in_place)
            cli_err("kifu: %s: cannot open: %s\n", path, strerror(errno));
        free(w->path), free(w->name), free(w);
        return NULL;
    }
    return w;
}

int cli_stream_write(cli_stream *w, const void *data, size_t len)
{
    if (w->failed)
        return -1;
    if (write_fd(w->fd, data, len)) {
        w->failed = 1;
        w->saved_errno = errno;
        return -1;
    }
    return 0;
}

int cli_stream_close(cli_stream *w, int keep)
{
    if (!w)
        return -1;
    int rc;
    if (w->in_place) {
        int ok = !w->failed && close(w->fd) == 0;
        if (w->failed)
            close(w->fd);
        rc = ok ? 0 : -1;
        if (!ok)
            cli_err("kifu: %s: cannot write: %s\n", w->name,
                    strerror(w->failed ? w->saved_errno : errno));
    } else {
        rc = atomic_close(w->fd, w->path, keep && !w->failed, w->saved_errno);
    }
    free(w->path), free(w->name), free(w);
    return keep ? rc : 0;
}
