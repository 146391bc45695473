#!/usr/bin/env bash
# Writes a small collection shaped as people keep theirs, with counts known by
# construction (tests/cli/collection.sh checks every one). Usage: make.sh KIFU DIR
#
# The games are typed in here as USI moves and written by kifu's own writers (iconv
# for the legacy encodings); the relay record is typed in as KIF, with its errors.
#
#   DIR/multi/two.csa        2 games, CSA '/' between them
#   DIR/multi/three.sfen     3 games, a USI line each
#   DIR/enc/sjis.kif         1 game, Shift_JIS, declaring encoding=Shift_JIS
#   DIR/enc/utf16.kif        1 game, UTF-16LE after a BOM (as Windows writes it)
#   DIR/enc/utf16be.kifu     1 game, UTF-16BE without a BOM
#   DIR/enc/cut.kif          Shift_JIS cut inside its last character: truncated
#   DIR/relay/relay.kif      1 game: ply 4's source square miscopied (the rest goes on)
#                            and ply 1's time field doubled
#   DIR/package.json, DIR/site/schema.json   JSON that is no record (skipped)
#   DIR/README               no record extension (never taken)
# Record files 7; games that read 9 (8 valid, the relay's 1 repairable); files skipped 2.
set -eu
kifu=$1 dir=$2
mkdir -p "$dir/multi" "$dir/enc" "$dir/relay" "$dir/site"

# Typed-in games (USI), all legal; one per line.
games=(
    "7g7f 3c3d 2g2f 8c8d 2f2e 8d8e 6i7h 4a3b"
    "2g2f 8c8d 2f2e 8d8e 6i7h 4a3b 2e2d 2c2d 2h2d"
    "7g7f 8c8d 7i6h 3c3d 6g6f 7a6b 5g5f 5c5d"
    "5g5f 3c3d 5f5e 8b5b 2h5h 5a4b"
    "7g7f 3c3d 8h2b+ 3a2b B*4e"
    "2g2f 3c3d 7g7f 4c4d 3i4h 8b4b"
    "7g7f 3c3d 2g2f 4c4d 2f2e 2b3c 3i4h 3a4b"
)
usi() { printf 'position startpos moves %s\n' "$1"; }
conv() { # FORMAT: standard input (a USI line) to standard output in FORMAT
    "$kifu" convert -f sfen -t "$1" -
}

{ usi "${games[0]}" | conv csa; echo /; usi "${games[1]}" | conv csa; } >"$dir/multi/two.csa"
{ usi "${games[2]}"; usi "${games[3]}"; usi "${games[4]}"; } >"$dir/multi/three.sfen"
usi "${games[5]}" | conv kifu | sed 's/encoding=UTF-8/encoding=Shift_JIS/' |
    iconv -f UTF-8 -t SHIFT_JIS >"$dir/enc/sjis.kif"
usi "${games[6]}" | conv kifu | iconv -f UTF-8 -t UTF-16LE | { printf '\377\376'; cat; } >"$dir/enc/utf16.kif"
usi "${games[0]}" | conv kifu | iconv -f UTF-8 -t UTF-16BE >"$dir/enc/utf16be.kifu"
# A game and its まで line, cut after the lead byte of the line's last character (断).
{
    usi "${games[1]}" | conv kifu | iconv -f UTF-8 -t SHIFT_JIS
    printf 'まで9手で中断' | iconv -f UTF-8 -t SHIFT_JIS | head -c -1
} >"$dir/enc/cut.kif"
# The relay: ８四歩 written from 85 (it came from 83), and a doubled time field.
cat <<'K' | iconv -f UTF-8 -t SHIFT_JIS >"$dir/relay/relay.kif"
# ---- relay transcription ----
開始日時：2024/05/01 10:00:00
棋戦：中継
先手：甲
後手：乙
手数----指手---------消費時間--
   1 ７六歩(77)   ( 0:00/00:00:00) ( 0:00/00:00:00)
   2 ３四歩(33)   ( 0:01/00:00:01)
   3 ２六歩(27)   ( 0:01/00:00:01)
   4 ８四歩(85)   ( 0:01/00:00:01)
   5 ２五歩(26)   ( 0:01/00:00:02)
   6 ８五歩(84)   ( 0:01/00:00:02)
   7 ７八金(69)   ( 0:01/00:00:03)
   8 ３二金(41)   ( 0:01/00:00:03)
   9 投了
K
printf '{\n  "name": "my-kifu",\n  "version": "1.0.0",\n  "private": true\n}\n' >"$dir/package.json"
printf '{"$schema": "http://json-schema.org/draft-07/schema#", "type": "object"}\n' >"$dir/site/schema.json"
printf 'My games, from the club and from relays.\n' >"$dir/README"
