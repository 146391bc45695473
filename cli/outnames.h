/* outnames.h: where `kifu convert` writes: the path of each game's output (--out-dir,
 * -o), the plan that keeps inputs of one output name apart, and the names written so
 * far in a run. */
#ifndef KIFU_CLI_OUTNAMES_H
#define KIFU_CLI_OUTNAMES_H

#include <stddef.h>

#include "inputs.h"

/* Where outputs go: under a directory, to a named file, or (both NULL) standard
 * output. */
typedef struct cli_outdest {
    const char *out_dir; /* --out-dir DIR, or NULL */
    const char *out;     /* -o OUT (not "-"), or NULL */
    const char *ext;     /* the output format's extension, under --out-dir */
} cli_outdest;

/* Where game k (1-based) of `count` from input `in` goes; NULL means standard output.
 * keep_ext keeps the input's extension (a.kif -> a.kif.jkf), for inputs that differ
 * only by it. New string. *oom is set when memory ran out. */
char *cli_out_path(const cli_outdest *d, const cli_input *in, int keep_ext, size_t k,
                   size_t count, int *oom);

/* Which inputs would write one output name under --out-dir. Inputs that differ only by
 * the extension (a.kif, a.kifu) get keep_ext (a.kif.jkf, a.kifu.jkf); inputs of the
 * very same name (x.kif from two directories given as files) get clash = 1 + the index
 * of another of that name, and are not to be converted, so that neither is lost
 * silently. keep_ext and clash have one entry per input, zeroed. 0, or -1 when out of
 * memory. */
int cli_out_plan(const cli_outdest *d, const cli_inputs *in, unsigned char *keep_ext,
                 size_t *clash);

/* The output paths written so far (open addressing) and the input each came from, so
 * that two inputs that come to one name (games numbered x-1 beside a file x-1) cannot
 * overwrite each other. Zero-initialised. */
typedef struct cli_written {
    struct cli_claim {
        char *path;
        size_t owner; /* index of the input */
    } * slot;
    size_t cap, n;
} cli_written;

/* Records path as written from input `owner`. 0 if new, 1 if it was already (*first is
 * the input that wrote it), -1 when out of memory. */
int cli_written_claim(cli_written *w, const char *path, size_t owner, size_t *first);
void cli_written_free(cli_written *w);

/* mkdir -p of the directory part of path. 0, or -1 with a message. */
int cli_make_parents(const char *path);

#endif
