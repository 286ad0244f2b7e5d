"""Actions a seat can take, with a short text form for logs and storage (``2 discard 5m``)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from .errors import InvalidNotation
from .tiles import parse_tile, parse_tiles, tile_str


class Act(StrEnum):
    DISCARD = "discard"  # 打牌
    WIN = "win"  # 胡 (tile: which turned-up 开杠 tile, when there are two)
    PASS = "pass"  # 过 (also: refuse the haidi, decline an opening hand)
    PUNG = "pung"  # 碰
    CHOW = "chow"  # 吃 (tile = lowest tile of the run)
    KONG = (
        "kong"  # 杠 (tile; detail: its KongMode, "bu" 补张 / "kai" 开杠 where the variant distinguishes them)
    )
    OPENING = "opening"  # 起手小胡 declaration (detail = "+"-joined hand ids)
    TAKE = "take"  # 要海底
    CHOOSE = "choose"  # pre-hand choices: 飘 / 加锤 (detail = number), 定缺 (detail = suit letter)


class KongMode(StrEnum):
    """How a kong draws its replacement, where the variant distinguishes 补 and 开 (the kong's detail)."""

    PLAIN = ""  # a kong in a variant without the choice: one replacement from the back
    BU = "bu"  # 补张: one replacement from the back, play on freely
    KAI = "kai"  # 开杠: dice, a tile (or a whole stack) from the back; the hand locks


# What each action carries in its text form: a tile always, a tile sometimes (a win on one of the tiles a
# two-tile 开杠 turned up), a detail word (kong mode, opening hand ids joined by "+", a pre-hand choice).
_TILE_ALWAYS = frozenset({Act.DISCARD, Act.CHOW, Act.KONG})
_TILE_MAYBE = frozenset({Act.WIN})
_DETAIL = frozenset({Act.KONG, Act.OPENING, Act.CHOOSE})
_OPENING_JOIN = "+"  # the opening hand ids of one OPENING action, in its detail word


@dataclass(frozen=True, slots=True, order=True)
class Action:
    """One decision of one seat. ``detail`` is the action's word in its text form (``1 kong 5m kai``); read it
    through the typed accessors (``kong_mode``, ``opening_hands``, ``choice``, ``picked_tiles``) and make
    such actions with ``kong``, ``opening`` and ``choose``."""

    seat: int
    act: Act
    tile: int | None = None
    detail: str = ""

    @classmethod
    def kong(cls, seat: int, tile: int, mode: KongMode) -> Action:
        return cls(seat, Act.KONG, tile, mode)

    @classmethod
    def opening(cls, seat: int, hands: Iterable[str]) -> Action:
        """Declare these opening hands (起手小胡 / 扳牌) at once."""
        return cls(seat, Act.OPENING, None, _OPENING_JOIN.join(hands))

    @classmethod
    def choose(cls, seat: int, choice: str) -> Action:
        return cls(seat, Act.CHOOSE, None, choice)

    @property
    def kong_mode(self) -> KongMode:
        """A kong's way of drawing its replacement: 补张, 开杠, or PLAIN where the variant has no choice."""
        if self.act != Act.KONG:
            raise ValueError(f"{self} is not a kong")
        return KongMode(self.detail)

    @property
    def opening_hands(self) -> tuple[str, ...]:
        """The opening hand ids an OPENING action declares (variant ids such as ``sixi``)."""
        if self.act != Act.OPENING:
            raise ValueError(f"{self} declares no opening hand")
        return tuple(self.detail.split(_OPENING_JOIN))

    @property
    def choice(self) -> str:
        """A pre-hand choice as the variant offers it: 飘 / 加锤 a number, 定缺 a suit letter, 换三张 three
        tiles in notation (``picked_tiles``)."""
        if self.act != Act.CHOOSE:
            raise ValueError(f"{self} is no pre-hand choice")
        return self.detail

    @property
    def picked_tiles(self) -> list[int]:
        """The tiles a choice in tile notation picks (换三张: the three passed on), sorted."""
        return parse_tiles(self.choice)

    def __str__(self) -> str:
        parts = [str(self.seat), self.act.value]
        if self.tile is not None:
            parts.append(tile_str(self.tile))
        if self.detail:
            parts.append(self.detail)
        return " ".join(parts)

    @classmethod
    def parse(cls, text: str) -> Action:
        """Inverse of ``str(action)`` for every action the engine makes; raises InvalidNotation."""
        parts = text.split()
        if len(parts) < 2 or not parts[0].isascii() or not parts[0].isdigit():
            raise InvalidNotation(f"not an action: {text!r}")
        try:
            act = Act(parts[1])
        except ValueError:
            raise InvalidNotation(f"unknown action {parts[1]!r}") from None
        rest = parts[2:]
        t: int | None = None
        if act in _TILE_ALWAYS or (act in _TILE_MAYBE and rest):
            if not rest:
                raise InvalidNotation(f"{act.value} needs a tile: {text!r}")
            t = parse_tile(rest[0])
            rest = rest[1:]
        if len(rest) > (1 if act in _DETAIL else 0):
            raise InvalidNotation(f"too many words in {text!r}")
        return cls(int(parts[0]), act, t, rest[0] if rest else "")
