/* test_index.c: the collection index and the explorer (src/index/) on collections made
 * here with the engine: random games after a few fixed openings (two of which transpose),
 * so that hot positions, transpositions and one-game positions exist, and every count is
 * known by construction. */
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"
#include "index/index_private.h"
#include "kifu.h"
#include "rules/engine.h"
#include "testutil.h"

#define GAMES 240

/* Openings: A and B reach the same position after three plies (a transposition). */
static const char *const openings[3] = {"7g7f 3c3d 2g2f", "2g2f 3c3d 7g7f", "5g5f 5c5d"};
static const char *const players[4] = {"Sato", "Suzuki", "Tanaka", "Ito"};

typedef struct game {
    int opening;
    int plies;
    int result; /* kifu_result */
    char sente[16], gote[16], date[16];
    /* The players' ratings (0: none), written in their names as "Sato(1534)": the
     * explorer averages the rating of the player who made each move. */
    int rating[2];
    char names[2][32];
    char usi[64][8]; /* the first 64 moves */
} game;

static game games[GAMES];
static char dir[256];

static unsigned rnd(void)
{
    static unsigned long long s = 12345;
    s = s * 6364136223846793005ULL + 1442695040888963407ULL;
    return (unsigned)(s >> 33);
}

/* Play game g: its opening, then random legal moves; write it as CSA to `path`. */
static void make_game(int i, game *g, const char *path)
{
    kifu_record *r = kifu_record_new();
    kifu_position *p = kifu_position_new();
    kifu_record_set_preset(r, KIFU_PRESET_HIRATE);
    g->opening = i % 3;
    snprintf(g->sente, sizeof g->sente, "%s", players[rnd() % 4]);
    snprintf(g->gote, sizeof g->gote, "%s", players[rnd() % 4]);
    snprintf(g->date, sizeof g->date, "2024/%02u/%02u", 1 + rnd() % 12, 1 + rnd() % 28);
    if (i % 10 == 9)
        g->date[0] = 0; /* a game of unknown date */
    /* Not from rnd(): the games stay those the other tests were written for. */
    g->rating[0] = i % 4 == 3 ? 0 : 1000 + (i * 37) % 1500;
    g->rating[1] = i % 5 == 4 ? 0 : 1000 + (i * 53) % 1500;
    for (int s = 0; s < 2; s++) {
        const char *who = s ? g->gote : g->sente;
        if (g->rating[s])
            snprintf(g->names[s], sizeof g->names[s], "%s(%d)", who, g->rating[s]);
        else
            snprintf(g->names[s], sizeof g->names[s], "%s", who);
    }
    kifu_record_header_add(r, "先手", g->names[0]);
    kifu_record_header_add(r, "後手", g->names[1]);
    if (g->date[0])
        kifu_record_header_add(r, "開始日時", g->date);
    kifu_record_header_add(r, "棋戦", i % 2 ? "Club League" : "Open Cup");
    kifu_node *n = kifu_record_root(r);
    char line[64];
    snprintf(line, sizeof line, "%s", openings[g->opening]);
    int ply = 0;
    for (char *t = strtok(line, " "); t; t = strtok(NULL, " ")) {
        kifu_move m;
        kifu_position_parse_usi(p, t, &m, NULL);
        kifu_position_play(p, &m, NULL);
        n = kifu_node_add_move(r, n, &m);
        snprintf(g->usi[ply++], 8, "%s", t);
    }
    int want = 20 + (int)(rnd() % 40);
    while (ply < want) {
        kifu_move moves[600];
        size_t k = kifu_position_legal_moves(p, moves, 600);
        if (!k)
            break;
        kifu_move m = moves[rnd() % k];
        kifu_position_play(p, &m, NULL);
        n = kifu_node_add_move(r, n, &m);
        if (ply < 64)
            kifu_move_usi(&m, g->usi[ply]);
        ply++;
    }
    g->plies = ply;
    /* The side to move resigns or loses by a foul (%ILLEGAL_MOVE), or the game is a draw
     * or unfinished. */
    int end = (int)(rnd() % 8);
    const char *word = end < 5    ? "TORYO"
                       : end == 5 ? "ILLEGAL_MOVE"
                       : end == 6 ? "SENNICHITE"
                                  : "CHUDAN";
    kifu_node_add_special(r, n, word);
    g->result = end < 6    ? (ply % 2 ? KIFU_RESULT_SENTE : KIFU_RESULT_GOTE)
                : end == 6 ? KIFU_RESULT_SENNICHITE
                           : KIFU_RESULT_UNKNOWN;
    kifu_write_options w = {.format = KIFU_FMT_CSA};
    size_t len;
    char *text = kifu_write(r, &w, &len, NULL);
    FILE *f = fopen(path, "wb");
    fwrite(text, 1, len, f);
    fclose(f);
    kifu_free(text);
    kifu_position_free(p);
    kifu_record_free(r);
}

static void game_path(int i, char *buf, size_t cap)
{
    snprintf(buf, cap, "%s/g%03d.csa", dir, i);
}

static kifu_index *build(const char *name, int from, int to, int create)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    kifu_error err;
    kifu_error_clear(&err);
    kifu_index *ix = t_index_open(path, create ? KIFU_INDEX_CREATE : 0, &err);
    if (!ix) {
        printf("  open %s: %s\n", path, err.message);
        return NULL;
    }
    for (int i = from; i < to; i++) {
        char g[512];
        game_path(i, g, sizeof g);
        if (kifu_index_add_file(ix, g, NULL, NULL, &err) < 0)
            printf("  add %s: %s\n", g, err.message);
    }
    return ix;
}

static kifu_position *after(const char *usi)
{
    kifu_position *p = kifu_position_new();
    kifu_position_set_sfen(p, usi, NULL);
    return p;
}

static const kifu_explore_move *find(const kifu_explore *e, const char *usi)
{
    for (size_t i = 0; i < kifu_explore_count(e); i++)
        if (strcmp(kifu_explore_move_at(e, i)->usi, usi) == 0)
            return kifu_explore_move_at(e, i);
    return NULL;
}

TEST(counts_known_by_construction)
{
    kifu_index *ix = build("one.kdb", 0, GAMES, 1);
    CHECK(ix != NULL);
    if (!ix)
        return;
    kifu_error err;
    kifu_error_clear(&err);
    CHECK_INT(kifu_index_flush(ix, &err), 0);
    kifu_index_info info;
    CHECK_INT(kifu_index_info_get(ix, &info, &err), 0);
    long long positions = 0;
    for (int i = 0; i < GAMES; i++)
        positions += games[i].plies + 1;
    CHECK_INT(info.games, GAMES);
    CHECK_INT(info.positions, positions);
    CHECK(info.hot_positions > 0);

    /* The start position: every game, first moves by opening. */
    kifu_position *p = after("startpos");
    kifu_explore *e = kifu_index_explore(ix, p, NULL, &err);
    CHECK(e != NULL);
    CHECK_INT(kifu_explore_games(e), GAMES);
    const char *first[3] = {"7g7f", "2g2f", "5g5f"};
    for (int o = 0; o < 3; o++) {
        long long want = 0, sente = 0, gote = 0, senn = 0, unknown = 0;
        for (int i = 0; i < GAMES; i++)
            if (games[i].opening == o) {
                want++;
                sente += games[i].result == KIFU_RESULT_SENTE;
                gote += games[i].result == KIFU_RESULT_GOTE;
                senn += games[i].result == KIFU_RESULT_SENNICHITE;
                unknown += games[i].result == KIFU_RESULT_UNKNOWN;
            }
        const kifu_explore_move *m = find(e, first[o]);
        CHECK(m != NULL);
        if (!m)
            continue;
        CHECK_INT(m->games, want);
        CHECK_INT(m->sente_wins, sente);
        CHECK_INT(m->gote_wins, gote);
        CHECK_INT(m->sennichite, senn);
        CHECK_INT(m->unknown, unknown);
        CHECK_INT(m->ntop, 5);
        /* Latest games first. */
        for (size_t k = 1; k < m->ntop; k++)
            CHECK(strcmp(m->top[k - 1].date, m->top[k].date) >= 0);
    }
    CHECK_STR(kifu_explore_move_at(e, 0)->text[0] ? "ok" : "", "ok");
    kifu_explore_free(e);
    kifu_position_free(p);

    /* The transposition: A and B meet after three plies; the moves after are theirs. */
    p = after("position startpos moves 7g7f 3c3d 2g2f");
    e = kifu_index_explore(ix, p, NULL, &err);
    CHECK(e != NULL);
    long long ab = 0;
    for (int i = 0; i < GAMES; i++)
        ab += games[i].opening < 2;
    CHECK_INT(kifu_explore_games(e), ab);
    long long sum = 0;
    for (size_t i = 0; i < kifu_explore_count(e); i++) {
        const kifu_explore_move *m = kifu_explore_move_at(e, i);
        long long want = 0;
        for (int g = 0; g < GAMES; g++)
            want += games[g].opening < 2 && strcmp(games[g].usi[3], m->usi) == 0;
        CHECK_INT(m->games, want);
        sum += m->games;
    }
    CHECK_INT(sum, ab); /* no game ends at ply 3 */
    kifu_explore_free(e);
    kifu_position_free(p);

    /* A filter: Sato as sente, from the start position. */
    kifu_explore_options fo = {.player = "Sato", .player_color = 1};
    p = after("startpos");
    e = kifu_index_explore(ix, p, &fo, &err);
    long long sato = 0;
    for (int i = 0; i < GAMES; i++)
        sato += strcmp(games[i].sente, "Sato") == 0;
    CHECK_INT(kifu_explore_games(e), sato);
    kifu_explore_free(e);
    kifu_explore_options dates = {.date_from = "2024-07-01"};
    e = kifu_index_explore(ix, p, &dates, &err);
    long long late = 0;
    for (int i = 0; i < GAMES; i++)
        late += strcmp(games[i].date, "2024/07/01") >= 0;
    CHECK_INT(kifu_explore_games(e), late);
    kifu_explore_free(e);
    /* A date range and a player together: the dates come from the occurrences, the
     * player from the games' rows. */
    kifu_explore_options both = {
        .date_from = "2024-03-01", .date_to = "2024-06-30", .player = "Tanaka"};
    e = kifu_index_explore(ix, p, &both, &err);
    long long mid = 0, tanaka = 0;
    for (int i = 0; i < GAMES; i++) {
        int in = strcmp(games[i].date, "2024/03/01") >= 0 &&
                 strncmp(games[i].date, "2024/06/30", 10) <= 0;
        mid += in;
        tanaka +=
            in && (!strcmp(games[i].sente, "Tanaka") || !strcmp(games[i].gote, "Tanaka"));
    }
    CHECK(mid > 0 && tanaka > 0 && tanaka < mid);
    CHECK_INT(kifu_explore_games(e), tanaka);
    kifu_explore_free(e);
    kifu_position_free(p);

    /* A position of one game: its own next move, once. */
    game *g = &games[7];
    char line[1024] = "position startpos moves";
    for (int k = 0; k < 30; k++) {
        strcat(line, " ");
        strcat(line, g->usi[k]);
    }
    p = after(line);
    e = kifu_index_explore(ix, p, NULL, &err);
    CHECK_INT(kifu_explore_games(e), 1);
    CHECK_INT(kifu_explore_count(e), 1);
    if (kifu_explore_count(e) == 1) {
        CHECK_STR(kifu_explore_move_at(e, 0)->usi, g->usi[30]);
        CHECK_INT(kifu_explore_move_at(e, 0)->top[0].ply, 30);
        CHECK_STR(kifu_explore_move_at(e, 0)->top[0].sente, g->names[0]);
    }
    kifu_explore_free(e);
    kifu_position_free(p);
    CHECK_INT(kifu_index_close(ix, &err), 0);
}

/* Every table's rows as one text, to compare two index files. */
static char *dump(const char *name)
{
    char cmd[1024], path[512];
    snprintf(path, sizeof path, "%s/%s.dump", dir, name);
    snprintf(cmd, sizeof cmd,
             "sqlite3 %s/%s 'SELECT * FROM games ORDER BY id; SELECT * FROM positions; "
             "SELECT * FROM hot; SELECT * FROM explorer; SELECT key, hex(games) FROM "
             "listing ORDER BY key; SELECT "
             "id,path,size,digest,games FROM "
             "sources ORDER BY id' > %s 2>&1",
             dir, name, path);
    if (system(cmd) != 0)
        return NULL;
    size_t len;
    return t_read_file(path, &len);
}

/* Two index files hold the same rows in every table. */
static void same_tables(const char *x, const char *y)
{
    char *a = dump(x), *b = dump(y);
    CHECK(a && b);
    if (a && b) {
        CHECK(strlen(a) > 1000);
        CHECK_INT(strcmp(a, b), 0);
    }
    free(a), free(b);
}

/* Rows of one table, by the sqlite3 command; -1 when it fails. */
static long count_rows(const char *path, const char *table)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "sqlite3 %s 'SELECT count(*) FROM %s'", path, table);
    FILE *f = popen(cmd, "r");
    long n = -1;
    if (f && fscanf(f, "%ld", &n) != 1)
        n = -1;
    if (f)
        pclose(f);
    return n;
}

TEST(built_in_steps_equals_built_at_once)
{
    if (t_index_clickhouse())
        SKIP("on ClickHouse: compares the SQLite file's tables (sqlite3)");
    if (system("command -v sqlite3 >/dev/null 2>&1") != 0)
        SKIP("no sqlite3 command to dump the tables");
    kifu_error err;
    kifu_index *ix = build("steps.kdb", 0, 100, 1);
    CHECK_INT(kifu_index_close(ix, &err), 0);
    ix = build("steps.kdb", 100, 170, 0);
    CHECK_INT(kifu_index_close(ix, &err), 0);
    ix = build("steps.kdb", 170, GAMES, 0);
    CHECK_INT(kifu_index_close(ix, &err), 0);
    same_tables("one.kdb", "steps.kdb");
}

/* Files prepared on two threads at once (kifu_index_file_prepare, a tagger each) and
 * added in order (kifu_index_file_add) make the same file as kifu_index_add_file one by
 * one: games, positions, tags and duplicates. */
typedef struct prep_job {
    const kifu_index *ix;
    kifu_index_file **files;
    int first;
} prep_job;

static void *prepare_every_other(void *arg)
{
    prep_job *j = arg;
    kifu_tagger *t = kifu_tags_new(NULL);
    for (int i = j->first; i < GAMES; i += 2) {
        char g[512];
        game_path(i, g, sizeof g);
        j->files[i] = kifu_index_file_prepare(j->ix, g, t);
    }
    kifu_tags_free(t);
    return NULL;
}

TEST(prepared_on_threads_equals_added_in_turn)
{
    if (t_index_clickhouse())
        SKIP("on ClickHouse: compares the SQLite file's tables (sqlite3)");
    if (system("command -v sqlite3 >/dev/null 2>&1") != 0)
        SKIP("no sqlite3 command to dump the tables");
    char path[512];
    snprintf(path, sizeof path, "%s/threads.kdb", dir);
    kifu_error err;
    kifu_error_clear(&err);
    kifu_index *ix = kifu_index_open(path, KIFU_INDEX_CREATE, &err);
    CHECK(ix != NULL);
    if (!ix)
        return;
    kifu_index_file *files[GAMES] = {0};
    prep_job jobs[2] = {{ix, files, 0}, {ix, files, 1}};
    pthread_t t[2];
    int started[2];
    for (int k = 0; k < 2; k++)
        started[k] = pthread_create(&t[k], NULL, prepare_every_other, &jobs[k]) == 0;
    for (int k = 0; k < 2; k++)
        if (started[k])
            pthread_join(t[k], NULL);
        else
            prepare_every_other(&jobs[k]);
    int added = 0;
    for (int i = 0; i < GAMES; i++)
        added += kifu_index_file_add(ix, files[i], NULL, NULL, &err) == KIFU_INDEX_ADDED;
    CHECK_INT(added, GAMES);
    CHECK_INT(kifu_index_close(ix, &err), 0);
    same_tables("one.kdb", "threads.kdb");
    /* Added again: known, and unchanged. */
    char g[512];
    game_path(3, g, sizeof g);
    ix = kifu_index_open(path, 0, &err);
    CHECK(ix != NULL);
    if (ix) {
        CHECK_INT(kifu_index_file_add(ix, kifu_index_file_prepare(ix, g, NULL), NULL,
                                      NULL, &err),
                  KIFU_INDEX_UNCHANGED);
        CHECK_INT(kifu_index_close(ix, &err), 0);
    }
}

/* An add larger than one batch writes its batches one after the other (each a run of
 * blocks of its own, the newest merged while they grow) and commits once: the same file
 * as one batch once compacted. */
/* The bytes of two files equal. */
static int same_bytes(const char *a, const char *b)
{
    FILE *f = fopen(a, "rb"), *g = fopen(b, "rb");
    int same = f && g;
    while (same) {
        int x = getc(f), y = getc(g);
        same = x == y;
        if (x == EOF)
            break;
    }
    if (f)
        fclose(f);
    if (g)
        fclose(g);
    return same;
}

/* An index made in two adds of a few batches each (flags: KIFU_INDEX_BULK or 0) with
 * `jobs` threads for its writes, at dir/name. */
static void build_with_jobs(const char *name, unsigned flags, int jobs)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    remove(path);
    kifu_error err;
    kifu_error_clear(&err);
    kifu_index *ix = kifu_index_open(path, KIFU_INDEX_CREATE | flags, &err);
    CHECK(ix != NULL);
    if (!ix)
        return;
    kifu_index_set_jobs(ix, jobs);
    for (int i = 0; i < GAMES; i++) {
        char g[512];
        game_path(i, g, sizeof g);
        CHECK(kifu_index_add_file(ix, g, NULL, NULL, &err) >= 0);
        if (i == GAMES / 2)
            CHECK_INT(kifu_index_flush(ix, &err), 0);
    }
    CHECK_INT(kifu_index_close(ix, &err), 0);
}

/* kifu_index_set_jobs changes which thread sorts and encodes a batch's positions
 * (index_lanes.c), never a byte of the file: bulk builds and adds over several batches,
 * the second add's keys turning hot and its runs merged. */
TEST(jobs_write_the_same_file)
{
    if (t_index_clickhouse())
        SKIP("on ClickHouse: compares SQLite files");
    size_t keep = kifu__index_batch;
    kifu__index_batch = 700; /* about 8 games a batch */
    static const unsigned flags[2] = {0, KIFU_INDEX_BULK};
    for (int k = 0; k < 2; k++) {
        build_with_jobs("jobs1.kdb", flags[k], 1);
        build_with_jobs("jobs2.kdb", flags[k], 2);
        build_with_jobs("jobs3.kdb", flags[k], 3);
        char a[512], b[512], c[512];
        snprintf(a, sizeof a, "%s/jobs1.kdb", dir);
        snprintf(b, sizeof b, "%s/jobs2.kdb", dir);
        snprintf(c, sizeof c, "%s/jobs3.kdb", dir);
        CHECK(count_rows(a, "positions") > 0);
        CHECK(same_bytes(a, b));
        CHECK(same_bytes(a, c));
    }
    kifu__index_batch = keep;
}

TEST(many_batches_equal_one)
{
    if (t_index_clickhouse())
        SKIP("on ClickHouse: batches held by SQLite's open transaction, its runs and "
             "compact");
    if (system("command -v sqlite3 >/dev/null 2>&1") != 0)
        SKIP("no sqlite3 command to dump the tables");
    kifu_error err;
    size_t keep = kifu__index_batch;
    kifu__index_batch = 700; /* about 8 games a batch */
    kifu_index *ix = build("batches.kdb", 0, GAMES, 1);
    CHECK(ix != NULL);
    if (ix) {
        /* Batches were written, none committed: a reader sees no game yet. */
        char path[512];
        snprintf(path, sizeof path, "%s/batches.kdb", dir);
        kifu_index *r = t_index_open(path, KIFU_INDEX_READONLY, &err);
        kifu_index_info info;
        CHECK(r && kifu_index_info_get(r, &info, &err) == 0);
        if (r)
            CHECK_INT(info.games, 0);
        kifu_index_close(r, NULL);
        CHECK(kifu_index_stats_get(ix)->games > 0); /* written in batches already */
    }
    kifu__index_batch = keep;
    /* Not merged into one yet: more than one run, each key's entries in order. */
    char path[512];
    snprintf(path, sizeof path, "%s/batches.kdb", dir);
    CHECK(ix && kifu_index_flush(ix, &err) == 0);
    CHECK(count_rows(path, "runs") > 1);
    CHECK(ix && kifu_index_compact(ix, &err) == 0);
    CHECK_INT(count_rows(path, "runs"), 1);
    CHECK_INT(kifu_index_close(ix, &err), 0);
    same_tables("one.kdb", "batches.kdb");
}

TEST(unchanged_and_replaced_files)
{
    kifu_error err;
    kifu_error_clear(&err);
    char path[512];
    snprintf(path, sizeof path, "%s/one.kdb", dir);
    kifu_index *ix = t_index_open(path, 0, &err);
    CHECK(ix != NULL);
    if (!ix)
        return;
    char g[512];
    game_path(3, g, sizeof g);
    CHECK_INT(kifu_index_add_file(ix, g, NULL, NULL, &err), KIFU_INDEX_UNCHANGED);
    /* Game 3's file now holds another game: replaced, counts follow. */
    game old = games[3];
    make_game(5, &games[3], g);
    CHECK_INT(kifu_index_add_file(ix, g, NULL, NULL, &err), KIFU_INDEX_REPLACED);
    CHECK_INT(kifu_index_flush(ix, &err), 0);
    kifu_index_info info;
    kifu_index_info_get(ix, &info, &err);
    long long positions = 0;
    for (int i = 0; i < GAMES; i++)
        positions += games[i].plies + 1;
    CHECK_INT(info.games, GAMES);
    CHECK_INT(info.positions, positions);
    kifu_position *p = after("startpos");
    kifu_explore *e = kifu_index_explore(ix, p, NULL, &err);
    const kifu_explore_move *m = find(e, "5g5f");
    long long want = 0;
    for (int i = 0; i < GAMES; i++)
        want += games[i].opening == 2;
    CHECK(m && m->games == want);
    (void)old;
    kifu_explore_free(e);
    kifu_position_free(p);
    kifu_index_close(ix, &err);
}

TEST(foreign_and_damaged_files)
{
    if (t_index_clickhouse())
        SKIP("on ClickHouse: damaged and foreign SQLite files");
    char path[512];
    kifu_error err;
    snprintf(path, sizeof path, "%s/text.kdb", dir);
    FILE *f = fopen(path, "w");
    fputs("this is not a database, just some text that is long enough to look at\n", f);
    fclose(f);
    kifu_error_clear(&err);
    CHECK(t_index_open(path, 0, &err) == NULL);
    CHECK(strstr(err.message, "not a kifu index") != NULL);
    CHECK(strstr(err.source, "text.kdb") != NULL);
    /* Another program's SQLite database. */
    snprintf(path, sizeof path, "%s/other.kdb", dir);
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "sqlite3 %s 'CREATE TABLE t(x)' 2>/dev/null", path);
    if (system(cmd) == 0) {
        kifu_error_clear(&err);
        CHECK(t_index_open(path, 0, &err) == NULL);
        CHECK(strstr(err.message, "not a kifu index") != NULL);
    }
    /* A missing file without CREATE. */
    snprintf(path, sizeof path, "%s/missing.kdb", dir);
    kifu_error_clear(&err);
    CHECK(t_index_open(path, 0, &err) == NULL);
    CHECK_INT(err.code, KIFU_ERR_IO);
    /* A kifu index cut in half: an error, never a crash. */
    char src[512];
    snprintf(src, sizeof src, "%s/one.kdb", dir);
    snprintf(path, sizeof path, "%s/cut.kdb", dir);
    snprintf(cmd, sizeof cmd, "head -c 20000 %s > %s", src, path);
    if (system(cmd) == 0) {
        kifu_error_clear(&err);
        kifu_index *ix = t_index_open(path, KIFU_INDEX_READONLY, &err);
        if (ix) {
            kifu_position *p = after("startpos");
            kifu_explore *e = kifu_index_explore(ix, p, NULL, &err);
            kifu_index_info info;
            int rc = kifu_index_info_get(ix, &info, &err);
            CHECK(e == NULL || rc != 0 || err.code != 0 || info.games < GAMES);
            kifu_explore_free(e);
            kifu_position_free(p);
            kifu_index_close(ix, NULL);
        } else {
            CHECK(err.message[0] != 0);
        }
    }
}

static int warnings;
static char last_warning[1200];
static void on_warning(void *ctx, const char *msg)
{
    (void)ctx;
    warnings++;
    snprintf(last_warning, sizeof last_warning, "%s", msg);
}

/* Games of one file are indexed as the reader finishes each: a bad game costs only
 * itself (and is named once the file has read), a file that does not read costs all
 * of its games, those read before the damage too. */
TEST(bad_games_of_a_file)
{
    static const char *const good = "V2.2\nPI\n+\n+7776FU\n-3334FU\n%TORYO\n";
    static const char *const illegal = "V2.2\nPI\n+\n+7776FU\n-3334FU\n+2877HI\n%TORYO\n";
    /* The same moves by other players: another game (the same twice is one). */
    static const char *const good2 = "V2.2\nN+A\nN-B\nPI\n+\n+7776FU\n-3334FU\n%TORYO\n";
    char path[512], kdb[512];
    snprintf(kdb, sizeof kdb, "%s/bad.kdb", dir);
    remove(kdb);
    kifu_error err;
    kifu_error_clear(&err);
    kifu_index *ix = t_index_open(kdb, KIFU_INDEX_CREATE, &err);
    CHECK(ix != NULL);
    if (!ix)
        return;
    snprintf(path, sizeof path, "%s/three.csa", dir);
    FILE *f = fopen(path, "w");
    fputs(good, f), fputs("/\n", f), fputs(illegal, f), fputs("/\n", f), fputs(good2, f);
    fclose(f);
    warnings = 0;
    CHECK_INT(kifu_index_add_file(ix, path, on_warning, NULL, &err), KIFU_INDEX_ADDED);
    CHECK_INT(warnings, 1);
    CHECK(strstr(last_warning, "game 2 skipped") != NULL);
    CHECK_INT(kifu_index_stats_get(ix)->records_failed, 1);
    /* Two good games, then one the reader stops at. */
    snprintf(path, sizeof path, "%s/broken.csa", dir);
    f = fopen(path, "w");
    fputs(good, f), fputs("/\n", f), fputs(good, f), fputs("/\nV2.2\nPI\n+\n+77\n", f);
    fclose(f);
    kifu_error_clear(&err);
    warnings = 0;
    CHECK_INT(kifu_index_add_file(ix, path, on_warning, NULL, &err), -1);
    CHECK(err.code != 0);
    CHECK_INT(warnings, 0);
    CHECK_INT(kifu_index_stats_get(ix)->files_failed, 1);
    CHECK(kifu_index_flush(ix, &err) == 0);
    kifu_index_info info;
    CHECK(kifu_index_info_get(ix, &info, &err) == 0);
    CHECK_INT(info.games, 2);
    CHECK_INT(info.positions, 6);
    kifu_index_close(ix, NULL);
}

/* A process killed while it adds leaves the file as it was before that add. */
TEST(killed_add_leaves_the_file_as_before)
{
    if (t_index_clickhouse())
        SKIP("on ClickHouse: a killed add: the SQLite file and its log");
    if (system("command -v sqlite3 >/dev/null 2>&1") != 0)
        SKIP("no sqlite3 command to dump the tables");
    kifu_error err;
    kifu_index *ix = build("kill.kdb", 0, 60, 1);
    CHECK_INT(kifu_index_close(ix, &err), 0);
    char *before = dump("kill.kdb");
    /* What the add makes when it runs to the end: a kill that lands after its commit
     * (the child is between COMMIT and _exit) finds this, never anything else. */
    ix = build("kill-after.kdb", 0, 60, 1);
    kifu_index_close(ix, &err);
    ix = build("kill-after.kdb", 60, GAMES, 0);
    kifu_index_close(ix, &err);
    char *after = dump("kill-after.kdb");
    int killed_before_commit = 0;
    for (int round = 0; round < 6; round++) {
        pid_t pid = fork();
        if (pid == 0) {
            /* Small batches: the add writes many of them before its commit, and is killed
             * among them (a whole add in one batch could finish before the kill). */
            kifu__index_batch = 300;
            kifu_index *c = build("kill.kdb", 60, GAMES, 0);
            kifu_index_flush(c, NULL);
            _exit(0);
        }
        /* From 1 ms on (before the add has written anything) to 21 ms (among its batches
         * on a quiet machine): a fixed delay alone killed too late where the machine is
         * fast. */
        struct timespec ts = {0, (1 + 4 * round) * 1000000L};
        nanosleep(&ts, NULL);
        kill(pid, SIGKILL);
        int st;
        waitpid(pid, &st, 0);
        char *now = WIFSIGNALED(st) ? dump("kill.kdb") : NULL;
        CHECK(now != NULL || !WIFSIGNALED(st)); /* a killed add leaves a readable file */
        if (now && before && strcmp(now, before) == 0) {
            killed_before_commit++;
            free(now);
        } else if (now) {
            CHECK(after != NULL && strcmp(now, after) == 0);
            free(now);
            break;
        } else {
            /* It finished first: start again from the state before. */
            ix = build("kill.kdb", 0, 0, 0);
            kifu_index_close(ix, NULL);
            break;
        }
    }
    CHECK(killed_before_commit > 0);
    free(before);
    free(after);
}

static int collect(void *ctx, const char *data, size_t len)
{
    FILE *f = ctx;
    return fwrite(data, 1, len, f) == len ? 0 : -1;
}

/* The book of one.kdb over plies 0..4 in `format`, into new memory (NULL on failure). */
static char *book(int format, size_t *len)
{
    char path[512];
    kifu_error err;
    kifu_error_clear(&err);
    snprintf(path, sizeof path, "%s/one.kdb", dir);
    kifu_index *ix = t_index_open(path, KIFU_INDEX_READONLY, &err);
    CHECK(ix != NULL);
    if (!ix)
        return NULL;
    char *data = NULL;
    FILE *f = open_memstream(&data, len);
    kifu_book_options o = {0, 4, 1};
    CHECK_INT(kifu_index_export_book(ix, format, &o, collect, f, &err), 0);
    fclose(f);
    kifu_index_close(ix, &err);
    return data;
}

TEST(yaneuraou_book)
{
    if (t_index_clickhouse())
        SKIP("on ClickHouse: book export: the ClickHouse index has none");
    size_t len = 0;
    char *text = book(KIFU_BOOK_YANEURAOU, &len);
    if (!text)
        return;
    CHECK(strncmp(text, "#YANEURAOU-DB2016 1.00\n", 23) == 0);
    const char *start =
        "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\n";
    char *at = strstr(text, start);
    CHECK(at != NULL);
    if (at) {
        /* The three first moves with their game counts, most played first. */
        long counts[3] = {0, 0, 0};
        for (int i = 0; i < GAMES; i++)
            counts[games[i].opening]++;
        const char *usi[3] = {"7g7f", "2g2f", "5g5f"};
        for (int k = 0; k < 3; k++) {
            char want[64];
            snprintf(want, sizeof want, "\n%s none 0 0 %ld\n", usi[k], counts[k]);
            char *m = strstr(at + strlen(start) - 1, want);
            CHECK(m != NULL && m < at + strlen(start) + 80);
        }
    }
    /* Positions in SFEN order, each with at least one move line. */
    char prev[256] = "";
    int positions = 0;
    for (char *l = strtok(text, "\n"); l; l = strtok(NULL, "\n")) {
        if (strncmp(l, "sfen ", 5) == 0) {
            CHECK(strcmp(prev, l) < 0);
            snprintf(prev, sizeof prev, "%s", l);
            positions++;
        }
    }
    CHECK(positions > 10);
    free(text);
}

/* Internal: std::mt19937_64 with its default seed (index_book.c). */
void kifu__index_mt64(uint64_t *out, size_t n);

/* The build's key-only replay (index_build.c) against the engine: at every ply of random
 * games (captures, drops and promotions in plenty, from the start and from a position
 * with pieces in hand), the key of the moves so far equals the key of the board reached. */
TEST(key_only_replay_keeps_engine_keys)
{
    static const char *const starts[2] = {
        "startpos",
        "sfen lnsgkgsnl/1r5b1/pppppp1pp/9/9/9/PPPPPP1PP/1B5R1/LNSGKGSNL b Pp 1"};
    kifu__rules_init();
    long plies = 0, drops = 0, captures = 0, promotions = 0;
    for (int g = 0; g < 200; g++) {
        kifu_position *p = kifu_position_new();
        CHECK(kifu_position_set_sfen(p, starts[g % 2], NULL) == 0);
        kifu_board b;
        kifu_position_board(p, &b);
        kpos start;
        kifu__pos_from_board(&start, &b);
        kmove line[300];
        size_t n = 0;
        while (n < 300) {
            kifu_move moves[600];
            size_t k = kifu_position_legal_moves(p, moves, 600);
            if (!k)
                break;
            kifu_move m = moves[rnd() % k];
            CHECK(kifu_position_play(p, &m, NULL) == 0);
            kmove km = kifu__move_pack(&m);
            drops += MOVE_IS_DROP(km), captures += MOVE_CAPTURE(km) != 0;
            promotions += MOVE_IS_PROMOTE(km);
            line[n++] = km;
            kifu_position_board(p, &b);
            kpos q;
            kifu__pos_from_board(&q, &b);
            if (kifu__index_key_line(&start, line, n) != q.key) {
                printf("  game %d ply %zu: the key-only replay left the engine's key\n",
                       g, n);
                CHECK(0);
                break;
            }
            plies++;
        }
        kifu_position_free(p);
    }
    CHECK(plies > 10000 && drops > 100 && captures > 1000 && promotions > 100);
}

TEST(mt19937_64_as_the_cpp_standard_says)
{
    /* [rand.predef]: the 10000th output of a default-constructed mt19937_64. */
    uint64_t *v = malloc(10000 * sizeof *v);
    kifu__index_mt64(v, 10000);
    CHECK(v[9999] == 9981545732273789042ULL);
    free(v);
}

/* Apery's key as its book.cpp builds it, from the raw numbers: ZobPiece[31][81], then
 * ZobHand[7][19] (pawn, lance, knight, silver, gold, bishop, rook), then ZobTurn. */
static uint64_t apery_key(const kifu_board *b, const uint64_t *z)
{
    static const int kind_of_hand[7] = {KIFU_FU, KIFU_KY, KIFU_KE, KIFU_GI,
                                        KIFU_KI, KIFU_KA, KIFU_HI};
    uint64_t k = 0;
    for (int sq = 0; sq < 81; sq++)
        if (b->sq[sq])
            k ^= z[b->sq[sq] * 81 + sq];
    for (int h = 0; h < 7; h++)
        k ^= z[31 * 81 + h * 19 + b->hands[b->color][kind_of_hand[h]]];
    return b->color ? k ^ z[31 * 81 + 7 * 19] : k;
}

static uint64_t le(const unsigned char *p, int n)
{
    uint64_t v = 0;
    for (int i = n - 1; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

TEST(apery_book)
{
    if (t_index_clickhouse())
        SKIP("on ClickHouse: book export: the ClickHouse index has none");
    size_t len = 0;
    char *data = book(KIFU_BOOK_APERY, &len);
    if (!data)
        return;
    CHECK(len > 0 && len % 16 == 0);
    uint64_t z[31 * 81 + 7 * 19 + 1];
    kifu__index_mt64(z, sizeof z / sizeof z[0]);
    kifu_board start;
    kifu_preset_board(KIFU_PRESET_HIRATE, &start);
    uint64_t key = apery_key(&start, z);
    long counts[3] = {0, 0, 0};
    for (int i = 0; i < GAMES; i++)
        counts[games[i].opening]++;
    /* 7g7f, 2g2f, 5g5f as Apery's 15-bit moves: to | from << 7. */
    const unsigned moves[3] = {KIFU_SQ(7, 6) | KIFU_SQ(7, 7) << 7,
                               KIFU_SQ(2, 6) | KIFU_SQ(2, 7) << 7,
                               KIFU_SQ(5, 6) | KIFU_SQ(5, 7) << 7};
    int found = 0;
    const unsigned char *d = (const unsigned char *)data;
    for (size_t i = 0; i + 16 <= len; i += 16) {
        if (i)
            CHECK(le(d + i - 16, 8) <= le(d + i, 8)); /* sorted for a binary search */
        CHECK_INT(le(d + i + 12, 4), 0);              /* the score */
        if (le(d + i, 8) != key)
            continue;
        for (int k = 0; k < 3; k++)
            if (le(d + i + 8, 2) == moves[k]) {
                CHECK_INT(le(d + i + 10, 2), counts[k]);
                found++;
            }
    }
    CHECK_INT(found, 3);
    /* After 7g7f gote moves: the turn number counts, and 3c3d is the only reply. */
    kifu_position *p = after("position startpos moves 7g7f");
    kifu_board b;
    kifu_position_board(p, &b);
    kifu_position_free(p);
    uint64_t k2 = apery_key(&b, z);
    int replies = 0;
    for (size_t i = 0; i + 16 <= len; i += 16)
        if (le(d + i, 8) == k2) {
            CHECK_INT(le(d + i + 8, 2), KIFU_SQ(3, 4) | KIFU_SQ(3, 3) << 7);
            CHECK_INT(le(d + i + 10, 2), counts[0]);
            replies++;
        }
    CHECK_INT(replies, 1);
    free(data);
}

/* ---- Date ranges: day lists against a brute-force count ------------------------------ */

typedef struct want_move {
    char usi[8];
    long long games, res[6];
    long long rated, rating_sum; /* the movers' ratings */
    char last[11];
    int ntop;
    struct {
        long long id;
        int ply;
        char date[11];
    } top[5];
} want_move;

/* Is game i's date (YYYY/MM/DD, "" unknown) within [from, to] (YYYY-MM-DD, NULL open)?
 * Its date as the index writes it into iso. */
static int in_range(int i, const char *from, const char *to, char iso[11])
{
    snprintf(iso, 11, "%s", games[i].date);
    for (char *c = iso; *c; c++)
        if (*c == '/')
            *c = '-';
    if ((from || to) && !iso[0])
        return 0;
    return (!from || strcmp(iso, from) >= 0) && (!to || strcmp(iso, to) <= 0);
}

static int later_than(const char *d1, long long id1, const char *d2, long long id2)
{
    int c = strcmp(d1, d2);
    return c > 0 || (c == 0 && id1 > id2);
}

/* What the explorer must say at p for games in [from, to], by replaying every game:
 * the moves (with games, results, the latest date and the latest five games), and the
 * games through p. Game i has id i + 1 (the files are indexed in order). */
static size_t brute_force(const kifu_position *p, const char *from, const char *to,
                          want_move *w, long long *through)
{
    uint64_t key = kifu_position_hash(p);
    size_t n = 0;
    *through = 0;
    for (int i = 0; i < GAMES; i++) {
        char iso[11];
        if (!in_range(i, from, to, iso))
            continue;
        kifu_position *q = after("startpos");
        int seen = 0;
        char played[64][8];
        int nplayed = 0;
        for (int ply = 0; ply <= games[i].plies; ply++) {
            if (kifu_position_hash(q) == key) {
                *through += !seen;
                seen = 1;
                const char *u = ply < games[i].plies ? games[i].usi[ply] : NULL;
                int again = 0;
                for (int k = 0; u && k < nplayed; k++)
                    again |= strcmp(played[k], u) == 0;
                if (u && !again) {
                    snprintf(played[nplayed++], 8, "%s", u);
                    size_t m = 0;
                    while (m < n && strcmp(w[m].usi, u) != 0)
                        m++;
                    if (m == n) {
                        memset(&w[n], 0, sizeof w[n]);
                        snprintf(w[n++].usi, 8, "%s", u);
                    }
                    want_move *x = &w[m];
                    x->games++;
                    x->res[games[i].result]++;
                    /* From the start: sente moves at even plies. */
                    int rating = games[i].rating[ply % 2];
                    if (rating)
                        x->rated++, x->rating_sum += rating;
                    if (strcmp(iso, x->last) > 0)
                        snprintf(x->last, sizeof x->last, "%s", iso);
                    int at = x->ntop < 5 ? x->ntop++ : 5;
                    while (at > 0 && later_than(iso, i + 1, x->top[at - 1].date,
                                                x->top[at - 1].id)) {
                        if (at < 5)
                            x->top[at] = x->top[at - 1];
                        at--;
                    }
                    if (at < 5) {
                        x->top[at].id = i + 1, x->top[at].ply = ply;
                        snprintf(x->top[at].date, sizeof x->top[at].date, "%s", iso);
                    }
                }
            }
            if (ply == games[i].plies)
                break;
            kifu_move mv;
            kifu_position_parse_usi(q, games[i].usi[ply], &mv, NULL);
            kifu_position_play(q, &mv, NULL);
        }
        kifu_position_free(q);
    }
    return n;
}

/* Is avg the mean of n ratings summed to sum, rounded (0 when n is 0)? */
static int mean_of(int avg, long long sum, long long n)
{
    if (!n)
        return avg == 0;
    /* Rounded, halves up: avg - 1/2 <= mean < avg + 1/2, times 2n. */
    long long d = 2 * (long long)avg * n - 2 * sum;
    return d > -n && d <= n;
}

/* The explorer's answer at p for [from, to] equals the brute-force count. */
static void same_as_brute(kifu_index *ix, const char *what, const kifu_position *p,
                          const char *from, const char *to)
{
    want_move w[64];
    long long through;
    size_t n = brute_force(p, from, to, w, &through);
    kifu_explore_options o = {.date_from = from, .date_to = to};
    kifu_error err;
    kifu_error_clear(&err);
    kifu_explore *e = kifu_index_explore(ix, p, &o, &err);
    CHECK(e != NULL);
    if (!e)
        return;
    int bad = kifu_explore_games(e) != through || kifu_explore_count(e) != n;
    for (size_t i = 0; i < n && !bad; i++) {
        const kifu_explore_move *m = find(e, w[i].usi);
        bad = !m || m->games != w[i].games || m->sente_wins != w[i].res[1] ||
              m->gote_wins != w[i].res[2] || m->sennichite != w[i].res[3] ||
              m->unknown != w[i].res[0] || strcmp(m->last_date, w[i].last) != 0 ||
              m->ntop != (size_t)w[i].ntop || m->rated != w[i].rated ||
              !mean_of(m->avg_rating, w[i].rating_sum, w[i].rated);
        for (int k = 0; !bad && k < w[i].ntop; k++)
            bad = m->top[k].id != w[i].top[k].id || m->top[k].ply != w[i].top[k].ply ||
                  strcmp(m->top[k].date ? m->top[k].date : "", w[i].top[k].date) != 0;
    }
    if (bad)
        printf("  %s: %s..%s: not what the games say (%lld games through it, want %lld; "
               "%zu moves, want %zu)\n",
               what, from ? from : "", to ? to : "", kifu_explore_games(e), through,
               kifu_explore_count(e), n);
    CHECK(!bad);
    kifu_explore_free(e);
}

/* Two texts alike, NULL only as NULL. */
static int same_text(const char *a, const char *b)
{
    return a && b ? !strcmp(a, b) : a == b;
}

/* Two listed games alike: every field the explorer prints. */
static int same_game(const kifu_explore_game *x, const kifu_explore_game *y)
{
    return x->id == y->id && x->ply == y->ply && x->number == y->number &&
           x->result == y->result && same_text(x->sente, y->sente) &&
           same_text(x->gote, y->gote) && same_text(x->date, y->date) &&
           same_text(x->event, y->event) && same_text(x->source, y->source);
}

/* Two answers alike: every move with its counts, latest date and listed games. */
static int same_answer(const kifu_explore *a, const kifu_explore *b)
{
    if (kifu_explore_games(a) != kifu_explore_games(b) ||
        kifu_explore_count(a) != kifu_explore_count(b))
        return 0;
    for (size_t i = 0; i < kifu_explore_count(a); i++) {
        const kifu_explore_move *x = kifu_explore_move_at(a, i),
                                *y = kifu_explore_move_at(b, i);
        if (strcmp(x->usi, y->usi) || x->games != y->games ||
            x->sente_wins != y->sente_wins || x->gote_wins != y->gote_wins ||
            x->sennichite != y->sennichite || x->jishogi != y->jishogi ||
            x->draws != y->draws || x->unknown != y->unknown ||
            strcmp(x->last_date, y->last_date) || x->ntop != y->ntop ||
            x->rated != y->rated || x->avg_rating != y->avg_rating)
            return 0;
        for (size_t k = 0; k < x->ntop; k++)
            if (!same_game(&x->top[k], &y->top[k]))
                return 0;
    }
    return 1;
}

static long days_rows(const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    sqlite3 *db;
    long n = -1;
    sqlite3_stmt *st;
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK &&
        sqlite3_prepare_v2(db, "SELECT count(*) FROM hot WHERE days IS NOT NULL", -1, &st,
                           NULL) == SQLITE_OK) {
        if (sqlite3_step(st) == SQLITE_ROW)
            n = sqlite3_column_int64(st, 0);
        sqlite3_finalize(st);
    }
    sqlite3_close(db);
    return n;
}

/* A date range on a position played often enough is answered from its day lists: the
 * same answer as the games counted one by one, whatever the range (cutting months,
 * one day, open at either end, empty), the games of unknown date left out, and
 * whether the index was built at once, in several adds (keys that get their lists in a
 * later add, lists that take in later games) or in several batches of a bulk build. */
TEST(date_ranges_from_day_lists)
{
    if (t_index_clickhouse())
        SKIP("on ClickHouse: the SQLite file's day lists");
    long keep = kifu__index_dated;
    size_t keep_batch = kifu__index_batch;
    kifu_error err;
    kifu__index_dated = 60;
    kifu_index *ix = build("d1.kdb", 0, GAMES, 1);
    CHECK_INT(kifu_index_close(ix, &err), 0);
    ix = build("d3.kdb", 0, 100, 1);
    CHECK_INT(kifu_index_close(ix, &err), 0);
    ix = build("d3.kdb", 100, 170, 0);
    CHECK_INT(kifu_index_close(ix, &err), 0);
    ix = build("d3.kdb", 170, GAMES, 0);
    CHECK_INT(kifu_index_close(ix, &err), 0);
    kifu__index_batch = 6000; /* about half the games a batch */
    char path[512];
    snprintf(path, sizeof path, "%s/dbulk.kdb", dir);
    ix = t_index_open(path, KIFU_INDEX_CREATE | KIFU_INDEX_BULK, &err);
    for (int i = 0; ix && i < GAMES; i++) {
        char g[512];
        game_path(i, g, sizeof g);
        CHECK(kifu_index_add_file(ix, g, NULL, NULL, &err) >= 0);
    }
    CHECK_INT(kifu_index_close(ix, &err), 0);
    kifu__index_batch = keep_batch;
    kifu__index_dated = 1L << 30;
    ix = build("dnone.kdb", 0, GAMES, 1);
    CHECK_INT(kifu_index_close(ix, &err), 0);
    kifu__index_dated = keep;
    CHECK(days_rows("d1.kdb") > 0);
    CHECK_INT(days_rows("d3.kdb"), days_rows("d1.kdb"));
    CHECK(days_rows("dbulk.kdb") > 0);
    CHECK_INT(days_rows("dnone.kdb"), 0);
    if (system("command -v sqlite3 >/dev/null 2>&1") == 0)
        same_tables("d1.kdb", "d3.kdb");

    static const char *const at[] = {
        "startpos", "position startpos moves 7g7f", "position startpos moves 7g7f 3c3d",
        "position startpos moves 2g2f 3c3d 7g7f", "position startpos moves 5g5f 5c5d"};
    static const char *const ranges[][2] = {{"2024-03-15", "2024-08-20"},
                                            {"2024-06-01", "2024-06-30"},
                                            {NULL, "2024-02-10"},
                                            {"2024-11-05", NULL},
                                            {"2024-06-15", "2024-06-15"},
                                            {"2024-02-29", "2024-03-01"},
                                            {"2025-01-01", NULL},
                                            {"2024-07-01", "2024-03-01"},
                                            {"2024-01-01", "2024-12-31"},
                                            {"2024-06", "2024-07"},
                                            {NULL, NULL}};
    static const char *const files[] = {"d1.kdb", "d3.kdb", "dbulk.kdb", "dnone.kdb"};
    kifu_index *ixs[4];
    for (int f = 0; f < 4; f++) {
        snprintf(path, sizeof path, "%s/%s", dir, files[f]);
        ixs[f] = t_index_open(path, KIFU_INDEX_READONLY, &err);
        CHECK(ixs[f] != NULL);
        if (!ixs[f])
            return;
    }
    for (size_t i = 0; i < sizeof at / sizeof *at; i++) {
        kifu_position *p = after(at[i]);
        for (int f = 0; f < 4; f++)
            for (size_t r = 0; r < sizeof ranges / sizeof *ranges; r++)
                same_as_brute(ixs[f], files[f], p, ranges[r][0], ranges[r][1]);
        /* With the colour-flipped position and more games listed: as counted one by
         * one (the index without day lists). */
        kifu_explore_options o = {
            .date_from = "2024-04-10", .date_to = "2024-10-20", .flip = 1, .top = 10};
        kifu_explore *want = kifu_index_explore(ixs[3], p, &o, &err);
        for (int f = 0; f < 3; f++) {
            kifu_explore *got = kifu_index_explore(ixs[f], p, &o, &err);
            CHECK(want && got && same_answer(got, want));
            kifu_explore_free(got);
        }
        kifu_explore_free(want);
        kifu_position_free(p);
    }
    for (int f = 0; f < 4; f++)
        kifu_index_close(ixs[f], NULL);

    /* A damaged day list is an error that says so, not a crash or a wrong count. */
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "cp %s/d1.kdb %s/dbad.kdb", dir, dir);
    CHECK_INT(system(cmd), 0);
    snprintf(path, sizeof path, "%s/dbad.kdb", dir);
    sqlite3 *db;
    CHECK(sqlite3_open(path, &db) == SQLITE_OK &&
          sqlite3_exec(db,
                       "UPDATE explorer SET days = x'05000000' WHERE days IS NOT NULL",
                       NULL, NULL, NULL) == SQLITE_OK);
    sqlite3_close(db);
    ix = t_index_open(path, KIFU_INDEX_READONLY, &err);
    kifu_position *p = after("startpos");
    kifu_explore_options june = {.date_from = "2024-06-01", .date_to = "2024-06-30"};
    kifu_error_clear(&err);
    CHECK(ix && kifu_index_explore(ix, p, &june, &err) == NULL);
    CHECK(strstr(err.message, "damaged: the day list of key") != NULL);
    CHECK_INT(err.code, KIFU_ERR_IO);
    kifu_explore *e = ix ? kifu_index_explore(ix, p, NULL, &err) : NULL;
    CHECK(e != NULL); /* the totals are whole */
    kifu_explore_free(e);
    kifu_position_free(p);
    kifu_index_close(ix, NULL);
}

/* A hot position's listed games are read from its listing (index_listing.c): what the
 * games' own rows say, after a file was replaced too (one.kdb, by the test before), with
 * the colour-flipped position and more games listed; a listing for every hot position;
 * a damaged one an error that says so. */
TEST(listed_games_as_their_rows)
{
    if (t_index_clickhouse())
        SKIP("on ClickHouse: the SQLite file's listings");
    if (system("command -v sqlite3 >/dev/null 2>&1") != 0)
        SKIP("no sqlite3 command to change a copy of the file");
    char one[512], rows[512], bad[512], cmd[1800];
    snprintf(one, sizeof one, "%s/one.kdb", dir);
    snprintf(rows, sizeof rows, "%s/rows.kdb", dir);
    snprintf(bad, sizeof bad, "%s/badlist.kdb", dir);
    CHECK(count_rows(one, "listing") > 0);
    CHECK_INT(count_rows(one, "listing"), count_rows(one, "hot"));
    /* The copy without listings reads every listed game from its row. */
    snprintf(cmd, sizeof cmd,
             "cp %s %s && sqlite3 %s 'DELETE FROM listing' && cp %s %s && sqlite3 %s "
             "\"UPDATE listing SET games = x'0102'\"",
             one, rows, rows, one, bad, bad);
    CHECK_INT(system(cmd), 0);
    kifu_error err;
    kifu_index *ix = t_index_open(one, KIFU_INDEX_READONLY, &err),
               *ir = t_index_open(rows, KIFU_INDEX_READONLY, &err);
    CHECK(ix && ir);
    static const char *const at[] = {"startpos", "position startpos moves 7g7f",
                                     "position startpos moves 7g7f 3c3d"};
    kifu_explore_options opts[] = {{0}, {.flip = 1}, {.top = 10}};
    for (size_t i = 0; ix && ir && i < sizeof at / sizeof *at; i++) {
        kifu_position *p = after(at[i]);
        for (size_t k = 0; k < sizeof opts / sizeof *opts; k++) {
            kifu_explore *got = kifu_index_explore(ix, p, &opts[k], &err),
                         *want = kifu_index_explore(ir, p, &opts[k], &err);
            CHECK(got && want && kifu_explore_count(got) > 0 && same_answer(got, want));
            kifu_explore_free(got), kifu_explore_free(want);
        }
        kifu_position_free(p);
    }
    kifu_index_close(ix, NULL), kifu_index_close(ir, NULL);
    ix = t_index_open(bad, KIFU_INDEX_READONLY, &err);
    kifu_position *p = after("startpos");
    kifu_error_clear(&err);
    CHECK(ix && kifu_index_explore(ix, p, NULL, &err) == NULL);
    CHECK(strstr(err.message, "damaged: the listing of key") != NULL);
    CHECK_INT(err.code, KIFU_ERR_IO);
    kifu_position_free(p);
    kifu_index_close(ix, NULL);
}

/* Filters by player, colour, event and rating: the games they admit replayed from the
 * games table (what a much played position takes when they are few) give the answer
 * the position's occurrences give; an event some games have is counted from its games. */
TEST(filtered_games_replayed)
{
    if (t_index_clickhouse())
        SKIP("on ClickHouse: the SQLite index's two ways of counting "
             "(kifu__index_replay)");
    char path[512];
    snprintf(path, sizeof path, "%s/d1.kdb", dir);
    kifu_error err;
    kifu_index *ix = t_index_open(path, KIFU_INDEX_READONLY, &err);
    CHECK(ix != NULL);
    if (!ix)
        return;
    static const char *const at[] = {"startpos", "position startpos moves 7g7f",
                                     "position startpos moves 2g2f 3c3d 7g7f"};
    kifu_explore_options opts[] = {
        {.player = "Sato"},
        {.player = "Ito", .player_color = 1},
        {.player = "Tanaka", .player_color = 2, .flip = 1},
        {.player = "Suzuki", .date_from = "2024-03-15", .date_to = "2024-09-10"},
        {.player = "Sato", .event = "Club"},
        {.event = "Club"},
        {.event = "Cup", .date_from = "2024-05-01", .top = 8},
        {.event = "League", .flip = 1},
        {.min_rating = 1500},
        {.player = "Nobody"}};
    long keep = kifu__index_replay;
    for (size_t i = 0; i < sizeof at / sizeof *at; i++) {
        kifu_position *p = after(at[i]);
        for (size_t k = 0; k < sizeof opts / sizeof *opts; k++) {
            kifu__index_replay = 1L << 30; /* never: the occurrences decoded */
            kifu_explore *want = kifu_index_explore(ix, p, &opts[k], &err);
            kifu__index_replay = 1; /* whenever a set of games is made */
            kifu_explore *got = kifu_index_explore(ix, p, &opts[k], &err);
            CHECK(want && got && same_answer(got, want));
            if (want && got && !same_answer(got, want))
                printf("  %s, filter %zu: replayed games answer otherwise\n", at[i], k);
            kifu_explore_free(want), kifu_explore_free(got);
        }
        kifu_position_free(p);
    }
    kifu__index_replay = keep;
    /* The event filter some games pass: the games of "Club League" (odd numbers). */
    kifu_position *p = after("startpos");
    kifu_explore_options club = {.event = "Club"};
    kifu_explore *e = kifu_index_explore(ix, p, &club, &err);
    CHECK(e != NULL);
    if (e)
        CHECK_INT(kifu_explore_games(e), GAMES / 2);
    kifu_explore_free(e);
    kifu_position_free(p);
    kifu_index_close(ix, NULL);
}

/* kifu_index_games: Sato's games as sente, the longest first, a page of 5 from the third:
 * the games known by construction, sorted here (ties by file: ids follow the adds). */
typedef struct listed {
    char path[8][512];
    int plies[8], n;
} listed;

static int on_listed(void *ctx, const kifu_index_game *g)
{
    listed *l = ctx;
    if (l->n < 8) {
        snprintf(l->path[l->n], sizeof l->path[0], "%s", g->source);
        l->plies[l->n++] = g->plies;
    }
    return 0;
}

TEST(games_listed_sorted_and_paged)
{
    kifu_index *ix = build("list.kdb", 0, GAMES, 1);
    CHECK(ix != NULL);
    if (!ix)
        return;
    kifu_index_flush(ix, NULL);
    int want[GAMES], n = 0;
    for (int i = 0; i < GAMES; i++)
        if (!strcmp(games[i].sente, "Sato"))
            want[n++] = i;
    for (int i = 1; i < n; i++) /* by plies, the most first; ties by file */
        for (int k = i; k > 0 && games[want[k]].plies > games[want[k - 1]].plies; k--) {
            int t = want[k];
            want[k] = want[k - 1], want[k - 1] = t;
        }
    kifu_explore_options o = {.player = "Sato", .player_color = 1};
    listed l = {0};
    kifu_error err;
    long long total =
        kifu_index_games(ix, &o, KIFU_GAMES_LENGTH, 1, 2, 5, on_listed, &l, &err);
    CHECK(total == n);
    CHECK(l.n == (n - 2 < 5 ? n - 2 : 5));
    for (int i = 0; i < l.n; i++) {
        char path[512];
        game_path(want[i + 2], path, sizeof path);
        CHECK(!strcmp(l.path[i], path));
        CHECK(l.plies[i] == games[want[i + 2]].plies);
    }
    /* Every game, no filter: the total is the games indexed; a bad sort is refused. */
    CHECK(kifu_index_games(ix, NULL, KIFU_GAMES_DATE, 0, 0, 0, on_listed, &l, &err) ==
          GAMES);
    CHECK(kifu_index_games(ix, NULL, 99, 0, 0, 1, on_listed, &l, &err) == -1);
    kifu_index_close(ix, NULL);
}

int main(void)
{
    snprintf(dir, sizeof dir, "/tmp/kifu-index-test-XXXXXX");
    if (!mkdtemp(dir))
        return 1;
    for (int i = 0; i < GAMES; i++) {
        char path[512];
        game_path(i, path, sizeof path);
        make_game(i, &games[i], path);
    }
    RUN(counts_known_by_construction);
    RUN(games_listed_sorted_and_paged);
    RUN(built_in_steps_equals_built_at_once);
    RUN(prepared_on_threads_equals_added_in_turn);
    RUN(many_batches_equal_one);
    RUN(jobs_write_the_same_file);
    RUN(date_ranges_from_day_lists);
    RUN(filtered_games_replayed);
    RUN(yaneuraou_book);
    RUN(key_only_replay_keeps_engine_keys);
    RUN(mt19937_64_as_the_cpp_standard_says);
    RUN(apery_book);
    RUN(unchanged_and_replaced_files);
    RUN(listed_games_as_their_rows);
    RUN(foreign_and_damaged_files);
    RUN(bad_games_of_a_file);
    RUN(killed_add_leaves_the_file_as_before);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        printf("  could not remove %s\n", dir);
    return t_finish();
}
