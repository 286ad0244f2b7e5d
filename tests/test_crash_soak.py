"""The crash soak's quick run (bench/crash_soak.py --quick): the bot in its own process, ``kill -9`` ten
times at random moments while two tables play; nothing a player would notice may go wrong. In text mode:
the picture worker's own kill is tests/test_bot_pictures.py's, and the full run (bench) plays in pictures.

A soak (``make soak``): a minute of random kills is the longest test there is, and its outcome depends on
where the kills land (a kill between Telegram taking a new message and its id being stored leaves that
message's buttons live: counted, rare, docs/deploy.md). Restarts mid-hand in ``make test`` are
tests/test_bot_reliability.py's, at chosen moments."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def load_soak():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("crash_soak", ROOT / "bench" / "crash_soak.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("crash_soak", module)  # its dataclasses look themselves up there
    spec.loader.exec_module(module)
    return module


@pytest.mark.soak
async def test_ten_kills_lose_double_or_duplicate_nothing(tmp_path: Path) -> None:
    soak = load_soak()
    figures = soak.run(kills=10, tables=2, seed=7, workdir=tmp_path, display="text")
    figures = await figures
    assert figures["confirmed"] > 0 and figures["finished hands"] > 0, figures
    assert {k: figures[k] for k in soak.MUST_BE_ZERO} == dict.fromkeys(soak.MUST_BE_ZERO, 0), figures
    assert figures["private results sent twice"] <= figures["kills"], figures
