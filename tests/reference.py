"""Slow, plain reference implementations of the engine's fast paths (tests/test_fast_paths.py checks them
against each other over many random hands).

Nothing here is cached by id, split into blocks, reduced or read from tables: the win shape is a recursive
search, the waits try every tile, and shanten enumerates every way each suit splits into sets, partial sets,
heads and loose tiles (engine/shanten.py's definition) and combines all of them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache

from engine import Meld, MeldKind, Variant, WinContext
from engine.shanten import Shapes
from engine.tiles import NUM_KINDS, Counts, is_258

ORPHANS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)


def plus(counts: Counts, t: int) -> Counts:
    c = list(counts)
    c[t] += 1
    return tuple(c)


def is_standard(counts: Counts) -> bool:
    """k melds and one pair, by trying the first tile as a pair, a pung or the start of a chow."""

    def melds_only(c: list[int]) -> bool:
        i = next((x for x in range(NUM_KINDS) if c[x]), -1)
        if i < 0:
            return True
        if c[i] >= 3:
            c[i] -= 3
            ok = melds_only(c)
            c[i] += 3
            if ok:
                return True
        if i < 27 and i % 9 <= 6 and c[i + 1] and c[i + 2]:
            for x in (i, i + 1, i + 2):
                c[x] -= 1
            ok = melds_only(c)
            for x in (i, i + 1, i + 2):
                c[x] += 1
            return ok
        return False

    c = list(counts)
    if sum(c) % 3 != 2:
        return False
    for p in range(NUM_KINDS):
        if c[p] >= 2:
            c[p] -= 2
            ok = melds_only(c)
            c[p] += 2
            if ok:
                return True
    return False


def could_win(rs: Variant, counts: Counts, melds: tuple[Meld, ...]) -> bool:
    """The default ``Variant.could_win`` from its ``shapes``, on the reference win check."""
    shapes = rs.shapes
    if is_standard(counts):
        return True
    if not melds and shapes.seven_pairs and sum(counts) == 14 and all(n % 2 == 0 for n in counts):
        return True
    if not melds and shapes.thirteen_orphans and sum(counts) == 14:
        if all(counts[t] for t in ORPHANS) and sum(counts[t] for t in ORPHANS) == 14:
            return True
    if shapes.all_258:
        tiles = [t for t in range(NUM_KINDS) for _ in range(counts[t])]
        tiles += [t for m in melds for t in m.tiles]
        return all(is_258(t) for t in tiles)
    return False


def shape_waits(rs: Variant, counts: Counts, melds: tuple[Meld, ...] = ()) -> list[int]:
    """Every tile kind, tried: a fifth copy never."""
    return [t for t in range(NUM_KINDS) if counts[t] < 4 and could_win(rs, plus(counts, t), melds)]


def waits(rs: Variant, counts: Counts, melds: tuple[Meld, ...] = ()) -> list[int]:
    """The tiles that win in some context (self-drawn or from a discard), by the variant's evaluation."""
    opts = rs.make_options()
    out = []
    for t in shape_waits(rs, counts, melds):
        for self_draw in (True, False):
            ct = plus(counts, t)
            ctx = WinContext(0, 1, ct, melds, t, self_draw, None if self_draw else 2, options=opts)
            if rs.evaluate_win(ctx) is not None:
                out.append(t)
                break
    return out


Opt = tuple[int, int, int, int]


@cache
def suit_options(key: tuple[int, ...], pair_258: bool, honors: bool) -> frozenset[Opt]:
    """Every (melds, partial sets, heads, loose tile that may pair) one suit splits into, none dropped."""
    i = next((x for x in range(len(key)) if key[x]), -1)
    if i < 0:
        return frozenset({(0, 0, 0, 0)})
    head_ok = (not pair_258) if honors else (not pair_258 or i % 3 == 1)
    out: set[Opt] = set()

    def rest(take: dict[int, int], dm: int, dt: int, dh: int, df: int) -> None:
        c = list(key)
        for x, n in take.items():
            c[x] -= n
        for m, t, h, f in suit_options(tuple(c), pair_258, honors):
            out.add((m + dm, t + dt, h + dh, f | df))

    n = len(key)
    if key[i] >= 3:
        rest({i: 3}, 1, 0, 0, 0)
    if key[i] >= 2:
        if head_ok:
            rest({i: 2}, 0, 0, 1, 0)
        rest({i: 2}, 0, 1, 0, 0)
    if not honors:
        if i + 2 < n and key[i + 1] and key[i + 2]:
            rest({i: 1, i + 1: 1, i + 2: 1}, 1, 0, 0, 0)
        if i + 1 < n and key[i + 1]:
            rest({i: 1, i + 1: 1}, 0, 1, 0, 0)
        if i + 2 < n and key[i + 2]:
            rest({i: 1, i + 2: 1}, 0, 1, 0, 0)
    rest({i: 1}, 0, 0, 0, 1 if head_ok else 0)
    return frozenset(out)


def _combine(a: frozenset[Opt], b: frozenset[Opt]) -> frozenset[Opt]:
    return frozenset((x[0] + y[0], x[1] + y[1], x[2] + y[2], x[3] | y[3]) for x in a for y in b)


def minus(counts: Counts, t: int) -> Counts:
    c = list(counts)
    c[t] -= 1
    return tuple(c)


def checked(counts: Counts, raw: int, shanten: Callable[[Counts], int], bare: Callable[[Counts], int]) -> int:
    """A 0 of a hand holding a four, checked against a fifth copy (engine/shanten.py ``_checked_ready``): a
    3k+1 hand is ready only if a tile still in play (every kind tried) completes it by ``bare`` (the reading
    without the check, exact for −1); a 3k+2 hand only if a discard leaves a hand ready by ``shanten``. Else
    1."""
    if raw != 0 or 4 not in counts:
        return raw
    if sum(counts) % 3 == 1:
        return 0 if any(counts[t] < 4 and bare(plus(counts, t)) <= -1 for t in range(NUM_KINDS)) else 1
    return 0 if any(counts[t] and shanten(minus(counts, t)) == 0 for t in range(NUM_KINDS)) else 1


def shanten_shape(counts: Counts, melds: int, pair_258: bool) -> int:
    """The standard-shape shanten, a 0 with a four held checked (``checked``)."""
    return checked(
        counts,
        bare_shanten_shape(counts, melds, pair_258),
        lambda c: shanten_shape(c, melds, pair_258),
        lambda c: bare_shanten_shape(c, melds, pair_258),
    )


def bare_shanten_shape(counts: Counts, melds: int, pair_258: bool) -> int:
    """The standard-shape shanten: the best of every combination of every suit's splits."""
    opts = frozenset({(0, 0, 0, 0)})
    for lo, hi in ((0, 9), (9, 18), (18, 27), (27, 34)):
        opts = _combine(opts, suit_options(counts[lo:hi], pair_258, lo == 27))
    best = 8
    for am, t, h, loose in opts:
        m = melds + am
        if h > 1:
            t += h - 1
            h = 1
        if m + t > 4:
            t = 4 - m
            loose = 1
        s = 8 - 2 * m - t - h + (1 if not h and not loose else 0)
        best = min(best, s)
    return best


def hand_shanten(shapes: Shapes, melds: Sequence[Meld], counts: Counts) -> int:
    """``HandShape(shapes, melds).shanten(counts)`` written out: the bare reading of every shape
    (``bare_hand_shanten``), a 0 with a four held checked against a fifth copy."""
    return checked(
        counts,
        bare_hand_shanten(shapes, melds, counts),
        lambda c: hand_shanten(shapes, melds, c),
        lambda c: bare_hand_shanten(shapes, melds, c),
    )


def bare_hand_shanten(shapes: Shapes, melds: Sequence[Meld], counts: Counts) -> int:
    """The standard shape, then 七小对, 十三幺, 全求人, 将将胡, 碰碰胡 and 清一色 as engine/shanten.py defines
    them."""
    nm = len(melds)
    n = sum(counts)
    best = bare_shanten_shape(counts, nm, shapes.pair_258)
    if best <= -1:
        return best
    if nm == 0 and n >= 13:
        if shapes.seven_pairs:
            best = min(best, max(-1, 6 - sum(x // 2 for x in counts)))
        if shapes.thirteen_orphans:
            kinds = sum(1 for t in ORPHANS if counts[t])
            best = min(best, 13 - kinds - (1 if any(counts[t] >= 2 for t in ORPHANS) else 0))
    if best <= 0 and n % 3 == 1:
        return best
    if shapes.single_wait and nm == 4 and n == 1:
        return min(best, 0)
    off = sum(counts[t] for t in range(NUM_KINDS) if not is_258(t))
    if shapes.all_258 and all(is_258(t) for m in melds for t in m.tiles) and off - 1 < best:
        best = min(best, (off - 1 if off else -1) if n % 3 == 2 else off)
    if not shapes.pair_258 or best <= -1:
        return best
    if shapes.all_pungs and all(m.kind != MeldKind.CHOW for m in melds):
        m = nm + sum(1 for x in counts if x >= 3)
        pairs = sum(1 for x in counts if x == 2)
        t = min(max(0, pairs - 1), max(0, 4 - m))
        best = min(best, 8 - 2 * m - t - (1 if pairs else 0))
    held = {t // 9 for t in range(NUM_KINDS) if counts[t]}
    meld_suits = {m.tile // 9 for m in melds}
    floor = 0 if n % 3 == 1 else -1
    if best > floor and shapes.one_suit and len(held) == 1 and 3 not in held and len(held | meld_suits) == 1:
        best = min(best, bare_shanten_shape(counts, nm, False))
    return best


def useful(
    shapes: Shapes, melds: Sequence[Meld], counts: Counts, unseen: Sequence[int], extra: Sequence[int]
) -> int:
    """Unseen tiles that lower the shanten of a 3k+1 hand: held tiles, their suit neighbours within two, and
    ``extra`` (every other tile can't help), each tried."""
    s = hand_shanten(shapes, melds, counts)
    near = set(extra)
    for t in range(NUM_KINDS):
        if counts[t]:
            near.add(t)
            if t < 27:
                near.update(x for x in range(t - 2, t + 3) if x // 9 == t // 9)
    if shapes.all_258 and all(is_258(t) for m in melds for t in m.tiles):
        near.update(t for t in range(27) if is_258(t))
    return sum(
        unseen[t]
        for t in sorted(near)
        if unseen[t] and counts[t] < 4 and hand_shanten(shapes, melds, plus(counts, t)) < s
    )
