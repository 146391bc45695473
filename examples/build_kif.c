/* build_kif.c: build a record from USI moves with the rules engine and write it as KIF
 * (UTF-8, the .kifu flavour) to standard output.
 *
 *   cc build_kif.c $(pkg-config --cflags --libs kifu) -o build_kif && ./build_kif */
#include <kifu.h>
#include <stdio.h>

int main(void)
{
    static const char *const usi[] = {"7g7f", "3c3d", "8h2b+", "3a2b", "B*4e"};
    kifu_error err;
    kifu_error_clear(&err);
    kifu_record *r = kifu_record_new();
    kifu_position *p = kifu_position_new(); /* the standard start */
    if (!r || !p)
        return 4;
    kifu_record_set_preset(r, KIFU_PRESET_HIRATE);
    kifu_record_header_add(r, "先手", "Example Sente");
    kifu_record_header_add(r, "後手", "Example Gote");
    kifu_node *at = kifu_record_root(r);
    for (size_t i = 0; i < sizeof usi / sizeof usi[0]; i++) {
        kifu_move m;
        /* parse_usi completes the move (piece, capture); play checks it and plays it. */
        if (kifu_position_parse_usi(p, usi[i], &m, &err) < 0 ||
            kifu_position_play(p, &m, &err) < 0)
            break;
        at = kifu_node_add_move(r, at, &m); /* borrowed; the record owns it */
        if (!at)
            return 4;
    }
    if (err.code) {
        char buf[1024];
        fprintf(stderr, "%s\n", kifu_error_format(&err, buf, sizeof buf));
        return 1;
    }
    kifu_node_add_comment(r, at, "角交換から打ち直し");
    kifu_node_add_special(r, at, "CHUDAN");
    kifu_write_options w = {.format = KIFU_FMT_KIFU};
    size_t len;
    char *kif = kifu_write(r, &w, &len, &err); /* new: kifu_free */
    if (!kif)
        return 1;
    fwrite(kif, 1, len, stdout);
    kifu_free(kif);
    kifu_position_free(p);
    kifu_record_free(r);
    return 0;
}
