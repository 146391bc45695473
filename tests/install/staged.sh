#!/usr/bin/env bash
# A staged install (DESTDIR) of the build tree, then the examples built against it through
# pkg-config, dynamically and statically, and run: what a user of the installed library
# does. Usage: staged.sh BUILD_DIR SOURCE_DIR
set -u
build=$1 src=$2
pass=0 fail=0 skip=0
ok() { pass=$((pass + 1)); echo "ok: $*"; }
bad() { fail=$((fail + 1)); echo "FAILED: $*"; }
finish() { echo "$pass passed, $fail failed, $skip skipped"; [ "$fail" -eq 0 ]; exit $?; }
command -v pkg-config >/dev/null || { echo "skip: no pkg-config"; exit 77; }
cc=${CC:-cc}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
stage=$tmp/stage prefix=/opt/kifu-test

if DESTDIR=$stage cmake --install "$build" --prefix "$prefix" >"$tmp/install.log" 2>&1; then
    ok "staged install"
else
    bad "staged install"; cat "$tmp/install.log"; finish
fi
root=$stage$prefix
for f in bin/kifu include/kifu.h share/man/man1/kifu.1 share/man/man3/libkifu.3 \
    share/bash-completion/completions/kifu; do
    [ -f "$root/$f" ] && ok "installed $f" || bad "missing $f"
done
pcdir=$(dirname "$(find "$root" -name kifu.pc | head -n 1)")
libdir=$(dirname "$pcdir")
for f in libkifu.so libkifu.a pkgconfig/kifu.pc; do
    [ -e "$libdir/$f" ] && ok "installed $f" || bad "missing $libdir/$f"
done
export PKG_CONFIG_PATH=$pcdir
# The .pc file must point into the staged tree, not at the configured prefix.
[ "$(cd "$(pkg-config --variable=libdir kifu)" 2>/dev/null && pwd)" = "$(cd "$libdir" && pwd)" ] &&
    ok "pkg-config libdir is the installed one" || bad "pkg-config libdir: $(pkg-config --variable=libdir kifu)"

# Every library libkifu.so needs is in what kifu.pc gives a static link (libc and the
# loader aside, and a sanitizer build's runtimes, which the compiler's flag brings).
static_libs=" $(pkg-config --static --libs kifu) "
for so in $(readelf -d "$libdir/libkifu.so" 2>/dev/null | sed -n 's/.*Shared library: \[lib\([^.]*\)\..*/\1/p'); do
    case $so in c | ld-linux* | asan | ubsan | tsan) continue ;; esac
    case $static_libs in *" -l$so "*) ok "kifu.pc names $so for a static link" ;;
    *) bad "kifu.pc: libkifu.so needs lib$so, pkg-config --static --libs kifu says:$static_libs" ;; esac
done

# In a system prefix the tool has no RUNPATH (lintian's binary-or-shlib-defines-rpath);
# elsewhere it has one, to find the library beside it.
if command -v readelf >/dev/null; then
    readelf -d "$root/bin/kifu" | grep -q 'RUNPATH\|RPATH' && ok "RUNPATH under $prefix" ||
        bad "no RUNPATH under $prefix"
    if DESTDIR=$tmp/sys cmake --install "$build" --prefix /usr >"$tmp/sys.log" 2>&1; then
        readelf -d "$tmp/sys/usr/bin/kifu" | grep -q 'RUNPATH\|RPATH' &&
            bad "RUNPATH in /usr/bin/kifu: $(readelf -d "$tmp/sys/usr/bin/kifu" | grep PATH)" ||
            ok "no RUNPATH in /usr/bin/kifu"
    else
        bad "staged install to /usr"; cat "$tmp/sys.log"
    fi
fi

# The installed tool finds its library without LD_LIBRARY_PATH.
"$root/bin/kifu" --help >/dev/null 2>&1 && ok "installed kifu runs" || bad "installed kifu does not run"

for e in moves build_kif forks; do
    if $cc -std=c11 -Wall -Wextra -Werror "$src/examples/$e.c" $(pkg-config --cflags --libs kifu) \
        -Wl,-rpath,"$libdir" ${KIFU_EXTRA_LDFLAGS:-} -o "$tmp/$e" 2>"$tmp/$e.log"; then
        ok "example $e builds with pkg-config"
    else
        bad "example $e"; cat "$tmp/$e.log"
    fi
done
if $cc -std=c11 "$src/examples/moves.c" $(pkg-config --cflags kifu) "$libdir/libkifu.a" \
    $(pkg-config --static --libs-only-other --libs-only-L kifu) \
    $(pkg-config --static --libs kifu | tr ' ' '\n' | grep -- '^-l' | grep -v '^-lkifu$') \
    ${KIFU_EXTRA_LDFLAGS:-} -o "$tmp/moves_static" 2>"$tmp/static.log"; then
    ok "example moves links statically"
    nm "$tmp/moves_static" | grep -q ' T kifu_read_file$' && ok "static binary holds the library" ||
        bad "static binary does not hold kifu_read_file"
else
    bad "static link"; cat "$tmp/static.log"
fi

# Run them: build a record, read it back, compare with the installed tool.
"$tmp/build_kif" >"$tmp/game.kifu" && ok "build_kif writes KIF" || bad "build_kif"
out=$("$tmp/moves" "$tmp/game.kifu")
[ "$(printf '%s\n' "$out" | grep -c '☗\|☖')" -eq 5 ] && ok "moves prints 5 moves" || bad "moves: $out"
sfen=$(printf '%s\n' "$out" | sed -n 's/^sfen //p')
want=$("$root/bin/kifu" show --format sfen "$tmp/game.kifu" 2>/dev/null)
[ -n "$sfen" ] && [ "$sfen" = "$want" ] && ok "final SFEN equals kifu show's" ||
    bad "final SFEN '$sfen' vs kifu show '$want'"
"$tmp/moves_static" "$tmp/game.kifu" | grep -q "^sfen $want\$" && ok "static example agrees" ||
    bad "static example"
forks=$("$tmp/forks" "$src/samples/opening.kifu")
[ "$(printf '%s\n' "$forks" | grep -c '(fork)')" -ge 1 ] && ok "forks lists the fork" || bad "forks: $forks"
finish
