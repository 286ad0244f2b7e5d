"""Turn timers on PTB's JobQueue: one job per table, due at the earliest deadline of its pending decisions.

The job only wakes the service (``on_due(table_id)``); the service compares deadlines with its own clock,
so tests inject a clock, move it past a deadline and run the job at once (``job.run(app)``) instead of
waiting 30 seconds. After a restart the service re-arms every table.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from telegram.ext import CallbackContext, Job, JobQueue

log = logging.getLogger(__name__)

Clock = Callable[[], float]


def job_name(table_id: int) -> str:
    return f"turn:{table_id}"


class Timers:
    def __init__(
        self, job_queue: JobQueue[Any] | None, on_due: Callable[[int], Awaitable[None]], clock: Clock
    ) -> None:
        self.job_queue = job_queue
        self.on_due = on_due
        self.clock = clock
        self._armed: dict[int, tuple[float, Job[Any]]] = {}

    def arm(self, table_id: int, deadline: float) -> None:
        """Wake the service for ``table_id`` at ``deadline`` (clock seconds); replaces an earlier timer."""
        current = self._armed.get(table_id)
        if current is not None and current[0] == deadline and not current[1].removed:
            return
        self.cancel(table_id)
        if self.job_queue is None:
            return
        delay = max(0.0, deadline - self.clock())
        job = self.job_queue.run_once(self._fire, when=delay, data=table_id, name=job_name(table_id))
        self._armed[table_id] = (deadline, job)

    def cancel(self, table_id: int) -> None:
        current = self._armed.pop(table_id, None)
        if current is not None and not current[1].removed:
            with contextlib.suppress(Exception):  # already run and gone from the scheduler
                current[1].schedule_removal()

    def deadline(self, table_id: int) -> float | None:
        current = self._armed.get(table_id)
        return current[0] if current is not None else None

    def job(self, table_id: int) -> Job[Any] | None:
        current = self._armed.get(table_id)
        return current[1] if current is not None else None

    async def _fire(self, context: CallbackContext[Any, Any, Any, Any]) -> None:
        job = context.job
        if job is None or not isinstance(job.data, int):
            return
        table_id = job.data
        current = self._armed.get(table_id)
        if current is not None and current[1] is job:
            del self._armed[table_id]
        with contextlib.suppress(Exception):  # run by hand (tests): drop it from the schedule as well
            job.schedule_removal()
        await self.on_due(table_id)
