"""The settings file of bots before schema v4 (``<db>.bot.json``), imported into the database once.

Until v4 a chat's language and each table's lobby settings (timers, AI seats, auto-play seats, the group's
message ids, who opened it) were kept in that file. On the first start with v4 it is read once: every value
that has the right type and range goes into the database (anything else is skipped with a warning, never
stopping the bot), then the file is renamed ``<db>.bot.json.imported`` and never read again. A crash before
the rename imports it again on the next start, which writes the same values.
"""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path
from typing import Any

from storage import LANGUAGES, SeatPlay, Storage, StorageError

log = logging.getLogger(__name__)

SUFFIX = ".bot.json"


def side_file(db_path: str | os.PathLike[str]) -> Path:
    db = Path(db_path)
    return db.with_name(db.name + SUFFIX)


def _int(value: Any, low: int, high: int) -> int | None:
    ok = isinstance(value, int) and not isinstance(value, bool) and low <= value <= high
    return value if ok else None


def _lang(value: Any) -> str | None:
    return value if value in LANGUAGES else None


def _seats(value: Any) -> tuple[int, ...] | None:
    if not isinstance(value, list) or not all(_int(x, 0, 3) is not None for x in value):
        return None
    return tuple(sorted(set(value)))


def table_settings(d: Any) -> tuple[dict[str, Any], tuple[int, ...]]:
    """One table's entry as checked settings (``Storage.update_settings`` fields) and its auto-play seats."""
    if not isinstance(d, dict):
        return {}, ()
    out: dict[str, Any] = {}
    big = 2**63 - 1
    for old, key, value in (
        ("lang", "lang", _lang(d.get("lang"))),
        ("claim_s", "claim_s", _int(d.get("claim_s"), 5, 3600)),
        ("discard_s", "discard_s", _int(d.get("discard_s"), 5, 3600)),
        ("creator", "host", _int(d.get("creator"), 1, big)),
        ("group_msg", "table_msg", _int(d.get("group_msg"), 1, big)),
        ("lobby_msg", "lobby_msg", _int(d.get("lobby_msg"), 1, big)),
        ("ai", "ai", _seats(d.get("ai"))),
        ("settings", "editing", d.get("settings") if isinstance(d.get("settings"), bool) else None),
    ):
        if value is not None:
            out[key] = value
        elif d.get(old) is not None:
            log.warning("bot settings file: ignoring %s = %r", old, d.get(old))
    return out, _seats(d.get("auto")) or ()


async def import_side_file(storage: Storage, path: Path) -> bool:
    """Import ``path`` (if it exists) into ``storage`` and rename it; True if it was imported."""
    if not path.is_file():
        return False
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        log.warning("bot settings file %s is unreadable (%s); set aside without importing it", path, e)
        data = {}
    if not isinstance(data, dict):
        data = {}
    chats = data.get("chats") if isinstance(data.get("chats"), dict) else {}
    tables = data.get("tables") if isinstance(data.get("tables"), dict) else {}
    assert isinstance(chats, dict) and isinstance(tables, dict)
    for key, value in chats.items():
        lang = _lang(value.get("lang")) if isinstance(value, dict) else None
        chat_id = int(key) if str(key).lstrip("-").isdigit() else 0
        if lang is None or chat_id == 0:
            continue
        try:
            if chat_id > 0:
                await storage.set_player_language(chat_id, lang)
            else:
                await storage.set_chat_language(chat_id, lang)
        except StorageError as e:
            log.warning("bot settings file: chat %s not imported: %s", chat_id, e)
    open_ids = {t.id for t in await storage.open_tables()}
    for key, value in tables.items():
        table_id = int(key) if str(key).isdigit() else 0
        if table_id not in open_ids:
            continue  # closed tables need no bot settings
        settings, auto = table_settings(value)
        try:
            await storage.update_settings(table_id, **settings)
            await storage.save_seats(table_id, [SeatPlay(s, auto=True) for s in auto])
        except StorageError as e:
            log.warning("bot settings file: table %s not imported: %s", table_id, e)
    done = path.with_name(path.name + ".imported")
    os.replace(path, done)
    log.info("bot settings imported from %s into the database; the file is now %s", path, done.name)
    return True
