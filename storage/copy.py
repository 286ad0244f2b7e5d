"""Copy a bot's SQLite database into PostgreSQL: the move to ``MAHJONG_DB=postgresql://…`` without losing a
group's tables, scores, history, ratings or settings (docs/deploy.md, "Moving from SQLite to PostgreSQL").

    python -m storage.copy mahjong.db postgresql://mahjong:PASSWORD@localhost/mahjong [--replace]

* The bot must be stopped: the copy holds the bot's own lock (``<db>.lock``, bot/telegram/app.py) while it
runs, so it refuses while a bot runs on the file, and a bot started meanwhile refuses to start.
* Both databases are brought to the current schema first, by the normal migrations; the source is then read
  in one read transaction (one consistent snapshot) and never written.
* Every table of the schema is copied with every column, as the databases list them (nothing here names a
  table, so the tables of a later schema step copy too). A table or column the file has and PostgreSQL not
  stops the copy before anything is written; one only PostgreSQL has is left empty (or to its default).
* Everything on PostgreSQL is one transaction: the destination must hold no row (``--replace`` deletes what
  it holds, in the same transaction), the rows go in by COPY (parents before children, the schema's
  triggers off: the rows are history, already checked, and running totals are copied, not recounted;
  constraints stay on), the identity sequences are moved past the copied ids, and every table's row count is
  checked against the source's. Any failure rolls all of it back: the destination stays as it was.
"""

from __future__ import annotations

import argparse
import asyncio
import graphlib
import os
import sqlite3
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import asyncpg

from . import pg_schema, schema
from .errors import StorageError
from .lock import AlreadyRunning, DatabaseLock
from .postgres import migrate, redact, schema_version
from .store import Storage, is_postgres_url

BATCH = 5_000  # rows per COPY
APPLICATION_NAME = "mahjong-copy"
BOT_APPLICATION_NAME = "mahjong-bot"  # how the bot's connections' names start (storage/postgres.py)
_PG_ERRORS = (asyncpg.PostgresError, asyncpg.InterfaceError, OSError)


class CopyError(StorageError):
    """The copy was refused or failed; the destination holds what it held before."""


@dataclass(frozen=True)
class CopyReport:
    source: str
    destination: str  # without its password
    version: int  # the schema version of both
    rows: dict[str, int]  # per table, in the order copied; checked on both sides
    sequences: dict[str, int]  # "table.column": the next id PostgreSQL hands out
    replaced: int  # rows the destination held before (--replace)
    seconds: float

    def lines(self) -> list[str]:
        width = max(map(len, self.rows), default=0)
        out = [f"copied {self.source} to {self.destination} (schema version {self.version}):"]
        out += [f"  {table:<{width}} {n:>10,} rows" for table, n in self.rows.items()]
        out.append(f"  {'total':<{width}} {sum(self.rows.values()):>10,} rows in {self.seconds:.1f} s")
        if self.replaced:
            out.append(f"replaced {self.replaced:,} rows the destination held")
        if self.sequences:
            out.append("next ids: " + ", ".join(f"{k} {v}" for k, v in self.sequences.items()))
        out.append("checked: every table has as many rows in PostgreSQL as in the SQLite file")
        return out


def _q(name: str) -> str:
    """An identifier, quoted the same way for both databases."""
    return '"' + name.replace('"', '""') + '"'


@contextmanager
def bot_stopped(db: Path) -> Iterator[None]:
    """Hold the bot's lock on ``<db>.lock`` (storage/lock.py) for the copy: refused while a bot runs on the
    file; a bot that starts meanwhile stops at once. Released by the OS if the copy dies."""
    lock = DatabaseLock(db)
    try:
        lock.acquire()
    except AlreadyRunning as e:
        raise CopyError(
            f"a bot is running on {db} (process {e.holder} holds {lock.path.name}): stop it first, the copy "
            "needs the database at rest"
        ) from None
    try:
        yield
    finally:
        lock.release()


def _sqlite_tables(db: sqlite3.Connection) -> dict[str, list[str]]:
    names = [
        r[0]
        for r in db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'"
        )
    ]
    return {n: [r[1] for r in db.execute(f"PRAGMA table_info({_q(n)})")] for n in names}


async def _pg_tables(conn: asyncpg.Connection) -> dict[str, list[tuple[str, str]]]:
    """Each table's copied columns (name, type), in their order; generated columns are left out."""
    rows = await conn.fetch(
        "SELECT c.table_name, c.column_name, c.data_type FROM information_schema.columns AS c "
        "JOIN information_schema.tables AS t USING (table_schema, table_name) "
        "WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE' AND c.table_name <> $1 "
        "AND c.is_generated = 'NEVER' ORDER BY c.table_name, c.ordinal_position",
        pg_schema.VERSION_TABLE,
    )
    tables: dict[str, list[tuple[str, str]]] = {}
    for table, column, data_type in rows:
        tables.setdefault(table, []).append((column, data_type))
    return tables


def _copied_columns(
    src: dict[str, list[str]], dst: dict[str, list[tuple[str, str]]]
) -> dict[str, list[tuple[str, str]]]:
    """Each PostgreSQL table's columns the file has, to copy (a table or column only PostgreSQL has is left
    empty or to its default). Refused, before anything is written: a table or column only the file has."""
    missing = [f"table {t}" for t in sorted(set(src) - set(dst))]
    for table in sorted(set(src) & set(dst)):
        missing += [f"{table}.{c}" for c in src[table] if c not in {name for name, _ in dst[table]}]
    if missing:
        raise CopyError(
            "PostgreSQL's schema has no place for " + ", ".join(missing) + " at the same version: nothing "
            "was copied (a schema step that differs between storage/schema.py and storage/pg_schema.py)"
        )
    return {t: [(c, ty) for c, ty in columns if c in src.get(t, ())] for t, columns in dst.items()}


async def _copy_order(conn: asyncpg.Connection, tables: list[str]) -> list[str]:
    """Parents before children (foreign keys), else by name."""
    refs = await conn.fetch(
        "SELECT c.relname, p.relname FROM pg_constraint AS k JOIN pg_class AS c ON c.oid = k.conrelid "
        "JOIN pg_class AS p ON p.oid = k.confrelid "
        "WHERE k.contype = 'f' AND k.connamespace = current_schema()::regnamespace"
    )
    parents: dict[str, set[str]] = {t: set() for t in sorted(tables)}
    for child, parent in refs:
        if child in parents and parent in parents and child != parent:
            parents[child].add(parent)
    return list(graphlib.TopologicalSorter(parents).static_order())


def _integer(v: Any) -> Any:
    if isinstance(v, float) and v.is_integer():
        return int(v)
    if isinstance(v, int | str) and not isinstance(v, bool):
        return int(v)
    raise ValueError(f"{v!r} is not an integer")


def _text(v: Any) -> str:
    if isinstance(v, bytes):
        raise ValueError(f"{v!r} is not text")
    return v if isinstance(v, str) else str(v)


# What SQLite hands back (its columns take any value) as the Python type asyncpg's COPY writes for each
# PostgreSQL type; other types pass as read
_CONVERT: dict[str, Callable[[Any], Any]] = {
    "bigint": _integer,
    "integer": _integer,
    "smallint": _integer,
    "double precision": float,
    "real": float,
    "text": _text,
    "character varying": _text,
    "boolean": bool,
}


def _records(
    table: str, columns: list[tuple[str, str]], rows: list[tuple[Any, ...]]
) -> list[tuple[Any, ...]]:
    convert = [_CONVERT.get(t, lambda v: v) for _, t in columns]
    out = []
    for row in rows:
        try:
            out.append(tuple(None if v is None else f(v) for f, v in zip(convert, row, strict=True)))
        except (ValueError, TypeError) as e:
            key = dict(zip((c for c, _ in columns), row, strict=True))
            raise CopyError(f"{table}: a row PostgreSQL cannot take ({e}): {key}") from None
    return out


async def _next_ids(conn: asyncpg.Connection) -> dict[str, int]:
    """Move each identity (or serial) sequence past the largest copied id; the next ids, by column."""
    columns = await conn.fetch(
        "SELECT table_name, column_name, pg_get_serial_sequence(quote_ident(table_name), column_name) "
        "FROM information_schema.columns WHERE table_schema = current_schema() "
        "AND (is_identity = 'YES' OR column_default LIKE 'nextval(%') ORDER BY 1, 2"
    )
    out = {}
    for table, column, sequence in columns:
        if sequence is not None:
            out[f"{table}.{column}"] = await conn.fetchval(
                f"SELECT setval($1::regclass, (SELECT COALESCE(max({_q(column)}), 0) + 1 FROM {_q(table)}), "
                "false)",
                sequence,
            )
    return out


async def _connect(url: str) -> asyncpg.Connection:
    try:
        return await asyncpg.connect(url, server_settings={"application_name": APPLICATION_NAME})
    except (*_PG_ERRORS, ValueError) as e:
        raise CopyError(f"cannot connect to PostgreSQL at {redact(url)}: {e}") from None


async def copy_database(
    source: str | os.PathLike[str],
    destination: str,
    *,
    replace: bool = False,
    progress: Callable[[str], None] = lambda line: None,
) -> CopyReport:
    """Copy the SQLite database ``source`` into the PostgreSQL database ``destination`` (see the module's
    docstring); ``progress`` hears of each step. Raises ``CopyError`` (or the ``OpenError`` of a database
    that cannot be used) with the destination unchanged."""
    if is_postgres_url(str(source)):
        raise CopyError("the source must be the bot's SQLite file, not a PostgreSQL URL")
    if not is_postgres_url(destination):
        raise CopyError(f"the destination must be a postgresql:// URL, not {destination!r}")
    src = Path(source)
    if not src.is_file():
        raise CopyError(f"{src}: no such database file")
    where = redact(destination)
    started = time.monotonic()
    with bot_stopped(src):
        progress(f"bringing {src} and {where} to schema version {schema.LATEST}")
        async with await Storage.open(src):
            pass
        conn = await _connect(destination)
        try:
            try:
                await migrate(conn)
            except _PG_ERRORS as e:
                raise CopyError(f"cannot prepare the database at {where}: {e}") from None
            if await conn.fetchval(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                "AND starts_with(application_name, $1)",
                BOT_APPLICATION_NAME,
            ):
                raise CopyError(f"a bot is connected to {where}: stop it first")
            db = sqlite3.connect(src, isolation_level=None)
            try:
                db.execute("BEGIN")  # one snapshot of the file for the whole copy
                rows, next_ids, replaced = await _copy(db, conn, where, replace, progress)
            finally:
                db.close()
            version = await schema_version(conn)
        finally:
            await conn.close()
    return CopyReport(str(src), where, version, rows, next_ids, replaced, time.monotonic() - started)


async def _copy(
    db: sqlite3.Connection,
    conn: asyncpg.Connection,
    where: str,
    replace: bool,
    progress: Callable[[str], None],
) -> tuple[dict[str, int], dict[str, int], int]:
    (sqlite_version,) = db.execute("PRAGMA user_version").fetchone()
    pg_version = await schema_version(conn)
    if not sqlite_version == pg_version == schema.LATEST:
        raise CopyError(
            f"schema versions differ: SQLite {sqlite_version}, PostgreSQL {pg_version}, this code "
            f"{schema.LATEST}"
        )
    tables = _copied_columns(_sqlite_tables(db), await _pg_tables(conn))
    order = await _copy_order(conn, list(tables))
    rows: dict[str, int] = {}
    try:
        async with conn.transaction():
            await conn.execute("SET LOCAL lock_timeout = '30s'")  # not forever behind another session
            held = {t: await conn.fetchval(f"SELECT count(*) FROM {_q(t)}") for t in order}
            replaced = sum(held.values())
            if replaced and not replace:
                busy = ", ".join(f"{t} ({n})" for t, n in held.items() if n)
                raise CopyError(
                    f"{where} already holds rows ({busy}): copy into an empty database, or pass --replace "
                    "to delete them in the same transaction as the copy"
                )
            if replaced:
                progress(f"deleting the {replaced:,} rows {where} holds")
                await conn.execute(f"TRUNCATE {', '.join(map(_q, order))} RESTART IDENTITY")
            for t in order:
                await conn.execute(f"ALTER TABLE {_q(t)} DISABLE TRIGGER USER")
            for t in order:
                columns = tables[t]
                names = [c for c, _ in columns]
                rows[t] = 0
                if not columns:
                    progress(f"{t}: not in the file, left empty")
                    continue
                cursor = db.execute(f"SELECT {', '.join(map(_q, names))} FROM {_q(t)}")
                while batch := cursor.fetchmany(BATCH):
                    await conn.copy_records_to_table(t, records=_records(t, columns, batch), columns=names)
                    rows[t] += len(batch)
                progress(f"copied {t}: {rows[t]:,} rows")
            for t in order:
                await conn.execute(f"ALTER TABLE {_q(t)} ENABLE TRIGGER USER")
            next_ids = await _next_ids(conn)
            copied = {t: await conn.fetchval(f"SELECT count(*) FROM {_q(t)}") for t in order}
            wrong = [
                f"{t}: {rows[t]} in SQLite, {n} in PostgreSQL" for t, n in copied.items() if n != rows[t]
            ]
            if wrong:
                raise CopyError("row counts differ after the copy: " + "; ".join(wrong))
            for t in order:
                await conn.execute(f"ANALYZE {_q(t)}")
    except _PG_ERRORS as e:
        at = f" (table {next(reversed(rows))})" if rows else ""
        raise CopyError(f"the copy failed{at}, nothing was written to {where}: {e}") from None
    return rows, next_ids, replaced


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m storage.copy",
        description="Copy the bot's SQLite database into PostgreSQL (stop the bot first). "
        "See docs/deploy.md, 'Moving from SQLite to PostgreSQL'.",
    )
    parser.add_argument("source", help="the bot's SQLite file (its MAHJONG_DB until now)")
    parser.add_argument("destination", help="postgresql://user:password@host/database (empty)")
    parser.add_argument(
        "--replace",
        action="store_true",
        help="delete the rows the destination holds, in the same transaction as the copy "
        "(without it, a destination that holds any row is refused)",
    )
    args = parser.parse_args(argv)

    def progress(line: str) -> None:
        print(line, file=sys.stderr, flush=True)

    try:
        report = asyncio.run(
            copy_database(args.source, args.destination, replace=args.replace, progress=progress)
        )
    except StorageError as e:
        print(f"copy refused: {e}", file=sys.stderr)
        return 1
    print("\n".join(report.lines()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
