#!/usr/bin/env bash
# kifu html: the page is written quietly, parses as HTML, refers to nothing outside
# itself and embeds the posjson of every game; options and errors (exit codes, FILE:LINE:
# COLUMN messages). The page in a browser: tests/browser/test_html.py.
# Usage: html.sh KIFU [SHARED_DIR]
set -u
kifu=$1
src=$(cd "$(dirname "$0")/../.." && pwd)
pass=0 fail=0
. "$(dirname "${BASH_SOURCE[0]}")/lib.bash"
command -v python3 >/dev/null || { echo "skip: no python3"; echo "0 passed, 0 failed, 1 skipped"; exit 77; }
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
sample=$src/samples/opening.kifu

# Written quietly to -o; the same page on stdout without it.
"$kifu" html "$sample" -o "$tmp/p.html" >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 0 ] && [ ! -s "$tmp/out" ] && [ ! -s "$tmp/err" ] && ok || bad "-o: exit $rc, $(cat "$tmp/out" "$tmp/err")"
"$kifu" html "$sample" >"$tmp/stdout.html" && cmp -s "$tmp/p.html" "$tmp/stdout.html" && ok || bad "stdout page differs"
"$kifu" html - <"$sample" >"$tmp/stdin.html" && grep -q '"move":"☗７六歩(77)"' "$tmp/stdin.html" && ok || bad "stdin"

# The page: HTML with one data block whose positions are `kifu convert -t posjson`, no
# external script, style, image or link.
"$kifu" convert "$sample" -t posjson >"$tmp/p.json"
check_page() { # PAGE [POSJSON...]: prints what is wrong, nothing when right
    python3 - "$@" <<'PY'
import json, sys
from html.parser import HTMLParser
page, want = sys.argv[1], sys.argv[2:]
class P(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags, self.refs, self.data, self.cur = [], [], [], None
    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        a = dict(attrs)
        for k in ("src", "href"):
            if k in a and not a[k].startswith("#"):
                self.refs.append(a[k])
        if tag == "link":
            self.refs.append(str(a))
        self.cur = a.get("id")
    def handle_data(self, d):
        if self.cur == "kifu-data":
            self.data.append(d)
    def handle_endtag(self, tag):
        self.cur = None
p = P()
p.feed(open(page, encoding="utf-8").read())
for tag, n in (("html", 1), ("style", 1), ("script", 2), ("title", 1)):
    if p.tags.count(tag) != n:
        print("%d <%s>" % (p.tags.count(tag), tag))
if p.refs:
    print("refers outside: %s" % p.refs)
data = json.loads("".join(p.data))
got = [r["positions"] for r in data["records"]]
exp = [json.load(open(w, encoding="utf-8")) for w in want]
if want and got != exp:
    print("positions differ from posjson: %d records, want %d" % (len(got), len(exp)))
print("catalogue" if data["catalogue"] else "", end="")
PY
}
out=$(check_page "$tmp/p.html" "$tmp/p.json")
[ -z "$out" ] && ok || bad "page: $out"
grep -q '<title>先手太郎 対 後手花子</title>' "$tmp/p.html" && ok || bad "title from the players"

# Several files, several games: one viewer each, in order.
"$kifu" convert "$sample" -t csa -o "$tmp/g.csa" 2>/dev/null
"$kifu" convert "$tmp/g.csa" -t posjson >"$tmp/g.json"
"$kifu" html "$sample" "$tmp/g.csa" -o "$tmp/two.html" && ok || bad "two files"
out=$(check_page "$tmp/two.html" "$tmp/p.json" "$tmp/g.json")
[ -z "$out" ] && ok || bad "two files: $out"
mkdir "$tmp/dir" && cp "$sample" "$tmp/g.csa" "$tmp/dir/"
"$kifu" html "$tmp/dir" -o "$tmp/dir.html" && [ "$(grep -c '^{"positions":\|^,$' "$tmp/dir.html")" -ge 1 ] &&
    [ -z "$(check_page "$tmp/dir.html" "$tmp/g.json" "$tmp/p.json")" ] && ok || bad "a directory (name order)"

# A posjson file of unrelated positions is a catalogue by itself; --no-catalogue and
# --catalogue decide otherwise.
cat >"$tmp/cat.json" <<'J'
[{"bd":"dfhjvjhfdonooooolobbbbbbbbboooooooooooooooooooooooooooaaaaaaaaaokooooomocegiuigec","cb":"","cw":""},
{"bd":"oooooooooooooooojdooooosobvoooooooqooooooooaooooooooooooooooooooooooooooooooooooo","cb":"","cw":"bbbbbbbbbbbbbbbbdddffffhhhhjjjln"}]
J
"$kifu" html "$tmp/cat.json" -o "$tmp/cat.html" && [ "$(check_page "$tmp/cat.html")" = catalogue ] && ok || bad "catalogue by default"
"$kifu" html "$tmp/cat.json" --no-catalogue -o "$tmp/cat.html" && [ -z "$(check_page "$tmp/cat.html")" ] && ok || bad "--no-catalogue"
"$kifu" html "$sample" --catalogue -o "$tmp/c.html" && [ "$(check_page "$tmp/c.html")" = catalogue ] && ok || bad "--catalogue"

# Options.
"$kifu" html "$sample" --intl --two-char --flip --title 'A <game>' -o "$tmp/o.html"
grep -q '"options":{"pieces":"koma","intl":true,"twoChar":true,"flip":true}' "$tmp/o.html" && ok || bad "--intl --two-char --flip"
"$kifu" html "$sample" --pieces plain --piece-size 32 -o "$tmp/o2.html" &&
    grep -q '"options":{"pieces":"plain",' "$tmp/o2.html" && grep -q -- '--kifu-piece-size: 32px;' "$tmp/o2.html" && ok || bad "--pieces plain --piece-size 32"
"$kifu" html "$sample" --pieces wood -o "$tmp/n.html" 2>"$tmp/err"; [ $? -eq 2 ] && grep -q "no piece style" "$tmp/err" && [ ! -e "$tmp/n.html" ] && ok || bad "--pieces wood: usage"
for size in 0 7 401 12px ''; do
    "$kifu" html "$sample" --piece-size "$size" -o "$tmp/n.html" 2>"$tmp/err"; rc=$?
    [ $rc -eq 2 ] && grep -q "piece-size" "$tmp/err" && [ ! -e "$tmp/n.html" ] && ok || bad "--piece-size '$size': exit $rc"
done
# A stylesheet made from the built-in one: the size still lays it out.
"$kifu" html --default-css >"$tmp/t.css" && "$kifu" html "$sample" --css "$tmp/t.css" --piece-size 60 -o "$tmp/o3.html" &&
    grep -q 'var(--kifu-piece-size)' "$tmp/o3.html" && grep -q -- '--kifu-piece-size: 60px;' "$tmp/o3.html" && ok || bad "--css template with --piece-size"
grep -q '<title>A &lt;game&gt;</title>' "$tmp/o.html" && ok || bad "--title"
"$kifu" html --default-css >"$tmp/d.css" && grep -q -- '--kifu-board' "$tmp/d.css" && ok || bad "--default-css"
grep -q -- '--kifu-board' "$tmp/p.html" && ok || bad "the built-in stylesheet is in the page"
printf '.kifu-board .bg { fill: #abcdef; }\n' >"$tmp/my.css"
"$kifu" html "$sample" --css "$tmp/my.css" -o "$tmp/css.html" && grep -q 'fill: #abcdef' "$tmp/css.html" &&
    ! grep -q -- '--kifu-board:' "$tmp/css.html" && ok || bad "--css replaces the stylesheet"

# The document's sids reach the page as given (#sid= links need them): its sample 2's
# problem, failed answer and right answer (its own example's position).
printf '[{"sid":"q1","bd":"oooooooooooooooojdooooosqbvooooooooooooooooaooooooooooooooooooooooooooooooooooooo","cb":"","cw":"bbbbbbbbbbbbbbbbdddffffhhhhjjjln"},{"sid":"q1-ng","bd":"ooooooooooooooooqdooooosobvooooooooooooooooaooooooooooooooooooooooooooooooooooooo","cb":"i","cw":"bbbbbbbbbbbbbbbbdddffffhhhhjjjln"},{"sid":"q1-ok","prev":"q1","bd":"oooooooooooooooojdooooosobvoooooooqooooooooaooooooooooooooooooooooooooooooooooooo","cb":"","cw":"bbbbbbbbbbbbbbbbdddffffhhhhjjjln"}]\n' >"$tmp/sid.json"
"$kifu" html "$tmp/sid.json" -o "$tmp/sid.html" && grep -q '"sid":"q1-ok"' "$tmp/sid.html" && ok || bad "sids in the page"

# Errors: distinct exit codes, messages naming the file (and line and column), no page.
"$kifu" html >/dev/null 2>"$tmp/err"; [ $? -eq 2 ] && grep -q 'no record file' "$tmp/err" && ok || bad "no file: usage"
"$kifu" html "$sample" --bogus >/dev/null 2>&1; [ $? -eq 2 ] && ok || bad "unknown option: usage"
"$kifu" html "$tmp/none.kif" -o "$tmp/n.html" 2>"$tmp/err"; [ $? -eq 3 ] && grep -q "none.kif" "$tmp/err" && [ ! -e "$tmp/n.html" ] && ok || bad "missing file: exit 3"
"$kifu" html "$sample" --css "$tmp/none.css" -o "$tmp/n.html" 2>/dev/null; [ $? -eq 3 ] && [ ! -e "$tmp/n.html" ] && ok || bad "missing --css: exit 3"
printf '手数----指手---------消費時間--\n   1 ７六歩(77)\n   x\n' >"$tmp/bad.kif"
"$kifu" html "$tmp/bad.kif" -o "$tmp/n.html" 2>"$tmp/err"; rc=$?
[ $rc -eq 1 ] && grep -q "bad.kif:3:[0-9]*: " "$tmp/err" && [ ! -e "$tmp/n.html" ] && ok || bad "syntax error: exit $rc, $(cat "$tmp/err")"
"$kifu" html "$sample" -o "$tmp/nodir/p.html" 2>/dev/null; [ $? -eq 3 ] && ok || bad "unwritable output: exit 3"
# A folder with a file that is no record: the page is written, the file named once as
# found (its name was once read from freed memory).
mkdir -p "$tmp/skipdir" && cp "$sample" "$tmp/skipdir/" && echo '{"name": "x"}' >"$tmp/skipdir/package.json"
"$kifu" html "$tmp/skipdir" -o "$tmp/skip.html" 2>"$tmp/err"
rc=$?
[ $rc -eq 0 ] && [ -s "$tmp/skip.html" ] &&
    grep -qx "kifu: 1 file skipped, not record by its content: $tmp/skipdir/package.json" "$tmp/err" &&
    ok || bad "a folder with a non-record: exit $rc, $(cat "$tmp/err")"
"$kifu" html --help | grep -q -- '--catalogue' && ok || bad "--help"
echo "$pass passed, $fail failed, 0 skipped"
[ "$fail" -eq 0 ]
