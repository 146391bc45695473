#!/usr/bin/env bash
# stream_memory.sh: a multi-game CSA file is validated and converted game by game, so
# the peak memory is bounded by the file plus a constant, not by its games' records:
# at most 1.5 times the file + 64 MB for validate and convert -t jsonl, csa and sfen
# (the multi-game outputs), with the outputs' game counts checked.
# Usage: stream_memory.sh KIFU_BINARY [SHARED_DIR]. KIFU_STREAM_MB (default 40) is the
# file's size; by hand: KIFU_STREAM_MB=200 bash stream_memory.sh build/kifu.
set -u
kifu=$1
mb=${KIFU_STREAM_MB:-40}
tmp=$(mktemp -d /tmp/kifu-cli-stream-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

# One typed-in game (20 moves with times, comments) repeated with varied headers, about
# 1 KB a game like a server's archive.
python3 - "$tmp/many.csa" "$mb" <<'PY' || { echo "FAIL: cannot generate"; exit 1; }
import sys
path, mb = sys.argv[1], int(sys.argv[2])
moves = ("+7776FU -3334FU +2726FU -8384FU +2625FU -8485FU +6978KI -4132KI +2524FU "
         "-2324FU +2824HI -8586FU +8786FU -8286HI +2434HI -2288UM +7988GI -0028KA "
         "+3432HI -3132GI").split()
note = "'" + "an opening comment on the position, " * 4 + "\n"
target = mb * 1000 * 1000
with open(path, "w") as f:
    size, i = 0, 0
    while size < target:
        body = ["V2.2\n", "N+sente%d\n" % i, "N-gote%d\n" % (i * 7 % 1000),
                "$EVENT:stream %d\n" % i, "$START_TIME:2024/01/%02d 10:00:00\n" % (i % 28 + 1),
                "PI\n+\n"]
        for k, m in enumerate(moves):
            body.append("%s\nT%d\n" % (m, (i + k) % 60))
            if k % 5 == 0:
                body.append(note)
        body.append("%TORYO\n")
        text = ("" if i == 0 else "/\n") + "".join(body)
        f.write(text)
        size += len(text)
        i += 1
print(i, file=open(path + ".n", "w"))
PY
games=$(cat "$tmp/many.csa.n")
size=$(stat -c %s "$tmp/many.csa")
limit_kb=$(((size * 3 / 2 + 64 * 1000 * 1000) / 1024))

# Peak RSS (KB) of the command, from the kernel's count for the waited-for child.
peak() {
    python3 - "$@" <<'PY'
import resource, subprocess, sys
rc = subprocess.call(sys.argv[1:])
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, rc)
PY
}

check() { # what, then the command
    local what=$1
    shift
    read -r kb rc < <(peak "$@")
    echo "$what: ${size} bytes, $games games: peak ${kb} KB (limit ${limit_kb} KB), exit $rc"
    if [ "$rc" = 0 ] && [ "$kb" -le "$limit_kb" ]; then ok; else bad "$what: peak $kb KB > $limit_kb KB or exit $rc"; fi
}

check validate "$kifu" validate -q "$tmp/many.csa"
check "convert -t jsonl" sh -c "'$kifu' convert -o - '$tmp/many.csa' > '$tmp/out.jsonl'"
[ "$(wc -l <"$tmp/out.jsonl")" -eq "$games" ] && ok || bad "jsonl: $(wc -l <"$tmp/out.jsonl") lines, $games games"
check "convert -t csa" "$kifu" convert -t csa -o "$tmp/out.csa" "$tmp/many.csa"
[ "$(grep -c '^/$' "$tmp/out.csa")" -eq $((games - 1)) ] && ok || bad "csa: $(grep -c '^/$' "$tmp/out.csa") separators"
check "convert -t sfen" sh -c "'$kifu' convert -t sfen -o '$tmp/out.sfen' '$tmp/many.csa' 2>'$tmp/sfen.err'"
[ "$(wc -l <"$tmp/out.sfen")" -eq "$games" ] && ok || bad "sfen: $(wc -l <"$tmp/out.sfen") lines"
# The output read back holds every game.
read -r kb rc < <(peak "$kifu" validate -q "$tmp/out.csa")
[ "$rc" = 0 ] && ok || bad "the csa output does not validate"

echo "stream_memory: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
