#!/usr/bin/env bash
# The man pages render without a warning, kifu(1) describes every command and every long
# option the tool's --help texts name, and bash loads the completion and completes
# commands, options and formats. Usage: docs.sh KIFU BUILD_DIR SOURCE_DIR
set -u
kifu=$1 build=$2 src=$3
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok: $*"; }
bad() { fail=$((fail + 1)); echo "FAILED: $*"; }

for page in "$src/man/kifu.1" "$build/libkifu.3"; do
    name=$(basename "$page")
    if [ ! -f "$page" ]; then bad "$name missing"; continue; fi
    warn=$(groff -k -ww -man -Tutf8 "$page" 2>&1 >/dev/null)
    [ -z "$warn" ] && ok "$name renders with groff -ww, no warning" || bad "$name: $warn"
    if command -v man >/dev/null; then
        out=$(MANWIDTH=80 man -l "$page" 2>&1 >/dev/null)
        [ -z "$out" ] && ok "man -l $name is quiet" || bad "man -l $name: $out"
        MANWIDTH=80 man -l "$page" 2>/dev/null | grep -q NAME && ok "man -l $name renders" ||
            bad "man -l $name shows nothing"
    fi
done
# Every exported function is in libkifu(3).
missing=$(grep -o 'kifu_[a-z0-9_]*(' "$src/include/kifu.h" | tr -d '(' | sort -u |
    while read -r f; do grep -q "$f" "$build/libkifu.3" || echo "$f"; done)
[ -z "$missing" ] && ok "libkifu(3) names every function of kifu.h" || bad "not in libkifu(3): $missing"

# kifu(1) against the tool's own help texts (roff's \- is a plain hyphen there).
page=$(sed 's/\\-/-/g' "$src/man/kifu.1")
cmds=$("$kifu" --help | awk '/^commands:/ {on = 1; next} on && /^  [a-z]/ {print $1} on && /^$/ {on = 0}')
[ -n "$cmds" ] && ok "kifu --help lists commands" || bad "no commands in kifu --help"
for c in $cmds; do
    printf '%s\n' "$page" | grep -q "^\.SS \"kifu $c" && ok "kifu(1) has a section for $c" ||
        bad "kifu(1) has no section for '$c'"
    for o in $("$kifu" "$c" --help 2>&1 | grep -oE -- '--[a-z0-9][a-z0-9-]*' | sort -u); do
        [ "$o" = --help ] && continue
        printf '%s\n' "$page" | grep -q -- "$o" || bad "kifu(1) does not describe $c $o"
    done
done

# The completion, loaded by bash.
out=$(PATH="$(dirname "$kifu"):$PATH" bash -c '
    shopt -s extglob
    source "$1" || exit 1
    complete -p kifu >/dev/null || exit 1
    COMP_WORDS=(kifu con); COMP_CWORD=1; _kifu; echo "cmd:${COMPREPLY[*]}"
    COMP_WORDS=(kifu convert -t k); COMP_CWORD=3; _kifu; echo "fmt:${COMPREPLY[*]}"
    COMP_WORDS=(kifu convert --pre); COMP_CWORD=2; _kifu; echo "opt:${COMPREPLY[*]}"
    COMP_WORDS=(kifu help con); COMP_CWORD=2; _kifu; echo "help:${COMPREPLY[*]}"
    COMP_WORDS=(kifu index build --i); COMP_CWORD=3; _kifu; echo "index:${COMPREPLY[*]}"
    COMP_WORDS=(kifu search --i); COMP_CWORD=2; _kifu; echo "search:${COMPREPLY[*]}"
    COMP_WORDS=(kifu show --input-encoding shift); COMP_CWORD=3; _kifu; echo "enc:${COMPREPLY[*]}"
    (cd "$3" && COMP_WORDS=(kifu search --pattern m); COMP_CWORD=3; _kifu; echo "pattern:${COMPREPLY[*]}")
    cd "$2" && COMP_WORDS=(kifu show open); COMP_CWORD=2; _kifu; echo "file:${COMPREPLY[*]}"
' _ "$src/completion/kifu.bash" "$src/samples" "$src/docs/patterns" 2>&1)
printf '%s\n' "$out" | grep -qx 'cmd:convert' && ok "completes a command" || bad "command completion: $out"
printf '%s\n' "$out" | grep -q '^fmt:.*kif .*kifu.*ki2' && ok "completes formats" || bad "format completion: $out"
printf '%s\n' "$out" | grep -qx 'opt:--pretty' && ok "completes an option" || bad "option completion: $out"
printf '%s\n' "$out" | grep -qx 'file:opening.kifu' && ok "completes a record file" || bad "file completion: $out"
printf '%s\n' "$out" | grep -qx 'help:convert' && ok "kifu help <TAB>: command names" || bad "help completion: $out"
# Options come from option lines, not prose: index's help mentions `kifu search --index`.
printf '%s\n' "$out" | grep -qx 'index:--input-encoding' && ok "index build: no --index scraped from prose" ||
    bad "index option completion: $out"
printf '%s\n' "$out" | grep -qx 'search:--index --input-encoding' && ok "search: --index offered" ||
    bad "search option completion: $out"
printf '%s\n' "$out" | grep -qx 'enc:shift_jis' && ok "completes encodings" || bad "encoding completion: $out"
printf '%s\n' "$out" | grep -q '^pattern:.*mino\.txt' && ok "--pattern completes .txt pattern files" ||
    bad "pattern completion: $out"
# Every option completion offers is one its command takes (never 'unknown option').
for c in $cmds; do
    case $c in play | replay | moves) continue ;; esac # interactive, or no options
    for o in $(PATH="$(dirname "$kifu"):$PATH" bash -c 'source "$1"; _kifu_options kifu "$2"' _ "$src/completion/kifu.bash" "$c"); do
        [ "$o" = --help ] || [ "$o" = -h ] && continue
        (cd "$build" && timeout 10 "$kifu" "$c" "$o" </dev/null 2>&1 | grep -q "unknown option") &&
            bad "completion offers $c $o, which $c refuses"
    done
done
ok "every option offered is taken"
echo "$pass passed, $fail failed, 0 skipped"
[ "$fail" -eq 0 ]
