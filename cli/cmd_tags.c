/* cmd_tags.c: `kifu tags`: the openings (戦法), castles (囲い) and classes (備考) of each
 * game, per side, recognised while the records are read. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "inputs.h"

void cmd_tags_usage(FILE *f)
{
    fprintf(
        f,
        "usage: kifu tags FILE|DIR... [--json] [--tag-file FILE]... [--list]\n"
        "\n"
        "Name what was played in each game: the openings (戦法), castles (囲い) and\n"
        "classes (備考: 居飛車, 振り飛車, 相居飛車, 対抗形 ...) of each side, from the\n"
        "moves of the main line, by the shipped definitions (docs/tags.md). A\n"
        "directory gives its record files; '-' is stdin.\n"
        "\n"
        "  --json           one JSON object per game and line: file, game, and tags\n"
        "                   (name, family, side: sente|gote|game, ply)\n"
        "  --tag-file FILE  read more definitions: a name it defines replaces the\n"
        "                   shipped one (may be given more than once)\n"
        "  --list           list the names known (family and name), read nothing\n"
        "\n"
        "example:\n"
        "  kifu tags games/ --json\n");
}

static const char *const side_words[] = {"先手", "後手", "対局"};

typedef struct out {
    const char *file;
    int json, several;
} out;

static int print_game(void *ctx, kifu_record *r, size_t game, size_t games,
                      const kifu_tag *tags, size_t count)
{
    (void)r;
    out *o = ctx;
    if (o->json) {
        printf("{\"file\":");
        cli_json_string(o->file);
        printf(",\"game\":%zu,\"tags\":", game + 1);
        cli_tags_json(stdout, tags, count);
        printf("}\n");
        return 0;
    }
    int head = o->several || games > 1;
    if (head) {
        cli_put_name(o->file);
        printf(games > 1 ? " #%zu\n" : "\n", game + 1);
    }
    /* One line per side and family: 先手の戦法：四間飛車, as the KIF header keys go. */
    for (int s = 0; s < 3; s++)
        for (int f = 0; f < 3; f++) {
            int any = 0;
            for (size_t i = 0; i < count; i++) {
                int side = tags[i].side < 0 ? 2 : tags[i].side;
                if (side != s || tags[i].family != f)
                    continue;
                if (!any)
                    printf("%s%sの%s：", head ? "  " : "", side_words[s],
                           kifu_tag_family_name(f));
                printf("%s%s (%d)", any ? ", " : "", tags[i].name, tags[i].ply);
                any = 1;
            }
            if (any)
                printf("\n");
        }
    return 0;
}

/* Read --tag-file definitions into t. */
static int add_file(kifu_tagger *t, const char *path)
{
    kifu_error err;
    kifu_error_clear(&err);
    size_t len;
    char *text = kifu_file_read(path, &len, &err);
    if (!text || kifu_tags_add(t, text, len, path, &err)) {
        kifu_free(text);
        cli_print_error(&err);
        return err.code == KIFU_ERR_IO ? EXIT_IO : EXIT_INPUT;
    }
    kifu_free(text);
    return EXIT_OK;
}

int cmd_tags(int argc, char **argv)
{
    cli_inputs in = {0};
    out o = {0};
    int list = 0, rc = EXIT_OK;
    kifu_error err;
    kifu_error_clear(&err);
    kifu_tagger *t = kifu_tags_new(&err);
    if (!t) {
        cli_print_error(&err);
        return EXIT_INTERNAL;
    }
    for (int i = 1; i < argc && rc == EXIT_OK; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--json") == 0) {
            o.json = 1;
        } else if (strcmp(a, "--list") == 0) {
            list = 1;
        } else if (strcmp(a, "--tag-file") == 0) {
            if (i + 1 >= argc) {
                cli_err("kifu: tags: --tag-file needs a file\n");
                rc = EXIT_USAGE;
            } else {
                rc = add_file(t, argv[++i]);
            }
        } else if (a[0] != '-' || strcmp(a, "-") == 0) {
            rc = cli_inputs_add(&in, a);
        } else {
            cli_err("kifu: tags: unknown option '%s'\n", a);
            cmd_tags_usage(stderr);
            rc = EXIT_USAGE;
        }
    }
    if (rc == EXIT_OK && list) {
        for (size_t i = 0; i < kifu_tags_count(t); i++) {
            const char *name;
            int family;
            kifu_tags_at(t, i, &name, &family);
            printf("%s\t%s\n", kifu_tag_family_name(family), name);
        }
    } else if (rc == EXIT_OK && in.n == 0) {
        cli_err("kifu: tags: give a record file or directory\n");
        cmd_tags_usage(stderr);
        rc = EXIT_USAGE;
    }
    o.several = in.n > 1 || in.dirs;
    /* A bad file is reported and the others are tagged: the exit code is the worst. */
    int go = rc == EXIT_OK && !list;
    for (size_t i = 0; go && i < in.n; i++) {
        size_t len;
        kifu_error_clear(&err);
        char *data = kifu_file_read(in.v[i].path, &len, &err);
        if (!data) {
            cli_print_error(&err);
            if (rc == EXIT_OK)
                rc = EXIT_IO;
            continue;
        }
        kifu_read_options ro = {0};
        ro.source = in.v[i].path;
        ro.warn = cli_print_warning;
        ro.warn_ctx = (void *)in.v[i].path;
        o.file = in.v[i].rel;
        if (kifu_tags_read(t, data, len, &ro, print_game, &o, &err)) {
            cli_print_error(&err);
            if (rc == EXIT_OK)
                rc = cli_exit_code(err.code);
        }
        kifu_free(data);
    }
    cli_inputs_free(&in);
    kifu_tags_free(t);
    return rc;
}
