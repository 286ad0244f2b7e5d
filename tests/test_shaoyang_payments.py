"""Who pays what in Shaoyang (docs/rules/shaoyang.md §7, §8, 裁定 2, 裁定 8–10, 裁定 12).

One payment = 底分 × hand multiplier × way (自摸 2, 杠上炮 1) × shares (3 when one seat 包三家) × hammers.
底分 1 and no hammers unless told, so the amounts read as 倍. Seat 0 deals.
"""

from __future__ import annotations

from engine import Act, MeldKind

from .dealing import act, can, check_zero_sum, discard, discard_drawn, last_settlement, paid
from .shaoyang_helpers import JUNK, chow_then_self_draw, deal, hand_names

READY_3S = "234m789s789p234p3s"  # 门前清, waits on 3s only
KONG_DEALER = "1111m47m258s369p1z3s"  # 暗杠 1111m, then throws 3s
KONG_6Z = "666z234m789p234p3s"  # three 6z; after a kong of 6z it waits on 3s
JUNK_NO_6Z = "258m369s147p1257z"


# ---------------------------------------------------------------- 自摸


def test_self_draw_each_of_the_three_pays_double() -> None:
    """docs/rules/shaoyang.md §7.1: self-draw ×2 from each of the three. 平胡 2 × 2 = 4 each."""
    state = chow_then_self_draw()
    settlement = last_settlement(state)
    assert hand_names(settlement, 1) == ("pinghu", "zimo")
    assert paid(settlement) == {0: 4, 2: 4, 3: 4}
    assert state.result is not None and state.result.deltas == (-4, 12, -4, -4)
    check_zero_sum(state)


def test_base_multiplies_every_payment() -> None:
    """docs/rules/shaoyang.md §6.1, §7.1: × 底分. At 底分 10 the same 平胡 self-draw is 40 from each."""
    settlement = last_settlement(chow_then_self_draw(base=10))
    assert paid(settlement) == {0: 40, 2: 40, 3: 40}


def test_menqing_self_draw_pays_4_times_2() -> None:
    """docs/rules/shaoyang.md §6.2, §7.1: a concealed 平胡 self-draw is 4 × 2 = 8 from each."""
    state = deal([JUNK[0] + "3s", READY_3S, JUNK[1], JUNK[2]], draws="3s")
    state = act(state, 0, Act.DISCARD, "3s")
    state = act(state, 1, Act.WIN)
    assert paid(last_settlement(state)) == {0: 8, 2: 8, 3: 8}
    check_zero_sum(state)


def test_dealer_pays_and_earns_like_anyone() -> None:
    """docs/rules/shaoyang.md §7.2, 裁定 12: the dealer has no extra stake: when he self-draws each pays the
    plain amount, 4 × 2 = 8."""
    state = deal([READY_3S + "7z", JUNK[0], JUNK[1], JUNK[2]], draws="6m6m6m3s")
    state = discard(state, 0, "7z")
    for _ in range(3):
        state = discard_drawn(state)
    assert state.current == 0
    state = act(state, 0, Act.WIN)
    assert paid(last_settlement(state)) == {1: 8, 2: 8, 3: 8}


def test_big_hand_self_draw() -> None:
    """docs/rules/shaoyang.md §6.3, §7.1: 七巧对 ×8, self-draw ×2 — 16 from each of the three."""
    state = deal([JUNK[0] + "7z", "1133m557799s224p", JUNK[1], JUNK[2]], draws="4p")
    state = act(state, 0, Act.DISCARD, "7z")
    state = act(state, 1, Act.WIN)
    settlement = last_settlement(state)
    assert hand_names(settlement, 1) == ("qiqiaodui", "zimo")
    assert paid(settlement) == {0: 16, 2: 16, 3: 16}


# ---------------------------------------------------------------- 杠上炮


def test_gangshangpao_only_the_discarder_pays_once() -> None:
    """docs/rules/shaoyang.md §7.1: 杠上炮 ×1 from the discarder only. 门前清平胡 4 × 1."""
    state = deal([KONG_DEALER, READY_3S, JUNK[1], JUNK[2]], back="5z")
    state = act(state, 0, Act.KONG, "1m")
    state = act(state, 0, Act.DISCARD, "3s")
    state = act(state, 1, Act.WIN)
    settlement = last_settlement(state)
    assert paid(settlement) == {0: 4}
    assert settlement.deltas == (-4, 4, 0, 0)
    # the dealer keeps his 暗杠 money (2 from each): +6 − 4
    assert state.result is not None and state.result.deltas == (2, 2, -2, -2)
    check_zero_sum(state)


def test_gangshangpao_two_winners_each_paid_by_the_discarder() -> None:
    """docs/rules/shaoyang.md §5.5: several winners — each is paid by the discarder, each for his own hand."""
    state = deal([KONG_DEALER, READY_3S, "567m456s789p234p3s", JUNK[2]], back="5z")
    state = act(state, 0, Act.KONG, "1m")
    state = act(state, 0, Act.DISCARD, "3s")
    state = act(state, 1, Act.WIN)
    state = act(state, 2, Act.WIN)
    settlement = last_settlement(state)
    assert sorted((p.payer, p.payee, p.amount) for p in settlement.payments) == [(0, 1, 4), (0, 2, 4)]


# ---------------------------------------------------------------- 抢杠


def test_qianggang_the_robbed_player_pays_for_all_three() -> None:
    """docs/rules/shaoyang.md §7.1, §7.5: 抢杠 is a self-draw paid by the robbed player for all three:
    门前清平胡 4 × 2 × 3 = 24, all from seat 1."""
    state = deal([JUNK[0] + "6z", "1158m69s147p1567z", "23m456s789p234p55s", JUNK[2]], draws="8s8s8s1m")
    state = act(state, 0, Act.DISCARD, "1m")
    state = act(state, 1, Act.PUNG)
    state = discard(state, 1, "5m")
    for _ in range(3):
        state = discard_drawn(state)
    state = act(state, 1, Act.KONG, "1m")
    state = act(state, 2, Act.WIN)
    settlement = last_settlement(state)
    assert hand_names(settlement, 2) == ("menqing_pinghu", "qianggang")
    assert paid(settlement) == {1: 24}
    assert state.result is not None and state.result.deltas == (0, -24, 24, 0)  # no kong money
    check_zero_sum(state)


def test_shisanyao_robbing_a_concealed_kong_pays_24() -> None:
    """docs/rules/shaoyang.md §6.5, §7.1: 十三幺 ×24; 抢杠 paid by the robbed player for all three — 24 × 2 ×
    3 = 144 from the konger."""
    state = deal(["9999m47m258s368p23z", "11m19s19p1234567z", JUNK[1], "47m258s369p1234z3m"])
    state = act(state, 0, Act.KONG, "9m")
    state = act(state, 1, Act.WIN)
    assert paid(last_settlement(state)) == {0: 144}


# ---------------------------------------------------------------- 杠开


def test_gangkai_is_a_self_draw_not_doubled() -> None:
    """docs/rules/shaoyang.md §7.1, §7.3: 杠开 after one's own 暗杠 is a self-draw, not doubled again, and the
    kong money is paid as usual. Seat 1 wins on the replacement: 门前清平胡 4 × 2 from each, and his kong
    money stands."""
    state = deal([JUNK[0] + "7z", KONG_6Z, JUNK_NO_6Z, JUNK[2]], draws="6z", back="3s")
    state = act(state, 0, Act.DISCARD, "7z")
    state = act(state, 1, Act.KONG, "6z")
    assert can(state, 1, Act.WIN)
    state = act(state, 1, Act.WIN)
    settlement = last_settlement(state)
    assert hand_names(settlement, 1) == ("menqing_pinghu", "gangkai")
    assert paid(settlement) == {0: 8, 2: 8, 3: 8}
    assert paid(last_settlement(state, "kong")) == {0: 2, 2: 2, 3: 2}
    assert state.result is not None and state.result.deltas == (-10, 30, -10, -10)


def test_gangkai_after_dianggang_the_feeder_pays_for_all_three() -> None:
    """docs/rules/shaoyang.md §7.1, §7.6: 杠开 after a 直杠 (点杠): the player whose discard was konged pays
    for all three. The dealer's 6z feeds seat 1's 直杠; seat 1 wins on the replacement: 平胡 2 × 2 × 3 = 12,
    all from the dealer, on top of the 直杠's 3."""
    state = deal([JUNK[0] + "6z", KONG_6Z, JUNK_NO_6Z, JUNK[2]], back="3s")
    state = act(state, 0, Act.DISCARD, "6z")
    state = act(state, 1, Act.KONG, "6z")
    state = act(state, 1, Act.WIN)
    settlement = last_settlement(state)
    assert hand_names(settlement, 1) == ("pinghu", "gangkai")
    assert paid(settlement) == {0: 12}
    assert state.result is not None and state.result.deltas == (-15, 15, 0, 0)


def test_gangkai_after_an_added_kong_all_three_pay() -> None:
    """docs/rules/shaoyang.md 裁定 9: 点杠 is only the discard that fed an exposed kong; 杠开 after a 补杠 is
    an ordinary self-draw: 平胡 2 × 2 from each."""
    state = deal([JUNK[0] + "6z", "66z234m789p234p3s7z", JUNK_NO_6Z, JUNK[2]], draws="6m6m6m6z", back="3s")
    state = act(state, 0, Act.DISCARD, "6z")
    state = act(state, 1, Act.PUNG)
    state = discard(state, 1, "7z")
    for _ in range(3):
        state = discard_drawn(state)
    state = act(state, 1, Act.KONG, "6z")
    assert state.seats[1].melds[0].kind == MeldKind.KONG_ADDED
    state = act(state, 1, Act.WIN)
    settlement = last_settlement(state)
    assert hand_names(settlement, 1) == ("pinghu", "gangkai")
    assert paid(settlement) == {0: 4, 2: 4, 3: 4}


# ---------------------------------------------------------------- kong money (docs/rules/shaoyang.md 裁定 10)


def test_concealed_kong_each_other_pays_2() -> None:
    """docs/rules/shaoyang.md §8.1, 裁定 10: 暗杠, 2 × 底分 from each other player."""
    state = deal([KONG_DEALER, READY_3S, JUNK[1], JUNK[2]], back="5z", base=10)
    state = act(state, 0, Act.KONG, "1m")
    settlement = last_settlement(state, "kong")
    assert dict(settlement.hands)[0] == ("angang",)
    assert paid(settlement) == {1: 20, 2: 20, 3: 20}


def test_added_kong_each_other_pays_1() -> None:
    """docs/rules/shaoyang.md §8.1, 裁定 10: 补杠, 1 × 底分 from each other player."""
    state = deal([JUNK[0] + "6z", "66z234m789p234p3s7z", JUNK_NO_6Z, JUNK[2]], draws="6m6m6m6z", back="5z")
    state = act(state, 0, Act.DISCARD, "6z")
    state = act(state, 1, Act.PUNG)
    state = discard(state, 1, "7z")
    for _ in range(3):
        state = discard_drawn(state)
    state = act(state, 1, Act.KONG, "6z")
    settlement = last_settlement(state, "kong")
    assert dict(settlement.hands)[1] == ("bugang",)
    assert paid(settlement) == {0: 1, 2: 1, 3: 1}


def test_exposed_kong_the_discarder_pays_3() -> None:
    """docs/rules/shaoyang.md §8.1, 裁定 10: 直杠, 3 × 底分 from the discarder alone."""
    state = deal([JUNK[0] + "6z", KONG_6Z, JUNK_NO_6Z, JUNK[2]], back="5z")
    state = act(state, 0, Act.DISCARD, "6z")
    state = act(state, 1, Act.KONG, "6z")
    settlement = last_settlement(state, "kong")
    assert dict(settlement.hands)[1] == ("zhigang",)
    assert paid(settlement) == {0: 3}


def test_kong_money_stays_on_a_drawn_hand() -> None:
    """docs/rules/shaoyang.md §8.2, 裁定 10: kong money is paid when the kong is made and kept on a drawn
    hand. The dealer 暗杠s, nobody wins: he keeps +6."""
    state = deal([KONG_DEALER, JUNK_NO_6Z, "234m789s789p234p6z", JUNK[2]], back="5z")
    state = act(state, 0, Act.KONG, "1m")
    state = discard(state, 0, "3s")
    while state.wall.remaining > 0:
        state = discard_drawn(state)
    state = discard_drawn(state)
    assert state.result is not None and state.result.reason == "draw"
    assert state.result.deltas == (6, -2, -2, -2)
