"""The one place the bot relies on python-telegram-bot's internals. pyproject.toml bounds PTB below its next
major version for them, and tests/test_ptb_private.py fails on a version that changes them (``check``, run
at import too: a bot on such a version stops at its start, not at its first flood wait).

* ``Bot._post(endpoint, data)``: a Bot API method whose answer stays JSON, through the bot's own path (its
  rate limiter, its errors) - the outbox needs at most a message id back (``post``); and the hook on every
  answer before PTB builds objects of it (``AnswerHook``: ``LeanBot`` slims presses there).
* ``RetryAfter._retry_after``: the flood wait as a ``timedelta`` (PTB 22's public ``retry_after`` warns that
  its type will change) - ``retry_after_seconds``.
* ``AIORateLimiter._base_limiter``: the aiolimiter ``AsyncLimiter`` behind the bot's overall rate, whose
  ``max_rate`` the worker cluster shares out (bot/telegram/cluster.py) - ``base_limiter``.
* ``telegram._utils``: the types in ``BaseRequest.do_request``'s signature (``DefaultValue``, ``ODVInput``,
  ``JSONDict``), which PTB exports from no public module (bot/telegram/http.py implements that method).
"""

from __future__ import annotations

import datetime as dt
import inspect
from typing import Any

from aiolimiter import AsyncLimiter
from telegram import Bot
from telegram._utils.defaultvalue import DefaultValue
from telegram._utils.types import JSONDict, ODVInput
from telegram.error import RetryAfter
from telegram.ext import AIORateLimiter, ExtBot

__all__ = [
    "AnswerHook",
    "DefaultValue",
    "Incompatible",
    "JSONDict",
    "ODVInput",
    "base_limiter",
    "check",
    "post",
    "retry_after_seconds",
]


class Incompatible(RuntimeError):
    """The installed python-telegram-bot no longer has the internals this module uses."""


def check() -> None:
    """Raise ``Incompatible`` unless PTB still has ``async Bot._post(self, endpoint, data=None, *, ...)``, a
    ``_retry_after`` slot on ``RetryAfter`` and a ``_base_limiter`` slot on ``AIORateLimiter``."""
    post_ = getattr(Bot, "_post", None)
    if post_ is None or not inspect.iscoroutinefunction(post_):
        raise Incompatible("telegram.Bot._post is gone or no longer a coroutine function")
    params = list(inspect.signature(post_).parameters)
    if params[:3] != ["self", "endpoint", "data"]:
        raise Incompatible(f"telegram.Bot._post{inspect.signature(post_)} is not (self, endpoint, data, ...)")
    for cls, slot in ((RetryAfter, "_retry_after"), (AIORateLimiter, "_base_limiter")):
        if slot not in getattr(cls, "__slots__", ()):
            raise Incompatible(f"telegram's {cls.__name__} has no {slot} any more")


async def post(bot: Bot, endpoint: str, data: JSONDict) -> Any:
    """Call the Bot API method ``endpoint`` the way the bot's own methods do; the answer as JSON."""
    return await bot._post(endpoint, data)


class AnswerHook(ExtBot[Any]):
    """PTB's bot, each answer passed through ``answered`` before PTB builds its objects of it."""

    def answered(self, endpoint: str, result: Any) -> Any:
        """The answer to ``endpoint`` as the bot should see it (default: as it came)."""
        return result

    async def _post(self, endpoint: str, data: JSONDict | None = None, **kwargs: Any) -> Any:
        return self.answered(endpoint, await super()._post(endpoint, data, **kwargs))


def retry_after_seconds(e: RetryAfter) -> float:
    """How long Telegram asked to wait, in seconds (a fraction kept: the fake Bot API asks for those)."""
    value = e._retry_after  # a timedelta in PTB 22 (an int in older versions)
    return value.total_seconds() if isinstance(value, dt.timedelta) else float(value)


def base_limiter(limiter: object) -> AsyncLimiter | None:
    """The ``AsyncLimiter`` of the bot's overall rate inside PTB's ``AIORateLimiter`` (None: another limiter,
    none, or one without an overall rate)."""
    if not isinstance(limiter, AIORateLimiter):
        return None
    base: AsyncLimiter | None = limiter._base_limiter
    return base


check()
