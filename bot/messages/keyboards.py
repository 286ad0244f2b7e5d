"""Inline keyboards as plain data, and the callback data they carry: one encoder and one typed decoder.

Callback data (at most 64 bytes) always names the table; a game button also names its hand and its decision,
so a press can only ever answer the decision it was made for:

* ``g|<table>|<hand>|<decision>|<i>``  the i-th legal action of the presser's decision (``GamePress``);
  ``<hand>`` is the hand's id (never reused), ``<decision>`` the state version the decision opened at
* ``k|<table>|<hand>|<decision>|<i>``  a choice made by picking tiles (换三张): pick or put back the i-th
  tile of the presser's hand (``PickPress``); the action is then sent by a ``g`` button
* ``L|<table>|<op>[|<arg>]``  lobby: join, leave, AI seats, settings, start (``LobbyPress``)
* ``h|<table>``                re-send my hand (``HandPress``); ``b|<table>``: "I'm back" (``BackPress``)
* ``S|<period>[|<variant>]``   leaderboard period, and whose variant's ratings (``ScorePress``)
* ``N|<table>``                open a new table with a closed table's settings (``ReopenPress``)
* ``H|<page>``                 a page of the group's hands (``HistoryPress``)
* ``R|<code>|<step>``          a step of a hand's replay (``ReplayPress``; ``<code>`` the hand's public code)

``decode`` is the only reader: numbers are ASCII digits with a length cap (no ``int("²")``, no Arabic-Indic
digits, no 5,000-digit numbers), ops and periods come from fixed sets, and anything else is ``None`` - the
handler answers it as an unknown button and changes nothing.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import ClassVar

from bot.messages.content import Button, Keyboard
from bot.text import render
from bot.text.texts import t
from engine import VARIANTS, Act, Action, Observation
from engine.variant import Variant
from storage import TableSettings

MAX_DATA = 64


# ------------------------------------------------------------------ callback data: the button kinds


@dataclass(frozen=True, slots=True)
class _DecisionButton:
    """A button of the presser's decision ``decision`` in hand ``hand``, carrying an ``index``."""

    KIND: ClassVar[str] = ""
    table: int
    hand: int
    decision: int
    index: int

    def data(self) -> str:
        return data(self.KIND, self.table, self.hand, self.decision, self.index)


@dataclass(frozen=True, slots=True)
class GamePress(_DecisionButton):
    """A game button: action ``index`` of the presser's decision ``decision`` in hand ``hand``."""

    KIND: ClassVar[str] = "g"


@dataclass(frozen=True, slots=True)
class LobbyPress:
    """A lobby button; ``arg`` only for ``o`` and ``m`` (the index of a room option, of a preset)."""

    table: int
    op: str
    arg: int | None = None

    def data(self) -> str:
        if self.arg is None:
            return data("L", self.table, self.op)
        return data("L", self.table, self.op, self.arg)


@dataclass(frozen=True, slots=True)
class HandPress:
    """The group's "my hand" button: send my private panel again."""

    table: int

    def data(self) -> str:
        return data("h", self.table)


@dataclass(frozen=True, slots=True)
class BackPress:
    """ "I'm back": leave auto-play."""

    table: int

    def data(self) -> str:
        return data("b", self.table)


@dataclass(frozen=True, slots=True)
class ScorePress:
    period: str
    variant: str | None = None  # whose ratings the board shows (None: the group's current variant)

    def data(self) -> str:
        return data("S", self.period) if self.variant is None else data("S", self.period, self.variant)


@dataclass(frozen=True, slots=True)
class PickPress(_DecisionButton):
    """A tile of the presser's hand (position ``index`` in hand order) picked or put back, in a decision
    made by picking tiles (``Variant.choice_pick``: 换三张's three tiles)."""

    KIND: ClassVar[str] = "k"


@dataclass(frozen=True, slots=True)
class ReopenPress:
    """大结算's "play again": a new table in the group with the closed table's settings."""

    table: int

    def data(self) -> str:
        return data("N", self.table)


@dataclass(frozen=True, slots=True)
class HistoryPress:
    """A page of /history (0: the newest hands)."""

    page: int

    def data(self) -> str:
        return data("H", self.page)


@dataclass(frozen=True, slots=True)
class ReplayPress:
    """A step of a replay viewer: the hand's public code and the step to show."""

    code: str
    step: int

    def data(self) -> str:
        return data("R", self.code, self.step)


Press = (
    GamePress
    | PickPress
    | LobbyPress
    | HandPress
    | BackPress
    | ScorePress
    | ReopenPress
    | HistoryPress
    | ReplayPress
)

# Lobby ops: j join, l leave, a/r add/remove an AI seat, s/b settings on/off, o cycle a room option,
# m choose a preset (several options at once), c/d claim/discard timer, p claim pause, n player count,
# t language, go start the hand; R 局数 (hands in the room), Y the ready timer, y Ready (between hands).
LOBBY_OPS = frozenset({"j", "l", "a", "r", "s", "b", "o", "m", "c", "d", "p", "n", "t", "go", "R", "Y", "y"})
KNOWN_VARIANTS = frozenset(VARIANTS)
CODE_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789")
MAX_CODE = 32
STEP_DIGITS = 4
PAGE_DIGITS = 4
PERIODS = frozenset({"all", "week", "month"})
# Digits allowed per number: ids stay far below 10**15, versions below 10**6, indexes below 1000.
ID_DIGITS = 15
VERSION_DIGITS = 6
INDEX_DIGITS = 3


def data(*parts: object) -> str:
    out = "|".join(str(p) for p in parts)
    if len(out.encode()) > MAX_DATA:
        raise ValueError(f"callback data too long: {out!r}")
    return out


def _number(text: str, digits: int) -> int | None:
    """A non-negative number in canonical ASCII digits (no sign, no leading zero), at most ``digits`` long."""
    if not 0 < len(text) <= digits or not text.isascii() or not text.isdigit():
        return None
    if len(text) > 1 and text[0] == "0":
        return None
    return int(text)


def decode(raw: object) -> Press | None:
    """The typed button behind callback data, or None for anything the bot did not make."""
    if not isinstance(raw, str) or not raw or len(raw) > MAX_DATA or not raw.isascii():
        return None
    kind, *rest = raw.split("|")
    if kind in ("g", "k") and len(rest) == 4:
        table, hand = _number(rest[0], ID_DIGITS), _number(rest[1], ID_DIGITS)
        decision, index = _number(rest[2], VERSION_DIGITS), _number(rest[3], INDEX_DIGITS)
        if table is None or hand is None or decision is None or index is None:
            return None
        return (GamePress if kind == "g" else PickPress)(table, hand, decision, index)
    if kind == "L" and len(rest) in (2, 3):
        table = _number(rest[0], ID_DIGITS)
        op = rest[1]
        if table is None or op not in LOBBY_OPS:
            return None
        if op in ("o", "m"):
            arg = _number(rest[2], INDEX_DIGITS) if len(rest) == 3 else None
            return LobbyPress(table, op, arg) if arg is not None else None
        return LobbyPress(table, op) if len(rest) == 2 else None
    if kind in ("h", "b") and len(rest) == 1:
        table = _number(rest[0], ID_DIGITS)
        if table is None:
            return None
        return HandPress(table) if kind == "h" else BackPress(table)
    if kind == "S" and len(rest) in (1, 2) and rest[0] in PERIODS:
        if len(rest) == 2:
            return ScorePress(rest[0], rest[1]) if rest[1] in KNOWN_VARIANTS else None
        return ScorePress(rest[0])
    if kind == "N" and len(rest) == 1:
        table = _number(rest[0], ID_DIGITS)
        return ReopenPress(table) if table is not None else None
    if kind == "H" and len(rest) == 1:
        page = _number(rest[0], PAGE_DIGITS)
        return HistoryPress(page) if page is not None else None
    if kind == "R" and len(rest) == 2:
        code, step = rest[0], _number(rest[1], STEP_DIGITS)
        if step is None or not 0 < len(code) <= MAX_CODE or not set(code) <= CODE_CHARS:
            return None
        return ReplayPress(code, step)
    return None


def _rows(buttons: Sequence[Button], per_row: int) -> list[tuple[Button, ...]]:
    return [tuple(buttons[i : i + per_row]) for i in range(0, len(buttons), per_row)]


# ------------------------------------------------------------------ the private hand


def game_keyboard(
    obs: Observation,
    legal: Sequence[Action],
    table_id: int,
    hand_id: int,
    since: int,
    lang: str,
    picked: Collection[int] = (),
) -> Keyboard:
    """One button per legal action of this decision: win / kongs / claims / pass first, then one button per
    distinct tile to discard, in hand order (by suit). ``legal`` is the decision's action list; button i
    carries its index there, the hand and ``since``, the version the decision started at. A choice made by
    picking tiles gets ``pick_keyboard`` instead (``picked``: the hand positions picked so far)."""
    if render.tile_pick(obs) is not None:
        return pick_keyboard(obs, legal, table_id, hand_id, since, lang, picked)
    special: list[Button] = []
    discards: list[Button] = []
    for a, label in render.choices(obs, lang):
        if a not in legal:
            continue
        d = GamePress(table_id, hand_id, since, legal.index(a)).data()
        if a.act == Act.DISCARD and a.tile is not None:
            name = render.tile_label(a.tile, lang)
            if obs.drawn is not None and a.tile == obs.drawn:
                name = f"{name} ⬅"
            discards.append(Button(name, d))
        else:
            special.append(Button(label, d))
    per_row = 4 if lang == "zh" else 5
    return tuple(_rows(special, 3) + _rows(discards, per_row))


def pick_keyboard(
    obs: Observation,
    legal: Sequence[Action],
    table_id: int,
    hand_id: int,
    since: int,
    lang: str,
    picked: Collection[int],
) -> Keyboard:
    """Pick k tiles, then confirm (换三张: three of one suit; over a hundred combinations, so not one button
    each): a button per tile of the hand that can still be part of a legal pick (✅ when picked; a press
    picks it or puts it back), the suggestion (the variant's default, offered first), and — once the picked
    tiles are a legal choice — the confirmation."""
    hand = obs.hand
    chosen = [hand[i] for i in sorted(picked) if 0 <= i < len(hand)]
    tiles: list[Button] = []
    for i, tile in enumerate(hand):
        if i in picked or render.pick_extends(obs, [*chosen, tile]):
            label = ("✅" if i in picked else "") + render.tile_label(tile, lang)
            tiles.append(Button(label, PickPress(table_id, hand_id, since, i).data()))
    rows = _rows(tiles, 4 if lang == "zh" else 5)
    choose = [a for a in legal if a.act == Act.CHOOSE]
    done = render.pick_action(obs, chosen)
    if done is not None and done in legal:
        label = t("btn.pick_confirm", lang, label=render.action_label(obs, done, lang))
        rows.append((Button(label, GamePress(table_id, hand_id, since, legal.index(done)).data()),))
    if choose:
        label = t("btn.pick_suggest", lang, label=render.action_label(obs, choose[0], lang))
        rows.append((Button(label, GamePress(table_id, hand_id, since, legal.index(choose[0])).data()),))
    return tuple(rows)


def back_keyboard(table_id: int, lang: str) -> Keyboard:
    return ((Button(t("btn.im_back", lang), BackPress(table_id).data()),),)


# ------------------------------------------------------------------ group messages


def table_keyboard(table_id: int, lang: str, app: str | None = None) -> Keyboard:
    """The group's table message: "my hand"; with the Mini App on, a direct link that opens the table in it
    (a ``web_app`` button is refused outside private chats)."""
    mine = Button(t("btn.my_hand", lang), HandPress(table_id).data())
    if app is None:
        return ((mine,),)
    return ((mine, Button(t("btn.open_app", lang), url=app)),)


def app_keyboard(url: str, lang: str) -> Keyboard:
    """A private chat's button that opens the table in the Mini App."""
    return ((app_button(url, lang),),)


def app_button(url: str, lang: str) -> Button:
    return Button(t("btn.open_app", lang), web_app=url)


def lobby_keyboard(table_id: int, lang: str, next_hand: bool) -> Keyboard:
    """Before the first hand: seats, AI seats, settings, start. Between hands (the settings are locked):
    Ready, seats, and the host's "next hand now"."""

    def b(key: str, op: str) -> Button:
        return Button(t(key, lang), LobbyPress(table_id, op).data())

    if next_hand:
        return (
            (b("btn.ready", "y"),),
            (b("btn.join", "j"), b("btn.leave", "l")),
            (b("btn.next", "go"),),
        )
    return (
        (b("btn.join", "j"), b("btn.leave", "l")),
        (b("btn.add_ai", "a"), b("btn.remove_ai", "r")),
        (b("btn.settings", "s"), b("btn.start", "go")),
    )


def settings_keyboard(
    table_id: int, rs: Variant, options: dict[str, object], tm: TableSettings, n: int
) -> Keyboard:
    lang = tm.lang

    def b(label: str, op: str, arg: int | None = None) -> Button:
        return Button(label, LobbyPress(table_id, op, arg).data())

    rows: list[tuple[Button, ...]] = []
    current = rs.preset_of(options, n)
    presets = [
        b(("✓ " if p == current else "") + t("btn.preset", lang, label=p.label(lang)), "m", i)
        for i, p in enumerate(rs.presets)
    ]
    rows.extend(_rows(presets, 2))
    for i, spec in enumerate(rs.option_specs):
        label = spec.label_zh if lang == "zh" else spec.label_en
        value = spec.value_label(options.get(spec.name, spec.default), lang)
        rows.append((b(f"{label}: {value}", "o", i),))
    rows.append(
        (
            b(t("btn.claim_s", lang, n=tm.claim_s), "c"),
            b(t("btn.discard_s", lang, n=tm.discard_s), "d"),
        )
    )
    rows.append((b(t("btn.pause_s", lang, n=tm.pause_s), "p"),))
    rounds = t("btn.rounds", lang, n=tm.rounds) if tm.rounds else t("btn.rounds.open", lang)
    rows.append((b(rounds, "R"), b(t("btn.ready_s", lang, n=tm.ready_s), "Y")))
    extra = [b(t("btn.lang", lang), "t")]
    if len(rs.seat_counts) > 1:
        extra.insert(0, b(t("btn.seats", lang, n=n), "n"))
    rows.append(tuple(extra))
    rows.append((b(t("btn.back", lang), "b"),))
    return tuple(rows)


def deep_link_keyboard(url: str, lang: str) -> Keyboard:
    return ((Button(t("btn.open_dm", lang), url=url),),)


def score_keyboard(lang: str, variant: str | None = None) -> Keyboard:
    return (
        (
            Button(t("btn.all", lang), ScorePress("all", variant).data()),
            Button(t("btn.week", lang), ScorePress("week", variant).data()),
            Button(t("btn.month", lang), ScorePress("month", variant).data()),
        ),
    )


def reopen_keyboard(table_id: int, lang: str) -> Keyboard:
    return ((Button(t("btn.reopen", lang), ReopenPress(table_id).data()),),)


def history_keyboard(page: int, more: bool, lang: str) -> Keyboard | None:
    row = []
    if page > 0:
        row.append(Button(t("btn.newer", lang), HistoryPress(page - 1).data()))
    if more:
        row.append(Button(t("btn.older", lang), HistoryPress(page + 1).data()))
    return (tuple(row),) if row else None


def replay_keyboard(code: str, step: int, last: int, lang: str) -> Keyboard:
    """⏮ ◀ ▶ ⏭ around ``step`` of ``0..last`` (a button that would not move is left out)."""
    row = []
    if step > 0:
        row.append(Button(t("btn.first", lang), ReplayPress(code, 0).data()))
        row.append(Button(t("btn.prev", lang), ReplayPress(code, step - 1).data()))
    if step < last:
        row.append(Button(t("btn.next_step", lang), ReplayPress(code, step + 1).data()))
        row.append(Button(t("btn.last", lang), ReplayPress(code, last).data()))
    return (tuple(row),) if row else ()
