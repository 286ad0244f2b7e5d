"""Several bot worker processes on one PostgreSQL database, behind one webhook (docs/deploy.md). Workers are
stateless: any worker serves any update and any timer, and nothing is owned past a transaction.

* **A table's lock is its row lock.** ``RowLock`` stands in for a table's ``asyncio.Lock``: taking it begins
  a transaction that locks the table's row (``storage/cluster.py``: ``TABLE_LOCK``), and every storage call
  the task makes until it lets go runs in that transaction (``PgStorage.scope``), which commits when it lets
  go. So a move, the seats' decisions it opens, its one-off messages and the update it came from commit as
  one, and two workers never move one table at once.
* **The table in memory is a cache.** Each transaction adds one to the table's ``rev``: a worker whose copy is
  at the rev just before its own is current; otherwise it catches up in the same transaction, applying only
  the actions logged since the version it holds (``table_delta``, ``replay_from``), or rebuilding the table
  from the log (``bot/table/restore.py``) when more than its hand moved. A table this worker never saw is
  loaded the same way.
* **Nothing stale is ever written, and nothing freezes.** A transaction that fails (the server restarted, a
  statement refused) rolls back whole; the worker forgets its copy and shows the table again as stored,
  carrying it on (AI moves, timers) - retrying until the database answers. An update whose transaction
  could not begin or commit is answered 5xx (bot/telegram/webhook.py) and Telegram sends it again.
* **A hung or dead worker holds nothing.** Its transaction ends with its session (the pool's
  ``idle_in_transaction_session_timeout``; a session stopped in the middle of a statement, which that
  timeout does not reach, is cut off by the other workers: ``cut_stalled``); the others wait at most
  ``lock_timeout`` for a row.
* **Updates are applied once.** The update's id is recorded in the transaction of the table it changes
  (``updates_seen``), or after it is handled when it changes none: a second delivery is answered 200 and
  not handled again.
* **Timers** are this worker's event-loop timers and rows of ``timers``: when a timer fires, the worker takes
  the row (``claim_one``) and runs it; rows overdue by ``GRACE_S`` (their worker died, hung, or the table
  moved elsewhere) are taken by any worker (``claim_due``, ``SKIP LOCKED``).
* **Messages.** One-off messages are rows of the outbox written in the transaction of what causes them; the
  worker that queues them claims them, and the rows of a worker that is gone are sent by another
  (``orphan_posts``), in the order they were written. A live message (a group's table, a player's panel)
  carries the table's rev it shows: before it is sent the worker checks ``live_shown`` - an older state than
  the one shown is dropped, and only one worker sends a given message at a time; the message's id is kept
  there too, so a worker whose copy holds an older id edits the right message. Tables whose last mover died
  before its messages went out (``orphans``) are shown again by another worker.
* **Sending is shared**: the bot's ~30 requests a second (``SendBudget``) and each group's pace (one request
  per ``group_interval``, ``chat_pace``) are counted in the database for all workers.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import sys
from collections.abc import AsyncIterator, Callable
from contextvars import ContextVar
from typing import Any

from telegram import Update
from telegram.ext import AIORateLimiter, Application, ApplicationHandlerStop, ContextTypes, TypeHandler

import engine
from bot.messages.presses import decode
from bot.table.restore import rebuild
from bot.table.runtime import Reply, TableRuntime, Tables
from bot.table.service import TableService
from bot.table.timers import Timers
from bot.telegram import handlers
from bot.telegram.outbox import Outbox
from bot.telegram.ptb_private import base_limiter
from bot.telegram.webhook import current_update
from bot.text import views
from storage import Post, Restored, StorageError
from storage.cluster import CHAT_LOCK, TABLE_LOCK, ClusterStore
from storage.postgres import TIMEOUTS, PgStorage
from storage.store import replay_from

log = logging.getLogger(__name__)

AnyApp = Application[Any, Any, Any, Any, Any, Any]
SEND_BUDGET = 30.0  # messages a second Telegram allows one bot, over all its chats
POLL_S = 0.5  # how often a worker beats, and looks for overdue deadlines
GRACE_S = 1.0  # a deadline is taken by any worker only this long after it is due (its own timer goes first)
STALE_S = 1.5  # a worker without a connection whose heartbeat is this old is gone
# a worker's session waiting this long for its client in the middle of a statement, in a transaction, is cut
# off (``ClusterStore.cut_stalled``): as long as the idle-in-transaction timeout (storage/postgres.py)
STALLED_S = int(TIMEOUTS["idle_in_transaction_session_timeout"]) / 1000
SWEEP_S = 1.0  # how often a worker looks for what a gone worker left (tables to show, posts to send)
POST_GRACE_S = 5.0  # an unclaimed post is taken by any worker once it is this old
KEEP_UPDATES_S = 86_400.0  # update ids are remembered this long (Telegram keeps an update for 24 hours)
PRUNE_S = 60.0
LIVE_HOLD_S = 1.5  # a worker sending a live message has it to itself for at most this long (a stopped
# worker keeps its connections: the others wait no longer than this for it)
RESYNC_MAX_S = 5.0  # the longest wait between two tries to show a table again after a failed transaction


@dataclasses.dataclass(eq=False)
class _Tx:
    """A task's transaction as the outbox sees it: the table rev a live message published in it shows, and
    what it published, sent once it commits (dropped if it rolls back)."""

    task: asyncio.Task[Any] | None
    rev: int | None = None
    held: list[Callable[[], None]] = dataclasses.field(default_factory=list)

    def release(self, commit: bool) -> None:
        held, self.held = self.held, []
        if not commit:
            return
        for publish in held:
            try:
                publish()
            except Exception:
                log.exception("a message published in a committed transaction was not queued")


_TX: ContextVar[_Tx | None] = ContextVar("mahjong_table_tx", default=None)


def _current_tx() -> _Tx | None:
    tx = _TX.get()
    return tx if tx is not None and tx.task is asyncio.current_task() else None


def _enter_tx() -> tuple[_Tx, Any]:
    """The task's ``_Tx``: the enclosing one (a table opened under its group's lock: no token), or a new one
    (with the token that ``_exit_tx`` resets; the caller releases it)."""
    outer = _current_tx()
    if outer is not None:
        return outer, None
    tx = _Tx(asyncio.current_task())
    return tx, _TX.set(tx)


def _exit_tx(token: Any) -> None:
    if token is not None:
        with contextlib.suppress(ValueError):  # set in another context: nothing of ours to reset
            _TX.reset(token)


class TableUnavailable(StorageError):
    """A table's transaction could not begin or commit (the database is away, the row stayed locked): the
    update is refused (5xx) and sent again."""


class AlreadyApplied(Exception):  # noqa: N818 - a state, not a failure
    """The update was applied already (another delivery of it): nothing more is done."""


class RowLock:
    """A table's lock in a worker of several: a local ``asyncio.Lock`` (tasks of this worker take turns)
    and, while it is held, a transaction that holds the table's row lock (workers take turns), in which the
    task's storage calls run. ``rev``: the table's rev this worker's copy is at (None: unknown)."""

    def __init__(self, cluster: Cluster, table_id: int) -> None:
        self._cluster = cluster
        self.table_id = table_id
        self._local = asyncio.Lock()
        self._cm: Any = None
        self._tx: Any = None  # the context manager of the task's _Tx while the lock is held
        self._own = False
        self._record: Any = None  # the update this transaction records as applied
        self._owed: str | None = None  # the worker that owed the table's chats its state before this one
        self.rev: int | None = None
        self.loud = False  # the next catch-up shows the table and carries it on (not only memory)

    def locked(self) -> bool:
        return self._local.locked()

    async def __aenter__(self) -> None:
        await self._local.acquire()
        try:
            await self._begin(record=True)
        except BaseException:
            self._local.release()
            raise

    async def _begin(self, *, record: bool) -> None:
        tx, token = _enter_tx()
        self._own = token is not None
        try:
            await self._begin_tx(tx, record=record)
        except BaseException:
            _exit_tx(token)
            if self._own:
                tx.release(False)
            raise
        self._tx = (token, tx)

    def _end_tx(self, commit: bool) -> None:
        held, self._tx = self._tx, None
        if held is None:
            return
        token, tx = held
        _exit_tx(token)
        if self._own:
            tx.release(commit)

    async def _begin_tx(self, tx: _Tx, *, record: bool) -> None:
        cluster = self._cluster
        ctx = current_update.get()
        uid = ctx.update_id if record and ctx is not None and not ctx.recorded else None
        worker = cluster.store.worker if record else None  # a load owes the chats nothing
        cm = cluster.storage.scope(TABLE_LOCK, self.table_id, uid, cluster.clock(), worker)
        try:
            _, row = await cm.__aenter__()
        except StorageError as e:
            if ctx is not None:
                ctx.failed = True
            raise TableUnavailable(f"table {self.table_id}: {e}") from e
        try:
            if row is not None and not row[2]:
                if ctx is not None:
                    ctx.duplicate = True
                raise AlreadyApplied(f"update {uid}")
            self._record = ctx if uid is not None else None
            rev = int(row[0]) if row is not None else None
            if row is None or row[1] != "open":
                await cluster.closed(self.table_id)
            elif rev is None or self.rev != rev - 1 or self.table_id not in cluster.registry():
                loud, self.loud = self.loud, False
                await cluster.refresh(self.table_id, self, quiet=not loud)
                if row[3] is not None and row[3] != cluster.store.worker and not loud:
                    self._owed = row[3]  # another worker owes the chats its state: unless this one shows it
            self.rev = rev
            tx.rev = rev
        except BaseException as e:
            self.rev = None
            await cm.__aexit__(type(e), e, e.__traceback__)
            if isinstance(e, StorageError) and not isinstance(e, TableUnavailable):
                if ctx is not None:
                    ctx.failed = True
                raise TableUnavailable(f"table {self.table_id}: {e}") from e
            raise
        self._cm = cm

    async def __aexit__(self, et: Any, e: Any, tb: Any) -> None:
        cm, self._cm = self._cm, None
        failed: StorageError | None = None
        owed, self._owed = self._owed, None
        try:
            held = self._tx[1].held if self._tx is not None else None
            if owed is not None and et is None and self._own and not held:
                # caught up and showed nothing: the worker that moved it last still owes its chats (if it
                # died before showing it, another worker shows it: ``orphans``)
                with contextlib.suppress(StorageError):
                    await self._cluster.storage.owe(self.table_id, owed)
            try:
                await cm.__aexit__(et, e, tb)
            except StorageError as err:
                failed = err
            finally:
                self._end_tx(et is None and failed is None and sys.exc_info()[0] is None)
            record, self._record = self._record, None
            if et is not None or failed is not None:
                self.rev = None  # what memory holds may be ahead of the database now: caught up next time
                self._cluster.resync(self.table_id)
            elif record is not None:
                record.recorded = True
        finally:
            self._local.release()
        if failed is not None and et is None:
            ctx = current_update.get()
            if ctx is not None:
                ctx.failed = True
            raise TableUnavailable(f"table {self.table_id}: {failed}") from failed

    async def load(self) -> None:
        """Take the lock and let go at once, recording nothing: the table is loaded or brought up to date."""
        async with self._local:
            await self._begin(record=False)
            await self._end_quiet()

    async def _end_quiet(self) -> None:
        cm, self._cm = self._cm, None
        self._record = None
        try:
            await cm.__aexit__(None, None, None)
        except BaseException:
            self.rev = None
            self._end_tx(False)
            raise
        self._end_tx(True)


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
                except StorageError as e:  # the database is away: the local limiter still paces
                    log.warning("send budget not reserved: %s", e)
                    return
                if granted:
                    self._left, self._until = granted, loop.time() + rest
                else:
                    self.waited += 1
                    await asyncio.sleep(rest + 0.001)


class ClusterTables(Tables):
    """The tables this worker has in memory: each gets a ``RowLock`` for its lock; a group's chat lock is a
    transaction too (two workers never open two tables in one group)."""

    def __init__(self) -> None:
        super().__init__()
        self.cluster: Cluster | None = None

    def add(self, rt: TableRuntime) -> None:
        if self.cluster is not None and not isinstance(rt.lock, RowLock):
            rt.lock = self.cluster.lock_for(rt.id)  # type: ignore[assignment]
        super().add(rt)

    @contextlib.asynccontextmanager
    async def _chat_scope(self, chat_id: int) -> AsyncIterator[None]:
        async with super().chat_lock(chat_id):
            if self.cluster is None:
                yield
                return
            tx, token = _enter_tx()
            ok = False
            try:
                async with self.cluster.storage.scope(CHAT_LOCK, chat_id):
                    yield
                ok = True
            except StorageError as e:
                ctx = current_update.get()
                if ctx is not None:
                    ctx.failed = True
                raise TableUnavailable(f"chat {chat_id}: {e}") from e
            finally:
                _exit_tx(token)
                if token is not None:
                    tx.release(ok)

    def chat_lock(self, chat_id: int) -> Any:  # an async context manager, as asyncio.Lock is
        return self._chat_scope(chat_id)


class ClusterTimers(Timers):
    """This worker's timers (bot/table/timers.py), with every deadline also a row of the database (written
    in order, off the caller's path). A timer that fires runs only if this worker takes its row: another
    worker may have moved the table's deadline, or taken it."""

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

    def write(self, table_id: int, due: float | None) -> None:
        """Put the table's deadline in the database (a deadline whose run failed: another try)."""
        self._write(table_id, due)

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
            for attempt in range(20):
                try:
                    await self.store.store_timers(latest)  # all of them in one round trip
                    break
                except StorageError as e:
                    if attempt == 19:
                        log.warning("tables %s: deadlines not written to the database: %s", sorted(latest), e)
                    await asyncio.sleep(min(2.0, 0.05 * 2**attempt))

    async def flush(self) -> None:
        if self._writer is not None:
            await asyncio.gather(self._writer, return_exceptions=True)

    async def _run(self, table_id: int) -> None:
        try:
            await self.flush()
            if await self.store.claim_one(table_id, self.clock() + 0.01):
                await self.on_due(table_id)
        except Exception as e:  # the poll of some worker takes the deadline instead
            log.warning("table %s: the turn timer did not run here: %s", table_id, e)


@dataclasses.dataclass
class _Caught:
    """A table caught up by the actions logged since this worker's copy: the record, and the public events
    they add to the group's "recent" line."""

    restored: Restored
    recent: list[engine.Event]


class Cluster:
    """One worker's part in the cluster: row locks, loading and catching up tables, shared deadlines,
    heartbeat, what gone workers left, the send budget, the live-message guard."""

    def __init__(self, storage: PgStorage, store: ClusterStore, clock: Callable[[], float]) -> None:
        self.storage = storage
        self.store = store
        self.clock = clock
        self.service: TableService | None = None
        self.outbox: Outbox | None = None
        self.limiter: AIORateLimiter | None = None
        self.budget: SendBudget | None = None  # counted in the database: on when the limiter paces
        self.app: AnyApp | None = None
        self.workers = 1
        self.seen = 0  # updates this worker handled (for tests and the benchmark)
        self.loaded = 0  # tables it loaded (never had them in memory)
        self.rebuilt = 0  # tables it rebuilt because another worker had moved them
        self.caught_up = 0  # ... of which by applying only the actions logged since (not a whole replay)
        self.resyncs = 0  # tables shown again after a transaction failed, or their last mover died
        self._locks: dict[int, RowLock] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._resyncing: set[int] = set()
        self._loop_task: asyncio.Task[None] | None = None

    @classmethod
    async def connect(cls, storage: PgStorage, clock: Callable[[], float]) -> Cluster:
        return cls(storage, ClusterStore(storage.pool, storage.worker), clock)

    def lock_for(self, table_id: int) -> RowLock:
        lock = self._locks.get(table_id)
        if lock is None:
            lock = self._locks[table_id] = RowLock(self, table_id)
        return lock

    def registry(self) -> dict[int, TableRuntime]:
        return self.service.registry.by_id if self.service is not None else {}

    def spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # ------------------------------------------------------------------ the table in memory, as stored

    async def closed(self, table_id: int) -> None:
        """The table is closed (or gone) in the database: out of memory here, its lock too (a press naming a
        table id that never was, forged, made one that stayed for good; a task holding or waiting for the
        dropped lock finds the table closed all the same)."""
        svc = self.service
        assert svc is not None
        self._locks.pop(table_id, None)
        rt = svc.registry.by_id.get(table_id)
        if rt is not None:
            rt.closed = True
            svc.registry.remove(rt)
            timers = svc.timers
            if isinstance(timers, ClusterTimers):
                Timers.cancel(timers, table_id)  # here only: the database's row went with the table

    async def refresh(self, table_id: int, lock: RowLock, *, quiet: bool = True) -> None:
        """Bring the table up to date from the database (in the caller's transaction, which holds its row):
        another worker moved it, or this worker does not have it yet. ``quiet``: only memory follows (the
        worker that moved it showed it and armed its timer); else the table is shown as stored and carried
        on (a transaction failed, or its last mover died)."""
        svc = self.service
        assert svc is not None
        rt = svc.registry.by_id.get(table_id)
        caught = await self._caught_up(rt) if rt is not None and quiet else None
        found = [caught.restored] if caught is not None else await self.storage.restore(table_id)
        if not found:
            await self.closed(table_id)
            return
        r = found[0]
        self.loaded += rt is None
        self.rebuilt += rt is not None
        self.caught_up += caught is not None
        fresh = TableRuntime(r.table, r.settings, list(r.table.seats), dict(r.table.options))
        kept = rt.hand if rt is not None and caught is not None else None
        if rt is None:
            rt = fresh
            rt.lock = lock  # type: ignore[assignment]
        else:
            for f in dataclasses.fields(TableRuntime):
                if f.name != "lock":
                    setattr(rt, f.name, getattr(fresh, f.name))
        svc.registry.add(rt)
        users = {u for u in r.table.seats if u is not None}
        if r.hand is not None:
            users |= {u for u in r.hand.seats if u is not None}
        await svc.people.load(users)
        await rebuild(self.storage, rt, r, svc.present, svc.play, quiet=quiet)
        if kept is not None and caught is not None and rt.hand is not None:
            # what only memory knew of the hand goes on: the group's recent moves, notes, unreachable seats
            rt.hand.recent.extend([*kept.recent, *caught.recent])
            rt.hand.notes.update(kept.notes)
            rt.hand.dm_lost |= kept.dm_lost
        # what a dead worker's death cut off between a hand's end and what follows (a live worker ends a hand
        # and begins its ready phase under one lock: its tables never look so), whether this worker picked
        # the table up at its start or a press brought it in first
        await svc.night.resume(rt)
        if not quiet and not rt.closed:
            svc.night.arm(rt)

    async def _caught_up(self, rt: TableRuntime) -> _Caught | None:
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
        events: list[engine.Event] = []
        try:
            state, facts = replay_from(stored.hand, rt.state, rt.live.facts, actions, events)
        except StorageError:
            return None
        recent = [ev.public() for ev in events if ev.kind not in views.QUIET_EVENTS]
        return _Caught(dataclasses.replace(stored, state=state, facts=facts), recent)

    def resync(self, table_id: int) -> None:
        """A transaction of the table failed (or its last mover died): show it as stored and carry it on,
        trying again until the database answers (no table is left without its next move)."""
        if table_id in self._resyncing or self.service is None:
            return
        self._resyncing.add(table_id)
        self.spawn(self._resync(table_id))

    async def _resync(self, table_id: int) -> None:
        delay = 0.1
        try:
            while True:
                lock = self.lock_for(table_id)
                lock.rev, lock.loud = None, True
                try:
                    await lock.load()
                    self.resyncs += 1
                    return
                except StorageError as e:
                    log.info("table %s: not shown again yet (%s); trying again", table_id, e)
                except Exception:
                    log.exception("table %s: not shown again", table_id)
                    return
                await asyncio.sleep(delay)
                delay = min(RESYNC_MAX_S, delay * 2)
        finally:
            self._resyncing.discard(table_id)

    async def bring_in(self, table_ids: set[int]) -> None:
        """Tables this worker does not have in memory are loaded (the others catch up when their lock is
        taken)."""
        for table_id in sorted(table_ids):
            if table_id not in self.registry():
                await self.lock_for(table_id).load()

    async def tables_of(self, update: Update) -> set[int]:
        """The tables an update concerns: a button's (its data names it), else the open tables of the group
        or of the player as the database says, and those of them this worker has in memory (one closed
        elsewhere is dropped when its lock is taken)."""
        svc = self.service
        assert svc is not None
        query = update.callback_query
        if query is not None:
            table = getattr(decode(query.data), "table", None)
            return {table} if isinstance(table, int) else set()
        ids: set[int] = set()
        chat = update.effective_chat
        user = update.effective_user
        if chat is not None and chat.type != "private":
            ids |= set(await self.storage.open_table_ids(chat_id=chat.id))
            held = svc.registry.in_chat(chat.id)
            if held is not None and held.id not in ids:
                await self.lock_for(held.id).load()  # closed elsewhere: dropped
        elif user is not None:
            ids |= set(await self.storage.open_table_ids(user_id=user.id))
            for rt in svc.registry.of_user(user.id):
                if rt.id not in ids:
                    await self.lock_for(rt.id).load()
        return ids

    async def on_update(self, update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Before any handler: the tables this update concerns are in memory here. If the database cannot
        say, the update is refused (5xx: Telegram sends it again) and no handler runs."""
        if not isinstance(update, Update) or self.service is None:
            return
        self.seen += 1
        try:
            await self.bring_in(await self.tables_of(update))
        except AlreadyApplied:
            query = update.callback_query
            if query is not None:  # a press applied already: answered with what it did (its first answer
                with contextlib.suppress(StorageError):  # may have been lost with a dead worker)
                    done = await self.storage.press_answer(update.update_id)
                    if done is not None:
                        await handlers.answer(query, Reply(done))
            raise ApplicationHandlerStop from None
        except StorageError as e:
            ctx = current_update.get()
            if ctx is not None:
                ctx.failed = True
            log.warning("an update is refused: its tables are not loaded (%s)", e)
            raise ApplicationHandlerStop from None

    # ------------------------------------------------------------------ updates applied once

    async def applied(self, update_id: int) -> bool:
        return await self.store.applied(update_id)

    async def mark_applied(self, update_id: int) -> None:
        await self.store.mark_applied(update_id, self.clock())

    # ------------------------------------------------------------------ live messages

    def stamp(self) -> int | None:
        """The table rev a live message published now shows (the task's table transaction), else None."""
        tx = _current_tx()
        return tx.rev if tx is not None else None

    def held(self) -> list[Callable[[], None]] | None:
        """Where a message published now waits for its transaction's COMMIT (None: no transaction)."""
        tx = _current_tx()
        return tx.held if tx is not None else None

    async def claim_live(self, chat_id: int, key: str, rev: int) -> tuple[str, int | None]:
        try:
            return await self.store.claim_live(chat_id, key, rev, self.clock(), LIVE_HOLD_S)
        except StorageError as e:  # the database is away: send it (a newer state follows it anyway)
            log.info("live message not checked: %s", e)
            return "send", None

    async def live_done(self, chat_id: int, key: str, message_id: int | None) -> None:
        try:
            if await self.store.live_done(chat_id, key, message_id):
                return
        except StorageError as e:  # whether another worker sent it meanwhile is unknown: as if it had
            log.info("live message not recorded as sent: %s", e)
        # another worker sent this message while this one was too slow (stopped, hung) with an older state:
        # the table is shown again as stored (once the database answers), so the message ends on its latest
        # state
        table = key[1:]
        if key[:1] in ("g", "l", "p") and table.isdigit():
            self.resync(int(table))

    async def pace(self, chat_id: int, interval: float) -> float:
        try:
            return await self.store.pace(chat_id, interval)
        except StorageError as e:  # the local pace still holds
            log.info("group pace not booked: %s", e)
            return 0.0

    # ------------------------------------------------------------------ deadlines, heartbeat, gone workers

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        sweep = prune = 0.0
        while True:
            try:
                now = self.clock()
                self.workers = await self.store.heartbeat(now, 3 * STALE_S)
                self._share_budget()
                for table_id in await self.store.claim_due(now - GRACE_S):
                    self.spawn(self._due(table_id))
                if loop.time() >= sweep:
                    sweep = loop.time() + SWEEP_S
                    for worker in await self.store.cut_stalled(STALLED_S):
                        log.warning("a session of worker %s stalled in a transaction: cut off", worker)
                    if self.service is not None:  # sent messages whose deletion a database failure refused
                        await self.service.present.delete_sent()
                    for table_id in await self.store.orphans(now - STALE_S):
                        log.info("table %s: its last worker is gone; shown again", table_id)
                        self.resync(table_id)
                    posts = await self.store.orphan_posts(now - STALE_S, now - POST_GRACE_S)
                    if posts and self.service is not None:
                        self.service.present.queue_rows(
                            [Post(c, text, kb, i, t) for i, t, c, text, kb in posts]
                        )
                if loop.time() >= prune:
                    prune = loop.time() + PRUNE_S
                    await self.store.prune_applied(now - KEEP_UPDATES_S)
            except asyncio.CancelledError:
                raise
            except Exception as e:
                log.warning("cluster upkeep failed: %s", e)
            await asyncio.sleep(POLL_S)

    async def _due(self, table_id: int) -> None:
        """A deadline taken from the database: run it here (loading the table first if need be); if that
        fails, the deadline goes back for another try."""
        svc = self.service
        assert svc is not None
        try:
            await self.bring_in({table_id})
            await svc.on_due(table_id)
        except Exception as e:
            log.warning("table %s: a deadline taken over failed (%s); tried again", table_id, e)
            if isinstance(svc.timers, ClusterTimers):
                svc.timers.write(table_id, self.clock() + 1.0)

    def _share_budget(self) -> None:
        """The limiter's share of the bot's budget: all of it when the database counts the requests of every
        worker (``SendBudget``), else an equal share for each worker alive."""
        base = base_limiter(self.limiter)
        if base is not None:
            base.max_rate = SEND_BUDGET if self.budget is not None else SEND_BUDGET / max(1, self.workers)

    async def health(self) -> bool:
        """Whether this worker reaches the database now."""
        try:
            await asyncio.wait_for(self.store.ping(), 2.0)
            return True
        except (StorageError, TimeoutError):
            return False

    def start(self) -> None:
        self._loop_task = asyncio.get_running_loop().create_task(self._run(), name="cluster")

    async def close(self) -> None:
        if self._loop_task is not None:
            self._loop_task.cancel()
            await asyncio.gather(self._loop_task, return_exceptions=True)
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        with contextlib.suppress(Exception):
            await self.store.leave()


def install(app: AnyApp, cluster: Cluster) -> None:
    cluster.app = app
    app.bot_data["gate"] = cluster  # the webhook records updates applied (bot/telegram/webhook.py)
    outbox = cluster.outbox
    if isinstance(outbox, Outbox):
        outbox.stamp = cluster.stamp
        outbox.held = cluster.held
        outbox.claim_live = cluster.claim_live
        outbox.live_done = cluster.live_done
        if outbox.group_interval > 0:
            outbox.shared_pace = cluster.pace
        if base_limiter(cluster.limiter) is not None:
            cluster.budget = SendBudget(cluster.store)  # the bot's budget, counted for all workers
            outbox.budget = cluster.budget.take
    # group -2: before lifecycle's (-1) and the commands and buttons (0)
    app.add_handler(TypeHandler(Update, cluster.on_update), group=-2)
    # an update refused or applied already is no error of the bot: the webhook answers for it
    originals = dict(app.error_handlers)
    app.error_handlers.clear()
    for callback, block in originals.items():
        app.add_error_handler(_unless_refused(callback), block=block)


def _unless_refused(callback: Any) -> Any:
    async def handler(update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        if isinstance(context.error, AlreadyApplied | TableUnavailable):
            log.info("update not handled here: %s", context.error)
            return
        await callback(update, context)

    return handler
