#!/usr/bin/env bash
# run.sh CH_CHECK KIFU: the index on ClickHouse against the SQLite index. Starts two private
# clickhouse-server processes (127.0.0.1, free ports, configs in a temp dir), uses the
# first as a single server and both as the two shards of cluster kifu_two, and checks:
# the same generated collection indexed into SQLite, the single server and the cluster
# gives identical explorer and exact-search answers for a set of positions, and kifu
# search prints the same for positions and patterns as with the file; adding the
# same files again changes no count; credentials come from the environment; a stopped
# shard is named in the error; a batch cut between its inserts is invisible to every reader
# until the next add repairs it; an index of schema 1, 2 or 3 is refused; compacting folds
# the latest table. Every server is stopped by PID on exit.
# Skips (77) only when clickhouse-server is not installed (scripts/deps.sh clickhouse).
set -u
check=$1 kifu=${2:-}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/servers.sh"

if ! CH_SERVER=$(ch_find_server); then
  echo "skip: clickhouse-server is not installed (run scripts/deps.sh clickhouse as root)"
  echo "0 passed, 0 failed, 1 skipped"
  exit 77
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kifu-ch.XXXXXX")
trap 'ch_stop_all; rm -rf "$tmp"' EXIT
ch_watch_dir "$tmp"
trap 'exit 1' INT TERM

. "$here/checks.sh"

read -r http_a tcp_a inter_a http_b tcp_b inter_b <<<"$(ch_free_ports 6)"
cluster="<remote_servers><kifu_two>
  <shard><replica><host>127.0.0.1</host><port>$tcp_a</port></replica></shard>
  <shard><replica><host>127.0.0.1</host><port>$tcp_b</port></replica></shard>
</kifu_two></remote_servers>"
ch_start a "$tmp/a" "$http_a" "$tcp_a" "$inter_a" "$cluster" || { bad "server a starts"; finish; }
ch_start b "$tmp/b" "$http_b" "$tcp_b" "$inter_b" "$cluster" || { bad "server b starts"; finish; }
ok "two servers answer on 127.0.0.1:$http_a and :$http_b"
url_a=http://127.0.0.1:$http_a url_b=http://127.0.0.1:$http_b

# Credentials: user kifu from the environment; a wrong password is refused.
export KIFU_CLICKHOUSE_USER=kifu KIFU_CLICKHOUSE_PASSWORD=kifu-test
mkdir -p "$tmp/games" "$tmp/more"
"$check" gen "$tmp/games" 400 10 || { bad "collection generated"; finish; }
"$check" gen "$tmp/more" 20 10 && mv "$tmp/more/c00000.csa" "$tmp/more/m0.csa" &&
  mv "$tmp/more/c00001.csa" "$tmp/more/m1.csa"
export CH_POSITIONS=40

"$check" build "$tmp/games.kdb" "$tmp/games" >"$tmp/build.sqlite" || bad "SQLite build"
"$check" dump "$tmp/games.kdb" "$tmp/games" >"$tmp/dump.sqlite" || bad "SQLite dump"
"$check" info "$tmp/games.kdb" >"$tmp/info.sqlite" || bad "SQLite info"
asked=$(grep -c '^position' "$tmp/dump.sqlite")
echo "SQLite: $(cat "$tmp/build.sqlite"); $asked positions asked"
[ "$asked" = "$CH_POSITIONS" ] || bad "the dump asks about $CH_POSITIONS positions"

# use_target single|cluster PREFIX: urls, CH_DATABASE (PREFIX_single or PREFIX_cluster)
# and CH_CLUSTER for the single server or the two-shard cluster.
use_target() {
  if [ "$1" = single ]; then
    urls=$url_a
    export CH_DATABASE=$2_single CH_CLUSTER=
  else
    urls=$url_a,$url_b
    export CH_DATABASE=$2_cluster CH_CLUSTER=kifu_two
  fi
}

for target in single cluster; do
  use_target $target kifu
  "$check" build "$urls" "$tmp/games" >"$tmp/build.$target" 2>"$tmp/err"
  same "$target: build adds what SQLite adds" "$tmp/build.sqlite" "$tmp/build.$target"
  "$check" dump "$urls" "$tmp/games" >"$tmp/dump.$target" 2>"$tmp/err" ||
    bad "$target: dump: $(cat "$tmp/err")"
  same "$target: explorer and search answers equal SQLite's" "$tmp/dump.sqlite" \
    "$tmp/dump.$target"
  "$check" info "$urls" >"$tmp/info.$target"
  same "$target: games, positions, sources, hot positions equal SQLite's" \
    "$tmp/info.sqlite" "$tmp/info.$target"
  "$check" build "$urls" "$tmp/games" >"$tmp/rebuild.$target"
  if grep -q '^added 0 unchanged 40 games 0 positions 0 replaced 0$' "$tmp/rebuild.$target"; then
    ok "$target: adding the same files again adds nothing"
  else
    bad "$target: adding the same files again adds nothing ($(cat "$tmp/rebuild.$target"))"
  fi
  "$check" info "$urls" >"$tmp/info2.$target"
  "$check" dump "$urls" "$tmp/games" >"$tmp/dump2.$target" || bad "$target: dump again"
  same "$target: counts unchanged after the re-run" "$tmp/dump.sqlite" "$tmp/dump2.$target"
  same "$target: info unchanged after the re-run" "$tmp/info.sqlite" "$tmp/info2.$target"
done

# A changed file is replaced, not skipped: its old games' rows and counts go, the new
# ones come, as in the SQLite index. Three files indexed, then the middle one gets other
# games (and the last one is added with it in the same add).
mkdir -p "$tmp/chg"
cp "$tmp/games/c00000.csa" "$tmp/games/c00001.csa" "$tmp/chg/"
"$check" build "$tmp/chg.kdb" "$tmp/chg" >/dev/null || bad "SQLite build of chg"
for target in single cluster; do
  use_target $target kifu_chg
  "$check" build "$urls" "$tmp/chg" >/dev/null 2>"$tmp/err" || bad "$target: build chg: $(cat "$tmp/err")"
done
cp "$tmp/more/m0.csa" "$tmp/chg/c00001.csa"
cp "$tmp/games/c00002.csa" "$tmp/chg/"
# The old content's positions are asked too: their counts and games must be gone.
mkdir -p "$tmp/chg-old"
cp "$tmp/games/c00001.csa" "$tmp/chg-old/"
"$check" build "$tmp/chg.kdb" "$tmp/chg" >"$tmp/chg.build.sqlite" || bad "SQLite add of chg"
{ "$check" dump "$tmp/chg.kdb" "$tmp/chg"; "$check" dump "$tmp/chg.kdb" "$tmp/chg-old"; } \
  >"$tmp/chg.dump.sqlite"
"$check" info "$tmp/chg.kdb" >"$tmp/chg.info.sqlite"
grep -q '^added 1 unchanged 1 games 20 .* replaced 1$' "$tmp/chg.build.sqlite" ||
  bad "SQLite replaces the changed file: $(cat "$tmp/chg.build.sqlite")"
for target in single cluster; do
  use_target $target kifu_chg
  "$check" build "$urls" "$tmp/chg" >"$tmp/chg.build.$target" 2>"$tmp/err" ||
    bad "$target: add of the changed file: $(cat "$tmp/err")"
  same "$target: a changed file is replaced as SQLite replaces it" \
    "$tmp/chg.build.sqlite" "$tmp/chg.build.$target"
  { "$check" dump "$urls" "$tmp/chg" && "$check" dump "$urls" "$tmp/chg-old"; } \
    >"$tmp/chg.dump.$target" 2>"$tmp/err" || bad "$target: dump chg: $(cat "$tmp/err")"
  same "$target: after the replacement, explorer and search answers equal SQLite's" \
    "$tmp/chg.dump.sqlite" "$tmp/chg.dump.$target"
  "$check" info "$urls" >"$tmp/chg.info.$target"
  same "$target: after the replacement, games, positions, sources equal SQLite's" \
    "$tmp/chg.info.sqlite" "$tmp/chg.info.$target"
done

# The tool: kifu index build|add|info and kifu explore with --clickhouse print what they
# print with the file.
if [ -n "$kifu" ]; then
  ch="--clickhouse $url_a --database kifu_cli"
  "$kifu" index build "$tmp/games" -o "$tmp/cli.kdb" 2>"$tmp/err" || bad "kifu index build: $(cat "$tmp/err")"
  "$kifu" index build "$tmp/games" $ch 2>"$tmp/err" || bad "kifu index build --clickhouse: $(cat "$tmp/err")"
  "$kifu" index add "$tmp/games" $ch 2>"$tmp/err" || bad "kifu index add --clickhouse: $(cat "$tmp/err")"
  : >"$tmp/explore.file"; : >"$tmp/explore.ch"
  for pos in "" "--moves 7g7f" "--moves 7g7f 3c3d 2g2f" "--moves 5g5f 5c5d --flip" \
    "--moves 2g2f --player Sato" "--moves 7g7f 8c8d --since 2024-06-01 --json" \
    "--moves 7g7f --player-like SAT --color gote" "--min-rating 1500 --no-games"; do
    "$kifu" explore "$tmp/cli.kdb" $pos >>"$tmp/explore.file" 2>&1
    "$kifu" explore $ch $pos >>"$tmp/explore.ch" 2>&1
  done
  same "kifu explore --clickhouse prints what kifu explore of the file prints" \
    "$tmp/explore.file" "$tmp/explore.ch"
  if grep -q '^kifu:' "$tmp/explore.file" || [ "$(wc -l <"$tmp/explore.file")" -lt 40 ]; then
    bad "kifu explore of the file answered: $(head -5 "$tmp/explore.file")"
  fi
  # kifu search --clickhouse prints what kifu search --index of the file prints, and what
  # the plain search of the files prints: positions (exact, by key) and patterns (every
  # stored game replayed), on the single server and on the two-shard cluster.
  # The pattern: sente's king on 7八 (the generated games castle there), from mino.txt.
  sed -e '/|八$/s/.*/| * * 玉 * * * * * *|八/' -e '/|九$/s/.*/| * * * * * * * * *|九/' \
    "$here/../../docs/patterns/mino.txt" >"$tmp/k78.txt"
  : >"$tmp/search.file"; : >"$tmp/search.kdb"; : >"$tmp/search.ch"; : >"$tmp/search.two"
  ms_file=0 ms_kdb=0 ms_ch=0 ms_two=0
  now() { date +%s%3N; }
  while IFS= read -r q; do
    eval "set -- $q"
    echo "== $q" | tee -a "$tmp/search.file" "$tmp/search.kdb" "$tmp/search.ch" \
      >>"$tmp/search.two"
    t=$(now)
    "$kifu" search "$@" "$tmp/games" >>"$tmp/search.file" 2>&1
    echo "exit $?" >>"$tmp/search.file"
    ms_file=$((ms_file + $(now) - t))
    t=$(now)
    "$kifu" search "$@" --index "$tmp/cli.kdb" >>"$tmp/search.kdb" 2>&1
    echo "exit $?" >>"$tmp/search.kdb"
    ms_kdb=$((ms_kdb + $(now) - t))
    t=$(now)
    "$kifu" search "$@" $ch >>"$tmp/search.ch" 2>&1
    echo "exit $?" >>"$tmp/search.ch"
    ms_ch=$((ms_ch + $(now) - t))
    t=$(now)
    "$kifu" search "$@" --clickhouse "$url_a,$url_b" --database kifu_cluster \
      --cluster kifu_two >>"$tmp/search.two" 2>&1
    echo "exit $?" >>"$tmp/search.two"
    ms_two=$((ms_two + $(now) - t))
  done <<QUERIES
--sfen startpos --first -c
--usi 'position startpos moves 7g7f'
--usi 'position startpos moves 7g7f 3c3d 2g2f' --json
--usi 'position startpos moves 2g2f 3c3d 7g7f' -l
--usi 'position startpos moves 7g7f 3c3d 2g2f' --any-side -c
--usi 'position startpos moves 7g7f 3c3d' --board-only
--usi 'position startpos moves 9g9f 9c9d 1g1f 1c1d'
--pattern $tmp/k78.txt --both-sides --first
--pattern $tmp/k78.txt -c
--regex 'u.{8}m' --first -l
--regex 'oooooooooo.{30}a' --json
QUERIES
  echo "11 searches took: files $ms_file ms, .kdb $ms_kdb ms, server $ms_ch ms, cluster $ms_two ms"
  same "kifu search --index prints what the search of the files prints" \
    "$tmp/search.file" "$tmp/search.kdb"
  same "kifu search --clickhouse (single server) prints what kifu search --index prints" \
    "$tmp/search.kdb" "$tmp/search.ch"
  same "kifu search --clickhouse (two-shard cluster) prints what kifu search --index prints" \
    "$tmp/search.kdb" "$tmp/search.two"
  hitq=$(grep -c '^exit 0$' "$tmp/search.kdb")
  if [ "$hitq" = 10 ] && ! grep -q '^kifu:' "$tmp/search.kdb"; then
    ok "the searches find something ($hitq of 11 queries, $(wc -l <"$tmp/search.kdb") lines)"
  else
    bad "the searches find something ($hitq of 11, not 10): $(grep -m3 '^kifu:' "$tmp/search.kdb")"
  fi
  "$kifu" index players "$tmp/cli.kdb" --json >"$tmp/players.file" 2>&1
  "$kifu" index players $ch --json >"$tmp/players.ch" 2>&1
  same "kifu index players --clickhouse prints what kifu index players of the file prints" \
    "$tmp/players.file" "$tmp/players.ch"
  [ "$(wc -l <"$tmp/players.file")" -ge 2 ] && ok "index players lists players" ||
    bad "index players: $(head -3 "$tmp/players.file")"
  # Tags (schema 3): explore, search and index players with --tag answer on the server
  # and on the two-shard cluster what they answer from the file (the generated games are
  # 居飛車 or 振り飛車 on each side, 相居飛車, 対抗形 or 相振り飛車 as games).
  two="--clickhouse $url_a,$url_b --database kifu_cluster --cluster kifu_two"
  : >"$tmp/tags.file"; : >"$tmp/tags.ch"; : >"$tmp/tags.two"
  while IFS='|' read -r cmd args; do
    case $cmd in
    search) file=(search --index "$tmp/cli.kdb") ;;
    *) file=($cmd "$tmp/cli.kdb") ;;
    esac
    echo "== $cmd $args" | tee -a "$tmp/tags.file" "$tmp/tags.ch" >>"$tmp/tags.two"
    eval "\"\$kifu\" \"\${file[@]}\" $args" >>"$tmp/tags.file" 2>&1
    eval "\"\$kifu\" $cmd $args $ch" >>"$tmp/tags.ch" 2>&1
    eval "\"\$kifu\" $cmd $args $two" >>"$tmp/tags.two" 2>&1
  done <<TAGQ
explore|--tag 居飛車
explore|--moves 7g7f --tag gote:振り飛車 --flip --json
explore|--tag 対抗形 --player-like SAT
search|--sfen startpos --tag 居飛車 --json
search|--usi 'position startpos moves 7g7f' --tag sente:振り飛車 --tag 対抗形 -l
index players|--tag gote:居飛車 --json
TAGQ
  same "--tag on the server answers as the file" "$tmp/tags.file" "$tmp/tags.ch"
  same "--tag on the cluster answers as the file" "$tmp/tags.file" "$tmp/tags.two"
  [ "$(grep -c '"tags":\[{' "$tmp/tags.file")" -ge 2 ] && ! grep -q '^kifu:' "$tmp/tags.file" &&
    ok "the tag queries find tagged games" || bad "the tag queries: $(head -c 600 "$tmp/tags.file")"
  "$kifu" index info "$tmp/cli.kdb" | head -4 >"$tmp/info.file"
  "$kifu" index info $ch | head -4 >"$tmp/info.ch"
  same "kifu index info --clickhouse: games, positions, hot, files as the file's (after a second add)" \
    "$tmp/info.file" "$tmp/info.ch"
  # Each game once on both: more/ repeats games/'s first 20 games (its two renamed files
  # too), so an add of it adds nothing to either.
  "$kifu" index add "$tmp/cli.kdb" "$tmp/more" 2>"$tmp/err" || bad "kifu index add more: $(cat "$tmp/err")"
  "$kifu" index add "$tmp/more" $ch 2>"$tmp/err" || bad "kifu index add more --clickhouse: $(cat "$tmp/err")"
  "$kifu" index info "$tmp/cli.kdb" | head -3 >"$tmp/info.file"
  "$kifu" index info $ch | head -3 >"$tmp/info.ch"
  same "each game once: kifu index info --clickhouse after an add of duplicates as the file's" \
    "$tmp/info.file" "$tmp/info.ch"
  grep -q "^duplicates 20 " <("$kifu" index info "$tmp/cli.kdb") && ok "the file counts 20 duplicates" ||
    bad "the file's duplicates: $("$kifu" index info "$tmp/cli.kdb")"
  "$kifu" index schema --clickhouse --cluster kifu_two >"$tmp/schema.sql"
  [ "$(grep -c 'ENGINE = Distributed(`kifu_two`' "$tmp/schema.sql")" = 4 ] &&
    ok "kifu index schema --clickhouse --cluster prints the Distributed tables" ||
    bad "kifu index schema --clickhouse --cluster: $(cat "$tmp/schema.sql")"
fi

# The cluster really spreads positions over both shards, by key.
na=$(ch_query "$http_a" "SELECT count() FROM kifu_cluster.kifu_positions_local")
nb=$(ch_query "$http_b" "SELECT count() FROM kifu_cluster.kifu_positions_local")
odd=$(ch_query "$http_b" "SELECT countIf(key % 2 = 0) FROM kifu_cluster.kifu_positions_local")
if [ "${na:-0}" -gt 0 ] && [ "${nb:-0}" -gt 0 ] && [ "$odd" = 0 ]; then
  ok "positions on both shards ($na and $nb), keys sharded by key modulo 2"
else
  bad "positions on both shards ($na, $nb, $odd misplaced)"
fi

fails "a wrong password from the environment is refused" \
  "ch_check: info: ClickHouse server $url_a: HTTP 401: Code: 193" "Wrong password for user kifu" -- \
  env KIFU_CLICKHOUSE_PASSWORD=wrong CH_DATABASE=kifu_single CH_CLUSTER= \
  "$check" info "$url_a"
fails "credentials in a URL are refused" "no credentials in the URL" -- \
  env CH_DATABASE=kifu_single CH_CLUSTER= "$check" info "http://kifu:x@127.0.0.1:$http_a"

# A shard down: queries and adds name it.
ch_stop b
export CH_DATABASE=kifu_cluster CH_CLUSTER=kifu_two
start=$(date +%s)
fails "explorer with shard 2 down names it" "shard 2 ($url_b) is down" -- \
  "$check" dump "$url_a,$url_b" "$tmp/games"
fails "add with shard 2 down names it" "shard 2 ($url_b) is down" -- \
  "$check" build "$url_a,$url_b" "$tmp/more"
echo "shard-down checks took $(($(date +%s) - start)) s"

# Shard 2 stops in the middle of a batch: shard 1 has the batch's positions (and their
# counts), no shard its games. Once shard 2 is back, the next add repairs the batch from
# the journal and adds the games once: the answers equal SQLite's over both collections.
ch_start b "$tmp/b" "$http_b" "$tcp_b" "$inter_b" "$cluster" || bad "server b starts again"
pid_b=$(cat "$tmp/b/pid")
fails "a batch with shard 2 stopped fails there" \
  "shard 2: ClickHouse server $url_b: cannot connect" "(after 3 tries)" -- \
  env CH_CHECK_BEFORE_FLUSH="kill -9 $pid_b; while kill -0 $pid_b 2>/dev/null; do sleep 0.1; done" \
  "$check" build "$url_a,$url_b" "$tmp/more"
half=$(ch_query "$http_a" "SELECT count() FROM kifu_cluster.kifu_positions_local WHERE game > 400")
echo "positions of the failed batch left on shard 1: $half"
ch_start b "$tmp/b" "$http_b" "$tcp_b" "$inter_b" "$cluster" || bad "server b starts again"
# Until then the failed batch is invisible: the cluster answers as before it.
CH_POSITIONS=10 "$check" dump "$tmp/games.kdb" "$tmp/games" >"$tmp/dump10.sqlite"
CH_POSITIONS=10 "$check" dump "$url_a,$url_b" "$tmp/games" >"$tmp/dump10.half" 2>&1
same "a batch failed on shard 2 is invisible: answers as before it" "$tmp/dump10.sqlite" \
  "$tmp/dump10.half"
"$check" info "$url_a,$url_b" >"$tmp/info.half"
same "a batch failed on shard 2 is invisible: info as before it" "$tmp/info.sqlite" \
  "$tmp/info.half"
"$check" build "$tmp/games.kdb" "$tmp/more" >/dev/null
"$check" dump "$tmp/games.kdb" "$tmp/games" >"$tmp/dump.sqlite2" || bad "SQLite dump 2"
"$check" info "$tmp/games.kdb" >"$tmp/info.sqlite2"
"$check" build "$url_a,$url_b" "$tmp/more" >"$tmp/build.repair" 2>"$tmp/err" || cat "$tmp/err"
if [ "${half:-0}" -gt 0 ] && grep -q '^added 2 unchanged 0 games 20 ' "$tmp/build.repair"; then
  ok "the next add repairs the batch and adds its 20 games"
else
  bad "the next add repairs the batch and adds its 20 games ($half; $(cat "$tmp/build.repair"))"
fi
"$check" dump "$url_a,$url_b" "$tmp/games" >"$tmp/dump.repair" || bad "dump after the repair"
same "after the repair: answers equal SQLite's" "$tmp/dump.sqlite2" "$tmp/dump.repair"
"$check" info "$url_a,$url_b" >"$tmp/info.repair"
same "after the repair: info equals SQLite's" "$tmp/info.sqlite2" "$tmp/info.repair"
ch_stop b

# A batch cut between its positions and its games (issue 28): the server fails the games
# INSERT (the table is renamed away once the index is open, and back after the failure),
# leaving the batch's positions, counts and latest games written and its journal started,
# not done. Readers (the explorer, exact and pattern search, info, kifu explore, search and
# index info) see the index exactly as before, until the next add repairs the batch and
# adds its games once; adding again then adds nothing.
if [ -n "$kifu" ]; then
  export CH_DATABASE=kifu_single CH_CLUSTER=
  ch="--clickhouse $url_a --database kifu_single"
  readers() { # readers OUT: what every reader prints
    {
      "$check" dump "$url_a" "$tmp/games"
      "$check" info "$url_a"
      for pos in "" "--moves 7g7f" "--moves 7g7f 3c3d 2g2f --json" "--moves 2g2f --player Sato"; do
        "$kifu" explore $ch $pos
      done
      "$kifu" search --usi 'position startpos moves 7g7f 3c3d' $ch -l
      "$kifu" search --pattern "$tmp/k78.txt" -c $ch
      "$kifu" index info $ch | head -4
    } >"$1" 2>&1
  }
  readers "$tmp/cut.before"
  printf '. "%s/servers.sh"\nch_query %s "RENAME TABLE kifu_single.$1 TO kifu_single.$2"\n' \
    "$here" "$http_a" >"$tmp/rename.sh"
  fails "a batch whose games INSERT fails fails" "kifu_games doesn't exist" -- \
    env CH_CHECK_BEFORE_FLUSH="bash $tmp/rename.sh kifu_games kifu_games_away" \
    "$check" build "$url_a" "$tmp/more"
  bash "$tmp/rename.sh" kifu_games_away kifu_games
  cut=$(ch_query "$http_a" "SELECT count() FROM kifu_single.kifu_positions WHERE game > 400")
  cutl=$(ch_query "$http_a" "SELECT count() FROM kifu_single.kifu_latest WHERE arrayExists(r -> bitAnd(r, 4294967295) > 400, top)")
  if [ "${cut:-0}" -gt 0 ] && [ "${cutl:-0}" -gt 0 ]; then
    ok "the cut batch left $cut positions and $cutl latest-games rows behind"
  else
    bad "the cut batch left positions and latest games behind ($cut, $cutl)"
  fi
  readers "$tmp/cut.during"
  same "a cut batch is invisible: every reader prints what it printed before" \
    "$tmp/cut.before" "$tmp/cut.during"
  if grep -q '^kifu:\|^ch_check:' "$tmp/cut.before"; then
    bad "the readers answered: $(grep -m3 '^kifu:\|^ch_check:' "$tmp/cut.before")"
  fi
  "$check" build "$url_a" "$tmp/more" >"$tmp/cut.repair" 2>"$tmp/err" || bad "repair add: $(cat "$tmp/err")"
  if grep -q '^added 2 unchanged 0 games 20 ' "$tmp/cut.repair"; then
    ok "the next add repairs the cut batch and adds its 20 games"
  else
    bad "the next add repairs the cut batch ($(cat "$tmp/cut.repair"))"
  fi
  "$check" dump "$url_a" "$tmp/games" >"$tmp/cut.dump" || bad "dump after the cut repair"
  same "after the cut batch's repair: answers equal SQLite's" "$tmp/dump.sqlite2" "$tmp/cut.dump"
  "$check" info "$url_a" >"$tmp/cut.info"
  same "after the cut batch's repair: info equals SQLite's" "$tmp/info.sqlite2" "$tmp/cut.info"
  "$check" build "$url_a" "$tmp/more" >"$tmp/cut.again"
  if grep -q '^added 0 unchanged 2 games 0 positions 0 ' "$tmp/cut.again"; then
    ok "adding the repaired files again adds nothing"
  else
    bad "adding the repaired files again adds nothing ($(cat "$tmp/cut.again"))"
  fi
fi

# Compacting folds the latest table to one row per (key, move) (18.16 cannot fold it while
# merging), with the same answers, and adds still reach it afterwards.
if [ -n "$kifu" ]; then
  lq() { ch_query "$http_a" "SELECT $1 FROM kifu_single.kifu_latest"; }
  before=$(lq "count()") pairs=$(lq "uniqExact(key, move)")
  "$check" compact "$url_a" 2>"$tmp/err" || bad "compact: $(cat "$tmp/err")"
  after=$(lq "count()")
  if [ "${after:-x}" = "$pairs" ] && [ "$before" -gt "$pairs" ]; then
    ok "compacting folds the latest table ($before rows, now $after: one a (key, move))"
  else
    bad "compacting folds the latest table ($before rows, $pairs pairs, now $after)"
  fi
  "$check" dump "$url_a" "$tmp/games" >"$tmp/fold.dump" || bad "dump after compacting"
  same "after compacting: answers equal SQLite's" "$tmp/dump.sqlite2" "$tmp/fold.dump"
  ch_query "$http_a" "INSERT INTO kifu_single.kifu_positions (key, game, ply, move, first_move) VALUES (1, 999999, 0, 1, 1)" >/dev/null
  [ "$(lq "count()") $(ch_query "$http_a" "SELECT count() FROM kifu_single.kifu_latest WHERE key = 1")" = "$((after + 1)) 1" ] &&
    ok "after compacting, inserts reach the latest table" ||
    bad "after compacting, inserts do not reach the latest table"
  # The tool's own: kifu index compact --clickhouse folds them again.
  ch_query "$http_a" "INSERT INTO kifu_single.kifu_positions (key, game, ply, move, first_move) VALUES (1, 999998, 0, 1, 1)" >/dev/null
  "$kifu" index compact --clickhouse "$url_a" --database kifu_single 2>"$tmp/err" ||
    bad "kifu index compact --clickhouse: $(cat "$tmp/err")"
  [ "$(lq "count()")" = "$(lq "uniqExact(key, move)")" ] && [ "$(lq "count()")" = "$((after + 1))" ] &&
    ok "kifu index compact --clickhouse folds the latest table" ||
    bad "kifu index compact --clickhouse: $(lq "count()") rows, $(lq "uniqExact(key, move)") pairs"
fi

# An index of the previous schema (no latest table) is refused, to read and to add to,
# and named: creating the missing table would leave it empty beside full ones.
ch_query "$http_a" "CREATE DATABASE IF NOT EXISTS kifu_old" >/dev/null
ch_query "$http_a" "CREATE TABLE kifu_old.kifu_games (id UInt32) ENGINE = MergeTree ORDER BY id" >/dev/null
fails "an index of schema 1 is refused to read" "made by an older kifu (schema 1" -- \
  env CH_DATABASE=kifu_old CH_CLUSTER= "$check" info "$url_a"
fails "an index of schema 1 is refused to add to" "made by an older kifu (schema 1" -- \
  env CH_DATABASE=kifu_old CH_CLUSTER= "$check" build "$url_a" "$tmp/more"
# Schema 3 (ratings, tags, but no listing table of the explorer's): refused, named.
ch_query "$http_a" "CREATE DATABASE IF NOT EXISTS kifu_old3" >/dev/null
for t in "games (id UInt32) ENGINE = MergeTree ORDER BY id" \
  "latest (key UInt64) ENGINE = MergeTree ORDER BY key" \
  "positions (key UInt64, rating UInt32) ENGINE = MergeTree ORDER BY key"; do
  ch_query "$http_a" "CREATE TABLE kifu_old3.kifu_$t" >/dev/null
done
fails "an index of schema 3 is refused to read" "made by an older kifu (schema 3" \
  "no table kifu_listing" -- env CH_DATABASE=kifu_old3 CH_CLUSTER= "$check" info "$url_a"
fails "an index of schema 3 is refused to add to" "made by an older kifu (schema 3" -- \
  env CH_DATABASE=kifu_old3 CH_CLUSTER= "$check" build "$url_a" "$tmp/more"

# The single server stops while an add runs (after it opened): retried, then named.
pid_a=$(cat "$tmp/a/pid")
fails "add to a stopped server is retried, then names it" "server 1 ($url_a) is down" \
  "after 3 tries" -- env CH_DATABASE=kifu_single CH_CLUSTER= \
  CH_CHECK_AFTER_OPEN="kill -9 $pid_a; while kill -0 $pid_a 2>/dev/null; do sleep 0.1; done" \
  "$check" build "$url_a" "$tmp/more"
ch_stop a
fails "a stopped server is named" "server 1 ($url_a) is down" "cannot connect" -- \
  env CH_DATABASE=kifu_single CH_CLUSTER= "$check" info "$url_a"

left=0
for d in "$tmp/a" "$tmp/b"; do
  [ -f "$d/pid" ] && left=1
done
pgrep -f "$tmp/" >/dev/null && left=1
if [ $left = 0 ]; then ok "no server left running"; else bad "no server left running"; fi
finish
