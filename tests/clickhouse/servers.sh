# servers.sh: start and stop private clickhouse-server processes for tests and the bench
# (sourced by run.sh and bench/clickhouse.sh). Each server gets a config written into its
# own directory, listens on 127.0.0.1 only, on free ports, and is stopped by its PID; the
# caller's EXIT trap runs ch_stop_all so that no server outlives the script. Never the
# system's data directories, never systemd.
#
#   ch_find_server                 the clickhouse-server binary, or nothing
#   ch_free_ports N                N distinct free TCP ports on 127.0.0.1
#   ch_start NAME DIR HTTP TCP INTER [XML]
#                                  start server NAME under DIR on those ports; XML goes
#                                  into its config (remote_servers); user "kifu" has the
#                                  password $CH_TEST_PASSWORD (default: kifu-test)
#   ch_ping PORT                   the server on that HTTP port answers
#   ch_query PORT SQL              run SQL there, print the answer
#   ch_stop NAME                   stop one server (SIGTERM, then SIGKILL after 2 s: its
#                                  data is thrown away, and 18.16 takes ~10 s to stop)
#   ch_stop_all
#   ch_watch_dir DIR               remove DIR once this shell is gone, even killed

CH_NAMES=()

ch_find_server() {
  local b
  for b in "$(command -v clickhouse-server 2>/dev/null)" /usr/sbin/clickhouse-server \
    /usr/bin/clickhouse-server; do
    if [ -n "$b" ] && [ -x "$b" ]; then
      echo "$b"
      return 0
    fi
  done
  return 1
}

# Ports nobody listens on now: the kernel's picks for ephemeral binds, all held open
# until every one is picked, so that they differ.
ch_free_ports() {
  python3 - "$1" <<'PY'
import socket, sys
socks = []
for _ in range(int(sys.argv[1])):
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    socks.append(s)
print(" ".join(str(s.getsockname()[1]) for s in socks))
PY
}

ch_ping() {
  [ "$(ch_query "$1" "SELECT 1" 2>/dev/null)" = 1 ]
}

ch_query() {
  python3 - "$1" "$2" <<'PY'
import sys, urllib.request
req = urllib.request.Request("http://127.0.0.1:%s/" % sys.argv[1], data=sys.argv[2].encode())
try:
    sys.stdout.write(urllib.request.urlopen(req, timeout=10).read().decode())
except Exception as e:
    sys.stderr.write("%s\n" % e)
    sys.exit(1)
PY
}

ch_start() {
  local name=$1 dir=$2 http=$3 tcp=$4 inter=$5 extra=${6:-}
  mkdir -p "$dir/data" "$dir/tmp" "$dir/log" "$dir/user_files"
  cat >"$dir/users.xml" <<EOF
<?xml version="1.0"?>
<yandex>
  <profiles><default></default></profiles>
  <users>
    <default>
      <password></password>
      <networks><ip>127.0.0.1</ip></networks>
      <profile>default</profile><quota>default</quota>
    </default>
    <kifu>
      <password>${CH_TEST_PASSWORD:-kifu-test}</password>
      <networks><ip>127.0.0.1</ip></networks>
      <profile>default</profile><quota>default</quota>
    </kifu>
  </users>
  <quotas><default></default></quotas>
</yandex>
EOF
  cat >"$dir/config.xml" <<EOF
<?xml version="1.0"?>
<yandex>
  <logger><level>warning</level><log>$dir/log/server.log</log><errorlog>$dir/log/error.log</errorlog><console>0</console></logger>
  <listen_host>127.0.0.1</listen_host>
  <http_port>$http</http_port>
  <tcp_port>$tcp</tcp_port>
  <interserver_http_port>$inter</interserver_http_port>
  <path>$dir/data/</path>
  <tmp_path>$dir/tmp/</tmp_path>
  <user_files_path>$dir/user_files/</user_files_path>
  <users_config>$dir/users.xml</users_config>
  <default_profile>default</default_profile>
  <default_database>default</default_database>
  <mark_cache_size>67108864</mark_cache_size>
  <max_concurrent_queries>50</max_concurrent_queries>
  $extra
</yandex>
EOF
  "$CH_SERVER" --config-file="$dir/config.xml" >"$dir/log/stdout.log" 2>&1 &
  local pid=$!
  echo "$pid" >"$dir/pid"
  # Should this shell be killed without running its traps (a test runner's time out),
  # a watchdog stops the server once the shell is gone.
  (
    trap '' INT TERM
    while kill -0 $$ 2>/dev/null && kill -0 "$pid" 2>/dev/null; do sleep 1; done
    kill "$pid" 2>/dev/null
  ) >/dev/null 2>&1 &
  CH_NAMES+=("$name:$dir")
  local i
  for i in $(seq 1 150); do
    if ch_ping "$http"; then
      return 0
    fi
    if ! kill -0 "$pid" 2>/dev/null; then
      echo "clickhouse-server $name exited at start:" >&2
      tail -5 "$dir/log/stdout.log" "$dir/log/error.log" >&2 2>/dev/null
      return 1
    fi
    sleep 0.1
  done
  echo "clickhouse-server $name did not answer on port $http within 15 s" >&2
  return 1
}

ch_stop() {
  local name=$1 entry dir pid i
  for entry in "${CH_NAMES[@]}"; do
    [ "${entry%%:*}" = "$name" ] || continue
    dir=${entry#*:}
    [ -f "$dir/pid" ] || return 0
    pid=$(cat "$dir/pid")
    kill "$pid" 2>/dev/null
    for i in $(seq 1 20); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
    kill -9 "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
    rm -f "$dir/pid"
  done
}

ch_stop_all() {
  local entry
  for entry in "${CH_NAMES[@]}"; do
    ch_stop "${entry%%:*}"
  done
}

ch_watch_dir() {
  (
    trap '' INT TERM
    while kill -0 $$ 2>/dev/null; do sleep 1; done
    rm -rf "$1"
  ) >/dev/null 2>&1 &
}
