/* test_cp932_table.c: CP932 is decoded by tables filled from iconv, with iconv itself for
 * what they do not cover. Every single byte and every lead-trail pair, set between ASCII,
 * must decode exactly as iconv decodes it, or fail where iconv fails. */
#include <iconv.h>
#include <string.h>

#include "encoding.h"
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

int main(void)
{
    RUN(every_byte_decodes_as_iconv_does);
    RUN(every_pair_decodes_as_iconv_does);
    RUN(a_lead_byte_at_the_end_is_an_error);
    return t_finish();
}
