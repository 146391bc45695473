/* tags.h: what the tags module shares between its files. The definitions (tags_def.c
 * reads them), and the recognition that runs over one game's main line (tags_run.c),
 * position by position, as the normalizer or a replay reaches them. */
#ifndef KIFU_TAGS_TAGS_H
#define KIFU_TAGS_TAGS_H

#include <stddef.h>
#include <stdint.h>

#include "kifu.h"
#include "search/pattern.h"

/* A reference to another tag: a name's index, or a family (excludes: 戦法) as
 * -2 - family. */
typedef struct kifu__tagref {
    int *v;
    size_t n;
} kifu__tagref;

/* One definition: one way a name can be recognised (a name may have several, any of
 * which gives it). Moves are counted in the side's own moves, squares seen from the
 * side's own camp (gote's board turned round), so one definition serves both sides. */
typedef struct kifu__tagdef {
    int name;           /* index into the tagger's names */
    int game;           /* side: game (the game's tag, from both sides' tags) */
    kifu__pattern *pat; /* NULL: no board */
    /* One square of the pattern, tested inline before the whole match: the one that
     * allows the fewest pieces (key_sq -1: none, the pattern is all hands). */
    int key_sq;
    uint32_t key_allow;
    int king_sq;          /* the square the pattern puts the own king on, or -1 */
    int from, by, hold;   /* from the side's move `from` to move `by` (-1: any), for
                           `hold` of its moves in a row */
    int rook_lo, rook_hi; /* 0: no condition; else an own rook on these files */
    uint64_t moved[2], unmoved[2]; /* square bits (KIFU_SQ, own view) */
    /* capture: 0 no condition; 1 (before) given only when decided before the game's
     * first capture; 2 (after) the conditions hold only from the first capture on. */
    int capture;
    kifu__tagref implies, excludes, needs, opponent, sides;
    char *group;    /* of a group only the one first recognised stays (NULL: none) */
    int text, line; /* which text and line it came from, for errors */
} kifu__tagdef;

struct kifu_tagger {
    /* The texts read, in order (the shipped one first): the state is rebuilt from them
     * on every kifu_tags_add, so a bad file leaves the tagger as it was. */
    char **texts;
    char **sources;
    size_t ntexts;
    char **names;
    int *family;
    size_t nnames;
    kifu__tagdef *defs; /* by name (stable): a name's alternatives side by side */
    size_t ndefs;
    /* Scratch for one game (a tagger serves one game at a time). */
    struct kifu__tagrun *run;
};

/* Parse texts[0..ntexts) into t's names and defs (freeing what t had). 0, or -1 with
 * err naming the text's source, line and column; t's names and defs are then empty. */
int kifu__tags_build(kifu_tagger *t, kifu_error *err);
void kifu__tags_clear(kifu_tagger *t);

/* ---- Recognition over one game ------------------------------------------------------- */

typedef struct kifu__tagrun kifu__tagrun;

/* Start a game (the run is the tagger's, made on first use). NULL on NOMEM. */
kifu__tagrun *kifu__tagrun_start(kifu_tagger *t);
/* The position after the main line's move m (NULL: the start position, before any
 * move), at that ply. 1 when nothing later can change the answer (the caller may stop
 * feeding positions), else 0. */
int kifu__tagrun_position(kifu__tagrun *run, const kifu_move *m, int ply,
                          const kifu_board *b);
/* The game's tags (names borrowed from the tagger) into a new array. 0, or -1 NOMEM. */
int kifu__tagrun_finish(kifu__tagrun *run, kifu_tag **out, size_t *count);
void kifu__tagrun_free(kifu__tagrun *run);

/* kifu_tags_normalize with keep: the position replayed on, left for the next call (as
 * kifu__normalize_hooked's keep; may be NULL), for callers that tag game after game in
 * one replay each (the index's build). */
int kifu__tags_normalize_keep(kifu_tagger *t, kifu_record *r, unsigned flags,
                              void (*warn)(void *, const char *), void *warn_ctx,
                              kifu_position **keep, kifu_tag **out, size_t *count,
                              kifu_error *err);

#endif
