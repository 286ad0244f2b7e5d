"""Shaoyang hand shapes and their multipliers (docs/rules/shaoyang.md §5.1, §6, 裁定 1, 裁定 3–5).

Each hand is written whole (melds in brackets, the winning tile already in the concealed part) and judged
as a self-draw, the ordinary way to win in Shaoyang.
"""

from __future__ import annotations

from engine import format_tiles, new_hand, parse_hand, waits
from engine.variants.shaoyang import MULTIPLIER

from .shaoyang_helpers import SY, win_name

# ---------------------------------------------------------------- the tile set and the basic shape


def test_136_tiles_with_winds_and_dragons() -> None:
    """docs/rules/shaoyang.md §1.1: 136 tiles: the three suits 1–9, the four winds and the three dragons, no
    flowers."""
    assert len(SY.tile_set(4, SY.make_options())) == 136
    assert sorted(set(SY.tile_set(4, SY.make_options()))) == list(range(34))
    state = new_hand(SY, 1)
    assert len(state.wall.tiles) == 136
    assert sum(sum(s.counts) for s in state.seats) + state.wall.remaining == 136
    assert SY.seat_counts == (4,)


def test_four_sets_and_a_pair_win() -> None:
    """docs/rules/shaoyang.md §5.1: four sets (runs, triplets or kongs) + a pair."""
    assert win_name("[123m]456s789p234p33s", "3s") == "pinghu"
    assert win_name("[123m]444s789p[5555p]33s", "3s") == "pinghu"  # a kong is a set
    assert win_name("[123m]456s789p234p3s4z", "3s") is None  # no pair: no win


def test_any_pair_no_258_needed() -> None:
    """docs/rules/shaoyang.md §5.1: any pair — a 3s pair or a 东 pair wins as well as a 5s pair."""
    assert win_name("[123m]456s789p234p33s", "3s") == "pinghu"
    assert win_name("[123m]456s789p234p11z", "1z") == "pinghu"
    assert win_name("[123m]456s789p234p55s", "5s") == "pinghu"


def test_honor_triplets_are_sets() -> None:
    """docs/rules/shaoyang.md §5.1: with 136 tiles a triplet of winds or dragons is a set too."""
    assert win_name("[123m]555z789p234p33s", "3s") == "pinghu"
    assert win_name("[123m]567z789p234p33s", "3s") is None  # honors never make a run


# ---------------------------------------------------------------- 平胡 and 门前清


def test_pinghu_is_2() -> None:
    """docs/rules/shaoyang.md §6.1: 平胡, four sets and a pair: ×2."""
    assert win_name("[123m]456s789p234p33s", "3s") == "pinghu"
    assert MULTIPLIER["pinghu"] == 2


def test_menqing_pinghu_is_4() -> None:
    """docs/rules/shaoyang.md §6.2: a concealed 平胡 is ×4."""
    assert win_name("123m456s789p234p33s", "3s") == "menqing_pinghu"
    assert MULTIPLIER["menqing_pinghu"] == 4


def test_menqing_means_no_chow_pung_or_exposed_kong() -> None:
    """docs/rules/shaoyang.md §6.2, 裁定 3: a concealed kong keeps the hand 门前清; a chow, pung or exposed
    kong opens it."""
    assert win_name("[(1111m)]456s789p234p33s", "3s") == "menqing_pinghu"
    assert win_name("[111m]456s789p234p33s", "3s") == "pinghu"
    assert win_name("[1111m]456s789p234p33s", "3s") == "pinghu"
    assert win_name("[123m]456s789p234p33s", "3s") == "pinghu"


# ---------------------------------------------------------------- 大胡


def test_pengpenghu_is_8() -> None:
    """docs/rules/shaoyang.md §6.1: 碰碰胡, all pungs and a pair: ×8."""
    assert win_name("[111m]999s333p777p44s", "4s") == "pengpenghu"
    assert MULTIPLIER["pengpenghu"] == 8
    assert win_name("[123m]999s333p777p44s", "4s") == "pinghu"  # a chow: not all pungs


def test_qingyise_is_8() -> None:
    """docs/rules/shaoyang.md §6.1, §6.4: 清一色, one suit and a pair: ×8."""
    assert win_name("[123m]345m567m999m11m", "1m") == "qingyise"
    assert MULTIPLIER["qingyise"] == 8
    assert win_name("[123m]345m567m999m11z", "1z") == "pinghu"  # an honor pair: not one suit


def test_fengyise_is_8() -> None:
    """docs/rules/shaoyang.md §6.1, §6.4: 风一色, winds and dragons only, in a winning shape: ×8. It beats
    nothing else at 8: named 风一色, not 碰碰胡 (docs/rules/shaoyang.md 裁定 1)."""
    assert win_name("[111z]222z333z555z77z", "7z") == "fengyise"
    assert MULTIPLIER["fengyise"] == 8


def test_fengyise_needs_a_winning_shape() -> None:
    """docs/rules/shaoyang.md §6.4, 裁定 4: all honors but no four sets and a pair does not win."""
    assert win_name("1112223334567z", "7z") is None


def test_menqing_big_hands_are_16() -> None:
    """docs/rules/shaoyang.md §6.2: the concealed 碰碰胡, 清一色 and 风一色 are ×16."""
    assert win_name("111m999s333p777p44s", "4s") == "menqing_pengpenghu"
    assert win_name("123m345m567m999m11m", "1m") == "menqing_qingyise"
    assert win_name("111z222z333z555z77z", "7z") == "menqing_fengyise"
    assert win_name("1111m557799s2244p", "4p") == "longqidui"
    for key in ("menqing_pengpenghu", "menqing_qingyise", "menqing_fengyise", "longqidui"):
        assert MULTIPLIER[key] == 16


def test_qiqiaodui_is_8() -> None:
    """docs/rules/shaoyang.md §6.1, §6.3: 七巧对, seven pairs: ×8."""
    assert win_name("1133m557799s2244p", "4p") == "qiqiaodui"
    assert MULTIPLIER["qiqiaodui"] == 8


def test_seven_pairs_a_four_counts_as_two_pairs() -> None:
    """docs/rules/shaoyang.md §6.3, 裁定 5: 七巧对 8 (a four counts as two pairs); with a four it is 龙七对,
    16."""
    assert win_name("1111m557799s2244p", "4p") == "longqidui"
    assert MULTIPLIER["longqidui"] == 16


def test_seven_pairs_must_be_concealed() -> None:
    """docs/rules/shaoyang.md §6.3: seven pairs are always concealed — with an exposed meld there are not
    seven pairs."""
    assert win_name("[111m]557799s2244p", "4p") is None


def test_shisanyao_is_24_with_any_pair() -> None:
    """docs/rules/shaoyang.md §6.5: 十三幺, one each of the winds, dragons and the 1 and 9 of each suit, any
    one paired: ×24."""
    assert win_name("119m19s19p1234567z", "1m") == "shisanyao"
    assert win_name("19m19s19p12345677z", "7z") == "shisanyao"
    assert MULTIPLIER["shisanyao"] == 24
    assert win_name("129m19s19p1234567z", "2m") is None  # a 2m is no orphan


# ---------------------------------------------------------------- no stacking (docs/rules/shaoyang.md 裁定 1)


def test_no_stacking_the_highest_applies() -> None:
    """docs/rules/shaoyang.md §6.1, 裁定 1: no stacking, the highest applies. 清一色 + 碰碰胡 is 8, not 16;
    concealed it is 16, not 32 — one hand is paid, the one with the highest multiplier."""
    assert win_name("[111m]333m555m777m99m", "9m") == "qingyise"
    assert win_name("111333555777m99m", "9m") == "menqing_qingyise"


def test_qingyise_seven_pairs_is_16() -> None:
    """docs/rules/shaoyang.md 裁定 4: 清一色 also counts for a seven-pairs shape, which is always 门前清 —
    清一色七对 pays 16, never less than a concealed standard 清一色. A one-suit 龙七对 is named 龙七对 (also
    16: docs/rules/shaoyang.md 裁定 1 orders the names)."""
    assert win_name("11335577m224499m", "9m") == "menqing_qingyise"
    assert win_name("1111335577m4499m", "9m") == "longqidui"


def test_honor_seven_pairs_is_fengyise_16() -> None:
    """docs/rules/shaoyang.md 裁定 4: seven pairs of winds and dragons (字一色七对) is 风一色, concealed:
    16."""
    assert win_name("11223344556677z", "7z") == "menqing_fengyise"


def test_could_win_accepts_every_winning_shape() -> None:
    """Core contract (variant.py): could_win must be True for every hand evaluate_win accepts."""
    for hand in ("123m456s789p234p33s", "1133m557799s2244p", "119m19s19p1234567z", "111z222z333z555z77z"):
        counts, melds = parse_hand(hand)
        assert SY.could_win(counts, melds)


def test_shisanyao_waits_are_found() -> None:
    """docs/rules/shaoyang.md §6.5: thirteen different orphans wait on any of the thirteen; with a pair, on
    the missing one (the 听牌 list the bot shows comes from waits())."""
    counts, melds = parse_hand("19m19s19p1234567z")
    assert format_tiles(waits(SY, counts, melds)) == "19m19s19p1234567z"
    counts, melds = parse_hand("11m19s19p1234567z")
    assert format_tiles(waits(SY, counts, melds)) == "9m"
