/* msf.h: the Xelto record model shared by the files of src/msf/ (read, check, write,
 * view). Every node and line of a record is also listed in the record itself, so that
 * freeing and checking are flat loops however deep the variations nest. */
#ifndef KIFU_MSF_H
#define KIFU_MSF_H

#include <stddef.h>

#include "core/arena.h"
#include "core/json.h"
#include "core/strbuf.h"
#include "kifu.h"

typedef struct kifu__msf_result {
    uint8_t pit, vastan, ito;
    char *im, *oprens;
} kifu__msf_result;

struct kifu_msf_line {
    kifu__msf_result fixt;
    kifu_msf_node *from; /* the node the line starts from (the root for seslax) */
    size_t mit_index;    /* index in from->mit; the main line is not in any mit */
    int main;            /* the record's own seslax */
    kifu_msf_node **nodes;
    size_t n, cap;
};

struct kifu_msf_node {
    kifu_msf_move ov;
    kifu_msf_state slax;
    char *im, *oprens;
    kifu_msf_line *line; /* NULL for the root */
    kifu_msf_line *cont; /* the root only: the main line, which continues after it */
    size_t index;        /* in line->nodes */
    size_t id;           /* index in the record's all_nodes */
    int ply;             /* moves from the root */
    kifu_msf_line **mit;
    size_t nmit, capmit;
};

typedef struct kifu__msf_tag {
    char *key, *value;
} kifu__msf_tag;

struct kifu_msf {
    kifu__msf_tag *tags;
    size_t ntags, captags;
    long fala;
    kifu_msf_node *root;
    kifu_msf_line *main;
    /* every node and line, for flat walks */
    kifu_msf_node **all_nodes;
    size_t nnodes, capnodes;
    kifu_msf_line **all_lines;
    size_t nlines, caplines;
};

/* A new empty node / line owned by m (listed in all_nodes / all_lines). NULL on NOMEM. */
kifu_msf_node *kifu__msf_node_new(kifu_msf *m);
kifu_msf_line *kifu__msf_line_new(kifu_msf *m, kifu_msf_node *from);
/* Append an existing node to a line (setting its line and index). 0, or -1. */
int kifu__msf_line_push(kifu_msf_line *l, kifu_msf_node *n);
/* Replace *dst by a copy of s (NULL: remove). 0, or -1 on NOMEM (then *dst is kept). */
int kifu__msf_set_string(char **dst, const char *s);

/* The piece letters, names and sides: "pal" ... "tem". */
extern const char kifu__msf_names[KIFU_MSF_PIECES + 1][4];
/* Side names "arxe", "sorn"; result kinds "daim" ...; move kinds "" "leim" ... */
extern const char *const kifu__msf_sides[2];
extern const char *const kifu__msf_results[4];
extern const char *const kifu__msf_pits[6];

/* The JSON path of a line ("seslax", "kit.mit[0].seslax", ...) into buf. */
char *kifu__msf_line_path(const kifu_msf_line *l, char *buf, size_t cap);

/* An MSF document as JSON values (doc.c): a flat array in document order, a container's
 * members right after it. */
typedef struct kifu__msf_val {
    int type;        /* kifu__json_type: OBJECT, ARRAY, STRING, NUMBER, TRUE ... NULL */
    int is_int;      /* NUMBER: an integer within long long (then i), else a real (d) */
    size_t off;      /* where the value starts in the text */
    size_t koff;     /* a member: where its key starts */
    size_t skip;     /* the next value is this + skip: past everything inside it */
    size_t count;    /* OBJECT, ARRAY: members, elements */
    const char *key; /* a member: its name; else NULL */
    const char *s;   /* STRING: the text (NUL-terminated); NUMBER: the literal */
    size_t n;        /* the length of s */
    long long i;
    double d;
} kifu__msf_val;

typedef struct kifu__msf_doc {
    kifu__msf_val *v; /* v[0] is the document's value */
    size_t n, cap;
    kifu__arena strings; /* keys and strings */
} kifu__msf_doc;

/* Reads the JSON text (which must outlive d: numbers point into it). 0, or -1 with err
 * (KIFU_ERR_SYNTAX at its line and column: not UTF-8, not JSON, a duplicate key). */
int kifu__msf_doc_read(kifu__msf_doc *d, const char *text, size_t len, kifu_error *err);
void kifu__msf_doc_free(kifu__msf_doc *d);

/* The value after v and everything in it: v's next sibling when v has one. */
static inline const kifu__msf_val *kifu__msf_next(const kifu__msf_val *v)
{
    return v + v->skip;
}
/* The member `key` of object o, or NULL (also when o is not an object). */
const kifu__msf_val *kifu__msf_get(const kifu__msf_val *o, const char *key);
/* Element i of array a, or NULL. */
const kifu__msf_val *kifu__msf_at(const kifu__msf_val *a, size_t i);
/* The value at a JSON path ("seslax[3].slax", "(top level)"); for a path that names a
 * missing member, the nearest value it reaches (the object lacking it); NULL when the
 * document is empty. */
const kifu__msf_val *kifu__msf_doc_find(const kifu__msf_doc *d, const char *path);
/* The same from the value v ("" is v; ".slax.sast" a member of it): NULL when v is. */
const kifu__msf_val *kifu__msf_val_find(const kifu__msf_val *v, const char *path);

/* A problem found by a check: formats it (path first) into an error, hands it to fn, and
 * keeps the first in err. The checks and the reader share it. */
typedef struct kifu__msf_report {
    kifu_msf_problem_fn fn;
    void *ctx;
    kifu_error *err;
    const char *source;
    int count;
    /* the document's text and values, to give each problem a line and column (NULL:
     * none) */
    const char *text;
    const kifu__msf_doc *doc;
    /* each node's value in doc, by node id (the reader's; NULL: none), and the node whose
     * path (node_path) the check's problems start with: a path too long to be kept whole
     * is still placed, from its node */
    const kifu__msf_val *const *node_val;
    size_t nnode_val;
    const kifu_msf_node *node;
    const char *node_path;
} kifu__msf_report;
void kifu__msf_problem(kifu__msf_report *rep, int code, const char *path,
                       const char *expected, const char *found, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
/* The same for a problem whose place is known: byte `at` of the text. */
void kifu__msf_problem_at(kifu__msf_report *rep, size_t at, int code, const char *path,
                          const char *expected, const char *found, const char *fmt, ...)
    __attribute__((format(printf, 7, 8)));

/* An RFC 3339 date-time as seconds since 1970 (UTC) and nanoseconds. 0, or -1 when s
 * is not one (check.c). */
int kifu__msf_time(const char *s, long long *secs, long *nanos);

/* At most this many problems are reported one by one (with their place); the rest are
 * counted, and kifu__msf_more reports how many there were. */
#define KIFU__MSF_SHOWN 200
void kifu__msf_more(kifu__msf_report *rep);

/* The checks of states and transitions over a whole record (check.c). */
int kifu__msf_check(const kifu_msf *m, unsigned flags, kifu__msf_report *rep);

/* The state as JSON: compact on one line, or (indent >= 0) laid out as canonical MSF
 * writes it with `indent` spaces before each inner line (write.c). */
void kifu__msf_put_state(kifu__strbuf *b, const kifu_msf_state *s, int indent);
void kifu__msf_put_move(kifu__strbuf *b, const kifu_msf_move *mv);

#endif
