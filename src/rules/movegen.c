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

/* The checkers of the side to move (king on k) and, in the same pass over the enemy
 * sliders on the king's lines, the pieces pinned to it: nothing between a slider and the
 * king means check, exactly one piece between means that piece is pinned (kept when it is
 * ours). */
static inline bb_t check_pins(const kpos *p, int us, int k, bb_t occ, bb_t *pinned)
{
    bb_t e = p->occ[us ^ 1], chk = 0, pin = 0;
    if (e & ATT.near[k])
        chk = ((ATT.step[us][PAWN][k] & p->kind[PAWN]) |
               (ATT.step[us][KNIGHT][k] & p->kind[KNIGHT]) |
               (ATT.step[us][SILVER][k] & p->kind[SILVER]) |
               (ATT.step[us][GOLD][k] & p->golds) | (ATT.step[us][KING][k] & p->hdk)) &
              e;
    bb_t snip =
        ((p->kind[LANCE] & ATT.pseudo[us][LANCE][k]) |
         (p->diag & ATT.pseudo[0][BISHOP][k]) | (p->orth & ATT.pseudo[0][ROOK][k])) &
        e;
    while (snip) {
        int x = bb_pop(&snip);
        bb_t b = ATT.between[k][x] & occ;
        if (!b)
            chk |= ATT.sq[x];
        else if (!bb_more_than_one(b))
            pin |= b;
    }
    *pinned = pin & p->occ[us];
    return chk;
}

static void state_init(const kpos *p, kstate *s)
{
    int us = p->side, k = p->ksq[us];
    bb_t occ = pos_occ(p);
    s->ksq = k;
    s->checkers = s->pinned = 0;
    /* A king is never captured: loose record starts may leave one en prise. */
    s->target = ~(p->occ[us] | p->kind[KING]) & bb_all();
    s->drop_target = ~occ & bb_all();
    if (k == NO_SQ)
        return;
    bb_t chk = check_pins(p, us, k, occ, &s->pinned);
    s->checkers = chk;
    if (chk) {
        if (bb_more_than_one(chk)) {
            s->target = s->drop_target = 0;
        } else {
            s->drop_target = ATT.between[k][bb_lsb(chk)];
            s->target = (s->drop_target | chk) & ~p->kind[KING];
        }
    }
}

/* Files without a pawn of color c: the pawn drop squares that are not 二歩. Each file is
 * a 9-bit lane (rank 1 = bit 0, rank 9 = bit 8): adding 0xff to the lane's low 8 bits
 * carries into bit 8 when any is set; bit 8 itself is or-ed in; then the lane is filled. */
static inline bb_t pawn_free_files(const kpos *p, int c)
{
    bb_t x = p->kind[PAWN] & p->occ[c], hi = ATT.rank[9], lo = ATT.rank[1];
    bb_t nz = (((x & ~hi) + (hi - lo)) | x) & hi;
    return ~((nz - (nz >> 8)) | nz) & bb_all();
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
    bb_t m = ATT.step[us][KING][k] & ~p->occ[us] & ~p->kind[KING];
    while (m) {
        int to = bb_pop(&m);
        if (!pos_attackers(p, to, us ^ 1, occ))
            *o++ = move_make(k, to, KING, CPIECE_KIND(p->board[to]), 0);
    }
    return o;
}

/* Moves of one piece from `from` to the squares of a. */
static inline kmove *emit_all(kmove *o, const kpos *p, int us, int k, int from, bb_t a)
{
    while (a)
        o = emit(o, p, us, k, from, bb_pop(&a));
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
    bb_t occ = pos_occ(p), own = p->occ[us] & ~s.pinned, all = bb_all(), t, b;
    /* Pawns and knights by shifting the whole set (see kifu__count_legal). */
    bb_t pawns = p->kind[PAWN] & own & ~ATT.dead[us][PAWN];
    bb_t kn = p->kind[KNIGHT] & own & ~ATT.dead[us][KNIGHT];
    int fwd = us == BLACK ? -1 : 1; /* square change of one step forward */
    t = (us == BLACK ? pawns >> 1 : pawns << 1) & s.target;
    while (t) {
        int to = bb_pop(&t);
        o = emit(o, p, us, PAWN, to - fwd, to);
    }
    /* A knight jumps two ranks forward and one file either way: +-9 -+2 squares. */
    int d1 = us == BLACK ? 7 : -7, d2 = us == BLACK ? -11 : 11;
    t = (us == BLACK ? (kn << 7) & all : kn >> 7) & s.target;
    while (t) {
        int to = bb_pop(&t);
        o = emit(o, p, us, KNIGHT, to - d1, to);
    }
    t = (us == BLACK ? kn >> 11 : (kn << 11) & all) & s.target;
    while (t) {
        int to = bb_pop(&t);
        o = emit(o, p, us, KNIGHT, to - d2, to);
    }
    b = p->golds & own;
    while (b) {
        int from = bb_pop(&b), k = CPIECE_KIND(p->board[from]);
        t = ATT.step[us][GOLD][from] & s.target;
        while (t) {
            int to = bb_pop(&t);
            *o++ = move_make(from, to, k, CPIECE_KIND(p->board[to]), 0);
        }
    }
    b = p->kind[SILVER] & own;
    while (b) {
        int from = bb_pop(&b);
        o = emit_all(o, p, us, SILVER, from, ATT.step[us][SILVER][from] & s.target);
    }
    b = p->kind[LANCE] & own;
    while (b) {
        int from = bb_pop(&b);
        o = emit_all(o, p, us, LANCE, from, lance_attack(us, from, occ) & s.target);
    }
    b = p->diag & own;
    while (b) {
        int from = bb_pop(&b), k = CPIECE_KIND(p->board[from]);
        bb_t a = bishop_attack(from, occ);
        if (k == HORSE)
            a |= ATT.step[us][KING][from];
        o = emit_all(o, p, us, k, from, a & s.target);
    }
    b = p->orth & own;
    while (b) {
        int from = bb_pop(&b), k = CPIECE_KIND(p->board[from]);
        bb_t a = rook_attack(from, occ);
        if (k == DRAGON)
            a |= ATT.step[us][KING][from];
        o = emit_all(o, p, us, k, from, a & s.target);
    }
    b = s.pinned;
    while (b) {
        int from = bb_pop(&b), k = CPIECE_KIND(p->board[from]);
        o = emit_all(o, p, us, k, from,
                     piece_attack(us, k, from, occ) & s.target & ATT.line[s.ksq][from]);
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

/* Moves from `from` to the squares of a, counting both promotion choices where there are
 * two: a square in (or a move from) the zone adds the promoting move, a dead square drops
 * the plain one. */
static inline size_t count_targets(int us, int k, int from, bb_t a)
{
    size_t n = (size_t)bb_count(a);
    if (kind_can_promote(k)) {
        bb_t z = bb_test(ATT.zone[us], from) ? a : a & ATT.zone[us];
        if (z)
            n += (size_t)bb_count(z) - (size_t)bb_count(z & ATT.dead[us][k]);
    }
    return n;
}

/* Count of one-step moves to the squares of t of a kind that can promote and moves only
 * forward (pawn, knight: a move from the zone lands in it). */
static inline size_t count_forward(int us, int k, bb_t t)
{
    bb_t z = t & ATT.zone[us];
    return (size_t)(bb_count(t) + bb_count(z) - bb_count(z & ATT.dead[us][k]));
}

size_t kifu__count_legal(const kpos *p)
{
    kstate s;
    state_init(p, &s);
    int us = p->side;
    size_t n = 0;
    if (s.ksq != NO_SQ) {
        bb_t occ = pos_occ(p) ^ BB_SQ(s.ksq);
        bb_t m = ATT.step[us][KING][s.ksq] & ~p->occ[us] & ~p->kind[KING];
        while (m)
            n += !pos_attackers(p, bb_pop(&m), us ^ 1, occ);
    }
    if (!s.target)
        return n;
    bb_t occ = pos_occ(p), own = p->occ[us] & ~s.pinned, all = bb_all();
    /* Pawns and knights all at once: off their dead ranks (where loose record starts may
     * put them, without moves) a step never wraps into another file. */
    bb_t pawns = p->kind[PAWN] & own & ~ATT.dead[us][PAWN];
    bb_t kn = p->kind[KNIGHT] & own & ~ATT.dead[us][KNIGHT];
    if (us == BLACK) {
        n += count_forward(us, PAWN, (pawns >> 1) & s.target);
        n += count_forward(us, KNIGHT, ((kn << 7) & all) & s.target);
        n += count_forward(us, KNIGHT, (kn >> 11) & s.target);
    } else {
        n += count_forward(us, PAWN, (pawns << 1) & s.target);
        n += count_forward(us, KNIGHT, (kn >> 7) & s.target);
        n += count_forward(us, KNIGHT, ((kn << 11) & all) & s.target);
    }
    /* Gold-like pieces never promote. */
    bb_t b = p->golds & own;
    while (b)
        n += (size_t)bb_count(ATT.step[us][GOLD][bb_pop(&b)] & s.target);
    b = p->kind[SILVER] & own;
    while (b) {
        int from = bb_pop(&b);
        n += count_targets(us, SILVER, from, ATT.step[us][SILVER][from] & s.target);
    }
    b = p->kind[LANCE] & own;
    while (b) {
        int from = bb_pop(&b);
        n += count_forward(us, LANCE, lance_attack(us, from, occ) & s.target);
    }
    b = p->diag & own;
    while (b) {
        int from = bb_pop(&b);
        bb_t a = bishop_attack(from, occ);
        if (bb_test(p->kind[BISHOP], from))
            n += count_targets(us, BISHOP, from, a & s.target);
        else
            n += (size_t)bb_count((a | ATT.step[us][KING][from]) & s.target);
    }
    b = p->orth & own;
    while (b) {
        int from = bb_pop(&b);
        bb_t a = rook_attack(from, occ);
        if (bb_test(p->kind[ROOK], from))
            n += count_targets(us, ROOK, from, a & s.target);
        else
            n += (size_t)bb_count((a | ATT.step[us][KING][from]) & s.target);
    }
    /* Pinned pieces move along the pin line only. */
    b = s.pinned;
    while (b) {
        int from = bb_pop(&b), k = CPIECE_KIND(p->board[from]);
        bb_t a = piece_attack(us, k, from, occ) & s.target & ATT.line[s.ksq][from];
        if (a)
            n += count_targets(us, k, from, a);
    }
    if (s.drop_target) {
        const uint8_t *h = p->hand[us];
        if (h[PAWN])
            n += (size_t)bb_count(pawn_drops(p, s.drop_target & ~ATT.dead[us][PAWN]));
        if (h[LANCE])
            n += (size_t)bb_count(s.drop_target & ~ATT.dead[us][LANCE]);
        if (h[KNIGHT])
            n += (size_t)bb_count(s.drop_target & ~ATT.dead[us][KNIGHT]);
        int others = !!h[SILVER] + !!h[GOLD] + !!h[BISHOP] + !!h[ROOK];
        if (others)
            n += (size_t)(others * bb_count(s.drop_target));
    }
    return n;
}

int kifu__has_legal(const kpos *p)
{
    kmove buf[MAX_MOVES];
    return kifu__gen_legal(p, buf) > 0;
}

/* Lance, bishop, rook, horse, dragon: the kinds whose reach the board can block. */
static inline int is_slider(int kind)
{
    return (0x6064 >> kind) & 1;
}

/* The pieces of `kind` and color us, but those of skip, that attack `to`: those that reach it on an empty
 * board (a piece of the other color on `to` would reach them), sliders only with nothing
 * between. Rarely more than one candidate, so no slider rays are computed. */
static inline bb_t attackers_of_kind(const kpos *p, int us, int kind, int to, bb_t occ,
                                     bb_t skip)
{
    bb_t cand = ATT.pseudo[us ^ 1][kind][to] & p->kind[kind] & p->occ[us] & ~skip;
    if (!is_slider(kind))
        return cand;
    bb_t r = cand;
    while (cand) {
        int x = bb_pop(&cand);
        if (ATT.between[to][x] & occ)
            r &= ~ATT.sq[x];
    }
    return r;
}

/* The same moves as kifu__gen_legal's that land on `to` with `kind`, without its whole
 * setup: the few pieces of `kind` that attack `to` are found by the reverse attack from
 * `to`, and the checks and pins come from one pass over the few pieces near the king and
 * the enemy sliders on its lines (most positions have none of either). */
static inline size_t gen_to(const kpos *p, int to, int kind, kmove *out, int drops,
                            int *reach)
{
    int us = p->side;
    kmove *o = out;
    *reach = 0;
    if (to < 0 || to >= SQ_NB || kind < PAWN || kind >= PIECE_KIND_NB)
        return 0;
    int tp = p->board[to];
    if (tp && (CPIECE_COLOR(tp) == us || CPIECE_KIND(tp) == KING))
        return 0; /* own piece, or a king (never captured: loose starts may leave one en prise) */
    int k = p->ksq[us];
    bb_t occ = pos_occ(p);
    if (kind == KING) {
        if (k != NO_SQ && bb_test(ATT.step[us][KING][k], to) &&
            !pos_attackers(p, to, us ^ 1, occ ^ BB_SQ(k)))
            *o++ = move_make(k, to, KING, CPIECE_KIND(tp), 0);
        return (size_t)(o - out);
    }
    /* A piece of `kind` attacks `to` from sq exactly when the same kind of the other
     * color standing on `to` would attack sq. */
    bb_t from = attackers_of_kind(p, us, kind, to, occ, 0);
    int drop = drops && kind <= GOLD && !tp && p->hand[us][kind] &&
               !bb_test(ATT.dead[us][kind], to);
    if (!from && !drop)
        return 0;
    if (k != NO_SQ) {
        bb_t pinned, chk = check_pins(p, us, k, occ, &pinned);
        if (chk) {
            /* Only a capture of the single checker or an interposition. */
            if (bb_more_than_one(chk))
                return 0;
            bb_t between = ATT.between[k][bb_lsb(chk)];
            if (!bb_test(between | chk, to))
                return 0;
            drop = drop && bb_test(between, to);
        }
        /* Every piece that reaches is counted on the way (the caller compares the count
         * with the pieces listed: a pinned one makes them fewer). */
        int count = 0;
        for (; from; count++) {
            int f = bb_pop(&from);
            if (bb_test(pinned, f) && !bb_test(ATT.line[k][f], to))
                continue;
            o = emit(o, p, us, kind, f, to);
        }
        *reach = count;
    } else {
        int count = 0;
        for (; from; count++)
            o = emit(o, p, us, kind, bb_pop(&from), to);
        *reach = count;
    }
    if (drop && (kind != PAWN || pawn_drops(p, BB_SQ(to))))
        *o++ = move_make_drop(kind, to);
    return (size_t)(o - out);
}

size_t kifu__gen_to(const kpos *p, int to, int kind, kmove *out, int *reach)
{
    int unused;
    return gen_to(p, to, kind, out, 1, reach ? reach : &unused);
}

size_t kifu__gen_to_board(const kpos *p, int to, int kind, kmove *out, int *reach)
{
    int unused;
    return gen_to(p, to, kind, out, 0, reach ? reach : &unused);
}

size_t kifu__gen_reach(const kpos *p, int to, int kind, kmove *out)
{
    int us = p->side;
    kmove *o = out;
    if (to < 0 || to >= SQ_NB || kind < PAWN || kind >= PIECE_KIND_NB || kind == KING)
        return 0;
    int tp = p->board[to];
    if (tp && CPIECE_COLOR(tp) == us)
        return 0;
    for (bb_t from = attackers_of_kind(p, us, kind, to, pos_occ(p), 0); from;)
        o = emit(o, p, us, kind, bb_pop(&from), to);
    if (kind <= GOLD && !tp && p->hand[us][kind] && !bb_test(ATT.dead[us][kind], to))
        *o++ = move_make_drop(kind, to);
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
        if (CPIECE_KIND(tp) == KING)
            return "cannot capture a king";
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
        bb_test(ATT.step[us ^ 1][PAWN][p->ksq[us ^ 1]], to) &&
        kifu__pawn_drop_mates(p, to))
        return "打ち歩詰め (pawn drop mate)";
    return NULL;
}

/* Is the king of us on k (not the piece that moves) safe once a move has left the board
 * occupancy occ2 and captured the pieces of cap? The step attackers stay unless captured;
 * a slider on the king's lines attacks it when not captured and nothing stands between. */
static inline int safe_after(const kpos *p, int us, int k, bb_t occ2, bb_t cap)
{
    bb_t e = p->occ[us ^ 1] & ~cap;
    if ((e & ATT.near[k]) &&
        (((ATT.step[us][PAWN][k] & p->kind[PAWN]) |
          (ATT.step[us][KNIGHT][k] & p->kind[KNIGHT]) |
          (ATT.step[us][SILVER][k] & p->kind[SILVER]) |
          (ATT.step[us][GOLD][k] & p->golds) | (ATT.step[us][KING][k] & p->hdk)) &
         e))
        return 0;
    bb_t snip =
        ((p->kind[LANCE] & ATT.pseudo[us][LANCE][k]) |
         (p->diag & ATT.pseudo[0][BISHOP][k]) | (p->orth & ATT.pseudo[0][ROOK][k])) &
        e;
    while (snip)
        if (!(ATT.between[k][bb_pop(&snip)] & occ2))
            return 0;
    return 1;
}

/* Is m (capture field from the board) legal, and the only legal move of its kind to its
 * square from the board? One piece is checked directly, without listing the others: 1
 * when legal and alone, 0 when not known (illegal, another piece of the kind reaches the
 * square, or a pawn drop that checks): the caller then takes kifu__gen_to's answer. */
int kifu__legal_alone(const kpos *p, kmove m)
{
    int us = p->side, to = MOVE_TO(m), kind = MOVE_PIECE(m);
    if (to >= SQ_NB || kind < PAWN || kind >= PIECE_KIND_NB)
        return 0;
    int tp = p->board[to];
    if (tp && (CPIECE_COLOR(tp) == us || CPIECE_KIND(tp) == KING))
        return 0;
    int k = p->ksq[us];
    bb_t occ = pos_occ(p);
    /* Other pieces of `kind` that reach `to` (they would need a relative word). */
    bb_t rev = kind == KING
                   ? 0
                   : attackers_of_kind(p, us, kind, to, occ,
                                       MOVE_IS_DROP(m) ? 0 : ATT.sq[MOVE_FROM(m)]);
    if (MOVE_IS_DROP(m)) {
        if (kind > GOLD || MOVE_IS_PROMOTE(m) || tp || !p->hand[us][kind] ||
            bb_test(ATT.dead[us][kind], to) || rev)
            return 0;
        if (kind == PAWN) {
            int ek = p->ksq[us ^ 1];
            if (!bb_test(pawn_free_files(p, us), to) ||
                (ek != NO_SQ && bb_test(ATT.step[us ^ 1][PAWN][ek], to)))
                return 0;
        }
        return k == NO_SQ || safe_after(p, us, k, occ | ATT.sq[to], 0);
    }
    int from = MOVE_FROM(m), fp = p->board[from];
    if (!fp || CPIECE_COLOR(fp) != us || CPIECE_KIND(fp) != kind ||
        !bb_test(ATT.pseudo[us][kind][from], to) ||
        (is_slider(kind) && (ATT.between[from][to] & occ)))
        return 0;
    if (MOVE_IS_PROMOTE(m) ? !can_promote_move(us, kind, from, to)
                           : must_promote(us, kind, to))
        return 0;
    if (kind == KING)
        return from == k && !pos_attackers(p, to, us ^ 1, occ ^ BB_SQ(from));
    if (rev)
        return 0;
    return k == NO_SQ ||
           safe_after(p, us, k, (occ & ~ATT.sq[from]) | ATT.sq[to], ATT.sq[to]);
}
