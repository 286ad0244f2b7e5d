"""The variants, selected by id. Each module ``engine/variants/<id>.py`` defines ``RULESET``, an instance of
its subclass of :class:`engine.variant.Variant`."""

from __future__ import annotations

from importlib import import_module

from ..errors import InvalidOption
from ..variant import Variant

VARIANT_IDS = ("changsha", "hengyang", "xiangyin", "shaoyang", "sichuan", "zhuanzhuan", "hongzhong")


DEFAULT_VARIANT = VARIANT_IDS[0]  # what a front end offers when none is named


def _load() -> dict[str, Variant]:
    out: dict[str, Variant] = {}
    for vid in VARIANT_IDS:
        try:
            module = import_module(f"{__name__}.{vid}")
        except ModuleNotFoundError as e:
            if e.name != f"{__name__}.{vid}":
                raise
            continue  # not built yet
        ruleset: Variant = module.RULESET
        assert ruleset.id == vid, (ruleset.id, vid)
        out[vid] = ruleset
    return out


RULESETS: dict[str, Variant] = _load()


def get_ruleset(variant_id: str) -> Variant:
    try:
        return RULESETS[variant_id]
    except KeyError:
        raise InvalidOption(f"unknown variant {variant_id!r}; known: {', '.join(sorted(RULESETS))}") from None
