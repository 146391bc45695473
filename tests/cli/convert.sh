#!/usr/bin/env bash
# convert.sh: `kifu convert` and `kifu validate` from the outside: options, exit codes,
# stdout/stdin, -o, --out-dir, summaries, atomic writes, --lenient.
# Usage: convert.sh KIFU_BINARY [SHARED_DIR]. Parts that need a reader, writer or the
# normalizer that is not in this build are counted as skipped.
set -u
kifu=$1
tmp=$(mktemp -d /tmp/kifu-cli-convert-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0 skip=0

. "$(dirname "${BASH_SOURCE[0]}")/lib.bash"
skipped() { skip=$((skip + 1)); echo "skip: $*"; }
# expect CODE DESCRIPTION -- command...: runs it, stdout to $tmp/out, stderr to $tmp/err.
expect() {
    local want=$1 what=$2
    shift 3
    "$@" >"$tmp/out" 2>"$tmp/err"
    local got=$?
    if [ "$got" -eq "$want" ]; then ok; else
        bad "$what: exit $got, expected $want"
        sed 's/^/    stderr: /' "$tmp/err" | head -5
    fi
}
has() { grep -q -- "$2" "$1"; }

# ---- command line -------------------------------------------------------------------
expect 0 "convert --help" -- "$kifu" convert --help
has "$tmp/out" "usage: kifu convert" && ok || bad "convert --help prints usage"
expect 0 "validate --help" -- "$kifu" validate -h
has "$tmp/out" "usage: kifu validate" && ok || bad "validate --help prints usage"
expect 2 "convert without input" -- "$kifu" convert
expect 2 "unknown option" -- "$kifu" convert --frobnicate x.kif
expect 2 "unknown format" -- "$kifu" convert -t pgn x.kif
expect 2 "-t auto" -- "$kifu" convert -t auto x.kif
expect 2 "option without value" -- "$kifu" convert x.kif -t
expect 2 "-o with --out-dir" -- "$kifu" convert -o a.jkf --out-dir d x.kif
expect 2 "unknown encoding" -- "$kifu" convert --encoding latin9 x.kif
expect 2 "validate has no -t" -- "$kifu" validate -t csa x.kif
echo 'x' >"$tmp/a.kif"
echo 'y' >"$tmp/b.kif"
expect 2 "several inputs to stdout" -- "$kifu" convert "$tmp/a.kif" "$tmp/b.kif"
expect 2 "a directory to stdout" -- "$kifu" convert "$tmp"
rm -f "$tmp/a.kif" "$tmp/b.kif"

# ---- failures -----------------------------------------------------------------------
expect 3 "missing file" -- "$kifu" convert "$tmp/missing.kif"
has "$tmp/err" "missing.kif" && ok || bad "missing file is named on stderr"
printf 'hello world\n' >"$tmp/notes.txt"
expect 1 "unrecognised content" -- "$kifu" convert -o "$tmp/notes.jkf" "$tmp/notes.txt"
[ ! -e "$tmp/notes.jkf" ] && ok || bad "no output file for a failed input"
ls "$tmp" | grep -q 'notes.jkf\.' && bad "temporary file left behind" || ok
printf 'hello world\n' | "$kifu" convert - >"$tmp/out" 2>"$tmp/err"
[ $? -eq 1 ] && has "$tmp/err" "<stdin>" && ok || bad "stdin errors name <stdin>"
expect 1 "validate fails on bad content" -- "$kifu" validate "$tmp/notes.txt"
expect 1 "validate -q still fails" -- "$kifu" validate -q "$tmp/notes.txt"
[ ! -s "$tmp/out" ] && ok || bad "validate -q prints nothing on stdout"

# ---- conversions (need one reader, the normalizer and the JKF writer) ------------------
# Samples in SFEN, or in JKF when the SFEN reader is not in this build.
ext=sfen
s1='position startpos moves 7g7f 3c3d 8h2b+'
s2='startpos'
s3='position startpos moves 2g2f'
jkf_move() { printf '{"move":{"color":%d,"from":{"x":%d,"y":%d},"to":{"x":%d,"y":%d},"piece":"FU"}}' "$@"; }
if ! printf '%s\n' "$s1" | "$kifu" convert -f sfen - >/dev/null 2>&1; then
    ext=jkf
    s1="{\"header\":{},\"moves\":[{},$(jkf_move 0 7 7 7 6),$(jkf_move 1 3 3 3 4)]}"
    s2='{"header":{},"moves":[{}]}'
    s3="{\"header\":{},\"moves\":[{},$(jkf_move 0 2 7 2 6)]}"
fi
printf '%s\n' "$s1" >"$tmp/g1.$ext"
if ! "$kifu" convert "$tmp/g1.$ext" >"$tmp/probe.jkf" 2>"$tmp/err"; then
    skipped "neither SFEN nor JKF converts in this build ($(head -1 "$tmp/err")): conversion tests"
else
    ok
    has "$tmp/probe.jkf" '"moves"' && ok || bad "stdout holds JKF"
    # One file to stdout, format from the extension.
    expect 0 "one file to stdout" -- "$kifu" convert "$tmp/g1.$ext"
    has "$tmp/out" '"moves"' && ok || bad "JKF on stdout"
    [ ! -s "$tmp/err" ] && ok || bad "quiet on success: $(cat "$tmp/err")"
    # -o writes the file; nothing on stdout.
    expect 0 "-o file" -- "$kifu" convert -o "$tmp/g1.out.jkf" "$tmp/g1.$ext"
    [ -s "$tmp/g1.out.jkf" ] && [ ! -s "$tmp/out" ] && ok || bad "-o writes the file only"
    # -o's extension picks the output format; the file is replaced, not appended to.
    if "$kifu" convert -o "$tmp/g1.usi" "$tmp/g1.$ext" 2>"$tmp/err"; then
        grep -q '7g7f' "$tmp/g1.usi" && ok || bad "-o x.usi writes USI"
        "$kifu" convert -o "$tmp/g1.usi" "$tmp/g1.$ext" 2>/dev/null
        [ "$(grep -c 7g7f "$tmp/g1.usi")" -eq 1 ] && ok || bad "output replaced"
    else
        skipped "SFEN writer: $(head -1 "$tmp/err")"
    fi
    # Same result from stdin and from the file.
    "$kifu" convert -f $ext - <"$tmp/g1.$ext" >"$tmp/stdin.jkf" 2>/dev/null
    # (stdout ends every output with a newline; a file holds the writer's bytes as they are)
    cmp -s <(sed -e '$a\' "$tmp/stdin.jkf") <(sed -e '$a\' "$tmp/g1.out.jkf") && ok ||
        bad "stdin and file give the same JKF"
    # --pretty indents.
    expect 0 "--pretty" -- "$kifu" convert --pretty "$tmp/g1.$ext"
    [ "$(wc -l <"$tmp/out")" -gt 3 ] && ok || bad "--pretty gives several lines"
    # Directories: recursive, known extensions only, relative structure kept.
    mkdir -p "$tmp/in/sub/deeper" "$tmp/in/.hidden"
    cp "$tmp/g1.$ext" "$tmp/in/a.$ext"
    printf '%s\n' "$s2" >"$tmp/in/sub/b.$ext"
    printf '%s\n' "$s3" >"$tmp/in/sub/deeper/c.$ext"
    printf 'not a record\n' >"$tmp/in/readme.txt"
    cp "$tmp/g1.$ext" "$tmp/in/.hidden/h.$ext"
    expect 0 "--out-dir" -- "$kifu" convert --out-dir "$tmp/outdir" "$tmp/in"
    [ -s "$tmp/outdir/a.jkf" ] && [ -s "$tmp/outdir/sub/b.jkf" ] &&
        [ -s "$tmp/outdir/sub/deeper/c.jkf" ] && ok || bad "--out-dir keeps the tree: $(cd "$tmp/outdir" 2>/dev/null && find . -type f)"
    [ "$(find "$tmp/outdir" -type f | wc -l)" -eq 3 ] && ok || bad "only record files, no hidden ones"
    has "$tmp/err" "3 files: 3 converted, 0 failed; 3 games: 3 converted, 0 failed" && ok || bad "summary line: $(cat "$tmp/err")"
    expect 0 "--out-dir -q" -- "$kifu" convert -q --out-dir "$tmp/outdir" "$tmp/in"
    [ ! -s "$tmp/err" ] && ok || bad "-q prints nothing"
    expect 0 "-v" -- "$kifu" convert -v --out-dir "$tmp/outdir" "$tmp/in/a.$ext"
    has "$tmp/err" "a.jkf" && has "$tmp/err" "1 file: 1 converted" && ok || bad "-v names outputs"
    # -o - concatenates.
    expect 0 "-o - with several" -- "$kifu" convert -o - "$tmp/in/a.$ext" "$tmp/in/sub/b.$ext"
    [ "$(grep -o '"moves"' "$tmp/out" | wc -l)" -eq 2 ] && ok || bad "-o - holds both outputs"
    # Two inputs of the same name (from two directories): neither is written, each
    # message names the other, exit 1 (a bad input, not a usage error).
    mkdir -p "$tmp/twin"
    cp "$tmp/in/sub/b.$ext" "$tmp/twin/a.$ext"
    expect 1 "same output name twice" -- "$kifu" convert --out-dir "$tmp/twins" "$tmp/in/a.$ext" "$tmp/twin/a.$ext"
    [ "$(grep -c "would write $tmp/twins/a.jkf too" "$tmp/err")" -eq 2 ] && [ ! -e "$tmp/twins/a.jkf" ] && ok ||
        bad "neither twin is written, both are named: $(cat "$tmp/err")"
    # A file among records that is no record by its content (prose): skipped, named once,
    # no failure (a broken record among many fails: batch.sh).
    cp "$tmp/notes.txt" "$tmp/in/sub/bad.$ext"
    expect 0 "a file that is no record among several" -- "$kifu" convert --out-dir "$tmp/outdir2" "$tmp/in"
    has "$tmp/err" "3 files: 3 converted, 0 failed" && has "$tmp/err" "1 file skipped, not record by its content: $tmp/in/sub/bad.$ext" && ok ||
        bad "summary names the file skipped: $(cat "$tmp/err")"
    [ ! -e "$tmp/outdir2/sub/bad.jkf" ] && [ -s "$tmp/outdir2/a.jkf" ] && ok || bad "only good files written"
    # The progress bar: only on a terminal, only for many files, erased at the end.
    mkdir -p "$tmp/many"
    for i in 1 2 3 4 5 6 7 8 9 10; do cp "$tmp/g1.$ext" "$tmp/many/m$i.$ext"; done
    expect 0 "many files, stderr not a terminal" -- "$kifu" convert --out-dir "$tmp/manyout" "$tmp/many"
    ! grep -q $'\r' "$tmp/err" && ok || bad "no progress bar when stderr is not a terminal"
    if command -v script >/dev/null 2>&1; then
        script -qec "'$kifu' convert --out-dir '$tmp/manyout2' '$tmp/many'" /dev/null >"$tmp/tty" 2>&1
        grep -q '/10 ' "$tmp/tty" && grep -q $'\r\033\[K' "$tmp/tty" && grep -q '10 files: 10 converted, 0 failed' "$tmp/tty" &&
            ok || bad "progress bar on a terminal: $(od -c "$tmp/tty" | head -3)"
        script -qec "'$kifu' convert -q --out-dir '$tmp/manyout2' '$tmp/many'" /dev/null >"$tmp/tty" 2>&1
        [ ! -s "$tmp/tty" ] && ok || bad "-q: no bar on a terminal"
    else
        skipped "script(1) missing: progress bar on a terminal"
    fi
    # validate.
    rm "$tmp/in/sub/bad.$ext"
    expect 0 "validate directory" -- "$kifu" validate "$tmp/in"
    [ ! -s "$tmp/out" ] && ok || bad "validate prints no OK lines without -v"
    expect 0 "validate -v" -- "$kifu" validate -v "$tmp/in"
    [ "$(grep -c ': OK' "$tmp/out")" -eq 3 ] && ok || bad "validate -v prints an OK per file"
    # An illegal move: error with the ply, no output; with --lenient the output is written.
    printf '{"header":{},"moves":[{},{"move":{"from":{"x":7,"y":7},"to":{"x":7,"y":5},"piece":"FU","color":0}}]}\n' >"$tmp/illegal.jkf"
    "$kifu" validate "$tmp/illegal.jkf" >/dev/null 2>"$tmp/err"
    code=$?
    if [ $code -eq 1 ]; then
        ok
        has "$tmp/err" "illegal.jkf" && ok || bad "the error names the file"
        expect 1 "illegal move" -- "$kifu" convert -t jkf -o "$tmp/ill.out.jkf" "$tmp/illegal.jkf"
        [ ! -e "$tmp/ill.out.jkf" ] && ok || bad "no output without --lenient"
        expect 1 "--lenient still fails" -- "$kifu" convert --lenient -o "$tmp/ill.out.jkf" "$tmp/illegal.jkf"
        [ -s "$tmp/ill.out.jkf" ] && ok || bad "--lenient writes the output"
    else
        skipped "JKF reader/normalizer: illegal move test (validate exit $code: $(head -1 "$tmp/err"))"
    fi
fi

# ---- CSA with several games (needs the CSA reader) -------------------------------------
printf 'PI\n+\n+7776FU\n-3334FU\n%%TORYO\n/\nPI\n+\n+2726FU\n%%CHUDAN\n' >"$tmp/two.csa"
if "$kifu" validate "$tmp/two.csa" >/dev/null 2>"$tmp/err"; then
    expect 0 "two games" -- "$kifu" convert --out-dir "$tmp/games" "$tmp/two.csa"
    [ -s "$tmp/games/two-1.jkf" ] && [ -s "$tmp/games/two-2.jkf" ] && ok || bad "NAME-1, NAME-2"
    expect 0 "two games to -o" -- "$kifu" convert -o "$tmp/g.jkf" "$tmp/two.csa"
    [ -s "$tmp/g-1.jkf" ] && [ -s "$tmp/g-2.jkf" ] && ok || bad "-o OUT gives OUT-1, OUT-2"
else
    skipped "CSA reader: several games ($(head -1 "$tmp/err"))"
fi

# ---- messages never carry control characters from a file or its name ------------------
esc=$(printf '\033')
printf '先手：甲\n手数----指手----\n   1 ７\033[2J\033]0;pwned\007六歩(77)\n' >"$tmp/esc.kifu"
cp "$tmp/esc.kifu" "$tmp/name$(printf '\033]0;t\007\302\233').kifu"
"$kifu" validate "$tmp/esc.kifu" "$tmp"/name*.kifu 2>"$tmp/err"
[ $? -eq 1 ] && ok || bad "validate of files with escapes: exit 1"
if LC_ALL=C grep -q "[$esc$(printf '\007')]" "$tmp/err" || LC_ALL=C grep -q "$(printf '\302\233')" "$tmp/err"; then
    bad "a control character reached the terminal: $(cat -v "$tmp/err")"
else ok; fi
grep -q '\\x1B\[2J' "$tmp/err" && grep -q 'name\\x1B\]0;t\\x07\\xC2\\x9B.kifu' "$tmp/err" && ok ||
    bad "escapes shown as \\xNN: $(cat -v "$tmp/err")"

# ---- --crlf (issue 26, seed 001: Kifu for Windows writes CR LF) -----------------------
printf '手合割：平手\n先手：A\n手数----指手---------消費時間--\n   1 ７六歩(77)\n*a\n   2 投了\n' \
    >"$tmp/crlf-src.kifu"
for t in kif kifu ki2 ki2u csa; do
    expect 0 "--crlf -t $t" -- "$kifu" convert "$tmp/crlf-src.kifu" -t $t --crlf -o "$tmp/crlf.$t"
    lf=$(tr -cd '\n' <"$tmp/crlf.$t" | wc -c) crlf=$(grep -c $'\r$' "$tmp/crlf.$t")
    [ "$lf" -gt 3 ] && [ "$lf" -eq "$crlf" ] && ok || bad "--crlf -t $t: $crlf of $lf lines end CR LF"
    # without it: LF alone; read back: the same record
    "$kifu" convert "$tmp/crlf-src.kifu" -t $t -o "$tmp/lf.$t" 2>/dev/null
    [ "$(tr -d '\r' <"$tmp/crlf.$t" | od -c)" = "$(od -c <"$tmp/lf.$t")" ] && ok ||
        bad "--crlf -t $t differs from the LF output by more than CRs"
    ! grep -q $'\r' "$tmp/lf.$t" && ok || bad "-t $t without --crlf has CRs"
    [ "$("$kifu" convert "$tmp/crlf.$t" -t jkf -o - 2>&1 | sed 's/crlf\.[a-z0-9]*/X/')" = \
      "$("$kifu" convert "$tmp/lf.$t" -t jkf -o - 2>&1 | sed 's/lf\.[a-z0-9]*/X/')" ] && ok ||
        bad "--crlf -t $t does not read back the same"
done
expect 2 "--crlf with JKF" -- "$kifu" convert "$tmp/crlf.kifu" -t jkf --crlf
has "$tmp/err" "not jkf" && ok || bad "--crlf with JKF: $(cat "$tmp/err")"

# Two games on standard output: what USI cannot hold is warned about, but not under -q
# ("print errors only"), as for the warnings about a file.
printf 'V2.2\nN+a\nN-b\nPI\n+\n+7776FU\n-3334FU\n%%TORYO\n/\nN+c\nN-d\nPI\n+\n+2726FU\n%%TORYO\n' \
    >"$tmp/two.csa"
expect 0 "two games to USI on stdout" -- "$kifu" convert -t usi "$tmp/two.csa" -o -
[ "$(wc -l <"$tmp/out")" -eq 2 ] && has "$tmp/err" "warning: .*no header" && ok ||
    bad "two games to USI: $(cat "$tmp/out" "$tmp/err")"
expect 0 "-q two games to USI on stdout" -- "$kifu" convert -q -t usi "$tmp/two.csa" -o -
[ "$(wc -l <"$tmp/out")" -eq 2 ] && [ ! -s "$tmp/err" ] && ok || bad "-q still warns: $(cat "$tmp/err")"

echo "$pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ]
