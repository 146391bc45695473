/* test_clickhouse.c: the index on ClickHouse without a ClickHouse: the DDL, the URL and
 * name checks, a refused connection, and the HTTP client against a fake server forked
 * here (chunked answers; retries with growing waits after an empty 503; none after an
 * exception, nor after a lost answer, which may have been written). tests/clickhouse/run.sh
 * runs the real servers. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"
#include "kifu.h"
#include "testutil.h"

static int count(const char *s, const char *what)
{
    int n = 0;
    for (const char *p = s; (p = strstr(p, what)) != NULL; p += strlen(what))
        n++;
    return n;
}

TEST(schema_one_server_and_cluster)
{
    kifu_error err;
    kifu_error_clear(&err);
    char *one = kifu_clickhouse_schema(NULL, &err);
    CHECK(one != NULL);
    if (!one)
        return;
    CHECK_INT(count(one, ";\n"), 10);
    CHECK(strstr(one, "CREATE TABLE IF NOT EXISTS `kifu`.`kifu_positions` (key UInt64") !=
          NULL);
    CHECK(strstr(one, "ENGINE = MergeTree ORDER BY (key, game, ply)") != NULL);
    CHECK(strstr(one, "ENGINE = SummingMergeTree ORDER BY (key, move)") != NULL);
    CHECK(strstr(one, "MATERIALIZED VIEW IF NOT EXISTS `kifu`.`kifu_explorer_mv` TO "
                      "`kifu`.`kifu_explorer`") != NULL);
    /* schema 2: the latest games per insert block, and the journal's generation */
    CHECK(strstr(one, "MATERIALIZED VIEW IF NOT EXISTS `kifu`.`kifu_latest_mv` TO "
                      "`kifu`.`kifu_latest`") != NULL);
    CHECK(strstr(one, "state UInt8, gen UInt64") != NULL);
    /* schema 3: what the explorer lists of a game as one column the server makes, and
     * small granules for the tables it reads by key and by id */
    CHECK(strstr(one, "listing String MATERIALIZED concat(toString(id), '\\t', "
                      "ifNull(replaceAll(") != NULL);
    CHECK_INT(count(one, "ORDER BY (key, move) SETTINGS index_granularity = 1024;"), 2);
    CHECK(strstr(one, "ORDER BY id SETTINGS index_granularity = 64;") != NULL);
    CHECK(strstr(one, "Distributed") == NULL);
    kifu_free(one);
    kifu_clickhouse_options o = {.database = "games", .table = "t", .cluster = "two"};
    char *two = kifu_clickhouse_schema(&o, &err);
    CHECK(two != NULL);
    if (!two)
        return;
    CHECK_INT(count(two, ";\n"), 14);
    /* schema 4: the listings by id in a Join table, on the first server (no _local) */
    CHECK(strstr(two,
                 "CREATE TABLE IF NOT EXISTS `games`.`t_listing` (id UInt32, listing "
                 "String)\n  ENGINE = Join(ANY, LEFT, id);") != NULL);
    CHECK(strstr(two, "`games`.`t_positions_local`") != NULL);
    CHECK(strstr(two, "ENGINE = Distributed(`two`, `games`, `t_positions_local`, key)") !=
          NULL);
    CHECK(strstr(two, "ENGINE = Distributed(`two`, `games`, `t_games_local`, id)") !=
          NULL);
    CHECK(strstr(two, "ENGINE = Distributed(`two`, `games`, `t_latest_local`, key)") !=
          NULL);
    CHECK(strstr(two, "FROM `games`.`t_positions_local`") != NULL);
    kifu_free(two);
    o.table = "x; DROP TABLE y";
    kifu_error_clear(&err);
    CHECK(kifu_clickhouse_schema(&o, &err) == NULL);
    CHECK_INT(err.code, KIFU_ERR_ARG);
    CHECK(strstr(err.message, "bad ClickHouse table name") != NULL);
}

/* Open fails before any request with this code and message text. */
static void open_fails(const char *urls, const kifu_clickhouse_options *o, int code,
                       const char *text)
{
    kifu_error err;
    kifu_error_clear(&err);
    kifu_index *ix = kifu_index_open_clickhouse(urls, 0, o, &err);
    CHECK(ix == NULL);
    kifu_index_close(ix, NULL);
    CHECK_INT(err.code, code);
    if (!strstr(err.message, text))
        printf("  %s: got \"%s\", wanted \"%s\"\n", urls, err.message, text);
    CHECK(strstr(err.message, text) != NULL);
}

TEST(urls_and_names_checked)
{
    open_fails("ftp://127.0.0.1", NULL, KIFU_ERR_ARG,
               "a ClickHouse URL is http://HOST:PORT or https://HOST:PORT");
    open_fails("http://kifu:secret@127.0.0.1:8123", NULL, KIFU_ERR_ARG,
               "no credentials in the URL");
    open_fails("https://kifu:secret@127.0.0.1:8443", NULL, KIFU_ERR_ARG,
               "no credentials in the URL");
    open_fails("https://[::1:8443", NULL, KIFU_ERR_ARG, "bad address");
    open_fails("http://127.0.0.1:81x", NULL, KIFU_ERR_ARG, "bad port");
    open_fails("http://:8123", NULL, KIFU_ERR_ARG, "no host");
    open_fails("http://127.0.0.1:1,http://127.0.0.1:2", NULL, KIFU_ERR_ARG,
               "2 ClickHouse URLs but no cluster name");
    kifu_clickhouse_options o = {.database = "a-b"};
    open_fails("http://127.0.0.1:1", &o, KIFU_ERR_ARG, "bad ClickHouse database name");
}

/* A port nothing listens on: bound, then closed. */
static int dead_port(void)
{
    int s = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {.sin_family = AF_INET,
                            .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t len = sizeof a;
    bind(s, (struct sockaddr *)&a, sizeof a);
    getsockname(s, (struct sockaddr *)&a, &len);
    close(s);
    return ntohs(a.sin_port);
}

TEST(refused_connection_names_the_server)
{
    /* http and https alike: nothing listens, so no handshake is tried. */
    for (int tls = 0; tls < 2; tls++) {
        char url[64];
        snprintf(url, sizeof url, "%s://127.0.0.1:%d", tls ? "https" : "http",
                 dead_port());
        kifu_clickhouse_options o = {.retries = -1};
        kifu_error err;
        kifu_error_clear(&err);
        CHECK(kifu_index_open_clickhouse(url, 0, &o, &err) == NULL);
        CHECK_INT(err.code, KIFU_ERR_IO);
        char want[256];
        snprintf(want, sizeof want,
                 "server 1 (%s) is down; ClickHouse server %s: cannot connect", url, url);
        if (!strstr(err.message, want))
            printf("  got \"%s\"\n", err.message);
        CHECK(strstr(err.message, want) != NULL);
    }
}

/* ---- A fake ClickHouse -------------------------------------------------------------- */

static long long now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* How the fake fails an INSERT. */
enum { EMPTY_503, EXCEPTION_500, NO_ANSWER };

/* Serve until killed: SELECT max(id) gets a chunked "41", other SELECTs nothing, row
 * INSERTs fail `fail_inserts` times (as `how` says), then succeed. Each request is logged
 * to fd `log` as "ms kind bytes connection\n". With `keep`, a connection serves requests
 * until the client closes it; else it is closed after one answer (without saying so, as
 * a server or proxy may). */
static void serve(int ls, int log, int fail_inserts, int how, int keep)
{
    alarm(30); /* never outlive a broken test */
    int c = -1, conns = 0;
    for (;;) {
        if (c < 0 && (c = accept(ls, NULL, NULL)) >= 0)
            conns++;
        if (c < 0)
            continue;
        static char req[1 << 20];
        size_t n = 0;
        char *body = NULL;
        long want = -1;
        while (n < sizeof req - 1) {
            ssize_t r = read(c, req + n, sizeof req - 1 - n);
            if (r <= 0)
                break;
            n += (size_t)r;
            req[n] = 0;
            if (!body && (body = strstr(req, "\r\n\r\n")) != NULL) {
                body += 4;
                const char *cl = strstr(req, "Content-Length: ");
                want = cl ? atol(cl + 16) : 0;
            }
            if (body && (long)(n - (size_t)(body - req)) >= want)
                break;
        }
        if (n == 0) { /* the client closed a kept connection */
            close(c);
            c = -1;
            continue;
        }
        /* Rows go as TabSeparated; the journal's INSERTs hold VALUES and always work. */
        int journal = strstr(req, "query=INSERT") && !strstr(req, "TabSeparated");
        int insert = strstr(req, "query=INSERT") && !journal;
        char line[96];
        /* The journal names the batch by its first game: 42 when the chunked 41 read. */
        int batch42 = journal && strstr(req, "VALUES%20%2842%2C");
        snprintf(line, sizeof line, "%lld %s %ld %d\n", now_ms(),
                 insert    ? "insert"
                 : batch42 ? "journal42"
                 : journal ? "journal"
                           : "select",
                 want, conns);
        if (write(log, line, strlen(line)) < 0)
            _exit(1);
        const char *answer;
        if (insert && fail_inserts > 0) {
            fail_inserts--;
            answer =
                how == EXCEPTION_500
                    ? "HTTP/1.1 500 Internal Server Error\r\nContent-Length: 62\r\n"
                      "\r\nCode: 241, e.displayText() = DB::Exception: Memory limit\n"
                : how == EMPTY_503
                    ? "HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\n\r\n"
                    : NULL;
        } else if (insert || journal) {
            answer = "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n";
        } else if (!strstr(req, "max(id)") && !strstr(req, "max%28id%29")) {
            answer = "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"; /* no game yet */
        } else {
            answer = "HTTP/1.1 200 OK\r\nTransfer-Encoding: "
                     "chunked\r\n\r\n1\r\n4\r\n2\r\n1\n\r\n"
                     "0\r\n\r\n";
        }
        if (answer && write(c, answer, strlen(answer)) < 0)
            _exit(1);
        if (!keep || !answer) {
            close(c);
            c = -1;
        }
    }
}

typedef struct fake {
    pid_t pid;
    int log; /* read end */
    char url[64];
} fake;

static int fake_start(fake *f, int fail_inserts, int how, int keep)
{
    int ls = socket(AF_INET, SOCK_STREAM, 0), fds[2];
    struct sockaddr_in a = {.sin_family = AF_INET,
                            .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t len = sizeof a;
    if (ls < 0 || bind(ls, (struct sockaddr *)&a, sizeof a) || listen(ls, 16) ||
        getsockname(ls, (struct sockaddr *)&a, &len) || pipe(fds))
        return -1;
    snprintf(f->url, sizeof f->url, "http://127.0.0.1:%d", ntohs(a.sin_port));
    f->pid = fork();
    if (f->pid == 0) {
        close(fds[0]);
        serve(ls, fds[1], fail_inserts, how, keep);
        _exit(0);
    }
    close(ls);
    close(fds[1]);
    f->log = fds[0];
    return f->pid > 0 ? 0 : -1;
}

/* Stop the fake; its log into buf. */
static void fake_stop(fake *f, char *buf, size_t cap)
{
    kill(f->pid, SIGTERM);
    waitpid(f->pid, NULL, 0);
    size_t n = 0;
    ssize_t r;
    while (n + 1 < cap && (r = read(f->log, buf + n, cap - 1 - n)) > 0)
        n += (size_t)r;
    buf[n] = 0;
    close(f->log);
}

/* One game as a CSA file in a new temp dir; its path into buf. */
static int one_game(char *buf, size_t cap)
{
    char dir[] = "/tmp/kifu-chunit-XXXXXX";
    if (!mkdtemp(dir))
        return -1;
    snprintf(buf, cap, "%s/g.csa", dir);
    FILE *f = fopen(buf, "w");
    if (!f)
        return -1;
    fputs("V2.2\nN+Sato\nN-Ito\nPI\n+\n+7776FU\n-3334FU\n+2726FU\n%TORYO\n", f);
    return fclose(f);
}

static void cleanup(const char *path)
{
    char dir[256];
    snprintf(dir, sizeof dir, "%s", path);
    unlink(path);
    char *slash = strrchr(dir, '/');
    if (slash) {
        *slash = 0;
        rmdir(dir);
    }
}

/* Index one game on a fake server that fails its first `fails` row INSERTs (as `how`
 * says); the flush's result, its error in err, the fake's log in log. -2 when the fake
 * cannot start. */
static int add_one(int fails, int how, kifu_error *err, char *log, size_t cap)
{
    fake f;
    char game[256];
    if (one_game(game, sizeof game) || fake_start(&f, fails, how, 0))
        return -2;
    kifu_clickhouse_options o = {.retries = 3, .backoff_ms = 40, .timeout_ms = 5000};
    kifu_error_clear(err);
    kifu_index *ix = kifu_index_open_clickhouse(f.url, 0, &o, err);
    int rc = -3;
    CHECK(ix != NULL);
    if (ix) {
        CHECK_INT(kifu_index_add_file(ix, game, NULL, NULL, err), KIFU_INDEX_ADDED);
        /* Again before the batch is written: the batch knows it, the server not yet. */
        CHECK_INT(kifu_index_add_file(ix, game, NULL, NULL, err), KIFU_INDEX_UNCHANGED);
        rc = kifu_index_flush(ix, err);
        if (!rc)
            CHECK_INT(kifu_index_stats_get(ix)->positions, 4);
        kifu_index_close(ix, NULL);
    }
    fake_stop(&f, log, cap);
    cleanup(game);
    return rc;
}

TEST(failed_insert_retried_with_backoff)
{
    kifu_error err;
    char log[4096];
    int rc = add_one(2, EMPTY_503, &err, log, sizeof log);
    if (rc == -2)
        SKIP("cannot start a fake server");
    CHECK_INT(rc, 0);
    if (rc)
        printf("  %s\n", err.message);
    /* The journal opens the batch, the positions INSERT comes three times (the same rows
     * each time, waits of 40 and 80 ms between), then the games INSERT, the journal
     * closes the batch, and the file's row goes into the sources table. */
    long long t[16] = {0};
    long bytes[16] = {0};
    char kind[16][16];
    int n = 0, journals = 0;
    for (char *p = log;
         n < 16 && sscanf(p, "%lld %15s %ld", &t[n], kind[n], &bytes[n]) == 3;
         p = strchr(p, '\n') + 1) {
        journals += strcmp(kind[n], "journal42") == 0;
        if (strcmp(kind[n], "insert") == 0)
            n++; /* rows only */
    }
    CHECK_INT(journals, 2);
    CHECK_INT(n, 5);
    if (n == 5) {
        CHECK_INT(bytes[1], bytes[0]);
        CHECK_INT(bytes[2], bytes[0]);
        CHECK(t[1] - t[0] >= 40);
        CHECK(t[2] - t[1] >= 80);
        CHECK(bytes[3] != bytes[0]);
    }
}

TEST(exception_not_retried)
{
    kifu_error err;
    char log[4096];
    int rc = add_one(5, EXCEPTION_500, &err, log, sizeof log);
    if (rc == -2)
        SKIP("cannot start a fake server");
    CHECK_INT(rc, -1);
    CHECK_INT(err.code, KIFU_ERR_IO);
    if (!strstr(err.message, "HTTP 500: Code: 241"))
        printf("  got \"%s\"\n", err.message);
    CHECK(strstr(err.message, "HTTP 500: Code: 241") != NULL);
    CHECK(strstr(err.message, "tries") == NULL);
    CHECK_INT(count(log, "insert"), 1);
}

/* No answer to a whole INSERT: it may have been written, so it is not sent again (the
 * journal's repair at the next open takes it back). */
TEST(lost_answer_not_retried)
{
    kifu_error err;
    char log[4096];
    int rc = add_one(5, NO_ANSWER, &err, log, sizeof log);
    if (rc == -2)
        SKIP("cannot start a fake server");
    CHECK_INT(rc, -1);
    CHECK_INT(err.code, KIFU_ERR_IO);
    /* libcurl's word for a connection closed without an answer */
    if (!strstr(err.message, "connection lost: Empty reply from server"))
        printf("  got \"%s\"\n", err.message);
    CHECK(strstr(err.message, "connection lost: Empty reply from server") != NULL);
    CHECK_INT(count(log, "insert"), 1);
}

/* Queries share one kept-alive connection; every INSERT gets a new one (an INSERT is
 * never sent twice, and a kept connection the server closed could swallow it). */
TEST(queries_on_one_connection)
{
    fake f;
    char game[256], log[4096];
    if (one_game(game, sizeof game) || fake_start(&f, 0, EMPTY_503, 1))
        SKIP("cannot start a fake server");
    kifu_clickhouse_options o = {.retries = 1, .backoff_ms = 10, .timeout_ms = 5000};
    kifu_error err;
    kifu_error_clear(&err);
    kifu_index *ix = kifu_index_open_clickhouse(f.url, 0, &o, &err);
    CHECK(ix != NULL);
    if (ix) {
        kifu_index_info in;
        CHECK_INT(kifu_index_info_get(ix, &in, &err), 0);
        CHECK_INT(kifu_index_add_file(ix, game, NULL, NULL, &err), KIFU_INDEX_ADDED);
        CHECK_INT(kifu_index_flush(ix, &err), 0);
        CHECK_INT(kifu_index_info_get(ix, &in, &err), 0);
        kifu_index_close(ix, NULL);
    }
    fake_stop(&f, log, sizeof log);
    cleanup(game);
    /* A query goes on the connection the request before it used; a write on a new one. */
    int selects = 0, writes = 0, reused = 1, fresh = 1, last = 0;
    char kind[16];
    long bytes;
    long long t;
    int conn;
    for (char *p = log; sscanf(p, "%lld %15s %ld %d", &t, kind, &bytes, &conn) == 4;
         p = strchr(p, '\n') + 1) {
        if (strcmp(kind, "select") == 0) {
            selects++;
            reused &= !last || conn == last;
        } else {
            writes++;
            fresh &= conn > last;
        }
        last = conn;
    }
    CHECK(selects >= 6); /* open: repair, max(id); info twice; the file's games */
    CHECK(writes >= 4);  /* journal, positions, games, journal */
    CHECK(reused);
    CHECK(fresh);
    if (!reused || !fresh || selects < 6)
        printf("  log:\n%s", log);
}

int main(void)
{
    RUN(schema_one_server_and_cluster);
    RUN(urls_and_names_checked);
    RUN(refused_connection_names_the_server);
    RUN(failed_insert_retried_with_backoff);
    RUN(exception_not_retried);
    RUN(lost_answer_not_retried);
    RUN(queries_on_one_connection);
    return t_finish();
}
