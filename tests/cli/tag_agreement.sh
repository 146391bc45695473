#!/usr/bin/env bash
# scripts/tag_agreement.py on records typed in here: a KIF whose header carries another
# program's tags (one right, one that kifu does not give, one it gives that the header lacks),
# a KIF without tags (skipped) and a handicap one (skipped). Checks the class agreement, the
# per-name counts, precision and recall, and that the tag lines were stripped before tagging.
# Usage: tag_agreement.sh KIFU
set -u
kifu=$1
src=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "${BASH_SOURCE[0]}")/lib.bash"
command -v python3 >/dev/null || { echo "SKIP: no python3"; exit 77; }
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
# Sente: 四間飛車 and 美濃 (片美濃 on the way); gote: a static rook in 舟囲い (tags.sh's game).
echo 'position startpos moves 7g7f 3c3d 6g6f 8c8d 2h6h 8d8e 8h7g 6a5b 5i4h 5a4b 4h3h 4b3b 3h2h 7a6b 3i3h 5c5d 6i5h 1c1d 1g1f 9c9d' >"$tmp/g.usi"
"$kifu" convert "$tmp/g.usi" -t kif -o "$tmp/g.kif" >/dev/null || bad "convert"
mkdir "$tmp/set"
{
    printf '先手：alice\n後手：bob\n'
    printf '先手の戦法：四間飛車\n先手の囲い：美濃囲い\n先手の備考：振り飛車, 対抗形\n'
    printf '後手の戦法：右四間飛車\n後手の備考：居飛車, 対抗形\n'
    iconv -f CP932 -t UTF-8 "$tmp/g.kif" | grep -v '^#KIF'
    printf '*▲戦法：四間飛車\n'
} >"$tmp/set/tagged.kif"
iconv -f CP932 -t UTF-8 "$tmp/g.kif" | grep -v '^#KIF' >"$tmp/set/plain.kif"
sed 's/^手合割：平手/手合割：香落ち/' "$tmp/set/tagged.kif" >"$tmp/set/handicap.kif"
cp -r "$tmp/set" "$tmp/before"

out=$(python3 "$src/scripts/tag_agreement.py" "$tmp/set" --kifu "$kifu" --examples 2)
echo "$out" | grep -q '^1 games with tags (2 files without tags or not 平手 skipped, 0 kifu could not read); 2 player names$' \
    && ok || bad "summary: $(echo "$out" | head -1)"
echo "$out" | grep -q '^居飛車/振り飛車 (each side): 2/2 agree, 100.0%$' && ok || bad "side classes"
echo "$out" | grep -q '^相居飛車/対抗形/相振り飛車 (the game): 1/1 agree, 100.0%$' && ok || bad "game class"
row() { echo "$out" | awk -v n="$1" '$2 == n { print $3, $4, $5, $6, $7; exit }'; }
check "四間飛車: found" "1 1 1.00 1.00 1.00" "$(row 四間飛車)"
check "美濃囲い: found" "1 1 1.00 1.00 1.00" "$(row 美濃囲い)"
check "右四間飛車: missed" "1 0 - 0.00 0.00" "$(row 右四間飛車)"
check "舟囲い: kifu only" "0 1 0.00 - 0.00" "$(row 舟囲い)"
check "片美濃囲い: kifu only" "0 1 0.00 - 0.00" "$(row 片美濃囲い)"
echo "$out" | grep -q '^  右四間飛車 missed: tagged.kif 後手$' && ok || bad "a missed example"
diff -r "$tmp/before" "$tmp/set" >/dev/null && ok || bad "the folder was changed"

out=$(python3 "$src/scripts/tag_agreement.py" "$tmp/set/plain.kif" --kifu "$kifu"); rc=$?
check "no tagged file: exit 2" 2 "$rc"
out=$(python3 "$src/scripts/tag_agreement.py" "$tmp/set" --kifu "$kifu" --markdown)
echo "$out" | grep -q '^| 戦法 | 四間飛車 | 1 | 1 | 1.00 | 1.00 | 1.00 |  |$' && ok || bad "markdown row"

echo "tag_agreement: $pass passed, $fail failed"
[ $fail -eq 0 ]
