"""Who deals next, and the haidi (海底漫游, 海底捞月) in Hengyang (docs/rules/hengyang.md §2, §11, 裁定 17,
裁定 18).

Seat 0 deals. In the haidi tests the dealer throws a 3s first, then everyone throws what he draws and nobody
claims, so the 55 wall tiles run out in play order and the haidi is offered to seat 3; ``tail`` fixes the
second-last tile (drawn by seat 2) and the haidi. 底分 10.
"""

from __future__ import annotations

import pytest

from engine import Act, Phase, State, parse_tile

from . import dealing, hengyang_helpers, xiangyin_helpers
from .dealing import act, discard, discard_drawn, hand_names, last_settlement, legal, paid, play_until_haidi
from .hengyang_helpers import JUNK, deal

SMALL = "234m45556s23789p"  # 平和 + 门前清 on 1p/4p
TWO_4P = "55m567m234s789s56p"  # also waits 4p


def haidi_deal(hands: list[str], haidi: str = "4p", before: str = "9m", birds: int = 0) -> State:
    state = deal(hands, tail=before + haidi, birds=birds)
    return play_until_haidi(state, "3s")


# ---------------------------------------------------------------- dealer


def test_winner_deals_next() -> None:
    """docs/rules/hengyang.md §2.2: the winner deals next."""
    state = deal([JUNK[0] + "3s", SMALL, JUNK[1], JUNK[2]], draws="4p")
    state = act(discard(state, 0, "3s"), 1, Act.WIN)
    assert state.result is not None and state.result.next_dealer == 1


def test_dealer_who_wins_deals_again() -> None:
    """docs/rules/hengyang.md §2.2: a dealer who wins (天胡 here) deals again."""
    state = act(deal(["123m456m789s234p55p", JUNK[0], JUNK[1], JUNK[2]]), 0, Act.WIN)
    assert state.result is not None and state.result.next_dealer == 0


def test_dealer_win_adds_one_fan() -> None:
    """docs/rules/hengyang.md §8.1, 裁定 3: every table row where the dealer wins or pays is 1 番 more (big on
    a discard: 1 番 more per big hand)."""
    from engine import WinInfo
    from engine.state import evaluate
    from engine.variants.hengyang import unit_parts

    def units(info: WinInfo, self_draw: bool, dealer: bool) -> int:
        return evaluate(unit_parts(info, self_draw, dealer))

    small, big = WinInfo((), ("pinghu",)), WinInfo((("qidui", 1),))
    assert [units(small, sd, d) for sd in (True, False) for d in (False, True)] == [1, 2, 1, 2]
    assert [units(big, sd, d) for sd in (True, False) for d in (False, True)] == [3, 4, 6, 7]


def test_dealer_who_deals_into_two_winners_stays() -> None:
    """docs/rules/hengyang.md §2.3: a dealer who deals into two winners stays dealer."""
    state = deal([JUNK[0] + "3s", SMALL, TWO_4P, JUNK[2]], draws="1s1s1s1s")
    state = discard(state, 0, "3s")
    for _ in range(3):
        state = discard_drawn(state)
    state = act(state, 0, Act.DISCARD, "4p")
    state = act(act(state, 1, Act.WIN), 2, Act.WIN)
    settlement = last_settlement(state)
    assert settlement.winners == (1, 2)
    assert paid(settlement) == {0: 60}  # 平和 + 门前清 from the dealer: 30 to each winner
    assert state.result is not None and state.result.next_dealer == 0


def test_non_dealer_who_deals_into_two_winners_deals_next() -> None:
    """docs/rules/hengyang.md §2.3, 裁定 17: several winners on one tile, the discarder deals: a non-dealer
    who deals into two winners deals the next hand."""
    state = deal([JUNK[0] + "3s", SMALL, TWO_4P, JUNK[2]], draws="1s1s1s")
    state = discard(state, 0, "3s")
    state = discard_drawn(discard_drawn(state))
    state = act(state, 3, Act.DISCARD, "4p")
    state = act(act(state, 1, Act.WIN), 2, Act.WIN)
    assert state.result is not None and state.result.next_dealer == 3


def test_one_of_two_possible_winners_passes_the_winner_deals() -> None:
    """docs/rules/hengyang.md §2.2: only one of two possible winners takes the tile: he deals."""
    state = deal([JUNK[0] + "3s", SMALL, TWO_4P, JUNK[2]], draws="1s1s1s1s")
    state = discard(state, 0, "3s")
    for _ in range(3):
        state = discard_drawn(state)
    state = act(state, 0, Act.DISCARD, "4p")
    state = act(act(state, 1, Act.PASS), 2, Act.WIN)
    assert state.result is not None and state.result.winners == (2,) and state.result.next_dealer == 2


def test_opening_hand_alone_does_not_pass_the_deal() -> None:
    """docs/rules/hengyang.md §2.5: a 扳牌 is no win: a drawn hand after it follows the drawn-hand rule."""
    state = deal([JUNK[0] + "3s", "5555m23479s6789p", JUNK[1], JUNK[2]], openings=True, tail="9m1p")
    state = act(state, 1, Act.OPENING, detail="sixi")
    state = play_until_haidi(state, "3s")
    for _ in range(4):
        state = act(state, state.current, Act.PASS)
    assert state.result is not None and state.result.reason == "draw"
    assert state.result.next_dealer == 3  # the first seat offered the haidi


# ---------------------------------------------------------------- haidi


def test_haidi_is_offered_and_refusals_pass_on() -> None:
    """docs/rules/hengyang.md §11.1: when one wall tile is left, the player due to draw may take it or
    refuse; a refusal passes the choice on in play order."""
    state = haidi_deal([JUNK[0] + "3s", JUNK[1], JUNK[2], SMALL])
    assert state.phase == Phase.HAIDI and state.wall.remaining == 1
    offered = [state.current]
    assert legal(state, 3) == {"3 take", "3 pass"}
    for _ in range(3):
        state = act(state, state.current, Act.PASS)
        offered.append(state.current)
    assert offered == [3, 0, 1, 2]


def test_all_refuse_drawn_hand_first_offered_deals() -> None:
    """docs/rules/hengyang.md §11.4, §2.4, 裁定 18: all refuse: a drawn hand, and the first player offered
    the haidi deals next."""
    state = haidi_deal([JUNK[0] + "3s", JUNK[1], JUNK[2], SMALL])
    for _ in range(4):
        state = act(state, state.current, Act.PASS)
    assert state.phase == Phase.ENDED and state.result is not None
    assert state.result.reason == "draw" and state.result.deltas == (0, 0, 0, 0)
    assert state.result.next_dealer == 3


def test_haidilaoyue_when_the_taker_wins() -> None:
    """docs/rules/hengyang.md §11.2, §7.9: 海底捞月, winning on the haidi tile you took: a big self-draw, 40 /
    30."""
    state = haidi_deal([JUNK[0] + "3s", JUNK[1], JUNK[2], SMALL])
    state = act(state, 3, Act.TAKE)
    assert state.drawn == parse_tile("4p") and "3 win" in legal(state, 3)
    state = act(state, 3, Act.WIN)
    settlement = last_settlement(state)
    assert hand_names(settlement, 3) == ["haidilaoyue"]
    assert paid(settlement) == {0: 40, 1: 30, 2: 30}
    assert state.result is not None and state.result.next_dealer == 3


def test_haidi_win_uses_the_haidi_tile_as_the_only_bird() -> None:
    """docs/rules/hengyang.md §9.6: a win on the haidi tile uses it as the only bird. The 4p points at seat 3,
    the winner: everyone doubles."""
    state = haidi_deal([JUNK[0] + "3s", JUNK[1], JUNK[2], SMALL], birds=2)
    state = act(act(state, 3, Act.TAKE), 3, Act.WIN)
    settlement = last_settlement(state)
    assert settlement.birds == (parse_tile("4p"),)
    assert paid(settlement) == {0: 80, 1: 60, 2: 60}


def test_haidilaoyue_needs_a_winning_hand() -> None:
    """docs/rules/hengyang.md 裁定 8: the haidi tile must complete a winning hand (a 258 pair or a shape big
    hand)."""
    state = haidi_deal([JUNK[0] + "3s", JUNK[1], JUNK[2], SMALL], haidi="6p")
    state = act(state, 3, Act.TAKE)
    assert "3 win" not in legal(state, 3)


def test_shown_haidi_won_by_another_is_a_plain_discard_win() -> None:
    """docs/rules/hengyang.md §11.3, 裁定 9: otherwise the tile is shown and another player may win on it — an
    ordinary win on a discard paid by the taker (平和 + 门前清: 20), no 海底炮 big hand; the winner deals
    next."""
    state = haidi_deal([JUNK[0] + "3s", SMALL, JUNK[1], JUNK[2]], before="9m")
    state = act(state, 3, Act.TAKE)
    assert state.phase == Phase.CLAIM and legal(state, 1) == {"1 win", "1 pass"}
    state = act(state, 1, Act.WIN)
    settlement = last_settlement(state)
    assert hand_names(settlement, 1) == ["menqianqing", "pinghu"]
    assert paid(settlement) == {3: 20}
    assert state.result is not None and state.result.next_dealer == 1


def test_haidi_taken_nobody_wins_the_taker_deals() -> None:
    """docs/rules/hengyang.md §11.4, §2.4: nobody wins: a drawn hand, and the haidi taker deals next."""
    state = haidi_deal([JUNK[0] + "3s", JUNK[1], JUNK[2], SMALL], haidi="6p")
    state = act(state, 3, Act.PASS)
    state = act(state, 0, Act.TAKE)
    assert state.phase == Phase.ENDED and state.result is not None
    assert state.result.reason == "draw" and state.result.next_dealer == 0


def test_last_tile_as_kong_replacement_no_haidi_and_the_konger_deals() -> None:
    """docs/rules/common.md §4.2, docs/rules/hengyang.md §2.4: if only the haidi tile is left, the replacement
    is the haidi tile and the hand has no haidi; nobody wins, so the player who took it deals; his 暗杠 money
    stands (docs/rules/hengyang.md §13.1)."""
    state = deal([JUNK[0] + "3s", JUNK[1], "555m234s678p13p89s", JUNK[2]], tail="5m9p")
    state = discard(state, 0, "3s")
    while state.wall.remaining > 1:
        state = discard_drawn(state)
    assert state.current == 2 and state.drawn == parse_tile("5m")
    state = act(state, 2, Act.KONG, "5m", "bu")
    assert state.wall.remaining == 0 and state.drawn == parse_tile("9p")
    state = discard(state, 2, "9p")
    assert state.phase == Phase.ENDED and state.result is not None
    assert state.result.reason == "draw" and state.result.next_dealer == 2
    assert state.result.deltas == (-20, -20, 60, -20)


@pytest.mark.parametrize("variant", ["hengyang", "xiangyin"])
def test_a_kai_kong_that_takes_the_last_stack_makes_the_konger_deal(variant: str) -> None:
    """docs/rules/common.md §8.1, docs/rules/hengyang.md §2.4, docs/rules/xiangyin.md 裁定 22: a 开杠 whose
    dice stack is the wall's last two tiles takes the last tile too: nobody wins on them, and the konger
    deals next (before, only a replacement that was the single last tile counted, and the dealer stayed)."""
    helpers = hengyang_helpers if variant == "hengyang" else xiangyin_helpers
    junk = helpers.JUNK
    state = helpers.deal([junk[0] + "3s", "555m234s678p23p88s", junk[1], junk[2]], tail="5m9m9s")
    state = discard(state, 0, "3s")
    while not (state.current == 1 and state.drawn == parse_tile("5m")):
        state = discard_drawn(state)
    assert state.wall.remaining == 2
    state = dealing.pass_claims(act(state, 1, Act.KONG, "5m", "kai"))  # 9m 9s turned up: both fall
    assert state.phase == Phase.ENDED and state.result is not None and state.result.reason == "draw"
    assert state.result.next_dealer == 1 and state.haidi_as_replacement == 1
