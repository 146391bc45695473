/* fuzz_index.c: libFuzzer target for index files (kifu index): any bytes, written to a
 * file, must be refused as "not a kifu index" or "damaged", or answer every query (info,
 * the explorer with and without filters and flip, search by key and by pattern, both
 * book exports, the whole file's check) without a crash; moves a damaged row holds end
 * its game's line. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "kifu.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int sink(void *ctx, const char *d, size_t n)
{
    (void)ctx, (void)d, (void)n;
    return 0;
}

static int on_hit(void *ctx, const kifu_index_hit *h)
{
    (void)ctx, (void)h;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[64];
    snprintf(path, sizeof path, "/tmp/kifu-fuzz-index-%ld.kdb", (long)getpid());
    FILE *f = fopen(path, "wb");
    if (!f)
        return 0;
    fwrite(data, 1, size, f);
    fclose(f);
    kifu_error err;
    kifu_error_clear(&err);
    kifu_index *ix = kifu_index_open(path, KIFU_INDEX_READONLY, &err);
    if (ix) {
        kifu_index_info in;
        kifu_index_info_get(ix, &in, NULL);
        kifu_position *p = kifu_position_new();
        kifu_position_set_sfen(p, "position startpos moves 7g7f", NULL);
        kifu_explore_options o = {0};
        kifu_explore_free(kifu_index_explore(ix, p, &o, NULL));
        o.flip = 1, o.player = "Sato", o.min_rating = 1;
        kifu_explore_free(kifu_index_explore(ix, p, &o, NULL));
        kifu_board b;
        kifu_position_board(p, &b);
        kifu_search *s = kifu_search_position(&b, KIFU_SEARCH_ANY_SIDE, NULL);
        kifu_index_search(ix, s, on_hit, NULL, NULL);
        kifu_search_free(s);
        s = kifu_search_regex("^l", 0, NULL);
        kifu_index_search(ix, s, on_hit, NULL, NULL);
        kifu_search_free(s);
        kifu_book_options bo = {0, 10, 1};
        kifu_index_export_book(ix, KIFU_BOOK_YANEURAOU, &bo, sink, NULL, NULL);
        kifu_index_export_book(ix, KIFU_BOOK_APERY, &bo, sink, NULL, NULL);
        kifu_index_check_counts n;
        kifu_index_check(ix, NULL, NULL, &n, NULL);
        kifu_position_free(p);
        kifu_index_close(ix, NULL);
    }
    unlink(path);
    return 0;
}
