"""Plain, immutable records the storage API returns, and the JSON form of a hand's result.

Records carry values only (no connection, no lazy loading), so the bot can keep them in memory, log them or
hand them to another task without touching the database again.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

import engine


def to_datetime(ts: float) -> datetime:
    """Stored times are UTC seconds since the epoch (REAL): comparable in SQL, exact enough for a game."""
    return datetime.fromtimestamp(ts, UTC)


class TableStatus(StrEnum):
    OPEN = "open"  # seats may change, hands are played; restored after a restart
    CLOSED = "closed"  # the game is over; kept for history and the leaderboard


class Period(StrEnum):
    """Leaderboard windows, as calendar periods in the timezone of the ``now`` passed in."""

    ALL = "all"
    WEEK = "week"  # Monday 00:00 to the next Monday 00:00
    MONTH = "month"  # the 1st 00:00 to the next 1st 00:00


LANGUAGES = ("zh", "en")  # the bot's languages: what a language column may hold
DISPLAYS = ("pictures", "text")  # how a chat shows a game: what chat_settings.display may hold
MAX_PAUSE_S = 60  # the longest claim pause a table may have (``table_settings.pause_s``)
ROUNDS = (4, 8, 16, 0)  # 局数 a room may have (0: until /stop), in the order the lobby cycles them


@dataclass(frozen=True, slots=True)
class Player:
    user_id: int
    name: str
    language: str | None  # "zh" or "en"; None: not known yet
    language_chosen: bool = False  # chosen with /lang: the client's language no longer replaces it


@dataclass(frozen=True, slots=True)
class Table:
    id: int
    chat_id: int
    variant: str
    options: Mapping[str, Any]
    seats: tuple[int | None, ...]  # Telegram user id per seat; None = a seat without a player (e.g. AI)
    status: TableStatus
    created_at: datetime


@dataclass(frozen=True, slots=True)
class Hand:
    id: int
    table_id: int
    number: int
    seed: int
    dealer: int
    dealer_drawn: bool  # the engine drew the dealer from the seed: replay passes dealer=None
    seats: tuple[int | None, ...]
    options: Mapping[str, Any]
    version: int  # state version after the last logged action (0: nothing logged yet)
    result: Mapping[str, Any] | None  # see ``result_to_json``; None while playing
    started_at: datetime
    ended_at: datetime | None
    result_delivered: bool = True  # False from the hand's end until the bot has shown its result
    code: str = ""  # the hand's public code (what users type: /replay, /export); random, unguessable
    salt: str | None = None  # the shuffle commitment's salt (secret until the hand ends; None: no commitment)

    @property
    def finished(self) -> bool:
        return self.ended_at is not None

    @property
    def dealer_arg(self) -> int | None:
        """What to pass as ``engine.new_hand(dealer=...)`` to deal this hand again. Not always ``dealer``:
        drawing the dealer consumes the seed's randomness before the wall is shuffled."""
        return None if self.dealer_drawn else self.dealer


@dataclass(frozen=True, slots=True)
class LoggedAction:
    seq: int
    seat: int
    action: str  # engine notation; ``engine.Action.parse`` reads it back
    version: int
    at: datetime


@dataclass(frozen=True, slots=True)
class HandReplay:
    """A hand's full record: enough to show it move by move or rebuild any intermediate state."""

    hand: Hand
    variant: str
    actions: tuple[LoggedAction, ...]

    def state(self, upto: int | None = None) -> engine.State:
        """The state after the first ``upto`` actions (all by default), rebuilt through the engine."""
        acts = self.actions if upto is None else self.actions[:upto]
        return engine.replay(
            engine.get_variant(self.variant),
            self.hand.seed,
            [engine.Action.parse(a.action) for a in acts],
            self.hand.options,
            self.hand.dealer_arg,
            len(self.hand.seats),
        )


@dataclass(frozen=True, slots=True)
class TableSettings:
    """A table's bot settings (``table_settings`` and the lobby's AI seats): what the lobby shows and the
    ids of the group's messages that are edited in place."""

    lang: str = "zh"  # the language of the group's messages
    claim_s: int = 30  # seconds to answer a claim
    discard_s: int = 60  # seconds for a turn
    pause_s: int = 3  # the claim pause after every discard, whether or not anyone may claim (0: none)
    host: int | None = None  # who opened the table (/newtable)
    editing: bool = False  # the lobby shows its settings keyboard
    lobby_msg: int | None = None  # the group's lobby message
    table_msg: int | None = None  # the group's table message of the current hand
    ai: tuple[int, ...] = ()  # lobby seats given to an AI player
    rounds: int = 8  # 局数: hands in the room (4, 8 or 16; 0: until /stop)
    ready_s: int = 30  # seconds between hands before the next one starts without those not ready
    ready_until: float | None = None  # the ready phase in progress ends then (None: none in progress)
    ready: tuple[int, ...] = ()  # seats whose player pressed Ready in the phase in progress
    vote: int = 0  # the number of the table's latest stop vote (申请解散; 0: none yet)
    vote_until: float | None = None  # the stop vote in progress ends then (None: none in progress)
    vote_by: int | None = None  # who asked for it
    vote_msg: int | None = None  # the group's tally message of the vote (edited in place)
    vote_agree: bool = True  # the room's rule: at the vote's end those who did not answer agree
    ai_level: str | None = None  # the AI seats' strength (bot/ai/levels.py; None: the bot's default)
    vote_yes: tuple[int, ...] = ()  # seats whose player agreed to the vote in progress
    vote_no: tuple[int, ...] = ()  # ... and refused it
    vote_prompts: tuple[tuple[int, int], ...] = ()  # (seat, message id) of each private prompt of the vote


@dataclass(frozen=True, slots=True)
class SeatPlay:
    """One seat during a hand: on auto-play, timeouts in a row, and its open decision (the state version
    it started at and its deadline, both None when it has none)."""

    seat: int
    auto: bool = False
    timeouts: int = 0
    since: int | None = None
    deadline: float | None = None


@dataclass(frozen=True, slots=True)
class Post:
    """A one-off message of a table (a hand's result in a player's private chat, a note to the group) in the
    outbox (schema v9): written in the transaction of what caused it, deleted once sent. ``keyboard`` is the
    Bot API's reply_markup as JSON; ``id`` (0 until stored) orders a chat's messages."""

    chat_id: int
    text: str
    keyboard: str | None = None
    id: int = 0
    table_id: int = 0


@dataclass(frozen=True, slots=True)
class Restored:
    """One open table after a restart. ``hand``/``state`` are None when no hand is in progress (a lobby,
    or between hands); ``error`` says why a hand could not be rebuilt (``state`` is then None).
    ``settings``, ``seats`` (each seat's ``SeatPlay``) and ``panels`` (user id -> his panel's message id)
    are the bot's state of the table as last stored."""

    table: Table
    hand: Hand | None
    state: engine.State | None
    error: str | None = None
    settings: TableSettings = TableSettings()
    seats: tuple[SeatPlay, ...] = ()
    panels: Mapping[int, int] | None = None
    facts: Any = None  # the hand's facts so far (``storage.facts.Facts``), gathered by its replay


@dataclass(frozen=True, slots=True)
class Standing:
    """One leaderboard line for a player in a chat over a period."""

    user_id: int
    name: str | None  # None if the player was never recorded with ``upsert_player``
    points: int
    hands: int
    wins: int
    best: int  # the largest single-hand gain (0 if the player never gained)


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    """One finished hand from a player's point of view."""

    hand_id: int
    table_id: int
    chat_id: int
    number: int
    seat: int
    delta: int
    win: bool
    ended_at: datetime


def result_to_json(state: engine.State) -> dict[str, Any]:
    """The stored form of an ended hand: the result plus every settlement (names, birds, payments), so that
    history can explain a score without replaying. ``deltas``/``winners`` feed ``score_deltas``."""
    if state.phase != engine.Phase.ENDED or state.result is None:
        raise ValueError("only an ended hand has a result")
    r = state.result
    return {
        "reason": r.reason,
        "winners": list(r.winners),
        "deltas": list(r.deltas),
        "next_dealer": r.next_dealer,
        "settlements": [
            {
                "kind": s.kind,
                "winners": list(s.winners),
                "hands": [[seat, list(names)] for seat, names in s.hands],
                "birds": list(s.birds),
                "payments": [[p.payer, p.payee, p.amount, p.hits] for p in s.payments],
                "deltas": list(s.deltas),
                "note": s.note,
            }
            for s in state.settlements
        ],
    }


@dataclass(frozen=True, slots=True)
class SeatStats:
    """What one seat did in one finished hand (``seat_stats``, derived by replaying the hand)."""

    hand_id: int
    seat: int
    user_id: int | None  # None: an AI seat
    delta: int
    win: bool  # 胡
    self_draw: bool  # 自摸
    deal_ins: int  # 点炮: wins made on this seat's discard (or robbed kong, or shown last tile)
    kongs: int  # 杠 made
    best: tuple[str, ...]  # the hand-name ids of its win (empty: no win)
    best_value: int | None  # what that win's settlement gave it (None: no win)


@dataclass(frozen=True, slots=True)
class VariantStats:
    """A player's figures in one variant (``/stats``)."""

    variant: str
    hands: int
    wins: int
    self_draws: int
    deal_ins: int
    points: int
    best: tuple[str, ...]  # the hand names of his most valuable win (empty: none)
    best_value: int | None
    rating: Rating | None = None


@dataclass(frozen=True, slots=True)
class Rating:
    """An openskill rating (Plackett-Luce): ``mu`` the estimate, ``sigma`` its uncertainty."""

    mu: float
    sigma: float
    hands: int

    @property
    def ordinal(self) -> float:
        """The conservative estimate shown to players: mu - 3 sigma (openskill's ``ordinal``)."""
        return self.mu - 3 * self.sigma


@dataclass(frozen=True, slots=True)
class FinishedHandRow:
    """One finished hand of a group, as /history lists it."""

    hand: Hand
    variant: str


@dataclass(frozen=True, slots=True)
class RoomSettings:
    """A group's last room settings for one variant (``chat_variant_settings``)."""

    options: Mapping[str, Any]
    seats: int
    rounds: int
    ready_s: int
    claim_s: int
    discard_s: int
    pause_s: int
    vote_agree: bool = True
    ai_level: str | None = None
