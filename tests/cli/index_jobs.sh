#!/usr/bin/env bash
# index_jobs.sh: `kifu index build` and `add` on several threads (-j) write the same
# index (sqlite3 .dump, and the file byte for byte), the same messages and the same exit
# status as on one thread,
# on a collection with multi-game files, duplicates (across files and within one), a
# repaired relay game (--lenient), a truncated file, files that are no records, an
# illegal game, garbage and tagged games; -j takes a number. Usage: index_jobs.sh KIFU
set -u
kifu=$1
here=$(cd "$(dirname "$0")" && pwd)
command -v sqlite3 >/dev/null || { echo "sqlite3 not installed: skipped"; exit 77; }
command -v iconv >/dev/null || { echo "iconv not installed: skipped"; exit 77; }
tmp=$(mktemp -d /tmp/kifu-cli-index-jobs-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
. "$(dirname "${BASH_SOURCE[0]}")/lib.bash"
q() { sqlite3 "$1" "$2"; }

c=$tmp/in
bash "$here/../collection/make.sh" "$kifu" "$c" || { echo "FAIL: make.sh"; exit 1; }
# Games of several lengths in enough files that the threads overtake one another; each
# fifth one copied under another name (a duplicate), a file of games one of which is
# another file's and one repeated within it, an illegal game and garbage.
moves=(7g7f 3c3d 2g2f 4c4d 2f2e 2b3c 3i4h 3a3b 5i6h 8b4b 6h7h 5a6b 4i5h 6b7b 5g5f)
mkdir -p "$c/gen/sub" "$tmp/more"
for i in $(seq 1 90); do
    n=$((i % ${#moves[@]} + 1))
    d=$c/gen
    [ $((i % 3)) -eq 0 ] && d=$c/gen/sub
    printf 'position startpos moves %s\n' "${moves[*]:0:$n}" >"$d/g$(printf %02d "$i").sfen"
    [ $((i % 5)) -eq 0 ] && cp "$d/g$(printf %02d "$i").sfen" "$c/gen/dup$i.sfen"
done
{ cat "$c/gen/g01.sfen"; printf 'position startpos moves 5g5f 8c8d\n'; printf 'position startpos moves 5g5f 8c8d\n'; } >"$c/gen/multi.sfen"
cp "$c/relay/relay.kif" "$c/relay/relay_copy.kif"
printf 'position startpos moves 7g7f 7g7f\n' >"$c/gen/sub/illegal.sfen"
printf 'hello world\n' >"$c/gen/garbage.kif"

dump() { sqlite3 "$1" .dump | md5sum; }
norm() { sed -i 's/; written in .*//; s/[a-z]*[0-9]\.kdb/X.kdb/g' "$1"; }
# Each way of adding (options in $@) with -j 1, 2 and 8: the same index, messages and
# exit status. The run with -j1 stays as $tmp/<name>1.kdb.
same() { # name, options...
    local name=$1 j
    shift
    for j in 1 2 8; do
        "$kifu" index build -j $j -v "$@" "$c" -o "$tmp/$name$j.kdb" 2>"$tmp/$name.err$j"
        echo $? >"$tmp/$name.rc$j"
        norm "$tmp/$name.err$j"
    done
    for j in 2 8; do
        [ "$(dump "$tmp/${name}1.kdb")" = "$(dump "$tmp/$name$j.kdb")" ] && ok ||
            bad "build $* -j$j: another index than -j1"
        # The file itself: the same SQL in the same order (a helper sorts and encodes
        # the positions with -j2 and more, the adding thread writes them).
        cmp -s "$tmp/${name}1.kdb" "$tmp/$name$j.kdb" && ok ||
            bad "build $* -j$j: another file than -j1 (same dump: $([ "$(dump "$tmp/${name}1.kdb")" = "$(dump "$tmp/$name$j.kdb")" ] && echo yes || echo no))"
        cmp -s "$tmp/$name.err1" "$tmp/$name.err$j" && ok ||
            bad "build $* -j$j: other messages: $(diff "$tmp/$name.err1" "$tmp/$name.err$j")"
        cmp -s "$tmp/$name.rc1" "$tmp/$name.rc$j" && ok ||
            bad "build $* -j$j: exit $(cat "$tmp/$name.rc$j"), not $(cat "$tmp/$name.rc1")"
    done
}
same strict
same lenient --lenient
same keep --lenient --keep-duplicates
same notags --no-tags

# What the runs did (so that the comparisons above compared something).
[ "$(cat "$tmp/lenient.rc1")" -eq 1 ] && ok || bad "build --lenient: exit $(cat "$tmp/lenient.rc1") (1: records skipped)"
grep -q "illegal.sfen" "$tmp/lenient.err1" && grep -q "cut.kif" "$tmp/lenient.err1" &&
    grep -q "relay.kif indexed: a move repaired" "$tmp/lenient.err1" && ok ||
    bad "build warnings: $(cat "$tmp/lenient.err1")"
grep -q "1 repaired, [1-9][0-9]* duplicates" "$tmp/lenient.err1" && grep -q "3 files skipped" "$tmp/lenient.err1" && ok ||
    bad "build summary (the relay's copy a duplicate): $(cat "$tmp/lenient.err1")"
grep -q "2 repaired, 0 duplicates" "$tmp/keep.err1" && ok || bad "--keep-duplicates: $(cat "$tmp/keep.err1")"
# Every game read is indexed once, or counted as a duplicate of one indexed.
games=$(q "$tmp/lenient1.kdb" 'SELECT count(*) FROM games')
dups=$(q "$tmp/lenient1.kdb" 'SELECT sum(duplicates) FROM sources')
all=$(q "$tmp/keep1.kdb" 'SELECT count(*) FROM games')
[ "$dups" -gt 0 ] && [ $((games + dups)) -eq "$all" ] && grep -q "$dups duplicates" "$tmp/lenient.err1" && ok ||
    bad "duplicates: $games games + $dups duplicates, $all kept"
[ "$(q "$tmp/lenient1.kdb" 'SELECT count(*) FROM game_tags')" -gt 50 ] && ok ||
    bad "tagged games: $(q "$tmp/lenient1.kdb" 'SELECT count(*) FROM game_tags')"
[ "$(q "$tmp/notags2.kdb" 'SELECT count(*) FROM game_tags')" = 0 ] && ok || bad "--no-tags -j2 tagged games"

# add: a changed file (replaced), unchanged ones, new files with duplicates of indexed
# games and of each other.
printf 'position startpos moves 2g2f 8c8d\n' >"$c/gen/g01.sfen"
for i in 1 2 3; do printf 'position startpos moves 5g5f\n' >"$tmp/more/m$i.sfen"; done
cp "$c/gen/g07.sfen" "$tmp/more/again.sfen"
cp "$c/relay/relay.kif" "$tmp/more/relay3.kif"
for j in 1 2 8; do
    cp "$tmp/lenient1.kdb" "$tmp/a$j.kdb"
    "$kifu" index add -j $j -v --lenient "$tmp/a$j.kdb" "$c" "$tmp/more" 2>"$tmp/aerr$j"
    echo $? >"$tmp/arc$j"
    norm "$tmp/aerr$j"
done
for j in 2 8; do
    [ "$(dump "$tmp/a1.kdb")" = "$(dump "$tmp/a$j.kdb")" ] && ok || bad "add -j$j: another index than -j1"
    cmp -s "$tmp/a1.kdb" "$tmp/a$j.kdb" && ok || bad "add -j$j: another file than -j1"
    cmp -s "$tmp/aerr1" "$tmp/aerr$j" && ok || bad "add -j$j: other messages: $(diff "$tmp/aerr1" "$tmp/aerr$j")"
    cmp -s "$tmp/arc1" "$tmp/arc$j" && ok || bad "add -j$j: exit $(cat "$tmp/arc$j")"
done
grep -q "5 new, 1 replaced" "$tmp/aerr1" && grep -q "4 duplicates" "$tmp/aerr1" && ok ||
    bad "add summary: $(cat "$tmp/aerr1")"

# -j takes a number, for build and add.
"$kifu" index build -j x "$c" -o "$tmp/x.kdb" >/dev/null 2>&1
[ $? -eq 2 ] && ok || bad "-j x is a usage error"
"$kifu" index build -j2 --jobs=2 --no-tags "$tmp/more" -o "$tmp/y.kdb" 2>/dev/null
[ $? -eq 1 ] && ok || bad "-j2 and --jobs=2 are taken"
"$kifu" index info -j 2 "$tmp/a1.kdb" >/dev/null 2>&1
[ $? -eq 2 ] && ok || bad "info -j is a usage error"
"$kifu" index build -j 0 "$tmp/more" -o "$tmp/z.kdb" 2>/dev/null
[ $? -eq 1 ] && [ "$(q "$tmp/z.kdb" 'SELECT count(*) FROM games')" = 2 ] && ok ||
    bad "-j 0: one per processor"

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
