"""Helpers for the Xiangyin (湘阴推倒胡) clause tests — the Xiangyin variant, its junk hands, its arranged
deal, 开杠 dice and hand verdicts (tests/test_xiangyin_helpers.py checks that they are sound).

The helpers every variant shares live in dealing.py. Seats count in play order: seat + 1 is the 下家 (next
seat); the dealer holds 14 tiles. ``arranged_hand`` sorts each hand, so the dealer's 14th tile is simply one
of his tiles. Tables of 2, 3 and 4 players: pass 2, 3 or 4 hands.
"""

from __future__ import annotations

from typing import Any

from engine import Act, State, get_variant

from . import dealing
from .dealing import choose_in_seat_order, sorted_names, win_context

XY = get_variant("xiangyin")

# Junk hands: every suit, no pair, no run, nothing all-2/5/8, not ready. They only pass.
JUNK = ("679m25689s12489p", "2367m12468s1248p", "23679m279s14689p")


def deal(hands: list[str], birds: int = 0, base: int = 10, piao: list[int] | None = None, **kw: Any) -> State:
    """An arranged Xiangyin hand (no birds, 底分 10 as in docs/rules/xiangyin.md §6.3, unless told), built by
    dealing.deal; ``kw``: its draws, back, tail, dealer, seed, stacks ({N: "ab"} puts a (top) and b (bottom)
    on the N-th stack counted from the back: the stack a 开杠 turns up, N = the dice) and other room options
    by name. ``piao``: turns 加飘 on and every seat picks its 飘 (seat order)."""
    if piao is not None:
        kw["piao"] = True
    state = dealing.deal(XY, hands, birds=birds, base=base, **kw)
    return state if piao is None else choose_in_seat_order(state, piao)


def kai_dice(seed: int = 0, roll: int = 0) -> int:
    """The dice sum of the ``roll``-th 开杠 of a hand with this seed (the engine rolls from its seeded RNG).
    test_kai_dice_predicts_the_engine checks it against the "dice" event, so an engine change shows up."""
    return dealing.kai_dice(XY, seed, roll)


def check_zero_sum(state: State) -> None:
    """Every settlement sums to zero, and so does the result once the hand has ended."""
    dealing.check_zero_sum(state, ended=False)


def win_names(
    hand: str,
    tile: str,
    self_draw: bool = True,
    seat: int = 1,
    dealer: int = 0,
    options: dict[str, Any] | None = None,
    **flags: Any,
) -> list[str] | None:
    """Xiangyin's verdict on a complete hand: sorted hand names (a big hand repeated by its count), or None if
    it does not win here (could_win is asked first). ``hand`` is the whole hand with melds in brackets; its
    concealed part already holds the winning ``tile``."""
    ctx = win_context(XY, hand, tile, self_draw, seat, dealer, options, **flags)
    if not XY.could_win(ctx.counts, ctx.melds):
        return None
    return sorted_names(XY.evaluate_win(ctx))


SMALL = "234m45556s23789p"  # ready for a small hand: 234m 456s 55s 23p 789p, waits 1p/4p


def small_self_draw(birds: str = "", n_birds: int = 0, piao: list[int] | None = None, seats: int = 4):  # type: ignore[no-untyped-def]
    """Seat 1 self-draws a small hand on 4p; ``birds`` lie next on the wall."""
    hands = [JUNK[0] + "3s", SMALL, JUNK[1], JUNK[2]][:seats]
    state = deal(hands, draws="4p" + birds, birds=n_birds, piao=piao)
    state = dealing.discard(state, 0, "3s")
    state = dealing.act(state, 1, Act.WIN)
    check_zero_sum(state)
    return state
