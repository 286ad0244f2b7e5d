"""杠上炮 (docs/rules/xiangyin.md §11, §5.13, 裁定 17, 裁定 18).

Seat 0 deals and throws 3s; seat 1 (A) holds READY_KONG, draws the fourth 5m and makes 开杠: after the kong
234s 678p 23p 88s waits 1p/4p — a small hand (the example of docs/rules/xiangyin.md §11.4). The two tiles of
the dice stack fall, and other players win on them. 底分 10 as in that example, no birds unless told.
"""

from __future__ import annotations

import pytest

from engine import Act, Phase, tile_str

from .dealing import (
    act,
    act_events,
    can,
    discard,
    hand_names,
    last_settlement,
    legal,
    paid,
    param_id,
    pass_claims,
    received,
)
from .xiangyin_helpers import JUNK, check_zero_sum, deal, kai_dice

READY_KONG = "555m234s678p23p88s"
WAITS_3P = "234m45556s12789p"  # a small hand: 234m 456s 55s 12p 789p
WAITS_3P_QIDUI = "11m44m77s88m22p66p3p"  # 七小对 on 3p
WAITS_3P_6P = "123m678m99m789s45p"
WAITS_6P = "123m678m999m789s6p"
WAITS_3P_B = "123m678m789s12p99p"
DEALER_WAITS_3P = "111s999s666p45p33m2s"  # throws 2s, then waits 3p
QINGYISE_KONG = "555m1112347899m"  # after the kong 1112347899m: 清一色, waits 6m/9m
N = kai_dice(0)


def gangshangpao(hands: list[str], stack: str, throw: str = "3s", winners: tuple[int, ...] = (2,), **kw):  # type: ignore[no-untyped-def]
    """Seat 1 makes 开杠 on 5m; ``stack`` (two tiles) is turned up, falls, and ``winners`` take it."""
    state = deal(hands, draws="5m" + kw.pop("draws", ""), stacks={N: stack}, **kw)
    state = discard(state, 0, throw)
    state = act(state, 1, Act.KONG, "5m", "kai")
    assert state.phase == Phase.CLAIM and state.claim is not None and state.claim.kind == "kong"
    for w in winners:
        assert legal(state, w) == {f"{w} win", f"{w} pass"}  # 四.2》: nothing but 胡
        state = act(state, w, Act.WIN)
    state = pass_claims(state)
    assert state.phase == Phase.ENDED
    check_zero_sum(state)
    return state


def test_seed_example_150() -> None:
    """docs/rules/xiangyin.md §11.4: A is ready for a small hand and makes 开杠; B wins 杠上炮. Had A made
    杠上开花 it would be one big hand = 50 from each of three, 150 — so A pays B 150. A = seat 1, B = seat 2
    (a small hand on 3p)."""
    state = gangshangpao([JUNK[0] + "3s", READY_KONG, WAITS_3P, JUNK[2]], "3p9s")
    settlement = last_settlement(state)
    assert hand_names(settlement, 2) == ["gangshangpao"]
    assert paid(settlement) == {1: 150} and received(settlement) == {2: 150}


def test_the_konger_cannot_win_the_tile_the_others_can() -> None:
    """docs/rules/xiangyin.md §5.13, §4.2: the konger (waits 1p/4p) is not asked about 3p 9s; seat 2 is, and
    may take 3p with a small hand (杠上炮 is a big hand)."""
    state = deal([JUNK[0] + "3s", READY_KONG, WAITS_3P, JUNK[2]], draws="5m", stacks={N: "3p9s"})
    state = discard(state, 0, "3s")
    state = act(state, 1, Act.KONG, "5m", "kai")
    assert state.phase == Phase.CLAIM and not can(state, 1, Act.WIN) and can(state, 2, Act.WIN)


def test_the_winners_own_hand_is_not_scored() -> None:
    """docs/rules/xiangyin.md §11.1: the winner's own hand is not scored. Seat 2 wins with 七小对 — still 150,
    the konger's figure."""
    state = gangshangpao([JUNK[0] + "3s", READY_KONG, WAITS_3P_QIDUI, JUNK[2]], "3p9s")
    assert paid(last_settlement(state)) == {1: 150}


def test_konger_pays_his_own_big_hands() -> None:
    """docs/rules/xiangyin.md §11.1: the konger's best wait plus 杠上开花. The konger waits for 清一色: his
    杠上开花 would have been 清一色 + 杠上开花 = 5·2 = 10 points from each of three: 300."""
    state = gangshangpao([JUNK[0] + "3s", QINGYISE_KONG, WAITS_3P, JUNK[2]], "3p9s")
    settlement = last_settlement(state)
    assert paid(settlement) == {1: 300}
    assert settlement.note == "konger_pays"  # the konger's own hands are listed with his seat
    assert "qingyise" in dict(settlement.hands)[1]


def test_both_kong_tiles_winnable_two_big() -> None:
    """docs/rules/xiangyin.md §11.2: both turned-up tiles won on: one more big hand. Seat 2 waits 3p/6p and
    the stack is 3p 6p: 2 big hands = 10 points × 3 = 300."""
    state = gangshangpao([JUNK[0] + "3s", READY_KONG, WAITS_3P_6P, JUNK[2]], "3p6p")
    assert paid(last_settlement(state)) == {1: 300}
    assert hand_names(last_settlement(state), 2) == ["gangshangpao", "gangshangpao"]


def test_one_kong_tile_winnable_one_big() -> None:
    """docs/rules/xiangyin.md §11.2: only one tile won on — the same seat 2 with the stack 3p 9s: 150."""
    state = gangshangpao([JUNK[0] + "3s", READY_KONG, WAITS_3P_6P, JUNK[2]], "3p9s")
    assert paid(last_settlement(state)) == {1: 150}


def test_two_winners_split_the_score() -> None:
    """docs/rules/xiangyin.md §11.3, §2.4: two winners split it. Seats 2 and 3 both win on 3p: 150 split, 75
    each; the konger deals next."""
    state = gangshangpao([JUNK[0] + "3s", READY_KONG, WAITS_3P, WAITS_3P_B], "3p9s", winners=(2, 3))
    settlement = last_settlement(state)
    assert received(settlement) == {2: 75, 3: 75} and paid(settlement) == {1: 150}
    assert state.result is not None and state.result.next_dealer == 1


def test_two_winners_on_the_two_tiles() -> None:
    """docs/rules/xiangyin.md §11.2, 裁定 17: both tiles won on, by different players too: seat 2 takes 3p
    and seat 3 takes 6p, so both tiles win (2 big, 300) and the two split it."""
    state = gangshangpao([JUNK[0] + "3s", READY_KONG, WAITS_3P, WAITS_6P], "3p6p", winners=(2, 3))
    assert received(last_settlement(state)) == {2: 150, 3: 150}


def test_split_rounds_half_up() -> None:
    """docs/rules/xiangyin.md §11.3, 裁定 17: a split is in whole points, rounded half up: at 底分 1 the 15
    points become 8 + 8."""
    state = gangshangpao([JUNK[0] + "3s", READY_KONG, WAITS_3P, WAITS_3P_B], "3p9s", winners=(2, 3), base=1)
    assert received(last_settlement(state)) == {2: 8, 3: 8}


@pytest.mark.parametrize(
    ("bird", "expected"), [("2s", {2: 100, 3: 50, 0: 50}), ("1s", {2: 100, 3: 100, 0: 100})], ids=param_id
)
def test_three_winners_the_bird_seat_gets_one_more_fan(bird: str, expected: dict[int, int]) -> None:
    """docs/rules/xiangyin.md §11.3: three winners take a third each, × (bird hits + 1), birds counted from
    the konger. Everyone but the konger wins on 3p: each of the three takes 50; a 2 hits the konger's 下家
    (seat 2), whose share doubles (one more 番); a 1 hits the konger, the payer of all three."""
    hands = [DEALER_WAITS_3P, READY_KONG, WAITS_3P, WAITS_3P_B]
    state = gangshangpao(hands, "3p7m", throw="2s", winners=(2, 3, 0), draws=bird, birds=1)
    assert received(last_settlement(state)) == expected


@pytest.mark.parametrize(("seats", "amount"), [(3, 100), (2, 50)])
def test_fewer_players_the_konger_pays_what_he_would_have_won(seats: int, amount: int) -> None:
    """docs/rules/xiangyin.md §11.1, 裁定 2: what the konger would have received — with 3 players 50 × 2,
    with 2 players 50 × 1."""
    if seats == 3:
        hands, winner = [JUNK[0] + "3s", READY_KONG, WAITS_3P], 2
    else:
        hands, winner = [WAITS_3P + "3s", READY_KONG], 0
    state = gangshangpao(hands, "3p9s", winners=(winner,))
    assert paid(last_settlement(state)) == {1: amount}


def test_piao_is_added() -> None:
    """docs/rules/xiangyin.md §11.3, §7.2: the 飘 of konger (2) and winner (1) adds 3 × 10 to the 150."""
    state = gangshangpao([JUNK[0] + "3s", READY_KONG, WAITS_3P, JUNK[2]], "3p9s", piao=[0, 2, 1, 0])
    assert paid(last_settlement(state)) == {1: 180}


def test_bird_on_the_winner_doubles() -> None:
    """docs/rules/xiangyin.md §11.3: × (hits + 1) — one winner, birds counted from him: a 1 doubles the
    150."""
    state = gangshangpao([JUNK[0] + "3s", READY_KONG, WAITS_3P, JUNK[2]], "3p9s", draws="1s", birds=1)
    assert paid(last_settlement(state)) == {1: 300}


def test_konger_keeps_his_kong_points() -> None:
    """docs/rules/xiangyin.md §11.5, 裁定 15: a 杠上炮 does not undo kong points — the konger's 暗杠 +60
    stays, and he pays the 150: net −90."""
    state = gangshangpao([JUNK[0] + "3s", READY_KONG, WAITS_3P, JUNK[2]], "3p9s")
    assert state.result is not None and state.result.deltas == (-20, -90, 130, -20)


@pytest.mark.parametrize("keep", [False, True], ids=["passes", "keeps 7m"])
def test_a_kept_tile_does_not_change_what_the_konger_pays(keep: bool) -> None:
    """docs/rules/xiangyin.md §11, 裁定 17: the konger pays what his own 杠上开花 would have won, read on the
    hand the tiles were turned up for. Seat 1's 555m 777m 123m 99m 23m makes 开杠 on 5m and turns up 7m 8s;
    he may keep the 7m for another kong. Seat 2 wins on the 8s: 清一色 + 杠上开花 (his best wait, 1m/4m) =
    2 big hands, 5 × 2 × 底分 10 × 3 = 300 — whether he keeps the 7m or not (keeping it, the read took
    the kept tile as held and found no wait: a bare 杠上开花, 150)."""
    hands = ["149m25689s12489p3s", "555m777m123m99m23m", "123p456p88p456s79s", "2369m12468s1248p"]
    state = deal(hands, draws="5m", stacks={N: "7m8s"})
    state = discard(state, 0, "3s")
    state = act(state, 1, Act.KONG, "5m", "kai")
    state = act(state, 1, Act.KONG, "7m", "kai") if keep else act(state, 1, Act.PASS)
    state = act(state, 2, Act.WIN)
    settlement = last_settlement(state)
    assert hand_names(settlement, 2) == ["gangshangpao"]
    assert paid(settlement) == {1: 300}


def test_two_winners_on_the_two_fallen_tiles_each_won_on_his_own() -> None:
    """docs/rules/xiangyin.md §11, 裁定 17: seat 2 wins on the 3p and seat 3 on the 6p of the two tiles the
    开杠 let fall: each win is shown with its own tile (before, both with the first winner's 3p)."""
    state = deal([JUNK[0] + "3s", READY_KONG, WAITS_3P, WAITS_6P], draws="5m", stacks={N: "3p6p"})
    state = discard(state, 0, "3s")
    state = act(state, 1, Act.KONG, "5m", "kai")
    state = act(state, 2, Act.WIN)
    state, events = act_events(state, 3, Act.WIN)
    assert [(e.seat, tile_str(e.tile)) for e in events if e.kind == "win"] == [(2, "3p"), (3, "6p")]
    assert [tile_str(t) for t in state.win_tiles] == ["3p", "6p"]


def test_both_tiles_winnable_count_though_one_is_passed() -> None:
    """docs/rules/xiangyin.md §11.2, 裁定 17 (the seed: 两张杠出的牌都能胡，则计算2个大番): seat 2 can win on
    the 3p, seat 3 on the 6p; seat 3 passes. Both tiles were winnable: 2 big hands, 10 × 底分 10 × 3 = 300,
    all to seat 2, the one winner (before: only tiles actually won on counted, 150)."""
    state = deal([JUNK[0] + "3s", READY_KONG, WAITS_3P, WAITS_6P], draws="5m", stacks={N: "3p6p"})
    state = discard(state, 0, "3s")
    state = act(state, 1, Act.KONG, "5m", "kai")
    state = act(state, 2, Act.WIN)
    state = act(state, 3, Act.PASS)
    assert paid(last_settlement(state)) == {1: 300}
