"""Hand shapes: 4 melds + pair (基本胡型), seven pairs (七小对), waits (听牌); shanten (向听) is shanten.py's.

Speed matters (AI and random play call these constantly), so the standard shape is decided suit by suit
through tables built once at import: for every 9-count pattern of one suit, all the ways it splits into
melds (and at most one pair). A 14-tile check is then three or four dict look-ups.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations_with_replacement, product

from .shanten import HandShape, Shapes
from .tiles import NUM_KINDS, SUITED_KINDS, Counts

# A concealed meld inside a decomposition: ("chow"|"pung", first tile index).
CHOW = 0
PUNG = 1
ConcealedMeld = tuple[int, int]
# Decomposition of a whole hand: (pair tile, melds).
Decomposition = tuple[int, tuple[ConcealedMeld, ...]]

_SuitKey = tuple[int, ...]
# suit pattern -> list of meld tuples (ranks 0..8 relative to the suit)
_MELDS: dict[_SuitKey, list[tuple[ConcealedMeld, ...]]] = {}
# suit pattern -> list of (pair rank, meld tuple)
_PAIRED: dict[_SuitKey, list[tuple[int, tuple[ConcealedMeld, ...]]]] = {}
_HONOR_MELDS: set[_SuitKey] = set()
_HONOR_PAIRED: dict[_SuitKey, int] = {}


def _build_tables() -> None:
    suit_melds: list[tuple[ConcealedMeld, tuple[int, ...]]] = []
    for r in range(7):
        v = [0] * 9
        v[r] = v[r + 1] = v[r + 2] = 1
        suit_melds.append(((CHOW, r), tuple(v)))
    for r in range(9):
        v = [0] * 9
        v[r] = 3
        suit_melds.append(((PUNG, r), tuple(v)))
    for n in range(5):
        for combo in combinations_with_replacement(range(len(suit_melds)), n):
            v = [0] * 9
            for i in combo:
                for r, c in enumerate(suit_melds[i][1]):
                    v[r] += c
            if max(v, default=0) > 4:
                continue
            melds = tuple(suit_melds[i][0] for i in combo)
            _MELDS.setdefault(tuple(v), []).append(melds)
            for p in range(9):
                if v[p] + 2 <= 4:
                    w = list(v)
                    w[p] += 2
                    _PAIRED.setdefault(tuple(w), []).append((p, melds))
    for n in range(5):
        for hcombo in combinations_with_replacement(range(7), n):
            h = [0] * 7
            for r in hcombo:
                h[r] += 3
            if max(h, default=0) > 4:
                continue
            _HONOR_MELDS.add(tuple(h))
            for p in range(7):
                if h[p] == 0:
                    hp = list(h)
                    hp[p] = 2
                    _HONOR_PAIRED[tuple(hp)] = p


_build_tables()

_EMPTY9 = (0,) * 9
_EMPTY7 = (0,) * 7

# One look-up per suit for the win check: pattern -> 0 (melds only) or 1 (melds and the pair); a pattern
# that is neither is absent. 3k and 3k+2 tiles never share a pattern, so one dict holds both.
_STATUS: dict[_SuitKey, int] = {**dict.fromkeys(_MELDS, 0), **dict.fromkeys(_PAIRED, 1)}
_HONOR_STATUS: dict[_SuitKey, int] = {**dict.fromkeys(_HONOR_MELDS, 0), **dict.fromkeys(_HONOR_PAIRED, 1)}
_status9 = _STATUS.get
_status7 = _HONOR_STATUS.get


def is_standard(counts: Counts) -> bool:
    """True if the concealed tiles (3k+2 of them) split into k melds + one pair, any pair."""
    a = _status9(counts[0:9])
    if a is None:
        return False
    b = _status9(counts[9:18])
    if b is None:
        return False
    c = _status9(counts[18:27])
    if c is None:
        return False
    d = _status7(counts[27:34])
    if d is None:
        return False
    return a + b + c + d == 1


def standard_pairs(counts: Counts) -> set[int]:
    """Every tile that can be the pair in some standard decomposition (empty if none)."""
    pair_suit = -1
    for i, lo in enumerate((0, 9, 18, 27)):
        key = counts[lo : lo + (7 if lo == 27 else 9)]
        if i == 3:
            if key == _EMPTY7 or key in _HONOR_MELDS:
                continue
            if key in _HONOR_PAIRED and pair_suit < 0:
                pair_suit = 3
                continue
            return set()
        if key == _EMPTY9 or key in _MELDS:
            continue
        if key in _PAIRED and pair_suit < 0:
            pair_suit = i
            continue
        return set()
    if pair_suit < 0:
        return set()
    if pair_suit == 3:
        return {27 + _HONOR_PAIRED[counts[27:34]]}
    lo = pair_suit * 9
    return {lo + p for p, _ in _PAIRED[counts[lo : lo + 9]]}


def decompositions(counts: Counts) -> list[Decomposition]:
    """Every distinct way the concealed tiles split into melds + one pair (tile indices absolute)."""
    per_suit: list[list[tuple[int, tuple[ConcealedMeld, ...]]]] = []
    pair_suits = 0
    for i, lo in enumerate((0, 9, 18)):
        key = counts[lo : lo + 9]
        if key == _EMPTY9:
            continue
        opts: list[tuple[int, tuple[ConcealedMeld, ...]]] = []
        for melds in _MELDS.get(key, ()):
            opts.append((-1, tuple((k, lo + r) for k, r in melds)))
        for p, melds in _PAIRED.get(key, ()):
            opts.append((lo + p, tuple((k, lo + r) for k, r in melds)))
        if not opts:
            return []
        if key not in _MELDS:
            pair_suits += 1
        per_suit.append(opts)
        del i
    hk = counts[27:34]
    if hk != _EMPTY7:
        if hk in _HONOR_MELDS:
            per_suit.append([(-1, tuple((PUNG, 27 + r) for r in range(7) if hk[r] == 3))])
        elif hk in _HONOR_PAIRED:
            p = _HONOR_PAIRED[hk]
            per_suit.append([(27 + p, tuple((PUNG, 27 + r) for r in range(7) if hk[r] == 3))])
        else:
            return []
    if pair_suits > 1:
        return []
    out: list[Decomposition] = []
    for choice in product(*per_suit):
        pairs = [p for p, _ in choice if p >= 0]
        if len(pairs) != 1:
            continue
        melds = tuple(sorted(m for _, ms in choice for m in ms))
        out.append((pairs[0], melds))
    return sorted(set(out))


def is_seven_pairs(counts: Counts) -> bool:
    """七小对: exactly 14 concealed tiles, all in pairs (a four of a kind counts as two pairs)."""
    total = 0
    for n in counts:
        if n & 1:
            return False
        total += n
    return total == 14


def seven_pairs_quads(counts: Counts) -> int:
    """How many fours of a kind a seven-pairs hand holds (豪华 / 双豪华)."""
    return sum(1 for n in counts if n == 4)


ORPHANS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)  # 幺九 and honors


def is_thirteen_orphans(counts: Counts) -> bool:
    """十三幺: one of each terminal and honor, one of them paired."""
    need = ORPHANS
    if sum(counts) != 14:
        return False
    pair = False
    for t in need:
        n = counts[t]
        if n == 0 or n > 2:
            return False
        if n == 2:
            pair = True
    return pair and sum(counts[t] for t in need) == 14


# suit pattern -> (ranks whose tile leaves melds only, ranks whose tile leaves melds and the pair), filled as
# patterns are met (a handful of probes each); bounded like the shanten caches.
_WaitRanks = tuple[tuple[int, ...], tuple[int, ...]]
_WAITS: tuple[dict[_SuitKey, _WaitRanks], dict[_SuitKey, _WaitRanks]] = ({}, {})
_WAITS_LIMIT = 200_000
_NO_WAIT_RANKS: _WaitRanks = ((), ())


def _suit_waits(key: _SuitKey, honors: bool) -> _WaitRanks:
    table = _WAITS[honors]
    hit = table.get(key)
    if hit is not None:
        return hit
    status = _status7 if honors else _status9
    melds: list[int] = []
    paired: list[int] = []
    c = list(key)
    for r in range(len(c)):
        if c[r] >= 4 or (honors and not c[r]):
            continue
        c[r] += 1
        st = status(tuple(c))
        c[r] -= 1
        if st == 0:
            melds.append(r)
        elif st == 1:
            paired.append(r)
    found = (tuple(melds), tuple(paired)) if melds or paired else _NO_WAIT_RANKS
    if len(table) >= _WAITS_LIMIT:
        table.clear()
    table[key] = found
    return found


def standard_waits(counts: Counts, kinds: int = NUM_KINDS) -> list[int]:
    """Tiles that complete a standard shape (any pair) for 3k+1 concealed tiles, never a fifth copy.

    Suit by suit: a tile completes the hand only if every other suit is already complete (melds, at most
    one pair between them), so at most one incomplete suit is looked at, through its cached wait ranks."""
    k0 = counts[0:9]
    s0 = _status9(k0)
    k1 = counts[9:18]
    s1 = _status9(k1)
    if s0 is None and s1 is None:
        return []  # two incomplete suits: no one tile completes both (most hands end here)
    k2 = counts[18:27]
    s2 = _status9(k2)
    if s2 is None and (s0 is None or s1 is None):
        return []
    keys = (k0, k1, k2, counts[27:34])
    st = (s0, s1, s2, _status7(keys[3]))
    missing = st.count(None)
    if missing > 1:
        return []
    last = 4 if kinds > SUITED_KINDS else 3
    if missing == 1:
        x = st.index(None)
        if x >= last:
            return []
        pairs = sum(v for v in st if v is not None)
        if pairs > 1:
            return []
        lo = 9 * x
        return [lo + r for r in _suit_waits(keys[x], x == 3)[1 - pairs]]
    total = sum(v for v in st if v is not None)
    out: list[int] = []
    for x in range(last):
        pairs = total - (st[x] or 0)
        if pairs > 1:
            continue
        lo = 9 * x
        out.extend(lo + r for r in _suit_waits(keys[x], x == 3)[1 - pairs])
    return out


def seven_pairs_wait(counts: Counts) -> int:
    """The tile a 13-tile 七小对 hand waits on (a single, or a third copy: a four counts as two pairs);
    -1 if the hand is not one tile from seven pairs."""
    singles = counts.count(1)
    if singles > 1 or singles + counts.count(3) != 1 or sum(counts) != 13:
        return -1
    return counts.index(1) if singles else counts.index(3)


def _candidates(counts: Counts, kinds: int) -> Iterator[int]:
    """Tiles worth trying as waits: held tiles and their suit neighbours within two, never a fifth copy."""
    for lo in (0, 9, 18):
        seg = counts[lo : lo + 9]
        if seg == _EMPTY9:
            continue
        for r in range(9):
            if seg[r] < 4 and any(seg[max(0, r - 2) : r + 3]):
                yield lo + r
    if kinds > SUITED_KINDS:
        for t in range(SUITED_KINDS, kinds):
            if 0 < counts[t] < 4:
                yield t


def candidates(counts: Counts, kinds: int = NUM_KINDS) -> list[int]:
    return list(_candidates(counts, kinds))


# ---------------------------------------------------------------- shanten

_ANY_PAIR = Shapes(seven_pairs=True)
_ANY_PAIR_NO_SEVEN = Shapes(seven_pairs=False)
_SHAPES: dict[tuple[bool, int], HandShape] = {}


def shanten(counts: Counts, exposed_melds: int = 0, seven_pairs: bool = True) -> int:
    """Distance to ready (向听) by the common shapes: 4 melds + any pair, and (with no melds) seven pairs, a
    four counting as two pairs. The one shanten of the engine (engine/shanten.py), for callers without a
    variant; a variant's own is ``Variant.shanten``."""
    shape = _SHAPES.get((seven_pairs, exposed_melds))
    if shape is None:
        shapes = _ANY_PAIR if seven_pairs else _ANY_PAIR_NO_SEVEN
        shape = _SHAPES[seven_pairs, exposed_melds] = HandShape(shapes, n_melds=exposed_melds)
    return shape.shanten(counts)
