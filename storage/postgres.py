"""The same ``Storage`` on a PostgreSQL server (asyncpg), for a bot that outgrows one process.

``Storage.open("postgresql://user@host/db")`` returns a ``PgStorage``: every method, record and error is the
one the SQLite store has (the modules ``storage/store.py`` lists hold the code, in SQL both databases read
alike); only the SQL runner (``storage/runner.py``) differs:

* a connection pool instead of one connection: single statements run on any free connection in autocommit,
  reads that must agree run in one REPEATABLE READ read-only transaction, and writes in one transaction
  each (one per game action, as on SQLite), shielded from cancellation the same way; a connection goes
  back to the pool without asyncpg's reset query (``keep_session``: nothing to reset, a round trip saved);
* the store's ``?`` placeholders become ``$1, $2, ...`` (``_PgConn``), once per distinct statement;
* the schema is ``storage/pg_schema.py``: the same versions, with a row in ``mjdb_schema`` for SQLite's
  ``user_version``; several processes opening one database migrate it once (an advisory lock).

Several bot processes (workers) may share one database (docs/deploy.md). What keeps them from moving one
table at once is the table's row lock, taken in the transaction that moves it (``scope``): while a task
holds a scope, every storage call that task makes runs on the scope's connection, inside its transaction,
so what a table's update writes commits (or rolls back) as one. Nothing is held past a transaction, and the
pool's connections carry time limits (``TIMEOUTS``): a hung or dead worker holds no lock for long.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlsplit, urlunsplit

import asyncpg

from . import pg_schema, schema
from .errors import IncompatibleDatabase, OpenError, StorageError
from .models import Post
from .runner import INTEGRITY, Clock, Db, Work, retrieve
from .store import Storage

T = TypeVar("T")

# Connection-level failures (the server went away, a pool closed under us) as well as SQL errors
_PG_ERRORS = (asyncpg.PostgresError, asyncpg.InterfaceError, asyncpg.InternalClientError, OSError)
# A connection that broke (the server restarted, the network dropped): the pool replaces it on the next
# acquire, so a transaction that had not started yet is simply tried again
_LOST = (
    asyncpg.ConnectionDoesNotExistError,
    asyncpg.InterfaceError,
    asyncpg.InternalClientError,
    asyncpg.CannotConnectNowError,
    asyncpg.AdminShutdownError,
    ConnectionError,
    OSError,
)
POOL_SIZE = 10
ACQUIRE_TIMEOUT = 5.0  # seconds to wait for a free connection of the pool before an update is refused
# Limits on every connection of the pool (milliseconds), so that nothing is held for long:
# * idle_in_transaction_session_timeout: a worker that stops (SIGSTOP, a stuck event loop) in the middle of
#   a table's transaction loses its session after this long, and with it the table's row lock;
# * lock_timeout: a worker waiting for a table's row lock gives up after this long (the update is answered
#   5xx and sent again by Telegram): longer than the above, so a hung holder is cut off first;
# * statement_timeout: no statement runs longer (a migration lifts it for its own transaction).
TIMEOUTS = {
    "idle_in_transaction_session_timeout": "2000",
    "lock_timeout": "5000",
    "statement_timeout": "10000",
}
BEGIN_TRIES = 4  # a table's transaction is started again this often when its connection turns out broken


@dataclass(eq=False, slots=True)
class Scope:
    """A transaction a task holds on one connection (``PgStorage.scope``): the storage calls of that task
    run in it. ``failed``: a statement in it failed, so it can only roll back."""

    conn: asyncpg.Connection
    task: asyncio.Task[Any] | None
    failed: StorageError | None = None


_SCOPE: ContextVar[Scope | None] = ContextVar("mahjong_pg_scope", default=None)

# Whoever handles an update (bot/telegram/webhook.py) may put here an object whose ``failed`` this module sets
# when the database fails under it (not when it refuses a write): the update is then answered 5xx and sent
# again, rather than answered as if it had been handled.
failures: ContextVar[Any] = ContextVar("mahjong_pg_failures", default=None)


def _failure(e: BaseException, what: str = "database error") -> StorageError:
    """The ``StorageError`` for ``e``, noted on ``failures`` unless the database only refused a write."""
    watcher = failures.get()
    if watcher is not None and not isinstance(e, INTEGRITY):
        watcher.failed = True
    return StorageError(f"{what}: {e}")


def _in_scope() -> Scope | None:
    """The scope of the running task, if it holds one (a task started inside a scope inherits the context
    variable, not the transaction)."""
    scope = _SCOPE.get()
    if scope is not None and scope.task is asyncio.current_task():
        return scope
    return None


@contextlib.asynccontextmanager
async def pooled(pool: asyncpg.Pool) -> AsyncIterator[asyncpg.Connection]:
    """A connection of ``pool`` for the block. One the block leaves by anything but an SQL error (the
    connection broke, asyncpg lost track of it, the caller was cancelled mid-statement) is closed rather
    than handed to the next caller in an unknown state; the pool opens a new one when it needs it."""
    conn = await pool.acquire(timeout=ACQUIRE_TIMEOUT)
    try:
        yield conn
    except BaseException as e:
        if not isinstance(e, asyncpg.PostgresError):
            with contextlib.suppress(Exception):
                conn.terminate()
        raise
    finally:
        with contextlib.suppress(Exception):
            await pool.release(conn)


def worker_name() -> str:
    """This process's name among the workers (host, pid, a random part): its connections'
    ``application_name``, so that the server lists it while the process has a connection."""
    return f"mahjong-bot:{os.getpid()}:{secrets.token_hex(4)}:{os.uname().nodename}"[:63]


@lru_cache(maxsize=1024)
def to_dollar(sql: str) -> str:
    """SQLite's ``?`` placeholders as PostgreSQL's ``$n`` (outside quotes and comments)."""
    out: list[str] = []
    n = 0
    for part in re.split(r"('(?:[^']|'')*'|\"[^\"]*\"|--[^\n]*)", sql):
        if part[:1] in ("'", '"') or part.startswith("--"):
            out.append(part)
            continue
        pieces = part.split("?")
        for i, piece in enumerate(pieces):
            if i:
                n += 1
                out.append(f"${n}")
            out.append(piece)
    return "".join(out)


async def keep_session(conn: asyncpg.Connection) -> None:
    """A pool's connection going back to the pool: nothing to reset. asyncpg's default runs a reset query
    (unlock, unlisten, reset settings) at every release, a round trip per storage call; the store leaves no
    session state behind (no settings, listeners, cursors or session locks), and asyncpg still rolls back a
    transaction left open."""


def _args(params: Sequence[Any]) -> list[Any]:
    # flags are INTEGER 0/1 columns on both databases: a Python bool goes in as 0 or 1
    return [int(p) if isinstance(p, bool) else p for p in params]


class _PgConn:
    """The three calls the store makes on an aiosqlite connection, on an asyncpg one."""

    __slots__ = ("_c",)

    def __init__(self, conn: asyncpg.Connection) -> None:
        self._c = conn

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> None:
        await self._c.execute(to_dollar(sql), *_args(params))

    async def execute_fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        return [tuple(r) for r in await self._c.fetch(to_dollar(sql), *_args(params))]

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        rows = list(rows)
        if rows:
            await self._c.executemany(to_dollar(sql), [_args(r) for r in rows])


def redact(url: str) -> str:
    """The URL without its password, for messages and logs."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.hostname or ""
    netloc = f"{parts.username or ''}:***@{host}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit(parts._replace(netloc=netloc))


async def schema_version(conn: asyncpg.Connection) -> int:
    """The database's schema version (0: not ours yet, or empty)."""
    if await conn.fetchval("SELECT to_regclass($1)", pg_schema.VERSION_TABLE) is None:
        return 0
    return int(await conn.fetchval(f"SELECT version FROM {pg_schema.VERSION_TABLE}"))


async def migrate(conn: asyncpg.Connection, target: int | None = None) -> int:
    """Apply the missing steps up to ``target`` (default: the latest), one transaction each; returns the
    version reached. Refuses a database that holds tables this bot did not create, or a newer schema."""
    steps = pg_schema.steps()
    target = len(steps) if target is None else target
    if not 0 <= target <= len(steps):
        raise ValueError(f"no schema version {target}; versions go from 0 to {len(steps)}")
    while True:
        async with conn.transaction():
            await conn.execute("SET LOCAL statement_timeout = 0")  # a big table's new index takes its time
            await conn.execute("SELECT pg_advisory_xact_lock($1)", pg_schema.MIGRATION_LOCK)
            if await conn.fetchval("SELECT to_regclass($1)", pg_schema.VERSION_TABLE) is None:
                others = await conn.fetchval(
                    "SELECT count(*) FROM information_schema.tables WHERE table_schema = current_schema()"
                )
                if others:
                    raise IncompatibleDatabase(
                        "the database already holds tables that this bot did not create"
                    )
                await conn.execute(f"CREATE TABLE {pg_schema.VERSION_TABLE} (version INTEGER NOT NULL)")
                await conn.execute(f"INSERT INTO {pg_schema.VERSION_TABLE} (version) VALUES (0)")
            current = await schema_version(conn)
            if current > len(steps):
                raise IncompatibleDatabase(
                    f"the database has schema version {current}, newer than this code knows ({len(steps)}): "
                    "run a newer version of the bot"
                )
            if current >= target:
                return current
            for statement in steps[current]:
                await conn.execute(statement)
            await conn.execute(f"UPDATE {pg_schema.VERSION_TABLE} SET version = $1", current + 1)


class PgStorage(Storage):
    """``Storage`` on PostgreSQL. Open with ``Storage.open(url)`` (or ``PgStorage.connect``)."""

    dialect = "postgresql"
    _SCORED = "jsonb_typeof(result::jsonb -> 'deltas') = 'array'"
    _PENDING = "derive_pending = 1"
    _SEATED = "seats::jsonb @> to_jsonb(CAST(? AS BIGINT))"

    def __init__(  # noqa: D107 - use connect
        self, pool: asyncpg.Pool, url: str, clock: Clock, worker: str = "mahjong-bot:"
    ) -> None:
        self._pool: asyncpg.Pool | None = pool
        self.worker = worker  # the connections' application_name (storage/cluster.py)
        self.url = redact(url)
        self.dsn = url  # with its password: for the workers' own connections (storage/cluster.py)
        self.path = Path(self.url)  # what the SQLite store calls its file, for messages
        self._clock = clock
        # writes whose callers were cancelled, still running (shielded): later calls wait for them first, so
        # what a cancelled caller asked for is seen by the next one (SQLite's one connection does the same)
        self._orphans: set[asyncio.Future[Any]] = set()

    @classmethod
    async def connect(
        cls, url: str, *, clock: Clock = time.time, pool_size: int = POOL_SIZE, worker: str | None = None
    ) -> PgStorage:
        """Connect, and migrate the database to the current schema (refusing a foreign or newer one)."""
        worker = worker or worker_name()
        try:
            pool = await asyncpg.create_pool(
                url,
                min_size=0,  # no floor to restore: after a server restart, connections come back on demand
                max_size=pool_size,
                statement_cache_size=512,
                server_settings={"application_name": worker, **TIMEOUTS},
                reset=keep_session,
            )
        except (*_PG_ERRORS, ValueError) as e:
            raise OpenError(f"cannot connect to PostgreSQL at {redact(url)}: {e}") from None
        try:
            async with pool.acquire() as conn:
                await migrate(conn)
        except BaseException as e:
            await pool.close()
            if isinstance(e, _LOST):  # the pool connects on first use: here
                raise OpenError(f"cannot connect to PostgreSQL at {redact(url)}: {e}") from None
            if isinstance(e, _PG_ERRORS):
                raise OpenError(f"cannot prepare the database at {redact(url)}: {e}") from None
            raise
        return cls(pool, url, clock, worker)

    @property
    def pool(self) -> asyncpg.Pool:
        """The connection pool (storage/cluster.py runs the workers' shared rows on it)."""
        if self._pool is None:
            raise StorageError("the storage is closed")
        return self._pool

    async def unsent_posts(self, table_id: int | None = None) -> list[Post]:
        """The one-off messages not sent yet (of one table, or of all), in the order they were written; the
        rows of a table are claimed by this worker as it queues them (``claimed_by``): another worker sends
        them only once this one is gone (storage/cluster.py, ``ClusterStore.orphan_posts``)."""
        if table_id is None:
            return await super().unsent_posts()

        async def run(db: Db) -> list[Post]:
            rows = await db.execute_fetchall(
                "UPDATE outbox SET claimed_by = ? "
                "WHERE table_id = ? AND (claimed_by IS NULL OR claimed_by = ?) "
                "RETURNING id, table_id, chat_id, text, keyboard",
                (self.worker, table_id, self.worker),
            )
            return [Post(int(r[2]), r[3], r[4], int(r[0]), int(r[1])) for r in sorted(rows)]

        return await self._single(run)

    async def owe(self, table_id: int, worker: str | None) -> None:
        """Who owes the table's chats its last state (``owed_by``, storage/cluster.py): in the scope."""

        async def run(db: Db) -> None:
            await db.execute("UPDATE tables SET owed_by = ? WHERE id = ?", (worker, table_id))

        await self._single(run)

    async def close(self) -> None:
        """Wait for the statements in flight, then close the pool. Safe to call twice."""
        if self._orphans:
            await asyncio.wait(set(self._orphans))
        if self._pool is not None:
            pool, self._pool = self._pool, None
            await pool.close()

    async def settings(self) -> dict[str, Any]:
        async def run(db: Any) -> dict[str, Any]:
            rows = await db.execute_fetchall(
                "SELECT current_setting('server_version'), current_setting('synchronous_commit'), "
                f"(SELECT version FROM {pg_schema.VERSION_TABLE})"
            )
            return {
                "server_version": rows[0][0],
                "synchronous_commit": rows[0][1],
                "user_version": rows[0][2],
            }

        return await self._single(run)

    async def schema_version(self) -> int:
        async with self._acquire() as conn:
            return await schema_version(conn)

    # ------------------------------------------------------------------ plumbing

    def _acquire(self) -> Any:
        if self._pool is None:
            raise StorageError("the storage is closed")
        return pooled(self._pool)

    async def _single(self, fn: Work[T]) -> T:
        """One statement on any free connection, autocommit. Shielded like a write: a statement that was
        asked for runs even if its caller is cancelled (as SQLite's queued statements do). In a scope: in
        its transaction."""
        scope = _in_scope()
        if scope is not None:
            return await self._scoped(scope, fn)
        return await self._shielded(self._pg_single(fn))

    async def _pg_single(self, fn: Work[T]) -> T:
        try:
            async with self._acquire() as conn:
                return await fn(_PgConn(conn))
        except _PG_ERRORS as e:
            raise _failure(e) from e

    async def _read(self, fn: Work[T]) -> T:
        scope = _in_scope()
        if scope is not None:
            return await self._scoped(scope, fn)
        for attempt in range(2):  # a read is safe to try again on a fresh connection
            try:
                return await self._pg_read(fn)
            except StorageError as e:
                if attempt or not isinstance(e.__cause__, _LOST):
                    raise
        raise AssertionError("unreachable")

    async def _pg_read(self, fn: Work[T]) -> T:
        if self._orphans:
            await asyncio.wait(set(self._orphans))
        try:
            async with self._acquire() as conn, conn.transaction(isolation="repeatable_read", readonly=True):
                return await fn(_PgConn(conn))
        except _PG_ERRORS as e:
            raise _failure(e) from e

    async def _write(self, fn: Work[T]) -> T:
        scope = _in_scope()
        if scope is not None:
            return await self._scoped(scope, fn)
        return await self._shielded(self._pg_transaction(fn))

    async def _write_each(self, works: Sequence[tuple[Work[T], bool]]) -> tuple[list[T], StorageError | None]:
        """One after another on the pool, each shielded as ``_single`` or ``_write`` are."""
        done: list[T] = []
        for fn, single in works:
            try:
                done.append(await (self._single(fn) if single else self._write(fn)))
            except StorageError as e:
                return done, e
        return done, None

    async def _scoped(self, scope: Scope, fn: Work[T]) -> T:
        """``fn`` in the task's scope. A statement that fails there fails the whole transaction (it rolls
        back when the scope ends): later calls in it fail at once."""
        if scope.failed is not None:
            raise StorageError(f"the transaction failed earlier: {scope.failed}")
        try:
            return await fn(_PgConn(scope.conn))
        except _PG_ERRORS as e:
            scope.failed = _failure(e)
            raise scope.failed from e

    @contextlib.asynccontextmanager
    async def scope(self, sql: str, *args: Any) -> AsyncIterator[tuple[Scope, Any]]:
        """A transaction that the calling task holds until the block ends, begun with ``sql`` (typically a
        row lock: ``... FOR UPDATE`` or an ``UPDATE``), whose first row comes with it. Every storage call
        the task makes meanwhile runs in it (one begun inside another of the same task is part of it: its
        statement runs there, the outer one commits). It commits when the block ends, and rolls back if the
        block raised or a statement in it failed (then a ``StorageError`` is raised, if nothing else was).
        A broken connection met before anything ran is replaced and the transaction begun again."""
        outer = _in_scope()
        if outer is not None:  # within another scope (a table opened under its group's lock): part of it
            if outer.failed is not None:
                raise StorageError(f"the transaction failed earlier: {outer.failed}")
            try:
                row = await outer.conn.fetchrow(sql, *args)
            except _PG_ERRORS as e:
                outer.failed = _failure(e)
                raise outer.failed from e
            yield outer, row
            return
        conn, row = await self._begin(sql, args)
        scope = Scope(conn, asyncio.current_task())
        token = _SCOPE.set(scope)
        ok = False
        try:
            yield scope, row
            ok = scope.failed is None
        finally:
            _SCOPE.reset(token)
            await asyncio.shield(self._end(scope, ok))
        if scope.failed is not None:
            raise scope.failed

    async def _begin(self, sql: str, args: Sequence[Any]) -> tuple[asyncpg.Connection, Any]:
        pool = self.pool
        delay = 0.05
        for attempt in range(BEGIN_TRIES):
            conn = None
            try:
                conn = await pool.acquire(timeout=ACQUIRE_TIMEOUT)
                await conn.execute("BEGIN")
                row = await conn.fetchrow(sql, *args)
                return conn, row
            except (*_PG_ERRORS, TimeoutError, asyncio.CancelledError) as e:
                if conn is not None:
                    await self._drop(conn)
                if isinstance(e, asyncio.CancelledError):
                    raise
                if attempt + 1 < BEGIN_TRIES and isinstance(e, _LOST):
                    await asyncio.sleep(delay)
                    delay *= 2
                    continue
                raise _failure(e) from e
        raise AssertionError("unreachable")

    async def _end(self, scope: Scope, commit: bool) -> None:
        conn = scope.conn
        try:
            if scope.failed is not None and not isinstance(scope.failed.__cause__, asyncpg.PostgresError):
                raise scope.failed  # the connection broke or lost track: closed below, the server rolls back
            await conn.execute("COMMIT" if commit else "ROLLBACK")
        except (*_PG_ERRORS, StorageError) as e:
            if scope.failed is None:
                scope.failed = _failure(e, "database error at commit")
            with contextlib.suppress(Exception):
                conn.terminate()  # whatever it had open, the server rolls back
        finally:
            with contextlib.suppress(Exception):
                await self.pool.release(conn)

    async def _drop(self, conn: asyncpg.Connection) -> None:
        """A connection in an unknown state goes: the server rolls back what it had open."""
        with contextlib.suppress(Exception):
            conn.terminate()
        with contextlib.suppress(Exception):
            await self.pool.release(conn)

    async def _shielded(self, work: Awaitable[T]) -> T:
        if self._orphans:
            await asyncio.wait(set(self._orphans))
        task = asyncio.ensure_future(work)
        task.add_done_callback(retrieve)
        try:
            return await asyncio.shield(task)
        except asyncio.CancelledError:
            if not task.done():
                self._orphans.add(task)
                task.add_done_callback(self._orphans.discard)
            raise

    async def _pg_transaction(self, fn: Work[T]) -> T:
        try:
            async with self._acquire() as conn, conn.transaction():
                return await fn(_PgConn(conn))
        except _PG_ERRORS as e:
            raise _failure(e) from e


assert len(pg_schema.steps()) == schema.LATEST
