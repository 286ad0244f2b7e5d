"""A table in memory and the ports the table service talks through. No logic beyond look-ups.

One ``TableRuntime`` per open table, each with its own ``asyncio.Lock``: every change to a table (a button,
a command, a timer, a restart) runs under that lock, so two players pressing at once are applied one after
the other against the current state version. Functions in ``bot/`` that take a ``TableRuntime`` expect the
caller to hold its lock; those that take a table id take it themselves.

The ports (``Out``, ``TimerPort``, ``DmProbe``, ``Clock``, ``SeedFn``) are what the service needs from the
outside; ``bot/telegram/app.py`` passes the real ones (outbox, event-loop timers, a probe over the Bot API).
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, Protocol

import engine
from bot.messages.content import Content, Keyboard, Photo, Priority
from engine import Action, ClaimKind, Event, KongMode, Phase, State
from engine.variant import Variant
from storage import Facts, Hand, SeatPlay, Table, TableSettings

SeedFn = Callable[[int, int], int]  # (table id, hand number) -> the hand's seed
DmProbe = Callable[[int, str], Awaitable[bool]]  # send a DM; False when the user never started the bot


class Out(Protocol):
    """What the service needs from the outbox (bot/telegram/outbox.py)."""

    def live(
        self,
        chat_id: int,
        key: str,
        text: str,
        kb: Keyboard | None = None,
        *,
        fresh: bool = False,
        photo: Photo | None = None,
        priority: Priority = Priority.NORMAL,
    ) -> None: ...
    def live_lazy(
        self,
        chat_id: int,
        key: str,
        render: Callable[[], Content],
        *,
        fresh: bool = False,
        priority: Priority = Priority.LAZY,
    ) -> None: ...
    def post(
        self,
        chat_id: int,
        text: str,
        kb: Keyboard | None = None,
        *,
        on_sent: Callable[[], Awaitable[None]] | None = None,
    ) -> None: ...
    def adopt(self, chat_id: int, key: str, message_id: int) -> None: ...
    def message_id(self, chat_id: int, key: str) -> int | None: ...
    def forget(self, chat_id: int, key: str) -> None: ...
    def move_chat(self, old_chat: int, new_chat: int) -> None: ...


class TimerPort(Protocol):
    """One wake-up per table (bot/table/timers.py): ``arm`` replaces the table's earlier deadline."""

    def arm(self, table_id: int, deadline: float) -> None: ...
    def cancel(self, table_id: int) -> None: ...


@dataclass(frozen=True, slots=True)
class Reply:
    """The short answer to a button press (or a command's text reply)."""

    text: str
    url: str | None = None
    alert: bool = False
    ok: bool = False  # the press changed something: the caller should let the table move on


@dataclass(frozen=True, slots=True)
class Who:
    """A user as Telegram shows him (name cleaned and capped), stored once he may act at a table."""

    name: str
    language: str | None = None


@dataclass(slots=True)
class Pending:
    """A human seat's open decision: its buttons carry the hand and ``since``. It is closed (removed) the
    moment a press on it is committed, and replaced when ``key`` changes; a press finds it or is stale."""

    since: int  # the state version the decision started at (the decision's id within its hand)
    deadline: float
    legal: tuple[Action, ...]
    key: tuple[Any, ...]
    warned: bool = False  # the "10 s left" warning was shown (or the decision is too short for one)


@dataclass(frozen=True, slots=True)
class Moment:
    """A tile others may claim: a discard, or a kong that may be robbed (抢杠). Public by nature.

    Or a window opened by what the table has just seen (``shown``, its public events): tiles a 开杠 turned
    up or let fall, the last tile taken or shown (海底). Then every chat shows the table as it was before,
    with those events as the latest moves, until the pause ends - whether or not anyone may decide."""

    kind: ClaimKind  # DISCARD or ROB (the engine's claim kinds); KONG or HAIDI with ``shown``
    seat: int
    tile: int
    mode: KongMode | None = None  # a kong's mode (补张 / 开杠)
    shown: tuple[Event, ...] = ()


@dataclass(slots=True)
class Pause:
    """The uniform claim pause after a ``Moment`` (docs/security.md): until ``until`` every chat shows the
    table as it was right after the moment (built from ``before``, the state before it), whether or not
    anyone may claim; only open claim decisions are live. The hand moves on when it ends."""

    until: float
    before: State
    moment: Moment
    recent: tuple[Event, ...]  # the group's "recent" line as of the moment


def decision_key(state: State, seat: int) -> tuple[Any, ...]:
    """Identifies one decision of a seat: it stays the same while other seats answer the same claim."""
    if state.phase == Phase.CLAIM and state.claim is not None:
        c = state.claim
        return ("claim", c.from_seat, c.tile, c.kind, state.discards_made, state.wall.remaining)
    if state.phase == Phase.CHOOSE:
        return ("choose",)
    return ("v", state.version)


def score_key(user: int | None, seat: int) -> str:
    """Whose running total a seat's points go to: the player, or the AI in that seat."""
    return f"u{user}" if user is not None else f"ai{seat}"


@dataclass(eq=False)
class HandLive:
    """A hand in play and everything that lives only as long as it: made when the hand is dealt
    (``Play.deal``) or rebuilt from the log (bot/table/restore.py), dropped when it ends. Nothing here can
    leak into the next hand: the next one is a new object.

    What must survive a restart is stored first (``storage``) and changed here only after: per seat
    ``auto``, ``timeouts`` and ``pending`` (written as ``SeatPlay`` rows with each action; ``stored`` is
    what the database holds, so only changed seats are written). A claim pause in progress (``pause``, a
    few seconds of display) is not stored: a restart ends it, and so does it forget the tiles a player has
    picked so far in a pick-tiles decision (``picks``: 换三张; his panel only)."""

    row: Hand  # the hand as stored: its id, number, seats, seed
    state: State
    pending: dict[int, Pending] = field(default_factory=dict)
    pause: Pause | None = None  # the claim pause in progress
    picks: dict[int, tuple[int, frozenset[int]]] = field(default_factory=dict)  # seat -> (decision, picked)
    auto: frozenset[int] = frozenset()  # seats on auto-play
    timeouts: dict[int, int] = field(default_factory=dict)  # seat -> timeouts in a row
    stored: dict[int, SeatPlay] = field(default_factory=dict)  # seat -> its play state as stored
    fresh_panels: set[int] = field(default_factory=set)  # seats whose panel is sent anew (a new hand)
    # seat -> what the bot played for it and why (a text key, the move's label): a timeout, a forced move
    notes: dict[int, tuple[str, str]] = field(default_factory=dict)
    # seat -> its own private news until his own first move of play (换三张: the three tiles he received;
    # the moves made for him - a forced 定缺 or discard, a timeout - keep it)
    news: dict[int, Event] = field(default_factory=dict)
    recent: deque[Event] = field(default_factory=lambda: deque(maxlen=8))
    dm_lost: set[int] = field(default_factory=set)  # seated players the bot cannot reach in private
    prompted: dict[int, int] = field(default_factory=dict)  # seat -> the decision its panel went out with
    # the hand's 胡/自摸/点炮/杠 so far and how each win was made (storage/facts.py)
    facts: Facts = field(default_factory=Facts)

    @property
    def id(self) -> int:
        return self.row.id

    @property
    def number(self) -> int:
        return self.row.number

    @property
    def seats(self) -> tuple[int | None, ...]:
        return self.row.seats

    def picked(self, seat: int) -> frozenset[int]:
        """Hand positions ``seat`` has picked so far in his open pick-tiles decision (none once it closed)."""
        p = self.pending.get(seat)
        mine = self.picks.get(seat)
        return mine[1] if p is not None and mine is not None and mine[0] == p.since else frozenset()


@dataclass(eq=False)
class TableRuntime:
    """One open table in memory: its stored row, lobby and settings, its running totals, and the hand in
    play (``hand``, a ``HandLive``, or None between hands).

    Everything here that must survive a restart is stored first (``storage``) and changed in memory only
    after: ``settings`` (timers, the claim pause, language, AI seats, the host: ``rt.settings.host``)."""

    table: Table
    settings: TableSettings
    seats: list[int | None]  # the lobby: user id per seat (None: empty or AI, see settings.ai)
    options: dict[str, Any]
    hand: HandLive | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    result_due: list[int] = field(default_factory=list)  # finished hands whose result the group has not seen
    hand_lines: dict[int, str] = field(default_factory=dict)  # hand id -> its result in one line, while due
    summary: str = ""  # the last hand's result, shown above the lobby until the next hand starts
    summaries: dict[str, str] = field(default_factory=dict)  # … in each language, for the Mini App's lobby
    # restored between hands with the last hand's result not yet shown to the group: the bot stopped right
    # after the hand ended, maybe before its ready phase or the room's close (Night.resume)
    restored_due: bool = False
    vote_dms: set[int] = field(default_factory=set)  # players asked in private in the stop vote in progress
    last_code: str = (
        ""  # the public code of the last hand whose result is above the lobby (its shuffle check)
    )
    setting_open: int | None = None  # the lobby's settings page lists this setting's choices (not stored)
    waiting_dm: set[int] = field(default_factory=set)  # pressed Join without a private chat
    dm_noted: set[int] = field(default_factory=set)  # … and were told so in the group (once a table: no spam)
    totals: dict[str, int] = field(default_factory=dict)  # score_key -> points over this table's hands
    next_dealer: int | None = None
    hands_played: int = 0
    closed: bool = False

    @property
    def id(self) -> int:
        return self.table.id

    @property
    def chat_id(self) -> int:
        return self.table.chat_id

    @property
    def variant(self) -> Variant:
        return engine.get_variant(self.table.variant)

    @property
    def playing(self) -> bool:
        return self.hand is not None

    @property
    def state(self) -> State | None:
        """The hand's state (None between hands)."""
        return self.hand.state if self.hand is not None else None

    @property
    def live(self) -> HandLive:
        """The hand in play, for code that runs only during one."""
        assert self.hand is not None, "no hand in play"
        return self.hand

    def hand_seats(self) -> tuple[int | None, ...]:
        return self.hand.seats if self.hand is not None else tuple(self.seats)

    def live_dm_lost(self) -> set[int]:
        """The players of the hand in play the bot cannot reach in private (none between hands)."""
        return self.hand.dm_lost if self.hand is not None else set()

    def seat_of(self, user_id: int) -> int | None:
        seats = self.hand_seats()
        return seats.index(user_id) if user_id in seats else None

    def humans(self) -> list[int]:
        return [u for u in self.hand_seats() if u is not None]

    def score_key(self, seat: int) -> str:
        return score_key(self.hand_seats()[seat], seat)


@dataclass(frozen=True, slots=True)
class FinishedHand:
    """A hand that has just ended, as the hand-end hook gets it (the table is back in its lobby)."""

    hand: Hand
    final: State  # its last state (phase ENDED, with its result)
    summary: str  # the group's note on it: the result and the table's totals


HandEndHook = Callable[[TableRuntime, FinishedHand], Awaitable[None]]


class Tables:
    """The open tables, by id and by group chat (one open table per group)."""

    def __init__(self) -> None:
        self.by_id: dict[int, TableRuntime] = {}
        self.by_chat: dict[int, int] = {}
        self._chat_locks: dict[int, asyncio.Lock] = {}

    def __iter__(self) -> Iterator[TableRuntime]:
        return iter(list(self.by_id.values()))  # a copy: tables may close while a caller awaits

    def open(self, table_id: int) -> TableRuntime | None:
        """The table if it is open (a press on a closed or unknown table gets "closed")."""
        rt = self.by_id.get(table_id)
        return rt if rt is not None and not rt.closed else None

    def in_chat(self, chat_id: int) -> TableRuntime | None:
        tid = self.by_chat.get(chat_id)
        return self.by_id.get(tid) if tid is not None else None

    def of_user(self, user_id: int) -> list[TableRuntime]:
        return [rt for rt in self.by_id.values() if user_id in rt.hand_seats() or user_id in rt.seats]

    def chat_lock(self, chat_id: int) -> asyncio.Lock:
        """Serialises opening a table in one group (before there is a table lock to take)."""
        return self._chat_locks.setdefault(chat_id, asyncio.Lock())

    def add(self, rt: TableRuntime) -> None:
        self.by_id[rt.id] = rt
        self.by_chat[rt.chat_id] = rt.id

    def remove(self, rt: TableRuntime) -> None:
        self.by_id.pop(rt.id, None)
        if self.by_chat.get(rt.chat_id) == rt.id:
            del self.by_chat[rt.chat_id]

    def rebind(self, rt: TableRuntime, table: Table) -> None:
        """The table's group changed its chat id (became a supergroup)."""
        if self.by_chat.get(rt.chat_id) == rt.id:
            del self.by_chat[rt.chat_id]
        rt.table = table
        self.by_chat[table.chat_id] = rt.id
