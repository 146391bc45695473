/* record.h: the bodies of kifu_record and kifu_node (see kifu.h for the model). */
#ifndef KIFU_RECORD_H
#define KIFU_RECORD_H

#include <stdint.h>

#include "core/arena.h"
#include "kifu.h"

typedef struct kifu__header_entry {
    const char *key;
    const char *value;
} kifu__header_entry;

/* Comments and bookmarks of a node, in the arena, made when the first one is added:
 * most nodes have none. */
typedef struct kifu__node_text {
    const char **comments;
    uint32_t ncomments, capcomments;
    const char **bookmarks;
    uint32_t nbookmarks, capbookmarks;
} kifu__node_text;

/* What every pass over the moves reads (links, kind, move, time) comes first, and the
 * node is kept small (112 bytes): a record is walked three times on its way from one
 * format to another, and cache misses on nodes are much of the cost. */
struct kifu_node {
    kifu_node *parent;
    kifu_node **children;  /* child 0 continues the line, 1.. are forks */
    kifu_node *only_child; /* children's first home: most nodes have one child */
    kifu__node_text *text; /* NULL: no comment, no bookmark */
    uint32_t nchildren, capchildren;
    uint8_t kind; /* kifu_node_kind */
    uint8_t has_time;
    uint8_t foul; /* kifu_foul: a forbidden move that ended its line (normalize.c) */
    kifu_move move;
    kifu_move_time time;
    uint32_t id;
    int32_t ply;
    const char *special;
};

struct kifu_record {
    kifu__arena arena;
    kifu__header_entry *header;
    size_t nheader, capheader;
    int preset;   /* kifu_preset */
    int has_data; /* initial board given explicitly (preset OTHER) */
    kifu_board initial;
    kifu_node *root;
    size_t nnodes;
    /* Some node got a second child (never reset): without forks the hot passes follow
     * child 0 instead of walking the tree (see kifu__record_is_line). */
    int forked;
};

/* Is every node's only child its line's next one (no fork anywhere)? */
static inline int kifu__record_is_line(const kifu_record *r)
{
    return !r->forked;
}

/* The starting board of a preset (KIFU_PRESET_HIRATE .. before OTHER), built once per
 * process: readers and the normalizer ask for it per record. NULL for other values. */
const kifu_board *kifu__preset_ref(int preset);
/* kifu_preset_match against those boards. */
int kifu__preset_match_ref(const kifu_board *b);

/* A new move node under parent with its move all zero, for a reader to fill in place:
 * a kifu_move built on the stack and copied in would be read back wider than it was
 * written, which stalls the store forwarding on every move. NULL on NOMEM. */
kifu_node *kifu__node_add_blank_move(kifu_record *r, kifu_node *parent);

/* Play node n's move on p: as the rules allow it, or, for a foul (n->foul), as it was
 * played. 0, or -1 with err (an illegal move that is no foul, or NOMEM). */
int kifu__position_play_node(kifu_position *p, const kifu_node *n, kifu_error *err);

/* Called by kifu__normalize_hooked at each position the normalizer reaches, as it
 * reaches it: the root's, then each move's once the move is complete and played (a
 * foul kept as played too; never an ending's, a refused move's or anything under one).
 * p holds the position (borrowed, for this call only). main_line: n is on the main line
 * (in the walk's order every main-line node comes before the first fork). Nonzero: call
 * no more for this record. */
typedef int (*kifu__norm_hook)(void *ctx, const kifu_node *n, const kifu_position *p,
                               int main_line);

/* kifu_normalize_warn with a hook (may be NULL): one replay of the moves serves both,
 * so a search needs no second one. keep (may be NULL): where the position replayed on
 * is left for the next call, which restarts it instead of allocating one (*keep NULL at
 * first; the caller frees it with kifu_position_free). */
int kifu__normalize_hooked(kifu_record *r, unsigned flags,
                           void (*warn)(void *, const char *), void *warn_ctx,
                           kifu__norm_hook hook, void *hook_ctx, kifu_position **keep,
                           kifu_error *err);

/* Grow a pointer array held in the record's arena (old contents copied). -1 on NOMEM. */
int kifu__grow(kifu_record *r, void *arrayp, uint32_t *cap, uint32_t n, size_t elem);

#endif
