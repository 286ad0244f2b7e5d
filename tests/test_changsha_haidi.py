"""海底漫游: the last tile, 海底捞月, 海底炮, and who deals next (docs/rules/changsha.md §12, §2.3, §2.4,
§2.6, 裁定 13, 裁定 14).

Seat 0 deals and throws a 3s first; after that everyone throws what he draws and nobody claims, so the 55 wall
tiles run out in play order and the haidi is offered to seat 3. ``tail`` fixes the last two tiles of the wall:
the second-last (drawn by seat 2) and the haidi. 底分 10, no birds."""

from __future__ import annotations

from engine import Act, IllegalAction, Phase, State, parse_tile

from .changsha_helpers import JUNK, deal
from .dealing import (
    act,
    can,
    discard_drawn,
    hand_names,
    last_settlement,
    legal,
    paid,
    pass_claims,
    play_until_haidi,
)

WAITS_3P = "234m45556s12789p"
WAITS_3P_6P = "34567888m789s45p"


def haidi_deal(hands: list[str], haidi: str = "3p", before: str = "9m") -> State:
    state = deal(hands, tail=before + haidi)
    return play_until_haidi(state, "3s")


def test_haidi_is_offered_to_the_seat_to_draw() -> None:
    """docs/rules/changsha.md §12.1: when one wall tile is left, the player due to draw chooses whether to
    take it."""
    state = haidi_deal([JUNK[0] + "3s", JUNK[1], JUNK[2], WAITS_3P])
    assert state.phase == Phase.HAIDI
    assert state.wall.remaining == 1
    assert state.last_discard is not None and state.last_discard[0] == 2  # seat 2 threw the last tile
    assert state.current == 3
    assert legal(state, 3) == {"3 take", "3 pass"}


def test_haidi_refusals_pass_on_in_play_order() -> None:
    """docs/rules/changsha.md §12.1: a refusal passes the choice on in play order."""
    state = haidi_deal([JUNK[0] + "3s", JUNK[1], JUNK[2], WAITS_3P])
    offered = [state.current]
    for _ in range(3):
        state = act(state, state.current, Act.PASS)
        assert state.phase == Phase.HAIDI
        offered.append(state.current)
    assert offered == [3, 0, 1, 2]


def test_all_refuse_drawn_hand_first_offered_deals() -> None:
    """docs/rules/changsha.md §12.4, §2.4: all four refuse: a drawn hand, and the first player offered the
    haidi deals next."""
    state = haidi_deal([JUNK[0] + "3s", JUNK[1], JUNK[2], WAITS_3P])
    for seat in (3, 0, 1, 2):
        state = act(state, seat, Act.PASS)
    assert state.phase == Phase.ENDED
    assert state.result is not None and state.result.reason == "draw"
    assert state.result.winners == () and state.result.deltas == (0, 0, 0, 0)
    assert state.result.next_dealer == 3


def test_haidilaoyue_when_the_taker_wins() -> None:
    """docs/rules/changsha.md §12.2, §7.9: the taker may win on it (海底捞月, a big hand). Big self-draw: the
    dealer pays 40, the others 30; the winner deals next (docs/rules/changsha.md §2.2)."""
    state = haidi_deal([JUNK[0] + "3s", JUNK[1], JUNK[2], WAITS_3P])
    state = act(state, 3, Act.TAKE)
    assert legal(state, 3) == {"3 win", "3 pass"}
    state = act(state, 3, Act.WIN)
    settlement = last_settlement(state)
    assert hand_names(settlement, 3) == ["haidilaoyue"]
    assert paid(settlement) == {0: 40, 1: 30, 2: 30}
    assert state.result is not None and state.result.next_dealer == 3


def test_haidi_taken_after_refusals_can_still_be_won() -> None:
    """docs/rules/changsha.md §12.1, §12.2: the taker is whoever takes it after the refusals; 海底捞月 for
    him."""
    state = haidi_deal([JUNK[0] + "3s", WAITS_3P, JUNK[1], JUNK[2]])
    state = act(state, 3, Act.PASS)
    state = act(state, 0, Act.PASS)
    state = act(state, 1, Act.TAKE)
    state = act(state, 1, Act.WIN)
    assert hand_names(last_settlement(state), 1) == ["haidilaoyue"]


def test_haidi_needs_a_winning_hand() -> None:
    """docs/rules/changsha.md 裁定 5: 海底捞月 needs a hand that already wins (a 2/5/8 pair). Seat 3 completes
    234m 44456s 123p 789p with the haidi 3p, but its pair is 4s: no win, the tile is shown and nobody wins
    (海底炮 neither)."""
    state = haidi_deal([JUNK[0] + "3s", JUNK[1], JUNK[2], "234m44456s12789p"])
    state = act(state, 3, Act.TAKE)
    assert state.phase == Phase.ENDED
    assert state.result is not None and state.result.reason == "draw"


def test_haidipao_when_the_taker_cannot_win() -> None:
    """docs/rules/changsha.md §12.3, §7.10: otherwise the tile is shown and any other player who can win on
    it does (海底炮, several may), paid by the taker. Seat 3 takes 3p and cannot win; seats 1 and 2 both win
    海底炮, each a big hand on a discard (60) paid by the taker."""
    state = haidi_deal([JUNK[0] + "3s", WAITS_3P, WAITS_3P_6P, JUNK[1]])
    state = act(state, 3, Act.TAKE)
    assert state.phase == Phase.CLAIM
    assert can(state, 1, Act.WIN) and can(state, 2, Act.WIN)
    state = act(state, 1, Act.WIN)
    state = act(state, 2, Act.WIN)
    settlement = last_settlement(state)
    assert settlement.winners == (1, 2)
    assert hand_names(settlement, 1) == ["haidipao"] and hand_names(settlement, 2) == ["haidipao"]
    assert paid(settlement) == {3: 120}
    assert settlement.deltas == (0, 60, 60, -120)


def test_haidipao_several_winners_taker_deals_next() -> None:
    """docs/rules/changsha.md §2.5: several winners on one tile — 海底炮 with two winners — the haidi taker
    deals next."""
    state = haidi_deal([JUNK[0] + "3s", WAITS_3P, WAITS_3P_6P, JUNK[1]])
    state = act(state, 3, Act.TAKE)
    state = act(state, 2, Act.WIN)
    state = act(state, 1, Act.WIN)
    assert state.result is not None and state.result.next_dealer == 3


def test_haidipao_one_winner_deals_next() -> None:
    """docs/rules/changsha.md §2.2: one 海底炮 winner deals next."""
    state = haidi_deal([JUNK[0] + "3s", WAITS_3P, JUNK[1], JUNK[2]])
    state = act(state, 3, Act.TAKE)
    state = act(state, 1, Act.WIN)
    assert state.result is not None and state.result.winners == (1,)
    assert state.result.next_dealer == 1


def test_taker_wins_nobody_else_asked() -> None:
    """docs/rules/changsha.md §12.2, §12.3: the taker may win first — the others are asked only when he
    cannot."""
    state = haidi_deal([JUNK[0] + "3s", WAITS_3P, JUNK[1], WAITS_3P_6P])
    state = act(state, 3, Act.TAKE)
    assert state.phase == Phase.HAIDI and state.current == 3
    state = act(state, 3, Act.WIN)
    assert last_settlement(state).winners == (3,)


def test_nobody_wins_the_haidi_taker_deals() -> None:
    """docs/rules/changsha.md §12.4, §2.3: a taker and nobody wins: drawn hand, the taker deals next. Seat 3
    refuses, the dealer takes; nobody can win on 9s."""
    state = haidi_deal([JUNK[0] + "3s", WAITS_3P, JUNK[1], JUNK[2]], haidi="9s", before="1s")
    state = act(state, 3, Act.PASS)
    state = act(state, 0, Act.TAKE)
    assert state.phase == Phase.ENDED
    assert state.result is not None and state.result.reason == "draw"
    assert state.result.next_dealer == 0


def test_haidi_shown_and_passed_taker_deals() -> None:
    """docs/rules/changsha.md §2.3: the taker deals — also when the seats that could win on the shown tile
    pass."""
    state = haidi_deal([JUNK[0] + "3s", WAITS_3P, JUNK[1], JUNK[2]])
    state = act(state, 3, Act.PASS)
    state = act(state, 0, Act.TAKE)
    state = act(state, 1, Act.PASS)
    assert state.result is not None and state.result.reason == "draw"
    assert state.result.next_dealer == 0


def test_no_discard_after_taking_the_haidi() -> None:
    """海底 is not played on: after taking it the taker only wins or shows it."""
    state = haidi_deal([JUNK[0] + "3s", JUNK[1], JUNK[2], WAITS_3P])
    state = act(state, 3, Act.TAKE)
    try:
        act(state, 3, Act.DISCARD, "3p")
    except IllegalAction:
        pass
    else:
        raise AssertionError("the haidi taker discarded")


# ---------------------------------------------------------------- the haidi as a kong replacement

KONG_5M = "555m234789s5678p"  # 555m + 234s 789s 5678p: waits 5p/8p; draws the fourth 5m as second-last


def play_until_last_tile_drawn(state: State) -> State:
    state = pass_claims(state)
    while state.wall.remaining > 1:
        state = discard_drawn(state)
    return state


def test_last_tile_as_kong_replacement_no_haidi_and_konger_deals() -> None:
    """docs/rules/common.md §4.2, docs/rules/changsha.md §2.6, 裁定 13: if only the haidi tile is left, the
    kong replacement is the haidi tile and the hand has no haidi; if nobody wins, that player deals next. Seat
    2 draws the fourth 5m as the second-last tile and konges; the haidi 9s is its replacement; nobody wins:
    drawn hand, seat 2 deals next."""
    state = deal([JUNK[0] + "3s", JUNK[1], KONG_5M, JUNK[2]], tail="5m9s")
    state = act(state, 0, Act.DISCARD, "3s")
    state = play_until_last_tile_drawn(state)
    assert state.current == 2 and state.drawn == parse_tile("5m") and state.wall.remaining == 1
    state = act(state, 2, Act.KONG, "5m", "bu")
    assert state.wall.remaining == 0 and state.drawn == parse_tile("9s")
    state = act(state, 2, Act.DISCARD, "9s")
    state = pass_claims(state)
    assert state.phase == Phase.ENDED  # no 海底漫游
    assert state.result is not None and state.result.reason == "draw"
    assert state.result.next_dealer == 2


def test_win_on_the_last_tile_as_replacement_is_no_haidilaoyue() -> None:
    """docs/rules/common.md §4.2, docs/rules/changsha.md §10.2: the haidi tile taken as a replacement has no
    haidi role — no 海底捞月, no 海底炮. Seat 2's replacement 5p wins as an ordinary 补张 self-draw
    (small)."""
    state = deal([JUNK[0] + "3s", JUNK[1], KONG_5M, JUNK[2]], tail="5m5p", birds=2)
    state = act(state, 0, Act.DISCARD, "3s")
    state = play_until_last_tile_drawn(state)
    state = act(state, 2, Act.KONG, "5m", "bu")
    state = act(state, 2, Act.WIN)
    settlement = last_settlement(state)
    assert hand_names(settlement, 2) == ["xiaohu"]
    assert settlement.birds == ()  # the wall is empty: no bird, and the 5p is no haidi bird
    assert paid(settlement) == {0: 20, 1: 10, 3: 10}


def test_kaigang_with_only_the_haidi_left_takes_the_haidi() -> None:
    """docs/rules/common.md §4.2: a 开杠 with only the haidi left takes the haidi tile — the dice cannot point
    anywhere else; no 海底捞月 either (杠上开花 only: docs/rules/changsha.md §7.11)."""
    state = deal([JUNK[0] + "3s", JUNK[1], KONG_5M, JUNK[2]], tail="5m5p")
    state = act(state, 0, Act.DISCARD, "3s")
    state = play_until_last_tile_drawn(state)
    assert "2 kong 5m kai" in legal(state, 2)
    state = act(state, 2, Act.KONG, "5m", "kai")
    assert state.drawn == parse_tile("5p")
    state = act(state, 2, Act.WIN)
    assert hand_names(last_settlement(state), 2) == ["gangshangkaihua"]
