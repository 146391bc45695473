#!/usr/bin/env bash
# `make run`'s look at kifu serve: start it on 127.0.0.1 with a free port, print its URL,
# fetch one API answer (python3's urllib: curl may be absent), stop it by its PID.
# Usage: scripts/serve_once.sh KIFU INDEX.kdb PATH
set -u
kifu=$1 kdb=$2 path=$3
out=$(mktemp)
"$kifu" serve "$kdb" --listen 127.0.0.1:0 >"$out" &
pid=$!
trap 'kill "$pid" 2>/dev/null; rm -f "$out"' EXIT
url=
for _ in $(seq 100); do
    url=$(sed -n 's|^kifu: serving .* at \(http://127.0.0.1:[0-9]*/\)$|\1|p' "$out")
    [ -n "$url" ] && break
    sleep 0.1
done
[ -n "$url" ] || { echo "kifu serve printed no URL" >&2; exit 1; }
cat "$out"
echo "GET $url$path"
python3 -c 'import sys, urllib.request
print(urllib.request.urlopen(sys.argv[1], timeout=10).read().decode())' "$url$path" || exit 1
kill -TERM "$pid" && wait "$pid"
status=$?
trap 'rm -f "$out"' EXIT
echo "stopped (exit status $status)"
exit "$status"
