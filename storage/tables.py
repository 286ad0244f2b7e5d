"""Tables: a room in a group, its bot settings (timers, language, the lobby's messages, AI seats), the
players' panels, and the room settings a group remembers per variant.

The SQL of ``Storage``'s table methods (``storage/store.py`` puts the pieces together), and the helpers the
other modules use on a table's rows inside their own transactions (``read_table``, ``read_settings``,
``write_settings``, ``read_bot_state``).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import engine

from .errors import InvalidInput, NotFound, TableClosed
from .models import (
    MAX_PAUSE_S,
    ROUNDS,
    RoomSettings,
    SeatPlay,
    Table,
    TableSettings,
    TableStatus,
    to_datetime,
)
from .players import check_language
from .runner import Db, Row, Runner, check_int64, dumps, scalar

TABLE_COLS = "id, chat_id, variant, options, seats, status, created_at"
_SETTINGS_COLS = (
    "lang, claim_s, discard_s, pause_s, host, editing, lobby_msg, table_msg, rounds, ready_s, ready_until, "
    "vote, vote_until, vote_by, vote_msg, vote_agree, ai_level"
)
_SETTINGS_MARKS = ", ".join("?" * len(_SETTINGS_COLS.split(", ")))
_SETTING_TYPES: dict[str, Any] = {
    "lang": str,
    "claim_s": int,
    "discard_s": int,
    "pause_s": int,
    "host": (int, type(None)),
    "editing": bool,
    "lobby_msg": (int, type(None)),
    "table_msg": (int, type(None)),
    "rounds": int,
    "ready_s": int,
    "ready_until": (int, float, type(None)),
    "vote": int,
    "vote_until": (int, float, type(None)),
    "vote_by": (int, type(None)),
    "vote_msg": (int, type(None)),
    "vote_agree": bool,
    "ai_level": (str, type(None)),
}
_SEAT_SETS = (
    "ai",
    "ready",
    "vote_yes",
    "vote_no",
)  # settings kept per seat in ``table_seats`` (a tuple of seat numbers each)
MAX_SEATS = 4  # rows in table_seats per table


def variant_of(variant: str) -> engine.Variant:
    try:
        return engine.get_variant(variant)
    except engine.EngineError as e:
        raise InvalidInput(str(e)) from None


def resolve_options(variant: engine.Variant, options: Mapping[str, Any] | None) -> dict[str, Any]:
    """Store options with every default filled in, so a later change of default never changes a replay."""
    try:
        return dict(variant.make_options(options))
    except engine.EngineError as e:
        raise InvalidInput(str(e)) from None


def check_seats(variant: engine.Variant, seats: Sequence[int | None]) -> tuple[int | None, ...]:
    out = tuple(seats)
    for s in out:
        if s is not None:
            check_int64("a seat's user id", s)
    if len(out) > max(variant.seat_counts):
        raise InvalidInput(f"{variant.id} seats at most {max(variant.seat_counts)} players, not {len(out)}")
    taken = [s for s in out if s is not None]
    if len(taken) != len(set(taken)):
        raise InvalidInput("a player cannot take two seats at one table")
    return out


def table_from(row: Row) -> Table:
    return Table(
        id=row[0],
        chat_id=row[1],
        variant=row[2],
        options=json.loads(row[3]),
        seats=tuple(json.loads(row[4])),
        status=TableStatus(row[5]),
        created_at=to_datetime(row[6]),
    )


def _settings(
    row: Row, seats: Mapping[str, Iterable[int]], prompts: Iterable[tuple[int, int]] = ()
) -> TableSettings:
    return TableSettings(
        lang=row[0],
        claim_s=row[1],
        discard_s=row[2],
        pause_s=row[3],
        host=row[4],
        editing=bool(row[5]),
        lobby_msg=row[6],
        table_msg=row[7],
        rounds=row[8],
        ready_s=row[9],
        ready_until=row[10],
        vote=row[11],
        vote_until=row[12],
        vote_by=row[13],
        vote_msg=row[14],
        vote_agree=bool(row[15]),
        ai_level=row[16],
        **{key: tuple(sorted(seats.get(key, ()))) for key in _SEAT_SETS},
        vote_prompts=tuple(sorted(prompts)),
    )


def _seat_set(key: str, value: Iterable[Any]) -> tuple[int, ...]:
    seats = tuple(value)
    if not all(isinstance(x, int) and not isinstance(x, bool) and 0 <= x < MAX_SEATS for x in seats):
        raise InvalidInput(f"{key} seats must be seat numbers 0-{MAX_SEATS - 1}, not {value!r}")
    return seats


def _vote_prompts(value: Iterable[Any]) -> tuple[tuple[int, int], ...]:
    """(seat, message id) pairs, one per seat at most."""
    try:
        pairs = tuple((seat, mid) for seat, mid in value)
    except (TypeError, ValueError):
        raise InvalidInput(f"vote_prompts must be (seat, message id) pairs, not {value!r}") from None
    for seat, mid in pairs:
        _seat_set("vote_prompts", (seat,))
        if not isinstance(mid, int) or isinstance(mid, bool) or mid <= 0:
            raise InvalidInput(f"vote_prompts: not a message id: {mid!r}")
        check_int64("vote_prompts", mid)
    if len({seat for seat, _ in pairs}) != len(pairs):
        raise InvalidInput(f"vote_prompts: one prompt a seat, not {value!r}")
    return tuple(sorted(pairs))


def _seconds(lo: int, hi: int) -> Callable[[str, Any], None]:
    def check(key: str, value: Any) -> None:
        if not lo <= value <= hi:
            raise InvalidInput(f"{key} must be {lo}-{hi} seconds, not {value}")

    return check


def _language(key: str, value: Any) -> None:
    check_language(value)


def _rounds(key: str, value: Any) -> None:
    if value not in ROUNDS:
        raise InvalidInput(f"rounds must be one of {ROUNDS}, not {value}")


def _time(key: str, value: Any) -> None:
    if value is not None and not (math.isfinite(value) and value > 0):
        raise InvalidInput(f"{key} must be a time, not {value}")


def _message_id(key: str, value: Any) -> None:
    if value is not None and value <= 0:
        raise InvalidInput(f"{key} must be a message id, not {value}")


def _ai_level(key: str, value: Any) -> None:
    if value is not None and not (0 < len(value) <= 16 and value.isidentifier()):
        raise InvalidInput(f"ai_level must be a level's id, not {value!r}")


def _vote_number(key: str, value: Any) -> None:
    if value < 0:
        raise InvalidInput(f"vote must be a vote's number, not {value}")


# the range of each setting that has one (its type is checked first: ``_SETTING_TYPES``)
_SETTING_RANGES: dict[str, Callable[[str, Any], None]] = {
    "lang": _language,
    "claim_s": _seconds(5, 3600),
    "discard_s": _seconds(5, 3600),
    "pause_s": _seconds(0, MAX_PAUSE_S),
    "rounds": _rounds,
    "ready_s": _seconds(5, 600),
    "ready_until": _time,
    "vote_until": _time,
    "lobby_msg": _message_id,
    "table_msg": _message_id,
    "vote_msg": _message_id,
    "ai_level": _ai_level,
    "vote": _vote_number,
}


def check_settings(changes: Mapping[str, Any]) -> dict[str, Any]:
    """Typed, in-range settings (the schema's CHECKs say the same; this gives a clear message first)."""
    out: dict[str, Any] = {}
    for key, value in changes.items():
        if key in _SEAT_SETS:
            out[key] = _seat_set(key, value)
            continue
        if key == "vote_prompts":
            out[key] = _vote_prompts(value)
            continue
        kind = _SETTING_TYPES.get(key)
        if kind is None:
            raise InvalidInput(f"no table setting {key!r}")
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise InvalidInput(f"table setting {key} cannot be {value!r}")
        in_range = _SETTING_RANGES.get(key)
        if in_range is not None:
            in_range(key, value)
        if isinstance(value, int) and not isinstance(value, bool):
            check_int64(key, value)
        out[key] = int(value) if isinstance(value, bool) else value
    return out


async def read_table(db: Db, table_id: int) -> Table:
    rows = list(await db.execute_fetchall(f"SELECT {TABLE_COLS} FROM tables WHERE id = ?", (table_id,)))
    if not rows:
        raise NotFound(f"no table {table_id}")
    return table_from(rows[0])


async def _update_table(
    db: Db,
    table_id: int,
    seats: Sequence[int | None] | None,
    options: Mapping[str, Any] | None,
) -> Table:
    table = await read_table(db, table_id)
    if table.status != TableStatus.OPEN:
        raise TableClosed(f"table {table_id} is closed")
    if seats is None and not options:
        return table
    variant = variant_of(table.variant)
    new_seats = check_seats(variant, seats) if seats is not None else table.seats
    new_opts = resolve_options(variant, {**table.options, **options}) if options else table.options
    rows = await db.execute_fetchall(
        f"UPDATE tables SET seats = ?, options = ? WHERE id = ? RETURNING {TABLE_COLS}",
        (dumps(list(new_seats)), dumps(dict(new_opts)), table_id),
    )
    return table_from(list(rows)[0])


async def read_settings(db: Db, table_id: int) -> TableSettings:
    rows = list(
        await db.execute_fetchall(
            f"SELECT {_SETTINGS_COLS} FROM table_settings WHERE table_id = ?", (table_id,)
        )
    )
    if not rows:
        raise NotFound(f"no table {table_id}")
    flags = " OR ".join(f"{k} = 1" for k in _SEAT_SETS)  # column names from a fixed list
    seats = list(
        await db.execute_fetchall(
            f"SELECT seat, {', '.join(_SEAT_SETS)}, vote_prompt FROM table_seats "
            f"WHERE table_id = ? AND ({flags} OR vote_prompt IS NOT NULL)",
            (table_id,),
        )
    )
    sets = {key: [int(r[0]) for r in seats if r[i]] for i, key in enumerate(_SEAT_SETS, 1)}
    prompts = ((int(r[0]), int(r[-1])) for r in seats if r[-1] is not None)
    return _settings(rows[0], sets, prompts)


async def write_settings(db: Db, table_id: int, values: Mapping[str, Any]) -> None:
    """Checked settings (``check_settings``) into a table's rows; inside the caller's transaction."""
    cols = [k for k in values if k not in _SEAT_SETS and k != "vote_prompts"]
    if cols:
        await db.execute(
            f"UPDATE table_settings SET {', '.join(f'{k} = ?' for k in cols)} WHERE table_id = ?",
            (*(values[k] for k in cols), table_id),
        )
    for key in _SEAT_SETS:  # column names from a fixed list
        if key in values:
            seats = sorted({int(x) for x in values[key]})
            flag = f"CASE WHEN seat IN ({', '.join('?' * len(seats))}) THEN 1 ELSE 0 END" if seats else "0"
            await db.execute(f"UPDATE table_seats SET {key} = {flag} WHERE table_id = ?", (*seats, table_id))
    if "vote_prompts" in values:  # the whole set: seats not named have none
        await db.execute("UPDATE table_seats SET vote_prompt = NULL WHERE table_id = ?", (table_id,))
        for seat, message_id in values["vote_prompts"]:
            await db.execute(
                "UPDATE table_seats SET vote_prompt = ? WHERE table_id = ? AND seat = ?",
                (message_id, table_id, seat),
            )


async def read_bot_state(db: Db, table_id: int) -> tuple[TableSettings, tuple[SeatPlay, ...], dict[int, int]]:
    """A table's bot settings, its seats' play state and its players' panels, as stored."""
    settings = await read_settings(db, table_id)
    rows = await db.execute_fetchall(
        "SELECT seat, auto, timeouts, since, deadline FROM table_seats WHERE table_id = ? ORDER BY seat",
        (table_id,),
    )
    seats = tuple(SeatPlay(r[0], bool(r[1]), r[2], r[3], r[4]) for r in rows)
    panels = await db.execute_fetchall(
        "SELECT user_id, message_id FROM panels WHERE table_id = ?", (table_id,)
    )
    return settings, seats, {int(r[0]): int(r[1]) for r in panels}


async def _remember_room(db: Db, table: Table, settings: TableSettings) -> None:
    """The table's room settings become its group's remembered ones for its variant."""
    await db.execute(
        """
        INSERT INTO chat_variant_settings (chat_id, variant, options, seats, rounds, ready_s, claim_s,
                                           discard_s, pause_s, vote_agree, ai_level)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (chat_id, variant) DO UPDATE SET
            options = excluded.options, seats = excluded.seats, rounds = excluded.rounds,
            ready_s = excluded.ready_s, claim_s = excluded.claim_s, discard_s = excluded.discard_s,
            pause_s = excluded.pause_s, vote_agree = excluded.vote_agree, ai_level = excluded.ai_level
        """,
        (
            table.chat_id,
            table.variant,
            dumps(dict(table.options)),
            len(table.seats),
            settings.rounds,
            settings.ready_s,
            settings.claim_s,
            settings.discard_s,
            settings.pause_s,
            int(settings.vote_agree),
            settings.ai_level,
        ),  # fmt: skip
    )


class Tables(Runner):
    """Tables (``tables``), their settings (``table_settings``, ``table_seats``' AI and ready flags), the
    players' panels (``panels``) and the rooms groups remember (``chat_variant_settings``)."""

    async def create_table(
        self,
        chat_id: int,
        variant: str,
        options: Mapping[str, Any] | None = None,
        seats: Sequence[int | None] = (),
        settings: TableSettings | None = None,
    ) -> Table:
        """A new open table in a chat, with its bot settings (defaults if None). The variant and options are
        checked against the engine now, so a typo fails at /new rather than when the first hand is dealt."""
        check_int64("chat_id", chat_id)
        rules = variant_of(variant)
        opts = resolve_options(rules, options)
        seat_ids = check_seats(rules, seats)
        conf = settings or TableSettings()
        values = check_settings({k: getattr(conf, k) for k in _SETTING_TYPES})
        ai = check_settings({"ai": conf.ai})["ai"]
        now = self._now()

        async def run(db: Db) -> Table:
            rows = await db.execute_fetchall(
                f"""
                INSERT INTO tables (chat_id, variant, options, seats, status, created_at)
                VALUES (?, ?, ?, ?, 'open', ?) RETURNING {TABLE_COLS}
                """,
                (chat_id, variant, dumps(opts), dumps(list(seat_ids)), now),
            )
            table = table_from(list(rows)[0])
            await db.execute(
                f"INSERT INTO table_settings (table_id, {_SETTINGS_COLS}) VALUES (?, {_SETTINGS_MARKS})",
                (table.id, *(values[k] for k in _SETTINGS_COLS.split(", "))),
            )
            await db.executemany(
                "INSERT INTO table_seats (table_id, seat, ai) VALUES (?, ?, ?)",
                [(table.id, seat, int(seat in ai)) for seat in range(MAX_SEATS)],
            )
            return table

        return await self._write(run)

    async def table_settings(self, table_id: int) -> TableSettings:
        async def run(db: Db) -> TableSettings:
            return await read_settings(db, table_id)

        return await self._read(run)

    async def update_settings(self, table_id: int, **changes: Any) -> TableSettings:
        """Change a table's bot settings (``TableSettings`` fields: lang, claim_s, discard_s, host, editing,
        lobby_msg, table_msg, ai) in one transaction; returns them as stored."""
        values = check_settings(changes)

        async def run(db: Db) -> TableSettings:
            await read_table(db, table_id)
            await write_settings(db, table_id, values)
            return await read_settings(db, table_id)

        return await self._write(run)

    async def update_lobby(
        self,
        table_id: int,
        *,
        seats: Sequence[int | None] | None = None,
        options: Mapping[str, Any] | None = None,
        remember: bool = False,
        **settings: Any,
    ) -> tuple[Table, TableSettings]:
        """``update_table`` and ``update_settings`` in one transaction (a seat taken stops being an AI
        seat, the seat count changes with the AI seats that still fit). ``remember``: the room's
        settings as they now are become the group's remembered ones for the variant (``remembered_room``)."""
        values = check_settings(settings)

        async def run(db: Db) -> tuple[Table, TableSettings]:
            table = await _update_table(db, table_id, seats, options)
            await write_settings(db, table_id, values)
            out = await read_settings(db, table_id)
            if remember:
                await _remember_room(db, table, out)
            return table, out

        return await self._write(run)

    async def update_table(
        self,
        table_id: int,
        *,
        seats: Sequence[int | None] | None = None,
        options: Mapping[str, Any] | None = None,
    ) -> Table:
        """Change who sits where, or the room options, between hands. A hand in progress keeps the seats
        and options it started with (they are copied into the hand)."""

        async def run(db: Db) -> Table:
            return await _update_table(db, table_id, seats, options)

        return await self._write(run)

    async def close_table(self, table_id: int, note: str = "table closed") -> Table:
        """End a table: its unfinished hand (if any) is abandoned without scores. Kept for history."""
        now = self._now()

        async def run(db: Db) -> Table:
            await read_table(db, table_id)
            await db.execute(
                "UPDATE hands SET result = ?, ended_at = ? WHERE table_id = ? AND ended_at IS NULL",
                (dumps({"reason": "abandoned", "note": note}), now, table_id),
            )
            rows = await db.execute_fetchall(
                f"UPDATE tables SET status = 'closed' WHERE id = ? RETURNING {TABLE_COLS}", (table_id,)
            )
            return table_from(list(rows)[0])

        return await self._write(run)

    async def get_table(self, table_id: int) -> Table:
        async def run(db: Db) -> Table:
            return await read_table(db, table_id)

        return await self._single(run)

    async def open_tables(self, chat_id: int | None = None) -> list[Table]:
        """Open tables, oldest first; in one chat if ``chat_id`` is given."""

        async def run(db: Db) -> list[Table]:
            if chat_id is None:
                rows = await db.execute_fetchall(
                    f"SELECT {TABLE_COLS} FROM tables WHERE status = 'open' ORDER BY id"
                )
            else:
                rows = await db.execute_fetchall(
                    f"SELECT {TABLE_COLS} FROM tables WHERE status = 'open' AND chat_id = ? ORDER BY id",
                    (chat_id,),
                )
            return [table_from(r) for r in rows]

        return await self._single(run)

    async def open_table_ids(self, *, chat_id: int | None = None, user_id: int | None = None) -> list[int]:
        """The ids of the open tables in a group (``chat_id``), or of those a player is seated at
        (``user_id``), in id order: which tables an update concerns (bot/telegram/cluster.py)."""
        if (chat_id is None) == (user_id is None):
            raise InvalidInput("open_table_ids needs a chat_id or a user_id")
        where, value = ("chat_id = ?", chat_id) if chat_id is not None else (self._SEATED, user_id)

        async def run(db: Db) -> list[int]:
            rows = await db.execute_fetchall(
                f"SELECT id FROM tables WHERE status = 'open' AND {where} ORDER BY id", (value,)
            )
            return [int(r[0]) for r in rows]

        return await self._single(run)

    async def set_panel(self, table_id: int, user_id: int, message_id: int) -> None:
        """The message a player's private panel of a table is shown in (edited in place after a restart)."""
        check_int64("user_id", user_id)
        if not isinstance(message_id, int) or message_id <= 0:
            raise InvalidInput(f"not a message id: {message_id!r}")

        async def run(db: Db) -> None:
            await db.execute(
                "INSERT INTO panels (table_id, user_id, message_id) VALUES (?, ?, ?) "
                "ON CONFLICT (table_id, user_id) DO UPDATE SET message_id = excluded.message_id",
                (table_id, user_id, message_id),
            )

        await self._single(run)

    async def set_vote_prompt(self, table_id: int, seat: int, message_id: int) -> None:
        """The message of a seat's private prompt of the stop vote in progress (edited in place after a
        restart, or by another worker; ``update_settings(vote_prompts=())`` forgets them all)."""
        ((seat, message_id),) = _vote_prompts([(seat, message_id)])

        async def run(db: Db) -> None:
            await db.execute(
                "UPDATE table_seats SET vote_prompt = ? WHERE table_id = ? AND seat = ?",
                (message_id, table_id, seat),
            )

        await self._single(run)

    async def last_variant(self, chat_id: int) -> str | None:
        """The variant of the group's most recent table, or None."""

        async def run(db: Db) -> str | None:
            v = await scalar(
                db, "SELECT variant FROM tables WHERE chat_id = ? ORDER BY id DESC LIMIT 1", (chat_id,)
            )
            return str(v) if v is not None else None

        return await self._single(run)

    async def remembered_room(self, chat_id: int, variant: str) -> RoomSettings | None:
        """The group's last room settings for ``variant`` (None: it never changed any)."""

        async def run(db: Db) -> RoomSettings | None:
            rows = list(
                await db.execute_fetchall(
                    "SELECT options, seats, rounds, ready_s, claim_s, discard_s, pause_s, vote_agree, "
                    "ai_level FROM chat_variant_settings WHERE chat_id = ? AND variant = ?",
                    (chat_id, variant),
                )
            )
            if not rows:
                return None
            r = rows[0]
            return RoomSettings(json.loads(r[0]), r[1], r[2], r[3], r[4], r[5], r[6], bool(r[7]), r[8])

        return await self._single(run)
