"""刮风下雨 (kong money), 杠上花, 杠上炮 and 呼叫转移 (docs/rules/sichuan.md §8, §5.6, §5.7, §6.4, 裁定 5–8).

Seat 0 deals. The kongs are of 7s, which J0 and J2 do not hold; seat 2 is the konger. 底分 1."""

from __future__ import annotations

from engine import Act, Phase
from engine.variants.sichuan import HUJIAO_NOTE

from .dealing import (
    act,
    can,
    discard,
    discard_drawn,
    flows,
    hand_names,
    last_settlement,
    paid,
    pass_claims,
    play_to_end,
    settlements,
)
from .sichuan_helpers import J0, J2, deal

DUIDUI = "333m666m222s888s4s"  # 对对胡, waits 4s


def exposed_kong(**options: object):  # type: ignore[no-untyped-def]
    """The dealer throws 7s; seat 2 (777s) makes a 直杠 of it."""
    state = deal([J0 + "7s", J2, "777s123p456p789p1s", J0], **options)
    state = act(state, 0, Act.DISCARD, "7s")
    assert can(state, 2, Act.KONG, "7s")
    return act(state, 2, Act.KONG, "7s")


def test_zhigang_chengbao_only_the_discarder_pays_2() -> None:
    """docs/rules/sichuan.md §8.2, 裁定 19: 直杠 (three in hand and another's discard), 承包制 by default: the
    discarder alone pays 2 bases, at once."""
    state = exposed_kong()
    settlement = last_settlement(state, "kong")
    assert hand_names(settlement, 2) == ["zhigang"]
    assert flows(settlement) == {(0, 2, 2)}


def test_zhigang_jiajiayou_everyone_else_pays_1() -> None:
    """docs/rules/sichuan.md §8.2: 家家有 (option): the discarder pays 2 and every other player still in 1."""
    state = exposed_kong(zhigang="jiajiayou")
    assert flows(last_settlement(state, "kong")) == {(0, 2, 2), (1, 2, 1), (3, 2, 1)}


def test_kong_money_is_paid_at_once_and_base_scales_it() -> None:
    """docs/rules/sichuan.md §8.1: the money moves when the kong is made, in bases: 底分 5 → 10."""
    state = exposed_kong(base=5)
    assert state.phase == Phase.TURN and state.current == 2  # the kong is done, seat 2 plays on
    assert last_settlement(state, "kong").deltas == (-10, 0, 10, 0)


def added_kong_deal(**options: object):  # type: ignore[no-untyped-def]
    """Seat 2 pungs the dealer's 7s and throws 1s; seats 3, 0, 1 throw a 4p each; seat 2 draws the 4th 7s."""
    state = deal([J0 + "7s", J2, "77s123p456p789p13s", J0], draws="4p4p4p7s3m3m3m6m", **options)
    state = act(state, 0, Act.DISCARD, "7s")
    state = act(state, 2, Act.PUNG)
    state = discard(state, 2, "1s")
    for _ in range(3):
        state = discard_drawn(state)
    assert state.current == 2 and state.drawn == 15
    return state


def test_bugang_each_player_still_in_pays_1() -> None:
    """docs/rules/sichuan.md §8.3: 面下杠 / 补杠, the fourth tile to a pung konged when drawn: every player
    still in pays 1 base, at once."""
    state = act(added_kong_deal(), 2, Act.KONG, "7s")
    settlement = last_settlement(state, "kong")
    assert hand_names(settlement, 2) == ["bugang"]
    assert flows(settlement) == {(0, 2, 1), (1, 2, 1), (3, 2, 1)}


def test_bugang_of_a_fourth_tile_kept_earns_nothing() -> None:
    """docs/rules/sichuan.md §8.5, 裁定 8: a fourth tile kept past a discard may still be konged later
    (过手杠) — a kong for 根 and a replacement, but no money."""
    state = discard(added_kong_deal(), 2, "3s")
    for _ in range(3):
        state = discard_drawn(state)
    assert state.current == 2
    state = act(state, 2, Act.KONG, "7s")
    settlement = last_settlement(state, "kong")
    assert hand_names(settlement, 2) == ["guoshougang"]
    assert settlement.payments == () and settlement.deltas == (0, 0, 0, 0)


def test_angang_each_player_still_in_pays_2() -> None:
    """docs/rules/sichuan.md §8.4: 暗杠 (下雨), four in hand: every player still in pays 2 bases, at once."""
    state = deal([J0 + "3p", J2, "7777s123p456p789p", J0], draws="1m1p")
    state = discard(state, 0, "3p")
    state = discard_drawn(state)
    state = act(state, 2, Act.KONG, "7s")
    settlement = last_settlement(state, "kong")
    assert hand_names(settlement, 2) == ["angang"]
    assert flows(settlement) == {(0, 2, 2), (1, 2, 2), (3, 2, 2)}


def test_players_who_have_won_pay_no_kong_money() -> None:
    """docs/rules/sichuan.md §8.1, 裁定 17: only players still in pay: seat 1 has won on the dealer's 4s; seat
    2's 暗杠 is paid by seats 0 and 3."""
    state = deal([J0 + "4s", DUIDUI, "7777s123p456p789p", J2], draws="1m")
    state = act(state, 0, Act.DISCARD, "4s")
    state = act(state, 1, Act.WIN)
    assert state.current == 2
    state = act(state, 2, Act.KONG, "7s")
    assert paid(last_settlement(state, "kong")) == {0: 2, 3: 2}


def test_gangshanghua_self_draw_on_the_replacement() -> None:
    """docs/rules/sichuan.md §5.6, 裁定 5: +1 for 杠上花. Seat 2 makes a 暗杠 of 7s and wins on the
    replacement 6p: 平胡 + 根 + 杠上花 = 2 番 → 4, + 1 自摸加底, from each of the three."""
    state = deal([J0 + "3p", J2, "7777s123p456p7p99p", J0], draws="1m8p", back="6p")
    state = discard(state, 0, "3p")
    state = discard_drawn(state)
    state = act(state, 2, Act.KONG, "7s")
    assert state.drawn == 23 and can(state, 2, Act.WIN)
    state = act(state, 2, Act.WIN)
    settlement = last_settlement(state)
    assert hand_names(settlement, 2) == ["gangshanghua", "gen", "pinghu", "zimo_jiadi"]
    assert paid(settlement) == {0: 5, 1: 5, 3: 5}


def test_gangshanghua_after_a_zhigang_is_a_self_draw() -> None:
    """docs/rules/sichuan.md §6.4, 裁定 5: 点杠花 is paid as a self-draw by default — by everyone still in,
    not by the player who fed the kong alone."""
    state = deal([J0 + "7s", J2, "777s123p456p78p99p", J0], back="6p")
    state = act(state, 0, Act.DISCARD, "7s")
    state = act(state, 2, Act.KONG, "7s")
    state = act(state, 2, Act.WIN)
    settlement = last_settlement(state)
    assert hand_names(settlement, 2) == ["gangshanghua", "gen", "pinghu", "zimo_jiadi"]
    assert paid(settlement) == {0: 5, 1: 5, 3: 5}


def test_dianganghua_paid_by_the_feeder_alone() -> None:
    """docs/rules/sichuan.md §6.4: with the 点杠花 option "the kong's feeder pays", the dealer, who fed the
    直杠, alone pays 平胡 + 根 + 杠上花 = 2 番, 4, with no self-draw bonus."""
    state = deal([J0 + "7s", J2, "777s123p456p78p99p", J0], back="6p", dianganghua="dianpao")
    state = act(state, 0, Act.DISCARD, "7s")
    state = act(state, 2, Act.KONG, "7s")
    state = act(state, 2, Act.WIN)
    settlement = last_settlement(state)
    assert hand_names(settlement, 2) == ["gangshanghua", "gen", "pinghu"]
    assert flows(settlement) == {(0, 2, 4)}


def test_dianganghua_option_leaves_other_kongs_self_draws() -> None:
    """docs/rules/sichuan.md §6.4: 点杠花 is the replacement of an exposed kong only: after a 暗杠 nobody fed
    it, and the win is a self-draw paid by all whatever the option."""
    state = deal([J0 + "3p", J2, "7777s123p456p7p99p", J0], draws="1m8p", back="6p", dianganghua="dianpao")
    state = discard(state, 0, "3p")
    state = discard_drawn(state)
    state = act(state, 2, Act.KONG, "7s")
    state = act(state, 2, Act.WIN)
    assert paid(last_settlement(state)) == {0: 5, 1: 5, 3: 5}


# ---------------------------------------------------------------- 杠上炮 and 呼叫转移

QINGYISE = "123456789m2366m"  # 清一色, waits 1m/4m
KONGER = "7777s1359s13579p"  # not ready, voids 万


def gangshangpao(seat3: str = J0, **options: object):  # type: ignore[no-untyped-def]
    """Seat 2 makes a 暗杠 of 7s (6 from the others), draws 4m from the back — his void — and throws it."""
    state = deal([J0 + "3p", QINGYISE, KONGER, seat3], draws="6s2p", back="4m", **options)
    state = discard(state, 0, "3p")
    state = discard_drawn(state)
    state = act(state, 2, Act.KONG, "7s")
    assert last_settlement(state, "kong").deltas[2] == 6
    return act(state, 2, Act.DISCARD, "4m")


def test_gangshangpao_and_hujiao_zhuanyi() -> None:
    """docs/rules/sichuan.md §5.7, §8.6: +1 for 杠上炮, and 呼叫转移 passes the kong's money to the winner.
    Seat 1 wins 清一色 + 杠上炮 = 3 番 (8) on the konger's 4m and takes his 6 of kong money."""
    state = act(gangshangpao(), 1, Act.WIN)
    settlement = last_settlement(state)
    assert hand_names(settlement, 1) == ["gangshangpao", "qingyise"]
    assert flows(settlement) == {(2, 1, 8), (2, 1, 6)}
    assert settlement.note == HUJIAO_NOTE


def test_hujiao_zhuanyi_is_a_room_option() -> None:
    """Issue: the options … 呼叫转移. Off: the konger keeps his kong money."""
    state = act(gangshangpao(hujiao=False), 1, Act.WIN)
    settlement = last_settlement(state)
    assert flows(settlement) == {(2, 1, 8)}
    assert settlement.note == ""


def test_hujiao_zhuanyi_with_yipao_duoxiang_goes_to_the_first_winner() -> None:
    """docs/rules/sichuan.md 裁定 7: 一炮多响 on the konger's discard — the kong money goes to the first
    winner in play order after the konger (seat 3 before seat 1); each winner is paid his own hand."""
    state = gangshangpao(seat3="56m789m234m11s234s")
    state = act(state, 1, Act.WIN)
    state = act(state, 3, Act.WIN)
    settlement = last_settlement(state)
    assert settlement.winners == (3, 1)
    assert flows(settlement) == {(2, 3, 2), (2, 1, 8), (2, 3, 6)}


def test_transferred_kong_money_is_not_returned_again() -> None:
    """docs/rules/sichuan.md 裁定 16: 退税 returns only kong money the konger still has: after 呼叫转移 the
    unready konger refunds nothing at the wall's end; without 呼叫转移 he gives the 2 back to each payer, the
    winner included."""
    state = play_to_end(pass_claims(act(gangshangpao(last_four=False), 1, Act.WIN)))
    assert not any(d.payments for d in settlements(state, "draw"))  # docs/rules/sichuan.md §12.6
    kept = play_to_end(pass_claims(act(gangshangpao(last_four=False, hujiao=False), 1, Act.WIN)))
    assert flows(last_settlement(kept, "draw")) == {(2, 0, 2), (2, 1, 2), (2, 3, 2)}


def test_no_gangshangpao_on_a_later_discard() -> None:
    """docs/rules/sichuan.md 裁定 6: 杠上炮 is the discard right after the kong; the konger's next discards
    are plain."""
    state = deal([J0 + "3p", QINGYISE, KONGER, J0], draws="6p2p6p6p9m4m", back="1p")
    state = discard(state, 0, "3p")
    state = discard_drawn(state)
    state = act(state, 2, Act.KONG, "7s")
    state = discard(state, 2, "1p")
    for _ in range(3):
        state = discard_drawn(state)
    assert state.current == 2
    state = act(state, 2, Act.DISCARD, "4m")
    state = act(state, 1, Act.WIN)
    settlement = last_settlement(state)
    assert hand_names(settlement, 1) == ["qingyise"]
    assert flows(settlement) == {(2, 1, 4)}
