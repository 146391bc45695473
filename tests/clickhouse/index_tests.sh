#!/usr/bin/env bash
# index_tests.sh KIFU CLI_DIR [TEST_INDEX]: the index tests of tests/cli (index.sh,
# players.sh, tag_index.sh) and the unit test test_index run unchanged against ClickHouse: one private clickhouse-server (servers.sh: a config in a
# temp dir, 127.0.0.1, free ports, stopped by PID) and KIFU_TEST_INDEX set to it, so that
# every index file a test names is a database of its own there (index_lib.bash,
# t_index_open in tests/unit/testutil.c). What is by nature the SQLite file's is skipped
# by those tests with a reason each. test_index_lock (the file's writer lock) and
# dataloss.sh (WAL, locks, kills, temp files of the file) are SQLite's alone.
# Skips (77) only when clickhouse-server is not installed (scripts/deps.sh clickhouse).
set -u
kifu=$1 cli=$2 unit=${3:-}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/servers.sh"

if ! CH_SERVER=$(ch_find_server); then
  echo "skip: clickhouse-server is not installed (run scripts/deps.sh clickhouse as root)"
  echo "0 passed, 0 failed, 1 skipped"
  exit 77
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kifu-chix.XXXXXX")
trap 'ch_stop_all; rm -rf "$tmp"' EXIT
ch_watch_dir "$tmp"
trap 'exit 1' INT TERM

read -r http tcp inter <<<"$(ch_free_ports 3)"
ch_start a "$tmp/a" "$http" "$tcp" "$inter" || { echo "FAILED: the server starts"; exit 1; }
export KIFU_TEST_INDEX=http://127.0.0.1:$http
unset KIFU_CLICKHOUSE_USER KIFU_CLICKHOUSE_PASSWORD

failed=0
for t in ${KIFU_TEST_ONLY:-index players tag_index}; do
  echo "== $t.sh on ClickHouse"
  bash "$cli/$t.sh" "$kifu"
  rc=$?
  echo "== $t.sh: exit $rc [${SECONDS}s]"
  [ $rc -eq 0 ] || failed=$((failed + 1))
done
if [ -n "$unit" ] && [ -z "${KIFU_TEST_ONLY:-}" ]; then
  echo "== $(basename "$unit") on ClickHouse"
  "$unit"
  rc=$?
  echo "== $(basename "$unit"): exit $rc [${SECONDS}s]"
  [ $rc -eq 0 ] || failed=$((failed + 1))
fi
echo "index tests on ClickHouse: $failed script(s) failed"
[ $failed -eq 0 ]
