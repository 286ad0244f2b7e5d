"""Mini App benchmark: many open streams, presses from the app, and what reaches every other screen.

The bot runs in its own process (as in production, SQLite on disk, its Mini App server on a loopback port)
against ``tests/fake_telegram.py`` in this one. ``--tables`` tables (Changsha), each with two app players and
two AI seats, and enough spectators (members of each group) that ``--streams`` WebSocket streams are open.
Pressers answer the players' decisions from their frames (POST /api/act, initData signed as Telegram signs it)
at ``--rate`` presses a second in all. Measured:

* press → screen: from sending a press to the first frame after it on every *other* stream of its table (the
  other player and the spectators; target p99 < 100 ms at 40 presses/s)
* bytes per update: the size of each frame (target ≤ 2 KB)
* streams held by the one worker (target ≥ 1,000), and the bot process's memory per stream
* Telegram's budget: Bot API requests per discard (every seat's, AI included) while the players' pages are
  open and in front, then with the same presses while the pages are in the background (a nudge per waiting
  decision); bench/bot_bench.py has the chat-only figure (a panel edit per change, a button answer per press)

Run: ``.venv/bin/python bench/miniapp_bench.py`` (20 tables, 1,000 streams, 20 s a phase) or ``--quick``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing as mp
import os
import sys
import tempfile
import time
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import aiohttp

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.miniapp.auth import TableTokens, sign, tokens_key  # noqa: E402
from tests.bot_support import lobby_message, open_table  # noqa: E402
from tests.fake_telegram import FakeChat, FakeTelegramServer, FakeUser  # noqa: E402
from tests.pgcluster import free_port  # noqa: E402


def rss_bytes() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def bot_process(conn: Connection, base_url: str, token: str, db_path: str, port: int) -> None:
    profile = os.environ.get("MINIAPP_BENCH_PROFILE")  # a file for the bot process's cProfile stats
    if not profile:
        asyncio.run(_bot_main(conn, base_url, token, db_path, port))
        return
    import cProfile

    pr = cProfile.Profile(time.thread_time)
    pr.enable()
    asyncio.run(_bot_main(conn, base_url, token, db_path, port, lambda: pr.dump_stats(profile)))


async def _bot_main(
    conn: Connection, base_url: str, token: str, db_path: str, port: int, dump: Any = None
) -> None:
    from telegram.ext import AIORateLimiter

    from bot.miniapp.server import Config
    from bot.telegram.app import build_application, configure_logging, running

    configure_logging()
    app = build_application(
        token,
        db_path,
        base_url,
        rate_limiter=AIORateLimiter(overall_max_rate=0, group_max_rate=0, max_retries=5),
        seed_fn=lambda table, number: 7919 * table + number,
        claim_pause=0,
        pictures=False,
        miniapp=Config(url="https://mahjong.example/app", port=port),
    )
    loop = asyncio.get_running_loop()
    stats = 0
    async with running(app, poll_timeout=10):
        conn.send(("ready", rss_bytes(), time.process_time()))
        while True:
            try:
                cmd = await loop.run_in_executor(None, conn.recv)
            except (EOFError, OSError):
                return
            if cmd != "stats":
                break
            web = app.bot_data["miniapp"]
            conn.send(("stats", rss_bytes(), time.process_time(), web.streams()))
            stats += 1
            if dump is not None and stats == 2:  # the end of the run: the profile so far
                dump()
    conn.send(("stopped",))


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * (len(ordered) - 1))))]


class Stream:
    """One page's stream: its frames' arrival times and sizes."""

    def __init__(self, table: int, user: int, player: bool) -> None:
        self.table, self.user, self.player = table, user, player
        self.last: dict[str, Any] = {}
        self.times: list[float] = []
        self.sizes: list[int] = []
        self.ws: aiohttp.ClientWebSocketResponse | None = None
        self.waiters: list[tuple[int, asyncio.Future[float]]] = []  # (frames seen, future of the next one)

    def next_frame(self) -> asyncio.Future[float]:
        """The arrival time of the next frame."""
        fut: asyncio.Future[float] = asyncio.get_running_loop().create_future()
        self.waiters.append((len(self.times), fut))
        return fut

    async def run(
        self, http: aiohttp.ClientSession, url: str, init: str, token: str, ready: asyncio.Event
    ) -> None:
        async with http.ws_connect(url, max_msg_size=0) as ws:
            self.ws = ws
            await ws.send_str(json.dumps({"op": "hello", "init": init, "t": token}))
            async for msg in ws:
                now = time.perf_counter()
                frame = json.loads(msg.data)
                if frame["k"] in ("hand", "lobby"):
                    self.times.append(now)
                    self.sizes.append(len(msg.data.encode()))
                    self.last = frame
                    ready.set()
                    waiting, self.waiters = self.waiters, []
                    for _, fut in waiting:
                        if not fut.done():
                            fut.set_result(now)
                elif frame["k"] == "refused":
                    raise SystemExit(f"stream refused: {frame}")


async def run(tables: int, streams: int, rate: float, seconds: float) -> dict[str, Any]:
    ctx = mp.get_context("spawn")
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        async with FakeTelegramServer() as tg:
            parent, child = ctx.Pipe()
            db = str(Path(tmp) / "bench.db")
            proc = ctx.Process(target=bot_process, args=(child, tg.base_url, tg.token, db, port))
            proc.start()
            try:
                return await _drive(tg, parent, port, tables, streams, rate, seconds)
            finally:
                parent.send("stop")
                proc.join(10)
                if proc.is_alive():
                    proc.terminate()
                    proc.join(5)


async def _drive(
    tg: FakeTelegramServer,
    parent: Connection,
    port: int,
    tables: int,
    streams: int,
    rate: float,
    seconds: float,
) -> dict[str, Any]:
    loop = asyncio.get_running_loop()
    msg = await loop.run_in_executor(None, parent.recv)
    assert msg[0] == "ready", msg
    rss0 = msg[1]
    tokens = TableTokens(tokens_key(tg.token))
    now = time.time()

    def init(user: FakeUser) -> str:
        who = json.dumps({"id": user.id, "first_name": user.first_name})
        fields = {"auth_date": str(int(now)), "user": who}
        return sign(fields, tg.token)

    watchers = max(0, streams - 2 * tables) // tables
    groups: list[tuple[int, FakeChat, list[FakeUser], list[FakeUser]]] = []
    for i in range(tables):
        players = [tg.add_user(f"P{i}a", started=True), tg.add_user(f"P{i}b", started=True)]
        members = [
            tg.add_user(f"W{i}-{k}", language_code="zh-hans" if k % 2 else "en") for k in range(watchers)
        ]
        group = tg.add_group(f"Table {i}", members=[*players, *members])
        tid, lobby = await open_table(tg, players[0], group, "changsha")
        tg.press(players[1], group, lobby.message_id, f"L|{tid}|j")
        groups.append((tid, group, players, members))
    await tg.wait_idle(timeout=30)
    url = f"http://127.0.0.1:{port}/ws"
    http = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0))
    all_streams: list[Stream] = []
    by_table: dict[int, list[Stream]] = {}
    tasks = []
    for tid, _, players, members in groups:
        for user in [*players, *members]:
            s = Stream(tid, user.id, user in players)
            ready = asyncio.Event()
            tasks.append(asyncio.create_task(s.run(http, url, init(user), tokens.token(tid), ready)))
            await asyncio.wait_for(ready.wait(), 30)
            all_streams.append(s)
            by_table.setdefault(tid, []).append(s)
    parent.send("stats")
    msg = await loop.run_in_executor(None, parent.recv)
    rss_streams, open_streams = msg[1], msg[3]
    for tid, group, players, _ in groups:
        lobby = await lobby_message(tg, group, tid)
        tg.press(players[0], group, lobby.message_id, f"L|{tid}|go")
    await tg.wait_idle(timeout=30)
    users = {u.id: u for _, _, players, _ in groups for u in players}
    latencies: list[float] = []
    presses = 0
    failures = 0

    async def press_once(s: Stream) -> None:
        nonlocal presses, failures
        f = s.last
        body: dict[str, Any] = {"t": tokens.token(s.table), "init": init(users[s.user])}
        if f.get("k") == "lobby":
            if f.get("until") and s.user and f.get("me") is not None and f["me"] not in f.get("ready", []):
                body["op"] = "ready"
            else:
                return
        elif f.get("k") == "hand" and "dec" in f:
            dec = f["dec"]
            acts = dec.get("acts") or []
            drawn = f.get("drawn")
            i = next((k for k, a in enumerate(acts) if a[0] == "discard" and a[1] == drawn), None)
            if i is None:
                i = next((k for k, a in enumerate(acts) if a[0] in ("pass", "win")), 0)
            body.update(op="act", hid=dec["hid"], since=dec["since"], i=i)
        else:
            return
        others = [o for o in by_table[s.table] if o is not s]
        waits = [o.next_frame() for o in others]
        t0 = time.perf_counter()
        async with http.post(f"http://127.0.0.1:{port}/api/act", json=body) as resp:
            answer = await resp.json()
        presses += 1
        if not answer.get("ok"):
            failures += 1
            return
        await asyncio.wait(waits, timeout=2.0)  # a press another screen does not show leaves it waiting
        latencies.extend(w.result() - t0 for w in waits if w.done())
        for w in waits:
            w.cancel()

    async def phase(duration: float) -> tuple[int, int, int]:
        """Press at the rate for ``duration``; returns (presses, Bot API requests, discards)."""
        start_calls = len([c for c in tg.calls if c.method != "getUpdates"])
        counted = 0
        seen_hands: dict[int, tuple[int, int]] = {}  # table -> (hand id, discards at the phase's start)
        for tid, ss in by_table.items():
            w = next((s for s in ss if not s.player), ss[0])
            if w.last.get("k") == "hand":
                seen_hands[tid] = (w.last["hid"], sum(len(seat["d"]) for seat in w.last["seats"]))
        pressed0 = presses
        end = time.perf_counter() + duration
        busy: set[int] = set()
        pending: set[asyncio.Task[None]] = set()
        players = [s for s in all_streams if s.player]
        k = 0
        while time.perf_counter() < end:
            for _ in range(len(players)):
                s = players[k % len(players)]
                k += 1
                f = s.last
                if s.table in busy:
                    continue
                if ("dec" in f and f.get("k") == "hand") or (f.get("k") == "lobby" and f.get("until")):
                    busy.add(s.table)
                    task = asyncio.create_task(press_once(s))
                    task.add_done_callback(lambda _t, tid=s.table: busy.discard(tid))
                    pending.add(task)
                    task.add_done_callback(pending.discard)
                    break
            await asyncio.sleep(1 / rate)
        await asyncio.gather(*pending)
        for tid, ss in by_table.items():
            w = next((s for s in ss if not s.player), ss[0])
            if w.last.get("k") == "hand":
                now_d = sum(len(seat["d"]) for seat in w.last["seats"])
                hid, d0 = seen_hands.get(tid, (w.last["hid"], 0))
                counted += now_d - d0 if hid == w.last["hid"] else now_d
        requests = len([c for c in tg.calls if c.method != "getUpdates"]) - start_calls
        return presses - pressed0, requests, counted

    t0 = time.perf_counter()
    visible = await phase(seconds)
    elapsed = time.perf_counter() - t0
    lat_visible = list(latencies)
    sizes = [n for s in all_streams for n in s.sizes]
    # the same presses with the players' pages in the background: a nudge per decision that waits
    for s in all_streams:
        if s.player and s.ws is not None:
            await s.ws.send_str(json.dumps({"op": "vis", "on": False}))
    hidden = await phase(seconds / 2)
    for task in tasks:
        task.cancel()
    await http.close()
    parent.send("stats")
    msg = await loop.run_in_executor(None, parent.recv)
    return {
        "tables": tables,
        "streams": open_streams,
        "rss_per_stream_kb": (rss_streams - rss0) / max(1, open_streams) / 1024,
        "presses": visible[0],
        "press_rate": visible[0] / elapsed,
        "failures": failures,
        "p50_ms": 1000 * percentile(lat_visible, 50),
        "p99_ms": 1000 * percentile(lat_visible, 99),
        "max_ms": 1000 * max(lat_visible, default=float("nan")),
        "updates": len(lat_visible),
        "bytes_p50": percentile([float(x) for x in sizes], 50),
        "bytes_p99": percentile([float(x) for x in sizes], 99),
        "bytes_max": max(sizes, default=0),
        "req_per_discard_visible": visible[1] / max(1, visible[2]),
        "req_per_discard_hidden": hidden[1] / max(1, hidden[2]),
        "discards": (visible[2], hidden[2]),
    }


def report(r: dict[str, Any]) -> str:
    return "\n".join(
        [
            f"Mini App: {r['tables']} tables, {r['streams']} open streams on one worker "
            f"({r['rss_per_stream_kb']:.1f} KB of bot memory per stream)",
            f"press → every other screen: p50 {r['p50_ms']:.1f} ms, p99 {r['p99_ms']:.1f} ms, "
            f"max {r['max_ms']:.0f} ms "
            f"({r['updates']} screen updates, {r['presses']} presses at {r['press_rate']:.1f}/s, "
            f"{r['failures']} refused)",
            f"bytes per update: p50 {r['bytes_p50']:.0f}, p99 {r['bytes_p99']:.0f}, max {r['bytes_max']}",
            f"Bot API requests per discard: {r['req_per_discard_visible']:.2f} with the players' pages "
            f"in front, "
            f"{r['req_per_discard_hidden']:.2f} with them in the background (discards {r['discards']})",
        ]
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--streams", type=int, default=1000)
    parser.add_argument("--rate", type=float, default=40.0)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--quick", action="store_true", help="5 tables, 200 streams, 8 s")
    args = parser.parse_args()
    if args.quick:
        args.tables, args.streams, args.seconds = 5, 200, 8.0
    print(report(asyncio.run(run(args.tables, args.streams, args.rate, args.seconds))))


if __name__ == "__main__":
    main()
