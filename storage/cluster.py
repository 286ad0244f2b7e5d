"""What several bot worker processes share in one PostgreSQL database (schema v7), besides the game record.

* Table leases: a worker moves a table only while it holds the table's lease, a session advisory lock held on
  a connection of its own (``take``/``give``). The server frees it if the worker dies (its connections go),
  so a crashed worker never blocks a table. ``table_leases`` names the worker that took it last: a worker
  that finds another name there rebuilds the table from the log before touching it (``Lease.moved``).
* Timers: each table's next deadline is a row of ``timers``; ``claim_due`` hands due rows to one worker
  (``FOR UPDATE SKIP LOCKED``: workers polling at once never take the same row), removing them.
* Workers: a heartbeat row each, so the workers alive can share the bot's send budget.
"""

from __future__ import annotations

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


class ClusterStore:
    """Leases, timers and heartbeats of the workers of one bot (PostgreSQL only)."""

    def __init__(self, pool: asyncpg.Pool, worker: str) -> None:
        self._pool = pool
        self.worker = worker

    @classmethod
    async def connect(cls, dsn: str, worker: str, *, max_leases: int = 64) -> ClusterStore:
        """Its own pool: leases hold a connection each while held, and must not starve the game's pool."""
        try:
            pool = await asyncpg.create_pool(dsn, min_size=1, max_size=max_leases)
        except (asyncpg.PostgresError, OSError) as e:
            raise StorageError(f"cannot connect for table leases: {e}") from None
        return cls(pool, worker)

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
            last = await conn.fetchval(
                """
                INSERT INTO table_leases (table_id, owner) VALUES ($1, $2)
                ON CONFLICT (table_id) DO UPDATE SET owner = excluded.owner
                RETURNING (SELECT owner FROM table_leases WHERE table_id = $1)
                """,
                table_id,
                self.worker,
            )  # the subquery sees the row as it was before this statement
        except BaseException:
            await self._pool.release(conn)  # asyncpg's reset unlocks every advisory lock of the session
            raise
        return Lease(table_id, conn, last != self.worker)

    async def give(self, lease: Lease) -> None:
        try:
            await lease.conn.execute("SELECT pg_advisory_unlock($1, $2)", LEASE_CLASS, lease.table_id)
        finally:
            await self._pool.release(lease.conn)

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

    async def open_tables(self) -> set[int]:
        return {int(r[0]) for r in await self._pool.fetch("SELECT id FROM tables WHERE status = 'open'")}
