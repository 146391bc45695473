/* csa_read.c: the CSA reader: V1 (no version line), V2, V2.1, V2.2 and V3.0, several games
 * in one file separated by `/` lines.
 *
 * The decoded text is parsed in place, line by line (memchr for the line end); a line holds
 * statements joined by ','. A line holding just a move or a time takes a shorter way
 * (simple_line). Only header values, names and comments are copied, into the record's
 * arena. Moves keep what CSA says: from, to, the piece AFTER the move
 * (KIFU_MOVE_PIECE_AFTER) and `T` seconds as `now`; the normalizer finds promotions,
 * captures and totals.
 *
 * What goes where (matching json-kifu-format where it has a rule):
 * - `N+`/`N-` -> header 先手/後手; `$EVENT $SITE $START_TIME $END_TIME $TIME_LIMIT` -> 棋戦
 *   場所 開始日時 終了日時 持ち時間; any other `$KEY:value` -> header KEY (OPENING, as json-kifu-format keeps it; the KIF
 *   writer calls it 戦型).
 * - `'` comments: before the first move they go to the root, afterwards to the last move or
 *   ending. json-kifu-format drops the ones above the side-to-move line; we keep them (on
 *   the root, in file order) because a reader must not lose text. `'encoding=` and
 *   `'CSA encoding=` are decoding directives, used up by the decoder, and not kept.
 * - `%WORD` -> a special node named WORD (the CSA words are the JKF names).
 * - `'&name` (what kifu writes) and `&name` lines -> a bookmark on the last move.
 * - The start position is matched against the presets (PI, full P1..P9 boards, P+/P-
 *   pieces): a preset is stored as such, anything else as explicit data. */
#include <stdio.h>
#include <string.h>

#include "fmt/fmt.h"
#include "kifu_private.h"
#include "record/record.h"
#include "rules/types.h"

typedef struct rd {
    const char *text;
    kifu_error *err;
    kifu__records *out;
    const char *line; /* current line and its end (without CR) */
    const char *eol;
    int lineno;
    char *buf; /* scratch for NUL-terminated copies */
    size_t bufcap;
    /* the game being read */
    kifu_record *rec;
    kifu_node *last; /* the node T and comments attach to */
    int in_moves;    /* a move or ending was read */
    int ended;       /* an ending was read */
    int pos_lines;   /* P lines seen */
    int pos_done;    /* the start position is fixed */
    int have_side;
    int all_to[2]; /* 00AL for this color */
    kifu_board board;
} rd;

/* ---- errors ---- */

/* A syntax error at `at` on the current line. `found` is the text from `at` to `end`
 * (quoted, cut short), or "the end of the statement" when empty. */
static int syntax(rd *r, const char *at, const char *end, const char *expected,
                  const char *what)
{
    char found[48];
    size_t n = (size_t)(end - at);
    if (n == 0) {
        snprintf(found, sizeof found, "the end of the statement");
    } else {
        if (n > 40) {
            n = 40;
            while (n > 0 && ((unsigned char)at[n] & 0xC0) == 0x80)
                n--;
        }
        snprintf(found, sizeof found, "\"%.*s\"", (int)n, at);
    }
    return kifu__error(r->err, KIFU_ERR_SYNTAX, r->lineno,
                       kifu__utf8_column(r->line, (size_t)(at - r->line)),
                       (size_t)(at - r->text), expected, found,
                       "%s: expected %s, found %s", what, expected, found);
}

static int nomem(rd *r)
{
    return kifu__error(r->err, KIFU_ERR_NOMEM, r->lineno, 0, 0, NULL, NULL,
                       "out of memory");
}

/* A NUL-terminated copy of [s, e) in the scratch buffer. */
static const char *cstr(rd *r, const char *s, const char *e)
{
    size_t n = (size_t)(e - s);
    if (n + 1 > r->bufcap) {
        size_t cap = r->bufcap ? r->bufcap : 256;
        while (cap < n + 1)
            cap *= 2;
        char *b = kifu__realloc(r->buf, cap);
        if (!b)
            return NULL;
        r->buf = b;
        r->bufcap = cap;
    }
    memcpy(r->buf, s, n);
    r->buf[n] = 0;
    return r->buf;
}

/* ---- small parsers ---- */

/* The piece named by two capital letters: an index of kifu__csa_names (notation/words.c;
 * test_csa checks that the two agree) by letter pair, because a scan of the names
 * mispredicts its exit on nearly every move. */
#define PN(a, b) [((a) - 'A') * 26 + ((b) - 'A')]
static const unsigned char piece_names[26 * 26] = {
    PN('F', 'U') = 1,  PN('K', 'Y') = 2,  PN('K', 'E') = 3,  PN('G', 'I') = 4,
    PN('K', 'A') = 5,  PN('H', 'I') = 6,  PN('K', 'I') = 7,  PN('O', 'U') = 8,
    PN('T', 'O') = 9,  PN('N', 'Y') = 10, PN('N', 'K') = 11, PN('N', 'G') = 12,
    PN('U', 'M') = 13, PN('R', 'Y') = 14,
};
#undef PN

static int piece_at(const char *s, const char *e)
{
    if (e - s < 2)
        return 0;
    unsigned a = (unsigned)(unsigned char)s[0] - 'A',
             b = (unsigned)(unsigned char)s[1] - 'A';
    return a < 26 && b < 26 ? piece_names[a * 26 + b] : 0;
}

static int digit(const char *s, const char *e)
{
    return s < e && *s >= '0' && *s <= '9' ? *s - '0' : -1;
}

/* ---- games ---- */

static int begin_game(rd *r)
{
    if (r->rec)
        return 0;
    r->rec = kifu_record_new();
    if (!r->rec)
        return nomem(r);
    r->last = kifu_record_root(r->rec);
    r->in_moves = r->ended = r->pos_lines = r->pos_done = r->have_side = 0;
    r->all_to[0] = r->all_to[1] = 0;
    memset(&r->board, 0, sizeof r->board);
    return 0;
}

/* Gives the pieces nobody holds to the hands that said 00AL (kings excluded). */
static void give_rest(kifu_board *b, int color)
{
    static const int total[8] = {0, 18, 4, 4, 4, 2, 2, 4};
    int used[8] = {0};
    for (int i = 0; i < SQ_NB; i++)
        if (b->sq[i]) {
            int k = kind_unpromoted(CPIECE_KIND(b->sq[i]));
            if (k >= PAWN && k <= GOLD)
                used[k]++;
        }
    for (int c = 0; c < 2; c++)
        for (int k = PAWN; k <= GOLD; k++)
            used[k] += b->hands[c][k];
    for (int k = PAWN; k <= GOLD; k++)
        if (used[k] < total[k])
            b->hands[color][k] = (uint8_t)(b->hands[color][k] + total[k] - used[k]);
}

/* Fixes the start position (finish_position: once). */
static void fix_position(rd *r, int side)
{
    r->pos_done = 1;
    if (!r->pos_lines && !r->have_side)
        return; /* no position given: JKF leaves `initial` out */
    if (!r->pos_lines)
        r->board = *kifu__preset_ref(KIFU_PRESET_HIRATE);
    for (int c = 0; c < 2; c++)
        if (r->all_to[c])
            give_rest(&r->board, c);
    if (!r->have_side)
        r->board.color = (uint8_t)side;
    int preset = kifu__preset_match_ref(&r->board);
    if (preset != KIFU_PRESET_OTHER)
        kifu_record_set_preset(r->rec, preset);
    else
        kifu_record_set_initial(r->rec, &r->board);
}

/* Fixes the start position once: at the side-to-move line, the first move, or the end.
 * Inline: every move asks. */
static inline void finish_position(rd *r, int side)
{
    if (!r->pos_done)
        fix_position(r, side);
}

static int end_game(rd *r)
{
    if (!r->rec)
        return 0;
    finish_position(r, BLACK);
    kifu_record *rec = r->rec;
    r->rec = NULL;
    return kifu__records_push_done(r->out, rec) ? nomem(r) : 0;
}

/* ---- statements ---- */

/* A bookmark on the last move (or the start): `'&name`, or `&name` as KIF writes it. */
static int bookmark(rd *r, const char *s, const char *e)
{
    const char *t = cstr(r, s, e);
    if (!t || kifu_node_add_bookmark(r->rec, r->last, t))
        return nomem(r);
    return 0;
}

static int comment(rd *r, const char *s, const char *e)
{
    if (!r->in_moves && ((e - s >= 9 && memcmp(s, "encoding=", 9) == 0) ||
                         (e - s >= 13 && memcmp(s, "CSA encoding=", 13) == 0)))
        return 0; /* a decoding directive, already acted on */
    /* `'&name` is a bookmark (kifu writes them so: CSA has no word for one, and other
     * readers take it for a comment). */
    if (s + 1 < e && *s == '&')
        return bookmark(r, s + 1, e);
    /* A move's comment is `'*text` (what programs that read CSA attach to a move; the
     * star is the marker, not the text); other `'` lines are kept whole. */
    if (s < e && *s == '*' && r->last && kifu_node_kind_of(r->last) != KIFU_NODE_ROOT)
        s++;
    const char *t = cstr(r, s, e);
    if (!t || kifu_node_add_comment(r->rec, r->last, t))
        return nomem(r);
    return 0;
}

static int version(rd *r, const char *s, const char *e)
{
    static const char *const known[] = {"V2", "V2.1", "V2.2", "V3.0"};
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if ((size_t)(e - s) == strlen(known[i]) &&
            memcmp(s, known[i], (size_t)(e - s)) == 0)
            return 0;
    return syntax(r, s, e, "V2, V2.1, V2.2 or V3.0", "unknown CSA version");
}

static int header(rd *r, const char *key, const char *s, const char *e)
{
    const char *v = cstr(r, s, e);
    if (!v || kifu_record_header_add(r->rec, key, v))
        return nomem(r);
    return 0;
}

static int name_line(rd *r, const char *s, const char *e)
{
    if (e - s < 2 || (s[1] != '+' && s[1] != '-'))
        return syntax(r, s, e, "N+ or N- and a player name", "bad name line");
    r->rec->sides_by_sign = 1; /* kept as 先手/後手, as json-kifu-format keeps them */
    return header(r, s[1] == '+' ? "先手" : "後手", s + 2, e);
}

static int info_line(rd *r, const char *s, const char *e)
{
    static const struct {
        const char *csa, *jkf;
    } keys[] = {
        {"EVENT", "棋戦"},        {"SITE", "場所"},           {"START_TIME", "開始日時"},
        {"END_TIME", "終了日時"}, {"TIME_LIMIT", "持ち時間"},
    };
    const char *colon = memchr(s, ':', (size_t)(e - s));
    if (!colon || colon == s + 1)
        return syntax(r, s, e, "$KEY:value", "bad game information line");
    size_t klen = (size_t)(colon - s - 1);
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (strlen(keys[i].csa) == klen && memcmp(keys[i].csa, s + 1, klen) == 0)
            return header(r, keys[i].jkf, colon + 1, e);
    /* An unknown key is kept as it is; copy it out of the scratch buffer first. */
    char key[64];
    if (klen >= sizeof key)
        return syntax(r, s + 1, colon, "a key of at most 63 bytes",
                      "game information key too long");
    memcpy(key, s + 1, klen);
    key[klen] = 0;
    return header(r, key, colon + 1, e);
}

static int bad_piece(rd *r, const char *at, const char *e)
{
    return syntax(r, at, e < at + 2 ? e : at + 2,
                  "a piece name (FU KY KE GI KI KA HI OU TO NY NK NG UM RY)",
                  "unknown piece");
}

/* `PI` and removed pieces: `PI82HI22KA`. */
static int pos_pi(rd *r, const char *s, const char *e)
{
    r->board = *kifu__preset_ref(KIFU_PRESET_HIRATE);
    for (const char *p = s + 2; p < e; p += 4) {
        int x = digit(p, e), y = digit(p + 1, e);
        if (x < 1 || y < 1)
            return syntax(r, p, e, "a square 11..99 and a piece (PI82HI22KA)",
                          "bad PI line");
        int k = piece_at(p + 2, e);
        if (!k)
            return bad_piece(r, p + 2, e);
        uint8_t *sq = &r->board.sq[SQ(x, y)];
        if (CPIECE_KIND(*sq) != k || !*sq)
            return syntax(r, p, p + 4, "a piece of the hirate position on its square",
                          "PI removes a piece that is not there");
        *sq = 0;
    }
    return 0;
}

/* `P1`..`P9`: nine cells from file 9 to 1, each ` * ` or `+FU`/`-KY` (spacing varies). */
static int pos_row(rd *r, const char *s, const char *e)
{
    int y = s[1] - '0';
    const char *p = s + 2;
    for (int x = 9; x >= 1; x--) {
        while (p < e && *p == ' ')
            p++;
        if (p < e && *p == '*') {
            r->board.sq[SQ(x, y)] = 0;
            p++;
            continue;
        }
        if (p >= e || (*p != '+' && *p != '-'))
            return syntax(r, p, e, "9 squares, each \" * \" or a piece like +FU",
                          "bad board row");
        int k = piece_at(p + 1, e);
        if (!k)
            return bad_piece(r, p + 1, e);
        r->board.sq[SQ(x, y)] = CPIECE(k, *p == '-');
        p += 3;
    }
    while (p < e && *p == ' ')
        p++;
    if (p < e)
        return syntax(r, p, e, "the end of the row after 9 squares", "bad board row");
    return 0;
}

/* `P+`/`P-`: pieces by square, `00XX` into the hand, `00AL` for all the rest. */
static int pos_pieces(rd *r, const char *s, const char *e)
{
    int color = s[1] == '-';
    for (const char *p = s + 2; p < e; p += 4) {
        int x = digit(p, e), y = digit(p + 1, e);
        if (x < 0 || y < 0 || (x == 0) != (y == 0))
            return syntax(r, p, e, "a square 11..99 or 00 and a piece (P+00FU, P-11OU)",
                          "bad piece line");
        if (x == 0 && e - p >= 4 && p[2] == 'A' && p[3] == 'L') {
            r->all_to[color] = 1;
            continue;
        }
        int k = piece_at(p + 2, e);
        if (!k)
            return bad_piece(r, p + 2, e);
        if (x) {
            r->board.sq[SQ(x, y)] = CPIECE(k, color);
        } else if (k > GOLD) {
            return syntax(r, p + 2, p + 4,
                          "a piece that can be in hand (FU KY KE GI KI KA HI) or AL",
                          "bad hand piece");
        } else if (r->board.hands[color][k] >= 99) {
            return syntax(r, p, p + 4, "at most 99 pieces of a kind in hand",
                          "too many pieces");
        } else {
            r->board.hands[color][k]++;
        }
    }
    return 0;
}

static int position(rd *r, const char *s, const char *e)
{
    if (r->pos_done)
        return syntax(r, s, e, r->in_moves ? "a move, time, comment or ending" : "a move",
                      "position line after the side to move");
    char c = e - s >= 2 ? s[1] : 0;
    r->pos_lines = 1;
    if (c == 'I')
        return pos_pi(r, s, e);
    if (c >= '1' && c <= '9')
        return pos_row(r, s, e);
    if (c == '+' || c == '-')
        return pos_pieces(r, s, e);
    return syntax(r, s, e, "PI, P1..P9, P+ or P-", "bad position line");
}

static int side(rd *r, const char *s, const char *e)
{
    if (r->pos_done)
        return syntax(r, s, e, "a move like +7776FU", "bad move");
    r->have_side = 1;
    r->board.color = *s == '-';
    finish_position(r, r->board.color);
    return 0;
}

static int after_end(rd *r, const char *s, const char *e)
{
    return syntax(r, s, e, "a comment, time, ending or `/` after the game's ending",
                  "statement after the ending");
}

/* A move whose text (at `at`) is already checked: sign, four digits, two capitals.
 * Inlined into its two callers: a call per move with eight arguments cost a
 * twentieth of reading a move (callgrind, issue 9). */
static inline __attribute__((always_inline)) int
add_move(rd *r, const char *at, int color, int fx, int fy, int tx, int ty, int k)
{
    finish_position(r, color);
    kifu_node *n = kifu__node_add_blank_move(r->rec, r->last);
    if (!n)
        return nomem(r);
    kifu__node_src(n, (size_t)(at - r->text));
    /* Packed straight from the digits (always in range): no kifu_move between. */
    n->mv = kifu__mv_bits(
        (unsigned)color, (unsigned)(fx * 10 + fy), (unsigned)(tx * 10 + ty), (unsigned)k,
        0, -1, -1, 0, KIFU_MOVE_PIECE_AFTER | KIFU_MOVE_RAW | (fx ? 0 : KIFU_MOVE_DROP));
    r->last = n;
    r->in_moves = 1;
    return 0;
}

static int move(rd *r, const char *s, const char *e)
{
    if (r->ended)
        return after_end(r, s, e);
    int d[4];
    for (int i = 0; i < 4; i++) {
        d[i] = digit(s + 1 + i, e);
        if (d[i] < 0)
            return syntax(r, s + 1 + i, e,
                          "a move like +7776FU (four digits and a piece)", "bad move");
    }
    if ((d[0] == 0) != (d[1] == 0))
        return syntax(r, s + 1, s + 3, "a square 11..99, or 00 for a drop", "bad square");
    if (d[2] == 0 || d[3] == 0)
        return syntax(r, s + 3, s + 5, "a square 11..99", "bad square");
    int k = piece_at(s + 5, e);
    if (!k)
        return bad_piece(r, s + 5, e);
    if (e - s > 7)
        return syntax(r, s + 7, e, "the end of the move", "bad move");
    return add_move(r, s, *s == '-', d[0], d[1], d[2], d[3], k);
}

/* Sets the time of the last move: sec seconds and ms milliseconds (as parsed: sec >= 0,
 * ms 0..999), no hour field and no total, packed in place (kifu__ptime). */
static inline void set_time(rd *r, long sec, int ms)
{
    kifu_node *n = r->last;
    /* What kifu_time_from_seconds(sec, 0) gives, divided by a constant (no branch on
     * the value, which is as good as random). */
    long m = sec / 60;
    if (__builtin_expect(m <= 255, 1)) {
        kifu__ptime *p = kifu__ptime_make(n);
        if (!p)
            return;
        /* has_total stays 0: the node had no time (callers check), so none was set. */
        p->now = (kifu__t6){-1, (uint8_t)m, (uint8_t)(sec - 60 * m), (uint16_t)ms};
        return;
    }
    kifu_move_time t = {kifu_time_from_seconds(sec, 0), {-1, 0, 0, 0}, 0};
    t.now.ms = ms;
    kifu__time_set(n, &t);
}

/* `T12` seconds, V3.0 `T12.345` (more decimals are cut to milliseconds). */
static int time_stmt(rd *r, const char *s, const char *e)
{
    const char *p = s + 1;
    long sec = 0;
    int ms = 0, nd = 0;
    for (; p < e && *p >= '0' && *p <= '9'; p++, nd++) {
        if (sec >= 100000000L)
            return syntax(r, s + 1, e, "at most 9 digits of seconds", "time too long");
        sec = sec * 10 + (*p - '0');
    }
    if (nd == 0)
        return syntax(r, p, e, "seconds after T (T12 or T12.345)", "bad time");
    if (p < e && *p == '.') {
        const char *f = ++p;
        for (int scale = 100; p < e && *p >= '0' && *p <= '9'; p++, scale /= 10)
            ms += (*p - '0') * scale;
        if (p == f)
            return syntax(r, p, e, "digits after the decimal point", "bad time");
    }
    if (p < e)
        return syntax(r, p, e, "seconds after T (T12 or T12.345)", "bad time");
    if (!r->in_moves)
        return syntax(r, s, e, "a move before its time", "time without a move");
    if (r->last->has_time)
        return syntax(r, s, e, "one time per move", "second time for a move");
    set_time(r, sec, ms);
    return 0;
}

/* Floodgate ends a declaration with two lines, `%KACHI` and the result `%KACHI`: an
 * ending may follow an ending (json-kifu-format chains them the same way). */
static int special(rd *r, const char *s, const char *e)
{
    if (e - s < 2)
        return syntax(r, s + 1, e, "an ending word like %TORYO", "bad ending");
    finish_position(r, BLACK);
    const char *w = cstr(r, s + 1, e);
    kifu_node *n = w ? kifu_node_add_special(r->rec, r->last, w) : NULL;
    if (!n)
        return nomem(r);
    r->last = n;
    r->in_moves = r->ended = 1;
    return 0;
}

static int statement(rd *r, const char *s, const char *e)
{
    if (*s == '/') {
        if (e - s != 1)
            return syntax(r, s, e, "a line holding only /", "bad game separator");
        return end_game(r);
    }
    if (begin_game(r))
        return -1;
    switch (*s) {
    case '\'':
        return comment(r, s + 1, e);
    case 'V':
        return version(r, s, e);
    case 'N':
        return name_line(r, s, e);
    case '$':
        return info_line(r, s, e);
    case 'P':
        return position(r, s, e);
    case '+':
    case '-':
        return e - s == 1 ? side(r, s, e) : move(r, s, e);
    case 'T':
        return time_stmt(r, s, e);
    case '%':
        return special(r, s, e);
    case '&':
        if (e - s > 1 && r->rec)
            return bookmark(r, s + 1, e);
        break;
    }
    return syntax(r, s, e, "a CSA statement (V N $ P + - T % ' /)", "unknown statement");
}

/* Statements that run to the end of the line: comments, names, game information. */
static int whole_line(char c)
{
    return c == '\'' || c == 'N' || c == '$';
}

static int do_line(rd *r)
{
    const char *p = r->line, *e = r->eol;
    for (;;) {
        while (p < e && (*p == ' ' || *p == '\t'))
            p++;
        if (p == e)
            return 0;
        const char *end = e;
        if (!whole_line(*p)) {
            const char *comma = memchr(p, ',', (size_t)(e - p));
            if (comma)
                end = comma;
        }
        const char *t = end;
        if (*p != '\'')
            while (t > p && (t[-1] == ' ' || t[-1] == '\t'))
                t--;
        if (t > p && statement(r, p, t))
            return -1;
        if (end == e)
            return 0;
        p = end + 1;
    }
}

static unsigned dval(char c)
{
    return (unsigned)(unsigned char)c - '0';
}

/* The line at p when it is one move like `+1234FU` with sensible squares or one time like
 * `T12` and nothing else, which is most lines of a record: the statement is added straight
 * away and the start of the next line returned. NULL when the line takes the general way
 * (anything else, and any error: the general reader reports it). *rc gets the result. */
static const char *simple_line(rd *r, const char *p, const char *end, int *rc)
{
    const char *e;
    unsigned d1 = 0, d2 = 0, d3 = 0, d4 = 0;
    long sec = 0;
    int k = 0;
    if ((*p == '+' || *p == '-') && end - p >= 8) {
        d1 = dval(p[1]), d2 = dval(p[2]), d3 = dval(p[3]), d4 = dval(p[4]);
        if ((d1 | d2 | d3 | d4) > 9 || (d1 == 0) != (d2 == 0) || !d3 || !d4 ||
            !(k = piece_at(p + 5, end)))
            return NULL;
        e = p + 7;
    } else if (*p == 'T' && end - p >= 5) {
        /* One to three digits without a branch on how many (times are as good as random);
         * more take the general way. */
        unsigned a = dval(p[1]), b = dval(p[2]), c = dval(p[3]);
        unsigned k1 = a <= 9, k2 = k1 & (b <= 9), k3 = k2 & (c <= 9);
        if (!k1 || (k3 && dval(p[4]) <= 9))
            return NULL;
        sec = k3 ? a * 100 + b * 10 + c : k2 ? a * 10 + b : a;
        e = p + 1 + k1 + k2 + k3;
    } else {
        return NULL;
    }
    const char *next;
    if (e < end && *e == '\n')
        next = e + 1;
    else if (e + 1 < end && e[0] == '\r' && e[1] == '\n')
        next = e + 2;
    else
        return NULL;
    if (!r->rec || (*p == 'T' ? !r->in_moves || r->last->has_time : r->ended))
        return NULL;
    r->lineno++;
    if (*p == 'T') {
        set_time(r, sec, 0);
        *rc = 0;
    } else {
        *rc = add_move(r, p, *p == '-', (int)d1, (int)d2, (int)d3, (int)d4, k);
    }
    return next;
}

int kifu__read_csa(KIFU__READER_PARAMS)
{
    (void)opt;
    rd r;
    memset(&r, 0, sizeof r);
    r.text = text;
    r.err = err;
    r.out = out;
    const char *p = text, *end = text + len;
    int rc = 0;
    while (p < end && rc == 0) {
        const char *next = simple_line(&r, p, end, &rc);
        if (next) {
            p = next;
            continue;
        }
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *eol = nl ? nl : end;
        r.line = p;
        r.lineno++;
        while (eol > p && eol[-1] == '\r')
            eol--;
        r.eol = eol;
        rc = do_line(&r);
        p = nl ? nl + 1 : end;
    }
    if (rc == 0)
        rc = end_game(&r);
    kifu_record_free(r.rec);
    kifu__free(r.buf);
    return rc;
}

/* CSA: a version, name, information, position or move line; or a `'` comment, unless a
 * line CSA never starts with (#, *, &, a non-ASCII character) came before it. */
int kifu__sniff_csa(const char *text, size_t len, size_t *at)
{
    const char *s = text, *end = text + len, *p, *eol;
    int foreign = 0;
    while ((p = kifu__next_line(&s, end, &eol)) != NULL) {
        if (*p == 'V' || *p == 'N' || *p == '$' ||
            (*p == 'P' && p + 1 < eol &&
             (p[1] == 'I' || p[1] == '+' || p[1] == '-' ||
              (p[1] >= '1' && p[1] <= '9'))) ||
            ((*p == '+' || *p == '-') && eol - p >= 7 && p[1] >= '0' && p[1] <= '9') ||
            (*p == '\'' && !foreign)) {
            *at = (size_t)(p - text);
            return 10;
        }
        foreign |= *p == '#' || *p == '*' || *p == '&' || (unsigned char)*p >= 0x80;
    }
    return 0;
}
