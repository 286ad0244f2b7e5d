"""Which hands win in Hengyang and what they are called: 平和, 门前清 and the big hands
(docs/rules/hengyang.md
§5, §7, 裁定 4–8). Verdicts come straight from the variant's evaluate_win on whole hands in notation; the
situational hands are also played through the engine in test_hengyang_play.py and test_hengyang_kong.py.
"""

from __future__ import annotations

import pytest

from engine import Act, Phase, parse_tile, parse_tiles_ordered

from .dealing import act, act_events, dice_sum, discard, hand_names, last_settlement, legal, param_id
from .hengyang_helpers import HY, JUNK, deal, kai_dice, win_names

# ---------------------------------------------------------------- 平和 / 门前清


def test_pinghu_needs_a_258_pair() -> None:
    """docs/rules/hengyang.md §5.1: 平和, four sets + a pair (将) of 2, 5 or 8."""
    assert win_names("[123m]456s789p234p55s", "5s") == ["pinghu"]
    assert win_names("[123m]456s789p234p88m", "8m") == ["pinghu"]
    assert win_names("[123m]456s789p234p22p", "2p") == ["pinghu"]
    assert win_names("[123m]456s789p234p33s", "3s") is None
    assert win_names("[123m]456s789p234p99p", "9p", self_draw=False) is None


def test_pinghu_may_chow_pung_and_kong() -> None:
    """docs/rules/hengyang.md §5.1: 平和 may chow, pung and kong."""
    assert win_names("[123m][555p][6666s]789p22m", "2m") == ["pinghu"]
    assert win_names("[123m][555p][6666s]789p22m", "2m", self_draw=False) == ["pinghu"]


def test_the_258_pair_may_sit_in_a_run() -> None:
    """docs/rules/hengyang.md §5.1: a 2/5/8 pair — any split with one will do: 55567m is 55 + 567."""
    assert win_names("[123m]456s789p55567m", "7m") == ["pinghu"]


def test_runs_do_not_wrap_around() -> None:
    """docs/rules/common.md §1.3: a run is three in a row of one suit (123 … 789) — 891 or 912 is none."""
    assert win_names("[123m]456s789p189m55s", "5s") is None
    assert win_names("[123m]456s789p129m55s", "5s") is None
    assert win_names("[123m]456s789p789m55s", "5s") == ["pinghu"]


def test_not_a_winning_shape_is_not_a_win() -> None:
    """docs/rules/hengyang.md §5.1: four sets and a pair (or a big hand); a broken shape never wins."""
    assert win_names("123m456s789p235p55s", "5s") is None


def test_menqianqing_small_hand_without_chow_pung_or_exposed_kong() -> None:
    """docs/rules/hengyang.md §5.2: 门前清 (no chow, pung or exposed kong) adds 1 番."""
    assert win_names("123m456s789p234p55s", "5s") == ["menqianqing", "pinghu"]
    assert win_names("123m456s789p234p55s", "5s", self_draw=False) == ["menqianqing", "pinghu"]
    assert win_names("[123m]456s789p234p55s", "5s") == ["pinghu"]  # 吃
    assert win_names("[444m]456s789p234p55s", "5s") == ["pinghu"]  # 碰
    assert win_names("[4444m]456s789p234p55s", "5s") == ["pinghu"]  # 明杠


def test_menqianqing_with_a_concealed_kong() -> None:
    """docs/rules/hengyang.md §5.2, 裁定 4: a concealed kong keeps 门前清."""
    assert win_names("[(4444m)]456s789p234p55s", "5s") == ["menqianqing", "pinghu"]


def test_menqianqing_is_for_small_hands_only() -> None:
    """docs/rules/hengyang.md §7.11, 裁定 4: 门前清 adds only to small hands — a concealed big hand gets none
    (the 清一色七小对 example pays 60/70, with no extra 番)."""
    assert win_names("123m345m567m999m11m", "1m") == ["qingyise"]
    assert win_names("11m33m55s77s99s22p44p", "4p") == ["qidui"]


# ---------------------------------------------------------------- shape big hands


def test_jiangyise_all_258_in_any_shape() -> None:
    """docs/rules/hengyang.md §7.1, 裁定 6: 将一色, every tile a 2, 5 or 8 — any shape, melds included."""
    assert win_names("22558m25588s2588p", "8p") == ["jiangyise"]
    assert win_names("[222m][555s]88m2558p58s", "8m", self_draw=False) == ["jiangyise"]
    assert win_names("22558m25588s2589p", "9p") is None  # one tile not a 2/5/8


def test_jiangyise_waits_on_any_258() -> None:
    """docs/rules/hengyang.md §7.1: 将一色 in any shape — an all-258 hand of 13 tiles waits on every 2/5/8 it
    can still draw."""
    from engine import parse_hand, waits

    counts, melds = parse_hand("22558m25588s258p")
    got = waits(HY, counts, melds)
    assert sorted(got) == sorted(t for t in range(27) if t % 9 in (1, 4, 7) and counts[t] < 4)


def test_pengpenghu_four_pungs_any_pair() -> None:
    """docs/rules/hengyang.md §7.2: 碰碰胡, all pungs/kongs + any pair: no 2/5/8 pair needed."""
    assert win_names("[111m]999s333p777p44s", "4s") == ["pengpenghu"]
    assert win_names("111m999s333p777p44s", "4s", self_draw=False) == ["pengpenghu"]
    assert win_names("[1111m][999s]333p777p44s", "4s") == ["pengpenghu"]
    assert win_names("[123m]999s333p777p44s", "4s") is None  # a chow: not all pungs, pair not 258


def test_quanqiuren_four_exposed_melds_single_258_wait() -> None:
    """docs/rules/hengyang.md §7.3: 全求人 needs a 2/5/8 pair."""
    assert win_names("[123m][555s][789p][234p]55m", "5m", self_draw=False) == ["quanqiuren"]
    assert win_names("[123m][6666s][789p][234p]88s", "8s", self_draw=False) == ["quanqiuren"]


def test_quanqiuren_needs_a_258_pair() -> None:
    """docs/rules/hengyang.md §7.3: 全求人 needs a 2/5/8 pair — a single wait on a 3 is no hand at all."""
    assert win_names("[123m][555s][789p][234p]33m", "3m", self_draw=False) is None


def test_quanqiuren_is_won_on_a_discard() -> None:
    """docs/rules/hengyang.md §7.3, 裁定 7: 全求人 is everything from others, the last tile too; self-drawn
    it is a 平和 (a concealed kong is no 求人 either)."""
    assert win_names("[123m][555s][789p][234p]55m", "5m", self_draw=True) == ["pinghu"]
    assert win_names("[123m][(5555s)][789p][234p]55m", "5m", self_draw=False) == ["pinghu"]


def test_qingyise_one_suit_any_pair() -> None:
    """docs/rules/hengyang.md §7.4: 清一色, one suit only, any winning shape (no 2/5/8 pair needed)."""
    assert win_names("123m345m567m999m11m", "1m") == ["qingyise"]
    assert win_names("[123s][777s]345s678s99s", "9s", self_draw=False) == ["qingyise"]
    assert win_names("123m345m567m999m11p", "1p") is None  # two suits, pair not 258


def test_qidui_seven_pairs_no_258_needed() -> None:
    """docs/rules/hengyang.md §7.5: 七小对, seven pairs (no 2/5/8 pair needed)."""
    assert win_names("11m33m66s77s99s33p44p", "4p") == ["qidui"]
    assert win_names("11m33m66s77s99s33p44p", "4p", self_draw=False) == ["qidui"]


def test_longqidui_five_pairs_and_a_triplet_won_on_its_fourth() -> None:
    """docs/rules/hengyang.md §7.6, 裁定 5: 龙七对, five pairs and a triplet won on its fourth: 七小对 + 1
    番."""
    assert win_names("1111m33m66s77s99s44p", "1m") == ["longqidui"]
    assert win_names("1111m33m66s77s99s44p", "1m", self_draw=False) == ["longqidui"]


def test_longqidui_a_four_four_pairs_and_the_single_self_drawn() -> None:
    """docs/rules/hengyang.md §7.6, 裁定 5: a four, four pairs and a single is 龙七对 only when the single's
    mate is self-drawn; the four is held, not declared (a declared kong leaves no seven pairs)."""
    assert win_names("1111m33m66s77s99s44p", "4p") == ["longqidui"]


def test_longqidui_second_form_on_a_discard_is_a_plain_qidui() -> None:
    """docs/rules/hengyang.md 裁定 5: won on a discard, the four + four pairs + single is a plain 七小对 —
    only the first form (five pairs and a triplet, the discard its fourth) is 龙七对 on a discard. Also with
    清一色, and with two fours (the discard completes neither)."""
    assert win_names("1111m33m66s77s99s44p", "4p", self_draw=False) == ["qidui"]
    assert win_names("1111s33s44s66s77s88s", "8s", self_draw=False) == ["qidui", "qingyise"]
    assert win_names("1111m4444p66s77s99s", "9s", self_draw=False) == ["qidui"]
    assert win_names("1111m4444p66s77s99s", "4p", self_draw=False) == ["longqidui"]


def test_big_hands_add_up() -> None:
    """docs/rules/hengyang.md §7.11: big hands add up, n = their number (清一色 + 七小对)."""
    assert win_names("11s33s44s66s77s88s99s", "6s") == ["qidui", "qingyise"]
    assert win_names("1111s33s44s66s77s88s", "8s") == ["longqidui", "qingyise"]
    assert win_names("[222m][555s]888p222p55m", "5m") == ["jiangyise", "pengpenghu"]
    assert win_names("[222m][555s][888p][222p]55m", "5m", self_draw=False) == [
        "jiangyise",
        "pengpenghu",
        "quanqiuren",
    ]


# ---------------------------------------------------------------- situational big hands


@pytest.mark.parametrize(
    ("flags", "self_draw", "name"),
    [
        ({"first_turn": True}, True, "tianhu"),
        ({"first_discard": True}, False, "dihu"),
        ({"haidi": True}, True, "haidilaoyue"),
        ({"kong_draw": "kai"}, True, "gangshangkaihua"),
    ],
    ids=param_id,
)
def test_situational_big_hand_needs_a_winning_hand(
    flags: dict[str, object], self_draw: bool, name: str
) -> None:
    """docs/rules/hengyang.md §7.7–§7.10, 裁定 8: 天胡, 地胡, 海底捞月 and 杠上开花 are each 1 big hand, and
    the hand must already win (平和 or a shape big hand)."""
    assert win_names("[123m]456s789p234p55s", "5s", self_draw, **flags) == [name]  # type: ignore[arg-type]
    assert win_names("[123m]456s789p234p33s", "3s", self_draw, **flags) is None  # type: ignore[arg-type]
    assert win_names("11m33m66s77s99s33p44p", "4p", self_draw, **flags) == sorted([name, "qidui"])  # type: ignore[arg-type]


def test_no_haidipao_no_gangshangpao_no_robbing_hand() -> None:
    """docs/rules/hengyang.md 裁定 9, 裁定 10: no 海底炮, 杠上炮 or 抢杠胡 big hands — a win on the shown
    haidi
    tile, on the tiles an 开杠 turned up, or on a 补张 tile is valued by its shape only."""
    hand = "[123m]456s789p234p55s"
    assert win_names(hand, "5s", False, haidi=True) == ["pinghu"]
    assert win_names(hand, "5s", False, kong_discard=True, after_kong="kai") == ["pinghu"]
    assert win_names(hand, "5s", True, kong_draw="bu") == ["pinghu"]


def test_tianhu_played() -> None:
    """docs/rules/hengyang.md §7.7: 天胡, the dealer wins on his dealt 14 tiles: a big self-draw, each pays
    40."""
    state = deal(["123m456m789s234p55p", JUNK[0], JUNK[1], JUNK[2]])
    assert "0 win" in legal(state, 0)
    state = act(state, 0, Act.WIN)
    settlement = last_settlement(state)
    assert hand_names(settlement, 0) == ["tianhu"]
    assert settlement.deltas == (120, -40, -40, -40)


def test_dihu_played() -> None:
    """docs/rules/hengyang.md §7.8: 地胡, a non-dealer wins on the dealer's first discard: big on a discard,
    the dealer pays 70."""
    state = deal([JUNK[0] + "5p", "123m456m789s234p5p", JUNK[1], JUNK[2]])
    state = act(state, 0, Act.DISCARD, "5p")
    state = act(state, 1, Act.WIN)
    settlement = last_settlement(state)
    assert hand_names(settlement, 1) == ["dihu"]
    assert settlement.deltas == (-70, 70, 0, 0)


def test_dihu_on_the_first_discard_after_a_dealer_kong() -> None:
    """docs/rules/hengyang.md 裁定 20, 裁定 23: a kong the dealer made before his first discard does not
    matter — it is still the dealer's first discard. The dealer konges 5555m (补张, 20 from each other
    player), then throws 5s: seat 1 wins it — 地胡, one big hand on a discard the dealer pays: 70."""
    state = deal(["5555m13579s24689p", "123m789m789s567p5s", JUNK[1], JUNK[2]], back="1p")
    state = act(state, 0, Act.KONG, "5m", "bu")
    assert state.current == 0 and state.drawn == parse_tile("1p")
    state = act(state, 0, Act.DISCARD, "5s")
    assert "1 win" in legal(state, 1)
    state = act(state, 1, Act.WIN)
    settlement = last_settlement(state)
    assert hand_names(settlement, 1) == ["dihu"]
    assert settlement.deltas == (-70, 70, 0, 0)


def test_dihu_on_the_tiles_the_dealers_first_kaigang_lets_fall() -> None:
    """docs/rules/hengyang.md 裁定 20 (地胡 stands even if the dealer made his own kong before that discard):
    the dealer's first turn is an 开杠 of 5555m; neither turned-up tile (9m, 5p) wins for him,
    both fall — discards, his first — and seat 1 wins on the 5p: 地胡, the dealer pays 70 as for 地胡 on a
    thrown tile (besides 20 from each player for the 暗杠)."""
    n = kai_dice(0)
    state = deal(["5555m234s678p23p88s", "234m45556s789p34p", JUNK[1], JUNK[2]], stacks={n: "9m5p"})
    state, events = act_events(state, 0, Act.KONG, "5m", "kai")
    assert dice_sum(events) == n and state.seats[0].discards == tuple(parse_tiles_ordered("9m5p"))
    assert legal(state, 1) == {"1 win", "1 pass"}
    state = act(state, 1, Act.WIN)
    settlement = last_settlement(state)
    assert hand_names(settlement, 1) == ["dihu"]
    assert settlement.deltas == (-70, 70, 0, 0)


def test_dihu_only_on_the_dealers_first_discard() -> None:
    """docs/rules/hengyang.md §7.8: only the dealer's first discard — a later one is an ordinary 点炮 (平和 +
    门前清, the dealer pays 30)."""
    state = deal([JUNK[0] + "5p", "123m456m789s234p5p", JUNK[1], JUNK[2]], draws="1s1s1s3s")
    state = discard(state, 0, "1p")
    for _ in range(3):
        state = discard(state, state.current, "1s")
    assert state.current == 0 and state.phase == Phase.TURN
    state = act(state, 0, Act.DISCARD, "5p")
    state = act(state, 1, Act.WIN)
    settlement = last_settlement(state)
    assert hand_names(settlement, 1) == ["menqianqing", "pinghu"]
    assert settlement.deltas == (-30, 30, 0, 0)
