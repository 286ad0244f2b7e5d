"""Helpers of the multi-worker tests and benchmark (tests/test_cluster_e2e.py, tests/test_cluster_faults.py,
bench/cluster_bench.py): worker processes behind one webhook port, opening tables, playing a hand, and what
the players saw."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

from bot.messages.presses import GamePress, decode
from storage import Post, Storage

from .bot_support import Player, lobby_message
from .fake_telegram import FakeChat, FakeTelegramServer, FakeUser
from .pgcluster import free_port

ROOT = Path(__file__).resolve().parents[1]
SECRET = "e2e-secret"


class Workers:
    """Bot worker processes (tests/cluster_worker.py) serving one webhook port."""

    def __init__(self, url: str, tg: FakeTelegramServer, port: int, log: Path, display: str = "text") -> None:
        self.url, self.tg, self.port, self.log = url, tg, port, log
        self.display = display  # text: the workers' CPU goes to the cluster, not to drawing pictures
        self.procs: list[asyncio.subprocess.Process] = []

    async def start(self) -> asyncio.subprocess.Process:
        with open(self.log, "ab") as err:
            env = {**os.environ, "MAHJONG_DISPLAY": self.display}
            proc = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "tests.cluster_worker",
                self.url, self.tg.base_url, str(self.port), SECRET,
                stdout=asyncio.subprocess.PIPE, stderr=err, cwd=ROOT, env=env,
            )  # fmt: skip
        self.procs.append(proc)
        assert proc.stdout is not None
        line = await asyncio.wait_for(proc.stdout.readline(), 60)
        assert line == b"ready\n", self.log.read_text(errors="replace")[-3000:]
        return proc

    async def stop(self) -> None:
        for proc in self.procs:
            if proc.returncode is None:
                with contextlib.suppress(ProcessLookupError):
                    proc.send_signal(signal.SIGTERM)
        for proc in self.procs:
            try:
                await asyncio.wait_for(proc.wait(), 20)
            except TimeoutError:
                proc.kill()
                await proc.wait()


@contextlib.asynccontextmanager
async def workers(
    url: str, tg: FakeTelegramServer, log: Path, n: int, display: str = "text"
) -> AsyncIterator[Workers]:
    w = Workers(url, tg, free_port(), log, display)
    try:
        await asyncio.gather(*(w.start() for _ in range(n)))
        yield w
    finally:
        await w.stop()


async def open_tables(tg: FakeTelegramServer, players: list[tuple[FakeUser, FakeChat]]) -> list[int]:
    for user, group in players:
        tg.send_text(user, group, "/newtable changsha")

    async def table_of(group: FakeChat) -> int:
        def find(_: object) -> int | None:
            for m in reversed(tg.bot_messages(group)):
                for d in m.callback_data:
                    if d.startswith("L|") and d.endswith("|go"):
                        return int(d.split("|")[1])
            return None

        found: int = await tg.wait_for(find, timeout=30, what=f"a lobby in {group.title}")
        return found

    tids = list(await asyncio.gather(*(table_of(g) for _, g in players)))
    for (user, group), tid in zip(players, tids, strict=True):
        lobby = await lobby_message(tg, group, tid)
        tg.press(user, group, lobby.message_id, f"L|{tid}|go")
    return tids


async def outbox_empties(storage: Storage, timeout: float = 15) -> list[Post]:
    """The outbox's rows once it is empty, or as they are after ``timeout`` seconds (checked every 50 ms)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while (rows := await storage.unsent_posts()) and loop.time() < deadline:
        await asyncio.sleep(0.05)
    return rows


def _decision(markup: dict[str, Any] | None, tid: int) -> tuple[int, int] | None:
    """The (hand, decision) a version of a message offers at the table by its buttons, if any."""
    rows = (markup or {}).get("inline_keyboard") or []
    press = decode(rows[0][0].get("callback_data")) if rows and rows[0] else None
    return (press.hand, press.decision) if isinstance(press, GamePress) and press.table == tid else None


def decisions_in_order(tg: FakeTelegramServer, user: FakeUser, tid: int) -> list[tuple[int, int]]:
    """Every decision the player's private chat showed for the table, in the order it was shown."""
    shown = [
        (v.time, d)
        for m in tg.bot_messages(user)
        for v in m.versions
        if (d := _decision(v.reply_markup, tid)) is not None
    ]
    return [d for _, d in sorted(shown, key=lambda x: x[0])]


def panels_end(tg: FakeTelegramServer, user: FakeUser, tid: int) -> list[tuple[int, int] | None]:
    """What each message of the player's private chat that ever offered him a decision at the table shows
    last: the decision its buttons offer now, None when it offers none (the hand is over, or it was
    replaced)."""
    ends: list[tuple[int, int] | None] = []
    for m in tg.bot_messages(user):
        offered = [(v.time, _decision(v.reply_markup, tid)) for v in m.versions]
        if any(d is not None for _, d in offered):
            ends.append(max(offered, key=lambda x: x[0])[1])
    return ends


async def play_one(player: Player, done: Callable[[], bool], patience: float = 30) -> int:
    """``play_hand`` for one player, waiting longer for each decision: a worker killed mid-hand is noticed,
    and its tables carried on, within a second or two, but a loaded machine can stretch that."""
    while not done():
        d = player.decision()
        if d is None:
            await player.tg.wait_for(
                lambda _: done() or player.decision() is not None, timeout=patience, what="a decision"
            )
            continue
        message, data = d
        player.press(message, data[0])
        assert player.presses < 400, "the hand does not end"
    return player.presses


def stuck(
    tg: FakeTelegramServer,
    bots: list[Player],
    games: list[asyncio.Future[int]],
    log: Path,
    server_log: Path | None = None,
) -> str:
    """What the players whose hand did not end last saw (for a failure's message), the workers' log, and
    the database server's lock waits and cut sessions (``server_log``)."""
    lines = []
    for p, game in zip(bots, games, strict=True):
        if game.done() and not game.exception():
            continue
        lines.append(f"{p.user.first_name} (table {p.table_id}, last pressed {p.last_since}):")
        for m in tg.bot_messages(p.user)[-3:]:
            lines.append(f"  #{m.message_id} {(m.text or '')[:80]!r} {m.callback_data[:2]}")
    lines.append(f"webhook answers: {sorted({st for _, st in tg.webhook_posts})}")
    lines.append(log.read_text(errors="replace")[-2000:])
    if server_log is not None and server_log.exists():
        keep = ("waiting", "holding", "acquired", "terminating", "timeout", "Wait queue")
        waits = [x for x in server_log.read_text(errors="replace").splitlines() if any(k in x for k in keep)]
        lines.append("database server: " + "\n".join(waits[-40:]))
    return "\n".join(lines)


async def sessions(url: str) -> str:
    """The database's other sessions now (for a failure's message): who is in a transaction, in what
    state, waiting on what, since when, running what - the holder of a lock that outlived its timeouts."""
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        rows = await conn.fetch(
            "SELECT pid, state, wait_event_type, wait_event, backend_xid::text AS xid,"
            " round(extract(epoch FROM now() - xact_start)::numeric, 1) AS xact_s,"
            " round(extract(epoch FROM now() - state_change)::numeric, 1) AS state_s,"
            " left(query, 120) AS query"
            " FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
            " AND xact_start IS NOT NULL ORDER BY xact_start"
        )
    finally:
        await conn.close()
    return "sessions in a transaction:\n" + "\n".join(
        f"  {r['pid']} {r['state']} wait={r['wait_event_type']}/{r['wait_event']} xid={r['xid']}"
        f" xact {r['xact_s']} s, state {r['state_s']} s: {r['query']!r}"
        for r in rows
    )
