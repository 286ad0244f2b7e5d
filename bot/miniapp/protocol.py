"""The stream's frames (server → page) and the page's requests (page → server), as JSON.

A frame is a whole snapshot of what one viewer may see (bot/table/feed.py's ``HandView`` or ``LobbyView``),
never a difference: a page that reconnects, or a worker that took the table over, sends the current frame and
the page is where it should be. Frames are made only from the viewer's view (``observe(state, seat)`` or the
public observation): the byte-equality test (tests/test_miniapp_security.py) holds them to it.

Tiles are one character each (``TILES[t]``), so a frame stays far below 2 KB: a tile list is a string.
The page's requests are small JSON objects with an ``op`` and whole numbers checked here (``parse``); anything
else is refused.
"""

from __future__ import annotations

import json
from typing import Any

from bot.table.feed import Decision, HandView, LobbyView
from bot.table.vote import VoteView
from bot.text import render, texts
from engine import Act, Observation, Phase, get_variant
from engine.observe import still_revealed

TILES = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefgh"  # tile 0..33 (1m..9m, 1s..9s, 1p..9p, 东南西北白发中)
MAX_FRAME_IN = 2048  # bytes of one request from a page
MAX_INT = 10**15


def tiles(ts: tuple[int, ...] | list[int]) -> str:
    return "".join(TILES[t] for t in ts)


def dumps(obj: object) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


def _seat(obs: Observation, i: int, lang: str) -> dict[str, Any]:
    ps = obs.seats[i]
    out: dict[str, Any] = {
        "n": ps.hand_size,
        "m": [[int(m.kind), TILES[m.tile], -1 if m.from_seat is None else m.from_seat] for m in ps.melds],
        "d": tiles(ps.discards),
    }
    if ps.concealed_kongs and ps.concealed_kongs > sum(1 for m in ps.melds if int(m.kind) == 4):
        out["ck"] = ps.concealed_kongs - sum(1 for m in ps.melds if int(m.kind) == 4)
    if ps.hand is not None:
        out["h"] = tiles(ps.hand)
    if ps.choice and ps.choice != "0":  # 缺筒 / void dots, 飘2; not 不飘 / no hammer on every seat
        out["c"] = render.choice_text(get_variant(obs.variant), ps.choice, lang)
    if ps.declared:  # 起手小胡 declared, by name: 四喜 + 六六顺
        out["dec"] = render.hand_names(get_variant(obs.variant), ps.declared, lang)
    shown = still_revealed(ps)[: ps.hand_size]  # 起手小胡's tiles, face up while they are in his hand
    if shown and ps.hand is None:
        out["r"] = tiles(shown)
    if ps.won:
        out["won"] = 1
    if ps.wins:
        out["w"] = ps.wins
    if ps.locked:
        out["lk"] = 1
    return out


def _board(v: HandView, obs: Observation) -> dict[str, Any]:
    """The viewer's own tiles (the drawn one apart) and what lies on the table for everyone to see."""
    f: dict[str, Any] = {}
    if v.seat is not None:
        hand = list(obs.hand)
        if obs.drawn is not None and obs.drawn in hand:
            hand.remove(obs.drawn)
            f["drawn"] = TILES[obs.drawn]
        f["hand"] = tiles(hand)
    last = render.on_the_river(obs)  # not once it is claimed: it lies in a meld now
    if last is not None:
        f["last"] = [last[0], TILES[last[1]]]
    if obs.claim_tile is not None and obs.claim_from is not None:
        f["claim"] = [obs.claim_from, TILES[obs.claim_tile]]
    if obs.kong_tiles:
        f["kt"] = tiles(obs.kong_tiles)
    if obs.choice_stage:
        f["stage"] = obs.choice_stage
    return f


def _pick(obs: Observation, d: Decision) -> dict[str, Any]:
    """A pick-tiles choice (换三张): the positions picked, those that may still be (``can``), the choice the
    picked tiles make once complete (``done``) and a suggested one (``sug``)."""
    hand_all = list(obs.hand)
    chosen = [hand_all[i] for i in sorted(d.picked) if i < len(hand_all)]
    out: dict[str, Any] = {"pick": d.pick, "picked": sorted(d.picked)}
    out["can"] = [
        i for i, t in enumerate(hand_all) if i in d.picked or render.pick_extends(obs, [*chosen, t])
    ]
    done = render.pick_action(obs, chosen)
    if done is not None and done in d.legal:
        out["done"] = [d.legal.index(done), d.labels[d.legal.index(done)]]
    choose = [i for i, a in enumerate(d.legal) if a.act == Act.CHOOSE]
    if choose:
        out["sug"] = [choose[0], d.labels[choose[0]]]
    return out


def _decision(obs: Observation, d: Decision, lang: str, names: tuple[str, ...]) -> dict[str, Any]:
    """The viewer's open decision: tiles to pick, or one button per legal action; ``ask``, what it asks (the
    chat panel's question: 海底 and its risk, 飘 / 加锤 / 定缺 explained, a claim's tile)."""
    dec: dict[str, Any] = {"hid": d.hand_id, "since": d.since, "dl": round(d.deadline, 1)}
    ask = render.prompt(obs, lang, list(names))
    if ask and ask != texts.t("prompt.turn", lang):  # a plain turn: the page says how to discard
        dec["ask"] = ask
    if d.pick:
        dec.update(_pick(obs, d))
    else:
        dec["acts"] = [
            [a.act.value, TILES[a.tile] if a.tile is not None else "", label]
            for a, label in zip(d.legal, d.labels, strict=True)
        ]
    return dec


def _ending(v: HandView, obs: Observation) -> dict[str, Any]:
    """The result of an ended hand with its deltas and winners; the winning tiles, once there are any."""
    f: dict[str, Any] = {}
    if obs.phase == Phase.ENDED:
        f["result"] = list(v.result)
        if obs.result is not None:
            f["deltas"] = list(obs.result.deltas)
            f["winners"] = list(obs.result.winners)
    won = [[i, TILES[t]] for i, ps in enumerate(obs.seats) for t in ps.won_on if t >= 0]
    if obs.phase == Phase.ENDED or won:
        f["wt"] = won
    return f


def hand_frame(v: HandView) -> dict[str, Any]:
    """A hand in play as one viewer sees it."""
    obs = v.obs
    f: dict[str, Any] = {
        "k": "hand",
        "tid": v.table_id,
        "hid": v.hand_id,
        "no": v.hand_no,
        "v": v.variant,
        "title": v.title,
        "lang": v.lang,
        "me": v.seat,
        "ph": obs.phase.value if hasattr(obs.phase, "value") else str(obs.phase),
        "cur": obs.current,
        "dealer": obs.dealer,
        "wall": obs.wall_remaining,
        "names": list(v.names),
        "turn": render.turn_line(obs, v.lang, v.names),  # 轮到 X 出牌 / waiting for answers to 5m from X
        "seats": [_seat(obs, i, v.lang) for i in range(len(obs.seats))],
        **_board(v, obs),
    }
    if v.decision is not None:
        f["dec"] = _decision(obs, v.decision, v.lang, v.names)
    if v.clock is not None:
        f["clock"] = [list(v.clock[0]), round(v.clock[1], 1)]
    if v.auto:
        f["auto"] = sorted(v.auto)
    if v.recent:
        f["recent"] = list(v.recent)
    if v.note:
        f["note"] = v.note
    f.update(_ending(v, obs))
    if v.vote is not None:
        f["vote"] = vote_frame(v.vote)
    return f


def vote_frame(v: VoteView) -> dict[str, Any]:
    """A stop vote in progress: its number, who asked, who agreed / refused / has not answered, how many
    agreements stop the table, its deadline (and how a silence counts then: ``sa``), and whether the viewer
    may answer (``can``)."""
    f: dict[str, Any] = {
        "n": v.number, "by": v.asker, "yes": list(v.yes), "no": list(v.no), "wait": list(v.waiting),
        "need": v.need, "until": round(v.until, 1),
    }  # fmt: skip
    if v.may_answer:
        f["can"] = 1
    if v.silent_agree:
        f["sa"] = 1  # at the deadline, whoever has not answered counts as agreeing
    return f


def lobby_frame(v: LobbyView) -> dict[str, Any]:
    f: dict[str, Any] = {
        "k": "lobby",
        "tid": v.table_id,
        "v": v.variant,
        "title": v.title,
        "lang": v.lang,
        "me": v.seat,
        "names": list(v.seats),
        "seated": [int(s) for s in v.seated],
        "ready": list(v.ready),
        "played": v.hands_played,
        "rounds": v.rounds,
    }
    if v.ready_until is not None:
        f["until"] = round(v.ready_until, 1)
    if v.summary:
        f["summary"] = v.summary
    if v.closed:
        f["closed"] = 1
    if v.host:
        f["host"] = 1
    elif v.starter and not v.closed:
        f["hn"] = v.starter  # who starts the hand
    if v.totals:
        f["pts"] = list(v.totals)  # the standings, beside the names
    if v.last_code:
        f["lc"] = v.last_code  # the last hand, for its replay from the menu
    if not v.closed and "" in v.seats:  # empty seats: who takes them at the start
        f["ai"] = v.ai_level
    if v.vote is not None:
        f["vote"] = vote_frame(v.vote)
    return f


def frame(v: HandView | LobbyView) -> str:
    return dumps(hand_frame(v) if isinstance(v, HandView) else lobby_frame(v))


# ------------------------------------------------------------------ requests from the page

ACTIONS = frozenset({"act", "pick", "ready", "start", "back", "auto", "stop", "vote"})
OPS = ACTIONS | {"hello", "vis", "ping"}


class BadRequest(Exception):
    pass


def _int(obj: dict[str, Any], key: str) -> int:
    value = obj.get(key)
    if type(value) is not int or not 0 <= value < MAX_INT:
        raise BadRequest(key)
    return value


def parse(raw: str | bytes) -> dict[str, Any]:
    """A request as a dict with a known ``op`` and checked fields, or ``BadRequest``."""
    if len(raw) > MAX_FRAME_IN:
        raise BadRequest("too long")
    try:
        obj = json.loads(raw)
    except (ValueError, RecursionError):  # not JSON, or nested deeper than the parser goes
        raise BadRequest("not JSON") from None
    if not isinstance(obj, dict) or not isinstance(obj.get("op"), str) or obj["op"] not in OPS:
        raise BadRequest("op")
    op = obj["op"]
    out: dict[str, Any] = {"op": op}
    if op == "hello":
        init, token = obj.get("init"), obj.get("t")
        if not isinstance(init, str) or not isinstance(token, str):
            raise BadRequest("hello")
        out.update(init=init, t=token, vis=obj.get("vis") is not False)
    elif op == "vis":
        out["on"] = obj.get("on") is True
    elif op in ("act", "pick"):
        out.update(hid=_int(obj, "hid"), since=_int(obj, "since"), i=_int(obj, "i"))
    elif op == "vote":  # an answer to stop vote ``vote``: ``agree`` 1 or 0
        out.update(vote=_int(obj, "vote"), agree=_int(obj, "agree"))
        if out["agree"] not in (0, 1):
            raise BadRequest("agree")
    if op in ACTIONS:  # the action endpoint: the initData and the table come with each one
        out.update(init=obj.get("init"), t=obj.get("t"))
    return out
