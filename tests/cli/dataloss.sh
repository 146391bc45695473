#!/usr/bin/env bash
# dataloss.sh: nothing lost, nothing silent (issue 28), built from the faults themselves.
#  1. A reader holding a transaction while an add runs leaves a WAL; a build then replaces
#     the index without replaying that WAL into the new file, and waits for (or refuses,
#     "index busy") a reader still there.
#  2. An output that is one of the inputs (also through a link) is refused.
#  3. Two writers at once: the second waits; an add during a build waits for it and is
#     not lost; --wait 0 refuses at once and says nothing was written.
#  4. A file that does not read (a link to nothing, a file removed midway) is named and
#     counted, the others indexed; nothing read at all leaves the old index.
#  5. kill -9 at random points of build and add leaves the old index or the new one, and
#     the next build removes the leftovers.
#  6. Link loops in a tree: each directory searched once.
#  7. A full device or a size limit: exit 3, the summary counts what was written, the
#     index (not its temp file) is named.
#  8. html writes the good records and says what it left out.  9. explore checks dates.
# 10. Messages name the cause; a damaged index is exit 3.  11. Long names.
# 12. Out of memory fails the build whole (exit 4), never a record "skipped".
# Usage: dataloss.sh KIFU [SHARED_DIR]
set -u
kifu=$1
pass=0 fail=0 skipped=0
. "$(dirname "${BASH_SOURCE[0]}")/lib.bash"
if ! command -v python3 >/dev/null || ! command -v sqlite3 >/dev/null; then
    echo "skip: python3 and sqlite3 are needed (scripts/deps.sh installs them)"
    echo "0 passed, 0 failed, 1 skipped"
    exit 77
fi
tmp=$(mktemp -d) && trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1

# N games, one a file, each a few pawn pushes (any order is legal): DIR N FIRST SEED.
gen() {
    python3 - "$@" <<'PY'
import os, random, sys
d, n, first = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
random.seed(int(sys.argv[4]))
os.makedirs(d, exist_ok=True)
for i in range(first, first + n):
    m = random.randint(2, 8)
    s = random.sample(range(1, 10), m); g = random.sample(range(1, 10), m)
    lines = ["V2.2", "N+P%d" % i, "N-Q%d" % i, "PI", "+"]
    for a, b in zip(s, g):
        lines += ["+%d7%d6FU" % (a, a), "-%d3%d4FU" % (b, b)]
    lines.append("%TORYO")
    open(os.path.join(d, "g%05d.csa" % i), "w").write("\n".join(lines) + "\n")
PY
}
games() { "$kifu" index info "$1" | awk '/^games/ {print $2}'; }
integrity() { sqlite3 "$1" 'PRAGMA integrity_check' 2>&1 | head -1; }

# A reader holding a read transaction on an index until the file `go` appears (bounded:
# 30 s). Prints "held" once it holds it.
cat >reader.py <<'PY'
import os, sqlite3, sys, time
c = sqlite3.connect(sys.argv[1], isolation_level=None)
c.execute("BEGIN")
c.execute("SELECT count(*) FROM games").fetchall()
print("held", flush=True)
for _ in range(300):
    if os.path.exists("go"):
        break
    time.sleep(0.1)
PY
hold() { # INDEX: starts a reader, returns once it holds its transaction
    rm -f go
    python3 reader.py "$1" >held &
    reader=$!
    for _ in $(seq 100); do grep -q held held 2>/dev/null && return; sleep 0.05; done
    bad "the reader did not start"
}

gen A 300 0 1
gen B 479 1000 2

# ---- 1. a WAL left beside an index is not replayed into the one built over it ----------
"$kifu" index build A -o k.kdb
hold k.kdb
"$kifu" index add k.kdb B 2>/dev/null
kill -9 $reader; wait $reader 2>/dev/null # gone without folding its log in
[ -s k.kdb-wal ] && ok || bad "the scene: the add left a WAL beside the index"
"$kifu" index build B -o k.kdb 2>err
check "build over an index with a WAL: exit 0" 0 $?
check "build over an index with a WAL: the new games only" 479 "$(games k.kdb)"
check "build over an index with a WAL: integrity" ok "$(integrity k.kdb)"
[ -e k.kdb-wal ] && bad "the old WAL is still there" || ok

# A reader still holding a transaction: the build waits for it (--wait), then says the
# index is busy and leaves it; once the reader is gone the build goes through.
"$kifu" index build A -o r.kdb
"$kifu" index add r.kdb B 2>/dev/null
before=$(sqlite3 r.kdb .dump | md5sum)
hold r.kdb
"$kifu" index build B -o r.kdb --wait 0.5 2>err
check "build while a reader holds the index: exit 3" 3 $?
grep -q "r.kdb: another process is reading this index; waiting up to 0.5 s" err && ok ||
    bad "the wait is said: $(cat err)"
grep -q "r.kdb: index busy: another process has it open; not replaced" err && ok ||
    bad "busy is said: $(cat err)"
ls | grep -q 'r.kdb.kifu-build' && bad "a refused build left its file" || ok
touch go; wait $reader
check "a refused build leaves the index" "$before" "$(sqlite3 r.kdb .dump | md5sum)"
hold r.kdb
( sleep 1; touch go ) &
"$kifu" index build B -o r.kdb 2>err
check "a build that waited for the reader: exit 0" 0 $?
wait $reader
check "a build that waited for the reader: the new games" 479 "$(games r.kdb)"
check "a build that waited for the reader: integrity" ok "$(integrity r.kdb)"

# A link to an index: its target is locked and replaced, the link kept.
mkdir sub && "$kifu" index build A -o sub/real.kdb && ln -s sub/real.kdb lnk.kdb
"$kifu" index build B -o lnk.kdb
[ -L lnk.kdb ] && ok || bad "a build through a link replaced the link"
check "a build through a link: the target is the new index" 479 "$(games sub/real.kdb)"

# ---- 2. an output that is one of the inputs ---------------------------------------------
cp A/g00000.csa g.csa
ln -s g.csa link.csa
ln g.csa hard.csa
sum=$(md5sum <g.csa)
for cmd in "index build g.csa -o g.csa" "index build link.csa -o g.csa" \
    "index build g.csa -o link.csa" "index build A hard.csa -o g.csa" \
    "convert g.csa -o hard.csa" "convert g.csa -t csa -o link.csa" "html g.csa -o g.csa"; do
    "$kifu" $cmd 2>err
    rc=$?
    [ $rc -ne 0 ] && ok || bad "$cmd: exit 0"
    grep -q "not written: it is one of the inputs" err && ok || bad "$cmd: said: $(cat err)"
    check "$cmd: the input is as it was" "$sum" "$(md5sum <g.csa)"
done
[ -L link.csa ] && ok || bad "the link is still a link"
# An input that is not a record: the tag file convert --tags reads.
printf '# my definitions\n' >my.tags
"$kifu" convert g.csa -t kif --tags --tag-file my.tags -o my.tags 2>err
[ $? -ne 0 ] && grep -q "my.tags: not written: it is one of the inputs" err && ok ||
    bad "convert -o over its --tag-file: $(cat err)"
check "convert -o over its --tag-file: the file is as it was" "# my definitions" "$(cat my.tags)"
"$kifu" explore k.kdb --export yane2016 -o k.kdb 2>err
[ $? -ne 0 ] && grep -q "not written: it is one of the inputs" err && ok ||
    bad "explore --export over its own index: $(cat err)"
check "explore --export over its own index: the index is there" 479 "$(games k.kdb)"
# A file that is not an index is not replaced by one.
echo 'notes' >notes.txt
"$kifu" index build A -o notes.txt 2>err
check "build over a file that is not an index: exit 2" 2 $?
check "build over a file that is not an index: kept" notes "$(cat notes.txt)"
grep -q "notes.txt: not an index: not replaced" err && ok || bad "said: $(cat err)"

# ---- 3. two writers at once ---------------------------------------------------------------
# Waits until a build of $1 has made its new file, which it does after taking the lock
# (a fixed sleep raced with a build slow to start on a loaded machine); at most 5 s, and
# a build already over is no wait.
building() {
    for _ in $(seq 500); do
        ls | grep -q "^$1.kifu-build" && return
        kill -0 "$pb" 2>/dev/null || return
        sleep 0.01
    done
}
gen C 1500 5000 3
"$kifu" index build A -o two.kdb
"$kifu" index add two.kdb B 2>err1 &
p1=$!
"$kifu" index add two.kdb C 2>err2
rc2=$?
wait $p1
rc1=$?
check "two adds at once: both exit 0" "0 0" "$rc1 $rc2"
check "two adds at once: every game" $((300 + 479 + 1500)) "$(games two.kdb)"
check "two adds at once: integrity" ok "$(integrity two.kdb)"
# An add while a build of the same file runs waits for it, then adds to the new index.
"$kifu" index build A -o bw.kdb
"$kifu" index build C -o bw.kdb &
pb=$!
building bw.kdb
"$kifu" index add bw.kdb B 2>err
rca=$?
wait $pb
check "add during a build: both exit 0" "0 0" "$rca $?"
check "add during a build: the build's games and the add's" $((1500 + 479)) "$(games bw.kdb)"
# Refusing at once (--wait 0): "index busy", and nothing said to be written.
"$kifu" index build C -o bw.kdb &
pb=$!
building bw.kdb
"$kifu" index add bw.kdb B --wait 0 -v 2>err
rca=$?
wait $pb
if grep -q "another process is writing" err || [ $rca -ne 0 ]; then
    check "add refused during a build: exit 3" 3 $rca
    grep -q "bw.kdb: index busy: another process is writing it" err && ok || bad "said: $(cat err)"
    grep -q written err && bad "a refused add says written: $(cat err)" || ok
    check "add refused during a build: the build's games" 1500 "$(games bw.kdb)"
else
    echo "(the build was over before the add)"
fi
# A writer holding the lock (flock on the index, as kifu's writers take it).
python3 -c '
import fcntl, os, sys, time
f = open("two.kdb", "rb"); fcntl.flock(f, fcntl.LOCK_EX); print("locked", flush=True)
for _ in range(300):
    if os.path.exists("go"): break
    time.sleep(0.1)' >held &
locker=$!
rm -f go
for _ in $(seq 100); do grep -q locked held 2>/dev/null && break; sleep 0.05; done
"$kifu" index compact two.kdb --wait 0.3 2>err
check "compact while another writes: exit 3" 3 $?
grep -q "two.kdb: index busy" err && ok || bad "said: $(cat err)"
( sleep 0.5; touch go ) &
"$kifu" index compact two.kdb 2>err
check "compact after waiting for the writer: exit 0" 0 $?
grep -q "two.kdb: another process is writing this index; waiting up to 30 s" err && ok ||
    bad "the wait is said: $(cat err)"
wait $locker

# ---- 4. a file that does not read costs only itself ----------------------------------------
mkdir D && cp A/g0000[0-4].csa D/
ln -s nowhere.csa D/dangling.csa
"$kifu" index build D -o d.kdb 2>err
check "build with a link to nothing: exit 3" 3 $?
check "build with a link to nothing: the other games are indexed" 5 "$(games d.kdb)"
grep -q "D/dangling.csa: a link to nothing: skipped" err && ok || bad "named: $(cat err)"
grep -q "d.kdb: 5 games.* 6 files (5 new, 0 replaced, 0 unchanged, 1 failed" err && ok ||
    bad "counted in the summary: $(cat err)"
"$kifu" index build A/g00010.csa gone.csa -o d2.kdb 2>err
check "build with a missing file: exit 3" 3 $?
check "build with a missing file: the other game is indexed" 1 "$(games d2.kdb)"
grep -q "gone.csa" err && grep -q "1 failed" err && ok || bad "named and counted: $(cat err)"
# Nothing read at all (a misspelt directory): the index is not replaced by an empty one.
before=$(sqlite3 d.kdb .dump | md5sum)
"$kifu" index build Dx -o d.kdb 2>err
check "build of nothing that reads: exit 3" 3 $?
grep -q "d.kdb: not written: no file could be read" err && ok || bad "said: $(cat err)"
check "build of nothing that reads: the index stays" "$before" "$(sqlite3 d.kdb .dump | md5sum)"
"$kifu" index add d.kdb A/g00011.csa gone.csa 2>err
check "add with a missing file: exit 3" 3 $?
check "add with a missing file: the good one added" 6 "$(games d.kdb)"
if [ "$(id -u)" != 0 ]; then
    cp A/g00012.csa D/closed.csa && chmod 000 D/closed.csa
    "$kifu" index build D -o d3.kdb 2>err
    check "build with an unreadable file: exit 3" 3 $?
    check "build with an unreadable file: the others indexed" 5 "$(games d3.kdb)"
    grep -q "closed.csa" err && ok || bad "named: $(cat err)"
else
    skipped=$((skipped + 1))
    echo "(skip: permission errors, running as root)"
fi
# A file removed while the build runs: once the build has listed the files (its new
# file is there), the last one goes.
gen E 3000 20000 4
(
    for _ in $(seq 500); do ls | grep -q 'e.kdb.kifu-build' && break; sleep 0.01; done
    rm -f E/g22999.csa
) &
"$kifu" index build E -o e.kdb 2>err
rc=$?
wait
if grep -q "g22999.csa" err; then
    check "a file removed midway: exit 3" 3 $rc
    check "a file removed midway: the others indexed" 2999 "$(games e.kdb)"
else
    echo "(the file was read before it was removed)"
fi

# ---- 5. kill -9 at random points ---------------------------------------------------------
"$kifu" index build A -o kb.kdb
"$kifu" index build C -o full.kdb
old=$(sqlite3 kb.kdb .dump | md5sum) new=$(sqlite3 full.kdb .dump | md5sum)
"$kifu" index build A -o ka.kdb
cp ka.kdb kadone.kdb && "$kifu" index add kadone.kdb C
adone=$(sqlite3 kadone.kdb .dump | md5sum) abefore=$(sqlite3 ka.kdb .dump | md5sum)
kills=0
for try in $(seq 12); do
    delay=$(python3 -c "import random; print(random.uniform(0, 0.4))")
    "$kifu" index build C -o kb.kdb 2>/dev/null &
    pid=$!
    cp ka.kdb kx.kdb
    "$kifu" index add kx.kdb C 2>/dev/null &
    pa=$!
    sleep "$delay"
    kill -9 $pid $pa 2>/dev/null && kills=$((kills + 1))
    wait $pid $pa 2>/dev/null
    now=$(sqlite3 kb.kdb .dump | md5sum)
    [ "$now" = "$old" ] || [ "$now" = "$new" ] && ok ||
        bad "build killed after ${delay}s: the index is neither the old nor the new one"
    now=$(sqlite3 kx.kdb .dump | md5sum)
    [ "$now" = "$abefore" ] || [ "$now" = "$adone" ] && ok ||
        bad "add killed after ${delay}s: the index is neither as before nor with the add"
    check "killed add: integrity" ok "$(integrity kx.kdb)"
    rm -f kx.kdb-wal kx.kdb-shm
    "$kifu" index build A -o kb.kdb # back to the old one, and the leftovers removed
    ls | grep -q 'kifu-build' && bad "leftovers of a killed build stay: $(ls | grep kifu-build)" || ok
done
echo "killed $kills of 12 builds and adds"
# What a killed build leaves is removed by the next write to the index, an add or a
# compact too, not only by the next build.
for next in "index add kb.kdb B/g01000.csa" "index compact kb.kdb"; do
    "$kifu" index build C -o kb.kdb 2>/dev/null &
    pb=$!
    building kb.kdb
    kill -9 $pb 2>/dev/null
    wait $pb 2>/dev/null
    if ls | grep -q 'kb.kdb.kifu-build'; then
        "$kifu" $next 2>err
        check "$next after a killed build: exit 0" 0 $?
        ls | grep -q 'kb.kdb.kifu-build' && bad "$next left the killed build's files: $(ls | grep kifu-build)" || ok
    else
        echo "(the build was over before the kill)"
    fi
done

# ---- 6. link loops: each directory is searched once, the links skipped are named ----
mkdir -p L/s && cp A/g00000.csa L/ && ln -s .. L/s/up && ln -s . L/self
timeout 60 "$kifu" index build L -o l.kdb 2>err
check "a tree with link loops: build exits 0" 0 $?
check "a tree with link loops: the record once" 1 "$(games l.kdb)"
grep -q "L/s/up: a link to a directory searched already: skipped" err && ok ||
    bad "the link up is named: $(cat err)"
grep -q "L/self: a link to a directory searched already: skipped" err && ok ||
    bad "the link to itself is named: $(cat err)"
timeout 60 "$kifu" convert L --out-dir Lout -t kif 2>err
check "a tree with link loops: convert exits 0" 0 $?
check "a tree with link loops: one file converted" 1 "$(find Lout -type f | wc -l)"

# ---- 7. a full device: every command checks its writes and its last flush -------------
for cmd in "index info k.kdb" "perft startpos 3" "index schema --clickhouse" "help" "-V" \
    "index --help" "convert -t csa A/g00001.csa" "explore k.kdb" "explore k.kdb --json" \
    "search --sfen startpos --index k.kdb -c" "index players k.kdb"; do
    "$kifu" $cmd >/dev/full 2>err
    check "$cmd >/dev/full: exit 3" 3 $?
    grep -q "cannot write to standard output: No space left on device" err && ok ||
        bad "$cmd >/dev/full: said: $(cat err)"
done
# Converting to a stream that takes only 40 KB (a file size limit): the summary counts
# what was written, one record after another, and the rest as failed.
(
    ulimit -f 40
    trap '' XFSZ
    "$kifu" convert C -o - -t csa >limited.csa 2>err
    echo $? >rc
)
check "-o - to a stream that fills: exit 3" 3 "$(cat rc)"
whole=$(grep -c '^%TORYO' limited.csa)
grep -q "1500 files: $whole converted, $((1500 - whole)) failed" err && ok ||
    bad "the summary counts the $whole records written: $(cat err)"
[ "$whole" -gt 0 ] && [ "$whole" -lt 1500 ] && ok || bad "the scene: $whole records fit"
# A build that cannot write its index names the index, not its temp file, and leaves
# the old one and nothing beside it.
# Early (making the file, 100 KB) and late (writing the games, 300 KB).
"$kifu" index build A -o fs.kdb
before=$(sqlite3 fs.kdb .dump | md5sum)
for lim in 100 300; do
    (
        ulimit -f $lim
        trap '' XFSZ
        "$kifu" index build C -o fs.kdb 2>err
        echo $? >rc
    )
    check "a build that cannot write ($lim KB): exit 3" 3 "$(cat rc)"
    grep -q "^kifu: fs.kdb: " err && ok || bad "the index is named: $(cat err)"
    grep -q "kifu-build" err && bad "the temp file is named: $(cat err)" || ok
    check "a build that cannot write leaves the old index" "$before" "$(sqlite3 fs.kdb .dump | md5sum)"
    ls | grep -q 'fs.kdb.kifu-build' && bad "a failed build left: $(ls | grep fs.kdb.kifu)" || ok
done

# ---- 8. html: a bad record costs only itself, and is said ----------------------------------
# (A record broken inside: a file that is no record by its content at all is skipped
# instead, as a README among records, cli_collection.)
mkdir H && cp A/g0000[0-3].csa H/ && printf 'V2.2\nPI\n+\n+5555FU\n' >H/g00002.csa
"$kifu" html H/g00000.csa H/g00001.csa H/g00003.csa -o good.html
"$kifu" html H -o page.html 2>err
check "html with a bad record: exit 1" 1 $?
grep -q "H/g00002.csa" err && ok || bad "the bad record is named: $(cat err)"
grep -q "page.html: written without the 1 file named above" err && ok ||
    bad "the page says it lacks one: $(cat err)"
cmp -s good.html page.html && ok || bad "the page holds the good records"
"$kifu" html H/g00002.csa -o none.html 2>err
check "html with no good record: exit 1" 1 $?
grep -q "none.html: not written" err && [ ! -e none.html ] && ok || bad "not written, said: $(cat err)"

# ---- 9. explore: dates are dates ----------------------------------------------------------
for d in 2025-13-45 2024-02-30 2023-02-29 2024 2024-1-01 2024-06-01x; do
    "$kifu" explore k.kdb --since "$d" >/dev/null 2>err
    check "--since $d: a usage error" 2 $?
    grep -q "takes a date, YYYY-MM-DD, not '$d'" err && ok || bad "--since $d: said: $(cat err)"
done
"$kifu" explore k.kdb --since 2024-02-29 --until 2024-12-31 >/dev/null
check "--since 2024-02-29 (a leap day) is taken" 0 $?

# ---- 10. messages name the cause; a damaged index is exit 3, as the help says -----------
echo 'not an index' >text.kdb
sqlite3 foreign.kdb 'CREATE TABLE t(x); INSERT INTO t VALUES(1);'
head -c 20000 k.kdb >truncated.kdb
for f in text.kdb foreign.kdb truncated.kdb; do
    for cmd in "index info $f" "explore $f" "index add $f A/g00001.csa" "index compact $f" \
        "search --sfen startpos --index $f"; do
        "$kifu" $cmd >/dev/null 2>err
        check "$cmd: exit 3" 3 $?
    done
done
# A directory given for an index: SQLite's word was "disk I/O error".
mkdir dir.kdb
for cmd in "index info dir.kdb" "explore dir.kdb" "index add dir.kdb A/g00001.csa" \
    "search --sfen startpos --index dir.kdb"; do
    "$kifu" $cmd >/dev/null 2>err
    check "$cmd: exit 3" 3 $?
    grep -q "^kifu: dir.kdb: a directory, not an index$" err && ok || bad "$cmd: said: $(cat err)"
done
"$kifu" index build A -o dmg.kdb
sqlite3 dmg.kdb 'UPDATE positions SET block = randomblob(length(block))'
"$kifu" explore dmg.kdb --moves 7g7f --player P1 >/dev/null 2>err
check "a block that does not decode: exit 3" 3 $?
grep -q "dmg.kdb: damaged: positions row [0-9]* does not match its checksum: rebuild with kifu index build" err && ok ||
    bad "a block that does not decode: said: $(cat err)"
grep -q "not an error" err && bad "\"not an error\": $(cat err)" || ok
"$kifu" index info --clickhouse http://127.0.0.1:1 2>err
check "a server that is not there: exit 3" 3 $?
grep -q "<input>" err && bad "a server's error says <input>: $(cat err)" || ok
grep -q "^kifu: .*127.0.0.1:1.*Connection refused" err && ok || bad "said: $(cat err)"

# ---- 11. long names: legal names are written, an index's too long name is refused ------
long=$(python3 -c "print('a' * 246 + '.kif')")    # 250 bytes
wide=$(python3 -c "print('棋' * 83 + '.kif')")     # 253 bytes, 3 a character
for name in "$long" "$wide"; do
    "$kifu" convert A/g00001.csa -t kif -o "$name" 2>err
    check "a ${#name}-character name: converted" 0 $?
    [ -s "$name" ] && ok || bad "a ${#name}-character name: written"
done
ls | grep -q 'kifu-tmp' && bad "temp files left: $(ls | grep kifu-tmp)" || ok
k247=$(python3 -c "print('b' * 243 + '.kdb')")
"$kifu" index build A -o "$k247" && "$kifu" index add "$k247" B 2>err
check "an index of a 247-byte name: built and added to" 779 "$(games "$k247")"
k250=$(python3 -c "print('c' * 246 + '.kdb')")
"$kifu" index build A -o "$k250" 2>err
check "an index of a 250-byte name: refused" 2 $?
grep -q "the name is too long for an index: SQLite adds \"-journal\" to it (at most 247" err &&
    ok || bad "said: $(cat err)"
ls | grep -q '^ccc' && bad "a refused build left a file" || ok

# ---- 12. out of memory is not a bad record: the build fails whole, the index stays -------
# (A sanitizer's build reserves terabytes of address space: no limit fits it.)
if grep -q __asan_init "$kifu" 2>/dev/null; then
    skipped=$((skipped + 1))
    echo "(skip: out of memory, a sanitizer's build)"
else
    "$kifu" index build B -o mem.kdb
    before=$(sqlite3 mem.kdb .dump | md5sum)
    (
        ulimit -v 80000
        # One thread: ulimit -v counts the address space threads reserve (stacks, malloc
        # arenas), and with more the build runs out at its final write, not in a file.
        "$kifu" index build -j 1 A -o mem.kdb 2>err
        echo $? >rc
    )
    check "a build out of memory: exit 4" 4 "$(cat rc)"
    grep -q "^kifu: A/g00000.csa: out of memory" err && ok ||
        bad "said, with the file: $(head -3 err)"
    grep -q "skipped" err && bad "out of memory taken for a bad record: $(head -3 err)" || ok
    check "a build out of memory leaves the index" "$before" "$(sqlite3 mem.kdb .dump | md5sum)"
fi

echo "$pass passed, $fail failed, $skipped skipped"
[ $fail -eq 0 ]
