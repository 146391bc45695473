# tmux_lib.bash: what the pseudo-terminal tests (play.sh, replay.sh) share: the kifu binary
# and a temporary directory, a private tmux server per session, failure counting, and
# waiting for text on the screen. Sourced, not run (not named *.sh, so ctest does not
# take it for a test). The sourcing script defines screen() (what to capture) and
# starts sessions with new_session. Exits 77 when tmux is missing.
KIFU=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
command -v tmux >/dev/null || { echo "skip: tmux is not installed"; exit 77; }
tmp=$(mktemp -d)
# one tmux server per session started (a fresh socket each time: no race with a server
# that is still shutting down), all killed at exit
n=0
SOCK="kifu-test-$$-$n"
T() { tmux -L "$SOCK" -f /dev/null "$@"; }
cleanup() {
  for i in $(seq 0 "$n"); do tmux -L "kifu-test-$$-$i" -f /dev/null kill-server >/dev/null 2>&1; done
  rm -rf "$tmp"
}
trap cleanup EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
# wait_for TEXT [SECONDS]: poll the screen until TEXT shows (default 20 s: loaded CI).
wait_for() {
  local limit=$(( ${2:-20} * 10 )) i=0
  while [ $i -lt $limit ]; do
    case "$(screen)" in *"$1"*) return 0;; esac
    sleep 0.1; i=$((i + 1))
  done
  fail "timed out waiting for '$1'; the screen ended:"
  screen | tail -n 40 | sed 's/^/    | /'
  return 1
}
# new_session ROWS CMD [COLS]: a fresh server with one session "t" (100 columns unless
# COLS) running CMD.
new_session() {
  T kill-server >/dev/null 2>&1
  n=$((n + 1)); SOCK="kifu-test-$$-$n"
  T new-session -d -s t -x "${3:-100}" -y "$1" "$2"
}
expect_eq() { [ "$2" = "$3" ] || { fail "$1"; echo "  got:      $2"; echo "  expected: $3"; }; }
