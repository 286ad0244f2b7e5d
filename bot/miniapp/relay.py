"""Several workers (PostgreSQL): a move applied on one worker reaches the streams another worker holds.

After a table is published (its change committed and shown), the worker that published NOTIFYs the bot's
channel with the table id (``storage/changes.py``); every other worker that holds streams of that table reads
it again from the database (``feed.stored_table``: the table as stored, built only to be read) and pushes
each stream its frame. Nothing here depends on which worker moves a table (leases or none): a notification
follows each committed change, and a listener refreshes and pushes.

A read of the table and a move this worker applies may cross: the read began before the move was committed,
the move's own frames went out to this worker's streams at once, and the read would then push the older table
over them - and this worker hears no notification of its own to put it right. So a read during which this
worker published the table is dropped and the table read again, and after each of its own publishes (outside a
claim pause) a worker holding streams of the table reads it once more for them: their last frame is then one
read after the change was committed, whatever else crossed.

A stream that joins is shown the table as read before it was listed: a change committed in between found no
stream of it to push to (here, or when the notification came), so the table is read once more after a stream
is listed (``MiniApp.on_reread``), as after a watcher's membership check, whose stream skipped the changes.

The claim pause is not stored: while one is on, the publishing worker holds its notification back until the
pause ends (its end publishes again), so streams on other workers see the discard and what follows it at the
same moment, whether or not anyone could claim - they learn nothing the pause hides.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Protocol

from bot.miniapp.server import MiniApp
from bot.table.feed import stored_table
from bot.table.runtime import TableRuntime

log = logging.getLogger(__name__)


class Changes(Protocol):
    """The storage port (storage/changes.py ``TableChanges``)."""

    on_change: Callable[[int], None] | None

    async def notify(self, table_id: int) -> None: ...
    async def close(self) -> None: ...


class Relay:
    def __init__(self, web: MiniApp, changes: Changes) -> None:
        self.web = web
        self.changes = changes
        self._out: set[int] = set()  # tables to notify about
        self._in: set[int] = set()  # tables to read again
        self._wake_out = asyncio.Event()
        self._wake_in = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self._reading: int | None = None  # the table being read for this worker's streams
        self._crossed = False  # … and this worker has published it since the read began
        self.sent = 0
        self.refreshed = 0
        self.reread = 0
        changes.on_change = self.heard
        web.on_publish = self.published
        web.on_reread = self.heard

    def start(self) -> None:
        self._tasks = [asyncio.create_task(self._notify()), asyncio.create_task(self._refresh())]

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        await self.changes.close()

    def published(self, rt: TableRuntime) -> None:
        if rt.id == self._reading:
            self._crossed = True
        if rt.hand is not None and rt.hand.pause is not None:
            return  # held back until the pause ends (its end publishes again)
        self._out.add(rt.id)
        self._wake_out.set()
        # this worker's own streams got the change's frames at once; the table is also read again for them
        # once committed, so that their last frame is never older than the change, however a read of the
        # table in flight and the move's own frames crossed
        self.heard(rt.id)

    def heard(self, table_id: int) -> None:
        if table_id in self.web.conns:
            self._in.add(table_id)
            self._wake_in.set()

    async def _notify(self) -> None:
        while True:
            await self._wake_out.wait()
            self._wake_out.clear()
            tables, self._out = self._out, set()
            for table_id in sorted(tables):
                await self.changes.notify(table_id)
                self.sent += 1

    async def _refresh(self) -> None:
        svc = self.web.service
        while True:
            await self._wake_in.wait()
            self._wake_in.clear()
            tables, self._in = self._in, set()
            for table_id in sorted(tables):
                self._reading, self._crossed = table_id, False
                try:
                    rt = await stored_table(svc.storage, svc.people, table_id, svc.clock)
                except Exception:
                    log.exception("table %s: not read again for its streams", table_id)
                    continue
                finally:
                    self._reading = None
                if self._crossed:
                    # this worker moved the table while it was read: the read may be older than the frames
                    # its streams have just been sent, so it is read again
                    self.reread += 1
                    self._in.add(table_id)
                    self._wake_in.set()
                    continue
                live = svc.tables.get(table_id)
                if live is not None and live.hand is not None and live.hand.pause is not None:
                    continue  # this worker holds the table in a claim pause: its end publishes again
                if rt is not None:
                    self.web.refresh(rt)
                    self.refreshed += 1
