"""A throwaway PostgreSQL server for the tests and the cluster benchmark: a data directory in memory
(``base_dir()``: /dev/shm, else the temp dir), a free loopback port, its unix socket in that directory, fsync
off; stopped and removed at the end.

The server binaries come from Debian's ``postgresql`` package (``make test`` installs it when they are
missing). Without them the tests that need a server fail with a message that says what to install: a
missing database server is a broken test machine, not a reason to skip.

Each test gets a database of its own (``Cluster.database()``: a fast copy of an empty template), so tests
never see each other's rows and may run in any order.

A server never outlives the process that started it, however that process ends (``kill -9`` included):

* a watchdog (a small child process in a session of its own) waits on a pipe that only the owner holds
  open; the kernel closes it when the owner dies, and the watchdog then stops the server and removes its
  directory;
* each cluster directory names its owner (pid and start time, ``owner``); a new ``Cluster`` first stops and
  removes the clusters whose owner is gone (``sweep``), for the case the watchdog itself was killed too.

``initdb`` runs once per machine (and PostgreSQL version): its output is kept beside the clusters
(``mjpg-initdb-*``) and copied for each new one, in a fraction of initdb's time.
"""

from __future__ import annotations

import glob
import hashlib
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import sys
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


PREFIX = "mjpg-"  # a cluster's directory (its data, socket, log and owner file)
INITDB_ARGS = ("-U", USER, "--auth=trust", "-E", "UTF8", "--locale=C", "--no-sync", "--no-instructions")

# The watchdog, run as ``python -I -c WATCHDOG owner pg_ctl data root uid gid``: it waits until its stdin
# (a pipe only the owner holds open) closes or it loses its parent, i.e. the owner has ended, however; then
# it stops the server, if any, waits for its process to end, and removes the cluster. Standard library
# only, so it starts at once.
WATCHDOG = """
import os, select, shutil, subprocess, sys
owner, pg_ctl, data, root, uid, gid = sys.argv[1:]
while os.getppid() == int(owner) and not select.select([0], [], [], 1.0)[0]:
    pass
try:
    with open(os.path.join(data, "postmaster.pid")) as f:
        server = os.pidfd_open(int(f.readline()))
except (OSError, ValueError):
    server = None
if server is not None:
    user = {"user": int(uid), "group": int(gid)} if int(uid) >= 0 else {}
    subprocess.run([pg_ctl, "-D", data, "-m", "immediate", "-w", "stop"], capture_output=True, **user)
    select.select([server], [], [], 60)
shutil.rmtree(root, ignore_errors=True)
"""


SHM_NEEDED = 1 << 30  # the initdb cache, a few clusters and their databases, with room to spare


def base_dir() -> Path:
    """Where clusters live: in memory (/dev/shm) when the machine has it, else the temp dir. Their data is
    thrown away anyway, and on a busy disk a cluster's start (and each CREATE DATABASE) waits for writeback:
    seconds instead of tens of milliseconds."""
    shm = Path("/dev/shm")
    if shm.is_dir() and os.access(shm, os.W_OK | os.X_OK):
        st = os.statvfs(shm)
        if st.f_bavail * st.f_frsize >= SHM_NEEDED:  # a container's /dev/shm is often only 64 MB
            return shm
    return Path(tempfile.gettempdir())


def _started(pid: int) -> str | None:
    """When process ``pid`` started (clock ticks since boot, from /proc), or None if there is no such
    process: with the pid it names one process, even after the pid is reused."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return stat.rsplit(")", 1)[1].split()[19]


def sweep(pg_ctl: str | None = None) -> list[Path]:
    """Stop and remove the clusters (in ``base_dir()``) whose owner process has ended without removing
    them; returns their directories. Clusters of live processes are left alone."""
    pg_ctl = pg_ctl or find_bin("pg_ctl")
    run_as = _run_as()
    user = {"user": run_as[0], "group": run_as[1]} if run_as else {}
    gone = []
    for owner in sorted(base_dir().glob(f"{PREFIX}*/owner")):
        try:
            pid, started = owner.read_text().split()
        except (OSError, ValueError):
            continue
        if _started(int(pid)) == started:
            continue
        root = owner.parent
        if (root / "data" / "postmaster.pid").exists():
            subprocess.run(  # type: ignore[call-overload]
                [pg_ctl, "-D", str(root / "data"), "-m", "immediate", "-w", "stop"],
                capture_output=True, check=False, **user,
            )  # fmt: skip
        shutil.rmtree(root, ignore_errors=True)
        gone.append(root)
    return gone


class Cluster:
    def __init__(self, *, watchdog: bool = True) -> None:
        self.initdb, self.pg_ctl = find_bin("initdb"), find_bin("pg_ctl")
        self._as = _run_as()
        sweep(self.pg_ctl)
        self.root = Path(tempfile.mkdtemp(prefix=PREFIX, dir=base_dir()))
        pid = os.getpid()
        (self.root / "owner").write_text(f"{pid} {_started(pid)}")
        self.data, self.sock, self.log = self.root / "data", self.root / "sock", self.root / "server.log"
        self.port = 0
        self._names = itertools.count(1)
        self._template = False
        self._clean: str | None = None  # the database ``clean_database`` hands out, emptied each time
        self._empty_sql: str | None = None
        self._watchdog: subprocess.Popen[bytes] | None = None
        if watchdog:
            uid, gid = self._as or (-1, -1)
            self._watchdog = subprocess.Popen(
                [sys.executable, "-I", "-c", WATCHDOG, str(pid), self.pg_ctl, str(self.data), str(self.root),
                 str(uid), str(gid)],
                stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                start_new_session=True,  # a Ctrl-C to the owner's process group leaves it to do its job
            )  # fmt: skip

    def _run(self, *args: str) -> None:
        user = {"user": self._as[0], "group": self._as[1]} if self._as else {}
        done = subprocess.run(args, capture_output=True, text=True, check=False, **user)  # type: ignore[call-overload]
        if done.returncode != 0:
            log = self.log.read_text(errors="replace")[-2000:] if self.log.exists() else ""
            raise RuntimeError(f"{' '.join(args[:2])} failed: {done.stderr.strip()}\n{log}")

    def _init_data(self) -> None:
        """The data directory: a copy of this machine's initdb output, made by the first cluster."""
        key = f"{self.initdb} {os.stat(self.initdb).st_mtime_ns} {INITDB_ARGS} {self._as}"
        cache = base_dir() / f"{PREFIX}initdb-{hashlib.sha256(key.encode()).hexdigest()[:16]}"
        if (cache / "PG_VERSION").exists():
            self._run("cp", "-a", str(cache), str(self.data))
            return
        self._run(self.initdb, "-D", str(self.data), *INITDB_ARGS)
        mine = self.root / "initdb"
        self._run("cp", "-a", str(self.data), str(mine))
        try:
            mine.rename(cache)  # atomic: the cache is whole or absent
        except OSError:
            shutil.rmtree(mine, ignore_errors=True)  # another process made it first

    def start(self) -> Cluster:
        self.sock.mkdir()
        if self._as:
            for p in (self.root, self.sock):
                os.chown(p, *self._as)
        self._init_data()
        self.port = free_port()
        opts = (
            f"-c listen_addresses=127.0.0.1 -c port={self.port} -c unix_socket_directories={self.sock} "
            "-c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300 "
            "-c shared_buffers=32MB -c max_locks_per_transaction=256 "
            # a lock waited for over a second is logged with who holds it (a failed fault test prints it)
            "-c log_lock_waits=on -c deadlock_timeout=1s -c log_line_prefix='%m [%p] '"
        )
        self._run(
            self.pg_ctl, "-D", str(self.data), "-l", str(self.log), "-o", opts, "-w", "-t", "60", "start"
        )
        return self

    def restart(self) -> None:
        """``pg_ctl restart`` (fast mode: every session is cut off, then the server comes back on the same
        port, with the same settings)."""
        self._run(
            self.pg_ctl, "-D", str(self.data), "-l", str(self.log), "-m", "fast", "-w", "-t", "60", "restart"
        )

    @property
    def server_pid(self) -> int:
        """The server's (postmaster's) process id."""
        return int((self.data / "postmaster.pid").read_text().split()[0])

    def stop(self) -> None:
        try:
            if (self.data / "postmaster.pid").exists():
                self._run(self.pg_ctl, "-D", str(self.data), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)
            if self._watchdog is not None:  # nothing left for it to do: it ends at once
                watchdog, self._watchdog = self._watchdog, None
                assert watchdog.stdin is not None
                watchdog.stdin.close()
                watchdog.wait(timeout=60)

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
