/* encoding.h: the one boundary between file bytes and the UTF-8 the library works in. */
#ifndef KIFU_ENCODING_H
#define KIFU_ENCODING_H

#include <stddef.h>

#include "kifu.h"

/* Length of a UTF-8 BOM at the start of data (3 or 0). */
size_t kifu__bom_len(const char *data, size_t len);
/* Is the text valid UTF-8? On failure *bad is the offset of the first bad byte. */
int kifu__utf8_valid(const char *data, size_t len, size_t *bad);
/* Decide the encoding of bytes: BOM or valid UTF-8 -> UTF8, a CSA `'CSA encoding=` or
 * `'encoding=` line -> what it says, else CP932 or EUC-JP, whichever decodes to the more
 * plausible Japanese text. */
int kifu__detect_encoding(const char *data, size_t len);
/* Decode bytes in `enc` (AUTO: detect) to new UTF-8 text without a BOM (kifu_free). CRs
 * are kept. Undecodable bytes are an error with line and column. 0, or -1. */
int kifu__decode(const char *data, size_t len, int enc, char **out, size_t *outlen,
                 int *used, kifu_error *err);
/* Make decoded text (NUL-terminated, owned by the caller) what readers assume: a CR
 * not followed by LF becomes LF (same length, so positions stay); a NUL byte is an error
 * at its line and column, or with `lenient` every NUL becomes U+FFFD (the text may be
 * reallocated) and `warn` is told. 0, or -1. */
int kifu__text_clean(char **text, size_t *len, int lenient,
                     void (*warn)(void *, const char *), void *ctx, kifu_error *err);
/* Encode UTF-8 text to `enc` (UTF8: a copy). A character the target cannot hold is an
 * error naming it and its line. New bytes (kifu_free); 0, or -1. */
int kifu__encode(const char *text, size_t len, int enc, char **out, size_t *outlen,
                 kifu_error *err);

#endif
