/* fuzz_sfenlist.c: libFuzzer target for the SFEN / USI and sfenlist readers, the writers
 * and the player. The first byte picks the reader (bit 0: sfen or sfenlist) and whether
 * to normalize (bit 1). Every record read is written as a sfenlist and read back, which
 * must give the same text again; the player walks it to the end and back. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kifu.h"

static char *write_as(const kifu_record *r, int format, size_t *len)
{
    kifu_write_options wo = {format, KIFU_ENC_UTF8, 0, NULL, NULL};
    kifu_error err = {0};
    return kifu_write(r, &wo, len, &err);
}

static void check_round_trip(const kifu_record *r)
{
    size_t len = 0, len2 = 0;
    char *list = write_as(r, KIFU_FMT_SFENLIST, &len);
    char *usi = write_as(r, KIFU_FMT_SFEN, NULL);
    if (list) {
        kifu_read_options ro = {
            KIFU_FMT_SFENLIST, KIFU_ENC_UTF8, KIFU_READ_NO_NORMALIZE, NULL, NULL, NULL};
        kifu_error err = {0};
        kifu_record *back = kifu_read(list, len, &ro, &err);
        if (!back && err.code != KIFU_ERR_NOMEM)
            __builtin_trap(); /* what we write must read back */
        if (back) {
            char *again = write_as(back, KIFU_FMT_SFENLIST, &len2);
            if (again && (len2 != len || memcmp(again, list, len) != 0))
                __builtin_trap(); /* and give the same positions */
            kifu_free(again);
        }
        kifu_record_free(back);
    }
    kifu_free(usi);
    kifu_free(list);
}

static void walk(kifu_record *r)
{
    kifu_player *pl = kifu_player_new(r, NULL);
    if (!pl)
        return;
    while (kifu_player_forward(pl))
        ;
    int end = kifu_player_ply(pl);
    kifu_player_go(pl, end / 2);
    kifu_player_go_path(pl, "1,0", NULL);
    kifu_player_go_path(pl, "/0/0", NULL);
    kifu_player_go(pl, 0);
    kifu_move m[600];
    size_t n = kifu_position_legal_moves(kifu_player_position(pl), m, 600);
    if (n)
        kifu_player_add_move(pl, &m[n - 1], NULL); /* a fork or the existing move */
    char buf[64];
    kifu_move mv_v;
    const kifu_move *mv = kifu_node_get_move(kifu_player_node(pl), &mv_v) ? &mv_v : NULL;
    if (mv)
        kifu_move_text(mv, NULL, KIFU_TEXT_KIF | KIFU_TEXT_RELATIVE, buf, sizeof buf);
    kifu_player_delete_branch(pl);
    kifu_player_free(pl);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    int format = (data[0] & 1) ? KIFU_FMT_SFENLIST : KIFU_FMT_SFEN;
    unsigned flags = (data[0] & 2) ? 0u : KIFU_READ_NO_NORMALIZE;
    kifu_read_options ro = {format, KIFU_ENC_AUTO, flags, "fuzz", NULL, NULL};
    kifu_error err = {0};
    kifu_record *r = kifu_read(data + 1, size - 1, &ro, &err);
    if (r) {
        check_round_trip(r);
        walk(r);
    }
    kifu_record_free(r);
    return 0;
}
