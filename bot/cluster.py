"""Several bot worker processes on one PostgreSQL database, behind one webhook (docs/deploy.md).

Each worker is the single-process bot, unchanged, plus this module, which makes a table's lock a lease that
holds across processes:

* ``TableLease`` stands in for a table's ``asyncio.Lock``: taking it takes the table's lease in the database
  too (``storage/cluster.py``: an advisory lock), so every update for a table is applied by one worker at a
  time. A worker that finds the table was last moved by another one rebuilds it from the log first (the same
  rebuild as after a restart: ``bot/restore.py``), so it always works on the current state.
* The lease is given back lazily: only once this worker's outbox has sent what the table's chats are owed
  (and the ids of new messages are stored). So the next worker starts from messages that are all out, and a
  chat's messages keep their order across workers; a worker that keeps getting a table's updates keeps its
  lease and pays nothing per update.
* Before an update is handled, the tables it concerns are brought in (``sync``): a table another worker
  opened is loaded, one it closed is dropped.
* Deadlines go to the database as well as to this worker's JobQueue (``ClusterTimers``): the worker that
  armed one normally runs it; if it died, any free worker takes the deadline when it is overdue
  (``FOR UPDATE SKIP LOCKED``) and runs it, after rebuilding the table.
* Workers beat a heartbeat; the bot's global send budget (~30 messages a second) is split among the workers
  alive. The tables of a worker that died are taken over at once by another (the server drops a dead
  process's sessions, and with them its name): they are rebuilt and carried on, unseen by the players
  except for what the dead worker had not sent yet, which is sent now.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import os
import secrets
from collections.abc import AsyncIterator, Callable
from typing import Any

from telegram import Update
from telegram.ext import AIORateLimiter, Application, ContextTypes, TypeHandler

from storage import Restored, StorageError
from storage.cluster import ClusterStore, Lease
from storage.postgres import PgStorage
from storage.store import replay_from

from .keyboards import decode
from .restore import rebuild
from .runtime import TableRuntime, Tables
from .service import TableService
from .timers import Timers

log = logging.getLogger(__name__)

AnyApp = Application[Any, Any, Any, Any, Any, Any]
SEND_BUDGET = 30.0  # messages a second Telegram allows one bot, over all its chats
HEARTBEAT_S = 2.0
POLL_S = 0.5  # how often a worker looks for overdue deadlines
GRACE_S = 1.5  # a deadline is taken by any worker only this long after it is due (its own worker goes first)
LINGER_S = 0.02  # a lease is kept this long after its table's chats are flushed (the next update is near)


class TableLease:
    """A table's lock in a worker of several: a local ``asyncio.Lock`` (tasks of this worker take turns) and
    the table's lease in the database (workers take turns), the latter kept until the outbox is flushed."""

    def __init__(self, cluster: Cluster, table_id: int) -> None:
        self._cluster = cluster
        self.table_id = table_id
        self._local = asyncio.Lock()
        self._lease: Lease | None = None
        self._uses = 0  # bumped at each release: a pending give-back sees whether the table was used since

    def locked(self) -> bool:
        return self._local.locked()

    async def acquire(self) -> bool:
        await self._local.acquire()
        try:
            if self._lease is None:
                self._lease = await self._cluster.store.take(self.table_id)
                if self._lease.moved:
                    await self._cluster.refresh(self.table_id, resend=self._lease.orphaned)
        except BaseException:
            self._local.release()
            raise
        return True

    def release(self) -> None:
        self._local.release()
        self._uses += 1
        self._cluster.give_later(self)

    async def __aenter__(self) -> None:
        await self.acquire()

    async def __aexit__(self, *exc: object) -> None:
        self.release()

    async def give_when_flushed(self, chats: Callable[[], set[int]], busy: Callable[[int], bool]) -> None:
        """Give the lease back once the table's chats have nothing left to send and nobody here uses it."""
        uses = self._uses
        while True:
            await asyncio.sleep(LINGER_S)
            if self._uses != uses or self._local.locked():
                return  # used again meanwhile: that use gives it back later
            if not any(busy(c) for c in chats()):
                break
        lease, self._lease = self._lease, None
        if lease is not None:
            try:
                await self._cluster.store.give(lease)
            except Exception as e:  # the connection is gone, and the server freed the lock with it
                log.info("table %s: lease given back with its connection (%s)", self.table_id, e)

    async def give_now(self) -> None:
        async with self._local:
            lease, self._lease = self._lease, None
            if lease is not None:
                with contextlib.suppress(Exception):
                    await self._cluster.store.give(lease)


class ClusterTables(Tables):
    """The open tables of one worker: each gets a ``TableLease`` for its lock; a group's chat lock is an
    advisory lock too (two workers never open two tables in one group)."""

    def __init__(self) -> None:
        super().__init__()
        self.cluster: Cluster | None = None

    def add(self, rt: TableRuntime) -> None:
        if self.cluster is not None and not isinstance(rt.lock, TableLease):
            rt.lock = self.cluster.lease_for(rt.id)  # type: ignore[assignment]
        super().add(rt)

    @contextlib.asynccontextmanager
    async def _chat_lease(self, chat_id: int) -> AsyncIterator[None]:
        async with super().chat_lock(chat_id):
            if self.cluster is None:
                yield
                return
            async with self.cluster.store.chat_lock(chat_id):
                yield

    def chat_lock(self, chat_id: int) -> Any:  # an async context manager, as asyncio.Lock is
        return self._chat_lease(chat_id)


class ClusterTimers(Timers):
    """This worker's JobQueue timers, with every deadline also written to the database (in order)."""

    def __init__(self, *args: Any, store: ClusterStore, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.store = store
        self._writes: asyncio.Queue[tuple[int, float | None]] = asyncio.Queue()
        self._writer: asyncio.Task[None] | None = None

    def arm(self, table_id: int, deadline: float) -> None:
        if self.deadline(table_id) != deadline:
            self._write(table_id, deadline)
        super().arm(table_id, deadline)

    def cancel(self, table_id: int) -> None:
        if self.deadline(table_id) is not None:
            self._write(table_id, None)
        super().cancel(table_id)

    def _write(self, table_id: int, due: float | None) -> None:
        self._writes.put_nowait((table_id, due))
        if self._writer is None or self._writer.done():
            self._writer = asyncio.get_running_loop().create_task(self._drain(), name="timers-db")

    async def _drain(self) -> None:
        while not self._writes.empty():
            table_id, due = self._writes.get_nowait()
            try:
                if due is None:
                    await self.store.clear_timer(table_id)
                else:
                    await self.store.set_timer(table_id, due)
            except Exception as e:
                log.warning("table %s: deadline not written to the database: %s", table_id, e)

    async def flush(self) -> None:
        if self._writer is not None:
            await asyncio.gather(self._writer, return_exceptions=True)


class Cluster:
    """One worker's part in the cluster: leases, loading tables, shared deadlines, heartbeat, send budget."""

    def __init__(self, storage: PgStorage, store: ClusterStore, clock: Callable[[], float]) -> None:
        self.storage = storage
        self.store = store
        self.clock = clock
        self.service: TableService | None = None
        self.outbox: Any = None
        self.limiter: AIORateLimiter | None = None
        self.workers = 1
        self.seen = 0  # updates this worker handled (for tests and the benchmark)
        self.rebuilt = 0  # tables it rebuilt because another worker had moved them
        self.caught_up = 0  # ... of which by applying only the actions logged since (not a whole replay)
        self._leases: dict[int, TableLease] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._loop_task: asyncio.Task[None] | None = None
        self._adopting: set[int] = set()

    @classmethod
    async def connect(cls, storage: PgStorage, clock: Callable[[], float]) -> Cluster:
        worker = f"{os.uname().nodename}:{os.getpid()}:{secrets.token_hex(4)}"
        return cls(storage, await ClusterStore.connect(storage.dsn, worker), clock)

    def lease_for(self, table_id: int) -> TableLease:
        lease = self._leases.get(table_id)
        if lease is None:
            lease = self._leases[table_id] = TableLease(self, table_id)
        return lease

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def give_later(self, lease: TableLease) -> None:
        svc = self.service
        if svc is None:
            return

        def chats() -> set[int]:
            rt = svc.registry.by_id.get(lease.table_id)
            if rt is None:
                return set()
            return {rt.chat_id} | {u for u in (*rt.hand_seats(), *rt.seats) if u is not None}

        self._spawn(lease.give_when_flushed(chats, self._busy))

    def _busy(self, chat_id: int) -> bool:
        box = self.outbox
        return box is not None and box.busy(chat_id)

    # ------------------------------------------------------------------ tables moved elsewhere

    async def refresh(self, table_id: int, *, resend: bool = False) -> None:
        """Rebuild a table from the database (the caller holds its lease): another worker moved it, or this
        worker has not loaded it yet. A table no longer open is dropped. ``resend``: the worker that moved it
        died, maybe after sending messages whose ids it had not stored yet; the table is shown in new
        messages, below those, so that the newest message of each chat is the live one."""
        svc = self.service
        assert svc is not None
        rt = svc.registry.by_id.get(table_id)
        known = rt is not None
        caught = await self._caught_up(rt) if rt is not None and not resend else None
        found = [caught] if caught is not None else await self.storage.restore(table_id)
        if not found:
            if rt is not None:
                rt.closed = True
                svc.registry.remove(rt)
                svc.play.stop_clock(rt)
            return
        r = found[0]
        self.rebuilt += rt is not None
        self.caught_up += caught is not None
        fresh = TableRuntime(r.table, r.settings, list(r.table.seats), dict(r.table.options))
        if rt is None:
            rt = fresh
        else:
            for f in dataclasses.fields(TableRuntime):
                if f.name != "lock":
                    setattr(rt, f.name, getattr(fresh, f.name))
        svc.registry.add(rt)
        users = {u for u in r.table.seats if u is not None}
        if r.hand is not None:
            users |= {u for u in r.hand.seats if u is not None}
        await svc.people.load(users)
        # a table handed over by a worker alive is only rebuilt in memory; one loaded for the first time or
        # taken over from a dead worker is carried on (AI moves, timers) and shown
        quiet = known and not resend
        await rebuild(self.storage, rt, r, svc.present, svc.play, resend=resend, quiet=quiet)
        svc.night.arm(rt)

    async def _caught_up(self, rt: TableRuntime) -> Restored | None:
        """The table as stored, its hand in progress brought to the current version by applying only the
        actions logged since the version this worker holds (the state version check): no replay of the
        whole hand. None when that does not apply (no hand here, another hand there, a closed table): the
        caller rebuilds it all."""
        if rt.hand is None or rt.state is None:
            return None
        delta = await self.storage.table_delta(rt.id, rt.state.version)
        if delta is None:
            return None
        stored, actions = delta
        if stored.hand is None or stored.hand.id != rt.hand.id:
            return None
        try:
            state, facts = replay_from(stored.hand, rt.state, rt.facts, actions)
        except StorageError:
            return None
        return dataclasses.replace(stored, state=state, facts=facts)

    async def bring_in(self, table_ids: set[int]) -> None:
        """Take each table's lease once: one this worker does not have is loaded, one another worker moved is
        rebuilt, one closed elsewhere is dropped."""
        svc = self.service
        assert svc is not None
        for table_id in sorted(table_ids):
            lease = self.lease_for(table_id)
            if table_id not in svc.registry.by_id:
                async with lease:
                    if table_id not in svc.registry.by_id:
                        await self.refresh(table_id)
            else:
                async with lease:
                    pass

    async def tables_of(self, update: Update) -> set[int]:
        """The open tables an update concerns (as the database says), and those this worker holds for it."""
        svc = self.service
        assert svc is not None
        query = update.callback_query
        if query is not None:  # a button names its table: nothing to look up
            table = getattr(decode(query.data), "table", None)
            return {table} if isinstance(table, int) else set()
        ids: set[int] = set()
        chat = update.effective_chat
        user = update.effective_user

        async def run(db: Any) -> list[tuple[Any, ...]]:
            rows: list[tuple[Any, ...]] = []
            if chat is not None and chat.type != "private":
                rows += await db.execute_fetchall(
                    "SELECT id FROM tables WHERE status = 'open' AND chat_id = ?", (chat.id,)
                )
            elif user is not None:
                rows += await db.execute_fetchall(
                    "SELECT id FROM tables WHERE status = 'open' "
                    "AND seats::jsonb @> to_jsonb(CAST(? AS BIGINT))",
                    (user.id,),
                )
            return rows

        ids |= {int(r[0]) for r in await self.storage._single(run)}
        if chat is not None and chat.type != "private":
            held = svc.registry.in_chat(chat.id)
            if held is not None:
                ids.add(held.id)
        elif user is not None:
            ids |= {rt.id for rt in svc.registry.of_user(user.id)}
        return ids

    async def on_update(self, update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Before any handler: the tables this update concerns are current in this worker."""
        if not isinstance(update, Update) or self.service is None:
            return
        self.seen += 1
        try:
            await self.bring_in(await self.tables_of(update))
        except StorageError as e:
            log.warning("tables not brought in for an update: %s", e)

    async def restore_all(self) -> None:
        """A worker's start: every open table, rebuilt under its lease."""
        svc = self.service
        assert svc is not None
        try:
            await self.storage.derive_pending()
        except StorageError as e:
            log.warning("hand facts not derived: %s", e)
        await self.bring_in(await self.store.open_tables())

    # ------------------------------------------------------------------ deadlines, heartbeat, budget

    async def _run(self) -> None:
        beat = 0.0
        loop = asyncio.get_running_loop()
        while True:
            try:
                if loop.time() >= beat:
                    beat = loop.time() + HEARTBEAT_S
                    self.workers = await self.store.heartbeat(self.clock(), 3 * HEARTBEAT_S)
                    self._share_budget()
                for table_id in await self.store.claim_due(self.clock() - GRACE_S):
                    self._spawn(self._due(table_id))
                orphans = await self.store.orphans() - self._adopting
                if orphans:
                    log.info("carrying on %d table(s) of a worker that stopped", len(orphans))
                    self._adopting |= orphans
                    self._spawn(self._adopt(orphans))
            except asyncio.CancelledError:
                raise
            except Exception as e:
                log.warning("cluster upkeep failed: %s", e)
            await asyncio.sleep(POLL_S)

    async def _adopt(self, table_ids: set[int]) -> None:
        try:
            await self.bring_in(table_ids)
        except Exception:
            log.exception("tables of a stopped worker not taken over")
        finally:
            self._adopting -= table_ids

    async def _due(self, table_id: int) -> None:
        svc = self.service
        assert svc is not None
        try:
            await self.bring_in({table_id})
            await svc.on_due(table_id)
        except Exception:
            log.exception("table %s: a deadline taken over failed", table_id)

    def _share_budget(self) -> None:
        base = getattr(self.limiter, "_base_limiter", None)
        if base is not None:
            base.max_rate = SEND_BUDGET / max(1, self.workers)

    def start(self) -> None:
        self._loop_task = asyncio.get_running_loop().create_task(self._run(), name="cluster")

    async def close(self) -> None:
        if self._loop_task is not None:
            self._loop_task.cancel()
            await asyncio.gather(self._loop_task, return_exceptions=True)
        for lease in list(self._leases.values()):
            await lease.give_now()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        with contextlib.suppress(Exception):
            await self.store.leave()
        await self.store.close()


def install(app: AnyApp, cluster: Cluster) -> None:
    # group -2: before lifecycle's (-1) and the commands and buttons (0)
    app.add_handler(TypeHandler(Update, cluster.on_update), group=-2)
