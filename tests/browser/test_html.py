"""test_html.py: `kifu html` pages driven in headless Chromium over WebDriver.

Every board the page shows is read back from the DOM (the piece elements the viewer drew,
where it drew them, and the hands) and compared with kifu's own SFEN at that position,
so the page and the library must agree. Screenshots go to ARTEFACTS for a person to look
at. Usage: test_html.py KIFU SOURCE_DIR ARTEFACTS
Exit 77 (skip) only when chromium or chromedriver is not installed.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import traceback
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from webdriver import Browser, SkipTest  # noqa: E402

KIFU, SRC, ARTEFACTS = sys.argv[1], sys.argv[2], sys.argv[3]
RIGHT = "\ue014"  # WebDriver key codes
LEFT, HOME, END, PAGE_DOWN = "\ue012", "\ue011", "\ue010", "\ue00f"

# posjson letters by SFEN piece, sente's; gote's is the next character.
LETTER = {"P": "a", "L": "c", "N": "e", "S": "g", "G": "i", "B": "k", "R": "m", "+P": "1",
          "+L": "3", "+N": "5", "+S": "7", "+B": "q", "+R": "s", "K": "u"}
KANJI = {"a": "歩", "c": "香", "e": "桂", "g": "銀", "i": "金", "k": "角", "m": "飛",
         "1": "と", "3": "杏", "5": "圭", "7": "全", "q": "馬", "s": "龍", "u": "玉"}
SENTE = "acegikm1357qsu"

passed = failed = 0
TREE = """手合割：平手
手数----指手---------消費時間--
   1 ７六歩(77)
   2 ３四歩(33)+
   3 ２六歩(27)+
   4 ８四歩(83)
   5 ２五歩(26)

変化：3手
   3 ６六歩(67)
   4 ８四歩(83)

変化：3手
   3 ２二角成(88)
   4 同　銀(31)

変化：2手
   2 ８四歩(83)+
   3 ２六歩(27)+
   4 ８五歩(84)

変化：3手
   3 ７八金(69)
"""
TMP = tempfile.mkdtemp(prefix="kifu-html-test-")  # removed at the end, pass or fail


def check(cond, what):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print("FAILED:", what)
    return cond


def kifu(*args):
    return subprocess.run([KIFU] + list(args), check=True, capture_output=True,
                          text=True).stdout


def sfen_to_position(sfen):
    """(bd, sorted hand letters of sente, of gote, turn) of a SFEN."""
    board, turn, hands = sfen.split()[:3]
    bd = ""
    for row in board.split("/"):
        i = 0
        while i < len(row):
            c = row[i]
            if c.isdigit():
                bd += "o" * int(c)
                i += 1
                continue
            name = c
            if c == "+":
                name, i = "+" + row[i + 1], i + 1
            letter = LETTER[name.upper()]
            bd += letter if name[-1].isupper() else chr(ord(letter) + 1)
            i += 1
    cb, cw = "", ""
    n = 0
    for c in hands if hands != "-" else "":
        if c.isdigit():
            n = n * 10 + int(c)
            continue
        letter = LETTER[c.upper()]
        if c.isupper():
            cb += letter * (n or 1)
        else:
            cw += chr(ord(letter) + 1) * (n or 1)
        n = 0
    return bd, "".join(sorted(cb)), "".join(sorted(cw)), turn


# The board as drawn: every piece element with its square from where it stands in the
# SVG, its letter and its text; the hands and the side to move from the data.
DOM_BOARD = """
const svg = document.querySelectorAll('.kifu-svg svg.kifu-board')[arguments[0] || 0];
const flip = svg.getAttribute('data-flip') === '1';
const cells = new Array(81).fill('o'), texts = [];
for (const el of svg.querySelectorAll('[data-sq]')) {
  const t = el.tagName === 'g' ? el.querySelector('text') : el;
  const c = Math.floor((+t.getAttribute('x') - 12) / 40);
  const r = Math.floor((+t.getAttribute('y') - 64) / 40);
  const i = flip ? (8 - r) * 9 + (8 - c) : r * 9 + c;
  cells[i] = el.getAttribute('data-p');
  texts.push([el.getAttribute('data-p'), el.textContent, +el.getAttribute('data-sq') - 1 === i]);
}
const sort = s => s.split('').sort().join('');
return {bd: cells.join(''), cb: sort(svg.getAttribute('data-cb')),
        cw: sort(svg.getAttribute('data-cw')), turn: svg.getAttribute('data-turn'),
        ply: +svg.getAttribute('data-ply'), texts: texts, flip: flip,
        hash: location.hash};
"""


def dom_position(b, which=0):
    d = b.run(DOM_BOARD, which)
    return d


def same_as_kifu(b, record, where, what, which=0):
    """The drawn board equals `kifu show RECORD --ply N|--path P --format sfen`."""
    flag = "--path" if isinstance(where, str) else "--ply"
    sfen = kifu("show", record, flag, str(where), "--format", "sfen")
    want = sfen_to_position(sfen)
    d = dom_position(b, which)
    got = (d["bd"], d["cb"], d["cw"], d["turn"])
    ok = check(got == want, "%s: board %s, kifu's SFEN %s" % (what, got, want))
    # Each piece stands on its own square and reads as its kanji.
    bad = [t for t in d["texts"]
           if not t[2] or t[1] != KANJI[t[0] if t[0] in SENTE else chr(ord(t[0]) - 1)]]
    check(not bad, "%s: pieces drawn off their square or with the wrong name: %s" % (what, bad))
    return ok and not bad


def wait_ply(b, ply, which=0):
    """A link's hashchange is handled after the click returns: wait for the board."""
    for _ in range(100):
        if dom_position(b, which)["ply"] == ply:
            return
        time.sleep(0.02)


def console_errors(b):
    return [e for e in b.log() if e.get("level") == "SEVERE"]


def make_game(path, plies=80):
    """A game the engine plays by a fixed rule that likes captures and promotions."""
    line = "position startpos moves"
    for i in range(plies):
        moves = [m.split()[0] for m in kifu("moves", line).splitlines() if m.strip()]
        if not moves:
            break
        promo = [m for m in moves if m.endswith("+")]
        pick = promo[i % len(promo)] if promo and i % 3 == 0 else moves[(i * 7) % len(moves)]
        line += " " + pick
    with open(path, "w") as f:
        f.write(line + "\n")
    kifu("convert", path, "-t", "kif", "-o", path[:-4] + ".kif")
    return path[:-4] + ".kif"


# The document's sample 2 (tsume.html): a one-move problem, a failed answer, the right
# answer (a fork of the problem, `prev` naming it by its sid) and an even game's start,
# each named by a sid the page's prose links to. The right answer is the document's own
# second example (the horse mates on 2四), the even game its first.
TSUME_CW = "bbbbbbbbbbbbbbbbdddffffhhhhjjjln"
SID_DOC = [
    {"sid": "q1", "bd": "oooooooooooooooojdooooosqbvooooooooooooooooaooooooooooooooooooooooooooooooooooooo",
     "cb": "", "cw": TSUME_CW},
    {"sid": "q1-ng", "bd": "ooooooooooooooooqdooooosobvooooooooooooooooaooooooooooooooooooooooooooooooooooooo",
     "cb": "i", "cw": TSUME_CW},
    {"sid": "q1-ok", "prev": "q1",
     "bd": "oooooooooooooooojdooooosobvoooooooqooooooooaooooooooooooooooooooooooooooooooooooo",
     "cb": "", "cw": TSUME_CW},
    {"sid": "hirate", "bd": "dfhjvjhfdonooooolobbbbbbbbboooooooooooooooooooooooooooaaaaaaaaaokooooomocegiuigec",
     "cb": "", "cw": ""}]

# Every piece of the board as drawn: a koma's pentagon (its corners), where its apex and
# its centre land on the screen, and whether it is gote's.
KOMA = """
const svg = document.querySelectorAll('.kifu-svg svg.kifu-board')[arguments[0] || 0];
const gote = 'bdfhjlntv2468r';
return [...svg.querySelectorAll('g[data-sq]')].map(g => {
  const path = g.querySelector('path.koma'), t = g.querySelector('text');
  if (!path) return {koma: false};
  const d = path.getAttribute('d'), pts = d.match(/-?[0-9.]+ -?[0-9.]+/g);
  const m = path.getScreenCTM(), p = svg.createSVGPoint();
  const at = (x, y) => { p.x = x; p.y = y; const q = p.matrixTransform(m); return [q.x, q.y]; };
  const apex = pts[0].split(' ').map(Number);
  return {koma: true, corners: pts.length, closed: /Z$/.test(d),
          gote: gote.includes(g.getAttribute('data-p')),
          apexY: at(apex[0], apex[1])[1], centreY: at(+t.getAttribute('x'), +t.getAttribute('y'))[1]};
});
"""


def record_page(tmp, name, text, *options):
    """A record written to TMP/NAME.kif and its page, TMP/NAME.html: (record, page)."""
    record, page = os.path.join(tmp, name + ".kif"), os.path.join(tmp, name + ".html")
    with open(record, "w", encoding="utf-8") as f:
        f.write(text)
    kifu("html", record, *options, "-o", page)
    return record, page


def seed002(b, tmp, game):
    """The position-list document's viewer, to the letter (issue 26)."""
    # -- koma, the default: every piece a pentagon pointing at the other side
    page = os.path.join(tmp, "game.html")
    b.open("file://" + page + "#ply=30")
    pieces = b.run(KOMA)
    check(pieces and all(p["koma"] and p["corners"] == 5 and p["closed"] for p in pieces),
          "every piece a closed pentagon: %s" % [p for p in pieces if not p.get("koma")][:3])
    wrong = [p for p in pieces if p["koma"] and (p["apexY"] > p["centreY"]) != p["gote"]]
    check(any(p["gote"] for p in pieces) and not wrong,
          "sente's koma point up the screen, gote's are turned: %d wrong" % len(wrong))
    same_as_kifu(b, game, 30, "koma board at ply 30")
    b.click(".kifu-svg svg text.side")  # flipped: gote's point up now
    pieces = b.run(KOMA)
    wrong = [p for p in pieces if p["koma"] and (p["apexY"] < p["centreY"]) != p["gote"]]
    check(not wrong, "flipped: gote's koma point up: %d wrong" % len(wrong))
    b.click(".kifu-svg svg text.side")
    b.screenshot(os.path.join(ARTEFACTS, "koma.png"))
    ppage = os.path.join(tmp, "plain.html")
    kifu("html", game, "--pieces", "plain", "-o", ppage)
    b.open("file://" + ppage + "#ply=30")
    check(b.run("return document.querySelectorAll('.kifu-svg path.koma').length") == 0,
          "--pieces plain: no koma")
    same_as_kifu(b, game, 30, "plain board at ply 30")
    b.screenshot(os.path.join(ARTEFACTS, "plain.png"))

    # -- the pieces readable at a board of 320 px and of 1200 px (--piece-size): the
    #    board is as wide as the size says, and the names' glyphs as large as it allows
    for size, want in ((32, 320), (120, 1200)):
        spage = os.path.join(tmp, "size%d.html" % size)
        kifu("html", game, "--piece-size", str(size), "-o", spage)
        with Browser(max(1000, want + 500), 1400 if want > 1000 else 900) as big:
            big.open("file://" + spage + "#ply=30")
            got = big.run("const r = document.querySelector('.kifu-svg svg').getBoundingClientRect();"
                          "const t = document.querySelector('.kifu-svg g[data-sq] text').getBoundingClientRect();"
                          "const l = document.querySelector('.kifu-moves').getBoundingClientRect();"
                          "return [r.width, t.height, parseFloat(getComputedStyle("
                          "document.querySelector('.kifu-viewer')).fontSize)]")
            check(abs(got[0] - want) <= want * 0.02,
                  "--piece-size %d: board %.0f px wide, want about %d" % (size, got[0], want))
            check(got[1] >= size * 0.45, "--piece-size %d: a piece's name %.1f px high" % (size, got[1]))
            big.screenshot(os.path.join(ARTEFACTS, "board-%dpx.png" % want))

    # -- match: the squares the pattern fixed, at a matching position
    b.open("file://" + page)
    grid = "\n".join("* * 歩 * * * * * *" if r == 5 else "香 * * * * * * * 香" if r == 8
                      else ("* " * 9).strip() for r in range(9))
    b.run("const t = document.querySelector('.kifu-pattern'); t.value = arguments[0];"
          "t.dispatchEvent(new Event('input'));", grid)
    b.click("button[data-go='next-match']")
    sq = b.run("return [...document.querySelectorAll('.kifu-svg rect.match-sq')]"
               ".map(r => +r.getAttribute('data-msq')).sort((a, b) => a - b)")
    check(sq == [48, 73, 81], "the grid's fixed squares 7六 9九 1九 highlighted: %s" % sq)
    b.screenshot(os.path.join(ARTEFACTS, "match.png"))
    b.run("const t = document.querySelector('.kifu-pattern'); t.value = arguments[0];"
          "t.dispatchEvent(new Event('input'));", "^.{47}a.{24}c")
    b.key(HOME)
    b.click("button[data-go='next-match']")
    sq = b.run("return [...document.querySelectorAll('.kifu-svg rect.match-sq')]"
               ".map(r => +r.getAttribute('data-msq')).sort((a, b) => a - b)")
    check(sq == [48, 73], "a regular expression's fixed squares highlighted: %s" % sq)
    b.run("const t = document.querySelector('.kifu-pattern'); t.value = '';"
          "t.dispatchEvent(new Event('input'));")
    check(b.run("return document.querySelectorAll('.kifu-svg rect.match-sq').length") == 0,
          "no pattern, no highlight")

    # -- bookmarks (KIF &): listed, marked in the move list, reached by a click and by
    #    #bookmark=NAME
    bk, bpage = record_page(tmp, "bookmarks", "手合割：平手\n   1 ７六歩(77)\n   2 ３四歩(33)\n"
                            "&角道<開く>\n   3 ２六歩(27)\n   4 ８四歩(83)\n&居飛車\n"
                            "   5 ２五歩(26)\n")
    b.open("file://" + bpage)
    names = b.run("return [...document.querySelectorAll('.kifu-bookmarks button')].map(x => x.textContent)")
    check(names == ["&角道<開く>", "&居飛車"], "bookmarks listed: %s" % names)
    b.click(".kifu-bookmarks button:last-child")
    same_as_kifu(b, bk, 4, "a click on the bookmark 居飛車")
    marked = b.run("return [...document.querySelectorAll('.kifu-moves li .bookmark')].map(x => x.textContent)")
    check(marked == ["&角道<開く>", "&居飛車"], "bookmarks in the move list: %s" % marked)
    b.open("file://" + bpage + "#bookmark=" + urllib.parse.quote("角道<開く>"))
    same_as_kifu(b, bk, 2, "opened at #bookmark=角道<開く>")
    b.screenshot(os.path.join(ARTEFACTS, "bookmark.png"))

    # -- sid: the document's IDs through kifu, reached by #sid= in the URL and by the
    #    page's prose links, and kept in the URL
    doc = os.path.join(tmp, "tsume.json")
    with open(doc, "w", encoding="utf-8") as f:
        json.dump(SID_DOC, f)
    spage = os.path.join(tmp, "tsume.html")
    kifu("html", doc, "-o", spage)
    b.log()
    b.open("file://" + spage + "#sid=q1-ok")
    check(console_errors(b) == [], "console errors on the sid page: %s" % console_errors(b))
    d = dom_position(b)
    check(d["bd"] == SID_DOC[2]["bd"] and d["hash"] == "#sid=q1-ok",
          "opened at #sid=q1-ok: %s %s" % (d["bd"], d["hash"]))
    b.screenshot(os.path.join(ARTEFACTS, "sid.png"))
    b.run("const p = document.createElement('p'); p.innerHTML = '<a id=ng href=\"#sid=q1-ng\">失敗</a> "
          "<a id=hirate href=\"#sid=hirate\">平手</a>'; document.body.prepend(p);")
    b.click("#ng")
    for _ in range(100):
        if dom_position(b)["bd"] == SID_DOC[1]["bd"]:
            break
        time.sleep(0.02)
    check(dom_position(b)["bd"] == SID_DOC[1]["bd"], "the prose link #sid=q1-ng")
    b.click("#hirate")
    # the second record's board: a viewer of its own, or the one viewer of a page of
    # several games (gamelist.js) switched to it
    last = b.run("return document.querySelectorAll('.kifu-svg svg.kifu-board').length") - 1
    for _ in range(100):
        if dom_position(b, last)["hash"] == "#sid=hirate":
            break
        time.sleep(0.02)
    d = dom_position(b, last)
    check(d["bd"] == SID_DOC[3]["bd"] and d["hash"] == "#sid=hirate",
          "the prose link #sid=hirate reaches the second record: %s" % d["hash"])

    # -- the result names the winner, in the record's words
    hc, hpage = record_page(tmp, "handicap", "手合割：香落ち\n上手：上手氏\n下手：下手氏\n"
                            "   1 ３四歩(33)\n   2 ７六歩(77)\n   3 ８四歩(83)\n   4 投了\n")
    b.open("file://" + hpage)
    head = b.run("return document.querySelector('.kifu-header').textContent")
    check("結果：まで3手で上手の勝ち" in head, "the result names the winner: %s" % head)


def main():
    os.makedirs(ARTEFACTS, exist_ok=True)
    tmp = TMP
    game = make_game(os.path.join(tmp, "game.usi"))
    plies = int(kifu("show", game, "--format", "sfen").split()[3]) - 1
    check(plies >= 40, "the generated game has %d plies" % plies)
    # A record with forks and a comment that links to a position (the document's sample 2).
    forks = os.path.join(tmp, "forks.kif")
    with open(os.path.join(SRC, "samples", "opening.kifu"), encoding="utf-8") as f:
        text = f.read()
    text = text.replace("*角交換。", "*角交換。 #ply=1 に戻る </script><b>")
    text = "場所：\n" + text  # an empty header field, which the page does not show
    with open(forks, "w", encoding="utf-8") as f:
        f.write(text)
    page = os.path.join(tmp, "game.html")
    kifu("html", game, "-o", page)
    fpage = os.path.join(tmp, "forks.html")
    kifu("html", forks, "-o", fpage)
    ipage = os.path.join(tmp, "intl.html")
    kifu("html", game, "--intl", "-o", ipage)
    catalogue = os.path.join(tmp, "catalogue.json")
    with open(catalogue, "w") as f:
        json.dump([
            {"bd": "dfhjvjhfdonooooolobbbbbbbbboooooooooooooooooooooooooooaaaaaaaaaokooooomocegiuigec", "cb": "", "cw": ""},
            {"bd": "oooooooooooooooojdooooosobvoooooooqooooooooaooooooooooooooooooooooooooooooooooooo",
             "cb": "", "cw": "bbbbbbbbbbbbbbbbdddffffhhhhjjjln"}], f)
    cpage = os.path.join(tmp, "catalogue.html")
    kifu("html", catalogue, "-o", cpage)
    walk, walk_page = record_page(tmp, "walk", "手合割：平手\n   1 ５八玉(59)\n   2 ３四歩(33)\n"
                                  "   3 ４八玉(58)\n   4 ８四歩(83)\n   5 ３八玉(48)\n"
                                  "   6 ８五歩(84)\n")
    mpage = os.path.join(tmp, "two.html")
    kifu("html", game, forks, "-o", mpage)

    with Browser(1000, 900) as b:
        # -- loads with no console error, at the start position
        b.log()
        b.open("file://" + page)
        check(console_errors(b) == [], "console errors on load: %s" % console_errors(b))
        same_as_kifu(b, game, 0, "start position")
        b.screenshot(os.path.join(ARTEFACTS, "start.png"))

        # -- the right half of the board N times shows ply N, every ply
        promoted_shot = False
        for n in range(1, plies + 1):
            b.click_at(".kifu-svg svg", 0.75, 0.5)
            if not same_as_kifu(b, game, n, "after %d clicks on the right half" % n):
                break
            d = dom_position(b)
            if not promoted_shot and re.search("[1-8qrst]", d["bd"]):
                b.screenshot(os.path.join(ARTEFACTS, "promoted.png"))
                promoted_shot = True
        check(promoted_shot, "no promoted piece appeared in the game")
        check(dom_position(b)["hash"] == "#ply=%d" % plies,
              "the URL fragment follows the cursor: %s" % dom_position(b)["hash"])
        # -- the left half goes back; keys
        b.click_at(".kifu-svg svg", 0.25, 0.5)
        same_as_kifu(b, game, plies - 1, "a click on the left half")
        b.key(HOME)
        same_as_kifu(b, game, 0, "Home")
        b.key(PAGE_DOWN)
        same_as_kifu(b, game, 10, "PageDown")
        b.key(RIGHT)
        same_as_kifu(b, game, 11, "→")
        b.key(LEFT)
        same_as_kifu(b, game, 10, "←")
        b.key(END)
        same_as_kifu(b, game, plies, "End")
        seen = b.run("const l = document.querySelector('.kifu-moves'), c = l.querySelector('.current');"
                     "const a = l.getBoundingClientRect(), r = c.getBoundingClientRect();"
                     "return r.top >= a.top && r.bottom <= a.bottom && l.scrollTop > 0;")
        check(seen, "the move list scrolled to the current move")
        # -- the move list: a click on a move goes there
        b.click(".kifu-moves li[data-node='7']")
        same_as_kifu(b, game, 7, "a click on move 7 in the list")

        # -- flip: a click on the side label turns the board; the squares stay right
        b.click(".kifu-svg svg text.side")
        d = dom_position(b)
        check(d["flip"], "a click on the side label flips the board")
        same_as_kifu(b, game, 7, "flipped board")
        labels = b.run("return [...document.querySelectorAll('.kifu-svg text.label')]"
                       ".map(t => t.textContent).join('')")
        check(labels.startswith("１九"), "flipped: file 1 and rank 9 at the top left: %s" % labels)
        b.click(".kifu-svg svg text.side")
        check(not dom_position(b)["flip"], "a second click flips back")

        # -- mvlight and bwcolor
        last = b.run("return document.querySelectorAll('.kifu-svg rect.last').length")
        check(last == 1, "the last move's square is highlighted (%d)" % last)
        b.click("input[data-aid='mvlight']")
        last = b.run("return document.querySelectorAll('.kifu-svg rect.last').length")
        check(last == 0, "mvlight off: no highlight (%d)" % last)
        b.click("input[data-aid='bwcolor']")
        d = dom_position(b)
        owners = b.run("return [document.querySelectorAll('.kifu-svg rect.owner-b').length,"
                       "document.querySelectorAll('.kifu-svg rect.owner-w').length]")
        want = [sum(c in SENTE for c in d["bd"]), sum(c not in SENTE and c != "o" for c in d["bd"])]
        check(owners == want, "bwcolor tints %s squares, the board has %s pieces" % (owners, want))
        b.click("input[data-aid='bwcolor']")
        b.click("input[data-aid='mvlight']")

        # -- filter: hiding pawns hides every pawn and nothing else
        b.key(HOME)
        b.click("input[data-kind='0']")
        d = dom_position(b)
        want = "".join("o" if c in "ab" else c for c in sfen_to_position(
            kifu("show", game, "--ply", "0", "--format", "sfen"))[0])
        check(d["bd"] == want, "filter 歩 off: %s, want %s" % (d["bd"], want))
        b.click("input[data-kind='0']")
        same_as_kifu(b, game, 0, "filter 歩 back on")

        # -- trace: the footprints a piece leaves as the record steps on ("足跡のように残
        #    しながら"): none yet where it was chosen, then one more at each of its moves,
        #    all of them kept at the end of the line, as kifu trace finds them
        b.click("input[data-aid='trace']")
        feet_js = ("return [...document.querySelectorAll('.kifu-svg text.foot-n')]"
                   ".map(t => [+t.textContent, Math.floor((+t.getAttribute('x') - 12) / 40),"
                   " Math.floor((+t.getAttribute('y') - 64) / 40)])")
        for sq in ("28", "88", "77", "39"):
            b.key(HOME)
            t = json.loads(kifu("trace", game, "--square", sq, "--json"))
            x, y = int(sq[0]), int(sq[1])
            b.click_at(".kifu-svg svg", (12 + (9 - x) * 40 + 20) / 398, (64 + (y - 1) * 40 + 20) / 488)
            check(dom_position(b)["ply"] == 0, "a click on a piece while tracing does not step")
            check(b.run(feet_js) == [], "trace of %s: no footprint before it moved" % sq)
            # Where it stands is marked.
            at = b.run("return document.querySelectorAll('.kifu-svg rect.trace-at').length")
            check(at == 1, "trace of %s: its square marked (%d)" % (sq, at))
            # Step to the ply of its first move: one footprint, on the square it went to.
            if t["steps"]:
                first = t["steps"][0]
                for _ in range(first["ply"]):
                    b.key(RIGHT)
                got = sorted((n, 9 - c, r + 1) for n, c, r in b.run(feet_js))
                want = [(1, first["to"]["x"], first["to"]["y"])]
                check(got == want, "trace of %s at ply %d: footprints %s, want %s"
                      % (sq, first["ply"], got, want))
            b.key(END)
            got = sorted((n, 9 - c, r + 1) for n, c, r in b.run(feet_js))
            want = [(k + 1, s["to"]["x"], s["to"]["y"]) for k, s in enumerate(t["steps"])]
            # A square visited twice shows its last step number.
            last_step = {}
            for k, xx, yy in want:
                last_step[(xx, yy)] = k
            want = sorted((k, xx, yy) for (xx, yy), k in last_step.items())
            check(got == want, "trace of %s at the end: footprints %s, kifu trace %s" % (sq, got, want))
            caps = b.run("return document.querySelectorAll('.kifu-svg rect.capture').length")
            # Marked: where it took something, and where it was taken.
            want_caps = {(s["to"]["x"], s["to"]["y"]) for s in t["steps"] if s.get("capture")}
            if t.get("end", {}).get("reason") == "captured":
                at = t["steps"][-1]["to"] if t["steps"] else t["start"]
                want_caps.add((at["x"], at["y"]))
            check(caps == len(want_caps), "trace of %s: %d capture marks, kifu trace %d (%s)"
                  % (sq, caps, len(want_caps), t))
            if sq == "88":
                b.screenshot(os.path.join(ARTEFACTS, "trace.png"))
        b.click("input[data-aid='trace']")

        # -- match: the positions kifu search finds, by a regex and by a grid pattern
        regex = "^.{47}a"  # a sente pawn on 7六
        hits = kifu("search", "--regex", regex, "--json", game).splitlines()
        b.run("const t = document.querySelector('.kifu-pattern'); t.value = arguments[0];"
              "t.dispatchEvent(new Event('input'));", regex)
        info = b.run("return document.querySelector('.kifu-match-info').textContent")
        check(len(hits) > 0 and info.startswith("%d match" % len(hits)),
              "match %s: page says '%s', kifu search finds %d" % (regex, info, len(hits)))
        marked = b.run("return document.querySelectorAll('.kifu-moves li.match').length")
        check(marked == len(hits), "match: %d moves marked, %d hits" % (marked, len(hits)))
        b.key(HOME)
        b.click("button[data-go='next-match']")
        first = json.loads(hits[0])["ply"]
        check(dom_position(b)["ply"] == first, "next match goes to ply %d" % first)
        grid = "\n".join(("* " * 9).strip() if r != 5 else "* * 歩 * * * * * *" for r in range(9))
        pfile = os.path.join(tmp, "pawn76.txt")
        with open(pfile, "w", encoding="utf-8") as f:
            f.write(grid + "\n")
        hits = kifu("search", "--pattern", pfile, "--json", game).splitlines()
        b.run("const t = document.querySelector('.kifu-pattern'); t.value = arguments[0];"
              "t.dispatchEvent(new Event('input'));", grid)
        info = b.run("return document.querySelector('.kifu-match-info').textContent")
        check(len(hits) > 0 and info.startswith("%d match" % len(hits)),
              "grid pattern: page says '%s', kifu search finds %d" % (info, len(hits)))
        b.run("const t = document.querySelector('.kifu-pattern'); t.value = '';"
              "t.dispatchEvent(new Event('input'));")
        check(console_errors(b) == [], "console errors after the aids: %s" % console_errors(b))

        # -- trace, step by step: the king walks 5九 5八 4八 3八; after its three steps
        #    three footprints, numbered, on the squares it left behind it and where it
        #    stands; a step back takes the last one away
        b.open("file://" + walk_page)
        b.click("input[data-aid='trace']")
        b.click_at(".kifu-svg svg", (12 + 4 * 40 + 20) / 398, (64 + 8 * 40 + 20) / 488)
        for _ in range(5):
            b.key(RIGHT)
        got = sorted((n, 9 - c, r + 1) for n, c, r in b.run(feet_js))
        check(dom_position(b)["ply"] == 5 and got == [(1, 5, 8), (2, 4, 8), (3, 3, 8)],
              "footprints after three steps of the king: %s" % got)
        b.screenshot(os.path.join(ARTEFACTS, "trace-steps.png"))
        b.key(LEFT)
        b.key(LEFT)
        got = sorted((n, 9 - c, r + 1) for n, c, r in b.run(feet_js))
        check(got == [(1, 5, 8), (2, 4, 8)], "two steps back: footprints %s" % got)

        # -- forks: switch to the alternative and the board is kifu's --path
        b.open("file://" + fpage)
        check(console_errors(b) == [], "console errors on the fork page: %s" % console_errors(b))
        head = b.run("return document.querySelector('.kifu-title').textContent + '|' +"
                     "document.querySelector('.kifu-header').textContent")
        check("先手太郎" in head and "後手花子" in head and "2026/11/21" in head and
              "まで5手で中断" in head, "players, date and result shown: %s" % head)
        pdf = b.print_pdf(os.path.join(ARTEFACTS, "print.pdf"))
        pages = len(re.findall(rb"/Type\s*/Page[^s]", pdf))
        check(pages == 1, "one record prints on one page (%d)" % pages)
        b.media("print")
        hidden = b.run("return ['.kifu-controls', '.kifu-aids', '.kifu-moves'].every("
                       "s => getComputedStyle(document.querySelector(s)).display === 'none')")
        check(hidden, "printing leaves out the controls, aids and move list")
        b.screenshot(os.path.join(ARTEFACTS, "print.png"))
        b.media("")
        b.click(".kifu-moves li[data-node='2']")
        alts = b.run("return [...document.querySelectorAll('.kifu-forks button')].map(x => x.textContent)")
        check(len(alts) == 2, "two alternatives offered after ply 2: %s" % alts)
        b.click(".kifu-forks button:not(.chosen)")
        same_as_kifu(b, forks, "3,1", "the fork switched to")
        check(dom_position(b)["hash"] == "#ply=3,1", "fork path in the URL: %s" % dom_position(b)["hash"])
        b.key(RIGHT)
        same_as_kifu(b, forks, "4,1", "a step along the fork")
        b.screenshot(os.path.join(ARTEFACTS, "fork.png"))
        # -- every node of a tree of forks (several at one ply, one inside another): the
        #    path the page puts in the URL is kifu's --path to the same position
        tree = os.path.join(tmp, "tree.kif")
        with open(tree, "w", encoding="utf-8") as f:
            f.write(TREE)
        tpage = os.path.join(tmp, "tree.html")
        kifu("html", tree, "-o", tpage)
        b.open("file://" + tpage)
        count = b.run("return kifuViewers[0].rec.nodes.length")
        forked = 0
        for i in range(count):
            b.run("kifuViewers[0].go(arguments[0])", i)
            path = dom_position(b)["hash"][len("#ply="):]
            forked += "," in path
            same_as_kifu(b, tree, path, "node %d of the tree at #ply=%s" % (i, path))
        check(count >= 12 and forked >= 4, "the tree has %d nodes, %d in forks" % (count, forked))
        # -- a handicap game's sides are the record's words (issue 26): 下手/上手 when it
        #    names neither side, 先手/後手 when it names those
        body = "手数----指手---------消費時間--\n   1 ４二銀(31)\n   2 ７六歩(77)\n"
        for name, head, want in (("hc_none", "手合割：角落ち\n", ("☗下手", "☖上手")),
                                 ("hc_sente", "手合割：角落ち\n先手：\n後手：\n",
                                  ("☗先手", "☖後手"))):
            src = os.path.join(tmp, name + ".kifu")
            with open(src, "w", encoding="utf-8") as f:
                f.write(head + body)
            hpage = os.path.join(tmp, name + ".html")
            kifu("html", src, "-o", hpage)
            b.open("file://" + hpage)
            svg = b.run("return document.querySelector('.kifu-svg').textContent")
            check(all(w in svg for w in want), "%s: sides %s on the board: %s" %
                  (name, want, svg[:80]))
        # -- a record that starts at move 6 (a SFEN's `... w - 6`): its nodes carry the
        #    move numbers (posjson's ply), its #ply= paths count from its start
        src = os.path.join(tmp, "six.sfen")
        with open(src, "w", encoding="utf-8") as f:
            f.write("position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/"
                    "LNSGKGSNL w - 6 moves 3c3d 8h2b+\n")
        hpage = os.path.join(tmp, "six.html")
        kifu("html", src, "-o", hpage)
        b.open("file://" + hpage + "#ply=1")
        got = b.run("var v = kifuViewers[0]; return [v.path(), v.ply(), "
                    "v.rec.nodes[v.cur].usi]")
        check(got == ["1", 6, "3c3d"], "from move 6, #ply=1: path, ply, move %s" % got)
        # -- a handicap game from CSA names its sides by sign only: the page's header
        #    says 下手/上手, as the KIF of it does
        src = os.path.join(tmp, "hc.csa")
        with open(src, "w", encoding="utf-8") as f:
            f.write("V2.2\nN+佐藤\nN-羽生\nPI22KA\n-\n-3142GI\n+7776FU\n")
        hpage = os.path.join(tmp, "hc_csa.html")
        kifu("html", src, "-o", hpage)
        b.open("file://" + hpage)
        head = b.run("return document.querySelector('.kifu-header').textContent")
        check("下手" in head and "上手" in head and "先手" not in head and "後手" not in head,
              "CSA handicap: the header says 下手/上手: %s" % head[:120])
        # -- the URL fragment opens the page at a position, forks included
        b.open("file://" + fpage + "#ply=4,1")
        same_as_kifu(b, forks, "4,1", "opened at #ply=4,1")
        b.open("file://" + fpage + "#ply=5")
        same_as_kifu(b, forks, 5, "opened at #ply=5")
        # -- prose links: in a comment, and in the page around the viewer
        b.open("file://" + fpage + "#ply=3")
        comment = b.run("return document.querySelector('.kifu-comment').innerHTML")
        check("&lt;/script&gt;&lt;b&gt;" in comment,
              "markup in a comment shows as text: %s" % comment)
        b.click(".kifu-comment a[href='#ply=1']")
        wait_ply(b, 1)
        same_as_kifu(b, forks, 1, "the link #ply=1 in a comment")
        b.run("const a = document.createElement('a'); a.href = '#ply=4'; a.id = 'prose';"
              "a.textContent = '４手目'; document.body.prepend(a);")
        b.click("#prose")
        wait_ply(b, 4)
        same_as_kifu(b, forks, 4, "a prose link #ply=4 in the page")
        check(console_errors(b) == [], "console errors after the links: %s" % console_errors(b))

        # -- the international set
        b.open("file://" + ipage + "#ply=%d" % plies)
        check(console_errors(b) == [], "console errors on the intl page: %s" % console_errors(b))
        names = b.run("return [...document.querySelectorAll('.kifu-svg .piece')].map(t => t.textContent)")
        check(names and all(re.fullmatch(r"\+?[PLNSGBRK]", n) for n in names),
              "international names only: %s" % sorted(set(names)))
        b.screenshot(os.path.join(ARTEFACTS, "intl.png"))

        # -- a catalogue of unrelated positions; a click opens one in the viewer
        b.open("file://" + cpage)
        figs = b.run("return document.querySelectorAll('.kifu-catalogue figure').length")
        check(figs == 2, "catalogue shows %d diagrams, want 2" % figs)
        b.click(".kifu-catalogue figure[data-record='1']")
        d = dom_position(b)
        check(d["bd"] == "oooooooooooooooojdooooosobvoooooooqooooooooaooooooooooooooooooooooooooooooooooooo"
              and d["cw"] == "".join(sorted("bbbbbbbbbbbbbbbbdddffffhhhhjjjln")),
              "the catalogue's second diagram opens in the viewer: %s" % d["bd"])
        b.screenshot(os.path.join(ARTEFACTS, "catalogue.png"))
        check(console_errors(b) == [], "console errors on the catalogue: %s" % console_errors(b))

        # -- two records on one page: one viewer and a list of the games (gamelist.js);
        # #ply=2&r=2 picks the second, a click on the list the first
        b.open("file://" + mpage + "#ply=2&r=2")
        n = b.run("return document.querySelectorAll('.kifu-viewer').length")
        check(n == 1, "one viewer on a page of two games (%d)" % n)
        items = b.run("return Array.from(document.querySelectorAll('.kifu-games li'))"
                      ".map(function (li) { return li.textContent; })")
        check(len(items) == 2, "a list of the two games: %s" % items)
        same_as_kifu(b, forks, 2, "the second record at #ply=2&r=2", which=0)
        chosen = b.run("return document.querySelector('.kifu-games li.kifu-chosen')"
                       ".getAttribute('data-record')")
        check(chosen == "1", "the list marks the second game (%s)" % chosen)
        b.click(".kifu-games li[data-record='0']")
        same_as_kifu(b, game, 0, "the first record, chosen from the list", which=0)
        empty = b.run("return Array.from(document.querySelectorAll('.kifu-header span'))"
                      ".filter(function (s) { return /：$/.test(s.textContent); }).length")
        check(empty == 0, "no empty header field shown (%d)" % empty)
        check(console_errors(b) == [], "console errors on the list: %s" % console_errors(b))

        seed002(b, tmp, game)

    with Browser(390, 844, phone=True) as b:
        b.open("file://" + fpage + "#ply=3")
        width = b.run("return [document.documentElement.scrollWidth, window.innerWidth]")
        check(width[1] == 390 and width[0] <= width[1],
              "no sideways scrolling on a phone's screen (page, screen: %s px)" % width)
        # A tap (a touch pointer) on the right half steps forward there too.
        b.click_at(".kifu-svg svg", 0.75, 0.5, pointer="touch")
        same_as_kifu(b, forks, 4, "a tap on a phone")
        b.screenshot(os.path.join(ARTEFACTS, "phone.png"))
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
