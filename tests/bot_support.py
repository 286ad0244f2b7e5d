"""Helpers for the bot's end-to-end tests (and bench/bot_bench.py): the app over the fake Bot API server,
a clock the tests move by hand, and scripted players who read their private panel and press its buttons.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable, Sequence
from pathlib import Path
from typing import Any

from telegram.ext import AIORateLimiter, Application

from bot.messages.presses import GamePress, decode
from bot.table.service import TableService
from bot.telegram.app import build_application, running
from bot.telegram.webhook import WebhookConfig

from .fake_telegram import FakeChat, FakeMessage, FakeTelegramServer, FakeUser
from .pgcluster import free_port

POLL_TIMEOUT = 10
T0 = 1_750_000_000.0  # a fixed "now" for the injected clock (a Sunday, 2025-06-15 UTC)


class Clock:
    """The bot's clock in tests: deadlines are compared with it, and tests move it by hand."""

    def __init__(self, now: float = T0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def seeds(base: int = 0) -> Callable[[int, int], int]:
    return lambda table_id, number: base + 1000 * table_id + number


def make_app(
    tg: FakeTelegramServer,
    db: Path,
    clock: Clock | None = None,
    seed_base: int = 0,
    **kwargs: Any,
) -> Application[Any, Any, Any, Any, Any, Any]:
    """The bot against the fake server; no flood pacing (tests would wait for it), 429s retried, and no
    claim pause unless a test asks for one (tests/test_bot_fairness.py drives it with the clock). Chats see
    text unless a test asks for pictures (``pictures=True``: tests/test_bot_pictures.py), which the bot's
    own default is: the texts are what most tests read."""
    kwargs.setdefault("rate_limiter", AIORateLimiter(overall_max_rate=0, group_max_rate=0, max_retries=3))
    kwargs.setdefault("group_interval", 0)
    kwargs.setdefault("send_rate", 0)
    kwargs.setdefault("lazy_interval", 0)
    kwargs.setdefault("claim_pause", 0)
    kwargs.setdefault("pictures", False)
    return build_application(
        tg.token,
        db,
        tg.base_url,
        base_file_url=tg.base_file_url,
        clock=clock or Clock(),
        seed_fn=seeds(seed_base),
        **kwargs,
    )


def loopback_webhook() -> WebhookConfig:
    """A webhook on a free loopback port: the workers of one bot in a test listen on it together."""
    port = free_port()
    return WebhookConfig(f"http://127.0.0.1:{port}/hook", "secret", "127.0.0.1", port)


@contextlib.asynccontextmanager
async def bot_running(
    tg: FakeTelegramServer, db: Path, clock: Clock | None = None, **kwargs: Any
) -> AsyncIterator[Application[Any, Any, Any, Any, Any, Any]]:
    app = make_app(tg, db, clock, **kwargs)
    async with running(app, poll_timeout=POLL_TIMEOUT):
        tg.bot_activity = activity(app)
        try:
            yield app
        finally:
            tg.bot_activity = None


def activity(app: Application[Any, Any, Any, Any, Any, Any]) -> Callable[[], str | None]:
    """What an in-process bot is doing, for ``tg.wait_idle`` (None: nothing): updates received and not yet
    through their handlers, messages in its outbox, a timer due or running. All the bot does starts
    from one of those, so ``wait_idle`` needs no long quiet period to tell that it has stopped."""
    outbox = app.bot_data["outbox"]
    queue = app.update_queue

    def busy() -> str | None:
        # PTB marks an update done only after its handlers ran (Application.__process_update_wrapper)
        unfinished: int = queue._unfinished_tasks  # type: ignore[attr-defined]
        if unfinished:
            return f"{unfinished} update(s) being handled"
        if not outbox.idle:
            return "the outbox is sending"
        timers = app.bot_data.get("timers")
        if timers is not None and timers.due_within(0.05):
            return "a timer is due"
        if timers is not None and timers.running:
            return "a timer is running"
        return None

    return busy


def service(app: Application[Any, Any, Any, Any, Any, Any]) -> TableService:
    svc = app.bot_data["service"]
    assert isinstance(svc, TableService)
    return svc


async def quiet(app: Application[Any, Any, Any, Any, Any, Any], tg: FakeTelegramServer) -> None:
    """Wait until the bot's outbox has sent everything and the fake server saw no more calls (after work
    that did not start from an update, such as a timer run by hand, ``tg.wait_idle`` alone may be early)."""
    outbox = app.bot_data["outbox"]
    for _ in range(20):
        await outbox.drain(5)
        await tg.wait_idle()
        if outbox.idle:
            return
    raise TimeoutError("the bot keeps sending")


# ------------------------------------------------------------------ reading the chats


def buttons_with(message: FakeMessage, prefix: str) -> list[str]:
    return [d for d in message.callback_data if d.startswith(prefix)]


def last_with_button(
    tg: FakeTelegramServer, chat: FakeChat | FakeUser | int, prefix: str
) -> FakeMessage | None:
    for m in reversed(tg.bot_messages(chat.id if not isinstance(chat, int) else chat)):
        if buttons_with(m, prefix):
            return m
    return None


async def lobby_message(
    tg: FakeTelegramServer, group: FakeChat, table_id: int, op: str = "go"
) -> FakeMessage:
    def find(_: object) -> FakeMessage | None:
        return last_with_button(tg, group, f"L|{table_id}|{op}")

    found: FakeMessage = await tg.wait_for(find, what=f"lobby of table {table_id}")
    return found


async def open_table(
    tg: FakeTelegramServer, user: FakeUser, group: FakeChat, variant: str = ""
) -> tuple[int, FakeMessage]:
    """``/newtable variant`` by ``user``; returns the table id and its lobby message (a message sent after
    the command: a stopped table's lobby may keep its buttons a while, its edit waiting for the group's
    pace)."""
    before = max((m.message_id for m in tg.bot_messages(group)), default=0)
    tg.send_text(user, group, f"/newtable {variant}".strip())

    def find(_: object) -> tuple[int, FakeMessage] | None:
        for m in reversed(tg.bot_messages(group)):
            if m.message_id <= before:
                break
            for d in m.callback_data:
                if d.startswith("L|") and d.endswith("|go"):
                    return int(d.split("|")[1]), m
        return None

    found: tuple[int, FakeMessage] = await tg.wait_for(find, what="a lobby")
    return found


async def seated_and_dealt(
    tg: FakeTelegramServer,
    app: Any,
    group: FakeChat,
    host: FakeUser,
    others: Sequence[FakeUser],
    variant: str = "changsha",
) -> int:
    """A table of ``variant`` opened by ``host`` in ``group``, ``others`` seated by Join (English users), its
    first hand dealt by the host's Start; returns its id."""
    svc = service(app)
    tid, lobby = await open_table(tg, host, group, variant)
    await tg.wait_for(lambda _: host.id in svc.tables[tid].seats)
    for user in others:
        assert await press(tg, user, lobby, f"L|{tid}|j") == "You're seated"
    assert await press(tg, host, await lobby_message(tg, group, tid), f"L|{tid}|go") == "OK"
    return tid


def setting(svc: TableService, tid: int, name: str, value: object = None) -> str:
    """The callback data of the lobby's settings button that sets ``name`` (a room option, a field of
    ``TableSettings``, "seats" or "lang") to ``value``; with no value, the button that lists its choices."""
    rows = svc.lobbies.setting_rows(svc.tables[tid])
    i = [r.name for r in rows].index(name)
    if value is None:
        return f"L|{tid}|o|{i}"
    return f"L|{tid}|v|{i}|{rows[i].choices.index(value)}"


async def choose_setting(
    tg: FakeTelegramServer, user: FakeUser, message: FakeMessage, svc: TableService, name: str, value: object
) -> str:
    """Set a room setting as a player does: on the open settings page, press the setting (its choices
    appear on the same message), then the choice; returns the second press's answer. The table is the one
    the message's buttons belong to."""
    tid = int(next(d for d in message.callback_data if d.startswith("L|")).split("|")[1])
    opened = setting(svc, tid, name)
    await tg.wait_for(lambda _: opened in tg.message(message.chat, message.message_id).callback_data)
    q = tg.press(user, message.chat, message.message_id, opened)
    await tg.wait_for(lambda _: q.answered, what=f"the answer to {opened}")
    chosen = setting(svc, tid, name, value)
    await tg.wait_for(lambda _: chosen in tg.message(message.chat, message.message_id).callback_data)
    q = tg.press(user, message.chat, message.message_id, chosen)
    await tg.wait_for(lambda _: q.answered, what=f"the answer to {chosen}")
    return q.text or ""


def press_button(tg: FakeTelegramServer, user: FakeUser, message: FakeMessage, data: str) -> Any:
    return tg.press(user, message.chat, message.message_id, data)


def game_buttons(message: FakeMessage, table_id: int) -> list[str]:
    return buttons_with(message, f"g|{table_id}|")


def since_of(data: str) -> tuple[int, int]:
    """The decision a game button belongs to: (hand id, decision), in the order decisions come."""
    press = decode(data)
    assert isinstance(press, GamePress), data
    return press.hand, press.decision


class Player:
    """A scripted player: waits for a new decision in his private chat and presses a button."""

    def __init__(self, tg: FakeTelegramServer, user: FakeUser, table_id: int) -> None:
        self.tg = tg
        self.user = user
        self.table_id = table_id
        self.last_since = (-1, -1)
        self.presses = 0

    def decision(self) -> tuple[FakeMessage, list[str]] | None:
        for m in reversed(self.tg.bot_messages(self.user)):
            data = game_buttons(m, self.table_id)
            if data:
                if since_of(data[0]) > self.last_since:
                    return m, data
                return None
        return None

    async def wait_decision(
        self, done: Callable[[], bool], timeout: float = 10
    ) -> tuple[FakeMessage, list[str]] | None:
        """The next decision, or None once ``done()`` (e.g. the hand is over)."""

        def check(_: object) -> Any:
            d = self.decision()
            if d is not None:
                return d
            return "done" if done() else None

        found = await self.tg.wait_for(check, timeout=timeout, what=f"a decision for {self.user.first_name}")
        return None if found == "done" else found

    def press(self, message: FakeMessage, data: str) -> Any:
        self.last_since = since_of(data)
        self.presses += 1
        return press_button(self.tg, self.user, message, data)


def hand_over(tg: FakeTelegramServer, group: FakeChat, marker: str) -> Callable[[], bool]:
    """True once a group message contains ``marker`` (e.g. the result title of a hand)."""

    def done() -> bool:
        return any(marker in (m.text or "") for m in tg.bot_messages(group))

    return done


async def play_hand(
    players: list[Player],
    done: Callable[[], bool],
    choose: Callable[[Player, FakeMessage, list[str]], str] | None = None,
    max_presses: int = 400,
) -> int:
    """Every scripted player answers each of his decisions (the first button unless ``choose`` says
    otherwise) until ``done()``; returns the number of presses."""
    presses = 0
    pick = choose or (lambda p, m, data: data[0])
    while not done():
        progressed = False
        for p in players:
            d = p.decision()
            if d is None:
                continue
            message, data = d
            p.press(message, pick(p, message, data))
            presses += 1
            progressed = True
        if not progressed:
            tg = players[0].tg

            def ready(_: object) -> bool:
                return done() or any(p.decision() is not None for p in players)

            await tg.wait_for(ready, timeout=10, what="a decision or the end of the hand")
        assert presses < max_presses, "the hand does not end"
    return presses


async def run_timer(app: Any, svc: TableService, clock: Clock, tid: int) -> None:
    """Move the clock past the table's next wake-up (a warning, a deadline or the end of a ready phase) and
    run its timer now."""
    deadline = svc.timers.deadline(tid)  # type: ignore[attr-defined]
    assert deadline is not None, "the table has no timer armed"
    clock.now = max(clock.now, deadline + 0.5)
    await svc.timers.run_now(tid)  # type: ignore[attr-defined]


async def run_timer_settled(
    app: Any, svc: TableService, clock: Clock, tid: int, tg: FakeTelegramServer
) -> None:
    """The table's next timer run now (run_timer), then its messages settled."""
    await run_timer(app, svc, clock, tid)
    await quiet(app, tg)


async def until_hands(
    app: Any, svc: TableService, clock: Clock, tid: int, tg: FakeTelegramServer, n: int
) -> None:
    """Let timers run (the players never press) until the table has finished ``n`` hands or closed."""
    for _ in range(40):
        await quiet(app, tg)
        rt = svc.registry.by_id.get(tid)
        if rt is None or rt.closed or (rt.hands_played >= n and not rt.playing):
            return
        await run_timer_settled(app, svc, clock, tid, tg)
    raise AssertionError(f"table {tid} did not finish {n} hands")


async def press(tg: FakeTelegramServer, user: FakeUser, message: FakeMessage, data: str) -> str:
    q = tg.press(user, message.chat, message.message_id, data, check=False)
    await tg.wait_for(lambda _: q.answered, what=f"the answer to {data}")
    return q.text or ""


async def command(tg: FakeTelegramServer, user: FakeUser, chat: FakeChat | None, text: str) -> str:
    """A command's text reply (in ``chat``; None: the user's private chat)."""
    mark = tg.mark()
    tg.send_text(user, chat, text)
    target = chat.id if chat is not None else user.id
    quoted = (lambda c: "reply_parameters" in c.params) if chat is not None else None  # private: no quote
    call = await tg.wait_for_call("sendMessage", chat_id=target, since=mark, predicate=quoted)
    return str(call.params["text"])
