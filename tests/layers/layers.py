#!/usr/bin/env python3
"""The layer table of CONTRIBUTING.md, executed.

Usage: layers.py SOURCE_DIR BUILD_DIR

Reads the table under "## Layout" in SOURCE_DIR/CONTRIBUTING.md (one row per folder of
src/: what it owns, what it may call) and checks every file of src/ against it:

  - each `#include "folder/file.h"` of a file in another folder;
  - each call of a function defined in another folder: the symbols an object file of
    the library needs (`nm -u`) against the folder whose object defines them
    (`nm --defined-only`), objects from BUILD_DIR/CMakeFiles/kifu_objects.dir/src/;
  - circles inside a folder: files that call each other (object A needs a function of
    B, and B one of A, or a longer ring), and headers that include each other.

A use of a folder the row does not allow is named as the file, what it uses and from
which layer: "a higher layer" when that folder may call the user's (so the arrow points
up), "sideways" otherwise. Circles listed in tests/layers/known_circles.txt (each with
its reason; the list of the tree checked) are reported but do not fail; a listed circle that is gone is said so, to
be struck off the list.

Exit 0 when the code keeps the table, 1 when it does not, 2 when the table or the
build cannot be read. cli/ is checked by tests/install/public_api.sh (kifu.h only)."""

import os
import re
import subprocess
import sys

def fail(msg):
    print("layers: " + msg, file=sys.stderr)
    sys.exit(2)


def read_table(src_dir):
    """[(folder, may-call text)] in the table's order, for folders under src/."""
    path = os.path.join(src_dir, "CONTRIBUTING.md")
    try:
        text = open(path, encoding="utf-8").read()
    except OSError as e:
        fail("cannot read %s: %s" % (path, e))
    rows = []
    in_layout = False
    for line in text.splitlines():
        if line.startswith("## "):
            in_layout = line.strip() == "## Layout"
            continue
        if not in_layout or not line.startswith("|"):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        m = re.fullmatch(r"`src/([a-z_]+)/`", cells[0]) if cells else None
        if m and len(cells) >= 3:
            rows.append((m.group(1), cells[-1]))
    if not rows:
        fail("no rows `src/<folder>/` in the Layout table of %s" % path)
    return rows


def allowed_sets(rows):
    """folder -> the folders it may call (itself not included). "X and below" is X and
    every folder above X's row in the table; other words that name a folder name it;
    the rest (libc, iconv, sqlite, pcre2) are not folders of src/."""
    order = [f for f, _ in rows]
    allowed = {}
    for folder, may in rows:
        s = set()
        for part in re.split(r"[,:;]", may):
            part = part.strip().strip("`").lower()
            m = re.fullmatch(r"`?([a-z_]+)/?`?\s+and below", part)
            if m:
                if m.group(1) not in order:
                    fail("row %s: %r is no folder of the table" % (folder, m.group(1)))
                s.update(order[: order.index(m.group(1)) + 1])
                continue
            for word in re.findall(r"[a-z_]+", part):
                if word in order:
                    s.add(word)
        s.discard(folder)
        allowed[folder] = s
    return allowed


def above(allowed):
    """folder -> the folders that may call it, directly or through others: a use of one
    of those points up."""
    reach = {}
    for f in allowed:
        seen, todo = set(), list(allowed[f])
        while todo:
            g = todo.pop()
            if g not in seen:
                seen.add(g)
                todo.extend(allowed.get(g, ()))
        reach[f] = seen
    return {g: {f for f in allowed if g in reach[f]} for g in allowed}


def source_files(src_dir):
    out = []
    root = os.path.join(src_dir, "src")
    for d, _, files in os.walk(root):
        for n in sorted(files):
            if n.endswith((".c", ".h")):
                out.append(os.path.relpath(os.path.join(d, n), root))
    return sorted(out)


def folder_of(rel):
    return rel.split("/", 1)[0] if "/" in rel else None


INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def includes(src_dir, rel):
    text = open(os.path.join(src_dir, "src", rel), encoding="utf-8", errors="replace").read()
    # Comments may quote an include; drop them first.
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r"//[^\n]*", "", text)
    return INCLUDE.findall(text)


def nm(args, objs):
    """nm over every object at once (-A: each line starts with its object's path)."""
    r = subprocess.run(["nm", "-A"] + args + objs, capture_output=True, text=True)
    if r.returncode:
        fail("nm: %s" % r.stderr.strip())
    out = []
    for line in r.stdout.splitlines():
        obj, _, rest = line.partition(".o:")
        out.append((obj + ".o", rest.split()))
    return out


def symbols(build_dir, cfiles):
    """(defined: symbol -> file, needs: file -> set of symbols) of the library's objects."""
    objdir = os.path.join(build_dir, "CMakeFiles", "kifu_objects.dir", "src")
    objs = {os.path.join(objdir, rel + ".o"): rel for rel in cfiles}
    missing = [rel for o, rel in objs.items() if not os.path.exists(o)]
    if missing:
        fail("no object file for %s under %s: build the library first" %
             (", ".join(missing), objdir))
    defined, needs = {}, {rel: set() for rel in cfiles}
    for obj, parts in nm(["--defined-only", "-g"], sorted(objs)):
        if len(parts) == 3 and parts[1] in "TDBRVWGS":
            defined[parts[2]] = objs[obj]
    for obj, parts in nm(["-u"], sorted(objs)):
        if parts:
            needs[objs[obj]].add(parts[-1])
    return defined, needs


def circles(edges):
    """Strongly connected parts of more than one node (Tarjan, iterative)."""
    index, low, on, stack, out = {}, {}, set(), [], []
    counter = [0]
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges.get(root, ()))))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(edges.get(w, ())))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                part = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    part.append(w)
                    if w == v:
                        break
                if len(part) > 1:
                    out.append(sorted(part))
    return sorted(out)


def known_circles(src_dir):
    path = os.path.join(src_dir, "tests", "layers", "known_circles.txt")
    known = []
    if os.path.exists(path):
        for line in open(path, encoding="utf-8"):
            line = line.split("#", 1)[0].strip()
            if line:
                known.append(sorted(line.split()))
    return known


def main():
    if len(sys.argv) != 3:
        fail("usage: layers.py SOURCE_DIR BUILD_DIR")
    src_dir, build_dir = sys.argv[1], sys.argv[2]
    rows = read_table(src_dir)
    allowed = allowed_sets(rows)
    ups = above(allowed)
    files = source_files(src_dir)
    cfiles = [f for f in files if f.endswith(".c")]
    problems = []

    def judge(rel, target, what):
        """A use by file rel of folder target; a problem line unless the table allows."""
        f = folder_of(rel)
        if f not in allowed or target == f or target in allowed[f] or target not in allowed:
            return
        how = "a higher layer" if target in ups[f] else "sideways"
        may = ", ".join(sorted(allowed[f])) or "no folder of src/"
        problems.append("src/%s: %s, from %s (%s; %s may call %s)" %
                        (rel, what, target, how, f, may))

    # Includes.
    nincl = 0
    inc_edges = {}
    for rel in files:
        for inc in includes(src_dir, rel):
            target = folder_of(inc)
            if target is None:
                continue  # kifu.h, kifu_private.h, generated assets: every layer's
            nincl += 1
            judge(rel, target, 'includes "%s"' % inc)
            if target == folder_of(rel) and rel.endswith(".h") and inc in files:
                inc_edges.setdefault(rel, set()).add(inc)

    # Calls.
    defined, needs = symbols(build_dir, cfiles)
    ncalls = 0
    call_edges = {}
    for rel in cfiles:
        by_target = {}
        for sym in sorted(needs[rel]):
            where = defined.get(sym)
            if where is None or where == rel:
                continue  # libc, iconv, sqlite, pcre2
            if folder_of(where) == folder_of(rel):
                call_edges.setdefault(rel, {}).setdefault(where, []).append(sym)
                continue
            ncalls += 1
            by_target.setdefault(where, []).append(sym)
        for where, syms in sorted(by_target.items()):
            judge(rel, folder_of(where), "calls %s (src/%s)" % (", ".join(syms), where))

    # Circles inside a folder: calls between .c files, includes between headers.
    found = []
    for part in circles({k: set(v) for k, v in call_edges.items()}):
        ring = []
        for a in part:
            for b in part:
                if b in call_edges.get(a, {}):
                    ring.append("src/%s calls %s (src/%s)" %
                                (a, ", ".join(call_edges[a][b]), b))
        found.append((part, "; ".join(ring)))
    for part in circles(inc_edges):
        ring = ["src/%s includes %s" % (a, b) for a in part for b in part
                if b in inc_edges.get(a, ())]
        found.append((part, "; ".join(ring)))
    known = known_circles(src_dir)
    bad_circles = 0
    for part, why in found:
        names = " <-> ".join("src/" + p for p in part)
        if part in known:
            print("known circle (tests/layers/known_circles.txt): %s: %s" % (names, why))
        else:
            problems.append("circle inside src/%s/: %s: %s" % (folder_of(part[0]), names, why))
            bad_circles += 1
    for k in known:
        if all(k != p for p, _ in found):
            print("note: the known circle %s is gone: strike it from "
                  "tests/layers/known_circles.txt" % " <-> ".join(k))

    for p in problems:
        print(p)
    print("%d files, %d includes and %d calls across folders, %d circles: %d passed, "
          "%d failed" % (len(files), nincl, ncalls, len(found),
                         0 if problems else 1, len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
