"""Who is at the other end of a Mini App connection, and which table he asks for.

* ``validate``: Telegram's ``initData`` (the query string ``Telegram.WebApp.initData`` the page sends) checked
  as Telegram specifies it ("Validating data received via the Mini App"): the data-check-string is every
  received field but ``hash``, sorted by key, ``key=value`` joined by line feeds; the secret key is
  HMAC-SHA-256 of the bot token keyed with ``WebAppData``; ``hash`` must be the hex HMAC-SHA-256 of the
  data-check-string under that key (compared in constant time). Then every field is checked: no field twice,
  ``auth_date`` a plain integer no older than the configured age (and not from the future), ``user`` a JSON
  object with a positive integer ``id`` that is not a bot, names and language strings, ``start_param`` in
  Telegram's alphabet. Anything else is refused with a reason (never with the data).
* ``TableTokens``: the table token a link carries (``startapp=<token>``): the table id with an HMAC of it,
  keyed by a key derived from the bot token, so that a token cannot be guessed from a table id (ids count
  up) and every worker of the bot agrees on it without storing anything. A token is only a table's address:
  who may see what there is decided by the seat or by group membership, on every connection.

No Telegram types here.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl, urlencode

MAX_INIT_DATA = 4096  # bytes: Telegram's initData is well under 1 KB
DEFAULT_MAX_AGE = 24 * 3600  # seconds an initData is accepted after Telegram signed it
FUTURE_SLACK = 60  # seconds an auth_date may be ahead of our clock
START_PARAM = re.compile(r"^[A-Za-z0-9_-]{1,512}$")
_DIGITS = re.compile(r"^[0-9]{1,12}$")


class AuthError(Exception):
    """initData refused: ``reason`` is a short code (``missing``, ``forged``, ``expired``, ``malformed``)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True, slots=True)
class WebUser:
    """The user Telegram signed an initData for."""

    id: int
    name: str
    language: str | None
    auth_date: int
    start_param: str | None = None


def secret_key(token: str) -> bytes:
    return hmac.new(b"WebAppData", token.encode(), hashlib.sha256).digest()


def _check_string(fields: list[tuple[str, str]]) -> str:
    return "\n".join(f"{k}={v}" for k, v in sorted(fields))


def sign(fields: dict[str, str], token: str) -> str:
    """An initData query string for ``fields`` signed with ``token`` as Telegram signs it (tests and the
    benchmark stand in for Telegram with it)."""
    items = sorted(fields.items())
    digest = hmac.new(secret_key(token), _check_string(items).encode(), hashlib.sha256).hexdigest()
    return urlencode([*items, ("hash", digest)])


def _text(value: Any, limit: int = 256) -> str | None:
    return value if isinstance(value, str) and len(value) <= limit else None


def _signed_fields(raw: object, token: str) -> dict[str, str]:
    """The fields of an initData whose ``hash`` is the bot's signature of the others (each field once)."""
    if not isinstance(raw, str) or not raw:
        raise AuthError("missing")
    if len(raw.encode()) > MAX_INIT_DATA or not raw.isascii():
        raise AuthError("malformed")
    try:
        fields = parse_qsl(raw, keep_blank_values=True, strict_parsing=True)
    except ValueError:
        raise AuthError("malformed") from None
    keys = [k for k, _ in fields]
    if len(set(keys)) != len(keys):
        raise AuthError("malformed")
    got = dict(fields)
    received = got.get("hash", "")
    rest = [(k, v) for k, v in fields if k != "hash"]
    expected = hmac.new(secret_key(token), _check_string(rest).encode(), hashlib.sha256).hexdigest()
    if not hmac.compare_digest(received.encode(), expected.encode()):
        raise AuthError("forged")
    return got


def _auth_date(got: dict[str, str], now: float, max_age: float) -> int:
    """When Telegram signed it: no older than ``max_age`` seconds, not from the future."""
    auth = got.get("auth_date", "")
    if not _DIGITS.match(auth):
        raise AuthError("malformed")
    auth_date = int(auth)
    if auth_date > now + FUTURE_SLACK or now - auth_date > max_age:
        raise AuthError("expired")
    return auth_date


def _user(got: dict[str, str]) -> tuple[int, str, str | None]:
    """The signed user's id, name and language: a person (not a bot) with a positive id and short names."""
    try:
        user = json.loads(got.get("user", ""))
    except ValueError:
        raise AuthError("malformed") from None
    if not isinstance(user, dict):
        raise AuthError("malformed")
    uid = user.get("id")
    if type(uid) is not int or not 0 < uid < 2**53 or user.get("is_bot") is True:
        raise AuthError("malformed")
    first = _text(user.get("first_name"), 128)
    last = _text(user.get("last_name", ""), 128)
    lang = user.get("language_code")
    if first is None or last is None or (lang is not None and _text(lang, 35) is None):
        raise AuthError("malformed")
    return uid, f"{first} {last}".strip() or str(uid), lang


def validate(raw: object, token: str, now: float, max_age: float = DEFAULT_MAX_AGE) -> WebUser:
    """The user of a signed initData, or ``AuthError``."""
    got = _signed_fields(raw, token)
    auth_date = _auth_date(got, now, max_age)
    uid, name, lang = _user(got)
    start = got.get("start_param")
    if start is not None and not START_PARAM.match(start):
        raise AuthError("malformed")
    return WebUser(uid, name, lang, auth_date, start)


TOKEN_MAC = 22  # base64url characters of the HMAC: 132 bits


def tokens_key(token: str) -> bytes:
    """The table tokens' key, derived from the bot token (never the token itself)."""
    return hmac.new(token.encode(), b"mahjong-bot/miniapp-tables/v1", hashlib.sha256).digest()


class TableTokens:
    """``<table>-<mac>`` addresses of tables, for ``startapp`` and the page: made for one table, checked
    in constant time."""

    def __init__(self, key: bytes) -> None:
        self.key = key

    def _mac(self, table_id: int) -> str:
        digest = hmac.new(self.key, f"table:{table_id}".encode(), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(digest).decode()[:TOKEN_MAC].replace("-", "_")

    def token(self, table_id: int) -> str:
        return f"{table_id}-{self._mac(table_id)}"

    def table(self, token: object) -> int | None:
        """The table a token was made for, or None (malformed, or made for another table or key)."""
        if not isinstance(token, str) or len(token) > 64 or not token.isascii():
            return None
        head, sep, mac = token.partition("-")
        if not (sep and 0 < len(head) <= 15 and head.isdigit() and head[0] != "0"):
            return None
        table_id = int(head)
        return table_id if hmac.compare_digest(mac, self._mac(table_id)) else None
