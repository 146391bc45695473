/* player.h: what the diagram and the CLI use of the player beyond kifu.h. */
#ifndef KIFU_PLAYER_H
#define KIFU_PLAYER_H

#include "kifu.h"

/* The node at `ply` on the player's current line (the line through the cursor, with the
 * forks chosen ahead of it), or NULL past its end. */
kifu_node *kifu__player_line_node(const kifu_player *pl, int ply);
/* Length of the current line in plies (the last ply that exists). */
int kifu__player_line_end(const kifu_player *pl);
/* The cursor's path in kifu_player_go_path syntax ("12" or "12,0,1") into buf. */
char *kifu__player_path(const kifu_player *pl, char *buf, size_t cap);

/* Add an ending (TORYO, TSUMI, ...) after the cursor, or follow an identical one, and
 * move the cursor to it. 0, or -1 (NOMEM, or the cursor is already an ending). */
int kifu__player_add_special(kifu_player *pl, const char *word, kifu_error *err);

#endif
