/* cmd_explore.c: `kifu explore`: the opening explorer over an index (kifu index): every
 * move played from a position in the indexed games with its results and latest games,
 * as a table or JSON; or an opening book for engines from the same counts (--export). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "inputs.h"

void cmd_explore_usage(FILE *f)
{
    fprintf(
        f,
        "usage: kifu explore games.kdb [POSITION] [filters] [--json]\n"
        "       kifu explore games.kdb --export yane2016|apery [-o FILE] [book "
        "options]\n"
        "       kifu explore --clickhouse URL[,URL...] [CH options] [POSITION] "
        "[filters]\n"
        "Every move played from a position in the indexed games (see kifu index),\n"
        "wherever the position arose (transpositions merged): games, sente wins,\n"
        "gote wins, draws (千日手, 持将棋 and others apart), unfinished, share, the\n"
        "average rating of the players who made the move (over its games that give\n"
        "them one), the latest date and the latest games.\n"
        "\n"
        "POSITION (default: the start position):\n"
        "  --sfen SFEN        a position as SFEN (or 'startpos')\n"
        "  --moves M...       moves played from the start (or from --sfen), USI or\n"
        "                     as play takes them: --moves 7g7f 3c3d, --moves ７六歩\n"
        "                     ３四歩, --moves '☗７六歩 ☖３四歩 ☗２二角成 ☖同銀'\n"
        "  --usi LINE         a USI line: 'position startpos moves 7g7f 3c3d'\n"
        "\n"
        "filters:\n"
        "  --player NAME      games NAME played, by the player's key: spaces (also\n"
        "                     full-width), a rank or title before or after the name,\n"
        "                     a rating or affiliation in parentheses do not count,\n"
        "                     nor letter case or width (see kifu index players); a\n"
        "                     name no game has gets the nearest keys\n"
        "  --player-like TEXT  games of a player whose key contains TEXT's key\n"
        "  --color sente|gote  with --player or --player-like: played that side\n"
        "  --since DATE       games played on DATE (YYYY-MM-DD) or later\n"
        "  --until DATE       games played on DATE or earlier\n"
        "  --event TEXT       games whose event contains TEXT\n"
        "  --min-rating N     games whose players are both rated N or more (rating\n"
        "                     headers, or the rating in the name: hashiryo(1788))\n"
        "  --tag NAME         games tagged NAME when indexed (either side, or the\n"
        "                     game's: 四間飛車, 美濃囲い, 対抗形; see kifu tags);\n"
        "                     sente:NAME or gote:NAME (先手:, 後手:) one side;\n"
        "                     repeated, games with all of them\n"
        "  --flip             also the colour-flipped position (its moves turned)\n"
        "  --top N            games listed per move (default 5, at most 10)\n"
        "  --json             one JSON object: sfen, games and the moves array\n"
        "  --no-games         the moves only, without the games listed under each\n"
        "\n"
        "the index on ClickHouse (see kifu index; the same answers as a file):\n"
        "  --clickhouse URL   the server (http:// or https://), or a cluster's shards\n"
        "                     in remote_servers order\n" CLI_CH_HELP "\n"
        "book export (over every game; filters do not apply):\n"
        "  --export FORMAT    yane2016 (YaneuraOu's DB2016 text book) or apery\n"
        "                     (Apery's binary book)\n"
        "  -o, --output FILE  where the book goes (default: stdout; apery needs a\n"
        "                     file or a pipe)\n"
        "  --min-ply N        first ply taken (0 is the start; default 0)\n"
        "  --max-ply N        last ply taken (default 40)\n"
        "  --min-games N      positions played in at least N games (default 1)\n"
        "\n"
        "Exit status: 0 done, 1 bad position, 2 usage, 3 the index could not be read\n"
        "or is damaged, or the output not written, 4 out of memory.\n"
        "\n"
        "examples:\n"
        "  kifu explore games.kdb --moves 7g7f 3c3d\n"
        "  kifu explore games.kdb --player Sato --color gote --since 2024-01-01 "
        "--json\n"
        "  kifu explore games.kdb --export yane2016 --max-ply 30 -o book.db\n");
}

static const char *result_word(int r)
{
    static const char *const words[] = {"unfinished", "sente won", "gote won",
                                        "千日手",     "持将棋",    "draw"};
    return r >= 0 && r <= KIFU_RESULT_DRAW ? words[r] : "?";
}

static double share(long long part, long long whole)
{
    return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

static void print_table(const char *sfen, const kifu_explore *x, int no_games)
{
    long long total = 0;
    for (size_t i = 0; i < kifu_explore_count(x); i++)
        total += kifu_explore_move_at(x, i)->games;
    printf("%s\n%lld game%s, %zu move%s played\n", sfen, kifu_explore_games(x),
           kifu_explore_games(x) == 1 ? "" : "s", kifu_explore_count(x),
           kifu_explore_count(x) == 1 ? "" : "s");
    if (!kifu_explore_count(x))
        return;
    printf("%-16s %-6s %7s %6s %6s %6s %6s %6s %6s %6s %6s  %s\n", "move", "usi", "games",
           "share", "sente", "gote", "千日手", "持将棋", "draw", "unfin", "rating",
           "last");
    for (size_t i = 0; i < kifu_explore_count(x); i++) {
        const kifu_explore_move *m = kifu_explore_move_at(x, i);
        /* The move text is Japanese: pad by columns, not bytes (each kanji is 2). */
        int cols = 0;
        for (const char *c = m->text; *c; c++)
            if (((unsigned char)*c & 0xc0) != 0x80)
                cols += (unsigned char)*c >= 0x80 ? 2 : 1;
        /* The average rating of the players who made the move, "-" when none had one. */
        char rating[16] = "-";
        if (m->rated)
            snprintf(rating, sizeof rating, "%d", m->avg_rating);
        printf("%s%*s %-6s %7lld %5.1f%% %6lld %6lld %6lld %6lld %6lld %6lld %6s  %s\n",
               m->text, cols < 16 ? 16 - cols : 0, "", m->usi, m->games,
               share(m->games, total), m->sente_wins, m->gote_wins, m->sennichite,
               m->jishogi, m->draws, m->unknown, rating,
               m->last_date[0] ? m->last_date : "-");
        for (size_t k = 0; !no_games && k < m->ntop; k++) {
            const kifu_explore_game *g = &m->top[k];
            printf("    %s ", g->date ? g->date : "----------");
            cli_put_name(g->sente ? g->sente : "?");
            printf(" - ");
            cli_put_name(g->gote ? g->gote : "?");
            printf(" (%s) ", result_word(g->result));
            cli_put_name(g->source ? g->source : "?");
            printf("#%d:%d\n", g->number, g->ply);
        }
    }
}

typedef struct book_out {
    char *data;
    size_t len, cap;
} book_out;

static int book_put(void *ctx, const char *data, size_t len)
{
    book_out *b = ctx;
    if (b->len + len > b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 1 << 16;
        while (cap < b->len + len)
            cap *= 2;
        char *d = realloc(b->data, cap);
        if (!d)
            return -1;
        b->data = d, b->cap = cap;
    }
    memcpy(b->data + b->len, data, len);
    b->len += len;
    return 0;
}

static int export_book(kifu_index *ix, const char *format, const kifu_book_options *bo,
                       const char *out)
{
    int fmt = !strcmp(format, "yane2016") ? KIFU_BOOK_YANEURAOU
              : !strcmp(format, "apery")  ? KIFU_BOOK_APERY
                                          : 0;
    if (!fmt) {
        cli_err("kifu: --export takes yane2016 or apery, not '%s'\n", format);
        return EXIT_USAGE;
    }
    if (fmt == KIFU_BOOK_APERY && (!out || !strcmp(out, "-")) && isatty(STDOUT_FILENO)) {
        cli_err("kifu: an Apery book is binary: give -o FILE or a pipe\n");
        return EXIT_USAGE;
    }
    book_out b = {0};
    kifu_error e = {0};
    int status = EXIT_OK;
    if (kifu_index_export_book(ix, fmt, bo, book_put, &b, &e)) {
        cli_print_error(&e);
        status = cli_index_exit_code(e.code);
    } else if (cli_write_file(out, b.data ? b.data : "", b.len)) {
        status = EXIT_IO;
    }
    free(b.data);
    return status;
}

/* One move of --moves at p: USI (7g7f, P*5e) or as play takes it (７六歩, ☗７六歩, 76歩,
 * 同歩, ７八金右), then played. 0, or -1 with err. */
static int play_move(kifu_position *p, const char *text, int *prev_to, kifu_error *err)
{
    kifu_move m;
    kifu_error ignored = {0};
    int rc = (unsigned char)text[0] < 0x80 && strlen(text) <= 5 &&
                     kifu_position_parse_usi(p, text, &m, &ignored) == 0
                 ? 0
                 : kifu_position_parse_move(p, text, *prev_to, &m, err);
    if (rc == KIFU_PARSE_ASK_PROMOTE) {
        kifu_error_clear(err);
        snprintf(err->message, sizeof err->message,
                 "it may promote or not: say 成 or 不成 (or + in USI)");
        err->code = KIFU_ERR_AMBIGUOUS;
        return -1;
    }
    if (rc || kifu_position_play(p, &m, err))
        return -1;
    *prev_to = m.to_x * 10 + m.to_y;
    return 0;
}

/* The position of --sfen/--usi/--moves into p, and its move number into *number (the
 * SFEN's, or 1, and one a move after it). 0, or an exit code. Errors quote the option
 * and the user's own text. */
static int position_of(kifu_position *p, const char *sfen, const char *usi, char **moves,
                       int nmoves, int *number)
{
    kifu_error e = {0};
    const char *start = usi ? usi : sfen && strcmp(sfen, "startpos") ? sfen : "startpos";
    if (kifu_position_set_sfen(p, start, &e)) {
        snprintf(e.source, sizeof e.source, "%s", usi ? "--usi" : "--sfen");
        cli_print_error(&e);
        return EXIT_INPUT;
    }
    *number = cli_sfen_number(usi ? usi : sfen) + kifu_position_history_length(p);
    int prev_to = 0, k = 0;
    for (int i = 0; i < nmoves; i++) {
        /* An argument may hold several moves: '７六歩 ３四歩'. */
        char *copy = strdup(moves[i]), *save = NULL;
        if (!copy)
            return EXIT_INTERNAL;
        for (char *t = strtok_r(copy, " \t", &save); t;
             t = strtok_r(NULL, " \t", &save)) {
            /* A full-width space between moves too (U+3000). */
            for (char *sp; (sp = strstr(t, "\xe3\x80\x80"));)
                memset(sp, ' ', 3);
            char *s2 = NULL;
            for (char *u = strtok_r(t, " ", &s2); u; u = strtok_r(NULL, " ", &s2)) {
                k++;
                kifu_error_clear(&e);
                if (play_move(p, u, &prev_to, &e)) {
                    cli_err("kifu: --moves: move %d '%s': %s\n", k, u, e.message);
                    free(copy);
                    return EXIT_INPUT;
                }
                (*number)++;
            }
        }
        free(copy);
    }
    return EXIT_OK;
}

/* A whole number option's value. 0, or EXIT_USAGE. */
/* A day of the calendar as YYYY-MM-DD: dates are compared as text, so that 2025-13-45
 * would be taken without a word and match nothing, or everything. */
static int valid_date(const char *s)
{
    for (int i = 0; i < 10; i++)
        if (i == 4 || i == 7 ? s[i] != '-' : s[i] < '0' || s[i] > '9')
            return 0;
    if (s[10])
        return 0;
    int y = atoi(s), m = atoi(s + 5), d = atoi(s + 8);
    static const int days[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    int leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    return m >= 1 && m <= 12 && d >= 1 && d <= days[m - 1] + (m == 2 && leap);
}

static int number(const char *opt, const char *v, int *out)
{
    char *end;
    long n = strtol(v, &end, 10);
    if (!*v || *end || n < 0 || n > 1000000000) {
        cli_err("kifu: %s takes a whole number, not '%s'\n", opt, v);
        return EXIT_USAGE;
    }
    *out = (int)n;
    return EXIT_OK;
}

/* What the command line asks. */
typedef struct explore_args {
    kifu_explore_options o; /* the filters */
    kifu_book_options bo;   /* --export's */
    const char *kdb, *sfen, *usi, *export, *out, *ch_url;
    kifu_clickhouse_options cho;
    char **moves; /* --moves (new array; the strings are argv's) */
    int nmoves;
    const char **tags;   /* --tag, each (new array; argv's strings) */
    int json, book_opts; /* --json; a book option was given */
    int no_games;        /* --no-games */
} explore_args;

/* The argument argv[*i] (an option with its value, or the index) into x. 0, or
 * EXIT_USAGE (said on stderr). */
static int parse_arg(int argc, char **argv, int *i, explore_args *x)
{
    static const char *const valued[] = {
        "--sfen",        "--usi",   "--player", "--color",      "--since",
        "--player-like", "--until", "--event",  "--min-rating", "--top",
        "--export",      "-o",      "--output", "--min-ply",    "--max-ply",
        "--min-games",   "--tag"};
    int ch = cli_ch_option(argc, argv, i, &x->ch_url, &x->cho);
    if (ch)
        return ch < 0 ? EXIT_USAGE : EXIT_OK;
    const char *a = argv[*i];
    int takes = 0;
    for (size_t k = 0; k < sizeof valued / sizeof valued[0]; k++)
        takes |= !strcmp(a, valued[k]);
    const char *v = takes && *i + 1 < argc ? argv[*i + 1] : NULL;
    if (takes && !v) {
        cli_err("kifu: %s needs a value\n", a);
        return EXIT_USAGE;
    }
    *i += takes;
    int status = EXIT_OK;
    if (a[0] != '-' || !a[1]) {
        if (x->kdb) {
            cli_err("kifu: one index at a time ('%s' and '%s')\n", x->kdb, a);
            status = EXIT_USAGE;
        }
        x->kdb = a;
    } else if (!strcmp(a, "--moves")) {
        while (*i + 1 < argc && argv[*i + 1][0] != '-')
            x->moves[x->nmoves++] = argv[++*i];
    } else if (!strcmp(a, "--sfen")) {
        x->sfen = v;
    } else if (!strcmp(a, "--usi")) {
        x->usi = v;
    } else if (!strcmp(a, "--player")) {
        x->o.player = v;
    } else if (!strcmp(a, "--player-like")) {
        x->o.player_like = v;
    } else if (!strcmp(a, "--tag")) {
        x->tags[x->o.ntags++] = v;
        x->o.tags = x->tags;
    } else if (!strcmp(a, "--no-games")) {
        x->no_games = 1;
    } else if (!strcmp(a, "--color")) {
        x->o.player_color = !strcmp(v, "sente") ? 1 : !strcmp(v, "gote") ? 2 : -1;
        if (x->o.player_color < 0) {
            cli_err("kifu: --color takes sente or gote\n");
            status = EXIT_USAGE;
        }
    } else if (!strcmp(a, "--since") || !strcmp(a, "--until")) {
        *(!strcmp(a, "--since") ? &x->o.date_from : &x->o.date_to) = v;
        if (!valid_date(v)) {
            cli_err("kifu: %s takes a date, YYYY-MM-DD, not '%s'\n", a, v);
            status = EXIT_USAGE;
        }
    } else if (!strcmp(a, "--event")) {
        x->o.event = v;
    } else if (!strcmp(a, "--min-rating")) {
        status = number(a, v, &x->o.min_rating);
    } else if (!strcmp(a, "--top")) {
        status = number(a, v, &x->o.top);
    } else if (!strcmp(a, "--flip")) {
        x->o.flip = 1;
    } else if (!strcmp(a, "--json")) {
        x->json = 1;
    } else if (!strcmp(a, "--export")) {
        x->export = v;
    } else if (!strcmp(a, "-o") || !strcmp(a, "--output")) {
        x->out = v;
    } else if (!strcmp(a, "--min-ply")) {
        status = number(a, v, &x->bo.min_ply), x->book_opts = 1;
    } else if (!strcmp(a, "--max-ply")) {
        status = number(a, v, &x->bo.max_ply), x->book_opts = 1;
    } else if (!strcmp(a, "--min-games")) {
        status = number(a, v, &x->bo.min_games), x->book_opts = 1;
    } else {
        /* cmd_explore adds the line pointing to --help */
        cli_err("kifu: explore: unknown option '%s'\n", a);
        status = EXIT_USAGE;
    }
    return status;
}

/* The command line into x, then what goes together checked. 0, or an exit code (said
 * on stderr). */
static int parse_args(int argc, char **argv, explore_args *x)
{
    x->moves = calloc((size_t)argc, sizeof *x->moves);
    x->tags = calloc((size_t)argc, sizeof *x->tags);
    if (!x->moves || !x->tags)
        return EXIT_INTERNAL;
    int status = EXIT_OK;
    for (int i = 1; i < argc && status == EXIT_OK; i++)
        status = parse_arg(argc, argv, &i, x);
    if (status != EXIT_OK)
        return status;
    if (!x->kdb == !x->ch_url) {
        cli_err("kifu: explore: give the index (kifu index build makes one), or "
                "--clickhouse, not both\n");
        return EXIT_USAGE;
    }
    if (x->usi && (x->sfen || x->nmoves)) {
        cli_err("kifu: --usi says the whole position: not with --sfen or --moves\n");
        return EXIT_USAGE;
    }
    if (x->o.player_color && !x->o.player && !x->o.player_like) {
        cli_err("kifu: --color goes with --player or --player-like\n");
        return EXIT_USAGE;
    }
    char unknown[800];
    if (cli_tag_unknown(x->tags, x->o.ntags, unknown, sizeof unknown)) {
        cli_err("kifu: %s\n", unknown);
        return EXIT_USAGE;
    }
    if (!x->export && (x->book_opts || x->out)) {
        cli_err("kifu: -o, --min-ply, --max-ply and --min-games go with --export\n");
        return EXIT_USAGE;
    }
    if (x->bo.max_ply < x->bo.min_ply) {
        cli_err("kifu: --max-ply is before --min-ply\n");
        return EXIT_USAGE;
    }
    return EXIT_OK;
}

/* The moves from the position asked, printed as a table or JSON. 0, or an exit code. */
static int explore(kifu_index *ix, const explore_args *x)
{
    kifu_error e = {0};
    kifu_position *p = kifu_position_new();
    int number = 1;
    int status =
        p ? position_of(p, x->sfen, x->usi, x->moves, x->nmoves, &number) : EXIT_INTERNAL;
    if (status == EXIT_OK && x->o.player && cli_player_unknown(ix, x->o.player))
        status = EXIT_INPUT;
    kifu_explore *ex = NULL;
    if (status == EXIT_OK && !(ex = kifu_index_explore(ix, p, &x->o, &e))) {
        /* The position was checked above: what fails here is the index's (3). */
        cli_print_error(&e);
        status = cli_index_exit_code(e.code);
    }
    char *s = ex ? kifu_position_sfen(p, number) : NULL;
    if (ex && s) {
        if (x->json)
            cli_explore_json(stdout, s, ex, x->no_games);
        else
            print_table(s, ex, x->no_games);
        if (cli_flush_stdout())
            status = EXIT_IO;
    }
    kifu_free(s);
    kifu_explore_free(ex);
    kifu_position_free(p);
    return status;
}

int cmd_explore(int argc, char **argv)
{
    explore_args x = {.bo = {0, 40, 1}, .cho = {.timeout_ms = CLI_CH_TIMEOUT_MS}};
    int status = parse_args(argc, argv, &x);
    kifu_index *ix = NULL;
    kifu_error e = {0};
    if (status == EXIT_OK &&
        !(ix = x.ch_url
                   ? kifu_index_open_clickhouse(x.ch_url, KIFU_INDEX_READONLY, &x.cho, &e)
                   : kifu_index_open(x.kdb, KIFU_INDEX_READONLY, &e))) {
        cli_print_error(&e);
        status = cli_index_exit_code(e.code);
    }
    if (status == EXIT_OK && x.export)
        cli_input_guard(x.kdb);
    if (status == EXIT_OK)
        status = x.export ? export_book(ix, x.export, &x.bo, x.out) : explore(ix, &x);
    if (status == EXIT_USAGE)
        cli_err("kifu: see 'kifu explore --help'\n");
    kifu_index_close(ix, NULL);
    free(x.moves), free(x.tags);
    return status;
}
