"""What Telegram does to a group and its bot around a table - a group upgraded to a
supergroup, the bot removed and added again, a player who blocks the bot, Telegram slower than the client's
read timeout, a second bot process on the same database, the old settings file, a result cut off by a
stop. Each was reproduced as it failed before being fixed."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bot.table.service import TableService
from bot.telegram.app import AlreadyRunning, build_application
from bot.text.texts import t
from engine import Phase

from .bot_support import (
    Player,
    bot_running,
    hand_over,
    last_with_button,
    lobby_message,
    open_table,
    play_hand,
    quiet,
    seated_and_dealt,
    service,
)
from .fake_telegram import FakeChat, FakeTelegramServer, FakeUser

ROOT = Path(__file__).resolve().parent.parent


async def start_hand(tg: FakeTelegramServer, user: FakeUser, group: FakeChat, tid: int) -> Player:
    lobby = await lobby_message(tg, group, tid)
    tg.press(user, group, lobby.message_id, f"L|{tid}|go")
    player = Player(tg, user, tid)
    assert await player.wait_decision(lambda: False) is not None
    return player


async def one_hand_played(
    tg: FakeTelegramServer, svc: TableService, alice: FakeUser, group: FakeChat
) -> tuple[int, str]:
    """A table opened by Alice with three AI seats, one hand played: its id and the group's score board."""
    tid, _ = await open_table(tg, alice, group, "changsha")
    await tg.wait_for(lambda _: alice.id in svc.tables[tid].seats)
    player = await start_hand(tg, alice, group, tid)
    await play_hand([player], hand_over(tg, group, t("note.result_title", "en", n=1)))
    await tg.wait_idle()
    return tid, await svc.leaderboard(group.id, "all", "en")


async def test_a_group_upgraded_to_a_supergroup_takes_its_table_and_scores(
    tg: FakeTelegramServer, tmp_path: Path
) -> None:
    """Before: the table stayed bound to the old id, every send was refused, and /newtable in the supergroup
    opened a second table while the old one stayed open forever."""
    alice = tg.add_user("Alice", started=True)
    group = tg.add_group("Mahjong", members=[alice], creator=alice)
    async with bot_running(tg, tmp_path / "bot.db") as app:
        svc = service(app)
        tid, board = await one_hand_played(tg, svc, alice, group)
        player = await start_hand(tg, alice, group, tid)  # hand 2 is on when the group is upgraded
        new = tg.migrate_group(group)
        await tg.wait_for(lambda _: svc.table_in(new.id) is not None, what="the table in the supergroup")
        rt = svc.tables[tid]
        assert rt.chat_id == new.id and svc.table_in(group.id) is None
        assert await svc.leaderboard(new.id, "all", "en") == board  # the scores came along
        # the table goes on in the supergroup: its message is posted there, the hand is played to the end
        await tg.wait_for(lambda _: any(f"#{tid}" in (m.text or "") for m in tg.bot_messages(new)))
        await play_hand([player], hand_over(tg, new, t("note.result_title", "en", n=2)))
        tg.send_text(alice, new, "/newtable")
        await tg.wait_for(lambda _: any(f"#{tid}" in (m.text or "") and "already" in (m.text or "")
                                        for m in tg.bot_messages(new)))  # fmt: skip
        await tg.wait_idle()
        assert [x.id for x in await svc.storage.open_tables()] == [tid]


async def test_the_bot_removed_mid_hand_closes_the_table_and_can_come_back(
    tg: FakeTelegramServer, tmp_path: Path
) -> None:
    """Before: removed mid-hand then re-added, /newtable answered "table exists" and no Start button ever
    came until /stop. Now the table closes (finished hands keep their scores, the hand in progress is
    abandoned and the player told in private); back in the group, /newtable opens a new one."""
    alice = tg.add_user("Alice", started=True)
    group = tg.add_group("Mahjong", members=[alice], creator=alice)
    async with bot_running(tg, tmp_path / "bot.db") as app:
        svc = service(app)
        tid, board = await one_hand_played(tg, svc, alice, group)
        await start_hand(tg, alice, group, tid)
        tg.remove_bot(group, alice)
        removed = t("dm.removed", "en")
        await tg.wait_for(lambda _: any(removed in (m.text or "") for m in tg.bot_messages(alice)))
        assert tid not in svc.tables
        assert [m for m in tg.bot_messages(alice) if any(d.startswith("g|") for d in m.callback_data)] == []
        first, second = await svc.storage.table_hands(tid)
        assert first.result is not None and "deltas" in first.result
        assert second.result is not None and second.result["reason"] == "abandoned"
        assert await svc.leaderboard(group.id, "all", "en") == board
        tg.add_bot(group, alice)
        await tg.wait_idle()
        tid2, _ = await open_table(tg, alice, group, "changsha")
        assert tid2 != tid
        await tg.wait_for(lambda _: alice.id in svc.tables[tid2].seats)
        await start_hand(tg, alice, group, tid2)


async def test_a_player_who_blocks_the_bot_goes_on_auto_play(tg: FakeTelegramServer, tmp_path: Path) -> None:
    alice = tg.add_user("Alice", started=True)
    group = tg.add_group("Mahjong", members=[alice])
    async with bot_running(tg, tmp_path / "bot.db") as app:
        svc = service(app)
        tid, _ = await open_table(tg, alice, group, "changsha")
        await tg.wait_for(lambda _: alice.id in svc.tables[tid].seats)
        await start_hand(tg, alice, group, tid)
        tg.block(alice)
        tg.send_text(alice, group, "/hand")  # the bot writes to him, and learns he blocked it
        done = hand_over(tg, group, t("note.result_title", "en", n=1))
        await tg.wait_for(lambda _: done(), what="the hand, played for the blocked player", timeout=15)
        [hand] = await svc.storage.table_hands(tid)
        assert hand.finished and hand.result is not None and "deltas" in hand.result
        # the group is told once, by a row of the outbox stored with the switch to auto-play, then deleted
        await quiet(app, tg)
        told = t("note.dm_lost", "en", name="Alice").split("(")[0]
        assert sum(told in (m.text or "") for m in tg.bot_messages(group)) == 1
        assert await svc.storage.unsent_posts(tid) == []


async def test_the_come_back_link_of_one_table_leaves_another_alone(
    tg: FakeTelegramServer, tmp_path: Path
) -> None:
    """The link the group gets when a player's private chat is lost (``/start b<table>``) brings him back at
    that table. It took him off auto-play at every table: 托管 he chose at another group's table too."""
    async with bot_running(tg, tmp_path / "bot.db") as app:
        svc = service(app)
        alice, bob, carol = (tg.add_user(n, started=True) for n in ("Alice", "Bob", "Carol"))
        one = tg.add_group("One", members=[alice, bob])
        two = tg.add_group("Two", members=[alice, carol])
        t1 = await seated_and_dealt(tg, app, one, alice, [bob])
        t2 = await seated_and_dealt(tg, app, two, carol, [alice])
        await quiet(app, tg)
        assert (await svc.auto_play(t1, alice.id)).ok  # 托管 at table 1, chosen
        assert (await svc.auto_play(t2, alice.id)).ok  # … and at table 2 (as a lost private chat does)
        await quiet(app, tg)
        s1, s2 = svc.tables[t1].seat_of(alice.id), svc.tables[t2].seat_of(alice.id)
        tg.send_text(alice, None, f"/start b{t2}")
        await quiet(app, tg)
        assert s1 in svc.tables[t1].live.auto and s2 not in svc.tables[t2].live.auto
        assert any(m.text == "Welcome back!" for m in tg.bot_messages(alice))
        # her chat lost (she blocked the bot: every table puts her on auto-play and posts its link), then
        # one link followed: back at both, her chat works again (it brought her back at that table only)
        tg.block(alice)
        tg.send_text(alice, two, "/hand")  # the bot writes to her, and learns she blocked it
        await tg.wait_for(lambda _: all(alice.id in svc.tables[t].live.dm_lost for t in (t1, t2)))
        tg.send_text(alice, None, f"/start b{t1}")
        await quiet(app, tg)
        assert all(alice.id not in svc.tables[t].live.dm_lost for t in (t1, t2))
        assert s1 not in svc.tables[t1].live.auto and s2 not in svc.tables[t2].live.auto


async def test_a_result_cut_off_by_a_stop_is_delivered_once_after_restart(
    tg: FakeTelegramServer, tmp_path: Path
) -> None:
    """Before: a stop within ~3 s of a hand's end lost its result notice (68 of 408 hands). Now the end of
    the hand marks its result due, in the same transaction, until the group has it."""
    db = tmp_path / "bot.db"
    alice = tg.add_user("Alice", started=True)
    group = tg.add_group("Mahjong", members=[alice])
    title = t("note.result_title", "en", n=1)
    async with bot_running(tg, db) as app:
        svc = service(app)
        tid, _ = await open_table(tg, alice, group, "changsha")
        await tg.wait_for(lambda _: alice.id in svc.tables[tid].seats)
        await start_hand(tg, alice, group, tid)
        rt = svc.tables[tid]
        async with rt.lock:  # the whole hand is logged, then the bot stops before showing anything
            while rt.state is not None and rt.state.phase != Phase.ENDED:
                from engine import legal_actions, to_act

                seat = to_act(rt.state)[0]
                await svc.play.commit(rt, legal_actions(rt.state, seat)[0])
        await tg.wait_idle()
    assert not any(title in (m.text or "") for m in tg.bot_messages(group))
    for _ in range(2):
        async with bot_running(tg, db) as app:
            await tg.wait_for(lambda _: any(title in (m.text or "") for m in tg.bot_messages(group)))
            await tg.wait_idle()
    assert sum(title in (m.text or "") for m in tg.bot_messages(group)) == 1
    # and the hand's panels and table message show its end, with no button left live
    assert last_with_button(tg, alice, f"g|{tid}|") is None


async def test_slow_telegram_does_not_duplicate_messages(tg: FakeTelegramServer, tmp_path: Path) -> None:
    """Before: with answers slower than PTB's 5 s read timeout, 47 of 60 sends were made more than once
    (the send landed, the client timed out and sent again, up to 7 times). Now the client waits for slow
    answers (``READ_TIMEOUT``), and a new message whose answer still comes too late is not sent again."""
    alice = tg.add_user("Alice", started=True)
    bob = tg.add_user("Bob")  # never opened a private chat: his Join makes the bot post a note
    group = tg.add_group("Mahjong", members=[alice, bob])
    async with bot_running(tg, tmp_path / "bot.db") as app:
        svc = service(app)
        tg.slow_next("sendMessage", 0.6, times=2)  # the lobby and the join DM answer late
        tid, lobby = await open_table(tg, alice, group, "changsha")
        await tg.wait_for(lambda _: alice.id in svc.tables[tid].seats)
        await tg.wait_idle()
        assert len(tg.calls_to("sendMessage")) == 2 and len(tg.bot_messages(alice)) == 1
    async with bot_running(tg, tmp_path / "bot.db", read_timeout=0.3) as app:
        tg.slow_next("sendMessage", 0.6)  # the note to Bob, answered after the client gave up
        tg.press(bob, group, lobby.message_id, f"L|{tid}|j")
        note = t("note.no_dm", "en", name="Bob")
        await tg.wait_for(lambda _: any(note in (m.text or "") for m in tg.bot_messages(group)))
        await tg.wait_idle()
        assert sum(note in (c.params.get("text") or "") for c in tg.calls_to("sendMessage")) == 1


def run_bot(tg: FakeTelegramServer, db: Path, **popen: object) -> subprocess.Popen[str]:
    env = dict(os.environ, TELEGRAM_BOT_TOKEN=tg.token, TELEGRAM_BASE_URL=tg.base_url, MAHJONG_DB=str(db))
    return subprocess.Popen(  # type: ignore[call-overload,no-any-return]
        [sys.executable, "-m", "bot"], cwd=ROOT, env=env, text=True, stderr=subprocess.PIPE, **popen
    )


async def wait_exit(proc: subprocess.Popen[str], timeout: float) -> tuple[int, str]:
    """The process's exit code and what it wrote to stderr, once it has ended (its pipes closed)."""
    loop = asyncio.get_running_loop()
    _, err = await asyncio.wait_for(loop.run_in_executor(None, proc.communicate), timeout)
    return proc.returncode, err or ""


async def test_a_second_bot_on_the_same_database_exits_without_touching_telegram(
    tg: FakeTelegramServer, tmp_path: Path
) -> None:
    """Before: two processes on one file fought over getUpdates (409), refused actions, doubled messages."""
    db = tmp_path / "bot.db"
    async with bot_running(tg, db):
        with pytest.raises(AlreadyRunning):
            build_application(tg.token, db, tg.base_url)
        mark = tg.mark()
        code, err = await wait_exit(run_bot(tg, db), 30)
        assert code == 3 and "another bot process" in err
        await tg.wait_idle()
        assert [c.method for c in tg.calls[mark:] if c.method != "getUpdates"] == []
    app = build_application(tg.token, db, tg.base_url)  # free again once the first has stopped
    assert app.post_shutdown is not None
    await app.post_shutdown(app)  # never started: only its lock to release


async def test_old_settings_file_is_imported_once_and_bad_values_never_stop_the_bot(
    tg: FakeTelegramServer, tmp_path: Path
) -> None:
    """Before: ``"auto": null`` or ``"claim_s": "30"`` in ``<db>.bot.json`` stopped the bot from starting,
    and with null the process hung at shutdown. Now the file is imported once (good values kept, bad ones
    skipped), renamed, never read again - and the bot, stopped with SIGTERM, exits promptly."""
    db = tmp_path / "bot.db"
    alice = tg.add_user("Alice", started=True, language_code="en")
    group = tg.add_group("Mahjong", members=[alice])
    async with bot_running(tg, db) as app:
        tid, _ = await open_table(tg, alice, group, "changsha")
        await tg.wait_idle()
    side = tmp_path / "bot.db.bot.json"
    side.write_text(json.dumps({
        "chats": {str(alice.id): {"lang": "zh"}, str(group.id): {"lang": "en"}, "x": None},
        "tables": {
            str(tid): {"claim_s": "30", "discard_s": 90, "auto": None, "ai": [1, 9], "creator": alice.id},
            "999": {"claim_s": 10},
        },
    }))  # fmt: skip
    proc = run_bot(tg, db)
    try:
        await tg.wait_for(lambda _: (tmp_path / "bot.db.bot.json.imported").exists(), timeout=30)
        await tg.wait_for_call("setMyCommands", timeout=30)
    finally:
        proc.send_signal(signal.SIGTERM)
        assert (await wait_exit(proc, 15))[0] == 0
    assert not side.exists()
    with sqlite3.connect(db) as c:
        row = c.execute("SELECT claim_s, discard_s, host FROM table_settings WHERE table_id = ?", (tid,))
        assert row.fetchone() == (30, 90, alice.id)  # "30" (a string) skipped: the default stays
        assert c.execute("SELECT language, language_chosen FROM players WHERE user_id = ?",
                         (alice.id,)).fetchone() == ("zh", 1)  # fmt: skip
        assert c.execute("SELECT language FROM chat_settings").fetchall() == [("en",)]
    (tmp_path / "bot.db.bot.json.imported").write_text("not json at all")  # never read again
    async with bot_running(tg, db) as app:
        svc = service(app)
        assert svc.tables[tid].settings.discard_s == 90 and svc.dm_lang(alice.id) == "zh"
