"""Pictures drawn in a worker process, so that drawing never holds the bot's event loop.

Drawing a picture is mostly Python (the layout, then Pillow calls between them) and holds the GIL for its
~2-10 ms: in a thread of the bot's own process it delays every button answer queued behind it, and with
200 busy tables (bench/bot_bench.py) that put press → answer p99 past a second. A worker process draws
instead; the bot only pickles the Picture (its Observation, under a kilobyte) and gets PNG bytes back.
The worker is started with ``spawn`` (the bot's process has threads and an event loop: no fork), warms its
tile sprites once (``warm``), and keeps its own picture cache. If it dies, pictures are drawn in a thread
of the bot's process again (slower, never lost). It ends with the bot: on a normal stop the pool is shut
down and waited for; if the bot is killed (``kill -9``), the worker sees its parent gone within a second
and exits (no orphan left behind)."""

from __future__ import annotations

import asyncio
import logging
import multiprocessing as mp
import os
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Protocol

from . import warm

log = logging.getLogger(__name__)


class Drawable(Protocol):
    def png(self) -> bytes: ...


def _draw(photo: Drawable) -> bytes:
    return photo.png()


def _start(parent: int) -> None:
    """In the worker: exit as soon as the bot that started it is gone, then warm the sprites."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()
    warm()


def _ready() -> bool:
    return True


class Painter:
    """Draws pictures (``await painter(photo)``) in ``workers`` processes; 0: in a thread of this one."""

    def __init__(self, workers: int = 1) -> None:
        self._pool: ProcessPoolExecutor | None = None
        if workers > 0:
            self._pool = ProcessPoolExecutor(
                workers, mp_context=mp.get_context("spawn"), initializer=_start, initargs=(os.getpid(),)
            )

    async def start(self) -> None:
        """Start the worker and wait until its sprites are warm (at the bot's start, not a player's)."""
        if self._pool is None:
            await asyncio.to_thread(warm)
            return
        await asyncio.get_running_loop().run_in_executor(self._pool, _ready)

    async def __call__(self, photo: Drawable) -> bytes:
        pool = self._pool
        if pool is not None:
            try:
                return await asyncio.get_running_loop().run_in_executor(pool, _draw, photo)
            except BrokenProcessPool:
                log.error("the picture worker died: pictures are drawn in the bot's process from now on")
                self._pool = None
        return await asyncio.to_thread(photo.png)

    def close(self) -> None:
        """Stop the worker and wait for it (it is idle or drawing one picture: a moment)."""
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)
