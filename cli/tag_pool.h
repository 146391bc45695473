/* tag_pool.h: taggers for commands that tag records on several threads. A kifu_tagger
 * tags one game at a time, and building one compiles every definition: the pool builds
 * one per thread that asks at once, and hands them out again. */
#ifndef KIFU_CLI_TAG_POOL_H
#define KIFU_CLI_TAG_POOL_H

#include <stddef.h>

#include "kifu.h"

typedef struct cli_tag_pool cli_tag_pool;

/* A pool of taggers with the shipped definitions and, when tag_file is not NULL, that
 * file's (read and checked here: an error is printed). NULL with *status the exit code. */
cli_tag_pool *cli_tag_pool_new(const char *tag_file, int *status);
void cli_tag_pool_free(cli_tag_pool *p);
/* A tagger for this thread until cli_tag_pool_put; NULL when memory ran out. */
kifu_tagger *cli_tag_pool_get(cli_tag_pool *p);
void cli_tag_pool_put(cli_tag_pool *p, kifu_tagger *t);
/* A new tagger as the pool makes them (the caller frees it), for one-thread commands:
 * NULL with *status the exit code and the error printed. */
kifu_tagger *cli_tagger_new(const char *tag_file, int *status);

#endif
