/* pattern.h: board patterns for position search (the position-list document's sb_match):
 * a regular expression over the 81-letter board (notation/bd.h), or a grid a person types
 * like a BOD diagram with wildcards, compiled to the same kind of expression plus hand and
 * side-to-move conditions. The expression text is kept, so the HTML viewer can run the
 * very same pattern in the browser. */
#ifndef KIFU_SEARCH_PATTERN_H
#define KIFU_SEARCH_PATTERN_H

#include <stddef.h>
#include <stdint.h>

#include "kifu.h"

typedef struct kifu__pattern kifu__pattern;

/* A PCRE2 expression matched against the 81 board letters. New, or NULL with err (the
 * column of the fault in the expression). */
kifu__pattern *kifu__pattern_regex(const char *re, kifu_error *err);

/* A grid pattern: nine rows of nine cells, each row between optional `|` borders, as a
 * BOD diagram writes them (` 歩` sente, `v歩` gote, ` ・` empty), with wildcards: `*`
 * anything, `?` any piece, `^?` any sente piece, `v?` any gote piece (also full-width
 * ＊ ？). Lines BOD allows around the board (file numbers, rules, `先手の持駒：…`,
 * `後手番`) are read too: a hand line asks for at least those pieces in that hand
 * (`なし`: an empty hand), a side line for that side to move. Errors name line and
 * column. New, or NULL with err. */
kifu__pattern *kifu__pattern_grid(const char *text, size_t len, kifu_error *err);

void kifu__pattern_free(kifu__pattern *p);

/* Match the pattern for either side: a position also matches when its colour-flipped
 * form (board turned 180 degrees, owners, hands and side to move swapped) does, so a
 * pattern of sente's castle finds gote's. */
void kifu__pattern_both_sides(kifu__pattern *p, int on);

/* Does position b (its board, hands and side) match? 1 or 0. Not thread-safe for one
 * pattern (the match data is the pattern's): give each thread its own pattern. */
int kifu__pattern_match(kifu__pattern *p, const kifu_board *b);
/* The same on board letters already written (bd[81]); hands and side from b, which may
 * be NULL when kifu__pattern_needs_board says no. */
int kifu__pattern_match_bd(kifu__pattern *p, const char *bd, const kifu_board *b);
/* The board alone (sq: coloured pieces in KIFU_SQ order, as kifu_board and the engine
 * hold them) against a pattern of fixed width anchored at the start, without PCRE2: 1
 * or 0, or -1 when the pattern is not of that form (then match the letters). Hand, side
 * and both-sides conditions are not looked at. */
int kifu__pattern_match_squares(const kifu__pattern *p, const uint8_t *sq);
/* The squares (KIFU_SQ order) a fixed-width pattern constrains and, for each, the
 * coloured pieces allowed there as bits (1 << (kind | color << 4); bit 0: empty), both
 * borrowed: their number, or -1 when the pattern is not of that form. Lets a caller test
 * one square itself before the whole match. */
int kifu__pattern_constraints(const kifu__pattern *p, const uint8_t **sq,
                              const uint32_t **allow);
/* Does matching look past the board letters (hand or side conditions, both sides)? */
int kifu__pattern_needs_board(const kifu__pattern *p);

/* The expression over the 81 letters (borrowed): what a grid compiled to. */
const char *kifu__pattern_expression(const kifu__pattern *p);

#endif
