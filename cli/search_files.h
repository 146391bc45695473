/* search_files.h: `kifu search` over files and directories (search_files.c), called by
 * cmd_search.c: the files searched on -j threads, the output in the order of the files. */
#ifndef KIFU_CLI_SEARCH_FILES_H
#define KIFU_CLI_SEARCH_FILES_H

#include "kifu.h"

typedef struct cli_search_files_opts {
    int count, list, json, quiet;
    int silent;    /* -s: no message about a file that cannot be read */
    int from, enc; /* -f, --input-encoding */
    int jobs;      /* threads (0: one per processor) */
    /* A search as the command line asks, for one more thread (a search is used by one
     * thread at a time); NULL only out of memory. Each is freed here. */
    kifu_search *(*compile)(void *ctx);
    void *compile_ctx;
} cli_search_files_opts;

/* Search the files and directories named, with a progress bar on a terminal when there
 * are many. The worst exit code of a file (0 when all were read); *total the hits. */
int cli_search_files(const cli_search_files_opts *o, char **files, int nfiles,
                     long *total);

#endif
