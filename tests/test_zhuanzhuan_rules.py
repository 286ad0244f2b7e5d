"""转转麻将 (docs/rules/zhuanzhuan.md): the tiles, claims, winning shapes, kong money, the end of the wall,
the next dealer, 漏胡 and the room options. Payments are in test_zhuanzhuan_payments.py.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from engine import Act, IllegalAction, InvalidOption, Phase, State, get_variant, new_hand, parse_tile
from engine.tiles import full_set

from .dealing import (
    act,
    can,
    check_zero_sum,
    discard,
    discard_drawn,
    last_settlement,
    paid,
    param_id,
    play_to_end,
    settlements,
)
from .zhuanzhuan_helpers import JUNK, NO_HIT, READY, ZZ, deal, self_draw, win_names

# ---------------------------------------------------------------- tiles and claims


def test_108_tiles_no_honors() -> None:
    """docs/rules/zhuanzhuan.md §1.1: 108 tiles (万 条 筒, four of each)."""
    assert sorted(ZZ.tile_set(4, ZZ.make_options())) == full_set(False)
    state = new_hand(ZZ, 1)
    assert len(state.wall.tiles) == 108


def test_no_chow() -> None:
    """docs/rules/zhuanzhuan.md §3.1: no chow — the dealer's 6p next to seat 1's 45p opens no claim: seat 1
    draws."""
    state = deal([JUNK[0] + "6p", JUNK[1], JUNK[2], "6699m336699s369p"])
    assert state.seats[1].counts[parse_tile("4p")] and state.seats[1].counts[parse_tile("5p")]
    state = act(state, 0, Act.DISCARD, "6p")
    assert state.phase == Phase.TURN and state.current == 1
    assert not ZZ.claim_allowed(state, 1, Act.CHOW, parse_tile("6p"))


def test_pung_and_kong_on_a_discard() -> None:
    """docs/rules/zhuanzhuan.md §3.1: pung and kong — the dealer's 6p may be punged or konged by a seat
    holding three."""
    state = deal([JUNK[0] + "6p", "333m666m999s3p666p", JUNK[1], JUNK[2]])
    state = act(state, 0, Act.DISCARD, "6p")
    assert can(state, 1, Act.PUNG) and can(state, 1, Act.KONG, "6p")


# ---------------------------------------------------------------- winning


def test_self_draw_only_by_default() -> None:
    """docs/rules/zhuanzhuan.md §4.3: self-draw only by default — seat 1 waits on 6p but may only pung the
    dealer's 6p."""
    state = deal([JUNK[0] + "6p", READY, JUNK[1], JUNK[2]])
    state = act(state, 0, Act.DISCARD, "6p")
    assert can(state, 1, Act.PUNG) and not can(state, 1, Act.WIN)


def test_jiepao_option_wins_on_a_discard() -> None:
    """docs/rules/zhuanzhuan.md §4.3: with 可接炮 a discard wins too."""
    state = deal([JUNK[0] + "6p", READY, JUNK[1], JUNK[2]], jiepao=True)
    state = act(state, 0, Act.DISCARD, "6p")
    assert can(state, 1, Act.WIN)


def test_any_pair_wins() -> None:
    """docs/rules/zhuanzhuan.md §4.1: any pair — no 2/5/8 pair needed: 333m 666m 999s 333p 66p."""
    assert win_names(ZZ, "333m666m999s333p66p", "6p") == ["pinghu", "zimo"]
    assert win_names(ZZ, "123m456m789s234p99p", "9p", self_draw=False) is None  # no 可接炮
    assert win_names(ZZ, "123m456m789s234p99p", "9p", self_draw=False, options={"jiepao": True}) == [
        "jiepao",
        "pinghu",
    ]


def test_seven_pairs_win_by_default() -> None:
    """docs/rules/zhuanzhuan.md §4.2: 七小对 wins (room option, on by default)."""
    assert ZZ.make_options()["qidui"] is True
    assert win_names(ZZ, "33m66m99s33p66p99p33s", "3s") == ["qidui", "zimo"]


def test_seven_pairs_off() -> None:
    """七小对 is a room option: off, seven pairs do not win."""
    assert win_names(ZZ, "33m66m99s33p66p99p33s", "3s", options={"qidui": False}) is None


def test_a_four_counts_as_two_pairs() -> None:
    """docs/rules/zhuanzhuan.md §4.2, 裁定 2: in 七小对 four of a kind count as two pairs."""
    assert win_names(ZZ, "3333m99s33p66p99p33s", "3s") == ["qidui", "zimo"]


def test_seven_pairs_in_play() -> None:
    """Seat 1 holds six pairs and a 3s, draws the 3s: 七小对, paid as any self-draw."""
    state = self_draw(winner="33m66m99s33p66p99p6p")
    settlement = last_settlement(state)
    assert dict(settlement.hands)[1] == ("qidui", "zimo")
    assert paid(settlement) == {0: 2, 2: 2, 3: 2}


# ---------------------------------------------------------------- kongs, paid at once


@pytest.mark.parametrize("base", [1, 2])
def test_concealed_kong_each_pays_2(base: int) -> None:
    """docs/rules/zhuanzhuan.md §7.1: kong money is paid at once: 暗杠, 2 from each (× 底分)."""
    state = deal(["3333m124578s1245p", JUNK[0], JUNK[1], JUNK[2]], base=base)
    state = act(state, 0, Act.KONG, "3m")
    assert paid(last_settlement(state, "kong")) == {1: 2 * base, 2: 2 * base, 3: 2 * base}


@pytest.mark.parametrize("base", [1, 2])
def test_exposed_kong_the_discarder_pays_3(base: int) -> None:
    """docs/rules/zhuanzhuan.md §7.1: 明杠 (on a discard), the discarder pays 3."""
    state = deal([JUNK[0] + "6p", "333m666m999s3p666p", JUNK[1], JUNK[2]], base=base)
    state = act(state, 0, Act.DISCARD, "6p")
    state = act(state, 1, Act.KONG, "6p")
    assert paid(last_settlement(state, "kong")) == {0: 3 * base}


def added_kong(**kw: Any) -> State:
    """Seat 1 pungs the dealer's 9m and, three draws later, adds the fourth to it (补杠); nobody robs."""
    state = deal([JUNK[0] + "9m", "99m333m666m99s369p", JUNK[1], JUNK[2]], draws="8p8p3p9m", **kw)
    state = act(state, 0, Act.DISCARD, "9m")
    state = act(state, 1, Act.PUNG)
    state = discard(state, 1, "9p")
    for _ in range(3):
        state = discard_drawn(state)
    return act(state, 1, Act.KONG, "9m")


@pytest.mark.parametrize("base", [1, 2])
def test_added_kong_each_pays_1(base: int) -> None:
    """docs/rules/zhuanzhuan.md §7.1: 补杠, 1 from each."""
    assert paid(last_settlement(added_kong(base=base), "kong")) == {0: base, 2: base, 3: base}


def concealed_kong_then_drawn(**kw: Any) -> State:
    """The dealer 暗杠s 3333m at once; then everyone throws what he draws until the wall is empty."""
    state = deal(["3333m124578s1245p", JUNK[0], JUNK[1], JUNK[2]], **kw)
    return play_to_end(act(state, 0, Act.KONG, "3m"))


def test_kong_money_stays_on_a_drawn_hand_by_default() -> None:
    """docs/rules/zhuanzhuan.md §7.3, 裁定 11: 流局不算杠 is off by default: kong money stands on a drawn
    hand."""
    state = concealed_kong_then_drawn()
    assert state.result is not None and state.result.reason == "draw"
    assert state.result.deltas == (6, -2, -2, -2)
    assert not settlements(state, "draw")


@pytest.mark.parametrize("base", [1, 2])
def test_tuigang_returns_kong_money_on_a_drawn_hand(base: int) -> None:
    """docs/rules/zhuanzhuan.md §7.3: with 流局不算杠 kong money is returned on a drawn hand."""
    state = concealed_kong_then_drawn(tuigang=True, base=base)
    assert state.result is not None and state.result.deltas == (0, 0, 0, 0)
    refund = last_settlement(state, "draw")
    assert paid(refund) == {0: 6 * base} and refund.note == "tuigang"
    check_zero_sum(state)


def test_tuigang_keeps_kong_money_when_the_hand_is_won() -> None:
    """流局不算杠 is about a drawn hand only: a won hand keeps its kong money."""
    winner = "666m999m999s33p66p"  # waits on 3p / 6p
    state = deal(
        ["3333m124578s1245p", JUNK[0], winner, JUNK[1]], back="6p", draws="3s6p" + NO_HIT, tuigang=True
    )
    state = act(state, 0, Act.KONG, "3m")
    state = discard(state, 0, "6p")  # the replacement; seat 2 may only pung it
    state = discard_drawn(state)
    assert state.current == 2
    state = act(state, 2, Act.WIN)
    assert paid(last_settlement(state, "kong")) == {1: 2, 2: 2, 3: 2}
    assert not settlements(state, "draw")
    assert state.result is not None and state.result.deltas == (6 - 2, -2 - 2, 6 - 2, -2 - 2)


# ---------------------------------------------------------------- the end of the wall


@pytest.mark.parametrize(
    ("options", "left"), [({}, 4), ({"birds": 2}, 2), ({"birds": 6}, 6), ({"yima": True}, 1)], ids=param_id
)
def test_no_haidi_the_birds_stay_in_the_wall(options: dict[str, object], left: int) -> None:
    """docs/rules/zhuanzhuan.md §8.1, 裁定 9: no haidi; when the wall less the birds is empty the hand is
    drawn — nobody is offered the last tile; the birds (one with 一码全中) are never drawn."""
    state = deal([JUNK[0] + "8m", "6699m336699s369p", JUNK[1], JUNK[2]], **options)
    phases = set()
    state = discard(state, 0, "8m")
    while state.phase != Phase.ENDED:
        phases.add(state.phase)
        state = discard_drawn(state)
    assert Phase.HAIDI not in phases
    assert state.wall.remaining == left
    assert state.result is not None and state.result.reason == "draw"


# ---------------------------------------------------------------- next dealer


def test_the_winner_deals_next() -> None:
    """docs/rules/zhuanzhuan.md §2.2: the winner deals next."""
    state = self_draw()
    assert state.result is not None and state.result.next_dealer == 1


def test_the_dealer_wins_and_stays() -> None:
    """The winner deals next: a dealer who wins stays dealer."""
    state = deal([READY + "8m", JUNK[0], JUNK[1], JUNK[2]], draws="3s6s3s6p" + NO_HIT)
    state = discard(state, 0, "8m")
    for _ in range(3):
        state = discard_drawn(state)
    state = act(state, 0, Act.WIN)
    assert state.result is not None and state.result.next_dealer == 0


MULTI = [JUNK[0] + "8m", JUNK[1], READY, "11m999m777s888s45p"]  # seats 2 and 3 both wait on 3p / 6p


def test_several_winners_the_discarder_deals() -> None:
    """docs/rules/zhuanzhuan.md §2.2, 裁定 10: several winners → the discarder deals — seat 1 throws 6p into
    seats 2 and 3 (可接炮)."""
    state = deal(MULTI, draws="6p" + NO_HIT, jiepao=True)
    state = discard(state, 0, "8m")
    state = act(state, 1, Act.DISCARD, "6p")
    state = act(state, 2, Act.WIN)
    state = act(state, 3, Act.WIN)
    assert state.result is not None and state.result.winners == (2, 3)
    assert paid(last_settlement(state)) == {1: 2}  # 1 to each winner
    assert state.result.next_dealer == 1


@pytest.mark.parametrize("dealer", [0, 2])
def test_drawn_hand_the_dealer_stays(dealer: int) -> None:
    """docs/rules/zhuanzhuan.md §2.2, §8.1: a drawn hand → the dealer stays."""
    hands = [JUNK[0], JUNK[1], JUNK[2], "6699m336699s369p"]
    hands[dealer] += "8m"
    state = play_to_end(deal(hands, dealer=dealer))
    assert state.result is not None and state.result.reason == "draw"
    assert state.result.next_dealer == dealer


# ---------------------------------------------------------------- 漏胡


def both_pass_6p(draws: str) -> State:
    """可接炮: seat 1 draws and throws 6p; seats 2 and 3 could both win on it and both pass; ``draws``: the
    wall's front after that 6p."""
    state = deal(MULTI, draws="6p" + draws, jiepao=True)
    state = discard(state, 0, "8m")
    state = act(state, 1, Act.DISCARD, "6p")
    state = act(state, 2, Act.PASS)
    return act(state, 3, Act.PASS)


def test_passing_a_discard_win_bars_discard_wins_until_the_own_draw() -> None:
    """docs/rules/zhuanzhuan.md §4.6, 裁定 13: seat 3 passes seat 1's 6p; seat 2's 3p then is no win for him;
    after his own draw (2s, thrown) he may win on the dealer's 3p."""
    state = both_pass_6p("3p2s3p" + NO_HIT)
    assert state.current == 2 and state.seats[3].passed_wins
    state = act(state, 2, Act.DISCARD, "3p")
    assert state.phase == Phase.TURN and state.current == 3  # no win offered: no claim at all
    assert not state.seats[3].passed_wins  # his own draw ended the bar
    state = discard_drawn(state)
    state = act(state, 0, Act.DISCARD, "3p")
    assert can(state, 3, Act.WIN) and can(state, 2, Act.WIN)


def test_self_draw_is_never_barred() -> None:
    """漏胡 bars discard wins only: seat 2 passes seat 1's 6p and wins on his own 6p straight after."""
    state = both_pass_6p("6p" + NO_HIT)
    assert state.current == 2 and can(state, 2, Act.WIN)


# ---------------------------------------------------------------- room options


def test_every_option_of_rules_section_7_is_a_room_option() -> None:
    """docs/rules/zhuanzhuan.md §9, 裁定 12: 七小对, 可接炮, 点炮三家付, birds 2/4/6 (default 4), 一码全中,
    流局不算杠, 庄闲, 底分 — each with a Chinese and an English label."""
    specs = {s.name: s for s in ZZ.option_specs}
    assert set(specs) == {"qidui", "jiepao", "sanjia", "birds", "yima", "tuigang", "zhuangxian", "base"}
    labels = {s.label_zh for s in ZZ.option_specs}
    assert {"七小对", "可接炮", "点炮三家付", "一码全中", "流局不算杠", "庄闲", "底分"} <= labels
    assert all(s.label_en and s.label_en != s.label_zh for s in ZZ.option_specs)
    assert specs["birds"].choices == (2, 4, 6) and specs["birds"].default == 4
    assert (
        specs["birds"].value_label(6, "zh") == "6 个码" and specs["birds"].value_label(6, "en") == "6 birds"
    )
    defaults = ZZ.make_options()
    assert defaults["qidui"] is True and defaults["base"] == 1
    assert not any(defaults[k] for k in ("jiepao", "sanjia", "yima", "tuigang", "zhuangxian"))


def test_bad_options_are_refused() -> None:
    with pytest.raises(InvalidOption):
        ZZ.make_options({"birds": 3})
    with pytest.raises(InvalidOption):
        ZZ.make_options({"wuhongzhong": True})  # 红中麻将's option only


def test_illegal_input_says_why() -> None:
    state = deal([JUNK[0] + "6p", READY, JUNK[1], JUNK[2]])
    with pytest.raises(IllegalAction):
        act(state, 0, Act.DISCARD, "9p")
    assert get_variant("zhuanzhuan") is ZZ


def test_rules_pages_state_the_decisions_and_are_listed() -> None:
    """Docs/rules/zhuanzhuan.md and hongzhong.md (中文 / English) with every decision, in README's
    variant table and in docs/rules/common.md's list of variants."""
    root = Path(__file__).resolve().parent.parent
    readme = (root / "README.md").read_text(encoding="utf-8")
    common = (root / "docs/rules/common.md").read_text(encoding="utf-8")
    for vid in ("zhuanzhuan", "hongzhong"):
        page = (root / f"docs/rules/{vid}.md").read_text(encoding="utf-8")
        assert "## 裁定 / Decisions" in page and "房间选项 / Room options" in page
        assert f"docs/rules/{vid}.md" in readme and f"| {vid} |" in common
        for spec in get_variant(vid).option_specs:
            assert spec.label_zh in page, (vid, spec.label_zh)
