"""Storage benchmark: persisted actions per second under concurrency, and leaderboard latency on a big file.

    .venv/bin/python bench/storage_bench.py           # the full run (about half a minute)
    .venv/bin/python bench/storage_bench.py --quick   # a smaller run, a few seconds

1. Throughput: 200 tables, one asyncio task each, all logging through one ``Storage`` (WAL, synchronous
   NORMAL): every ``log_action`` is its own committed transaction. Target: >= 2,000 actions/s. The action
   lists come from real seeded engine games computed beforehand, so the figure is storage only; a second
   figure includes ``engine.apply`` in the loop, and a third uses synchronous=FULL (fsync per commit).
2. Leaderboard: a file with 1,000,000 logged actions (real games, bulk-loaded with ``import_hands``), then
   ``leaderboard`` for the busiest chat (half of all hands, spread over 90 days) and a typical one, over
   all time (running totals) / this month / this week (score rows through a covering index).
   Target: < 50 ms. Also: open time (with its integrity check), a hand's replay and a player's history.

Everything happens in a temporary directory that is removed at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import engine  # noqa: E402
from storage import ArchivedHand, Period, Storage, result_to_json  # noqa: E402

CHANGSHA = engine.get_variant("changsha")
NOW = datetime(2024, 6, 15, 12, 0, tzinfo=UTC)
DAY = 86400.0

Game = tuple[int, list[engine.Action], engine.State]  # seed, actions, final state


def play(seed: int) -> Game:
    """A seeded hand to the end; takes a win when offered so that some hands score."""
    state = engine.new_hand(CHANGSHA, seed)
    rng = random.Random(seed)
    actions: list[engine.Action] = []
    while state.phase != engine.Phase.ENDED:
        legal = engine.legal_actions(state, rng.choice(engine.to_act(state)))
        wins = [a for a in legal if a.act == engine.Act.WIN]
        action = wins[0] if wins and rng.random() < 0.9 else rng.choice(legal)
        state, _ = engine.apply(state, action)
        actions.append(action)
    return seed, actions, state


def fmt(n: float) -> str:
    return f"{n:,.0f}"


# ---------------------------------------------------------------------- 1. throughput


async def throughput(
    dir_: Path, games: list[Game], tables: int, hands_per_table: int, *, with_engine: bool, sync: str
) -> tuple[float, int, list[float]]:
    """Returns (actions per second, actions, per-action latencies in seconds)."""
    path = dir_ / f"throughput-{sync}-{with_engine}.db"
    latencies: list[float] = []
    async with await Storage.open(path, synchronous=sync) as s:
        ids = []
        for i in range(tables):
            ids.append((await s.create_table(1000 + i, "changsha", seats=[4 * i + k for k in range(4)])).id)

        async def table_task(i: int) -> int:
            n = 0
            for h in range(hands_per_table):
                seed, actions, final = games[(i * hands_per_table + h) % len(games)]
                hand, state = await s.start_hand(ids[i], seed=seed)
                last = len(actions) - 1
                for k, action in enumerate(actions):
                    if with_engine:
                        state, _ = engine.apply(state, action)
                        version = state.version
                    else:
                        version = k + 1
                    t = time.perf_counter()
                    await s.log_action(hand.id, str(action), version, final=final if k == last else None)
                    latencies.append(time.perf_counter() - t)
                    n += 1
            return n

        t0 = time.perf_counter()
        counts = await asyncio.gather(*(table_task(i) for i in range(tables)))
        elapsed = time.perf_counter() - t0
        board = await s.leaderboard(1000)
        assert board and board[0].hands == hands_per_table
    total = sum(counts)
    return total / elapsed, total, latencies


# ---------------------------------------------------------------------- 2. leaderboard on a big file


async def build_big(path: Path, games: list[Game], target_actions: int, chats: int) -> tuple[int, int, int]:
    """Bulk-load finished hands until ``target_actions`` actions are logged. Chat 0 is the busiest (half of
    all hands); each chat has 12 regulars who sit in random fours. Returns (hands, actions, chats)."""
    rng = random.Random(5)
    archived = [(seed, [str(a) for a in acts], result_to_json(end), end.dealer) for seed, acts, end in games]
    per_chat: dict[int, list[ArchivedHand]] = {c: [] for c in range(chats)}
    actions = hands = 0
    while actions < target_actions:
        seed, texts, result, dealer = archived[hands % len(archived)]
        chat = 0 if rng.random() < 0.5 else rng.randrange(1, chats)
        players: list[int | None] = [chat * 100 + p for p in rng.sample(range(12), 4)]
        ended = NOW.timestamp() - rng.random() * 90 * DAY
        per_chat[chat].append(
            ArchivedHand(seed, dealer, True, players, {}, texts, result, ended - 1200, ended)
        )
        actions += len(texts)
        hands += 1
    async with await Storage.open(path) as s:
        for chat in range(chats):
            for p in range(12):
                await s.upsert_player(chat * 100 + p, f"player {chat}-{p}")
            table = await s.create_table(chat, "changsha", seats=[chat * 100 + p for p in range(4)])
            per_chat[chat].sort(key=lambda h: h.ended_at)
            await s.import_hands(table.id, per_chat[chat])
    return hands, actions, chats


async def timed(fn: Callable[[], Awaitable[object]], repeat: int) -> tuple[float, float]:
    """(median, max) wall time in milliseconds, after one warm-up call."""
    await fn()
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        await fn()
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times), max(times)


async def leaderboard_bench(dir_: Path, games: list[Game], target_actions: int, repeat: int) -> bool:
    path = dir_ / "big.db"
    t = time.perf_counter()
    hands, actions, chats = await build_big(path, games, target_actions, chats=50)
    build = time.perf_counter() - t
    size = sum(p.stat().st_size for p in dir_.glob("big.db*")) / 1e6
    print(f"  built {fmt(actions)} actions, {fmt(hands)} hands, {chats} chats: {build:.1f} s, {size:.0f} MB")

    t = time.perf_counter()
    s = await Storage.open(path)
    print(f"  open with integrity check (PRAGMA quick_check): {(time.perf_counter() - t) * 1000:.0f} ms")
    ok = True
    try:
        for chat, label in ((0, "busiest chat"), (7, "typical chat")):
            for period in (Period.ALL, Period.MONTH, Period.WEEK):
                rows = await s.leaderboard(chat, period, NOW)
                n_hands = max((r.hands for r in rows), default=0)

                async def q(chat: int = chat, period: Period = period) -> object:
                    return await s.leaderboard(chat, period, NOW)

                med, worst = await timed(q, repeat)
                ok &= worst < 50
                print(
                    f"  leaderboard {label:12} {period.value:5}: median {med:6.2f} ms, max {worst:6.2f} ms "
                    f"({len(rows)} players, up to {fmt(n_hands)} hands each)"
                )
        med, worst = await timed(lambda: s.player_history(5, limit=20), repeat)
        print(f"  player history (20 hands)        : median {med:6.2f} ms, max {worst:6.2f} ms")
        med, worst = await timed(lambda: s.hand_replay(hands // 2), repeat)
        print(f"  hand replay (action list)        : median {med:6.2f} ms, max {worst:6.2f} ms")
        med, worst = await timed(lambda: s.rebuild(hands // 2), max(3, repeat // 4))
        print(f"  rebuild a hand through the engine: median {med:6.2f} ms, max {worst:6.2f} ms")
    finally:
        await s.close()
    return ok


# ---------------------------------------------------------------------- main


async def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="a smaller run (a few seconds)")
    args = ap.parse_args()
    tables = 200
    per_table = 1 if args.quick else 3  # hands per table
    target_actions = 100_000 if args.quick else 1_000_000
    repeat = 10 if args.quick else 30

    t = time.perf_counter()
    games = [play(seed) for seed in range(64)]
    wins = sum(1 for _, _, f in games if f.result is not None and f.result.winners)
    print(
        f"engine: {len(games)} seeded hands for the workload ({wins} won), "
        f"{time.perf_counter() - t:.1f} s  [SQLite {sqlite3.sqlite_version}]"
    )

    with tempfile.TemporaryDirectory(prefix="mj-storage-bench-") as tmp:
        dir_ = Path(tmp)
        print(f"\n1. accepted actions persisted per second, {tables} concurrent tables (target >= 2,000/s)")
        rate, n, lat = await throughput(dir_, games, tables, per_table, with_engine=False, sync="NORMAL")
        lat.sort()
        p50, p99 = lat[len(lat) // 2] * 1000, lat[int(len(lat) * 0.99)] * 1000
        print(
            f"  storage only, synchronous=NORMAL: {fmt(rate)} actions/s ({fmt(n)} actions; "
            f"latency under load p50 {p50:.1f} ms, p99 {p99:.1f} ms)"
        )
        ok_rate = rate >= 2000
        rate_e, n_e, _ = await throughput(dir_, games, tables, 1, with_engine=True, sync="NORMAL")
        print(f"  engine.apply + storage, NORMAL  : {fmt(rate_e)} actions/s ({fmt(n_e)} actions)")
        few = games[:8]
        rate_f, n_f, _ = await throughput(dir_, few, 20, 1, with_engine=False, sync="FULL")
        print(f"  storage only, synchronous=FULL  : {fmt(rate_f)} actions/s ({fmt(n_f)} actions, 20 tables)")

        print(f"\n2. leaderboard with {fmt(target_actions)} logged actions (target < 50 ms)")
        ok_board = await leaderboard_bench(dir_, games, target_actions, repeat)

    print(
        f"\ntargets: throughput {'PASS' if ok_rate else 'FAIL'}, leaderboard {'PASS' if ok_board else 'FAIL'}"
    )
    return 0 if ok_rate and ok_board else 1


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
