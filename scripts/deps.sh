#!/usr/bin/env bash
# Install the Debian packages the build needs, when they are missing.
# Usage: scripts/deps.sh [build|browser|fuzz|bench|lint|clickhouse]   (default: build)
# browser: what the replay page's tests and `make bench` drive (Chromium and its
# WebDriver, and a CJK font so the kanji render in screenshots).
# clickhouse: the server and client the ClickHouse test and bench start privately, and
# openssl, which makes the certificates of its TLS test
# (`make test` and `make bench` ask for them; where they cannot be installed that test
# skips and the bench leaves its ClickHouse part out).
# As root it runs apt-get; otherwise it prints the exact command and fails.
set -euo pipefail

what=${1:-build}
pkgs=(gcc make cmake pkg-config python3 libpcre2-dev libsqlite3-dev libcurl4-openssl-dev libmicrohttpd-dev sqlite3 tmux groff-base man-db)
# No JSON library: the library, the tool, the tests and the benchmarks all read JSON with
# src/core/json.c.
case "$what" in
  build) ;;
  browser) pkgs+=(chromium chromium-driver fonts-noto-cjk) ;;
  fuzz) pkgs+=(clang libclang-rt-dev) ;;
  bench) pkgs+=(valgrind wrk chromium chromium-driver fonts-noto-cjk) ;;
  lint) pkgs=(clang-format) ;;
  clickhouse) pkgs=(clickhouse-server clickhouse-client openssl) ;;
  *) echo "usage: $0 [build|browser|fuzz|bench|lint|clickhouse]" >&2; exit 2 ;;
esac

missing=()
for p in "${pkgs[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

cmd="apt-get install -y --no-install-recommends ${missing[*]}"
if [ "$(id -u)" -ne 0 ]; then
  echo "kifu: missing Debian packages: ${missing[*]}" >&2
  echo "run as root: apt-get update && $cmd" >&2
  exit 1
fi
echo "kifu: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null
$cmd >/dev/null
