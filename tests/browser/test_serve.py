"""test_serve.py: `kifu serve`'s pages driven in headless Chromium over WebDriver.

The server is started by the test on 127.0.0.1 with a free port (--listen 127.0.0.1:0)
over an index of the sample collection and one hostile record, and stopped by its PID.
Three moves are played by clicking the board; after each the page's counts must equal
`kifu explore --json` for that position; a filter changes them as explore's does; a top
game opens at its ply on the same position; back/forward and a reloaded URL restore the
state; the player page's results equal a count the test makes from the CSA records; the
hostile names, comment and event run nothing. Screenshots (desktop and phone) go to
ARTEFACTS. Usage: test_serve.py KIFU SOURCE_DIR ARTEFACTS
Exit 77 (skip) only when chromium or chromedriver is not installed.
"""
import glob
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import traceback
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from webdriver import Browser, SkipTest  # noqa: E402

KIFU, SRC, ARTEFACTS = sys.argv[1], sys.argv[2], sys.argv[3]
passed = failed = 0
TMP = tempfile.mkdtemp(prefix="kifu-serve-test-")
EVIL = """先手：</script><script>window.__pwned=1</script>
後手：<img src=x onerror="window.__pwned=2">
棋戦：javascript:window.__pwned=3
開始日時：2025/01/01
手合割：平手
手数----指手---------消費時間--
*<img src=x onerror="window.__pwned=4"><a href="javascript:window.__pwned=5">x</a>
   1 ７六歩(77)
   2 ３四歩(33)
   3 ２六歩(27)
   4 投了
"""
FORK = """手合割：平手
先手：分岐(1650)
後手：変化(1450)
手数----指手---------消費時間--
   1 ７六歩(77)
   2 ３四歩(33)+
   3 ２六歩(27)
   4 ８四歩(83)

変化：2手
   2 ８四歩(83)
   3 ２六歩(27)
"""
# The board's geometry in board.js's SVG units (CELL, X0, Y0, W, H).
CELL, X0, Y0, W, H = 40, 12, 64, 12 * 2 + 40 * 9 + 14, 64 + 40 * 9 + 64


def check(cond, what):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print("FAILED:", what)


def explore(kdb, *args):
    out = subprocess.run([KIFU, "explore", kdb, "--json"] + list(args), check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out)


def wait(b, script, what, timeout=15):
    deadline = time.time() + timeout
    while time.time() < deadline:
        v = b.run(script)
        if v:
            return v
        time.sleep(0.05)
    raise RuntimeError("timed out waiting for " + what)


def ready(b, before=None):
    """Wait for the page to finish drawing (data-ready set, and changed from before)."""
    return wait(b, "var r = document.body.getAttribute('data-ready');"
                "return r && r !== %s ? r : null;" % json.dumps(before), "the page")


def page_counts(b):
    """The moves table as the page shows it: usi -> [games, average rating]."""
    return b.run("var o = {}; document.querySelectorAll('#moves tr.move-row').forEach("
                 "function (tr) { o[tr.getAttribute('data-usi')] ="
                 " [+tr.children[1].textContent, tr.children[4].textContent]; }); return [o,"
                 " +document.getElementById('status').getAttribute('data-games')];")


def same_counts(b, x, what):
    counts, games = page_counts(b)
    want = {m["usi"]: [m["games"], "-" if m["avg_rating"] is None else str(m["avg_rating"])]
            for m in x["moves"]}
    check(counts == want and games == x["games"],
          "%s: page %s %s, explore %s %s" % (what, games, counts, x["games"], want))


def click_square(b, usi_sq, flip=False):
    f, r = int(usi_sq[0]), "abcdefghi".index(usi_sq[1])
    c, row = 9 - f, r
    if flip:
        c, row = 8 - c, 8 - row
    b.click_at("#board svg", (X0 + c * CELL + CELL / 2) / W, (Y0 + row * CELL + CELL / 2) / H)


def play(b, usi, flip=False):
    before = b.run("return document.body.getAttribute('data-ready')")
    click_square(b, usi[0:2], flip)
    wait(b, "return document.querySelector('#board svg .last-from') ? 1 : 0", "a selection")
    click_square(b, usi[2:4], flip)
    ready(b, before)


def csa_results(files, name):
    """Wins, losses, draws per side of a player, counted from CSA records."""
    res = {"sente": [0, 0, 0, 0], "gote": [0, 0, 0, 0]}
    for path in files:
        text = open(path, encoding="utf-8").read()
        sente = re.search(r"^N\+(.*)$", text, re.M).group(1)
        gote = re.search(r"^N-(.*)$", text, re.M).group(1)
        moves = len(re.findall(r"^[+-]\d{4}[A-Z]{2}", text, re.M))
        end = re.search(r"^%([A-Z_]+)", text, re.M)
        winner = None  # 0 sente, 1 gote, 2 draw, 3 unfinished
        if end and end.group(1) == "TORYO":
            winner = 1 if moves % 2 == 0 else 0  # the side to move resigned
        elif end and end.group(1) == "SENNICHITE":
            winner = 2
        else:
            winner = 3
        for side, who in (("sente", sente), ("gote", gote)):
            if who != name:
                continue
            me = 0 if side == "sente" else 1
            r = res[side]
            if winner == me:
                r[0] += 1
            elif winner in (0, 1):
                r[1] += 1
            elif winner == 2:
                r[2] += 1
            else:
                r[3] += 1
    return res


def main():
    os.makedirs(ARTEFACTS, exist_ok=True)
    games = os.path.join(TMP, "games")
    os.makedirs(games)
    samples = sorted(glob.glob(os.path.join(SRC, "samples", "collection", "*.csa")))
    for f in samples:
        shutil.copy(f, games)
    with open(os.path.join(games, "evil.kifu"), "w", encoding="utf-8") as f:
        f.write(EVIL)
    with open(os.path.join(games, "fork.kif"), "w", encoding="utf-8") as f:
        f.write(FORK)
    kdb = os.path.join(TMP, "g.kdb")
    subprocess.run([KIFU, "index", "build", games, "-o", kdb], check=True,
                   capture_output=True)
    server = subprocess.Popen([KIFU, "serve", kdb, "--listen", "127.0.0.1:0"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = server.stdout.readline()
        m = re.search(r"at (http://127\.0\.0\.1:\d+/)$", line.strip())
        if not m:
            raise RuntimeError("no URL from kifu serve: %r" % line)
        run(m.group(1), kdb, games)
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            check(server.wait(10) == 0, "kifu serve exits 0 on SIGTERM")
        except subprocess.TimeoutExpired:
            server.kill()
            check(False, "kifu serve stops on SIGTERM")


def samples_glob():
    return glob.glob(os.path.join(SRC, "samples", "collection", "*.csa"))


def console_errors(b):
    return [e["message"] for e in b.log() if e.get("level") == "SEVERE"
            and "favicon" not in e["message"]]


def csa_games(games):
    """What the test reads from the CSA records: date, sente, gote, event, moves."""
    out = []
    for path in sorted(glob.glob(os.path.join(games, "*.csa"))):
        text = open(path, encoding="utf-8").read()
        field = lambda rx: (re.search(rx, text, re.M) or [None, ""])[1]
        out.append({"date": field(r"^\$START_TIME:(\d{4}/\d\d/\d\d)").replace("/", "-"),
                    "sente": field(r"^N\+(.*)$"), "gote": field(r"^N-(.*)$"),
                    "event": field(r"^\$EVENT:(.*)$"),
                    "moves": re.findall(r"^[+-](\d{4})[A-Z]{2}", text, re.M)})
    return out


def column(b, i):
    return b.run("return Array.prototype.map.call(document.querySelectorAll("
                 "'#games-table tbody tr'), function (tr) { return tr.children[%d].textContent; })" % i)


def loaded(b, part):
    """Wait for the page whose URL holds part to be drawn."""
    wait(b, "return location.search.indexOf(%s) >= 0 &&"
         " document.body.getAttribute('data-ready') === 'games'" % json.dumps(part),
         "the page of " + part)


def collection_pages(b, url, kdb, games):
    """The games page: a column header sorts (again: the other way), a filter counts as
    the records do, paging goes on where the page ended; the players' list; a player's
    openings and games."""
    recs = csa_games(games)
    # The index's games: the CSA records, the hostile one and the fork (neither has an
    # event, and neither is by 佐藤).
    b.open(url + "games")
    ready(b)
    b.click("#games-table th a[data-sort=event]")
    loaded(b, "order=asc")
    want = sorted([r["event"] for r in recs] + ["", "javascript:window.__pwned=3"])
    check(column(b, 3) == want, "sorted by event: %s, records %s" % (column(b, 3), want))
    b.click("#games-table th a[data-sort=event]")
    loaded(b, "order=desc")
    check(column(b, 3) == want[::-1], "event again: the other way: %s" % column(b, 3))
    check("order=desc" in b.run("return location.search"), "the sort is in the URL")
    b.screenshot(os.path.join(ARTEFACTS, "serve-games.png"))
    # A filter: the games of an event, as many as the records say.
    b.run("document.querySelector('#games-filters [name=event]').value = '大会';")
    b.click("#games-filters button")
    loaded(b, "event=")
    n = sum("大会" in r["event"] for r in recs)
    check(b.run("return +document.getElementById('games-count').getAttribute('data-total')") == n
          and len(column(b, 3)) == n, "event filter: %s games, records %d" % (column(b, 3), n))
    # Paging: three a page by date; the second page holds the records' 4th to 6th dates.
    dates = sorted([r["date"] for r in recs] + ["", "2025-01-01"])
    b.open(url + "games?sort=date&limit=3")
    ready(b)
    check(column(b, 0) == dates[:3], "page 1 by date: %s, records %s" % (column(b, 0), dates[:3]))
    b.click("#next-page")
    loaded(b, "offset=3")
    check(column(b, 0) == dates[3:6], "page 2 by date: %s, records %s" % (column(b, 0), dates[3:6]))
    # The players' list: every player the records name, once.
    names = set([r["sente"] for r in recs] + [r["gote"] for r in recs])
    b.open(url + "player")
    wait(b, "return document.body.getAttribute('data-ready') === 'players'", "the players")
    shown = b.run("return Array.prototype.map.call(document.querySelectorAll('#players-table td:first-child a'),"
                  " function (a) { return a.textContent; })")
    check(names <= set(shown) and len(shown) == len(names) + 4,
          "players: %s, records %s and 4 more" % (shown, sorted(names)))
    # A player's openings as gote and the player's games.
    b.open(url + "player?" + urllib.parse.urlencode({"player": "佐藤"}))
    wait(b, "return document.body.getAttribute('data-ready') === 'player'", "the player")
    count = {}
    for r in recs:
        if r["gote"] == "佐藤":
            k = " ".join(r["moves"][:2])
            count[k] = count.get(k, 0) + 1
    sq = lambda u: "%d%d" % (int(u[0]), "abcdefghi".index(u[1]) + 1)
    shown = b.run("var o = {}; document.querySelectorAll('#openings-gote tr[data-moves]').forEach("
                  "function (tr) { o[tr.getAttribute('data-moves')] = +tr.children[1].textContent; });"
                  " return o;")
    shown = {" ".join(sq(m[:2]) + sq(m[2:4]) for m in k.split(",")): v for k, v in shown.items()}
    check(shown == count, "佐藤's openings as gote: page %s, records %s" % (shown, count))
    mine = sum("佐藤" in (r["sente"], r["gote"]) for r in recs)
    check(len(column(b, 0)) == mine, "佐藤's games listed: %d, records %d" % (len(column(b, 0)), mine))
    # 佐藤's 戦法 and 囲い: those kifu index players gives.
    out = subprocess.run([KIFU, "index", "players", kdb, "--json"], check=True,
                         capture_output=True, text=True).stdout
    sato = [p for p in map(json.loads, out.splitlines()) if "佐藤" in p["names"]]
    want = {t["side"] + ":" + t["name"]: t["games"] for t in sato[0]["tags"]} if sato else {}
    shown = b.run("var o = {}; document.querySelectorAll('#player-tags tr[data-tag]').forEach("
                  "function (tr) { o[tr.getAttribute('data-tag')] = +tr.children[2].textContent; });"
                  " return o;")
    check(want and shown == want, "佐藤's tags: page %s, index players %s" % (shown, want))
    b.screenshot(os.path.join(ARTEFACTS, "serve-player-openings.png"))


def game_forks(b, url, kdb, games):
    """A record's variations on the game page: the fork's moves offered at the position,
    one chosen plays its line, and the explorer's numbers follow the position."""
    fork = os.path.join(games, "fork.kif")
    b.open(url + "game?" + urllib.parse.urlencode({"file": fork, "game": 1, "ply": 1}))
    wait(b, "return document.body.getAttribute('data-ready') === 'ply1'", "the fork game")
    moves = b.run("return Array.prototype.map.call(document.querySelectorAll('#forks button'),"
                  " function (x) { return x.textContent; })")
    check(len(moves) == 2 and "３四歩" in moves[0] and "８四歩" in moves[1],
          "the variations at ply 1: %s" % moves)
    before = b.run("return document.body.getAttribute('data-ready')")
    b.click("#forks button:nth-of-type(2)")
    wait(b, "return document.body.getAttribute('data-ready') === 'ply2'", "the variation")
    line = b.run("return Array.prototype.map.call(document.querySelectorAll('#game-moves li'),"
                 " function (x) { return x.textContent; })")
    check(len(line) == 4 and "８四歩" in line[2] and "２六歩" in line[3],
          "the variation's line: %s" % line)
    x = explore(kdb, "--moves", "7g7f", "8c8d")
    check(b.run("return +document.getElementById('status').getAttribute('data-games')") == x["games"],
          "the explorer's games beside the variation's position: %d" % x["games"])
    # A reload keeps the variation.
    here = b.run("return location.href")
    b.open("about:blank")
    b.open(here)
    wait(b, "return document.body.getAttribute('data-ready') === 'ply2'", "the variation reloaded")
    line2 = b.run("return Array.prototype.map.call(document.querySelectorAll('#game-moves li'),"
                  " function (x) { return x.textContent; })")
    check(line2 == line, "the variation after a reload: %s" % line2)
    b.screenshot(os.path.join(ARTEFACTS, "serve-game-fork.png"))


def run(url, kdb, games):
    with Browser(1200, 900) as b:
        b.open(url + "explore")
        ready(b)
        same_counts(b, explore(kdb), "the start position")
        # The average rating column: fork.kif's sente, 分岐(1650), is the only rated player
        # of 7g7f (the samples give no ratings).
        shown = page_counts(b)[0].get("7g7f", [0, ""])[1]
        check(shown == "1650", "7g7f's average rating on the page: %r" % shown)
        line = []
        for usi in ("7g7f", "3c3d", "2g2f"):
            play(b, usi)
            line.append(usi)
            same_counts(b, explore(kdb, "--moves", *line), "after " + " ".join(line))
            check(b.run("return location.search").find("moves=" + "%2C".join(line)) >= 0,
                  "the URL holds the moves %s: %s" % (line, b.run("return location.search")))
        b.screenshot(os.path.join(ARTEFACTS, "serve-explore.png"))
        here = b.run("return location.href")

        # A filter changes the counts as explore's does.
        b.run("document.querySelector('#filters [name=player]').value = '佐藤';")
        before = b.run("return document.body.getAttribute('data-ready')")
        b.click("#filters button")
        ready(b, before)
        filtered = explore(kdb, "--moves", *line, "--player", "佐藤")
        same_counts(b, filtered, "with player 佐藤")
        check(filtered["games"] != explore(kdb, "--moves", *line)["games"],
              "the filter changes the count (the samples must allow it)")

        # Back restores the unfiltered state, forward the filtered one.
        before = b.run("return document.body.getAttribute('data-ready')")
        b.cmd("POST", "/back", {})
        ready(b, before)
        same_counts(b, explore(kdb, "--moves", *line), "back: without the filter")
        before = b.run("return document.body.getAttribute('data-ready')")
        b.cmd("POST", "/back", {})
        ready(b, before)
        same_counts(b, explore(kdb, "--moves", *line[:2]), "back: two moves")
        before = b.run("return document.body.getAttribute('data-ready')")
        b.cmd("POST", "/forward", {})
        ready(b, before)
        same_counts(b, explore(kdb, "--moves", *line), "forward: three moves")
        # The page's own ◀ steps back within the line.
        before = b.run("return document.body.getAttribute('data-ready')")
        b.click("#back")
        ready(b, before)
        same_counts(b, explore(kdb, "--moves", *line[:2]), "◀: two moves")

        # A copied URL, opened afresh, restores the position.
        b.open("about:blank")
        b.open(here)
        ready(b)
        same_counts(b, explore(kdb, "--moves", *line), "the copied URL reloaded")
        check(console_errors(b) == [], "console errors: %s" % console_errors(b))

        # A top game opens at its ply, on the same position.
        x = explore(kdb, "--moves", *line)
        top = x["moves"][0]["top"][0]
        want_bd = b.run("return document.querySelector('#board svg').getAttribute('data-bd')")
        b.click("#top-games a")
        wait(b, "return document.body.getAttribute('data-ready') === 'ply%d'" % top["ply"],
             "the game page at ply %d" % top["ply"])
        q = urllib.parse.parse_qs(urllib.parse.urlparse(b.run("return location.href")).query)
        check(q.get("ply") == [str(top["ply"])] and q.get("game") == [str(top["game"])],
              "the link names the game and ply: %s" % q)
        bd = b.run("return document.querySelector('#board svg').getAttribute('data-bd')")
        check(bd == want_bd, "the game's board at the ply is the explored position")
        check(b.run("return +document.getElementById('status').getAttribute('data-games')")
              == x["games"], "the game page shows the explorer's games for the position")
        b.screenshot(os.path.join(ARTEFACTS, "serve-game.png"))

        # Position search: as many hits as `kifu search --index`, each opening its game at
        # the ply, on the position searched.
        b.open(url + "search?" + urllib.parse.urlencode({"moves": ",".join(line)}))
        shown = wait(b, "var c = document.getElementById('count'); return c && c.textContent",
                     "the search's hits")
        want = subprocess.run([KIFU, "search", "--index", kdb, "--usi",
                               "position startpos moves " + " ".join(line), "--json"],
                              check=True, capture_output=True, text=True).stdout.count("\n")
        check(shown.startswith("%d hits" % want), "search: %r, kifu search %d" % (shown, want))
        b.screenshot(os.path.join(ARTEFACTS, "serve-search.png"))
        b.click("#hits a")
        wait(b, "var r = document.body.getAttribute('data-ready'); return r && r.indexOf('ply') == 0",
             "the game of a hit")
        bd = b.run("return document.querySelector('#board svg').getAttribute('data-bd')")
        check(bd == want_bd, "a hit opens its game on the position searched")

        # The player page against a count from the records.
        for name in ("佐藤", "鈴木"):
            b.open(url + "player?" + urllib.parse.urlencode({"player": name}))
            wait(b, "return document.querySelectorAll('#results tr[data-color]').length == 2",
                 "the results")
            shown = b.run("var o = {}; document.querySelectorAll('#results tr[data-color]')"
                          ".forEach(function (tr) { o[tr.getAttribute('data-color')] ="
                          " [+tr.querySelector('.wins').textContent,"
                          " +tr.querySelector('.losses').textContent,"
                          " +tr.querySelector('.draws').textContent,"
                          " +tr.children[5].textContent]; }); return o;")
            want = csa_results(sorted(glob.glob(os.path.join(games, "*.csa"))), name)
            check(shown == want, "%s's results: page %s, records %s" % (name, shown, want))
        b.screenshot(os.path.join(ARTEFACTS, "serve-player.png"))

        collection_pages(b, url, kdb, games)
        game_forks(b, url, kdb, games)

        # Hostile text is text: no script runs, no image or javascript: link is made.
        evil_name = "</script><script>window.__pwned=1</script>"
        evil_file = os.path.join(games, "evil.kifu")
        for path in ("games", "player?" + urllib.parse.urlencode({"player": evil_name}),
                     "game?" + urllib.parse.urlencode({"file": evil_file, "game": 1, "ply": 1}),
                     "explore?" + urllib.parse.urlencode({"moves": "7g7f", "player": evil_name}),
                     "search?" + urllib.parse.urlencode({"moves": "7g7f"})):
            b.open(url + path)
            time.sleep(0.8)
            got = b.run("return [window.__pwned === undefined,"
                        " document.querySelectorAll('img, script:not([src])').length,"
                        " document.querySelectorAll('a[href^=\"javascript\"]').length,"
                        " document.body.textContent]")
            check(got[0] and got[1] == 0 and got[2] == 0,
                  "%s: nothing of the record runs (%s)" % (path, got[:3]))
            check("</script>" in got[3] or "<img" in got[3] or "javascript:" in got[3]
                  or path.startswith("search"), "%s: the hostile text shown as text" % path)
        b.open(url + "game?" + urllib.parse.urlencode({"file": evil_file, "game": 1, "ply": 0}))
        wait(b, "return document.body.getAttribute('data-ready') === 'ply0'", "the evil game")
        comment = b.run("return document.getElementById('comment').textContent")
        check("onerror" in comment, "the comment shown as text: %r" % comment)
        b.screenshot(os.path.join(ARTEFACTS, "serve-evil.png"))

    with Browser(390, 844, phone=True) as b:
        b.open(url + "explore?moves=7g7f,3c3d")
        ready(b)
        width = b.run("return [document.documentElement.scrollWidth, window.innerWidth]")
        check(width[0] <= width[1], "no sideways scrolling on a phone (%s)" % width)
        b.screenshot(os.path.join(ARTEFACTS, "serve-phone.png"))
        b.open(url + "game?" + urllib.parse.urlencode({"file": os.path.join(games, "game1.csa"), "game": 1, "ply": 3}))
        wait(b, "return document.body.getAttribute('data-ready') === 'ply3'", "the game")
        b.screenshot(os.path.join(ARTEFACTS, "serve-phone-game.png"))
        b.open(url + "games?sort=-date")
        wait(b, "return document.querySelectorAll('table.games tr').length > 1", "the games")
        dates = b.run("return Array.prototype.map.call(document.querySelectorAll('table.games tr td:first-child'),"
                      " function (td) { return td.textContent; })")
        check(dates == sorted(dates, reverse=True) and len(dates) == len(samples_glob()) + 2,
              "the games page, the latest first: %s" % dates)
        width = b.run("return [document.documentElement.scrollWidth, window.innerWidth]")
        check(width[0] <= width[1], "the games page: no sideways scrolling on a phone (%s)" % width)
        b.screenshot(os.path.join(ARTEFACTS, "serve-phone-games.png"))
        b.open(url + "player?" + urllib.parse.urlencode({"player": "佐藤"}))
        wait(b, "return document.body.getAttribute('data-ready') === 'player'", "the player")
        width = b.run("return [document.documentElement.scrollWidth, window.innerWidth]")
        check(width[0] <= width[1], "the player page: no sideways scrolling on a phone (%s)" % width)
        b.screenshot(os.path.join(ARTEFACTS, "serve-phone-player.png"))
        b.open(url + "game?" + urllib.parse.urlencode({"file": os.path.join(games, "fork.kif"), "game": 1, "ply": 1}))
        wait(b, "return document.body.getAttribute('data-ready') === 'ply1'", "the fork game")
        check(b.run("return document.querySelectorAll('#forks button').length") == 2,
              "the variations on a phone")
        b.screenshot(os.path.join(ARTEFACTS, "serve-phone-fork.png"))
    print("screenshots in", ARTEFACTS)


try:
    main()
except SkipTest as e:
    shutil.rmtree(TMP, ignore_errors=True)
    print("skip:", e)
    print("0 passed, 0 failed, 1 skipped")
    sys.exit(77)
except Exception:
    traceback.print_exc()
    failed += 1
shutil.rmtree(TMP, ignore_errors=True)
print("%d passed, %d failed, 0 skipped" % (passed, failed))
sys.exit(1 if failed else 0)
