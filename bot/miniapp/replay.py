"""The Mini App's replay viewer and 大结算: what the page draws for a finished hand's code, step by step, and
for a room that has closed.

A replay has the rights of /replay in a private chat (bot/records/history.py ``History.find``): a player of
the hand or a member of its group, and only a finished hand. Its steps are those of the chat's replay (a
pass on a claim joins the next step); each step is a frame in the stream's own format (protocol.py) with
every hand shown, as the chat's replay shows them, and the moves of that step as lines.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import engine
from bot.miniapp import protocol
from bot.records.history import History
from bot.table.feed import HandView
from bot.table.runtime import TableRuntime
from bot.table.service import TableService
from bot.text import nightview, render, views
from storage import StorageError

MAX_STEPS = 400


async def replay(service: TableService, code: str, user_id: int, lang: str) -> dict[str, Any] | str:
    """The hand's steps as frames, or the refusal to show (a text)."""
    found = await service.history.find(code, user_id, None, "replay", lang)
    if isinstance(found, str):
        return found
    hand = found.hand
    rs = engine.get_variant(found.table.variant)
    names = tuple(await service.history._names(hand.seats, lang))
    steps = History.steps(found)[:MAX_STEPS]
    state = engine.new_hand(rs, hand.seed, hand.options, hand.dealer_arg, len(hand.seats))
    frames: list[dict[str, Any]] = []
    done = 0
    for upto in steps:
        lines: list[str] = []
        while done < upto:
            state, events = engine.apply(state, engine.Action.parse(found.actions[done]))
            done += 1
            lines += views.replay_lines(events, lang, names, rs.id)
        obs = engine.observe_public(state)
        shown = tuple(  # a finished hand: every hand, as the chat's replay shows them
            dataclasses.replace(ps, hand=tuple(x for x in range(len(s.counts)) for _ in range(s.counts[x])))
            for ps, s in zip(obs.seats, state.seats, strict=True)
        )
        obs = dataclasses.replace(obs, seats=shown)
        result: tuple[str, ...] = ()
        if state.phase == engine.Phase.ENDED:
            result = tuple(render.result_view(engine.observe_public(state), lang, list(names)).split("\n"))
        view = HandView(
            table_id=hand.table_id, hand_id=hand.id, hand_no=hand.number, variant=rs.id,
            title=views.variant_name(rs, lang), lang=lang, seat=None, obs=obs, names=names, auto=frozenset(),
            decision=None, clock=None, recent=tuple(lines[-6:]), result=result,
        )  # fmt: skip
        frames.append(protocol.hand_frame(view))
    return {"code": hand.code, "steps": frames}


async def final(service: TableService, rt: TableRuntime, lang: str) -> str | None:
    """A closed room's 大结算 (as bot/table/night.py posts it in the chats), or None without a hand."""
    try:
        rows = await service.storage.table_stats(rt.id)
    except StorageError:
        return None
    if not rows:
        return None
    missing = {r.user_id for r in rows if r.user_id is not None and r.user_id not in service.people.names}
    if missing:
        await service.people.load(missing)
    stopped = not (rt.settings.rounds and rt.hands_played >= rt.settings.rounds)
    return nightview.room_final(rt.variant, rt.id, rows, service.people.name, stopped, lang)
