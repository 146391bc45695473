/* term.h: the raw terminal for the interactive commands (replay, play): key decoding,
 * window size and resize notice, and restoring the terminal on every way out. */
#ifndef KIFU_TERM_H
#define KIFU_TERM_H

#include <stddef.h>
#include <stdio.h>

enum {
    KEY_NONE = -1,    /* timeout */
    KEY_EOF = -2,     /* end of input or a read error */
    KEY_RESIZE = -3,  /* the window changed size (SIGWINCH) */
    KEY_UNKNOWN = -4, /* an escape sequence we do not use */
    KEY_UP = 0x100,
    KEY_DOWN,
    KEY_LEFT,
    KEY_RIGHT,
    KEY_HOME,
    KEY_END,
    KEY_PGUP,
    KEY_PGDN,
    KEY_DELETE,
    KEY_ESC,
};

/* Put the terminal in raw mode when stdin is a terminal (and switch to the alternate
 * screen when `screen` is set). Installs the restore for exit and for SIGINT, SIGTERM,
 * SIGHUP, SIGQUIT, and the SIGWINCH notice. Returns 1 in raw mode, 0 when stdin is not a
 * terminal (keys are then read from it as plain bytes), -1 on failure. */
int term_open(int screen);
/* Restore the terminal as it was. Safe to call more than once. */
void term_close(void);
/* Next key, waiting at most timeout_ms (-1: forever). Bytes >= 0x80 come one at a time.
 */
int term_key(int timeout_ms);
/* Window size; 24 x 80 when unknown. */
void term_size(int *rows, int *cols);
/* The same for the terminal on another descriptor (the progress bar's stderr). */
void term_size_of(int fd, int *rows, int *cols);
/* Read a line with echo and backspace in raw mode (Enter ends, Esc cancels: returns -1;
 * end of input: -2). Without raw mode reads a plain line. The prompt is written first. */
int term_read_line(const char *prompt, char *buf, size_t cap);
/* The same on a viewer's screen: the prompt on the bottom row when `positioned` (stdout is
 * a terminal, the screen drawn in place), else after what was written. */
int term_ask(int positioned, const char *prompt, char *buf, size_t cap);

/* Display columns of UTF-8 text s[0..n): 2 for characters from U+1000 up (kanji, kana,
 * full-width forms), 1 for others. Rough, but a line of Japanese is laid out by it. */
int term_columns(const char *s, size_t n);
/* Bytes of the longest UTF-8 prefix of s[0..n) no wider than cols: never ends inside a
 * character. */
size_t term_fit(const char *s, size_t n, int cols);
/* Where the shortest UTF-8 suffix of s[0..n) no wider than cols starts (a byte offset). */
size_t term_fit_tail(const char *s, size_t n, int cols);
/* What a key means in the record viewers (kifu replay, of a shogi record or an MSF
 * file): one key map for both, so that they cannot drift apart. */
typedef enum term_nav {
    NAV_OTHER = 0, /* not a viewer key: the caller may give it a meaning */
    NAV_QUIT,      /* q Q ^C ^D, end of input */
    NAV_REDRAW,    /* resize, ^L */
    NAV_IDLE,      /* a timeout: nothing to do */
    NAV_NEXT,      /* -> down f j space Enter */
    NAV_BACK,      /* <- up b k Backspace */
    NAV_PAGE_DOWN, /* ten moves */
    NAV_PAGE_UP,
    NAV_START,     /* Home < 0 */
    NAV_END,       /* End > G */
    NAV_FORK_PREV, /* [ */
    NAV_FORK_NEXT, /* ] */
    NAV_GOTO,      /* g */
    NAV_FLIP,      /* r */
    NAV_HELP,      /* ? h */
} term_nav;
term_nav term_nav_of(int key);

/* Screen composition for the interactive views. When `positioned` (stdout is a
 * terminal) text is placed with cursor addressing; otherwise it is written as plain
 * lines, which is what a pipe or a test reads. */
/* Go to (row, col) and clear the rest of that row. */
void term_put_at(FILE *f, int positioned, int row, int col);
/* The lines of text one under the other from (row, col); `clear` erases the rest of each
 * row first (not for text drawn beside something already there). Returns the row after
 * the last line. */
int term_put_lines(FILE *f, int positioned, const char *text, int row, int col,
                   int clear);
/* End a line drawn with term_put_at: nothing when positioned, else a newline. */
void term_end_line(FILE *f, int positioned);
/* Write a composed screen to standard output at once (retrying after signals). */
void term_show(const char *text, size_t len);

#endif
