/* index_private.h: the collection index (src/index/): the games of a user's collection
 * and every position of their main lines, keyed by the 64-bit Zobrist key of board + hands
 * + side to move, and the opening explorer over it, kept in one SQLite file or on
 * ClickHouse (clickhouse.h).
 *
 * The module owns the public calls, each passed to its backend (index.c, backend.h),
 * adding files (index_build.c: records to rows, the same for every backend) and the
 * explorer's answer (index_explore.c). The SQLite backend (index_sqlite.c) owns the
 * schema (index_schema.c), the batch's writes (index_sqlite_write.c: rows sorted by
 * bucket in index_sort.c, merged into blocks in index_runs.c), the blocks' coding
 * (index_block.c), the checksums beside blocks and moves (index_sum.c), the check of a
 * whole file (index_check.c), the explorer's counts (index_sqlite_explore.c), searches
 * (index_search.c, index_find.c), the games' tags and their filters (index_tags.c) and
 * book export (index_book.c). It may call tags (each game tagged in the replay that
 * reads it), search, fmt (reading records), record, notation, rules and core. */
#ifndef KIFU_INDEX_PRIVATE_H
#define KIFU_INDEX_PRIVATE_H

#include <sqlite3.h>
#include <stdint.h>

#include "core/arena.h"
#include "core/strbuf.h"
#include "index/backend.h"
#include "kifu.h"
#include "rules/position.h"

/* The schema version this build writes and reads. */
#define KIFU__INDEX_VERSION                                                              \
    10 /* 2: games.ending and games.header; 3: bucket blocks; \
       * 4: runs of blocks, dates in explorer.top; 5: hot.days and explorer.days; \
       * 6: players' keys and ranks, games.ident, sources.duplicates; \
       * 7: checksums, positions.sum and games.moves_sum; \
       * 8: game_tags and tag_names; \
       * 9: explorer.rating_sum and explorer.rated, ratings in the day lists; \
       * 10: the hot positions' listed games (listing) */
#define KIFU__INDEX_VERSION_TEXT "10"
/* Positions are stored by bucket: the key's top 18 bits (262,144 rows a run at most),
 * each row one packed block of every occurrence in it (index_block.c). SQLite's cost is
 * per row: with 20 bits a batch's million rows took a third of its write. */
#define KIFU__BUCKET_SHIFT 46
#define KIFU__BUCKET_LOW ((UINT64_C(1) << KIFU__BUCKET_SHIFT) - 1)
/* Each batch writes its blocks as a run of their own: positions.id is run << 20 | bucket,
 * so a batch's rows go after every row before it (appended, never rewritten) and a small
 * add writes only what it adds. Runs are merged later (index_runs.c). */
#define KIFU__RUN_SHIFT 20
#define KIFU__BUCKET_MASK ((UINT64_C(1) << KIFU__RUN_SHIFT) - 1)
/* One bucket's blocks, oldest run first, with their checksums and row ids (for
 * kifu__index_entries). */
#define KIFU__BLOCK_SQL                                                                  \
    "SELECT p.block, p.sum, p.id FROM runs r JOIN positions p ON p.id = (r.id << 20 | "  \
    "?1) ORDER BY r.id"
/* Occurrences held in memory before they are merged into the table (16 bytes each,
 * sorted in place but for a lane's worth): what bounds the memory of a build. The batches of one
 * add still commit together. A variable so that tests can make many small batches. */
#define KIFU__INDEX_BATCH ((size_t)1 << 25)
extern size_t kifu__index_batch;
/* A position played in at least this many games gets its explorer rows precomputed (the
 * `hot` and `explorer` tables), so that the start position of a million games answers
 * as fast as a position of one game. */
#define KIFU__INDEX_HOT 32
/* Top games kept per move of a hot position. */
#define KIFU__INDEX_TOP 5
/* A hot position played in at least this many games also gets its games counted by day
 * (index_days.c: `hot.days`, `explorer.days`), so that a date range is answered from
 * counts: decoding fewer occurrences than this takes a few dozen microseconds. A
 * variable so that tests can give small collections day lists. */
#define KIFU__INDEX_DATED 1024
extern long kifu__index_dated;
/* Occurrences of a hot position a filter's game (a player's, say) stands for: a game is
 * one row read and a replay of its line, some hundreds of decoded occurrences' time. A
 * filter that admits fewer games than a hot position's games / this is answered by
 * replaying them (index_explore.c). A variable so that tests can take that way. */
#define KIFU__INDEX_REPLAY 256
extern long kifu__index_replay;

/* A game as the explorer lists it (kifu__explore_row): its row's sente, gote, date,
 * event, number, result and file id. */
#define KIFU__LISTED_SQL                                                                 \
    "SELECT sente, gote, date, event, number, result, source FROM games WHERE id=?"

/* Statements the explorer keeps prepared in an open index. */
#define KIFU__EXPLORE_STMTS 11

/* Game results, as the `result` column holds them. */
enum {
    KIFU__RES_UNKNOWN = 0, /* unfinished, interrupted, or no ending recorded */
    KIFU__RES_SENTE = 1,
    KIFU__RES_GOTE = 2,
    KIFU__RES_SENNICHITE = 3,
    KIFU__RES_JISHOGI = 4,
    KIFU__RES_DRAW = 5, /* another draw (HIKIWAKE) */
};

/* One row of `positions`, in memory while a batch is built. */
typedef struct kifu__ipos {
    uint64_t key;
    uint32_t game;
    uint16_t ply;
    uint16_t move; /* the move played from here (15 bits of the packed move), 0: none */
    uint32_t fact; /* the game's date and result, kifu__index_fact: what a query by date
                    * and the explorer counts need without reading the game's row */
} kifu__ipos;

/* One position of a batch as the games are read, in (game, ply) order: 16 bytes where
 * a kifu__ipos takes 24, since a bulk build holds a few hundred megabytes of them. The
 * game's date and result (kifu_index's facts) join it as the batch is sorted
 * (kifu__index_lane). */
typedef struct kifu__irow {
    uint64_t key;
    uint32_t game;
    uint16_t ply;
    uint16_t move;
} kifu__irow;

/* The batch's rows are sorted lane by lane, a lane for each value of the key's top
 * KIFU__LANE_BITS bits: one pass over the batch in place puts each lane together, and
 * each is then sorted while it is in the cache (index_sort.c). */
#define KIFU__LANE_BITS 9
#define KIFU__LANES (1u << KIFU__LANE_BITS)

/* One game waiting in a batch: its `games` row. */
typedef struct kifu__igame {
    uint32_t id;
    uint32_t source;
    uint32_t number; /* 1-based game number in its file */
    uint8_t result;
    char *sente, *gote, *date, *event, *start; /* the batch's; start: SFEN or NULL */
    char *ending;                  /* the main line's ending word (TORYO ...), or NULL */
    char *header;                  /* the whole header as a JSON object */
    char *sente_key, *gote_key;    /* the players' keys (kifu__player_parse), or NULL */
    char *sente_rank, *gote_rank;  /* the ranks their names carry, or NULL */
    uint64_t ident;                /* what tells the same game (index_dups.c) */
    int handicap;                  /* kifu_preset */
    int sente_rating, gote_rating; /* 0: none */
    uint16_t *moves;               /* compact moves of the main line */
    uint32_t nmoves;
    uint32_t tag0, ntags; /* its tags: ix->gtags[tag0 .. tag0 + ntags) */
} kifu__igame;

/* One tag of a game waiting in a batch: the name's index in the index's tagger, and the
 * side (0 sente, 1 gote, 2 the game's). */
typedef struct kifu__igtag {
    uint16_t name;
    uint8_t side;
} kifu__igtag;

struct kifu_index {
    const kifu__index_ops *ops; /* its backend (backend.h), set by the open function */
    /* The backend's own state: the SQLite file, or the ClickHouse servers
     * (clickhouse.h). Only that backend's operations read its field. */
    sqlite3 *db;
    struct kifu__ch *ch;
    char *path;
    int readonly;
    int encoding;        /* kifu_index_set_read: what add_file reads in, */
    unsigned read_flags; /* and how (KIFU_READ_LENIENT | KIFU_READ_REPAIR) */
    int bulk;            /* KIFU_INDEX_BULK: no journal until closed */
    int unindexed; /* a bulk build's new file: the games' indexes made at each commit */
    uint32_t next_game, next_source;
    kifu__irow *pos; /* the batch's positions; in lanes once sorted (lane_at) */
    size_t npos, cappos;
    size_t lane_at[KIFU__LANES + 1]; /* where each lane of pos starts */
    kifu__ipos *lane[2]; /* a lane being sorted and written, kept between batches */
    size_t caplane[2];
    /* kifu_index_set_jobs: threads a write may use (a helper sorts and encodes the
     * lanes when more than 1), and that helper while a batch is written. */
    int jobs;
    struct kifu__lanes *lanes;
    /* Each game's kifu__index_fact (date and result), beside games: every row takes its
     * game's as its lane is sorted, and read from the games (a hundred bytes each) that
     * was a cache miss a row. */
    uint32_t *facts;
    size_t capfacts;
    kifu__igame *games;
    size_t ngames, capgames;
    size_t games_written;  /* the batch's games whose rows are written (rows op) */
    kifu__arena text;      /* the batch's games' strings and moves (index_build.c) */
    kifu__strbuf json;     /* a game's header being made */
    kifu_position *replay; /* the normalizer's position, kept from game to game */
    /* The tagger games are tagged with as they are read (kifu_index_set_tagger; the
     * index's own, with the shipped definitions, until one is set), and the batch's
     * games' tags. */
    kifu_tagger *tagger, *own_tagger;
    int tagger_set;
    kifu__igtag *gtags;
    size_t ngtags, capgtags;
    /* sources of the batch: id, path, digest, size */
    struct kifu__isource {
        uint32_t id;
        char *path;
        uint64_t digest;
        int64_t size;
        uint32_t games;
        uint32_t dups; /* its games skipped as indexed already */
        int replace;   /* the path was indexed before with other content */
    } * sources;
    size_t nsources, capsources;
    kifu_index_stats stats;
    int intx; /* a transaction is open: batches of an add written, not committed */
    int locked, lock_fd;       /* a writer's lock on the file (index_lock.c) */
    int keep_dups;             /* KIFU_INDEX_KEEP_DUPLICATES */
    struct kifu__dupset *dups; /* the identities of the indexed games, once loaded */
    /* The SQLite explorer's statements (index_sqlite_explore.c), prepared on first use. */
    sqlite3_stmt *explore_st[KIFU__EXPLORE_STMTS];
    /* kifu_index_set_deadline: its bound and when it runs out (monotonic ms; 0: none). */
    int deadline_ms;
    long long deadline_at;
};

/* index_lock.c: the writer lock on the index file at path, waited for up to 30 s but with
 * KIFU_INDEX_NOWAIT; with KIFU_INDEX_CREATE a missing file is made (*created). The
 * descriptor holding it (close it after SQLite's connection), or -1 with err
 * (KIFU_ERR_BUSY: another writer). */
int kifu__index_lock_fd(const char *path, unsigned flags, int *created, kifu_error *err);

/* index_schema.c */
/* The tables, and their indexes unless a bulk build makes them at its end (without
 * them the games table is read through, never wrong). */
int kifu__index_schema_create(sqlite3 *db, int with_indexes, kifu_error *err);
/* The games' indexes, where they are missing. 0, or -1 with err. */
int kifu__index_schema_indexes(sqlite3 *db, kifu_error *err);
int kifu__index_schema_check(sqlite3 *db, const char *path, kifu_error *err);
/* Report an SQLite failure on db as err (code IO), "what: sqlite's message". -1. */
int kifu__index_sqlite_error(sqlite3 *db, const char *path, const char *what,
                             kifu_error *err);
int kifu__index_exec(sqlite3 *db, const char *path, const char *sql, kifu_error *err);

/* index_block.c: a bucket's block. Bytes the encoding of n entries may take at most; the
 * encoding of n entries sorted by (key, game, ply), all of one bucket (its size); and the
 * entries of key `only` (or of every key, when all) appended to *v. 0, or -1 for a
 * damaged block or NOMEM. */
size_t kifu__block_bound(size_t n);
/* A game's date ("YYYY-MM-DD" or NULL) and result (KIFU__RES_*) as one number: the date
 * y << 9 | m << 5 | d (0: unknown, dates in order) shifted over the result's 3 bits; and
 * the date back as text ("" when unknown). */
uint32_t kifu__index_fact(const char *date, int result);
void kifu__index_fact_date(uint32_t fact, char out[11]);
size_t kifu__block_encode(const kifu__ipos *v, size_t n, uint8_t *out);
/* 0, -1 (the block does not decode) or -2 (NOMEM). */
int kifu__block_decode(const uint8_t *p, size_t n, uint64_t bucket, uint64_t only,
                       int all, kifu__ipos **v, size_t *nv, size_t *cap);
/* An unsigned LEB128 varint written at *o, which moves past it (at most 10 bytes): the
 * blocks' (index_block.c) and the listings' (index_listing.c) integers. */
static inline void kifu__put_varint(uint8_t **o, uint64_t v)
{
    uint8_t *p = *o;
    while (v >= 0x80) {
        *p++ = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    *p++ = (uint8_t)v;
    *o = p;
}

/* The varint at *in, which moves past it: 0, or -1 when it runs past end or is too long
 * (damaged). */
static inline int kifu__get_varint(const uint8_t **in, const uint8_t *end, uint64_t *v)
{
    const uint8_t *p = *in;
    uint64_t r = 0;
    for (int shift = 0; shift < 64; shift += 7) {
        if (p >= end)
            return -1;
        uint8_t b = *p++;
        r |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) {
            *v = r;
            *in = p;
            return 0;
        }
    }
    return -1;
}
/* index_sum.c: the checksum stored beside each block (positions.sum): 32 bits, as a
 * signed integer. */
int64_t kifu__index_sum(const void *p, size_t n);
/* A damaged part of the index file at path (what: "positions row 12", why: "does not
 * match its checksum") as err: KIFU_ERR_IO, saying to rebuild. -1. */
int kifu__index_damaged(kifu_error *err, const char *path, const char *what,
                        const char *why);
/* The block of row id in st's columns 0 (block) and 1 (its sum), checked: 0 with its
 * bytes, or -1 with err (damaged). And a kifu__block_decode failure (rc) of that row
 * as err: damaged, or NOMEM. -1. */
int kifu__index_block(sqlite3_stmt *st, uint64_t id, const uint8_t **p, size_t *n,
                      const char *path, kifu_error *err);
int kifu__index_block_bad(int rc, uint64_t id, const char *path, kifu_error *err);
/* A game's line checksum (games.moves_sum): its start (handicap, and start: SFEN or
 * NULL) and its moves. And game `game`'s moves in st's column col (moves), checked with
 * columns col - 2 (handicap), col - 1 (start) and col + 1 (moves_sum): 0 with the
 * compact moves (uint16_t each, as written) and their number, or -1 with err
 * (damaged). */
int64_t kifu__index_line_sum(const char *handicap, const char *start, const void *moves,
                             size_t bytes);
int kifu__index_moves(sqlite3_stmt *st, int col, long long game, const void **moves,
                      int *n, const char *path, kifu_error *err);
/* The entries of one key from the table (statement: KIFU__BLOCK_SQL), every run's in
 * order, appended to *v. 0, or -1 with err (SQLite error, damaged block, NOMEM). */
int kifu__index_entries(sqlite3_stmt *block, uint64_t key, kifu__ipos **v, size_t *nv,
                        size_t *cap, const char *path, kifu_error *err);

/* index_sort.c: the batch's rows (ix->pos) put lane by lane in place (ix->lane_at): the
 * largest lane's count. */
size_t kifu__index_partition(kifu_index *ix);
/* The rows of one bucket of a batch, in order but for keys that share the radix sort's
 * top bits, sorted by (key, game, ply) (t: scratch room for n rows). */
void kifu__index_sort_bucket(kifu__ipos *v, size_t n, kifu__ipos *t);
/* The batch's lane l sorted by its key's top 27 bits, as kifu__ipos (the game's fact
 * added): its rows, or NULL when the lane is empty, with its count in *n and a buffer of
 * as many rows in *t (for kifu__index_sort_bucket). */
kifu__ipos *kifu__index_lane(kifu_index *ix, unsigned l, size_t *n, kifu__ipos **t);
/* The same into a and b (room for the lane's rows each): b, a being the scratch. */
kifu__ipos *kifu__index_lane_into(const kifu_index *ix, unsigned l, size_t *n,
                                  kifu__ipos *a, kifu__ipos *b);

/* index_lanes.c: a batch's lanes partitioned, sorted and encoded into blocks on a helper
 * thread, a few lanes ahead of the thread that writes them (index_runs.c) in order. */
typedef struct kifu__lane_block {
    size_t i, j;       /* its rows, v[i..j) of the lane */
    size_t off, len;   /* its bytes (kifu__block_encode) in the lane's */
    int64_t sum;       /* kifu__index_sum of them */
    size_t hot0, nhot; /* its keys of KIFU__INDEX_HOT games or more: hot[hot0..+nhot) */
} kifu__lane_block;
/* A key's rows v[i..j) of a lane, played in KIFU__INDEX_HOT games or more. */
typedef struct kifu__lane_hot {
    size_t i, j;
} kifu__lane_hot;
struct kifu__lane_count; /* index_agg.h */
typedef struct kifu__lane_out {
    const kifu__ipos *v; /* the lane's rows, sorted */
    const kifu__lane_block *b;
    size_t nb;
    const uint8_t *bytes;
    const kifu__lane_hot *hot; /* the blocks' keys of enough games, found by the helper */
    /* Their rows counted by the helper, hot[k]'s in count[k], when the batch is a bulk
     * build's first (the games of its keys are all the batch's); else NULL. */
    struct kifu__lane_count *count;
} kifu__lane_out;
/* The batch's rows (ix->pos) put lane by lane (kifu__index_partition), the lane buffers
 * made as large as the largest lane; or, when ix->jobs > 1, all that and each lane's
 * sort and blocks started on the helper. 0, or -1 out of memory. */
int kifu__index_sort_lanes(kifu_index *ix);
/* The helper started on ix's batch (ix->lanes). 0, or -1 (no thread: nothing done). */
int kifu__lanes_start(kifu_index *ix);
/* Lane l, waited for (lanes asked in order, each released before the next few are
 * asked). 0, or -1 out of memory on the helper. */
int kifu__lanes_get(kifu_index *ix, unsigned l, kifu__lane_out *o);
void kifu__lanes_release(kifu_index *ix, unsigned l);
/* The helper stopped (whatever it was doing) and freed; nothing when there is none. */
void kifu__lanes_stop(kifu_index *ix);

/* (key, game, ply) order of entries, for qsort. */
int kifu__ipos_cmp(const void *x, const void *y);
/* Step a statement that writes (or reads one row) and reset it. 0, or -1. */
int kifu__index_step(sqlite3_stmt *st);

/* index_runs.c: write the queued batch's positions (ix->pos, in bucket order, each
 * bucket's rows sorted as it is written; ix->tmp its scratch) as a new run, after
 * dropping from the touched buckets (sorted, unique) the entries of the dead games
 * (sorted ids), keeping the hot rows exact; then, unless the add is a bulk build, merge
 * the newest runs while they grow (so a small add costs what it adds). And every run
 * merged into one (the file a single batch would have written). 0, or -1 with err. */
int kifu__index_write_run(kifu_index *ix, const uint64_t *touched, size_t nt,
                          const uint64_t *dead, size_t nd, kifu_error *err);
int kifu__index_merge_all(kifu_index *ix, kifu_error *err);

/* index_build.c: the compact move (15 bits) of a packed engine move, and back on the
 * board it is played on. */
uint16_t kifu__index_compact(uint32_t kmove);
kmove kifu__index_expand(const kpos *p, uint16_t compact);
/* The key after n moves (checked ones) from start, by the build's key-only replay: for
 * the tests, which compare it with the engine's. */
uint64_t kifu__index_key_line(const kpos *start, const kmove *moves, size_t n);
/* The start of a game row (its handicap name, or its SFEN for OTHER). 0, or -1. */
int kifu__index_start(const char *handicap, const char *sfen, kpos *p);

/* qsort/bsearch order of uint32_t. */
int kifu__cmp_u32(const void *x, const void *y);
/* index_player.c: a player's name as written, parsed: the key the index finds players
 * by (spaces, ranks, ratings and affiliations out, widths and case folded), the rank and
 * the rating (in parentheses) the name carries ("" and 0: none). */
typedef struct kifu__player {
    char key[256];
    char rank[48];
    int rating;
} kifu__player;
void kifu__player_parse(const char *name, kifu__player *p);
/* NFKC of character c as names need it (index_nfkc.c), Latin letters folded to lower
 * case, into out (room for 4); the count. A half-width voiced mark becomes the
 * combining one, which kifu__nfkc_compose joins with the kana before it. */
int kifu__nfkc_fold(int c, int *out);
/* The kana `base` with the combining (semi-)voiced `mark` (U+3099, U+309A) as one
 * character (カ + ゛ = ガ), or 0 when they do not join. */
int kifu__nfkc_compose(int base, int mark);

/* index_dups.c: a game's identity: its start (preset or SFEN), its main line, its
 * players' keys and its date, hashed. */
uint64_t kifu__index_ident(const kifu__igame *g);
/* The identities of the indexed games loaded (once; nothing with keep_dups). 0, -1. */
int kifu__dups_load(kifu_index *ix, kifu_error *err);
/* Is a game of this identity indexed already (the set loaded from the backend the first
 * time)? 1 yes, 0 no (and now it is, as game), -1 with err. */
int kifu__dups_check(kifu_index *ix, uint64_t ident, uint32_t game, kifu_error *err);
/* The games (sorted ids) of a file's old content forgotten: it is read again. */
void kifu__dups_forget(kifu_index *ix, const uint32_t *games, size_t n);
void kifu__dups_free(kifu_index *ix);

/* index_book.c: n outputs of std::mt19937_64 with its default seed (Apery's numbers), and
 * Apery's book key of a position. */
void kifu__index_mt64(uint64_t *out, size_t n);
uint64_t kifu__index_apery_key(const kifu_board *b);

/* index_search.c: one stored game as search replays it (strings may be NULL). */
typedef struct kifu__index_game {
    int number, games; /* its number in its file, and the games of the file */
    const char *handicap, *start, *ending, *header, *source;
    const char *tags;      /* kifu_index_hit.tags, or NULL */
    const uint16_t *moves; /* compact */
    int nmoves;
} kifu__index_game;
/* Report g's positions that s matches to fn (stopping at the first with
 * KIFU_SEARCH_FIRST). The hits. */
long kifu__index_search_game(kifu_search *s, unsigned flags, const kifu__index_game *g,
                             kifu_index_hit_fn fn, void *ctx);

/* index_filter.c: the games the player, event and rating filters of o admit (flipped:
 * counted for the colour-flipped position), from the games table's indexes. use: only
 * the games in id[0..n) (sorted) pass; rows: the passing games' rows must still be
 * checked (kifu__explore_passes). A set would hold more than limit games: not made
 * (use 0, rows 1). 0, or -1 on an SQLite error. */
typedef struct kifu__gameset {
    uint32_t *id;
    size_t n, cap;
    int use, rows;
} kifu__gameset;
int kifu__filter_games(sqlite3 *db, const kifu_explore_options *o, int flipped,
                       size_t limit, kifu__gameset *s);
int kifu__gameset_has(const kifu__gameset *s, uint32_t game);
/* 1 when the filters of o admit every game (an event filter every event matches, and no
 * other): the explorer then answers as unfiltered. 0, 2 (not so), or -1. */
int kifu__filter_none(sqlite3 *db, const kifu_explore_options *o);

/* index_tags.c: the games' tags. A game's tags written (the batch's games from `from`
 * on, inside the write's transaction), and dropped with a source's games. 0, or -1
 * (SQLite, NOMEM). */
int kifu__index_tags_write(kifu_index *ix, size_t from);
int kifu__index_tags_drop(kifu_index *ix, uint32_t source);
/* The games that pass every tag filter of o (for the colour-flipped position: sides
 * swapped), as a bit per game id, in *bits (new; *nbits ids covered). 0, or -1. */
int kifu__index_tag_bits(sqlite3 *db, const kifu_explore_options *o, int flipped,
                         uint8_t **bits, size_t *nbits);
static inline int kifu__tag_bit(const uint8_t *bits, size_t nbits, uint32_t game)
{
    return game < nbits && (bits[game >> 3] >> (game & 7) & 1);
}
/* A game's tags as kifu_index_hit.tags has them (the words of kifu tags --json), a
 * column of the search's rows: by side (sente, gote, the game's), family and name, the
 * order the index on ClickHouse keeps them in (clickhouse_tags.c), so both answer alike. */
#define KIFU__TAGS_COLUMN                                                                \
    ", (SELECT json_group_array(json_object('name', name, 'family', CASE family "        \
    "WHEN 0 THEN '戦法' WHEN 1 THEN '囲い' ELSE '備考' END, 'side', CASE side "    \
    "WHEN 0 THEN 'sente' WHEN 1 THEN 'gote' ELSE 'game' END)) FROM (SELECT n.name "      \
    "AS name, n.family AS family, t.side AS side FROM game_tags t JOIN tag_names n "     \
    "ON n.id = t.tag WHERE t.game = g.id ORDER BY t.side, n.family, n.name))"
/* The SQL condition (" AND ...") o's tag filters put on games aliased `g`, the names as
 * parameters ?first, ?first+1 ... (bound by kifu__index_tag_bind). */
void kifu__index_tag_where(kifu__strbuf *b, const kifu_explore_options *o, int first);
void kifu__index_tag_bind(sqlite3_stmt *st, const kifu_explore_options *o, int first);
/* index_taglist.c: a game's tags as one string (a players' row's, ClickHouse's rows'):
 * entries of the side digit (0 sente, 1 gote, 2 the game's), the family digit and the
 * name, separated by '\n'. kifu__tag_list_next: the entry at p into *it and where the
 * next starts, or NULL when there is none. kifu__tag_list_json: the list as the JSON
 * array kifu_index_hit.tags has (KIFU__TAGS_COLUMN's). */
typedef struct kifu__tag_item {
    int side, family;
    const char *name; /* not NUL-terminated: len bytes */
    size_t len;
} kifu__tag_item;
const char *kifu__tag_list_next(const char *p, kifu__tag_item *it);
void kifu__tag_list_json(kifu__strbuf *b, const char *list);

#endif
