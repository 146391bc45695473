/* node_time.h: a node's time as a pointer, as the tests written before
 * kifu_node_get_time (a value accessor) read it: a copy in one of eight buffers used in
 * turn, so one check may hold several. NULL when the node has no time. */
#ifndef KIFU_TEST_NODE_TIME_H
#define KIFU_TEST_NODE_TIME_H

#include "kifu.h"

static inline const kifu_move_time *t_time(const kifu_node *n)
{
    static kifu_move_time buf[8];
    static unsigned k;
    kifu_move_time *t = &buf[k++ % 8];
    return kifu_node_get_time(n, t) ? t : NULL;
}

#endif
