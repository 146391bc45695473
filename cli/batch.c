/* batch.c: the ordered thread pool of batch.h. One mutex guards the next item to start
 * and the done flags; workers wait when they are a window ahead of the commits, and the
 * calling thread waits for the next item in order. */
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */
#include "batch.h"

#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "record_cursor.h"

/* Items a worker may be ahead of the commits, per thread: enough that one slow file does
 * not stall the others, few enough that waiting results stay small. */
#define WINDOW_PER_JOB 64

typedef struct pool {
    pthread_mutex_t mu;
    pthread_cond_t done_cv; /* an item finished (the committer waits) */
    pthread_cond_t room_cv; /* an item was committed (workers may be a window ahead) */
    size_t n, next, committed, window;
    unsigned char *done;
    cli_batch_fn work;
    void *ctx;
} pool;

int cli_batch_default_jobs(void)
{
    /* The processors this process may run on (a container or taskset may allow fewer
     * than the machine has), else those online. */
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
        return CPU_COUNT(&set) > 256 ? 256 : CPU_COUNT(&set);
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > 256 ? 256 : (int)n;
}

static void *worker(void *arg)
{
    pool *p = arg;
    pthread_mutex_lock(&p->mu);
    for (;;) {
        while (p->next < p->n && p->next >= p->committed + p->window)
            pthread_cond_wait(&p->room_cv, &p->mu);
        if (p->next >= p->n)
            break;
        size_t i = p->next++;
        pthread_mutex_unlock(&p->mu);
        p->work(p->ctx, i);
        pthread_mutex_lock(&p->mu);
        p->done[i] = 1;
        pthread_cond_broadcast(&p->done_cv);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

static void in_order(size_t n, cli_batch_fn work, cli_batch_fn commit, void *ctx)
{
    for (size_t i = 0; i < n; i++) {
        work(ctx, i);
        commit(ctx, i);
    }
}

int cli_batch_run(size_t n, int jobs, cli_batch_fn work, cli_batch_fn commit, void *ctx)
{
    if (jobs < 1)
        jobs = cli_batch_default_jobs();
    if ((size_t)jobs > n)
        jobs = (int)n;
    if (jobs <= 1) {
        in_order(n, work, commit, ctx);
        return 0;
    }
    pool p = {.n = n, .window = (size_t)jobs * WINDOW_PER_JOB, .work = work, .ctx = ctx};
    pthread_t *t = malloc((size_t)jobs * sizeof *t);
    if (!t || !(p.done = calloc(n, 1))) {
        free(t);
        in_order(n, work, commit, ctx);
        return -1;
    }
    pthread_mutex_init(&p.mu, NULL);
    pthread_cond_init(&p.done_cv, NULL);
    pthread_cond_init(&p.room_cv, NULL);
    /* Workers start with every signal blocked, so SIGINT/SIGTERM/SIGHUP reach only this
     * thread: outfile.c's handler can remove a temp file only when it runs on the thread
     * that blocks those signals while the file is made and not yet known to it. */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    int started = 0;
    while (started < jobs && pthread_create(&t[started], NULL, worker, &p) == 0)
        started++;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    int rc = started == jobs ? 0 : -1;
    if (started == 0) {
        /* No thread: this one does the work, in order. */
        p.next = n;
        in_order(n, work, commit, ctx);
    } else {
        for (size_t i = 0; i < n; i++) {
            pthread_mutex_lock(&p.mu);
            while (!p.done[i])
                pthread_cond_wait(&p.done_cv, &p.mu);
            pthread_mutex_unlock(&p.mu);
            commit(ctx, i);
            pthread_mutex_lock(&p.mu);
            p.committed = i + 1;
            pthread_cond_broadcast(&p.room_cv);
            pthread_mutex_unlock(&p.mu);
        }
    }
    for (int i = 0; i < started; i++)
        pthread_join(t[i], NULL);
    pthread_cond_destroy(&p.room_cv);
    pthread_cond_destroy(&p.done_cv);
    pthread_mutex_destroy(&p.mu);
    free(p.done);
    free(t);
    return rc;
}

int cli_jobs_option(int argc, char **argv, int *i, int *jobs)
{
    const char *a = argv[*i], *v;
    if (!strcmp(a, "-j") || !strcmp(a, "--jobs"))
        v = *i + 1 < argc ? argv[++*i] : NULL;
    else if (!strncmp(a, "-j", 2))
        v = a + 2;
    else if (!strncmp(a, "--jobs=", 7))
        v = a + 7;
    else
        return 0;
    int n;
    if (v && !cli_parse_int(v, &n) && n <= 1024) {
        *jobs = n;
        return 1;
    }
    cli_err(
        "kifu: %s: -j takes a number of threads (0: one per processor, at most 1024), "
        "not '%s'\n",
        argv[0], v ? v : "");
    return -1;
}
