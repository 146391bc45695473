#!/bin/bash
# The layer test on a made-up tree: a table of four layers and files that break it in
# each way layers.py knows (an include and a call up, a call sideways, a circle of calls,
# headers that include each other), then the same tree mended. Usage: selftest.sh
# LAYERS_PY. The objects are built with cc where the library's build puts its own.
set -u
LAYERS=$1
CC=${CC:-cc}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0
fail=0
check() { # what, then a command that must succeed
    local what=$1
    shift
    if "$@"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $what"; fi
}

cat >"$T/CONTRIBUTING.md" <<'EOF'
# Contributing

## Layout

| folder | owns | may call |
|---|---|---|
| `src/core/` | the bottom | libc |
| `src/rules/` | the middle | core |
| `src/record/` | above it | rules, core |
| `src/search/` | beside index | record and below |
| `src/index/` | beside search | record and below |

## Something else

| `src/rules/` | not the table | anything |
EOF
mkdir -p "$T/src/core" "$T/src/rules" "$T/src/record" "$T/src/search" "$T/src/index"
put() { cat >"$T/src/$1"; }
put core/mem.c <<'EOF'
int core_mem(void) { return 1; }
EOF
put rules/pos.h <<'EOF'
#ifndef POS_H
#define POS_H
#include "rules/move.h"
int rules_pos(void);
#endif
EOF
put rules/move.h <<'EOF'
#ifndef MOVE_H
#define MOVE_H
#include "rules/pos.h"
#endif
EOF
put rules/pos.c <<'EOF'
#include "record/tree.h" /* up */
int core_mem(void);
int record_tree(void);
int rules_pos(void) { return core_mem() + record_tree(); }
EOF
put record/tree.h <<'EOF'
int record_tree(void);
EOF
put record/tree.c <<'EOF'
#include "rules/pos.h"
int record_walk(void);
int record_tree(void) { return rules_pos() + record_walk(); }
EOF
put record/walk.c <<'EOF'
int record_tree(void);
int record_walk(void) { return record_tree(); }
EOF
put search/find.c <<'EOF'
int search_find(void) { return 0; }
EOF
put index/look.c <<'EOF'
/* #include "search/find.h" in a comment is no include */
int search_find(void);
int index_look(void) { return search_find(); }
EOF

build() {
    local f
    for f in $(cd "$T/src" && find . -name '*.c' | sed 's|^\./||'); do
        mkdir -p "$T/build/CMakeFiles/kifu_objects.dir/src/$(dirname "$f")"
        "$CC" -c -I"$T/src" "$T/src/$f" -o "$T/build/CMakeFiles/kifu_objects.dir/src/$f.o" ||
            return 1
    done
}
check "the made-up tree builds" build

out=$(python3 "$LAYERS" "$T" "$T/build")
rc=$?
has() { grep -qF -- "$1" <<<"$out"; }
check "a broken table fails (exit 1, got $rc)" test "$rc" = 1
check "an include up is named" \
    has 'src/rules/pos.c: includes "record/tree.h", from record (a higher layer; rules may call core)'
check "a call up is named" \
    has 'src/rules/pos.c: calls record_tree (src/record/tree.c), from record (a higher layer'
check "a call sideways is named" \
    has 'src/index/look.c: calls search_find (src/search/find.c), from search (sideways; index may call core, record, rules)'
check "a circle of calls is named" \
    has 'circle inside src/record/: src/record/tree.c <-> src/record/walk.c'
check "headers that include each other are named" \
    has 'circle inside src/rules/: src/rules/move.h <-> src/rules/pos.h'
check "allowed uses are not named" bash -c '! grep -qE "record/tree.c: (calls|includes)|search/find.c:|core/mem.c:" <<<"$1"' _ "$out"
check "an include in a comment is not read" bash -c '! grep -qF "includes \"search/find.h\"" <<<"$1"' _ "$out"
check "the count of problems is said" has '0 passed, 5 failed'

# A known circle is reported without failing; a known one that is gone is said.
mkdir -p "$T/tests/layers"
printf '# reason\nrecord/walk.c record/tree.c\nrules/a.c rules/b.c\n' >"$T/tests/layers/known_circles.txt"
out=$(python3 "$LAYERS" "$T" "$T/build")
check "a known circle is not a problem" has '0 passed, 4 failed'
check "a known circle is reported" has 'known circle (tests/layers/known_circles.txt): src/record/tree.c <-> src/record/walk.c'
check "a known circle that is gone is said" has 'the known circle rules/a.c <-> rules/b.c is gone'

# Mended: the call up goes, index may use search, the header ring is broken.
put rules/pos.c <<'EOF'
int core_mem(void);
int rules_pos(void) { return core_mem(); }
EOF
put rules/move.h <<'EOF'
int rules_move(void);
EOF
sed -i 's/| `src\/index\/` | beside search | record and below |/| `src\/index\/` | above search | search, record and below |/' "$T/CONTRIBUTING.md"
rm -f "$T/build/CMakeFiles/kifu_objects.dir/src/rules/pos.c.o"
check "the mended tree builds" build
out=$(python3 "$LAYERS" "$T" "$T/build")
rc=$?
check "the mended tree passes (exit 0, got $rc): $out" test "$rc" = 0

# A file without its object is an error of the build (exit 2), not a pass.
rm -f "$T/build/CMakeFiles/kifu_objects.dir/src/core/mem.c.o"
python3 "$LAYERS" "$T" "$T/build" >/dev/null 2>&1
rc=$?
check "a missing object is an error (exit 2, got $rc)" test "$rc" = 2

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
