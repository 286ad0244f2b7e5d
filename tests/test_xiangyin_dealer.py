"""海底漫游 for ready players only, 海底捞月 / 海底炮, and who deals next (docs/rules/xiangyin.md §2, §12,
裁定 1, 裁定 22).

Seat 0 deals and throws 3s; then everyone throws what he draws and nobody claims, so the 55 wall tiles run out
in play order and seat 3 is the first due to draw the haidi. ``tail`` fixes the second-last tile (drawn by
seat 2) and the haidi. SMALL (seat 1) waits 1p/4p with a small hand; WAITS_3P is a second ready hand.
底分 10, no birds unless told.
"""

from __future__ import annotations

from engine import Act, Phase, State, get_variant, new_hand, parse_tile

from .dealing import act, discard, discard_drawn, hand_names, last_settlement, legal, paid, play_until_haidi
from .xiangyin_helpers import JUNK, deal

XY = get_variant("xiangyin")
SMALL = "234m45556s23789p"
WAITS_3P = "123m678m789s12p99p"
DEAD = "1357m13579s1357p"  # a fourth hand that is never ready


def haidi_deal(seat3: str = JUNK[2], haidi: str = "4p", birds: int = 0) -> State:
    state = deal([JUNK[0] + "3s", SMALL, JUNK[1], seat3], tail="9m" + haidi, birds=birds)
    return play_until_haidi(state, "3s")


# ---------------------------------------------------------------- 海底漫游


def test_haidi_only_for_ready_players() -> None:
    """docs/rules/xiangyin.md §12.1: only ready players may take the haidi. Seat 3 is due to draw it but is
    not ready, nor is seat 0: the first offer goes to seat 1."""
    state = haidi_deal()
    assert state.phase == Phase.HAIDI and state.wall.remaining == 1
    assert state.current == 1 and state.haidi_first == 1
    assert legal(state, 1) == {"1 take", "1 pass"}


def test_haidi_refusal_passes_to_the_next_ready_player() -> None:
    """docs/rules/xiangyin.md §12.1: from the player due to draw, each ready player in turn. Seats 3 and 1
    are ready: seat 3 is asked first, then seat 1 (seat 0 is skipped)."""
    state = haidi_deal(WAITS_3P)
    assert state.current == 3
    state = act(state, 3, Act.PASS)
    assert state.phase == Phase.HAIDI and state.current == 1


def test_all_refuse_drawn_first_offered_deals() -> None:
    """docs/rules/xiangyin.md §12.3, §2.5: all refuse: a drawn hand, and the first player offered the haidi
    deals next."""
    state = haidi_deal(WAITS_3P)
    state = act(state, 3, Act.PASS)
    state = act(state, 1, Act.PASS)
    assert state.phase == Phase.ENDED and state.result is not None
    assert state.result.reason == "draw" and state.result.deltas == (0, 0, 0, 0)
    assert state.result.next_dealer == 3


def test_haidilaoyue() -> None:
    """docs/rules/xiangyin.md §5.9, §2.2: 海底捞月 is a big hand. Seat 1 takes the haidi 4p and wins: a big
    self-draw, each pays 50; the winner deals next."""
    state = haidi_deal()
    state = act(state, 1, Act.TAKE)
    state = act(state, 1, Act.WIN)
    settlement = last_settlement(state)
    assert hand_names(settlement, 1) == ["haidilaoyue"]
    assert paid(settlement) == {0: 50, 2: 50, 3: 50}
    assert state.result is not None and state.result.next_dealer == 1


def test_haidi_win_uses_the_haidi_tile_as_the_bird() -> None:
    """docs/rules/xiangyin.md §8.5: a haidi win uses the haidi tile as the only bird. The 4p points at the
    winner's 上家 (seat 0), who pays double."""
    state = haidi_deal(birds=2)
    state = act(state, 1, Act.TAKE)
    state = act(state, 1, Act.WIN)
    settlement = last_settlement(state)
    assert settlement.birds == (parse_tile("4p"),)
    assert paid(settlement) == {0: 100, 2: 50, 3: 50}


def test_haidipao_the_taker_pays() -> None:
    """docs/rules/xiangyin.md §12.2, §5.10: the taker cannot win; the tile is shown and seat 1 wins on it
    with a small shape (海底炮 is a big hand): seat 3 pays 50."""
    state = haidi_deal(WAITS_3P)
    state = act(state, 3, Act.TAKE)
    assert state.phase == Phase.CLAIM and legal(state, 1) == {"1 win", "1 pass"}
    state = act(state, 1, Act.WIN)
    settlement = last_settlement(state)
    assert hand_names(settlement, 1) == ["haidipao"]
    assert paid(settlement) == {3: 50}


def test_haidi_taken_nobody_wins_the_taker_deals() -> None:
    """docs/rules/xiangyin.md §2.3: someone took the haidi and nobody won: the taker deals. Seat 3 takes 9s,
    which wins for nobody."""
    state = haidi_deal(WAITS_3P, haidi="9s")
    state = act(state, 3, Act.TAKE)
    assert state.phase == Phase.ENDED and state.result is not None
    assert state.result.reason == "draw" and state.result.next_dealer == 3


def test_nobody_ready_no_haidi_dealer_stays() -> None:
    """docs/rules/xiangyin.md §12.3, 裁定 22: nobody ready at the haidi: nobody is offered it, the hand is
    drawn at once and the dealer (seat 2 here) deals again."""
    state = deal([JUNK[1], DEAD, JUNK[0] + "3s", JUNK[2]], dealer=2)
    state = play_until_haidi(state, "3s")
    assert state.phase == Phase.ENDED and state.result is not None
    assert state.result.reason == "draw" and state.wall.remaining == 1
    assert state.result.next_dealer == 2


def test_last_tile_as_kong_replacement_that_seat_deals() -> None:
    """docs/rules/xiangyin.md 裁定 22: a player whose kong took the last tile as its replacement has taken
    the haidi: if nobody wins he deals next. Seat 2 draws the fourth 5m as the second-last tile and konges."""
    state = deal([JUNK[0] + "3s", SMALL, "555m279s14689p13m", JUNK[2]], tail="5m9s")
    state = discard(state, 0, "3s")
    while not (state.current == 2 and state.wall.remaining == 1):
        state = discard_drawn(state)
    assert state.drawn == parse_tile("5m")
    state = act(state, 2, Act.KONG, "5m", "bu")
    assert state.wall.remaining == 0 and state.drawn == parse_tile("9s")
    state = discard(state, 2, "9s")
    assert state.phase == Phase.ENDED and state.result is not None
    assert state.result.reason == "draw" and state.result.next_dealer == 2
    assert state.result.deltas == (-20, -20, 60, -20)  # 流局不流杠


# ---------------------------------------------------------------- 庄家分配


def test_first_dealer_is_the_tables_creator() -> None:
    """docs/rules/xiangyin.md §2.1, 裁定 1: the table's creator deals first. The variant names the creator's
    seat as the first dealer (Variant.first_dealer); the caller passes it to new_hand as ``dealer``, which
    keeps it for 2, 3 and 4 players."""
    for seats in (2, 3, 4):
        for creator in range(seats):
            dealer = XY.first_dealer(seats, creator)
            assert dealer == creator
            assert new_hand(XY, 11, dealer=dealer, seats=seats).dealer == creator
    assert XY.first_dealer(4, None) is None  # no creator known: the seed draws the dealer


def test_other_variants_draw_the_first_dealer_from_the_seed() -> None:
    """docs/rules/common.md §2.2: the other variants have no fixed first dealer, whoever created the
    table."""
    for variant in ("changsha", "hengyang", "shaoyang", "sichuan"):
        assert get_variant(variant).first_dealer(4, 2) is None


def test_winner_deals_next() -> None:
    """docs/rules/xiangyin.md §2.2: the winner deals next. Seat 1 self-draws a small hand."""
    state = deal([JUNK[0] + "3s", SMALL, JUNK[1], JUNK[2]], draws="4p")
    state = discard(state, 0, "3s")
    state = act(state, 1, Act.WIN)
    assert state.result is not None and state.result.next_dealer == 1


def test_tongpao_the_discarder_deals() -> None:
    """docs/rules/xiangyin.md §2.4: 通炮, the discarder deals next. Seat 2 throws 7p into two big hands."""
    pph, qidui = "111m333s333p77p55m", "11s44s88s22m99p66p7p"
    state = deal([JUNK[0] + "9m", pph, "2367m12468s1248p", qidui], draws="5s7p")
    state = discard(state, 0, "9m")
    state = discard(state, 1, "5s")
    state = act(state, 2, Act.DISCARD, "7p")
    state = act(state, 1, Act.WIN)
    state = act(state, 3, Act.WIN)
    assert state.result is not None and set(state.result.winners) == {1, 3}
    assert state.result.next_dealer == 2
