"""Helpers for the Shaoyang (邵阳麻将) clause tests: arranged deals, 加锤 choices, actions in tile notation.

Not tests themselves (pytest collects nothing here); the helpers in conftest.py are bound to Changsha, so
Shaoyang keeps its own. Seats count in play order: seat + 1 is the 下家 (next seat); the dealer holds 14
tiles. ``arranged_hand`` sorts each hand, so the dealer's 14th tile is the highest of his hand (m < s < p
< z). 底分 is 1 unless told, so an amount reads directly as 倍 (multiplier × way × shares × hammers).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

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

SY = get_ruleset("shaoyang")

# Junk hands: 13 different isolated tiles, no pair, not ready for anything. They only pass and discard.
JUNK = ("147m258s369p1234z", "258m369s147p1567z", "369m147s258p2345z")


def back_positions(n_tiles: int = 136) -> list[int]:
    """Wall positions in kong-replacement order: top of the last stack, its bottom, then the stack before
    it (RULES §1: "top tile of the last stack, then its bottom tile")."""
    return [p for k in range(n_tiles // 2 - 1, -1, -1) for p in (2 * k, 2 * k + 1)]


def _place(wall: Wall, fixed: dict[int, int], free_from: int) -> Wall:
    """Put tile fixed[pos] at each wall position; the other tiles from ``free_from`` on (positions before
    it are the dealt tiles and the arranged front draws) keep their order in the positions left."""
    tiles = list(wall.tiles)
    positions = [q for q in range(free_from, len(tiles)) if not wall.taken >> q & 1]
    pool = [tiles[q] for q in positions]
    for pos, t in fixed.items():
        assert pos in positions, f"wall position {pos} is not free"
        assert t in pool, f"no spare {tile_str(t)} for wall position {pos}"
        pool.remove(t)
        tiles[pos] = t
    for q, t in zip([q for q in positions if q not in fixed], pool, strict=True):
        tiles[q] = t
    return Wall(tuple(tiles), wall.taken, wall.remaining)


def deal(
    hands: list[str],
    draws: str = "",
    back: str = "",
    tail: str = "",
    dealer: int = 0,
    base: int = 1,
    hammers: str | None = "0000",
    seed: int = 0,
) -> State:
    """An arranged Shaoyang hand, at the dealer's first discard.

    ``draws``: the next tiles from the front, in play order. ``back``: the next kong replacements, in
    order. ``tail``: the last tiles of the wall in drawing order. ``hammers``: each seat's 加锤 ("0".."2")
    chosen in seat order; None leaves the hand in the choosing phase. (The back and tail are placed here
    rather than through arranged_hand(back=...), whose back tiles land one position off: see
    test_wall.py::test_arranged_back_replacements_follow_the_written_order.)"""
    state = arranged_hand(SY, hands, draws, "", dealer, {"base": base}, seed)
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
    if fixed:
        first_free = n - state.wall.remaining + len(parse_tiles_ordered(draws))
        state = replace(state, wall=_place(state.wall, fixed, first_free))
    if hammers is not None:
        state = choose_hammers(state, hammers)
    return state


def choose_hammers(state: State, hammers: str) -> State:
    """Every seat picks its 加锤, in seat order: ``"1110"`` = seats 0-2 one hammer, seat 3 none."""
    assert state.phase == Phase.CHOOSE
    for seat, h in enumerate(hammers):
        state = act(state, seat, Act.CHOOSE, detail=h)
    assert state.phase == Phase.TURN
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


def hand_names(settlement: Settlement, seat: int) -> tuple[str, ...]:
    """(hand, way of winning) of a winner, e.g. ("pinghu", "zimo")."""
    return dict(settlement.hands)[seat]


def check_zero_sum(state: State) -> None:
    assert state.result is not None
    assert sum(state.result.deltas) == 0
    for s in state.settlements:
        assert sum(s.deltas) == 0


def win_name(hand: str, tile: str, self_draw: bool = True, **flags: bool | str) -> str | None:
    """Shaoyang's verdict on a complete hand: the paid hand's id, or None if it does not win here.
    ``hand`` is the whole hand with melds in brackets; its concealed part already holds ``tile``."""
    counts, melds = parse_hand(hand)
    t = parse_tile(tile)
    assert counts[t] >= 1, "the winning tile must be in the concealed part of the hand"
    ctx = WinContext(
        seat=1,
        dealer=0,
        counts=counts,
        melds=melds,
        tile=t,
        self_draw=self_draw,
        from_seat=None if self_draw else 2,
        options=SY.make_options({}),
        **flags,  # type: ignore[arg-type]
    )
    info = SY.evaluate_win(ctx)
    if info is None:
        return None
    assert SY.could_win(counts, melds), "could_win must pass every hand evaluate_win accepts"
    assert len(info.big) + len(info.small) == 1, "no stacking: exactly one hand is paid"
    return info.big[0][0] if info.big else info.small[0]
