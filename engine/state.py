"""Immutable game state. Every field is a value; ``apply`` returns a new State."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, fields
from enum import StrEnum
from typing import TYPE_CHECKING, Any, TypeVar, cast

from .actions import Action, KongMode
from .melds import Meld
from .tiles import Counts
from .variant import Options, Variant
from .wall import Wall


class Phase(StrEnum):
    CHOOSE = "choose"  # pre-hand choices: 飘 / 加锤 / 定缺, every seat at once
    OPENING = "opening"  # 起手小胡: seats with an opening hand may declare it
    TURN = "turn"  # `current` holds 3k+2 tiles and must discard, kong or win
    CLAIM = "claim"  # a discard (or 补杠 tile, or the shown haidi) may be claimed
    HAIDI = "haidi"  # 海底漫游: `current` is offered the last tile
    ENDED = "ended"


class ClaimKind(StrEnum):
    DISCARD = "discard"  # a discard
    ROB = "rob"  # the tile of a kong being made (抢杠)
    HAIDI = "haidi"  # the shown haidi tile (海底炮)
    KONG = "kong"  # the tiles a two-tile 开杠 turned up and let fall


class SettleKind(StrEnum):
    OPENING = "opening"  # 起手小胡 / 扳牌
    WIN = "win"
    KONG = "kong"  # kong money
    DRAW = "draw"  # a drawn hand's payments (查花猪 / 查大叫, refunds)


class Outcome(StrEnum):
    WIN = "win"  # someone won
    DRAW = "draw"  # 荒庄


@dataclass(frozen=True, slots=True)
class Seat:
    counts: Counts
    melds: tuple[Meld, ...] = ()
    discards: tuple[int, ...] = ()  # tiles lying in this seat's river (claimed ones removed)
    locked: bool = False  # 开杠 made: every tile that does not win is discarded
    # 漏胡: the tiles this seat passed a win on since its own last draw, pung or kong (the variant's
    # passed_win_bars says which discard wins that bars)
    passed_wins: tuple[int, ...] = ()
    declared: tuple[str, ...] = ()  # opening hands declared
    revealed: tuple[int, ...] = ()  # tiles shown to the table (opening hands)
    choice: str | None = None  # pre-hand choice (飘 "0".."4", 加锤 "0".."2", 定缺 "m"/"s"/"p")
    won: bool = False  # 血战: this seat has won and left play
    passed_kongs: tuple[int, ...] = ()  # tiles whose 补杠 this seat could have made and did not (过手杠)
    # A memo, not state: (variant, waits by shape) of this hand once play has asked (engine/claims.py's
    # _claim_candidates: every discard is checked against three seats, and a Seat lives unchanged through
    # the other seats' turns). A pure function of the fields above: never compared, hashed or shown, and
    # every copy starts without it.
    waits_memo: Any = field(default=None, init=False, repr=False, compare=False)
    # A memo too (engine/observe.py): this seat's sorted hand and the public parts of it observations have
    # built, by what decides them (a Seat lives unchanged through the other seats' turns, and each state is
    # observed once per seat and once for the table). Same terms as waits_memo.
    observe_memo: Any = field(default=None, init=False, repr=False, compare=False)


@dataclass(frozen=True, slots=True)
class Claim:
    """An open claim window on ``tile``."""

    tile: int
    from_seat: int
    kind: ClaimKind
    options: tuple[tuple[int, tuple[Action, ...]], ...]  # seat -> its legal responses
    responses: tuple[tuple[int, Action], ...] = ()
    kong_discard: bool = False  # the discard straight after 开杠 (杠上炮)
    first_discard: bool = False  # the dealer's first discard (地胡)
    kong_mode: KongMode = KongMode.PLAIN  # for ROB: the pending kong's mode
    kong_kind: int = 0  # for ROB (and KONG with ``kept``): the pending kong's MeldKind
    after_kong: KongMode | None = None  # the discarder had just konged: 杠上炮 in some variants
    tiles: tuple[int, ...] = ()  # for KONG: every tile turned up by a two-tile 开杠
    kept: int = -1  # for KONG: a turned-up tile the konger kept for a new kong (-1: none)

    def options_for(self, seat: int) -> tuple[Action, ...]:
        for s, acts in self.options:
            if s == seat:
                return acts
        return ()

    def responded(self, seat: int) -> bool:
        for s, _ in self.responses:
            if s == seat:
                return True
        return False


class Op(StrEnum):
    """How a ``Part`` of a payment's arithmetic changes the running amount (which starts at 0)."""

    ADD = "+"
    MUL = "×"
    DIV = "÷"  # divided, rounded half up (a pot split between winners)
    CAP = "≤"  # at most this much (封顶)
    POW = "^"  # the running amount becomes value ** amount (番 → 2^番)


@dataclass(frozen=True, slots=True)
class Part:
    """One step of a payment's arithmetic, for players to read: a hand and its value, the base, a dealer's
    extra, bird hits, 飘 / 加锤, a cap. ``label`` is an id the variant names (``Variant.part_name``: a hand
    or kong id of its ``names``, or a common one such as "base", "dealer", "birds"); ``count`` is how many
    of a counted thing the step stands for (bird hits, hammers; 0: none to show)."""

    label: str
    value: int
    op: Op = Op.ADD
    count: int = 0


def evaluate(parts: tuple[Part, ...]) -> int:
    """The amount ``parts`` come to, applied in order from 0."""
    total = 0
    for p in parts:
        if p.op == Op.ADD:
            total += p.value
        elif p.op == Op.MUL:
            total *= p.value
        elif p.op == Op.DIV:
            total = (2 * total + p.value) // (2 * p.value)
        elif p.op == Op.CAP:
            total = min(total, p.value)
        else:
            total = p.value**total
    return total


@dataclass(frozen=True, slots=True)
class Payment:
    """One line of a settlement: ``payer`` pays ``amount`` to ``payee``, and why: ``parts`` is the
    arithmetic that makes ``amount`` (``evaluate(parts) == amount``; see ``scoring.pay``)."""

    payer: int
    payee: int
    amount: int
    hits: int = 0  # birds that hit this pair
    parts: tuple[Part, ...] = ()


@dataclass(frozen=True, slots=True)
class Settlement:
    """A scored event (an opening hand, a win, a kong): names, birds, payments and per-seat deltas."""

    kind: SettleKind
    winners: tuple[int, ...]
    hands: tuple[tuple[int, tuple[str, ...]], ...]  # seat -> hand names (big hands repeated by count)
    birds: tuple[int, ...]
    payments: tuple[Payment, ...]
    deltas: tuple[int, ...]
    note: str = ""  # a hand or rule id the variant names (its ``names`` translate it), or ""
    bird_seats: tuple[int | None, ...] = ()  # the seat each bird points at (None: nobody), as counted

    @classmethod
    def from_payments(
        cls,
        kind: SettleKind,
        n: int,
        winners: tuple[int, ...],
        hands: tuple[tuple[int, tuple[str, ...]], ...],
        birds: tuple[int, ...],
        payments: tuple[Payment, ...],
        note: str = "",
        bird_seats: tuple[int | None, ...] = (),
    ) -> Settlement:
        deltas = [0] * n
        for p in payments:
            deltas[p.payer] -= p.amount
            deltas[p.payee] += p.amount
        return cls(kind, winners, hands, birds, payments, tuple(deltas), note, bird_seats)


@dataclass(frozen=True, slots=True)
class HandResult:
    reason: Outcome
    winners: tuple[int, ...]
    deltas: tuple[int, ...]
    next_dealer: int
    dealer_note: str = ""  # why the next dealer is not who players expect (a ``notes`` key; "": no need)


@dataclass(frozen=True, slots=True)
class State:
    variant: Variant
    options: Options
    seed: int
    dealer: int
    wall: Wall
    seats: tuple[Seat, ...]
    phase: Phase
    current: int
    version: int = 0
    drawn: int | None = None  # tile `current` just drew (None after a claim or at the deal)
    kong_draw: KongMode | None = None  # current's tile is a kong replacement, by this mode (杠上开花)
    first_turn: bool = True  # the dealer's first turn, nothing drawn or claimed yet (天胡)
    discards_made: int = 0
    claims_made: int = 0
    claim: Claim | None = None
    dice_rolls: int = 0
    opening_queue: tuple[int, ...] = ()
    haidi_first: int | None = None  # the first seat offered the haidi
    haidi_queue: tuple[int, ...] = ()  # seats still to be offered it after the current one
    haidi_taker: int | None = None
    haidi_as_replacement: int | None = None  # seat that took the last tile as a kong replacement
    settlements: tuple[Settlement, ...] = ()
    result: HandResult | None = None
    last_discard: tuple[int, int] | None = field(default=None)  # (seat, tile) of the latest discard
    kong_from: int | None = None  # the seat whose discard fed current's kong (点杠), for 杠开 payments
    kong_tiles: tuple[int, ...] = ()  # tiles a two-tile 开杠 turned up, waiting for the konger
    winners: tuple[int, ...] = ()  # every win so far, by seat, in order (血流成河: a seat once per win)
    win_tiles: tuple[int, ...] = ()  # the tile of each of those wins, shown to all (-1: 天胡, no tile)
    wall_reserve: int = 0  # tiles the variant keeps back at the end of the wall (birds): not played
    extra: Any = None  # the variant's own slot (immutable values only); the core never reads it

    @property
    def num_seats(self) -> int:
        return len(self.seats)

    def next_seat(self, seat: int, step: int = 1) -> int:
        return (seat + step) % len(self.seats)

    def play_order(self, first: int) -> tuple[int, ...]:
        """Every seat in play order, from ``first``."""
        n = len(self.seats)
        return tuple((first + i) % n for i in range(n))


_T = TypeVar("_T")


_TWINS: dict[type, type] = {}


def _copy_function(cls: type, changed: tuple[str, ...], positional: bool) -> Any:
    """Generate ``copy(o, c)`` (``c``: a dict of the changed fields) or, ``positional``, ``copy(o, *values)``
    for a frozen slots dataclass without ``__post_init__``.

    It sits on every transition, so it skips what makes ``dataclasses.replace`` slow: the per-call field
    introspection, and ``__init__``'s ``object.__setattr__`` per field (a frozen class refuses plain
    assignment). The copy is filled as an instance of a twin class with the very same slots but no frozen
    ``__setattr__`` — plain, fast slot stores — and then given its real class, frozen like any other. One
    function per set of changed names, generated once, as dataclasses generates ``__init__``."""
    names = tuple(f.name for f in fields(cls))
    assert not hasattr(cls, "__post_init__") and tuple(cls.__dict__["__slots__"]) == names
    memos = {f.name for f in fields(cls) if not f.init}  # reset to their default (None), like replace()
    assert all(f.default is None for f in fields(cls) if not f.init)
    unknown = set(changed) - set(names) | set(changed) & memos
    if unknown:
        raise TypeError(f"{cls.__name__} has no field {sorted(unknown)[0]!r}")
    twin = _TWINS.get(cls)
    if twin is None:
        twin = _TWINS[cls] = type(f"_{cls.__name__}Slots", (object,), {"__slots__": names})
    ns: dict[str, Any] = {"new": object.__new__, "cls": cls, "twin": twin}
    args = ", ".join(f"v_{f}" for f in changed)
    lines = [f"def copy(o, {args}):" if positional else "def copy(o, c):", "    n = new(twin)"]
    for f in names:
        if f in memos:
            value = "None"
        elif f in changed:
            value = f"v_{f}" if positional else f"c[{f!r}]"
        else:
            value = f"o.{f}"
        lines.append(f"    n.{f} = {value}")
    lines += ["    n.__class__ = cls", "    return n"]
    exec("\n".join(lines), ns)
    return ns["copy"]


def _make_evolve(cls: type) -> Any:
    """Build ``evolve(obj, **changes)`` for a frozen slots dataclass (see ``_copy_function``)."""
    copiers: dict[tuple[str, ...], Any] = {}

    def evolve(o: Any, **c: Any) -> Any:
        """A copy of ``o`` with the fields ``c`` changed (like dataclasses.replace, faster)."""
        key = tuple(c)
        copy = copiers.get(key)
        if copy is None:
            copy = copiers[key] = _copy_function(cls, key, False)
        return copy(o, c)

    return evolve


def copier(cls: type[_T], *changed: str) -> Callable[..., _T]:
    """``copy(obj, *values)``: a copy of ``obj`` (a State, Seat or Claim) with the fields ``changed`` set to
    ``values``, in that order — ``evolve`` without packing and unpacking keywords, for the few transitions
    every step makes (a draw, a discard, a claim window)."""
    return cast("Callable[..., _T]", _copy_function(cls, changed, True))


if TYPE_CHECKING:

    def evolve(state: State, **changes: Any) -> State:
        """A copy of ``state`` with ``changes`` (like dataclasses.replace, faster)."""

    def evolve_seat(seat: Seat, **changes: Any) -> Seat:
        """A copy of ``seat`` with ``changes``."""

    def evolve_claim(claim: Claim, **changes: Any) -> Claim:
        """A copy of ``claim`` with ``changes``."""

else:
    # the generated functions themselves: no wrapper call (and no second packing of the changes) on the
    # hottest path of the engine
    evolve = _make_evolve(State)
    evolve_seat = _make_evolve(Seat)
    evolve_claim = _make_evolve(Claim)
