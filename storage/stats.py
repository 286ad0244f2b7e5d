"""Stats: score rows and running totals (leaderboards), per-seat figures of finished hands (a room's 大结算,
/stats), and skill ratings per group and variant.

The SQL of ``Storage``'s score and stats methods (``storage/store.py`` puts the pieces together), and what
finishing a hand writes here inside its transaction (``score_rows``, ``record_hand``: storage/hands.py).
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from . import ratings as rating_model
from .errors import InvalidInput
from .facts import SeatFacts
from .models import Hand, HistoryEntry, Period, Rating, SeatStats, Standing, VariantStats, to_datetime
from .runner import Db, Runner, dumps

# All time: the running sums, one row per player of the chat.
LEADERBOARD_ALL_SQL = """
    SELECT t.user_id, p.name, t.points, t.hands, t.wins, t.best
    FROM chat_totals AS t
    LEFT JOIN players AS p ON p.user_id = t.user_id
    WHERE t.chat_id = ?
    ORDER BY t.points DESC, t.wins DESC, t.user_id
    LIMIT ?
"""


# A period: the score rows in [start, end), through the covering index (chat_id, ended_at, user_id, ...).
LEADERBOARD_PERIOD_SQL = """
    SELECT s.user_id, p.name, s.points, s.hands, s.wins, s.best
    FROM (
        SELECT user_id, SUM(delta) AS points, COUNT(*) AS hands, SUM(win) AS wins,
               CASE WHEN MAX(delta) > 0 THEN MAX(delta) ELSE 0 END AS best
        FROM score_deltas
        WHERE chat_id = ? AND ended_at >= ? AND ended_at < ? AND user_id IS NOT NULL
        GROUP BY user_id
    ) AS s
    LEFT JOIN players AS p ON p.user_id = s.user_id
    ORDER BY s.points DESC, s.wins DESC, s.user_id
    LIMIT ?
"""


NO_LIMIT = 2**62  # LIMIT for "all rows" on both databases


def _sql_bound(x: float) -> float:
    # SQLite has no infinity literal in parameters on every build; a huge finite bound does the same job
    return max(min(x, 1e300), -1e300)


def period_bounds(period: Period | str, now: datetime) -> tuple[float, float]:
    """[start, end) of the calendar period containing ``now``, in ``now``'s own timezone, as UTC seconds.

    The caller passes ``now`` (aware) so that "this week" is the chat's week, and tests need no clock.
    """
    period = Period(period)
    if period == Period.ALL:
        return -math.inf, math.inf
    if now.tzinfo is None or now.utcoffset() is None:
        raise InvalidInput("now must be timezone-aware: a week or a month starts at local midnight")
    midnight = now.replace(hour=0, minute=0, second=0, microsecond=0)
    if period == Period.WEEK:
        start = midnight - timedelta(days=now.weekday())
        end = start + timedelta(days=7)
    else:
        start = midnight.replace(day=1)
        end = (
            start.replace(year=start.year + 1, month=1)
            if start.month == 12
            else start.replace(month=start.month + 1)
        )
    return start.timestamp(), end.timestamp()


async def score_rows(db: Db, hand_id: int) -> None:
    """A finished hand's score rows, derived from its result JSON (what ``schema.SCORE_ROWS_FOR_HAND`` does
    in SQLite's SQL, here in Python so that both databases run the same code); inside the caller's
    transaction."""
    rows = list(
        await db.execute_fetchall(
            "SELECT h.seats, h.result, h.ended_at, t.chat_id FROM hands AS h JOIN tables AS t "
            "ON t.id = h.table_id WHERE h.id = ? AND h.ended_at IS NOT NULL AND h.result IS NOT NULL",
            (hand_id,),
        )
    )
    if not rows:
        return
    seats, result, ended_at, chat_id = json.loads(rows[0][0]), json.loads(rows[0][1]), rows[0][2], rows[0][3]
    deltas = result.get("deltas") if isinstance(result, dict) else None
    if not isinstance(deltas, list):
        return
    winners = result.get("winners")
    won = set(winners) if isinstance(winners, list) else set()
    await db.executemany(
        "INSERT INTO score_deltas (hand_id, seat, user_id, chat_id, delta, win, ended_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?)",
        [
            (
                hand_id,
                seat,
                seats[seat] if seat < len(seats) else None,
                chat_id,
                int(d),
                int(seat in won),
                ended_at,
            )  # fmt: skip
            for seat, d in enumerate(deltas)
        ],
    )


async def record_hand(
    db: Db, hand: Hand, chat_id: int, variant: str, deltas: Sequence[Any], facts: Sequence[SeatFacts]
) -> None:
    """A finished hand's per-seat figures (``seat_stats``, from its ``facts``) and the ratings it moves;
    inside the caller's transaction (``storage/hands.py``: ``derive``)."""
    if hand.ended_at is None:
        return
    ended = hand.ended_at.timestamp()
    await db.executemany(
        """
        INSERT INTO seat_stats (hand_id, seat, user_id, chat_id, table_id, variant, delta, win, self_draw,
                                deal_ins, kongs, best, best_value, ended_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """,
        [
            (
                hand.id,
                f.seat,
                hand.seats[f.seat],
                chat_id,
                hand.table_id,
                variant,
                int(deltas[f.seat]),
                int(f.win),
                int(f.self_draw),
                f.deal_ins,
                f.kongs,
                dumps(list(f.best)) if f.best else None,
                f.best_value,
                ended,
            )  # fmt: skip
            for f in facts
        ],
    )
    users = [u for u in hand.seats if u is not None]
    current: dict[int, tuple[float, float]] = {}
    for r in await db.execute_fetchall(
        "SELECT user_id, mu, sigma FROM ratings WHERE chat_id = ? AND variant = ? "
        f"AND user_id IN ({', '.join('?' * len(users)) or 'NULL'})",
        (chat_id, variant, *users),
    ):
        current[int(r[0])] = (float(r[1]), float(r[2]))
    default = (rating_model.DEFAULT_MU, rating_model.DEFAULT_SIGMA)
    before = [None if u is None else current.get(u, default) for u in hand.seats]
    after = rating_model.rate([int(d) for d in deltas], before)
    if after == before:
        return
    await db.executemany(
        """
        INSERT INTO ratings (chat_id, variant, user_id, mu, sigma, hands) VALUES (?, ?, ?, ?, ?, 1)
        ON CONFLICT (chat_id, variant, user_id) DO UPDATE SET
            mu = excluded.mu, sigma = excluded.sigma, hands = ratings.hands + 1
        """,
        [
            (chat_id, variant, u, new[0], new[1])
            for u, new in zip(hand.seats, after, strict=True)
            if u is not None and new is not None
        ],
    )


class Stats(Runner):
    """Leaderboards and histories (``score_deltas``, ``chat_totals``), seat figures (``seat_stats``) and
    ratings (``ratings``)."""

    async def leaderboard(
        self,
        chat_id: int,
        period: Period | str = Period.ALL,
        now: datetime | None = None,
        limit: int | None = None,
    ) -> list[Standing]:
        """A chat's standings over all time, this week or this month (calendar periods in ``now``'s
        timezone; ``now`` defaults to the storage clock in UTC). Ranked by points, then wins.

        All time reads the chat's running totals (one row per player); a week or a month reads the score
        rows of that period through a covering index. Neither touches the action log.
        """
        when = now if now is not None else to_datetime(self._now())
        start, end = period_bounds(period, when)
        lim = NO_LIMIT if limit is None else int(limit)

        async def run(db: Db) -> list[Standing]:
            if start == -math.inf and end == math.inf:
                rows = await db.execute_fetchall(LEADERBOARD_ALL_SQL, (chat_id, lim))
            else:
                rows = await db.execute_fetchall(
                    LEADERBOARD_PERIOD_SQL, (chat_id, _sql_bound(start), _sql_bound(end), lim)
                )
            return [Standing(*r) for r in rows]

        return await self._single(run)

    async def player_history(
        self,
        user_id: int,
        *,
        chat_id: int | None = None,
        limit: int = 20,
        before: datetime | None = None,
    ) -> list[HistoryEntry]:
        """A player's finished hands, newest first; pass the last entry's ``ended_at`` as ``before``
        to get the next page."""
        until = before.timestamp() if before is not None else math.inf

        async def run(db: Db) -> list[HistoryEntry]:
            rows = await db.execute_fetchall(
                """
                SELECT s.hand_id, h.table_id, s.chat_id, h.number, s.seat, s.delta, s.win, s.ended_at
                FROM score_deltas AS s JOIN hands AS h ON h.id = s.hand_id
                WHERE s.user_id = ? AND s.ended_at < ? AND (CAST(? AS BIGINT) IS NULL OR s.chat_id = ?)
                ORDER BY s.ended_at DESC, s.hand_id DESC
                LIMIT ?
                """,
                (user_id, _sql_bound(until), chat_id, chat_id, limit),
            )
            return [
                HistoryEntry(r[0], r[1], r[2], r[3], r[4], r[5], bool(r[6]), to_datetime(r[7])) for r in rows
            ]

        return await self._single(run)

    async def table_stats(self, table_id: int) -> list[SeatStats]:
        """Every seat of every finished hand of a table (the room's 大结算), in hand and seat order."""

        async def run(db: Db) -> list[SeatStats]:
            rows = await db.execute_fetchall(
                "SELECT hand_id, seat, user_id, delta, win, self_draw, deal_ins, kongs, best, best_value "
                "FROM seat_stats WHERE table_id = ? ORDER BY hand_id, seat",
                (table_id,),
            )
            return [
                SeatStats(
                    r[0],
                    r[1],
                    r[2],
                    r[3],
                    bool(r[4]),
                    bool(r[5]),
                    r[6],
                    r[7],
                    tuple(json.loads(r[8])) if r[8] else (),
                    r[9],
                )  # fmt: skip
                for r in rows
            ]

        return await self._single(run)

    async def player_stats(self, user_id: int, chat_id: int | None = None) -> list[VariantStats]:
        """A player's figures per variant (in one group, or everywhere when ``chat_id`` is None), most
        played first; in a group each carries his rating there."""

        async def run(db: Db) -> list[VariantStats]:
            where = "user_id = ?" + (" AND chat_id = ?" if chat_id is not None else "")
            args: tuple[Any, ...] = (user_id,) if chat_id is None else (user_id, chat_id)
            totals = await db.execute_fetchall(
                f"""
                SELECT variant, COUNT(*), SUM(win), SUM(self_draw), SUM(deal_ins), SUM(delta)
                FROM seat_stats WHERE {where} GROUP BY variant ORDER BY COUNT(*) DESC, variant
                """,
                args,
            )
            # each variant's best win: the first row of its group, best value first
            best: dict[str, tuple[tuple[str, ...], int]] = {}
            for r in await db.execute_fetchall(
                f"SELECT variant, best, best_value FROM seat_stats "
                f"WHERE {where} AND best_value IS NOT NULL ORDER BY variant, best_value DESC, hand_id, seat",
                args,
            ):
                best.setdefault(str(r[0]), (tuple(json.loads(r[1])) if r[1] else (), r[2]))
            rated: dict[str, Rating] = {}
            if chat_id is not None:
                for r in await db.execute_fetchall(
                    "SELECT variant, mu, sigma, hands FROM ratings WHERE chat_id = ? AND user_id = ?",
                    (chat_id, user_id),
                ):
                    rated[str(r[0])] = Rating(float(r[1]), float(r[2]), int(r[3]))
            out = []
            for r in totals:
                names, value = best.get(str(r[0]), ((), None))
                out.append(
                    VariantStats(str(r[0]), r[1], r[2], r[3], r[4], r[5], names, value, rated.get(str(r[0])))
                )
            return out

        return await self._read(run)

    async def ratings(self, chat_id: int, variant: str) -> dict[int, Rating]:
        """Every player's rating in a group for one variant."""

        async def run(db: Db) -> dict[int, Rating]:
            rows = await db.execute_fetchall(
                "SELECT user_id, mu, sigma, hands FROM ratings WHERE chat_id = ? AND variant = ?",
                (chat_id, variant),
            )
            return {int(r[0]): Rating(float(r[1]), float(r[2]), int(r[3])) for r in rows}

        return await self._single(run)
