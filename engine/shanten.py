"""Shanten (向听) by a variant's win shapes, and the tiles that lower it (有效牌), for play and the AI.

``shanten_lower_bound`` never says a ready hand is further than it is: it takes the smallest distance over
every shape the variant can win with (the standard shape with its pair rule, 七小对 where a four counts as two
pairs, 碰碰胡 / 清一色 with any pair, 将将胡 in any shape, 全求人's single wait, 十三幺). Situational limits
(定缺, 清一色 after a chow, self-draw only) are left to ``Variant.shanten``, which checks a 0 against the
variant's real waits: so ``Variant.shanten(...) == 0`` exactly when ``waits`` is not empty.

The standard shape is read suit by suit: a memoised Pareto set of (melds, partial sets, heads, a loose tile
that may still pair) per 9-count pattern, merged across suits. Those sets count tiles, not which tile
completes a set, so a 0 of a hand holding a four is checked against a wait on a fifth copy
(``_checked_ready``, ``HandShape.checked_ready``): rare, and only then are the tiles tried.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from operator import itemgetter
from typing import Any

from .melds import Meld, MeldKind
from .tiles import NUM_KINDS, SUITED_KINDS, Counts, is_258


@dataclass(frozen=True, slots=True)
class Shapes:
    """The win shapes of a variant, as shanten needs them."""

    pair_258: bool = False  # a small hand needs a 2/5/8 pair (将)
    seven_pairs: bool = True  # 七小对 (a four counts as two pairs)
    all_pungs: bool = False  # 碰碰胡 wins with any pair (matters with pair_258)
    one_suit: bool = False  # 清一色 wins with any pair (matters with pair_258)
    all_258: bool = False  # 将将胡 / 将一色: all 2/5/8 tiles win in any shape
    single_wait: bool = False  # 全求人: four melds and a single tile wait on its pair, any pair
    thirteen_orphans: bool = False  # 十三幺


Opt = tuple[int, int, int, int]  # (melds, partial sets, heads, a loose tile that may pair) in one suit
Opts = tuple[Opt, ...]

# A head is a pair that may be the hand's pair: any pair, or (pair_258) a 2/5/8 pair.
_HEAD_258 = (False, True, False, False, True, False, False, True, False)
_HEAD_ANY9 = (True,) * 9
_HEAD_NONE7 = (False,) * 7
_HEAD_ANY7 = (True,) * 7
_IS_258 = tuple(is_258(t) for t in range(NUM_KINDS))
TILES_258 = tuple(t for t in range(NUM_KINDS) if _IS_258[t])
_ORPHANS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
_EMPTY_OPTS: Opts = ((0, 0, 0, 0),)

# Option sets are kept small and exact for ``final``: past the first head every head is a partial set, a
# hand has room for four sets (melds + partials; a dropped partial leaves a loose tile) and with a head the
# loose tile no longer matters. Each distinct set gets an id; suits, merges and finals are memoised by id.
_OPTS: list[Opts] = [_EMPTY_OPTS]
_IDS: dict[Opts, int] = {_EMPTY_OPTS: 0}
_ID_BITS = 20  # ids stay far below 2**20: the reduced options of one suit are a small space

# one cache per (head rule, honors): suit pattern -> id of its options
_CACHE_LIMIT = 400_000
_CACHES: dict[tuple[bool, bool], dict[tuple[int, ...], int]] = {
    (h, z): {} for h in (False, True) for z in (False, True)
}
_MERGED: dict[int, int] = {}  # (a << _ID_BITS | b) -> id of merge(a, b)
_FINALS: dict[int, int] = {}  # ((a << _ID_BITS | b) << 3 | melds) -> final(a, b, melds)
_MEMO_LIMIT = 1_000_000


def clear_caches() -> None:
    """Forget everything memoised (patterns, option ids, merges, finals): the engine as just imported. For
    benchmarks of a cold start; the caches also bound themselves."""
    caches: list[dict[Any, Any]] = [*_CACHES.values(), *_PLUS.values(), *_MINUS.values(), _MERGED, _FINALS]
    caches += [_UNIONS, _IDS, _SINGLES, _MAY, _SPLITS, _OTHERS, _RANKS]
    for cache in caches:
        cache.clear()
    del _OPTS[1:]
    _IDS[_EMPTY_OPTS] = 0


def _norm(m: int, t: int, h: int, f: int) -> Opt:
    """An option as ``final`` reads it: heads past the first are partials, melds + partials at most four
    (the dropped ones leave a loose tile), and the loose flag only matters without a head."""
    if h > 1:
        t += h - 1
        h = 1
    if m + t > 4:
        t = 4 - m
        f = 1
    if h:
        f = 1
    return (m, t, h, f)


def _pareto(found: Iterable[Opt]) -> Opts:
    """The options no other one is at least as good as in every part, sorted. Taken in falling order, an
    option's dominators all come before it (and one of them is kept), so each is tested against the kept
    ones only."""
    kept: list[Opt] = []
    for r in sorted(set(found), reverse=True):
        r0, r1, r2, r3 = r
        for o in kept:
            if o[0] >= r0 and o[1] >= r1 and o[2] >= r2 and o[3] >= r3:
                break
        else:
            kept.append(r)
    kept.reverse()
    return tuple(kept)


def _intern(opts: Opts) -> int:
    i = _IDS.get(opts)
    if i is None:
        i = _IDS[opts] = len(_OPTS)
        _OPTS.append(opts)
    return i


def suit_id(key: tuple[int, ...], pair_258: bool, honors: bool) -> int:
    """The id of ``suit_options(key, ...)``; memoised on the pattern: the first non-empty rank is split every
    possible way and the rest of the pattern is itself a cached pattern."""
    cache = _CACHES[pair_258, honors]
    hit = cache.get(key)
    if hit is not None:
        return hit
    sid = _suit_id(key, pair_258, honors)
    if len(cache) >= _CACHE_LIMIT:
        cache.clear()  # a long-running bot: start over rather than grow without bound
    cache[key] = sid
    return sid


def _suit_id(key: tuple[int, ...], pair_258: bool, honors: bool) -> int:
    """``suit_id`` of a pattern not cached: by its blocks, or by every way to use its first non-empty rank."""
    i = 0
    n = len(key)
    while i < n and key[i] == 0:
        i += 1
    if i == n:
        return 0
    if not honors:
        sid = _by_blocks(key, i, pair_258)
        if sid >= 0:
            return sid
    c = list(key)
    sid = -1
    for x, y, z, dm, dt, dh, df in _splits(c, i, pair_258, honors):
        c[i] -= x
        if y:
            c[i + 1] -= y
        if z:
            c[i + 2] -= z
        # the rest's options with this split's set, partial, head or loose tile added: a memoised merge
        part = merge_id(suit_id(tuple(c), pair_258, honors), _single(dm, dt, dh, df))
        sid = part if sid < 0 else union_id(sid, part)
        c[i] += x
        if y:
            c[i + 1] += y
        if z:
            c[i + 2] += z
    return sid


def _splits(
    c: list[int], i: int, pair_258: bool, honors: bool
) -> list[tuple[int, int, int, int, int, int, int]]:
    """Every way to use rank ``i`` of the pattern ``c``: (tiles taken from ranks i, i+1, i+2; melds,
    partials, heads, loose) - a triplet, a run, a head (where a head may be), a pair, the partial runs, a
    loose tile."""
    n = len(c)
    head_ok = (_HEAD_NONE7 if pair_258 else _HEAD_ANY7) if honors else (_HEAD_258 if pair_258 else _HEAD_ANY9)
    runs = not honors
    splits: list[tuple[int, int, int, int, int, int, int]] = []
    if c[i] >= 3:
        splits.append((3, 0, 0, 1, 0, 0, 0))
    if runs and i + 2 < n and c[i + 1] and c[i + 2]:
        splits.append((1, 1, 1, 1, 0, 0, 0))
    if c[i] >= 2:
        if head_ok[i]:
            splits.append((2, 0, 0, 0, 0, 1, 0))
        splits.append((2, 0, 0, 0, 1, 0, 0))
    if runs and i + 1 < n and c[i + 1]:
        splits.append((1, 1, 0, 0, 1, 0, 0))
    if runs and i + 2 < n and c[i + 2]:
        splits.append((1, 0, 1, 0, 1, 0, 0))
    splits.append((1, 0, 0, 0, 0, 0, 1 if head_ok[i] else 0))
    return splits


def _by_blocks(key: tuple[int, ...], i: int, pair_258: bool) -> int:
    """The options of a suit pattern as the merge of its blocks (runs of ranks apart by two empty ranks or
    more: no set or partial spans such a gap), each moved to the start of the pattern (by whole thirds
    under pair_258, so a 2/5/8 stays one); -1 if ``key`` (first tile at ``i``) is one block already there.
    Far fewer blocks than patterns occur, so a new pattern is mostly a few cached look-ups."""
    n = len(key)
    blocks: list[tuple[int, ...]] = []
    while i < n:
        if not key[i]:
            i += 1
            continue
        j = i + 1
        while j < n and (key[j] or (j + 1 < n and key[j + 1])):
            j += 1
        shift = i - i % 3 if pair_258 else i
        if not shift and j == n and not blocks:
            return -1
        blocks.append(key[shift:j])
        i = j
    sid = 0
    for block in blocks:
        sid = merge_id(sid, suit_id(block, pair_258, False))
    return sid


_SINGLES: dict[Opt, int] = {}
_UNIONS: dict[int, int] = {}  # (a << _ID_BITS | b), a < b -> id of the Pareto set of both


def _single(m: int, t: int, h: int, f: int) -> int:
    """The id of the one-option set {(m, t, h, f)} (the empty split (0, 0, 0, 0) is id 0: merging it is a
    no-op)."""
    opt = (m, t, h, f)
    i = _SINGLES.get(opt)
    if i is None:
        i = _SINGLES[opt] = _intern((opt,))
    return i


def union_id(a: int, b: int) -> int:
    """The Pareto set of the options of ``a`` and of ``b`` together, by ids, memoised."""
    if a == b:
        return a
    if a > b:
        a, b = b, a
    k = a << _ID_BITS | b
    hit = _UNIONS.get(k)
    if hit is None:
        if len(_UNIONS) >= _MEMO_LIMIT:
            _UNIONS.clear()
        hit = _UNIONS[k] = _intern(_pareto((*_OPTS[a], *_OPTS[b])))
    return hit


def suit_options(key: tuple[int, ...], pair_258: bool, honors: bool) -> Opts:
    """Pareto set of (melds, partials, heads, loose) inside one suit, reduced as ``final`` reads it. A head
    is a pair that may be the hand's pair; every other pair is a partial set (and so is any head past the
    first, see ``final``)."""
    return _OPTS[suit_id(key, pair_258, honors)]


def merge(a: Opts, b: Opts) -> Opts:
    """The options of two suits together."""
    if b is _EMPTY_OPTS:
        return a
    if a is _EMPTY_OPTS:
        return b
    return _pareto(_norm(x[0] + y[0], x[1] + y[1], x[2] + y[2], x[3] | y[3]) for x in a for y in b)


def merge_id(a: int, b: int) -> int:
    """``merge`` by ids, memoised (it is symmetric: the smaller id first)."""
    if not b:
        return a
    if not a:
        return b
    if a > b:
        a, b = b, a
    k = a << _ID_BITS | b
    hit = _MERGED.get(k)
    if hit is None:
        if len(_MERGED) >= _MEMO_LIMIT:
            _MERGED.clear()
        hit = _MERGED[k] = _intern(merge(_OPTS[a], _OPTS[b]))
    return hit


def final(a: Opts, b: Opts, melds: int) -> int:
    """The shanten of the best pair of options: 8 − 2·melds − partials − head, partials capped; with no
    head and no loose tile that may pair (a 2/5/8 under pair_258) the pair costs one tile more."""
    best = 8
    for am, at, ah, af in a:
        for bm, bt, bh, bf in b:
            m = melds + am + bm
            t = at + bt
            h = ah + bh
            if h > 1:
                t += h - 1
                h = 1
            loose = af | bf
            if m + t > 4:
                t = 4 - m
                loose = 1  # a dropped partial leaves loose tiles (optimistic: one may pair)
            s = 8 - 2 * m - t - h
            if not h and not loose:
                s += 1
            if s < best:
                best = s
    return best


def final_id(a: int, b: int, melds: int) -> int:
    """``final`` by ids, memoised (it is symmetric: the smaller id first)."""
    if a > b:
        a, b = b, a
    k = (a << _ID_BITS | b) << 3 | melds
    hit = _FINALS.get(k)
    if hit is None:
        if len(_FINALS) >= _MEMO_LIMIT:
            _FINALS.clear()
        hit = _FINALS[k] = final(_OPTS[a], _OPTS[b], melds)
    return hit


def suits(counts: Counts, pair_258: bool) -> list[Opts]:
    """The options of each suit (万 条 筒, then honors)."""
    return [_OPTS[i] for i in suit_ids(counts, pair_258)]


def suit_ids(counts: Counts, pair_258: bool) -> list[int]:
    """The option ids of each suit (万 条 筒, then honors)."""
    return [
        suit_id(counts[0:9], pair_258, False),
        suit_id(counts[9:18], pair_258, False),
        suit_id(counts[18:27], pair_258, False),
        suit_id(counts[27:34], pair_258, True),
    ]


def shanten_shape(counts: Counts, melds: int, pair_258: bool, checked: bool = True) -> int:
    """Standard-shape shanten (−1 complete, 0 ready); with ``pair_258`` only a 2/5/8 pair is a head.
    ``checked``: a 0 of a hand holding a four is checked against a fifth copy (``_checked_ready``); without
    it the bare reading of the option sets, exact for −1 (complete)."""
    suited = _CACHES[pair_258, False]
    k = counts[0:9]
    a = suited.get(k)
    if a is None:
        a = suit_id(k, pair_258, False)
    k = counts[9:18]
    b = suited.get(k)
    if b is None:
        b = suit_id(k, pair_258, False)
    k = counts[18:27]
    c = suited.get(k)
    if c is None:
        c = suit_id(k, pair_258, False)
    k = counts[27:34]
    if k == _NO_HONORS:
        d = 0  # most sets have none
    else:
        hit = _CACHES[pair_258, True].get(k)
        d = suit_id(k, pair_258, True) if hit is None else hit
    # merges and finals are symmetric: memoised with the smaller id first
    if a > b:
        a, b = b, a
    ab: int | None = b if not a else _MERGED.get(a << _ID_BITS | b)
    if ab is None:
        ab = merge_id(a, b)
    if c > d:
        c, d = d, c
    cd: int | None = d if not c else _MERGED.get(c << _ID_BITS | d)
    if cd is None:
        cd = merge_id(c, d)
    if ab > cd:
        ab, cd = cd, ab
    s = _FINALS.get((ab << _ID_BITS | cd) << 3 | melds)
    if s is None:
        s = final_id(ab, cd, melds)
    if s == 0 and checked and 4 in counts:
        return _checked_ready(counts, melds, pair_258)
    return s


def _checked_ready(counts: Counts, melds: int, pair_258: bool) -> int:
    """The standard shape's 0 of a hand holding a four, checked. The option sets count sets and pairs, not
    which tile completes them, so a 3k+1 hand whose only wait would be a fifth copy of a tile held four times
    (``456m333789s5555z``: 555z and a 5z single) reads as ready, and so does a 3k+2 hand whose every ready
    discard leaves such a wait. Such a hand is 1 from ready (one exchange: a copy of the four for another
    tile); 0 if a tile still in play completes it (3k+1), or a discard leaves such a hand (3k+2)."""
    n = sum(counts)
    if n % 3 == 1:
        if n + 3 * melds == 13:
            from .shape import standard_waits  # engine/shape.py imports this module: read at call time

            # the real waits with any pair (suit by suit, cached, never a fifth copy); with a 2/5/8 pair,
            # those whose completed hand has one
            tiles = standard_waits(counts)
        else:
            tiles = _near(counts)  # more tiles than the melds leave room for: each tried
        for t in tiles:
            if shanten_shape(_plus(counts, t), melds, pair_258, False) <= -1:
                return 0
        return 1
    for t in _fours_first(counts):
        if shanten_shape(_minus(counts, t), melds, pair_258) == 0:
            return 0
    return 1


def _fours_first(counts: Counts) -> list[int]:
    """The tiles held, a copy of a four first: the discard that most often leaves a real wait."""
    return sorted((t for t in range(NUM_KINDS) if counts[t]), key=lambda t: counts[t] != 4)


def _near(counts: Counts) -> list[int]:
    """The tiles a 3k+1 hand may wait on by the standard shape: held tiles and their suit neighbours within
    two, never a fifth copy."""
    out = []
    for t in range(NUM_KINDS):
        if counts[t] >= 4:
            continue
        if t < SUITED_KINDS:
            lo = t - t % 9
            if any(counts[max(lo, t - 2) : min(lo + 9, t + 3)]):
                out.append(t)
        elif counts[t]:
            out.append(t)
    return out


Stats = tuple[int, int, int]  # pairs for 七小对 (a four = 2), triplets, exact pairs
_NO_HONORS = (0,) * 7


_get_258 = itemgetter(*TILES_258)
_ZERO9 = bytes(9)
_ZERO7 = bytes(7)


def stats(counts: Counts) -> Stats:
    b = bytes(counts)
    c2 = b.count(2)
    c3 = b.count(3)
    c4 = b.count(4)
    return c2 + c3 + 2 * c4, c3 + c4, c2


def off_258(counts: Counts, n: int) -> int:
    """How many of the ``n`` tiles are not 2/5/8."""
    held: int = sum(_get_258(counts))
    return n - held


def suits_used(counts: Counts) -> int:
    """The suits held, as bits: 1 万, 2 条, 4 筒, 8 honors."""
    b = bytes(counts)
    return (
        (b[0:9] != _ZERO9) | (b[9:18] != _ZERO9) << 1 | (b[18:27] != _ZERO9) << 2 | (b[27:34] != _ZERO7) << 3
    )


def add_stats(st: Stats, counts: Counts, t: int) -> Stats:
    """The stats after one more ``t``."""
    pairs7, trips, pairs = st
    n = counts[t]
    if n & 1:
        pairs7 += 1
    if n == 2:
        trips += 1
        pairs -= 1
    elif n == 1:
        pairs += 1
    return pairs7, trips, pairs


_ONE_SUIT = {1: 0, 2: 1, 4: 2}


def _orphans_shanten(counts: Counts) -> int:
    kinds = pair = 0
    for t in _ORPHANS:
        if counts[t]:
            kinds += 1
            if counts[t] >= 2:
                pair = 1
    return 13 - kinds - pair


def _pungs_shanten(m: int, pairs: int) -> int:
    """碰碰胡's shanten with ``m`` pungs (melds and concealed triplets) and ``pairs`` pairs held."""
    t = pairs - 1 if pairs > 1 else 0
    if t > 4 - m:
        t = 4 - m if m < 4 else 0
    return 8 - 2 * m - t - (1 if pairs else 0)


# _pungs_shanten[m][pairs] for every count a hand can hold (at most 18 tiles: 6 pungs, 9 pairs), read by
# ``HandShape.side`` on every call
_PUNGS_SHANTEN = tuple(tuple(_pungs_shanten(m, pairs) for pairs in range(10)) for m in range(10))


class HandShape:
    """A variant's shapes with one seat's melds (fixed for a decision): shanten of concealed counts."""

    __slots__ = (
        "shapes",
        "n_melds",
        "pungs_ok",
        "all_258_melds",
        "suit",
        "concealed",
        "single_wait",
        "pair_258",
        "seven_pairs",
        "one_suit",
        "may_key",
    )

    def __init__(self, shapes: Shapes, melds: Sequence[Meld] = (), n_melds: int | None = None) -> None:
        self.shapes = shapes
        self.n_melds = len(melds) if n_melds is None else n_melds
        self.pungs_ok = shapes.all_pungs and all(m.kind != MeldKind.CHOW for m in melds)
        self.all_258_melds = shapes.all_258 and all(is_258(t) for m in melds for t in m.tiles)
        used = {m.tile // 9 for m in melds}
        self.suit = used.pop() if len(used) == 1 else (-1 if not used else -2)
        self.concealed = self.n_melds == 0
        self.single_wait = shapes.single_wait and self.n_melds == 4
        # read on every call: kept as plain slots
        self.pair_258 = shapes.pair_258
        self.seven_pairs = shapes.seven_pairs and self.concealed
        self.one_suit = shapes.one_suit and shapes.pair_258 and self.suit != -2
        # what _may_table reads of the shape, as bits (its memo's key)
        self.may_key = (
            self.concealed
            | shapes.seven_pairs << 1
            | shapes.thirteen_orphans << 2
            | self.all_258_melds << 3
            | shapes.pair_258 << 4
            | self.pungs_ok << 5
            | shapes.one_suit << 6
            | self.n_melds << 7
        )

    def shanten(self, counts: Counts) -> int:
        """Shanten of concealed ``counts`` (3k+1 or 3k+2 tiles) with these melds: a lower bound. A 0 with a
        four held is checked against a fifth copy (``checked_ready``)."""
        n = sum(counts)
        ready_13 = n % 3 == 1
        best = shanten_shape(counts, self.n_melds, self.pair_258, ready_13)
        if best <= -1:
            return best
        b = bytes(counts)  # stats(counts), inline
        c2 = b.count(2)
        c3 = b.count(3)
        c4 = b.count(4)
        s = self.side(counts, (c2 + c3 + 2 * c4, c3 + c4, c2), n, best)
        if s == 0 and c4 and (best or not ready_13):
            return self.checked_ready(counts, n)
        return s

    def checked_ready(self, counts: Counts, n: int) -> int:
        """A 0 of ``n`` tiles with a four held, checked as ``shanten_shape`` checks the standard shape's
        (a 3k+1 hand's by the side shapes too: 碰碰胡 counts a four as a pung and its fourth tile as a
        single to pair). 0 if some tile (never a fifth copy) completes this 3k+1 hand by these shapes, or
        some discard leaves a 3k+1 hand that is ready by this check; else 1."""
        if n % 3 == 1:
            tiles = set(_near(counts))
            if self.all_258_melds:
                tiles.update(t for t in TILES_258 if counts[t] < 4)
            for t in tiles:
                c = _plus(counts, t)
                if self.side(c, stats(c), n + 1, shanten_shape(c, self.n_melds, self.pair_258, False)) <= -1:
                    return 0
            return 1
        for t in _fours_first(counts):
            if self.shanten(_minus(counts, t)) == 0:
                return 0
        return 1

    def side(self, counts: Counts, st: Stats, n: int, best: int) -> int:
        """``best`` improved by the shapes beyond the standard one: 七小对, 碰碰胡, 将将胡, 清一色, 全求人,
        十三幺."""
        pairs7, trips, pairs = st
        if n >= 13 and self.concealed:
            if self.seven_pairs:
                s = 6 - pairs7 if pairs7 < 7 else -1
                if s < best:
                    best = s
            if self.shapes.thirteen_orphans:
                best = min(best, _orphans_shanten(counts))
        if best <= 0 and n % 3 == 1:
            return best
        if self.single_wait and n == 1:
            return min(best, 0)
        if self.all_258_melds:
            off = n - sum(_get_258(counts))  # the tiles that are not 2/5/8
            if off - 1 < best:
                best = min(best, (off - 1 if off else -1) if n % 3 == 2 else off)
        if not self.pair_258 or best <= -1:
            return best
        if self.pungs_ok:
            s = _PUNGS_SHANTEN[self.n_melds + trips][pairs]
            if s < best:
                best = s
        if (
            self.one_suit
            and best > (0 if n % 3 == 1 else -1)
            and len(bytes(counts).strip(b"\0")) <= 9  # else the tiles span more than one suit
        ):
            best = self._one_suit_side(counts, best)
        return best

    def _one_suit_side(self, counts: Counts, best: int) -> int:
        """``best`` improved by 清一色 (any pair), where the tiles and the melds are all of one suit."""
        one = _ONE_SUIT.get(suits_used(counts))
        if one is not None and self.suit in (-1, one):
            return min(best, shanten_shape(counts, self.n_melds, False, False))
        return best

    def _may_table(self, counts: Counts, st: Stats, off: int, n: int, s: int) -> tuple[bool, ...] | None:
        """Could ``side`` bring this 3k+1 hand plus one tile (``n`` tiles then) below ``s``? For every tile it
        could draw, indexed ``held << 4 | _MAY_INDEX[tile]``: what the answer reads of a tile is only how many
        the hand holds, whether it is a terminal or honor, a 2/5/8, and its suit. Each side shape is tested
        from the stats alone; False means ``side`` surely would not. Memoised by everything it reads (few
        combinations occur); None where it is False for every tile, as it mostly is."""
        pairs7, trips, pairs = st
        used = suits_used(counts)
        shapes = self.shapes
        os = 15  # 十三幺 not counted
        if shapes.thirteen_orphans and self.concealed and n >= 13:
            os = _orphans_shanten(counts)
        key = (
            ((((((self.may_key << 4 | pairs7) << 4 | trips) << 4 | pairs) << 5 | off) << 4 | used) << 4 | os)
            << 10
            | n << 5
            | (s + 1)
        )
        hit = _MAY.get(key, _MISSING)
        if hit is not _MISSING:
            return hit  # type: ignore[return-value]
        out = self._may_compute(st, off, used, os, n, s)
        if len(_MAY) >= _MEMO_LIMIT:
            _MAY.clear()
        _MAY[key] = out
        return out

    def _may_compute(
        self, st: Stats, off: int, used: int, os: int, n: int, s: int
    ) -> tuple[bool, ...] | None:
        """``_may_table``'s answer, not memoised yet: each side shape tested from the stats alone."""
        pairs7, trips, pairs = st
        shapes = self.shapes
        closed = self.concealed and n >= 13
        # 七小对 by the parity of the copies held; 十三幺: one more tile lowers it by one at most (an orphan)
        by_parity = [closed and shapes.seven_pairs and 6 - pairs7 - odd < s for odd in (0, 1)]
        by_orphan = [closed and shapes.thirteen_orphans and os - orphan < s for orphan in (0, 1)]
        by_258 = [self.all_258_melds and off + (0 if is258 else 1) - 1 < s for is258 in (0, 1)]
        by_held = [False] * 4  # 碰碰胡 by the copies held
        by_suit = [False] * 4  # 清一色 by the suit
        if shapes.pair_258:
            if self.pungs_ok:
                by_held = [self._pungs_below(trips, pairs, held, s) for held in range(4)]
            if shapes.one_suit:
                by_suit = [(used | 1 << x) in _ONE_SUIT for x in range(4)]
        table = tuple(
            by_parity[held & 1] or by_orphan[orphan] or by_258[is258] or by_held[held] or by_suit[x]
            for held in range(4)
            for orphan in range(2)
            for is258 in range(2)
            for x in range(4)
        )
        return table if any(table) else None

    def _pungs_below(self, trips: int, pairs: int, held: int, s: int) -> bool:
        """Whether 碰碰胡 is below ``s`` once a tile of which the hand holds ``held`` is drawn."""
        if held == 2:
            trips += 1
            pairs -= 1
        elif held == 1:
            pairs += 1
        return _pungs_shanten(self.n_melds + trips, pairs) < s

    def useful(self, counts: Counts, s: int, unseen: Sequence[int], extra: Iterable[int] = ()) -> int:
        """How many unseen tiles would lower the shanten ``s`` of this 3k+1 hand (有效牌 / ukeire): held
        tiles, their suit neighbours within two, and ``extra`` (with all-2/5/8 melds, every 2/5/8).

        Adding a tile changes one suit only: the other suits are merged once, and each suit's pattern knows
        (cached) which ranks are near and the options with one more tile of each rank."""
        pair_258 = self.pair_258
        infos = (
            _plus_info(counts[0:9], pair_258, False),
            _plus_info(counts[9:18], pair_258, False),
            _plus_info(counts[18:27], pair_258, False),
            _plus_info(counts[27:34], pair_258, True),
        )
        n = sum(counts)
        found = 0
        for t in self._lowering(counts, s, unseen, extra, infos, stats(counts), n, off_258(counts, n)):
            found += unseen[t]
        return found

    def _lowering(
        self,
        counts: Counts,
        s: int,
        live: Sequence[int],
        extra: Iterable[int],
        infos: Sequence[_PlusInfo],
        st: Stats,
        n: int,
        off: int,
    ) -> list[int]:
        """The tiles ``t`` with ``live[t]`` whose draw brings this 3k+1 hand (``n`` tiles, its stats ``st``,
        ``off`` of them not 2/5/8, ``infos`` the ``_plus_info`` of its suits) below shanten ``s``. Each suit's
        tiles that lower the standard shape are memoised (``_split``); the side shapes are tried only where
        ``_may_table`` says they could lower it."""
        others = _others(infos[0][0], infos[1][0], infos[2][0], infos[3][0])
        n += 1
        may = self._may_table(counts, st, off, n, s)
        nm = self.n_melds
        tail = nm << 5 | (s + 1)
        splits = _SPLITS
        found: list[int] = []
        for x in range(4):
            _, near, plus, serial, _ = info = infos[x]
            other = others[x]
            key = (serial << _ID_BITS | other) << 8 | tail
            lower = splits.get(key)
            if lower is None:
                lower = _split(info, other, nm, s, key)
            lo = 9 * x
            for r in lower:
                if live[lo + r]:
                    found.append(lo + r)
            if may is not None:  # the side shapes may lower what the standard shape does not
                for r in near:
                    t = lo + r
                    p = plus[r]
                    if (
                        p >= 0
                        and live[t]
                        and may[counts[t] << 4 | _MAY_INDEX[t]]
                        and r not in lower
                        and self.side(_plus(counts, t), add_stats(st, counts, t), n, final_id(p, other, nm))
                        < s
                    ):
                        found.append(t)
        more = (*TILES_258, *extra) if self.all_258_melds else tuple(extra)
        if more:
            found += self._lowering_far(counts, s, live, set(more), infos, others, st, n)
        if s == 1 and found:
            # a draw that makes the hand 'ready' only toward a fifth copy of a four does not lower it
            four = 4 in counts
            found = [t for t in found if not (four or counts[t] == 3) or self.shanten(_plus(counts, t)) < 1]
        return found

    def _lowering_far(
        self,
        counts: Counts,
        s: int,
        live: Sequence[int],
        tiles: Iterable[int],
        infos: Sequence[_PlusInfo],
        others: Sequence[int],
        st: Stats,
        n: int,
    ) -> list[int]:
        """``_lowering`` of ``tiles`` that are not near the hand's tiles (every 2/5/8 with all-2/5/8 melds,
        and the extra ones), for the hand of ``n`` tiles once one is drawn."""
        nm = self.n_melds
        found: list[int] = []
        for t in tiles:
            x = t // 9
            info = infos[x]
            if info[4] >> (t - 9 * x) & 1 or not live[t] or counts[t] >= 4:
                continue  # a near tile: counted already, or not at all
            new = final_id(info[2][t - 9 * x], others[x], nm)
            if new >= s:
                new = self.side(_plus(counts, t), add_stats(st, counts, t), n, new)
            if new < s:
                found.append(t)
        return found

    def discards(self, counts: Counts) -> PlainDiscards:
        """The discards of the 3k+2 hand ``counts`` at once (see ``Discards``). A subclass with a shanten of
        its own (wild tiles) gets each discard computed in full by its own methods."""
        if type(self) is HandShape:
            return Discards(self, counts)
        return PlainDiscards(self, counts)


_MISSING = object()
# _may_table's memo: (the shape's may_key, stats, off, suits used, tiles, shanten) packed in an int -> table
_MAY: dict[int, tuple[bool, ...] | None] = {}
# a tile's part of a _may_table index: 8 for a terminal or honor (十三幺), 4 for a 2/5/8, plus its suit
_MAY_INDEX = tuple((8 if t in _ORPHANS else 0) | (4 if _IS_258[t] else 0) | t // 9 for t in range(NUM_KINDS))


def _minus(counts: Counts, t: int) -> Counts:
    c = list(counts)
    c[t] -= 1
    return tuple(c)


def sub_stats(st: Stats, counts: Counts, t: int) -> Stats:
    """The stats after one ``t`` fewer (``counts`` holds it)."""
    pairs7, trips, pairs = st
    n = counts[t]
    if n == 4:
        pairs7 -= 1
    elif n == 3:
        trips -= 1
        pairs += 1
    elif n == 2:
        pairs7 -= 1
        pairs -= 1
    return pairs7, trips, pairs


class PlainDiscards:
    """The discards of one 3k+2 hand, each computed in full by its shape (``HandShape.discards`` of a shape
    with its own shanten); the same interface as ``Discards``."""

    __slots__ = ("shape", "counts")

    def __init__(self, shape: HandShape, counts: Counts) -> None:
        self.shape = shape
        self.counts = counts

    def shanten(self, t: int, after: Counts) -> int:
        """The shanten of ``after``: the hand less one ``t``."""
        return self.shape.shanten(after)

    def useful(self, t: int, after: Counts, s: int, unseen: Sequence[int], extra: Iterable[int] = ()) -> int:
        """The useful tiles of ``after`` (the hand less one ``t``) at shanten ``s``."""
        return self.shape.useful(after, s, unseen, extra)


class Discards(PlainDiscards):
    """The discards of one 3k+2 hand with a plain HandShape, for a player choosing one: the shanten left by
    each, and the useful tiles of what is left, exactly as ``HandShape.shanten`` and ``useful`` count them of
    the hand less that tile, but with the hand's per-suit work done once: a discard changes one suit only,
    so the other suits' option ids, merges, stats and 'one more tile' tables are the hand's."""

    __slots__ = ("keys", "ids", "ab", "cd", "st", "n", "off", "infos")

    def __init__(self, shape: HandShape, counts: Counts) -> None:
        super().__init__(shape, counts)
        p = shape.pair_258
        self.keys = keys = (counts[0:9], counts[9:18], counts[18:27], counts[27:34])
        self.ids = ids = (
            suit_id(keys[0], p, False),
            suit_id(keys[1], p, False),
            suit_id(keys[2], p, False),
            suit_id(keys[3], p, True),
        )
        self.ab = merge_id(ids[0], ids[1])
        self.cd = merge_id(ids[2], ids[3])
        self.st = stats(counts)
        self.n = n = sum(counts)
        self.off = off_258(counts, n)
        self.infos: tuple[_PlusInfo, ...] | None = None

    def shanten(self, t: int, after: Counts) -> int:
        """``shape.shanten(after)``, ``after`` being the hand less one ``t``: the standard shape by the same
        merges as ``shanten_shape`` (with ``t``'s suit read one tile shorter), then the side shapes."""
        x = t // 9
        m = _minus_info(self.keys[x], self.shape.pair_258, x == 3)[t - 9 * x]
        ids = self.ids
        if x == 0:
            s = final_id(merge_id(m, ids[1]), self.cd, self.shape.n_melds)
        elif x == 1:
            s = final_id(merge_id(ids[0], m), self.cd, self.shape.n_melds)
        elif x == 2:
            s = final_id(self.ab, merge_id(m, ids[3]), self.shape.n_melds)
        else:
            s = final_id(self.ab, merge_id(ids[2], m), self.shape.n_melds)
        if s <= -1:
            return s
        shape = self.shape
        if s == 0 and 4 in after:
            s = _checked_ready(after, shape.n_melds, shape.pair_258)
        side = shape.side(after, sub_stats(self.st, self.counts, t), self.n - 1, s)
        if side == 0 and s and 4 in after:
            return shape.checked_ready(after, self.n - 1)
        return side

    def useful(self, t: int, after: Counts, s: int, unseen: Sequence[int], extra: Iterable[int] = ()) -> int:
        """``shape.useful(after, s, unseen, extra)``, ``after`` being the hand less one ``t``: only ``t``'s
        suit is read anew."""
        shape = self.shape
        infos = self.infos
        p = shape.pair_258
        if infos is None:
            keys = self.keys
            infos = self.infos = (
                _plus_info(keys[0], p, False),
                _plus_info(keys[1], p, False),
                _plus_info(keys[2], p, False),
                _plus_info(keys[3], p, True),
            )
        x = t // 9
        lo = 9 * x
        mine = list(infos)
        mine[x] = _plus_info(after[lo : lo + 9] if x < 3 else after[27:34], p, x == 3)
        st = sub_stats(self.st, self.counts, t)
        off = self.off - (0 if _IS_258[t] else 1)
        found = 0
        for u in shape._lowering(after, s, unseen, extra, mine, st, self.n - 1, off):
            found += unseen[u]
        return found


# per (head rule, honors): suit pattern -> the option id with one tile fewer of each rank (-1 where none)
_MINUS: dict[tuple[bool, bool], dict[tuple[int, ...], tuple[int, ...]]] = {
    (h, z): {} for h in (False, True) for z in (False, True)
}


def _minus_info(key: tuple[int, ...], pair_258: bool, honors: bool) -> tuple[int, ...]:
    cache = _MINUS[pair_258, honors]
    hit = cache.get(key)
    if hit is not None:
        return hit
    out = []
    c = list(key)
    for r in range(len(key)):
        if not c[r]:
            out.append(-1)
            continue
        c[r] -= 1
        out.append(suit_id(tuple(c), pair_258, honors))
        c[r] += 1
    info = tuple(out)
    if len(cache) >= _CACHE_LIMIT:
        cache.clear()
    cache[key] = info
    return info


# the four suits' option ids packed in an int -> for each suit, the id of the other three merged
_OTHERS: dict[int, tuple[int, int, int, int]] = {}


def _others(i0: int, i1: int, i2: int, i3: int) -> tuple[int, int, int, int]:
    """For each suit of a hand (option ids ``i0``..``i3``), the merge of the other three, memoised."""
    key = ((i0 << _ID_BITS | i1) << _ID_BITS | i2) << _ID_BITS | i3
    hit = _OTHERS.get(key)
    if hit is None:
        hit = (
            merge_id(merge_id(i1, i2), i3),
            merge_id(merge_id(i0, i2), i3),
            merge_id(merge_id(i0, i1), i3),
            merge_id(merge_id(i0, i1), i2),
        )
        if len(_OTHERS) >= _SPLITS_LIMIT:
            _OTHERS.clear()
        _OTHERS[key] = hit
    return hit


def _plus(counts: Counts, t: int) -> Counts:
    c = list(counts)
    c[t] += 1
    return tuple(c)


# A suit pattern's 'one more tile' view: (its option id, the ranks near its tiles, the option id with one
# more tile of each rank or -1 where the rank is full, a serial number of the pattern, the near ranks as bits)
_PlusInfo = tuple[int, tuple[int, ...], tuple[int, ...], int, int]
# per (head rule, honors): suit pattern -> its _PlusInfo
_PLUS: dict[tuple[bool, bool], dict[tuple[int, ...], _PlusInfo]] = {
    (h, z): {} for h in (False, True) for z in (False, True)
}
_SERIAL = [0]  # the last pattern serial given out: never reused, so _SPLITS keys stay unique


def _plus_info(key: tuple[int, ...], pair_258: bool, honors: bool) -> _PlusInfo:
    cache = _PLUS[pair_258, honors]
    hit = cache.get(key)
    if hit is not None:
        return hit
    n = len(key)
    if honors:
        near = tuple(r for r in range(n) if key[r])
    else:
        near = tuple(r for r in range(n) if any(key[max(0, r - 2) : r + 3]))
    plus = []
    c = list(key)
    for r in range(n):
        if c[r] >= 4:
            plus.append(-1)
            continue
        c[r] += 1
        plus.append(suit_id(tuple(c), pair_258, honors))
        c[r] -= 1
    _SERIAL[0] += 1
    info = (suit_id(key, pair_258, honors), near, tuple(plus), _SERIAL[0], sum(1 << r for r in near))
    if len(cache) >= _CACHE_LIMIT:
        cache.clear()
    cache[key] = info
    return info


# (pattern serial, the other suits' option id, melds, shanten) packed in an int -> _split's answer. Bounded
# lower than the other memos: it holds one entry per suit pattern and company it meets (~75 bytes each).
_SPLITS: dict[int, tuple[int, ...]] = {}
_SPLITS_LIMIT = 200_000
_RANKS: dict[tuple[int, ...], tuple[int, ...]] = {}  # every answer interned: at most 2**9 of them


def _split(info: _PlusInfo, other: int, melds: int, s: int, key: int) -> tuple[int, ...]:
    """The near ranks of one suit pattern (``info``) whose extra tile brings the standard shape below ``s``
    beside the other suits' options ``other`` (with ``melds`` melds). Memoised under ``key``: across the
    discards of a decision and across decisions the same suit meets the same others."""
    plus = info[2]
    finals = _FINALS
    found = []
    for r in info[1]:
        p = plus[r]
        if p < 0:
            continue
        new = finals.get((p << _ID_BITS | other if p < other else other << _ID_BITS | p) << 3 | melds)
        if new is None:
            new = final_id(p, other, melds)
        if new < s:
            found.append(r)
    lower = tuple(found)
    lower = _RANKS.setdefault(lower, lower)
    if len(_SPLITS) >= _SPLITS_LIMIT:
        _SPLITS.clear()
    _SPLITS[key] = lower
    return lower


def neighbours(counts: Counts, extra: Iterable[int] = ()) -> list[int]:
    """Tiles that can improve a hand: held tiles and suit neighbours within two (and ``extra``)."""
    out = set(extra)
    for t in range(NUM_KINDS):
        if counts[t]:
            out.add(t)
            if t < SUITED_KINDS:
                lo = t - t % 9
                for x in range(max(lo, t - 2), min(lo + 8, t + 2) + 1):
                    out.add(x)
    return sorted(out)


def shanten_lower_bound(shapes: Shapes, counts: Counts, melds: Sequence[Meld] = ()) -> int:
    """The variant-shape shanten of concealed ``counts`` with ``melds``: never above the real distance."""
    return HandShape(shapes, melds).shanten(counts)


__all__ = [
    "Discards",
    "HandShape",
    "PlainDiscards",
    "clear_caches",
    "Shapes",
    "TILES_258",
    "final",
    "final_id",
    "merge",
    "merge_id",
    "neighbours",
    "shanten_lower_bound",
    "shanten_shape",
    "suit_id",
    "suit_ids",
    "suit_options",
    "suits",
]
