"""Claims on a discard: priority, chow from the previous seat only, 通炮, 漏胡 (docs/rules/changsha.md §4,
§13, 裁定 11).

Seat 0 deals and throws a 3s first; 底分 10, no birds."""

from __future__ import annotations

import pytest

from engine import Act, MeldKind, Phase, observe, parse_tile, to_act

from .changsha_helpers import JUNK, deal
from .dealing import act, can, discard, discard_drawn, hand_names, last_settlement, legal, paid, pass_claims

SMALL = "234m45556s23789p"  # waits 1p / 4p
WAITS_3P = "234m45556s12789p"  # waits 3p
WAITS_3P_6P = "34567888m789s45p"  # waits 3p / 6p
SHANPON = "5588m456s123789p"  # waits 5m / 8m (either pair may be the 将)

# ---------------------------------------------------------------- priority


@pytest.mark.parametrize("order", [(2, 3), (3, 2)], ids=["pung-answers-first", "win-answers-first"])
def test_win_beats_pung(order: tuple[int, int]) -> None:
    """docs/rules/changsha.md §4.3: priority win > pung/kong > chow. Seat 1 throws 4p: seat 2 (44p) pungs,
    seat 3 wins — whoever answers first, seat 3 wins."""
    state = deal([JUNK[0] + "3s", JUNK[2], "2367m12468s1244p", SMALL], draws="5m")
    state = discard(state, 0, "3s")
    state = act(state, 1, Act.DISCARD, "4p")
    assert can(state, 2, Act.PUNG) and can(state, 3, Act.WIN)
    answers = {2: Act.PUNG, 3: Act.WIN}
    for seat in order:
        if state.phase == Phase.CLAIM:
            state = act(state, seat, answers[seat])
    assert state.phase == Phase.ENDED
    assert last_settlement(state).winners == (3,)
    assert state.seats[2].melds == ()


@pytest.mark.parametrize("order", [(1, 3), (3, 1)], ids=["chow-answers-first", "pung-answers-first"])
def test_pung_beats_chow(order: tuple[int, int]) -> None:
    """docs/rules/changsha.md §4.2, §4.3: only the next seat may chow, and a pung beats it. The dealer throws
    3s: seat 1 may chow 345s, seat 3 (33s) may pung; in either answering order seat 3 pungs."""
    state = deal([JUNK[0] + "3s", SMALL, JUNK[1], "23679m2339s1468p"])
    state = act(state, 0, Act.DISCARD, "3s")
    assert can(state, 1, Act.CHOW, "3s") and can(state, 3, Act.PUNG)
    answers = {1: (Act.CHOW, "3s"), 3: (Act.PUNG, None)}
    for seat in order:
        if state.phase == Phase.CLAIM:
            kind, tile = answers[seat]
            state = act(state, seat, kind, tile)
    assert state.phase == Phase.TURN and state.current == 3
    assert [(m.kind, m.tile) for m in state.seats[3].melds] == [(MeldKind.PUNG, parse_tile("3s"))]
    assert state.seats[1].melds == ()


def test_chow_when_the_pung_is_passed() -> None:
    """docs/rules/changsha.md §4.3: the chow goes through when the seat that could pung passes."""
    state = deal([JUNK[0] + "3s", SMALL, JUNK[1], "23679m2339s1468p"])
    state = act(state, 0, Act.DISCARD, "3s")
    state = act(state, 1, Act.CHOW, "3s")
    state = act(state, 3, Act.PASS)
    assert state.current == 1
    assert [(m.kind, m.tile) for m in state.seats[1].melds] == [(MeldKind.CHOW, parse_tile("3s"))]


def test_chow_only_by_the_next_seat() -> None:
    """docs/rules/changsha.md §4.2: only the discarder's next player may chow. Seat 2 holds 24s but may not
    chow 3s."""
    state = deal([JUNK[0] + "3s", SMALL, JUNK[1], JUNK[2]])  # seat 2 holds 2s4s
    state = act(state, 0, Act.DISCARD, "3s")
    assert "1 chow 3s" in legal(state, 1)
    assert not any(a.startswith("2 chow") for a in legal(state, 2))
    assert 2 not in to_act(state)


def test_chow_offers_every_run() -> None:
    """docs/rules/changsha.md §4.1: a chow offers every run the tile completes; the action names the run's
    lowest tile (345s, 234s, ...: docs/rules/common.md §1.2)."""
    state = deal([JUNK[0] + "4s", "2356m23568s1235p", JUNK[1], JUNK[2]])
    state = act(state, 0, Act.DISCARD, "4s")
    assert {a for a in legal(state, 1) if "chow" in a} == {"1 chow 2s", "1 chow 3s", "1 chow 4s"}


# ---------------------------------------------------------------- 通炮


def test_several_winners_on_one_discard() -> None:
    """docs/rules/changsha.md §4.4: several players may win on the same tile (通炮). Seat 1 throws 3p: seats
    2 and 3 both win and seat 1 pays each (small on discard, 10 each)."""
    state = deal([JUNK[0] + "3s", JUNK[1], WAITS_3P, WAITS_3P_6P], draws="3p")
    state = discard(state, 0, "3s")
    state = act(state, 1, Act.DISCARD, "3p")
    state = act(state, 2, Act.WIN)
    assert state.phase == Phase.CLAIM  # seat 3 may still win too
    state = act(state, 3, Act.WIN)
    settlement = last_settlement(state)
    assert settlement.winners == (2, 3)
    assert hand_names(settlement, 2) == ["xiaohu"] and hand_names(settlement, 3) == ["xiaohu"]
    assert paid(settlement) == {1: 20}
    assert settlement.deltas == (0, -20, 10, 10)


def test_tongpao_discarder_deals_next() -> None:
    """docs/rules/changsha.md §2.5: several winners on one tile (通炮): the discarder deals next."""
    state = deal([JUNK[0] + "3s", JUNK[1], WAITS_3P, WAITS_3P_6P], draws="3p")
    state = discard(state, 0, "3s")
    state = act(state, 1, Act.DISCARD, "3p")
    state = act(state, 3, Act.WIN)
    state = act(state, 2, Act.WIN)
    assert state.result is not None and state.result.winners == (2, 3)
    assert state.result.next_dealer == 1


def test_one_of_two_possible_winners_passes() -> None:
    """通炮 is each winner's choice: if one passes, the other wins alone and deals next
    (docs/rules/changsha.md §2.2)."""
    state = deal([JUNK[0] + "3s", JUNK[1], WAITS_3P, WAITS_3P_6P], draws="3p")
    state = discard(state, 0, "3s")
    state = act(state, 1, Act.DISCARD, "3p")
    state = act(state, 2, Act.PASS)
    state = act(state, 3, Act.WIN)
    assert state.result is not None and state.result.winners == (3,)
    assert state.result.next_dealer == 3


# ---------------------------------------------------------------- 漏胡


def test_missed_win_bars_only_the_passed_tile() -> None:
    """docs/rules/changsha.md §13.1, 裁定 11: a missed win bars only the tile passed; another winning tile
    from a discard may be taken. Seat 1 (waits 5m/8m) passes seat 2's 5m: seat 3's 5m is not offered to him
    (only the pung), the dealer's 8m is, and he wins on it before drawing again."""
    state = deal([JUNK[0] + "3s", SHANPON, JUNK[1], JUNK[2]], draws="7s5m5m8m")
    state = discard(state, 0, "3s")
    state = discard_drawn(state)  # seat 1: 7s
    state = act(state, 2, Act.DISCARD, "5m")
    assert can(state, 1, Act.WIN)
    state = pass_claims(act(state, 1, Act.PASS))
    assert observe(state, 1).passed_win
    state = act(state, 3, Act.DISCARD, "5m")
    assert legal(state, 1) == {"1 pung", "1 pass"}  # the passed tile: the pung, but not the win
    state = pass_claims(state)
    state = act(state, 0, Act.DISCARD, "8m")  # another winning tile, still before seat 1 draws
    assert can(state, 1, Act.WIN)
    state = act(state, 1, Act.WIN)
    assert last_settlement(state).winners == (1,)
    assert paid(last_settlement(state)) == {0: 20}  # a small hand dealt in by the dealer


def test_the_passed_tile_wins_again_after_own_draw() -> None:
    """docs/rules/changsha.md §13.1: the bar lasts until his own next draw. Seat 1 passes seat 3's 5m, draws,
    and then wins on seat 2's 5m."""
    state = deal([JUNK[0] + "3s", SHANPON, JUNK[1], JUNK[2]], draws="7s7s5m7s9s5m")
    state = discard(state, 0, "3s")
    state = discard_drawn(state)  # seat 1: 7s
    state = discard_drawn(state)  # seat 2: 7s
    state = act(state, 3, Act.DISCARD, "5m")
    state = pass_claims(act(state, 1, Act.PASS))
    state = discard_drawn(state)  # the dealer: 7s
    assert state.phase == Phase.TURN and state.current == 1  # seat 1 has drawn
    assert not observe(state, 1).passed_win
    state = discard_drawn(state)  # seat 1: 9s
    state = act(state, 2, Act.DISCARD, "5m")
    assert can(state, 1, Act.WIN)
    state = act(state, 1, Act.WIN)
    assert last_settlement(state).winners == (1,)


def test_missed_win_does_not_block_self_draw() -> None:
    """docs/rules/changsha.md §13.1: self-draws are not affected. Seat 1 passes seat 3's 5m, then draws 8m
    and wins."""
    state = deal([JUNK[0] + "3s", SHANPON, JUNK[1], JUNK[2]], draws="7s7s5m7s8m")
    state = discard(state, 0, "3s")
    state = discard_drawn(state)
    state = discard_drawn(state)
    state = act(state, 3, Act.DISCARD, "5m")
    state = pass_claims(act(state, 1, Act.PASS))
    state = discard_drawn(state)  # the dealer: 7s
    assert state.current == 1 and can(state, 1, Act.WIN)
    state = act(state, 1, Act.WIN)
    assert paid(last_settlement(state)) == {0: 20, 2: 10, 3: 10}


def test_pung_ends_the_missed_win() -> None:
    """docs/rules/changsha.md §13.1: ... until his own next draw, pung or kong. Seat 1 passes seat 3's 5m,
    pungs the dealer's 8m, throws a 5m (single wait on 5m now) and wins on seat 2's 5m — the tile he passed —
    before drawing again."""
    state = deal([JUNK[0] + "3s", SHANPON, JUNK[1], JUNK[2]], draws="7s7s5m8m5m")
    state = discard(state, 0, "3s")
    state = discard_drawn(state)
    state = discard_drawn(state)
    state = act(state, 3, Act.DISCARD, "5m")
    state = pass_claims(act(state, 1, Act.PASS))
    state = act(state, 0, Act.DISCARD, "8m")
    assert can(state, 1, Act.PUNG)
    state = act(state, 1, Act.PUNG)
    assert not observe(state, 1).passed_win
    state = act(state, 1, Act.DISCARD, "5m")  # 5m 456s 123p 789p [888m]: waits 5m
    state = pass_claims(state)
    state = act(state, 2, Act.DISCARD, "5m")
    assert can(state, 1, Act.WIN)


def test_chow_does_not_end_the_missed_win() -> None:
    """docs/rules/changsha.md 裁定 11: a chow does not end the missed win. Seat 1 passes 5m, chows the
    dealer's 1p, and may not win seat 2's 5m (the tile he passed)."""
    state = deal([JUNK[0] + "3s", SHANPON, JUNK[1], JUNK[2]], draws="7s7s5m7s5m")
    state = discard(state, 0, "3s")
    state = discard_drawn(state)
    state = discard_drawn(state)
    state = act(state, 3, Act.DISCARD, "5m")
    state = pass_claims(act(state, 1, Act.PASS))
    state = act(state, 0, Act.DISCARD, "1p")
    state = act(state, 1, Act.CHOW, "1p")
    state = act(state, 1, Act.DISCARD, "1p")  # 55m 88m 456s 789p [123p]: still waits 5m/8m
    state = pass_claims(state)
    state = act(state, 2, Act.DISCARD, "5m")
    assert not can(state, 1, Act.WIN)


def test_kong_ends_the_missed_win() -> None:
    """docs/rules/changsha.md §13.1: ... until his own next draw, pung or kong. Seat 1 (555m + tanki 8m)
    passes seat 3's 8m, konges the dealer's 5m (补张, replacement 9s thrown) and may win seat 2's 8m before
    drawing again."""
    state = deal([JUNK[0] + "3s", "5558m456s123789p", JUNK[1], JUNK[2]], draws="7s7s8m5m8m", back="9s")
    state = discard(state, 0, "3s")
    state = discard_drawn(state)  # seat 1: 7s
    state = discard_drawn(state)  # seat 2: 7s
    state = act(state, 3, Act.DISCARD, "8m")
    assert can(state, 1, Act.WIN)
    state = pass_claims(act(state, 1, Act.PASS))
    state = act(state, 0, Act.DISCARD, "5m")
    assert not can(state, 1, Act.WIN) and can(state, 1, Act.KONG, "5m", "bu")
    state = act(state, 1, Act.KONG, "5m", "bu")
    assert state.current == 1 and state.drawn == parse_tile("9s")
    assert not observe(state, 1).passed_win
    state = act(state, 1, Act.DISCARD, "9s")
    state = pass_claims(state)
    state = act(state, 2, Act.DISCARD, "8m")
    assert can(state, 1, Act.WIN)
