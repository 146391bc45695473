#!/usr/bin/env bash
# interop.sh: what kifu writes opens in the programs people use. Every record of
# tests/records (relative words with a pinned second piece, foul endings of both sides,
# forbidden last moves, comments, bookmarks, a fork, a sealed move) is written as KIF,
# KIFU, KI2, KI2U, CSA and JKF and read back by json-kifu-format (Kifu for JS) and tsshogi (ShogiHome),
# from npm: installed into the build directory as `make bench` installs them, and the
# test is skipped with a message when node or npm is missing or the install fails. Each
# peer must find the main line's moves, the result and the move comments kifu has.
# With SHARED_DIR (../shared), the corpus's records too, with each format's share.
# Usage: interop.sh KIFU_BINARY [SHARED_DIR]
set -u
kifu=$1
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
build=$(cd "$(dirname "$kifu")" && pwd)
peers=$build/peers
pass=0 fail=0 skip=0

if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
    echo "skip: node or npm is not installed: the peers cannot run"
    echo "0 passed, 0 failed, 1 skipped"
    exit 77
fi
if [ ! -f "$peers/node_modules/tsshogi/package.json" ] ||
    [ ! -f "$peers/node_modules/json-kifu-format/package.json" ]; then
    mkdir -p "$peers" && cp "$repo/bench/peers/package.json" "$peers/" &&
        timeout 600 npm install --prefix "$peers" --no-audit --no-fund --loglevel=error \
            >"$peers/npm.log" 2>&1
    if [ $? -ne 0 ]; then
        echo "skip: npm install of the peers failed (see $peers/npm.log)"
        echo "0 passed, 0 failed, 1 skipped"
        exit 77
    fi
fi

tmp=$(mktemp -d /tmp/kifu-cli-interop-XXXXXX)
trap 'rm -rf "$tmp"' EXIT

# What a peer is known to get wrong, by what the record holds (its ending, its preset:
# ref_special and ref_preset, from kifu's JKF of it) or by name. A case listed here that
# disagrees is counted as skipped with the reason; one that agrees is a pass (and is
# said, so the list can shrink).
known() { # record format peer -> prints the reason, or nothing
    local r=${1##*/} f=$2 p=$3
    case "$p:$f:$ref_special" in
    json-kifu-format:kif*:KACHI)
        echo "json-kifu-format has no 入玉勝ち (KACHI) in KIF: it reads the moves, not the ending (kifu leaves out the まで line it would refuse)"; return ;;
    json-kifu-format:ki2*:KACHI)
        echo "json-kifu-format's KI2 grammar has no まで line for 入玉勝ち (KACHI), the only place KI2 holds it"; return ;;
    tsshogi:csa:?ILLEGAL_ACTION | tsshogi:jkf:?ILLEGAL_ACTION)
        echo "tsshogi reads CSA/JKF ±ILLEGAL_ACTION the other way round (+: sente wins; the CSA standard and JKF say sente fouled)"; return ;;
    esac
    case "$p:$f:$ref_preset" in
    tsshogi:jkf:3 | tsshogi:jkf:5 | tsshogi:jkf:5_L | tsshogi:jkf:7_L | tsshogi:jkf:7_R)
        echo "tsshogi reads no JKF preset 3, 5, 5_L, 7_L, 7_R (the schema's names for 三枚落ち ... 右七枚落ち)"; return ;;
    esac
    case "$p:$r:$f" in
    json-kifu-format:foul_nifu.kifu:[!j]* | json-kifu-format:foul_end_comment.kifu:[!j]*)
        echo "json-kifu-format refuses a 二歩 drop in KIF, KI2 and CSA (Cannot move)" ;;
    esac
}

# One record written in every format and read by both peers in one node process:
# counted in pass/fail/skip, and per format and peer in fmt_ok/fmt_all (the corpus's
# share). A format that cannot hold the record (a character CP932 lacks) is skipped:
# kifu said so, as a writer must.
declare -A fmt_ok fmt_all fmt_known
check() { # record label
    local rec=$1 name=$2 want want_all want_ki2 fmt got peer why line args=()
    if ! "$kifu" convert "$rec" -t jkf -o "$tmp/ref.jkf" 2>"$tmp/err"; then
        fail=$((fail + 1))
        echo "FAIL: $name: kifu does not read it: $(head -1 "$tmp/err")"
        return
    fi
    read -r ref_special ref_preset < <(node -e '
const j = JSON.parse(require("fs").readFileSync(process.argv[1], "utf-8"));
const s = (j.moves || []).find((e) => e.special);
console.log((s ? s.special : "-") + " " + ((j.initial && j.initial.preset) || "-"));' "$tmp/ref.jkf")
    for fmt in kif kifu ki2 ki2u csa jkf; do
        if "$kifu" convert "$rec" -t "$fmt" -o "$tmp/out.$fmt" 2>"$tmp/err"; then
            args+=("$fmt" "$tmp/out.$fmt")
        elif grep -q 'cannot be written in' "$tmp/err"; then
            skip=$((skip + 1))
            echo "skip: $name as $fmt: $(head -1 "$tmp/err" | sed 's/^kifu: [^ ]*: //')"
        else
            fail=$((fail + 1))
            echo "FAIL: $name: kifu cannot write $fmt: $(head -1 "$tmp/err")"
        fi
    done
    while IFS=$'\t' read -r fmt line; do
        case $fmt in
        ref) want_all=${line#ref: }; continue ;;
        ref-ki2) want_ki2=${line#ref: }; continue ;;
        esac
        want=$want_all
        case $fmt in ki2*) want=$want_ki2 ;; esac
        # CSA keeps the main line only, which is all that is compared.
        peer=${line%%: *}
        got=${line#*: }
        why=$(known "$name" "$fmt" "$peer")
        fmt_all[$fmt/$peer]=$((${fmt_all[$fmt/$peer]:-0} + 1))
        if [ "$got" = "$want" ]; then
            pass=$((pass + 1))
            fmt_ok[$fmt/$peer]=$((${fmt_ok[$fmt/$peer]:-0} + 1))
            [ -n "$why" ] && echo "note: $name as $fmt: $peer now agrees (listed as: $why)"
        elif [ -n "$why" ]; then
            skip=$((skip + 1))
            fmt_known[$fmt/$peer]=$((${fmt_known[$fmt/$peer]:-0} + 1))
            echo "skip: $name as $fmt: $peer: $why"
        else
            fail=$((fail + 1))
            echo "FAIL: $name as $fmt: $peer read"
            echo "    ${got:0:400}"
            echo "  kifu has"
            echo "    ${want:0:400}"
        fi
    done < <(node "$here/interop.js" "$peers" ref "$tmp/ref.jkf" ref-ki2 "$tmp/ref.jkf" "${args[@]}")
}

for rec in "$repo"/tests/records/*.kifu "$repo"/tests/records/*.csa; do
    check "$rec" "$(basename "$rec")"
done

# Real records written by others (../shared/corpus, not in the repo): each one kifu reads
# is written in every format; each peer must read at least 99% of each format's files
# as kifu has them (the brief's interop goal), whatever the small records above showed.
corpus=${2:-}/corpus/jkf-fixtures
if [ -n "${2:-}" ] && [ -d "$corpus" ]; then
    fmt_ok=() fmt_all=() fmt_known=()
    n=0 all=0
    while IFS= read -r rec; do
        all=$((all + 1))
        # The fixtures kifu refuses on purpose (illegal on the board) are reader tests.
        "$kifu" validate "$rec" >/dev/null 2>&1 || continue
        n=$((n + 1))
        check "$rec" "corpus/${rec#"$corpus"/}"
    done < <(find "$corpus" -type f \( -name '*.kif' -o -name '*.kifu' -o -name '*.ki2' \
        -o -name '*.ki2u' -o -name '*.csa' -o -name '*.jkf' \) -not -path '*/expected/*' |
        sort)
    echo "corpus: the $n records of $all that kifu reads, written in each format:"
    for key in $(printf '%s\n' "${!fmt_all[@]}" | sort); do
        ok=${fmt_ok[$key]:-0} all=${fmt_all[$key]} k=${fmt_known[$key]:-0}
        # The peer's own faults (known above, each with its reason) are not kifu's.
        pct=$(awk -v a="$ok" -v b="$((all - k))" 'BEGIN { printf "%.1f", b ? 100 * a / b : 100 }')
        echo "  $key: $ok of $all read as kifu has them, $k more the peer's known fault ($pct% of the rest)"
        if [ $((ok * 100)) -lt $(((all - k) * 99)) ]; then
            fail=$((fail + 1))
            echo "FAIL: $key under 99%"
        fi
    done
else
    echo "skip: no ../shared/corpus: the corpus part of interop is not run"
fi
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
