"""The group's score board (/score): points, hands and wins per player over a period, from storage."""

from __future__ import annotations

from datetime import UTC, datetime

from storage import Period, Storage

from .people import People
from .runtime import Clock
from .texts import t


async def leaderboard(
    storage: Storage, people: People, clock: Clock, chat_id: int, period: str, lang: str
) -> str:
    """The board's text: ``period`` is all, week or month (anything else reads as all)."""
    per = Period(period) if period in ("all", "week", "month") else Period.ALL
    now = datetime.fromtimestamp(clock(), UTC)
    rows = await storage.leaderboard(chat_id, per, now=now, limit=20)
    lines = [t("score.title", lang, period=t(f"score.{per.value}", lang))]
    if not rows:
        lines.append(t("score.empty", lang))
    for i, r in enumerate(rows, 1):
        name = r.name or people.name(r.user_id)
        lines.append(t("score.line", lang, rank=i, name=name, points=r.points, hands=r.hands, wins=r.wins))
    return "\n".join(lines)
