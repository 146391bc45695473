/* fuzz_read_any.c: kifu_read_all with the format left to detection, then every writer on
 * every record read. The first byte picks the options, the rest is the file:
 *   bits 0-1  input encoding (AUTO, UTF8, CP932, EUCJP)
 *   bit 2     KIFU_READ_LENIENT
 *   bit 3     KIFU_READ_NO_NORMALIZE
 *   bit 4     KIFU_WRITE_PRETTY
 *   bit 5     KIFU_WRITE_CSA_V3
 *   bit 6     write CP932 where the format allows it (KIF/KI2 do by default)
 *   bit 7     the replay page as a catalogue in the international set
 *   bits 4-5 also name the file for kifu_format_decide (none, .kif, .json, .msf)
 * Beyond not crashing it checks two invariants: a record that normalized cleanly and was
 * written as JKF reads back from that JKF; the replay page of all the records has its two
 * script elements only, whatever text the records hold. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kifu.h"

static void ignore(void *ctx, const char *message)
{
    (void)ctx;
    (void)message;
}

static void write_all(kifu_record *r, unsigned opt, int normalized)
{
    for (int f = KIFU_FMT_JKF; f < KIFU_FMT_COUNT_; f++) {
        kifu_write_options wo = {0};
        wo.format = f;
        wo.flags = ((opt >> 4) & 1 ? KIFU_WRITE_PRETTY : 0) |
                   ((opt >> 5) & 1 ? KIFU_WRITE_CSA_V3 : 0);
        wo.encoding = (opt >> 6) & 1 ? KIFU_ENC_CP932 : KIFU_ENC_AUTO;
        wo.warn = ignore;
        size_t len = 0;
        char *out = kifu_write(r, &wo, &len, NULL);
        if (out && f == KIFU_FMT_JKF && normalized && wo.encoding == KIFU_ENC_AUTO) {
            kifu_read_options ro = {KIFU_FMT_JKF, KIFU_ENC_UTF8, 0,
                                    "round trip", NULL,          NULL};
            kifu_error err;
            kifu_error_clear(&err);
            kifu_record *back = kifu_read(out, len, &ro, &err);
            if (!back)
                abort(); /* our own JKF must read back */
            kifu_record_free(back);
        }
        kifu_free(out);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    unsigned opt = data[0];
    kifu_read_options ro = {0};
    ro.format = KIFU_FMT_AUTO;
    ro.encoding = (int)(opt & 3);
    ro.flags = ((opt >> 2) & 1 ? KIFU_READ_LENIENT : 0) |
               ((opt >> 3) & 1 ? KIFU_READ_NO_NORMALIZE : 0);
    /* the one decision of a format: no extension (every sniffer, whole text), one row's
     * (its head decoded alone), several rows' (.json) */
    static const char *const names[] = {"fuzz", "fuzz.kif", "fuzz.json", "fuzz.msf"};
    kifu_read_options d = ro;
    d.source = names[(opt >> 4) & 3];
    int f = kifu_format_decide(data + 1, size - 1, &d);
    if (f < KIFU_FMT_AUTO || f >= KIFU_FMT_COUNT_)
        __builtin_trap();
    ro.source = "fuzz";
    kifu_record **recs = NULL;
    size_t n = 0;
    kifu_error err;
    kifu_error_clear(&err);
    if (kifu_read_all(data + 1, size - 1, &ro, &recs, &n, &err) != 0)
        return 0;
    kifu_html_options ho = {0};
    ho.flags = (opt >> 7) & 1 ? KIFU_HTML_CATALOGUE | KIFU_HTML_INTL : 0;
    ho.warn = ignore;
    char *page = kifu_html_write((const kifu_record *const *)recs, n, &ho, NULL, NULL);
    if (page) {
        int scripts = 0;
        for (const char *p = page; (p = strstr(p, "</script")) != NULL; p++)
            scripts++;
        if (scripts != 2)
            abort(); /* a record's text ended or opened an element of the page */
    }
    kifu_free(page);
    for (size_t i = 0; i < n; i++) {
        write_all(recs[i], opt, ro.flags == 0);
        kifu_record_free(recs[i]);
    }
    kifu_free(recs);
    return 0;
}
