"""Lobby and stop-vote input that used to bend the rules (a hostile-input audit, 2026-12-06): Join / Leave
presses that spammed the group, a Leave that changed a vote's voters, a removed member's forged vote between
hands, a vote lost in a group's move to a supergroup, and a Leave that should have dealt the next hand."""

from __future__ import annotations

from pathlib import Path

from bot.text.texts import t

from .bot_support import (
    Clock,
    bot_running,
    command,
    lobby_message,
    open_table,
    press,
    quiet,
    seated_and_dealt,
    service,
    until_hands,
)
from .fake_telegram import FakeTelegramServer


async def test_join_and_leave_without_a_private_chat_post_the_note_once(
    tg: FakeTelegramServer, tmp_path: Path
) -> None:
    """docs/security.md: a member who never started the bot presses Join and Leave over and over; the group
    is told once to open a private chat (each note used to be a new group message: the group's 20 a
    minute went on them, and the table's own messages waited behind)."""
    alice = tg.add_user("Alice", started=True)
    mallory = tg.add_user("Mallory")  # never started the bot
    group = tg.add_group("Mahjong", members=[alice, mallory])
    async with bot_running(tg, tmp_path / "bot.db", Clock()) as app:
        tid, lobby = await open_table(tg, alice, group, "changsha")
        await quiet(app, tg)
        lobby = await lobby_message(tg, group, tid, "j")
        mark = tg.mark()
        for _ in range(8):
            await press(tg, mallory, lobby, f"L|{tid}|j")
            await press(tg, mallory, lobby, f"L|{tid}|l")
        await quiet(app, tg)
        sends = [c for c in tg.calls_to("sendMessage", chat_id=group.id) if c.seq >= mark]
        assert len(sends) <= 1, f"{len(sends)} new group messages from one member's Join/Leave presses"


async def test_nobody_leaves_during_a_stop_vote(tg: FakeTelegramServer, tmp_path: Path) -> None:
    """docs/security.md: "A stop vote's voters are the players seated when it was asked (nobody joins while it
    is open, the seat count and its rule wait for its end)": nor does anyone leave. Four players, Alice asks
    (yes), Bob agrees (2 of 4, 3 needed), Dave's Leave is refused, Carol refuses: the table stays (it used
    to close with 2 of the 4 agreeing)."""
    alice, bob = tg.add_user("Alice", started=True), tg.add_user("Bob", started=True)
    carol, dave = tg.add_user("Carol", started=True), tg.add_user("Dave", started=True)
    async with bot_running(tg, tmp_path / "bot.db", Clock()) as app:
        svc = service(app)
        group = tg.add_group("Mahjong", members=[alice, bob, carol, dave])
        tid, lobby = await open_table(tg, alice, group, "changsha")
        for u in (bob, carol, dave):
            assert "seated" in await press(tg, u, lobby, f"L|{tid}|j")
        rt = svc.tables[tid]
        await tg.wait_for(lambda _: None not in rt.seats)
        assert "asks to stop" in await command(tg, alice, group, "/stop")
        vote = rt.settings.vote
        await quiet(app, tg)
        msg = next(m for m in reversed(tg.bot_messages(group)) if f"V|{tid}|{vote}|1" in m.callback_data)
        assert "agree" in (await press(tg, bob, msg, f"V|{tid}|{vote}|1")).lower()
        lobby = await lobby_message(tg, group, tid, "j")
        assert await press(tg, dave, lobby, f"L|{tid}|l") == t("ans.vote.leave", "en")
        assert dave.id in rt.seats
        await press(tg, carol, msg, f"V|{tid}|{vote}|0")
        await quiet(app, tg)
        assert not rt.closed


async def test_the_last_player_not_ready_leaves_and_the_hand_is_dealt(
    tg: FakeTelegramServer, tmp_path: Path
) -> None:
    """Between hands Alice and Bob are ready, Carol leaves instead of pressing Ready: everyone seated is
    ready, so the hand is dealt at once, as when the last of them presses Ready (it used to wait for the
    ready timer)."""
    clock = Clock()
    alice, bob, carol = (tg.add_user(n, started=True) for n in ("Alice", "Bob", "Carol"))
    group = tg.add_group("Mahjong", members=[alice, bob, carol])
    async with bot_running(tg, tmp_path / "bot.db", clock) as app:
        svc = service(app)
        tid = await seated_and_dealt(tg, app, group, alice, (bob, carol))
        rt = svc.tables[tid]
        await until_hands(app, svc, clock, tid, tg, 1)
        lobby = await lobby_message(tg, group, tid, "y")
        for u in (alice, bob):
            assert "ready" in (await press(tg, u, lobby, f"L|{tid}|y")).lower()
        assert "left" in (await press(tg, carol, lobby, f"L|{tid}|l")).lower()
        await quiet(app, tg)
        assert rt.playing


async def test_a_removed_player_opens_no_stop_vote_between_hands(
    tg: FakeTelegramServer, tmp_path: Path
) -> None:
    """docs/security.md: Mallory, seated, is removed from the group after hand 1; between hands he still
    holds his seat until Ready or the ready timer. A forged 申请解散 press on his own private panel used to
    open a stop vote in a group he is no longer in; Telegram is asked, and he leaves his seat instead."""
    clock = Clock()
    alice, bob = tg.add_user("Alice", started=True), tg.add_user("Bob", started=True)
    mallory = tg.add_user("Mallory", started=True)
    group = tg.add_group("Mahjong", members=[alice, bob, mallory])
    async with bot_running(tg, tmp_path / "bot.db", clock) as app:
        svc = service(app)
        tid = await seated_and_dealt(tg, app, group, alice, (bob, mallory))
        rt = svc.tables[tid]
        await until_hands(app, svc, clock, tid, tg, 1)
        assert not rt.playing and rt.settings.ready_until is not None
        tg.set_member(group, mallory, "kicked")
        clock.advance(61)  # past the membership cache
        own = tg.bot_messages(mallory)[-1]  # any message of the bot in his private chat
        q = tg.press_raw(mallory, own, f"V|{tid}|0|1")
        await tg.wait_for(lambda _: q.answered)
        await quiet(app, tg)
        assert rt.settings.vote_until is None and q.text == t("ans.vote.not_member", "en")
        assert mallory.id not in rt.seats


async def test_a_stop_vote_follows_the_group_to_its_supergroup(
    tg: FakeTelegramServer, tmp_path: Path
) -> None:
    """A group becomes a supergroup while a stop vote is open: the new chat shows its tally with the Agree /
    Refuse buttons (a player the bot cannot reach in private has only those), and an answer there counts."""
    alice, bob, carol = (tg.add_user(n, started=True) for n in ("Alice", "Bob", "Carol"))
    group = tg.add_group("Mahjong", members=[alice, bob, carol], creator=alice)
    async with bot_running(tg, tmp_path / "bot.db", Clock()) as app:
        svc = service(app)
        tid, lobby = await open_table(tg, alice, group, "changsha")
        for u in (bob, carol):
            await press(tg, u, lobby, f"L|{tid}|j")
        rt = svc.tables[tid]
        await tg.wait_for(lambda _: bob.id in rt.seats and carol.id in rt.seats)
        lobby = await lobby_message(tg, group, tid)
        await press(tg, alice, lobby, f"L|{tid}|go")
        await tg.wait_for(lambda _: rt.playing)
        assert "asks to stop" in await command(tg, bob, group, "/stop")
        await quiet(app, tg)
        vote = rt.settings.vote
        new = tg.migrate_group(group)
        await tg.wait_for(lambda _: rt.chat_id == new.id, what="the table moved")
        await quiet(app, tg)
        tally = [m for m in tg.bot_messages(new) if f"V|{tid}|{vote}|1" in m.callback_data]
        assert tally
        # answered in the new group: the vote decides
        await press(tg, carol, tally[-1], f"V|{tid}|{vote}|1")
        await quiet(app, tg)
        assert rt.closed


async def test_a_removed_player_does_not_change_an_open_votes_voters(
    tg: FakeTelegramServer, tmp_path: Path
) -> None:
    """docs/security.md: a vote's voters are those seated when it was asked. Dave, removed from the group
    before Alice asked, presses Refuse: he is told he cannot vote, and keeps his seat until the vote ends (he
    used to be unseated mid-vote, leaving a tally of 2 of 3 that nothing decided until the countdown)."""
    clock = Clock()
    alice, bob = tg.add_user("Alice", started=True), tg.add_user("Bob", started=True)
    carol, dave = tg.add_user("Carol", started=True), tg.add_user("Dave", started=True)
    group = tg.add_group("Mahjong", members=[alice, bob, carol, dave])
    async with bot_running(tg, tmp_path / "bot.db", clock) as app:
        svc = service(app)
        tid, lobby = await open_table(tg, alice, group, "changsha")
        for u in (bob, carol, dave):
            assert "seated" in await press(tg, u, lobby, f"L|{tid}|j")
        rt = svc.tables[tid]
        tg.set_member(group, dave, "kicked")
        clock.advance(61)  # past the membership cache
        assert "asks to stop" in await command(tg, alice, group, "/stop")
        vote = rt.settings.vote
        await quiet(app, tg)
        msg = next(m for m in reversed(tg.bot_messages(group)) if f"V|{tid}|{vote}|1" in m.callback_data)
        await press(tg, bob, msg, f"V|{tid}|{vote}|1")  # 2 of 4, 3 needed
        assert await press(tg, dave, msg, f"V|{tid}|{vote}|0") == t("ans.vote.not_member", "en")
        assert dave.id in rt.seats and rt.settings.vote_no == () and not rt.closed
