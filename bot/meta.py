"""Bot-only settings the storage schema has no place for, kept in a small JSON file next to the database.

What lives here is front-end state, never game state: a chat's chosen language, and per table the lobby
data (AI seats, timers, language, the group message to edit, seats on auto-play). The game itself (tables,
seats, hands, the action log, scores) is in ``storage``. Writes replace the file atomically.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

CLAIM_CHOICES = (10, 15, 20, 30, 45, 60)
DISCARD_CHOICES = (20, 30, 45, 60, 90, 120)
DEFAULT_CLAIM = 30
DEFAULT_DISCARD = 60
PAUSE_CHOICES = (2, 3, 5, 8)  # the uniform claim pause after every discard (docs/security.md)
DEFAULT_PAUSE = 3


@dataclass
class TableMeta:
    lang: str = "zh"
    claim_s: int = DEFAULT_CLAIM
    discard_s: int = DEFAULT_DISCARD
    pause_s: int = DEFAULT_PAUSE
    ai: list[int] = field(default_factory=list)  # lobby seats given to an AI player
    auto: list[int] = field(default_factory=list)  # seats on auto-play in the current hand
    group_msg: int | None = None  # the group's table message, edited in place during a hand
    lobby_msg: int | None = None  # the group's lobby message
    settings: bool = False  # the lobby shows the settings keyboard
    creator: int | None = None

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> TableMeta:
        known = {k: v for k, v in d.items() if k in cls.__dataclass_fields__}
        return cls(**known)

    def to_json(self) -> dict[str, Any]:
        out = {f: getattr(self, f) for f in _FIELDS}
        out["ai"] = list(self.ai)
        out["auto"] = list(self.auto)
        return out


_FIELDS = tuple(f.name for f in fields(TableMeta))
SAVE_DELAY = 0.5  # seconds: changes within this window are written together


class Meta:
    """``<db>.bot.json``: {"chats": {chat_id: {"lang": ..}}, "tables": {table_id: TableMeta}}."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.chats: dict[int, dict[str, Any]] = {}
        self.tables: dict[int, TableMeta] = {}
        self._pending: asyncio.TimerHandle | None = None

    @classmethod
    def load(cls, path: str | os.PathLike[str] | None) -> Meta:
        meta = cls(Path(path) if path is not None else None)
        if meta.path is None or not meta.path.exists():
            return meta
        try:
            data = json.loads(meta.path.read_text(encoding="utf-8"))
            meta.chats = {int(k): dict(v) for k, v in data.get("chats", {}).items()}
            meta.tables = {int(k): TableMeta.from_json(v) for k, v in data.get("tables", {}).items()}
        except (OSError, ValueError, TypeError, AttributeError) as e:
            log.warning("ignoring unreadable bot settings file %s: %s", meta.path, e)
        return meta

    def chat_lang(self, chat_id: int) -> str | None:
        lang = self.chats.get(chat_id, {}).get("lang")
        return str(lang) if lang else None

    def set_chat_lang(self, chat_id: int, lang: str) -> None:
        self.chats.setdefault(chat_id, {})["lang"] = lang
        self.save()

    def table(self, table_id: int) -> TableMeta:
        tm = self.tables.get(table_id)
        if tm is None:
            tm = self.tables[table_id] = TableMeta()
        return tm

    def drop_table(self, table_id: int) -> None:
        if self.tables.pop(table_id, None) is not None:
            self.save()

    def save(self) -> None:
        """Write soon: changes made within SAVE_DELAY are written together (``flush`` writes now)."""
        if self.path is None or self._pending is not None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            self.flush()
            return
        self._pending = loop.call_later(SAVE_DELAY, self.flush)

    def flush(self) -> None:
        if self._pending is not None:
            self._pending.cancel()
            self._pending = None
        if self.path is None:
            return
        data = {
            "chats": {str(k): v for k, v in self.chats.items()},
            "tables": {str(k): v.to_json() for k, v in self.tables.items()},
        }
        tmp = self.path.with_name(self.path.name + ".tmp")
        try:
            tmp.write_text(json.dumps(data, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")
            os.replace(tmp, self.path)
        except OSError as e:
            log.warning("could not save bot settings to %s: %s", self.path, e)
