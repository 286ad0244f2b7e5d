"""Who deals next in Shaoyang (docs/rules/shaoyang.md §3, 裁定 13, 裁定 14, 裁定 17).

The wall holds 136 − 53 = 83 tiles after the deal; with everyone throwing what he draws, seat 3 draws the
83rd, the last one.
"""

from __future__ import annotations

from engine import Act, new_hand

from .dealing import act, discard, discard_drawn
from .shaoyang_helpers import JUNK, SY, deal

READY_3S = "234m789s789p234p3s"
KONG_DEALER = "1111m47m258s369p1z3s"


def test_first_dealer_is_random_from_the_seed() -> None:
    """docs/rules/shaoyang.md §3.1, 裁定 17: the first dealer is drawn from the hand's seed, reproducibly."""
    dealers = {new_hand(SY, seed).dealer for seed in range(40)}
    assert dealers == {0, 1, 2, 3}
    assert new_hand(SY, 7).dealer == new_hand(SY, 7).dealer


def test_the_winner_deals_next() -> None:
    """docs/rules/shaoyang.md §3.2: the winner deals next."""
    state = deal([JUNK[0] + "3s", READY_3S, JUNK[1], JUNK[2]], draws="3s")
    state = act(state, 0, Act.DISCARD, "3s")
    state = act(state, 1, Act.WIN)
    assert state.result is not None and state.result.next_dealer == 1


def test_dealer_wins_and_stays() -> None:
    """docs/rules/shaoyang.md §3.2: a winning dealer stays dealer."""
    state = deal([READY_3S + "7z", JUNK[0], JUNK[1], JUNK[2]], draws="6m6m6m3s")
    state = discard(state, 0, "7z")
    for _ in range(3):
        state = discard_drawn(state)
    state = act(state, 0, Act.WIN)
    assert state.result is not None and state.result.next_dealer == 0


def test_drawn_hand_the_seat_that_drew_the_last_tile_deals() -> None:
    """docs/rules/shaoyang.md §3.3: a drawn hand: the player who drew the last tile deals. Seat 3 draws the
    83rd tile, nobody wins."""
    state = deal([JUNK[0] + "7z", JUNK[1], JUNK[2], "258m369s147p1567z"])
    state = discard(state, 0, "7z")
    while state.wall.remaining > 0:
        state = discard_drawn(state)
    assert state.current == 3
    state = discard_drawn(state)
    assert state.result is not None and state.result.reason == "draw"
    assert state.result.winners == () and state.result.next_dealer == 3


def test_drawn_hand_a_kong_replacement_can_be_the_last_tile() -> None:
    """docs/rules/shaoyang.md §3.3, 裁定 14: a kong replacement is drawn too. Seat 2 draws the 82nd tile, the
    fourth 7z, and 暗杠s: his replacement is the last tile, so he deals next (not seat 3)."""
    state = deal([JUNK[0] + "6z", "258m369s147p1256z", "147m258s369p4777z", JUNK[2]], tail="7z5s")
    state = discard(state, 0, "6z")
    while state.wall.remaining > 1:
        state = discard_drawn(state)
    assert state.current == 2
    state = act(state, 2, Act.KONG, "7z")
    assert state.wall.remaining == 0 and state.current == 2
    state = discard_drawn(state)
    assert state.result is not None and state.result.reason == "draw"
    assert state.result.next_dealer == 2


def test_several_winners_the_first_after_the_discarder_deals() -> None:
    """docs/rules/shaoyang.md §3.4, 裁定 13: two winners on one tile, the dealer not among them: the first
    winner in play order after the discarder deals. Seats 1 and 2 win the dealer's 杠上炮 → seat 1."""
    state = deal([KONG_DEALER, READY_3S, "567m456s789p234p3s", JUNK[2]], back="5z")
    state = act(state, 0, Act.KONG, "1m")
    state = act(state, 0, Act.DISCARD, "3s")
    state = act(state, 2, Act.WIN)
    state = act(state, 1, Act.WIN)
    assert state.result is not None and state.result.winners == (1, 2)
    assert state.result.next_dealer == 1


def test_several_winners_with_the_dealer_among_them_dealer_stays() -> None:
    """docs/rules/shaoyang.md §3.4, 裁定 13: if the dealer is one of several winners, he stays. Seat 1 暗杠s
    and throws 3s: seat 2 and the dealer both win it; play order from seat 1 is 2, 3, 0, yet the dealer
    stays."""
    state = deal(
        [READY_3S + "7z", "1111m47m258s369p1z", "567m456s789p234p3s", JUNK[2]], draws="3s", back="5z"
    )
    state = discard(state, 0, "7z")
    state = act(state, 1, Act.KONG, "1m")
    state = act(state, 1, Act.DISCARD, "3s")
    state = act(state, 2, Act.WIN)
    state = act(state, 0, Act.WIN)
    assert state.result is not None and state.result.winners == (2, 0)
    assert state.result.next_dealer == 0
