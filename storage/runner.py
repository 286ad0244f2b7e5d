"""The SQL runner: how the store's SQL reaches a database, the same for SQLite and PostgreSQL.

Every storage method is written once, as a small ``async def run(db)`` that issues statements on ``db`` (a
``Db``: ``execute``, ``execute_fetchall``, ``executemany``, with SQLite's ``?`` placeholders), handed to one
of four ways to run it:

* ``_single(fn)``: one statement (plus, on failure, reads that explain it), atomic by itself;
* ``_read(fn)``: several reads that must agree with each other;
* ``_write(fn)``: one transaction, ended by COMMIT (ROLLBACK on error) even if the caller is cancelled;
* ``_write_each(works)``: a run of those, each its own, in order, stopping at the first that fails.

``Runner`` declares them; ``storage/sqlite.py`` carries them out on aiosqlite's thread,
``storage/postgres.py`` on an asyncpg pool. The SQL itself lives by concern: ``players.py``, ``tables.py``,
``hands.py``, ``posts.py``, ``stats.py``; ``store.py`` puts them together into ``Storage``.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any, Protocol, TypeVar

import asyncpg

from .errors import InvalidInput, StorageError

T = TypeVar("T")
Clock = Callable[[], float]
Row = Any  # a row is a tuple of SQL values on both databases

# What a refused write looks like on either database (a constraint, or one of our triggers' RAISE)
INTEGRITY = (sqlite3.IntegrityError, asyncpg.IntegrityConstraintViolationError, asyncpg.RaiseError)

_INT64_MIN, _INT64_MAX = -(2**63), 2**63 - 1


class Db(Protocol):
    """The three calls a storage function makes on its connection (``?`` placeholders on both databases).
    Awaitable, so one function serves both; on SQLite nothing inside them ever waits."""

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> None: ...

    async def execute_fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Any]: ...

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None: ...


Work = Callable[[Db], Awaitable[T]]


class Runner:
    """What the SQL modules run their statements through; ``SqliteRunner`` and ``PgStorage`` carry it out."""

    # SQL that the two databases spell differently (PostgreSQL's in ``storage/postgres.py``)
    dialect = "sqlite"
    _SCORED = "json_type(result, '$.deltas') = 'array'"  # a hand ended with scores (not abandoned)
    _PENDING = "derive_pending"  # matches the partial index hands_derive_pending
    # tables.seats (a JSON array of user ids) holds the user id given as the statement's one parameter
    _SEATED = "EXISTS (SELECT 1 FROM json_each(tables.seats) WHERE json_each.value = ?)"

    path: Path
    _clock: Clock

    def _now(self) -> float:
        return float(self._clock())

    async def _single(self, fn: Work[T]) -> T:
        """Run ``fn``, which issues one statement (plus, on failure, reads that explain it): atomic by itself
        in autocommit mode."""
        raise NotImplementedError

    async def _read(self, fn: Work[T]) -> T:
        """Run several reads that must agree with each other, with nothing else in between."""
        raise NotImplementedError

    async def _write(self, fn: Work[T]) -> T:
        """Run ``fn`` in one transaction: it ends in COMMIT (or ROLLBACK on error) even if the caller is
        cancelled."""
        raise NotImplementedError

    async def _write_each(self, works: Sequence[tuple[Work[T], bool]]) -> tuple[list[T], StorageError | None]:
        """Each of ``works`` in order, each on its own (``(fn, True)``: a single statement, else a
        transaction), stopping at the first that fails with a ``StorageError``: the results of those
        committed and that error (None when all were). Any other error is raised."""
        raise NotImplementedError


def dumps(value: Any) -> str:
    """JSON as the store keeps it: compact, keys sorted, Chinese as it is."""
    return json.dumps(value, separators=(",", ":"), sort_keys=True, ensure_ascii=False)


def check_int64(name: str, value: int) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or not _INT64_MIN <= value <= _INT64_MAX:
        raise InvalidInput(f"{name} must be an integer that fits in 64 bits, not {value!r}")


async def scalar(db: Any, sql: str, params: Sequence[Any] = ()) -> Any:
    """The first column of the first row (None: no row)."""
    rows = list(await db.execute_fetchall(sql, params))
    return rows[0][0] if rows else None


def retrieve(task: asyncio.Future[Any]) -> None:
    """Mark a shielded write's exception as seen when its caller was cancelled and will never await it."""
    if not task.cancelled():
        task.exception()
