"""Snapshots of the texts every chat reads, per variant: from a fixed seeded hand (the bot's AI in
every seat), mid-hand and at its end — the group's table in text mode and as a picture's caption, a
player's panel in text mode and as his hand picture's caption, and the settlement explained — in Chinese
and English. A change to any of them shows as a diff against ``tests/snapshots/<variant>.txt``.

After a deliberate change, look at the diff, then rewrite the files:
``UPDATE_SNAPSHOTS=1 .venv/bin/python -m pytest tests/test_text_snapshots.py``.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

import engine
from bot import ai, pictures
from bot.text import render, views
from bot.text.texts import t
from engine import Observation, Phase, State, observe

SNAPSHOTS = Path(__file__).parent / "snapshots"
NAMES = ["Lily", "阿华", "Bob", "Dave"]
DEADLINE = 1_750_000_060.0  # a fixed deadline for the clock line
MID = 24  # actions into the hand for the mid-hand texts


def _hand(variant: str) -> tuple[State, State]:
    """(the state ``MID`` actions in, the end of the hand) of a seeded AI hand, played by the baseline level
    (fixed, so the snapshots do not follow the default level)."""
    rs = engine.get_variant(variant)
    state = engine.new_hand(rs, 11)
    rng = random.Random(11)
    mid = None
    n = 0
    while state.phase != Phase.ENDED:
        state, _ = engine.apply(
            state, ai.choose(observe(state, engine.to_act(state)[0]), rng, ai.BASELINE_LEVEL)
        )
        n += 1
        if n == MID:
            mid = state
    assert mid is not None, "the seeded hand ended early: pick another seed"
    return mid, state


def _texts(variant: str) -> str:
    mid, end = _hand(variant)
    out: list[str] = []

    def add(title: str, text: str) -> None:
        out.append(f"=== {title}\n{text}\n")

    for lang in ("zh", "en"):
        names = NAMES[: mid.num_seats]
        public = views.public_observation(mid)
        clock = views.clock_text(DEADLINE, DEADLINE - 42, 60, False, lang)
        legend = pictures.legend(public, names, lang)
        add(
            f"group text, mid-hand ({lang})", views.group_table_text(public, lang, names, 1, 1, [], [], clock)
        )
        add(
            f"group caption, mid-hand ({lang})", views.group_caption(public, lang, names, "T", legend, [], [])
        )
        seat = engine.to_act(mid)[0]
        obs: Observation = observe(mid, seat)
        you = [n + (t("you", lang) if i == seat else "") for i, n in enumerate(names)]
        add(f"panel text, seat {seat} ({lang})", views.panel_text(obs, lang, you, "H", clock, False))
        add(
            f"panel caption, seat {seat} ({lang})",
            views.panel_caption(obs, lang, you, "H", pictures.legend(obs, you, lang), clock, False),
        )
        final = views.public_observation(end)
        add(f"result ({lang})", render.result_view(final, lang, names))
        add(
            f"end caption ({lang})",
            views.end_caption(final, lang, names, "T", pictures.legend(final, names, lang)),
        )
    return "\n".join(out)


@pytest.mark.parametrize("variant", sorted(engine.VARIANTS))
def test_texts_match_their_snapshot(variant: str) -> None:
    path = SNAPSHOTS / f"{variant}.txt"
    text = _texts(variant)
    if os.environ.get("UPDATE_SNAPSHOTS"):
        SNAPSHOTS.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"no snapshot for {variant}: run with UPDATE_SNAPSHOTS=1 once and review it"
    assert text == path.read_text(encoding="utf-8")
