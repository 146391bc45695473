/* search_index.h: `kifu search --index` (search_index.c), called by cmd_search.c. */
#ifndef KIFU_CLI_SEARCH_INDEX_H
#define KIFU_CLI_SEARCH_INDEX_H

#include "kifu.h"

typedef struct cli_search_index_opts {
    int count, list, json, quiet, forks;
    const char *ch_url;                 /* the index on ClickHouse (kdb NULL), or NULL */
    const kifu_clickhouse_options *cho; /* with ch_url */
    const char *const *tags;            /* --tag filters */
    size_t ntags;
} cli_search_index_opts;

/* Search the index at kdb (or on ClickHouse: o->ch_url) with s and print as a search of its files would. The exit
 * status of kifu search (0 found, 1 nothing, 2 usage, 3 the index unreadable, 4). */
int cli_search_index(const char *kdb, kifu_search *s, const cli_search_index_opts *o);

#endif
