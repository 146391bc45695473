/* bench_main.c: `kifu_bench [--quick]`: runs every benchmark. */
#include "bench.h"

int main(int argc, char **argv)
{
    int bad = 0;
    bad |= bench_perft(argc, argv);
    return bad;
}
