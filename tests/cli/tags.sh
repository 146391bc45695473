#!/usr/bin/env bash
# kifu tags: text and JSON output, directories and stdin, --list, --tag-file (replacing a
# shipped name, adding one, and an error with its file, line and column), the worked
# examples of docs/tags.md read as definitions, errors and exit codes.
# Usage: tags.sh KIFU [SHARED_DIR]
set -u
kifu=$1
src=$(cd "$(dirname "$0")/../.." && pwd)
pass=0 fail=0
. "$(dirname "${BASH_SOURCE[0]}")/lib.bash"
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
# Sente: 四間飛車 and 美濃; gote: a static rook in 舟囲い.
echo 'position startpos moves 7g7f 3c3d 6g6f 8c8d 2h6h 8d8e 8h7g 6a5b 5i4h 5a4b 4h3h 4b3b 3h2h 7a6b 3i3h 5c5d 6i5h 1c1d 1g1f 9c9d' >"$tmp/g.usi"

out=$("$kifu" tags "$tmp/g.usi")
check "text" "先手の戦法：四間飛車 (5)
先手の囲い：美濃囲い (17), 片美濃囲い (15)
先手の備考：振り飛車 (5), 対居飛車 (0)
後手の戦法：力戦 (0)
後手の囲い：舟囲い (12)
後手の備考：居飛車 (0), 対振り飛車 (5)
対局の備考：対抗形 (5)" "$out"
out=$("$kifu" tags "$tmp/g.usi" --json | python3 -c '
import json, sys
d = json.load(sys.stdin)
print(d["game"], ",".join("%s:%s:%s:%d" % (t["side"], t["family"], t["name"], t["ply"]) for t in d["tags"] if t["family"] != "備考"))')
check "json" "1 sente:戦法:四間飛車:5,sente:囲い:美濃囲い:17,sente:囲い:片美濃囲い:15,gote:囲い:舟囲い:12,gote:戦法:力戦:0" "$out"
out=$("$kifu" tags - <"$tmp/g.usi" | head -1)
check "stdin" "先手の戦法：四間飛車 (5)" "$out"
mkdir "$tmp/dir" && cp "$tmp/g.usi" "$tmp/dir/a.sfen" && cp "$tmp/g.usi" "$tmp/dir/b.sfen"
out=$("$kifu" tags "$tmp/dir" --json | wc -l)
check "directory: a line per game" 2 "$out"
out=$("$kifu" tags "$tmp/dir" | grep -c '^[ab].sfen$')
check "directory: file names" 2 "$out"
"$kifu" tags --list | grep -qx '囲い	居飛車穴熊' && ok || bad "--list"

# A user file: 四間飛車 only on 6八 by move 2 (this game's rook gets there on move 3), and
# a new castle.
cat >"$tmp/mine.tags" <<'T'
[四間飛車]
family: 戦法
by: 2
rook: 6

[三八玉]
family: 囲い
board:
| * * * * * * * * *|
| * * * * * * * * *|
| * * * * * * * * *|
| * * * * * * * * *|
| * * * * * * * * *|
| * * * * * * * * *|
| * * * * * * * * *|
| * * * * * * 玉 * *|
| * * * * * * * * *|
T
out=$("$kifu" tags "$tmp/g.usi" --tag-file "$tmp/mine.tags" | head -1)
check "--tag-file replaces" "先手の戦法：力戦 (0)" "$out"
echo 'position startpos moves 5i4h 3c3d 4h3h 4c4d 9g9f 5c5d' >"$tmp/h.usi"
"$kifu" tags "$tmp/h.usi" --tag-file "$tmp/mine.tags" | grep -q '先手の囲い：三八玉 (3)' && ok ||
    bad "--tag-file adds: $("$kifu" tags "$tmp/h.usi" --tag-file "$tmp/mine.tags")"
printf '[x]\nfamily: 戦法\nhold: 0\n' >"$tmp/bad.tags"
"$kifu" tags "$tmp/g.usi" --tag-file "$tmp/bad.tags" 2>"$tmp/err"; check "bad tag file exit" 1 $?
grep -q "bad.tags:3:7:" "$tmp/err" && ok || bad "bad tag file message: $(cat "$tmp/err")"
"$kifu" tags "$tmp/g.usi" --tag-file "$tmp/none.tags" 2>/dev/null; check "missing tag file" 3 $?

# The worked examples of docs/tags.md are definitions kifu reads.
awk '/^```/ { if (fence) { fence = 0; if (on) print ""; on = 0 } else { fence = 1; on = ($0 == "```") } next } on' \
    "$src/docs/tags.md" >"$tmp/doc.tags"
grep -q '^\[四間飛車\]' "$tmp/doc.tags" && ok || bad "the docs' examples were not found"
"$kifu" tags --list --tag-file "$tmp/doc.tags" >/dev/null 2>"$tmp/err" && ok ||
    bad "docs/tags.md examples: $(cat "$tmp/err")"


# convert --tags: the header keys in KIF, KIFU, KI2 and JKF; a record's own keys kept,
# or replaced with --tags-replace.
for fmt in kifu ki2u; do
    out=$("$kifu" convert --tags -t $fmt "$tmp/g.usi" | grep -E '^(先手|後手)の(戦法|囲い|備考)：')
    check "convert --tags -t $fmt" "先手の戦法：四間飛車
先手の囲い：美濃囲い, 片美濃囲い
先手の備考：振り飛車, 対居飛車, 対抗形
後手の戦法：力戦
後手の囲い：舟囲い
後手の備考：居飛車, 対振り飛車, 対抗形" "$out"
done
out=$("$kifu" convert --tags -t kif "$tmp/g.usi" | iconv -f cp932 -t utf-8 | grep -c '^先手の戦法：四間飛車$')
check "convert --tags -t kif (Shift_JIS)" 1 "$out"
out=$("$kifu" convert --tags "$tmp/g.usi" | python3 -c 'import json,sys; h=json.load(sys.stdin)["header"]; print(h["先手の戦法"], "/", h["後手の囲い"])')
check "convert --tags (JKF)" "四間飛車 / 舟囲い" "$out"
"$kifu" convert -t kifu "$tmp/g.usi" | sed 's/^手合割：平手$/手合割：平手\n先手の戦法：嬉野流/' >"$tmp/stale.kifu"
out=$("$kifu" convert --tags -t kifu "$tmp/stale.kifu" | grep -E '^先手の(戦法|囲い)')
check "convert --tags keeps a record's key" "先手の戦法：嬉野流
先手の囲い：美濃囲い, 片美濃囲い" "$out"
out=$("$kifu" convert --tags-replace -t kifu "$tmp/stale.kifu" | grep -E '^先手の(戦法|囲い)')
check "convert --tags-replace" "先手の戦法：四間飛車
先手の囲い：美濃囲い, 片美濃囲い" "$out"
out=$("$kifu" convert -t kifu "$tmp/stale.kifu" | grep -c 'の囲い')
check "convert without --tags adds none" 0 "$out"
out=$("$kifu" convert --tag-file "$tmp/mine.tags" -t kifu "$tmp/g.usi" | grep '^先手の戦法')
check "convert --tag-file" "先手の戦法：力戦" "$out"
"$kifu" convert --tag-file "$tmp/bad.tags" "$tmp/g.usi" 2>"$tmp/err" >/dev/null; check "convert: bad tag file exit" 1 $?
grep -q "bad.tags:3:7:" "$tmp/err" && ok || bad "convert: bad tag file message: $(cat "$tmp/err")"
mkdir "$tmp/out"
"$kifu" convert --tags -j 2 -q -t kifu --out-dir "$tmp/out" "$tmp/dir" && ok || bad "convert --tags on threads"
out=$(cat "$tmp/out/a.kifu" "$tmp/out/b.kifu" | grep -c '^後手の囲い：舟囲い$')
check "convert --tags on threads: every file" 2 "$out"

# show: the tags in the lines about the record.
out=$("$kifu" show "$tmp/g.usi" --format text | grep -E '^  (戦型|囲い)：')
check "show" "  戦型：☗四間飛車 ☖力戦 (対抗形)
  囲い：☗美濃囲い, 片美濃囲い ☖舟囲い" "$out"

# html --tags: the tags in the page's header, which the viewer shows beside the players.
out=$("$kifu" html --tags "$tmp/g.usi" | grep -o '"先手の戦法":"[^"]*","先手の囲い":"[^"]*"')
check "html --tags" '"先手の戦法":"四間飛車","先手の囲い":"美濃囲い, 片美濃囲い"' "$out"
out=$("$kifu" html "$tmp/g.usi" | grep -c '先手の戦法')
check "html without --tags" 0 "$out"

echo 'position startpos moves 7g7f 3c3d 8h2c' >"$tmp/illegal.usi"
"$kifu" tags "$tmp/illegal.usi" 2>/dev/null; check "illegal move exit" 1 $?
cp "$tmp/illegal.usi" "$tmp/dir/c.sfen"
out=$("$kifu" tags "$tmp/dir" --json 2>/dev/null | wc -l); rc=$?
check "a bad file in a directory: the others still tagged" 2 "$out"
"$kifu" tags "$tmp/dir" >/dev/null 2>&1; check "a bad file in a directory: exit" 1 $?
"$kifu" tags 2>/dev/null; check "no file" 2 $?
"$kifu" tags "$tmp/missing.usi" 2>/dev/null; check "missing file" 3 $?
"$kifu" tags --bogus "$tmp/g.usi" 2>/dev/null; check "unknown option" 2 $?
"$kifu" tags --help | grep -q 'usage: kifu tags' && ok || bad "help"
echo "$pass passed, $fail failed, 0 skipped"
[ "$fail" -eq 0 ]
