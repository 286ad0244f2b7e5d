"""Win payments: 底分 × 2^fan capped at the room's cap, who pays, 自摸加底 / 自摸加番 (docs/rules/sichuan.md
§6, 裁定 12, 裁定 17).

Seat 0 deals and throws its 14th tile first. Hands for seat 1:
PINGHU  123m456m789m23s55s waits 1s/4s (平胡 0),
DUIDUI  333m666m222s888s4s waits 4s (对对胡 1),
QLQD    6666p11p33p77p99p2p waits 2p (清龙七对 5)."""

from __future__ import annotations

import pytest

from engine import Act

from .dealing import act, discard, flows, hand_names, last_settlement, paid
from .sichuan_helpers import J0, J1, J2, J3, deal

PINGHU = "123m456m789m23s55s"
DUIDUI = "333m666m222s888s4s"
QLQD = "6666p11p33p77p99p2p"


def test_discard_win_the_discarder_pays_base_times_2_to_the_fan() -> None:
    """docs/rules/sichuan.md §6.1, §6.2: a win pays 底分 × 2^fan; on a discard the discarder pays. 平胡 (0) on
    the dealer's 4s: 1."""
    state = deal([J0 + "4s", PINGHU, J1, J2])
    state = act(state, 0, Act.DISCARD, "4s")
    state = act(state, 1, Act.WIN)
    settlement = last_settlement(state)
    assert hand_names(settlement, 1) == ["pinghu"]
    assert settlement.deltas == (-1, 1, 0, 0)


def test_base_is_a_room_option() -> None:
    """docs/rules/sichuan.md §14.7: 底分 is a room option. 对对胡 (1 番) at 底分 5: 5 × 2 = 10."""
    state = deal([J0 + "4s", DUIDUI, J1, J2], base=5)
    state = act(state, 0, Act.DISCARD, "4s")
    state = act(state, 1, Act.WIN)
    assert last_settlement(state).deltas == (-10, 10, 0, 0)


def test_self_draw_everyone_still_in_pays_plus_zimo_jiadi() -> None:
    """docs/rules/sichuan.md §6.2, §6.3: on a self-draw each player still in pays, 1 base more (自摸加底).
    对对胡 self-drawn: 2 + 1 from each of the three."""
    state = deal([J0 + "3p", DUIDUI, J1, J2], draws="4s")
    state = discard(state, 0, "3p")
    state = act(state, 1, Act.WIN)
    settlement = last_settlement(state)
    assert hand_names(settlement, 1) == ["duiduihu", "zimo_jiadi"]
    assert paid(settlement) == {0: 3, 2: 3, 3: 3}


def test_zimo_jiafan_option() -> None:
    """docs/rules/sichuan.md §6.3: with 自摸加番 a self-draw is +1 fan instead: 对对胡 self-drawn is 2 番, 4
    from each."""
    state = deal([J0 + "3p", DUIDUI, J1, J2], draws="4s", zimo="jiafan")
    state = discard(state, 0, "3p")
    state = act(state, 1, Act.WIN)
    settlement = last_settlement(state)
    assert hand_names(settlement, 1) == ["duiduihu", "zimo_jiafan"]
    assert paid(settlement) == {0: 4, 2: 4, 3: 4}


def test_players_who_have_won_pay_nothing() -> None:
    """docs/rules/sichuan.md §6.2, 裁定 17: on a self-draw each player still in pays. Seat 1 wins first; seat
    2's later self-draw (平胡 on 6s) is paid by seats 0 and 3 only, 1 + 1 each."""
    state = deal([J0 + "4s", DUIDUI, "123p456p789p57s77s", J2], draws="6s")
    state = act(state, 0, Act.DISCARD, "4s")
    state = act(state, 1, Act.WIN)
    assert state.current == 2 and state.seats[2].counts[14] == 1  # seat 2 has drawn the 6s
    state = act(state, 2, Act.WIN)
    settlement = last_settlement(state)
    assert settlement.winners == (2,)
    assert paid(settlement) == {0: 2, 3: 2}


@pytest.mark.parametrize(("cap", "each"), [(2, 4), (3, 8), (4, 16), (5, 32), (6, 32)])
def test_fan_cap_is_a_room_option(cap: int, each: int) -> None:
    """docs/rules/sichuan.md §6.1: 底分 × 2^fan, the fan counted up to the cap (default 3 番). 清龙七对 (5 番)
    on a discard: 2^min(5, cap)."""
    state = deal([J0 + "2p", QLQD, J1, J3], cap=cap)
    state = act(state, 0, Act.DISCARD, "2p")
    state = act(state, 1, Act.WIN)
    assert last_settlement(state).deltas == (-each, each, 0, 0)


def test_default_cap_is_3_fan() -> None:
    """docs/rules/sichuan.md §6.1, §6.5: capped at the room's cap (default 3 番): 清龙七对 pays 8."""
    state = deal([J0 + "2p", QLQD, J1, J3])
    state = act(state, 0, Act.DISCARD, "2p")
    state = act(state, 1, Act.WIN)
    assert last_settlement(state).deltas == (-8, 8, 0, 0)


def test_zimo_jiadi_is_added_after_the_cap() -> None:
    """docs/rules/sichuan.md §6.3, 裁定 12: the cap limits the fan; 自摸加底 is a base added on top (8 + 1).
    With 自摸加番 the extra fan is under the cap (still 8)."""
    for zimo, each in (("jiadi", 9), ("jiafan", 8)):
        state = deal([J0 + "4s", QLQD, J1, J3], draws="2p", zimo=zimo)
        state = discard(state, 0, "4s")
        state = act(state, 1, Act.WIN)
        assert paid(last_settlement(state)) == {0: each, 2: each, 3: each}, zimo


def test_yipao_duoxiang_the_discarder_pays_each_winner() -> None:
    """docs/rules/sichuan.md §3.4: 一炮多响 — the dealer's 4s: seat 1 (对对胡, 2) and seat 2 (平胡 on 456s, 1)
    both win, both paid by the dealer."""
    state = deal([J0 + "4s", DUIDUI, "123p456p789p56s77s", J2])
    state = act(state, 0, Act.DISCARD, "4s")
    state = act(state, 2, Act.WIN)
    state = act(state, 1, Act.WIN)
    settlement = last_settlement(state)
    assert settlement.winners == (1, 2)
    assert flows(settlement) == {(0, 1, 2), (0, 2, 1)}
    assert state.seats[1].won and state.seats[2].won
