"""The Hengyang payment table (docs/rules/hengyang.md §8, 裁定 3–5), at 底分 10 (1 番 = 10) without birds.

Every figure of the examples in docs/rules/hengyang.md §8.5 is reproduced here, including the 清一色 + 七小对
one. Seat 0 deals in every test. Hands: OPEN pungs 9m and throws 9s, then waits 1p/4p for a plain 平和 (not
门前清, so the examples' bare figures); SMALL is a concealed 平和 waiting 1p/4p (门前清 adds 1 番); QIDUI
waits 4m for 七小对 (n = 1); QYS_QD waits 6s for 清一色 + 七小对 (n = 2); LONG waits 9p for 龙七对
(self-drawn only), TRIPLET 1m for 龙七对. The other seats hold junk.
"""

from __future__ import annotations

import pytest

from bot.text import render
from engine import Act, State, get_variant

from .dealing import (
    act,
    check_zero_sum,
    discard,
    discard_drawn,
    hand_names,
    last_settlement,
    paid,
    param_id,
    pass_claims,
)
from .hengyang_helpers import HY, JUNK, deal

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
    """docs/rules/hengyang.md §8.1, §8.5: small self-draw by a non-dealer: the other non-dealers −10, the
    dealer −20."""
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
    """docs/rules/hengyang.md §8.1, §8.5: small self-draw by the dealer: each −20."""
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
    """docs/rules/hengyang.md §8.1, §8.5: small on a discard, a non-dealer dealing in: −10."""
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
    """docs/rules/hengyang.md §8.1, §8.5: small on a discard, the dealer dealing in: −20."""
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
    """docs/rules/hengyang.md §8.1, §8.5: small on a discard, a non-dealer dealing into the dealer: −20."""
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
    """docs/rules/hengyang.md §5.2, §8.2: 门前清 adds 1 番 to each payment: 20 / 30."""
    state = deal([JUNK[0] + "3s", SMALL, JUNK[1], JUNK[2]], draws="4p")
    state = discard(state, 0, "3s")
    state = act(state, 1, Act.WIN)
    settlement = last_settlement(state)
    assert hand_names(settlement, 1) == ["menqianqing", "pinghu"]
    assert paid(settlement) == {0: 30, 2: 20, 3: 20}
    check_zero_sum(state)


def test_menqianqing_dealer_self_draw_each_pays_30() -> None:
    """docs/rules/hengyang.md §8.2: the concealed dealer's small self-draw: 20 + 10 from each."""
    state = deal([SMALL + "3s", JUNK[0], JUNK[1], JUNK[2]], draws="5m5m5m4p")
    state = discard(state, 0, "3s")
    for _ in range(3):
        state = discard_drawn(state)
    state = act(state, 0, Act.WIN)
    assert paid(last_settlement(state)) == {1: 30, 2: 30, 3: 30}


@pytest.mark.parametrize(("discarder", "amount"), [(3, 20), (0, 30)])
def test_menqianqing_on_a_discard(discarder: int, amount: int) -> None:
    """docs/rules/hengyang.md §5.2, 裁定 4: 门前清 counts on a discard too: 10 + 10, or 20 + 10 from the
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


@pytest.mark.parametrize(("hand", "tile", "names"), BIG, ids=param_id)
def test_big_self_draw_by_non_dealer(hand: str, tile: str, names: list[str]) -> None:
    """docs/rules/hengyang.md §8.1, §8.5: big self-draw by a non-dealer: the dealer −40, the others −30;
    清一色
    + 七小对 self-drawn: the dealer −70, the others −60 (30n / 30n+10)."""
    n = len(names)
    state = deal([JUNK[0] + "3s", hand, JUNK[1], JUNK[2]], draws=tile)
    state = discard(state, 0, "3s")
    state = act(state, 1, Act.WIN)
    settlement = last_settlement(state)
    assert hand_names(settlement, 1) == names
    assert paid(settlement) == {0: 30 * n + 10, 2: 30 * n, 3: 30 * n}
    assert paid(settlement) == ({0: 40, 2: 30, 3: 30} if n == 1 else {0: 70, 2: 60, 3: 60})
    check_zero_sum(state)


@pytest.mark.parametrize(("hand", "tile", "names"), BIG, ids=param_id)
def test_big_self_draw_by_dealer(hand: str, tile: str, names: list[str]) -> None:
    """docs/rules/hengyang.md §8.1, §8.5: big self-draw by the dealer: each −40 (30n+10)."""
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


@pytest.mark.parametrize(("hand", "tile", "names"), BIG, ids=param_id)
def test_big_on_discard_between_non_dealers(hand: str, tile: str, names: list[str]) -> None:
    """docs/rules/hengyang.md §8.1, §8.5: big on a discard, a non-dealer dealing in: −60; 清一色 + 七小对:
    −120 (60n): each big hand its self-draw 30, doubled as a discard, and the arithmetic says so."""
    n = len(names)
    state = deal([JUNK[0] + "3s", JUNK[1], hand, JUNK[2]], draws=tile)
    state = discard(state, 0, "3s")
    state = act(state, 1, Act.DISCARD, tile)
    state = act(state, 2, Act.WIN)
    settlement = last_settlement(state)
    assert hand_names(settlement, 2) == names
    assert paid(settlement) == {1: 60 * n}
    [payment] = settlement.payments
    assert [p.value for p in payment.parts[: n + 1]] == [3] * n + [2]
    assert "点炮 ×2" in render.payment_line(get_variant("hengyang"), payment, ["A", "B", "C", "D"])
    assert settlement.deltas == (0, -60 * n, 60 * n, 0)
    check_zero_sum(state)


@pytest.mark.parametrize(("hand", "tile", "names"), BIG, ids=param_id)
def test_big_on_discard_dealer_deals_in(hand: str, tile: str, names: list[str]) -> None:
    """docs/rules/hengyang.md §8.1, §8.5: big on a discard, the dealer dealing in: −70; 清一色 + 七小对: −140
    (70n)."""
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


@pytest.mark.parametrize(("hand", "tile", "names"), BIG, ids=param_id)
def test_big_on_discard_dealer_wins(hand: str, tile: str, names: list[str]) -> None:
    """docs/rules/hengyang.md §8.1, §8.5: big on a discard, a non-dealer dealing into the dealer: −70
    (70n)."""
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
    """docs/rules/hengyang.md §8.2, 裁定 5: 龙七对 = 七小对 + 1 番 from each payer: 40 / 50."""
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
    """docs/rules/hengyang.md §7.6, §8.2, 裁定 5: five pairs and a triplet won on its fourth on a discard is
    龙七对, 七小对 + 1 番 to each payment: 60 + 10, or 70 + 10."""
    state = deal_in(TRIPLET, "1m", discarder)
    settlement = last_settlement(state)
    assert hand_names(settlement, 1) == ["longqidui"]
    assert paid(settlement) == {discarder: amount}


@pytest.mark.parametrize(("discarder", "amount"), [(2, 60), (0, 70)])
def test_longqidui_second_form_on_a_discard_pays_as_qidui(discarder: int, amount: int) -> None:
    """docs/rules/hengyang.md §7.6, 裁定 5: a four, four pairs and a single won on a discard is a plain
    七小对: 60, or 70 from the dealer."""
    state = deal_in(LONG, "9p", discarder)
    settlement = last_settlement(state)
    assert hand_names(settlement, 1) == ["qidui"]
    assert paid(settlement) == {discarder: amount}


# ---------------------------------------------------------------- 底分


@pytest.mark.parametrize(("base", "dealer_pays", "other_pays"), [(1, 3, 2), (5, 15, 10), (100, 300, 200)])
def test_payments_scale_with_base(base: int, dealer_pays: int, other_pays: int) -> None:
    """docs/rules/hengyang.md §8.3, §14.2: 1 番 = 底分, a room option (default 1); the figures are at 底分
    10."""
    state = deal([JUNK[0] + "3s", SMALL, JUNK[1], JUNK[2]], draws="4p", base=base)
    state = discard(state, 0, "3s")
    state = act(state, 1, Act.WIN)
    assert paid(last_settlement(state)) == {0: dealer_pays, 2: other_pays, 3: other_pays}


def test_room_option_defaults() -> None:
    """docs/rules/hengyang.md §14.1, §14.2: the room options' defaults: 底分 1, 2 birds."""
    opts = HY.make_options()
    assert opts["base"] == 1 and opts["birds"] == 2
