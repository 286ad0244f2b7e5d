"""The last four wall tiles force a win (docs/rules/sichuan.md §9, 裁定 4: room option ``last_four``, off by
default, on in these tests unless told), and 海底 (the last tile, +1 番: docs/rules/sichuan.md §5.9, 裁定 11).

TANKI (123m456m789m123s9s) waits on 9s alone; the other three 9s are in J0, J1 and the wall tail, so the
tail decides when it comes. Nobody claims anything on the way (junk hands hold no pair). With no claim or
kong the front draws go seat 1, 2, 3, 0, 1, … : of the 55 wall tiles seat 3 draws the 51st (4 left after it,
not yet the last four), seat 0 the 52nd (the first of the last four) and seat 3 the 55th (the 海底)."""

from __future__ import annotations

from engine import Act, EventKind, Phase, State

from .dealing import (
    act,
    act_events,
    discard,
    discard_drawn,
    flows,
    hand_names,
    last_settlement,
    legal,
    paid,
    settlements,
)
from .sichuan_helpers import J0, J1, J2, SC, deal

TANKI = "123m456m789m123s9s"


def until_remaining(state: State, left: int) -> State:
    """Everyone throws what he draws until the wall holds ``left`` tiles (the seat to play has drawn)."""
    while state.wall.remaining > left:
        state = discard_drawn(state)
    assert state.phase == Phase.TURN
    return state


def test_last_four_self_draw_must_win() -> None:
    """docs/rules/sichuan.md §9.1: once the last four wall tiles are being drawn, a player who can win must
    win. Seat 1 draws 9s as the 3rd of the last four: win only."""
    state = deal([J0 + "3p", TANKI, J1, J2], tail="6p9s6p6p", last_four=True)
    state = discard(state, 0, "3p")
    state = until_remaining(state, 2)
    assert state.current == 1 and state.drawn == 17
    assert legal(state, 1) == {"1 win"}
    state = act(state, 1, Act.WIN)
    assert state.seats[1].won


def test_before_the_last_four_the_win_may_be_passed() -> None:
    """docs/rules/sichuan.md 裁定 4: fewer than 4 tiles left — the 5th tile from the end is not one of them.
    Seat 3 draws 9s with four tiles still in the wall and may throw it."""
    state = deal([J0 + "3p", J1, J2, TANKI], tail="9s6p6p6p1p", last_four=True)
    state = discard(state, 0, "3p")
    state = until_remaining(state, 4)
    assert state.current == 3 and state.drawn == 17
    assert "3 win" in legal(state, 3) and "3 discard 9s" in legal(state, 3)


def test_first_of_the_last_four_is_forced() -> None:
    """docs/rules/sichuan.md 裁定 4: from the first of the last four on — the 4th tile from the end (seat 0
    draws it, 3 left after) already forces."""
    state = deal([TANKI + "3p", J0, J1, J2], tail="9s6p6p6p", last_four=True)
    state = discard(state, 0, "3p")
    state = until_remaining(state, 3)
    assert state.current == 0 and state.drawn == 17
    assert legal(state, 0) == {"0 win"}


def test_last_four_discard_must_be_won() -> None:
    """docs/rules/sichuan.md §9.1: on a discard too — a 9s thrown by another player in the last four is a
    forced win (seat 2 draws it and throws it, 1 tile left)."""
    state = deal([J0 + "3p", TANKI, J1, J2], tail="6p6p9s6p", last_four=True)
    state = discard(state, 0, "3p")
    state = until_remaining(state, 1)
    assert state.current == 2 and state.drawn == 17
    state = act(state, 2, Act.DISCARD, "9s")
    assert state.phase == Phase.CLAIM and legal(state, 1) == {"1 win"}


def test_last_four_is_off_by_default() -> None:
    """docs/rules/sichuan.md §9.1, 裁定 4: the forced win is an option, off by default (this table always
    plays 定缺): by default the win on the last four may be passed."""
    assert SC.make_options()["last_four"] is False
    state = deal([J0 + "3p", TANKI, J1, J2], tail="6p9s6p6p")
    state = discard(state, 0, "3p")
    state = until_remaining(state, 2)
    assert state.current == 1 and {"1 win", "1 discard 9s"} <= legal(state, 1)


def test_haidilaoyue_self_drawn_last_tile() -> None:
    """docs/rules/sichuan.md §5.9: +1 for 海底 (the last tile) — seat 3 draws the last tile and wins: 平胡 +
    海底捞月 = 1 番, 2 + 1 (自摸加底) from each player still in. The wall is empty, so the hand ends; nobody
    else is ready, so 查叫 moves nothing; seat 3, the first winner, deals next."""
    state = deal([J0 + "3p", J1, J2, TANKI], tail="6p6p6p9s", last_four=True)
    state = discard(state, 0, "3p")
    state = until_remaining(state, 0)
    assert state.current == 3 and legal(state, 3) == {"3 win"}
    state = act(state, 3, Act.WIN)
    settlement = last_settlement(state)
    assert hand_names(settlement, 3) == ["haidilaoyue", "pinghu", "zimo_jiadi"]
    assert paid(settlement) == {0: 3, 1: 3, 2: 3}
    assert state.phase == Phase.ENDED and state.result is not None
    assert state.result.next_dealer == 3
    assert not any(d.payments for d in settlements(state, "draw"))  # docs/rules/sichuan.md §12.6


def test_haidipao_win_on_the_last_discard() -> None:
    """docs/rules/sichuan.md §5.9: +1 for 海底 — seat 3 draws the last tile, 9s (his void), and throws it;
    seat 1 wins on it: 平胡 + 海底炮 = 1 番, 2 from seat 3."""
    state = deal([J0 + "3p", TANKI, J1, J2], tail="6p6p6p9s")
    state = discard(state, 0, "3p")
    state = until_remaining(state, 0)
    state = act(state, 3, Act.DISCARD, "9s")
    state, events = act_events(state, 1, Act.WIN)
    settlement = last_settlement(state)
    assert hand_names(settlement, 1) == ["haidipao", "pinghu"]
    assert flows(settlement) == {(3, 1, 2)}
    assert state.phase == Phase.ENDED
    # the win as the table saw it names what it is paid as: 海底炮 too (it read only 平胡, then paid 海底炮)
    [won] = [e for e in events if e.kind == EventKind.WIN]
    assert sorted(won.hands) == ["haidipao", "pinghu"]


def test_no_haidi_before_the_last_tile() -> None:
    """docs/rules/sichuan.md §5.9: 海底 is the last tile only: a win on the second-to-last is plain."""
    state = deal([J0 + "3p", TANKI, J1, J2], tail="6p6p9s6p")
    state = discard(state, 0, "3p")
    state = until_remaining(state, 1)
    state = act(state, 2, Act.DISCARD, "9s")
    state = act(state, 1, Act.WIN)
    assert hand_names(last_settlement(state), 1) == ["pinghu"]


def test_no_haidi_when_the_last_tile_is_a_kong_replacement() -> None:
    """docs/rules/sichuan.md 裁定 11: if the last tile went as a kong replacement there is no 海底: seat 2
    draws the fourth 7s with one tile left, konges, and wins on that last tile as his replacement — 杠上花 and
    根, no 海底捞月."""
    state = deal([J0 + "3p", J2, "777s123456789p5p", J0], tail="3m3m7s5p", last_four=True)
    state = discard(state, 0, "3p")
    state = until_remaining(state, 1)
    assert state.current == 2 and state.drawn == 15
    state = act(state, 2, Act.KONG, "7s")
    assert state.wall.remaining == 0 and legal(state, 2) == {"2 win"}
    state = act(state, 2, Act.WIN)
    assert hand_names(last_settlement(state), 2) == ["gangshanghua", "gen", "pinghu", "zimo_jiadi"]
