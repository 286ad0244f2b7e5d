"""Kongs in Hengyang: kong money, no robbing, 补张 from the back, two-tile 开杠 and 杠上开花
(docs/rules/hengyang.md §10, §4.5, 裁定 10, 裁定 11, 裁定 16).

Seat 0 deals and throws first; seat 1 holds 555m. 底分 10 (1 番 = 10), no birds.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine import Act, MeldKind, Phase, State, parse_tile, parse_tiles_ordered, tile_str

from . import dealing
from .dealing import (
    act,
    act_events,
    back_positions,
    dice_sum,
    discard,
    discard_drawn,
    hand_names,
    last_settlement,
    legal,
    paid,
    pass_claims,
)
from .hengyang_helpers import HY, JUNK, deal, kai_dice

READY_KONG = "555m234s678p23p88s"  # after the kong: 234s 678p 23p 88s, waits 1p/4p
UNREADY_KONG = "555m234s678p13p89s"  # after the kong: 234s 678p 13p 89s, not ready
WAITS_5M = "34m456s55s678p234p"  # seat 2 in the robbing tests: 34m waits 2m/5m


def kong_deal(hand: str = READY_KONG, seat2: str = JUNK[1], seed: int = 0, **kw: Any) -> State:
    """Seat 1 holds ``hand`` and has just drawn the fourth 5m (the first of ``draws``, default 5m); ``kw``:
    the other arguments of deal (back, stacks)."""
    return dealing.kong_deal(deal, JUNK, hand, seat2, seed=seed, **kw)


# ---------------------------------------------------------------- kong money


def test_concealed_kong_each_other_player_pays_2_fan() -> None:
    """docs/rules/hengyang.md §10.2: 暗杠, each other player pays 2 番."""
    state = act(kong_deal(), 1, Act.KONG, "5m", "bu")
    settlement = last_settlement(state, "kong")
    assert settlement.winners == (1,) and hand_names(settlement, 1) == ["angang"]
    assert paid(settlement) == {0: 20, 2: 20, 3: 20}
    assert settlement.deltas == (-20, 60, -20, -20)
    assert settlement.birds == ()


def test_added_kong_each_pays_1_fan() -> None:
    """docs/rules/hengyang.md §10.2: 补杠, each other player pays 1 番."""
    state = deal([JUNK[0] + "5m", "155m234s678p23p88s", JUNK[1], JUNK[2]], draws="1s1s1s5m")
    state = pass_claims(act(state, 0, Act.DISCARD, "5m"), keep=lambda s: s == 1)
    state = discard(act(state, 1, Act.PUNG), 1, "1m")
    for _ in range(3):
        state = discard_drawn(state)
    assert state.current == 1 and "1 kong 5m bu" in legal(state, 1)
    state = act(state, 1, Act.KONG, "5m", "bu")
    settlement = last_settlement(state, "kong")
    assert hand_names(settlement, 1) == ["bugang"]
    assert paid(settlement) == {0: 10, 2: 10, 3: 10}
    assert [m.kind for m in state.seats[1].melds] == [MeldKind.KONG_ADDED]


def test_exposed_kong_the_discarder_alone_pays_3_fan() -> None:
    """docs/rules/hengyang.md §10.2: 直杠, the discarder pays 3 番."""
    state = deal([JUNK[0] + "5m", READY_KONG, JUNK[1], JUNK[2]])
    state = act(state, 0, Act.DISCARD, "5m")
    assert "1 kong 5m bu" in legal(state, 1)
    state = pass_claims(state, keep=lambda s: s == 1)
    state = act(state, 1, Act.KONG, "5m", "bu")
    settlement = last_settlement(state, "kong")
    assert hand_names(settlement, 1) == ["zhigang"]
    assert paid(settlement) == {0: 30}
    assert settlement.deltas == (-30, 30, 0, 0)


@pytest.mark.parametrize("base", [1, 5])
def test_kong_money_scales_with_base(base: int) -> None:
    """docs/rules/hengyang.md §10.2, §14.2: 暗杠 each other player pays 2 番 — 1 番 = 底分."""
    state = deal([JUNK[0] + "3s", READY_KONG, JUNK[1], JUNK[2]], draws="5m", base=base)
    state = act(discard(state, 0, "3s"), 1, Act.KONG, "5m", "bu")
    assert paid(last_settlement(state, "kong")) == {0: 2 * base, 2: 2 * base, 3: 2 * base}


def test_kong_money_stays_on_a_drawn_hand() -> None:
    """docs/rules/hengyang.md §10.2, 裁定 16: kong money is paid when the kong is made and kept on a drawn
    hand (流局不流杠)."""
    state = act(kong_deal(back="9p"), 1, Act.KONG, "5m", "bu")
    state = discard(state, 1, "9p")
    while state.phase == Phase.TURN:
        state = discard_drawn(state)
    while state.phase == Phase.HAIDI:
        state = act(state, state.current, Act.PASS)
    assert state.phase == Phase.ENDED and state.result is not None
    assert state.result.reason == "draw"
    assert state.result.deltas == (-20, 60, -20, -20)


def test_kong_money_adds_to_the_win() -> None:
    """docs/rules/hengyang.md §10.2, 裁定 4: kong money is paid at once, and a later win is paid on top: 补张
    win 平和 + 门前清 (a concealed kong keeps 门前清) self-drawn: 30 / 20 / 20, after 20 each for the kong."""
    state = act(kong_deal(back="4p"), 1, Act.KONG, "5m", "bu")
    state = act(state, 1, Act.WIN)
    assert hand_names(last_settlement(state), 1) == ["menqianqing", "pinghu"]
    assert state.result is not None and state.result.deltas == (-50, 130, -40, -40)


# ---------------------------------------------------------------- no robbing


def test_no_robbing_the_added_kong() -> None:
    """docs/rules/hengyang.md §4.5: there is no robbing the kong. Seat 2 waits on 5m, seat 1 adds the fourth
    5m to its pung: no claim window opens, the kong goes ahead."""
    state = deal([JUNK[0] + "5m", "155m234s678p23p88s", WAITS_5M, JUNK[2]], draws="1s1s1s5m")
    assert not HY.robbable(state, MeldKind.KONG_ADDED)
    state = act(state, 0, Act.DISCARD, "5m")
    assert "2 win" in legal(state, 2)  # the 5m wins for seat 2 on a discard …
    state = pass_claims(state, keep=lambda s: s == 1)
    state = discard(act(state, 1, Act.PUNG), 1, "1m")
    for _ in range(3):
        state = discard_drawn(state)
    assert not state.seats[2].passed_wins
    state = act(state, 1, Act.KONG, "5m", "bu")  # … but not when it is added to a pung
    assert state.phase == Phase.TURN and state.current == 1 and state.claim is None
    assert legal(state, 2) == set()


# ---------------------------------------------------------------- 补张


def test_kong_replacement_comes_from_the_back_of_the_wall() -> None:
    """docs/rules/hengyang.md §10.3: 补张 takes one tile from the back-most stack, top then bottom, and a
    discard follows."""
    state = kong_deal(back="9p1s")
    last_top = state.wall.tiles[back_positions()[0]]
    state = act(state, 1, Act.KONG, "5m", "bu")
    assert state.drawn == parse_tile("9p") == last_top
    assert state.phase == Phase.TURN and state.current == 1
    assert all(a.split()[1] in ("discard", "kong", "win") for a in legal(state, 1))


def test_exposed_kong_replacement_then_a_discard() -> None:
    """docs/rules/hengyang.md §10.1, §10.3: an exposed kong on a discard (three in hand), a replacement from
    the back, then a discard."""
    state = deal([JUNK[0] + "5m", READY_KONG, JUNK[1], JUNK[2]], back="9p")
    state = pass_claims(act(state, 0, Act.DISCARD, "5m"), keep=lambda s: s == 1)
    state = act(state, 1, Act.KONG, "5m", "bu")
    assert state.drawn == parse_tile("9p") and state.current == 1
    assert [m.kind for m in state.seats[1].melds] == [MeldKind.KONG_EXPOSED]
    assert "1 discard 9p" in legal(state, 1)


def test_buzhang_win_is_a_plain_self_draw() -> None:
    """docs/rules/hengyang.md 裁定 10: only 开杠 makes 杠上开花; a win on a 补张 tile from the back is an
    ordinary self-draw."""
    state = act(kong_deal(back="1p"), 1, Act.KONG, "5m", "bu")
    assert state.drawn == parse_tile("1p")
    state = act(state, 1, Act.WIN)
    assert hand_names(last_settlement(state), 1) == ["menqianqing", "pinghu"]


# ---------------------------------------------------------------- 开杠


def test_kaigang_offered_only_when_ready() -> None:
    """docs/rules/hengyang.md §10.4: 开杠 only if the hand is ready after the kong."""
    assert {"1 kong 5m bu", "1 kong 5m kai"} <= legal(kong_deal(READY_KONG), 1)
    unready = legal(kong_deal(UNREADY_KONG), 1)
    assert "1 kong 5m bu" in unready and "1 kong 5m kai" not in unready


@pytest.mark.parametrize("seed", [0, 1, 3, 5])
def test_kaigang_turns_up_both_tiles_of_the_dice_stack(seed: int) -> None:
    """docs/rules/hengyang.md §10.4, §10.6: 开杠 rolls two dice for N and turns up both tiles of the N-th
    stack
    from the back. Neither wins here: both fall into the konger's river."""
    n = kai_dice(seed)
    state = kong_deal(seed=seed, stacks={n: "9m1s"})
    state, events = act_events(state, 1, Act.KONG, "5m", "kai")
    assert dice_sum(events) == n
    (shown,) = [e for e in events if e.kind == "kong_tiles"]
    assert shown.tiles == tuple(parse_tiles_ordered("9m1s"))
    assert state.seats[1].discards[-2:] == tuple(parse_tiles_ordered("9m1s"))
    assert state.seats[1].locked


@pytest.mark.parametrize("tiles", ["1p9m", "9m4p"])
def test_gangshangkaihua_on_either_tile(tiles: str) -> None:
    """docs/rules/hengyang.md §10.5, §7.10: one of the two tiles completes the hand → 杠上开花, a big
    self-draw: the dealer pays 40, the others 30 (after 20 each for the 暗杠); the other tile goes to the
    river."""
    n = kai_dice(0)
    state = act(kong_deal(stacks={n: tiles}), 1, Act.KONG, "5m", "kai")
    win = [t for t in parse_tiles_ordered(tiles) if tile_str(t) != "9m"][0]
    assert legal(state, 1) == {f"1 win {tile_str(win)}", "1 pass"}
    state = act(state, 1, Act.WIN, tile_str(win))
    settlement = last_settlement(state)
    assert hand_names(settlement, 1) == ["gangshangkaihua"]
    assert paid(settlement) == {0: 40, 2: 30, 3: 30}
    assert state.seats[1].discards[-1] == parse_tile("9m")
    assert state.result is not None and state.result.deltas == (-60, 160, -50, -50)


def test_kaigang_tiles_nobody_wins_are_discards_and_the_hand_locks() -> None:
    """docs/rules/hengyang.md §10.7, 裁定 11: after 开杠 the hand is locked: every drawn or turned-up tile
    that
    does not win is discarded automatically. Seat 1's next draw (9s) falls by itself."""
    n = kai_dice(0)
    state = kong_deal(draws="5m1m1m1m9s", stacks={n: "9m1s"})
    state = act(state, 1, Act.KONG, "5m", "kai")
    assert state.current == 2 and state.seats[1].locked
    for _ in range(3):
        state = discard_drawn(state)
    state = pass_claims(state)
    assert state.current == 2 and state.seats[1].discards[-1] == parse_tile("9s")


def test_win_on_kaigang_tiles_is_paid_by_the_konger_as_a_discard() -> None:
    """docs/rules/hengyang.md §10.6, 裁定 9: another player winning on a tile the 开杠 dropped wins an
    ordinary
    discard win, no 杠上炮 big hand: seat 2 wins 平和 + 门前清 on the fallen 5p, the konger pays 20."""
    n = kai_dice(0)
    seat2 = "234m45556s789p34p"  # waits 2p/5p
    state = kong_deal(stacks={n: "9m5p"}, seat2=seat2)
    state = act(state, 1, Act.KONG, "5m", "kai")
    assert state.phase == Phase.CLAIM and legal(state, 2) == {"2 win", "2 pass"}
    state = act(state, 2, Act.WIN)
    settlement = last_settlement(state)
    assert hand_names(settlement, 2) == ["menqianqing", "pinghu"]
    assert paid(settlement) == {1: 20}


def test_kaigang_stack_counting_half_stacks() -> None:
    """docs/rules/hengyang.md §10.4: a stack with one tile left counts, an emptied one does not. After one
    补张
    the last stack (one tile left) is still stack 1; after two it no longer counts."""
    wall = kong_deal(back="9p1s").wall
    n = len(wall.tiles)
    pos = back_positions(n)
    _, one = wall.draw_back()
    tiles, _ = one.draw_dice_stack(1)
    assert tiles == (wall.tiles[pos[1]],)  # the lone bottom tile of the last stack
    tiles, _ = one.draw_dice_stack(3)
    assert tiles == (wall.tiles[pos[4]], wall.tiles[pos[5]])  # the third stack from the back
    _, two = one.draw_back()
    tiles, _ = two.draw_dice_stack(3)
    assert tiles == (wall.tiles[pos[6]], wall.tiles[pos[7]])  # the emptied stack is skipped


def test_kong_needs_a_tile_left_in_the_wall() -> None:
    """docs/rules/common.md §3.5: with nothing left to draw there is no kong."""
    state = kong_deal()
    empty = state.wall
    while empty.remaining:
        _, empty = empty.draw_front()
    from dataclasses import replace

    assert "1 kong 5m bu" not in legal(replace(state, wall=empty), 1)


@pytest.mark.parametrize("stack", ["4s6s", "6s4s"])
def test_a_player_winning_on_the_fallen_kai_tiles_wins_on_the_one_that_pays_him_more(stack: str) -> None:
    """docs/rules/hengyang.md §10.6: another player may win on one of the two tiles an 开杠 lets fall - as a
    player would, on the one that pays him more. Seat 2's 111m 999s 333p 5556s wins on 4s (平和 + 门前清, 20)
    and on 6s (碰碰胡, 60): he takes 碰碰胡 whichever tile lies on top (before, the first winning tile in the
    stack's order: 20 with 4s on top)."""
    junk = ("1679m278s124889p", JUNK[1], JUNK[2])  # no 9s: seat 2 holds three
    state = dealing.kong_deal(
        deal, junk, READY_KONG, "111m999s333p5556s", seed=0, stacks={kai_dice(0): stack}
    )
    state = act(state, 1, Act.KONG, "5m", "kai")
    state, events = dealing.act_events(state, 2, Act.WIN)
    settlement = dealing.last_settlement(state)
    assert dealing.hand_names(settlement, 2) == ["pengpenghu"] and dealing.paid(settlement) == {1: 60}
    assert [tile_str(e.tile) for e in events if e.kind == "win"] == ["6s"] and state.win_tiles == (
        parse_tile("6s"),
    )
