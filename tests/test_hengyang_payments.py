"""The Hengyang payment table (RULES.md §3; seed 和牌 and 计番方法), at 底分 10 (1 番 = 10) without birds.

Every figure of the seed's 计番方法 is reproduced here, including the 清一色 + 七小对 example. Seat 0 deals
in every test. Hands: OPEN pungs 9m and throws 9s, then waits 1p/4p for a plain 平和 (not 门前清, so the
seed's bare figures); SMALL is a concealed 平和 waiting 1p/4p (门前清 adds 1 番); QIDUI waits 4m for 七小对
(n = 1); QYS_QD waits 6s for 清一色 + 七小对 (n = 2); LONG waits 9p for 龙七对 (self-drawn only), TRIPLET
1m for 龙七对. The other seats hold junk.
"""

from __future__ import annotations

import pytest

from engine import Act, State

from .dealing import (
    act,
    check_zero_sum,
    discard,
    discard_drawn,
    hand_names,
    last_settlement,
    paid,
    pass_claims,
)
from .test_hengyang_helpers import HY, JUNK, deal

OPEN = "99m234m45556s9s23p"  # [999m] 234m 456s 55s 23p after the pung
SMALL = "234m45556s23789p"
QIDUI = "11m33m4m55s77s22p99p"
QYS_QD = "11s33s44s6s77s88s99s"
LONG = "1111m33m55s77s22p9p"  # a four, four pairs and a single: 龙七对 only self-drawn
TRIPLET = "111m33m55s77s22p99p"  # five pairs and a triplet: 龙七对 on 1m, on a discard too
BIG = [(QIDUI, "4m", ["qidui"]), (QYS_QD, "6s", ["qidui", "qingyise"])]


def pung_9m(state: State, seat: int) -> State:
    """The 9m just discarded is punged by ``seat``, who throws 9s; nobody claims it."""
    state = pass_claims(state, keep=lambda s: s == seat)
    state = act(state, seat, Act.PUNG)
    return discard(state, seat, "9s")


# ---------------------------------------------------------------- 小和自摸


def test_small_self_draw_by_non_dealer() -> None:
    """Seed 计番方法: 小和自摸：闲家自摸其他闲家-10分，庄家-20分。 RULES §3: small self-draw 10 / 20."""
    state = deal([JUNK[0] + "3s", OPEN, JUNK[1], JUNK[2]], draws="5m5m5m4p")
    state = pung_9m(act(state, 0, Act.DISCARD, "9m"), 1)
    for _ in range(3):
        state = discard_drawn(state)
    state = act(state, 1, Act.WIN)
    settlement = last_settlement(state)
    assert hand_names(settlement, 1) == ["pinghu"]
    assert paid(settlement) == {0: 20, 2: 10, 3: 10}
    assert state.result is not None and state.result.deltas == (-20, 40, -10, -10)
    check_zero_sum(state)


def test_small_self_draw_by_dealer() -> None:
    """Seed 计番方法: 庄家自摸三家每人-20分。 RULES §3: small self-draw, dealer involved 20."""
    state = deal([OPEN + "7s", JUNK[0], JUNK[1], JUNK[2]], draws="5m5m5m5m4p")
    state = discard(state, 0, "7s")
    state = pung_9m(act(state, 1, Act.DISCARD, "9m"), 0)
    for _ in range(3):
        state = discard_drawn(state)
    state = act(state, 0, Act.WIN)
    settlement = last_settlement(state)
    assert hand_names(settlement, 0) == ["pinghu"]
    assert paid(settlement) == {1: 20, 2: 20, 3: 20}
    assert settlement.deltas == (60, -20, -20, -20)
    check_zero_sum(state)


# ---------------------------------------------------------------- 小和放铳


def test_small_on_discard_between_non_dealers() -> None:
    """Seed 计番方法: 小和放铳：闲家放铳-10分。 Seed 和牌: 小和闲家放铳给闲家计1番。"""
    state = deal([JUNK[0] + "3s", JUNK[1], OPEN, JUNK[2]], draws="5m")
    state = pung_9m(act(state, 0, Act.DISCARD, "9m"), 2)
    state = act(state, 3, Act.DISCARD, "4p")
    state = act(state, 2, Act.WIN)
    settlement = last_settlement(state)
    assert hand_names(settlement, 2) == ["pinghu"]
    assert paid(settlement) == {3: 10}
    assert settlement.deltas == (0, 0, 10, -10)
    check_zero_sum(state)


def test_small_on_discard_dealer_deals_in() -> None:
    """Seed 计番方法: 庄家放铳-20分。 Seed 和牌: 庄家放铳给闲家计2番。"""
    state = deal([JUNK[0] + "3s", OPEN, JUNK[1], JUNK[2]], draws="5m5m5m")
    state = pung_9m(act(state, 0, Act.DISCARD, "9m"), 1)
    state = discard_drawn(discard_drawn(state))
    state = act(state, 0, Act.DISCARD, "4p")
    state = act(state, 1, Act.WIN)
    settlement = last_settlement(state)
    assert hand_names(settlement, 1) == ["pinghu"]
    assert paid(settlement) == {0: 20}
    assert settlement.deltas == (-20, 20, 0, 0)
    check_zero_sum(state)


def test_small_on_discard_dealer_wins() -> None:
    """Seed 计番方法: 闲家放铳给庄家和牌-20分。 Seed 和牌: 闲家放铳给庄家计2番。"""
    state = deal([OPEN + "7s", JUNK[0], JUNK[1], JUNK[2]], draws="5m5m")
    state = discard(state, 0, "7s")
    state = pung_9m(act(state, 1, Act.DISCARD, "9m"), 0)
    state = act(state, 1, Act.DISCARD, "4p")
    state = act(state, 0, Act.WIN)
    settlement = last_settlement(state)
    assert hand_names(settlement, 0) == ["pinghu"]
    assert paid(settlement) == {1: 20}
    assert settlement.deltas == (20, -20, 0, 0)
    check_zero_sum(state)


# ---------------------------------------------------------------- 门前清


def test_menqianqing_adds_one_fan_to_a_small_self_draw() -> None:
    """Seed: 门前清：没有吃、碰、明杠的小和，计1番。 RULES §3: 门前清 adds 1 番 to each payment: 20 / 30."""
    state = deal([JUNK[0] + "3s", SMALL, JUNK[1], JUNK[2]], draws="4p")
    state = discard(state, 0, "3s")
    state = act(state, 1, Act.WIN)
    settlement = last_settlement(state)
    assert hand_names(settlement, 1) == ["menqianqing", "pinghu"]
    assert paid(settlement) == {0: 30, 2: 20, 3: 20}
    check_zero_sum(state)


def test_menqianqing_dealer_self_draw_each_pays_30() -> None:
    """Seed: 门前清 … 计1番; 庄家和牌时加1番 — the concealed dealer's small self-draw: 20 + 10 from each."""
    state = deal([SMALL + "3s", JUNK[0], JUNK[1], JUNK[2]], draws="5m5m5m4p")
    state = discard(state, 0, "3s")
    for _ in range(3):
        state = discard_drawn(state)
    state = act(state, 0, Act.WIN)
    assert paid(last_settlement(state)) == {1: 30, 2: 30, 3: 30}


@pytest.mark.parametrize(("discarder", "amount"), [(3, 20), (0, 30)])
def test_menqianqing_on_a_discard(discarder: int, amount: int) -> None:
    """Seed: 门前清：没有吃、碰、明杠的小和 — a discard win counts too (D): 10 + 10, or 20 + 10 from the
    dealer."""
    state = deal([JUNK[0] + "3s", SMALL, JUNK[1], JUNK[2]], draws="5m5m5m")
    state = discard(state, 0, "3s")
    state = discard_drawn(discard_drawn(state))
    if discarder == 3:
        state = act(state, 3, Act.DISCARD, "4p")
    else:
        state = act(discard_drawn(state), 0, Act.DISCARD, "4p")
    state = act(state, 1, Act.WIN)
    assert paid(last_settlement(state)) == {discarder: amount}


# ---------------------------------------------------------------- 大和自摸


@pytest.mark.parametrize(("hand", "tile", "names"), BIG)
def test_big_self_draw_by_non_dealer(hand: str, tile: str, names: list[str]) -> None:
    """Seed 计番方法: 大和自摸：闲家自摸，庄家-40分，其他闲家-30分。 Seed 注：闲家清一色七小对，
    自摸：庄家-70，其他闲家-60。 RULES §3: big self-draw 30n / 30n+10."""
    n = len(names)
    state = deal([JUNK[0] + "3s", hand, JUNK[1], JUNK[2]], draws=tile)
    state = discard(state, 0, "3s")
    state = act(state, 1, Act.WIN)
    settlement = last_settlement(state)
    assert hand_names(settlement, 1) == names
    assert paid(settlement) == {0: 30 * n + 10, 2: 30 * n, 3: 30 * n}
    assert paid(settlement) == ({0: 40, 2: 30, 3: 30} if n == 1 else {0: 70, 2: 60, 3: 60})
    check_zero_sum(state)


@pytest.mark.parametrize(("hand", "tile", "names"), BIG)
def test_big_self_draw_by_dealer(hand: str, tile: str, names: list[str]) -> None:
    """Seed 计番方法: 大和自摸：庄家自摸，闲家每人-40分。 RULES §3: dealer involved 30n+10."""
    n = len(names)
    state = deal([hand + "3s", JUNK[0], JUNK[1], JUNK[2]], draws="5m5m5m" + tile)
    state = discard(state, 0, "3s")
    for _ in range(3):
        state = discard_drawn(state)
    state = act(state, 0, Act.WIN)
    settlement = last_settlement(state)
    assert hand_names(settlement, 0) == names
    assert paid(settlement) == {1: 30 * n + 10, 2: 30 * n + 10, 3: 30 * n + 10}
    check_zero_sum(state)


# ---------------------------------------------------------------- 大和放铳


@pytest.mark.parametrize(("hand", "tile", "names"), BIG)
def test_big_on_discard_between_non_dealers(hand: str, tile: str, names: list[str]) -> None:
    """Seed 计番方法: 大和放铳：闲家放铳-60分。 Seed 注：放铳：闲家放铳-120分。
    RULES §3: big on discard 60n."""
    n = len(names)
    state = deal([JUNK[0] + "3s", JUNK[1], hand, JUNK[2]], draws=tile)
    state = discard(state, 0, "3s")
    state = act(state, 1, Act.DISCARD, tile)
    state = act(state, 2, Act.WIN)
    settlement = last_settlement(state)
    assert hand_names(settlement, 2) == names
    assert paid(settlement) == {1: 60 * n}
    assert settlement.deltas == (0, -60 * n, 60 * n, 0)
    check_zero_sum(state)


@pytest.mark.parametrize(("hand", "tile", "names"), BIG)
def test_big_on_discard_dealer_deals_in(hand: str, tile: str, names: list[str]) -> None:
    """Seed 计番方法: 庄家放铳-70分。 Seed 注：庄家放铳-140分。 RULES §3: big on discard, dealer involved
    70n."""
    n = len(names)
    state = deal([JUNK[0] + "3s", hand, JUNK[1], JUNK[2]], draws="5m5m5m" + tile)
    state = discard(state, 0, "3s")
    for _ in range(3):
        state = discard_drawn(state)
    state = act(state, 0, Act.DISCARD, tile)
    state = act(state, 1, Act.WIN)
    settlement = last_settlement(state)
    assert hand_names(settlement, 1) == names
    assert paid(settlement) == {0: 70 * n}
    assert paid(settlement) == ({0: 70} if n == 1 else {0: 140})
    check_zero_sum(state)


@pytest.mark.parametrize(("hand", "tile", "names"), BIG)
def test_big_on_discard_dealer_wins(hand: str, tile: str, names: list[str]) -> None:
    """Seed 计番方法: 闲家放铳给庄家-70分。 Seed 和牌: 放铳闲家计6番，庄家计7番。 RULES §3: 70n."""
    n = len(names)
    state = deal([hand + "3s", JUNK[0], JUNK[1], JUNK[2]], draws="5m5m" + tile)
    state = discard(state, 0, "3s")
    state = discard_drawn(discard_drawn(state))
    state = act(state, 3, Act.DISCARD, tile)
    state = act(state, 0, Act.WIN)
    settlement = last_settlement(state)
    assert hand_names(settlement, 0) == names
    assert paid(settlement) == {3: 70 * n}
    check_zero_sum(state)


# ---------------------------------------------------------------- 龙七对


def test_longqidui_self_draw_pays_one_fan_more() -> None:
    """Seed: 龙七对 … 计7番 (七小对 计6番). RULES §3 D: 龙七对 = 七小对 + 1 番 to each payment: 40 / 50."""
    state = deal([JUNK[0] + "3s", LONG, JUNK[1], JUNK[2]], draws="9p")
    state = discard(state, 0, "3s")
    state = act(state, 1, Act.WIN)
    settlement = last_settlement(state)
    assert hand_names(settlement, 1) == ["longqidui"]
    assert paid(settlement) == {0: 50, 2: 40, 3: 40}


def deal_in(hand: str, tile: str, discarder: int) -> State:
    """Seat 1 holds ``hand``; ``discarder`` (seat 2, or the dealer a round later) draws ``tile`` and throws
    it, seat 1 wins on it."""
    draws = "5m" + tile if discarder == 2 else "5m5m5m" + tile
    state = deal([JUNK[0] + "3s", hand, JUNK[2], JUNK[1]], draws=draws)
    state = discard_drawn(discard(state, 0, "3s"))
    if discarder == 0:
        state = discard_drawn(discard_drawn(state))
    return act(act(state, discarder, Act.DISCARD, tile), 1, Act.WIN)


@pytest.mark.parametrize(("discarder", "amount"), [(2, 70), (0, 80)])
def test_longqidui_on_a_discard_pays_one_fan_more(discarder: int, amount: int) -> None:
    """docs/rules/hengyang.md 裁定 5 (seed: 龙七对：5组对子加上一组刻子，和牌即为龙七对 … 计7番): five pairs
    and a triplet won on its fourth on a discard is 龙七对, 七小对 + 1 番 to each payment: 60 + 10, or 70 +
    10."""
    state = deal_in(TRIPLET, "1m", discarder)
    settlement = last_settlement(state)
    assert hand_names(settlement, 1) == ["longqidui"]
    assert paid(settlement) == {discarder: amount}


@pytest.mark.parametrize(("discarder", "amount"), [(2, 60), (0, 70)])
def test_longqidui_second_form_on_a_discard_pays_as_qidui(discarder: int, amount: int) -> None:
    """docs/rules/hengyang.md 裁定 5 (seed: 或者有一个杠子加上4组对子和一张单牌，在自摸那张单牌的情况下也为
    龙七对): a four, four pairs and a single won on a discard is a plain 七小对: 60, or 70 from the dealer."""
    state = deal_in(LONG, "9p", discarder)
    settlement = last_settlement(state)
    assert hand_names(settlement, 1) == ["qidui"]
    assert paid(settlement) == {discarder: amount}


# ---------------------------------------------------------------- 底分


@pytest.mark.parametrize(("base", "dealer_pays", "other_pays"), [(1, 3, 2), (5, 15, 10), (100, 300, 200)])
def test_payments_scale_with_base(base: int, dealer_pays: int, other_pays: int) -> None:
    """Seed 计番方法: 如1番=10分。 RULES §1: 底分 (base) is a room option (default 1); 1 番 = 底分."""
    state = deal([JUNK[0] + "3s", SMALL, JUNK[1], JUNK[2]], draws="4p", base=base)
    state = discard(state, 0, "3s")
    state = act(state, 1, Act.WIN)
    assert paid(last_settlement(state)) == {0: dealer_pays, 2: other_pays, 3: other_pays}


def test_room_option_defaults() -> None:
    """RULES §1: 底分 (base) is a room option (default 1); RULES §3: Birds: 2 tiles."""
    opts = HY.make_options()
    assert opts["base"] == 1 and opts["birds"] == 2
