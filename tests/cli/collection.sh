#!/usr/bin/env bash
# Real collections, real people (issue 27): the collection tests/collection/make.sh
# writes (multi-game files, Shift_JIS, UTF-16 with and without a BOM, a truncated file, a
# folder with files that are no records, a relay game with a miscopied move and a
# doubled time field), and what every command does with it, against the counts the
# generator knows by construction. Usage: collection.sh KIFU [SHARED_DIR]
set -u
kifu=$1
here=$(cd "$(dirname "$0")" && pwd)
pass=0 fail=0
. "$(dirname "${BASH_SOURCE[0]}")/lib.bash"
has() { grep -qF -- "$2" "$1"; }
command -v iconv >/dev/null || { echo "skip: no iconv"; exit 77; }
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
c=$tmp/coll
bash "$here/../collection/make.sh" "$kifu" "$c" || { echo "FAILED: make.sh"; exit 1; }

# ---- Encodings ----
for name in Shift_JIS shift_jis SJIS sjis MS932 CP932 cp932 Windows-31J windows-31j; do
    "$kifu" validate --input-encoding "$name" "$c/enc/sjis.kif" 2>"$tmp/err"
    check "--input-encoding $name is taken" 0 $?
done
"$kifu" validate --input-encoding Shift-JIS_ "$c/enc/sjis.kif" 2>"$tmp/err"
check "a wrong name is refused" 2 $?
has "$tmp/err" "unknown encoding 'Shift-JIS_'" && ok || bad "the wrong name is named: $(cat "$tmp/err")"
"$kifu" validate --input-encoding EUC-JP "$c/enc/sjis.kif" 2>"$tmp/err"
check "Shift_JIS read as EUC-JP fails" 1 $?
sfen6=$("$kifu" convert -f sfen -t sfen - <<<'position startpos moves 2g2f 3c3d 7g7f 4c4d 3i4h 8b4b')
want_last() { "$kifu" show --format sfen "$@" 2>&1; }
final6=$("$kifu" show --format sfen - <<<"$sfen6")
# Every command that reads records takes --input-encoding.
check "show --input-encoding Shift_JIS" "$final6" "$(want_last --input-encoding Shift_JIS "$c/enc/sjis.kif")"
"$kifu" trace --input-encoding Shift_JIS --moved 1 "$c/enc/sjis.kif" >/dev/null
check "trace --input-encoding" 0 $?
"$kifu" html --input-encoding Shift_JIS "$c/enc/sjis.kif" -o "$tmp/p.html"
check "html --input-encoding" 0 $?
"$kifu" search --input-encoding Shift_JIS -q --sfen "${final6#sfen }" "$c/enc/sjis.kif"
check "search --input-encoding finds the game's last position" 0 $?
"$kifu" index build --input-encoding Shift_JIS "$c/enc/sjis.kif" -o "$tmp/sj.kdb"
check "index --input-encoding" 0 $?
"$kifu" replay --input-encoding Shift_JIS "$c/enc/sjis.kif" </dev/null >/dev/null 2>"$tmp/err"
has "$tmp/err" "unknown option" && bad "replay takes --input-encoding: $(cat "$tmp/err")" || ok
# UTF-16: with a BOM (LE) and without (BE), read as detected and as named.
for f in utf16.kif utf16be.kifu; do
    "$kifu" validate "$c/enc/$f" 2>"$tmp/err"
    check "$f reads" 0 $?
    "$kifu" validate --input-encoding UTF-16 "$c/enc/$f" 2>"$tmp/err"
    check "$f reads as UTF-16" 0 $?
done
check "UTF-16 with a BOM and UTF-8 agree" \
    "$("$kifu" convert -t sfen "$c/enc/utf16.kif")" \
    "$("$kifu" convert -f sfen -t sfen - <<<'position startpos moves 7g7f 3c3d 2g2f 4c4d 2f2e 2b3c 3i4h 3a4b')"
# The truncated file says so, and names the option that exists.
"$kifu" validate "$c/enc/cut.kif" 2>"$tmp/err"
check "truncated: exit 1" 1 $?
has "$tmp/err" "cut.kif:13:7: the text ends in the middle of a CP932 character" && has "$tmp/err" "truncated" &&
    ok || bad "truncated, at its line and column: $(cat "$tmp/err")"
has "$tmp/err" "--input-encoding" && ! grep -q -- "with --encoding" "$tmp/err" && ok ||
    bad "the hint names --input-encoding: $(cat "$tmp/err")"

# ---- Folders as people keep them ----
"$kifu" validate "$c" >"$tmp/out" 2>"$tmp/err"
check "validate the folder: exit 1 (the cut file, the relay)" 1 $?
has "$tmp/err" "7 files: 5 valid, 2 failed; 8 games: 8 valid, 0 failed" && ok ||
    bad "strict summary: $(cat "$tmp/err")"
has "$tmp/err" "2 files skipped, not records by their content: $c/package.json, $c/site/schema.json" &&
    ok || bad "the files skipped are named once: $(cat "$tmp/err")"
[ "$(grep -c 'package.json' "$tmp/err")" = 1 ] && ok || bad "package.json named once only"
grep -q 'unknown key' "$tmp/err" && bad "no 'unknown key' error for package.json" || ok
has "$tmp/err" 'relay.kif:7:33: unexpected text after the move' && ok ||
    bad "without --lenient the doubled time field stays an error: $(cat "$tmp/err")"
# Without the two failing files the skipped ones change no exit status.
mkdir -p "$tmp/clean" && cp -r "$c/multi" "$c/package.json" "$tmp/clean/"
"$kifu" validate "$tmp/clean" 2>"$tmp/err"
check "a folder with a package.json: exit 0" 0 $?
has "$tmp/err" "2 files: 2 valid, 0 failed; 5 games: 5 valid, 0 failed" && has "$tmp/err" "1 file skipped" &&
    ok || bad "clean folder summary: $(cat "$tmp/err")"
"$kifu" validate "$c/package.json" 2>/dev/null
check "a package.json named on the command line is still an error" 1 $?
"$kifu" index build "$tmp/clean" -o "$tmp/clean.kdb" -v 2>"$tmp/err"
check "index: a package.json changes no exit status" 0 $?
has "$tmp/err" "5 games" && has "$tmp/err" "0 failed" && has "$tmp/err" "1 file skipped" && ok ||
    bad "index summary: $(cat "$tmp/err")"
"$kifu" html "$tmp/clean" -o "$tmp/clean.html" 2>"$tmp/err"
check "html: a package.json changes no exit status" 0 $?

# --lenient: the relay's miscopied move is repaired, the doubled time dropped, counted apart.
"$kifu" validate --lenient -v "$c" >"$tmp/out" 2>"$tmp/err"
check "validate --lenient: exit 1 (the cut file only)" 1 $?
has "$tmp/err" "7 files: 6 valid, 1 failed; 9 games: 8 valid, 1 repaired (--lenient), 0 failed" && ok ||
    bad "lenient summary: $(cat "$tmp/err")"
has "$tmp/out" "relay.kif: OK (8 moves, repaired)" && ok || bad "the relay: $(cat "$tmp/out")"
has "$tmp/err" "ply 4 (main line): ８四歩(85) cannot be played: read as ☖８四歩(83)" && ok ||
    bad "the repair is told: $(cat "$tmp/err")"
has "$tmp/err" "line 7: a second time field dropped" && ok || bad "the doubled time is told"
relay_end=$("$kifu" convert -f sfen -t sfen - <<<'position startpos moves 7g7f 3c3d 2g2f 8c8d 2f2e 8d8e 6i7h 4a3b')
check "the repaired relay plays on to its end" "$relay_end" \
    "$("$kifu" convert --lenient -t sfen "$c/relay/relay.kif" 2>/dev/null | sed 's/ resign$//')"
"$kifu" convert --lenient -t kifu "$c/relay/relay.kif" 2>/dev/null | grep -q '８四歩(83)' && ok ||
    bad "the repaired move is written as played"
"$kifu" index build --lenient -v "$c/relay" -o "$tmp/relay.kdb" 2>"$tmp/err"
check "index --lenient: exit 0" 0 $?
has "$tmp/err" "1 games, 9 positions" && has "$tmp/err" "1 repaired" && ok || bad "index --lenient: $(cat "$tmp/err")"
"$kifu" index build "$c/relay" -o "$tmp/relay2.kdb" 2>/dev/null
check "index without --lenient: the relay fails" 1 $?

# ---- Any game of a file, and kifu's own files read back ----
g2=$("$kifu" convert -f sfen -t sfen - <<<'position startpos moves 2g2f 8c8d 2f2e 8d8e 6i7h 4a3b 2e2d 2c2d 2h2d')
check "show --game 2" "$("$kifu" show --format sfen - <<<"$g2")" "$(want_last --game 2 "$c/multi/two.csa")"
check "show FILE#2" "$("$kifu" show --format sfen - <<<"$g2")" "$(want_last "$c/multi/two.csa#2")"
"$kifu" show --format sfen "$c/multi/two.csa#3" 2>"$tmp/err" >/dev/null
check "show FILE#3 of 2: usage" 2 $?
has "$tmp/err" "no game 3: the file holds 2 games" && ok || bad "game 3 of 2: $(cat "$tmp/err")"
cp "$c/multi/two.csa" "$tmp/we#1.csa"
check "a file named with # opens as named" "$(want_last "$c/multi/two.csa")" "$(want_last "$tmp/we#1.csa")"
check "... and its #2 is its game 2" "$(want_last "$c/multi/two.csa#2")" "$(want_last "$tmp/we#1.csa#2")"
"$kifu" trace --moved 1 "$c/multi/three.sfen#3" | head -1 >"$tmp/t"
check "trace FILE#3" "☗７七歩 at ply 0" "$(cat "$tmp/t")"
# Every reference search prints reopens: show at its ply gives the position searched.
pos=$("$kifu" show --format sfen --ply 2 - <<<'position startpos moves 7g7f 3c3d')
"$kifu" search --sfen "${pos#sfen }" "$c" >"$tmp/hits" 2>/dev/null
check "search finds the position in 4 games" 4 "$(wc -l <"$tmp/hits")"
while IFS=: read -r ref ply _; do
    got=$("$kifu" show --format sfen --ply "$ply" "$ref" 2>&1 | cut -d' ' -f1-3)
    check "reference $ref:$ply reopens" "$(echo "$pos" | cut -d' ' -f1-3)" "$got"
done <"$tmp/hits"
"$kifu" html "$c/multi/three.sfen#2" -o "$tmp/one.html" && ok || bad "html FILE#2"
# Multi-game output: one valid file of each format that holds several, read back as the
# same games; refused for the formats of one game.
"$kifu" convert -t sfen -o - "$c/multi" "$c/enc/sjis.kif" >"$tmp/all.sfen" 2>/dev/null
check "6 games as sfen" 6 "$(wc -l <"$tmp/all.sfen")"
for t in csa posjson jkf sfen usi; do
    "$kifu" convert -t "$t" -o - "$c/multi" "$c/enc/sjis.kif" >"$tmp/all.$t" 2>"$tmp/err"
    check "-t $t -o - of 3 inputs" 0 $?
    "$kifu" validate -f "$([ $t = usi ] && echo sfen || echo $t)" "$tmp/all.$t" 2>"$tmp/err"
    check "-t $t output validates" 0 $?
    "$kifu" validate -v -f "$([ $t = usi ] && echo sfen || echo $t)" "$tmp/all.$t" 2>&1 |
        grep -q "6 games: 6 valid" && ok || bad "-t $t: 6 games read back"
    "$kifu" convert -t sfen -o - -f "$([ $t = usi ] && echo sfen || echo $t)" "$tmp/all.$t" >"$tmp/back.sfen" 2>/dev/null
    cmp -s "$tmp/all.sfen" "$tmp/back.sfen" && ok || bad "-t $t read back as the same games: $(diff "$tmp/all.sfen" "$tmp/back.sfen" | head -4)"
done
for t in kif kifu ki2 ki2u sfenlist; do
    "$kifu" convert -t "$t" -o - "$c/multi" >"$tmp/out" 2>"$tmp/err"
    check "-t $t -o - of several games: refused" 2 $?
    [ -s "$tmp/out" ] && bad "-t $t: nothing written when refused" || ok
    has "$tmp/err" "$t holds one game a file" && ok || bad "-t $t: the reason: $(cat "$tmp/err")"
    "$kifu" convert -t "$t" "$c/multi/two.csa" >"$tmp/out" 2>"$tmp/err"
    check "-t $t of one file of two games to stdout: refused" 2 $?
done
"$kifu" convert -t csa -o - "$c/multi/two.csa" "$c/multi/two.csa" >"$tmp/four.csa" 2>/dev/null
check "two CSA files of two games: 3 '/' lines" 3 "$(grep -cx / "$tmp/four.csa")"

# ---- Search exits as grep ----
"$kifu" search --sfen "${pos#sfen }" "$c" >/dev/null 2>"$tmp/err"
check "search: found, though cut.kif failed: 0" 0 $?
has "$tmp/err" "cut.kif" && ok || bad "the failed file is reported"
"$kifu" search -q --sfen "${pos#sfen }" "$c" >"$tmp/out" 2>/dev/null
check "search -q: found: 0" 0 $?
[ -s "$tmp/out" ] && bad "search -q prints nothing" || ok
"$kifu" search --usi 'position startpos moves 1g1f' "$c/multi"
check "search: nothing found: 1" 1 $?
"$kifu" search --usi 'position startpos moves 1g1f' "$c/multi" "$tmp/none.kif" 2>/dev/null
check "search: nothing found and a file failed: 2" 2 $?
"$kifu" search -s --usi 'position startpos moves 7g7f' "$c/multi" "$tmp/none.kif" >/dev/null 2>"$tmp/err"
check "search -s: found: 0" 0 $?
[ -s "$tmp/err" ] && bad "search -s: no message about the missing file: $(cat "$tmp/err")" || ok

# ---- One short answer to an unknown option ----
for cmd in convert validate show replay html trace search index explore perft play; do
    sub=$([ $cmd = index ] && echo build)
    "$kifu" $cmd $sub --no-such-option >"$tmp/out" 2>"$tmp/err" </dev/null
    check "$cmd: unknown option exit 2" 2 $?
    check "$cmd: the short answer" "kifu: $cmd: unknown option '--no-such-option'
kifu: see 'kifu $cmd --help'" "$(cat "$tmp/err")"
done

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
