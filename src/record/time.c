/* time.c: the public time helpers (kifu_time), and the library's version string. */
#include "kifu_private.h"

long kifu_time_seconds(const kifu_time *t)
{
    return (t->h > 0 ? t->h : 0) * 3600L + t->m * 60L + t->s;
}

kifu_time kifu_time_from_seconds(long seconds, int with_hours)
{
    kifu_time t = {-1, 0, 0, 0};
    if (with_hours) {
        t.h = (int)(seconds / 3600);
        seconds %= 3600;
    }
    t.m = (int)(seconds / 60);
    t.s = (int)(seconds % 60);
    return t;
}

const char *kifu_version_string(void)
{
    return KIFU_VERSION_STRING;
}
