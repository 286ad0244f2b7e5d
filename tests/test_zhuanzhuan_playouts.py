"""Seeded random playouts of whole 转转麻将 hands with the core invariants after every step
(tests/playout.py): 108 tiles conserved, hidden tiles never in another seat's observation, every settlement as
docs/rules/zhuanzhuan.md §5–§7 say and summing to zero, the next dealer, every hand ends; replay and notation
round-trip.
"""

from __future__ import annotations

import random

import pytest

from engine import new_hand, replay

from .playout import assert_reached, eager_policy, play_hand
from .zhuanzhuan_helpers import ZZ, playouts, room_options

# the playouts must reach every way of winning, every kong and the refund, or they prove little
REACHED = ("pinghu", "zimo", "jiepao", "qianggang", "angang", "bugang", "zhigang", "tuigang", "multi")
ARRANGED = ("qidui", "multi")  # rare in random play: set up by the clause tests


def test_300_random_hands_keep_every_invariant() -> None:
    """Seeded random playouts, invariants checked after every step; the default run (2,000 under
    `make soak`)."""
    seen = playouts(ZZ, 300, 108)
    assert_reached(seen, REACHED, ARRANGED)
    assert seen["hand:win"] > 100 and seen["hand:draw"] > 45


@pytest.mark.soak
def test_2000_random_hands_keep_every_invariant() -> None:
    """2,000-hand playouts with the core invariants (seeds 0 … 1999, the default 300 among them)."""
    seen = playouts(ZZ, 2000, 108)
    assert_reached(seen, (*REACHED, "qidui"))
    assert seen["hand:win"] > 700 and seen["hand:draw"] > 300


def test_replay_from_the_action_log_gives_the_same_state() -> None:
    """A hand is fully determined by (variant, options, seed, actions)."""
    for seed in range(30):
        opts = room_options(ZZ, seed)
        state, log = play_hand(new_hand(ZZ, seed, opts), random.Random(seed), [eager_policy] * 4)
        assert replay(ZZ, seed, log, opts) == state
