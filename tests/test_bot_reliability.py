"""Reliability in the Telegram layer, over the fake Bot API: a handled 429 is no ERROR, a
start that cannot work (a read-only database, an unreachable Bot API) ends in one line, bot accounts take
no seat, service senders (a channel writing in the group, an anonymous admin) are no players - and an
anonymous admin is an admin - invisible characters are dropped from names, and a press applied just before
a kill, delivered again after the restart, is answered with what it did; a backlog of results is one
summary, the group's first message after a restart, and a long message is never sent again in part."""

from __future__ import annotations

import asyncio
import ctypes
import logging
import os
import socket
import sqlite3
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bot.messages import keyboards as kb
from bot.table.present import post_of
from bot.telegram.app import running
from bot.text.fit import MAX_TEXT
from bot.text.texts import clean
from storage import HandReplay, Storage

from .bot_support import (
    Clock,
    Player,
    bot_running,
    command,
    lobby_message,
    loopback_webhook,
    make_app,
    open_table,
    press,
    quiet,
    service,
    until_hands,
)
from .fake_telegram import (
    CHANNEL_BOT,
    DEFAULT_TOKEN,
    GROUP_ANONYMOUS_BOT,
    FakeChat,
    FakeTelegramServer,
    FakeUser,
)
from .pgcluster import free_port

ROOT = Path(__file__).resolve().parent.parent


async def _answer(tg: FakeTelegramServer, user: FakeUser, chat: FakeChat, message_id: int, data: str) -> str:
    query = tg.press(user, chat, message_id, data)
    await tg.wait_for(lambda _: query.answered, what=f"the answer to {data}")
    return query.text or ""


async def _reply(tg: FakeTelegramServer, chat: FakeChat | FakeUser, send: Callable[[], object]) -> str:
    """The bot's reply in ``chat`` to what ``send()`` sends there."""
    mark = tg.mark()
    send()
    call = await tg.wait_for_call("sendMessage", chat_id=chat.id, since=mark)
    assert call.ok, call
    return str(call.params["text"])


# ------------------------------------------------------------------ 429s


@pytest.mark.filterwarnings("ignore:.*retry_after.*:telegram.warnings.PTBDeprecationWarning")
async def test_a_handled_flood_limit_is_one_warning_line_not_an_error(
    tg: FakeTelegramServer, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A 429 that outlasts AIORateLimiter's three retries was logged as an ERROR with a traceback, although
    its sender handles it (the outbox waits and sends again, a button's answer is retried): a false alarm."""
    caplog.set_level(logging.INFO)
    alice, bob = tg.add_user("Alice", started=True), tg.add_user("Bob", started=True)
    group = tg.add_group("Mahjong", members=[alice, bob])
    async with bot_running(tg, tmp_path / "bot.db", Clock()) as app:
        svc = service(app)
        tid, lobby = await open_table(tg, alice, group, "changsha")
        await tg.wait_for(lambda _: alice.id in svc.tables[tid].seats)
        await tg.wait_idle()
        tg.fail_next("editMessageText", times=4, retry_after=0.01)  # one more than AIORateLimiter retries
        await _answer(tg, bob, group, lobby.message_id, f"L|{tid}|j")
        await tg.wait_for(
            lambda _: "Bob" in (tg.message(group, lobby.message_id).text or ""), what="Bob seated"
        )
        tg.fail_next("answerCallbackQuery", times=4, retry_after=0.01)
        assert await _answer(tg, alice, group, lobby.message_id, f"L|{tid}|j") == "You're already seated"
        await tg.wait_idle()
    assert len([c for c in tg.calls if c.injected_fault and c.status == 429]) == 8
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info] == []
    flood = [r for r in caplog.records if r.getMessage().startswith("flood limit (429) after 3 retries")]
    assert [r.levelname for r in flood] == ["WARNING", "WARNING"], flood


async def test_another_process_polling_the_token_is_one_warning_line(
    tg: FakeTelegramServer, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Two processes polling one token (several workers started without WEBHOOK_URL, a second machine):
    Telegram answers getUpdates with a conflict at every poll, which was a 30-line ERROR traceback ("error
    while handling job") every few seconds, forever. Now one warning that says what to do, once a minute."""
    caplog.set_level(logging.INFO)
    alice = tg.add_user("Alice", started=True)
    async with bot_running(tg, tmp_path / "bot.db", Clock()):
        await tg.wait_idle()
        tg.fail_next(
            "getUpdates", times=2, status=409, description="Conflict: terminated by other getUpdates request"
        )
        tg.send_text(alice, None, "hello")  # the long poll in flight returns: the next ones conflict
        await tg.wait_for(lambda _: len(tg.calls_to("getUpdates")) == 4, what="polling again after both")
    said = [r for r in caplog.records if "another process is polling" in r.getMessage()]
    assert [r.levelname for r in said] == ["WARNING"] and "WEBHOOK_URL" in said[0].getMessage()
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info] == []


# ------------------------------------------------------------------ a start that cannot work


def _drop_dac_override() -> None:
    """In the child before it runs the bot: as root a 0444 file is still writable, unless the process lacks
    CAP_DAC_OVERRIDE (dropped from its bounding set, so that the bot's exec keeps it dropped)."""
    if os.geteuid() == 0 and ctypes.CDLL(None, use_errno=True).prctl(24, 1, 0, 0, 0) != 0:  # PR_CAPBSET_DROP
        raise OSError(ctypes.get_errno(), "cannot drop CAP_DAC_OVERRIDE: the read-only test needs it as root")


async def _run_bot(
    base_url: str, token: str, db: Path, cwd: Path, *, read_only: bool = False, **settings: str
) -> tuple[int, str]:
    """``python -m bot`` until it exits (it must, at once); its exit status and stderr. ``settings``: more
    of its environment (WEBHOOK_URL=...)."""
    own = ("TELEGRAM_", "MAHJONG_", "WEBHOOK_", "MINIAPP_")
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(own)},
        "TELEGRAM_BOT_TOKEN": token,
        "TELEGRAM_BASE_URL": base_url,
        "MAHJONG_DB": str(db),
        "PYTHONPATH": str(ROOT),
        **settings,
    }
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", cwd=cwd, env=env, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE, preexec_fn=_drop_dac_override if read_only else None,
    )  # fmt: skip
    out, err = await asyncio.wait_for(proc.communicate(), timeout=60)
    assert proc.returncode is not None
    return proc.returncode, (out + err).decode(errors="replace")


def _one_line(text: str) -> str:
    """The bot's own last word: what it printed after its log lines (no traceback anywhere)."""
    assert "Traceback" not in text and " ERROR " not in text, text
    return text.strip().splitlines()[-1]


async def test_a_read_only_database_stops_the_bot_with_one_line(tmp_path: Path) -> None:
    db = tmp_path / "bot.db"
    async with await Storage.open(db):  # a database of the current schema
        pass
    db.chmod(0o444)
    async with FakeTelegramServer() as tg:
        status, text = await _run_bot(tg.base_url, tg.token, db, tmp_path, read_only=True)
    last = _one_line(text)
    assert status == 5 and last.startswith("not starting: ") and "read-only" in last, text
    assert not tg.calls_to("getUpdates", "setMyCommands")  # it stopped before taking any update


async def test_a_database_directory_missing_stops_the_bot_with_one_line(tmp_path: Path) -> None:
    """It named only the lock file beside the database ("No such file or directory: '…/c.db.lock'")."""
    async with FakeTelegramServer() as tg:
        status, text = await _run_bot(tg.base_url, tg.token, tmp_path / "nodir" / "c.db", tmp_path)
    assert status == 5 and _one_line(text).startswith(
        f"not starting: the database's directory {tmp_path / 'nodir'} does not exist or is not writable"
    ), text


async def test_an_unreachable_bot_api_stops_the_bot_with_one_line(tmp_path: Path) -> None:
    with socket.socket() as closed:  # bound and never listening: every connection is refused
        closed.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{closed.getsockname()[1]}/bot"
        status, text = await _run_bot(url, DEFAULT_TOKEN, tmp_path / "bot.db", tmp_path)
        # on a webhook too, without asyncio's "Unclosed client session" lines after it
        hook = {"WEBHOOK_URL": "https://bot.example/hook", "WEBHOOK_PORT": str(free_port())}
        status2, text2 = await _run_bot(url, DEFAULT_TOKEN, tmp_path / "hook.db", tmp_path, **hook)
    for code, out in ((status, text), (status2, text2)):
        last = _one_line(out)
        assert code == 4, out
        assert last.startswith(f"not starting: the Telegram Bot API at {url} cannot be reached"), out
        assert DEFAULT_TOKEN.partition(":")[2] not in out


async def test_a_port_taken_stops_the_bot_with_one_line(tmp_path: Path) -> None:
    """The webhook's port or the Mini App's taken by another program: it was a 50-line traceback ending in
    "This Application is still running!" (the webhook) or 26 lines (the Mini App), exit status 1."""
    async with FakeTelegramServer() as tg:
        with socket.socket() as taken:  # listening, without SO_REUSEPORT: nobody else may bind it
            taken.bind(("127.0.0.1", 0))
            taken.listen()
            port = str(taken.getsockname()[1])
            for server in ("WEBHOOK", "MINIAPP"):
                url = {"WEBHOOK": "https://bot.example/hook", "MINIAPP": "https://bot.example/app"}[server]
                settings = {f"{server}_URL": url, f"{server}_PORT": port}
                db = tmp_path / f"{server}.db"
                status, text = await _run_bot(tg.base_url, tg.token, db, tmp_path, **settings)
                assert status == 6 and _one_line(text) == (
                    f"not starting: cannot listen on 127.0.0.1:{port} ({server}_LISTEN, {server}_PORT): "
                    "Address already in use"
                ), text


# ------------------------------------------------------------------ who may sit


async def test_bot_accounts_take_no_seat(tg: FakeTelegramServer, tmp_path: Path) -> None:
    """A bot account pressed Join (or followed the table's deep link) and was seated like a person."""
    alice = tg.add_user("Alice", started=True)
    robot = tg.add_user("Robo", started=True, is_bot=True)
    group = tg.add_group("Mahjong", members=[alice, robot])
    async with bot_running(tg, tmp_path / "bot.db", Clock()) as app:
        svc = service(app)
        tid, lobby = await open_table(tg, alice, group, "changsha")
        rt = svc.tables[tid]
        await tg.wait_for(lambda _: alice.id in rt.seats)
        assert (
            await _answer(tg, robot, group, lobby.message_id, f"L|{tid}|j")
            == "Bot accounts can't take a seat"
        )
        link = f"/start {svc.links.payload(tid)}"
        assert (
            await _reply(tg, robot, lambda: tg.send_text(robot, None, link))
            == "Bot accounts can't take a seat"
        )
        await tg.wait_idle()
        assert robot.id not in rt.seats and await svc.storage.get_player(robot.id) is None
        # a person still joins by the same link
        bob = tg.add_user("Bob", started=True)
        group.members[bob.id] = "member"
        await _reply(tg, bob, lambda: tg.send_text(bob, None, link))
        await tg.wait_for(lambda _: bob.id in rt.seats)


async def test_service_senders_are_no_players_and_an_anonymous_admin_may_stop(
    tg: FakeTelegramServer, tmp_path: Path
) -> None:
    """A channel writing in the group, or an anonymous admin, is Telegram's stand-in user (Channel_Bot,
    GroupAnonymousBot) with ``sender_chat``: /newtable seated that stand-in as a player (its name stored), and
    an anonymous admin's /stop was refused (getChatMember knows no such user)."""
    alice, bob = tg.add_user("Alice", started=True), tg.add_user("Bob", started=True)
    group = tg.add_group("Mahjong", members=[alice, bob], supergroup=True)
    channel = tg.add_channel("Mahjong news")
    async with bot_running(tg, tmp_path / "bot.db", Clock()) as app:
        svc = service(app)
        as_yourself = (
            "Send this as yourself: an anonymous admin or a channel can't open a table or take a seat."
        )
        for sender in (group, channel):
            reply = await _reply(tg, group, lambda s=sender: tg.send_as_chat(s, group, "/newtable changsha"))
            assert reply == as_yourself
        assert svc.table_in(group.id) is None
        tid, lobby = await open_table(tg, alice, group, "changsha")
        rt = svc.tables[tid]
        await tg.wait_for(lambda _: alice.id in rt.seats)
        await _answer(tg, bob, group, lobby.message_id, f"L|{tid}|j")
        await tg.wait_for(lambda _: bob.id in rt.seats)
        # a channel's /stop is no player's vote; an anonymous admin's stops the table at once
        reply = await _reply(tg, group, lambda: tg.send_as_chat(channel, group, "/stop"))
        assert not rt.closed and rt.settings.vote_until is None, reply
        reply = await _reply(tg, group, lambda: tg.send_as_chat(group, group, "/stop"))
        assert rt.closed and reply == "The table has been stopped."
        await tg.wait_idle()
        for stand_in in (GROUP_ANONYMOUS_BOT, CHANNEL_BOT):
            assert await svc.storage.get_player(stand_in) is None


# ------------------------------------------------------------------ invisible names


def test_clean_drops_invisible_characters() -> None:
    """Zero-width characters (U+200B-U+200D, U+2060, U+FEFF) survived cleaning: invisible names, and names
    that look like another's."""
    assert clean("Al\u200bi\u200cc\u200de\u2060\ufeff") == "Alice"
    assert clean("\u200b\u2060\ufeff\u3164\u115f\u2800") == ""  # nothing visible at all
    assert clean("Bob \u200b Lee\u00ad") == "Bob Lee"  # no double space where a hidden character was
    assert clean("\u202eecilA\u200f\u2066x\u2069") == "ecilAx"  # bidirectional marks, overrides, isolates
    assert (
        clean("牌\U000e0041友\u180e\u061c") == "牌友"
    )  # a tag character, the Mongolian vowel separator, ALM
    assert clean("Zoë 李雷 Ωμέγα 🀄") == "Zoë 李雷 Ωμέγα 🀄"  # letters, marks and emoji of every script stay
    assert clean("👨\u200d👩\u200d👧") == "👨👩👧"  # a ZWJ sequence falls apart into its emoji
    assert clean("tab\there\nline\x07\x7f\x85") == "tab here line"


async def test_an_invisible_name_is_stored_and_shown_clean(tg: FakeTelegramServer, tmp_path: Path) -> None:
    alice = tg.add_user("Al\u200bice\u2060", started=True)
    ghost = tg.add_user("\u3164\u200b", last_name="\ufeff", started=True)  # nothing to show: his id stands in
    group = tg.add_group("Mahjong", members=[alice, ghost])
    async with bot_running(tg, tmp_path / "bot.db", Clock()) as app:
        svc = service(app)
        tid, lobby = await open_table(tg, alice, group, "changsha")
        await _answer(tg, ghost, group, lobby.message_id, f"L|{tid}|j")
        await tg.wait_for(lambda _: ghost.id in svc.tables[tid].seats)
        await tg.wait_idle()
        stored = [await svc.storage.get_player(uid) for uid in (alice.id, ghost.id)]
        assert [p.name if p else None for p in stored] == ["Alice", str(ghost.id)]
        text = (await lobby_message(tg, group, tid)).text or ""
        assert "Alice" in text and str(ghost.id) in text and not {"\u200b", "\u2060", "\u3164"} & set(text)


# ------------------------------------------------------------------ a press delivered again


async def test_a_press_applied_before_a_kill_is_answered_with_what_it_did(
    tg: FakeTelegramServer, tmp_path: Path
) -> None:
    """The bot applies Alice's discard and stops before its answer reached her and before Telegram was told
    the update was handled; after the restart Telegram delivers the press again. Its decision is closed by
    then: it was answered "This button is out of date" although it was applied. Now it gets the answer it
    would have had ("✔ Discard ..."), stored with the action, and nothing is applied twice."""
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
        found = await player.wait_decision(lambda: False)
        assert found is not None
        await quiet(app, tg)
        rt = svc.tables[tid]
        assert rt.state is not None
        version = rt.state.version
        tg.fail_next("answerCallbackQuery", status=400, description="Bad Request: query is too old")
        query = player.press(found[0], found[1][0])
        await tg.wait_for(lambda _: rt.state is not None and rt.state.version > version, what="the press")
        await quiet(app, tg)
        assert not query.answered  # the answer was lost with the kill
        hand = rt.live.id
        [update] = [u for u in tg.updates if u.get("callback_query", {}).get("id") == query.id]
    actions = len((await _replay(db, hand)).actions)
    tg.redeliver(update["update_id"])  # the bot never confirmed it
    async with bot_running(tg, db, Clock()) as app:
        await tg.wait_for(lambda _: query.answered, what="the press answered after the restart")
        await quiet(app, tg)
        assert (query.text or "").startswith("✔ Discard"), query.text
        assert len((await _replay(db, hand)).actions) >= actions  # the hand went on, nothing twice
        record = await _replay(db, hand)
        assert len({a.version for a in record.actions}) == len(record.actions)


async def test_an_update_delivered_again_is_applied_once(tg: FakeTelegramServer, tmp_path: Path) -> None:
    """Telegram delivers an update again when the answer to it got lost (the webhook's) or the bot stopped
    before confirming it. Only a game press was recorded with its move: any other press ran its route
    again (the host's one "+AI" added two AI seats) and a command again (an admin's /stop, delivered after
    the group opened a new table, closed the new one). Now one process records every update it handled."""
    db = tmp_path / "bot.db"
    alice = tg.add_user("Alice", started=True)
    group = tg.add_group("Mahjong", members=[alice], admins=[alice])

    def update_of(match: Callable[[dict[str, Any]], bool]) -> int:
        [update] = [u for u in tg.updates if match(u)]
        return int(update["update_id"])

    app = make_app(tg, db, Clock())
    async with running(app, webhook=loopback_webhook()):
        svc = service(app)
        tid, _ = await open_table(tg, alice, group, "changsha")
        await tg.wait_for(lambda _: alice.id in svc.tables[tid].seats)
        lobby = await lobby_message(tg, group, tid, "a")
        assert await press(tg, alice, lobby, f"L|{tid}|a") == "OK"
        await quiet(app, tg)
        plus_ai = update_of(lambda u: u.get("callback_query", {}).get("data") == f"L|{tid}|a")
        tg.redeliver(plus_ai)  # its webhook answer was lost
        await quiet(app, tg)
        assert len(svc.tables[tid].settings.ai) == 1, "one press applied twice"
        assert "stopped" in (await command(tg, alice, group, "/stop")).lower()
        await quiet(app, tg)
        stop = update_of(lambda u: u.get("message", {}).get("text") == "/stop")
        tid2, _ = await open_table(tg, alice, group, "changsha")
    tg.redeliver(plus_ai)  # … and after a restart, with the /stop, as the getUpdates offset goes
    tg.redeliver(stop)
    async with bot_running(tg, db, Clock()) as app:
        svc = service(app)
        await quiet(app, tg)
        assert tid2 in svc.tables and not svc.tables[tid2].closed, "an old /stop closed the new table"


async def _replay(db: Path, hand: int) -> HandReplay:
    async with await Storage.open(db) as storage:
        return await storage.hand_replay(hand)


# ------------------------------------------------------------------ results after restarts


async def test_a_backlog_of_results_is_one_summary_sent_first_and_once(
    tg: FakeTelegramServer, tmp_path: Path
) -> None:
    """Three hands ended while the group saw none of their results (restarts in a row cut the lobby off each
    time). After the next restart the group gets one message: a line per hand, the totals, then the lobby
    with its Ready - short enough to be one message (a long one was split, and a restart sent its parts
    again), and the group's first request (it was queued behind the table's last picture, and starved under
    frequent restarts). A further restart sends it no more."""
    db = tmp_path / "bot.db"
    clock = Clock()
    alice = tg.add_user("Alice", started=True)
    group = tg.add_group("Mahjong", members=[alice])
    async with bot_running(tg, db, clock, seed_base=5) as app:
        svc = service(app)
        tid, _ = await open_table(tg, alice, group, "sichuan")
        await tg.wait_for(lambda _: alice.id in svc.tables[tid].seats)
        lobby = await lobby_message(tg, group, tid)
        tg.press(alice, group, lobby.message_id, f"L|{tid}|go")
        await until_hands(app, svc, clock, tid, tg, 3)
        hands = await svc.storage.table_hands(tid)
        assert [h.number for h in hands if h.finished] == [1, 2, 3]
    with sqlite3.connect(db) as c:  # as if no lobby after them had been sent
        c.execute("UPDATE hands SET result_delivered = 0 WHERE table_id = ?", (tid,))
    mark = tg.mark()
    async with bot_running(tg, db, clock, seed_base=5) as app:
        svc = service(app)
        await quiet(app, tg)
        calls = [c for c in tg.calls if c.seq >= mark and c.params.get("chat_id") == group.id]
        calls = [c for c in calls if c.method != "editMessageReplyMarkup"]  # the old lobby's buttons go
        assert calls[0].method == "sendMessage", [c.method for c in calls]
        text = str(calls[0].params["text"])
        assert "The results of these 3 hands" in text and "Ready" in str(calls[0].params["reply_markup"])
        assert [line.split(" · ")[0] for line in text.split("\n") if line.startswith("Hand ")] == [
            "Hand 1", "Hand 2", "Hand 3"
        ]  # fmt: skip
        assert "Table totals:" in text and "Hand 3 is over" not in text
        assert len([c for c in calls if c.method == "sendMessage"]) == 1
        assert all(h.result_delivered for h in await svc.storage.table_hands(tid))
        assert svc.tables[tid].hand_lines == {}
    mark = tg.mark()
    async with bot_running(tg, db, clock, seed_base=5) as app:
        await quiet(app, tg)
        assert [c for c in tg.calls_to("sendMessage", chat_id=group.id) if c.seq >= mark] == []


async def test_a_long_message_is_one_outbox_row_per_part(tg: FakeTelegramServer, tmp_path: Path) -> None:
    """A one-off message over Telegram's limit goes to the outbox as one row per part (the keyboard under the
    last), each deleted once sent: a restart after the first part went sends only the second (the outbox
    sent the parts of one row in one go, and a restart all of them again)."""
    db = tmp_path / "bot.db"
    alice = tg.add_user("Alice", started=True)
    group = tg.add_group("Mahjong", members=[alice])
    long = "\n".join(f"line {i} " + "x" * 60 for i in range(100))  # ~6,900 characters
    async with bot_running(tg, db, Clock()) as app:
        svc = service(app)
        tid, _ = await open_table(tg, alice, group, "changsha")
        await quiet(app, tg)
        tg.hold("sendMessage", alice)
        rt = svc.tables[tid]
        await svc.present.send_posts(rt, [post_of(alice.id, long, kb.reopen_keyboard(tid, "en"))])
        await tg.wait_for(lambda _: tg.held_calls(), what="the first part on its way")
        rows = await svc.storage.unsent_posts(tid)
        assert len(rows) == 2 and all(len(r.text) <= MAX_TEXT for r in rows)
        assert rows[0].keyboard is None and rows[1].keyboard is not None
        assert "\n".join(r.text for r in rows) == long
    tg.release()
    async with await Storage.open(db) as storage:
        await storage.post_sent(rows[0].id)  # as if Telegram had taken the first part before the kill
    async with bot_running(tg, db, Clock()) as app:
        await quiet(app, tg)
        got = [m.text for m in tg.bot_messages(alice) if (m.text or "").startswith("line ")]
        assert got == [rows[1].text]
        assert await service(app).storage.unsent_posts() == []
