/* msf_view.c: `kifu show` of an MSF file (a Xelto record): the state at a node as a
 * terminal grid or an SVG, with what the record says about that node. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "msf_file.h"

kifu_msf_node *cli_msf_place(const kifu_msf *m, const cli_cursor_args *a, char *msg,
                             size_t cap)
{
    kifu_error err = {0};
    if (a->path) {
        kifu_msf_node *n = kifu_msf_find(m, a->path, &err);
        if (!n)
            snprintf(msg, cap, "--path %.40s: %s", a->path, err.message);
        return n;
    }
    kifu_msf_node *n = kifu_msf_root(m);
    if (a->ply < 0) {
        const kifu_msf_line *l = kifu_msf_main_line(m);
        return kifu_msf_line_count(l) ? kifu_msf_line_node(l, kifu_msf_line_count(l) - 1)
                                      : n;
    }
    for (int i = 0; i < a->ply; i++) {
        kifu_msf_node *next = kifu_msf_node_child(n, 0);
        if (!next) {
            snprintf(msg, cap, "--ply %d: the main line has %d moves", a->ply,
                     kifu_msf_node_ply(n));
            return NULL;
        }
        n = next;
    }
    return n;
}

static const char *side(int s)
{
    return s == KIFU_MSF_ARXE ? "arxe" : "sorn";
}

void cli_msf_info(FILE *out, const kifu_msf *m, const kifu_msf_node *n,
                  const kifu_msf_node *chosen)
{
    char safe[1024], text[64];
    if (kifu_msf_node_im(n))
        fprintf(out, "im %s\n", cli_safe_text(kifu_msf_node_im(n), safe, sizeof safe));
    if (kifu_msf_node_oprens(n))
        fprintf(out, "* %s\n", cli_safe_text(kifu_msf_node_oprens(n), safe, sizeof safe));
    size_t nc = kifu_msf_node_child_count(n);
    if (nc > 1) {
        fputs("next moves:", out);
        for (size_t i = 0; i < nc; i++) {
            const kifu_msf_node *c = kifu_msf_node_child(n, i);
            kifu_msf_move_text(kifu_msf_node_move(c), text, sizeof text);
            fprintf(out, " %s%s%s", c == chosen ? "[" : "", text, c == chosen ? "]" : "");
        }
        fputc('\n', out);
    }
    /* the end of a line: its result */
    const kifu_msf_line *l = kifu_msf_node_line(n);
    int at_end = l ? kifu_msf_node_index(n) + 1 == kifu_msf_line_count(l) : 0;
    if (!l && kifu_msf_line_count(kifu_msf_main_line(m)) == 0) {
        l = kifu_msf_main_line(m); /* a record without moves: its result is here */
        at_end = 1;
    }
    if (at_end) {
        kifu_msf_result r;
        kifu_msf_line_result(l, &r);
        static const char *const names[4] = {"daim", "xeltsoldes", "teomsast",
                                             "artansoldes"};
        fprintf(out, "fixt: %s", names[r.pit & 3]);
        if (r.pit != KIFU_MSF_DAIM)
            fprintf(out, ", %s wins", side(r.vastan));
        if (r.pit == KIFU_MSF_ARTANSOLDES)
            fprintf(out, " (ito %d)", r.ito);
        if (r.im)
            fprintf(out, ", %s", cli_safe_text(r.im, safe, sizeof safe));
        fputc('\n', out);
        if (r.oprens)
            fprintf(out, "* %s\n", cli_safe_text(r.oprens, safe, sizeof safe));
    }
}

int cli_msf_show(const cli_cursor_args *a, const char *format, const void *data,
                 size_t dlen, const kifu_error *err)
{
    if (!format)
        format = "text";
    if (strcmp(format, "text") && strcmp(format, "svg")) {
        cli_err("kifu: show: an MSF file (Xelto) is shown as text or svg, not '%s'\n",
                format);
        return EXIT_USAGE;
    }
    if (a->path && a->ply >= 0) {
        cli_err("kifu: show: give --ply or --path, not both\n");
        return EXIT_USAGE;
    }
    if (!data) {
        cli_print_error(err);
        return cli_exit_code(err->code);
    }
    int rc = EXIT_OK;
    kifu_msf *m =
        cli_msf_open(strcmp(a->file, "-") == 0 ? "<stdin>" : a->file, data, dlen, 0, &rc);
    if (!m)
        return rc;
    char msg[640];
    kifu_msf_node *n = cli_msf_place(m, a, msg, sizeof msg);
    if (!n) {
        cli_err("kifu: show: %s\n", msg);
        kifu_msf_free(m);
        return EXIT_USAGE;
    }
    int svg = strcmp(format, "svg") == 0;
    kifu_diagram_options o = {svg ? KIFU_DIAGRAM_SVG : KIFU_DIAGRAM_TERM,
                              (a->flip ? KIFU_DIAGRAM_FLIP : 0u) |
                                  (!svg && cli_colour_ok() ? KIFU_DIAGRAM_COLOUR : 0u),
                              a->size,
                              a->caption,
                              {NULL, NULL}};
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    if (!out) {
        cli_err("kifu: out of memory\n");
        kifu_msf_free(m);
        return EXIT_INTERNAL;
    }
    char *board = kifu_msf_diagram(n, &o, NULL);
    fputs(board ? board : "", out);
    kifu_free(board);
    if (!svg)
        cli_msf_info(out, m, n, kifu_msf_node_child(n, 0));
    if (fclose(out) != 0 || !text) {
        cli_err("kifu: out of memory\n");
        rc = EXIT_INTERNAL;
    } else if (cli_write_file(NULL, text, len)) {
        rc = EXIT_IO;
    }
    free(text);
    kifu_msf_free(m);
    return rc;
}
