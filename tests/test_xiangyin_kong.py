"""Kongs: kong points for 4, 3 and 2 players, 流局不流杠, 补杠 at once (option no_late_bu), 补 vs 开杠 (two
tiles), the locked hand, 杠上开花, 抢杠胡 (docs/rules/xiangyin.md §10, 裁定 11–16).

Seat 0 deals and throws first; 底分 10, no birds. READY_KONG holds 555m and draws the fourth 5m: after the
kong 234s 678p 23p 88s waits 1p/4p (a small hand), so 开杠 is allowed. The dice of the first 开杠 of seed 0
are kai_dice(); ``stacks`` puts the two tiles of that stack.
"""

from __future__ import annotations

import pytest

from engine import Act, MeldKind, Phase, State, parse_tile, tile_str, to_act

from .dealing import (
    act,
    act_events,
    can,
    discard,
    discard_drawn,
    hand_names,
    last_settlement,
    legal,
    paid,
    pass_claims,
    play_until_haidi,
    received,
)
from .xiangyin_helpers import JUNK, check_zero_sum, deal, kai_dice

READY_KONG = "555m234s678p23p88s"  # + 5m: after the kong waits 1p/4p
UNREADY_KONG = "555m234s678p13p89s"  # + 5m: after the kong not ready
PUNG_HAND = "55m234s678p23p77s1m"  # pungs the dealer's 5m, throws 1m: 234s 678p 23p 77s waits 1p/4p
N = kai_dice(0)


def kong_deal(hand: str = READY_KONG, seats: int = 4, **kw):  # type: ignore[no-untyped-def]
    """Seat 1 holds ``hand`` and has just drawn the fourth 5m (the dealer threw 3s)."""
    hands = [JUNK[0] + "3s", hand, JUNK[1], JUNK[2]][:seats]
    state = deal(hands, draws="5m" + kw.pop("draws", ""), **kw)
    state = discard(state, 0, "3s")
    assert state.current == 1 and state.drawn == parse_tile("5m")
    return state


def pung_then_fourth(seats: int = 4, later: str = "", **kw):  # type: ignore[no-untyped-def]
    """Seat 1 pungs the dealer's 5m, throws 1m; a round later it draws the fourth 5m."""
    hands = [JUNK[0] + "5m", PUNG_HAND, JUNK[1], JUNK[2]][:seats]
    state = deal(hands, draws="3s" * (seats - 1) + "5m" + later, **kw)
    state = act(state, 0, Act.DISCARD, "5m")
    state = act(state, 1, Act.PUNG)
    state = discard(state, 1, "1m")
    for _ in range(seats - 1):
        state = discard_drawn(state)
    assert state.current == 1 and state.drawn == parse_tile("5m")
    return state


# ---------------------------------------------------------------- kong points


@pytest.mark.parametrize(("seats", "amount"), [(4, 30), (3, 20), (2, 10)])
def test_fanggang_points(seats: int, amount: int) -> None:
    """docs/rules/xiangyin.md §10.1: 放杠, the discarder pays 3 (3 players: 2, 2 players: 1) × 底分 (10)."""
    hands = [JUNK[0] + "5m", READY_KONG, JUNK[1], JUNK[2]][:seats]
    state = deal(hands)
    state = act(state, 0, Act.DISCARD, "5m")
    assert can(state, 1, Act.KONG, "5m", "bu")
    state = act(state, 1, Act.KONG, "5m", "bu")
    kong = last_settlement(state, "kong")
    assert hand_names(kong, 1) == ["fanggang"]
    assert paid(kong) == {0: amount} and received(kong) == {1: amount}


@pytest.mark.parametrize(("seats", "gain"), [(4, 30), (3, 20), (2, 10)])
def test_minggang_points(seats: int, gain: int) -> None:
    """docs/rules/xiangyin.md §10.1, 裁定 7: 明杠 (补杠, the added kong), each other player pays 1."""
    state = pung_then_fourth(seats)
    state = act(state, 1, Act.KONG, "5m", "bu")
    kong = last_settlement(state, "kong")
    assert hand_names(kong, 1) == ["minggang"]
    assert paid(kong) == {p: 10 for p in range(seats) if p != 1}
    assert received(kong) == {1: gain}


@pytest.mark.parametrize(("seats", "gain"), [(4, 60), (3, 40), (2, 20)])
def test_angang_points(seats: int, gain: int) -> None:
    """docs/rules/xiangyin.md §10.1: 暗杠, each other player pays 2."""
    state = kong_deal(seats=seats)
    state = act(state, 1, Act.KONG, "5m", "bu")
    kong = last_settlement(state, "kong")
    assert hand_names(kong, 1) == ["angang"]
    assert paid(kong) == {p: 20 for p in range(seats) if p != 1}
    assert received(kong) == {1: gain}


def test_kong_points_stay_on_a_drawn_hand() -> None:
    """docs/rules/xiangyin.md §10.1, 裁定 15: kong points are paid at once and kept on a drawn hand. Seat 1's
    暗杠 is paid at once; the hand is drawn and the 60 stay."""
    state = kong_deal()
    state = act(state, 1, Act.KONG, "5m", "bu")
    state = play_until_haidi(state, tile_str(state.drawn or 0))
    if state.phase == Phase.HAIDI:
        assert state.current == 1  # the only ready player
        state = act(state, 1, Act.PASS)
    assert state.phase == Phase.ENDED and state.result is not None
    assert state.result.reason == "draw"
    assert state.result.deltas == (-20, 60, -20, -20)


def test_kong_points_have_no_piao_and_no_birds() -> None:
    """docs/rules/xiangyin.md §6.1, 裁定 15: the kong points are added as they are: no 飘, no bird."""
    state = kong_deal(piao=[4, 4, 4, 4], birds=6)
    state = act(state, 1, Act.KONG, "5m", "bu")
    assert paid(last_settlement(state, "kong")) == {0: 20, 2: 20, 3: 20}


# ---------------------------------------------------------------- 补杠 at the first chance


def test_minggang_skipped_may_be_made_later_without_points() -> None:
    """docs/rules/xiangyin.md §10.2, 裁定 14: an added kong must be made at the first chance; by default a
    skipped one may still be made, as 补 or 开杠, but scores no kong points."""
    state = pung_then_fourth(later="5p5p5p7s")
    assert can(state, 1, Act.KONG, "5m", "bu")
    state = discard(state, 1, "7s")  # the 补杠 is skipped
    assert state.seats[1].passed_kongs == (parse_tile("5m"),)
    for _ in range(3):
        state = discard_drawn(state)
    assert {"1 kong 5m bu", "1 kong 5m kai"} <= legal(state, 1)
    before = len(state.settlements)
    state = act(state, 1, Act.KONG, "5m", "bu")
    assert [(m.kind, m.tile) for m in state.seats[1].melds] == [(MeldKind.KONG_ADDED, parse_tile("5m"))]
    assert len(state.settlements) == before  # no kong points


def test_option_skipped_minggang_only_kaigang() -> None:
    """docs/rules/xiangyin.md §14.6, 裁定 14: with 明杠过杠不能再补 a skipped added kong may only be made as
    开杠, and scores nothing."""
    state = pung_then_fourth(later="5p5p5p7s", no_late_bu=True)
    assert {"1 kong 5m bu", "1 kong 5m kai"} <= legal(state, 1)  # the first chance: both
    state = discard(state, 1, "7s")
    for _ in range(3):
        state = discard_drawn(state)
    kongs = {a for a in legal(state, 1) if "kong" in a}
    assert kongs == {"1 kong 5m kai"}
    before = len(state.settlements)
    state = act(state, 1, Act.KONG, "5m", "kai")
    assert len([s for s in state.settlements[before:] if s.kind == "kong"]) == 0


def test_minggang_at_the_first_chance_scores() -> None:
    """docs/rules/xiangyin.md §10.2: made at the first chance (right after drawing the fourth), an added kong
    scores 1 from each."""
    state = pung_then_fourth(no_late_bu=True)
    state = act(state, 1, Act.KONG, "5m", "bu")
    assert paid(last_settlement(state, "kong")) == {0: 10, 2: 10, 3: 10}


# ---------------------------------------------------------------- 补 vs 开杠


def test_bu_always_kai_only_when_ready() -> None:
    """docs/rules/xiangyin.md §10.5, 裁定 12: 开杠 only if the hand is ready after the kong; 补张 always."""
    assert {"1 kong 5m bu", "1 kong 5m kai"} <= legal(kong_deal(READY_KONG), 1)
    unready = legal(kong_deal(UNREADY_KONG), 1)
    assert "1 kong 5m bu" in unready and "1 kong 5m kai" not in unready


def test_bu_draws_one_replacement_and_plays_on() -> None:
    """docs/rules/xiangyin.md §10.4: 补张 takes one tile from the back of the wall and plays on."""
    state = kong_deal(back="9s")
    state = act(state, 1, Act.KONG, "5m", "bu")
    assert state.current == 1 and state.drawn == parse_tile("9s") and not state.seats[1].locked
    assert any(a.startswith("1 discard 2s") for a in legal(state, 1))


def test_kaigang_turns_up_the_two_tiles_of_a_stack() -> None:
    """docs/rules/xiangyin.md §10.5, 裁定 11: 开杠 turns up both tiles of the N-th stack from the back, N =
    the dice."""
    state = kong_deal(stacks={N: "9s1s"})
    state, events = act_events(state, 1, Act.KONG, "5m", "kai")
    (shown,) = [e for e in events if e.kind == "kong_tiles"]
    assert [tile_str(t) for t in shown.tiles] == ["9s", "1s"]
    assert state.seats[1].locked
    assert [tile_str(t) for t in state.seats[1].discards[-2:]] == ["9s", "1s"]  # neither wins: both fall


def test_gangshangkaihua_on_either_tile() -> None:
    """docs/rules/xiangyin.md §10.5, §5.11: winning on either tile is 杠上开花. The stack is 9s 4p; seat 1
    wins on 4p: small + 杠上开花 = one big hand, a self-draw: each pays 5 × 10 (the 暗杠 points were paid
    before)."""
    state = kong_deal(stacks={N: "9s4p"})
    state = act(state, 1, Act.KONG, "5m", "kai")
    assert legal(state, 1) == {"1 win 4p", "1 pass"}
    state = act(state, 1, Act.WIN, "4p")
    settlement = last_settlement(state)
    assert hand_names(settlement, 1) == ["gangshangkaihua"]
    assert paid(settlement) == {0: 50, 2: 50, 3: 50}
    assert state.result is not None and state.result.deltas == (-70, 210, -70, -70)
    check_zero_sum(state)


# ---------------------------------------------------------------- 特殊规则 1》–4》


def test_rule1_after_kaigang_only_kong_or_draw_and_discard() -> None:
    """docs/rules/xiangyin.md §10.6: after 开杠 the hand is locked: it throws what it draws by itself, and is
    not offered a pung (88s in hand, the dealer throws 8s)."""
    state = kong_deal(stacks={N: "9s1s"}, draws="2m6m4s9p")
    state = act(state, 1, Act.KONG, "5m", "kai")
    state = discard_drawn(state)  # seat 2: 2m
    state = discard_drawn(state)  # seat 3: 6m
    state = act(state, 0, Act.DISCARD, "8s")
    assert not can(state, 1, Act.PUNG)
    state = pass_claims(state)
    assert state.seats[1].discards[-1] == parse_tile("9p")  # drawn and thrown automatically
    assert state.current != 1 or state.phase != Phase.TURN


def test_rule1_locked_hand_may_kong_again() -> None:
    """docs/rules/xiangyin.md §10.6: after 开杠, 开杠 again but no more 补张. Seat 1 (777p in hand) draws the
    fourth 7p after its 开杠: it may 开杠 again, never 补."""
    state = kong_deal("555m777p234s23p88s", stacks={N: "9s1s"}, draws="2m6m9p7p")
    state = act(state, 1, Act.KONG, "5m", "kai")
    for _ in range(3):
        state = discard_drawn(state)
    assert state.current == 1 and state.drawn == parse_tile("7p")
    assert legal(state, 1) == {"1 kong 7p kai", "1 discard 7p"}


def test_rule1_a_further_kaigang_must_stay_ready() -> None:
    """docs/rules/xiangyin.md 裁定 12: the waits may change but the hand must stay ready — here konging 333s
    would leave 45s 456p 78p (not ready), so the fourth 3s is thrown by itself."""
    hands = [JUNK[0] + "9m", "555m33345s456p78p", JUNK[1], JUNK[2]]
    state = deal(hands, draws="5m2m6m9p3s", stacks={N: "9s1s"})
    state = discard(state, 0, "9m")
    state = act(state, 1, Act.KONG, "5m", "kai")
    for _ in range(3):
        state = discard_drawn(state)
    assert state.seats[1].discards[-1] == parse_tile("3s")
    assert [m.tile for m in state.seats[1].melds] == [parse_tile("5m")]


def test_rule2_others_may_only_win_on_the_kong_tiles() -> None:
    """docs/rules/xiangyin.md §10.5: the others may only win on the turned-up tiles. Seat 2 holds 11s, but
    the turned-up 1s is not offered for a pung."""
    state = deal([JUNK[0] + "3s", READY_KONG, "2367m112468s124p", JUNK[2]], draws="5m", stacks={N: "9s1s"})
    state = discard(state, 0, "3s")
    state = act(state, 1, Act.KONG, "5m", "kai")
    assert state.phase == Phase.TURN and state.current == 2  # nobody was asked
    assert not can(state, 2, Act.PUNG)


def test_rule2_the_konger_may_win() -> None:
    """docs/rules/xiangyin.md §10.5, 裁定 13: the konger is asked first, and may win on a turned-up tile."""
    state = kong_deal(stacks={N: "4p1s"})
    state = act(state, 1, Act.KONG, "5m", "kai")
    assert to_act(state) == (1,) and can(state, 1, Act.WIN, "4p")


def rob_deal(mode: str):  # type: ignore[no-untyped-def]
    """Seat 1 adds the fourth 5m to its pung (``mode`` 补 or 开杠); seat 2 waits on 5m (46m kanchan)."""
    hands = [JUNK[0] + "5m", PUNG_HAND, "46m123p789s234s99p", JUNK[2]]
    state = deal(hands, draws="1m1m1m5m")
    state = act(state, 0, Act.DISCARD, "5m")
    state = act(state, 1, Act.PUNG)
    state = discard(state, 1, "1m")
    for _ in range(3):
        state = discard_drawn(state)
    return act(state, 1, Act.KONG, "5m", mode)


@pytest.mark.parametrize("mode", ["bu", "kai"])
def test_rule4_robbing_bu_or_kai_is_qiangganghu(mode: str) -> None:
    """docs/rules/xiangyin.md §10.7, 裁定 16: another player may win on the tile added to a pung (抢杠胡, one
    big hand), paid by the konger alone, and the kong scores nothing. Seat 2's small hand robs seat 1's 5m:
    5 × 10."""
    state = rob_deal(mode)
    assert state.phase == Phase.CLAIM and legal(state, 2) == {"2 win", "2 pass"}
    state = act(state, 2, Act.WIN)
    settlement = last_settlement(state)
    assert hand_names(settlement, 2) == ["qiangganghu"]
    assert paid(settlement) == {1: 50}
    assert not [s for s in state.settlements if s.kind == "kong"]


def kept_rob_deal() -> State:
    """Seat 1 (a pung of 7p) makes 开杠 on 5m and turns up 7p 8s; seat 2 waits on 7p (68p kanchan)."""
    hands = [JUNK[0] + "7p", "77p555m123s456s9s1p", "123m789m234s11s68p", JUNK[2]]
    state = deal(hands, draws="1m2m3m5m", stacks={N: "7p8s"})
    state = act(state, 0, Act.DISCARD, "7p")
    state = act(state, 1, Act.PUNG)
    state = discard(state, 1, "1p")
    for _ in range(3):
        state = discard_drawn(state)
    return act(state, 1, Act.KONG, "5m", "kai")


def test_a_kept_kai_tile_added_to_a_pung_may_be_robbed() -> None:
    """docs/rules/xiangyin.md §10.7, 裁定 16: the 7p a 开杠 turned up, kept to add to the konger's pung, is a
    补杠 like any: once the 8s has fallen (nobody wins on it), seat 2 may rob the 7p (抢杠胡, 5 × 10 from the
    konger alone) and the kong scores nothing; if he passes, the kong stands and is paid. (Before, the kept
    tile's kong was made at once, never offered.)"""
    state = act(kept_rob_deal(), 1, Act.KONG, "7p", "kai")
    assert state.phase == Phase.CLAIM and legal(state, 2) == {"2 win", "2 pass"}
    won = act(state, 2, Act.WIN)
    assert hand_names(last_settlement(won), 2) == ["qiangganghu"] and paid(last_settlement(won)) == {1: 50}
    assert [s.kind for s in won.settlements].count("kong") == 1  # the 5m's only
    passed = act(state, 2, Act.PASS)
    assert (MeldKind.KONG_ADDED, parse_tile("7p")) in [(m.kind, m.tile) for m in passed.seats[1].melds]
    assert [s.kind for s in passed.settlements].count("kong") == 2


def test_passing_the_rob_completes_the_kong() -> None:
    """docs/rules/xiangyin.md §10.7: when nobody robs, the added kong stands and its points are paid."""
    state = rob_deal("bu")
    state = act(state, 2, Act.PASS)
    assert [(m.kind, m.tile) for m in state.seats[1].melds] == [(MeldKind.KONG_ADDED, parse_tile("5m"))]
    assert paid(last_settlement(state, "kong")) == {0: 10, 2: 10, 3: 10}


def test_concealed_kong_is_never_robbed() -> None:
    """docs/rules/xiangyin.md §10.7: a concealed kong cannot be robbed. Seat 2 waits on 5m; seat 1's 暗杠
    goes ahead."""
    state = deal([JUNK[0] + "3s", READY_KONG, "46m123p789s234s99p", JUNK[2]], draws="5m", back="9s")
    state = discard(state, 0, "3s")
    state = act(state, 1, Act.KONG, "5m", "bu")
    assert state.phase == Phase.TURN and state.current == 1


def test_bu_discard_is_not_gangshangpao() -> None:
    """docs/rules/xiangyin.md §5.13, §10.4: 杠上炮 only after 开杠. After a 补张 the discard is ordinary: seat
    2's small hand (waits 3p) may not win on it."""
    hands = [JUNK[0] + "3s", READY_KONG, "234m45556s12789p", JUNK[2]]
    state = deal(hands, draws="5m", back="3p")
    state = discard(state, 0, "3s")
    state = act(state, 1, Act.KONG, "5m", "bu")
    state = act(state, 1, Act.DISCARD, "3p")
    assert not can(state, 2, Act.WIN)


def test_rule2_the_konger_may_kong_a_turned_up_tile() -> None:
    """docs/rules/xiangyin.md 裁定 13: the konger may keep a turned-up tile for a new 开杠; the other falls
    first and the others may only win on it. Seat 1 holds 777p; its 开杠 turns up 7p and 1s: it keeps 7p for
    a second 开杠 (a concealed kong, 234s 23p 88s still waits 1p/4p), the 1s falls, and the new kong rolls
    the dice again."""
    state = kong_deal("555m777p234s23p88s", stacks={N: "7p1s"})
    state = act(state, 1, Act.KONG, "5m", "kai")
    assert legal(state, 1) == {"1 kong 7p kai", "1 pass"}
    state, events = act_events(state, 1, Act.KONG, "7p", "kai")
    assert [(m.kind, tile_str(m.tile)) for m in state.seats[1].melds] == [
        (MeldKind.KONG_CONCEALED, "5m"),
        (MeldKind.KONG_CONCEALED, "7p"),
    ]
    assert parse_tile("1s") in state.seats[1].discards  # the other turned-up tile fell
    assert sum(1 for e in events if e.kind == "dice") == 1  # the second 开杠's own roll
    assert state.seats[1].locked
