#!/usr/bin/env python3
"""Agreement of `kifu tags` with the tags another program wrote into KIF headers.

Usage: scripts/tag_agreement.py DIR... [--kifu PATH] [--tag-file FILE]... [--markdown]
                                [--examples N] [--list-games]

Reads every .kif/.kifu file under DIR whose header carries tag lines as shogi-extend /
bioshogi exports write them:

    先手の戦法：四間飛車            (older exports: 先手の戦型：…)
    先手の囲い：美濃囲い, 高美濃囲い
    先手の備考：振り飛車, 対抗形
    後手の…

Those lines (and the per-move comments `*▲戦法：…` that such exports also write) are the
expected tags. They are stripped from a copy of the file, `kifu tags --json` tags the copy,
and the two are compared:

  - each side's class (居飛車 / 振り飛車) and the game's (相居飛車 / 対抗形 / 相振り飛車):
    the share of sides (games) where both name the same class, over those the export
    classed;
  - every 戦法 and 囲い name: its count in the export, and kifu's precision, recall and F1
    over the sides (true positive: both give the name to that side of that game).
    A name kifu does not ship is marked so (it cannot be found: recall 0).

Only even games (no 手合割 other than 平手) are read. The script changes no file under DIR.
Exit status: 0, or 2 when no file with tags was found.
"""
import argparse
import collections
import json
import os
import re
import subprocess
import sys
import tempfile

SIDES = ("先手", "後手")
SIDE_KEY = {"sente": 0, "gote": 1}
FAMILY_KEYS = {"戦法": "戦法", "戦型": "戦法", "囲い": "囲い", "備考": "備考"}
HEADER = re.compile(r"^(先手|後手)の(戦法|戦型|囲い|備考|手筋|棋風)[：:](.*)$")
MOVE_COMMENT = re.compile(r"^\*[▲△☗☖](戦法|戦型|囲い|備考|手筋)[：:]")
SIDE_CLASSES = ("居飛車", "振り飛車")
GAME_CLASSES = ("相居飛車", "対抗形", "相振り飛車")
GAME_ALIASES = {"相振り": "相振り飛車"}


def read_text(path):
    data = open(path, "rb").read()
    for enc in ("utf-8-sig", "cp932"):
        try:
            return data.decode(enc)
        except UnicodeDecodeError:
            pass
    return data.decode("utf-8", "replace")


def split_names(value):
    return [n.strip() for n in re.split(r"[,，、]", value) if n.strip()]


def parse_export(text):
    """The expected tags of one file and its text without them, or None when it has none."""
    expected = [collections.defaultdict(set), collections.defaultdict(set)]
    kept, found, handicap = [], False, False
    for line in text.splitlines():
        m = HEADER.match(line)
        if m:
            found = True
            side = SIDES.index(m.group(1))
            family = FAMILY_KEYS.get(m.group(2))
            if family:
                expected[side][family].update(split_names(m.group(3)))
            continue
        if MOVE_COMMENT.match(line):
            continue
        if line.startswith("手合割") and "平手" not in line:
            handicap = True
        kept.append(line)
    if not found or handicap:
        return None
    return expected, "\n".join(kept) + "\n"


def side_class(names):
    got = [c for c in SIDE_CLASSES if c in names]
    return got[0] if len(got) == 1 else None


def game_class(notes):
    """notes: the 備考 names of both sides; the game class the export gave, if one."""
    got = {GAME_ALIASES.get(n, n) for n in notes} & set(GAME_CLASSES)
    return got.pop() if len(got) == 1 else None


def kifu_names(kifu, tag_files):
    out = subprocess.run([kifu, "tags", "--list"] + sum([["--tag-file", f] for f in tag_files], []),
                         capture_output=True, text=True, check=True).stdout
    names = {}
    for line in out.splitlines():
        family, _, name = line.partition("\t")
        if name:
            names[name] = family
    return names


def collect(dirs):
    files = []
    for d in dirs:
        if os.path.isfile(d):
            files.append(d)
            continue
        for root, _, names in os.walk(d):
            files += [os.path.join(root, n) for n in names if n.lower().endswith((".kif", ".kifu"))]
    return sorted(files)


def run(args):
    files = collect(args.dirs)
    games, skipped = [], 0
    with tempfile.TemporaryDirectory() as tmp:
        for i, path in enumerate(files):
            parsed = parse_export(read_text(path))
            if not parsed:
                skipped += 1
                continue
            copy = os.path.join(tmp, "%05d.kif" % i)
            open(copy, "w", encoding="utf-8").write(parsed[1])
            games.append({"file": path, "copy": copy, "expected": parsed[0],
                          "got": [collections.defaultdict(set), collections.defaultdict(set)]})
        if not games:
            print("no KIF file with tag headers under %s (%d files read)" % (" ".join(args.dirs), len(files)))
            return 2
        cmd = [args.kifu, "tags", "--json", tmp] + sum([["--tag-file", f] for f in args.tag_file], [])
        p = subprocess.run(cmd, capture_output=True, text=True)
        by_copy = {g["copy"]: g for g in games}
        game_got = {}
        for line in p.stdout.splitlines():
            d = json.loads(line)
            g = by_copy.get(d["file"]) or by_copy.get(os.path.join(tmp, os.path.basename(d["file"])))
            if not g or d.get("game", 1) != 1:
                continue
            g["read"] = True
            for t in d["tags"]:
                if t["side"] == "game":
                    game_got[g["copy"]] = t["name"] if t["name"] in GAME_CLASSES else game_got.get(g["copy"])
                else:
                    g["got"][SIDE_KEY[t["side"]]][t["family"]].add(t["name"])
        for g in games:
            g["game_got"] = game_got.get(g["copy"])
        unread = [g["file"] for g in games if not g.get("read")]
        games = [g for g in games if g.get("read")]
    shipped = kifu_names(args.kifu, args.tag_file)
    report(args, games, skipped, unread, shipped)
    return 0


def pct(a, b):
    return "%.1f%%" % (100.0 * a / b) if b else "-"


def ratio(a, b):
    return "%.2f" % (a / b) if b else "-"


def report(args, games, skipped, unread, shipped):
    md = args.markdown
    players = set()
    for g in games:
        for line in read_text(g["file"]).splitlines()[:40]:
            m = re.match(r"^(先手|後手)[：:](.+?)(\s+\S*[級段]|\(.*\))?$", line)
            if m:
                players.add(m.group(2).strip())
    print("%d games with tags (%d files without tags or not 平手 skipped, %d kifu could not read); %d player names"
          % (len(games), skipped, len(unread), len(players)))
    for f in unread:
        print("  not read:", f)
    # Classes.
    side_n = side_ok = game_n = game_ok = 0
    side_bad, game_bad = [], []
    for g in games:
        for s in (0, 1):
            want = side_class(g["expected"][s]["備考"])
            if want:
                side_n += 1
                have = side_class(g["got"][s]["備考"])
                if have == want:
                    side_ok += 1
                else:
                    side_bad.append((g["file"], SIDES[s], want, have))
        want = game_class(g["expected"][0]["備考"] | g["expected"][1]["備考"])
        if want:
            game_n += 1
            if g["game_got"] == want:
                game_ok += 1
            else:
                game_bad.append((g["file"], "対局", want, g["game_got"]))
    print()
    print("居飛車/振り飛車 (each side): %d/%d agree, %s" % (side_ok, side_n, pct(side_ok, side_n)))
    print("相居飛車/対抗形/相振り飛車 (the game): %d/%d agree, %s" % (game_ok, game_n, pct(game_ok, game_n)))
    # Names.
    stat = collections.defaultdict(lambda: {"n": 0, "tp": 0, "fp": 0, "fn": 0, "family": "", "miss": [], "extra": []})
    for g in games:
        for s in (0, 1):
            for family in ("戦法", "囲い"):
                want, have = g["expected"][s][family], g["got"][s][family]
                for name in want | have:
                    st = stat[name]
                    st["family"] = family
                    where = "%s %s" % (os.path.basename(g["file"]), SIDES[s])
                    if name in want:
                        st["n"] += 1
                    if name in want and name in have:
                        st["tp"] += 1
                    elif name in want:
                        st["fn"] += 1
                        st["miss"].append(where)
                    else:
                        st["fp"] += 1
                        st["extra"].append(where)
    print()
    rows = sorted(stat.items(), key=lambda kv: (-kv[1]["n"], kv[1]["family"], kv[0]))
    head = ("family", "name", "count", "kifu", "precision", "recall", "F1", "note")
    if md:
        print("| " + " | ".join(head) + " |")
        print("|" + "---|" * len(head))
    else:
        print("%-4s %-16s %5s %5s %9s %6s %5s  %s" % head)
    for name, st in rows:
        tp, fp, fn = st["tp"], st["fp"], st["fn"]
        f1 = ratio(2 * tp, 2 * tp + fp + fn)
        note = "" if name in shipped else ("not shipped by kifu" if st["n"] else "")
        cells = (st["family"], name, str(st["n"]), str(tp + fp), ratio(tp, tp + fp), ratio(tp, tp + fn), f1, note)
        if md:
            print("| " + " | ".join(cells) + " |")
        else:
            print("%-4s %-16s %5s %5s %9s %6s %5s  %s" % cells)
    if args.examples:
        print()
        print("disagreements (up to %d a name): missed = the export has it, kifu not; extra = kifu only" % args.examples)
        for name, st in rows:
            for kind in ("miss", "extra"):
                if st[kind]:
                    print("  %s %s: %s" % (name, "missed" if kind == "miss" else "extra",
                                           "; ".join(st[kind][: args.examples])))
        for f, side, want, have in side_bad[: args.examples] + game_bad[: args.examples]:
            print("  class %s %s: export %s, kifu %s" % (os.path.basename(f), side, want, have))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dirs", nargs="+", help="folders (or files) of KIF records with tag headers")
    ap.add_argument("--kifu", default=os.environ.get("KIFU", "build/kifu"), help="the kifu binary")
    ap.add_argument("--tag-file", action="append", default=[], help="more definitions for kifu tags")
    ap.add_argument("--markdown", action="store_true", help="the per-name table in Markdown")
    ap.add_argument("--examples", type=int, default=0, help="list up to N disagreements a name")
    return run(ap.parse_args())


if __name__ == "__main__":
    sys.exit(main())
