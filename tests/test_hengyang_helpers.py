"""Helpers for the Hengyang (衡阳麻将) clause tests: arranged deals, actions in tile notation, payments.

Not tests themselves (pytest collects nothing here); the Changsha helpers in conftest.py are bound to the
Changsha ruleset, so Hengyang keeps its own. Seats count in play order: seat + 1 is the 下家 (next seat);
the dealer holds 14 tiles. Note: ``arranged_hand`` sorts each hand, so the dealer's 14th tile (the one
``state.drawn`` holds at the deal) is the highest tile of his hand in m < s < p order.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace

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
    legal_actions,
    parse_hand,
    parse_tile,
    parse_tiles_ordered,
    tile_str,
    to_act,
)
from engine.wall import Wall

HY = get_ruleset("hengyang")

# Junk hands: every suit, a 2/5/8 tile, no pair, no run, no 扳牌, not ready. They only pass.
JUNK = ("679m25689s12489p", "2367m12468s1248p", "23679m279s14689p")


def back_positions(n_tiles: int = 108) -> list[int]:
    """Wall positions in kong-replacement order: top of the last stack, its bottom, then the stack before
    it (RULES §1: "top tile of the last stack, then its bottom tile")."""
    return [p for k in range(n_tiles // 2 - 1, -1, -1) for p in (2 * k, 2 * k + 1)]


def _place(wall: Wall, fixed: dict[int, int], free_from: int) -> Wall:
    """Put tile fixed[pos] at each wall position by swapping with an unplanned position at or after
    ``free_from`` (positions before it are the arranged front draws)."""
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
    stacks_from_back: dict[int, str] | None = None,
    openings: bool = False,
) -> State:
    """An arranged Hengyang hand (no birds, 底分 10 unless told: 1 番 = 10 as in the seed's figures).

    ``draws``: the next tiles from the front, in play order. ``back``: the next 补张 replacements, in
    order. ``tail``: the last tiles of the wall in drawing order (its last tile is the haidi).
    ``stacks_from_back``: {N: "ab"} puts tiles a (top) and b (bottom) on the N-th stack from the back
    (开杠 dice). Unless ``openings`` is set, every 扳牌 is passed, so the hand is at the dealer's first
    discard."""
    state = arranged_hand(HY, hands, draws, "", dealer, {"birds": birds, "base": base}, seed)
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
    for k, text in (stacks_from_back or {}).items():
        for j, t in enumerate(parse_tiles_ordered(text)):
            put(2 * (n // 2 - k) + j, t)
    if fixed:
        first_free = n - state.wall.remaining + len(parse_tiles_ordered(draws))
        state = replace(state, wall=_place(state.wall, fixed, first_free))
    if not openings:
        while state.phase == Phase.OPENING:
            state = act(state, state.current, Act.PASS)
    return state


def kai_dice(seed: int, roll: int = 0) -> int:
    """The dice sum of the ``roll``-th 开杠 of an arranged hand with this seed (the engine rolls from its
    seeded RNG). Tests check it against the "dice" event, so a change in the engine shows up."""
    rng = random.Random(f"hengyang/{seed}/dice/{roll}")
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
    """The dealer discards ``first_discard``; then everyone discards what they draw and nobody claims,
    until the haidi (海底) is offered or the hand ends."""
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


def hand_names(settlement: Settlement, seat: int) -> list[str]:
    return sorted(dict(settlement.hands)[seat])


def check_zero_sum(state: State) -> None:
    assert state.result is not None
    assert sum(state.result.deltas) == 0
    for s in state.settlements:
        assert sum(s.deltas) == 0


def win_names(
    hand: str,
    tile: str,
    self_draw: bool = True,
    seat: int = 1,
    dealer: int = 0,
    **flags: bool | str,
) -> list[str] | None:
    """Hengyang's verdict on a complete hand: sorted hand names (a big hand repeated by its count), or
    None if it does not win. ``hand`` is the whole hand with melds in brackets; its concealed part
    already holds the winning ``tile``."""
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
        options=HY.make_options({}),
        **flags,  # type: ignore[arg-type]
    )
    assert HY.could_win(counts, melds) or HY.evaluate_win(ctx) is None
    info = HY.evaluate_win(ctx)
    if info is None:
        return None
    if info.big:
        return sorted(n for n, k in info.big for _ in range(k))
    return sorted(info.small)
