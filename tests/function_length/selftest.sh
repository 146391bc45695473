#!/usr/bin/env bash
# selftest.sh: scripts/long_functions.py on a made-up tree: a function of 121 lines
# fails and is named (with its signature wrapped, or an attribute before its name), one
# of 120 passes, cli/ counts as src/ does, an allowed long function is skipped, and an
# allowed one that is not long fails (so the list cannot go stale).
# argv: the script.
set -u
script=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
# run ARGS...: the script on the made-up tree; its exit code in rc, its output in out
run() { python3 "$script" "$@" "$tmp" >"$tmp/out" 2>&1; rc=$?; }
# check WHAT EXIT TEXT: the last run exited EXIT and printed a line holding TEXT
check() {
  if [ "$rc" = "$2" ] && grep -qF -- "$3" "$tmp/out"; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    echo "FAILED: $1 (exit $rc, expected $2 and '$3'; the output:)"
    cat "$tmp/out"
  fi
}
# fn NAME LINES: a function of LINES lines in all, its signature on two lines
fn() {
  printf 'static int %s(int a,\n                 int b)\n{\n' "$1"
  for ((i = 4; i < $2; i++)); do printf '    a += b;\n'; done
  printf '}\n'
}
mkdir -p "$tmp/src/core" "$tmp/cli"
{ fn short 120; echo; fn long_one 121; } >"$tmp/src/core/a.c"
run --allow-only ''
check "121 lines fail, named at their first line" 1 \
  "src/core/a.c:122: long_one is 121 lines, over 120"
check "120 lines pass" 1 "1 passed, 1 failed, 0 skipped"
{
  printf 'static inline __attribute__((always_inline)) int hot(int a)\n{\n'
  for ((i = 0; i < 119; i++)); do printf '    a++;\n'; done
  printf '}\n'
} >"$tmp/src/core/a.c"
run --allow-only ''
check "the name after an attribute" 1 "src/core/a.c:1: hot is 122 lines"
fn short 10 >"$tmp/src/core/a.c"
fn cmd_play 130 >"$tmp/cli/cmd_play.c"
run --allow-only ''
check "cli/ is checked" 1 "cli/cmd_play.c:1: cmd_play is 130 lines, over 120"
run --allow-only cli/cmd_play.c:cmd_play
check "an allowed long function is skipped" 0 "1 passed, 0 failed, 1 skipped"
fn cmd_play 20 >"$tmp/cli/cmd_play.c"
run --allow-only cli/cmd_play.c:cmd_play
check "an allowed function that is not long fails" 1 \
  "cli/cmd_play.c: cmd_play is in ALLOWED but not over 120 lines"
echo "$pass passed, $fail failed, 0 skipped"
[ "$fail" = 0 ]
