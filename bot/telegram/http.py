"""The bot's HTTP client: PTB's request interface on aiohttp.

PTB's default client (httpx over httpcore, anyio and h11, all pure Python) cost a busy bot more CPU than
its game: about half of each press went into building, sending and parsing requests (bench/bot_bench.py).
aiohttp parses HTTP in C and keeps its connections alive in a plain pool, for a fraction of that. Only the
transport changes: PTB still encodes the parameters, raises its errors from the status codes and builds its
objects, so the bot behaves as before (the whole bot suite runs over it, against the fake Bot API).

What a failure means for a request that may have been carried out matters (the outbox never sends a new
message twice): ``NOT_SENT`` lists the causes that prove a request never reached Telegram.
"""

from __future__ import annotations

import functools
import itertools
import json
import secrets
from typing import Any

import aiohttp
import httpx
import yarl
from telegram import Bot
from telegram.error import NetworkError, TimedOut
from telegram.request import BaseRequest, RequestData

from bot.messages.presses import decode
from bot.telegram.ptb_private import AnswerHook, DefaultValue, JSONDict, ODVInput, post

# Failures before the request went out: no connection could be made (refused, unreachable, timed out) or
# none was free in time. httpx's are kept for PTB's own client (HTTPXRequest), should a caller pass one.
NOT_SENT: tuple[type[BaseException], ...] = (
    aiohttp.ClientConnectorError,
    aiohttp.ConnectionTimeoutError,
    httpx.ConnectError,
    httpx.ConnectTimeout,
    httpx.PoolTimeout,
)

_JSON = {"Content-Type": "application/json"}


_BOUNDARY = secrets.token_hex(12)  # and a counter: 96 random bits, in no field and no picture
_parts = itertools.count()


def _header_value(text: str) -> bytes:
    return text.replace('"', "%22").replace("\r", "%0D").replace("\n", "%0A").encode()


def multipart(fields: dict[str, str], files: dict[str, tuple[str, Any, str]]) -> tuple[bytes, str]:
    """A multipart/form-data body (the parameters as text parts, then the files) and its content type,
    built in one join: aiohttp's FormData spent more of the bot's CPU on a picture's upload than the
    picture's bytes themselves."""
    boundary = f"{_BOUNDARY}{next(_parts):08x}"
    dash = b"--" + boundary.encode()
    out: list[bytes] = []
    for name, value in fields.items():
        out += [dash, b'\r\nContent-Disposition: form-data; name="', _header_value(name), b'"\r\n\r\n']
        out += [value.encode(), b"\r\n"]
    for name, (filename, content, mimetype) in files.items():
        out += [dash, b'\r\nContent-Disposition: form-data; name="', _header_value(name), b'"; filename="']
        out += [_header_value(filename or name), b'"\r\nContent-Type: ', mimetype.encode(), b"\r\n\r\n"]
        out += [content, b"\r\n"]
    out += [dash, b"--\r\n"]
    return b"".join(out), f"multipart/form-data; boundary={boundary}"


@functools.lru_cache(maxsize=256)
def _url(url: str) -> yarl.URL:
    """A method's URL parsed once (a bot calls a dozen methods), not at every request."""
    return yarl.URL(url)


@functools.lru_cache(maxsize=64)
def _timeout(
    total: float | None, connect: float | None, sock_connect: float | None, sock_read: float | None
) -> aiohttp.ClientTimeout:
    return aiohttp.ClientTimeout(total=total, connect=connect, sock_connect=sock_connect, sock_read=sock_read)


def _body(
    request_data: RequestData | None, files: dict[str, Any] | None
) -> tuple[Any, dict[str, str] | None]:
    """A request's body and its content type (None: aiohttp's, or no body): ``files`` (the request's
    ``multipart_data``) in memory as one multipart body, a file handle streamed by aiohttp's form,
    parameters as one JSON object."""
    if files and all(isinstance(f[1], bytes) for f in files.values()):
        assert request_data is not None
        data, kind = multipart(request_data.json_parameters, files)
        return data, {"Content-Type": kind}
    if files:  # a file handle: aiohttp streams it
        form = aiohttp.FormData(quote_fields=False)
        for name, value in (request_data.json_parameters if request_data else {}).items():
            form.add_field(name, value)
        for name, (filename, content, mimetype) in files.items():
            form.add_field(name, content, filename=filename, content_type=mimetype)
        return form, None
    if request_data is not None and request_data.parameters:
        # one JSON body (the Bot API takes it): no per-field encoding, no %-escaped text
        params = request_data.parameters
        return json.dumps(params, ensure_ascii=False, separators=(",", ":")).encode(), _JSON
    return None, None


def _timeouts(
    read: float | None, write: float | None, connect: float | None, pool: float | None
) -> aiohttp.ClientTimeout:
    """PTB's four timeouts as aiohttp's: ``connect`` covers the wait for a free connection and opening one;
    ``sock_read`` the quiet time while the answer comes; the whole request (sending included) is bounded by
    their sum."""
    total = (
        None
        if read is None or write is None or connect is None or pool is None
        else read + write + connect + pool
    )
    return _timeout(total, None if connect is None or pool is None else connect + pool, connect, read)


class AiohttpRequest(BaseRequest):
    """``telegram.request.BaseRequest`` over one ``aiohttp.ClientSession`` (keep-alive, ``pool_size``
    connections at most). Timeouts as PTB's: ``connect_timeout`` to open a connection, ``pool_timeout`` to
    wait for a free one, ``read_timeout`` for the answer (a long poll adds its own); the write of a small
    request is bounded by the read timeout, an upload by ``media_write_timeout`` more."""

    __slots__ = (
        "_connect_timeout",
        "_media_write_timeout",
        "_pool_size",
        "_pool_timeout",
        "_read_timeout",
        "_session",
        "_write_timeout",
    )

    def __init__(
        self,
        pool_size: int = 16,
        *,
        read_timeout: float | None = 5.0,
        write_timeout: float | None = 5.0,
        connect_timeout: float | None = 5.0,
        pool_timeout: float | None = 1.0,
        media_write_timeout: float | None = 20.0,
    ) -> None:
        self._pool_size = pool_size
        self._read_timeout = read_timeout
        self._write_timeout = write_timeout
        self._connect_timeout = connect_timeout
        self._pool_timeout = pool_timeout
        self._media_write_timeout = media_write_timeout
        self._session: aiohttp.ClientSession | None = None  # made in initialize(), inside the event loop

    @property
    def read_timeout(self) -> float | None:
        return self._read_timeout

    async def initialize(self) -> None:
        if self._session is None or self._session.closed:
            connector = aiohttp.TCPConnector(limit=self._pool_size, limit_per_host=0, ttl_dns_cache=300)
            self._session = aiohttp.ClientSession(
                connector=connector,
                headers={"User-Agent": self.USER_AGENT},
                auto_decompress=False,  # the Bot API answers JSON uncompressed (no Accept-Encoding sent)
                skip_auto_headers=("Accept-Encoding",),
                cookie_jar=aiohttp.DummyCookieJar(),  # the Bot API sets none: no jar to filter and update
            )

    async def shutdown(self) -> None:
        if self._session is not None and not self._session.closed:
            await self._session.close()
        self._session = None

    async def do_request(
        self,
        url: str,
        method: str,
        request_data: RequestData | None = None,
        read_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
        write_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
        connect_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
        pool_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
    ) -> tuple[int, bytes]:
        session = self._session
        if session is None or session.closed:
            raise RuntimeError("This AiohttpRequest is not initialized!")
        files = request_data.multipart_data if request_data else None
        data, headers = _body(request_data, files)
        read = self._read_timeout if isinstance(read_timeout, DefaultValue) else read_timeout
        write = (
            (self._media_write_timeout if files else self._write_timeout)
            if isinstance(write_timeout, DefaultValue)
            else write_timeout
        )
        connect = self._connect_timeout if isinstance(connect_timeout, DefaultValue) else connect_timeout
        pool = self._pool_timeout if isinstance(pool_timeout, DefaultValue) else pool_timeout
        timeout = _timeouts(read, write, connect, pool)
        try:
            async with session.request(method, _url(url), data=data, headers=headers, timeout=timeout) as res:
                return res.status, await res.read()
        except aiohttp.ConnectionTimeoutError as err:
            raise TimedOut("Pool or connect timeout: the request was *not* sent to Telegram") from err
        except (TimeoutError, aiohttp.ServerTimeoutError) as err:
            raise TimedOut from err
        except aiohttp.ClientError as err:
            raise NetworkError(f"aiohttp.{err.__class__.__name__}: {err}") from err


async def call(bot: Bot, endpoint: str, params: dict[str, Any]) -> Any:
    """A Bot API method whose answer stays JSON: the outbox's sends and edits need at most the message id,
    and PTB would build a Message of every entity and button of it. The request goes the way of the Bot's
    own methods (rate limiter, the same errors); parameters that are None are left out, as PTB does."""
    return await post(bot, endpoint, {k: v for k, v in params.items() if v is not None})


_MESSAGE_KEPT = ("message_id", "chat", "date")


def slim_update(update: JSONDict) -> JSONDict:
    """A received update as the bot needs it: a game or lobby press's message reduced to its chat and id.
    PTB would otherwise build the whole message (its text, entities and every button of its keyboard) for
    each press - about half of what parsing a press costs."""
    query = update.get("callback_query")
    if isinstance(query, dict):
        message = query.get("message")
        press = decode(query.get("data"))
        # a press whose route reads nothing of the pressed message but its chat and id; the others (a score
        # board, a history page, a replay, a final summary) check the message's own buttons
        if isinstance(message, dict) and press is not None and not press.READS_MESSAGE:
            query["message"] = {k: message[k] for k in _MESSAGE_KEPT if k in message}
    return update


class LeanBot(AnswerHook):
    """PTB's bot, with presses slimmed (``slim_update``) before PTB builds its objects of them."""

    def answered(self, endpoint: str, result: Any) -> Any:
        if endpoint == "getUpdates" and isinstance(result, list):
            for update in result:
                if isinstance(update, dict):
                    slim_update(update)
        return result
