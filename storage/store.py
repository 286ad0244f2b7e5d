"""``Storage``: the one object that talks to the database. Everything is async (aiosqlite).

Design, in short:

* One connection per ``Storage`` (SQLite serialises writers anyway), owned by aiosqlite's thread. Each
  store call - a single statement, reads that must agree, or a whole transaction - is one trip to that
  thread (``_on_thread``): a transaction costs one wake-up of each thread, not one per statement, and the
  thread's first-in-first-out queue keeps every other statement out of it. Calls are pipelined: 200 busy
  tables queue their work without waiting for one another's round trips.
* Writes cannot be cut short by cancellation: a transaction that was queued always ends in COMMIT or
  ROLLBACK, even if the calling handler is cancelled (the caller still sees ``CancelledError``).
* ``log_action`` is one INSERT of one row; a trigger in the schema checks the version order, so one
  accepted action is one transaction, and a duplicate or a gap is refused by the database itself.
* The action log is the source of truth for a hand in progress; ``restore`` rebuilds each open table's
  current hand by replaying it through the engine.
"""

from __future__ import annotations

import asyncio
import json
import math
import os
import secrets
import sqlite3
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite
import asyncpg

import engine

from . import ratings as rating_model
from . import schema
from .errors import (
    CorruptDatabase,
    HandFinished,
    HandInProgress,
    IncompatibleDatabase,
    InvalidInput,
    NotFound,
    OpenError,
    ReadOnlyDatabase,
    ReplayError,
    StorageError,
    TableClosed,
    VersionConflict,
)
from .facts import Facts, seat_facts
from .facts import SeatFacts as DerivedFacts
from .models import (
    DISPLAYS,
    LANGUAGES,
    MAX_PAUSE_S,
    ROUNDS,
    FinishedHandRow,
    Hand,
    HandReplay,
    HistoryEntry,
    LoggedAction,
    Period,
    Player,
    Post,
    Rating,
    Restored,
    RoomSettings,
    SeatPlay,
    SeatStats,
    Standing,
    Table,
    TableSettings,
    TableStatus,
    VariantStats,
    result_to_json,
    to_datetime,
)

T = TypeVar("T")
# What a refused write looks like on either database (a constraint, or one of our triggers' RAISE)
_INTEGRITY = (sqlite3.IntegrityError, asyncpg.IntegrityConstraintViolationError, asyncpg.RaiseError)
POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def is_postgres_url(path: object) -> bool:
    """Whether ``MAHJONG_DB`` names a PostgreSQL server (``postgresql://...``) rather than an SQLite file."""
    return isinstance(path, str) and path.startswith(POSTGRES_SCHEMES)


Clock = Callable[[], float]
Row = Any  # sqlite3 rows are tuples of SQL values

_INT64_MIN, _INT64_MAX = -(2**63), 2**63 - 1
_SYNCHRONOUS = ("NORMAL", "FULL", "EXTRA")

_TABLE_COLS = "id, chat_id, variant, options, seats, status, created_at"
# a hand's version is its last action's (0 before the first): derived, so logging writes a single row
_HAND_VERSION = (
    "COALESCE((SELECT a.version FROM actions AS a WHERE a.hand_id = hands.id ORDER BY a.seq DESC LIMIT 1), 0)"
)
_HAND_COLS = (
    "id, table_id, number, seed, dealer, dealer_drawn, seats, options, "
    f"{_HAND_VERSION}, result, started_at, ended_at, result_delivered, code, salt"
)
_SETTINGS_COLS = (
    "lang, claim_s, discard_s, pause_s, host, editing, lobby_msg, table_msg, rounds, ready_s, ready_until"
)
_SETTINGS_MARKS = ", ".join("?" * len(_SETTINGS_COLS.split(", ")))
_SETTING_TYPES: dict[str, Any] = {
    "lang": str,
    "claim_s": int,
    "discard_s": int,
    "pause_s": int,
    "host": (int, type(None)),
    "editing": bool,
    "lobby_msg": (int, type(None)),
    "table_msg": (int, type(None)),
    "rounds": int,
    "ready_s": int,
    "ready_until": (int, float, type(None)),
}
_SEAT_SETS = ("ai", "ready")  # settings kept per seat in ``table_seats`` (a tuple of seat numbers each)
# a hand's public code: lower-case letters and digits that cannot be misread (no 0/o, 1/l/i), ~50 bits
CODE_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"
CODE_LENGTH = 10
MIN_CODE, MAX_CODE = 4, 32  # what a typed code may look like before it is looked up
MAX_SEATS = 4  # rows in table_seats per table


@dataclass(frozen=True, slots=True)
class ArchivedHand:
    """A finished hand to import in bulk (old archives, benchmarks). The caller vouches that ``result``
    is what replaying ``actions`` gives; ``Storage.rebuild`` can check it later."""

    seed: int
    dealer: int
    dealer_drawn: bool  # True if the dealer came from the seed (``new_hand(dealer=None)``)
    seats: Sequence[int | None]
    options: Mapping[str, Any]
    actions: Sequence[str]
    result: Mapping[str, Any]
    started_at: float
    ended_at: float


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True, ensure_ascii=False)


def _errname(e: sqlite3.Error) -> str:
    return str(getattr(e, "sqlite_errorname", ""))


def _open_error(path: Path, e: sqlite3.Error) -> OpenError:
    """Turn what SQLite says at open into a plain, actionable message."""
    name, msg = _errname(e), str(e)
    if name in ("SQLITE_NOTADB", "SQLITE_CORRUPT") or "not a database" in msg or "malformed" in msg:
        return CorruptDatabase(
            f"{path} is not a usable database ({msg}); restore it from a backup or move it out of the way"
        )
    if name.startswith("SQLITE_READONLY") or "readonly" in msg:
        return ReadOnlyDatabase(
            f"{path} is read-only ({msg}); the bot must write every accepted action, so give it write "
            "access to the file and its directory"
        )
    if name.startswith("SQLITE_BUSY") or "locked" in msg:
        return OpenError(f"{path} is locked by another process ({msg})")
    return OpenError(f"cannot open {path}: {msg}")


def _check_int64(name: str, value: int) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or not _INT64_MIN <= value <= _INT64_MAX:
        raise InvalidInput(f"{name} must be an integer that fits in 64 bits, not {value!r}")


def _variant(variant: str) -> engine.Variant:
    try:
        return engine.get_variant(variant)
    except engine.EngineError as e:
        raise InvalidInput(str(e)) from None


def _resolve_options(variant: engine.Variant, options: Mapping[str, Any] | None) -> dict[str, Any]:
    """Store options with every default filled in, so a later change of default never changes a replay."""
    try:
        return dict(variant.make_options(options))
    except engine.EngineError as e:
        raise InvalidInput(str(e)) from None


def _check_seats(variant: engine.Variant, seats: Sequence[int | None]) -> tuple[int | None, ...]:
    out = tuple(seats)
    for s in out:
        if s is not None:
            _check_int64("a seat's user id", s)
    if len(out) > max(variant.seat_counts):
        raise InvalidInput(f"{variant.id} seats at most {max(variant.seat_counts)} players, not {len(out)}")
    taken = [s for s in out if s is not None]
    if len(taken) != len(set(taken)):
        raise InvalidInput("a player cannot take two seats at one table")
    return out


def _table(row: Row) -> Table:
    return Table(
        id=row[0],
        chat_id=row[1],
        variant=row[2],
        options=json.loads(row[3]),
        seats=tuple(json.loads(row[4])),
        status=TableStatus(row[5]),
        created_at=to_datetime(row[6]),
    )


def _hand(row: Row) -> Hand:
    return Hand(
        id=row[0],
        table_id=row[1],
        number=row[2],
        seed=row[3],
        dealer=row[4],
        dealer_drawn=bool(row[5]),
        seats=tuple(json.loads(row[6])),
        options=json.loads(row[7]),
        version=row[8],
        result=json.loads(row[9]) if row[9] is not None else None,
        started_at=to_datetime(row[10]),
        ended_at=to_datetime(row[11]) if row[11] is not None else None,
        result_delivered=bool(row[12]),
        code=row[13] or "",
        salt=row[14],
    )


def _settings(row: Row, ai: Iterable[int], ready: Iterable[int] = ()) -> TableSettings:
    return TableSettings(
        lang=row[0],
        claim_s=row[1],
        discard_s=row[2],
        pause_s=row[3],
        host=row[4],
        editing=bool(row[5]),
        lobby_msg=row[6],
        table_msg=row[7],
        ai=tuple(sorted(ai)),
        rounds=row[8],
        ready_s=row[9],
        ready_until=row[10],
        ready=tuple(sorted(ready)),
    )


def _check_language(language: str | None) -> str | None:
    if language is not None and language not in LANGUAGES:
        raise InvalidInput(f"language must be one of {', '.join(LANGUAGES)}, not {language!r}")
    return language


def _check_settings(changes: Mapping[str, Any]) -> dict[str, Any]:
    """Typed, in-range settings (the schema's CHECKs say the same; this gives a clear message first)."""
    out: dict[str, Any] = {}
    for key, value in changes.items():
        if key in _SEAT_SETS:
            seats = tuple(value)
            if not all(isinstance(x, int) and not isinstance(x, bool) and 0 <= x < MAX_SEATS for x in seats):
                raise InvalidInput(f"{key} seats must be seat numbers 0-{MAX_SEATS - 1}, not {value!r}")
            out[key] = seats
            continue
        kind = _SETTING_TYPES.get(key)
        if kind is None:
            raise InvalidInput(f"no table setting {key!r}")
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise InvalidInput(f"table setting {key} cannot be {value!r}")
        if key == "lang":
            _check_language(value)
        elif key in ("claim_s", "discard_s") and not 5 <= value <= 3600:
            raise InvalidInput(f"{key} must be 5-3600 seconds, not {value}")
        elif key == "pause_s" and not 0 <= value <= MAX_PAUSE_S:
            raise InvalidInput(f"pause_s must be 0-{MAX_PAUSE_S} seconds, not {value}")
        elif key in ("lobby_msg", "table_msg") and value is not None and value <= 0:
            raise InvalidInput(f"{key} must be a message id, not {value}")
        elif key == "rounds" and value not in ROUNDS:
            raise InvalidInput(f"rounds must be one of {ROUNDS}, not {value}")
        elif key == "ready_s" and not 5 <= value <= 600:
            raise InvalidInput(f"ready_s must be 5-600 seconds, not {value}")
        elif key == "ready_until" and value is not None and not (math.isfinite(value) and value > 0):
            raise InvalidInput(f"ready_until must be a time, not {value}")
        elif isinstance(value, int) and not isinstance(value, bool):
            _check_int64(key, value)
        out[key] = int(value) if isinstance(value, bool) else value
    return out


def _seat_rows(table_id: int, seats: Iterable[SeatPlay]) -> list[tuple[Any, ...]]:
    rows = []
    for p in seats:
        if not 0 <= p.seat < MAX_SEATS or p.timeouts < 0 or (p.since is None) != (p.deadline is None):
            raise InvalidInput(f"table {table_id}: not a seat's state: {p!r}")
        rows.append((int(p.auto), p.timeouts, p.since, p.deadline, table_id, p.seat))
    return rows


_UPDATE_SEAT = (
    "UPDATE table_seats SET auto = ?, timeouts = ?, since = ?, deadline = ? WHERE table_id = ? AND seat = ?"
)
_CLEAR_PLAY = (
    "UPDATE table_seats SET auto = 0, timeouts = 0, since = NULL, deadline = NULL WHERE table_id = ?"
)


def period_bounds(period: Period | str, now: datetime) -> tuple[float, float]:
    """[start, end) of the calendar period containing ``now``, in ``now``'s own timezone, as UTC seconds.

    The caller passes ``now`` (aware) so that "this week" is the chat's week, and tests need no clock.
    """
    period = Period(period)
    if period == Period.ALL:
        return -math.inf, math.inf
    if now.tzinfo is None or now.utcoffset() is None:
        raise InvalidInput("now must be timezone-aware: a week or a month starts at local midnight")
    midnight = now.replace(hour=0, minute=0, second=0, microsecond=0)
    if period == Period.WEEK:
        start = midnight - timedelta(days=now.weekday())
        end = start + timedelta(days=7)
    else:
        start = midnight.replace(day=1)
        end = (
            start.replace(year=start.year + 1, month=1)
            if start.month == 12
            else start.replace(month=start.month + 1)
        )
    return start.timestamp(), end.timestamp()


def replay_actions(variant: str, hand: Hand, actions: Iterable[LoggedAction]) -> engine.State:
    """Rebuild a hand from its record, checking that every step lands on the version that was logged."""
    return replay_with_facts(variant, hand, actions)[0]


def replay_with_facts(
    variant: str, hand: Hand, actions: Iterable[LoggedAction]
) -> tuple[engine.State, Facts]:
    """``replay_actions``, gathering the hand's facts on the way (``storage/facts.py``)."""
    try:
        state = engine.new_hand(_variant(variant), hand.seed, hand.options, hand.dealer_arg, len(hand.seats))
    except (engine.EngineError, InvalidInput) as e:
        raise ReplayError(f"hand {hand.id} cannot be dealt again: {e}") from None
    return replay_from(hand, state, Facts(), actions)


def replay_from(
    hand: Hand, state: engine.State, facts: Facts, actions: Iterable[LoggedAction]
) -> tuple[engine.State, Facts]:
    """``replay_with_facts`` from a state already reached (the hand's actions after it): a worker catching up
    with the actions another worker logged."""
    for a in actions:
        try:
            before, action = state, engine.Action.parse(a.action)
            state, events = engine.apply(before, action)
        except engine.EngineError as e:
            raise ReplayError(f"hand {hand.id}: action #{a.seq} {a.action!r} does not replay: {e}") from None
        facts = facts.after(before, action, events)
        if state.version != a.version:
            raise ReplayError(
                f"hand {hand.id}: action #{a.seq} {a.action!r} gave version {state.version}, "
                f"the log says {a.version}"
            )
    if state.version != hand.version:
        raise ReplayError(
            f"hand {hand.id}: replay reached version {state.version}, the hand says {hand.version}"
        )
    return state, facts


class _OnThread:
    """The three calls the store's SQL makes (``execute``, ``execute_fetchall``, ``executemany``), carried out
    at once on the raw sqlite3 connection, on the database thread itself (``_on_thread``). They are
    awaitable, so the store's functions are the same code on PostgreSQL (asyncpg, ``storage/postgres.py``);
    here nothing inside them ever waits, and a whole function runs in one go on that thread."""

    __slots__ = ("_c",)

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._c = conn

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> None:
        self._c.execute(sql, params)

    async def execute_fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        return self._c.execute(sql, params).fetchall()

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        self._c.executemany(sql, rows)

    @property
    def in_transaction(self) -> bool:
        return self._c.in_transaction


def _run_now(fn: Callable[[Any], Awaitable[T]], conn: sqlite3.Connection) -> T:
    """Run the store function ``fn`` to its end on ``conn`` without an event loop (on the database thread):
    its awaits are ``_OnThread``'s, which never suspend."""
    coro = fn(_OnThread(conn))
    try:
        coro.send(None)  # type: ignore[attr-defined]
    except StopIteration as done:
        return done.value  # type: ignore[no-any-return]
    coro.close()  # type: ignore[attr-defined]
    raise StorageError("a storage function waited for something other than the database")


def _in_transaction(fn: Callable[[Any], Awaitable[T]], conn: sqlite3.Connection) -> T:
    """``fn`` in one BEGIN IMMEDIATE transaction, ended by COMMIT (or ROLLBACK if it fails)."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        out = _run_now(fn, conn)
        conn.execute("COMMIT")
        return out
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise


def _storage_error(e: BaseException) -> BaseException:
    """What the storage raises for an error on the database thread: the store's own as it is, SQLite's as a
    ``StorageError``, a ValueError (aiosqlite: the connection closed meanwhile) as "closed"; anything else
    unchanged."""
    if isinstance(e, StorageError):
        return e
    if isinstance(e, sqlite3.Error):
        return StorageError(f"database error: {e}")
    if isinstance(e, ValueError):
        return StorageError("the storage is closed")
    return e


def _each_in_transaction(
    works: Sequence[tuple[Callable[[Any], Awaitable[T]], bool]], conn: sqlite3.Connection
) -> tuple[list[T], BaseException | None]:
    """Each of ``works`` in order, each its own transaction (a single statement on its own, else ``BEGIN
    IMMEDIATE`` ... ``COMMIT``), stopping at the first that fails (rolled back): the results of those
    committed, and the error (None when all were)."""
    out: list[T] = []
    for fn, single in works:
        try:
            out.append(_run_now(fn, conn) if single else _in_transaction(fn, conn))
        except Exception as e:
            return out, e
    return out, None


@dataclass(frozen=True, slots=True)
class ActionLog:
    """One action to log (``Storage.log_action``'s arguments), for ``Storage.log_actions``."""

    hand_id: int
    action: str | engine.Action
    version: int
    final: engine.State | None = None
    table_id: int | None = None
    seats: Sequence[SeatPlay] = ()
    facts: Facts | None = None
    posts: Sequence[Post] = ()  # one-off messages of ``table_id`` it causes (the outbox, v9)


class Storage:
    """The bot's persistence: tables, players, hands, the action log and scores, in one SQLite file.

    Open with ``await Storage.open(path)``; use as ``async with`` or call ``close()``.
    """

    # SQL that the two databases spell differently (PostgreSQL's in ``storage/postgres.py``)
    dialect = "sqlite"
    _SCORED = "json_type(result, '$.deltas') = 'array'"  # a hand ended with scores (not abandoned)
    _PENDING = "derive_pending"  # matches the partial index hands_derive_pending

    def __init__(self, db: aiosqlite.Connection, path: Path, clock: Clock) -> None:
        """Use ``Storage.open``: it configures and migrates the connection first."""
        self._db: aiosqlite.Connection | None = db
        self.path = path
        self._clock = clock

    # ------------------------------------------------------------------ open / close

    @classmethod
    async def open(
        cls,
        path: str | os.PathLike[str],
        *,
        synchronous: str = "NORMAL",
        busy_timeout: float = 5.0,
        check: bool = True,
        clock: Clock = time.time,
    ) -> Storage:
        """Open (creating if needed) and migrate the database at ``path``.

        ``path`` may also be a ``postgresql://`` URL: the same storage on a PostgreSQL server
        (``storage/postgres.py``; the SQLite options do not apply there).

        Fails early and clearly (``OpenError`` subclasses) rather than half-way through a game: corrupt or
        foreign files, newer schemas and read-only files are refused before anything is written.
        ``synchronous``: NORMAL (WAL: a committed action survives a process crash; an OS crash may lose the
        last few) or FULL (fsync at every commit). ``check`` runs ``PRAGMA quick_check`` on existing files.
        ``clock`` gives the times stored with each row (UTC seconds); tests pass a fake one.
        """
        if is_postgres_url(path):
            from .postgres import PgStorage

            return await PgStorage.connect(str(path), clock=clock)
        p = Path(path)
        sync = synchronous.upper()
        if sync not in _SYNCHRONOUS:
            raise InvalidInput(f"synchronous must be one of {', '.join(_SYNCHRONOUS)}, not {synchronous!r}")
        if p.is_dir():
            raise OpenError(f"{p} is a directory, not a database file")
        if not p.parent.is_dir():
            raise OpenError(f"cannot open {p}: the directory {p.parent} does not exist")
        existed = p.exists() and p.stat().st_size > 0
        try:
            db = await aiosqlite.connect(p, isolation_level=None, timeout=busy_timeout)
        except sqlite3.Error as e:
            raise _open_error(p, e) from None
        try:
            await cls._prepare(db, p, sync, busy_timeout, check and existed)
        except BaseException:
            await db.close()
            raise
        return cls(db, p, clock)

    @staticmethod
    async def _prepare(
        db: aiosqlite.Connection, p: Path, sync: str, busy_timeout: float, check: bool
    ) -> None:
        try:
            # reads first: a corrupt or foreign file is refused before anything is written to it
            version = await schema.user_version(db)
            app_id = await _scalar(db, "PRAGMA application_id")
            objects = await _scalar(db, "SELECT count(*) FROM sqlite_master")
            if app_id not in (0, schema.APPLICATION_ID):
                raise IncompatibleDatabase(f"{p} belongs to another application (application_id {app_id:#x})")
            if version == 0 and objects:
                raise IncompatibleDatabase(f"{p} already holds tables that this bot did not create")
            if version > schema.LATEST:
                raise IncompatibleDatabase(
                    f"{p} has schema version {version}, newer than this code knows ({schema.LATEST}): "
                    "run a newer version of the bot"
                )
            if check:
                problems = await db.execute_fetchall("PRAGMA quick_check(1)")
                if [tuple(r) for r in problems] != [("ok",)]:
                    detail = "; ".join(str(r[0]) for r in problems)
                    raise CorruptDatabase(
                        f"{p} failed its integrity check ({detail}); restore it from a backup"
                    )
            await db.execute(f"PRAGMA busy_timeout = {int(busy_timeout * 1000)}")
            # write probe: a read-only file must fail here, not at the first accepted action
            await db.execute("BEGIN IMMEDIATE")
            try:
                await db.execute(f"PRAGMA user_version = {version}")
            finally:
                await db.execute("ROLLBACK")
            mode = await _scalar(db, "PRAGMA journal_mode = WAL")
            if str(mode).lower() != "wal":
                raise OpenError(f"{p} cannot use write-ahead logging (journal mode stays {mode!r})")
            await db.execute(f"PRAGMA synchronous = {sync}")
            await db.execute("PRAGMA foreign_keys = ON")
            await schema.migrate(db)
        except sqlite3.Error as e:
            raise _open_error(p, e) from None

    async def close(self) -> None:
        """Wait for writes in flight (queued before the close: the database thread is first in, first out),
        then close. Safe to call twice."""
        if self._db is not None:
            db, self._db = self._db, None
            await db.close()

    async def settings(self) -> dict[str, Any]:
        """The connection's durability settings, for a status command and for tests."""

        async def run(db: aiosqlite.Connection) -> dict[str, Any]:
            out: dict[str, Any] = {}
            for name in ("journal_mode", "synchronous", "busy_timeout", "foreign_keys", "user_version"):
                out[name] = await _scalar(db, f"PRAGMA {name}")
            out["synchronous"] = {0: "OFF", 1: "NORMAL", 2: "FULL", 3: "EXTRA"}[out["synchronous"]]
            return out

        return await self._read(run)

    async def __aenter__(self) -> Storage:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # ------------------------------------------------------------------ plumbing

    def _conn(self) -> aiosqlite.Connection:
        if self._db is None:
            raise StorageError("the storage is closed")
        return self._db

    async def _on_thread(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``work`` on the database thread (aiosqlite's, which owns the connection), in one trip: the
        thread takes its work first in, first out, so nothing else runs on the connection meanwhile. Once
        queued, the work runs to its end even if the caller is cancelled (who then sees ``CancelledError``):
        a transaction that started always ends in COMMIT or ROLLBACK."""
        db = self._conn()
        try:
            return await db._execute(work, db._conn)  # type: ignore[no-untyped-call,no-any-return]
        except (sqlite3.Error, ValueError) as e:
            error = _storage_error(e)
            if error is e:  # the store's own (InvalidInput)
                raise
            raise error from e

    async def _single(self, fn: Callable[[aiosqlite.Connection], Awaitable[T]]) -> T:
        """Run ``fn``, which issues one statement (plus, on failure, reads that explain it): atomic by itself
        in autocommit mode."""
        return await self._on_thread(partial(_run_now, fn))

    async def _read(self, fn: Callable[[aiosqlite.Connection], Awaitable[T]]) -> T:
        """Run several reads that must agree with each other, with nothing else in between."""
        return await self._on_thread(partial(_run_now, fn))

    async def _write(self, fn: Callable[[aiosqlite.Connection], Awaitable[T]]) -> T:
        """Run ``fn`` in one BEGIN IMMEDIATE transaction, in one trip to the database thread (not one per
        statement): it ends in COMMIT (or ROLLBACK on error) even if the caller is cancelled."""
        return await self._on_thread(partial(_in_transaction, fn))

    def _now(self) -> float:
        return float(self._clock())

    # ------------------------------------------------------------------ players

    async def upsert_player(self, user_id: int, name: str, language: str | None = None) -> Player:
        """Record or refresh a player's display name, and his client's language ("zh"/"en"; None keeps the
        old one). A language he chose with ``set_player_language`` is kept over his client's."""
        _check_int64("user_id", user_id)
        _check_language(language)
        now = self._now()

        async def run(db: aiosqlite.Connection) -> Player:
            rows = await db.execute_fetchall(
                """
                INSERT INTO players (user_id, name, language, updated_at) VALUES (?, ?, ?, ?)
                ON CONFLICT (user_id) DO UPDATE SET
                    name = excluded.name,
                    language = CASE WHEN players.language_chosen = 1 THEN players.language
                                    ELSE COALESCE(excluded.language, players.language) END,
                    updated_at = excluded.updated_at
                RETURNING user_id, name, language, language_chosen
                """,
                (user_id, name, language, now),
            )
            r = list(rows)[0]
            return Player(r[0], r[1], r[2], bool(r[3]))

        return await self._single(run)

    async def set_player_language(self, user_id: int, language: str) -> Player:
        """The language a player chose (/lang in private): kept whatever his client says later."""
        _check_int64("user_id", user_id)
        _check_language(language)
        now = self._now()

        async def run(db: aiosqlite.Connection) -> Player:
            rows = await db.execute_fetchall(
                """
                INSERT INTO players (user_id, name, language, language_chosen, updated_at)
                VALUES (?, '', ?, 1, ?)
                ON CONFLICT (user_id) DO UPDATE SET language = excluded.language, language_chosen = 1
                RETURNING user_id, name, language, language_chosen
                """,
                (user_id, language, now),
            )
            r = list(rows)[0]
            return Player(r[0], r[1], r[2], bool(r[3]))

        return await self._single(run)

    async def get_player(self, user_id: int) -> Player | None:
        async def run(db: aiosqlite.Connection) -> Player | None:
            rows = list(
                await db.execute_fetchall(
                    "SELECT user_id, name, language, language_chosen FROM players WHERE user_id = ?",
                    (user_id,),
                )
            )
            if not rows:
                return None
            r = rows[0]
            return Player(r[0], r[1], r[2], bool(r[3]))

        return await self._single(run)

    # ------------------------------------------------------------------ chats

    async def chat_languages(self) -> dict[int, str]:
        """Every group's chosen language (a few bytes per group: loaded once at start)."""

        async def run(db: aiosqlite.Connection) -> dict[int, str]:
            rows = await db.execute_fetchall(
                "SELECT chat_id, language FROM chat_settings WHERE language IS NOT NULL"
            )
            return {int(r[0]): str(r[1]) for r in rows}

        return await self._single(run)

    async def set_chat_language(
        self, chat_id: int, language: str | None, table_id: int | None = None
    ) -> None:
        """A group's language (/lang there); with ``table_id``, that table's messages change with it in the
        same transaction."""
        _check_int64("chat_id", chat_id)
        _check_language(language)

        async def run(db: aiosqlite.Connection) -> None:
            await db.execute(
                "INSERT INTO chat_settings (chat_id, language) VALUES (?, ?) "
                "ON CONFLICT (chat_id) DO UPDATE SET language = excluded.language",
                (chat_id, language),
            )
            if table_id is not None and language is not None:
                await db.execute(
                    "UPDATE table_settings SET lang = ? WHERE table_id = ?", (language, table_id)
                )

        await self._write(run)

    async def chat_displays(self) -> dict[int, str]:
        """Every chat's chosen display mode (pictures or text; a few bytes per chat: loaded once at start)."""

        async def run(db: aiosqlite.Connection) -> dict[int, str]:
            rows = await db.execute_fetchall(
                "SELECT chat_id, display FROM chat_settings WHERE display IS NOT NULL"
            )
            return {int(r[0]): str(r[1]) for r in rows}

        return await self._single(run)

    async def set_chat_display(self, chat_id: int, display: str | None) -> None:
        """How a chat (a group, or a player's private chat) shows a game: "pictures" or "text" (None: not
        chosen)."""
        _check_int64("chat_id", chat_id)
        if display is not None and display not in DISPLAYS:
            raise InvalidInput(f"display must be one of {', '.join(DISPLAYS)}, not {display!r}")

        async def run(db: aiosqlite.Connection) -> None:
            await db.execute(
                "INSERT INTO chat_settings (chat_id, display) VALUES (?, ?) "
                "ON CONFLICT (chat_id) DO UPDATE SET display = excluded.display",
                (chat_id, display),
            )

        await self._write(run)

    async def migrate_chat(self, old_chat: int, new_chat: int) -> list[int]:
        """A group became a supergroup (Telegram's ``migrate_to_chat_id``): its tables, score rows, totals
        and settings move to the new chat id. The group's message ids do not carry over (they are
        forgotten). Returns the ids of the open tables that moved; running it twice moves nothing more."""
        _check_int64("chat_id", old_chat)
        _check_int64("chat_id", new_chat)

        async def run(db: aiosqlite.Connection) -> list[int]:
            rows = await db.execute_fetchall(
                "SELECT id FROM tables WHERE chat_id = ? AND status = 'open' ORDER BY id", (old_chat,)
            )
            moved = [int(r[0]) for r in rows]
            await db.executemany(
                "UPDATE table_settings SET lobby_msg = NULL, table_msg = NULL WHERE table_id = ?",
                [(t,) for t in moved],
            )
            await db.execute("UPDATE tables SET chat_id = ? WHERE chat_id = ?", (new_chat, old_chat))
            await db.execute("UPDATE score_deltas SET chat_id = ? WHERE chat_id = ?", (new_chat, old_chat))
            await db.execute("UPDATE outbox SET chat_id = ? WHERE chat_id = ?", (new_chat, old_chat))
            await db.execute(
                """
                INSERT INTO chat_totals (chat_id, user_id, points, hands, wins, best)
                SELECT CAST(? AS BIGINT), user_id, points, hands, wins, best FROM chat_totals
                WHERE chat_id = ? AND true
                ON CONFLICT (chat_id, user_id) DO UPDATE SET
                    points = chat_totals.points + excluded.points,
                    hands = chat_totals.hands + excluded.hands,
                    wins = chat_totals.wins + excluded.wins,
                    best = CASE WHEN excluded.best > chat_totals.best THEN excluded.best
                                ELSE chat_totals.best END
                """,
                (new_chat, old_chat),
            )
            await db.execute("DELETE FROM chat_totals WHERE chat_id = ?", (old_chat,))
            await db.execute(
                """
                INSERT INTO chat_settings (chat_id, language, display)
                SELECT CAST(? AS BIGINT), language, display FROM chat_settings WHERE chat_id = ? AND true
                ON CONFLICT (chat_id) DO UPDATE SET
                    language = COALESCE(chat_settings.language, excluded.language),
                    display = COALESCE(chat_settings.display, excluded.display)
                """,
                (new_chat, old_chat),
            )
            await db.execute("DELETE FROM chat_settings WHERE chat_id = ?", (old_chat,))
            await db.execute("UPDATE seat_stats SET chat_id = ? WHERE chat_id = ?", (new_chat, old_chat))
            # the new chat's own rows (if any) win
            for table, key in (("ratings", "variant, user_id"), ("chat_variant_settings", "variant")):
                same = " AND ".join(f"n.{k} = {table}.{k}" for k in key.split(", "))
                await db.execute(
                    f"UPDATE {table} SET chat_id = ? WHERE chat_id = ? AND NOT EXISTS "
                    f"(SELECT 1 FROM {table} AS n WHERE n.chat_id = ? AND {same})",
                    (new_chat, old_chat, new_chat),
                )
                await db.execute(f"DELETE FROM {table} WHERE chat_id = ?", (old_chat,))
            return moved

        return await self._write(run)

    # ------------------------------------------------------------------ tables

    async def create_table(
        self,
        chat_id: int,
        variant: str,
        options: Mapping[str, Any] | None = None,
        seats: Sequence[int | None] = (),
        settings: TableSettings | None = None,
    ) -> Table:
        """A new open table in a chat, with its bot settings (defaults if None). The variant and options are
        checked against the engine now, so a typo fails at /new rather than when the first hand is dealt."""
        _check_int64("chat_id", chat_id)
        rules = _variant(variant)
        opts = _resolve_options(rules, options)
        seat_ids = _check_seats(rules, seats)
        conf = settings or TableSettings()
        values = _check_settings({k: getattr(conf, k) for k in _SETTING_TYPES})
        ai = _check_settings({"ai": conf.ai})["ai"]
        now = self._now()

        async def run(db: aiosqlite.Connection) -> Table:
            rows = await db.execute_fetchall(
                f"""
                INSERT INTO tables (chat_id, variant, options, seats, status, created_at)
                VALUES (?, ?, ?, ?, 'open', ?) RETURNING {_TABLE_COLS}
                """,
                (chat_id, variant, _dumps(opts), _dumps(list(seat_ids)), now),
            )
            table = _table(list(rows)[0])
            await db.execute(
                f"INSERT INTO table_settings (table_id, {_SETTINGS_COLS}) VALUES (?, {_SETTINGS_MARKS})",
                (table.id, *(values[k] for k in _SETTINGS_COLS.split(", "))),
            )
            await db.executemany(
                "INSERT INTO table_seats (table_id, seat, ai) VALUES (?, ?, ?)",
                [(table.id, seat, int(seat in ai)) for seat in range(MAX_SEATS)],
            )
            return table

        return await self._write(run)

    async def table_settings(self, table_id: int) -> TableSettings:
        async def run(db: aiosqlite.Connection) -> TableSettings:
            return await _get_settings(db, table_id)

        return await self._read(run)

    async def update_settings(self, table_id: int, **changes: Any) -> TableSettings:
        """Change a table's bot settings (``TableSettings`` fields: lang, claim_s, discard_s, host, editing,
        lobby_msg, table_msg, ai) in one transaction; returns them as stored."""
        values = _check_settings(changes)

        async def run(db: aiosqlite.Connection) -> TableSettings:
            await _get_table(db, table_id)
            await _write_settings(db, table_id, values)
            return await _get_settings(db, table_id)

        return await self._write(run)

    async def update_lobby(
        self,
        table_id: int,
        *,
        seats: Sequence[int | None] | None = None,
        options: Mapping[str, Any] | None = None,
        remember: bool = False,
        **settings: Any,
    ) -> tuple[Table, TableSettings]:
        """``update_table`` and ``update_settings`` in one transaction (a seat taken stops being an AI
        seat, the seat count changes with the AI seats that still fit). ``remember``: the room's
        settings as they now are become the group's remembered ones for the variant (``remembered_room``)."""
        values = _check_settings(settings)

        async def run(db: aiosqlite.Connection) -> tuple[Table, TableSettings]:
            table = await _update_table(db, table_id, seats, options)
            await _write_settings(db, table_id, values)
            out = await _get_settings(db, table_id)
            if remember:
                await _remember_room(db, table, out)
            return table, out

        return await self._write(run)

    async def update_table(
        self,
        table_id: int,
        *,
        seats: Sequence[int | None] | None = None,
        options: Mapping[str, Any] | None = None,
    ) -> Table:
        """Change who sits where, or the room options, between hands. A hand in progress keeps the seats
        and options it started with (they are copied into the hand)."""

        async def run(db: aiosqlite.Connection) -> Table:
            return await _update_table(db, table_id, seats, options)

        return await self._write(run)

    async def close_table(self, table_id: int, note: str = "table closed") -> Table:
        """End a table: its unfinished hand (if any) is abandoned without scores. Kept for history."""
        now = self._now()

        async def run(db: aiosqlite.Connection) -> Table:
            await _get_table(db, table_id)
            await db.execute(
                "UPDATE hands SET result = ?, ended_at = ? WHERE table_id = ? AND ended_at IS NULL",
                (_dumps({"reason": "abandoned", "note": note}), now, table_id),
            )
            rows = await db.execute_fetchall(
                f"UPDATE tables SET status = 'closed' WHERE id = ? RETURNING {_TABLE_COLS}", (table_id,)
            )
            return _table(list(rows)[0])

        return await self._write(run)

    async def get_table(self, table_id: int) -> Table:
        async def run(db: aiosqlite.Connection) -> Table:
            return await _get_table(db, table_id)

        return await self._single(run)

    async def open_tables(self, chat_id: int | None = None) -> list[Table]:
        """Open tables, oldest first; in one chat if ``chat_id`` is given."""

        async def run(db: aiosqlite.Connection) -> list[Table]:
            if chat_id is None:
                rows = await db.execute_fetchall(
                    f"SELECT {_TABLE_COLS} FROM tables WHERE status = 'open' ORDER BY id"
                )
            else:
                rows = await db.execute_fetchall(
                    f"SELECT {_TABLE_COLS} FROM tables WHERE status = 'open' AND chat_id = ? ORDER BY id",
                    (chat_id,),
                )
            return [_table(r) for r in rows]

        return await self._single(run)

    # ------------------------------------------------------------------ hands

    async def start_hand(
        self,
        table_id: int,
        seed: int,
        dealer: int | None = None,
        options: Mapping[str, Any] | None = None,
        *,
        ai: Sequence[int] | None = None,
        seats_for: Callable[[engine.State], Iterable[SeatPlay]] | None = None,
        salt: str | None = None,
    ) -> tuple[Hand, engine.State]:
        """Deal the table's next hand and record it; returns the record and the dealt state (version 0).

        ``options`` overlay the table's for this hand only. ``dealer=None`` lets the engine draw it from the
        seed; the dealer actually used is stored, and whether it was drawn (replay needs to know).
        Refused while another hand of the table is unfinished. In the same transaction every seat's play
        state starts afresh (``seats_for(dealt state)`` gives the first decisions), ``ai`` replaces the
        lobby's AI seats, the lobby leaves its settings page and its ready phase ends. ``salt`` is kept
        secret with the seed for the hand's shuffle commitment. The hand gets a fresh public code.
        """
        _check_int64("seed", seed)
        if salt is not None and (not salt.isascii() or not salt.isalnum() or not 8 <= len(salt) <= 64):
            raise InvalidInput("a shuffle salt is 8-64 letters or digits")
        lobby = _check_settings(
            {
                "editing": False,
                "table_msg": None,
                "ready_until": None,
                "ready": (),
                **({"ai": ai} if ai is not None else {}),
            }
        )
        now = self._now()

        async def run(db: aiosqlite.Connection) -> tuple[Hand, engine.State]:
            table = await _get_table(db, table_id)
            if table.status != TableStatus.OPEN:
                raise TableClosed(f"table {table_id} is closed")
            variant = _variant(table.variant)
            opts = _resolve_options(variant, {**table.options, **(options or {})})
            if len(table.seats) not in variant.seat_counts:
                raise InvalidInput(
                    f"table {table_id} has {len(table.seats)} seats; {variant.id} needs {variant.seat_counts}"
                )
            try:
                state = engine.new_hand(variant, seed, opts, dealer, len(table.seats))
            except engine.EngineError as e:
                raise InvalidInput(str(e)) from None
            try:
                rows = await db.execute_fetchall(
                    _INSERT_HAND,
                    (
                        table_id,
                        table_id,
                        seed,
                        state.dealer,
                        int(dealer is None),
                        _dumps(list(table.seats)),
                        _dumps(opts),
                        now,
                        new_code(),
                        salt,
                    ),
                )
            except _INTEGRITY as e:
                if "hands.table_id" in str(e) or "hands_unfinished" in str(e):
                    raise HandInProgress(
                        f"table {table_id} already has an unfinished hand; finish or abandon it first"
                    ) from None
                raise
            await db.execute(_CLEAR_PLAY, (table_id,))
            await _write_settings(db, table_id, lobby)
            if seats_for is not None:
                await db.executemany(_UPDATE_SEAT, _seat_rows(table_id, seats_for(state)))
            return _hand(list(rows)[0]), state

        return await self._write(run)

    async def save_seats(self, table_id: int, seats: Iterable[SeatPlay], posts: Sequence[Post] = ()) -> None:
        """Seats' play state (auto-play, timeouts, open decisions) changed without an action, e.g. a player
        came back from auto-play: one transaction, with the ``posts`` that say so (the outbox)."""
        rows = _seat_rows(table_id, seats)
        post_rows = self._post_rows(table_id, posts)

        async def run(db: aiosqlite.Connection) -> None:
            await db.executemany(_UPDATE_SEAT, rows)
            if post_rows:
                await db.executemany(_INSERT_POST, post_rows)

        await self._write(run)

    # ------------------------------------------------------------------ the outbox (v9)

    def _post_rows(self, table_id: int | None, posts: Sequence[Post]) -> list[tuple[Any, ...]]:
        if not posts:
            return []
        if table_id is None:
            raise InvalidInput("posts need the table they belong to")
        now = self._now()
        for p in posts:
            _check_int64("chat_id", p.chat_id)
            if not isinstance(p.text, str) or not p.text:
                raise InvalidInput("a post needs a text")
        return [(table_id, p.chat_id, p.text, p.keyboard, now) for p in posts]

    async def add_posts(self, table_id: int, posts: Sequence[Post]) -> None:
        """One-off messages of a table that no other write causes (a note to the group): one transaction,
        before they are sent."""
        rows = self._post_rows(table_id, posts)
        if not rows:
            return

        async def run(db: aiosqlite.Connection) -> None:
            await db.executemany(_INSERT_POST, rows)

        await self._write(run)

    async def unsent_posts(self, table_id: int | None = None) -> list[Post]:
        """The one-off messages not sent yet (of one table, or of all), in the order they were written."""
        where, params = ("WHERE table_id = ? ", (table_id,)) if table_id is not None else ("", ())

        async def run(db: aiosqlite.Connection) -> list[Post]:
            rows = await db.execute_fetchall(
                f"SELECT id, table_id, chat_id, text, keyboard FROM outbox {where}ORDER BY id", params
            )
            return [Post(int(r[2]), r[3], r[4], int(r[0]), int(r[1])) for r in rows]

        return await self._read(run)

    async def post_sent(self, post_id: int) -> None:
        """A one-off message was sent (or given up on): out of the outbox."""

        async def run(db: aiosqlite.Connection) -> None:
            await db.execute("DELETE FROM outbox WHERE id = ?", (post_id,))

        await self._single(run)

    async def set_panel(self, table_id: int, user_id: int, message_id: int) -> None:
        """The message a player's private panel of a table is shown in (edited in place after a restart)."""
        _check_int64("user_id", user_id)
        if not isinstance(message_id, int) or message_id <= 0:
            raise InvalidInput(f"not a message id: {message_id!r}")

        async def run(db: aiosqlite.Connection) -> None:
            await db.execute(
                "INSERT INTO panels (table_id, user_id, message_id) VALUES (?, ?, ?) "
                "ON CONFLICT (table_id, user_id) DO UPDATE SET message_id = excluded.message_id",
                (table_id, user_id, message_id),
            )

        await self._single(run)

    async def result_delivered(self, hand_ids: Sequence[int], lobby_msg: int | None = None) -> None:
        """The group has seen a finished hand's result (in the lobby message ``lobby_msg``, stored too)."""

        async def run(db: aiosqlite.Connection) -> None:
            for hand_id in hand_ids:
                hand = await _get_hand(db, hand_id)
                await db.execute("UPDATE hands SET result_delivered = 1 WHERE id = ?", (hand_id,))
                if lobby_msg is not None:
                    await _write_settings(db, hand.table_id, _check_settings({"lobby_msg": lobby_msg}))

        await self._write(run)

    async def log_action(
        self,
        hand_id: int,
        action: str | engine.Action,
        version: int,
        *,
        final: engine.State | None = None,
        table_id: int | None = None,
        seats: Sequence[SeatPlay] = (),
        facts: Facts | None = None,
        posts: Sequence[Post] = (),
    ) -> int:
        """Persist one accepted action with the state version it produced; returns its sequence number.

        One transaction: the action is logged with its version, or not at all. ``version`` must be exactly
        the logged version + 1, otherwise ``VersionConflict`` (a gap, or the same action applied twice) and
        nothing is written. Pass the resulting state as ``final`` when the action ended the hand: the result
        and scores are then written in the same transaction, so a crash cannot separate them (and every
        seat's play state is cleared). ``seats``: the seats of ``table_id`` whose play state (decisions,
        timeouts, auto-play) the action changed, written in the same transaction. ``facts``: the hand's
        facts gathered as it was played, this action included (else finishing replays the hand once).
        ``posts``: one-off messages of ``table_id`` the action causes (the players' results of a hand it
        ends), written to the outbox in the same transaction.
        """
        fn, single = self._action_work(
            ActionLog(hand_id, action, version, final, table_id, seats, facts, posts)
        )
        return await (self._single(fn) if single else self._write(fn))

    async def log_actions(self, entries: Sequence[ActionLog]) -> tuple[list[int], StorageError | None]:
        """Persist a run of actions (the AI seats' moves after a press), each in its own transaction exactly
        as ``log_action`` would, in order, in one trip to the database thread; the first that fails stops
        the run. Returns the sequence numbers of those committed (a prefix of ``entries``) and the error
        that stopped the rest (None if all were logged): the caller keeps in memory exactly that prefix."""
        works = [self._action_work(e) for e in entries]  # bad input raises here, before anything is written
        if self.dialect != "sqlite":  # PostgreSQL: one transaction after another on the pool
            seqs: list[int] = []
            for fn, single in works:
                try:
                    seqs.append(await (self._single(fn) if single else self._write(fn)))
                except StorageError as e:
                    return seqs, e
            return seqs, None
        seqs, error = await self._on_thread(partial(_each_in_transaction, works))
        if error is None:
            return seqs, None
        stopped = _storage_error(error)
        if isinstance(stopped, StorageError):
            return seqs, stopped
        raise error

    def _action_work(self, entry: ActionLog) -> tuple[Callable[[aiosqlite.Connection], Awaitable[int]], bool]:
        """The store function that logs ``entry`` (see ``log_action``), and whether it is a single statement
        (atomic by itself) rather than a transaction."""
        hand_id, action, version, final = entry.hand_id, entry.action, entry.version, entry.final
        table_id, seats, facts = entry.table_id, entry.seats, entry.facts
        try:
            parsed = engine.Action.parse(action) if isinstance(action, str) else action
        except engine.EngineError as e:
            raise InvalidInput(f"hand {hand_id}: cannot log {action!r}: {e}") from None
        text = str(parsed)
        if not isinstance(version, int) or isinstance(version, bool):
            raise InvalidInput(f"version must be an integer, not {version!r}")
        result = None
        if final is not None:
            if final.version != version:
                raise InvalidInput(f"the final state has version {final.version}, the action says {version}")
            result = _final_result(final)
        now = self._now()
        params = (hand_id, hand_id, parsed.seat, text, version, now)
        seat_rows = _seat_rows(table_id, seats) if seats and table_id is not None else []
        post_rows = self._post_rows(table_id, entry.posts)

        async def insert(db: aiosqlite.Connection) -> int:
            try:
                rows = await db.execute_fetchall(_INSERT_ACTION, params)
            except _INTEGRITY as e:
                raise await _action_refused(db, e, hand_id, text, version) from None
            return int(list(rows)[0][0])

        if result is None and not seat_rows and not post_rows:
            return insert, True

        async def insert_and_finish(db: aiosqlite.Connection) -> int:
            seq = await insert(db)
            if seat_rows:
                await db.executemany(_UPDATE_SEAT, seat_rows)
            if post_rows:
                await db.executemany(_INSERT_POST, post_rows)
            if final is not None and result is not None:
                await _finish(db, hand_id, final, result, now, facts)
            return seq

        return insert_and_finish, False

    async def finish_hand(self, hand_id: int, state: engine.State, facts: Facts | None = None) -> Hand:
        """Record an ended hand's result and per-player score rows, from its final state.

        The state's version must equal the logged version, so the scores always describe the logged hand.
        """
        result = _final_result(state)
        now = self._now()

        async def run(db: aiosqlite.Connection) -> Hand:
            await _finish(db, hand_id, state, result, now, facts)
            return await _get_hand(db, hand_id)

        return await self._write(run)

    async def abandon_hand(self, hand_id: int, note: str = "") -> Hand:
        """End a hand without scores (players left, the table broke up). Its log stays for replay."""
        now = self._now()

        async def run(db: aiosqlite.Connection) -> Hand:
            hand = await _get_hand(db, hand_id)
            if hand.finished:
                raise HandFinished(f"hand {hand_id} has already ended")
            await db.execute(
                "UPDATE hands SET result = ?, ended_at = ? WHERE id = ?",
                (_dumps({"reason": "abandoned", "note": note}), now, hand_id),
            )
            return await _get_hand(db, hand_id)

        return await self._write(run)

    async def get_hand(self, hand_id: int) -> Hand:
        async def run(db: aiosqlite.Connection) -> Hand:
            return await _get_hand(db, hand_id)

        return await self._single(run)

    async def table_hands(self, table_id: int) -> list[Hand]:
        """Every hand of a table, in order."""

        async def run(db: aiosqlite.Connection) -> list[Hand]:
            rows = await db.execute_fetchall(
                f"SELECT {_HAND_COLS} FROM hands WHERE table_id = ? ORDER BY number", (table_id,)
            )
            return [_hand(r) for r in rows]

        return await self._single(run)

    async def hand_replay(self, hand_id: int) -> HandReplay:
        """A hand's full record: the hand, its variant and every logged action in order."""

        async def run(db: aiosqlite.Connection) -> HandReplay:
            hand = await _get_hand(db, hand_id)
            variant = await _scalar(db, "SELECT variant FROM tables WHERE id = ?", (hand.table_id,))
            rows = await db.execute_fetchall(
                "SELECT seq, seat, action, version, at FROM actions WHERE hand_id = ? ORDER BY seq",
                (hand_id,),
            )
            acts = tuple(LoggedAction(r[0], r[1], r[2], r[3], to_datetime(r[4])) for r in rows)
            return HandReplay(hand, str(variant), acts)

        return await self._read(run)

    async def rebuild(self, hand_id: int) -> engine.State:
        """The hand's current state, rebuilt from its log through the engine (``ReplayError`` if it does
        not replay to the logged version)."""
        rec = await self.hand_replay(hand_id)
        return replay_actions(rec.variant, rec.hand, rec.actions)

    async def restore(self, table_id: int | None = None) -> list[Restored]:
        """After a restart: every open table with its current hand rebuilt from the log.

        A hand whose log already reaches the end but whose result was never written (the writer died between
        ``log_action`` and ``finish_hand``) is finished here, so its scores are not lost. A hand that does not
        replay is reported in ``Restored.error`` rather than stopping the others. ``table_id``: that table
        only (empty if it is not open): a worker rebuilding a table another worker moved.
        """

        async def load(db: aiosqlite.Connection) -> list[tuple[Table, int | None]]:
            rows = await db.execute_fetchall(
                f"""
                SELECT {", ".join("t." + c.strip() for c in _TABLE_COLS.split(","))}, h.id
                FROM tables AS t LEFT JOIN hands AS h ON h.table_id = t.id AND h.ended_at IS NULL
                WHERE t.status = 'open' AND (CAST(? AS BIGINT) IS NULL OR t.id = ?) ORDER BY t.id
                """,
                (table_id, table_id),
            )
            return [(_table(r[:7]), r[7]) for r in rows]

        out: list[Restored] = []
        for table, hand_id in await self._single(load):
            hand, state, error, facts = None, None, None, Facts()
            if hand_id is not None:
                rec = await self.hand_replay(hand_id)
                hand = rec.hand
                try:
                    state, facts = replay_with_facts(rec.variant, rec.hand, rec.actions)
                except ReplayError as e:
                    error = str(e)
                if state is not None and state.phase == engine.Phase.ENDED:
                    hand = await self.finish_hand(hand_id, state, facts)

            async def read(db: aiosqlite.Connection, tid: int = table.id) -> Any:
                return await _bot_state(db, tid)

            settings, seats, panels = await self._read(read)
            out.append(Restored(table, hand, state, error, settings, seats, panels, facts))
        return out

    async def table_delta(
        self, table_id: int, since: int
    ) -> tuple[Restored, tuple[LoggedAction, ...]] | None:
        """An open table as stored (its ``state`` left None) with its unfinished hand's actions after version
        ``since``: what a worker that holds the table in memory at ``since`` needs to catch up, applying
        them to the state it has (``replay_from``). None if the table is not open."""

        async def run(db: aiosqlite.Connection) -> tuple[Restored, tuple[LoggedAction, ...]] | None:
            rows = list(
                await db.execute_fetchall(
                    f"SELECT {_TABLE_COLS} FROM tables WHERE id = ? AND status = 'open'", (table_id,)
                )
            )
            if not rows:
                return None
            hands = list(
                await db.execute_fetchall(
                    f"SELECT {_HAND_COLS} FROM hands WHERE table_id = ? AND ended_at IS NULL", (table_id,)
                )
            )
            hand = _hand(hands[0]) if hands else None
            acts: tuple[LoggedAction, ...] = ()
            if hand is not None:
                acts = tuple(
                    LoggedAction(r[0], r[1], r[2], r[3], to_datetime(r[4]))
                    for r in await db.execute_fetchall(
                        "SELECT seq, seat, action, version, at FROM actions "
                        "WHERE hand_id = ? AND version > ? ORDER BY seq",
                        (hand.id, since),
                    )
                )
            settings, seats, panels = await _bot_state(db, table_id)
            return Restored(_table(rows[0]), hand, None, None, settings, seats, panels), acts

        return await self._read(run)

    async def import_hands(self, table_id: int, hands: Iterable[ArchivedHand]) -> int:
        """Bulk-load finished hands into a table in one transaction (archives, benchmarks); returns how
        many. Each hand's actions go in with one ``executemany`` and pass the same order triggers."""

        async def run(db: aiosqlite.Connection) -> int:
            table = await _get_table(db, table_id)
            variant = _variant(table.variant)
            count = 0
            for h in hands:
                _check_int64("seed", h.seed)
                seats = _check_seats(variant, h.seats)
                opts = _resolve_options(variant, h.options)
                try:
                    acts = [engine.Action.parse(a) for a in h.actions]
                except engine.EngineError as e:
                    raise InvalidInput(f"archived hand {count + 1}: {e}") from None
                deltas = h.result.get("deltas", [])
                if not isinstance(deltas, list) or len(deltas) not in (0, len(seats)):
                    raise InvalidInput(f"archived hand {count + 1}: the result needs one delta per seat")
                rows = await db.execute_fetchall(
                    _INSERT_HAND,
                    (
                        table_id,
                        table_id,
                        h.seed,
                        h.dealer,
                        int(h.dealer_drawn),
                        _dumps(list(seats)),
                        _dumps(opts),
                        h.started_at,
                        new_code(),
                        None,
                    ),
                )
                hid = int(list(rows)[0][0])
                await db.executemany(
                    "INSERT INTO actions (hand_id, seq, seat, action, version, at) VALUES (?, ?, ?, ?, ?, ?)",
                    [(hid, i, a.seat, str(a), i, h.started_at) for i, a in enumerate(acts, 1)],
                )
                await db.execute(
                    "UPDATE hands SET result = ?, ended_at = ?, derive_pending = ? WHERE id = ?",
                    (_dumps(dict(h.result)), h.ended_at, int(isinstance(h.result.get("deltas"), list)), hid),
                )
                await _score_rows(db, hid)
                count += 1
            return count

        return await self._write(run)

    # ------------------------------------------------------------------ scores

    async def leaderboard(
        self,
        chat_id: int,
        period: Period | str = Period.ALL,
        now: datetime | None = None,
        limit: int | None = None,
    ) -> list[Standing]:
        """A chat's standings over all time, this week or this month (calendar periods in ``now``'s
        timezone; ``now`` defaults to the storage clock in UTC). Ranked by points, then wins.

        All time reads the chat's running totals (one row per player); a week or a month reads the score
        rows of that period through a covering index. Neither touches the action log.
        """
        when = now if now is not None else to_datetime(self._now())
        start, end = period_bounds(period, when)
        lim = NO_LIMIT if limit is None else int(limit)

        async def run(db: aiosqlite.Connection) -> list[Standing]:
            if start == -math.inf and end == math.inf:
                rows = await db.execute_fetchall(LEADERBOARD_ALL_SQL, (chat_id, lim))
            else:
                rows = await db.execute_fetchall(
                    LEADERBOARD_PERIOD_SQL, (chat_id, _sql_bound(start), _sql_bound(end), lim)
                )
            return [Standing(*r) for r in rows]

        return await self._single(run)

    async def player_history(
        self,
        user_id: int,
        *,
        chat_id: int | None = None,
        limit: int = 20,
        before: datetime | None = None,
    ) -> list[HistoryEntry]:
        """A player's finished hands, newest first; pass the last entry's ``ended_at`` as ``before``
        to get the next page."""
        until = before.timestamp() if before is not None else math.inf

        async def run(db: aiosqlite.Connection) -> list[HistoryEntry]:
            rows = await db.execute_fetchall(
                """
                SELECT s.hand_id, h.table_id, s.chat_id, h.number, s.seat, s.delta, s.win, s.ended_at
                FROM score_deltas AS s JOIN hands AS h ON h.id = s.hand_id
                WHERE s.user_id = ? AND s.ended_at < ? AND (CAST(? AS BIGINT) IS NULL OR s.chat_id = ?)
                ORDER BY s.ended_at DESC, s.hand_id DESC
                LIMIT ?
                """,
                (user_id, _sql_bound(until), chat_id, chat_id, limit),
            )
            return [
                HistoryEntry(r[0], r[1], r[2], r[3], r[4], r[5], bool(r[6]), to_datetime(r[7])) for r in rows
            ]

        return await self._single(run)

    # ------------------------------------------------------------------ the game night: codes, stats, ratings

    async def derive_pending(self) -> int:
        """Derive the seat facts and ratings of finished hands that have none yet (hands finished before
        schema v6, or bulk-imported), oldest first, one transaction each; returns how many."""
        done = 0
        while True:

            async def next_id(db: aiosqlite.Connection) -> Any:
                return await _scalar(
                    db, f"SELECT id FROM hands WHERE {self._PENDING} ORDER BY ended_at, id LIMIT 1"
                )

            hand_id = await self._single(next_id)
            if hand_id is None:
                return done

            async def run(db: aiosqlite.Connection, hid: int = int(hand_id)) -> None:
                await _derive(db, hid)

            await self._write(run)
            done += 1

    async def hand_by_code(self, code: str) -> tuple[Hand, Table] | None:
        """The hand with this public code and its table, or None (``code`` as ``clean_code`` gives it)."""

        async def run(db: aiosqlite.Connection) -> tuple[Hand, Table] | None:
            rows = list(await db.execute_fetchall(f"SELECT {_HAND_COLS} FROM hands WHERE code = ?", (code,)))
            if not rows:
                return None
            hand = _hand(rows[0])
            return hand, await _get_table(db, hand.table_id)

        return await self._read(run)

    async def chat_hands(self, chat_id: int, offset: int = 0, limit: int = 10) -> list[FinishedHandRow]:
        """A group's hands that ended with a result, newest first (hands in progress and abandoned ones are
        not listed); ``offset``/``limit`` page through them."""

        async def run(db: aiosqlite.Connection) -> list[FinishedHandRow]:
            rows = await db.execute_fetchall(
                f"""
                SELECT {_HAND_COLS}, (SELECT variant FROM tables WHERE id = hands.table_id)
                FROM hands
                WHERE table_id IN (SELECT id FROM tables WHERE chat_id = ?)
                  AND ended_at IS NOT NULL AND {self._SCORED}
                ORDER BY ended_at DESC, id DESC
                LIMIT ? OFFSET ?
                """,
                (chat_id, int(limit), int(offset)),
            )
            return [FinishedHandRow(_hand(r[:-1]), str(r[-1])) for r in rows]

        return await self._single(run)

    async def table_stats(self, table_id: int) -> list[SeatStats]:
        """Every seat of every finished hand of a table (the room's 大结算), in hand and seat order."""

        async def run(db: aiosqlite.Connection) -> list[SeatStats]:
            rows = await db.execute_fetchall(
                "SELECT hand_id, seat, user_id, delta, win, self_draw, deal_ins, kongs, best, best_value "
                "FROM seat_stats WHERE table_id = ? ORDER BY hand_id, seat",
                (table_id,),
            )
            return [
                SeatStats(
                    r[0],
                    r[1],
                    r[2],
                    r[3],
                    bool(r[4]),
                    bool(r[5]),
                    r[6],
                    r[7],
                    tuple(json.loads(r[8])) if r[8] else (),
                    r[9],
                )  # fmt: skip
                for r in rows
            ]

        return await self._single(run)

    async def player_stats(self, user_id: int, chat_id: int | None = None) -> list[VariantStats]:
        """A player's figures per variant (in one group, or everywhere when ``chat_id`` is None), most
        played first; in a group each carries his rating there."""

        async def run(db: aiosqlite.Connection) -> list[VariantStats]:
            where = "user_id = ?" + (" AND chat_id = ?" if chat_id is not None else "")
            args: tuple[Any, ...] = (user_id,) if chat_id is None else (user_id, chat_id)
            totals = await db.execute_fetchall(
                f"""
                SELECT variant, COUNT(*), SUM(win), SUM(self_draw), SUM(deal_ins), SUM(delta)
                FROM seat_stats WHERE {where} GROUP BY variant ORDER BY COUNT(*) DESC, variant
                """,
                args,
            )
            # each variant's best win: the first row of its group, best value first
            best: dict[str, tuple[tuple[str, ...], int]] = {}
            for r in await db.execute_fetchall(
                f"SELECT variant, best, best_value FROM seat_stats "
                f"WHERE {where} AND best_value IS NOT NULL ORDER BY variant, best_value DESC, hand_id, seat",
                args,
            ):
                best.setdefault(str(r[0]), (tuple(json.loads(r[1])) if r[1] else (), r[2]))
            rated: dict[str, Rating] = {}
            if chat_id is not None:
                for r in await db.execute_fetchall(
                    "SELECT variant, mu, sigma, hands FROM ratings WHERE chat_id = ? AND user_id = ?",
                    (chat_id, user_id),
                ):
                    rated[str(r[0])] = Rating(float(r[1]), float(r[2]), int(r[3]))
            out = []
            for r in totals:
                names, value = best.get(str(r[0]), ((), None))
                out.append(
                    VariantStats(str(r[0]), r[1], r[2], r[3], r[4], r[5], names, value, rated.get(str(r[0])))
                )
            return out

        return await self._read(run)

    async def ratings(self, chat_id: int, variant: str) -> dict[int, Rating]:
        """Every player's rating in a group for one variant."""

        async def run(db: aiosqlite.Connection) -> dict[int, Rating]:
            rows = await db.execute_fetchall(
                "SELECT user_id, mu, sigma, hands FROM ratings WHERE chat_id = ? AND variant = ?",
                (chat_id, variant),
            )
            return {int(r[0]): Rating(float(r[1]), float(r[2]), int(r[3])) for r in rows}

        return await self._single(run)

    async def last_variant(self, chat_id: int) -> str | None:
        """The variant of the group's most recent table, or None."""

        async def run(db: aiosqlite.Connection) -> str | None:
            v = await _scalar(
                db, "SELECT variant FROM tables WHERE chat_id = ? ORDER BY id DESC LIMIT 1", (chat_id,)
            )
            return str(v) if v is not None else None

        return await self._single(run)

    async def remembered_room(self, chat_id: int, variant: str) -> RoomSettings | None:
        """The group's last room settings for ``variant`` (None: it never changed any)."""

        async def run(db: aiosqlite.Connection) -> RoomSettings | None:
            rows = list(
                await db.execute_fetchall(
                    "SELECT options, seats, rounds, ready_s, claim_s, discard_s, pause_s "
                    "FROM chat_variant_settings WHERE chat_id = ? AND variant = ?",
                    (chat_id, variant),
                )
            )
            if not rows:
                return None
            r = rows[0]
            return RoomSettings(json.loads(r[0]), r[1], r[2], r[3], r[4], r[5], r[6])

        return await self._single(run)


# ---------------------------------------------------------------------- helpers on a connection


async def _bot_state(
    db: aiosqlite.Connection, table_id: int
) -> tuple[TableSettings, tuple[SeatPlay, ...], dict[int, int]]:
    """A table's bot settings, its seats' play state and its players' panels, as stored."""
    settings = await _get_settings(db, table_id)
    rows = await db.execute_fetchall(
        "SELECT seat, auto, timeouts, since, deadline FROM table_seats WHERE table_id = ? ORDER BY seat",
        (table_id,),
    )
    seats = tuple(SeatPlay(r[0], bool(r[1]), r[2], r[3], r[4]) for r in rows)
    panels = await db.execute_fetchall(
        "SELECT user_id, message_id FROM panels WHERE table_id = ?", (table_id,)
    )
    return settings, seats, {int(r[0]): int(r[1]) for r in panels}


async def _remember_room(db: aiosqlite.Connection, table: Table, settings: TableSettings) -> None:
    """The table's room settings become its group's remembered ones for its variant."""
    await db.execute(
        """
        INSERT INTO chat_variant_settings (chat_id, variant, options, seats, rounds, ready_s, claim_s,
                                           discard_s, pause_s)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (chat_id, variant) DO UPDATE SET
            options = excluded.options, seats = excluded.seats, rounds = excluded.rounds,
            ready_s = excluded.ready_s, claim_s = excluded.claim_s, discard_s = excluded.discard_s,
            pause_s = excluded.pause_s
        """,
        (
            table.chat_id,
            table.variant,
            _dumps(dict(table.options)),
            len(table.seats),
            settings.rounds,
            settings.ready_s,
            settings.claim_s,
            settings.discard_s,
            settings.pause_s,
        ),  # fmt: skip
    )


# All time: the running sums, one row per player of the chat.
LEADERBOARD_ALL_SQL = """
    SELECT t.user_id, p.name, t.points, t.hands, t.wins, t.best
    FROM chat_totals AS t
    LEFT JOIN players AS p ON p.user_id = t.user_id
    WHERE t.chat_id = ?
    ORDER BY t.points DESC, t.wins DESC, t.user_id
    LIMIT ?
"""

# A period: the score rows in [start, end), through the covering index (chat_id, ended_at, user_id, ...).
LEADERBOARD_PERIOD_SQL = """
    SELECT s.user_id, p.name, s.points, s.hands, s.wins, s.best
    FROM (
        SELECT user_id, SUM(delta) AS points, COUNT(*) AS hands, SUM(win) AS wins,
               CASE WHEN MAX(delta) > 0 THEN MAX(delta) ELSE 0 END AS best
        FROM score_deltas
        WHERE chat_id = ? AND ended_at >= ? AND ended_at < ? AND user_id IS NOT NULL
        GROUP BY user_id
    ) AS s
    LEFT JOIN players AS p ON p.user_id = s.user_id
    ORDER BY s.points DESC, s.wins DESC, s.user_id
    LIMIT ?
"""

_INSERT_HAND = f"""
    INSERT INTO hands (table_id, number, seed, dealer, dealer_drawn, seats, options, started_at, code, salt)
    VALUES (?, (SELECT COALESCE(MAX(number), 0) + 1 FROM hands WHERE table_id = ?), ?, ?, ?, ?, ?, ?, ?, ?)
    RETURNING {_HAND_COLS}
"""
NO_LIMIT = 2**62  # LIMIT for "all rows" on both databases


def new_code() -> str:
    """A fresh public hand code (``CODE_LENGTH`` characters of ``CODE_ALPHABET``)."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def clean_code(text: str) -> str | None:
    """A code as a user typed it (``#AB12…``, any case), or None if it cannot be one."""
    code = text.strip().removeprefix("#").lower()
    if not MIN_CODE <= len(code) <= MAX_CODE or not code.isascii() or not code.isalnum():
        return None
    return code


_INSERT_POST = "INSERT INTO outbox (table_id, chat_id, text, keyboard, created_at) VALUES (?, ?, ?, ?, ?)"
_INSERT_ACTION = """
    INSERT INTO actions (hand_id, seq, seat, action, version, at)
    VALUES (?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM actions WHERE hand_id = ?), ?, ?, ?, ?)
    RETURNING seq
"""


def _retrieve(task: asyncio.Future[Any]) -> None:
    """Mark a shielded write's exception as seen when its caller was cancelled and will never await it."""
    if not task.cancelled():
        task.exception()


def _sql_bound(x: float) -> float:
    # SQLite has no infinity literal in parameters on every build; a huge finite bound does the same job
    return max(min(x, 1e300), -1e300)


async def _scalar(db: aiosqlite.Connection, sql: str, params: Sequence[Any] = ()) -> Any:
    rows = list(await db.execute_fetchall(sql, params))
    return rows[0][0] if rows else None


async def _get_table(db: aiosqlite.Connection, table_id: int) -> Table:
    rows = list(await db.execute_fetchall(f"SELECT {_TABLE_COLS} FROM tables WHERE id = ?", (table_id,)))
    if not rows:
        raise NotFound(f"no table {table_id}")
    return _table(rows[0])


async def _update_table(
    db: aiosqlite.Connection,
    table_id: int,
    seats: Sequence[int | None] | None,
    options: Mapping[str, Any] | None,
) -> Table:
    table = await _get_table(db, table_id)
    if table.status != TableStatus.OPEN:
        raise TableClosed(f"table {table_id} is closed")
    if seats is None and not options:
        return table
    variant = _variant(table.variant)
    new_seats = _check_seats(variant, seats) if seats is not None else table.seats
    new_opts = _resolve_options(variant, {**table.options, **options}) if options else table.options
    rows = await db.execute_fetchall(
        f"UPDATE tables SET seats = ?, options = ? WHERE id = ? RETURNING {_TABLE_COLS}",
        (_dumps(list(new_seats)), _dumps(dict(new_opts)), table_id),
    )
    return _table(list(rows)[0])


async def _get_settings(db: aiosqlite.Connection, table_id: int) -> TableSettings:
    rows = list(
        await db.execute_fetchall(
            f"SELECT {_SETTINGS_COLS} FROM table_settings WHERE table_id = ?", (table_id,)
        )
    )
    if not rows:
        raise NotFound(f"no table {table_id}")
    seats = await db.execute_fetchall(
        "SELECT seat, ai, ready FROM table_seats WHERE table_id = ? AND (ai = 1 OR ready = 1)", (table_id,)
    )
    return _settings(rows[0], (int(r[0]) for r in seats if r[1]), (int(r[0]) for r in seats if r[2]))


async def _write_settings(db: aiosqlite.Connection, table_id: int, values: Mapping[str, Any]) -> None:
    """Checked settings (``_check_settings``) into a table's rows; inside the caller's transaction."""
    cols = [k for k in values if k not in _SEAT_SETS]
    if cols:
        await db.execute(
            f"UPDATE table_settings SET {', '.join(f'{k} = ?' for k in cols)} WHERE table_id = ?",
            (*(values[k] for k in cols), table_id),
        )
    for key in _SEAT_SETS:  # column names from a fixed list
        if key in values:
            seats = sorted({int(x) for x in values[key]})
            flag = f"CASE WHEN seat IN ({', '.join('?' * len(seats))}) THEN 1 ELSE 0 END" if seats else "0"
            await db.execute(f"UPDATE table_seats SET {key} = {flag} WHERE table_id = ?", (*seats, table_id))


async def _get_hand(db: aiosqlite.Connection, hand_id: int) -> Hand:
    rows = list(await db.execute_fetchall(f"SELECT {_HAND_COLS} FROM hands WHERE id = ?", (hand_id,)))
    if not rows:
        raise NotFound(f"no hand {hand_id}")
    return _hand(rows[0])


def _final_result(state: engine.State) -> dict[str, Any]:
    if state.phase != engine.Phase.ENDED or state.result is None:
        raise InvalidInput(f"the hand has not ended (phase {state.phase}); only an ended hand is finished")
    return result_to_json(state)


async def _finish(
    db: aiosqlite.Connection,
    hand_id: int,
    state: engine.State,
    result: dict[str, Any],
    now: float,
    facts: Facts | None = None,
) -> None:
    """Write the result and derive the score rows; inside the caller's transaction."""
    hand = await _get_hand(db, hand_id)
    if hand.finished:
        raise HandFinished(f"hand {hand_id} has already ended")
    if (state.seed, state.dealer, state.num_seats) != (hand.seed, hand.dealer, len(hand.seats)):
        raise InvalidInput(f"that final state is not hand {hand_id}'s (different seed, dealer or seats)")
    if state.version != hand.version:
        raise VersionConflict(
            f"hand {hand_id}: the final state is version {state.version} but the log is at version "
            f"{hand.version}; log every action before finishing",
            hand_id,
            hand.version,
            state.version,
        )
    await db.execute(
        "UPDATE hands SET result = ?, ended_at = ?, result_delivered = 0 WHERE id = ?",
        (_dumps(result), now, hand_id),
    )
    await _score_rows(db, hand_id)
    await db.execute(_CLEAR_PLAY, (hand.table_id,))
    await _derive(db, hand_id, facts.seats(state) if facts is not None else None)


async def _score_rows(db: aiosqlite.Connection, hand_id: int) -> None:
    """A finished hand's score rows, derived from its result JSON (what ``schema.SCORE_ROWS_FOR_HAND`` does
    in SQLite's SQL, here in Python so that both databases run the same code); inside the caller's
    transaction."""
    rows = list(
        await db.execute_fetchall(
            "SELECT h.seats, h.result, h.ended_at, t.chat_id FROM hands AS h JOIN tables AS t "
            "ON t.id = h.table_id WHERE h.id = ? AND h.ended_at IS NOT NULL AND h.result IS NOT NULL",
            (hand_id,),
        )
    )
    if not rows:
        return
    seats, result, ended_at, chat_id = json.loads(rows[0][0]), json.loads(rows[0][1]), rows[0][2], rows[0][3]
    deltas = result.get("deltas") if isinstance(result, dict) else None
    if not isinstance(deltas, list):
        return
    winners = result.get("winners")
    won = set(winners) if isinstance(winners, list) else set()
    await db.executemany(
        "INSERT INTO score_deltas (hand_id, seat, user_id, chat_id, delta, win, ended_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?)",
        [
            (
                hand_id,
                seat,
                seats[seat] if seat < len(seats) else None,
                chat_id,
                int(d),
                int(seat in won),
                ended_at,
            )  # fmt: skip
            for seat, d in enumerate(deltas)
        ],
    )


async def _derive(db: aiosqlite.Connection, hand_id: int, known: list[DerivedFacts] | None = None) -> None:
    """A finished hand's per-seat facts (``seat_stats``: ``known``, else by replaying its log) and the
    ratings it moves; inside the caller's transaction. A hand that no longer replays gets neither."""
    hand = await _get_hand(db, hand_id)
    rows = list(
        await db.execute_fetchall("SELECT chat_id, variant FROM tables WHERE id = ?", (hand.table_id,))
    )
    deltas = (hand.result or {}).get("deltas")
    await db.execute("UPDATE hands SET derive_pending = 0 WHERE id = ?", (hand_id,))
    if not rows or not isinstance(deltas, list) or hand.ended_at is None:
        return
    chat_id, variant = int(rows[0][0]), str(rows[0][1])
    facts = known
    if facts is None:
        acts = await db.execute_fetchall(
            "SELECT action FROM actions WHERE hand_id = ? ORDER BY seq", (hand_id,)
        )
        try:
            start = engine.new_hand(
                _variant(variant), hand.seed, hand.options, hand.dealer_arg, len(hand.seats)
            )
            _, facts = seat_facts(start, [engine.Action.parse(r[0]) for r in acts])
        except (engine.EngineError, InvalidInput):
            return
    ended = hand.ended_at.timestamp()
    await db.executemany(
        """
        INSERT INTO seat_stats (hand_id, seat, user_id, chat_id, table_id, variant, delta, win, self_draw,
                                deal_ins, kongs, best, best_value, ended_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """,
        [
            (
                hand_id,
                f.seat,
                hand.seats[f.seat],
                chat_id,
                hand.table_id,
                variant,
                int(deltas[f.seat]),
                int(f.win),
                int(f.self_draw),
                f.deal_ins,
                f.kongs,
                _dumps(list(f.best)) if f.best else None,
                f.best_value,
                ended,
            )  # fmt: skip
            for f in facts
        ],
    )
    users = [u for u in hand.seats if u is not None]
    current: dict[int, tuple[float, float]] = {}
    for r in await db.execute_fetchall(
        "SELECT user_id, mu, sigma FROM ratings WHERE chat_id = ? AND variant = ? "
        f"AND user_id IN ({', '.join('?' * len(users)) or 'NULL'})",
        (chat_id, variant, *users),
    ):
        current[int(r[0])] = (float(r[1]), float(r[2]))
    default = (rating_model.DEFAULT_MU, rating_model.DEFAULT_SIGMA)
    before = [None if u is None else current.get(u, default) for u in hand.seats]
    after = rating_model.rate([int(d) for d in deltas], before)
    if after == before:
        return
    await db.executemany(
        """
        INSERT INTO ratings (chat_id, variant, user_id, mu, sigma, hands) VALUES (?, ?, ?, ?, ?, 1)
        ON CONFLICT (chat_id, variant, user_id) DO UPDATE SET
            mu = excluded.mu, sigma = excluded.sigma, hands = ratings.hands + 1
        """,
        [
            (chat_id, variant, u, new[0], new[1])
            for u, new in zip(hand.seats, after, strict=True)
            if u is not None and new is not None
        ],
    )


async def _action_refused(
    db: aiosqlite.Connection, e: Exception, hand_id: int, text: str, version: int
) -> StorageError:
    """Explain why the order triggers refused an action (the statement changed nothing)."""
    msg = str(e)
    if "no such hand" in msg or "FOREIGN KEY" in msg:
        return NotFound(f"no hand {hand_id}; {text!r} was not logged")
    if "hand ended" in msg:
        return HandFinished(f"hand {hand_id} has ended; {text!r} was not logged")
    if "version out of order" in msg:
        # PostgreSQL's trigger says the logged version (its transaction is aborted: no more reads in it)
        detail = getattr(e, "detail", None)
        logged = (
            int(detail)
            if isinstance(detail, str) and detail.isdigit()
            else ((await _get_hand(db, hand_id)).version)
        )
        why = "already logged: applied twice?" if version <= logged else "actions are missing in between"
        return VersionConflict(
            f"hand {hand_id}: refused {text!r} with version {version}: the log is at version {logged}, "
            f"so the next action must have version {logged + 1} ({why})",
            hand_id,
            logged + 1,
            version,
        )
    return StorageError(f"hand {hand_id}: {text!r} was not logged: {msg}")
