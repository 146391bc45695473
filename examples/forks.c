/* forks.c: print every line of a record's move tree, forks included, indented by fork
 * depth. The walk is iterative with a stack of its own (records may nest forks
 * thousands deep), visiting each node's main continuation before its alternatives.
 *
 *   cc forks.c $(pkg-config --cflags --libs kifu) -o forks && ./forks game.kif */
#include <kifu.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct item {
    const kifu_node *node;
    int depth; /* how many forks were taken to reach it */
} item;

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s RECORD\n", argv[0]);
        return 2;
    }
    kifu_error err;
    kifu_error_clear(&err);
    kifu_record *r = kifu_read_file(argv[1], NULL, &err);
    if (!r) {
        char buf[1024];
        fprintf(stderr, "%s\n", kifu_error_format(&err, buf, sizeof buf));
        return 1;
    }
    size_t cap = kifu_record_node_count(r) + 1, n = 0;
    item *stack = malloc(cap * sizeof *stack);
    if (!stack)
        return 4;
    stack[n++] = (item){kifu_record_root(r), 0};
    while (n) {
        item it = stack[--n];
        const kifu_node *node = it.node;
        if (kifu_node_kind_of(node) != KIFU_NODE_ROOT) {
            char text[64];
            kifu_move m_v;
            const kifu_move *m = kifu_node_get_move(node, &m_v) ? &m_v : NULL;
            printf("%*s%d %s%s\n", 2 * it.depth, "", kifu_node_ply(node),
                   m ? kifu_move_text(m, NULL, KIFU_TEXT_KIF, text, sizeof text)
                     : kifu_special_text(kifu_node_special(node)),
                   kifu_node_index(node) ? "  (fork)" : "");
        }
        /* Push the alternatives first (last one deepest) so child 0 comes out next. */
        size_t k = kifu_node_child_count(node);
        for (size_t i = k; i-- > 0;)
            stack[n++] = (item){kifu_node_child(node, i), it.depth + (i > 0)};
    }
    free(stack);
    kifu_record_free(r);
    return 0;
}
