"""After a restart: rebuild every open table from storage and carry on where it stopped.

Hands are replayed from the action log (``storage.restore``); a hand that no longer replays is abandoned
and its table goes back to its lobby. The group's messages of before are edited in place, the players get
their panels afresh, timers are re-armed, and AI seats make any moves they had not made yet.
"""

from __future__ import annotations

import logging

from engine import Phase
from storage import Storage, StorageError

from .meta import Meta
from .people import People
from .play import Play
from .present import Presenter
from .runtime import TableRuntime, Tables, score_key

log = logging.getLogger(__name__)


async def restore_tables(
    storage: Storage, meta: Meta, tables: Tables, people: People, present: Presenter, play: Play
) -> None:
    """Rebuild every open table from storage (hands replayed from the action log) and go on."""
    restored = await storage.restore()
    users = {u for r in restored for u in r.table.seats if u is not None}
    users |= {u for r in restored if r.hand is not None for u in r.hand.seats if u is not None}
    await people.load(users)
    for r in restored:
        tm = meta.table(r.table.id)
        rt = TableRuntime(r.table, tm, list(r.table.seats), dict(r.table.options))
        tables.add(rt)
        present.adopt(rt)
        await load_totals(storage, rt)
        async with rt.lock:
            if r.error is not None and r.hand is not None:
                # the reason quotes the logged action, which may be a hidden tile: not in logs or chats
                log.warning("table %s: hand %s does not replay; abandoned", rt.id, r.hand.id)
                try:
                    await storage.abandon_hand(r.hand.id, "does not replay")
                except StorageError as e:
                    log.warning("table %s: %s", rt.id, e)
                present.note_group(rt, "note.restore_failed")
                present.show_lobby(rt, fresh=True)
            elif r.state is None or r.hand is None or r.state.phase == Phase.ENDED:
                present.show_lobby(rt)
            else:
                rt.hand, rt.state = r.hand, r.state
                tm.auto = [s for s in tm.auto if s < r.state.num_seats]
                present.note_group(rt, "note.restored")
                humans = {s for s, u in enumerate(r.hand.seats) if u is not None}
                await play.resume(rt, fresh_seats=humans)


async def load_totals(storage: Storage, rt: TableRuntime) -> None:
    """The table's running totals, hands played and next dealer, from its finished hands."""
    hands = await storage.table_hands(rt.id)
    for h in hands:
        res = h.result
        if not h.finished or not res or "deltas" not in res:
            continue
        rt.hands_played = max(rt.hands_played, h.number)
        rt.next_dealer = int(res.get("next_dealer", 0))
        for seat, d in enumerate(res["deltas"]):
            user = h.seats[seat] if seat < len(h.seats) else None
            key = score_key(user, seat)
            rt.totals[key] = rt.totals.get(key, 0) + int(d)
    for h in hands:
        if h.finished:
            rt.hands_played = max(rt.hands_played, h.number)
