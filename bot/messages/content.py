"""A message as plain data: its text, its inline keyboard (``Button`` rows) and an optional picture. The table
service says what a chat shows in these terms; the Telegram layer turns them into requests
(bot/telegram/markup.py, bot/telegram/outbox.py)."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from enum import IntEnum
from typing import Any, Protocol


@dataclass(frozen=True, slots=True)
class Button:
    label: str
    data: str | None = None
    url: str | None = None
    web_app: str | None = None  # opens this https URL as a Mini App (private chats only)


Keyboard = tuple[tuple[Button, ...], ...]


def markup_json(kb: Keyboard | None) -> dict[str, Any] | None:
    """``to_markup`` as the Bot API's JSON, for a request whose parameters are sent as they are."""
    if not kb:
        return None
    return {"inline_keyboard": [[_button_json(b) for b in row] for row in kb]}


def _button_json(b: Button) -> dict[str, Any]:
    if b.web_app is not None:
        return {"text": b.label, "web_app": {"url": b.web_app}}
    if b.url is not None:
        return {"text": b.label, "url": b.url}
    return {"text": b.label} if b.data is None else {"text": b.label, "callback_data": b.data}


def stored_markup(kb: Keyboard | None) -> str | None:
    """A keyboard as stored with a message of the database's outbox: ``markup_json`` as text."""
    markup = markup_json(kb)
    return json.dumps(markup, ensure_ascii=False) if markup else None


def from_stored_markup(stored: str | None) -> Keyboard | None:
    """``stored_markup`` back as buttons."""
    if not stored:
        return None
    rows = json.loads(stored)["inline_keyboard"]
    return tuple(tuple(_button(b) for b in row) for row in rows)


def _button(b: dict[str, Any]) -> Button:
    app = b.get("web_app")
    web_app = app.get("url") if isinstance(app, dict) else None
    return Button(b["text"], b.get("callback_data"), b.get("url"), web_app)


class Photo(Protocol):
    """A picture to send: drawn (PNG bytes) only when the request is made; equal pictures are equal."""

    def png(self) -> bytes: ...


@dataclass(frozen=True, slots=True)
class Content:
    text: str
    kb: Keyboard | None = None
    photo: Photo | None = None


Render = Callable[[], Content]


class Priority(IntEnum):
    """How urgent a message is, for Telegram's send budget (bot/telegram/outbox.py spends it lowest first):
    the panel of a player who must decide now; one-off posts, the lobby and the last picture of a hand;
    everything that only shows the table moving on (the group's table, the panels of players with nothing to
    decide), merged while it waits - the latest state wins."""

    URGENT = 0
    NORMAL = 1
    LAZY = 2
