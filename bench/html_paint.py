"""html_paint.py: how soon a replay page shows, in headless Chromium: first paint and
first contentful paint (the Paint Timing API) and the moment the viewer has drawn its
boards (the page's "kifu-ready" mark), each from the start of navigation, median of RUNS
loads after one warm-up; beside them the first paint of a page holding one line of text,
the browser's own floor on this machine at this moment (a loaded machine raises both).
Run by `make bench` on the page kifu_bench leaves.
Usage: html_paint.py PAGE [RUNS]
"""
import os
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests",
                                "browser"))
from webdriver import Browser, SkipTest  # noqa: E402

TIMES = """
const out = {};
for (const e of performance.getEntriesByType('paint')) out[e.name] = e.startTime;
const m = performance.getEntriesByName('kifu-ready');
if (m.length) out['kifu-ready'] = m[0].startTime;
return out;
"""


def main():
    if len(sys.argv) < 2 or not os.path.exists(sys.argv[1]):
        print("html_paint: no page (run kifu_bench with the html part first)")
        return 0
    page = os.path.abspath(sys.argv[1])
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 9
    try:
        b = Browser(1000, 900)
    except SkipTest as e:
        print("html_paint: skipped:", e)
        return 0
    names = ("first-paint", "first-contentful-paint", "kifu-ready")
    with b:
        got = measure(b, page, runs, names)
        floor = tempfile.NamedTemporaryFile("w", suffix=".html", delete=False)
        floor.write('<!DOCTYPE html><html lang="ja"><head><meta charset="utf-8"><title>floor'
                    '</title></head><body><p>将棋 kifu</p></body></html>\n')
        floor.close()
        base = measure(b, floor.name, runs, names)["first-paint"]
        os.unlink(floor.name)
    size = os.path.getsize(page)
    print("page %s: %.1f KB" % (os.path.basename(page), size / 1024))
    for n in names:
        v = got[n]
        if not v:
            print("%-24s not reported" % n)
            continue
        print("%-24s median %6.1f ms  (min %.1f, max %.1f, %d loads)%s" % (
            n, statistics.median(v), min(v), max(v), len(v),
            "" if n == "kifu-ready" else "  bound 100 ms: %s" % (
                "met" if statistics.median(v) < 100 else "NOT MET")))
    if base:
        print("%-24s median %6.1f ms  (a page of one line, for comparison)"
              % ("first-paint, floor", statistics.median(base)))
    return 0


def measure(b, page, runs, names):
    """The times of `names` over `runs` loads of page, after one warm-up load."""
    got = {n: [] for n in names}
    for i in range(runs + 1):
        b.open("file://%s?run=%d" % (page, i))
        # The load event can come before the first paint: wait for its entry.
        for _ in range(100):
            t = b.run(TIMES)
            if "first-contentful-paint" in t:
                break
            time.sleep(0.02)
        if i == 0:
            continue  # the warm-up: the browser's own first start
        for n in names:
            if n in t:
                got[n].append(t[n])
    return got


sys.exit(main())
