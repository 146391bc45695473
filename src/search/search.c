/* search.c: position search over a record (the position-list document's sb_match, over
 * whole collections when the caller feeds it every record): an exact position (any side
 * to move or hands, on request) or a board pattern, tested at every position the record
 * walk reaches, along the main line or every fork. Transpositions are found because a
 * position is compared, not the moves that led to it. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "kifu_private.h"
#include "notation/bd.h"
#include "record/record.h"
#include "rules/position.h"
#include "search/pattern.h"
#include "search/search.h"

struct kifu_search {
    unsigned flags;
    kifu_board target; /* exact search */
    bb_t target_occ;   /* its occupied squares: one compare turns most positions away */
    kifu__pattern *pattern;
    /* The board letters of the last position tested during normalization and its node:
     * a move changes two letters, so the next position's letters are mostly two stores
     * away (kifu__search_test). */
    char bd[82];
    const kifu_node *bd_node;
};

static kifu_search *search_new(unsigned flags, kifu_error *err)
{
    kifu_search *s = kifu__calloc(1, sizeof *s);
    if (!s)
        kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
    else
        s->flags = flags;
    return s;
}

kifu_search *kifu_search_position(const kifu_board *b, unsigned flags, kifu_error *err)
{
    kifu_search *s = search_new(flags, err);
    if (!s)
        return NULL;
    s->target = *b;
    for (int sq = 0; sq < SQ_NB; sq++)
        if (b->sq[sq])
            s->target_occ |= BB_ONE << sq;
    return s;
}

static kifu_search *with_pattern(kifu__pattern *p, unsigned flags, kifu_error *err)
{
    if (!p)
        return NULL;
    kifu_search *s = search_new(flags, err);
    if (!s) {
        kifu__pattern_free(p);
        return NULL;
    }
    s->pattern = p;
    kifu__pattern_both_sides(p, (flags & KIFU_SEARCH_BOTH_SIDES) != 0);
    return s;
}

kifu_search *kifu_search_regex(const char *re, unsigned flags, kifu_error *err)
{
    return with_pattern(kifu__pattern_regex(re, err), flags, err);
}

kifu_search *kifu_search_grid(const char *text, size_t len, unsigned flags,
                              kifu_error *err)
{
    return with_pattern(kifu__pattern_grid(text, len, err), flags, err);
}

void kifu_search_free(kifu_search *s)
{
    if (!s)
        return;
    kifu__pattern_free(s->pattern);
    kifu__free(s);
}

unsigned kifu__search_flags(const kifu_search *s)
{
    return s->flags;
}

const char *kifu_search_expression(const kifu_search *s)
{
    return s->pattern ? kifu__pattern_expression(s->pattern) : NULL;
}

static int matches(kifu_search *s, const kifu_board *b)
{
    if (s->pattern)
        return kifu__pattern_match(s->pattern, b);
    const kifu_board *t = &s->target;
    return memcmp(b->sq, t->sq, sizeof b->sq) == 0 &&
           ((s->flags & KIFU_SEARCH_BOARD_ONLY) ||
            memcmp(b->hands, t->hands, sizeof b->hands) == 0) &&
           ((s->flags & KIFU_SEARCH_ANY_SIDE) || b->color == t->color);
}

int kifu_search_board(kifu_search *s, const kifu_board *b)
{
    return matches(s, b);
}

int kifu_search_target(const kifu_search *s, kifu_board *b, unsigned *flags)
{
    if (flags)
        *flags = s->flags;
    if (s->pattern)
        return 0;
    if (b)
        *b = s->target;
    return 1;
}

/* The letter index in bd (0-based) of each engine square. */
static const uint8_t *bd_of_square(void)
{
    static const uint8_t map[SQ_NB] = {
#define X(x)                                                                             \
    (9 - (x)), (18 - (x)), (27 - (x)), (36 - (x)), (45 - (x)), (54 - (x)), (63 - (x)),   \
        (72 - (x)), (81 - (x))
        X(1), X(2), X(3), X(4), X(5),
        X(6), X(7), X(8), X(9)
#undef X
    };
    return map;
}

/* The letters of each coloured piece (kind | color << 4), 'o' for none. */
static char letter_of[32];
static pthread_once_t letters_once = PTHREAD_ONCE_INIT;
static void letters_init(void)
{
    for (int cp = 0; cp < 32; cp++)
        letter_of[cp] = kifu__bd_letter(cp);
}

/* Bring s->bd to the position p of node n: from n's move when the letters are its
 * parent's, else all 81 anew. */
static void update_letters(kifu_search *s, const kifu_node *n, const kpos *p)
{
    const uint8_t *at = bd_of_square();
    if (kifu__parent_link(n) && kifu__parent(n) == s->bd_node) {
        kifu_move m;
        kifu__move_get(n, &m);
        int to = SQ(m.to_x, m.to_y);
        if (m.from_x)
            s->bd[at[SQ(m.from_x, m.from_y)]] = KIFU__BD_EMPTY;
        s->bd[at[to]] = letter_of[p->board[to]];
    } else {
        for (int sq = 0; sq < SQ_NB; sq++)
            s->bd[at[sq]] = letter_of[p->board[sq]];
        s->bd[81] = 0;
    }
    s->bd_node = n;
}

int kifu__search_test(kifu_search *s, const kifu_node *n, const kpos *p, kifu_board *out)
{
    if (!s->pattern) {
        /* A position is rarely the one sought: its occupied squares differ already. */
        if ((p->occ[0] | p->occ[1]) != s->target_occ ||
            memcmp(p->board, s->target.sq, sizeof s->target.sq) != 0)
            return 0;
        kifu__pos_to_board(p, out);
        return matches(s, out);
    }
    /* A fixed-width pattern looks at the squares it names, on the board itself. */
    int fixed = kifu__pattern_needs_board(s->pattern)
                    ? -1
                    : kifu__pattern_match_squares(s->pattern, p->board);
    if (fixed >= 0) {
        if (fixed)
            kifu__pos_to_board(p, out);
        return fixed;
    }
    pthread_once(&letters_once, letters_init);
    if (!kifu__parent_link(n))
        s->bd_node = NULL; /* a record's root: nothing before it is this record's */
    update_letters(s, n, p);
    /* Most patterns look at the letters alone: the position is copied for a hit only. */
    if (!kifu__pattern_needs_board(s->pattern)) {
        if (!kifu__pattern_match_bd(s->pattern, s->bd, NULL))
            return 0;
        kifu__pos_to_board(p, out);
        return 1;
    }
    kifu__pos_to_board(p, out);
    return kifu__pattern_match_bd(s->pattern, s->bd, out);
}

long kifu_search_record(kifu_search *s, const kifu_record *r, kifu_search_fn fn,
                        void *ctx, kifu_error *err)
{
    kifu_walker *w = kifu_walk_new(r, KIFU_WALK_POSITIONS, err);
    if (!w)
        return -1;
    long hits = 0;
    int ev;
    while ((ev = kifu_walk_next(w)) > 0) {
        if (ev != KIFU_WALK_ENTER)
            continue;
        const kifu_node *n = kifu_walk_node(w);
        if (!(s->flags & KIFU_SEARCH_FORKS) && kifu_node_index(n) != 0) {
            kifu_walk_skip(w);
            continue;
        }
        /* An ending stands at its move's position: that one was tested already. A move
         * the rules refused (lenient reading) has no position: the walk gives its
         * parent's, which is no position after it. */
        kifu_search_hit h;
        if (kifu_node_kind_of(n) == KIFU_NODE_SPECIAL ||
            (n->kind == KIFU_NODE_MOVE && (kifu__move_flags(n) & KIFU_MOVE_RAW)) ||
            kifu_walk_board(w, &h.board))
            continue;
        if (!matches(s, &h.board))
            continue;
        h.node = n;
        h.ply = kifu_node_ply(n);
        hits++;
        if ((fn && fn(ctx, &h)) || (s->flags & KIFU_SEARCH_FIRST))
            break;
    }
    kifu_walk_free(w);
    if (ev < 0)
        return kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
    return hits;
}

char *kifu_node_path(const kifu_node *n, char *buf, size_t cap)
{
    /* The choices at the branching points from the root down, found by climbing from n:
     * no allocation, at the cost of a climb per choice written (paths are asked for hits
     * only, and few forks are taken on the way to one). */
    int ply = kifu_node_ply(n);
    size_t len = (size_t)snprintf(buf, cap, "%d", ply);
    size_t branchings = 0, last_taken = 0;
    for (const kifu_node *c = n; kifu_node_parent(c); c = kifu_node_parent(c))
        if (kifu_node_child_count(kifu_node_parent(c)) > 1) {
            branchings++;
            if (kifu_node_index(c) && !last_taken)
                last_taken = branchings; /* counted from n: the deepest fork taken */
        }
    /* Choices from the root to the deepest fork taken; the zeros after it are implied. */
    size_t want = last_taken ? branchings - last_taken + 1 : 0;
    for (size_t k = 0; k < want && len < cap; k++) {
        /* The k-th branching point from the root: the (branchings - k)-th from n. */
        size_t from_n = branchings - k, seen = 0;
        const kifu_node *c = n;
        for (; kifu_node_parent(c); c = kifu_node_parent(c))
            if (kifu_node_child_count(kifu_node_parent(c)) > 1 && ++seen == from_n)
                break;
        len += (size_t)snprintf(buf + len, cap - len, ",%zu", kifu_node_index(c));
    }
    return buf;
}

void kifu_board_to_bd(const kifu_board *b, char bd[82], char cb[40], char cw[40])
{
    kifu__bd_write(b, bd, cb, cw);
}

int kifu_board_from_bd(const char *bd, const char *cb, const char *cw, kifu_board *out,
                       kifu_error *err)
{
    memset(out, 0, sizeof *out);
    size_t bad;
    if (kifu__bd_read_board(bd, strlen(bd), out, &bad))
        return kifu__error(
            err, KIFU_ERR_SYNTAX, 1, (int)bad + 1, bad,
            "81 letters: a c e g i k m 1 3 5 7 q s u, b d f h j l n 2 4 6 8 r t "
            "v, o",
            bad < strlen(bd) ? bd + bad : "the end",
            "bd: letter %zu is not a board letter or the board is not 81 "
            "letters long",
            bad + 1);
    const char *hands[2] = {cb ? cb : "", cw ? cw : ""};
    for (int c = 0; c < 2; c++)
        if (kifu__bd_read_hand(hands[c], strlen(hands[c]), c, out, &bad))
            return kifu__error(err, KIFU_ERR_SYNTAX, 1, (int)bad + 1, bad, "hand letters",
                               hands[c] + bad, "%s: letter %zu is not a hand piece",
                               c ? "cw" : "cb", bad + 1);
    return 0;
}
