"""Changsha winning hands: the 2/5/8 pair of a small hand, big hands and their count (docs/rules/changsha.md
§5, §7, 裁定 5, 裁定 6)."""

from __future__ import annotations

from typing import Any

import pytest

from engine import Act

from .changsha_helpers import JUNK, deal, win_names
from .dealing import act, can, discard, hand_names, last_settlement, param_id

# ---------------------------------------------------------------- small hand (小胡)


@pytest.mark.parametrize("pair", ["22m", "55m", "88m", "22s", "55s", "88s", "22p", "55p", "88p"])
def test_small_hand_wins_with_a_258_pair(pair: str) -> None:
    """docs/rules/changsha.md §5.1: a small hand is four sets + a pair (将) of 2, 5 or 8."""
    assert win_names("234m456s789p345s" + pair, "4m") == ["xiaohu"]


@pytest.mark.parametrize("pair", ["11m", "33m", "44s", "66s", "77p", "99p"])
def test_standard_hand_with_a_non_258_pair_does_not_win(pair: str) -> None:
    """docs/rules/changsha.md §5.1, §5.2: the pair must be 2, 5 or 8. A 4-melds-and-a-pair hand with another
    pair is no small hand, and without a big hand it does not win at all."""
    assert win_names("234m456s789p345s" + pair, "4m") is None
    assert win_names("234m456s789p345s" + pair, "4m", self_draw=False) is None


def test_small_hand_on_a_discard() -> None:
    """docs/rules/changsha.md §8.1: a small hand may be won on a discard (小胡点炮)."""
    assert win_names("123m456s789p123s55p", "3m", self_draw=False) == ["xiaohu"]


def test_non_258_standard_hand_is_not_offered_a_win() -> None:
    """docs/rules/changsha.md §5.1: a small hand needs a 2/5/8 pair: seat 1 completes 234m45556s23789p with
    1p (pair 5s) but not 234m44456s23789p with 1p (pair 4s)."""
    good = deal([JUNK[0] + "3s", "234m45556s23789p", JUNK[1], JUNK[2]], draws="1p")
    good = discard(good, 0, "3s")
    assert can(good, 1, Act.WIN)
    bad = deal([JUNK[0] + "3s", "234m44456s23789p", JUNK[1], JUNK[2]], draws="1p")
    bad = discard(bad, 0, "3s")
    assert bad.current == 1 and not can(bad, 1, Act.WIN)


# ---------------------------------------------------------------- big hands need no 258 pair (乱将)


def test_pengpenghu_needs_no_258_pair() -> None:
    """docs/rules/changsha.md §7.1, 裁定 5: 碰碰胡, a shape big hand, needs no 2/5/8 pair."""
    assert win_names("111m333s666p999m44s", "4s") == ["pengpenghu"]
    assert win_names("44s[111m][333s][(6666p)][999m]", "4s") == ["pengpenghu"]


def test_pengpenghu_on_a_discard() -> None:
    """docs/rules/changsha.md §7.1: 碰碰胡 — won on a discard too."""
    assert win_names("111m333s666p99m444s", "4s", self_draw=False) == ["pengpenghu"]


def test_jiangjianghu_any_shape() -> None:
    """docs/rules/changsha.md §7.2: 将将胡, all 14 tiles 2, 5 or 8, any shape."""
    # not 4 melds + a pair: 222m 555m 8m 2s 5s 8s 2p 5p 88p
    assert win_names("2225558m258s2588p", "8p") == ["jiangjianghu"]
    assert win_names("8m258s2588p[222m][555m]", "8p", self_draw=False) == ["jiangjianghu"]


def test_jiangjianghu_waits_on_any_258_tile() -> None:
    """docs/rules/changsha.md §7.2: 将将胡 (all 14 tiles 2/5/8, any shape) — so a 13-tile all-2/5/8 hand is
    ready on every 2/5/8 tile: seat 1 (222m 555m 8m 2s 5s 8s 2p 5p 8p) self-draws 5p and wins 将将胡. The
    other seats hold no 2/5/8 at all (their 板板胡 is passed)."""
    hands = ["134679m1346s1369p", "2225558m258s258p", "134679m1346s149p", "13679m13679s137p"]
    state = deal(hands, draws="5p")
    state = discard(state, 0, "9p")
    assert can(state, 1, Act.WIN)
    state = act(state, 1, Act.WIN)
    assert hand_names(last_settlement(state), 1) == ["jiangjianghu"]


def test_jiangjianghu_fails_with_one_other_tile() -> None:
    """将将胡 needs every tile a 2, 5 or 8: one 3 spoils it."""
    assert win_names("2225558m258s2358p", "8p") is None


def test_qingyise_needs_no_258_pair() -> None:
    """docs/rules/changsha.md §7.3: 清一色 is a big hand, any pair."""
    assert win_names("11123456789m234m", "9m") == ["qingyise"]
    assert win_names("11m456m[123m][789m][234m]", "1m", self_draw=False) == ["qingyise"]


def test_qidui_needs_no_258_pair() -> None:
    """docs/rules/changsha.md §7.4: 七小对, seven pairs."""
    assert win_names("1133m4477s6699p11s", "1s") == ["qidui"]
    assert win_names("1133m4477s6699p11s", "1s", self_draw=False) == ["qidui"]


def test_qidui_needs_seven_concealed_pairs() -> None:
    """七小对 is a hand of seven pairs: with an exposed meld it is no 七小对."""
    assert win_names("1133m4477s6699p[111s]", "3m") is None


def test_haohua_qidui_counts_two() -> None:
    """docs/rules/changsha.md §7.5, 裁定 6: 豪华七小对 counts as 2 big hands."""
    assert win_names("1111m33m44s77s66p99p", "1m") == ["haohua_qidui", "haohua_qidui"]


def test_quanqiuren_on_a_discard() -> None:
    """docs/rules/changsha.md §7.6, 裁定 7: 全求人, four exposed melds, a single wait won on a discard."""
    assert win_names("3m3m[123m][456s][789p][234s]", "3m", self_draw=False) == ["quanqiuren"]


def test_quanqiuren_not_on_a_self_draw() -> None:
    """全求人 is won on a discard: the same tiles self-drawn are no big hand (and with a 3m pair, no win)."""
    assert win_names("3m3m[123m][456s][789p][234s]", "3m") is None
    assert win_names("5m5m[123m][456s][789p][234s]", "5m") == ["xiaohu"]


# ---------------------------------------------------------------- additivity (大胡之间可以累计)


def test_qingyise_plus_qidui_is_two_big_hands() -> None:
    """docs/rules/changsha.md §7.14: big hands add up."""
    assert win_names("11223355667799m", "9m") == ["qidui", "qingyise"]


def test_qingyise_plus_pengpenghu() -> None:
    """docs/rules/changsha.md §7.14: big hands add up: 清一色 + 碰碰胡 = 2."""
    assert win_names("111333555777m99m", "9m") == ["pengpenghu", "qingyise"]


def test_qingyise_plus_haohua_qidui_is_three() -> None:
    """docs/rules/changsha.md §7.5, §7.14: 豪华七小对 counts as 2, added to 清一色."""
    assert win_names("1111m33m5566m7799m", "1m") == ["haohua_qidui", "haohua_qidui", "qingyise"]


def test_jiangjianghu_plus_pengpenghu() -> None:
    """All 2/5/8 in pungs and a pair: 将将胡 + 碰碰胡."""
    assert win_names("222m555m888s222p55p", "5p") == ["jiangjianghu", "pengpenghu"]


def test_small_qidui_plus_tianhu() -> None:
    """docs/rules/changsha.md §7.14: big hands add up: 七小对 + 天胡."""
    assert win_names("1133m4477s6699p11s", "1s", seat=0, dealer=0, first_turn=True) == ["qidui", "tianhu"]


def test_small_and_big_do_not_mix() -> None:
    """docs/rules/changsha.md §7.14: with any big hand only big hands count. A 清一色 with a 5m pair is 清一色
    only, not 清一色 + 小胡."""
    assert win_names("12345678955m234m", "9m") == ["qingyise"]


def test_big_hand_pays_as_big_only() -> None:
    """docs/rules/changsha.md §7.14, §8.1: with any big hand only big hands count: a 七小对 self-drawn by seat
    1 (no dealer) pays 30 from each non-dealer, 40 from the dealer — not the small figures on top."""
    state = deal([JUNK[0] + "3s", "11m33m4m55s77s22p99p", JUNK[1], JUNK[2]], draws="4m")
    state = discard(state, 0, "3s")
    state = act(state, 1, Act.WIN)
    settlement = last_settlement(state)
    assert hand_names(settlement, 1) == ["qidui"]
    assert settlement.deltas == (-40, 100, -30, -30)


# ---------------------------------------------------------------- situational big hands need a win


@pytest.mark.parametrize(
    ("flags", "self_draw", "name"),
    [
        ({"haidi": True}, True, "haidilaoyue"),
        ({"haidi": True}, False, "haidipao"),
        ({"kong_draw": "kai"}, True, "gangshangkaihua"),
        ({"robbed": True}, False, "qiangganghu"),
        ({"kong_discard": True}, False, "gangshangpao"),
        ({"first_discard": True}, False, "dihu"),
    ],
    ids=param_id,
)
def test_situational_big_hand_needs_a_winning_hand(flags: dict[str, Any], self_draw: bool, name: str) -> None:
    """docs/rules/changsha.md 裁定 5: a situational big hand needs a hand that already wins: with a 5s pair
    it wins as that big hand, with a 3s pair it does not win."""
    assert win_names("223344m456s789p55s", "4m", self_draw=self_draw, **flags) == [name]
    assert win_names("223344m456s789p33s", "4m", self_draw=self_draw, **flags) is None


def test_tianhu_needs_a_winning_hand() -> None:
    """docs/rules/changsha.md §7.7, 裁定 5: 天胡 is a win at the deal, so the 14 tiles must win."""
    assert win_names("223344m456s789p55s", "4m", seat=0, first_turn=True) == ["tianhu"]
    assert win_names("223344m456s789p33s", "4m", seat=0, first_turn=True) is None


def test_situational_big_hands_add_to_shape_big_hands() -> None:
    """docs/rules/changsha.md §7.14: big hands add up: 碰碰胡 + 海底捞月, 七小对 + 杠上炮, 清一色 + 抢杠胡."""
    assert win_names("111m333s666p999m44s", "4s", haidi=True) == ["haidilaoyue", "pengpenghu"]
    assert win_names("1133m4477s6699p11s", "1s", self_draw=False, kong_discard=True) == [
        "gangshangpao",
        "qidui",
    ]
    assert win_names("11123456789m234m", "9m", self_draw=False, robbed=True) == [
        "qiangganghu",
        "qingyise",
    ]


def test_dihu_only_on_a_discard_and_tianhu_only_self_drawn() -> None:
    """docs/rules/changsha.md §7.7, §7.8: 天胡 is the dealer's, 地胡 a non-dealer's on the dealer's first
    discard."""
    assert win_names("223344m456s789p55s", "4m", self_draw=True, first_discard=True) == ["xiaohu"]
    assert win_names("223344m456s789p55s", "4m", self_draw=False, first_turn=True) == ["xiaohu"]
