"""The SQL runner on SQLite: one aiosqlite connection, its thread, its transactions and its errors.

* One connection per ``Storage`` (SQLite serialises writers anyway), owned by aiosqlite's thread. Each
  store call - a single statement, reads that must agree, or a whole transaction - is one trip to that
  thread (``_on_thread``, through ``storage/aiosqlite_private.py``): a transaction costs one wake-up of each
  thread, not one per statement, and the thread's first-in-first-out queue keeps every other statement out
  of it. Calls are pipelined: 200 busy tables queue their work without waiting for one another's round trips.
* Writes cannot be cut short by cancellation: a transaction that was queued always ends in COMMIT or
  ROLLBACK, even if the calling handler is cancelled (the caller still sees ``CancelledError``).
* What SQLite says (at open, or later) becomes a ``StorageError`` with a plain message (``_open_error``,
  ``_storage_error``).
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Awaitable, Callable, Iterable, Sequence
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from . import schema
from .aiosqlite_private import run_on_thread
from .errors import (
    CorruptDatabase,
    IncompatibleDatabase,
    InvalidInput,
    OpenError,
    ReadOnlyDatabase,
    StorageError,
)
from .runner import Clock, Runner, Work, scalar

T = TypeVar("T")

_SYNCHRONOUS = ("NORMAL", "FULL", "EXTRA")


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


async def open_sqlite(
    path: str | os.PathLike[str], *, synchronous: str, busy_timeout: float, check: bool
) -> tuple[aiosqlite.Connection, Path]:
    """Open (creating if needed), configure and migrate the SQLite file at ``path`` (``Storage.open`` says
    what the options mean); refuses corrupt, foreign, newer and read-only files before writing anything."""
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
        await _prepare(db, p, sync, busy_timeout, check and existed)
    except BaseException:
        await db.close()
        raise
    return db, p


async def _prepare(db: aiosqlite.Connection, p: Path, sync: str, busy_timeout: float, check: bool) -> None:
    try:
        # reads first: a corrupt or foreign file is refused before anything is written to it
        version = await schema.user_version(db)
        app_id = await scalar(db, "PRAGMA application_id")
        objects = await scalar(db, "SELECT count(*) FROM sqlite_master")
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
                raise CorruptDatabase(f"{p} failed its integrity check ({detail}); restore it from a backup")
        await db.execute(f"PRAGMA busy_timeout = {int(busy_timeout * 1000)}")
        # write probe: a read-only file must fail here, not at the first accepted action
        await db.execute("BEGIN IMMEDIATE")
        try:
            await db.execute(f"PRAGMA user_version = {version}")
        finally:
            await db.execute("ROLLBACK")
        mode = await scalar(db, "PRAGMA journal_mode = WAL")
        if str(mode).lower() != "wal":
            raise OpenError(f"{p} cannot use write-ahead logging (journal mode stays {mode!r})")
        await db.execute(f"PRAGMA synchronous = {sync}")
        await db.execute("PRAGMA foreign_keys = ON")
        await schema.migrate(db)
    except sqlite3.Error as e:
        raise _open_error(p, e) from None


class SqliteRunner(Runner):
    """``Runner`` on one aiosqlite connection (opened by ``open_sqlite``)."""

    def __init__(self, db: aiosqlite.Connection, path: Path, clock: Clock) -> None:
        """Use ``Storage.open``: it configures and migrates the connection first."""
        self._db: aiosqlite.Connection | None = db
        self.path = path
        self._clock = clock

    async def close(self) -> None:
        """Wait for writes in flight (queued before the close: the database thread is first in, first out),
        then close. Safe to call twice."""
        if self._db is not None:
            db, self._db = self._db, None
            await db.close()

    async def settings(self) -> dict[str, Any]:
        """The connection's durability settings, for a status command and for tests."""

        async def run(db: Any) -> dict[str, Any]:
            out: dict[str, Any] = {}
            for name in ("journal_mode", "synchronous", "busy_timeout", "foreign_keys", "user_version"):
                out[name] = await scalar(db, f"PRAGMA {name}")
            out["synchronous"] = {0: "OFF", 1: "NORMAL", 2: "FULL", 3: "EXTRA"}[out["synchronous"]]
            return out

        return await self._read(run)

    def _conn(self) -> aiosqlite.Connection:
        if self._db is None:
            raise StorageError("the storage is closed")
        return self._db

    async def _on_thread(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``work`` on the database thread (aiosqlite's, which owns the connection), in one trip: the
        thread takes its work first in, first out, so nothing else runs on the connection meanwhile. Once
        queued, the work runs to its end even if the caller is cancelled (who then sees ``CancelledError``):
        a transaction that started always ends in COMMIT or ROLLBACK."""
        try:
            return await run_on_thread(self._conn(), work)
        except (sqlite3.Error, ValueError) as e:
            error = _storage_error(e)
            if error is e:  # the store's own (InvalidInput)
                raise
            raise error from e

    async def _single(self, fn: Work[T]) -> T:
        return await self._on_thread(partial(_run_now, fn))

    async def _read(self, fn: Work[T]) -> T:
        return await self._on_thread(partial(_run_now, fn))

    async def _write(self, fn: Work[T]) -> T:
        """One BEGIN IMMEDIATE transaction, in one trip to the database thread (not one per statement)."""
        return await self._on_thread(partial(_in_transaction, fn))

    async def _write_each(self, works: Sequence[tuple[Work[T], bool]]) -> tuple[list[T], StorageError | None]:
        """All in one trip to the database thread."""
        done, error = await self._on_thread(partial(_each_in_transaction, works))
        if error is None:
            return done, None
        stopped = _storage_error(error)
        if isinstance(stopped, StorageError):
            return done, stopped
        raise error
