"""红中麻将 (docs/rules/hongzhong.md §1, §2, 裁定 1–7): the 112-tile set, 红中 standing for any tile in melds,
pairs and 七小对, what 红中 cannot do, 四红中, 可接炮 only without 红中, 无红中, 红中 as a bird. Everything
else is 转转麻将's (test_zhuanzhuan_*.py), checked here where 红中 changes it.
"""

from __future__ import annotations

import pytest

from engine import (
    Act,
    Action,
    IllegalAction,
    Phase,
    apply,
    legal_actions,
    new_hand,
    parse_tile,
    parse_tiles,
    waits,
)
from engine.tiles import full_set

from .dealing import act, can, check_zero_sum, discard, discard_drawn, last_settlement, paid, param_id
from .zhuanzhuan_helpers import HZ, JUNK, NO_HIT, READY, deal, discard_win, self_draw, win_names

RED = parse_tile("7z")

# ---------------------------------------------------------------- the tiles


def test_112_tiles_with_four_red_dragons() -> None:
    """docs/rules/hongzhong.md §1.1: 112 tiles (108 + four 7z 红中)."""
    assert sorted(HZ.tile_set(4, HZ.make_options())) == full_set(False) + [RED] * 4
    state = new_hand(HZ, 3)
    assert len(state.wall.tiles) == 112


# ---------------------------------------------------------------- 红中 is wild


@pytest.mark.parametrize(
    ("hand", "tile", "names"),
    [
        ("12m7z456m789s111p55p", "5p", ["pinghu", "zimo"]),  # 红中 completes a run (as 3m)
        ("123m456m789s111p5p7z", "5p", ["pinghu", "zimo"]),  # 红中 is the pair's mate
        ("123m456m789s111p7z7z", "1p", ["pinghu", "zimo"]),  # two 红中 are the pair
        ("123m456m789s55p7z7z7z", "5p", ["pinghu", "zimo"]),  # three 红中 are a triplet
        ("13m46m789s111p55p7z7z", "5p", ["pinghu", "zimo"]),  # two 红中 in two runs
        ("1133m5577s99p24p7z7z", "4p", ["qidui", "zimo"]),  # 七小对: each 红中 pairs a single
        ("1133m5577s246p7z7z7z", "6p", ["qidui", "zimo"]),  # 七小对 with three 红中
        ("[333m]456m789s55p1p7z7z", "1p", ["pinghu", "zimo"]),  # with an exposed pung
    ],
    ids=param_id,
)
def test_red_dragon_stands_for_any_tile(hand: str, tile: str, names: list[str]) -> None:
    """docs/rules/hongzhong.md §2.1: 红中 is wild: it stands for any tile in runs, triplets, the pair and
    七小对."""
    assert win_names(HZ, hand, tile) == names


@pytest.mark.parametrize(
    ("hand", "tile"),
    [
        ("13m57m789s111p55p7z", "5p"),  # one 红中, two gaps
        ("1133m5577s99p2p4p6p7z", "6p"),  # 七小对 short of one 红中
        ("124578m1245s147p7z", "7z"),  # junk with a 红中
    ],
)
def test_red_dragon_does_not_make_a_hand_that_is_short(hand: str, tile: str) -> None:
    assert win_names(HZ, hand, tile) is None


def test_seven_pairs_with_wilds_need_the_option() -> None:
    """七小对 (option, default on) with 红中 as pair mates; off, such a hand does not win."""
    assert win_names(HZ, "1133m5577s99p24p7z7z", "4p", options={"qidui": False}) is None


def test_a_red_dragon_may_be_a_fifth_copy() -> None:
    """docs/rules/hongzhong.md 裁定 1: a 红中 stands for any tile, even one whose four copies are in the hand
    — 567m 567m 111s 777s and 7s + 红中 as the pair."""
    assert win_names(HZ, "[111s]556677m7777s7z", "7z") == ["pinghu", "zimo"]


def test_waits_with_a_red_dragon_are_every_tile() -> None:
    """With a 红中 beside four melds, any tile of the set completes the pair (and is a wait)."""
    counts = HZ.make_options()
    hand = [0] * 34
    for t in (0, 1, 2, 3, 4, 5, 15, 16, 17, 18, 18, 18, RED):  # 123m 456m 789s 111p 红中
        hand[t] += 1
    got = waits(HZ, tuple(hand), (), counts)
    assert got == [*range(27), RED]
    assert HZ.shanten(tuple(hand)) == 0


def test_a_ready_hand_without_red_dragons_also_waits_on_one() -> None:
    """Drawing a 红中 completes any ready hand: READY (33p 66p) waits on 3p, 6p and 红中."""
    hand = [0] * 34
    for t in parse_tiles(READY):
        hand[t] += 1
    assert waits(HZ, tuple(hand)) == [parse_tile("3p"), parse_tile("6p"), RED]


# ---------------------------------------------------------------- what 红中 cannot do


def test_red_dragon_cannot_be_discarded() -> None:
    """docs/rules/hongzhong.md §2.2: a 红中 cannot be discarded."""
    state = deal([JUNK[0] + "7z", READY, JUNK[1], JUNK[2]], HZ)
    discards = {a.tile for a in legal_actions(state, 0) if a.act == Act.DISCARD}
    assert RED not in discards and len(discards) == 13
    with pytest.raises(IllegalAction, match="may not discard 7z"):
        act(state, 0, Act.DISCARD, "7z")


def test_red_dragon_cannot_be_punged_or_konged() -> None:
    """docs/rules/hongzhong.md §2.2: 红中 cannot be punged or konged — four 红中 in the dealer's hand offer no
    kong (they win)."""
    state = deal(["124578m1245s7z7z7z7z", JUNK[0], JUNK[1], JUNK[2]], HZ)
    acts = legal_actions(state, 0)
    assert not any(a.act == Act.KONG for a in acts)
    assert any(a.act == Act.WIN for a in acts)
    assert not HZ.claim_allowed(state, 1, Act.PUNG, RED)
    assert not HZ.claim_allowed(state, 1, Act.KONG, RED)
    assert HZ.claim_allowed(state, 1, Act.PUNG, parse_tile("5m"))
    assert not HZ.claim_allowed(state, 1, Act.CHOW, parse_tile("5m"))  # no chow, as 转转


# ---------------------------------------------------------------- 四红中

FOUR_RED = "369m369s369p7z7z7z7z"


def test_four_red_dragons_dealt_win_at_once() -> None:
    """docs/rules/hongzhong.md §2.3, §2.4, 裁定 2: four 红中 in hand win at once, as a self-draw — seat 2,
    dealt four 红中, is offered the win before the dealer's first discard; each other seat pays 2 (+
    birds)."""
    state = deal([JUNK[0] + "8m", JUNK[1], FOUR_RED, JUNK[2]], HZ, draws=NO_HIT)
    assert state.phase == Phase.OPENING and state.current == 2
    assert {a.act for a in legal_actions(state, 2)} == {Act.WIN, Act.PASS}
    state = act(state, 2, Act.WIN)
    settlement = last_settlement(state)
    assert dict(settlement.hands)[2] == ("sihongzhong", "zimo")
    assert paid(settlement) == {0: 2, 1: 2, 3: 2}
    assert state.result is not None and state.result.winners == (2,) and state.result.next_dealer == 2
    check_zero_sum(state)


def test_four_red_dragons_passed_at_the_deal_win_on_the_own_turn() -> None:
    """docs/rules/hongzhong.md §2.5, 裁定 3: the holder may pass at the deal; four 红中 still win whenever he
    has a turn."""
    state = deal([JUNK[0] + "8m", FOUR_RED, JUNK[1], JUNK[2]], HZ, draws="9s")
    state = act(state, 1, Act.PASS)
    assert state.phase == Phase.TURN and state.current == 0
    state = discard(state, 0, "8m")
    assert state.current == 1 and can(state, 1, Act.WIN)
    state = act(state, 1, Act.WIN)
    assert dict(last_settlement(state).hands)[1] == ("sihongzhong", "zimo")


def test_the_dealers_four_red_dragons_win_on_his_first_turn() -> None:
    """The dealer's four 红中 are his first turn's self-draw (no opening phase)."""
    state = deal(["124578m1245s7z7z7z7z", JUNK[0], JUNK[1], JUNK[2]], HZ, draws=NO_HIT)
    assert state.phase == Phase.TURN
    state = act(state, 0, Act.WIN)
    assert dict(last_settlement(state).hands)[0] == ("sihongzhong", "zimo")
    assert paid(last_settlement(state)) == {1: 2, 2: 2, 3: 2}


def test_the_fourth_red_dragon_drawn_wins() -> None:
    """Four 红中 in hand win at once: seat 1 holds three and draws the fourth."""
    state = deal([JUNK[0] + "8m", "124578s1245m7z7z7z", JUNK[1], JUNK[2]], HZ, draws="7z" + NO_HIT)
    state = discard(state, 0, "8m")
    assert can(state, 1, Act.WIN)
    state = act(state, 1, Act.WIN)
    assert dict(last_settlement(state).hands)[1] == ("sihongzhong", "zimo")


# ---------------------------------------------------------------- 可接炮


RED_READY = "333m666m999s66p3p7z"  # 红中 pairs the 3p: waits on 6p (and anything the 红中 can pair)


def test_jiepao_only_for_a_hand_without_red_dragons() -> None:
    """docs/rules/hongzhong.md §2.6: with 可接炮 only a hand holding no 红中 may win on a discard."""
    state = deal([JUNK[0] + "6p", RED_READY, JUNK[1], JUNK[2]], HZ, jiepao=True)
    state = act(state, 0, Act.DISCARD, "6p")
    assert can(state, 1, Act.PUNG) and not can(state, 1, Act.WIN)
    state = deal([JUNK[0] + "6p", READY, JUNK[1], JUNK[2]], HZ, jiepao=True)
    state = act(state, 0, Act.DISCARD, "6p")
    assert can(state, 1, Act.WIN)


def test_self_draw_only_by_default() -> None:
    """docs/rules/zhuanzhuan.md §4.3: self-draw only by default (可接炮 off), with or without 红中."""
    state = deal([JUNK[0] + "6p", READY, JUNK[1], JUNK[2]], HZ)
    state = act(state, 0, Act.DISCARD, "6p")
    assert not can(state, 1, Act.WIN)


def test_a_hand_with_red_dragons_wins_by_self_draw() -> None:
    state = self_draw(HZ, winner=RED_READY)
    settlement = last_settlement(state)
    assert dict(settlement.hands)[1] == ("pinghu", "zimo")
    assert paid(settlement) == {0: 2, 2: 2, 3: 2}


# ---------------------------------------------------------------- 无红中


@pytest.mark.parametrize("base", [1, 2])
def test_wuhongzhong_is_one_bird_hit_more(base: int) -> None:
    """docs/rules/hongzhong.md §2.7, 裁定 5: 无红中 (a winning hand with no 红中, option) is one bird hit more
    — 2 + 2 from each."""
    state = self_draw(HZ, base=base, wuhongzhong=True)
    settlement = last_settlement(state)
    assert dict(settlement.hands)[1] == ("pinghu", "zimo", "wuhongzhong")
    assert paid(settlement) == {0: 4 * base, 2: 4 * base, 3: 4 * base}


def test_wuhongzhong_not_with_a_red_dragon_in_hand() -> None:
    settlement = last_settlement(self_draw(HZ, winner=RED_READY, wuhongzhong=True))
    assert dict(settlement.hands)[1] == ("pinghu", "zimo")
    assert paid(settlement) == {0: 2, 2: 2, 3: 2}


def test_wuhongzhong_is_an_option_off_by_default() -> None:
    assert HZ.make_options()["wuhongzhong"] is False
    assert paid(last_settlement(self_draw(HZ))) == {0: 2, 2: 2, 3: 2}


def test_wuhongzhong_on_a_discard_win() -> None:
    """无红中 on a discard win (可接炮): the discarder pays 1 + 2."""
    assert paid(last_settlement(discard_win(HZ, wuhongzhong=True))) == {0: 3}


# ---------------------------------------------------------------- 红中 as a bird


def test_red_dragon_bird_is_a_hit() -> None:
    """docs/rules/hongzhong.md §2.8: a 红中 bird hits under 159中码 — birds 红中 3s 6s 3s: one hit, 2 + 2."""
    settlement = last_settlement(self_draw(HZ, front="7z3s6s3s"))
    assert paid(settlement) == {0: 4, 2: 4, 3: 4}


def test_yima_red_dragon_is_worth_10() -> None:
    """docs/rules/hongzhong.md §2.8: under 一码全中 a 红中 bird is worth 10 — 2 + 10 from each."""
    settlement = last_settlement(self_draw(HZ, front="7z", yima=True))
    assert settlement.birds == (RED,)
    assert paid(settlement) == {0: 12, 2: 12, 3: 12}


# ---------------------------------------------------------------- options


def test_hongzhong_options_are_zhuanzhuans_and_wuhongzhong() -> None:
    """docs/rules/hongzhong.md §3: every option of 转转 and 无红中 — labelled in Chinese and English."""
    names = [s.name for s in HZ.option_specs]
    assert names == [
        "qidui",
        "jiepao",
        "sanjia",
        "birds",
        "yima",
        "wuhongzhong",
        "tuigang",
        "zhuangxian",
        "base",
    ]
    spec = HZ.option_spec("wuhongzhong")
    assert "无红中" in spec.label("zh") and "无红中" in spec.label("en")


def test_a_kong_is_still_paid_and_robbed_as_in_zhuanzhuan() -> None:
    """红中 changes nothing of kong money: the dealer's 暗杠 is 2 from each."""
    state = deal(["3333m124578s1245p", JUNK[0], JUNK[1], JUNK[2]], HZ)
    state = act(state, 0, Act.KONG, "3m")
    assert paid(last_settlement(state, "kong")) == {1: 2, 2: 2, 3: 2}


def test_the_red_dragon_stays_in_hand_all_hand_long() -> None:
    """A hand holding 红中 discards any other tile; the 红中 never leaves it."""
    state = deal([JUNK[0] + "7z", READY, JUNK[1], JUNK[2]], HZ, draws="9p9p9p9p")
    state = discard(state, 0, "1m")
    for _ in range(3):
        state = discard_drawn(state)
    assert state.current == 0 and state.drawn == parse_tile("9p")
    assert state.seats[0].counts[RED] == 1 and RED not in state.seats[0].discards
    with pytest.raises(IllegalAction):
        apply(state, Action(0, Act.DISCARD, RED))


def test_a_red_dragon_never_helps_a_pung_or_kong() -> None:
    """docs/rules/hongzhong.md 裁定 6: pungs and kongs take real tiles only — seat 1's one 5m and a 红中
    cannot pung the dealer's 5m."""
    state = deal([JUNK[0] + "5m", "5m7z333m666m999s36p", JUNK[1], JUNK[2]], HZ)
    state = act(state, 0, Act.DISCARD, "5m")
    assert state.phase == Phase.TURN and state.current == 1  # no claim window at all
    assert not can(state, 1, Act.PUNG)
