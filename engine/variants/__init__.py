"""The variants, selected by id. Each module ``engine/variants/<id>.py`` defines ``VARIANT``, an instance of
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
        variant: Variant = module.VARIANT
        assert variant.id == vid, (variant.id, vid)
        out[vid] = variant
    return out


VARIANTS: dict[str, Variant] = _load()


def get_variant(variant_id: str) -> Variant:
    try:
        return VARIANTS[variant_id]
    except KeyError:
        raise InvalidOption(f"unknown variant {variant_id!r}; known: {', '.join(sorted(VARIANTS))}") from None
