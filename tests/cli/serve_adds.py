"""serve_adds.py: `kifu serve` while `kifu index add` writes, checked. CLIENTS threads
ask /api/explore (the start position) over keep-alive connections while ADDS games are
added one after the other, each by its own `kifu index add` (one new game, its own
first move, players named for this run so that a second run adds new games too). Each
client asks at least REQUESTS times and goes on until the last add has committed (at
most 100,000 requests). Every answer must be a 200; every count one the index held at
some commit (BASE + k); each answer's moves must add up to its games (less the moves of
games that come back to the start, as the index held them before: random games of the
bench do); a client never
sees the count go back; the last answer of each client after the adds is BASE + ADDS.
Prints "requests errors" on its first line, then up to ten errors. Exit 1 on any error.
Used by tests/cli/serve.sh and bench/serve.sh (there beside wrk's load).
Usage: serve_adds.py PORT KIFU INDEX.kdb WORKDIR BASE [ADDS CLIENTS REQUESTS]
"""
import http.client
import json
import os
import subprocess
import sys
import threading
import time

MOVES = ["1g1f", "2g2f", "3g3f", "4g4f", "5g5f", "6g6f", "9g9f", "1i1h", "9i9h", "3i3h",
         "7i7h", "4i5h"]
CSA_MOVE = {"1g1f": "+1716FU", "2g2f": "+2726FU", "3g3f": "+3736FU", "4g4f": "+4746FU",
            "5g5f": "+5756FU", "6g6f": "+6766FU", "9g9f": "+9796FU", "1i1h": "+1918KY",
            "9i9h": "+9998KY", "3i3h": "+3938GI", "7i7h": "+7978GI", "4i5h": "+4958KI"}


def main():
    port, kifu, kdb, work, base = (int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4],
                                   int(sys.argv[5]))
    adds = int(sys.argv[6]) if len(sys.argv) > 6 else 12
    clients = int(sys.argv[7]) if len(sys.argv) > 7 else 8
    least = int(sys.argv[8]) if len(sys.argv) > 8 else 60
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    c.request("GET", "/api/explore")
    d = json.loads(c.getresponse().read())
    c.close()
    if d["games"] != base:
        print("0 1\nthe start position has %d games, not %d" % (d["games"], base))
        return 1
    again = sum(m["games"] for m in d["moves"]) - base
    errors, seen, done = [], [0] * clients, threading.Event()
    finals = [None] * clients

    def client(n):
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        last, i = base, 0
        while i < 100000 and (i < least or finals[n] is None):
            after = done.is_set()
            i += 1
            try:
                c.request("GET", "/api/explore")
                r = c.getresponse()
                body = r.read()
            except Exception as e:  # noqa: BLE001 (any failure is an error to report)
                errors.append("client %d request %d: %r" % (n, i, e))
                c = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
                continue
            if r.status != 200:
                errors.append("status %d: %s" % (r.status, body[:200]))
                continue
            d = json.loads(body)
            g = d["games"]
            if not base <= g <= base + adds:
                errors.append("a count out of range: %d" % g)
            if sum(m["games"] for m in d["moves"]) != g + again:
                errors.append("moves do not add up to %d" % (g + again))
            if g < last:
                errors.append("the count went back: %d after %d" % (g, last))
            last = g
            seen[n] += 1
            if after:
                finals[n] = g

    threads = [threading.Thread(target=client, args=(n,)) for n in range(clients)]
    for t in threads:
        t.start()
    run = "%d-%d" % (os.getpid(), int(time.time() * 1000))
    try:
        for i in range(adds):
            d = os.path.join(work, "add%d" % i)
            os.makedirs(d, exist_ok=True)
            mv = MOVES[i % len(MOVES)]
            with open(os.path.join(d, "a.csa"), "w", encoding="utf-8") as f:
                f.write("V2.2\nN+load%s-%d\nN-load%s\nPI\n+\n%s\n%%TORYO\n"
                        % (run, i, run, CSA_MOVE[mv]))
            p = subprocess.run([kifu, "index", "add", kdb, d], capture_output=True, text=True)
            if p.returncode:
                errors.append("index add %d: %s" % (i, p.stderr.strip()))
    finally:
        done.set()
        for t in threads:
            t.join()
    for n, g in enumerate(finals):
        if g is not None and g != base + adds:
            errors.append("client %d: after the adds %d, not %d" % (n, g, base + adds))
    print(sum(seen), len(errors))
    print("\n".join(errors[:10]))
    return 1 if errors else 0


sys.exit(main())
