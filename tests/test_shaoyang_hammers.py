"""加锤 (hammers): chosen before the hand, each hammer doubles a payment between winner and payer
(docs/rules/shaoyang.md §2, 裁定 8, 裁定 11).

A payment between winner W and payer P is × 2^(hammers(W) + hammers(P)). ``hammers="0111"`` = seat 0 none,
seats 1-3 one each (chosen in seat order).
"""

from __future__ import annotations

from engine import Act, Phase, arranged_hand, observe, to_act

from .dealing import act, discard, discard_drawn, last_settlement, legal, paid
from .shaoyang_helpers import JUNK, SY, choose_hammers, chow_then_self_draw, deal

READY_3S = "234m789s789p234p3s"
KONG_DEALER = "1111m47m258s369p1z3s"


def test_every_seat_chooses_0_1_or_2_hammers_before_the_hand() -> None:
    """docs/rules/shaoyang.md §2.1: before the hand each player chooses no hammer, one or two."""
    state = deal([JUNK[0] + "3s", READY_3S, JUNK[1], JUNK[2]], hammers=None)
    assert state.phase == Phase.CHOOSE
    assert to_act(state) == (0, 1, 2, 3)
    for seat in range(4):
        assert legal(state, seat) == {f"{seat} choose 0", f"{seat} choose 1", f"{seat} choose 2"}
    state = choose_hammers(state, "0120")
    assert [s.choice for s in state.seats] == ["0", "1", "2", "0"]
    assert state.phase == Phase.TURN and state.current == 0


def test_hammers_are_chosen_before_seeing_the_tiles() -> None:
    """docs/rules/shaoyang.md §2.1: before looking at the tiles: a choosing seat sees no tiles, and no other
    seat's choice until everyone has chosen."""
    state = deal([JUNK[0] + "3s", READY_3S, JUNK[1], JUNK[2]], hammers=None)
    assert SY.choose_blind(state)
    state = act(state, 0, Act.CHOOSE, detail="2")
    obs = observe(state, 1)
    assert obs.hand == ()
    assert obs.seats[0].choice is None
    for seat in (1, 2, 3):
        state = act(state, seat, Act.CHOOSE, detail="0")
    assert observe(state, 1).seats[0].choice == "2"  # public once all have chosen


def test_seed_example_1000() -> None:
    """docs/rules/shaoyang.md §2.3, 裁定 2: A, B and C take one hammer each, D none; A wins and each would pay
    100: B pays 400, C 400, D 200; A gets 1000. A = seat 1, B = seat 2, C = seat 3, D = the dealer; "100" is
    the per-payer amount before hammers: 平胡 2 × 自摸 2 × 底分 25."""
    state = chow_then_self_draw(base=25, hammers="0111")
    settlement = last_settlement(state)
    assert paid(settlement) == {2: 400, 3: 400, 0: 200}
    assert settlement.deltas[1] == 1000
    assert state.result is not None and state.result.deltas == (-200, 1000, -400, -400)


def test_each_hammer_doubles_again() -> None:
    """docs/rules/shaoyang.md §2.2: × 2^(hammers(W)+hammers(P)) — winner 2 and payer 2 hammers: ×16; winner
    2, payer 0: ×4; winner 2, payer 1: ×8."""
    settlement = last_settlement(chow_then_self_draw(base=1, hammers="0221"))
    assert paid(settlement) == {0: 4 * 4, 2: 4 * 16, 3: 4 * 8}


def test_hammers_of_other_seats_do_not_count() -> None:
    """docs/rules/shaoyang.md §2.2: only the winner's and that payer's hammers count. Seat 1 (no hammer) wins
    杠上炮 off the dealer (no hammer): seats 2 and 3's two hammers change nothing."""
    state = deal([KONG_DEALER, READY_3S, JUNK[1], JUNK[2]], back="5z", hammers="0022")
    state = act(state, 0, Act.KONG, "1m")
    state = act(state, 0, Act.DISCARD, "3s")
    state = act(state, 1, Act.WIN)
    assert paid(last_settlement(state)) == {0: 4}


def test_gangshangpao_with_hammers() -> None:
    """docs/rules/shaoyang.md §2.2: a payment between winner W and payer P is × 2^(hammers(W)+hammers(P)) —
    杠上炮: 4 × 2^(1+2)."""
    state = deal([KONG_DEALER, READY_3S, JUNK[1], JUNK[2]], back="5z", hammers="2100")
    state = act(state, 0, Act.KONG, "1m")
    state = act(state, 0, Act.DISCARD, "3s")
    state = act(state, 1, Act.WIN)
    assert paid(last_settlement(state)) == {0: 32}


def test_baosanjia_uses_the_paying_seats_hammers() -> None:
    """docs/rules/shaoyang.md 裁定 8: when one player pays for all three (抢杠, 杠开 after 点杠) the payment
    is between the winner and him: 3 shares × 2^(hammers(W)+hammers(payer)); the other seats' hammers do not
    count. Seat 2 (1 hammer) robs seat 1 (1 hammer): 4 × 2 × 3 × 4 = 96; seat 3's two hammers change
    nothing."""
    state = deal(
        [JUNK[0] + "6z", "1158m69s147p1567z", "23m456s789p234p55s", JUNK[2]], draws="8s8s8s1m", hammers="0112"
    )
    state = act(state, 0, Act.DISCARD, "1m")
    state = act(state, 1, Act.PUNG)
    state = discard(state, 1, "5m")
    for _ in range(3):
        state = discard_drawn(state)
    state = act(state, 1, Act.KONG, "1m")
    state = act(state, 2, Act.WIN)
    assert paid(last_settlement(state)) == {1: 96}


def test_kong_money_is_not_hammered() -> None:
    """docs/rules/shaoyang.md §2.4, 裁定 11: hammers multiply the win payments only; kong money is paid plain:
    the dealer's 暗杠 with two hammers still collects 2 from each."""
    state = deal([KONG_DEALER, READY_3S, JUNK[1], JUNK[2]], back="5z", hammers="2222")
    state = act(state, 0, Act.KONG, "1m")
    assert paid(last_settlement(state, "kong")) == {1: 2, 2: 2, 3: 2}


def test_room_without_jiachui() -> None:
    """Room option 加锤 off: nobody is asked and every payment is plain — 平胡 self-draw 4 from each."""
    state = arranged_hand(
        SY,
        [JUNK[0] + "3s", "45s234m789p234p1z9s", JUNK[1], JUNK[2]],
        draws="6m6m6m1z",
        options={"jiachui": False},
    )
    assert state.phase == Phase.TURN
    state = act(state, 0, Act.DISCARD, "3s")
    state = act(state, 1, Act.CHOW, "3s")
    state = discard(state, 1, "9s")
    for _ in range(3):
        state = discard_drawn(state)
    state = act(state, 1, Act.WIN)
    assert paid(last_settlement(state)) == {0: 4, 2: 4, 3: 4}
