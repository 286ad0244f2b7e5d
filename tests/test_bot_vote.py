"""The stop vote (申请解散, bot/table/vote.py) over the fake Bot API, as the apps run it: a seated player's
/stop or button asks every seated player to agree or refuse (private buttons, a tally in the group edited in
place, a countdown), a majority closes the table with its 大结算, a majority out of reach ends the vote and
the game goes on, the countdown's end decides by the room's setting (agree unless the host chose refuse),
the vote survives a restart, its buttons are out of date once it is over, an admin still stops at once, and
the Mini App asks and answers through the same service methods (docs/security.md, docs/stats.md)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import aiohttp

from bot.miniapp.server import Config, MiniApp
from bot.table.vote import VOTE_S

from .bot_support import (
    Clock,
    bot_running,
    choose_setting,
    command,
    lobby_message,
    open_table,
    press,
    quiet,
    service,
)
from .fake_telegram import FakeChat, FakeMessage, FakeTelegramServer, FakeUser
from .miniapp_support import init_data


async def seated(
    tg: FakeTelegramServer, app: Any, host: FakeUser, group: FakeChat, others: list[FakeUser]
) -> tuple[int, FakeMessage]:
    """A changsha table opened by ``host`` with ``others`` seated too; its lobby message."""
    svc = service(app)
    tid, lobby = await open_table(tg, host, group, "changsha")
    for user in others:
        assert await press(tg, user, lobby, f"L|{tid}|j") in ("You're seated", "已入座")
    await tg.wait_for(lambda _: all(u.id in svc.tables[tid].seats for u in (host, *others)))
    return tid, await lobby_message(tg, group, tid)


def vote_message(
    tg: FakeTelegramServer, chat: FakeChat | FakeUser, tid: int, vote: int
) -> FakeMessage | None:
    """The last message in ``chat`` that is (or was) vote ``vote``'s, by its buttons at any time."""
    for m in reversed(tg.bot_messages(chat)):
        if any(f"V|{tid}|{vote}|" in d for v in m.versions for d in _data(v.reply_markup)):
            return m
    return None


def _data(markup: Any) -> list[str]:
    return [b.get("callback_data", "") for row in (markup or {}).get("inline_keyboard", []) for b in row]


async def test_a_vote_asks_everyone_tallies_in_place_survives_a_restart_and_silence_agrees(
    tg: FakeTelegramServer, tmp_path: Path
) -> None:
    """Alice (the Chinese host) asks mid-hand; Bob and Carol are asked in private, in English, with agree /
    refuse; the group's tally names who agreed, refused and has not answered, with the time left. Bob
    refuses (the tally says so, a second press is refused, a watcher may not vote). The bot restarts after
    the countdown ran out: the vote goes on (a new countdown, the same tally message edited). Carol never
    answers: at the end her silence agrees (the default), two of three agree and the table closes with its
    大结算; the vote's buttons are out of date."""
    clock = Clock()
    alice = tg.add_user("Alice", language_code="zh-hans", started=True)
    bob = tg.add_user("Bob", language_code="en", started=True)
    carol = tg.add_user("Carol", language_code="en", started=True)
    dave = tg.add_user("Dave", language_code="en")
    group = tg.add_group("牌桌", members=[alice, bob, carol, dave])
    db = tmp_path / "bot.db"
    async with bot_running(tg, db, clock) as app:
        svc = service(app)
        tid, lobby = await seated(tg, app, alice, group, [bob, carol])
        assert await press(tg, alice, lobby, f"L|{tid}|go") == "好的"
        rt = svc.tables[tid]
        await quiet(app, tg)
        assert "申请解散本桌" in await command(tg, alice, group, "/stop")
        await quiet(app, tg)
        tally = vote_message(tg, group, tid, 1)
        assert tally is not None and {f"V|{tid}|1|1", f"V|{tid}|1|0"} <= set(tally.callback_data)
        text = tally.text or ""
        assert "Alice 申请解散本桌" in text and "同意：Alice" in text and "未表态：Bob、Carol" in text
        assert f"还剩 {VOTE_S} 秒" in text and "算同意" in text
        assert vote_message(tg, alice, tid, 1) is None  # who asked is not asked back
        prompts = {u.first_name: vote_message(tg, u, tid, 1) for u in (bob, carol)}
        for m in prompts.values():
            assert (
                m is not None
                and "asks to stop table" in (m.text or "")
                and "agree or refuse" in (m.text or "")
            )
        bob_prompt = prompts["Bob"]
        assert bob_prompt is not None
        assert await press(tg, dave, tally, f"V|{tid}|1|1") == "You're not seated at this table"
        assert await press(tg, bob, bob_prompt, f"V|{tid}|1|0") == "You refused to stop the table"
        assert await press(tg, bob, tally, f"V|{tid}|1|1") == "You have already voted"
        await quiet(app, tg)
        text = tg.message(group, tally.message_id).text or ""
        assert "拒绝：Bob" in text and "未表态：Carol" in text and not rt.closed
        assert not tg.message(bob, bob_prompt.message_id).callback_data  # answered: his buttons go
    clock.advance(VOTE_S + 30)  # the bot is down past the deadline
    async with bot_running(tg, db, clock) as app:
        svc = service(app)
        rt = svc.tables[tid]
        await quiet(app, tg)
        assert rt.settings.vote == 1 and rt.settings.vote_until == clock.now + VOTE_S  # a new countdown
        assert f"还剩 {VOTE_S} 秒" in (tg.message(group, tally.message_id).text or "")  # edited in place
        assert vote_message(tg, group, tid, 1) is tally
        clock.now = rt.settings.vote_until + 1  # Carol never answers
        await svc.timers.run_now(tid)  # type: ignore[attr-defined]
        await quiet(app, tg)
        assert tid not in svc.tables
        text = tg.message(group, tally.message_id).text or ""
        assert "时间到，未表态的算同意" in text and "投票通过" in text
        assert not tg.message(group, tally.message_id).callback_data
        assert any(
            "大结算" in (m.text or "") and "提前结束" in (m.text or "") for m in tg.bot_messages(group)
        )
        carol_prompt = prompts["Carol"]
        assert carol_prompt is not None
        # her prompt, sent before the restart, says how the vote ended and keeps no button (it kept live
        # buttons and the old tally when who was asked in private was not stored)
        shown = tg.message(carol, carol_prompt.message_id)
        assert "vote passed" in (shown.text or "").lower() and not shown.callback_data
        assert await press(tg, carol, carol_prompt, f"V|{tid}|1|1") == "This table is closed"


async def test_refusal_on_timeout_stale_buttons_the_ask_button_and_an_admin(
    tg: FakeTelegramServer, tmp_path: Path
) -> None:
    """The host sets 解散投票超时 to refuse: Bob's silence refuses, the vote fails, the game goes on and the
    vote's buttons are out of date. Bob then asks with the group's 申请解散 button (vote 2, one at a time: a
    second ask is an agreement); a group admin's /stop during it closes the table at once and the tally
    loses its buttons."""
    clock = Clock()
    alice = tg.add_user("Alice", language_code="en", started=True)
    bob = tg.add_user("Bob", language_code="en", started=True)
    erin = tg.add_user("Erin", language_code="en")
    group = tg.add_group("Mahjong", members=[alice, bob], admins=[erin])
    async with bot_running(tg, tmp_path / "bot.db", clock) as app:
        svc = service(app)
        tid, lobby = await seated(tg, app, alice, group, [bob])
        assert await press(tg, alice, lobby, f"L|{tid}|s") == "OK"
        assert await choose_setting(tg, alice, lobby, svc, "vote_agree", False) == "OK"
        await tg.wait_for(
            lambda _: (
                "Stop vote timeout: counts as refuse"
                in " ".join(b["text"] for b in tg.message(group, lobby.message_id).buttons)
            ),
            what="the settings page with the new value",
        )
        assert await press(tg, alice, lobby, f"L|{tid}|b") == "OK"
        assert await press(tg, alice, lobby, f"L|{tid}|go") == "OK"
        rt = svc.tables[tid]
        assert "asks to stop the table" in await command(tg, alice, group, "/stop")
        await quiet(app, tg)
        tally = vote_message(tg, group, tid, 1)
        assert tally is not None and "counts as refusing" in (tally.text or "")
        clock.now = (rt.settings.vote_until or 0) + 1
        await svc.timers.run_now(tid)  # type: ignore[attr-defined]
        await quiet(app, tg)
        assert not rt.closed and rt.playing and rt.settings.vote_until is None
        assert "The vote failed: the game goes on" in (tg.message(group, tally.message_id).text or "")
        assert await press(tg, alice, tally, f"V|{tid}|1|1") == "This button is out of date"
        table = next(m for m in reversed(tg.bot_messages(group)) if f"V|{tid}|0|1" in m.callback_data)
        assert await press(tg, bob, table, f"V|{tid}|0|1") == "You asked to stop the table"
        assert await press(tg, bob, table, f"V|{tid}|0|1") == "You have already voted"
        await quiet(app, tg)
        second = vote_message(tg, group, tid, 2)
        assert second is not None and second is not tally and "Bob asks to stop" in (second.text or "")
        assert "stopped" in await command(tg, erin, group, "/stop")  # an admin: at once
        await quiet(app, tg)
        assert tid not in svc.tables
        assert not tg.message(group, second.message_id).callback_data
        assert "The table is closed." in (tg.message(group, second.message_id).text or "")


async def test_a_prompt_sent_after_its_vote_ended_is_not_kept_for_the_next(
    tg: FakeTelegramServer, tmp_path: Path
) -> None:
    """Carol's private prompt is slow to send (Telegram answers late); meanwhile Bob and Carol refuse from the
    group's tally and the vote ends. The prompt's id, stored once sent, was kept as hers: after a restart or
    on another worker, it would be edited into the next vote's tally, with live buttons. Only a prompt of the
    vote in progress is kept."""
    alice = tg.add_user("Alice", language_code="en", started=True)
    bob = tg.add_user("Bob", language_code="en", started=True)
    carol = tg.add_user("Carol", language_code="en", started=True)
    group = tg.add_group("Mahjong", members=[alice, bob, carol])
    async with bot_running(tg, tmp_path / "bot.db", Clock()) as app:
        svc = service(app)
        tid, lobby = await seated(tg, app, alice, group, [bob, carol])
        assert await press(tg, alice, lobby, f"L|{tid}|go") == "OK"
        await quiet(app, tg)
        tg.hold("sendMessage", carol, fail=False)
        assert "asks to stop the table" in await command(tg, alice, group, "/stop")
        await tg.wait_for(lambda _: tg.held_calls(), what="Carol's prompt on its way")
        tally = vote_message(tg, group, tid, 1)
        assert tally is not None
        for user in (bob, carol):
            assert await press(tg, user, tally, f"V|{tid}|1|0") == "You refused to stop the table"
        rt = svc.tables[tid]
        await tg.wait_for(lambda _: rt.settings.vote_until is None, what="the vote failed")
        tg.release()
        await tg.wait_for(lambda _: vote_message(tg, carol, tid, 1) is not None, what="the late prompt")
        await quiet(app, tg)
        assert (await svc.storage.table_settings(tid)).vote_prompts == ()


async def _act(web: MiniApp, tg: FakeTelegramServer, user: FakeUser, clock: Clock, **body: Any) -> str:
    """An action through the Mini App's POST /api/act; its answer's text."""
    req = {**body, "init": init_data(tg, user, auth_date=clock.now)}
    async with aiohttp.ClientSession() as http:
        async with http.post(f"http://127.0.0.1:{web.port}/api/act", data=json.dumps(req)) as resp:
            return str((await resp.json())["text"])


async def test_the_mini_app_asks_answers_and_goes_on_auto_play(
    tg: FakeTelegramServer, tmp_path: Path
) -> None:
    """The Mini App's ops call the service's methods: ``stop`` asks (as the button), ``vote`` answers the
    vote it names (a refusal of two players' vote ends it), ``auto`` is 托管 (the group is told)."""
    clock = Clock()
    alice = tg.add_user("Alice", language_code="en", started=True)
    bob = tg.add_user("Bob", language_code="en", started=True)
    group = tg.add_group("Mahjong", members=[alice, bob])
    miniapp = Config(url="https://mahjong.example/app", port=0)
    async with bot_running(tg, tmp_path / "bot.db", clock, miniapp=miniapp) as app:
        svc = service(app)
        web: MiniApp = app.bot_data["miniapp"]
        tid, lobby = await seated(tg, app, alice, group, [bob])
        assert await press(tg, alice, lobby, f"L|{tid}|go") == "OK"
        rt = svc.tables[tid]
        token = web.tokens.token(tid)
        assert await _act(web, tg, alice, clock, op="stop", t=token) == "You asked to stop the table"
        seat = rt.seat_of(bob.id)
        view = svc.feed.view(rt, bob.id, "en")
        assert view.vote is not None and view.vote.may_answer and seat is not None
        assert await _act(web, tg, bob, clock, op="vote", vote=1, agree=0, t=token) == (
            "You refused to stop the table"
        )
        assert rt.settings.vote_until is None and not rt.closed
        assert (
            await _act(web, tg, bob, clock, op="auto", t=token)
            == 'On auto-play: press "I\'m back" to play again'
        )
        assert seat in rt.live.auto
        await quiet(app, tg)
        assert any("Bob chose auto-play" in (m.text or "") for m in tg.bot_messages(group))


async def test_a_vote_in_progress_keeps_its_seats_and_its_rule(
    tg: FakeTelegramServer, tmp_path: Path
) -> None:
    """While a stop vote is open, the host may not change the seat count (which moved the players and left
    their answers on the old seat numbers: one player's agreement counted for another's seat, and a Leave
    then failed) nor what silence counts as: a short answer, and neither the seats nor the vote change."""
    users = [tg.add_user(n, language_code="en", started=True) for n in ("Alice", "Bob", "Carol", "Dave")]
    alice, bob, carol, dave = users
    group = tg.add_group("Mahjong", members=users)
    async with bot_running(tg, tmp_path / "bot.db", Clock()) as app:
        svc = service(app)
        tid, lobby = await open_table(tg, alice, group, "xiangyin")
        for user in (bob, carol, dave):
            assert await press(tg, user, lobby, f"L|{tid}|j") == "You're seated"
        assert await press(tg, bob, lobby, f"L|{tid}|l") == "You left the table"
        rt = svc.tables[tid]
        assert rt.seats == [alice.id, None, carol.id, dave.id]
        assert "asks to stop the table" in await command(tg, carol, group, "/stop")
        assert rt.settings.vote_yes == (2,)
        assert await press(tg, alice, lobby, f"L|{tid}|s") == "OK"
        busy = "A stop vote is in progress: change this when it ends"
        assert await choose_setting(tg, alice, lobby, svc, "seats", 3) == busy
        assert await choose_setting(tg, alice, lobby, svc, "vote_agree", False) == busy
        assert rt.seats == [alice.id, None, carol.id, dave.id] and rt.settings.vote_agree
        assert rt.settings.vote_yes == (2,) and not rt.closed
        # its voters are the players seated when it was asked: nobody leaves, nor sits down to decide it
        assert await press(tg, dave, lobby, f"L|{tid}|l") == "A stop vote is in progress: leave when it ends"
        assert await press(tg, bob, lobby, f"L|{tid}|j") == "A stop vote is in progress: join when it ends"
        assert bob.id not in rt.seats
        assert await choose_setting(tg, alice, lobby, svc, "rounds", 4) == "OK"  # the others still change
        # a preset that fixes the seat count (四川's 三人两房) waits for the vote too
        other = tg.add_group("Sichuan", members=users)
        tid2, lobby2 = await open_table(tg, alice, other, "sichuan")
        assert await press(tg, bob, lobby2, f"L|{tid2}|j") == "You're seated"
        assert "asks to stop the table" in await command(tg, bob, other, "/stop")
        three = next(i for i, p in enumerate(svc.tables[tid2].variant.presets) if p.seats == 3)
        assert await press(tg, alice, lobby2, f"L|{tid2}|s") == "OK"
        assert await press(tg, alice, lobby2, f"L|{tid2}|m|{three}") == busy
        assert len(svc.tables[tid2].seats) == 4


async def test_a_vote_ends_when_the_bot_is_removed_from_the_group(
    tg: FakeTelegramServer, tmp_path: Path
) -> None:
    """The bot is removed from the group mid-hand while a stop vote is open: the table closes, and the vote
    with it - Bob's private prompt says so and loses its buttons (before, they stayed, answering "closed")."""
    alice = tg.add_user("Alice", language_code="en", started=True)
    bob = tg.add_user("Bob", language_code="en", started=True)
    group = tg.add_group("Mahjong", members=[alice, bob])
    async with bot_running(tg, tmp_path / "bot.db", Clock()) as app:
        svc = service(app)
        tid, lobby = await seated(tg, app, alice, group, [bob])
        assert await press(tg, alice, lobby, f"L|{tid}|go") == "OK"
        await quiet(app, tg)
        assert "asks to stop the table" in await command(tg, alice, group, "/stop")
        await quiet(app, tg)
        prompt = vote_message(tg, bob, tid, 1)
        assert prompt is not None and f"V|{tid}|1|1" in prompt.callback_data
        tg.remove_bot(group, by=alice)
        await tg.wait_for(lambda _: tid not in svc.tables, what="the table closed")
        await quiet(app, tg)
        after = tg.message(bob, prompt.message_id)
        assert not after.callback_data and "The table is closed." in (after.text or "")
