"""The group's score board (/score): points, hands and wins per player over a period, from storage, and
beside the points each player's skill rating (openskill, storage/ratings.py) in one variant: the one asked
for, else the group's open table's, else its last table's."""

from __future__ import annotations

from datetime import UTC, datetime

import engine
from bot.members.access import Clock
from bot.members.people import People
from bot.text.texts import t
from storage import Period, Storage


async def leaderboard(
    storage: Storage,
    people: People,
    clock: Clock,
    chat_id: int,
    period: str,
    lang: str,
    variant: str | None = None,
) -> str:
    """The board's text: ``period`` is all, week or month (anything else reads as all); ``variant`` whose
    ratings are shown (None: the group's current or last one)."""
    per = Period(period) if period in ("all", "week", "month") else Period.ALL
    now = datetime.fromtimestamp(clock(), UTC)
    rows = await storage.leaderboard(chat_id, per, now=now, limit=20)
    if variant is None:
        variant = await storage.last_variant(chat_id)
    ratings = await storage.ratings(chat_id, variant) if variant in engine.VARIANTS else {}
    lines = [t("score.title", lang, period=t(f"score.{per.value}", lang))]
    if variant in engine.VARIANTS and ratings:
        rs = engine.get_variant(variant)
        lines.append(t("score.rating", lang, variant=rs.name_zh if lang == "zh" else rs.name_en))
    if not rows:
        lines.append(t("score.empty", lang))
    for i, r in enumerate(rows, 1):
        name = r.name or people.name(r.user_id)
        line = t("score.line", lang, rank=i, name=name, points=r.points, hands=r.hands, wins=r.wins)
        rating = ratings.get(r.user_id)
        if rating is not None:
            line += t("score.rating_line", lang, r=rating.ordinal)
        lines.append(line)
    return "\n".join(lines)
