#!/usr/bin/env bash
# msf.sh: Xelto records (MSF) through the tool: validate (every problem with its file,
# line, column and JSON path; --no-transitions), convert (canonical MSF, a fixed point;
# --states JSON Lines; refusing shogi formats both ways), show (text, --ply, --path,
# --flip, svg), replay (piped and in a tmux pseudo-terminal), directory searches. A small
# record is written here; the format's own examples in ../shared are used when present.
# argv: kifu binary, shared dir.
set -u
source "$(dirname "$0")/tmux_lib.bash"
SHARED=${2:-}
screen() { T capture-pane -p -t t 2>/dev/null; }
expect_has() { # name text needle
  case "$2" in *"$3"*) ;; *) fail "$1: no '$3' in:"; echo "$2" | sed 's/^/    /';; esac
}
json_equal() { python3 -c 'import json,sys; sys.exit(0 if json.load(open(sys.argv[1])) == json.load(open(sys.argv[2])) else 1)' "$1" "$2"; }

# The start state, arxe's lis from (1,6) to (2,4) on the main line, and a variation on
# kit: vio from (5,6) to (4,4), with a comment and times.
row() { echo "[$1]"; }
START='["rav","nen","pin","mir","ket","lin","len"],["din","rez","kun","mat","lax","jil","tan"],[null,null,null,null,null,null,null],[null,null,null,"tem",null,null,null],[null,null,null,null,null,null,null],["pal","ful","mik","fav","zan","gil","ruj"]'
HANDS='"arxe":{"txifol":[],"evol":null},"sorn":{"txifol":[],"evol":null}'
cat >"$tmp/g.msf" <<MSF
{"aptex":{"est":"a test game","arxe":"A"},
"kit":{"fala":0,"slax":{"sast":"arxe",$HANDS,"ele":[$START,["dyu","lis","mel","ser","dia","vio","ral"]],"korol":[]},
 "mit":[{"fixt":{"pit":"daim"},"seslax":[
  {"ov":{"pit":"leim","luul":[{"i":{"alsia":5,"soom":6},"a":{"alsia":4,"soom":4}}]},
   "slax":{"sast":"sorn",$HANDS,"ele":[$START,["dyu","lis","mel","ser","dia",null,"ral"]],"korol":[]},"mit":[],"oprens":"the other way"}]}],
 "im":"2026-11-25T10:00:00+09:00"},
"fixt":{"pit":"daim"},
"seslax":[
 {"ov":{"pit":"leim","luul":[{"i":{"alsia":1,"soom":6},"a":{"alsia":2,"soom":4}}]},
  "slax":{"sast":"sorn",$HANDS,"ele":[$START,["dyu",null,"mel","ser","dia","vio","ral"]],"korol":[]},
  "mit":[],"im":"2026-11-25T10:01:00+09:00"}]}
MSF
# the 5th row of the main line's state put lis at (2,4): fix the template's empty row
python3 - "$tmp/g.msf" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["seslax"][0]["slax"]["ele"][4][2] = "lis"
d["kit"]["mit"][0]["seslax"][0]["slax"]["ele"][4][4] = "vio"
json.dump(d, open(sys.argv[1], "w"), ensure_ascii=False, indent=1)
PY

# ---- validate ----
out=$("$KIFU" validate "$tmp/g.msf" 2>&1); rc=$?
expect_eq "validate exit" "$rc" 0
expect_eq "validate is quiet" "$out" ""
out=$("$KIFU" validate -v "$tmp/g.msf" 2>/dev/null)
expect_eq "validate -v" "$out" "$tmp/g.msf: OK (2 moves, 1 variations)"
"$KIFU" validate --help | grep -q -- "--no-transitions" || fail "validate --help"

# a transition broken: the variation's vio lands on (3,4) instead of (4,4)
python3 - "$tmp/g.msf" "$tmp/bad.msf" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
ele = d["kit"]["mit"][0]["seslax"][0]["slax"]["ele"]
ele[4][4], ele[4][3] = None, "vio"
json.dump(d, open(sys.argv[2], "w"), ensure_ascii=False, indent=1)
PY
err=$("$KIFU" validate "$tmp/bad.msf" 2>&1 >/dev/null); rc=$?
expect_eq "broken exit" "$rc" 1
line=$(grep -n '"vio"' "$tmp/bad.msf" | sed -n 2p | cut -d: -f1)
expect_has "broken message" "$err" "kifu: $tmp/bad.msf:$line:"
expect_has "broken path" "$err" ": kit.mit[0].seslax[0].slax.ele[4][3]: expected null after leim 5,6-4,4, found \"vio\""
"$KIFU" validate --no-transitions "$tmp/bad.msf"; expect_eq "--no-transitions exit" "$?" 0
# a schema problem, and every problem is printed
sed 's/"fala": 0/"fala": -3/; s/"sast": "sorn"/"sast": "black"/' "$tmp/g.msf" >"$tmp/two.msf"
err=$("$KIFU" validate "$tmp/two.msf" 2>&1); rc=$?
expect_eq "schema exit" "$rc" 1
expect_has "fala" "$err" "kit.fala: expected an integer 0..2147483647, found -3"
expect_eq "every problem printed" "$(echo "$err" | grep -c 'expected "arxe" or "sorn"')" 2
printf '{"aptex": {}, "kit": ' >"$tmp/cut.msf"
err=$("$KIFU" validate "$tmp/cut.msf" 2>&1); expect_eq "syntax exit" "$?" 1
expect_has "syntax" "$err" "cut.msf:1:"

# ---- convert ----
"$KIFU" convert "$tmp/g.msf" >"$tmp/c.msf"; expect_eq "convert exit" "$?" 0
json_equal "$tmp/g.msf" "$tmp/c.msf" || fail "canonical MSF is not the same JSON value"
"$KIFU" convert -t msf "$tmp/c.msf" >"$tmp/c2.msf"
cmp -s "$tmp/c.msf" "$tmp/c2.msf" || fail "canonical MSF is not a fixed point"
expect_eq "board rows" "$(grep -c '^ *\[ *null, *null, *null, *"tem"' "$tmp/c.msf")" 3
expect_eq "key order" "$(grep -o '^  "[a-z]*"' "$tmp/c.msf" | tr -d ' "' | tr '\n' ' ')" "aptex kit fixt seslax "
"$KIFU" convert --states "$tmp/g.msf" >"$tmp/s.jsonl"
expect_eq "states lines" "$(wc -l <"$tmp/s.jsonl")" 3
python3 -c 'import json,sys; [json.loads(l) for l in open(sys.argv[1])]' "$tmp/s.jsonl" || fail "states are not JSON Lines"
expect_has "states paths" "$(cat "$tmp/s.jsonl")" '"path": "kit.mit[0].seslax[0]"'
err=$("$KIFU" convert -t kif "$tmp/g.msf" 2>&1); expect_eq "to kif exit" "$?" 2
expect_has "to kif" "$err" "records Xelto, not shogi"
echo 'position startpos moves 7g7f' >"$tmp/s.sfen"
err=$("$KIFU" convert -t msf "$tmp/s.sfen" 2>&1); expect_eq "shogi to msf exit" "$?" 2
expect_has "shogi to msf" "$err" "another game than shogi"
err=$("$KIFU" convert --states "$tmp/s.sfen" 2>&1); expect_eq "--states on shogi exit" "$?" 2
expect_has "--states on shogi" "$err" "--states is for MSF"
mkdir -p "$tmp/dir/sub" && cp "$tmp/g.msf" "$tmp/dir/sub/" && cp "$tmp/s.sfen" "$tmp/dir/"
"$KIFU" convert -q --out-dir "$tmp/out" "$tmp/dir"; expect_eq "dir convert exit" "$?" 0
[ -f "$tmp/out/sub/g.msf" ] && [ -f "$tmp/out/s.jkf" ] || fail "dir convert outputs: $(cd "$tmp/out" && find . -type f)"
"$KIFU" convert -q --states --out-dir "$tmp/out2" "$tmp/dir/sub"
[ -f "$tmp/out2/g.jsonl" ] || fail "--states --out-dir gives NAME.jsonl"
# the other commands that search directories take shogi records only
out=$("$KIFU" search --usi 'position startpos moves 7g7f' "$tmp/dir" 2>&1); rc=$?
expect_eq "search skips msf" "$rc" 0
case "$out" in *g.msf*) fail "search read the MSF file: $out";; esac

# ---- show ----
out=$("$KIFU" show "$tmp/g.msf"); expect_eq "show exit" "$?" 0
expect_eq "show top hand" "$(echo "$out" | sed -n 1p)" "sorn (to move)  txifol: -  evol: -"
expect_eq "show row 0" "$(echo "$out" | sed -n 3p)" " 0   vrav  vnen  vpin  vmir  vket  vlin  vlen   0"
expect_eq "show row 4" "$(echo "$out" | sed -n 7p)" " 4     .     .    lis    .     .     .     .    4"
expect_has "show where" "$out" "seslax[0]  ply 1  leim 1,6-2,4"
expect_has "show im" "$out" "im 2026-11-25T10:01:00+09:00"
out=$("$KIFU" show "$tmp/g.msf" --ply 0)
expect_has "show --ply 0 next moves" "$out" "next moves: [leim 1,6-2,4] leim 5,6-4,4"
out=$("$KIFU" show "$tmp/g.msf" --path 'kit.mit[0].seslax[0]')
expect_has "show --path comment" "$out" "* the other way"
expect_eq "show --path /1" "$("$KIFU" show "$tmp/g.msf" --path /1)" "$out"
out=$("$KIFU" show "$tmp/g.msf" --flip)
expect_eq "show --flip top" "$(echo "$out" | sed -n 1p)" "arxe  txifol: -  evol: -"
expect_eq "show --flip row 6" "$(echo "$out" | sed -n 3p)" " 6    ral   vio   dia   ser   mel    .    dyu   6"
out=$("$KIFU" show "$tmp/g.msf" --format svg)
expect_has "svg" "$out" "<svg xmlns="
expect_has "svg piece" "$out" ">lis</text>"
"$KIFU" show "$tmp/g.msf" --format bod >/dev/null 2>&1; expect_eq "show bod exit" "$?" 2
"$KIFU" show "$tmp/g.msf" --ply 5 >/dev/null 2>&1; expect_eq "show --ply past end" "$?" 2
"$KIFU" show "$tmp/bad.msf" >/dev/null 2>&1; expect_eq "show invalid exit" "$?" 1

# ---- replay ----
out=$(printf 'f]fq' | timeout 20 "$KIFU" replay "$tmp/g.msf"); rc=$?
expect_eq "piped replay exit" "$rc" 0
expect_has "piped replay start" "$out" "ply 1/1  path seslax[0]"
expect_has "piped replay fork" "$out" "ply 1/1  path kit.mit[0].seslax[0]  fork 2/2"
expect_has "piped replay comment" "$out" "* the other way"
expect_has "piped replay end" "$out" "end of the line"
new_session 40 "cd '$tmp'; TERM=xterm-256color '$KIFU' replay g.msf --ply 0; echo EXIT=\$?; stty -a | tr ' ;' '\n\n' | grep -x -e '-*icanon' -e '-*echo' | tr '\n' ' ' | sed 's/^/TTY=/'; echo; sleep 120"
wait_for "ply 0/1  path kit" && wait_for "im 2026-11-25T10:00:00+09:00"
T send-keys -t t Right; wait_for "ply 1/1  path seslax[0]" && wait_for "vrav"
T send-keys -t t ']'; wait_for "fork 2/2" && wait_for "* the other way"
T send-keys -t t r; wait_for "arxe  txifol"
T send-keys -t t g; wait_for "go to ply or path:"
T send-keys -t t 'seslax[0]' Enter; wait_for "path seslax[0]"
T send-keys -t t q; wait_for "EXIT=0" && wait_for "TTY=icanon echo"

# ---- one decision of the format, by the library, whatever the file's name ----
cp "$tmp/g.msf" "$tmp/g.json"; cp "$tmp/g.msf" "$tmp/g.kif"
out=$("$KIFU" validate -v "$tmp/g.json" 2>/dev/null); expect_eq "msf in .json" "$out" "$tmp/g.json: OK (2 moves, 1 variations)"
out=$("$KIFU" validate -v "$tmp/g.kif" 2>/dev/null); expect_eq "msf in .kif" "$out" "$tmp/g.kif: OK (2 moves, 1 variations)"
"$KIFU" convert -t msf "$tmp/g.json" | cmp -s - "$tmp/c.msf" || fail "convert of msf in .json"
out=$("$KIFU" show - <"$tmp/g.msf"); expect_eq "show msf from stdin" "$(echo "$out" | sed -n 1p)" "sorn (to move)  txifol: -  evol: -"
err=$("$KIFU" html "$tmp/g.json" -o "$tmp/g.html" 2>&1); expect_eq "html of msf exit" "$?" 1
expect_has "html of msf" "$err" "another game than shogi"
[ -e "$tmp/g.html" ] && fail "html of msf wrote a page"

# ---- the format's own files ----
if [ -n "$SHARED" ] && [ -d "$SHARED/corpus/msf" ]; then
  "$KIFU" validate "$SHARED"/corpus/msf/examples/*.msf "$SHARED/corpus/msf/msf-io-ts/valid.json" \
    "$SHARED/corpus/msf/msf-io-ts/tikno_seren_2007.json" 2>/dev/null
  expect_eq "examples valid" "$?" 0
  for i in 1 2 3; do
    err=$("$KIFU" validate "$SHARED/corpus/msf/msf-io-ts/invalid_$i.json" 2>&1); rc=$?
    expect_eq "invalid_$i exit" "$rc" 1
    expect_has "invalid_$i" "$err" 'slax.arxe.evol: "rav" is already at'
  done
  for f in "$SHARED"/corpus/msf/examples/*.msf; do
    "$KIFU" convert "$f" >"$tmp/rt.msf" && json_equal "$f" "$tmp/rt.msf" || fail "round trip $f"
  done
else
  echo "skip: ../shared/corpus/msf is absent (the examples' part)"
fi

[ $fails -eq 0 ] && echo "msf.sh: all passed" || echo "msf.sh: $fails failed"
[ $fails -eq 0 ]
