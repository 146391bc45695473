# checks.sh: the pass/fail helpers of the ClickHouse tests (sourced by run.sh and tls.sh,
# after $tmp is set).
#   ok NAME / bad NAME             count a check, say it
#   finish                         the summary line; exit 0 when nothing failed
#   same NAME FILE1 FILE2          the two answers are identical
#   fails NAME TEXT... -- COMMAND...  the command fails and its stderr holds every TEXT
passed=0 failed=0
ok() { echo "ok: $1 [${SECONDS}s]"; passed=$((passed + 1)); }
bad() { echo "FAILED: $1"; failed=$((failed + 1)); }
finish() {
  echo "$passed passed, $failed failed, 0 skipped"
  [ "$failed" -eq 0 ]
  exit $?
}
same() {
  if cmp -s "$2" "$3"; then
    ok "$1"
  else
    bad "$1"
    diff "$2" "$3" | head -20
  fi
}
fails() {
  local name=$1 texts=() t
  shift
  while [ "$1" != -- ]; do texts+=("$1"); shift; done
  shift
  if "$@" >/dev/null 2>"$tmp/err"; then
    bad "$name (it did not fail)"
    return
  fi
  for t in "${texts[@]}"; do
    if ! grep -qF -- "$t" "$tmp/err"; then
      bad "$name: no '$t' in: $(cat "$tmp/err")"
      return
    fi
  done
  ok "$name: $(head -c 200 "$tmp/err")"
}
