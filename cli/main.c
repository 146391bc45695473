/* main.c: the kifu command: subcommand dispatch and the top-level usage. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

static const struct {
    const char *name;
    cli_command_fn fn;
    void (*usage)(FILE *f); /* the command's --help text */
    const char *summary;
} commands[] = {
    {"convert", cmd_convert, cmd_convert_usage,
     "convert records between KIF, KI2, CSA, JKF, SFEN, posjson (and MSF)"},
    {"validate", cmd_validate, cmd_validate_usage,
     "read and check records without writing"},
    {"show", cmd_show, cmd_show_usage, "print the board of a record at a ply"},
    {"html", cmd_html, cmd_html_usage, "write a self-contained HTML replay page"},
    {"replay", cmd_replay, cmd_replay_usage, "step through a record interactively"},
    {"play", cmd_play, cmd_play_usage, "two players at one terminal"},
    {"perft", cmd_perft, cmd_perft_usage, "count leaf nodes of the legal move tree"},
    {"moves", cmd_moves, cmd_moves_usage, "list the legal moves of a position"},
    {"tags", cmd_tags, cmd_tags_usage, "name the openings and castles of each game"},
    {"trace", cmd_trace, cmd_trace_usage, "follow one piece through a record"},
    {"search", cmd_search, cmd_search_usage,
     "find a position or a board pattern in records"},
    {"index", cmd_index, cmd_index_usage, "index a collection for the explorer"},
    {"explore", cmd_explore, cmd_explore_usage, "the moves played from a position"},
    {"serve", cmd_serve, cmd_serve_usage, "the explorer and the collection in a browser"},
};

static void usage(FILE *f)
{
    fprintf(f, "usage: kifu <command> [options] [args]\n\ncommands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(f, "  %-9s %s\n", commands[i].name, commands[i].summary);
    fprintf(f,
            "\n'kifu help <command>' or 'kifu <command> --help' describes a command;\n"
            "'kifu -V' prints the version. kifu %s\n",
            kifu_version_string());
}

void cli_print_error(const kifu_error *err)
{
    /* An error of no file (a server's, say) is said as it is: "<input>:" in front of it
     * would name an input that is not there. */
    if (!err->source[0] && err->line <= 0) {
        cli_err("kifu: %s\n", err->message);
        return;
    }
    char buf[1024];
    cli_err("kifu: %s\n", kifu_error_format(err, buf, sizeof buf));
}

void cli_print_warning(void *source, const char *message)
{
    cli_err("kifu: %s: warning: %s\n", (const char *)source, message);
}

int cli_timeout_ms(const char *s, int *ms)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end || errno || !(v >= 0.001 && v <= 86400))
        return -1;
    *ms = (int)(v * 1000 + 0.5);
    return 0;
}

int cli_exit_code(int code)
{
    switch (code) {
    case KIFU_OK:
        return EXIT_OK;
    case KIFU_ERR_IO:
    case KIFU_ERR_BUSY:
        return EXIT_IO;
    case KIFU_ERR_NOMEM:
        return EXIT_INTERNAL;
    case KIFU_ERR_ARG:
        return EXIT_USAGE;
    default:
        return EXIT_INPUT;
    }
}

int cli_index_exit_code(int code)
{
    int rc = cli_exit_code(code);
    return rc == EXIT_INPUT ? EXIT_IO : rc;
}

/* -h or --help anywhere before `--`. */
static int wants_help(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0)
            return 0;
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0)
            return 1;
    }
    return 0;
}

static int run(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return EXIT_USAGE;
    }
    if (strcmp(argv[1], "help") == 0 && argc > 2) {
        /* `kifu help CMD` is `kifu CMD --help`. */
        for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
            if (strcmp(argv[2], commands[i].name) == 0) {
                commands[i].usage(stdout);
                return EXIT_OK;
            }
        cli_err("kifu: unknown command '%s'\n", argv[2]);
        usage(stderr);
        return EXIT_USAGE;
    }
    if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0 ||
        strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return EXIT_OK;
    }
    if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
        printf("kifu %s\n", kifu_version_string());
        return EXIT_OK;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(argv[1], commands[i].name) == 0) {
            if (wants_help(argc - 1, argv + 1)) {
                commands[i].usage(stdout);
                return EXIT_OK;
            }
            return commands[i].fn(argc - 1, argv + 1);
        }
    cli_err("kifu: unknown command '%s'\n", argv[1]);
    usage(stderr);
    return EXIT_USAGE;
}

/* Every command's output is checked here once more: a write into stdio's buffer
 * succeeds, and a full device (/dev/full, a full disk behind `>`) only fails when the
 * buffer is flushed, which the commands that print a little never do themselves. */
int main(int argc, char **argv)
{
    /* A buffer that holds any help text or small answer whole: its write is the one
     * that fails on a full device, here where its errno is seen (stdio's 4 KB buffer
     * failed mid-text, and the cause was gone by the last flush). */
    static char out[1 << 16];
    if (!isatty(STDOUT_FILENO))
        setvbuf(stdout, out, _IOFBF, sizeof out);
    int rc = run(argc, argv);
    errno = 0;
    if (fflush(stdout) != 0 || ferror(stdout)) {
        /* A command that failed on I/O has said so (convert names the outputs lost). */
        if (rc >= EXIT_IO)
            ;
        else if (errno)
            cli_err("kifu: cannot write to standard output: %s\n", strerror(errno));
        else
            cli_err("kifu: cannot write to standard output\n");
        rc = rc > EXIT_IO ? rc : EXIT_IO;
    }
    return rc;
}
