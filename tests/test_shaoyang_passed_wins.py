"""过胡不胡 (missed win): docs/rules/shaoyang.md §9, 裁定 16, with the page's 36筒 example.

In Shaoyang a tile from another seat wins only as 杠上炮 or 抢杠, so the page's example is built from
杠上炮: seat 2 (A) waits on 3p/6p (123m 456m 789s 11z 45p). The dealer 暗杠s 9999m and throws 3p; seat 1
draws, 暗杠s 5555s and throws 6p; seat 3 draws, 暗杠s 2222s and throws 6p.
"""

from __future__ import annotations

from engine import Act, Phase

from .dealing import act, can, discard, discard_drawn, pass_claims
from .shaoyang_helpers import JUNK, deal

A = 2
HANDS = ["9999m3p147s17p2347z", "5555s6p147m39p156z", "123m456m789s11z45p", "2222s6p258m3567z8p"]


def dealer_gangshangpao_3p(draws: str = "8m8m8m"):  # type: ignore[no-untyped-def]
    """The dealer 暗杠s and throws 3p: A may win it (杠上炮)."""
    state = deal(HANDS, draws=draws, back="4z4z4z")
    state = act(state, 0, Act.KONG, "9m")
    state = act(state, 0, Act.DISCARD, "3p")
    assert state.phase == Phase.CLAIM and can(state, A, Act.WIN)
    return state


def test_seed_example_36p_passed_3p_cannot_win_6p_in_the_same_round() -> None:
    """docs/rules/shaoyang.md §9.1, §9.2: waiting on 3p and 6p, after passing a 3p a 6p thrown in the same
    round cannot be won either — no win on anyone's tile until his own next draw, pung or kong."""
    state = dealer_gangshangpao_3p()
    state = act(state, A, Act.PASS)
    assert state.seats[A].passed_wins
    assert state.current == 1
    state = act(state, 1, Act.KONG, "5s")
    state = act(state, 1, Act.DISCARD, "6p")  # 杠上炮 6p: A is not offered the win
    assert not can(state, A, Act.WIN)
    assert state.phase == Phase.CLAIM and can(state, A, Act.CHOW, "4p")  # he may still chow it


def test_after_his_own_draw_a_may_win_again() -> None:
    """docs/rules/shaoyang.md §9.1: … until his own next draw. After A has drawn (and thrown) a tile, seat 3's
    杠上炮 6p is his to win."""
    state = dealer_gangshangpao_3p()
    state = act(state, A, Act.PASS)
    state = act(state, 1, Act.KONG, "5s")
    state = pass_claims(act(state, 1, Act.DISCARD, "6p"))
    assert state.current == A and not state.seats[A].passed_wins  # his own draw ended the block
    state = discard_drawn(state)
    assert state.current == 3
    state = act(state, 3, Act.KONG, "2s")
    state = act(state, 3, Act.DISCARD, "6p")
    assert can(state, A, Act.WIN)


def test_a_pung_ends_the_block() -> None:
    """docs/rules/shaoyang.md §9.1: a pung ends it too: A pungs seat 1's 1z."""
    state = dealer_gangshangpao_3p()
    state = act(state, A, Act.PASS)
    state = act(state, 1, Act.DISCARD, "1z")
    assert can(state, A, Act.PUNG)
    state = act(state, A, Act.PUNG)
    assert not state.seats[A].passed_wins


def test_self_draw_is_not_blocked() -> None:
    """docs/rules/shaoyang.md §9.1: self-draws are not affected. A passes the 3p, then draws the other 3p
    himself and wins."""
    state = dealer_gangshangpao_3p(draws="8m3p")
    state = act(state, A, Act.PASS)
    state = discard(state, 1, "8m")
    assert state.current == A
    assert can(state, A, Act.WIN)


def test_passing_a_robbed_kong_blocks_too() -> None:
    """docs/rules/shaoyang.md §9.1, 裁定 16: every win on another player's tile counts: seat 2 (23m, waits
    1m/4m) passes robbing seat 1's 补杠 of 1m, and then may not win the 4m seat 1 throws straight after that
    kong (杠上炮)."""
    hands = [JUNK[0] + "6z", "1158m69s147p1567z", "23m456s789p234p55s", JUNK[2]]
    state = deal(hands, draws="8s8s8s1m", back="4m")
    state = act(state, 0, Act.DISCARD, "1m")
    state = act(state, 1, Act.PUNG)
    state = discard(state, 1, "5m")
    for _ in range(3):
        state = discard_drawn(state)
    state = act(state, 1, Act.KONG, "1m")
    assert can(state, 2, Act.WIN)
    state = act(state, 2, Act.PASS)
    assert state.seats[2].passed_wins and state.current == 1
    state = act(state, 1, Act.DISCARD, "4m")
    assert not can(state, 2, Act.WIN)
