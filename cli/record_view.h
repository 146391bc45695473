/* record_view.h: what the viewers (show, replay) print about a record beside the board:
 * the lines a reader looks for first (players, event, date, result) and record text
 * wrapped to a width, whole, whatever its length. */
#ifndef KIFU_CLI_RECORD_VIEW_H
#define KIFU_CLI_RECORD_VIEW_H

#include <stddef.h>

#include "kifu.h"

/* Lines of text to lay out (each a new string, no newline). */
typedef struct cli_lines {
    char **v;
    size_t n, cap;
} cli_lines;

/* Append text of any length ('\n' starts a new line) wrapped to `width` display columns
 * (kanji two), never inside a character: the first line after `first`, the next ones
 * after `rest` (e.g. "* " and "  "; both count in the width). Control characters become
 * '?'. 0, or -1 when out of memory. */
int cli_lines_wrap(cli_lines *l, const char *text, int width, const char *first,
                   const char *rest);
void cli_lines_free(cli_lines *l);

/* The bookmarks ("& name") and comments ("* text", whole) of node n, wrapped to width.
 * 0, or -1 when out of memory. */
int cli_node_notes(cli_lines *l, const kifu_node *n, int width);

/* The record's players, event and date (from the header), result (from the main
 * line's ending, as a KIF まで line says it: "まで77手で先手の勝ち (投了)") and what was
 * played (its tags: "戦型：☗四間飛車 ☖力戦 (対抗形)", "囲い：☗美濃囲い ☖舟囲い"), wrapped
 * to width; nothing for what the record does not say. 0, or -1 when out of memory. */
int cli_record_about(cli_lines *l, const kifu_record *rec, int width);

#endif
