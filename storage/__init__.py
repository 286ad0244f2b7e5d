"""SQLite persistence for the bot (aiosqlite). Only this package touches the database.

Entry point: ``storage = await Storage.open(path)``. Every accepted action is logged with the state version
it produced (``log_action``); on start ``restore()`` rebuilds each open table's hand from that log.
"""

from .errors import (
    Conflict,
    CorruptDatabase,
    HandFinished,
    HandInProgress,
    IncompatibleDatabase,
    InvalidInput,
    NotFound,
    OpenError,
    ReadOnlyDatabase,
    ReplayError,
    StorageError,
    TableClosed,
    VersionConflict,
)
from .models import (
    LANGUAGES,
    MAX_PAUSE_S,
    Hand,
    HandReplay,
    HistoryEntry,
    LoggedAction,
    Period,
    Player,
    Restored,
    SeatPlay,
    Standing,
    Table,
    TableSettings,
    TableStatus,
    result_to_json,
)
from .schema import LATEST as SCHEMA_VERSION
from .store import ArchivedHand, Storage, period_bounds, replay_actions

__all__ = [
    "SCHEMA_VERSION",
    "ArchivedHand",
    "Conflict",
    "CorruptDatabase",
    "Hand",
    "HandFinished",
    "HandInProgress",
    "HandReplay",
    "HistoryEntry",
    "LANGUAGES",
    "MAX_PAUSE_S",
    "IncompatibleDatabase",
    "InvalidInput",
    "LoggedAction",
    "NotFound",
    "OpenError",
    "Period",
    "Player",
    "ReadOnlyDatabase",
    "ReplayError",
    "Restored",
    "SeatPlay",
    "Standing",
    "Storage",
    "StorageError",
    "Table",
    "TableClosed",
    "TableSettings",
    "TableStatus",
    "VersionConflict",
    "period_bounds",
    "replay_actions",
    "result_to_json",
]
