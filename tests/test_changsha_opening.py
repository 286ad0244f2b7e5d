"""起手小胡 opening small hands: 四喜, 板板胡, 缺一色, 六六顺 (docs/rules/changsha.md §6, 裁定 8, 裁定 9).

Seat 0 deals; seat 1 holds the opening hand, the others junk. 底分 10, no birds unless told."""

from __future__ import annotations

import json

import pytest

from bot.miniapp import protocol
from bot.table.feed import HandView
from engine import Act, Observation, Phase, State, observe, parse_tiles, parse_tiles_ordered, to_act
from engine.observe import still_revealed

from .changsha_helpers import JUNK, deal
from .dealing import act, discard, last_settlement, legal, paid

SIXI = "5555m23479s6789p"  # four 5m
BANBAN = "13469m1347s1379p"  # no 2, 5 or 8
QUEYISE = "2345678m234567s"  # no 筒
LIULIU = "1444m45556s2789p"  # triplets 444m and 555s
SIXI_LIULIU = "35555m4446s6789p"  # four 5m, triplet 444s (the four holds a triplet too)

OPENINGS = [(SIXI, "sixi"), (BANBAN, "banbanhu"), (QUEYISE, "queyise"), (LIULIU, "liuliushun")]


def opening_deal(hand: str, birds: int = 0, draws: str = "") -> State:
    return deal([JUNK[0] + "3s", hand, JUNK[1], JUNK[2]], draws=draws, birds=birds, openings=True)


@pytest.mark.parametrize(("hand", "kind"), OPENINGS)
def test_opening_hand_is_offered_after_the_deal(hand: str, kind: str) -> None:
    """docs/rules/changsha.md §6.1–§6.5: after the deal, before the dealer's first discard, a player holding
    四喜 (four of a kind), 板板胡 (no 2/5/8), 缺一色 (a suit missing) or 六六顺 (two triplets) may declare
    it."""
    state = opening_deal(hand)
    assert state.phase == Phase.OPENING
    assert to_act(state) == (1,)
    assert legal(state, 1) == {f"1 opening {kind}", "1 pass"}


@pytest.mark.parametrize(("hand", "kind"), OPENINGS)
def test_opening_hand_pays_as_small_self_draw(hand: str, kind: str) -> None:
    """docs/rules/changsha.md §6.6: each is paid as one small self-draw: the dealer pays 20, the other two
    10."""
    state = act(opening_deal(hand), 1, Act.OPENING, detail=kind)
    settlement = last_settlement(state, "opening")
    assert settlement.winners == (1,)
    assert dict(settlement.hands)[1] == (kind,)
    assert paid(settlement) == {0: 20, 2: 10, 3: 10}
    assert settlement.deltas == (-20, 40, -10, -10)


def test_dealer_opening_hand_each_pays_20() -> None:
    """docs/rules/changsha.md §6.6, §8.1: paid as a small self-draw — a dealer declaring gets 20 from each."""
    state = deal([SIXI + "3s", JUNK[0], JUNK[1], JUNK[2]], openings=True)
    assert state.phase == Phase.OPENING and to_act(state) == (0,)
    state = act(state, 0, Act.OPENING, detail="sixi")
    assert paid(last_settlement(state, "opening")) == {1: 20, 2: 20, 3: 20}


def test_several_opening_hands_combine() -> None:
    """docs/rules/changsha.md §6.7, 裁定 8: several combine, each counted (四喜 + 六六顺)."""
    state = opening_deal(SIXI_LIULIU)
    assert legal(state, 1) == {
        "1 opening sixi+liuliushun",
        "1 opening sixi",
        "1 opening liuliushun",
        "1 pass",
    }
    state = act(state, 1, Act.OPENING, detail="sixi+liuliushun")
    settlement = last_settlement(state, "opening")
    assert dict(settlement.hands)[1] == ("sixi", "liuliushun")
    assert paid(settlement) == {0: 40, 2: 20, 3: 20}


def test_declaring_only_one_of_two_opening_hands() -> None:
    """docs/rules/changsha.md 裁定 8: each opening hand declared is counted — declaring one of the two is
    paid once."""
    state = act(opening_deal(SIXI_LIULIU), 1, Act.OPENING, detail="liuliushun")
    assert paid(last_settlement(state, "opening")) == {0: 20, 2: 10, 3: 10}


def test_opening_hand_birds_are_shown_and_stay_in_place() -> None:
    """docs/rules/changsha.md §9.7, 裁定 9: opening small hands have birds, looked at and left at the front of
    the wall. Birds 6p (→ seat 1, the declarer: everyone doubles) and 3s (→ seat 2: doubles again)."""
    state = opening_deal(SIXI, birds=2, draws="6p3s")
    left = state.wall.remaining
    state = act(state, 1, Act.OPENING, detail="sixi")
    settlement = last_settlement(state, "opening")
    assert settlement.birds == tuple(parse_tiles_ordered("6p3s"))
    assert paid(settlement) == {0: 40, 2: 40, 3: 20}
    assert state.wall.remaining == left
    state = discard(state, 0, "3s")
    assert state.current == 1 and state.drawn == parse_tiles("6p")[0]  # the first bird is seat 1's draw


def test_declared_tiles_are_shown_to_the_other_seats() -> None:
    """docs/rules/changsha.md §6.6, 裁定 8: play continues; the declared tiles are shown. A 四喜 shows its
    four."""
    state = act(opening_deal(SIXI), 1, Act.OPENING, detail="sixi")
    for seat in (0, 2, 3):
        public = observe(state, seat).seats[1]
        assert public.declared == ("sixi",)
        assert public.revealed == tuple(parse_tiles("5555m"))
        assert public.hand is None  # the rest stays hidden


@pytest.mark.parametrize(("hand", "kind"), [(BANBAN, "banbanhu"), (QUEYISE, "queyise")])
def test_whole_hand_shown_for_banbanhu_and_queyise(hand: str, kind: str) -> None:
    """docs/rules/changsha.md 裁定 8: 板板胡 and 缺一色 are about the whole hand, so all of it is shown."""
    state = act(opening_deal(hand), 1, Act.OPENING, detail=kind)
    assert observe(state, 2).seats[1].revealed == tuple(parse_tiles(hand))


def test_liuliushun_shows_the_two_triplets() -> None:
    """docs/rules/changsha.md 裁定 8: 六六顺 shows its two triplets."""
    state = act(opening_deal(LIULIU), 1, Act.OPENING, detail="liuliushun")
    assert observe(state, 3).seats[1].revealed == tuple(parse_tiles("444m555s"))


def test_undeclared_opening_hand_is_not_shown() -> None:
    """Passing an opening hand shows nothing and pays nothing."""
    state = act(opening_deal(SIXI), 1, Act.PASS)
    assert observe(state, 2).seats[1].revealed == ()
    assert state.settlements == ()
    assert state.phase == Phase.TURN and state.current == 0


def test_play_continues_after_an_opening_hand() -> None:
    """docs/rules/changsha.md §6.6, 裁定 8: play then continues. The dealer discards first, seat 1 draws and
    plays on, and can still win the hand: its later win is settled on its own."""
    state = act(opening_deal(SIXI, draws="3s"), 1, Act.OPENING, detail="sixi")
    assert state.phase == Phase.TURN and state.current == 0 and state.result is None
    assert "0 discard 3s" in legal(state, 0)
    state = discard(state, 0, "3s")
    assert state.current == 1 and state.phase == Phase.TURN
    assert "1 discard 5m" in legal(state, 1)
    assert "1 kong 5m bu" in legal(state, 1)  # the four may still be konged


def test_opening_hands_offered_in_play_order_from_the_dealer() -> None:
    """docs/rules/changsha.md §6.1: declared after the deal, before the first discard — every player holding
    one is asked, in play order from the dealer."""
    state = deal([JUNK[0] + "3s", SIXI, JUNK[1], BANBAN], openings=True)
    assert to_act(state) == (1,)
    state = act(state, 1, Act.PASS)
    assert to_act(state) == (3,)
    state = act(state, 3, Act.OPENING, detail="banbanhu")
    assert state.phase == Phase.TURN and to_act(state) == (0,)
    assert [s.winners for s in state.settlements] == [(3,)]


def test_no_opening_hand_no_opening_phase() -> None:
    """Only a hand holding an opening hand is asked: otherwise the dealer discards at once."""
    state = deal([JUNK[0] + "3s", JUNK[1], JUNK[2], "135789m1379s147p"], openings=True)
    assert state.phase == Phase.TURN and to_act(state) == (0,)


def test_the_shown_tiles_stay_face_up_while_in_hand() -> None:
    """docs/rules/changsha.md §6: a declared 起手小胡 is shown to the table. The others see its tiles face up
    beside the hidden rest - in the picture, the text and the Mini App (which named the hand only) - until
    they leave the hand: one thrown is no longer shown there (``still_revealed``)."""
    state = act(opening_deal(SIXI), 1, Act.OPENING, detail="sixi")
    while state.phase == Phase.OPENING:
        state = act(state, to_act(state)[0], Act.PASS)
    view = observe(state, 2)
    assert still_revealed(view.seats[1]) == list(parse_tiles("5555m"))
    frame = json.loads(protocol.frame(_view(view)))
    assert frame["seats"][1]["r"] == protocol.tiles(parse_tiles("5555m")) and frame["seats"][1]["n"] == 13
    assert "r" not in frame["seats"][2]  # his own hand: not "shown"
    state = discard(state, 0, "3s")
    while state.phase == Phase.CLAIM:
        state = act(state, to_act(state)[0], Act.PASS)
    state = discard(state, 1, "5m")
    view = observe(state, 2)
    assert still_revealed(view.seats[1]) == list(parse_tiles("555m"))
    frame = json.loads(protocol.frame(_view(view)))
    assert frame["seats"][1]["r"] == protocol.tiles(parse_tiles("555m"))


def _view(obs: Observation) -> HandView:
    names = ("A", "B", "C", "D")
    return HandView(1, 1, 1, "changsha", "长沙", "zh", obs.seat, obs, names, frozenset(), None, None, ())
