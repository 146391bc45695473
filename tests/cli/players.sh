#!/usr/bin/env bash
# Players and duplicates in the index, on the collection tests/gen/players.sh writes (its
# counts known by construction: 26 distinct games, 9 duplicates; hashiryoma 18 games under
# 10 spellings, 鎌田睦生 8 under 4 (its CSA copy is a duplicate); 5 games with both players rated 1500 or more).
# Also explore's SFEN move number, JSON as UTF-8, Japanese --moves, errors on the user's
# move, --no-games, and the "did you mean" of an unknown player.
# Usage: players.sh KIFU [SHARED_DIR]; with KIFU_TEST_INDEX=http://HOST:PORT the same checks on
# ClickHouse (index_lib.bash).
set -u
kifu=$1
here=$(cd "$(dirname "$0")" && pwd)
pass=0 fail=0
# KIFU_TEST_INDEX: the same checks on ClickHouse (index_lib.bash)
. "$here/index_lib.bash"
. "$(dirname "${BASH_SOURCE[0]}")/lib.bash"
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
bash "$here/../gen/players.sh" col || { echo "FAILED: the collection"; exit 1; }
games() { # explore's game count of the start position with these options
    "$kifu" explore g.kdb "$@" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["games"])'
}

"$kifu" index build col -o g.kdb 2>err; check "build: exit 0" 0 $?
info=$("$kifu" index info g.kdb)
check "info: games" "games      26" "$(echo "$info" | grep '^games')"
check "info: duplicates skipped" "duplicates 9 (games skipped as indexed already)" \
    "$(echo "$info" | grep '^duplicates')"

# --player by key, however it is written
check "--player hashiryoma" 18 "$(games --player hashiryoma)"
check "--player 'ＨＡＳＨＩＲＹＯＭＡ 初段'" 18 "$(games --player 'ＨＡＳＨＩＲＹＯＭＡ 初段')"
check "--player ':hashiryoma(1500)'" 18 "$(games --player ':hashiryoma(1500)')"
check "--player hashiryoma --color gote" 6 "$(games --player hashiryoma --color gote)"
check "--player 鎌田睦生" 8 "$(games --player 鎌田睦生)"
check "--player '鎌田　睦生' (full-width space)" 8 "$(games --player '鎌田　睦生')"
check "--player '五段 鎌田 睦生(北上)'" 8 "$(games --player '五段 鎌田 睦生(北上)')"
check "--player-like HASHI" 18 "$(games --player-like HASHI)"
check "--player-like bot" 6 "$(games --player-like bot)"
check "--player-like opp1 (opp1, opp10, opp11)" 3 "$(games --player-like opp1)"
check "--min-rating 1500 (ratings from the names)" 5 "$(games --min-rating 1500)"
check "--min-rating 1750 (bot5(1900) - :hashiryoma(1750))" 1 "$(games --min-rating 1750)"

# did you mean
"$kifu" explore g.kdb --player 鎌田睦 >out 2>err
rc=$?
check "unknown player: exit 1" 1 $rc
grep -q "no player '鎌田睦' in the index; did you mean 鎌田睦生?" err && ok || bad "did you mean: $(cat err)"
"$kifu" explore g.kdb --player hashiryomo 2>err >/dev/null
grep -q "did you mean hashiryoma" err && ok || bad "did you mean (a letter off): $(cat err)"

# index players
"$kifu" index players g.kdb --json --like 'HASHIRYOMA' >pl.json; check "players: exit 0" 0 $?
check "players --like: one key, 18 games, 10 spellings, ratings 1700-1750, dates" \
    "hashiryoma 18 10 6 12 1700 1750 2024-01-01 2024-02-06" \
    "$(python3 -c 'import json
for l in open("pl.json"):
    p = json.loads(l)
    print(p["key"], p["games"], len(p["names"]), p["wins"], p["losses"], p["min_rating"], p["max_rating"], p["first_date"], p["last_date"])')"
grep -q '"hashiryoma 二段"' pl.json && grep -q '":hashiryoma(1700)"' pl.json && ok ||
    bad "players: names as written: $(cat pl.json)"
"$kifu" index players g.kdb --like 鎌田 >pl.txt
check "players (text): the key line" "鎌田睦生  8 games (+0 -8 =0)  2019-05-01..2019-05-08" "$(head -1 pl.txt)"
check "players (text): 4 spellings" 4 "$(tail -n +2 pl.txt | grep -cvE '^    (sente|gote) (戦法|囲い): ')"
# Its tags: every game of 鎌田睦生 is 力戦 on its side (two pawn pushes), all lost.
check "players (text): the tags line with results" "    sente 戦法: 力戦 8 (+0 -8 =0)" \
    "$(grep -E '^    (sente|gote) ' pl.txt)"
check "players: every key (3 + bot0-5 + opp0-11)" 21 "$("$kifu" index players g.kdb --json | wc -l)"

# names shown as written
"$kifu" explore g.kdb --player hashiryoma --top 10 >table
grep -q "hashiryoma 二段 - opp0 1級" table && ok || bad "explore lists names as written: $(head -5 table)"

# each game once: a copy of an indexed file under another path adds nothing
mkdir again && cp col/wars/w0.kif again/copy.kif
"$kifu" index add g.kdb again -v 2>err; check "add of a copy: exit 0" 0 $?
grep -q "1 duplicates" err && ok || bad "add -v counts the duplicate: $(cat err)"
check "add of a copy: games unchanged" "games      26" "$("$kifu" index info g.kdb | grep '^games')"
check "add of a copy: duplicates 10" "duplicates 10 (games skipped as indexed already)" \
    "$("$kifu" index info g.kdb | grep '^duplicates')"
mkdir again2 && cp col/wars/w1.kif again2/copy2.kif
"$kifu" index add g.kdb again2 --keep-duplicates
check "--keep-duplicates adds it" "games      27" "$("$kifu" index info g.kdb | grep '^games')"
"$kifu" index build col -o k.kdb --keep-duplicates
check "build --keep-duplicates: every game" "games      35" "$("$kifu" index info k.kdb | grep '^games')"
# A changed file's games are not duplicates of its old ones.
printf '\n' >>col/club/c1.kif
"$kifu" index add g.kdb col/club/c1.kif -v 2>err
grep -q "1 replaced.*0 duplicates" err && ok || bad "a changed file is replaced: $(cat err)"
check "a changed file: games unchanged" "games      27" "$("$kifu" index info g.kdb | grep '^games')"

# explore: the move number, UTF-8 JSON, Japanese moves, errors, --no-games
"$kifu" explore g.kdb --moves 7g7f 3c3d 2g2f >m3
check "SFEN after three moves carries 4" "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P4P1/PP1PPPP1P/1B5R1/LNSGKGSNL w - 4" "$(head -1 m3)"
"$kifu" explore g.kdb --sfen 'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 5' --moves 7g7f >m5
check "--sfen N and one move: N+1" "w - 6" "$(head -1 m5 | grep -o 'w - [0-9]*')"
"$kifu" explore g.kdb --json >j
grep -q '☗' j && ! grep -q '\\u' j && ok || bad "--json writes UTF-8 as it is: $(head -c 300 j)"
"$kifu" explore g.kdb --moves ７六歩 ３四歩 >a
"$kifu" explore g.kdb --moves 7g7f 3c3d >b
cmp -s a b && ok || bad "--moves ７六歩 ３四歩 as 7g7f 3c3d"
"$kifu" explore g.kdb --moves '☗７六歩 ☖３四歩' >a
cmp -s a b && ok || bad "--moves '☗７六歩 ☖３四歩'"
"$kifu" explore g.kdb --moves 7g7f 3c3d 8h2b+ 同銀 >a
"$kifu" explore g.kdb --moves 7g7f 3c3d 8h2b+ 3a2b >b
cmp -s a b && ok || bad "--moves with 同銀"
"$kifu" explore g.kdb --moves 7g7f 7x7f 2>err >/dev/null
check "a bad move: exit 1" 1 $?
grep -q "^kifu: --moves: move 2 '7x7f'" err && ok || bad "the error names the user's move: $(cat err)"
"$kifu" explore g.kdb --no-games >ng
"$kifu" explore g.kdb >wg
check "--no-games: the move lines only" "$(grep -v '^    ' wg)" "$(cat ng)"
[ "$(wc -l <wg)" -gt "$(wc -l <ng)" ] && ok || bad "--no-games hides games"
"$kifu" explore g.kdb --no-games --json | grep -q '"top"' && bad "--no-games --json has top" || ok

# the key itself, in the C API's words, as kifu index players prints it
"$kifu" index players g.kdb | grep -q '^及川直孝  8 games' && ok || bad "affiliation out of the key"

# The player page's tags (kifu_index_player_named): the player whose key or a spelling is
# the name (found by its key), else the only one its key is a part of, else none; each
# as kifu index players --json gives that player.
if [ -z "${KIFU_TEST_INDEX:-}" ]; then
    serve_start sv sverr g.kdb --cache 0 && ok || bad "serve printed no URL: $(cat sverr)"
    spid=$pid
    tags_of() { # the tags index players --json gives the player of key $1 ([] for none)
        "$kifu" index players g.kdb --json | python3 -c '
import json, sys
print(next((json.dumps(d["tags"]) for d in map(json.loads, sys.stdin) if d["key"] == sys.argv[1]), "[]"))' "$1"
    }
    page_tags() { # /api/players?player=$1's tags
        python3 -c '
import json, sys, urllib.parse, urllib.request
u = "http://127.0.0.1:%s/api/players?player=%s" % (sys.argv[1], urllib.parse.quote(sys.argv[2]))
print(json.dumps(json.load(urllib.request.urlopen(u, timeout=10))["tags"]))' "$port" "$1"
    }
    [ "$(tags_of hashiryoma)" != "[]" ] && ok || bad "hashiryoma has tags"
    for c in "hashiryoma 二段|hashiryoma|a spelling" "hashiryoma|hashiryoma|the key" \
        "HASHIRYOMA|hashiryoma|the only key it is a part of" "opp1|opp1|the key (opp10, opp11 too)" \
        "OPP1|-|three keys, none its own" "bot|-|six keys" "nobody|-|no key"; do
        IFS='|' read -r name key why <<<"$c"
        check "player page tags: $name ($why)" "$(tags_of "$key")" "$(page_tags "$name")"
    done
    kill "$spid" && wait "$spid" 2>/dev/null
fi

echo "$pass passed, $fail failed, $skipped skipped"
[ $fail -eq 0 ]
