"""Restart: stop the bot in the middle of a hand, build a new Application on the same database, and every
table goes on where it was: the hand replayed from the action log, panels re-sent, timers re-armed."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import sqlite3
from collections.abc import Iterator
from pathlib import Path

from bot.table.service import TableService
from bot.text.texts import t
from bot.text.views import WARN_AT
from engine import Phase

from .bot_support import (
    Clock,
    Player,
    bot_running,
    game_buttons,
    hand_over,
    last_with_button,
    lobby_message,
    open_table,
    play_hand,
    press,
    quiet,
    run_timer_settled,
    seated_and_dealt,
    service,
    until_hands,
)
from .fake_telegram import FakeChat, FakeTelegramServer, FakeUser


def alice_and_her_group(tg: FakeTelegramServer, tmp_path: Path) -> tuple[Path, Clock, FakeUser, FakeChat]:
    """A database file, a clock, Alice (who has started the bot) and a group with her in it."""
    alice = tg.add_user("Alice", started=True)
    return tmp_path / "bot.db", Clock(), alice, tg.add_group("Mahjong", members=[alice])


async def alone_at_a_hand(
    tg: FakeTelegramServer, svc: TableService, alice: FakeUser, group: FakeChat, variant: str = "changsha"
) -> int:
    """Alice opens a table (Changsha unless ``variant`` says), starts it with three AI seats and has her first
    decision; its id."""
    tid, _ = await open_table(tg, alice, group, variant)
    await tg.wait_for(lambda _: alice.id in svc.tables[tid].seats)
    lobby = await lobby_message(tg, group, tid)
    tg.press(alice, group, lobby.message_id, f"L|{tid}|go")
    assert await Player(tg, alice, tid).wait_decision(lambda: False) is not None
    return tid


async def two_at_a_table(
    tg: FakeTelegramServer, svc: TableService, alice: FakeUser, bob: FakeUser, group: FakeChat, variant: str
) -> tuple[int, list[Player]]:
    """Alice opens a table, Bob joins, Alice starts the hand (two AI seats): its id and the two players."""
    tid, _ = await open_table(tg, alice, group, variant)
    lobby = await lobby_message(tg, group, tid, "j")
    tg.press(bob, group, lobby.message_id, f"L|{tid}|j")
    await tg.wait_for(lambda _: bob.id in svc.tables[tid].seats)
    tg.press(alice, group, lobby.message_id, f"L|{tid}|go")
    return tid, [Player(tg, alice, tid), Player(tg, bob, tid)]


async def test_restart_mid_hand_goes_on_where_it_was(tg: FakeTelegramServer, tmp_path: Path) -> None:
    db = tmp_path / "bot.db"
    clock = Clock()
    alice, bob = tg.add_user("Alice", started=True), tg.add_user("Bob", started=True, language_code="zh")
    group = tg.add_group("Mahjong", members=[alice, bob])
    lobby_group = tg.add_group("Lobby only", members=[bob])
    async with bot_running(tg, db, clock) as app:
        svc = service(app)
        tid, players = await two_at_a_table(tg, svc, alice, bob, group, "hengyang")
        for _ in range(6):  # a few decisions into the hand
            await tg.wait_for(lambda _: any(p.decision() for p in players))
            for p in players:
                d = p.decision()
                if d is not None:
                    p.press(*d[:1], d[1][0])
        await tg.wait_idle()
        other, _ = await open_table(tg, bob, lobby_group, "sichuan")  # a second table, still in its lobby
        await tg.wait_idle()
        rt = svc.tables[tid]
        assert rt.state is not None and rt.state.phase != Phase.ENDED
        before = rt.state
        pending_before = set(rt.live.pending)
        table_message = rt.settings.table_msg
        deadlines = {s: p.deadline for s, p in rt.live.pending.items()}
        panels = {p.user.id: last_with_button(tg, p.user, f"g|{tid}|") for p in players}
        assert pending_before and table_message is not None

    clock.advance(5)  # the bot was down for a few seconds
    mark = tg.mark()
    async with bot_running(tg, db, clock) as app2:
        svc2 = service(app2)
        assert set(svc2.tables) == {tid, other}
        rt2 = svc2.tables[tid]
        assert rt2.state is not None
        assert rt2.state.version == before.version and rt2.state.seats == before.seats
        assert rt2.hand is not None and rt2.hand.seats == tuple(rt.hand_seats())
        # timers re-armed: one for the table, due a full decision time from now
        wakes = [p.deadline - (0 if p.warned else WARN_AT) for p in rt2.live.pending.values()]  # warnings too
        assert svc2.timers.deadline(tid) == min(wakes)  # type: ignore[attr-defined]
        assert set(rt2.live.pending) == pending_before
        # each decision keeps its deadline: the restart did not delay anyone beyond his timer
        assert {s: p.deadline for s, p in rt2.live.pending.items()} == deadlines
        assert svc2.tables[other].state is None and bob.id in svc2.tables[other].seats
        await tg.wait_idle()
        # invisible: nothing new in the group or in private, the messages of before are edited in place
        assert [c for c in tg.calls_to("sendMessage") if c.seq >= mark] == []
        assert not any("restarted" in (m.text or "") for m in tg.bot_messages(group))
        assert rt2.settings.table_msg == table_message
        for p in players:
            seat = rt2.seats.index(p.user.id)
            live = [m for m in tg.bot_messages(p.user) if game_buttons(m, tid)]
            assert len(live) <= 1  # no stale keyboard left live
            if seat in rt2.live.pending:
                assert live == [panels[p.user.id]]
        done = hand_over(tg, group, t("note.result_title", "en", n=1))
        await play_hand(players, done)
        await tg.wait_idle()
        assert rt2.state is None and rt2.hands_played == 1
        [hand] = await svc2.storage.table_hands(tid)
        assert hand.finished and hand.result is not None and "deltas" in hand.result


async def test_restart_finishes_a_hand_whose_ai_moves_were_not_made(
    tg: FakeTelegramServer, tmp_path: Path
) -> None:
    """Stopped right after a human action was logged, before the AI seats moved: they move on restart."""
    db, clock, alice, group = alice_and_her_group(tg, tmp_path)
    async with bot_running(tg, db, clock) as app:
        svc = service(app)
        tid = await alone_at_a_hand(tg, svc, alice, group)
        rt = svc.tables[tid]
        seat = rt.seats.index(alice.id)
        action = rt.live.pending[seat].legal[0]
        # log Alice's action the way press() does, without letting the AI seats answer
        async with rt.lock:
            await svc.play.commit(rt, action)
        version = rt.state.version if rt.state else 0
        await tg.wait_idle()
    async with bot_running(tg, db, clock) as app2:
        rt2 = service(app2).tables[tid]
        assert rt2.state is None or rt2.state.version > version  # the AI seats moved on
        await tg.wait_idle()


async def test_a_hand_that_no_longer_replays_is_abandoned(tg: FakeTelegramServer, tmp_path: Path) -> None:
    """If the engine's rules changed under a stored hand, the table goes back to its lobby; the reason (which
    quotes logged actions, hidden tiles included) stays out of the chat."""
    db = tmp_path / "bot.db"
    alice = tg.add_user("Alice", started=True)
    group = tg.add_group("Mahjong", members=[alice])
    async with bot_running(tg, db, Clock()) as app:
        svc = service(app)
        tid, _ = await open_table(tg, alice, group, "changsha")
        await tg.wait_for(lambda _: alice.id in svc.tables[tid].seats)
        lobby = await lobby_message(tg, group, tid)
        tg.press(alice, group, lobby.message_id, f"L|{tid}|go")
        player = Player(tg, alice, tid)
        decision = await player.wait_decision(lambda: False)
        assert decision is not None
        player.press(decision[0], decision[1][0])
        await player.wait_decision(lambda: svc.tables[tid].state is None)
        await tg.wait_idle()
        hand_id = svc.tables[tid].hand.id  # type: ignore[union-attr]
    with sqlite3.connect(db) as conn:  # another deal: the logged actions no longer fit it
        conn.execute("UPDATE hands SET seed = seed + 1 WHERE id = ?", (hand_id,))
    mark = tg.mark()
    async with bot_running(tg, db, Clock()) as app2:
        rt = service(app2).tables[tid]
        assert rt.state is None and rt.hand is None
        await tg.wait_idle()
        notes = [c.params["text"] for c in tg.calls_to("sendMessage", chat_id=group.id) if c.seq >= mark]
        assert any("could not be restored" in n for n in notes)
        assert not any(re.search(r"\d (discard|kong|pung|chow) ", n) or "replay" in n for n in notes)
        assert last_with_button(tg, group, f"L|{tid}|go") is not None  # the lobby, for a new hand
        hand = await service(app2).storage.get_hand(hand_id)
        assert hand.finished and hand.result == {"reason": "abandoned", "note": "does not replay"}


async def test_a_panel_sent_just_before_a_crash_loses_its_buttons_when_pressed(
    tg: FakeTelegramServer, tmp_path: Path
) -> None:
    """A kill between Telegram sending a new panel and its id being stored: after the restart the stored
    (older) panel is edited in place and the newer one, unknown to the bot, still shows buttons. A press on
    it is handled as any press on its decision, and its buttons go: no stale keyboard stays live."""
    db, clock, alice, group = alice_and_her_group(tg, tmp_path)
    async with bot_running(tg, db, clock) as app:
        svc = service(app)
        tid = await alone_at_a_hand(tg, svc, alice, group)
        await tg.wait_idle()
        stored = last_with_button(tg, alice, f"g|{tid}|")
        assert stored is not None
        tg.send_text(alice, None, "/hand")  # the panel again, as a new message
        await tg.wait_for(lambda _: last_with_button(tg, alice, f"g|{tid}|") is not stored)
        await tg.wait_idle()
        await svc.storage.set_panel(tid, alice.id, stored.message_id)  # its id never reached the database
    async with bot_running(tg, db, clock):
        await tg.wait_idle()
        live = [m for m in tg.bot_messages(alice) if game_buttons(m, tid)]
        assert len(live) == 2 and live[0] is stored  # edited in place; the newer one is not known
        unknown = live[1]
        query = tg.press(alice, alice.id, unknown.message_id, game_buttons(unknown, tid)[0])
        await tg.wait_for(lambda _: query.answered)
        await tg.wait_idle()
        assert (query.text or "").startswith("✔")  # the same decision: the press counts
        assert not game_buttons(tg.message(alice.id, unknown.message_id), tid)
        assert [m for m in tg.bot_messages(alice) if game_buttons(m, tid)] in ([], [stored])


async def test_a_result_cut_off_by_a_stop_reaches_each_player_once_after_the_restart(
    tg: FakeTelegramServer, tmp_path: Path
) -> None:
    """The transactional outbox: the hand's final action is committed, but its players' results
    have not reached their private chats when the bot stops (those chats unreachable for the moment, the
    requests never got through). After the restart each player gets his result - the one written with the
    final action, his total included - exactly once, and the outbox is empty."""
    db = tmp_path / "bot.db"
    clock = Clock()
    alice, bob = tg.add_user("Alice", started=True), tg.add_user("Bob", started=True, language_code="zh")
    group = tg.add_group("Mahjong", members=[alice, bob])
    async with bot_running(tg, db, clock) as app:
        svc = service(app)
        tid, players = await two_at_a_table(tg, svc, alice, bob, group, "changsha")
        await tg.wait_for(lambda _: any(p.decision() for p in players))
        await tg.wait_idle()  # both panels are out: from here on they are edited, nothing new is sent
        for p in players:
            tg.hold("sendMessage", p.user)

        def cut_off() -> bool:
            return {c.params["chat_id"] for c in tg.held_calls()} == {alice.id, bob.id}

        await play_hand(players, cut_off)
        held = {c.params["chat_id"]: c.params["text"] for c in tg.held_calls()}
        assert t("dm.result_title", "en", tid=tid, n=1) in held[alice.id]
        assert t("dm.result_title", "zh", tid=tid, n=1) in held[bob.id]
        [hand] = await svc.storage.table_hands(tid)
        assert hand.finished  # committed: only the sending is cut off
    tg.release()
    assert all(not c.ok for c in tg.calls_to("sendMessage", chat_id=alice.id) if c.held)

    async with bot_running(tg, db, clock) as app2:
        await tg.wait_idle()
        for p in players:
            results = [m.text for m in tg.bot_messages(p.user) if "hand 1 settled" in (m.text or "")
                       or "第 1 局结算" in (m.text or "")]  # fmt: skip
            assert results == [held[p.user.id]], p.user.first_name
        assert await service(app2).storage.unsent_posts() == []
    async with bot_running(tg, db, clock):  # and a second restart sends nothing again
        mark = tg.mark()
        await tg.wait_idle()
        assert [c for c in tg.calls_to("sendMessage") if c.seq >= mark] == []


@contextlib.contextmanager
def refusals(words: str) -> Iterator[asyncio.Event]:
    """An event set once the presenter logs a warning containing ``words`` (a write the database refused)."""
    seen = asyncio.Event()

    class Watch(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            if words in record.getMessage():
                seen.set()

    logger = logging.getLogger("bot.table.present")
    logger.addHandler(handler := Watch(logging.WARNING))
    try:
        yield seen
    finally:
        logger.removeHandler(handler)


def full_disk(db: Path, when: str, table: str) -> None:
    """A trigger that refuses ``when`` (INSERT, DELETE) on ``table`` as a full disk would."""
    with sqlite3.connect(db) as c:
        c.execute(
            f"CREATE TRIGGER full_disk BEFORE {when} ON {table} "
            "BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END"
        )


def disk_freed(db: Path) -> None:
    with sqlite3.connect(db) as c:
        c.execute("DROP TRIGGER full_disk")


async def test_a_panel_id_the_database_refused_is_stored_at_the_next_move(
    tg: FakeTelegramServer, tmp_path: Path
) -> None:
    """The database refuses to store the id of a player's new panel (a trigger stands in for a full disk):
    the bot keeps it and stores it at the table's next move, so that a restart edits the panel the player
    sees, not an older message beside it."""
    db = tmp_path / "bot.db"
    alice = tg.add_user("Alice", started=True)
    group = tg.add_group("Mahjong", members=[alice])

    def stored_panels() -> dict[int, int]:
        with sqlite3.connect(db) as c:
            return dict(c.execute("SELECT user_id, message_id FROM panels"))

    with refusals("message id not stored") as refused:
        async with bot_running(tg, db) as app:
            svc = service(app)
            full_disk(db, "INSERT", "panels")
            tid = await alone_at_a_hand(tg, svc, alice, group)
            panel = last_with_button(tg, alice, f"g|{tid}|")
            assert panel is not None
            await asyncio.wait_for(refused.wait(), 10)
            assert stored_panels() == {}
            disk_freed(db)
            me = Player(tg, alice, tid)
            found = await me.wait_decision(lambda: False)
            assert found is not None
            me.press(found[0], found[1][0])
            await tg.wait_for(
                lambda _: stored_panels() == {alice.id: panel.message_id}, what="the panel's id stored"
            )


async def test_a_sent_message_the_database_would_not_delete_is_deleted_at_the_next_move(
    tg: FakeTelegramServer, tmp_path: Path
) -> None:
    """A one-off message is sent, but the database refuses to delete its outbox row (a trigger stands in for
    a full disk): the row is deleted at the table's next move, so no later start sends the message again."""
    db = tmp_path / "bot.db"
    alice = tg.add_user("Alice", started=True)
    bob = tg.add_user("Bob", started=True)
    group = tg.add_group("Mahjong", members=[alice, bob])

    def outbox() -> list[str]:
        with sqlite3.connect(db) as c:
            return [r[0] for r in c.execute("SELECT text FROM outbox")]

    with refusals("a sent message stays in the outbox") as refused:
        async with bot_running(tg, db) as app:
            svc = service(app)
            tid, players = await two_at_a_table(tg, svc, alice, bob, group, "changsha")
            await players[0].wait_decision(lambda: False)
            full_disk(db, "DELETE", "outbox")
            panel = last_with_button(tg, alice, f"A|{tid}")  # 托管: the group is told, by a one-off message
            assert panel is not None
            assert await press(tg, alice, panel, f"A|{tid}") == t("ans.auto", "en")
            await asyncio.wait_for(refused.wait(), 10)
            assert any("auto-play" in text for text in outbox())  # sent, and still there
            disk_freed(db)
            found = await players[1].wait_decision(lambda: False)
            assert found is not None
            players[1].press(found[0], found[1][0])
            await tg.wait_for(lambda _: outbox() == [], what="the sent message's row deleted")


async def test_a_restart_keeps_how_each_win_was_made(tg: FakeTelegramServer, tmp_path: Path) -> None:
    """血战到底: the hand goes on after a win, and its result names how each win was made (自摸, or who dealt
    in), which the observation does not say. After a restart the table has them from the replay of the log
    that rebuilt it (storage/facts.py ``Facts.ways``)."""
    db, clock, alice, group = alice_and_her_group(tg, tmp_path)
    async with bot_running(tg, db, clock) as app:
        svc = service(app)
        tid = await alone_at_a_hand(tg, svc, alice, group, "sichuan")
        player = Player(tg, alice, tid)
        rt = svc.tables[tid]

        def won() -> bool:
            return rt.hand is not None and bool(rt.live.facts.ways)

        while not won():
            decision = await player.wait_decision(won)
            if decision is not None and not won():
                player.press(decision[0], decision[1][0])
            await tg.wait_idle()
        assert rt.state is not None and rt.state.phase != Phase.ENDED  # 血战: the hand goes on
        ways = rt.live.facts.ways
    async with bot_running(tg, db, clock) as app2:
        rt2 = service(app2).tables[tid]
        assert rt2.state is not None and rt2.state.version == rt.state.version
        assert rt2.live.facts.ways == ways
        await tg.wait_idle()


async def test_a_kill_between_a_hands_end_and_what_follows_is_made_good(
    tg: FakeTelegramServer, tmp_path: Path
) -> None:
    """A hand's final action is stored first; the ready phase, or at the room's last hand its close and
    大结算, follow. A kill in between left, after the restart, a lobby with no ready phase (Ready answered
    "nothing to get ready for", the night waited for the host) or a room of 4 hands open after its 4th
    (Start dealt a 5th, no 大结算). The restart now does what the kill cut off (``Night.resume``). The kill's
    state is made here by storing the table as the kill leaves it."""
    clock = Clock()
    db = tmp_path / "bot.db"
    alice, bob = tg.add_user("Alice", started=True), tg.add_user("Bob", started=True)
    group = tg.add_group("Mahjong", members=[alice, bob])
    async with bot_running(tg, db, clock, seed_base=300) as app:
        svc = service(app)
        tid = await seated_and_dealt(tg, app, group, alice, (bob,))
        await until_hands(app, svc, clock, tid, tg, 1)
        await svc.storage.update_settings(tid, ready_until=None, ready=())  # killed before the ready phase:
    with contextlib.closing(sqlite3.connect(db)) as con, con:  # … and before its result reached the group
        con.execute("UPDATE hands SET result_delivered = 0 WHERE table_id = ?", (tid,))
    async with bot_running(tg, db, clock, seed_base=300) as app:
        svc = service(app)
        rt = svc.tables[tid]
        assert rt.settings.ready_until is not None and svc.timers.deadline(tid) is not None
        assert await press(tg, bob, await lobby_message(tg, group, tid), f"L|{tid}|y") == t("ans.ready", "en")
        await until_hands(app, svc, clock, tid, tg, 4)
        await svc.storage.update_settings(tid, rounds=4, ready_until=None, ready=())  # … before the close
    async with bot_running(tg, db, clock, seed_base=300) as app:
        svc = service(app)
        await quiet(app, tg)
        assert tid not in svc.tables
        assert [h.number for h in await svc.storage.table_hands(tid)] == [1, 2, 3, 4]
        final = tg.bot_messages(group)[-1]
        assert "Final summary" in (final.text or "") and "hands played: 4" in (final.text or "")


async def test_a_restart_leaves_a_lobby_that_waits_for_the_hosts_start(
    tg: FakeTelegramServer, tmp_path: Path
) -> None:
    """The other side of the last test: a lobby without a ready phase because nobody was seated when the
    ready timer ran out waits for the host's Start; a restart does not start a ready phase for it (which
    would deal the player who sat down since, on auto-play, without a Start)."""
    clock = Clock()
    db = tmp_path / "bot.db"
    alice, bob = tg.add_user("Alice", started=True), tg.add_user("Bob", started=True)
    group = tg.add_group("Mahjong", members=[alice, bob])
    async with bot_running(tg, db, clock, seed_base=300) as app:
        svc = service(app)
        tid = await seated_and_dealt(tg, app, group, alice, ())
        await until_hands(app, svc, clock, tid, tg, 1)
        lobby = await lobby_message(tg, group, tid, "y")
        assert await press(tg, alice, lobby, f"L|{tid}|l") == "You left the table"
        await run_timer_settled(app, svc, clock, tid, tg)  # the ready timer, nobody seated: no deal
        assert await press(tg, bob, lobby, f"L|{tid}|j") == "You're seated"
        rt = svc.tables[tid]
        assert rt.settings.ready_until is None and not rt.playing
    async with bot_running(tg, db, clock, seed_base=300) as app:
        svc = service(app)
        rt = svc.tables[tid]
        assert rt.settings.ready_until is None and not rt.playing and svc.timers.deadline(tid) is None
