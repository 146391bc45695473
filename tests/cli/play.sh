#!/usr/bin/env bash
# play.sh: `kifu play` in a real pseudo-terminal (tmux, private socket, fixed size): a short
# game in every notation with a promotion prompt, an illegal move, undo, save, reload
# equal; quit asking to save; mate, resignation and repetition ending the game; garbage
# input and resize; piped input and end of input.
# argv: kifu binary, shared dir (unused). Exit 77 when tmux is missing.
set -u
source "$(dirname "$0")/tmux_lib.bash"
# the whole scrollback, joined lines: the game scrolls past the window
screen() { T capture-pane -p -J -S -200 -t t 2>/dev/null | grep -v '^$'; }
# type LINE: send a line and Enter.
type_line() { T send-keys -t t -l "$1"; T send-keys -t t Enter; }
start() {
  new_session 50 "cd '$tmp'; $1; echo EXIT=\$?; sleep 120"
  T set-option -t t history-limit 5000 >/dev/null
}

# 1. A short game: USI, KIF, KI2, "77 76" forms; promotion asked; illegal input; undo; save.
start "'$KIFU' play"
wait_for "☗先手 1手目>"
type_line "7g7f";        wait_for "☖後手 2手目>"
type_line "３四歩";      wait_for "2 ☖３四歩(33)" && wait_for "☗先手 3手目>"
type_line "88 22";       wait_for "<<成りますか？>>(naru, narazu) promote? [y/n]"
type_line "maybe";       wait_for "answer naru or y (成), narazu or n (不成)"
type_line "y";           wait_for "3 ☗２二角成(88)" && wait_for "☖後手 4手目>"
type_line "7a7b xyz";    wait_for "not a move"
type_line "５五角打";    wait_for "illegal: no 角 in hand"
type_line "同銀";        wait_for "4 ☖同　銀(31)" && wait_for "☗先手 5手目>"
type_line "00 55 kaku";  wait_for "5 ☗５五角打" && wait_for "☖後手 6手目>"
type_line "undo";        wait_for "undone: ☗５五角打" && wait_for "☗先手 5手目>"
type_line "B*4e";        wait_for "5 ☗４五角打"
type_line "undo";        wait_for "undone: ☗４五角打"
type_line "6i7h";        wait_for "5 ☗７八金(69)"
type_line "undo";        wait_for "undone: ☗７八金(69)"
type_line "７八金";      wait_for "5 ☗７八金(69)"
type_line "flip";        wait_for "１ ２ ３ ４ ５ ６ ７ ８ ９"
type_line "save game.sfenlist"; wait_for "saved game.sfenlist"
for ext in kifu kif ki2u jkf csa sfen; do
  type_line "save game.$ext"; wait_for "saved game.$ext"
done
type_line "save game.xyz";      wait_for "cannot tell the format"
type_line "quit";        wait_for "EXIT=0"
# reloaded equal: the saved positions are those of the same moves typed as USI
echo 'position startpos moves 7g7f 3c3d 8h2b+ 3a2b 6i7h' >"$tmp/want.sfen"
want=""
for p in 0 1 2 3 4 5; do want="$want$("$KIFU" show "$tmp/want.sfen" --ply $p --format sfen)
"; done
expect_eq "saved sfenlist" "$(cat "$tmp/game.sfenlist" 2>/dev/null)" "${want%
}"
# every format saved reads back to the same positions at every ply
for ext in kifu kif ki2u jkf csa sfen; do
  got=""
  for p in 0 1 2 3 4 5; do got="$got$("$KIFU" show "$tmp/game.$ext" --ply $p --format sfen 2>&1)
"; done
  expect_eq "saved game.$ext read back" "$got" "$want"
done
expect_eq "reloaded end position" "$("$KIFU" show "$tmp/game.sfenlist" --format sfen 2>&1)" \
  "$("$KIFU" show "$tmp/want.sfen" --format sfen)"

# 2. Continue the saved game; quit FILE saves the new moves there.
start "'$KIFU' play --from game.sfenlist --ply 5"
wait_for "☖後手 6手目>"
type_line "8c8d"; wait_for "6 ☖８四歩(83)"
T resize-window -t t -x 60 -y 30; sleep 0.2
T send-keys -t t -H ff fe 1b 5b 41 00 07; T send-keys -t t Enter
wait_for "not a move"
T resize-window -t t -x 100 -y 50
type_line "quit more.sfen"; wait_for "saved more.sfen" && wait_for "EXIT=0"
expect_eq "continued game" "$(cat "$tmp/more.sfen" 2>/dev/null)" \
  "position startpos moves 7g7f 3c3d 8h2b+ 3a2b 6i7h 8c8d"

# 3. Mate ends the game; undo takes the ending and then the move back.
start "'$KIFU' play --sfen '4k4/9/4P4/9/9/9/9/9/4K4 b G 1' -o mate.sfen"
wait_for "☗先手 1手目>"
type_line "５二金";  wait_for "詰み: ☗先手 wins" && wait_for "saved mate.sfen" && wait_for "game over>"
expect_eq "mate saved" "$(cat "$tmp/mate.sfen" 2>/dev/null)" \
  "position sfen 4k4/9/4P4/9/9/9/9/9/4K4 b G 1 moves G*5b"
type_line "5i5h";    wait_for "the game is over"
type_line "undo";    wait_for "undone: 詰み"
type_line "undo";    wait_for "undone: ☗５二金打" && wait_for "☗先手 1手目>"
type_line "resign";  wait_for "投了: ☖後手 wins"
type_line "quit";    wait_for "EXIT=0"
expect_eq "resigned at the start, saved again" "$(cat "$tmp/mate.sfen" 2>/dev/null)" \
  "position sfen 4k4/9/4P4/9/9/9/9/9/4K4 b G 1"

# 4. Piped input: repetition ends the game; end of input saves with -o and exits 0.
printf '2h3h\n8b7b\n3h2h\n7b8b\n2h3h\n8b7b\n3h2h\n7b8b\n2h3h\n8b7b\n3h2h\n7b8b\n7g7f\n' |
  timeout 30 "$KIFU" play -o "$tmp/rep.sfenlist" >"$tmp/rep.out" 2>&1; rc=$?
expect_eq "repetition exit" "$rc" 0
grep -q "千日手" "$tmp/rep.out" || fail "no 千日手 in piped game"
grep -q "the game is over" "$tmp/rep.out" || fail "a move after 千日手 was not refused"
expect_eq "repetition saved lines" "$(wc -l <"$tmp/rep.sfenlist" 2>/dev/null)" 13

# 5. End of input in the middle of a promotion question; no -o: exits 0 and says so.
printf '7g7f\n3c3d\n88 22\n' | timeout 30 "$KIFU" play >"$tmp/eof.out" 2>"$tmp/eof.err"; rc=$?
expect_eq "eof exit" "$rc" 0
grep -q "promote" "$tmp/eof.out" || fail "no promotion question before end of input"
grep -q "not kept" "$tmp/eof.err" || fail "no message about unsaved moves"
timeout 30 "$KIFU" play </dev/null >/dev/null 2>&1; expect_eq "empty input exit" "$?" 0
head -c 4000 /dev/urandom | timeout 30 "$KIFU" play >/dev/null 2>&1; rc=$?
expect_eq "random input exit" "$rc" 0
printf 'declare\nquit\n' | timeout 30 "$KIFU" play | grep -q "does not hold" ||
  fail "declaration in the start position accepted"
# 入玉宣言: king in the camp, 10 pieces there, 25 + 1 + 2 in hand = 28 points: it holds;
# with one pawn less (27 points) it does not
printf 'declare\n' | timeout 30 "$KIFU" play --sfen 'RRBBGGGGS/4K3S/9/9/9/9/9/9/4k4 b 2P 1' \
  -o "$tmp/kachi.jkf" 2>/dev/null | grep -q "入玉宣言: ☗先手 wins" || fail "declaration refused"
grep -q '"KACHI"' "$tmp/kachi.jkf" 2>/dev/null || fail "no KACHI ending saved"
printf 'declare\n' | timeout 30 "$KIFU" play --sfen 'RRBBGGGGS/4K3S/9/9/9/9/9/9/4k4 b P 1' |
  grep -q "does not hold" || fail "27 points accepted for sente"

# 6. Command-line errors
"$KIFU" play --help | grep -q "00 55 kaku" || fail "play --help"
"$KIFU" play --sfen 'bad sfen' </dev/null >/dev/null 2>&1; expect_eq "bad --sfen" "$?" 1
"$KIFU" play --from "$tmp/none.sfen" </dev/null >/dev/null 2>&1; expect_eq "missing --from" "$?" 3
"$KIFU" play -o out.unknown </dev/null >/dev/null 2>&1; expect_eq "bad -o" "$?" 2
"$KIFU" play --ply 3 </dev/null >/dev/null 2>&1; expect_eq "--ply without --from" "$?" 2
"$KIFU" play --replay x.sfenlist --flip </dev/null >/dev/null 2>&1; expect_eq "--replay with more" "$?" 2
"$KIFU" play --readsfen "$tmp/none.sfen" </dev/null >/dev/null 2>&1; expect_eq "missing --readsfen" "$?" 3
"$KIFU" play --readsfen "$tmp/doc/five.sfen" --sfen startpos </dev/null >/dev/null 2>&1
expect_eq "--readsfen with --sfen" "$?" 2

# 7. The session of the C program's document (seed 004, 2.7), typed as it shows it: moves
# as "77 76 fu", the promotion asked <<成りますか？>>(naru, narazu), revert, quit saving to
# ./kifu.sfenlist (its 2.6 sample: six positions numbered 1 to 6); quit again never
# overwrites it (kifu-2.sfenlist, said); --readsfen continues a one-line SFEN with its move
# number; --replay steps through the list with f, b, q.
mkdir -p "$tmp/doc"
start "cd doc && '$KIFU' play"
wait_for "☗先手 1手目>"
type_line "77 76 fu";   wait_for "☖後手 2手目>"
type_line "33 34 fu";   wait_for "☗先手 3手目>"
type_line "88 22 kaku"; wait_for "<<成りますか？>>(naru, narazu)"
type_line "naru";       wait_for "3 ☗２二角成(88)"
type_line "revert";     wait_for "undone: ☗２二角成(88)" && wait_for "☗先手 3手目>"
type_line "88 22 kaku"; wait_for "<<成りますか？>>(naru, narazu)"
type_line "narazu";     wait_for "3 ☗２二角不成(88)"
type_line "31 22 gin";  wait_for "4 ☖同　銀(31)"
type_line "00 55 kaku"; wait_for "5 ☗５五角打"
type_line "quit";       wait_for "saved ./kifu.sfenlist" && wait_for "EXIT=0"
expect_eq "document sfenlist" "$(cat "$tmp/doc/kifu.sfenlist" 2>/dev/null)" \
"lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1
lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2
lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3
lnsgkgsnl/1r5B1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL w B 4
lnsgkg1nl/1r5s1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL b Bb 5
lnsgkg1nl/1r5s1/pppppp1pp/6p2/4B4/2P6/PP1PPPPPP/7R1/LNSGKGSNL w b 6"
# a second game: kifu.sfenlist stays, the next free name is taken and named
printf '7g7f\nquit\n' | (cd "$tmp/doc" && timeout 30 "$KIFU" play) >"$tmp/doc2.out" 2>&1
grep -q "kifu.sfenlist exists: saving to ./kifu-2.sfenlist" "$tmp/doc2.out" ||
  fail "second quit did not name the free name"
expect_eq "first list kept" "$(wc -l <"$tmp/doc/kifu.sfenlist")" 6
expect_eq "second list" "$(wc -l <"$tmp/doc/kifu-2.sfenlist" 2>/dev/null)" 2
# --readsfen: the list's fifth position as a one-line SFEN; the game goes on at move 5
sed -n 5p "$tmp/doc/kifu.sfenlist" >"$tmp/doc/five.sfen"
start "cd doc && '$KIFU' play --readsfen five.sfen -o cont.sfenlist"
wait_for "☗先手 5手目>"
type_line "00 55 kaku"; wait_for "5 ☗５五角打" && wait_for "☖後手 6手目>"
type_line "quit";       wait_for "saved cont.sfenlist" && wait_for "EXIT=0"
expect_eq "continued list numbered on" "$(cat "$tmp/doc/cont.sfenlist" 2>/dev/null)" \
  "$(sed -n 5,6p "$tmp/doc/kifu.sfenlist")"
expect_eq "show keeps the number" "$("$KIFU" show "$tmp/doc/five.sfen" --format sfen)" \
  "$(sed -n 5p "$tmp/doc/kifu.sfenlist")"
# --replay: f forward, b back, q quits
start "cd doc && '$KIFU' play --replay kifu.sfenlist"
# the status line of the pane as it is now (earlier frames stay in the scrollback)
on_pane() {
  local i=0
  while [ $i -lt 200 ]; do
    T capture-pane -p -t t 2>/dev/null | grep -q "$1" && return 0
    sleep 0.1; i=$((i + 1))
  done
  fail "replay: no '$1' on the pane"
}
on_pane "kifu.sfenlist  ply 0/5"
T send-keys -t t f; on_pane "ply 1/5"
T send-keys -t t f; on_pane "ply 2/5"
T send-keys -t t b; on_pane "ply 1/5"
T send-keys -t t q; wait_for "EXIT=0"

[ $fails -eq 0 ] && echo "play.sh: all passed" || echo "play.sh: $fails failed"
[ $fails -eq 0 ]
