#!/usr/bin/env bash
# Tags in the index: a collection made here from four opening templates, each copied
# with its own players (so that no copy is a duplicate), whose tags kifu tags gives per
# file; explore --tag, search --index --tag (either side, one side, repeated), the game's
# class matched by a side's filter, an unknown name's nearest names, --no-tags, a file
# read again with other content, kifu index players (each player's most played tags and
# --tag), and kifu serve's tag parameter on /api/explore (exactly explore --json) and
# /api/games, and the tags of /api/game. Every count is the one the files' own tags give.
# Usage: tag_index.sh KIFU; with KIFU_TEST_INDEX=http://HOST:PORT the same checks on
# ClickHouse (index_lib.bash; tests/clickhouse/index_tests.sh runs them so).
set -u
kifu=$1
here=$(cd "$(dirname "$0")" && pwd)
pass=0 fail=0
. "$(dirname "${BASH_SOURCE[0]}")/lib.bash"
. "$here/index_lib.bash"
tmp=$(mktemp -d)
pid=
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT
cd "$tmp" || exit 1

# a: sente 四間飛車 in 美濃 against 舟囲い; b: gote 四間飛車 in 片美濃; c: sente 四間飛車
# in 片美濃 after 6五歩; d: both static rooks (相居飛車).
echo 'position startpos moves 7g7f 3c3d 6g6f 8c8d 2h6h 8d8e 8h7g 6a5b 5i4h 5a4b 4h3h 4b3b 3h2h 7a6b 3i3h 5c5d 6i5h 1c1d 1g1f 9c9d' >a.usi
echo 'position startpos moves 7g7f 3c3d 2g2f 4c4d 2f2e 2b3c 3i4h 8b4b 5i6h 5a6b 6h7h 6b7b 5g5f 7b8b 4i5h 7a7b 6i6h 6c6d 9g9f 9c9d' >b.usi
echo 'position startpos moves 7g7f 8c8d 6g6f 3c3d 6f6e 7a6b 2h6h 5a4b 5i4h 4b3b 4h3h 6a5b 3h2h 1c1d 3i3h 5c5d' >c.usi
echo 'position startpos moves 7g7f 8c8d 2g2f 8d8e 2f2e 4a3b 6i7h 3c3d' >d.usi
mkdir g
n=0
for spec in a:5 b:3 c:2 d:4; do
    t=${spec%:*} copies=${spec#*:}
    "$kifu" convert "$t.usi" -t kif --encoding utf-8 -o "$t.kif" || bad "convert $t"
    for i in $(seq 1 "$copies"); do
        n=$((n + 1))
        { echo "先手：S$n"; echo "後手：G$n"; grep -v '^#KIF' "$t.kif"; } >"g/$t$i.kif"
    done
done
"$kifu" index build g -o t.kdb || bad "index build"

# Games whose files' own tags (kifu tags --json) have every spec of a line of specs.txt
# (one python run: a start each was most of this test's time on a busy machine).
"$kifu" tags g --json >own.jsonl || bad "kifu tags"
cat >specs.txt <<'S'
四間飛車
sente:四間飛車
gote:四間飛車
先手:四間飛車
後手:四間飛車
片美濃囲い
美濃囲い
gote:美濃囲い
舟囲い
sente:舟囲い
相居飛車
対抗形
sente:対抗形
gote:居飛車
四間飛車 美濃囲い
四間飛車 片美濃囲い
gote:四間飛車 sente:舟囲い
相居飛車 四間飛車
S
python3 -c '
import json, sys
games = [json.loads(l)["tags"] for l in open("own.jsonl")]
def has(tags, spec):
    side, _, name = spec.rpartition(":")
    side = {"先手": "sente", "後手": "gote"}.get(side, side)
    return any(t["name"] == name and (not side or t["side"] in (side, "game")) for t in tags)
for line in open("specs.txt"):
    specs = line.split()
    print("%s|%d" % (" ".join(specs), sum(all(has(g, s) for s in specs) for g in games)))' >want.txt
want() { sed -n "s/^$*|//p" want.txt; }
# The games count of explore --json's answer ({"sfen":"…","games":N,…}).
games() { "$kifu" explore t.kdb "$@" --json | sed -n 's/^{"sfen":"[^"]*","games":\([0-9]*\),.*/\1/p'; }

# The templates are what the counts below assume.
check "by construction: 四間飛車" 10 "$(want 四間飛車)"
check "by construction: sente:四間飛車" 7 "$(want sente:四間飛車)"
check "by construction: gote:四間飛車" 3 "$(want gote:四間飛車)"
check "by construction: 相居飛車" 4 "$(want 相居飛車)"
while read -r specs; do
    args=()
    for s in $specs; do args+=(--tag "$s"); done
    check "explore ${args[*]}" "$(want $specs)" "$(games "${args[@]}")"
done <specs.txt
# Beyond the start: after ☗７六歩 ☖８四歩 only c's games (d's go ☖８四歩 too, but are not
# 四間飛車).
check "explore --moves 7g7f 8c8d --tag 四間飛車" 2 "$(games --moves 7g7f 8c8d --tag 四間飛車)"
check "explore --moves 7g7f 8c8d --tag 相居飛車" 4 "$(games --moves 7g7f 8c8d --tag 相居飛車)"
# With another filter: one player's games.
check "explore --player S1 --tag 美濃囲い" 1 "$(games --player S1 --tag 美濃囲い)"
check "explore --player S1 --tag gote:四間飛車" 0 "$(games --player S1 --tag gote:四間飛車)"

# search --index --tag: hits of the start position, one a game.
hits() { "$kifu" search --index t.kdb --sfen startpos "$@" | grep -c ':0: '; }
check "search --index --tag gote:四間飛車" 3 "$(hits --tag gote:四間飛車)"
check "search --index --tag 四間飛車 --tag 美濃囲い" 5 "$(hits --tag 四間飛車 --tag 美濃囲い)"
check "search --index --tag 相居飛車" 4 "$(hits --tag 相居飛車)"
check "search --index: the hits' files" "g/b1.kif g/b2.kif g/b3.kif" \
    "$("$kifu" search --index t.kdb --sfen startpos --tag gote:四間飛車 -l | sort | tr '\n' ' ' | sed 's/ $//')"
out=$("$kifu" search --index t.kdb --sfen startpos --tag gote:四間飛車 --json | head -1 |
    python3 -c 'import json, sys; d = json.load(sys.stdin); print(",".join(t["side"] + ":" + t["name"] for t in d["tags"] if t["family"] != "備考"))')
check "search --index --json: the game's tags" "gote:四間飛車,gote:片美濃囲い,sente:力戦,sente:舟囲い" \
    "$(echo "$out" | tr ',' '\n' | sort | tr '\n' ',' | sed 's/,$//')"
"$kifu" search --sfen startpos g --tag 四間飛車 >/dev/null 2>err
check "--tag without --index: usage" "2 kifu: --tag goes with --index or --clickhouse (the tags an index stored)" "$? $(head -1 err)"
# The hits' tags in the order both stores keep: by side (sente, gote, the game's), family
# (戦法, 囲い, 備考) and name.
out=$("$kifu" search --index t.kdb --sfen startpos --tag 相居飛車 --json | head -1 |
    python3 -c 'import json, sys
t = json.load(sys.stdin)["tags"]
key = [({"sente": 0, "gote": 1, "game": 2}[x["side"]], ["戦法", "囲い", "備考"].index(x["family"]), x["name"]) for x in t]
print(len(t) > 3 and key == sorted(key))')
check "search --index --json: the tags by side, family and name" True "$out"

# An unknown name: usage, with the nearest names.
"$kifu" explore t.kdb --tag 四間飛 >/dev/null 2>err
check "unknown tag: exit" 2 $?
grep -q "no tag '四間飛'; did you mean 四間飛車" err && ok || bad "unknown tag: did you mean ($(cat err))"
"$kifu" search --index t.kdb --sfen startpos --tag gote:美濃 >/dev/null 2>err
check "unknown tag on search: exit" 2 $?
grep -q "did you mean.*美濃囲い" err && ok || bad "search: did you mean ($(cat err))"

# --no-tags: nothing stored, nothing matches.
"$kifu" index build g -o none.kdb --no-tags || bad "build --no-tags"
check "--no-tags: no game tagged" 0 "$("$kifu" explore none.kdb --tag 四間飛車 --json | sed -n 's/^{"sfen":"[^"]*","games":\([0-9]*\),.*/\1/p')"
"$kifu" index info t.kdb --no-tags >/dev/null 2>&1
check "--no-tags on info: usage" 2 $?

# A file read again with other content: its old tags go with its old game.
cp t.kdb u.kdb
{ echo "先手：S1"; echo "後手：G1"; grep -v '^#KIF' d.kif; } >g/a1.kif
"$kifu" index add u.kdb g || bad "index add"
ugames() { "$kifu" explore u.kdb "$@" --json | sed -n 's/^{"sfen":"[^"]*","games":\([0-9]*\),.*/\1/p'; }
check "replaced: 美濃囲い" 4 "$(ugames --tag 美濃囲い)"
check "replaced: 相居飛車" 5 "$(ugames --tag 相居飛車)"
if sqlite_only "game_tags is a table of the SQLite file"; then
    check "replaced: the table holds no dropped game's rows" 0 \
        "$(python3 -c 'import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute("SELECT count(*) FROM game_tags WHERE game NOT IN (SELECT id FROM games)").fetchone()[0])' u.kdb)"
fi

# kifu index players: each player's most played 戦法 and 囲い per side, with results, and
# --tag. A collection of its own where players come back: sente P0-P2 in turn, each game
# resigned by sente (gote wins); what the files' own tags give, counted by python.
mkdir p
n=0
for spec in a:4 b:3 c:2 d:3; do
    t=${spec%:*} copies=${spec#*:}
    for i in $(seq 1 "$copies"); do
        n=$((n + 1))
        { echo "先手：P$((n % 3))"; echo "後手：Q$n"; grep -v '^#KIF' "$t.kif"
          printf '%4d 投了\n' $(($(grep -c '^ *[0-9]' "$t.kif") + 1)); } >"p/$t$i.kif"
        echo "p/$t$i.kif p$((n % 3)) q$n" >>who.txt
    done
done
"$kifu" index build p -o p.kdb || bad "index build p"
"$kifu" tags p --json >ptags.jsonl || bad "kifu tags p"
# The expected players (JSON Lines as index players --json writes them, the tags only):
# a spec filters the games as --tag does (on the player's side, or the game's).
cat >players.py <<'P'
import json, sys
specs = sys.argv[1:]
who = {l.split()[0].split("/")[-1]: l.split()[1:] for l in open("who.txt")}
games = [json.loads(l) for l in open("ptags.jsonl")]
def passes(tags, side, spec):
    s, _, name = spec.rpartition(":")
    s = {"先手": "sente", "後手": "gote"}.get(s, s)
    if s and s != side:
        return False
    return any(t["name"] == name and t["side"] in (side, "game") for t in tags)
players = {}
for g in games:
    for k, side in enumerate(("sente", "gote")):
        if not all(passes(g["tags"], side, s) for s in specs):
            continue
        p = players.setdefault(who[g["file"]][k], {"games": 0, "tags": {}})
        p["games"] += 1
        for t in g["tags"]:
            if t["side"] == side and t["family"] in ("戦法", "囲い"):
                c = p["tags"].setdefault((side, t["family"], t["name"]), [0, 0])
                c[0] += 1
                c[1] += side == "gote"  # sente resigned every game
out = []
for key, p in players.items():
    tags = sorted(p["tags"].items(), key=lambda x: (x[0][0] != "sente", x[0][1] != "戦法", -x[1][0], x[0][2]))
    kept, run = [], {}
    for (side, fam, name), (n, w) in tags:
        run[side, fam] = run.get((side, fam), 0) + 1
        if run[side, fam] <= 5:
            kept.append("%s:%s:%s:%d+%d" % (side, fam, name, n, w))
    out.append((-p["games"], key, " ".join(kept)))
for g, key, t in sorted(out):
    print(key, -g, t)
P
got_players() {
    "$kifu" index players p.kdb "$@" --json | python3 -c 'import json, sys
for l in sys.stdin:
    p = json.loads(l)
    print(p["key"], p["games"], " ".join("%s:%s:%s:%d+%d" % (t["side"], t["family"], t["name"], t["games"], t["wins"]) for t in p["tags"]))'
}
want_players=$(python3 players.py)
[ "$(echo "$want_players" | head -1 | cut -d' ' -f2)" -ge 4 ] && ok || bad "by construction: a player of 4 games"
check "index players: each player's tags" "$want_players" "$(got_players)"
for specs in 四間飛車 gote:四間飛車 sente:美濃囲い 相居飛車 "四間飛車 片美濃囲い" 対抗形; do
    args=()
    for s in $specs; do args+=(--tag "$s"); done
    check "index players ${args[*]}" "$(python3 players.py $specs)" "$(got_players "${args[@]}")"
done
check "by construction: gote:四間飛車, b's three gote players" 3 \
    "$(python3 players.py gote:四間飛車 | grep -c '^q')"
"$kifu" index players p.kdb --like p1 >pl.txt
check "index players (text): the tags lines" \
    "$(python3 -c 'import json
for l in open("/dev/stdin"):
    p = json.loads(l); line = {}
    for t in p["tags"]:
        k = "    %s %s: " % (t["side"], t["family"])
        line[k] = line.get(k, []) + ["%s %d (+%d -%d =%d)" % (t["name"], t["games"], t["wins"], t["losses"], t["draws"])]
    print("\n".join(k + ", ".join(v) for k, v in line.items()))' < <("$kifu" index players p.kdb --like p1 --json))" \
    "$(grep -E '^    (sente|gote) ' pl.txt)"
"$kifu" index players p.kdb --tag 四間飛 >/dev/null 2>err
check "index players: unknown tag: exit" 2 $?
grep -q "did you mean 四間飛車" err && ok || bad "index players: did you mean ($(cat err))"
"$kifu" index info p.kdb --tag 四間飛車 >/dev/null 2>&1
check "--tag on info: usage" 2 $?

# On ClickHouse, an index of the schema before tags (2: no tags in its games table) is
# refused by name, to read and to add to: its games would pass no tag filter.
if [ "$ix_backend" = clickhouse ]; then
    db=t_schema2_$$
    ix_ch_query "DROP DATABASE IF EXISTS $db" && ix_ch_query "CREATE DATABASE $db" &&
        ix_ch_query "CREATE TABLE $db.kifu_games (id UInt32, ident UInt64) ENGINE = MergeTree ORDER BY id" &&
        ix_ch_query "CREATE TABLE $db.kifu_latest (key UInt64) ENGINE = MergeTree ORDER BY key" ||
        bad "schema 2 tables"
    "$KIFU_TEST_KIFU" explore --clickhouse "$KIFU_TEST_INDEX" --database $db >/dev/null 2>err
    check "schema 2: explore refused, exit 3" 3 $?
    grep -q "made by an older kifu (schema 2: no tags" err && ok || bad "schema 2 named: $(cat err)"
    "$KIFU_TEST_KIFU" index add g --clickhouse "$KIFU_TEST_INDEX" --database $db >/dev/null 2>err
    check "schema 2: add refused, exit 3" 3 $?
    grep -q "made by an older kifu (schema 2: no tags" err && ok || bad "schema 2 named on add: $(cat err)"
    ix_ch_query "DROP DATABASE IF EXISTS $db" >/dev/null
fi

# kifu serve: tag on /api/explore (explore --json's answer) and /api/games.
if ! serve_start out err2 t.kdb; then
    bad "serve printed no URL: $(cat err2)"
else
    fetch() { python3 -c '
import sys, urllib.request, urllib.error
try:
    r = urllib.request.urlopen("http://127.0.0.1:%s%s" % (sys.argv[1], sys.argv[2]), timeout=10)
    print(r.status); sys.stdout.write(r.read().decode())
except urllib.error.HTTPError as e:
    print(e.code); sys.stdout.write(e.read().decode())' "$port" "$1"; }
    enc() { # percent-encode every byte but the unreserved ones
        local LC_ALL=C s=$1 out= c i
        for ((i = 0; i < ${#s}; i++)); do
            c=${s:i:1}
            case $c in [a-zA-Z0-9._~-]) out+=$c ;; *) out+=$(printf '%%%02X' "'$c") ;; esac
        done
        echo "$out"
    }
    for q in "四間飛車|--tag 四間飛車" "gote:四間飛車|--tag gote:四間飛車" \
        "四間飛車,美濃囲い|--tag 四間飛車 --tag 美濃囲い" "相居飛車|--moves 7g7f --tag 相居飛車"; do
        tag=${q%%|*} args=${q#*|}
        extra=
        case $args in --moves*) extra="&moves=7g7f" ;; esac
        want_json=$(eval "\"\$kifu\" explore t.kdb $args --json")
        got=$(fetch "/api/explore?tag=$(enc "$tag")$extra" | sed -n '2,$p')
        check "/api/explore?tag=$tag == explore --json" "$want_json" "$got"
    done
    total() { fetch "/api/games?tag=$(enc "$1")" | sed -n 's/.*"total":\([0-9]*\),.*/\1/p'; }
    check "/api/games?tag=gote:四間飛車" 3 "$(total gote:四間飛車)"
    check "/api/games?tag=四間飛車,美濃囲い" 5 "$(total 四間飛車,美濃囲い)"
    check "/api/games?tag=対抗形" 10 "$(total 対抗形)"
    out=$(fetch "/api/games?tag=$(enc 相居飛車)&limit=1" | sed -n '2,$p' | python3 -c '
import json, sys
g = json.load(sys.stdin)["games"][0]
print(g["file"], [t["name"] for t in g["tags"] if t["side"] == "game"])')
    check "/api/games: each game's tags" "g/d1.kif ['相居飛車']" "$out"
    # Every game of a page with its own tags (the page's are read apart from the list).
    out=$(fetch "/api/games?limit=500&sort=date" | sed -n '2,$p' | python3 -c '
import json, sys
own = {}
for l in open("own.jsonl"):
    d = json.loads(l)
    own[(d["file"].split("/")[-1], d["game"])] = sorted((t["side"], t["name"]) for t in d["tags"])
page = json.load(sys.stdin)["games"]
bad = [g["file"] for g in page
       if sorted((t["side"], t["name"]) for t in g["tags"])
       != own.get((g["file"].split("/")[-1], g["game"]))]
print(len(page) == len(own), bad)')
    check "/api/games: every game's tags are its file's" "True []" "$out"
    out=$(fetch "/api/explore?tag=$(enc 四間飛)")
    check "/api/explore?tag=unknown: 400" 400 "$(echo "$out" | head -1)"
    echo "$out" | grep -q '"error":"tag: no tag .*did you mean 四間飛車' && ok || bad "400's did you mean: $out"
    out=$(fetch "/api/game?file=$(enc g/b1.kif)&game=1" | sed -n '2,$p' | python3 -c '
import json, sys
print(",".join(t["side"] + ":" + t["name"] for t in json.load(sys.stdin)["tags"] if t["family"] == "戦法"))')
    check "/api/game: the game's tags" "sente:力戦,gote:四間飛車" "$out"
    # The player page's tags: those index players --json gives the player.
    first=$("$kifu" index players t.kdb --json | head -1)
    name=$(printf '%s' "$first" | python3 -c 'import json, sys; print(json.load(sys.stdin)["names"][0])')
    want=$(printf '%s' "$first" | python3 -c 'import json, sys; print(json.dumps(json.load(sys.stdin)["tags"]))')
    got=$(fetch "/api/players?player=$(enc "$name")" | sed -n '2,$p' | python3 -c 'import json, sys; print(json.dumps(json.load(sys.stdin)["tags"]))')
    [ "$want" != "[]" ] && ok || bad "the first player has tags"
    check "/api/players?player=$name: tags as index players --json" "$want" "$got"
    kill "$pid" && wait "$pid" 2>/dev/null
    pid=
fi

echo "tag_index: $pass passed, $fail failed, $skipped skipped"
[ "$fail" -eq 0 ]
