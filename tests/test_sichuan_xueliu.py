"""血流成河 (docs/rules/sichuan.md §7b, 裁定 22, 裁定 23; room option ``mode`` = xueliu): a winner stays in
play and may win again; each win is settled at once; the hand ends only when the wall is empty (then
查花猪/查大叫 for those not ready).

As the apps play it: a winner's hand is locked — every tile he draws that does not win is thrown for him, he
claims nothing but wins, and may kong a drawn tile only if his waits stay the same; a self-drawn winning tile
is laid face up before him (in his river); the winners take no part in 查叫.

Seat 0 deals. DUIDUI (对对胡) waits on 4s alone; the junk hands only pass and throw what they draw."""

from __future__ import annotations

from engine import Act, EventKind, Phase, State, observe, observe_public, tile_str, to_act
from engine.tiles import parse_tile

from .dealing import act, act_events, can, discard_drawn, flows, last_settlement, legal, paid, settlements
from .sichuan_helpers import J0, J1, J2, J3, SC, deal

DUIDUI = "333m666m222s888s4s"  # 对对胡, waits 4s
QINGYISE_P = "123p456p789p23p55p"  # 清一色, waits 1p/4p


def won_once(draws: str = "", seat3: str = J2) -> State:
    """血流: seat 1 wins on the dealer's 4s (对对胡, 2 from the dealer)."""
    state = deal([J0 + "4s", DUIDUI, J1, seat3], draws=draws, mode="xueliu")
    state = act(state, 0, Act.DISCARD, "4s")
    return act(state, 1, Act.WIN)


def test_xuezhan_is_the_default_mode() -> None:
    """docs/rules/sichuan.md §14.5: 血流成河 is a mode beside 血战到底, which stays the default."""
    assert SC.make_options()["mode"] == "xuezhan"
    assert SC.option_spec("mode").value_label("xueliu", "zh") == "血流成河"


def test_the_winner_stays_in_play_with_his_hand_locked() -> None:
    """docs/rules/sichuan.md §7b.1, §7b.2: a winner stays in play. He is not out (won=False), his hand is
    locked and keeps its 13 tiles; the tile he won stays in the dealer's river; the next seat draws."""
    state = won_once()
    s = state.seats[1]
    assert not s.won and s.locked and sum(s.counts) == 13
    assert state.winners == (1,) and state.phase == Phase.TURN and state.current == 2
    assert state.seats[0].discards[-1] == parse_tile("4s")
    assert last_settlement(state).deltas == (-2, 2, 0, 0)


def test_a_winner_may_win_again_each_win_settled_at_once() -> None:
    """docs/rules/sichuan.md §7b.1, §7b.3: a winner may win again; each win is settled at once. Seat 1
    self-draws the next 4s: 对对胡 2 + 1 自摸加底 from each of the three — all still in play. The self-drawn
    tile is laid before him: he holds 13 again, waiting as before."""
    state = won_once(draws="6p6p6p4s")
    for _ in range(3):
        state = discard_drawn(state)
    assert state.current == 1 and state.drawn == parse_tile("4s") and can(state, 1, Act.WIN)
    state = act(state, 1, Act.WIN)
    assert paid(last_settlement(state)) == {0: 3, 2: 3, 3: 3}
    s = state.seats[1]
    assert sum(s.counts) == 13 and s.discards[-1] == parse_tile("4s") and s.locked
    assert state.winners == (1, 1) and state.phase == Phase.TURN and state.current == 2


def test_a_winner_still_in_pays_for_a_kong() -> None:
    """docs/rules/sichuan.md §7b.6, §8.1, 裁定 17: in 血流 a winner is still in the hand, so he pays kong
    money as anyone: seat 2's 暗杠 of 1p after seat 1's win takes 2 from each of the three (in 血战 seat 1
    has left and pays nothing)."""
    for mode, taken in (("xueliu", {0: 2, 1: 2, 3: 2}), ("xuezhan", {0: 2, 3: 2})):
        state = deal([J0 + "4s", DUIDUI, "34679s11112457p", J2], draws="9m", mode=mode)
        state = act(state, 0, Act.DISCARD, "4s")
        state = act(state, 1, Act.WIN)
        assert state.current == 2 and state.drawn == parse_tile("9m")
        state = act(state, 2, Act.KONG, "1p")
        assert paid(last_settlement(state, "kong")) == taken, mode


def test_the_table_sees_each_seats_wins() -> None:
    """docs/rules/sichuan.md §7b.4: the group shows each seat's wins so far and the tiles they were on — the
    observation counts them (PublicSeat.wins) and names the tiles (PublicSeat.won_on: the discard, then the
    self-draw); the hand stays hidden."""
    state = won_once(draws="6p6p6p4s")
    for _ in range(3):
        state = discard_drawn(state)
    state = act(state, 1, Act.WIN)
    assert [p.wins for p in observe_public(state).seats] == [0, 2, 0, 0]
    s4 = parse_tile("4s")
    assert [p.won_on for p in observe_public(state).seats] == [(), (s4, s4), (), ()]
    assert observe(state, 3).seats[1].wins == 2 and observe(state, 3).seats[1].hand is None
    assert observe(state, 3).seats[1].won_on == (s4, s4)


def test_a_locked_winner_throws_what_does_not_win() -> None:
    """docs/rules/sichuan.md §7b.2, 裁定 22: a winner's hand is locked: a drawn tile that does not win is
    thrown for him (he is never asked)."""
    state = won_once(draws="6p6p6p7p")
    for _ in range(2):
        state = discard_drawn(state)
    state, events = act_events(state, 0, Act.DISCARD, "6p")
    auto = [e for e in events if e.kind == EventKind.DISCARD and e.auto]
    assert [(e.seat, e.tile) for e in auto] == [(1, parse_tile("7p"))]
    assert state.current == 2 and 1 not in to_act(state)


def test_a_locked_winner_claims_nothing_but_a_win() -> None:
    """docs/rules/sichuan.md §7b.2: a locked winner neither pungs nor konges a discard (he holds 666m: no
    window opens on 6m), but he may win on a discard again (another 4s)."""
    state = won_once(draws="6m5m", seat3=J3)
    state = act(state, 2, Act.DISCARD, "6m")
    assert state.phase == Phase.TURN and state.current == 3
    state = act(state, 3, Act.DISCARD, "4s")
    assert state.phase == Phase.CLAIM and legal(state, 1) == {"1 win", "1 pass"}
    state = act(state, 1, Act.WIN)
    assert flows(last_settlement(state)) == {(3, 1, 2)} and state.winners == (1, 1)


def test_a_locked_winner_may_kong_if_his_waits_stay() -> None:
    """docs/rules/sichuan.md §7b.2, 裁定 22: a winner may kong the tile he draws if his waits stay the same:
    seat 1 draws the fourth 3m; 3333m leaves him waiting on 4s alone — the kong is offered, and paid (暗杠 2
    from each, all in play)."""
    state = won_once(draws="6p6p6p3m", seat3=J3)
    for _ in range(3):
        state = discard_drawn(state)
    assert state.current == 1 and legal(state, 1) == {"1 discard 3m", "1 kong 3m"}
    state = act(state, 1, Act.KONG, "3m")
    assert paid(last_settlement(state, "kong")) == {0: 2, 2: 2, 3: 2}


def test_a_locked_winner_may_not_kong_if_his_waits_change() -> None:
    """docs/rules/sichuan.md §7b.2: … and not when the kong changes his waits: 111s2223445678p waits
    3p/4p/6p/9p; with 2222p it would wait on 4p alone — no kong: the 2p he draws is thrown for him."""
    hand = "111s2223445678p"
    state = deal([J0 + "9p", hand, "1245789m34679s3p", J0], draws="5p6m6m2p", mode="xueliu")
    state = act(state, 0, Act.DISCARD, "9p")
    state = act(state, 1, Act.WIN)
    assert SC.waits(state.seats[1].counts) == [parse_tile(t) for t in ("3p", "4p", "6p", "9p")]
    for _ in range(2):
        state = discard_drawn(state)
    state, events = act_events(state, 0, Act.DISCARD, "6m")
    assert any(e.kind == EventKind.DISCARD and e.auto and e.tile == parse_tile("2p") for e in events)
    assert state.seats[1].melds == ()


def throw_to_end(state: State) -> State:
    """Everyone passes every claim and throws what he draws (a locked winner too) until the hand ends."""
    while state.phase != Phase.ENDED:
        seat = to_act(state)[0]
        if state.phase == Phase.CLAIM:
            state = act(state, seat, Act.PASS)
        else:
            assert state.drawn is not None
            state = act(state, seat, Act.DISCARD, tile_str(state.drawn))
    return state


def test_the_hand_ends_only_with_the_wall() -> None:
    """docs/rules/sichuan.md §7b.1: the hand ends only when the wall is empty."""
    state = throw_to_end(won_once())
    assert state.wall.remaining == 0 and state.result is not None
    assert state.result.winners == (1,)


def test_chajiao_among_those_who_never_won() -> None:
    """docs/rules/sichuan.md §7b.1, 裁定 23: at the end of the wall, 查花猪/查大叫 among those who never won
    (a winner has been paid for his wins): the unready seats 0 and 3 pay the ready seat 2 his 清一色 (4),
    nothing to seat 1."""
    state = deal([J0 + "4s", DUIDUI, QINGYISE_P, J2], mode="xueliu")
    state = act(state, 0, Act.DISCARD, "4s")
    state = throw_to_end(act(state, 1, Act.WIN))
    (draw,) = settlements(state, "draw")
    assert flows(draw) == {(0, 2, 4), (3, 2, 4)}
    assert 1 not in dict(draw.hands)


def test_the_first_winner_deals_next() -> None:
    """docs/rules/sichuan.md §7b.5, 裁定 18: in 血流 too the first to win deals the next hand."""
    state = throw_to_end(won_once())
    assert state.result is not None and state.result.next_dealer == 1
