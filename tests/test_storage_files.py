"""Opening bad files: each fails at open with a plain StorageError, and leaves the file as it was."""

from __future__ import annotations

import os
import random
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import engine
from storage import (
    CorruptDatabase,
    InvalidInput,
    OpenError,
    ReadOnlyDatabase,
    Storage,
    StorageError,
    schema,
)

ROOT = Path(__file__).resolve().parents[1]


async def make_db(path: Path, hands: int = 1) -> None:
    """A real database with a few played hands in it."""
    async with await Storage.open(path) as s:
        t = await s.create_table(1, "changsha", seats=[1, 2, 3, 4])
        for seed in range(hands):
            hand, state = await s.start_hand(t.id, seed=seed)
            rng = random.Random(seed)
            while state.phase != engine.Phase.ENDED:
                action = rng.choice(engine.legal_actions(state, rng.choice(engine.to_act(state))))
                state, _ = engine.apply(state, action)
                ended = state.phase == engine.Phase.ENDED
                await s.log_action(hand.id, str(action), state.version, final=state if ended else None)


async def test_settings_are_wal_normal_with_a_busy_timeout(tmp_path: Path) -> None:
    async with await Storage.open(tmp_path / "a.db", busy_timeout=2.5) as s:
        assert await s.settings() == {
            "journal_mode": "wal",
            "synchronous": "NORMAL",
            "busy_timeout": 2500,
            "foreign_keys": 1,
            "user_version": schema.LATEST,
        }
    async with await Storage.open(tmp_path / "a.db", synchronous="full") as s:
        assert (await s.settings())["synchronous"] == "FULL"
    with pytest.raises(InvalidInput):
        await Storage.open(tmp_path / "a.db", synchronous="OFF")


async def test_random_bytes_are_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "bot.db"
    path.write_bytes(random.Random(1).randbytes(64 * 1024))
    before = path.read_bytes()
    with pytest.raises(CorruptDatabase, match="not a usable database") as err:
        await Storage.open(path)
    assert str(path) in str(err.value) and "backup" in str(err.value)
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bot.db"]


async def test_damaged_pages_fail_the_integrity_check_at_open(tmp_path: Path) -> None:
    path = tmp_path / "bot.db"
    await make_db(path, hands=3)
    data = bytearray(path.read_bytes())
    assert len(data) > 6 * 4096
    page = 4096  # keep the header page: the file still looks like SQLite
    data[2 * page : len(data) - page] = random.Random(2).randbytes(len(data) - 3 * page)
    path.write_bytes(bytes(data))
    with pytest.raises(CorruptDatabase):
        await Storage.open(path)
    assert path.read_bytes() == bytes(data)


async def test_directories_are_not_databases(tmp_path: Path) -> None:
    with pytest.raises(OpenError, match="directory"):
        await Storage.open(tmp_path)
    with pytest.raises(OpenError, match="does not exist"):
        await Storage.open(tmp_path / "nowhere" / "bot.db")
    assert list(tmp_path.iterdir()) == []


async def test_a_database_locked_by_another_writer_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "bot.db"
    await make_db(path, hands=0)
    other = sqlite3.connect(path, isolation_level=None)
    try:
        other.execute("BEGIN EXCLUSIVE")
        with pytest.raises(OpenError, match="locked"):
            await Storage.open(path, busy_timeout=0)
    finally:
        other.execute("ROLLBACK")
        other.close()
    async with await Storage.open(path):
        pass


# The read-only check runs in a child process: as root, a 0444 file is still writable, so the child drops
# CAP_DAC_OVERRIDE from its capability bounding set and re-executes itself before opening the file.
CHILD = textwrap.dedent(
    """
    import asyncio, ctypes, os, sys
    path = sys.argv[1]
    if os.geteuid() == 0 and os.environ.get("MJ_DROPPED") != "1":
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(24, 1, 0, 0, 0) != 0:  # PR_CAPBSET_DROP, CAP_DAC_OVERRIDE
            print("SKIP cannot drop CAP_DAC_OVERRIDE")
            sys.exit(0)
        os.environ["MJ_DROPPED"] = "1"
        os.execv(sys.executable, [sys.executable, "-c", CODE, path])
    try:
        open(path, "r+b").close()
    except PermissionError:
        pass
    else:
        print("SKIP the file is writable for this process")
        sys.exit(0)
    from storage import Storage, StorageError
    async def main():
        try:
            s = await Storage.open(path)
        except StorageError as e:
            print(type(e).__name__, e)
        else:
            await s.close()
            print("OPENED")
    asyncio.run(main())
    """
)


def open_in_child(path: Path) -> str:
    code = f"CODE = {CHILD!r}\n{CHILD}"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run(
        [sys.executable, "-c", code, str(path)], capture_output=True, text=True, env=env, timeout=60, cwd=ROOT
    )
    assert out.returncode == 0, out.stderr
    line = out.stdout.strip()
    if line.startswith("SKIP"):
        pytest.skip(line)
    return line


async def test_a_read_only_file_is_refused_at_open(tmp_path: Path) -> None:
    path = tmp_path / "bot.db"
    await make_db(path)
    path.chmod(0o444)
    before = path.read_bytes()
    try:
        open(path, "r+b").close()
        writable = True
    except PermissionError:
        writable = False
    if writable:  # root: ask a child without CAP_DAC_OVERRIDE
        line = open_in_child(path)
        assert line.startswith("ReadOnlyDatabase "), line
        assert "read-only" in line and "write access" in line
    else:
        with pytest.raises(ReadOnlyDatabase, match="read-only"):
            await Storage.open(path)
    assert path.read_bytes() == before
    path.chmod(0o644)
    async with await Storage.open(path) as s:  # and the data is all there once it is writable again
        assert len(await s.table_hands(1)) == 1


async def test_errors_are_storage_errors_with_plain_messages(tmp_path: Path) -> None:
    path = tmp_path / "bot.db"
    path.write_bytes(b"SQLite format 3\x00" + bytes(100))
    with pytest.raises(StorageError) as err:
        await Storage.open(path)
    assert "Traceback" not in str(err.value) and str(path) in str(err.value)
