"""Events returned by ``apply``: what happened, for logs and for animating the table.

An event with ``private=True`` carries a tile only its own seat may see (a draw); ``visible_to`` filters.
"""

from __future__ import annotations

from dataclasses import dataclass

from .tiles import tile_str


@dataclass(frozen=True, slots=True)
class Event:
    kind: str  # draw, discard, pung, chow, kong, dice, win, pass, opening, haidi_offer, haidi_take, ...
    seat: int | None = None
    tile: int | None = None
    detail: str = ""
    private: bool = False

    def visible_to(self, seat: int) -> bool:
        return not self.private or self.seat == seat

    def public(self) -> Event:
        """What the other seats may learn of it: a private event keeps only its kind and seat."""
        return Event(self.kind, self.seat) if self.private else self

    def __str__(self) -> str:
        bits = [self.kind]
        if self.seat is not None:
            bits.append(f"seat={self.seat}")
        if self.tile is not None:
            bits.append(tile_str(self.tile))
        if self.detail:
            bits.append(self.detail)
        return " ".join(bits)
