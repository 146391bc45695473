/* search.h: what the search module shares between its files: the test of one engine
 * position, for the search that runs inside the normalizer (search_read.c). */
#ifndef KIFU_SEARCH_SEARCH_H
#define KIFU_SEARCH_SEARCH_H

#include "kifu.h"
#include "rules/position.h"

/* Does position p, the position at node n, match s? On a match the position is in *out.
 * Nodes must come in walk order, each after its parent, a record's root first: a
 * pattern's board letters follow from the previous node's by n's move. */
int kifu__search_test(kifu_search *s, const kifu_node *n, const kpos *p, kifu_board *out);

/* The flags s was made with (KIFU_SEARCH_*). */
unsigned kifu__search_flags(const kifu_search *s);

#endif
