"""A throwaway PostgreSQL server for the tests and the cluster benchmark: ``initdb`` in a temporary
directory, a free loopback port, its unix socket in that directory, fsync off; stopped and removed at the end.

The server binaries come from Debian's ``postgresql`` package (``make test`` installs it when they are
missing). Without them the tests that need a server fail with a message that says what to install: a
missing database server is a broken test machine, not a reason to skip.

Each test gets a database of its own (``Cluster.database()``: a fast copy of an empty template), so tests
never see each other's rows and may run in any order.
"""

from __future__ import annotations

import glob
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

INSTALL_HINT = (
    "PostgreSQL server binaries (initdb, pg_ctl, postgres) were not found on PATH nor in "
    "/usr/lib/postgresql/*/bin: install Debian's `postgresql` package (sudo apt-get install postgresql), "
    "or run `make test`, which installs it"
)
USER = "mahjong"  # the cluster's superuser


class MissingPostgres(RuntimeError):
    pass


def find_bin(name: str) -> str:
    found = shutil.which(name)
    if found:
        return found
    versions = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"), key=lambda p: int(p.split("/")[4]))
    if versions:
        return versions[-1]
    raise MissingPostgres(INSTALL_HINT)


def free_port() -> int:
    """A TCP port free on loopback now (for a server about to bind it)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _run_as() -> tuple[int, int] | None:
    """PostgreSQL refuses to run as root: when we are root, run it as ``postgres`` (or ``nobody``)."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        try:
            pw = pwd.getpwnam(name)
        except KeyError:
            continue
        return pw.pw_uid, pw.pw_gid
    raise MissingPostgres("running as root and no unprivileged user (postgres, nobody) to run PostgreSQL")


class Cluster:
    def __init__(self) -> None:
        self.initdb, self.pg_ctl = find_bin("initdb"), find_bin("pg_ctl")
        self.root = Path(tempfile.mkdtemp(prefix="mjpg-"))
        self.data, self.sock, self.log = self.root / "data", self.root / "sock", self.root / "server.log"
        self.port = 0
        self._as = _run_as()
        self._names = itertools.count(1)
        self._template = False
        self._clean: str | None = None  # the database ``clean_database`` hands out, emptied each time
        self._empty_sql: str | None = None

    def _run(self, *args: str) -> None:
        user = {"user": self._as[0], "group": self._as[1]} if self._as else {}
        done = subprocess.run(args, capture_output=True, text=True, check=False, **user)  # type: ignore[call-overload]
        if done.returncode != 0:
            log = self.log.read_text(errors="replace")[-2000:] if self.log.exists() else ""
            raise RuntimeError(f"{' '.join(args[:2])} failed: {done.stderr.strip()}\n{log}")

    def start(self) -> Cluster:
        self.sock.mkdir()
        if self._as:
            for p in (self.root, self.sock):
                os.chown(p, *self._as)
        self._run(self.initdb, "-D", str(self.data), "-U", USER, "--auth=trust", "-E", "UTF8",
                  "--locale=C", "--no-sync", "--no-instructions")  # fmt: skip
        self.port = free_port()
        opts = (
            f"-c listen_addresses=127.0.0.1 -c port={self.port} -c unix_socket_directories={self.sock} "
            "-c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300 "
            "-c shared_buffers=32MB -c max_locks_per_transaction=256"
        )
        self._run(
            self.pg_ctl, "-D", str(self.data), "-l", str(self.log), "-o", opts, "-w", "-t", "60", "start"
        )
        return self

    def stop(self) -> None:
        try:
            if (self.data / "postmaster.pid").exists():
                self._run(self.pg_ctl, "-D", str(self.data), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{USER}@127.0.0.1:{self.port}/{database}"

    async def database(self) -> str:
        """A new empty database (a copy of an empty template); its URL."""
        import asyncpg

        name = f"t{os.getpid()}_{next(self._names)}"
        conn = await asyncpg.connect(self.url())
        try:
            if not self._template:
                await conn.execute("CREATE DATABASE mj_template")
                self._template = True
            await conn.execute(f"CREATE DATABASE {name} TEMPLATE mj_template STRATEGY FILE_COPY")
        finally:
            await conn.close()
        return self.url(name)

    async def clean_database(self) -> str:
        """A database at the current schema with no rows (cheaper than a new one: the same database is
        emptied for each test of this process); its URL."""
        import asyncpg

        from storage import Storage

        if self._clean is None:
            url = await self.database()
            await (await Storage.open(url)).close()  # migrated once
            self._clean = url
            return url
        conn = await asyncpg.connect(self._clean)
        try:
            if self._empty_sql is None:  # DELETE is quicker than TRUNCATE on a few rows; triggers off
                tables = await conn.fetch(
                    "SELECT quote_ident(tablename) FROM pg_tables WHERE schemaname = current_schema() "
                    "AND tablename <> 'mjdb_schema'"
                )
                seqs = await conn.fetch(
                    "SELECT quote_ident(sequencename) FROM pg_sequences WHERE schemaname = current_schema()"
                )
                statements = [f"DELETE FROM {r[0]};" for r in tables]
                statements += [f"ALTER SEQUENCE {r[0]} RESTART;" for r in seqs]
                self._empty_sql = "SET session_replication_role = replica; " + " ".join(statements)
            await conn.execute(self._empty_sql)
        finally:
            await conn.close()
        return self._clean


# ---------------------------------------------------------------------- raw SQL under either backend (tests)

import sqlite3  # noqa: E402
from typing import Any  # noqa: E402

import asyncpg  # noqa: E402

from storage import Storage  # noqa: E402
from storage.postgres import PgStorage, to_dollar  # noqa: E402

# what a database says when a raw write breaks a constraint, a type or one of the schema's triggers
RAW_REFUSED = (sqlite3.IntegrityError, asyncpg.IntegrityConstraintViolationError, asyncpg.RaiseError,
               asyncpg.DataError)  # fmt: skip


async def raw_sql(store: Storage, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Run one statement on the store's database behind its back (a look under the hood, for tests)."""
    if isinstance(store, PgStorage):
        async with store._acquire() as conn:
            return [tuple(r) for r in await conn.fetch(to_dollar(sql), *params)]
    c = sqlite3.connect(store.path)
    try:
        with c:
            return c.execute(sql, params).fetchall()
    finally:
        c.close()
