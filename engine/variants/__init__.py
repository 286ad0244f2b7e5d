"""The variants, selected by id."""

from __future__ import annotations

from ..errors import InvalidOption
from ..ruleset import Ruleset
from .changsha import CHANGSHA

RULESETS: dict[str, Ruleset] = {r.id: r for r in (CHANGSHA,)}


def get_ruleset(variant_id: str) -> Ruleset:
    try:
        return RULESETS[variant_id]
    except KeyError:
        raise InvalidOption(f"unknown variant {variant_id!r}; known: {', '.join(sorted(RULESETS))}") from None
