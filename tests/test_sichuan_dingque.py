"""定缺 (void suit), the 108 tiles and no chow (docs/rules/sichuan.md §1.1, §2b, §3.1, §4.2, 裁定 1–3).

Seat 0 deals. J0/J1/J2 are junk hands that void their missing suit (see sichuan_helpers)."""

from __future__ import annotations

from engine import Act, Phase, arranged_hand, legal_actions, new_hand, observe, parse_tile, parse_tiles
from engine.tiles import SUITED_KINDS

from .dealing import act, can, discard, legal
from .sichuan_helpers import J0, J1, J2, SC, deal, fans


def offered(hands: list[str], seat: int) -> list[str]:
    """The 定缺 choices ``seat`` is offered right after this deal, in order (the default first)."""
    state = arranged_hand(SC, hands)
    assert state.phase == Phase.CHOOSE
    return [a.detail for a in legal_actions(state, seat)]


# ---------------------------------------------------------------- the set


def test_108_tiles_without_honors() -> None:
    """docs/rules/sichuan.md §1.1: 108 tiles — characters, bamboo and dots; no flowers, winds or dragons."""
    state = new_hand(SC, 1)
    assert sorted(state.wall.tiles) == parse_tiles("123456789m123456789s123456789p" * 4)
    assert sum(sum(s.counts) for s in state.seats) + state.wall.remaining == 108
    assert all(t < SUITED_KINDS for t in state.wall.tiles)
    assert max(SC.seat_counts) == 4  # four unless the table picks 三人两房 (test_sichuan_sanren)


# ---------------------------------------------------------------- choosing the void


def test_dingque_is_chosen_after_the_deal_by_every_player() -> None:
    """docs/rules/sichuan.md §2b.1: after the deal each player picks a void suit, looking at his tiles; the
    dealer plays only when all four have chosen."""
    state = arranged_hand(SC, [J0 + "3p", "123456m1234s123p", J1, J2])
    assert state.phase == Phase.CHOOSE
    assert observe(state, 1).hand  # chosen after looking at the tiles (not blind)
    for seat, void in ((3, "s"), (1, "m"), (2, "m")):
        state = act(state, seat, Act.CHOOSE, detail=void)
        assert state.phase == Phase.CHOOSE
    state = act(state, 0, Act.CHOOSE, detail="p")
    assert state.phase == Phase.TURN and state.current == 0
    assert [s.choice for s in state.seats] == ["p", "m", "m", "s"]


def test_dingque_default_is_the_suit_with_fewest_tiles() -> None:
    """docs/rules/sichuan.md §2b.2: the default (offered first) is the suit held fewest of; any suit may be
    chosen. 6 万, 4 条, 3 筒: 筒 is offered first."""
    assert offered([J0 + "3p", "123456m1234s123p", J1, J2], 1) == ["p", "s", "m"]


def test_dingque_default_tie_goes_in_the_order_wan_tiao_tong() -> None:
    """docs/rules/sichuan.md §2b.2, 裁定 1: with equally few tiles in two suits the default is the first in
    the order 万 条 筒."""
    assert offered([J0 + "3p", "12345m1234s1234p", J1, J2], 1) == ["s", "p", "m"]


def test_dingque_with_two_suits_the_third_is_the_void() -> None:
    """docs/rules/sichuan.md §2b.3, 裁定 1: holding two suits, the third is the void — the only choice
    offered."""
    hands = [J0 + "3p", J1, J2, "123456789m1234s"]
    assert offered(hands, 3) == ["p"]
    assert offered(hands, 1) == ["m"]


def test_dingque_with_one_suit_choose_either_other_suit() -> None:
    """docs/rules/sichuan.md §2b.3: holding one suit, either of the other two."""
    assert offered([J0 + "3p", J1, J2, "1122344578899s"], 3) == ["m", "p"]


def test_dingque_is_shown_once_everyone_has_chosen() -> None:
    """docs/rules/sichuan.md §2b.1: the voids are shown when all have chosen — hidden while others still
    choose."""
    state = arranged_hand(SC, [J0 + "3p", "123456m1234s123p", J1, J2])
    state = act(state, 1, Act.CHOOSE, detail="s")
    assert observe(state, 1).seats[1].choice == "s"
    assert observe(state, 2).seats[1].choice is None
    for seat in (0, 2, 3):
        state = act(state, seat, Act.CHOOSE, detail=legal_actions(state, seat)[0].detail)
    assert observe(state, 2).seats[1].choice == "s"


# ---------------------------------------------------------------- void tiles go first


def test_void_tiles_must_be_discarded_first() -> None:
    """docs/rules/sichuan.md §2b.4: holding void tiles you may only discard them. Void 筒: only 3p and 5p may
    go."""
    state = deal(["12345678m1145s35p", J0, J1, J2])
    assert state.seats[0].choice == "p"
    assert {a for a in legal(state, 0) if "discard" in a} == {"0 discard 3p", "0 discard 5p"}


def test_any_tile_may_go_once_the_void_is_gone() -> None:
    """docs/rules/sichuan.md §2b.4: after the last 筒 the whole hand is free again."""
    state = deal(["123456789m1145s3p", J0, J1, J2], draws="6p6p6p9m")
    assert can(state, 0, Act.DISCARD, "3p") and not can(state, 0, Act.DISCARD, "1m")
    state = discard(state, 0, "3p")
    for seat in (1, 2, 3):
        state = discard(state, seat, "6p")
    assert state.current == 0
    assert can(state, 0, Act.DISCARD, "1m") and can(state, 0, Act.DISCARD, "9m")


def test_a_drawn_void_tile_must_go_before_anything_else() -> None:
    """docs/rules/sichuan.md §2b.4: a void tile drawn later must go first: it is the only discard."""
    state = deal([J0 + "3p", "123456789m1234s", J1, J2], draws="6p")
    state = discard(state, 0, "3p")
    assert state.current == 1
    assert {a for a in legal(state, 1) if "discard" in a} == {"1 discard 6p"}


def test_no_pung_of_the_void_suit() -> None:
    """docs/rules/sichuan.md §2b.5, 裁定 2: a void tile cannot be punged or konged. Seat 1 holds 33p: with 筒
    as the void no claim is offered on the dealer's 3p; with 条 as the void the pung is."""
    hands = [J0 + "3p", "123456789m12s33p", J1, J2]
    voided = deal(hands, voids=".p..")
    voided = act(voided, 0, Act.DISCARD, "3p")
    assert voided.phase == Phase.TURN and voided.current == 1  # no claim window at all
    kept = deal(hands, voids=".s..")
    kept = act(kept, 0, Act.DISCARD, "3p")
    assert kept.phase == Phase.CLAIM and can(kept, 1, Act.PUNG)


def test_no_concealed_kong_of_the_void_suit() -> None:
    """docs/rules/sichuan.md §2b.5, 裁定 2: four void tiles are not konged, they are thrown."""
    hands = ["5555p123456789m1s", J0, "1245789m134679s", "1234679m235689s"]
    voided = deal(hands, voids="p...")
    assert not can(voided, 0, Act.KONG, "5p")
    assert {a for a in legal(voided, 0) if "discard" in a} == {"0 discard 5p"}
    kept = deal(hands, voids="s...")
    assert can(kept, 0, Act.KONG, "5p")


# ---------------------------------------------------------------- 缺门 to win


def test_no_win_with_three_suits() -> None:
    """docs/rules/sichuan.md §4.2: at most two suits to win. A complete 4 sets + pair with 万 条 筒 does not
    win, whatever the void."""
    for void in ("m", "s", "p"):
        assert fans("123456789m123s55p", "3s", void=void) is None
    assert fans("123456789m123s55s", "3s", void="p") == {"pinghu": 0}


def test_no_win_holding_the_void_suit() -> None:
    """docs/rules/sichuan.md §4.2: no tile of the void suit either: 万 and 条 only, but 条 is the void."""
    assert fans("123456789m123s55s", "3s", void="s") is None
    assert fans("123456789m123s55s", "3s", void="m") is None


def test_three_suit_hand_is_not_offered_the_win() -> None:
    """docs/rules/sichuan.md §4.2, in play: seat 1 completes 123456789m 23s+1s 55p on the dealer's 1s, but
    holds three suits (the 5p are his void tiles): no win is offered, no claim window opens."""
    state = deal([J0 + "1s", "123456789m23s55p", J1, J2], voids=".p..")
    state = act(state, 0, Act.DISCARD, "1s")
    assert state.phase == Phase.TURN and state.current == 1


# ---------------------------------------------------------------- no chow


def test_no_chow() -> None:
    """docs/rules/sichuan.md §3.1: no chow. The next seat holding 12m gets no claim on a 3m."""
    state = deal([J0 + "3m", "12m456789m12345s", J1, J2])
    assert not SC.claim_allowed(state, 1, Act.CHOW, parse_tile("3m"))
    state = act(state, 0, Act.DISCARD, "3m")
    assert state.phase == Phase.TURN and state.current == 1
    assert not any(a.act == Act.CHOW for a in legal_actions(state, 1))
