"""Perft: exhaustive counts of legal action sequences from a fixed deal, one per variant (after
python-chess's perft).

Every legal action of every seat that must act is followed to the given depth (tests/playout.py's
``perft``). The first counts are worked out by hand below; the deeper ones pin the move generator (claims,
priorities, auto-draws, opening hands, pre-hand choices) so any change to what is legal shows up here
first. A new variant adds its deal to ``PERFTS``: its counts are whatever its rules allow, checked by hand
to depth 1 or 2 and pinned beyond.
"""

from __future__ import annotations

import pytest

from engine import VARIANTS, State, arranged_hand, get_variant, legal_actions

from .dealing import choose_in_seat_order
from .playout import perft

# Changsha, Xiangyin: the dealer's 123m 456m 789s 22p 345p is already complete (天胡 in Changsha, an
# ordinary self-draw in Xiangyin). The others hold no opening hand.
HANDS = ["123m456m789s2234p5p", "1356m1347s1349p9m", "2679m26789s1679p", "3478m3568s3468p1s"]
ZZ_JUNK = "1245s124578p147m"  # tests/zhuanzhuan_helpers.py's JUNK[1]


def arranged(variant: str, hands: list[str], draws: str, choices: str = "") -> State:
    """The deal, with each seat's pre-hand choice (加锤, 定缺) made in seat order."""
    state = arranged_hand(get_variant(variant), hands, draws=draws)
    return choose_in_seat_order(state, choices) if choices else state


PERFTS = [
    # 13 distinct tiles to throw + 天胡 (14); Changsha chows from the previous seat only
    pytest.param("changsha", HANDS, "5p9s2m4m", "", [14, 137, 1411, 11931], id="changsha"),
    # seat 1 holds 5555m (扳牌 四喜): declare or pass (2); then the dealer throws one of his 14 distinct
    # tiles (2 × 14 = 28)
    pytest.param(
        "hengyang",
        ["1346m1347s1349p9m2s", "5555m23479s6789p", "2679m26789s1679p", "3478m3568s3468p1s"],
        "5p9s2m4m",
        "",
        [2, 28, 236, 2010],
        id="hengyang",
    ),
    # the Changsha deal: 13 discards + the dealer's self-draw (14); no chow afterwards
    pytest.param("xiangyin", HANDS, "5p9s2m4m", "", [14, 183, 2367], id="xiangyin"),
    # 加锤 all 0; the dealer's 123m 456m 789s 234p 11z wins at once (平胡) or throws one of 13 kinds (14)
    pytest.param(
        "shaoyang",
        ["123m456m789s234p11z", "1356m1347s1349p1z", "2679m26789s1679p", "3478m3568s3468p1s"],
        "5p9s2m4m",
        "0000",
        [14, 149, 1499],
        id="shaoyang",
    ),
    # 定缺 s, m, p, s; the dealer's 123m 456m 789m 22p 345p wins (血战: the hand goes on) or throws one of 13
    # kinds (14)
    pytest.param(
        "sichuan",
        ["123m456m789m2234p5p", "134679s1245789p", "1245789m235689s", "1234679m235689p"],
        "5p9s2m4m",
        "smps",
        [14, 182, 2191],
        id="sichuan",
    ),
    # 11 discards (one per distinct tile) and the 暗杠 of 3333m (12). Depth 2: 1s, 7s and 5p may be punged
    # (pung or pass: 2 each); the 8 other discards open no claim (no chow) and seat 1 draws 9p with 10
    # distinct tiles to throw (80); after the 暗杠 the dealer has 11 discards: 6 + 80 + 11 = 97
    pytest.param(
        "zhuanzhuan",
        ["3333m124578s1245p", "25667899m11s369p", ZZ_JUNK, "69m3667799s5588p"],
        "9p6s2p5m",
        "",
        [12, 97, 1259],
        id="zhuanzhuan",
    ),
    # a 红中 in two hands. The dealer holds 13 distinct tiles besides his 红中, which he may not throw (13).
    # Depth 2: 6m, 1s, 7s, 5p and 8p may be punged (pung or pass: 10); the 8 other discards open no claim
    # (no chow) and seat 1 draws 9p, with 10 distinct tiles to throw besides his 红中 (80): 90
    pytest.param(
        "hongzhong",
        ["7z124578s12458p36m", "25667899m1s7z369p", "1199s124578p147m", "69m3667799s5588p"],
        "9p6s2p5m",
        "",
        [13, 90, 970],
        id="hongzhong",
    ),
]


@pytest.mark.parametrize(("variant", "hands", "draws", "choices", "counts"), PERFTS)
def test_perft_counts(variant: str, hands: list[str], draws: str, choices: str, counts: list[int]) -> None:
    state = arranged(variant, hands, draws, choices)
    assert [perft(state, d) for d in range(1, len(counts) + 1)] == counts


def test_every_variant_has_a_perft() -> None:
    """A new variant adds its fixed deal to ``PERFTS``."""
    assert sorted(p.id for p in PERFTS) == sorted(VARIANTS)  # type: ignore[attr-defined]


def test_perft_depth_1_is_win_plus_one_discard_per_distinct_tile() -> None:
    """docs/rules/common.md §2.3: the dealer starts with 14 tiles and discards first — 13 distinct tiles
    to throw, and 天胡 (docs/rules/changsha.md §7.7)."""
    state = arranged("changsha", HANDS, "5p9s2m4m")
    acts = legal_actions(state, 0)
    assert sum(1 for a in acts if a.act.value == "discard") == 13
    assert sum(1 for a in acts if a.act.value == "win") == 1


def test_a_red_dragon_is_never_discarded() -> None:
    """docs/rules/hongzhong.md §2.2: the dealer's 红中 is not among his discards."""
    state = arranged("hongzhong", PERFTS[-1].values[1], "9p6s2p5m")  # type: ignore[arg-type]
    assert all(a.tile != 33 for a in legal_actions(state, 0))
