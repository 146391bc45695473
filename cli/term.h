/* term.h: the raw terminal for the interactive commands (replay, play): key decoding,
 * window size and resize notice, and restoring the terminal on every way out. */
#ifndef KIFU_TERM_H
#define KIFU_TERM_H

#include <stddef.h>

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

/* Display columns of UTF-8 text s[0..n): 2 for characters from U+1000 up (kanji, kana,
 * full-width forms), 1 for others. Rough, but a line of Japanese is laid out by it. */
int term_columns(const char *s, size_t n);
/* Bytes of the longest UTF-8 prefix of s[0..n) no wider than cols: never ends inside a
 * character. */
size_t term_fit(const char *s, size_t n, int cols);
/* Where the shortest UTF-8 suffix of s[0..n) no wider than cols starts (a byte offset). */
size_t term_fit_tail(const char *s, size_t n, int cols);

#endif
