"""The tests' throwaway PostgreSQL server (tests/pgcluster.py) never outlives the process that started it,
even one killed with ``kill -9``: its watchdog stops it at once, and were the watchdog gone too, the next
cluster started on the machine sweeps it away."""

from __future__ import annotations

import os
import select
import subprocess
import sys
from pathlib import Path

from .pgcluster import Cluster, sweep

ROOT = Path(__file__).resolve().parent.parent

# Starts two clusters, one without its watchdog, says where they are, and waits to be killed
OWNER = """
import sys
from tests.pgcluster import Cluster
watched, unwatched = Cluster().start(), Cluster(watchdog=False).start()
print(watched.root, watched.server_pid, watched._watchdog.pid, unwatched.root, unwatched.server_pid)
sys.stdout.flush()
sys.stdin.read()
"""


def ended(pid: int, timeout: float = 60.0) -> bool:
    """Wait until process ``pid`` has ended (it need not be our child: a pidfd), at most ``timeout``."""
    try:
        fd = os.pidfd_open(pid)
    except ProcessLookupError:
        return True
    try:
        return bool(select.select([fd], [], [], timeout)[0])
    finally:
        os.close(fd)


def test_a_server_dies_with_its_owner_even_on_kill_9(pg_cluster: Cluster) -> None:
    with subprocess.Popen(
        [sys.executable, "-c", OWNER], cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    ) as owner:  # its pipes are closed on the way out
        try:
            assert owner.stdout is not None
            said = owner.stdout.readline().split()
        finally:
            owner.kill()  # SIGKILL: no finaliser, no atexit
            owner.wait()
    assert len(said) == 5, f"the owner did not start its clusters (exit {owner.returncode})"
    watched, unwatched = Path(said[0]), Path(said[3])
    server, watchdog, orphan = int(said[1]), int(said[2]), int(said[4])

    assert ended(watchdog)  # it saw its owner die; it ends only once the server it stopped has ended
    assert ended(server, timeout=0)
    assert not watched.exists()

    assert unwatched.exists() and not ended(orphan, timeout=0)  # no watchdog: the server runs on ...
    sweep()  # ... until the next cluster's sweep (as Cluster() does first) finds its owner gone
    assert ended(orphan) and not unwatched.exists()
    assert pg_cluster.root.exists() and not ended(pg_cluster.server_pid, timeout=0)  # a live owner's: kept
