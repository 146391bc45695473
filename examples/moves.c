/* moves.c: read a record in any format kifu knows and print its main line, one move per
 * line in KIF style, then the SFEN of the final position.
 *
 *   cc moves.c $(pkg-config --cflags --libs kifu) -o moves && ./moves game.kif */
#include <kifu.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s RECORD\n", argv[0]);
        return 2;
    }
    kifu_error err;
    kifu_error_clear(&err);
    kifu_record *r = kifu_read_file(argv[1], NULL, &err); /* new: kifu_record_free */
    if (!r) {
        char buf[1024];
        fprintf(stderr, "%s\n", kifu_error_format(&err, buf, sizeof buf));
        return 1;
    }
    kifu_player *pl = kifu_player_new(r, &err); /* borrows r */
    if (!pl) {
        kifu_record_free(r);
        return 1;
    }
    kifu_move m, prev; /* the move before, so that 同 is written */
    int has_prev = 0;
    while (kifu_player_forward(pl)) {
        const kifu_node *n = kifu_player_node(pl);
        char text[64];
        if (kifu_node_get_move(n, &m)) { /* a copy: moves are values */
            printf("%3d %s\n", kifu_node_ply(n),
                   kifu_move_text(&m, has_prev ? &prev : NULL, KIFU_TEXT_KIF, text,
                                  sizeof text));
            prev = m;
            has_prev = 1;
        } else { /* an ending: the player stands on it, the position stays */
            printf("%3d %s\n", kifu_node_ply(n), kifu_special_text(kifu_node_special(n)));
        }
    }
    /* The SFEN move number is the number of the next move: plies played + 1. */
    const kifu_position *p = kifu_player_position(pl);
    char *sfen = kifu_position_sfen(p, kifu_position_history_length(p) + 1);
    printf("sfen %s\n", sfen ? sfen : "?");
    kifu_free(sfen);
    kifu_player_free(pl);
    kifu_record_free(r);
    return 0;
}
