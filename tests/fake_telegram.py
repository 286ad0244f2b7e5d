"""An in-process fake Telegram Bot API server for end-to-end tests of the bot.

The server is a small HTTP/1.1 server (``asyncio.start_server``, keep-alive, chunked bodies) bound to
``127.0.0.1`` on an ephemeral port. It runs on the test's own event loop, so every helper here must be
called from that loop (the tests are async; nothing is thread-safe and nothing needs to be). A real
python-telegram-bot ``Application`` reaches it through ``base_url``/``base_file_url``::

    async with FakeTelegramServer() as tg:
        app = tg.configure(ApplicationBuilder()).build()   # token + base_url + base_file_url
        ...
        alice = tg.add_user("Alice", language_code="zh-hans")
        table = tg.add_group("Mahjong table", members=[alice])
        tg.send_text(alice, table, "/newtable changsha")
        call = await tg.wait_for_call("sendMessage", chat_id=table.id)

Webhooks: after ``setWebhook(url, secret_token=...)`` the server POSTs each pending update to ``url`` as
Telegram does (JSON body, header ``X-Telegram-Bot-Api-Secret-Token``), until it is answered 2xx; an error or
a refused connection is retried after a short backoff, and never two updates of one chat at once, so a chat's
updates arrive in order. ``getUpdates`` answers 409 while a webhook is set (as Telegram).

Every request is first held to the Bot API (``BotApiSpec``, tests/data/botapi-10.1.json): what Telegram
would refuse - an unknown method, parameter or field, a missing required one, a wrong type anywhere inside,
a string out of its limit - is answered as Telegram answers it, listed in ``refused``, and fails the test
on leaving the server (``allow_refused`` for tests that send such requests on purpose).

State the tests read: ``calls`` (every request in order), ``messages(chat)`` (per-chat messages with edit
history), ``callback_queries``/``callback_answers``, ``commands()``, ``updates``. Faults: ``fail_next``.
Waiting: ``wait_for``, ``wait_for_call``, ``wait_idle`` - all bounded by a timeout, none sleeps a fixed
amount. See the module's classes for the JSON shapes; they follow https://core.telegram.org/bots/api.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import itertools
import json
import math
import os
import re
import struct
import time
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from http import HTTPStatus
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, unquote, urlsplit

DEFAULT_TOKEN = "123456789:TEST-fake-telegram-token"
GROUP_ANONYMOUS_BOT = 1087968824  # Telegram's stand-in user of a group's anonymous admins
CHANNEL_BOT = 136817688  # ... and of a channel writing in a group
DEFAULT_TIMEOUT = 5.0
"""Default bound, in seconds, of every ``wait_*`` helper."""
_QUIET = 0.1  # wait_idle: no call for this long means idle, when the bot cannot tell (another process)
_SETTLE = 0.02  # … and when an in-process bot tells what it is doing (``bot_activity``)
_PROBE_POLL = 0.005  # how often wait_idle asks ``bot_activity`` again while the bot is at work

_MAX_HEAD = 64 * 1024
_GET_UPDATES = "getUpdates"

_COMMAND_RE = re.compile(r"^[a-z0-9_]{1,32}$")


def _utf16_len(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def _now() -> int:
    return int(time.time())


# --------------------------------------------------------------------------------------------------
# Records the tests read


@dataclass(eq=False)
class FakeUser:
    """A Telegram user. ``started``: has opened a private chat with the bot (sent /start there)."""

    id: int
    first_name: str
    language_code: str | None = "en"
    username: str | None = None
    last_name: str | None = None
    started: bool = False
    blocked: bool = False
    is_bot: bool = (
        False  # another bot's account (``add_user(is_bot=True)``), or a stand-in (``send_as_chat``)
    )

    def to_api(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "is_bot": self.is_bot, "first_name": self.first_name}
        if self.last_name:
            out["last_name"] = self.last_name
        if self.username:
            out["username"] = self.username
        if self.language_code:
            out["language_code"] = self.language_code
        return out


@dataclass(eq=False)
class FakeChat:
    """A chat: ``private`` (id == the user's id), ``group`` or ``supergroup``.

    ``members`` maps user id to a ChatMember status: creator, administrator, member, left, kicked.
    ``bot_status`` is the bot's own status in a group (member, administrator, left, kicked).
    """

    id: int
    type: str
    title: str | None = None
    user: FakeUser | None = None
    username: str | None = None
    members: dict[int, str] = field(default_factory=dict)
    bot_status: str = "member"
    messages: list[FakeMessage] = field(default_factory=list)
    _next_message_id: int = 1
    migrated_to: int | None = None  # a group upgraded to this supergroup (``migrate_group``)

    def to_api(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "type": self.type}
        if self.type == "private" and self.user is not None:
            out["first_name"] = self.user.first_name
            if self.user.last_name:
                out["last_name"] = self.user.last_name
            if self.user.username:
                out["username"] = self.user.username
        else:
            out["title"] = self.title or ""
            if self.username:
                out["username"] = self.username
        return out

    def next_message_id(self) -> int:
        mid = self._next_message_id
        self._next_message_id += 1
        return mid


@dataclass
class UploadedFile:
    """A file part of a multipart request (or a stored photo)."""

    field_name: str
    filename: str | None
    content_type: str | None
    data: bytes


@dataclass
class MessageVersion:
    """One version of a message's content; ``FakeMessage.history`` holds them oldest first."""

    text: str | None
    caption: str | None
    reply_markup: dict[str, Any] | None
    time: float
    photo_file_id: str | None = None  # a photo message's picture in this version


@dataclass(eq=False)
class FakeMessage:
    """A message in a chat, sent by the bot (``from_bot``) or injected as sent by a user.

    ``reply_markup`` is the markup exactly as the bot sent it (inline, reply keyboard, remove...).
    ``history`` lists the earlier versions (before each edit), oldest first; ``versions`` adds the
    current one. ``photo`` holds the uploaded bytes of a sendPhoto.
    """

    chat: FakeChat
    message_id: int
    date: int
    from_bot: bool
    sender: FakeUser | None = None
    sender_chat: FakeChat | None = None  # sent on behalf of a chat (``send_as_chat``)
    text: str | None = None
    caption: str | None = None
    entities: list[dict[str, Any]] | None = None
    parse_mode: str | None = None
    reply_markup: dict[str, Any] | None = None
    photo: UploadedFile | None = None
    document: UploadedFile | None = None  # a sendDocument's uploaded file
    photo_file_id: str | None = None
    reply_to_message_id: int | None = None
    edit_date: int | None = None
    deleted: bool = False
    history: list[MessageVersion] = field(default_factory=list)
    call: Call | None = None
    updated: float = field(default_factory=time.monotonic)

    @property
    def chat_id(self) -> int:
        return self.chat.id

    @property
    def buttons(self) -> list[dict[str, Any]]:
        """The inline keyboard buttons, row by row, flattened."""
        rows = (self.reply_markup or {}).get("inline_keyboard") or []
        return [button for row in rows for button in row]

    @property
    def callback_data(self) -> list[str]:
        return [b["callback_data"] for b in self.buttons if "callback_data" in b]

    @property
    def versions(self) -> list[MessageVersion]:
        current = MessageVersion(self.text, self.caption, self.reply_markup, self.updated, self.photo_file_id)
        return [*self.history, current]

    def to_api(self, server: FakeTelegramServer) -> dict[str, Any]:
        out: dict[str, Any] = {
            "message_id": self.message_id,
            "from": server.bot_user if self.from_bot else self.sender.to_api() if self.sender else None,
            "chat": self.chat.to_api(),
            "date": self.date,
        }
        if out["from"] is None:
            del out["from"]
        if self.sender_chat is not None:
            out["sender_chat"] = self.sender_chat.to_api()
        if self.edit_date is not None:
            out["edit_date"] = self.edit_date
        if self.text is not None:
            out["text"] = self.text
        if self.entities:
            out["caption_entities" if self.photo_file_id else "entities"] = self.entities
        if self.photo_file_id is not None:
            out["photo"] = [server._photo_size(self.photo_file_id)]
            if self.caption is not None:
                out["caption"] = self.caption
        if self.document is not None:
            out["document"] = server._document_api(self)
            if self.caption is not None:
                out["caption"] = self.caption
        if self.reply_markup and "inline_keyboard" in self.reply_markup:
            out["reply_markup"] = {"inline_keyboard": self.reply_markup["inline_keyboard"]}
        if self.reply_to_message_id is not None:
            replied = server._find_message(self.chat, self.reply_to_message_id)
            if replied is not None and not replied.deleted:
                inner = replied.to_api(server)
                inner.pop("reply_to_message", None)
                out["reply_to_message"] = inner
        return out


@dataclass(eq=False)
class FakeCallbackQuery:
    """A button press injected by ``press``; the answer fields are filled by answerCallbackQuery."""

    id: str
    user: FakeUser
    message: FakeMessage
    data: str
    answered: bool = False
    text: str | None = None
    show_alert: bool = False
    url: str | None = None
    cache_time: int | None = None


@dataclass(eq=False)
class Call:
    """One HTTP request to the Bot API. ``status`` is None while in flight, then the HTTP status."""

    seq: int
    method: str
    params: dict[str, Any]
    time: float
    files: dict[str, UploadedFile] = field(default_factory=dict)
    status: int | None = None
    result: Any = None
    error: str | None = None
    finished: float | None = None
    injected_fault: bool = False
    held: bool = False  # held unanswered by ``hold`` (then answered 502, without effect)

    @property
    def done(self) -> bool:
        return self.finished is not None

    @property
    def ok(self) -> bool:
        return self.status == 200

    def matches(self, method: str | None = None, **params: Any) -> bool:
        if method is not None and self.method.lower() != method.lower():
            return False
        return all(self.params.get(k) == _plain(v) for k, v in params.items())

    def __repr__(self) -> str:
        shown = {k: v for k, v in self.params.items() if k not in ("reply_markup",)}
        state = "in flight" if not self.done else self.status
        return f"<Call #{self.seq} {self.method} {shown} -> {state}>"


@dataclass
class Fault:
    """A pending injected failure; ``remaining`` counts down as calls consume it."""

    method: str | None
    remaining: int
    status: int
    retry_after: float | None
    description: str


def _plain(value: Any) -> Any:
    """Lets tests pass FakeUser/FakeChat/FakeMessage where the API has an id."""
    if isinstance(value, FakeUser | FakeChat):
        return value.id
    if isinstance(value, FakeMessage):
        return value.message_id
    return value


# --------------------------------------------------------------------------------------------------
# Errors


class ApiError(Exception):
    """A Bot API error answer: ``{"ok": false, "error_code": status, "description": ...}``."""

    def __init__(self, status: int, description: str, parameters: dict[str, Any] | None = None):
        super().__init__(description)
        self.status = status
        self.description = description
        self.parameters = parameters

    def payload(self) -> dict[str, Any]:
        out: dict[str, Any] = {"ok": False, "error_code": self.status, "description": self.description}
        if self.parameters:
            out["parameters"] = self.parameters
        return out


def _bad(description: str) -> ApiError:
    return ApiError(400, f"Bad Request: {description}")


class _ClientGone(Exception):
    """The client closed its connection while a long poll was pending."""


class _HttpError(Exception):
    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status


# --------------------------------------------------------------------------------------------------
# HTTP/1.1 plumbing


@dataclass
class _Request:
    method: str
    target: str
    headers: dict[str, str]
    body: bytes
    keep_alive: bool


class _Connection:
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter):
        self.reader = reader
        self.writer = writer
        self.buf = bytearray()
        self.eof = False
        self.busy = False
        self.task: asyncio.Task[Any] | None = None

    async def _fill(self) -> bool:
        data = await self.reader.read(65536)
        if not data:
            self.eof = True
            return False
        self.buf += data
        return True

    async def _read_until(self, sep: bytes, limit: int) -> bytes | None:
        while True:
            i = self.buf.find(sep)
            if i >= 0:
                out = bytes(self.buf[:i])
                del self.buf[: i + len(sep)]
                return out
            if len(self.buf) > limit:
                raise _HttpError(431, "request header too large")
            if self.eof or not await self._fill():
                return None

    async def _read_exact(self, n: int) -> bytes:
        while len(self.buf) < n:
            if self.eof or not await self._fill():
                raise ConnectionError("client closed the connection mid-body")
        out = bytes(self.buf[:n])
        del self.buf[:n]
        return out

    async def _read_chunked(self) -> bytes:
        body = bytearray()
        while True:
            line = await self._read_until(b"\r\n", 1024)
            if line is None:
                raise ConnectionError("client closed the connection mid-body")
            size = int(line.split(b";")[0].strip() or b"0", 16)
            if size == 0:
                while (trailer := await self._read_until(b"\r\n", _MAX_HEAD)) != b"":
                    if trailer is None:
                        raise ConnectionError("client closed the connection mid-body")
                return bytes(body)
            body += await self._read_exact(size)
            await self._read_exact(2)

    async def read_request(self) -> _Request | None:
        head = await self._read_until(b"\r\n\r\n", _MAX_HEAD)
        if head is None:
            return None
        lines = head.decode("latin-1").lstrip("\r\n").split("\r\n")
        parts = lines[0].split(" ")
        if len(parts) != 3 or not parts[2].startswith("HTTP/1."):
            raise _HttpError(400, f"bad request line {lines[0]!r}")
        method, target, version = parts
        headers: dict[str, str] = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
        if headers.get("expect", "").lower() == "100-continue":
            self.writer.write(b"HTTP/1.1 100 Continue\r\n\r\n")
            await self.writer.drain()
        if "chunked" in headers.get("transfer-encoding", "").lower():
            body = await self._read_chunked()
        else:
            body = await self._read_exact(int(headers.get("content-length") or 0))
        connection = headers.get("connection", "").lower()
        keep_alive = "close" not in connection if version == "HTTP/1.1" else "keep-alive" in connection
        return _Request(method.upper(), target, headers, body, keep_alive)

    async def peer_closed(self) -> bool:
        """Reads ahead while a long poll waits: True when the client hung up, False if it sent data."""
        if self.eof:
            return True
        return not await self._fill()

    async def respond(self, status: int, body: bytes, content_type: str, keep_alive: bool) -> None:
        try:
            reason = HTTPStatus(status).phrase
        except ValueError:
            reason = "Unknown"
        head = (
            f"HTTP/1.1 {status} {reason}\r\n"
            f"Content-Type: {content_type}\r\n"
            f"Content-Length: {len(body)}\r\n"
            f"Connection: {'keep-alive' if keep_alive else 'close'}\r\n"
            "Server: fake-telegram\r\n\r\n"
        )
        self.writer.write(head.encode("latin-1") + body)
        await self.writer.drain()


def _header_param(value: str, key: str) -> str | None:
    m = re.search(rf'(?:^|;)\s*{key}\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;\s]*))', value, re.IGNORECASE)
    if m is None:
        return None
    return m.group(1) if m.group(1) is not None else m.group(2)


def _parse_multipart(body: bytes, content_type: str) -> tuple[dict[str, str], dict[str, UploadedFile]]:
    boundary = _header_param(content_type, "boundary")
    if not boundary:
        raise _bad("multipart body without boundary")
    fields: dict[str, str] = {}
    files: dict[str, UploadedFile] = {}
    for part in body.split(b"--" + boundary.encode("latin-1"))[1:]:
        if part.startswith(b"--"):
            break
        head, sep, content = part.removeprefix(b"\r\n").partition(b"\r\n\r\n")
        if not sep:
            continue
        content = content.removesuffix(b"\r\n")
        headers = {}
        for line in head.decode("utf-8", "replace").split("\r\n"):
            key, _, value = line.partition(":")
            headers[key.strip().lower()] = value.strip()
        disposition = headers.get("content-disposition", "")
        name = _header_param(disposition, "name")
        if name is None:
            continue
        filename = _header_param(disposition, "filename")
        if filename is not None:
            files[name] = UploadedFile(name, filename, headers.get("content-type"), content)
        else:
            fields[name] = content.decode("utf-8")
    return fields, files


def _image_size(data: bytes) -> tuple[int, int]:
    """(width, height) of a PNG, GIF or JPEG; (1, 1) for anything else."""
    if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24:
        w, h = struct.unpack(">II", data[16:24])
        return int(w), int(h)
    if data[:6] in (b"GIF87a", b"GIF89a") and len(data) >= 10:
        w, h = struct.unpack("<HH", data[6:10])
        return int(w), int(h)
    if data[:2] == b"\xff\xd8":
        i = 2
        while i + 9 <= len(data) and data[i] == 0xFF:
            marker = data[i + 1]
            if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
                h, w = struct.unpack(">HH", data[i + 5 : i + 9])
                return int(w), int(h)
            i += 2 + struct.unpack(">H", data[i + 2 : i + 4])[0]
    return 1, 1


def _update_type(update: dict[str, Any]) -> str:
    return next(k for k in update if k != "update_id")


# --------------------------------------------------------------------------------------------------
# The Bot API as Telegram accepts it: every request is checked against tests/data/botapi-10.1.json (each
# method's parameters, each type's fields: accepted types, required or not, length limits) before the fake
# carries it out. What the bot sends that Telegram would refuse is refused here too, so the suite finds it.

SPEC_FILE = Path(__file__).resolve().parent / "data" / "botapi-10.1.json"

# An inline keyboard button is of exactly one kind (Bot API: "Exactly one of the optional fields must be
# used to specify type of the button"): the data cannot say it, Telegram refuses a button of none or two.
_BUTTON_KINDS = frozenset(
    {
        "url", "callback_data", "web_app", "login_url", "switch_inline_query",
        "switch_inline_query_current_chat", "switch_inline_query_chosen_chat", "copy_text", "callback_game",
        "pay",
    }
)  # fmt: skip
# Telegram's own words for the refusals the bot can meet, by (method or type, field); "*" any owner:
# (too short, too long), else "field ... must be ... long".
_LIMIT_WORDS: dict[tuple[str, str], tuple[str, str]] = {
    ("sendMessage", "text"): ("message text is empty", "message is too long"),
    ("editMessageText", "text"): ("message text is empty", "message is too long"),
    ("*", "caption"): ("message caption is empty", "message caption is too long"),
    ("InlineKeyboardButton", "callback_data"): ("BUTTON_DATA_INVALID", "BUTTON_DATA_INVALID"),
    ("BotCommand", "command"): ("BOT_COMMAND_INVALID", "BOT_COMMAND_INVALID"),
    ("BotCommand", "description"): ("BOT_COMMAND_DESCRIPTION_INVALID", "BOT_COMMAND_DESCRIPTION_INVALID"),
    ("answerCallbackQuery", "text"): ("MESSAGE_TOO_LONG", "MESSAGE_TOO_LONG"),
}
_MISSING_WORDS = {
    "chat_id": "chat_id is empty",
    "text": "message text is empty",
    "photo": "there is no photo in the request",
    "document": "there is no document in the request",
}
# A union whose members are told apart by another field than ``type``, and members whose tag is not their
# name's tail (PassportElementErrorDataField is source "data"; ChatMemberOwner is status "creator").
_DISCRIMINATOR = {"PassportElementError": "source", "ChatBoostSource": "source", "ChatMember": "status"}
_TAG = {"PassportElementErrorDataField": "data", "ChatMemberOwner": "creator", "ChatMemberBanned": "kicked"}
_SCALARS = frozenset({"String", "Integer", "Float", "Boolean", "InputFile"})
_INTEGER = re.compile(r"[+-]?\d+")
_ATTACH = "attach://"


class _Refusal(Exception):
    """What a value's check found wrong, and where: ``path``, the keys and indices under the value checked,
    is filled in on the way out (each level puts its own in front)."""

    def __init__(self, problem: str, *, words: str | None = None, path: tuple[str | int, ...] = ()):
        super().__init__(problem)
        self.path = path
        self.problem = problem
        self.words = words  # Telegram's own description, when it has one ({param}: the parameter's name)


def _kind(value: Any) -> str:
    """A JSON value's type, as the Bot API names them."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "Boolean"
    if isinstance(value, int):
        return "Integer"
    if isinstance(value, float):
        return "Float"
    if isinstance(value, str):
        return "String"
    return "Array" if isinstance(value, list) else "Object"


def _where(path: tuple[str | int, ...]) -> str:
    out = ""
    for step in path:
        out += f"[{step}]" if isinstance(step, int) else (f".{step}" if out else step)
    return out


def _snake(name: str) -> str:
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name).lower()


class BotApiSpec:
    """The Bot API's methods and types (``botapi-10.1.json``) and the check of a request against them.

    ``check`` takes a request's parameters as they came - ``text`` from a query string, a form or a
    multipart body (the wire's strings: each is read as its parameter's type, a JSON-serialised object
    parsed), ``native`` from a JSON body (a string there is read as in a form, as Telegram does) - and
    its uploaded ``files``. It returns the parameters with their types, or raises ``ApiError`` 400 in
    Telegram's style: an unknown parameter, a missing required one, a value of the wrong type (nested
    objects, arrays and unions - ``reply_markup``, ``media``, ``commands``... - recursively), a string out
    of its length limit (characters or UTF-8 bytes, as the data says), an ``attach://`` naming no upload,
    an upload nothing names. Stricter than Telegram in one way: unknown parameters and fields, which
    Telegram ignores, are refused, so that a misspelt one is found rather than silently dropped."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.version: str = data.get("version", "")
        self.methods: dict[str, tuple[str, dict[str, Any]]] = {
            name.lower(): (name, params) for name, params in data["methods"].items()
        }
        self.types: dict[str, dict[str, Any]] = data["types"]
        self._tags: dict[str, tuple[str | None, dict[str, list[str]]]] = {}
        self._needs: dict[str, tuple[str, ...]] = {}

    @classmethod
    @functools.cache
    def load(cls, path: Path = SPEC_FILE) -> BotApiSpec:
        return cls(json.loads(path.read_text(encoding="utf-8")))

    def method(self, name: str) -> str | None:
        """The method's own spelling (Telegram's method names are case-insensitive), None if unknown."""
        found = self.methods.get(name.lower())
        return found[0] if found else None

    # ------------------------------------------------------------ a request

    def check(
        self,
        method: str,
        text: dict[str, str],
        native: dict[str, Any],
        files: dict[str, UploadedFile] | None = None,
    ) -> dict[str, Any]:
        name, params = self.methods[method.lower()]
        files = files or {}
        used: set[str] = set()
        out: dict[str, Any] = {}
        given = {**text, **{k: v for k, v in native.items() if v is not None}}
        for key, value in given.items():
            spec = params.get(key)
            if spec is None:
                raise _bad(f'unknown parameter "{key}" of method {name}')
            try:
                if isinstance(value, str):
                    out[key] = self._from_text(value, spec["types"], key, files, used)
                else:
                    out[key] = self._value(value, spec["types"], files, used)
                if spec["limit"] and isinstance(out[key], str):
                    self._limit(out[key], spec["limit"], name, key)
            except _Refusal as refusal:
                raise self._refused((key, *refusal.path), refusal) from None
        for key in files:
            if key in used:
                continue
            spec = params.get(key)
            if spec is None or "InputFile" not in spec["types"]:
                raise _bad(f'unknown parameter "{key}" of method {name}: an upload that nothing names')
            if key in given:
                raise _bad(f'parameter "{key}" is given twice: as a value and as an upload')
        for key, spec in params.items():
            if spec["required"] and key not in out and key not in files:
                raise _bad(_MISSING_WORDS.get(key, f'parameter "{key}" is required'))
        return out

    @staticmethod
    def _refused(path: tuple[str | int, ...], refusal: _Refusal) -> ApiError:
        if refusal.words is not None:
            return _bad(refusal.words.replace("{param}", str(path[0])))
        head, rest = path[0], path[1:]
        if not rest:
            return _bad(f'parameter "{head}" {refusal.problem}')
        return _bad(f'can\'t parse {head}: field "{_where(rest)}" {refusal.problem}')

    # ------------------------------------------------------------ values
    # A refusal's path is built on its way out (each level puts its key in front), not on every call.

    def _from_text(
        self, raw: str, types: list[str], key: str, files: dict[str, UploadedFile], used: set[str]
    ) -> Any:
        """A parameter sent as text: an Integer, Float or Boolean read from it, an object or array parsed
        from its JSON; String takes any text (tried last: a chat_id "42" is the Integer 42)."""
        if "InputFile" in types and raw.startswith(_ATTACH):
            return self._attached(raw, files, used)
        for ty in types:
            if ty == "Integer" and _INTEGER.fullmatch(raw.strip()):
                return int(raw)
            if ty == "Float":
                with contextlib.suppress(ValueError):
                    number = float(raw)
                    if math.isfinite(number):
                        return number
            if ty == "Boolean" and raw.strip().lower() in ("true", "false", "1", "0"):
                return raw.strip().lower() in ("true", "1")
        if "String" in types:
            return raw
        structured = [ty for ty in types if ty not in _SCALARS]
        if structured:
            try:
                parsed = json.loads(raw)
            except ValueError:
                raise _Refusal("", words="can't parse {param} JSON object") from None
            return self._value(parsed, structured, files, used)
        raise _Refusal(f"must be of type {' or '.join(types)}, not {raw[:32]!r}")

    def _value(self, value: Any, types: list[str], files: dict[str, UploadedFile], used: set[str]) -> Any:
        """``value`` as one of ``types``; the refusal of the type the value came closest to otherwise."""
        if len(types) == 1:
            return self._typed(value, types[0], files, used)
        best: _Refusal | None = None
        for ty in types:
            try:
                return self._typed(value, ty, files, used)
            except _Refusal as refusal:
                if best is None or len(refusal.path) > len(best.path):
                    best = refusal
        assert best is not None
        raise best

    def _typed(self, value: Any, ty: str, files: dict[str, UploadedFile], used: set[str]) -> Any:
        if ty == "String":
            if type(value) is not str:
                raise _wrong(value, ty)
            return value
        if ty == "Integer":
            if type(value) is not int:
                raise _wrong(value, ty)
            return value
        if ty == "Boolean":
            if type(value) is not bool:
                raise _wrong(value, ty)
            return value
        if ty.startswith("Array of "):
            if not isinstance(value, list):
                raise _wrong(value, ty)
            inner = ty.removeprefix("Array of ")
            for i, item in enumerate(value):
                try:
                    self._typed(item, inner, files, used)
                except _Refusal as refusal:
                    refusal.path = (i, *refusal.path)
                    raise
            return value
        if ty == "Float":
            if type(value) not in (int, float):
                raise _wrong(value, ty)
            return value
        if ty == "InputFile":
            if not isinstance(value, str) or not value.startswith(_ATTACH):
                raise _wrong(value, ty)
            return self._attached(value, files, used)
        if self.types[ty]["subtypes"]:
            return self._one_of(value, ty, files, used)
        if not isinstance(value, dict):
            raise _wrong(value, ty)
        return self._object(value, ty, files, used)

    @staticmethod
    def _attached(value: str, files: dict[str, UploadedFile], used: set[str]) -> str:
        part = value.removeprefix(_ATTACH)
        if part not in files:
            raise _Refusal(f"names no uploaded file: {value!r}")
        used.add(part)
        return value

    def _object(
        self, value: dict[str, Any], ty: str, files: dict[str, UploadedFile], used: set[str]
    ) -> dict[str, Any]:
        fields: dict[str, Any] = self.types[ty]["fields"]
        for key in self._required(ty):
            if key not in value:
                raise _Refusal(f"is required in {ty}", path=(key,))
        for key, item in value.items():
            spec = fields.get(key)
            if spec is None:
                if not fields:  # a type with no fields stated (CallbackGame): anything
                    break
                raise _Refusal(f"is not a field of {ty}", path=(key,))
            try:
                types = spec["types"]
                if len(types) == 1:
                    self._typed(item, types[0], files, used)
                else:
                    self._value(item, types, files, used)
                if type(item) is str:
                    if spec["limit"]:
                        self._limit(item, spec["limit"], ty, key)
                    if item.startswith(_ATTACH):  # a file field of an object: media, thumbnail, cover...
                        self._attached(item, files, used)
            except _Refusal as refusal:
                refusal.path = (key, *refusal.path)
                raise
        if ty == "InlineKeyboardButton":
            kinds = _BUTTON_KINDS.intersection(value)
            if len(kinds) != 1:
                words = "can't parse inline keyboard button: " + (
                    "Text buttons are unallowed in the inline keyboard"
                    if not kinds
                    else f"a button of several kinds ({', '.join(sorted(kinds))})"
                )
                raise _Refusal(words, words=words)
        return value

    def _required(self, ty: str) -> tuple[str, ...]:
        found = self._needs.get(ty)
        if found is None:
            fields = self.types[ty]["fields"]
            found = self._needs[ty] = tuple(k for k, spec in fields.items() if spec["required"])
        return found

    def _one_of(self, value: Any, ty: str, files: dict[str, UploadedFile], used: set[str]) -> Any:
        """A union (InputMedia, BotCommandScope, MenuButton...): the member its ``type`` names; a union whose
        members have no tag field (InputMessageContent): the first member the value fits. A union may have
        members that are no objects (RichText: a String, an Array of RichText, or one of its objects)."""
        subtypes: list[str] = self.types[ty]["subtypes"]
        if not isinstance(value, dict):
            plain = [s for s in subtypes if s not in self.types]
            if not plain:
                raise _wrong(value, ty)
            return self._value(value, plain, files, used)
        field_name, members = self._members(ty)
        if field_name is None:
            candidates = [s for s in subtypes if s in self.types]
        else:
            tag = value.get(field_name)
            if tag is None:
                raise _Refusal(f"is required in {ty}", path=(field_name,))
            candidates = members.get(tag, []) if isinstance(tag, str) else []
            if not candidates:
                known = ", ".join(sorted(members))
                raise _Refusal(f"names no kind of {ty}: {tag!r} (known: {known})", path=(field_name,))
        return self._value(value, candidates, files, used)

    def _members(self, ty: str) -> tuple[str | None, dict[str, list[str]]]:
        """A union's tag field and its members by tag: each member's name less the union's (or the
        members' common) prefix, in snake case (InputMediaPhoto: "photo", BotCommandScopeAllGroupChats:
        "all_group_chats", InlineQueryResultCachedPhoto: "photo")."""
        if ty in self._tags:
            return self._tags[ty]
        subtypes = [s for s in self.types[ty]["subtypes"] if s in self.types]
        field_name: str | None = _DISCRIMINATOR.get(ty, "type")
        if not all(self.types[s]["fields"].get(field_name, {}).get("required") for s in subtypes):
            field_name = None
        words = os.path.commonprefix([re.findall(r"[A-Z][a-z0-9]*", s) for s in subtypes])
        prefix = ty if all(s.startswith(ty) for s in subtypes) else "".join(words)
        members: dict[str, list[str]] = {}
        for sub in subtypes:
            tag = _TAG.get(sub) or _snake(sub.removeprefix(prefix).removeprefix("Cached"))
            members.setdefault(tag, []).append(sub)
        self._tags[ty] = (field_name, members)
        return field_name, members

    @staticmethod
    def _limit(value: str, limit: list[Any], owner: str, key: str) -> None:
        low, high, unit = limit
        size = len(value.encode()) if unit == "bytes" else len(value)
        if low <= size <= high:
            return
        words = _LIMIT_WORDS.get((owner, key)) or _LIMIT_WORDS.get(("*", key))
        problem = f"must be {low}-{high} {unit} long, not {size}"
        raise _Refusal(problem, words=words[size > high] if words else None)


def _wrong(value: Any, ty: str) -> _Refusal:
    return _Refusal(f"must be of type {ty}, not {_kind(value)}")


# --------------------------------------------------------------------------------------------------
# The server


Handler = Callable[[Call], Any]


class FakeTelegramServer:
    """Fake Bot API on 127.0.0.1:<ephemeral>. Use as ``async with FakeTelegramServer() as tg:``."""

    def __init__(
        self,
        token: str = DEFAULT_TOKEN,
        *,
        bot_username: str = "fake_mahjong_bot",
        bot_first_name: str = "Fake Mahjong Bot",
        spec: BotApiSpec | None = None,
    ) -> None:
        self.token = token
        # Every request is held to the Bot API (``BotApiSpec``): one it refuses is answered 400 (an unknown
        # method 404) and listed in ``refused``, and leaving the ``async with`` fails the test if any was,
        # unless the test expects refusals (``allow_refused``): the bot must never send what Telegram refuses.
        self.spec = spec or BotApiSpec.load()
        self.refused: list[Call] = []
        self.allow_refused = False
        self.bot_id = int(token.split(":", 1)[0])
        self.bot_username = bot_username
        self.bot_user: dict[str, Any] = {
            "id": self.bot_id,
            "is_bot": True,
            "first_name": bot_first_name,
            "username": bot_username,
            "can_join_groups": True,
            "can_read_all_group_messages": False,
            "supports_inline_queries": False,
            "can_connect_to_business": False,
            "has_main_web_app": False,
        }
        self.port = 0
        # State for the tests.
        self.calls: list[Call] = []
        self.users: dict[int, FakeUser] = {}
        self.chats: dict[int, FakeChat] = {}
        self.updates: list[dict[str, Any]] = []
        self.callback_queries: dict[str, FakeCallbackQuery] = {}
        self.callback_answers: list[FakeCallbackQuery] = []
        self.files: dict[str, UploadedFile] = {}
        self.downloads: list[str] = []
        self.faults: list[Fault] = []
        self.internal_errors: list[BaseException] = []
        self.webhook_url = ""
        self.webhook_secret: str | None = None
        self.webhook_max_connections = 40
        # What stands between Telegram and the bot's workers, when a test sets it: a proxy that spreads each
        # POST over these URLs in turn (instead of ``webhook_url``), a POST that failed going to the next
        self.webhook_targets: list[str] = []
        self.webhook_timeout = 30.0  # seconds Telegram waits for a webhook's answer before it tries again
        self.webhook_posts: list[tuple[int, int]] = []  # (update_id, HTTP status or 0: no connection)
        self.webhook_times: list[tuple[int, float, float]] = []  # (update_id, POST sent, answered): loop time
        self._delivered: set[int] = set()  # update ids a webhook answered 2xx
        self._floor = 0  # index in ``updates`` before which every update was answered by a webhook
        self._delivering: dict[int, int] = {}  # update id -> chat key, POSTs in flight
        self._deliverer: asyncio.Task[None] | None = None
        self._commands: dict[tuple[str, str], list[dict[str, Any]]] = {}
        self._slow: list[list[Any]] = []  # [method, times, seconds] (``slow_next``)
        # (method, chat id) -> (released, answered 502 then) (``hold``)
        self._holds: dict[tuple[str, int], tuple[asyncio.Event, bool]] = {}
        # Machinery.
        self._user_ids = itertools.count(10_001)
        self._group_ids = itertools.count(1)
        self._update_ids = itertools.count(1)
        self._file_ids = itertools.count(1)
        self._query_ids = itertools.count(1)
        self._confirmed = 1  # lowest update_id not yet confirmed by a getUpdates offset
        self._allowed_updates: list[str] = []
        self._polls: list[_Poll] = []
        self._inflight: set[Call] = set()
        self._waiters: list[asyncio.Future[None]] = []
        self._last_activity = time.monotonic()
        # An in-process bot's own word on whether it is at work (a reason, or None when idle):
        # tests/bot_support.py's ``bot_running`` sets it. With it, ``wait_idle`` needs only a short quiet
        # period; without it (a bot in another process) the long one is the only sign of a handler at work.
        self.bot_activity: Callable[[], str | None] | None = None
        self._server: asyncio.Server | None = None
        self._conns: set[_Connection] = set()
        self._tasks: set[asyncio.Task[None]] = set()
        self._closing = False
        self._methods: dict[str, Handler] = {}
        for name in (
            "getMe", "logOut", "close", "getUpdates", "deleteWebhook", "getWebhookInfo",
            "setMyCommands", "getMyCommands", "deleteMyCommands", "sendMessage", "sendPhoto",
            "sendChatAction", "editMessageText", "editMessageCaption", "editMessageMedia",
            "editMessageReplyMarkup", "deleteMessage", "answerCallbackQuery", "getChat", "getChatMember",
            "getChatAdministrators", "getFile",
            "sendDocument",  # /export
            "setWebhook",  # webhook workers
        ):  # fmt: skip
            self._methods[name.lower()] = getattr(self, f"_api_{name}")

    # ---------------------------------------------------------------- lifecycle

    @property
    def base_url(self) -> str:
        """For ``ApplicationBuilder().base_url(...)``; PTB appends the token."""
        return f"http://127.0.0.1:{self.port}/bot"

    @property
    def base_file_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/file/bot"

    def configure(self, builder: Any) -> Any:
        """``builder.token(...).base_url(...).base_file_url(...)`` for an ApplicationBuilder."""
        return builder.token(self.token).base_url(self.base_url).base_file_url(self.base_file_url)

    async def start(self) -> None:
        if self._server is not None:
            raise RuntimeError("already started")
        self._closing = False
        self._server = await asyncio.start_server(self._on_connect, host="127.0.0.1", port=0)
        self.port = self._server.sockets[0].getsockname()[1]

    async def stop(self) -> None:
        """Answers pending long polls with [], closes every connection, stops listening."""
        if self._server is None:
            return
        self._closing = True
        self.release()
        self._notify()
        if self._deliverer is not None:
            self._deliverer.cancel()
            await asyncio.gather(self._deliverer, return_exceptions=True)
            self._deliverer = None
        self._server.close()
        for conn in list(self._conns):  # idle keep-alive connections; busy ones finish their answer
            if not conn.busy and conn.task is not None:
                conn.task.cancel()
        tasks = list(self._tasks)  # a task not started yet sees _closing and just closes its socket
        if tasks:
            _, pending = await asyncio.wait(tasks, timeout=2.0)
            for task in pending:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
        await self._server.wait_closed()
        self._server = None

    async def __aenter__(self) -> FakeTelegramServer:
        await self.start()
        return self

    async def __aexit__(self, exc_type: object, exc: object, tb: object) -> None:
        await self.stop()
        if self.internal_errors and exc_type is None:
            raise AssertionError(f"fake Telegram server failed internally: {self.internal_errors!r}")
        if self.refused and not self.allow_refused and exc_type is None:
            refused = "; ".join(f"{c.method}: {c.error}" for c in self.refused[:5])
            raise AssertionError(f"{len(self.refused)} request(s) the Bot API refuses: {refused}")

    # ---------------------------------------------------------------- users, chats, updates

    def add_user(
        self,
        first_name: str,
        *,
        id: int | None = None,
        language_code: str | None = "en",
        username: str | None = None,
        last_name: str | None = None,
        started: bool = False,
        is_bot: bool = False,
    ) -> FakeUser:
        """A user; ``started=False`` means the bot may not DM him until he sends something in private.
        ``is_bot``: another bot's account (Telegram passes a bot no bot's messages; a forged update may)."""
        uid = id if id is not None else next(self._user_ids)
        if uid in self.users:
            raise ValueError(f"user {uid} exists")
        user = FakeUser(uid, first_name, language_code, username, last_name, started, is_bot=is_bot)
        self.users[uid] = user
        return user

    def private_chat(self, user: FakeUser) -> FakeChat:
        chat = self.chats.get(user.id)
        if chat is None:
            chat = FakeChat(id=user.id, type="private", user=user, members={user.id: "member"})
            self.chats[user.id] = chat
        return chat

    def add_group(
        self,
        title: str = "Test group",
        *,
        members: Iterable[FakeUser] = (),
        admins: Iterable[FakeUser] = (),
        creator: FakeUser | None = None,
        supergroup: bool = False,
        id: int | None = None,
        username: str | None = None,
        bot_status: str = "member",
    ) -> FakeChat:
        """A group the bot is in (``bot_status`` member/administrator; left/kicked make sends 403)."""
        n = next(self._group_ids)
        gid = id if id is not None else (-1_001_000_000_000 - n if supergroup else -4_000_000_000 - n)
        if gid in self.chats:
            raise ValueError(f"chat {gid} exists")
        chat = FakeChat(gid, "supergroup" if supergroup else "group", title=title, username=username)
        chat.bot_status = bot_status
        for user in members:
            chat.members[user.id] = "member"
        for user in admins:
            chat.members[user.id] = "administrator"
        if creator is not None:
            chat.members[creator.id] = "creator"
        self.chats[gid] = chat
        return chat

    def set_member(self, chat: FakeChat, user: FakeUser, status: str = "member") -> None:
        """Sets a user's ChatMember status: creator, administrator, member, left or kicked."""
        chat.members[user.id] = status

    def block(self, user: FakeUser) -> None:
        """The user blocks the bot: sends to his DM answer 403 until he sends /start again."""
        user.blocked = True

    def inject_update(self, payload: dict[str, Any]) -> dict[str, Any]:
        """Queues a raw update (``{"message": {...}}`` etc.); the update_id is assigned here."""
        update = {"update_id": next(self._update_ids), **payload}
        self.updates.append(update)
        self._notify()
        return update

    def redeliver(self, update_id: int) -> None:
        """Deliver an update answered already once more, as Telegram does when the answer to it got lost (a
        webhook's), or when the bot stopped before a getUpdates offset confirmed it (polling: then every
        later update comes again too, as Telegram's offsets go)."""
        self._delivered.discard(update_id)
        self._confirmed = min(self._confirmed, update_id)
        self._floor = min(
            self._floor, next(i for i, u in enumerate(self.updates) if u["update_id"] == update_id)
        )
        self._notify()

    def send_text(
        self,
        user: FakeUser,
        chat: FakeChat | int | None,
        text: str,
        *,
        reply_to: FakeMessage | int | None = None,
    ) -> FakeMessage:
        """The user writes ``text`` in ``chat`` (None: his private chat with the bot).

        A leading ``/word`` or ``/word@bot`` gets a bot_command entity, as Telegram sends it, so
        CommandHandler sees ``/start payload`` with ``context.args == ["payload"]``. Any private message
        marks the user as having started the bot; ``/start`` in private also unblocks it.
        """
        target = self._chat_arg(user, chat)
        if target.members.get(user.id) == "kicked":
            raise ValueError(f"{user.first_name} was banned from chat {target.id}")
        if target.type != "private" and target.members.get(user.id) in (None, "left"):
            target.members[user.id] = "member"
        if target.type == "private":
            user.started = True
            if text.split(maxsplit=1)[:1] in (["/start"], [f"/start@{self.bot_username}"]):
                user.blocked = False
        entities = None
        if text.startswith("/"):
            command = text.split(maxsplit=1)[0]
            entities = [{"type": "bot_command", "offset": 0, "length": _utf16_len(command)}]
        reply_id = _plain(reply_to)
        message = FakeMessage(
            chat=target,
            message_id=target.next_message_id(),
            date=_now(),
            from_bot=False,
            sender=user,
            text=text,
            entities=entities,
            reply_to_message_id=reply_id,
        )
        target.messages.append(message)
        payload = message.to_api(self)
        self.inject_update({"message": payload})
        return message

    def send_as_chat(self, sender: FakeChat, chat: FakeChat, text: str) -> FakeMessage:
        """A message in a group sent on behalf of a chat, as Telegram sends it: by an anonymous admin of the
        group (``sender`` is the group itself) or by a member posting as his channel (``sender`` a channel).
        ``sender_chat`` says which, and ``from`` is Telegram's stand-in bot user, the same for every such
        sender (GroupAnonymousBot, Channel_Bot): never a user of ``users``, so getChatMember knows none."""
        if chat.type == "private" or (sender is not chat and sender.type != "channel"):
            raise ValueError("a group's anonymous admin (the group itself) or a channel posts in a group")
        stand_in = (
            FakeUser(GROUP_ANONYMOUS_BOT, "Group", None, "GroupAnonymousBot", is_bot=True)
            if sender is chat
            else FakeUser(CHANNEL_BOT, "Channel", None, "Channel_Bot", is_bot=True)
        )
        entities = None
        if text.startswith("/"):
            command = text.split(maxsplit=1)[0]
            entities = [{"type": "bot_command", "offset": 0, "length": _utf16_len(command)}]
        message = FakeMessage(chat=chat, message_id=chat.next_message_id(), date=_now(), from_bot=False,
                              sender=stand_in, sender_chat=sender, text=text, entities=entities)  # fmt: skip
        chat.messages.append(message)
        self.inject_update({"message": message.to_api(self)})
        return message

    def press(
        self,
        user: FakeUser,
        chat: FakeChat | int | None,
        message_id: FakeMessage | int,
        callback_data: str,
        *,
        check: bool = True,
    ) -> FakeCallbackQuery:
        """The user presses an inline button of a bot message; returns the query (see ``.answered``).

        With ``check`` the message must be a live bot message whose current inline keyboard has a
        button with this callback_data (ValueError otherwise), as in a real client.
        """
        target = self._chat_arg(user, chat)
        message = self._find_message(target, _plain(message_id))
        if message is None or message.deleted:
            raise ValueError(f"no message {_plain(message_id)} in chat {target.id}")
        if check and (not message.from_bot or callback_data not in message.callback_data):
            raise ValueError(
                f"message {message.message_id} has no button with callback_data {callback_data!r}; "
                f"it has {message.callback_data!r}"
            )
        query = FakeCallbackQuery(str(next(self._query_ids) * 7919 + 4_200_000), user, message, callback_data)
        self.callback_queries[query.id] = query
        self.inject_update(
            {
                "callback_query": {
                    "id": query.id,
                    "from": user.to_api(),
                    "message": message.to_api(self),
                    "chat_instance": str(abs(target.id) * 31 + 7),
                    "data": callback_data,
                }
            }
        )
        return query

    @property
    def pending_updates(self) -> list[dict[str, Any]]:
        """Updates not yet confirmed by a getUpdates offset or a webhook's answer (delivered or not)."""
        allowed = self._allowed_updates
        # updates before the first one a webhook has not answered need no look (a long run has thousands)
        while self._floor < len(self.updates) and self.updates[self._floor]["update_id"] in self._delivered:
            self._floor += 1
        return [
            u
            for u in self.updates[self._floor :]
            if u["update_id"] >= self._confirmed
            and u["update_id"] not in self._delivered
            and (not allowed or _update_type(u) in allowed)
        ]

    # ---------------------------------------------------------------- chat lifecycle and slow answers
    # (a group upgraded to a supergroup, the bot removed and added again, Telegram slower than
    # the client's read timeout)

    def migrate_group(self, chat: FakeChat) -> FakeChat:
        """The group is upgraded to a supergroup, as Telegram does it: a new chat id (members and the bot
        carried over, no message history the bot can edit), the old id answers every send with 400
        "group chat was upgraded" (``parameters.migrate_to_chat_id``), and two service messages arrive:
        ``migrate_to_chat_id`` in the old group and ``migrate_from_chat_id`` in the new supergroup."""
        if chat.type != "group" or chat.migrated_to is not None:
            raise ValueError(f"chat {chat.id} is not a basic group")
        new = self.add_group(chat.title or "", supergroup=True, bot_status=chat.bot_status)
        new.members = dict(chat.members)
        chat.migrated_to = new.id
        actor = next((self.users[u] for u, st in chat.members.items() if st == "creator"), None)
        sender = (
            actor.to_api() if actor else {"id": GROUP_ANONYMOUS_BOT, "is_bot": True, "first_name": "Group"}
        )
        notes = ((chat, "migrate_to_chat_id", new.id), (new, "migrate_from_chat_id", chat.id))
        for where, key, value in notes:
            message = {"message_id": where.next_message_id(), "date": _now(), "chat": where.to_api(),
                       "from": sender, key: value}  # fmt: skip
            self.inject_update({"message": message})
        return new

    def remove_bot(self, chat: FakeChat, by: FakeUser, *, status: str = "kicked") -> None:
        """``by`` removes the bot from the group (status kicked, or left): sends answer 403 from now on,
        and the bot gets a ``my_chat_member`` update."""
        self._bot_membership(chat, by, status)

    def add_bot(self, chat: FakeChat, by: FakeUser) -> None:
        """``by`` adds the bot (back) to the group: a ``my_chat_member`` update, sends work again."""
        self._bot_membership(chat, by, "member")

    def _bot_membership(self, chat: FakeChat, by: FakeUser, status: str) -> None:
        old = self._member(chat, self.bot_id)
        chat.bot_status = status
        new = self._member(chat, self.bot_id)
        self.inject_update({"my_chat_member": {"chat": chat.to_api(), "from": by.to_api(), "date": _now(),
                                               "old_chat_member": old, "new_chat_member": new}})  # fmt: skip

    def slow_next(self, method: str, seconds: float, *, times: int = 1) -> None:
        """The next ``times`` calls of ``method`` are carried out at once but answered ``seconds`` late,
        as when Telegram is slower than the client's read timeout: a client that gives up and resends
        makes the call twice."""
        self._slow.append([method.lower(), times, seconds])

    async def _slow_answer(self, method: str) -> None:
        for entry in self._slow:
            if entry[0] == method.lower() and entry[1] > 0:
                entry[1] -= 1
                if entry[1] == 0:
                    self._slow.remove(entry)
                await asyncio.sleep(entry[2])
                return

    # ---------------------------------------------------------------- hardening: edits, channel
    # posts, restricted members and raw presses, for the input/access tests and the fuzz test

    def edit_text(self, message: FakeMessage, text: str) -> FakeMessage:
        """The user edits his own message into ``text``: an ``edited_message`` update (a leading /word gets
        its bot_command entity again, as Telegram sends it)."""
        if message.from_bot or message.sender is None:
            raise ValueError("only a user's own message can be edited by him")
        message.history.append(
            MessageVersion(message.text, message.caption, message.reply_markup, message.updated)
        )
        message.text = text
        message.entities = None
        if text.startswith("/"):
            command = text.split(maxsplit=1)[0]
            message.entities = [{"type": "bot_command", "offset": 0, "length": _utf16_len(command)}]
        message.edit_date = _now()
        message.updated = time.monotonic()
        self.inject_update({"edited_message": message.to_api(self)})
        return message

    def add_channel(self, title: str = "Test channel", *, id: int | None = None) -> FakeChat:
        """A channel the bot is an admin of (it then gets its posts as ``channel_post`` updates)."""
        n = next(self._group_ids)
        cid = id if id is not None else -1_002_000_000_000 - n
        chat = FakeChat(cid, "channel", title=title, bot_status="administrator")
        self.chats[cid] = chat
        return chat

    def post_in_channel(self, channel: FakeChat, text: str, *, edited: bool = False) -> FakeMessage:
        """A post in a channel (no sender, as Telegram sends them): ``channel_post`` or
        ``edited_channel_post``."""
        entities = None
        if text.startswith("/"):
            command = text.split(maxsplit=1)[0]
            entities = [{"type": "bot_command", "offset": 0, "length": _utf16_len(command)}]
        message = FakeMessage(chat=channel, message_id=channel.next_message_id(), date=_now(),
                              from_bot=False, text=text, entities=entities)  # fmt: skip
        channel.messages.append(message)
        payload = message.to_api(self)
        payload["sender_chat"] = channel.to_api()
        self.inject_update({"edited_channel_post" if edited else "channel_post": payload})
        return message

    def set_restricted(self, chat: FakeChat, user: FakeUser, *, is_member: bool) -> None:
        """A restricted user (ChatMemberRestricted): still in the chat or not (``is_member``)."""
        chat.members[user.id] = "restricted" if is_member else "restricted-left"

    def press_raw(self, user: FakeUser, message: FakeMessage, callback_data: str | None) -> FakeCallbackQuery:
        """A press with any callback data (a forged client), on any message; None: no data at all."""
        query = FakeCallbackQuery(str(next(self._query_ids) * 7919 + 4_200_000), user, message,
                                  callback_data or "")  # fmt: skip
        self.callback_queries[query.id] = query
        payload: dict[str, Any] = {
            "id": query.id,
            "from": user.to_api(),
            "message": message.to_api(self),
            "chat_instance": str(abs(message.chat.id) * 31 + 7),
        }
        if callback_data is not None:
            payload["data"] = callback_data
        self.inject_update({"callback_query": payload})
        return query

    def _restricted_member(self, user_json: dict[str, Any], status: str) -> dict[str, Any]:
        rights = (
            "can_send_messages", "can_send_audios", "can_send_documents", "can_send_photos",
            "can_send_videos", "can_send_video_notes", "can_send_voice_notes", "can_send_polls",
            "can_send_other_messages", "can_add_web_page_previews", "can_change_info",
            "can_invite_users", "can_pin_messages", "can_manage_topics", "can_edit_tag",
            "can_react_to_messages",
        )  # fmt: skip
        out: dict[str, Any] = {"status": "restricted", "user": user_json, "until_date": 0,
                               "is_member": status == "restricted"}  # fmt: skip
        out.update(dict.fromkeys(rights, False))
        return out

    # ---------------------------------------------------------------- state queries

    def calls_to(self, *methods: str, ok: bool | None = None, **params: Any) -> list[Call]:
        """Calls to any of ``methods`` (all if none given) whose params equal ``params``."""
        wanted = {m.lower() for m in methods}
        return [
            c
            for c in self.calls
            if (not wanted or c.method.lower() in wanted)
            and (ok is None or c.ok == ok)
            and c.matches(**params)
        ]

    def mark(self) -> int:
        """The seq the next call will get; pass it as ``since=`` to ignore earlier calls."""
        return len(self.calls)

    def messages(
        self, chat: FakeChat | int, *, from_bot: bool | None = None, include_deleted: bool = False
    ) -> list[FakeMessage]:
        target = self.chats.get(_plain(chat))
        if target is None:
            return []
        return [
            m
            for m in target.messages
            if (include_deleted or not m.deleted) and (from_bot is None or m.from_bot == from_bot)
        ]

    def bot_messages(self, chat: FakeChat | int) -> list[FakeMessage]:
        return self.messages(chat, from_bot=True)

    def message(self, chat: FakeChat | int, message_id: int) -> FakeMessage:
        target = self.chats.get(_plain(chat))
        found = self._find_message(target, message_id) if target else None
        if found is None:
            raise KeyError(f"no message {message_id} in chat {_plain(chat)}")
        return found

    def commands(self, scope: dict[str, Any] | None = None, language_code: str = "") -> list[dict[str, Any]]:
        """The commands last set by setMyCommands for this scope and language."""
        return list(self._commands.get(self._scope_key(scope, language_code), []))

    # ---------------------------------------------------------------- faults

    def fail_next(
        self,
        method: str | None = None,
        *,
        times: int = 1,
        status: int = 429,
        retry_after: float | None = 1,
        description: str | None = None,
    ) -> Fault:
        """The next ``times`` calls of ``method`` answer an error instead of running, then it recovers.

        ``method=None`` matches every method except getUpdates (PTB's polling loop backs off >= 1 s on
        errors; target "getUpdates" by name to test that). 429 carries ``parameters.retry_after``: PTB
        raises RetryAfter only when it is truthy (0 surfaces as NetworkError); AIORateLimiter really
        sleeps retry_after + 0.1 s before retrying and the polling loop retry_after + 0.5 s, so keep it
        small - PTB accepts fractions such as 0.05 although Telegram only sends whole seconds.
        500/502/... surface as NetworkError, 400 as BadRequest, 403 as Forbidden. Faulted calls are
        recorded, with ``injected_fault=True``, and have no effect.
        """
        if description is None:
            if status == 429:
                description = f"Too Many Requests: retry after {retry_after:g}"
            else:
                description = HTTPStatus(status).phrase
        fault = Fault(method, times, status, retry_after if status == 429 else None, description)
        self.faults.append(fault)
        return fault

    def clear_faults(self) -> None:
        self.faults.clear()

    def hold(self, method: str, chat: FakeChat | FakeUser | int, *, fail: bool = True) -> None:
        """Calls of ``method`` to ``chat`` are held unanswered until ``release`` (or the server stops), then
        answered 502 without effect: a request that never got through (a network partition, Telegram down).
        A bot stopped meanwhile never sent them; what it sends after the release goes through. With
        ``fail=False`` they are carried out and answered at the release instead (Telegram slow to answer)."""
        chat_id = chat if isinstance(chat, int) else chat.id
        self._holds[(method.lower(), chat_id)] = (asyncio.Event(), fail)

    def release(self) -> None:
        holds, self._holds = self._holds, {}
        for event, _ in holds.values():
            event.set()

    def held_calls(self) -> list[Call]:
        """The calls held right now (``hold``)."""
        return [c for c in self._inflight if c.held]

    # ---------------------------------------------------------------- waiting

    async def wait_for(
        self,
        predicate: Callable[[list[Call]], Any],
        *,
        timeout: float = DEFAULT_TIMEOUT,
        what: str | None = None,
    ) -> Any:
        """Waits until ``predicate(calls)`` is truthy and returns that value.

        Re-checked after every change of server state (a call starts or ends, an update is queued), so
        the predicate may also look at ``messages()``, ``callback_queries`` and so on.
        Raises TimeoutError, listing the last calls, after ``timeout`` seconds.
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            value = predicate(self.calls)
            if value:
                return value
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError(
                    f"timed out after {timeout}s waiting for {what or predicate!r}; "
                    f"last calls: {self.calls[-8:]!r}"
                )
            await self._wait_change(remaining)

    async def wait_for_call(
        self,
        method: str,
        *,
        predicate: Callable[[Call], bool] | None = None,
        since: int = 0,
        ok: bool | None = None,
        finished: bool = True,
        timeout: float = DEFAULT_TIMEOUT,
        **params: Any,
    ) -> Call:
        """Waits for a finished call to ``method`` with seq >= ``since`` whose params equal ``params``
        (FakeChat/FakeUser/FakeMessage stand for their ids) and that satisfies ``predicate``.

        Returns the first such call. It has been answered, so ``messages()`` already shows its effect;
        ``finished=False`` also matches a call still in flight (a pending getUpdates long poll).
        """

        def find(calls: list[Call]) -> Call | None:
            for call in calls[since:]:
                if (
                    (call.done or not finished)
                    and call.matches(method, **params)
                    and (ok is None or call.ok == ok)
                    and (predicate is None or predicate(call))
                ):
                    return call
            return None

        described = f"{method}({', '.join(f'{k}={_plain(v)!r}' for k, v in params.items())})"
        result: Call = await self.wait_for(find, timeout=timeout, what=described)
        return result

    async def wait_idle(self, *, quiet: float | None = None, timeout: float = DEFAULT_TIMEOUT) -> None:
        """Waits until the bot is idle: every queued update was confirmed by a later getUpdates, a
        getUpdates long poll is pending (if the bot polls at all), no other call is in flight, the bot's
        ``bot_activity`` (if set) reports nothing at work, and no call started or ended for ``quiet`` seconds
        (default: 0.1, or 0.02 when ``bot_activity`` tells what the bot is doing).

        Heuristic without ``bot_activity``: a handler that awaits something other than the Bot API for
        longer than ``quiet`` looks idle. To wait for an expected effect use ``wait_for_call``; use this to
        check that nothing more happens.
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            busy = self._busy_reason()
            probe_busy = False
            if busy is None and self.bot_activity is not None:
                busy = self.bot_activity()
                probe_busy = busy is not None
            now = time.monotonic()
            wait = deadline - loop.time()
            if busy is None:
                settle = quiet if quiet is not None else _SETTLE if self.bot_activity is not None else _QUIET
                left = self._last_activity + settle - now
                if left <= 0:
                    return
                wait = min(wait, left)
            elif wait <= 0:
                raise TimeoutError(f"bot not idle after {timeout}s: {busy}; last calls: {self.calls[-8:]!r}")
            if wait <= 0:
                raise TimeoutError(f"bot not idle after {timeout}s: calls keep coming: {self.calls[-8:]!r}")
            if probe_busy:  # the bot's own work ends without a call to this server: look again soon
                wait = min(wait, _PROBE_POLL)
            await self._wait_change(wait)

    def _busy_reason(self) -> str | None:
        if self._delivering:
            return f"{len(self._delivering)} webhook POST(s) in flight"
        if self.pending_updates:
            return f"{len(self.pending_updates)} update(s) not yet confirmed"
        others = [c for c in self._inflight if c.method != _GET_UPDATES]
        if others:
            return f"calls in flight: {others!r}"
        if any(c.method == _GET_UPDATES for c in self.calls) and not self._polls:
            return "no getUpdates long poll pending"
        return None

    def _notify(self) -> None:
        self._last_activity = time.monotonic()
        waiters, self._waiters = self._waiters, []
        for fut in waiters:
            if not fut.done():
                fut.set_result(None)

    def _change_future(self) -> asyncio.Future[None]:
        """A future resolved by the next state change; registered at once, so no wakeup is lost."""
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiters.append(fut)
        return fut

    def _drop_future(self, fut: asyncio.Future[None]) -> None:
        if not fut.done():
            fut.cancel()
        with contextlib.suppress(ValueError):
            self._waiters.remove(fut)

    async def _wait_change(self, timeout: float, *others: asyncio.Future[Any]) -> None:
        """Waits for a state change (or one of ``others``), at most ``timeout`` seconds."""
        fut = self._change_future()
        try:
            await asyncio.wait([fut, *others], timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
        finally:
            self._drop_future(fut)

    # ---------------------------------------------------------------- HTTP handling

    def _on_connect(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        # A plain callback, so the handler task is created (and tracked) synchronously on accept.
        task = asyncio.get_running_loop().create_task(self._handle_connection(reader, writer))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _handle_connection(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        conn = _Connection(reader, writer)
        conn.task = asyncio.current_task()
        self._conns.add(conn)
        try:
            while not self._closing:
                request = await conn.read_request()
                if request is None:
                    break
                conn.busy = True
                try:
                    status, body, content_type = await self._serve(request, conn)
                except _HttpError as exc:
                    status, body, content_type = exc.status, str(exc).encode(), "text/plain"
                keep_alive = request.keep_alive and not self._closing
                await conn.respond(status, body, content_type, keep_alive)
                conn.busy = False
                if not keep_alive:
                    break
        except _HttpError as exc:
            with contextlib.suppress(ConnectionError):
                await conn.respond(exc.status, str(exc).encode(), "text/plain", False)
        except (ConnectionError, _ClientGone, asyncio.IncompleteReadError):
            pass
        except asyncio.CancelledError:
            pass
        except Exception as exc:  # a bug in this module: surfaced by __aexit__
            self.internal_errors.append(exc)
        finally:
            writer.close()
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await writer.wait_closed()
            self._conns.discard(conn)

    async def _serve(self, request: _Request, conn: _Connection) -> tuple[int, bytes, str]:
        url = urlsplit(request.target)
        path = unquote(url.path)
        if path.startswith("/file/bot"):
            return self._serve_file(path.removeprefix("/file/bot"))
        if not path.startswith("/bot"):
            return self._json(404, ApiError(404, "Not Found").payload())
        token, _, method = path.removeprefix("/bot").partition("/")
        parse_error: ApiError | None = None
        text: dict[str, str] = {}
        native: dict[str, Any] = {}
        files: dict[str, UploadedFile] = {}
        try:
            text, native, files = self._parse_params(request, url.query)
        except ApiError as exc:
            parse_error = exc
        canonical = self.spec.method(method) or method
        handler = self._methods.get(canonical.lower())
        call = Call(len(self.calls), canonical, {**text, **native}, time.monotonic(), files)
        self.calls.append(call)
        self._inflight.add(call)
        self._notify()
        try:
            if token != self.token:
                raise ApiError(401, "Unauthorized")
            if parse_error is not None:
                raise parse_error
            try:
                if canonical.lower() not in self.spec.methods:
                    raise ApiError(404, "Not Found")  # as Telegram answers a method it does not have
                call.params = self.spec.check(canonical, text, native, files)
            except ApiError:
                self.refused.append(call)
                raise
            fault = self._take_fault(canonical)
            if fault is not None:
                call.injected_fault = True
                params_out = {"retry_after": fault.retry_after} if fault.retry_after is not None else None
                raise ApiError(fault.status, fault.description, params_out)
            if handler is None:  # a method of the Bot API this fake does not carry out
                raise ApiError(404, f"Not Found: the fake Bot API has no {canonical}")
            hold = self._holds.get((canonical.lower(), call.params.get("chat_id")))  # type: ignore[arg-type]
            if hold is not None:
                call.held = True
                self._notify()
                await hold[0].wait()
                if hold[1]:
                    raise ApiError(502, "Bad Gateway")
            if canonical == _GET_UPDATES:
                result = await self._get_updates(call, conn)
            else:
                result = handler(call)
                if isinstance(result, Awaitable):
                    result = await result
                await self._slow_answer(canonical)
            call.status, call.result = 200, result
            payload: dict[str, Any] = {"ok": True, "result": result}
        except ApiError as exc:
            call.status, call.error = exc.status, exc.description
            payload = exc.payload()
        except _ClientGone:
            call.error = "client closed the connection"
            raise
        except Exception as exc:  # a bug in this module: answered 500, surfaced by __aexit__
            self.internal_errors.append(exc)
            call.status, call.error = 500, f"Internal Server Error: fake server bug {exc!r}"
            payload = {"ok": False, "error_code": 500, "description": call.error}
        finally:
            call.finished = time.monotonic()
            self._inflight.discard(call)
            self._notify()
        return self._json(call.status or 500, payload)

    @staticmethod
    def _json(status: int, payload: Any) -> tuple[int, bytes, str]:
        return status, json.dumps(payload, ensure_ascii=False).encode(), "application/json"

    def _serve_file(self, rest: str) -> tuple[int, bytes, str]:
        token, _, file_path = rest.partition("/")
        if token != self.token:
            return self._json(401, ApiError(401, "Unauthorized").payload())
        self.downloads.append(file_path)
        self._notify()
        for file_id, stored in self.files.items():
            if self._file_path(file_id) == file_path:
                return 200, stored.data, stored.content_type or "application/octet-stream"
        return self._json(404, ApiError(404, "Not Found").payload())

    @staticmethod
    def _parse_params(
        request: _Request, query: str
    ) -> tuple[dict[str, str], dict[str, Any], dict[str, UploadedFile]]:
        """A request's parameters as they came: text (query string, form, multipart fields), the values of a
        JSON body, and the uploaded files. ``BotApiSpec.check`` reads them as their parameters' types."""
        text: dict[str, str] = dict(parse_qsl(query, keep_blank_values=True))
        native: dict[str, Any] = {}
        files: dict[str, UploadedFile] = {}
        content_type = request.headers.get("content-type", "")
        kind = content_type.split(";")[0].strip().lower()
        body = request.body
        try:
            if not body:
                pass
            elif kind == "application/json":
                data = json.loads(body)
                if not isinstance(data, dict):
                    raise _bad("JSON body must be an object")
                native = data
            elif kind == "application/x-www-form-urlencoded":
                text.update(parse_qsl(body.decode("utf-8"), keep_blank_values=True))
            elif kind == "multipart/form-data":
                fields, files = _parse_multipart(body, content_type)
                text.update(fields)
            else:
                raise _bad(f"unsupported Content-Type {kind!r}")
        except (ValueError, UnicodeDecodeError) as exc:
            raise _bad(f"can't parse request body: {exc}") from exc
        return text, native, files

    def _take_fault(self, method: str) -> Fault | None:
        for fault in self.faults:
            if fault.remaining <= 0:
                continue
            if fault.method is None and method == _GET_UPDATES:
                continue
            if fault.method is not None and fault.method.lower() != method.lower():
                continue
            fault.remaining -= 1
            if fault.remaining == 0:
                self.faults.remove(fault)
            return fault
        return None

    # ---------------------------------------------------------------- helpers for the methods

    def _chat_arg(self, user: FakeUser, chat: FakeChat | int | None) -> FakeChat:
        if chat is None:
            return self.private_chat(user)
        if isinstance(chat, FakeChat):
            return chat
        found = self.chats.get(chat)
        if found is None:
            if chat == user.id:
                return self.private_chat(user)
            raise ValueError(f"unknown chat {chat}")
        return found

    def _chat(self, chat_id: Any) -> FakeChat:
        if chat_id is None or chat_id == "":
            raise _bad("chat_id is empty")
        if isinstance(chat_id, str) and chat_id.startswith("@"):
            for chat in self.chats.values():
                if chat.username and chat.username.lower() == chat_id[1:].lower():
                    return chat
            raise _bad("chat not found")
        if not isinstance(chat_id, int):
            raise _bad("chat not found")
        found = self.chats.get(chat_id)
        if found is None and chat_id in self.users:
            found = self.private_chat(self.users[chat_id])
        if found is None:
            raise _bad("chat not found")
        return found

    def _writable_chat(self, chat_id: Any) -> FakeChat:
        chat = self._chat(chat_id)
        if chat.type == "private" and chat.user is not None:
            if chat.user.blocked:
                raise ApiError(403, "Forbidden: bot was blocked by the user")
            if not chat.user.started:
                raise ApiError(403, "Forbidden: bot can't initiate conversation with a user")
        elif chat.migrated_to is not None:
            raise ApiError(400, "Bad Request: group chat was upgraded to a supergroup chat",
                           {"migrate_to_chat_id": chat.migrated_to})  # fmt: skip
        elif chat.bot_status == "kicked":
            raise ApiError(403, f"Forbidden: bot was kicked from the {chat.type} chat")
        elif chat.bot_status == "left":
            raise ApiError(403, f"Forbidden: bot is not a member of the {chat.type} chat")
        return chat

    @staticmethod
    def _find_message(chat: FakeChat | None, message_id: Any) -> FakeMessage | None:
        if chat is None:
            return None
        for message in chat.messages:
            if message.message_id == message_id:
                return message
        return None

    def _message_to_edit(self, params: dict[str, Any]) -> FakeMessage:
        if params.get("inline_message_id"):
            raise _bad("inline messages are not supported by the fake server")
        chat = self._chat(params.get("chat_id"))
        if chat.type != "private":
            self._writable_chat(chat.id)  # a group the bot left, or that moved, refuses edits too
        message = self._find_message(chat, params.get("message_id"))
        if message is None or message.deleted:
            raise _bad("message to edit not found")
        if not message.from_bot:
            raise _bad("message can't be edited")
        return message

    @staticmethod
    def _markup(params: dict[str, Any]) -> dict[str, Any] | None:
        """The request's reply_markup, checked already (``BotApiSpec``): kept as sent, None when omitted."""
        markup = params.get("reply_markup")
        return markup if isinstance(markup, dict) else None

    def _reply_to(self, chat: FakeChat, params: dict[str, Any]) -> int | None:
        reply = params.get("reply_parameters")
        reply_id = reply.get("message_id") if isinstance(reply, dict) else params.get("reply_to_message_id")
        if reply_id is None:
            return None
        allow = params.get("allow_sending_without_reply") or (
            isinstance(reply, dict) and reply.get("allow_sending_without_reply")
        )
        target = self._find_message(chat, reply_id)
        if target is None or target.deleted:
            if allow:
                return None
            raise _bad("message to be replied not found")
        return int(reply_id)

    def _new_bot_message(self, chat: FakeChat, call: Call, **fields: Any) -> FakeMessage:
        message = FakeMessage(chat=chat, message_id=chat.next_message_id(), date=_now(), from_bot=True,
                              call=call, **fields)  # fmt: skip
        chat.messages.append(message)
        return message

    def _edit(
        self, message: FakeMessage, formatting: dict[str, Any] | None = None, **changes: Any
    ) -> dict[str, Any]:
        """Applies ``changes`` (compared, as Telegram does) and ``formatting`` (entities, parse_mode)."""
        current = {k: getattr(message, k) for k in changes}
        if current == changes:
            raise _bad(
                "message is not modified: specified new message content and reply markup are exactly "
                "the same as a current content and reply markup of the message"
            )
        message.history.append(
            MessageVersion(
                message.text, message.caption, message.reply_markup, message.updated, message.photo_file_id
            )
        )
        for key, value in {**changes, **(formatting or {})}.items():
            setattr(message, key, value)
        message.edit_date = _now()
        message.updated = time.monotonic()
        return message.to_api(self)

    @staticmethod
    def _scope_key(scope: Any, language_code: Any) -> tuple[str, str]:
        scope = scope if isinstance(scope, dict) and scope else {"type": "default"}
        return json.dumps(scope, sort_keys=True), str(language_code or "")

    def _new_file_id(self, upload: UploadedFile) -> str:
        file_id = f"AgACAgFake{next(self._file_ids):06d}"
        self.files[file_id] = upload
        return file_id

    def _file_path(self, file_id: str) -> str:
        upload = self.files[file_id]
        ext = {"image/png": "png", "image/gif": "gif"}.get(upload.content_type or "", "jpg")
        return f"photos/{file_id}.{ext}"

    def _photo_size(self, file_id: str) -> dict[str, Any]:
        upload = self.files.get(file_id)
        width, height = _image_size(upload.data) if upload else (1, 1)
        return {
            "file_id": file_id,
            "file_unique_id": f"u{file_id[-8:]}",
            "width": width,
            "height": height,
            "file_size": len(upload.data) if upload else 0,
        }

    def _member(self, chat: FakeChat, user_id: Any) -> dict[str, Any]:
        if user_id == self.bot_id:
            user_json, status = self.bot_user, "member" if chat.type == "private" else chat.bot_status
        elif user_id in self.users:
            user_json = self.users[user_id].to_api()
            own = chat.type == "private" and user_id == chat.id
            status = "member" if own else chat.members.get(user_id, "left")
        else:
            raise _bad("user not found")
        if status == "creator":
            return {"status": "creator", "user": user_json, "is_anonymous": False}
        if status == "administrator":
            rights = (
                "can_manage_chat", "can_delete_messages", "can_manage_video_chats", "can_restrict_members",
                "can_change_info", "can_invite_users", "can_post_stories", "can_edit_stories",
                "can_delete_stories", "can_pin_messages",
            )  # fmt: skip
            out: dict[str, Any] = {"status": "administrator", "user": user_json, "can_be_edited": False,
                                   "is_anonymous": False, "can_promote_members": False}  # fmt: skip
            out.update(dict.fromkeys(rights, True))
            return out
        if status == "kicked":
            return {"status": "kicked", "user": user_json, "until_date": 0}
        if status.startswith("restricted"):
            return self._restricted_member(user_json, status)
        return {"status": status, "user": user_json}

    # ---------------------------------------------------------------- Bot API methods

    def _api_getMe(self, call: Call) -> dict[str, Any]:
        return self.bot_user

    def _api_logOut(self, call: Call) -> bool:
        return True

    def _api_close(self, call: Call) -> bool:
        return True

    def _api_setWebhook(self, call: Call) -> bool:
        url = str(call.params.get("url") or "")
        if not url:
            return self._api_deleteWebhook(call)
        if not url.startswith(("https://", "http://")):
            raise _bad("Bad Request: bad webhook: An HTTPS URL must be provided for webhook")
        secret = call.params.get("secret_token")
        if secret is not None and not re.fullmatch(r"[A-Za-z0-9_-]{1,256}", str(secret)):
            raise _bad("Bad Request: secret token contains unallowed characters")
        if isinstance(call.params.get("allowed_updates"), list):
            self._allowed_updates = list(call.params["allowed_updates"])
        if call.params.get("drop_pending_updates"):
            self._confirmed = max(self._confirmed, self.updates[-1]["update_id"] + 1 if self.updates else 1)
        self.webhook_url, self.webhook_secret = url, None if secret is None else str(secret)
        self.webhook_max_connections = max(1, min(100, int(call.params.get("max_connections") or 40)))
        if self._deliverer is None or self._deliverer.done():
            self._deliverer = asyncio.get_running_loop().create_task(self._deliver())
        for poll in self._polls:  # a long poll in flight ends: getUpdates is refused from now on
            poll.conflict = True
        self._notify()
        return True

    async def _deliver(self) -> None:
        """POST pending updates to the webhook while one is set: at most ``max_connections`` at once, one
        per chat at a time (in update order), each until it is answered 2xx."""
        import httpx

        backoff: dict[int, float] = {}  # update id -> the loop time before which it is not retried
        loop = asyncio.get_running_loop()
        # a connection per update: behind one port several workers (SO_REUSEPORT) each get their share
        limits = httpx.Limits(max_keepalive_connections=0)
        turn = itertools.count()
        async with httpx.AsyncClient(timeout=30, limits=limits) as client:
            tasks: set[asyncio.Task[None]] = set()

            async def post(update: dict[str, Any], url: str, secret: str | None) -> None:
                uid = update["update_id"]
                headers = {"X-Telegram-Bot-Api-Secret-Token": secret} if secret is not None else {}
                status, started = 0, loop.time()
                if self.webhook_targets:
                    url = self.webhook_targets[next(turn) % len(self.webhook_targets)]
                try:
                    answer = await client.post(
                        url, json=update, headers=headers, timeout=self.webhook_timeout
                    )
                    status = answer.status_code
                except httpx.HTTPError:
                    pass
                self.webhook_posts.append((uid, status))
                if 200 <= status < 300:
                    self._delivered.add(uid)
                    backoff.pop(uid, None)
                else:
                    backoff[uid] = loop.time() + 0.05
                self.webhook_times.append((uid, started, loop.time()))
                del self._delivering[uid]
                self._notify()

            try:
                while self.webhook_url and not self._closing:
                    now = loop.time()
                    busy_chats = set(self._delivering.values())
                    for update in self.pending_updates:
                        if len(self._delivering) >= self.webhook_max_connections:
                            break
                        uid, chat = update["update_id"], self._update_chat(update)
                        if uid in self._delivering or chat in busy_chats:
                            busy_chats.add(chat)
                            continue
                        busy_chats.add(chat)  # later updates of this chat wait for this one
                        if backoff.get(uid, 0) > now:
                            continue
                        self._delivering[uid] = chat
                        task = loop.create_task(post(update, self.webhook_url, self.webhook_secret))
                        tasks.add(task)
                        task.add_done_callback(tasks.discard)
                    waits = [b - now for b in backoff.values() if b > now]
                    await self._wait_change(min([*waits, 1.0]))
            finally:
                for task in tasks:
                    task.cancel()
                await asyncio.gather(*tasks, return_exceptions=True)
                self._delivering.clear()

    @staticmethod
    def _update_chat(update: dict[str, Any]) -> int:
        """The chat an update belongs to (its message's, or a button's message's), else its sender."""
        for kind, body in update.items():
            if kind == "update_id" or not isinstance(body, dict):
                continue
            message = body.get("message") if kind == "callback_query" else body
            if isinstance(message, dict) and isinstance(message.get("chat"), dict):
                return int(message["chat"]["id"])
            if isinstance(body.get("chat"), dict):
                return int(body["chat"]["id"])
            if isinstance(body.get("from"), dict):
                return int(body["from"]["id"])
        return 0

    def _api_deleteWebhook(self, call: Call) -> bool:
        self.webhook_url = ""
        if call.params.get("drop_pending_updates"):
            self._confirmed = max(self._confirmed, self.updates[-1]["update_id"] + 1 if self.updates else 1)
        return True

    def _api_getWebhookInfo(self, call: Call) -> dict[str, Any]:
        return {"url": self.webhook_url, "has_custom_certificate": False,
                "pending_update_count": len(self.pending_updates)}  # fmt: skip

    def _api_getUpdates(self, call: Call) -> Any:  # dispatched to _get_updates (needs the connection)
        raise AssertionError("unreachable")

    async def _get_updates(self, call: Call, conn: _Connection) -> list[dict[str, Any]]:
        if self.webhook_url:
            raise ApiError(409, "Conflict: can't use getUpdates method while webhook is active; "
                                "use deleteWebhook to delete the webhook first")  # fmt: skip
        params = call.params
        offset = int(params.get("offset") or 0)
        limit = max(1, min(100, int(params.get("limit") or 100)))
        timeout = max(0.0, float(params.get("timeout") or 0))
        if isinstance(params.get("allowed_updates"), list):
            self._allowed_updates = list(params["allowed_updates"])
        if offset > 0:
            self._confirmed = max(self._confirmed, offset)
        elif offset < 0:
            keep = self.pending_updates[offset:]
            if keep:
                self._confirmed = keep[0]["update_id"]
        for other in self._polls:  # like Telegram: the newer request wins, the older one gets 409
            other.conflict = True
        if self._polls:
            self._notify()
        poll = _Poll()
        self._polls.append(poll)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        watcher: asyncio.Task[bool] | None = None
        try:
            while True:
                if poll.conflict:
                    raise ApiError(409, "Conflict: terminated by other getUpdates request; "
                                        "make sure that only one bot instance is running")  # fmt: skip
                batch = self.pending_updates[:limit]
                remaining = deadline - loop.time()
                if batch or self._closing or remaining <= 0:
                    return batch
                if watcher is None and not conn.eof:
                    watcher = asyncio.create_task(conn.peer_closed())
                others = [watcher] if watcher is not None and not watcher.done() else []
                await self._wait_change(remaining, *others)
                if watcher is not None and watcher.done() and watcher.result():
                    raise _ClientGone
        finally:
            self._polls.remove(poll)
            if watcher is not None and not watcher.done():
                watcher.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await watcher

    def _api_setMyCommands(self, call: Call) -> bool:
        commands = call.params["commands"]  # an Array of BotCommand, checked already (BotApiSpec)
        if len(commands) > 100:
            raise _bad("too many commands")
        for cmd in commands:
            if not _COMMAND_RE.match(cmd["command"]):  # lowercase letters, digits and underscores only
                raise _bad("BOT_COMMAND_INVALID")
        key = self._scope_key(call.params.get("scope"), call.params.get("language_code"))
        self._commands[key] = [{"command": c["command"], "description": c["description"]} for c in commands]
        return True

    def _api_getMyCommands(self, call: Call) -> list[dict[str, Any]]:
        return self.commands(call.params.get("scope"), call.params.get("language_code") or "")

    def _api_deleteMyCommands(self, call: Call) -> bool:
        self._commands.pop(self._scope_key(call.params.get("scope"), call.params.get("language_code")), None)
        return True

    def _api_sendMessage(self, call: Call) -> dict[str, Any]:
        p = call.params
        chat = self._writable_chat(p.get("chat_id"))
        text = p.get("text")
        if not isinstance(text, str) or not text.strip():
            raise _bad("message text is empty")
        markup = self._markup(p)
        reply_id = self._reply_to(chat, p)
        message = self._new_bot_message(chat, call, text=text, entities=p.get("entities"),
                                         parse_mode=p.get("parse_mode"), reply_markup=markup,
                                         reply_to_message_id=reply_id)  # fmt: skip
        return message.to_api(self)

    @staticmethod
    def _uploaded(call: Call, field: str) -> UploadedFile | None:
        """The file sent for ``field``: the part ``attach://<part>`` names, else the part ``field``."""
        ref = call.params.get(field)
        if isinstance(ref, str) and ref.startswith("attach://"):
            return call.files.get(ref.removeprefix("attach://"))
        return call.files.get(field)

    def _api_sendPhoto(self, call: Call) -> dict[str, Any]:
        p = call.params
        chat = self._writable_chat(p.get("chat_id"))
        photo = p.get("photo")
        upload = self._uploaded(call, "photo")
        if upload is not None:
            file_id = self._new_file_id(upload)
        elif isinstance(photo, str) and photo in self.files:
            file_id, upload = photo, self.files[photo]
        elif isinstance(photo, str) and photo.startswith(("http://", "https://")):
            file_id = self._new_file_id(UploadedFile("photo", None, None, b""))
        else:
            raise _bad(
                "wrong file identifier/HTTP URL specified" if photo else "there is no photo in the request"
            )
        caption = p.get("caption")
        markup = self._markup(p)
        reply_id = self._reply_to(chat, p)
        message = self._new_bot_message(chat, call, caption=caption, entities=p.get("caption_entities"),
                                         parse_mode=p.get("parse_mode"), reply_markup=markup,
                                         photo=upload, photo_file_id=file_id,
                                         reply_to_message_id=reply_id)  # fmt: skip
        return message.to_api(self)

    def _api_sendChatAction(self, call: Call) -> bool:
        self._writable_chat(call.params.get("chat_id"))
        return True

    def _api_editMessageText(self, call: Call) -> dict[str, Any]:
        p = call.params
        message = self._message_to_edit(p)
        if message.text is None:
            raise _bad("there is no text in the message to edit")
        text = p.get("text")
        if not isinstance(text, str) or not text.strip():
            raise _bad("message text is empty")
        markup = self._markup(p)  # omitted: the inline keyboard is removed
        formatting = {"entities": p.get("entities"), "parse_mode": p.get("parse_mode")}
        return self._edit(message, formatting, text=text, reply_markup=markup)

    def _api_editMessageCaption(self, call: Call) -> dict[str, Any]:
        p = call.params
        message = self._message_to_edit(p)
        if message.photo_file_id is None:
            raise _bad("there is no caption in the message to edit")
        markup = self._markup(p)
        formatting = {"entities": p.get("caption_entities"), "parse_mode": p.get("parse_mode")}
        return self._edit(message, formatting, caption=p.get("caption"), reply_markup=markup)

    def _api_editMessageReplyMarkup(self, call: Call) -> dict[str, Any]:
        message = self._message_to_edit(call.params)
        return self._edit(message, reply_markup=self._markup(call.params))

    def _api_deleteMessage(self, call: Call) -> bool:
        chat = self._chat(call.params.get("chat_id"))
        message = self._find_message(chat, call.params.get("message_id"))
        if message is None or message.deleted:
            raise _bad("message to delete not found")
        if not message.from_bot and chat.type != "private" and chat.bot_status != "administrator":
            raise _bad("message can't be deleted")
        message.deleted = True
        return True

    def _api_answerCallbackQuery(self, call: Call) -> bool:
        p = call.params
        query = self.callback_queries.get(str(p.get("callback_query_id")))
        if query is None or query.answered:
            raise _bad("query is too old and response timeout expired or query ID is invalid")
        text = p.get("text")
        query.answered = True
        query.text = text
        query.show_alert = bool(p.get("show_alert"))
        query.url = p.get("url")
        query.cache_time = p.get("cache_time")
        self.callback_answers.append(query)
        return True

    def _api_getChat(self, call: Call) -> dict[str, Any]:
        chat = self._chat(call.params.get("chat_id"))
        out = chat.to_api()
        out.update(
            {
                "accent_color_id": 0,
                "max_reaction_count": 11,
                "accepted_gift_types": {
                    "unlimited_gifts": False,
                    "limited_gifts": False,
                    "unique_gifts": False,
                    "premium_subscription": False,
                    "gifts_from_channels": False,
                },
            }
        )
        if chat.type != "private":
            out["permissions"] = {"can_send_messages": True}
        return out

    def _api_getChatMember(self, call: Call) -> dict[str, Any]:
        chat = self._chat(call.params.get("chat_id"))
        return self._member(chat, call.params.get("user_id"))

    def _api_getChatAdministrators(self, call: Call) -> list[dict[str, Any]]:
        chat = self._chat(call.params.get("chat_id"))
        if chat.type == "private":
            raise _bad("there are no administrators in the private chat")
        ids = [uid for uid, status in chat.members.items() if status in ("creator", "administrator")]
        if chat.bot_status == "administrator":
            ids.append(self.bot_id)
        return [self._member(chat, uid) for uid in ids]

    # ---------------------------------------------------------------- documents (/export)

    def _api_sendDocument(self, call: Call) -> dict[str, Any]:
        """A file upload (multipart, field ``document``); a known file_id is sent again."""
        p = call.params
        chat = self._writable_chat(p.get("chat_id"))
        doc = p.get("document")
        upload = self._uploaded(call, "document")
        if upload is None and isinstance(doc, str) and doc in self.files:
            upload = self.files[doc]
        if upload is None:
            raise _bad("there is no document in the request")
        if len(upload.data) > 50 * 1024 * 1024:
            raise ApiError(413, "Request Entity Too Large")
        caption = p.get("caption")
        markup = self._markup(p)
        reply_id = self._reply_to(chat, p)
        message = self._new_bot_message(chat, call, caption=caption, reply_markup=markup, document=upload,
                                         reply_to_message_id=reply_id)  # fmt: skip
        return message.to_api(self)

    def _document_api(self, message: FakeMessage) -> dict[str, Any]:
        doc = message.document
        assert doc is not None
        return {
            "file_id": f"BQACAgFakeDoc{message.chat.id}_{message.message_id}",
            "file_unique_id": f"doc{message.chat.id}_{message.message_id}",
            "file_name": doc.filename or "document",
            "mime_type": doc.content_type or "application/octet-stream",
            "file_size": len(doc.data),
        }

    def _api_getFile(self, call: Call) -> dict[str, Any]:
        file_id = call.params.get("file_id")
        if file_id not in self.files:
            raise _bad("invalid file_id")
        size = self._photo_size(file_id)
        return {"file_id": file_id, "file_unique_id": size["file_unique_id"], "file_size": size["file_size"],
                "file_path": self._file_path(file_id)}  # fmt: skip


@dataclass(eq=False)
class _Poll:
    conflict: bool = False


# --------------------------------------------------------------------------------------------------
# A photo edited in place (editMessageMedia)


def _api_editMessageMedia(self: FakeTelegramServer, call: Call) -> dict[str, Any]:
    """A new picture (and caption, keyboard) for a message, as Telegram does it: the media is a JSON object
    whose ``media`` is ``attach://<part>`` (an upload in the same request) or a known file id; the same
    picture, caption and keyboard again is "not modified". A text
    message may get a picture (Bot API 9: "or to add media to text messages"): it becomes a photo."""
    p = call.params
    message = self._message_to_edit(p)
    media = p["media"]  # an InputMedia, checked already (BotApiSpec)
    if media["type"] != "photo":
        raise _bad("the fake Bot API edits photos only")
    ref = media.get("media")
    if isinstance(ref, str) and ref.startswith("attach://"):
        upload = call.files.get(ref.removeprefix("attach://"))
        if upload is None:
            raise _bad("wrong HTTP URL specified: attached file not found")
        if message.photo is not None and message.photo.data == upload.data:  # the same picture again
            file_id, upload = message.photo_file_id, message.photo
        else:
            file_id = self._new_file_id(upload)
    elif isinstance(ref, str) and ref in self.files:
        file_id, upload = ref, self.files[ref]
    else:
        raise _bad("wrong file identifier/HTTP URL specified")
    caption = media.get("caption")
    markup = self._markup(p)
    formatting = {"entities": media.get("caption_entities"), "parse_mode": media.get("parse_mode")}
    return self._edit(
        message,
        formatting,
        text=None,
        caption=caption,
        reply_markup=markup,
        photo=upload,
        photo_file_id=file_id,
    )


FakeTelegramServer._api_editMessageMedia = _api_editMessageMedia  # type: ignore[attr-defined]
