#!/usr/bin/env bash
# The man pages render without a warning; kifu(1) describes every command, and in each
# command's section every option its --help text names; an install holds the documents
# (share/doc/kifu) that kifu(1), libkifu(3) and the help texts send readers to, and no
# help text or man page sends them to the README, which is not installed; the documents'
# links lead somewhere; bash loads the completion and completes commands, options and formats.
# Usage: docs.sh KIFU BUILD_DIR SOURCE_DIR
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

# kifu(1) against the tool's own help texts (roff's \- is a plain hyphen there): every
# option a command's --help names, long or short, is in that command's own section.
page=$(sed 's/\\-/-/g' "$src/man/kifu.1")
cmds=$("$kifu" --help | awk '/^commands:/ {on = 1; next} on && /^  [a-z]/ {print $1} on && /^$/ {on = 0}')
[ -n "$cmds" ] && ok "kifu --help lists commands" || bad "no commands in kifu --help"
for c in $cmds; do
    section=$(printf '%s\n' "$page" |
        awk -v h=".SS \"kifu $c" 'index($0, h) == 1 {on = 1; print; next} /^\.S[SH] / {on = 0} on')
    if [ -n "$section" ]; then ok "kifu(1) has a section for $c"; else
        bad "kifu(1) has no section for '$c'"; continue
    fi
    help=$("$kifu" "$c" --help 2>&1)
    missing=
    for o in $(printf '%s\n' "$help" | grep -oE -- '--[a-z0-9][a-z0-9-]*' | sort -u) \
        $(printf '%s\n' "$help" | grep -oE -- '^ +-[a-zA-Z]([, ]|$)' | tr -d ' ,' | sort -u); do
        [ "$o" = --help ] || [ "$o" = -h ] && continue
        printf '%s\n' "$section" | grep -qE -- "(^|[^a-z0-9-])$o([^a-z0-9-]|\$)" ||
            missing="$missing $o"
    done
    [ -z "$missing" ] && ok "kifu(1) describes every option of kifu $c --help" ||
        bad "kifu(1)'s section for $c does not describe:$missing"
done

# An install: the documents in share/doc/kifu, and kifu(1) naming that directory.
stage=$(mktemp -d) || exit 1
trap 'rm -rf "$stage"' EXIT
if DESTDIR=$stage cmake --install "$build" --prefix /usr >"$stage/install.log" 2>&1; then
    ok "staged install (--prefix /usr)"
else
    bad "staged install"; cat "$stage/install.log"
fi
docdir=$stage/usr/share/doc/kifu
missing=$(cd "$src/docs" && find . -type f | while read -r f; do
    cmp -s "$f" "$docdir/$f" || echo "${f#./}"; done)
[ -d "$docdir" ] && [ -z "$missing" ] && ok "the install holds every file of docs/ in share/doc/kifu" ||
    bad "not installed in share/doc/kifu:${missing:- the directory}"
man1=$stage/usr/share/man/man1/kifu.1
grep -q '/usr/share/doc/kifu' "$man1" 2>/dev/null && ! grep -q '/usr/local/share/doc' "$man1" &&
    ok "the installed kifu(1) names /usr/share/doc/kifu" || bad "the installed kifu(1) does not name its documents' directory"
man3=$stage/usr/share/man/man3/libkifu.3
grep -q '/usr/share/doc/kifu' "$man3" 2>/dev/null && ! grep -q '/usr/local/share/doc' "$man3" &&
    ok "the installed libkifu(3) names /usr/share/doc/kifu" || bad "the installed libkifu(3) does not name its documents' directory"
# Every document libkifu(3) names as docs/NAME.md is installed.
named=$(grep -oE 'docs/[a-z-]+\.md' "$man3" 2>/dev/null | sed 's|^docs/||' | sort -u)
missing=$(for f in $named; do [ -e "$docdir/$f" ] || echo "$f"; done)
[ -n "$named" ] && [ -z "$missing" ] && ok "every document libkifu(3) names is installed" ||
    bad "libkifu(3) names documents that are not installed: ${missing:-none named}"
# Every document kifu(1) names (FILES) is installed.
named=$(grep -oE '[a-z]+\.md|patterns/' "$src/man/kifu.1" | sort -u)
missing=$(for f in $named; do [ -e "$docdir/$f" ] || echo "$f"; done)
[ -n "$named" ] && [ -z "$missing" ] && ok "every document kifu(1) names is installed" ||
    bad "kifu(1) names documents that are not installed: ${missing:-none named}"

# No help text or man page sends the reader to the README (not installed), and every
# document a help text names is installed.
texts=$("$kifu" --help 2>&1; for c in $cmds; do "$kifu" "$c" --help 2>&1; done)
hits=$( (printf '%s\n' "$texts" | grep -in readme | sed 's/^/--help: /'
    for m in "$src/man/kifu.1" "$man1" "$build/libkifu.3"; do grep -Hin readme "$m"; done) 2>/dev/null)
[ -z "$hits" ] && ok "no help text or man page mentions the README" || bad "mentions of the README: $hits"
named=$(printf '%s\n' "$texts" | grep -oE '[a-z]+\.md' | sort -u)
missing=$(for f in $named; do [ -e "$docdir/$f" ] || echo "$f"; done)
[ -z "$missing" ] && ok "every document a help text names is installed (${named//$'\n'/ })" ||
    bad "help texts name documents that are not installed: $missing"

# docs/index.md names the version of the index file kifu writes (its kifu_meta row).
if command -v sqlite3 >/dev/null; then
    "$kifu" index build "$src/samples/collection" -o "$stage/v.kdb" >/dev/null 2>&1
    v=$(sqlite3 "$stage/v.kdb" "SELECT value FROM kifu_meta WHERE name='version'" 2>/dev/null)
    said=$(grep -oE 'WAL mode, version [0-9]+|`version` = `[0-9]+`' "$src/docs/index.md" |
        grep -oE '[0-9]+' | sort -u | tr '\n' ' ')
    [ -n "$v" ] && [ "$said" = "$v " ] && ok "docs/index.md names the index version kifu writes ($v)" ||
        bad "docs/index.md names version(s) ${said:-none}; kifu writes ${v:-nothing}"
fi

# The documents' relative links lead to files of the source tree.
broken=$(cd "$src" && for md in README.md docs/*.md; do
    d=$(dirname "$md")
    grep -oE '\]\([^)#]+' "$md" | sed 's/^](//' | grep -vE '^[a-z]+:' |
        while read -r l; do [ -e "$d/$l" ] || echo "$md: $l"; done
done)
[ -z "$broken" ] && ok "the README's and docs/' links lead to files" || bad "broken links: $broken"
[ "$(wc -l <"$src/README.md")" -le 250 ] && ok "README.md is at most 250 lines" ||
    bad "README.md has $(wc -l <"$src/README.md") lines (at most 250)"

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
printf '%s\n' "$out" | grep -qx 'index:--input-encoding --insecure-skip-tls-verify' && ok "index build: no --index scraped from prose" ||
    bad "index option completion: $out"
printf '%s\n' "$out" | grep -qx 'search:--index --input-encoding --insecure-skip-tls-verify' && ok "search: --index offered" ||
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
