"""Helpers for the Sichuan rule-clause tests (no tests here): arranged deals with the 定缺 made, actions in
tile notation, claims, and the money of a settlement.

Seats count in play order: seat + 1 is the 下家. Seat 0 deals (14 tiles) unless told. The junk hands hold
two suits, no pair, are not ready and void the third suit automatically, so they only ever pass and throw
what they draw.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from engine import (
    Act,
    Action,
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

SC = get_ruleset("sichuan")

# Junk: two suits, no pair, not ready; the missing suit is the void (定缺) each is offered alone.
J0 = "1245789m235689s"  # void 筒 p
J1 = "134679s1245789p"  # void 万 m
J2 = "1234679m235689p"  # void 条 s
J3 = "1245789m134679s"  # void 筒 p — for deals that need the 筒 J1 and J2 hold
JUNK = (J0, J1, J2)


def _place_tail(state: State, tail: list[int], first_free: int) -> State:
    """Put ``tail`` at the very end of the wall (the last front draws, in order) by swapping tiles with
    unplanned wall positions at or after ``first_free``."""
    wall = state.wall
    tiles = list(wall.tiles)
    n = len(tiles)
    fixed = {n - len(tail) + i: t for i, t in enumerate(tail)}
    for pos, t in fixed.items():
        if tiles[pos] == t:
            continue
        src = next(
            (q for q in range(first_free, n) if q not in fixed and tiles[q] == t and not wall.taken >> q & 1),
            None,
        )
        assert src is not None, f"no spare {tile_str(t)} for the tail"
        tiles[pos], tiles[src] = tiles[src], tiles[pos]
    return replace(state, wall=Wall(tuple(tiles), wall.taken, wall.remaining))


def deal(
    hands: list[str],
    draws: str = "",
    back: str = "",
    tail: str = "",
    dealer: int = 0,
    voids: str | None = None,
    seed: int = 0,
    **options: Any,
) -> State:
    """An arranged Sichuan hand at the dealer's first turn, 定缺 made: ``voids`` one letter per seat
    ("m"/"s"/"p", "." = the default offered first); default: every seat takes the default.

    ``draws``: the next front draws in order; ``back``: the next kong replacements; ``tail``: the last tiles
    of the wall in drawing order (the last one is the 海底 tile). ``options``: room options (底分 1 unless
    told)."""
    state = arranged_hand(SC, hands, draws, back, dealer, options, seed)
    if tail:
        first_free = len(state.wall.tiles) - state.wall.remaining + len(parse_tiles_ordered(draws))
        state = _place_tail(state, parse_tiles_ordered(tail), first_free)
    return choose(state, voids)


def choose(state: State, voids: str | None = None) -> State:
    """Every seat still choosing takes its void from ``voids`` (or the default)."""
    while state.phase == Phase.CHOOSE:
        seat = to_act(state)[0]
        offered = legal_actions(state, seat)
        want = voids[seat] if voids is not None and voids[seat] != "." else offered[0].detail
        state = act(state, seat, Act.CHOOSE, detail=want)
    return state


def action(seat: int, kind: Act, tile: str | None = None, detail: str = "") -> Action:
    return Action(seat, kind, parse_tile(tile) if tile else None, detail)


def act(state: State, seat: int, kind: Act, tile: str | None = None, detail: str = "") -> State:
    return apply(state, action(seat, kind, tile, detail))[0]


def legal(state: State, seat: int) -> set[str]:
    """Legal actions in their text form, e.g. ``{"1 win", "1 pass"}``."""
    return {str(a) for a in legal_actions(state, seat)}


def can(state: State, seat: int, kind: Act, tile: str | None = None, detail: str = "") -> bool:
    return action(seat, kind, tile, detail) in legal_actions(state, seat)


def pass_claims(state: State, keep: tuple[int, ...] = ()) -> State:
    """Every seat asked about a claim passes, except the seats in ``keep``."""
    while state.phase == Phase.CLAIM:
        seats = [s for s in to_act(state) if s not in keep]
        if not seats:
            break
        state = act(state, seats[0], Act.PASS)
    return state


def discard(state: State, seat: int, tile: str, keep: tuple[int, ...] = ()) -> State:
    """``seat`` throws ``tile``; every claim on it is passed (but by ``keep``)."""
    return pass_claims(act(state, seat, Act.DISCARD, tile), keep)


def tsumogiri(state: State) -> State:
    """The seat to play throws the tile it just drew; every claim on it is passed."""
    assert state.phase == Phase.TURN and state.drawn is not None
    return discard(state, state.current, tile_str(state.drawn))


def play_to_end(state: State) -> State:
    """Everyone throws what they draw and passes every claim until the hand ends."""
    while state.phase != Phase.ENDED:
        state = tsumogiri(state)
    return state


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


def flows(settlement: Settlement) -> set[tuple[int, int, int]]:
    """Every payment as (payer, payee, amount)."""
    return {(p.payer, p.payee, p.amount) for p in settlement.payments}


def hand_names(settlement: Settlement, seat: int) -> list[str]:
    return sorted(dict(settlement.hands)[seat])


def fans(
    hand: str,
    tile: str,
    self_draw: bool = False,
    void: str | None = None,
    options: dict[str, Any] | None = None,
    **flags: Any,
) -> dict[str, int] | None:
    """Sichuan's verdict on a complete hand: {name: 番}, or None if it does not win. ``hand`` is the whole
    hand with melds in brackets; its concealed part already holds the winning ``tile``. ``void`` defaults
    to the suit the hand lacks (万 条 筒 order)."""
    counts, melds = parse_hand(hand)
    t = parse_tile(tile)
    assert counts[t] >= 1, "the winning tile must be in the concealed part of the hand"
    if void is None:
        held = {x // 9 for x, n in enumerate(counts) if n} | {m.tile // 9 for m in melds}
        void = next(("msp"[i] for i in range(3) if i not in held), None)
    ctx = WinContext(
        seat=1,
        dealer=0,
        counts=counts,
        melds=melds,
        tile=t,
        self_draw=self_draw,
        from_seat=None if self_draw else 2,
        options=SC.make_options(options or {}),
        choice=void,
        **flags,
    )
    info = SC.evaluate_win(ctx)
    if info is None:
        return None
    return dict(info.big)


def total_fan(hand: str, tile: str, **kw: Any) -> int:
    got = fans(hand, tile, **kw)
    assert got is not None, f"{hand} does not win on {tile}"
    return sum(got.values())
