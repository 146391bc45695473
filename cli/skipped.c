/* skipped.c: files found among records that are no records (see inputs.h). */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "inputs.h"

int cli_not_record(const cli_input *in, int from, const kifu_error *e, const void *data,
                   size_t len)
{
    if (!in->found || from != KIFU_FMT_AUTO || !e)
        return 0;
    if (e->code == KIFU_ERR_NOMEM || e->code == KIFU_ERR_IO ||
        e->code == KIFU_ERR_ENCODING)
        return 0;
    return data && kifu_format_detect(data, len) == KIFU_FMT_AUTO;
}

void cli_skipped_add(cli_skipped *s, const char *path)
{
    if (s->n < sizeof s->names / sizeof s->names[0])
        s->names[s->n] = strdup(path);
    s->n++;
}

void cli_skipped_report(cli_skipped *s, int quiet)
{
    if (!s->n || quiet) {
        for (size_t i = 0; i < s->n && i < 3; i++)
            free(s->names[i]);
        memset(s, 0, sizeof *s);
        return;
    }
    cli_err("kifu: %zu file%s skipped, not record%s by %s content:", s->n,
            s->n == 1 ? "" : "s", s->n == 1 ? "" : "s", s->n == 1 ? "its" : "their");
    size_t k = s->n < 3 ? s->n : 3;
    for (size_t i = 0; i < k; i++) {
        cli_err("%s %s", i ? "," : "", s->names[i] ? s->names[i] : "?");
        free(s->names[i]);
    }
    cli_err("%s\n", s->n > k ? ", ..." : "");
    memset(s, 0, sizeof *s);
}
