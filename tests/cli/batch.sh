#!/usr/bin/env bash
# batch.sh: directories converted and validated on several threads (-j) give the same
# stdout, stderr and exit status as one thread; '-o -' of JKF is JSON Lines naming each
# line's source; output names of inputs that would collide; a directory without records.
# Usage: batch.sh KIFU_BINARY [SHARED_DIR].
set -u
kifu=$1
tmp=$(mktemp -d /tmp/kifu-cli-batch-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0 skip=0
. "$(dirname "${BASH_SOURCE[0]}")/lib.bash"

# A collection with good games of several lengths, bad ones (an illegal move, garbage),
# a CSA file of three games with the last one bad, and files in subdirectories; enough files that
# the threads overtake one another.
moves=(7g7f 3c3d 2g2f 8c8d 2f2e 8d8e 6i7h 4a3b 2e2d 2c2d 2h2d 8e8f 8g8f 8b8f)
mkdir -p "$tmp/in/sub/deep"
for i in $(seq 1 60); do
    n=$((i % ${#moves[@]}))
    dir=$tmp/in
    [ $((i % 3)) -eq 0 ] && dir=$tmp/in/sub
    [ $((i % 7)) -eq 0 ] && dir=$tmp/in/sub/deep
    printf 'position startpos moves %s\n' "${moves[*]:0:$n}" >"$dir/g$(printf %02d "$i").sfen"
done
printf 'position startpos moves 7g7f 7g7f\n' >"$tmp/in/sub/illegal.sfen"
# A KIF (its move lines say so) with a line that is none: a failure, not a file skipped.
printf '手数----指手---------消費時間--\n   1 ７六歩(77)\nhello world\n' >"$tmp/in/garbage.kif"
printf 'PI\n+\n+7776FU\n-3334FU\n%%TORYO\n/\nPI\n+\n+2726FU\n%%CHUDAN\n/\nPI\n+\n+7775FU\n' >"$tmp/in/two.csa"

# -j1 against -j2 and -j8: convert to JSON Lines, convert to a directory, validate -v.
run() { # NAME ARGS...: stdout, stderr (timings cut) and exit code into $tmp/NAME.*
    local name=$1
    shift
    "$kifu" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err.raw"
    echo $? >"$tmp/$name.rc"
    sed -E 's/\([0-9.]+ s\)//' "$tmp/$name.err.raw" >"$tmp/$name.err"
}
for j in 1 2 8; do
    run "jsonl$j" convert -j $j -o - "$tmp/in"
    run "dir$j" convert --jobs=$j -t csa --out-dir "$tmp/out$j" "$tmp/in"
    run "val$j" validate -j$j -v "$tmp/in"
done
[ "$(cat "$tmp/jsonl1.rc")" = 1 ] && ok || bad "a bad file among many: exit 1 (got $(cat "$tmp/jsonl1.rc"))"
[ "$(wc -l <"$tmp/jsonl1.out")" -eq 62 ] && ok || bad "62 games on 62 lines: $(wc -l <"$tmp/jsonl1.out")"
# 60 good files, two.csa with a bad third game, garbage.kif broken, and illegal.sfen a
# game that reads but whose second move is illegal.
grep -q "63 files: 60 converted, 3 failed; 64 games: 62 converted, 2 failed" "$tmp/jsonl1.err" && ok ||
    bad "summary of files and games: $(tail -1 "$tmp/jsonl1.err")"
for j in 2 8; do
    for what in jsonl dir val; do
        for part in out err rc; do
            cmp -s "$tmp/${what}1.$part" "$tmp/$what$j.$part" && ok ||
                bad "$what: -j$j $part differs from -j1: $(diff "$tmp/${what}1.$part" "$tmp/$what$j.$part" | head -5)"
        done
    done
    diff -r "$tmp/out1" "$tmp/out$j" >/dev/null && ok || bad "--out-dir -j$j writes what -j1 writes"
done
[ -s "$tmp/out1/sub/deep/g07.csa" ] && [ -s "$tmp/out1/two.csa" ] && ok || bad "outputs in the tree"
# Messages come in input order: garbage.kif sorts before sub/illegal.sfen.
awk '/garbage.kif/ {g = NR} /illegal.sfen/ {i = NR} END {exit !(g && i && g < i)}' "$tmp/jsonl8.err" &&
    ok || bad "messages in input order: $(cat "$tmp/jsonl8.err")"
[ "$(grep -c ': OK' "$tmp/val8.out")" -eq 62 ] && ok || bad "validate -v: an OK line per good game"

# JSON Lines: each line is one JKF document whose header names its file (and the game).
if command -v python3 >/dev/null 2>&1; then
    python3 - "$tmp/jsonl1.out" "$tmp/in" <<'PY' && ok || bad "JSON Lines check"
import json, sys
lines = open(sys.argv[1], encoding="utf-8").read().split("\n")
assert lines[-1] == "", "ends with a newline"
docs = [json.loads(l) for l in lines[:-1]]
for d in docs:
    assert set(d) <= {"header", "initial", "moves"}, d.keys()
    assert d["header"]["kifu:source"].startswith(sys.argv[2] + "/"), d["header"]
    assert isinstance(d["moves"], list) and d["moves"], d
srcs = [d["header"]["kifu:source"] for d in docs]
assert srcs == sorted(srcs, key=lambda s: s.replace(sys.argv[2] + "/", "")), "input order"
two = [d for d in docs if d["header"]["kifu:source"].endswith("two.csa")]
assert [d["header"]["kifu:game"] for d in two] == ["1", "2"], two  # the third is bad
one = [d for d in docs if d["header"]["kifu:source"].endswith("/g13.sfen")][0]
assert len(one["moves"]) == 14, one  # the start and 13 moves
PY
else
    skip=$((skip + 1))
    echo "skip: python3 missing (JSON Lines check)"
fi
# --pretty is not JSON Lines: no source added.
"$kifu" convert --pretty -o - "$tmp/in/g01.sfen" "$tmp/in/g02.sfen" 2>/dev/null | grep -q 'kifu:source' &&
    bad "--pretty adds no source" || ok

# Inputs that differ only by extension keep it; identical names fail both, exit 1.
mkdir -p "$tmp/twins/x" "$tmp/twins/y"
printf 'position startpos moves 7g7f\n' >"$tmp/twins/x/a.sfen"
printf 'position startpos moves 2g2f\n' >"$tmp/twins/x/a.usi"
printf 'position startpos moves 5g5f\n' >"$tmp/twins/x/b.sfen"
"$kifu" convert --out-dir "$tmp/tw" "$tmp/twins/x" 2>"$tmp/err"
[ $? -eq 0 ] && [ -s "$tmp/tw/a.sfen.jkf" ] && [ -s "$tmp/tw/a.usi.jkf" ] && [ -s "$tmp/tw/b.jkf" ] && ok ||
    bad "a.sfen, a.usi -> a.sfen.jkf, a.usi.jkf: $(ls "$tmp/tw" 2>&1) $(cat "$tmp/err")"
grep -q '"7g7f"\|"x":7' "$tmp/tw/a.sfen.jkf" && ok || bad "a.sfen.jkf holds a.sfen's game"
cp "$tmp/twins/x/b.sfen" "$tmp/twins/y/b.sfen"
"$kifu" convert --out-dir "$tmp/tw2" "$tmp/twins/x/b.sfen" "$tmp/twins/y/b.sfen" 2>"$tmp/err"
rc=$?
[ $rc -eq 1 ] && [ ! -e "$tmp/tw2/b.jkf" ] && grep -q "x/b.sfen: not converted: .*y/b.sfen would write" "$tmp/err" &&
    grep -q "y/b.sfen: not converted: .*x/b.sfen would write" "$tmp/err" && ok ||
    bad "same name twice: exit $rc, $(cat "$tmp/err")"

# A directory with no record: said, exit 1, for validate and convert.
mkdir -p "$tmp/empty/sub"
echo notes >"$tmp/empty/readme.txt"
"$kifu" validate "$tmp/empty" >/dev/null 2>"$tmp/err"
rc=$?
[ $rc -eq 1 ] && grep -q "no record files found" "$tmp/err" && ok || bad "validate of an empty dir: exit $rc, $(cat "$tmp/err")"
# ... naming each extension once (JKF and posjson share .json)
[ "$(grep -o '\.json\b' "$tmp/err" | wc -l)" -eq 1 ] && ok || bad "extensions listed twice: $(cat "$tmp/err")"
"$kifu" convert -o - "$tmp/empty" >/dev/null 2>"$tmp/err"
rc=$?
[ $rc -eq 1 ] && grep -q "no record files found" "$tmp/err" && ok || bad "convert of an empty dir: exit $rc"

# -j takes a number.
"$kifu" validate -j x "$tmp/in" >/dev/null 2>&1
[ $? -eq 2 ] && ok || bad "-j x is a usage error"
"$kifu" validate -j 0 -q "$tmp/in/g01.sfen" && ok || bad "-j 0: one per processor"

echo "$pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ]
