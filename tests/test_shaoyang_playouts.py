"""Seeded random playouts of whole Shaoyang hands with the core invariants after every step
(tests/playout.py): 136 tiles conserved, hidden tiles never in another seat's observation, every settlement
sums to zero, every hand ends. Players choose their 加锤 at random too.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from engine import Phase, State, get_variant, new_hand, replay
from engine.variants.shaoyang import MULTIPLIER, hammers

from .playout import assert_reached, eager_policy, play_hand, random_policy

RULES = get_variant("shaoyang")
WAYS = {"zimo", "gangkai", "qianggang", "gangshangpao"}


def check_win_payments(state: State) -> None:
    """Every win is paid as docs/rules/shaoyang.md §7.1 says: 底分 × multiplier × way × shares × 2^(hammers W
    + hammers P), by three payers (自摸, 杠开) or one (杠上炮; 抢杠 and 杠开 after 点杠: 包三家)."""
    base = state.options["base"]
    for st in state.settlements:
        if st.kind != "win":
            continue
        for w, (hand, way) in st.hands:
            assert way in WAYS
            lines = [p for p in st.payments if p.payee == w]
            factor = {"gangshangpao": 1}.get(way, 2) * base * MULTIPLIER[hand]
            if len(lines) == 1 and way != "gangshangpao":
                factor *= 3  # one seat pays for all three
            else:
                assert len(lines) == (1 if way == "gangshangpao" else 3), st
            for p in lines:
                assert p.amount == factor * 2 ** (hammers(state, w) + hammers(state, p.payer)), st


def check_dealer(state: State) -> None:
    assert state.result is not None
    winners = state.result.winners
    if state.dealer in winners:
        assert state.result.next_dealer == state.dealer  # 连庄
    elif winners:
        assert state.result.next_dealer == winners[0]
    else:
        assert state.wall.remaining == 0 and state.result.next_dealer == state.current


def playouts(hands: int) -> Counter[str]:
    """Seeds 0 … hands-1: two in three hands with eager players (they reach kongs, 杠上炮 and 抢杠), one in
    three random; checks every win's payments and the next dealer, returns what the hands reached."""
    seen: Counter[str] = Counter()
    for seed in range(hands):
        rng = random.Random(seed)
        policy = random_policy if seed % 3 == 2 else eager_policy
        opts = {"base": (1, 10, 25)[seed % 3], "jiachui": seed % 7 != 0}
        state = new_hand(RULES, seed, opts)
        state, _ = play_hand(state, rng, [policy] * 4, check_hidden=seed % 50 == 0)
        assert state.phase == Phase.ENDED and state.result is not None
        assert sum(state.result.deltas) == 0
        check_win_payments(state)
        check_dealer(state)
        seen[state.result.reason] += 1
        for st in state.settlements:
            for _, names in st.hands:
                seen.update(names)
    return seen


# the playouts must reach the ways of winning and the kongs, or they prove little (the rare big hands
# — 十三幺, 龙七对, 风一色 — are set up by the clause tests)
REACHED = (
    "pinghu",
    "menqing_pinghu",
    "pengpenghu",
    "zimo",
    "gangkai",
    "gangshangpao",
    "qianggang",
    "angang",
    "bugang",
    "zhigang",
)


def test_300_random_hands_keep_every_invariant() -> None:
    """Seeded random playouts, invariants checked after every step; the default run (2,000 under
    `make soak`)."""
    seen = playouts(300)
    assert_reached(seen, REACHED)
    assert seen["win"] > 45 and seen["draw"] > 45


@pytest.mark.soak
def test_2000_random_hands_keep_every_invariant() -> None:
    """Issue: seeded random playouts of at least 2,000 whole hands, invariants checked after every step
    (seeds 0 … 1999, the default run's 300 among them)."""
    seen = playouts(2000)
    assert_reached(seen, REACHED)
    assert seen["win"] > 300 and seen["draw"] > 300


def test_replay_from_the_action_log_gives_the_same_state() -> None:
    """A hand is fully determined by (variant, options, seed, actions) — 加锤 choices included."""
    for seed in range(30):
        rng = random.Random(seed)
        opts = {"base": 10}
        state, log = play_hand(new_hand(RULES, seed, opts), rng, [eager_policy] * 4)
        assert replay(RULES, seed, log, opts) == state
