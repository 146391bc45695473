#!/usr/bin/env bash
# kifu show --format svg: every diagram parses as XML (Python's parser), has one piece
# element per piece on the board of kifu's own SFEN at that ply, and each style works.
# Usage: svg.sh KIFU [SHARED_DIR]
set -u
kifu=$1
pass=0 fail=0
. "$(dirname "${BASH_SOURCE[0]}")/lib.bash"
command -v python3 >/dev/null || { echo "skip: no python3"; echo "0 passed, 0 failed, 1 skipped"; exit 77; }
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
# A game the engine plays: at each ply a legal move picked by a fixed rule (the most
# forward-reaching, so that pieces get taken and promoted), 60 plies.
line="position startpos moves"
for i in $(seq 1 60); do
    mv=$("$kifu" moves "$line" | awk -v i="$i" '{print $1}' | sort -t+ -k1 | awk -v i="$i" 'NR % 7 == i % 7 {m=$0} END {print m}')
    [ -n "$mv" ] || break
    line="$line $mv"
done
echo "$line" >"$tmp/g.usi"
plies=$("$kifu" show "$tmp/g.usi" --format sfen | awk '{print $4}')
plies=$((plies - 1))
count_sfen() { # pieces on the board of a SFEN
    printf '%s' "$1" | awk '{print $1}' | tr -d '/+0-9' | tr -d '\n' | wc -c
}
for ply in $(seq 0 "$plies"); do
    "$kifu" show "$tmp/g.usi" --ply "$ply" --format svg >"$tmp/d.svg" 2>"$tmp/err" || { bad "ply $ply: exit $?"; continue; }
    want=$(count_sfen "$("$kifu" show "$tmp/g.usi" --ply "$ply" --format sfen)")
    got=$(python3 - "$tmp/d.svg" <<'PY'
import sys, xml.etree.ElementTree as ET
ns = "{http://www.w3.org/2000/svg}"
root = ET.parse(sys.argv[1]).getroot()
assert root.tag == ns + "svg", root.tag
n = 0
for el in root.iter():
    cls = (el.get("class") or "").split()
    # a piece is one <text class="piece ..."> or one <g> of two small characters
    if el.tag == ns + "text" and "piece" in cls:
        n += 1
for g in root.iter(ns + "g"):
    parts = [t for t in g.findall(ns + "text") if "piece" in (t.get("class") or "")]
    if len(parts) == 2:
        n -= 1
print(n)
PY
) || { bad "ply $ply: not XML"; continue; }
    [ "$got" = "$want" ] && ok || bad "ply $ply: $got pieces drawn, the SFEN has $want"
done
for style in "--intl" "--two-char" "--tsume --caption 第1図" "--flip --size 200" "--no-last"; do
    # shellcheck disable=SC2086
    "$kifu" show "$tmp/g.usi" --format svg $style >"$tmp/s.svg" &&
        python3 -c 'import sys,xml.etree.ElementTree as E; E.parse(sys.argv[1])' "$tmp/s.svg" && ok || bad "style $style"
done
grep -q '>+S<\|>+B<\|>+P<' <("$kifu" show "$tmp/g.usi" --format svg --intl) && ok || bad "intl letters"
grep -q '>第1図<' <("$kifu" show "$tmp/g.usi" --format svg --caption 第1図) && ok || bad "caption"
grep -q 'width="200"' <("$kifu" show "$tmp/g.usi" --format svg --size 200) && ok || bad "size"
"$kifu" show "$tmp/g.usi" --format svg --size 3 >/dev/null 2>&1; [ $? -eq 2 ] && ok || bad "size too small is usage"
echo "$pass passed, $fail failed, 0 skipped"
[ "$fail" -eq 0 ]
