#!/usr/bin/env bash
# show.sh: `kifu show` and `kifu moves` on records we write here (SFEN, sfenlist): the
# BOD diagram, --ply, --path, --flip, --format sfen|text, errors and exit codes.
# argv: kifu binary, shared dir (unused).
set -u
KIFU=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
expect_eq() { # name got want
  if [ "$2" != "$3" ]; then fail "$1"; echo "  got:      $2"; echo "  expected: $3"; fi
}
expect_has() { # name text needle
  case "$2" in *"$3"*) ;; *) fail "$1: no '$3' in:"; echo "$2" | sed 's/^/    /';; esac
}

START='lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1'
echo 'position startpos moves 7g7f 3c3d 8h2b+ 3a2b' >"$tmp/g.sfen"

out=$("$KIFU" show --help); rc=$?
expect_eq "show --help exit" "$rc" 0
expect_has "show --help" "$out" "--format"

# piped: BOD at the last ply
out=$("$KIFU" show "$tmp/g.sfen"); rc=$?
expect_eq "show exit" "$rc" 0
expect_eq "BOD first line" "$(echo "$out" | sed -n 1p)" "後手の持駒：角"
expect_eq "BOD files" "$(echo "$out" | sed -n 2p)" "  ９ ８ ７ ６ ５ ４ ３ ２ １"
expect_eq "BOD rank 1" "$(echo "$out" | sed -n 4p)" "|v香v桂v銀v金v玉v金 ・v桂v香|一"
expect_eq "BOD rank 2" "$(echo "$out" | sed -n 5p)" "| ・v飛 ・ ・ ・ ・ ・v銀 ・|二"
expect_eq "BOD rank 9" "$(echo "$out" | sed -n 12p)" "| 香 桂 銀 金 玉 金 銀 桂 香|九"
expect_eq "BOD sente hand" "$(echo "$out" | sed -n 14p)" "先手の持駒：角"
expect_eq "BOD last move" "$(echo "$out" | sed -n 15p)" "手数＝4  ☖同　銀(31)  まで"
case "$out" in *$'\033'*) fail "escape codes in piped output";; esac

# the side to move is written when gote moves
out=$("$KIFU" show "$tmp/g.sfen" --ply 3 --format bod)
expect_eq "BOD gote to move" "$(echo "$out" | tail -n 1)" "後手番"
expect_has "BOD promoted bishop" "$out" "| ・v飛 ・ ・ ・ ・ ・ 馬 ・|二"

# hands with counts in KIF order, kanji numbers; a start that is no preset
echo '4k4/9/9/9/9/9/9/9/4K4 w 2R2B4G4S4N4L13P5p 1' >"$tmp/hands.sfen"
out=$("$KIFU" show "$tmp/hands.sfen")
expect_eq "hands sente" "$(echo "$out" | sed -n 14p)" "先手の持駒：飛二　角二　金四　銀四　桂四　香四　歩十三"
expect_eq "hands gote" "$(echo "$out" | sed -n 1p)" "後手の持駒：歩五"
expect_eq "hands no moves line" "$(echo "$out" | sed -n 15p)" "後手番"

# --format sfen at plies and paths
expect_eq "sfen ply 0" "$("$KIFU" show "$tmp/g.sfen" --ply 0 --format sfen)" "$START"
expect_eq "sfen ply 1" "$("$KIFU" show "$tmp/g.sfen" --ply 1 --format sfen)" \
  'lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2'
expect_eq "sfen path 2" "$("$KIFU" show "$tmp/g.sfen" --path 2 --format sfen)" \
  'lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3'
expect_eq "sfen path /0/0" "$("$KIFU" show "$tmp/g.sfen" --path /0/0 --format sfen)" \
  'lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3'

# --flip: sente's hand on top, files 1..9
out=$("$KIFU" show "$tmp/g.sfen" --flip --format bod)
expect_eq "flip first line" "$(echo "$out" | sed -n 1p)" "先手の持駒：角"
expect_eq "flip files" "$(echo "$out" | sed -n 2p)" "  １ ２ ３ ４ ５ ６ ７ ８ ９"
expect_eq "flip rank 9 on top" "$(echo "$out" | sed -n 4p)" "| 香 桂 銀 金 玉 金 銀 桂 香|九"

# text form piped: frame, move list, no colour
out=$("$KIFU" show "$tmp/g.sfen" --ply 2 --format text)
expect_has "text frame" "$out" "┌───"
expect_has "text cursor" "$out" ">    2 ☖３四歩(33)"
expect_has "text next" "$out" "     3 ☗２二角成(88)"
case "$out" in *$'\033'*) fail "escape codes in piped text";; esac

# a sfenlist record reads the same
"$KIFU" show "$tmp/g.sfen" --ply 0 --format sfen >"$tmp/l.sfenlist"
for p in 1 2 3 4; do "$KIFU" show "$tmp/g.sfen" --ply $p --format sfen >>"$tmp/l.sfenlist"; done
expect_eq "sfenlist same position" "$("$KIFU" show "$tmp/l.sfenlist" --format sfen)" \
  "$("$KIFU" show "$tmp/g.sfen" --format sfen)"
expect_eq "sfenlist from stdin" "$("$KIFU" show - --format bod <"$tmp/l.sfenlist")" \
  "$("$KIFU" show "$tmp/g.sfen" --format bod)"

# forks: a JKF record with an alternative second move; --path picks it
cat >"$tmp/fork.jkf" <<'JKF'
{"header":{},"moves":[{},
 {"move":{"from":{"x":7,"y":7},"to":{"x":7,"y":6},"color":0,"piece":"FU"}},
 {"move":{"from":{"x":3,"y":3},"to":{"x":3,"y":4},"color":1,"piece":"FU"},
  "forks":[[{"move":{"from":{"x":8,"y":3},"to":{"x":8,"y":4},"color":1,"piece":"FU"}},{"move":{"from":{"x":2,"y":7},"to":{"x":2,"y":6},"color":0,"piece":"FU"}}]]},
 {"move":{"from":{"x":8,"y":8},"to":{"x":2,"y":2},"color":0,"piece":"KA","promote":true}}]}
JKF
if "$KIFU" show "$tmp/fork.jkf" >/dev/null 2>&1; then
  echo 'position startpos moves 7g7f 8c8d 2g2f' >"$tmp/alt.sfen"
  expect_eq "path into the fork" "$("$KIFU" show "$tmp/fork.jkf" --path 3,1 --format sfen)" \
    "$("$KIFU" show "$tmp/alt.sfen" --format sfen)"
  expect_eq "child-index path" "$("$KIFU" show "$tmp/fork.jkf" --path /0/1/0 --format sfen)" \
    "$("$KIFU" show "$tmp/alt.sfen" --format sfen)"
  expect_eq "main line" "$("$KIFU" show "$tmp/fork.jkf" --path 3,0 --format sfen)" \
    'lnsgkgsnl/1r5+B1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL w B 4'
  out=$("$KIFU" show "$tmp/fork.jkf" --path 2,1 --format text)
  expect_has "fork marked in the move list" "$out" ">    2 ☖８四歩(83) +"
else
  echo "note: no JKF reader in this build; fork paths not checked"
fi

# errors: exit codes and messages
"$KIFU" show "$tmp/none.sfen" >/dev/null 2>"$tmp/err"; rc=$?
expect_eq "missing file exit" "$rc" 3
expect_has "missing file message" "$(cat "$tmp/err")" "kifu: "
"$KIFU" show "$tmp/g.sfen" --ply 9 >/dev/null 2>&1; expect_eq "ply too far" "$?" 2
"$KIFU" show "$tmp/g.sfen" --ply x >/dev/null 2>&1; expect_eq "ply not a number" "$?" 2
"$KIFU" show "$tmp/g.sfen" --path 2,1 >/dev/null 2>&1; expect_eq "path without fork" "$?" 2
"$KIFU" show "$tmp/g.sfen" --format png >/dev/null 2>&1; expect_eq "bad format" "$?" 2
"$KIFU" show >/dev/null 2>&1; expect_eq "no file" "$?" 2
echo 'position startpos moves 7g7f 7g7e' >"$tmp/bad.sfen"
"$KIFU" show "$tmp/bad.sfen" >/dev/null 2>"$tmp/err"; rc=$?
expect_eq "illegal move exit" "$rc" 1
expect_has "illegal move position" "$(cat "$tmp/err")" "bad.sfen:1:30:"

# Handicap games keep the record's words for the sides (issue 26, seed 001): 上手/下手
# when it names them, 先手/後手 when it names those, 上手/下手 when it names neither; in
# the board's labels, BOD and the result line, and in KIF and KI2 written.
hc_body='手数----指手---------消費時間--
   1 ４二銀(31)
   2 ７六歩(77)
   3 投了'
printf '手合割：角落ち\n上手：羽生\n下手：藤井\n%s\n' "$hc_body" >"$tmp/hc_uwate.kifu"
printf '手合割：角落ち\n先手：A\n後手：B\n%s\n' "$hc_body" >"$tmp/hc_sente.kifu"
printf '手合割：角落ち\n%s\n' "$hc_body" >"$tmp/hc_none.kifu"
for c in uwate:上手:下手 sente:後手:先手 none:上手:下手; do
  f=${c%%:*} w=${c#*:}; w=${w%%:*} b=${c##*:}
  out=$("$KIFU" show "$tmp/hc_$f.kifu" --format text)
  expect_has "handicap $f: top hand" "$out" "☖${w} 持駒"
  expect_has "handicap $f: bottom hand" "$out" "☗${b} 持駒"
  expect_has "handicap $f: result" "$out" "まで2手で${b}の勝ち"
  out=$("$KIFU" show "$tmp/hc_$f.kifu" --format bod)
  expect_has "handicap $f: BOD hand" "$out" "${w}の持駒"
  expect_has "handicap $f: BOD turn" "$out" "${w}番"
  for t in kifu ki2u; do
    out=$("$KIFU" convert "$tmp/hc_$f.kifu" -t $t -o -)
    expect_has "handicap $f: $t summary" "$out" "まで2手で${b}の勝ち"
  done
done
expect_has "handicap keys kept" "$("$KIFU" convert "$tmp/hc_uwate.kifu" -t kifu -o -)" "上手：羽生"

# A CSA handicap game names its sides by sign only (N+/N-): 下手/上手 in the result line
# too, as on its board and in its KIF.
printf 'V2.2\nN+藤井\nN-羽生\nPI22KA\n-\n-3142GI\n+7776FU\n%%TORYO\n' >"$tmp/hc.csa"
out=$("$KIFU" show "$tmp/hc.csa" --format text)
expect_has "CSA handicap: bottom hand" "$out" "☗下手 持駒"
expect_has "CSA handicap: result" "$out" "まで2手で下手の勝ち"
expect_eq "CSA handicap: KIF summary" "$("$KIFU" convert "$tmp/hc.csa" -t kifu -o - | tail -n 1)" \
  "まで2手で下手の勝ち"

# show's result line is the HTML page's (issue 26, seed 002): the same winner for every
# ending; CSA's %ILLEGAL_MOVE is the side to move's foul.
for sp in TORYO ILLEGAL_MOVE +ILLEGAL_ACTION -ILLEGAL_ACTION KACHI TIME_UP SENNICHITE; do
  printf 'V2.2\nPI\n+\n+7776FU\n%%%s\n' "$sp" >"$tmp/end.csa"
  "$KIFU" html "$tmp/end.csa" -o "$tmp/end.html"
  page=$(grep -o '"result":"[^"]*"' "$tmp/end.html" | sed 's/^"result":"//; s/"$//')
  line=$("$KIFU" show "$tmp/end.csa" --format text | grep 'まで' | sed 's/^ *//')
  expect_eq "$sp: show's result is the page's" "$line" "$page"
  [ "$sp" = ILLEGAL_MOVE ] && expect_eq "ILLEGAL_MOVE: the side to move fouled" "$line" \
    "まで1手で先手の勝ち (後手の反則負け)"
done

# A line ending on a move kept as a foul (sente's 二歩, then 反則負け): its mover lost, in
# show, the KIF and KI2 まで lines and the index alike.
printf '手合割：平手\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ７五歩(76)\n   4 ３五歩(34)\n   5 ７四歩(75)\n   6 ３六歩(35)\n   7 ７三歩成(74)\n   8 同　桂(81)\n   9 ２五歩打\n  10 反則負け\n' >"$tmp/nifu.kif"
expect_has "kept foul: show" "$("$KIFU" show "$tmp/nifu.kif" --format text)" \
  "まで9手で後手の勝ち (先手の反則負け：二歩)"
for t in kifu ki2u; do
  expect_eq "kept foul: $t summary" "$("$KIFU" convert "$tmp/nifu.kif" -t $t -o - | tail -n 1)" \
    "まで9手で先手の反則負け"
done
"$KIFU" index build "$tmp/nifu.kif" -o "$tmp/nifu.kdb" 2>/dev/null
expect_has "kept foul: the index scores gote's win" "$("$KIFU" explore "$tmp/nifu.kdb" --json)" \
  '"sente_wins":0,"gote_wins":1'

# A SFEN's move number goes on (issue 26, seed 004): the next SFEN, BOD's 手数 and the
# board's N手目 count from it.
echo 'position sfen lnsgkg1nl/1r5s1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL b Bb 5 moves B*5e' \
  >"$tmp/five.sfen"
expect_eq "sfen number goes on" "$("$KIFU" show "$tmp/five.sfen" --format sfen)" \
  "lnsgkg1nl/1r5s1/pppppp1pp/6p2/4B4/2P6/PP1PPPPPP/7R1/LNSGKGSNL w b 6"
expect_has "BOD 手数 goes on" "$("$KIFU" show "$tmp/five.sfen" --format bod)" "手数＝5  ☗５五角打  まで"
expect_has "text N手目 goes on" "$("$KIFU" show "$tmp/five.sfen" --format text)" "5手目 ☗５五角打"
expect_eq "sfen at the start" "$("$KIFU" show "$tmp/five.sfen" --ply 0 --format sfen)" \
  "lnsgkg1nl/1r5s1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL b Bb 5"

# kifu moves
out=$("$KIFU" moves startpos); rc=$?
expect_eq "moves exit" "$rc" 0
expect_eq "moves count" "$(echo "$out" | wc -l)" 30
expect_has "moves 7g7f" "$out" "7g7f ☗７六歩(77)"
expect_eq "moves sfen in pieces" "$("$KIFU" moves $START | wc -l)" 30
out=$("$KIFU" moves position startpos moves 7g7f 3c3d)
expect_has "moves after moves" "$out" "8h2b+ ☗２二角成(88)"
expect_has "moves after moves" "$out" "8h2b ☗２二角不成(88)"
expect_eq "moves most" "$("$KIFU" moves 'R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1' | wc -l)" 593
"$KIFU" moves 'lnsgkgsnl/9 b - 1' >/dev/null 2>&1; expect_eq "moves bad sfen" "$?" 1
"$KIFU" moves --help >/dev/null; expect_eq "moves --help" "$?" 0
"$KIFU" moves >/dev/null 2>&1; expect_eq "moves no arg" "$?" 2

# A record that starts at move 6 (`... w - 6`): the move list and the BOD count from
# there, and the number goes through KIF's 手数＝ and posjson's ply back to the SFEN.
six='lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 6'
echo "position sfen $six moves 3c3d 8h2b+" >"$tmp/six.sfen"
out=$("$KIFU" show "$tmp/six.sfen" --ply 1 --format text)
case "$out" in *">    6 ☖３四歩(33)"*"     7 ☗２二角成(88)"*) ;; *) fail "show from move 6: move list $out";; esac
"$KIFU" show "$tmp/six.sfen" --ply 2 --format bod | grep -q "^手数＝7  ☗２二角成(88)  まで" || fail "show from move 6: bod"
for t in kif ki2 posjson; do
  "$KIFU" convert -t $t -o "$tmp/six.$t" "$tmp/six.sfen" 2>/dev/null || fail "six.sfen -> $t"
  back=$("$KIFU" convert -t sfen -o - "$tmp/six.$t" 2>/dev/null)
  expect_eq "six.sfen -> $t -> sfen" "$back" "position sfen $six moves 3c3d 8h2b+"
done

[ $fails -eq 0 ] && echo "show.sh: all passed" || echo "show.sh: $fails failed"
[ $fails -eq 0 ]
