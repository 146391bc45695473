/* fuzz_message.c: libFuzzer target for the CLI's message printer (cli/message.c, built in
 * here as the tool builds it). Any bytes, as a file name or record text in a message, must
 * come out with no control character but the newline, no C1 control and only valid UTF-8:
 * a file cannot retitle the terminal, clear it or fake a line. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../cli/message.c"
#include "core/encoding.h"

/* Is [s, s+n) valid UTF-8 (the library's check) without C0 (but LF), DEL or C1 controls
 * (U+0080..U+009F, encoded C2 80..C2 9F)? */
static int clean(const unsigned char *s, size_t n)
{
    if (!kifu__utf8_valid((const char *)s, n, NULL))
        return 0;
    for (size_t i = 0; i < n; i++)
        if ((s[i] < 0x20 && s[i] != '\n') || s[i] == 0x7F ||
            (s[i] == 0xC2 && i + 1 < n && s[i + 1] < 0xA0))
            return 0;
    return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* The message as cli_err gets it: a C string (up to the first NUL), once short and
     * once past the printer's 512-byte buffer. */
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = 0;
    char *out = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&out, &len);
    if (!mem) {
        free(text);
        return 0;
    }
    FILE *saved = stderr;
    stderr = mem;
    cli_err("%s:%d:%d: %s\n", text, 1, 2, text);
    cli_err("%s%600s\n", text, "");
    stderr = saved;
    fclose(mem);
    if (!clean((const unsigned char *)out, len))
        __builtin_trap();
    /* Nothing printable is lost: every byte of the text that is printable ASCII is
     * still there, in order, in the first message. */
    size_t j = 0, tl = strlen(text);
    for (size_t i = 0; i < tl; i++) {
        if (text[i] < 0x20 || text[i] == 0x7F || (unsigned char)text[i] >= 0x80)
            continue;
        while (j < len && out[j] != text[i])
            j++;
        if (j == len)
            __builtin_trap();
        j++;
    }
    free(out);
    free(text);
    return 0;
}
