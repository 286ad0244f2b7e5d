"""Text views of a game, for the console and the Telegram bot: pure functions of an Observation.

Nothing here takes a State: what a seat may see is exactly its Observation (plus the language and the
seat names), so another seat's concealed tiles cannot leak into a view. Events are rendered for one
viewer and lose their private tile when they are not the viewer's own.

Nothing here knows a variant: hand names, pre-hand choice labels, option values, bird seats and bird
multipliers all come from the observation's variant (``engine.Variant``) and its settlements.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from engine import (
    Act,
    Action,
    ClaimKind,
    Event,
    EventKind,
    KongMode,
    Observation,
    Phase,
    SettleKind,
    TilePick,
    Variant,
    get_ruleset,
)
from engine.melds import Meld, MeldKind
from engine.state import Settlement
from engine.tiles import format_tiles, parse_tile, parse_tiles, tile_str, tile_zh, to_counts

from .i18n import default_names, tr

# ------------------------------------------------------------------ small pieces


def tile_label(t: int, lang: str = "zh") -> str:
    """``5m 五万`` in Chinese; the notation alone in English."""
    return f"{tile_str(t)} {tile_zh(t)}" if lang == "zh" else tile_str(t)


def tiles_label(tiles: Sequence[int], lang: str = "zh") -> str:
    return " ".join(tile_label(t, lang) for t in sorted(tiles))


def run_label(lo: int) -> str:
    """A chow run: ``3-4-5m``."""
    r = lo % 9 + 1
    return f"{r}-{r + 1}-{r + 2}{tile_str(lo)[-1]}"


def meld_label(m: Meld) -> str:
    return str(m)


def seat_names(names: Sequence[str] | None, n: int, viewer: int, lang: str = "zh") -> list[str]:
    """``names`` if given, else names relative to the viewer: you / next / opposite / previous."""
    if names is not None and len(names) >= n:
        return list(names[:n])
    if n == 4:
        base = default_names(lang, 4)
        return [base[(i - viewer) % n] for i in range(n)]
    return [f"{tr('seat.0', lang)} {i}" if i == viewer else f"#{i}" for i in range(n)]


def _names(names: Sequence[str] | None, obs: Observation, lang: str) -> list[str]:
    return seat_names(names, len(obs.seats), obs.seat, lang)


def _ruleset(obs: Observation) -> Variant:
    return get_ruleset(obs.variant)


def hand_names(rs: Variant, keys: Sequence[str], lang: str = "zh") -> str:
    """Hand ids as names, repeats counted: ``清一色 + 豪华七小对×2``."""
    counts = Counter(keys)
    parts = []
    for key in dict.fromkeys(keys):
        name = rs.hand_name(key, lang)
        parts.append(f"{name}×{counts[key]}" if counts[key] > 1 else name)
    return " + ".join(parts)


def _fmt_deltas(deltas: Sequence[int], names: Sequence[str]) -> str:
    return ", ".join(f"{names[i]} {d:+d}" for i, d in enumerate(deltas))


# ------------------------------------------------------------------ the private hand


def hand_view(obs: Observation, lang: str = "zh", names: Sequence[str] | None = None) -> str:
    """The seat's own hand by suit (the drawn tile apart), its melds, and its waits when ready."""
    nm = _names(names, obs, lang)
    rs = _ruleset(obs)
    hand = list(obs.hand)
    drawn = obs.drawn
    if drawn is not None and drawn in hand:
        hand.remove(drawn)
    lines = [tr("hand.title", lang, name=nm[obs.seat], n=len(obs.hand))]
    by_suit: dict[int, list[int]] = {}
    for t in sorted(hand):
        by_suit.setdefault(t // 9, []).append(t)
    for suit in sorted(by_suit):
        tiles = " | ".join(tile_label(t, lang) for t in by_suit[suit])
        lines.append(f"  {tr(f'suit.{suit}', lang)}: {tiles}")
    if drawn is not None:
        lines.append(f"  {tr('hand.drawn', lang)} → {tile_label(drawn, lang)}")
    me = obs.seats[obs.seat]
    if me.melds:
        lines.append(f"  {tr('hand.melds', lang)}: {' '.join(meld_label(m) for m in me.melds)}")
    if me.locked:
        lines.append("  " + tr("hand.locked.won" if me.wins else "hand.locked", lang))
    if obs.furiten:
        lines.append("  " + tr("hand.furiten", lang))
    if obs.phase != Phase.ENDED:
        lines.extend("  " + x for x in _waits_lines(obs, rs, lang))
    return "\n".join(lines)


def _unseen(obs: Observation) -> list[int]:
    seen = [0] * 34
    for t in obs.hand:
        seen[t] += 1
    for ps in obs.seats:
        for t in ps.discards:
            seen[t] += 1
        for m in ps.melds:
            for t in m.tiles:
                seen[t] += 1
    return [max(0, 4 - n) for n in seen]


def _waits_text(ws: Sequence[int], unseen: Sequence[int], lang: str) -> str:
    return ", ".join(f"{tile_label(t, lang)} ({tr('hand.unseen', lang, n=unseen[t])})" for t in ws)


def _waits_lines(obs: Observation, rs: Variant, lang: str) -> list[str]:
    counts = to_counts(obs.hand)
    me = obs.seats[obs.seat]
    melds = me.melds
    n = len(obs.hand)
    unseen = _unseen(obs)
    if n % 3 == 1:
        ws = rs.waits(counts, melds, obs.options, me.choice)
        return [f"{tr('hand.waits', lang)}: {_waits_text(ws, unseen, lang)}"] if ws else []
    if n % 3 != 2 or obs.seats[obs.seat].locked:
        return []
    out = []
    for t in sorted(set(obs.hand)):
        c = list(counts)
        c[t] -= 1
        ws = rs.waits(tuple(c), melds, obs.options, me.choice)
        if ws:
            out.append(
                "  " + tr("hand.discard_waits", lang, tile=tile_str(t), waits=_waits_text(ws, unseen, lang))
            )
    return [tr("hand.ready_after", lang) + ":", *out] if out else []


# ------------------------------------------------------------------ the public table


def _turn_line(obs: Observation, lang: str, nm: Sequence[str]) -> str:
    phase = obs.phase
    if phase == Phase.ENDED:
        return tr("turn.ended", lang)
    if phase == Phase.CLAIM:
        # Only what everyone sees: the tile and who let it go. Which seats may claim it stays hidden.
        tile = tile_label(obs.claim_tile, lang) if obs.claim_tile is not None else "?"
        who = nm[obs.claim_from] if obs.claim_from is not None else "?"
        if obs.claim_kind == ClaimKind.ROB:
            return tr("turn.claim.rob", lang, name=who, tile=tile)
        if obs.claim_kind == ClaimKind.HAIDI:
            return tr("turn.claim.haidi", lang, tile=tile)
        return tr("turn.claim", lang, name=who, tile=tile)
    if phase == Phase.CHOOSE:  # pre-hand choices (飘 / 加锤 / 定缺 …)
        return tr("turn.choose", lang)
    if phase == Phase.HAIDI:
        if obs.wall_remaining == 0:  # the last tile has been taken: its taker may win on it
            return tr("turn.haidi.taken", lang, name=nm[obs.current])
        return tr("turn.haidi", lang, name=nm[obs.current])
    if phase == Phase.OPENING:
        return tr("turn.opening", lang, name=nm[obs.current])
    return tr("turn.turn", lang, name=nm[obs.current])


def table_view(obs: Observation, lang: str = "zh", names: Sequence[str] | None = None) -> str:
    """The public table: whose turn, each seat's melds, discards and revealed opening tiles, the wall."""
    nm = _names(names, obs, lang)
    rs = _ruleset(obs)
    variant = rs.name_zh if lang == "zh" else rs.name_en
    lines = [
        tr("table.header", lang, variant=variant, dealer=nm[obs.dealer], wall=obs.wall_remaining),
        _turn_line(obs, lang, nm),
    ]
    for ps in obs.seats:
        mark = f"[{tr('dealer', lang)}] " if ps.seat == obs.dealer else ""
        arrow = (
            "▶ " if obs.phase in (Phase.TURN, Phase.HAIDI, Phase.OPENING) and ps.seat == obs.current else "  "
        )
        head = f"{arrow}{mark}{nm[ps.seat]} · {tr('seat.tiles', lang, n=ps.hand_size)}"
        if ps.wins:
            head += f" · {tr('seat.wins', lang, n=ps.wins)}"
        if ps.locked:
            head += f" · {tr('seat.locked.won' if ps.wins else 'seat.locked', lang)}"
        lines.append(head)
        melds = [meld_label(m) for m in ps.melds]
        if ps.concealed_kongs:
            melds.append(tr("seat.concealed_kongs", lang, n=ps.concealed_kongs))
        lines.append(
            f"    {tr('seat.melds', lang)}: {' '.join(melds) if melds else tr('seat.no_melds', lang)}"
        )
        river = " ".join(tile_str(t) for t in ps.discards) if ps.discards else tr("seat.no_discards", lang)
        lines.append(f"    {tr('seat.discards', lang)}: {river}")
        if ps.declared:
            shown = format_tiles(ps.revealed) if ps.revealed else ""
            lines.append(
                f"    {tr('seat.declared', lang)}: {hand_names(rs, ps.declared, lang)}"
                + (f" · {tr('seat.shown', lang)} {shown}" if shown else "")
            )
        if ps.hand is not None:
            lines.append(f"    {tr('seat.hand', lang)}: {format_tiles(ps.hand)}")
    if obs.last_discard is not None and obs.phase != Phase.ENDED:
        s, t = obs.last_discard
        lines.append(tr("last_discard", lang, name=nm[s], tile=tile_label(t, lang)))
    return "\n".join(lines)


# ------------------------------------------------------------------ prompts and action labels


def action_label(obs: Observation, action: Action, lang: str = "zh") -> str:
    """A short button label: ``打 5m``, ``碰``, ``吃 3-4-5m``, ``杠 5m 补张``, ``胡``, ``过``, ``要海底``."""
    act = action.act
    if act == Act.DISCARD and action.tile is not None:
        return tr("act.discard", lang, tile=tile_str(action.tile))
    if act == Act.WIN:
        return tr("act.win", lang)
    if act == Act.PUNG:
        return tr("act.pung", lang)
    if act == Act.CHOW and action.tile is not None:
        return tr("act.chow", lang, run=run_label(action.tile))
    if act == Act.KONG:
        tile = tile_str(action.tile if action.tile is not None else (obs.claim_tile or 0))
        if action.detail == KongMode.BU:
            return tr("act.kong.bu", lang, tile=tile)
        if action.detail == KongMode.KAI:
            return tr("act.kong.kai", lang, tile=tile)
        return tr("act.kong", lang, tile=tile)
    if act == Act.OPENING:
        return tr("act.opening", lang, hands=hand_names(_ruleset(obs), action.detail.split("+"), lang))
    if act == Act.TAKE:
        return tr("act.take", lang)
    if act == Act.CHOOSE:
        return tr("act.choose", lang, detail=_ruleset(obs).choice_label(action.detail, lang))
    if act == Act.PASS:
        if obs.phase == Phase.OPENING:
            deal_win = not any(a.act == Act.OPENING for a in obs.legal) and any(
                a.act == Act.WIN for a in obs.legal
            )
            return tr("act.pass" if deal_win else "act.opening.pass", lang)
        if obs.phase == Phase.HAIDI and not any(a.act == Act.WIN for a in obs.legal):
            return tr("act.refuse", lang)
        return tr("act.pass", lang)
    return str(action)


def describe_claim_option(obs: Observation, action: Action, lang: str = "zh") -> str:
    """What a claim option does, exactly: which tiles from the hand it uses."""
    tile_n = obs.claim_tile if obs.claim_tile is not None else 0
    tile = tile_label(tile_n, lang)
    act = action.act
    if act == Act.WIN:
        if obs.claim_kind == ClaimKind.ROB:
            return tr("desc.win.rob", lang, tile=tile)
        if obs.claim_kind == ClaimKind.HAIDI:
            return tr("desc.win.haidi", lang, tile=tile)
        return tr("desc.win", lang, tile=tile)
    if act == Act.PUNG:
        return tr("desc.pung", lang, tile=tile_str(tile_n))
    if act == Act.CHOW and action.tile is not None:
        used = [x for x in (action.tile, action.tile + 1, action.tile + 2) if x != tile_n]
        return tr("desc.chow", lang, run=run_label(action.tile), used=" ".join(tile_str(x) for x in used))
    if act == Act.KONG:
        key = {KongMode.BU: "desc.kong.bu", KongMode.KAI: "desc.kong.kai"}.get(
            KongMode(action.detail), "desc.kong"
        )
        return tr(key, lang, tile=tile_str(tile_n))
    if act == Act.PASS:
        return tr("desc.pass", lang)
    return action_label(obs, action, lang)


def claim_prompt(obs: Observation, lang: str = "zh", names: Sequence[str] | None = None) -> str:
    """The tile on offer and every option this seat has on it (胡/杠/碰/吃/过)."""
    nm = _names(names, obs, lang)
    who = nm[obs.claim_from] if obs.claim_from is not None else "?"
    tile = tile_label(obs.claim_tile, lang) if obs.claim_tile is not None else "?"
    options = tr("opt.sep", lang).join(describe_claim_option(obs, a, lang) for a in obs.legal)
    prompts = {ClaimKind.ROB: "prompt.claim.rob", ClaimKind.HAIDI: "prompt.claim.haidi"}
    key = prompts.get(obs.claim_kind, "prompt.claim") if obs.claim_kind is not None else "prompt.claim"
    return tr(key, lang, name=who, tile=tile, options=options)


def prompt(obs: Observation, lang: str = "zh", names: Sequence[str] | None = None) -> str:
    """What this seat is being asked now (empty when it has nothing to decide)."""
    if not obs.legal:
        return "" if obs.phase == Phase.ENDED else tr("prompt.wait", lang)
    if obs.phase == Phase.CLAIM:
        return claim_prompt(obs, lang, names)
    offered = [a.detail for a in obs.legal if a.act == Act.CHOOSE]
    if offered:
        return _ruleset(obs).choice_prompt(offered, lang) or tr("prompt.choose", lang)
    if obs.phase == Phase.OPENING:
        kinds = max((a.detail.split("+") for a in obs.legal if a.act == Act.OPENING), key=len, default=[])
        if not kinds:  # no opening hand, only a win on the dealt tiles (the variant's wins_at_deal)
            return tr("prompt.deal_win", lang)
        return tr("prompt.opening", lang, hands=hand_names(_ruleset(obs), kinds, lang))
    if obs.phase == Phase.HAIDI:
        if any(a.act == Act.WIN for a in obs.legal) and obs.drawn is not None:
            return tr("prompt.haidi.win", lang, tile=tile_label(obs.drawn, lang))
        return tr("prompt.haidi", lang)
    if obs.seats[obs.seat].locked:
        return tr("prompt.locked.won" if obs.seats[obs.seat].wins else "prompt.locked", lang)
    extra = []
    if any(a.act == Act.WIN for a in obs.legal):
        extra.append(tr("prompt.win", lang))
    if any(a.act == Act.KONG for a in obs.legal):
        extra.append(tr("prompt.kong", lang))
    if extra:
        return tr("prompt.turn.more", lang, what=" / ".join(extra))
    return tr("prompt.turn", lang)


def tile_pick(obs: Observation) -> TilePick | None:
    """How this seat's pre-hand choice is made, if by picking tiles of its hand (换三张): the variant says."""
    offered = [a.detail for a in obs.legal if a.act == Act.CHOOSE]
    return _ruleset(obs).choice_pick(offered) if offered else None


def _picks(obs: Observation) -> list[tuple[Action, Counter[int]]]:
    return [(a, Counter(parse_tiles(a.detail))) for a in obs.legal if a.act == Act.CHOOSE]


def pick_extends(obs: Observation, tiles: Sequence[int]) -> bool:
    """Can ``tiles`` (picked so far) still grow into one of the legal picks?"""
    want = Counter(tiles)
    return any(all(c[t] >= n for t, n in want.items()) for _, c in _picks(obs))


def pick_action(obs: Observation, tiles: Sequence[int]) -> Action | None:
    """The legal pick made of exactly ``tiles``, if they are one."""
    want = Counter(tiles)
    return next((a for a, c in _picks(obs) if c == want), None)


def choices(obs: Observation, lang: str = "zh") -> list[tuple[Action, str]]:
    """The legal actions in display order (win, kongs, claims, discards, pass) with their labels."""
    order = {Act.WIN: 0, Act.TAKE: 1, Act.OPENING: 2, Act.KONG: 3, Act.PUNG: 4, Act.CHOW: 5, Act.DISCARD: 6}
    acts = sorted(obs.legal, key=lambda a: (order.get(a.act, 9), a.tile if a.tile is not None else -1))
    return [(a, action_label(obs, a, lang)) for a in acts]


def parse_choice(obs: Observation, text: str) -> Action | None:
    """A typed tile (``5m``) as this seat's discard of it, if that discard is legal; typed tiles (``557m``)
    as this seat's pick, where the choice is made by picking tiles."""
    if tile_pick(obs) is not None:  # tiles typed for a pick (``557m``)
        try:
            return pick_action(obs, parse_tiles(text.strip()))
        except ValueError:
            return None
    try:
        t = parse_tile(text.strip())
    except ValueError:
        return None
    for a in obs.legal:
        if a.act == Act.DISCARD and a.tile == t:
            return a
    return None


# ------------------------------------------------------------------ settlement


def _bird_line(s: Settlement, lang: str, nm: Sequence[str]) -> str:
    """The birds, each with the seat it points at (as the variant counted it) when it points at one."""
    if not s.birds:
        return tr("settle.no_birds", lang)
    parts = []
    for i, b in enumerate(s.birds):
        target = s.bird_seats[i] if i < len(s.bird_seats) else None
        if target is not None:
            parts.append(tr("settle.bird", lang, tile=tile_label(b, lang), name=nm[target]))
        else:
            parts.append(tile_label(b, lang))
    return tr("settle.birds", lang, birds=", ".join(parts))


def settlement_view(
    obs: Observation, settlement: Settlement, lang: str = "zh", names: Sequence[str] | None = None
) -> str:
    """One scored event: who, which hands (by name), the birds, every payment and the deltas."""
    nm = _names(names, obs, lang)
    rs = _ruleset(obs)
    lines = []
    hands = dict(settlement.hands)
    scored = settlement.kind in (SettleKind.OPENING, SettleKind.WIN)
    if scored:
        key = "settle.opening" if settlement.kind == SettleKind.OPENING else "settle.win"
        for w in settlement.winners:
            lines.append(tr(key, lang, name=nm[w], hands=hand_names(rs, hands.get(w, ()), lang)))
    elif settlement.kind == SettleKind.KONG:
        lines.append(tr("settle.kong", lang, name=", ".join(nm[w] for w in settlement.winners)))
    else:
        lines.append(tr("settle.draw", lang))
    if scored:
        lines.append("  " + _bird_line(settlement, lang, nm))
    for p in settlement.payments:
        line = tr("settle.pay", lang, payer=nm[p.payer], payee=nm[p.payee], amount=p.amount)
        if p.hits:
            mult = rs.bird_multiplier(p.hits)
            if mult is None:  # the variant's hits add points rather than multiply
                line += tr("settle.hits.add", lang, n=p.hits)
            else:
                line += tr("settle.hits", lang, n=p.hits, mult=mult)
        lines.append("  " + line)
    lines.append("  " + tr("settle.deltas", lang, deltas=_fmt_deltas(settlement.deltas, nm)))
    if settlement.note:
        lines.append("  " + rs.note_label(settlement.note, lang))
    return "\n".join(lines)


def result_view(obs: Observation, lang: str = "zh", names: Sequence[str] | None = None) -> str:
    """The end of a hand: every settlement, the hands shown, the hand's deltas and the next dealer."""
    nm = _names(names, obs, lang)
    lines = [settlement_view(obs, s, lang, nm) for s in obs.settlements]
    res = obs.result
    if res is None:
        return "\n".join(lines)
    if res.reason == "win":  # engine.Outcome.WIN
        lines.append(tr("result.win", lang, names=", ".join(nm[w] for w in res.winners)))
    else:
        lines.append(tr("result.draw", lang))
    if any(ps.hand is not None for ps in obs.seats):
        lines.append(tr("result.hands", lang) + ":")
        for ps in obs.seats:
            if ps.hand is not None:
                melds = " ".join(meld_label(m) for m in ps.melds)
                lines.append(f"  {nm[ps.seat]}: {format_tiles(ps.hand)} {melds}".rstrip())
    lines.append(tr("result.deltas", lang, deltas=_fmt_deltas(res.deltas, nm)))
    lines.append(tr("result.next_dealer", lang, name=nm[res.next_dealer]))
    return "\n".join(lines)


# ------------------------------------------------------------------ events


_HIDDEN_FROM_OTHERS = {EventKind.ANSWER, EventKind.FURITEN, EventKind.SETTLE, EventKind.END}


def _mode(mode: KongMode | None, lang: str) -> str:
    return tr(f"mode.{mode.value}", lang) if mode in (KongMode.BU, KongMode.KAI) and mode is not None else ""


def event_line(
    event: Event,
    viewer: int,
    lang: str = "zh",
    names: Sequence[str] | None = None,
    variant: str | None = None,
) -> str | None:
    """One line for what ``viewer`` learns from ``event`` (None: nothing worth a line). ``variant``: the
    variant id, for hand names (ids shown as they are without it).

    Private tiles of other seats are dropped; answers to a claim window (who passed, who passed a win)
    are shown to their own seat only, as they would tell the others about a hidden hand."""
    nm = seat_names(names, 4, viewer, lang)
    ev = event if event.visible_to(viewer) else event.public()
    seat = ev.seat
    name = nm[seat] if seat is not None and seat < len(nm) else ""
    tile = tile_label(ev.tile, lang) if ev.tile is not None else None
    kind = ev.kind
    own = seat == viewer
    rs = get_ruleset(variant) if variant else None

    def hands(keys: Sequence[str]) -> str:
        return hand_names(rs, keys, lang) if rs is not None else " + ".join(keys)

    if kind in _HIDDEN_FROM_OTHERS:
        if kind == EventKind.FURITEN and own:
            return tr("ev.furiten", lang)
        return None
    if kind == EventKind.DRAW:
        if ev.kong:
            return (
                tr("ev.draw.kong", lang, name=name, tile=tile)
                if tile
                else tr("ev.draw.kong.hidden", lang, name=name)
            )
        return tr("ev.draw", lang, name=name, tile=tile) if tile else tr("ev.draw.hidden", lang, name=name)
    if kind == EventKind.DISCARD:
        key = "ev.discard.auto" if ev.auto else "ev.discard"
        return tr(key, lang, name=name, tile=tile)
    if kind == EventKind.PUNG:
        return tr("ev.pung", lang, name=name, tile=tile)
    if kind == EventKind.CHOW:
        return tr("ev.chow", lang, name=name, tile=tile, meld=str(ev.meld) if ev.meld else "")
    if kind == EventKind.KONG:
        concealed = ev.meld is None or ev.meld.kind == MeldKind.KONG_CONCEALED
        if concealed and (not own or ev.tile is None):
            return tr("ev.kong.concealed", lang, name=name, mode=_mode(ev.mode, lang))
        return tr("ev.kong", lang, name=name, tile=tile, mode=_mode(ev.mode, lang))
    if kind == EventKind.KONG_DECLARED:
        return tr("ev.kong_declared", lang, name=name, tile=tile)
    if kind == EventKind.ROB_PASSED:
        return tr("ev.rob_passed", lang, name=name)
    if kind == EventKind.DICE:
        return tr("ev.dice", lang, name=name, detail="+".join(str(d) for d in ev.dice))
    if kind == EventKind.WIN:
        shown = hands(ev.hands) if ev.hands else ""
        wrapped = (f"（{shown}）" if lang == "zh" else f" ({shown})") if shown else ""
        if tile:
            return tr("ev.win", lang, name=name, tile=tile, hands=wrapped)
        return tr("ev.win.notile", lang, name=name, hands=wrapped)
    if kind == EventKind.OPENING:
        return tr("ev.opening", lang, name=name, hands=hands(ev.hands))
    if kind == EventKind.OPENING_PASS:
        return tr("ev.opening.pass", lang, name=name)
    if kind == EventKind.HAIDI_OFFER:
        return tr("ev.haidi_offer", lang, name=name)
    if kind == EventKind.HAIDI_TAKE:
        return (
            tr("ev.haidi_take", lang, name=name, tile=tile)
            if tile
            else tr("ev.haidi_take.hidden", lang, name=name)
        )
    if kind == EventKind.HAIDI_REFUSE:
        return tr("ev.haidi_refuse", lang, name=name)
    if kind == EventKind.HAIDI_SHOW:
        return tr("ev.haidi_show", lang, name=name, tile=tile)
    if kind == EventKind.CHOSEN:
        return tr("ev.chosen", lang, name=name)
    if kind == EventKind.CHOICES:
        made = [f"{nm[i]} {rs.choice_label(c, lang) if rs else c}" for i, c in enumerate(ev.choices) if c]
        return tr("ev.choices", lang, choices=" · ".join(made))
    if kind == EventKind.VARIANT:
        text = rs.note_label(ev.note, lang) if rs is not None else ev.note
        if ev.tiles and own:  # a seat's own part of it (换三张: the tiles it received)
            text += " " + tiles_label(ev.tiles, lang)
        return f"{name} {text}".strip() if name else text
    return str(ev)


__all__ = [
    "action_label",
    "pick_action",
    "pick_extends",
    "tile_pick",
    "choices",
    "claim_prompt",
    "describe_claim_option",
    "event_line",
    "hand_names",
    "hand_view",
    "parse_choice",
    "prompt",
    "result_view",
    "run_label",
    "seat_names",
    "settlement_view",
    "table_view",
    "tile_label",
]
