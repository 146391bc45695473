#!/usr/bin/env python3
"""Fail on any C function longer than the limit (120 lines) in src/ and cli/.

Usage: long_functions.py [--limit N] [--all] [--allow-only LIST] ROOT

A function's length counts its lines from the one that names it to its closing brace,
signature and body both: what a reader has to hold at once. The scan relies on the
repository's clang-format style (BreakBeforeBraces: Linux), where a function body, and
only a function body, opens with "{" alone in column 0 and closes with "}" in column 0;
no C parser is needed. Prints one line per long function ("file:line: name is N lines")
and ends with the usual "N passed, N failed, N skipped"; exits 1 when any failed.
--all lists every function with its length; --allow-only "FILE:NAME,..." replaces the
allow-list below (for tests/function_length/selftest.sh).
"""

import os
import re
import sys

LIMIT = 120

# Functions allowed past the limit, each with its reason; reported as skipped, not
# failed. Kept empty: an entry that is no longer long is itself an error, so the list
# cannot go stale.
ALLOWED = set()

NAME = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)\s*\(")
ATTRIBUTE = re.compile(r"__attribute__\s*\(\(.*?\)\)")


def functions(path):
    """Yields (name, first line, length) of each function defined in the file."""
    with open(path, encoding="utf-8", errors="replace") as f:
        lines = f.read().split("\n")
    i = 0
    while i < len(lines):
        if lines[i].rstrip() != "{":
            i += 1
            continue
        # The signature runs back from the brace to its first line, the one in column
        # 0: a parameter list that wraps goes on indented lines.
        start = i - 1
        while start > 0 and lines[start][:1] in (" ", "\t"):
            start -= 1
        m = NAME.search(ATTRIBUTE.sub("", lines[start])) if start >= 0 else None
        end = i + 1
        while end < len(lines) and not lines[end].startswith("}"):
            end += 1
        if m:
            yield m.group(1), start + 1, end - start + 1
        i = end + 1


def main(argv):
    limit = LIMIT
    show_all = False
    allowed = ALLOWED
    args = []
    it = iter(argv)
    for a in it:
        if a == "--limit":
            limit = int(next(it))
        elif a == "--all":
            show_all = True
        elif a == "--allow-only":
            allowed = {tuple(e.split(":", 1)) for e in next(it).split(",") if e}
        else:
            args.append(a)
    if len(args) != 1:
        print(__doc__.strip().split("\n")[2], file=sys.stderr)
        return 2
    root = args[0]
    passed = failed = skipped = 0
    seen = set()
    for top in ("src", "cli"):
        for dirpath, dirnames, filenames in os.walk(os.path.join(root, top)):
            dirnames.sort()
            for fn in sorted(filenames):
                if not fn.endswith(".c"):
                    continue
                path = os.path.join(dirpath, fn)
                rel = os.path.relpath(path, root).replace(os.sep, "/")
                for name, line, length in functions(path):
                    key = (rel, name)
                    if show_all:
                        print(f"{length:5d} {rel}:{line}: {name}")
                    if length <= limit:
                        passed += 1
                        continue
                    if key in allowed:
                        seen.add(key)
                        skipped += 1
                        print(f"{rel}:{line}: {name} is {length} lines "
                              f"(allowed for now, see ALLOWED)")
                        continue
                    failed += 1
                    print(f"{rel}:{line}: {name} is {length} lines, over {limit}: "
                          f"split it into steps")
    for rel, name in sorted(allowed - seen):
        failed += 1
        print(f"{rel}: {name} is in ALLOWED but not over {limit} lines (or gone): "
              f"remove it from the list")
    print(f"{passed} passed, {failed} failed, {skipped} skipped")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
