"""Who may do what at a table, and deep links nobody can guess (docs/security.md).

* Membership: joining a table, changing its settings or starting it needs membership of the table's group,
  asked of Telegram (getChatMember through the ``MemberProbe`` port) and cached briefly per (chat, user).
  Members are ``creator``, ``administrator``, ``member`` and ``restricted`` users who are still in the chat.
* Deep links: the private-chat link that seats a player (``/start j<table>_<mac>``) carries an HMAC of the
  table id, so ids that count up cannot be turned into links to other groups' tables. The key is derived
  from the bot token (a new token invalidates old links, which are only needed for minutes).

No Telegram types here: ``bot/telegram/handlers.py`` builds the probe.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from collections.abc import Awaitable, Callable

Clock = Callable[[], float]  # seconds since the epoch (time.time; tests pass their own)

# (chat id, user id) -> a ChatMember status: creator, administrator, member, restricted, left, kicked;
# "" when Telegram could not be asked (network): never cached, treated as "not known to be a member".
MemberProbe = Callable[[int, int], Awaitable[str]]

MEMBER = frozenset({"creator", "administrator", "member", "restricted"})
ADMIN = frozenset({"creator", "administrator"})
MEMBER_TTL = 60.0  # seconds a status is trusted: a user who left can act for at most this long
NOT_MEMBER_TTL = 10.0  # ... and one who just joined the group waits at most this long
MAX_CACHED = 10_000


class Access:
    def __init__(self, probe: MemberProbe, clock: Clock) -> None:
        self.probe = probe
        self.clock = clock
        self._cache: dict[tuple[int, int], tuple[float, str]] = {}

    async def status(self, chat_id: int, user_id: int) -> str:
        """The user's status in the group, from the cache or from Telegram."""
        key = (chat_id, user_id)
        now = self.clock()
        hit = self._cache.get(key)
        if hit is not None and hit[0] > now:
            return hit[1]
        status = await self.probe(chat_id, user_id)
        if status:
            if len(self._cache) >= MAX_CACHED:
                self._cache = {k: v for k, v in self._cache.items() if v[0] > now}
                if len(self._cache) >= MAX_CACHED:
                    self._cache.clear()
            ttl = MEMBER_TTL if status in MEMBER else NOT_MEMBER_TTL
            self._cache[key] = (now + ttl, status)
        return status

    async def left(self, chat_id: int, user_id: int) -> bool:
        """Telegram says the user is no longer in the group (left, or removed); a failed check is not that."""
        status = await self.status(chat_id, user_id)
        return bool(status) and status not in MEMBER

    async def is_member(self, chat_id: int, user_id: int) -> bool:
        return await self.status(chat_id, user_id) in MEMBER

    async def is_admin(self, chat_id: int, user_id: int) -> bool:
        return await self.status(chat_id, user_id) in ADMIN


async def everyone_is_member(chat_id: int, user_id: int) -> str:
    """A probe for a service built without Telegram (the console, unit tests): everyone is a member."""
    return "member"


# ------------------------------------------------------------------ deep links

MAC_CHARS = 16  # base64url characters of the HMAC: 96 bits


def link_key(token: str) -> bytes:
    """The deep-link key, derived from the bot token (never the token itself)."""
    return hmac.new(token.encode(), b"mahjong-bot/deep-links/v1", hashlib.sha256).digest()


class JoinLinks:
    """``j<table>_<mac>`` payloads for ``/start``: made for one table, checked in constant time."""

    def __init__(self, key: bytes) -> None:
        self.key = key

    def _mac(self, table_id: int) -> str:
        digest = hmac.new(self.key, f"join:{table_id}".encode(), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(digest).decode()[:MAC_CHARS]

    def payload(self, table_id: int) -> str:
        return f"j{table_id}_{self._mac(table_id)}"

    def table(self, payload: str) -> int | None:
        """The table a payload was made for, or None (malformed, or made for another table or key)."""
        if not payload.isascii():
            return None
        head, sep, mac = payload.partition("_")
        digits = head[1:]
        if not (head[:1] == "j" and sep and 0 < len(digits) <= 15 and digits.isdigit()):
            return None
        table_id = int(digits)
        return table_id if hmac.compare_digest(mac, self._mac(table_id)) else None
