# ch_query.bash: ix_ch_query SQL, sourced by the index tests' helpers (index_lib.bash,
# kifu_on_clickhouse.bash): the SQL run on the ClickHouse server at $KIFU_TEST_INDEX, its
# answer on stdout, non-zero on failure.
ix_ch_query() { # SQL: run it on the server; the answer on stdout, non-zero on failure
    if command -v curl >/dev/null; then # (python3 takes ~0.7 s to import urllib)
        curl -sS --fail-with-body --max-time 60 --data-binary "$1" "$KIFU_TEST_INDEX"/
        return
    fi
    python3 - "$KIFU_TEST_INDEX" "$1" <<'PY'
import sys, urllib.request
try:
    sys.stdout.write(urllib.request.urlopen(urllib.request.Request(
        sys.argv[1] + "/", data=sys.argv[2].encode()), timeout=60).read().decode())
except Exception as e:
    sys.stderr.write("%s: %s\n" % (sys.argv[2][:80], e))
    sys.exit(1)
PY
}
