"""Helpers for the Xiangyin (湘阴推倒胡) clause tests — arranged deals, actions in tile notation, payments —
and the tests that the helpers themselves are sound (junk hands are dead, the dice prediction is right).

Seats count in play order: seat + 1 is the 下家 (next seat); the dealer holds 14 tiles. ``arranged_hand``
sorts each hand, so the dealer's 14th tile is simply one of his tiles. Tables of 2, 3 and 4 players: pass 2,
3 or 4 hands.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from engine import (
    Act,
    Action,
    Event,
    Phase,
    Settlement,
    State,
    WinContext,
    apply,
    arranged_hand,
    get_ruleset,
    is_ready,
    legal_actions,
    parse_hand,
    parse_tile,
    parse_tiles_ordered,
    tile_str,
    to_act,
)
from engine.tiles import to_counts
from engine.wall import Wall

XY = get_ruleset("xiangyin")

# Junk hands: every suit, no pair, no run, nothing all-2/5/8, not ready. They only pass.
JUNK = ("679m25689s12489p", "2367m12468s1248p", "23679m279s14689p")


def back_positions(n_tiles: int = 108) -> list[int]:
    """Wall positions in kong-replacement order: top of the last stack, its bottom, then the stack before."""
    return [p for k in range(n_tiles // 2 - 1, -1, -1) for p in (2 * k, 2 * k + 1)]


def _place(wall: Wall, fixed: dict[int, int], free_from: int) -> Wall:
    """Put tile fixed[pos] at each wall position by swapping with an unplanned position at or after
    ``free_from`` (positions before it are dealt or arranged front draws)."""
    tiles = list(wall.tiles)
    for pos, t in fixed.items():
        if tiles[pos] == t:
            continue
        src = next(
            (
                q
                for q in range(free_from, len(tiles))
                if q not in fixed and tiles[q] == t and not wall.taken >> q & 1
            ),
            None,
        )
        assert src is not None, f"no spare {tile_str(t)} for wall position {pos}"
        tiles[pos], tiles[src] = tiles[src], tiles[pos]
    return Wall(tuple(tiles), wall.taken, wall.remaining)


def deal(
    hands: list[str],
    draws: str = "",
    back: str = "",
    tail: str = "",
    dealer: int = 0,
    birds: int = 0,
    base: int = 10,
    seed: int = 0,
    stacks: dict[int, str] | None = None,
    piao: list[int] | None = None,
    **options: Any,
) -> State:
    """An arranged Xiangyin hand (no birds, 底分 10 as in the seed's example, unless told).

    ``draws``: the next tiles from the front, in drawing order. ``back``: the next 补张 replacements.
    ``tail``: the last tiles of the wall in drawing order (its last tile is the haidi). ``stacks``: {N: "ab"}
    puts a (top) and b (bottom) on the N-th stack counted from the back (the stack a 开杠 turns up, N = the
    dice). ``piao``: turns 加飘 on and every seat picks its 飘 (seat order). Other room options by name."""
    opts = {"birds": birds, "base": base, **options}
    if piao is not None:
        opts["piao"] = True
    state = arranged_hand(XY, hands, draws, "", dealer, opts, seed)
    n = len(state.wall.tiles)
    fixed: dict[int, int] = {}

    def put(pos: int, t: int) -> None:
        assert pos not in fixed, f"wall position {pos} arranged twice"
        fixed[pos] = t

    for pos, t in zip(back_positions(n), parse_tiles_ordered(back), strict=False):
        put(pos, t)
    tail_tiles = parse_tiles_ordered(tail)
    for i, t in enumerate(tail_tiles):
        put(n - len(tail_tiles) + i, t)
    for k, text in (stacks or {}).items():
        for j, t in enumerate(parse_tiles_ordered(text)):
            put(2 * (n // 2 - k) + j, t)
    if fixed:
        first_free = n - state.wall.remaining + len(parse_tiles_ordered(draws))
        state = replace(state, wall=_place(state.wall, fixed, first_free))
    if piao is not None:
        for seat, value in enumerate(piao):
            state = act(state, seat, Act.CHOOSE, detail=str(value))
    return state


def kai_dice(seed: int = 0, roll: int = 0) -> int:
    """The dice sum of the ``roll``-th 开杠 of a hand with this seed (the engine rolls from its seeded RNG).
    test_kai_dice_predicts_the_engine checks it against the "dice" event, so an engine change shows up."""
    rng = random.Random(f"xiangyin/{seed}/dice/{roll}")
    return rng.randint(1, 6) + rng.randint(1, 6)


def action(seat: int, kind: Act, tile: str | None = None, detail: str = "") -> Action:
    return Action(seat, kind, parse_tile(tile) if tile else None, detail)


def act(state: State, seat: int, kind: Act, tile: str | None = None, detail: str = "") -> State:
    return apply(state, action(seat, kind, tile, detail))[0]


def act_events(
    state: State, seat: int, kind: Act, tile: str | None = None, detail: str = ""
) -> tuple[State, tuple[Event, ...]]:
    return apply(state, action(seat, kind, tile, detail))


def legal(state: State, seat: int) -> set[str]:
    """Legal actions in their text form, e.g. ``{"1 win", "1 pass"}``."""
    return {str(a) for a in legal_actions(state, seat)}


def can(state: State, seat: int, kind: Act, tile: str | None = None, detail: str = "") -> bool:
    return action(seat, kind, tile, detail) in legal_actions(state, seat)


def pass_claims(state: State, keep: Callable[[int], bool] = lambda s: False) -> State:
    """Every seat asked about a claim passes, except seats for which ``keep`` is true."""
    while state.phase == Phase.CLAIM:
        seats = [s for s in to_act(state) if not keep(s)]
        if not seats:
            break
        state = act(state, seats[0], Act.PASS)
    return state


def discard(state: State, seat: int, tile: str) -> State:
    """``seat`` discards ``tile`` and nobody claims it: the next seat has drawn when this returns."""
    return pass_claims(act(state, seat, Act.DISCARD, tile))


def tsumogiri(state: State) -> State:
    """The seat to play discards the tile it just drew; every claim on it is passed."""
    assert state.phase == Phase.TURN and state.drawn is not None
    return discard(state, state.current, tile_str(state.drawn))


def play_until_haidi(state: State, first_discard: str) -> State:
    """The dealer discards ``first_discard``; then everyone discards what they draw and nobody claims, until
    the haidi is offered or the hand ends."""
    state = discard(state, state.current, first_discard)
    while state.phase == Phase.TURN:
        state = tsumogiri(state)
    return state


def last_settlement(state: State, kind: str = "win") -> Settlement:
    found = [s for s in state.settlements if s.kind == kind]
    assert found, f"no {kind} settlement in {state.settlements}"
    return found[-1]


def paid(settlement: Settlement) -> dict[int, int]:
    """payer seat -> total amount paid in this settlement."""
    out: dict[int, int] = {}
    for p in settlement.payments:
        out[p.payer] = out.get(p.payer, 0) + p.amount
    return out


def received(settlement: Settlement) -> dict[int, int]:
    """payee seat -> total amount received in this settlement."""
    out: dict[int, int] = {}
    for p in settlement.payments:
        out[p.payee] = out.get(p.payee, 0) + p.amount
    return out


def hand_names(settlement: Settlement, seat: int) -> list[str]:
    return sorted(dict(settlement.hands)[seat])


def check_zero_sum(state: State) -> None:
    for s in state.settlements:
        assert sum(s.deltas) == 0, s
    if state.result is not None:
        assert sum(state.result.deltas) == 0


def win_names(
    hand: str,
    tile: str,
    self_draw: bool = True,
    seat: int = 1,
    dealer: int = 0,
    options: dict[str, Any] | None = None,
    **flags: Any,
) -> list[str] | None:
    """Xiangyin's verdict on a complete hand: sorted hand names (a big hand repeated by its count), or None if
    it does not win here. ``hand`` is the whole hand with melds in brackets; its concealed part already holds
    the winning ``tile``."""
    counts, melds = parse_hand(hand)
    t = parse_tile(tile)
    assert counts[t] >= 1, "the winning tile must be in the concealed part of the hand"
    ctx = WinContext(
        seat=seat,
        dealer=dealer,
        counts=counts,
        melds=melds,
        tile=t,
        self_draw=self_draw,
        from_seat=None if self_draw else (seat + 1) % 4,
        options=XY.make_options(options or {}),
        **flags,
    )
    if not XY.could_win(counts, melds):
        return None
    info = XY.evaluate_win(ctx)
    if info is None:
        return None
    if info.big:
        return sorted(n for n, k in info.big for _ in range(k))
    return sorted(info.small)


# ---------------------------------------------------------------- the helpers are sound


def test_junk_hands_are_dead() -> None:
    """The filler hands never claim or win: no pair, no 2/5/8-only hand, not ready."""
    for h in JUNK:
        counts = to_counts(parse_tiles_ordered(h))
        assert len(parse_tiles_ordered(h)) == 13
        assert max(counts) == 1
        assert not is_ready(XY, counts, ())


def test_kai_dice_predicts_the_engine() -> None:
    """kai_dice() gives the same sum as the engine's "dice" event for the first 开杠 of a hand."""
    for seed in (0, 1, 2):
        state = deal([JUNK[0] + "3s", "555m234s678p23p88s", JUNK[1], JUNK[2]], draws="5m", seed=seed)
        state = discard(state, 0, "3s")
        state, events = act_events(state, 1, Act.KONG, "5m", "kai")
        (dice,) = [e for e in events if e.kind == "dice"]
        d1, d2 = dice.detail.split("+")
        assert int(d1) + int(d2) == kai_dice(seed)


def test_stacks_put_both_tiles_on_the_dice_stack() -> None:
    """deal(stacks={N: "ab"}) places a and b where a 开杠 with dice sum N turns them up."""
    n = kai_dice(0)
    state = deal([JUNK[0] + "3s", "555m234s678p23p88s", JUNK[1], JUNK[2]], draws="5m", stacks={n: "9s1s"})
    state = discard(state, 0, "3s")
    state = act(state, 1, Act.KONG, "5m", "kai")
    assert [tile_str(t) for t in state.seats[1].discards[-2:]] == ["9s", "1s"]
