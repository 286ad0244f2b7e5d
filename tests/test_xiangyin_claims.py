"""Claims: no chow (option 清一色可吃 and its limits), 通炮, 漏胡 (docs/rules/xiangyin.md §3, §9, §13,
裁定 23, 裁定 24).

Seat 0 deals; 底分 10, no birds unless told. CHOWER holds seven 万 (1346789m) — enough to chow toward
清一色 when the option is on.
"""

from __future__ import annotations

from dataclasses import replace

from engine import Act, Meld, MeldKind, Phase, parse_tile, parse_tiles_ordered
from engine.state import evolve_seat
from engine.tiles import to_counts
from engine.variants.xiangyin import claim_allowed

from .dealing import (
    act,
    can,
    discard,
    discard_drawn,
    hand_names,
    last_settlement,
    legal,
    paid,
    pass_claims,
    received,
)
from .xiangyin_helpers import JUNK, check_zero_sum, deal, win_names

CHOWER = "1346789m2356s36p"  # seven 万, four 条, two 筒
SIX_WAN = "134678m23556s36p"  # six 万 only
PPH = "111m333s333p77p55m"  # 碰碰胡, waits 7p / 5m
QD_7P = "11s44s88s22m99p66p7p"  # 七小对, waits 7p
CHOW_ON = {"qingyise_chow": True}


# ---------------------------------------------------------------- no chow


def test_no_chow_by_default() -> None:
    """docs/rules/xiangyin.md §3.2, §14.5: no chow by default. The dealer's 2m is not offered to seat 1 for a
    chow, though 1m 3m 4m are in hand."""
    state = deal([JUNK[0] + "2m", CHOWER, JUNK[1], JUNK[2]])
    state = act(state, 0, Act.DISCARD, "2m")
    assert not any("chow" in a for a in legal(state, 1))


def test_option_chow_with_seven_of_a_suit() -> None:
    """docs/rules/xiangyin.md §9.3: with 清一色可吃, a suit of at least 7 tiles in hand and melds may chow.
    Seat 1 holds seven 万: it may chow the dealer's 2m (123m, 234m)."""
    state = deal([JUNK[0] + "2m", CHOWER, JUNK[1], JUNK[2]], **CHOW_ON)
    state = act(state, 0, Act.DISCARD, "2m")
    assert {a for a in legal(state, 1) if "chow" in a} == {"1 chow 1m", "1 chow 2m"}
    state = act(state, 1, Act.CHOW, "1m")
    assert state.seats[1].melds == (Meld(MeldKind.CHOW, parse_tile("1m"), 0),)
    assert state.current == 1 and state.phase == Phase.TURN


def test_option_chow_needs_seven() -> None:
    """docs/rules/xiangyin.md §9.3, 裁定 24: at least 7 — with six 万 there is no chow; the discard itself is
    not counted."""
    state = deal([JUNK[0] + "2m", SIX_WAN, JUNK[1], JUNK[2]], **CHOW_ON)
    state = act(state, 0, Act.DISCARD, "2m")
    assert not any("chow" in a for a in legal(state, 1))


def test_option_chow_only_in_the_long_suit() -> None:
    """docs/rules/xiangyin.md §9.3: only in the suit with seven or more — seat 1's four 条 (2356s) may not
    chow the dealer's 4s."""
    state = deal([JUNK[0] + "4s", CHOWER, JUNK[1], JUNK[2]], **CHOW_ON)
    state = act(state, 0, Act.DISCARD, "4s")
    assert not any("chow" in a for a in legal(state, 1))


def test_option_chow_only_from_the_previous_seat() -> None:
    """docs/rules/xiangyin.md §9.2: only from the previous player — seat 2's 2m is not chowed by seat 1 (seat
    1 is its 上家)."""
    state = deal([JUNK[0] + "9m", CHOWER, "2367m12468s1248p", JUNK[2]], draws="5p", **CHOW_ON)
    state = discard(state, 0, "9m")
    state = discard(state, 1, "5p")
    state = act(state, 2, Act.DISCARD, "2m")
    assert not any("chow" in a for a in legal(state, 1))


def test_option_no_chow_after_a_pung_of_another_suit() -> None:
    """docs/rules/xiangyin.md §9.4: a pung of another suit forbids the chow. Seat 1 pungs 5s, then the
    dealer's 2m is not chowed although seat 1 still holds seven 万."""
    hand = "1346789m2556s36p"
    state = deal([JUNK[0] + "5s", hand, JUNK[1], JUNK[2]], draws="4s4s2m", **CHOW_ON)
    state = act(state, 0, Act.DISCARD, "5s")
    state = act(state, 1, Act.PUNG)
    state = discard(state, 1, "3p")
    state = discard_drawn(state)  # seat 2: 4s
    state = discard_drawn(state)  # seat 3: 4s
    state = act(state, 0, Act.DISCARD, "2m")
    assert not any("chow" in a for a in legal(state, 1))


def chowed(hand: str, draws: str = ""):  # type: ignore[no-untyped-def]
    """Seat 1 chows the dealer's 2m into 123m and throws 3p; the next draws are ``draws``."""
    state = deal([JUNK[0] + "2m", hand, JUNK[1], JUNK[2]], draws=draws, **CHOW_ON)
    state = act(state, 0, Act.DISCARD, "2m")
    state = act(state, 1, Act.CHOW, "1m")
    return act(state, 1, Act.DISCARD, "3p")


def test_after_chow_no_pung_of_another_suit() -> None:
    """docs/rules/xiangyin.md §9.5: after a chow, no pung, kong, chow or win in another suit. Seat 2 throws
    5s; seat 1 (55s) may not pung it."""
    state = chowed("1346789m2556s36p", draws="5s")
    state = pass_and_throw(state, 2, "5s")
    assert not can(state, 1, Act.PUNG)


def pass_and_throw(state, seat: int, tile: str):  # type: ignore[no-untyped-def]
    """The claims on seat 1's discard are passed; ``seat`` (who has drawn) throws ``tile``."""
    state = pass_claims(state)
    assert state.current == seat
    return act(state, seat, Act.DISCARD, tile)


def test_after_chow_no_exposed_kong_of_another_suit() -> None:
    """docs/rules/xiangyin.md §9.5: after a chow, no exposed kong in another suit. Seat 1 (333s) is offered
    neither kong nor pung on 3s."""
    state = chowed("1346789m2333s36p", draws="3s")
    state = pass_and_throw(state, 2, "3s")
    assert not can(state, 1, Act.PUNG)
    assert not any("kong" in a for a in legal(state, 1))


def test_after_chow_no_concealed_kong_of_another_suit() -> None:
    """docs/rules/xiangyin.md §9.5, 裁定 24: after a chow, no concealed kong in another suit. Seat 1 draws the
    fourth 3s: no kong."""
    state = chowed("1346789m2333s36p", draws="5p5p9p3s")
    for _ in range(3):
        state = discard_drawn(state)  # seats 2, 3, 0
    assert state.current == 1 and state.drawn == parse_tile("3s")
    assert not any("kong" in a for a in legal(state, 1))


def test_after_chow_pung_in_the_same_suit() -> None:
    """docs/rules/xiangyin.md §9.5: in the chowed suit a pung is still offered."""
    state = chowed("1346788m2356s36p", draws="8m")
    state = pass_and_throw(state, 2, "8m")
    assert can(state, 1, Act.PUNG)


def test_after_chow_only_qingyise_wins() -> None:
    """docs/rules/xiangyin.md §9.5: after a chow, only a 清一色 wins."""
    assert win_names("[123m]456s789p234p33s", "3s", options=CHOW_ON) is None
    assert win_names("[123m]456m789m234m33m", "3m", options=CHOW_ON) == ["qingyise"]


def test_after_chow_no_chow_of_another_suit() -> None:
    """docs/rules/xiangyin.md §9.4: after a chow of one suit, no chow of another. Seat 1 has chowed 123m and
    now holds seven 条: still no 条 chow. With seven 万 instead, a 万 chow stays possible."""
    state = deal([JUNK[0] + "2m", CHOWER, JUNK[1], JUNK[2]], **CHOW_ON)
    seat = evolve_seat(
        state.seats[1],
        counts=to_counts(parse_tiles_ordered("1234567s568m")),
        melds=(Meld(MeldKind.CHOW, parse_tile("1m"), 0),),
    )
    state = replace(state, seats=(state.seats[0], seat, *state.seats[2:]))
    assert sum(seat.counts) == 10 and sum(seat.counts[9:18]) == 7
    assert not claim_allowed(state, 1, Act.CHOW, parse_tile("8s"))
    seat = evolve_seat(seat, counts=to_counts(parse_tiles_ordered("123s4566789m")))
    state = replace(state, seats=(state.seats[0], seat, *state.seats[2:]))
    assert claim_allowed(state, 1, Act.CHOW, parse_tile("5m"))


# ---------------------------------------------------------------- 通炮


def test_tongpao_several_win_on_one_discard() -> None:
    """docs/rules/xiangyin.md §3.3: several players may win on one tile (通炮). The dealer's 7p: seat 1
    (碰碰胡) and seat 2 (七小对) both win; the dealer pays each 5 × 10."""
    state = deal([JUNK[0] + "7p", PPH, QD_7P, JUNK[2]])
    state = act(state, 0, Act.DISCARD, "7p")
    state = act(state, 1, Act.WIN)
    state = act(state, 2, Act.WIN)
    settlement = last_settlement(state)
    assert settlement.winners == (1, 2)
    assert hand_names(settlement, 1) == ["pengpenghu"] and hand_names(settlement, 2) == ["qidui"]
    assert paid(settlement) == {0: 100} and received(settlement) == {1: 50, 2: 50}
    check_zero_sum(state)


def tongpao_with_bird(bird: str):  # type: ignore[no-untyped-def]
    state = deal([JUNK[0] + "7p", PPH, QD_7P, JUNK[2]], draws=bird, birds=1)
    state = act(state, 0, Act.DISCARD, "7p")
    state = act(state, 1, Act.WIN)
    return last_settlement(act(state, 2, Act.WIN))


def test_tongpao_birds_count_from_the_discarder() -> None:
    """docs/rules/xiangyin.md §8.2: with several winners on one discard, birds count from the discarder. A 1
    points at the discarder (seat 0) — he is hit in both payments; a 2 at his 下家 (seat 1) — only seat 1's
    payment doubles."""
    assert received(tongpao_with_bird("1s")) == {1: 100, 2: 100}
    assert received(tongpao_with_bird("2s")) == {1: 100, 2: 50}


# ---------------------------------------------------------------- 漏胡


def test_louhu_no_discard_win_until_own_draw() -> None:
    """docs/rules/xiangyin.md §13.1, 裁定 23: a missed win bars every discard win until his own next draw.
    Seat 1 passes 7p from seat 2; seat 3's 5m is not offered; after seat 1's own draw, seat 2's next 7p is."""
    state = deal([JUNK[0] + "9m", PPH, JUNK[1], JUNK[2]], draws="1s7p5m4s2s7p")
    state = discard(state, 0, "9m")
    state = discard(state, 1, "1s")
    state = act(state, 2, Act.DISCARD, "7p")
    assert can(state, 1, Act.WIN)
    state = act(state, 1, Act.PASS)
    assert state.seats[1].passed_wins
    state = act(state, 3, Act.DISCARD, "5m")
    assert not can(state, 1, Act.WIN)
    state = pass_claims(state)
    state = discard_drawn(state)  # seat 0: 4s
    assert state.current == 1 and not state.seats[1].passed_wins
    state = discard_drawn(state)  # seat 1: 2s
    state = act(state, 2, Act.DISCARD, "7p")
    assert can(state, 1, Act.WIN)


def test_louhu_only_for_that_player() -> None:
    """docs/rules/xiangyin.md §13.1: the bar is his alone, not the other players'. Seat 1 passes the dealer's
    7p; seat 2 (also waiting 7p) still wins on it."""
    state = deal([JUNK[0] + "7p", PPH, QD_7P, JUNK[2]])
    state = act(state, 0, Act.DISCARD, "7p")
    state = act(state, 1, Act.PASS)
    state = act(state, 2, Act.WIN)
    assert last_settlement(state).winners == (2,)
    assert not state.seats[2].passed_wins
