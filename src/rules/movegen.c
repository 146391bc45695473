/* movegen.c: legal moves.
 *
 * Moves are generated legal directly: the checkers and the pieces pinned to the king are
 * found first; a pinned piece moves only along its pin line, in check only captures of the
 * checker and interpositions (moves or drops) are made, in double check only the king
 * moves, and the king goes only to squares the enemy does not attack once the king has left
 * its square. Drops keep to the rules: no dead squares, no second pawn on a file, and a pawn
 * drop that mates (打ち歩詰め) is refused after trying it. */
#include "rules/movegen.h"

typedef struct kstate {
    bb_t checkers, pinned;
    bb_t target;      /* where non-king pieces may move */
    bb_t drop_target; /* where pieces may be dropped */
    int ksq;
} kstate;

static void state_init(const kpos *p, kstate *s)
{
    int us = p->side;
    bb_t occ = pos_occ(p);
    s->ksq = p->ksq[us];
    s->checkers = s->pinned = 0;
    s->target = ~p->occ[us] & bb_all();
    s->drop_target = ~occ & bb_all();
    if (s->ksq == NO_SQ)
        return;
    s->checkers = pos_attackers(p, s->ksq, us ^ 1, occ);
    if (s->checkers) {
        if (bb_more_than_one(s->checkers)) {
            s->target = s->drop_target = 0;
        } else {
            s->drop_target = ATT.between[s->ksq][bb_lsb(s->checkers)];
            s->target = s->drop_target | s->checkers;
        }
    }
    s->pinned = kifu__pos_pinned(p, us);
}

/* Files without a pawn of color c: the pawn drop squares that are not 二歩. */
static inline bb_t pawn_free_files(const kpos *p, int c)
{
    bb_t pawns = p->kind[PAWN] & p->occ[c], r = bb_all();
    while (pawns) {
        int sq = bb_pop(&pawns);
        bb_t f = ATT.file[SQ_X(sq)];
        r &= ~f;
        pawns &= ~f;
    }
    return r;
}

int kifu__pawn_drop_mates(const kpos *p, int sq)
{
    kpos q = *p;
    kifu__pos_do(&q, move_make_drop(PAWN, sq));
    return !kifu__has_legal(&q);
}

/* Pawn drop squares: allowed squares minus 二歩 files and an 打ち歩詰め square. */
static bb_t pawn_drops(const kpos *p, bb_t m)
{
    int us = p->side, ek = p->ksq[us ^ 1];
    m &= ~ATT.dead[us][PAWN] & pawn_free_files(p, us);
    if (ek != NO_SQ) {
        bb_t front = ATT.step[us ^ 1][PAWN][ek];
        if ((m & front) && kifu__pawn_drop_mates(p, bb_lsb(front)))
            m &= ~front;
    }
    return m;
}

static inline kmove *emit(kmove *o, const kpos *p, int us, int k, int from, int to)
{
    int cap = CPIECE_KIND(p->board[to]);
    if (can_promote_move(us, k, from, to)) {
        *o++ = move_make(from, to, k, cap, 1);
        if (!must_promote(us, k, to))
            *o++ = move_make(from, to, k, cap, 0);
    } else {
        *o++ = move_make(from, to, k, cap, 0);
    }
    return o;
}

static kmove *gen_king(const kpos *p, const kstate *s, kmove *o)
{
    int us = p->side, k = s->ksq;
    bb_t occ = pos_occ(p) ^ BB_SQ(k);
    bb_t m = ATT.step[us][KING][k] & ~p->occ[us];
    while (m) {
        int to = bb_pop(&m);
        if (!pos_attackers(p, to, us ^ 1, occ))
            *o++ = move_make(k, to, KING, CPIECE_KIND(p->board[to]), 0);
    }
    return o;
}

size_t kifu__gen_legal(const kpos *p, kmove *out)
{
    kstate s;
    state_init(p, &s);
    int us = p->side;
    kmove *o = out;
    if (s.ksq != NO_SQ)
        o = gen_king(p, &s, o);
    if (!s.target)
        return (size_t)(o - out);
    bb_t occ = pos_occ(p);
    bb_t pcs = p->occ[us] & ~p->kind[KING];
    while (pcs) {
        int from = bb_pop(&pcs), k = CPIECE_KIND(p->board[from]);
        bb_t a = piece_attack(us, k, from, occ) & s.target;
        if (bb_test(s.pinned, from))
            a &= ATT.line[s.ksq][from];
        while (a)
            o = emit(o, p, us, k, from, bb_pop(&a));
    }
    if (s.drop_target) {
        for (int k = PAWN; k <= GOLD; k++) {
            if (!p->hand[us][k])
                continue;
            bb_t m = s.drop_target & ~ATT.dead[us][k];
            if (k == PAWN)
                m = pawn_drops(p, m);
            while (m)
                *o++ = move_make_drop(k, bb_pop(&m));
        }
    }
    return (size_t)(o - out);
}

size_t kifu__count_legal(const kpos *p)
{
    kmove buf[MAX_MOVES];
    return kifu__gen_legal(p, buf);
}

int kifu__has_legal(const kpos *p)
{
    kmove buf[MAX_MOVES];
    return kifu__gen_legal(p, buf) > 0;
}

size_t kifu__gen_to(const kpos *p, int to, int kind, kmove *out)
{
    int us = p->side;
    kmove *o = out;
    if (to < 0 || to >= SQ_NB || kind < PAWN || kind >= PIECE_KIND_NB)
        return 0;
    if (p->board[to] && CPIECE_COLOR(p->board[to]) == us)
        return 0;
    kstate s;
    state_init(p, &s);
    bb_t occ = pos_occ(p);
    if (kind == KING) {
        if (s.ksq != NO_SQ && bb_test(ATT.step[us][KING][s.ksq], to) &&
            !pos_attackers(p, to, us ^ 1, occ ^ BB_SQ(s.ksq)))
            *o++ = move_make(s.ksq, to, KING, CPIECE_KIND(p->board[to]), 0);
        return (size_t)(o - out);
    }
    if (bb_test(s.target, to)) {
        /* A piece of `kind` attacks `to` from sq exactly when the same kind of the other
         * color standing on `to` would attack sq. */
        bb_t from = piece_attack(us ^ 1, kind, to, occ) & p->kind[kind] & p->occ[us];
        while (from) {
            int f = bb_pop(&from);
            if (bb_test(s.pinned, f) && !bb_test(ATT.line[s.ksq][f], to))
                continue;
            o = emit(o, p, us, kind, f, to);
        }
    }
    if (kind <= GOLD && p->hand[us][kind] && bb_test(s.drop_target & ~ATT.dead[us][kind], to)) {
        bb_t m = BB_SQ(to);
        if (kind == PAWN)
            m = pawn_drops(p, m);
        if (m)
            *o++ = move_make_drop(kind, to);
    }
    return (size_t)(o - out);
}

const char *kifu__illegal_reason(const kpos *p, kmove m)
{
    int us = p->side, to = MOVE_TO(m), k = MOVE_PIECE(m);
    if (to >= SQ_NB)
        return "no such square";
    int tp = p->board[to];
    if (MOVE_IS_DROP(m)) {
        int dk = MOVE_DROP_KIND(m);
        if (dk < PAWN || dk > GOLD || dk != k)
            return "cannot drop that piece";
        if (MOVE_IS_PROMOTE(m))
            return "cannot promote";
        if (!p->hand[us][k])
            return "no such piece in hand";
        if (tp)
            return "square occupied";
        if (bb_test(ATT.dead[us][k], to))
            return "行き所のない駒 (the piece could never move)";
        if (k == PAWN && !bb_test(pawn_free_files(p, us), to))
            return "二歩 (two pawns on a file)";
    } else {
        int from = MOVE_FROM(m), fp = p->board[from];
        if (!fp)
            return "no piece there";
        if (CPIECE_COLOR(fp) != us)
            return "not your piece";
        if (k && CPIECE_KIND(fp) != k)
            return "a different piece is there";
        k = CPIECE_KIND(fp);
        if (tp && CPIECE_COLOR(tp) == us)
            return "cannot capture your own piece";
        if (!bb_test(piece_attack(us, k, from, pos_occ(p)), to))
            return "cannot reach";
        if (MOVE_IS_PROMOTE(m) && !can_promote_move(us, k, from, to))
            return "cannot promote";
        if (!MOVE_IS_PROMOTE(m) && must_promote(us, k, to))
            return "must promote";
    }
    /* Reachable and well-formed: the rest is about the king. */
    kstate s;
    state_init(p, &s);
    if (!MOVE_IS_DROP(m) && MOVE_FROM(m) == s.ksq) {
        if (pos_attackers(p, to, us ^ 1, pos_occ(p) ^ BB_SQ(s.ksq)))
            return "王手放置 (leaves the king in check)";
        return NULL;
    }
    if (!bb_test(MOVE_IS_DROP(m) ? s.drop_target : s.target, to))
        return "王手放置 (leaves the king in check)";
    if (!MOVE_IS_DROP(m) && bb_test(s.pinned, MOVE_FROM(m)) &&
        !bb_test(ATT.line[s.ksq][MOVE_FROM(m)], to))
        return "王手放置 (leaves the king in check)";
    if (MOVE_IS_DROP(m) && k == PAWN && p->ksq[us ^ 1] != NO_SQ &&
        bb_test(ATT.step[us ^ 1][PAWN][p->ksq[us ^ 1]], to) && kifu__pawn_drop_mates(p, to))
        return "打ち歩詰め (pawn drop mate)";
    return NULL;
}
