"""A room's settings as one list: the variant's room options (房间选项), the timers, the claim pause, 局数,
the ready timer, what a stop vote's silence counts as (解散投票超时), the AI seats' strength (电脑水平), the
seat count and the language. The
lobby's settings page shows one button per row (its label and current value); pressing it lists the row's
choices, and a choice is one press — nothing is cycled. A row is found again by its index, which is the
same for every table of a variant.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot import ai
from bot.text.texts import t
from engine import Variant
from storage import ROUNDS, TableSettings

CLAIM_CHOICES = (10, 15, 20, 30, 45, 60)  # seconds to answer a claim
DISCARD_CHOICES = (20, 30, 45, 60, 90, 120)  # seconds for a turn
PAUSE_CHOICES = (2, 3, 5, 8)  # the uniform claim pause after every discard (docs/security.md)
READY_CHOICES = (15, 30, 60, 120)  # seconds between hands before the next one starts anyway
LANGS = ("zh", "en")


@dataclass(frozen=True, slots=True)
class Row:
    """One setting: what it is (``kind``: a room ``option``, a ``field`` of ``TableSettings``, the ``seats``
    count or the ``lang``), its name there, its label, its choices with their labels, and its value now."""

    kind: str
    name: str
    label: str
    choices: tuple[Any, ...]
    labels: tuple[str, ...]
    current: Any

    @property
    def value_label(self) -> str:
        return self.labels[self.choices.index(self.current)] if self.current in self.choices else "—"


def _seconds(n: int, lang: str) -> str:
    return t("settings.seconds", lang, n=n)


def _field(name: str, key: str, choices: tuple[int, ...], tm: TableSettings, lang: str) -> Row:
    labels = tuple(_seconds(c, lang) for c in choices)
    return Row("field", name, t(key, lang), choices, labels, getattr(tm, name))


def rows(rs: Variant, options: Mapping[str, Any], tm: TableSettings, seats: int, lang: str) -> list[Row]:
    """Every setting of a room of ``rs`` with these options, settings and seat count, in the page's order."""
    out = [
        Row(
            "option",
            spec.name,
            spec.label(lang),
            spec.choices,
            tuple(spec.value_label(c, lang) for c in spec.choices),
            options.get(spec.name, spec.default),
        )
        for spec in rs.option_specs
    ]
    if len(rs.seat_counts) > 1:
        counts = tuple(sorted(rs.seat_counts))
        labels = tuple(t("settings.players", lang, n=n) for n in counts)
        out.append(Row("seats", "seats", t("settings.seats", lang), counts, labels, seats))
    rounds = tuple(t("settings.hands", lang, n=n) if n else t("settings.hands_open", lang) for n in ROUNDS)
    out += [
        Row("field", "rounds", t("settings.rounds", lang), ROUNDS, rounds, tm.rounds),
        _field("claim_s", "settings.claim_s", CLAIM_CHOICES, tm, lang),
        _field("discard_s", "settings.discard_s", DISCARD_CHOICES, tm, lang),
        _field("pause_s", "settings.pause_s", PAUSE_CHOICES, tm, lang),
        _field("ready_s", "settings.ready_s", READY_CHOICES, tm, lang),
        Row(
            "field",
            "vote_agree",
            t("settings.vote_agree", lang),
            (True, False),
            (t("settings.vote.agree", lang), t("settings.vote.refuse", lang)),
            tm.vote_agree,
        ),
        Row(
            "field",
            "ai_level",
            t("settings.ai_level", lang),
            ai.LEVEL_IDS,
            tuple(ai.get_level(level).label(lang) for level in ai.LEVEL_IDS),
            tm.ai_level or ai.DEFAULT_LEVEL,
        ),
        Row("lang", "lang", t("settings.lang", lang), LANGS, ("中文", "English"), tm.lang),
    ]
    return out


def ai_level_label(tm: TableSettings, lang: str) -> str:
    """The label of the strength the room's AI seats play at (the bot's default until the room chooses)."""
    return ai.get_level(tm.ai_level or ai.DEFAULT_LEVEL).label(lang)


def ai_level_notes(lang: str) -> list[str]:
    """What each strength does, a line each, for the settings page while 电脑水平 is open."""
    return [t("lobby.ai_levels", lang)] + [
        t("lobby.ai_level", lang, label=lv.label(lang), note=lv.note(lang)) for lv in ai.LEVELS
    ]
