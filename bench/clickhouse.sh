#!/usr/bin/env bash
# bench/clickhouse.sh KIFU_BENCH [ARGS...]: run kifu_bench with a private ClickHouse server
# for its index section (--clickhouse URL), when clickhouse-server is installed; else
# kifu_bench alone. The server listens on 127.0.0.1 on free ports, keeps its data in a
# temp dir, and is stopped by PID when the bench ends (tests/clickhouse/servers.sh).
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../tests/clickhouse/servers.sh"
bench=$1
shift
if ! CH_SERVER=$(ch_find_server); then
  exec "$bench" "$@"
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kifu-bench-ch.XXXXXX")
trap 'ch_stop_all; rm -rf "$tmp"' EXIT
ch_watch_dir "$tmp"
trap 'exit 1' INT TERM
read -r http tcp inter <<<"$(ch_free_ports 3)"
# The cache of decompressed blocks, as Debian's config.xml sizes it (servers.sh's test
# config has none): the explorer's point queries ask for it (use_uncompressed_cache=1).
ch_start bench "$tmp/server" "$http" "$tcp" "$inter" \
  "<uncompressed_cache_size>8589934592</uncompressed_cache_size>" || exit 1
"$bench" --clickhouse "http://127.0.0.1:$http" "$@"
