/* term.c: raw terminal I/O (see term.h). */
#include "term.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

static struct termios saved;
static volatile sig_atomic_t raw_on, screen_on, resized;
static int handlers_set;

static void write_all(const char *s)
{
    size_t n = strlen(s);
    while (n) {
        ssize_t w = write(STDOUT_FILENO, s, n);
        if (w <= 0) {
            if (w < 0 && errno == EINTR)
                continue;
            return;
        }
        s += w;
        n -= (size_t)w;
    }
}

/* Only async-signal-safe calls: it also runs from the signal handlers. */
void term_close(void)
{
    if (screen_on) {
        write_all("\033[0m\033[?25h\033[?1049l");
        screen_on = 0;
    }
    if (raw_on) {
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved);
        raw_on = 0;
    }
}

static void on_fatal(int sig)
{
    term_close();
    signal(sig, SIG_DFL);
    raise(sig);
}

static void on_winch(int sig)
{
    (void)sig;
    resized = 1;
}

static void set_handler(int sig, void (*fn)(int))
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = fn;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = 0; /* no SA_RESTART: a resize interrupts the wait for a key */
    sigaction(sig, &sa, NULL);
}

int term_open(int screen)
{
    if (!handlers_set) {
        atexit(term_close);
        set_handler(SIGINT, on_fatal);
        set_handler(SIGTERM, on_fatal);
        set_handler(SIGHUP, on_fatal);
        set_handler(SIGQUIT, on_fatal);
        set_handler(SIGWINCH, on_winch);
        signal(SIGPIPE, SIG_IGN);
        handlers_set = 1;
    }
    if (!isatty(STDIN_FILENO))
        return 0;
    if (tcgetattr(STDIN_FILENO, &saved))
        return -1;
    struct termios t = saved;
    t.c_iflag &= (tcflag_t) ~(BRKINT | ICRNL | INPCK | ISTRIP | IXON);
    t.c_oflag &= (tcflag_t) ~(OPOST);
    t.c_cflag |= CS8;
    t.c_lflag &= (tcflag_t) ~(ECHO | ICANON | IEXTEN | ISIG);
    t.c_cc[VMIN] = 1;
    t.c_cc[VTIME] = 0;
    if (tcsetattr(STDIN_FILENO, TCSAFLUSH, &t))
        return -1;
    raw_on = 1;
    if (screen && isatty(STDOUT_FILENO)) {
        write_all("\033[?1049h\033[?25l");
        screen_on = 1;
    }
    return 1;
}

void term_size(int *rows, int *cols)
{
    term_size_of(STDOUT_FILENO, rows, cols);
}

void term_size_of(int fd, int *rows, int *cols)
{
    struct winsize ws;
    *rows = 24;
    *cols = 80;
    if (ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_row > 0 && ws.ws_col > 0) {
        *rows = ws.ws_row;
        *cols = ws.ws_col;
    }
}

/* A byte read ahead by escape() that belongs to the next key, or -1. */
static int pending = -1;

/* One byte, waiting at most timeout_ms. KEY_NONE, KEY_EOF or KEY_RESIZE otherwise.
 * Inside an escape sequence (in_seq) a resize is not reported but left for the next key:
 * a SIGWINCH between ESC and "[D" must not split the arrow into ESC, '[' and 'D'. */
static int byte(int timeout_ms, int in_seq)
{
    if (pending >= 0) {
        int c = pending;
        pending = -1;
        return c;
    }
    for (;;) {
        if (resized && !in_seq) {
            resized = 0;
            return KEY_RESIZE;
        }
        struct pollfd pfd = {.fd = STDIN_FILENO, .events = POLLIN};
        int r = poll(&pfd, 1, timeout_ms);
        if (r < 0) {
            if (errno == EINTR)
                continue;
            return KEY_EOF;
        }
        if (r == 0)
            return KEY_NONE;
        unsigned char c;
        ssize_t n = read(STDIN_FILENO, &c, 1);
        if (n == 1)
            return c;
        if (n < 0 && (errno == EINTR || errno == EAGAIN))
            continue;
        return KEY_EOF; /* end of input, or POLLHUP */
    }
}

/* After ESC: decode CSI / SS3 sequences; a lone ESC is KEY_ESC. */
static int escape(void)
{
    int c = byte(50, 1);
    if (c < 0)
        return KEY_ESC;
    if (c != '[' && c != 'O') {
        pending = c; /* Esc, then another key (maybe another escape sequence) */
        return KEY_ESC;
    }
    int params = 0, num = 0;
    for (int i = 0; i < 16; i++) {
        int d = byte(50, 1);
        if (d < 0)
            return KEY_UNKNOWN;
        if (d >= '0' && d <= '9') {
            if (params == 0)
                num = num * 10 + (d - '0');
            continue;
        }
        if (d == ';') {
            params++;
            continue;
        }
        switch (d) {
        case 'A':
            return KEY_UP;
        case 'B':
            return KEY_DOWN;
        case 'C':
            return KEY_RIGHT;
        case 'D':
            return KEY_LEFT;
        case 'H':
            return KEY_HOME;
        case 'F':
            return KEY_END;
        case '~':
            switch (num) {
            case 1:
            case 7:
                return KEY_HOME;
            case 4:
            case 8:
                return KEY_END;
            case 3:
                return KEY_DELETE;
            case 5:
                return KEY_PGUP;
            case 6:
                return KEY_PGDN;
            }
            return KEY_UNKNOWN;
        }
        if (d >= 0x40 && d <= 0x7e)
            return KEY_UNKNOWN;
    }
    return KEY_UNKNOWN;
}

int term_key(int timeout_ms)
{
    int c = byte(timeout_ms, 0);
    if (c == 0x1b && raw_on)
        return escape();
    return c;
}

int term_ask(int positioned, const char *prompt, char *buf, size_t cap)
{
    int rows, cols;
    term_size(&rows, &cols);
    char p[160];
    if (positioned)
        snprintf(p, sizeof p, "\033[%d;1H\033[K%s", rows, prompt);
    else
        snprintf(p, sizeof p, "%s", prompt);
    return term_read_line(p, buf, cap);
}

int term_read_line(const char *prompt, char *buf, size_t cap)
{
    if (cap == 0)
        return -1;
    buf[0] = 0;
    if (prompt) {
        write_all(prompt);
        if (screen_on)
            write_all("\033[?25h");
    }
    size_t n = 0;
    int rc = -1;
    for (;;) {
        int c = raw_on ? term_key(-1) : byte(-1, 0);
        if (c == KEY_RESIZE || c == KEY_NONE)
            continue;
        if (c == KEY_EOF) {
            rc = n ? 0 : -2;
            break;
        }
        if (c == '\r' || c == '\n') {
            rc = 0;
            break;
        }
        if (c == KEY_ESC || c == 3 || c == 7) { /* Esc, ^C, ^G cancel */
            rc = -1;
            break;
        }
        if (c == 127 || c == 8) {
            if (n) {
                /* back over one UTF-8 character */
                do
                    n--;
                while (n && ((unsigned char)buf[n] & 0xC0) == 0x80);
                if (raw_on)
                    write_all("\b \b");
            }
            buf[n] = 0;
            continue;
        }
        if (c < 0 || c >= 0x100 || (c < 0x20 && c != '\t'))
            continue;
        if (n + 1 < cap) {
            buf[n++] = (char)c;
            buf[n] = 0;
            if (raw_on) {
                char e[2] = {(char)c, 0};
                write_all(e);
            }
        }
    }
    if (screen_on)
        write_all("\033[?25l");
    if (raw_on)
        write_all("\r\n");
    return rc;
}

int term_columns(const char *s, size_t n)
{
    int w = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if ((c & 0xC0) == 0x80)
            continue;
        w += c >= 0xE1 ? 2 : 1;
    }
    return w;
}

size_t term_fit(const char *s, size_t n, int cols)
{
    size_t i = 0;
    int w = 0;
    while (i < n) {
        size_t j = i + 1;
        while (j < n && ((unsigned char)s[j] & 0xC0) == 0x80)
            j++;
        int cw = (unsigned char)s[i] >= 0xE1 ? 2 : 1;
        if (w + cw > cols)
            break;
        w += cw;
        i = j;
    }
    return i;
}

size_t term_fit_tail(const char *s, size_t n, int cols)
{
    size_t i = n;
    int w = 0;
    while (i > 0) {
        size_t j = i - 1;
        while (j > 0 && ((unsigned char)s[j] & 0xC0) == 0x80)
            j--;
        int cw = (unsigned char)s[j] >= 0xE1 ? 2 : 1;
        if (w + cw > cols)
            break;
        w += cw;
        i = j;
    }
    return i;
}

void term_put_at(FILE *f, int positioned, int row, int col)
{
    if (positioned)
        fprintf(f, "\033[%d;%dH\033[K", row, col);
}

int term_put_lines(FILE *f, int positioned, const char *text, int row, int col, int clear)
{
    while (text && *text) {
        const char *e = strchr(text, '\n');
        size_t len = e ? (size_t)(e - text) : strlen(text);
        if (clear)
            term_put_at(f, positioned, row, col);
        else if (positioned)
            fprintf(f, "\033[%d;%dH", row, col);
        row++;
        fwrite(text, 1, len, f);
        if (!positioned)
            fputc('\n', f);
        text += len + (e ? 1 : 0);
    }
    return row;
}

void term_end_line(FILE *f, int positioned)
{
    if (!positioned)
        fputc('\n', f);
}

void term_show(const char *text, size_t len)
{
    size_t off = 0;
    while (off < len) {
        ssize_t w = write(STDOUT_FILENO, text + off, len - off);
        if (w < 0 && errno == EINTR)
            continue; /* a resize signal arrived while drawing */
        if (w <= 0)
            break;
        off += (size_t)w;
    }
}

term_nav term_nav_of(int key)
{
    switch (key) {
    case KEY_EOF:
    case 'q':
    case 'Q':
    case 3: /* ^C */
    case 4: /* ^D */
        return NAV_QUIT;
    case KEY_RESIZE:
    case 12: /* ^L */
        return NAV_REDRAW;
    case KEY_NONE:
        return NAV_IDLE;
    case KEY_RIGHT:
    case KEY_DOWN:
    case 'f':
    case 'j':
    case ' ':
    case '\r':
    case '\n':
        return NAV_NEXT;
    case KEY_LEFT:
    case KEY_UP:
    case 'b':
    case 'k':
    case 127:
        return NAV_BACK;
    case KEY_PGDN:
        return NAV_PAGE_DOWN;
    case KEY_PGUP:
        return NAV_PAGE_UP;
    case KEY_HOME:
    case '<':
    case '0':
        return NAV_START;
    case KEY_END:
    case '>':
    case 'G':
        return NAV_END;
    case '[':
        return NAV_FORK_PREV;
    case ']':
        return NAV_FORK_NEXT;
    case 'g':
        return NAV_GOTO;
    case 'r':
        return NAV_FLIP;
    case '?':
    case 'h':
        return NAV_HELP;
    }
    return NAV_OTHER;
}
