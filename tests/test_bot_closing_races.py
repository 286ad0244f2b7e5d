"""Work that waits for a table's lock while the table closes (an admin's /stop, a stop vote, its last hand,
the bot removed from the group) changes nothing once it holds the lock and is answered "closed": a turn timer,
a game press, 托管 (bot/table/play.py). Each waited behind the close and then went on against the closed
table - the timer showed the table and every panel with live buttons again after they were shown closed,
托管 was stored and told to the group after the 大结算, a press got "Something went wrong".

The race is made certain: a test holds the table's lock, queues the admin's /stop, then the other work
(``asyncio.Lock`` wakes its waiters in order), and lets go. So the racing calls go to the table service
directly rather than as updates over HTTP (whose order into the lock a test cannot fix); the chats are
read from the fake Bot API as everywhere."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from pathlib import Path
from typing import Any, TypeVar

from bot.table.runtime import TableRuntime
from bot.text.texts import t

from .bot_support import Clock, bot_running, quiet, seated_and_dealt, service
from .fake_telegram import FakeChat, FakeTelegramServer, FakeUser

T = TypeVar("T")


async def behind_a_stop(svc: Any, rt: TableRuntime, admin: FakeUser, work: Awaitable[T]) -> T:
    """``work`` queued for the table's lock behind an admin's /stop of the table; its result."""
    await rt.lock.acquire()
    try:
        stop = asyncio.create_task(svc.stop(rt.chat_id, admin.id, True))
        await asyncio.sleep(0)  # it reaches the lock (nothing before it waits) and queues
        queued = asyncio.ensure_future(work)
        await asyncio.sleep(0)
    finally:
        rt.lock.release()
    _, out = await asyncio.gather(stop, queued)
    return out


async def table_of_two(tg: FakeTelegramServer, app: Any) -> tuple[TableRuntime, FakeChat, FakeUser, FakeUser]:
    alice, bob = tg.add_user("Alice", started=True), tg.add_user("Bob", started=True)
    group = tg.add_group("Mahjong", members=[alice, bob])
    tid = await seated_and_dealt(tg, app, group, alice, [bob])
    await quiet(app, tg)
    rt = service(app).tables[tid]
    assert rt.playing and rt.live.pending
    return rt, group, alice, bob


def live_buttons(tg: FakeTelegramServer, rt: TableRuntime) -> list[tuple[int, str]]:
    """Buttons of the table's hand still on screen: the group's table message and the players' panels."""
    chats = (rt.chat_id, *[u for u in rt.hand_seats() if u is not None])
    return [
        (m.chat.id, d)
        for chat in chats
        for m in tg.bot_messages(chat)
        for d in m.callback_data
        if d.startswith((f"g|{rt.id}|", f"h|{rt.id}", f"A|{rt.id}"))
    ]


async def test_a_turn_timer_queued_behind_a_stop_plays_nothing(
    tg: FakeTelegramServer, tmp_path: Path
) -> None:
    clock = Clock()
    async with bot_running(tg, tmp_path / "bot.db", clock) as app:
        svc = service(app)
        rt, _, alice, _ = await table_of_two(tg, app)
        hand = rt.live.id
        before = len((await svc.storage.hand_replay(hand)).actions)
        clock.now = max(p.deadline for p in rt.live.pending.values()) + 1  # every decision timed out
        await behind_a_stop(svc, rt, alice, svc.on_due(rt.id))
        await quiet(app, tg)
        assert rt.closed and len((await svc.storage.hand_replay(hand)).actions) == before
        assert not live_buttons(tg, rt), "the closed table was shown live again"


async def test_a_press_queued_behind_a_stop_is_answered_closed(
    tg: FakeTelegramServer, tmp_path: Path
) -> None:
    async with bot_running(tg, tmp_path / "bot.db", Clock()) as app:
        svc = service(app)
        rt, _, alice, _ = await table_of_two(tg, app)
        seat, p = next(iter(rt.live.pending.items()))
        user = rt.hand_seats()[seat]
        assert user is not None
        hand = rt.live.id
        before = len((await svc.storage.hand_replay(hand)).actions)
        reply = await behind_a_stop(svc, rt, alice, svc.press(rt.id, user, hand, p.since, 0))
        await quiet(app, tg)
        assert reply.text == t("ans.closed", "en") and not reply.alert, reply
        assert len((await svc.storage.hand_replay(hand)).actions) == before


async def test_auto_play_queued_behind_a_stop_changes_nothing(tg: FakeTelegramServer, tmp_path: Path) -> None:
    async with bot_running(tg, tmp_path / "bot.db", Clock()) as app:
        svc = service(app)
        rt, group, alice, bob = await table_of_two(tg, app)
        reply = await behind_a_stop(svc, rt, alice, svc.auto_play(rt.id, bob.id))
        await quiet(app, tg)
        assert reply.text == t("ans.closed", "en"), reply
        final = max(c.seq for c in tg.calls_to("sendMessage", chat_id=group.id))  # the 大结算, the last post
        late = [c for c in tg.calls if c.seq > final and c.params.get("chat_id") == group.id]
        assert not late and not live_buttons(tg, rt), [c.params.get("text") for c in late]
