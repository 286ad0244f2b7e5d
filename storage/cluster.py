"""What several bot worker processes share in one PostgreSQL database (schema v7), besides the game record.

* Table leases: a worker moves a table only while it holds the table's lease, a session advisory lock held on
  a connection of its own (``take``/``give``). The server frees it if the worker dies (its connections go),
  so a crashed worker never blocks a table. ``table_leases`` names the worker that took it last: a worker
  that finds another name there rebuilds the table from the log before touching it (``Lease.moved``).
* Timers: each table's next deadline is a row of ``timers``; ``claim_due`` hands due rows to one worker
  (``FOR UPDATE SKIP LOCKED``: workers polling at once never take the same row), removing them.
* Workers: a heartbeat row each, so the workers alive can share the bot's send budget; and the tables a dead
  worker held (``orphans``: its name is gone from the server's sessions) are found at once.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import asyncpg

from .errors import StorageError

LEASE_CLASS = 0x4D4A  # the first key of a table's advisory lock (two-key form: this, table id)
_MAX_ID = 2**31 - 1  # advisory lock keys are int4 in the two-key form


@dataclass(slots=True)
class Lease:
    """A table's lease, held: its advisory lock lives on ``conn`` until ``ClusterStore.give``."""

    table_id: int
    conn: Any
    moved: bool  # another worker held the table since this one last did: rebuild it first
    orphaned: bool = False  # ... and that worker is gone: what it sent last may not be known (ids unstored)


class ClusterStore:
    """Leases, timers and heartbeats of the workers of one bot (PostgreSQL only)."""

    def __init__(self, pool: asyncpg.Pool, worker: str, max_leases: int = 64) -> None:
        self._pool = pool
        self.worker = worker
        # a group's lock holds a connection while it opens a table, which takes a table lease inside: at
        # most half the pool for groups, so table leases always find a connection
        self._chats = asyncio.Semaphore(max(1, max_leases // 2))

    @classmethod
    async def connect(cls, dsn: str, worker: str, *, max_leases: int = 64) -> ClusterStore:
        """Its own pool: leases hold a connection each while held, and must not starve the game's pool."""
        try:
            # the worker's name is its connections' application_name: while one of them is open (the pool
            # keeps one), the server lists it in pg_stat_activity; once the process is gone, so is the name
            pool = await asyncpg.create_pool(
                dsn, min_size=1, max_size=max_leases, server_settings={"application_name": worker[:63]}
            )
        except (asyncpg.PostgresError, OSError) as e:
            raise StorageError(f"cannot connect for table leases: {e}") from None
        return cls(pool, worker, max_leases)

    async def close(self) -> None:
        await self._pool.close()

    # ------------------------------------------------------------------ leases

    async def take(self, table_id: int) -> Lease:
        """Wait for the table's lease and take it; ``moved`` says whether another worker had it last."""
        if not 0 < table_id <= _MAX_ID:
            raise StorageError(f"no lease for table id {table_id}")
        conn = await self._pool.acquire()
        try:
            await conn.execute("SELECT pg_advisory_lock($1, $2)", LEASE_CLASS, table_id)
            row = await conn.fetchrow(
                """
                SELECT owner, EXISTS (
                    SELECT 1 FROM pg_stat_activity WHERE application_name = left(owner, 63)
                ) FROM table_leases WHERE table_id = $1
                """,
                table_id,
            )
            last, alive = (row[0], bool(row[1])) if row is not None else (None, False)
            if last != self.worker:
                await conn.execute(
                    "INSERT INTO table_leases (table_id, owner) VALUES ($1, $2) "
                    "ON CONFLICT (table_id) DO UPDATE SET owner = excluded.owner",
                    table_id,
                    self.worker,
                )
        except BaseException:
            await self._pool.release(conn)  # asyncpg's reset unlocks every advisory lock of the session
            raise
        return Lease(
            table_id, conn, last != self.worker, last is not None and last != self.worker and not alive
        )

    async def give(self, lease: Lease) -> None:
        try:
            await lease.conn.execute("SELECT pg_advisory_unlock($1, $2)", LEASE_CLASS, lease.table_id)
        finally:
            await self._pool.release(lease.conn)

    @contextlib.asynccontextmanager
    async def chat_lock(self, chat_id: int) -> AsyncIterator[None]:
        """A group's lock across workers (opening a table there): a session advisory lock on the chat id."""
        async with self._chats, self._pool.acquire() as conn:
            await conn.execute("SELECT pg_advisory_lock($1)", chat_id)
            try:
                yield
            finally:
                await conn.execute("SELECT pg_advisory_unlock($1)", chat_id)

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
            return int(
                await conn.fetchval("SELECT count(*) FROM workers WHERE seen >= $1", float(now - window))
            )

    async def leave(self) -> None:
        await self._pool.execute("DELETE FROM workers WHERE worker = $1", self.worker)

    async def orphans(self) -> set[int]:
        """Open tables last held by a worker that is gone (none of its connections is left): someone must
        carry them on, since no update may come for them (a player waits for a message never sent)."""
        rows = await self._pool.fetch(
            """
            SELECT l.table_id FROM table_leases AS l JOIN tables AS t ON t.id = l.table_id
            WHERE t.status = 'open' AND l.owner <> $1 AND left(l.owner, 63) NOT IN (
                SELECT application_name FROM pg_stat_activity WHERE application_name <> ''
            )
            """,
            self.worker,
        )
        return {int(r[0]) for r in rows}

    async def open_tables(self) -> set[int]:
        return {int(r[0]) for r in await self._pool.fetch("SELECT id FROM tables WHERE status = 'open'")}
