"""The Changsha payment table (docs/rules/changsha.md §8), at 底分 10 and without birds.

Seat 0 deals in every test. Hands: SMALL is ready for a small hand (234m 456s 55s 23p 789p, waits 1p/4p),
QIDUI for 七小对 on 4m (one big hand), HAOHUA for 豪华七小对 on 1m (counts 2). The other seats hold junk; the
dealer's 14th tile is a 3s it throws first, and 5m are filler draws thrown straight back."""

from __future__ import annotations

import pytest

from bot.text import render
from engine import Act

from .changsha_helpers import CS, JUNK, deal
from .dealing import act, check_zero_sum, discard, discard_drawn, hand_names, last_settlement, paid

SMALL = "234m45556s23789p"
QIDUI = "11m33m4m55s77s22p99p"
HAOHUA = "111m33m55s77s22p99p"
BIG = [(QIDUI, "4m", 1), (HAOHUA, "1m", 2)]


# ---------------------------------------------------------------- 小胡自摸


def test_small_self_draw_by_non_dealer() -> None:
    """docs/rules/changsha.md §8.1: small self-draw by a non-dealer: the dealer pays 20, the others 10."""
    state = deal([JUNK[0] + "3s", SMALL, JUNK[1], JUNK[2]], draws="4p")
    state = discard(state, 0, "3s")
    state = act(state, 1, Act.WIN)
    settlement = last_settlement(state)
    assert hand_names(settlement, 1) == ["xiaohu"]
    assert paid(settlement) == {0: 20, 2: 10, 3: 10}
    assert state.result is not None and state.result.deltas == (-20, 40, -10, -10)
    check_zero_sum(state)


def test_small_self_draw_by_dealer() -> None:
    """docs/rules/changsha.md §8.1: small self-draw by the dealer: each pays 20."""
    state = deal([SMALL + "3s", JUNK[0], JUNK[1], JUNK[2]], draws="5m5m5m4p")
    state = discard(state, 0, "3s")
    for _ in range(3):
        state = discard_drawn(state)
    assert state.current == 0
    state = act(state, 0, Act.WIN)
    settlement = last_settlement(state)
    assert hand_names(settlement, 0) == ["xiaohu"]
    assert paid(settlement) == {1: 20, 2: 20, 3: 20}
    assert settlement.deltas == (60, -20, -20, -20)
    check_zero_sum(state)


# ---------------------------------------------------------------- 小胡捉炮


def test_small_on_discard_between_non_dealers() -> None:
    """docs/rules/changsha.md §8.1: small on a discard, the discarder only: 10."""
    state = deal([JUNK[0] + "3s", JUNK[1], SMALL, JUNK[2]], draws="5m")
    state = discard(state, 0, "3s")
    state = act(state, 1, Act.DISCARD, "4p")
    state = act(state, 2, Act.WIN)
    settlement = last_settlement(state)
    assert hand_names(settlement, 2) == ["xiaohu"]
    assert paid(settlement) == {1: 10}
    assert settlement.deltas == (0, -10, 10, 0)
    check_zero_sum(state)


def test_small_on_discard_dealer_deals_in() -> None:
    """docs/rules/changsha.md §8.1: the dealer who deals in pays 20."""
    state = deal([JUNK[0] + "3s", SMALL, JUNK[1], JUNK[2]], draws="5m5m5m5m")
    state = discard(state, 0, "3s")
    for _ in range(3):
        state = discard_drawn(state)
    state = act(state, 0, Act.DISCARD, "4p")  # not the first discard, so no 地胡
    state = act(state, 1, Act.WIN)
    settlement = last_settlement(state)
    assert hand_names(settlement, 1) == ["xiaohu"]
    assert paid(settlement) == {0: 20}
    assert settlement.deltas == (-20, 20, 0, 0)
    check_zero_sum(state)


def test_small_on_discard_dealer_wins() -> None:
    """docs/rules/changsha.md §8.1: a non-dealer dealing into the dealer pays 20."""
    state = deal([SMALL + "3s", JUNK[0], JUNK[1], JUNK[2]], draws="5m5m5m")
    state = discard(state, 0, "3s")
    state = discard_drawn(state)
    state = discard_drawn(state)
    state = act(state, 3, Act.DISCARD, "4p")
    state = act(state, 0, Act.WIN)
    settlement = last_settlement(state)
    assert hand_names(settlement, 0) == ["xiaohu"]
    assert paid(settlement) == {3: 20}
    assert settlement.deltas == (20, 0, 0, -20)
    check_zero_sum(state)


# ---------------------------------------------------------------- 大胡自摸


@pytest.mark.parametrize(("hand", "tile", "n"), BIG)
def test_big_self_draw_by_non_dealer(hand: str, tile: str, n: int) -> None:
    """docs/rules/changsha.md §8.1: big self-draw, n big hands: 30n from a non-dealer, 30n+10 from the dealer
    (n=1: 30/40, n=2 豪华七小对: 60/70)."""
    state = deal([JUNK[0] + "3s", hand, JUNK[1], JUNK[2]], draws=tile)
    state = discard(state, 0, "3s")
    state = act(state, 1, Act.WIN)
    settlement = last_settlement(state)
    assert len(hand_names(settlement, 1)) == n
    assert paid(settlement) == {0: 30 * n + 10, 2: 30 * n, 3: 30 * n}
    check_zero_sum(state)


@pytest.mark.parametrize(("hand", "tile", "n"), BIG)
def test_big_self_draw_by_dealer(hand: str, tile: str, n: int) -> None:
    """docs/rules/changsha.md §8.1: big self-draw by the dealer: each pays 30n+10."""
    state = deal([hand + "3s", JUNK[0], JUNK[1], JUNK[2]], draws="5m5m5m" + tile)
    state = discard(state, 0, "3s")
    for _ in range(3):
        state = discard_drawn(state)
    state = act(state, 0, Act.WIN)
    settlement = last_settlement(state)
    assert len(hand_names(settlement, 0)) == n
    assert paid(settlement) == {1: 30 * n + 10, 2: 30 * n + 10, 3: 30 * n + 10}
    check_zero_sum(state)


# ---------------------------------------------------------------- 大胡捉炮


@pytest.mark.parametrize(("hand", "tile", "n"), BIG)
def test_big_on_discard_between_non_dealers(hand: str, tile: str, n: int) -> None:
    """docs/rules/changsha.md §8.1: big on a discard, n big hands (the discarder only): 60n — each big hand
    its self-draw 30, doubled as a discard (the arithmetic says so: 点炮 ×2)."""
    state = deal([JUNK[0] + "3s", JUNK[1], hand, JUNK[2]], draws=tile)
    state = discard(state, 0, "3s")
    state = act(state, 1, Act.DISCARD, tile)
    state = act(state, 2, Act.WIN)
    settlement = last_settlement(state)
    assert len(hand_names(settlement, 2)) == n
    assert paid(settlement) == {1: 60 * n}
    [payment] = settlement.payments
    labels = [p.label for p in payment.parts]
    at = labels.index("dianpao")
    assert payment.parts[at].value == 2 and sum(p.value for p in payment.parts[:at]) == 3 * n
    assert "点炮 ×2" in render.payment_line(CS, payment, ["A", "B", "C", "D"])
    assert settlement.deltas == (0, -60 * n, 60 * n, 0)
    check_zero_sum(state)


@pytest.mark.parametrize(("hand", "tile", "n"), BIG)
def test_big_on_discard_dealer_deals_in(hand: str, tile: str, n: int) -> None:
    """docs/rules/changsha.md §8.1: the dealer dealing in pays 60n+10."""
    state = deal([JUNK[0] + "3s", hand, JUNK[1], JUNK[2]], draws="5m5m5m" + tile)
    state = discard(state, 0, "3s")
    for _ in range(3):
        state = discard_drawn(state)
    state = act(state, 0, Act.DISCARD, tile)
    state = act(state, 1, Act.WIN)
    settlement = last_settlement(state)
    assert len(hand_names(settlement, 1)) == n
    assert paid(settlement) == {0: 60 * n + 10}
    check_zero_sum(state)


@pytest.mark.parametrize(("hand", "tile", "n"), BIG)
def test_big_on_discard_dealer_wins(hand: str, tile: str, n: int) -> None:
    """docs/rules/changsha.md §8.1: the dealer wins, the discarder pays 60n+10."""
    state = deal([hand + "3s", JUNK[0], JUNK[1], JUNK[2]], draws="5m5m" + tile)
    state = discard(state, 0, "3s")
    state = discard_drawn(state)
    state = discard_drawn(state)
    state = act(state, 3, Act.DISCARD, tile)
    state = act(state, 0, Act.WIN)
    settlement = last_settlement(state)
    assert len(hand_names(settlement, 0)) == n
    assert paid(settlement) == {3: 60 * n + 10}
    check_zero_sum(state)


# ---------------------------------------------------------------- 底分


@pytest.mark.parametrize(("base", "dealer_pays", "other_pays"), [(1, 2, 1), (5, 10, 5), (100, 200, 100)])
def test_payments_scale_with_base(base: int, dealer_pays: int, other_pays: int) -> None:
    """docs/rules/changsha.md §8.2, §15.2: the table's figures × 底分 ÷ 10; 底分 is a room option (default
    1)."""
    state = deal([JUNK[0] + "3s", SMALL, JUNK[1], JUNK[2]], draws="4p", base=base)
    state = discard(state, 0, "3s")
    state = act(state, 1, Act.WIN)
    assert paid(last_settlement(state)) == {0: dealer_pays, 2: other_pays, 3: other_pays}


def test_default_base_is_one() -> None:
    """docs/rules/changsha.md §15.1, §15.2: the room options' defaults: 底分 1, 2 birds."""
    assert CS.make_options()["base"] == 1
    assert CS.make_options()["birds"] == 2
