"""成都计番: the fan of each hand shape, 根, and the situational fans (docs/rules/sichuan.md §5, 裁定 9–12).

Hands are whole 14-tile hands with melds in brackets; the void is the suit the hand lacks. ``fans`` gives
{name: 番} as the variant scores it (on a discard unless told)."""

from __future__ import annotations

import pytest

from .dealing import param_id
from .sichuan_helpers import fans, total_fan

# ---------------------------------------------------------------- shapes


def test_pinghu_is_0_fan_and_any_pair_will_do() -> None:
    """docs/rules/sichuan.md §5.1, §4.1: 平胡 0. No 2/5/8 pair needed: 11s is as good as 55s."""
    assert fans("123m456m789m234s55s", "5s") == {"pinghu": 0}
    assert fans("123m456m789m234s11s", "1s") == {"pinghu": 0}


def test_incomplete_hand_does_not_win() -> None:
    """docs/rules/sichuan.md §4.1: only complete hands (4 sets and a pair, or seven pairs) win."""
    assert fans("123m456m789m234s56s", "6s") is None
    assert fans("11m33m55m77s99s22s4s5s", "5s") is None


def test_duiduihu_is_1_fan() -> None:
    """docs/rules/sichuan.md §5.1: 对对胡 1 — all pungs (or kongs) and a pair, melded or concealed."""
    assert fans("111m333m666s999s44s", "4s") == {"duiduihu": 1}
    assert fans("666s999s44s[111m][333m]", "4s") == {"duiduihu": 1}


def test_qingyise_is_2_fan() -> None:
    """docs/rules/sichuan.md §5.1: 清一色 2 — one suit only."""
    assert fans("123m456m789m234m55m", "5m") == {"qingyise": 2}


def test_qidui_is_2_fan() -> None:
    """docs/rules/sichuan.md §5.1, §4.1: 七对 2 — seven pairs, concealed."""
    assert fans("11m33m55m77s99s22s44s", "4s") == {"qidui": 2}


def test_longqidui_is_3_fan() -> None:
    """docs/rules/sichuan.md §5.1, §5.5: 龙七对 3 — seven pairs holding a four of a kind; that four is no
    extra 根."""
    assert fans("1111m33m55m77s99s22s", "2s") == {"longqidui": 3}


def test_qingdui_is_3_fan() -> None:
    """docs/rules/sichuan.md §5.1, 裁定 10: 清对 3 — one suit, all pungs (not 清一色 2 + 对对胡 1 added
    up)."""
    assert fans("111m333m555m777m99m", "9m") == {"qingdui": 3}
    assert fans("555m777m99m[111m][333m]", "9m") == {"qingdui": 3}


def test_jiangdui_is_3_fan() -> None:
    """docs/rules/sichuan.md §5.1, 裁定 10: 将对 3 — all pungs and the pair of 2, 5 and 8 only."""
    assert fans("222m555m888s222s55s", "5s") == {"jiangdui": 3}
    assert fans("888s222s55s[222m][555m]", "5s") == {"jiangdui": 3}
    # a pair that is no 2/5/8 makes it a plain 对对胡
    assert fans("222m555m888s222s33s", "3s") == {"duiduihu": 1}


def test_qingqidui_is_4_fan() -> None:
    """docs/rules/sichuan.md §5.1: 清七对 4 — seven pairs of one suit."""
    assert fans("11m22m33m55m77m88m99m", "9m") == {"qingqidui": 4}


def test_qinglongqidui_is_5_fan() -> None:
    """docs/rules/sichuan.md §5.1: 清龙七对 5 — one-suit seven pairs holding a four of a kind."""
    assert fans("1111m33m55m77m99m22m", "2m") == {"qinglongqidui": 5}


def test_the_best_reading_counts() -> None:
    """docs/rules/sichuan.md 裁定 10: a hand that reads two ways scores the better one — 11223344556677m is
    清七对 (4), not 清一色 (2) as 123 123 456 456 77."""
    assert fans("11223344556677m", "7m") == {"qingqidui": 4}
    assert fans("222333444m666s77s", "7s") == {"duiduihu": 1}  # 234×3 or three pungs


def test_seven_pairs_need_a_concealed_hand() -> None:
    """docs/rules/sichuan.md §4.1: 七对 is seven pairs in hand; with a meld the hand must be 4 sets and a
    pair."""
    assert fans("33m55m77s99s22s[111m]", "2s") is None


# ---------------------------------------------------------------- 根


def test_gen_four_of_a_kind_in_hand() -> None:
    """docs/rules/sichuan.md §5.5: +1 for each 根 (four of a kind owned) — four 1m held in 111m + 123m."""
    assert fans("111123m456s789s55s", "5s") == {"pinghu": 0, "gen": 1}


def test_gen_melded_kong() -> None:
    """docs/rules/sichuan.md §5.5: 根 — an exposed or concealed kong."""
    assert fans("123m456s789s55s[7777m]", "5s") == {"pinghu": 0, "gen": 1}
    assert fans("123m456s789s55s[(7777m)]", "5s") == {"pinghu": 0, "gen": 1}


def test_gen_pung_and_the_fourth_in_hand() -> None:
    """docs/rules/sichuan.md §5.5, 裁定 9: a pung of 5s with the fourth 5s in a run of the hand is four of a
    kind owned."""
    assert fans("567s123m456m99m[555s]", "9m") == {"pinghu": 0, "gen": 1}


def test_gen_counts_every_four() -> None:
    """docs/rules/sichuan.md §5.5, §5.11: +1 for each 根: two kongs on a 清对 = 3 + 2."""
    assert fans("555m77m[(1111m)][3333m][999m]", "7m") == {"qingdui": 3, "gen": 2}


def test_longqidui_with_a_second_four_has_one_gen() -> None:
    """docs/rules/sichuan.md §5.5, 裁定 9: the four of 龙七对 is no 根, a second four is."""
    assert fans("1111m3333m55s77s99s", "9s") == {"longqidui": 3, "gen": 1}
    assert fans("1111m3333m55m77m99m", "9m") == {"qinglongqidui": 5, "gen": 1}


# ---------------------------------------------------------------- situational fans


def test_gangshanghua_is_plus_1() -> None:
    """docs/rules/sichuan.md §5.6: +1 for 杠上花 — a self-draw on a kong replacement
    (WinContext.kong_draw)."""
    got = fans("123m456s789s55s[7777m]", "5s", self_draw=True, kong_draw="bu")
    assert got == {"pinghu": 0, "gen": 1, "gangshanghua": 1, "zimo_jiadi": 0}


def test_gangshangpao_is_plus_1() -> None:
    """docs/rules/sichuan.md §5.7: +1 for 杠上炮 — a win on the discard a konger makes straight after his
    kong."""
    assert fans("123m456m789m234s55s", "5s", after_kong="bu") == {"pinghu": 0, "gangshangpao": 1}
    assert fans("123m456m789m234s55s", "5s") == {"pinghu": 0}


def test_qiangganghu_is_plus_1() -> None:
    """docs/rules/sichuan.md §5.8: +1 for 抢杠胡 — winning on the tile another adds to his pung."""
    assert fans("123m456m789m234s55s", "5s", robbed=True) == {"pinghu": 0, "qiangganghu": 1}


def test_haidi_is_plus_1() -> None:
    """docs/rules/sichuan.md §5.9, 裁定 11: +1 for 海底: self-drawn 海底捞月, or on the last discard
    海底炮."""
    assert fans("123m456m789m234s55s", "5s", haidi=True) == {"pinghu": 0, "haidipao": 1}
    got = fans("123m456m789m234s55s", "5s", self_draw=True, haidi=True)
    assert got == {"pinghu": 0, "haidilaoyue": 1, "zimo_jiadi": 0}


def test_zimo_jiadi_adds_no_fan() -> None:
    """docs/rules/sichuan.md §6.3, 裁定 12: 自摸加底 is a base, not a fan (paid in settlement: see
    test_sichuan_payments)."""
    assert fans("123m456m789m234s55s", "5s", self_draw=True) == {"pinghu": 0, "zimo_jiadi": 0}


def test_zimo_jiafan_adds_a_fan() -> None:
    """docs/rules/sichuan.md §5.10, §6.3: with 自摸加番 a self-draw is +1 fan."""
    got = fans("123m456m789m234s55s", "5s", self_draw=True, options={"zimo": "jiafan"})
    assert got == {"pinghu": 0, "zimo_jiafan": 1}


@pytest.mark.parametrize(
    ("hand", "tile", "flags", "want"),
    [
        ("1111m33m55m77m99m22m", "2m", {"self_draw": True, "kong_draw": "bu"}, 6),
        ("555m77m[(1111m)][3333m][999m]", "7m", {"robbed": True}, 6),
        ("1111m3333m55s77s99s", "9s", {"after_kong": "bu"}, 5),
    ],
    ids=param_id,
)
def test_fans_add_up(hand: str, tile: str, flags: dict[str, object], want: int) -> None:
    """docs/rules/sichuan.md §5, §6.1: the hand's fan plus +1 each (the cap is applied when paying)."""
    assert total_fan(hand, tile, **flags) == want
