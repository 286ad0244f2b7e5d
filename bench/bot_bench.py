"""Bot benchmark: many concurrent tables over the fake Telegram Bot API on loopback.

Each table is a group with one scripted player and three AI seats (Changsha). The player presses the
first button of each decision in his private panel after a think time (uniform 0.5-1.5 × ``--think``,
3 s by default); the tables open over the first ``--ramp`` seconds. The bot runs in its own process (as
in production, with its production settings: SQLite on disk, group messages paced at one per 3 s) against
``tests/fake_telegram.py`` in this one, over real HTTP. Measured:

* press → answer: from injecting the callback query to the bot's answerCallbackQuery (target p99 < 50 ms)
* press → reaction: to the bot's next message or edit in the player's private chat
* memory per table: the bot process's RSS growth with every table mid-hand, divided by the tables
* the bot's CPU per press, how long its event loop is blocked at a time, and its garbage collections
* the group flood budget: the most messages and edits one group got in any 60 s (Telegram's
  limit is 20 a minute per group; the bot paces them at one per 3 s)

Pictures: by default the benchmark runs twice in one go, chats in text mode (the baseline) and
with pictures (every table and panel a photo, edited with editMessageMedia / editMessageCaption), and
reports both; ``--display text`` or ``--display pictures`` runs one. The pictures are drawn in worker
processes (bot/pictures/worker.py), children of the bot whose CPU its own ``process_time`` leaves out: their
CPU is read from /proc/<pid>/stat and counted beside the bot's, and with both modes the last line compares
CPU per press, bot and workers together (target: pictures ≤ 2× text).

AIORateLimiter's global 30 messages/s is off (loopback has no flood limits; on Telegram it would pace the
bot). Storage is not what limits the press rate (bench/storage_bench.py: ~9,200 actions/s persisted, the
engine included; 200 tables at a 1 s think time need ~130/s): the bot's one event loop is — its CPU per
press (target ≤ 8 ms) over the presses per second.

``--sweep 3,2,1,0.5`` runs the benchmark once per think time (200 tables each) and prints presses/s, CPU
per press and the answer percentiles side by side, and where p99 crosses 50 ms (target: not below
40 presses/s).

Run: ``.venv/bin/python bench/bot_bench.py`` (200 tables, about 80 s a display mode), ``--quick`` (20
tables, ~25 s a display mode) or ``--sweep 3,2,1.5,1,0.75,0.5`` (text mode unless ``--display
pictures``; a few minutes).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import multiprocessing as mp
import os
import random
import statistics
import sys
import tempfile
import time
from collections import Counter
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.bot_support import since_of  # noqa: E402
from tests.fake_telegram import Call, FakeChat, FakeMessage, FakeTelegramServer, FakeUser  # noqa: E402


def rss_bytes() -> int:
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except OSError:
        import resource

        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


# ------------------------------------------------------------------ the bot, in its own process


def thread_cpu() -> dict[str, tuple[float, float]]:
    """CPU seconds (user, system) of each live thread of this process, by what it runs (Linux /proc): the
    event loop, the database thread, the picture pool's feeder and manager threads, ..."""
    import threading

    tick = os.sysconf("SC_CLK_TCK")
    names: dict[int, str] = {}
    for th in threading.enumerate():
        target = getattr(th, "_target", None)
        what = getattr(target, "__qualname__", None) or type(th).__name__
        names[th.native_id or 0] = "event loop" if th is threading.main_thread() else what
    out: dict[str, tuple[float, float]] = {}
    try:
        tids = os.listdir("/proc/self/task")
    except OSError:
        return out
    for tid in tids:
        try:
            with open(f"/proc/self/task/{tid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        name = names.get(int(tid), "other")
        user, system = out.get(name, (0.0, 0.0))
        out[name] = (user + int(fields[11]) / tick, system + int(fields[12]) / tick)
    return out


def process_cpu(pids: list[int]) -> float:
    """CPU seconds (user + system) the processes ``pids`` have spent so far (Linux /proc/<pid>/stat): the
    picture workers, children of the bot process whose CPU ``process_time`` there does not count. A process
    that is gone counts 0 (the reading is taken while the bot runs)."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / tick
    return total


def cpu_split(before: dict[str, tuple[float, float]], after: dict[str, tuple[float, float]]) -> str:
    """What each thread spent between two ``thread_cpu`` readings (user + system), busiest first."""
    rows = []
    for name, (u, s) in after.items():
        u0, s0 = before.get(name, (0.0, 0.0))
        if u - u0 + s - s0 >= 0.05:
            rows.append((u - u0 + s - s0, f"{name} {u - u0:.1f}+{s - s0:.1f}s"))
    return ", ".join(r for _, r in sorted(rows, reverse=True))


def bot_process(
    conn: Connection, base_url: str, token: str, db_path: str, pictures: bool = False, workers: int = 1
) -> None:
    profile = os.environ.get("BOT_BENCH_PROFILE")  # a file for the bot process's cProfile stats
    if not profile:
        asyncio.run(_bot_main(conn, base_url, token, db_path, pictures, workers))
        return
    import cProfile

    # The event loop's own CPU time by default (what the database and picture threads spend is not
    # charged to whatever the loop runs meanwhile); BOT_BENCH_PROFILE_CLOCK=wall: perf_counter, a fifth of
    # the profiler's overhead, with the loop's idle waits under select().
    wall = os.environ.get("BOT_BENCH_PROFILE_CLOCK") == "wall"
    with cProfile.Profile(time.perf_counter if wall else time.thread_time) as pr:
        asyncio.run(_bot_main(conn, base_url, token, db_path, pictures, workers))
    pr.dump_stats(profile)


async def _bot_main(
    conn: Connection, base_url: str, token: str, db_path: str, pictures: bool, workers: int
) -> None:
    from telegram.ext import AIORateLimiter

    from bot.telegram.app import build_application, configure_logging, running

    configure_logging()
    app = build_application(
        token,
        db_path,
        base_url,
        rate_limiter=AIORateLimiter(overall_max_rate=0, group_max_rate=0, max_retries=5),
        seed_fn=lambda table, number: 7919 * table + number,
        claim_pause=0,  # a fixed wait after every discard: the bench measures the bot's own work
        send_rate=0,  # no send budget either (bench/budget_bench.py measures it)
        lazy_interval=0,
        pictures=pictures,
        picture_workers=workers if pictures else 0,
    )
    loop = asyncio.get_running_loop()
    lags: list[float] = []
    gc_pauses: list[float] = []
    gc_start = [0.0]
    gc_runs = [0, 0, 0]  # collections per generation
    gc_gen_max = [0.0, 0.0, 0.0]  # the longest pause of each

    own = [False]  # the benchmark's own gc.collect() (before measuring memory): not the bot's

    def on_gc(phase: str, info: dict[str, Any]) -> None:
        if own[0]:
            return
        if phase == "start":
            gc_start[0] = time.perf_counter()
        else:
            gc_pauses.append(time.perf_counter() - gc_start[0])
            gc_runs[info["generation"]] += 1
            gc_gen_max[info["generation"]] = max(gc_gen_max[info["generation"]], gc_pauses[-1])
            if os.environ.get("BOT_BENCH_LAGS") and gc_pauses[-1] > 0.01:
                print(f"gc gen {info['generation']} {1000 * gc_pauses[-1]:.0f} ms {info}", file=sys.stderr)

    async def watch_lag() -> None:  # how long the event loop is blocked at a time
        while True:
            t = loop.time()
            await asyncio.sleep(0.005)
            lags.append(loop.time() - t - 0.005)
            if os.environ.get("BOT_BENCH_LAGS") and lags[-1] > 0.02:
                print(f"lag {1000 * lags[-1]:.0f} ms at {t:.2f}", file=sys.stderr)

    gc.callbacks.append(on_gc)
    watcher = asyncio.create_task(watch_lag())

    def worker_cpu() -> float:
        """The picture workers' CPU so far (they draw in their own processes, so the bot's CPU alone leaves
        them out)."""
        painter = app.bot_data.get("painter")
        return process_cpu(list(getattr(painter, "pids", ())))

    async with running(app, poll_timeout=10):
        if os.environ.get("BOT_BENCH_GC"):  # other thresholds than the bot's, to compare: "700,10,10"
            gc.set_threshold(*(int(x) for x in os.environ["BOT_BENCH_GC"].split(",")))
        own[0] = True
        gc.collect()
        own[0] = False
        gc_pauses.clear()  # from here on: the collections while the tables play
        gc_runs[:] = [0, 0, 0]
        gc_gen_max[:] = [0.0, 0.0, 0.0]
        threads0 = thread_cpu()
        conn.send(("ready", rss_bytes(), time.process_time(), worker_cpu()))
        while True:
            try:
                cmd = await loop.run_in_executor(None, conn.recv)
            except (EOFError, OSError):  # the benchmark went away
                return
            if cmd == "rss":
                own[0] = True
                gc.collect()
                own[0] = False
                svc = app.bot_data["service"]
                lag = sorted(lags) or [0.0]
                stats = {
                    "lag_p99_ms": 1000 * lag[int(0.99 * (len(lag) - 1))],
                    "lag_max_ms": 1000 * lag[-1],
                    "gc_total_s": sum(gc_pauses),
                    "gc_max_ms": 1000 * max(gc_pauses, default=0.0),
                    "gc_runs": "/".join(map(str, gc_runs)),
                    "gc_gen_max": "/".join(f"{1000 * p:.1f}" for p in gc_gen_max),
                    "gc_threshold": "/".join(map(str, gc.get_threshold())),
                    "threads": cpu_split(threads0, thread_cpu()),
                    "worker_cpu": worker_cpu(),
                }
                conn.send(("rss", rss_bytes(), len(svc.tables), svc.actions, time.process_time(), stats))
            else:
                break
    watcher.cancel()
    conn.send(("stopped", 0))


# ------------------------------------------------------------------ the fake server, instrumented


class BenchServer(FakeTelegramServer):
    """The fake server with per-chat wake-ups (so 200 drivers do not all re-check every call) and the
    times of answers and of the first private message after a press."""

    def __init__(self) -> None:
        super().__init__()
        self.wake: dict[int, asyncio.Event] = {}
        self.answered: dict[str, float] = {}
        self.reacting: dict[int, float] = {}  # user id -> press time, until the bot writes to him
        self.reactions: list[float] = []

    def _touch(self, call: Call) -> None:
        chat_id = call.params.get("chat_id")
        if not isinstance(chat_id, int):
            return
        pressed = self.reacting.pop(chat_id, None)
        if pressed is not None:
            self.reactions.append(time.perf_counter() - pressed)
        ev = self.wake.get(chat_id)
        if ev is not None:
            ev.set()

    def _api_sendMessage(self, call: Call) -> dict[str, Any]:
        out = super()._api_sendMessage(call)
        self._touch(call)
        return out

    def _api_editMessageText(self, call: Call) -> dict[str, Any]:
        out = super()._api_editMessageText(call)
        self._touch(call)
        return out

    def _api_sendPhoto(self, call: Call) -> dict[str, Any]:
        out = super()._api_sendPhoto(call)
        self._touch(call)
        return out

    def _api_editMessageMedia(self, call: Call) -> Any:
        out = super()._api_editMessageMedia(call)
        self._touch(call)
        return out

    def _api_editMessageCaption(self, call: Call) -> Any:
        out = super()._api_editMessageCaption(call)
        self._touch(call)
        return out

    def group_peak(self, window: float = 60.0) -> int:
        """The most messages and edits the bot sent to one group within any ``window`` seconds."""
        times: dict[int, list[float]] = {}
        for c in self.calls:
            chat = c.params.get("chat_id")
            if isinstance(chat, int) and chat < 0 and c.method.startswith(("send", "edit")):
                times.setdefault(chat, []).append(c.time)
        peak = 0
        for ts in times.values():
            ts.sort()
            lo = 0
            for hi, t in enumerate(ts):
                while t - ts[lo] >= window:
                    lo += 1
                peak = max(peak, hi - lo + 1)
        return peak

    def _api_answerCallbackQuery(self, call: Call) -> bool:
        out = super()._api_answerCallbackQuery(call)
        self.answered[str(call.params.get("callback_query_id"))] = time.perf_counter()
        return out


class Table:
    def __init__(self, tg: BenchServer, i: int, think: float, rng: random.Random) -> None:
        self.tg = tg
        self.user: FakeUser = tg.add_user(f"P{i}", started=True)
        self.group: FakeChat = tg.add_group(f"G{i}", members=[self.user])
        self.ev = asyncio.Event()
        tg.wake[self.user.id] = tg.wake[self.group.id] = self.ev
        self.think = think
        self.rng = rng
        self.last_since = (-1, -1)  # (hand, decision) of the last button pressed
        self.table_id = 0
        self.presses: list[tuple[str, float]] = []
        self.hands = 0
        self.reopened: set[int] = set()  # rooms whose "play again" was pressed

    async def _wait(self) -> None:
        try:
            await asyncio.wait_for(self.ev.wait(), timeout=30)
        except TimeoutError:
            raise RuntimeError(f"table {self.table_id}: nothing happens") from None
        self.ev.clear()

    def _lobby(self) -> FakeMessage | None:
        for m in reversed(self.tg.bot_messages(self.group)):
            go = [d for d in m.callback_data if d.endswith("|go")]
            if go and f"1. {self.user.first_name}" in (m.text or ""):
                self.table_id = int(go[0].split("|")[1])
                return m
        return None

    def _again(self) -> FakeMessage | None:
        """The closed room's 大结算 with its "play again" button, not pressed yet."""
        data = f"N|{self.table_id}"
        for m in reversed(self.tg.bot_messages(self.group)[-3:]):
            if data in m.callback_data and self.table_id not in self.reopened:
                self.reopened.add(self.table_id)
                return m
        return None

    def _decision(self) -> tuple[FakeMessage, str] | None:
        for m in reversed(self.tg.bot_messages(self.user)):
            data = [d for d in m.callback_data if d.startswith(f"g|{self.table_id}|")]
            if data:
                return (m, data[0]) if since_of(data[0]) > self.last_since else None
        return None

    def _over(self, n: int) -> bool:
        return any(
            f"Hand {n} is over" in (m.text or m.caption or "") for m in self.tg.bot_messages(self.group)[-3:]
        )

    async def play(
        self,
        hands: int,
        started: asyncio.Event | None = None,
        ramp: float = 0.0,
        second: asyncio.Event | None = None,
    ) -> None:
        """Open a table and play ``hands`` hands; ``started`` is set once the first hand runs, ``second``
        when the second one is about to start."""
        tg = self.tg
        await asyncio.sleep(self.rng.uniform(0, ramp))  # tables open over the first seconds, not at once
        tg.send_text(self.user, self.group, "/newtable changsha")
        n = 0  # the hand's number in its room (a room ends after its 局数, 8 by default: then "play again")
        for _ in range(hands):
            n += 1
            while (lobby := self._lobby()) is None:
                again = self._again()
                if again is not None:  # the room's 大结算: a new room with the same settings
                    tg.press(self.user, self.group, again.message_id, f"N|{self.table_id}")
                    n = 1
                await self._wait()
            if n == 2 and second is not None:
                second.set()
            tg.press(self.user, self.group, lobby.message_id, f"L|{self.table_id}|go")
            while not self._over(n):
                d = self._decision()
                if d is None:
                    await self._wait()
                    continue
                if self.think:
                    await asyncio.sleep(self.rng.uniform(0.5, 1.5) * self.think)
                message, data = d
                self.last_since = since_of(data)
                pressed = time.perf_counter()
                tg.reacting[self.user.id] = pressed
                query = tg.press(self.user, self.user.id, message.message_id, data)
                self.presses.append((query.id, pressed))
                if started is not None:
                    started.set()  # the hand is under way
            self.hands += 1
            if started is not None:
                started.set()


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, round(p / 100 * (len(ordered) - 1))))
    return ordered[k]


async def run(
    tables: int,
    hands: int,
    think: float,
    seed: int,
    ramp: float = 10.0,
    pictures: bool = False,
    workers: int = 1,
) -> dict[str, Any]:
    ctx = mp.get_context("spawn")
    with tempfile.TemporaryDirectory() as tmp:
        async with BenchServer() as tg:
            parent, child = ctx.Pipe()
            db = str(Path(tmp) / "bench.db")
            proc = ctx.Process(target=bot_process, args=(child, tg.base_url, tg.token, db, pictures, workers))
            proc.start()
            try:
                return await _drive(tg, parent, tables, hands, think, seed, ramp)
            finally:
                proc.join(10)
                if proc.is_alive():
                    proc.terminate()
                    proc.join(5)


async def _drive(
    tg: BenchServer, parent: Connection, tables: int, hands: int, think: float, seed: int, ramp: float
) -> dict[str, Any]:
    loop = asyncio.get_running_loop()

    asking = asyncio.Lock()  # one question to the bot at a time: its answers come back in order

    async def ask(cmd: str) -> tuple[Any, ...]:
        async with asking:
            parent.send(cmd)
            reply: tuple[Any, ...] = await loop.run_in_executor(None, parent.recv)
            return reply

    kind, rss0, cpu0, wcpu0 = await loop.run_in_executor(None, parent.recv)
    assert kind == "ready"
    lags: list[float] = []

    async def watch_lag() -> None:
        while True:
            t = loop.time()
            await asyncio.sleep(0.005)
            lags.append(loop.time() - t - 0.005)

    watcher = asyncio.create_task(watch_lag())
    pcpu0 = time.process_time()
    try:
        rng = random.Random(seed)
        drivers = [Table(tg, i, think, random.Random(rng.random())) for i in range(tables)]
        started = [asyncio.Event() for _ in drivers]
        t0 = time.perf_counter()
        seconds = [asyncio.Event() for _ in drivers]
        tasks = [
            asyncio.create_task(d.play(hands, s, ramp, s2))
            for d, s, s2 in zip(drivers, started, seconds, strict=True)
        ]

        async def mid_hand_rss() -> tuple[Any, ...]:
            await asyncio.gather(*(s.wait() for s in started))
            return await ask("rss")

        mid = asyncio.create_task(mid_hand_rss())

        async def steady() -> tuple[float, int]:
            """The bot's CPU and the presses so far once every table is past its first hand: what follows
            is a running bot's steady state (no table opening, caches warm)."""
            await asyncio.gather(*(s.wait() for s in seconds))
            presses = sum(len(d.presses) for d in drivers)
            reply = await ask("rss")
            return reply[4] + reply[5]["worker_cpu"], presses

        later = asyncio.create_task(steady()) if hands > 1 else None
        await asyncio.gather(*tasks)
        elapsed = time.perf_counter() - t0
        _, rss_mid, open_tables, _, _, _ = await mid
        _, rss_end, _, actions, cpu1, loop_stats = await ask("rss")
        wcpu1 = loop_stats.pop("worker_cpu")
        cpu_later, presses_later = await later if later is not None else (cpu1 + wcpu1, 0)
    finally:
        watcher.cancel()
        await ask("stop")
    lags.sort()
    answers = [tg.answered[q] - t for d in drivers for q, t in d.presses if q in tg.answered]
    ms = [a * 1000 for a in answers]
    react = [r * 1000 for r in tg.reactions]
    return {
        "group_peak": tg.group_peak(),
        "photos": len(tg.calls_to("sendPhoto")) + len(tg.calls_to("editMessageMedia")),
        "tables": tables,
        "hands": sum(d.hands for d in drivers),
        "presses": sum(len(d.presses) for d in drivers),
        "answered": len(answers),
        "actions": actions,
        "api_calls": len(tg.calls),
        "api_by_method": ", ".join(f"{m} {n}" for m, n in Counter(c.method for c in tg.calls).most_common()),
        "elapsed_s": elapsed,
        "bot_cpu_s": cpu1 - cpu0,
        "worker_cpu_s": wcpu1 - wcpu0,  # the picture workers' (0 in text mode, or drawn in a thread)
        "steady_cpu_s": cpu1 + wcpu1 - cpu_later,  # bot + workers after the first hands (``--hands`` ≥ 2)
        "steady_presses": sum(len(d.presses) for d in drivers) - presses_later if later is not None else 0,
        **loop_stats,
        "driver_cpu_s": time.process_time() - pcpu0,
        "driver_lag_p99_ms": 1000 * lags[int(0.99 * (len(lags) - 1))] if lags else 0.0,
        "driver_lag_max_ms": 1000 * lags[-1] if lags else 0.0,
        "answer_median_ms": statistics.median(ms),
        "answer_p99_ms": percentile(ms, 99),
        "answer_max_ms": max(ms),
        "reaction_median_ms": statistics.median(react),
        "reaction_p99_ms": percentile(react, 99),
        "mem_per_table_kib": (rss_mid - rss0) / max(1, open_tables) / 1024,
        "rss_start_mib": rss0 / 2**20,
        "rss_mid_mib": rss_mid / 2**20,
        "rss_end_mib": rss_end / 2**20,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--quick", action="store_true", help="20 tables opening over 2 s, think 1 s, one hand each"
    )
    ap.add_argument("--tables", type=int, default=200)
    ap.add_argument("--hands", type=int, default=1, help="hands per table")
    ap.add_argument(
        "--think", type=float, default=None, help="mean think time of a player, seconds (3; 1 --quick)"
    )
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--ramp", type=float, default=10.0, help="tables open over this many seconds")
    ap.add_argument("--sweep", metavar="T,T,...", help="think times (s) to run one after another")
    ap.add_argument(
        "--display",
        choices=("both", "text", "pictures"),
        default="both",
        help="how the chats see the game: text, pictures, or both one after the other (the default)",
    )
    ap.add_argument(
        "--picture-workers",
        type=int,
        default=1,
        help="processes that draw the pictures (0: a thread of the bot's process), as the bot's own default",
    )
    args = ap.parse_args()
    tables = 20 if args.quick else args.tables
    ramp = min(args.ramp, 2.0) if args.quick else args.ramp
    if args.sweep:
        rows = []
        for think in sorted((float(x) for x in args.sweep.split(",")), reverse=True):
            pics = args.display == "pictures"  # the sweep runs one mode: text unless pictures are asked for
            r = asyncio.run(run(tables, args.hands, think, args.seed, ramp, pics, args.picture_workers))
            rows.append((think, r))
            if len(rows) == 1:
                print(sweep_head(rows[0][1]))
            print(sweep_row(*rows[-1]), flush=True)
        print(crossing(rows))
        return
    think = args.think if args.think is not None else (1.0 if args.quick else 3.0)
    modes = ("text", "pictures") if args.display == "both" else (args.display,)
    results = {}
    for mode in modes:
        pics = mode == "pictures"
        r = asyncio.run(run(tables, args.hands, think, args.seed, ramp, pics, args.picture_workers))
        results[mode] = r
        print(report(r, think, mode), flush=True)
    if len(results) == 2:
        print(compare(results["text"], results["pictures"]))


def press_rate(r: dict[str, Any]) -> float:
    """Presses per second over the run (the ramp included)."""
    return float(r["presses"]) / r["elapsed_s"]


def sweep_head(r: dict[str, Any]) -> str:
    return (
        f"think-time sweep, {r['tables']} tables (1 player + 3 AI seats each)\n"
        f"{'think s':>8s} {'presses/s':>10s} {'CPU/press ms':>13s} {'answer p50':>11s} {'p99':>8s} "
        f"{'max':>8s} {'GC max ms':>10s}"
    )


def sweep_row(think: float, r: dict[str, Any]) -> str:
    per_press = 1000 * r["bot_cpu_s"] / max(1, r["presses"])
    return (
        f"{think:8.2f} {press_rate(r):10.1f} {per_press:13.2f} {r['answer_median_ms']:11.1f} "
        f"{r['answer_p99_ms']:8.1f} {r['answer_max_ms']:8.1f} {r['gc_max_ms']:10.1f}"
    )


def crossing(rows: list[tuple[float, dict[str, Any]]]) -> str:
    """Where p99 press → answer crosses 50 ms: between the fastest run that stays under it and the next
    faster run that does not, interpolated in presses/s (a loaded machine can spoil one run: each run is
    printed above)."""
    pts = sorted((press_rate(r), r["answer_p99_ms"], think) for think, r in rows)
    below = [p for p in pts if p[1] < 50]
    if not below:
        best = min(pts, key=lambda p: p[1])
        return (
            f"p99 ≥ 50 ms in every run (the lowest: {best[1]:.1f} ms at {best[0]:.1f} presses/s, "
            f"think {best[2]:g} s); target: under 50 ms at 40 presses/s"
        )
    lo = max(below)
    above = [p for p in pts if p[1] >= 50 and p[0] > lo[0]]
    if not above:
        return f"p99 < 50 ms up to {lo[0]:.1f} presses/s (think {lo[2]:g} s), the fastest run; target ≥ 40/s"
    hi = min(above)
    rate = lo[0] + (50 - lo[1]) * (hi[0] - lo[0]) / (hi[1] - lo[1])
    return (
        f"p99 crosses 50 ms at about {rate:.0f} presses/s (think {lo[2]:g} s: {lo[0]:.1f}/s, p99 "
        f"{lo[1]:.1f} ms; think {hi[2]:g} s: {hi[0]:.1f}/s, p99 {hi[1]:.1f} ms); target ≥ 40 presses/s"
    )


def cpu_per_press(r: dict[str, Any]) -> float:
    """CPU ms per press, the bot process and its picture workers together."""
    return 1000 * (r["bot_cpu_s"] + r["worker_cpu_s"]) / max(1, r["presses"])


def compare(text: dict[str, Any], pics: dict[str, Any]) -> str:
    """Picture mode against text mode, CPU per press with the picture workers counted (target: ≤ 2×)."""
    t, p = cpu_per_press(text), cpu_per_press(pics)
    worker = 1000 * pics["worker_cpu_s"] / max(1, pics["presses"])
    photos = pics["photos"] / max(1, pics["presses"])
    line = (
        f"pictures vs text, CPU per press (bot + picture workers): {p:.1f} ms vs {t:.1f} ms = "
        f"{p / t if t else float('nan'):.2f}× (target ≤ 2×); the workers {worker:.1f} ms a press, "
        f"{photos:.2f} pictures sent or edited a press"
    )
    if text["steady_presses"] and pics["steady_presses"]:  # --hands ≥ 2: without the tables' opening
        ts = 1000 * text["steady_cpu_s"] / text["steady_presses"]
        ps = 1000 * pics["steady_cpu_s"] / pics["steady_presses"]
        line += f"\n  once every table is past its first hand: {ps:.1f} ms vs {ts:.1f} ms = {ps / ts:.2f}×"
    return line


def report(r: dict[str, Any], think: float, mode: str = "text") -> str:
    per_press = 1000 * r["bot_cpu_s"] / max(1, r["presses"])
    worker = 1000 * r["worker_cpu_s"] / max(1, r["presses"])
    lines = [
        f"bot benchmark, {mode}: {r['tables']} concurrent tables (1 player + 3 AI seats each), "
        f"think {think:g}s",
        f"  {r['hands']} hands, {r['presses']} presses, {r['actions']} game actions, "
        f"{r['api_calls']} API calls in {r['elapsed_s']:.1f}s ({press_rate(r):.1f} presses/s)",
        f"  API calls by method: {r['api_by_method']}",
        f"  bot process CPU {r['bot_cpu_s']:.1f}s ({per_press:.1f} ms per press, target ≤ 8 ms)"
        + (
            f"; picture workers {r['worker_cpu_s']:.1f}s ({worker:.1f} ms per press): "
            f"{cpu_per_press(r):.1f} ms per press in all"
            if r["worker_cpu_s"]
            else ""
        )
        + (
            f"; once every table is past its first hand (workers included) "
            f"{1000 * r['steady_cpu_s'] / r['steady_presses']:.1f} ms per press "
            f"({r['steady_presses']} presses)"
            if r["steady_presses"]
            else ""
        ),
        f"  bot event loop blocked: p99 {r['lag_p99_ms']:.1f} ms, max {r['lag_max_ms']:.1f} ms; "
        f"GC {r['gc_total_s']:.2f}s in all, longest {r['gc_max_ms']:.1f} ms, collections by generation "
        f"{r['gc_runs']}, longest {r['gc_gen_max']} ms (thresholds {r['gc_threshold']})",
        f"  bot CPU by thread (user+system): {r['threads']}",
        f"  fake server + players: CPU {r['driver_cpu_s']:.1f}s, event loop blocked p99 "
        f"{r['driver_lag_p99_ms']:.1f} ms, max {r['driver_lag_max_ms']:.1f} ms",
        f"  press → answer   median {r['answer_median_ms']:.1f} ms   p99 {r['answer_p99_ms']:.1f} ms   "
        f"max {r['answer_max_ms']:.1f} ms   (target p99 < 50 ms)",
        f"  press → reaction median {r['reaction_median_ms']:.1f} ms   p99 {r['reaction_p99_ms']:.1f} ms",
        f"  memory: {r['mem_per_table_kib']:.0f} KiB per table mid-hand (bot RSS {r['rss_start_mib']:.0f} → "
        f"{r['rss_mid_mib']:.0f} → {r['rss_end_mib']:.0f} MiB)",
        f"  group flood budget: at most {r['group_peak']} messages and edits to one group in any 60 s "
        f"(limit 20); {r['photos']} pictures sent or edited in",
        "  target met" if r["answer_p99_ms"] < 50 and r["group_peak"] <= 20 else "  TARGET MISSED",
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    main()
