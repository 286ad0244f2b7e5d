"""Inline keyboards as plain data, and the callback data they carry.

Callback data (at most 64 bytes) always names the table, and for game buttons the state version the
button was made for, so a press can be checked against the table's current state:

* ``g|<table>|<version>|<i>``  the i-th legal action of the presser's decision
* ``L|<table>|<op>[|<arg>]``  lobby: join, leave, AI seats, settings, start
* ``h|<table>``                re-send my hand; ``b|<table>``: "I'm back" (leave auto-play)
* ``S|<period>``               leaderboard period
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from engine import Act, Action, Observation
from engine.ruleset import Ruleset
from storage import TableSettings

from . import render
from .texts import t


@dataclass(frozen=True, slots=True)
class Button:
    label: str
    data: str | None = None
    url: str | None = None


Keyboard = tuple[tuple[Button, ...], ...]

MAX_DATA = 64


def to_markup(kb: Keyboard | None) -> InlineKeyboardMarkup | None:
    if not kb:
        return None
    return InlineKeyboardMarkup(
        [
            [
                InlineKeyboardButton(b.label, url=b.url)
                if b.url is not None
                else InlineKeyboardButton(b.label, callback_data=b.data)
                for b in row
            ]
            for row in kb
        ]
    )


def data(*parts: object) -> str:
    out = "|".join(str(p) for p in parts)
    if len(out.encode()) > MAX_DATA:
        raise ValueError(f"callback data too long: {out!r}")
    return out


def parse(raw: str | None) -> tuple[str, list[str]]:
    """``("g", ["12", "40", "3"])``; ("", []) for anything unreadable."""
    if not raw:
        return "", []
    kind, *rest = raw.split("|")
    return kind, rest


def _rows(buttons: Sequence[Button], per_row: int) -> list[tuple[Button, ...]]:
    return [tuple(buttons[i : i + per_row]) for i in range(0, len(buttons), per_row)]


# ------------------------------------------------------------------ the private hand


def game_keyboard(
    obs: Observation, legal: Sequence[Action], table_id: int, since: int, lang: str
) -> Keyboard:
    """One button per legal action of this decision: win / kongs / claims / pass first, then one button per
    distinct tile to discard, in hand order (by suit). ``legal`` is the decision's action list; button i
    carries its index there and ``since``, the version the decision started at."""
    special: list[Button] = []
    discards: list[Button] = []
    for a, label in render.choices(obs, lang):
        if a not in legal:
            continue
        d = data("g", table_id, since, legal.index(a))
        if a.act == Act.DISCARD and a.tile is not None:
            name = render.tile_label(a.tile, lang)
            if obs.drawn is not None and a.tile == obs.drawn:
                name = f"{name} ⬅"
            discards.append(Button(name, d))
        else:
            special.append(Button(label, d))
    per_row = 4 if lang == "zh" else 5
    return tuple(_rows(special, 3) + _rows(discards, per_row))


def back_keyboard(table_id: int, lang: str) -> Keyboard:
    return ((Button(t("btn.im_back", lang), data("b", table_id)),),)


# ------------------------------------------------------------------ group messages


def table_keyboard(table_id: int, lang: str) -> Keyboard:
    return ((Button(t("btn.my_hand", lang), data("h", table_id)),),)


def lobby_keyboard(table_id: int, lang: str, next_hand: bool) -> Keyboard:
    start = t("btn.next" if next_hand else "btn.start", lang)
    return (
        (
            Button(t("btn.join", lang), data("L", table_id, "j")),
            Button(t("btn.leave", lang), data("L", table_id, "l")),
        ),
        (
            Button(t("btn.add_ai", lang), data("L", table_id, "a")),
            Button(t("btn.remove_ai", lang), data("L", table_id, "r")),
        ),
        (Button(t("btn.settings", lang), data("L", table_id, "s")), Button(start, data("L", table_id, "go"))),
    )


def settings_keyboard(
    table_id: int, rs: Ruleset, options: dict[str, object], tm: TableSettings, n: int
) -> Keyboard:
    lang = tm.lang
    rows: list[tuple[Button, ...]] = []
    for i, spec in enumerate(rs.option_specs):
        label = spec.label_zh if lang == "zh" else spec.label_en
        value = spec.value_label(options.get(spec.name, spec.default), lang)
        rows.append((Button(f"{label}: {value}", data("L", table_id, "o", i)),))
    rows.append(
        (
            Button(t("btn.claim_s", lang, n=tm.claim_s), data("L", table_id, "c")),
            Button(t("btn.discard_s", lang, n=tm.discard_s), data("L", table_id, "d")),
        )
    )
    extra = [Button(t("btn.lang", lang), data("L", table_id, "t"))]
    if len(rs.seat_counts) > 1:
        extra.insert(0, Button(t("btn.seats", lang, n=n), data("L", table_id, "n")))
    rows.append(tuple(extra))
    rows.append((Button(t("btn.back", lang), data("L", table_id, "b")),))
    return tuple(rows)


def deep_link_keyboard(url: str, lang: str) -> Keyboard:
    return ((Button(t("btn.open_dm", lang), url=url),),)


def score_keyboard(lang: str) -> Keyboard:
    return (
        (
            Button(t("btn.all", lang), data("S", "all")),
            Button(t("btn.week", lang), data("S", "week")),
            Button(t("btn.month", lang), data("S", "month")),
        ),
    )
