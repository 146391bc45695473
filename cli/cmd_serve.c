/* cmd_serve.c: `kifu serve`: the explorer, the collection, players, games and position
 * search of an index as a local web app (serve_*.c: the HTTP side, the handler, the API
 * and the pages). This file reads the command line. */
#include <stdlib.h>
#include <string.h>

#include "serve.h"

void cmd_serve_usage(FILE *f)
{
    fprintf(
        f,
        "usage: kifu serve games.kdb [--listen HOST:PORT] [--timeout SECONDS] [--cache "
        "MB]\n"
        "       kifu serve --clickhouse URL[,URL...] [CH options] [--listen HOST:PORT]\n"
        "The index (see kifu index) as a web app in the browser: the explorer on a\n"
        "board, the games, a player's results, a game's replay with the explorer\n"
        "beside it, and position search; and its JSON API under /api/ (explore,\n"
        "games, game, players, search, board). Read-only. It prints its URL and runs\n"
        "until interrupted (SIGINT or SIGTERM). Games that kifu index add writes\n"
        "meanwhile are seen without a restart.\n"
        "\n"
        "options:\n"
        "  --listen HOST:PORT  where to listen (default 127.0.0.1:8080; port 0: a free\n"
        "                     one, printed); an address that is not loopback is\n"
        "                     warned about\n"
        "  --clickhouse URL   the index on ClickHouse (as kifu explore; http:// or\n"
        "                     https://)\n" CLI_CH_HELP_NAMES
        "  --timeout SECONDS  the longest one answer's queries may take (default 10):\n"
        "                     a query over it is stopped and answered 504 (on\n"
        "                     ClickHouse, each request to it)\n"
        "  --cache MB         explorer answers kept for the same query until the index\n"
        "                     changes (default 64; 0: none; SQLite "
        "only)\n" CLI_CH_HELP_TLS "\n"
        "Exit status: 0 stopped by a signal, 2 usage, 3 the index cannot be read or\n"
        "the address not listened on.\n"
        "\n"
        "examples:\n"
        "  kifu serve games.kdb\n"
        "  kifu serve games.kdb --listen 127.0.0.1:0\n");
}

int cmd_serve(int argc, char **argv)
{
    serve_config c = {0};
    /* --timeout (cli_ch_option's) bounds an answer's queries, SQLite's as ClickHouse's. */
    c.cho.timeout_ms = 10000;
    const char *listen = "127.0.0.1:8080";
    for (int i = 1; i < argc; i++) {
        int ch = cli_ch_option(argc, argv, &i, &c.ch_url, &c.cho);
        if (ch < 0)
            return EXIT_USAGE;
        if (ch)
            continue;
        const char *a = argv[i];
        int valued = !strcmp(a, "--listen") || !strcmp(a, "--cache");
        if (valued && i + 1 == argc) {
            cli_err("kifu: %s needs a value\nkifu: see 'kifu serve --help'\n", a);
            return EXIT_USAGE;
        }
        const char *v = valued ? argv[++i] : NULL;
        if (!strcmp(a, "--listen"))
            listen = v;
        else if (!strcmp(a, "--cache")) {
            char *end;
            long mb = strtol(v, &end, 10);
            if (*end || end == v || mb < 0 || mb > 65536) {
                cli_err("kifu: --cache takes megabytes, 0 to 65536, not '%s'\n", v);
                return EXIT_USAGE;
            }
            serve_cache_setup((size_t)mb << 20);
        } else if (a[0] != '-' && !c.kdb)
            c.kdb = a;
        else {
            cli_err("kifu: %s '%s'\nkifu: see 'kifu serve --help'\n",
                    a[0] == '-' ? "unknown option" : "one index at a time, not", a);
            return EXIT_USAGE;
        }
    }
    c.query_ms = c.cho.timeout_ms;
    if (!c.kdb == !c.ch_url) {
        cli_err("kifu: serve: give the index (kifu index build makes one), or "
                "--clickhouse, not both\nkifu: see 'kifu serve --help'\n");
        return EXIT_USAGE;
    }
    const char *colon = strrchr(listen, ':');
    char *end = NULL;
    long port = colon ? strtol(colon + 1, &end, 10) : -1;
    if (!colon || colon == listen || !colon[1] || *end || port < 0 || port > 65535) {
        cli_err("kifu: --listen takes HOST:PORT (127.0.0.1:8080), not '%s'\n", listen);
        return EXIT_USAGE;
    }
    char host[64];
    snprintf(host, sizeof host, "%.*s", (int)(colon - listen), listen);
    /* Open once now, so that a wrong path is an error here and not per request. */
    serve_response r = {0};
    serve_stamp at;
    kifu_index *ix = serve_open(&c, &r, &at);
    if (!ix) {
        cli_err("kifu: %.*s\n", (int)r.len, r.body);
        serve_response_free(&r);
        return EXIT_IO;
    }
    serve_close(ix, &at);
    int status = serve_run(&c, host, (int)port);
    serve_drain();
    serve_cache_drain();
    return status;
}
