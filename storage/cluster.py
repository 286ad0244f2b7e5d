"""What the bot's worker processes share in one PostgreSQL database beside the game record (schema v7, v8,
v10). Workers are stateless: nothing here is held past a transaction.

* A table's transaction (``TABLE_LOCK``): the statement that begins every transaction that moves a table. It
  takes the table's row lock (an ``UPDATE``, held until COMMIT), adds one to the table's ``rev``, notes this
  worker as the one that owes the table's chats its messages (``owed_by``), and records the update being
  applied (``updates_seen``) in the same transaction, so an update delivered twice is applied once.
* Timers: each table's next deadline is a row of ``timers``; ``claim_due`` hands due rows to one worker
  (``FOR UPDATE SKIP LOCKED``: workers polling at once never take the same row), ``claim_one`` takes one
  table's row when its own timer fires.
* The outbox (``outbox``, storage/posts.py): a worker claims the rows it queues (``claimed_by``);
  ``orphan_posts`` hands the rows of a worker that is gone to another one (``SKIP LOCKED`` too).
* Workers: a heartbeat row each (``workers``). A worker is gone when it has no connection left (the server
  no longer lists its name) and its heartbeat stopped: a worker stopped for a while (SIGSTOP) keeps its
  connections and is not gone; one killed, or cut off, is. ``orphans``: open tables whose last mover is gone
  (their chats may not have been shown the last state), for another worker to show again.
* Sending: the bot's requests per second (``send_budget``, ``reserve``), each group's pace across workers
  (``chat_pace``, ``pace``), and the live-message guard (``live_shown``: ``claim_live``, ``live_done``): the
  table's rev a live message shows, so an edit for an older state is dropped, and one sender at a time.

Every poll reads rows that exist only while they matter (due timers, unsent posts, workers, open tables
through a partial index), never the finished history: none grows with the number of tables ever played
(bench/cluster_bench.py --polls shows the plans with 100,000 finished tables).
"""

from __future__ import annotations

from typing import Any

import asyncpg

from .errors import StorageError
from .postgres import pooled

# The first statement of a table's transaction: $1 table, $2 update id (or NULL), $3 the clock, $4 worker
# (NULL: a transaction that only loads the table, and owes its chats nothing). Returns the table's new rev,
# its status, whether the update was new (False: applied already) and the worker that owed the table's
# chats its messages before.
TABLE_LOCK = """
    WITH seen AS (
        INSERT INTO updates_seen (update_id, seen) SELECT $2::bigint, $3::float8 WHERE $2::bigint IS NOT NULL
        ON CONFLICT (update_id) DO NOTHING RETURNING 1
    ),
    prev AS (SELECT owed_by FROM tables WHERE id = $1 FOR UPDATE)
    UPDATE tables SET rev = rev + 1, owed_by = coalesce($4, tables.owed_by) WHERE id = $1
    RETURNING rev, status, $2::bigint IS NULL OR EXISTS (SELECT 1 FROM seen), (SELECT owed_by FROM prev)
"""

# A group's lock while a table is opened there (two workers never open two tables in one group): a
# transaction-level advisory lock, gone at COMMIT (one at a time per worker, never an accumulation).
CHAT_LOCK = "SELECT pg_advisory_xact_lock($1::bigint)"

# A worker is gone when none of its connections is left and its heartbeat is older than $2
_GONE = """
    left({col}, 63) NOT IN (SELECT application_name FROM pg_stat_activity WHERE application_name <> '')
    AND NOT EXISTS (SELECT 1 FROM workers AS w WHERE w.worker = {col} AND w.seen >= $2)
"""

# A worker is silent when its heartbeat is older than $2, whether or not it has connections (stopped, hung):
# the tables it owes are shown again by another worker (edits: a stopped worker's older ones, sent when it
# goes on, are dropped by the live-message guard).
_SILENT = "NOT EXISTS (SELECT 1 FROM workers AS w WHERE w.worker = {col} AND w.seen >= $2)"

_PG_ERRORS = (
    asyncpg.PostgresError,
    asyncpg.InterfaceError,
    asyncpg.InternalClientError,
    OSError,
    TimeoutError,
)


class ClusterStore:
    """Timers, heartbeats, orphaned work and the shared sending of the workers of one bot (PostgreSQL only),
    on the storage's pool."""

    def __init__(self, pool: asyncpg.Pool, worker: str) -> None:
        self._pool = pool
        self.worker = worker

    async def _fetch(self, sql: str, *args: Any) -> list[Any]:
        try:
            async with pooled(self._pool) as conn:
                return list(await conn.fetch(sql, *args, timeout=10))
        except _PG_ERRORS as e:
            raise StorageError(f"database error: {e}") from e

    async def _fetchrow(self, sql: str, *args: Any) -> Any:
        rows = await self._fetch(sql, *args)
        return rows[0] if rows else None

    async def ping(self) -> None:
        """A round trip to the server (the health check)."""
        await self._fetch("SELECT 1")

    # ------------------------------------------------------------------ updates applied

    async def applied(self, update_id: int) -> bool:
        """Whether the update was applied already (by any worker)."""
        return bool(await self._fetch("SELECT 1 FROM updates_seen WHERE update_id = $1", update_id))

    async def mark_applied(self, update_id: int, now: float) -> None:
        """An update that changed no table was handled: record it (one that did was recorded with it)."""
        await self._fetch(
            "INSERT INTO updates_seen (update_id, seen) VALUES ($1, $2) ON CONFLICT DO NOTHING",
            update_id,
            now,
        )

    async def prune_applied(self, before: float) -> None:
        """Forget updates recorded before ``before`` (Telegram does not resend so late)."""
        await self._fetch("DELETE FROM updates_seen WHERE seen < $1", before)

    # ------------------------------------------------------------------ the shared send budget and pace

    async def reserve(self, want: int, limit: int) -> tuple[int, float]:
        """Reserve up to ``want`` of the bot's requests in the current second of the server's clock, of which
        the workers together may make ``limit``: (how many were granted, seconds left in that second)."""
        row: Any = None
        for n in (want, 1) if want > 1 else (want,):
            row = await self._fetchrow(
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

    async def pace(self, chat_id: int, interval: float) -> float:
        """Book the group's next request, ``interval`` seconds after the one before (whichever worker sent
        it): how long to wait before making it (0: at once)."""
        row = await self._fetchrow(
            """
            WITH now AS (SELECT extract(epoch FROM clock_timestamp())::float8 AS t)
            INSERT INTO chat_pace AS p (chat_id, next_at) SELECT $1, t + $2 FROM now
            ON CONFLICT (chat_id) DO UPDATE SET next_at = greatest(p.next_at, (SELECT t FROM now)) + $2
            RETURNING next_at - $2 - (SELECT t FROM now)
            """,
            chat_id,
            float(interval),
        )
        return max(0.0, float(row[0]))

    async def claim_live(
        self, chat_id: int, key: str, rev: int, now: float, hold: float
    ) -> tuple[str, int | None]:
        """Before a live message is sent for the table's state ``rev``: ("send", its message id as stored)
        when no newer state was shown and no other worker is sending it now (this worker then is, for up to
        ``hold`` seconds, or until it has no connection left); ("old", None) when a newer state was shown:
        drop it; ("busy", None): wait."""
        row = await self._fetchrow(
            """
            INSERT INTO live_shown AS s (chat_id, key, rev, sender, until) VALUES ($1, $2, $3, $4, $5)
            ON CONFLICT (chat_id, key) DO UPDATE SET rev = excluded.rev, sender = excluded.sender,
                until = excluded.until
            WHERE s.rev <= excluded.rev AND (s.sender IS NULL OR s.sender = excluded.sender OR s.until < $6
                OR left(s.sender, 63) NOT IN (
                    SELECT application_name FROM pg_stat_activity WHERE application_name <> ''
                ))
            RETURNING message_id
            """,
            chat_id,
            key,
            rev,
            self.worker,
            now + hold,
            now,
        )
        if row is not None:
            return "send", None if row[0] is None else int(row[0])
        shown = await self._fetchrow(
            "SELECT rev FROM live_shown WHERE chat_id = $1 AND key = $2", chat_id, key
        )
        return ("old" if shown is not None and int(shown[0]) > rev else "busy"), None

    async def live_done(self, chat_id: int, key: str, message_id: int | None) -> bool:
        """The live message is sent (``message_id``: the message that shows it now, None: unknown). False
        when another worker took it over meanwhile (this one was too slow: what it sent may be older than
        what the other one had sent)."""
        return bool(
            await self._fetch(
                "UPDATE live_shown SET sender = NULL, until = NULL, message_id = coalesce($3, message_id) "
                "WHERE chat_id = $1 AND key = $2 AND sender = $4 RETURNING 1",
                chat_id,
                key,
                message_id,
                self.worker,
            )
        )

    # ------------------------------------------------------------------ timers

    async def store_timers(self, deadlines: dict[int, float | None]) -> None:
        """Several tables' deadlines at once (None: the table has none): one statement, one round trip."""
        ids = list(deadlines)
        dues = [None if d is None else float(d) for d in deadlines.values()]
        await self._fetch(
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
        rows = await self._fetch(
            """
            DELETE FROM timers WHERE table_id IN (
                SELECT table_id FROM timers WHERE due <= $1 ORDER BY due LIMIT $2 FOR UPDATE SKIP LOCKED
            ) RETURNING table_id
            """,
            float(before),
            limit,
        )
        return [int(r[0]) for r in rows]

    async def claim_one(self, table_id: int, before: float) -> bool:
        """The table's deadline if it is due at ``before`` and no worker took it (nor moved it later)."""
        rows = await self._fetch(
            """
            DELETE FROM timers WHERE table_id = (
                SELECT table_id FROM timers WHERE table_id = $1 AND due <= $2 FOR UPDATE SKIP LOCKED
            ) RETURNING table_id
            """,
            table_id,
            float(before),
        )
        return bool(rows)

    # ------------------------------------------------------------------ workers, and what the gone ones left

    async def heartbeat(self, now: float, window: float) -> int:
        """This worker is alive; returns how many are (seen within ``window`` seconds), itself included. Old
        rows of the shared tables go at the same time."""
        row = await self._fetchrow(
            """
            WITH beat AS (
                INSERT INTO workers (worker, seen) VALUES ($1, $2)
                ON CONFLICT (worker) DO UPDATE SET seen = excluded.seen
            ),
            old AS (DELETE FROM workers WHERE seen < $2 - 100 * $3),
            budget AS (DELETE FROM send_budget WHERE second < extract(epoch FROM clock_timestamp()) - 60)
            SELECT count(*) + 1 FROM workers WHERE seen >= $2 - $3 AND worker <> $1
            """,
            self.worker,
            float(now),
            float(window),
        )
        return int(row[0])

    async def cut_stalled(self, after: float) -> list[str]:
        """End the sessions of this bot's workers that have sat in a transaction for ``after`` seconds waiting
        for their client in the middle of a statement (``active``, waiting on ``ClientRead``), and with them
        the row locks they hold; returns the workers whose sessions were cut.

        PostgreSQL's ``idle_in_transaction_session_timeout`` (storage/postgres.py) frees a stopped worker's
        locks only when it stopped between two statements. asyncpg prepares a statement with Parse, Describe
        and Flush and binds it after the answer: a worker stopped (SIGSTOP, a hung event loop) between the
        two leaves its session ``active`` inside the statement, where the server applies no idle timeout and
        ignores ``statement_timeout`` while it waits for the client - the lock stayed until the worker went
        on. A live worker sends the bind in the same turn of its event loop, so ``after`` (the idle timeout)
        is long past anything but a stop. Only sessions named after a worker of the ``workers`` table."""
        rows = await self._fetch(
            """
            SELECT a.application_name, pg_terminate_backend(a.pid) FROM pg_stat_activity AS a
            WHERE a.datname = current_database() AND a.pid <> pg_backend_pid() AND a.state = 'active'
            AND a.wait_event_type = 'Client' AND a.wait_event = 'ClientRead' AND a.xact_start IS NOT NULL
            AND a.state_change < now() - make_interval(secs => $1)
            AND a.application_name IN (SELECT left(worker, 63) FROM workers)
            """,
            float(after),
        )
        return sorted(str(r[0]) for r in rows if r[1])

    async def leave(self) -> None:
        await self._fetch("DELETE FROM workers WHERE worker = $1", self.worker)

    async def orphans(self, stale: float, limit: int = 32) -> list[int]:
        """Open tables whose last mover is silent (heartbeat older than ``stale``: dead, stopped or hung):
        its chats may not show the table's last state. Each is noted as this worker's (taken once)."""
        rows = await self._fetch(
            f"""
            UPDATE tables SET owed_by = $1 WHERE id IN (
                SELECT id FROM tables WHERE status = 'open' AND owed_by IS NOT NULL AND owed_by <> $1
                AND {_SILENT.format(col="owed_by")}
                ORDER BY id LIMIT $3 FOR UPDATE SKIP LOCKED
            ) RETURNING id
            """,
            self.worker,
            float(stale),
            limit,
        )
        return sorted(int(r[0]) for r in rows)

    async def orphan_posts(
        self, stale: float, before: float, limit: int = 100
    ) -> list[tuple[int, int, int, str, str | None]]:
        """One-off messages queued by a worker that is gone, or by none since ``before`` (one written outside
        a table's transaction is claimed by its writer a moment later), now this worker's to send: (id,
        table, chat, text, keyboard), in the order they were written."""
        rows = await self._fetch(
            f"""
            UPDATE outbox SET claimed_by = $1 WHERE id IN (
                SELECT id FROM outbox WHERE (claimed_by IS NULL AND created_at < $4) OR (claimed_by <> $1
                AND {_GONE.format(col="claimed_by")})
                ORDER BY id LIMIT $3 FOR UPDATE SKIP LOCKED
            ) RETURNING id, table_id, chat_id, text, keyboard
            """,
            self.worker,
            float(stale),
            limit,
            float(before),
        )
        return sorted((int(r[0]), int(r[1]), int(r[2]), r[3], r[4]) for r in rows)
