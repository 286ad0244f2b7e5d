"""The variants, selected by id. Each module ``engine/variants/<id>.py`` defines ``RULESET``."""

from __future__ import annotations

from importlib import import_module

from ..errors import InvalidOption
from ..ruleset import Ruleset

VARIANT_IDS = ("changsha", "hengyang", "xiangyin", "shaoyang", "sichuan")


def _load() -> dict[str, Ruleset]:
    out: dict[str, Ruleset] = {}
    for vid in VARIANT_IDS:
        try:
            module = import_module(f"{__name__}.{vid}")
        except ModuleNotFoundError as e:
            if e.name != f"{__name__}.{vid}":
                raise
            continue  # not built yet
        ruleset: Ruleset = module.RULESET
        assert ruleset.id == vid, (ruleset.id, vid)
        out[vid] = ruleset
    return out


RULESETS: dict[str, Ruleset] = _load()


def get_ruleset(variant_id: str) -> Ruleset:
    try:
        return RULESETS[variant_id]
    except KeyError:
        raise InvalidOption(f"unknown variant {variant_id!r}; known: {', '.join(sorted(RULESETS))}") from None
