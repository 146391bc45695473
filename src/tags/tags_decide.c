/* tags_decide.c: a game's names, decided when its line ends from what the run
 * (tags_run.c) found: the ply each definition first held for each side. Names are
 * decided in their order: needs, opponent and excludes look at names already decided,
 * and a name decided present gives the names it implies. Only the names something was
 * found for, the game's names and the names implied are looked at: the others cannot be
 * present. */
#include <string.h>

#include "kifu_private.h"
#include "tags/tags.h"

void kifu__tagnames_free(kifu__tagnames *sc)
{
    kifu__free(sc->present);
    kifu__free(sc->visit);
    kifu__free(sc->order);
    memset(sc, 0, sizeof *sc);
}

static int later(int a, int b)
{
    return a > b ? a : b;
}

/* The ply where definition d is satisfied for side s, given the names decided so far
 * (fam: per family and side, how many names decided so far are present), or -1. */
static int satisfied(const kifu__tagdef *d, int ply, const int *present, int fam[3][3],
                     int s)
{
    for (size_t k = 0; k < d->needs.n && ply >= 0; k++) {
        int p = present[d->needs.v[k] * 3 + s];
        ply = p < 0 ? -1 : later(ply, p);
    }
    for (size_t k = 0; k < d->opponent.n && ply >= 0; k++) {
        int p = present[d->opponent.v[k] * 3 + (s ^ 1)];
        ply = p < 0 ? -1 : later(ply, p);
    }
    for (size_t k = 0; k < d->excludes.n && ply >= 0; k++) {
        int x = d->excludes.v[k];
        if (x <= -2 ? fam[-2 - x][s] > 0 : present[x * 3 + s] >= 0)
            ply = -1;
    }
    return ply;
}

/* Of a group, only what the side did first: a rook swung to the 6th file and later to
 * the 7th is a 四間飛車. Decided on the board conditions, before the names: the
 * definitions found (list, n) for side s, in definition order, each put out (found -1)
 * when one of another name of its group not put out came first. */
static void first_of_groups(const kifu_tagger *t, int *found, uint32_t *list, size_t n,
                            int s)
{
    const int *group = t->plan->group;
    if (n > 8) {
        /* Many (the shipped set finds a score a side, most at the first position):
         * read back in order from found, where exactly they hold a ply. */
        size_t m = 0;
        for (size_t i = 0; i < t->ndefs && m < n; i++)
            if (found[i * 2 + (size_t)s] >= 0)
                list[m++] = (uint32_t)i;
    } else {
        for (size_t a = 1; a < n; a++) {
            uint32_t x = list[a];
            size_t b = a;
            for (; b > 0 && list[b - 1] > x; b--)
                list[b] = list[b - 1];
            list[b] = x;
        }
    }
    for (size_t a = 0; a < n; a++) {
        size_t i = list[a];
        int *f = &found[i * 2 + (size_t)s];
        if (group[i] < 0 || *f < 0)
            continue;
        for (size_t b = 0; b < n && *f >= 0; b++) {
            size_t j = list[b];
            int g = found[j * 2 + (size_t)s];
            if (j != i && group[j] == group[i] && g >= 0 &&
                (g < *f || (g == *f && j < i)) && t->defs[j].name != t->defs[i].name)
                *f =
                    -2; /* out: the first one is never put out, so every other meets it */
        }
    }
    for (size_t a = 0; a < n; a++)
        if (found[list[a] * 2 + (size_t)s] == -2)
            found[list[a] * 2 + (size_t)s] = -1;
}

/* Name x's ply for each of its definitions, and what they imply (set in visit). */
static void decide_name(const kifu_tagger *t, kifu__tagnames *sc, const int *found,
                        int capture, size_t x, int fam[3][3])
{
    int *present = sc->present, *implied = present + t->nnames * 3;
    size_t first = t->plan->name_first[x], end = t->plan->name_first[x + 1];
    for (size_t i = first; i < end; i++) {
        const kifu__tagdef *d = &t->defs[i];
        for (int s = 0; s < (d->game ? 1 : 2); s++) {
            int ply;
            if (d->game) {
                const int *a = &present[d->sides.v[0] * 3],
                          *b = &present[d->sides.v[1] * 3];
                int p1 = a[0] >= 0 && b[1] >= 0 ? later(a[0], b[1]) : -1;
                int p2 = b[0] >= 0 && a[1] >= 0 ? later(b[0], a[1]) : -1;
                ply = p1 < 0 ? p2 : p2 < 0 ? p1 : (p1 < p2 ? p1 : p2);
            } else {
                ply = found[i * 2 + (size_t)s];
                if (ply >= 0)
                    ply = satisfied(d, ply, present, fam, s);
                if (d->capture == 1 && capture >= 0 && ply >= capture)
                    ply = -1; /* decided only once the pieces met */
            }
            if (ply < 0)
                continue;
            int slot = d->game ? 2 : s;
            int *p = &present[x * 3 + (size_t)slot];
            if (*p < 0 || ply < *p)
                *p = ply;
            for (size_t k = 0; k < d->implies.n; k++) {
                int y = d->implies.v[k], *q = &implied[y * 3 + slot];
                if (*q < 0 || ply < *q)
                    *q = ply;
                sc->visit[y / 64] |= 1ull << (y % 64);
            }
        }
    }
    /* What names above implied (its own definitions may have failed). */
    for (int s = 0; s < 3; s++) {
        int q = implied[x * 3 + (size_t)s];
        int *p = &present[x * 3 + (size_t)s];
        if (q >= 0 && (*p < 0 || q < *p)) {
            *p = q;
            /* and what it implies in turn */
            for (size_t e = first; e < end; e++)
                for (size_t k = 0; k < t->defs[e].implies.n; k++) {
                    int y = t->defs[e].implies.v[k], *r = &implied[y * 3 + s];
                    if (*r < 0 || q < *r)
                        *r = q;
                    sc->visit[y / 64] |= 1ull << (y % 64);
                }
        }
    }
    for (int s = 0; s < 3; s++)
        if (present[x * 3 + (size_t)s] >= 0 && t->family[x] >= 0 && t->family[x] < 3)
            fam[t->family[x]][s]++;
}

/* Room for t's names in sc. 0, or -1 NOMEM. */
static int reserve(const kifu_tagger *t, kifu__tagnames *sc)
{
    size_t nn = t->nnames;
    if (sc->cap >= nn && sc->present)
        return 0;
    kifu__tagnames_free(sc);
    sc->present = kifu__malloc((nn * 6 + 1) * sizeof(int));
    sc->visit = kifu__calloc(nn / 64 + 1, sizeof(uint64_t));
    sc->order = kifu__calloc(nn + 1, sizeof(uint32_t));
    if (!sc->present || !sc->visit || !sc->order) {
        kifu__tagnames_free(sc);
        return -1;
    }
    sc->cap = nn;
    return 0;
}

int kifu__tags_decide(const kifu_tagger *t, kifu__tagnames *sc, int *found,
                      uint32_t *const list[2], const size_t n[2], int capture,
                      kifu_tag **out, size_t *count)
{
    size_t nn = t->nnames, nw = nn / 64 + 1, norder = 0, total = 0;
    *out = NULL;
    *count = 0;
    if (reserve(t, sc))
        return -1;
    /* Per name: sente's, gote's and the game's ply, -1 absent; what is implied so far. */
    memset(sc->present, 0xff, nn * 6 * sizeof(int));
    memcpy(sc->visit, t->plan->game_names, nw * sizeof(uint64_t));
    for (int s = 0; s < 2; s++) {
        first_of_groups(t, found, list[s], n[s], s);
        for (size_t a = 0; a < n[s]; a++) {
            int x = t->defs[list[s][a]].name;
            sc->visit[x / 64] |= 1ull << (x % 64);
        }
    }
    int fam[3][3] = {{0}};
    /* In name order: a name visited sets only later names' bits. */
    for (size_t w = 0; w < nw; w++)
        while (sc->visit[w]) {
            size_t x = w * 64 + (size_t)__builtin_ctzll(sc->visit[w]);
            sc->visit[w] &= sc->visit[w] - 1;
            decide_name(t, sc, found, capture, x, fam);
            sc->order[norder++] = (uint32_t)x;
            for (int s = 0; s < 3; s++)
                total += sc->present[x * 3 + (size_t)s] >= 0;
        }
    kifu_tag *v = kifu__calloc(total + 1, sizeof *v);
    if (!v)
        return -1;
    size_t k = 0;
    for (int s = 0; s < 3; s++)
        for (size_t a = 0; a < norder; a++) {
            size_t x = sc->order[a];
            int ply = sc->present[x * 3 + (size_t)s];
            if (ply >= 0)
                v[k++] = (kifu_tag){t->names[x], t->family[x], s == 2 ? -1 : s, ply};
        }
    *out = v;
    *count = total;
    return 0;
}
