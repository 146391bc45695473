#!/usr/bin/env bash
# outputs.sh: where `kifu convert` writes. A device, FIFO or /dev/stdout is written in
# place (never replaced by a file); a symlink's target is replaced and the link kept;
# signals leave no temp file and every finished output valid; leftovers of a killed run
# are removed by the next run.
# Usage: outputs.sh KIFU_BINARY
set -u
kifu=$1
tmp=$(mktemp -d /tmp/kifu-cli-outputs-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0

. "$(dirname "${BASH_SOURCE[0]}")/lib.bash"

printf 'PI\n+\n+7776FU\n-3334FU\n+2726FU\n%%TORYO\n' >"$tmp/g.csa"

# ---- a FIFO stays a FIFO, and gets the bytes ----------------------------------------
mkfifo "$tmp/fifo"
cat "$tmp/fifo" >"$tmp/from-fifo" &
reader=$!
"$kifu" convert -t kifu -o "$tmp/fifo" "$tmp/g.csa" 2>"$tmp/err" && ok || bad "convert to a FIFO: $(cat "$tmp/err")"
wait $reader
[ -p "$tmp/fifo" ] && ok || bad "the FIFO was replaced"
grep -q '７六歩' "$tmp/from-fifo" && ok || bad "the FIFO's reader got the record"
ls "$tmp" | grep -q 'kifu-tmp' && bad "temp file left next to the FIFO" || ok

# ---- a character device: written in place ---------------------------------------------
# /dev/null itself is the only device a test may write; it must still be one afterwards.
"$kifu" convert -t csa -o /dev/null "$tmp/g.csa" 2>"$tmp/err" && ok || bad "convert to /dev/null: $(cat "$tmp/err")"
[ -c /dev/null ] && ok || bad "/dev/null is no longer a character device"
# /dev/stdout through a pipe.
"$kifu" convert -t csa -o /dev/stdout "$tmp/g.csa" 2>"$tmp/err" | grep -q '+7776FU' && ok ||
    bad "convert to /dev/stdout: $(cat "$tmp/err")"

# ---- a symlink: its target is replaced, the link kept ---------------------------------
mkdir "$tmp/real"
echo old >"$tmp/real/target.kifu"
ln -s real/target.kifu "$tmp/link.kifu"
"$kifu" convert -t kifu -o "$tmp/link.kifu" "$tmp/g.csa" 2>"$tmp/err" && ok || bad "convert to a symlink: $(cat "$tmp/err")"
[ -L "$tmp/link.kifu" ] && ok || bad "the symlink was replaced by a file"
grep -q '７六歩' "$tmp/real/target.kifu" && ok || bad "the link's target holds the record"
ls "$tmp/real" | grep -q 'kifu-tmp' && bad "temp file left next to the target" || ok
# A dangling link: its target is created.
ln -s real/new.kifu "$tmp/dangling.kifu"
"$kifu" convert -t kifu -o "$tmp/dangling.kifu" "$tmp/g.csa" 2>"$tmp/err" && ok || bad "convert to a dangling link"
[ -L "$tmp/dangling.kifu" ] && grep -q '７六歩' "$tmp/real/new.kifu" && ok || bad "a dangling link's target is created"

# ---- a directory is an error, not replaced --------------------------------------------
mkdir "$tmp/adir"
"$kifu" convert -t kifu -o "$tmp/adir" "$tmp/g.csa" 2>"$tmp/err"
[ $? -eq 3 ] && [ -d "$tmp/adir" ] && grep -q 'is a directory' "$tmp/err" && ok || bad "-o DIR: exit 3, directory kept"

# ---- leftovers: a dead process's temp file is removed, a live one's kept --------------
mkdir "$tmp/left"
touch "$tmp/left/a.jkf.kifu-tmp-999999999-AbC123" "$tmp/left/b.jkf.kifu-tmp-$$-XyZ789"
"$kifu" convert -o "$tmp/left/g.jkf" "$tmp/g.csa" 2>"$tmp/err" && ok || bad "convert next to leftovers"
[ ! -e "$tmp/left/a.jkf.kifu-tmp-999999999-AbC123" ] && ok || bad "a dead run's temp file is removed"
[ -e "$tmp/left/b.jkf.kifu-tmp-$$-XyZ789" ] && ok || bad "a running process's temp file is kept"

# ---- a game that fails is not written; its older output stays, and the user is told --
printf 'PI\n+\n+7776FU\n/\nPI\n+\n+2726FU\n' >"$tmp/two.csa"
"$kifu" convert -t kifu --out-dir "$tmp/multi" "$tmp/two.csa" 2>"$tmp/err" && ok || bad "two games: $(cat "$tmp/err")"
printf 'PI\n+\n+7776FU\n/\nPI\n+\n+2725FU\n' >"$tmp/two.csa"
"$kifu" convert -t kifu --out-dir "$tmp/multi" "$tmp/two.csa" 2>"$tmp/err"
[ $? -eq 1 ] && ok || bad "a bad second game: exit 1"
grep -q 'two-2.kifu: not written; the file from an earlier run is left as it was' "$tmp/err" && ok ||
    bad "the stale output of the bad game is named: $(cat "$tmp/err")"
grep -q "２六歩" "$tmp/multi/two-2.kifu" && ok || bad "the older output is unchanged"

# ---- signals: no temp file remains, every finished output is valid --------------------
# 150 games of 24,000 moves (rooks shuffling), so that the run is still going when the
# signal comes.
{
    printf 'PI\n+\n'
    for ((i = 0; i < 6000; i++)); do printf '+2838HI\n-8272HI\n+3828HI\n-7282HI\n'; done
    printf '%%CHUDAN\n'
} >"$tmp/long.csa"
mkdir "$tmp/in"
for ((i = 0; i < 150; i++)); do cp "$tmp/long.csa" "$tmp/in/g$i.csa"; done
interrupted=0
round=0
for sig in TERM INT HUP TERM INT TERM INT; do
    rm -rf "$tmp/out"
    round=$((round + 1))
    # JKF outputs are the large ones (the issue's leftover was a 71 MB .jkf temp file).
    fmt=csa
    [ $((round % 2)) -eq 0 ] && fmt=jkf
    # A background job of a script starts with SIGINT ignored: give it back its default.
    env --default-signal=INT "$kifu" convert -t $fmt --out-dir "$tmp/out" "$tmp/in" 2>/dev/null &
    pid=$!
    sleep "0.$((RANDOM % 40 + 5))"
    kill -s "$sig" "$pid" 2>/dev/null
    wait "$pid"
    code=$?
    if [ "$code" -eq 0 ]; then
        echo "note: the run finished before SIG$sig came"
    elif [ "$code" -ne $((128 + $(kill -l "$sig"))) ]; then
        bad "SIG$sig: exit $code, expected $((128 + $(kill -l "$sig")))"
    else
        interrupted=$((interrupted + 1))
    fi
    left=$(find "$tmp/out" -name '*kifu-tmp*' 2>/dev/null | wc -l)
    [ "$left" -eq 0 ] && ok || bad "SIG$sig left $left temp files"
    if [ -d "$tmp/out" ] && [ -n "$(ls "$tmp/out")" ]; then
        "$kifu" validate "$tmp/out" 2>"$tmp/err" && ok || bad "SIG$sig: a finished output is invalid: $(head -2 "$tmp/err")"
    fi
done
# The rounds prove something only if signals came while the run was writing.
[ "$interrupted" -ge 3 ] && ok || bad "only $interrupted of $round runs were interrupted"

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
