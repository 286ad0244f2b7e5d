"""Every button kind the bot makes, as plain data: each kind owns its prefix, its fields and how they are
written into and read back from callback data (at most 64 bytes). bot/telegram/handlers.py registers one
handler per kind with ``pattern=kind.PATTERN``; adding a button is one class here and one route there.

A game button names its table, its hand and its decision, so a press can only ever answer the decision it
was made for:

* ``g|<table>|<hand>|<decision>|<i>``  the i-th legal action of the presser's decision (``GamePress``);
  ``<hand>`` is the hand's id (never reused), ``<decision>`` the state version the decision opened at
* ``k|<table>|<hand>|<decision>|<i>``  a choice made by picking tiles (换三张): pick or put back the i-th
  tile of the presser's hand (``PickPress``); the action is then sent by a ``g`` button
* ``L|<table>|<op>[|<a>[|<b>]]``  lobby: join, leave, AI seats, settings, start, ready (``LobbyPress``)
* ``h|<table>``                re-send my hand (``HandPress``); ``b|<table>``: "I'm back" (``BackPress``);
  ``A|<table>``: let the bot play for me (托管, ``AutoPress``)
* ``V|<table>|<vote>|<0/1>``   refuse / agree to stop vote number ``<vote>`` (申请解散, ``VotePress``);
  ``V|<table>|0|1``: ask for a vote (or agree to the one in progress)
* ``S|<period>[|<variant>]``   leaderboard period, and whose variant's ratings (``ScorePress``)
* ``N|<table>``                open a new table with a closed table's settings (``ReopenPress``)
* ``H|<page>``                 a page of the group's hands (``HistoryPress``)
* ``R|<code>|<step>``          a step of a hand's replay (``ReplayPress``; ``<code>`` the hand's public code)
* ``P|<variant>``              the whole rules page of a variant (or ``common``), in private (``RulesPress``)
* ``C|<code>``                 a hand's shuffle check (its commitment; once it ended, seed, salt and the
  bot's check), in private (``VerifyPress``; ``<code>`` the hand's public code)

``decode`` reads any of them: numbers are ASCII digits with a length cap (no ``int("²")``, no Arabic-Indic
digits, no 5,000-digit numbers), words come from fixed sets, and anything else is ``None`` - the handler
answers it as an unknown button and changes nothing.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from typing import Any, ClassVar, Self

from engine import VARIANTS

MAX_DATA = 64
SEP = "|"

# Digits allowed per number: ids stay far below 10**15, versions below 10**6, indexes below 1000.
ID_DIGITS = 15
VERSION_DIGITS = 6
INDEX_DIGITS = 3
STEP_DIGITS = 4
PAGE_DIGITS = 4
MAX_CODE = 32
CODE_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789")
PERIODS = frozenset({"all", "week", "month"})
KNOWN_VARIANTS = frozenset(VARIANTS)
COMMON = "common"  # the rules every variant shares (docs/rules/common.md), a page of its own
RULE_PAGES = KNOWN_VARIANTS | {COMMON}

Codec = Callable[[str], Any]  # the text of one field -> its value, or None when it is not valid


def number(digits: int) -> Codec:
    """A non-negative number in canonical ASCII digits (no sign, no leading zero), at most ``digits`` long."""

    def read(text: str) -> int | None:
        if not 0 < len(text) <= digits or not text.isascii() or not text.isdigit():
            return None
        if len(text) > 1 and text[0] == "0":
            return None
        return int(text)

    return read


def word(words: Collection[str]) -> Codec:
    """One of a fixed set of words."""
    return lambda text: text if text in words else None


def code(text: str) -> str | None:
    """A hand's public code (lower-case letters and digits)."""
    return text if 0 < len(text) <= MAX_CODE and set(text) <= CODE_CHARS else None


ID, VERSION, INDEX = number(ID_DIGITS), number(VERSION_DIGITS), number(INDEX_DIGITS)


def f(codec: Codec, default: Any = dataclasses.MISSING) -> Any:
    """A press field and how it is read from callback data; with a default it may be left off the end."""
    return field(default=default, metadata={"codec": codec})


@dataclass(frozen=True, slots=True)
class Press:
    """A button kind: ``PREFIX`` and its fields, in order. ``data()`` writes the callback data, ``parse``
    reads it back (None for anything this kind did not write); ``valid`` checks what one field cannot."""

    PREFIX: ClassVar[str] = ""
    READS_MESSAGE: ClassVar[bool] = False  # its route reads the pressed message's own buttons

    @classmethod
    def pattern(cls) -> str:
        """The regular expression of this kind's callback data (PTB's ``pattern=``): its prefix."""
        return f"^{re.escape(cls.PREFIX)}({re.escape(SEP)}|$)"

    @classmethod
    def _fields(cls) -> tuple[dataclasses.Field[Any], ...]:
        return tuple(x for x in dataclasses.fields(cls) if "codec" in x.metadata)

    def data(self) -> str:
        parts = [self.PREFIX]
        for x in self._fields():
            value = getattr(self, x.name)
            if value is None:  # an optional field left off (only trailing ones are optional)
                break
            parts.append(str(value))
        out = SEP.join(parts)
        if len(out.encode()) > MAX_DATA:
            raise ValueError(f"callback data too long: {out!r}")
        return out

    @classmethod
    def parse(cls, raw: str) -> Self | None:
        prefix, *rest = raw.split(SEP)
        fields = cls._fields()
        required = sum(1 for x in fields if x.default is dataclasses.MISSING)
        if prefix != cls.PREFIX or not required <= len(rest) <= len(fields):
            return None
        values = {}
        for x, text in zip(fields, rest, strict=False):
            value = x.metadata["codec"](text)
            if value is None:
                return None
            values[x.name] = value
        press = cls(**values)
        return press if press.valid() else None

    def valid(self) -> bool:
        return True


@dataclass(frozen=True, slots=True)
class _DecisionPress(Press):
    """A button of the presser's decision ``decision`` in hand ``hand``, carrying an ``index``."""

    table: int = f(ID)
    hand: int = f(ID)
    decision: int = f(VERSION)
    index: int = f(INDEX)


@dataclass(frozen=True, slots=True)
class GamePress(_DecisionPress):
    """A game button: action ``index`` of the presser's decision ``decision`` in hand ``hand``."""

    PREFIX: ClassVar[str] = "g"


@dataclass(frozen=True, slots=True)
class PickPress(_DecisionPress):
    """A tile of the presser's hand (position ``index`` in hand order) picked or put back, in a decision
    made by picking tiles (``Variant.choice_pick``: 换三张's three tiles)."""

    PREFIX: ClassVar[str] = "k"


# Lobby ops and how many numbers each takes: j join, l leave, a/r add/remove an AI seat, s/b the settings
# opened/closed, go start (or deal the next hand now), y Ready (between hands); m choose a preset (its
# index), o show one setting's choices (the setting's index), v choose a value (setting, choice).
LOBBY_OPS: dict[str, int] = {
    "j": 0, "l": 0, "a": 0, "r": 0, "s": 0, "b": 0, "go": 0, "y": 0, "m": 1, "o": 1, "v": 2,
}  # fmt: skip


@dataclass(frozen=True, slots=True)
class LobbyPress(Press):
    """A lobby button: ``op`` (``LOBBY_OPS``) with the numbers it takes."""

    PREFIX: ClassVar[str] = "L"
    table: int = f(ID)
    op: str = f(word(LOBBY_OPS))
    a: int | None = f(INDEX, None)
    b: int | None = f(INDEX, None)

    def valid(self) -> bool:
        given = (self.a is not None) + (self.b is not None)
        return given == LOBBY_OPS[self.op]


@dataclass(frozen=True, slots=True)
class HandPress(Press):
    """The group's "my hand" button: send my private panel again."""

    PREFIX: ClassVar[str] = "h"
    table: int = f(ID)


@dataclass(frozen=True, slots=True)
class BackPress(Press):
    """ "I'm back": leave auto-play."""

    PREFIX: ClassVar[str] = "b"
    table: int = f(ID)


@dataclass(frozen=True, slots=True)
class AutoPress(Press):
    """托管: the bot plays for me until I press "I'm back"."""

    PREFIX: ClassVar[str] = "A"
    table: int = f(ID)


@dataclass(frozen=True, slots=True)
class VotePress(Press):
    """An answer to the table's stop vote (申请解散) number ``vote``: 1 agree, 0 refuse. ``vote`` 0 (with
    agree 1): ask for a vote, or agree to the one in progress (the 申请解散 button)."""

    PREFIX: ClassVar[str] = "V"
    table: int = f(ID)
    vote: int = f(ID)
    agree: int = f(number(1))

    def valid(self) -> bool:
        return self.agree in (0, 1) and (self.vote > 0 or self.agree == 1)


@dataclass(frozen=True, slots=True)
class ScorePress(Press):
    PREFIX: ClassVar[str] = "S"
    READS_MESSAGE: ClassVar[bool] = True
    period: str = f(word(PERIODS))
    variant: str | None = f(word(KNOWN_VARIANTS), None)  # whose ratings (None: the group's current variant)


@dataclass(frozen=True, slots=True)
class ReopenPress(Press):
    """大结算's "play again": a new table in the group with the closed table's settings."""

    PREFIX: ClassVar[str] = "N"
    READS_MESSAGE: ClassVar[bool] = True
    table: int = f(ID)


@dataclass(frozen=True, slots=True)
class HistoryPress(Press):
    """A page of /history (0: the newest hands)."""

    PREFIX: ClassVar[str] = "H"
    READS_MESSAGE: ClassVar[bool] = True
    page: int = f(number(PAGE_DIGITS))


@dataclass(frozen=True, slots=True)
class ReplayPress(Press):
    """A step of a replay viewer: the hand's public code and the step to show."""

    PREFIX: ClassVar[str] = "R"
    READS_MESSAGE: ClassVar[bool] = True
    code: str = f(code)
    step: int = f(number(STEP_DIGITS))


@dataclass(frozen=True, slots=True)
class RulesPress(Press):
    """The whole rules page of a variant (or the common rules), sent to the presser in private (a group gets
    a summary)."""

    PREFIX: ClassVar[str] = "P"
    variant: str = f(word(RULE_PAGES))


@dataclass(frozen=True, slots=True)
class VerifyPress(Press):
    """A hand's shuffle check, sent to the presser in private (docs/verify.md)."""

    PREFIX: ClassVar[str] = "C"
    code: str = f(code)


KINDS: tuple[type[Press], ...] = (
    GamePress,
    PickPress,
    LobbyPress,
    HandPress,
    BackPress,
    AutoPress,
    VotePress,
    ScorePress,
    ReopenPress,
    HistoryPress,
    ReplayPress,
    RulesPress,
    VerifyPress,
)
_BY_PREFIX = {k.PREFIX: k for k in KINDS}
assert len(_BY_PREFIX) == len(KINDS), "two button kinds share a prefix"


def decode(raw: object) -> Press | None:
    """The typed button behind callback data, or None for anything the bot did not make."""
    if not isinstance(raw, str) or not raw or len(raw) > MAX_DATA or not raw.isascii():
        return None
    kind = _BY_PREFIX.get(raw.split(SEP, 1)[0])
    return kind.parse(raw) if kind is not None else None
