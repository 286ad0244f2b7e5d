"""Cluster benchmark: presses per second for 1, 2 and 4 worker processes on one PostgreSQL database, unpaced
and with the production pacing, with the CPU a press costs (workers + PostgreSQL) and the connections each
worker holds; optionally the same run against another checkout (``--baseline ../other-checkout``: the same-run
baseline), and the polls' cost with 100,000 finished tables (``--polls``).

Every configuration runs the bot's worker (the production ``build_application``, served by webhook) against
the fake Bot API (``tests/fake_telegram.py``, in this process), which POSTs each update to the webhook, a new
connection each, so the kernel spreads them over the workers (one shared port, SO_REUSEPORT).

* unpaced: no flood limiter, no group interval (what the bot's CPU and the database can do);
* paced: the bot's real settings - Telegram's 30 requests a second for the bot (AIORateLimiter, and on several
  workers the budget shared in the database) and 3 s between two requests to one group. The claim pause is
  0 in both (it is a wait, not work).

A stage opens T tables (Changsha, one scripted player and three AI seats each) and plays one hand on each at
once, the player pressing the first button of each decision after a think time (uniform 0.5-1.5 × 0.5 s). It
reports presses per second (first press to last), press → answer latency (median, p99: the callback query
injected → the bot's answerCallbackQuery), press → next decision shown (median: what a player waits for),
CPU milliseconds per press of the workers and of PostgreSQL's processes (from /proc), and the most
connections the database had per worker during the stage.

Run: ``.venv/bin/python bench/cluster_bench.py [--quick] [--baseline ../other-checkout] [--workers 1,2,4]``
and ``--polls`` (the poll queries' plans and times with 0 and 100,000 finished tables). A 2-core machine
gives the fake Telegram server a core of its own: more workers than cores cannot show their scaling here.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import signal
import statistics
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path

import asyncpg

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.messages.presses import GamePress, decode  # noqa: E402
from tests.cluster_support import open_tables  # noqa: E402
from tests.fake_telegram import DEFAULT_TOKEN, FakeChat, FakeTelegramServer, FakeUser  # noqa: E402
from tests.pgcluster import Cluster, free_port  # noqa: E402

SECRET = "bench-secret"
TICK = os.sysconf("SC_CLK_TCK")

# The worker, run with a checkout's own Python (``--baseline``): only APIs every version of the bot has.
WORKER = """
import asyncio, logging, signal, sys
from telegram.ext import AIORateLimiter
from bot.telegram.app import build_application, running
from bot.telegram.webhook import WebhookConfig
db, base, port, secret, token, paced = sys.argv[1:7]
logging.basicConfig(level=logging.WARNING)
async def serve():
    kw = {} if paced == "1" else dict(
        rate_limiter=AIORateLimiter(overall_max_rate=0, group_max_rate=0, max_retries=3), group_interval=0)
    app = build_application(token, db, base, claim_pause=0, pictures=False,
                            seed_fn=lambda t, n: 1000 * t + n, **kw)
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    async with running(app, webhook=WebhookConfig(f"http://127.0.0.1:{port}/hook", secret, "127.0.0.1",
                                                  int(port))):
        print("ready", flush=True)
        await stop.wait()
asyncio.run(serve())
"""


MIGRATE = """
import asyncio
from storage import Storage
async def migrate():
    await (await Storage.open({url!r})).close()
asyncio.run(migrate())
"""


def cpu_seconds(pids: list[int]) -> float:
    total = 0
    for pid in pids:
        with contextlib.suppress(OSError):
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / TICK


def server_pids(postmaster: int) -> list[int]:
    """The PostgreSQL server and its backends."""
    pids = [postmaster]
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            with contextlib.suppress(OSError):
                if int((d / "stat").read_text().rsplit(")", 1)[1].split()[1]) == postmaster:
                    pids.append(int(d.name))
    return pids


@contextlib.asynccontextmanager
async def workers(
    root: Path, python: str, url: str, tg: FakeTelegramServer, n: int, paced: bool, log: Path
) -> AsyncIterator[list[int]]:
    port = free_port()
    procs = []
    try:
        for _ in range(n):
            with open(log, "ab") as err:
                proc = await asyncio.create_subprocess_exec(
                    python, "-c", WORKER, url, tg.base_url, str(port), SECRET, DEFAULT_TOKEN, str(int(paced)),
                    stdout=asyncio.subprocess.PIPE, stderr=err, cwd=root,
                    env={**os.environ, "PYTHONPATH": str(root)},
                )  # fmt: skip
            procs.append(proc)
            assert proc.stdout is not None
            line = await asyncio.wait_for(proc.stdout.readline(), 60)
            assert line == b"ready\n", log.read_text(errors="replace")[-2000:]
        yield [p.pid for p in procs]
    finally:
        for p in procs:
            with contextlib.suppress(ProcessLookupError):
                p.send_signal(signal.SIGTERM)
        for p in procs:
            try:
                await asyncio.wait_for(p.wait(), 20)
            except TimeoutError:
                p.kill()


async def play(
    tg: FakeTelegramServer, user: FakeUser, group: FakeChat, tid: int, rng: random.Random,
    pressed: dict[str, float], shown: list[float],
) -> None:  # fmt: skip
    """One player: press the first button of each new decision after thinking, until the hand is over."""
    last = (-1, -1)
    since = 0.0

    def next_decision(_: object) -> object:
        if any("🏁" in (m.text or "") for m in tg.bot_messages(group)[-3:]):
            return "over"
        for m in reversed(tg.bot_messages(user)):
            data = [d for d in m.callback_data if d.startswith(f"g|{tid}|")]
            if data:
                press = decode(data[0])
                assert isinstance(press, GamePress)
                key = (press.hand, press.decision)
                return (m, data[0], key) if key > last else None
        return None

    while True:
        found = await tg.wait_for(next_decision, timeout=120, what=f"a decision for {user.first_name}")
        if found == "over":
            return
        if since:
            shown.append(time.monotonic() - since)
        message, data, key = found  # type: ignore[misc]
        await asyncio.sleep(0.5 * rng.uniform(0.5, 1.5))
        last = key
        try:
            query = tg.press(user, message.chat, message.message_id, data)
        except ValueError:  # the panel moved on while he thought: look again
            since = 0.0
            continue
        since = pressed[query.id] = time.monotonic()


async def connections(url: str) -> int:
    conn = await asyncpg.connect(url)
    try:
        return int(
            await conn.fetchval(
                "SELECT count(*) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
        )
    finally:
        await conn.close()


async def stage(
    tg: FakeTelegramServer, url: str, tables: int, seed: int, pids: list[int], postmaster: int
) -> dict[str, float]:
    rng = random.Random(seed)
    players = []
    for i in range(tables):
        user = tg.add_user(f"S{seed}P{i}", language_code="en", started=True)
        players.append((user, tg.add_group(f"Stage {seed} table {i}", members=[user])))
    tids = await open_tables(tg, players)
    pressed: dict[str, float] = {}
    shown: list[float] = []
    mark = len(tg.calls)
    peak = 0
    done = asyncio.Event()

    async def sample() -> None:
        nonlocal peak
        while not done.is_set():
            peak = max(peak, await connections(url))
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(done.wait(), 0.5)

    sampler = asyncio.ensure_future(sample())
    cpu0 = cpu_seconds(pids), cpu_seconds(server_pids(postmaster))
    await asyncio.gather(
        *(play(tg, u, g, tid, rng, pressed, shown) for (u, g), tid in zip(players, tids, strict=True))
    )
    cpu1 = cpu_seconds(pids), cpu_seconds(server_pids(postmaster))
    done.set()
    await sampler
    answered = {
        str(c.params.get("callback_query_id")): c.time
        for c in tg.calls[mark:]
        if c.method == "answerCallbackQuery"
    }
    lat = sorted((answered[q] - t0) * 1000 for q, t0 in pressed.items() if q in answered)
    times = sorted(pressed.values())
    n = len(pressed)
    return {
        "presses": n,
        "rate": n / max(times[-1] - times[0], 1e-3),
        "median": statistics.median(lat),
        "p99": lat[min(len(lat) - 1, int(0.99 * len(lat)))],
        "next": statistics.median(shown) * 1000 if shown else float("nan"),
        "cpu_worker": (cpu1[0] - cpu0[0]) * 1000 / n,
        "cpu_pg": (cpu1[1] - cpu0[1]) * 1000 / n,
        "conns": peak / max(1, len(pids)),
        "requests": len([c for c in tg.calls[mark:] if c.method != "answerCallbackQuery"]) / n,
    }


async def run(
    root: Path, python: str, label: str, cluster: Cluster, n: int, paced: bool, stages: list[int], log: Path
) -> None:
    from storage import Storage

    url = await cluster.database()
    if root == ROOT:
        async with await Storage.open(url):
            pass
    else:  # the other checkout migrates its own schema
        proc = await asyncio.create_subprocess_exec(
            python, "-c", MIGRATE.format(url=url),
            cwd=root, env={**os.environ, "PYTHONPATH": str(root)},
        )  # fmt: skip
        assert await proc.wait() == 0
    async with FakeTelegramServer() as tg, workers(root, python, url, tg, n, paced, log) as pids:
        for k, tables in enumerate(stages):
            r = await stage(tg, url, tables, k + 1, pids, cluster.server_pid)
            print(
                f"  {label:5s} {'paced' if paced else 'unpaced':7s} {n} worker(s) {tables:3d} tables: "
                f"{r['rate']:5.1f} presses/s, answer median {r['median']:5.1f} ms p99 {r['p99']:6.1f} ms, "
                f"next decision median {r['next']:6.0f} ms, CPU/press worker {r['cpu_worker']:4.1f} ms "
                f"+ PostgreSQL {r['cpu_pg']:4.1f} ms, {r['requests']:.2f} requests/press, "
                f"{r['conns']:.1f} connections/worker ({int(r['presses'])} presses)",
                flush=True,
            )


POLLS = {
    "timers due (claim_due)": """
        SELECT table_id FROM timers WHERE due <= $1 ORDER BY due LIMIT 16 FOR UPDATE SKIP LOCKED""",
    "tables of gone workers (orphans)": """
        SELECT id FROM tables WHERE status = 'open' AND owed_by IS NOT NULL AND owed_by <> 'x'
        AND NOT EXISTS (SELECT 1 FROM workers AS w WHERE w.worker = owed_by AND w.seen >= $1)
        ORDER BY id LIMIT 32 FOR UPDATE SKIP LOCKED""",
    "posts of gone workers (orphan_posts)": """
        SELECT id FROM outbox WHERE (claimed_by IS NULL AND created_at < $1) OR (claimed_by <> 'x'
        AND left(claimed_by, 63) NOT IN (
            SELECT application_name FROM pg_stat_activity WHERE application_name <> ''))
        ORDER BY id LIMIT 100 FOR UPDATE SKIP LOCKED""",
    "update applied? (applied)": "SELECT 1 FROM updates_seen WHERE update_id = $1::float8::bigint",
}


async def polls(cluster: Cluster) -> None:
    """Each poll's plan and time (median of 200 runs) with no finished table and with 100,000."""
    from storage import Storage

    url = await cluster.database()
    async with await Storage.open(url):
        pass
    conn = await asyncpg.connect(url)
    try:
        for finished in (0, 100_000):
            if finished:
                await conn.execute(
                    """
                    INSERT INTO tables (chat_id, variant, options, seats, status, created_at, owed_by)
                    SELECT -g, 'changsha', '{}', '[1, null, null, null]', 'closed', 0, 'gone-' || (g % 7)
                    FROM generate_series(1, $1) AS g
                    """,
                    finished,
                )
                await conn.execute(
                    "INSERT INTO updates_seen (update_id, seen) SELECT g, 0 FROM generate_series(1, $1) AS g",
                    finished,
                )
                await conn.execute("ANALYZE")
            print(f"\nwith {finished:,} finished tables:")
            for name, sql in POLLS.items():
                took = []
                for _ in range(200):
                    t0 = time.perf_counter()
                    async with conn.transaction():
                        await conn.fetch(sql, 1e12)
                    took.append((time.perf_counter() - t0) * 1000)
                plan = await conn.fetch("EXPLAIN " + sql, 1e12)
                print(f"  {name}: {statistics.median(took):.3f} ms  plan: {plan[0][0].strip()}")
                for row in plan[1:]:
                    if "Scan" in row[0]:
                        print(f"      {row[0].strip()}")
    finally:
        await conn.close()


async def main(args: argparse.Namespace) -> None:
    stages = [16] if args.quick else [8, 32]
    ns = [int(x) for x in args.workers.split(",")]
    print(f"load average at the start: {os.getloadavg()[0]:.1f}", flush=True)
    cluster = Cluster().start()
    log = Path(cluster.root) / "workers.log"
    try:
        if args.polls:
            await polls(cluster)
            return
        trees = [(ROOT, sys.executable, "this")]
        if args.baseline:
            base = Path(args.baseline).resolve()
            trees.append((base, str(base / ".venv/bin/python"), "base"))
        for paced in [m == "paced" for m in args.modes.split(",")]:
            for n in ns:
                for root, python, label in trees:
                    await run(root, python, label, cluster, n, paced, stages, log)
    finally:
        cluster.stop()
        print(f"load average at the end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="one stage of 16 tables per configuration")
    parser.add_argument("--workers", default="1,2,4", help="worker counts to run")
    parser.add_argument("--baseline", default="", help="another checkout to run the same stages against")
    parser.add_argument("--polls", action="store_true", help="the polls with 0 and 100,000 finished tables")
    parser.add_argument("--modes", default="unpaced,paced", help="unpaced, paced, or both")
    asyncio.run(main(parser.parse_args()))
