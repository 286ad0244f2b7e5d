"""Texts the bot sends, composed from Observations and the renderer (bot/render.py).

The group only ever gets ``public_observation(state)``: every seat's public part as the *other* seats see
it (the engine's own filter), with no hand, no drawn tile and no legal actions. A player's private panel
is made from his own ``observe(state, seat)``. No function here reads a State's hidden fields.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine import Event, EventKind, Observation, Phase, State, Variant, observe_public
from storage import TableSettings

from . import render
from .texts import t

# events not worth a line in the group's "recent" list
QUIET_EVENTS = {
    EventKind.DRAW,
    EventKind.ANSWER,
    EventKind.FURITEN,
    EventKind.SETTLE,
    EventKind.END,
    EventKind.CONTINUE,
}


def public_observation(state: State) -> Observation:
    """What anyone may see of the table (the engine's own public view: no hand, no drawn tile, no actions)."""
    return observe_public(state)


def variant_name(rs: Variant, lang: str) -> str:
    return rs.name_zh if lang == "zh" else rs.name_en


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


def group_table_text(
    obs: Observation,
    lang: str,
    names: Sequence[str],
    table_id: int,
    hand_no: int,
    recent: Sequence[Event],
    auto_names: Sequence[str],
) -> str:
    lines = [t("group.header", lang, tid=table_id, n=hand_no), render.table_view(obs, lang, names)]
    if obs.settlements and obs.phase != Phase.ENDED:
        lines.append(t("note.settlement", lang))
        lines.append(render.settlement_view(obs, obs.settlements[-1], lang, names))
    recent_lines = event_lines(recent, lang, names, obs.variant)[-4:]
    if recent_lines:
        lines.append(t("note.recent", lang) + " " + " · ".join(recent_lines))
    if auto_names:
        lines.append("🤖 " + t("note.auto_seats", lang, names=", ".join(auto_names)))
    return "\n".join(lines)


def panel_text(
    obs: Observation,
    lang: str,
    names: Sequence[str],
    header: str,
    seconds_left: int | None,
    auto: bool,
) -> str:
    lines = [header, render.hand_view(obs, lang, names)]
    if obs.phase == Phase.ENDED:
        lines.append(t("dm.ended", lang))
        if obs.result is not None:
            lines.append(t("dm.result", lang, delta=obs.result.deltas[obs.seat]))
        return "\n".join(lines)
    if obs.kong_tiles:
        lines.append(render.tiles_label(obs.kong_tiles, lang))
    if auto:
        lines.append(t("dm.auto", lang))
        return "\n".join(lines)
    ask = render.prompt(obs, lang, names)
    if ask:
        lines.append("")
        lines.append(ask)
    if obs.legal and seconds_left is not None:
        lines.append(t("dm.time_left", lang, n=max(0, seconds_left)))
    return "\n".join(lines)


def options_line(rs: Variant, options: dict[str, object], lang: str) -> str:
    parts = []
    for spec in rs.option_specs:
        parts.append(f"{spec.label(lang)} {spec.value_label(options.get(spec.name, spec.default), lang)}")
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
) -> str:
    """The lobby: seats, the room (its preset, when the options and ``seats`` match one), options, timers."""
    lines = [t("lobby.title", lang, variant=variant_name(rs, lang), tid=table_id)]
    if next_hand > 1:
        lines.append(t("lobby.hand_no", lang, n=next_hand))
    lines.append(t("lobby.seats", lang))
    lines.extend(f"  {i + 1}. {label}" for i, label in enumerate(seat_labels))
    preset = rs.preset_of(options, seats) if seats is not None else None
    if preset is not None:
        lines.append(t("lobby.preset", lang, label=preset.label(lang)))
    lines.append(options_line(rs, options, lang))
    lines.append(t("lobby.timers", lang, claim=tm.claim_s, discard=tm.discard_s))
    lines.append(t("lobby.hint", lang))
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
                    choices=", ".join(spec.value_label(c, lang) for c in spec.choices),
                    default=spec.value_label(spec.default, lang),
                )
            )
    if rs.presets:
        lines.append(t("rules.presets", lang, names=" · ".join(p.label(lang) for p in rs.presets)))
    if rs.names:
        names = [rs.hand_name(k, lang) for k in rs.names]
        lines.append(t("rules.hands", lang, names=", ".join(names)))
    lines.append(t("rules.doc", lang, id=rs.id))
    return "\n".join(lines)
