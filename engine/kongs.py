"""A kong made: the meld, its kong money, and its replacement — from the back (补张, a plain kong) or by
dice for 开杠 (one tile, or a whole stack of two). Part of the hand state machine (engine/game.py)."""

from __future__ import annotations

import random

from .actions import KongMode
from .events import Event, EventKind
from .machine import _EV_DRAW, _KAI, _M_PUNG, _TURN, _live, _set_seat
from .melds import Meld, MeldKind
from .state import State, evolve
from .tiles import Counts
from .variant import KONG_TILES_FROM_HAND


def _kong_counts(counts: Counts, t: int, kind: MeldKind, removed: int = 0) -> Counts:
    c = list(counts)
    c[t] -= KONG_TILES_FROM_HAND[kind] - removed
    return tuple(c)


def _kong_melds(melds: tuple[Meld, ...], t: int, kind: MeldKind, from_seat: int | None) -> tuple[Meld, ...]:
    if kind == MeldKind.KONG_ADDED:
        return tuple(
            Meld(MeldKind.KONG_ADDED, t, m.from_seat) if m.kind == _M_PUNG and m.tile == t else m
            for m in melds
        )
    return (*melds, Meld(kind, t, from_seat))


def _complete_kong(
    state: State,
    seat: int,
    t: int,
    kind: MeldKind,
    mode: KongMode,
    from_seat: int | None,
    events: list[Event],
    removed: int = 0,
) -> State:
    """Meld the kong (``removed`` tiles already left the hand), settle kong payments, then the
    replacement: from the back (补张 / plain kong), or by dice for 开杠 (one tile or a whole stack)."""
    s = state.seats[seat]
    counts = _kong_counts(s.counts, t, kind, removed)
    melds = _kong_melds(s.melds, t, kind, from_seat)
    state = evolve(
        state,
        seats=_set_seat(state, seat, counts=counts, melds=melds, passed_wins=()),
        claims_made=state.claims_made + 1,
        first_turn=False,
        claim=None,
    )
    # a concealed kong's tile is hidden from the others (observe() hides the meld too), unless the
    # variant shows one tile of it (暗杠亮一张牌)
    rs = state.variant
    hidden = kind == MeldKind.KONG_CONCEALED and not rs.concealed_kong_shown
    events.append(Event(EventKind.KONG, seat, t, private=hidden, meld=melds_made(melds, t), mode=mode))
    settlement = rs.settle_kong(state, seat, t, kind, from_seat)
    if settlement is not None:
        state = evolve(state, settlements=(*state.settlements, settlement))
        events.append(Event(EventKind.SETTLE, seat, settlement=settlement))
    last_tile = _live(state) == 1
    haidi_rep = seat if last_tile else state.haidi_as_replacement
    if mode == _KAI:
        n = state.dice_rolls
        rng = random.Random(f"{rs.id}/{state.seed}/dice/{n}")
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        events.append(Event(EventKind.DICE, seat, dice=(d1, d2)))
        state = evolve(state, dice_rolls=n + 1)
        if rs.kai_tiles == 2:
            tiles, wall = state.wall.draw_dice_stack(d1 + d2)
            events.append(Event(EventKind.KONG_TILES, seat, tiles=tiles))
            if len(tiles) == _live(state):  # the last stack: he took the last tile too
                haidi_rep = seat
            return evolve(
                state,
                wall=wall,
                seats=_set_seat(state, seat, locked=True),
                phase=_TURN,
                current=seat,
                drawn=None,
                kong_draw=_KAI,
                kong_from=from_seat,
                kong_tiles=tiles,
                haidi_as_replacement=haidi_rep,
            )
        tile, wall = state.wall.draw_dice(d1 + d2)
    else:
        tile, wall = state.wall.draw_back()
    c = list(state.seats[seat].counts)
    c[tile] += 1
    locked = mode == _KAI or state.seats[seat].locked
    draw_mode = _KAI if mode == _KAI else KongMode.BU
    events.append(Event(_EV_DRAW, seat, tile, private=True, kong=True, mode=draw_mode))
    return evolve(
        state,
        wall=wall,
        seats=_set_seat(state, seat, counts=tuple(c), locked=locked),
        phase=_TURN,
        current=seat,
        drawn=tile,
        kong_draw=draw_mode,
        kong_from=from_seat,
        haidi_as_replacement=haidi_rep,
    )


def melds_made(melds: tuple[Meld, ...], t: int) -> Meld:
    """The kong meld of ``t`` among ``melds``."""
    return next(m for m in reversed(melds) if m.tile == t and m.is_kong)
