"""The inline keyboards the bot shows, as plain data (``Button`` rows): the private hand, the group's table,
the lobby and its settings, scores, history and replays. Each button carries a press of bot/messages/
presses.py, which owns its callback data."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from bot.messages.content import Button, Keyboard
from bot.messages.presses import (
    AutoPress,
    BackPress,
    GamePress,
    HandPress,
    HistoryPress,
    LobbyPress,
    PickPress,
    ReopenPress,
    ReplayPress,
    RulesPress,
    ScorePress,
    VerifyPress,
    VotePress,
)
from bot.text import render
from bot.text.texts import t
from engine import Act, Action, Observation


def _rows(buttons: Sequence[Button], per_row: int) -> list[tuple[Button, ...]]:
    return [tuple(buttons[i : i + per_row]) for i in range(0, len(buttons), per_row)]


# ------------------------------------------------------------------ the private hand


def panel_keyboard(
    obs: Observation,
    legal: Sequence[Action] | None,
    table_id: int,
    hand_id: int,
    since: int,
    lang: str,
    picked: Collection[int] = (),
) -> Keyboard:
    """A player's panel while he plays: his decision's buttons (``legal``; None: nothing to decide now),
    then 托管."""
    rows = game_keyboard(obs, legal, table_id, hand_id, since, lang, picked) if legal is not None else ()
    return (*rows, (auto_button(table_id, lang),))


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
    return ((back_button(table_id, lang),),)


def back_button(table_id: int, lang: str) -> Button:
    return Button(t("btn.im_back", lang), BackPress(table_id).data())


def auto_button(table_id: int, lang: str) -> Button:
    """托管: the bot plays for me until I press "I'm back" (the panel's last row)."""
    return Button(t("btn.auto", lang), AutoPress(table_id).data())


def result_keyboard(
    table_id: int, lang: str, *, goes_on: bool, host: bool, was_auto: bool, code: str | None
) -> Keyboard | None:
    """A player's private result of a hand: while the room goes on, Ready (which, for a player the bot
    played for, is his way back) and, for the host, Next hand - as in the group's lobby; the shuffle check
    of the hand."""
    rows: list[tuple[Button, ...]] = []
    if goes_on:
        ready = Button(
            t("btn.back_ready" if was_auto else "btn.ready", lang), LobbyPress(table_id, "y").data()
        )
        row = (ready, Button(t("btn.next", lang), LobbyPress(table_id, "go").data())) if host else (ready,)
        rows.append(row)
    if code:
        rows.append((verify_button(code, lang),))
    return tuple(rows) or None


def verify_button(code: str, lang: str, *, sealed: bool = False) -> Button:
    """The shuffle check of hand ``code`` (``sealed``: the hand is being played, so its commitment only)."""
    return Button(t("btn.commitment" if sealed else "btn.verify", lang), VerifyPress(code).data())


# ------------------------------------------------------------------ group messages


def table_keyboard(table_id: int, lang: str, app: str | None = None, *, auto: bool = False) -> Keyboard:
    """The group's table message: "my hand" and 申请解散; "I'm back" while a player is on auto-play (a
    press by anyone else is refused); with the Mini App on, a direct link that opens the table in it (a
    ``web_app`` button is refused outside private chats)."""
    mine = Button(t("btn.my_hand", lang), HandPress(table_id).data())
    row = (mine, Button(t("btn.open_app", lang), url=app)) if app is not None else (mine,)
    second = (back_button(table_id, lang),) if auto else ()
    return (row, (*second, stop_button(table_id, lang)))


def stop_button(table_id: int, lang: str) -> Button:
    """申请解散: ask for a stop vote (or agree to the one in progress)."""
    return Button(t("btn.stop", lang), VotePress(table_id, 0, 1).data())


def vote_keyboard(table_id: int, vote: int, lang: str) -> Keyboard:
    """Agree / refuse to stop vote number ``vote``."""
    return (
        (
            Button(t("btn.vote_yes", lang), VotePress(table_id, vote, 1).data()),
            Button(t("btn.vote_no", lang), VotePress(table_id, vote, 0).data()),
        ),
    )


def rules_keyboard(page: str, lang: str) -> Keyboard:
    """Under /rules' summary in a group: the whole page, sent in private (``page``: a variant or common)."""
    key = "btn.rules_common" if page == "common" else "btn.rules_page"
    return ((Button(t(key, lang), RulesPress(page).data()),),)


def app_keyboard(url: str, lang: str) -> Keyboard:
    """A private chat's button that opens the table in the Mini App."""
    return ((app_button(url, lang),),)


def app_button(url: str, lang: str) -> Button:
    return Button(t("btn.open_app", lang), web_app=url)


def lobby_keyboard(table_id: int, lang: str, next_hand: bool, code: str = "") -> Keyboard:
    """Before the first hand: seats, AI seats, settings, start. Between hands (the settings are locked):
    Ready, seats, the host's "next hand now", 申请解散 and the last hand's shuffle check (``code``)."""

    def b(key: str, op: str) -> Button:
        return Button(t(key, lang), LobbyPress(table_id, op).data())

    if next_hand:
        last = (verify_button(code, lang),) if code else ()
        return (
            (b("btn.ready", "y"),),
            (b("btn.join", "j"), b("btn.leave", "l")),
            (b("btn.next", "go"), stop_button(table_id, lang)),
            *((last,) if last else ()),
        )
    return (
        (b("btn.join", "j"), b("btn.leave", "l")),
        (b("btn.add_ai", "a"), b("btn.remove_ai", "r")),
        (b("btn.settings", "s"), b("btn.start", "go")),
    )


def settings_keyboard(
    table_id: int,
    lang: str,
    presets: Sequence[tuple[str, bool]],
    rows: Sequence[tuple[str, str]],
    open_row: int | None = None,
    choices: Sequence[tuple[str, bool]] = (),
) -> Keyboard:
    """The settings page: the variant's presets (✓ the room's), then a button per setting (``rows``: its
    label and value now), then Back. With ``open_row`` the page lists that setting's ``choices`` instead
    (✓ the current one): one press chooses."""

    def b(label: str, op: str, a: int | None = None, c: int | None = None) -> Button:
        return Button(label, LobbyPress(table_id, op, a, c).data())

    if open_row is not None:
        title = rows[open_row][0]
        options = [
            b(("✓ " if chosen else "") + label, "v", open_row, i) for i, (label, chosen) in enumerate(choices)
        ]
        return (
            (Button(title, LobbyPress(table_id, "o", open_row).data()),),
            *_rows(options, 3),
            (b(t("btn.back", lang), "s"),),
        )
    out = _rows(
        [
            b(("✓ " if current else "") + t("btn.preset", lang, label=label), "m", i)
            for i, (label, current) in enumerate(presets)
        ],
        2,
    )
    out += _rows([b(f"{label}: {value}", "o", i) for i, (label, value) in enumerate(rows)], 2)
    out.append((b(t("btn.back", lang), "b"),))
    return tuple(out)


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
