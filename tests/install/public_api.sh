#!/usr/bin/env bash
# The tool is built on the public API only: every quoted include in cli/ is kifu.h or a
# header of cli/ itself. Usage: public_api.sh SOURCE_DIR
set -u
cli=$1/cli
bad=$(grep -Hn '#include "' "$cli"/*.c "$cli"/*.h | while IFS= read -r line; do
    name=${line#*#include \"}
    name=${name%%\"*}
    [ "$name" = kifu.h ] || [ -f "$cli/$name" ] || echo "$line"
done)
if [ -n "$bad" ]; then
    echo "internal headers in cli/: $bad"
    echo "0 passed, 1 failed"
    exit 1
fi
echo "1 passed, 0 failed"
