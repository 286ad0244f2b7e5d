"""Perft: exhaustive counts of legal action sequences from a fixed deal (after python-chess's perft).

Every legal action of every seat that must act is followed to the given depth. Depth 1 is counted by hand
below; the deeper counts pin the move generator (claims, priorities, auto-draws) so any change to what is
legal shows up here first.
"""

from __future__ import annotations

from engine import Phase, State, apply, arranged_hand, get_variant, legal_actions, to_act

CHANGSHA = get_variant("changsha")

# Dealer: 123m 456m 789s 22p 345p — already complete (天胡). The others hold no opening hand.
HANDS = ["123m456m789s2234p5p", "1356m1347s1349p9m", "2679m26789s1679p", "3478m3568s3468p1s"]


def perft(state: State, depth: int) -> int:
    """Every legal action of every seat that must act, followed to ``depth`` (python-chess's perft)."""
    if depth == 0 or state.phase == Phase.ENDED:
        return 1
    return sum(
        perft(apply(state, a)[0], depth - 1) for seat in to_act(state) for a in legal_actions(state, seat)
    )


def test_perft_depth_1_is_win_plus_one_discard_per_distinct_tile() -> None:
    """RULES.md §1 "Dealer starts with 14 tiles … dealer discards first": 13 distinct tiles + 天胡."""
    state = arranged_hand(CHANGSHA, HANDS, draws="5p9s2m4m")
    acts = legal_actions(state, 0)
    assert sum(1 for a in acts if a.act.value == "discard") == 13
    assert sum(1 for a in acts if a.act.value == "win") == 1
    assert perft(state, 1) == 14


def test_perft_counts_to_depth_4() -> None:
    state = arranged_hand(CHANGSHA, HANDS, draws="5p9s2m4m")
    assert [perft(state, d) for d in (2, 3, 4)] == [137, 1411, 11931]
