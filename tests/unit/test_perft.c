/* test_perft.c: perft counts from the tests/perft files, and a cross-check of the engine against
 * a deliberately simple reference generator written here: a mailbox, every piece's steps
 * spelled out, legality by playing the move and scanning every enemy piece for an attack
 * on the king, 打ち歩詰め by trying every reply. It shares no code with src/rules. */
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "harness.h"
#include "kifu.h"
#include "rules/engine.h"

/* ---- the reference generator ---- */

typedef struct rmove {
    int fx, fy, tx, ty, piece, promote; /* fx = 0: a drop of `piece` */
} rmove;

typedef struct dir {
    int dx, dy, slide;
} dir;

/* Directions for black (dy = -1 is forward); white negates dy. */
static int dirs_of(int kind, dir *d)
{
    static const dir gold[] = {{-1, -1, 0}, {0, -1, 0}, {1, -1, 0},
                               {-1, 0, 0},  {1, 0, 0},  {0, 1, 0}};
    int n = 0;
    switch (kind) {
    case KIFU_FU:
        d[n++] = (dir){0, -1, 0};
        break;
    case KIFU_KY:
        d[n++] = (dir){0, -1, 1};
        break;
    case KIFU_KE:
        d[n++] = (dir){-1, -2, 0};
        d[n++] = (dir){1, -2, 0};
        break;
    case KIFU_GI:
        d[n++] = (dir){-1, -1, 0};
        d[n++] = (dir){0, -1, 0};
        d[n++] = (dir){1, -1, 0};
        d[n++] = (dir){-1, 1, 0};
        d[n++] = (dir){1, 1, 0};
        break;
    case KIFU_KI:
    case KIFU_TO:
    case KIFU_NY:
    case KIFU_NK:
    case KIFU_NG:
        for (int i = 0; i < 6; i++)
            d[n++] = gold[i];
        break;
    case KIFU_OU:
    case KIFU_KA:
    case KIFU_HI:
    case KIFU_UM:
    case KIFU_RY:
        for (int dx = -1; dx <= 1; dx++)
            for (int dy = -1; dy <= 1; dy++) {
                if (!dx && !dy)
                    continue;
                int diag = dx && dy;
                int slide = (diag && (kind == KIFU_KA || kind == KIFU_UM)) ||
                            (!diag && (kind == KIFU_HI || kind == KIFU_RY));
                if (kind == KIFU_KA && !diag)
                    continue;
                if (kind == KIFU_HI && diag)
                    continue;
                d[n++] = (dir){dx, dy, slide};
            }
        break;
    }
    return n;
}

static int at(const kifu_board *b, int x, int y)
{
    return b->sq[(x - 1) * 9 + y - 1];
}
static int inside(int x, int y)
{
    return x >= 1 && x <= 9 && y >= 1 && y <= 9;
}

/* Does any piece of color `by` attack (x, y)? */
static int attacked(const kifu_board *b, int x, int y, int by)
{
    for (int fx = 1; fx <= 9; fx++)
        for (int fy = 1; fy <= 9; fy++) {
            int cp = at(b, fx, fy);
            if (!cp || (cp >> 4) != by)
                continue;
            dir d[8];
            int n = dirs_of(cp & 15, d);
            for (int i = 0; i < n; i++) {
                int dy = by ? -d[i].dy : d[i].dy;
                for (int tx = fx + d[i].dx, ty = fy + dy; inside(tx, ty);
                     tx += d[i].dx, ty += dy) {
                    if (tx == x && ty == y)
                        return 1;
                    if (at(b, tx, ty) || !d[i].slide)
                        break;
                }
            }
        }
    return 0;
}

static int king_attacked(const kifu_board *b, int c)
{
    for (int x = 1; x <= 9; x++)
        for (int y = 1; y <= 9; y++)
            if (at(b, x, y) == (KIFU_OU | c << 4))
                return attacked(b, x, y, !c);
    return 0; /* no king: never in check */
}

static void play(kifu_board *b, const rmove *m)
{
    int c = b->color;
    if (!m->fx) {
        b->hands[c][m->piece]--;
    } else {
        int cap = at(b, m->tx, m->ty) & 15;
        if (cap)
            b->hands[c][cap == KIFU_OU ? 0 : (cap & 7)]++;
        b->sq[(m->fx - 1) * 9 + m->fy - 1] = 0;
    }
    int k = m->promote ? m->piece | 8 : m->piece;
    b->sq[(m->tx - 1) * 9 + m->ty - 1] = (uint8_t)(k | c << 4);
    b->color = (uint8_t)!c;
}

/* Last rank index from color c's view: 1 is the far rank. */
static int far(int c, int y)
{
    return c ? 10 - y : y;
}

static int ref_legal(const kifu_board *b, rmove *out);

static int add_if_legal(const kifu_board *b, const rmove *m, rmove *out, int n)
{
    kifu_board nb = *b;
    play(&nb, m);
    if (king_attacked(&nb, b->color))
        return n;
    int ahead = m->ty + (b->color ? 1 : -1); /* the square the dropped pawn attacks */
    if (!m->fx && m->piece == KIFU_FU && inside(m->tx, ahead) &&
        at(&nb, m->tx, ahead) == (KIFU_OU | nb.color << 4)) {
        rmove replies[700];
        if (ref_legal(&nb, replies) == 0)
            return n; /* 打ち歩詰め */
    }
    out[n] = *m;
    return n + 1;
}

static int ref_legal(const kifu_board *b, rmove *out)
{
    int n = 0, c = b->color;
    for (int fx = 1; fx <= 9; fx++)
        for (int fy = 1; fy <= 9; fy++) {
            int cp = at(b, fx, fy);
            if (!cp || (cp >> 4) != c)
                continue;
            int k = cp & 15;
            dir d[8];
            int nd = dirs_of(k, d);
            for (int i = 0; i < nd; i++) {
                int dy = c ? -d[i].dy : d[i].dy;
                for (int tx = fx + d[i].dx, ty = fy + dy; inside(tx, ty);
                     tx += d[i].dx, ty += dy) {
                    int tp = at(b, tx, ty);
                    if (tp && ((tp >> 4) == c || (tp & 15) == KIFU_OU))
                        break; /* own piece, or a king: kings are never captured */
                    int promotable = k >= KIFU_FU && k <= KIFU_HI;
                    int zone = far(c, fy) <= 3 || far(c, ty) <= 3;
                    int dead = ((k == KIFU_FU || k == KIFU_KY) && far(c, ty) == 1) ||
                               (k == KIFU_KE && far(c, ty) <= 2);
                    rmove m = {fx, fy, tx, ty, k, 0};
                    if (!dead)
                        n = add_if_legal(b, &m, out, n);
                    if (promotable && zone) {
                        m.promote = 1;
                        n = add_if_legal(b, &m, out, n);
                    }
                    if (tp || !d[i].slide)
                        break;
                }
            }
        }
    for (int k = KIFU_FU; k <= KIFU_KI; k++) {
        if (!b->hands[c][k])
            continue;
        for (int x = 1; x <= 9; x++) {
            int pawn_on_file = 0;
            for (int y = 1; y <= 9; y++)
                if (at(b, x, y) == (KIFU_FU | c << 4))
                    pawn_on_file = 1;
            if (k == KIFU_FU && pawn_on_file)
                continue;
            for (int y = 1; y <= 9; y++) {
                if (at(b, x, y))
                    continue;
                if ((k == KIFU_FU || k == KIFU_KY) && far(c, y) == 1)
                    continue;
                if (k == KIFU_KE && far(c, y) <= 2)
                    continue;
                rmove m = {0, 0, x, y, k, 0};
                n = add_if_legal(b, &m, out, n);
            }
        }
    }
    return n;
}

static uint64_t ref_perft(const kifu_board *b, int depth)
{
    if (depth == 0)
        return 1;
    rmove ms[700];
    int n = ref_legal(b, ms);
    if (depth == 1)
        return (uint64_t)n;
    uint64_t t = 0;
    for (int i = 0; i < n; i++) {
        kifu_board nb = *b;
        play(&nb, &ms[i]);
        t += ref_perft(&nb, depth - 1);
    }
    return t;
}

static void ref_usi(const rmove *m, char *buf)
{
    if (m->fx)
        sprintf(buf, "%d%c%d%c%s", m->fx, 'a' + m->fy - 1, m->tx, 'a' + m->ty - 1,
                m->promote ? "+" : "");
    else
        sprintf(buf, "%c*%d%c", " PLNSBRGK"[m->piece], m -> tx, 'a' + m->ty - 1);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(a, b);
}

/* Compare the engine's and the reference's move lists at p; 0 when equal. */
static int compare_moves(kifu_position *p, const char *where)
{
    static kifu_move em[600];
    static rmove rm[700];
    static char es[600][8], rs[700][8];
    kifu_board b;
    kifu_position_board(p, &b);
    size_t ne = kifu_position_legal_moves(p, em, 600);
    int nr = ref_legal(&b, rm);
    for (size_t i = 0; i < ne; i++)
        kifu_move_usi(&em[i], es[i]);
    for (int i = 0; i < nr; i++)
        ref_usi(&rm[i], rs[i]);
    qsort(es, ne, 8, cmp_str);
    qsort(rs, (size_t)nr, 8, cmp_str);
    int bad = (int)ne != nr;
    for (size_t i = 0; !bad && i < ne; i++)
        bad = strcmp(es[i], rs[i]) != 0;
    if (bad) {
        char *sfen = kifu_position_sfen(p, 1);
        printf("  move lists differ at %s: %s\n    engine %zu:", where, sfen, ne);
        for (size_t i = 0; i < ne; i++)
            printf(" %s", es[i]);
        printf("\n    reference %d:", nr);
        for (int i = 0; i < nr; i++)
            printf(" %s", rs[i]);
        printf("\n");
        kifu_free(sfen);
    }
    return bad;
}

/* ---- perft files ---- */

/* Run every "sfen ;D1 n ;D2 n" line of one file; the reference is also run on the
 * depths up to ref_depth. */
static void run_file(const char *name, int ref_depth)
{
    char path[512];
    snprintf(path, sizeof path, "%s/perft/%s", KIFU_TESTS_DIR, name);
    char *text = t_read_file(path, NULL);
    CHECK(text != NULL);
    if (!text)
        return;
    kifu_position *p = kifu_position_new();
    int lines = 0;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        if (line[0] == '#' || !line[0])
            continue;
        char *semi = strchr(line, ';');
        if (!semi)
            continue;
        char sfen[256];
        snprintf(sfen, sizeof sfen, "%.*s", (int)(semi - line), line);
        kifu_error err;
        kifu_error_clear(&err);
        if (kifu_position_set_sfen(p, sfen, &err) < 0) {
            printf("  %s: %s: %s\n", name, sfen, err.message);
            t_failed_checks++;
            continue;
        }
        lines++;
        kifu_board b;
        kifu_position_board(p, &b);
        for (char *d = semi; d; d = strchr(d + 1, ';')) {
            int depth;
            unsigned long long want;
            if (sscanf(d, ";D%d %llu", &depth, &want) != 2)
                continue;
            unsigned long long got = kifu_perft(p, depth);
            if (got != want) {
                printf("  %s: %s depth %d\n", name, sfen, depth);
                CHECK_INT(got, want);
            }
            if (depth <= ref_depth) {
                unsigned long long ref = ref_perft(&b, depth);
                if (ref != want) {
                    printf("  %s: reference disagrees: %s depth %d\n", name, sfen, depth);
                    CHECK_INT(ref, want);
                }
            }
        }
    }
    CHECK(lines > 0);
    kifu_position_free(p);
    free(text);
}

TEST(published_counts)
{
    run_file("published.txt", 2);
}
TEST(own_positions)
{
    run_file("rules.txt", 3);
}

/* Every node of a two-ply tree: the same move lists as the reference. */
static void compare_tree(kifu_position *p, int depth, const char *where, int *bad)
{
    if (*bad)
        return;
    *bad |= compare_moves(p, where);
    if (depth == 0)
        return;
    kifu_move ms[600];
    size_t n = kifu_position_legal_moves(p, ms, 600);
    for (size_t i = 0; i < n && !*bad; i++) {
        kifu_move m = ms[i];
        if (kifu_position_play(p, &m, NULL) < 0) {
            *bad = 1;
            printf("  play failed\n");
            break;
        }
        compare_tree(p, depth - 1, where, bad);
        kifu_position_undo(p);
    }
}

TEST(same_moves_as_reference_on_files)
{
    static const char *const sfens[] = {
        "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1",
        "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1",
    };
    kifu_position *p = kifu_position_new();
    for (size_t i = 0; i < sizeof sfens / sizeof *sfens; i++) {
        int bad = 0;
        CHECK_INT(kifu_position_set_sfen(p, sfens[i], NULL), 0);
        compare_tree(p, 1, sfens[i], &bad);
        CHECK(!bad);
    }
    kifu_position_free(p);
}

/* Random games from the start: at every position the engine's moves equal the reference's,
 * and every generated move survives play/undo with the same hash. */
TEST(random_games_match_reference)
{
    uint64_t seed = 12345;
    kifu_position *p = kifu_position_new();
    int bad = 0;
    static kifu_move ms[600];
    /* KIFU_PERFT_GAMES=n plays more games (a longer stress run by hand). */
    const char *env = getenv("KIFU_PERFT_GAMES");
    int games = env ? atoi(env) : 150;
    for (int game = 0; game < games && !bad; game++) {
        static const char *const starts[] = {
            "startpos",
            "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
            "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1",
        };
        kifu_position_set_sfen(p, starts[game % 3], NULL);
        for (int ply = 0; ply < 160 && !bad; ply++) {
            bad |= compare_moves(p, "random game");
            size_t n = kifu_position_legal_moves(p, ms, 600);
            /* perft 1 counts without generating: it must agree with the list */
            if (kifu_perft(p, 1) != n) {
                char *sf = kifu_position_sfen(p, 1);
                printf("  perft 1 = %llu, %zu legal moves: %s\n",
                       (unsigned long long)kifu_perft(p, 1), n, sf);
                kifu_free(sf);
                bad = 1;
            }
            if (!n)
                break;
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            /* Prefer captures, checks come by chance: games get messy quickly. */
            size_t pick = (size_t)(seed >> 33) % n;
            for (size_t t = 0; t < 3; t++) {
                size_t q = (size_t)((seed >> (10 + 7 * t)) % n);
                if (ms[q].capture)
                    pick = q;
            }
            uint64_t h = kifu_position_hash(p);
            kifu_move m = ms[pick];
            CHECK_INT(kifu_position_play(p, &m, NULL), 0);
            kifu_position_undo(p);
            CHECK(kifu_position_hash(p) == h);
            m = ms[pick];
            kifu_position_play(p, &m, NULL);
        }
    }
    CHECK(!bad);
    kifu_position_free(p);
}

/* Random sparse positions, pieces crowded around the kings and pawns in both hands: the
 * places where pins, evasions and 打ち歩詰め meet. Move lists and perft 2 must match the
 * reference at each. */
static unsigned rnd(uint64_t *seed)
{
    *seed = *seed * 6364136223846793005ull + 1442695040888963407ull;
    return (unsigned)(*seed >> 33);
}
#define RND() rnd(&seed)

/* Does the side to move have a pawn drop refused as 打ち歩詰め here? */
static int has_uchifuzume(kifu_position *p)
{
    kifu_move m = {0};
    m.color = (uint8_t)kifu_position_side(p);
    m.piece = KIFU_FU;
    m.promote = -1;
    for (int x = 1; x <= 9; x++)
        for (int y = 1; y <= 9; y++) {
            const char *r = NULL;
            m.to_x = (uint8_t)x, m.to_y = (uint8_t)y;
            if (!kifu_position_is_legal(p, &m, &r) && r && strstr(r, "打ち歩詰め"))
                return 1;
        }
    return 0;
}

TEST(random_positions_match_reference)
{
    uint64_t seed = 987654321;
    kifu_position *p = kifu_position_new();
    int bad = 0, tried = 0, uchi = 0;
    const char *env = getenv("KIFU_PERFT_POSITIONS");
    int want = env ? atoi(env) : 400;
    for (int iter = 0; tried < want && iter < want * 20 && !bad; iter++) {
        kifu_board b;
        memset(&b, 0, sizeof b);
        int wk = (int)(RND() % 81), bk = (int)(RND() % 81);
        if (wk == bk)
            continue;
        b.sq[wk] = KIFU_OU | 16;
        if (RND() % 8)
            b.sq[bk] = KIFU_OU; /* sometimes black has no king (tsume) */
        int n = 3 + (int)(RND() % 8);
        for (int i = 0; i < n; i++) {
            /* near the white king most of the time */
            int x = (wk / 9 + 1) + (int)(RND() % 5) - 2,
                y = (wk % 9 + 1) + (int)(RND() % 5) - 2;
            if (RND() % 4 == 0)
                x = 1 + (int)(RND() % 9), y = 1 + (int)(RND() % 9);
            if (x < 1 || x > 9 || y < 1 || y > 9 || b.sq[KIFU_SQ(x, y)])
                continue;
            static const int kinds[] = {1, 1, 2, 3, 4, 5, 6, 7, 7, 9, 13, 14};
            b.sq[KIFU_SQ(x, y)] =
                (uint8_t)(kinds[RND() % 12] | (RND() % 3 == 0 ? 16 : 0));
        }
        b.hands[0][KIFU_FU] = (uint8_t)(1 + RND() % 2);
        b.hands[1][KIFU_FU] = (uint8_t)(RND() % 2);
        if (RND() % 2)
            b.hands[0][1 + RND() % 7]++;
        b.color = (uint8_t)(RND() % 4 == 0);
        /* Positions with dead pieces, 二歩 or the side not to move in check are set as
         * loose record starts (every fourth one), else skipped. */
        if (kifu_position_set_board(p, &b, NULL) < 0 &&
            (iter % 4 || kifu__position_set_board_loose(p, &b, NULL) < 0))
            continue;
        tried++;
        uchi += has_uchifuzume(p);
        bad |= compare_moves(p, "random position");
        if (!bad) {
            kifu_position_board(p, &b);
            unsigned long long e = kifu_perft(p, 2), r = ref_perft(&b, 2);
            if (e != r) {
                char *sf = kifu_position_sfen(p, 1);
                printf("  perft 2 %llu, reference %llu: %s\n", e, r, sf);
                kifu_free(sf);
                bad = 1;
            }
        }
    }
    CHECK_INT(tried, want);
    CHECK(!bad);
    printf("  %d random positions, %d with a pawn drop refused as 打ち歩詰め\n", tried,
           uchi);
    CHECK(uchi > 0); /* the rule was exercised */
    kifu_position_free(p);
}

/* Run the kifu tool; its stdout into out, the exit code returned. */
static int run_cli(const char *args, char *out, size_t cap)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "'%s' %s 2>/dev/null", KIFU_CLI_PATH, args);
    FILE *f = popen(cmd, "r");
    if (!f)
        return -1;
    size_t n = fread(out, 1, cap - 1, f);
    out[n] = 0;
    int st = pclose(f);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

TEST(cli_perft)
{
    static char out[8192];
    CHECK_INT(run_cli("perft startpos 2", out, sizeof out), 0);
    CHECK_STR(out, "900\n");
    CHECK_INT(run_cli("perft 'position startpos moves 7g7f' 1", out, sizeof out), 0);
    CHECK_STR(out, "30\n");
    CHECK_INT(run_cli("perft --divide startpos 2", out, sizeof out), 0);
    CHECK(strstr(out, "7g7f: 30\n") != NULL);
    CHECK(strstr(out, "\n900\n") != NULL);
    int lines = 0;
    for (char *c = out; *c; c++)
        lines += *c == '\n';
    CHECK_INT(lines, 31);
    CHECK_INT(run_cli("perft --help", out, sizeof out), 0);
    CHECK(strstr(out, "usage") != NULL);
    CHECK_INT(run_cli("perft", out, sizeof out), 2);
    CHECK_INT(run_cli("perft startpos", out, sizeof out), 2);
    CHECK_INT(run_cli("perft startpos x", out, sizeof out), 2);
    CHECK_INT(run_cli("perft --bogus startpos 1", out, sizeof out), 2);
    CHECK_INT(run_cli("perft 'lnsgkgsnl/9 b - 1' 1", out, sizeof out), 1);
    CHECK_STR(out, "");
}

/* `test_perft --ref SFEN DEPTH` prints the reference's counts (to write tests/perft). */
int main(int argc, char **argv)
{
    if (argc == 4 && strcmp(argv[1], "--ref") == 0) {
        kifu_position *p = kifu_position_new();
        kifu_board b;
        if (kifu_position_set_sfen(p, argv[2], NULL) < 0)
            return 2;
        kifu_position_board(p, &b);
        printf("%s", argv[2]);
        for (int d = 1; d <= atoi(argv[3]); d++)
            printf(" ;D%d %llu", d, (unsigned long long)ref_perft(&b, d));
        printf("\n");
        kifu_position_free(p);
        return 0;
    }
    RUN(published_counts);
    RUN(own_positions);
    RUN(same_moves_as_reference_on_files);
    RUN(random_games_match_reference);
    RUN(random_positions_match_reference);
    RUN(cli_perft);
    return t_finish();
}
