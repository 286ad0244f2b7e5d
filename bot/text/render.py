"""Text views of a game, for the console and the Telegram bot: pure functions of an Observation.

Nothing here takes a State: what a seat may see is exactly its Observation (plus the language and the
seat names), so another seat's concealed tiles cannot leak into a view. Events are rendered for one
viewer and lose their private tile when they are not the viewer's own.

Nothing here knows a variant: hand names, pre-hand choice labels, option values, bird seats and bird
multipliers all come from the observation's variant (``engine.Variant``) and its settlements.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bot.text.texts import default_names, listed
from bot.text.texts import t as tr  # ``t`` names a tile in this module
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
    get_variant,
)
from engine.melds import Meld, MeldKind
from engine.observe import PublicSeat, unseen
from engine.state import Op, Part, Payment, Settlement
from engine.tiles import (
    HONOR_ZH,
    NUM_KINDS,
    NUMBER_ZH,
    SUIT_NAMES_ZH,
    SUITED_KINDS,
    SUITS,
    parse_tile,
    parse_tiles,
    tile_str,
    tile_zh,
    to_counts,
)
from storage import SELF_DRAWN, WinWay

# ------------------------------------------------------------------ small pieces

HONOR_EN = ("East", "South", "West", "North", "White", "Green", "Red")
SUIT_EN = ("Characters", "Bamboo", "Dots")
HONOR_ZH_FULL = ("东风", "南风", "西风", "北风", "白板", "发财", "红中")


def tile_label(t: int, lang: str = "zh") -> str:
    """A tile in full: ``5m 五万`` / ``红中`` in Chinese; ``5m`` / ``Red 中`` in English (never ``7z``)."""
    return _TILE_LABEL[lang == "zh"][t]


def tile_short(t: int, lang: str = "zh") -> str:
    """A tile in a list (rivers, a button's tile): ``五万`` / ``5m``; an honour as ``中`` / ``Red``."""
    return _TILE_SHORT[lang == "zh"][t]


def _tile_label(t: int, zh: bool) -> str:
    if t >= SUITED_KINDS:
        i = t - SUITED_KINDS
        return HONOR_ZH_FULL[i] if zh else f"{HONOR_EN[i]} {HONOR_ZH[i]}"
    return f"{tile_str(t)} {tile_zh(t)}" if zh else tile_str(t)


def _tile_short(t: int, zh: bool) -> str:
    if t >= SUITED_KINDS:
        i = t - SUITED_KINDS
        return HONOR_ZH[i] if zh else HONOR_EN[i]
    return tile_zh(t) if zh else tile_str(t)


# every tile's labels, worked out once (indexed by ``lang == "zh"``, then the tile): drawn on every panel
_TILE_LABEL = tuple(tuple(_tile_label(t, zh) for t in range(NUM_KINDS)) for zh in (False, True))
_TILE_SHORT = tuple(tuple(_tile_short(t, zh) for t in range(NUM_KINDS)) for zh in (False, True))
_RANK = tuple(str(t % 9 + 1) for t in range(SUITED_KINDS))


def tiles_text(tiles: Sequence[int], lang: str = "zh") -> str:
    """Tiles in words, suits grouped, as players say them: ``一二三万 五五条 东东`` / ``123 Characters · 55
    Bamboo · East East`` (never the engine's ``123m``)."""
    zh = lang == "zh"
    suits: tuple[list[str], list[str], list[str]] = ([], [], [])
    honours: list[str] = []
    short = _TILE_SHORT[zh]
    for t in sorted(tiles):
        if t < SUITED_KINDS:
            suits[t // 9].append(NUMBER_ZH[t % 9] if zh else _RANK[t])
        else:
            honours.append(short[t])
    if zh:
        groups = ["".join(r) + SUIT_NAMES_ZH[i] for i, r in enumerate(suits) if r]
        return " ".join(groups + (["".join(honours)] if honours else []))
    groups = [f"{''.join(r)} {SUIT_EN[i]}" for i, r in enumerate(suits) if r]
    return " · ".join(groups + ([" ".join(honours)] if honours else []))


def choice_text(rs: Variant, value: str, lang: str = "zh") -> str:
    """A pre-hand choice in the player's words: the variant's label (缺万, 飘2, 加一锤), or for tiles passed
    (换三张, stored as the engine's ``126m``) the tiles in words: ``一二六万`` / ``126 Characters``."""
    if len(value) > 1 and value[-1] in "mps" and value[:-1].isdigit():
        return tiles_text(parse_tiles(value), lang)
    return rs.choice_label(value, lang)


def tiles_label(tiles: Sequence[int], lang: str = "zh") -> str:
    return " ".join(tile_label(t, lang) for t in sorted(tiles))


def run_label(lo: int, lang: str = "zh") -> str:
    """A chow run: ``三四五万`` / ``3-4-5 Characters``."""
    if lang == "zh":
        return tiles_text((lo, lo + 1, lo + 2), lang)
    r = lo % 9 + 1
    return f"{r}-{r + 1}-{r + 2} {SUIT_EN[lo // 9]}"


def meld_label(m: Meld, lang: str = "zh") -> str:
    """``[五五五筒]`` / ``[555 Dots]``, a concealed kong ``[暗杠 二二二二条]`` / ``[concealed 2222 Bamboo]``,
    honours ``[中中中]`` / ``[Red×3]``."""
    if m.tile >= SUITED_KINDS:
        body = (
            tile_short(m.tile, lang) * len(m.tiles)
            if lang == "zh"
            else f"{tile_short(m.tile, lang)}×{len(m.tiles)}"
        )
    else:
        body = tiles_text(m.tiles, lang)
    return f"[{tr('meld.concealed', lang)} {body}]" if m.kind == MeldKind.KONG_CONCEALED else f"[{body}]"


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


def _variant(obs: Observation) -> Variant:
    return get_variant(obs.variant)


def hand_names(rs: Variant, keys: Sequence[str], lang: str = "zh") -> str:
    """Hand ids as names, repeats counted: ``清一色 + 豪华七小对×2``."""
    counts = Counter(keys)
    parts = []
    for key in dict.fromkeys(keys):
        name = rs.hand_name(key, lang)
        parts.append(f"{name}×{counts[key]}" if counts[key] > 1 else name)
    return " + ".join(parts)


def points_text(deltas: Sequence[int], names: Sequence[str], lang: str = "zh", *, moved: bool = False) -> str:
    """Each seat's points by name, ``Lily -1，阿华 +1`` (``moved``: only the seats whose points changed)."""
    return listed((f"{names[i]} {d:+d}" for i, d in enumerate(deltas) if d or not moved), lang)


# ------------------------------------------------------------------ the private hand


def choosing_blind(obs: Observation) -> bool:
    """A pre-hand choice made before the tiles are looked at (飘, 加锤): the hand is not shown yet."""
    return obs.phase == Phase.CHOOSE and not obs.hand and obs.seats[obs.seat].hand_size > 0


def hand_view(obs: Observation, lang: str = "zh", names: Sequence[str] | None = None) -> str:
    """The seat's own hand by suit (the drawn tile apart), its melds, and its waits when ready."""
    nm = _names(names, obs, lang)
    if choosing_blind(obs):
        n = obs.seats[obs.seat].hand_size
        return tr("hand.blind", lang, name=nm[obs.seat], n=n)
    hand = list(obs.hand)
    drawn = obs.drawn
    if drawn is not None and drawn in hand:
        hand.remove(drawn)
    title = tr("hand.title", lang, name=nm[obs.seat], n=len(obs.hand))
    mine = obs.seats[obs.seat].choice
    if mine and mine != "0" and obs.phase != Phase.CHOOSE:  # his own 定缺 (飘2 …), as the others see theirs
        title += ("· " if lang == "zh" else " · ") + choice_text(_variant(obs), mine, lang)
    lines = [title]
    by_suit: dict[int, list[int]] = {}
    for t in sorted(hand):
        by_suit.setdefault(min(t // 9, 3), []).append(t)
    for suit in sorted(by_suit):
        tiles = " | ".join(tile_label(t, lang) for t in by_suit[suit])
        lines.append(f"  {tr(f'suit.{suit}', lang)}: {tiles}")
    if drawn is not None:
        lines.append(f"  {tr('hand.drawn', lang)} → {tile_label(drawn, lang)}")
    wild = sorted(set(obs.hand) & _variant(obs).wild_tiles())
    if wild and obs.phase != Phase.ENDED:  # why it has no button: it is kept for a win
        lines.append("  " + tr("hand.wild", lang, tiles=tiles_label(wild, lang)))
    me = obs.seats[obs.seat]
    if me.melds:
        lines.append(f"  {tr('hand.melds', lang)}: {' '.join(meld_label(m, lang) for m in me.melds)}")
    if status := seat_status(obs, lang):
        lines.append("  " + status)
    if obs.passed_win:
        lines.append("  " + tr("hand.passed_win", lang))
    if obs.phase != Phase.ENDED and not me.won:
        lines.extend("  " + x for x in waits_lines(obs, lang))
    return "\n".join(lines)


def seat_status(obs: Observation, lang: str = "zh") -> str:
    """Why this seat's hand no longer plays as usual: locked (开杠; 血流成河's winner, who may win again),
    or out of play after a win (血战); "" otherwise."""
    me = obs.seats[obs.seat]
    if me.locked:
        return tr("hand.locked.won" if me.wins else "hand.locked", lang)
    if me.won and obs.phase != Phase.ENDED:
        return tr("hand.out", lang)
    return ""


def _waits_text(ws: Sequence[int], left: Sequence[int], lang: str) -> str:
    return listed((f"{tile_label(t, lang)} ({tr('hand.unseen', lang, n=left[t])})" for t in ws), lang)


def waits_lines(obs: Observation, lang: str = "zh") -> list[str]:
    """听牌: the waits of a ready 13, or the discards that leave a 14 ready (each with its waits), every wait
    with the copies not yet seen by this seat."""
    rs = _variant(obs)
    counts = to_counts(obs.hand)
    me = obs.seats[obs.seat]
    melds = me.melds
    n = len(obs.hand)
    left = unseen(obs)
    if n % 3 == 1:
        ws = rs.waits(counts, melds, obs.options, me.choice)
        return [f"{tr('hand.waits', lang)}: {_waits_text(ws, left, lang)}"] if ws else []
    if n % 3 != 2 or obs.seats[obs.seat].locked:
        return []
    out = []
    for t in sorted(set(obs.hand)):
        c = list(counts)
        c[t] -= 1
        ws = rs.waits(tuple(c), melds, obs.options, me.choice)
        if ws:
            out.append(
                "  "
                + tr("hand.discard_waits", lang, tile=tile_short(t, lang), waits=_waits_text(ws, left, lang))
            )
    return [tr("hand.ready_after", lang) + ":", *out] if out else []


# ------------------------------------------------------------------ the public table


def turn_line(obs: Observation, lang: str = "zh", names: Sequence[str] | None = None) -> str:
    """Whose move it is, as everyone may see it: during a claim window only the tile and who let it go."""
    nm = _names(names, obs, lang)
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
        if obs.claim_kind == ClaimKind.KONG:
            return tr("turn.claim.kong", lang, name=who)
        return tr("turn.claim", lang, name=who, tile=tile)
    if phase == Phase.CHOOSE:  # pre-hand choices (飘 / 加锤 / 定缺 …)
        return tr("turn.choose", lang, what=_variant(obs).choice_title(lang, obs.choice_stage))
    if phase == Phase.HAIDI:
        if obs.wall_remaining == 0:  # the last tile has been taken: its taker may win on it
            return tr("turn.haidi.taken", lang, name=nm[obs.current])
        return tr("turn.haidi", lang, name=nm[obs.current])
    if phase == Phase.OPENING:
        return tr("turn.opening", lang, name=nm[obs.current])
    return tr("turn.turn", lang, name=nm[obs.current])


def won_mark(ps: PublicSeat, lang: str = "zh") -> str:
    """A seat's wins with the tiles it won on, shown beside its hand ("" for none): 已胡 五万 / won on 5m;
    血流成河's repeat winner (who wins on them again): 已胡 2 次：四条 四条."""
    on = " ".join(tile_short(t, lang) for t in ps.won_on if t >= 0)
    if ps.wins > 1:
        return tr("seat.wins.on", lang, n=ps.wins, tiles=on) if on else tr("seat.wins", lang, n=ps.wins)
    if ps.won or ps.wins:
        return tr("seat.won.on", lang, tiles=on) if on else tr("seat.won", lang)
    return ""


def ready_mark(obs: Observation, ps: PublicSeat, lang: str = "zh") -> str:
    """A shown 13-tile hand's waits (听 四条 七条 / waiting on 4s 7s; "" when not ready), without a wait the
    hand holds all four of (it would need a fifth)."""
    if ps.hand is None or len(ps.hand) % 3 != 1:
        return ""
    ws = _variant(obs).live_waits(to_counts(ps.hand), ps.melds, obs.options, ps.choice)
    return tr("result.waits", lang, tiles=" ".join(tile_short(w, lang) for w in ws)) if ws else ""


def seat_marks(obs: Observation, seat: int, lang: str = "zh") -> list[str]:
    """What marks a seat for everyone: dealer, its public pre-hand choice (缺万, 飘2 …), won (or how often:
    血流成河), a locked hand and why."""
    ps = obs.seats[seat]
    rs = _variant(obs)
    marks = []
    if seat == obs.dealer:
        marks.append(tr("dealer", lang))
    if ps.choice is not None and (seat == obs.seat or obs.phase != Phase.CHOOSE):
        marks.append(choice_text(rs, ps.choice, lang))
    won = won_mark(ps, lang)
    if won:
        marks.append(won)
    if ps.locked:  # after a win (血流成河) or after opening a kong (开杠)
        marks.append(tr("seat.locked.won" if ps.wins else "seat.locked", lang))
    return marks


def table_view(obs: Observation, lang: str = "zh", names: Sequence[str] | None = None) -> str:
    """The public table: whose turn, each seat's melds, discards and revealed opening tiles, the wall."""
    nm = _names(names, obs, lang)
    rs = _variant(obs)
    variant = rs.name_zh if lang == "zh" else rs.name_en
    lines = [
        tr("table.header", lang, variant=variant, dealer=nm[obs.dealer], wall=obs.wall_remaining),
        turn_line(obs, lang, nm),
    ]
    for ps in obs.seats:
        marks = seat_marks(obs, ps.seat, lang)
        mark = "".join(f"[{m}] " for m in marks)
        arrow = (
            "▶ " if obs.phase in (Phase.TURN, Phase.HAIDI, Phase.OPENING) and ps.seat == obs.current else "  "
        )
        head = f"{arrow}{mark}{nm[ps.seat]} · {tr('seat.tiles', lang, n=ps.hand_size)}"
        lines.append(head)
        melds = [meld_label(m, lang) for m in ps.melds]
        if ps.concealed_kongs:
            melds.append(tr("seat.concealed_kongs", lang, n=ps.concealed_kongs))
        lines.append(
            f"    {tr('seat.melds', lang)}: {' '.join(melds) if melds else tr('seat.no_melds', lang)}"
        )
        river = (
            " ".join(tile_short(t, lang) for t in ps.discards)
            if ps.discards
            else tr("seat.no_discards", lang)
        )
        lines.append(f"    {tr('seat.discards', lang)}: {river}")
        if ps.declared:
            shown = tiles_text(ps.revealed, lang) if ps.revealed else ""
            lines.append(
                f"    {tr('seat.declared', lang)}: {hand_names(rs, ps.declared, lang)}"
                + (f" · {tr('seat.shown', lang)} {shown}" if shown else "")
            )
        if ps.hand is not None:
            lines.append(f"    {tr('seat.hand', lang)}: {tiles_text(ps.hand, lang)}")
    if obs.kong_tiles:
        lines.append(tr("kong_tiles", lang, tiles=tiles_label(obs.kong_tiles, lang)))
    last = on_the_river(obs)
    if last is not None and obs.phase != Phase.ENDED:
        s, t = last
        lines.append(tr("last_discard", lang, name=nm[s], tile=tile_label(t, lang)))
    return "\n".join(lines)


def on_the_river(obs: Observation) -> tuple[int, int] | None:
    """The latest discard (seat, tile) while it still lies on its river: once claimed (吃, 碰, 杠) it is part
    of a meld and no longer "the last discard". (Read from the river's last tile: a seat that threw the same
    tile twice running, the second claimed, still shows it - the observation does not say more.)"""
    if obs.last_discard is None:
        return None
    s, t = obs.last_discard
    river = obs.seats[s].discards
    return obs.last_discard if river and river[-1] == t else None


RIVER_TAIL = 4  # the last discards of each other seat a private panel shows


def context_lines(obs: Observation, lang: str = "zh", names: Sequence[str] | None = None) -> list[str]:
    """What a player needs beside his own hand to decide, compactly (his private panel): the last discard
    and who made it, whose turn, the wall; then every other seat in play order from him — its marks (dealer,
    定缺, won), melds and last discards."""
    nm = _names(names, obs, lang)
    n = len(obs.seats)
    lines = []
    top = []
    mine = obs.current == obs.seat and obs.phase in (Phase.TURN, Phase.HAIDI, Phase.OPENING)
    if not (mine or (obs.phase == Phase.CLAIM and obs.legal)):  # else the prompt says it
        top.append(turn_line(obs, lang, nm))
    last = on_the_river(obs)
    if last is not None and obs.phase not in (Phase.ENDED, Phase.CLAIM):
        s, t = last
        top.append(tr("last_discard", lang, name=nm[s], tile=tile_label(t, lang)))
    top.append(tr("ctx.wall", lang, n=obs.wall_remaining))
    lines.append(" · ".join(top))
    me = obs.seat if obs.seat >= 0 else 0
    for k in range(1, n + 1 if obs.phase != Phase.CHOOSE else 1):  # (before the hand: nothing to show)
        seat = (me + k) % n
        if seat == obs.seat:
            continue
        ps = obs.seats[seat]
        marks = seat_marks(obs, seat, lang)
        shown = "·".join(marks) if lang == "zh" else ", ".join(marks)
        head = nm[seat] + (_aside(shown, lang) if marks else "")
        melds = [meld_label(m, lang) for m in ps.melds]
        melds += [tr("seat.concealed_kongs", lang, n=ps.concealed_kongs)] if ps.concealed_kongs else []
        bits = [" ".join(melds)] if melds else []
        if ps.discards:
            tail = ps.discards[-RIVER_TAIL:]
            more = "…" if len(ps.discards) > len(tail) else ""
            bits.append(tr("ctx.river", lang, tiles=more + " ".join(tile_short(t, lang) for t in tail)))
        if ps.hand is not None:
            bits.append(tr("ctx.shown", lang, tiles=tiles_text(ps.hand, lang)))
        bits = bits or [tr("ctx.nothing", lang)]
        lines.append(f"{head}：{' · '.join(bits)}" if lang == "zh" else f"{head}: {' · '.join(bits)}")
    if obs.kong_tiles:
        lines.append(tr("kong_tiles", lang, tiles=tiles_label(obs.kong_tiles, lang)))
    return lines


# ------------------------------------------------------------------ prompts and action labels


def action_label(obs: Observation, action: Action, lang: str = "zh") -> str:
    """A short button label: ``打 5m``, ``碰``, ``吃 3-4-5m``, ``杠 5m 补张``, ``胡``, ``过``, ``要海底``."""
    act = action.act
    if act == Act.DISCARD and action.tile is not None:
        return tr("act.discard", lang, tile=tile_short(action.tile, lang))
    if act == Act.WIN:
        return tr("act.win", lang)
    if act == Act.PUNG:
        return tr("act.pung", lang)
    if act == Act.CHOW and action.tile is not None:
        return tr("act.chow", lang, run=run_label(action.tile, lang))
    if act == Act.KONG:
        tile = tile_short(action.tile if action.tile is not None else (obs.claim_tile or 0), lang)
        if action.kong_mode == KongMode.BU:
            return tr("act.kong.bu", lang, tile=tile)
        if action.kong_mode == KongMode.KAI:
            return tr("act.kong.kai", lang, tile=tile)
        return tr("act.kong", lang, tile=tile)
    if act == Act.OPENING:
        return tr("act.opening", lang, hands=hand_names(_variant(obs), action.opening_hands, lang))
    if act == Act.TAKE:
        return tr("act.take", lang)
    if act == Act.CHOOSE:
        return choice_text(_variant(obs), action.choice, lang)
    if act == Act.PASS:
        if obs.phase == Phase.OPENING:
            deal_win = not any(a.act == Act.OPENING for a in obs.legal) and any(
                a.act == Act.WIN for a in obs.legal
            )
            return tr("act.pass" if deal_win else "act.opening.pass", lang)
        if obs.phase == Phase.HAIDI and not any(a.act == Act.WIN for a in obs.legal):
            return tr("act.refuse", lang)
        return tr("act.pass", lang)
    return tr("act.other", lang)


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
        return tr("desc.pung", lang, tile=tile_short(tile_n, lang))
    if act == Act.CHOW and action.tile is not None:
        used = [x for x in (action.tile, action.tile + 1, action.tile + 2) if x != tile_n]
        used_text = tiles_text(used, lang) if lang == "zh" else " ".join(tile_short(x, lang) for x in used)
        return tr("desc.chow", lang, run=run_label(action.tile, lang), used=used_text)
    if act == Act.KONG:
        key = {KongMode.BU: "desc.kong.bu", KongMode.KAI: "desc.kong.kai"}.get(action.kong_mode, "desc.kong")
        return tr(key, lang, tile=tile_short(tile_n, lang))
    if act == Act.PASS:
        return tr("desc.pass", lang)
    return action_label(obs, action, lang)


def claim_prompt(obs: Observation, lang: str = "zh", names: Sequence[str] | None = None) -> str:
    """The tile on offer and every option this seat has on it (胡/杠/碰/吃/过)."""
    nm = _names(names, obs, lang)
    who = nm[obs.claim_from] if obs.claim_from is not None else "?"
    tile = tile_label(obs.claim_tile, lang) if obs.claim_tile is not None else "?"
    options = tr("opt.sep", lang).join(describe_claim_option(obs, a, lang) for a in obs.legal)
    prompts = {
        ClaimKind.ROB: "prompt.claim.rob",
        ClaimKind.HAIDI: "prompt.claim.haidi",
        ClaimKind.KONG: "prompt.claim.kong",
    }
    key = prompts.get(obs.claim_kind, "prompt.claim") if obs.claim_kind is not None else "prompt.claim"
    return tr(key, lang, name=who, tile=tile, options=options)


def choose_prompt(obs: Observation, lang: str = "zh") -> str:
    """A pre-hand choice named and explained by the variant, with what the hand holds when it is seen
    (定缺: how many tiles of each suit) or that it is chosen blind (飘, 加锤)."""
    rs = _variant(obs)
    offered = [a.choice for a in obs.legal if a.act == Act.CHOOSE]
    lines = [rs.choice_prompt(offered, lang) or tr("prompt.choose", lang)]
    if choosing_blind(obs):
        lines.append(tr("prompt.choose.blind", lang))
    elif obs.hand:
        suits = Counter(min(t // 9, 3) for t in obs.hand)
        per = " · ".join(
            tr("prompt.choose.suit", lang, suit=tr(f"suit.{s}", lang), n=n) for s, n in sorted(suits.items())
        )
        lines.append(tr("prompt.choose.held", lang, per=per))
    return "\n".join(lines)


def prompt(obs: Observation, lang: str = "zh", names: Sequence[str] | None = None) -> str:
    """What this seat is being asked now (empty when it has nothing to decide)."""
    if not obs.legal:
        return "" if obs.phase == Phase.ENDED else tr("prompt.wait", lang)
    if obs.phase == Phase.CLAIM:
        return claim_prompt(obs, lang, names)
    if any(a.act == Act.CHOOSE for a in obs.legal):
        return choose_prompt(obs, lang)
    if obs.phase == Phase.OPENING:
        kinds = max((a.opening_hands for a in obs.legal if a.act == Act.OPENING), key=len, default=())
        if not kinds:  # no opening hand, only a win on the dealt tiles (the variant's wins_at_deal)
            return tr("prompt.deal_win", lang)
        rs = _variant(obs)
        named = hand_names(rs, kinds, lang)
        return rs.opening_prompt(named, lang) or tr("prompt.opening", lang, hands=named)
    if obs.phase == Phase.HAIDI:
        if any(a.act == Act.WIN for a in obs.legal) and obs.drawn is not None:
            return tr("prompt.haidi.win", lang, tile=tile_label(obs.drawn, lang))
        return tr("prompt.haidi", lang)
    return _turn_prompt(obs, lang)


def _turn_prompt(obs: Observation, lang: str) -> str:
    """What a seat is asked on its turn: to discard (its void suit first, 定缺), or to win or kong instead."""
    extra = []
    if any(a.act == Act.WIN for a in obs.legal):
        extra.append(tr("prompt.win", lang))
    if any(a.act == Act.KONG for a in obs.legal):
        extra.append(tr("prompt.kong", lang))
    if obs.seats[obs.seat].locked:  # asked only when it may win or kong the tile it drew
        locked = tr("prompt.locked.won" if obs.seats[obs.seat].wins else "prompt.locked", lang)
        return tr("prompt.locked.more", lang, locked=locked, what=" / ".join(extra)) if extra else locked
    if extra:
        return tr("prompt.turn.more", lang, what=" / ".join(extra))
    me = obs.seats[obs.seat]
    thrown = {a.tile for a in obs.legal if a.act == Act.DISCARD and a.tile is not None}
    void = SUITS.find(me.choice) if me.choice and len(me.choice) == 1 else -1  # 定缺's suit, as the engine
    if void >= 0 and thrown and len(thrown) < len(set(obs.hand)) and all(t // 9 == void for t in thrown):
        return tr("prompt.turn.void", lang, void=choice_text(_variant(obs), me.choice or "", lang))
    return tr("prompt.turn", lang)


def tile_pick(obs: Observation) -> TilePick | None:
    """How this seat's pre-hand choice is made, if by picking tiles of its hand (换三张): the variant says."""
    offered = [a.choice for a in obs.legal if a.act == Act.CHOOSE]
    return _variant(obs).choice_pick(offered) if offered else None


def _picks(obs: Observation) -> list[tuple[Action, Counter[int]]]:
    return [(a, Counter(a.picked_tiles)) for a in obs.legal if a.act == Act.CHOOSE]


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


# How a win was made: (the winner's seat, SELF_DRAWN for a tile he drew himself - or was dealt - else the
# claim's kind: "discard", "rob", "kong", "haidi", and the seat whose tile it was). The hand's facts keep it,
# from the action and the state before it (storage/facts.py ``win_way``); the result names it beside the win.


def way_text(way: WinWay, names: Sequence[str], lang: str = "zh", viewer: int | None = None) -> str:
    """自摸 / Bob 点炮 / 抢 Bob 的杠 / Bob 开杠翻出的牌 / Bob 亮出的海底牌 (the viewer's own: 你点炮 ...)."""
    _, how, frm = way
    if how == SELF_DRAWN or frm is None or frm >= len(names):
        return tr("way.self", lang)
    if frm == viewer:
        return tr(f"way.{how}.you", lang)
    return tr(f"way.{how}", lang, name=names[frm])


def way_note(
    way: WinWay, named: str, names: Sequence[str], lang: str = "zh", viewer: int | None = None
) -> str:
    """``（自摸）`` / `` (on Bob's discard)`` after a win's hand names ``named`` - nothing for a self-draw
    that a hand name says already (自摸, 自摸加底)."""
    if way[1] == SELF_DRAWN and tr("way.self_named", lang) in named:
        return ""
    return tr("settle.how", lang, how=way_text(way, names, lang, viewer))


def ways_by_settlement(settlements: Sequence[Settlement], ways: Sequence[WinWay]) -> list[dict[int, WinWay]]:
    """For each settlement, how each of its winners won: the wins in the order they were made, matched to
    the win settlements in order (a tile several seats win on at once is one settlement, one way each)."""
    left: dict[int, list[WinWay]] = {}
    for w in ways:
        left.setdefault(w[0], []).append(w)
    out: list[dict[int, WinWay]] = []
    for st in settlements:
        mine: dict[int, WinWay] = {}
        if st.kind == SettleKind.WIN:
            for seat in st.winners:
                queue = left.get(seat)
                if queue:
                    mine[seat] = queue.pop(0)
        out.append(mine)
    return out


def parts_text(rs: Variant, parts: Sequence[Part], lang: str = "zh") -> str:
    """A payment's arithmetic as players read it, in the order it is made: additions joined by " + " (their
    sum shown before a multiplier), multipliers as " · 底分 ×2", a cap, 番 turned into points
    (``清一色 2 + 根 1 = 3 番 → 2^3 = 8 · 底分 ×1``), and the amount."""
    out = ""
    total = 0
    run = 0  # additions since the last other step
    for p in parts:
        name = rs.part_name(p.label, p.count, lang)
        if p.op == Op.ADD:
            term = f"{name} {p.value}"
            out = f"{out} + {term}" if out else term
            total += p.value
            run += 1
            continue
        if run > 1:
            out += f" = {total}"
        run = 0
        if p.op == Op.MUL:
            out += f" · {name} ×{p.value}"
            total *= p.value
        elif p.op == Op.DIV:
            out += f" · {name} ÷{p.value}"
            total = (2 * total + p.value) // (2 * p.value)
        elif p.op == Op.CAP:
            out += f" · {name} {p.value}"
            total = min(total, p.value)
        else:
            out += f" {name} → ×{p.value**total}"  # 3 番 → ×8: what players say, not 2^3
            total = p.value**total
    if len(parts) > 1:
        out += f" = {total}"
    return out


def payment_line(rs: Variant, p: Payment, names: Sequence[str], lang: str = "zh") -> str:
    """``A 付 B 24：清一色 6 + 庄家 1 = 7 · 底分 ×1 · 中鸟1只 ×2 = 14``."""
    line = tr("settle.pay", lang, payer=names[p.payer], payee=names[p.payee], amount=p.amount)
    if p.parts:
        line += tr("settle.how", lang, how=parts_text(rs, p.parts, lang))
    return line


def _bird_line(rs: Variant, s: Settlement, lang: str, nm: Sequence[str]) -> str:
    """The birds, each with the seat it points at (as the variant counted it) when it points at one."""
    parts = []
    for i, b in enumerate(s.birds):
        target = s.bird_seats[i] if i < len(s.bird_seats) else None
        if target is not None:
            parts.append(tr("settle.bird", lang, tile=tile_label(b, lang), name=nm[target]))
        else:
            parts.append(tile_label(b, lang))
    return (
        f"{rs.part_name('bird_tiles', 0, lang)}：{listed(parts, lang)}"
        if lang == "zh"
        else (f"{rs.part_name('bird_tiles', 0, lang)}: {listed(parts, lang)}")
    )


def settlement_view(
    obs: Observation,
    settlement: Settlement,
    lang: str = "zh",
    names: Sequence[str] | None = None,
    ways: dict[int, WinWay] | None = None,
    viewer: int | None = None,
    deltas: bool = True,
) -> str:
    """One scored event: who (and, for a win, how: ``ways``), which hands (by name), the birds (where the
    variant has them), every payment with its arithmetic, and the deltas (unless ``deltas`` is False)."""
    nm = _names(names, obs, lang)
    rs = _variant(obs)
    lines = []
    hands = dict(settlement.hands)
    if settlement.kind == SettleKind.OPENING:
        for w in settlement.winners:
            label = rs.opening_label[0 if lang == "zh" else 1]
            lines.append(
                tr(
                    "settle.opening",
                    lang,
                    label=label,
                    name=nm[w],
                    hands=hand_names(rs, hands.get(w, ()), lang),
                )
            )
    elif settlement.kind == SettleKind.WIN:
        for w in settlement.winners:
            named = hand_names(rs, hands.get(w, ()), lang)
            line = tr("settle.win", lang, name=nm[w], hands=named)
            way = (ways or {}).get(w)
            lines.append(line + (way_note(way, named, nm, lang, viewer) if way is not None else ""))
        for seat, keys in settlement.hands:  # a seat named without winning (杠上炮: the konger's hand)
            if seat not in settlement.winners:
                lines.append(tr("settle.for", lang, name=nm[seat], hands=hand_names(rs, keys, lang)))
    elif settlement.kind == SettleKind.KONG:
        for w in settlement.winners:
            lines.append(tr("settle.kong", lang, name=nm[w], kong=hand_names(rs, hands.get(w, ()), lang)))
    else:
        lines.append(tr("settle.draw", lang))
        lines.extend("  " + line for line in draw_statuses(rs, settlement, nm, lang))
    if settlement.note:
        lines.append("  " + rs.note_label(settlement.note, lang))
    if settlement.birds:
        lines.append("  " + _bird_line(rs, settlement, lang, nm))
    for p in settlement.payments:
        lines.append("  " + payment_line(rs, p, nm, lang))
    if deltas and any(settlement.deltas):  # a check that moved nothing (查叫) says so in its note
        # the seats it moved only: 血流成河 settles a dozen wins a hand, the hand's line below names everyone
        moved = points_text(settlement.deltas, nm, lang, moved=True)
        lines.append("  " + tr("settle.deltas", lang, deltas=moved))
    return "\n".join(lines)


def _aside(text: str, lang: str) -> str:
    """``text`` in brackets after what it qualifies: ``（听 四条）`` / `` (waiting on 4s)``."""
    return f"（{text}）" if lang == "zh" else f" ({text})"


def draw_statuses(
    rs: Variant, settlement: Settlement, names: Sequence[str], lang: str = "zh", *, inline: bool = False
) -> list[str]:
    """Each seat a drawn-hand settlement names, with its status and what it is checked for (查大叫:
    ``Dave：有叫（清一色）``, ``inline``: ``Dave 有叫（清一色）`` for a list on one line; a variant's draw
    settlement lists (seat, (status, *hand names)))."""
    out = []
    key = "end.seat" if inline else "settle.seat"
    for seat, keys in settlement.hands:
        status, checked = hand_names(rs, keys[:1], lang), hand_names(rs, keys[1:], lang)
        line = tr(key, lang, name=names[seat], hands=status)
        out.append(line + (_aside(checked, lang) if checked else ""))
    return out


def winner_names(winners: Sequence[int], names: Sequence[str]) -> list[str]:
    """Each winner once, in the order of his first win, with how often he won where that is more than once
    (血流成河: ``AI 3 ×4``)."""
    counts = Counter(winners)
    return [names[w] + (f" ×{counts[w]}" if counts[w] > 1 else "") for w in dict.fromkeys(winners)]


def result_view(
    obs: Observation,
    lang: str = "zh",
    names: Sequence[str] | None = None,
    ways: Sequence[WinWay] = (),
    viewer: int | None = None,
) -> str:
    """The end of a hand: every settlement (a win with how it was made: ``ways``; ``viewer``: whose result
    it is, to whom his own tile is "yours"), the hands shown, the hand's deltas and the next dealer."""
    nm = _names(names, obs, lang)
    per = ways_by_settlement(obs.settlements, ways)
    res = obs.result
    # one settlement: its points are the hand's, said once below (本局得分)
    each = res is None or sum(1 for s in obs.settlements if any(s.deltas)) > 1
    lines = [settlement_view(obs, s, lang, nm, per[i], viewer, each) for i, s in enumerate(obs.settlements)]
    if res is None:
        return "\n".join(lines)
    if res.reason == "win":  # engine.Outcome.WIN
        lines.append(tr("result.win", lang, names=listed(winner_names(res.winners, nm), lang, names=True)))
    else:
        lines.append(tr("result.draw", lang))
    if any(ps.hand is not None for ps in obs.seats):
        lines.append(tr("result.hands", lang) + ("：" if lang == "zh" else ":"))
        drawn = res.reason != "win" or any(s.kind == SettleKind.DRAW for s in obs.settlements)
        for ps in obs.seats:
            if ps.hand is not None:  # a winner with the tile he won on (a discard's is not in his hand)
                melds = " ".join(meld_label(m, lang) for m in ps.melds)
                # the wall ran out: a ready hand that did not win shows what it waited on
                mark = won_mark(ps, lang) or (ready_mark(obs, ps, lang) if drawn else "")
                line = f"  {nm[ps.seat]}: {tiles_text(ps.hand, lang)} {melds}".rstrip()
                lines.append(line + (_aside(mark, lang) if mark else ""))
    lines.append(tr("result.deltas", lang, deltas=points_text(res.deltas, nm, lang)))
    if res.dealer_note:  # not who players expect: the variant says why
        why = _variant(obs).note_label(res.dealer_note, lang)
        lines.append(tr("result.next_dealer.why", lang, name=nm[res.next_dealer], why=why))
    else:
        lines.append(tr("result.next_dealer", lang, name=nm[res.next_dealer]))
    return "\n".join(lines)


# ------------------------------------------------------------------ events


def _relative(seat: int, viewer: int, n: int, names: Sequence[str], lang: str) -> str:
    """Another seat as ``viewer`` calls it mid-sentence: 下家 Lily / the next player (Lily) (上家, 对家 by the
    table's size)."""
    rel = (seat - viewer) % n
    where = {1: "seat.1", n - 1: "seat.3"}.get(rel, "seat.2") if n > 2 else "seat.2"
    name = names[seat] if seat < len(names) else ""
    said = tr(where, lang)
    return tr("seat.rel", lang, where=said if lang == "zh" else said[:1].lower() + said[1:], name=name)


def _mode(mode: KongMode | None, lang: str) -> str:
    return tr(f"mode.{mode.value}", lang) if mode in (KongMode.BU, KongMode.KAI) and mode is not None else ""


@dataclass(slots=True)  # one made per line: not frozen, which is slower to make
class _Seen:
    """An event as one viewer sees it (another seat's private tile dropped), with the words every line is
    made of: the acting seat's name and the event's tile as this viewer calls them."""

    ev: Event
    viewer: int
    lang: str
    nm: Sequence[str]  # every seat's name as the viewer calls it
    seats: int  # the table's size
    name: str  # the acting seat's name ("" for none)
    tile: str | None  # the event's tile, if the viewer sees it
    own: bool  # the viewer's own event
    rs: Variant | None  # the variant, for hand names and choice labels
    narrated: bool = False  # a finished hand told again (the replay): seats by name, not as "you"

    def tr(self, key: str, **kw: object) -> str:
        return tr(key, self.lang, **kw)

    def hands(self, keys: Sequence[str]) -> str:
        return hand_names(self.rs, keys, self.lang) if self.rs is not None else " + ".join(keys)


def _no_line(s: _Seen) -> None:
    """Answers to a claim window, settlements and the end (the table and the result tell them, and who
    passed would tell the others about a hidden hand); a 血战 hand going on (the table shows it)."""
    return None


def _passed_win_line(s: _Seen) -> str | None:
    """A passed win, to its own seat only."""
    return s.tr("ev.passed_win") if s.own else None


def _draw_line(s: _Seen) -> str:
    if s.ev.kong:
        return (
            s.tr("ev.draw.kong", name=s.name, tile=s.tile)
            if s.tile
            else s.tr("ev.draw.kong.hidden", name=s.name)
        )
    return s.tr("ev.draw", name=s.name, tile=s.tile) if s.tile else s.tr("ev.draw.hidden", name=s.name)


def _discard_line(s: _Seen) -> str:
    return s.tr("ev.discard.auto" if s.ev.auto else "ev.discard", name=s.name, tile=s.tile)


def _pung_line(s: _Seen) -> str:
    return s.tr("ev.pung", name=s.name, tile=s.tile)


def _chow_line(s: _Seen) -> str:
    meld = meld_label(s.ev.meld, s.lang) if s.ev.meld else ""
    return s.tr("ev.chow", name=s.name, tile=s.tile, meld=meld)


def _kong_line(s: _Seen) -> str:
    """A concealed kong's tile is shown to its own seat only (and only when the event carries it)."""
    ev = s.ev
    concealed = ev.meld is None or ev.meld.kind == MeldKind.KONG_CONCEALED
    shown = s.rs is not None and s.rs.concealed_kong_shown  # 邵阳: 暗杠亮一张, everyone sees its tile
    if concealed and (not (s.own or shown) or ev.tile is None):
        return s.tr("ev.kong.concealed", name=s.name, mode=_mode(ev.mode, s.lang))
    if concealed:
        return s.tr("ev.kong.concealed.tile", name=s.name, tile=s.tile, mode=_mode(ev.mode, s.lang))
    return s.tr("ev.kong", name=s.name, tile=s.tile, mode=_mode(ev.mode, s.lang))


def _kong_declared_line(s: _Seen) -> str:
    return s.tr("ev.kong_declared", name=s.name, tile=s.tile)


def _rob_passed_line(s: _Seen) -> str:
    return s.tr("ev.rob_passed", name=s.name)


def _dice_line(s: _Seen) -> str:
    return s.tr("ev.dice", name=s.name, detail="+".join(str(d) for d in s.ev.dice))


def _kong_tiles_line(s: _Seen) -> str:
    return s.tr("ev.kong_tiles", name=s.name, tiles=tiles_label(s.ev.tiles, s.lang))


def _kong_tiles_fall_line(s: _Seen) -> str:
    return s.tr("ev.kong_tiles_fall", name=s.name, tiles=tiles_label(s.ev.tiles, s.lang))


def _win_line(s: _Seen) -> str:
    shown = s.hands(s.ev.hands) if s.ev.hands else ""
    wrapped = (f"（{shown}）" if s.lang == "zh" else f" ({shown})") if shown else ""
    if s.tile:
        return s.tr("ev.win", name=s.name, tile=s.tile, hands=wrapped)
    return s.tr("ev.win.notile", name=s.name, hands=wrapped)


def _opening_line(s: _Seen) -> str:
    label = s.rs.opening_label if s.rs is not None else ("起手小胡", "opening hands")  # 衡阳: 扳牌
    return s.tr("ev.opening", name=s.name, label=label[0 if s.lang == "zh" else 1], hands=s.hands(s.ev.hands))


def _opening_pass_line(s: _Seen) -> str:
    return s.tr("ev.opening.pass", name=s.name)


def _chosen_line(s: _Seen) -> str:
    return s.tr("ev.chosen", name=s.name)


def _choices_line(s: _Seen) -> str:
    """Every seat's pre-hand choice, once all are made (定缺, 飘, 加锤), in the variant's words."""
    rs, nm, lang = s.rs, s.nm, s.lang
    picked = [
        f"{nm[i]} {choice_text(rs, c, lang) if rs is not None else c}"
        for i, c in enumerate(s.ev.choices)
        if c is not None and i < len(nm)
    ]
    title = rs.choice_title(lang) if rs is not None else tr("prompt.choose", lang)
    return s.tr("ev.choices", what=title, picked=listed(picked, lang, names=True))


def _haidi_offer_line(s: _Seen) -> str:
    return s.tr("ev.haidi_offer", name=s.name)


def _haidi_take_line(s: _Seen) -> str:
    return (
        s.tr("ev.haidi_take", name=s.name, tile=s.tile)
        if s.tile
        else s.tr("ev.haidi_take.hidden", name=s.name)
    )


def _haidi_refuse_line(s: _Seen) -> str:
    return s.tr("ev.haidi_refuse", name=s.name)


def _haidi_show_line(s: _Seen) -> str:
    return s.tr("ev.haidi_show", name=s.name, tile=s.tile)


def _variant_line(s: _Seen) -> str | None:
    """A variant's own event in its words; tiles passed between seats (换三张) are a line for the seat that
    passed them only: the others learn the direction from the variant's public line, never the tiles."""
    ev, lang = s.ev, s.lang
    text = s.rs.note_label(ev.note, lang) if s.rs is not None else ev.note
    if ev.from_seat is not None and ev.to_seat is not None:
        tiles = tiles_label(ev.tiles, lang)
        if s.narrated:  # whose tiles went where, by name
            to, frm = s.nm[ev.to_seat], s.nm[ev.from_seat]
            return s.tr("ev.passed_by", what=text, name=s.name, n=len(ev.tiles), to=to, frm=frm, tiles=tiles)
        if not s.own:
            return None
        to = _relative(ev.to_seat, s.viewer, s.seats, s.nm, lang)
        frm = _relative(ev.from_seat, s.viewer, s.seats, s.nm, lang)
        return s.tr("ev.passed", what=text, n=len(ev.tiles), to=to, frm=frm, tiles=tiles)
    if ev.tiles and s.own:  # a seat's own part of it
        text += " " + tiles_label(ev.tiles, lang)
    return f"{s.name} {text}".strip() if s.name else text


# every kind of event's line (a kind missing here has none)
_EVENT_LINES: dict[EventKind, Callable[[_Seen], str | None]] = {
    EventKind.ANSWER: _no_line,
    EventKind.SETTLE: _no_line,
    EventKind.END: _no_line,
    EventKind.CONTINUE: _no_line,
    EventKind.PASSED_WIN: _passed_win_line,
    EventKind.DRAW: _draw_line,
    EventKind.DISCARD: _discard_line,
    EventKind.PUNG: _pung_line,
    EventKind.CHOW: _chow_line,
    EventKind.KONG: _kong_line,
    EventKind.KONG_DECLARED: _kong_declared_line,
    EventKind.ROB_PASSED: _rob_passed_line,
    EventKind.DICE: _dice_line,
    EventKind.KONG_TILES: _kong_tiles_line,
    EventKind.KONG_TILES_FALL: _kong_tiles_fall_line,
    EventKind.WIN: _win_line,
    EventKind.OPENING: _opening_line,
    EventKind.OPENING_PASS: _opening_pass_line,
    EventKind.CHOSEN: _chosen_line,
    EventKind.CHOICES: _choices_line,
    EventKind.HAIDI_OFFER: _haidi_offer_line,
    EventKind.HAIDI_TAKE: _haidi_take_line,
    EventKind.HAIDI_REFUSE: _haidi_refuse_line,
    EventKind.HAIDI_SHOW: _haidi_show_line,
    EventKind.VARIANT: _variant_line,
}


def event_line(
    event: Event,
    viewer: int,
    lang: str = "zh",
    names: Sequence[str] | None = None,
    variant: str | None = None,
    *,
    narrated: bool = False,
) -> str | None:
    """One line for what ``viewer`` learns from ``event`` (None: nothing worth a line). ``variant``: the
    variant id, for hand names and choice labels (ids shown as they are without it). ``narrated``: a
    finished hand told again (the replay, where every tile is public by then), seats by their names.

    Private tiles of other seats are dropped; answers to a claim window (who passed, who passed a win)
    are shown to their own seat only, as they would tell the others about a hidden hand. Every kind of
    event has its words: no engine notation or seat number ever reaches a player."""
    seats = len(names) if names else 4
    nm = seat_names(names, seats, viewer, lang)  # a table of 2 or 3 has its own
    ev = event if event.visible_to(viewer) else event.public()
    seat = ev.seat
    name = nm[seat] if seat is not None and seat < len(nm) else ""
    tile = tile_label(ev.tile, lang) if ev.tile is not None else None
    rs = get_variant(variant) if variant else None
    line = _EVENT_LINES.get(ev.kind)
    seen = _Seen(ev, viewer, lang, nm, seats, name, tile, seat == viewer, rs, narrated)
    return None if line is None else line(seen)


__all__ = [
    "action_label",
    "pick_action",
    "pick_extends",
    "tile_pick",
    "choices",
    "claim_prompt",
    "context_lines",
    "describe_claim_option",
    "event_line",
    "hand_names",
    "hand_view",
    "meld_label",
    "parse_choice",
    "parts_text",
    "payment_line",
    "prompt",
    "result_view",
    "run_label",
    "seat_names",
    "settlement_view",
    "table_view",
    "tile_label",
    "tile_short",
    "tiles_text",
    "turn_line",
    "waits_lines",
]
