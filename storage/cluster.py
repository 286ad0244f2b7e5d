"""What several bot worker processes share in one PostgreSQL database (schema v7, v8) beside the game record.

* Table leases: a worker moves a table only while it holds the table's lease, a session advisory lock. Every
  lease of a worker lives on one connection of its own (the lease connection), kept as long as the worker
  works on the table: it is given back only when another worker asks for it (``LISTEN``/``NOTIFY``: a worker
  that waits for a lease NOTIFYs ``want`` and the holder gives it back once the table's messages are out,
  NOTIFYing ``free``). The server frees every lease of a worker that dies (its connection goes), so a
  crashed worker never blocks a table. ``table_leases`` names the worker that took it last: a worker that
  finds another name there rebuilds the table from the log before touching it (``Lease.moved``), and a
  worker that cannot take a lease at once learns from it who holds it (``try_take``), to send it the update.
* Each worker listens on a channel of its own (``channel_of``): updates other workers forward to it (the
  tables it holds) and their acknowledgements.
* Sending: the lease carries when its table's group was last sent a request (``group_sent``), so the next
  holder keeps the group's pace; and the workers reserve the bot's requests per second of the server's
  clock in ``send_budget`` (``reserve``), so that together they never exceed Telegram's limit.
* Timers: each table's next deadline is a row of ``timers``; ``claim_due`` hands due rows to one worker
  (``FOR UPDATE SKIP LOCKED``: workers polling at once never take the same row), removing them.
* Workers: a heartbeat row each, so the workers alive can share the bot's send budget; and the tables a dead
  worker held (``orphans``: its name is gone from the server's sessions) are found at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any

import asyncpg

from .errors import StorageError
from .postgres import keep_session

log = logging.getLogger(__name__)

LEASE_CLASS = 0x4D4A  # the first key of a table's advisory lock (two-key form: this, table id)
_MAX_ID = 2**31 - 1  # advisory lock keys are int4 in the two-key form
LEASE_CHANNEL = "mj_lease"  # "want:<table>" (give it back, please) and "free:<table>" (given back)
ASK_EVERY_S = 0.25  # a worker waiting for a lease asks again this often (the holder may have missed it)
MAX_PAYLOAD = 7900  # NOTIFY payloads stay under PostgreSQL's 8000 bytes


def channel_of(worker: str) -> str:
    """The channel a worker listens on for forwarded updates (a valid identifier, whatever its name)."""
    return "mjw_" + hashlib.sha1(worker.encode()).hexdigest()[:24]


_TRY = """
    SELECT pg_try_advisory_lock($1::int, $2::int), l.owner,
           l.owner IS NOT NULL AND EXISTS (
               SELECT 1 FROM pg_stat_activity WHERE application_name = left(l.owner, 63)
           ),
           l.group_sent
    FROM (SELECT 1) AS one LEFT JOIN table_leases AS l ON l.table_id = $2::int
"""


@dataclass(slots=True)
class Lease:
    """A table's lease, held on the worker's lease connection until ``ClusterStore.give``."""

    table_id: int
    conn: Any
    moved: bool  # another worker held the table since this one last did: rebuild it first
    orphaned: bool = False  # ... and that worker is gone: what it sent last may not be known (ids unstored)
    group_sent: float | None = None  # when the table's group was last sent a request (wall-clock seconds)


class ClusterStore:
    """Leases, timers and heartbeats of the workers of one bot (PostgreSQL only)."""

    def __init__(
        self, pool: asyncpg.Pool, conn: asyncpg.Connection, worker: str, max_leases: int = 64
    ) -> None:
        self._pool = pool
        self._conn = conn  # the lease connection: every lease this worker holds, and its LISTENs
        self._conn_lock = asyncio.Lock()  # one statement at a time on it
        self.worker = worker
        self.channel = channel_of(worker)
        # a group's lock holds a connection of the pool while it opens a table
        self._chats = asyncio.Semaphore(max(1, max_leases // 2))
        self._freed: dict[int, set[asyncio.Event]] = {}
        self.on_want: Callable[[int], None] | None = None  # another worker waits for a lease of ours
        self.on_free: Callable[[int], None] | None = None  # a worker gave a lease back
        self.on_forwarded: Callable[[str], None] | None = None  # a payload on this worker's channel
        self.on_lost: Callable[[], None] | None = None  # the lease connection went: no lease is held now
        self.lost = False
        self._closed = False
        self._dsn = ""

    @classmethod
    async def connect(cls, dsn: str, worker: str, *, max_leases: int = 64) -> ClusterStore:
        """A pool of its own (chat locks, timers, heartbeats must not starve the game's pool) and the lease
        connection, which listens for what the other workers ask of this one."""
        # the worker's name is its connections' application_name: while one of them is open, the server
        # lists it in pg_stat_activity; once the process is gone, so is the name
        settings = {"application_name": worker[:63]}
        try:
            pool = await asyncpg.create_pool(
                dsn, min_size=1, max_size=max_leases, server_settings=settings, reset=keep_session
            )
        except (asyncpg.PostgresError, OSError) as e:
            raise StorageError(f"cannot connect for table leases: {e}") from None
        try:
            conn = await asyncpg.connect(dsn, server_settings=settings)
        except (asyncpg.PostgresError, OSError) as e:
            await pool.close()
            raise StorageError(f"cannot connect for table leases: {e}") from None
        store = cls(pool, conn, worker, max_leases)
        store._dsn = dsn
        await store._listen()
        return store

    async def _listen(self) -> None:
        await self._conn.add_listener(LEASE_CHANNEL, self._heard)
        await self._conn.add_listener(self.channel, self._heard)
        self._conn.add_termination_listener(self._terminated)

    async def close(self) -> None:
        self.lost = self._closed = True
        with contextlib.suppress(Exception):
            await self._conn.close(timeout=5)
        await self._pool.close()

    def _heard(self, conn: Any, pid: int, channel: str, payload: str) -> None:
        if channel == LEASE_CHANNEL:
            kind, _, table = payload.partition(":")
            if not table.isdigit():
                return
            if kind == "free":
                for event in self._freed.get(int(table), ()):
                    event.set()
                if self.on_free is not None:
                    self.on_free(int(table))
            elif kind == "want" and self.on_want is not None:
                self.on_want(int(table))
        elif self.on_forwarded is not None:
            self.on_forwarded(payload)

    def _terminated(self, conn: Any) -> None:
        if self.lost or conn is not self._conn:
            return  # closed by this worker
        self.lost = True
        log.warning("the lease connection is gone: every table lease of this worker with it")
        if self.on_lost is not None:
            self.on_lost()

    async def _on_conn(self, sql: str, *args: Any) -> Any:
        async with self._conn_lock:
            if self.lost:
                await self._reconnect()
            try:
                return await self._conn.fetchrow(sql, *args)
            except (asyncpg.PostgresError, asyncpg.InterfaceError, OSError) as e:
                raise StorageError(f"lease: {e}") from e

    async def _reconnect(self) -> None:
        """A new lease connection, after the last one went (with every lease on it: the worker has let go
        of them, ``on_lost``)."""
        if self._closed or not self._dsn:
            raise StorageError("the lease connection is gone")
        try:
            self._conn = await asyncpg.connect(
                self._dsn, server_settings={"application_name": self.worker[:63]}
            )
            await self._listen()
        except (asyncpg.PostgresError, OSError) as e:
            raise StorageError(f"cannot connect for table leases: {e}") from None
        self.lost = False

    # ------------------------------------------------------------------ leases

    async def try_take(self, table_id: int) -> Lease | str | None:
        """The table's lease if it is free now; else the name of the worker that holds it (None: unknown)."""
        if not 0 < table_id <= _MAX_ID:
            raise StorageError(f"no lease for table id {table_id}")
        got, last, alive, group_sent = await self._on_conn(_TRY, LEASE_CLASS, table_id)
        if not got:
            return last if last != self.worker else None
        if last != self.worker:
            try:
                await self._on_conn(
                    "INSERT INTO table_leases (table_id, owner) VALUES ($1, $2) "
                    "ON CONFLICT (table_id) DO UPDATE SET owner = excluded.owner",
                    table_id,
                    self.worker,
                )
            except BaseException:
                with contextlib.suppress(Exception):
                    await self._on_conn("SELECT pg_advisory_unlock($1, $2)", LEASE_CLASS, table_id)
                raise
        moved = last != self.worker
        return Lease(table_id, self._conn, moved, moved and last is not None and not alive, group_sent)

    async def take(self, table_id: int) -> Lease:
        """Wait for the table's lease and take it, asking its holder to give it back (NOTIFY ``want``);
        ``moved`` says whether another worker had it last."""
        event = asyncio.Event()
        waiting = self._freed.setdefault(table_id, set())
        waiting.add(event)  # before trying: a "free" heard between the try and the wait is not missed
        try:
            while True:
                event.clear()
                got = await self.try_take(table_id)
                if isinstance(got, Lease):
                    return got
                await self._pool.execute("SELECT pg_notify($1, $2)", LEASE_CHANNEL, f"want:{table_id}")
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(event.wait(), ASK_EVERY_S)
        finally:
            waiting.discard(event)
            if not waiting:
                self._freed.pop(table_id, None)

    async def give(self, lease: Lease, group_sent: float | None = None) -> None:
        """Give the lease back, noting when the table's group was last sent a request, and tell the workers
        waiting for it (one round trip)."""
        if lease.conn is not self._conn or self.lost:
            return  # taken on a connection that is gone, and freed by the server with it
        await self._on_conn(
            """
            WITH noted AS (
                UPDATE table_leases SET group_sent = $5 WHERE table_id = $2::int AND $5::float8 IS NOT NULL
            )
            SELECT pg_advisory_unlock($1::int, $2::int), pg_notify($3, $4)
            """,
            LEASE_CLASS,
            lease.table_id,
            LEASE_CHANNEL,
            f"free:{lease.table_id}",
            group_sent,
        )

    async def notify(self, channel: str, payload: str) -> None:
        """Send ``payload`` to a worker's channel (a forwarded update, an acknowledgement)."""
        await self._pool.execute("SELECT pg_notify($1, $2)", channel, payload)

    async def alive(self, worker: str) -> bool:
        """Whether ``worker`` still has a connection to the server."""
        return bool(
            await self._pool.fetchval(
                "SELECT EXISTS (SELECT 1 FROM pg_stat_activity WHERE application_name = left($1, 63))", worker
            )
        )

    @contextlib.asynccontextmanager
    async def chat_lock(self, chat_id: int) -> AsyncIterator[None]:
        """A group's lock across workers (opening a table there): a session advisory lock on the chat id.
        A connection whose lock was not given back cleanly is closed (the server frees it)."""
        async with self._chats:
            conn = await self._pool.acquire()
            clean = False
            try:
                await conn.execute("SELECT pg_advisory_lock($1)", chat_id)
                try:
                    yield
                finally:
                    await conn.execute("SELECT pg_advisory_unlock($1)", chat_id)
                    clean = True
            finally:
                if not clean:
                    conn.terminate()
                await self._pool.release(conn)

    # ------------------------------------------------------------------ the shared send budget

    async def reserve(self, want: int, limit: int) -> tuple[int, float]:
        """Reserve up to ``want`` of the bot's requests in the current second of the server's clock, of which
        the workers together may make ``limit``: (how many were granted, seconds left in that second)."""
        for n in (want, 1) if want > 1 else (want,):
            row = await self._pool.fetchrow(
                """
                WITH now AS (SELECT extract(epoch FROM clock_timestamp())::float8 AS t),
                granted AS (
                    INSERT INTO send_budget AS b (second, used) SELECT floor(t)::bigint, $1 FROM now
                    ON CONFLICT (second) DO UPDATE SET used = b.used + excluded.used
                    WHERE b.used + excluded.used <= $2
                    RETURNING used
                )
                SELECT (SELECT used FROM granted), (SELECT ceil(t) - t FROM now)
                """,
                n,
                limit,
            )
            if row[0] is not None:
                return n, float(row[1])
        return 0, float(row[1])

    # ------------------------------------------------------------------ timers

    async def set_timer(self, table_id: int, due: float) -> None:
        await self._pool.execute(
            "INSERT INTO timers (table_id, due) VALUES ($1, $2) "
            "ON CONFLICT (table_id) DO UPDATE SET due = excluded.due",
            table_id,
            float(due),
        )

    async def clear_timer(self, table_id: int) -> None:
        await self._pool.execute("DELETE FROM timers WHERE table_id = $1", table_id)

    async def store_timers(self, deadlines: dict[int, float | None]) -> None:
        """Several tables' deadlines at once (None: the table has none): one statement, one round trip."""
        ids = list(deadlines)
        dues = [None if d is None else float(d) for d in deadlines.values()]
        await self._pool.execute(
            """
            WITH given AS (SELECT * FROM unnest($1::bigint[], $2::float8[]) AS g (table_id, due)),
            cleared AS (
                DELETE FROM timers WHERE table_id IN (SELECT table_id FROM given WHERE due IS NULL)
            )
            INSERT INTO timers (table_id, due) SELECT table_id, due FROM given WHERE due IS NOT NULL
            ON CONFLICT (table_id) DO UPDATE SET due = excluded.due
            """,
            ids,
            dues,
        )

    async def claim_due(self, before: float, limit: int = 16) -> list[int]:
        """Tables whose deadline is at or before ``before``, taken off the list by this worker alone."""
        rows = await self._pool.fetch(
            """
            DELETE FROM timers WHERE table_id IN (
                SELECT table_id FROM timers WHERE due <= $1 ORDER BY due LIMIT $2 FOR UPDATE SKIP LOCKED
            ) RETURNING table_id
            """,
            float(before),
            limit,
        )
        return [int(r[0]) for r in rows]

    # ------------------------------------------------------------------ workers

    async def heartbeat(self, now: float, window: float) -> int:
        """This worker is alive; returns how many are (seen within ``window`` seconds), itself included."""
        async with self._pool.acquire() as conn:
            await conn.execute(
                "INSERT INTO workers (worker, seen) VALUES ($1, $2) "
                "ON CONFLICT (worker) DO UPDATE SET seen = excluded.seen",
                self.worker,
                float(now),
            )
            await conn.execute("DELETE FROM workers WHERE seen < $1", float(now - 10 * window))
            await conn.execute(
                "DELETE FROM send_budget WHERE second < extract(epoch FROM clock_timestamp()) - 60"
            )
            return int(
                await conn.fetchval("SELECT count(*) FROM workers WHERE seen >= $1", float(now - window))
            )

    async def leave(self) -> None:
        await self._pool.execute("DELETE FROM workers WHERE worker = $1", self.worker)

    async def orphans(self) -> set[int]:
        """Tables last held by a worker that is gone (none of its connections is left), open or with
        messages in the outbox (v9) still to send: someone must carry them on, since no update may come for
        them (a player waits for a message never sent)."""
        rows = await self._pool.fetch(
            """
            SELECT l.table_id FROM table_leases AS l JOIN tables AS t ON t.id = l.table_id
            WHERE (t.status = 'open' OR EXISTS (SELECT 1 FROM outbox AS o WHERE o.table_id = t.id))
            AND l.owner <> $1 AND left(l.owner, 63) NOT IN (
                SELECT application_name FROM pg_stat_activity WHERE application_name <> ''
            )
            """,
            self.worker,
        )
        return {int(r[0]) for r in rows}

    async def open_tables(self) -> set[int]:
        """The tables a starting worker brings in: the open ones, and closed ones with messages still in the
        outbox."""
        rows = await self._pool.fetch(
            "SELECT id FROM tables WHERE status = 'open' UNION SELECT DISTINCT table_id FROM outbox"
        )
        return {int(r[0]) for r in rows}
