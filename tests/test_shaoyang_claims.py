"""Who may take a tile in Shaoyang: self-draw only, except 杠上炮 and 抢杠 (docs/rules/shaoyang.md §5, 裁定 6,
裁定 7); chow, pung and kong claims; several winners; the last tile (docs/rules/shaoyang.md §4).

Seat 0 deals; 底分 1, nobody hammers. READY_3S = 234m 789s 789p 234p + a single 3s: it waits on 3s only
(and cannot chow or pung a 3s).
"""

from __future__ import annotations

from engine import Act, KongMode, MeldKind, Phase, parse_tile, tile_str, to_act

from .dealing import act, can, discard, discard_drawn, last_settlement, legal, paid, win_context
from .shaoyang_helpers import JUNK, SY, deal, hand_names, win_name

READY_3S = "234m789s789p234p3s"
KONG_DEALER = "1111m47m258s369p1z3s"  # 暗杠 1111m, then throws 3s


def test_flags_of_the_variant() -> None:
    """docs/rules/shaoyang.md §1.1, §4.2, §4.3, §5.4–§5.6: 136 tiles; chow and pung; several winners allowed.
    A kong just draws its replacement (no 补张/开杠), no haidi roaming, a 补杠 may be robbed and a concealed
    kong too (by 十三幺 only: see evaluate_win)."""
    state = deal([JUNK[0] + "3s", JUNK[1], JUNK[2], "123m456s789p1122z"])
    assert SY.multi_win and SY.claim_allowed(state, 1, Act.CHOW, parse_tile("3s"))
    assert SY.robbable(state, MeldKind.KONG_ADDED) and SY.robbable(state, MeldKind.KONG_CONCEALED)
    assert SY.kong_modes(state, 1, parse_tile("3s"), MeldKind.KONG_EXPOSED) == (KongMode.PLAIN,)
    assert SY.haidi_seats(state, 1) is None  # no 海底漫游
    assert SY.after_win(state, (1,), win_context(SY, "123m456s789p234p33s", "3s"), [])[1] is False


# ---------------------------------------------------------------- self-draw only


def test_no_win_on_an_ordinary_discard() -> None:
    """docs/rules/shaoyang.md §5.2: you win only on your own draw. Seat 1 waits on 3s: the dealer's 3s is not
    offered to him; the 3s he draws himself wins."""
    state = deal([JUNK[0] + "3s", READY_3S, JUNK[1], JUNK[2]], draws="3s")
    state = act(state, 0, Act.DISCARD, "3s")
    assert state.phase == Phase.TURN and state.current == 1  # no claim window at all
    assert tile_str(state.drawn or 0) == "3s"
    assert can(state, 1, Act.WIN)
    state = act(state, 1, Act.WIN)
    assert hand_names(last_settlement(state), 1) == ("menqing_pinghu", "zimo")


def test_self_draw_win_is_never_forced() -> None:
    """docs/rules/shaoyang.md §5.7: winning is never forced: the player may still discard instead."""
    state = deal([JUNK[0] + "3s", READY_3S, JUNK[1], JUNK[2]], draws="3s")
    state = act(state, 0, Act.DISCARD, "3s")
    assert {"1 win", "1 discard 3s"} <= legal(state, 1)


# ---------------------------------------------------------------- 杠上炮


def test_gangshangpao_after_a_concealed_kong() -> None:
    """docs/rules/shaoyang.md §5.3: 杠上炮, the tile a player discards straight after his kong. The dealer
    暗杠s 1111m and throws 3s: seat 1 wins on it."""
    state = deal([KONG_DEALER, READY_3S, JUNK[1], JUNK[2]], back="5z")
    state = act(state, 0, Act.KONG, "1m")
    assert state.current == 0 and tile_str(state.drawn or 0) == "5z"
    state = act(state, 0, Act.DISCARD, "3s")
    assert state.phase == Phase.CLAIM and to_act(state) == (1,)
    assert legal(state, 1) == {"1 win", "1 pass"}
    state = act(state, 1, Act.WIN)
    assert hand_names(last_settlement(state), 1) == ("menqing_pinghu", "gangshangpao")


def test_gangshangpao_after_an_exposed_kong() -> None:
    """docs/rules/shaoyang.md §5.3, 裁定 6: 杠上炮 after any kind of kong. Seat 1 kongs the dealer's 6z
    (直杠) and throws 3s: seat 2 wins on it."""
    state = deal([JUNK[0] + "6z", "666z258m33s69s147p", READY_3S, JUNK[2]], back="5z")
    state = act(state, 0, Act.DISCARD, "6z")
    assert can(state, 1, Act.KONG, "6z")
    state = act(state, 1, Act.KONG, "6z")
    state = act(state, 1, Act.DISCARD, "3s")
    assert can(state, 2, Act.WIN)
    state = act(state, 2, Act.WIN)
    assert hand_names(last_settlement(state), 2) == ("menqing_pinghu", "gangshangpao")


def test_gangshangpao_after_an_added_kong() -> None:
    """docs/rules/shaoyang.md §5.3, 裁定 6: 杠上炮 after a 补杠 too. Seat 1 pungs 6z, later draws the fourth
    6z, 补杠s, throws 3s."""
    state = deal([JUNK[0] + "6z", "66z258m33s69s147p2z", READY_3S, JUNK[2]], draws="6m6m6m6z", back="5z")
    state = act(state, 0, Act.DISCARD, "6z")
    state = act(state, 1, Act.PUNG)
    state = discard(state, 1, "2z")
    for _ in range(3):
        state = discard_drawn(state)
    assert state.current == 1 and tile_str(state.drawn or 0) == "6z"
    state = act(state, 1, Act.KONG, "6z")  # nobody can rob 6z: the kong goes ahead
    assert state.seats[1].melds[-1].kind == MeldKind.KONG_ADDED
    state = act(state, 1, Act.DISCARD, "3s")
    assert can(state, 2, Act.WIN)


def test_only_the_discard_straight_after_the_kong() -> None:
    """docs/rules/shaoyang.md 裁定 6: only the tile straight after the kong. The dealer kongs and throws 9p;
    his 3s a round later is an ordinary discard, and seat 1 cannot win on it."""
    state = deal([KONG_DEALER, READY_3S, JUNK[1], JUNK[2]], draws="6m6m6m", back="5z")
    state = act(state, 0, Act.KONG, "1m")
    state = discard(state, 0, "9p")
    for _ in range(3):
        state = discard_drawn(state)
    assert state.current == 0
    state = act(state, 0, Act.DISCARD, "3s")
    assert not can(state, 1, Act.WIN)
    assert state.phase == Phase.TURN and state.current == 1


def test_gangshangpao_after_a_kong_and_a_second_kong() -> None:
    """docs/rules/shaoyang.md 裁定 6: two kongs in a row, then the discard: still 杠上炮."""
    state = deal(["1111m2222z47m258s3s", READY_3S, JUNK[1], "369m147s258p3456z"], back="5z7z")
    state = act(state, 0, Act.KONG, "1m")
    state = act(state, 0, Act.KONG, "2z")
    state = act(state, 0, Act.DISCARD, "3s")
    assert can(state, 1, Act.WIN)


# ---------------------------------------------------------------- 抢杠


def rob_deal(robber: str = "23m456s789p234p55s"):  # type: ignore[no-untyped-def]
    """Seat 1 pungs the dealer's 1m, and three draws later adds the fourth 1m (补杠); seat 2 holds
    ``robber``."""
    state = deal([JUNK[0] + "6z", "1158m69s147p1567z", robber, JUNK[2]], draws="8s8s8s1m", back="5z")
    state = act(state, 0, Act.DISCARD, "1m")
    state = act(state, 1, Act.PUNG)
    state = discard(state, 1, "5m")
    for _ in range(3):
        state = discard_drawn(state)
    assert state.current == 1 and tile_str(state.drawn or 0) == "1m"
    return state


def test_qianggang_robs_an_added_kong() -> None:
    """docs/rules/shaoyang.md §5.4: 抢杠, the tile a player adds to his pung may be robbed. Seat 2 (23m, waits
    1m/4m) robs seat 1's 补杠 of 1m."""
    state = rob_deal()
    state = act(state, 1, Act.KONG, "1m")
    assert state.phase == Phase.CLAIM and state.claim is not None and state.claim.kind == "rob"
    assert legal(state, 2) == {"2 win", "2 pass"}
    state = act(state, 2, Act.WIN)
    assert hand_names(last_settlement(state), 2) == ("menqing_pinghu", "qianggang")
    assert [s for s in state.settlements if s.kind == "kong"] == []  # the robbed kong is never made


def test_rob_passed_the_kong_goes_ahead() -> None:
    """docs/rules/shaoyang.md §5.4: if the robber passes, the added kong is made and replaced."""
    state = rob_deal()
    state = act(state, 1, Act.KONG, "1m")
    state = act(state, 2, Act.PASS)
    assert state.phase == Phase.TURN and state.current == 1
    assert state.seats[1].melds[0].kind == MeldKind.KONG_ADDED
    assert tile_str(state.drawn or 0) == "5z"


def test_concealed_kong_cannot_be_robbed() -> None:
    """docs/rules/shaoyang.md §5.4, 裁定 7: a concealed kong cannot be robbed but by 十三幺. Seat 1 waits on
    6m/9m with a plain hand; the dealer's 暗杠 of 9999m goes ahead."""
    dealer = "9999m47m258s368p23z"
    state = deal([dealer, "78m456s789p234p11s", JUNK[1], "47m258s369p1234z3m"], back="5z")
    state = act(state, 0, Act.KONG, "9m")
    assert state.phase == Phase.TURN and state.current == 0
    assert state.seats[0].melds[0].kind == MeldKind.KONG_CONCEALED


def test_shisanyao_robs_a_concealed_kong() -> None:
    """docs/rules/shaoyang.md §5.4: only 十三幺 robs a concealed kong. Seat 1 holds 十三幺 waiting on 9m and
    robs the dealer's 暗杠 9999m."""
    dealer = "9999m47m258s368p23z"
    state = deal([dealer, "11m19s19p1234567z", JUNK[1], "47m258s369p1234z3m"], back="5z")
    state = act(state, 0, Act.KONG, "9m")
    assert state.phase == Phase.CLAIM and state.claim is not None
    assert state.claim.kind == "rob" and state.claim.tile == parse_tile("9m")
    state = act(state, 1, Act.WIN)
    assert hand_names(last_settlement(state), 1) == ("shisanyao", "qianggang")


def test_robbing_a_concealed_kong_needs_shisanyao() -> None:
    """docs/rules/shaoyang.md §5.4, 裁定 7: only 十三幺 robs a concealed kong — as evaluate_win sees it."""
    assert win_name("119m19s19p1234567z", "9m", self_draw=False, robbed=True, robbed_concealed=True) == (
        "shisanyao"
    )
    assert win_name("789m456s789p234p55s", "9m", self_draw=False, robbed=True, robbed_concealed=True) is None
    assert win_name("789m456s789p234p55s", "9m", self_draw=False, robbed=True) == "menqing_pinghu"


def test_the_tile_of_an_exposed_kong_is_not_robbed() -> None:
    """docs/rules/shaoyang.md 裁定 7: a discard another player kongs (直杠) stays a discard, which cannot be
    won on. Seat 1 may kong the dealer's 5p; seat 2 (46p, waits 5p) is not offered a win."""
    state = deal([JUNK[1] + "5p", "555p479m258s1234z", "234m456s789p46p11z", "369m147s28p23456z"])
    state = act(state, 0, Act.DISCARD, "5p")
    assert state.phase == Phase.CLAIM
    assert can(state, 1, Act.KONG, "5p")
    assert not can(state, 2, Act.WIN)
    state = act(state, 1, Act.KONG, "5p")
    assert state.current == 1 and state.seats[1].melds[0].kind == MeldKind.KONG_EXPOSED


# ---------------------------------------------------------------- several winners


def test_yipao_duoxiang_on_gangshangpao() -> None:
    """docs/rules/shaoyang.md §5.5: several players may win on the same tile. Seats 1 and 2 both wait on 3s
    and both win the dealer's 杠上炮; the dealer pays each."""
    state = deal([KONG_DEALER, READY_3S, "567m456s789p234p3s", JUNK[2]], back="5z")
    state = act(state, 0, Act.KONG, "1m")
    state = act(state, 0, Act.DISCARD, "3s")
    state = act(state, 1, Act.WIN)
    assert state.phase == Phase.CLAIM
    state = act(state, 2, Act.WIN)
    settlement = last_settlement(state)
    assert settlement.winners == (1, 2)
    assert {p.payer for p in settlement.payments} == {0}


def test_yipao_duoxiang_on_a_robbed_kong() -> None:
    """docs/rules/shaoyang.md §5.5: robbing the kong too: seats 2 and 3 both rob seat 1's 补杠 of 1m."""
    state = deal(
        [JUNK[0] + "6z", "1158m69s147p1567z", "23m456s789p234p55s", "23m123s789p234p66s"],
        draws="8s8s8s1m",
    )
    state = act(state, 0, Act.DISCARD, "1m")
    state = act(state, 1, Act.PUNG)
    state = discard(state, 1, "5m")
    for _ in range(3):
        state = discard_drawn(state)
    state = act(state, 1, Act.KONG, "1m")
    state = act(state, 2, Act.WIN)
    state = act(state, 3, Act.WIN)
    settlement = last_settlement(state)
    assert settlement.winners == (2, 3)
    assert set(paid(settlement)) == {1}


# ---------------------------------------------------------------- chow, pung, kong claims


def test_chow_from_the_previous_seat_only() -> None:
    """docs/rules/shaoyang.md §4.2: only the next player may chow. The dealer's 3s: seat 1 (45s) may chow,
    seat 2 (45s) may not."""
    state = deal([JUNK[0] + "3s", "45s" + "147m369p1234z7z", "45s258m147p1567z9p", JUNK[2]])
    state = act(state, 0, Act.DISCARD, "3s")
    assert can(state, 1, Act.CHOW, "3s")
    assert not any(a.startswith("2 chow") for a in legal(state, 2))


def test_pung_from_any_seat() -> None:
    """docs/rules/shaoyang.md §4.2: any other player may pung a discard, and a pung beats a chow. Seat 2
    (33s) may pung the dealer's 3s."""
    state = deal([JUNK[0] + "3s", "45s" + "147m369p1234z7z", "33s258m147p1567z9p", JUNK[2]])
    state = act(state, 0, Act.DISCARD, "3s")
    assert can(state, 2, Act.PUNG)
    state = act(state, 1, Act.CHOW, "3s")
    state = act(state, 2, Act.PUNG)
    assert state.current == 2 and state.seats[2].melds[0].kind == MeldKind.PUNG
    assert state.seats[1].melds == ()


# ---------------------------------------------------------------- the last tile


def test_no_haidi_roaming_the_last_tile_is_drawn_normally() -> None:
    """docs/rules/shaoyang.md §5.6, 裁定 15: no haidi roaming: the last tile is drawn like any other and may
    be self-drawn (no 海底 hand). 83 wall tiles: seat 3 draws the last one, 3s."""
    state = deal([JUNK[0] + "7z", JUNK[1], JUNK[2], READY_3S], tail="3s")
    state = discard(state, 0, "7z")
    while state.wall.remaining > 0:
        state = discard_drawn(state)
    assert state.phase == Phase.TURN and state.current == 3
    assert tile_str(state.drawn or 0) == "3s"
    assert can(state, 3, Act.WIN)
    state = act(state, 3, Act.WIN)
    assert hand_names(last_settlement(state), 3) == ("menqing_pinghu", "zimo")


def test_concealed_kong_shows_one_tile_to_the_others() -> None:
    """docs/rules/shaoyang.md 裁定 18: a concealed kong shows one tile — the other players see which tile it
    is (in Changsha it stays face down until the hand ends: docs/rules/changsha.md 裁定 18)."""
    from engine import observe

    state = deal([KONG_DEALER, READY_3S, JUNK[1], JUNK[2]], back="5z")
    state = act(state, 0, Act.KONG, "1m")
    for seat in (1, 2, 3):
        view = observe(state, seat).seats[0]
        assert [(m.kind, tile_str(m.tile)) for m in view.melds] == [(MeldKind.KONG_CONCEALED, "1m")]
        assert view.concealed_kongs == 0
