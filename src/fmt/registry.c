/* registry.c: the format table. Every format kifu reads or writes is one row here: its
 * name and file extensions, what it can hold, its default output encoding, its reader,
 * writer and content sniffer. kifu_read/kifu_write (io.c), detection and the tool's lists
 * (kifu_format_*) come from this table and nothing else, so adding a format is one row
 * plus the format's own files (CONTRIBUTING.md). The fmt module (src/fmt/) owns the
 * formats; it may call record, notation, rules and core. */
#include <string.h>
#include <strings.h>

#include "core/encoding.h"
#include "fmt/fmt.h"
#include "kifu_private.h"

#define H_ALL (KIFU_HOLDS_FORKS | KIFU_HOLDS_COMMENTS | KIFU_HOLDS_TIMES)

static const kifu__format table[] = {
    {.info = {KIFU_FMT_JKF, "jkf", "jkf json", "JSON Kifu Format", KIFU_ENC_UTF8, H_ALL,
              KIFU_GAME_SHOGI},
     .read = kifu__read_jkf,
     .write = kifu__write_jkf,
     .sniff = kifu__sniff_jkf,
     .json = 1},
    {.info = {KIFU_FMT_CSA, "csa", "csa", "CSA standard format V2.2 / V3.0",
              KIFU_ENC_UTF8, KIFU_HOLDS_COMMENTS | KIFU_HOLDS_TIMES | KIFU_HOLDS_GAMES,
              KIFU_GAME_SHOGI},
     .read = kifu__read_csa,
     .write = kifu__write_csa,
     .sniff = kifu__sniff_csa,
     .between = "/\n"},
    {.info = {KIFU_FMT_KIF, "kif", "kif", "KIF (Kakinoki), Shift-JIS", KIFU_ENC_CP932,
              H_ALL, KIFU_GAME_SHOGI},
     .read = kifu__read_kif,
     .write = kifu__write_kif,
     .sniff = NULL},
    {.info = {KIFU_FMT_KIFU, "kifu", "kifu", "KIF in UTF-8", KIFU_ENC_UTF8, H_ALL,
              KIFU_GAME_SHOGI},
     .read = kifu__read_kif,
     .write = kifu__write_kif,
     .sniff = kifu__sniff_kif},
    {.info = {KIFU_FMT_KI2, "ki2", "ki2", "KI2 (moves without source squares), Shift-JIS",
              KIFU_ENC_CP932, KIFU_HOLDS_FORKS | KIFU_HOLDS_COMMENTS, KIFU_GAME_SHOGI},
     .read = kifu__read_ki2,
     .write = kifu__write_ki2,
     .sniff = NULL},
    {.info = {KIFU_FMT_KI2U, "ki2u", "ki2u", "KI2 in UTF-8", KIFU_ENC_UTF8,
              KIFU_HOLDS_FORKS | KIFU_HOLDS_COMMENTS, KIFU_GAME_SHOGI},
     .read = kifu__read_ki2,
     .write = kifu__write_ki2,
     .sniff = kifu__sniff_ki2},
    {.info = {KIFU_FMT_SFEN, "sfen", "sfen usi",
              "SFEN or a USI position line; one game a line", KIFU_ENC_UTF8,
              KIFU_HOLDS_GAMES, KIFU_GAME_SHOGI},
     .read = kifu__read_sfen,
     .write = kifu__write_sfen,
     .sniff = kifu__sniff_sfen,
     .between = "",
     .sure = 1},
    {.info = {KIFU_FMT_SFENLIST, "sfenlist", "sfenlist",
              "one SFEN per line, a position per move", KIFU_ENC_UTF8, 0,
              KIFU_GAME_SHOGI},
     .read = kifu__read_sfenlist,
     .write = kifu__write_sfenlist,
     .sniff = kifu__sniff_sfenlist,
     .sure = 1},
    {.info = {KIFU_FMT_POSJSON, "posjson", "posjson json",
              "position list: a JSON array of whole positions (bd, cb, cw)",
              KIFU_ENC_UTF8, H_ALL | KIFU_HOLDS_GAMES, KIFU_GAME_SHOGI},
     .read = kifu__read_posjson,
     .write = kifu__write_posjson,
     .sniff = kifu__sniff_posjson,
     .json = 1,
     .write_part = kifu__write_posjson_part},
    /* Another game (Xelto): the table lists it so that paths, detection, directory
     * searches and help texts know it; its reader entry refuses it and kifu_write has no
     * writer for it: kifu_msf_* in src/msf/ read and write it. Its first line is sure: an
     * MSF document is one whatever its file's name (the reference validator's tests are
     * .json files). */
    {.info = {KIFU_FMT_MSF, "msf", "msf",
              "Mino Seslax Format 0.2 (Xelto records, not shogi)", KIFU_ENC_UTF8, H_ALL,
              KIFU_GAME_XELTO},
     .read = kifu__read_msf,
     .write = NULL,
     .sniff = kifu__sniff_msf,
     .json = 1,
     .sure = 1},
};

#define NFORMATS (sizeof table / sizeof table[0])

const kifu__format *kifu__format_get(int format)
{
    for (size_t i = 0; i < NFORMATS; i++)
        if (table[i].info.format == format)
            return &table[i];
    return NULL;
}

size_t kifu_format_count(void)
{
    return NFORMATS;
}

const kifu_format_info *kifu_format_info_at(size_t i)
{
    return i < NFORMATS ? &table[i].info : NULL;
}

const kifu_format_info *kifu_format_info_of(int format)
{
    const kifu__format *f = kifu__format_get(format);
    return f ? &f->info : NULL;
}

const char *kifu_format_name(int format)
{
    const kifu__format *f = kifu__format_get(format);
    return f ? f->info.name : NULL;
}

/* Is `word` (n bytes, any case) one of the space-separated words of list? */
static int listed(const char *list, const char *word, size_t n)
{
    for (const char *p = list; *p;) {
        size_t k = strcspn(p, " ");
        if (k == n && strncasecmp(p, word, n) == 0)
            return 1;
        p += k + (p[k] == ' ');
    }
    return 0;
}

int kifu_format_from_name(const char *name)
{
    if (!name)
        return KIFU_FMT_AUTO;
    if (*name == '.')
        name++;
    for (size_t i = 0; i < NFORMATS; i++)
        if (strcasecmp(table[i].info.name, name) == 0)
            return table[i].info.format;
    for (size_t i = 0; i < NFORMATS; i++)
        if (listed(table[i].info.extensions, name, strlen(name)))
            return table[i].info.format;
    return KIFU_FMT_AUTO;
}

/* The format of an extension (its first row) and how many rows list it. Every read of a
 * file asks both, and the rows' lists cost a small record's reading 0.5% to scan: the
 * last extension asked on this thread is kept with its answer (a batch is mostly of one
 * extension). */
static int ext_format(const char *ext, int *sharers)
{
    static _Thread_local struct {
        char ext[16];
        int format, sharers;
    } last = {"", KIFU_FMT_AUTO, 0};
    size_t n = strlen(ext);
    if (n < sizeof last.ext && n > 0 && memcmp(last.ext, ext, n + 1) == 0) {
        *sharers = last.sharers;
        return last.format;
    }
    int format = KIFU_FMT_AUTO, count = 0;
    for (size_t i = 0; i < NFORMATS; i++)
        if (listed(table[i].info.extensions, ext, n) && count++ == 0)
            format = table[i].info.format;
    if (n < sizeof last.ext) {
        memcpy(last.ext, ext, n + 1);
        last.format = format;
        last.sharers = count;
    }
    *sharers = count;
    return format;
}

int kifu_format_from_path(const char *path)
{
    if (!path)
        return KIFU_FMT_AUTO;
    const char *slash = strrchr(path, '/');
    const char *dot = strrchr(slash ? slash : path, '.');
    int sharers;
    return dot ? ext_format(dot + 1, &sharers) : KIFU_FMT_AUTO;
}

int kifu__format_ext_shared(const char *path)
{
    const char *slash = strrchr(path ? path : "", '/');
    const char *dot = path ? strrchr(slash ? slash : path, '.') : NULL;
    int sharers = 0;
    if (dot)
        ext_format(dot + 1, &sharers);
    return sharers > 1;
}

int kifu__format_refine(int format, const char *path, const char *text, size_t len)
{
    const char *slash = strrchr(path ? path : "", '/');
    const char *dot = path ? strrchr(slash ? slash : path, '.') : NULL;
    if (!dot)
        return format;
    /* A row sure of its content wins over the extension when its evidence is the very
     * first line (a .kif holding a USI position line); nothing else is guessed. Only those
     * rows are asked: their sniffers stop at the first line that is not theirs. */
    size_t lead = 0;
    while (lead < len && (text[lead] == ' ' || text[lead] == '\t' || text[lead] == '\n' ||
                          text[lead] == '\r'))
        lead++;
    for (size_t i = 0; i < NFORMATS; i++) {
        size_t at = 0;
        if (table[i].sure && table[i].info.format != format &&
            table[i].sniff(text, len, &at) > 0 && at == lead)
            return table[i].info.format;
    }
    int sharers;
    ext_format(dot + 1, &sharers);
    if (sharers < 2)
        return format;
    int sniffed = kifu__format_sniff(text, len);
    const kifu__format *f = kifu__format_get(sniffed);
    return f && listed(f->info.extensions, dot + 1, strlen(dot + 1)) ? sniffed : format;
}

/* Every sniffer bids on the decoded text: the format whose evidence comes first in the
 * text wins (the first decisive line decides, as a person reading it would), a stronger
 * bid breaking ties. No format knows of another. */
int kifu__format_sniff(const char *text, size_t len)
{
    int best = KIFU_FMT_AUTO, best_strength = 0;
    size_t best_at = (size_t)-1;
    for (size_t i = 0; i < NFORMATS; i++) {
        if (!table[i].sniff)
            continue;
        size_t at = 0;
        int s = table[i].sniff(text, len, &at);
        if (s > 0 && (at < best_at || (at == best_at && s > best_strength))) {
            best = table[i].info.format;
            best_at = at;
            best_strength = s;
        }
    }
    return best;
}

int kifu_format_detect(const void *data, size_t len)
{
    char *text = NULL;
    size_t tlen;
    /* Sniffers read UTF-8: decode first, so that a CP932 KI2 shows its ▲ marks. */
    if (kifu__decode(data, len, KIFU_ENC_AUTO, &text, &tlen, NULL, NULL))
        return KIFU_FMT_AUTO;
    int f = kifu__format_sniff(text, tlen);
    kifu__free(text);
    return f;
}
