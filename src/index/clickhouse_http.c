/* clickhouse_http.c: a small HTTP/1.1 client of our own for ClickHouse's HTTP interface,
 * over POSIX sockets: POSTs on a kept-alive connection per server (a new connection costs
 * an explorer query a round trip and the server a thread start), each answer read to its
 * end (Content-Length or chunks) and un-chunked. No library: the index must not pull in
 * libcurl for one verb. */
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "index/clickhouse.h"
#include "kifu_private.h"

static void base64(const char *in, char *out, size_t cap)
{
    static const char t[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    size_t n = strlen(in), o = 0;
    for (size_t i = 0; i < n && o + 5 < cap; i += 3) {
        unsigned v = (unsigned char)in[i] << 16;
        if (i + 1 < n)
            v |= (unsigned char)in[i + 1] << 8;
        if (i + 2 < n)
            v |= (unsigned char)in[i + 2];
        out[o++] = t[v >> 18];
        out[o++] = t[(v >> 12) & 63];
        out[o++] = i + 1 < n ? t[(v >> 6) & 63] : '=';
        out[o++] = i + 2 < n ? t[v & 63] : '=';
    }
    out[o] = 0;
}

int kifu__ch_server_parse(kifu__ch_server *s, const char *url, const char *user,
                          const char *password, kifu_error *err)
{
    memset(s, 0, sizeof *s);
    snprintf(s->url, sizeof s->url, "%s", url);
    if (strncasecmp(url, "https://", 8) == 0)
        return kifu__error(err, KIFU_ERR_UNSUPPORTED, 0, 0, 0, "http://HOST:PORT", url,
                           "%s: https is not supported (kifu speaks plain HTTP; reach a "
                           "remote server through a tunnel)",
                           url);
    if (strncasecmp(url, "http://", 7) != 0)
        return kifu__error(err, KIFU_ERR_ARG, 0, 0, 0, "http://HOST:PORT", url,
                           "%s: a ClickHouse URL is http://HOST:PORT", url);
    const char *h = url + 7, *end = h + strcspn(h, "/?");
    const char *at = memchr(h, '@', (size_t)(end - h));
    if (at)
        return kifu__error(err, KIFU_ERR_ARG, 0, 0, 0, NULL, NULL,
                           "%.*s...: no credentials in the URL (they would show in the "
                           "process list); set KIFU_CLICKHOUSE_USER and "
                           "KIFU_CLICKHOUSE_PASSWORD",
                           (int)(h - url), url);
    const char *colon = NULL;
    if (*h == '[') { /* [::1]:8123 */
        const char *close = memchr(h, ']', (size_t)(end - h));
        if (!close)
            return kifu__error(err, KIFU_ERR_ARG, 0, 0, 0, NULL, NULL, "%s: bad address",
                               url);
        snprintf(s->host, sizeof s->host, "%.*s", (int)(close - h - 1), h + 1);
        colon = close[1] == ':' ? close + 1 : NULL;
    } else {
        colon = memchr(h, ':', (size_t)(end - h));
        const char *he = colon ? colon : end;
        snprintf(s->host, sizeof s->host, "%.*s", (int)(he - h), h);
    }
    if (colon) {
        size_t n = (size_t)(end - colon - 1);
        if (n == 0 || n >= sizeof s->port || strspn(colon + 1, "0123456789") < n)
            return kifu__error(err, KIFU_ERR_ARG, 0, 0, 0, "a port number", NULL,
                               "%s: bad port", url);
        memcpy(s->port, colon + 1, n);
    } else {
        snprintf(s->port, sizeof s->port, "8123");
    }
    if (!s->host[0])
        return kifu__error(err, KIFU_ERR_ARG, 0, 0, 0, NULL, NULL, "%s: no host", url);
    if (user && *user) {
        char plain[200], enc[260];
        snprintf(plain, sizeof plain, "%s:%s", user, password ? password : "");
        base64(plain, enc, sizeof enc);
        snprintf(s->auth, sizeof s->auth, "Basic %s", enc);
    }
    return 0;
}

static long long now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* Wait until fd is ready for `events` or the deadline passes: 1 ready, 0 timed out. */
static int wait_fd(int fd, short events, long long deadline)
{
    for (;;) {
        long long left = deadline - now_ms();
        if (left <= 0)
            return 0;
        struct pollfd p = {fd, events, 0};
        int r = poll(&p, 1, left > 60000 ? 60000 : (int)left);
        if (r > 0)
            return 1;
        if (r < 0 && errno != EINTR)
            return 1; /* let the next read or write report it */
    }
}

/* A connected non-blocking socket, or -1 with a message in why. */
static int connect_to(const kifu__ch_server *s, long long deadline, char *why, size_t cap)
{
    struct addrinfo hints = {0}, *res = NULL;
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    int rc = getaddrinfo(s->host, s->port, &hints, &res);
    if (rc) {
        snprintf(why, cap, "cannot resolve %s: %s", s->host, gai_strerror(rc));
        return -1;
    }
    int fd = -1;
    snprintf(why, cap, "cannot connect");
    for (struct addrinfo *a = res; a; a = a->ai_next) {
        fd = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
        if (fd < 0)
            continue;
        fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
        /* A request goes out as two writes (head, body): without this the body waits
         * for the server's delayed ACK of the head, 40 ms a request on Linux. */
        int one = 1;
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        if (connect(fd, a->ai_addr, a->ai_addrlen) == 0)
            break;
        if (errno == EINPROGRESS && wait_fd(fd, POLLOUT, deadline)) {
            int e = 0;
            socklen_t len = sizeof e;
            getsockopt(fd, SOL_SOCKET, SO_ERROR, &e, &len);
            if (e == 0)
                break;
            errno = e;
        } else if (errno == EINPROGRESS) {
            errno = ETIMEDOUT;
        }
        snprintf(why, cap, "cannot connect: %s", strerror(errno));
        close(fd);
        fd = -1;
    }
    freeaddrinfo(res);
    return fd;
}

static int send_all(int fd, const char *p, size_t n, long long deadline)
{
    while (n) {
        ssize_t w = send(fd, p, n, MSG_NOSIGNAL);
        if (w > 0) {
            p += w, n -= (size_t)w;
        } else if (w < 0 && (errno == EAGAIN || errno == EINTR)) {
            if (!wait_fd(fd, POLLOUT, deadline)) {
                errno = ETIMEDOUT;
                return -1;
            }
        } else {
            return -1;
        }
    }
    return 0;
}

/* Un-chunk body in place (Transfer-Encoding: chunked); its new length, or -1. */
static long unchunk(char *body, size_t len)
{
    size_t in = 0, out = 0;
    for (;;) {
        char *end;
        if (in >= len)
            return -1;
        unsigned long n = strtoul(body + in, &end, 16);
        char *nl = memchr(body + in, '\n', len - in);
        if (end == body + in || !nl)
            return -1;
        in = (size_t)(nl - body) + 1;
        if (n == 0)
            return (long)out;
        if (n > len - in)
            return -1;
        memmove(body + out, body + in, n);
        out += n, in += n;
        if (in < len && body[in] == '\r')
            in++;
        if (in < len && body[in] == '\n')
            in++;
    }
}

/* ClickHouse's exception text, shortened to its first line without the stack. */
static void exception_text(const char *body, size_t len, char *buf, size_t cap)
{
    size_t n = strcspn(body, "\n");
    if (n > len)
        n = len;
    const char *e = strstr(body, ", e.what()");
    if (e && (size_t)(e - body) < n)
        n = (size_t)(e - body);
    snprintf(buf, cap, "%.*s", (int)n, body);
}

/* Where an answer in buf[0..len) (NUL after it) ends: -1 not yet, or only at the end of
 * the stream; else its length. *scan keeps how far the chunks were walked between calls;
 * *closing tells that the server closes the connection after it. */
static long answer_end(const char *buf, size_t len, size_t *scan, int *closing)
{
    const char *hend = strstr(buf, "\r\n\r\n"); /* the headers hold no NUL */
    if (!hend)
        return -1;
    size_t body = (size_t)(hend - buf) + 4;
    long long clen = -1;
    int chunked = 0;
    *closing = 0;
    for (const char *h = strstr(buf, "\r\n"); h && h < hend; h = strstr(h + 2, "\r\n")) {
        if (strncasecmp(h + 2, "Content-Length:", 15) == 0)
            clen = strtoll(h + 17, NULL, 10);
        chunked |= strncasecmp(h + 2, "Transfer-Encoding: chunked", 26) == 0;
        *closing |= strncasecmp(h + 2, "Connection: close", 17) == 0;
    }
    if (chunked) {
        size_t at = *scan > body ? *scan : body;
        for (;;) {
            const char *nl = memchr(buf + at, '\n', len - at);
            if (!nl)
                return -1;
            unsigned long n = strtoul(buf + at, NULL, 16);
            size_t next = (size_t)(nl - buf) + 1 + n + (n ? 2 : 0);
            if (n ==
                0) /* the last chunk, then an empty line (ClickHouse sends no trailer) */
                return next + 2 <= len ? (long)(next + 2) : -1;
            if (next > len)
                return -1;
            *scan = at = next;
        }
    }
    if (clen >= 0)
        return body + (size_t)clen <= len ? (long)(body + (size_t)clen) : -1;
    return -1; /* neither: the answer ends with the connection */
}

/* A query that only reads (SELECT), which may go again when a kept connection turns out
 * closed; anything else (an INSERT may have been written) goes on a new connection. */
static int reads_only(const char *params, const char *body, size_t len)
{
    const char *q = strstr(params, "query=");
    if (q && (q == params || q[-1] == '&'))
        return strncmp(q + 6, "SELECT", 6) == 0;
    return len >= 7 && strncmp(body, "SELECT ", 7) == 0;
}

/* For a read, the kept connection to s when it still looks good (*reused set), else a
 * new one; -1 with why. */
static int connection(kifu__ch_server *s, int read, long long deadline, char *why,
                      size_t cap, int *reused)
{
    *reused = 0;
    if (s->conn && read) {
        /* The server closes a connection idle for keep_alive_timeout (3 s by default):
         * one idle for a second is not trusted, nor one with something (its close) to
         * read. One closing as the request goes gives no answer: the read goes again. */
        struct pollfd p = {s->conn - 1, POLLIN, 0};
        if (now_ms() - s->idle_at < 1000 && poll(&p, 1, 0) == 0) {
            *reused = 1;
            int fd = s->conn - 1;
            s->conn = 0; /* ours until the answer is read whole */
            return fd;
        }
    }
    kifu__ch_disconnect(s);
    return connect_to(s, deadline, why, cap);
}

void kifu__ch_disconnect(kifu__ch_server *s)
{
    if (s->conn)
        close(s->conn - 1);
    s->conn = 0;
}

/* Read the answer to a request (sent: the whole request went out) into resp, until it
 * is whole (*whole its length, else -1), the server closes, or the deadline passes.
 * *closing: the server asked to close. 0, or -1 with why. */
static int receive(int fd, int sent, long long deadline, int timeout_ms,
                   kifu__strbuf *resp, long *whole, int *closing, char *why, size_t cap)
{
    size_t scan = 0;
    *whole = -1, *closing = 1;
    for (;;) {
        /* A server that streams without end would otherwise take all the memory. */
        if (resp->len > KIFU__CH_ANSWER_MAX) {
            snprintf(why, cap, "an answer larger than %d MB", KIFU__CH_ANSWER_MAX >> 20);
            return -1;
        }
        if (kifu__sb_reserve(resp, 65536)) {
            snprintf(why, cap, "out of memory");
            return -1;
        }
        ssize_t r = recv(fd, resp->data + resp->len, resp->cap - resp->len - 1, 0);
        if (r > 0) {
            resp->len += (size_t)r;
            resp->data[resp->len] = 0;
            if ((*whole = answer_end(resp->data, resp->len, &scan, closing)) >= 0)
                return 0;
        } else if (r == 0) {
            return 0;
        } else if (errno == EAGAIN || errno == EINTR) {
            if (!wait_fd(fd, POLLIN, deadline)) {
                snprintf(why, cap, "no answer within %d ms", timeout_ms);
                return -1;
            }
        } else if (!resp->len) {
            if (sent)
                snprintf(why, cap, "connection lost: %s", strerror(errno));
            return -1;
        } else {
            return 0; /* reset after its answer: the answer says what happened */
        }
    }
}

int kifu__ch_post(kifu__ch_server *s, int timeout_ms, const char *params,
                  const char *body, size_t len, kifu__strbuf *out, int *transient,
                  kifu_error *err)
{
    long long deadline = now_ms() + (timeout_ms > 0 ? timeout_ms : 300000);
    char why[512];
    int t = 1;
    kifu__strbuf req, resp;
    int query_only = reads_only(params, body, len), reused;
again:
    kifu__sb_init(&req), kifu__sb_init(&resp);
    int fd = connection(s, query_only, deadline, why, sizeof why, &reused);
    if (fd < 0)
        goto fail;
    kifu__sb_printf(&req,
                    "POST /?%s HTTP/1.1\r\nHost: %s:%s\r\nContent-Length: %zu\r\n"
                    "Connection: keep-alive\r\n",
                    params, s->host, s->port, len);
    if (s->auth[0])
        kifu__sb_printf(&req, "Authorization: %s\r\n", s->auth);
    kifu__sb_puts(&req, "\r\n");
    if (req.failed) {
        snprintf(why, sizeof why, "out of memory");
        goto fail;
    }
    /* A server that refuses an INSERT may answer and close before it read the body: its
     * answer, when there is one, says more than the broken send. */
    int sent = send_all(fd, req.data, req.len, deadline) == 0 &&
               send_all(fd, body, len, deadline) == 0;
    if (!sent)
        snprintf(why, sizeof why, "cannot send: %s", strerror(errno));
    /* Once the whole request is out, a lost or late answer leaves its outcome unknown:
     * an INSERT may have been written, and sent again it would count twice. Only the
     * journal's repair may undo it, so no retry. */
    t = !sent;
    long whole;
    int closing;
    if (receive(fd, sent, deadline, timeout_ms, &resp, &whole, &closing, why, sizeof why))
        goto fail;
    if (!sent && !resp.len)
        goto fail;
    resp.data[resp.len] = 0;
    char *hend = strstr(resp.data, "\r\n\r\n");
    int status = 0;
    if (!hend || sscanf(resp.data, "HTTP/1.%*d %d", &status) != 1) {
        snprintf(why, sizeof why, "not an HTTP answer");
        goto fail;
    }
    *hend = 0;
    /* Kept for the next request: a whole answer, nothing after it, no close asked. */
    int keep = sent && whole >= 0 && (size_t)whole == resp.len && !closing;
    if (keep) {
        s->conn = fd + 1;
        s->idle_at = now_ms();
    } else {
        close(fd);
    }
    fd = -1;
    char *b = hend + 4;
    size_t blen = resp.len - (size_t)(b - resp.data);
    int chunked = 0;
    for (char *h = strstr(resp.data, "\r\n"); h; h = strstr(h + 2, "\r\n"))
        chunked |= strncasecmp(h + 2, "Transfer-Encoding: chunked", 26) == 0;
    if (chunked) {
        long n = unchunk(b, blen);
        if (n < 0) {
            snprintf(why, sizeof why, "a damaged chunked answer");
            goto fail;
        }
        blen = (size_t)n;
    }
    b[blen] = 0;
    if (status == 200 && !sent)
        goto fail; /* an answer to part of the request */
    if (status != 200) {
        char text[400];
        exception_text(b, blen, text, sizeof text);
        /* An answer with an exception is the server's verdict; an empty 5xx is not. */
        t = status >= 500 && !strstr(b, "Code: ");
        snprintf(why, sizeof why, "HTTP %d: %s", status, text);
        goto fail;
    }
    if (out)
        kifu__sb_putn(out, b, blen);
    kifu__sb_free(&req), kifu__sb_free(&resp);
    if (transient)
        *transient = 0;
    return 0;
fail:
    if (fd >= 0)
        close(fd);
    int retry = reused && !resp.len; /* a kept connection the server had closed */
    kifu__sb_free(&req), kifu__sb_free(&resp);
    if (retry) {
        t = 1;
        goto again;
    }
    if (transient)
        *transient = t;
    kifu__error(err, KIFU_ERR_IO, 0, 0, 0, NULL, NULL, "ClickHouse server %s: %s", s->url,
                why);
    return -1;
}

int kifu__ch_post_retry(const kifu__ch *ch, kifu__ch_server *s, const char *params,
                        const char *body, size_t len, kifu__strbuf *out, kifu_error *err)
{
    int wait = ch->backoff_ms;
    for (int attempt = 0;; attempt++) {
        kifu_error e;
        kifu_error_clear(&e);
        int transient = 0;
        size_t at = out ? out->len : 0;
        if (kifu__ch_post(s, ch->timeout_ms, params, body, len, out, &transient, &e) == 0)
            return 0;
        if (out)
            out->len = at;
        if (!transient || attempt >= ch->retries) {
            if (attempt)
                snprintf(e.message + strlen(e.message),
                         sizeof e.message - strlen(e.message), " (after %d tries)",
                         attempt + 1);
            if (err && !err->code)
                *err = e;
            return -1;
        }
        struct timespec ts = {wait / 1000, (long)(wait % 1000) * 1000000};
        while (nanosleep(&ts, &ts) && errno == EINTR)
            ;
        wait *= 2;
    }
}

int kifu__ch_sql(const kifu__ch *ch, kifu__ch_server *s, const char *sql,
                 kifu__strbuf *out, kifu_error *err)
{
    /* 64-bit integers as numbers in JSON. A short statement goes in the URL: a server
     * that refuses the request (a wrong password) answers before reading any body, and
     * a body left unread makes its close a reset that can lose the answer. */
    size_t len = strlen(sql);
    if (len > 4000)
        return kifu__ch_post(s, ch->timeout_ms,
                             "output_format_json_quote_64bit_integers=0", sql, len, out,
                             NULL, err);
    kifu__strbuf params;
    kifu__sb_init(&params);
    kifu__sb_puts(&params, "output_format_json_quote_64bit_integers=0&query=");
    kifu__ch_urlencode(&params, sql);
    int rc = params.failed
                 ? kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory")
                 : kifu__ch_post(s, ch->timeout_ms, params.data, "", 0, out, NULL, err);
    kifu__sb_free(&params);
    return rc;
}

void kifu__ch_name_down(const kifu__ch *ch, kifu_error *err)
{
    if (!err || !err->code)
        return;
    char down[400] = "";
    size_t n = 0;
    for (size_t i = 0; i < ch->nservers; i++) {
        kifu__strbuf out;
        kifu__sb_init(&out);
        /* A server that answers, even with an exception (a wrong password), is up. */
        int transient = 0;
        int bad = kifu__ch_post(&ch->servers[i], 2000, "query=SELECT%201", "", 0, &out,
                                &transient, NULL) != 0 &&
                  transient;
        kifu__sb_free(&out);
        if (bad && n < sizeof down)
            n += (size_t)snprintf(down + n, sizeof down - n, "%s%s %zu (%s)",
                                  n ? ", " : "", ch->cluster[0] ? "shard" : "server",
                                  i + 1, ch->servers[i].url);
    }
    if (!down[0])
        return;
    kifu__ch_err_prefix(err, " is down; ");
    kifu__ch_err_prefix(err, down);
}

void kifu__ch_err_prefix(kifu_error *err, const char *prefix)
{
    if (!err)
        return;
    size_t cap = sizeof err->message - 1, p = strlen(prefix), m = strlen(err->message);
    p = p > cap ? cap : p;
    m = p + m > cap ? cap - p : m;
    memmove(err->message + p, err->message, m);
    memcpy(err->message + 0, prefix, p);
    err->message[p + m] = 0;
}

void kifu__ch_urlencode(kifu__strbuf *b, const char *v)
{
    static const char hex[] = "0123456789ABCDEF";
    for (; *v; v++) {
        unsigned char c = (unsigned char)*v;
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
            strchr("-_.~", c))
            kifu__sb_putc(b, (char)c);
        else
            kifu__sb_printf(b, "%%%c%c", hex[c >> 4], hex[c & 15]);
    }
}

void kifu__ch_tsv(kifu__strbuf *b, const char *s)
{
    if (!s) {
        kifu__sb_puts(b, "\\N");
        return;
    }
    for (; *s; s++) {
        switch (*s) {
        case '\t':
            kifu__sb_puts(b, "\\t");
            break;
        case '\n':
            kifu__sb_puts(b, "\\n");
            break;
        case '\r':
            kifu__sb_puts(b, "\\r");
            break;
        case '\\':
            kifu__sb_puts(b, "\\\\");
            break;
        case '\'':
            kifu__sb_puts(b, "\\'");
            break;
        default:
            kifu__sb_putc(b, *s);
        }
    }
}

int kifu__ch_field(const char **p, char *buf, size_t cap)
{
    const char *s = *p;
    size_t o = 0;
    int null = s[0] == '\\' && s[1] == 'N' && (s[2] == '\t' || s[2] == '\n' || !s[2]);
    if (null)
        s += 2;
    while (*s && *s != '\t' && *s != '\n') {
        char c = *s++;
        if (c == '\\' && *s) {
            c = *s++;
            c = c == 't' ? '\t' : c == 'n' ? '\n' : c == 'r' ? '\r' : c == '0' ? ' ' : c;
        }
        if (o + 1 < cap)
            buf[o++] = c;
    }
    if (cap)
        buf[o] = 0;
    if (*s == '\t')
        s++;
    *p = s;
    return null;
}
