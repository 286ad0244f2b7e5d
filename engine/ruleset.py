"""The names callers used before the variant interface: ``Ruleset`` is :class:`engine.variant.Variant`."""

from __future__ import annotations

from .variant import Options, OptionSpec, Variant, WinContext, WinInfo

Ruleset = Variant

__all__ = ["OptionSpec", "Options", "Ruleset", "Variant", "WinContext", "WinInfo"]
