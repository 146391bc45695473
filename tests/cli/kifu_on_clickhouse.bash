#!/usr/bin/env bash
# kifu_on_clickhouse.bash ARGS...: the kifu of the index tests when they run on ClickHouse
# (index_lib.bash sets $kifu to this script when KIFU_TEST_INDEX names a server). It runs
# $KIFU_TEST_KIFU with the same arguments, except that an index file becomes a ClickHouse
# database of its own on the server at $KIFU_TEST_INDEX:
#   index build ... -o X.kdb   --clickhouse URL --database D(X), the database made new, and
#                              X.kdb written as a marker that names it;
#   a marker X.kdb (or --index X.kdb)
#                              --clickhouse URL --database D(X).
# D(X) is t_ and a checksum of X's absolute path: one fresh database per index a test
# names. A marker copied to another path (cp games.kdb flip.kdb) is an index copied: its
# database is copied into the new path's own database on first use, so that the two go
# their own ways as two files would. A command that names ClickHouse itself, and every
# argument that is no marker (a damaged file, a missing one), goes to kifu as it is.
set -u
real=${KIFU_TEST_KIFU:?} url=${KIFU_TEST_INDEX:?}
magic=kifu-test-clickhouse-index

source "$(dirname "${BASH_SOURCE[0]}")/ch_query.bash"
q() { ix_ch_query "$@"; }

db_of() { # the database of an index path
    local abs
    abs=$(realpath -m -- "$1")
    echo "t_$(printf '%s' "$abs" | cksum | cut -d' ' -f1)"
}

is_marker() {
    [ -f "$1" ] && [ "$(head -c ${#magic} -- "$1" 2>/dev/null)" = "$magic" ]
}

# A database copied table by table (the materialized view is made again by the next
# open that writes: kifu_index_open_clickhouse with KIFU_INDEX_CREATE).
copy_db() { # FROM TO
    local t
    q "DROP DATABASE IF EXISTS \`$2\`" && q "CREATE DATABASE \`$2\`" || return 1
    for t in $(q "SELECT name FROM system.tables WHERE database = '$1' AND engine <> 'MaterializedView' FORMAT TSV"); do
        q "CREATE TABLE \`$2\`.\`$t\` AS \`$1\`.\`$t\`" &&
            q "INSERT INTO \`$2\`.\`$t\` SELECT * FROM \`$1\`.\`$t\`" || return 1
    done
}

mark() { # PATH DB
    printf '%s %s %s\n' "$magic" "$(realpath -m -- "$1")" "$2" >"$1"
}

# The database of a marker, copied first when the marker was copied from another path.
db_of_marker() {
    local m_magic m_path m_db db
    read -r m_magic m_path m_db <"$1"
    db=$(db_of "$1")
    if [ "$m_path" != "$(realpath -m -- "$1")" ]; then
        copy_db "$m_db" "$db" || exit 3
        mark "$1" "$db"
    fi
    echo "$db"
}

for a; do
    case $a in --clickhouse | --database) exec "$real" "$@" ;; esac
done
build=0
[ "${1:-}" = index ] && [ "${2:-}" = build ] && build=1
out=() made=
while [ $# -gt 0 ]; do
    a=$1
    shift
    if [ $build = 1 ] && { [ "$a" = -o ] || [ "$a" = --output ]; } && [ $# -gt 0 ]; then
        db=$(db_of "$1")
        q "DROP DATABASE IF EXISTS \`$db\`" || exit 3 # a build makes a new index
        [ -e "$1" ] || made=$1
        mark "$1" "$db"
        shift
        out+=(--clickhouse "$url" --database "$db")
    elif [ "$a" = --index ] && [ $# -gt 0 ] && is_marker "$1"; then
        db=$(db_of_marker "$1") || exit 3
        shift
        out+=(--clickhouse "$url" --database "$db")
    elif is_marker "$a"; then
        db=$(db_of_marker "$a") || exit 3
        out+=(--clickhouse "$url" --database "$db")
    else
        out+=("$a")
    fi
done
# Nothing to do after it: kifu in this process, so that a server a test starts here
# (kifu serve) is the PID the test stops.
[ -n "$made" ] || exec "$real" "${out[@]}"
"$real" "${out[@]}"
rc=$?
# A build that wrote nothing leaves no index file behind, as on SQLite.
[ -n "$made" ] && [ $rc -ge 2 ] && rm -f -- "$made"
exit $rc
