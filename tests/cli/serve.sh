#!/usr/bin/env bash
# kifu serve: the server started on 127.0.0.1 with a free port (--listen 127.0.0.1:0
# prints the real one); its API against `kifu explore --json` and `kifu search --index`;
# 400s with a JSON error for bad parameters; paths that climb out (/../, %2e%2e) and
# anything not the app's refused; the Content-Security-Policy; games added to the index
# while it runs seen without a restart; SIGTERM stops it. Stopped by PID at the end.
# Usage: serve.sh KIFU
set -u
kifu=$1
here=$(cd "$(dirname "$0")" && pwd)
pass=0 fail=0
. "$(dirname "${BASH_SOURCE[0]}")/lib.bash"
tmp=$(mktemp -d)
pid=
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT
mkdir -p "$tmp/games" "$tmp/later"
cp "$here"/../../samples/collection/*.csa "$tmp/games/"
printf 'position startpos moves 7g7f 3c3d 2g2f 8c8d 2f2e\n' >"$tmp/later/new.usi"
# Two rated games (the rating in parentheses after the name), for min_rating.
printf 'V2.2\nN+山田(1600)\nN-木村(1400)\n$EVENT:レート戦\n$START_TIME:2024/11/02 10:00:00\nPI\n+\n+2726FU\n-8384FU\n+2625FU\n%%TORYO\n' >"$tmp/games/rated1.csa"
printf 'V2.2\nN+木村(1550)\nN-山田(1700)\n$EVENT:レート戦\n$START_TIME:2024/11/09 10:00:00\nPI\n+\n+7776FU\n-3334FU\n%%TORYO\n' >"$tmp/games/rated2.csa"
"$kifu" index build "$tmp/games" -o "$tmp/g.kdb" >/dev/null 2>&1 || { echo "index build failed"; exit 1; }

# GET path [METHOD [HOST]] -> "status\nheaders-of-interest\nbody" (raw path: nothing
# normalized).
get() {
    python3 - "$port" "$1" "${2:-GET}" "${3:-}" <<'PY'
import http.client, sys
c = http.client.HTTPConnection("127.0.0.1", int(sys.argv[1]), timeout=10)
c.putrequest(sys.argv[3], sys.argv[2], skip_accept_encoding=True, skip_host=bool(sys.argv[4]))
if sys.argv[4]:
    c.putheader("Host", sys.argv[4])
c.endheaders()
r = c.getresponse()
body = r.read().decode("utf-8", "replace")
print(r.status)
print(r.getheader("Content-Type"))
print(r.getheader("Content-Security-Policy"))
sys.stdout.write(body)
PY
}
status() { get "$@" | sed -n 1p; }
body() { get "$@" | sed -n '4,$p'; }

"$kifu" serve "$tmp/g.kdb" --listen 127.0.0.1:0 >"$tmp/out" 2>"$tmp/err" &
pid=$!
port=
for _ in $(seq 100); do
    port=$(sed -n 's|^kifu: serving .* at http://127.0.0.1:\([0-9]*\)/$|\1|p' "$tmp/out")
    [ -n "$port" ] && break
    sleep 0.1
done
[ -n "$port" ] || { echo "the server printed no URL"; cat "$tmp/err"; exit 1; }
ok

# /api/explore is byte for byte what explore --json prints; asked again, the answer the
# server kept (serve_cache.c) is too.
while IFS='|' read -r query args; do
    want=$(eval "\"\$kifu\" explore \"\$tmp/g.kdb\" $args --json")
    got=$(body "/api/explore?$query")
    check "explore ?$query" "$want" "$got"
    check "explore ?$query, asked again" "$want" "$(body "/api/explore?$query")"
done <<'Q'
|
moves=7g7f|--moves 7g7f
moves=7g7f,3c3d|--moves 7g7f 3c3d
moves=7g7f%203c3d%202g2f|--moves 7g7f 3c3d 2g2f
moves=7g7f&flip=1|--moves 7g7f --flip
moves=7g7f&since=2024-06-01|--moves 7g7f --since 2024-06-01
moves=7g7f&top=1|--moves 7g7f --top 1
top=1&moves=7g7f|--moves 7g7f --top 1
flip=1&moves=7g7f|--moves 7g7f --flip
top=2&moves=7g7f|--moves 7g7f --top 2
sfen=lnsgkgsnl%2F1r5b1%2Fppppppppp%2F9%2F9%2F2P6%2FPP1PPPPPP%2F1B5R1%2FLNSGKGSNL%20w%20-%202|--sfen 'lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2'
usi=position%20startpos%20moves%207g7f|--usi 'position startpos moves 7g7f'
player=%E4%BD%90%E8%97%A4|--player 佐藤
player=%E4%BD%90%E8%97%A4&color=gote|--player 佐藤 --color gote
min_rating=1|--min-rating 1
event=%E7%AB%9C|--event 竜
Q

# The average rating: of the player who made the move, over its games that give one (the
# samples give none; rated1 and rated2 above: 山田(1600) played 2g2f, 木村(1550) 7g7f and
# 山田(1700) replied 3c3d), null without a rated game.
avg() { # query, usi... -> usi:avg/rated for each, sorted
    body "/api/explore?$1" | python3 -c '
import json, sys
d = json.load(sys.stdin)
print(" ".join(sorted("%s:%s/%s" % (m["usi"], m["avg_rating"], m["rated_games"])
                      for m in d["moves"] if m["usi"] in sys.argv[1:])))' "${@:2}"
}
check "avg rating: the start" "2g2f:1600/1 7g7f:1550/1" "$(avg '' 7g7f 2g2f)"
check "avg rating: gote's reply" "3c3d:1700/1" "$(avg 'moves=7g7f' 3c3d)"
check "avg rating: filtered (min_rating=1)" "2g2f:1600/1 7g7f:1550/1" "$(avg 'min_rating=1' 7g7f 2g2f)"
check "avg rating: none rated" "5g5f:None/0" "$(avg '' 5g5f)"

# Bad parameters: a 400 with a JSON error naming them.
for q in 'bogus=1' 'since=2024' 'until=2024-1-01' 'color=red&player=x' 'color=sente' \
    'moves=7g7f,7f7e' 'min_rating=abc' 'min_rating=-1' 'top=11' 'flip=yes' 'moves=7g7f&moves=3c3d' \
    'sfen=nonsense' 'usi=position%20startpos&moves=7g7f' 'tag=x'; do
    out=$(get "/api/explore?$q")
    check "400 for $q" "400" "$(echo "$out" | sed -n 1p)"
    echo "$out" | sed -n '4,$p' | python3 -c 'import json,sys; d=json.load(sys.stdin); assert d["error"]' 2>/dev/null ||
        bad "a JSON error for $q"
    check "JSON type for $q" "application/json" "$(echo "$out" | sed -n 2p)"
done
check "games: limit 0" 400 "$(status '/api/games?limit=0')"
check "games: offset -1" 400 "$(status '/api/games?offset=-1')"
check "game without a file" 400 "$(status '/api/game?game=1')"
check "search without a position" 400 "$(status '/api/search')"
check "search: a bad grid" 400 "$(status '/api/search?grid=zz')"

# Anything but the app's own paths is refused; nothing climbs out.
for p in '/../etc/passwd' '/assets/../../etc/passwd' '/assets/%2e%2e/%2e%2e/etc/passwd' \
    '/%2e%2e/%2e%2e/etc/passwd' '/assets/..%2fboard.js' '/etc/passwd' "/$tmp/g.kdb" \
    '/assets/' '/api/' '/api/explore/../games'; do
    s=$(status "$p")
    [ "$s" = 404 ] || [ "$s" = 400 ] && ok || bad "refused: $p ($s)"
done
out=$(body '/api/game?file=/etc/passwd&game=1')
check "a file that is not the index's" 404 "$(status '/api/game?file=/etc/passwd&game=1')"
echo "$out" | grep -q root && bad "a file outside the index served"
check "POST refused" 405 "$(status /api/explore POST)"
# A page whose name was rebound to 127.0.0.1 (DNS rebinding) is not answered.
check "Host: another name" 403 "$(status /api/explore GET evil.example:$port)"
check "Host: localhost" 200 "$(status /api/explore GET localhost:$port)"
check "Host: 127.0.0.1" 200 "$(status /api/explore GET 127.0.0.1:$port)"
check "DELETE refused" 405 "$(status /api/explore DELETE)"
check "a URL past the memory bound" 414 "$(status "/api/explore?moves=$(printf '7g7f,%.0s' $(seq 8000))")"
check "too many parameters" 400 "$(status "/api/explore?$(printf 'a%s=1&' $(seq 40))")"

# Pages and assets, and the policy that allows no inline script.
for p in / /explore /games /player /game /search /assets/board.js /assets/app.js \
    /assets/viewer.css /assets/app.css; do
    check "served: $p" 200 "$(status "$p")"
done
csp=$(get / | sed -n 3p)
case "$csp" in *"script-src 'self'"*) ok ;; *) bad "CSP: $csp" ;; esac
case "$csp" in *unsafe-inline*) bad "CSP allows inline: $csp" ;; *) ok ;; esac
body / | grep -q '<script>' && bad "an inline script in the page" || ok

# /api/search against kifu search --index; /api/games counts every game from the start.
want=$("$kifu" search --index "$tmp/g.kdb" --usi 'position startpos moves 7g7f 3c3d' --json | wc -l)
got=$(body '/api/search?moves=7g7f,3c3d' | python3 -c 'import json,sys; print(json.load(sys.stdin)["count"])')
check "search hits" "$want" "$got"
total=$("$kifu" explore "$tmp/g.kdb" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["games"])')
got=$(body '/api/games?limit=3&offset=1' | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["total"], len(d["games"]))')
check "games: total and a page" "$total 3" "$got"

# A game the explorer lists, by its file and number: its positions.
read -r file game ply < <("$kifu" explore "$tmp/g.kdb" --moves 7g7f --json |
    python3 -c 'import json,sys; t=json.load(sys.stdin)["moves"][0]["top"][0]; print(t["file"], t["game"], t["ply"])')
enc=$(python3 -c 'import sys,urllib.parse; print(urllib.parse.quote(sys.argv[1], safe=""))' "$file")
got=$(body "/api/game?file=$enc&game=$game" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["positions"][0]["ply"], len(d["positions"]) > 1)')
check "a game's positions" "0 True" "$got"
check "a game past the file's" 404 "$(status "/api/game?file=$enc&game=99")"

# Players: results as sente and gote from the explorer's counts.
got=$(body '/api/players?player=%E4%BD%90%E8%97%A4' | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["sente"]["games"] + d["gote"]["games"])')
want=$("$kifu" explore "$tmp/g.kdb" --player 佐藤 --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["games"])')
check "a player's games" "$want" "$got"

# /api/games by player and colour: the games explore counts for them at the start.
for c in "" sente gote; do
    want=$("$kifu" explore "$tmp/g.kdb" --player 佐藤 ${c:+--color $c} --json |
        python3 -c 'import json,sys; print(json.load(sys.stdin)["games"])')
    got=$(body "/api/games?player=%E4%BD%90%E8%97%A4${c:+&color=$c}" | python3 -c 'import json,sys; print(json.load(sys.stdin)["total"])')
    check "games of a player ${c:-either side}" "$want" "$got"
done
check "games: a part of a name is not the player" 0 "$(body '/api/games?player=%E4%BD%90' | python3 -c 'import json,sys; print(json.load(sys.stdin)["total"])')"
check "games: color without player" 400 "$(status '/api/games?color=gote')"

# /api/games: the list, its filters, sorts and pages against what the test reads from
# the records themselves (CSA headers, move lines and the ending).
records() { # -> one JSON object per game: sente gote date event plies result rating
    python3 - "$tmp/games" <<'PY'
import glob, json, os, re, sys
for path in sorted(glob.glob(os.path.join(sys.argv[1], "*.csa"))):
    g = {"sente": None, "gote": None, "date": None, "event": None, "plies": 0, "rating": [0, 0]}
    end = None
    for line in open(path, encoding="utf-8"):
        line = line.rstrip("\n")
        if line.startswith("N+") or line.startswith("N-"):
            m = re.match(r"(.*)\((\d+)\)$", line[2:])
            g["sente" if line[1] == "+" else "gote"] = line[2:]
            if m:
                g["rating"][line[1] == "-"] = int(m.group(2))
        elif line.startswith("$EVENT:"):
            g["event"] = line[7:]
        elif line.startswith("$START_TIME:"):
            g["date"] = line[12:22].replace("/", "-")
        elif re.match(r"^[+-]\d{4}[A-Z]{2}", line):
            g["plies"] += 1
        elif line.startswith("%"):
            end = line
    g["result"] = ("sente won" if g["plies"] % 2 else "gote won") if end == "%TORYO" else "unfinished"
    print(json.dumps(g, ensure_ascii=False))
PY
}
records >"$tmp/records.json"
# want FIELD ORDER [FILTER...] -> the field of every game that passes, sorted as asked.
want_list() {
    python3 - "$tmp/records.json" "$@" <<'PY'
import json, sys
games = [json.loads(l) for l in open(sys.argv[1])]
field, order = sys.argv[2], sys.argv[3]
for f in sys.argv[4:]:
    k, v = f.split("=", 1)
    if k == "player": games = [g for g in games if v in ((g["sente"] or ""), (g["gote"] or ""))]
    if k == "sente": games = [g for g in games if g["sente"] == v]
    if k == "since": games = [g for g in games if g["date"] and g["date"] >= v]
    if k == "until": games = [g for g in games if g["date"] and g["date"] <= v]
    if k == "event": games = [g for g in games if g["event"] and v in g["event"]]
    if k == "min_rating": games = [g for g in games if min(g["rating"]) >= int(v)]
key = {"length": lambda g: g["plies"],
       "result": lambda g: ["unfinished", "sente won", "gote won"].index(g["result"])}.get(
    field, lambda g: g[field] or "")
games.sort(key=key, reverse=order == "desc")
print(len(games))
for g in games: print(g[field] if field != "length" else g["plies"])
PY
}
got_list() { # FIELD QUERY -> total, then the field of each game listed
    body "/api/games?$2" | python3 -c 'import json,sys
d = json.load(sys.stdin); f = sys.argv[1]
print(d["total"])
for g in d["games"]: print(g["plies"] if f == "length" else g[f])' "$1"
}
for s in date sente gote event result length; do
    check "games sorted by $s" "$(want_list $s asc)" "$(got_list $s "sort=$s&limit=500")"
    check "games sorted by $s, descending" "$(want_list $s desc)" "$(got_list $s "sort=$s&order=desc&limit=500")"
done
check "games by date, latest first, a page" "$(want_list date desc | sed -n '1p;3,4p')" \
    "$(got_list date 'sort=-date&limit=2&offset=1')"
check "games: since and until" "$(want_list date asc since=2024-05-01 until=2024-08-31)" \
    "$(got_list date 'sort=date&since=2024-05-01&until=2024-08-31')"
check "games: an event" "$(want_list event asc event=大会)" \
    "$(got_list event 'sort=event&event=%E5%A4%A7%E4%BC%9A')"
check "games: a player as sente" "$(want_list date asc sente=佐藤)" \
    "$(got_list date 'sort=date&player=%E4%BD%90%E8%97%A4&color=sente')"
check "games: min_rating" "$(want_list date asc min_rating=1500)" \
    "$(got_list date 'sort=date&min_rating=1500')"
check "games: every field" "True" "$(body '/api/games?limit=1' | python3 -c 'import json,sys
g = json.load(sys.stdin)["games"][0]
print(all(k in g for k in ("file", "game", "sente", "gote", "date", "event", "result", "plies", "sente_rating", "gote_rating")))')"
check "games: a bad sort" 400 "$(status '/api/games?sort=moves')"
check "games: a bad order" 400 "$(status '/api/games?sort=date&order=up')"
check "games: an offset past the end" "$(want_list date asc | sed -n 1p) 0" \
    "$(body '/api/games?offset=400' | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["total"], len(d["games"]))')"

# /api/players: every player (the names the records give), a part of a name, a page.
want=$(python3 -c 'import json,re,sys
n = set()
for l in open(sys.argv[1]):
    g = json.loads(l); n.update(re.sub(r"\(\d+\)$", "", x) for x in (g["sente"], g["gote"]) if x)
print(len(n))' "$tmp/records.json")
check "players: every player" "$want" "$(body '/api/players' | python3 -c 'import json,sys; print(json.load(sys.stdin)["total"])')"
check "players: like" "佐藤" "$(body '/api/players?like=%E4%BD%90' | python3 -c 'import json,sys
print(" ".join(p["name"] for p in json.load(sys.stdin)["players"]))')"
check "players: a page" "2 2" "$(body '/api/players?limit=2&offset=1' | python3 -c 'import json,sys
d = json.load(sys.stdin); print(len(d["players"]), d["offset"] + 1)')"

# A player's openings: the first two moves of the player's games, counted by the test.
want=$(python3 - "$tmp/games" <<'PY'
import collections, glob, os, re, sys
c = collections.Counter()
for path in glob.glob(os.path.join(sys.argv[1], "*.csa")):
    lines = open(path, encoding="utf-8").read().split("\n")
    if "N-佐藤" not in lines: continue
    mv = [l[1:5] for l in lines if re.match(r"^[+-]\d{4}[A-Z]{2}", l)][:2]
    c[",".join(mv)] += 1
print(" ".join("%s:%d" % (k, v) for k, v in sorted(c.items(), key=lambda kv: (-kv[1], kv[0]))))
PY
)
got=$(body '/api/players?player=%E4%BD%90%E8%97%A4' | python3 -c 'import json,sys
d = json.load(sys.stdin)["openings"]["gote"]
sq = lambda u: "%d%d" % (int(u[0]), "abcdefghi".index(u[1]) + 1)
o = [(",".join(sq(m[:2]) + sq(m[2:4]) for m in o["moves"].split(",")), o["games"]) for o in d]
print(" ".join("%s:%d" % kv for kv in sorted(o, key=lambda kv: (-kv[1], kv[0]))))')
check "a player's openings as gote" "$want" "$got"

# Games added while it runs are seen without a restart (the start position asked, and
# kept, before the add: the kept answer is not given after it).
before=$(body '/api/explore' | python3 -c 'import json,sys; print(json.load(sys.stdin)["games"])')
"$kifu" index add "$tmp/g.kdb" "$tmp/later" >/dev/null 2>&1 || bad "index add"
after=$(body '/api/explore' | python3 -c 'import json,sys; print(json.load(sys.stdin)["games"])')
check "a game added while serving" "$((before + 1))" "$after"

# Under load while `kifu index add` writes (serve_adds.py, which bench/serve.sh runs beside
# wrk): 8 clients, 60 requests and more each, while 12 adds (one new game each, each its
# own first move) commit one after the other. Every request is answered 200; every count
# is one the index held at some commit (before + k), each answer's moves add up to its
# games, a client never sees the count go back, and its answers after the adds are
# before + 12.
mkdir -p "$tmp/adds"
base=$(body '/api/explore' | python3 -c 'import json,sys; print(json.load(sys.stdin)["games"])')
python3 "$here/serve_adds.py" "$port" "$kifu" "$tmp/g.kdb" "$tmp/adds" "$base" 12 8 60 >"$tmp/load.out" 2>&1 ||
    bad "under load while adding: $(cat "$tmp/load.out")"
read -r answered errors <"$tmp/load.out"
[ "${answered:-0}" -ge 480 ] && [ "${errors:-1}" = 0 ] && ok ||
    bad "under load while adding: every request answered, no wrong count: $(cat "$tmp/load.out")"
check "after the adds" "$((base + 12))" "$(body '/api/explore' | python3 -c 'import json,sys; print(json.load(sys.stdin)["games"])')"
check "after the adds, as kifu explore counts" "$("$kifu" explore "$tmp/g.kdb" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["games"])')" \
    "$(body '/api/explore' | python3 -c 'import json,sys; print(json.load(sys.stdin)["games"])')"

# SIGTERM stops it, with status 0.
kill -TERM "$pid"
for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
kill -0 "$pid" 2>/dev/null && bad "still running after SIGTERM"
wait "$pid"; check "exit status after SIGTERM" 0 $?
pid=
# Only libmicrohttpd's notes of the refused requests (the URL too big), no other output.
grep -v '^kifu: http: ' "$tmp/err" | grep -q . && bad "stderr: $(cat "$tmp/err")"
grep -q '^kifu: http: .*414' "$tmp/err" && ok || bad "the 414 noted on stderr: $(cat "$tmp/err")"

# A slow query is bounded: a pattern search over 3,000 games (every game replayed) with
# --timeout 0.001 is stopped and answered 504 with a JSON error; the server answers the
# next request, and the same search without the bound answers.
mkdir -p "$tmp/many"
python3 -c 'import sys
for i in range(3000):
    open("%s/g%d.csa" % (sys.argv[1], i), "w").write("V2.2\nN+a%d\nN-b%d\nPI\n+\n+7776FU\n-3334FU\n+2726FU\n-8384FU\n%%TORYO\n" % (i, i))' "$tmp/many"
"$kifu" index build "$tmp/many" -o "$tmp/many.kdb" >/dev/null 2>&1 || bad "index build of 3,000 games"
grid=$(python3 -c 'import urllib.parse; print(urllib.parse.quote("| * * * * * * * * *|\n" * 2 + "| * * * * * * ・ * *|\n| * * * * * *v歩 * *|\n" + "| * * * * * * * * *|\n" * 5, safe=""))')
start_server() { # INDEX ARGS... -> pid, port
    rm -f "$tmp/out" # the redirection below is made by the background child, later
    "$kifu" serve "$@" --listen 127.0.0.1:0 >"$tmp/out" 2>"$tmp/err" &
    pid=$!
    port=
    for _ in $(seq 100); do
        port=$(sed -n 's|^kifu: serving .* at http://127.0.0.1:\([0-9]*\)/$|\1|p' "$tmp/out")
        [ -n "$port" ] && break
        sleep 0.1
    done
    [ -n "$port" ] || bad "the server printed no URL: $(cat "$tmp/err")"
}
stop_server() { kill -TERM "$pid"; wait "$pid"; pid=; }
start_server "$tmp/many.kdb" --timeout 0.001
out=$(get "/api/search?grid=$grid")
check "a slow query: 504" 504 "$(echo "$out" | sed -n 1p)"
echo "$out" | sed -n '4,$p' | python3 -c 'import json,sys; d=json.load(sys.stdin); assert "interrupted" in d["error"]' 2>/dev/null ||
    bad "a JSON error for the slow query: $out"
check "answered after the slow query" 200 "$(status '/api/board?moves=7g7f')"
stop_server
start_server "$tmp/many.kdb"
check "the same search unbounded: 500 hits and more" "500 True" "$(body "/api/search?grid=$grid" | python3 -c 'import json,sys; d = json.load(sys.stdin); print(d["count"], d["truncated"])' 2>&1)"
stop_server

# The command line.
"$kifu" serve 2>/dev/null; check "no index" 2 $?
"$kifu" serve "$tmp/g.kdb" --listen nowhere 2>/dev/null; check "a bad --listen" 2 $?
"$kifu" serve "$tmp/g.kdb" --listen example.com:80 2>/dev/null; check "a host name" 2 $?
"$kifu" serve "$tmp/none.kdb" --listen 127.0.0.1:0 2>/dev/null; check "no such index" 3 $?
for v in -1 x 65537 ''; do
    "$kifu" serve "$tmp/g.kdb" --listen 127.0.0.1:0 --cache "$v" 2>/dev/null
    check "--cache '$v'" 2 $?
done
"$kifu" serve --help | grep -q '^usage: kifu serve' && ok || bad "--help"

# The same API over the index on ClickHouse (a private server, when it is installed).
. "$here/../clickhouse/servers.sh"
if CH_SERVER=$(ch_find_server); then
    export KIFU_CLICKHOUSE_USER=kifu KIFU_CLICKHOUSE_PASSWORD=${CH_TEST_PASSWORD:-kifu-test}
    read -r http tcp inter <<<"$(ch_free_ports 3)"
    trap 'ch_stop_all; cleanup' EXIT
    if ch_start s "$tmp/ch" "$http" "$tcp" "$inter" >/dev/null 2>&1; then
        ch=http://127.0.0.1:$http
        "$kifu" index build "$tmp/games" "$tmp/later" --clickhouse "$ch" >/dev/null 2>&1 ||
            bad "index build on ClickHouse"
        start_server --clickhouse "$ch"
        for args in "" "--moves 7g7f 3c3d" "--moves 7g7f --player 佐藤"; do
            want=$(eval "\"\$kifu\" explore --clickhouse \"\$ch\" $args --json")
            query=$(python3 -c 'import sys, urllib.parse
a = sys.argv[1:]; q = {}
while a:
    k = a.pop(0)[2:]; v = []
    while a and not a[0].startswith("--"): v.append(a.pop(0))
    q[k] = ",".join(v)
print(urllib.parse.urlencode(q))' $args)
            check "ClickHouse: explore ?$query" "$want" "$(body "/api/explore?$query")"
        done
        want=$("$kifu" explore --clickhouse "$ch" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["games"])')
        check "ClickHouse: games" "$want" "$(body '/api/games' | python3 -c 'import json,sys; print(json.load(sys.stdin)["total"])')"
        kill -TERM "$pid"; wait "$pid"; check "ClickHouse: stopped by SIGTERM" 0 $?
        pid=
    else
        bad "a private clickhouse-server starts"
    fi
    ch_stop_all
else
    echo "skip: the ClickHouse part (clickhouse-server is not installed)"
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
