#!/usr/bin/env bash
# tls.sh CH_CHECK KIFU: the index on ClickHouse over https. Makes a CA and server
# certificates with openssl in its temp dir, starts two private clickhouse-server
# processes with an https_port (127.0.0.1, free ports, configs in the temp dir, stopped by
# PID), and checks: kifu connects with --ca-file; refuses the server without the CA, and
# a certificate for another name (an openssl s_server of the test's own), each naming the
# cause; the writes' new connections resume the TLS session (one full handshake a
# command); --insecure-skip-tls-verify connects with a warning; --clickhouse-credentials
# (an owner-only file) logs in; the explorer over TLS answers what SQLite answers; the
# two-shard cluster over TLS answers what SQLite answers.
# Skips (77) when clickhouse-server or openssl is not installed (scripts/deps.sh
# clickhouse).
set -u
check=$1 kifu=$2
here=$(cd "$(dirname "$0")" && pwd)
. "$here/servers.sh"

if ! CH_SERVER=$(ch_find_server) || ! command -v openssl >/dev/null; then
  echo "skip: clickhouse-server and openssl are needed (run scripts/deps.sh clickhouse as root)"
  echo "0 passed, 0 failed, 1 skipped"
  exit 77
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kifu-tls.XXXXXX")
spid=
trap '[ -n "$spid" ] && kill "$spid" 2>/dev/null; ch_stop_all; rm -rf "$tmp"' EXIT
ch_watch_dir "$tmp"
trap 'exit 1' INT TERM
. "$here/checks.sh"
cd "$tmp" || exit 1

# A CA, a server certificate for 127.0.0.1 and localhost, one for another name.
# cert NAME SAN: NAME.key and NAME.pem, signed by the CA.
openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.pem -days 2 \
  -subj "/CN=kifu test CA" 2>openssl.log || { bad "openssl makes a CA: $(cat openssl.log)"; finish; }
cert() {
  openssl req -newkey rsa:2048 -nodes -keyout "$1.key" -out "$1.csr" -subj "/CN=$1" 2>>openssl.log &&
    printf 'subjectAltName=%s\n' "$2" >"$1.ext" &&
    openssl x509 -req -in "$1.csr" -CA ca.pem -CAkey ca.key -CAcreateserial -days 2 \
      -extfile "$1.ext" -out "$1.pem" 2>>openssl.log
}
cert server "IP:127.0.0.1,DNS:localhost" && cert other "DNS:other.invalid" ||
  { bad "openssl makes the certificates: $(cat openssl.log)"; finish; }
ok "a CA and certificates for 127.0.0.1 and for other.invalid"

read -r http_a tcp_a inter_a https_a http_b tcp_b inter_b https_b port_other \
  <<<"$(ch_free_ports 9)"
cluster="<remote_servers><kifu_two>
  <shard><replica><host>127.0.0.1</host><port>$tcp_a</port></replica></shard>
  <shard><replica><host>127.0.0.1</host><port>$tcp_b</port></replica></shard>
</kifu_two></remote_servers>"
tls="<openSSL><server>
  <certificateFile>$tmp/server.pem</certificateFile>
  <privateKeyFile>$tmp/server.key</privateKeyFile>
  <verificationMode>none</verificationMode>
  <loadDefaultCAFile>false</loadDefaultCAFile>
  <cacheSessions>true</cacheSessions>
  <disableProtocols>sslv2,sslv3,tlsv1,tlsv1_1</disableProtocols>
  <preferServerCiphers>true</preferServerCiphers>
</server></openSSL>"
ch_start a "$tmp/a" "$http_a" "$tcp_a" "$inter_a" "<https_port>$https_a</https_port>$tls$cluster" ||
  { bad "server a starts"; finish; }
ch_start b "$tmp/b" "$http_b" "$tcp_b" "$inter_b" "<https_port>$https_b</https_port>$tls$cluster" ||
  { bad "server b starts"; finish; }
url_a=https://127.0.0.1:$https_a url_b=https://127.0.0.1:$https_b
ok "two servers with https on 127.0.0.1:$https_a and :$https_b"

export KIFU_CLICKHOUSE_USER=kifu KIFU_CLICKHOUSE_PASSWORD=kifu-test
mkdir games
"$check" gen games 200 10 || { bad "collection generated"; finish; }
"$kifu" index build games -o games.kdb 2>err || bad "kifu index build: $(cat err)"

# Connects with --ca-file: builds the index over TLS, and the name localhost is in the
# certificate too.
ch="--clickhouse $url_a --database kifu_tls --ca-file $tmp/ca.pem"
"$kifu" index build games $ch 2>err && ok "kifu index build over https with --ca-file" ||
  bad "kifu index build over https with --ca-file: $(cat err)"
"$kifu" index info --clickhouse "https://localhost:$https_a" --database kifu_tls \
  --ca-file ca.pem >info.localhost 2>err && grep -q '^games  *200$' info.localhost &&
  ok "https://localhost: the certificate's other name" ||
  bad "https://localhost: $(cat err info.localhost)"

# Every write goes on a new connection (clickhouse_http.c): each resumes the TLS session of
# the one before (libcurl's share of sessions), one full handshake for the command.
# tls_count.c counts the handshakes of the process.
if ${CC:-cc} -shared -fPIC -o tls_count.so "$here/tls_count.c" 2>cc.log; then
  : >count
  # A sanitizer's runtime must come first in the preload list (ASan refuses to run else).
  rt=$(ldd "$kifu" 2>/dev/null | awk '/lib[at]san/ { printf "%s ", $3 }')
  KIFU_TLS_COUNT=$tmp/count LD_PRELOAD="$rt$tmp/tls_count.so" "$kifu" index add games \
    --clickhouse "$url_a" --database kifu_tls_resume --ca-file ca.pem 2>err ||
    bad "kifu index add over https: $(cat err)"
  read -r _ full _ resumed <count
  if [ "${full:-0}" = 1 ] && [ "${resumed:-0}" -ge 3 ]; then
    ok "writes over https resume the TLS session: 1 full handshake, $resumed resumed"
  else
    bad "TLS handshakes of an index add: $(cat count) (1 full and the others resumed expected)"
  fi
else
  echo "note: no C compiler, the handshakes are not counted: $(cat cc.log)"
fi

# Refused without the CA, and a certificate for another name, each saying why.
fails "without --ca-file the private CA's certificate is refused" \
  "certificate is not trusted" "--ca-file" -- \
  "$kifu" index info --clickhouse "$url_a" --database kifu_tls
openssl s_server -accept "127.0.0.1:$port_other" -cert other.pem -key other.key -www \
  -quiet >s_server.log 2>&1 &
spid=$!
for _ in $(seq 50); do
  python3 -c "import socket,sys; socket.create_connection(('127.0.0.1', int(sys.argv[1])), 1)" \
    "$port_other" 2>/dev/null && break
  sleep 0.1
done
fails "a certificate for another name is refused" \
  "certificate is not trusted" "target host name '127.0.0.1'" -- \
  "$kifu" index info --clickhouse "https://127.0.0.1:$port_other" --ca-file ca.pem --timeout 5
kill "$spid" 2>/dev/null; wait "$spid" 2>/dev/null; spid=
# (The handshake fails at once when the server answers the hello, or ends by the clock
# when it waits for a request line: either way the message names the port.)
fails "https to the http port says which port it is" "TLS" "https_port" -- \
  "$kifu" index info --clickhouse "https://127.0.0.1:$http_a" --database kifu_tls --timeout 20
fails "a CA file that is not there is named" "cannot use the CA file $tmp/none.pem" -- \
  "$kifu" index info $ch --ca-file "$tmp/none.pem"

# Testing only: no verification, and a warning every run.
if "$kifu" index info --clickhouse "$url_a" --database kifu_tls --insecure-skip-tls-verify \
  >out 2>err && grep -q '^games  *200$' out &&
  grep -q "warning: --insecure-skip-tls-verify: the ClickHouse server's certificate is not checked" err; then
  ok "--insecure-skip-tls-verify connects, with a warning"
else
  bad "--insecure-skip-tls-verify: $(cat out err)"
fi

# Credentials from an owner-only file, not the environment.
printf '# kifu test\nuser=kifu\npassword=kifu-test\n' >cred
chmod 600 cred
env -u KIFU_CLICKHOUSE_USER -u KIFU_CLICKHOUSE_PASSWORD \
  "$kifu" index info $ch --clickhouse-credentials cred >out 2>err &&
  grep -q '^games  *200$' out && ok "--clickhouse-credentials logs in" ||
  bad "--clickhouse-credentials: $(cat out err)"
printf 'user=kifu\npassword=wrong\n' >cred.bad
chmod 600 cred.bad
fails "a wrong password from the file is refused by the server" "HTTP 401" -- \
  env -u KIFU_CLICKHOUSE_USER -u KIFU_CLICKHOUSE_PASSWORD \
  "$kifu" index info $ch --clickhouse-credentials cred.bad
chmod 640 cred
fails "a credentials file others may read is refused" "chmod 600" -- \
  "$kifu" index info $ch --clickhouse-credentials cred

# The explorer over TLS prints what the explorer of the file prints.
: >explore.file; : >explore.tls
for pos in "" "--moves 7g7f" "--moves 7g7f 3c3d 2g2f" "--moves 5g5f 5c5d --flip" \
  "--moves 2g2f --player Sato" "--moves 7g7f 8c8d --since 2024-06-01 --json" \
  "--min-rating 1500 --no-games"; do
  "$kifu" explore games.kdb $pos >>explore.file 2>&1
  "$kifu" explore $ch $pos >>explore.tls 2>&1
done
same "kifu explore over https prints what kifu explore of the file prints" explore.file explore.tls
if grep -q '^kifu:' explore.file || [ "$(wc -l <explore.file)" -lt 30 ]; then
  bad "kifu explore of the file answered: $(head -5 explore.file)"
fi

# The two-shard cluster over TLS: the library's answers equal SQLite's, and kifu search.
export CH_POSITIONS=40 CH_CA_FILE=$tmp/ca.pem
"$check" build sqlite.kdb games >build.sqlite || bad "SQLite build"
"$check" dump sqlite.kdb games >dump.sqlite || bad "SQLite dump"
"$check" info sqlite.kdb >info.sqlite || bad "SQLite info"
export CH_DATABASE=kifu_cluster CH_CLUSTER=kifu_two
"$check" build "$url_a,$url_b" games >build.two 2>err || bad "cluster build: $(cat err)"
same "two shards over https: the build adds what SQLite adds" build.sqlite build.two
"$check" dump "$url_a,$url_b" games >dump.two 2>err || bad "cluster dump: $(cat err)"
same "two shards over https: explorer and search answers equal SQLite's" dump.sqlite dump.two
"$check" info "$url_a,$url_b" >info.two
same "two shards over https: info equals SQLite's" info.sqlite info.two
"$check" build "$url_a,$url_b" games >rebuild.two
grep -q '^added 0 unchanged 20 games 0 positions 0 replaced 0$' rebuild.two &&
  ok "two shards over https: adding the same files again adds nothing" ||
  bad "two shards over https: adding again: $(cat rebuild.two)"
na=$(ch_query "$http_a" "SELECT count() FROM kifu_cluster.kifu_positions_local")
nb=$(ch_query "$http_b" "SELECT count() FROM kifu_cluster.kifu_positions_local")
[ "${na:-0}" -gt 0 ] && [ "${nb:-0}" -gt 0 ] && ok "positions on both shards ($na and $nb)" ||
  bad "positions on both shards ($na, $nb)"
"$kifu" search --usi 'position startpos moves 7g7f 3c3d' --index games.kdb >search.kdb 2>&1
"$kifu" search --usi 'position startpos moves 7g7f 3c3d' --clickhouse "$url_a,$url_b" \
  --cluster kifu_two --database kifu_cluster --ca-file ca.pem >search.two 2>&1
same "kifu search over https on two shards prints what kifu search --index prints" \
  search.kdb search.two
[ -s search.kdb ] && ! grep -q '^kifu:' search.kdb && ok "the search finds something" ||
  bad "the search: $(head -3 search.kdb)"

ch_stop_all
left=0
for d in "$tmp/a" "$tmp/b"; do [ -f "$d/pid" ] && left=1; done
pgrep -f "$tmp/" >/dev/null && left=1
[ $left = 0 ] && ok "no server left running" || bad "no server left running"
finish
