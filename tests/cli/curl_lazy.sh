#!/usr/bin/env bash
# curl_lazy.sh: libcurl is loaded only by a command that uses a ClickHouse URL (issue 27):
# neither libkifu.so nor the tool names it (readelf, ldd), a command without ClickHouse
# maps no libcurl (the loader's own account, LD_DEBUG=libs), and one with a ClickHouse URL
# does load it and gets to the server (a refused connection, named, exit non-zero).
# libmicrohttpd likewise: linked by nothing, mapped only by `kifu serve` (serve_mhd.c),
# and a library of that name without its functions is named, not run.
# Usage: curl_lazy.sh KIFU_BINARY [SHARED_DIR]
set -u
kifu=$1
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d /tmp/kifu-cli-curl-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
. "$here/lib.bash"
if ! command -v readelf >/dev/null || ! command -v ldd >/dev/null; then
    echo "skip: readelf and ldd are needed (binutils, libc-bin)"
    echo "0 passed, 0 failed, 1 skipped"
    exit 77
fi

# Linked against nothing of libcurl's: the library, and the tool with all it pulls in.
lib=$(ldd "$kifu" | sed -n 's/^[[:space:]]*libkifu\.so[^ ]* => \([^ ]*\) .*/\1/p')
[ -n "$lib" ] && [ -f "$lib" ] && ok || bad "ldd names no libkifu.so for $kifu: $(ldd "$kifu")"
if [ -n "$lib" ]; then
    needed=$(readelf -d "$lib" | grep NEEDED)
    case $needed in *NEEDED*) ok ;; *) bad "readelf -d $lib shows no NEEDED at all" ;; esac
    case $needed in *libcurl*) bad "libkifu.so needs libcurl: $needed" ;; *) ok ;; esac
fi
n=$(ldd "$kifu" | grep -c "libcurl")
[ "$n" = 0 ] && ok || bad "ldd $kifu lists libcurl: $(ldd "$kifu" | grep libcurl)"

# Commands without ClickHouse map no libcurl.
cp "$here/../../samples/opening.kifu" "$tmp/game.kifu"
loaded() { grep -c 'find library=libcurl\.so\.4' "$1"; }
LD_DEBUG=libs "$kifu" convert -t jkf -o - "$tmp/game.kifu" >"$tmp/out" 2>"$tmp/debug"
rc=$?
[ "$rc" = 0 ] && [ -s "$tmp/out" ] && ok || bad "kifu convert: exit $rc: $(tail -3 "$tmp/debug")"
# (the loader's account is there: the check below can tell)
grep -q 'find library=libc\.so\.6' "$tmp/debug" && ok || bad "LD_DEBUG=libs wrote nothing"
[ "$(loaded "$tmp/debug")" = 0 ] && ok || bad "kifu convert loaded libcurl"
LD_DEBUG=libs "$kifu" -V >/dev/null 2>"$tmp/debug.v"
[ "$(loaded "$tmp/debug.v")" = 0 ] && ok || bad "kifu -V loaded libcurl"
"$kifu" index build "$tmp/game.kifu" -o "$tmp/g.kdb" 2>"$tmp/err" || bad "index build: $(cat "$tmp/err")"
LD_DEBUG=libs "$kifu" explore "$tmp/g.kdb" >/dev/null 2>"$tmp/debug.x"
[ "$(loaded "$tmp/debug.x")" = 0 ] && ok || bad "kifu explore of a file loaded libcurl"

# A ClickHouse URL loads it, once, and the request gets out: port 1 on loopback refuses.
LD_DEBUG=libs "$kifu" index info --clickhouse http://127.0.0.1:1 --timeout 5 \
    >/dev/null 2>"$tmp/debug.ch"
rc=$?
[ "$rc" -ne 0 ] && [ "$rc" -lt 128 ] && ok || bad "index info on a closed port: exit $rc"
[ "$(loaded "$tmp/debug.ch")" = 1 ] && ok ||
    bad "a ClickHouse URL did not load libcurl once: $(grep -c 'find library=libcurl' "$tmp/debug.ch") times"
grep -v '^ *[0-9]*:' "$tmp/debug.ch" >"$tmp/err.ch"
grep -q 'cannot connect: Connection refused' "$tmp/err.ch" && ok ||
    bad "no refused connection named: $(cat "$tmp/err.ch")"

# libmicrohttpd: not linked, not loaded by other commands, loaded by serve.
n=$(ldd "$kifu" | grep -c "libmicrohttpd")
[ "$n" = 0 ] && ok || bad "ldd $kifu lists libmicrohttpd: $(ldd "$kifu" | grep libmicrohttpd)"
mhd() { grep -c 'find library=libmicrohttpd\.so\.12' "$1"; }
[ "$(mhd "$tmp/debug.v")" = 0 ] && ok || bad "kifu -V loaded libmicrohttpd"
[ "$(mhd "$tmp/debug.x")" = 0 ] && ok || bad "kifu explore loaded libmicrohttpd"
if serve_start "$tmp/serve.out" "$tmp/serve.err" "$tmp/g.kdb"; then
    grep -q 'libmicrohttpd' "/proc/$pid/maps" && ok || bad "kifu serve has no libmicrohttpd mapped"
    kill -TERM "$pid"
    wait "$pid"
    check "kifu serve stopped by TERM" 0 $?
else
    bad "kifu serve printed no URL: $(cat "$tmp/serve.err")"
    kill -KILL "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
fi
# A library of that name without its functions: named, exit 3, no server.
if command -v "${CC:-cc}" >/dev/null; then
    mkdir -p "$tmp/fake"
    echo 'int kifu_not_microhttpd;' >"$tmp/fake/f.c"
    "${CC:-cc}" -shared -fPIC -o "$tmp/fake/libmicrohttpd.so.12" "$tmp/fake/f.c"
    LD_LIBRARY_PATH="$tmp/fake${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
        "$kifu" serve "$tmp/g.kdb" --listen 127.0.0.1:0 >"$tmp/fake.out" 2>"$tmp/fake.err"
    check "serve with a library without its functions" 3 $?
    grep -q 'libmicrohttpd.so.12 is not the libmicrohttpd kifu serve needs: .*MHD_start_daemon' \
        "$tmp/fake.err" && ok || bad "the missing function not named: $(cat "$tmp/fake.err")"
    [ -s "$tmp/fake.out" ] && bad "a URL printed without a server: $(cat "$tmp/fake.out")" || ok
else
    echo "skip: no C compiler for the stand-in library"
fi

echo "curl_lazy: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
