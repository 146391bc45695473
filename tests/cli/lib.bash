# lib.bash: the counters and checks the CLI test scripts share. Source it:
#   . "$(dirname "${BASH_SOURCE[0]}")/lib.bash"
# and end the script with its own summary line and `[ $fail -eq 0 ]`.
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAILED: $*"; }
check() { # name, expected, actual
    if [ "$2" = "$3" ]; then ok; else bad "$1"; printf '  expected: %s\n  got:      %s\n' "$2" "$3"; fi
}
