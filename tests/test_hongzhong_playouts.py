"""Seeded random playouts of whole 红中麻将 hands with the core invariants after every step
(tests/playout.py): 112 tiles conserved (four 红中 among them), 红中 never discarded or melded, hidden
tiles never in another seat's observation, every settlement as RULES.md §7 says and summing to zero, the
next dealer, every hand ends; replay and notation round-trip; perft.
"""

from __future__ import annotations

import random

import pytest

from engine import arranged_hand, legal_actions, new_hand, replay

from .playout import assert_reached, eager_policy, play_hand
from .test_perft import perft
from .test_zhuanzhuan_helpers import HZ, playouts, room_options

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
    """Issue 16: 2,000-hand playouts with the core invariants (seeds 0 … 1999, the default 300 among them)."""
    seen = playouts(HZ, 2000, 112)
    assert_reached(seen, (*REACHED, "qidui", "sihongzhong"))
    assert seen["hand:win"] > 1000 and seen["hand:draw"] > 300


def test_replay_from_the_action_log_gives_the_same_state() -> None:
    """A hand is fully determined by (variant, options, seed, actions) — a 四红中 win at the deal too."""
    for seed in range(30):
        opts = room_options(HZ, seed)
        state, log = play_hand(new_hand(HZ, seed, opts), random.Random(seed), [eager_policy] * 4)
        assert replay(HZ, seed, log, opts) == state


def test_perft_counts() -> None:
    """Perft from a fixed deal with a 红中 in two hands (after python-chess). Depth 1: the dealer holds 13
    distinct tiles besides his 红中, which he may not throw: 13 discards. Depth 2, by hand: 6m, 1s, 7s, 5p
    and 8p may be punged (pung or pass: 10); the 8 other discards open no claim (no chow) and seat 1 draws
    9p, with 10 distinct tiles to throw besides his 红中 (80): 90. Depth 3 pins the rest."""
    hands = ["7z124578s12458p36m", "25667899m1s7z369p", "1199s124578p147m", "69m3667799s5588p"]
    state = arranged_hand(HZ, hands, draws="9p6s2p5m")
    assert all(a.tile != 33 for a in legal_actions(state, 0))
    assert perft(state, 1) == 13
    assert [perft(state, d) for d in (2, 3)] == [90, 970]
