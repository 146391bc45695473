/* json.h: a pull parser for JSON text (RFC 8259), for readers that build their own
 * structures as they go instead of holding a tree of the whole document.
 *
 * Each kifu__json_next returns the next token of the document; the parser checks the
 * syntax (commas, colons, brackets) and keeps the kinds of the open containers on a heap
 * stack, so nesting is limited by memory only and nothing recurses. */
#ifndef KIFU_JSON_H
#define KIFU_JSON_H

#include <stddef.h>

#include "kifu.h"

enum kifu__json_type {
    KIFU__JSON_ERROR = -1, /* see kifu__json's err_* fields */
    KIFU__JSON_END = 0,    /* the document (or the one value asked for) is complete */
    KIFU__JSON_OBJECT,     /* { */
    KIFU__JSON_OBJECT_END, /* } */
    KIFU__JSON_ARRAY,      /* [ */
    KIFU__JSON_ARRAY_END,  /* ] */
    KIFU__JSON_KEY,        /* a member's name; its value is the next token */
    KIFU__JSON_STRING,
    KIFU__JSON_NUMBER,
    KIFU__JSON_TRUE,
    KIFU__JSON_FALSE,
    KIFU__JSON_NULL,
};

typedef struct kifu__json_tok {
    int type;   /* kifu__json_type */
    size_t off; /* byte offset of the token's first character */
    /* KEY, STRING: the decoded text, NUL-terminated, in the parser's buffers (valid until
     * the second string token after this one: a key and its string value are both
     * readable). NUMBER: the literal as written (not terminated). */
    const char *s;
    size_t n;
    /* NUMBER: no fraction and no exponent; then i holds the value, clamped to the range
     * of long long. */
    int is_int;
    long long i;
} kifu__json_tok;

typedef struct kifu__json {
    const char *text;
    size_t len, pos;
    unsigned char *stack; /* '{' or '[' per open container */
    size_t depth, cap;
    int state;
    int one_value; /* stop after one whole value (kifu__json_init_value) */
    /* When set, a comma before a closing bracket (not JSON, but some documents have it) is
     * read as if absent and reported here with its byte offset. */
    void (*trailing_comma)(void *ctx, size_t off);
    void *ctx;
    char *buf[2];
    size_t bufcap[2];
    int which;
    /* The error: where, what was expected and found (short texts), out of memory. */
    size_t err_off;
    char err_expected[48];
    char err_found[48];
    int nomem;
} kifu__json;

/* A parser over a whole document text[0..len). */
void kifu__json_init(kifu__json *j, const char *text, size_t len);
/* A parser over the one value starting at byte off (one kifu__json_next already gave it
 * once): a reader goes back to a value it skipped. */
void kifu__json_init_value(kifu__json *j, const char *text, size_t len, size_t off);
void kifu__json_free(kifu__json *j);
/* Points j at the one value starting at byte off of the same text, keeping its buffers
 * (a reader that goes back to many values reuses one parser). */
void kifu__json_rewind(kifu__json *j, size_t off);

/* The next token into *t; its type (KIFU__JSON_ERROR with err_* set). */
int kifu__json_next(kifu__json *j, kifu__json_tok *t);
/* The parser's error into err (KIFU_ERR_SYNTAX at its line and column, or NOMEM). -1. */
int kifu__json_error(const kifu__json *j, kifu_error *err);
/* Skips the rest of the value whose first token is t (nothing for a scalar). 0, or -1. */
int kifu__json_skip(kifu__json *j, const kifu__json_tok *t);

#endif
