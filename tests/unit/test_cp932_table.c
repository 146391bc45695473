/* test_cp932_table.c: CP932 is decoded by tables filled from iconv, with iconv itself for
 * what they do not cover. Every single byte and every lead-trail pair, set between ASCII,
 * must decode exactly as iconv decodes it, or fail where iconv fails. */
#include <iconv.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "core/encoding.h"
#include "harness.h"
#include "kifu.h"
#include "kifu_private.h"

/* iconv's answer for in: 0 and the text, or -1 (undecodable). */
static int by_iconv(const char *in, size_t n, char *out, size_t cap, size_t *outlen)
{
    iconv_t cd = iconv_open("UTF-8", "CP932");
    if (cd == (iconv_t)-1)
        return -2;
    char *ip = (char *)in, *op = out;
    size_t il = n, ol = cap;
    size_t rc = iconv(cd, &ip, &il, &op, &ol);
    iconv_close(cd);
    *outlen = cap - ol;
    return rc == (size_t)-1 ? -1 : 0;
}

static int same_as_iconv(const char *seq, size_t n)
{
    char in[8], want[32];
    size_t len = 0, wlen = 0;
    in[len++] = 'a';
    memcpy(in + len, seq, n);
    len += n;
    in[len++] = 'b';
    int rw = by_iconv(in, len, want, sizeof want, &wlen);
    if (rw == -2)
        return 1;
    char *got = NULL;
    size_t glen = 0;
    kifu_error err;
    kifu_error_clear(&err);
    int rg = kifu__decode(in, len, KIFU_ENC_CP932, &got, &glen, NULL, &err);
    int ok;
    if (rw < 0)
        ok = rg < 0 && err.code == KIFU_ERR_ENCODING;
    else
        ok = rg == 0 && glen == wlen && memcmp(got, want, wlen) == 0;
    kifu_free(got);
    return ok;
}

TEST(every_byte_decodes_as_iconv_does)
{
    size_t bad = 0;
    for (unsigned c = 0; c < 256; c++) {
        char b = (char)c;
        bad += !same_as_iconv(&b, 1);
    }
    CHECK_INT((int)bad, 0);
}

TEST(every_pair_decodes_as_iconv_does)
{
    size_t bad = 0;
    for (unsigned l = 0x80; l < 256; l++)
        for (unsigned t = 0; t < 256; t++) {
            char p[2] = {(char)l, (char)t};
            bad += !same_as_iconv(p, 2);
        }
    CHECK_INT((int)bad, 0);
}

TEST(a_lead_byte_at_the_end_is_an_error)
{
    char *got = NULL;
    size_t glen = 0;
    kifu_error err;
    kifu_error_clear(&err);
    CHECK_INT(kifu__decode("ab\x82", 3, KIFU_ENC_CP932, &got, &glen, NULL, &err), -1);
    CHECK_INT(err.code, KIFU_ERR_ENCODING);
    CHECK_INT(err.column, 3);
    kifu_free(got);
}

/* Automatic decoding (which decodes CP932 while it checks the bytes' shape) picks what
 * kifu__detect_encoding picks, and gives what a forced decode in that encoding gives. */
static int auto_matches(const char *in, size_t n)
{
    int want = kifu__detect_encoding(in, n), used = -1;
    char *a = NULL, *b = NULL;
    size_t al = 0, bl = 0;
    kifu_error e1, e2;
    kifu_error_clear(&e1);
    kifu_error_clear(&e2);
    int ra = kifu__decode(in, n, KIFU_ENC_AUTO, &a, &al, &used, &e1);
    int rb = kifu__decode(in, n, want, &b, &bl, NULL, &e2);
    int ok = used == want && ra == rb &&
             (ra != 0 || (al == bl && memcmp(a, b, al) == 0)) && e1.code == e2.code;
    kifu_free(a);
    kifu_free(b);
    return ok;
}

TEST(automatic_decoding_agrees_with_detection)
{
    /* 先手：７六歩 in CP932 and EUC-JP; half-width kana; a 0x7F trail; a stray 0x80. */
    static const char *const inputs[] = {
        "\x90\xe6\x8e\xe8\x81\x46\x82\x56\x98\x5a\x95\xe0\n",
        "\xc0\xe8\xbc\xea\xa1\xa7\xa3\xb7\xcf\xbb\xca\xe2\n",
        "\xb1\xb2\xb3\xb4\xb5 \x82\xa0\n",
        "\x82\xa0\xb1\x82\xa0\x82\xa0\x82\xa0\n",
        "\x82\x7f\x82\xa0\n",
        "\x80\x82\xa0\n",
        "#KIF version=2.0 encoding=UTF-8\n\x90\xe6\x8e\xe8\n",
        "'encoding=EUC-JP\n\xc0\xe8\xbc\xea\n",
    };
    for (size_t i = 0; i < sizeof inputs / sizeof inputs[0]; i++)
        CHECK(auto_matches(inputs[i], strlen(inputs[i])));
}

/* Several threads decoding at once while the table's rows are still being filled (this
 * runs first in a fresh process): each gets exactly iconv's text. */
typedef struct job {
    const char *in;
    size_t n;
    const char *want;
    size_t wlen;
    int ok;
} job;

static void *decode_job(void *arg)
{
    job *j = arg;
    char *got = NULL;
    size_t glen = 0;
    int rc = kifu__decode(j->in, j->n, KIFU_ENC_CP932, &got, &glen, NULL, NULL);
    j->ok = rc == 0 && glen == j->wlen && memcmp(got, j->want, glen) == 0;
    kifu_free(got);
    return NULL;
}

TEST(threads_decode_while_rows_fill)
{
    /* Every pair iconv accepts, lead by lead, then the whole text through iconv. */
    size_t cap = 256 * 256 * 2, n = 0, wcap = cap * 2, wlen = 0;
    char *in = malloc(cap), *want = malloc(wcap);
    CHECK(in && want);
    if (!in || !want) {
        free(in);
        free(want);
        return;
    }
    for (unsigned l = 0x81; l <= 0xFC; l++)
        for (unsigned t = 0x40; t <= 0xFC; t++) {
            char p[2] = {(char)l, (char)t}, o[8];
            size_t ol;
            if (by_iconv(p, 2, o, sizeof o, &ol) == 0) {
                in[n++] = p[0];
                in[n++] = p[1];
            }
        }
    int rw = by_iconv(in, n, want, wcap, &wlen);
    if (rw == -2) {
        free(in);
        free(want);
        SKIP("no CP932 in iconv");
    }
    CHECK_INT(rw, 0);
    job jobs[4];
    pthread_t th[4];
    for (int i = 0; i < 4; i++) {
        jobs[i] = (job){in, n, want, wlen, 0};
        CHECK_INT(pthread_create(&th[i], NULL, decode_job, &jobs[i]), 0);
    }
    for (int i = 0; i < 4; i++) {
        pthread_join(th[i], NULL);
        CHECK(jobs[i].ok);
    }
    free(in);
    free(want);
}

int main(void)
{
    RUN(threads_decode_while_rows_fill);
    RUN(automatic_decoding_agrees_with_detection);
    RUN(every_byte_decodes_as_iconv_does);
    RUN(every_pair_decodes_as_iconv_does);
    RUN(a_lead_byte_at_the_end_is_an_error);
    return t_finish();
}
