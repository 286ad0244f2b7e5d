"""Hand predicates the variants share: 碰碰胡 / 清一色 / 将将胡 shapes.

One copy, so a fix to "what is 碰碰胡" reaches every variant that scores it (scoring parts: scoring.py).
"""

from __future__ import annotations

from operator import itemgetter

from .melds import Meld, MeldKind
from .shanten import TILES_258
from .tiles import Counts, is_258, suit_of

_get_258 = itemgetter(*TILES_258)


def all_258(counts: Counts, melds: tuple[Meld, ...]) -> bool:
    """将将胡 / 将一色 / 将对: every tile, melds included, is a 2, 5 or 8 (any shape)."""
    if sum(_get_258(counts)) != sum(counts):
        return False
    return all(is_258(t) for m in melds for t in m.tiles)


def all_pungs(counts: Counts, melds: tuple[Meld, ...]) -> bool:
    """碰碰胡 / 对对胡: no chow anywhere; the concealed tiles are triplets and exactly one pair."""
    if any(m.kind == MeldKind.CHOW for m in melds):
        return False
    pairs = 0
    for n in counts:
        if n == 2:
            pairs += 1
        elif n not in (0, 3):
            return False
    return pairs == 1


def suits(counts: Counts, melds: tuple[Meld, ...]) -> set[int]:
    """The suits a hand uses (0 万, 1 条, 2 筒, 3 honors), melds included."""
    out = {suit_of(t) for t, n in enumerate(counts) if n}
    out.update(suit_of(m.tile) for m in melds)
    return out


def one_suit(counts: Counts, melds: tuple[Meld, ...]) -> bool:
    """清一色: a single suit of 万, 条 or 筒 and no honors."""
    used = suits(counts, melds)
    return len(used) == 1 and 3 not in used


__all__ = ["TILES_258", "all_258", "all_pungs", "one_suit", "suits"]
