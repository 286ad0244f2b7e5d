"""Texts the bot sends, composed from Observations and the renderer (bot/text/render.py).

The group only ever gets ``public_observation(state)``: every seat's public part as the *other* seats see
it (the engine's own filter), with no hand, no drawn tile and no legal actions. A player's private panel
is made from his own ``observe(state, seat)``. No function here reads a State's hidden fields.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from bot.text import render
from bot.text.fit import MAX_CAPTION
from bot.text.texts import listed, t
from engine import (
    Event,
    EventKind,
    Observation,
    Phase,
    SettleKind,
    State,
    Variant,
    get_variant,
    observe_public,
)
from storage import TableSettings, WinWay

# events not worth a line in the group's "recent" list
QUIET_EVENTS = {
    EventKind.DRAW,
    EventKind.ANSWER,
    EventKind.PASSED_WIN,
    EventKind.SETTLE,
    EventKind.END,
    EventKind.CONTINUE,
}


def public_observation(state: State) -> Observation:
    """What anyone may see of the table (the engine's own public view: no hand, no drawn tile, no actions)."""
    return observe_public(state)


def variant_name(rs: Variant, lang: str) -> str:
    return rs.name_zh if lang == "zh" else rs.name_en


def room_name(rs: Variant, options: Mapping[str, object], seats: int, lang: str) -> str:
    """The variant's name, with its room's when the options are one of its presets: 四川麻将（血流成河）."""
    preset = rs.preset_of(options, seats)
    if preset is None:
        return variant_name(rs, lang)
    label = preset.label(lang)
    return f"{variant_name(rs, lang)}（{label}）" if lang == "zh" else f"{variant_name(rs, lang)} ({label})"


def pad_names(names: Sequence[str]) -> list[str]:
    """render.event_line expects names for four seats."""
    out = list(names)
    while len(out) < 4:
        out.append(f"#{len(out)}")
    return out


def event_lines(events: Iterable[Event], lang: str, names: Sequence[str], variant: str) -> list[str]:
    out = []
    padded = pad_names(names)
    for ev in events:
        if ev.kind in QUIET_EVENTS:
            continue
        line = render.event_line(ev, -1, lang, padded, variant)
        if line:
            out.append(line)
    return out


def replay_lines(events: Iterable[Event], lang: str, names: Sequence[str], variant: str) -> list[str]:
    """A finished hand's events told again (the chat's /replay, the Mini App's): each as its own seat saw
    it, every tile shown (the hand is over), seats by their names; the settlement and the end are the
    result's."""
    out = []
    padded = pad_names(names)
    for ev in events:
        if ev.kind in (EventKind.SETTLE, EventKind.END):
            continue
        viewer = ev.seat if ev.seat is not None else -1
        line = render.event_line(ev, viewer, lang, padded, variant, narrated=True)
        if line:
            out.append(line)
    return out


# ------------------------------------------------------------------ the clock


def until_text(deadline: float, now: float, lang: str) -> str:
    """A deadline as the seconds left when the message is sent (``还剩 42 秒`` / ``42s left``): Telegram does
    not tell a bot its users' time zones, so a wall-clock time would be wrong for many of them. The panel is
    edited again 10 s before the deadline, and whenever the table moves."""
    return t("clock.until", lang, n=max(0, round(deadline - now)))


def clock_text(deadline: float, now: float, limit: int, warned: bool, lang: str) -> str:
    """``⏱ 还剩 42 秒（限时 60 秒）``; after the warning ``⏰ 只剩 10 秒！``."""
    if warned:
        return t("clock.warn", lang, n=max(0, min(WARN_AT, round(deadline - now))))
    return t("clock.limit", lang, n=limit, until=until_text(deadline, now, lang))


WARN_AT = 10  # seconds before a deadline the player's panel warns him (once)


# ------------------------------------------------------------------ captions


def fit(lines: Sequence[tuple[str, int]], limit: int) -> str:
    """Lines (text, priority) joined, within ``limit`` characters: while too long, the lines of the lowest
    priority go first (the last of them first); priority 0 lines always stay, cut with "…" as a last
    resort. Order is kept."""
    kept = [(text, prio) for text, prio in lines if text]
    while len("\n".join(x for x, _ in kept)) > limit:
        droppable = [i for i, (_, prio) in enumerate(kept) if prio > 0]
        if not droppable:
            break
        worst = max(droppable, key=lambda i: (kept[i][1], i))
        del kept[worst]
    text = "\n".join(x for x, _ in kept)
    return text if len(text) <= limit else text[: limit - 1] + "…"


REQUIRED, HIGH, MEDIUM, LOW = 0, 1, 2, 3


# ------------------------------------------------------------------ the group's table message


def recent_text(recent: Sequence[Event], lang: str, names: Sequence[str], variant: str, k: int = 4) -> str:
    lines = event_lines(recent, lang, names, variant)[-k:]
    return t("note.recent", lang, moves=" · ".join(lines)) if lines else ""


def group_table_text(
    obs: Observation,
    lang: str,
    names: Sequence[str],
    table_id: int,
    hand_no: int,
    recent: Sequence[Event],
    auto_names: Sequence[str],
    clock: str = "",
    closed: str = "",
) -> str:
    """The group's table in text mode: the whole public table, who is on the clock, the latest payments,
    the recent moves. A closed table (``closed``: why) says so where the turn line was."""
    table = render.table_view(obs, lang, names).split("\n")
    if closed:
        table[1] = closed  # nobody's move any more
    elif clock:
        table.insert(2, clock)  # under the turn line
    lines = [t("group.header", lang, tid=table_id, n=hand_no), *table]
    if obs.settlements and obs.phase != Phase.ENDED:
        lines.append(t("note.settlement", lang))
        lines.append(render.settlement_view(obs, obs.settlements[-1], lang, names))
    recent_line = recent_text(recent, lang, names, obs.variant)
    if recent_line:
        lines.append(recent_line)
    if auto_names:
        lines.append("🤖 " + t("note.auto_seats", lang, names=listed(auto_names, lang, names=True)))
    return "\n".join(lines)


def group_caption(
    obs: Observation,
    lang: str,
    names: Sequence[str],
    title: str,
    legend: str,
    recent: Sequence[Event],
    auto_names: Sequence[str],
    clock: str = "",
    *,
    turn: bool = True,
) -> str:
    """The caption of the group's table picture (at most 1,024 characters): who sits at which wind, whose
    move it is (``turn``: not on a closed table) and who is on the clock, the latest payments, the recent
    moves."""
    lines = [(title, REQUIRED), (legend, REQUIRED)]
    if turn:
        lines.append((render.turn_line(obs, lang, names), REQUIRED))
    lines.append((clock, REQUIRED))
    if auto_names:
        lines.append(("🤖 " + t("note.auto_seats", lang, names=listed(auto_names, lang, names=True)), HIGH))
    if obs.settlements and obs.phase != Phase.ENDED:
        paid = render.settlement_view(obs, obs.settlements[-1], lang, names)
        lines.append((t("note.settlement", lang) + "\n" + paid, LOW))
    lines.append((recent_text(recent, lang, names, obs.variant), MEDIUM))
    return fit(lines, MAX_CAPTION)


# ------------------------------------------------------------------ a player's private panel


def panel_text(
    obs: Observation,
    lang: str,
    names: Sequence[str],
    header: str,
    clock: str | None,
    auto: bool,
    note: str = "",
    closed: str = "",
) -> str:
    """A player's panel in text mode: his hand, what he needs to decide (the table around him), what he is
    asked, the clock; on a closed table (``closed``: why) that instead of what he was asked."""
    lines = [header, render.hand_view(obs, lang, names)]
    if obs.phase == Phase.ENDED:
        lines.append(t("dm.ended", lang))
        if obs.result is not None:
            lines.append(t("dm.result", lang, delta=obs.result.deltas[obs.seat]))
        return "\n".join([*lines, "", closed] if closed else lines)
    lines.append("")
    lines.extend(render.context_lines(obs, lang, names))
    if note:
        lines.append(note)
    if closed:
        return "\n".join([*lines, "", closed])
    if auto:
        lines.append(t("dm.auto", lang))
        return "\n".join(lines)
    ask = render.prompt(obs, lang, names)
    if ask:
        lines.append("")
        lines.append(ask)
    if obs.legal and clock:
        lines.append(clock)
    return "\n".join(lines)


def panel_caption(
    obs: Observation,
    lang: str,
    names: Sequence[str],
    header: str,
    legend: str,
    clock: str | None,
    auto: bool,
    note: str = "",
    closed: str = "",
) -> str:
    """The caption of a player's hand picture (at most 1,024 characters): the table around him compactly,
    his waits, what he is asked and the clock (on a closed table, ``closed``: why, instead); what does not
    fit goes, least needed first."""
    if obs.phase == Phase.ENDED:
        delta = obs.result.deltas[obs.seat] if obs.result is not None else 0
        ended = [(header, REQUIRED), (t("dm.ended_caption", lang, delta=delta), REQUIRED)]
        return fit([*ended, (closed, REQUIRED)] if closed else ended, MAX_CAPTION)
    lines = [(header, REQUIRED), (legend, LOW)]
    context = render.context_lines(obs, lang, names)
    lines.append((context[0], HIGH))  # whose move, the last discard, the wall
    lines.extend((line, MEDIUM) for line in context[1:])
    me = obs.seats[obs.seat]
    if status := render.seat_status(obs, lang):  # locked, or out after a win: not "kong opened" for both
        lines.append((status, HIGH))
    if obs.passed_win:
        lines.append((t("hand.passed_win", lang), HIGH))
    if not auto and not me.won:
        waits = render.waits_lines(obs, lang)
        lines.extend((w.strip(), HIGH if i == 0 else LOW) for i, w in enumerate(waits))
    lines.append((note, HIGH))
    if closed:
        lines.append((closed, REQUIRED))
    elif auto:
        lines.append((t("dm.auto", lang), REQUIRED))
    else:
        lines.append((render.prompt(obs, lang, names), REQUIRED))
        if obs.legal and clock:
            lines.append((clock, REQUIRED))
    return fit(lines, MAX_CAPTION)


# ------------------------------------------------------------------ the end of a hand


def end_caption(
    obs: Observation,
    lang: str,
    names: Sequence[str],
    title: str,
    legend: str,
    ways: Sequence[WinWay] = (),
    recent: Sequence[Event] = (),
) -> str:
    """The caption of the end-of-hand picture in the group: who won and how (自摸, who dealt in: ``ways``;
    or the draw) and every seat's points; the payments, explained, follow in the result message. The last
    moves (``recent``) come first: moves that ran without anyone deciding (a kong's dice and turned-up tiles,
    an automatic discard, the winning draw) are seen, not jumped over to "hand over"."""
    res = obs.result
    lines = [(title, REQUIRED), (legend, MEDIUM)]
    if recent:
        lines.append((recent_text(recent, lang, names, obs.variant, k=6), MEDIUM))
    if res is not None:
        rs = get_variant(obs.variant)
        if res.reason == "win":
            hands = {w: keys for st in obs.settlements if st.kind == SettleKind.WIN for w, keys in st.hands}
            once = dict.fromkeys(res.winners)  # 血流成河: a seat may win several times
            for w, name in zip(once, render.winner_names(res.winners, names), strict=True):
                won = render.hand_names(rs, hands.get(w, ()), lang)
                how = [x for x in ways if x[0] == w]
                if len(how) == 1:  # several wins of one seat: the result message says each
                    won += render.way_note(how[0], won, names, lang)
                lines.append((t("end.win", lang, name=name, hands=won), REQUIRED))
        else:
            lines.append((t("result.draw", lang), REQUIRED))
        for st in obs.settlements:  # the wall ran out: the check (查叫) explains points nobody won
            if st.kind == SettleKind.DRAW and st.hands:
                what = rs.note_label(st.note, lang) if st.note else t("settle.draw", lang)
                seats = listed(render.draw_statuses(rs, st, names, lang, inline=True), lang)
                lines.append((t("end.check", lang, what=what, seats=seats), HIGH))
        lines.append((t("result.deltas", lang, deltas=render.points_text(res.deltas, names, lang)), REQUIRED))
    return fit(lines, MAX_CAPTION)


def options_line(rs: Variant, options: dict[str, object], lang: str) -> str:
    sep = " " if lang == "zh" else ": "  # 换三张 否 · swap three tiles before the void: no
    parts = []
    for spec in rs.option_specs:
        parts.append(f"{spec.label(lang)}{sep}{spec.value_label(options.get(spec.name, spec.default), lang)}")
    return t("lobby.options", lang, opts=" · ".join(parts)) if parts else t("lobby.no_options", lang)


def lobby_text(
    rs: Variant,
    table_id: int,
    options: dict[str, object],
    tm: TableSettings,
    seat_labels: Sequence[str],
    next_hand: int,
    lang: str,
    seats: int | None = None,
    waiting: Sequence[str] = (),
    *,
    ai_level: str,
) -> str:
    """The lobby: seats, who pressed Join but has no private chat yet (``waiting``: not a seat, so not
    numbered), the room (its preset, when the options and ``seats`` match one), options, timers, and the
    strength (``ai_level``, its label) of the AI players that fill the empty seats."""
    lines = [t("lobby.title", lang, variant=variant_name(rs, lang), tid=table_id)]
    if next_hand > 1:
        lines.append(t("lobby.hand_no", lang, n=next_hand))
    lines.append(t("lobby.seats", lang))
    lines.extend(f"  {i + 1}. {label}" for i, label in enumerate(seat_labels))
    if waiting:
        lines.append(t("lobby.pending", lang, names=("、" if lang == "zh" else ", ").join(waiting)))
    preset = rs.preset_of(options, seats) if seats is not None else None
    if preset is not None:
        lines.append(t("lobby.preset", lang, label=preset.label(lang)))
    lines.append(options_line(rs, options, lang))
    lines.append(t("lobby.timers", lang, claim=tm.claim_s, discard=tm.discard_s))
    lines.append(t("lobby.hint", lang, level=ai_level))
    return "\n".join(lines)


def rules_text(rs: Variant, lang: str) -> str:
    lines = [
        t("rules.title", lang, name=variant_name(rs, lang), id=rs.id),
        t("rules.players", lang, n="/".join(str(n) for n in rs.seat_counts)),
    ]
    if rs.option_specs:
        lines.append(t("rules.options", lang))
        for spec in rs.option_specs:
            lines.append(
                t(
                    "rules.option",
                    lang,
                    label=spec.label(lang),
                    choices=listed((spec.value_label(c, lang) for c in spec.choices), lang, names=True),
                    default=spec.value_label(spec.default, lang),
                )
            )
    if rs.presets:
        lines.append(t("rules.presets", lang, names=" · ".join(p.label(lang) for p in rs.presets)))
    if rs.names:
        names = [rs.hand_name(k, lang) for k in rs.names]
        lines.append(t("rules.hands", lang, names=listed(names, lang, names=True)))
    return "\n".join(lines)
