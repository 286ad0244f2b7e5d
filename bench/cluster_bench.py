"""Cluster benchmark: presses per second at p99 press → answer < 50 ms, for one bot process on SQLite and for
1, 2 and 4 worker processes on one PostgreSQL database, all in one run on this machine.

Every configuration runs the same bot worker (``tests/cluster_worker.py``: webhook on one shared port, no
flood pacing, no claim pause; text display unless ``--pictures``) against the fake Bot API
(``tests/fake_telegram.py``, in this process), which POSTs each update to the webhook, a new connection each,
so the kernel spreads them over the workers.
PostgreSQL is a throwaway server (``tests/pgcluster.py``: fsync off, as a tuned server with a battery-backed
disk would commit; SQLite runs with its production settings, WAL and synchronous=NORMAL).

A stage opens T tables (Changsha, one scripted player and three AI seats each) and plays one hand on each at
once, the player pressing the first button of each decision after a think time (uniform 0.5-1.5 × think);
it measures, from the first press to the last, presses per second and the press → answer latency (the
callback query injected → the bot's answerCallbackQuery). Stages grow T (up to the largest stage; two
stages in a row four times over the target end the climb); the figure reported for a configuration is the
highest rate whose p99 stayed under 50 ms.

Run: ``.venv/bin/python bench/cluster_bench.py`` (about 8 minutes) or ``--quick`` (fewer, smaller stages).
On a 2-core machine the bench process (the fake Telegram) takes a core of its own: more workers than cores
cannot show their scaling here; see docs/deploy.md for what scales.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.messages.presses import GamePress, decode  # noqa: E402
from storage import Storage  # noqa: E402
from tests.fake_telegram import FakeChat, FakeTelegramServer, FakeUser  # noqa: E402
from tests.pgcluster import Cluster  # noqa: E402
from tests.test_cluster_e2e import open_tables, workers  # noqa: E402

TARGET_MS = 50.0


def p99(values: list[float]) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]


async def play(
    tg: FakeTelegramServer,
    user: FakeUser,
    group: FakeChat,
    tid: int,
    think: float,
    rng: random.Random,
    pressed: dict[str, float],
) -> None:
    """One player: press the first button of each new decision after thinking, until the hand is over."""
    last = (-1, -1)
    title = "🏁"

    def next_decision(_: object) -> object:
        if any(title in (m.text or "") for m in tg.bot_messages(group)[-3:]):
            return "over"
        for m in reversed(tg.bot_messages(user)):
            data = [d for d in m.callback_data if d.startswith(f"g|{tid}|")]
            if data:
                press = decode(data[0])
                assert isinstance(press, GamePress)
                return (
                    (m, data[0], (press.hand, press.decision))
                    if (press.hand, press.decision) > last
                    else None
                )
        return None

    while True:
        found = await tg.wait_for(next_decision, timeout=60, what=f"a decision for {user.first_name}")
        if found == "over":
            return
        message, data, since = found  # type: ignore[misc]
        await asyncio.sleep(think * rng.uniform(0.5, 1.5))
        last = since
        try:
            query = tg.press(user, message.chat, message.message_id, data)  # his panel, in private
        except ValueError:  # the panel moved on while he thought (a claim passed by): look again
            continue
        pressed[query.id] = time.monotonic()


async def stage(
    tg: FakeTelegramServer, tables: int, think: float, seed: int
) -> tuple[float, float, float, int]:
    """T tables, one hand each: (presses per second, median ms, p99 ms, presses)."""
    rng = random.Random(seed)
    players = []
    for i in range(tables):
        user = tg.add_user(f"S{seed}P{i}", language_code="en", started=True)
        players.append((user, tg.add_group(f"Stage {seed} table {i}", members=[user])))
    tids = await open_tables(tg, players)
    pressed: dict[str, float] = {}
    mark = len(tg.calls)
    await asyncio.gather(
        *(play(tg, u, g, tid, think, rng, pressed) for (u, g), tid in zip(players, tids, strict=True))
    )
    answered = {
        str(c.params.get("callback_query_id")): c.time
        for c in tg.calls[mark:]
        if c.method == "answerCallbackQuery"
    }
    lat = [(answered[q] - t0) * 1000 for q, t0 in pressed.items() if q in answered]
    times = sorted(pressed.values())
    span = max(times[-1] - times[0], 1e-3) if len(times) > 1 else 1.0
    return len(pressed) / span, statistics.median(lat) if lat else float("nan"), p99(lat), len(pressed)


async def configuration(
    name: str, db: str, n: int, stages: list[int], think: float, log: Path, display: str
) -> tuple[str, list[tuple[int, float, float, int]]]:
    async with FakeTelegramServer() as tg:
        async with await Storage.open(db):
            pass  # the schema, before the workers race for it
        rows = []
        async with workers(db, tg, log, n, display):
            for k, tables in enumerate(stages):
                rate, mid, tail, presses = await stage(tg, tables, think, k + 1)
                rows.append((tables, rate, tail, presses))
                print(
                    f"  {name}: {tables:4d} tables  {rate:6.1f} presses/s  median {mid:5.1f} ms"
                    f"  p99 {tail:6.1f} ms"
                    f"  ({presses} presses)"
                )
                # well past the target twice in a row: larger stages only take longer (once may be a stall
                # of a machine shared with other jobs)
                if tail > 4 * TARGET_MS and len(rows) > 1 and rows[-2][2] > 4 * TARGET_MS:
                    break
        return name, rows


async def main(quick: bool, display: str, configs: list[str]) -> None:
    stages = [8, 32] if quick else [8, 16, 32, 64, 128]
    think = 0.5
    print(f"load average at the start: {os.getloadavg()[0]:.1f}")
    cluster = Cluster().start()
    results = []
    try:
        with tempfile.TemporaryDirectory() as tmp:
            log = Path(tmp) / "workers.log"
            if "sqlite" in configs:
                db = str(Path(tmp) / "bot.db")
                results.append(await configuration("SQLite, 1 process", db, 1, stages, think, log, display))
            for n in (int(c) for c in configs if c.isdigit()):
                url = await cluster.database()
                results.append(
                    await configuration(f"PostgreSQL, {n} worker(s)", url, n, stages, think, log, display)
                )
    finally:
        cluster.stop()
    print(f"load average at the end: {os.getloadavg()[0]:.1f}")
    print(f"\npresses/s with p99 press → answer < {TARGET_MS:.0f} ms (think {think} s, one hand per table):")
    for name, rows in results:
        ok = [r for r in rows if r[2] <= TARGET_MS]
        best = max(ok, key=lambda r: r[1]) if ok else None
        figure = (
            f"{best[1]:6.1f} presses/s ({best[0]} tables, p99 {best[2]:.1f} ms)"
            if best
            else "none under target"
        )
        print(f"  {name:26s} {figure}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="smaller stages (about three minutes)")
    parser.add_argument("--pictures", action="store_true", help="chats see pictures (default: text)")
    parser.add_argument(
        "--configs", default="sqlite,1,2,4", help="what to run: sqlite and numbers of PostgreSQL workers"
    )
    args = parser.parse_args()
    asyncio.run(main(args.quick, "pictures" if args.pictures else "text", args.configs.split(",")))
