"""Pictures in the chats over the fake Bot API: the group's table is one photo edited in place
(editMessageMedia / editMessageCaption), each player has one panel per hand (a photo of his hand, its
caption the table around him and the clock) and one result message that stays; /view switches a chat
between pictures and text, and text mode is complete."""

from __future__ import annotations

import asyncio
import os
import random
import sys
from pathlib import Path
from typing import Any

import engine
from bot import ai
from bot.pictures import Display, Kind, Mode, layout, render
from bot.pictures.worker import Painter
from bot.table.runtime import TableRuntime
from bot.text.texts import t
from engine import Phase
from storage import Storage

from .bot_support import (
    Clock,
    Player,
    bot_running,
    lobby_message,
    open_table,
    play_hand,
    quiet,
    service,
)
from .fake_telegram import FakeChat, FakeTelegramServer, FakeUser

PNG = b"\x89PNG\r\n\x1a\n"
SENDS = ("sendMessage", "sendPhoto")
EDITS = ("editMessageMedia", "editMessageCaption", "editMessageText")


async def two_seated(
    tg: FakeTelegramServer, app: Any, alice: FakeUser, bob: FakeUser, group: FakeChat, variant: str
) -> tuple[int, TableRuntime]:
    """Alice opens a table of ``variant`` and Bob joins it."""
    tid, lobby = await open_table(tg, alice, group, variant)
    rt = service(app).tables[tid]
    tg.press(bob, group, lobby.message_id, f"L|{tid}|j")
    await tg.wait_for(lambda _: bob.id in rt.seats, what="Bob seated")
    return tid, rt


async def test_a_hand_in_pictures_one_panel_each_and_the_table_edited_in_place(
    tg: FakeTelegramServer, tmp_path: Path
) -> None:
    """DM message count per hand: one panel (sent when the hand is dealt, edited at every decision) and one
    result message; the group's table is one photo edited in place, ending as the end-of-hand picture."""
    alice = tg.add_user("Alice", language_code="en", started=True)
    bob = tg.add_user("Bob", language_code="zh-hans", started=True)
    group = tg.add_group("Mahjong", members=[alice, bob])
    async with bot_running(tg, tmp_path / "bot.db", Clock(), pictures=True) as app:
        tid, rt = await two_seated(tg, app, alice, bob, group, "changsha")
        lobby = await lobby_message(tg, group, tid)
        mark = tg.mark()
        tg.press(alice, group, lobby.message_id, f"L|{tid}|go")
        players = [Player(tg, alice, tid), Player(tg, bob, tid)]
        assert await play_hand(players, lambda: rt.hands_played >= 1) > 2
        await quiet(app, tg)

        for user in (alice, bob):
            sends = [c for c in tg.calls_to(*SENDS, chat_id=user.id, ok=True) if c.seq >= mark]
            assert [c.method for c in sends] == ["sendPhoto", "sendMessage"], user.first_name
            panel = tg.message(user, sends[0].result["message_id"])
            assert panel.photo is not None and panel.photo.data.startswith(PNG)
            edits = [c for c in tg.calls_to(*EDITS, chat_id=user.id, ok=True) if c.seq >= mark]
            assert edits and all(c.params["message_id"] == panel.message_id for c in edits)
            lang = "en" if user is alice else "zh"
            captions = [v.caption or "" for v in panel.versions]
            assert any("⏱" in c for c in captions)  # the clock on a decision
            assert any(t("ctx.wall", lang, n=0).split("0")[-1].strip() in c for c in captions)  # the wall
            result = tg.message(user, sends[1].result["message_id"])
            assert (result.text or "").startswith(t("dm.result_title", lang, tid=tid, n=1))

        sends = [c for c in tg.calls_to(*SENDS, chat_id=group.id, ok=True) if c.seq >= mark]
        photos = [c for c in sends if c.method == "sendPhoto"]
        assert len(photos) == 1  # the table, then edits only; the result comes with the next lobby
        table = tg.message(group, photos[0].result["message_id"])
        edits = [c for c in tg.calls_to(*EDITS, chat_id=group.id, ok=True) if c.seq >= mark]
        assert any(
            c.method == "editMessageMedia" and c.params["message_id"] == table.message_id for c in edits
        )
        assert (table.caption or "").startswith(t("note.result_title", "en", n=1))  # the end picture
        # the group sees who is on the clock, and until when (never who may claim)
        clocks = [v.caption or "" for v in table.versions if "⏱" in (v.caption or "")]
        assert clocks and all("s left" in c and "to play" in c for c in clocks)
        assert table.photo is not None and table.photo.data.startswith(PNG) and not table.callback_data
        # every seat is named on the pictures, the AI seats as the captions name them
        svc = service(app)
        [hand] = await svc.storage.table_hands(tid)
        final = await svc.storage.rebuild(hand.id)
        assert final.phase == Phase.ENDED
        users = {alice.id: "Alice", bob.id: "Bob"}
        names = tuple(users[u] if u is not None else f"AI {i + 1}" for i, u in enumerate(rt.hand_seats()))
        obs = engine.observe_public(final)
        shown = Display("en", names)
        assert {it.text for it in layout(obs, Mode.END, shown).find(Kind.TEXT, "label")} == set(names)
        assert table.photo.data == render(obs, Mode.END, shown)
        assert table.photo.data != render(obs, Mode.END, Display("en", ()))


async def test_view_switches_a_chat_to_text_and_text_mode_is_complete(
    tg: FakeTelegramServer, tmp_path: Path
) -> None:
    """/view text in the group and in one player's private chat: those show text (the whole table, the
    panel with its context), the other player keeps his picture; /view pictures switches back, the live
    message sent anew as a photo."""
    alice = tg.add_user("Alice", language_code="en", started=True)
    bob = tg.add_user("Bob", language_code="en", started=True)
    group = tg.add_group("Mahjong", members=[alice, bob])
    async with bot_running(tg, tmp_path / "bot.db", Clock(), pictures=True) as app:
        svc = service(app)
        tid, rt = await two_seated(tg, app, alice, bob, group, "sichuan")
        for chat in (group, None):
            mark = tg.mark()
            tg.send_text(alice, chat, "/view text")
            await tg.wait_for_call(
                "sendMessage", since=mark, predicate=lambda c: "text only" in c.params["text"]
            )
        assert not svc.people.pictures(group.id) and not svc.people.pictures(alice.id)
        lobby = await lobby_message(tg, group, tid)
        mark = tg.mark()
        tg.press(alice, group, lobby.message_id, f"L|{tid}|go")
        await tg.wait_for(lambda _: rt.hand is not None and rt.hand.pending, what="the first decisions")
        await quiet(app, tg)
        sent = {c.params["chat_id"]: c for c in tg.calls_to(*SENDS, ok=True) if c.seq >= mark}
        assert sent[group.id].method == "sendMessage" and sent[alice.id].method == "sendMessage"
        assert sent[bob.id].method == "sendPhoto"
        table = sent[group.id].params["text"]
        assert "tiles left in the wall" in table and "Alice" in table and "Bob" in table
        panel = sent[alice.id].params["text"]
        assert "Your hand" in panel and "Void suit" in panel  # her hand and what she is asked (定缺)

        mark = tg.mark()
        tg.send_text(alice, group, "/view pictures")
        photo = await tg.wait_for_call("sendPhoto", chat_id=group.id, since=mark)
        assert photo.ok and svc.people.pictures(group.id)
    async with await Storage.open(tmp_path / "bot.db") as storage:  # stored: a restart keeps them
        assert await storage.chat_displays() == {group.id: "pictures", alice.id: "text"}


async def test_after_a_restart_the_pictures_still_mark_each_winning_tile(tmp_path: Path) -> None:
    """The pictures mark each winning tile from the Observation (``PublicSeat.won_on``), which a hand
    rebuilt from its log after a restart carries as well: a 血流成河 hand keeps every win's tile, and the end
    picture each winner's tile apart."""
    async with await Storage.open(tmp_path / "bot.db") as store:
        table = await store.create_table(-100, "sichuan", {"mode": "xueliu"}, [7, None, None, None])
        hand, state = await store.start_hand(table.id, 5, 0, ai=(1, 2, 3))
        rng = random.Random(5)
        wins: list[tuple[int, int]] = []
        while state.phase != Phase.ENDED:
            action = ai.choose(engine.observe(state, engine.to_act(state)[0]), rng)
            state, events = engine.apply(state, action)
            wins += [
                (e.seat, e.tile)
                for e in events
                if e.kind == "win" and e.seat is not None and e.tile is not None
            ]
            final = state if state.phase == Phase.ENDED else None
            await store.log_action(hand.id, action, state.version, final=final)
        assert len(wins) >= 2  # 血流: several wins in one hand
        obs = engine.observe_public(await store.rebuild(hand.id))
        assert [ps.won_on for ps in obs.seats] == [tuple(t for w, t in wins if w == s) for s in range(4)]
        lay = layout(obs, Mode.END, Display("en"))
        for w in {w for w, _ in wins}:
            [tile] = lay.find(Kind.TILE, "win", w)
            assert tile.tile == next(t for s, t in wins if s == w)


def _gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    with open(f"/proc/{pid}/stat") as f:  # a zombie (dead, not yet reaped) is gone too
        return f.read().split(") ")[-1].startswith("Z")


async def test_the_picture_worker_never_outlives_the_bot(tmp_path: Path) -> None:
    """The worker that draws the pictures ends with the bot: on a normal stop, and when the bot is killed
    (``kill -9``, as bench/crash_soak.py does a hundred times) it sees its parent gone and exits."""
    script = (
        "import asyncio, sys\n"
        "from bot.pictures.worker import Painter\n"
        "async def main():\n"
        "    p = Painter(1)\n"
        "    await p.start()\n"
        "    print(*p.pids, flush=True)\n"  # the worker's pid
        "    await asyncio.sleep(60)\n"
        "if __name__ == '__main__':\n"
        "    asyncio.run(main())\n"
    )
    bot = await asyncio.create_subprocess_exec(
        sys.executable, "-c", script, stdout=asyncio.subprocess.PIPE, cwd=Path(__file__).parent.parent
    )
    assert bot.stdout is not None
    [worker] = map(int, (await asyncio.wait_for(bot.stdout.readline(), 30)).split())
    assert not _gone(worker)
    bot.kill()
    await bot.wait()
    for _ in range(100):  # it looks for its parent once a second
        if _gone(worker):
            break
        await asyncio.sleep(0.05)
    assert _gone(worker), "the picture worker outlived the bot"

    painter = Painter(1)
    await painter.start()
    [worker] = painter.pids
    await asyncio.to_thread(painter.close)
    assert _gone(worker)
