# index_lib.bash: sourced by the index tests (index.sh, players.sh) right after they set
# $kifu, so that the same tests run on either store of the index (docs/testing.md):
#   KIFU_TEST_INDEX unset       the index files are SQLite files, as kifu writes them;
#   KIFU_TEST_INDEX=http://HOST:PORT
#                               every index file the test names is a database of its own
#                               on that ClickHouse server: $kifu becomes
#                               kifu_on_clickhouse.bash, which passes the real kifu
#                               --clickhouse URL --database D in place of the file.
# The assertions are the same on both. What is by nature the SQLite file's (its tables
# read with sqlite3, its write-ahead log, locks, temp files, damaged files) runs under
# `if sqlite_only REASON; then`, which on ClickHouse prints the reason and counts a skip.
#   ix_backend           sqlite or clickhouse
#   sqlite_only REASON   true on SQLite; on ClickHouse "skip on ClickHouse: REASON"
#   ix_dump X.kdb        a checksum of every row of the index (before/after comparisons)
ix_lib_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ix_backend=sqlite
skipped=${skipped:-0}
if [ -n "${KIFU_TEST_INDEX:-}" ]; then
    ix_backend=clickhouse
    KIFU_TEST_KIFU=$(realpath -- "$kifu")
    export KIFU_TEST_KIFU KIFU_TEST_INDEX
    kifu=$ix_lib_dir/kifu_on_clickhouse.bash
    echo "the index on ClickHouse at $KIFU_TEST_INDEX (one database per index file)"
fi

sqlite_only() {
    [ "$ix_backend" = sqlite ] && return 0
    echo "skip on ClickHouse: $1"
    skipped=$((skipped + 1))
    return 1
}

ix_dump() {
    if [ "$ix_backend" = sqlite ]; then
        sqlite3 "$1" .dump | md5sum
        return
    fi
    local magic path db t final
    read -r magic path db <"$1"
    # Every table but the view, its rows sorted; summed tables as their merged sums, so
    # that a merge in the background changes nothing.
    for t in $(ix_ch_query "SELECT name FROM system.tables WHERE database = '$db' AND engine <> 'MaterializedView' ORDER BY name FORMAT TSV"); do
        final=
        [ "$(ix_ch_query "SELECT engine FROM system.tables WHERE database = '$db' AND name = '$t' FORMAT TSV")" = SummingMergeTree ] &&
            final=FINAL
        echo "$t"
        ix_ch_query "SELECT * FROM \`$db\`.\`$t\` $final FORMAT TSV" | LC_ALL=C sort
    done | md5sum
}

source "$ix_lib_dir/ch_query.bash"
