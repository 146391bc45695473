#!/usr/bin/env bash
# kifu search: hit lines, transpositions, forks, counts, file lists, JSON Lines, patterns,
# stdin, directories with a bad file, and grep's exit codes.
# Usage: search.sh KIFU [SHARED_DIR]
set -u
kifu=$1
pass=0 fail=0
. "$(dirname "${BASH_SOURCE[0]}")/lib.bash"
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/games/sub"
echo 'position startpos moves 7g7f 3c3d 2g2f 8c8d' >"$tmp/games/a.usi"
echo 'position startpos moves 2g2f 3c3d 7g7f 4a3b' >"$tmp/games/sub/b.usi"
cat >"$tmp/games/c.kifu" <<'K'
手数----指手---------消費時間--
   1 ７六歩(77)
   2 ３四歩(33)
   3 ６六歩(67)+
   4 ８四歩(83)

変化：3手
   3 ２六歩(27)
   4 ８四歩(83)
K
printf '手数----指手---------消費時間--\n   1 ７六歩(77)\nnot a move\n' >"$tmp/games/broken.kifu"
# Two games in one CSA file.
printf 'V2.2\nPI\n+\n+7776FU\n-3334FU\n+2726FU\n/\nV2.2\nPI\n+\n+2726FU\n' >"$tmp/games/two.csa"

target='position startpos moves 7g7f 3c3d 2g2f'
out=$("$kifu" search --usi "$target" "$tmp/games/a.usi" "$tmp/games/sub/b.usi" 2>&1)
check "transposition, hit lines with the next move" "$tmp/games/a.usi:3: ☖８四歩(83)
$tmp/games/sub/b.usi:3: ☖３二金(41)" "$out"

out=$("$kifu" search --usi "$target" "$tmp/games/c.kifu")
check "main line only by default" "" "$out"
out=$("$kifu" search --usi "$target" --forks "$tmp/games/c.kifu")
check "a fork's path" "$tmp/games/c.kifu:3,1: ☖８四歩(83)" "$out"

out=$("$kifu" search --usi "$target" "$tmp/games/two.csa")
check "game number in a file of several" "$tmp/games/two.csa#1:3: (end)" "$out"

out=$("$kifu" search --usi "$target" -c "$tmp/games" 2>/dev/null)
check "counts per file" "$tmp/games/a.usi:1
$tmp/games/c.kifu:0
$tmp/games/sub/b.usi:1
$tmp/games/two.csa:1" "$(echo "$out" | sort)"
"$kifu" search --usi "$target" -l "$tmp/games" >"$tmp/l" 2>"$tmp/err"
check "a bad file in a directory: reported, the rest searched (exit 0: found, as grep)" 0 $?
check "files with a hit" "$tmp/games/a.usi
$tmp/games/sub/b.usi
$tmp/games/two.csa" "$(sort "$tmp/l")"
grep -q 'broken.kifu' "$tmp/err" && ok || bad "the bad file is named: $(cat "$tmp/err")"

out=$("$kifu" search --usi "$target" --json "$tmp/games/a.usi" | python3 -c '
import json, sys
for line in sys.stdin:
    d = json.loads(line)
    print(d["game"], d["ply"], d["path"], d["next"], d["usi"], d["bd"][46:48], d["sfen"].split()[1])')
check "JSON Lines" "1 3 3 ☖８四歩(83) 8c8d oa w" "$out"

# --bd: the board letters, either side unless --turn; --board-only ignores the hands.
bd=$("$kifu" search --usi "$target" --json "$tmp/games/a.usi" | python3 -c 'import json,sys; print(json.loads(sys.stdin.readline())["bd"])')
out=$("$kifu" search --bd "$bd" -c "$tmp/games/a.usi")
check "--bd" 1 "$out"
out=$("$kifu" search --bd "$bd" --turn b -c "$tmp/games/a.usi")
check "--bd --turn b (gote is to move)" 0 "$out"
out=$("$kifu" search --bd "$bd" --cb a -c "$tmp/games/a.usi")
check "--cb that does not hold" 0 "$out"
out=$("$kifu" search --bd "$bd" --cb a --board-only -c "$tmp/games/a.usi")
check "--board-only" 1 "$out"

# A pattern: sente's pawn on 7六 (letter 48), in every game that played 7g7f.
out=$("$kifu" search --regex '^.{47}a' --first "$tmp/games/a.usi" "$tmp/games/sub/b.usi")
check "regex, first hit per game" "$tmp/games/a.usi:1: ☖３四歩(33)
$tmp/games/sub/b.usi:3: ☖３二金(41)" "$out"
printf '| * * * * * * * * *|\n| * * * * * * * * *|\n| * * * * * * ・ * *|\n| * * * * * *v歩 * *|\n| * * * * * * * * *|\n| * * * * * * * * *|\n| * * * * * * * * *|\n| * * * * * * * * *|\n| * * * * * * * * *|\n' >"$tmp/p.txt"
out=$("$kifu" search --pattern "$tmp/p.txt" --first -c "$tmp/games/a.usi")
check "grid pattern" 1 "$out"

# stdin, quiet, and the exit codes.
"$kifu" search --usi "$target" -q - <"$tmp/games/a.usi"; check "stdin, found" 0 $?
"$kifu" search --usi 'position startpos moves 1g1f' -q "$tmp/games/a.usi"; check "nothing found" 1 $?
"$kifu" search "$tmp/games/a.usi" 2>/dev/null; check "no WHAT" 2 $?
"$kifu" search --regex '([' "$tmp/games/a.usi" 2>"$tmp/err"; check "bad regex" 2 $?
grep -q -- '--regex:1:3: ' "$tmp/err" && ok || bad "bad regex located: $(cat "$tmp/err")"
"$kifu" search --sfen 'nonsense' "$tmp/games/a.usi" 2>/dev/null; check "bad SFEN" 2 $?
# -j: the same output, messages and exit status for any number of threads, on a
# collection with multi-game files, encodings, a truncated file, a relay game, files
# that are no record, plus an unreadable one and many small files after them.
bash "$(dirname "$0")/../collection/make.sh" "$kifu" "$tmp/coll" >/dev/null
for i in $(seq 1 40); do
    printf 'position startpos moves 7g7f 3c3d 2g2f %s\n' \
        "$([ $((i % 3)) -eq 0 ] && echo 8c8d || echo 4c4d)" >"$tmp/coll/many_$i.usi"
done
printf 'not a record' >"$tmp/coll/many_bad.kif"
usi='position startpos moves 7g7f 3c3d 2g2f'
for args in "" "-c" "-l" "--json" "-q" "-s"; do
    # shellcheck disable=SC2086
    "$kifu" search --usi "$usi" $args -j 1 "$tmp/coll" >"$tmp/j1.out" 2>"$tmp/j1.err"
    rc1=$?
    same=1
    for j in 2 8; do
        # shellcheck disable=SC2086
        "$kifu" search --usi "$usi" $args -j $j "$tmp/coll" >"$tmp/jn.out" 2>"$tmp/jn.err"
        rcn=$?
        cmp -s "$tmp/j1.out" "$tmp/jn.out" && cmp -s "$tmp/j1.err" "$tmp/jn.err" &&
            [ $rc1 -eq $rcn ] || { same=0; bad "-j $j ${args:-(hits)}: not as -j 1"; }
    done
    [ $same -eq 1 ] && ok
done
"$kifu" search --usi "$usi" -j 1 "$tmp/coll" >"$tmp/j1.out" 2>/dev/null
check "-j: every small file's hit is there" 40 "$(grep -c '^.*many_[0-9]*\.usi:3:' "$tmp/j1.out")"
"$kifu" search --usi "$usi" -j x "$tmp/coll" 2>/dev/null; check "-j x: usage" 2 $?
# -j written as the other commands take it: -j2, --jobs=2, --jobs 2.
for j in -j2 --jobs=2 "--jobs 2"; do
    # shellcheck disable=SC2086
    "$kifu" search --usi "$usi" $j "$tmp/coll" 2>/dev/null | cmp -s - "$tmp/j1.out" && ok || bad "search $j"
done
"$kifu" search --usi "$target" "$tmp/none.kif" 2>/dev/null; check "missing file: grep's 2" 2 $?
"$kifu" search --help | grep -q '^usage: kifu search' && ok || bad "--help"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
