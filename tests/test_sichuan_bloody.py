"""血战到底: winners leave, the hand goes on, 一炮多响, 抢杠胡 (docs/rules/sichuan.md §7, §3.4, §10, §11).

Seat 0 deals and throws its 14th tile first. DUIDUI (对对胡) waits on 4s; PING2 (平胡) waits on 4s/7s."""

from __future__ import annotations

from engine import Act, Phase, legal_actions, observe, to_act

from .dealing import (
    act,
    can,
    discard,
    discard_drawn,
    flows,
    hand_names,
    last_settlement,
    legal,
    pass_claims,
    settlements,
)
from .sichuan_helpers import J0, J1, J2, deal

DUIDUI = "333m666m222s888s4s"
PING2 = "123p456p789p56s77s"
PING3 = "234p567p888p35s99p"  # waits 4s


def test_winner_leaves_play_and_the_hand_goes_on() -> None:
    """docs/rules/sichuan.md §7.1, §7.2: a player who wins leaves the hand; the others play on. The next seat
    draws; the winner has nothing to do and his hand is laid open."""
    state = deal([J0 + "4s", DUIDUI, J1, J2])
    state = act(state, 0, Act.DISCARD, "4s")
    state = act(state, 1, Act.WIN)
    assert state.phase == Phase.TURN and state.current == 2 and state.drawn is not None
    assert state.seats[1].won and state.winners == (1,)
    assert legal_actions(state, 1) == ()
    assert observe(state, 3).seats[1].hand is not None


def test_a_winner_never_acts_again() -> None:
    """docs/rules/sichuan.md §7.1: the winner leaves — no turn, no claim, no win, however long the hand goes
    on."""
    state = deal([J0 + "4s", DUIDUI, J1, J2], last_four=False)
    state = act(state, 0, Act.DISCARD, "4s")
    state = act(state, 1, Act.WIN)
    steps = 0
    while state.phase != Phase.ENDED:
        assert 1 not in to_act(state) and legal_actions(state, 1) == ()
        state = discard_drawn(state)
        steps += 1
    assert steps > 30
    assert state.result is not None and state.result.winners == (1,)


def test_play_resumes_after_the_last_winner_of_a_multi_win() -> None:
    """docs/rules/sichuan.md §3.4, §7.2: 一炮多响, and play goes on with the next player after the last
    winner: seats 1 and 2 win on the dealer's 4s, seat 3 draws next."""
    state = deal([J0 + "4s", DUIDUI, PING2, J2])
    state = act(state, 0, Act.DISCARD, "4s")
    state = act(state, 1, Act.WIN)
    state = act(state, 2, Act.WIN)
    assert state.phase == Phase.TURN and state.current == 3
    assert state.winners == (1, 2)


def test_multi_win_needs_every_answer() -> None:
    """docs/rules/sichuan.md §3.4: all of several players may win on one discard — one taking the win does
    not take it from the other."""
    state = deal([J0 + "4s", DUIDUI, PING2, J2])
    state = act(state, 0, Act.DISCARD, "4s")
    state = act(state, 1, Act.WIN)
    assert state.phase == Phase.CLAIM and to_act(state) == (2,)
    state = act(state, 2, Act.PASS)
    assert last_settlement(state).winners == (1,)
    assert not state.seats[2].won


def test_passed_win_blocks_discard_wins_until_the_own_draw() -> None:
    """docs/rules/sichuan.md §11.1: a player who passes a win on a discard cannot win on any discard until
    his own next draw. Seat 1 (waits 1s/4s) lets seat 2's 4s go: seat 3's 1s is not offered to him."""
    state = deal([J0 + "3p", "123m456m789m23s55s", J2, J1], draws="6p4s1s")
    state = discard_drawn(discard(state, 0, "3p"))
    state = act(state, 2, Act.DISCARD, "4s")
    assert legal(state, 1) == {"1 win", "1 pass"}
    state = act(state, 1, Act.PASS)
    assert state.current == 3 and state.drawn == 9
    state = act(state, 3, Act.DISCARD, "1s")
    assert state.phase == Phase.TURN and state.current == 0  # no window for seat 1


def test_hand_ends_when_three_have_won() -> None:
    """docs/rules/sichuan.md §7.3: the hand ends when three have won (or the wall is empty). Three win on one
    4s: the hand is over at once, with no 查叫."""
    state = deal([J0 + "4s", DUIDUI, PING2, PING3])
    state = act(state, 0, Act.DISCARD, "4s")
    for seat in (3, 1, 2):
        state = act(state, seat, Act.WIN)
    assert state.phase == Phase.ENDED and state.result is not None
    assert state.result.reason == "win" and state.result.winners == (1, 2, 3)
    assert flows(last_settlement(state)) == {(0, 1, 2), (0, 2, 1), (0, 3, 1)}
    assert settlements(state, "draw") == []


def test_robbing_an_added_kong() -> None:
    """docs/rules/sichuan.md §10.1, §5.8: only an added kong can be robbed; +1 for 抢杠胡, paid by the konger
    as on a discard, and the kong earns nothing. Seat 2 pungs the dealer's 7s (seat 3 lets that win go),
    later adds his drawn 7s; seat 3 robs it: 平胡 + 抢杠胡 = 1 番, 2 from seat 2."""
    state = deal([J0 + "7s", J2, "77s123p456p789p13s", "123m456m789m56s99s"], draws="4p4p4p7s")
    state = act(state, 0, Act.DISCARD, "7s")
    assert can(state, 3, Act.WIN) and can(state, 2, Act.PUNG)
    state = pass_claims(state, keep=(2,))
    state = act(state, 2, Act.PUNG)
    state = discard(state, 2, "1s")
    for _ in range(3):
        state = discard_drawn(state)
    assert state.current == 2 and can(state, 2, Act.KONG, "7s")
    state = act(state, 2, Act.KONG, "7s")
    assert state.phase == Phase.CLAIM and legal(state, 3) == {"3 win", "3 pass"}
    state = act(state, 3, Act.WIN)
    settlement = last_settlement(state)
    assert hand_names(settlement, 3) == ["pinghu", "qiangganghu"]
    assert flows(settlement) == {(2, 3, 2)}
    assert settlements(state, "kong") == []


def test_a_concealed_kong_cannot_be_robbed() -> None:
    """docs/rules/sichuan.md §10.1: a concealed kong is never robbed. Seat 3 waits on 7s; seat 2's 暗杠 of
    7s opens no window."""
    state = deal([J0 + "3p", J2, "7777s123p456p789p", "123m456m789m56s99s"], draws="4p4p")
    state = discard(state, 0, "3p")
    state = discard_drawn(state)
    assert state.current == 2
    state = act(state, 2, Act.KONG, "7s")
    assert state.phase == Phase.TURN and state.current == 2
    assert last_settlement(state, "kong").winners == (2,)
