/* record_cursor.c: see record_cursor.h. */
#include "record_cursor.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

int cli_colour_ok(void)
{
    const char *nc = getenv("NO_COLOR");
    return isatty(STDOUT_FILENO) && !(nc && *nc);
}

char *cli_safe_text(const char *s, char *buf, size_t cap)
{
    size_t n = 0;
    if (!cap)
        return buf;
    for (; s && *s && n + 1 < cap; s++) {
        unsigned char c = (unsigned char)*s;
        buf[n++] = c < 0x20 || c == 0x7f ? '?' : (char)c;
    }
    /* do not end inside a UTF-8 character */
    while (n && s && *s && ((unsigned char)buf[n - 1] & 0xC0) == 0x80)
        n--;
    if (n && s && *s && ((unsigned char)buf[n - 1] & 0xC0) == 0xC0)
        n--;
    buf[n] = 0;
    return buf;
}

int cli_parse_int(const char *s, int *out)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (!*s || *end || v < 0 || v > 100000000)
        return -1;
    *out = (int)v;
    return 0;
}

int cli_game_ref(const char *arg, char **file, int *game)
{
    struct stat st;
    const char *hash = strrchr(arg, '#');
    *game = 0;
    if (strcmp(arg, "-") != 0 && stat(arg, &st) != 0 && hash && hash > arg && hash[1] &&
        strspn(hash + 1, "0123456789") == strlen(hash + 1) && strlen(hash + 1) < 9) {
        char *f = strndup(arg, (size_t)(hash - arg));
        if (!f)
            return -1;
        if (stat(f, &st) == 0 && atoi(hash + 1) > 0) {
            *file = f;
            *game = atoi(hash + 1);
            return 0;
        }
        free(f);
    }
    *file = strdup(arg);
    return *file ? 0 : -1;
}

/* Game `game` (from 1; 0 the first) of the records in data, the others freed. */
static kifu_record *pick_game(const void *data, size_t len, const kifu_read_options *ro,
                              int game, kifu_error *err)
{
    size_t count = 0;
    kifu_record **recs = NULL;
    if (kifu_read_all(data, len, ro, &recs, &count, err))
        return NULL;
    size_t want = game > 0 ? (size_t)game - 1 : 0;
    kifu_record *r = want < count ? recs[want] : NULL;
    for (size_t i = 0; i < count; i++)
        if (i != want)
            kifu_record_free(recs[i]);
    kifu_free(recs);
    if (!r) {
        kifu_error_clear(err);
        err->code = KIFU_ERR_ARG;
        snprintf(err->source, sizeof err->source, "%s", ro->source);
        snprintf(err->message, sizeof err->message,
                 "no game %d: the file holds %zu game%s", game, count,
                 count == 1 ? "" : "s");
    }
    return r;
}

int cli_cursor_file(const char *arg, int *game, char **path, int *code)
{
    int ref;
    if (cli_game_ref(arg, path, &ref)) {
        cli_err("kifu: out of memory\n");
        *code = EXIT_INTERNAL;
        return -1;
    }
    if (ref && *game && ref != *game) {
        cli_err("kifu: %s names game %d, --game %d another\n", arg, ref, *game);
        free(*path);
        *path = NULL;
        *code = EXIT_USAGE;
        return -1;
    }
    if (ref)
        *game = ref;
    return 0;
}

kifu_player *cli_open_game(const char *arg, int encoding, int game, int *lenient,
                           kifu_record **rec, int *code)
{
    kifu_error err = {0};
    char *path;
    *rec = NULL;
    if (cli_cursor_file(arg, &game, &path, code))
        return NULL;
    size_t len;
    char *data = kifu_file_read(path, &len, &err);
    if (!data) {
        cli_print_error(&err);
        *code = cli_exit_code(err.code);
        free(path);
        return NULL;
    }
    kifu_player *pl = cli_open_player_from(path, data, len, KIFU_FMT_AUTO, encoding, game,
                                           lenient, rec, code);
    kifu_free(data);
    free(path);
    return pl;
}

kifu_player *cli_open_player_from(const char *path, const void *data, size_t len,
                                  int format, int encoding, int game, int *lenient,
                                  kifu_record **rec, int *code)
{
    kifu_error err = {0};
    kifu_read_options ro = {.format = format,
                            .encoding = encoding,
                            .source = path,
                            .warn = cli_print_warning,
                            .warn_ctx = (void *)path};
    if (lenient)
        ro.flags = KIFU_READ_LENIENT;
    *rec = pick_game(data, len, &ro, game, &err);
    if (!*rec) {
        cli_print_error(&err);
        *code = err.code == KIFU_ERR_ARG ? EXIT_USAGE : cli_exit_code(err.code);
        return NULL;
    }
    if (lenient) {
        /* Read: err holds the first illegal move, the moves from it on are left out. */
        *lenient = err.code ? cli_exit_code(err.code) : EXIT_OK;
        if (err.code) {
            if (!err.source[0])
                snprintf(err.source, sizeof err.source, "%s", path);
            cli_print_error(&err);
        }
        kifu_error_clear(&err);
    }
    kifu_player *pl = kifu_player_new(*rec, &err);
    if (!pl) {
        if (!err.source[0])
            snprintf(err.source, sizeof err.source, "%s", path);
        cli_print_error(&err);
        *code = cli_exit_code(err.code);
        kifu_record_free(*rec);
        *rec = NULL;
    }
    return pl;
}

kifu_player *cli_open_player(const char *path, int *lenient, kifu_record **rec, int *code)
{
    return cli_open_game(path, KIFU_ENC_AUTO, 0, lenient, rec, code);
}

int cli_cursor_args_parse(const char *cmd, int argc, char **argv, unsigned accepts,
                          void (*usage)(FILE *), cli_cursor_args *a)
{
    int with_format = (accepts & CLI_CURSOR_FORMAT) != 0;
    *a = (cli_cursor_args){.ply = -1};
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i];
        if (strcmp(s, "--ply") == 0 && i + 1 < argc) {
            if (cli_parse_int(argv[++i], &a->ply)) {
                cli_err("kifu: %s: --ply needs a number >= 0, not '%s'\n", cmd, argv[i]);
                return EXIT_USAGE;
            }
        } else if (strcmp(s, "--path") == 0 && i + 1 < argc) {
            a->path = argv[++i];
        } else if (with_format && strcmp(s, "--format") == 0 && i + 1 < argc) {
            a->format = argv[++i];
        } else if (with_format && strcmp(s, "--size") == 0 && i + 1 < argc) {
            if (cli_parse_int(argv[++i], &a->size) || a->size < 16) {
                cli_err("kifu: %s: --size needs a width in px (16 or more)\n", cmd);
                return EXIT_USAGE;
            }
        } else if (with_format && strcmp(s, "--caption") == 0 && i + 1 < argc) {
            a->caption = argv[++i];
        } else if (with_format && strcmp(s, "--intl") == 0) {
            a->diagram |= KIFU_DIAGRAM_INTL;
        } else if (with_format && strcmp(s, "--two-char") == 0) {
            a->diagram |= KIFU_DIAGRAM_TWO_CHAR;
        } else if (with_format && strcmp(s, "--tsume") == 0) {
            a->diagram |= KIFU_DIAGRAM_TSUME;
        } else if (with_format && strcmp(s, "--no-last") == 0) {
            a->diagram |= KIFU_DIAGRAM_NO_LAST;
        } else if (strcmp(s, "--game") == 0 && i + 1 < argc) {
            if (cli_parse_int(argv[++i], &a->game) || a->game < 1) {
                cli_err("kifu: %s: --game needs a number >= 1, not '%s'\n", cmd, argv[i]);
                return EXIT_USAGE;
            }
        } else if (strcmp(s, "--input-encoding") == 0 && i + 1 < argc) {
            if (cli_parse_encoding(argv[++i], &a->encoding))
                return EXIT_USAGE;
        } else if (strcmp(s, "--flip") == 0) {
            a->flip = 1;
        } else if ((accepts & CLI_CURSOR_LENIENT) && strcmp(s, "--lenient") == 0) {
            a->lenient = 1;
        } else if (s[0] == '-' && s[1]) {
            static const char *const valued[] = {
                "--ply",     "--path", "--format",        "--size",
                "--caption", "--game", "--input-encoding"};
            for (size_t k = 0; k < sizeof valued / sizeof valued[0]; k++)
                if (strcmp(s, valued[k]) == 0 && i + 1 == argc) {
                    cli_err("kifu: %s: %s needs a value\n", cmd, s);
                    return EXIT_USAGE;
                }
            return cli_unknown_option(cmd, s);
        } else if (!a->file) {
            a->file = s;
        } else {
            cli_err("kifu: %s: one file only ('%s' is extra)\n", cmd, s);
            return EXIT_USAGE;
        }
    }
    if (!a->file) {
        usage(stderr);
        return EXIT_USAGE;
    }
    return EXIT_OK;
}

int cli_cursor_place(kifu_player *pl, const cli_cursor_args *a, char *msg, size_t cap)
{
    if (a->path) {
        kifu_error err = {0};
        if (kifu_player_go_path(pl, a->path, &err)) {
            snprintf(msg, cap, "--path %.40s: %s", a->path, err.message);
            return -1;
        }
    } else if (a->ply >= 0 && kifu_player_go(pl, a->ply) != a->ply) {
        snprintf(msg, cap, "--ply %d: the record has %d plies", a->ply,
                 kifu_player_line_end(pl));
        return -1;
    }
    return 0;
}
