"""The lock that makes one process at a time the owner of a SQLite database: ``<db>.lock`` next to it, an
exclusive ``flock`` released by the OS when the holder ends in any way. The bot holds it while it runs
(bot/telegram/app.py); ``storage.copy`` holds it while it reads the file, so neither starts while the other
runs."""

from __future__ import annotations

import fcntl
import os
from pathlib import Path
from typing import IO


class AlreadyRunning(RuntimeError):
    """Another process (a bot, or a copy) holds this database; ``holder`` is its pid as it wrote it."""

    def __init__(self, message: str, holder: str) -> None:
        super().__init__(message)
        self.holder = holder


class DatabaseLock:
    """An exclusive ``flock`` on ``<db>.lock``: held while the bot runs, released by the OS when the process
    ends in any way (so a crashed bot never blocks the next start)."""

    def __init__(self, db_path: str | os.PathLike[str]) -> None:
        db = Path(db_path)
        self.path = db.with_name(db.name + ".lock")
        self._file: IO[str] | None = None

    def acquire(self) -> None:
        f = open(self.path, "a+", encoding="utf-8")  # noqa: SIM115 - held open for the lock's lifetime
        try:
            fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            f.seek(0)
            holder = f.read().strip() or "?"
            f.close()
            raise AlreadyRunning(
                f"another bot process (pid {holder}) is running on {self.path.with_suffix('')}: "
                "one bot per database; stop it first",
                holder,
            ) from None
        f.seek(0)
        f.truncate()
        f.write(str(os.getpid()))
        f.flush()
        self._file = f

    def release(self) -> None:
        if self._file is not None:
            fcntl.flock(self._file, fcntl.LOCK_UN)
            self._file.close()
            self._file = None

    @property
    def held(self) -> bool:
        return self._file is not None
