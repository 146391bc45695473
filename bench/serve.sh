#!/usr/bin/env bash
# kifu serve under a bounded load: /api/explore with wrk (Debian's; scripts/deps.sh
# bench), 32 connections on 2 threads for SECONDS (default 10), against the index given;
# and the size of every page and asset. The goals: p99 <= 5 ms and >= 3,000 requests/s
# on 2 cores, no page over 200 KB. Prints each figure with its goal; exit 1 when one is
# missed. The server runs on 127.0.0.1 with a free port and is stopped by its PID.
# Usage: bench/serve.sh KIFU INDEX.kdb [SECONDS] [QUERY]
#   e.g. bench/serve.sh build/kifu big.kdb 30 'moves=7g7f,3c3d'
set -u
kifu=$1 kdb=$2 secs=${3:-10} query=${4:-moves=7g7f,3c3d}
command -v wrk >/dev/null || { echo "wrk is not installed (scripts/deps.sh bench)"; exit 77; }
tmp=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT
"$kifu" serve "$kdb" --listen 127.0.0.1:0 >"$tmp/out" 2>"$tmp/err" &
pid=$!
url=
for _ in $(seq 100); do
    url=$(sed -n 's|^kifu: serving .* at \(http://127.0.0.1:[0-9]*/\)$|\1|p' "$tmp/out")
    [ -n "$url" ] && break
    sleep 0.1
done
[ -n "$url" ] || { echo "kifu serve printed no URL"; cat "$tmp/err"; exit 1; }
missed=0

# Page and asset sizes (bytes as served).
for p in "" explore games player game search assets/board.js assets/viewer.css \
    assets/app.js assets/app.css; do
    n=$(python3 -c 'import sys, urllib.request
print(len(urllib.request.urlopen(sys.argv[1]).read()))' "$url$p")
    printf '%-22s %8d bytes %s\n' "/$p" "$n" "$([ "$n" -le 204800 ] && echo ok || echo 'OVER 200 KB')"
    [ "$n" -le 204800 ] || missed=1
done

# The explorer's API under load.
wrk -t2 -c32 -d"${secs}s" --latency "${url}api/explore?$query" >"$tmp/wrk" 2>&1
cat "$tmp/wrk"
p99=$(awk '$1 == "99%" {print $2}' "$tmp/wrk")
rps=$(awk '/^Requests\/sec:/ {print $2}' "$tmp/wrk")
errs=$(awk '/Non-2xx or 3xx responses:/ {print $5}' "$tmp/wrk")
ms=$(python3 -c 'import sys, re
v = sys.argv[1]; m = re.match(r"([0-9.]+)(us|ms|s)$", v)
print(float(m.group(1)) * {"us": 0.001, "ms": 1, "s": 1000}[m.group(2)] if m else -1)' "$p99")
echo "p99 ${ms} ms (goal <= 5), ${rps} requests/s (goal >= 3000)${errs:+, $errs non-2xx}"
python3 -c 'import sys; sys.exit(0 if 0 <= float(sys.argv[1]) <= 5 and float(sys.argv[2]) >= 3000 else 1)' \
    "$ms" "${rps:-0}" || missed=1
[ -z "$errs" ] || missed=1
kill -TERM "$pid"; wait "$pid"; pid=
exit $missed
