"""Who may act at a table: joining needs membership of the group (getChatMember), deep links
cannot be guessed and never show a stranger the group's title, settings and Start belong to the table's
host and the group's admins, edited messages and channel posts run no command, and what users type is
capped and cleaned before it is stored or quoted back."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.table.settings import PAUSE_CHOICES

from .bot_support import Clock, bot_running, lobby_message, open_table, service, setting
from .fake_telegram import FakeChat, FakeTelegramServer, FakeUser

TITLE = "Secret Mahjong Club"


async def _press(tg: FakeTelegramServer, user: FakeUser, chat: FakeChat, data: str) -> str:
    """A press (forged or not) on the table's lobby message in ``chat``; returns its answer."""
    message = next(m for m in reversed(tg.bot_messages(chat)) if m.callback_data)
    query = tg.press(user, chat, message.message_id, data, check=False)
    await tg.wait_for(lambda _: query.answered, what=f"the answer to {data}")
    return query.text or ""


async def _private(tg: FakeTelegramServer, user: FakeUser, text: str) -> str:
    """``text`` sent in the user's private chat; returns the bot's reply."""
    mark = tg.mark()
    tg.send_text(user, None, text)
    call = await tg.wait_for_call("sendMessage", chat_id=user.id, since=mark)
    assert call.ok, call  # Telegram took the reply
    return str(call.params.get("text", ""))


async def _group(tg: FakeTelegramServer, user: FakeUser, group: FakeChat, text: str) -> str:
    mark = tg.mark()
    tg.send_text(user, group, text)
    call = await tg.wait_for_call("sendMessage", chat_id=group.id, since=mark)
    assert call.ok, call  # Telegram took the reply
    return str(call.params.get("text", ""))


async def test_a_stranger_cannot_join_by_deep_link_or_forged_press(
    tg: FakeTelegramServer, tmp_path: Path
) -> None:
    """`/start j<id>` in private (ids count up) seated a stranger and told him the group's title;
    a forged L|<id>|j press did the same."""
    alice = tg.add_user("Alice", started=True)
    mallory = tg.add_user("Mallory", started=True)  # not in the group
    group = tg.add_group(TITLE, members=[alice])
    async with bot_running(tg, tmp_path / "bot.db", Clock()) as app:
        svc = service(app)
        tid, _ = await open_table(tg, alice, group, "changsha")
        rt = svc.tables[tid]
        await tg.wait_for(lambda _: alice.id in rt.seats)

        reply = await _private(tg, mallory, f"/start j{tid}")  # a guessed link
        assert mallory.id not in rt.seats and TITLE not in reply
        assert "not valid" in reply
        signed = svc.links.payload(tid)  # a real link, passed on outside the group
        assert signed != f"j{tid}" and svc.links.table(signed) == tid
        assert svc.links.table(f"j{tid + 1}{signed[len(str(tid)) + 1 :]}") is None  # made for one table only
        reply = await _private(tg, mallory, f"/start {signed}")
        assert mallory.id not in rt.seats and TITLE not in reply
        assert "Only members of this group" in reply
        answer = await _press(tg, mallory, group, f"L|{tid}|j")  # a forged press on the lobby
        assert answer == "Only members of this group can join this table"
        await tg.wait_idle()
        assert mallory.id not in rt.seats and rt.waiting_dm == set()
        assert not any(TITLE in (m.text or "") for m in tg.bot_messages(mallory))


@pytest.mark.parametrize(
    ("status", "joins"),
    [("member", True), ("restricted", True), ("restricted-left", False), ("left", False), ("kicked", False)],
)
async def test_membership_statuses(tg: FakeTelegramServer, tmp_path: Path, status: str, joins: bool) -> None:
    """Members are creator, administrator, member, and restricted users still in the chat (is_member)."""
    alice, carol = tg.add_user("Alice", started=True), tg.add_user("Carol", started=True)
    group = tg.add_group(TITLE, members=[alice])
    if status.startswith("restricted"):
        tg.set_restricted(group, carol, is_member=status == "restricted")
    else:
        tg.set_member(group, carol, status)
    async with bot_running(tg, tmp_path / "bot.db", Clock()) as app:
        svc = service(app)
        tid, _ = await open_table(tg, alice, group, "changsha")
        answer = await _press(tg, carol, group, f"L|{tid}|j")
        assert (carol.id in svc.tables[tid].seats) == joins
        assert answer == ("You're seated" if joins else "Only members of this group can join this table")


async def test_settings_and_start_belong_to_the_host_and_admins(
    tg: FakeTelegramServer, tmp_path: Path
) -> None:
    """An empty lobby could be changed by anyone, even a non-member through a forged press."""
    alice, bob = tg.add_user("Alice", started=True), tg.add_user("Bob", started=True)
    erin, mallory = tg.add_user("Erin", started=True), tg.add_user("Mallory", started=True)
    group = tg.add_group(TITLE, members=[alice, bob], admins=[erin])
    async with bot_running(tg, tmp_path / "bot.db", Clock()) as app:
        svc = service(app)
        tid, _ = await open_table(tg, alice, group, "xiangyin")
        rt = svc.tables[tid]
        assert await _press(tg, bob, group, f"L|{tid}|j") == "You're seated"
        assert await _press(tg, alice, group, f"L|{tid}|l") == "You left the table"
        await tg.wait_idle()

        def lobby_state() -> object:
            return (list(rt.seats), dict(rt.options), rt.settings, rt.playing)

        before = lobby_state()
        for op in ("a", "r", "s", "b", "o|0", "v|0|1", "m|0", "go"):
            assert await _press(tg, bob, group, f"L|{tid}|{op}") == (
                "Only the table's host or a group admin can change settings or start"
            ), op
            assert await _press(tg, mallory, group, f"L|{tid}|{op}") == (
                "Only members of this group can join this table"
            ), op
        assert await _press(tg, mallory, group, f"L|{tid}|l") == "You're not seated at this table"
        await tg.wait_idle()
        assert lobby_state() == before

        # the host (seated or not) and an admin may
        pause = rt.settings.pause_s
        other = next(p for p in PAUSE_CHOICES if p != pause)
        assert await _press(tg, alice, group, setting(svc, tid, "pause_s", other)) == "OK"
        assert rt.settings.pause_s != pause and rt.settings.pause_s in PAUSE_CHOICES
        assert await _press(tg, erin, group, f"L|{tid}|a") == "OK"
        assert rt.settings.ai == (0,)
        tg.set_member(group, alice, "left")  # a host who left the group is no longer one
        svc.access._cache.clear()
        assert (
            await _press(tg, alice, group, f"L|{tid}|r") == "Only members of this group can join this table"
        )
        assert await _press(tg, erin, group, f"L|{tid}|go") == "OK"
        await tg.wait_for(lambda _: rt.playing, what="the hand started by the admin")


async def test_edited_messages_and_channel_posts_run_no_command(
    tg: FakeTelegramServer, tmp_path: Path
) -> None:
    """Editing an old message into /stop counted as a vote."""
    alice, bob = tg.add_user("Alice", started=True), tg.add_user("Bob", started=True)
    group = tg.add_group(TITLE, members=[alice, bob])
    channel = tg.add_channel("News")
    async with bot_running(tg, tmp_path / "bot.db", Clock()) as app:
        svc = service(app)
        tid, _ = await open_table(tg, alice, group, "changsha")
        rt = svc.tables[tid]
        assert await _press(tg, bob, group, f"L|{tid}|j") == "You're seated"
        hello = tg.send_text(alice, group, "hello")
        await tg.wait_idle()
        mark = tg.mark()
        tg.edit_text(hello, "/stop")
        tg.post_in_channel(channel, "/newtable changsha")
        tg.post_in_channel(channel, "/stop", edited=True)
        tg.edit_text(tg.send_text(bob, None, "hi"), "/newtable")
        await tg.wait_idle()
        assert not [c for c in tg.calls[mark:] if c.method == "sendMessage"]  # no command ran
        assert rt.settings.vote_until is None and not rt.closed
        assert svc.table_in(channel.id) is None
        # a real /stop still counts, as the first vote
        assert "asks to stop the table" in await _group(tg, bob, group, "/stop")


async def test_long_arguments_get_a_short_reply_and_names_are_stored_clean(
    tg: FakeTelegramServer, tmp_path: Path
) -> None:
    """A 10 KB /newtable or /rules argument was echoed back, Telegram refused the message and the
    user got nothing; display names were stored uncapped."""
    eve = tg.add_user("Eve\u202e" + "A" * 10_000 + "\n\x07", started=True)
    group = tg.add_group(TITLE, members=[eve])
    async with bot_running(tg, tmp_path / "bot.db", Clock()) as app:
        svc = service(app)
        for command in ("/newtable ", "/rules "):
            reply = await _group(tg, eve, group, command + "x" * 10_000)
            assert "Unknown variant" in reply and len(reply) < 400
            assert "x" * 33 not in reply and "x" * 20 in reply
        reply = await _private(tg, eve, "/rules " + "\u0660" * 10_000)
        assert "Unknown variant" in reply and len(reply) < 400
        tid, _ = await open_table(tg, eve, group, "changsha")
        await tg.wait_idle()
        player = await svc.storage.get_player(eve.id)
        assert player is not None and len(player.name) <= 64
        assert "\u202e" not in player.name and "\n" not in player.name and "\x07" not in player.name
        lobby = (await lobby_message(tg, group, tid)).text or ""
        assert "A" * 65 not in lobby and "\u202e" not in lobby
        assert await _private(tg, eve, "/stop")  # a command in the wrong chat still gets a reply


async def test_a_forged_score_press_does_not_turn_the_lobby_into_a_score_board(
    tg: FakeTelegramServer, tmp_path: Path
) -> None:
    """The score buttons edit their own message: pressed (forged) on the lobby, they used to replace it."""
    alice, carol = tg.add_user("Alice", started=True), tg.add_user("Carol", started=True)
    group = tg.add_group(TITLE, members=[alice, carol])
    async with bot_running(tg, tmp_path / "bot.db", Clock()):
        tid, _ = await open_table(tg, alice, group, "changsha")
        lobby = await lobby_message(tg, group, tid)
        await tg.wait_idle()
        before = (lobby.text, lobby.reply_markup)
        query = tg.press(carol, group, lobby.message_id, "S|week", check=False)
        await tg.wait_for(lambda _: query.answered)
        await tg.wait_idle()
        assert (lobby.text, lobby.reply_markup) == before
        assert query.text == "This button is out of date or unknown"
        mark = tg.mark()
        tg.send_text(carol, group, "/score")  # the real board still switches periods
        board = await tg.wait_for_call("sendMessage", chat_id=group.id, since=mark)
        message = tg.message(group, board.result["message_id"])
        query = tg.press(carol, group, message.message_id, "S|week")
        await tg.wait_for(lambda _: query.answered)
        assert "this week" in (tg.message(group, message.message_id).text or "")
