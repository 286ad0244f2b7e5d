"""Events returned by ``apply``: what happened, for logs and for animating the table.

Every fact is a typed field (tiles, the meld made, the kong mode, the dice, hand ids, the settlement), so a
front end never parses text. An event with ``private=True`` carries a tile only its own seat may see (a
draw); ``visible_to`` and ``public`` filter.
"""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING, NamedTuple

from .actions import Act, KongMode
from .melds import Meld
from .tiles import tile_str

if TYPE_CHECKING:
    from .state import HandResult, Settlement


class EventKind(StrEnum):
    DRAW = "draw"  # a tile from the wall (``kong``: a kong replacement, ``mode`` its mode); private
    DISCARD = "discard"  # ``auto``: made for a locked hand (开杠)
    CHOW = "chow"  # ``meld``: the run made
    PUNG = "pung"  # ``meld``
    KONG = "kong"  # ``meld`` (its kind), ``mode``; a concealed kong is private unless the variant shows it
    KONG_DECLARED = "kong_declared"  # a 补杠 (or a kong of a turned-up tile) waits for a rob window
    ROB_PASSED = "rob_passed"  # nobody robbed the kong: it goes on
    DICE = "dice"  # ``dice``: the two dice of an 开杠
    KONG_TILES = "kong_tiles"  # ``tiles``: what a two-tile 开杠 turned up
    KONG_TILES_FALL = "kong_tiles_fall"  # ``tiles``: the turned-up tiles nobody kept, now in the river
    WIN = "win"  # ``tile`` (None: 天胡 on the dealt tiles), ``hands``: hand ids
    SETTLE = "settle"  # ``settlement``: the payments of a win, an opening hand, a kong or a drawn hand
    CONTINUE = "continue"  # 血战: the hand goes on; ``wins``: wins so far
    END = "end"  # ``result``: the hand is over
    OPENING = "opening"  # ``hands``: the opening hands declared
    OPENING_PASS = "opening_pass"  # an opening hand not declared
    ANSWER = "answer"  # ``answer``: PASS or a claim, to a claim window; private
    PASSED_WIN = "passed_win"  # 漏胡: a win was passed; private
    CHOSEN = "chosen"  # a pre-hand choice was made (its value hidden until every seat has chosen)
    CHOICES = "choices"  # ``choices``: every seat's pre-hand choice, public
    HAIDI_OFFER = "haidi_offer"
    HAIDI_REFUSE = "haidi_refuse"
    HAIDI_TAKE = "haidi_take"  # ``tile``
    HAIDI_SHOW = "haidi_show"  # ``tile``: the taker did not win, the tile is shown
    VARIANT = "variant"  # a variant's own event (换三张 …): ``note`` its id (the variant's notes name it)


class Event(NamedTuple):
    """One thing that happened. A NamedTuple rather than a frozen dataclass: ``apply`` makes several per
    action, and a tuple is built several times faster; it is just as immutable and typed."""

    kind: EventKind
    seat: int | None = None
    tile: int | None = None
    private: bool = False
    tiles: tuple[int, ...] = ()
    meld: Meld | None = None
    mode: KongMode | None = None
    kong: bool = False  # a draw that is a kong replacement
    auto: bool = False  # a discard made automatically (locked hand)
    dice: tuple[int, ...] = ()
    hands: tuple[str, ...] = ()
    answer: Act | None = None
    choices: tuple[str | None, ...] = ()
    wins: int = 0  # CONTINUE: wins so far
    settlement: Settlement | None = None
    result: HandResult | None = None
    note: str = ""  # VARIANT: which event, an id the variant's ``notes`` name
    # VARIANT: tiles passed between seats (换三张): the seat ``tiles`` came from, and the seat this seat's own
    # went to; public, as the direction is
    from_seat: int | None = None
    to_seat: int | None = None

    def visible_to(self, seat: int) -> bool:
        return not self.private or self.seat == seat

    def public(self) -> Event:
        """What the other seats may learn of it: a private event keeps its kind, seat, whether it was a
        kong replacement, its note (a variant's event id, e.g. "换三张: tiles received") and which seats tiles
        passed between — never its tiles or answer."""
        if not self.private:
            return self
        return Event(
            self.kind, self.seat, kong=self.kong, note=self.note, from_seat=self.from_seat,
            to_seat=self.to_seat,
        )  # fmt: skip

    def __str__(self) -> str:
        bits: list[str] = [self.kind.value]
        if self.seat is not None:
            bits.append(f"seat={self.seat}")
        if self.tile is not None:
            bits.append(tile_str(self.tile))
        if self.meld is not None:
            bits.append(str(self.meld))
        if self.mode:
            bits.append(self.mode.value)
        if self.kong:
            bits.append("kong")
        if self.auto:
            bits.append("auto")
        if self.tiles:
            bits.append(" ".join(tile_str(t) for t in self.tiles))
        if self.dice:
            bits.append("+".join(str(d) for d in self.dice))
        if self.hands:
            bits.append("+".join(self.hands))
        if self.answer is not None:
            bits.append(self.answer.value)
        if self.choices:
            bits.append(" ".join(str(c) for c in self.choices))
        if self.wins:
            bits.append(f"{self.wins} won")
        if self.settlement is not None:
            bits.append(" ".join(f"{d:+d}" for d in self.settlement.deltas))
        if self.result is not None:
            bits.append(f"{self.result.reason} next_dealer={self.result.next_dealer}")
        if self.from_seat is not None:
            bits.append(f"from={self.from_seat}")
        if self.to_seat is not None:
            bits.append(f"to={self.to_seat}")
        if self.note:
            bits.append(self.note)
        return " ".join(bits)
