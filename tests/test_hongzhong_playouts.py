"""Seeded random playouts of whole 红中麻将 hands with the core invariants after every step
(tests/playout.py): 112 tiles conserved (four 红中 among them), 红中 never discarded or melded, hidden
tiles never in another seat's observation, every settlement as docs/rules/zhuanzhuan.md §5–§7 and
docs/rules/hongzhong.md §2 say and summing to zero, the next dealer, every hand ends; replay and notation
round-trip.
"""

from __future__ import annotations

import random

import pytest

from engine import new_hand, replay

from .playout import assert_reached, eager_policy, play_hand
from .zhuanzhuan_helpers import HZ, playouts, room_options

REACHED = ("pinghu", "zimo", "jiepao", "qianggang", "angang", "bugang", "zhigang", "tuigang", "wuhongzhong")
ARRANGED = ("qidui", "sihongzhong", "multi")  # rare in random play: set up by the clause tests


def test_300_random_hands_keep_every_invariant() -> None:
    """Seeded random playouts, invariants checked after every step; the default run (2,000 under
    `make soak`)."""
    seen = playouts(HZ, 300, 112)
    assert_reached(seen, (*REACHED, *ARRANGED), ARRANGED)
    assert seen["hand:win"] > 150 and seen["hand:draw"] > 45


@pytest.mark.soak
def test_2000_random_hands_keep_every_invariant() -> None:
    """2,000-hand playouts with the core invariants (seeds 0 … 1999, the default 300 among them)."""
    seen = playouts(HZ, 2000, 112)
    assert_reached(seen, (*REACHED, "qidui", "sihongzhong"))
    assert seen["hand:win"] > 1000 and seen["hand:draw"] > 300


def test_replay_from_the_action_log_gives_the_same_state() -> None:
    """A hand is fully determined by (variant, options, seed, actions) — a 四红中 win at the deal too."""
    for seed in range(30):
        opts = room_options(HZ, seed)
        state, log = play_hand(new_hand(HZ, seed, opts), random.Random(seed), [eager_policy] * 4)
        assert replay(HZ, seed, log, opts) == state
