"""天胡, 地胡 and who deals the next hand (docs/rules/changsha.md §2, §7.7, §7.8, 裁定 10). Clauses 2.3, 2.4
and 2.6 (the haidi) are in test_changsha_haidi.py, 2.5 (通炮) in test_changsha_claims.py. 底分 10, no birds
unless told."""

from __future__ import annotations

from bot.text import render, views
from engine import Act, Phase, get_variant, new_hand

from .changsha_helpers import JUNK, deal
from .dealing import act, can, discard, hand_names, last_settlement, paid

TIANHU = "223344m456s789p55s"  # the dealer's 14 tiles already win (small shape)
TIANHU_QIDUI = "2233m4477s6699p11s"  # seven pairs at the deal
SMALL = "234m45556s23789p"  # waits 1p/4p
SIXI = "5555m23479s6789p"
DEALER_LIULIU_TIANHU = "444m88m555s345678p"  # 444m and 555s at the deal, and a winning hand


def test_tianhu_dealer_wins_at_the_deal() -> None:
    """docs/rules/changsha.md §7.7: 天胡, the dealer wins on his dealt 14 tiles: a big self-draw by the
    dealer, each pays 40."""
    state = deal([TIANHU, JUNK[0], JUNK[1], JUNK[2]])
    assert state.phase == Phase.TURN and state.current == 0
    assert can(state, 0, Act.WIN)
    state = act(state, 0, Act.WIN)
    settlement = last_settlement(state)
    assert hand_names(settlement, 0) == ["tianhu"]
    assert paid(settlement) == {1: 40, 2: 40, 3: 40}


def test_tianhu_adds_to_qidui() -> None:
    """docs/rules/changsha.md §7.14: big hands add up — 七小对 + 天胡 = 2 big hands: each pays 70."""
    state = deal([TIANHU_QIDUI, JUNK[0], JUNK[1], JUNK[2]])
    state = act(state, 0, Act.WIN)
    settlement = last_settlement(state)
    assert hand_names(settlement, 0) == ["qidui", "tianhu"]
    assert paid(settlement) == {1: 70, 2: 70, 3: 70}


def test_tianhu_only_for_the_dealer_at_the_deal() -> None:
    """docs/rules/changsha.md §7.7, 裁定 10: 天胡 is the dealt 14 tiles only — the dealer's later self-draw
    with the same tiles is a small hand."""
    state = deal([SMALL + "3s", JUNK[0], JUNK[1], JUNK[2]], draws="5m5m5m4p")
    state = discard(state, 0, "3s")
    for seat in (1, 2, 3):
        state = discard(state, seat, "5m")
    state = act(state, 0, Act.WIN)
    assert hand_names(last_settlement(state), 0) == ["xiaohu"]


def test_dihu_on_the_dealers_first_discard() -> None:
    """docs/rules/changsha.md §7.8: 地胡, a non-dealer wins on the dealer's first discard. A big hand on a
    discard dealt in by the dealer: 70."""
    state = deal([JUNK[0] + "3s", SMALL, JUNK[1], JUNK[2]])
    state = act(state, 0, Act.DISCARD, "4p")
    assert can(state, 1, Act.WIN)
    state = act(state, 1, Act.WIN)
    settlement = last_settlement(state)
    assert hand_names(settlement, 1) == ["dihu"]
    assert paid(settlement) == {0: 70}


def test_dihu_for_any_non_dealer() -> None:
    """docs/rules/changsha.md §7.8: 地胡 — any non-dealer, not only the next seat."""
    state = deal([JUNK[0] + "3s", JUNK[1], JUNK[2], SMALL])
    state = act(state, 0, Act.DISCARD, "4p")
    state = act(state, 3, Act.WIN)
    assert hand_names(last_settlement(state), 3) == ["dihu"]


def test_no_dihu_on_a_later_discard() -> None:
    """docs/rules/changsha.md §7.8: only the dealer's first discard."""
    state = deal([JUNK[0] + "3s", SMALL, JUNK[1], JUNK[2]], draws="5m5m5m5m")
    state = discard(state, 0, "3s")
    for seat in (1, 2, 3):
        state = discard(state, seat, "5m")
    state = act(state, 0, Act.DISCARD, "4p")
    state = act(state, 1, Act.WIN)
    assert hand_names(last_settlement(state), 1) == ["xiaohu"]


# ---------------------------------------------------------------- next dealer


def test_first_hand_dealer_is_random_from_the_seed() -> None:
    """docs/rules/changsha.md §2.1, 裁定 17: the first dealer is drawn at random, from the hand's seed."""
    cs = get_variant("changsha")
    dealers = {new_hand(cs, seed=s).dealer for s in range(40)}
    assert dealers == {0, 1, 2, 3}
    assert new_hand(cs, seed=11).dealer == new_hand(cs, seed=11).dealer


def test_winner_deals_next() -> None:
    """docs/rules/changsha.md §2.2: the winner deals next. Seat 2 wins on seat 1's discard and deals next."""
    state = deal([JUNK[0] + "3s", JUNK[1], SMALL, JUNK[2]], draws="5m")
    state = discard(state, 0, "3s")
    state = act(state, 1, Act.DISCARD, "4p")
    state = act(state, 2, Act.WIN)
    assert state.result is not None and state.result.next_dealer == 2


def test_tianhu_dealer_deals_again() -> None:
    """docs/rules/changsha.md §2.2: the winner deals next — the dealer who wins 天胡 stays."""
    state = act(deal([TIANHU, JUNK[0], JUNK[1], JUNK[2]]), 0, Act.WIN)
    assert state.result is not None and state.result.next_dealer == 0


def test_dihu_winner_deals_next() -> None:
    """docs/rules/changsha.md §2.2: the winner deals next (地胡 included)."""
    state = deal([JUNK[0] + "3s", JUNK[1], SMALL, JUNK[2]])
    state = act(state, 0, Act.DISCARD, "4p")
    state = act(state, 2, Act.WIN)
    assert state.result is not None and state.result.next_dealer == 2


def test_two_win_at_the_deal_bird_seat_deals() -> None:
    """docs/rules/changsha.md §2.7, 裁定 15: if two or more players win at the deal (天胡 or opening small
    hands), the player hit by the bird deals. Seat 1 declares 四喜, the dealer wins 天胡; both birds are 7s →
    seat 2. The result says why the winner does not deal."""
    state = deal([TIANHU, SIXI, JUNK[1], JUNK[2]], draws="7s7s", birds=2, openings=True)
    state = act(state, 1, Act.OPENING, detail="sixi")
    state = act(state, 0, Act.WIN)
    assert state.result is not None and state.result.winners == (0,)
    assert state.result.next_dealer == 2 and state.result.dealer_note == "bird_dealer"
    text = render.result_view(views.public_observation(state), "zh", ["A", "B", "C", "D"])
    assert text.endswith("下一局庄家：C（两家以上起手就胡，中鸟的人坐庄）")


def test_one_opening_hand_and_a_later_win_winner_deals() -> None:
    """docs/rules/changsha.md §2.7 needs two or more players at the deal: one opening hand (seat 1) does not
    move the deal; the later winner (seat 2) deals (docs/rules/changsha.md §2.2), not the bird's seat (both
    birds 1s → seat 0)."""
    state = deal([JUNK[0] + "3s", SIXI, SMALL, JUNK[2]], draws="1s1s3s", birds=2, openings=True)
    state = act(state, 1, Act.OPENING, detail="sixi")
    state = discard(state, 0, "3s")
    state = discard(state, 1, "1s")
    state = discard(state, 2, "1s")
    state = act(state, 3, Act.DISCARD, "4p")
    state = act(state, 2, Act.WIN)
    assert state.result is not None and state.result.next_dealer == 2 and not state.result.dealer_note


def test_opening_hand_and_tianhu_of_one_player_dealer_stays() -> None:
    """docs/rules/changsha.md §2.7 counts players: the dealer declaring 六六顺 and then winning 天胡 is one
    player, so docs/rules/changsha.md §2.2 applies and he deals again, though both birds point at seat 2."""
    state = deal([DEALER_LIULIU_TIANHU, JUNK[0], JUNK[1], JUNK[2]], draws="7s7s", birds=2, openings=True)
    state = act(state, 0, Act.OPENING, detail="liuliushun")
    state = act(state, 0, Act.WIN)
    assert hand_names(last_settlement(state), 0) == ["tianhu"]
    assert state.result is not None and state.result.next_dealer == 0


def test_dihu_on_the_first_discard_after_a_dealer_kong() -> None:
    """docs/rules/changsha.md 裁定 10: 地胡 stands after a kong the dealer made before his first discard. The
    dealer konges his four 5m (补张) and then throws his first tile, 4p: seat 1 wins on the dealer's first
    discard — 地胡 (70)."""
    state = deal([SIXI + "4p", SMALL, JUNK[1], JUNK[2]], back="1s")
    state = act(state, 0, Act.KONG, "5m", "bu")
    state = act(state, 0, Act.DISCARD, "4p")
    state = act(state, 1, Act.WIN)
    settlement = last_settlement(state)
    assert hand_names(settlement, 1) == ["dihu"]
    assert paid(settlement) == {0: 70}
