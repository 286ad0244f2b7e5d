"""Several bot worker processes on one PostgreSQL database, behind one webhook (docs/deploy.md).

Each worker is the single-process bot, unchanged, plus this module, which makes a table's lock a lease that
holds across processes:

* ``TableLease`` stands in for a table's ``asyncio.Lock``: taking it takes the table's lease in the database
  too (``storage/cluster.py``: an advisory lock), so every update for a table is applied by one worker at a
  time. A worker that finds the table was last moved by another one rebuilds it from the log first (the same
  rebuild as after a restart: ``bot/table/restore.py``), so it always works on the current state.
* A worker keeps a table's lease as long as it works on it: a worker that keeps getting a table's updates
  pays nothing per update. It gives the lease back only when another worker asks for it (NOTIFY), and only
  once its outbox has sent what the table's chats are owed (and the ids of new messages are stored). So the
  next worker starts from messages that are all out, and a chat's messages keep their order across workers.
* Telegram spreads updates over the workers at random: a worker that gets a button of a table another worker
  holds forwards the update to that worker (NOTIFY on its channel) and answers Telegram once that one has
  handled it; if that worker is gone, it handles the update itself. So a busy table stays on one worker.
* Before an update is handled, the tables it concerns are brought in (``sync``): a table another worker
  opened is loaded, one it closed is dropped.
* Deadlines go to the database as well as to this worker's event-loop timers (``ClusterTimers``): the
  worker that armed one normally runs it; if it died, any free worker takes the deadline when it is
  overdue (``FOR UPDATE SKIP LOCKED``) and runs it, after rebuilding the table.
* Workers beat a heartbeat; the bot's global send budget (~30 messages a second) is split among the workers
  alive. The tables of a worker that died are taken over at once by another (the server drops a dead
  process's sessions, and with them its name): they are rebuilt and carried on, unseen by the players
  except for what the dead worker had not sent yet, which is sent now.
* One-off messages (a player's result of a hand, notes, the 大结算) are rows of the database's outbox,
  written in the transaction of what caused them and deleted once sent; a worker gives a table's lease back
  only once they are sent and deleted (the flush rule above: a post's row is deleted before its chat is
  idle). The worker that takes over a dead worker's table - a closed one too, while it has rows left -
  sends them first, in the order they were written, then shows the table again. A chat's messages keep
  their order; a post is sent twice only if its worker died after Telegram took it and before its row
  was deleted (at most one per kill: Telegram has no idempotency key).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import logging
import os
import secrets
from collections.abc import AsyncIterator, Callable
from typing import Any

from telegram import Update
from telegram.ext import AIORateLimiter, Application, ApplicationHandlerStop, ContextTypes, TypeHandler

from bot.messages.presses import decode
from bot.table.restore import rebuild
from bot.table.runtime import TableRuntime, Tables
from bot.table.service import TableService
from bot.table.timers import Timers
from bot.telegram.outbox import Outbox
from bot.telegram.ptb_private import base_limiter
from storage import Restored, StorageError
from storage.cluster import MAX_PAYLOAD, ClusterStore, Lease, channel_of
from storage.postgres import PgStorage
from storage.store import replay_from

log = logging.getLogger(__name__)

AnyApp = Application[Any, Any, Any, Any, Any, Any]
SEND_BUDGET = 30.0  # messages a second Telegram allows one bot, over all its chats
HEARTBEAT_S = 2.0
POLL_S = 0.5  # how often a worker looks for overdue deadlines
GRACE_S = 1.5  # a deadline is taken by any worker only this long after it is due (its own worker goes first)
FLUSH_POLL_S = 0.005  # a lease asked for is given back once its table's chats are flushed: looked at so often
MAX_HOPS = 2  # an update is forwarded to the worker holding its table at most so often (the lease may move)
FORWARD_CHECK_S = 1.0  # a worker that forwarded an update checks so often that the other one is alive


class TableLease:
    """A table's lock in a worker of several: a local ``asyncio.Lock`` (tasks of this worker take turns) and
    the table's lease in the database (workers take turns). The lease is kept while this worker works on
    the table; it is given back only when another worker asks for it (``wanted``), once the table's chats
    have nothing left to send."""

    def __init__(self, cluster: Cluster, table_id: int) -> None:
        self._cluster = cluster
        self.table_id = table_id
        self._local = asyncio.Lock()
        self._lease: Lease | None = None
        self._stale = False  # taken, but the table not brought up to date yet (a refresh failed)
        self._giving = False

    @property
    def held(self) -> bool:
        return self._lease is not None

    def locked(self) -> bool:
        return self._local.locked()

    async def acquire(self) -> bool:
        await self._local.acquire()
        try:
            if self._lease is None:
                await self._took(await self._cluster.store.take(self.table_id))
            elif self._stale:
                await self._cluster.refresh(self.table_id)
                self._stale = False
        except BaseException:
            self._local.release()
            raise
        return True

    async def _took(self, lease: Lease) -> None:
        """The lease is ours (the caller holds the local lock): bring the table up to date if need be."""
        self._lease = lease
        if lease.moved or self.table_id not in self._cluster.registry():
            self._stale = True
            await self._cluster.refresh(self.table_id, resend=lease.orphaned)
            self._stale = False
        self._cluster.paced(self.table_id, lease.group_sent)

    async def held_elsewhere(self) -> str | None:
        """Take the lease if it is free (and the table up to date); else the name of the worker that holds
        it ("" when that is not known: wait for it with ``acquire``)."""
        if self._lease is not None and not self._stale:
            return None
        async with self._local:
            if self._lease is None:
                got = await self._cluster.store.try_take(self.table_id)
                if not isinstance(got, Lease):
                    return got or ""
                await self._took(got)
            elif self._stale:
                await self._cluster.refresh(self.table_id)
                self._stale = False
        return None

    def release(self) -> None:
        self._local.release()

    async def __aenter__(self) -> None:
        await self.acquire()

    async def __aexit__(self, *exc: object) -> None:
        self.release()

    def forget(self) -> None:
        """The lease connection is gone, and with it the lease (the server freed it)."""
        self._lease = None

    def wanted(self) -> None:
        """Another worker waits for this table: give it back once what this worker is doing with it is done
        and the table's chats have nothing left to send (so they see the table's messages in order)."""
        if self._lease is not None and not self._giving:
            self._giving = True
            self._cluster.spawn(self._give_when_flushed())

    async def _give_when_flushed(self) -> None:
        try:
            async with self._local:
                while self._lease is not None and self._cluster.busy(self.table_id):
                    await asyncio.sleep(FLUSH_POLL_S)
                await self._give()
        finally:
            self._giving = False

    async def _give(self) -> None:
        lease, self._lease = self._lease, None
        if lease is None:
            return
        group_sent = self._cluster.gave(self.table_id)
        try:
            await self._cluster.store.give(lease, group_sent)
        except Exception as e:  # the connection is gone, and the server freed the lock with it
            log.info("table %s: lease given back with its connection (%s)", self.table_id, e)

    async def give_now(self) -> None:
        async with self._local:
            with contextlib.suppress(Exception):
                await self._give()


class SendBudget:
    """The bot's requests per second (Telegram's ~30 a second for a bot), counted in the database for all its
    workers together: a worker reserves a few at a time (one round trip per ``batch`` requests) in the
    current second of the server's clock, and when the bot has used them all it waits for the next second.
    Reserved requests a worker does not use within their second are lost to that second: the workers may
    together make fewer than ``limit`` requests in a second, never more."""

    def __init__(self, store: ClusterStore, limit: int = int(SEND_BUDGET), batch: int = 3) -> None:
        self.store, self.limit, self.batch = store, limit, batch
        self._left = 0
        self._until = 0.0
        self._lock = asyncio.Lock()
        self.waited = 0  # times a request waited for the next second (tests, the benchmark)

    async def take(self) -> None:
        """One request of the budget: at once if this worker has one reserved, else after reserving."""
        async with self._lock:
            loop = asyncio.get_running_loop()
            while True:
                if self._left > 0 and loop.time() < self._until:
                    self._left -= 1
                    return
                try:
                    granted, rest = await self.store.reserve(self.batch, self.limit)
                except Exception as e:  # the database is away: the local limiter still paces
                    log.warning("send budget not reserved: %s", e)
                    return
                if granted:
                    self._left, self._until = granted, loop.time() + rest
                else:
                    self.waited += 1
                    await asyncio.sleep(rest + 0.001)


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
    """This worker's timers (bot/table/timers.py), with every deadline also written to the database (in
    order)."""

    def __init__(self, *args: Any, store: ClusterStore, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.store = store
        self._writes: asyncio.Queue[tuple[int, float | None]] = asyncio.Queue()
        self._writer: asyncio.Task[None] | None = None
        self._arming = False

    def arm(self, table_id: int, deadline: float) -> None:
        changed = self.deadline(table_id) != deadline
        self._arming = True  # the base class cancels the earlier timer first: that is no clear to write
        try:
            super().arm(table_id, deadline)
        finally:
            self._arming = False
        if changed:
            self._write(table_id, deadline)

    def cancel(self, table_id: int) -> None:
        if not self._arming and self.deadline(table_id) is not None:
            self._write(table_id, None)
        super().cancel(table_id)

    def drop_local(self, table_id: int) -> None:
        """Forget the table's timer here, not in the database: another worker holds the table now."""
        super().cancel(table_id)

    def _write(self, table_id: int, due: float | None) -> None:
        self._writes.put_nowait((table_id, due))
        if self._writer is None or self._writer.done():
            self._writer = asyncio.get_running_loop().create_task(self._drain(), name="timers-db")

    async def _drain(self) -> None:
        while not self._writes.empty():
            latest: dict[int, float | None] = {}  # what piled up meanwhile: only each table's last deadline
            while not self._writes.empty():
                table_id, due = self._writes.get_nowait()
                latest[table_id] = due
            try:
                await self.store.store_timers(latest)  # all of them in one round trip
            except Exception as e:
                log.warning("tables %s: deadlines not written to the database: %s", sorted(latest), e)

    async def flush(self) -> None:
        if self._writer is not None:
            await asyncio.gather(self._writer, return_exceptions=True)


class Cluster:
    """One worker's part in the cluster: leases, forwarding, loading tables, shared deadlines, heartbeat, send
    budget."""

    def __init__(self, storage: PgStorage, store: ClusterStore, clock: Callable[[], float]) -> None:
        self.storage = storage
        self.store = store
        self.clock = clock
        self.service: TableService | None = None
        self.outbox: Any = None
        self.limiter: AIORateLimiter | None = None
        self.budget: SendBudget | None = None  # counted in the database: on when the limiter paces
        self.app: AnyApp | None = None
        self.workers = 1
        self.seen = 0  # updates this worker handled (for tests and the benchmark)
        self.rebuilt = 0  # tables it rebuilt because another worker had moved them
        self.caught_up = 0  # ... of which by applying only the actions logged since (not a whole replay)
        self.forwarded = 0  # updates it sent on to the worker that holds their table
        self.handed = 0  # leases it gave back because another worker asked for them
        self._leases: dict[int, TableLease] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._loop_task: asyncio.Task[None] | None = None
        self._adopting: set[int] = set()
        self._acks: dict[str, asyncio.Future[bool]] = {}
        self._hops: dict[int, int] = {}  # update id -> how often it was forwarded already
        self._holders: dict[int, str] = {}  # table -> the worker holding it (until it says it gave it back)
        if store is not None:
            store.on_want = self._wanted
            store.on_free = self._freed
            store.on_forwarded = self._heard
            store.on_lost = self._lost

    @classmethod
    async def connect(cls, storage: PgStorage, clock: Callable[[], float]) -> Cluster:
        worker = f"{os.uname().nodename}:{os.getpid()}:{secrets.token_hex(4)}"
        return cls(storage, await ClusterStore.connect(storage.dsn, worker), clock)

    def lease_for(self, table_id: int) -> TableLease:
        lease = self._leases.get(table_id)
        if lease is None:
            lease = self._leases[table_id] = TableLease(self, table_id)
        return lease

    def registry(self) -> dict[int, TableRuntime]:
        return self.service.registry.by_id if self.service is not None else {}

    def spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def busy(self, table_id: int) -> bool:
        """Whether the outbox still has something to send to one of the table's chats."""
        rt = self.registry().get(table_id)
        box = self.outbox
        if rt is None or box is None:
            return False
        chats = {rt.chat_id} | {u for u in (*rt.hand_seats(), *rt.seats) if u is not None}
        return any(box.busy(c) for c in chats)

    def gave(self, table_id: int) -> float | None:
        """A lease goes: the table's timer is the next holder's now (its deadline stays in the database), and
        so is its group's pace: returns when the group was last sent a request."""
        self.handed += 1
        timers = getattr(self.service, "timers", None)
        if isinstance(timers, ClusterTimers):
            timers.drop_local(table_id)
        rt = self.registry().get(table_id)
        box = self.outbox
        return box.group_sent(rt.chat_id) if rt is not None and isinstance(box, Outbox) else None

    def paced(self, table_id: int, group_sent: float | None) -> None:
        """A lease taken: the table's group keeps the pace of the worker that sent it a request last."""
        rt = self.registry().get(table_id)
        if rt is not None and isinstance(self.outbox, Outbox):
            self.outbox.paced_from(rt.chat_id, group_sent)

    def _wanted(self, table_id: int) -> None:
        lease = self._leases.get(table_id)
        if lease is not None:
            lease.wanted()

    def _freed(self, table_id: int) -> None:
        self._holders.pop(table_id, None)

    def _lost(self) -> None:
        for lease in self._leases.values():
            lease.forget()

    # ------------------------------------------------------------------ updates for tables held elsewhere

    async def _forward(self, update: Update, holder: str, hops: int) -> bool:
        """Hand ``update`` to the worker that holds its table, and wait until it has handled it (so Telegram
        is answered only then: an update is never lost with a worker). False: handle it here (too big to
        forward, that worker is gone, or it failed)."""
        token = secrets.token_hex(8)
        payload = f"u:{self.store.channel}:{token}:{hops + 1}:{json.dumps(update.to_dict())}"
        if len(payload.encode()) > MAX_PAYLOAD:
            return False
        done: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self._acks[token] = done
        try:
            await self.store.notify(channel_of(holder), payload)
            while True:
                try:
                    ok = await asyncio.wait_for(asyncio.shield(done), FORWARD_CHECK_S)
                    break
                except TimeoutError:
                    if not await self.store.alive(holder):
                        return False
        finally:
            self._acks.pop(token, None)
        if not ok:
            log.warning("a forwarded update failed in the worker that holds its table: handled here")
        return ok

    def _heard(self, payload: str) -> None:
        """On this worker's channel: an update forwarded to it, or the answer to one it forwarded."""
        kind, _, rest = payload.partition(":")
        if kind == "u":
            channel, token, hops, body = rest.split(":", 3)
            self.spawn(self._handle_forwarded(channel, token, int(hops), body))
        elif kind == "d":
            token, _, ok = rest.partition(":")
            done = self._acks.get(token)
            if done is not None and not done.done():
                done.set_result(ok == "1")

    async def _handle_forwarded(self, channel: str, token: str, hops: int, body: str) -> None:
        ok = False
        try:
            assert self.app is not None
            update = Update.de_json(json.loads(body), self.app.bot)
            self._hops[update.update_id] = hops
            await self.app.process_update(update)
            ok = True
        except Exception:
            log.exception("a forwarded update failed")
        try:
            await self.store.notify(channel, f"d:{token}:{int(ok)}")
        except Exception as e:
            log.warning("a forwarded update not acknowledged: %s", e)

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
            await svc.present.queue_posts(table_id)  # a closed table's last messages a dead worker left
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
        if quiet and rt.playing:
            svc.play._arm(rt)  # the table's timer is this worker's now (the last holder dropped its own)
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
            state, facts = replay_from(stored.hand, rt.state, rt.live.facts, actions)
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
        if chat is not None and chat.type != "private":
            ids |= set(await self.storage.open_table_ids(chat_id=chat.id))
        elif user is not None:
            ids |= set(await self.storage.open_table_ids(user_id=user.id))
        if chat is not None and chat.type != "private":
            held = svc.registry.in_chat(chat.id)
            if held is not None:
                ids.add(held.id)
        elif user is not None:
            ids |= {rt.id for rt in svc.registry.of_user(user.id)}
        return ids

    async def on_update(self, update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Before any handler: a button of a table another worker holds is forwarded to it (and nothing
        more is done here); otherwise the tables this update concerns are brought in and current here."""
        if not isinstance(update, Update) or self.service is None:
            return
        self.seen += 1
        hops = self._hops.pop(update.update_id, 0)
        try:
            query = update.callback_query
            table = getattr(decode(query.data), "table", None) if query is not None else None
            if isinstance(table, int) and hops < MAX_HOPS:
                # the holder as last seen (no round trip), until it says it gave the table back
                lease = self.lease_for(table)
                holder = None if lease.held else self._holders.get(table)
                if holder is None:
                    holder = await lease.held_elsewhere()
                if holder and holder != self.store.worker:
                    self._holders[table] = holder
                    if await self._forward(update, holder, hops):
                        self.forwarded += 1
                        raise ApplicationHandlerStop
                    self._holders.pop(table, None)
            await self.bring_in(await self.tables_of(update))
        except StorageError as e:
            log.warning("tables not brought in for an update: %s", e)

    async def take_if_free(self, table_ids: set[int]) -> None:
        """Each table whose lease is free is taken and loaded (or brought up to date); one another worker
        alive holds is left to it."""
        for table_id in sorted(table_ids):
            try:
                await self.lease_for(table_id).held_elsewhere()
            except StorageError as e:
                log.warning("table %s not taken: %s", table_id, e)

    async def restore_all(self) -> None:
        """A worker's start: every open table, rebuilt under its lease."""
        svc = self.service
        assert svc is not None
        try:
            await self.storage.derive_pending()
        except StorageError as e:
            log.warning("hand facts not derived: %s", e)
        await self.take_if_free(await self.store.open_tables())

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
                    self.spawn(self._due(table_id))
                orphans = await self.store.orphans() - self._adopting
                if orphans:
                    log.info("carrying on %d table(s) of a worker that stopped", len(orphans))
                    self._adopting |= orphans
                    self.spawn(self._adopt(orphans))
            except asyncio.CancelledError:
                raise
            except Exception as e:
                log.warning("cluster upkeep failed: %s", e)
            await asyncio.sleep(POLL_S)

    async def _adopt(self, table_ids: set[int]) -> None:
        try:
            await self.take_if_free(table_ids)
        except Exception:
            log.exception("tables of a stopped worker not taken over")
        finally:
            self._adopting -= table_ids

    async def _due(self, table_id: int) -> None:
        svc = self.service
        assert svc is not None
        try:
            if await self.lease_for(table_id).held_elsewhere():
                return  # a worker alive holds the table: its own timer runs the deadline
            await svc.on_due(table_id)
        except Exception:
            log.exception("table %s: a deadline taken over failed", table_id)

    def _share_budget(self) -> None:
        """The limiter's share of the bot's budget: all of it when the database counts the requests of every
        worker (``SendBudget``), else an equal share for each worker alive."""
        base = base_limiter(self.limiter)
        if base is not None:
            base.max_rate = SEND_BUDGET if self.budget is not None else SEND_BUDGET / max(1, self.workers)

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
    cluster.app = app
    if base_limiter(cluster.limiter) is not None and isinstance(cluster.outbox, Outbox):
        cluster.budget = SendBudget(cluster.store)  # the bot's budget, counted for all workers
        cluster.outbox.budget = cluster.budget.take
    # group -2: before lifecycle's (-1) and the commands and buttons (0)
    app.add_handler(TypeHandler(Update, cluster.on_update), group=-2)
