"""The lobby as a new user meets it: /newtable, join without a private chat (deep link), AI seats,
settings, foreign presses, /stop, /rules, /help."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .bot_support import bot_running, choose_setting, lobby_message, open_table, service
from .fake_telegram import FakeCallbackQuery, FakeChat, FakeMessage, FakeTelegramServer, FakeUser


async def joined_without_dm(
    tg: FakeTelegramServer, app: Any, group: FakeChat, host: FakeUser, user: FakeUser
) -> tuple[int, FakeMessage, FakeCallbackQuery]:
    """A changsha table opened by ``host``, and ``user`` (no private chat with the bot) pressing its Join: the
    table, its lobby message and the press, answered."""
    tid, _ = await open_table(tg, host, group, "changsha")
    await tg.wait_for(lambda _: host.id in service(app).tables[tid].seats, what="the host seated")
    lobby = await lobby_message(tg, group, tid, "j")
    query = tg.press(user, group, lobby.message_id, f"L|{tid}|j")
    await tg.wait_for(lambda _: query.answered, what="the answer to the Join")
    return tid, lobby, query


async def test_user_without_dm_gets_a_deep_link_and_joins_on_start(
    tg: FakeTelegramServer, tmp_path: Path
) -> None:
    alice = tg.add_user("Alice", started=True)
    bob = tg.add_user("Bob")  # never opened a private chat with the bot
    group = tg.add_group("Mahjong", members=[alice, bob])
    async with bot_running(tg, tmp_path / "bot.db") as app:
        svc = service(app)
        tid, lobby, query = await joined_without_dm(tg, app, group, alice, bob)
        rt = svc.tables[tid]
        payload = svc.links.payload(tid)
        assert payload.startswith(f"j{tid}_") and len(payload) > 12  # signed: ids cannot be guessed
        link = f"https://t.me/{tg.bot_username}?start={payload}"
        assert query.url == link  # opens the private chat straight away
        assert bob.id not in rt.seats
        [refused] = tg.calls_to("sendMessage", chat_id=bob.id)
        assert refused.status == 403
        note = await tg.wait_for(
            lambda _: next(
                (m for m in tg.bot_messages(group) if "never opened a chat" in (m.text or "")), None
            ),
            what="the group is told why",
        )
        assert "Bob" in (note.text or "") and note.buttons[0]["url"] == link
        await tg.wait_for(
            lambda _: "open a private chat with the bot" in (tg.message(group, lobby.message_id).text or "")
        )
        # he is listed apart from the seats (he was "5." at a table of four)
        text = tg.message(group, lobby.message_id).text or ""
        assert "open a private chat with the bot: Bob" in text and "  5." not in text

        tg.send_text(bob, None, f"/start {payload}")  # he presses Start in the private chat
        await tg.wait_for(lambda _: bob.id in rt.seats, what="Bob seated")
        await tg.wait_for_call("sendMessage", chat_id=bob.id, ok=True)
        await tg.wait_idle()
        # one message in his private chat, the reply to /start (it used to be two)
        [joined] = tg.calls_to("sendMessage", chat_id=bob.id, ok=True)
        assert "You joined table" in joined.params["text"]
        text = tg.message(group, lobby.message_id).text or ""
        assert "Bob" in text and "open a private chat with the bot" not in text


async def test_a_plain_start_seats_him_at_every_table_he_pressed_join_at(
    tg: FakeTelegramServer, tmp_path: Path
) -> None:
    """Bob pressed Join in two groups before he had a private chat, then opened it with a plain /start (not
    a group's link): he is seated at both, told so in one reply (he was seated at the first only)."""
    alice, carol = tg.add_user("Alice", started=True), tg.add_user("Carol", started=True)
    bob = tg.add_user("Bob")  # never opened a private chat with the bot
    groups = [tg.add_group("One", members=[alice, bob]), tg.add_group("Two", members=[carol, bob])]
    async with bot_running(tg, tmp_path / "bot.db") as app:
        svc = service(app)
        hosts = zip((alice, carol), groups, strict=True)
        tids = [(await joined_without_dm(tg, app, group, host, bob))[0] for host, group in hosts]
        assert all(bob.id in svc.tables[t].waiting_dm for t in tids)
        tg.send_text(bob, None, "/start")
        await tg.wait_for(lambda _: all(bob.id in svc.tables[t].seats for t in tids), what="seated at both")
        await tg.wait_idle()
        [joined] = tg.calls_to("sendMessage", chat_id=bob.id, ok=True)
        assert all(f"table #{t}" in joined.params["text"] for t in tids), joined.params["text"]


async def test_a_start_too_late_for_the_table_says_why(tg: FakeTelegramServer, tmp_path: Path) -> None:
    """Bob pressed Join without a private chat; the host started the game before Bob opened it. His /start
    answered only "welcome", as if nothing had been asked: now it says why he is not seated."""
    alice = tg.add_user("Alice", started=True)
    bob = tg.add_user("Bob")  # never opened a private chat with the bot
    group = tg.add_group("Mahjong", members=[alice, bob])
    async with bot_running(tg, tmp_path / "bot.db") as app:
        svc = service(app)
        tid, lobby, _ = await joined_without_dm(tg, app, group, alice, bob)
        tg.press(alice, group, lobby.message_id, f"L|{tid}|go")
        await tg.wait_for(lambda _: svc.tables[tid].playing, what="the game started")
        tg.send_text(bob, None, "/start")
        reply = await tg.wait_for_call("sendMessage", chat_id=bob.id, ok=True)
        assert f"Could not join table #{tid}: The game has already started" in reply.params["text"]


async def test_creator_without_dm_is_told_in_the_group(tg: FakeTelegramServer, tmp_path: Path) -> None:
    carol = tg.add_user("Carol", language_code="zh-hans")
    group = tg.add_group("麻将", members=[carol])
    async with bot_running(tg, tmp_path / "bot.db") as app:
        tid, _ = await open_table(tg, carol, group, "长沙")
        assert service(app).tables[tid].table.variant == "changsha"
        note = await tg.wait_for(
            lambda _: next(
                (m for m in tg.bot_messages(group) if "私聊" in (m.text or "") and m.buttons), None
            )
        )
        assert note.buttons[0]["url"].endswith(f"?start={service(app).links.payload(tid)}")


async def test_lobby_buttons_settings_and_foreign_presses(tg: FakeTelegramServer, tmp_path: Path) -> None:
    alice = tg.add_user("Alice", started=True)
    dave = tg.add_user("Dave", started=True)  # in the group, never joins
    group = tg.add_group("Mahjong", members=[alice, dave])
    async with bot_running(tg, tmp_path / "bot.db") as app:
        svc = service(app)
        tid, _ = await open_table(tg, alice, group, "xiangyin")
        rt = svc.tables[tid]
        await tg.wait_for(lambda _: alice.id in rt.seats)
        lobby = await lobby_message(tg, group, tid)
        # no claim pause (these tests' room): said so, not "pauses 0s"
        assert "No pause after a discard" in (lobby.text or "") and "pauses 0s" not in (lobby.text or "")

        async def press(user: object, data: str) -> str:
            q = tg.press(user, group, lobby.message_id, data, check=False)  # type: ignore[arg-type]
            await tg.wait_for(lambda _: q.answered, what=f"answer to {data}")
            return q.text or ""

        # a member who is neither the host nor an admin changes nothing
        before = (list(rt.seats), list(rt.settings.ai), dict(rt.options))
        for op in ("a", "s", "go", "o|0", "v|0|1"):
            assert await press(dave, f"L|{tid}|{op}") == (
                "Only the table's host or a group admin can change settings or start"
            )
        assert await press(dave, f"L|{tid}|l") == "You're not seated at this table"
        assert (list(rt.seats), list(rt.settings.ai), dict(rt.options)) == before

        assert await press(alice, f"L|{tid}|a") == "OK"
        assert rt.settings.ai == (1,)
        assert await press(alice, f"L|{tid}|r") == "OK"
        assert rt.settings.ai == ()
        assert await press(alice, f"L|{tid}|j") == "You're already seated"
        # settings: a button per setting lists its choices; one press chooses (options of the variant,
        # timers, player count, language)
        assert await press(alice, f"L|{tid}|s") == "OK"
        await tg.wait_for(lambda _: f"L|{tid}|o|0" in tg.message(group, lobby.message_id).callback_data)
        message = tg.message(group, lobby.message_id)
        assert await choose_setting(tg, alice, message, svc, "birds", 4) == "OK"
        assert rt.options["birds"] == 4
        assert f"L|{tid}|o|0" in tg.message(group, lobby.message_id).callback_data  # back on the page
        assert await choose_setting(tg, alice, message, svc, "claim_s", 45) == "OK"
        assert rt.settings.claim_s == 45
        assert await choose_setting(tg, alice, message, svc, "pause_s", 2) == "OK"  # off in tests, then 2 s
        assert rt.settings.pause_s == 2
        assert await choose_setting(tg, alice, message, svc, "seats", 2) == "OK"  # xiangyin: 2, 3 or 4
        assert len(rt.seats) == 2
        assert await press(alice, f"L|{tid}|b") == "OK"
        await tg.wait_idle()
        text = tg.message(group, lobby.message_id).text or ""
        assert "birds: 4" in text and "claims 45s" in text and text.count("(empty)") == 1
        stored = await svc.storage.get_table(tid)
        assert stored.options["birds"] == 4 and len(stored.seats) == 2
        assert await press(alice, "L|999|go") == "This table is closed"
        assert await press(alice, "garbage") == "This button is out of date or unknown"
    # the settings are the database's: a restart finds them (the claim pause with the timers)
    async with bot_running(tg, tmp_path / "bot.db") as app:
        rt = service(app).tables[tid]
        assert (rt.settings.claim_s, rt.settings.pause_s, rt.settings.editing) == (45, 2, False)
        await tg.wait_idle()
        text = tg.message(group, lobby.message_id).text or ""
        assert "claims 45s" in text and "pauses 2s for claims" in text


async def test_stop_by_vote_or_admin(tg: FakeTelegramServer, tmp_path: Path) -> None:
    alice, bob = tg.add_user("Alice", started=True), tg.add_user("Bob", started=True)
    dave, erin = tg.add_user("Dave"), tg.add_user("Erin")
    group = tg.add_group("Mahjong", members=[alice, bob, dave], admins=[erin])
    async with bot_running(tg, tmp_path / "bot.db") as app:
        svc = service(app)
        tid, _ = await open_table(tg, alice, group, "changsha")
        rt = svc.tables[tid]
        lobby = await lobby_message(tg, group, tid, "j")
        tg.press(bob, group, lobby.message_id, f"L|{tid}|j")
        await tg.wait_for(lambda _: alice.id in rt.seats and bob.id in rt.seats)

        async def command(user: object, text: str) -> str:
            mark = tg.mark()
            tg.send_text(user, group, text)  # type: ignore[arg-type]
            call = await tg.wait_for_call(
                "sendMessage",
                chat_id=group.id,
                since=mark,
                predicate=lambda c: "reply_parameters" in c.params,
            )
            return str(call.params["text"])

        assert "Only seated players" in await command(dave, "/stop")
        assert "asks to stop the table" in await command(alice, "/stop")
        assert tid in svc.tables
        assert "stopped" in await command(bob, "/stop")
        assert tid not in svc.tables
        assert "No open table" in await command(dave, "/stop")

        tid2, _ = await open_table(tg, alice, group, "sichuan")
        assert tid2 != tid
        assert "already has a table" in await command(bob, "/newtable")
        assert "stopped" in await command(erin, "/stop")  # a group admin, not seated
        table = await svc.storage.get_table(tid2)
        assert table.status == "closed"


async def test_help_rules_and_private_commands(tg: FakeTelegramServer, tmp_path: Path) -> None:
    alice = tg.add_user("Alice", started=True)
    group = tg.add_group("Mahjong", members=[alice])
    async with bot_running(tg, tmp_path / "bot.db"):
        await tg.wait_for(lambda _: tg.commands(), what="the command list")
        assert {c["command"] for c in tg.commands()} >= {"newtable", "rules", "score", "hand", "stop", "help"}
        assert tg.commands(language_code="zh")[0]["description"] == "开一桌"
        for text, expected in (
            ("/help", "/newtable [variant]"),
            ("/rules sichuan", "Sichuan"),
            ("/rules nowhere", "Unknown variant"),
            ("/hand", "not seated"),
        ):
            mark = tg.mark()
            tg.send_text(alice, group, text)
            call = await tg.wait_for_call("sendMessage", chat_id=group.id, since=mark)
            assert expected in call.params["text"], (text, call.params["text"])
        mark = tg.mark()
        tg.send_text(alice, None, "/newtable")
        call = await tg.wait_for_call("sendMessage", chat_id=alice.id, since=mark)
        assert "in a group" in call.params["text"]
        mark = tg.mark()
        tg.send_text(alice, None, "/start")
        call = await tg.wait_for_call("sendMessage", chat_id=alice.id, since=mark)
        assert "/newtable" in call.params["text"]
