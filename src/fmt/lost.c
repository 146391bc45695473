/* lost.c: the warnings of an output whose format has no place for a position-list
 * document's own IDs (`sid`, seeds/002: every format but posjson), or for the number of
 * the first move (CSA and JKF). kifu_write_all calls them once per output, before the
 * writer. */
#include "fmt/fmt.h"
#include "kifu_private.h"
#include "record/record.h"
#include "record/walk.h"

void kifu__warn_lost_sids(const kifu_record *const *rs, size_t count,
                          const kifu_write_options *opt, const char *fmt)
{
    if (!opt || !opt->warn)
        return;
    size_t lost = 0;
    const char *first = NULL;
    for (size_t i = 0; i < count; i++) {
        if (!rs[i]->nsids)
            continue; /* most records: no walk */
        kifu__walk w;
        kifu__walk_init(&w, rs[i]->root, KIFU__WALK_TREE); /* read only */
        int ev;
        while ((ev = kifu__walk_next(&w)) > 0) {
            const char *sid =
                ev == KIFU__WALK_ENTER ? kifu__node_sid(w.node, NULL) : NULL;
            if (sid && !lost++)
                first = sid;
        }
        kifu__walk_free(&w);
    }
    /* One line for the output, not one per position: a catalogue names hundreds. */
    if (lost)
        kifu__warn(opt->warn, opt->warn_ctx,
                   "%s has no place for position IDs (sid): %zu left out (the first: "
                   "\"%.40s\"); posjson keeps them",
                   fmt, lost, first);
}

void kifu__warn_lost_number(const kifu_record *const *rs, size_t count,
                            const kifu_write_options *opt, const char *fmt)
{
    if (!opt || !opt->warn)
        return;
    size_t lost = 0;
    int first = 1;
    for (size_t i = 0; i < count; i++)
        if (kifu_record_start_number(rs[i]) > 1 && !lost++)
            first = kifu_record_start_number(rs[i]);
    if (lost)
        kifu__warn(
            opt->warn, opt->warn_ctx,
            "%s has no move number: %zu record%s start%s after move 1 (the first at "
            "move %d) and will read back from move 1; KIF, KI2, SFEN and posjson "
            "keep it",
            fmt, lost, lost == 1 ? "" : "s", lost == 1 ? "s" : "", first);
}
