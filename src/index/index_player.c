/* index_player.c: a player's name as records write it, turned into the key the index
 * groups and finds players by. Online exports put the rank or rating inside the name
 * (将棋ウォーズ `hashiryoma 二段`, Shogi Quest CSA `N+hashiryo(1788)`, `N+:NiisanBot(1662)`),
 * and club archives vary the spacing (`鎌田　睦生`, `五段　及川　直孝(北上)`): the same person
 * under many strings. The key keeps only the name:
 *
 * - NFKC as names written in Japanese need it (index_nfkc.c): full-width ASCII, spaces,
 *   half-width katakana with their voiced marks joined (ｶﾞ to ガ), circled numbers and
 *   letters, Roman numerals, era squares;
 * - Latin letters folded to lower case;
 * - a group in parentheses taken out: digits in it are a rating, anything else an
 *   affiliation (北上);
 * - a leading ':' taken out (Shogi Quest's CSA names; the CSA reader keeps it as written);
 * - ranks and titles before or after the name taken out, whether spaced or not: 初段,
 *   二段, 三級, 女流二段, アマ四段, 名人, 竜王 …, and 3dan, 5kyu, 2d, 1k;
 * - the spaces left removed.
 *
 * The name as written is kept beside the key everywhere; the key is only for finding. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "index/index_private.h"

#define MAXCP 160

static int utf8_get(const unsigned char **s)
{
    const unsigned char *p = *s;
    int c = *p++, n = 0;
    if (c >= 0xf0 && c < 0xf8)
        c &= 7, n = 3;
    else if (c >= 0xe0)
        c &= 15, n = 2;
    else if (c >= 0xc0)
        c &= 31, n = 1;
    for (; n && (*p & 0xc0) == 0x80; n--)
        c = c << 6 | (*p++ & 0x3f);
    *s = p;
    return n ? 0xfffd : c;
}

static size_t utf8_put(char *o, int c)
{
    if (c < 0x80)
        return o[0] = (char)c, 1;
    if (c < 0x800)
        return o[0] = (char)(0xc0 | c >> 6), o[1] = (char)(0x80 | (c & 63)), 2;
    if (c < 0x10000)
        return o[0] = (char)(0xe0 | c >> 12), o[1] = (char)(0x80 | (c >> 6 & 63)),
               o[2] = (char)(0x80 | (c & 63)), 3;
    return o[0] = (char)(0xf0 | c >> 18), o[1] = (char)(0x80 | (c >> 12 & 63)),
           o[2] = (char)(0x80 | (c >> 6 & 63)), o[3] = (char)(0x80 | (c & 63)), 4;
}

static int is_num(int c)
{
    return (c >= '0' && c <= '9') || c == 0x4e00 /*一*/ || c == 0x4e8c /*二*/ ||
           c == 0x4e09 /*三*/ || c == 0x56db /*四*/ || c == 0x4e94 /*五*/ ||
           c == 0x516d /*六*/ || c == 0x4e03 /*七*/ || c == 0x516b /*八*/ ||
           c == 0x4e5d /*九*/ || c == 0x5341 /*十*/ || c == 0x521d /*初*/;
}

/* Titles that stand for a rank in a name. */
static const char *const titles[] = {
    "名人",     "竜王", "龍王", "王位",     "王座",     "棋王",     "王将",
    "棋聖",     "叡王", "王位", "女王",     "女流名人", "女流王位", "女流王将",
    "女流王座", "清麗", "白玲", "倉敷藤花", NULL};

/* Can a rank end (start) with c? Most names are no rank at either end, and this says so
 * before whole_rank's tries: they were a sixth of a build's instructions. */
static int rank_end(int c)
{
    static const int last[] = {
        0x6bb5 /*段*/, 0x7d1a /*級*/, 0x4eba /*人*/, 0x738b /*王*/, 0x4f4d /*位*/,
        0x5ea7 /*座*/, 0x5c06 /*将*/, 0x8056 /*聖*/, 0x9e97 /*麗*/, 0x73b2 /*玲*/,
        0x82b1 /*花*/, 'n',           'u',           'd',           'k'};
    for (size_t i = 0; i < sizeof last / sizeof last[0]; i++)
        if (c == last[i])
            return 1;
    return 0;
}

static int rank_start(int c)
{
    static const int first[] = {0x5973 /*女*/, 0x30a2 /*ア*/, 0x6c38 /*永*/,
                                0x540d /*名*/, 0x7adc /*竜*/, 0x9f8d /*龍*/,
                                0x738b /*王*/, 0x68cb /*棋*/, 0x53e1 /*叡*/,
                                0x6e05 /*清*/, 0x767d /*白*/, 0x5009 /*倉*/};
    if (is_num(c))
        return 1;
    for (size_t i = 0; i < sizeof first / sizeof first[0]; i++)
        if (c == first[i])
            return 1;
    return 0;
}

/* Codepoints of s into v; the count. */
static int cps(const char *s, int *v)
{
    int n = 0;
    const unsigned char *p = (const unsigned char *)s;
    while (*p)
        v[n++] = utf8_get(&p);
    return n;
}

/* The length of a rank that starts at v[0] and ends exactly at v[n] (the whole run of n
 * characters is a rank), 1 or 0. */
static int whole_rank(const int *v, int n)
{
    if (n <= 0)
        return 0;
    int t[16];
    for (const char *const *w = titles; *w; w++) {
        int m = cps(*w, t);
        if (m == n && !memcmp(t, v, (size_t)n * sizeof *v))
            return 1;
    }
    int i = 0;
    static const int pre[3][4] = {{0x5973, 0x6d41, 0},  /* 女流 */
                                  {0x30a2, 0x30de, 0},  /* アマ */
                                  {0x6c38, 0x4e16, 0}}; /* 永世 */
    for (int k = 0; k < 3; k++)
        if (n > 2 && v[0] == pre[k][0] && v[1] == pre[k][1])
            i = 2;
    int d = i;
    while (i < n && is_num(v[i]))
        i++;
    if (i == d)
        return 0;
    if (i == n - 1 && (v[i] == 0x6bb5 /*段*/ || v[i] == 0x7d1a /*級*/))
        return 1;
    /* English forms: 3dan 5kyu 2d 1k (digits only) */
    int ascii = 1;
    for (int k = d; k < i; k++)
        ascii &= v[k] < 0x80;
    if (!ascii)
        return 0;
    static const char *const en[] = {"dan", "kyu", "d", "k", "-dan", "-kyu", NULL};
    for (const char *const *w = en; *w; w++) {
        size_t m = strlen(*w);
        if ((size_t)(n - i) != m)
            continue;
        size_t k = 0;
        while (k < m && v[i + (int)k] == (*w)[k])
            k++;
        if (k == m)
            return 1;
    }
    return 0;
}

void kifu__player_parse(const char *name, kifu__player *p)
{
    memset(p, 0, sizeof *p);
    if (!name)
        return;
    int v[MAXCP + 4], n = 0;
    const unsigned char *s = (const unsigned char *)name;
    while (*s && n < MAXCP) {
        n += kifu__nfkc_fold(utf8_get(&s), v + n);
        /* A voiced mark joins the kana before it, as NFKC's composition does. */
        int joined = n > 1 && (v[n - 1] == 0x3099 || v[n - 1] == 0x309a)
                         ? kifu__nfkc_compose(v[n - 2], v[n - 1])
                         : 0;
        if (joined)
            v[n - 2] = joined, n--;
    }
    /* Groups in parentheses: a rating, or an affiliation; both out of the name. */
    int w[MAXCP + 4], m = 0;
    for (int i = 0; i < n; i++) {
        if (v[i] != '(') {
            w[m++] = v[i];
            continue;
        }
        int j = i + 1, digits = 0, other = 0;
        while (j < n && v[j] != ')')
            digits += v[j] >= '0' && v[j] <= '9', other += !(v[j] >= '0' && v[j] <= '9'),
                j++;
        if (digits && !other && digits <= 5 && !p->rating) {
            int r = 0;
            for (int k = i + 1; k < j; k++)
                r = r * 10 + v[k] - '0';
            p->rating = r;
        }
        i = j; /* an unclosed group runs to the end */
        w[m++] = ' ';
    }
    /* Words: runs between spaces. Ranks are taken off the front and the back, each a
     * whole word or the end (or start) of one. */
    int start = 0, end = m;
    for (int again = 1; again;) {
        again = 0;
        while (start < end && w[start] == ' ')
            start++;
        while (end > start && w[end - 1] == ' ')
            end--;
        if (start < end && w[start] == ':')
            start++, again = 1;
        /* A rank at the back: the longest one that ends at end. */
        for (int k = start; end > start && rank_end(w[end - 1]) && k < end; k++)
            if (rank_start(w[k]) && whole_rank(w + k, end - k)) {
                if (k == start) /* the whole name is a rank: keep it as the name */
                    break;
                if (w[k] < 0x80 && w[k - 1] != ' ')
                    continue; /* English forms only as words of their own: taro3d */
                if (!p->rank[0]) {
                    size_t o = 0;
                    for (int q = k; q < end && o + 4 < sizeof p->rank; q++)
                        o += utf8_put(p->rank + o, w[q]);
                    p->rank[o] = 0;
                }
                end = k, again = 1;
                break;
            }
        /* A rank at the front: the shortest that is followed by a space, or glued to a
         * name (the longest: 女流二段 over 女流). */
        for (int k = end; end > start && rank_start(w[start]) && k > start; k--)
            if (k < end && rank_end(w[k - 1]) && whole_rank(w + start, k - start) &&
                (w[start] >= 0x80 || w[k] == ' ')) {
                if (!p->rank[0]) {
                    size_t o = 0;
                    for (int q = start; q < k && o + 4 < sizeof p->rank; q++)
                        o += utf8_put(p->rank + o, w[q]);
                    p->rank[o] = 0;
                }
                start = k, again = 1;
                break;
            }
    }
    size_t o = 0;
    for (int i = start; i < end && o + 4 < sizeof p->key; i++)
        if (w[i] != ' ')
            o += utf8_put(p->key + o, w[i]);
    p->key[o] = 0;
}
