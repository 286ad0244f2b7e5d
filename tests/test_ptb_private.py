"""bot/telegram/ptb_private.py: each of python-telegram-bot's internals the bot relies on, exercised on the
installed version, so that an upgrade that changes one fails here (and pyproject.toml's bound holds PTB
below its next major meanwhile)."""

from __future__ import annotations

import datetime as dt
import warnings
from typing import Any

import pytest
from telegram import Bot
from telegram.error import RetryAfter
from telegram.ext import AIORateLimiter
from telegram.warnings import PTBDeprecationWarning

from bot.telegram import ptb_private
from bot.telegram.http import AiohttpRequest
from bot.telegram.ptb_private import AnswerHook, Incompatible, base_limiter, post, retry_after_seconds

from .fake_telegram import FakeTelegramServer


def test_the_installed_version_has_what_the_bot_uses() -> None:
    ptb_private.check()


def test_check_fails_when_an_internal_changes(monkeypatch: pytest.MonkeyPatch) -> None:
    def renamed(self: Bot, method: str, payload: Any = None) -> Any: ...

    monkeypatch.setattr(Bot, "_post", renamed)
    with pytest.raises(Incompatible, match="_post"):
        ptb_private.check()
    monkeypatch.undo()
    monkeypatch.setattr(RetryAfter, "__slots__", ("_wait",))
    with pytest.raises(Incompatible, match="_retry_after"):
        ptb_private.check()


_seen: list[str] = []


class _Hooked(AnswerHook):
    def answered(self, endpoint: str, result: Any) -> Any:
        _seen.append(endpoint)
        return result


async def test_post_and_the_answer_hook_over_http() -> None:
    async with FakeTelegramServer() as tg:
        user = tg.add_user("Ann", started=True)
        request = AiohttpRequest(2)
        bot = _Hooked(tg.token, base_url=tg.base_url, request=request)
        _seen.clear()
        await request.initialize()
        try:
            sent = await post(bot, "sendMessage", {"chat_id": user.id, "text": "hi"})
            assert isinstance(sent, dict) and sent["text"] == "hi" and sent["message_id"] > 0  # JSON
            me = await bot.get_me()
            assert me.is_bot and _seen == ["sendMessage", "getMe"]
        finally:
            await request.shutdown()


def test_retry_after_seconds_keeps_fractions() -> None:
    with warnings.catch_warnings():  # PTB 22 warns in RetryAfter() itself that retry_after's type will change
        warnings.simplefilter("ignore", PTBDeprecationWarning)
        fraction, whole = RetryAfter(dt.timedelta(seconds=1.5)), RetryAfter(3)
    assert retry_after_seconds(fraction) == 1.5
    assert retry_after_seconds(whole) == 3.0


def test_base_limiter_is_the_overall_rate() -> None:
    base = base_limiter(AIORateLimiter(overall_max_rate=25))
    assert base is not None and base.max_rate == 25
    base.max_rate = 10  # what the worker cluster does with it: the limiter itself paces at the new rate
    assert base_limiter(AIORateLimiter(overall_max_rate=0)) is None
    assert base_limiter(None) is None
