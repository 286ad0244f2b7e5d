"""扳牌 opening hands: 缺一门, 四喜, 六六顺 (docs/rules/hengyang.md §6, 裁定 12–14).

Seat 0 deals; the declarer is seat 1 unless told, the others hold junk. 底分 10; birds as told (扳牌 has
none whatever the room option says).
"""

from __future__ import annotations

import pytest

from engine import Act, Phase, observe, parse_tile, parse_tiles, to_act
from engine.variants.hengyang import open_turns

from .dealing import act, discard, discard_drawn, hand_names, last_settlement, legal, paid
from .hengyang_helpers import JUNK, SIXI, deal, opening_deal

QUEYIMEN_SUIT = "2345678m234567s"  # no 筒
QUEYIMEN_258 = "13469m1347s1379p"  # no 2, 5 or 8 (将)
LIULIU = "1444m45556s2789p"  # triplets 444m and 555s
SIXI_LIULIU = "35555m4446s6789p"  # four 5m and triplet 444s (the four holds a triplet too)
ALL_THREE = "15555m13444679s"  # no 筒, four 5m, triplets 555m and 444s
READY_QUEYIMEN = "234m456m789m55s23s"  # no 筒, waits 1s/4s

OPENINGS = [
    (QUEYIMEN_SUIT, "queyimen"),
    (QUEYIMEN_258, "queyimen"),
    (SIXI, "sixi"),
    (LIULIU, "liuliushun"),
]


@pytest.mark.parametrize(("hand", "kind"), OPENINGS)
def test_banpai_is_offered_after_the_deal(hand: str, kind: str) -> None:
    """docs/rules/hengyang.md §6.1–§6.4: after the deal, a player whose 13 dealt tiles hold 缺一门, 四喜 or
    六六顺 may declare it (扳牌)."""
    state = opening_deal(hand)
    assert state.phase == Phase.OPENING
    assert to_act(state) == (1,)
    assert legal(state, 1) == {f"1 opening {kind}", "1 pass"}


def test_queyimen_missing_a_suit_or_the_258() -> None:
    """docs/rules/hengyang.md §6.2, 裁定 13: 缺一门 — a suit missing, or no 将 (2/5/8) at all; counted once
    even
    when two are missing."""
    for hand in (QUEYIMEN_SUIT, QUEYIMEN_258, "1346799m134679s"):  # the last misses 筒 and 将
        assert legal(opening_deal(hand), 1) == {"1 opening queyimen", "1 pass"}


@pytest.mark.parametrize(("hand", "kind"), OPENINGS)
def test_banpai_pays_one_fan_as_a_small_self_draw(hand: str, kind: str) -> None:
    """docs/rules/hengyang.md §6.5: each 1 番 paid as a small self-draw: the dealer pays 20, the other two
    10."""
    state = act(opening_deal(hand), 1, Act.OPENING, detail=kind)
    settlement = last_settlement(state, "opening")
    assert settlement.winners == (1,)
    assert hand_names(settlement, 1) == [kind]
    assert paid(settlement) == {0: 20, 2: 10, 3: 10}
    assert settlement.deltas == (-20, 40, -10, -10)


def test_dealer_banpai_each_pays_20() -> None:
    """docs/rules/hengyang.md §6.5: a dealer declaring gets 20 from each."""
    state = deal([SIXI + "9p", JUNK[0], JUNK[1], JUNK[2]], openings=True)
    assert state.phase == Phase.OPENING and to_act(state) == (0,)
    state = act(state, 0, Act.OPENING, detail="sixi")
    assert paid(last_settlement(state, "opening")) == {1: 20, 2: 20, 3: 20}


def test_dealer_banpai_is_judged_on_his_first_13_tiles() -> None:
    """docs/rules/hengyang.md 裁定 12: the dealer's 14th tile is his first draw and is left out: 13 tiles with
    no 筒 plus a 14th 5p still make 缺一门."""
    state = deal([QUEYIMEN_SUIT + "5p", JUNK[0], JUNK[1], JUNK[2]], openings=True)
    assert state.drawn == parse_tile("5p")
    assert legal(state, 0) == {"0 opening queyimen", "0 pass"}


def test_dealer_14th_tile_makes_no_banpai() -> None:
    """docs/rules/hengyang.md 裁定 12: a four completed only by the dealer's 14th tile is no 四喜 (he may kong
    it in play)."""
    state = deal(["2345m4568s237777p", JUNK[0], JUNK[1], JUNK[2]], openings=True)
    assert state.drawn == parse_tile("7p")
    assert state.phase == Phase.TURN and to_act(state) == (0,)
    assert "0 kong 7p bu" in legal(state, 0)


def test_several_banpai_combine() -> None:
    """docs/rules/hengyang.md §6.5, 裁定 13: several held at once each count (a four also holds a triplet for
    六六顺)."""
    state = opening_deal(SIXI_LIULIU)
    assert legal(state, 1) == {
        "1 opening sixi+liuliushun",
        "1 opening sixi",
        "1 opening liuliushun",
        "1 pass",
    }
    state = act(state, 1, Act.OPENING, detail="sixi+liuliushun")
    assert paid(last_settlement(state, "opening")) == {0: 40, 2: 20, 3: 20}


def test_all_three_banpai_at_once() -> None:
    """docs/rules/hengyang.md §6.5: each 1 番 — 缺一门 + 四喜 + 六六顺 are three 番: the dealer pays 60, the
    others 30."""
    state = opening_deal(ALL_THREE)
    assert "1 opening queyimen+sixi+liuliushun" in legal(state, 1)
    state = act(state, 1, Act.OPENING, detail="queyimen+sixi+liuliushun")
    assert paid(last_settlement(state, "opening")) == {0: 60, 2: 30, 3: 30}


def test_banpai_has_no_birds() -> None:
    """docs/rules/hengyang.md §6.5, §9.7: 扳牌 has no birds. Birds 6p and 1m (→ the declarer and the dealer)
    change nothing and stay at the front of the wall."""
    state = opening_deal(SIXI, birds=2, draws="6p1m")
    left = state.wall.remaining
    state = act(state, 1, Act.OPENING, detail="sixi")
    settlement = last_settlement(state, "opening")
    assert settlement.birds == ()
    assert paid(settlement) == {0: 20, 2: 10, 3: 10}
    assert state.wall.remaining == left


def test_banpai_hand_is_shown_for_three_turns() -> None:
    """docs/rules/hengyang.md §6.5, 裁定 14: after declaring, the whole hand (new tiles included) is shown for
    three turns — after the declarer's third discard it is hidden again."""
    state = act(opening_deal(SIXI), 1, Act.OPENING, detail="sixi")
    for seat in (0, 2, 3):
        assert observe(state, seat).seats[1].hand == tuple(parse_tiles(SIXI))
    state = discard(state, 0, "3s")
    for turn in range(3):
        assert state.current == 1 and open_turns(state, 1) == 3 - turn
        held = tuple(t for t, n in enumerate(state.seats[1].counts) for _ in range(n))
        for seat in (0, 2, 3):
            assert observe(state, seat).seats[1].hand == held  # the tile just drawn is shown too
        state = discard_drawn(state)
        while state.current != 1:
            state = discard_drawn(state)
    assert open_turns(state, 1) == 0
    for seat in (0, 2, 3):
        assert observe(state, seat).seats[1].hand is None
        assert observe(state, seat).seats[1].declared == ("sixi",)


def test_undeclared_banpai_is_not_shown_or_paid() -> None:
    """docs/rules/hengyang.md §6.5: declaring is optional; passing shows nothing and pays nothing."""
    state = act(opening_deal(SIXI), 1, Act.PASS)
    assert observe(state, 2).seats[1].hand is None
    assert state.settlements == ()
    assert state.phase == Phase.TURN and state.current == 0


def test_play_continues_after_banpai_and_the_declarer_may_still_win() -> None:
    """docs/rules/hengyang.md §6.5: play goes on after 扳牌. The later win is settled on its own: 平和 +
    门前清
    self-drawn (30 / 20 / 20) on top of the 缺一门 (20 / 10 / 10)."""
    state = act(opening_deal(READY_QUEYIMEN, draws="4s"), 1, Act.OPENING, detail="queyimen")
    assert state.phase == Phase.TURN and state.current == 0 and state.result is None
    state = discard(state, 0, "3s")
    assert state.current == 1 and state.drawn == parse_tile("4s")
    state = act(state, 1, Act.WIN)
    assert hand_names(last_settlement(state), 1) == ["menqianqing", "pinghu"]
    assert state.result is not None and state.result.deltas == (-50, 110, -30, -30)


def test_banpai_offered_in_play_order_from_the_dealer() -> None:
    """docs/rules/hengyang.md §6.1: every player holding one is asked, in play order from the dealer."""
    state = deal([JUNK[0] + "3s", SIXI, JUNK[1], QUEYIMEN_258], openings=True)
    assert to_act(state) == (1,)
    state = act(state, 1, Act.PASS)
    assert to_act(state) == (3,)
    state = act(state, 3, Act.OPENING, detail="queyimen")
    assert state.phase == Phase.TURN and to_act(state) == (0,)
    assert [s.winners for s in state.settlements] == [(3,)]


def test_no_banpai_no_opening_phase() -> None:
    """docs/rules/hengyang.md §6.1, §3.2: only a hand holding a 扳牌 is asked; otherwise the dealer plays at
    once."""
    state = deal([JUNK[0] + "3s", JUNK[1], JUNK[2], "135789m1379s258p"], openings=True)
    assert state.phase == Phase.TURN and to_act(state) == (0,)
