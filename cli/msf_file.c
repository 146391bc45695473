/* msf_file.c: see msf_file.h. */
#include "msf_file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int cli_other_game(int format)
{
    const kifu_format_info *info = kifu_format_info_of(format);
    return info && info->game != KIFU_GAME_SHOGI;
}

char *cli_input_read(const char *path, int encoding, size_t *len, int *format,
                     kifu_error *err)
{
    char *data = kifu_file_read(path, len, err);
    if (!data) {
        *format = kifu_format_from_path(path);
        return NULL;
    }
    kifu_read_options ro = {.encoding = encoding, .source = path};
    *format = kifu_format_decide(data, *len, &ro);
    return data;
}

static void print_problem(void *ctx, const kifu_error *e)
{
    (void)ctx;
    cli_print_error(e);
}

kifu_msf *cli_msf_open(const char *name, const void *data, size_t len, unsigned flags,
                       int *code)
{
    kifu_error err = {0};
    kifu_msf_read_options o = {flags, name, print_problem, NULL};
    kifu_msf *m = kifu_msf_read(data, len, &o, &err);
    if (!m)
        *code = cli_exit_code(err.code);
    return m;
}

/* Pushes node n's variations on the stack of lines. -1 when memory ran out. */
static int push_variations(const kifu_msf_node *n, const kifu_msf_line ***st, size_t *len,
                           size_t *cap, size_t *variations)
{
    for (size_t k = 0; k < kifu_msf_node_variation_count(n); k++) {
        if (*len == *cap) {
            size_t c = *cap ? 2 * *cap : 16;
            const kifu_msf_line **g = realloc(*st, c * sizeof *g);
            if (!g)
                return -1;
            *st = g;
            *cap = c;
        }
        (*st)[(*len)++] = kifu_msf_node_variation(n, k);
        ++*variations;
    }
    return 0;
}

void cli_msf_counts(const kifu_msf *m, size_t *moves, size_t *variations)
{
    /* line by line from a stack: variations nest to any depth */
    *moves = *variations = 0;
    const kifu_msf_line **st = NULL;
    size_t n = 0, cap = 0;
    const kifu_msf_line *l = kifu_msf_main_line(m);
    if (push_variations(kifu_msf_root(m), &st, &n, &cap, variations))
        l = NULL;
    while (l) {
        *moves += kifu_msf_line_count(l);
        for (size_t i = 0; i < kifu_msf_line_count(l); i++)
            if (push_variations(kifu_msf_line_node(l, i), &st, &n, &cap, variations))
                n = 0;
        l = n ? st[--n] : NULL;
    }
    free(st);
}
