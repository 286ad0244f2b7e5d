"""The Xiangyin helpers (tests/xiangyin_helpers.py) are sound: the junk hands are dead, the 开杠 dice
prediction is the engine's, and ``stacks`` puts tiles where a 开杠 turns them up."""

from __future__ import annotations

from engine import Act, is_ready, parse_tiles_ordered, tile_str
from engine.tiles import to_counts

from .dealing import act, act_events, discard
from .xiangyin_helpers import JUNK, XY, deal, kai_dice


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
