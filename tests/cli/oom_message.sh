#!/usr/bin/env bash
# oom_message.sh: under a memory limit (ulimit -v) smaller than what a file needs, kifu
# says so: the file, what it was doing, and the limit that stopped it, not a bare "out
# of memory" that a small resident size seems to contradict. Exit 4 (internal).
# Usage: oom_message.sh KIFU_BINARY [SHARED_DIR]
set -u
kifu=$1
tmp=$(mktemp -d /tmp/kifu-cli-oom-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
. "$(dirname "${BASH_SOURCE[0]}")/lib.bash"

# 300 MB that take no disk (a sparse file): reading it needs 300 MB of memory.
truncate -s 300M "$tmp/big.csa" || { echo "SKIP: cannot make a sparse file"; exit 0; }
limit_kb=$((96 * 1024))
# The limit leaves room for the program itself: it starts and answers --help.
if ! (ulimit -v $limit_kb && "$kifu" validate --help >/dev/null 2>&1); then
    echo "SKIP: kifu does not start under ulimit -v $limit_kb"
    exit 0
fi

for cmd in validate "convert -o $tmp/out.jkf" html; do
    (ulimit -v $limit_kb && "$kifu" $cmd "$tmp/big.csa") >"$tmp/out" 2>"$tmp/err"
    rc=$?
    msg=$(cat "$tmp/err")
    [ "$rc" = 4 ] && ok || bad "$cmd: exit $rc, not 4: $msg"
    case $msg in
    *"$tmp/big.csa: out of memory reading the file (314572800 bytes): the process may use at most 96.0 MB (ulimit -v)"*) ok ;;
    *) bad "$cmd: the message does not name the file, its size and the limit: $msg" ;;
    esac
done
[ ! -e "$tmp/out.jkf" ] && ok || bad "an output was written"

# Standard input, read until its end: how far it got.
head -c 300000000 /dev/zero | (ulimit -v $limit_kb && "$kifu" validate -) 2>"$tmp/err"
rc=$?
msg=$(cat "$tmp/err")
[ "$rc" = 4 ] && ok || bad "stdin: exit $rc, not 4: $msg"
case $msg in
*"out of memory reading the input after "*" bytes: the process may use at most 96.0 MB (ulimit -v)"*) ok ;;
*) bad "stdin: the message does not say how far and the limit: $msg" ;;
esac

echo "oom_message: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
