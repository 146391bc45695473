#!/usr/bin/env bash
# players.sh DIR: a collection whose counts are known by construction, for the index's
# players and duplicates (tests/cli/players.sh). Games are two first moves (9 sente x 9
# gote pushes, 81 distinct games) and a resignation; game i takes pair i.
#   DIR/wars/    12 KIF games, hashiryoma as sente under 4 spellings (ranks, width, case)
#   DIR/quest/   6 CSA games, hashiryoma as gote written N-:hashiryoma(R) (R 1700+10i),
#                sente botI(1400+100i): 5 of them have both players rated 1500 or more
#   DIR/club/    8 KIF games of 鎌田睦生 as sente, 2 under each of 4 spellings (full-width
#                and doubled spaces, none, a rank before and an affiliation after)
#   DIR/copy/    club/ again under another path: 8 duplicates
#   DIR/other/   club game 1 as CSA (same players by key, date, moves): 1 duplicate
# Distinct games: 26; duplicates: 9.
set -eu
d=$1
mkdir -p "$d/wars" "$d/quest" "$d/club" "$d/copy" "$d/other"
sente=(7776FU 2726FU 5756FU 1716FU 9796FU 3736FU 4746FU 6766FU 8786FU)
gote=(3334FU 8384FU 5354FU 1314FU 9394FU 7374FU 4344FU 6364FU 2324FU)
kif_move() { # CSA move -> KIF move text with its source
    local m=$1 fw=(０ １ ２ ３ ４ ５ ６ ７ ８ ９) kj=(零 一 二 三 四 五 六 七 八 九)
    echo "${fw[${m:2:1}]}${kj[${m:3:1}]}歩(${m:0:2})"
}
kif() { # file sente gote date i
    local s=${sente[$(($5 % 9))]} g=${gote[$(($5 / 9))]}
    printf '開始日時：%s\n先手：%s\n後手：%s\n手数----指手---------消費時間--\n' "$4" "$2" "$3" >"$1"
    printf '   1 %s\n   2 %s\n   3 投了\n' "$(kif_move "$s")" "$(kif_move "$g")" >>"$1"
}
csa() { # file sente gote date(YYYY/MM/DD) i
    local s=${sente[$(($5 % 9))]} g=${gote[$(($5 / 9))]}
    printf 'V2.2\nN+%s\nN-%s\n$START_TIME:%s 10:00:00\nPI\n+\n+%s\n-%s\n%%TORYO\n' \
        "$2" "$3" "$4" "$s" "$g" >"$1"
}
wars=("hashiryoma 二段" "hashiryoma 三段" "Hashiryoma" "ｈａｓｈｉｒｙｏｍａ")
for i in $(seq 0 11); do
    kif "$d/wars/w$i.kif" "${wars[$((i % 4))]}" "opp$i 1級" "2024/01/$(printf %02d $((i + 1)))" "$i"
done
for i in $(seq 0 5); do
    csa "$d/quest/q$i.csa" "bot$i($((1400 + 100 * i)))" ":hashiryoma($((1700 + 10 * i)))" \
        "2024/02/0$((i + 1))" $((12 + i))
done
club=("鎌田　睦生" "鎌田　　睦生" "鎌田睦生" "五段　鎌田　睦生(北上)")
for i in $(seq 0 7); do
    kif "$d/club/c$i.kif" "${club[$((i % 4))]}" "及川　直孝(北上)" "2019/05/0$((i + 1))" $((18 + i))
done
cp "$d"/club/*.kif "$d/copy/"
csa "$d/other/c0.csa" "鎌田睦生" "及川直孝" "2019/05/01" 18
