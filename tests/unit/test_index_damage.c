/* test_index_damage.c: the index's checksums (issue 28: a damaged but well-formed index
 * answered wrongly with exit 0). The checksum sees every one-bit change and every cut;
 * a block emptied, a move changed, a move list cut make the readers fail with "damaged"
 * (never an answer) and kifu_index_check name each; and random bytes changed anywhere in
 * the file never crash a reader, nor change an answer without kifu_index_check finding
 * the damage. */
#include <sqlite3.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "index/index_private.h"
#include "kifu.h"

static char dir[256], base[300];

TEST(checksum_sees_every_change)
{
    uint8_t b[200];
    unsigned long long s = 42;
    for (size_t i = 0; i < sizeof b; i++) {
        s = s * 6364136223846793005ULL + 1442695040888963407ULL;
        b[i] = (uint8_t)(s >> 33);
    }
    int64_t sum = kifu__index_sum(b, sizeof b);
    CHECK(sum == kifu__index_sum(b, sizeof b)); /* the same bytes, the same sum */
    int missed = 0;
    for (size_t i = 0; i < sizeof b; i++)
        for (int bit = 0; bit < 8; bit++) {
            b[i] ^= (uint8_t)(1u << bit);
            missed += kifu__index_sum(b, sizeof b) == sum;
            b[i] ^= (uint8_t)(1u << bit);
        }
    CHECK_INT(missed, 0);
    for (size_t n = 0; n < sizeof b; n++)
        missed += kifu__index_sum(b, n) == sum;
    CHECK_INT(missed, 0);
    /* Emptied: no bytes sum apart from a zero byte, a zero pair, a zero block. */
    static const uint8_t zero[64] = {0};
    CHECK(kifu__index_sum(NULL, 0) != kifu__index_sum(zero, 1));
    CHECK(kifu__index_sum(zero, 2) != kifu__index_sum(zero, 1));
    CHECK(kifu__index_sum(zero, 64) != kifu__index_sum(zero, 32));
}

/* Copy a file. 0, or -1. */
static int copy(const char *from, const char *to)
{
    size_t n;
    char *d = t_read_file(from, &n);
    FILE *f = d ? fopen(to, "wb") : NULL;
    int rc = f && fwrite(d, 1, n, f) == n ? 0 : -1;
    if (f && fclose(f))
        rc = -1;
    free(d);
    return rc;
}

static int sql(const char *path, const char *q)
{
    sqlite3 *db;
    int rc = sqlite3_open(path, &db) == SQLITE_OK &&
                     sqlite3_exec(db, q, NULL, NULL, NULL) == SQLITE_OK
                 ? 0
                 : -1;
    sqlite3_close(db);
    return rc;
}

/* The start position's answer as text: games, then each move's usi and counts; or
 * NULL with err. */
static char *answer(kifu_index *ix, kifu_error *err)
{
    kifu_position *p = kifu_position_new();
    kifu_position_set_sfen(p, "startpos", NULL);
    kifu_explore *e = kifu_index_explore(ix, p, NULL, err);
    kifu_position_free(p);
    if (!e)
        return NULL;
    char *out = malloc(4096);
    size_t at = (size_t)snprintf(out, 4096, "%lld", kifu_explore_games(e));
    for (size_t i = 0; i < kifu_explore_count(e) && at < 4000; i++) {
        const kifu_explore_move *m = kifu_explore_move_at(e, i);
        at += (size_t)snprintf(out + at, 4096 - at, " %s:%lld/%lld/%lld", m->usi,
                               m->games, m->sente_wins, m->gote_wins);
    }
    kifu_explore_free(e);
    return out;
}

static int on_hit(void *ctx, const kifu_index_hit *h)
{
    (void)h;
    ++*(long *)ctx;
    return 0;
}

/* Positions of a pattern every position has (each game replayed from its moves): the hits,
 * or -1 with err. */
static long replayed(kifu_index *ix, kifu_error *err)
{
    kifu_search *s = kifu_search_regex(".", 0, NULL);
    long hits = 0, rc = kifu_index_search(ix, s, on_hit, &hits, err);
    kifu_search_free(s);
    return rc;
}

static char said[8][512];
static int nsaid;
static void on_damage(void *ctx, const kifu_error *d)
{
    (void)ctx;
    if (nsaid < 8)
        kifu_error_format(d, said[nsaid++], sizeof said[0]);
}

/* kifu_index_check of path: its result, the damage said in `said`. */
static int check_file(const char *path, kifu_index_check_counts *n)
{
    kifu_error err = {0};
    kifu_index *ix = kifu_index_open(path, KIFU_INDEX_READONLY, &err);
    if (!ix)
        return -2;
    nsaid = 0;
    int rc = kifu_index_check(ix, on_damage, NULL, n, &err);
    kifu_index_close(ix, NULL);
    return rc;
}

/* The index of samples/collection (8 games, no hot position: every count is read from
 * the blocks), built once. */
static int build_base(void)
{
    snprintf(base, sizeof base, "%s/base.kdb", dir);
    kifu_error err = {0};
    kifu_index *ix = kifu_index_open(base, KIFU_INDEX_CREATE, &err);
    if (!ix)
        return -1;
    char path[512];
    for (int i = 1; i <= 8; i++) {
        snprintf(path, sizeof path, "%s/../samples/collection/game%d.csa", KIFU_TESTS_DIR,
                 i);
        if (kifu_index_add_file(ix, path, NULL, NULL, &err) < 0)
            return -1;
    }
    return kifu_index_close(ix, &err);
}

TEST(damaged_parts_fail_and_are_named)
{
    kifu_index_check_counts n;
    CHECK_INT(check_file(base, &n), 0);
    CHECK(n.blocks > 0);
    CHECK_INT(n.games, 8);
    CHECK_INT(n.damaged, 0);
    static const struct {
        const char *name, *damage, *said;
        int explore; /* the explorer reads the damaged part */
    } cases[] = {
        {"empty block",
         "UPDATE positions SET block = x'' WHERE id = (SELECT min(id) FROM "
         "positions)",
         "damaged: positions row", 0},
        {"every block empty", "UPDATE positions SET block = x''",
         "damaged: positions row", 1},
        {"a changed move",
         "UPDATE games SET moves = cast(x'1234' || substr(moves, 3) AS blob) WHERE id = "
         "3",
         "damaged: the start and moves of game 3 do not match their checksum", 0},
        {"a cut move list", "UPDATE games SET moves = substr(moves, 1, 4) WHERE id = 5",
         "damaged: the start and moves of game 5 do not match their checksum", 0},
        {"a row of positions gone",
         "DELETE FROM positions WHERE id = (SELECT max(id) FROM positions)",
         "damaged: run 1 of positions holds", 0},
    };
    char path[512];
    snprintf(path, sizeof path, "%s/dmg.kdb", dir);
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        CHECK_INT(copy(base, path), 0);
        CHECK_INT(sql(path, cases[i].damage), 0);
        CHECK_INT(check_file(path, &n), 1);
        CHECK(n.damaged >= 1);
        CHECK(nsaid >= 1 && strstr(said[0], cases[i].said) != NULL &&
              !strncmp(said[0], path, strlen(path)) &&
              strstr(said[0], "rebuild with kifu index build") != NULL);
        if (nsaid < 1 || !strstr(said[0], cases[i].said))
            printf("  %s: said %s\n", cases[i].name, nsaid ? said[0] : "nothing");
        kifu_error err = {0};
        kifu_index *ix = kifu_index_open(path, KIFU_INDEX_READONLY, &err);
        CHECK(ix != NULL);
        if (!ix)
            continue;
        char *a = answer(ix, &err);
        if (cases[i].explore) {
            CHECK(a == NULL);
            CHECK_INT(err.code, KIFU_ERR_IO);
            CHECK(strstr(err.message, "damaged: positions row") != NULL);
        }
        free(a);
        /* Moves damaged: every game replayed fails rather than skip or misread one. */
        if (strstr(cases[i].damage, "UPDATE games")) {
            kifu_error_clear(&err);
            CHECK(replayed(ix, &err) < 0);
            CHECK(strstr(err.message, cases[i].said) != NULL);
        }
        kifu_index_close(ix, NULL);
    }
}

/* Random bytes changed anywhere but the first page, in 500 files (as issue 28 damaged
 * them): nothing crashes (the ASan build runs this too), and a reader fails or answers
 * what the whole file answers; but for damage to SQLite's own structure (an index of
 * the games table that lost a row, say), which no checksum of kifu's covers:
 * kifu_index_check finds that (SQLite's integrity check). */
TEST(random_damage_never_lies)
{
    kifu_error err = {0};
    kifu_index *ix = kifu_index_open(base, KIFU_INDEX_READONLY, &err);
    char *want = ix ? answer(ix, &err) : NULL;
    long want_hits = ix ? replayed(ix, &err) : -1;
    kifu_index_close(ix, NULL);
    CHECK(want != NULL && want_hits == 57);
    size_t len;
    char *orig = t_read_file(base, &len);
    CHECK(orig != NULL && len > 8192);
    if (!orig || !want || len <= 8192) {
        free(orig), free(want);
        return;
    }
    char path[512];
    snprintf(path, sizeof path, "%s/rnd.kdb", dir);
    unsigned long long s = 7;
    int lied = 0, failed = 0, same = 0, found = 0, differed = 0;
    for (int round = 0; round < 500; round++) {
        char *d = malloc(len);
        memcpy(d, orig, len);
        int flips = 1 + round % 8;
        for (int k = 0; k < flips; k++) {
            s = s * 6364136223846793005ULL + 1442695040888963407ULL;
            size_t at = 8192 + (size_t)(s >> 33) % (len - 8192);
            d[at] = (char)(d[at] ^ (1 + (s >> 20) % 255));
        }
        FILE *f = fopen(path, "wb");
        fwrite(d, 1, len, f);
        fclose(f);
        free(d);
        kifu_error_clear(&err);
        ix = kifu_index_open(path, KIFU_INDEX_READONLY, &err);
        if (!ix) {
            failed++;
            continue;
        }
        char *got = answer(ix, &err);
        kifu_error_clear(&err);
        long hits = replayed(ix, &err);
        int differs = (got && strcmp(got, want) != 0) || (hits >= 0 && hits != want_hits);
        failed += !got || hits < 0;
        same += got && hits >= 0 && !differs;
        kifu_index_check_counts n;
        kifu_error_clear(&err);
        nsaid = 0;
        int bad = kifu_index_check(ix, on_damage, NULL, &n, &err);
        found += bad == 1;
        differed += differs;
        if (differs && bad != 1) {
            lied++;
            printf("  round %d: %s, %ld positions, where the whole file says %s, %ld; "
                   "check found nothing\n",
                   round, got ? got : "-", hits, want, want_hits);
        }
        free(got);
        kifu_index_close(ix, NULL);
    }
    printf("  500 damaged files: %d answered as the whole file, %d failed, %d answered "
           "otherwise (each found by check); check found %d damaged\n",
           same, failed, differed, found);
    CHECK_INT(lied, 0);
    CHECK(found > 0);
    free(orig), free(want);
}

int main(void)
{
    snprintf(dir, sizeof dir, "/tmp/kifu-test-damage-%ld", (long)getpid());
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf %s && mkdir -p %s", dir, dir);
    if (system(cmd) != 0)
        return 1;
    RUN(checksum_sees_every_change);
    if (build_base() == 0) {
        RUN(damaged_parts_fail_and_are_named);
        RUN(random_damage_never_lies);
    } else {
        printf("could not build the index of samples/collection\n");
        t_failed++;
    }
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        return 1;
    return t_finish();
}
