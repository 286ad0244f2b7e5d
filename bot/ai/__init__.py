"""The AI seats: an Observation in, an Action out, never the State (docs/ai.md).

``choose(obs, rng, level=...)`` plays one of the levels of ``levels.py`` (ids and zh/en labels as data, for
a table setting): ``easy`` is the AI of earlier versions (``baseline.py``: tile efficiency only, kept so
the duel of ``bench/ai_duel.py`` can always be rerun), ``normal`` adds hand values (``value.py``), ``expert``
adds defence (``defence.py``); ``player.py`` decides for both. The default (AI seats, 托管) is the strongest
level as the duel measures it: the expert (docs/ai.md has the figures). Nothing here names a
variant: what differs comes through the variant interface (``engine/variant.py``).
"""

from __future__ import annotations

import random

from engine import Action, Observation

from . import baseline, player
from .baseline import Evaluator
from .levels import BASELINE_LEVEL, DEFAULT_LEVEL, LEVEL_IDS, LEVELS, Level, get_level


def choose(obs: Observation, rng: random.Random, level: str = DEFAULT_LEVEL) -> Action:
    """The action this seat takes at ``level``, from ``obs.legal``; deterministic given ``rng``'s state."""
    lv = get_level(level)
    if lv.id == BASELINE_LEVEL:
        return baseline.choose(obs, rng)
    return player.choose(obs, rng, lv)


__all__ = [
    "BASELINE_LEVEL",
    "DEFAULT_LEVEL",
    "LEVELS",
    "LEVEL_IDS",
    "Evaluator",
    "Level",
    "choose",
    "get_level",
]
