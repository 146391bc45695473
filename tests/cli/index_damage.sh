#!/usr/bin/env bash
# index_damage.sh: a damaged but well-formed index (issue 28) fails with "damaged", exit 3,
# never a wrong answer; `kifu index check` names each damaged part. The faults are made
# with sqlite3 on a built index: blocks of positions emptied, a byte of a block changed,
# a move changed, move lists cut, a row of positions removed; an index of an older
# schema is refused with the way out.
# Usage: index_damage.sh KIFU [SHARED_DIR]
set -u
kifu=$1
here=$(cd "$(dirname "$0")" && pwd)
pass=0 fail=0
. "$(dirname "${BASH_SOURCE[0]}")/lib.bash"
said() { # name, pattern: err holds it
    grep -q -- "$2" err && ok || bad "$1: said: $(cat err)"
}
if ! command -v sqlite3 >/dev/null; then
    echo "skip: sqlite3 is needed (scripts/deps.sh installs it)"
    echo "0 passed, 0 failed, 1 skipped"
    exit 77
fi
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
# The sample collection: 8 games, no hot position, so every count is read from blocks.
cp -r "$here/../../samples/collection" games
"$kifu" index build games -o k.kdb || bad "build"
after76=(--moves 7g7f)

# ---- the whole index: check says so, exit 0 ----------------------------------------------
"$kifu" index check k.kdb >out 2>err
check "check of a whole index: exit 0" 0 $?
grep -q "^k.kdb: checked [1-9][0-9]* blocks of positions and 8 games: no damage$" out && ok ||
    bad "check of a whole index: said: $(cat out err)"
check "check of a whole index: nothing on stderr" "" "$(cat err)"

# damage NAME SQL: d.kdb is k.kdb with SQL run on it.
damage() {
    cp k.kdb d.kdb && sqlite3 d.kdb "$2" || bad "$1: the damage could not be made"
}
# readers NAME PATTERN...: explore, search (exact and by a pattern) and check on d.kdb
# each fail with exit 3 and say PATTERN (check: exit 3, naming it), or answer as k.kdb.
expect_check() { # name, pattern
    "$kifu" index check d.kdb >out 2>err
    check "$1: check: exit 3" 3 $?
    grep -q "damaged (rebuild with kifu index build)$" out && ok || bad "$1: check's count: $(cat out)"
    said "$1: check names it" "^kifu: d.kdb: damaged: $2.*: rebuild with kifu index build$"
}

# ---- every block emptied: explore said "0 games" -----------------------------------------
damage "blocks emptied" "UPDATE positions SET block = x''"
"$kifu" explore d.kdb "${after76[@]}" >out 2>err
check "blocks emptied: explore: exit 3" 3 $?
said "blocks emptied: explore" "^kifu: d.kdb: damaged: positions row [0-9]* does not match its checksum: rebuild with kifu index build$"
grep -q "0 games" out && bad "blocks emptied: explore answered: $(cat out)" || ok
"$kifu" search --sfen startpos --index d.kdb -c >out 2>err
check "blocks emptied: search -c: exit 3" 3 $?
said "blocks emptied: search" "damaged: positions row"
"$kifu" explore d.kdb --export yane2016 -o book.db 2>err
check "blocks emptied: a book from the moves (not the blocks) is still made" 0 $?
expect_check "blocks emptied" "positions row [0-9]* does not match its checksum"
n=$(sqlite3 d.kdb "SELECT count(*) FROM positions")
check "blocks emptied: each named" "$n" "$(grep -c "damaged: positions row" err)"

# ---- one byte of one block changed: explore answered an illegal move ---------------------
damage "a byte of a block" "UPDATE positions SET block = substr(block, 1, 5) || x'5a' || substr(block, 7) WHERE id = (SELECT min(id) FROM positions)"
expect_check "a byte of a block" "positions row [0-9]* does not match its checksum"
check "a byte of a block: one damaged part" 1 "$(grep -c damaged: err)"
# Every position of every game explored: each fails (exit 3) or answers as k.kdb does.
lied=0 failed=0
for f in games/*.csa; do
    moves=$("$kifu" convert "$f" -t usi 2>/dev/null | sed -n 's/.* moves //p')
    set -- $moves
    line=()
    for m in "" "$@"; do
        [ -n "$m" ] && line+=("$m")
        a=$("$kifu" explore d.kdb --json ${line[@]:+--moves "${line[@]}"} 2>err)
        rc=$?
        if [ $rc -eq 3 ]; then
            failed=$((failed + 1))
            grep -q "damaged: positions row" err || bad "a byte of a block: said: $(cat err)"
        elif [ "$a" != "$("$kifu" explore k.kdb --json ${line[@]:+--moves "${line[@]}"})" ]; then
            lied=$((lied + 1))
        fi
    done
done
echo "a byte of a block: $failed positions failed (exit 3), the others answered as the whole index"
check "a byte of a block: no position answered otherwise" 0 "$lied"
[ "$failed" -gt 0 ] && ok || bad "a byte of a block: no position read the damaged block"

# ---- a move changed: the game replayed an illegal move -----------------------------------
damage "a move changed" "UPDATE games SET moves = cast(x'3412' || substr(moves, 3) AS blob) WHERE id = 3"
"$kifu" search --regex . --index d.kdb -c >out 2>err
check "a move changed: search by a pattern: exit 3" 3 $?
said "a move changed: search" "^kifu: d.kdb: damaged: the start and moves of game 3 do not match their checksum: rebuild with kifu index build$"
expect_check "a move changed" "the start and moves of game 3 do not match their checksum"

# ---- move lists cut: search -c counted fewer ---------------------------------------------
damage "move lists cut" "UPDATE games SET moves = substr(moves, 1, length(moves) / 2 & ~1)"
"$kifu" search --sfen startpos --index d.kdb -c >out 2>err
check "move lists cut: search -c: exit 3" 3 $?
said "move lists cut: search" "damaged: the start and moves of game"
[ -s out ] && bad "move lists cut: search -c counted: $(cat out)" || ok
"$kifu" search --sfen 'lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3' --index d.kdb -c >out 2>err
check "move lists cut: search -c past the start: exit 3" 3 $?
said "move lists cut: search" "^kifu: d.kdb: damaged: the start and moves of game [0-9]* do not match their checksum"
"$kifu" index info d.kdb >out 2>err
check "move lists cut: info: exit 3" 3 $?
said "move lists cut: info" "^kifu: d.kdb: damaged: the moves of [0-9]* games (the first: game [0-9]*) do not match their plies: rebuild with kifu index build$"
expect_check "move lists cut" "the start and moves of game [0-9]* do not match their checksum"
check "move lists cut: each game named" 8 "$(grep -c "damaged: the start and moves of game" err)"

# ---- a row of positions removed: no checksum fails, the counts do ------------------------
damage "a row removed" "DELETE FROM positions WHERE id = (SELECT max(id) FROM positions)"
expect_check "a row removed" "run 1 of positions holds [0-9]* entries where runs says [0-9]*"
grep -q "damaged: game [0-9]* has [0-9]* positions stored where its [0-9]* moves make" err && ok ||
    bad "a row removed: the game short of a position is named: $(cat err)"

# ---- an index of the last schema (no checksums): refused with the way out ---------------
cp k.kdb old.kdb && sqlite3 old.kdb "UPDATE kifu_meta SET value = '6' WHERE name = 'version'"
for cmd in "explore old.kdb" "index info old.kdb" "index check old.kdb" \
    "search --sfen startpos --index old.kdb" "index add old.kdb games/game1.csa"; do
    "$kifu" $cmd >/dev/null 2>err
    check "$cmd: exit 3" 3 $?
    said "$cmd" "^kifu: old.kdb: index version 6; this kifu reads version 10 (build it again with kifu index build)$"
done

# ---- usage and ClickHouse ----------------------------------------------------------------
"$kifu" index check 2>err
check "check without an index: exit 2" 2 $?
said "check without an index" "index check: give one index"
"$kifu" index check --clickhouse http://127.0.0.1:1 2>err
check "check of ClickHouse: exit 2" 2 $?
said "check of ClickHouse" "ClickHouse checks its own tables (CHECK TABLE)"
"$kifu" index check missing.kdb 2>err
check "check of no file: exit 3" 3 $?
grep -q "not an error" err && bad "\"not an error\": $(cat err)" || ok
"$kifu" index --help | grep -q "^  check   verify the whole file" && ok || bad "index --help tells check"
# What the readers do with a damaged index (exit 3, above) is what their help and the man
# page say: search's "as grep's" once left it out.
for cmd in explore search index; do
    "$kifu" $cmd --help | tr '\n' ' ' | grep -q "[^0-9]3 [^.]*damaged" && ok ||
        bad "$cmd --help does not give exit status 3 for a damaged index"
done
man=$here/../../man/kifu.1
grep -q "^could not be read or is damaged, or the output could not be written, 4 out of memory" "$man" &&
    ok || bad "the man page's search does not give exit status 3 for a damaged index"

echo "$pass passed, $fail failed, 0 skipped"
[ $fail -eq 0 ]
