"""Helpers for the Changsha rule-clause tests: the Changsha ruleset, its junk hands and its arranged deal.

The helpers every ruleset shares (actions in tile notation, claims, settlement look-ups) live in dealing.py;
tests import those from there. Seats count in play order: seat + 1 is the 下家 (next seat); the dealer holds
14 tiles."""

from __future__ import annotations

from typing import Any

from engine import State, get_ruleset

from . import dealing
from .dealing import pass_openings

CS = get_ruleset("changsha")

# Junk hands: every suit, a 2/5/8 tile, no pair, no run, no opening hand, not ready. They only pass.
JUNK = ("679m25689s12489p", "2367m12468s1248p", "23679m279s14689p")


def deal(hands: list[str], birds: int = 0, base: int = 10, openings: bool = False, **kw: Any) -> State:
    """An arranged Changsha hand (birds=0, 底分 10 unless told), built by dealing.deal; ``kw``: its draws,
    back, tail, dealer, seed, stacks ({N: tile} puts a tile on top of the N-th stack counted from the back,
    for 开杠 dice) and other room options. Unless ``openings`` is set, every opening hand (起手小胡) is
    passed, so the hand is at the dealer's first discard."""
    state = dealing.deal(CS, hands, birds=birds, base=base, **kw)
    return state if openings else pass_openings(state)


def win_names(
    hand: str, tile: str, self_draw: bool = True, seat: int = 1, dealer: int = 0, **flags: Any
) -> list[str] | None:
    """Changsha's verdict on a complete hand: sorted hand names (a big hand repeated by its count), or None if
    it does not win. ``hand`` is the whole hand with melds in brackets; its concealed part already holds the
    winning ``tile``."""
    return dealing.win_names(CS, hand, tile, self_draw=self_draw, seat=seat, dealer=dealer, **flags)


# ---------------------------------------------------------------------- PostgreSQL: a real server per session

from collections.abc import AsyncIterator, Iterator  # noqa: E402
from pathlib import Path  # noqa: E402

import pytest  # noqa: E402

from .fake_telegram import FakeTelegramServer  # noqa: E402
from .pgcluster import Cluster, MissingPostgres  # noqa: E402


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
async def tg() -> AsyncIterator[FakeTelegramServer]:
    """The fake Bot API server (tests/fake_telegram.py), started and stopped around a test."""
    async with FakeTelegramServer() as server:
        yield server
