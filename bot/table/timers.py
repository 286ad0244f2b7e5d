"""Turn timers on the event loop: one ``loop.call_at`` per table, due at the earliest deadline of its pending
decisions.

A timer only wakes the service (``on_due(table_id)``); the service compares deadlines with its own clock,
so tests inject a clock, move it past a deadline and run the timer at once (``run_now``) instead of waiting
30 seconds. After a restart the service re-arms every table.

Every decision re-arms its table's timer (about once a press), so this is on the hot path: replacing a
loop timer handle costs ~4 µs of CPU, where PTB's JobQueue (APScheduler) spent ~80 µs building, storing and
waking a job (measured in a running loop with 100 tables' timers; bench/README.md).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

log = logging.getLogger(__name__)

Clock = Callable[[], float]


class Timers:
    def __init__(self, on_due: Callable[[int], Awaitable[None]], clock: Clock) -> None:
        self.on_due = on_due
        self.clock = clock
        self._armed: dict[int, tuple[float, asyncio.TimerHandle]] = {}  # table -> (deadline, its handle)
        self._running: set[asyncio.Task[None]] = set()
        self._closed = False

    def arm(self, table_id: int, deadline: float) -> None:
        """Wake the service for ``table_id`` at ``deadline`` (clock seconds); replaces an earlier timer."""
        current = self._armed.get(table_id)
        if current is not None and current[0] == deadline:
            return
        self.cancel(table_id)
        if self._closed:
            return
        loop = asyncio.get_running_loop()
        when = loop.time() + max(0.0, deadline - self.clock())
        self._armed[table_id] = (deadline, loop.call_at(when, self._fire, table_id))

    def cancel(self, table_id: int) -> None:
        current = self._armed.pop(table_id, None)
        if current is not None:
            current[1].cancel()

    def deadline(self, table_id: int) -> float | None:
        current = self._armed.get(table_id)
        return current[0] if current is not None else None

    def due_within(self, seconds: float) -> bool:
        """Whether a timer fires within ``seconds`` (tests wait until the bot is idle)."""
        soon = asyncio.get_running_loop().time() + seconds
        return any(handle.when() <= soon for _, handle in self._armed.values())

    @property
    def running(self) -> bool:
        """Whether a timer's ``on_due`` is running."""
        return bool(self._running)

    async def run_now(self, table_id: int) -> None:
        """Run the table's armed timer now (tests: the clock was moved past its deadline)."""
        current = self._armed.pop(table_id, None)
        assert current is not None, "the table has no timer armed"
        current[1].cancel()
        await self.on_due(table_id)

    async def close(self) -> None:
        """No timer fires any more; the ones running finish (shutdown)."""
        self._closed = True
        for table_id in list(self._armed):
            self.cancel(table_id)
        if self._running:
            await asyncio.gather(*self._running, return_exceptions=True)

    def _fire(self, table_id: int) -> None:
        self._armed.pop(table_id, None)
        task = asyncio.get_running_loop().create_task(self._run(table_id), name=f"turn:{table_id}")
        self._running.add(task)
        task.add_done_callback(self._running.discard)

    async def _run(self, table_id: int) -> None:
        try:
            await self.on_due(table_id)
        except Exception:
            log.exception("table %s: the turn timer failed", table_id)
