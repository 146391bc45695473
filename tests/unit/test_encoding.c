/* test_encoding.c: the encoding boundary: detection from the bytes (BOM, UTF-8, CP932,
 * EUC-JP, lying declarations), forced encodings, errors with line and column, and
 * encoding output that refuses what the target cannot hold. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/encoding.h"
#include "harness.h"
#include "kifu.h"
#include "kifu_private.h"
#include "record/record.h"
#include "testutil.h"

/* 先手：７六歩 in three encodings. */
#define SENTE_UTF8                                                                       \
    "\xe5\x85\x88\xe6\x89\x8b\xef\xbc\x9a\xef\xbc\x97\xe5\x85\xad\xe6\xad\xa9"
#define SENTE_SJIS "\x90\xe6\x8e\xe8\x81\x46\x82\x56\x98\x5a\x95\xe0"
#define SENTE_EUC "\xc0\xe8\xbc\xea\xa1\xa7\xa3\xb7\xcf\xbb\xca\xe2"

TEST(detects_bom_utf8_cp932_eucjp)
{
    const char bom[] = "\xef\xbb\xbf" SENTE_UTF8;
    CHECK_INT(kifu__detect_encoding(bom, strlen(bom)), KIFU_ENC_UTF8);
    CHECK_INT(kifu__detect_encoding(SENTE_UTF8, strlen(SENTE_UTF8)), KIFU_ENC_UTF8);
    CHECK_INT(kifu__detect_encoding(SENTE_SJIS, strlen(SENTE_SJIS)), KIFU_ENC_CP932);
    CHECK_INT(kifu__detect_encoding(SENTE_EUC, strlen(SENTE_EUC)), KIFU_ENC_EUCJP);
    CHECK_INT(kifu__detect_encoding("abc", 3), KIFU_ENC_UTF8);
}

TEST(a_false_utf8_declaration_is_ignored)
{
    /* Kifu for Windows writes this line over Shift-JIS bytes (no_henka.kif). */
    const char text[] = "#KIF version=2.0 encoding=UTF-8\n" SENTE_SJIS "\n";
    CHECK_INT(kifu__detect_encoding(text, strlen(text)), KIFU_ENC_CP932);
    char *out = NULL;
    size_t n = 0;
    kifu_error err;
    kifu_error_clear(&err);
    CHECK_INT(kifu__decode(text, strlen(text), KIFU_ENC_AUTO, &out, &n, NULL, &err), 0);
    if (out)
        CHECK(strstr(out, SENTE_UTF8) != NULL);
    kifu_free(out);
}

TEST(decodes_cp932_only_characters)
{
    /* Ⅷ (87 5B), Ⅸ (87 5C) and ～ (81 60) are CP932, not strict Shift-JIS. */
    const char text[] = "\x87\x5b\x87\x5c\x81\x60";
    char *out = NULL;
    size_t n = 0;
    int used = 0;
    kifu_error err;
    kifu_error_clear(&err);
    CHECK_INT(kifu__decode(text, strlen(text), KIFU_ENC_AUTO, &out, &n, &used, &err), 0);
    CHECK_INT(used, KIFU_ENC_CP932);
    if (out)
        CHECK_STR(out, "ⅧⅨ～");
    kifu_free(out);
}

TEST(bom_is_dropped)
{
    const char *inputs[] = {"\xef\xbb\xbf"
                            "abc",
                            "\xef\xbb\xbf\xef\xbb\xbf"
                            "abc"};
    for (int i = 0; i < 2; i++) {
        char *out = NULL;
        size_t n = 0;
        CHECK_INT(kifu__decode(inputs[i], strlen(inputs[i]), KIFU_ENC_AUTO, &out, &n,
                               NULL, NULL),
                  0);
        if (out)
            CHECK_STR(out, "abc");
        kifu_free(out);
    }
}

TEST(forced_encoding_wins_and_reports_bad_bytes)
{
    /* Shift-JIS bytes forced as UTF-8: an error on line 2 at the first bad byte. */
    const char text[] = "abc\nx\xe6\xad\xa9" SENTE_SJIS "\n";
    char *out = NULL;
    size_t n = 0;
    kifu_error err;
    kifu_error_clear(&err);
    CHECK_INT(kifu__decode(text, strlen(text), KIFU_ENC_UTF8, &out, &n, NULL, &err), -1);
    CHECK_INT(err.code, KIFU_ERR_ENCODING);
    CHECK_INT(err.line, 2);
    CHECK_INT(err.column, 3);
    CHECK_INT((long)err.offset, 8);
    /* A truncated CP932 pair. */
    const char bad[] = "ab\n\x90\xe6\x90";
    kifu_error_clear(&err);
    CHECK_INT(kifu__decode(bad, sizeof bad - 1, KIFU_ENC_CP932, &out, &n, NULL, &err),
              -1);
    CHECK_INT(err.code, KIFU_ERR_ENCODING);
    CHECK_INT(err.line, 2);
    CHECK_INT(err.column, 2);
    /* Through kifu_read with the option, like `--encoding`. */
    kifu_read_options o = {0};
    o.format = KIFU_FMT_KIF;
    o.encoding = KIFU_ENC_UTF8;
    o.flags = KIFU_READ_NO_NORMALIZE;
    o.source = "x.kif";
    const char kif[] = "\xe5\x85\x88\xe6\x89\x8b\xef\xbc\x9a"
                       "A\n" SENTE_SJIS "\n";
    kifu_error_clear(&err);
    CHECK(kifu_read(kif, strlen(kif), &o, &err) == NULL);
    CHECK_INT(err.code, KIFU_ERR_ENCODING);
    CHECK_INT(err.line, 2);
    CHECK_STR(err.source, "x.kif");
}

TEST(encode_refuses_unrepresentable)
{
    char *out = NULL;
    size_t n = 0;
    kifu_error err;
    kifu_error_clear(&err);
    CHECK_INT(
        kifu__encode(SENTE_UTF8, strlen(SENTE_UTF8), KIFU_ENC_CP932, &out, &n, &err), 0);
    if (out)
        CHECK_STR(out, SENTE_SJIS);
    kifu_free(out);
    const char text[] = "ok\nab\xe9\x9b\x9e\n"; /* 雞 is not in CP932 */
    kifu_error_clear(&err);
    CHECK_INT(kifu__encode(text, strlen(text), KIFU_ENC_CP932, &out, &n, &err), -1);
    CHECK_INT(err.code, KIFU_ERR_ENCODING);
    CHECK_INT(err.line, 2);
    CHECK_INT(err.column, 3);
    CHECK_STR(err.found, "\xe9\x9b\x9e");
}

TEST(reads_kif_in_either_encoding_alike)
{
    const char sj[] = "\x90\xe6\x8e\xe8\x81\x46"
                      "A\n   1 \x82\x56\x98\x5a\x95\xe0(77)\n";
    const char u8[] = "\xef\xbb\xbf"
                      "\xe5\x85\x88\xe6\x89\x8b\xef\xbc\x9a"
                      "A\n   1 "
                      "\xef\xbc\x97\xe5\x85\xad\xe6\xad\xa9(77)\n";
    kifu_read_options o = {0};
    o.format = KIFU_FMT_KIF;
    o.flags = KIFU_READ_NO_NORMALIZE;
    kifu_error err;
    kifu_error_clear(&err);
    kifu_record *a = kifu_read(sj, strlen(sj), &o, &err);
    kifu_record *b = kifu_read(u8, strlen(u8), &o, &err);
    CHECK(a && b);
    if (a && b) {
        CHECK_STR(kifu_record_header_get(a, "先手"), "A");
        CHECK_STR(kifu_record_header_get(b, "先手"), "A");
        const kifu_move *ma = t_move(kifu_node_next(kifu_record_root(a)));
        const kifu_move *mb = t_move(kifu_node_next(kifu_record_root(b)));
        CHECK(ma && mb && ma->to_x == 7 && mb->to_x == 7 && ma->to_y == 6 &&
              mb->to_y == 6);
    }
    kifu_record_free(a);
    kifu_record_free(b);
}

/* One damaged byte in a UTF-8 file is reported as bad UTF-8 at its own place (it used to
 * be "cannot decode as CP932" somewhere else); a real CP932 fault says what was tried. */
TEST(a_damaged_utf8_file_is_reported_as_utf8)
{
    const char text[] = SENTE_UTF8 "\n" SENTE_UTF8 "\x9a" SENTE_UTF8 "\n" SENTE_UTF8 "\n";
    char *out = NULL;
    size_t n = 0;
    kifu_error err;
    kifu_error_clear(&err);
    CHECK_INT(kifu__decode(text, strlen(text), KIFU_ENC_AUTO, &out, &n, NULL, &err), -1);
    CHECK_INT(err.code, KIFU_ERR_ENCODING);
    CHECK_INT(err.line, 2);
    CHECK_INT(err.column, 7);
    CHECK(strstr(err.message, "UTF-8") != NULL && strstr(err.message, "0x9A") != NULL);
    /* Truncated CP932 detected as CP932: the message says how it was chosen. */
    const char sj[] = SENTE_SJIS "\n" SENTE_SJIS "\x90";
    kifu_error_clear(&err);
    CHECK_INT(kifu__decode(sj, strlen(sj), KIFU_ENC_AUTO, &out, &n, NULL, &err), -1);
    CHECK_INT(err.line, 2);
    CHECK(strstr(err.message, "CP932") && strstr(err.message, "not UTF-8"));
}

/* Bytes in memory of exactly their size, no NUL after them: ready text is read where it
 * is (not copied), so a reader that looked past the end would be caught by ASan. */
static char *exact(const char *text, size_t *n)
{
    *n = strlen(text);
    char *b = malloc(*n ? *n : 1);
    if (b)
        memcpy(b, text, *n);
    return b;
}

TEST(ready_text_is_read_in_place_alike)
{
    static const struct {
        int format;
        const char *text;
    } cases[] = {
        {KIFU_FMT_CSA, "V2.2\nPI\n+\n+7776FU\n-3334FU\n%TORYO\n"},
        {KIFU_FMT_CSA, "V2.2\r\nPI\r\n+\r\n+7776FU\r\n-3334FU"},
        {KIFU_FMT_SFEN, "startpos moves 7g7f 3c3d 2g2f resign"},
        {KIFU_FMT_SFEN, "position startpos moves 7g7f 3c3d   "},
        {KIFU_FMT_SFEN,
         "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"},
        {KIFU_FMT_KI2,
         "\xe6\x89\x8b\xe5\x90\x88\xe5\x89\xb2\xef\xbc\x9a\xe5\xb9\xb3\xe6\x89"
         "\x8b\xe5\x90\x88\xe5\x89\xb2\n\xe2\x96\xb2\xef\xbc\x97\xe5\x85\xad"
         "\xe6\xad\xa9"},
        {KIFU_FMT_JKF,
         "{\"header\":{},\"moves\":[{},{\"move\":{\"from\":{\"x\":7,\"y\":7},"
         "\"to\":{\"x\":7,\"y\":6},\"color\":0,\"piece\":\"FU\"}}]}"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        kifu_read_options o = {cases[i].format, KIFU_ENC_AUTO, 0, NULL, NULL, NULL};
        kifu_write_options w = {0};
        w.format = KIFU_FMT_KIFU;
        kifu_error e1, e2;
        kifu_error_clear(&e1);
        kifu_error_clear(&e2);
        kifu_record *a = kifu_read(cases[i].text, strlen(cases[i].text), &o, &e1);
        size_t n;
        char *b = exact(cases[i].text, &n);
        kifu_record *r = b ? kifu_read(b, n, &o, &e2) : NULL;
        free(b);
        CHECK(a != NULL);
        CHECK(r != NULL);
        char *wa = a ? kifu_write(a, &w, NULL, &e1) : NULL;
        char *wr = r ? kifu_write(r, &w, NULL, &e2) : NULL;
        if (wa && wr)
            CHECK_STR(wr, wa);
        kifu_free(wa);
        kifu_free(wr);
        kifu_record_free(a);
        kifu_record_free(r);
    }
}

TEST(an_unnormalized_record_outlives_the_bytes_it_was_read_from)
{
    /* The second 7g7f is gote's, from an empty square: the normalizer finds it after the
     * caller has overwritten and freed the bytes, and still names its line and column. */
    size_t n;
    char *b = exact("# a game\nstartpos moves 7g7f 7g7f", &n);
    CHECK(b != NULL);
    if (!b)
        return;
    kifu_read_options o = {KIFU_FMT_SFEN, KIFU_ENC_AUTO, KIFU_READ_NO_NORMALIZE,
                           NULL,          NULL,          NULL};
    kifu_error err;
    kifu_error_clear(&err);
    kifu_record *r = kifu_read(b, n, &o, &err);
    memset(b, 'x', n);
    free(b);
    CHECK(r != NULL);
    if (!r)
        return;
    CHECK(kifu_normalize(r, 0, &err) != 0);
    CHECK_INT(err.line, 2);
    CHECK_INT(err.column, 21);
    kifu_record_free(r);
}

TEST(borrow_reads_unnormalized_records_in_place)
{
    /* BORROW: the caller keeps the bytes, so the records read them where they are; without
     * it they get a copy; CP932 bytes are decoded either way. */
    static const char *const texts[] = {"startpos moves 7g7f 3c3d",
                                        "V2.2\nPI\n+\n+7776FU\n'" SENTE_SJIS "\n"};
    for (int t = 0; t < 2; t++)
        for (unsigned borrow = 0; borrow <= KIFU_READ_BORROW;
             borrow += KIFU_READ_BORROW) {
            size_t n;
            char *b = exact(texts[t], &n);
            kifu_read_options o = {t ? KIFU_FMT_CSA : KIFU_FMT_SFEN,
                                   KIFU_ENC_AUTO,
                                   KIFU_READ_NO_NORMALIZE | borrow,
                                   NULL,
                                   NULL,
                                   NULL};
            kifu_error err;
            kifu_error_clear(&err);
            kifu_record *r = b ? kifu_read(b, n, &o, &err) : NULL;
            CHECK(r != NULL);
            if (r) {
                CHECK(r->input != NULL);
                if (r->input)
                    CHECK_INT(r->input->text == b, t == 0 && borrow);
                CHECK_INT(kifu_normalize(r, 0, &err), 0);
            }
            kifu_record_free(r);
            free(b);
        }
}

TEST(encoding_names_in_any_case)
{
    static const struct {
        const char *name;
        int enc;
    } cases[] = {
        {"Shift_JIS", KIFU_ENC_CP932},   {"shift_jis", KIFU_ENC_CP932},
        {"SHIFT-JIS", KIFU_ENC_CP932},   {"SJIS", KIFU_ENC_CP932},
        {"ms932", KIFU_ENC_CP932},       {"CP932", KIFU_ENC_CP932},
        {"Windows-31J", KIFU_ENC_CP932}, {"EUC-JP", KIFU_ENC_EUCJP},
        {"utf-8", KIFU_ENC_UTF8},        {"UTF8", KIFU_ENC_UTF8},
        {"UTF-16", KIFU_ENC_UTF16},      {"utf-16le", KIFU_ENC_UTF16LE},
        {"UTF-16BE", KIFU_ENC_UTF16BE},  {"Auto", KIFU_ENC_AUTO},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        CHECK_INT(kifu_encoding_from_name(cases[i].name), cases[i].enc);
    CHECK_INT(kifu_encoding_from_name("shift_jiss"), -1);
    CHECK_INT(kifu_encoding_from_name("Shift?JIS"), -1);
    CHECK_INT(kifu_encoding_from_name(NULL), -1);
    CHECK_STR(kifu_encoding_name(KIFU_ENC_CP932), "Shift_JIS");
    /* Every usual name reads back as its encoding. */
    for (int e = KIFU_ENC_AUTO; e <= KIFU_ENC_UTF16BE; e++)
        CHECK_INT(kifu_encoding_from_name(kifu_encoding_name(e)), e);
}

/* text as UTF-16 (ASCII and the BMP only), little- or big-endian, with or without a
 * BOM, into buf; its length. */
static size_t to_utf16(const char *utf8, int be, int bom, char *buf)
{
    char *out = NULL;
    size_t n = 0;
    CHECK_INT(kifu__encode(utf8, strlen(utf8), be ? KIFU_ENC_UTF16BE : KIFU_ENC_UTF16LE,
                           &out, &n, NULL),
              0);
    size_t k = 0;
    if (bom) {
        buf[k++] = be ? (char)0xFE : (char)0xFF;
        buf[k++] = be ? (char)0xFF : (char)0xFE;
    }
    memcpy(buf + k, out, n);
    kifu_free(out);
    return k + n;
}

TEST(utf16_with_and_without_a_bom)
{
    const char *text = "#KIF version=2.0\n" SENTE_UTF8 "\n一二三\n";
    for (int be = 0; be < 2; be++)
        for (int bom = 0; bom < 2; bom++) {
            char buf[256];
            size_t n = to_utf16(text, be, bom, buf);
            CHECK_INT(kifu__detect_encoding(buf, n),
                      be ? KIFU_ENC_UTF16BE : KIFU_ENC_UTF16LE);
            int encs[] = {KIFU_ENC_AUTO, KIFU_ENC_UTF16};
            for (int k = 0; k < 2; k++) {
                char *out = NULL;
                size_t len = 0;
                int used = -1;
                kifu_error err;
                kifu_error_clear(&err);
                CHECK_INT(kifu__decode(buf, n, encs[k], &out, &len, &used, &err), 0);
                CHECK_STR(out, text);
                CHECK_INT(used, be ? KIFU_ENC_UTF16BE : KIFU_ENC_UTF16LE);
                kifu_free(out);
            }
        }
    /* Written as UTF-16: a little-endian BOM first, and it reads back. */
    char *out = NULL, *back = NULL;
    size_t n = 0, m = 0;
    CHECK_INT(kifu__encode(text, strlen(text), KIFU_ENC_UTF16, &out, &n, NULL), 0);
    CHECK(n > 2 && (unsigned char)out[0] == 0xFF && (unsigned char)out[1] == 0xFE);
    CHECK_INT(kifu__decode(out, n, KIFU_ENC_AUTO, &back, &m, NULL, NULL), 0);
    CHECK_STR(back, text);
    kifu_free(out);
    kifu_free(back);
}

TEST(a_file_cut_inside_a_character_is_called_truncated)
{
    /* 先手：７六歩 cut after the lead byte of its last character, in each encoding. */
    static const struct {
        const char *bytes;
        size_t len;
        int enc;
    } cases[] = {
        {"abc\n" SENTE_UTF8, 4 + 16, KIFU_ENC_AUTO},
        {"abc\n" SENTE_SJIS, 4 + 11, KIFU_ENC_AUTO},
        {"abc\n" SENTE_SJIS, 4 + 11, KIFU_ENC_CP932},
        {"abc\n" SENTE_EUC, 4 + 11, KIFU_ENC_EUCJP},
        {"a\0b\0\n\0c\0d", 9, KIFU_ENC_AUTO},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *out = NULL;
        size_t len = 0;
        kifu_error err;
        kifu_error_clear(&err);
        CHECK_INT(kifu__decode(cases[i].bytes, cases[i].len, cases[i].enc, &out, &len,
                               NULL, &err),
                  -1);
        CHECK_INT(err.code, KIFU_ERR_ENCODING);
        CHECK(strstr(err.message, "truncated") != NULL);
        CHECK_INT(err.line, 2);
    }
    /* A bad byte in the middle is not called truncated, and names the real option. */
    const char bad[] = "abc\n\x81\x20" SENTE_SJIS "\n";
    char *out = NULL;
    size_t len = 0;
    kifu_error err;
    kifu_error_clear(&err);
    CHECK_INT(kifu__decode(bad, strlen(bad), KIFU_ENC_AUTO, &out, &len, NULL, &err), -1);
    CHECK(strstr(err.message, "truncated") == NULL);
    CHECK(strstr(err.message, "--input-encoding") != NULL);
}

int main(void)
{
    RUN(detects_bom_utf8_cp932_eucjp);
    RUN(a_false_utf8_declaration_is_ignored);
    RUN(decodes_cp932_only_characters);
    RUN(bom_is_dropped);
    RUN(forced_encoding_wins_and_reports_bad_bytes);
    RUN(encode_refuses_unrepresentable);
    RUN(reads_kif_in_either_encoding_alike);
    RUN(a_damaged_utf8_file_is_reported_as_utf8);
    RUN(ready_text_is_read_in_place_alike);
    RUN(an_unnormalized_record_outlives_the_bytes_it_was_read_from);
    RUN(borrow_reads_unnormalized_records_in_place);
    RUN(encoding_names_in_any_case);
    RUN(utf16_with_and_without_a_bom);
    RUN(a_file_cut_inside_a_character_is_called_truncated);
    return t_finish();
}
