/* serve_http.c: `kifu serve`'s HTTP side, on libmicrohttpd (opened at the start, serve_mhd.h): the daemon with its bounds
 * (connections, idle time, memory a connection may use for its request), a request's
 * path and parameters handed to serve_handle, and the answer's headers (the
 * Content-Security-Policy: scripts and styles from this server's files only). It runs
 * until SIGINT or SIGTERM and then stops the daemon: nothing is left behind. */
#define _POSIX_C_SOURCE 200809L
#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "serve.h"
#include "serve_mhd.h"

static const char csp[] =
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

static enum MHD_Result add_param(void *cls, enum MHD_ValueKind kind, const char *key,
                                 const char *value)
{
    (void)kind;
    serve_request *q = cls;
    if (q->nparams == SERVE_MAX_PARAMS) {
        q->too_many = 1;
        return MHD_NO;
    }
    q->params[q->nparams].key = key;
    q->params[q->nparams].value = value;
    q->nparams++;
    return MHD_YES;
}

/* The headers every answer carries. */
static void add_headers(struct MHD_Response *res, const char *type)
{
    serve_mhd.add_response_header(res, "Content-Type", type ? type : "text/plain");
    serve_mhd.add_response_header(res, "Content-Security-Policy", csp);
    serve_mhd.add_response_header(res, "X-Content-Type-Options", "nosniff");
    serve_mhd.add_response_header(res, "Referrer-Policy", "no-referrer");
    serve_mhd.add_response_header(res, "Cache-Control", "no-store");
}

/* A body built for this request is handed over (libmicrohttpd frees it once sent): a
 * copy of it was one more allocation and 25 KB copied an explorer answer. */
static enum MHD_Result answer(struct MHD_Connection *con, serve_response *r)
{
    struct MHD_Response *res = serve_mhd.create_response_from_buffer(
        r->len, (void *)r->body,
        r->owned ? MHD_RESPMEM_MUST_FREE : MHD_RESPMEM_PERSISTENT);
    if (!res)
        return MHD_NO;
    r->owned = NULL;
    add_headers(res, r->type);
    enum MHD_Result ok = serve_mhd.queue_response(con, (unsigned)r->status, res);
    serve_mhd.destroy_response(res);
    return ok;
}

/* Bound to loopback: only requests that name a loopback host are answered, so that a
 * web page whose name was rebound to 127.0.0.1 (DNS rebinding) cannot read the API. */
static int loopback_only;

static int loopback_host(const char *host)
{
    if (!host)
        return 0;
    size_t n = strcspn(host, ":");
    if (host[0] == '[')
        return !strncmp(host, "[::1]", 5);
    if (n == 9 && !strncmp(host, "localhost", 9))
        return 1;
    char name[64];
    struct in_addr a;
    if (n >= sizeof name)
        return 0;
    memcpy(name, host, n);
    name[n] = 0;
    return inet_pton(AF_INET, name, &a) == 1 && (ntohl(a.s_addr) >> 24) == 127;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *con, const char *url,
                                  const char *method, const char *version,
                                  const char *upload, size_t *upload_size, void **state)
{
    (void)version, (void)upload;
    static int seen, body;
    serve_response r = {0};
    int get = !strcmp(method, "GET") || !strcmp(method, "HEAD");
    if (!*state && get) {
        /* The first call only announces the request (its headers); answer on the last. */
        *state = &seen;
        return MHD_YES;
    }
    if (*upload_size) {
        /* A body is read and dropped (up to the connection's memory), then refused. */
        *upload_size = 0;
        *state = &body;
        return MHD_YES;
    }
    if (!get) {
        serve_error(&r, 405, "read-only: GET only");
    } else if (loopback_only && !loopback_host(serve_mhd.lookup_connection_value(
                                    con, MHD_HEADER_KIND, "Host"))) {
        serve_error(&r, 403, "this server answers requests for 127.0.0.1 or localhost");
    } else if (*state == &body) {
        serve_error(&r, 413, "this server takes no request body");
    } else {
        serve_request q = {0};
        q.path = url;
        serve_mhd.get_connection_values(con, MHD_GET_ARGUMENT_KIND, add_param, &q);
        serve_handle(cls, &q, &r);
    }
    enum MHD_Result ok = answer(con, &r);
    serve_response_free(&r);
    return ok;
}

/* libmicrohttpd's own messages (a request too big, a connection closed on error), on
 * stderr through cli_err: what a client sent never reaches the terminal raw. */
static void mhd_log(void *cls, const char *fmt, va_list ap)
{
    (void)cls;
    char text[512];
    vsnprintf(text, sizeof text, fmt, ap);
    size_t n = strlen(text);
    while (n && text[n - 1] == '\n')
        text[--n] = 0;
    cli_err("kifu: http: %s\n", text);
}

static int loopback(const struct in_addr *a)
{
    return (ntohl(a->s_addr) >> 24) == 127;
}

int serve_run(const serve_config *c, const char *host, int port)
{
    struct sockaddr_in sa = {0};
    sa.sin_family = AF_INET;
    sa.sin_port = htons((unsigned short)port);
    if (!strcmp(host, "localhost"))
        host = "127.0.0.1";
    if (inet_pton(AF_INET, host, &sa.sin_addr) != 1) {
        cli_err("kifu: --listen takes an IPv4 address and a port, not '%s'\n", host);
        return EXIT_USAGE;
    }
    char why[512];
    if (serve_mhd_load(SERVE_MHD_SONAME, why, sizeof why) < 0) {
        cli_err("kifu: %s\n", why);
        return EXIT_IO;
    }
    loopback_only = loopback(&sa.sin_addr);
    if (!loopback_only)
        cli_err("kifu: warning: listening on %s, not loopback: anyone who reaches this "
                "address can read the index's games\n",
                host);
    /* The signals are taken by sigwait below: blocked before the daemon's threads start,
     * so that they inherit the mask and none of them is interrupted. */
    sigset_t stop;
    sigemptyset(&stop);
    sigaddset(&stop, SIGINT);
    sigaddset(&stop, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stop, NULL);
    signal(SIGPIPE, SIG_IGN);
    /* Epoll (MHD_USE_AUTO's choice on Linux) on a pool of threads, a few per core: a
     * worker answers its connections' requests one after the other, so one slow search
     * (up to --timeout) holds only the connections of its worker. */
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    unsigned workers = cores < 2 ? 4u : cores > 16 ? 32u : (unsigned)cores * 2;
    struct MHD_Daemon *d = serve_mhd.start_daemon(
        MHD_USE_AUTO_INTERNAL_THREAD | MHD_USE_ERROR_LOG, 0, NULL, NULL, on_request,
        (void *)c, MHD_OPTION_EXTERNAL_LOGGER, mhd_log, NULL, MHD_OPTION_SOCK_ADDR,
        (struct sockaddr *)&sa, MHD_OPTION_THREAD_POOL_SIZE, workers,
        MHD_OPTION_CONNECTION_LIMIT, 64u, MHD_OPTION_PER_IP_CONNECTION_LIMIT, 48u,
        MHD_OPTION_CONNECTION_TIMEOUT, 10u, MHD_OPTION_CONNECTION_MEMORY_LIMIT,
        (size_t)32768, MHD_OPTION_LISTENING_ADDRESS_REUSE, 1u, MHD_OPTION_END);
    if (!d) {
        cli_err("kifu: cannot listen on %s:%d (in use, or not an address of this "
                "machine)\n",
                host, port);
        return EXIT_IO;
    }
    const union MHD_DaemonInfo *info =
        serve_mhd.get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
    printf("kifu: serving %s at http://%s:%u/\n", c->ch_url ? c->ch_url : c->kdb, host,
           info ? (unsigned)info->port : (unsigned)port);
    fflush(stdout);
    int sig = 0;
    sigwait(&stop, &sig);
    serve_mhd.stop_daemon(d);
    return EXIT_OK;
}
