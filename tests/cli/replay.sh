#!/usr/bin/env bash
# replay.sh: `kifu replay` driven in a real pseudo-terminal (tmux, private socket, fixed
# size): stepping forward and back, through a fork and back, go to ply, search, comments,
# garbage keys, resize, quitting; the terminal is restored after q, ^D and SIGTERM, and
# end of input on a pipe ends it.
# argv: kifu binary, shared dir (unused). Exit 77 when tmux is missing.
set -u
source "$(dirname "$0")/tmux_lib.bash"
screen() { T capture-pane -p -t t 2>/dev/null; }
keys() { T send-keys -t t "$@"; }
# start CMD: run CMD in a fresh 100x40 session; after it ends the pane shows its exit
# code and whether the terminal is back in canonical mode with echo.
start() {
  new_session 40 "cd '$tmp'; $1; echo EXIT=\$?; stty -a | tr ' ;' '\n\n' | grep -x -e '-*icanon' -e '-*echo' | tr '\n' ' ' | sed 's/^/TTY=/'; echo; sleep 120"
}

# A record with a fork at ply 2, comments, a time and an ending. JKF needs the JKF
# reader; a sfenlist record (no fork) is the fallback until it is there.
cat >"$tmp/fork.jkf" <<'JKF'
{"header":{},"moves":[{"comments":["開始局面のコメント"]},
 {"move":{"from":{"x":7,"y":7},"to":{"x":7,"y":6},"color":0,"piece":"FU"},"time":{"now":{"m":0,"s":5},"total":{"h":0,"m":0,"s":5}}},
 {"move":{"from":{"x":3,"y":3},"to":{"x":3,"y":4},"color":1,"piece":"FU"},
  "forks":[[{"move":{"from":{"x":8,"y":3},"to":{"x":8,"y":4},"color":1,"piece":"FU"}},{"move":{"from":{"x":2,"y":7},"to":{"x":2,"y":6},"color":0,"piece":"FU"}}]]},
 {"move":{"from":{"x":8,"y":8},"to":{"x":2,"y":2},"color":0,"piece":"KA","promote":true},"comments":["角交換"]},
 {"move":{"from":{"x":3,"y":1},"to":{"x":2,"y":2},"color":1,"piece":"GI","same":true}},
 {"special":"TORYO"}]}
JKF
echo 'position startpos moves 7g7f 3c3d 8h2b+ 3a2b' >"$tmp/line.sfen"
"$KIFU" show "$tmp/line.sfen" --ply 0 --format sfen >"$tmp/line.sfenlist"
for p in 1 2 3 4; do "$KIFU" show "$tmp/line.sfen" --ply $p --format sfen >>"$tmp/line.sfenlist"; done

if "$KIFU" show "$tmp/fork.jkf" --format sfen >/dev/null 2>&1; then
  start "TERM=xterm-256color '$KIFU' replay fork.jkf"
  wait_for "ply 0/5" && wait_for "開始局面のコメント"
  keys Right;   wait_for "ply 1/5" && wait_for "1手目 ☗７六歩(77)" && wait_for "time 0:05 / 0:00:05"
  wait_for "next move (f, then [ ]): [☖３四歩(33)] ☖８四歩(83)"
  keys f;       wait_for "ply 2/5" && wait_for "fork 1/2" && wait_for "[☖３四歩(33)] ☖８四歩(83)"
  keys ']';     wait_for "ply 2/3  path 2,1  fork 2/2" && wait_for "2手目 ☖８四歩(83)"
  keys f;       wait_for "ply 3/3  path 3,1" && wait_for "3手目 ☗２六歩(27)"
  keys f;       wait_for "end of the line"
  keys b b;     wait_for "ply 1/3"
  keys f;       wait_for "ply 2/3  path 2,1"    # back out of the fork and in again
  keys '[';     wait_for "ply 2/5  path 2  fork 1/2"
  keys f;       wait_for "3手目 ☗２二角成(88)" && wait_for "* 角交換"
  keys g 5 Enter; wait_for "ply 5/5" && wait_for "4手目 ☖同　銀(31)  投了"
  keys Home;    wait_for "ply 0/5"
  keys / 同銀 Enter; wait_for "ply 4/5" && wait_for "found '同銀' at ply 4"
  keys End;     wait_for "ply 5/5"
  keys Left;    wait_for "ply 4/5"
  keys g 3,1 Enter; wait_for "ply 3/3  path 3,1"
  keys g /0/0/0 Enter; wait_for "ply 3/5  path 3"
  # garbage: unknown letters, escape sequences (ctrl-right counts as right), invalid
  # UTF-8, control bytes, F1 and an unknown CSI key
  keys x;       wait_for "unknown key"
  T send-keys -t t -H 1b 5b 31 3b 35 43 ff fe 00 07 1b 5b 39 39 7e 1b 4f 50
  wait_for "ply 4/5"
  keys g abc Enter; wait_for "bad ply or path"
  keys g Escape Right; wait_for "ply 5/5"     # Esc cancels; the next key still counts
  # resize: the screen is drawn again at the new size, keys still work
  T resize-window -t t -x 50 -y 18
  keys Left;    wait_for "ply 4/5"
  T resize-window -t t -x 100 -y 40
  keys Left;    wait_for "ply 3/5" && wait_for "3手目 ☗２二角成(88)"
  keys Right;   wait_for "ply 4/5" && wait_for "4手目 ☖同　銀(31)"
  keys r;       wait_for "１ ２ ３ ４ ５ ６ ７ ８ ９"    # flipped
  keys '?';     wait_for "g N: go to ply or path"
  keys q;       wait_for "EXIT=0" && wait_for "TTY=icanon echo"
else
  echo "note: no JKF reader in this build; the fork steps run on a sfenlist without forks"
fi

# a sfenlist record steps the same way
start "TERM=xterm-256color '$KIFU' replay line.sfenlist"
wait_for "ply 0/4"
keys Right Right Right; wait_for "ply 3/4" && wait_for "3手目 ☗２二角成(88)"
keys ']';    wait_for "no fork at this ply"
keys Left;   wait_for "ply 2/4" && wait_for "2手目 ☖３四歩(33)"
keys PageDown; wait_for "ply 4/4"
keys PageUp; wait_for "ply 0/4"
keys C-d;    wait_for "EXIT=0" && wait_for "TTY=icanon echo"

# SIGTERM restores the terminal too
start "TERM=xterm-256color '$KIFU' replay line.sfenlist"
wait_for "ply 0/4"
shpid=$(T display-message -p -t t '#{pane_pid}')
kpid=$(pgrep -P "$shpid" | head -n 1)
if [ -n "$kpid" ]; then kill -TERM "$kpid"; wait_for "EXIT=143" && wait_for "TTY=icanon echo"
else fail "could not find the replay process"; fi

# not a terminal: keys from a pipe, end of input ends it (never waits)
out=$(printf 'ffbq' | timeout 20 "$KIFU" replay "$tmp/line.sfenlist"); rc=$?
[ $rc -eq 0 ] || fail "piped replay exit $rc"
case "$out" in *"ply 1/4"*) ;; *) fail "piped replay did not step";; esac
timeout 20 "$KIFU" replay "$tmp/line.sfenlist" </dev/null >/dev/null; rc=$?
[ $rc -eq 0 ] || fail "replay at end of input: exit $rc"
head -c 3000 /dev/urandom | timeout 20 "$KIFU" replay "$tmp/line.sfenlist" >/dev/null; rc=$?
[ $rc -eq 0 ] || fail "replay on random bytes: exit $rc"
# a record that starts at move 6 (seeds/004's SFEN `... w - 6`) is numbered from there,
# as show and play number it: the title, the move list and the diagram's N手目
echo 'position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 6 moves 3c3d 8h2b+' >"$tmp/six.sfen"
out=$(printf 'fq' | timeout 20 "$KIFU" replay "$tmp/six.sfen"); rc=$?
[ $rc -eq 0 ] || fail "replay from move 6: exit $rc"
case "$out" in *"move 6/7 (ply 1)"*) ;; *) fail "replay from move 6: no 'move 6/7 (ply 1)' title";; esac
case "$out" in *"6手目 ☖３四歩(33)"*) ;; *) fail "replay from move 6: the diagram does not say 6手目";; esac
case "$out" in *">    6 ☖３四歩(33)"*) ;; *) fail "replay from move 6: the move list is not numbered from 6";; esac
case "$out" in *"    1 ☖３四歩"*) fail "replay from move 6: a move numbered by ply";; esac
# control characters in comments, bookmarks and unknown endings never reach the terminal
cat >"$tmp/esc.jkf" <<'JKF'
{"header":{},"moves":[{"comments":["\u001b[2J\u001b]0;owned\u0007 text"]},
 {"move":{"from":{"x":7,"y":7},"to":{"x":7,"y":6},"color":0,"piece":"FU"},"comments":["a\u001b[31mb"]},
 {"special":"\u001b[5mWORD"}]}
JKF
if "$KIFU" show "$tmp/esc.jkf" >/dev/null 2>&1; then
  out=$(printf 'ffq' | timeout 20 "$KIFU" replay "$tmp/esc.jkf")
  case "$out" in *$'\033'*|*$'\007'*) fail "control characters from the record reached the screen";; esac
  case "$out" in *"?[2J"*) ;; *) fail "the comment with escapes was not shown made safe";; esac
fi
"$KIFU" replay --help | grep -q "go to ply" || fail "replay --help"
"$KIFU" replay "$tmp/none.jkf" 2>/dev/null; [ $? -eq 3 ] || fail "replay missing file exit"

[ $fails -eq 0 ] && echo "replay.sh: all passed" || echo "replay.sh: $fails failed"
[ $fails -eq 0 ]
