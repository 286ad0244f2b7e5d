"""Seeded random playouts of whole Xiangyin hands at tables of 2, 3 and 4, with the core invariants after
every step (tests/playout.py) and a few Xiangyin ones: chows only toward one suit and only with 清一色可吃,
small hands only by self-draw (or 杠上炮 / 抢杠 / 海底炮, which are big), settlements that sum to zero.
"""

from __future__ import annotations

import random
from collections import Counter

from engine import Action, MeldKind, Phase, State, get_ruleset, new_hand, replay

from .playout import eager_policy, play_hand, random_policy

RULES = get_ruleset("xiangyin")
HANDS = 2000


def options_for(seed: int) -> dict[str, object]:
    """Every room option takes both values across the seeds."""
    return {
        "birds": (0, 1, 2, 4, 6)[seed % 5],
        "base": (1, 10)[seed // 5 % 2],
        "piao": seed % 3 == 0,
        "qingyise_chow": seed % 2 == 0,
        "jiangjiang_zimo": seed % 7 == 0,
        "no_late_bu": seed % 4 == 0,
        "jiangpeng_not_jiangjiang": seed % 11 == 0,
    }


def xiangyin_invariants(before: State, action: Action, after: State) -> None:
    for s in after.seats:
        chow_suits = {m.tile // 9 for m in s.melds if m.kind == MeldKind.CHOW}
        if chow_suits:
            assert after.options["qingyise_chow"], "a chow without 清一色可吃"
            assert {m.tile // 9 for m in s.melds} == chow_suits, (
                f"a chow with melds of another suit: {s.melds}"
            )
    for st in after.settlements[len(before.settlements) :]:
        assert sum(st.deltas) == 0, st
        if st.kind != "win":
            continue
        for w, names in st.hands:
            payers = {p.payer for p in st.payments if p.payee == w}
            if "xiaohu" in names:
                assert payers == set(range(after.num_seats)) - {w}, f"a small hand not self-drawn: {st}"


def test_2000_random_hands_keep_every_invariant() -> None:
    """Tiles conserved, deltas sum to zero, every hand ends; random and eager players at 2, 3 and 4 seats,
    every room option on and off, hidden tiles checked on every 25th hand."""
    seen: Counter[str] = Counter()
    for seed in range(HANDS):
        rng = random.Random(seed)
        seats = (4, 3, 2)[seed % 3]
        policy = random_policy if seed % 2 else eager_policy
        state = new_hand(RULES, seed, options_for(seed), seats=seats)
        state, _ = play_hand(
            state, rng, [policy] * seats, check_hidden=seed % 25 == 0, on_step=xiangyin_invariants
        )
        assert state.phase == Phase.ENDED and state.result is not None
        assert sum(state.result.deltas) == 0
        seen[state.result.reason] += 1
        seen[f"seats{seats}"] += 1
        seen["chow"] += any(m.kind == MeldKind.CHOW for s in state.seats for m in s.melds)
        seen["kaigang"] += any(s.locked for s in state.seats)
        for st in state.settlements:
            for _, names in st.hands:
                seen.update(set(names))
    # the playouts must reach the Xiangyin branches, or they prove little (清一色, 海底炮 and the luxury seven
    # pairs are too rare for random players; the clause tests set them up)
    for name in (
        "xiaohu",
        "pengpenghu",
        "qidui",
        "quanqiuren",
        "haidilaoyue",
        "gangshangkaihua",
        "gangshangpao",
        "qiangganghu",
        "fanggang",
        "minggang",
        "angang",
        "chow",
        "kaigang",
    ):
        assert seen[name] > 0, f"no playout reached {name}: {seen}"
    assert seen["win"] > 300 and seen["draw"] > 300, seen


def test_replay_from_the_action_log_gives_the_same_state() -> None:
    """A hand is fully determined by (ruleset, options, seed, actions) — at every table size."""
    for seed in range(45):
        rng = random.Random(seed)
        seats = (4, 3, 2)[seed % 3]
        opts = options_for(seed)
        state, log = play_hand(new_hand(RULES, seed, opts, seats=seats), rng, [eager_policy] * seats)
        assert replay(RULES, seed, log, opts, seats=seats) == state
