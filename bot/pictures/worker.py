"""Pictures drawn in worker processes, so that drawing never holds the bot's event loop.

Drawing a picture is mostly Python (the layout, then Pillow calls between them) and holds the GIL for its
~2-10 ms: in a thread of the bot's own process it delays every button answer queued behind it, and with
200 busy tables (bench/bot_bench.py) that put press → answer p99 past a second. A worker process draws
instead; the bot only pickles the Picture (its Observation, under a kilobyte) and gets PNG bytes back.

The bot talks to each worker over a socket pair read and written by its own event loop - no helper threads
in the bot: a ``ProcessPoolExecutor`` adds two (a queue feeder and a manager) whose hand-offs of the GIL
cost the bot more CPU per picture than the pickling itself, with a 50-110 KB PNG crossing three of them.
A request is a frame (length, job id, the pickled Picture); the answer one too (length, job id, status, the
PNG or the error). The workers are started with ``spawn`` (the bot's process has threads and an event
loop: no fork), warm their tile sprites once (``warm``), and keep their own picture caches. If a worker
dies, what it was drawing and everything after is drawn in a thread of the bot's process (slower, never
lost). A worker ends with the bot: on a normal stop it is told to (its socket closes) and waited for; if
the bot is killed (``kill -9``), its end of the socket closes all the same and the worker exits at once (a
second watch on its parent's pid covers a descendant that inherited the socket)."""

from __future__ import annotations

import asyncio
import itertools
import logging
import multiprocessing as mp
import os
import pickle
import socket
import struct
import threading
import time
from multiprocessing.process import BaseProcess
from typing import Protocol

from bot.pictures import warm

log = logging.getLogger(__name__)

_HEAD = struct.Struct("!IQB")  # length of what follows the job id, job id, status (0: PNG, 1: an error)
_ASK = struct.Struct("!IQ")  # length of the pickled Picture, job id


class Drawable(Protocol):
    def png(self) -> bytes: ...


def _serve(sock: socket.socket, parent: int) -> None:
    """The worker: warm the sprites, say so, then draw what comes until the bot's end of the socket closes."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()
    warm()
    sock.sendall(_HEAD.pack(0, 0, 0))  # job 0: ready
    stream = sock.makefile("rb")
    while True:
        try:
            head = stream.read(_ASK.size)
            size, job = _ASK.unpack(head) if len(head) == _ASK.size else (-1, 0)
            body = stream.read(size) if size >= 0 else b""
        except OSError:  # the bot died (kill -9: its end was reset), not worth a traceback
            os._exit(0)
        if size < 0 or len(body) < size:
            os._exit(0)  # the bot is gone or closed the socket
        try:
            out, status = pickle.loads(body).png(), 0
        except Exception as e:  # noqa: BLE001 - a picture that cannot be drawn is reported, not fatal
            out, status = repr(e).encode(), 1
        try:
            sock.sendall(_HEAD.pack(len(out), job, status) + out)
        except OSError:  # the bot stopped (or died) while this was drawn
            os._exit(0)


class _Worker:
    """One worker process and the bot's end of its socket (read by the event loop)."""

    def __init__(self, process: BaseProcess, sock: socket.socket) -> None:
        self.process = process
        self.sock = sock
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.jobs: dict[int, asyncio.Future[bytes]] = {}
        self.listener: asyncio.Task[None] | None = None
        self.ready: asyncio.Future[None] | None = None
        self.dead = False

    async def open(self) -> None:
        self.reader, self.writer = await asyncio.open_unix_connection(sock=self.sock)
        self.ready = asyncio.get_running_loop().create_future()
        self.listener = asyncio.create_task(self._listen(), name="picture-worker")
        await asyncio.shield(self.ready)

    async def _listen(self) -> None:
        assert self.reader is not None and self.ready is not None
        try:
            while True:
                size, job, status = _HEAD.unpack(await self.reader.readexactly(_HEAD.size))
                body = await self.reader.readexactly(size) if size else b""
                if job == 0:
                    if not self.ready.done():
                        self.ready.set_result(None)
                    continue
                fut = self.jobs.pop(job, None)
                if fut is None or fut.done():
                    continue
                if status == 0:
                    fut.set_result(body)
                else:
                    fut.set_exception(RuntimeError(f"the picture worker could not draw: {body.decode()}"))
        except (asyncio.IncompleteReadError, ConnectionError, OSError):
            pass
        finally:
            self.dead = True
            if self.writer is not None:
                self.writer.close()  # the socket's end here: its transport, not left to the garbage collector
            gone = ConnectionError("the picture worker died")
            if not self.ready.done():
                self.ready.set_exception(gone)
            for fut in self.jobs.values():
                if not fut.done():
                    fut.set_exception(gone)
            self.jobs.clear()

    def ask(self, job: int, photo: Drawable) -> asyncio.Future[bytes]:
        assert self.writer is not None
        fut: asyncio.Future[bytes] = asyncio.get_running_loop().create_future()
        body = pickle.dumps(photo, protocol=pickle.HIGHEST_PROTOCOL)
        self.jobs[job] = fut
        self.writer.write(_ASK.pack(len(body), job) + body)
        return fut

    def close(self) -> None:
        """End the worker: shut the socket (it exits when it reads the end; the listener here sees it too)
        and wait for the process. Safe from any thread (the bot calls it off its event loop)."""
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.process.join(5)
        if self.process.is_alive():
            self.process.kill()
            self.process.join(5)


class Painter:
    """Draws pictures (``await painter(photo)``) in ``workers`` processes; 0: in a thread of this one."""

    def __init__(self, workers: int = 1) -> None:
        self._count = workers
        self._workers: list[_Worker] = []
        self._jobs = itertools.count(1)
        self._started = False

    @property
    def pids(self) -> list[int]:
        """The workers' process ids (none: pictures are drawn in a thread)."""
        return [w.process.pid for w in self._workers if w.process.pid is not None]

    async def start(self) -> None:
        """Start the workers and wait until their sprites are warm (at the bot's start, not a player's)."""
        if self._started:
            return
        self._started = True
        if self._count <= 0:
            await asyncio.to_thread(warm)
            return
        ctx = mp.get_context("spawn")
        for _ in range(self._count):
            ours, theirs = socket.socketpair()
            process = ctx.Process(
                target=_serve, args=(theirs, os.getpid()), name="picture-worker", daemon=True
            )
            await asyncio.to_thread(process.start)
            theirs.close()
            worker = _Worker(process, ours)
            self._workers.append(worker)
            try:
                await worker.open()
            except ConnectionError:
                log.error("the picture worker did not start: pictures are drawn in the bot's process")

    async def __call__(self, photo: Drawable) -> bytes:
        if not self._started:
            await self.start()
        live = [w for w in self._workers if not w.dead]
        if live:
            job = next(self._jobs)
            worker = min(live, key=lambda w: len(w.jobs)) if len(live) > 1 else live[0]
            try:
                return await worker.ask(job, photo)
            except ConnectionError:
                log.error("the picture worker died: pictures are drawn in the bot's process from now on")
        return await asyncio.to_thread(photo.png)

    def close(self) -> None:
        """Stop the workers and wait for them (each is idle or drawing one picture: a moment)."""
        workers, self._workers = self._workers, []
        for w in workers:
            w.close()
