/* lost_sids.c: the warning of an output whose format has no place for a position-list
 * document's own IDs (`sid`, seeds/002): every format but posjson. kifu_write_all calls
 * it once per output, before the writer. */
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
