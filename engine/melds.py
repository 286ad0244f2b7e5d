"""Melds (面子) and the full hand notation with melds in brackets: ``123m[555p][(2222s)]``."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum

from .errors import InvalidNotation
from .tiles import Counts, format_tiles, parse_tiles, suit_of, tile_str, to_counts


class MeldKind(IntEnum):
    CHOW = 0  # 吃 (顺子 taken from the previous seat)
    PUNG = 1  # 碰
    KONG_EXPOSED = 2  # 明杠 / 直杠 / 放杠: three in hand plus a discard
    KONG_ADDED = 3  # 补杠 / 面下杠 / 弯杠: a fourth tile added to an own pung
    KONG_CONCEALED = 4  # 暗杠: four in hand


KONGS = (MeldKind.KONG_EXPOSED, MeldKind.KONG_ADDED, MeldKind.KONG_CONCEALED)


@dataclass(frozen=True, slots=True)
class Meld:
    """An open or concealed meld. ``tile`` is the lowest tile (chow) or the repeated tile."""

    kind: MeldKind
    tile: int
    from_seat: int | None = None  # seat the claimed tile came from (None for concealed / notation)

    @property
    def tiles(self) -> tuple[int, ...]:
        if self.kind == MeldKind.CHOW:
            return (self.tile, self.tile + 1, self.tile + 2)
        if self.kind == MeldKind.PUNG:
            return (self.tile,) * 3
        return (self.tile,) * 4

    @property
    def is_kong(self) -> bool:
        return self.kind in KONGS

    @property
    def is_concealed(self) -> bool:
        return self.kind == MeldKind.KONG_CONCEALED

    def __str__(self) -> str:
        body = format_tiles(self.tiles)
        return f"[({body})]" if self.kind == MeldKind.KONG_CONCEALED else f"[{body}]"


def owned(counts: Sequence[int], melds: tuple[Meld, ...]) -> list[int]:
    """Copies of each kind a player owns: concealed plus melded."""
    total = list(counts)
    for m in melds:
        for t in m.tiles:
            total[t] += 1
    return total


_TOKEN = re.compile(r"\[\(([^\]\)]*)\)\]|\[([^\]]*)\]|([^\[\]]+)")


def parse_meld(body: str, concealed: bool = False) -> Meld:
    tiles = parse_tiles(body)
    if len(tiles) == 3 and tiles[0] == tiles[1] == tiles[2]:
        if concealed:
            raise InvalidNotation(f"only a kong can be concealed: [({body})]")
        return Meld(MeldKind.PUNG, tiles[0])
    if len(tiles) == 3 and tiles[1] == tiles[0] + 1 and tiles[2] == tiles[0] + 2:
        if concealed or suit_of(tiles[0]) != suit_of(tiles[2]) or suit_of(tiles[0]) == 3:
            raise InvalidNotation(f"not a valid chow: {body!r}")
        return Meld(MeldKind.CHOW, tiles[0])
    if len(tiles) == 4 and len(set(tiles)) == 1:
        return Meld(MeldKind.KONG_CONCEALED if concealed else MeldKind.KONG_EXPOSED, tiles[0])
    raise InvalidNotation(f"not a meld: {body!r}")


def parse_hand(text: str) -> tuple[Counts, tuple[Meld, ...]]:
    """Parse ``123m456s[555p][(2222s)]`` into concealed counts and melds.

    Raises InvalidNotation for bad characters, malformed melds or more than four of a tile.
    """
    text = text.replace(" ", "")
    pos = 0
    concealed: list[int] = []
    melds: list[Meld] = []
    for m in _TOKEN.finditer(text):
        if m.start() != pos:
            raise InvalidNotation(f"cannot read {text[pos : m.start()]!r} in {text!r}")
        pos = m.end()
        if m.group(1) is not None:
            melds.append(parse_meld(m.group(1), concealed=True))
        elif m.group(2) is not None:
            melds.append(parse_meld(m.group(2)))
        else:
            concealed.extend(parse_tiles(m.group(3)))
    if pos != len(text):
        raise InvalidNotation(f"unbalanced brackets in {text!r}")
    counts = to_counts(concealed)
    total = list(counts)
    for meld in melds:
        for t in meld.tiles:
            total[t] += 1
    for t, n in enumerate(total):
        if n > 4:
            raise InvalidNotation(f"{n} copies of {tile_str(t)} in {text!r}")
    return counts, tuple(melds)


def format_hand(counts: Counts, melds: tuple[Meld, ...] = ()) -> str:
    from .tiles import from_counts

    return format_tiles(from_counts(counts)) + "".join(str(m) for m in melds)
