"""The fake Telegram Bot API server (tests/fake_telegram.py) driven by a real PTB Application over
loopback HTTP: commands and button presses in, recorded calls and surfaced errors out."""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import struct
import time
import warnings
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from telegram import (
    BotCommand,
    BotCommandScopeChat,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InputMediaPhoto,
    ReplyParameters,
    Update,
)
from telegram.error import BadRequest, EndPointNotFound, Forbidden, NetworkError, RetryAfter, TelegramError
from telegram.ext import (
    AIORateLimiter,
    Application,
    ApplicationBuilder,
    CallbackQueryHandler,
    CommandHandler,
    ContextTypes,
)

from .fake_telegram import BotApiSpec, FakeTelegramServer

POLL_TIMEOUT = 10  # long-poll seconds: the fake answers as soon as an update is queued
KEYBOARD = InlineKeyboardMarkup(
    [[InlineKeyboardButton("Yes", callback_data="yes"), InlineKeyboardButton("No", callback_data="no")]]
)
PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + struct.pack(">II", 3, 2) + b"\x08\x02\x00\x00\x00fake"


# ------------------------------------------------------------------ a small bot


async def _report(context: ContextTypes.DEFAULT_TYPE, outcome: object) -> None:
    await context.bot_data["outcomes"].put(outcome)


async def on_start(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.effective_message is not None
    await update.effective_message.reply_text(" ".join(["welcome", *(context.args or [])]))


async def on_newtable(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.effective_message is not None
    await update.effective_message.reply_text(f"table: {' '.join(context.args or [])}")


async def on_echo(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.effective_chat is not None
    try:
        sent = await update.effective_chat.send_message(
            " ".join(context.args or ["echo"]), reply_markup=KEYBOARD
        )
    except TelegramError as exc:
        await _report(context, exc)
    else:
        await _report(context, sent)


async def on_dm(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    user, message = update.effective_user, update.effective_message
    assert user is not None and message is not None
    try:
        await context.bot.send_message(user.id, "your hand: 123m 456s")
    except Forbidden as exc:
        await message.reply_text(f"{user.first_name}, open a chat with me first")
        await _report(context, exc)
    else:
        await _report(context, "dm sent")


async def on_button(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    query = update.callback_query
    assert query is not None
    await query.answer(f"you chose {query.data}", show_alert=query.data == "no")
    await query.edit_message_text(f"chosen: {query.data}")


def build_app(tg: FakeTelegramServer, *, rate_limiter: AIORateLimiter | None = None) -> Application:
    builder = tg.configure(ApplicationBuilder())
    if rate_limiter is not None:
        builder = builder.rate_limiter(rate_limiter)
    app = builder.build()
    app.bot_data["outcomes"] = asyncio.Queue()
    app.add_handler(CommandHandler("start", on_start))
    app.add_handler(CommandHandler("newtable", on_newtable))
    app.add_handler(CommandHandler("echo", on_echo))
    app.add_handler(CommandHandler("dm", on_dm))
    app.add_handler(CallbackQueryHandler(on_button))
    return app


@contextlib.asynccontextmanager
async def running(app: Application) -> AsyncIterator[Application]:
    await app.initialize()
    await app.start()
    assert app.updater is not None
    await app.updater.start_polling(poll_interval=0, timeout=POLL_TIMEOUT)
    try:
        yield app
    finally:
        await app.updater.stop()
        await app.stop()
        await app.shutdown()


async def outcome(app: Application) -> Any:
    return await asyncio.wait_for(app.bot_data["outcomes"].get(), timeout=5)


def other_tasks() -> set[asyncio.Task[Any]]:
    return {t for t in asyncio.all_tasks() if t is not asyncio.current_task() and not t.done()}


@pytest.fixture
async def tg() -> AsyncIterator[FakeTelegramServer]:
    async with FakeTelegramServer() as server:
        yield server
    assert not server._conns and not server._tasks and server._server is None
    assert other_tasks() == set()  # the app (torn down first) and the server left nothing running


@pytest.fixture
async def app(tg: FakeTelegramServer) -> AsyncIterator[Application]:
    async with running(build_app(tg)) as application:
        yield application


# ------------------------------------------------------------------ through the bot


async def test_bootstrap_and_commands(tg: FakeTelegramServer, app: Application) -> None:
    assert app.bot.username == tg.bot_username
    await tg.wait_for_call("getUpdates", finished=False)
    first = [c.method for c in tg.calls[:3]]
    assert first == ["getMe", "deleteWebhook", "getUpdates"]

    await app.bot.set_my_commands([("newtable", "open a table"), ("start", "start")])
    await app.bot.set_my_commands([("start", "开始")], scope=BotCommandScopeChat(42), language_code="zh")
    assert tg.commands() == [
        {"command": "newtable", "description": "open a table"},
        {"command": "start", "description": "start"},
    ]
    assert tg.commands({"type": "chat", "chat_id": 42}, "zh") == [{"command": "start", "description": "开始"}]
    assert await app.bot.get_my_commands() == (
        BotCommand("newtable", "open a table"),
        BotCommand("start", "start"),
    )
    with pytest.raises(BadRequest, match="(?i)bot_command_invalid"):
        await app.bot.set_my_commands([("NewTable", "capitals are not allowed")])
    assert await app.bot.close() is True and await app.bot.log_out() is True


async def test_start_with_payload_in_private(tg: FakeTelegramServer, app: Application) -> None:
    alice = tg.add_user("Alice", language_code="zh-hans")
    tg.send_text(alice, None, "/start join_42")
    call = await tg.wait_for_call("sendMessage", chat_id=alice)
    assert call.params["text"] == "welcome join_42" and "reply_parameters" not in call.params
    assert alice.started
    [user_msg, bot_msg] = tg.messages(alice)
    assert (user_msg.from_bot, bot_msg.from_bot) == (False, True)
    assert bot_msg.text == "welcome join_42" and bot_msg.reply_to_message_id is None


async def test_commands_in_group_with_and_without_bot_mention(
    tg: FakeTelegramServer, app: Application
) -> None:
    alice, bob = tg.add_user("Alice"), tg.add_user("Bob")
    table = tg.add_group("麻将桌", members=[alice, bob], supergroup=True)
    command = tg.send_text(alice, table, "/newtable changsha")
    call = await tg.wait_for_call("sendMessage", chat_id=table)
    assert call.params["text"] == "table: changsha"
    assert call.params["reply_parameters"]["message_id"] == command.message_id  # reply_text quotes in groups
    assert tg.bot_messages(table)[0].reply_to_message_id == command.message_id

    mark = tg.mark()
    tg.send_text(bob, table, "/newtable@other_bot hengyang")  # addressed to another bot: ignored
    tg.send_text(bob, table, f"/newtable@{tg.bot_username} shaoyang")
    call = await tg.wait_for_call("sendMessage", chat_id=table, since=mark)
    assert call.params["text"] == "table: shaoyang"
    await tg.wait_idle()
    assert [m.text for m in tg.bot_messages(table)] == ["table: changsha", "table: shaoyang"]


async def test_keyboard_press_answer_and_edit(tg: FakeTelegramServer, app: Application) -> None:
    alice = tg.add_user("Alice")
    table = tg.add_group(members=[alice])
    tg.send_text(alice, table, "/echo ready?")
    sent = await outcome(app)
    message = tg.message(table, sent.message_id)
    assert message.reply_markup == KEYBOARD.to_dict()  # stored as sent
    assert message.callback_data == ["yes", "no"]
    assert sent.reply_markup == KEYBOARD  # the bot parsed the realistic result

    query = tg.press(alice, table, sent.message_id, "no")
    answer = await tg.wait_for_call("answerCallbackQuery", callback_query_id=query.id)
    edit = await tg.wait_for_call("editMessageText", chat_id=table, message_id=sent.message_id)
    assert answer.ok and edit.ok
    assert query.answered and query.text == "you chose no" and query.show_alert is True
    assert tg.callback_answers == [query]
    assert message.text == "chosen: no" and message.reply_markup is None  # edit without markup drops it
    assert [v.text for v in message.versions] == ["ready?", "chosen: no"]
    assert message.history[0].reply_markup == KEYBOARD.to_dict()
    with pytest.raises(ValueError, match="no button"):
        tg.press(alice, table, sent.message_id, "yes")  # the keyboard is gone


async def test_dm_to_user_who_never_started_is_forbidden(tg: FakeTelegramServer, app: Application) -> None:
    bob = tg.add_user("Bob")
    table = tg.add_group(members=[bob])
    tg.send_text(bob, table, "/dm")
    exc = await outcome(app)
    assert isinstance(exc, Forbidden) and "bot can't initiate conversation with a user" in exc.message
    [refused] = tg.calls_to("sendMessage", chat_id=bob)
    assert refused.status == 403 and not tg.messages(bob, from_bot=True)
    await tg.wait_for_call("sendMessage", chat_id=table)

    tg.send_text(bob, None, "/start")
    await tg.wait_for_call("sendMessage", chat_id=bob, ok=True)
    tg.send_text(bob, table, "/dm")
    assert await outcome(app) == "dm sent"
    assert tg.bot_messages(bob)[-1].text == "your hand: 123m 456s"

    tg.block(bob)
    with pytest.raises(Forbidden, match="(?i)blocked by the user"):
        await app.bot.send_message(bob.id, "hello?")


# ------------------------------------------------------------------ faults


# PTB 22 itself warns about RetryAfter.retry_after becoming a timedelta when it builds the exception.
retry_after_shim = pytest.mark.filterwarnings(
    "ignore:.*retry_after.*:telegram.warnings.PTBDeprecationWarning"
)


def _seconds(exc: RetryAfter) -> float:
    with warnings.catch_warnings():  # int vs timedelta deprecation shim of PTB 22
        warnings.simplefilter("ignore")
        value = exc.retry_after
    return value if isinstance(value, int | float) else value.total_seconds()


@retry_after_shim
async def test_429_surfaces_as_retry_after_then_recovers(tg: FakeTelegramServer, app: Application) -> None:
    alice = tg.add_user("Alice")
    table = tg.add_group(members=[alice])
    fault = tg.fail_next("sendMessage", retry_after=1)
    tg.send_text(alice, table, "/echo first")
    exc = await outcome(app)
    assert isinstance(exc, RetryAfter) and _seconds(exc) == 1
    assert fault.remaining == 0 and not tg.faults
    [limited] = tg.calls_to("sendMessage")
    assert limited.status == 429 and limited.injected_fault and not tg.bot_messages(table)

    tg.send_text(alice, table, "/echo second")
    assert (await outcome(app)).text == "second"


@retry_after_shim
async def test_429_is_retried_by_aioratelimiter(tg: FakeTelegramServer) -> None:
    # AIORateLimiter sleeps retry_after + 0.1 s before retrying: keep retry_after tiny in tests.
    async with running(build_app(tg, rate_limiter=AIORateLimiter(max_retries=2))) as app:
        alice = tg.add_user("Alice")
        table = tg.add_group(members=[alice])
        tg.fail_next("sendMessage", times=2, retry_after=0.05)
        tg.send_text(alice, table, "/echo patient")
        sent = await outcome(app)
        assert sent.text == "patient"
        assert [c.status for c in tg.calls_to("sendMessage")] == [429, 429, 200]


async def test_5xx_surfaces_as_network_error_then_recovers(tg: FakeTelegramServer, app: Application) -> None:
    alice = tg.add_user("Alice")
    table = tg.add_group(members=[alice])
    tg.fail_next("sendMessage", status=500)
    tg.send_text(alice, table, "/echo a")
    exc = await outcome(app)
    assert type(exc) is NetworkError and "Internal Server Error" in exc.message

    tg.fail_next(status=502)  # any method but getUpdates: the bot's next call
    tg.send_text(alice, table, "/echo b")
    exc = await outcome(app)
    assert type(exc) is NetworkError and "Bad Gateway" in exc.message

    tg.send_text(alice, table, "/echo c")
    assert (await outcome(app)).text == "c"
    assert [c.status for c in tg.calls_to("sendMessage")] == [500, 502, 200]


# ------------------------------------------------------------------ other methods through a PTB Bot


async def test_photo_bytes_are_stored_and_downloadable(tg: FakeTelegramServer, app: Application) -> None:
    alice = tg.add_user("Alice")
    table = tg.add_group(members=[alice])
    sent = await app.bot.send_photo(table.id, photo=PNG, caption="the table", reply_markup=KEYBOARD)
    stored = tg.bot_messages(table)[-1]
    assert stored.photo is not None and stored.photo.data == PNG and stored.caption == "the table"
    assert (sent.photo[-1].width, sent.photo[-1].height) == (3, 2)
    assert sent.caption == "the table" and sent.reply_markup == KEYBOARD
    tg_file = await app.bot.get_file(sent.photo[-1].file_id)
    assert bytes(await tg_file.download_as_bytearray()) == PNG
    again = await app.bot.send_photo(table.id, photo=sent.photo[-1].file_id)  # re-send by file_id
    assert (
        tg.bot_messages(table)[-1].photo == stored.photo and again.photo[-1].file_id == sent.photo[-1].file_id
    )


async def test_chat_and_member_lookups(tg: FakeTelegramServer, app: Application) -> None:
    alice, bob, carol = tg.add_user("Alice", username="alice"), tg.add_user("Bob"), tg.add_user("Carol")
    table = tg.add_group("Table", creator=alice, admins=[bob], members=[carol], bot_status="administrator")
    chat = await app.bot.get_chat(table.id)
    assert (chat.type, chat.title) == ("group", "Table")
    private = await app.bot.get_chat(alice.id)
    assert (private.type, private.first_name, private.username) == ("private", "Alice", "alice")
    statuses = [(await app.bot.get_chat_member(table.id, u.id)).status for u in (alice, bob, carol)]
    assert statuses == ["creator", "administrator", "member"]
    outsider = tg.add_user("Dave")
    assert (await app.bot.get_chat_member(table.id, outsider.id)).status == "left"
    admins = await app.bot.get_chat_administrators(table.id)
    assert {a.user.id for a in admins} == {alice.id, bob.id, tg.bot_id}
    with pytest.raises(BadRequest, match="(?i)no administrators in the private chat"):
        await app.bot.get_chat_administrators(alice.id)
    with pytest.raises(BadRequest, match="(?i)chat not found"):
        await app.bot.send_message(-123, "nobody here")


async def test_edit_and_delete_errors(tg: FakeTelegramServer, app: Application) -> None:
    alice = tg.add_user("Alice")
    table = tg.add_group(members=[alice])
    sent = await app.bot.send_message(table.id, "hand 1", reply_markup=KEYBOARD)
    with pytest.raises(BadRequest, match="(?i)message is not modified"):
        await app.bot.edit_message_text(
            "hand 1", chat_id=table.id, message_id=sent.message_id, reply_markup=KEYBOARD
        )
    await app.bot.edit_message_reply_markup(chat_id=table.id, message_id=sent.message_id)
    assert tg.message(table, sent.message_id).reply_markup is None
    assert await app.bot.delete_message(table.id, sent.message_id) is True
    assert tg.bot_messages(table) == [] and tg.messages(table, include_deleted=True)[0].deleted
    with pytest.raises(BadRequest, match="(?i)message to delete not found"):
        await app.bot.delete_message(table.id, sent.message_id)
    with pytest.raises(BadRequest, match="(?i)message to edit not found"):
        await app.bot.edit_message_text("x", chat_id=table.id, message_id=999)
    tg.allow_refused = True  # a method the Bot API does not have: 404, as Telegram answers it
    with pytest.raises(EndPointNotFound):
        await app.bot.do_api_request("shuffleTiles", api_kwargs={"chat_id": table.id})
    assert [c.method for c in tg.refused] == ["shuffleTiles"]


# ------------------------------------------------------------------ raw HTTP and the server itself


async def test_raw_http_bodies_and_errors(tg: FakeTelegramServer) -> None:
    tg.allow_refused = True  # fooBar
    alice = tg.add_user("Alice", started=True)
    url = f"{tg.base_url}{tg.token}"
    async with httpx.AsyncClient() as client:
        as_json = await client.post(f"{url}/sendMessage", json={"chat_id": alice.id, "text": "42"})
        as_form = await client.post(f"{url}/sendmessage", data={"chat_id": str(alice.id), "text": "true"})
        as_query = await client.get(f"{url}/sendMessage", params={"chat_id": alice.id, "text": "q"})
        multipart = await client.post(
            f"{url}/sendPhoto", data={"chat_id": str(alice.id)}, files={"photo": ("p.png", PNG, "image/png")}
        )

        async def chunks() -> AsyncIterator[bytes]:
            yield b'{"chat_id": %d, ' % alice.id
            yield b'"text": "chunked"}'

        chunked = await client.post(
            f"{url}/sendMessage", content=chunks(), headers={"Content-Type": "application/json"}
        )
        unknown = await client.post(f"{url}/fooBar")
        bad_token = await client.post(f"{tg.base_url}1:wrong/getMe")
    for response in (as_json, as_form, as_query, multipart, chunked):
        assert response.status_code == 200 and response.json()["ok"] is True, response.text
        assert response.headers["connection"] == "keep-alive"
    assert [m.text for m in tg.bot_messages(alice)] == ["42", "true", "q", None, "chunked"]
    assert tg.bot_messages(alice)[3].photo.data == PNG  # type: ignore[union-attr]
    assert unknown.status_code == 404 and unknown.json() == {
        "ok": False,
        "error_code": 404,
        "description": "Not Found",
    }
    assert bad_token.status_code == 401 and bad_token.json()["description"] == "Unauthorized"
    assert [c.method for c in tg.calls] == ["sendMessage"] * 3 + [
        "sendPhoto",
        "sendMessage",
        "fooBar",
        "getMe",
    ]


async def test_long_poll_offsets_wakeup_conflict_and_shutdown() -> None:
    tg = FakeTelegramServer()
    await tg.start()
    alice = tg.add_user("Alice")
    url = f"{tg.base_url}{tg.token}/getUpdates"
    async with httpx.AsyncClient(timeout=30) as client:
        first = tg.send_text(alice, None, "queued before the poll")
        batch = (await client.post(url, json={"timeout": 30})).json()["result"]
        assert [u["message"]["text"] for u in batch] == [first.text]  # queued: answered at once

        poll = asyncio.create_task(
            client.post(url, json={"offset": batch[-1]["update_id"] + 1, "timeout": 30})
        )
        await tg.wait_for(lambda calls: len(calls) == 2 and not calls[1].done, what="a pending long poll")
        tg.send_text(alice, None, "wakes the poll")
        woken = (await poll).json()["result"]
        assert [u["message"]["text"] for u in woken] == ["wakes the poll"]
        assert tg.pending_updates == woken  # delivered but not confirmed yet

        older = asyncio.create_task(
            client.post(url, json={"offset": woken[-1]["update_id"] + 1, "timeout": 30})
        )
        await tg.wait_for(lambda calls: len(calls) == 3 and not calls[2].done, what="the older poll")
        assert tg.pending_updates == []
        newer = asyncio.create_task(
            client.post(url, json={"offset": woken[-1]["update_id"] + 1, "timeout": 30})
        )
        assert (await older).status_code == 409  # terminated by the newer getUpdates, as on Telegram

        await tg.wait_for(lambda calls: len(calls) == 4, what="the newer poll")
        started = time.monotonic()
        await tg.stop()  # short-circuits the pending long poll
        assert (await newer).json() == {"ok": True, "result": []}
        assert time.monotonic() - started < 2
    assert not tg._conns and not tg._tasks and tg._server is None
    assert other_tasks() == set()


async def test_wait_helpers_are_bounded(tg: FakeTelegramServer, app: Application) -> None:
    await tg.wait_idle()
    started = time.monotonic()
    with pytest.raises(TimeoutError, match="never"):
        await tg.wait_for(lambda calls: False, timeout=0.05, what="never")
    with pytest.raises(TimeoutError, match="sendMessage"):
        await tg.wait_for_call("sendMessage", timeout=0.05)
    assert time.monotonic() - started < 1
    tg.send_text(tg.add_user("Alice"), None, "no handler for plain text")
    await tg.wait_idle()
    assert tg.pending_updates == [] and tg.calls_to("sendMessage") == []


# ------------------------------------------------------------------ held to the Bot API
# Every request is checked against tests/data/botapi-10.1.json before it is carried out: what Telegram
# refuses is refused (400, "Bad Request: ..."), and a test whose bot sent such a request fails on leaving the
# server. These send requests by hand (JSON, form and multipart bodies) and expect the refusals.


async def _post(
    client: httpx.AsyncClient, tg: FakeTelegramServer, method: str, **body: Any
) -> httpx.Response:
    return await client.post(f"{tg.base_url}{tg.token}/{method}", **body)


def _refusal(response: httpx.Response) -> str:
    assert response.status_code == 400, response.text
    payload = response.json()
    assert payload["ok"] is False and payload["error_code"] == 400
    description: str = payload["description"]
    assert description.startswith("Bad Request: "), description
    return description.removeprefix("Bad Request: ")


async def test_requests_are_refused_as_telegram_refuses_them(tg: FakeTelegramServer) -> None:
    tg.allow_refused = True
    alice = tg.add_user("Alice", started=True)
    group = tg.add_group(members=[alice])
    tap = {"text": "Join", "callback_data": "L|1|j"}
    commands = [{"command": "newtable", "description": "open a table"}]
    async with httpx.AsyncClient() as client:

        async def json_(method: str, **params: Any) -> httpx.Response:
            return await _post(client, tg, method, json=params)

        async def form(method: str, **params: str) -> httpx.Response:
            return await _post(client, tg, method, data=params)

        async def say(**params: Any) -> str:
            """A sendMessage to the group (text "x" unless given) that must be refused: the reason."""
            return _refusal(await json_("sendMessage", **{"chat_id": group.id, "text": "x", **params}))

        def keyboard(*buttons: dict[str, Any]) -> dict[str, Any]:
            return {"inline_keyboard": [list(buttons)]}

        # an unknown method: 404, as Telegram answers it
        unknown = await json_("sendMahjong", chat_id=group.id)
        assert unknown.status_code == 404 and unknown.json()["description"] == "Not Found"
        # an unknown parameter, a missing required one
        assert 'unknown parameter "colour" of method sendMessage' in await say(colour="red")
        assert _refusal(await json_("sendMessage", text="hi")) == "chat_id is empty"
        assert _refusal(await json_("sendMessage", chat_id=group.id)) == "message text is empty"
        assert _refusal(await json_("getChatMember", chat_id=group.id)) == 'parameter "user_id" is required'
        # a wrong type at the top: JSON values must be of their type; text (a form, or a string in JSON) is
        # read as Telegram reads it, so "42" is an Integer and "two" is not
        assert await say(text=42) == 'parameter "text" must be of type String, not Integer'
        assert "must be of type Boolean, not Integer" in await say(disable_notification=1)
        refused = _refusal(await form("deleteMessage", chat_id=str(group.id), message_id="two"))
        assert refused == "parameter \"message_id\" must be of type Integer, not 'two'"
        # inside objects, recursively: reply_markup in a JSON body, and in a form body as a JSON string
        bad = keyboard(tap, {"text": 7, "callback_data": "x"})
        where = 'can\'t parse reply_markup: field "inline_keyboard[0][1].text"'
        assert await say(reply_markup=bad) == f"{where} must be of type String, not Integer"
        as_text = await form("sendMessage", chat_id=str(group.id), text="x", reply_markup=json.dumps(bad))
        assert _refusal(as_text) == f"{where} must be of type String, not Integer"
        not_json = await form("sendMessage", chat_id=str(group.id), text="x", reply_markup="{not json")
        assert _refusal(not_json) == "can't parse reply_markup JSON object"
        rows_not_arrays = {"inline_keyboard": [tap]}
        assert "Array of InlineKeyboardButton, not Object" in await say(reply_markup=rows_not_arrays)
        assert "Text buttons are unallowed" in await say(reply_markup=keyboard({"text": "Join"}))
        misspelt = keyboard({"text": "Join", "callback": "L|1|j"})
        assert '"inline_keyboard[0][0].callback" is not a field of InlineKeyboardButton' in await say(
            reply_markup=misspelt
        )
        # reply_parameters, commands and their scope, InputMedia and its subtypes
        assert await say(reply_parameters={"message_id": "1"}) == (
            'can\'t parse reply_parameters: field "message_id" must be of type Integer, not String'
        )
        scoped = await json_("setMyCommands", commands=commands, scope={"type": "chat"})
        assert _refusal(scoped) == 'can\'t parse scope: field "chat_id" is required in BotCommandScopeChat'
        scoped = await json_("setMyCommands", commands=commands, scope={"type": "everyone"})
        assert "names no kind of BotCommandScope: 'everyone'" in _refusal(scoped)
        wordy = await json_("setMyCommands", commands=[{"command": "newtable", "description": "x" * 257}])
        assert _refusal(wordy) == "BOT_COMMAND_DESCRIPTION_INVALID"
        unsaid = await json_("setMyCommands", commands=[{"command": "newtable", "description": None}])
        assert (
            _refusal(unsaid)
            == 'can\'t parse commands: field "[0].description" must be of type String, not null'
        )
        message_id = (await json_("sendMessage", chat_id=group.id, text="table")).json()["result"][
            "message_id"
        ]
        edit = {"chat_id": str(group.id), "message_id": str(message_id)}
        upload = {"pic": ("t.png", PNG, "image/png")}
        media = {"type": "photo", "media": "attach://pic", "caption": ["not", "text"]}
        as_json = {**edit, "media": json.dumps(media)}
        refused = _refusal(await _post(client, tg, "editMessageMedia", data=as_json, files=upload))
        assert refused == 'can\'t parse media: field "caption" must be of type String, not Array'
        media = {"type": "picture", "media": "attach://pic"}
        refused = _refusal(
            await json_("editMessageMedia", chat_id=group.id, message_id=message_id, media=media)
        )
        assert "names no kind of InputMedia: 'picture'" in refused
        media = {"type": "photo", "media": "attach://pic"}  # a JSON body has no uploads
        refused = _refusal(
            await json_("editMessageMedia", chat_id=group.id, message_id=message_id, media=media)
        )
        assert "names no uploaded file: 'attach://pic'" in refused
        # multipart: an upload nothing names, a caption over its limit
        photo = {"photo": ("t.png", PNG, "image/png")}
        two = await _post(client, tg, "sendPhoto", data={"chat_id": str(group.id)}, files={**photo, **upload})
        assert 'unknown parameter "pic" of method sendPhoto' in _refusal(two)
        wordy = await _post(client, tg, "sendPhoto", data={"chat_id": str(group.id), "caption": "字" * 1025},
                            files=photo)  # fmt: skip
        assert _refusal(wordy) == "message caption is too long"
        # limits in characters or in bytes, as the data says
        assert await say(text="x" * 4097) == "message is too long"
        assert await say(text="") == "message text is empty"
        wide = {"text": "Join", "callback_data": "牌" * 22}  # 22 characters, 66 bytes
        assert await say(reply_markup=keyboard(wide)) == "BUTTON_DATA_INVALID"
        assert (
            await say(reply_markup=keyboard({"text": "Join", "callback_data": ""})) == "BUTTON_DATA_INVALID"
        )
        toast = await json_("answerCallbackQuery", callback_query_id="1", text="x" * 201)
        assert _refusal(toast) == "MESSAGE_TOO_LONG"
        refusals = len(tg.refused)

        # and what Telegram takes is taken: 4,096 Chinese characters (12 KB), 64 bytes of callback data, a
        # form body with its keyboard as a JSON string and its numbers and flags as text, a scope, a link
        full = keyboard({"text": "Join", "callback_data": "x" * 64})
        taken = [await json_("sendMessage", chat_id=group.id, text="牌" * 4096, reply_markup=full)]
        taken.append(await form("sendMessage", chat_id=str(group.id), text="42", disable_notification="true",
                                reply_markup=json.dumps(keyboard(tap))))  # fmt: skip
        scope = {"type": "chat_administrators", "chat_id": group.id}
        taken.append(await json_("setMyCommands", commands=commands, scope=scope))
        link = keyboard({"text": "Open", "url": "https://t.me/fake_mahjong_bot?start=j1"})
        taken.append(await json_("sendMessage", chat_id=group.id, text="ok", reply_markup=link,
                                 reply_parameters={"message_id": message_id}))  # fmt: skip
    for response in taken:
        assert response.status_code == 200, response.text
    assert tg.bot_messages(group)[-2].text == "42" and tg.bot_messages(group)[-2].callback_data == ["L|1|j"]
    assert tg.commands(scope) == commands
    assert len(tg.refused) == refusals == 29 and all(c.status in (400, 404) for c in tg.refused)


async def test_a_refused_request_fails_the_test_that_made_it() -> None:
    """Leaving the server fails a test whose bot sent what Telegram refuses (unless the test expects it)."""
    tg = FakeTelegramServer()
    with pytest.raises(AssertionError, match=r"1 request\(s\) the Bot API refuses: sendMessage: Bad Request"):
        async with tg:
            async with httpx.AsyncClient() as client:
                await _post(client, tg, "sendMessage", json={"chat_id": 1, "text": "x", "parse": "HTML"})
    assert [c.method for c in tg.refused] == ["sendMessage"]


async def test_ptb_requests_pass_the_spec(tg: FakeTelegramServer, app: Application) -> None:
    """What PTB itself makes of the calls the bot uses (objects, InputMedia with an upload, scopes, replies)
    is taken as it is."""
    alice = tg.add_user("Alice", started=True)
    group = tg.add_group(members=[alice])
    sent = await app.bot.send_photo(group.id, photo=PNG, caption="table", reply_markup=KEYBOARD)
    await app.bot.edit_message_media(
        InputMediaPhoto(PNG + b"2", caption="table 2"), chat_id=group.id, message_id=sent.message_id,
        reply_markup=KEYBOARD,
    )  # fmt: skip
    await app.bot.edit_message_caption(chat_id=group.id, message_id=sent.message_id, caption="table 3")
    await app.bot.set_my_commands([BotCommand("stop", "end the table")], scope=BotCommandScopeChat(group.id),
                                  language_code="zh")  # fmt: skip
    await app.bot.send_message(group.id, "reply", reply_parameters=ReplyParameters(sent.message_id),
                               disable_notification=True)  # fmt: skip
    await app.bot.send_document(alice.id, document=b"{}\n", filename="hand.jsonl", caption="export")
    await app.bot.send_chat_action(group.id, "typing")
    await app.bot.get_chat_member(group.id, alice.id)
    assert tg.refused == [] and all(
        c.ok for c in tg.calls_to("sendPhoto", "editMessageMedia", "sendDocument")
    )


def test_every_union_the_bot_api_takes_tells_its_members_apart() -> None:
    """A union's members are told apart by their ``type`` (``source`` for PassportElementError), named after
    the member (InputMediaPhoto: "photo"): every member of every union a method takes has a tag, and the
    tags are Telegram's (the ones the bot and PTB send are checked by the tests above)."""
    spec = BotApiSpec.load()
    unions = {name for name, ty in spec.types.items() if ty["subtypes"]}
    for union in unions:
        field, members = spec._members(union)
        objects = [s for s in spec.types[union]["subtypes"] if s in spec.types]  # RichText: a String too
        assert sorted(s for subs in members.values() for s in subs) == sorted(objects)
        assert all(re.fullmatch(r"[a-z][a-z0-9_]*", tag) for tag in members), (union, members)
        if field is None:  # told apart by their fields alone
            assert union in ("InputMessageContent", "MaybeInaccessibleMessage"), union
    assert spec._members("InputMedia")[1]["photo"] == ["InputMediaPhoto"]
    assert spec._members("InputPollMedia")[1]["venue"] == ["InputMediaVenue"]
    assert spec._members("BotCommandScope")[1]["all_chat_administrators"] == [
        "BotCommandScopeAllChatAdministrators"
    ]
    assert spec._members("InlineQueryResult")[1]["mpeg4_gif"] == [
        "InlineQueryResultCachedMpeg4Gif",
        "InlineQueryResultMpeg4Gif",
    ]
    assert spec._members("PassportElementError") == ("source", spec._members("PassportElementError")[1])
    assert spec.version == "Bot API 10.1" and spec.method("SENDMESSAGE") == "sendMessage"
