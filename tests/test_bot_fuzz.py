"""A seeded attack on the bot over the fake Bot API: thousands of random and forged updates -
callback data of random bytes, unicode, huge numbers, other tables, other hands and other decisions; presses
by non-members and by users who are not seated; commands in the wrong chat; edited messages; channel posts -
between a few legal moves of the seated players. The database (and the tables in memory) must not change
except by those legal moves, every press must get exactly one answer, and no handler may raise.

Bounded and seeded: the same updates every run, a few seconds on one core; xdist-safe (its own server,
database and port)."""

from __future__ import annotations

import logging
import random
import sqlite3
from pathlib import Path
from typing import Any

import pytest

import engine
from bot.table.service import TableRuntime, TableService
from engine import Phase

from .bot_support import Clock, bot_running, lobby_message, open_table, service
from .fake_telegram import FakeCallbackQuery, FakeMessage, FakeTelegramServer, FakeUser

SEED = 20_250_615
UPDATES = 2_040  # forged and random updates
ROUNDS = 8  # a legal move after each round of forged updates
BATCH = UPDATES // ROUNDS
CHUNK = 40


def db_snapshot(db: Path) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table of the database (read-only, beside the bot's own connection) but the
    record of the updates handled. Of the players' panels only who has one: a seated player who asks for
    his hand again (/hand, the group's "my hand" button; legal, and among the commands sent) gets it in a
    new message, whose id is stored."""
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        names = [
            r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        ]
        out = {n: sorted(con.execute(f'SELECT * FROM "{n}"').fetchall(), key=repr) for n in names}
        out["panels"] = sorted(con.execute("SELECT table_id, user_id FROM panels").fetchall())
        del out["updates_seen"]  # every update handled is recorded (a second delivery changes nothing)
        out["user_version"] = [tuple(con.execute("PRAGMA user_version").fetchone())]
        return out
    finally:
        con.close()


def memory_snapshot(svc: TableService) -> object:
    """What the open tables hold in memory: seats, settings, the hand, open decisions, votes."""
    tables = []
    for rt in sorted(svc.tables.values(), key=lambda r: r.id):
        tables.append(
            (
                rt.id,
                list(rt.seats),
                rt.settings,
                sorted(rt.hand.auto) if rt.hand else [],
                dict(rt.options),
                rt.hand.id if rt.hand else None,
                rt.state.version if rt.state else None,
                sorted((s, p.since) for s, p in rt.hand.pending.items()) if rt.hand else [],
                sorted(rt.vote_dms),
                sorted(rt.waiting_dm),
                rt.closed,
            )
        )
    return tables, dict(svc.people.chat_langs)


class Attack:
    """Makes the forged updates; knows who may do what only to stay clear of what is legal."""

    def __init__(self, tg: FakeTelegramServer, svc: TableService, rng: random.Random, **cast: Any) -> None:
        self.tg, self.svc, self.rng = tg, svc, rng
        self.__dict__.update(cast)
        self.queries: list[FakeCallbackQuery] = []
        self.kinds: dict[str, int] = {}
        self.answered = 0  # queries[:answered] are known to be answered

    def all_answered(self) -> bool:
        while self.answered < len(self.queries) and self.queries[self.answered].answered:
            self.answered += 1
        return self.answered == len(self.queries)

    def _count(self, kind: str) -> None:
        self.kinds[kind] = self.kinds.get(kind, 0) + 1

    def _messages(self) -> list[FakeMessage]:
        chats = (self.g1, self.g2, self.alice.id, self.bob.id, self.mallory.id)
        return [m for c in chats for m in self.tg.bot_messages(c)[-8:]]

    def _data(self) -> str:
        rng, t1, t2 = self.rng, self.t1, self.t2
        rt = self.svc.tables[t1]
        hand = rt.hand.id if rt.hand else 1
        since = rt.live.pending[min(rt.live.pending)].since if rt.live.pending else 0
        digits = "0123456789²³¹٠١٢٣٤٥٦٧٨٩０１２３۴߃௫"
        pick = rng.randrange(14)
        if pick == 0:
            return rng.randbytes(rng.randrange(0, 90)).decode("utf-8", "replace")
        if pick == 1:  # any unicode Telegram can carry (no lone surrogates)
            codes = (rng.randrange(0x20, 0x2FFFF) for _ in range(rng.randrange(1, 40)))
            return "".join(chr(c) for c in codes if not 0xD800 <= c <= 0xDFFF)
        if pick == 2:
            return f"g|{t1}|{hand}|{since}|" + "9" * rng.choice((16, 400, 5000))
        if pick == 3:
            n = "".join(rng.choice(digits) for _ in range(rng.randrange(1, 6)))
            return rng.choice((f"g|{t1}|{hand}|{since}|{n}", f"L|{n}|go", f"h|{n}", f"L|{t2}|o|{n}"))
        if pick == 4:  # another table, another hand, another decision (never the open one)
            return f"g|{rng.choice((t2, 999, 0))}|{hand}|{since}|0"
        if pick == 5:
            return f"g|{t1}|{rng.choice((hand - 1, hand + 1, hand + 1000))}|{since}|{rng.randrange(3)}"
        if pick == 6:
            return f"g|{t1}|{hand}|{since + rng.choice((-3, -1, 1, 2, 50))}|{rng.randrange(3)}"
        if pick == 7:
            return f"g|{t1}|{hand}|{since}|{rng.choice((99, 999, -1))}"
        if pick == 8:
            ops = ("j", "l", "a", "r", "s", "b", "c", "d", "p", "n", "t", "go", "o|0", "o|7", "zz")
            return f"L|{rng.choice((t1, t2))}|{rng.choice(ops)}"
        if pick == 9:
            return f"{rng.choice('hbS')}|{rng.choice((t1, t2, 'all', 'week', 'x', ''))}"
        if pick == 10:
            return rng.choice(("", "|", "||||", "g", "L", "S|all|all", "\x00", "g|1|1|1|1|1"))
        if pick == 11:
            return f"g|{t1}|{hand}|{since}|{rng.randrange(3)}"  # the open decision: only for the unseated
        if pick == 12:
            return f"L|{t2}|{rng.choice(('j', 'go', 'a', 'p'))}"
        return "S|" + rng.choice(("all", "week", "month"))

    def _presser(self, data: str) -> FakeUser:
        """Anyone may press anything, except what would be legal: the open decision by its seat, lobby
        buttons of table 2 by its host or members (they may join), and Leave by table 1's players."""
        rt = self.svc.tables[self.t1]
        while True:
            user = self.rng.choice(self.users)
            if data.startswith(f"L|{self.t2}|") and user in (self.dave, self.frank):
                continue
            if data.startswith(f"g|{self.t1}|") and user in (self.alice, self.bob) and rt.hand is not None:
                seat = rt.seat_of(user.id)
                p = rt.live.pending.get(seat) if seat is not None else None
                if p is not None and data.startswith(f"g|{self.t1}|{rt.hand.id}|{p.since}|"):
                    tail = data.rsplit("|", 1)[1]
                    if tail in {str(i) for i in range(len(p.legal))}:
                        continue
            return user

    def press(self) -> None:
        data = self._data()
        messages = self._messages()
        message = self.rng.choice(messages)
        raw: str | None = None if self.rng.random() < 0.01 else data
        query = self.tg.press_raw(self._presser(data), message, raw)
        self.queries.append(query)
        self._count("press")

    def command(self) -> None:
        rng, t2 = self.rng, self.t2
        roll = rng.randrange(8)
        if roll == 0:  # wrong chat: group commands in private
            self.tg.send_text(
                rng.choice(self.users), None, rng.choice(("/stop", "/newtable", "/newtable sichuan"))
            )
        elif roll == 1:  # a guessed or foreign deep link
            user = rng.choice((self.alice, self.bob, self.carol, self.mallory))
            payload = rng.choice((f"j{t2}", self.svc.links.payload(t2), f"j{t2}_{'A' * 16}", "j", "x" * 64))
            self.tg.send_text(user, None, f"/start {payload}")
        elif roll == 2:  # the group, by a member who is not seated: nothing he may change
            self.tg.send_text(
                self.carol, self.g1, rng.choice(("/stop", "/newtable", "/hand", "/score week", "/help"))
            )
        elif roll == 3:  # huge and strange arguments
            junk = rng.choice(("x" * 10_000, "\u202e" * 50, "٣" * 500, "\x00\x07"))
            self.tg.send_text(self.carol, self.g1, rng.choice(("/rules ", "/newtable ")) + junk)
        elif roll == 4:  # an old message edited into a command
            user = rng.choice((self.alice, self.bob))
            own = [m for m in self.g1.messages if m.sender is user and not m.from_bot]
            if own:
                self.tg.edit_text(rng.choice(own), rng.choice(("/stop", "/newtable", "/lang en", "/start")))
        elif roll == 5:
            self.tg.post_in_channel(
                self.channel, rng.choice(("/newtable", "/stop", "/lang zh")), edited=rng.random() < 0.5
            )
        elif roll == 6:  # table 2's group, by its non-host member: commands that change nothing
            self.tg.send_text(self.frank, self.g2, rng.choice(("/newtable", "/stop", "/rules")))
        else:
            self.tg.send_text(
                rng.choice(self.users), None, rng.choice(("/hand", "/score", "/rules x", "/help"))
            )
        self._count("command")

    def one(self) -> None:
        if self.rng.random() < 0.8:
            self.press()
        else:
            self.command()


def at_rest(rt: TableRuntime) -> bool:
    """The table has done what a move set off: not busy, and every seat to act is a human with an open
    decision (AI seats move at once, after the press is answered), or no hand is on."""
    if rt.lock.locked():
        return False
    state = rt.state
    return (
        state is None or state.phase == Phase.ENDED or all(s in rt.live.pending for s in engine.to_act(state))
    )


async def _settled(tg: FakeTelegramServer, attack: Attack, idle: bool = True) -> None:
    await tg.wait_for(lambda _: attack.all_answered(), timeout=30, what="every press answered")
    if idle:
        await tg.wait_idle(quiet=0.02, timeout=30)


async def test_forged_and_random_updates_change_nothing(
    tg: FakeTelegramServer, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    rng = random.Random(SEED)
    alice, bob = tg.add_user("Alice", started=True), tg.add_user("Bob", started=True)
    carol, mallory = tg.add_user("Carol", started=True), tg.add_user("Mallory", started=True)
    dave, frank = tg.add_user("Dave", started=True), tg.add_user("Frank", started=True)
    g1 = tg.add_group("Fuzz club", members=[alice, bob, carol])
    g2 = tg.add_group("Other club", members=[dave, frank])
    channel = tg.add_channel("News")
    db = tmp_path / "bot.db"
    async with bot_running(tg, db, Clock(), seed_base=11) as app:
        svc = service(app)
        t2, _ = await open_table(tg, dave, g2, "sichuan")
        t1, _ = await open_table(tg, alice, g1, "changsha")
        lobby = await lobby_message(tg, g1, t1, "j")
        tg.press(bob, g1, lobby.message_id, f"L|{t1}|j")
        await tg.wait_for(lambda _: bob.id in svc.tables[t1].seats, what="Bob seated")
        for user in (alice, bob, carol, mallory, dave, frank):  # everyone has talked to the bot once
            tg.send_text(user, None, "/help")
        tg.send_text(alice, g1, "good luck")
        tg.send_text(bob, g1, "have fun")
        tg.press(alice, g1, lobby.message_id, f"L|{t1}|go")
        rt = svc.tables[t1]
        await tg.wait_for(lambda _: rt.playing and rt.live.pending and at_rest(rt), what="the first decision")
        await tg.wait_idle()

        setup_answers = len(tg.calls_to("answerCallbackQuery"))
        attack = Attack(
            tg, svc, rng, t1=t1, t2=t2, g1=g1, g2=g2, channel=channel, alice=alice, bob=bob, carol=carol,
            mallory=mallory, dave=dave, frank=frank, users=[alice, bob, carol, mallory, dave, frank],
        )  # fmt: skip
        legal_moves = 0
        changed_by_forgery = 0
        for _ in range(ROUNDS):
            before = (db_snapshot(db), memory_snapshot(svc))
            for i in range(BATCH):
                attack.one()
                if i % CHUNK == CHUNK - 1:  # a few dozen in flight at once, as a busy group would send
                    await _settled(tg, attack, idle=False)
            await _settled(tg, attack)
            after = (db_snapshot(db), memory_snapshot(svc))
            changed_by_forgery += before != after
            assert before[0] == after[0], "a forged update changed the database"
            assert before[1] == after[1], "a forged update changed a table in memory"
            # a legal move: the seated player whose decision is open presses its first button
            if rt.playing and rt.live.pending:
                seat = min(rt.live.pending)
                user = alice if rt.seat_of(alice.id) == seat else bob
                panel = next(
                    m
                    for m in reversed(tg.bot_messages(user))
                    if any(d.startswith("g|") for d in m.callback_data)
                )
                data = next(d for d in panel.callback_data if d.startswith("g|"))
                q = tg.press(user, user.id, panel.message_id, data)
                attack.queries.append(q)
                await _settled(tg, attack)
                assert (q.text or "").startswith("✔"), q.text
                legal_moves += 1
                await tg.wait_for(lambda _: at_rest(rt), what="the moves it set off")
                await tg.wait_idle()
        assert legal_moves >= ROUNDS // 2
        answers = tg.calls_to("answerCallbackQuery")[setup_answers:]
        assert len(answers) == len(attack.queries) and all(c.ok for c in answers)  # exactly one answer each
        assert all(q.answered for q in attack.queries)
        errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
        assert not errors, errors[:3]
        assert svc.table_in(channel.id) is None and sorted(svc.tables) == sorted((t1, t2))
        sent = sum(attack.kinds.values())
        assert sent >= 2_000
        print(
            f"\nfuzz: {sent} forged/random updates ({attack.kinds}), {legal_moves} legal moves, "
            f"{changed_by_forgery} state changes by forged updates, {len(answers)} answers to "
            f"{len(attack.queries)} presses"
        )
