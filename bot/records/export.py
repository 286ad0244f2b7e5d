"""A finished hand as JSON Lines (``/export``): one JSON object a line, made from the engine's typed events
as the hand is replayed from its log. Names follow mjai where mjai has one (``start_game``,
``start_kyoku``, ``tsumo``, ``dahai``, ``chi``, ``pon``, ``daiminkan``, ``kakan``, ``ankan``, ``hora``,
``ryukyoku``, ``end_kyoku``, ``end_game``); everything mjai has no word for is namespaced ``mj:`` (定缺 /
飘 / 加锤 choices, 起手小胡, birds, 海底, dice, settlements, a variant's own events such as 换三张). Each
action comes first as an ``mj:action`` line with the engine's notation, so the file replays through the
engine on its own: ``parse`` reads one back and ``hand_jsonl`` of what it returns gives the same bytes.
The format is documented in docs/export.md.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import engine
from engine import Event, EventKind, MeldKind, Phase
from engine.verify import commitment

FORMAT = "hunan-mahjong-export/1"
_HONORS = "ESWNPFC"  # 东南西北白发中, as mjai writes them
# the pre-hand choice a variant asks about, by the head of its question (its words, not its name)
_CHOICE_KINDS = {"定缺": "dingque", "加飘": "piao", "加锤": "jiachui"}


@dataclass(frozen=True, slots=True)
class HandRecord:
    """Everything an export is made from: the hand's identity, its deal and its actions."""

    variant: str
    code: str
    table: int
    number: int
    names: tuple[str, ...]
    seed: int
    salt: str | None
    options: Mapping[str, Any]
    dealer: int | None  # the given dealer (None: drawn from the seed)
    seats: int
    actions: tuple[str, ...]


def pai(tile: int) -> str:
    """A tile in mjai's notation: ``5m`` ``5p`` ``5s``, honors ``E S W N P F C``."""
    text = engine.tile_str(tile)
    return _HONORS[int(text[0]) - 1] if text.endswith("z") else text


def _pais(tiles: Sequence[int]) -> list[str]:
    return [pai(t) for t in tiles]


def _tiles_of(counts: Sequence[int]) -> list[str]:
    return [pai(t) for t in range(len(counts)) for _ in range(counts[t])]


def _choice_kind(rs: engine.Variant) -> str:
    question = rs.choice_question[0] if rs.choice_question else ""
    return _CHOICE_KINDS.get(question.split("：")[0], "choices")


def _settlement(st: engine.Settlement) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    if st.birds:
        out.append({"type": "mj:birds", "pais": _pais(st.birds), "seats": list(st.bird_seats)})
    out.append(
        {
            "type": "mj:settle",
            "kind": st.kind.value,
            "winners": list(st.winners),
            "hands": [[seat, list(names)] for seat, names in st.hands],
            "payments": [[p.payer, p.payee, p.amount, p.hits] for p in st.payments],
            "deltas": list(st.deltas),
            **({"note": st.note} if st.note else {}),
        }
    )
    return out


def _target(ev: Event, before: engine.State) -> int | None:
    """The seat a claim or a win took its tile from: the discarder of a claim window, else the actor."""
    return before.claim.from_seat if before.phase == Phase.CLAIM and before.claim is not None else ev.seat


def _fields(ev: Event, kind: str) -> dict[str, Any]:
    """An event mjai has no word for: its type and whichever of its fields it has."""
    obj: dict[str, Any] = {"type": kind}
    if ev.seat is not None:
        obj["actor"] = ev.seat
    if ev.tile is not None:
        obj["pai"] = pai(ev.tile)
    if ev.tiles:
        obj["pais"] = _pais(ev.tiles)
    if ev.dice:
        obj["dice"] = list(ev.dice)
    if ev.hands:
        obj["hands"] = list(ev.hands)
    if ev.answer is not None:
        obj["answer"] = ev.answer.value
    if ev.wins:
        obj["wins"] = ev.wins
    return obj


def _plain(ev: Event, before: engine.State, rs: engine.Variant) -> list[dict[str, Any]]:
    return [_fields(ev, f"mj:{ev.kind.value}")]


def _variant_event(ev: Event, before: engine.State, rs: engine.Variant) -> list[dict[str, Any]]:
    """A variant's own event (换三张 ...), named by its note."""
    return [_fields(ev, f"mj:{ev.note}" if ev.note else "mj:variant")]


def _tsumo(ev: Event, before: engine.State, rs: engine.Variant) -> list[dict[str, Any]]:
    return [{"type": "tsumo", "actor": ev.seat, "pai": pai(ev.tile) if ev.tile is not None else "?",
             **({"rinshan": True} if ev.kong else {})}]  # fmt: skip


def _dahai(ev: Event, before: engine.State, rs: engine.Variant) -> list[dict[str, Any]]:
    if ev.tile is None:
        return _plain(ev, before, rs)
    drawn = before.current == ev.seat and before.drawn == ev.tile
    return [{"type": "dahai", "actor": ev.seat, "pai": pai(ev.tile), "tsumogiri": drawn,
             **({"mj:auto": True} if ev.auto else {})}]  # fmt: skip


_KONG_NAMES = {MeldKind.KONG_CONCEALED: "ankan", MeldKind.KONG_ADDED: "kakan"}  # else daiminkan


def _meld(ev: Event, before: engine.State, rs: engine.Variant) -> list[dict[str, Any]]:
    """chi / pon / daiminkan / kakan / ankan: the claimed or added tile (``pai``) apart from the tiles it
    joined (``consumed``); a concealed kong shows no ``pai``, a claim its ``target``."""
    if ev.meld is None:
        return _plain(ev, before, rs)
    if ev.kind == EventKind.CHOW:
        name = "chi"
    elif ev.kind == EventKind.PUNG:
        name = "pon"
    else:
        name = _KONG_NAMES.get(ev.meld.kind, "daiminkan")
    tiles = list(ev.meld.tiles)
    obj: dict[str, Any] = {"type": name, "actor": ev.seat}
    if name in ("chi", "pon", "daiminkan"):
        obj["target"] = ev.meld.from_seat if ev.meld.from_seat is not None else _target(ev, before)
    if ev.tile is not None and name != "ankan":
        obj["pai"] = pai(ev.tile)
        if ev.tile in tiles:
            tiles.remove(ev.tile)
    obj["consumed"] = _pais(tiles)
    if ev.mode:
        obj["mj:mode"] = ev.mode.value
    return [obj]


def _hora(ev: Event, before: engine.State, rs: engine.Variant) -> list[dict[str, Any]]:
    obj = {"type": "hora", "actor": ev.seat, "target": _target(ev, before), "hands": list(ev.hands)}
    if ev.tile is not None:
        obj["pai"] = pai(ev.tile)
    return [obj]


def _settle(ev: Event, before: engine.State, rs: engine.Variant) -> list[dict[str, Any]]:
    return _plain(ev, before, rs) if ev.settlement is None else _settlement(ev.settlement)


def _end(ev: Event, before: engine.State, rs: engine.Variant) -> list[dict[str, Any]]:
    """``end_kyoku``, after a ``ryukyoku`` when the hand ended without a win."""
    r = ev.result
    if r is None:
        return _plain(ev, before, rs)
    out: list[dict[str, Any]] = []
    if r.reason != engine.Outcome.WIN:
        out.append({"type": "ryukyoku", "deltas": list(r.deltas)})
    out.append({"type": "end_kyoku", "reason": r.reason.value, "winners": list(r.winners),
                "deltas": list(r.deltas), "mj:next_dealer": r.next_dealer})  # fmt: skip
    return out


def _choices(ev: Event, before: engine.State, rs: engine.Variant) -> list[dict[str, Any]]:
    return [{"type": f"mj:{_choice_kind(rs)}", "choices": list(ev.choices)}]


# the kinds with lines of their own; every other kind is ``mj:<kind>`` with its fields (``_plain``)
_OBJECTS: dict[EventKind, Callable[[Event, engine.State, engine.Variant], list[dict[str, Any]]]] = {
    EventKind.DRAW: _tsumo,
    EventKind.DISCARD: _dahai,
    EventKind.CHOW: _meld,
    EventKind.PUNG: _meld,
    EventKind.KONG: _meld,
    EventKind.WIN: _hora,
    EventKind.SETTLE: _settle,
    EventKind.END: _end,
    EventKind.CHOICES: _choices,
    EventKind.VARIANT: _variant_event,
}


def event_objects(ev: Event, before: engine.State, rs: engine.Variant) -> list[dict[str, Any]]:
    """The lines one engine event becomes (``before``: the state the action was applied to)."""
    return _OBJECTS.get(ev.kind, _plain)(ev, before, rs)


def _dumps(obj: Mapping[str, Any]) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


def hand_jsonl(rec: HandRecord) -> str:
    """The export: ``start_game`` (the hand's identity, seed and commitment), ``start_kyoku`` (the deal),
    then per action its ``mj:action`` line and its events, then ``end_game``."""
    rs = engine.get_variant(rec.variant)
    state = engine.new_hand(rs, rec.seed, rec.options, rec.dealer, rec.seats)
    head: dict[str, Any] = {
        "type": "start_game",
        "format": FORMAT,
        "variant": rec.variant,
        "hand": rec.code,
        "table": rec.table,
        "number": rec.number,
        "names": list(rec.names),
        "seats": rec.seats,
        "options": dict(rec.options),
        "seed": rec.seed,
        "mj:dealer_given": rec.dealer is not None,
    }
    if rec.salt:
        head["salt"] = rec.salt
        head["commitment"] = commitment(rec.table, rec.number, rec.seed, rec.salt)
    lines = [_dumps(head)]
    lines.append(_dumps({"type": "start_kyoku", "oya": state.dealer,
                         "tehais": [_tiles_of(seat.counts) for seat in state.seats]}))  # fmt: skip
    for seq, text in enumerate(rec.actions, 1):
        action = engine.Action.parse(text)
        lines.append(_dumps({"type": "mj:action", "seq": seq, "actor": action.seat, "notation": text}))
        before = state
        state, events = engine.apply(before, action)
        for ev in events:
            lines.extend(_dumps(obj) for obj in event_objects(ev, before, rs))
    final = state.result.deltas if state.result is not None else [0] * state.num_seats
    lines.append(_dumps({"type": "end_game", "scores": list(final)}))
    return "\n".join(lines) + "\n"


def parse(text: str) -> HandRecord:
    """The record an export was made from (its ``start_game`` and ``mj:action`` lines); ValueError if it
    is not one."""
    objs = [json.loads(line) for line in text.splitlines() if line.strip()]
    if not objs or objs[0].get("type") != "start_game" or objs[0].get("format") != FORMAT:
        raise ValueError("not a hand export")
    h = objs[0]
    actions = tuple(o["notation"] for o in objs if o.get("type") == "mj:action")
    dealer = None
    if h.get("mj:dealer_given"):
        dealer = next(int(o["oya"]) for o in objs if o.get("type") == "start_kyoku")
    return HandRecord(
        variant=str(h["variant"]),
        code=str(h["hand"]),
        table=int(h["table"]),
        number=int(h["number"]),
        names=tuple(h["names"]),
        seed=int(h["seed"]),
        salt=h.get("salt"),
        options=dict(h["options"]),
        dealer=dealer,
        seats=int(h["seats"]),
        actions=actions,
    )


__all__ = ["FORMAT", "HandRecord", "event_objects", "hand_jsonl", "pai", "parse"]
