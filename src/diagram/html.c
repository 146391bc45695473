/* html.c: the replay page (`kifu html`). One self-contained HTML document: the viewer's
 * stylesheet and script (assets/viewer.css, assets/viewer.js, compiled in from the build's
 * viewer_assets.inc, see scripts/embed.cmake) and each record as posjson, the
 * position-list format of ../shared/seeds/002, which the viewer turns back into a tree.
 * Embedding posjson rather than a format of the page's own keeps one writer of positions
 * and lets anyone take the data back out of a saved page. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diagram/diagram.h"
#include "fmt/fmt.h"
#include "fmt/jp.h"
#include "kifu_private.h"
#include "viewer_assets.inc"

const char *kifu_html_asset(const char *name)
{
    if (name && strcmp(name, "board.js") == 0)
        return (const char *)board_js;
    if (name && strcmp(name, "viewer.js") == 0)
        return (const char *)viewer_js;
    if (name && strcmp(name, "viewer.css") == 0)
        return (const char *)viewer_css;
    if (name && strcmp(name, "gamelist.js") == 0)
        return (const char *)gamelist_js;
    if (name && strcmp(name, "gamelist.css") == 0)
        return (const char *)gamelist_css;
    return NULL;
}

/* JSON inside a <script> element: '<' as \u003c, so that no "</script>" or "<!--" in a
 * comment or a name can end the element. posjson has '<' only inside strings, where the
 * escape reads back as the same character. */
static void put_script_json(kifu__strbuf *out, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '<')
            kifu__sb_puts(out, "\\u003c");
        else
            kifu__sb_putc(out, s[i]);
    }
}

/* A stylesheet inside <style>: '<' as the CSS escape \3c, so a user's file cannot end the
 * element early ('<' has no other use in CSS than in strings and comments). */
static void put_style(kifu__strbuf *out, const char *css)
{
    for (; *css; css++) {
        if (*css == '<')
            kifu__sb_puts(out, "\\3c ");
        else
            kifu__sb_putc(out, *css);
    }
}

static const char *header_of(const kifu_record *r, const char *key, const char *other)
{
    const char *v = kifu_record_header_get(r, key);
    return v ? v : kifu_record_header_get(r, other);
}

/* The page title: the caller's, else "先手 対 後手" or the event of the first record. */
static void page_title(kifu__strbuf *out, const kifu_record *r, const char *title)
{
    const char *b = header_of(r, "先手", "下手"), *w = header_of(r, "後手", "上手");
    const char *event = kifu_record_header_get(r, "棋戦");
    if (title) {
        kifu__sb_xml(out, title);
    } else if (b && w) {
        kifu__sb_xml(out, b);
        kifu__sb_puts(out, " 対 ");
        kifu__sb_xml(out, w);
        if (event) {
            kifu__sb_puts(out, " (");
            kifu__sb_xml(out, event);
            kifu__sb_putc(out, ')');
        }
    } else {
        kifu__sb_xml(out, event ? event : "kifu");
    }
}

/* "WORD":"text" for every ending word of the records ("TORYO":"投了"): posjson keeps the
 * CSA word, and the page shows the word a reader of KIF expects without a table of its
 * own. Each word once. 0, or -1 with err. */
static int ending_words(kifu__strbuf *out, const kifu_record *const *rs, size_t count,
                        kifu_error *err)
{
    kifu__strbuf key;
    kifu__sb_init(&key);
    for (size_t i = 0; i < count; i++) {
        kifu_walker *w = kifu_walk_new(rs[i], 0, err);
        if (!w) {
            kifu__sb_free(&key);
            return -1;
        }
        int ev;
        while ((ev = kifu_walk_next(w)) > 0) {
            const kifu_node *n = kifu_walk_node(w);
            if (ev != KIFU_WALK_ENTER || kifu_node_kind_of(n) != KIFU_NODE_SPECIAL)
                continue;
            const char *word = kifu_node_special(n);
            key.len = 0;
            kifu__sb_json_string(&key, word);
            kifu__sb_putc(&key, ':');
            if (key.failed || (out->data && strstr(out->data, key.data)))
                continue;
            if (out->len)
                kifu__sb_putc(out, ',');
            kifu__sb_puts(out, key.data);
            kifu__sb_json_string(out, kifu_special_text(word));
        }
        kifu_walk_free(w);
        if (ev < 0)
            break;
    }
    int failed = key.failed;
    kifu__sb_free(&key);
    if (failed || out->failed)
        return kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
    return 0;
}

/* The options and the catalogue flag: the data block's start, up to its records. */
static void data_start(kifu__strbuf *out, const kifu_html_options *o)
{
    kifu__sb_printf(
        out,
        "{\"generator\":\"kifu %s\",\"options\":{\"pieces\":\"%s\",\"intl\":%s,"
        "\"twoChar\":%s,\"flip\":%s},\"catalogue\":%s,\n\"records\":[\n",
        kifu_version_string(), o->flags & KIFU_HTML_PLAIN ? "plain" : "koma",
        o->flags & KIFU_HTML_INTL ? "true" : "false",
        o->flags & KIFU_HTML_TWO_CHAR ? "true" : "false",
        o->flags & KIFU_HTML_FLIP ? "true" : "false",
        o->flags & KIFU_HTML_CATALOGUE ? "true" : "false");
}

/* Record i of the data block: its positions (posjson), the sides' words, the result. */
static int data_record(kifu__strbuf *out, const kifu_record *r, size_t i,
                       const kifu_html_options *o, kifu_error *err)
{
    kifu_write_options wo = {KIFU_FMT_POSJSON, 0, 0, o->warn, o->warn_ctx};
    kifu__strbuf pj;
    kifu__sb_init(&pj);
    if (kifu__write_posjson_many(&r, 1, &wo, &pj, err)) {
        kifu__sb_free(&pj);
        return -1;
    }
    kifu__sb_puts(out, i ? ",\n{\"positions\":" : "{\"positions\":");
    put_script_json(out, pj.data, pj.len);
    /* The sides' words when the record has no names for them: 下手/上手 in a handicap
     * game, as its own KIF says them. */
    if (kifu__jp_uses_handicap_names(r))
        kifu__sb_puts(out, ",\"sideWords\":[\"下手\",\"上手\"]");
    /* An ending word the record made up may be long: the text at its full length. */
    char small[256], *result = small;
    size_t need = kifu_record_result_text(r, small, sizeof small);
    if (need >= sizeof small) {
        if (!(result = malloc(need + 1))) {
            kifu__sb_free(&pj);
            return kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
        }
        kifu_record_result_text(r, result, need + 1);
    }
    if (need) {
        kifu__sb_puts(out, ",\"result\":");
        pj.len = 0;
        kifu__sb_json_string(&pj, result);
        put_script_json(out, pj.data, pj.len);
    }
    if (result != small)
        free(result);
    kifu__sb_putc(out, '}');
    kifu__sb_free(&pj);
    return 0;
}

/* A page being written game by game (kifu_html_page_*): the words of the endings met so
 * far go after the records, where the last game has been seen. */
struct kifu_html_page {
    kifu_html_options o;
    size_t next;
    kifu__strbuf words;
};

/* The page up to its first record: title, style, the data block's start. */
static void page_head(kifu__strbuf *sb, const kifu_record *first, size_t count,
                      const kifu_html_options *o)
{
    kifu__sb_printf(
        sb,
        "<!DOCTYPE html>\n<html lang=\"ja\">\n<head>\n<meta charset=\"utf-8\">\n"
        "<meta name=\"viewport\" content=\"width=device-width, "
        "initial-scale=1\">\n<meta name=\"generator\" content=\"kifu %s\">\n"
        "<title>",
        kifu_version_string());
    page_title(sb, first, o->title);
    kifu__sb_puts(sb, "</title>\n<style id=\"kifu-style\">\n");
    put_style(sb, o->css ? o->css : kifu_html_asset("viewer.css"));
    /* One size, and the stylesheet (the built-in one, or a --css file made from it)
     * lays out the rest from it, as the document's CSS helper did (seeds/002, sample 5). */
    if (o->piece_size > 0)
        kifu__sb_printf(sb, ":root { --kifu-piece-size: %dpx; }\n", o->piece_size);
    /* The list of games (gamelist.js), styled apart so that --css keeps it usable. */
    if (count > 1 && !(o->flags & KIFU_HTML_CATALOGUE))
        put_style(sb, kifu_html_asset("gamelist.css"));
    kifu__sb_puts(sb, "</style>\n</head>\n<body>\n<div id=\"kifu\"></div>\n"
                      "<noscript><p>This page replays shogi records with JavaScript: "
                      "turn it on to see the board.</p></noscript>\n"
                      "<script type=\"application/json\" id=\"kifu-data\">\n");
    data_start(sb, o);
}

static int page_game(kifu_html_page *p, kifu__strbuf *sb, const kifu_record *r,
                     kifu_error *err)
{
    if (ending_words(&p->words, &r, 1, err) || data_record(sb, r, p->next, &p->o, err))
        return -1;
    p->next++;
    return 0;
}

/* The data block's end (the ending words) and the scripts. */
static void page_end(kifu_html_page *p, kifu__strbuf *sb)
{
    kifu__sb_puts(sb, "],\n\"words\":{");
    put_script_json(sb, p->words.data, p->words.len);
    kifu__sb_puts(sb, "}}\n");
    /* The scripts are ours and hold no "</script" (the unit test checks). */
    kifu__sb_puts(sb, "</script>\n<script>\n");
    kifu__sb_puts(sb, kifu_html_asset("board.js"));
    kifu__sb_puts(sb, kifu_html_asset("viewer.js"));
    /* Then, in the same element: one viewer and a list for many games, and no empty
     * header field. */
    kifu__sb_puts(sb, kifu_html_asset("gamelist.js"));
    kifu__sb_puts(sb, "</script>\n</body>\n</html>\n");
}

/* sb's bytes, or NULL (NOMEM in err). */
static char *take(kifu__strbuf *sb, size_t *len, kifu_error *err)
{
    char *bytes = kifu__sb_take(sb, len);
    if (!bytes)
        kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
    return bytes;
}

kifu_html_page *kifu_html_page_new(const kifu_record *first, size_t count,
                                   const kifu_html_options *o, char **head, size_t *len,
                                   kifu_error *err)
{
    static const kifu_html_options none;
    *head = NULL;
    if (!first || !count) {
        kifu__error(err, KIFU_ERR_ARG, 0, 0, 0, NULL, NULL, "no record to show");
        return NULL;
    }
    kifu_html_page *p = kifu__calloc(1, sizeof *p);
    if (!p) {
        kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
        return NULL;
    }
    p->o = o ? *o : none;
    kifu__sb_init(&p->words);
    kifu__strbuf sb;
    kifu__sb_init(&sb);
    page_head(&sb, first, count, &p->o);
    if (!(*head = take(&sb, len, err))) {
        kifu_html_page_free(p);
        return NULL;
    }
    return p;
}

char *kifu_html_page_game(kifu_html_page *p, const kifu_record *r, size_t *len,
                          kifu_error *err)
{
    kifu__strbuf sb;
    kifu__sb_init(&sb);
    if (page_game(p, &sb, r, err)) {
        kifu__sb_free(&sb);
        return NULL;
    }
    return take(&sb, len, err);
}

char *kifu_html_page_end(kifu_html_page *p, size_t *len, kifu_error *err)
{
    kifu__strbuf sb;
    kifu__sb_init(&sb);
    page_end(p, &sb);
    return take(&sb, len, err);
}

void kifu_html_page_free(kifu_html_page *p)
{
    if (!p)
        return;
    kifu__sb_free(&p->words);
    kifu__free(p);
}

char *kifu_html_write(const kifu_record *const *rs, size_t count,
                      const kifu_html_options *o, size_t *len, kifu_error *err)
{
    static const kifu_html_options none;
    if (!rs || !count) {
        kifu__error(err, KIFU_ERR_ARG, 0, 0, 0, NULL, NULL, "no record to show");
        return NULL;
    }
    kifu_html_page p = {.o = o ? *o : none};
    kifu__sb_init(&p.words);
    kifu__strbuf sb;
    kifu__sb_init(&sb);
    page_head(&sb, rs[0], count, &p.o);
    int rc = 0;
    for (size_t i = 0; i < count && !rc; i++)
        rc = page_game(&p, &sb, rs[i], err);
    if (!rc)
        page_end(&p, &sb);
    kifu__sb_free(&p.words);
    if (rc) {
        kifu__sb_free(&sb);
        return NULL;
    }
    return take(&sb, len, err);
}
