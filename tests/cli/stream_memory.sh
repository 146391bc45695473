#!/usr/bin/env bash
# stream_memory.sh: multi-game files are read, checked and written game by game, so the
# peak memory is bounded by the file plus a constant, not by its games' records (issue
# 28: a 210 MB CSA took 2.2 GB to validate, 4.0 GB to convert): at most 1.5 times the
# file + 64 MB for validate, convert to every output format, html and index build, on a
# 200 MB CSA generated here. The outputs' game counts are checked too.
#   many.csa: small games (~1 KB, as a server's archive) for the commands whose output is
#     one file: validate, convert -t csa/sfen/posjson, -o - (JSON Lines), html, index.
#   many.sfen, many.jsonl: many.csa's games as SFEN lines, and JSON Lines of its first
#     games (0.3 times its size), read game by game: validate and convert.
#   fat.csa: half the size in 500 long games, for the formats of one game a file (jkf,
#     kif, kifu, ki2, ki2u, sfenlist), so that their outputs are few enough to write.
# Usage: stream_memory.sh KIFU_BINARY [SHARED_DIR]. KIFU_STREAM_MB (default 200) is
# many.csa's size. Skipped (77) when the temp dir has too little room.
set -u
kifu=$1
mb=${KIFU_STREAM_MB:-200}
# Under AddressSanitizer freed memory waits in its quarantine and every byte has its
# shadow, so a peak says nothing of kifu's own, and 200 MB takes too long: a 20 MB file,
# the outputs checked, the peaks printed but not held to the limit.
sanitized=0
if grep -q __asan_init "$kifu" 2>/dev/null; then
    sanitized=1 mb=${KIFU_STREAM_MB:-20}
    echo "(a sanitizer's build: $mb MB, peaks not checked)"
fi
tmp=$(mktemp -d /tmp/kifu-cli-stream-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
free_kb=$(df -Pk "$tmp" | awk 'NR == 2 { print $4 }')
need_kb=$((mb * 3 * 1000 + 200 * 1000))
if [ "${free_kb:-0}" -lt "$need_kb" ]; then
    echo "SKIP: $tmp has ${free_kb} KB free, the test needs $need_kb KB"
    exit 77
fi
pass=0 fail=0
. "$(dirname "${BASH_SOURCE[0]}")/lib.bash"

# One typed-in game (20 moves with times, comments) repeated with varied headers; `fat`
# gives each move a comment of a few KB, so that a game is about 200 KB.
python3 - "$tmp" "$mb" <<'PY' || { echo "FAIL: cannot generate"; exit 1; }
import sys
tmp, mb = sys.argv[1], int(sys.argv[2])
moves = ("+7776FU -3334FU +2726FU -8384FU +2625FU -8485FU +6978KI -4132KI +2524FU "
         "-2324FU +2824HI -8586FU +8786FU -8286HI +2434HI -2288UM +7988GI -0028KA "
         "+3432HI -3132GI").split()
def make(path, note, every, target):
    with open(path, "w") as f:
        size, i = 0, 0
        while size < target:
            body = ["V2.2\n", "N+sente%d\n" % i, "N-gote%d\n" % (i * 7 % 1000),
                    "$EVENT:stream %d\n" % i,
                    "$START_TIME:2024/01/%02d 10:00:00\n" % (i % 28 + 1), "PI\n+\n"]
            for k, m in enumerate(moves):
                body.append("%s\nT%d\n" % (m, (i + k) % 60))
                if k % every == 0:
                    body.append(note)
            body.append("%TORYO\n")
            text = ("" if i == 0 else "/\n") + "".join(body)
            f.write(text)
            size += len(text)
            i += 1
    print(i, file=open(path + ".n", "w"))
target = mb * 1000 * 1000
make(tmp + "/many.csa", "'" + "an opening comment on the position, " * 4 + "\n", 5, target)
make(tmp + "/fat.csa", "'" + "a long note on the position, " * 350 + "\n", 1, target // 2)
PY

# Peak RSS (KB) of the command, from the kernel's count for the waited-for child.
peak() {
    python3 - "$@" <<'PY'
import resource, subprocess, sys
rc = subprocess.call(sys.argv[1:])
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, rc)
PY
}

check() { # file, what, then the command
    local file=$1 what=$2
    shift 2
    local size games limit_kb kb rc
    size=$(stat -c %s "$tmp/$file")
    games=$(cat "$tmp/$file.n")
    limit_kb=$(((size * ${limit_factor:-3/2} + 64 * 1000 * 1000) / 1024))
    read -r kb rc < <(peak "$@")
    echo "$what: $file, ${size} bytes, $games games: peak ${kb} KB (limit ${limit_kb} KB), exit $rc"
    if [ "$rc" = 0 ] && { [ "$kb" -le "$limit_kb" ] || [ $sanitized = 1 ]; }; then ok; else bad "$what: peak $kb KB > $limit_kb KB or exit $rc"; fi
}

games=$(cat "$tmp/many.csa.n")
check many.csa validate "$kifu" validate -q "$tmp/many.csa"
check many.csa "convert -t csa -o FILE" "$kifu" convert -q -t csa -o "$tmp/out.csa" "$tmp/many.csa"
[ "$(grep -c '^/$' "$tmp/out.csa")" -eq $((games - 1)) ] && ok || bad "csa: $(grep -c '^/$' "$tmp/out.csa") separators"
head -c 2000000 "$tmp/out.csa" | sed '$d' | sed '$d' > "$tmp/head.csa" # whole games
"$kifu" validate -q "$tmp/head.csa" && ok || bad "the csa output does not read back"
rm -f "$tmp/out.csa"
check many.csa "convert -t sfen -o FILE" "$kifu" convert -q -t sfen -o "$tmp/out.sfen" "$tmp/many.csa"
[ "$(wc -l <"$tmp/out.sfen")" -eq "$games" ] && ok || bad "sfen: $(wc -l <"$tmp/out.sfen") lines"
# Files of many games in the other formats that hold several (a line a game): read game
# by game too (SFEN's 218,451 lines took 2.9 GB, JSON Lines 6.5 times the file).
mv "$tmp/out.sfen" "$tmp/many.sfen" && echo "$games" >"$tmp/many.sfen.n"
check many.sfen "validate (SFEN, a line a game)" "$kifu" validate -q "$tmp/many.sfen"
check many.sfen "convert SFEN -t csa" "$kifu" convert -q -t csa -o "$tmp/out.csa" "$tmp/many.sfen"
rm -f "$tmp/many.sfen" "$tmp/out.csa"
"$kifu" convert -q -o - "$tmp/many.csa" | head -c $((mb * 300 * 1000)) | sed '$d' >"$tmp/many.jsonl"
wc -l <"$tmp/many.jsonl" >"$tmp/many.jsonl.n"
check many.jsonl "validate (JSON Lines)" "$kifu" validate -q "$tmp/many.jsonl"
check many.jsonl "convert JSON Lines -t sfen" sh -c "'$kifu' convert -q -t sfen -o - '$tmp/many.jsonl' | wc -l > '$tmp/jl.n'"
[ "$(cat "$tmp/jl.n")" -eq "$(cat "$tmp/many.jsonl.n")" ] && ok || bad "jsonl -> sfen: $(cat "$tmp/jl.n") lines"
rm -f "$tmp/many.jsonl"
# The large outputs are counted on the way, not kept.
check many.csa "convert -o - (JSON Lines)" sh -c "'$kifu' convert -q -o - '$tmp/many.csa' | wc -l > '$tmp/jsonl.n'"
[ "$(cat "$tmp/jsonl.n")" -eq "$games" ] && ok || bad "jsonl: $(cat "$tmp/jsonl.n") lines, $games games"
check many.csa "convert -t posjson -o -" sh -c "'$kifu' convert -q -t posjson -o - '$tmp/many.csa' | grep -c '\"game\":' > '$tmp/pj.n'"
[ "$(cat "$tmp/pj.n")" -eq $((games - 1)) ] && ok || bad "posjson: $(cat "$tmp/pj.n") games after the first"
check many.csa "html" sh -c "'$kifu' html '$tmp/many.csa' | grep -c '{\"positions\":' > '$tmp/html.n'"
[ "$(cat "$tmp/html.n")" -eq "$games" ] && ok || bad "html: $(cat "$tmp/html.n") records, $games games"
# index build streams too, but holds its batch of positions and SQLite's cache: it is
# measured against 2 times the file + 64 MB (docs/performance.md has its figure), so
# that it does not grow back to the whole file's records.
limit_factor=2 check many.csa "index build" sh -c "'$kifu' index build '$tmp/many.csa' -o '$tmp/many.kdb' 2>/dev/null"
rm -f "$tmp/many.kdb"

fat=$(cat "$tmp/fat.csa.n")
for t in jkf kif kifu ki2 ki2u sfenlist; do
    check fat.csa "convert -t $t --out-dir" "$kifu" convert -q -t $t --out-dir "$tmp/d" "$tmp/fat.csa"
    n=$(find "$tmp/d" -type f | wc -l)
    [ "$n" -eq "$fat" ] && ok || bad "$t: $n files, $fat games"
    rm -rf "$tmp/d"
done

echo "stream_memory: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
