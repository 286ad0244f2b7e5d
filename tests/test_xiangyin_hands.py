"""Winning hands (docs/rules/xiangyin.md §4, §5, 裁定 3–10).

Most tests ask the variant about a complete hand (win_names: the whole hand with melds in brackets, its
concealed part holding the winning tile); a few play the hand out at an arranged table.
"""

from __future__ import annotations

import pytest

from engine import Act, Phase, WinInfo, get_variant, new_hand, parse_tile
from engine.variants.xiangyin import hand_value

from .dealing import act, can, discard, hand_names, last_settlement, paid
from .xiangyin_helpers import JUNK, deal, win_names

XY = get_variant("xiangyin")

# ---------------------------------------------------------------- tiles and deal


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_108_tiles_without_honors(seats: int) -> None:
    """docs/rules/xiangyin.md §1.1: 108 tiles — characters, bamboo and dots 1–9, no winds or dragons."""
    state = new_hand(XY, 7, seats=seats)
    in_hands = sum(sum(s.counts) for s in state.seats)
    assert in_hands + state.wall.remaining == 108 == len(state.wall.tiles)
    assert all(t < 27 for t in state.wall.tiles)


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_dealer_14_tiles_others_13(seats: int) -> None:
    """docs/rules/xiangyin.md §3.1, §1.3: the dealer gets 14 tiles, the others 13 — for 2, 3 and 4 players."""
    state = new_hand(XY, 3, dealer=1, seats=seats)
    assert [sum(s.counts) for s in state.seats] == [14 if i == 1 else 13 for i in range(seats)]


# ---------------------------------------------------------------- 小胡


def test_small_hand_any_pair() -> None:
    """docs/rules/xiangyin.md §4.1: a small hand is four sets + any pair. The pair need not be 2/5/8 (33s
    here)."""
    assert win_names("123m456s789p234p33s", "3s") == ["xiaohu"]


def test_small_hand_self_draw_only() -> None:
    """docs/rules/xiangyin.md §4.2: a small hand wins only by self-draw. The same hand on a discard does not
    win."""
    assert win_names("123m456s789p234p33s", "3s", self_draw=False) is None


def test_small_hand_not_offered_a_discard_at_the_table() -> None:
    """docs/rules/xiangyin.md §4.2: self-draw only. Seat 1 (waits 1p/4p, a small hand) is not asked about
    seat 2's 4p."""
    state = deal([JUNK[0] + "3s", "234m45556s23789p", "2367m12468s1244p", JUNK[2]], draws="1s")
    state = discard(state, 0, "3s")
    state = discard(state, 1, "1s")
    state = act(state, 2, Act.DISCARD, "4p")
    assert not can(state, 1, Act.WIN)


def test_small_hand_may_win_on_gangshangpao() -> None:
    """docs/rules/xiangyin.md §4.2: except 杠上炮 — a small hand may take the konger's tile; it is named
    杠上炮."""
    assert win_names("123m456s789p234p33s", "3s", self_draw=False, kong_discard=True) == ["gangshangpao"]


def test_small_hand_may_rob_a_kong() -> None:
    """docs/rules/xiangyin.md §4.2: except 抢杠胡 — a small hand may rob a kong: 抢杠胡, a big hand."""
    assert win_names("123m456s789p234p33s", "3s", self_draw=False, robbed=True) == ["qiangganghu"]


def test_small_hand_is_worth_one_point() -> None:
    """docs/rules/xiangyin.md §4.3: a small hand is worth 1 point."""
    assert hand_value(WinInfo((), ("xiaohu",))) == 1


def test_not_a_winning_shape() -> None:
    """docs/rules/xiangyin.md §4.1: 13 tiles that don't split into four sets + a pair do not win."""
    assert win_names("123m456s789p235p33s", "3s") is None


# ---------------------------------------------------------------- 大胡


@pytest.mark.parametrize(("n", "value"), [(1, 5), (2, 10), (3, 20), (4, 40)])
def test_big_hand_value_5_times_2_to_the_n_minus_1(n: int, value: int) -> None:
    """docs/rules/xiangyin.md §5.1: a big hand is worth 5; n big hands 5 × 2^(n−1)."""
    assert hand_value(WinInfo(tuple((f"h{i}", 1) for i in range(n)))) == value


def test_pengpenghu() -> None:
    """docs/rules/xiangyin.md §5.2: 碰碰胡, all pungs/kongs + any pair. Wins on a discard too (a big hand)."""
    hand = "[111m]999s333p777p44s"
    assert win_names(hand, "4s") == ["pengpenghu"]
    assert win_names(hand, "4s", self_draw=False) == ["pengpenghu"]


def test_pengpenghu_needs_no_chow_set() -> None:
    """docs/rules/xiangyin.md §5.2: all pungs/kongs — a run among the sets makes it a small hand."""
    assert win_names("[111m]789s333p777p44s", "4s") == ["xiaohu"]


def test_jiangjianghu_any_shape() -> None:
    """docs/rules/xiangyin.md §5.3, 裁定 3: 将将胡, every tile a 2, 5 or 8, any shape."""
    assert win_names("22558m25588s2588p", "8p") == ["jiangjianghu"]


def test_jiangjianghu_may_pung() -> None:
    """docs/rules/xiangyin.md §5.3, 裁定 3: pungs of 2/5/8 keep it 将将胡; the 4-set shape is also 碰碰胡 (two
    big hands)."""
    assert win_names("[222m][555s][888p]55m888s", "8s") == ["jiangjianghu", "pengpenghu"]


def test_jiangjianghu_on_a_discard_by_default() -> None:
    """docs/rules/xiangyin.md §14.4: 将将胡 may win on a discard by default."""
    assert win_names("22558m25588s2588p", "8p", self_draw=False) == ["jiangjianghu"]


def test_option_jiangjianghu_self_draw_only() -> None:
    """docs/rules/xiangyin.md §14.4, 裁定 4: with 将将胡必须自摸 an any-shape 将将胡 no longer wins on a
    discard; self-drawn it does."""
    opts = {"jiangjiang_zimo": True}
    assert win_names("22558m25588s2588p", "8p", self_draw=False, options=opts) is None
    assert win_names("22558m25588s2588p", "8p", options=opts) == ["jiangjianghu"]


def test_option_jiangjianghu_self_draw_only_keeps_pengpenghu() -> None:
    """docs/rules/xiangyin.md 裁定 4: only the 将将胡 is self-draw only — the all-pung 258 hand still takes a
    discard as 碰碰胡."""
    opts = {"jiangjiang_zimo": True}
    assert win_names("[222m][555s][888p]55m888s", "8s", self_draw=False, options=opts) == ["pengpenghu"]


def test_option_jiangpeng_on_discard_is_only_pengpenghu() -> None:
    """docs/rules/xiangyin.md §14.7, 裁定 5: with 将碰胡接炮不算将将胡, the all-pung 258 hand won on a
    discard is 碰碰胡 only."""
    opts = {"jiangpeng_not_jiangjiang": True}
    hand = "[222m][555s][888p]55m888s"
    assert win_names(hand, "8s", self_draw=False, options=opts) == ["pengpenghu"]
    assert win_names(hand, "8s", options=opts) == ["jiangjianghu", "pengpenghu"]
    assert win_names(hand, "8s", self_draw=False) == ["jiangjianghu", "pengpenghu"]


def test_option_jiangpeng_leaves_other_jiangjianghu() -> None:
    """docs/rules/xiangyin.md 裁定 5: the option concerns only the all-pung 258 hand: an any-shape 将将胡
    still counts on a discard."""
    opts = {"jiangpeng_not_jiangjiang": True}
    assert win_names("22558m25588s2588p", "8p", self_draw=False, options=opts) == ["jiangjianghu"]


def test_qingyise() -> None:
    """docs/rules/xiangyin.md §5.4: 清一色, one suit, any winning shape; wins on a discard too."""
    assert win_names("123m345m567m999m11m", "1m") == ["qingyise"]
    assert win_names("123m345m567m999m11m", "1m", self_draw=False) == ["qingyise"]


def test_qingyise_may_pung_and_kong() -> None:
    """docs/rules/xiangyin.md §5.4: 清一色 with pungs and kongs."""
    assert win_names("[111m][(9999m)]345m567m22m", "2m") == ["qingyise"]


def test_qidui() -> None:
    """docs/rules/xiangyin.md §5.5: 七小对, seven pairs of any suits."""
    assert win_names("11m33m44s77s99s22p55p", "5p") == ["qidui"]
    assert win_names("11m33m44s77s99s22p55p", "5p", self_draw=False) == ["qidui"]


def test_haohua_qidui_counts_two() -> None:
    """docs/rules/xiangyin.md §5.6: 豪华七小对, seven pairs with a four of a kind: counts 2, i.e. 10
    points."""
    names = win_names("1111m33m44s77s99s22p", "2p")
    assert names == ["haohua_qidui", "haohua_qidui"]
    assert hand_value(WinInfo((("haohua_qidui", 2),))) == 10


def test_shuanghaohua_qidui_counts_three() -> None:
    """docs/rules/xiangyin.md §5.7: 双豪华七小对, seven pairs with two fours: counts 3, i.e. 20 points."""
    names = win_names("1111m3333m77s99s22p", "2p")
    assert names == ["shuanghaohua_qidui"] * 3
    assert hand_value(WinInfo((("shuanghaohua_qidui", 3),))) == 20


def test_three_fours_are_shuanghaohua() -> None:
    """docs/rules/xiangyin.md 裁定 6: three fours in seven pairs count as 双豪华七小对 (3)."""
    assert win_names("1111m3333m7777s22p", "2p") == ["shuanghaohua_qidui"] * 3


def test_haohua_four_may_not_be_konged() -> None:
    """docs/rules/xiangyin.md §5.6: the four must not be konged — once konged it is a meld, and seven pairs
    are gone."""
    assert win_names("[(1111m)]33m44s77s99s22p", "2p") is None


def test_qidui_adds_to_qingyise() -> None:
    """docs/rules/xiangyin.md §5.1: big hands add up — 七小对 + 清一色 = 2 big hands."""
    assert win_names("11223344558899m", "9m") == ["qidui", "qingyise"]


def test_haidilaoyue() -> None:
    """docs/rules/xiangyin.md §5.9: a self-draw on the haidi tile you took is a big hand (海底捞月)."""
    assert win_names("123m456s789p234p33s", "3s", haidi=True) == ["haidilaoyue"]


def test_haidipao_small_shape_wins() -> None:
    """docs/rules/xiangyin.md §5.10, 裁定 8: 海底炮 is a big hand, so a small shape may win it."""
    assert win_names("123m456s789p234p33s", "3s", self_draw=False, haidi=True) == ["haidipao"]


def test_gangshangkaihua_only_after_kaigang() -> None:
    """docs/rules/xiangyin.md §5.11, 裁定 10: 杠上开花 only after 开杠; a 补张 tile is an ordinary
    self-draw."""
    assert win_names("[(5555m)]234s678p23p88s1p", "1p", kong_draw="kai") == ["gangshangkaihua"]
    assert win_names("[(5555m)]234s678p23p88s1p", "1p", kong_draw="bu") == ["xiaohu"]


def test_quanqiuren() -> None:
    """docs/rules/xiangyin.md §5.8, 裁定 7: 全求人, all four melds claimed (pungs and exposed/added kongs), a
    single wait, by self-draw or on a discard; it is always 碰碰胡 too."""
    hand = "[111m][555s][7777p][999s]22p"
    assert win_names(hand, "2p", self_draw=False) == ["pengpenghu", "quanqiuren"]
    assert win_names(hand, "2p") == ["pengpenghu", "quanqiuren"]


def test_quanqiuren_not_with_a_concealed_kong() -> None:
    """docs/rules/xiangyin.md §5.8: a concealed kong does not count for 全求人."""
    assert win_names("[111m][555s][(7777p)][999s]22p", "2p") == ["pengpenghu"]


def test_qingyise_with_chows_single_wait_is_not_quanqiuren() -> None:
    """docs/rules/xiangyin.md §9.6: a 清一色 hand with a chow is never 全求人."""
    assert win_names("[123m][456m][789m][111m]99m", "9m", options={"qingyise_chow": True}) == ["qingyise"]


def test_qingyise_pengpenghu_quanqiuren_together() -> None:
    """docs/rules/xiangyin.md §5.8, §5.1: 清一色 + 碰碰胡 + 全求人 — three big hands (20 points)."""
    assert win_names("[111m][333m][555m][777m]99m", "9m", self_draw=False) == [
        "pengpenghu",
        "qingyise",
        "quanqiuren",
    ]


def test_no_tianhu_in_xiangyin() -> None:
    """docs/rules/xiangyin.md 裁定 9: no 天胡 — the dealer winning on his dealt 14 tiles is an ordinary
    self-draw (small here)."""
    state = deal(["123m456s789p234p33s", JUNK[0], JUNK[1], JUNK[2]])
    assert state.phase == Phase.TURN and can(state, 0, Act.WIN)
    state = act(state, 0, Act.WIN)
    settlement = last_settlement(state)
    assert hand_names(settlement, 0) == ["xiaohu"]
    assert paid(settlement) == {1: 10, 2: 10, 3: 10}


def test_no_dihu_in_xiangyin() -> None:
    """docs/rules/xiangyin.md 裁定 9: no 地胡 — a small hand may not take the dealer's first discard."""
    state = deal([JUNK[0] + "4p", "234m45556s23789p", JUNK[1], JUNK[2]])
    state = act(state, 0, Act.DISCARD, "4p")
    assert not can(state, 1, Act.WIN)
    assert parse_tile("4p") in state.seats[0].discards
