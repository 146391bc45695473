/* attack.c: building the attack tables once. */
#include <pthread.h>
#include <string.h>

#include "rules/attack.h"
#include "rules/engine.h"
#include "rules/zobrist.h"

kifu__attack_tables kifu__att;

/* (dx, dy) of each ray direction, seen from the board (x grows to the left, y downwards);
 * the square number changes by dx*9 + dy. */
static const int ray_dx[DIR_NB] = {0, 1, 1, 1, 0, -1, -1, -1};
static const int ray_dy[DIR_NB] = {1, 0, 1, -1, -1, 0, -1, 1};

static int on_board(int x, int y)
{
    return x >= 1 && x <= 9 && y >= 1 && y <= 9;
}

/* Steps of each non-sliding kind for black (dy < 0 is forward); white mirrors dy. */
static void add_steps(bb_t *b, int color, int sq, const int (*d)[2], int n)
{
    int x = SQ_X(sq), y = SQ_Y(sq);
    for (int i = 0; i < n; i++) {
        int nx = x + d[i][0], ny = y + (color == BLACK ? d[i][1] : -d[i][1]);
        if (on_board(nx, ny))
            *b |= BB_SQ(SQ(nx, ny));
    }
}

static const int st_pawn[][2] = {{0, -1}};
static const int st_knight[][2] = {{1, -2}, {-1, -2}};
static const int st_silver[][2] = {{-1, -1}, {0, -1}, {1, -1}, {-1, 1}, {1, 1}};
static const int st_gold[][2] = {{-1, -1}, {0, -1}, {1, -1}, {-1, 0}, {1, 0}, {0, 1}};
static const int st_king[][2] = {{-1, -1}, {0, -1}, {1, -1}, {-1, 0},
                                 {1, 0},   {-1, 1}, {0, 1},  {1, 1}};

static void build(void)
{
    memset(&ATT, 0, sizeof ATT);
    for (int sq = 0; sq < SQ_NB; sq++) {
        int x = SQ_X(sq), y = SQ_Y(sq);
        for (int d = 0; d < DIR_NB; d++)
            for (int nx = x + ray_dx[d], ny = y + ray_dy[d]; on_board(nx, ny);
                 nx += ray_dx[d], ny += ray_dy[d])
                ATT.ray[d][sq] |= BB_SQ(SQ(nx, ny));
        for (int dx = -2; dx <= 2; dx++)
            for (int dy = -2; dy <= 2; dy++)
                if ((dx || dy) && on_board(x + dx, y + dy))
                    ATT.near[sq] |= BB_SQ(SQ(x + dx, y + dy));
        ATT.sq[sq] = BB_SQ(sq);
        ATT.file[x] |= BB_SQ(sq);
        ATT.rank[y] |= BB_SQ(sq);
        if (y <= 3)
            ATT.zone[BLACK] |= BB_SQ(sq);
        if (y >= 7)
            ATT.zone[WHITE] |= BB_SQ(sq);
    }
    for (int c = 0; c < 2; c++) {
        for (int sq = 0; sq < SQ_NB; sq++) {
            add_steps(&ATT.step[c][PAWN][sq], c, sq, st_pawn, 1);
            add_steps(&ATT.step[c][KNIGHT][sq], c, sq, st_knight, 2);
            add_steps(&ATT.step[c][SILVER][sq], c, sq, st_silver, 5);
            add_steps(&ATT.step[c][GOLD][sq], c, sq, st_gold, 6);
            add_steps(&ATT.step[c][KING][sq], c, sq, st_king, 8);
            ATT.step[c][PRO_PAWN][sq] = ATT.step[c][PRO_LANCE][sq] =
                ATT.step[c][PRO_KNIGHT][sq] = ATT.step[c][PRO_SILVER][sq] =
                    ATT.step[c][GOLD][sq];
            ATT.step[c][HORSE][sq] = ATT.step[c][DRAGON][sq] = ATT.step[c][KING][sq];
            for (int k = PAWN; k < PIECE_KIND_NB; k++)
                ATT.pseudo[c][k][sq] = piece_attack(c, k, sq, 0);
        }
        int last = c == BLACK ? 1 : 9, second = c == BLACK ? 2 : 8;
        ATT.dead[c][PAWN] = ATT.dead[c][LANCE] = ATT.rank[last];
        ATT.dead[c][KNIGHT] = ATT.rank[last] | ATT.rank[second];
    }
    for (int a = 0; a < SQ_NB; a++)
        for (int d = 0; d < DIR_NB; d++) {
            bb_t r = ATT.ray[d][a];
            while (r) {
                int b = bb_pop(&r);
                ATT.between[a][b] = ATT.ray[d][a] & ~ATT.ray[d][b] & ~BB_SQ(b);
                ATT.line[a][b] = ATT.ray[d][a] | ATT.ray[(d + 4) % DIR_NB][a] | BB_SQ(a);
            }
        }
    kifu__zobrist_init();
}

static pthread_once_t once = PTHREAD_ONCE_INIT;

void kifu__rules_init(void)
{
    pthread_once(&once, build);
}
