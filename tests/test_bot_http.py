"""bot/telegram/http.py, PTB's requests over aiohttp: what a failure says about whether the request reached
Telegram (the outbox resends only what cannot have arrived), JSON bodies and uploads as the Bot API takes
them."""

from __future__ import annotations

import socket

import pytest
from telegram import Bot, InputFile
from telegram.error import NetworkError, TimedOut

from bot.telegram.http import AiohttpRequest, call, slim_update
from bot.telegram.outbox import may_have_arrived

from .fake_telegram import FakeTelegramServer


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])  # nothing listens there once the socket is closed


async def test_a_refused_connection_was_not_sent() -> None:
    request = AiohttpRequest(2, connect_timeout=2)
    bot = Bot("1:x", base_url=f"http://127.0.0.1:{_closed_port()}/bot", request=request)
    await request.initialize()
    try:
        with pytest.raises(NetworkError) as info:
            await call(bot, "sendMessage", {"chat_id": 1, "text": "hi"})
        assert not may_have_arrived(info.value)
    finally:
        await request.shutdown()


async def test_a_late_answer_may_have_arrived() -> None:
    async with FakeTelegramServer() as tg:
        user = tg.add_user("Ann", started=True)
        tg.slow_next("sendMessage", 1.0)
        request = AiohttpRequest(2, read_timeout=0.2)
        bot = Bot(tg.token, base_url=tg.base_url, request=request)
        await request.initialize()
        try:
            with pytest.raises(TimedOut) as info:
                await call(bot, "sendMessage", {"chat_id": user.id, "text": "hi"})
            assert may_have_arrived(info.value)
        finally:
            await request.shutdown()
        assert tg.calls_to("sendMessage")  # it was carried out: resending would show it twice


async def test_json_body_and_upload_reach_the_api() -> None:
    async with FakeTelegramServer() as tg:
        user = tg.add_user("Ann", started=True)
        request = AiohttpRequest(2)
        bot = Bot(tg.token, base_url=tg.base_url, request=request)
        await request.initialize()
        try:
            markup = {"inline_keyboard": [[{"text": "东 ▶", "callback_data": "g|1|2|3|0"}]]}
            sent = await call(
                bot, "sendMessage", {"chat_id": user.id, "text": "一万 & 100%", "reply_markup": markup}
            )
            png = b"\x89PNG\r\n\x1a\n" + b"\x00" * 64
            photo = await call(
                bot, "sendPhoto", {"chat_id": user.id, "photo": InputFile(png), "caption": "桌"}
            )
        finally:
            await request.shutdown()
        text, pic = tg.bot_messages(user.id)[-2:]
        assert text.message_id == sent["message_id"] and text.text == "一万 & 100%"
        assert text.callback_data == ["g|1|2|3|0"]
        assert pic.message_id == photo["message_id"] and pic.caption == "桌"


def test_a_game_press_is_parsed_without_its_message_but_a_score_press_keeps_it() -> None:
    """Only what a press's handler reads of the pressed message is kept: its chat and id for a game or
    lobby button; the whole message (its buttons are checked) for a score board, history or replay."""
    chat = {"id": 5, "type": "private", "first_name": "Ann"}
    markup = {"inline_keyboard": [[{"text": "x", "callback_data": "S|all"}]]}

    def press(data: str) -> dict[str, object]:
        message = {"message_id": 9, "chat": chat, "date": 1, "text": "hand", "reply_markup": markup}
        return {"update_id": 1, "callback_query": {"id": "q", "data": data, "message": message}}

    game = slim_update(press("g|1|2|3|0"))["callback_query"]
    assert game["message"] == {"message_id": 9, "chat": chat, "date": 1}
    for data in ("S|all", "H|2", "not ours"):
        kept = slim_update(press(data))["callback_query"]
        assert kept["message"]["reply_markup"] == markup and kept["message"]["text"] == "hand"
