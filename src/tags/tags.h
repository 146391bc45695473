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
    int name;             /* index into the tagger's names */
    int game;             /* side: game (the game's tag, from both sides' tags) */
    kifu__pattern *pat;   /* NULL: no board */
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
    /* The definitions compiled for recognition (tags_plan.c), made with them. */
    struct kifu__tagplan *plan;
    /* Scratch for one game (a tagger serves one game at a time). */
    struct kifu__tagrun *run;
};

/* Parse texts[0..ntexts) into t's names and defs (freeing what t had). 0, or -1 with
 * err naming the text's source, line and column; t's names and defs are then empty. */
int kifu__tags_build(kifu_tagger *t, kifu_error *err);
void kifu__tags_clear(kifu_tagger *t);

/* ---- The definitions compiled for recognition (tags_plan.c) ------------------------- */

/* How a definition's board is tested. */
enum {
    KIFU__TAG_FREE,    /* no board */
    KIFU__TAG_SQUARES, /* squares only: it holds when none of them is wrong */
    KIFU__TAG_HANDS,   /* squares, then its hand or side lines (kifu__pattern_match) */
    KIFU__TAG_OTHER,   /* not squares: kifu__pattern_match at every test */
    KIFU__TAG_NEVER,   /* a board no position has */
};

/* The definitions that ask one thing of one square (own view): the same pieces. */
typedef struct kifu__taggroup {
    uint32_t allow; /* the coloured pieces allowed (bit kind | color << 4; bit 0 empty) */
    uint32_t first, n; /* its definitions: defs[first .. first + n) */
} kifu__taggroup;

/* What a run needs of the definitions, filed by what changes them, so that a run
 * (tags_run.c) keeps per definition and side the number of its conditions that do not
 * hold, and touches after a move only the definitions the move concerns: the squares it
 * changed, a rook that moved, a square left for the first time, the first capture, and
 * the side's move count reaching a `from`. */
typedef struct kifu__tagplan {
    uint8_t *kind; /* per definition, KIFU__TAG_* */
    uint8_t *base; /* per definition, its conditions that do not hold before any move
                      (from, capture: after, moved) */
    /* Per own-view square v, its groups: groups[at[v] .. at[v + 1]); and per piece p,
     * sig[v * 32 + p] the groups (bit g: at[v] + g) that allow p, so that a change of
     * piece finds the groups it concerns at once (0 on squares of over 64 groups). */
    uint32_t at[82];
    kifu__taggroup *groups;
    uint32_t *defs;
    uint64_t *sig;
    /* Per own-view square, the definitions whose moved or unmoved names it. */
    uint32_t mat[82];
    uint32_t *mdefs;
    uint32_t *by_order, *from_order; /* with a by, a from (> 0), in its order */
    size_t nby, nfrom;
    int *by_key, *from_key; /* their by, from, in that order, then INT_MAX (a sentinel) */
    uint32_t *after;        /* capture: after */
    size_t nafter;
    /* The definitions with a rook condition, and per definition the files it allows as
     * bits (1 << file; 0: no condition). */
    uint32_t *rook_defs;
    size_t nrook;
    uint16_t *rook_files;
    int wait_capture; /* a definition asks about the first capture */
    /* For deciding the names: each name's definitions, defs[name_first[x] ..
     * name_first[x + 1]); each definition's group (-1: none, else the index of the first
     * definition of that group); the names with a game's definition, as bits. */
    uint32_t *name_first;
    int *group;
    uint64_t *game_names;
} kifu__tagplan;

/* Do the own moves that left the squares `moved` (own view, bits) meet d's moved and
 * unmoved? */
static inline int kifu__tag_moves_ok(const kifu__tagdef *d, const uint64_t moved[2])
{
    return !(d->moved[0] & ~moved[0]) && !(d->moved[1] & ~moved[1]) &&
           !(d->unmoved[0] & moved[0]) && !(d->unmoved[1] & moved[1]);
}

/* t->plan from t->defs (freeing the one before). 0, or -1 NOMEM (no plan then). */
int kifu__tagplan_make(kifu_tagger *t);
void kifu__tagplan_free(kifu__tagplan *p);

/* ---- The names of a game, decided when its line ends (tags_decide.c) ----------------- */

/* Scratch for deciding, kept from game to game. */
typedef struct kifu__tagnames {
    int *present;    /* per name and slot (sente, gote, game) the ply, then implied */
    uint64_t *visit; /* names to decide, as bits */
    uint32_t *order; /* names decided, in order */
    size_t cap;      /* names it has room for */
} kifu__tagnames;

/* The game's tags (names borrowed from t) into a new array, from found (per definition
 * and side, the ply its conditions first held long enough, -1: never; its group's later
 * ones are set to -1) and list[s][0..n[s]) (the definitions found for side s, in any
 * order: sorted here); capture: the game's first capture's ply, -1 none. 0, or -1
 * NOMEM. */
int kifu__tags_decide(const kifu_tagger *t, kifu__tagnames *sc, int *found,
                      uint32_t *const list[2], const size_t n[2], int capture,
                      kifu_tag **out, size_t *count);
void kifu__tagnames_free(kifu__tagnames *sc);

/* ---- Recognition over one game ------------------------------------------------------- */

typedef struct kifu__tagrun kifu__tagrun;

/* Start a game (the run is the tagger's, made on first use). NULL on NOMEM. */
kifu__tagrun *kifu__tagrun_start(kifu_tagger *t);
/* The position after the main line's move m (NULL: the start position, before any
 * move), at that ply. 1 when nothing later can change the answer (the caller may stop
 * feeding positions), else 0. */
int kifu__tagrun_position(kifu__tagrun *run, const kifu_move *m, int ply,
                          const kifu_board *b);
/* kifu__tagrun_position for a move given as squares (the normalizer's hook, which reads
 * them from the node and the engine's position without making a kifu_board): side c
 * moved from real square `from` (-1: a drop) to `to` (-1: not known, every square
 * compared), capturing (a piece kind, 0: none); sq, hands ([2][8], kind 0 unused) and
 * color are the position after the move. */
int kifu__tagrun_move(kifu__tagrun *run, int c, int from, int to, int capture, int ply,
                      const uint8_t *sq, const uint8_t *hands, int color);
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
