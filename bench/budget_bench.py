"""Telegram budget benchmark: how many tables one bot token holds, and what a discard costs in requests.

The bot runs in its own process with the production settings of ``python -m bot`` (Telegram's send budget of
30 requests a second, a group's one request per 3 s, the room's 3 s claim pause, SQLite on disk; text chats
unless ``--display pictures``) against ``tests/fake_telegram.py`` in this process, over real HTTP. Scripted
humans play: each presses a button of his decision in his private panel 2–5 s after it reaches him (a
random discard on his turn, mostly "pass" on a claim), and Ready between hands. Two kinds of table: four
humans, and two humans with two AI seats.

For each number of tables it measures, over a window after the tables have opened:

* the delay of a decision: from the moment the bot opened it (its deadline minus its timer, read in the bot
  process) to the moment its panel with the buttons reached Telegram;
* requests per discard: the bot's messages and edits (not its answers to button presses, which Telegram does
  not count against a bot's message limits) over every discard made, AI seats' included;
* requests per second (the budget is 30).

``tables per bot at 30 requests/s`` is the most tables at which the decisions' delay stays under 1 s at the
median and 2 s at the 99th percentile (targets: ≥ 200 with two humans and two AI, ≥ 100 with four humans).

``--against REV`` measures the bot of another git revision in the same run (a worktree of it, the same
settings where it has them), for a same-run baseline.

Run: ``.venv/bin/python bench/budget_bench.py`` (a sweep per kind of table, ~15 min), ``--quick`` (two table
counts per kind, shorter windows), ``--tables 100,200 --kind 2h2ai``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from contextlib import suppress
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.fake_telegram import Call, FakeChat, FakeTelegramServer, FakeUser  # noqa: E402

KINDS = {"4h": (4, 0), "2h2ai": (2, 2)}
LABEL = {"4h": "4 humans", "2h2ai": "2 humans + 2 AI"}
SENDS = ("sendMessage", "sendPhoto", "editMessageText", "editMessageCaption", "editMessageMedia",
         "editMessageReplyMarkup", "deleteMessage")  # fmt: skip


# ------------------------------------------------------------------ the bot process (any revision)

BOT_SCRIPT = r"""
import asyncio, inspect, json, sys, time

def main(base_url, token, db, pictures):
    try:
        from bot.telegram import app as app_mod
        from bot.table import play as play_mod
    except ImportError:  # a revision before bot/ had rooms
        from bot import app as app_mod
        from bot import play as play_mod
    opened = []  # (table, user, since, opened at) of every decision opened
    discards = []  # times of every discard applied
    original = play_mod.open_decisions

    def recording(rt, state, auto, now, **kw):
        out = original(rt, state, auto, now, **kw)
        hand = getattr(rt, "hand", None)
        current = kw.get("current")
        if current is None:  # the hand's live decisions (rt.hand.pending; before HandLive: rt.pending)
            current = hand.pending if hasattr(hand, "pending") else getattr(rt, "pending", {})
        seats = rt.hand_seats()
        for s, p in out.items():
            if (current or {}).get(s) is not p:
                opened.append((rt.id, seats[s], p.since, time.time()))
        return out

    play_mod.open_decisions = recording
    adopt = play_mod.Play._adopt

    def counting(self, rt, step):
        adopt(self, rt, step)
        if getattr(step.action.act, "value", step.action.act) == "discard":
            discards.append(time.time())

    play_mod.Play._adopt = counting
    params = inspect.signature(app_mod.build_application).parameters
    kwargs = {"pictures": pictures}
    if "send_rate" in params:
        kwargs.update(send_rate=30.0, lazy_interval=3.0)
    app = app_mod.build_application(token, db, base_url, **kwargs)

    async def run():
        async with app_mod.running(app, poll_timeout=10):
            print(json.dumps({"ready": True}), flush=True)
            loop = asyncio.get_running_loop()
            while True:
                line = await loop.run_in_executor(None, sys.stdin.readline)
                if not line or line.strip() == "stop":
                    break
                cut = float(line)
                print(json.dumps({"opened": [o for o in opened if o[3] >= cut],
                                  "discards": [d for d in discards if d >= cut]}), flush=True)

    asyncio.run(run())

main(*json.loads(sys.argv[1]))
"""


class Bot:
    """The bot in a child process (of this tree, or of another revision's worktree)."""

    def __init__(self, tree: Path, base_url: str, token: str, db: str, pictures: bool) -> None:
        env = {**os.environ, "PYTHONPATH": str(tree), "PYTHONDONTWRITEBYTECODE": "1"}
        args = json.dumps([base_url, token, db, pictures])
        self.proc = subprocess.Popen(
            [sys.executable, "-c", BOT_SCRIPT, args], cwd=tree, env=env, text=True,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        )  # fmt: skip

    async def line(self) -> dict[str, Any]:
        assert self.proc.stdout is not None
        raw = await asyncio.get_running_loop().run_in_executor(None, self.proc.stdout.readline)
        if not raw:
            raise RuntimeError("the bot process ended")
        out: dict[str, Any] = json.loads(raw)
        return out

    async def since(self, cut: float) -> dict[str, Any]:
        assert self.proc.stdin is not None
        self.proc.stdin.write(f"{cut}\n")
        self.proc.stdin.flush()
        return await self.line()

    def stop(self) -> None:
        if self.proc.stdin is not None:
            with suppress(OSError):
                self.proc.stdin.write("stop\n")
                self.proc.stdin.flush()
        try:
            self.proc.wait(20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(5)


# ------------------------------------------------------------------ the fake server and the players


class BudgetServer(FakeTelegramServer):
    """The fake server with per-chat wake-ups, and when each decision's panel (its game buttons) arrived."""

    def __init__(self) -> None:
        super().__init__()
        self.wake: dict[int, asyncio.Event] = {}
        self.arrived: dict[tuple[int, int, int, int], float] = {}  # (table, user, hand, since) -> time
        self.sends: list[float] = []  # when each message or edit was made
        self.kinds: list[tuple[float, str]] = []  # (when, what): group / decision / private

    def _touch(self, call: Call) -> None:
        chat = call.params.get("chat_id")
        now = time.time()
        self.sends.append(now)
        if not isinstance(chat, int):
            return
        markup = call.params.get("reply_markup")
        before = len(self.arrived)
        if chat > 0 and markup:
            if isinstance(markup, str):
                markup = json.loads(markup)
            for row in markup.get("inline_keyboard", ()):
                for b in row:
                    data = str(b.get("callback_data", ""))
                    if data.startswith("g|"):
                        _, table, hand, since, _i = data.split("|")
                        self.arrived.setdefault((int(table), chat, int(hand), int(since)), now)
        what = "group" if chat < 0 else "decision" if len(self.arrived) > before else "private"
        self.kinds.append((now, f"{what} {call.method}"))
        ev = self.wake.get(chat)
        if ev is not None:
            ev.set()

    def _api(self, name: str, call: Call) -> Any:
        out = getattr(super(), f"_api_{name}")(call)
        self._touch(call)
        return out

    def _api_sendMessage(self, call: Call) -> Any:
        return self._api("sendMessage", call)

    def _api_sendPhoto(self, call: Call) -> Any:
        return self._api("sendPhoto", call)

    def _api_editMessageText(self, call: Call) -> Any:
        return self._api("editMessageText", call)

    def _api_editMessageCaption(self, call: Call) -> Any:
        return self._api("editMessageCaption", call)

    def _api_editMessageMedia(self, call: Call) -> Any:
        return self._api("editMessageMedia", call)

    def _api_editMessageReplyMarkup(self, call: Call) -> Any:
        return self._api("editMessageReplyMarkup", call)


class Table:
    def __init__(self, tg: BudgetServer, i: int, humans: int, rng: random.Random) -> None:
        self.tg = tg
        self.rng = rng
        self.users: list[FakeUser] = [tg.add_user(f"P{i}_{k}", started=True) for k in range(humans)]
        self.group: FakeChat = tg.add_group(f"G{i}", members=self.users)
        self.table_id = 0
        self.last: dict[int, tuple[int, int]] = {u.id: (-1, -1) for u in self.users}
        self.events = {u.id: asyncio.Event() for u in self.users}
        self.group_ev = asyncio.Event()
        tg.wake[self.group.id] = self.group_ev
        for u in self.users:
            tg.wake[u.id] = self.events[u.id]

    def lobby(self) -> tuple[int, list[str]] | None:
        for m in reversed(self.tg.bot_messages(self.group)):
            data = [d for d in m.callback_data if d.startswith("L|")]
            if data:
                self.table_id = int(data[0].split("|")[1])
                return m.message_id, data
        return None

    async def open(self, ramp: float) -> None:
        tg = self.tg
        await asyncio.sleep(self.rng.uniform(0, ramp))
        tg.send_text(self.users[0], self.group, "/newtable changsha")
        while (found := self.lobby()) is None or not any(d.endswith("|go") for d in found[1]):
            await self._wait(self.group_ev)
        message, _ = found
        for u in self.users[1:]:
            tg.press(u, self.group, message, f"L|{self.table_id}|j")
        await asyncio.sleep(1.0)
        tg.press(self.users[0], self.group, message, f"L|{self.table_id}|go")

    async def _wait(self, ev: asyncio.Event, timeout: float = 60) -> None:
        with suppress(TimeoutError):
            await asyncio.wait_for(ev.wait(), timeout)
        ev.clear()

    def decision(self, user: FakeUser) -> tuple[int, list[str]] | None:
        for m in reversed(self.tg.bot_messages(user)):
            data = [d for d in m.callback_data if d.startswith(f"g|{self.table_id}|")]
            if data:
                _, _t, hand, since, _i = data[0].split("|")
                return (m.message_id, data) if (int(hand), int(since)) > self.last[user.id] else None
        return None

    async def player(self, user: FakeUser, until: float) -> None:
        tg = self.tg
        while time.time() < until:
            found = self.decision(user)
            if found is None:
                await self._wait(self.events[user.id], 5)
                continue
            message, data = found
            await asyncio.sleep(self.rng.uniform(2.0, 5.0))  # the player thinks
            _, _t, hand, since, _i = data[0].split("|")
            self.last[user.id] = (int(hand), int(since))
            if len(data) > 4:  # a turn: a random discard (the buttons after the few special ones)
                choice = self.rng.choice(data[-min(len(data), 8) :])
            elif self.rng.random() < 0.7:
                choice = data[-1]  # a claim: mostly pass (the last button)
            else:
                choice = self.rng.choice(data)
            with suppress(ValueError):
                tg.press(user, user.id, message, choice)

    async def ready(self, until: float) -> None:
        """Ready between hands, 1-2 s after the lobby comes back (each human)."""
        pressed: set[int] = set()
        while time.time() < until:
            found = self.lobby()
            if found is not None:
                message, data = found
                if f"L|{self.table_id}|y" in data and message not in pressed:
                    pressed.add(message)
                    await asyncio.sleep(self.rng.uniform(1.0, 2.0))
                    for u in self.users:
                        with suppress(ValueError):
                            self.tg.press(u, self.group, message, f"L|{self.table_id}|y")
            await self._wait(self.group_ev, 5)


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * (len(ordered) - 1))))]


async def measure(
    tree: Path, kind: str, tables: int, ramp: float, window: float, seed: int, pictures: bool
) -> dict[str, Any]:
    humans, _ai = KINDS[kind]
    with tempfile.TemporaryDirectory() as tmp:
        async with BudgetServer() as tg:
            tg.allow_refused = True  # an older revision may send what this fake refuses
            bot = Bot(tree, tg.base_url, tg.token, str(Path(tmp) / "b.db"), pictures)
            try:
                await bot.line()
                rng = random.Random(seed)
                drivers = [Table(tg, i, humans, random.Random(rng.random())) for i in range(tables)]
                await asyncio.gather(*(d.open(ramp) for d in drivers))
                start = time.time() + 10  # settle after the last table opened
                until = start + window
                tasks = [asyncio.create_task(d.player(u, until)) for d in drivers for u in d.users]
                tasks += [asyncio.create_task(d.ready(until)) for d in drivers]
                await asyncio.gather(*tasks)
                got = await bot.since(start)
            finally:
                bot.stop()
            opened: dict[tuple[int, int, int], list[float]] = {}
            for table, user, since, at in got["opened"]:
                if user is not None:
                    opened.setdefault((table, user, since), []).append(at)
            delays = []
            slow = []
            for (table, user, _hand, since), at in tg.arrived.items():
                if not start <= at <= until:
                    continue
                times = [t for t in opened.get((table, user, since), []) if t <= at + 0.05]
                if times:
                    delays.append(max(0.0, at - max(times)))
                    slow.append((delays[-1], table, user, since))
            sends = [t for t in tg.sends if start <= t <= until]
            kinds = Counter(what for t, what in tg.kinds if start <= t <= until)
            discards = [t for t in got["discards"] if t <= until]
    return {
        "tables": tables,
        "decisions": len(delays),
        "median": statistics.median(delays) if delays else float("nan"),
        "p99": percentile(delays, 99) if delays else float("nan"),
        "requests_s": len(sends) / window,
        "discards_s": len(discards) / window,
        "per_discard": len(sends) / max(1, len(discards)),
        "kinds": ", ".join(f"{k} {v / window:.1f}/s" for k, v in kinds.most_common()),
        "slowest": sorted(slow, reverse=True)[:8],
    }


def worktree(rev: str) -> Path:
    path = Path(tempfile.mkdtemp(prefix="budget_rev_"))
    subprocess.run(["git", "worktree", "add", "--detach", str(path), rev], cwd=ROOT, check=True,
                   capture_output=True)  # fmt: skip
    return path


async def sweep(tree: Path, name: str, kinds: list[str], counts: list[int], args: argparse.Namespace) -> None:
    for kind in kinds:
        good = 0
        rows = []
        for n in counts:
            r = await measure(tree, kind, n, args.ramp, args.window, args.seed, args.display == "pictures")
            rows.append(r)
            ok = r["median"] < 1.0 and r["p99"] < 2.0
            good = n if ok else good
            print(
                f"  [{name}] {LABEL[kind]}, {n} tables: decision delay median {r['median']:.2f} s, p99 "
                f"{r['p99']:.2f} s ({r['decisions']} decisions); {r['requests_s']:.1f} requests/s, "
                f"{r['discards_s']:.1f} discards/s, {r['per_discard']:.2f} requests per discard"
                + ("" if ok else "  (over the targets)"),
                flush=True,
            )
            if args.verbose:
                print(f"    requests: {r['kinds']}")
                print(
                    "    slowest (delay, table, user, decision): "
                    + ", ".join(f"{d:.2f}s t{t} u{u} v{v}" for d, t, u, v in r["slowest"])
                )
            if not ok and n > good:
                break
        per = statistics.median(r["per_discard"] for r in rows)
        print(f"[{name}] {LABEL[kind]}: requests per discard: {per:.2f}")
        print(f"[{name}] {LABEL[kind]}: tables per bot at 30 requests/s: {good}", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tables", default="", help="table counts to try, e.g. 50,100,200")
    ap.add_argument("--kind", choices=[*KINDS, "all"], default="all")
    ap.add_argument("--ramp", type=float, default=20.0, help="seconds over which the tables open")
    ap.add_argument("--window", type=float, default=60.0, help="seconds measured")
    ap.add_argument("--display", choices=("text", "pictures"), default="text")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--verbose", action="store_true", help="print what the requests were")
    ap.add_argument("--against", metavar="REV", help="also measure the bot of this git revision")
    args = ap.parse_args()
    kinds = list(KINDS) if args.kind == "all" else [args.kind]
    if args.tables:
        counts = [int(x) for x in args.tables.split(",")]
    elif args.quick:
        counts, args.ramp, args.window = [20, 60], 10.0, 30.0
    else:
        counts = [50, 100, 150, 200, 250, 300]
    trees = [(ROOT, "this tree")]
    if args.against:
        trees.append((worktree(args.against), args.against))
    try:
        for tree, name in trees:
            asyncio.run(sweep(tree, name, kinds, counts, args))
    finally:
        for tree, _ in trees[1:]:
            subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=ROOT, check=False)


if __name__ == "__main__":
    main()
