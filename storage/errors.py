"""Storage exceptions: one base class, each with a plain message a bot can show or log as is.

Callers catch ``StorageError`` for "the database said no"; sqlite3 errors never escape the package, so the
bot does not need to know SQLite to handle them.
"""

from __future__ import annotations


class StorageError(Exception):
    """Base of every error the storage layer raises on purpose."""


class OpenError(StorageError):
    """The database cannot be opened for use (missing directory, locked, not writable, ...)."""


class CorruptDatabase(OpenError):
    """The file is not an SQLite database, or fails its integrity check."""


class ReadOnlyDatabase(OpenError):
    """The file can be read but not written: every accepted action must be written, so we refuse early."""


class IncompatibleDatabase(OpenError):
    """A valid SQLite file this code must not touch: another application's, or a newer schema."""


class InvalidInput(StorageError, ValueError):
    """An argument that cannot be stored as given (unknown variant, bad option, seed out of range, ...)."""


class NotFound(StorageError, LookupError):
    """No table or hand with that id."""


class Conflict(StorageError):
    """The request contradicts what is already stored; nothing was written."""


class VersionConflict(Conflict):
    """An action whose state version is not exactly the logged version + 1 (a gap, or applied twice)."""

    def __init__(self, message: str, hand_id: int, expected: int, got: int) -> None:
        super().__init__(message)
        self.hand_id = hand_id
        self.expected = expected
        self.got = got


class HandFinished(Conflict):
    """The hand has already ended: its log is closed."""


class HandInProgress(Conflict):
    """The table already has an unfinished hand; finish or abandon it first."""


class TableClosed(Conflict):
    """The table is closed: no new hands."""


class ReplayError(StorageError):
    """A stored hand does not replay through the engine (its log, or the engine's rules, changed)."""
