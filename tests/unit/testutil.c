/* testutil.c: see testutil.h. */
#include "testutil.h"
#include "node_time.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

kifu_record *t_read_text(const char *s, size_t len, int format, unsigned flags,
                         kifu_error *err)
{
    kifu_read_options o = {0};
    o.format = format;
    o.flags = flags;
    kifu_error_clear(err);
    return kifu_read(s, len, &o, err);
}

char *t_write_as(const kifu_record *r, int format, int enc, size_t *len, kifu_error *err)
{
    kifu_write_options w = {0};
    w.format = format;
    w.encoding = enc;
    kifu_error_clear(err);
    return kifu_write(r, &w, len, err);
}

kifu_node *t_node_at(const kifu_record *r, int ply)
{
    kifu_node *n = kifu_record_root(r);
    for (int i = 0; i < ply && n; i++)
        n = kifu_node_next(n);
    return n;
}

kifu_move t_move_make(int color, int fx, int fy, int tx, int ty, int piece, int cap,
                      int promote, int same, const char *rel, int flags)
{
    kifu_move m;
    memset(&m, 0, sizeof m);
    m.color = (uint8_t)color;
    m.from_x = (uint8_t)fx, m.from_y = (uint8_t)fy;
    m.to_x = (uint8_t)tx, m.to_y = (uint8_t)ty;
    m.piece = (uint8_t)piece;
    m.capture = (uint8_t)cap;
    m.promote = (int8_t)promote;
    m.same = (int8_t)same;
    memcpy(m.relative, rel, strlen(rel));
    m.flags = (uint8_t)flags;
    return m;
}

const kifu_move *t_move(const kifu_node *n)
{
    static kifu_move ring[16];
    static unsigned next;
    kifu_move *m = &ring[next++ % 16];
    return kifu_node_get_move(n, m) ? m : NULL;
}

const kifu_move *t_move_at(const kifu_record *r, int ply)
{
    const kifu_node *n = t_node_at(r, ply);
    return n ? t_move(n) : NULL;
}

typedef struct text {
    char *buf;
    size_t cap, k;
} text;

/* Append, stopping quietly when full: the picture of a huge record is only cut short. */
static void put(text *t, const char *fmt, ...)
{
    if (t->k + 1 >= t->cap)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(t->buf + t->k, t->cap - t->k, fmt, ap);
    va_end(ap);
    if (n > 0)
        t->k = t->k + (size_t)n < t->cap ? t->k + (size_t)n : t->cap - 1;
}

/* One line and its forks; recursion only into forks, as the library does. */
static void dump_line(const kifu_node *n, int depth, text *t)
{
    for (; n && t->k + 1 < t->cap; n = kifu_node_next(n)) {
        const kifu_move *m = t_move(n);
        put(t, "%*s%d:", depth * 2, "", kifu_node_ply(n));
        if (m)
            put(t, "c%d %d%d-%d%d %s p%d s%d r%s f%d", m->color, m->from_x, m->from_y,
                m->to_x, m->to_y, kifu_piece_csa(m->piece), m->promote, m->same,
                m->relative, m->flags);
        else if (kifu_node_special(n))
            put(t, "%s", kifu_node_special(n));
        const kifu_move_time *tm = t_time(n);
        if (tm)
            put(t, " t%ld/%ld/%d", kifu_time_seconds(&tm->now),
                kifu_time_seconds(&tm->total), tm->has_total);
        for (size_t i = 0; i < kifu_node_comment_count(n); i++)
            put(t, " *%s", kifu_node_comment(n, i));
        for (size_t i = 0; i < kifu_node_bookmark_count(n); i++)
            put(t, " &%s", kifu_node_bookmark(n, i));
        put(t, "\n");
        for (size_t i = 1; i < kifu_node_child_count(n); i++)
            dump_line(kifu_node_child(n, i), depth + 1, t);
    }
}

char *t_dump(const kifu_record *r)
{
    text t = {malloc(1 << 16), 1 << 16, 0};
    if (!t.buf)
        return NULL;
    t.buf[0] = 0;
    for (size_t i = 0; i < kifu_record_header_count(r); i++) {
        const char *key, *v;
        kifu_record_header_at(r, i, &key, &v);
        put(&t, "%s=%s\n", key, v);
    }
    kifu_board b;
    kifu_record_initial(r, &b);
    put(&t, "preset %d color %d\n", kifu_record_preset(r), b.color);
    for (int i = 0; i < 81; i++)
        put(&t, "%x", b.sq[i]);
    for (int c = 0; c < 2; c++)
        for (int p = 1; p < 8; p++)
            put(&t, " %d", b.hands[c][p]);
    put(&t, "\n");
    dump_line(kifu_record_root(r), 0, &t);
    return t.buf;
}

kifu_position *t_position(const char *sfen)
{
    kifu_position *p = kifu_position_new();
    kifu_error err;
    kifu_error_clear(&err);
    if (kifu_position_set_sfen(p, sfen, &err) < 0)
        printf("  bad test position %s: %s\n", sfen, err.message);
    return p;
}

int t_play_usi(kifu_position *p, const char *usi)
{
    kifu_move m;
    if (kifu_position_parse_usi(p, usi, &m, NULL) < 0)
        return -1;
    return kifu_position_play(p, &m, NULL);
}

kifu_record *t_nested_forks(int levels)
{
    static const char *const cycle[4][2] = {
        {"5i5h", "5i4h"}, {"5a5b", "5a4b"}, {"4h5h", "4h5i"}, {"4b5b", "4b5a"}};
    kifu_record *r = kifu_record_new();
    kifu_position *p = kifu_position_new();
    kifu_node *n = kifu_record_root(r);
    for (int i = 0; i < levels && n; i++) {
        kifu_move a, b;
        kifu_position_parse_usi(p, cycle[i % 4][0], &a, NULL);
        kifu_position_parse_usi(p, cycle[i % 4][1], &b, NULL);
        if (!kifu_node_add_move(r, n, &a) || !(n = kifu_node_add_move(r, n, &b)))
            break;
        kifu_position_play(p, &b, NULL);
    }
    kifu_position_free(p);
    return r;
}

const char *t_index_clickhouse(void)
{
    const char *url = getenv("KIFU_TEST_INDEX");
    return url && *url ? url : NULL;
}

kifu_index *t_index_open(const char *path, unsigned flags, kifu_error *err)
{
    const char *url = t_index_clickhouse();
    if (!url)
        return kifu_index_open(path, flags, err);
    /* The database: u_ and the FNV-1a hash of the path (letters and digits only). */
    unsigned long long h = 14695981039346656037ULL;
    for (const char *p = path; *p; p++)
        h = (h ^ (unsigned char)*p) * 1099511628211ULL;
    char db[32], cmd[512];
    snprintf(db, sizeof db, "u_%016llx", h);
    FILE *f = fopen(path, "r");
    if (f)
        fclose(f);
    if (!f && (flags & KIFU_INDEX_CREATE)) {
        snprintf(cmd, sizeof cmd,
                 "curl -sS --fail-with-body --max-time 60 --data-binary "
                 "'DROP DATABASE IF EXISTS %s' '%s/' >/dev/null",
                 db, url);
        if (system(cmd) != 0)
            printf("  could not drop ClickHouse database %s\n", db);
        if ((f = fopen(path, "w")) != NULL) {
            fprintf(f, "kifu-test-clickhouse-index %s %s\n", path, db);
            fclose(f);
        }
    }
    kifu_clickhouse_options o = {.database = db};
    return kifu_index_open_clickhouse(url, flags & ~(unsigned)KIFU_INDEX_BULK, &o, err);
}
