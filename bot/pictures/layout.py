"""What a picture shows and where, as data: a Layout is a list of Items, each with its box and meaning.

The painter (paint.py) only draws Items; the scenes (scenes.py) only decide Items. Tests read the Layout —
"seat 2's third discard is at (x, y, w, h) with face 5p, and it is the highlighted last discard" — instead of
comparing pixels.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum

from engine import Observation, get_variant
from engine.melds import Meld, MeldKind

Box = tuple[int, int, int, int]  # x, y, w, h


class Kind(StrEnum):
    PANEL = "panel"  # a rounded panel (the table's centre, a result row)
    TILE = "tile"  # a face-up tile: ``tile`` is its face (0..33)
    BACK = "back"  # a face-down tile
    EDGE = "edge"  # a standing hidden tile seen from above (side seats' hands)
    SEAT = "seat"  # a seat disc with its wind (``text``: 东 南 西 北)
    BADGE = "badge"  # a small mark: role dealer / won / wins / void (``tile``: a tile of the void suit) on a
    # seat, or "how" (自摸 / 接炮 / 点炮) on a result row
    WIND = "wind"  # a wind on the table's centre, lit for the seat to play
    TEXT = "text"  # words: names (role "label"), numbers, amounts, English words (fonts.py)
    ICON = "icon"  # a small picture: role "wall" (a stack of backs), "hidden" (a face-down tile beside a
    # seat's count), "last" (the pin over the latest discard)


class Mark(StrEnum):
    LAST = "last"  # the latest discard
    APART = "apart"  # set apart from the hand: the drawn tile, the tile on offer, the winning tile
    DRAWN = "drawn"
    CLAIM = "claim"  # the tile this seat may claim now
    WIN = "win"  # the winning tile
    DIM = "dim"  # may not be played now
    STACKED = "stacked"  # a kong's fourth tile, lying on the middle one
    TURN = "turn"  # this seat is to play
    PLUS = "plus"  # a gain (settlement amounts)
    MINUS = "minus"
    WILD = "wild"  # a wild tile (红中麻将's 红中): starred
    OWN = "own"  # the viewer's own row (the end of a hand)
    HIT = "hit"  # a bird that hit


@dataclass(frozen=True, slots=True)
class Item:
    kind: Kind
    box: Box
    role: str = ""  # what the item is part of: discard, meld, hand, drawn, claim, win, bird, kong, ...
    seat: int = -1
    tile: int = -1  # the face shown, -1 for none
    index: int = -1  # order in its group: the n-th discard of a seat, the n-th tile of a hand
    marks: frozenset[Mark] = frozenset()
    text: str = ""
    size: int = 0  # text size in px, or a tile's sprite size key
    align: str = "c"  # text: "l", "c" or "r" in its box


@dataclass(frozen=True, slots=True)
class Layout:
    width: int
    height: int
    items: tuple[Item, ...]

    def find(
        self,
        kind: Kind | None = None,
        role: str | None = None,
        seat: int | None = None,
        mark: Mark | None = None,
    ) -> list[Item]:
        """The items matching every given field, in drawing order."""
        return [
            it
            for it in self.items
            if (kind is None or it.kind == kind)
            and (role is None or it.role == role)
            and (seat is None or it.seat == seat)
            and (mark is None or mark in it.marks)
        ]


@dataclass(slots=True)
class Builder:
    """Collects items while a scene is laid out."""

    items: list[Item] = field(default_factory=list)

    def add(
        self,
        kind: Kind,
        box: Box,
        role: str = "",
        seat: int = -1,
        tile: int = -1,
        index: int = -1,
        marks: Iterable[Mark] = (),
        text: str = "",
        size: int = 0,
        align: str = "c",
    ) -> Item:
        item = Item(kind, box, role, seat, tile, index, frozenset(marks), text, size, align)
        self.items.append(item)
        return item


# ------------------------------------------------------------------ seats around the table

WINDS = "东南西北"


def wind_of(obs: Observation, seat: int) -> str:
    """The seat's wind this hand, counted from the dealer (东): the marker drawn for it."""
    return WINDS[(seat - obs.dealer) % len(obs.seats)]


def bottom_seat(obs: Observation) -> int:
    """Who sits at the bottom: the viewer, or seat 0 for the group's view."""
    return obs.seat if obs.seat >= 0 else 0


POSITIONS = {4: ("bottom", "right", "top", "left"), 3: ("bottom", "right", "left"), 2: ("bottom", "top")}


def position_of(obs: Observation, seat: int) -> str:
    """Where a seat sits in the picture: play goes counter-clockwise, the next seat (下家) on the right."""
    n = len(obs.seats)
    return POSITIONS[n][(seat - bottom_seat(obs)) % n]


# ------------------------------------------------------------------ hands and melds


def split_drawn(obs: Observation) -> tuple[list[int], int | None]:
    """The viewer's concealed tiles without the drawn one, and the drawn tile."""
    hand = list(obs.hand)
    drawn = obs.drawn
    if drawn is not None and drawn in hand:
        hand.remove(drawn)
    else:
        drawn = None
    return sorted(hand), drawn


def meld_faces(meld: Meld, known: bool) -> tuple[list[int], int | None]:
    """The tiles of a meld as laid on the table: three in a row, and a kong's fourth on top of the middle.
    -1 stands for a face-down tile: a concealed kong lies face down, its top tile up when it is ``known``."""
    if meld.kind == MeldKind.KONG_CONCEALED:
        return [-1, -1, -1], meld.tile if known else -1
    tiles = list(meld.tiles)
    if meld.is_kong:
        return tiles[:3], tiles[3]
    return tiles, None


HIDDEN_KONG = Meld(MeldKind.KONG_CONCEALED, 0)  # a concealed kong others may not see: only counted


def seat_melds(obs: Observation, seat: int) -> list[tuple[Meld, bool]]:
    """A seat's melds as (meld, tile known) in the order made, its hidden concealed kongs last."""
    ps = obs.seats[seat]
    out = [(m, True) for m in ps.melds]
    out.extend((HIDDEN_KONG, False) for _ in range(ps.concealed_kongs))
    return out


def void_suit(choice: str | None) -> int | None:
    """The 定缺 suit a seat's public choice names, if it names one (m, s, p): None for 飘 / 加锤 numbers."""
    if choice is not None and choice in ("m", "s", "p"):
        return "msp".index(choice)
    return None


# ------------------------------------------------------------------ wild tiles


def wild_tiles(variant: str) -> frozenset[int]:
    """The tiles that are wild in a variant (红中麻将: 红中), marked on the pictures (the variant says)."""
    return get_variant(variant).wild_tiles()
