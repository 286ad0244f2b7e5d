"""Shared helpers for the rule-clause tests of every variant: arranged deals, actions written in tile
notation, claims, settlement look-ups and hand verdicts.

Every helper takes the variant (or a state that carries it) and tiles in the text notation (``5m``,
``123m456s``), so a test reads like the rule it checks. Seats count in play order: seat + 1 is the 下家 (next
seat); the dealer holds 14 tiles. The per-variant modules (``<variant>_helpers.py``) bind these to
their variant, junk hands and defaults.

The wall holds the whole set, dealt tiles included: positions 2k and 2k+1 are the top and bottom tile of
stack k (see engine/wall.py).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from engine import (
    Act,
    Action,
    Event,
    EventKind,
    Phase,
    Settlement,
    State,
    Variant,
    WinContext,
    WinInfo,
    apply,
    arranged_hand,
    legal_actions,
    parse_hand,
    parse_tile,
    parse_tiles_ordered,
    tile_str,
    to_act,
)
from engine.wall import Wall


def param_id(value: object) -> str | None:
    """A readable pytest id for a parameter pytest would only number (``flags0``, ``expected3``): a dict as
    its ``key=value`` pairs, a list or tuple joined by ``+``, an action in its notation (``ids=param_id``);
    None leaves pytest's own id (a string or a number is readable as it is)."""
    if isinstance(value, dict):
        return ",".join(f"{k}={v}" for k, v in value.items()) or "{}"
    if isinstance(value, list | tuple):
        return "+".join(str(v) for v in value) or "()"
    if isinstance(value, Action):
        return str(value)
    return None


# ---------------------------------------------------------------- wall positions


def back_positions(n_tiles: int = 108) -> list[int]:
    """Wall positions in kong-replacement order: top of the last stack, its bottom, then the stack before it
    (docs/rules/common.md §2.4: the top tile of the last stack, then its bottom)."""
    return [p for k in range(n_tiles // 2 - 1, -1, -1) for p in (2 * k, 2 * k + 1)]


def last_positions(n_tiles: int, count: int) -> list[int]:
    """The wall's last ``count`` positions in drawing order (the very last one is the haidi)."""
    return list(range(n_tiles - count, n_tiles))


def dice_stack(n_tiles: int, n: int) -> tuple[int, int]:
    """(top, bottom) positions of the N-th stack counted from the back: the stack a 开杠 with dice sum N turns
    up while the wall is still whole."""
    top = 2 * (n_tiles // 2 - n)
    return top, top + 1


def place(wall: Wall, fixed: Mapping[int, int], free_from: int, keep: Collection[int] = ()) -> Wall:
    """Put tile fixed[pos] at each wall position by swapping it with a position at or after ``free_from``
    (positions before it are dealt or arranged front draws) that is not in ``keep``: an unplanned position
    if one holds the tile, else a planned one not placed yet (it gets its own tile later)."""
    tiles = list(wall.tiles)
    placed: set[int] = set()
    for pos, t in fixed.items():
        assert pos >= free_from and not wall.taken >> pos & 1, f"wall position {pos} is not free"
        placed.add(pos)
        if tiles[pos] == t:
            continue
        spares = [
            q
            for q in range(free_from, len(tiles))
            if q not in placed and q not in keep and tiles[q] == t and not wall.taken >> q & 1
        ]
        assert spares, f"no spare {tile_str(t)} for wall position {pos}"
        src = next((q for q in spares if q not in fixed), spares[0])
        tiles[pos], tiles[src] = tiles[src], tiles[pos]
    return Wall(tuple(tiles), wall.taken, wall.remaining)


# ---------------------------------------------------------------- arranged deals


def deal(
    variant: Variant,
    hands: list[str],
    draws: str = "",
    back: str = "",
    tail: str = "",
    dealer: int = 0,
    seed: int = 0,
    stacks: Mapping[int, str] | None = None,
    **options: Any,
) -> State:
    """An arranged hand, built by engine.arranged_hand, as the deal leaves it (opening hands, 定缺, 飘 or 加锤
    not made yet: see pass_openings and choose_in_seat_order).

    ``hands``: in seat order, the dealer's with 14 tiles. ``draws``: the next tiles from the front, in play
    order. ``back``: the next kong replacements (补张), in order. ``tail``: the last tiles of the wall in
    drawing order (its last tile is the haidi). ``stacks``: {N: "ab"} puts a (top) and b (bottom, if given) on
    the N-th stack counted from the back (开杠 dice, see kai_dice). ``options``: room options by name."""
    state = arranged_hand(variant, hands, draws, back, dealer, options, seed)
    n = len(state.wall.tiles)
    keep = set(back_positions(n)[: len(parse_tiles_ordered(back))])
    fixed: dict[int, int] = {}

    def put(pos: int, t: int) -> None:
        assert pos not in fixed and pos not in keep, f"wall position {pos} arranged twice"
        fixed[pos] = t

    tail_tiles = parse_tiles_ordered(tail)
    for pos, t in zip(last_positions(n, len(tail_tiles)), tail_tiles, strict=True):
        put(pos, t)
    for k, text in (stacks or {}).items():
        stack_tiles = parse_tiles_ordered(text)
        assert 1 <= len(stack_tiles) <= 2, f"a stack holds one or two tiles, not {text!r}"
        for pos, t in zip(dice_stack(n, k), stack_tiles, strict=False):
            put(pos, t)
    if fixed:
        first_free = n - state.wall.remaining + len(parse_tiles_ordered(draws))
        state = replace(state, wall=place(state.wall, fixed, first_free, keep))
    return state


def pass_openings(state: State) -> State:
    """Every opening hand (起手小胡, 扳牌) offered at the deal is passed: the hand is at the dealer's first
    discard."""
    while state.phase == Phase.OPENING:
        state = act(state, state.current, Act.PASS)
    return state


def choose_in_seat_order(state: State, details: Iterable[object]) -> State:
    """Seat 0, 1, … makes its pre-hand choice (飘, 加锤, …): the i-th of ``details``."""
    for seat, detail in enumerate(details):
        state = act(state, seat, Act.CHOOSE, detail=str(detail))
    return state


def kong_deal(
    deal: Callable[..., State], junk: Sequence[str], hand: str, seat2: str, draws: str = "5m", **kw: Any
) -> State:
    """Seat 0 deals (``junk[0]`` and a 3s) and throws the 3s, nobody claims; seat 1 holds ``hand`` (three 5m)
    and has just drawn the fourth 5m, the first of ``draws``. Seat 2 holds ``seat2``, seat 3 ``junk[2]``.
    ``deal``: the variant's own deal helper, which also gets ``kw``."""
    state = deal([junk[0] + "3s", hand, seat2, junk[2]], draws=draws, **kw)
    state = discard(state, 0, "3s")
    assert state.current == 1 and state.drawn == parse_tile("5m")
    return state


def kai_dice(variant: Variant, seed: int = 0, roll: int = 0) -> int:
    """The dice sum of the ``roll``-th 开杠 of an arranged hand with this seed (the engine rolls from its
    seeded RNG). Tests check it against the "dice" event, so a change in the engine shows up."""
    rng = random.Random(f"{variant.id}/{seed}/dice/{roll}")
    return rng.randint(1, 6) + rng.randint(1, 6)


def dice_sum(events: tuple[Event, ...]) -> int:
    """The sum of the one "dice" event among ``events``."""
    (dice,) = [e for e in events if e.kind == EventKind.DICE]
    return sum(dice.dice)


# ---------------------------------------------------------------- actions


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


def pass_claims(state: State, keep: Callable[[int], bool] | Collection[int] = ()) -> State:
    """Every seat asked about a claim passes, except the seats in ``keep`` (a collection of seats, or a
    predicate on a seat)."""
    kept = keep if callable(keep) else keep.__contains__
    while state.phase == Phase.CLAIM:
        seats = [s for s in to_act(state) if not kept(s)]
        if not seats:
            break
        state = act(state, seats[0], Act.PASS)
    return state


def discard(state: State, seat: int, tile: str, keep: Callable[[int], bool] | Collection[int] = ()) -> State:
    """``seat`` discards ``tile`` and nobody (but ``keep``) claims it: unless a kept seat may claim, the next
    seat has drawn when this returns."""
    return pass_claims(act(state, seat, Act.DISCARD, tile), keep)


def discard_drawn(state: State) -> State:
    """The seat to play discards the tile it just drew; every claim on it is passed."""
    assert state.phase == Phase.TURN and state.drawn is not None
    return discard(state, state.current, tile_str(state.drawn))


def play_until_haidi(state: State, first_discard: str) -> State:
    """The dealer discards ``first_discard``; then everyone discards what they draw and nobody claims, until
    the haidi (海底) is offered or the hand ends."""
    state = discard(state, state.current, first_discard)
    while state.phase == Phase.TURN:
        state = discard_drawn(state)
    return state


def play_to_end(state: State) -> State:
    """Everyone throws what they draw and passes every claim until the hand ends."""
    while state.phase != Phase.ENDED:
        state = discard_drawn(state)
    return state


# ---------------------------------------------------------------- settlements


def settlements(state: State, kind: str) -> list[Settlement]:
    return [s for s in state.settlements if s.kind == kind]


def last_settlement(state: State, kind: str = "win") -> Settlement:
    found = settlements(state, kind)
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


def flows(settlement: Settlement) -> set[tuple[int, int, int]]:
    """Every payment as (payer, payee, amount)."""
    return {(p.payer, p.payee, p.amount) for p in settlement.payments}


def hand_names(settlement: Settlement, seat: int) -> list[str]:
    """The sorted hand names a winner is paid for."""
    return sorted(dict(settlement.hands)[seat])


def check_zero_sum(state: State, ended: bool = True) -> None:
    """Every settlement, and the hand's result, sums to zero. ``ended``: the hand must have its result."""
    for s in state.settlements:
        assert sum(s.deltas) == 0, s
    if ended:
        assert state.result is not None
    if state.result is not None:
        assert sum(state.result.deltas) == 0


# ---------------------------------------------------------------- verdicts on a complete hand


def win_context(
    variant: Variant,
    hand: str,
    tile: str,
    self_draw: bool = True,
    seat: int = 1,
    dealer: int = 0,
    options: Mapping[str, Any] | None = None,
    **flags: Any,
) -> WinContext:
    """The WinContext of ``hand`` (the whole hand, melds in brackets, its concealed part already holding the
    winning ``tile``) won by ``seat``, off the next seat's discard unless ``self_draw``. ``flags``: the other
    WinContext fields (haidi=True, kong_draw="kai", choice=…)."""
    counts, melds = parse_hand(hand)
    t = parse_tile(tile)
    assert counts[t] >= 1, "the winning tile must be in the concealed part of the hand"
    return WinContext(
        seat=seat,
        dealer=dealer,
        counts=counts,
        melds=melds,
        tile=t,
        self_draw=self_draw,
        from_seat=None if self_draw else (seat + 1) % 4,
        options=variant.make_options(options or {}),
        **flags,
    )


def sorted_names(info: WinInfo | None) -> list[str] | None:
    """Sorted hand names of a verdict (a big hand repeated by its count; the small ones only when there is
    no big one), or None if the hand does not win."""
    if info is None:
        return None
    if info.big:
        return sorted(n for n, k in info.big for _ in range(k))
    return sorted(info.small)


def win_names(variant: Variant, hand: str, tile: str, **kw: Any) -> list[str] | None:
    """The variant's verdict on a complete hand (see win_context for the arguments): sorted hand names, or
    None if it does not win."""
    return sorted_names(variant.evaluate_win(win_context(variant, hand, tile, **kw)))
