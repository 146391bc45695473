/* engine.h: what the rest of the library uses of the rules engine beyond kifu.h.
 *
 * kifu_position (public, opaque) is a position plus the history of moves played on it, so
 * it can undo and judge repetition. These internal calls work on packed moves (types.h)
 * for the hot paths of the normalizer, the readers and the player. */
#ifndef KIFU_RULES_ENGINE_H
#define KIFU_RULES_ENGINE_H

#include <stddef.h>

#include "rules/types.h"

/* Build the attack and hash tables once; safe to call from anywhere, any number of times. */
void kifu__rules_init(void);

/* Set a record's start position: checks only what the engine needs (see
 * kifu__board_check_mode), since real records start from positions no game reaches. */
int kifu__position_set_board_loose(kifu_position *p, const kifu_board *b,
                                   kifu_error *err);
/* kifu_position_set_sfen for a record's start: its board checked as loosely. */
int kifu__position_set_sfen_loose(kifu_position *p, const char *text, kifu_error *err);

/* A new position at a record's start (checked as kifu__position_set_board_loose) for the
 * light calls only: no repetition table is made. NULL with err set on failure. */
kifu_position *kifu__position_new_loose(const kifu_board *b, kifu_error *err);
/* kifu__position_new_loose(b) when b is the board of preset (a kifu_preset below
 * KIFU_PRESET_OTHER), from a copy made once; any other preset value: from b. */
kifu_position *kifu__position_new_start(const kifu_board *b, int preset, kifu_error *err);
/* The same into p, a position made by kifu__position_new_start (its memory is kept, so
 * a caller replaying record after record allocates nothing per record). 0, or -1 with
 * err (p is then unchanged). */
int kifu__position_restart(kifu_position *p, const kifu_board *b, int preset,
                           kifu_error *err);

/* Play m as it stands, legal or not (a foul kept in a record: the piece moves, a capture
 * goes to the hand); undo takes it back. The move must name a square and a piece or a
 * source square. 0, or -1 with err. */
int kifu__position_force(kifu_position *p, const kifu_move *m, kifu_error *err);

/* Colored piece (CPIECE) on sq, 0 if empty. */
int kifu__position_at(const kifu_position *p, int sq);
/* Count of `kind` (PAWN..GOLD) in color c's hand. */
int kifu__position_hand(const kifu_position *p, int color, int kind);

/* All legal moves into out (room for MAX_MOVES); returns the count. */
size_t kifu__position_legal(const kifu_position *p, kmove *out);
/* Legal moves of the side to move that land on `to` with a piece of `kind` (the kind
 * before the move; drops of `kind` included). Both promotion choices appear as separate
 * moves. Returns the count; out needs room for 32. Unless reach is NULL, *reach is how
 * many board pieces of `kind` reach `to`, pinned or not, when a move is listed (0 for a
 * king): found on the way, it tells whether a relative word is needed, and whether the
 * moves listed are every piece's that reach (then the word needs no second look). */
size_t kifu__position_moves_to(const kifu_position *p, int to, int kind, kmove *out,
                               int *reach);
/* The moves of `kind` to `to` by reach, pinned pieces and drops into check included (for
 * relative words, as other programs choose them). Room for 32. */
size_t kifu__position_reach_to(const kifu_position *p, int to, int kind, kmove *out);
/* The same, board moves only (no drops); reach the same. */
size_t kifu__position_board_moves_to(const kifu_position *p, int to, int kind, kmove *out,
                                     int *reach);
/* 1 when m (capture field from the board) is legal and no other board piece of its kind
 * has a legal move to its square (so it needs no relative word); 0 when not known: then
 * kifu__position_moves_to decides. Checks one piece, lists nothing. */
int kifu__position_legal_alone(const kifu_position *p, kmove m);
/* NULL if m is legal here, else a short static reason such as "二歩 (two pawns on a file)",
 * "打ち歩詰め (pawn drop mate)", "王手放置 (leaves the king in check)", "no piece there",
 * "not your piece", "cannot reach", "must promote", "cannot promote". */
const char *kifu__position_illegal_reason(const kifu_position *p, kmove m);
/* Play m, which the caller knows is legal (history grows). */
void kifu__position_do(kifu_position *p, kmove m);
/* Play m, which the caller knows is legal, keeping only what undo needs: no repetition
 * count, no check state, no hash key (replaying a record needs none, and they cost about
 * as much as the move). Undo with kifu__position_undo_light; do not mix with kifu__position_do,
 * kifu_position_undo or the repetition calls on the same position. 0, or -1 when the
 * history cannot grow (nothing played). */
int kifu__position_do_light(kifu_position *p, kmove m);
/* The USI move usi[0..n) of `color` as a raw record move (KIFU_MOVE_RAW: squares,
 * promotion, the dropped piece; a board move's piece is left to the normalizer, which
 * finds it on the board). NULL, or why the text is no USI move. */
const char *kifu__usi_move_raw(const char *usi, size_t n, int color, kifu_move *out);
/* kifu__position_do_light keeping no history: the move cannot be taken back, and the
 * history length and repetitions do not count it. */
void kifu__position_do_bare(kifu_position *p, kmove m);
/* Take back the last move of kifu__position_do_light. -1 when there is none. */
int kifu__position_undo_light(kifu_position *p);

/* The engine position inside p (borrowed; valid until p changes): for the callers that
 * read many positions and want no copy per position (the search during normalization).
 * Its key is stale after the light calls. */
struct kpos;
const struct kpos *kifu__position_kpos(const kifu_position *p);

/* Conversions between the packed move and the public move of a record. */
void kifu__move_unpack(kmove m, int color, kifu_move *out);
/* Pack a complete public move (from/to/piece/promote/capture); MOVE_NONE if malformed. */
kmove kifu__move_pack(const kifu_move *m);
/* The same from its fields: engine squares (from -1 for a drop, -2 for no square), the
 * kinds, promote -1 (no choice: promoted when the piece must be), 0 or 1. */
kmove kifu__move_of(int color, int from, int to, int kind, int capture, int promote);

#endif
