"""Who pays what in 转转麻将 (docs/rules/zhuanzhuan.md §5–§7, 裁定 3–8).

One payment = shares × (way + birds + dealer) × 底分: way 自摸 / 抢杠胡 2, 接炮 1; birds 2 per 159中码 hit or
the 一码全中 bird's rank; dealer +1 with 庄闲. Seat 0 deals; seat 1 wins unless told.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine import Act, State

from .dealing import act, check_zero_sum, discard, discard_drawn, last_settlement, paid
from .zhuanzhuan_helpers import JUNK, NO_HIT, READY, TWO_HITS, ZZ, deal, discard_win, self_draw

# ---------------------------------------------------------------- 自摸 / 接炮


@pytest.mark.parametrize("base", [1, 2])
def test_self_draw_each_other_player_pays_2_base(base: int) -> None:
    """docs/rules/zhuanzhuan.md §5.1, §5.4: a self-draw, each other player pays 2 × 底分 — at 底分 1 and 2, no
    bird hit."""
    state = self_draw(base=base)
    settlement = last_settlement(state)
    assert dict(settlement.hands)[1] == ("pinghu", "zimo")
    assert paid(settlement) == {0: 2 * base, 2: 2 * base, 3: 2 * base}
    assert state.result is not None and state.result.deltas == (-2 * base, 6 * base, -2 * base, -2 * base)
    check_zero_sum(state)


@pytest.mark.parametrize("base", [1, 2])
def test_discard_win_the_discarder_pays_1_base(base: int) -> None:
    """docs/rules/zhuanzhuan.md §5.1, §5.6: a discard win (可接炮): the discarder pays 1 × 底分."""
    state = discard_win(base=base)
    settlement = last_settlement(state)
    assert dict(settlement.hands)[1] == ("pinghu", "jiepao")
    assert paid(settlement) == {0: base}
    check_zero_sum(state)


@pytest.mark.parametrize("base", [1, 2])
def test_dianpao_sanjia_the_discarder_pays_3(base: int) -> None:
    """docs/rules/zhuanzhuan.md §5.6, 裁定 4: with 点炮三家付 the discarder pays for all three, 1 each."""
    state = discard_win(base=base, sanjia=True)
    assert paid(last_settlement(state)) == {0: 3 * base}


def test_sanjia_does_not_change_a_self_draw() -> None:
    """点炮三家付 is about a discard: a self-draw is still paid by each of the three."""
    assert paid(last_settlement(self_draw(sanjia=True))) == {0: 2, 2: 2, 3: 2}


# ---------------------------------------------------------------- 庄闲


@pytest.mark.parametrize("base", [1, 2])
def test_zhuangxian_dealer_pays_one_more(base: int) -> None:
    """docs/rules/zhuanzhuan.md §5.3, §5.8, 裁定 8: 庄闲, the dealer pays and receives 1 more per share — a
    non-dealer's self-draw: the dealer pays 2 + 1, the others 2 (× 底分)."""
    state = self_draw(base=base, zhuangxian=True)
    assert paid(last_settlement(state)) == {0: 3 * base, 2: 2 * base, 3: 2 * base}


def test_zhuangxian_dealer_receives_one_more() -> None:
    """庄闲: the dealer's own self-draw earns 2 + 1 from each."""
    state = deal([READY + "8m", JUNK[0], JUNK[1], JUNK[2]], draws="3s6s3s6p" + NO_HIT, zhuangxian=True)
    state = discard(state, 0, "8m")
    for _ in range(3):
        state = discard_drawn(state)
    assert state.current == 0
    state = act(state, 0, Act.WIN)
    assert paid(last_settlement(state)) == {1: 3, 2: 3, 3: 3}


def test_zhuangxian_on_a_discard_win() -> None:
    """庄闲 on a discard win: the dealer deals in and pays 1 + 1."""
    assert paid(last_settlement(discard_win(zhuangxian=True))) == {0: 2}


def test_without_zhuangxian_the_dealer_is_like_anyone() -> None:
    """庄闲 is an option (default off): without it the dealer pays the plain 2."""
    assert paid(last_settlement(self_draw())) == {0: 2, 2: 2, 3: 2}


# ---------------------------------------------------------------- birds: 159中码


@pytest.mark.parametrize("base", [1, 2])
def test_159_each_hit_adds_2_base_from_each_payer(base: int) -> None:
    """docs/rules/zhuanzhuan.md §6.1, §5.7: a bird of rank 1, 5 or 9 is a hit; each hit adds 2 × 底分 from
    each payer — birds 9m 1s 3s 6s: two hits, each of the three pays (2 + 2 × 2) × 底分."""
    state = self_draw(front=TWO_HITS, base=base)
    settlement = last_settlement(state)
    assert settlement.birds == (8, 9, 11, 14)  # 9m 1s 3s 6s, the wall's front after the winning tile
    assert paid(settlement) == {0: 6 * base, 2: 6 * base, 3: 6 * base}
    assert all(p.hits == 2 for p in settlement.payments)
    # a hit points at the winner (for display), a miss at nobody
    assert settlement.bird_seats == (1, 1, None, None)


def test_159_hits_on_a_discard_win() -> None:
    """159中码 on a discard win: the discarder is the one payer, 1 + 2 per hit — birds 5m 5s 5p 9p: four hits,
    1 + 8 = 9."""
    state = discard_win(front="5m5s5p9p")
    assert paid(last_settlement(state)) == {0: 9}


@pytest.mark.parametrize(("birds", "option", "hits"), [(2, 2, 2), (4, 4, 2), (6, 6, 3)])
def test_bird_count_is_the_room_option(birds: int, option: int, hits: int) -> None:
    """docs/rules/zhuanzhuan.md §6.1: 2, 4 or 6 birds (default 4) from the wall front after a win — the wall
    front 9m 1s 3s 6s 5p 2p: two birds hit twice, four twice, six three times."""
    state = self_draw(front=TWO_HITS + "5p2p", birds=option)
    settlement = last_settlement(state)
    assert len(settlement.birds) == birds
    assert paid(settlement) == {0: 2 + 2 * hits, 2: 2 + 2 * hits, 3: 2 + 2 * hits}


def test_default_is_four_birds() -> None:
    """docs/rules/zhuanzhuan.md §6.1, §9.4: 2/4/6 birds, default 4."""
    assert ZZ.make_options()["birds"] == 4
    assert len(last_settlement(self_draw()).birds) == 4


# ---------------------------------------------------------------- 一码全中


@pytest.mark.parametrize(("bird", "value"), [("1m", 1), ("5s", 5), ("7p", 7), ("9p", 9), ("3s", 3)])
def test_yima_quanzhong_one_bird_worth_its_rank(bird: str, value: int) -> None:
    """docs/rules/zhuanzhuan.md §6.2, 裁定 7: 一码全中, one bird worth its rank — each payer pays 2 + rank."""
    state = self_draw(front=bird + "6s6s6s", yima=True)
    settlement = last_settlement(state)
    assert len(settlement.birds) == 1
    assert paid(settlement) == {0: 2 + value, 2: 2 + value, 3: 2 + value}


def test_yima_quanzhong_at_base_2_and_on_a_discard() -> None:
    """一码全中 × 底分 2 on a discard win: (1 + 7) × 2 from the discarder."""
    state = discard_win(front="7p", yima=True, base=2)
    assert paid(last_settlement(state)) == {0: 16}


# ---------------------------------------------------------------- 抢杠胡


def rob(front: str = NO_HIT, **kw: Any) -> State:
    """Seat 1 pungs the dealer's 9m, throws 9p; three draws later it draws the fourth 9m and adds it to the
    pung (补杠); seat 2 waits on 9m (78m) and robs it. ``front``: the wall's front tiles then (the birds)."""
    state = deal(
        [JUNK[0] + "9m", "99m333m666m99s369p", "78m777s222p333p99p", JUNK[2]],
        draws="8p8p8p9m" + front,
        **kw,
    )
    state = act(state, 0, Act.DISCARD, "9m")
    state = act(state, 1, Act.PUNG)
    state = discard(state, 1, "9p")
    for _ in range(3):
        state = discard_drawn(state)
    assert state.current == 1
    state = act(state, 1, Act.KONG, "9m")
    return act(state, 2, Act.WIN)


@pytest.mark.parametrize("base", [1, 2])
def test_qianggang_the_robbed_player_pays_for_all_three(base: int) -> None:
    """docs/rules/zhuanzhuan.md §4.4, §5.5, 裁定 3: robbing an added kong, paid as a self-draw by the robbed
    player for all three, 3 × 2 × 底分; the robbed kong is not made and earns no kong money."""
    state = rob(base=base)
    settlement = last_settlement(state)
    assert dict(settlement.hands)[2] == ("pinghu", "qianggang")
    assert paid(settlement) == {1: 6 * base}
    assert state.result is not None and state.result.deltas == (0, -6 * base, 6 * base, 0)
    check_zero_sum(state)


def test_qianggang_with_bird_hits_for_all_three() -> None:
    """抢杠胡 with two 159中码 hits (1m 5m): the robbed player pays three shares of 2 + 4."""
    assert paid(last_settlement(rob(front="1m5m3s6s"))) == {1: 18}


def test_qianggang_needs_no_jiepao() -> None:
    """docs/rules/zhuanzhuan.md §4.4, 裁定 3: robbing the kong is always allowed (paid as a self-draw), 可接炮
    or not."""
    assert ZZ.make_options()["jiepao"] is False
    assert paid(last_settlement(rob(jiepao=False))) == {1: 6}
