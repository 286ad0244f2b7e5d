"""补张 vs 开杠, 杠上开花, 杠上炮 and 抢杠胡 (docs/rules/changsha.md §10, §11, 裁定 2, 裁定 3,
裁定 4).

Seat 0 deals and throws a 3s first; seat 1 holds 555m and draws the fourth 5m. 底分 10, no birds."""

from __future__ import annotations

from typing import Any

import pytest

from engine import Act, IllegalAction, MeldKind, Phase, State, observe, parse_tile, tile_str, to_act

from . import dealing
from .changsha_helpers import JUNK, deal, rob_deal
from .dealing import (
    act,
    act_events,
    can,
    dice_sum,
    discard,
    discard_drawn,
    hand_names,
    last_settlement,
    legal,
    paid,
    pass_claims,
)

READY_KONG = "555m234s678p23p88s"  # after the kong: 234s 678p 23p 88s, waits 1p/4p
UNREADY_KONG = "555m234s678p13p89s"  # after the kong: 234s 678p 13p 89s, not ready
WAITS_3P = "234m45556s12789p"


def kong_deal(hand: str = READY_KONG, seat2: str = JUNK[1], seed: int = 0, **kw: Any) -> State:
    """Seat 1 holds ``hand`` and has just drawn the fourth 5m (the first of ``draws``, default 5m); ``kw``:
    the other arguments of deal (back, stacks)."""
    return dealing.kong_deal(deal, JUNK, hand, seat2, seed=seed, **kw)


def kaigang_stack(seed: int = 0, hand: str = READY_KONG, seat2: str = JUNK[1]) -> int:
    """The dice sum seat 1's 开杠 rolls with this seed (the dice come from the seed, not from the wall)."""
    _, events = act_events(kong_deal(hand, seat2, seed), 1, Act.KONG, "5m", "kai")
    return dice_sum(events)


# ---------------------------------------------------------------- 补张 / 开杠 offered


def test_kaigang_offered_only_when_ready_after_the_kong() -> None:
    """docs/rules/changsha.md §10.2, §10.3: with four of a kind a player may 补张, or, only when the hand is
    ready after the kong (the bot checks), 开杠."""
    ready = kong_deal(READY_KONG)
    assert {"1 kong 5m bu", "1 kong 5m kai"} <= legal(ready, 1)
    unready = kong_deal(UNREADY_KONG)
    assert "1 kong 5m bu" in legal(unready, 1)
    assert "1 kong 5m kai" not in legal(unready, 1)


def test_buzhang_replacement_is_the_top_of_the_last_stack() -> None:
    """docs/rules/changsha.md §10.2: 补张 takes the top tile of the back-most stack, then its bottom."""
    state = kong_deal(back="9s1s")
    state = act(state, 1, Act.KONG, "5m", "bu")
    assert state.current == 1 and tile_str(state.drawn or 0) == "9s"
    assert [(m.kind, m.tile) for m in state.seats[1].melds] == [(MeldKind.KONG_CONCEALED, parse_tile("5m"))]
    assert not state.seats[1].locked  # 补张: play on freely


def test_buzhang_win_is_an_ordinary_self_draw() -> None:
    """docs/rules/changsha.md §10.2: a win on the 补张 tile is an ordinary self-draw. A small hand: the dealer
    pays 20, the others 10."""
    state = kong_deal(back="4p")
    state = act(state, 1, Act.KONG, "5m", "bu")
    assert can(state, 1, Act.WIN)
    state = act(state, 1, Act.WIN)
    settlement = last_settlement(state)
    assert hand_names(settlement, 1) == ["xiaohu"]
    assert paid(settlement) == {0: 20, 2: 10, 3: 10}


def test_kaigang_takes_the_top_of_the_dice_stack_from_the_back() -> None:
    """docs/rules/changsha.md §10.3, 裁定 2: 开杠 rolls two dice for N and takes the top tile of the N-th
    stack from the back."""
    n = kaigang_stack()
    assert 2 <= n <= 12
    state = kong_deal(stacks={n: "9s"}, back="1s1s")
    state, events = act_events(state, 1, Act.KONG, "5m", "kai")
    assert dice_sum(events) == n
    draws = [e for e in events if e.kind == "draw" and e.seat == 1]
    assert [tile_str(e.tile or 0) for e in draws] == ["9s"]


def test_kaigang_win_is_gangshangkaihua() -> None:
    """docs/rules/changsha.md §10.4, §7.11: the konger winning on his 开杠 tile = 杠上开花, a big hand. A big
    self-draw: the dealer pays 40, the others 30."""
    n = kaigang_stack()
    state = kong_deal(stacks={n: "4p"})
    state = act(state, 1, Act.KONG, "5m", "kai")
    assert can(state, 1, Act.WIN)
    state = act(state, 1, Act.WIN)
    settlement = last_settlement(state)
    assert hand_names(settlement, 1) == ["gangshangkaihua"]
    assert paid(settlement) == {0: 40, 2: 30, 3: 30}


def test_buzhang_after_kaigang_draw_is_not_gangshangkaihua() -> None:
    """docs/rules/changsha.md 裁定 3: only the dice (开杠) make 杠上开花; the same tile after 补张 is a small
    hand."""
    state = kong_deal(back="4p")
    state = act(state, 1, Act.KONG, "5m", "bu")
    state = act(state, 1, Act.WIN)
    assert "gangshangkaihua" not in hand_names(last_settlement(state), 1)


# ---------------------------------------------------------------- the locked hand


def test_after_kaigang_non_winning_tiles_are_discarded_automatically() -> None:
    """docs/rules/changsha.md §10.5, 裁定 2: after 开杠 the hand is locked: every drawn or turned-up tile that
    does not win is discarded automatically until the hand ends."""
    n = kaigang_stack()
    state = kong_deal(stacks={n: "9s"}, draws="5m1s1s1s7s7s7s9m4p")
    state, events = act_events(state, 1, Act.KONG, "5m", "kai")
    assert state.seats[1].locked and observe(state, 2).seats[1].locked
    discards = [(e.seat, tile_str(e.tile or 0), e.auto) for e in events if e.kind == "discard"]
    assert discards == [(1, "9s", True)]
    assert 1 not in to_act(state)
    state = pass_claims(state)
    state = discard_drawn(state)  # seat 2: 1s
    state = discard_drawn(state)  # seat 3: 1s
    state = discard_drawn(state)  # seat 0: 1s; seat 1 draws 7s and throws it by itself
    assert state.seats[1].discards[-1] == parse_tile("7s")
    assert 1 not in to_act(state)
    state = pass_claims(state)
    for _ in range(3):
        state = discard_drawn(state)
    assert state.current == 1 and state.drawn == parse_tile("4p")
    assert legal(state, 1) == {"1 win", "1 discard 4p"}  # a winning tile: the only decision left


@pytest.mark.parametrize(("mode", "may_pung"), [("bu", True), ("kai", False)])
def test_locked_hand_may_not_pung(mode: str, may_pung: bool) -> None:
    """docs/rules/changsha.md §10.5: after 开杠 the hand is locked — it no longer claims tiles for melds (it
    can only win), while after 补张 it plays on freely. Seat 1 (88s in hand) is offered the dealer's 8s only
    after 补张."""
    n = kaigang_stack()
    state = kong_deal(stacks={n: "9s"}, back="9s", draws="5m1s1s8m")
    state = act(state, 1, Act.KONG, "5m", mode)
    if mode == "bu":
        state = act(state, 1, Act.DISCARD, "9s")
    state = pass_claims(state)
    state = discard_drawn(state)  # seat 2
    state = discard_drawn(state)  # seat 3
    state = act(state, 0, Act.DISCARD, "8s")
    assert can(state, 1, Act.PUNG) is may_pung


def test_locked_hand_still_wins_on_a_discard() -> None:
    """docs/rules/changsha.md 裁定 2: the locked hand discards what does not win — it still wins on discards:
    the dealer's 4p is offered to seat 1 after its 开杠, as an ordinary small hand on a discard (20 from the
    dealer)."""
    n = kaigang_stack()
    state = kong_deal(stacks={n: "9s"}, draws="5m1s1s1s")
    state = act(state, 1, Act.KONG, "5m", "kai")
    state = pass_claims(state)
    state = discard_drawn(state)  # seat 2
    state = discard_drawn(state)  # seat 3
    state = act(state, 0, Act.DISCARD, "4p")
    assert legal(state, 1) == {"1 win", "1 pass"}
    state = act(state, 1, Act.WIN)
    settlement = last_settlement(state)
    assert hand_names(settlement, 1) == ["xiaohu"]
    assert paid(settlement) == {0: 20}


def test_locked_hand_may_not_choose_its_discard() -> None:
    """docs/rules/changsha.md §10.5: the locked hand discards the drawn tile: another discard is illegal,
    with the reason."""
    n = kaigang_stack()
    state = kong_deal(stacks={n: "4p"})
    state = act(state, 1, Act.KONG, "5m", "kai")
    try:
        act(state, 1, Act.DISCARD, "2s")
    except IllegalAction as e:
        assert "locked" in e.reason
    else:
        raise AssertionError("a locked hand discarded a tile of its choice")


def test_gangshangpao_on_the_kaigang_discard() -> None:
    """docs/rules/changsha.md §10.4, §7.13: another player winning on the tile the konger could not use =
    杠上炮, a big hand paid by the konger. Seat 1's dice tile 3p is thrown; seat 2 wins on it: big on discard,
    60 from seat 1."""
    n = kaigang_stack(seat2=WAITS_3P)
    state = kong_deal(seat2=WAITS_3P, stacks={n: "3p"})
    state = act(state, 1, Act.KONG, "5m", "kai")
    assert state.phase == Phase.CLAIM and state.seats[1].discards[-1] == parse_tile("3p")
    state = act(state, 2, Act.WIN)
    settlement = last_settlement(state)
    assert hand_names(settlement, 2) == ["gangshangpao"]
    assert paid(settlement) == {1: 60}


def test_buzhang_discard_is_not_gangshangpao() -> None:
    """docs/rules/changsha.md 裁定 4: 杠上炮 comes from 开杠; after a 补张 the konger's discard is
    ordinary."""
    state = kong_deal(seat2=WAITS_3P, back="3p")
    state = act(state, 1, Act.KONG, "5m", "bu")
    state = act(state, 1, Act.DISCARD, "3p")
    state = act(state, 2, Act.WIN)
    assert hand_names(last_settlement(state), 2) == ["xiaohu"]


# ---------------------------------------------------------------- 抢杠胡


def test_robbing_an_added_kong() -> None:
    """docs/rules/changsha.md §11.1, §7.12: another player may win on the tile added to a pung (抢杠胡), a
    big hand on a discard paid by the konger. Seat 1 adds the fourth 1m to its pung; seat 2 robs it (60)."""
    state = rob_deal()
    assert "1 kong 1m bu" in legal(state, 1)
    state = act(state, 1, Act.KONG, "1m", "bu")
    assert state.phase == Phase.CLAIM and to_act(state) == (2,)
    assert legal(state, 2) == {"2 win", "2 pass"}
    state = act(state, 2, Act.WIN)
    settlement = last_settlement(state)
    assert hand_names(settlement, 2) == ["qiangganghu"]
    assert paid(settlement) == {1: 60}


def test_passing_the_rob_completes_the_kong() -> None:
    """docs/rules/changsha.md §11.1: when nobody robs, the 补杠 stands and the konger takes his
    replacement."""
    state = rob_deal(back="9s")
    state = act(state, 1, Act.KONG, "1m", "bu")
    state = act(state, 2, Act.PASS)
    assert state.phase == Phase.TURN and state.current == 1 and state.drawn == parse_tile("9s")
    assert [(m.kind, m.tile) for m in state.seats[1].melds] == [(MeldKind.KONG_ADDED, parse_tile("1m"))]


def test_concealed_kong_is_never_robbed() -> None:
    """docs/rules/changsha.md §11.1: a concealed kong is never robbed. Seat 2 waits on 1m/4m, seat 1 konges
    its four 1m: nobody is asked, seat 1 takes its replacement."""
    state = deal([JUNK[0] + "3s", "111m345s456p789p6m", "23m234s789s123p55p", JUNK[2]], draws="1m", back="9s")
    state = discard(state, 0, "3s")
    state = act(state, 1, Act.KONG, "1m", "bu")
    assert state.phase == Phase.TURN and state.current == 1 and state.drawn == parse_tile("9s")
    assert [(m.kind, m.tile) for m in state.seats[1].melds] == [(MeldKind.KONG_CONCEALED, parse_tile("1m"))]
