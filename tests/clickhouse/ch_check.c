/* ch_check.c: the driver of the ClickHouse integration test (run.sh starts the servers).
 * It makes a collection with the engine, indexes it into a SQLite file or into ClickHouse
 * through the same kifu_index calls, and dumps explorer and exact-search answers for a set
 * of positions in one text form, so that run.sh can diff the backends.
 *
 *   ch_check gen DIR GAMES PER_FILE        random games after fixed openings, as CSA
 *   ch_check build TARGET DIR              index the .csa files of DIR (sorted) into TARGET
 *   ch_check dump TARGET DIR               explorer and search answers
 *   ch_check info TARGET                   games, positions, sources, hot positions
 *
 * TARGET is a .kdb path, or URL[,URL...] with CH_DATABASE, CH_CLUSTER and CH_CA_FILE (the
 * CAs of https URLs) from the environment; CH_POSITIONS caps the positions dumped (256), CH_CHECK_AFTER_OPEN and
 * CH_CHECK_BEFORE_FLUSH are shell commands build runs once the index is open and before
 * it writes. Errors go to stderr as "ch_check: message"; exit 1. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kifu.h"

static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static unsigned below(unsigned n)
{
    rng ^= rng >> 12, rng ^= rng << 25, rng ^= rng >> 27;
    return (unsigned)((rng * 0x2545F4914F6CDD1DULL) >> 33) % n;
}

static int fail(const char *what, const kifu_error *e)
{
    fprintf(stderr, "ch_check: %s: %s%s%s\n", what, e->source[0] ? e->source : "",
            e->source[0] ? ": " : "", e->message);
    return 1;
}

/* Openings: the first two transpose after three plies, so the explorer merges them. */
static const char *const openings[] = {"7g7f 3c3d 2g2f", "2g2f 3c3d 7g7f", "5g5f 5c5d",
                                       "7g7f 8c8d"};
static const char *const players[] = {"Sato", "Suzuki", "Tanaka", "Ito", "渡辺"};

static kifu_record *make_game(int i)
{
    kifu_record *r = kifu_record_new();
    kifu_position *p = kifu_position_new();
    kifu_record_set_preset(r, KIFU_PRESET_HIRATE);
    char buf[64];
    kifu_record_header_add(r, "先手", players[below(5)]);
    kifu_record_header_add(r, "後手", players[below(5)]);
    if (i % 7) { /* some games have no date */
        snprintf(buf, sizeof buf, "2024/%02u/%02u", 1 + below(12), 1 + below(28));
        kifu_record_header_add(r, "開始日時", buf);
    }
    kifu_record_header_add(r, "棋戦", i % 3 ? "Club League" : "Open Cup");
    if (i % 2) {
        snprintf(buf, sizeof buf, "%u", 1200 + below(800));
        kifu_record_header_add(r, "先手レーティング", buf);
        snprintf(buf, sizeof buf, "%u", 1200 + below(800));
        kifu_record_header_add(r, "後手レーティング", buf);
    }
    kifu_node *n = kifu_record_root(r);
    snprintf(buf, sizeof buf, "%s", openings[i % 4]);
    int ply = 0;
    for (char *t = strtok(buf, " "); t; t = strtok(NULL, " "), ply++) {
        kifu_move m;
        kifu_position_parse_usi(p, t, &m, NULL);
        kifu_position_play(p, &m, NULL);
        n = kifu_node_add_move(r, n, &m);
    }
    for (int want = 6 + (int)below(50); ply < want; ply++) {
        kifu_move moves[600];
        size_t k = kifu_position_legal_moves(p, moves, 600);
        if (!k)
            break;
        /* Few choices early, so that positions a few plies in are shared. */
        kifu_move m = moves[below(ply < 8 ? (k < 3 ? (unsigned)k : 3) : (unsigned)k)];
        kifu_position_play(p, &m, NULL);
        n = kifu_node_add_move(r, n, &m);
    }
    static const char *const ends[] = {"TORYO",   "TORYO",  "TORYO",   "SENNICHITE",
                                       "JISHOGI", "CHUDAN", "HIKIWAKE"};
    kifu_node_add_special(r, n, ends[below(7)]);
    kifu_position_free(p);
    return r;
}

static int gen(const char *dir, int games, int per_file)
{
    for (int i = 0; i < games; i += per_file) {
        kifu_record *rs[64];
        int n = 0;
        for (; n < per_file && n < 64 && i + n < games; n++)
            rs[n] = make_game(i + n);
        kifu_write_options w = {.format = KIFU_FMT_CSA};
        size_t len;
        kifu_error e;
        kifu_error_clear(&e);
        char *text =
            kifu_write_all((const kifu_record *const *)rs, (size_t)n, &w, &len, &e);
        for (int k = 0; k < n; k++)
            kifu_record_free(rs[k]);
        if (!text)
            return fail("write", &e);
        char path[512];
        snprintf(path, sizeof path, "%s/c%05d.csa", dir, i / per_file);
        FILE *f = fopen(path, "wb");
        if (!f || fwrite(text, 1, len, f) != len || fclose(f)) {
            fprintf(stderr, "ch_check: cannot write %s\n", path);
            return 1;
        }
        kifu_free(text);
    }
    return 0;
}

/* The collection's files, sorted: both backends add them in the same order. */
static int list_files(const char *dir, char ***out)
{
    struct dirent **names;
    int n = scandir(dir, &names, NULL, alphasort), k = 0;
    if (n < 0)
        return -1;
    *out = calloc((size_t)n + 1, sizeof **out);
    for (int i = 0; i < n; i++) {
        size_t len = strlen(names[i]->d_name);
        if (len > 4 && strcmp(names[i]->d_name + len - 4, ".csa") == 0) {
            (*out)[k] = malloc(strlen(dir) + len + 2);
            sprintf((*out)[k++], "%s/%s", dir, names[i]->d_name);
        }
        free(names[i]);
    }
    free(names);
    return k;
}

/* The collections of run.sh repeat games on purpose (more/ is games/'s first 20, a changed
 * file takes another's games): every game is kept, so that the counts of each step are
 * known. Skipping duplicates is compared on both backends by run.sh's kifu section. */
static kifu_index *open_target(const char *target, int create, kifu_error *e)
{
    unsigned flags = (create ? KIFU_INDEX_CREATE : 0) | KIFU_INDEX_KEEP_DUPLICATES;
    if (strncmp(target, "http://", 7) != 0 && strncmp(target, "https://", 8) != 0)
        return kifu_index_open(target, flags, e);
    kifu_clickhouse_options o = {0};
    o.database = getenv("CH_DATABASE");
    o.cluster = getenv("CH_CLUSTER");
    o.ca_file = getenv("CH_CA_FILE"); /* https URLs with a private CA (tls.sh) */
    if (o.cluster && !*o.cluster)
        o.cluster = NULL;
    o.retries = 2, o.backoff_ms = 50, o.timeout_ms = 20000;
    return kifu_index_open_clickhouse(target, flags, &o, e);
}

static void warn(void *ctx, const char *msg)
{
    (void)ctx;
    fprintf(stderr, "ch_check: warning: %s\n", msg);
}

static int build(const char *target, const char *dir)
{
    kifu_error e;
    kifu_error_clear(&e);
    kifu_index *ix = open_target(target, 1, &e);
    if (!ix)
        return fail("open", &e);
    /* The test stops a server here, to see an add fail after it opened. */
    const char *hook = getenv("CH_CHECK_AFTER_OPEN");
    if (hook && system(hook) != 0)
        fprintf(stderr, "ch_check: CH_CHECK_AFTER_OPEN failed\n");
    char **files;
    int n = list_files(dir, &files), failed = 0;
    for (int i = 0; i < n; i++) {
        if (!failed && kifu_index_add_file(ix, files[i], warn, NULL, &e) < 0)
            failed = 1;
        free(files[i]);
    }
    free(files);
    const kifu_index_stats *s = kifu_index_stats_get(ix);
    size_t added = s->files_added, unchanged = s->files_unchanged;
    /* ... and here, to see a batch fail halfway. */
    hook = getenv("CH_CHECK_BEFORE_FLUSH");
    if (!failed && hook && system(hook) != 0)
        fprintf(stderr, "ch_check: CH_CHECK_BEFORE_FLUSH failed\n");
    if (!failed && kifu_index_flush(ix, &e))
        failed = 1;
    printf("added %zu unchanged %zu games %zu positions %zu replaced %zu\n", added,
           unchanged, s->games, s->positions, s->files_replaced);
    kifu_index_close(ix, failed ? NULL : &e);
    return failed || e.code ? fail("build", &e) : 0;
}

static const char *str(const char *s)
{
    return s ? s : "-";
}

static void dump_explore(const kifu_explore *x)
{
    printf("  games %lld moves %zu\n", kifu_explore_games(x), kifu_explore_count(x));
    for (size_t i = 0; i < kifu_explore_count(x); i++) {
        const kifu_explore_move *m = kifu_explore_move_at(x, i);
        printf("  %s %s %lld +%lld -%lld s%lld j%lld d%lld u%lld last %s\n", m->usi,
               m->text, m->games, m->sente_wins, m->gote_wins, m->sennichite, m->jishogi,
               m->draws, m->unknown, m->last_date[0] ? m->last_date : "-");
        for (size_t k = 0; k < m->ntop; k++) {
            const kifu_explore_game *g = &m->top[k];
            const char *base = g->source ? strrchr(g->source, '/') : NULL;
            printf("    #%lld ply %d %s-%s %s %s %s:%d r%d\n", g->id, g->ply,
                   str(g->sente), str(g->gote), str(g->date), str(g->event),
                   base ? base + 1 : "-", g->number, g->result);
        }
    }
}

static int print_hit(void *ctx, const kifu_index_row *h)
{
    (void)ctx;
    const char *base = strrchr(h->source, '/');
    printf("  hit #%lld ply %d %s:%d\n", h->game, h->ply, base ? base + 1 : h->source,
           h->number);
    return 0;
}

/* Positions to ask about: plies 0-14 and the last position of the first games of every
 * fourth file (hot, shared and one-game positions), each once. */
static int positions(const char *dir, char ***sfens)
{
    char **files;
    const char *max = getenv("CH_POSITIONS");
    int n = list_files(dir, &files), k = 0, cap = max && atoi(max) > 0 ? atoi(max) : 256;
    *sfens = calloc((size_t)cap, sizeof **sfens);
    for (int i = 0; i < n; i++) {
        size_t len;
        unsigned char *data = i % 4 ? NULL : kifu_file_read(files[i], &len, NULL);
        kifu_record **recs = NULL;
        size_t nr = 0;
        if (data && kifu_read_all(data, len, NULL, &recs, &nr, NULL) == 0) {
            for (size_t r = 0; r < nr && r < 3; r++) {
                kifu_player *pl = kifu_player_new(recs[r], NULL);
                for (int ply = 0;; ply++) {
                    char *sfen = kifu_position_sfen(kifu_player_position(pl), 1);
                    int last = !kifu_player_forward(pl);
                    if ((ply <= 14 || last) && k < cap) {
                        int dup = 0;
                        for (int j = 0; j < k && !dup; j++)
                            dup = strcmp((*sfens)[j], sfen) == 0;
                        if (!dup)
                            (*sfens)[k++] = strdup(sfen);
                    }
                    kifu_free(sfen);
                    if (last)
                        break;
                }
                kifu_player_free(pl);
            }
        }
        for (size_t r = 0; r < nr; r++)
            kifu_record_free(recs[r]);
        kifu_free(recs);
        kifu_free(data);
        free(files[i]);
    }
    free(files);
    return k;
}

static int dump(const char *target, const char *dir)
{
    kifu_error e;
    kifu_error_clear(&e);
    kifu_index *ix = open_target(target, 0, &e);
    if (!ix)
        return fail("open", &e);
    kifu_explore_options opts[9] = {{0}};
    static const char *const names[9] = {"plain",       "flip",  "player",
                                         "player-gote", "dates", "event",
                                         "rated",       "top3",  "flip-player"};
    opts[1].flip = 1;
    opts[2].player = "Sato";
    opts[3].player = "渡辺", opts[3].player_color = 2;
    opts[4].date_from = "2024-03-01", opts[4].date_to = "2024-09-30";
    opts[5].event = "League";
    opts[6].min_rating = 1500;
    opts[7].top = 3;
    opts[8].flip = 1, opts[8].player = "Ito";
    char **sfens;
    int n = positions(dir, &sfens), rc = 0;
    for (int i = 0; i < n && !rc; i++) {
        kifu_position *p = kifu_position_new();
        kifu_position_set_sfen(p, sfens[i], NULL);
        printf("position %s\n", sfens[i]);
        for (int k = 0; k < 9 && !rc; k++) {
            kifu_explore *x = kifu_index_explore(ix, p, &opts[k], &e);
            if (!x) {
                rc = fail("explore", &e);
                break;
            }
            printf(" explore %s\n", names[k]);
            dump_explore(x);
            kifu_explore_free(x);
        }
        if (!rc) {
            long hits = kifu_index_find(ix, p, print_hit, NULL, &e);
            if (hits < 0)
                rc = fail("find", &e);
            else
                printf(" find %ld\n", hits);
        }
        kifu_position_free(p);
    }
    for (int i = 0; i < n; i++)
        free(sfens[i]);
    free(sfens);
    kifu_index_close(ix, NULL);
    return rc;
}

static int info(const char *target)
{
    kifu_error e;
    kifu_error_clear(&e);
    kifu_index *ix = open_target(target, 0, &e);
    kifu_index_info in;
    if (!ix || kifu_index_info_get(ix, &in, &e)) {
        kifu_index_close(ix, NULL);
        return fail("info", &e);
    }
    printf("games %lld positions %lld sources %lld hot %lld\n", in.games, in.positions,
           in.sources, in.hot_positions);
    kifu_index_close(ix, NULL);
    return 0;
}

/* kifu_index_compact on the target (on ClickHouse: the latest table folded). */
static int compact(const char *target)
{
    kifu_error e;
    kifu_error_clear(&e);
    kifu_index *ix = open_target(target, 1, &e);
    if (!ix || kifu_index_compact(ix, &e)) {
        kifu_index_close(ix, NULL);
        return fail("compact", &e);
    }
    kifu_index_close(ix, &e);
    return e.code ? fail("compact", &e) : 0;
}

int main(int argc, char **argv)
{
    if (argc == 5 && strcmp(argv[1], "gen") == 0)
        return gen(argv[2], atoi(argv[3]), atoi(argv[4]));
    if (argc == 4 && strcmp(argv[1], "build") == 0)
        return build(argv[2], argv[3]);
    if (argc == 4 && strcmp(argv[1], "dump") == 0)
        return dump(argv[2], argv[3]);
    if (argc == 3 && strcmp(argv[1], "info") == 0)
        return info(argv[2]);
    if (argc == 3 && strcmp(argv[1], "compact") == 0)
        return compact(argv[2]);
    fprintf(stderr, "usage: ch_check gen DIR GAMES PER_FILE | build TARGET DIR | dump "
                    "TARGET DIR | info TARGET | compact TARGET\n");
    return 2;
}
