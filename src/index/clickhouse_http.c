/* clickhouse_http.c: ClickHouse's HTTP interface through libcurl (loaded at the first URL
 * and called through a table of its functions: clickhouse_curl.c): POSTs over http:// or
 * https:// (certificates verified against the system's CAs, or --ca-file's), one easy
 * handle per server so that its connection is kept alive between requests (a new
 * connection, and over TLS a new handshake, costs an explorer query round trips and the
 * server a thread start), each answer held to the whole request's time out and to
 * KIFU__CH_ANSWER_MAX. libcurl also brings proxies (its *_proxy variables), IPv6 and
 * compression. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "index/clickhouse.h"
#include "index/clickhouse_curl.h"
#include "kifu_private.h"

int kifu__ch_server_parse(kifu__ch_server *s, const char *url, const kifu__ch_access *a,
                          kifu_error *err)
{
    memset(s, 0, sizeof *s);
    snprintf(s->url, sizeof s->url, "%s", url);
    s->tls = strncasecmp(url, "https://", 8) == 0;
    if (!s->tls && strncasecmp(url, "http://", 7) != 0)
        return kifu__error(
            err, KIFU_ERR_ARG, 0, 0, 0, "http://HOST:PORT", url,
            "%s: a ClickHouse URL is http://HOST:PORT or https://HOST:PORT", url);
    const char *h = url + 7 + s->tls, *end = h + strcspn(h, "/?#");
    /* Refused rather than warned about: a URL shows in the process list, the shell's
     * history and every message that names the server. */
    if (memchr(h, '@', (size_t)(end - h)))
        return kifu__error(
            err, KIFU_ERR_ARG, 0, 0, 0, NULL, NULL,
            "%.*s...: no credentials in the URL (they would show in the "
            "process list); set KIFU_CLICKHOUSE_USER and "
            "KIFU_CLICKHOUSE_PASSWORD, or use --clickhouse-credentials FILE",
            (int)(h - url), url);
    const char *colon = NULL;
    char host[130];
    if (*h == '[') { /* [::1]:8123, kept in brackets for the URL */
        const char *close = memchr(h, ']', (size_t)(end - h));
        if (!close)
            return kifu__error(err, KIFU_ERR_ARG, 0, 0, 0, NULL, NULL, "%s: bad address",
                               url);
        snprintf(host, sizeof host, "%.*s", (int)(close - h + 1), h);
        colon = close[1] == ':' ? close + 1 : NULL;
    } else {
        colon = memchr(h, ':', (size_t)(end - h));
        const char *he = colon ? colon : end;
        snprintf(host, sizeof host, "%.*s", (int)(he - h), h);
    }
    char port[8] = "";
    if (colon) {
        size_t n = (size_t)(end - colon - 1);
        if (n == 0 || n >= sizeof port || strspn(colon + 1, "0123456789") < n)
            return kifu__error(err, KIFU_ERR_ARG, 0, 0, 0, "a port number", NULL,
                               "%s: bad port", url);
        memcpy(port, colon + 1, n);
    } else { /* ClickHouse's http_port and https_port */
        snprintf(port, sizeof port, "%s", s->tls ? "8443" : "8123");
    }
    if (!host[0] || !strcmp(host, "[]"))
        return kifu__error(err, KIFU_ERR_ARG, 0, 0, 0, NULL, NULL, "%s: no host", url);
    snprintf(s->base, sizeof s->base, "%s://%s:%s/?", s->tls ? "https" : "http", host,
             port);
    if (a) {
        if ((a->ca_file && strlen(a->ca_file) >= sizeof s->ca_file) ||
            (a->user && strlen(a->user) >= sizeof s->user) ||
            (a->password && strlen(a->password) >= sizeof s->password))
            return kifu__error(err, KIFU_ERR_ARG, 0, 0, 0, NULL, NULL,
                               "%s: the CA file's name, the user or the password is too "
                               "long",
                               url);
        snprintf(s->ca_file, sizeof s->ca_file, "%s", a->ca_file ? a->ca_file : "");
        snprintf(s->user, sizeof s->user, "%s", a->user ? a->user : "");
        snprintf(s->password, sizeof s->password, "%s", a->password ? a->password : "");
        s->insecure = a->insecure;
    }
    /* libcurl is loaded here, when a URL is used, and not at every command's start. */
    return kifu__curl(err) ? 0 : -1;
}

void kifu__ch_disconnect(kifu__ch_server *s)
{
    if (!s->curl && !s->headers) /* (libcurl may not even be loaded) */
        return;
    const kifu__curl_api *cu = kifu__curl(NULL);
    if (s->curl)
        cu->easy_cleanup(s->curl);
    cu->slist_free_all(s->headers);
    s->curl = NULL, s->headers = NULL;
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

/* A query that only reads (SELECT): it may go on a kept connection, which libcurl sends
 * again when that connection turns out closed. Anything else (an INSERT may have been
 * written, and sent again it would count twice) goes on a new connection, the kept one
 * closed first (as a server that serves one connection at a time needs). */
static int reads_only(const char *params, const char *body, size_t len)
{
    const char *q = strstr(params, "query=");
    if (q && (q == params || q[-1] == '&'))
        return strncmp(q + 6, "SELECT", 6) == 0;
    return len >= 7 && strncmp(body, "SELECT ", 7) == 0;
}

/* Where an answer goes: into b, up to KIFU__CH_ANSWER_MAX (a server that streams without
 * end would otherwise take all the memory). */
typedef struct sink {
    kifu__strbuf *b;
    int over, nomem;
} sink;

static size_t on_data(char *p, size_t size, size_t n, void *ctx)
{
    sink *k = ctx;
    size_t len = size * n;
    if (k->b->len + len > KIFU__CH_ANSWER_MAX) {
        k->over = 1;
        return 0; /* libcurl stops with CURLE_WRITE_ERROR */
    }
    kifu__sb_putn(k->b, p, len);
    if (k->b->failed) {
        k->nomem = 1;
        return 0;
    }
    return len;
}

/* The easy handle of s, made and set up at its first request. NULL: out of memory. */
static CURL *handle(const kifu__curl_api *cu, kifu__ch_server *s)
{
    if (s->curl)
        return s->curl;
    CURL *c = cu->easy_init();
    /* ClickHouse waits for a body announced by "Expect: 100-continue" (libcurl sends it
     * for large bodies) only after a pause: none is asked for. */
    struct curl_slist *h = cu->slist_append(NULL, "Expect:");
    if (!c || !h) {
        cu->easy_cleanup(c);
        cu->slist_free_all(h);
        return NULL;
    }
    s->curl = c, s->headers = h;
    cu->easy_setopt(c, CURLOPT_NOSIGNAL, 1L); /* no SIGALRM: callers have threads */
    cu->easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
    cu->easy_setopt(c, CURLOPT_HTTP_VERSION, (long)CURL_HTTP_VERSION_1_1);
    cu->easy_setopt(c, CURLOPT_HTTPHEADER, h);
    cu->easy_setopt(c, CURLOPT_POST, 1L);
    cu->easy_setopt(c, CURLOPT_WRITEFUNCTION, on_data);
    cu->easy_setopt(c, CURLOPT_ERRORBUFFER, s->errbuf);
    /* An answer compressed when the server is asked to (enable_http_compression). */
    cu->easy_setopt(c, CURLOPT_ACCEPT_ENCODING, "");
    /* The server closes a connection idle for keep_alive_timeout (3 s by default): one
     * idle longer than 2 s is not reused. */
    cu->easy_setopt(c, CURLOPT_MAXAGE_CONN, 2L);
    /* A write's new connection resumes the TLS session of the one it replaces (an
     * abbreviated handshake: no certificate sent or verified), as do the handles of other
     * indexes open in the process (kifu serve's pool). */
    if (kifu__curl_share())
        cu->easy_setopt(c, CURLOPT_SHARE, kifu__curl_share());
    if (s->user[0]) {
        cu->easy_setopt(c, CURLOPT_HTTPAUTH, (long)CURLAUTH_BASIC);
        cu->easy_setopt(c, CURLOPT_USERNAME, s->user);
        cu->easy_setopt(c, CURLOPT_PASSWORD, s->password);
    }
    if (s->ca_file[0])
        cu->easy_setopt(c, CURLOPT_CAINFO, s->ca_file);
    if (s->insecure) {
        cu->easy_setopt(c, CURLOPT_SSL_VERIFYPEER, 0L);
        cu->easy_setopt(c, CURLOPT_SSL_VERIFYHOST, 0L);
    }
    return c;
}

/* What went wrong with a request that got no HTTP answer, into why; 1 when it is worth
 * trying again (the request did not get out whole), else 0. */
static int no_answer(const kifu__curl_api *cu, CURL *c, CURLcode rc,
                     const kifu__ch_server *s, int timeout_ms, size_t len, const sink *k,
                     char *why, size_t cap)
{
    long reqsize = 0;
    curl_off_t up = 0, connected = 0;
    cu->easy_getinfo(c, CURLINFO_REQUEST_SIZE, &reqsize);
    cu->easy_getinfo(c, CURLINFO_SIZE_UPLOAD_T, &up);
    cu->easy_getinfo(c, CURLINFO_CONNECT_TIME_T, &connected);
    /* Once the whole request is out, a lost or late answer leaves its outcome unknown:
     * an INSERT may have been written, and sent again it would count twice. Only the
     * journal's repair may undo it, so no retry. */
    int sent = reqsize > 0 && up >= (curl_off_t)len;
    const char *detail = s->errbuf[0] ? s->errbuf : cu->easy_strerror(rc);
    switch (rc) {
    case CURLE_WRITE_ERROR:
        snprintf(why, cap, "%s",
                 k->nomem ? "out of memory" : "an answer larger than 256 MB");
        return 0;
    case CURLE_OPERATION_TIMEDOUT: {
        curl_off_t tls_done = 0;
        cu->easy_getinfo(c, CURLINFO_APPCONNECT_TIME_T, &tls_done);
        /* A server that does not speak TLS on the port (an http_port given as https)
         * may just wait for a request line: the handshake then ends by the clock. */
        if (s->tls && !tls_done)
            snprintf(why, cap,
                     "no TLS connection within %d ms (is this port ClickHouse's "
                     "https_port, not its http_port?)",
                     timeout_ms);
        else if (!connected)
            snprintf(why, cap, "cannot connect: no connection within %d ms", timeout_ms);
        else
            snprintf(why, cap, "no answer within %d ms", timeout_ms);
        return !sent;
    }
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_RESOLVE_PROXY:
        snprintf(why, cap, "cannot resolve the host: %s", detail);
        return 1;
    case CURLE_COULDNT_CONNECT: { /* the system's word ("Connection refused") says more */
        long os = 0;
        cu->easy_getinfo(c, CURLINFO_OS_ERRNO, &os);
        snprintf(why, cap, "cannot connect: %s", os ? strerror((int)os) : detail);
        return 1;
    }
    /* A certificate that is not trusted stays so: no retry, and the cause named. */
    case CURLE_PEER_FAILED_VERIFICATION:
        snprintf(why, cap, "the server's certificate is not trusted: %s%s", detail,
                 strstr(detail, "name") ? " (the URL's host must be a name the "
                                          "certificate is for)"
                                        : " (for a private CA give --ca-file)");
        return 0;
    case CURLE_SSL_CACERT_BADFILE:
        snprintf(why, cap, "cannot use the CA file %s: %s", s->ca_file, detail);
        return 0;
    case CURLE_SSL_CONNECT_ERROR:
        snprintf(why, cap, "TLS handshake failed: %s%s", detail,
                 strstr(detail, "wrong version")
                     ? " (is this port ClickHouse's https_port, not its http_port?)"
                     : "");
        return 0;
    case CURLE_GOT_NOTHING:
    case CURLE_SEND_ERROR:
    case CURLE_RECV_ERROR:
        snprintf(why, cap, "%s: %s", sent ? "connection lost" : "cannot send", detail);
        return !sent;
    default:
        snprintf(why, cap, "%s", detail);
        return !sent;
    }
}

int kifu__ch_post(kifu__ch_server *s, int timeout_ms, const char *params,
                  const char *body, size_t len, kifu__strbuf *out, int *transient,
                  kifu_error *err)
{
    if (transient)
        *transient = 0;
    const kifu__curl_api *cu = kifu__curl(err);
    if (!cu)
        return -1;
    if (timeout_ms <= 0)
        timeout_ms = 300000;
    char why[1400];
    int t = 0;
    kifu__strbuf url, resp;
    kifu__sb_init(&url), kifu__sb_init(&resp);
    kifu__sb_puts(&url, s->base);
    kifu__sb_puts(&url, params);
    if (!reads_only(params, body, len))
        kifu__ch_disconnect(s);
    CURL *c = handle(cu, s);
    if (!c || url.failed) {
        snprintf(why, sizeof why, "out of memory");
        goto fail;
    }
    sink k = {&resp, 0, 0};
    s->errbuf[0] = 0;
    cu->easy_setopt(c, CURLOPT_URL, url.data);
    cu->easy_setopt(c, CURLOPT_POSTFIELDS, body);
    cu->easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)len);
    cu->easy_setopt(c, CURLOPT_WRITEDATA, &k);
    cu->easy_setopt(c, CURLOPT_TIMEOUT_MS, (long)timeout_ms);
    CURLcode rc = cu->easy_perform(c);
    long status = 0;
    cu->easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
    if (rc != CURLE_OK &&
        (status == 0 || k.over || k.nomem || rc == CURLE_OPERATION_TIMEDOUT)) {
        t = no_answer(cu, c, rc, s, timeout_ms, len, &k, why, sizeof why);
        goto fail;
    }
    /* An answer cut short says nothing sure, unless it is an error's: a server that
     * refuses may close before its whole answer went, and what came names the cause. */
    if (rc != CURLE_OK && status == 200) {
        snprintf(why, sizeof why, "an answer cut short: %s",
                 s->errbuf[0] ? s->errbuf : cu->easy_strerror(rc));
        goto fail;
    }
    if (status != 200) {
        kifu__sb_putc(&resp, 0); /* NUL-terminated for the search below */
        char text[400];
        exception_text(resp.data ? resp.data : "", resp.len, text, sizeof text);
        /* An answer with an exception is the server's verdict; an empty 5xx is not. */
        t = status >= 500 && !(resp.data && strstr(resp.data, "Code: "));
        snprintf(why, sizeof why, "HTTP %ld: %s", status, text);
        goto fail;
    }
    if (out)
        kifu__sb_putn(out, resp.data ? resp.data : "", resp.len);
    kifu__sb_free(&url), kifu__sb_free(&resp);
    if (transient)
        *transient = 0;
    return 0;
fail:
    kifu__sb_free(&url), kifu__sb_free(&resp);
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
