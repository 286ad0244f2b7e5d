"""Helpers for the Xiangyin (湘阴推倒胡) clause tests — the Xiangyin variant, its junk hands, its arranged
deal, 开杠 dice and hand verdicts — and the tests that the helpers themselves are sound (junk hands are dead,
the dice prediction is right).

The helpers every variant shares live in dealing.py. Seats count in play order: seat + 1 is the 下家 (next
seat); the dealer holds 14 tiles. ``arranged_hand`` sorts each hand, so the dealer's 14th tile is simply one
of his tiles. Tables of 2, 3 and 4 players: pass 2, 3 or 4 hands.
"""

from __future__ import annotations

from typing import Any

from engine import Act, State, get_variant, is_ready, parse_tiles_ordered, tile_str
from engine.tiles import to_counts

from . import dealing
from .dealing import act, act_events, choose_in_seat_order, discard, sorted_names, win_context

XY = get_variant("xiangyin")

# Junk hands: every suit, no pair, no run, nothing all-2/5/8, not ready. They only pass.
JUNK = ("679m25689s12489p", "2367m12468s1248p", "23679m279s14689p")


def deal(hands: list[str], birds: int = 0, base: int = 10, piao: list[int] | None = None, **kw: Any) -> State:
    """An arranged Xiangyin hand (no birds, 底分 10 as in the seed's example, unless told), built by
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


# ---------------------------------------------------------------- the helpers are sound


def test_junk_hands_are_dead() -> None:
    """The filler hands never claim or win: no pair, no 2/5/8-only hand, not ready."""
    for h in JUNK:
        counts = to_counts(parse_tiles_ordered(h))
        assert len(parse_tiles_ordered(h)) == 13
        assert max(counts) == 1
        assert not is_ready(XY, counts, ())


def test_kai_dice_predicts_the_engine() -> None:
    """kai_dice() gives the same sum as the engine's "dice" event for the first 开杠 of a hand."""
    for seed in (0, 1, 2):
        state = deal([JUNK[0] + "3s", "555m234s678p23p88s", JUNK[1], JUNK[2]], draws="5m", seed=seed)
        state = discard(state, 0, "3s")
        state, events = act_events(state, 1, Act.KONG, "5m", "kai")
        (dice,) = [e for e in events if e.kind == "dice"]
        assert sum(dice.dice) == kai_dice(seed)


def test_stacks_put_both_tiles_on_the_dice_stack() -> None:
    """deal(stacks={N: "ab"}) places a and b where a 开杠 with dice sum N turns them up."""
    n = kai_dice(0)
    state = deal([JUNK[0] + "3s", "555m234s678p23p88s", JUNK[1], JUNK[2]], draws="5m", stacks={n: "9s1s"})
    state = discard(state, 0, "3s")
    state = act(state, 1, Act.KONG, "5m", "kai")
    assert [tile_str(t) for t in state.seats[1].discards[-2:]] == ["9s", "1s"]
