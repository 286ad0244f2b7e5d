"""Illegal actions are refused with a reason (errors.py: IllegalAction — "an action that is not legal in this
state; ``reason`` says why"), and leave the state as it was."""

from __future__ import annotations

import pytest

from engine import Act, IllegalAction, Phase, State

from .changsha_helpers import JUNK, deal
from .dealing import act, action, discard

SMALL = "234m45556s23789p"


def refused(state: State, seat: int, kind: Act, tile: str | None = None, detail: str = "") -> str:
    before = state
    with pytest.raises(IllegalAction) as info:
        act(state, seat, kind, tile, detail)
    assert state is before and state.version == before.version
    assert info.value.reason
    return info.value.reason


def test_discarding_a_tile_not_held() -> None:
    """A seat can only discard a tile it holds. The dealer holds no 5p."""
    state = deal([JUNK[0] + "3s", SMALL, JUNK[1], JUNK[2]])
    reason = refused(state, 0, Act.DISCARD, "5p")
    assert "5p" in reason and "hold" in reason


def test_acting_out_of_turn() -> None:
    """docs/rules/changsha.md §3.1, §3.2: the dealer holds 14 tiles and discards first. Seat 2 may not
    discard now."""
    state = deal([JUNK[0] + "3s", SMALL, JUNK[1], JUNK[2]])
    reason = refused(state, 2, Act.DISCARD, "2m")
    assert "turn" in reason and "0" in reason


def test_acting_out_of_turn_in_a_claim_window() -> None:
    """Only the seats asked about a discard answer it: the discarder's 下家 cannot draw-and-discard early."""
    state = deal([JUNK[0] + "3s", SMALL, JUNK[1], JUNK[2]])
    state = act(state, 0, Act.DISCARD, "3s")  # seat 1 may chow 345s
    assert state.phase == Phase.CLAIM
    reason = refused(state, 2, Act.PASS)
    assert "turn" in reason


def test_answering_a_claim_twice() -> None:
    """docs/rules/common.md §3.6: each player answers a discard once. Seat 1 passes the 4p (win and chow)
    while seat 3 (44p) still may pung; seat 1 answering again is refused."""
    state = deal([JUNK[0] + "3s", SMALL, JUNK[1], "2367m12468s1244p"], draws="5m5m5m5m")
    state = discard(state, 0, "3s")
    for seat in (1, 2, 3):
        state = discard(state, seat, "5m")
    state = act(state, 0, Act.DISCARD, "4p")
    state = act(state, 1, Act.PASS)
    assert state.phase == Phase.CLAIM
    reason = refused(state, 1, Act.WIN)
    assert "already answered" in reason


def test_acting_after_the_hand_ended() -> None:
    """A hand that has ended takes no more actions."""
    state = deal([JUNK[0] + "3s", SMALL, JUNK[1], JUNK[2]], draws="4p")
    state = discard(state, 0, "3s")
    state = act(state, 1, Act.WIN)
    assert state.phase == Phase.ENDED
    for seat, kind, tile in [(1, Act.DISCARD, "4p"), (2, Act.PASS, None), (0, Act.WIN, None)]:
        assert "over" in refused(state, seat, kind, tile)


def test_declaring_a_win_that_is_not_there() -> None:
    """docs/rules/changsha.md §5.1: a hand that is not four sets and a 2/5/8 pair (nor a big hand) cannot
    win."""
    state = deal([JUNK[0] + "3s", SMALL, JUNK[1], JUNK[2]], draws="9s")
    state = discard(state, 0, "3s")
    assert "win" in refused(state, 1, Act.WIN)


def test_chow_by_a_seat_that_is_not_next() -> None:
    """docs/rules/changsha.md §4.2: only the next player may chow — seat 2 (24s) may not chow the dealer's
    3s."""
    state = deal([JUNK[0] + "3s", SMALL, JUNK[1], JUNK[2]])
    state = act(state, 0, Act.DISCARD, "3s")
    refused(state, 2, Act.CHOW, "2s")


def test_kaigang_when_not_ready_is_refused() -> None:
    """docs/rules/changsha.md §10.3: 开杠 only when the hand is ready after the kong."""
    state = deal([JUNK[0] + "3s", "555m234s678p13p89s", JUNK[1], JUNK[2]], draws="5m")
    state = discard(state, 0, "3s")
    refused(state, 1, Act.KONG, "5m", "kai")


def test_illegal_action_is_an_engine_error() -> None:
    """errors.py: IllegalAction is one of the errors the engine raises on purpose (EngineError)."""
    from engine import EngineError

    state = deal([JUNK[0] + "3s", SMALL, JUNK[1], JUNK[2]])
    with pytest.raises(EngineError):
        from engine import apply

        apply(state, action(3, Act.TAKE))
