"""Helpers for the Shaoyang (邵阳麻将) clause tests: the Shaoyang variant, its junk hands, its arranged deal,
加锤 choices and hand verdicts.

Not tests themselves (pytest collects nothing here); the helpers every variant shares live in dealing.py.
Seats count in play order: seat + 1 is the 下家 (next seat); the dealer holds 14 tiles. ``arranged_hand``
sorts each hand, so the dealer's 14th tile is the highest of his hand (m < s < p < z). 底分 is 1 unless
told, so an amount reads directly as 倍 (multiplier × way × shares × hammers).
"""

from __future__ import annotations

from typing import Any

from engine import Act, Phase, Settlement, State, get_variant

from . import dealing
from .dealing import act, choose_in_seat_order, discard, discard_drawn, win_context

SY = get_variant("shaoyang")

# Junk hands: 13 different isolated tiles, no pair, not ready for anything. They only pass and discard.
JUNK = ("147m258s369p1234z", "258m369s147p1567z", "369m147s258p2345z")


def deal(hands: list[str], base: int = 1, hammers: str | None = "0000", **kw: Any) -> State:
    """An arranged Shaoyang hand, at the dealer's first discard, built by dealing.deal; ``kw``: its draws,
    back, tail, dealer and seed. ``hammers``: each seat's 加锤 ("0".."2") chosen in seat order; None leaves
    the hand in the choosing phase."""
    state = dealing.deal(SY, hands, base=base, **kw)
    return state if hammers is None else choose_hammers(state, hammers)


def choose_hammers(state: State, hammers: str) -> State:
    """Every seat picks its 加锤, in seat order: ``"1110"`` = seats 0-2 one hammer, seat 3 none."""
    assert state.phase == Phase.CHOOSE
    state = choose_in_seat_order(state, hammers)
    assert state.phase == Phase.TURN
    return state


def chow_then_self_draw(base: int = 1, hammers: str = "0000") -> State:
    """Seat 1 chows the dealer's 3s (345s), throws 9s, and three draws later self-draws 1z: 平胡 (2; not
    门前清: the chow is open) × 自摸 (2) × 底分 from each of the three."""
    state = deal(
        [JUNK[0] + "3s", "45s234m789p234p1z9s", JUNK[1], JUNK[2]],
        draws="6m6m6m1z",
        base=base,
        hammers=hammers,
    )
    state = act(state, 0, Act.DISCARD, "3s")
    state = act(state, 1, Act.CHOW, "3s")
    state = discard(state, 1, "9s")
    for _ in range(3):
        state = discard_drawn(state)
    assert state.current == 1
    return act(state, 1, Act.WIN)


def hand_names(settlement: Settlement, seat: int) -> tuple[str, ...]:
    """(hand, way of winning) of a winner, e.g. ("pinghu", "zimo")."""
    return dict(settlement.hands)[seat]


def win_name(hand: str, tile: str, self_draw: bool = True, **flags: Any) -> str | None:
    """Shaoyang's verdict on a complete hand: the paid hand's id, or None if it does not win here.
    ``hand`` is the whole hand with melds in brackets; its concealed part already holds ``tile``."""
    ctx = win_context(SY, hand, tile, self_draw, **flags)
    info = SY.evaluate_win(ctx)
    if info is None:
        return None
    assert SY.could_win(ctx.counts, ctx.melds), "could_win must pass every hand evaluate_win accepts"
    assert len(info.big) + len(info.small) == 1, "no stacking: exactly one hand is paid"
    return info.big[0][0] if info.big else info.small[0]
