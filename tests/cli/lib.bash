# lib.bash: the counters and checks the CLI test scripts share. Source it:
#   . "$(dirname "${BASH_SOURCE[0]}")/lib.bash"
# and end the script with its own summary line and `[ $fail -eq 0 ]`.
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAILED: $*"; }
check() { # name, expected, actual
    if [ "$2" = "$3" ]; then ok; else bad "$1"; printf '  expected: %s\n  got:      %s\n' "$2" "$3"; fi
}

# `$kifu serve ARGS...` in the background on a free port of 127.0.0.1, its output in OUT
# and ERR: serve_start OUT ERR ARGS... sets pid and port, and fails (port empty) when no
# URL came within 10 s or the server ended. The caller stops it by pid.
serve_start() {
    local out=$1 err=$2
    shift 2
    "$kifu" serve "$@" --listen 127.0.0.1:0 >"$out" 2>"$err" &
    pid=$!
    port=
    for _ in $(seq 100); do
        port=$(sed -n 's|^kifu: serving .* at http://127.0.0.1:\([0-9]*\)/$|\1|p' "$out")
        [ -n "$port" ] && return 0
        kill -0 "$pid" 2>/dev/null || return 1
        sleep 0.1
    done
    return 1
}
