"""Tiles, the deal, the order of play and claims in Hengyang (docs/rules/hengyang.md §1, §3, §4, 裁定 1,
裁定 2).

Seat 0 deals unless told. 底分 10, no birds.
"""

from __future__ import annotations

import pytest

from engine import Act, IllegalAction, Phase, arranged_hand, new_hand, parse_tile, to_act
from engine.tiles import SUITED_KINDS

from .dealing import act, can, discard, discard_drawn, last_settlement, legal, paid, pass_claims
from .hengyang_helpers import HY, JUNK, deal

SMALL = "234m45556s23789p"  # waits 1p/4p
SEAT3 = "135789m1379s147p"  # junk with a 1m
DEALER_1M = JUNK[0] + "1m"  # throws the 1m


# ---------------------------------------------------------------- tiles and the deal


def test_108_tiles_without_honors() -> None:
    """docs/rules/hengyang.md §1.1: 108 tiles — characters, bamboo and dots 1–9, no winds or dragons."""
    state = new_hand(HY, 1)
    tiles = list(state.wall.tiles)
    assert len(tiles) == 108
    assert all(t < SUITED_KINDS for t in tiles)
    assert all(tiles.count(t) == 4 for t in range(SUITED_KINDS))


def test_the_first_paragraph_with_honors_is_another_game() -> None:
    """docs/rules/hengyang.md 裁定 1: the first paragraph of the source (六胡利, some honors) is another game;
    108 tiles. No honor tile can be dealt."""
    assert max(HY.tile_set(4, HY.make_options())) < SUITED_KINDS
    with pytest.raises(IllegalAction):
        arranged_hand(HY, [JUNK[0] + "1z", JUNK[1], JUNK[2], SEAT3])


def test_deal_dealer_14_others_13_from_the_wall_front() -> None:
    """docs/rules/hengyang.md §3.1, 裁定 2: 14 tiles to the dealer, 13 to the others; the dice-chosen break in
    the wall is not modelled — the wall is shuffled from the seed, which is as random — so the deal starts at
    the wall front."""
    for seed in range(5):
        state = new_hand(HY, seed, dealer=2)
        assert [sum(s.counts) for s in state.seats] == [13, 13, 14, 13]
        assert state.wall.remaining == 108 - 53
        assert new_hand(HY, seed, dealer=2) == state  # reproducible from the seed


def test_first_dealer_by_dice_from_the_seed() -> None:
    """docs/rules/hengyang.md §2.1, 裁定 2: the first dealer is drawn at random, from the hand's seed."""
    dealers = {new_hand(HY, seed).dealer for seed in range(40)}
    assert dealers == {0, 1, 2, 3}
    assert all(new_hand(HY, s).dealer == new_hand(HY, s).dealer for s in range(10))


def test_play_goes_counter_clockwise_from_the_dealer() -> None:
    """docs/rules/hengyang.md §1.3, §3.2: play goes counter-clockwise, dealer → 下家 → 对家 → 上家; the dealer
    discards first."""
    state = deal([JUNK[0] + "3s", JUNK[1], JUNK[2], SEAT3], dealer=0)
    assert to_act(state) == (0,)
    order = []
    state = discard(state, 0, "3s")
    for _ in range(5):
        order.append(state.current)
        state = discard_drawn(state)
    assert order == [1, 2, 3, 0, 1]


def test_draw_only_after_the_previous_discard_and_no_taking_it_back() -> None:
    """docs/rules/hengyang.md §3.3: a discard cannot be taken back. Before the dealer discards nobody else may
    act; once his tile is down he can neither discard again nor take it back."""
    state = deal([JUNK[0] + "3s", JUNK[1], JUNK[2], SEAT3])
    assert legal(state, 1) == set()
    state = act(state, 0, Act.DISCARD, "3s")
    assert legal(state, 0) == set()
    with pytest.raises(IllegalAction):
        act(state, 0, Act.DISCARD, "9p")


def test_after_a_draw_a_discard_is_due() -> None:
    """docs/rules/hengyang.md §3.3: each player draws one and discards one. After a draw the seat holds 14
    and its choices are discards (or a kong / a win), never another draw."""
    state = discard(deal([JUNK[0] + "3s", JUNK[1], JUNK[2], SEAT3]), 0, "3s")
    assert state.current == 1 and sum(state.seats[1].counts) == 14
    assert {a.split()[1] for a in legal(state, 1)} == {"discard"}


# ---------------------------------------------------------------- 吃 / 碰 / 杠 priority


def test_chow_only_from_the_previous_seat() -> None:
    """docs/rules/hengyang.md §4.2: only the discarder's next player may chow. Seats 1 and 2 both hold 23m;
    only seat 1, the dealer's 下家, may chow his 1m."""
    state = act(deal([DEALER_1M, JUNK[1], JUNK[2], SEAT3]), 0, Act.DISCARD, "1m")
    assert can(state, 1, Act.CHOW, "1m")
    assert not any("chow" in a for a in legal(state, 2))
    assert not any("chow" in a for a in legal(state, 3))


def test_after_a_chow_no_draw_and_a_discard() -> None:
    """docs/rules/hengyang.md §4.2: after a chow you do not draw: you discard."""
    state = act(deal([DEALER_1M, JUNK[1], JUNK[2], SEAT3]), 0, Act.DISCARD, "1m")
    left = state.wall.remaining
    state = act(state, 1, Act.CHOW, "1m")
    assert state.current == 1 and state.phase == Phase.TURN and state.drawn is None
    assert state.wall.remaining == left
    assert {a.split()[1] for a in legal(state, 1)} == {"discard"}


PAIR_1M = "113679m279s1468p"  # seat 2: 11m
TRIPLET_1M = "1113679m279s468p"  # seat 2: 111m
SEAT3_NO_1M = "235789m1379s147p"


@pytest.mark.parametrize("first", [1, 2])
def test_pung_by_any_seat_beats_chow(first: int) -> None:
    """docs/rules/hengyang.md §4.3: a pung beats a chow, and a discard follows it. Seat 1 chows, seat 2 pungs
    the dealer's 1m: seat 2 takes it, whoever answers first."""
    state = act(deal([DEALER_1M, JUNK[1], PAIR_1M, SEAT3_NO_1M]), 0, Act.DISCARD, "1m")
    assert can(state, 1, Act.CHOW, "1m") and can(state, 2, Act.PUNG)
    if first == 1:
        state = act(state, 1, Act.CHOW, "1m")
        assert state.phase == Phase.CLAIM  # the chow waits for the pung's answer
    state = act(state, 2, Act.PUNG)
    assert legal(state, 1) == set()
    assert state.current == 2 and state.phase == Phase.TURN and state.drawn is None
    assert [str(m) for m in state.seats[2].melds] == ["[111m]"]
    assert {a.split()[1] for a in legal(state, 2)} == {"discard"}


def test_chow_when_the_pung_is_passed() -> None:
    """docs/rules/hengyang.md §4.3: only if the pung is taken: seat 2 passes, seat 1 chows."""
    state = act(deal([DEALER_1M, JUNK[1], PAIR_1M, SEAT3_NO_1M]), 0, Act.DISCARD, "1m")
    state = act(act(state, 2, Act.PASS), 1, Act.CHOW, "1m")
    assert state.current == 1 and [str(m) for m in state.seats[1].melds] == ["[123m]"]


def test_kong_beats_chow() -> None:
    """docs/rules/hengyang.md §4.3: a kong beats a chow. Seat 1 chows, seat 2 konges the dealer's 1m."""
    state = act(deal([DEALER_1M, JUNK[1], TRIPLET_1M, SEAT3_NO_1M]), 0, Act.DISCARD, "1m")
    assert can(state, 2, Act.KONG, "1m", "bu")
    state = act(act(state, 1, Act.CHOW, "1m"), 2, Act.KONG, "1m", "bu")
    assert state.current == 2 and [str(m) for m in state.seats[2].melds] == ["[1111m]"]
    assert paid(last_settlement(state, "kong")) == {0: 30}


def test_win_beats_pung() -> None:
    """docs/rules/hengyang.md §4.3: win > pung/kong > chow. Seat 2 pungs the 4p, seat 1 wins on it."""
    pung_4p = "44p" + "3679m279s1689p"
    state = deal([JUNK[0] + "3s", SMALL, pung_4p, SEAT3_NO_1M])
    state = act(state, 0, Act.DISCARD, "4p")
    state = act(act(state, 2, Act.PUNG), 1, Act.WIN)
    assert state.phase == Phase.ENDED and state.result is not None
    assert state.result.winners == (1,)
    assert state.seats[2].melds == ()


# ---------------------------------------------------------------- several winners, 漏胡

TWO_4P = "55m567m234s789s56p"  # seat 2: waits 4p/7p


def test_several_winners_on_one_discard() -> None:
    """docs/rules/hengyang.md §4.4: several players may win on the same tile; the discarder pays each (here
    平和 + 门前清 from a non-dealer: 20)."""
    state = deal([JUNK[0] + "3s", SMALL, TWO_4P, JUNK[2]], draws="1s1s1s")
    state = discard(state, 0, "3s")
    state = discard_drawn(discard_drawn(state))
    state = act(state, 3, Act.DISCARD, "4p")
    state = act(act(state, 1, Act.WIN), 2, Act.WIN)
    settlement = last_settlement(state)
    assert settlement.winners == (1, 2)
    assert [(p.payer, p.payee, p.amount) for p in settlement.payments] == [(3, 1, 20), (3, 2, 20)]


def test_missed_win_blocks_discard_wins_until_own_draw() -> None:
    """docs/rules/hengyang.md §12.1, 裁定 19: a player who passes a win on a discard cannot win on any discard
    until his own next draw, pung or kong; self-draws are not blocked. Seat 2 passes the dealer's 4p, cannot
    win on seat 1's 1p, then self-draws 4p."""
    state = deal([JUNK[0] + "3s", JUNK[1], SMALL, JUNK[2]], draws="9s4p")
    state = act(state, 0, Act.DISCARD, "4p")
    assert can(state, 2, Act.WIN)
    state = pass_claims(state)
    assert state.seats[2].passed_wins
    state = act(state, 1, Act.DISCARD, "1p")
    assert not can(state, 2, Act.WIN)
    state = pass_claims(state)
    assert state.current == 2 and state.drawn == parse_tile("4p") and not state.seats[2].passed_wins
    assert can(state, 2, Act.WIN)
