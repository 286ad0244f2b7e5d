"""Smoke: a seeded Changsha hand plays to the end with random legal moves."""

import random

from engine import Phase, apply, get_variant, legal_actions, new_hand, to_act


def test_random_hand_ends_and_scores_sum_to_zero() -> None:
    state = new_hand(get_variant("changsha"), seed=7)
    rng = random.Random(7)
    for _ in range(3000):
        if state.phase == Phase.ENDED:
            break
        seat = rng.choice(to_act(state))
        state, _ = apply(state, rng.choice(legal_actions(state, seat)))
    assert state.phase == Phase.ENDED and state.result is not None
    assert sum(state.result.deltas) == 0
