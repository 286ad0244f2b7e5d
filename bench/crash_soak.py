"""Crash soak: ``kill -9`` the bot at random moments while tables play, and count what a player would see.

The bot runs as in production (``python -m bot``, its own process, SQLite on disk, group messages paced)
against ``tests/fake_telegram.py`` in this process, over real HTTP. Several groups each play Changsha with
two scripted humans (who press a random button of each decision in their private panel, press again when a
press got no answer, and start the next hand) and two AI seats. A killer sends SIGKILL at a random moment
of each run of the bot and starts it again at once. At the end the bot is stopped with SIGTERM, started
once more to settle, stopped again, and the database and the chats are checked. The bot plays without the
claim pause (``MAHJONG_CLAIM_PAUSE=0`` unless the environment sets it: with the pause, hands take minutes):

* actions confirmed vs logged: a press answered "✔" whose action is not in the log is *lost*; a player's
  logged decision that no press explains is *doubled* (applied twice, or made up)
* hands that do not replay through the engine to their stored state and result
* results not delivered: a finished hand whose result ("Hand N is over", or its line in one summary of the
  results the kills held back) never reached its group
* private results not delivered: a player of a finished hand who never got its result in private (a row of
  the database's outbox, written with the hand's final action); private results sent twice are counted too:
  at most one per kill may be (a kill after Telegram took one and before its row was deleted: docs/deploy.md)
* duplicate group messages: a hand's table message, or the lobby after a hand, sent more than once
* live stale keyboards: a message whose buttons are live although a newer one of the same kind replaced it
* restart notes: "the bot restarted" posted although no decision waited longer than its timer

Every figure must be 0. Run: ``.venv/bin/python bench/crash_soak.py`` (120 kills, a few minutes) or
``--quick`` (10 kills, part of ``make soak`` through tests/test_crash_soak.py).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import engine  # noqa: E402
from bot.table.present import Presenter  # noqa: E402
from bot.text.texts import t  # noqa: E402
from storage import Storage, result_to_json  # noqa: E402
from tests.bot_support import since_of  # noqa: E402
from tests.fake_telegram import FakeChat, FakeMessage, FakeTelegramServer, FakeUser  # noqa: E402

LANG = "en"


@dataclass
class Press:
    query: str
    user: int
    table: int
    hand: int
    since: int  # the decision the pressed button belongs to (the state version it opened at)
    at: float


@dataclass
class Group:
    chat: FakeChat
    host: FakeUser
    guest: FakeUser
    table: int = 0
    joined: bool = False
    go_at: float = 0.0


@dataclass
class Soak:
    tg: FakeTelegramServer
    rng: random.Random
    groups: list[Group] = field(default_factory=list)
    presses: list[Press] = field(default_factory=list)
    last: dict[tuple[int, int], Press] = field(default_factory=dict)  # (user, table) -> his last press
    stop: bool = False

    # ------------------------------------------------------------------ scripted players

    def _lobby(self, g: Group) -> FakeMessage | None:
        for m in reversed(self.tg.bot_messages(g.chat)):
            if any(d.endswith("|go") for d in m.callback_data):
                return m
        return None

    def _decision(self, user: FakeUser, table: int) -> tuple[FakeMessage, list[str]] | None:
        for m in reversed(self.tg.bot_messages(user)):
            data = [d for d in m.callback_data if d.startswith(f"g|{table}|")]
            if data:
                return m, data
        return None

    async def player(self, g: Group, user: FakeUser) -> None:
        while not self.stop:
            await asyncio.sleep(self.rng.uniform(0.02, 0.12))
            if not g.table:
                continue
            d = self._decision(user, g.table)
            if d is None:
                continue
            message, data = d
            hand, since = since_of(data[0])
            prev = self.last.get((user.id, g.table))
            if prev is not None and (prev.hand, prev.since) >= (hand, since):
                q = self.tg.callback_queries.get(prev.query)
                waited = time.monotonic() - prev.at
                if q is not None and q.answered and waited < 3:
                    continue
                if (q is None or not q.answered) and waited < 1.5:
                    continue  # no answer yet: a player waits a moment, then presses again
            q = self.tg.press(user, user.id, message.message_id, self.rng.choice(data))
            press = Press(q.id, user.id, g.table, hand, since, time.monotonic())
            self.presses.append(press)
            self.last[user.id, g.table] = press

    async def host(self, g: Group) -> None:
        tg = self.tg
        tg.send_text(g.host, g.chat, "/newtable changsha")
        asked = time.monotonic()
        while not self.stop:
            await asyncio.sleep(0.1)
            lobby = self._lobby(g)
            if lobby is None:
                if time.monotonic() - asked > 4 and not g.table:
                    tg.send_text(g.host, g.chat, "/newtable changsha")  # the command was lost with the bot
                    asked = time.monotonic()
                continue
            g.table = int(next(d for d in lobby.callback_data if d.startswith("L|")).split("|")[1])
            text = lobby.text or ""
            if g.guest.first_name not in text:
                if time.monotonic() - g.go_at > 2:
                    tg.press(g.guest, g.chat, lobby.message_id, f"L|{g.table}|j")
                    g.go_at = time.monotonic()
                continue
            if time.monotonic() - g.go_at > 2:
                tg.press(g.host, g.chat, lobby.message_id, f"L|{g.table}|go")
                g.go_at = time.monotonic()


# ---------------------------------------------------------------------- the bot process


def start_bot(
    tg: FakeTelegramServer, db: Path, log: Any, display: str = "pictures"
) -> subprocess.Popen[bytes]:
    env = dict(os.environ, TELEGRAM_BOT_TOKEN=tg.token, TELEGRAM_BASE_URL=tg.base_url, MAHJONG_DB=str(db))
    env["MAHJONG_DISPLAY"] = display
    env.setdefault("MAHJONG_CLAIM_PAUSE", "0")  # hands at the scripted players' pace (docs/security.md)
    return subprocess.Popen([sys.executable, "-m", "bot"], cwd=ROOT, env=env, stdout=log, stderr=log)


def shows_result(text: str, number: int) -> bool:
    """Whether a group message shows hand ``number``'s result: its own ("Hand N is over"), or its line in
    one summary of several hands (results that kills held back)."""
    if t("note.result_title", LANG, n=number) in text:
        return True
    backlog = t("note.backlog", LANG, k=0).split("0")[0]
    line = t("note.hand_line", LANG, n=number, how="", deltas="").split("·")[0] + "·"
    return backlog in text and any(x.startswith(line) for x in text.split("\n"))


async def wait_exit(proc: subprocess.Popen[bytes], timeout: float) -> int | None:
    loop = asyncio.get_running_loop()
    try:
        return await asyncio.wait_for(loop.run_in_executor(None, proc.wait), timeout)
    except TimeoutError:
        return None


async def up(tg: FakeTelegramServer, mark: int) -> None:
    """Until the bot started just now polls for updates."""
    await tg.wait_for(lambda calls: any(c.method == "getUpdates" for c in calls[mark:]), timeout=30)


async def quiet(tg: FakeTelegramServer, seconds: float, limit: float) -> None:
    """Until no request but long polls for ``seconds`` (at most ``limit``): counted from the last request's
    end, so that waiting ends ``seconds`` after the bot's last message, not at the end of a fixed window."""
    start = time.monotonic()
    end = start + limit
    n = len(tg.calls)
    while (now := time.monotonic()) < end:
        others = [c for c in tg.calls[n:] if c.method != "getUpdates"]
        if any(c.finished is None for c in others):
            left = 0.05  # in flight
        else:
            last = max((c.finished or c.time for c in others), default=start)
            left = last + seconds - now
            if left <= 0:
                return
        await asyncio.sleep(min(left, end - now))


# ---------------------------------------------------------------------- the run


async def run(kills: int, tables: int, seed: int, workdir: Path, display: str = "pictures") -> dict[str, Any]:
    """``display``: the chats' default; ``text`` starts the bot without its picture worker (the quick run in
    ``make test`` does, to spend its seconds on kills rather than start-ups)."""
    rng = random.Random(seed)
    db = workdir / "soak.db"
    log = open(workdir / "bot.log", "ab")  # noqa: SIM115 - open for the whole run
    t0 = time.monotonic()
    async with FakeTelegramServer() as tg:
        soak = Soak(tg, rng)
        for i in range(tables):
            host = tg.add_user(f"H{i}", started=True)
            guest = tg.add_user(f"G{i}", started=True)
            soak.groups.append(Group(tg.add_group(f"Table {i}", members=[host, guest]), host, guest))
        mark = tg.mark()
        proc = start_bot(tg, db, log, display)
        await up(tg, mark)
        tasks = [asyncio.create_task(soak.host(g)) for g in soak.groups]
        tasks += [asyncio.create_task(soak.player(g, u)) for g in soak.groups for u in (g.host, g.guest)]
        exits: list[int | None] = []
        try:
            for _ in range(kills):
                await asyncio.sleep(rng.uniform(0.05, 0.8))  # a random moment of the bot's run
                proc.send_signal(signal.SIGKILL)
                await wait_exit(proc, 10)
                mark = tg.mark()
                proc = start_bot(tg, db, log, display)
                await up(tg, mark)
            await asyncio.sleep(1)
        finally:
            soak.stop = True
            await asyncio.gather(*tasks, return_exceptions=True)
        await quiet(tg, 0.5, 20)
        proc.send_signal(signal.SIGTERM)
        exits.append(await wait_exit(proc, 20))
        mark = tg.mark()
        proc = start_bot(tg, db, log, display)  # one more start: whatever the last stop cut off is shown now
        await up(tg, mark)
        await quiet(tg, 3.5, 30)  # longer than the pacing of group messages (one per 3 s)
        proc.send_signal(signal.SIGTERM)
        exits.append(await wait_exit(proc, 20))
        log.close()
        figures = await check(tg, soak, db)
    figures.update(kills=kills, tables=tables, seconds=round(time.monotonic() - t0, 1))
    figures["slow or failed shutdowns"] = sum(code != 0 for code in exits)
    return figures


async def check(tg: FakeTelegramServer, soak: Soak, db: Path) -> dict[str, Any]:
    out = {
        "presses": len(soak.presses),
        "confirmed": 0,
        "logged decisions": 0,
        "hands": 0,
        "finished hands": 0,
        "lost actions": 0,
        "doubled actions": 0,
        "hands that do not replay": 0,
        "results not delivered": 0,
        "private results not delivered": 0,
        "private results sent twice": 0,
        "duplicate group messages": 0,
        "live stale keyboards": 0,
        "restart notes": 0,
    }
    by_query = {p.query: p for p in soak.presses}
    done_prefix = t("ans.done", LANG, label="")
    confirmed = {
        q.id: (q.text or "")[len(done_prefix) :]
        for q in tg.callback_answers
        if q.id in by_query and (q.text or "").startswith(done_prefix)
    }
    out["confirmed"] = len(confirmed)
    unmatched_confirmed = dict(confirmed)
    free_presses = {p.query for p in soak.presses}
    async with await Storage.open(db) as storage:
        for g in soak.groups:
            if not g.table:
                continue
            hands = await storage.table_hands(g.table)
            for hand in hands:
                out["hands"] += 1
                rec = await storage.hand_replay(hand.id)
                state = engine.new_hand(
                    engine.get_variant(rec.variant), hand.seed, hand.options, hand.dealer_arg, len(hand.seats)
                )
                try:
                    for a in rec.actions:
                        action = engine.Action.parse(a.action)
                        user = hand.seats[action.seat]
                        many = len(engine.legal_actions(state, action.seat)) > 1
                        label = Presenter.action_label(engine.observe(state, action.seat), action, LANG)
                        before = state.version
                        state, _ = engine.apply(state, action)
                        if user is None or not many:
                            continue
                        out["logged decisions"] += 1
                        mine = [p for p in soak.presses if p.query in free_presses and p.user == user
                                and p.hand == hand.id and p.since <= before]  # fmt: skip
                        hit = next((p for p in mine if unmatched_confirmed.get(p.query) == label), None)
                        hit = hit or next((p for p in mine if p.query not in confirmed), None)
                        if hit is None:
                            out["doubled actions"] += 1
                            continue
                        free_presses.discard(hit.query)
                        unmatched_confirmed.pop(hit.query, None)
                    if state.version != hand.version:
                        raise ValueError("version")
                    if hand.finished and hand.result and "deltas" in hand.result:
                        if result_to_json(state) != hand.result:
                            raise ValueError("result")
                except (engine.EngineError, ValueError):
                    out["hands that do not replay"] += 1
                    continue
                if not (hand.finished and hand.result and "deltas" in hand.result):
                    continue
                out["finished hands"] += 1
                msgs = tg.bot_messages(g.chat)
                shown = [m for m in msgs if any(shows_result(v.text or "", hand.number) for v in m.versions)]
                if not shown or not hand.result_delivered:
                    out["results not delivered"] += 1
                out["duplicate group messages"] += max(0, len(shown) - 1)
                private = t("dm.result_title", LANG, tid=g.table, n=hand.number)
                for user in {u for u in hand.seats if u is not None}:
                    got = sum(private in (m.text or "") for m in tg.bot_messages(user))
                    out["private results not delivered"] += got == 0
                    out["private results sent twice"] += max(0, got - 1)
                header = t("group.header", LANG, tid=g.table, n=hand.number)
                tables = [m for m in tg.bot_messages(g.chat) if (m.versions[0].text or "").startswith(header)]
                out["duplicate group messages"] += max(0, len(tables) - 1)
        out["lost actions"] = len(unmatched_confirmed)
    restarted = t("note.restored", LANG)
    for g in soak.groups:
        msgs = tg.bot_messages(g.chat)
        out["restart notes"] += sum(restarted in (m.text or "") for m in msgs)
        for prefix in (f"L|{g.table}|", f"h|{g.table}"):
            live = [m for m in msgs if any(d.startswith(prefix) for d in m.callback_data)]
            out["live stale keyboards"] += max(0, len(live) - 1)
        for user in (g.host, g.guest):
            mine = tg.bot_messages(user)
            live = [m for m in mine if any(d.startswith(f"g|{g.table}|") for d in m.callback_data)]
            out["live stale keyboards"] += max(0, len(live) - 1)
    return out


MUST_BE_ZERO = (
    "lost actions",
    "doubled actions",
    "hands that do not replay",
    "results not delivered",
    "private results not delivered",
    "duplicate group messages",
    "live stale keyboards",
    "restart notes",
    "slow or failed shutdowns",
)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="10 kills, 2 tables")
    ap.add_argument("--kills", type=int, default=120)
    ap.add_argument("--tables", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    kills, tables = (10, 2) if args.quick else (args.kills, args.tables)
    with tempfile.TemporaryDirectory() as tmp:
        figures = asyncio.run(run(kills, tables, args.seed, Path(tmp)))
    width = max(map(len, figures))
    for key, value in figures.items():
        print(f"{key:>{width}}  {value}")
    bad = [k for k in MUST_BE_ZERO if figures[k]]
    if figures["private results sent twice"] > figures["kills"]:
        bad.append("private results sent twice (more than the kills)")
    print("every figure 0" if not bad else f"NOT ZERO: {', '.join(bad)}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
