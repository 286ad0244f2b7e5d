"""Fixtures for every test (the fake Bot API server, the storage backends, a throwaway PostgreSQL server)
and the order in which ``make test`` runs the tests. Helpers live in helper modules (tests/dealing.py,
tests/<variant>_helpers.py, tests/bot_support.py, ...), never here and never in a test module: no test
module imports another (tests/test_suite.py checks it)."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from storage import Storage

from .fake_telegram import FakeTelegramServer
from .pgcluster import Cluster, MissingPostgres

# ---------------------------------------------------------------------- no ERROR logged unnoticed

OUR_LOGGERS = ("bot", "storage", "engine", "tests")


class ErrorRecords(logging.Handler):
    """Collects the ERROR and CRITICAL records our own loggers emit, from any task or thread of the test
    process (the outbox and the timers log a failure with ``log.exception`` and go on)."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.name.split(".")[0] in OUR_LOGGERS:
            self.records.append(record)


@pytest.fixture(autouse=True)
def no_error_logged(request: pytest.FixtureRequest) -> Iterator[ErrorRecords]:
    """Fails a test when our code logged an ERROR during it — its fixtures' teardown included (the bot's
    background tasks stop there) — unless the test expects one: ``@pytest.mark.allow_error_log``. A test that
    marks it can read what was logged from this fixture's ``records``."""
    errors = ErrorRecords()
    root = logging.getLogger()
    root.addHandler(errors)
    try:
        yield errors
    finally:
        root.removeHandler(errors)
    if errors.records and request.node.get_closest_marker("allow_error_log") is None:
        lines = [
            f"  {r.name}: {r.getMessage()}" + (f" ({r.exc_info[1]!r})" if r.exc_info else "")
            for r in errors.records
        ]
        pytest.fail(
            "our code logged an ERROR (mark the test @pytest.mark.allow_error_log if it expects one):\n"
            + "\n".join(lines),
            pytrace=False,
        )


# ---------------------------------------------------------------------- PostgreSQL: a real server per session


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[Cluster]:
    """A throwaway PostgreSQL server for this test session (tests/pgcluster.py). Missing binaries fail the
    tests that need it, loudly, with what to install: never a skip."""
    try:
        cluster = Cluster()
    except MissingPostgres as e:
        pytest.fail(str(e), pytrace=False)
    try:
        cluster.start()
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
async def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Where a test's ``Storage.open`` goes: an SQLite file, or an emptied database at the current schema on
    the session's PostgreSQL server. Storage tests take this instead of a path: each runs on both backends."""
    if request.param == "sqlite":
        return str(tmp_path / "bot.db")
    cluster: Cluster = request.getfixturevalue("pg_cluster")
    return await cluster.clean_database()


@pytest.fixture
async def store(database: str) -> AsyncIterator[Storage]:
    """A ``Storage`` open on each backend (the ``database`` fixture), closed after the test."""
    async with await Storage.open(database) as s:
        yield s


@pytest.fixture
async def tg() -> AsyncIterator[FakeTelegramServer]:
    """The fake Bot API server (tests/fake_telegram.py), started and stopped around a test."""
    async with FakeTelegramServer() as server:
        yield server


# ---------------------------------------------------------------------- the longest tests first, spread out

# Tests that take seconds, with their wall time on an idle 2-core machine under `make test` (measured
# 2026-12-03). `make test` runs pytest-xdist's ``worksteal``: each worker starts on an equal share of the
# list in collection order and a worker with nothing left steals the end of another's share. A long test
# that starts late ends the run late, and two that share a worker run one after the other: so they go to the
# front of the shares, each to the worker with the least of them so far (longest first). Others keep their
# place. Patterns match node ids by prefix; a test missing here only runs in its usual place.
LONG_TESTS = {
    # PostgreSQL faults under three workers: waiting out lock and idle timeouts by design
    "tests/test_cluster_faults.py::test_a_stopped_worker_holds_no_table": 12.0,
    "tests/test_cluster_faults.py::test_updates_refused_when_every_connection_is_taken": 9.0,
    "tests/test_cluster_faults.py::test_a_postgres_restart_mid_game_freezes_no_table": 8.0,
    "tests/test_ai_fast.py::test_discards_match_the_plain_shanten_and_useful[hengyang]": 6.0,
    "tests/test_ai_fast.py::test_discards_match_the_plain_shanten_and_useful[xiangyin]": 5.0,
    # the Mini App's browser hands (headless Chromium): its screen's pace, not the bot's
    "tests/test_miniapp_play.py::test_two_browser_players_play_whole_hands[sichuan-swap]": 12.0,
    "tests/test_miniapp_play.py::test_two_browser_players_play_whole_hands[changsha]": 10.0,
    "tests/test_miniapp_play.py::test_a_restart_mid_hand_resumes_both_pages": 5.0,
    "tests/test_cluster_e2e.py::test_two_workers_twenty_tables_one_killed_mid_hand": 15.0,
    "tests/test_sichuan_playouts.py::test_300_random_hands_keep_every_invariant[xueliu]": 6.8,
    "tests/test_sichuan_playouts.py::test_300_random_hands_keep_every_invariant[xuezhan]": 6.5,
    "tests/test_sichuan_playouts.py::test_300_random_hands_keep_every_invariant[swap]": 6.2,
    "tests/test_shaoyang_playouts.py::test_300_random_hands_keep_every_invariant": 6.2,
    "tests/test_playouts_changsha.py::test_300_random_hands_keep_every_invariant": 5.4,
    "tests/test_hengyang_playouts.py::test_300_random_hands_keep_every_invariant": 4.8,
    "tests/test_bot_fuzz.py::test_forged_and_random_updates_change_nothing": 4.5,
    "tests/test_cluster_e2e.py::test_a_result_a_killed_worker_had_not_sent_is_sent_by_the_next_once": 4.0,
    "tests/test_xiangyin_playouts.py::test_300_random_hands_keep_every_invariant": 3.9,
    "tests/test_hongzhong_playouts.py::test_300_random_hands_keep_every_invariant": 3.6,
    "tests/test_zhuanzhuan_playouts.py::test_300_random_hands_keep_every_invariant": 3.5,
    "tests/test_ai.py::test_ai_legal_never_misses_a_win_200_hands": 3.0,
    "tests/test_sichuan_playouts.py::test_300_random_hands_keep_every_invariant[sanren]": 2.4,
    "tests/test_playouts_changsha.py::test_hidden_tiles_never_reach_another_seat": 2.2,
    "tests/test_hengyang_playouts.py::test_hidden_tiles_never_reach_another_seat": 2.0,
}


def _long_seconds(nodeid: str) -> float | None:
    for prefix, seconds in LONG_TESTS.items():
        if nodeid.startswith(prefix):
            return seconds
    return None


@pytest.hookimpl(trylast=True)  # after `-m 'not soak'` deselected its tests: the shares count what runs
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    workers = int(getattr(config, "workerinput", {}).get("workercount", 1))
    long = [(s, i) for i, item in enumerate(items) if (s := _long_seconds(item.nodeid)) is not None]
    if not long:
        return
    long.sort(key=lambda si: -si[0])
    fronts: list[list[pytest.Item]] = [[] for _ in range(workers)]
    load = [0.0] * workers
    for seconds, i in long:
        w = load.index(min(load))
        fronts[w].append(items[i])
        load[w] += seconds
    taken = {i for _, i in long}
    rest = [item for i, item in enumerate(items) if i not in taken]
    # worksteal's shares: worker k gets len(pending) // (workers - k) of what the earlier ones left
    ordered: list[pytest.Item] = []
    left = len(items)
    for k in range(workers):
        share = left // (workers - k)
        fill = max(0, share - len(fronts[k]))
        ordered += fronts[k] + rest[:fill]
        rest = rest[fill:]
        left -= len(fronts[k]) + fill
    items[:] = ordered + rest
