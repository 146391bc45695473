#!/usr/bin/env bash
# kifu trace: text and JSON output, the piece that moved, errors and exit codes.
# Usage: trace.sh KIFU [SHARED_DIR]
set -u
kifu=$1
pass=0 fail=0
. "$(dirname "${BASH_SOURCE[0]}")/lib.bash"
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
echo 'position startpos moves 7g7f 3c3d 8h2b+ 3a2b B*4e 4a3b 4e3d' >"$tmp/g.usi"

out=$("$kifu" trace "$tmp/g.usi" --square 88)
check "bishop from 88" "☗８八角 at ply 0
    3 ☗２二角成(88)  takes 角
taken at ply 4" "$out"
out=$("$kifu" trace "$tmp/g.usi" --moved 5)
check "dropped bishop" "☗４五角 at ply 5
    5 ☗４五角打
    7 ☗３四角(45)  takes 歩
line ends at ply 7" "$out"
out=$("$kifu" trace "$tmp/g.usi" --moved 7 --json | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["start"]["x"], d["start"]["y"], len(d["steps"]), d["steps"][-1]["usi"], d["steps"][-1]["capture"], d["end"]["reason"])')
check "json" "4 5 1 4e3d FU line-end" "$out"
cat "$tmp/g.usi" | "$kifu" trace - --square 77 >/dev/null && ok || bad "stdin"

"$kifu" trace "$tmp/g.usi" --square 55 2>"$tmp/err"; check "empty square exit" 2 $?
grep -q 'no piece' "$tmp/err" && ok || bad "empty square message: $(cat "$tmp/err")"
"$kifu" trace "$tmp/g.usi" 2>/dev/null; check "no --square/--moved" 2 $?
"$kifu" trace "$tmp/missing.usi" --square 77 2>/dev/null; check "missing file" 3 $?
"$kifu" trace --help | grep -q 'usage: kifu trace' && ok || bad "help"
echo "$pass passed, $fail failed, 0 skipped"
[ "$fail" -eq 0 ]
