"""The wall runs out: 查花猪, 查大叫, 退税 (docs/rules/sichuan.md §12, 裁定 14–16), and the next dealer
(docs/rules/sichuan.md §13, 裁定 18).

Played-out hands run with ``last_four=False`` so that everyone may keep throwing what he draws; nobody
claims anything."""

from __future__ import annotations

from dataclasses import replace

from engine import Act, Payment, Settlement, State, parse_tiles
from engine.state import evolve_seat
from engine.tiles import to_counts
from engine.variants.sichuan import best_fan, is_huazhu

from .dealing import act, discard, discard_drawn, flows, hand_names, last_settlement, play_to_end
from .sichuan_helpers import J0, J1, J2, SC, deal

PINGHU = "123m456m789m23s55s"  # waits 1s/4s: 平胡, 0 番
QINGYISE_P = "123p456p789p23p55p"  # waits 1p/4p: 清一色, 2 番
DUIDUI = "333m666m222s888s4s"  # waits 4s: 对对胡
PING2 = "123p456p789p56s77s"  # waits 4s/7s


def test_chadajiao_unready_players_pay_every_ready_player_his_best_hand() -> None:
    """docs/rules/sichuan.md §12.3: a player not ready pays each ready player his best possible hand. Seats 0
    and 2 are not ready: each pays seat 1 (平胡, 1) and seat 3 (清一色, 4). Nobody won: the dealer stays
    (docs/rules/sichuan.md §13.3)."""
    state = deal([J0 + "3p", PINGHU, J1, QINGYISE_P], last_four=False)
    state = play_to_end(discard(state, 0, "3p"))
    settlement = last_settlement(state, "draw")
    assert flows(settlement) == {(0, 1, 1), (0, 3, 4), (2, 1, 1), (2, 3, 4)}
    hands = {0: ("wujiao",), 1: ("youjiao", "pinghu"), 2: ("wujiao",), 3: ("youjiao", "qingyise")}
    assert dict(settlement.hands) == hands  # each ready hand named by what it is paid as
    assert [p.parts[0].label for p in settlement.payments] == ["pinghu", "qingyise"] * 2
    assert state.result is not None
    assert state.result.reason == "draw" and state.result.next_dealer == 0
    assert state.result.deltas == (-5, 2, -5, 8)


def test_chajiao_is_shown_when_everyone_still_in_is_ready() -> None:
    """docs/rules/sichuan.md §12.6: the check is settled, and shown, when nobody has to pay: every seat ready
    at the end, each with his hand, the note saying that nobody pays, no payment."""
    state = deal([PING2 + "3p", PINGHU, DUIDUI, QINGYISE_P], last_four=False)
    state = play_to_end(discard(state, 0, "3p"))
    settlement = last_settlement(state, "draw")
    assert settlement.payments == () and settlement.deltas == (0, 0, 0, 0)
    assert settlement.note == "chajiao_none" and "无人要付" in SC.note_label(settlement.note)
    assert [names[0] for _, names in settlement.hands] == ["youjiao"] * 4
    assert state.result is not None and state.result.deltas == (0, 0, 0, 0)


def test_chajiao_is_shown_when_nobody_still_in_is_ready() -> None:
    """docs/rules/sichuan.md §12.6: nobody ready, no 花猪, no kong money: nobody pays; the check says so."""
    state = deal([J0 + "3p", J1, J2, J0], last_four=False)
    state = play_to_end(discard(state, 0, "3p"))
    settlement = last_settlement(state, "draw")
    assert settlement.payments == () and settlement.note == "chajiao_none"
    assert dict(settlement.hands) == {s: ("wujiao",) for s in range(4)}


def test_tuishui_unready_konger_returns_his_kong_money() -> None:
    """docs/rules/sichuan.md §12.4: players not ready return their kong money (退税). Seat 2's 暗杠 took 2
    from each; at the end he is not ready: he gives it back, and pays seat 1's 大叫 as well."""
    state = deal([J0 + "3p", PINGHU, "7777s1359s13579p", J2], draws="6s1p", last_four=False)
    state = discard_drawn(discard(state, 0, "3p"))
    state = act(state, 2, Act.KONG, "7s")
    state = play_to_end(state)
    settlement = last_settlement(state, "draw")
    assert flows(settlement) == {(0, 1, 1), (2, 1, 1), (3, 1, 1), (2, 0, 2), (2, 1, 2), (2, 3, 2)}
    assert "退税" in SC.note_label(settlement.note)
    assert state.result is not None and state.result.deltas[2] == -1  # +6 kong, -6 back, -1 大叫


def test_ready_konger_keeps_his_kong_money_and_gen_counts() -> None:
    """docs/rules/sichuan.md §12.4: only players not ready return kong money. Seat 2 is ready
    (123p456p789p1p + [(7777s)]): he keeps the 6 and is paid 平胡 + 根 = 1 番, 2 by each of the others."""
    state = deal([J0 + "3p", J2, "7777s123p456p789p", J0], draws="6s1p", last_four=False)
    state = discard_drawn(discard(state, 0, "3p"))
    state = act(state, 2, Act.KONG, "7s")
    state = play_to_end(state)
    assert flows(last_settlement(state, "draw")) == {(0, 2, 2), (1, 2, 2), (3, 2, 2)}
    assert state.result is not None and state.result.deltas == (-4, -4, 12, -4)


def test_winners_take_no_part_in_chajiao() -> None:
    """docs/rules/sichuan.md §12.1: 查花猪 / 查大叫 are between the players still in: seat 1 has won; the
    not-ready seats 0, 2 and 3 have nobody ready to pay (docs/rules/sichuan.md §12.6: the check says so,
    and moves nothing). The first winner deals next."""
    state = deal([J0 + "4s", DUIDUI, J1, J2], last_four=False)
    state = act(state, 0, Act.DISCARD, "4s")
    state = play_to_end(act(state, 1, Act.WIN))
    assert [s.kind for s in state.settlements] == ["win", "draw"]
    draw = state.settlements[-1]
    assert dict(draw.hands) == {0: ("wujiao",), 2: ("wujiao",), 3: ("wujiao",)} and not draw.payments
    assert state.result is not None and state.result.next_dealer == 1


def test_next_dealer_after_yipao_duoxiang_is_the_discarder() -> None:
    """docs/rules/sichuan.md §13.2, 裁定 18: if the first win of the hand was 一炮多响, the player who dealt
    in deals next. Seat 3 throws the 4s he drew (his void); seats 1 and 2 win on it."""
    state = deal([J0 + "3p", DUIDUI, PING2, J2], draws="6p6p4s", last_four=False)
    state = discard(state, 0, "3p")
    state = discard_drawn(discard_drawn(state))
    state = act(state, 3, Act.DISCARD, "4s")
    state = act(act(state, 1, Act.WIN), 2, Act.WIN)
    assert last_settlement(state).winners == (1, 2)
    state = play_to_end(state)
    assert state.result is not None and state.result.next_dealer == 3


# ---------------------------------------------------------------- 查花猪 on a set position


def position(
    hands: list[str], won: tuple[int, ...] = (), kongs: tuple[Settlement, ...] = (), **options: object
) -> State:
    """A position at the wall's end: 13-tile ``hands``; each voids the first suit it lacks (筒 if it holds
    all three); seats in ``won`` have won; ``kongs`` are the hand's settlements so far."""
    state = deal([J0 + "3p", J1, J2, "1245789m134679s"], **options)
    seats = []
    for i, (s, h) in enumerate(zip(state.seats, hands, strict=True)):
        counts = to_counts(parse_tiles(h))
        void = next((x for k, x in enumerate("msp") if not any(counts[9 * k : 9 * k + 9])), "p")
        seats.append(evolve_seat(s, counts=counts, won=i in won, choice=void))
    return replace(state, seats=tuple(seats), settlements=kongs)


HUAZHU = "123m456s789p1234m"  # three suits: 花猪


def test_huazhu_pays_the_cap_to_every_other_player_still_in() -> None:
    """docs/rules/sichuan.md §12.2, 裁定 15: a 花猪 (three suits) pays the cap to every non-花猪 player still
    in, ready or not, and no 大叫 on top. The cap (default 3 番) is 8: to the ready seat 1 and the unready
    seat 2; seat 3 has won and gets nothing. The unready seat 2 still pays seat 1's 大叫."""
    state = position([HUAZHU, PINGHU, J1, J2], won=(3,))
    assert is_huazhu(state, 0) and not is_huazhu(state, 2)
    settlement = SC.settle_draw(state)
    assert settlement is not None
    assert flows(settlement) == {(0, 1, 8), (0, 2, 8), (2, 1, 1)}
    assert dict(settlement.hands)[0] == ("huazhu",)


def test_huazhu_do_not_pay_each_other() -> None:
    """docs/rules/sichuan.md §12.2: two 花猪 settle nothing between them. Cap 4: 16."""
    state = position([HUAZHU, PINGHU, "123m456s789p1234s", J2], cap=4)
    settlement = SC.settle_draw(state)
    assert settlement is not None
    assert flows(settlement) == {(0, 1, 16), (0, 3, 16), (2, 1, 16), (2, 3, 16), (3, 1, 1)}


def test_huazhu_returns_kong_money() -> None:
    """docs/rules/sichuan.md §12.4: a 花猪 is not ready: he returns his kong money too."""
    pays = (Payment(1, 0, 2), Payment(2, 0, 2))
    kong = Settlement.from_payments("kong", 4, (0,), ((0, ("angang",)),), (), pays)
    state = position([HUAZHU, J1, J2, "1245789m134679s"], kongs=(kong,))
    settlement = SC.settle_draw(state)
    assert settlement is not None
    assert flows(settlement) == {(0, 1, 8), (0, 2, 8), (0, 3, 8), (0, 1, 2), (0, 2, 2)}


def test_best_hand_for_chadajiao() -> None:
    """docs/rules/sichuan.md §12.3, 裁定 14: the best wait counts — 1112345678999p waits on every 筒; on 1p
    or 9p it holds four (清一色 + 根 = 3), and that is what it is paid (shape and 根 only)."""
    state = position([J0, "1112345678999p", J2, PINGHU])
    assert best_fan(state, 1) == 3
    assert best_fan(state, 3) == 0
    assert best_fan(state, 0) is None


def test_best_hand_is_capped() -> None:
    """docs/rules/sichuan.md §12.3: capped — a ready 清龙七对 (5 番) collects 8 at the default cap."""
    state = position(["6666p11p33p77p99p2p", J0, J2, "1245789m134679s"])
    settlement = SC.settle_draw(state)
    assert settlement is not None
    assert flows(settlement) == {(1, 0, 8), (2, 0, 8), (3, 0, 8)}


def test_nothing_moves_when_everyone_is_ready() -> None:
    """docs/rules/sichuan.md §12.2, §12.3, §12.6: only players not ready (or 花猪) pay; nothing moves between
    ready players, and the check says so. Seat 2 has won: he takes no part."""
    state = position([PINGHU, QINGYISE_P, J2, "123m456m789m23s55s"], won=(2,))
    settlement = SC.settle_draw(state)
    assert settlement is not None and not settlement.payments and settlement.note == "chajiao_none"
    assert [seat for seat, _ in settlement.hands] == [0, 1, 3]


def test_no_check_with_one_player_still_in() -> None:
    """docs/rules/sichuan.md §12.1: the check is between two or more players still in."""
    state = position([PINGHU, QINGYISE_P, J2, J1], won=(1, 2, 3))
    assert SC.settle_draw(state) is None


def test_one_player_still_in_still_returns_his_kong_money() -> None:
    """docs/rules/sichuan.md §12.4: with one player left who never won (血流成河), not ready, there is nobody
    to check against, but his kong money still goes back (a review found the no-payment check dropping it,
    which made stored hands fail their replay check)."""
    pays = (Payment(1, 0, 2), Payment(2, 0, 2), Payment(3, 0, 2))
    kong = Settlement.from_payments("kong", 4, (0,), ((0, ("angang",)),), (), pays)
    state = position([J0, PINGHU, QINGYISE_P, PINGHU], won=(1, 2, 3), kongs=(kong,))
    settlement = SC.settle_draw(state)
    assert settlement is not None and settlement.note == "chajiao_tuishui"
    assert flows(settlement) == {(0, 1, 2), (0, 2, 2), (0, 3, 2)}


def test_hand_names_of_a_draw_settlement() -> None:
    """The table shows who was 花猪, 无叫 or 有叫."""
    state = position([HUAZHU, PINGHU, J1, J2])
    settlement = SC.settle_draw(state)
    assert settlement is not None
    assert hand_names(settlement, 0) == ["huazhu"]
    assert hand_names(settlement, 1) == ["pinghu", "youjiao"]  # ready, and checked for a 平胡
    assert hand_names(settlement, 2) == ["wujiao"]
