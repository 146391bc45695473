/* msf_file.c: see msf_file.h. */
#include "msf_file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static int other(int format)
{
    const kifu_format_info *info = kifu_format_info_of(format);
    return info && info->game != KIFU_GAME_SHOGI;
}

/* The bytes up to the end of the second line that holds more than blanks (all of them
 * when there are fewer). Another game's sniffer (MSF's) bids on the text's first
 * non-blank line and the key that follows it, so these lines tell whether the content is
 * another game's: a shogi format found in them means the whole text is no other game's.
 * A line ends at '\n', a byte that is never part of a character in the encodings read,
 * so the head decodes as the whole does. */
static size_t head_len(const char *s, size_t len)
{
    int lines = 0, filled = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] == '\n') {
            lines += filled;
            filled = 0;
            if (lines == 2)
                return i + 1;
        } else if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r') {
            filled = 1;
        }
    }
    return len;
}

int cli_other_game(int from, const char *path, const void *data, size_t len)
{
    if (from != KIFU_FMT_AUTO)
        return other(from);
    /* the content first: an MSF document in a .json file (as the reference validator's
     * tests are) is still one */
    char *own = NULL;
    if (!data && path && strcmp(path, "-") != 0)
        data = own = kifu_file_read(path, &len, NULL);
    /* Detection decodes the whole text and lets every sniffer read it, which cost a
     * record's validation a third more than reading it: the head decides for a shogi
     * record, and only a head that is another game's or undecided is asked again whole
     * (the answer is then exactly the whole text's). */
    int content = KIFU_FMT_AUTO;
    if (data) {
        size_t head = head_len(data, len);
        content = kifu_format_detect(data, head);
        if (head < len && (content == KIFU_FMT_AUTO || other(content)))
            content = kifu_format_detect(data, len);
    }
    kifu_free(own);
    if (content != KIFU_FMT_AUTO && other(content))
        return 1;
    return path && strcmp(path, "-") != 0 && other(kifu_format_from_path(path));
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

kifu_msf *cli_msf_open_file(const char *path, int *code)
{
    kifu_error err = {0};
    size_t len;
    char *data = kifu_file_read(path, &len, &err);
    if (!data) {
        cli_print_error(&err);
        *code = cli_exit_code(err.code);
        return NULL;
    }
    kifu_msf *m =
        cli_msf_open(strcmp(path, "-") == 0 ? "<stdin>" : path, data, len, 0, code);
    kifu_free(data);
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
