"""The wall (牌墙): stacks (墩) of two tiles, drawn from the front, replaced from the back.

Positions 2k and 2k+1 are the top and bottom tile of stack k. Normal draws take the lowest position left;
kong replacements take the top of the last stack that still has a tile, then its bottom; 开杠 with dice
takes the top (else the bottom) of the N-th remaining stack counted from the back. Immutable: every take
returns a new Wall.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Wall:
    tiles: tuple[int, ...]
    taken: int = 0  # bitmask of positions already taken
    remaining: int = -1

    def __post_init__(self) -> None:
        if self.remaining < 0:
            object.__setattr__(self, "remaining", len(self.tiles) - self.taken.bit_count())

    @classmethod
    def shuffled(cls, rng: random.Random, tiles: Iterable[int]) -> Wall:
        """The tile set (a variant's ``tile_set``) shuffled by ``rng``."""
        order = list(tiles)
        rng.shuffle(order)
        return cls(tuple(order))

    @property
    def stacks(self) -> int:
        return len(self.tiles) // 2

    def _take(self, pos: int) -> tuple[int, Wall]:
        # every draw makes a Wall: filled through a same-slots twin (no __init__ / __post_init__, no frozen
        # __setattr__), then given its real class — as engine/state.py's evolve does
        w: Any = _new(_WallSlots)
        w.tiles = self.tiles
        w.taken = self.taken | (1 << pos)
        w.remaining = self.remaining - 1
        w.__class__ = Wall
        return self.tiles[pos], w

    def _front_pos(self) -> int:
        # lowest clear bit of `taken`
        inv = ~self.taken
        return (inv & -inv).bit_length() - 1

    def draw_front(self) -> tuple[int, Wall]:
        if self.remaining <= 0:
            raise IndexError("the wall is empty")
        # _take(_front_pos()) inlined: every step draws
        taken = self.taken
        inv = ~taken
        low = inv & -inv  # the lowest clear bit of `taken`
        w: Any = _new(_WallSlots)
        w.tiles = tiles = self.tiles
        w.taken = taken | low
        w.remaining = self.remaining - 1
        w.__class__ = Wall
        return tiles[low.bit_length() - 1], w

    def peek_front(self, n: int) -> tuple[int, ...]:
        """The next n tiles a front draw would give (fewer if the wall is short); nothing is taken."""
        out: list[int] = []
        pos = self._front_pos()
        while len(out) < n and pos < len(self.tiles):
            if not self.taken >> pos & 1:
                out.append(self.tiles[pos])
            pos += 1
        return tuple(out)

    def _stacks_from_back(self) -> list[int]:
        return [k for k in range(self.stacks - 1, -1, -1) if (self.taken >> (2 * k)) & 3 != 3]

    def _take_from_stack(self, k: int) -> tuple[int, Wall]:
        top = 2 * k
        return self._take(top if not self.taken >> top & 1 else top + 1)

    def draw_back(self) -> tuple[int, Wall]:
        """Kong replacement (补张): top of the last stack, then its bottom."""
        if self.remaining <= 0:
            raise IndexError("the wall is empty")
        pos = len(self.tiles) - 1
        while self.taken >> pos & 1:
            pos -= 1
        return self._take_from_stack(pos // 2)

    def draw_dice(self, n: int) -> tuple[int, Wall]:
        """开杠: the N-th remaining stack from the back; beyond the remaining stacks, the last stack.

        Dice beyond the stacks left take the last stack, read as the back-most one (the same stack a plain
        replacement uses): docs/rules/changsha.md 裁定 1.
        """
        stacks = self._stacks_from_back()
        if not stacks:
            raise IndexError("the wall is empty")
        k = stacks[n - 1] if n <= len(stacks) else stacks[0]
        return self._take_from_stack(k)

    def draw_dice_stack(self, n: int) -> tuple[tuple[int, ...], Wall]:
        """Two-tile 开杠 (Hengyang, Xiangyin): every tile left in the N-th remaining stack from the back
        (a stack with one tile still counts; beyond the remaining stacks, the back-most one)."""
        stacks = self._stacks_from_back()
        if not stacks:
            raise IndexError("the wall is empty")
        k = stacks[n - 1] if n <= len(stacks) else stacks[0]
        out: list[int] = []
        wall = self
        for pos in (2 * k, 2 * k + 1):
            if not wall.taken >> pos & 1:
                t, wall = wall._take(pos)
                out.append(t)
        return tuple(out), wall

    def positions_left(self) -> list[int]:
        return [p for p in range(len(self.tiles)) if not self.taken >> p & 1]


_new = object.__new__
_WallSlots = type("_WallSlots", (object,), {"__slots__": Wall.__slots__})
