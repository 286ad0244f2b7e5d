"""Wild tiles (万能牌 / 赖子): 红中麻将's 红中 (7z) stands for any tile in melds, pairs and 七小对.

The rules are in docs/rules/hongzhong.md. A wild may stand for any suited tile or any other honor, even a
fifth copy of a tile (only the shape counts); it never stands for nothing (14 tiles are 14 tiles).

Win checks stay table-fast. For every 9-count pattern of one suit, the fewest wilds that make it all melds
(runs and triplets), and all melds plus exactly one pair, are worked out once and memoised; a 14-tile check
is then four look-ups and a sum: the hand wins when the wilds cover what the suits need (what is left over
makes triplets of wilds).

Shanten (向听) with wilds is the classic count of tiles still missing, the wilds being tiles that are never
missing: the most real tiles that fit into the sets still to make (each a part of a run or a triplet) and
the pair, memoised per suit pattern and merged across suits. Without wilds it is the common shanten
(engine/shanten.py) exactly; with them it is exact up to the fifth-copy limit of real draws, which
``Variant.shanten`` settles against the real waits.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from .melds import Meld
from .shanten import HandShape, Shapes
from .tiles import SUITED_KINDS, Counts

RED = 33  # 7z 红中: the wild tile of 红中麻将 (the last honor, so the other honors are counts[27:33])

_CACHE_LIMIT = 400_000
_EMPTY6 = (0,) * 6

# ------------------------------------------------------------------ win check

# suit pattern -> (wilds to make it all melds, extra wilds if it also holds the pair)
_NEED: dict[tuple[int, ...], tuple[int, int]] = {}
_NEED_HONORS: dict[tuple[int, ...], tuple[int, int]] = {}


def _lowest(key: tuple[int, ...]) -> int:
    """The lowest rank held in a suit pattern (its length if none)."""
    for i, n in enumerate(key):
        if n:
            return i
    return len(key)


def suit_need(key: tuple[int, ...], honors: bool = False) -> tuple[int, int]:
    """(m, d): the fewest wilds that make this one-suit pattern all melds (m), and how many more it needs
    to hold the hand's pair as well (−1 ≤ d ≤ 2: a pair of two wilds always does, and a pair with one more
    wild is a triplet).

    The lowest tile held belongs to a triplet of itself or to a run from itself upward (a run from below
    uses wilds for the lower tiles, which a triplet does as cheaply); real tiles are always used before
    wilds (swapping a wild for a real tile of the same kind never costs more)."""
    cache = _NEED_HONORS if honors else _NEED
    hit = cache.get(key)
    if hit is not None:
        return hit
    n = len(key)
    i = _lowest(key)
    if i == n:
        cache[key] = (0, 2)
        return (0, 2)
    c = list(key)
    held = c[i]
    best_m = best_p = 99
    # a triplet of tile i (wilds for what is missing)
    k = 3 if held >= 3 else held
    c[i] -= k
    m, d = suit_need(tuple(c), honors)
    best_m = min(best_m, 3 - k + m)
    best_p = min(best_p, 3 - k + m + d)
    c[i] += k
    # the pair of tile i
    k = 2 if held >= 2 else 1
    c[i] -= k
    m, _ = suit_need(tuple(c), honors)
    best_p = min(best_p, 2 - k + m)
    c[i] += k
    if not honors:
        # runs holding tile i as their lowest real tile: (i, i+1, i+2) or (i-1, i, i+1) with a wild below
        for lo in (i, i - 1):
            if lo < 0 or lo + 2 >= n:
                continue
            used = [x for x in (lo, lo + 1, lo + 2) if x >= i and c[x]]
            missing = 3 - len(used)
            if missing >= 2:
                continue  # one real tile and two wilds: no better than the triplet
            for x in used:
                c[x] -= 1
            m, d = suit_need(tuple(c), honors)
            best_m = min(best_m, missing + m)
            best_p = min(best_p, missing + m + d)
            for x in used:
                c[x] += 1
    out = (best_m, min(best_p, best_m + 2) - best_m)
    if len(cache) >= _CACHE_LIMIT:
        cache.clear()
    cache[key] = out
    return out


def is_complete(counts: Counts) -> bool:
    """4 melds + a pair (3k+2 concealed tiles; k melds may be exposed) with the 红中 as wilds. Each suit's
    need is a look-up; the check stops as soon as the suits need more 红中 than the hand holds (holding the
    pair saves a suit at most one: a pair and a 红中 are a triplet)."""
    w = counts[RED] + 1
    a = _NEED.get(counts[0:9]) or suit_need(counts[0:9])
    m = a[0]
    if m > w:
        return False
    b = _NEED.get(counts[9:18]) or suit_need(counts[9:18])
    m += b[0]
    if m > w:
        return False
    c = _NEED.get(counts[18:27]) or suit_need(counts[18:27])
    m += c[0]
    d = min(a[1], b[1], c[1])
    h = counts[27:33]
    if h != _EMPTY6:
        e = suit_need(h, True)
        m += e[0]
        d = min(d, e[1])
    left = w - 1 - m - d
    return left >= 0 and left % 3 == 0


def is_seven_pairs(counts: Counts) -> bool:
    """七小对 with wilds: 14 concealed tiles; each kind held an odd number of times takes one 红中 as its mate
    (a four is two pairs, two 红中 are a pair). Counted with tuple.count: it runs on every draw."""
    w = counts[RED]
    odd = counts.count(1) + counts.count(3) - (w & 1)  # the 红中 themselves are not a kind to pair
    return odd <= w and sum(counts) == 14


# ------------------------------------------------------------------ shanten

# A suit's table: the most real tiles that fit into at most k sets and at most p pairs (k ≤ 4, p ≤ 1), at
# index 2k + p.
Table = tuple[int, ...]
_ZERO: Table = (0,) * 10
_USED: dict[tuple[int, ...], Table] = {}
_USED_HONORS: dict[tuple[int, ...], Table] = {}


def suit_table(key: tuple[int, ...], honors: bool = False) -> Table:
    """The most real tiles of this one-suit pattern that fit into k sets and p pairs, for every k ≤ 4 and
    p ≤ 1. A set holds part of a run or a triplet, the pair part of a pair; each is formed at its lowest
    tile, so the lowest tile held is either left out, or the lowest of a set's or the pair's tiles."""
    cache = _USED_HONORS if honors else _USED
    hit = cache.get(key)
    if hit is not None:
        return hit
    n = len(key)
    i = _lowest(key)
    if i == n:
        cache[key] = _ZERO
        return _ZERO
    c = list(key)
    best = [0] * 10

    def take(tiles: Sequence[int], sets: int, pairs: int) -> None:
        for x in tiles:
            c[x] -= 1
        sub = suit_table(tuple(c), honors)
        for x in tiles:
            c[x] += 1
        gain = len(tiles)
        for k in range(sets, 5):
            for p in range(pairs, 2):
                v = gain + sub[2 * (k - sets) + p - pairs]
                if v > best[2 * k + p]:
                    best[2 * k + p] = v

    held = c[i]
    c[i] -= 1  # one copy of tile i left out
    sub = suit_table(tuple(c), honors)
    c[i] += 1
    for j in range(10):
        if sub[j] > best[j]:
            best[j] = sub[j]
    for k in range(1, min(held, 3) + 1):
        take((i,) * k, 1, 0)
    for k in range(1, min(held, 2) + 1):
        take((i,) * k, 0, 1)
    if not honors:
        if i + 1 < n and c[i + 1]:
            take((i, i + 1), 1, 0)
            if i + 2 < n and c[i + 2]:
                take((i, i + 1, i + 2), 1, 0)
        if i + 2 < n and c[i + 2]:
            take((i, i + 2), 1, 0)
    out = tuple(best)
    if len(cache) >= _CACHE_LIMIT:
        cache.clear()
    cache[key] = out
    return out


def _make_merge() -> Callable[[Table, Table], Table]:
    """``merge(a, b)``: the table of two suits together, entry 2k+p the best split of k sets and p pairs
    between them. Generated once as one expression (45 sums): it runs for every shanten."""
    terms = []
    for k in range(5):
        for p in range(2):
            sums = [
                f"a[{2 * k1 + p1}] + b[{2 * (k - k1) + p - p1}]" for k1 in range(k + 1) for p1 in range(p + 1)
            ]
            terms.append(sums[0] if len(sums) == 1 else f"max({', '.join(sums)})")
    ns: dict[str, object] = {}
    exec(f"def merge(a, b):\n    return ({', '.join(terms)})\n", ns)
    return ns["merge"]  # type: ignore[return-value]


_merge = _make_merge()


def merge(a: Table, b: Table) -> Table:
    """The table of two suits together (an empty suit changes nothing)."""
    if b is _ZERO:
        return a
    if a is _ZERO:
        return b
    k = (a, b)
    hit = _MERGES.get(k)
    if hit is None:  # memoised: a hand's suits meet again across its discards and decisions
        if len(_MERGES) >= _FITS_LIMIT:
            _MERGES.clear()
        hit = _MERGES[k] = _merge(a, b)
    return hit


_MERGES: dict[tuple[Table, Table], Table] = {}


def fit(a: Table, b: Table, sets: int) -> int:
    """The most real tiles of two merged halves that fit into ``sets`` sets and one pair."""
    best = 0
    for k in range(sets + 1):
        j = 2 * (sets - k)
        v = a[2 * k] + b[j + 1]
        if v > best:
            best = v
        v = a[2 * k + 1] + b[j]
        if v > best:
            best = v
    return best


def tables(counts: Counts) -> list[Table]:
    """The tables of 万, 条, 筒 and the honors other than the wild."""
    return [
        suit_table(counts[0:9]),
        suit_table(counts[9:18]),
        suit_table(counts[18:27]),
        suit_table(counts[27:33], True),
    ]


class WildShape(HandShape):
    """Shanten and useful tiles of one seat's concealed tiles with 红中 as wilds (the AI plays with it).

    ``four_win``: four 红中 win at once (四红中). ``kinds``: the tiles that exist in the set (a tile that
    does not, an honor other than 红中 in a 112-tile set, is never counted as useful)."""

    __slots__ = ("sets", "seven", "four_win", "kinds")

    def __init__(
        self, shapes: Shapes, melds: Sequence[Meld] = (), four_win: bool = True, kinds: Iterable[int] = ()
    ) -> None:
        super().__init__(shapes, melds)
        self.sets = 4 - self.n_melds
        self.seven = shapes.seven_pairs and self.n_melds == 0
        self.four_win = four_win
        self.kinds = tuple(kinds) or (*range(SUITED_KINDS), RED)

    def _value(self, used: int, w: int, n: int, pairs: int, odd: int) -> int:
        """Shanten from the tiles that fit (the standard shape) and the pair counts (七小对); four 红中
        win at once, so three are ready (the fourth wins)."""
        if self.four_win and w >= 4:
            return -1 if n % 3 == 2 else 0
        s = 3 * self.sets + 1 - used - w
        if self.seven and n >= 13:
            p = pairs if pairs < 7 else 7
            used7 = 2 * p + min(odd, 7 - p)
            s7 = 13 - used7 - w
            if s7 < s:
                s = s7
        if self.four_win and w == 3 and s > 0:
            return 0
        return s

    def shanten(self, counts: Counts) -> int:
        """Shanten of concealed ``counts`` (3k+1 or 3k+2 tiles) with these melds; −1 complete."""
        a, b, c, d = tables(counts)
        used = fit(merge(a, b), merge(c, d), self.sets)
        pairs, odd = _pairs(counts)
        return self._value(used, counts[RED], sum(counts), pairs, odd)

    def useful(self, counts: Counts, s: int, unseen: Sequence[int], extra: Iterable[int] = ()) -> int:
        """How many unseen tiles would lower the shanten ``s`` of this 3k+1 hand (有效牌). A 红中 always
        does (it fits wherever a tile is missing)."""
        per = tables(counts)
        others = [
            merge(merge(per[1], per[2]), per[3]),
            merge(merge(per[0], per[2]), per[3]),
            merge(merge(per[0], per[1]), per[3]),
        ]
        whole = fit(merge(per[0], per[1]), merge(per[2], per[3]), self.sets)
        pairs, odd = _pairs(counts)
        w = counts[RED]
        n = sum(counts) + 1
        sets = self.sets
        fits = (
            _fits(counts[0:9], others[0], sets),
            _fits(counts[9:18], others[1], sets),
            _fits(counts[18:27], others[2], sets),
        )
        found = 0
        for t in self.kinds:
            left = unseen[t]
            if not left or counts[t] >= 4:
                continue
            if t == RED:
                new = self._value(whole, w + 1, n, pairs, odd)
            else:
                had = counts[t]
                used = fits[t // 9][t % 9]
                new = self._value(used, w, n, pairs + (had & 1), odd + (-1 if had & 1 else 1))
            if new < s:
                found += left
        return found


# (suit pattern, the other suits' merged table, sets) -> _fits
_FITS: dict[tuple[tuple[int, ...], Table, int], tuple[int, ...]] = {}
_FITS_LIMIT = 100_000


def _fits(key: tuple[int, ...], other: Table, sets: int) -> tuple[int, ...]:
    """For each rank of a suited pattern, the real tiles that fit (``fit``) with one more tile of that rank
    beside the other suits' table ``other`` (−1 where the rank is full). Memoised: a seat's hand meets the
    same suit and company across its discards and its decisions."""
    k = (key, other, sets)
    hit = _FITS.get(k)
    if hit is not None:
        return hit
    c = list(key)
    out = []
    for r in range(9):
        if c[r] >= 4:
            out.append(-1)
            continue
        c[r] += 1
        out.append(fit(suit_table(tuple(c)), other, sets))
        c[r] -= 1
    hit = tuple(out)
    if len(_FITS) >= _FITS_LIMIT:
        _FITS.clear()
    _FITS[k] = hit
    return hit


def _pairs(counts: Counts) -> tuple[int, int]:
    """(pairs, kinds held an odd number of times) of the real tiles: a four is two pairs."""
    pairs = odd = 0
    for t in range(RED):
        n = counts[t]
        if n:
            pairs += n >> 1
            odd += n & 1
    return pairs, odd


__all__ = [
    "RED",
    "WildShape",
    "fit",
    "is_complete",
    "is_seven_pairs",
    "merge",
    "suit_need",
    "suit_table",
    "tables",
]
