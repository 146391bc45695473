/* sfen.c: SFEN positions and USI moves, read strictly and written canonically. */
#include <stdio.h>
#include <string.h>

#include "kifu_private.h"
#include "rules/sfen.h"

const char kifu__sfen_startpos[] =
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

static const char letters[] = " PLNSBRGK"; /* index = kind */
static const int max_count[9] = {0, 18, 4, 4, 4, 2, 2, 4, 2};

static int kind_of_letter(int ch)
{
    if (ch >= 'a' && ch <= 'z')
        ch -= 'a' - 'A';
    const char *q = ch ? strchr(letters + 1, ch) : NULL;
    return q ? (int)(q - letters) : 0;
}

/* An SFEN error at a byte offset of text: "SFEN <field>, offset N: <what>". */
static int sfen_error(kifu_error *err, const char *text, size_t off, const char *field,
                      const char *expected, const char *found, const char *what)
{
    int col = text ? kifu__utf8_column(text, off) : 0;
    return kifu__error(err, KIFU_ERR_SFEN, text ? 1 : 0, col, off, expected, found,
                       "SFEN %s, offset %zu: %s", field, off, what);
}

static const char *side_name(int c)
{
    return c ? "white" : "black";
}

int kifu__board_check(const kifu_board *b, const char *text, const size_t *sq_off,
                      size_t hands_off, kifu_error *err)
{
    return kifu__board_check_mode(b, text, sq_off, hands_off, 0, err);
}

int kifu__board_check_mode(const kifu_board *b, const char *text, const size_t *sq_off,
                           size_t hands_off, int loose, kifu_error *err)
{
    char msg[160];
    int kings[2] = {0, 0}, total[9] = {0};
#define BAD(sq, ...)                                                                     \
    do {                                                                                 \
        snprintf(msg, sizeof msg, __VA_ARGS__);                                          \
        if (sq_off)                                                                      \
            return sfen_error(err, text, (sq) < 0 ? hands_off : sq_off[sq], "board",     \
                              NULL, NULL, msg);                                          \
        return kifu__error(err, KIFU_ERR_ARG, 0, 0, 0, NULL, NULL, "board: %s", msg);    \
    } while (0)
    if (b->color > 1)
        BAD(-1, "side to move is %d, not 0 (black) or 1 (white)", b->color);
    for (int sq = 0; sq < SQ_NB; sq++) {
        int cp = b->sq[sq];
        if (!cp)
            continue;
        int k = CPIECE_KIND(cp), c = CPIECE_COLOR(cp);
        if (k == 0 || k >= PIECE_KIND_NB || c > 1)
            BAD(sq, "square %d%d holds the invalid code %d", SQ_X(sq), SQ_Y(sq), cp);
        if (k == KING && ++kings[c] > 1)
            BAD(sq, "%s has two kings", side_name(c));
        total[kind_unpromoted(k)]++;
        if (loose)
            continue;
        int y = SQ_Y(sq),
            last = c ? 10 - y : y; /* rank counted from the color's far side */
        if ((k == PAWN || k == LANCE) && last == 1)
            BAD(sq, "%s %s on square %d%d can never move", side_name(c),
                k == PAWN ? "pawn" : "lance", SQ_X(sq), y);
        if (k == KNIGHT && last <= 2)
            BAD(sq, "%s knight on square %d%d can never move", side_name(c), SQ_X(sq), y);
        if (k == PAWN)
            for (int y2 = 1; y2 < y; y2++)
                if (b->sq[SQ(SQ_X(sq), y2)] == cp)
                    BAD(sq, "二歩: two %s pawns on file %d", side_name(c), SQ_X(sq));
    }
    for (int c = 0; c < 2; c++) {
        if (b->hands[c][0])
            BAD(-1, "%s's hand holds an invalid kind", side_name(c));
        for (int k = PAWN; k <= GOLD; k++)
            total[k] += b->hands[c][k];
    }
    for (int k = PAWN; k <= GOLD; k++)
        if (total[k] > max_count[k])
            BAD(-1, "%d pieces of kind %c on board and in hands, at most %d exist",
                total[k], letters[k], max_count[k]);
    if (loose)
        return 0;
    /* The side that just moved cannot have left its king in check. */
    int o = b->color ^ 1;
    kpos p;
    kifu__pos_from_board(&p, b);
    if (p.ksq[o] != NO_SQ && pos_attackers(&p, p.ksq[o], o ^ 1, pos_occ(&p)))
        BAD(p.ksq[o], "the %s king is in check but %s is to move", side_name(o),
            side_name(o ^ 1));
#undef BAD
    return 0;
}

static size_t skip_spaces(const char *t, size_t i)
{
    while (t[i] == ' ' || t[i] == '\t')
        i++;
    return i;
}

static int is_end(int ch)
{
    return ch == 0 || ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n';
}

static void found_char(char *buf, const char *t, size_t i)
{
    if (!t[i]) {
        strcpy(buf, "end of text");
        return;
    }
    size_t n = 1;
    while (n < 4 && ((unsigned char)t[i + n] & 0xC0) == 0x80)
        n++;
    buf[0] = '\'';
    memcpy(buf + 1, t + i, n);
    buf[n + 1] = '\'';
    buf[n + 2] = 0;
}

int kifu__sfen_parse(const char *t, size_t *at, kifu_board *b, int *move_number,
                     kifu_error *err)
{
    return kifu__sfen_parse_mode(t, at, b, move_number, 0, err);
}

/* The board field from t[*i]: ranks 1..9 separated by '/', each from file 9 to file 1,
 * into b, with each piece's offset in sq_off (for the errors of the checks after). *i
 * ends at the first byte after it. 0, or -1 with err. */
static int parse_board(const char *t, size_t *i, kifu_board *b, size_t *sq_off,
                       kifu_error *err)
{
    char what[160], fc[16];
    int y = 1, x = 9; /* x: the next file to fill */
    size_t rank_start = *i;
    if (is_end(t[*i]))
        return sfen_error(err, t, *i, "board", "a board", "end of text",
                          "the board is missing");
    for (;; ++*i) {
        int ch = (unsigned char)t[*i];
        if (ch == '/' || is_end(ch)) {
            if (x != 0) {
                snprintf(what, sizeof what, "rank %d has %d squares", y, 9 - x);
                return sfen_error(err, t, *i, "board", "9 squares", NULL, what);
            }
            if (is_end(ch))
                break;
            if (++y > 9)
                return sfen_error(err, t, *i, "board", "9 ranks", "a 10th rank",
                                  "more than 9 ranks");
            x = 9;
            rank_start = *i + 1;
            continue;
        }
        if (ch >= '1' && ch <= '9') {
            if (*i > rank_start && t[*i - 1] >= '0' && t[*i - 1] <= '9') {
                found_char(fc, t, *i);
                return sfen_error(err, t, *i, "board", "a piece letter", fc,
                                  "two digits in a row");
            }
            x -= ch - '0';
            if (x < 0) {
                snprintf(what, sizeof what, "rank %d has %d squares", y, 9 - x);
                return sfen_error(err, t, *i, "board", "9 squares", NULL, what);
            }
            continue;
        }
        size_t start = *i;
        int promoted = 0;
        if (ch == '+') {
            promoted = 1;
            ch = (unsigned char)t[++*i];
        }
        int k = kind_of_letter(ch);
        if (!k || ch > 'z') {
            found_char(fc, t, *i);
            snprintf(what, sizeof what, "unknown piece letter %s", fc);
            return sfen_error(err, t, *i, "board",
                              "one of PLNSGBRK plnsgbrk, a digit or '/'", fc, what);
        }
        if (promoted && !kind_can_promote(k)) {
            found_char(fc, t, *i);
            snprintf(what, sizeof what, "'+' before %s, which cannot promote", fc);
            return sfen_error(err, t, start, "board", "one of PLNSBR plnsbr after '+'",
                              fc, what);
        }
        if (x == 0) {
            snprintf(what, sizeof what, "rank %d has 10 squares", y);
            return sfen_error(err, t, start, "board", "9 squares", NULL, what);
        }
        int sq = SQ(x, y);
        b->sq[sq] = CPIECE(promoted ? kind_promoted(k) : k, ch >= 'a' ? WHITE : BLACK);
        sq_off[sq] = start;
        x--;
    }
    if (y != 9) {
        snprintf(what, sizeof what, "only %d ranks", y);
        return sfen_error(err, t, *i, "board", "9 ranks", NULL, what);
    }
    return 0;
}

/* The side to move from t[*i] (after spaces): one letter, b or w. 0, or -1 with err. */
static int parse_side(const char *t, size_t *i, kifu_board *b, kifu_error *err)
{
    char fc[16];
    *i = skip_spaces(t, *i);
    if (t[*i] != 'b' && t[*i] != 'w') {
        found_char(fc, t, *i);
        return sfen_error(err, t, *i, "side", "'b' or 'w'", fc,
                          t[*i] ? "the side to move is not 'b' or 'w'"
                                : "the side to move is missing");
    }
    b->color = t[*i] == 'w';
    if (!is_end(t[++*i])) {
        found_char(fc, t, *i);
        return sfen_error(err, t, *i, "side", "a space", fc,
                          "the side to move is one letter");
    }
    return 0;
}

/* The count before a piece in hand at t[*i], if any (else 1), *i moved past it. The
 * count, or -1 with err. */
static int hand_count(const char *t, size_t *i, kifu_error *err)
{
    char what[160], fc[16];
    size_t start = *i;
    if (t[*i] < '0' || t[*i] > '9')
        return 1;
    if (t[*i] == '0') {
        found_char(fc, t, *i);
        return sfen_error(err, t, *i, "hands", "a count from 1 to 18", fc,
                          "a count starts with 0");
    }
    int n = 0;
    while (t[*i] >= '0' && t[*i] <= '9' && n < 100)
        n = n * 10 + (t[(*i)++] - '0');
    if (t[*i] >= '0' && t[*i] <= '9') {
        /* Too many digits to be a count: say so, not "unknown piece". */
        size_t e = *i;
        while (t[e] >= '0' && t[e] <= '9')
            e++;
        snprintf(what, sizeof what, "a count of %d digits, at most 18 exist",
                 (int)(e - start));
        return sfen_error(err, t, start, "hands", "a count from 1 to 18", NULL, what);
    }
    return n;
}

/* The hands from t[*i] (after spaces): '-', or counts and letters (2P, b ...), each kind
 * of each side once. *hands_off: where they start, for the checks after. 0, or -1 with
 * err. */
static int parse_hands(const char *t, size_t *i, kifu_board *b, size_t *hands_off,
                       kifu_error *err)
{
    char what[160], fc[16];
    *i = skip_spaces(t, *i);
    *hands_off = *i;
    if (is_end(t[*i]))
        return sfen_error(err, t, *i, "hands", "'-' or pieces in hand", "end of text",
                          "the hands are missing");
    if (t[*i] == '-') {
        ++*i;
    } else {
        int seen[2][8] = {{0}};
        while (!is_end(t[*i])) {
            size_t start = *i;
            int n = hand_count(t, i, err);
            if (n < 0)
                return -1;
            int ch = (unsigned char)t[*i], k = kind_of_letter(ch);
            if (!k || k == KING || ch > 'z') {
                found_char(fc, t, *i);
                snprintf(what, sizeof what, "unknown piece in hand %s", fc);
                return sfen_error(err, t, *i, "hands", "one of RBGSNLP rbgsnlp", fc,
                                  what);
            }
            int c = ch >= 'a';
            if (seen[c][k]++) {
                snprintf(what, sizeof what, "%c appears twice", ch);
                return sfen_error(err, t, start, "hands", NULL, NULL, what);
            }
            if (n > max_count[k]) {
                snprintf(what, sizeof what, "%d of %c in hand, at most %d exist", n, ch,
                         max_count[k]);
                return sfen_error(err, t, start, "hands", NULL, NULL, what);
            }
            b->hands[c][k] = (uint8_t)n;
            ++*i;
        }
    }
    if (!is_end(t[*i])) {
        found_char(fc, t, *i);
        return sfen_error(err, t, *i, "hands", "a space", fc,
                          "unexpected text after the hands");
    }
    return 0;
}

/* The optional move number from t[*i] (after spaces): *i moves past it only when there
 * is one. 0, or -1 with err. */
static int parse_move_number(const char *t, size_t *i, int *move_number, kifu_error *err)
{
    char fc[16];
    size_t j = skip_spaces(t, *i);
    if (t[j] < '0' || t[j] > '9')
        return 0;
    long n = 0;
    size_t s = j;
    while (t[j] >= '0' && t[j] <= '9') {
        if (n < 100000000)
            n = n * 10 + (t[j] - '0');
        j++;
    }
    if (!is_end(t[j]) || n < 1 || n >= 100000000) {
        found_char(fc, t, is_end(t[j]) ? s : j);
        return sfen_error(err, t, s, "move number", "a positive number", fc,
                          "the move number is not a positive number");
    }
    *move_number = (int)n;
    *i = j;
    return 0;
}

/* The fields in their order, then the position checked (kifu__board_check_mode). */
int kifu__sfen_parse_mode(const char *t, size_t *at, kifu_board *b, int *move_number,
                          int loose, kifu_error *err)
{
    size_t sq_off[SQ_NB], hands_off, i = skip_spaces(t, *at);
    memset(b, 0, sizeof *b);
    *move_number = 0;
    if (parse_board(t, &i, b, sq_off, err) || parse_side(t, &i, b, err) ||
        parse_hands(t, &i, b, &hands_off, err) ||
        parse_move_number(t, &i, move_number, err))
        return -1;
    *at = i;
    return kifu__board_check_mode(b, t, sq_off, hands_off, loose, err);
}

void kifu__sfen_write(const kpos *p, int move_number, char *buf, size_t cap)
{
    char s[300];
    size_t n = 0;
    for (int y = 1; y <= 9; y++) {
        int empty = 0;
        for (int x = 9; x >= 1; x--) {
            int cp = p->board[SQ(x, y)];
            if (!cp) {
                empty++;
                continue;
            }
            if (empty)
                s[n++] = (char)('0' + empty);
            empty = 0;
            int k = CPIECE_KIND(cp);
            if (k > KING)
                s[n++] = '+';
            char ch = letters[k > KING ? k & 7 : k];
            s[n++] = CPIECE_COLOR(cp) ? (char)(ch + ('a' - 'A')) : ch;
        }
        if (empty)
            s[n++] = (char)('0' + empty);
        if (y < 9)
            s[n++] = '/';
    }
    s[n++] = ' ';
    s[n++] = p->side ? 'w' : 'b';
    s[n++] = ' ';
    static const int order[] = {ROOK, BISHOP, GOLD, SILVER, KNIGHT, LANCE, PAWN};
    size_t h = n;
    for (int c = 0; c < 2; c++)
        for (int i = 0; i < 7; i++) {
            int k = order[i], cnt = p->hand[c][k];
            if (!cnt)
                continue;
            if (cnt > 1)
                n += (size_t)snprintf(s + n, sizeof s - n, "%d", cnt);
            s[n++] = c ? (char)(letters[k] + ('a' - 'A')) : letters[k];
        }
    if (n == h)
        s[n++] = '-';
    s[n] = 0;
    if (move_number > 0)
        snprintf(buf, cap, "%s %d", s, move_number);
    else
        snprintf(buf, cap, "%s", s);
}

int kifu__usi_syntax(const char *s, size_t len, kifu__usi_move *m, const char **why)
{
    if (len == 4 && s[1] == '*') {
        int k = kind_of_letter((unsigned char)s[0]);
        if (!k || k == KING || s[0] > 'Z') {
            *why = "unknown piece letter in a drop (expected one of PLNSGBR)";
            return -1;
        }
        if (s[2] < '1' || s[2] > '9' || s[3] < 'a' || s[3] > 'i') {
            *why = "bad square (expected a file 1-9 and a rank a-i)";
            return -1;
        }
        *m = (kifu__usi_move){NO_SQ, SQ(s[2] - '0', s[3] - 'a' + 1), k, 0};
        return 0;
    }
    if (len != 4 && !(len == 5 && s[4] == '+')) {
        *why = "not a USI move (expected like 7g7f, 8h2b+ or P*5e)";
        return -1;
    }
    if (s[0] < '1' || s[0] > '9' || s[1] < 'a' || s[1] > 'i' || s[2] < '1' ||
        s[2] > '9' || s[3] < 'a' || s[3] > 'i') {
        *why = "bad square (expected a file 1-9 and a rank a-i)";
        return -1;
    }
    *m = (kifu__usi_move){SQ(s[0] - '0', s[1] - 'a' + 1), SQ(s[2] - '0', s[3] - 'a' + 1),
                          0, len == 5};
    return 0;
}

kmove kifu__usi_parse(const kpos *p, const char *s, size_t len, const char **why)
{
    kifu__usi_move u;
    if (kifu__usi_syntax(s, len, &u, why))
        return MOVE_NONE;
    if (u.drop)
        return move_make_drop(u.drop, u.to);
    int cp = p->board[u.from];
    if (!cp || CPIECE_COLOR(cp) != p->side) {
        *why = cp ? "not your piece" : "no piece there";
        return MOVE_NONE;
    }
    return move_make(u.from, u.to, CPIECE_KIND(cp), CPIECE_KIND(p->board[u.to]),
                     u.promote);
}

char *kifu__usi_write(kmove m, char *buf)
{
    int to = MOVE_TO(m);
    if (MOVE_IS_DROP(m)) {
        buf[0] = letters[MOVE_DROP_KIND(m) & 7];
        buf[1] = '*';
    } else {
        buf[0] = (char)('0' + SQ_X(MOVE_FROM(m)));
        buf[1] = (char)('a' + SQ_Y(MOVE_FROM(m)) - 1);
    }
    buf[2] = (char)('0' + SQ_X(to));
    buf[3] = (char)('a' + SQ_Y(to) - 1);
    buf[4] = MOVE_IS_PROMOTE(m) ? '+' : 0;
    buf[5] = 0;
    return buf;
}
