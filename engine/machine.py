"""What every part of the hand state machine shares: engine/game.py (``apply`` and the transitions) and the
modules it is split into — deal.py (the deal), legal.py (who decides what), claims.py (a tile offered to the
other seats), kongs.py (a kong made). The actions made once, enum members as plain constants, a seat's win in
a context (``win_info``), the wall still in play and the next seat still in the hand."""

from __future__ import annotations

from typing import Any

from .actions import Act, Action, KongMode
from .events import EventKind
from .melds import MeldKind
from .state import ClaimKind, Phase, Seat, State, evolve_seat
from .tiles import NUM_KINDS, Counts
from .variant import WinContext, WinInfo

# Actions are immutable values: the common ones are made once and shared.
_DISCARDS = tuple(tuple(Action(s, Act.DISCARD, t) for t in range(NUM_KINDS)) for s in range(4))
_WINS = tuple(Action(s, Act.WIN) for s in range(4))
_PASSES = tuple(Action(s, Act.PASS) for s in range(4))
_PUNGS = tuple(Action(s, Act.PUNG) for s in range(4))
_CHOWS = tuple(tuple(Action(s, Act.CHOW, t) for t in range(NUM_KINDS)) for s in range(4))

# Enum members as module constants: on Python 3.11 reading ``Phase.TURN`` goes through EnumType.__getattr__
# (0.1–0.2 µs a read, several times a plain global's), and every step reads a dozen or more of them.
_ENDED, _CLAIM, _CHOOSE, _OPENING, _HAIDI, _TURN = (
    Phase.ENDED,
    Phase.CLAIM,
    Phase.CHOOSE,
    Phase.OPENING,
    Phase.HAIDI,
    Phase.TURN,
)
_WIN, _PASS, _DISCARD, _PUNG, _CHOW, _KONG = Act.WIN, Act.PASS, Act.DISCARD, Act.PUNG, Act.CHOW, Act.KONG
_KAI = KongMode.KAI
_EV_DRAW = EventKind.DRAW
_M_PUNG = MeldKind.PUNG
_C_ROB, _C_HAIDI, _C_KONG = ClaimKind.ROB, ClaimKind.HAIDI, ClaimKind.KONG


def _ctx(state: State, seat: int, counts: Counts, tile: int, self_draw: bool, **flags: Any) -> WinContext:
    s = state.seats[seat]
    return WinContext(
        seat=seat,
        dealer=state.dealer,
        counts=counts,
        melds=s.melds,
        tile=tile,
        self_draw=self_draw,
        options=state.options,
        choice=s.choice,
        **flags,
    )


def win_info(
    state: State, seat: int, tile: int, self_draw: bool, counts: Counts | None = None, **flags: Any
) -> WinInfo | None:
    """Would ``seat`` win with ``tile`` in this context? For a self-draw the tile is already in hand
    (unless ``counts`` says otherwise); for anything else it is added here."""
    s = state.seats[seat]
    if counts is None:
        counts = s.counts
        if not self_draw:
            c = list(counts)
            c[tile] += 1
            counts = tuple(c)
    if not state.variant.could_win(counts, s.melds):
        return None
    return state.variant.evaluate_win(_ctx(state, seat, counts, tile, self_draw, **flags))


def _forced(acts: tuple[Action, ...], state: State, seat: int) -> tuple[Action, ...]:
    """Where the variant forces a win (Sichuan's last four tiles), a possible win is the only choice."""
    rs = state.variant
    if rs._forces_wins and any(a.act == _WIN for a in acts) and rs.must_win(state, seat):
        return tuple(a for a in acts if a.act == _WIN)
    return acts


def _live(state: State) -> int:
    """Wall tiles still in play: the wall less what the variant keeps back at its end (birds)."""
    return state.wall.remaining - state.wall_reserve


def _set_seat(state: State, seat: int, **changes: Any) -> tuple[Seat, ...]:
    seats = list(state.seats)
    seats[seat] = evolve_seat(seats[seat], **changes)
    return tuple(seats)


def _next_active(state: State, seat: int) -> int:
    """``seat`` or the first seat after it (in play order) that has not won (血战)."""
    seats = state.seats
    if not seats[seat].won:
        return seat
    n = len(seats)
    for i in range(1, n):
        s = (seat + i) % n
        if not seats[s].won:
            return s
    return seat


# the other seats of a table of n, in play order after each seat
_OTHERS = {n: tuple(tuple((f + i) % n for i in range(1, n)) for f in range(n)) for n in (2, 3, 4)}
