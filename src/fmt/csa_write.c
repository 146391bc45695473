/* csa_write.c: the CSA writer: V2.2 by default, V3.0 with KIFU_WRITE_CSA_V3.
 *
 * Layout: version, N+/N-, $ information, other header entries as `'key：value` comments
 * (手合割 left out: the position says it), the start position (PI with removed pieces for
 * a preset, else P1..P9 and P+/P- hands), the side to move, the root comments, then the
 * main line: one move per line with the piece after the move (`+8822UM`), `T` seconds on
 * the next line, a move's comments as `'*text` (the only comments tsshogi attaches to a
 * move; the reader takes the star off), bookmarks as `'&name`.
 *
 * What CSA cannot hold is reported through opt->warn, never dropped silently: forks (only
 * the main line is written), fractions of seconds in V2.2 (cut to whole seconds), and
 * endings that are not CSA words (written as a comment followed by %CHUDAN). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "fmt/fmt.h"
#include "kifu_private.h"
#include "rules/types.h"

typedef struct wr {
    const kifu_write_options *opt;
    kifu__strbuf *out;
    int v3;
    int cut_ms;           /* V2.2 times lost their fractions */
    size_t forks;         /* alternatives left out */
    int odd_endings;      /* endings written as %CHUDAN */
    const char *odd_word; /* the first of them (the record's) */
} wr;

#define warn(w, ...) kifu__warn((w)->opt->warn, (w)->opt->warn_ctx, __VA_ARGS__)

/* One `'` line per line of the comment; a move's comment as `'*` lines, the only
 * comments other programs (tsshogi, Kifu for Windows) attach to a move. */
static void put_comment(kifu__strbuf *b, const char *c, int on_move)
{
    kifu__sb_put_lines(b, on_move ? "'*" : "'", c);
}

/* ---- header ---- */

static const struct {
    const char *key, *csa;
} info_keys[] = {
    {"棋戦", "EVENT"},        {"場所", "SITE"},           {"開始日時", "START_TIME"},
    {"終了日時", "END_TIME"}, {"持ち時間", "TIME_LIMIT"}, {"戦型", "OPENING"},
};

/* Keys that can follow `$` as they are: what the reader kept from unknown `$KEY` lines. */
static int csa_key(const char *k)
{
    if (!*k)
        return 0;
    for (; *k; k++)
        if (!((*k >= 'A' && *k <= 'Z') || (*k >= 'a' && *k <= 'z') ||
              (*k >= '0' && *k <= '9') || *k == '_' || *k == '+' || *k == '-'))
            return 0;
    return 1;
}

static void write_header(wr *w, const kifu_record *r)
{
    kifu__strbuf *b = w->out;
    size_t n = kifu_record_header_count(r);
    /* The names: 先手/後手, or 下手/上手 (handicap games) when those are absent. */
    const char *names[2] = {kifu_record_header_get(r, "先手"),
                            kifu_record_header_get(r, "後手")};
    if (!names[0])
        names[0] = kifu_record_header_get(r, "下手");
    if (!names[1])
        names[1] = kifu_record_header_get(r, "上手");
    for (int c = 0; c < 2; c++)
        if (names[c]) {
            kifu__sb_puts(b, c ? "N-" : "N+");
            kifu__sb_put_flat(b, names[c]);
            kifu__sb_putc(b, '\n');
        }
    for (size_t i = 0; i < n; i++) {
        const char *k, *v;
        kifu_record_header_at(r, i, &k, &v);
        /* 手合割: the position written below says it (PI, or the board). */
        if (v == names[0] || v == names[1] || strcmp(k, "手合割") == 0)
            continue;
        const char *csa = NULL;
        for (size_t j = 0; j < sizeof info_keys / sizeof info_keys[0]; j++)
            if (strcmp(info_keys[j].key, k) == 0)
                csa = info_keys[j].csa;
        /* The KIF document's 対局日, the alternative to 開始日時, is the start too. */
        if (!csa && strcmp(k, "対局日") == 0 && !kifu_record_header_get(r, "開始日時"))
            csa = "START_TIME";
        if (!csa && csa_key(k))
            csa = k;
        if (csa) {
            kifu__sb_putc(b, '$');
            kifu__sb_puts(b, csa);
            kifu__sb_putc(b, ':');
        } else {
            kifu__sb_putc(b, '\'');
            kifu__sb_put_flat(b, k);
            kifu__sb_puts(b, "：");
        }
        kifu__sb_put_flat(b, v);
        kifu__sb_putc(b, '\n');
    }
}

/* ---- position ---- */

static void put_piece(kifu__strbuf *b, int kind)
{
    const char *name = kifu_piece_csa(kind);
    kifu__sb_putn(b, name ? name : "??", 2);
}

static void write_position(wr *w, const kifu_record *r)
{
    kifu__strbuf *b = w->out;
    int preset = kifu_record_preset(r);
    kifu_board board;
    kifu_record_initial(r, &board);
    if (preset != KIFU_PRESET_OTHER) {
        /* PI and the pieces the handicap removes from the hirate position. */
        kifu_board hirate;
        kifu_preset_board(KIFU_PRESET_HIRATE, &hirate);
        kifu__sb_puts(b, "PI");
        for (int x = 1; x <= 9; x++)
            for (int y = 1; y <= 9; y++)
                if (hirate.sq[SQ(x, y)] && !board.sq[SQ(x, y)]) {
                    char sq[2] = {(char)('0' + x), (char)('0' + y)};
                    kifu__sb_putn(b, sq, 2);
                    put_piece(b, CPIECE_KIND(hirate.sq[SQ(x, y)]));
                }
        kifu__sb_putc(b, '\n');
    } else {
        for (int y = 1; y <= 9; y++) {
            char row[3 + 27 + 1];
            int n = 0;
            row[n++] = 'P';
            row[n++] = (char)('0' + y);
            for (int x = 9; x >= 1; x--) {
                int cp = board.sq[SQ(x, y)];
                const char *name = cp ? kifu_piece_csa(CPIECE_KIND(cp)) : NULL;
                if (!name) {
                    memcpy(row + n, " * ", 3);
                } else {
                    row[n] = CPIECE_COLOR(cp) ? '-' : '+';
                    memcpy(row + n + 1, name, 2);
                }
                n += 3;
            }
            row[n++] = '\n';
            kifu__sb_putn(b, row, (size_t)n);
        }
        static const int order[] = {ROOK, BISHOP, GOLD, SILVER, KNIGHT, LANCE, PAWN};
        for (int c = 0; c < 2; c++) {
            int any = 0;
            for (int i = 0; i < 7; i++)
                for (int j = 0; j < board.hands[c][order[i]]; j++) {
                    if (!any)
                        kifu__sb_puts(b, c ? "P-" : "P+");
                    any = 1;
                    kifu__sb_puts(b, "00");
                    put_piece(b, order[i]);
                }
            if (any)
                kifu__sb_putc(b, '\n');
        }
    }
    kifu__sb_puts(b, board.color ? "-\n" : "+\n");
}

/* ---- moves ---- */

static void write_time(wr *w, const kifu_move_time *t)
{
    long sec = kifu_time_seconds(&t->now);
    if (t->now.ms && w->v3) {
        kifu__sb_printf(w->out, "T%ld.%03d\n", sec, t->now.ms);
        return;
    }
    if (t->now.ms)
        w->cut_ms = 1;
    kifu__sb_printf(w->out, "T%ld\n", sec);
}

static int write_move(wr *w, const kifu_move *m, int ply, kifu_error *err)
{
    int drop = (m->flags & KIFU_MOVE_DROP) || (!(m->flags & KIFU_MOVE_RAW) && !m->from_x);
    if (!m->to_x || !m->to_y || (!drop && (!m->from_x || !m->from_y)) ||
        !kifu_piece_csa(m->piece))
        return kifu__error(
            err, KIFU_ERR_ARG, 0, 0, 0, "a normalized record", "an incomplete move",
            "move %d is incomplete (unknown square or piece): normalize the "
            "record before writing CSA",
            ply);
    int piece = m->piece;
    if (!(m->flags & KIFU_MOVE_PIECE_AFTER) && m->promote == 1 && kind_can_promote(piece))
        piece = kind_promoted(piece);
    char s[9] = {m->color ? '-' : '+',
                 (char)('0' + (drop ? 0 : m->from_x)),
                 (char)('0' + (drop ? 0 : m->from_y)),
                 (char)('0' + m->to_x),
                 (char)('0' + m->to_y),
                 0,
                 0,
                 '\n',
                 0};
    memcpy(s + 5, kifu_piece_csa(piece), 2);
    kifu__sb_putn(w->out, s, 8);
    return 0;
}

/* The words CSA defines after `%`, and any other token a CSA file had (kept verbatim by the
 * reader): upper-case ASCII letters, digits, `_`, and a leading sign. */
static int csa_word(const char *s)
{
    if (*s == '+' || *s == '-')
        s++;
    if (!*s)
        return 0;
    for (; *s; s++)
        if (!((*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || *s == '_'))
            return 0;
    return 1;
}

/* Returns 1 for a word CSA lacks: written as %CHUDAN, the caller adds the word as the
 * ending's first comment (after its time, so that readers attach it to the ending). */
static int write_special(wr *w, const char *word)
{
    int odd = !csa_word(word);
    if (odd && !w->odd_endings++)
        w->odd_word = word;
    kifu__sb_putc(w->out, '%');
    kifu__sb_puts(w->out, odd ? "CHUDAN" : word);
    kifu__sb_putc(w->out, '\n');
    return odd;
}

/* The comments of n, then its bookmarks as `'&name` (a comment to other readers; CSA has
 * no bookmark, and kifu reads the line back as one). */
static void write_comments(wr *w, const kifu_node *n)
{
    size_t c = kifu_node_comment_count(n);
    for (size_t i = 0; i < c; i++)
        put_comment(w->out, kifu_node_comment(n, i),
                    kifu_node_kind_of(n) != KIFU_NODE_ROOT);
    for (size_t i = 0; i < kifu_node_bookmark_count(n); i++) {
        kifu__sb_puts(w->out, "'&");
        kifu__sb_put_flat(w->out, kifu_node_bookmark(n, i));
        kifu__sb_putc(w->out, '\n');
    }
}

int kifu__write_csa(KIFU__WRITER_PARAMS)
{
    wr w;
    memset(&w, 0, sizeof w);
    w.opt = opt;
    w.out = out;
    w.v3 = (opt->flags & KIFU_WRITE_CSA_V3) != 0;
    if (w.v3)
        kifu__sb_printf(out, "'CSA encoding=%s\nV3.0\n",
                        opt->encoding == KIFU_ENC_CP932 ? "SHIFT_JIS" : "UTF-8");
    else
        kifu__sb_puts(out, "V2.2\n");
    write_header(&w, r);
    write_position(&w, r);
    const kifu_node *n = kifu_record_root(r);
    write_comments(&w, n);
    /* Walk the main line; forks (children 1..) are counted and left out. A game goes on
     * after an ending only with more endings (floodgate's `%KACHI` pair). */
    int ended = 0;
    for (;;) {
        size_t nc = kifu_node_child_count(n);
        if (nc == 0)
            break;
        const kifu_node *c = kifu_node_child(n, 0);
        if (ended && kifu_node_kind_of(c) == KIFU_NODE_MOVE) {
            warn(&w, "CSA: the moves after the ending at ply %d were left out",
                 kifu_node_ply(n));
            break;
        }
        w.forks += nc - 1;
        n = c;
        const char *odd = NULL; /* an ending CSA lacks */
        if (kifu_node_kind_of(n) == KIFU_NODE_MOVE) {
            kifu_move mv;
            kifu_node_get_move(n, &mv);
            if (write_move(&w, &mv, kifu_node_ply(n), err))
                return -1;
        } else {
            if (write_special(&w, kifu_node_special(n)))
                odd = kifu_node_special(n);
            ended = 1;
        }
        kifu_move_time tv;
        const kifu_move_time *t = kifu_node_get_time(n, &tv) ? &tv : NULL;
        if (t)
            write_time(&w, t);
        if (odd)
            put_comment(w.out, odd, 1);
        write_comments(&w, n);
    }
    if (w.forks)
        warn(&w,
             "CSA has no forks: %zu alternative line%s left out, only the main line "
             "was written",
             w.forks, w.forks == 1 ? " was" : "s were");
    if (w.cut_ms)
        warn(&w, "CSA V2.2 has no fractions of a second: times were cut to whole seconds "
                 "(write V3.0 to keep them)");
    if (w.odd_endings)
        warn(&w,
             "CSA has no ending %s: %d ending%s written as %%CHUDAN, the word kept as "
             "its comment",
             w.odd_word, w.odd_endings, w.odd_endings == 1 ? "" : "s");
    if (out->failed)
        return kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
    return 0;
}
