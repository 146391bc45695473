#!/usr/bin/env bash
# replay_long.sh: `kifu replay` and `kifu show` on a record with a header and long
# comments, in tmux at 80 and 120 columns: the players, event, date and result are shown;
# a comment far longer than the screen is wrapped to the width and scrolled with d/u, and
# every part of it appears once, in order, none cut or overwritten; the move list takes
# the height the comments leave. `show` prints comments whole (no fixed buffer).
# argv: kifu binary, shared dir (unused). Exit 77 when tmux or python3 is missing.
set -u
source "$(dirname "$0")/tmux_lib.bash"
command -v python3 >/dev/null || { echo "skip: python3 is not installed"; exit 77; }
screen() { T capture-pane -p -t t 2>/dev/null; }
keys() { T send-keys -t t "$@"; }

# The record: a 12-move game with a header, a short comment at the start and, at ply 3, a
# comment of about 3,000 display columns (kanji, kana and ASCII mixed) and a second one.
python3 - "$tmp" <<'PY'
import json, sys
d = sys.argv[1]
long1 = "".join("これは長い解説の第%d文です。The engine says +%d here; 次の一手は難しい。" % (i, i * 10)
                for i in range(1, 40))
seq = [((7, 7), (7, 6), "FU"), ((3, 3), (3, 4), "FU"), ((2, 7), (2, 6), "FU"),
       ((8, 3), (8, 4), "FU"), ((2, 6), (2, 5), "FU"), ((8, 4), (8, 5), "FU"),
       ((6, 9), (7, 8), "KI"), ((4, 1), (3, 2), "KI"), ((2, 5), (2, 4), "FU"),
       ((2, 3), (2, 4), "FU"), ((2, 8), (2, 4), "HI"), (None, (2, 3), "FU")]
moves = [{"comments": ["対局開始。短いコメント。"]}]
for i, (f, t, p) in enumerate(seq):
    m = {"color": i % 2, "to": {"x": t[0], "y": t[1]}, "piece": p}
    if f:
        m["from"] = {"x": f[0], "y": f[1]}
    e = {"move": m}
    if i == 2:
        e["comments"] = [long1, "二つ目のコメント"]
    moves.append(e)
moves.append({"special": "TORYO"})
doc = {"header": {"先手": "羽生善治", "後手": "藤井聡太", "棋戦": "第1期 テスト棋戦 決勝",
                  "開始日時": "2026/11/25 10:00"}, "moves": moves}
json.dump(doc, open(d + "/long.jkf", "w"), ensure_ascii=False)
open(d + "/expected.txt", "w").write(long1 + "二つ目のコメント")
PY

# check_notes COLS FILE...: the screens captured while scrolling (each ends with the
# status "d u: scroll (lines A-B of N)") put back together give both comments exactly,
# and no line is wider than the terminal.
check_notes() {
  python3 - "$tmp/expected.txt" "$@" <<'PY'
import re, sys
expected = open(sys.argv[1]).read()
cols = int(sys.argv[2])
def width(s):
    return sum(2 if ord(c) >= 0x1000 else 1 for c in s)
notes = {}
total = None
for path in sys.argv[3:]:
    rows = open(path).read().split("\n")
    while rows and rows[-1] == "":
        rows.pop()
    m = re.search(r"lines (\d+)-(\d+) of (\d+)", rows[-1])
    assert m, "no scroll status: " + rows[-1]
    a, b, total = int(m.group(1)), int(m.group(2)), int(m.group(3))
    part = rows[-1 - (b - a + 1):-1]
    for k, line in enumerate(part):
        assert width(line) <= cols, "line wider than %d: %r" % (cols, line)
        notes.setdefault(a + k, line)
        assert notes[a + k] == line, "line %d differs between screens" % (a + k)
assert sorted(notes) == list(range(1, total + 1)), "lines seen: %s of %d" % (sorted(notes), total)
text = ""
for i in range(1, total + 1):
    line = notes[i]
    assert line[:2] in ("* ", "  "), repr(line)
    text += line[2:]
# tmux drops the spaces at the end of a screen line: compare without spaces
text, expected = text.replace(" ", ""), expected.replace(" ", "")
assert text == expected, "comments differ:\n%s\n%s" % (text[:200], expected[:200])
PY
}

for cols in 80 120; do
  new_session 40 "cd '$tmp'; TERM=xterm-256color '$KIFU' replay --ply 3 long.jkf; echo EXIT=\$?; sleep 120" $cols
  wait_for "ply 3/13" || continue
  # the header and the result, right of the board
  wait_for "☗羽生善治  ☖藤井聡太" && wait_for "第1期 テスト棋戦 決勝" && wait_for "2026/11/25 10:00"
  wait_for "まで12手で後手の勝ち"
  # the long comment: scroll down to its end, capturing every screen on the way
  wait_for "d u: scroll (lines 1-"
  k=0
  screen >"$tmp/s$cols-$k.txt"
  until grep -Eq 'lines [0-9]+-([0-9]+) of \1\)' "$tmp/s$cols-$k.txt" || [ $k -ge 40 ]; do
    before=$(tail -n 1 "$tmp/s$cols-$k.txt")
    keys d
    for _ in $(seq 1 50); do [ "$(screen | tail -n 1)" != "$before" ] && break; sleep 0.1; done
    k=$((k + 1))
    screen >"$tmp/s$cols-$k.txt"
  done
  out=$(check_notes $cols "$tmp"/s$cols-*.txt 2>&1) || fail "comments at $cols columns: $out"
  # u scrolls back up to the first line
  for _ in $(seq 0 $k); do keys u; done
  wait_for "d u: scroll (lines 1-"
  wait_for "* これは長い解説の第1文です。"
  # at the start (a short comment), the list runs from the start to the ending
  keys Home
  wait_for "ply 0/13" && wait_for "* 対局開始。短いコメント。"
  s=$(screen)
  case "$s" in *"0 開始局面"*"13 投了"*) ;; *) fail "move list at $cols columns does not use the height"; screen | sed 's/^/    | /';; esac
  keys q; wait_for "EXIT=0"
done

# a short terminal: the list shrinks, the comment still scrolls
new_session 24 "cd '$tmp'; TERM=xterm-256color '$KIFU' replay --ply 3 long.jkf; echo EXIT=\$?; sleep 120" 80
wait_for "ply 3/13" && wait_for "d u: scroll (lines 1-"
keys q; wait_for "EXIT=0"

# show prints every comment whole, however long (piped: not wrapped)
"$KIFU" show --ply 3 --format text "$tmp/long.jkf" >"$tmp/show.txt" 2>&1 || fail "show exit $?"
grep -qF -- "* $(head -c 100000 "$tmp/expected.txt" | sed 's/二つ目のコメント$//')" "$tmp/show.txt" ||
  fail "show cut the long comment"
grep -q "まで12手で後手の勝ち$" "$tmp/show.txt" && grep -q "☗羽生善治  ☖藤井聡太" "$tmp/show.txt" ||
  fail "show names the players and the result"

[ $fails -eq 0 ] && echo "replay_long.sh: all passed" || echo "replay_long.sh: $fails failed"
[ $fails -eq 0 ]
