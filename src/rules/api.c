/* api.c: the public kifu_position: an engine position plus the history of the moves played
 * on it (with the key and check state before each), for undo and repetition. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "kifu_private.h"
#include "rules/engine.h"
#include "rules/keycount.h"
#include "rules/movegen.h"
#include "rules/sfen.h"

typedef struct hist {
    kmove move;
    uint64_t key;  /* key of the position before the move */
    uint8_t check; /* was the side to move in check before the move */
} hist;

struct kifu_position {
    kpos pos;
    hist *hist;
    size_t len, cap;
    /* Keys of the positions 0..len (the current one included), built on the first
     * repetition query and kept up to date from then on: replaying a record (the
     * normalizer) never pays for it. */
    kifu__keycount seen;
    int seen_valid;
};

/* Start a history at p->pos: no moves. Always 0 (kept for the callers' error paths). */
static int reset_history(kifu_position *p)
{
    p->len = 0;
    p->seen_valid = 0;
    kifu__kc_clear(&p->seen);
    return 0;
}

/* Make p->seen hold the history's keys. 0, or -1 when out of memory. */
static int build_seen(kifu_position *p)
{
    if (p->seen_valid)
        return 0;
    kifu__kc_clear(&p->seen);
    for (size_t j = 0; j < p->len; j++)
        if (kifu__kc_add(&p->seen, p->hist[j].key) < 0)
            return -1;
    if (kifu__kc_add(&p->seen, p->pos.key) < 0)
        return -1;
    p->seen_valid = 1;
    return 0;
}

kifu_position *kifu_position_new(void)
{
    kifu__rules_init();
    kifu_position *p = kifu__calloc(1, sizeof *p);
    if (!p)
        return NULL;
    kifu_board b;
    kifu_preset_board(KIFU_PRESET_HIRATE, &b);
    kifu__pos_from_board(&p->pos, &b);
    if (reset_history(p) < 0) {
        kifu_position_free(p);
        return NULL;
    }
    return p;
}

void kifu_position_free(kifu_position *p)
{
    if (!p)
        return;
    kifu__free(p->hist);
    kifu__kc_free(&p->seen);
    kifu__free(p);
}

kifu_position *kifu_position_clone(const kifu_position *p)
{
    kifu_position *q = kifu__calloc(1, sizeof *q);
    if (!q)
        return NULL;
    q->pos = p->pos;
    if (kifu__kc_copy(&q->seen, &p->seen) < 0) {
        kifu__free(q);
        return NULL;
    }
    q->seen_valid = p->seen_valid;
    if (p->len) {
        q->hist = kifu__malloc(p->len * sizeof *q->hist);
        if (!q->hist) {
            kifu_position_free(q);
            return NULL;
        }
        memcpy(q->hist, p->hist, p->len * sizeof *q->hist);
        q->len = q->cap = p->len;
    }
    return q;
}

/* Record and play m (legal, capture field right). -1 when the history cannot grow. */
static int push(kifu_position *p, kmove m)
{
    if (kifu__reserve(&p->hist, &p->cap, p->len + 1, sizeof *p->hist, 64))
        return -1;
    uint64_t key = p->pos.key;
    uint8_t check = pos_checkers(&p->pos) != 0;
    kifu__pos_do(&p->pos, m);
    if (p->seen_valid && kifu__kc_add(&p->seen, p->pos.key) < 0) {
        kifu__pos_undo(&p->pos, m);
        return -1;
    }
    hist *h = &p->hist[p->len++];
    h->move = m;
    h->key = key;
    h->check = check;
    return 0;
}

static int is_word(const char *t, size_t i, const char *w, size_t *end)
{
    size_t n = strlen(w);
    if (strncmp(t + i, w, n) != 0)
        return 0;
    char c = t[i + n];
    if (c && c != ' ' && c != '\t' && c != '\r' && c != '\n')
        return 0;
    *end = i + n;
    return 1;
}

static size_t skip_ws(const char *t, size_t i)
{
    while (t[i] == ' ' || t[i] == '\t' || t[i] == '\r' || t[i] == '\n')
        i++;
    return i;
}

static int usi_error(kifu_error *err, const char *t, size_t off, const char *field,
                     const char *tok, size_t toklen, const char *what)
{
    char found[64];
    snprintf(found, sizeof found, "%.*s", (int)(toklen < 40 ? toklen : 40), tok);
    return kifu__error(err, KIFU_ERR_SFEN, 1, kifu__utf8_column(t, off), off, NULL, found,
                       "%s, offset %zu: %s: %s", field, off, found, what);
}

static int set_sfen(kifu_position *p, const char *t, int loose, kifu_error *err);

int kifu_position_set_sfen(kifu_position *p, const char *t, kifu_error *err)
{
    return set_sfen(p, t, 0, err);
}

int kifu__position_set_sfen_loose(kifu_position *p, const char *t, kifu_error *err)
{
    return set_sfen(p, t, 1, err);
}

static int set_sfen(kifu_position *p, const char *t, int loose, kifu_error *err)
{
    kifu__rules_init();
    if (!p || !t)
        return kifu__error(err, KIFU_ERR_ARG, 0, 0, 0, NULL, NULL, "no position or text");
    size_t i = skip_ws(t, 0), e;
    kifu_board b;
    int movenum;
    if (is_word(t, i, "position", &e))
        i = skip_ws(t, e);
    if (is_word(t, i, "startpos", &e)) {
        kifu_preset_board(KIFU_PRESET_HIRATE, &b);
        i = e;
    } else {
        if (is_word(t, i, "sfen", &e))
            i = e;
        if (kifu__sfen_parse_mode(t, &i, &b, &movenum, loose, err) < 0)
            return -1;
    }
    /* Play into a scratch position so a failure leaves p as it was. */
    kifu_position q = {.hist = NULL};
    kifu__pos_from_board(&q.pos, &b);
    if (reset_history(&q) < 0)
        return kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
    i = skip_ws(t, i);
    if (is_word(t, i, "moves", &e)) {
        i = skip_ws(t, e);
        while (t[i]) {
            size_t s = i;
            while (t[i] && t[i] != ' ' && t[i] != '\t' && t[i] != '\r' && t[i] != '\n')
                i++;
            const char *why = NULL;
            kmove m = kifu__usi_parse(&q.pos, t + s, i - s, &why);
            if (m && !(why = kifu__illegal_reason(&q.pos, m)) && push(&q, m) < 0) {
                kifu__free(q.hist);
                kifu__kc_free(&q.seen);
                return kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL,
                                   "out of memory");
            }
            if (why) {
                kifu__free(q.hist);
                kifu__kc_free(&q.seen);
                return usi_error(err, t, s, "USI moves", t + s, i - s, why);
            }
            i = skip_ws(t, i);
        }
    } else if (t[i]) {
        size_t s = i;
        while (t[i] && t[i] != ' ' && t[i] != '\t')
            i++;
        kifu__free(q.hist);
        kifu__kc_free(&q.seen);
        return usi_error(err, t, s, "SFEN", t + s, i - s,
                         "unexpected text (expected 'moves')");
    }
    kifu__free(p->hist);
    kifu__kc_free(&p->seen);
    *p = q;
    return 0;
}

int kifu_position_set_board(kifu_position *p, const kifu_board *b, kifu_error *err)
{
    kifu__rules_init();
    if (!p || !b)
        return kifu__error(err, KIFU_ERR_ARG, 0, 0, 0, NULL, NULL,
                           "no position or board");
    if (kifu__board_check(b, NULL, NULL, 0, err) < 0)
        return -1;
    kpos old = p->pos;
    kifu__pos_from_board(&p->pos, b);
    if (reset_history(p) < 0) {
        p->pos = old; /* the old history is gone; keep at least a consistent position */
        p->len = 0;
        return kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
    }
    return 0;
}

int kifu__position_set_board_loose(kifu_position *p, const kifu_board *b, kifu_error *err)
{
    kifu__rules_init();
    if (kifu__board_check_mode(b, NULL, NULL, 0, 1, err) < 0)
        return -1;
    kifu__pos_from_board(&p->pos, b);
    if (reset_history(p) < 0)
        return kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
    return 0;
}

kifu_position *kifu__position_new_loose(const kifu_board *b, kifu_error *err)
{
    kifu__rules_init();
    if (kifu__board_check_mode(b, NULL, NULL, 0, 1, err) < 0)
        return NULL;
    kifu_position *p = kifu__calloc(1, sizeof *p);
    if (!p) {
        kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
        return NULL;
    }
    kifu__pos_from_board(&p->pos, b);
    return p;
}

/* The start positions of the presets, built once: replaying a record from a preset then
 * copies one instead of checking a board and placing its forty pieces, which is much of
 * the cost of a short record. */
static kpos preset_pos[KIFU_PRESET_OTHER];
static uint8_t preset_ok[KIFU_PRESET_OTHER];
static pthread_once_t preset_once = PTHREAD_ONCE_INIT;

static void build_preset_positions(void)
{
    kifu__rules_init();
    for (int i = 0; i < KIFU_PRESET_OTHER; i++) {
        kifu_board b;
        if (kifu_preset_board(i, &b) == 0 &&
            kifu__board_check_mode(&b, NULL, NULL, 0, 1, NULL) == 0) {
            kifu__pos_from_board(&preset_pos[i], &b);
            preset_ok[i] = 1;
        }
    }
}

kifu_position *kifu__position_new_start(const kifu_board *b, int preset, kifu_error *err)
{
    if (preset < 0 || preset >= KIFU_PRESET_OTHER)
        return kifu__position_new_loose(b, err);
    pthread_once(&preset_once, build_preset_positions);
    if (!preset_ok[preset])
        return kifu__position_new_loose(b, err);
    kifu_position *p = kifu__calloc(1, sizeof *p);
    if (!p) {
        kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
        return NULL;
    }
    p->pos = preset_pos[preset];
    return p;
}

int kifu__position_restart(kifu_position *p, const kifu_board *b, int preset,
                           kifu_error *err)
{
    if (preset >= 0 && preset < KIFU_PRESET_OTHER) {
        pthread_once(&preset_once, build_preset_positions);
        if (preset_ok[preset]) {
            p->pos = preset_pos[preset];
            return reset_history(p);
        }
    }
    if (kifu__board_check_mode(b, NULL, NULL, 0, 1, err) < 0)
        return -1;
    kifu__pos_from_board(&p->pos, b);
    return reset_history(p);
}

void kifu_position_board(const kifu_position *p, kifu_board *out)
{
    kifu__pos_to_board(&p->pos, out);
}

char *kifu_position_sfen(const kifu_position *p, int move_number)
{
    char buf[320];
    kifu__sfen_write(&p->pos, move_number > 0 ? move_number : 1, buf, sizeof buf);
    return kifu__strdup(buf);
}

int kifu_position_side(const kifu_position *p)
{
    return p->pos.side;
}
uint64_t kifu_position_hash(const kifu_position *p)
{
    return p->pos.key;
}

void kifu__move_unpack(kmove m, int color, kifu_move *out)
{
    memset(out, 0, sizeof *out);
    out->color = (uint8_t)color;
    int to = MOVE_TO(m), k = MOVE_PIECE(m);
    out->to_x = (uint8_t)SQ_X(to);
    out->to_y = (uint8_t)SQ_Y(to);
    out->piece = (uint8_t)k;
    out->same = -1;
    out->promote = -1;
    if (MOVE_IS_DROP(m)) {
        out->flags = KIFU_MOVE_DROP;
        return;
    }
    int from = MOVE_FROM(m);
    out->from_x = (uint8_t)SQ_X(from);
    out->from_y = (uint8_t)SQ_Y(from);
    out->capture = (uint8_t)MOVE_CAPTURE(m);
    if (can_promote_move(color, k, from, to))
        out->promote = (int8_t)MOVE_IS_PROMOTE(m);
}

kmove kifu__move_of(int color, int from, int to, int kind, int capture, int promote)
{
    kifu__rules_init();
    if (to < 0 || to >= SQ_NB)
        return MOVE_NONE;
    if (from == -1)
        return kind >= PAWN && kind <= GOLD ? move_make_drop(kind, to) : MOVE_NONE;
    if (from < 0 || from >= SQ_NB || kind < PAWN || kind >= PIECE_KIND_NB ||
        capture < 0 || capture >= PIECE_KIND_NB || capture == KING)
        return MOVE_NONE;
    /* promote -1 means "no choice": promote exactly when the piece has to. */
    return move_make(from, to, kind, capture,
                     promote == 1 || (promote < 0 && must_promote(color, kind, to)));
}

kmove kifu__move_pack(const kifu_move *m)
{
    if (m->to_x < 1 || m->to_x > 9 || m->to_y < 1 || m->to_y > 9 || m->color > 1)
        return MOVE_NONE;
    int from = m->from_x == 0 && m->from_y == 0 ? -1
               : m->from_x >= 1 && m->from_x <= 9 && m->from_y >= 1 && m->from_y <= 9
                   ? SQ(m->from_x, m->from_y)
                   : -2;
    return kifu__move_of(m->color, from, SQ(m->to_x, m->to_y), m->piece, m->capture,
                         m->promote);
}

/* The packed move of a public one on p: color is the side to move, a missing piece kind is
 * taken from the board, capture comes from the board. MOVE_NONE if malformed. */
static kmove pack_here(const kifu_position *p, const kifu_move *m)
{
    kifu_move c = *m;
    c.color = p->pos.side;
    c.capture = 0;
    if ((c.from_x || c.from_y) && c.piece == 0 && c.from_x >= 1 && c.from_x <= 9 &&
        c.from_y >= 1 && c.from_y <= 9)
        c.piece = (uint8_t)CPIECE_KIND(p->pos.board[SQ(c.from_x, c.from_y)]);
    kmove k = kifu__move_pack(&c);
    return k ? kifu__fix_capture(&p->pos, k) : k;
}

size_t kifu_position_legal_moves(const kifu_position *p, kifu_move *out, size_t cap)
{
    kmove buf[MAX_MOVES];
    size_t n = kifu__gen_legal(&p->pos, buf);
    for (size_t i = 0; i < n && i < cap; i++)
        kifu__move_unpack(buf[i], p->pos.side, &out[i]);
    return n;
}

int kifu_position_is_legal(const kifu_position *p, const kifu_move *m,
                           const char **reason)
{
    kmove k = pack_here(p, m);
    const char *why = k ? kifu__illegal_reason(&p->pos, k) : "malformed move";
    if (reason)
        *reason = why;
    return why == NULL;
}

int kifu_position_play(kifu_position *p, kifu_move *m, kifu_error *err)
{
    kmove k = pack_here(p, m);
    const char *why = k ? kifu__illegal_reason(&p->pos, k) : "malformed move";
    if (why) {
        char usi[8] = "?";
        if (k)
            kifu__usi_write(k, usi);
        return kifu__error(err, KIFU_ERR_ILLEGAL, 0, 0, 0, "a legal move", usi,
                           "illegal move %s: %s", usi, why);
    }
    int side = p->pos.side;
    if (push(p, k) < 0)
        return kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
    uint8_t flags = m->flags & (uint8_t) ~(KIFU_MOVE_RAW | KIFU_MOVE_NO_COLOR |
                                           KIFU_MOVE_PIECE_AFTER);
    int8_t same = m->same;
    char rel[3];
    memcpy(rel, m->relative, sizeof rel);
    kifu__move_unpack(k, side, m);
    m->flags = (uint8_t)(flags | (MOVE_IS_DROP(k) ? KIFU_MOVE_DROP : 0));
    m->same = same;
    memcpy(m->relative, rel, sizeof rel);
    return 0;
}

int kifu__position_force(kifu_position *p, const kifu_move *m, kifu_error *err)
{
    kmove k = pack_here(p, m);
    if (!k)
        return kifu__error(err, KIFU_ERR_ILLEGAL, 0, 0, 0, "a move", NULL,
                           "malformed move");
    if (push(p, k) < 0)
        return kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
    return 0;
}

int kifu_position_undo(kifu_position *p)
{
    if (!p->len)
        return -1;
    if (p->seen_valid)
        kifu__kc_remove(&p->seen, p->pos.key);
    kifu__pos_undo(&p->pos, p->hist[--p->len].move);
    return 0;
}

int kifu_position_history_length(const kifu_position *p)
{
    return (int)p->len;
}

int kifu_position_parse_usi(const kifu_position *p, const char *usi, kifu_move *out,
                            kifu_error *err)
{
    const char *why = NULL;
    size_t n = strlen(usi);
    kmove m = kifu__usi_parse(&p->pos, usi, n, &why);
    if (!m)
        return usi_error(err, usi, 0, "USI move", usi, n, why);
    if (MOVE_IS_DROP(m) && !p->pos.hand[p->pos.side][MOVE_PIECE(m)])
        return usi_error(err, usi, 0, "USI move", usi, n, "no such piece in hand");
    kifu__move_unpack(m, p->pos.side, out);
    if (MOVE_IS_PROMOTE(m))
        out->promote = 1;
    return 0;
}

const char *kifu__usi_move_raw(const char *usi, size_t n, int color, kifu_move *out)
{
    kifu__usi_move u;
    const char *why = NULL;
    if (kifu__usi_syntax(usi, n, &u, &why))
        return why;
    memset(out, 0, sizeof *out);
    out->color = (uint8_t)color;
    out->to_x = (uint8_t)SQ_X(u.to);
    out->to_y = (uint8_t)SQ_Y(u.to);
    out->same = -1;
    out->promote = u.promote ? 1 : -1;
    out->flags = KIFU_MOVE_RAW;
    if (u.drop) {
        out->piece = (uint8_t)u.drop;
        out->flags |= KIFU_MOVE_DROP;
    } else {
        out->from_x = (uint8_t)SQ_X(u.from);
        out->from_y = (uint8_t)SQ_Y(u.from);
    }
    return NULL;
}

char *kifu_move_usi(const kifu_move *m, char *buf)
{
    if (m->from_x == 0) {
        static const char l[] = "?PLNSBRGK";
        buf[0] = l[m->piece <= GOLD ? m->piece : 0];
        buf[1] = '*';
    } else {
        buf[0] = (char)('0' + m->from_x);
        buf[1] = (char)('a' + m->from_y - 1);
    }
    buf[2] = (char)('0' + m->to_x);
    buf[3] = (char)('a' + m->to_y - 1);
    int promo =
        m->from_x &&
        (m->promote == 1 || (m->promote < 0 && m->to_y >= 1 && m->to_y <= 9 &&
                             must_promote(m->color & 1, m->piece, SQ(m->to_x, m->to_y))));
    buf[4] = promo ? '+' : 0;
    buf[5] = 0;
    return buf;
}

int kifu_position_in_check(const kifu_position *p)
{
    return pos_checkers(&p->pos) != 0;
}
int kifu_position_has_legal_move(const kifu_position *p)
{
    return kifu__has_legal(&p->pos);
}
int kifu_position_is_mate(const kifu_position *p)
{
    return kifu_position_in_check(p) && !kifu__has_legal(&p->pos);
}

int kifu_position_repetition_count(const kifu_position *p)
{
    kifu_position *w = (kifu_position *)p; /* the cache is not part of the value */
    if (build_seen(w) < 0) {
        int n = 1; /* no memory for the table: count by scanning */
        for (size_t j = 0; j < p->len; j++)
            n += p->hist[j].key == p->pos.key;
        return n;
    }
    return (int)kifu__kc_get(&p->seen, p->pos.key);
}

int kifu_position_repetition(const kifu_position *p)
{
    if (kifu_position_repetition_count(p) < 4)
        return KIFU_REP_NONE;
    /* The cycle runs from the first occurrence; a side whose every move in it gave check
     * loses (連続王手の千日手). Position j's move was made by the side to move there. */
    size_t first = 0;
    while (first < p->len && p->hist[first].key != p->pos.key)
        first++;
    int all_check[2] = {1, 1};
    for (size_t j = first; j < p->len; j++) {
        int mover = p->pos.side ^ (int)((p->len - j) & 1);
        int gave = j + 1 < p->len ? p->hist[j + 1].check : kifu_position_in_check(p);
        if (!gave)
            all_check[mover] = 0;
    }
    if (all_check[BLACK])
        return KIFU_REP_BLACK_LOSES;
    if (all_check[WHITE])
        return KIFU_REP_WHITE_LOSES;
    return KIFU_REP_DRAW;
}

int kifu_position_can_declare(const kifu_position *p)
{
    const kpos *s = &p->pos;
    int us = s->side, k = s->ksq[us];
    if (k == NO_SQ || !bb_test(ATT.zone[us], k) || pos_checkers(s))
        return 0;
    bb_t mine = s->occ[us] & ATT.zone[us] & ~BB_SQ(k);
    if (bb_count(mine) < 10)
        return 0;
    bb_t big = s->kind[BISHOP] | s->kind[ROOK] | s->kind[HORSE] | s->kind[DRAGON];
    int points = bb_count(mine) + 4 * bb_count(mine & big);
    for (int kind = PAWN; kind <= GOLD; kind++)
        points += s->hand[us][kind] * (kind == BISHOP || kind == ROOK ? 5 : 1);
    return points >= (us == BLACK ? 28 : 27);
}

uint64_t kifu_perft(kifu_position *p, int depth)
{
    return kifu__perft(&p->pos, depth);
}

/* ---- internal calls (engine.h) ---- */

int kifu__position_at(const kifu_position *p, int sq)
{
    return sq >= 0 && sq < SQ_NB ? p->pos.board[sq] : 0;
}
int kifu__position_hand(const kifu_position *p, int color, int kind)
{
    return kind >= PAWN && kind <= GOLD ? p->pos.hand[color & 1][kind] : 0;
}
size_t kifu__position_legal(const kifu_position *p, kmove *out)
{
    return kifu__gen_legal(&p->pos, out);
}
size_t kifu__position_moves_to(const kifu_position *p, int to, int kind, kmove *out,
                               int *reach)
{
    return kifu__gen_to(&p->pos, to, kind, out, reach);
}
size_t kifu__position_reach_to(const kifu_position *p, int to, int kind, kmove *out)
{
    return kifu__gen_reach(&p->pos, to, kind, out);
}
size_t kifu__position_board_moves_to(const kifu_position *p, int to, int kind, kmove *out,
                                     int *reach)
{
    return kifu__gen_to_board(&p->pos, to, kind, out, reach);
}
int kifu__position_legal_alone(const kifu_position *p, kmove m)
{
    return kifu__legal_alone(&p->pos, m);
}
const char *kifu__position_illegal_reason(const kifu_position *p, kmove m)
{
    return kifu__illegal_reason(&p->pos, m);
}
void kifu__position_do(kifu_position *p, kmove m)
{
    m = kifu__fix_capture(&p->pos, m);
    if (push(p, m) < 0) {
        /* No room to remember it: play it anyway and start the history afresh here, so
         * undo never takes back the wrong move. */
        kifu__pos_do(&p->pos, m);
        reset_history(p);
    }
}

const struct kpos *kifu__position_kpos(const kifu_position *p)
{
    return &p->pos;
}

int kifu__position_do_light(kifu_position *p, kmove m)
{
    /* 512: a whole game, mostly, so no regrowing. */
    if (p->len == p->cap &&
        kifu__reserve(&p->hist, &p->cap, p->len + 1, sizeof *p->hist, 512))
        return -1;
    m = kifu__fix_capture(&p->pos, m);
    p->hist[p->len++].move = m;
    kifu__pos_do_unkeyed(&p->pos, m);
    return 0;
}

void kifu__position_do_bare(kifu_position *p, kmove m)
{
    kifu__pos_do_unkeyed(&p->pos, kifu__fix_capture(&p->pos, m));
}

int kifu__position_undo_light(kifu_position *p)
{
    if (!p->len)
        return -1;
    kifu__pos_undo_unkeyed(&p->pos, p->hist[--p->len].move);
    return 0;
}
