"""Hand predicates and scoring helpers the variants share: 碰碰胡 / 清一色 / 将将胡 shapes, hand names, birds.

One copy, so a fix to "what is 碰碰胡" reaches every variant that scores it.
"""

from __future__ import annotations

from operator import itemgetter

from .melds import Meld, MeldKind
from .ruleset import WinInfo
from .state import State
from .tiles import Counts, is_258, suit_of

TILES_258 = tuple(t for t in range(27) if is_258(t))
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


def hand_names(info: WinInfo) -> tuple[str, ...]:
    """Big-hand names repeated by their count (豪华七小对 counts 2), else the small-hand names."""
    if info.big:
        return tuple(name for name, k in info.big for _ in range(k))
    return info.small


def birds(state: State, haidi_tile: int | None) -> tuple[int, ...]:
    """扎鸟: the room's number of tiles from the front of the wall (fewer if it is short); a haidi win
    uses the haidi tile as the only bird (海底胡，以海底牌为鸟)."""
    n = state.options["birds"]
    if n == 0:
        return ()
    if haidi_tile is not None:
        return (haidi_tile,)
    return state.wall.peek_front(n)
