/* cut_times.c: the warning of a writer whose format keeps whole seconds only (KIF, JKF).
 * A file of its own so that the writers, which the format table (registry.c) calls, do
 * not call back into io.c, which calls the table. */
#include "fmt/fmt.h"
#include "kifu_private.h"
#include "record/record.h"
#include "record/walk.h"

void kifu__warn_cut_times(const kifu_record *r, const kifu_write_options *opt,
                          const char *fmt)
{
    if (!opt || !opt->warn)
        return;
    kifu__walk w;
    kifu__walk_init(&w, r->root, KIFU__WALK_TREE); /* read only */
    size_t cut = 0;
    int ev;
    while ((ev = kifu__walk_next(&w)) > 0) {
        kifu_move_time t;
        cut += ev == KIFU__WALK_ENTER && kifu_node_get_time(w.node, &t) &&
               (t.now.ms || (t.has_total && t.total.ms));
    }
    kifu__walk_free(&w);
    if (cut)
        kifu__warn(
            opt->warn, opt->warn_ctx,
            "%s has no fractions of a second: the times of %zu move(s) were cut to "
            "whole seconds",
            fmt, cut);
}
