/* jsonval.h: JSON values for the tests, over the project's one reader. A document is
 * read by src/msf/doc.c (core/json.c's pull parser into one flat array of values with
 * their offsets); these helpers add what tests need on top: strict lookup by path,
 * equality, writing a value out again, and editing a document's text (set, add or remove
 * a value), so no test needs a second JSON library or a second tree. */
#ifndef KIFU_TEST_JSONVAL_H
#define KIFU_TEST_JSONVAL_H

#include <stddef.h>

#include "kifu_private.h"
#include "msf/msf.h"

typedef kifu__msf_val jv;

/* A document and its own copy of the text (values point into it). */
typedef struct jv_doc {
    kifu__msf_doc d;
    char *text;
    size_t len;
    int ok;
} jv_doc;

/* Reads text[0..len) into d (a copy is kept). 0, or -1 with a message in err (line,
 * column and what was wrong). */
int jv_parse(jv_doc *d, const char *text, size_t len, char *err, size_t cap);
int jv_load_file(jv_doc *d, const char *path, char *err, size_t cap);
void jv_free(jv_doc *d);
/* The document's value, or NULL (nothing read). */
const jv *jv_root(const jv_doc *d);

/* The value at a path ("seslax[3].slax.ele[2][4]", "" the value itself) from v, or NULL
 * when a step is missing. */
const jv *jv_at(const jv *v, const char *path);
const jv *jv_get(const jv *o, const char *key); /* member key of object o, or NULL */
const jv *jv_idx(const jv *a, size_t i);        /* element i of array a, or NULL */
size_t jv_size(const jv *v);                    /* members, elements; 0 for others */
const char *jv_str(const jv *v);                /* a string's text, or NULL */
long long jv_int(const jv *v);                  /* an integer's value, or 0 */
double jv_num(const jv *v);                     /* a number's value, or 0 */
int jv_is(const jv *v, int type);               /* v's type is type (KIFU__JSON_*) */

/* 1 when a and b are equal JSON values: key order aside, an integer never equal to a
 * real (1 is not 1.0), strings byte for byte. */
int jv_equal(const jv *a, const jv *b);

/* The layouts of jv_write (the tests' expected lines and columns depend on them). */
enum {
    JV_COMPACT = -1, /* {"a":1,"b":[2,3]} */
    JV_SPACED = -2,  /* {"a": 1, "b": [2, 3]} */
    /* n >= 0: one value a line, n spaces of indent a level, "key": value */
};
/* v as JSON text into b. */
void jv_write(kifu__strbuf *b, const jv *v, int layout);
/* The same as a new malloc'd NUL-terminated text (free), or NULL on NOMEM. */
char *jv_dump(const jv *v, int layout);
/* A JSON string literal of s[0..n) into b. */
void jv_quote(kifu__strbuf *b, const char *s, size_t n);

/* Edits d's text and reads it again: the value at path becomes json (a member is added
 * at the end of its object when missing), or with json NULL is removed. 0, or -1 (no
 * such place, or the result does not read: printed). */
int jv_set(jv_doc *d, const char *path, const char *json);

/* One replacement in a document's text: the value v becomes json (NULL: v is removed);
 * with key, a member key: json is added to the object v instead. */
typedef struct jv_edit {
    const jv *v;
    const char *key;
    const char *json;
} jv_edit;
/* The edit that makes member key of object o json: its value replaced, or it added. */
jv_edit jv_member(const jv *o, const char *key, const char *json);
/* Applies edits (places that do not overlap) to d at once and reads the result. 0, -1. */
int jv_apply(jv_doc *d, const jv_edit *edits, size_t n);

#endif
