"""Helpers for the Hengyang (衡阳麻将) clause tests: the Hengyang variant, its junk hands, its arranged deal,
开杠 dice and hand verdicts.

Not tests themselves (pytest collects nothing here); the helpers every variant shares live in dealing.py.
Seats count in play order: seat + 1 is the 下家 (next seat); the dealer holds 14 tiles. Note:
``arranged_hand`` sorts each hand, so the dealer's 14th tile (the one ``state.drawn`` holds at the deal) is
the highest tile of his hand in m < s < p order.
"""

from __future__ import annotations

from typing import Any

from engine import State, get_variant

from . import dealing
from .dealing import pass_openings, sorted_names, win_context

HY = get_variant("hengyang")

# Junk hands: every suit, a 2/5/8 tile, no pair, no run, no 扳牌, not ready. They only pass.
JUNK = ("679m25689s12489p", "2367m12468s1248p", "23679m279s14689p")


def deal(hands: list[str], birds: int = 0, base: int = 10, openings: bool = False, **kw: Any) -> State:
    """An arranged Hengyang hand (no birds, 底分 10 unless told: 1 番 = 10 as in docs/rules/hengyang.md §8.5),
    built by dealing.deal; ``kw``: its draws, back, tail, dealer, seed, stacks ({N: "ab"} puts tiles a (top)
    and b (bottom) on the N-th stack from the back, for 开杠 dice) and other room options. Unless
    ``openings`` is set, every 扳牌 is passed, so the hand is at the dealer's first discard."""
    state = dealing.deal(HY, hands, birds=birds, base=base, **kw)
    return state if openings else pass_openings(state)


def kai_dice(seed: int, roll: int = 0) -> int:
    """The dice sum of the ``roll``-th 开杠 of an arranged hand with this seed (the engine rolls from its
    seeded RNG). Tests check it against the "dice" event, so a change in the engine shows up."""
    return dealing.kai_dice(HY, seed, roll)


def win_names(
    hand: str, tile: str, self_draw: bool = True, seat: int = 1, dealer: int = 0, **flags: Any
) -> list[str] | None:
    """Hengyang's verdict on a complete hand: sorted hand names (a big hand repeated by its count), or
    None if it does not win. ``hand`` is the whole hand with melds in brackets; its concealed part
    already holds the winning ``tile``. Checks that could_win passes every hand evaluate_win accepts."""
    ctx = win_context(HY, hand, tile, self_draw, seat, dealer, **flags)
    assert HY.could_win(ctx.counts, ctx.melds) or HY.evaluate_win(ctx) is None
    return sorted_names(HY.evaluate_win(ctx))


SIXI = "5555m23479s6789p"  # four 5m: 扳牌 四喜


def opening_deal(hand: str, birds: int = 0, draws: str = ""):  # type: ignore[no-untyped-def]
    """Seat 1 holds ``hand``; the 扳牌 phase is left open."""
    return deal([JUNK[0] + "3s", hand, JUNK[1], JUNK[2]], draws=draws, birds=birds, openings=True)
