/* test_tags.c: tag recognition (kifu_tags_*). Every shipped definition has a game written
 * here that has its shape and a near miss that must not be tagged (the engine checks the
 * moves are legal); both ways of tagging (while reading, and over a normalized record)
 * must agree. Also: the definition format's errors with their line and column, a user
 * file that replaces and adds names, and the order rules of references. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "kifu.h"
#include "testutil.h"

/* Gote's moves when a game cares only about sente's (harmless: no capture, no check). */
#define GOTE_IDLE                                                                        \
    "1c1d 9c9d 1a1b 9a9b 6a5b 4a4b 7a6b 3a3b 5a6a 6a7a 4c4d 6c6d 5c5d 8a9c 2a1c"
/* And sente's when a game cares only about gote's. */
#define SENTE_IDLE                                                                       \
    "9g9f 1g1f 9i9h 1i1h 4i5h 6i6h 3i4h 7i7h 5i4i 4i3i 6g6f 4g4f 5g5f 2i1g 8i9g"

/* "position startpos moves" with sente's and gote's moves taken in turn (sente first;
 * the game ends when the side to move has none left). */
static char *game(const char *sente, const char *gote)
{
    static char buf[8192];
    const char *s[2] = {sente, gote};
    int n = snprintf(buf, sizeof buf, "position startpos moves");
    for (int side = 0;; side ^= 1) {
        const char *p = s[side];
        while (*p == ' ')
            p++;
        if (!*p)
            break;
        const char *e = strchr(p, ' ');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        n += snprintf(buf + n, sizeof buf - (size_t)n, " %.*s", (int)len, p);
        s[side] = p + len;
    }
    return buf;
}

/* The tags of a game, read with kifu_tags_read; checked against kifu_tags_record. */
typedef struct got {
    kifu_tag v[128];
    size_t n;
} got;

static int keep(void *ctx, kifu_record *r, size_t game_index, size_t games,
                const kifu_tag *tags, size_t count)
{
    (void)r, (void)game_index, (void)games;
    got *g = ctx;
    g->n = count < 128 ? count : 128;
    memcpy(g->v, tags, g->n * sizeof *tags);
    return 0;
}

static kifu_tagger *tagger;

/* Names the tests found present, and found absent where they were checked (a has-shape
 * game and a near miss), for the check that every shipped name has both. */
static char seen[2][256][64];
static size_t nseen[2];

static void note(int absent, const char *name)
{
    for (size_t i = 0; i < nseen[absent]; i++)
        if (strcmp(seen[absent][i], name) == 0)
            return;
    if (nseen[absent] < 256)
        snprintf(seen[absent][nseen[absent]++], 64, "%s", name);
}

static kifu_tagger *shipped;

static int tags_of(const char *text, got *g)
{
    kifu_read_options o = {0};
    o.format = kifu_format_from_name("sfen");
    kifu_error err;
    kifu_error_clear(&err);
    g->n = 0;
    if (kifu_tags_read(tagger, text, strlen(text), &o, keep, g, &err)) {
        printf("  %s\n  %s\n", text, err.message);
        return -1;
    }
    /* The same tags over the record normalized first. */
    kifu_record *r = kifu_read(text, strlen(text), &o, &err);
    kifu_tag *v;
    size_t n;
    CHECK(r != NULL);
    if (r && kifu_tags_record(tagger, r, &v, &n, &err) == 0) {
        CHECK_INT(n, g->n);
        for (size_t i = 0; i < n && i < g->n; i++) {
            CHECK_STR(v[i].name, g->v[i].name);
            CHECK_INT(v[i].side, g->v[i].side);
            CHECK_INT(v[i].ply, g->v[i].ply);
        }
        kifu_free(v);
    } else {
        CHECK(!"kifu_tags_record failed");
    }
    kifu_record_free(r);
    return 0;
}

static int has(const got *g, int side, const char *name)
{
    for (size_t i = 0; i < g->n; i++)
        if (g->v[i].side == side && strcmp(g->v[i].name, name) == 0)
            return 1;
    return 0;
}

/* Expectations "b:四間飛車 w:!石田流 g:対抗形": side (b sente, w gote, g the game), `!` for
 * a tag that must be absent. */
static void expect(const char *sente, const char *gote, const char *want, int line)
{
    got g;
    if (tags_of(game(sente, gote), &g)) {
        t_failed_checks++;
        printf("  line %d: the game did not read\n", line);
        return;
    }
    char copy[1024];
    snprintf(copy, sizeof copy, "%s", want);
    for (char *tok = strtok(copy, " "); tok; tok = strtok(NULL, " ")) {
        int side = tok[0] == 'b' ? 0 : tok[0] == 'w' ? 1 : -1;
        int absent = tok[2] == '!';
        const char *name = tok + 2 + absent;
        if (tagger == shipped)
            note(absent, name);
        if (has(&g, side, name) == absent) {
            t_failed_checks++;
            printf("  line %d: %s %s, but the game's tags are:", line, name,
                   absent ? "must be absent" : "is missing");
            for (size_t i = 0; i < g.n; i++)
                printf(" %c:%s",
                       g.v[i].side == 0   ? 'b'
                       : g.v[i].side == 1 ? 'w'
                                          : 'g',
                       g.v[i].name);
            printf("\n");
        }
    }
}
#define EXPECT(sente, gote, want) expect(sente, gote, want, __LINE__)

/* 四間飛車 and 美濃 against a static rook's 舟囲い. */
#define SHIKEN "7g7f 6g6f 2h6h 8h7g 5i4h 4h3h 3h2h 3i3h 6i5h 1g1f"
#define SHIKEN_GOTE "3c3d 8c8d 8d8e 6a5b 5a4b 4b3b 7a6b 5c5d 1c1d 9c9d"

TEST(ranging_rooks)
{
    EXPECT(SHIKEN, SHIKEN_GOTE,
           "b:四間飛車 b:振り飛車 b:!居飛車 b:対居飛車 b:!三間飛車 b:!向かい飛車 "
           "b:!石田流 b:!力戦 b:!角交換四間飛車 w:居飛車 w:対振り飛車 w:力戦 g:対抗形 "
           "g:!相居飛車 g:!相振り飛車");
    /* The rook on 6八 for one move only: no ranging rook. */
    EXPECT("7g7f 2h6h 6h2h 6i7h 9g9f 1g1f 4i5h", GOTE_IDLE,
           "b:!四間飛車 b:!振り飛車 b:居飛車 g:相居飛車");
    /* 三間飛車, and 石田流 once the rook stands on 7六 behind the pawn on 7五. */
    EXPECT("7g7f 7f7e 2h7h 7h7f 5i4h 4h3h", GOTE_IDLE,
           "b:石田流 b:三間飛車 b:振り飛車 b:!四間飛車");
    EXPECT("7g7f 7f7e 2h7h 5i4h 4h3h 3h2h", GOTE_IDLE, "b:!石田流 b:三間飛車 b:振り飛車");
    /* The opening is the first file the rook went to (group): 6八 first, 7六 later. */
    EXPECT("7g7f 2h6h 5i4h 4h3h 7f7e 6h7h 7h7f 3h2h 9g9f", GOTE_IDLE,
           "b:四間飛車 b:!三間飛車 b:!石田流 b:振り飛車");
    /* 向かい飛車 needs the bishop gone from 8八; the 四間飛車 game is its near miss. */
    EXPECT("7g7f 8h7g 2h8h 5i4h 4h3h 3h2h", GOTE_IDLE, "b:向かい飛車 b:振り飛車");
    EXPECT(SHIKEN, SHIKEN_GOTE, "b:!向かい飛車");
}

/* A ranging rook leaves its own file's pawn at home; a static rook that pushed it (飛車先の
 * 歩) and then took its rook to the left half (横歩取り's 5六飛, a rook roaming in the middle
 * game) is still a static rook. Near miss: the same rook on 5八 with 2七 unmoved. */
TEST(roaming_static_rook)
{
    EXPECT("2g2f 2h5h 5i4h 4h3h 9g9f 1g1f", GOTE_IDLE,
           "b:!中飛車 b:!振り飛車 b:居飛車 g:相居飛車");
    EXPECT("7g7f 2h5h 5i4h 4h3h 9g9f 1g1f", GOTE_IDLE, "b:中飛車 b:振り飛車 b:!居飛車");
    /* The rook up the 2nd file and across the 6th rank to 5六 (横歩取り's way). */
    EXPECT("2g2f 2f2e 2h2f 2f5f 5i4h 6i7h 9g9f", GOTE_IDLE,
           "b:!中飛車 b:!振り飛車 b:居飛車");
    /* Gote turned round: its 8三 pawn pushed, its rook to 5二: a static rook still. */
    EXPECT("7g7f 2g2f 2f2e 9g9f 1g1f 6i7h", "8c8d 8b5b 5a6b 6b7b 9c9d 1c1d",
           "w:!中飛車 w:!振り飛車 w:居飛車 g:相居飛車");
}

TEST(both_sides_ranging)
{
    EXPECT(SHIKEN, "3c3d 8b3b 5a6b 6b7b 7b8b 9c9d 1c1d 9a9b 6a5b 4a4b",
           "b:四間飛車 w:三間飛車 w:振り飛車 b:対振り飛車 w:対振り飛車 b:!対居飛車 "
           "g:相振り飛車 "
           "g:!対抗形 g:!相居飛車");
}

TEST(central_rooks)
{
    EXPECT("7g7f 5g5f 5f5e 2h5h 5i4h 4h3h 3h2h", "3c3d 8c8d 8d8e 1c1d 9c9d 1a1b 9a9b",
           "b:中飛車 b:ゴキゲン中飛車 b:!5筋位取り中飛車 b:振り飛車");
    EXPECT("6g6f 5g5f 5f5e 2h5h 5i4h 4h3h 3h2h", GOTE_IDLE,
           "b:中飛車 b:5筋位取り中飛車 b:!ゴキゲン中飛車");
    /* The rook on 5八 for one move: neither. */
    EXPECT("7g7f 2h5h 5h2h 5i4h 4h3h", GOTE_IDLE, "b:!中飛車 b:!振り飛車");
}

TEST(static_rook_rooks)
{
    EXPECT("4g4f 2h4h 5i5h 9g9f 1g1f", GOTE_IDLE, "b:右四間飛車 b:居飛車 b:!振り飛車");
    EXPECT("4g4f 2h4h 4h2h 9g9f 1g1f", GOTE_IDLE, "b:!右四間飛車");
    EXPECT("3g3f 2h3h 5i5h 9g9f 1g1f", GOTE_IDLE, "b:袖飛車 b:居飛車");
    EXPECT("3g3f 2h3h 3h2h 9g9f 1g1f", GOTE_IDLE, "b:!袖飛車");
}

/* Sente's 金矢倉 by the book, and gote's the same turned round. */
#define YAGURA "7g7f 7i6h 6g6f 6h7g 6i7h 4i5h 5h6g 9g9f 8h9g 5i6h 6h7i 7i8h"
#define YAGURA_GOTE "3c3d 3a4b 4c4d 4b3c 4a3b 6a5b 5b4c 1c1d 2b1c 5a4b 4b3a 3a2b"

TEST(yagura)
{
    EXPECT(YAGURA, YAGURA_GOTE,
           "b:矢倉 w:矢倉 b:金矢倉 w:金矢倉 b:!銀矢倉 b:!片矢倉 g:相居飛車 b:居飛車 "
           "b:!対振り飛車 "
           "b:対居飛車 b:!力戦");
    EXPECT("7g7f 7i6h 6g6f 6h7g 6i7h 5g5f 3i4h 4h5g 5g6h 6h6g 9g9f 8h9g 5i6h 6h7i 7i8h",
           GOTE_IDLE, "b:銀矢倉 b:!金矢倉 b:矢倉");
    EXPECT("7g7f 7i6h 6g6f 6h7g 4i5h 5h6g 5i6h 6h7h 6i6h", YAGURA_GOTE,
           "b:片矢倉 b:!金矢倉 b:!銀矢倉");
    /* 矢倉早囲い: the king into 矢倉 by 6八 and 7八, 7八金 put off (the left gold on 6九);
     * the usual route, the king on 7九 behind 金7八, is not it. The 片矢倉 game above went
     * by the same route (its king on 7八 before the gold came to 6八). */
    EXPECT("7g7f 6g6f 7i6h 6h7g 5i6h 4i5h 5h6g 6h7h", GOTE_IDLE, "b:矢倉早囲い");
    EXPECT("7g7f 7i6h 6g6f 6h7g 6i7h 5i6i 6i7i", GOTE_IDLE, "b:!矢倉早囲い");
    EXPECT("7g7f 7i6h 6g6f 6h7g 4i5h 5h6g 5i6h 6h7h 6i6h", YAGURA_GOTE,
           "b:片矢倉 b:矢倉早囲い");
}

TEST(ganki_and_middle_king)
{
    EXPECT("6g6f 5g5f 7i6h 6h6g 3i4h 4h5g 6i7h", GOTE_IDLE, "b:雁木囲い b:雁木 b:!矢倉");
    EXPECT("6g6f 5g5f 7i6h 6h6g 6i7h 9g9f 1g1f", GOTE_IDLE, "b:!雁木囲い b:!雁木");
    EXPECT(YAGURA, YAGURA_GOTE, "b:!雁木");
    EXPECT("6i7h 4i3h 5i5h 9g9f", GOTE_IDLE, "b:中住まい");
    EXPECT("6i7h 4i3h 9g9f 1g1f", GOTE_IDLE, "b:!中住まい");
    EXPECT("7i6h 6i7h 4i5h 5i6i", GOTE_IDLE, "b:カニ囲い");
    EXPECT("7i6h 6i7h 4i5h 9g9f", GOTE_IDLE, "b:!カニ囲い");
    /* カブト囲い: the king on 6八 under the silver on 7七, golds on 7八 and 5八. */
    EXPECT("7g7f 7i7h 7h7g 6i7h 4i5h 5i6h", GOTE_IDLE, "b:カブト囲い b:!カニ囲い");
    /* The same with the king gone to 6九 instead: no helmet over it. */
    EXPECT("7g7f 7i7h 7h7g 6i7h 4i5h 5i6i", GOTE_IDLE, "b:!カブト囲い");
}

TEST(mino_family)
{
    EXPECT(SHIKEN, SHIKEN_GOTE, "b:美濃囲い b:片美濃囲い b:!高美濃囲い b:!銀冠");
    /* Without the gold on 5八: 片美濃 only. */
    EXPECT("7g7f 6g6f 2h6h 8h7g 5i4h 4h3h 3h2h 3i3h 1g1f", SHIKEN_GOTE,
           "b:片美濃囲い b:!美濃囲い");
    /* The gold on 5八 first: 美濃 without ever being 片美濃. */
    EXPECT("7g7f 6g6f 2h6h 8h7g 6i5h 5i4h 4h3h 3h2h 3i3h 1g1f", SHIKEN_GOTE,
           "b:美濃囲い b:!片美濃囲い");
    /* 早囲い: the king stopped on 3八, the silver up to 4八 beside it; gone on to 2八
     * with the silver on 3八 (美濃) it is not; nor a static rook's king on 3八. */
    EXPECT("7g7f 6g6f 2h6h 8h7g 5i4h 4h3h 3i4h 1g1f", SHIKEN_GOTE,
           "b:早囲い b:!片美濃囲い");
    EXPECT(SHIKEN, SHIKEN_GOTE, "b:!早囲い");
    EXPECT("2g2f 2f2e 5i4h 4h3h 3i4h 9g9f", GOTE_IDLE, "b:!早囲い b:居飛車");
    EXPECT(SHIKEN " 4g4f 5h4g", SHIKEN_GOTE " 9d9e 1d1e",
           "b:高美濃囲い b:美濃囲い b:!銀冠");
    EXPECT(SHIKEN " 4g4f 5h4g 2g2f 3h2g 4i3h", SHIKEN_GOTE " 9d9e 1d1e 9a9b 1a1b 4a4b",
           "b:銀冠 b:高美濃囲い");
    /* 木村美濃: from 片美濃 the silver up to 4七, the gold up to 3八; the silver alone is
     * not it. */
    EXPECT(SHIKEN " 4g4f 3h4g 4i3h", SHIKEN_GOTE " 9d9e 1d1e 9a9b",
           "b:木村美濃 b:美濃囲い b:!銀冠");
    EXPECT(SHIKEN " 4g4f 3h4g 1i1h", SHIKEN_GOTE " 9d9e 1d1e 9a9b", "b:!木村美濃");
    /* 左美濃, the static rook's: 玉 8八, 銀 7八, 金 6九. */
    EXPECT("7g7f 8h7g 5i6h 6h7h 7h8h 7i7h", GOTE_IDLE, "b:左美濃 b:居飛車");
    EXPECT("7g7f 8h7g 5i6h 6h7h 7h8h 9g9f", GOTE_IDLE, "b:!左美濃");
}

TEST(boat_and_kin)
{
    EXPECT(SHIKEN, SHIKEN_GOTE, "w:舟囲い w:!箱入り娘 w:!エルモ囲い");
    /* The king on 7八 with the right gold still on 4九: no 舟囲い. */
    EXPECT("7g7f 5i6h 6h7h 9g9f 1g1f", GOTE_IDLE, "b:!舟囲い");
    EXPECT("7g7f 5i6h 6h7h 4i5h 5h6h", GOTE_IDLE, "b:箱入り娘 b:舟囲い");
    /* The same king and golds behind a ranging rook (向かい飛車): no 舟囲い. */
    EXPECT("7g7f 8h7g 2h8h 5i6h 6h7h 4i5h 9g9f", GOTE_IDLE, "b:向かい飛車 b:!舟囲い");
    EXPECT("7g7f 7i6h 6i7i 5i6i 6i7h", GOTE_IDLE, "b:エルモ囲い b:!舟囲い");
}

TEST(anaguma)
{
    EXPECT("7g7f 9i9h 8h7g 5i6h 6h7h 7h8h 8h9i", GOTE_IDLE,
           "b:居飛車穴熊 b:!振り飛車穴熊");
    EXPECT("7g7f 9i9h 8h7g 5i6h 6h7h 7h8h 9g9f", GOTE_IDLE, "b:!居飛車穴熊");
    EXPECT("7g7f 2h6h 1i1h 5i4h 4h3h 3h2h 2h1i", GOTE_IDLE,
           "b:振り飛車穴熊 b:!居飛車穴熊 b:四間飛車");
    /* 銀冠穴熊: the static rook's 銀冠 (銀 8七, 歩 8六, 金 7八) with the king down in 9九
     * and the other gold on 8八; 居飛車穴熊 too. */
    EXPECT("7g7f 8h7g 8g8f 7i8h 8h8g 9i9h 5i6h 6h7h 7h8h 8h9i 6i7h 7h8h 4i5h 5h6h 6h7h",
           GOTE_IDLE, "b:銀冠穴熊 b:居飛車穴熊");
    /* The same 銀冠 with the king stopped on 8八: neither. */
    EXPECT("7g7f 8h7g 8g8f 7i8h 8h8g 5i6h 6h7h 7h8h 6i7h 9g9f", GOTE_IDLE,
           "b:!銀冠穴熊 b:!居飛車穴熊");
    /* A plain 穴熊, the silver still on 8八: no 銀冠穴熊. */
    EXPECT("7g7f 8h7g 9i9h 5i6h 6h7h 7h8h 8h9i 7i8h 6i7h", GOTE_IDLE,
           "b:居飛車穴熊 b:!銀冠穴熊");
    /* The same castle by a static rook is no 振り飛車穴熊. */
    EXPECT("2g2f 2h2g 1i1h 5i4h 4h3h 3h2h 2h1i", GOTE_IDLE, "b:!振り飛車穴熊 b:居飛車");
}

/* Gote's 四間飛車 with 美濃's king on 8二 (its 4四 pawn is the static rook's target). */
#define SHIKEN_W "3c3d 4c4d 8b4b 5a6b 6b7b 7b8b 7a7b 9c9d 1c1d 6a5b"

TEST(quick_and_slow_games)
{
    /* 居飛車穴熊 before any capture, against 四間飛車: 持久戦 for both sides; the pawn
     * taken on 4四 afterwards makes it no 急戦. */
    EXPECT("7g7f 9i9h 8h7g 5i6h 6h7h 7h8h 8h9i 4g4f 4f4e 4e4d", SHIKEN_W,
           "b:持久戦 w:持久戦 b:!急戦 w:!急戦 b:居飛車穴熊 g:対抗形");
    /* The same 4五 pawn thrust from 舟囲い's king on 7八, the pawn taken on 4四 at the
     * side's 6th move: 急戦 for both. */
    EXPECT("7g7f 5i6h 6h7h 4g4f 4f4e 4e4d", SHIKEN_W,
           "b:急戦 w:急戦 b:!持久戦 w:!持久戦");
    /* The pawn taken first, the 穴熊 built after: 急戦, no 持久戦 (capture: before). */
    EXPECT("7g7f 4g4f 4f4e 4e4d 9i9h 8h7g 5i6h 6h7h 7h8h 8h9i", SHIKEN_W,
           "b:急戦 b:居飛車穴熊 b:!持久戦 w:!持久戦");
    /* 美濃 against 舟囲い with no capture at all: neither (急戦 needs the capture,
     * 持久戦 a long castle). */
    EXPECT(SHIKEN, SHIKEN_GOTE, "b:!急戦 w:!急戦 b:!持久戦 w:!持久戦 g:対抗形");
    /* A capture between two static rooks (bishops exchanged) is no 急戦. */
    EXPECT("7g7f 2g2f 8h2b+ 7i8h 9g9f", "8c8d 3c3d 3a2b 9c9d 1c1d",
           "b:!急戦 w:!急戦 g:相居飛車");
}

TEST(millennium_and_king_at_home)
{
    EXPECT("7g7f 8h7g 7g6f 8i7g 7i8h 5i6h 6h7h 7h8i", GOTE_IDLE, "b:ミレニアム囲い");
    EXPECT("7g7f 8h7g 7g6f 7i8h 5i6h 6h7h 9g9f 1g1f", GOTE_IDLE, "b:!ミレニアム囲い");
    /* Fifteen moves with the king at home, and the same with one king move. */
    EXPECT("7g7f 2g2f 2f2e 6g6f 5g5f 9g9f 1g1f 9f9e 1f1e 3g3f 4g4f 3i3h 7i6h 4i5h 6i7h",
           "3c3d 8c8d 8d8e 4c4d 5c5d 1c1d 9c9d 7c7d 6c6d 7a7b 3a4b 6a5b 4a3b 2c2d 8a7c",
           "b:居玉");
    EXPECT("7g7f 2g2f 2f2e 6g6f 5g5f 9g9f 1g1f 9f9e 1f1e 3g3f 4g4f 3i3h 7i6h 5i4h 6i7h",
           "3c3d 8c8d 8d8e 4c4d 5c5d 1c1d 9c9d 7c7d 6c6d 7a7b 3a4b 6a5b 4a3b 2c2d 8a7c",
           "b:!居玉");
}

TEST(openings_of_the_static_rook)
{
    EXPECT("7i6h 7g7f 5i5h", GOTE_IDLE, "b:嬉野流");
    EXPECT("7g7f 7i6h 5i5h", GOTE_IDLE, "b:!嬉野流");
    /* 角換わり, and the silver's three ways. */
    const char *kaku_gote = "8c8d 3c3d 3a2b 7a6b 6a5b 5a4b 4a3b 9c9d 1c1d 9a9b";
    EXPECT("7g7f 2g2f 8h2b+ 7i8h 4g4f 3i4h 4h4g 4g5f 9g9f", kaku_gote,
           "b:角換わり w:角換わり b:角換わり腰掛け銀 b:!角換わり早繰り銀 b:!角換わり棒銀 "
           "b:!原始棒銀 b:腰掛け銀 b:!早繰り銀 b:!棒銀");
    EXPECT("7g7f 2g2f 8h2b+ 7i8h 3g3f 3i3h 3h3g 3g4f 9g9f", kaku_gote,
           "b:角換わり早繰り銀 b:!角換わり腰掛け銀");
    EXPECT("7g7f 2g2f 8h2b+ 7i8h 2f2e 3i3h 3h2g 2g2f 9g9f", kaku_gote,
           "b:角換わり棒銀 b:!原始棒銀");
    EXPECT("7g7f 2g2f 9g9f 6i7h 4g4f 3i4h 4h4g 4g5f 1g1f", GOTE_IDLE,
           "b:!角換わり b:!角換わり腰掛け銀");
    /* 原始棒銀: straight up before the king moves. */
    EXPECT("2g2f 2f2e 3i3h 3h2g 2g2f 9g9f", GOTE_IDLE, "b:原始棒銀 b:!角換わり棒銀");
    EXPECT("2g2f 2f2e 3i3h 5i4h 3h2g 2g2f", GOTE_IDLE, "b:!原始棒銀");
    /* The same three ways without the trade: 腰掛け銀, 早繰り銀, 棒銀; near misses: the silver
     * one step short (4七, 3七, 2七), and a ranging rook's silver on 5六. */
    EXPECT("7g7f 2g2f 4g4f 3i4h 4h4g 4g5f 9g9f", GOTE_IDLE,
           "b:腰掛け銀 b:!角換わり腰掛け銀 b:!早繰り銀 b:!棒銀");
    EXPECT("7g7f 2g2f 4g4f 3i4h 4h4g 9g9f 1g1f", GOTE_IDLE, "b:!腰掛け銀");
    /* 腰掛け銀 sits on the pawn on 5七: with that pawn gone up to 5五, the silver on 5六
     * is not one; against a ranging rook it is. */
    EXPECT("7g7f 2g2f 5g5f 5f5e 4g4f 3i4h 4h4g 4g5f 9g9f", GOTE_IDLE, "b:!腰掛け銀");
    EXPECT("7g7f 2g2f 4g4f 3i4h 4h4g 4g5f 9g9f",
           "3c3d 8b3b 5a6b 6b7b 7b8b 9c9d 1c1d 9a9b 6a5b 4a4b", "b:腰掛け銀 w:振り飛車");
    EXPECT("7g7f 6g6f 2h6h 5i4h 4h3h 3h2h 4g4f 3i4h 4h4g 4g5f", GOTE_IDLE,
           "b:!腰掛け銀 b:四間飛車");
    EXPECT("7g7f 2g2f 3g3f 3i3h 3h3g 3g4f 9g9f", GOTE_IDLE,
           "b:早繰り銀 b:!角換わり早繰り銀 b:!腰掛け銀");
    EXPECT("7g7f 2g2f 3g3f 3i3h 3h3g 9g9f 1g1f", GOTE_IDLE, "b:!早繰り銀");
    /* 早繰り銀 goes by 3七 (the 3筋 pawn pushed for it); a silver come round to 4六 by 5七,
     * the 3七 pawn at home, is not one. */
    EXPECT("7g7f 2g2f 5g5f 3i4h 4h5g 5g4f 9g9f", GOTE_IDLE, "b:!早繰り銀");
    EXPECT("7g7f 2g2f 8h2b+ 7i8h 5g5f 3i4h 4h5g 5g4f 9g9f", kaku_gote,
           "b:角換わり b:!角換わり早繰り銀");
    EXPECT("2g2f 2f2e 3i3h 5i4h 3h2g 2g2f", GOTE_IDLE, "b:棒銀 b:!原始棒銀");
    EXPECT("2g2f 2f2e 3i3h 3h2g 5i4h 9g9f", GOTE_IDLE, "b:!棒銀");
    /* 右玉: the static rook's king kept on the right; 角換わり右玉 with the trade. */
    EXPECT("7g7f 2g2f 8h2b+ 7i8h 5i4h 4g4f 9g9f 1g1f", kaku_gote,
           "b:右玉 b:角換わり右玉 b:角換わり");
    EXPECT("7g7f 2g2f 5i4h 4g4f 9g9f 1g1f", GOTE_IDLE, "b:右玉 b:!角換わり右玉");
    EXPECT(SHIKEN, SHIKEN_GOTE, "b:!右玉");
}

TEST(double_wing_and_side_pawn)
{
    EXPECT("2g2f 2f2e 6i7h 9g9f", "8c8d 8d8e 4a3b 1c1d", "b:相掛かり w:相掛かり");
    EXPECT("7g7f 2g2f 2f2e 6i7h", "8c8d 8d8e 4a3b 1c1d", "b:!相掛かり w:!相掛かり");
    EXPECT("7g7f 2g2f 2f2e 6i7h 2e2d 2h2d 8g8f 2d3d 9g9f",
           "3c3d 8c8d 8d8e 4a3b 2c2d 8e8f 8b8f 1c1d 9c9d", "b:横歩取り");
    EXPECT("7g7f 2g2f 2f2e 6i7h 2e2d 2h2d 8g8f 9g9f 1g1f",
           "3c3d 8c8d 8d8e 4a3b 2c2d 8e8f 8b8f 1c1d 9c9d", "b:!横歩取り");
}

TEST(bishop_exchange_ranging_rook)
{
    EXPECT("7g7f 2h6h 8h2b+ 5i4h 4h3h 3h2h", "3c3d 8c8d 3a2b 6a5b 5a4b 4b3b",
           "b:角交換四間飛車 b:四間飛車 b:!角換わり");
    EXPECT(SHIKEN, SHIKEN_GOTE, "b:!角交換四間飛車");
}

/* ---- The definition format ----------------------------------------------------------- */

static void add_fails(const char *text, int line, int column, const char *words)
{
    kifu_tagger *t = kifu_tags_new(NULL);
    size_t before = kifu_tags_count(t);
    kifu_error err;
    kifu_error_clear(&err);
    CHECK_INT(kifu_tags_add(t, text, strlen(text), "mine.tags", &err), -1);
    CHECK_INT(err.line, line);
    if (column)
        CHECK_INT(err.column, column);
    CHECK_STR(err.source, "mine.tags");
    if (!strstr(err.message, words))
        printf("  message: %s\n", err.message), t_failed_checks++;
    /* The tagger is as it was. */
    CHECK_INT(kifu_tags_count(t), before);
    kifu_tags_free(t);
}

TEST(format_errors)
{
    add_fails("family: 戦法\n", 1, 1, "before the first definition");
    add_fails("[a]\nfamily: 戦術\n", 2, 9, "unknown family");
    add_fails("[a]\nfamily: 戦法\ncolour: red\n", 3, 1, "unknown key");
    add_fails("[a]\nfamily: 戦法\nby: soon\n", 3, 5, "not a number");
    add_fails("[a]\nfamily: 戦法\nrook: 0x\n", 3, 7, "not a rook file");
    add_fails("[a]\nfamily: 戦法\nmoved: 5十\n", 3, 8, "not a square");
    add_fails("[a]\nfamily: 備考\ncapture: soon\n", 3, 10, "unknown capture");
    add_fails("[a]\nby: 3\n", 1, 0, "says no family");
    add_fails("[a]\nfamily: 戦法\nboard:\n| * * *|\n", 4, 0, "");
    add_fails("[a]\nfamily: 戦法\nneeds: 無い\n", 3, 0, "no tag of that name");
    add_fails("[a]\nfamily: 戦法\nneeds: b\n\n[b]\nfamily: 戦法\n", 3, 0,
              "defined before it");
    add_fails("[a]\nfamily: 備考\nside: game\n", 1, 0, "sides:");
    add_fails("[力戦]\nfamily: 囲い\n\n[力戦]\nfamily: 戦法\n", 4, 0, "two families");
}

TEST(user_file_adds_and_replaces)
{
    kifu_tagger *t = kifu_tags_new(NULL);
    size_t before = kifu_tags_count(t);
    /* 四間飛車 redefined to need the rook on 6八 exactly, and a new castle. */
    const char *mine =
        "# mine\n"
        "[四間飛車]\n"
        "family: 戦法\n"
        "by: 3\n"
        "implies: 振り飛車\n"
        "board:\n"
        "| * * * * * * * * *|\n| * * * * * * * * *|\n| * * * * * * * * *|\n"
        "| * * * * * * * * *|\n| * * * * * * * * *|\n| * * * * * * * * *|\n"
        "| * * * * * * * * *|\n| * * * 飛 * * * * *|\n| * * * * * * * * *|\n"
        "\n"
        "[端玉]\n"
        "family: 囲い\n"
        "moved: 5九\n"
        "board:\n"
        "| * * * * * * * * *|\n| * * * * * * * * *|\n| * * * * * * * * *|\n"
        "| * * * * * * * * *|\n| * * * * * * * * *|\n| * * * * * * * * *|\n"
        "| * * * * * * * * *|\n| * * * * * * * * *|\n| 玉 * * * * * * * *|\n";
    kifu_error err;
    kifu_error_clear(&err);
    CHECK_INT(kifu_tags_add(t, mine, strlen(mine), "mine", &err), 0);
    if (err.code)
        printf("  %s (line %d)\n", err.message, err.line);
    CHECK_INT(kifu_tags_count(t), before + 1);
    const char *name;
    int family;
    CHECK_INT(kifu_tags_at(t, kifu_tags_count(t) - 1, &name, &family), 0);
    CHECK_STR(name, "端玉");
    CHECK_INT(family, KIFU_TAG_CASTLE);
    kifu_tagger *keep_tagger = tagger;
    tagger = t;
    /* The rook reaches 6八 on sente's third move: the new 四間飛車 (by 3) holds it... */
    EXPECT("7g7f 6g6f 2h6h 9g9f", GOTE_IDLE, "b:四間飛車 b:振り飛車");
    /* ...but not on its fourth. */
    EXPECT("7g7f 6g6f 9g9f 2h6h 5i4h 4h3h", GOTE_IDLE, "b:!四間飛車 b:振り飛車");
    EXPECT("7g7f 8h7g 9g9f 9i9h 5i6h 6h7h 7h8h 8h9i", GOTE_IDLE, "b:端玉");
    EXPECT("7g7f 8h7g 9g9f 9i9h 5i6h 6h7h 7h8h", GOTE_IDLE, "b:!端玉");
    tagger = keep_tagger;
    kifu_tags_free(t);
}

TEST(plies_and_api)
{
    got g;
    CHECK_INT(tags_of(game(SHIKEN, SHIKEN_GOTE), &g), 0);
    for (size_t i = 0; i < g.n; i++) {
        if (strcmp(g.v[i].name, "四間飛車") == 0) {
            CHECK_INT(g.v[i].ply, 5); /* the rook went to 6八 at ply 5 */
            CHECK_INT(g.v[i].family, KIFU_TAG_STRATEGY);
            CHECK_INT(g.v[i].side, KIFU_BLACK);
        }
        if (strcmp(g.v[i].name, "美濃囲い") == 0)
            CHECK_INT(g.v[i].ply, 17);
        if (strcmp(g.v[i].name, "対抗形") == 0)
            CHECK_INT(g.v[i].side, -1);
    }
    CHECK_STR(kifu_tag_family_name(KIFU_TAG_CASTLE), "囲い");
    CHECK(kifu_tag_family_name(7) == NULL);
    /* An illegal move is an error, with no tags reported. */
    const char *bad = "position startpos moves 7g7f 3c3d 8h2c 3a2b";
    kifu_read_options o = {0};
    o.format = kifu_format_from_name("sfen");
    kifu_error err;
    kifu_error_clear(&err);
    g.n = 99;
    CHECK_INT(kifu_tags_read(tagger, bad, strlen(bad), &o, keep, &g, &err), -1);
    CHECK_INT(g.n, 99);
    CHECK(err.code != 0);
}

/* The tags of text by tagger t (kifu_tags_read), as one line "side:name@ply ...". */
static void tag_line(kifu_tagger *t, const char *text, char *out, size_t cap)
{
    kifu_read_options o = {0};
    o.format = kifu_format_from_name("sfen");
    got g = {.n = 0};
    out[0] = 0;
    CHECK_INT(kifu_tags_read(t, text, strlen(text), &o, keep, &g, NULL), 0);
    size_t len = 0;
    for (size_t i = 0; i < g.n && len < cap; i++)
        len += (size_t)snprintf(out + len, cap - len, "%d:%s@%d ", g.v[i].side,
                                g.v[i].name, g.v[i].ply);
}

/* A tagger keeps what it worked out from game to game (the state after a first
 * position, answers about hands): game after game it must answer as a new tagger does,
 * whatever position the games start from, and with definitions that ask for hands, moves
 * left, a first move (from), the first capture and rooks. */
TEST(one_tagger_for_many_games)
{
    static const char defs[] =
        "[角持ち]\nfamily: 備考\nby: 12\nboard:\n先手の持駒：角\n"
        "| * * * * * * * * *|\n| * * * * * * * * *|\n"
        "| * * * * * * * * *|\n| * * * * * * * * *|\n"
        "| * * * * * * * * *|\n| * * * * * * * * *|\n"
        "| * * * * * * * * *|\n| * * * * * * * * *|\n"
        "| * * * * * * * * *|\n\n"
        "[玉が出た]\nfamily: 備考\nmoved: 5九\nunmoved: 1九\nfrom: 3\n"
        "hold: 2\n\n[取ってから]\nfamily: 戦法\nrook: 2-6\n"
        "capture: after\nhold: 2\ngroup: x\n\n"
        "[左の飛車]\nfamily: 戦法\nrook: 7-9\ngroup: x\n";
    const char *games[] = {
        game(SHIKEN, SHIKEN_GOTE),
        game("7g7f 8h2b+ B*4e 5i4h 4h3h", "3c3d 3a2b 1c1d 9c9d 9d9e"),
        "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 "
        "moves "
        "2h6h 3c3d 5i4h 4a3b 4h3h",
        "position sfen lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1 "
        "moves "
        "3c3d 7g7f 2b8h+ 7i8h",
        game(SHIKEN, SHIKEN_GOTE),
        game("2g2f 2f2e 7g7f 2e2d 2h2d", "8c8d 8d8e 3c3d 2c2d 8e8f"),
        game(SHIKEN, SHIKEN_GOTE),
    };
    kifu_tagger *kept = kifu_tags_new(NULL);
    CHECK(kept && kifu_tags_add(kept, defs, strlen(defs), "test", NULL) == 0);
    int seen_hand = 0;
    for (int round = 0; round < 2; round++)
        for (size_t i = 0; i < sizeof games / sizeof *games; i++) {
            char a[4096], b[4096];
            kifu_tagger *fresh = kifu_tags_new(NULL);
            CHECK(fresh && kifu_tags_add(fresh, defs, strlen(defs), "test", NULL) == 0);
            tag_line(kept, games[i], a, sizeof a);
            tag_line(fresh, games[i], b, sizeof b);
            if (strcmp(a, b) != 0) {
                t_failed_checks++;
                printf("  game %zu, round %d: kept %s\n  new %s\n", i, round, a, b);
            }
            seen_hand |= strstr(a, "角持ち") != NULL;
            kifu_tags_free(fresh);
        }
    CHECK(seen_hand); /* the hand line was met, not only missed */
    kifu_tags_free(kept);
}

TEST(every_shipped_name_is_tested)
{
    for (size_t i = 0; i < kifu_tags_count(shipped); i++) {
        const char *name;
        kifu_tags_at(shipped, i, &name, NULL);
        for (int absent = 0; absent < 2; absent++) {
            size_t k = 0;
            while (k < nseen[absent] && strcmp(seen[absent][k], name) != 0)
                k++;
            if (k == nseen[absent]) {
                t_failed_checks++;
                printf("  %s has no %s\n", name,
                       absent ? "near miss" : "game with its shape");
            }
        }
    }
}

int main(void)
{
    shipped = tagger = kifu_tags_new(NULL);
    if (!tagger) {
        printf("the shipped definitions do not build\n");
        return 1;
    }
    RUN(ranging_rooks);
    RUN(roaming_static_rook);
    RUN(both_sides_ranging);
    RUN(central_rooks);
    RUN(static_rook_rooks);
    RUN(yagura);
    RUN(ganki_and_middle_king);
    RUN(mino_family);
    RUN(boat_and_kin);
    RUN(anaguma);
    RUN(quick_and_slow_games);
    RUN(millennium_and_king_at_home);
    RUN(openings_of_the_static_rook);
    RUN(double_wing_and_side_pawn);
    RUN(bishop_exchange_ranging_rook);
    RUN(format_errors);
    RUN(user_file_adds_and_replaces);
    RUN(plies_and_api);
    RUN(one_tagger_for_many_games);
    RUN(every_shipped_name_is_tested);
    kifu_tags_free(tagger);
    return t_finish();
}
