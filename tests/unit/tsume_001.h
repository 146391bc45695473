/* tsume_001.h: the board of seeds/001's tsume sample (将棋精妙 1), as the document prints
 * it: file labels in half-width digits. The tests put their own header lines around it. */
#ifndef KIFU_TEST_TSUME_001_H
#define KIFU_TEST_TSUME_001_H

#define TSUME_001_BOARD                                                                  \
    "  9 8 7 6 5 4 3 2 1\n"                                                              \
    "+---------------------------+\n"                                                    \
    "| ・ ・ ・v桂 ・ ・ ・ ・ ・|一\n"                                        \
    "|v玉 角v歩 馬 ・ ・ ・ ・ ・|二\n"                                        \
    "| ・ ・ ・ ・ ・ ・ ・ ・ ・|三\n"                                        \
    "| 桂 ・ ・v歩 ・ ・ ・ ・ ・|四\n"                                        \
    "|vとv桂 ・ ・v歩 ・ ・ ・ ・|五\n"                                        \
    "| ・ ・ 飛 ・v全 ・ ・ ・ ・|六\n"                                        \
    "|v歩 桂 ・ ・ ・ ・ ・ ・ ・|七\n"                                        \
    "| ・ 香 ・ ・ ・ ・ ・ ・ ・|八\n"                                        \
    "| ・v銀 ・ ・ 龍 ・ ・ ・ ・|九\n"                                        \
    "+---------------------------+\n"

/* The position it shows, sente to move. */
#define TSUME_001_SFEN "3n5/kBp+B5/9/N2p5/+pn2p4/2R1+s4/pN7/1L7/1s2+R4 b 4g2s3l13p 1"

#endif
